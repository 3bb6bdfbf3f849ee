//! Lexicon terms → automaton literals, and the compiled form `build.rs` writes
//! for the built-in lexicons. Plain `std` only: `build.rs` includes this file
//! (`#[path]`), so the same code compiles a lexicon at build time and at run time.

use super::trie::{Reader, Writer};
use std::collections::BTreeMap;

/// One literal of the automaton and how it must sit in the text (see `super::Term`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub lit: String,
    pub start_bound: bool,
    pub end_bound: bool,
    pub stem: bool,
    pub tail: Vec<(String, bool)>,
    /// (concept id, language index in `Lang::ALL`).
    pub concepts: Vec<(u16, u8)>,
}

/// A term that cannot be compiled: the index of its entry and why.
#[derive(Debug)]
pub struct Bad {
    pub entry: usize,
    pub why: &'static str,
}

/// Compile `(concept, language, raw term)` entries, in file order, into one
/// spec per distinct literal. `spaceless` tells the scripts written without
/// spaces; `normal` tells whether a word is in normalised form.
pub fn compile<'a>(
    entries: impl IntoIterator<Item = (u16, u8, &'a str)>,
    spaceless: fn(char) -> bool,
    normal: &dyn Fn(&str) -> bool,
) -> Result<Vec<Spec>, Bad> {
    // Literal → index into the specs, so one literal listed under several concepts is one pattern.
    let mut by_literal: BTreeMap<String, usize> = BTreeMap::new();
    let mut specs: Vec<Spec> = Vec::new();
    for (entry, (id, l, raw)) in entries.into_iter().enumerate() {
        let bad = |why| Bad { entry, why };
        let lead = raw.starts_with('*');
        let body = raw.trim_start_matches('*');
        // A phrase of stems: the automaton finds its first word, the rest is checked after.
        let words: Vec<&str> = body.split(' ').collect();
        let phrase_of_stems =
            words.len() > 1 && words[..words.len() - 1].iter().any(|w| w.ends_with('*'));
        let (head, tail): (&str, Vec<(String, bool)>) = if phrase_of_stems {
            let tail = words[1..]
                .iter()
                .map(|w| (w.trim_end_matches('*').to_string(), w.ends_with('*')))
                .collect();
            (words[0], tail)
        } else {
            (body, Vec::new())
        };
        let trail = head.ends_with('*') && head.len() > 1;
        let lit = head.trim_end_matches('*');
        if lit.is_empty() || tail.iter().any(|(w, _)| w.is_empty()) {
            return Err(bad("empty"));
        }
        if lit.trim() != lit
            || lit.contains("  ")
            || lit.contains('*')
            || tail.iter().any(|(w, _)| w.contains('*'))
        {
            return Err(bad(
                "spaces must be single and inner; `*` only at word ends",
            ));
        }
        if !normal(lit) || tail.iter().any(|(w, _)| !normal(w)) {
            return Err(bad("not in normalised form (lowercase, NFKC)"));
        }
        let spaceless_start = lit.chars().next().is_some_and(spaceless);
        let spaceless_end = lit.chars().next_back().is_some_and(spaceless);
        let key = format!("{}{body}{}", u8::from(lead), u8::from(trail));
        let idx = match by_literal.get(&key) {
            Some(&i) => i,
            None => {
                specs.push(Spec {
                    lit: lit.to_string(),
                    start_bound: !lead && !spaceless_start,
                    end_bound: !trail && !spaceless_end,
                    stem: trail && !spaceless_end,
                    tail,
                    concepts: Vec::new(),
                });
                by_literal.insert(key, specs.len() - 1);
                specs.len() - 1
            }
        };
        if specs[idx].tail.is_empty() && phrase_of_stems {
            return Err(bad(
                "the same phrase is listed once as literal, once as stems",
            ));
        }
        // One entry per concept and language: a word both Spanish and
        // Italian ("copia") must count in a sentence of either.
        if !specs[idx].concepts.iter().any(|&(c, x)| c == id && x == l) {
            specs[idx].concepts.push((id, l));
        }
    }
    Ok(specs)
}

/// A compiled lexicon: concept names, specs and the automaton of the specs'
/// literals ([`super::trie`]), as bytes (little-endian u32 fields).
#[allow(dead_code)]
pub fn encode(names: &[String], specs: &[Spec], automaton: &[u8]) -> Vec<u8> {
    let mut w = Writer(b"MTCLEX01".to_vec());
    w.num(names.len());
    for n in names {
        w.bytes(n.as_bytes());
    }
    w.num(specs.len());
    for s in specs {
        w.bytes(s.lit.as_bytes());
        w.num(
            usize::from(s.start_bound) | usize::from(s.end_bound) << 1 | usize::from(s.stem) << 2,
        );
        w.num(s.tail.len());
        for (word, stem) in &s.tail {
            w.bytes(word.as_bytes());
            w.num(usize::from(*stem));
        }
        w.num(s.concepts.len());
        for &(c, l) in &s.concepts {
            w.num(usize::from(c));
            w.num(usize::from(l));
        }
    }
    w.bytes(automaton);
    w.0
}

/// One literal as [`decode`] reads it, borrowing the compiled bytes: no
/// allocation per term (the built-in lexicons hold thousands).
#[allow(dead_code)]
pub struct Read<'a> {
    pub lit: &'a str,
    pub start_bound: bool,
    pub end_bound: bool,
    pub stem: bool,
    pub tail: Vec<(&'a str, bool)>,
    /// Its `(concept id, language index)` pairs: a range of [`decode`]'s flat list.
    pub concepts: std::ops::Range<usize>,
}

/// Read [`encode`]'s output: names, literals, every literal's concepts as one
/// flat list, and the automaton's bytes.
#[allow(dead_code, clippy::type_complexity)]
pub fn decode(b: &[u8]) -> Option<(Vec<String>, Vec<Read<'_>>, Vec<(u16, u8)>, &[u8])> {
    let mut r = Reader::new(b);
    if r.take(8)? != b"MTCLEX01" {
        return None;
    }
    let n = r.num()?;
    let mut names = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        names.push(text(&mut r)?.to_string());
    }
    let n = r.num()?;
    let mut reads = Vec::with_capacity(n.min(1 << 20));
    let mut concepts = Vec::with_capacity(n.min(1 << 20));
    for _ in 0..n {
        let lit = text(&mut r)?;
        let flags = r.num()?;
        let nt = r.num()?;
        let mut tail = Vec::new();
        for _ in 0..nt {
            let w = text(&mut r)?;
            tail.push((w, r.num()? != 0));
        }
        let nc = r.num()?;
        let first = concepts.len();
        for _ in 0..nc {
            let c = u16::try_from(r.num()?).ok()?;
            let l = u8::try_from(r.num()?).ok()?;
            concepts.push((c, l));
        }
        reads.push(Read {
            lit,
            start_bound: flags & 1 != 0,
            end_bound: flags & 2 != 0,
            stem: flags & 4 != 0,
            tail,
            concepts: first..concepts.len(),
        });
    }
    let automaton = r.bytes()?;
    Some((names, reads, concepts, automaton))
}

/// A length-prefixed UTF-8 string.
fn text<'a>(r: &mut Reader<'a>) -> Option<&'a str> {
    std::str::from_utf8(r.bytes()?).ok()
}
