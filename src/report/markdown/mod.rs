//! The Markdown report: the PR comment and the job summary.
//!
//! Everything scanned (ids, names, messages, evidence, diff text) goes through
//! [`escape_inline`] or [`escape_block`]: a hostile tool description must not be
//! able to mention people, create links or images, inject HTML, start headings,
//! break a table or a code fence, or close one of our `<details>` sections.
//! The report stays under GitHub's comment limit by dropping the least severe
//! entries first, and says so.

mod baseline;
mod budget;
mod escape;
#[cfg(test)]
mod tests;

use crate::finding::{Finding, Severity};
use crate::lock::diff::{CatalogDiff, Change, WordPart};
use crate::model::{ScanResult, ServerResult, Verdict};
use crate::score::{FailOn, Grade};
pub use baseline::{Baseline, BaselineError};
use budget::{Part, finish};
use escape::compact_inline;
pub use escape::{
    code_span, compact, escape_block, escape_cut, escape_inline, escape_text, table_cell,
};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Hidden marker the CI mode uses to find and update its sticky comment.
pub const MARKER: &str = "<!-- mcptrustchecker:report -->";
/// GitHub's comment body limit is 65,536 characters; stay below 65,000.
pub const MAX_CHARS: usize = 65_000;

/// Rendering options.
#[derive(Debug, Clone)]
pub struct Options {
    pub baseline: Option<Baseline>,
    /// The report is kept strictly below this many characters.
    pub max_chars: usize,
    /// The gate's threshold: the findings of what it fails come first.
    pub fail_on: FailOn,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            baseline: None,
            max_chars: MAX_CHARS,
            fail_on: FailOn::At(Grade::F),
        }
    }
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
        let _ = write!(out, "{open}{}{close}", compact_inline(text, n));
    }
    out
}

/// The seed's gate verdict for one server: pass, fail, or exception (owner, expiry).
fn policy_cell(v: Option<&crate::model::PolicyVerdict>) -> String {
    use crate::model::Decision;
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

/// Links and context only a CI run knows (all optional: `scan --format
/// markdown` has none of them).
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// `https://github.com/o/r/blob/SHA`: findings and servers link to their line there.
    pub blob_base: Option<String>,
    /// Footer entries after the version (head commit, run link, time), as Markdown.
    pub footer: Vec<String>,
    /// Blocks shown right after the verdict (a policy change), as Markdown.
    pub after_verdict: Vec<String>,
    /// Blocks shown after the changes and failing findings (how to approve).
    pub actions: Vec<String>,
    /// Notes folded at the end (how the changed files were found).
    pub notes: Vec<String>,
}

/// `path:line` as a code span, linked to the line at the head commit when known.
fn place(path: &str, line: u32, ctx: &Context) -> String {
    let label = if line >= 1 {
        code_span(&format!("{path}:{line}"), 200)
    } else {
        code_span(path, 200)
    };
    linked(label, path, line, ctx)
}

/// `label` linked to `path` (at `line`, when ≥ 1) at the head commit, when the
/// context knows the commit and the path stays in the repository.
fn linked(label: String, path: &str, line: u32, ctx: &Context) -> String {
    match (&ctx.blob_base, crate::report::sarif::repo_uri(path)) {
        (Some(base), Some(uri)) => {
            let anchor = if line >= 1 {
                format!("#L{line}")
            } else {
                String::new()
            };
            format!("[{label}]({base}/{uri}{anchor})")
        }
        _ => label,
    }
}

/// A finding as one list item: severity, rule, where (linked), what, evidence.
fn finding_entry(f: &Finding, scope: &str, ctx: &Context) -> String {
    let mut s = format!(
        "- {} **{}** {} in {} — {}",
        sev_badge(f.severity),
        f.severity,
        rule_link(&f.rule_id),
        place(&f.location.path, f.location.line, ctx),
        escape_text(&f.message, 400),
    );
    let mut who = vec![scope.to_string()];
    if let Some(t) = &f.tool {
        who.push(format!("tool {}", code_span(t, 120)));
    }
    if let Some(field) = &f.field {
        who.push(format!("field {}", code_span(field, 200)));
    }
    let _ = write!(s, "\n  <br>{}", who.join(" · "));
    if !f.evidence.is_empty() {
        let _ = write!(s, "\n  <br>evidence: {}", escape_text(&f.evidence, 400));
    }
    if let Some(sup) = &f.suppressed {
        let _ = write!(
            s,
            "\n  <br>suppressed by {} until {}: {}",
            code_span(&sup.owner, 80),
            code_span(&sup.expires, 40),
            escape_cut(&sup.reason, 300)
        );
    }
    s.push('\n');
    s
}

fn sev_badge(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "🔴",
        Severity::High => "🟠",
        Severity::Medium => "🟡",
        Severity::Low => "🔵",
        Severity::Info => "⚪",
    }
}

/// A finding with its scope as shown, and the id it belongs to (its server,
/// else the session or policy file).
fn with_scope<'a>(f: &'a Finding, fallback: &'a str, kind: &str) -> (&'a Finding, String, &'a str) {
    (
        f,
        scope_span(f, fallback, kind),
        f.server.as_deref().unwrap_or(fallback),
    )
}

/// Where a finding belongs, as a code span.
fn scope_span(f: &Finding, fallback: &str, kind: &str) -> String {
    match &f.server {
        Some(id) => format!("server {}", code_span(id, 200)),
        None => format!("{kind} {}", code_span(fallback, 200)),
    }
}

/// One semantic change as a list item, its word diff (or before/after) below.
fn change_entry(c: &Change) -> String {
    let mut s = format!("- **{}**", escape_inline(&kind_label(c)));
    if let Some(item) = &c.item {
        let _ = write!(s, " {}", code_span(item, 160));
    }
    if let Some(field) = &c.field {
        let _ = write!(s, " · {}", code_span(field, 200));
    }
    if c.whitespace_only {
        s.push_str(" · whitespace only");
    }
    let detail = if !c.words.is_empty() {
        Some(word_diff(&c.words, 1500))
    } else {
        match (&c.before, &c.after) {
            (Some(b), Some(a)) => Some(format!(
                "<del>{}</del> → <ins>{}</ins>",
                compact_inline(b, 400),
                compact_inline(a, 400)
            )),
            (None, Some(a)) => Some(compact_inline(a, 600)),
            (Some(b), None) => Some(format!("<del>{}</del>", compact_inline(b, 600))),
            (None, None) => None,
        }
    };
    match detail {
        Some(d) => {
            let _ = write!(s, "\n  <br>{d}");
        }
        None => {
            let _ = write!(s, " — {}", escape_cut(&c.summary, 400));
        }
    }
    s.push('\n');
    s
}

/// One changed server: its heading (grade, why it is listed) and its changes, open.
fn server_changes(
    id: &str,
    server: Option<&ServerResult>,
    status: &str,
    changes: &[Change],
    base: Option<&Baseline>,
    ctx: &Context,
    rank: u8,
) -> Part {
    let mut head = format!("#### {}", code_span(id, 200));
    if let Some(s) = server {
        let _ = write!(
            head,
            " — {} {} {}/100",
            badge(s.score.grade),
            s.score.grade,
            s.score.value
        );
        if let Some((v, g)) = base.and_then(|b| b.servers.get(id))
            && (*v != s.score.value || *g != s.score.grade)
        {
            let _ = write!(head, " (was {g} {v}/100)");
        }
    }
    let _ = write!(head, " · {status}");
    if let Some(s) = server {
        let loc = &s.surface.source.location;
        let _ = write!(head, "\n\ndeclared at {}", place(&loc.path, loc.line, ctx));
    }
    head.push_str("\n\n");
    Part::Group {
        head,
        items: changes.iter().map(|c| (change_entry(c), rank)).collect(),
        tail: "\n".into(),
    }
}

/// The verdict in one line: passed or failed, and the first reasons why.
fn verdict_line(v: &Verdict) -> String {
    match (v.failed, v.worst_grade) {
        (true, _) => {
            let shown: Vec<String> = v
                .reasons
                .iter()
                .take(3)
                .map(|x| escape_text(x, 200))
                .collect();
            let more = if v.reasons.len() > 3 {
                format!("; and {} more", v.reasons.len() - 3)
            } else {
                String::new()
            };
            format!("❌ **Gate failed**: {}{more}.\n\n", shown.join("; "))
        }
        (false, Some(g)) => format!("✅ **Gate passed**: worst grade {g}.\n\n"),
        (false, None) => "✅ **Gate passed**: no MCP servers found.\n\n".into(),
    }
}

/// Render the Markdown report (see [`render_in`]).
pub fn render(r: &ScanResult, v: &Verdict, opts: &Options) -> String {
    render_in(r, v, opts, &Context::default())
}

/// Render the Markdown report a reviewer reads top-down: the verdict in one
/// line; what changed, per server, open; the findings that fail the gate,
/// linked to their line; how to approve; then everything else folded; a
/// footer with the version (and in CI the head commit and the run).
pub fn render_in(r: &ScanResult, v: &Verdict, opts: &Options, ctx: &Context) -> String {
    let mut parts = Vec::new();
    let mut head = format!("{MARKER}\n## MCP Trust Checker\n\n");
    head.push_str(&verdict_line(v));
    parts.push(Part::Fixed(head));
    let note_at = parts.len();
    for b in &ctx.after_verdict {
        parts.push(Part::Fixed(b.clone()));
    }

    let counted: Vec<(&Finding, String, &str)> = r
        .servers
        .iter()
        .flat_map(|s| {
            s.findings
                .iter()
                .map(move |f| with_scope(f, &s.surface.id, "server"))
        })
        .chain(r.sessions.iter().flat_map(|s| {
            s.findings
                .iter()
                .map(move |f| with_scope(f, &s.id, "session"))
        }))
        .chain(r.policy.iter().flat_map(|p| {
            p.findings
                .iter()
                .map(move |f| with_scope(f, &p.path, "policy file"))
        }))
        .collect();

    // 1. What changed, per server, open: unreviewed drift, servers new to the
    // lockfile, then the reviewed lockfile changes.
    let base = opts.baseline.as_ref();
    let drifted: Vec<&ServerResult> = r
        .servers
        .iter()
        .filter(|s| s.drift.as_ref().is_some_and(|d| !d.diff.is_empty()))
        .collect();
    let reviewed: Vec<&CatalogDiff> = r
        .lockfile_changes
        .iter()
        .filter(|d| !d.is_empty())
        .collect();
    if !drifted.is_empty() || !reviewed.is_empty() {
        parts.push(Part::Fixed("### What changed\n\n".into()));
        for s in &drifted {
            if let Some(d) = &s.drift {
                parts.push(server_changes(
                    &s.surface.id,
                    Some(s),
                    "**unreviewed**: differs from its entry in `mcptrustchecker.lock`",
                    &d.diff.changes,
                    base,
                    ctx,
                    2,
                ));
            }
        }
        for d in &reviewed {
            let s = r.servers.iter().find(|s| s.surface.id == d.server);
            parts.push(server_changes(
                &d.server,
                s,
                "reviewed: this change updates `mcptrustchecker.lock`",
                &d.changes,
                base,
                ctx,
                5,
            ));
        }
    }

    // 2. Why it fails: the serious findings of what fails the gate. Drift is
    // shown above as the diff, not again as a finding.
    let failing: std::collections::BTreeSet<&str> = r
        .servers
        .iter()
        .filter(|s| opts.fail_on.fails(s.score.grade))
        .map(|s| s.surface.id.as_str())
        .chain(
            r.sessions
                .iter()
                .filter(|s| opts.fail_on.fails(s.score.grade))
                .flat_map(|s| {
                    s.findings
                        .iter()
                        .filter_map(|f| f.server.as_deref())
                        .chain(std::iter::once(s.id.as_str()))
                }),
        )
        .collect();
    let mut active: Vec<&(&Finding, String, &str)> = counted
        .iter()
        .filter(|(f, _, _)| {
            f.suppressed.is_none() && f.rule_id != crate::detect::integrity::DRIFT_RULE
        })
        .collect();
    active.sort_by_key(|b| std::cmp::Reverse(b.0.severity));
    let (mut top, mut rest): (Vec<_>, Vec<_>) = active
        .into_iter()
        .partition(|(f, _, owner)| f.severity >= Severity::High && failing.contains(owner));
    // The ten most severe up front; the rest are folded with the others.
    const TOP: usize = 10;
    if top.len() > TOP {
        rest.splice(0..0, top.drain(TOP..));
    }
    if !top.is_empty() {
        parts.push(Part::Group {
            head: "### Why it fails\n\n".into(),
            items: top
                .iter()
                .map(|(f, sc, _)| (finding_entry(f, sc, ctx), drop_rank(f.severity)))
                .collect(),
            tail: "\n".into(),
        });
    }
    parts.push(Part::Fixed(next_steps(
        r,
        v,
        !drifted.is_empty(),
        !reviewed.is_empty(),
    )));
    for b in &ctx.actions {
        parts.push(Part::Fixed(b.clone()));
    }

    // 3. Everything else, folded.
    if !r.servers.is_empty() {
        let policy = r.policy.is_some() || r.servers.iter().any(|s| s.policy.is_some());
        let mut thead = String::from("| Server | Grade | Score | Coverage |");
        let mut cols = 4;
        if policy {
            thead.push_str(" Policy |");
            cols += 1;
        }
        if base.is_some() {
            thead.push_str(" Change |");
            cols += 1;
        }
        thead.push('\n');
        thead.push_str(&"|---".repeat(cols));
        thead.push_str("|\n");
        let mut rows: Vec<(String, u8)> = Vec::new();
        for s in &r.servers {
            let loc = &s.surface.source.location;
            let mut row = format!(
                "| {}{} | {} {} | {}/100 | {} |",
                table_cell(&place_cell(&s.surface.id, &loc.path, loc.line, ctx)),
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
                            table_cell(&code_span(id, 200)),
                            if policy { " — |" } else { "" }
                        ),
                        8,
                    ));
                }
            }
        }
        let worst = r.servers.iter().map(|s| s.score.grade).max();
        let open = if r.servers.len() <= 5 && drifted.is_empty() && reviewed.is_empty() {
            " open"
        } else {
            ""
        };
        parts.push(Part::Group {
            head: format!(
                "<details{open}><summary>Servers ({}{})</summary>\n\n{thead}",
                r.servers.len(),
                worst.map(|g| format!(", worst {g}")).unwrap_or_default()
            ),
            items: rows,
            tail: "\n</details>\n\n".into(),
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
                        table_cell(&code_span(&s.id, 200)),
                        badge(s.score.grade),
                        s.score.grade,
                        s.score.value,
                        s.servers.len()
                    ),
                    grade_rank(s.score.grade),
                )
            })
            .collect();
        parts.push(Part::Group { head: format!("<details><summary>Sessions ({}): servers one client enables together, graded as a whole</summary>\n\n| Session | Grade | Score | Servers |\n|---|---|---|---|\n", sessions.len()), items: rows, tail: "\n</details>\n\n".into() });
    }
    let other: Vec<(String, u8)> = rest
        .iter()
        .filter(|(f, _, _)| f.severity > Severity::Info)
        .map(|(f, sc, _)| (finding_entry(f, sc, ctx), drop_rank(f.severity)))
        .collect();
    if !other.is_empty() {
        parts.push(Part::Group {
            head: format!(
                "<details><summary>{} finding(s){}</summary>\n\n",
                other.len(),
                if top.is_empty() { "" } else { " more" }
            ),
            items: other,
            tail: "\n</details>\n\n".into(),
        });
    }
    let info: Vec<(String, u8)> = rest
        .iter()
        .filter(|(f, _, _)| f.severity == Severity::Info)
        .map(|(f, sc, _)| (finding_entry(f, sc, ctx), drop_rank(f.severity)))
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
    let suppressed: Vec<(String, u8)> = counted
        .iter()
        .filter(|(f, _, _)| f.suppressed.is_some())
        .map(|(f, sc, _)| (finding_entry(f, sc, ctx), 7))
        .collect();
    if !suppressed.is_empty() {
        parts.push(Part::Group {
            head: format!("<details><summary>{} finding(s) suppressed by policy (not counted in scores)</summary>\n\n", suppressed.len()),
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
    if !ctx.notes.is_empty() {
        parts.push(Part::Group {
            head: "<details><summary>How this run chose what to scan</summary>\n\n".into(),
            items: ctx.notes.iter().map(|n| (format!("- {n}\n"), 6)).collect(),
            tail: "\n</details>\n\n".into(),
        });
    }
    // Footer: counts, version, methodology; in CI the head commit and the run.
    let mut counts: BTreeMap<Severity, usize> = BTreeMap::new();
    for (f, _, _) in counted.iter().filter(|(f, _, _)| f.suppressed.is_none()) {
        *counts.entry(f.severity).or_default() += 1;
    }
    let sev: Vec<String> = Severity::ALL
        .iter()
        .map(|s| format!("{} {s}", counts.get(s).copied().unwrap_or(0)))
        .collect();
    let mut foot = vec![
        format!(
            "{} server(s), {} session(s)",
            r.servers.len(),
            r.sessions.len()
        ),
        format!("findings: {}", sev.join(", ")),
        format!("mcptrustchecker {}", crate::VERSION),
        format!("methodology `{}`", crate::METHODOLOGY),
    ];
    foot.extend(ctx.footer.iter().cloned());
    parts.push(Part::Fixed(format!(
        "---\n<sub>{}</sub>\n",
        foot.join(" · ")
    )));
    finish(parts, note_at, opts.max_chars)
}

/// A server's id in a table, linked to its declaration when the context allows.
fn place_cell(id: &str, path: &str, line: u32, ctx: &Context) -> String {
    let label = code_span(id, 200);
    if line >= 1 {
        linked(label, path, line, ctx)
    } else {
        label
    }
}

fn next_steps(r: &ScanResult, v: &Verdict, drift: bool, reviewed: bool) -> String {
    let mut s = String::from("### What to do\n\n");
    let mut any = false;
    if drift {
        s.push_str("- Read the unreviewed changes above. If they are expected, run `mcptrustchecker lock` and commit the lockfile; otherwise treat the server as compromised (a possible rug pull).\n");
        any = true;
    }
    if !r.unpinned.is_empty() {
        let ids: Vec<String> = r
            .unpinned
            .iter()
            .take(10)
            .map(|i| code_span(i, 120))
            .collect();
        let more = if r.unpinned.len() > 10 {
            format!(" and {} more", r.unpinned.len() - 10)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "- {} server(s) have no lockfile entry, so their catalog was never reviewed: {}{more}. Run `mcptrustchecker lock` and commit the lockfile.",
            r.unpinned.len(),
            ids.join(", ")
        );
        any = true;
    }
    if reviewed {
        s.push_str("- This change updates `mcptrustchecker.lock`: approve the pull request only if the reviewed changes above are what the servers should do.\n");
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
        s.push_str("- Fix or remove what fails the gate; each rule link (or `mcptrustchecker explain RULE-ID`) says how.\n");
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
            "- {config_only} server(s) were checked from their launch configuration only: commit a descriptor, or run `mcptrustchecker lock --live` on a trusted machine, so their tools are inspected."
        );
        any = true;
    }
    if !any {
        s.push_str("- Nothing to do: no MCP change needs review.\n");
    }
    s.push('\n');
    s
}
