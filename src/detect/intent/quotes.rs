//! Quoted spans: where a field quotes rather than says (reported speech,
//! a value, a name), found without a regex.

/// Quoted spans (`'…'`, `"…"`, 2–120 bytes inside, one line; with `long`, a
/// whole single-quoted sentence up to 240). An apostrophe inside a word ("the
/// team's", "don't") neither opens nor closes a quote, so a possessive does
/// not swallow the real quotation after it.
pub(super) fn quote_spans(b: &[u8], long: bool) -> impl Iterator<Item = (usize, usize)> + '_ {
    let word = |i: usize| {
        b.get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c >= 0x80)
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let q = b[i];
            if (q == b'\'' && !(i > 0 && word(i - 1))) || q == b'"' {
                // Double quotes pair further: an exhibit quoted whole runs long.
                let limit = (i + if q == b'"' { 240 } else { 122 }).min(b.len());
                let ends = |j: usize| {
                    // Korean and Japanese particles follow a closing quote directly.
                    b[j] == q && (q == b'"' || !b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric))
                        || b[j] == b'\n'
                };
                // A whole quoted sentence ("… do not tell the adjuster.'")
                // may run longer than a phrase; a code span does not end so.
                let close = (i + 3..limit).find(|&j| ends(j)).or_else(|| {
                    let end = if long { (i + 240).min(b.len()) } else { limit };
                    (limit..end)
                        .find(|&j| ends(j))
                        .filter(|&j| b[j] == q && matches!(b[j - 1], b'.' | b'!' | b'?'))
                });
                if let Some(j) = close.filter(|&j| b[j] == q) {
                    let span = (i, j + 1);
                    i = j + 1;
                    return Some(span);
                }
            }
            i += 1;
        }
        None
    })
}
