//! Every report format (terminal, JSON, SARIF, Markdown) of one fixture per
//! rule family, pinned as insta snapshots (`snapshots/`). The fixtures live in
//! `tests/fixtures/families/` (its README says what each one exercises).
//!
//! The binary runs from the repository root on a relative path with the
//! fixture as `--root`, on a fixed date and without colour, so every byte of
//! every report is deterministic and nothing is redacted. The one thing left
//! out of a family's SARIF snapshot is the text of `runs[0].tool.driver.rules`
//! (2,000 lines): it is the whole rule catalogue, the same for every input, so
//! each test asserts that it equals, byte for byte, the catalogue pinned once
//! in `snapshots/sarif_rules.snap`.
//!
//! To review a change: `cargo insta test --review` (or `INSTA_UPDATE=always`
//! and read the `.snap` diff): a snapshot is a claim that this output is right.

use crate::common::mtc;
use serde_json::Value;
use std::collections::BTreeSet;

/// The date expiries are judged against (the policy fixture has a review and
/// a suppression that expired before it).
const NOW: &str = "2026-06-01";

/// Run `scan` on a family's fixture in `format`: (stdout, exit code).
fn report(family: &str, format: &str) -> (String, i32) {
    let dir = format!("tests/fixtures/families/{family}");
    let out = mtc()
        .env("NO_COLOR", "1")
        .env("MTC_NOW", NOW)
        .args(["scan", &dir, "--root", &dir, "--format", format])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{family} {format}: stderr: {stderr}");
    (
        String::from_utf8(out.stdout).expect("reports are UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_prepend_module_to_snapshot(false);
    s.set_snapshot_path("snapshots");
    s.set_omit_expression(true);
    s
}

/// The SARIF log of `family` as printed, its rule catalogue (the lines of
/// `runs[0].tool.driver.rules`) cut out: (log, catalogue).
fn sarif(family: &str) -> (String, String) {
    let (text, _) = report(family, "sarif");
    let log: Value = serde_json::from_str(&text).unwrap();
    let count = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("the driver lists its rules")
        .len();
    // A key is the only place `"rules": [` can open a line: in a string its
    // quotes would be escaped.
    let lines: Vec<&str> = text.lines().collect();
    let open = lines
        .iter()
        .position(|l| l.trim_start() == "\"rules\": [")
        .expect("a rules array");
    let indent = &lines[open][..lines[open].len() - lines[open].trim_start().len()];
    let close = open
        + lines[open..]
            .iter()
            .position(|l| {
                l.strip_prefix(indent)
                    .is_some_and(|r| r == "]" || r == "],")
            })
            .expect("the rules array closes");
    let comma = if lines[close].ends_with(',') { "," } else { "" };
    let mut cut: Vec<String> = lines[..open].iter().map(|l| l.to_string()).collect();
    cut.push(format!(
        "{indent}\"rules\": [/* {count} rules: snapshots/sarif_rules.snap */]{comma}"
    ));
    cut.extend(lines[close + 1..].iter().map(|l| l.to_string()));
    (cut.join("\n"), lines[open..=close].join("\n"))
}

/// Snapshot all four formats of `family`, check its exit code and that its
/// JSON report holds every rule in `expected` (the rules the fixture is there
/// to exercise), and that the SARIF rule catalogue is the shared one.
fn family(family: &str, expected_code: i32, expected: &[&str]) {
    let settings = settings();
    let _guard = settings.bind_to_scope();

    let (terminal, code) = report(family, "terminal");
    assert_eq!(code, expected_code, "{family}: exit code\n{terminal}");
    insta::assert_snapshot!(format!("{family}.terminal"), terminal);

    let (json, code) = report(family, "json");
    assert_eq!(code, expected_code, "{family}: exit code (json)");
    let parsed: Value = serde_json::from_str(&json).unwrap();
    let fired: BTreeSet<&str> = parsed["servers"]
        .as_array()
        .unwrap()
        .iter()
        .chain(parsed["sessions"].as_array().into_iter().flatten())
        .flat_map(|s| s["findings"].as_array().unwrap())
        .chain(
            parsed["policy"]["findings"]
                .as_array()
                .into_iter()
                .flatten(),
        )
        .filter_map(|f| f["rule_id"].as_str())
        .collect();
    let missing: Vec<&&str> = expected.iter().filter(|r| !fired.contains(**r)).collect();
    assert!(
        missing.is_empty(),
        "{family}: the fixture no longer fires {missing:?} (fired: {fired:?})"
    );
    insta::assert_snapshot!(format!("{family}.json"), json);

    let (log, rules) = sarif(family);
    assert_eq!(rules, sarif("meta").1, "{family}: SARIF rule catalogue");
    insta::assert_snapshot!(format!("{family}.sarif"), log);

    let (markdown, code) = report(family, "markdown");
    assert_eq!(code, expected_code, "{family}: exit code (markdown)");
    insta::assert_snapshot!(format!("{family}.md"), markdown);
}

/// The rule catalogue every SARIF log carries (see the module comment).
#[test]
fn sarif_rules() {
    let settings = settings();
    let _guard = settings.bind_to_scope();
    let (_, rules) = sarif("meta");
    let parsed: Value =
        serde_json::from_str(&format!("{{{}}}", rules.trim_end_matches(','))).unwrap();
    let ids: Vec<&str> = parsed["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let out = mtc().arg("rules").output().unwrap();
    let catalogue: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert_eq!(
        ids, catalogue,
        "SARIF lists every rule of `rules`, in order"
    );
    insta::assert_snapshot!("sarif_rules", rules);
}

#[test]
fn unicode() {
    family(
        "unicode",
        1,
        &[
            "MTC-UNI-001",
            "MTC-UNI-003",
            "MTC-UNI-005",
            "MTC-UNI-008",
            "MTC-UNI-009",
            "MTC-UNI-010",
            "MTC-UNI-011",
        ],
    );
}

#[test]
fn injection() {
    family(
        "injection",
        1,
        &[
            "MTC-INJ-AUTH-2",
            "MTC-INJ-EXFIL-1",
            "MTC-INJ-PARAM",
            "MTC-INJ-POISON",
            "MTC-INJ-SECRECY-1",
            "MTC-INJ-SECRET-1",
            "MTC-INJ-TARGET-1",
        ],
    );
}

#[test]
fn capability() {
    family(
        "capability",
        0,
        &[
            "MTC-CAP-001",
            "MTC-CAP-002",
            "MTC-CAP-003",
            "MTC-CAP-005",
            "MTC-CAP-006",
            "MTC-CAP-008",
            "MTC-CAP-009",
            "MTC-CAP-010",
        ],
    );
}

#[test]
fn flow() {
    family("flow", 0, &["MTC-FLOW-002", "MTC-CAP-007"]);
}

#[test]
fn supply() {
    family(
        "supply",
        1,
        &[
            "MTC-SUP-002",
            "MTC-SUP-004",
            "MTC-SUP-005",
            "MTC-SUP-006",
            "MTC-SUP-013",
            "MTC-NET-001",
        ],
    );
}

#[test]
fn network() {
    family(
        "network",
        1,
        &[
            "MTC-NET-002",
            "MTC-NET-003",
            "MTC-NET-004",
            "MTC-NET-005",
            "MTC-NET-007",
            "MTC-NET-008",
            "MTC-NET-009",
            "MTC-NET-010",
            "MTC-NET-011",
            "MTC-NET-012",
        ],
    );
}

#[test]
fn meta() {
    family("meta", 0, &["MTC-META-001", "MTC-META-002"]);
}

#[test]
fn policy() {
    family(
        "policy",
        1,
        &[
            "MTC-POL-001",
            "MTC-POL-002",
            "MTC-POL-003",
            "MTC-POL-004",
            "MTC-POL-005",
            "MTC-POL-006",
            "MTC-POL-007",
            "MTC-POL-008",
            "MTC-POL-009",
            "MTC-POL-010",
            "MTC-POL-011",
        ],
    );
}

#[test]
fn drift() {
    family("drift", 1, &["MTC-TOFU-001"]);
}
