//! The user left out. Kept uninformed by a need denied: "the recruiter does
//! not need a status call on it", "nobody needs a heads-up about the second
//! post", "no read-back to finance required", "is not itemised in the
//! summary"; their say skipped the same way: "clinicians need not be asked
//! each time". No "never tell" is needed: saying the telling is unnecessary
//! does the same, in any of the lexicon's languages. And their choice set
//! aside by a fronted free relative: "whatever tier the patron picks, book …".

/// Words after a moving verb that make it a read-back to the user ("repeat
/// it back"): nothing moves.
pub(super) const READ_BACK: [&str; 5] = [
    " it back",
    " them back",
    " that back",
    " this back",
    " back ",
];

/// Words after "not notified" and the like that spare the person a
/// duplicate ("is not notified twice"): nothing is hidden.
pub(super) const DUPLICATE: [&str; 5] = [
    " twice",
    " again",
    " a second time",
    " more than once",
    " repeatedly",
];

use super::reading::Reading;
use super::signals::Sentence;
use super::tables::{Tables, bit};
use crate::lang;
use std::ops::Range;

/// Adds `conceal` (a telling word, or a place the user is told in: "weave
/// it into the reply", "in front of the recruiter") or `no_consent` (a
/// permission word) where a need denied or a prohibition stands in that
/// word's clause: before it, or after it when it is a need denied after a
/// noun ("a heads-up is not needed"); in Japanese, Korean and Hindi, where
/// the denial follows the verb, only after it. Also where the word itself is negated ("no read-back
/// … required", "not itemised"). Not inside a condition ("if you don't need
/// notifications, …") or a quotation.
pub(super) fn mark(
    t: &Tables,
    reading: &Reading,
    range: Range<usize>,
    own: &[lang::Hit],
    sen: &mut Sentence,
) {
    let text = reading.text.as_str();
    // The telling and permission words, each checked once.
    let words: Vec<&lang::Hit> = own
        .iter()
        .filter(|h| {
            bit(h.concept as u8) & (t.c.notify | t.c.permission) != 0
                && h.span.1 as usize <= range.end
                && !reading.mentioned(h.range())
        })
        .collect();
    if words.is_empty() {
        return;
    }
    let denials: Vec<&lang::Hit> = own
        .iter()
        .filter(|n| bit(n.concept as u8) & (t.c.need_not | t.c.prohibit) != 0)
        .filter(|n| !conditional(&text[range.start..n.span.0 as usize]))
        .collect();
    let clause = |a: usize, z: usize| {
        let gap = &text[a..z];
        gap.chars().count() <= 48
            && !gap.contains(['.', ';', ',', ':', '?', '!', '。', '，', '、', '\n'])
            && !gap.contains(" - ")
            && !relative_clause(gap)
    };
    for h in words {
        let concept = if bit(h.concept as u8) & t.c.permission == 0 {
            t.c.conceal
        } else {
            t.c.no_consent
        };
        // "Non chiedere i dati della carta" forbids a request for the
        // person's data; it skips no consent.
        if concept == t.c.no_consent
            && super::negation::data_follows(t, text, own, h.span.1 as usize)
        {
            continue;
        }
        let verb_final = matches!(
            h.lang,
            lang::Lang::Ja | lang::Lang::Ko | lang::Lang::Hi | lang::Lang::Tr
        );
        let (hs, he) = (h.span.0 as usize, h.span.1 as usize);
        let denied = denials.iter().find(|n| {
            let (ns, ne) = (n.span.0 as usize, n.span.1 as usize);
            // "No need to" and "to ask" share their "to".
            let before = ns < hs && ne <= he && (ne > hs || clause(ne, hs));
            let after = he <= ns && clause(he, ns);
            !verb_final && before
                || (verb_final || bit(n.concept as u8) & t.c.need_not != 0) && after
        });
        let before = &text[range.start..hs];
        let from = match denied {
            Some(n) => (n.span.0 as usize).min(hs),
            None if !conditional(before)
                && negated(before, &text[he..range.end], h.lang != lang::Lang::En) =>
            {
                // The evidence starts at the negation: two words back at most.
                let b = before.trim_end();
                range.start + b.rmatch_indices(' ').nth(1).map_or(0, |(i, _)| i + 1)
            }
            None => continue,
        };
        let to = denied.map_or(he, |n| (n.span.1 as usize).max(he));
        sen.add(concept.trailing_zeros() as u8, &text[from..to]);
    }
}

/// The user's choice set aside (`against_user`) by a fronted free relative:
/// "whatever tier the patron picks, book …", "no matter what the caller
/// reports". One that is an argument ("saves to whatever folder the user
/// picks") honours the choice.
pub(super) fn mark_set_aside(t: &Tables, sentence: &str, sen: &mut Sentence) {
    if let Some(e) = set_aside(sentence) {
        sen.add(t.c.against_user.trailing_zeros() as u8, e);
    }
}

/// "Never guesses a weight it wasn't told": a subject and its auxiliary
/// between the denial and the telling word open a clause of their own; the
/// denial negates the verb before them.
fn relative_clause(gap: &str) -> bool {
    let words = gap.split_whitespace();
    words.clone().zip(words.skip(1)).any(|(subject, aux)| {
        matches!(subject, "it" | "they" | "we" | "you" | "he" | "she")
            && matches!(
                aux,
                "was"
                    | "wasn't"
                    | "were"
                    | "weren't"
                    | "is"
                    | "isn't"
                    | "are"
                    | "aren't"
                    | "has"
                    | "hasn't"
                    | "had"
                    | "hadn't"
                    | "have"
                    | "haven't"
            )
    })
}

/// How far back [`conditional`] reads for the clause's start, in bytes: a
/// bounded look keeps each hit linear in an endless sentence.
const CONDITION_REACH: usize = 400;

/// The clause before a word opens a condition: "if you don't need …".
fn conditional(before: &str) -> bool {
    let before = &before[crate::text::reach_back(before, before.len(), CONDITION_REACH)..];
    let clause = before
        .rfind([',', ';', ':', '.'])
        .map_or(before, |i| &before[i + 1..]);
    clause
        .split_whitespace()
        .any(|w| matches!(w, "if" | "unless" | "whether" | "when"))
}

/// "No read-back to finance required", "is not itemised", "never a
/// heads-up", "non viene menzionata": the word itself negated, by one of the
/// two words before it (an English "no" only when the clause says the thing
/// is not required: "no notification is sent" states a fact). A future or a
/// capability ("won't notify you on success", "will not notify anyone")
/// describes what the tool does, not what it keeps back.
fn negated(before: &str, after: &str, foreign: bool) -> bool {
    let mut words = before.trim_end().rsplit(' ');
    let last = words.next().unwrap_or("");
    let prev = words.next().unwrap_or("");
    let neg = |w: &str| {
        matches!(
            w,
            "not"
                | "never"
                | "don't"
                | "doesn't"
                | "didn't"
                | "isn't"
                | "aren't"
                | "shouldn't"
                | "mustn't"
                | "needn't"
                | "non"
                | "nicht"
                | "não"
                | "nao"
                | "не"
                | "nunca"
                | "jamais"
                | "mai"
        ) || foreign && w == "no"
    };
    let modal = |w: &str| matches!(w, "will" | "would" | "can" | "could" | "cannot");
    if neg(last) && !modal(prev) || neg(prev) && !modal(words.next().unwrap_or("")) {
        return true;
    }
    last == "no" && {
        let clause = after.split(['.', ';', ',', ':']).next().unwrap_or("");
        clause.len() <= 40
            && ["required", "needed", "necessary", "expected", "wanted"]
                .iter()
                .any(|w| clause.contains(w))
    }
}

/// Whether a clause already put its subject in place ("that goes in `iban`",
/// "the fee stays with the platform"): a free relative after it is
/// concessive ("… whatever the invoice header says"), not the object.
fn placed(lead: &str) -> bool {
    // Not "is": "is used to fetch whatever …" is no placed value.
    const VERBS: [&str; 11] = [
        "goes", "go", "stays", "stay", "remains", "remain", "lands", "land", "sits", "belongs",
        "belong",
    ];
    const PREPS: [&str; 7] = ["in", "into", "to", "as", "on", "under", "with"];
    let clause = lead.rsplit([',', ';', ':', '.']).next().unwrap_or(lead);
    let words: Vec<&str> = clause.split_whitespace().collect();
    // A placing verb among the three words before a preposition, then one
    // or two words of place.
    let n = words.len();
    (1..=2).any(|place| {
        n > place
            && PREPS.contains(&words[n - place - 1])
            && words[..n - place - 1]
                .iter()
                .rev()
                .take(3)
                .any(|w| VERBS.contains(w))
    })
}

/// The free relative that sets the user's say aside, when it opens its
/// clause (after the start, a comma, colon, semicolon or parenthesis) or is
/// "no matter …" / "regardless of …".
fn set_aside(text: &str) -> Option<&str> {
    const OPENERS: [&str; 6] = [
        "whatever ",
        "whichever ",
        "no matter what ",
        "no matter which ",
        "regardless of what ",
        "regardless of which ",
    ];
    const VERBS: [&str; 31] = [
        "says",
        "said",
        "reports",
        "asks",
        "asked",
        "picks",
        "picked",
        "chooses",
        "chose",
        "wants",
        "requests",
        "requested",
        "enters",
        "entered",
        "selects",
        "selected",
        "types",
        "typed",
        "gives",
        "names",
        "indicates",
        "prefers",
        "specifies",
        "states",
        "orders",
        "lists",
        "appear",
        "appears",
        "shows",
        "show",
        "contains",
    ];
    OPENERS.iter().find_map(|o| {
        let at = text.find(o)?;
        let lead = text[..at].trim_end();
        let fronted = o.starts_with("no ")
            || o.starts_with("regardless")
            || lead.is_empty()
            || lead.ends_with([',', ':', ';', '(', '-', '—'])
            || placed(lead);
        if !fronted {
            return None;
        }
        let after = &text[at + o.len()..];
        let mut len = 0;
        for w in after.split(' ').take(5) {
            len += w.len() + 1;
            let bare = w.trim_end_matches([',', '.', ';', ':', ')']);
            if VERBS.contains(&bare) {
                let end = at + o.len() + len - 1 - (w.len() - bare.len());
                return Some(&text[at..end]);
            }
            if bare.len() != w.len() {
                break;
            }
        }
        None
    })
}
