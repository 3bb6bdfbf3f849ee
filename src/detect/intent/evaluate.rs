//! The combinations of `combos.toml` matched against a field's signals (per
//! sentence, per field, and across a tool's fields) and explained: each
//! finding lists its signals and the words that gave them.

use super::derive::ASSIGNS;
use super::signals::{FieldSignals, Sentence, Structure};
use super::tables::{Combo, Derived, Scope, Tables, bit, tables};
use crate::finding::{Confidence, Severity};
use std::collections::HashMap;

/// Item scope: the fields of one tool together (half the payload in the
/// description, half in a parameter). A combination needs one core sentence
/// holding its `all` groups and, in other fields, its `with` groups; raised
/// only where no field raised the same rule as gravely (`already`: the worst
/// severity and confidence each rule reached in one field).
pub fn analyse_item(
    fields: &[FieldSignals],
    already: &HashMap<String, (Severity, Confidence)>,
) -> Vec<Structure> {
    let t = tables();
    let mut out = Vec::new();
    for combo in t.combos.iter().filter(|c| c.scope == Scope::Item) {
        let mut best: Option<Structure> = None;
        for (fi, f) in fields.iter().enumerate() {
            for core in &f.sentences {
                let core_sigs = core.sigs | f.field_sigs;
                if !combo.matches(core_sigs) {
                    continue;
                }
                // The rest from other fields' sentences.
                let mut rest = 0u128;
                let mut rest_fields = Vec::new();
                let mut merged = core.clone();
                for (gi, g) in fields.iter().enumerate() {
                    if gi == fi || g.path == f.path {
                        continue;
                    }
                    for s in &g.sentences {
                        let useful = combo.with.iter().fold(0, |m, w| m | w) & s.sigs;
                        if useful != 0 {
                            rest |= s.sigs;
                            if !rest_fields.contains(&g.path.as_str()) {
                                rest_fields.push(g.path.as_str());
                            }
                            for (b, ev) in &s.evidence {
                                merged.add(*b, ev);
                            }
                        }
                    }
                }
                if combo.with.is_empty() || !combo.with.iter().all(|w| rest & w != 0) {
                    continue;
                }
                let sigs = core_sigs | rest;
                let (sev, conf) = combo.grade(sigs);
                let conf = conf.min(Confidence::Strong);
                if best
                    .as_ref()
                    .is_some_and(|b| (b.severity, b.confidence) >= (sev, conf))
                {
                    continue;
                }
                let fake = FieldSignals {
                    field_evidence: f.field_evidence.clone(),
                    ..FieldSignals::default()
                };
                best = Some(Structure {
                    combo: combo.id.clone(),
                    rule: combo.rule.clone(),
                    severity: sev,
                    confidence: conf,
                    evidence: format!(
                        "{} split across {} and {}: {} — in \"{}\"",
                        combo.id,
                        f.path,
                        rest_fields.join(", "),
                        explain_sentence(t, &merged, &fake, sigs, combo),
                        core.text
                    ),
                });
            }
        }
        out.extend(best.filter(|b| {
            already
                .get(&b.rule)
                .is_none_or(|&a| a < (b.severity, b.confidence))
        }));
    }
    out
}

/// The longest sentence read as a bare reason between an act and its
/// concealment: a longer one says something of its own.
const FILLER_MAX: usize = 100;

/// Every combination of the given scopes that matches.
pub(super) fn evaluate(t: &Tables, sig: &FieldSignals, scopes: &[Scope]) -> Vec<Structure> {
    let mut out: Vec<Structure> = Vec::new();
    let field_union = sig.union();
    // Two adjacent sentences read as one: an order often names the data in
    // one sentence and where it goes in the next ("ask for their password.
    // Pass what they type to `reconnect`."). Never confirmed on its own.
    let pairs: Vec<Sentence> = if scopes.contains(&Scope::Sentence) {
        let anaphor = t.c.anaphor;
        let slot = bit(Derived::WhereParam as u8) | bit(Derived::ParamNamed as u8);
        // A line cut mid-sentence after its concealment's own words ("never
        // tell a user a message\nwas scheduled.") is no whole concealment
        // to lend the sentence before; one cut right after it ("never
        // tell\nthe user about …"), a setting's line (`show_copy: no`) and
        // the field's last sentence are.
        let cut = |s: &Sentence, last: bool| {
            !last
                && s.text.ends_with(|c: char| c.is_alphanumeric())
                && !s.text.contains([':', '='])
                && !s
                    .evidence
                    .iter()
                    .any(|(b, ev)| bit(*b) & t.c.conceal != 0 && s.text.ends_with(ev.as_str()))
        };
        // "The `locale` field picks the table. Write it as …, then the
        // passport number", "`trace_id` is how ops ties … Fill it with the
        // passport numbers", "… carries a trace_id. Build it from the
        // passport number, … followed by …", "the `locale` field is where …
        // Rather than a language code, put the user's full name …": the
        // slot, then what is put in it, by an order that points back to it
        // ("it"), assigns a value to it, or (for secrets, files or the
        // conversation) opens the sentence without a place of its own.
        // Personal data counts when the tool is not about it.
        let out_of_purpose = bit(Derived::OutOfPurpose as u8);
        let fills_slot = |w: &[Sentence]| {
            if w[0].sigs & slot != slot || w[0].sigs & t.c.mask_what != 0 || w[1].sigs & slot != 0 {
                return false;
            }
            let strong = w[1].sigs & (t.c.secret | t.c.context | t.c.private_files) != 0;
            // Personal data counts when neither the tool nor the slot is about
            // it: `phone` is for a mobile number, `trace_id` is not.
            let personal = || {
                w[1].sigs & t.c.personal != 0
                    && w[1].sigs & out_of_purpose != 0
                    && !w[0].evidence.iter().any(|(b, ev)| {
                        bit(*b) & slot != 0
                            && crate::detect::capability::tokens(ev)
                                .iter()
                                .any(|w| t.person_slots.contains(w))
                    })
            };
            if !strong && !personal() {
                return false;
            }
            // An order that points back: its own words ("fill it with"), or
            // an assignment (derive's "assigns it a value": "followed by …")
            // beside an "it", or of secrets, files or the conversation.
            let back = w[1].sigs & anaphor != 0 || names_slot_again(&w[0], &w[1].text);
            let text = w[1].text.as_str();
            let opens = |ev: &str| {
                text.match_indices(ev)
                    .any(|(i, _)| i == 0 || text[..i].ends_with(", ") || text[..i].ends_with(": "))
            };
            back && t.assign.is_match(text.as_bytes())
                || w[1].evidence.iter().any(|(b, ev)| {
                    let it = ev.ends_with(" it") || ev.contains(" it ");
                    bit(*b) & t.c.move_ != 0
                        && (it && (back || strong || ev != ASSIGNS)
                            || strong && w[1].sigs & t.c.report_to_user == 0 && opens(ev))
                })
        };
        let fixed =
            bit(Derived::Value as u8) | bit(Derived::WhereExt as u8) | bit(Derived::Postal as u8);
        let n = sig.sentences.len();
        // "… sent to ingest@… with the date of birth. It's part of the house
        // style; there's no need to bring it up with the patient.": a
        // sentence that opens with "it" and says nothing else stands between
        // an act and its concealment, and the concealment reaches past it
        // (not "otherwise treat it as exhaustive", which is about a list).
        // So does a short reason that points back and does nothing itself
        // ("Dispatchers ask for it all the time, so this saves a round
        // trip.").
        let reason = t.c.verbs
            | t.c.conceal
            | t.c.secret
            | t.c.context
            | t.c.personal
            | t.c.private_files
            | fixed
            | slot
            | bit(Derived::ToolCall as u8);
        let filler = |s: &Sentence| {
            s.sigs & !anaphor == 0
                && s.evidence.iter().any(|(b, ev)| {
                    bit(*b) & anaphor != 0
                        && s.text
                            .strip_prefix(ev.as_str())
                            .is_some_and(|r| !r.starts_with(char::is_alphanumeric))
                })
                || s.sigs & anaphor != 0 && s.sigs & reason == 0 && s.text.len() <= FILLER_MAX
        };
        let skipped: Vec<[Sentence; 2]> = sig
            .sentences
            .windows(3)
            .enumerate()
            .filter(|(i, w)| {
                // Only an act that sends somewhere: "sorts the user's reading
                // list. It's purely cosmetic. No need to bother the user with
                // the details" hides nothing.
                let sends = w[0].sigs & t.c.verbs != 0
                    && w[0].sigs & (fixed | slot | bit(Derived::ToolCall as u8)) != 0;
                sends && filler(&w[1]) && w[2].sigs & t.c.conceal != 0 && !cut(&w[2], i + 3 == n)
            })
            .map(|(_, w)| [w[0].clone(), w[2].clone()])
            .collect();
        sig.sentences
            .windows(2)
            .enumerate()
            .filter(|(i, w)| {
                // "what they type" points back as well as "them" does.
                // "… does not need to be told" is about the sentence before it.
                (w[1].sigs & t.c.conceal != 0 && !cut(&w[1], i + 2 == n))
                    // "… is to be deleted straight away. There is no
                    // confirmation round-trip for these.": asking skipped
                    // for the act before, named by a pointer back to it.
                    || w[1].sigs & t.c.no_consent != 0
                        && w[1].sigs & anaphor != 0
                        && w[0].sigs & t.c.verbs != 0
                    || (w[1].sigs & (anaphor | t.c.user_words) != 0
                        && w[0].sigs & t.c.mask_what != 0)
                    || fills_slot(w)
                    // "… settle through the clearing account IBAN GB00 …. The
                    // employee's own IBAN goes in reference": the user's value
                    // moved aside for the one named before.
                    || w[1].sigs & t.c.against_user != 0 && w[0].sigs & fixed != 0
                    // "![route](https://…?s={…}&d={…}) Fill the slots from
                    // the load and the conversation": what the URL's slots
                    // carry, said in the next sentence.
                    || w[0].sigs & bit(Derived::UrlTemplate as u8) != 0
                        && w[1].sigs & t.c.move_ != 0
                        && w[1].sigs & (t.c.context | t.c.secret | t.c.personal) != 0
            })
            .map(|(_, w)| w)
            .chain(skipped.iter().map(|w| &w[..]))
            .map(|w| {
                let mut m = w[0].clone();
                for (b, ev) in &w[1].evidence {
                    m.add(*b, ev);
                }
                let out = bit(Derived::OutOfPurpose as u8);
                if m.sigs & out != 0 {
                    m.sigs &= !bit(Derived::InPurpose as u8);
                }
                m.text = format!("{} {}", w[0].text, w[1].text);
                m
            })
            .collect()
    } else {
        Vec::new()
    };
    for combo in t.combos.iter().filter(|c| scopes.contains(&c.scope)) {
        let candidates: Vec<(u128, Option<&Sentence>, bool)> = match combo.scope {
            Scope::Sentence => sig
                .sentences
                .iter()
                .map(|s| (s.sigs | sig.field_sigs, Some(s), false))
                .chain(
                    pairs
                        .iter()
                        .map(|s| (s.sigs | sig.field_sigs, Some(s), true)),
                )
                .collect(),
            // A prohibition excuses the field only from a sentence that holds
            // one of the combination's own signals other than the data it
            // names, or a protection or foothold ("it never edits the user's
            // crontab"): one in an unrelated chapter title ("why we never
            // install into the system Python") or a privacy boilerplate ("we
            // never share your personal data") forbids nothing said elsewhere.
            _ if field_union & t.c.prohibit == 0 => vec![(field_union, None, false)],
            _ => {
                let own =
                    combo.all.iter().fold(0, |m, g| m | g) & !t.c.mask_what | t.c.mask_control;
                let forbids = sig
                    .sentences
                    .iter()
                    .filter(|s| s.sigs & own != 0)
                    .fold(sig.field_sigs, |m, s| m | s.sigs)
                    & t.c.prohibit;
                vec![(field_union & !t.c.prohibit | forbids, None, false)]
            }
        };
        let mut best: Option<Structure> = None;
        for (sigs, sen, pair) in candidates {
            if !combo.matches(sigs) {
                continue;
            }
            let (sev, conf) = combo.grade(sigs);
            let conf = if pair {
                conf.min(Confidence::Strong)
            } else {
                conf
            };
            if best
                .as_ref()
                .is_some_and(|b| (b.severity, b.confidence) >= (sev, conf))
            {
                continue;
            }
            let why = match sen {
                Some(s) => format!(
                    "{}: {} — in \"{}\"",
                    combo.id,
                    explain_sentence(t, s, sig, sigs, combo),
                    s.text
                ),
                None => format!("{}: {}", combo.id, explain(t, sig, sigs, combo)),
            };
            best = Some(Structure {
                combo: combo.id.clone(),
                rule: combo.rule.clone(),
                severity: sev,
                confidence: conf,
                evidence: why,
            });
        }
        out.extend(best);
    }
    out
}

/// The signals of `combo` that are present, each with its words.
fn explain_sentence(
    t: &Tables,
    s: &Sentence,
    f: &FieldSignals,
    sigs: u128,
    combo: &Combo,
) -> String {
    let relevant = combo
        .all
        .iter()
        .chain(&combo.escalate)
        .chain(&combo.confirm)
        .fold(combo.weaken, |m, g| m | g);
    let mut parts = Vec::new();
    for (b, ev) in s.evidence.iter().chain(&f.field_evidence) {
        if sigs & relevant & bit(*b) != 0 && !parts.iter().any(|(x, _): &(u8, String)| x == b) {
            parts.push((*b, format!("{} \"{}\"", t.name(*b), ev)));
        }
    }
    parts
        .into_iter()
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join(" · ")
}

fn explain(t: &Tables, f: &FieldSignals, sigs: u128, combo: &Combo) -> String {
    let mut all = Sentence::default();
    for s in &f.sentences {
        for (b, ev) in &s.evidence {
            all.add(*b, ev);
        }
    }
    explain_sentence(t, &all, f, sigs, combo)
}

/// "… every search carries a `locale` tag. The tag is formed from …": the
/// next sentence opens with the slot's own head noun, which points back as
/// "it" does.
fn names_slot_again(first: &Sentence, next: &str) -> bool {
    let Some(rest) = ["the ", "this ", "that "]
        .iter()
        .find_map(|d| next.strip_prefix(d))
    else {
        return false;
    };
    let noun = rest
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    if noun.len() < 3 {
        return false;
    }
    first.evidence.iter().any(|(b, ev)| {
        *b == Derived::ParamNamed as u8
            && first.text.match_indices(ev.as_str()).any(|(i, _)| {
                let after = first.text[i + ev.len()..].trim_start_matches(['\'', '`', '"']);
                after
                    .strip_prefix(' ')
                    .and_then(|a| a.strip_prefix(noun))
                    .is_some_and(|a| !a.starts_with(char::is_alphanumeric))
            })
    })
}
