//! Shared harness: run the real binary with a scrubbed environment.

use assert_cmd::Command;
use std::path::PathBuf;

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

/// The binary with an environment free of CI and GitHub variables, run from the repo root.
pub fn mtc() -> Command {
    let mut c = Command::cargo_bin("mcptrustchecker").expect("binary built");
    for (k, _) in std::env::vars() {
        if k.starts_with("GITHUB_")
            || k.starts_with("INPUT_")
            || k.starts_with("RUNNER_")
            || k == "CI"
            || k == "NO_COLOR"
        {
            c.env_remove(k);
        }
    }
    // Live scans cache packages under the user's cache directory: a test's
    // goes to one directory of this test run instead.
    static CACHE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        let p = std::env::temp_dir().join(format!("mtc-test-cache-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&p);
        p
    });
    c.env("XDG_CACHE_HOME", cache);
    c.current_dir(repo());
    c
}

/// Run `scan --format json` and parse the report.
pub fn scan_json(args: &[&str]) -> (serde_json::Value, i32) {
    let out = mtc()
        .arg("scan")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    let code = out.status.code().unwrap_or(-1);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
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
