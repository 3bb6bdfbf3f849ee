//! Detection quality on the labelled sets: per technique, how many attacks
//! grade C or worse and how many honest look-alikes do.
//!
//! Run: `cargo run --release --example detection_eval -- [OPTIONS]`
//!   --set tune|test|all     which half of tests/corpora/dev (default: all, reported apart)
//!   --corpora DIR           also the anchor corpus, MCP-SafetyBench and the real
//!                           catalogs under DIR (e.g. tests/vendor/corpora)
//!   --misses                list the tuning half's misses and false positives
//!                           (never the test half's: it is not for tuning)
//!   --markdown FILE         write the tables as Markdown
//!
//! A case counts as flagged when its server (or, for multi-server cases, its
//! session) grades C or worse on the whole pipeline; the stage 1–2 column
//! scores only the Unicode and injection findings.

// Tool and test code: a panic is the failure report and printing is the output.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

use mcptrustchecker::acquire::{AcquireOptions, acquire_paths};
use mcptrustchecker::detect::{ScanOptions, run};
use mcptrustchecker::finding::Finding;
use mcptrustchecker::score::{self, Grade};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

struct Case {
    id: String,
    technique: String,
    malicious: bool,
    half: &'static str,
    manifest: Value,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    n: usize,
    flagged: usize,
    flagged12: usize,
}

struct Outcome {
    grade: Grade,
    grade12: Grade,
    findings: Vec<String>,
}

fn main() -> anyhow::Result<()> {
    let mut set = "all".to_string();
    let mut corpora: Option<PathBuf> = None;
    let mut misses = false;
    let mut every = false;
    let mut markdown: Option<PathBuf> = None;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--set" => set = args.next().unwrap_or_default(),
            "--corpora" => corpora = args.next().map(PathBuf::from),
            "--misses" => misses = true,
            "--all" => every = true,
            "--markdown" => markdown = args.next().map(PathBuf::from),
            "--case" => only = args.next(),
            "--trace" => {
                // Any manifest in detail: the signals of every sentence.
                let p = PathBuf::from(args.next().unwrap_or_default());
                let opts = AcquireOptions {
                    root: p.parent().map(PathBuf::from).unwrap_or_default(),
                    ..AcquireOptions::default()
                };
                for s in &acquire_paths(&[p], &opts).surfaces {
                    for line in mcptrustchecker::detect::injection::trace(s) {
                        println!("  · {line}");
                    }
                }
                return Ok(());
            }
            _ => anyhow::bail!("unknown argument {a}"),
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut cases = Vec::new();
    for half in ["tune", "test"] {
        if set != "all" && set != half {
            continue;
        }
        cases.extend(load_dev(&root.join("tests/corpora/dev").join(half), half)?);
    }
    if let Some(id) = &only {
        // One tuning case in detail (test cases are not for looking at).
        cases.retain(|c| &c.id == id && c.half == "tune");
        let o = scan(&cases)?;
        for (id, x) in &o {
            println!("{id}: grade {} (stages 1-2 {})", x.grade, x.grade12);
            for f in &x.findings {
                println!("  {f}");
            }
        }
        for c in &cases {
            let dir = tempfile::tempdir()?;
            let p = dir.path().join("case.json");
            std::fs::write(&p, serde_json::to_vec(&c.manifest)?)?;
            let opts = AcquireOptions {
                root: dir.path().to_path_buf(),
                ..AcquireOptions::default()
            };
            for s in &acquire_paths(&[p], &opts).surfaces {
                for line in mcptrustchecker::detect::injection::trace(s) {
                    println!("  · {line}");
                }
            }
        }
        return Ok(());
    }
    let mut md = String::new();
    let outcomes = scan(&cases)?;
    let mut per: BTreeMap<(String, &'static str), Tally> = BTreeMap::new();
    for c in &cases {
        let o = &outcomes[&c.id];
        let t = per.entry((c.technique.clone(), c.half)).or_default();
        t.n += 1;
        t.flagged += usize::from(o.grade >= Grade::C);
        t.flagged12 += usize::from(o.grade12 >= Grade::C);
        if (every || misses && (o.grade >= Grade::C) != c.malicious) && c.half == "tune" {
            println!(
                "{} {} ({}) grade {} / stage 1-2 {}: {}",
                match (c.malicious, o.grade >= Grade::C) {
                    (true, false) => "MISS",
                    (false, true) => "FP  ",
                    (true, true) => "HIT ",
                    (false, false) => "OK  ",
                },
                c.id,
                c.technique,
                o.grade,
                o.grade12,
                o.findings.join(" | ")
            );
        }
    }
    writeln!(
        md,
        "| technique | tune: caught (stages 1–2) | test: caught (stages 1–2) |"
    )?;
    writeln!(md, "|---|---|---|")?;
    let mut techniques: Vec<&String> = per.keys().map(|(t, _)| t).collect();
    techniques.dedup();
    let mut totals: BTreeMap<(bool, &str), Tally> = BTreeMap::new();
    for t in techniques {
        let benign = t.starts_with("benign");
        let cell = |half: &'static str| -> String {
            per.get(&(t.clone(), half)).map_or("–".into(), |x| {
                format!("{}/{} ({})", x.flagged, x.n, x.flagged12)
            })
        };
        for half in ["tune", "test"] {
            if let Some(x) = per.get(&(t.clone(), half)) {
                let e = totals.entry((benign, half)).or_default();
                e.n += x.n;
                e.flagged += x.flagged;
                e.flagged12 += x.flagged12;
            }
        }
        writeln!(md, "| {t} | {} | {} |", cell("tune"), cell("test"))?;
    }
    for (benign, label) in [
        (false, "**attacks caught (recall)**"),
        (true, "**benign flagged (FPR)**"),
    ] {
        let cell = |half: &str| {
            totals.get(&(benign, half)).map_or("–".into(), |x| {
                format!(
                    "{}/{} = {:.1}% ({:.1}%)",
                    x.flagged,
                    x.n,
                    pct(x.flagged, x.n),
                    pct(x.flagged12, x.n)
                )
            })
        };
        writeln!(md, "| {label} | {} | {} |", cell("tune"), cell("test"))?;
    }
    if let Some(dir) = &corpora {
        writeln!(md)?;
        external(dir, &mut md, misses)?;
    }
    print!("{md}");
    if let Some(p) = markdown {
        std::fs::write(p, md)?;
    }
    Ok(())
}

fn pct(a: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * a as f64 / n as f64
    }
}

fn load_dev(dir: &Path, half: &'static str) -> anyhow::Result<Vec<Case>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let v: Value = serde_json::from_slice(&std::fs::read(&f)?)?;
        for c in v.as_array().into_iter().flatten() {
            out.push(Case {
                id: c["id"].as_str().unwrap_or("?").to_string(),
                technique: c["technique"].as_str().unwrap_or("?").to_string(),
                malicious: c["label"] == "malicious",
                half,
                manifest: c["manifest"].clone(),
            });
        }
    }
    Ok(out)
}

/// Scan every case as its own manifest file, in one pipeline run.
fn scan(cases: &[Case]) -> anyhow::Result<BTreeMap<String, Outcome>> {
    let dir = tempfile::tempdir()?;
    let mut paths = Vec::new();
    for c in cases {
        let p = dir.path().join(format!("{}.json", c.id));
        std::fs::write(&p, serde_json::to_vec_pretty(&c.manifest)?)?;
        paths.push(p);
    }
    outcomes(dir.path(), &paths)
}

fn outcomes(root: &Path, paths: &[PathBuf]) -> anyhow::Result<BTreeMap<String, Outcome>> {
    let opts = AcquireOptions {
        root: root.to_path_buf(),
        ..AcquireOptions::default()
    };
    let result = run(acquire_paths(paths, &opts), &ScanOptions::default());
    let mut out = BTreeMap::new();
    for s in &result.servers {
        let stem = Path::new(&s.surface.id)
            .file_stem()
            .map(|x| x.to_string_lossy().into_owned())
            .unwrap_or_default();
        let f12: Vec<&Finding> = s
            .findings
            .iter()
            .filter(|f| f.rule_id.starts_with("MTC-UNI-") || f.rule_id.starts_with("MTC-INJ-"))
            .collect();
        out.insert(
            stem,
            Outcome {
                grade: s.score.grade,
                grade12: score::score(f12).grade,
                findings: s
                    .findings
                    .iter()
                    .filter(|f| f.severity >= mcptrustchecker::finding::Severity::Low)
                    .map(|f| {
                        format!(
                            "{} {}/{} {}",
                            f.rule_id,
                            f.severity,
                            f.confidence,
                            mcptrustchecker::text::truncate_chars(&f.evidence, 400)
                        )
                    })
                    .collect(),
            },
        );
    }
    Ok(out)
}

/// The public corpora: the anchor's labelled corpus, MCP-SafetyBench's poisoned
/// tools, and the real catalogs (every one should stay at B or better).
fn external(dir: &Path, md: &mut String, verbose: bool) -> anyhow::Result<()> {
    let tmp = tempfile::tempdir()?;
    // Anchor corpus.
    let corpus: Vec<Value> = serde_json::from_slice(&std::fs::read(
        dir.join("mcptrustchecker-benchmark/corpus.json"),
    )?)?;
    let mut paths = Vec::new();
    for c in &corpus {
        let p = tmp
            .path()
            .join(format!("{}.json", c["id"].as_str().unwrap_or("x")));
        std::fs::write(&p, serde_json::to_vec(&c["manifest"])?)?;
        paths.push(p);
    }
    let o = outcomes(tmp.path(), &paths)?;
    let (mut tp, mut p, mut fp, mut n) = (0, 0, 0, 0);
    for c in &corpus {
        let g = o[c["id"].as_str().unwrap_or("x")].grade;
        if c["label"] == "malicious" {
            p += 1;
            tp += usize::from(g >= Grade::C);
        } else {
            n += 1;
            fp += usize::from(g >= Grade::C);
            if verbose && g >= Grade::C {
                println!(
                    "anchor FP {}: {:?}",
                    c["id"],
                    o[c["id"].as_str().unwrap_or("x")].findings
                );
            }
        }
    }
    writeln!(md, "| public set | attacks caught | benign flagged |")?;
    writeln!(md, "|---|---|---|")?;
    writeln!(
        md,
        "| anchor corpus | {tp}/{p} = {:.1}% | {fp}/{n} = {:.1}% |",
        pct(tp, p),
        pct(fp, n)
    )?;
    // Real catalogs.
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("real-catalogs"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let o = outcomes(dir, &files)?;
    let mut grades: BTreeMap<String, usize> = BTreeMap::new();
    let mut worse12 = Vec::new();
    for (name, out) in &o {
        *grades.entry(out.grade.to_string()).or_default() += 1;
        if out.grade12 >= Grade::C {
            worse12.push(format!("{name} ({})", out.grade12));
        }
        if verbose {
            for f in out
                .findings
                .iter()
                .filter(|f| f.starts_with("MTC-INJ") || f.starts_with("MTC-UNI"))
            {
                println!("real {name}: {f}");
            }
        }
    }
    writeln!(
        md,
        "| real catalogs ({}) | – | stages 1–2 grade C or worse: {} {:?}; whole-pipeline grades {:?} |",
        o.len(),
        worse12.len(),
        worse12,
        grades
    )?;
    Ok(())
}
