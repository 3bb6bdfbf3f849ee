//! Stage 3 measured on real tools: precision and recall of every role against
//! the hand labels in `bench/role-labels.tsv` (decided from what each tool does,
//! before looking at what the scanner says), and the grades of the real catalogs.
//! `cargo test --test integration roles -- --nocapture --test-threads 1` prints
//! the tables (and every disagreement, for review).

use crate::common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const ROLES: [&str; 8] = [
    "untrusted-input",
    "sensitive-source",
    "external-sink",
    "code-exec",
    "file-write",
    "destructive",
    "high-impact",
    "url-fetch",
];

/// Every real catalog scanned in one run of the binary: servers by file stem.
fn real_catalogs() -> BTreeMap<String, Value> {
    let files = real_catalog_files();
    assert!(files.len() >= 35, "{} catalogs", files.len());
    let servers = scan_files(&files);
    assert_eq!(servers.len(), files.len(), "every catalog is read");
    servers
}

/// (catalog, tool) → labelled roles.
fn labels() -> BTreeMap<(String, String), BTreeSet<String>> {
    let text = std::fs::read_to_string(repo().join("bench/role-labels.tsv")).unwrap();
    let mut out = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "bad label line: {line}");
        let roles: BTreeSet<String> = if cols[2] == "-" {
            BTreeSet::new()
        } else {
            cols[2].split(',').map(str::to_string).collect()
        };
        for r in &roles {
            assert!(ROLES.contains(&r.as_str()), "unknown role {r} in: {line}");
        }
        let key = (cols[0].to_string(), cols[1].to_string());
        assert!(out.insert(key, roles).is_none(), "duplicate label: {line}");
    }
    out
}

#[test]
fn role_precision_and_recall_on_labelled_real_tools() {
    let labels = labels();
    assert!(labels.len() >= 300, "{} labels", labels.len());
    let catalogs: BTreeSet<&str> = labels.keys().map(|(c, _)| c.as_str()).collect();
    let servers = real_catalogs();
    assert_eq!(catalogs.len(), servers.len(), "labels cover every catalog");
    // role → (true positives, false positives, false negatives)
    let mut counts: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for ((cat, tool), want) in &labels {
        let s = &servers[cat];
        let got: BTreeSet<String> = s["roles"][tool.as_str()]
            .as_array()
            .unwrap_or_else(|| panic!("{cat}/{tool}: no such tool in the report"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        for role in ROLES {
            let (w, g) = (want.contains(role), got.contains(role));
            let c = counts.entry(role).or_default();
            match (w, g) {
                (true, true) => c.0 += 1,
                (false, true) => {
                    c.1 += 1;
                    disagreements.push(format!("FP {role:16} {cat}/{tool}"));
                }
                (true, false) => {
                    c.2 += 1;
                    disagreements.push(format!("FN {role:16} {cat}/{tool}"));
                }
                (false, false) => {}
            }
        }
    }
    for d in &disagreements {
        println!("  {d}");
    }
    println!(
        "\nroles on {} labelled tools from {} real catalogs:\n",
        labels.len(),
        catalogs.len()
    );
    println!("| role | labelled | predicted | precision | recall |");
    println!("|---|---:|---:|---:|---:|");
    let pct = |a: usize, b: usize| {
        if b == 0 {
            "n/a".to_string()
        } else {
            format!("{:.1} % ({a}/{b})", 100.0 * a as f64 / b as f64)
        }
    };
    let mut low = Vec::new();
    for role in ROLES {
        let (tp, fp, fnn) = counts[role];
        println!(
            "| {role} | {} | {} | {} | {} |",
            tp + fnn,
            tp + fp,
            pct(tp, tp + fp),
            pct(tp, tp + fnn)
        );
        if tp + fp > 0 && (tp as f64) < 0.9 * (tp + fp) as f64 {
            low.push(role);
        }
        // A role the scanner never finds would be precise and useless.
        assert!(tp > 0, "{role}: no labelled tool found");
    }
    assert!(low.is_empty(), "precision under 90 % for {low:?}");
}

#[test]
fn real_catalogs_grade_d_or_better_and_every_d_names_its_flow() {
    let servers = real_catalogs();
    let mut dist: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, s) in &servers {
        let grade = s["score"]["grade"].as_str().unwrap().to_string();
        let flows: BTreeSet<&str> = s["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule_id"].as_str().unwrap())
            .filter(|r| r.starts_with("MTC-FLOW"))
            .collect();
        println!(
            "  {name}: {grade} ({}) {}",
            s["score"]["value"],
            flows.iter().copied().collect::<Vec<_>>().join(" ")
        );
        assert_ne!(grade, "F", "{name} grades F: {:#}", s["findings"]);
        // A D is a real flow (a trifecta, or private data with a way out), not a pile of findings.
        if grade == "D" {
            assert!(
                ["MTC-FLOW-002", "MTC-FLOW-003", "MTC-FLOW-004"]
                    .iter()
                    .any(|f| flows.contains(f)),
                "{name} is a D without a flow that explains it: {flows:?}"
            );
        }
        dist.entry(grade).or_default().push(name.clone());
    }
    for (g, names) in &dist {
        println!("{g}: {} ({})", names.len(), names.join(", "));
    }
    // The GitHub-shaped server (public issues, private repository, merge requests) is a D with FLOW-002.
    let gitlab = &servers["gitlab"];
    assert_eq!(gitlab["score"]["grade"], "D");
    assert!(
        gitlab["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "MTC-FLOW-002")
    );
}
