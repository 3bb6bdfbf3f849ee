//! What the reader finds: the signals of a sentence and of a field, the
//! structures they make, and the pattern stage's facts it takes as signals.

use super::tables::bit;
use crate::finding::{Confidence, Severity};

/// What one sentence names: a signal bit set and the first words that gave each signal.
#[derive(Debug, Clone, Default)]
pub struct Sentence {
    pub sigs: u128,
    pub evidence: Vec<(u8, String)>,
    pub text: String,
}

impl Sentence {
    pub(super) fn add(&mut self, b: u8, ev: &str) {
        if self.sigs & bit(b) == 0 {
            self.sigs |= bit(b);
            self.evidence
                .push((b, crate::text::truncate_chars(ev.trim(), 40)));
        }
    }
}

/// The signals of one field, per sentence.
#[derive(Debug, Clone, Default)]
pub struct FieldSignals {
    pub path: String,
    pub sentences: Vec<Sentence>,
    /// Field-wide signals (commands found by the pattern table, hidden text).
    pub field_sigs: u128,
    pub field_evidence: Vec<(u8, String)>,
}

impl FieldSignals {
    pub(super) fn union(&self) -> u128 {
        self.sentences
            .iter()
            .fold(self.field_sigs, |m, s| m | s.sigs)
    }
}

/// One structure found: the rule it raises and why.
#[derive(Debug, Clone)]
pub struct Structure {
    pub combo: String,
    pub rule: String,
    pub severity: Severity,
    pub confidence: Confidence,
    pub evidence: String,
}

/// Facts from the pattern stage that this reader uses as signals.
#[derive(Debug, Clone, Default)]
pub struct PatternFacts {
    /// A shell command, with the matched text.
    pub cmd: Option<String>,
    /// A download piped into an interpreter, or a reverse shell.
    pub fetch_exec: Option<String>,
}
