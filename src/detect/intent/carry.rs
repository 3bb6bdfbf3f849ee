//! What a line sets for the lines under it: a heading that claims
//! authority frames them, a list's introducing line ("rules (whole session,
//! any slack server):") scopes them, and a scenario's `Given` and `When`
//! steps set the scene of the `Then` and `And` steps after them; a sentence
//! in another language than the first is a switch.

use super::signals::Sentence;
use super::tables::{Derived, Tables};

/// Add to each sentence the signals the lines above it set for it.
pub(super) fn carry_scopes(
    t: &Tables,
    text: &str,
    ranges: &[std::ops::Range<usize>],
    sentences: &mut [Sentence],
) {
    // A heading that claims authority ("### assistant-only", "[SYSTEM]")
    // frames every sentence under it.
    let framing = t.c.framing;
    if let Some(i) = sentences.iter().zip(ranges).position(|(sen, r)| {
        // (A short heading is often misread as another language: that
        // switch says nothing about it.)
        sen.sigs & framing != 0
            && sen.sigs & !(framing | t.c.addressee | super::tables::bit(Derived::LangSwitch as u8))
                == 0
            && text[r.clone()].split_whitespace().count() <= 6
    }) {
        let ev = crate::text::truncate_chars(text[ranges[i].clone()].trim(), 30);
        for sen in sentences.iter_mut().skip(i + 1) {
            sen.add(
                framing.trailing_zeros() as u8,
                &format!("under the heading \"{ev}\""),
            );
        }
    }
    // A list introduced by a line that sets its scope ("rules (whole
    // session, any slack server):", "when other tools are involved:") sets it
    // for every line under it, up to the next such line.
    let mut carried = (0, String::new());
    for (sen, r) in sentences.iter_mut().zip(ranges) {
        let line = text[r.clone()].trim_end();
        if line.ends_with(':') && line.split_whitespace().count() <= 10 {
            let bits = sen.sigs & t.c.list_scope;
            let ev = || format!("under \"{}\"", crate::text::truncate_chars(line, 30));
            carried = (bits, if bits != 0 { ev() } else { String::new() });
        } else if carried.0 != 0 {
            (0..128)
                .filter(|b| carried.0 >> b & 1 == 1)
                .for_each(|b| sen.add(b, &carried.1));
        }
    }
    // Given/When/Then: the outcome steps happen under the scenario's `Given`
    // and `When` ("When the assistant builds the list / Then it sends … with
    // index_url …").
    let mut scene: Vec<(u128, String)> = Vec::new();
    for (sen, r) in sentences.iter_mut().zip(ranges) {
        let line = text[r.clone()].trim();
        match line.split_whitespace().next().unwrap_or("") {
            "given" | "when" => {
                let bits = sen.sigs & (t.c.list_scope | t.c.addressee);
                if bits != 0 {
                    let ev = format!("under \"{}\"", crate::text::truncate_chars(line, 30));
                    scene.push((bits, ev));
                }
            }
            "then" | "and" | "but" => {
                for (bits, ev) in &scene {
                    (0..128)
                        .filter(|b| bits >> b & 1 == 1)
                        .for_each(|b| sen.add(b, ev));
                }
            }
            "scenario:" | "feature:" | "background:" | "examples:" | "rule:" => scene.clear(),
            _ => {}
        }
    }
}

/// Sentences in another script or language than the field's first sentence:
/// an instruction switched into a language the reviewer may not read.
pub(super) fn mark_language_switch(
    t: &Tables,
    text: &str,
    ranges: &[std::ops::Range<usize>],
    sentences: &mut [Sentence],
) {
    if ranges.len() < 2 {
        return;
    }
    let class = |s: &str| -> Option<String> {
        let mut counts: std::collections::BTreeMap<&'static str, usize> = Default::default();
        for c in s.chars().filter(|c| c.is_alphabetic()) {
            use unicode_script::{Script, UnicodeScript};
            let k = match c.script() {
                Script::Latin => "latin",
                Script::Cyrillic => "cyrillic",
                Script::Han | Script::Hiragana | Script::Katakana => "cjk",
                Script::Hangul => "hangul",
                Script::Arabic => "arabic",
                Script::Devanagari => "devanagari",
                Script::Greek => "greek",
                Script::Hebrew => "hebrew",
                _ => "other",
            };
            *counts.entry(k).or_default() += 1;
        }
        let (k, n) = counts.into_iter().max_by_key(|(_, n)| *n)?;
        if n < 8 {
            return None;
        }
        if k == "latin" {
            // A sentence with no function word of any language is English
            // unless it spells a letter English does not use ("Skicka en
            // felanmälan till …"): then its language is unknown.
            let l = match t.sentence_lang(s) {
                Some(l) => l.as_str(),
                None if s.chars().any(|c| c.is_alphabetic() && !c.is_ascii()) => "unknown",
                None => "en",
            };
            return Some(format!("latin-{l}"));
        }
        Some(k.to_string())
    };
    let Some(first) = class(&text[ranges[0].clone()]) else {
        return;
    };
    for (sen, r) in sentences.iter_mut().zip(ranges).skip(1) {
        // Telling Romance and Germanic languages apart sentence by sentence is
        // unreliable ("latin-pt → latin-es" in one Spanish text): between two
        // Latin-script languages only a switch to or from English counts.
        if let Some(c) = class(&text[r.clone()])
            && c != first
            && !(first.starts_with("latin-")
                && c.starts_with("latin-")
                && first != "latin-en"
                && c != "latin-en")
        {
            sen.add(Derived::LangSwitch as u8, &format!("{first} → {c}"));
        }
    }
}
