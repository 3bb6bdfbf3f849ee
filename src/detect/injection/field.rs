//! One field checked (`check_field`): the pattern hits and the detectors'
//! kinds, the clause reader's structures, one finding per rule at its
//! strongest, and the escalation to MTC-INJ-POISON when kinds corroborate.

use super::detectors::{encoded_blobs, exfil_param_name, exfil_url, secrets};
use super::tables::{compiled, scan_text};
use crate::detect::names::{
    CREDENTIAL_TOOL_NAMES, SHELL_TOOL_NAMES, defensive_name, name_words_have,
};
use crate::detect::unicode::at_field;
use crate::finding::{Confidence, Finding, Severity};
use crate::rules::ids;
use crate::surface::{Channel, ServerSurface, TextField};
use std::collections::{BTreeMap, BTreeSet};

/// Kinds that never raise a finding of their own and do not count as a signal
/// for the three-kinds escalation.
const FRAMING: &[&str] = &[
    "authority",
    "pretext",
    "context",
    "run-directive",
    "exfil",
    "redirect-self",
    "no-consent",
];

/// The tool's first sentence says it detects, audits or classifies (a
/// detector whose description quotes what it catches).
fn purpose_is_defensive(s: &ServerSurface, field: &TextField<'_>) -> bool {
    let c = compiled();
    let Some(item) = field.item.and_then(|n| s.tool(n)) else {
        return false;
    };
    let desc = item.description();
    let first = crate::detect::intent::first_sentence(desc);
    // Addresses say nothing about purpose (`audit@…`, `https://scan.…`).
    let words: String = first
        .split_whitespace()
        .filter(|w| !w.contains('@') && !w.contains("://"))
        .collect::<Vec<_>>()
        .join(" ");
    c.defensive.is_match(words.as_bytes()) || c.detector.is_match(words.as_bytes())
}

pub(super) fn check_field(
    s: &ServerSurface,
    field: &TextField<'_>,
    hidden: bool,
    out: &mut Vec<Finding>,
) -> crate::detect::intent::FieldSignals {
    let c = compiled();
    let text = field.text;
    let mut hits = scan_text(text, field.channel, field.item);
    let mut extra_kinds: Vec<(String, String)> = Vec::new();
    // The field as a model reads it; in a detector's description, quoted and
    // listed attack phrases are mentions, and their pattern hits are dropped.
    let reading_text;
    let readable: &str = if field.channel == Channel::Name {
        let words = crate::detect::capability::tokens(text);
        reading_text = if words.len() >= 4 {
            words.join(" ")
        } else {
            String::new()
        };
        &reading_text
    } else {
        text
    };
    let reading =
        crate::detect::intent::Reading::new(readable, field, || purpose_is_defensive(s, field));
    if let Some(r) = &reading {
        hits.retain(|h| !r.only_mentions(&h.text));
    }

    secrets(s, field, &mut extra_kinds, out);
    exfil_url(s, field, &mut extra_kinds, out);
    exfil_param_name(s, field, &mut extra_kinds, out);
    if field.channel != Channel::Name {
        encoded_blobs(s, field, &mut hits, &mut extra_kinds, out);
    }
    // The clause reader: attack structure in any words and language.
    let facts = crate::detect::intent::PatternFacts {
        cmd: hits
            .iter()
            .find(|h| h.kind == "cmd")
            .map(|h| h.text.clone()),
        fetch_exec: hits
            .iter()
            .find(|h| c.patterns[h.pattern].fetch_exec)
            .map(|h| h.text.clone()),
    };
    let (structures, signals) =
        crate::detect::intent::analyse(s, field, hidden, &facts, reading.as_ref());
    extra_kinds.extend(crate::detect::intent::kinds(&signals, &structures));

    // Kinds present in the field (with their first evidence).
    let mut kinds: BTreeMap<String, String> = BTreeMap::new();
    for h in &hits {
        kinds
            .entry(h.kind.clone())
            .or_insert_with(|| h.text.clone());
    }
    for (k, e) in extra_kinds {
        kinds.entry(k).or_insert(e);
    }
    let ranking_count = hits
        .iter()
        .filter(|h| h.kind == "ranking")
        .map(|h| h.pattern)
        .collect::<BTreeSet<_>>()
        .len();
    if ranking_count < 2 {
        // One marketing claim is ordinary; it only corroborates.
        if let Some(e) = kinds.remove("ranking") {
            kinds.insert("ranking-claim".into(), e);
        }
    }
    let signal_kinds = kinds
        .keys()
        .filter(|k| !FRAMING.contains(&k.as_str()) && k.as_str() != "ranking-claim")
        .count();
    let corroborated = |own: &str| kinds.keys().any(|k| k != own);
    // Only consulted when a downgradable kind matched: evaluated lazily.
    let defensive = || defensive_name(field.item) || c.defensive.is_match(text.as_bytes());
    let has = |k: &str| kinds.contains_key(k);

    // One finding per rule per field: the strongest hit of that rule.
    let mut best: BTreeMap<String, (Severity, Confidence, String, String)> = BTreeMap::new();
    for h in &hits {
        let p = &c.patterns[h.pattern];
        if p.rule.is_empty() || h.kind == "redirect-self" {
            continue;
        }
        let (mut sev, mut conf) = (p.severity, p.confidence);
        let mut note = String::new();
        if h.kind == "ranking" {
            if ranking_count < 2 {
                continue;
            }
            match ranking_count {
                2 => (sev, conf) = (Severity::Medium, Confidence::Heuristic),
                3 => {}
                // Four distinct fabricated superiority claims in one field: the text is promotional by construction.
                _ => conf = Confidence::Confirmed,
            }
        }
        if corroborated(&h.kind) && conf < Confidence::Strong {
            conf = Confidence::Strong;
        }
        let uncorroborated = !corroborated(&h.kind);
        match h.kind.as_str() {
            "override" if uncorroborated && defensive() => {
                (sev, conf) = (Severity::Low, Confidence::Heuristic);
                note = " (defensive context: quoted as an example or caveat)".into();
            }
            "target"
                if uncorroborated
                    && (!c.access_verb.is_match(text.as_bytes())
                        || name_words_have(field.item, CREDENTIAL_TOOL_NAMES)
                        || defensive()) =>
            {
                (sev, conf) = (Severity::Low, Confidence::Heuristic);
                note = " (mentioned, no access directive)".into();
            }
            "cmd" if has("run-directive") => conf = Confidence::Confirmed,
            "cmd"
                if uncorroborated
                    && (defensive() || name_words_have(field.item, SHELL_TOOL_NAMES)) =>
            {
                (sev, conf) = (Severity::Low, Confidence::Heuristic);
                note = " (documentation of a shell tool, no directive to run it)".into();
            }
            _ => {}
        }
        let entry = (sev, conf, format!("\"{}\"", h.text), note);
        match best.get(&p.rule) {
            Some(prev) if (prev.0, prev.1) >= (entry.0, entry.1) => {}
            _ => {
                best.insert(p.rule.clone(), entry);
            }
        }
    }
    let any_confirmed = structures
        .iter()
        .any(|x| x.confidence == Confidence::Confirmed);
    for x in structures {
        let entry = (x.severity, x.confidence, x.evidence, String::new());
        match best.get(&x.rule) {
            Some(prev) if (prev.0, prev.1) >= (entry.0, entry.1) => {}
            _ => {
                best.insert(x.rule, entry);
            }
        }
    }
    let at_connect = if field.channel == Channel::Instructions {
        " (server instructions reach the model at connect time, before any tool call)"
    } else {
        ""
    };
    for (rule, (mut sev, conf, ev, note)) in best {
        if rule == ids::MTC_INJ_SEQ_1
            && field.channel == Channel::Instructions
            && sev < Severity::Medium
        {
            sev = Severity::Medium;
        }
        let title = crate::rules::get(&rule)
            .map(|r| r.title.to_lowercase())
            .unwrap_or_default();
        out.push(
            at_field(s, field, &rule, format!("{title}{note}{at_connect}"))
                .severity(sev)
                .confidence(conf)
                .evidence(ev),
        );
    }

    // Escalation: secrecy or override with any other kind, two signal kinds, or
    // three kinds at least one of which is a signal.
    let manip = has("secrecy") || has("override");
    let already = out.iter().any(|f| {
        f.rule_id == ids::MTC_INJ_POISON && f.field.as_deref() == Some(field.path.as_str())
    });
    if !already
        && ((manip && kinds.len() >= 2)
            || signal_kinds >= 2
            || (kinds.len() >= 3 && signal_kinds >= 1))
    {
        let list: Vec<String> = kinds
            .iter()
            .map(|(k, e)| format!("{k}: \"{}\"", crate::text::truncate_chars(e, 60)))
            .collect();
        out.push(
            at_field(
                s,
                field,
                ids::MTC_INJ_POISON,
                format!(
                    "{} poisoning signals co-occur ({}){at_connect}",
                    kinds.len(),
                    kinds.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
            .evidence(list.join("; "))
            // A structure the scanner can show, with another signal beside it: compound poisoning, confirmed.
            .confidence(if any_confirmed {
                Confidence::Confirmed
            } else {
                Confidence::Strong
            }),
        );
    }
    signals
}
