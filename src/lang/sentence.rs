//! Sentences (clauses) of a normalised text, the unit the clause reader
//! reads: split at sentence ends and line breaks, except where a code
//! comment wraps.

use std::ops::Range;

/// How far back a word before a dot is read to tell an abbreviation.
const WORD_REACH: usize = 64;

/// Sentence (clause) ranges of a normalised text: split at sentence ends
/// (`.`, `!`, `?`, `;` followed by a space or the end, in every script's form),
/// at line breaks, and before list bullets. Abbreviations (`e.g.`, `i.e.`,
/// `etc.`) and decimal points do not end a sentence.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    const ABBREV: &[&str] = &[
        "e.g", "i.e", "etc", "vs", "approx", "no", "nr", "fig", "incl", "ca", "cf", "dr", "mr",
        "ms", "mrs", "st", "z.b", "bzw", "usw", "p.ex", "ex", "p. ex", "d.h", "sp",
    ];
    let mut out = Vec::new();
    let mut start = 0;
    let b = text.as_bytes();
    let mut i = 0;
    // Bytes, not chars: every terminator is ASCII or starts with one of five
    // lead bytes, so only those are decoded.
    while i < b.len() {
        let c = match b[i] {
            x @ (b'\n' | b'.' | b'!' | b'?' | b';') => x as char,
            0xE3 | 0xEF | 0xE0 | 0xD8 | 0xDB => text[i..].chars().next().unwrap_or(' '),
            _ => {
                i += 1;
                continue;
            }
        };
        let end_here = match c {
            '\n' => {
                !comment_wraps(&text[..i], &text[i + 1..])
                    && !prose_wraps(&text[..i], &text[i + 1..])
                    && !code_follows(&text[..i], &text[i + 1..])
            }
            '。' | '！' | '？' | '；' | '।' | '॥' | '؟' | '؛' | '۔' => true,
            '.' | '!' | '?' | ';' => {
                let next = b.get(i + 1).copied();
                let follows_ok = next.is_none_or(|n| {
                    n == b' ' || n == b'\n' || n == b'"' || n == b'\'' || n == b')'
                });
                // Single letters joined by dots ("u.s.", "sp. z o.o.") abbreviate too.
                // The word is read back at most WORD_REACH bytes: a longer
                // one abbreviates nothing, and a dot-joined run without a
                // space is not re-read at every dot.
                let abbrev = c == '.' && {
                    // (`text` depends on `lang`: the look-back is written here.)
                    let from = text
                        .ceil_char_boundary(i.saturating_sub(WORD_REACH))
                        .clamp(start, i);
                    let before = &text[from..i];
                    let word = before.rsplit([' ', '(']).next().unwrap_or("");
                    let whole = word.len() < before.len() || from == start;
                    whole
                        && (ABBREV.contains(&word)
                            || word.split('.').all(|l| {
                                l.chars().count() == 1 && l.chars().all(char::is_alphabetic)
                            }))
                };
                // A clause that goes on after the closing quote or bracket
                // ("… sp. z o.o.\"), regardless of …") did not end.
                let goes_on = c == '.' && {
                    let rest = text[i + 1..].trim_start_matches(['"', '\'', ')', ']']);
                    rest.starts_with([',', ';'])
                };
                // A value's placeholder closing a call (`inhalt=...)`) ends nothing.
                let placeholder = c == '.' && next == Some(b')') && {
                    let dots = b[..=i]
                        .iter()
                        .rev()
                        .take(16)
                        .take_while(|&&x| x == b'.')
                        .count();
                    dots >= 2 && i + 1 > dots && matches!(b[i + 1 - dots - 1], b'=' | b':')
                };
                // A statement's own `;` inside quoted code (`'set x = 1;'`) ends nothing.
                let quoted_code = c == ';' && matches!(next, Some(b'\'' | b'"'));
                // An ellipsis that closes a quotation ("('send the files to …')")
                // trails off inside it; the sentence goes on after it.
                let trails =
                    c == '.' && i > 0 && b[i - 1] == b'.' && matches!(next, Some(b'\'' | b'"'));
                follows_ok && !abbrev && !goes_on && !placeholder && !quoted_code && !trails
            }
            _ => false,
        };
        let e = i + c.len_utf8();
        if end_here {
            if text[start..e].trim().len() > 1 {
                out.push(trimmed(text, start, e));
            }
            start = e;
        }
        i = e;
    }
    if text[start..].trim().len() > 1 {
        out.push(trimmed(text, start, text.len()));
    }
    out
}

/// The comment leader a line starts with (`--`, `//`, `#`, `*`; `/**` opens
/// a `*` block), if any.
fn comment_leader(line: &str) -> Option<&'static str> {
    let l = line.trim_start();
    [
        ("///", "//"),
        ("//", "//"),
        ("--", "--"),
        ("/**", "*"),
        ("*", "*"),
        ("# ", "#"),
    ]
    .into_iter()
    .find(|(p, _)| l.starts_with(p) && !l.starts_with("---") && !l.starts_with("##"))
    .map(|(_, family)| family)
}

/// Whether the line break between `before` (the text up to it) and `after`
/// is a code comment's wrap: both lines are comments of one kind and the
/// first stops mid-sentence, so "// send the key to\n// the audit host" is
/// one sentence, as its author wrote it. A comment's new tag (`@remarks`)
/// or bullet starts a sentence of its own.
fn comment_wraps(before: &str, after: &str) -> bool {
    let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    let next = after.split('\n').next().unwrap_or("");
    let Some(family) = comment_leader(line) else {
        return false;
    };
    if comment_leader(next) != Some(family) {
        return false;
    }
    fn body(l: &str) -> &str {
        l.trim_start()
            .trim_start_matches(['/', '-', '#', '*'])
            .trim()
    }
    let (this, rest) = (body(line), body(next));
    !this.is_empty()
        && !rest.is_empty()
        && !this.ends_with(['.', '!', '?', ';', ':', '{', '}', '(', ')'])
        && !rest.starts_with(['@', '-', '•', '+', '|'])
}

/// Whether the line break between `before` and `after` wraps a sentence of
/// prose or verse: the line stops after a comma and the next goes on in
/// lower case ("when `create_payout` runs its race,\nthe destination, every
/// time,\nis acct_…"). A next line that opens a field of its own (`limit:
/// …`, `query - …`), a bullet, or code is a line of its own.
fn prose_wraps(before: &str, after: &str) -> bool {
    let line = before[before.rfind('\n').map_or(0, |n| n + 1)..].trim_end();
    if !line.ends_with(',') || comment_leader(line).is_some() {
        return false;
    }
    let next = after.split('\n').next().unwrap_or("").trim_start();
    let body = next.strip_prefix('(').unwrap_or(next);
    if !body.starts_with(|c: char| c.is_ascii_lowercase()) {
        return false;
    }
    // A key opening the line (`limit: 10`, `query - the text`, `x = 1`, `f(x)`).
    let key_end = body.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '`')));
    !key_end.is_some_and(|k| {
        let rest = body[k..].trim_start();
        rest.starts_with([':', '=', '(']) || ["- ", "— ", "– "].iter().any(|d| rest.starts_with(d))
    })
}

/// A line that ends in a colon and a next line that opens with a quoted
/// snippet are one sentence: "call its evaluate tool with:" names what the
/// code on the next line is for. Not a settings row (`"notify": "…"`),
/// which is read on its own line.
fn code_follows(before: &str, after: &str) -> bool {
    let line = before[before.rfind('\n').map_or(0, |n| n + 1)..].trim_end();
    let next = after.split('\n').next().unwrap_or("").trim_start();
    let Some(q) = next
        .chars()
        .next()
        .filter(|c| matches!(c, '`' | '\'' | '"'))
    else {
        return false;
    };
    let key_row = next[1..]
        .find(q)
        .is_some_and(|e| next[1 + e + 1..].trim_start().starts_with([':', '=']));
    line.ends_with(':') && line.len() > 1 && !key_row
}

fn trimmed(text: &str, s: usize, e: usize) -> Range<usize> {
    let slice = &text[s..e];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    s + lead..e - trail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentence_split() {
        let t =
            "Reads a file, e.g. a log. Then send it to the host!\nAlso: 3.5 MB max; done。次の文";
        let s: Vec<&str> = sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(
            s,
            [
                "Reads a file, e.g. a log.",
                "Then send it to the host!",
                "Also: 3.5 MB max;",
                "done。",
                "次の文"
            ]
        );
        assert!(sentences("").is_empty());
        assert!(sentences(" . \n").is_empty());
    }

    /// "Pay to „Centrum sp. z o.o.”), regardless of …" is one sentence: dotted
    /// single letters abbreviate, and a clause that goes on after the
    /// closing quote or bracket did not end. "Acme Ltd. Then …" still ends.
    #[test]
    fn dotted_letters_and_a_clause_going_on_do_not_end_a_sentence() {
        let t = "pay to \"centrum sp. z o.o.\"), regardless of the invoice. made in the u.s. by us. next";
        let s: Vec<&str> = sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(
            s,
            [
                "pay to \"centrum sp. z o.o.\"), regardless of the invoice.",
                "made in the u.s. by us.",
                "next"
            ]
        );
        let t = "sold by acme ltd. then shipped.";
        assert_eq!(sentences(t).len(), 2);
    }

    #[test]
    fn a_wrapped_code_comment_is_one_sentence() {
        let split = |t: &'static str| -> Vec<&'static str> {
            sentences(t).into_iter().map(|r| &t[r]).collect()
        };
        assert_eq!(
            split("// note: send the key to\n// the audit host\nrun(x)"),
            ["// note: send the key to\n// the audit host", "run(x)"]
        );
        assert_eq!(
            split(" * @hint when the a\n *   b is used\n * @remarks c"),
            [" * @hint when the a\n *   b is used", "* @remarks c"].map(str::trim)
        );
        // A finished line, another kind of comment, a heading or a bullet ends it.
        assert_eq!(split("-- one\n// two").len(), 2);
        assert_eq!(split("# done:\n# next").len(), 2);
        assert_eq!(split("## usage\n## options").len(), 2);
        assert_eq!(split("- a\n- b").len(), 2);
        assert_eq!(split("-- a\n-- - b").len(), 2);
    }

    #[test]
    fn a_line_that_stops_after_a_comma_goes_on_in_lower_case() {
        let split = |t: &'static str| -> Vec<&'static str> {
            sentences(t).into_iter().map(|r| &t[r]).collect()
        };
        assert_eq!(
            split(
                "when payouts run,\nthe target, every time,\n(whatever they say),\nis acct_9.\nNext"
            ),
            [
                "when payouts run,\nthe target, every time,\n(whatever they say),\nis acct_9.",
                "Next"
            ]
        );
        // A capital, a key, a bullet, a dash or code opens a line of its own.
        assert_eq!(split("Dear team,\nThe build is green.").len(), 2);
        assert_eq!(split("limit,\nquery: the text").len(), 2);
        assert_eq!(split("a, b,\nmax_rows = 10").len(), 2);
        assert_eq!(split("a, b,\n- c").len(), 2);
        assert_eq!(split("a, b,\nregion - the code").len(), 2);
        assert_eq!(split("a, b,\nrun(x)").len(), 2);
        assert_eq!(split("a line\nanother line").len(), 2);
    }
}
