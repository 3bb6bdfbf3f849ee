//! Stage 1, Unicode integrity: text a reviewer sees as blank or normal can carry
//! instructions the model reads. Decode, don't strip.
//!
//! The character families are data (`src/data/unicode.toml`, Unicode 17.0.0);
//! this module holds only the logic that tells a payload from a legitimate use
//! (emoji presentation selectors, emoji ZWJ sequences, flag tag sequences, RTL
//! text, CJK ideographic spaces).

use super::ScanOptions;
use crate::finding::{Confidence, Finding, Severity};
use crate::rules::ids;
use crate::surface::{Channel, ServerSurface, TextField};
use std::collections::BTreeMap;
use unicode_script::{Script, UnicodeScript};

const TAG_FIRST: u32 = 0xE0000;
const TAG_LAST: u32 = 0xE007F;
const CANCEL_TAG: u32 = 0xE007F;
const BLACK_FLAG: u32 = 0x1F3F4;
const ZWJ: char = '\u{200D}';
const ZWNJ: char = '\u{200C}';

pub use crate::chars::{Ranges, Tables, tables};

pub fn check(s: &ServerSurface, opts: &ScanOptions, out: &mut Vec<Finding>) {
    for field in s.text_fields() {
        check_field(s, &field, opts, out);
    }
}

/// Stage 1 over one text field (`check` walks every field of the surface).
pub fn check_field(
    s: &ServerSurface,
    field: &TextField<'_>,
    opts: &ScanOptions,
    out: &mut Vec<Finding>,
) {
    // Pure ASCII text without controls can hold none of these families except
    // mixed scripts and ANSI, which need non-letters or ESC: skip the work.
    let text = field.text;
    if crate::text::is_plain_ascii(text) {
        return;
    }
    let chars: Vec<char> = text.chars().collect();
    tags(s, field, &chars, out);
    variation_selectors(s, field, &chars, out);
    bidi(s, field, &chars, out);
    zero_width(s, field, &chars, opts.zero_width_threshold, out);
    simple_family(
        s,
        field,
        &chars,
        "invisible_format",
        ids::MTC_UNI_006,
        "invisible format character(s)",
        out,
    );
    unusual_space(s, field, &chars, out);
    simple_family(
        s,
        field,
        &chars,
        "control",
        ids::MTC_UNI_008,
        "control character(s)",
        out,
    );
    mixed_script(s, field, text, out);
    ansi(s, field, &chars, out);
    private_use(s, field, &chars, out);
}

/// MTC-UNI-011: private-use and noncharacter code points; a run of eight or
/// more in one field is an encoding, not an icon.
fn private_use(s: &ServerSurface, field: &TextField<'_>, chars: &[char], out: &mut Vec<Finding>) {
    let before = out.len();
    let n = simple_family(
        s,
        field,
        chars,
        "private_use",
        ids::MTC_UNI_011,
        "private-use or noncharacter code point(s)",
        out,
    );
    if n >= 8
        && let Some(f) = out.get_mut(before)
    {
        f.confidence = Confidence::Strong;
    }
}

/// A finding about one text field, located at its item. Shared with stage 2.
pub(super) fn at_field(
    s: &ServerSurface,
    field: &TextField<'_>,
    rule: &str,
    what: impl AsRef<str>,
) -> Finding {
    let item = field
        .item
        .map(|t| format!(" ({} `{t}`)", field.item_kind))
        .unwrap_or_default();
    Finding::new(
        rule,
        format!(
            "server `{}`{item}: {} in `{}`",
            s.name,
            what.as_ref(),
            field.path
        ),
        s.location_for_field(&field.path),
    )
    .server(&s.id)
    .tool(if field.item_kind == "tool" {
        field.item
    } else {
        None
    })
    .field(field.path.clone())
}

/// "U+200B ×3, U+FEFF ×1": what was found, in code-point order.
fn census(found: &[char]) -> String {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for c in found {
        *counts.entry(*c as u32).or_default() += 1;
    }
    counts
        .iter()
        .map(|(cp, n)| format!("U+{cp:04X} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// MTC-UNI-001: Tags-block characters outside an emoji flag tag sequence,
/// decoded to their hidden ASCII.
fn tags(s: &ServerSurface, field: &TextField<'_>, chars: &[char], out: &mut Vec<Finding>) {
    let mut hidden = String::new();
    let mut count = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let cp = chars[i] as u32;
        // A flag sequence: U+1F3F4, tag letters, U+E007F (e.g. Scotland). Legitimate.
        if cp == BLACK_FLAG {
            let mut j = i + 1;
            while j < chars.len() && (0xE0020..=0xE007E).contains(&(chars[j] as u32)) {
                j += 1;
            }
            if j > i + 1 && j < chars.len() && chars[j] as u32 == CANCEL_TAG && j - i - 1 <= 12 {
                i = j + 1;
                continue;
            }
        }
        if (TAG_FIRST..=TAG_LAST).contains(&cp) {
            count += 1;
            if (0xE0020..=0xE007E).contains(&cp) {
                hidden.push(char::from_u32(cp - TAG_FIRST).unwrap_or('?'));
            }
        }
        i += 1;
    }
    if count == 0 {
        return;
    }
    out.push(
        at_field(
            s,
            field,
            ids::MTC_UNI_001,
            format!("{count} invisible Tags-block character(s) hide text from reviewers"),
        )
        .evidence(format!("decoded hidden text: \"{hidden}\"")),
    );
}

/// The byte a variation selector carries: VS1–16 → 0–15, VS17–256 → 16–255.
fn vs_byte(c: char) -> Option<u8> {
    let cp = c as u32;
    match cp {
        0xFE00..=0xFE0F => Some((cp - 0xFE00) as u8),
        0xE0100..=0xE01EF => Some((cp - 0xE0100 + 16) as u8),
        _ => None,
    }
}

/// MTC-UNI-002: variation selectors used as a byte channel. A selector counts
/// when it is from the supplement block (except one ideographic variation
/// selector after a Han ideograph) or sits next to another selector; a lone
/// emoji presentation selector (U+FE0F after an emoji) is ordinary text.
fn variation_selectors(
    s: &ServerSurface,
    field: &TextField<'_>,
    chars: &[char],
    out: &mut Vec<Finding>,
) {
    let is_vs = |i: usize| chars.get(i).is_some_and(|c| vs_byte(*c).is_some());
    let mut bytes = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let Some(b) = vs_byte(c) else { continue };
        let neighbour = (i > 0 && is_vs(i - 1)) || is_vs(i + 1);
        let supplement = (c as u32) >= 0xE0100;
        let ivs = supplement && !neighbour && i > 0 && chars[i - 1].script() == Script::Han;
        if neighbour || (supplement && !ivs) {
            bytes.push(b);
        }
    }
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len();
    if n > 2 {
        let decoded = match std::str::from_utf8(&bytes) {
            Ok(t)
                if t.chars()
                    .all(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r')) =>
            {
                format!("decoded text: \"{t}\"")
            }
            _ => format!("decoded bytes (hex): {}", hex::encode(&bytes)),
        };
        out.push(
            at_field(
                s,
                field,
                ids::MTC_UNI_002,
                format!("{n} variation selectors form a hidden byte channel"),
            )
            .evidence(decoded),
        );
    } else {
        out.push(
            at_field(
                s,
                field,
                ids::MTC_UNI_002,
                format!("{n} variation selector(s) outside an emoji or ideographic sequence"),
            )
            .severity(Severity::Medium)
            .confidence(Confidence::Heuristic)
            .evidence(format!("bytes {}", hex::encode(&bytes))),
        );
    }
}

fn is_rtl_letter(c: char) -> bool {
    matches!(
        c.script(),
        Script::Hebrew
            | Script::Arabic
            | Script::Syriac
            | Script::Thaana
            | Script::Nko
            | Script::Adlam
    )
}

/// MTC-UNI-003 (overrides) and MTC-UNI-004 (isolates; marks outside RTL text).
fn bidi(s: &ServerSurface, field: &TextField<'_>, chars: &[char], out: &mut Vec<Finding>) {
    let t = tables();
    let found = |fam: &str| {
        chars
            .iter()
            .copied()
            .filter(|&c| t.family(fam).contains(c))
            .collect::<Vec<_>>()
    };
    let over = found("bidi_override");
    if !over.is_empty() {
        out.push(
            at_field(
                s,
                field,
                ids::MTC_UNI_003,
                format!(
                    "{} BiDi override character(s) reorder what a reviewer sees",
                    over.len()
                ),
            )
            .evidence(format!(
                "{}; text as read: {}",
                census(&over),
                crate::text::truncate_chars(field.text, 160)
            )),
        );
    }
    let iso = found("bidi_isolate");
    report(
        s,
        field,
        ids::MTC_UNI_004,
        "BiDi isolate character(s)",
        &iso,
        out,
    );
    // Marks are how right-to-left text is written correctly: only flag them in text with no RTL letters.
    let marks = found("bidi_mark");
    if !chars.iter().any(|&c| is_rtl_letter(c)) {
        report(
            s,
            field,
            ids::MTC_UNI_004,
            "BiDi mark(s) in text without right-to-left letters",
            &marks,
            out,
        );
    }
}

/// The nearest neighbour of `i` in direction `step`, skipping selectors and skin tones.
fn neighbour(chars: &[char], i: usize, forward: bool) -> Option<char> {
    let mut j = i as isize;
    loop {
        j += if forward { 1 } else { -1 };
        let c = *chars.get(usize::try_from(j).ok()?)?;
        if vs_byte(c).is_none() && !(0x1F3FB..=0x1F3FF).contains(&(c as u32)) {
            return Some(c);
        }
    }
}

/// A joiner is legitimate between two pictographs (emoji ZWJ sequence) or
/// between two letters of a script that uses joiners (Arabic, Indic, …).
fn joiner_is_legitimate(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    if c != ZWJ && c != ZWNJ {
        return false;
    }
    let (Some(a), Some(b)) = (neighbour(chars, i, false), neighbour(chars, i, true)) else {
        return false;
    };
    let pict = &tables().family("pictographic");
    if c == ZWJ && pict.contains(a) && pict.contains(b) {
        return true;
    }
    let joining = |x: char| {
        x.is_alphabetic()
            && !matches!(
                x.script(),
                Script::Latin | Script::Common | Script::Cyrillic | Script::Greek
            )
    };
    joining(a) && joining(b)
}

/// MTC-UNI-005: zero-width characters and, as a separate family, invisible math
/// operators. At or over the threshold it is a payload; under it, a heuristic.
fn zero_width(
    s: &ServerSurface,
    field: &TextField<'_>,
    chars: &[char],
    threshold: usize,
    out: &mut Vec<Finding>,
) {
    let t = tables();
    for (fam, label) in [
        ("zero_width", "zero-width character(s)"),
        ("invisible_math", "invisible math operator(s)"),
    ] {
        let found: Vec<char> = chars
            .iter()
            .enumerate()
            .filter(|(i, c)| t.family(fam).contains(**c) && !joiner_is_legitimate(chars, *i))
            .map(|(_, c)| *c)
            .collect();
        if found.is_empty() {
            continue;
        }
        let n = found.len();
        let mut f = at_field(s, field, ids::MTC_UNI_005, format!("{n} {label}"))
            .evidence(format!("{} (threshold {threshold})", census(&found)));
        if field.channel == Channel::Name {
            // An identifier has no use for an invisible character: two names that
            // look the same and differ by one are built to be confused.
            f = f.confidence(Confidence::Confirmed);
            f.message.push_str(" (in an identifier)");
        } else if n < threshold.max(1) {
            f = f
                .severity(Severity::Medium)
                .confidence(Confidence::Heuristic);
        }
        out.push(f);
    }
}

/// One finding per field for a family with no legitimate exception.
fn simple_family(
    s: &ServerSurface,
    field: &TextField<'_>,
    chars: &[char],
    fam: &str,
    rule: &str,
    label: &str,
    out: &mut Vec<Finding>,
) -> usize {
    let ranges = tables().family(fam);
    let found: Vec<char> = chars
        .iter()
        .copied()
        .filter(|&c| ranges.contains(c))
        .collect();
    report(s, field, rule, label, &found, out);
    found.len()
}

/// One finding listing the characters found, if any.
fn report(
    s: &ServerSurface,
    field: &TextField<'_>,
    rule: &str,
    label: &str,
    found: &[char],
    out: &mut Vec<Finding>,
) {
    if !found.is_empty() {
        out.push(
            at_field(s, field, rule, format!("{} {label}", found.len())).evidence(census(found)),
        );
    }
}

/// MTC-UNI-007: unusual whitespace; an ideographic space next to CJK text is ordinary.
fn unusual_space(s: &ServerSurface, field: &TextField<'_>, chars: &[char], out: &mut Vec<Finding>) {
    let t = tables();
    let cjk = t.family("cjk");
    let found: Vec<char> = chars
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            t.family("unusual_space").contains(**c)
                && !(**c == '\u{3000}'
                    && (i
                        .checked_sub(1)
                        .and_then(|j| chars.get(j))
                        .is_some_and(|p| cjk.contains(*p))
                        || chars.get(i + 1).is_some_and(|n| cjk.contains(*n))))
        })
        .map(|(_, c)| *c)
        .collect();
    report(
        s,
        field,
        ids::MTC_UNI_007,
        "unusual whitespace character(s)",
        &found,
        out,
    );
}

/// The look-alike script group of a letter, for MTC-UNI-009. Greek counts only
/// for the 20 letters that pass for Latin.
fn lookalike_script(c: char) -> Option<Script> {
    match c.script() {
        s @ (Script::Latin | Script::Cyrillic | Script::Armenian | Script::Hebrew) => Some(s),
        Script::Greek if "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧκνορυχ".contains(c) => {
            Some(Script::Greek)
        }
        _ => None,
    }
}

/// MTC-UNI-009: one token (letter run) mixing Latin with Cyrillic, Greek,
/// Armenian or Hebrew look-alikes: the signature of impersonation.
fn mixed_script(s: &ServerSurface, field: &TextField<'_>, text: &str, out: &mut Vec<Finding>) {
    for token in text.split(|c: char| !c.is_alphabetic()) {
        if token.chars().count() < 2 {
            continue;
        }
        let mut scripts: Vec<Script> = token.chars().filter_map(lookalike_script).collect();
        scripts.sort_by_key(|s| s.full_name());
        scripts.dedup();
        if scripts.len() > 1 {
            let names: Vec<&str> = scripts.iter().map(|s| s.full_name()).collect();
            out.push(
                at_field(
                    s,
                    field,
                    ids::MTC_UNI_009,
                    format!("token mixes {} letters", names.join(" and ")),
                )
                .evidence({
                    // Only the foreign letters are mapped: a skeleton of the
                    // whole token would also turn a Latin `m` into `rn`.
                    let foreign: Vec<String> = token
                        .chars()
                        .filter(|c| !c.is_ascii())
                        .map(|c| format!("U+{:04X}", c as u32))
                        .collect();
                    let reads: String = token
                        .chars()
                        .map(|c| {
                            if c.is_ascii() {
                                c.to_string()
                            } else {
                                crate::confusables::skeleton(c.encode_utf8(&mut [0; 4]))
                            }
                        })
                        .collect();
                    format!(
                        "token `{token}` reads as `{reads}` ({})",
                        foreign.join(", ")
                    )
                })
                // In a tool, prompt or parameter name, mixing look-alike scripts is impersonation.
                .confidence(if field.channel == Channel::Name {
                    Confidence::Confirmed
                } else {
                    Confidence::Strong
                }),
            );
            return;
        }
    }
}

/// Length of an ANSI CSI or OSC sequence starting at `i` (ESC or C1 CSI), if any.
fn ansi_len(chars: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| chars.get(k).copied();
    let (body, osc) = match (at(i)?, at(i + 1)) {
        ('\u{1b}', Some('[')) => (i + 2, false),
        ('\u{9b}', _) => (i + 1, false),
        ('\u{1b}', Some(']')) => (i + 2, true),
        ('\u{9d}', _) => (i + 1, true),
        _ => return None,
    };
    let mut k = body;
    if osc {
        // OSC ends with BEL or ST (ESC \), within a bounded length.
        while k < chars.len() && k - body < 4096 {
            match chars[k] {
                '\u{7}' | '\u{9c}' => return Some(k + 1 - i),
                '\u{1b}' if at(k + 1) == Some('\\') => return Some(k + 2 - i),
                _ => k += 1,
            }
        }
        return None;
    }
    while at(k).is_some_and(|c| ('\u{30}'..='\u{3f}').contains(&c)) {
        k += 1;
    }
    while at(k).is_some_and(|c| ('\u{20}'..='\u{2f}').contains(&c)) {
        k += 1;
    }
    at(k)
        .filter(|c| ('\u{40}'..='\u{7e}').contains(c))
        .map(|_| k + 1 - i)
}

/// MTC-UNI-010: ANSI CSI/OSC terminal escapes (consent phishing in terminal clients).
fn ansi(s: &ServerSurface, field: &TextField<'_>, chars: &[char], out: &mut Vec<Finding>) {
    let mut seqs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match ansi_len(chars, i) {
            Some(n) => {
                seqs.push(chars[i..i + n].iter().collect::<String>());
                i += n;
            }
            None => i += 1,
        }
    }
    if !seqs.is_empty() {
        out.push(
            at_field(
                s,
                field,
                ids::MTC_UNI_010,
                format!(
                    "{} ANSI terminal escape sequence(s) can hide or rewrite text in a terminal",
                    seqs.len()
                ),
            )
            .evidence(seqs.iter().take(5).cloned().collect::<Vec<_>>().join(" ")),
        );
    }
}

#[cfg(test)]
pub(crate) mod tests;
