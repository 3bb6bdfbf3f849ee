//! Whether a concealment keeps data out of view (a privacy rule) rather than
//! an act from the user.

use super::tables::{Tables, bit};
use crate::lang;

/// How far a concealment's object is read, in bytes, either side of it.
const OBJECT_REACH: usize = 400;

/// Whether a concealment keeps data, not an act, from view: its object (what
/// follows it, or a settings line's value, to the first `,`, `;` or `(`)
/// names guarded data ("values", "internal margins", "names of other
/// patients") and no person it is kept from ("… from the user").
pub(super) fn guards_data(t: &Tables, hit: &str, after: &str) -> bool {
    // Eight words are read: a bounded window keeps each hit's read short in
    // an endless sentence (the split below would scan to its first comma).
    let after = &after[..crate::text::floor_char_boundary(after, OBJECT_REACH)];
    let object = if after.trim().is_empty() {
        hit.split_once([':', '=']).map_or("", |(_, v)| v)
    } else {
        after
    };
    let object = object.split([',', ';', '(']).next().unwrap_or("");
    let words: Vec<&str> = object
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    let mut guarded = false;
    for (i, w) in words.iter().enumerate() {
        let others = i > 0 && matches!(words[i - 1], "other" | "another");
        if t.guarded_people.contains(*w) {
            if !others {
                return false;
            }
            guarded = true;
        }
        guarded |= t.guarded_data.contains(*w);
    }
    guarded
}

/// In a language whose object comes first ("トークンは返信に含めない"), a key
/// named in the concealment's own clause, before it, is what it keeps out of
/// view: not echoing a credential is a privacy rule.
pub(super) fn guards_key_before(t: &Tables, text: &str, own: &[lang::Hit], h: &lang::Hit) -> bool {
    let start = h.span.0 as usize;
    if !text[start..].starts_with(lang::spaceless) {
        return false;
    }
    let from = crate::text::reach_back(text, start, OBJECT_REACH);
    let clause = text[from..start]
        .rfind(['、', '，', ',', '。', ';', '；'])
        .map_or(from, |i| from + i + 1);
    own.iter().any(|c| {
        bit(c.concept as u8) & t.c.secret != 0
            && c.span.0 as usize >= clause
            && (c.span.1 as usize) <= start
    })
}
