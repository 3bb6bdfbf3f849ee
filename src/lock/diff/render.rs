//! Rendering the diff: one evidence line, `git --word-diff` style words, and
//! the terminal block `diff` prints.

use super::model::{CatalogDiff, ChangeKind, WordPart};
use crate::text::{truncate_chars, visible};
impl CatalogDiff {
    /// One line for finding evidence: the change summaries, joined.
    pub fn summary(&self) -> String {
        let n = self.changes.len();
        let label = if self.whitespace_only() {
            " (whitespace only)"
        } else {
            ""
        };
        let body: Vec<String> = self
            .changes
            .iter()
            .map(|c| {
                if c.words.is_empty() {
                    c.summary.clone()
                } else {
                    format!("{}: {}", c.summary, render_words(&c.words))
                }
            })
            .collect();
        truncate_chars(
            &format!(
                "{n} change{}{label}: {}",
                if n == 1 { "" } else { "s" },
                body.join("; ")
            ),
            1000,
        )
    }
}

/// Word diff in `git --word-diff` style: `[-old-]{+new+}`, long equal runs elided.
pub fn render_words(words: &[WordPart]) -> String {
    let mut s = String::new();
    for w in words {
        match w {
            WordPart::Equal(t) => {
                let chars: Vec<char> = t.chars().collect();
                if chars.len() > 80 {
                    let head: String = chars[..30].iter().collect();
                    let tail: String = chars[chars.len() - 30..].iter().collect();
                    s.push_str(&format!("{head} … {tail}"));
                } else {
                    s.push_str(t);
                }
            }
            WordPart::Delete(t) => s.push_str(&format!("[-{t}-]")),
            WordPart::Insert(t) => s.push_str(&format!("{{+{t}+}}")),
        }
    }
    s
}

/// The diff for a terminal: one block per server, one line per change, word diffs indented.
/// Every scanned string was made visible when the change was built.
pub fn render_terminal(d: &CatalogDiff) -> String {
    let mut s = format!(
        "{}: {}\n",
        visible(&d.server),
        if d.is_empty() {
            "no changes".to_string()
        } else {
            format!(
                "{} change{}{}",
                d.changes.len(),
                if d.changes.len() == 1 { "" } else { "s" },
                if d.whitespace_only() {
                    " (whitespace only)"
                } else {
                    ""
                }
            )
        }
    );
    for c in &d.changes {
        let mark = match c.kind {
            ChangeKind::ToolAdded
            | ChangeKind::PromptAdded
            | ChangeKind::ResourceAdded
            | ChangeKind::PropertyAdded
            | ChangeKind::ServerAdded => '+',
            ChangeKind::ToolRemoved
            | ChangeKind::PromptRemoved
            | ChangeKind::ResourceRemoved
            | ChangeKind::PropertyRemoved
            | ChangeKind::ServerRemoved => '-',
            _ => '~',
        };
        s.push_str(&format!("  {mark} {}\n", c.summary));
        if !c.words.is_empty() {
            s.push_str(&format!("      {}\n", render_words(&c.words)));
        } else if c.before.is_some() || c.after.is_some() {
            let show = |o: &Option<String>| o.clone().unwrap_or_else(|| "unset".into());
            if !c.summary.contains('→') {
                s.push_str(&format!("      {} → {}\n", show(&c.before), show(&c.after)));
            }
        }
    }
    s
}
