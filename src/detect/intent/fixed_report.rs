//! An outcome word counts as a fixed report only as a quoted literal ("report
//! it as 'locked'", "「施錠済み」と報告"): bare, "completed" is prose. A quoted
//! outcome among others ("'queued', 'running' or 'done'") lists what a
//! field may hold, and one followed by its condition ("'paid' once the bank
//! settles") is reported when it is true: neither is fixed.

use super::tables::{Tables, bit};
use crate::lang;

/// Quote pairs a literal is written in (after normalisation: typographic
/// quotes and guillemets are folded to `'` and `"`).
const PAIRS: [(char, char); 4] = [('\'', '\''), ('"', '"'), ('「', '」'), ('『', '』')];

/// Words that make what follows a literal its condition.
const CONDITIONS: [&str; 24] = [
    "when",
    "once",
    "if",
    "after",
    "until",
    "unless",
    "as soon as",
    "only if",
    "on success",
    "on completion",
    "cuando",
    "si",
    "quand",
    "lorsque",
    "dès que",
    "wenn",
    "sobald",
    "falls",
    "quando",
    "se",
    "когда",
    "если",
    "после",
    "пока",
];

/// How far a quote may be from the outcome word it encloses, in bytes.
const REACH: usize = 24;

pub(super) fn drop_unquoted_states(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    if t.c.fixed_state == 0 {
        return;
    }
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.fixed_state == 0
            || fixed_literal(text, h.span.0 as usize, h.span.1 as usize)
    });
}

/// The outcome word at `start..end` sits in a short quoted literal of its
/// own, not in a list of literals nor before its condition.
fn fixed_literal(text: &str, start: usize, end: usize) -> bool {
    let from = crate::text::ceil_char_boundary(text, start.saturating_sub(REACH));
    let before = &text[from..start];
    let before = before.rsplit('\n').next().unwrap_or(before);
    for (open, close) in PAIRS {
        let Some(o) = before.rfind(open) else {
            continue;
        };
        let at = start - before.len() + o;
        // An apostrophe inside a word ("the team's") opens nothing.
        if open == '\''
            && text[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
        {
            continue;
        }
        let after = &text[end..];
        let Some(c) = after
            .char_indices()
            .take_while(|&(i, ch)| i < REACH && ch != '\n')
            .find(|&(_, ch)| ch == close)
            .map(|(i, _)| end + i)
        else {
            continue;
        };
        let rest = text[c + close.len_utf8()..].trim_start();
        let lead = text[..at].trim_end();
        // "'queued', 'running' or 'done'", "'valid', or the errors found".
        let listed = rest.starts_with(',') && rest[1..].trim_start().starts_with(open)
            || rest.starts_with("or ")
            || rest.starts_with(", or ")
            || lead.ends_with(',')
            || lead.ends_with(" or");
        let rest = rest.trim_start_matches([',', ' ']);
        let conditioned = CONDITIONS.iter().any(|w| {
            rest.strip_prefix(w)
                .is_some_and(|r| r.starts_with(|ch: char| !ch.is_alphanumeric()))
        });
        return !listed && !conditioned;
    }
    false
}
