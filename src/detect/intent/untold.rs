//! Keeping the user uninformed said as a need denied: "the recruiter does
//! not need a status call on it", "nobody needs a heads-up about the second
//! post", "no read-back to finance required", "is not itemised in the
//! summary"; and the user's say skipped the same way: "clinicians need not
//! be asked each time". No "never tell" is needed: saying the telling is
//! unnecessary does the same, in any of the lexicon's languages.

use super::reading::Reading;
use super::signals::Sentence;
use super::tables::{Tables, bit};
use crate::lang;
use std::ops::Range;

/// Adds `conceal` (a telling word) or `no_consent` (a permission word) where
/// a need denied and that word stand in one clause, in either order (Japanese,
/// Korean and Hindi put the verb first), or where the word itself is negated
/// ("no read-back … required", "not itemised").
pub(super) fn mark(
    t: &Tables,
    reading: &Reading,
    range: Range<usize>,
    own: &[lang::Hit],
    sen: &mut Sentence,
) {
    let text = reading.text.as_str();
    let kind = |h: &lang::Hit| {
        if reading.mentioned(h.range()) {
            return None;
        }
        let b = bit(h.concept as u8);
        if b & t.c.notify != 0 {
            Some(t.c.conceal)
        } else if b & t.c.permission != 0 {
            Some(t.c.no_consent)
        } else {
            None
        }
    };
    let clause = |a: usize, z: usize| {
        let gap = &text[a..z];
        gap.len() <= 48 && !gap.contains(['.', ';', ',', ':', '?', '!', '。', '，', '、', '\n'])
    };
    for h in own {
        let Some(concept) = kind(h) else { continue };
        // A need denied or a prohibition in the same clause, on either side.
        // Japanese, Korean and Hindi deny after the verb ("伝える必要は
        // ありません"), and only there: "不可と伝える" tells that something
        // is not allowed. Elsewhere the denial comes first, or is a need
        // denied after a noun ("a heads-up is not needed").
        let verb_final = matches!(h.lang, lang::Lang::Ja | lang::Lang::Ko | lang::Lang::Hi);
        let denied = own.iter().find(|n| {
            let nb = bit(n.concept as u8);
            nb & (t.c.need_not | t.c.prohibit) != 0
                && (!verb_final
                    && n.span.1 <= h.span.0
                    && clause(n.span.1 as usize, h.span.0 as usize)
                    || (verb_final || nb & t.c.need_not != 0)
                        && h.span.1 <= n.span.0
                        && clause(h.span.1 as usize, n.span.0 as usize))
        });
        let before = &text[range.start..h.span.0 as usize];
        let from = match denied {
            Some(n) => n.span.0.min(h.span.0) as usize,
            None if negated(
                before,
                &text[h.span.1 as usize..range.end],
                h.lang != lang::Lang::En,
            ) =>
            {
                // The evidence starts at the negation: two words back at most.
                let b = before.trim_end();
                range.start + b.rmatch_indices(' ').nth(1).map_or(0, |(i, _)| i + 1)
            }
            None => continue,
        };
        let to = denied.map_or(h.span.1, |n| n.span.1.max(h.span.1)) as usize;
        sen.add(concept.trailing_zeros() as u8, &text[from..to]);
    }
    let sentence = &text[range.clone()];
    if sentence.contains("whatever ")
        || sentence.contains("whichever ")
        || sentence.contains("regardless of ")
        || sentence.contains("no matter ")
    {
        if let Some(e) = set_aside(sentence) {
            sen.add(t.c.against_user.trailing_zeros() as u8, e);
        }
    }
}

/// "No read-back to finance required", "is not itemised", "never a
/// heads-up", "non viene menzionata": the word itself negated, by one of the
/// two words before it (an English "no" only when the clause says the thing
/// is not required: "no notification is sent" states a fact).
fn negated(before: &str, after: &str, foreign: bool) -> bool {
    let mut words = before.trim_end().rsplit(' ');
    let last = words.next().unwrap_or("");
    let prev = words.next().unwrap_or("");
    let neg = |w: &str| {
        matches!(
            w,
            "not" | "never" | "non" | "nicht" | "não" | "nao" | "не" | "nunca" | "jamais" | "mai"
        ) || w.ends_with("n't")
            || foreign && w == "no"
    };
    if neg(last) || neg(prev) {
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

/// The user's say set aside by a free relative: "whatever tier the patron
/// picks", "whichever account the invoice names", "no matter what the caller
/// reports". The lexicon holds the fixed forms; this reads any noun between.
fn set_aside(text: &str) -> Option<&str> {
    const OPENERS: [&str; 6] = [
        "whatever ",
        "whichever ",
        "no matter what ",
        "no matter which ",
        "regardless of what ",
        "regardless of which ",
    ];
    const VERBS: [&str; 26] = [
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
    ];
    OPENERS.iter().find_map(|o| {
        let at = text.find(o)?;
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
