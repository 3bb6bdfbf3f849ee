//! Stage 3: the roles a description says a tool plays, read sentence by
//! sentence (verb + object), in the 12 languages of `src/data/lang/roles.toml`.
//!
//! A sentence is cut into segments at commas, colons, parentheses and dashes;
//! each verb takes its nearest object in its segment (and the objects joined to
//! that one by `and`/`or`); a segment of verbs alone lends them to the next, a
//! segment of objects alone borrows the verbs before it. A negation before a
//! verb cancels it; a segment of usage guidance, or one that names another tool
//! of the server, is about something else and is skipped. Linear in the text:
//! one automaton pass, then one walk over the hits.

use crate::lang::{self, ConceptId, Hit, Lang, Lexicon};
use crate::model::Role;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

/// What a concept is for, from its name's prefix in the data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Verb,
    Object,
    Phrase,
    Neg,
    Guidance,
    Example,
    Credential,
    Ask,
}

#[derive(Deserialize)]
struct RuleFile {
    rule: Vec<RawRule>,
    phrase: Vec<RawPhrase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    role: String,
    verbs: Vec<String>,
    objects: Vec<String>,
    #[serde(default)]
    only: Vec<String>,
    #[serde(default, rename = "except")]
    except: Vec<String>,
    #[serde(default)]
    unless: Vec<String>,
    #[serde(default)]
    unless_anywhere: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPhrase {
    role: String,
    concept: String,
}

struct Rule {
    role: Role,
    verbs: Vec<ConceptId>,
    /// `None`: any object, or none (`objects = ["*"]`).
    objects: Option<Vec<ConceptId>>,
    only: Vec<String>,
    /// Object words the rule does not apply to.
    except: Vec<String>,
    /// Concepts that cancel the rule when named in the same segment…
    unless: Vec<ConceptId>,
    /// …or anywhere in the text.
    unless_anywhere: Vec<ConceptId>,
}

struct Engine {
    lex: Lexicon,
    kinds: Vec<Option<Kind>>,
    rules: Vec<Rule>,
    phrases: Vec<(ConceptId, Role)>,
    /// Concepts whose presence in a segment cancels a `file-write` phrase (remote objects).
    remote: Option<ConceptId>,
}

const SRC: &str = crate::data::json!("lang/roles");

fn engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| {
        // Compiled in and loaded by a unit test: an invalid file is a build defect.
        let lex = Lexicon::from_compiled(crate::data::lexicon!("lang/roles"))
            .unwrap_or_else(|e| panic!("roles.toml: {e}"));
        let file: RuleFile = crate::data::parse(SRC, "lang/roles");
        let kinds = (0..lex.len())
            .map(|i| {
                let n = lex.name(i as ConceptId);
                Some(match n.split('_').next().unwrap_or("") {
                    "v" => Kind::Verb,
                    "o" => Kind::Object,
                    "s" => Kind::Phrase,
                    "c" => Kind::Credential,
                    "q" => Kind::Ask,
                    "x" if n == "x_neg" => Kind::Neg,
                    "x" if n == "x_example" => Kind::Example,
                    "x" => Kind::Guidance,
                    _ => return None,
                })
            })
            .collect();
        let id = |n: &str| {
            lex.id(n)
                .unwrap_or_else(|| panic!("roles.toml: unknown concept {n}"))
        };
        let role = |r: &str| Role::parse(r).unwrap_or_else(|| panic!("roles.toml: role {r}"));
        let rules = file
            .rule
            .iter()
            .map(|r| Rule {
                role: role(&r.role),
                verbs: r.verbs.iter().map(|v| id(v)).collect(),
                objects: (r.objects != ["*"]).then(|| r.objects.iter().map(|o| id(o)).collect()),
                only: r.only.clone(),
                except: r.except.clone(),
                unless: r.unless.iter().map(|u| id(u)).collect(),
                unless_anywhere: r.unless_anywhere.iter().map(|u| id(u)).collect(),
            })
            .collect();
        let phrases = file
            .phrase
            .iter()
            .map(|p| (id(&p.concept), role(&p.role)))
            .collect();
        let remote = lex.id("o_remote");
        Engine {
            lex,
            kinds,
            rules,
            phrases,
            remote,
        }
    })
}

/// One role read from a text, with the words that gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub role: Role,
    /// The sentence (normalised, shortened) the role was read from.
    pub sentence: String,
    /// `verb … object`, or the phrase.
    pub words: String,
    /// A standalone phrase gave it (no verb-object pairing).
    pub phrase: bool,
    /// The object's words and concept, when a pairing gave it.
    pub object: Option<(String, String)>,
}

/// English determiners and prepositions: a verb-form right after one is a noun
/// (`a list of`, `the search query`, `an email`).
const NOUN_BEFORE: &[&str] = &[
    "a", "an", "the", "each", "every", "any", "your", "its", "their", "our", "my", "of", "for",
    "with", "by", "per", "no", "this", "that", "these", "those", "some", "all", "one", "new", "el",
    "la", "los", "las", "un", "una", "le", "les", "une", "des", "du", "o", "os", "um", "uma", "il",
    "lo", "gli", "der", "die", "das", "ein", "eine", "einen", "dem", "den",
];

/// Words after which a form that is both a verb and a noun (`files`, `post`,
/// `email`) is the verb; anywhere else it is the noun.
const VERB_AFTER: &[&str] = &[
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
fn quoted_spans(t: &str) -> Vec<(u32, u32)> {
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

fn inside(spans: &[(u32, u32)], h: &Hit) -> bool {
    // Spans are sorted and disjoint: the last one starting at or before the hit.
    let i = spans.partition_point(|&(s, _)| s <= h.span.0);
    i > 0 && h.span.1 <= spans[i - 1].1
}

fn prev_word(text: &str, from: usize, at: usize) -> (usize, &str) {
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
const COMMAND_BEFORE: &[&str] = &[
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
fn after_word(text: &str, from: usize, at: usize, word: &str) -> bool {
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
fn segments(text: &str, r: Range<usize>) -> Vec<Range<usize>> {
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
fn names_sibling(seg: &str, siblings: &[String]) -> bool {
    if siblings.is_empty() {
        return false;
    }
    seg.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| w.len() > 3 && (w.contains('_') || w.contains('-')))
        .any(|w| siblings.binary_search_by(|n| n.as_str().cmp(w)).is_ok())
}

/// Most concept hits one segment is read with: a segment is a clause, past this
/// many concepts it is not prose, and the bound keeps the pairing linear in the text.
const MAX_SEG_HITS: usize = 256;

/// Where the negation cues of a segment end: a verb after one is negated.
fn neg_ends(in_seg: &[&Hit]) -> Vec<u32> {
    let e = engine();
    in_seg
        .iter()
        .filter(|h| e.kinds[h.concept as usize] == Some(Kind::Neg))
        .map(|h| h.span.1)
        .collect()
}

/// The hits lying inside `range`. `hits` are sorted by position and ranges come
/// in order, so `cursor` only moves forward: one walk over the text in all.
fn hits_within<'a>(hits: &'a [Hit], cursor: &mut usize, range: &Range<usize>) -> Vec<&'a Hit> {
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
fn undominated(hits: Vec<Hit>, kind: impl Fn(&Hit) -> Option<Kind>) -> Vec<Hit> {
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

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

/// Object-first languages: a verb there takes the nearest object before it.
fn object_first(l: Lang) -> bool {
    matches!(l, Lang::Ja | Lang::Ko | Lang::Hi)
}

/// Read the roles `text` describes. `siblings` are the lowercased names of the
/// server's other tools (a segment naming one is skipped). The first reading per
/// role wins; order follows the text.
pub fn read(text: &str, siblings: &[String]) -> Vec<Reading> {
    let e = engine();
    let norm = lang::normalize(text);
    let t = norm.text.as_str();
    if t.is_empty() {
        return Vec::new();
    }
    let mut hits = e.lex.find(t);
    let quotes = quoted_spans(t);
    hits.retain(|h| e.kinds[h.concept as usize].is_some() && !inside(&quotes, h));
    let kind = |h: &Hit| e.kinds[h.concept as usize];
    let hits = undominated(hits, |h| kind(h));
    // Concepts named anywhere in the text (for `unless_anywhere`).
    let mut anywhere = vec![false; e.lex.len()];
    for h in &hits {
        anywhere[h.concept as usize] = true;
    }
    // Hits are sorted by position and segments come in order: one cursor walks both.
    let mut cursor = 0usize;
    let mut found: BTreeMap<Role, Reading> = BTreeMap::new();
    let mut order: Vec<Role> = Vec::new();
    let mut put = |role: Role,
                   sentence: &str,
                   words: String,
                   phrase: bool,
                   object: Option<(String, String)>| {
        if let std::collections::btree_map::Entry::Vacant(v) = found.entry(role) {
            v.insert(Reading {
                role,
                sentence: shorten(sentence, 120),
                words,
                phrase,
                object,
            });
            order.push(role);
        }
    };
    for sent in lang::sentences(t) {
        let sentence = &t[sent.clone()];
        // `To remove triggers, use X`: the purpose clause is about the other tool.
        let segs = segments(t, sent.clone());
        let purpose_then_use = segs.len() > 1
            && t[segs[0].clone()].starts_with("to ")
            && segs[1..].iter().any(|g| {
                let w = t[g.clone()].trim_start();
                ["use", "call", "see", "try", "prefer"]
                    .iter()
                    .any(|v| w == *v || w.starts_with(&format!("{v} ")))
            });
        // Verbs of the last segment that found an object: lent to a list of objects going on.
        let mut last_paired: Vec<Hit> = Vec::new();
        let mut seen_object = false;
        // Verbs of a segment with no object: carried to the next segment.
        let mut carried: Vec<Hit> = Vec::new();
        for (si, seg) in segs.into_iter().enumerate() {
            if si == 0 && purpose_then_use {
                continue;
            }
            // After `such as`, `e.g.`, `for example` the sentence is an example.
            let example_at = hits[cursor..]
                .iter()
                .skip_while(|h| (h.span.0 as usize) < seg.start)
                .take_while(|h| (h.span.0 as usize) < seg.end)
                .find(|h| kind(h) == Some(Kind::Example) && (h.span.1 as usize) <= seg.end)
                .map(|h| h.span.0 as usize);
            let seg = seg.start..example_at.unwrap_or(seg.end);
            let in_seg = hits_within(&hits, &mut cursor, &seg);
            let seg_text = &t[seg.clone()];
            if in_seg.iter().any(|h| kind(h) == Some(Kind::Guidance))
                || names_sibling(seg_text, siblings)
            {
                carried.clear();
                last_paired.clear();
                continue;
            }
            let negs = neg_ends(&in_seg);
            let negated = |h: &Hit| negs.iter().any(|&n| n <= h.span.0);
            let negs_start: Vec<u32> = in_seg
                .iter()
                .filter(|h| kind(h) == Some(Kind::Neg))
                .map(|h| h.span.0)
                .collect();
            let objects: Vec<&Hit> = in_seg
                .iter()
                .copied()
                .filter(|h| kind(h) == Some(Kind::Object))
                .filter(|h| {
                    let w = &t[h.range()];
                    !matches!(w, "command" | "commands")
                        || COMMAND_BEFORE.contains(&prev_word(t, seg.start, h.span.0 as usize).1)
                })
                .collect();
            // A verb-form is a verb unless a determiner or another verb comes right before it.
            let verb_spans: Vec<(u32, u32)> = in_seg
                .iter()
                .filter(|h| kind(h) == Some(Kind::Verb))
                .map(|h| h.span)
                .collect();
            let verbs: Vec<Hit> = in_seg
                .iter()
                .copied()
                .filter(|h| kind(h) == Some(Kind::Verb) && !negated(h))
                .filter(|h| {
                    if h.lang != Lang::En && h.lang != Lang::Any {
                        return true;
                    }
                    let (pstart, pw) = prev_word(t, seg.start, h.span.0 as usize);
                    let form = &t[h.range()];
                    let next = t[h.span.1 as usize..].trim_start_matches(' ');
                    // `list of`, `create=`, `list:`, `list is` are nouns and labels.
                    if next.starts_with("of ")
                        || next.starts_with('=')
                        || next.starts_with(':')
                        || next.starts_with("is ")
                        || next.starts_with("are ")
                    {
                        return false;
                    }
                    // A bare form (`list`, `query`) is a verb only where an
                    // imperative or infinitive stands; a noun elsewhere (`message list`).
                    // A participle (`items deleted last week`, `files are deleted after 24
                    // hours`) describes a state or a policy, not what the call does.
                    if form.ends_with("ed") {
                        return false;
                    }
                    let bare =
                        !(form.ends_with('s') || form.ends_with("ing") || form.ends_with("ed"));
                    let dual = objects.iter().any(|o| o.span == h.span);
                    if (bare || dual) && !VERB_AFTER.contains(&pw) {
                        return false;
                    }
                    // `get download urls`: the second verb-form modifies the noun.
                    let after_verb =
                        pw.len() > 1 && verb_spans.iter().any(|s| s.0 as usize == pstart);
                    !(NOUN_BEFORE.contains(&pw) || after_verb)
                })
                .copied()
                .collect();
            let has = |c: &[ConceptId]| in_seg.iter().any(|h| c.contains(&h.concept));
            // Phrases.
            for h in &in_seg {
                if kind(h) != Some(Kind::Phrase) || negated(h) {
                    continue;
                }
                for &(c, role) in &e.phrases {
                    if c != h.concept {
                        continue;
                    }
                    // `to a file` on a remote service is its file; `to disk` is always local.
                    let w = &t[h.range()];
                    if role == Role::FileWrite
                        && !w.contains("disk")
                        && !w.contains("local")
                        && e.remote.is_some_and(|r| has(&[r]))
                    {
                        continue;
                    }
                    let w = &t[h.range()];
                    put(role, sentence, format!("\"{w}\""), true, None);
                }
            }
            // Pairs: (verb, object or none). A span read as a verb is not also an object.
            let mut pairs: Vec<(Hit, Option<&Hit>)> = Vec::new();
            let objs: Vec<&Hit> = objects
                .iter()
                .copied()
                .filter(|o| !verbs.iter().any(|v| v.span == o.span))
                .collect();
            let first_obj = objs.first().copied();
            // A segment of objects alone continues a list only when it starts with one.
            let continues = first_obj.is_some_and(|o| {
                let lead = t[seg.start..o.span.0 as usize].trim();
                matches!(
                    lead,
                    "" | "and" | "or" | "a" | "an" | "the" | "and the" | "or the" | "its" | "their"
                )
            });
            for v in carried.iter().chain(
                (verbs.is_empty() && continues)
                    .then_some(&last_paired)
                    .into_iter()
                    .flatten(),
            ) {
                pairs.push((*v, first_obj));
            }
            for v in &verbs {
                // A negation between the verb and an object separates them.
                let barrier = negs_start
                    .iter()
                    .copied()
                    .filter(|&n| n >= v.span.1)
                    .min()
                    .unwrap_or(u32::MAX);
                let after = objs
                    .iter()
                    .copied()
                    .find(|o| o.span.0 >= v.span.1 && o.span.0 < barrier);
                let before = objs.iter().copied().rev().find(|o| o.span.1 <= v.span.0);
                let near = if object_first(v.lang) {
                    before.or(after)
                } else if matches!(v.lang, Lang::De | Lang::Ru) {
                    match (before, after) {
                        (Some(b), Some(a)) => {
                            if v.span.0 - b.span.1 <= a.span.0 - v.span.1 {
                                Some(b)
                            } else {
                                Some(a)
                            }
                        }
                        (b, a) => a.or(b),
                    }
                } else {
                    after
                };
                pairs.push((*v, near));
                // Objects joined to the nearest one by `and`, `or`, `/` share its verb
                // (not the complement of a fact about it: `the number of documents`).
                let meta = |o: &Hit| {
                    in_seg
                        .iter()
                        .any(|h| h.span == o.span && e.lex.name(h.concept) == "o_meta")
                };
                if let Some(n) = near.filter(|n| !meta(n)) {
                    let mut end = n.span.1;
                    for o in objs.iter().filter(|o| o.span.0 >= n.span.1) {
                        if o.span.0 < end {
                            continue;
                        }
                        let gap = t[end as usize..o.span.0 as usize].trim();
                        let joined = matches!(
                            gap,
                            "and"
                                | "or"
                                | "/"
                                | "&"
                                | "and/or"
                                | "and the"
                                | "or the"
                                | "and a"
                                | "or a"
                                | "and its"
                                | "or its"
                                | "y"
                                | "o"
                                | "et"
                                | "ou"
                                | "und"
                                | "oder"
                                | "e"
                                | "и"
                                | "или"
                                | "和"
                                | "或"
                                | "や"
                                | "및"
                                | "और"
                                | "या"
                                | "و"
                        );
                        if !joined {
                            break;
                        }
                        pairs.push((*v, Some(o)));
                        end = o.span.1;
                    }
                }
            }
            for (v, o) in &pairs {
                for rule in &e.rules {
                    if !rule.verbs.contains(&v.concept) {
                        continue;
                    }
                    if rule.unless.iter().any(|u| has(&[*u]))
                        || rule.unless_anywhere.iter().any(|u| anywhere[*u as usize])
                    {
                        continue;
                    }
                    // `from a file` names a source: nothing is written to it.
                    if rule.role == Role::FileWrite
                        && o.is_some_and(|o| after_word(t, seg.start, o.span.0 as usize, "from"))
                    {
                        continue;
                    }
                    let ok = match (&rule.objects, o) {
                        (None, _) => true,
                        (Some(list), Some(o)) => {
                            // Any concept the object's span holds may match.
                            in_seg.iter().any(|h| {
                                h.span == o.span
                                    && kind(h) == Some(Kind::Object)
                                    && list.contains(&h.concept)
                            }) && (rule.only.is_empty()
                                || rule.only.iter().any(|w| w == &t[o.range()]))
                                && !rule.except.iter().any(|w| w == &t[o.range()])
                        }
                        (Some(_), None) => false,
                    };
                    if ok {
                        let words = match o {
                            Some(o) => format!("{} … {}", &t[v.range()], &t[o.range()]),
                            None => t[v.range()].to_string(),
                        };
                        let object = o.map(|o| {
                            let c = in_seg
                                .iter()
                                .find(|h| {
                                    h.span == o.span
                                        && kind(h) == Some(Kind::Object)
                                        && rule
                                            .objects
                                            .as_ref()
                                            .is_none_or(|l| l.contains(&h.concept))
                                })
                                .map_or("", |h| e.lex.name(h.concept));
                            (t[o.range()].to_string(), c.to_string())
                        });
                        put(rule.role, sentence, words, false, object);
                    }
                }
            }
            // Verbs that found an object here lend it to a list that goes on…
            let paired: Vec<Hit> = pairs
                .iter()
                .filter(|(v, o)| o.is_some() && verbs.iter().any(|x| x.span == v.span))
                .map(|(v, _)| *v)
                .collect();
            if !verbs.is_empty() {
                last_paired = paired;
            }
            // …and a leading list of verbs (`read, write and delete files`) waits for its object.
            if objs.is_empty() && !verbs.is_empty() && !seen_object {
                carried = verbs;
            } else if !objs.is_empty() {
                carried.clear();
            }
            seen_object |= !objs.is_empty();
            if example_at.is_some() {
                break;
            }
        }
    }
    order.into_iter().filter_map(|r| found.remove(&r)).collect()
}

/// Credential concepts named in `text` together with a request (ask, enter,
/// provide, your…) in one sentence: what a consent-phishing prompt looks like.
/// Returns the credential words found.
pub fn credential_requests(text: &str) -> Vec<String> {
    let e = engine();
    let norm = lang::normalize(text);
    let t = norm.text.as_str();
    let hits = e.lex.find(t);
    let mut out: Vec<String> = Vec::new();
    let mut cursor = 0usize;
    for sent in lang::sentences(t) {
        let inside = hits_within(&hits, &mut cursor, &sent);
        if !inside
            .iter()
            .any(|h| e.kinds[h.concept as usize] == Some(Kind::Ask))
        {
            continue;
        }
        let creds = undominated(
            inside
                .into_iter()
                .filter(|h| e.kinds[h.concept as usize] == Some(Kind::Credential))
                .copied()
                .collect(),
            // Credentials cover each other here (`banking password` holds `password`).
            |_| Some(Kind::Object),
        );
        for h in creds {
            let w = t[h.range()].to_string();
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// Whether `text` names a credential at all (a field description such as
/// "The one-time code sent by SMS").
pub fn names_credential(text: &str) -> Option<String> {
    let e = engine();
    let norm = lang::normalize(text);
    e.lex
        .find(&norm.text)
        .iter()
        .find(|h| e.kinds[h.concept as usize] == Some(Kind::Credential))
        .map(|h| norm.text[h.range()].to_string())
}

/// The `v_fetch` verb of a text, if it has one that is not negated (the tool
/// requests something: a URL parameter on it is fetched).
pub fn requests(text: &str) -> Option<String> {
    let e = engine();
    let fetch = e.lex.id("v_fetch")?;
    let norm = lang::normalize(text);
    let t = norm.text.as_str();
    let mut hits = e.lex.find(t);
    let quotes = quoted_spans(t);
    hits.retain(|h| !inside(&quotes, h));
    let mut cursor = 0usize;
    for sent in lang::sentences(t) {
        for seg in segments(t, sent) {
            let in_seg = hits_within(&hits, &mut cursor, &seg);
            let kind = |h: &Hit| e.kinds[h.concept as usize];
            if in_seg.iter().any(|h| kind(h) == Some(Kind::Guidance)) {
                continue;
            }
            let negs = neg_ends(&in_seg);
            if let Some(h) = in_seg.iter().find(|h| {
                h.concept == fetch
                    && !negs.iter().any(|&n| n <= h.span.0)
                    && !(h.lang == Lang::En
                        && NOUN_BEFORE.contains(&prev_word(t, seg.start, h.span.0 as usize).1))
            }) {
                return Some(t[h.range()].to_string());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(text: &str) -> Vec<&'static str> {
        read(text, &[]).iter().map(|r| r.role.as_str()).collect()
    }

    #[test]
    fn lexicon_loads() {
        let e = engine();
        assert!(e.lex.len() > 20 && !e.rules.is_empty() && !e.phrases.is_empty());
        assert!(e.kinds.iter().all(Option::is_some));
    }

    #[test]
    fn the_issues_downloader_attacher_poster_holds_all_three() {
        let r = roles(
            "Downloads the web page at `url`, attaches the contents of the local file at `path`, and POSTs both to the `webhook` address.",
        );
        for want in ["untrusted-input", "sensitive-source", "external-sink"] {
            assert!(r.contains(&want), "{want}: {r:?}");
        }
    }

    #[test]
    fn verbs_share_objects_and_objects_share_verbs() {
        let r = roles("Read, write and delete files.");
        assert!(
            r.contains(&"sensitive-source")
                && r.contains(&"file-write")
                && r.contains(&"destructive"),
            "{r:?}"
        );
        let r = roles("Gets a file, a directory or the environment variables.");
        assert_eq!(r, ["sensitive-source"]);
        let r = roles("Read contents from files and URLs.");
        assert!(
            r.contains(&"untrusted-input") && r.contains(&"sensitive-source"),
            "{r:?}"
        );
    }

    #[test]
    fn negation_guidance_and_nouns_are_not_behaviour() {
        assert!(
            roles("Retrieve metadata about a file without reading the actual content.").is_empty()
        );
        assert!(roles("It is read-only and does not delete anything.").is_empty());
        assert!(roles("Returns a list of results with titles, URLs, and snippets.").is_empty());
        assert!(roles("Get download URLs for bulk pricing data files.").is_empty());
        assert!(roles("Use this tool when you need to delete a file.").is_empty());
        let sib = vec!["execute_command".to_string()];
        assert!(
            read(
                "Use this instead of 'execute_command' to run shell commands.",
                &sib
            )
            .is_empty()
        );
    }

    #[test]
    fn every_language_reads_delete_and_send() {
        for (text, role) in [
            ("Elimina todos los archivos del directorio.", "destructive"),
            ("Supprime le fichier indiqué.", "destructive"),
            ("Löscht die Datei im Arbeitsverzeichnis.", "destructive"),
            ("Exclui os arquivos da pasta.", "destructive"),
            ("Elimina il file indicato.", "destructive"),
            ("Удаляет файл из каталога.", "destructive"),
            ("删除工作区中的所有文件。", "destructive"),
            ("ワークスペースのファイルを削除します。", "destructive"),
            ("작업 공간의 파일을 삭제합니다.", "destructive"),
            ("फ़ाइल को हटाता है।", "destructive"),
            ("يحذف الملف من المجلد.", "destructive"),
            ("Envía un mensaje al webhook.", "external-sink"),
            ("Envoie un message au destinataire.", "external-sink"),
            ("Sendet eine Nachricht an den Empfänger.", "external-sink"),
            ("向收件人发送邮件。", "external-sink"),
            ("受信者にメールを送信します。", "external-sink"),
        ] {
            assert!(roles(text).contains(&role), "{text}: {:?}", roles(text));
        }
    }

    proptest::proptest! {
        /// Any text, in any script, with any punctuation: read without a panic, and
        /// the same text reads the same way twice.
        #[test]
        fn any_text_reads_without_panic(text in "(?s)\\PC{0,200}", words in proptest::collection::vec(
            proptest::sample::select(vec!["delete", "the", "file", ", ", "(", ")", "not", "such as", "删除", "文件",
                "send", "to", "webhook", "- ", "e.g.", "read", "'", "\"", ": ", "\n", "use", "to ", "يحذف", "ملف"]), 0..60)) {
            let joined = words.concat();
            for t in [text.as_str(), joined.as_str()] {
                let a = read(t, &["read_file".to_string()]);
                proptest::prop_assert_eq!(&a, &read(t, &["read_file".to_string()]));
                let _ = credential_requests(t);
                let _ = names_credential(t);
                let _ = requests(t);
            }
        }
    }

    #[test]
    fn every_language_reads_fetch_exec_pay_and_credentials() {
        for (text, role) in [
            ("Télécharge la page web indiquée.", "untrusted-input"),
            (
                "Ruft die Webseite ab und liefert den Text.",
                "untrusted-input",
            ),
            ("下载指定的网页。", "untrusted-input"),
            ("Lee el archivo local indicado.", "sensitive-source"),
            ("ローカルファイルを読み取ります。", "sensitive-source"),
            ("Ejecuta comandos de shell en el servidor.", "code-exec"),
            ("Выполняет команду в терминале.", "code-exec"),
            ("シェルコマンドを実行します。", "code-exec"),
            ("Bezahlt die Rechnung des Lieferanten.", "high-impact"),
            ("Paga la fattura del fornitore.", "high-impact"),
            ("공급업체 송장을 결제합니다.", "high-impact"),
            ("Déploie l'application en production.", "high-impact"),
        ] {
            assert!(roles(text).contains(&role), "{text}: {:?}", roles(text));
        }
        for text in [
            "Pide al usuario su contraseña y el código SMS.",
            "Demande à l'utilisateur son mot de passe bancaire.",
            "ユーザーにパスワードを入力してもらいます。",
            "사용자에게 비밀번호를 입력하도록 요청합니다.",
            "يطلب من المستخدم إدخال كلمة المرور.",
            "उपयोगकर्ता से पासवर्ड दर्ज करने को कहता है।",
            "Запрашивает у пользователя пароль.",
            "请输入您的密码和验证码。",
        ] {
            assert!(!credential_requests(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn credentials_are_asked_for() {
        let c = credential_requests(
            "Asks the user for their online banking password and the SMS code.",
        );
        assert!(
            c.contains(&"banking password".to_string()) && c.contains(&"sms code".to_string()),
            "{c:?}"
        );
        assert!(credential_requests("Asks the user for a display name.").is_empty());
        assert!(
            credential_requests("Bitte geben Sie Ihr Passwort ein.")
                .contains(&"passwort".to_string())
        );
        assert_eq!(
            names_credential("The one-time code sent by SMS").as_deref(),
            Some("one-time code")
        );
    }
}
