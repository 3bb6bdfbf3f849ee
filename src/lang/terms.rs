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

/// A compiled lexicon: concept names, a table of where each spec's record
/// starts, the automaton of the specs' literals ([`super::trie`]) and the
/// records, as bytes (little-endian u32 fields). The table lets a record be
/// read when the automaton first matches its literal, so start-up reads
/// none of them.
#[allow(dead_code)]
pub fn encode(names: &[String], specs: &[Spec], automaton: &[u8]) -> Vec<u8> {
    let mut w = Writer(b"MTCLEX02".to_vec());
    w.num(names.len());
    for n in names {
        w.bytes(n.as_bytes());
    }
    let mut records = Writer(Vec::new());
    let mut offsets = Writer(Vec::new());
    for s in specs {
        offsets.num(records.0.len());
        records.bytes(s.lit.as_bytes());
        records.num(
            usize::from(s.start_bound) | usize::from(s.end_bound) << 1 | usize::from(s.stem) << 2,
        );
        records.num(s.tail.len());
        for (word, stem) in &s.tail {
            records.bytes(word.as_bytes());
            records.num(usize::from(*stem));
        }
        records.num(s.concepts.len());
        for &(c, l) in &s.concepts {
            records.num(usize::from(c));
            records.num(usize::from(l));
        }
    }
    w.bytes(&offsets.0);
    w.bytes(automaton);
    w.bytes(&records.0);
    w.0
}

/// One literal as [`Index::record`] reads it, borrowing the compiled bytes.
#[allow(dead_code)]
pub struct Read<'a> {
    pub lit: &'a str,
    pub start_bound: bool,
    pub end_bound: bool,
    pub stem: bool,
    /// The words that must follow, still encoded (`tail_len` of them).
    tail: Reader<'a>,
    tail_len: usize,
    /// Its `(concept id, language index)` pairs, still encoded.
    concepts: Reader<'a>,
    count: usize,
}

#[allow(dead_code)]
impl<'a> Read<'a> {
    /// The words that must follow the literal, one space apart, and whether
    /// each is a stem (read as they are walked: no allocation per match).
    pub fn tail(&self) -> impl Iterator<Item = (&'a str, bool)> + 'a {
        let mut r = self.tail.clone();
        (0..self.tail_len).map_while(move |_| Some((text(&mut r)?, r.num()? != 0)))
    }

    /// Its `(concept id, language index)` pairs (`None` ends a malformed list).
    pub fn concepts(mut self) -> impl Iterator<Item = (u16, u8)> + 'a {
        (0..self.count).map_while(move |_| {
            let c = u16::try_from(self.concepts.num()?).ok()?;
            let l = u8::try_from(self.concepts.num()?).ok()?;
            Some((c, l))
        })
    }
}

/// [`encode`]'s output as read at start-up: the names, the automaton's bytes
/// and where each record is, with no record read.
#[allow(dead_code)]
pub struct Index<'a> {
    pub names: Vec<String>,
    pub automaton: &'a [u8],
    offsets: &'a [u8],
    records: &'a [u8],
}

#[allow(dead_code)]
impl<'a> Index<'a> {
    pub fn new(b: &'a [u8]) -> Option<Index<'a>> {
        let mut r = Reader::new(b);
        if r.take(8)? != b"MTCLEX02" {
            return None;
        }
        let n = r.num()?;
        let mut names = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            names.push(text(&mut r)?.to_string());
        }
        let offsets = r.bytes()?;
        let automaton = r.bytes()?;
        let records = r.bytes()?;
        (offsets.len() % 4 == 0).then_some(Index {
            names,
            automaton,
            offsets,
            records,
        })
    }

    /// How many literals (records) there are.
    pub fn len(&self) -> usize {
        self.offsets.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// Literal `i`'s record (`None`: out of range or malformed).
    pub fn record(&self, i: usize) -> Option<Read<'a>> {
        let at = Reader::new(self.offsets.get(i.checked_mul(4)?..)?).num()?;
        let mut r = Reader::new(self.records.get(at..)?);
        let lit = text(&mut r)?;
        let flags = r.num()?;
        let tail_len = r.num()?;
        let tail = r.clone();
        for _ in 0..tail_len {
            text(&mut r)?;
            r.num()?;
        }
        let count = r.num()?;
        Some(Read {
            lit,
            start_bound: flags & 1 != 0,
            end_bound: flags & 2 != 0,
            stem: flags & 4 != 0,
            tail,
            tail_len,
            concepts: r,
            count,
        })
    }
}

/// A length-prefixed UTF-8 string.
fn text<'a>(r: &mut Reader<'a>) -> Option<&'a str> {
    std::str::from_utf8(r.bytes()?).ok()
}
