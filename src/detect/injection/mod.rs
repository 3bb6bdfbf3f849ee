//! Stage 2, injection heuristics: the linguistic shape of an instruction aimed at
//! the model rather than the human.
//!
//! The patterns are data (`src/data/injection.toml`); a literal prefilter
//! (`crate::prefilter`) picks the patterns that can match a field, and only
//! those are compiled (once, on first use) and run for their evidence span.
//! A keyword hit alone stays weak; several kinds in one field corroborate each
//! other and, past a threshold, escalate to MTC-INJ-POISON.
//!
//! The stage is split along its seams, each file depending only on those
//! listed before it:
//! - `tables.rs`: the pattern table compiled (`compiled`, `PatternDef`) and
//!   the scan that runs it over one field (`scan_text`, `Hit`);
//! - `detectors.rs`: the detectors beside the table (secrets, exfiltration
//!   URLs and parameter names, encoded blobs with a base64 decoder) and
//!   `reveal`;
//! - `field.rs`: one field checked (`check_field`): findings per rule and the
//!   escalation to MTC-INJ-POISON;
//! - `item.rs`: stage 2 across the fields of one item (`check_item`);
//! - this file: `check`, `check_text_field` (a field as written, as a model
//!   reads it, and each hidden part) and `trace`.

mod detectors;
mod field;
mod item;
mod tables;
#[cfg(test)]
mod tests;

pub use detectors::reveal;
pub use item::check_item;
pub use tables::{Compiled, PatternDef, compiled};

use crate::finding::Finding;
use crate::surface::{ServerSurface, TextField};
use field::check_field;

pub fn check(s: &ServerSurface, _opts: &super::ScanOptions, out: &mut Vec<Finding>) {
    for field in s.text_fields() {
        check_text_field(s, &field, out);
    }
}

/// Stage 2 over one text field, as written, as a model reads it, and each part
/// of it hidden from a reviewer. Returns the field's clause signals (stage 2's
/// tool-wide reading combines them across fields).
pub fn check_text_field(
    s: &ServerSurface,
    field: &TextField<'_>,
    out: &mut Vec<Finding>,
) -> Vec<super::intent::FieldSignals> {
    let first = out.len();
    let mut signals = vec![check_field(s, field, false, out)];
    // The field read again (decoded, each hidden part) is still one field: a
    // rule the first read already reported keeps one finding, the strongest.
    let mut reread = |text: &str, hidden: bool, out: &mut Vec<Finding>| {
        let shown = TextField {
            text,
            ..field.clone()
        };
        let mut more = Vec::new();
        signals.push(check_field(s, &shown, hidden, &mut more));
        let before = out.len();
        for f in more {
            match out[first..before]
                .iter_mut()
                .find(|k| k.rule_id == f.rule_id)
            {
                Some(k) if (f.severity, f.confidence) > (k.severity, k.confidence) => *k = f,
                Some(_) => {}
                None => out.push(f),
            }
        }
    };
    // Decode, don't strip: hidden instructions are scanned as the model reads them.
    if let Some(revealed) = reveal(field.text) {
        reread(&revealed, false, out);
    }
    for part in super::hidden::parts(field.text) {
        reread(&part.text, true, out);
    }
    signals
}

/// Every text field's sentence signals ([`super::intent::trace`]), for tuning.
pub fn trace(s: &ServerSurface) -> Vec<String> {
    let mut sink = Vec::new();
    s.text_fields()
        .iter()
        .flat_map(|f| check_text_field(s, f, &mut sink))
        .flat_map(|sig| super::intent::trace(&sig))
        .collect()
}
