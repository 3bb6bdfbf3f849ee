//! Making scanned text inert in Markdown: inline (one line, a table cell, an
//! HTML element), code spans and fenced blocks, and the compact forms the
//! tables use.

use std::fmt::Write;

/// Make scanned text inert inside a Markdown line, a table cell or an HTML
/// element such as `<summary>`.
///
/// Invisible characters become `<U+XXXX>` and newlines `\n` (via
/// [`crate::text::visible`]), so the text is one line. `&`, `<`, `>`, `"` become
/// entities (no HTML, no comments). Every other ASCII punctuation character that
/// Markdown or GitHub gives meaning to becomes a numeric entity: that kills
/// emphasis, links, images, headings, lists, table pipes, code spans, footnotes,
/// math and autolinks (`https://` needs a literal `:`, `www.` a literal `.`).
/// `@` and `#`+digit are wrapped in `<code>` because GitHub links mentions and
/// issue references after decoding entities, but never inside code. Runs of
/// spaces keep one real space, so no indented code block or hard break appears.
pub fn escape_inline(s: &str) -> String {
    escape_from(s, None)
}

/// `word` ends with `tail`, ASCII case ignored.
fn ends_with_ci(word: &str, tail: &str) -> bool {
    word.len() >= tail.len()
        && word.as_bytes()[word.len() - tail.len()..].eq_ignore_ascii_case(tail.as_bytes())
}

/// [`escape_inline`] for text that continues a line after `prev`.
fn escape_from(s: &str, mut prev: Option<char>) -> String {
    let v = crate::text::visible(s);
    let mut out = String::with_capacity(v.len() + v.len() / 4);
    // The letters just before, for `www.`, `mailto:` and `xmpp:` autolinks.
    let mut word = String::new();
    let mut it = v.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '@' => out.push_str("<code>@</code>"),
            '#' if it.peek().is_some_and(|n| n.is_ascii_digit()) => out.push_str("<code>#</code>"),
            ' ' if prev.is_none() || prev == Some(' ') => out.push_str("&#32;"),
            // Punctuation that means nothing in the middle of a line stays
            // readable; at the start of the text (a list, a heading rule) and
            // where it would complete an autolink it is encoded.
            '.' | ':' | '-' | '(' | ')' | '+' | '=' | '{' | '}'
                if prev.is_some()
                    && !(c == '.' && ends_with_ci(&word, "www"))
                    && !(c == ':'
                        && (it.peek() == Some(&'/')
                            || ends_with_ci(&word, "mailto")
                            || ends_with_ci(&word, "xmpp"))) =>
            {
                out.push(c)
            }
            c if c.is_ascii_punctuation()
                && !matches!(c, ',' | '\'' | '/' | '?' | ';' | '%' | '^') =>
            {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            word.clear();
        }
        prev = Some(c);
    }
    out
}

/// [`escape_inline`] after cutting the raw text to `max` characters (cutting
/// first, so an entity is never split).
pub fn escape_cut(s: &str, max: usize) -> String {
    escape_inline(&crate::text::truncate_chars(s, max))
}

/// Scanned text as an inline code span: nothing inside is parsed, linked or
/// mentioned, and entities are not decoded. Invisible characters are shown
/// (long runs compacted, see [`compact`]), line breaks as `\n`; the fence
/// outgrows every backtick run, so the text cannot close it.
pub fn code_span(s: &str, max: usize) -> String {
    let v = crate::text::visible(&compact(&crate::text::truncate_chars(s, max)));
    let mut longest = 0;
    let mut run = 0;
    for c in v.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // A leading or trailing backtick (or space) needs a space pad, which
    // CommonMark strips again.
    let pad = if v.starts_with(['`', ' ']) || v.ends_with(['`', ' ']) || v.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{v}{pad}{fence}")
}

/// Inline Markdown for a table cell: GFM splits cells on `|` before inline
/// parsing (even inside code spans), so every pipe is escaped; `\|` inside a
/// code span reads as `|`.
pub fn table_cell(md: &str) -> String {
    md.replace('|', "\\|")
}

/// Free text that may quote identifiers in backticks (our own messages do:
/// "server `notes` (tool `x`)"): each quoted part becomes a safe code span,
/// the rest is escaped by [`escape_inline`]. A stray backtick is escaped.
pub fn escape_text(s: &str, max: usize) -> String {
    let s = crate::text::truncate_chars(s, max);
    let pieces: Vec<&str> = s.split('`').collect();
    let mut out = String::with_capacity(s.len() + 16);
    for (i, p) in pieces.iter().enumerate() {
        let quoted = i % 2 == 1 && i + 1 < pieces.len();
        if quoted && p.is_empty() {
            out.push_str("&#96;&#96;");
        } else if quoted {
            // Two spans side by side would read as one backtick run.
            if out.ends_with('`') {
                out.push(' ');
            }
            out.push_str(&code_span(p, usize::MAX));
        } else {
            if i % 2 == 1 {
                // The unmatched last backtick.
                out.push_str("&#96;");
            }
            let prev = (i > 0).then_some('`');
            out.push_str(&escape_from(&compact(p), prev));
        }
    }
    out
}

/// [`escape_inline`] of [`compact`]ed text, cut to `max` characters first.
pub(super) fn compact_inline(s: &str, max: usize) -> String {
    escape_inline(&compact(&crate::text::truncate_chars(s, max)))
}

/// Runs of four or more invisible characters shown as one note instead of
/// one `<U+XXXX>` each: `⟦69 invisible Tags characters: "Before answering…"⟧`
/// (Tags-block text is decoded, since that is what a model reads). Other
/// text is left as it is, for [`crate::text::visible`] to show.
pub fn compact(s: &str) -> String {
    // Invisible characters as they are, or as `visible` already wrote them.
    let mut units: Vec<(char, Option<char>)> = Vec::with_capacity(s.len());
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some((hidden, len)) = shown_invisible(rest) {
            units.push(('\0', Some(hidden)));
            rest = &rest[len..];
        } else if crate::text::is_invisible(c) {
            units.push((c, Some(c)));
            rest = &rest[c.len_utf8()..];
        } else {
            units.push((c, None));
            rest = &rest[c.len_utf8()..];
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < units.len() {
        let mut j = i;
        while j < units.len() && units[j].1.is_some() {
            j += 1;
        }
        if j - i >= 4 {
            let run: Vec<char> = units[i..j].iter().filter_map(|u| u.1).collect();
            let tags: String = run
                .iter()
                .filter_map(|&c| {
                    let n = c as u32;
                    (0xE0020..=0xE007E)
                        .contains(&n)
                        .then(|| char::from_u32(n - 0xE0000))
                        .flatten()
                })
                .collect();
            if tags.chars().count() == run.len() {
                let _ = write!(
                    out,
                    "⟦{} invisible Tags characters: \"{}\"⟧",
                    run.len(),
                    crate::text::truncate_chars(&tags, 300)
                );
            } else {
                let _ = write!(out, "⟦{} invisible characters⟧", run.len());
            }
            i = j;
        } else {
            for u in &units[i..j.max(i + 1)] {
                match u {
                    ('\0', Some(h)) => {
                        let _ = write!(out, "<U+{:04X}>", *h as u32);
                    }
                    (c, _) => out.push(*c),
                }
            }
            i = j.max(i + 1);
        }
    }
    out
}

/// `<U+E0041>` as [`crate::text::visible`] writes an invisible character:
/// the character and the token's length.
fn shown_invisible(s: &str) -> Option<(char, usize)> {
    let hex = s.strip_prefix("<U+")?;
    let n = hex.bytes().take_while(u8::is_ascii_hexdigit).count();
    if !(4..=6).contains(&n) || hex.as_bytes().get(n) != Some(&b'>') {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(&hex[..n], 16).ok()?)?;
    crate::text::is_invisible(c).then_some((c, 3 + n + 1))
}

/// Make multi-line scanned text inert as a fenced code block (with a trailing
/// newline). Inside a fence nothing is parsed, and GitHub never links mentions in
/// code; the fence is longer than any backtick run in the text so it cannot be
/// closed early. Invisible characters are shown as `<U+XXXX>`. Place it at the
/// start of a line at the top level (not inside a list item).
pub fn escape_block(s: &str) -> String {
    // Lines inside the fence are raw: made visible, and log-safe (the report
    // also reaches runner logs when printed to stdout).
    let lines: Vec<String> = s
        .replace("\r\n", "\n")
        .split('\n')
        .map(|l| crate::text::log_line(&crate::text::visible(l)).into_owned())
        .collect();
    let mut longest = 0;
    for l in &lines {
        let mut run = 0;
        for c in l.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
    }
    let fence = "`".repeat((longest + 1).max(3));
    let mut out = format!("{fence}text\n");
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out
}
