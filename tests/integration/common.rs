//! Shared harness: run the real binary with a scrubbed environment, and build
//! the manifests, configs and temporary repositories the tests scan.

use assert_cmd::Command;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The repository root (where `fixtures/` lives).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The public corpora the tests measure on, vendored under `tests/vendor/`
/// (each folder's `SOURCE.md` gives its origin, commit and licence).
pub fn corpora() -> PathBuf {
    vendor().join("corpora")
}

/// `tests/vendor/`: third-party data the tests read, with its provenance.
pub fn vendor() -> PathBuf {
    repo().join("tests/vendor")
}

// ------------------------------------------------------------- environment

/// The only variables a spawned process keeps from the test's own
/// environment: `PATH`, to find `git`, `python3`, `node` and the launchers
/// (plus what Windows needs to start a process at all). Everything else the
/// binary reads (`MTC_NOW`, `NO_COLOR`, `HOME`, `XDG_*`, `GITHUB_*`,
/// `ACTIONS_*`, `RUNNER_*`, `INPUT_*`, `CI`, proxies, …) is cleared, and a test
/// that wants one sets it on the command.
const KEPT: &[&str] = if cfg!(windows) {
    &[
        "PATH",
        "SYSTEMROOT",
        "SYSTEMDRIVE",
        "TEMP",
        "TMP",
        "PATHEXT",
    ]
} else {
    &["PATH"]
};

/// Clear `cmd`'s environment down to [`KEPT`].
pub fn scrub(cmd: &mut std::process::Command) -> &mut std::process::Command {
    cmd.env_clear();
    for k in KEPT {
        if let Some(v) = std::env::var_os(k) {
            cmd.env(k, v);
        }
    }
    cmd
}

/// One package cache for every live scan of this test run, so that no test
/// downloads into (or reads from) the user's cache directory.
fn package_cache() -> &'static Path {
    static CACHE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| {
        let p = std::env::temp_dir().join(format!("mtc-test-cache-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&p);
        p
    })
}

/// The binary with a scrubbed environment ([`scrub`]) and this run's package
/// cache (`XDG_CACHE_HOME`), run from the repo root.
pub fn mtc() -> Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("mcptrustchecker"));
    scrub(&mut c)
        .env("XDG_CACHE_HOME", package_cache())
        .current_dir(repo());
    Command::from_std(c)
}

/// What a finished run printed, and its exit code (-1 when killed by a signal).
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run the binary in `dir` with `args`.
pub fn run_in(dir: &Path, args: &[&str]) -> Out {
    let out = mtc().current_dir(dir).args(args).output().expect("runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Run `scan --format json` from the repo root and parse the report.
pub fn scan_json(args: &[&str]) -> (Value, i32) {
    scan_json_in(&repo(), args)
}

/// Run `scan --format json` in `dir` and parse the report.
pub fn scan_json_in(dir: &Path, args: &[&str]) -> (Value, i32) {
    let out = mtc()
        .current_dir(dir)
        .arg("scan")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    let code = out.status.code().unwrap_or(-1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, code)
}

/// Find a server in a JSON report by id suffix.
pub fn server<'a>(report: &'a serde_json::Value, id_suffix: &str) -> &'a serde_json::Value {
    report["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"].as_str().unwrap().ends_with(id_suffix))
        .unwrap_or_else(|| panic!("no server ending with {id_suffix}"))
}

/// Scan many files in one run of the binary; servers by file stem.
pub fn scan_files(paths: &[PathBuf]) -> std::collections::BTreeMap<String, serde_json::Value> {
    let args: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (r, _) = scan_json(&refs);
    r["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let id = s["id"].as_str().unwrap();
            let stem = std::path::Path::new(id)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (stem, s.clone())
        })
        .collect()
}

/// The `*.json` files directly in `dir`, sorted.
pub fn json_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// The vendored real catalogs (`real-catalogs/*.json`), sorted.
pub fn real_catalog_files() -> Vec<PathBuf> {
    json_files(&corpora().join("real-catalogs"))
}

// ------------------------------------------------------ manifests, configs

/// A tool taking one required string `query`.
pub fn tool(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description, "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}})
}

/// A tool manifest (`tools.json`): `serverInfo`, then the tools.
pub fn manifest_doc(name: &str, version: &str, tools: &[Value]) -> Value {
    json!({"serverInfo": {"name": name, "version": version}, "tools": tools})
}

/// [`manifest_doc`] of server `name` 1.0.0 that also states the protocol
/// version it was listed with, pretty-printed.
pub fn named_manifest(name: &str, tools: &[Value]) -> String {
    let mut doc = manifest_doc(name, "1.0.0", tools);
    doc["protocolVersion"] = json!("2025-06-18");
    serde_json::to_string_pretty(&doc).unwrap()
}

/// [`named_manifest`] of a server called `notes`.
pub fn manifest(tools: &[Value]) -> String {
    named_manifest("notes", tools)
}

/// A client config in the `mcpServers` shape (Cursor, Claude, …) holding `servers`.
pub fn mcp_servers(servers: Value) -> String {
    json!({"mcpServers": servers}).to_string()
}

/// Hidden instructions in Unicode Tags characters: invisible in every UI.
pub fn tags(s: &str) -> String {
    s.chars()
        .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
        .collect()
}

// ----------------------------------------------------- temporary repositories

/// A temporary directory the scanner takes for a repository root: it holds
/// an empty `.git` directory and nothing else (no git history; see
/// [`git_repo`] for one).
pub fn marked_repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join(".git")).unwrap();
    d
}

/// A temporary git repository (`git init`, branch `main`, no commits).
pub fn git_repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    git(d.path(), &["init", "-q"]);
    d
}

/// Write `text` to `dir/rel`, creating the directories on the way.
pub fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Run git in `dir` with a scrubbed environment and a fixed identity; its
/// trimmed stdout. Panics when git fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let mut cmd = std::process::Command::new("git");
    scrub(&mut cmd)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Commit everything in `dir`; the new commit's id.
pub fn commit(dir: &Path, msg: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", msg]);
    git(dir, &["rev-parse", "HEAD"])
}

/// Pin every surface of the repository in `mcptrustchecker.lock`.
pub fn lock(dir: &Path) {
    let out = run_in(dir, &["lock", "."]);
    assert!(out.code == 0, "lock: {}", out.stderr);
}
