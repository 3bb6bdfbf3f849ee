//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) and every crash
//! the fuzzers found (`fuzz/regressions/<target>/`) through the same target bodies
//! the libFuzzer binaries run, so CI keeps them fixed without a nightly toolchain.

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut files: Vec<_> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let r = std::panic::catch_unwind(|| run(&bytes));
            assert!(r.is_ok(), "{target}: {} fails", f.display());
            n += 1;
        }
    }
    assert!(n > 0, "no corpus for {target}");
}

#[test]
fn fuzz_corpus_parse_jsonc() {
    replay("parse_jsonc", targets::parse_jsonc);
}

#[test]
fn fuzz_corpus_parse_toml() {
    replay("parse_toml", targets::parse_toml);
}

#[test]
fn fuzz_corpus_parse_yaml() {
    replay("parse_yaml", targets::parse_yaml);
}

#[test]
fn fuzz_corpus_scan_file() {
    replay("scan_file", targets::scan_file);
}

#[test]
fn fuzz_corpus_lockfile() {
    replay("lockfile", targets::lockfile);
}

#[test]
fn fuzz_corpus_unicode() {
    replay("unicode", targets::unicode);
}

#[test]
fn fuzz_corpus_markdown_escape() {
    replay("markdown_escape", targets::markdown_escape);
}

#[test]
fn fuzz_corpus_sarif() {
    replay("sarif", targets::sarif);
}

#[test]
fn fuzz_corpus_confine() {
    replay("confine", targets::confine);
}

#[test]
fn fuzz_corpus_log_redact() {
    replay("log_redact", targets::log_redact);
}
