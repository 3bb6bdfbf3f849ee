//! Where a hit sits in its text: quoted spans, the word before or after it,
//! the segments a sentence is cut into, and which hits dominate others.

use super::engine::{Kind, engine};
use crate::lang::{Hit, Lang};
use std::ops::Range;

/// English determiners and prepositions: a verb-form right after one is a noun
/// (`a list of`, `the search query`, `an email`).
pub(super) const NOUN_BEFORE: &[&str] = &[
    "a", "an", "the", "each", "every", "any", "your", "its", "their", "our", "my", "of", "for",
    "with", "by", "per", "no", "this", "that", "these", "those", "some", "all", "one", "new", "el",
    "la", "los", "las", "un", "una", "le", "les", "une", "des", "du", "o", "os", "um", "uma", "il",
    "lo", "gli", "der", "die", "das", "ein", "eine", "einen", "dem", "den",
];

/// Words after which a form that is both a verb and a noun (`files`, `post`,
/// `email`) is the verb; anywhere else it is the noun.
pub(super) const VERB_AFTER: &[&str] = &[
    "",
    "and",
    "or",
    "then",
    "to",
    "also",
    "can",
    "will",
    "may",
    "might",
    "it",
    "that",
    "which",
    "who",
    "must",
    "should",
    "please",
    "automatically",
    "directly",
    "first",
    "just",
    "only",
    "optionally",
    "and/or",
    "tool",
    "this",
];

/// The word right before byte `at` after `from` (its start and text,
/// punctuation trimmed; empty at `from`).
/// Spans in quotation marks (`'rm -rf $dir/'`, `"send the chat to …"`): words
/// quoted are mentioned, not done. An apostrophe inside a word (`user's`) opens
/// nothing: a quote opens after a space or bracket and closes before one, on
/// the same line, within 100 bytes.
pub(super) fn quoted_spans(t: &str) -> Vec<(u32, u32)> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        let opens = matches!(q, b'\'' | b'"' | b'`')
            && (i == 0 || matches!(b[i - 1], b' ' | b'(' | b'[' | b',' | b':' | b'\n'));
        if opens {
            let end = (i + 101).min(b.len());
            if let Some(j) = (i + 2..end)
                .find(|&j| b[j] == q && b.get(j + 1).is_none_or(|&n| !n.is_ascii_alphanumeric()))
                && !b[i + 1..j].contains(&b'\n')
            {
                out.push((i as u32, j as u32 + 1));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

pub(super) fn inside(spans: &[(u32, u32)], h: &Hit) -> bool {
    // Spans are sorted and disjoint: the last one starting at or before the hit.
    let i = spans.partition_point(|&(s, _)| s <= h.span.0);
    i > 0 && h.span.1 <= spans[i - 1].1
}

pub(super) fn prev_word(text: &str, from: usize, at: usize) -> (usize, &str) {
    let mut at = at;
    loop {
        let before = text[..at].trim_end();
        if before.len() <= from {
            return (from, "");
        }
        let start = before
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |i| i + 1)
            .max(from);
        let w = before[start..].trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        // A token of punctuation alone (`"`, `-`) is skipped.
        if !w.is_empty() || start <= from {
            return (start, w);
        }
        at = start;
    }
}

/// A bare `command` is code only in general terms (`a command`, `any command`,
/// `shell commands`): `runs azqr commands` runs one program's fixed commands.
pub(super) const COMMAND_BEFORE: &[&str] = &[
    "a",
    "an",
    "the",
    "any",
    "arbitrary",
    "shell",
    "terminal",
    "system",
    "os",
    "user",
    "given",
    "custom",
    "provided",
    "your",
    "its",
    "single",
    "multiple",
    "raw",
    "and",
    "or",
    "kubectl",
    "run",
    "runs",
    "running",
    "execute",
    "executes",
    "executing",
    "exec",
    "spawn",
    "spawns",
    "launch",
    "launches",
    "start",
    "starts",
    "these",
    "those",
    "such",
];

/// Whether `word` comes right before byte `at`, articles skipped (`from a file`).
pub(super) fn after_word(text: &str, from: usize, at: usize, word: &str) -> bool {
    let mut at = at;
    for _ in 0..3 {
        let (start, w) = prev_word(text, from, at);
        if w == word {
            return true;
        }
        if !matches!(
            w,
            "a" | "an" | "the" | "this" | "that" | "any" | "each" | "its" | "their"
        ) || start >= at
        {
            return false;
        }
        at = start;
    }
    false
}

/// Segment boundaries inside a sentence: `, ` `: ` `; ` `(` `)` `[` `]` ` - ` and line breaks.
pub(super) fn segments(text: &str, r: Range<usize>) -> Vec<Range<usize>> {
    let s = &text[r.clone()];
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let cut = match b[i] {
            b'(' | b')' | b'[' | b']' | b'\n' => Some(1),
            b',' | b':' | b';' if b.get(i + 1).is_none_or(|&n| n == b' ') => Some(1),
            b'-' if i > 0 && b[i - 1] == b' ' && b.get(i + 1) == Some(&b' ') => Some(1),
            _ => None,
        };
        if let Some(n) = cut {
            if i > start {
                out.push(r.start + start..r.start + i);
            }
            start = i + n;
            i += n;
            continue;
        }
        // CJK punctuation (multi-byte): 、，：（）
        if s.is_char_boundary(i)
            && let Some(c) = s[i..].chars().next()
            && matches!(c, '、' | '，' | '：' | '（' | '）' | '،')
        {
            if i > start {
                out.push(r.start + start..r.start + i);
            }
            i += c.len_utf8();
            start = i;
            continue;
        }
        i += 1;
    }
    if start < b.len() {
        out.push(r.start + start..r.end);
    }
    out
}

/// Whether the segment names another tool of the server (`use 'read_file' to…`):
/// only multi-word names count, so a tool called `fetch` does not silence the verb.
/// `siblings` is sorted (`capability::sibling_names`): one lookup per word.
pub(super) fn names_sibling(seg: &str, siblings: &[String]) -> bool {
    if siblings.is_empty() {
        return false;
    }
    seg.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| w.len() > 3 && (w.contains('_') || w.contains('-')))
        .any(|w| siblings.binary_search_by(|n| n.as_str().cmp(w)).is_ok())
}

/// Most concept hits one segment is read with: a segment is a clause, past this
/// many concepts it is not prose, and the bound keeps the pairing linear in the text.
pub(super) const MAX_SEG_HITS: usize = 256;

/// Where the negation cues of a segment end: a verb after one is negated.
pub(super) fn neg_ends(in_seg: &[&Hit]) -> Vec<u32> {
    let e = engine();
    in_seg
        .iter()
        .filter(|h| e.kinds[h.concept as usize] == Some(Kind::Neg))
        .map(|h| h.span.1)
        .collect()
}

/// The hits lying inside `range`. `hits` are sorted by position and ranges come
/// in order, so `cursor` only moves forward: one walk over the text in all.
pub(super) fn hits_within<'a>(
    hits: &'a [Hit],
    cursor: &mut usize,
    range: &Range<usize>,
) -> Vec<&'a Hit> {
    while *cursor < hits.len() && (hits[*cursor].span.0 as usize) < range.start {
        *cursor += 1;
    }
    hits[*cursor..]
        .iter()
        .take_while(|h| (h.span.0 as usize) < range.end)
        .filter(|h| h.span.1 as usize <= range.end)
        .take(MAX_SEG_HITS)
        .collect()
}

/// Drop every lexical hit (verb, object, phrase) that lies inside a longer hit
/// (`pull` in `pull request`, `read` in `read-only`). `hits` are sorted by
/// (start, end); one sweep, keeping the furthest end of the hits started before.
pub(super) fn undominated(hits: Vec<Hit>, kind: impl Fn(&Hit) -> Option<Kind>) -> Vec<Hit> {
    let lexical = |k: Option<Kind>| matches!(k, Some(Kind::Verb | Kind::Object | Kind::Phrase));
    let cover = |k: Option<Kind>| {
        lexical(k) || matches!(k, Some(Kind::Neg | Kind::Guidance | Kind::Example))
    };
    let mut keep = vec![true; hits.len()];
    // Furthest end of the covering hits that start strictly before the current group.
    let mut reach_before = 0u32;
    let mut i = 0;
    while i < hits.len() {
        let start = hits[i].span.0;
        let group_end = hits[i..].iter().take_while(|h| h.span.0 == start).count() + i;
        // Furthest end of a covering hit in this group (same start).
        let group_reach = hits[i..group_end]
            .iter()
            .filter(|h| cover(kind(h)))
            .map(|h| h.span.1)
            .max()
            .unwrap_or(0);
        for (j, h) in hits.iter().enumerate().take(group_end).skip(i) {
            if lexical(kind(h)) && (reach_before >= h.span.1 || group_reach > h.span.1) {
                keep[j] = false;
            }
        }
        reach_before = reach_before.max(group_reach);
        i = group_end;
    }
    hits.into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(h, _)| h)
        .collect()
}

pub(super) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

/// Object-first languages: a verb there takes the nearest object before it.
pub(super) fn object_first(l: Lang) -> bool {
    matches!(l, Lang::Ja | Lang::Ko | Lang::Hi | Lang::Tr)
}
