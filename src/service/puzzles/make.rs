//! Where puzzles come from: a file, the corpus taflbot carries (cut a batch at a time by a
//! claimed chore, in an order of the database's own), and the finished games of each server.

use super::*;

/// A chore claimed: how far it has come, its seed, and until when the claim holds.
struct Claimed {
    done_to: i64,
    seed: i64,
    lease: Lease,
}

/// A seed no other database is likely to share (never 0, which means "in order").
fn fresh_seed() -> i64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    (h.finish() >> 1).max(1) as i64
}

/// The order `n` corpus lines are cut in for `seed`: a shuffle of them, the same in every
/// process; seed 0 keeps the corpus's order.
pub fn cutting_order(n: usize, seed: i64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if seed != 0 {
        let mut rng = crate::rules::random::Rng::new(seed as u64);
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
    }
    order
}

impl Service {
    /// Stores puzzles read from `text`: JSON lines as `taflbot puzzles --json` writes them (each
    /// checked again), or recorded games, one a line, as the corpus writes them (cut here). At
    /// most `limit`; returns how many were new, and the lines that could not be used with why.
    /// `line_read` is called after each line (for a progress bar).
    pub async fn import_puzzles(
        &self,
        variant: &'static Variant,
        text: &str,
        limit: usize,
        mut line_read: impl FnMut() + Send + 'static,
    ) -> Result<(usize, Vec<String>), ServiceError> {
        let text = text.to_string();
        let (found, problems) = self
            .cpu(move |_| read_puzzles_shown(variant, &text, limit, &mut line_read))
            .await?;
        let mut new = 0;
        for p in &found {
            new += usize::from(self.add_puzzle(&self.pool, p, None).await?);
        }
        Ok((new, problems))
    }

    /// How many puzzles are stored.
    pub async fn puzzle_count(&self) -> Result<i64, ServiceError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM puzzles")
            .fetch_one(&self.pool)
            .await?)
    }

    /// Stores one puzzle (from game `from`, of its server, when cut from a game here); false when
    /// it was stored already.
    async fn add_puzzle<'e>(
        &self,
        conn: impl sqlx::Executor<'e, Database = sqlx::Any>,
        p: &Found,
        from: Option<(i64, Option<&str>)>,
    ) -> Result<bool, ServiceError> {
        let done = sqlx::query(
            "INSERT INTO puzzles (variant, position, solution, theme, game_id, guild, rating,
                                  deviation, volatility, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (variant, position) DO NOTHING",
        )
        .bind(p.variant.id)
        .bind(&p.position)
        .bind(p.solution.join(" "))
        .bind(p.theme.name())
        .bind(from.map(|(g, _)| g))
        .bind(from.and_then(|(_, guild)| guild))
        .bind(rating::START.rating)
        .bind(rating::START.deviation)
        .bind(rating::START.volatility)
        .bind(self.now())
        .execute(conn)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// One batch of the background work that makes puzzles: the corpus's next lines, then the
    /// finished games not yet looked at. Each is claimed first, so that several processes never
    /// cut the same batch; a process that dies holding a claim leaves it to another once the
    /// lease runs out. Returns whether anything was done (more may be left).
    pub async fn make_puzzles(&self, corpus: bool) -> Result<bool, ServiceError> {
        let mut worked = false;
        if corpus {
            worked |= self.cut_corpus(CORPUS).await? == Progress::Worked;
        }
        worked |= self.cut_finished_games().await?;
        Ok(worked)
    }

    /// Claims a chore for a lease: how far it has come and until when the claim holds, or `None`
    /// when another process holds it.
    /// A chore's seed is drawn once, by the process that first names it (the order the corpus
    /// is cut in; 0, in order, for a database that began cutting before chores had seeds).
    async fn claim_chore(&self, name: &str) -> Result<Option<Claimed>, ServiceError> {
        let lease = self.new_lease();
        sqlx::query(
            "INSERT INTO chores (name, seed) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(fresh_seed())
        .execute(&self.pool)
        .await?;
        let row: Option<(i64, i64)> = sqlx::query_as(
            "UPDATE chores SET claimed_until = $2
             WHERE name = $1 AND (claimed_until IS NULL OR claimed_until <= $3)
             RETURNING done_to, seed",
        )
        .bind(name)
        .bind(lease.until)
        .bind(lease.now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(done_to, seed)| Claimed {
            done_to,
            seed,
            lease,
        }))
    }

    /// Cuts the next lines of `corpus` (a batch), stores their puzzles and moves the chore on.
    /// The corpus is cut once per database.
    pub async fn cut_corpus(&self, corpus: &'static str) -> Result<Progress, ServiceError> {
        const CHORE: &str = "corpus";
        let total = corpus.lines().count() as i64;
        let Some(Claimed {
            done_to,
            seed,
            lease,
        }) = self.claim_chore(CHORE).await?
        else {
            return Ok(Progress::Busy);
        };
        // Moves the chore on and lets it go, unless the claim ran out and another process took
        // it meanwhile (its batch then counts, and this one's puzzles are stored twice over
        // harmlessly: each position once).
        let release = |to: i64| {
            sqlx::query(
                "UPDATE chores SET done_to = $2, claimed_until = NULL
                 WHERE name = $1 AND claimed_until = $3",
            )
            .bind(CHORE)
            .bind(to)
            .bind(lease.until)
        };
        if done_to >= total {
            release(done_to).execute(&self.pool).await?;
            return Ok(Progress::Done);
        }
        let variant = Variant::by_id(CORPUS_VARIANT).expect("the corpus's variant is a variant");
        // Cut in an order of this database's own, so that a puzzle's number says nothing of
        // which recorded game (and so which solution) it came from.
        let all: Vec<&str> = corpus.lines().collect();
        let lines: String = cutting_order(all.len(), seed)
            .into_iter()
            .skip(done_to as usize)
            .take(CORPUS_BATCH)
            .map(|i| all[i])
            .collect::<Vec<_>>()
            .join("\n");
        let found = self
            .cpu(move |_| read_puzzles(variant, &lines, usize::MAX).0)
            .await?;
        let mut tx = self.write().await?;
        for p in &found {
            self.add_puzzle(&mut *tx, p, None).await?;
        }
        let next = (done_to + CORPUS_BATCH as i64).min(total);
        release(next).execute(&mut *tx).await?;
        tx.commit().await?;
        if next >= total {
            tracing::info!("every puzzle of the corpus is made");
        }
        Ok(Progress::Worked)
    }

    /// Looks at a batch of finished games not looked at yet and stores the puzzles cut from
    /// them, each of its game's server. False when none was waiting (or another process holds
    /// the work).
    pub async fn cut_finished_games(&self) -> Result<bool, ServiceError> {
        const CHORE: &str = "games";
        let waiting = |conn| {
            sqlx::query_scalar::<_, i64>(
                "SELECT id FROM games WHERE status = 'finished' AND puzzles_cut = 0
                 ORDER BY id LIMIT $1",
            )
            .bind(GAMES_BATCH)
            .fetch_all(conn)
        };
        // A look before claiming, so that an idle database is not written to every round.
        if waiting(&self.pool).await?.is_empty() {
            return Ok(false);
        }
        let Some(Claimed { lease, .. }) = self.claim_chore(CHORE).await? else {
            return Ok(false);
        };
        let everywhere = self.scoped(Scope::Everywhere);
        let mut cuts = Vec::new();
        for id in waiting(&self.pool).await? {
            cuts.push((id, everywhere.cut_game(id).await));
        }
        let mut tx = self.write().await?;
        for (id, found) in &cuts {
            match found {
                Ok(Some((p, guild))) => {
                    self.add_puzzle(&mut *tx, p, Some((*id, Some(guild))))
                        .await?;
                }
                Ok(None) => {}
                // A game that cannot be loaded or cut is passed over for good, not tried again
                // every round.
                Err(e) => tracing::warn!(game = id, error = %e, "not looked at for puzzles"),
            }
            sqlx::query("UPDATE games SET puzzles_cut = 1 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "UPDATE chores SET claimed_until = NULL WHERE name = $1 AND claimed_until = $2",
        )
        .bind(CHORE)
        .bind(lease.until)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The puzzle cut from finished game `id`, if it gives one, with the server it belongs to:
    /// the game's, or [`NO_SERVER`] for a game of no server (the local mode's).
    async fn cut_game(&self, id: i64) -> Result<Option<(Found, String)>, ServiceError> {
        let mut conn = self.pool.acquire().await?;
        let loaded = self.load(&mut conn, id).await?;
        drop(conn);
        let guild = loaded.row.guild.clone().unwrap_or(NO_SERVER.to_string());
        let Some(winner) = loaded.row.result.winner() else {
            return Ok(None);
        };
        let game = loaded.game;
        let found = self
            .cpu(move |_| cut(&game, winner).map(|p| Found::of(&p)))
            .await?;
        Ok(found.map(|f| (f, guild)))
    }

    /// Runs [`Service::make_puzzles`] in the background until `stop`: a batch, then a rest as
    /// long as the batch took (so that it takes at most about half a core), or `every` when
    /// there was nothing to do.
    pub fn spawn_puzzle_maker(
        &self,
        every: std::time::Duration,
        corpus: bool,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        let service = self.clone();
        tokio::spawn(async move {
            loop {
                let began = std::time::Instant::now();
                let rest = match service.make_puzzles(corpus).await {
                    Ok(true) => began.elapsed().max(std::time::Duration::from_millis(50)),
                    Ok(false) => every,
                    Err(e) => {
                        tracing::warn!(error = %e, "puzzles not made; trying again later");
                        every
                    }
                };
                if !crate::service::rest_or_stop(rest, &mut stop).await {
                    return;
                }
            }
        })
    }
}

/// A puzzle found in a file or cut from a game, ready to store.
#[derive(Clone, Debug)]
pub struct Found {
    pub variant: &'static Variant,
    pub position: String,
    pub solution: Vec<String>,
    pub theme: Theme,
}

impl Found {
    /// A puzzle the engine cut, as stored.
    fn of(p: &Puzzle) -> Found {
        Found {
            variant: p.game.variant(),
            position: write_position(p.game.position()),
            solution: p.written(),
            theme: p.theme,
        }
    }
}

/// Reads puzzles from lines (see [`Service::import_puzzles`]): at most `limit`, with a note for
/// each line that could not be used.
pub fn read_puzzles(
    variant: &'static Variant,
    text: &str,
    limit: usize,
) -> (Vec<Found>, Vec<String>) {
    read_puzzles_shown(variant, text, limit, &mut || ())
}

/// [`read_puzzles`], calling `line_read` after each line.
fn read_puzzles_shown(
    variant: &'static Variant,
    text: &str,
    limit: usize,
    line_read: &mut dyn FnMut(),
) -> (Vec<Found>, Vec<String>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if found.len() >= limit {
            break;
        }
        line_read();
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let read = if line.starts_with('{') {
            puzzle_line(line).map(Some)
        } else {
            Ok(game_line(variant, line))
        };
        match read {
            Ok(Some(p)) => found.push(p),
            Ok(None) => {}
            Err(why) => problems.push(format!("line {}: {why}", i + 1)),
        }
    }
    (found, problems)
}

/// A puzzle written as `taflbot puzzles --json` writes it, checked for soundness.
fn puzzle_line(line: &str) -> Result<Found, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let field = |name: &str| {
        v[name]
            .as_str()
            .ok_or_else(|| format!("no \"{name}\" as text"))
    };
    let variant = Variant::by_id(field("variant")?)
        .ok_or_else(|| format!("no variant {}", field("variant").unwrap_or_default()))?;
    let solution: Vec<String> = v["solution"]
        .as_array()
        .ok_or("no \"solution\" list")?
        .iter()
        .map(|s| {
            s.as_str()
                .map(str::to_string)
                .ok_or("a turn that is not text")
        })
        .collect::<Result<_, _>>()?;
    let (game, moves) = read_puzzle(variant, field("position")?, &solution.join(" "))?;
    let theme = check(&game, &moves).map_err(|e: Unsound| format!("not a sound puzzle: {e}"))?;
    Ok(Found {
        variant,
        position: write_position(game.position()),
        solution: crate::engine::written(
            &game,
            &moves
                .iter()
                .map(|&m| crate::engine::Step::Move(m))
                .collect::<Vec<_>>(),
        ),
        theme,
    })
}

/// The puzzle cut from a recorded game (`moves[,…,result]`), if it gives one.
fn game_line(variant: &'static Variant, line: &str) -> Option<Found> {
    let (game, winner) = notation::recorded_game(variant, line)?;
    cut(&game, winner?).map(|p| Found::of(&p))
}
