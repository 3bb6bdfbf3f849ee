//! Text as a model reads it, in one canonical form: HTML entities decoded,
//! invisible characters removed (zero-width splitting a keyword does not split
//! it for the model), NFKC (fullwidth and compatibility forms folded), lowercase,
//! Cyrillic and Greek look-alikes inside Latin words folded to Latin, typographic
//! quotes and dashes made ASCII, whitespace runs collapsed (line breaks kept,
//! since they end sentences).

use unicode_normalization::UnicodeNormalization;

/// A normalised text. Spans of [`super::Hit`] index into `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    pub text: String,
}

/// Normalise `raw` (see the module comment). Linear in its length; plain ASCII
/// takes a fast path with no Unicode tables.
pub fn normalize(raw: &str) -> Normalized {
    let decoded;
    let src: &str = if raw.contains('&') {
        decoded = decode_entities(raw);
        &decoded
    } else {
        raw
    };
    if crate::chars::is_plain_ascii(src) {
        return Normalized {
            text: ascii_collapsed(src),
        };
    }
    let mut out = String::with_capacity(src.len());
    {
        let visible: String = src
            .chars()
            .filter(|&c| (!crate::chars::invisible(c) || is_space(c)) && !arabic_mark(c))
            .map(|c| if is_space(c) { ' ' } else { c })
            .collect();
        // Most text is already in NFKC: the quick check skips the decomposition.
        let lowered = |s: &str, out: &mut String| {
            push_collapsed(
                out,
                s.chars()
                    // Turkish dotted capital İ lowercases to i + U+0307: fold it to i.
                    .flat_map(|c| if c == '\u{130}' { 'i' } else { c }.to_lowercase())
                    .map(fold_punct),
            )
        };
        if unicode_normalization::is_nfkc_quick(visible.chars())
            == unicode_normalization::IsNormalized::Yes
        {
            lowered(&visible, &mut out);
        } else {
            let composed: String = visible.nfkc().collect();
            lowered(&composed, &mut out);
        }
        if out.chars().any(|c| matches!(c as u32, 0x0370..=0x04FF)) {
            out = fold_mixed_tokens(&out);
        }
    }
    Normalized { text: out }
}

/// Arabic short-vowel and shadda marks, the dagger alif and the tatweel:
/// optional in writing ("تلقّيتها" is "تلقيتها"), so read without them. The
/// lexicon's terms are written without them too (its normal-form check).
fn arabic_mark(c: char) -> bool {
    matches!(c, '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{0640}')
}

/// Whitespace a reader sees as a space (the unusual spaces are invisible-family
/// characters too, but they separate words).
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{2028}' | '\u{2029}'
    )
}

fn fold_punct(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '`' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{00AB}' | '\u{00BB}'
        | '\u{2033}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2028}' | '\u{2029}' => '\n',
        c => c,
    }
}

/// Collapse runs of spaces/tabs to one space and runs of line breaks (with the
/// spaces around them) to one `\n`; trim both ends.
/// [`push_collapsed`] for printable ASCII, byte by byte (the common case).
fn ascii_collapsed(src: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(src.len());
    let mut pending: Option<u8> = None;
    for &b in src.as_bytes() {
        match b {
            b' ' | b'\t' | b'\r' | 0x0B | 0x0C => {
                if pending.is_none() {
                    pending = Some(b' ');
                }
            }
            b'\n' => pending = Some(b'\n'),
            c => {
                if let Some(p) = pending.take()
                    && !out.is_empty()
                {
                    out.push(p);
                }
                out.push(if c == b'`' {
                    b'\''
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
    }
    // Only ASCII bytes were pushed.
    String::from_utf8(out).unwrap_or_default()
}

fn push_collapsed(out: &mut String, chars: impl Iterator<Item = char>) {
    let mut pending: Option<char> = None;
    for c in chars {
        match c {
            ' ' | '\t' | '\r' | '\x0B' | '\x0C' => {
                if pending.is_none() {
                    pending = Some(' ');
                }
            }
            '\n' => pending = Some('\n'),
            c => {
                if let Some(p) = pending.take()
                    && !out.is_empty()
                {
                    out.push(p);
                }
                out.push(c);
            }
        }
    }
}

/// Cyrillic and Greek letters that look like Latin ones, lowercase.
fn latin_lookalike(c: char) -> Option<char> {
    Some(match c {
        'а' => 'a',
        'в' => 'b',
        'с' => 'c',
        'ԁ' => 'd',
        'е' | 'ё' => 'e',
        'һ' => 'h',
        'і' => 'i',
        'ј' => 'j',
        'к' => 'k',
        'м' => 'm',
        'н' => 'h',
        'о' => 'o',
        'р' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' => 't',
        'у' => 'y',
        'х' => 'x',
        'ԝ' => 'w',
        'α' => 'a',
        'β' => 'b',
        'ε' => 'e',
        'η' => 'n',
        'ι' => 'i',
        'κ' => 'k',
        'ν' => 'v',
        'ο' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'u',
        'χ' => 'x',
        'ω' => 'w',
        _ => return None,
    })
}

/// Fold look-alikes inside words that mix Latin with Cyrillic or Greek (the
/// signature of a disguised keyword); words wholly in Cyrillic or Greek stay.
fn fold_mixed_tokens(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let latin = word.chars().any(|c| c.is_ascii_alphabetic());
        let other = word.chars().any(|c| latin_lookalike(c).is_some());
        if latin && other {
            out.extend(word.chars().map(|c| latin_lookalike(c).unwrap_or(c)));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Decode named (the common ones) and numeric HTML entities; anything else is kept.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        // An entity's `;` comes within ten bytes: look no further, or a text
        // of `&` with no `;` is read to its end at every `&`.
        let end = rest.as_bytes()[1..rest.len().min(11)]
            .iter()
            .position(|&b| b == b';')
            .map(|e| e + 1);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some(' '),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> String {
        normalize(s).text
    }

    #[test]
    fn ascii_lowercase_and_collapse() {
        assert_eq!(n("  Send   THE\tKey \n\n  now  "), "send the key\nnow");
        assert_eq!(n("use `Read_File`"), "use 'read_file'");
        assert_eq!(
            n("a &lt;b&gt; &amp;&#65;&#x42;&bogus; &"),
            "a <b> &ab&bogus; &"
        );
    }

    #[test]
    fn unicode_forms_fold() {
        // Zero-width split keyword, fullwidth letters, curly quotes, NBSP.
        assert_eq!(
            n("ig\u{200B}nore ＰＡＳＳ “quoted”\u{A0}x"),
            "ignore pass \"quoted\" x"
        );
        // Cyrillic а inside a Latin word folds; a Russian word stays Russian.
        assert_eq!(n("p\u{0430}ssword и пароль"), "password и пароль");
        // Tags-block characters are invisible and dropped (their decoded text is scanned separately).
        assert_eq!(n("ok\u{E0041}\u{E0042}"), "ok");
        assert_eq!(n("ÉCRIVEZ"), "écrivez");
    }
}
