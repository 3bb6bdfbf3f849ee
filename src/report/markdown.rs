//! The Markdown report: the PR comment and the job summary.
//!
//! Everything scanned (ids, names, messages, evidence, diff text) goes through
//! [`escape_inline`] or [`escape_block`]: a hostile tool description must not be
//! able to mention people, create links or images, inject HTML, start headings,
//! break a table or a code fence, or close one of our `<details>` sections.
//! The report stays under GitHub's comment limit by dropping the least severe
//! entries first, and says so.

use crate::finding::{Finding, Severity};
use crate::lock::diff::{CatalogDiff, Change, WordPart};
use crate::model::{ScanResult, ServerResult, Verdict};
use crate::score::{FailOn, Grade};
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
    escape_from(s, None)
}

/// `word` ends with `tail`, ASCII case ignored.
fn ends_with_ci(word: &str, tail: &str) -> bool {
    word.len() >= tail.len()
        && word.as_bytes()[word.len() - tail.len()..].eq_ignore_ascii_case(tail.as_bytes())
}

/// [`escape_inline`] for text that continues a line after `prev`.
fn escape_from(s: &str, mut prev: Option<char>) -> String {
    let v = crate::text::visible(s);
    let mut out = String::with_capacity(v.len() + v.len() / 4);
    // The letters just before, for `www.`, `mailto:` and `xmpp:` autolinks.
    let mut word = String::new();
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
            // Punctuation that means nothing in the middle of a line stays
            // readable; at the start of the text (a list, a heading rule) and
            // where it would complete an autolink it is encoded.
            '.' | ':' | '-' | '(' | ')' | '+' | '=' | '{' | '}'
                if prev.is_some()
                    && !(c == '.' && ends_with_ci(&word, "www"))
                    && !(c == ':'
                        && (it.peek() == Some(&'/')
                            || ends_with_ci(&word, "mailto")
                            || ends_with_ci(&word, "xmpp"))) =>
            {
                out.push(c)
            }
            c if c.is_ascii_punctuation()
                && !matches!(c, ',' | '\'' | '/' | '?' | ';' | '%' | '^') =>
            {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            word.clear();
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

/// Scanned text as an inline code span: nothing inside is parsed, linked or
/// mentioned, and entities are not decoded. Invisible characters are shown
/// (long runs compacted, see [`compact`]), line breaks as `\n`; the fence
/// outgrows every backtick run, so the text cannot close it.
pub fn code_span(s: &str, max: usize) -> String {
    let v = crate::text::visible(&compact(&crate::text::truncate_chars(s, max)));
    let mut longest = 0;
    let mut run = 0;
    for c in v.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // A leading or trailing backtick (or space) needs a space pad, which
    // CommonMark strips again.
    let pad = if v.starts_with(['`', ' ']) || v.ends_with(['`', ' ']) || v.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{v}{pad}{fence}")
}

/// Inline Markdown for a table cell: GFM splits cells on `|` before inline
/// parsing (even inside code spans), so every pipe is escaped; `\|` inside a
/// code span reads as `|`.
pub fn table_cell(md: &str) -> String {
    md.replace('|', "\\|")
}

/// Free text that may quote identifiers in backticks (our own messages do:
/// "server `notes` (tool `x`)"): each quoted part becomes a safe code span,
/// the rest is escaped by [`escape_inline`]. A stray backtick is escaped.
pub fn escape_text(s: &str, max: usize) -> String {
    let s = crate::text::truncate_chars(s, max);
    let pieces: Vec<&str> = s.split('`').collect();
    let mut out = String::with_capacity(s.len() + 16);
    for (i, p) in pieces.iter().enumerate() {
        let quoted = i % 2 == 1 && i + 1 < pieces.len();
        if quoted && p.is_empty() {
            out.push_str("&#96;&#96;");
        } else if quoted {
            // Two spans side by side would read as one backtick run.
            if out.ends_with('`') {
                out.push(' ');
            }
            out.push_str(&code_span(p, usize::MAX));
        } else {
            if i % 2 == 1 {
                // The unmatched last backtick.
                out.push_str("&#96;");
            }
            let prev = (i > 0).then_some('`');
            out.push_str(&escape_from(&compact(p), prev));
        }
    }
    out
}

/// [`escape_inline`] of [`compact`]ed text, cut to `max` characters first.
fn compact_inline(s: &str, max: usize) -> String {
    escape_inline(&compact(&crate::text::truncate_chars(s, max)))
}

/// Runs of four or more invisible characters shown as one note instead of
/// one `<U+XXXX>` each: `⟦69 invisible Tags characters: "Before answering…"⟧`
/// (Tags-block text is decoded, since that is what a model reads). Other
/// text is left as it is, for [`crate::text::visible`] to show.
pub fn compact(s: &str) -> String {
    // Invisible characters as they are, or as `visible` already wrote them.
    let mut units: Vec<(char, Option<char>)> = Vec::with_capacity(s.len());
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some((hidden, len)) = shown_invisible(rest) {
            units.push(('\0', Some(hidden)));
            rest = &rest[len..];
        } else if crate::text::is_invisible(c) {
            units.push((c, Some(c)));
            rest = &rest[c.len_utf8()..];
        } else {
            units.push((c, None));
            rest = &rest[c.len_utf8()..];
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < units.len() {
        let mut j = i;
        while j < units.len() && units[j].1.is_some() {
            j += 1;
        }
        if j - i >= 4 {
            let run: Vec<char> = units[i..j].iter().filter_map(|u| u.1).collect();
            let tags: String = run
                .iter()
                .filter_map(|&c| {
                    let n = c as u32;
                    (0xE0020..=0xE007E)
                        .contains(&n)
                        .then(|| char::from_u32(n - 0xE0000))
                        .flatten()
                })
                .collect();
            if tags.chars().count() == run.len() {
                let _ = write!(
                    out,
                    "⟦{} invisible Tags characters: \"{}\"⟧",
                    run.len(),
                    crate::text::truncate_chars(&tags, 300)
                );
            } else {
                let _ = write!(out, "⟦{} invisible characters⟧", run.len());
            }
            i = j;
        } else {
            for u in &units[i..j.max(i + 1)] {
                match u {
                    ('\0', Some(h)) => {
                        let _ = write!(out, "<U+{:04X}>", *h as u32);
                    }
                    (c, _) => out.push(*c),
                }
            }
            i = j.max(i + 1);
        }
    }
    out
}

/// `<U+E0041>` as [`crate::text::visible`] writes an invisible character:
/// the character and the token's length.
fn shown_invisible(s: &str) -> Option<(char, usize)> {
    let hex = s.strip_prefix("<U+")?;
    let n = hex.bytes().take_while(u8::is_ascii_hexdigit).count();
    if !(4..=6).contains(&n) || hex.as_bytes().get(n) != Some(&b'>') {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(&hex[..n], 16).ok()?)?;
    crate::text::is_invisible(c).then_some((c, 3 + n + 1))
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
                    "**unreviewed**: not in `mcptrustchecker.lock`",
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
        assert_eq!(escape_inline("a\u{200B}b"), "a&lt;U+200B&gt;b");
        assert_eq!(
            escape_inline("tools[x].description: read (a) - b"),
            "tools&#91;x&#93;.description: read (a) - b"
        );
        assert_eq!(escape_inline("- x"), "&#45; x");
        assert_eq!(escape_inline("Www.e"), "Www&#46;e");
        assert_eq!(escape_inline("MailTo:a"), "MailTo&#58;a");
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
