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
        let denied = own.iter().find(|n| {
            bit(n.concept as u8) & t.c.need_not != 0
                && (n.span.1 <= h.span.0 && clause(n.span.1 as usize, h.span.0 as usize)
                    || h.span.1 <= n.span.0 && clause(h.span.1 as usize, n.span.0 as usize))
        });
        let from = denied.map_or(h.span.0, |n| n.span.0.min(h.span.0)) as usize;
        let to = denied.map_or(h.span.1, |n| n.span.1.max(h.span.1)) as usize;
        if denied.is_some()
            || negated(
                &text[range.start..h.span.0 as usize],
                &text[h.span.1 as usize..range.end],
            )
        {
            let from = if denied.is_some() {
                from
            } else {
                text[..from]
                    .trim_end()
                    .rfind(' ')
                    .map_or(range.start, |i| i + 1)
                    .max(range.start)
            };
            sen.add(concept.trailing_zeros() as u8, &text[from..to]);
        }
    }
}

/// "No read-back to finance required", "is not itemised", "never a
/// heads-up": the word itself negated, the negation right before it.
fn negated(before: &str, after: &str) -> bool {
    let before = before.trim_end();
    let last = before.rsplit(' ').next().unwrap_or("");
    match last {
        "not" | "never" | "n't" => true,
        "no" => {
            let clause = after.split(['.', ';', ',', ':']).next().unwrap_or("");
            clause.len() <= 40
                && ["required", "needed", "necessary", "expected", "wanted"]
                    .iter()
                    .any(|w| clause.contains(w))
        }
        _ => last.ends_with("n't"),
    }
}
