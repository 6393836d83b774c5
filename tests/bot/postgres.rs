//! The throwaway PostgreSQL the tests start (`tests/throwaway_pg`): one cluster for the test
//! binary, a database of its own for each test.

use sqlx::postgres::PgPool;

use crate::throwaway_pg;

#[tokio::test]
async fn a_throwaway_postgres_gives_each_test_a_database_of_its_own() {
    let Some(pg) = throwaway_pg::cluster() else {
        return;
    };
    let (one, two) = (pg.database(), pg.database());
    assert_ne!(one, two);
    let first = PgPool::connect(&one).await.unwrap();
    sqlx::query("CREATE TABLE kept (n BIGINT NOT NULL)")
        .execute(&first)
        .await
        .unwrap();
    sqlx::query("INSERT INTO kept (n) VALUES ($1), ($2)")
        .bind(7_i64)
        .bind(11_i64)
        .execute(&first)
        .await
        .unwrap();
    let sum: i64 = sqlx::query_scalar("SELECT CAST(SUM(n) AS BIGINT) FROM kept")
        .fetch_one(&first)
        .await
        .unwrap();
    assert_eq!(sum, 18);
    // The other database has nothing of it.
    let second = PgPool::connect(&two).await.unwrap();
    let missing = sqlx::query("SELECT n FROM kept").fetch_all(&second).await;
    assert!(missing.is_err(), "{missing:?}");
    first.close().await;
    second.close().await;
}
