//! Making scanned text safe to show: invisible and control characters become
//! `<U+XXXX>`, secrets are redacted, long text is cut. Every output format builds
//! on these, so a hostile description can never drive our terminal or report.
//! [`log`] keeps scanned text from becoming a CI runner's workflow command;
//! [`redact`] removes credentials from launch lines, URLs and free text.

pub mod log;
pub mod redact;

pub use log::{log_json, log_line, log_text, workflow_command};
pub use redact::{redact_args, redact_command, redact_secrets, redact_url};
// Character tests live with the character families (`crate::chars`), below
// the text reader (`crate::lang`) that shares them.
pub use crate::chars::{invisible as is_invisible, is_plain_ascii};

/// Does `s` hold any [`is_invisible`] character? Printable ASCII (with tab, newline
/// and carriage return) is checked a byte at a time, without decoding.
pub fn has_invisible(s: &str) -> bool {
    !is_plain_ascii(s) && s.chars().any(is_invisible)
}

/// Render text so that every invisible or control character is shown as `<U+XXXX>`.
/// Tab, newline and carriage return are shown as escapes too, so one finding is one line.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_invisible(c) => out.push_str(&format!("<U+{:04X}>", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Cut to at most `max` characters, marking the cut.
pub fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((i, _)) => format!("{}…", &s[..i]),
    }
}

/// Redact a secret value: keep a 4-character prefix so a reviewer can find it.
pub fn redact(secret: &str) -> String {
    let prefix: String = secret.chars().take(4).collect();
    format!("{prefix}…[REDACTED {} chars]", secret.chars().count())
}

/// The nearest character boundary at or before byte `at` (clamped to the
/// text): a byte window's end that never cuts a character.
pub fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The nearest character boundary at or after byte `at` (clamped to the
/// text): a byte window's start that never cuts a character.
pub fn ceil_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Where a window of at most `reach` bytes that ends at byte `at` starts,
/// on a character boundary: reading back a bounded distance keeps a
/// per-hit look behind linear in an endless sentence.
pub fn reach_back(text: &str, at: usize, reach: usize) -> usize {
    let at = floor_char_boundary(text, at);
    ceil_char_boundary(text, at.saturating_sub(reach)).min(at)
}

/// Where a window of at most `reach` bytes that starts at byte `at` ends,
/// on a character boundary: the forward twin of [`reach_back`].
pub fn reach_ahead(text: &str, at: usize, reach: usize) -> usize {
    floor_char_boundary(text, at.saturating_add(reach)).max(at.min(text.len()))
}

/// 1-based line and column of a byte offset (column counted in characters).
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let safe = floor_char_boundary(text, offset);
    let before = &text[..safe];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() + 1;
    (line as u32, col as u32)
}

/// Line/column lookups for many offsets of one text in near-linear time: line
/// starts are indexed once, and columns are counted from a cursor that moves
/// forward (parsers visit nodes in document order), so a 5 MB one-line file
/// with 300,000 nodes is not quadratic.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    cursor: std::cell::Cell<(usize, u32)>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex {
            text,
            starts,
            cursor: std::cell::Cell::new((0, 1)),
        }
    }

    /// 1-based (line, column in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_idx = self.starts.partition_point(|&s| s <= offset) - 1;
        let line_start = self.starts[line_idx];
        let (cur_off, cur_col) = self.cursor.get();
        let col = if cur_off >= line_start && cur_off <= offset {
            cur_col + self.text[cur_off..offset].chars().count() as u32
        } else {
            self.text[line_start..offset].chars().count() as u32 + 1
        };
        self.cursor.set((offset, col));
        (line_idx as u32 + 1, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ascii_matches_its_definition_at_every_offset() {
        let naive = |s: &str| {
            s.bytes()
                .all(|b| (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r'))
        };
        for c in (0u32..0x300)
            .chain([0x200B, 0xFEFF, 0xE0041])
            .filter_map(char::from_u32)
        {
            for len in [1usize, 31, 32, 33, 64, 70] {
                for at in [0, len / 2, len - 1] {
                    let mut s: String = "a".repeat(len);
                    s.replace_range(at..at + 1, c.encode_utf8(&mut [0; 4]));
                    assert_eq!(is_plain_ascii(&s), naive(&s), "{c:?} at {at} of {len}");
                }
            }
        }
        assert!(is_plain_ascii(""));
    }

    #[test]
    fn visible_escapes_controls_and_invisibles() {
        assert_eq!(visible("a\u{200B}b"), "a<U+200B>b");
        assert_eq!(visible("\u{1b}[31mred"), "<U+001B>[31mred");
        assert_eq!(visible("x\u{E0041}"), "x<U+E0041>");
        assert_eq!(visible("line1\nline2"), "line1\\nline2");
        assert_eq!(visible("plain ascii"), "plain ascii");
        assert_eq!(visible("日本語 ok"), "日本語 ok");
        for (text, hidden) in [
            ("plain\ttext\r\n", false),
            ("日本語", false),
            ("a\u{200B}b", true),
            ("\u{7F}", true),
            ("\u{1b}[31m", true),
            ("x\u{E0041}", true),
        ] {
            assert_eq!(has_invisible(text), hidden, "{text:?}");
            assert_eq!(has_invisible(text), text.chars().any(is_invisible));
        }
    }

    #[test]
    fn truncation_and_redaction() {
        assert_eq!(truncate_chars("abcdef", 3), "abc…");
        assert_eq!(truncate_chars("abc", 3), "abc");
        assert_eq!(redact("ghp_abcdefgh"), "ghp_…[REDACTED 12 chars]");
    }

    #[test]
    fn line_index_matches_line_col() {
        let t = "ab\ncé\nx yz\n\nend";
        let idx = LineIndex::new(t);
        let mut offsets: Vec<usize> = (0..=t.len()).filter(|&o| t.is_char_boundary(o)).collect();
        for &o in &offsets {
            assert_eq!(idx.line_col(o), line_col(t, o), "offset {o}");
        }
        offsets.reverse();
        for &o in &offsets {
            assert_eq!(idx.line_col(o), line_col(t, o), "offset {o} backwards");
        }
    }

    #[test]
    fn line_col_counts_from_one() {
        let t = "ab\ncé\nx";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 6), (2, 3));
        assert_eq!(line_col(t, 999), (3, 2));
    }
}
