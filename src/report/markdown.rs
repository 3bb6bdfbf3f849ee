//! The Markdown report: the PR comment and the job summary.
//!
//! Everything scanned (ids, names, messages, evidence, diff text) goes through
//! [`escape_inline`] or [`escape_block`]: a hostile tool description must not be
//! able to mention people, create links or images, inject HTML, start headings,
//! break a table or a code fence, or close one of our `<details>` sections.
//! The report stays under GitHub's comment limit by dropping the least severe
//! entries first, and says so.

use super::Verdict;
use crate::detect::{ScanResult, ServerResult};
use crate::diff::{CatalogDiff, Change, WordPart};
use crate::finding::{Finding, Severity};
use crate::score::Grade;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Hidden marker the CI mode uses to find and update its sticky comment.
pub const MARKER: &str = "<!-- mcptrustchecker:report -->";
/// GitHub's comment body limit is 65,536 characters; stay below 65,000.
pub const MAX_CHARS: usize = 65_000;

/// Make scanned text inert inside a Markdown line, a table cell or an HTML
/// element such as `<summary>`.
///
/// Invisible characters become `<U+XXXX>` and newlines `\n` (via
/// [`crate::text::visible`]), so the text is one line. `&`, `<`, `>`, `"` become
/// entities (no HTML, no comments). Every other ASCII punctuation character that
/// Markdown or GitHub gives meaning to becomes a numeric entity: that kills
/// emphasis, links, images, headings, lists, table pipes, code spans, footnotes,
/// math and autolinks (`https://` needs a literal `:`, `www.` a literal `.`).
/// `@` and `#`+digit are wrapped in `<code>` because GitHub links mentions and
/// issue references after decoding entities, but never inside code. Runs of
/// spaces keep one real space, so no indented code block or hard break appears.
pub fn escape_inline(s: &str) -> String {
    let v = crate::text::visible(s);
    let mut out = String::with_capacity(v.len() + v.len() / 4);
    let mut prev: Option<char> = None;
    let mut it = v.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '@' => out.push_str("<code>@</code>"),
            '#' if it.peek().is_some_and(|n| n.is_ascii_digit()) => out.push_str("<code>#</code>"),
            ' ' if prev.is_none() || prev == Some(' ') => out.push_str("&#32;"),
            c if c.is_ascii_punctuation()
                && !matches!(c, ',' | '\'' | '/' | '?' | ';' | '%' | '^') =>
            {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
        prev = Some(c);
    }
    out
}

/// [`escape_inline`] after cutting the raw text to `max` characters (cutting
/// first, so an entity is never split).
pub fn escape_cut(s: &str, max: usize) -> String {
    escape_inline(&crate::text::truncate_chars(s, max))
}

/// Make multi-line scanned text inert as a fenced code block (with a trailing
/// newline). Inside a fence nothing is parsed, and GitHub never links mentions in
/// code; the fence is longer than any backtick run in the text so it cannot be
/// closed early. Invisible characters are shown as `<U+XXXX>`. Place it at the
/// start of a line at the top level (not inside a list item).
pub fn escape_block(s: &str) -> String {
    // Lines inside the fence are raw: made visible, and log-safe (the report
    // also reaches runner logs when printed to stdout).
    let lines: Vec<String> = s
        .replace("\r\n", "\n")
        .split('\n')
        .map(|l| crate::text::log_line(&crate::text::visible(l)).into_owned())
        .collect();
    let mut longest = 0;
    for l in &lines {
        let mut run = 0;
        for c in l.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
    }
    let fence = "`".repeat((longest + 1).max(3));
    let mut out = format!("{fence}text\n");
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out
}

/// Scores of an earlier JSON report (`--baseline`), by server id.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    pub servers: BTreeMap<String, (i64, Grade)>,
}

impl Baseline {
    /// Read a JSON report written by `scan --format json`.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let servers = v
            .get("servers")
            .and_then(|s| s.as_array())
            .ok_or("not a mcptrustchecker JSON report (no `servers` array)")?;
        let mut out = BTreeMap::new();
        for s in servers {
            let id = s
                .get("id")
                .and_then(|x| x.as_str())
                .ok_or("a server without an `id`")?;
            let value = s
                .pointer("/score/value")
                .and_then(|x| x.as_i64())
                .ok_or("a server without `score.value`")?;
            let grade = s
                .pointer("/score/grade")
                .and_then(|x| x.as_str())
                .and_then(Grade::parse)
                .ok_or("a server without `score.grade`")?;
            out.insert(id.to_string(), (value, grade));
        }
        Ok(Baseline { servers: out })
    }
}

/// Rendering options.
#[derive(Debug, Clone)]
pub struct Options {
    pub baseline: Option<Baseline>,
    /// The report is kept strictly below this many characters.
    pub max_chars: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            baseline: None,
            max_chars: MAX_CHARS,
        }
    }
}

/// One part of the document. Groups lose their items, least important first,
/// when the report is too long; a group with no item left disappears.
enum Part {
    Fixed(String),
    Group {
        head: String,
        items: Vec<(String, u8)>,
        tail: String,
    },
}

/// How early an entry is dropped when truncating (higher = earlier; 0 = never).
fn drop_rank(s: Severity) -> u8 {
    match s {
        Severity::Critical => 1,
        Severity::High => 2,
        Severity::Medium => 3,
        Severity::Low => 4,
        Severity::Info => 6,
    }
}

fn grade_rank(g: Grade) -> u8 {
    match g {
        Grade::F => 1,
        Grade::D => 3,
        Grade::C => 5,
        Grade::B => 7,
        Grade::A => 8,
    }
}

fn badge(g: Grade) -> &'static str {
    match g {
        Grade::A | Grade::B => "🟢",
        Grade::C => "🟡",
        Grade::D => "🟠",
        Grade::F => "🔴",
    }
}

fn rule_link(id: &str) -> String {
    format!("[{}]({})", escape_inline(id), crate::rules::help_uri(id))
}

/// Where a finding belongs: its server, else `kind` (`server`, `session` or
/// `policy file`) and that id or path.
fn scope_of(f: &Finding, fallback: &str, kind: &str) -> String {
    match &f.server {
        Some(id) => format!("server {}", escape_inline(id)),
        None => format!("{kind} {}", escape_inline(fallback)),
    }
}

fn finding_item(f: &Finding, scope: &str) -> String {
    let mut s = format!(
        "- **{}** {} — {}\n  <br>at {}:{} · {}",
        f.severity,
        rule_link(&f.rule_id),
        escape_cut(&f.message, 400),
        escape_cut(&f.location.path, 200),
        f.location.line,
        scope
    );
    if let Some(t) = &f.tool {
        let _ = write!(s, " · tool {}", escape_cut(t, 120));
    }
    if let Some(field) = &f.field {
        let _ = write!(s, " · field {}", escape_cut(field, 200));
    }
    if !f.evidence.is_empty() {
        let _ = write!(s, "\n  <br>evidence: {}", escape_cut(&f.evidence, 400));
    }
    if let Some(sup) = &f.suppressed {
        let _ = write!(
            s,
            "\n  <br>suppressed by {} until {}: {}",
            escape_cut(&sup.owner, 80),
            escape_cut(&sup.expires, 40),
            escape_cut(&sup.reason, 300)
        );
    }
    s.push('\n');
    s
}

fn kind_label(c: &Change) -> String {
    serde_json::to_value(c.kind)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('-', " ")))
        .unwrap_or_else(|| "changed".into())
}

/// Inline word diff: deletions in `<del>`, insertions in `<ins>`, cut at `max` characters.
fn word_diff(parts: &[WordPart], max: usize) -> String {
    let mut out = String::new();
    let mut budget = max;
    for p in parts {
        if budget == 0 {
            out.push('…');
            break;
        }
        let (text, open, close) = match p {
            WordPart::Equal(t) => (t, "", ""),
            WordPart::Delete(t) => (t, "<del>", "</del>"),
            WordPart::Insert(t) => (t, "<ins>", "</ins>"),
        };
        let n = text.chars().count().min(budget);
        budget -= n;
        let _ = write!(out, "{open}{}{close}", escape_cut(text, n));
    }
    out
}

/// One change as top-level blocks (no list, so fenced blocks stay at column 0).
fn change_item(c: &Change) -> String {
    let mut s = format!("**{}**", escape_inline(&kind_label(c)));
    if let Some(item) = &c.item {
        let _ = write!(s, " · {}", escape_cut(item, 160));
    }
    if let Some(field) = &c.field {
        let _ = write!(s, " · {}", escape_cut(field, 200));
    }
    if c.whitespace_only {
        s.push_str(" · whitespace only");
    }
    let _ = write!(s, " — {}\n\n", escape_cut(&c.summary, 400));
    if !c.words.is_empty() {
        let _ = write!(s, "{}\n\n", word_diff(&c.words, 1500));
    } else {
        for (label, v) in [("before", &c.before), ("after", &c.after)] {
            let Some(v) = v else { continue };
            if v.contains('\n') || v.chars().count() > 160 {
                let _ = write!(
                    s,
                    "{label}:\n\n{}\n",
                    escape_block(&crate::text::truncate_chars(v, 1500))
                );
            } else {
                let _ = write!(s, "{label}: {}\n\n", escape_inline(v));
            }
        }
    }
    s
}

fn diff_group(d: &CatalogDiff, label: &str, rank: u8) -> Part {
    let ws = if d.whitespace_only() {
        ", whitespace only"
    } else {
        ""
    };
    let head = format!(
        "<details><summary><strong>{}</strong> — {} {label}{ws}</summary>\n\n",
        escape_cut(&d.server, 200),
        d.changes.len()
    );
    Part::Group {
        head,
        items: d.changes.iter().map(|c| (change_item(c), rank)).collect(),
        tail: "</details>\n\n".into(),
    }
}

/// The seed's gate verdict for one server: pass, fail, or exception (owner, expiry).
fn policy_cell(v: Option<&crate::policy::PolicyVerdict>) -> String {
    use crate::policy::Decision;
    let Some(v) = v else {
        return "—".into();
    };
    match (v.decision, &v.exception) {
        (Decision::Fail, _) => "**fail**".into(),
        (Decision::Exception, Some(x)) => format!(
            "exception ({}, until {})",
            escape_cut(&x.owner, 80),
            escape_cut(&x.expires, 40)
        ),
        (Decision::Exception, None) => "exception".into(),
        (Decision::Pass, _) => "pass".into(),
    }
}

fn change_cell(s: &ServerResult, base: &Baseline) -> String {
    match base.servers.get(&s.surface.id) {
        None => "new".into(),
        Some((v, g)) if *v == s.score.value && *g == s.score.grade => "no change".into(),
        Some((v, g)) => {
            let d = s.score.value - v;
            let arrow = if d > 0 {
                "▲"
            } else if d < 0 {
                "▼"
            } else {
                "="
            };
            format!("{arrow} {d:+} ({g} → {})", s.score.grade)
        }
    }
}

/// Render the Markdown report.
pub fn render(r: &ScanResult, v: &Verdict, opts: &Options) -> String {
    let mut parts = Vec::new();
    let mut head = format!("{MARKER}\n## MCP Trust Checker\n\n");
    let counted: Vec<(&Finding, String)> = r
        .servers
        .iter()
        .flat_map(|s| {
            s.findings
                .iter()
                .map(move |f| (f, scope_of(f, &s.surface.id, "server")))
        })
        .chain(r.sessions.iter().flat_map(|s| {
            s.findings
                .iter()
                .map(move |f| (f, scope_of(f, &s.id, "session")))
        }))
        .chain(r.policy.iter().flat_map(|p| {
            p.findings
                .iter()
                .map(move |f| (f, scope_of(f, &p.path, "policy file")))
        }))
        .collect();
    let mut counts: BTreeMap<Severity, usize> = BTreeMap::new();
    for (f, _) in counted.iter().filter(|(f, _)| f.suppressed.is_none()) {
        *counts.entry(f.severity).or_default() += 1;
    }
    match (v.failed, v.worst_grade) {
        (true, _) => {
            let shown: Vec<String> = v
                .reasons
                .iter()
                .take(5)
                .map(|x| escape_cut(x, 200))
                .collect();
            let more = if v.reasons.len() > 5 {
                format!(" and {} more", v.reasons.len() - 5)
            } else {
                String::new()
            };
            let _ = writeln!(head, "❌ **Gate failed**: {}{more}.", shown.join("; "));
        }
        (false, Some(g)) => {
            let _ = writeln!(head, "✅ **Gate passed**: worst grade {g}.");
        }
        (false, None) => {
            let _ = writeln!(head, "✅ **Gate passed**: no MCP servers found.");
        }
    }
    let sev: Vec<String> = Severity::ALL
        .iter()
        .map(|s| format!("{} {s}", counts.get(s).copied().unwrap_or(0)))
        .collect();
    let _ = writeln!(
        head,
        "\n{} server(s) · {} session(s) · findings: {} · methodology `{}` · mcptrustchecker {}\n",
        r.servers.len(),
        r.sessions.len(),
        sev.join(", "),
        crate::METHODOLOGY,
        crate::VERSION
    );
    parts.push(Part::Fixed(head));
    let note_at = parts.len();

    // Servers table.
    if !r.servers.is_empty() {
        let base = opts.baseline.as_ref();
        let policy = r.policy.is_some() || r.servers.iter().any(|s| s.policy.is_some());
        let mut head = String::from("| Server | Grade | Score | Coverage |");
        let mut cols = 4;
        if policy {
            head.push_str(" Policy |");
            cols += 1;
        }
        if base.is_some() {
            head.push_str(" Change |");
            cols += 1;
        }
        head.push('\n');
        head.push_str(&"|---".repeat(cols));
        head.push_str("|\n");
        let mut rows: Vec<(String, u8)> = Vec::new();
        for s in &r.servers {
            let mut row = format!(
                "| {}{} | {} {} | {}/100 | {} |",
                escape_cut(&s.surface.id, 200),
                if s.surface.disabled {
                    " (disabled)"
                } else {
                    ""
                },
                badge(s.score.grade),
                s.score.grade,
                s.score.value,
                s.surface.coverage.as_str()
            );
            if policy {
                let _ = write!(row, " {} |", policy_cell(s.policy.as_ref()));
            }
            if let Some(b) = base {
                let _ = write!(row, " {} |", change_cell(s, b));
            }
            row.push('\n');
            rows.push((row, grade_rank(s.score.grade)));
        }
        if let Some(b) = base {
            for (id, (value, g)) in &b.servers {
                if !r.servers.iter().any(|s| &s.surface.id == id) {
                    rows.push((
                        format!(
                            "| {} | — | — | — |{} removed (was {g}, {value}/100) |\n",
                            escape_cut(id, 200),
                            if policy { " — |" } else { "" }
                        ),
                        8,
                    ));
                }
            }
        }
        parts.push(Part::Group {
            head: format!("### Servers\n\n{head}"),
            items: rows,
            tail: "\n".into(),
        });
    }
    let sessions: Vec<_> = r
        .sessions
        .iter()
        .filter(|s| s.servers.len() > 1 || !s.findings.is_empty())
        .collect();
    if !sessions.is_empty() {
        let rows = sessions
            .iter()
            .map(|s| {
                (
                    format!(
                        "| {} | {} {} | {}/100 | {} |\n",
                        escape_cut(&s.id, 200),
                        badge(s.score.grade),
                        s.score.grade,
                        s.score.value,
                        s.servers.len()
                    ),
                    grade_rank(s.score.grade),
                )
            })
            .collect();
        parts.push(Part::Group { head: "### Sessions\n\nServers one client enables together, graded as a whole.\n\n| Session | Grade | Score | Servers |\n|---|---|---|---|\n".into(), items: rows, tail: "\n".into() });
    }

    // Findings that matter most, then informational ones folded away.
    let mut active: Vec<&(&Finding, String)> = counted
        .iter()
        .filter(|(f, _)| f.suppressed.is_none())
        .collect();
    active.sort_by_key(|b| std::cmp::Reverse(b.0.severity));
    let main: Vec<(String, u8)> = active
        .iter()
        .filter(|(f, _)| f.severity > Severity::Info)
        .map(|(f, sc)| (finding_item(f, sc), drop_rank(f.severity)))
        .collect();
    if !main.is_empty() {
        parts.push(Part::Group {
            head: "### Findings\n\n".into(),
            items: main,
            tail: "\n".into(),
        });
    }
    let info: Vec<(String, u8)> = active
        .iter()
        .filter(|(f, _)| f.severity == Severity::Info)
        .map(|(f, sc)| (finding_item(f, sc), drop_rank(f.severity)))
        .collect();
    if !info.is_empty() {
        parts.push(Part::Group {
            head: format!(
                "<details><summary>Informational findings ({})</summary>\n\n",
                info.len()
            ),
            items: info,
            tail: "\n</details>\n\n".into(),
        });
    }

    // Semantic catalog diffs: unreviewed drift, then reviewed lockfile changes.
    let drifted: Vec<&ServerResult> = r
        .servers
        .iter()
        .filter(|s| s.drift.as_ref().is_some_and(|d| !d.diff.is_empty()))
        .collect();
    if !drifted.is_empty() {
        parts.push(Part::Fixed("### Unreviewed catalog changes\n\nThese servers no longer match their pinned entry in `mcptrustchecker.lock`:\n\n".into()));
        for s in &drifted {
            if let Some(d) = &s.drift {
                parts.push(diff_group(&d.diff, "change(s) since the lockfile", 2));
            }
        }
    }
    let reviewed: Vec<&CatalogDiff> = r
        .lockfile_changes
        .iter()
        .filter(|d| !d.is_empty())
        .collect();
    if !reviewed.is_empty() {
        parts.push(Part::Fixed("### Reviewed changes\n\nThis change updates `mcptrustchecker.lock`; the catalog changes it approves:\n\n".into()));
        for d in reviewed {
            parts.push(diff_group(d, "reviewed change(s)", 5));
        }
    }

    // Suppressed findings.
    let suppressed: Vec<(String, u8)> = counted
        .iter()
        .filter(|(f, _)| f.suppressed.is_some())
        .map(|(f, sc)| (finding_item(f, sc), 7))
        .collect();
    if !suppressed.is_empty() {
        parts.push(Part::Group {
            head: format!("### Suppressed findings\n\n<details><summary>{} finding(s) suppressed by policy (not counted in scores)</summary>\n\n", suppressed.len()),
            items: suppressed,
            tail: "\n</details>\n\n".into(),
        });
    }
    if !r.errors.is_empty() {
        let items = r
            .errors
            .iter()
            .map(|e| (format!("- {}\n", escape_cut(&e.to_string(), 300)), 5))
            .collect();
        parts.push(Part::Group {
            head: "### Input errors\n\n".into(),
            items,
            tail: "\n".into(),
        });
    }
    parts.push(Part::Fixed(next_steps(r, v, !drifted.is_empty())));
    finish(parts, note_at, opts.max_chars)
}

fn next_steps(r: &ScanResult, v: &Verdict, drift: bool) -> String {
    let mut s = String::from("### What to do next\n\n");
    let mut any = false;
    if drift {
        s.push_str("- Review the unreviewed catalog changes above. If they are expected, run `mcptrustchecker lock` and commit `mcptrustchecker.lock`; otherwise treat the server as compromised (possible rug pull).\n");
        any = true;
    }
    if !r.unpinned.is_empty() {
        let ids: Vec<String> = r
            .unpinned
            .iter()
            .take(10)
            .map(|i| escape_cut(i, 120))
            .collect();
        let more = if r.unpinned.len() > 10 {
            format!(" and {} more", r.unpinned.len() - 10)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "- {} server(s) have no lockfile entry, so their catalog was never reviewed: {}{more}. Run `mcptrustchecker lock` and commit `mcptrustchecker.lock`.",
            r.unpinned.len(),
            ids.join(", ")
        );
        any = true;
    }
    if !r.stale.is_empty() {
        let _ = writeln!(
            s,
            "- {} lockfile entr(ies) belong to servers no config declares any more: run `mcptrustchecker lock` to prune them.",
            r.stale.len()
        );
        any = true;
    }
    if v.failed {
        s.push_str("- Fix or remove the servers that failed the gate; each rule link (or `mcptrustchecker explain RULE-ID`) says how.\n");
        any = true;
    }
    let config_only = r
        .servers
        .iter()
        .filter(|s| s.surface.coverage == crate::surface::Coverage::ConfigOnly)
        .count();
    if config_only > 0 {
        let _ = writeln!(
            s,
            "- {config_only} server(s) were checked from their launch configuration only: commit a descriptor, or run `mcptrustchecker lock` on a trusted machine, so their tools are inspected."
        );
        any = true;
    }
    if !any {
        s.push_str("- Nothing to do.\n");
    }
    s
}

fn part_len(p: &Part) -> usize {
    match p {
        Part::Fixed(t) => t.chars().count(),
        Part::Group { head, items, tail } => {
            head.chars().count()
                + tail.chars().count()
                + items.iter().map(|(t, _)| t.chars().count()).sum::<usize>()
        }
    }
}

/// Assemble, dropping the least important entries until the report fits.
fn finish(mut parts: Vec<Part>, note_at: usize, max: usize) -> String {
    let mut total: usize = parts.iter().map(part_len).sum();
    let mut dropped = 0usize;
    // Reserve room for the note (its length varies only with the digit count).
    let note = |n: usize| {
        format!(
            "> [!NOTE]\n> Truncated to stay under GitHub's {MAX_CHARS}-character comment limit: {n} least-severe entries omitted. The JSON and SARIF reports have everything.\n\n"
        )
    };
    let reserve = note(usize::MAX).chars().count();
    if total >= max {
        let mut order: Vec<(u8, usize, usize)> = Vec::new();
        for (pi, p) in parts.iter().enumerate() {
            if let Part::Group { items, .. } = p {
                for (ii, (_, rank)) in items.iter().enumerate() {
                    if *rank > 0 {
                        order.push((*rank, pi, ii));
                    }
                }
            }
        }
        // Highest rank first; within a rank, later entries first.
        order.sort_by(|a, b| b.cmp(a));
        let mut removed: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (_, pi, ii) in order {
            if total + reserve < max {
                break;
            }
            if let Part::Group { head, items, tail } = &parts[pi] {
                total -= items[ii].0.chars().count();
                let r = removed.entry(pi).or_default();
                r.push(ii);
                if r.len() == items.len() {
                    total -= head.chars().count() + tail.chars().count();
                }
                dropped += 1;
            }
        }
        // One pass per group: removing entries one at a time shifted the rest
        // of the group each time (quadratic in a 60,000-row server table).
        for (pi, idx) in removed {
            if let Part::Group { items, .. } = &mut parts[pi] {
                let mut gone = vec![false; items.len()];
                for i in idx {
                    gone[i] = true;
                }
                let mut at = 0;
                items.retain(|_| {
                    at += 1;
                    !gone[at - 1]
                });
            }
        }
    }
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i == note_at && dropped > 0 {
            out.push_str(&note(dropped));
        }
        match p {
            Part::Fixed(t) => out.push_str(t),
            Part::Group { head, items, tail } if !items.is_empty() => {
                out.push_str(head);
                for (t, _) in items {
                    out.push_str(t);
                }
                out.push_str(tail);
            }
            Part::Group { .. } => {}
        }
    }
    if out.chars().count() >= max {
        // Only fixed text is left and it is still too long: keep the verdict.
        let first = match parts.first() {
            Some(Part::Fixed(t)) => t.clone(),
            _ => String::new(),
        };
        out = crate::text::truncate_chars(&first, max.saturating_sub(reserve + 1));
        out.push_str("\n\n");
        out.push_str(&note(dropped.max(1)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_escaping_neutralises_markdown_and_html() {
        let e = escape_inline(
            "@octocat <img src=x> [x](http://e) https://e.x www.e.x | ``` </details> # h #12",
        );
        for bad in [
            "@o",
            "<img",
            "[x]",
            "](",
            "://",
            "www.",
            "|",
            "```",
            "</details>",
            "# h",
        ] {
            assert!(!e.contains(bad), "{bad} survived in {e}");
        }
        assert!(e.contains("<code>@</code>octocat") && e.contains("<code>#</code>12"));
        assert_eq!(escape_inline("a\u{200B}b"), "a&lt;U&#43;200B&gt;b");
        assert_eq!(escape_inline("  x"), "&#32;&#32;x");
        assert_eq!(escape_inline("plain words, ok"), "plain words, ok");
    }

    #[test]
    fn block_fence_outgrows_backtick_runs() {
        let b = escape_block("a\n````\nb\u{E0041}");
        assert!(b.starts_with("`````text\n"), "{b}");
        assert!(b.ends_with("\n`````\n"));
        assert!(b.contains("b<U+E0041>"));
    }

    #[test]
    fn baseline_reads_a_json_report() {
        let b =
            Baseline::from_json(r#"{"servers":[{"id":"a#x","score":{"value":80,"grade":"B"}}]}"#)
                .unwrap();
        assert_eq!(b.servers["a#x"], (80, Grade::B));
        assert!(Baseline::from_json("[]").is_err());
        assert!(Baseline::from_json("{").is_err());
    }

    /// A 60,000-row table whose least important rows come first (grades in id
    /// order) loses them in one pass per group, keeping exactly the most
    /// important rows in their order.
    #[test]
    fn truncating_a_huge_mixed_table_keeps_the_right_rows() {
        let items: Vec<(String, u8)> = (0..60_000)
            .map(|i| (format!("| row {i} |\n"), if i < 30_000 { 8 } else { 1 }))
            .collect();
        let parts = vec![
            Part::Fixed("head\n".into()),
            Part::Group {
                head: "G\n".into(),
                items,
                tail: "\n".into(),
            },
        ];
        let out = finish(parts, 1, 65_000);
        assert!(out.chars().count() < 65_000);
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| row ")).collect();
        assert!(rows.len() > 1000, "{}", rows.len());
        for (k, r) in rows.iter().enumerate() {
            assert_eq!(
                *r,
                format!("| row {} |", 30_000 + k),
                "kept in order, least important dropped"
            );
        }
    }

    #[test]
    fn truncation_drops_least_severe_first() {
        let parts = vec![
            Part::Fixed("head\n".into()),
            Part::Group {
                head: "G\n".into(),
                items: vec![
                    ("critical ".repeat(10), 1),
                    ("info ".repeat(40), 6),
                    ("low ".repeat(40), 4),
                ],
                tail: "\n".into(),
            },
            Part::Fixed("tail\n".into()),
        ];
        let out = finish(parts, 1, 400);
        assert!(out.chars().count() < 400, "{}", out.len());
        assert!(out.contains("critical") && !out.contains("info info") && out.contains("tail"));
        assert!(out.contains("Truncated"));
    }
}
