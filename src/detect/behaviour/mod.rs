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

use crate::lang::{self, ConceptId, Hit, Lang};
use crate::model::Role;
use std::collections::BTreeMap;

mod engine;
mod spans;
#[cfg(test)]
mod tests;

use engine::{Kind, engine};
use spans::{
    COMMAND_BEFORE, NOUN_BEFORE, VERB_AFTER, after_word, hits_within, inside, names_sibling,
    neg_ends, object_first, prev_word, quoted_spans, segments, shorten, undominated,
};

/// Who may stand before "should"/"must" and still be the tool (or nothing:
/// the segment opens with the modal).
const MODAL_SUBJECTS: &[&str] = &[
    "", "it", "tool", "this", "server", "which", "that", "and", "or", "also", "always", "then",
];

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
                    // `containers should run one process`: a rule about what
                    // the tool reads (a linter's check), not what it does.
                    if matches!(pw, "should" | "must")
                        && !MODAL_SUBJECTS.contains(&prev_word(t, seg.start, pstart).1)
                    {
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
