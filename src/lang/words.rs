//! Where a lexicon literal sits in normalised text: word boundaries (a
//! combining mark continues a word), stems that run on to the word's end, and
//! the words a term's tail requires after it.

/// The end of a hit of the literal matched at `s..e`, when it sits as its
/// term requires (`start_bound`, `end_bound`, `stem`; `tail`: the words that
/// must follow, one space apart), or `None`.
pub fn sits<'t>(
    text: &str,
    (s, mut e): (usize, usize),
    [start_bound, end_bound, stem]: [bool; 3],
    tail: impl Iterator<Item = (&'t str, bool)>,
) -> Option<usize> {
    // A static automaton's match always ends on a literal's last byte.
    if !text.is_char_boundary(s) || !text.is_char_boundary(e) {
        return None;
    }
    // A literal that closes with a bracket and opens a line is a turn
    // header, a boundary of its own: "<|im_start|>" stands before "system"
    // with no space between. (Inline, "begin each record with
    // <|im_start|>system" documents the format; `Vec<Secret>` is a type.)
    let opens_line = || {
        let before = text[..s].trim_end_matches([' ', '\t']);
        before.is_empty() || before.ends_with('\n')
    };
    let tag = || text[s..e].ends_with(['>', ']', '}']) && opens_line();
    if start_bound && !boundary_before(text, s) || end_bound && !boundary_after(text, e) && !tag() {
        return None;
    }
    if stem {
        e = word_end(text, e);
    }
    follow(text, e, tail)
}

fn word_end(text: &str, from: usize) -> usize {
    from + text[from..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len() - from, |(i, _)| i)
}

/// The end of `tail` when its words follow `at` one space apart.
fn follow<'t>(
    text: &str,
    mut at: usize,
    tail: impl Iterator<Item = (&'t str, bool)>,
) -> Option<usize> {
    for (word, stem) in tail {
        let rest = text[at..].strip_prefix(' ')?;
        let rest = rest.strip_prefix(word)?;
        at = text.len() - rest.len();
        if stem {
            at = word_end(text, at);
        } else if !boundary_after(text, at) {
            return None;
        }
    }
    Some(at)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_mark(c)
}

/// Combining marks continue a word (Devanagari vowel signs, Arabic harakat).
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670
        | 0x06D6..=0x06ED | 0x0900..=0x0903 | 0x093A..=0x094F | 0x0951..=0x0957 | 0x0962..=0x0963)
}

fn boundary_before(text: &str, at: usize) -> bool {
    text[..at].chars().next_back().is_none_or(|c| !is_word(c))
}

fn boundary_after(text: &str, at: usize) -> bool {
    text[at..].chars().next().is_none_or(|c| !is_word(c))
}
