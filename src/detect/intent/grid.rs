//! What a text's layout says about it: a table read by its column headings,
//! a regular expression, a parenthesis of examples, a contact line.
//!
//! A table in a description is read by its column headings. In a grid such as
//! `Role | may | must | never`, a cell under "never" says what must not be
//! done: "mention the export queue" there is the order "never mention the
//! export queue", which no word of the cell says on its own.

use super::tables::Tables;
use crate::lang;
use std::ops::Range;

/// Headings that turn their column's cells into prohibitions.
const NEVER: [&str; 10] = [
    "never",
    "must not",
    "mustn't",
    "do not",
    "don't",
    "may not",
    "not allowed",
    "forbidden",
    "prohibited",
    "avoid",
];

/// Verbs of telling: under a prohibiting heading, the cell keeps something
/// from the person told.
const TELL: [&str; 13] = [
    "mention", "tell", "say", "reveal", "disclose", "bring up", "surface", "discuss", "explain",
    "notify", "inform", "report", "show",
];

/// Byte ranges of a table line's cells (leading and trailing pipes dropped).
fn cells(text: &str, line: &Range<usize>) -> Vec<Range<usize>> {
    let s = &text[line.clone()];
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in s.char_indices().filter(|&(_, c)| c == '|') {
        out.push(line.start + start..line.start + i);
        start = i + c.len_utf8();
    }
    out.push(line.start + start..line.end);
    if s.trim_start().starts_with('|') {
        out.remove(0);
    }
    if s.trim_end().ends_with('|') {
        out.pop();
    }
    out
}

/// A Markdown table's separator line: `---|---`, `|:--|--:|`.
fn separator(s: &str) -> bool {
    s.contains("---") && s.contains('|') && s.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// Conceal hits for the telling verbs that open a cell under a prohibiting heading.
pub(super) fn grid_hits(
    t: &Tables,
    text: &str,
    sentences: &[Range<usize>],
    hits: &mut Vec<lang::Hit>,
) {
    if !text.contains("---") {
        return;
    }
    let conceal = t.c.conceal.trailing_zeros() as lang::ConceptId;
    let before = hits.len();
    let mut never: Vec<usize> = Vec::new();
    for (i, r) in sentences.iter().enumerate() {
        let line = text[r.clone()].trim();
        if !line.contains('|') {
            never.clear();
            continue;
        }
        if separator(line) {
            never = i
                .checked_sub(1)
                .map(|h| cells(text, &sentences[h]))
                .unwrap_or_default()
                .iter()
                .enumerate()
                .filter(|(_, c)| NEVER.contains(&text[(*c).clone()].trim()))
                .map(|(k, _)| k)
                .collect();
            continue;
        }
        for (k, c) in cells(text, r).into_iter().enumerate() {
            if !never.contains(&k) {
                continue;
            }
            let cell = text[c.clone()].trim_start();
            let at = c.end - cell.len();
            // The verb, or its third person ("mentions"), as a whole word.
            if let Some(v) = TELL.iter().find(|v| {
                cell.strip_prefix(**v).is_some_and(|rest| {
                    let rest = rest.strip_prefix('s').unwrap_or(rest);
                    rest.is_empty() || rest.starts_with(' ')
                })
            }) {
                hits.push(lang::Hit {
                    concept: conceal,
                    lang: lang::Lang::En,
                    span: (at as u32, (at + v.len()) as u32),
                });
            }
        }
    }
    if hits.len() > before {
        hits.sort_by_key(|h| (h.span.0, h.span.1));
    }
}

/// Regular-expression syntax: a group of alternatives, an escape class, a
/// non-capturing group or anchors around the whole text.
pub(super) fn looks_like_regex(raw: &str) -> bool {
    let alternation = raw.find('(').is_some_and(|o| {
        raw[o..]
            .find(')')
            .is_some_and(|c| raw[o..o + c].contains('|'))
    });
    alternation
        || raw.contains("(?")
        || ["\\s", "\\d", "\\w", "\\b", "\\.", "[a-z", "[A-Z", "[0-9"]
            .iter()
            .any(|p| raw.contains(p))
        || (raw.starts_with('^') && raw.ends_with('$'))
}

/// Parentheses (at most 400 bytes, nesting counted) that open with an example
/// marker: `(for example …)`, `(e.g. …)`, `(such as …)`, `(for instance …)`.
pub(super) fn example_parentheses(text: &str) -> Vec<std::ops::Range<usize>> {
    const INTROS: [&str; 5] = ["for example", "e.g.", "eg.", "such as", "for instance"];
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find('(') {
        let open = from + i;
        from = open + 1;
        let inner = text[open + 1..].trim_start();
        if !INTROS.iter().any(|p| inner.starts_with(p)) {
            continue;
        }
        let limit = (open + 400).min(text.len());
        let mut depth = 0usize;
        let close = text.as_bytes()[open..limit].iter().position(|&b| {
            match b {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        if let Some(c) = close {
            out.push(open..open + c + 1);
            from = open + c + 1;
        }
    }
    out
}

/// A line that only introduces a contact address: its text before the
/// address is a contact label (`media contact:`, `support:`, `press inquiries:`).
pub(super) fn contact_line(before: &str) -> bool {
    // The sender of what the tool sends ("a copy is sent to that address
    // from reports@…"): the server's own address, where nothing goes.
    if before.trim_end().ends_with(" from") {
        return true;
    }
    let label = before.trim_end().trim_end_matches(':').trim();
    let label = label.rsplit('\n').next().unwrap_or(label);
    !label.is_empty()
        && label.len() <= 32
        && [
            "contact",
            "support",
            "press",
            "media",
            "inquiries",
            "enquiries",
            "help desk",
            "helpdesk",
        ]
        .iter()
        .any(|w| label.ends_with(w) || label.starts_with(w))
}
