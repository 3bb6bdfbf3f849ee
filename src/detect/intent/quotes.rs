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

/// How far before a quotation its list marker's line may start.
const MARKER_REACH: usize = 32;

/// A quotation that fills a list or block-quote line of its own (`- "…"`,
/// `> "…"`) under a heading that ends in a colon, names what it lists as
/// examples or findings ("Typical findings:", "Example lines used in the
/// scenarios:") and orders nothing, in a text that said before the heading
/// what it detects or teaches, is an exhibit the text displays. `marks`
/// tells whether a span of the heading holds an order, a step or a framing
/// word, whether it names an example or a defensive purpose, and whether
/// such a word comes before it.
pub(super) fn exhibit_line(
    text: &str,
    s: usize,
    e: usize,
    marks: impl Fn(usize, usize) -> (bool, bool, bool),
) -> bool {
    // A list marker is a few bytes: the line must start within MARKER_REACH
    // of the quotation (read no further back, so a long line of quotations
    // stays linear).
    let from = crate::text::reach_back(text, s, MARKER_REACH);
    let line_start = match text[from..s].rfind('\n') {
        Some(i) => from + i + 1,
        None if from == 0 => 0,
        None => return false,
    };
    let marker = text[line_start..s].trim();
    let is_marker = |m: &str| {
        matches!(m, "-" | "*" | ">" | "•")
            || m.strip_suffix(['.', ')'])
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    if !is_marker(marker) {
        return false;
    }
    // The rest of the line is punctuation: read up to its first other
    // character.
    let rest = text[e..]
        .char_indices()
        .find(|&(_, c)| c == '\n' || !(c.is_ascii_punctuation() || c.is_whitespace()))
        .map_or(text.len(), |(i, _)| e + i);
    if !(rest == text.len() || text[rest..].starts_with('\n'))
        || !text[e..rest]
            .trim()
            .chars()
            .all(|c| c.is_ascii_punctuation())
    {
        return false;
    }
    // Back over the list's other lines to its heading (a list of exhibits
    // is short: a longer run is no exhibit list).
    let mut end = line_start;
    for _ in 0..EXHIBITS {
        if end == 0 {
            return false;
        }
        let start = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = text[start..end - 1].trim();
        let head = line.split_whitespace().next().unwrap_or("");
        if is_marker(head) {
            end = start;
            continue;
        }
        let Some(body) = line.strip_suffix(':') else {
            return false;
        };
        // The heading's own sentence: "… summarised. Typical findings:".
        let from = body.rfind(". ").map_or(0, |i| i + 2);
        let at = start + (text[start..end - 1].len() - text[start..end - 1].trim_start().len());
        let (order, shown, shown_before) = marks(at + from, at + body.len());
        let named = body[from..]
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| EXHIBIT_WORDS.contains(&w));
        return !order && (shown || named) && shown_before;
    }
    false
}

/// How many list lines a heading may sit above.
const EXHIBITS: usize = 24;

/// Headings that name what follows as exhibits, not rules.
const EXHIBIT_WORDS: [&str; 14] = [
    "example",
    "examples",
    "findings",
    "finding",
    "flagged",
    "samples",
    "sample",
    "planted",
    "lures",
    "phrases",
    "patterns",
    "indicators",
    "detections",
    "hits",
];

/// Whether a quotation after `before` is what a tool answers with ("fails
/// with 'no branch selected'", "returns 'not found'"): a message shown, no
/// value put anywhere.
pub(super) fn shown_message(before: &str) -> bool {
    const LEADS: [&str; 9] = [
        "fails with",
        "errors with",
        "error",
        "returns",
        "responds with",
        "replies with",
        "displays",
        "the message",
        "error message",
    ];
    let b = before.trim_end();
    LEADS.iter().any(|l| b.ends_with(l))
}
