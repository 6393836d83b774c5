//! A throwaway PostgreSQL for the tests and benchmarks: a cluster made with the installed server's
//! `initdb` in a temporary folder, run on a free loopback port with `fsync=off`, one per test
//! binary, and a fresh database for each test that asks.
//!
//! The server runs under a small shell that waits on a pipe from this process: when the process
//! ends, however it ends, the pipe closes and the shell stops the server and removes its folder.
//! PostgreSQL refuses to run as root, so as root the shell runs as the `postgres` user.
//!
//! Where no PostgreSQL is installed, [`cluster`] says so in one line and gives `None` (the caller
//! skips), unless `TAFLBOT_REQUIRE_POSTGRES` is set (as `.ci/run` sets it): then it fails.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The variable that makes a missing PostgreSQL a failure instead of a skip.
pub const REQUIRE: &str = "TAFLBOT_REQUIRE_POSTGRES";

pub struct Cluster {
    pub port: u16,
    bin: PathBuf,
    dir: PathBuf,
    /// The shell that stops the server when this process ends (its stdin is our pipe).
    _keeper: Mutex<Child>,
    databases: AtomicU32,
    /// The databases made by [`Cluster::named`], by the name they were asked for.
    named: Mutex<std::collections::HashMap<String, String>>,
}

/// The cluster of this test binary, started on first use; `None` where PostgreSQL is not
/// installed (said once, on standard error).
pub fn cluster() -> Option<&'static Cluster> {
    static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
    CLUSTER
        .get_or_init(|| match server_binaries() {
            Some(bin) => Some(Cluster::start(bin)),
            None => {
                let required = std::env::var_os(REQUIRE).is_some();
                assert!(
                    !required,
                    "{REQUIRE} is set, but no PostgreSQL server is installed (/usr/lib/postgresql/*/bin)"
                );
                eprintln!(
                    "PostgreSQL is not installed here (/usr/lib/postgresql/*/bin): its tests are skipped"
                );
                None
            }
        })
        .as_ref()
}

/// The newest installed server's binaries, or those `TAFLBOT_PG_BIN` names.
fn server_binaries() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TAFLBOT_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// Single quotes around a path for the shell.
fn quoted(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

impl Cluster {
    fn start(bin: PathBuf) -> Cluster {
        let started = Instant::now();
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("taflbot-pg-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for the cluster");
        let root = running_as_root();
        if root {
            let owned = Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&dir)
                .status()
                .expect("chown runs");
            assert!(
                owned.success(),
                "could not give {} to postgres",
                dir.display()
            );
        }
        let (b, d) = (quoted(&bin), quoted(&dir));
        let script = format!(
            "{b}/initdb -D {d}/data -U taflbot -A trust -E UTF8 --no-sync > {d}/initdb.log 2>&1 || exit 1
             {b}/postgres -D {d}/data -h 127.0.0.1 -p {port} -k {d} -c fsync=off \
                -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 \
                > {d}/server.log 2>&1 &
             server=$!
             read _ignored || true
             kill -QUIT $server 2>/dev/null
             wait $server
             rm -rf {d}"
        );
        let mut command = if root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--", "sh", "-c", &script]);
            c
        } else {
            let mut c = Command::new("sh");
            c.args(["-c", &script]);
            c
        };
        let keeper = command
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("the shell that keeps PostgreSQL runs");
        let cluster = Cluster {
            port,
            bin,
            dir,
            _keeper: Mutex::new(keeper),
            databases: AtomicU32::new(0),
            named: Mutex::default(),
        };
        let deadline = started + Duration::from_secs(60);
        while !cluster.psql("postgres", "SELECT 1") {
            if Instant::now() > deadline {
                let log =
                    |f: &str| std::fs::read_to_string(cluster.dir.join(f)).unwrap_or_default();
                panic!(
                    "the throwaway PostgreSQL did not start in a minute\n{}\n{}",
                    log("initdb.log"),
                    log("server.log")
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!(
            "a throwaway PostgreSQL is on 127.0.0.1:{port} (started in {:.1} s)",
            started.elapsed().as_secs_f64()
        );
        cluster
    }

    /// Runs one statement with `psql` in `database`; whether it succeeded.
    pub fn psql(&self, database: &str, sql: &str) -> bool {
        Command::new(self.bin.join("psql"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "taflbot",
            ])
            .args(["-d", database, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    }

    /// The URL of a database of the cluster.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://taflbot@127.0.0.1:{}/{database}", self.port)
    }

    /// A new empty database, and its URL.
    pub fn database(&self) -> String {
        let name = format!("t{}", self.databases.fetch_add(1, Ordering::SeqCst) + 1);
        assert!(
            self.psql("postgres", &format!("CREATE DATABASE {name}")),
            "could not create database {name}"
        );
        self.url(&name)
    }

    /// The database a test calls `name` (a SQLite file's path, say), made on first asking: asked
    /// again, the same database, as a file opened again is the same file.
    pub fn named(&self, name: &str) -> String {
        let mut named = self.named.lock().unwrap_or_else(|e| e.into_inner());
        named
            .entry(name.to_string())
            .or_insert_with(|| self.database())
            .clone()
    }
}
