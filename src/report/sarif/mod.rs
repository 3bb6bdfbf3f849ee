//! SARIF 2.1.0 for GitHub code scanning. One run; every result sits at a file
//! in the repository (GitHub drops results it cannot place); fingerprints are
//! derived from what a finding is about, never from line numbers, so an alert
//! survives unrelated edits; GitHub's size limits are enforced by keeping the
//! most severe results and saying so in the run's notifications.

mod rules;
#[cfg(test)]
mod tests;

use crate::finding::Finding;
use crate::model::{ScanResult, Verdict};
use crate::rules::Rule;
use rules::{descriptor, result_level};
pub use rules::{level, precision, security_severity};
use serde_json::{Value, json};
use serde_sarif::sarif;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Key of our entry in `partialFingerprints` (bump the suffix if the derivation changes).
pub const FINGERPRINT_KEY: &str = "mcptrustchecker/v1";
/// The key GitHub tracks alerts by. Given, it is used as is; absent, GitHub
/// hashes the text around the line, so an alert would not follow a moved entry.
pub const LINE_HASH_KEY: &str = "primaryLocationLineHash";
/// Where `$schema` points.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The base every result URI is relative to.
pub const SRCROOT: &str = "%SRCROOT%";
const INFORMATION_URI: &str = "https://github.com/mcptrustchecker/mcptrustchecker";

/// GitHub's upload limits (docs: "SARIF support for code scanning").
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Results per run.
    pub max_results: usize,
    /// Bytes of the serialised file (GitHub's cap is 10 MB gzipped; staying under it uncompressed is always safe).
    pub max_bytes: usize,
}

/// How one SARIF log is written.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub limits: Limits,
    /// The code-scanning category: `automationDetails.id` is `CATEGORY/`, so
    /// two runs in one repository keep separate alerts. `None` leaves it unset
    /// (upload-sarif then applies its own `category`).
    pub category: Option<String>,
    /// Line lengths of the files results point at, for full regions.
    pub lines: LineIndex,
}

/// The length (in Unicode code points, SARIF's `columnKind`) of every line of
/// the files results sit in, so each region names its whole line.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    files: BTreeMap<String, Vec<u32>>,
}

impl LineIndex {
    /// Read the files the findings of `r` point at, inside `root` only (a path
    /// leaving it, or a file larger than `max_bytes`, is left out: its regions
    /// then name the start only).
    pub fn read(root: &std::path::Path, r: &ScanResult, max_bytes: u64) -> LineIndex {
        let Ok(ws) = crate::acquire::confine::Workspace::new(root) else {
            return LineIndex::default();
        };
        let mut paths: Vec<&str> = r
            .servers
            .iter()
            .flat_map(|s| s.findings.iter())
            .chain(r.sessions.iter().flat_map(|s| s.findings.iter()))
            .chain(r.policy.iter().flat_map(|p| p.findings.iter()))
            .map(|f| f.location.path.as_str())
            .filter(|p| !p.is_empty())
            .collect();
        paths.sort_unstable();
        paths.dedup();
        let mut files = BTreeMap::new();
        for p in paths {
            let Ok((abs, _)) = ws.resolve(p) else {
                continue;
            };
            let Ok(text) = crate::parse::read_text(&abs, p, max_bytes) else {
                continue;
            };
            files.insert(p.to_string(), Self::lengths(&text));
        }
        LineIndex { files }
    }
    /// Code points per line (`\r\n`, `\n` and `\r` end a line).
    pub fn lengths(text: &str) -> Vec<u32> {
        text.split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).chars().count() as u32)
            .collect()
    }
    pub fn insert(&mut self, path: &str, text: &str) {
        self.files.insert(path.to_string(), Self::lengths(text));
    }
    fn line_len(&self, path: &str, line: u32) -> Option<u32> {
        let i = usize::try_from(line.checked_sub(1)?).ok()?;
        self.files.get(path)?.get(i).copied()
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_results: 25_000,
            max_bytes: 10_000_000,
        }
    }
}

/// A repo-relative path as a URI reference, or `None` when the path is not inside
/// the repository (absolute, `..`, empty): such a result cannot be shown by GitHub.
pub fn repo_uri(path: &str) -> Option<String> {
    let p = path.replace('\\', "/");
    let p = p.strip_prefix("./").unwrap_or(&p);
    if p.is_empty()
        || p.starts_with('/')
        || p.as_bytes().get(1) == Some(&b':')
        || p.split('/').any(|seg| seg == ".." || seg.is_empty())
    {
        return None;
    }
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Some(out)
}

/// Plain-text SARIF message: invisible characters shown, and brackets escaped so a
/// scanned `[x](1)` can never become an embedded link (SARIF §3.11.6).
pub fn message_text(s: &str) -> String {
    crate::text::visible(s)
        .replace('[', "\\[")
        .replace(']', "\\]")
}

/// `primaryLocationLineHash` from a finding's identity (not its line's text),
/// in GitHub's `hash:occurrence` shape: moving an entry keeps its alert.
pub fn line_hash(f: &Finding, scope: &str, occurrence: usize) -> String {
    format!("{}:{}", &fingerprint(f, scope)[..16], occurrence + 1)
}

/// Stable identity of a finding: rule, server (or session), tool and field.
pub fn fingerprint(f: &Finding, scope: &str) -> String {
    let mut h = Sha256::new();
    for part in [
        f.rule_id.as_str(),
        scope,
        f.tool.as_deref().unwrap_or(""),
        f.field.as_deref().unwrap_or(""),
    ] {
        h.update(part.as_bytes());
        h.update([0x1f]);
    }
    hex::encode(h.finalize())[..32].to_string()
}

/// One finding with the scope it belongs to: `kind` is `server`, `session` or
/// `policy` (a finding about the policy file itself), `scope` that id or path.
struct Candidate<'a> {
    f: &'a Finding,
    scope: &'a str,
    kind: &'static str,
    uri: String,
    order: usize,
}

/// A region from the start of the finding to the end of its line (the end
/// column is exclusive; an unknown line length gives the start line only).
fn location(uri: &str, line: u32, column: u32, line_len: Option<u32>) -> sarif::Location {
    let art = sarif::ArtifactLocation::builder()
        .uri(uri.to_string())
        .uri_base_id(SRCROOT.to_string())
        .build();
    let phys = if line >= 1 {
        let start = column.max(1);
        let mut region = sarif::Region::builder()
            .start_line(line as i64)
            .start_column(start as i64)
            .end_line(line as i64)
            .build();
        region.end_column = line_len.map(|n| (n + 1).max(start + 1) as i64);
        sarif::PhysicalLocation::builder()
            .artifact_location(art)
            .region(region)
            .build()
    } else {
        sarif::PhysicalLocation::builder()
            .artifact_location(art)
            .build()
    };
    sarif::Location::builder().physical_location(phys).build()
}

fn result(
    c: &Candidate<'_>,
    rule_index: &BTreeMap<String, usize>,
    occurrence: usize,
    lines: &LineIndex,
) -> sarif::Result {
    let f = c.f;
    let mut who = vec![format!("{} {}", c.kind, c.scope)];
    if let Some(t) = &f.tool {
        who.push(format!("tool {t}"));
    }
    if let Some(field) = &f.field {
        who.push(format!("field {field}"));
    }
    let mut text = format!("{} ({})", f.message, who.join(", "));
    if !f.evidence.is_empty() {
        text.push_str(&format!(". Evidence: {}", f.evidence));
    }
    let mut fp = BTreeMap::new();
    let base = fingerprint(f, c.scope);
    fp.insert(
        FINGERPRINT_KEY.to_string(),
        if occurrence == 0 {
            base
        } else {
            format!("{base}:{occurrence}")
        },
    );
    fp.insert(LINE_HASH_KEY.to_string(), line_hash(f, c.scope, occurrence));
    let mut props = BTreeMap::new();
    props.insert("severity".to_string(), json!(f.severity.as_str()));
    props.insert("confidence".to_string(), json!(f.confidence.as_str()));
    props.insert(c.kind.to_string(), json!(c.scope));
    if let Some(s) = security_severity(f.severity) {
        props.insert("security-severity".to_string(), json!(s));
    }
    let mut b = sarif::Result::builder()
        .rule_id(f.rule_id.clone())
        .rule_index(rule_index.get(&f.rule_id).copied().unwrap_or(0) as i64)
        .level(result_level(f.severity))
        .message(sarif::Message::builder().text(message_text(&text)).build())
        .locations(vec![location(
            &c.uri,
            f.location.line,
            f.location.column,
            lines.line_len(&f.location.path, f.location.line),
        )])
        .partial_fingerprints(fp)
        .properties(
            sarif::PropertyBag::builder()
                .additional_properties(props)
                .build(),
        )
        .build();
    if let Some(s) = &f.suppressed {
        let just = format!(
            "{} (owner {}, expires {})",
            crate::text::visible(&s.reason),
            crate::text::visible(&s.owner),
            crate::text::visible(&s.expires)
        );
        b.suppressions = Some(vec![
            sarif::Suppression::builder()
                .kind(json!("external"))
                .status(json!("accepted"))
                .justification(just)
                .build(),
        ]);
    }
    b
}

fn notification(level: &str, text: String) -> sarif::Notification {
    sarif::Notification::builder()
        .level(json!(level))
        .message(sarif::Message::builder().text(message_text(&text)).build())
        .build()
}

/// Render the SARIF log with GitHub's default limits and no category.
pub fn render(r: &ScanResult, v: &Verdict) -> String {
    render_opts(r, v, &Options::default())
}

/// Render the SARIF log, keeping within `limits`.
pub fn render_with(r: &ScanResult, v: &Verdict, limits: &Limits) -> String {
    render_opts(
        r,
        v,
        &Options {
            limits: *limits,
            ..Options::default()
        },
    )
}

/// Render the SARIF log as `opts` say.
pub fn render_opts(r: &ScanResult, v: &Verdict, opts: &Options) -> String {
    render_inner(r, v, opts, true)
}

/// The `automationDetails.id` for a category: `cat/` (the trailing `/` says
/// "category only, no run id").
pub fn automation_id(category: &str) -> String {
    let c = category.trim();
    if c.ends_with('/') {
        c.to_string()
    } else {
        format!("{c}/")
    }
}

/// `predict`: size the shrink loop from per-result sizes (serialise once);
/// otherwise serialise at every step (the reference the tests compare with).
fn render_inner(r: &ScanResult, v: &Verdict, opts: &Options, predict: bool) -> String {
    let limits = &opts.limits;
    // Every finding with the scope it belongs to, in report order.
    let mut all: Vec<(&Finding, &str, &'static str)> = Vec::new();
    for s in &r.servers {
        for f in &s.findings {
            all.push((f, f.server.as_deref().unwrap_or(&s.surface.id), "server"));
        }
    }
    for s in &r.sessions {
        for f in &s.findings {
            match f.server.as_deref() {
                Some(id) => all.push((f, id, "server")),
                None => all.push((f, &s.id, "session")),
            }
        }
    }
    if let Some(p) = &r.policy {
        for f in &p.findings {
            match f.server.as_deref() {
                Some(id) => all.push((f, id, "server")),
                None => all.push((f, &p.path, "policy")),
            }
        }
    }
    let mut notes = Vec::new();
    let mut candidates = Vec::new();
    let mut unlocated = 0usize;
    for (order, (f, scope, kind)) in all.into_iter().enumerate() {
        match repo_uri(&f.location.path) {
            Some(uri) => candidates.push(Candidate {
                f,
                scope,
                kind,
                uri,
                order,
            }),
            None => unlocated += 1,
        }
    }
    if unlocated > 0 {
        notes.push(notification(
            "warning",
            format!("{unlocated} finding(s) have no location inside the repository and are not in this SARIF file (GitHub cannot display them); they are in the JSON and terminal reports."),
        ));
    }
    // Most severe first; counted findings before suppressed ones; then report order.
    candidates.sort_by_key(|c| {
        (
            c.f.suppressed.is_some(),
            std::cmp::Reverse(c.f.severity),
            c.order,
        )
    });

    // Rules: the whole catalogue, plus any id a finding carries that is not in it.
    let mut rules: Vec<Rule> = crate::rules::all().to_vec();
    for c in &candidates {
        if !rules.iter().any(|r| r.id == c.f.rule_id) {
            let mut u = crate::rules::unknown_rule().clone();
            u.id = c.f.rule_id.clone();
            rules.push(u);
        }
    }
    rules.sort_by(|a, b| a.id.cmp(&b.id));
    let rule_index: BTreeMap<String, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.clone(), i))
        .collect();

    // Fingerprints: identical identities get an occurrence number in report order.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_order: Vec<&Candidate<'_>> = candidates.iter().collect();
    by_order.sort_by_key(|c| c.order);
    let mut occurrence: BTreeMap<usize, usize> = BTreeMap::new();
    for c in by_order {
        let n = seen
            .entry(format!(
                "{}\u{1f}{}",
                fingerprint(c.f, c.scope),
                c.f.rule_id
            ))
            .or_insert(0);
        occurrence.insert(c.order, *n);
        *n += 1;
    }
    // Only results that can be kept are built (a 60,000-server scan has
    // 150,000 candidates and keeps 25,000): building them all was most of the run.
    let total = candidates.len();
    let mut keep = total.min(limits.max_results);
    let mut results: Vec<sarif::Result> = candidates[..keep]
        .iter()
        .map(|c| result(c, &rule_index, occurrence[&c.order], &opts.lines))
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("mcptrustchecker")
        .full_name(format!("MCP Trust Checker {}", crate::VERSION))
        .version(crate::VERSION)
        .semantic_version(crate::VERSION)
        .information_uri(INFORMATION_URI)
        .rules(rules.iter().map(descriptor).collect::<Vec<_>>())
        .build();
    let run_props = run_properties(r, v);
    let log_for = |results: Vec<sarif::Result>, keep: usize| -> sarif::Sarif {
        let mut n = notes.clone();
        if keep < total {
            n.push(notification(
                "warning",
                format!(
                    "{} of {total} results omitted to stay within GitHub's limits ({} results per run, {} bytes per file): the {keep} most severe are kept. The JSON report has them all.",
                    total - keep,
                    limits.max_results,
                    limits.max_bytes
                ),
            ));
        }
        for e in &r.errors {
            n.push(notification("error", format!("input error: {e}")));
        }
        let mut invocation = sarif::Invocation::builder()
            .execution_successful(true)
            .build();
        if !n.is_empty() {
            invocation.tool_execution_notifications = Some(n);
        }
        let mut run = sarif::Run::builder()
            .tool(sarif::Tool::builder().driver(driver.clone()).build())
            .column_kind(json!("unicodeCodePoints"))
            .invocations(vec![invocation])
            .results(results)
            .properties(run_props.clone())
            .build();
        run.automation_details = opts.category.as_deref().map(|c| {
            sarif::RunAutomationDetails::builder()
                .id(automation_id(c))
                .build()
        });
        sarif::Sarif::builder()
            .schema(SCHEMA_URI)
            .version(json!("2.1.0"))
            .runs(vec![run])
            .build()
    };
    // Log-safe (no `##[` from scanned text), decoding to the same values.
    let serialize = |log: &sarif::Sarif| -> String {
        let mut text = crate::text::log_json(
            serde_json::to_string_pretty(log)
                .unwrap_or_else(|e| format!("{{\"error\": \"serialisation failed: {e}\"}}")),
        );
        text.push('\n');
        text
    };
    // GitHub's byte limit is met by dropping the least severe results,
    // shrinking proportionally. The size of the log for any number of results is
    // known exactly from each result's own size and the size of the log
    // without results, so the whole log is serialised once, not once per step.
    let plan = if predict {
        predicted_keep(&results, keep, total, limits, |k| {
            serialize(&log_for(Vec::new(), k)).len()
        })
    } else {
        None
    };
    if let Some((k, expected)) = plan {
        results.truncate(k);
        let text = serialize(&log_for(results, k));
        // Exact by construction; every test that renders SARIF checks it.
        debug_assert_eq!(text.len(), expected, "SARIF size prediction");
        if text.len() == expected {
            return text;
        }
        // The prediction did not hold (it always should): the slow, direct way.
        results = candidates[..keep]
            .iter()
            .map(|c| result(c, &rule_index, occurrence[&c.order], &opts.lines))
            .collect();
    }
    loop {
        let mut log = log_for(std::mem::take(&mut results), keep);
        let text = serialize(&log);
        if text.len() <= limits.max_bytes || keep == 0 {
            return text;
        }
        // Shrink proportionally (with a margin), then by at least one result;
        // the results move back out of the log instead of being rebuilt.
        keep = next_keep(keep, text.len(), limits);
        results = log
            .runs
            .first_mut()
            .and_then(|run| run.results.take())
            .unwrap_or_default();
        results.truncate(keep);
    }
}

/// The next number of results to try when the log is `len` bytes with `keep`.
fn next_keep(keep: usize, len: usize, limits: &Limits) -> usize {
    let scaled = (keep as f64 * limits.max_bytes as f64 / len as f64 * 0.95) as usize;
    scaled.min(keep - 1)
}

/// Indentation of a result in the pretty log: `runs[0].results[i]` is four
/// levels deep, two spaces each.
const RESULT_DEPTH: usize = 4;
/// `log_json` writes `##[` (3 bytes) as `#\u0023[` (8 bytes).
const LEGACY_GROWTH: usize = 5;

/// The shrink loop run on sizes instead of serialised logs: which number of
/// results the loop ends with, and the log's exact length then. `skeleton(k)`
/// is the length of the log with no results and the notes for `k` results
/// kept. `None` when there is nothing to predict (no results).
fn predicted_keep(
    results: &[sarif::Result],
    mut keep: usize,
    total: usize,
    limits: &Limits,
    skeleton: impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    if results.is_empty() {
        return None;
    }
    let indent = 2 * RESULT_DEPTH;
    let mut prefix = Vec::with_capacity(results.len() + 1);
    prefix.push(0usize);
    for res in results {
        let s = serde_json::to_string_pretty(res).ok()?;
        let e =
            s.len() + indent * s.matches('\n').count() + LEGACY_GROWTH * s.matches("##[").count();
        prefix.push(prefix.last().copied().unwrap_or(0) + e);
    }
    // The skeleton depends on `k` only through the digits of the omission note.
    let digits = |n: usize| n.to_string().len();
    let full = skeleton(total.min(keep));
    let omitted_at = keep - 1;
    let omitted = skeleton(omitted_at);
    let skel = |k: usize| -> usize {
        if k == total {
            full
        } else {
            omitted + digits(total - k) + digits(k)
                - digits(total - omitted_at)
                - digits(omitted_at)
        }
    };
    // `"results": []` becomes `[`, per result a separator, indent and the
    // result, then a line break, the closing indent and `]`.
    let len = |k: usize| -> usize {
        if k == 0 {
            skel(0)
        } else {
            skel(k) - 2 + 2 * k + indent * k + prefix[k] + indent
        }
    };
    loop {
        let l = len(keep);
        if l <= limits.max_bytes || keep == 0 {
            return Some((keep, l));
        }
        keep = next_keep(keep, l, limits);
    }
}

fn run_properties(r: &ScanResult, v: &Verdict) -> sarif::PropertyBag {
    let servers: Vec<Value> = r
        .servers
        .iter()
        .map(|s| json!({"id": s.surface.id, "grade": s.score.grade.as_str(), "score": s.score.value, "coverage": s.surface.coverage.as_str()}))
        .collect();
    let sessions: Vec<Value> = r
        .sessions
        .iter()
        .map(|s| json!({"id": s.id, "grade": s.score.grade.as_str(), "score": s.score.value}))
        .collect();
    let mut props = BTreeMap::new();
    props.insert("methodology".to_string(), json!(crate::METHODOLOGY));
    props.insert("servers".to_string(), Value::Array(servers));
    props.insert("sessions".to_string(), Value::Array(sessions));
    props.insert(
        "worstGrade".to_string(),
        json!(v.worst_grade.map(|g| g.as_str())),
    );
    props.insert("gateFailed".to_string(), json!(v.failed));
    sarif::PropertyBag::builder()
        .additional_properties(props)
        .build()
}
