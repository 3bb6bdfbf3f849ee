//! Which patterns of a table can match a text, without compiling them.
//!
//! `build.rs` reads every pattern of the pattern tables (`injection.toml`,
//! `lang/frames.toml`) and derives up to four clauses that any match
//! satisfies, each a set of literals one of which the match contains, some
//! of them only at an ASCII word boundary (`\bset\b` is not met by
//! "reset"). At run time one case-insensitive Aho–Corasick pass over every
//! literal (a few hundred short ones: cheap to build) marks the clauses met;
//! a pattern is a candidate when all of its clauses are, and only candidates
//! are compiled (on first use) and run. A pattern that can match is always a
//! candidate, so results equal running every pattern (or a `RegexSet` of
//! them); a unit test checks that on the dev corpus.

use crate::lazy::LateDfa;
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// Text read through the NFA before the DFA is built. Both report the same
/// matches, so the switch never changes a result; a small scan never pays
/// for the DFA's table, a large one reads several times faster per byte.
const DFA_AFTER_BYTES: usize = 256 * 1024;

/// A word boundary is required before the literal.
const BOUND_BEFORE: u8 = 1;
/// A word boundary is required after the literal.
const BOUND_AFTER: u8 = 2;

/// One use of a literal: the clause of a pattern it meets, under its flags.
#[derive(Clone, Copy)]
struct Owner {
    pattern: u32,
    clause: u8,
    flags: u8,
}

/// Candidate patterns of one table.
pub struct Prefilter {
    ac: Option<AhoCorasick>,
    /// The literals, kept to build the DFA when the text read warrants it.
    lits: Vec<Vec<u8>>,
    dfa: LateDfa,
    /// Clause uses per literal of the automaton.
    owners: Vec<Vec<Owner>>,
    /// Per pattern, the mask of its clauses (0: always a candidate).
    need: Vec<u8>,
}

/// The clauses `build.rs` derived for one pattern: literals as
/// `[flags, bytes…]`.
type Clauses = Vec<Vec<Vec<u8>>>;

impl Prefilter {
    /// From `build.rs`'s clauses per pattern (`None`: always a candidate).
    pub fn new(required: &[Option<Clauses>]) -> Prefilter {
        let mut lits: Vec<&[u8]> = Vec::new();
        let mut owners: Vec<Vec<Owner>> = Vec::new();
        let mut index = std::collections::HashMap::<&[u8], usize>::new();
        let mut need = vec![0u8; required.len()];
        for (i, r) in required.iter().enumerate() {
            let Some(clauses) = r else { continue };
            for (c, ls) in clauses.iter().take(8).enumerate() {
                need[i] |= 1 << c;
                for l in ls {
                    let Some((&flags, bytes)) = l.split_first() else {
                        continue;
                    };
                    let k = *index.entry(bytes).or_insert_with(|| {
                        lits.push(bytes);
                        owners.push(Vec::new());
                        lits.len() - 1
                    });
                    owners[k].push(Owner {
                        pattern: i as u32,
                        clause: c as u8,
                        flags,
                    });
                }
            }
        }
        let ac = automaton(&lits, AhoCorasickKind::ContiguousNFA);
        if ac.is_none() {
            // Unreachable with the compiled-in tables; stay correct anyway.
            need.iter_mut().for_each(|n| *n = 0);
        }
        let lits = lits.into_iter().map(<[u8]>::to_vec).collect();
        Prefilter {
            ac,
            lits,
            dfa: LateDfa::new(DFA_AFTER_BYTES),
            owners,
            need,
        }
    }

    /// The patterns that may match `hay`, in ascending order.
    pub fn candidates(&self, hay: &[u8]) -> Vec<usize> {
        let mut met = vec![0u8; self.need.len()];
        if let Some(ac) = self.searcher(hay.len()) {
            for m in ac.find_overlapping_iter(hay) {
                let before = boundary(hay, m.start());
                let after = boundary(hay, m.end());
                for o in &self.owners[m.pattern().as_usize()] {
                    if (o.flags & BOUND_BEFORE == 0 || before)
                        && (o.flags & BOUND_AFTER == 0 || after)
                    {
                        met[o.pattern as usize] |= 1 << o.clause;
                    }
                }
            }
        }
        self.need
            .iter()
            .zip(&met)
            .enumerate()
            .filter_map(|(i, (&n, &m))| (m & n == n).then_some(i))
            .collect()
    }

    /// The NFA until enough text has been read to pay for the DFA, then the DFA.
    fn searcher(&self, len: usize) -> Option<&AhoCorasick> {
        let nfa = self.ac.as_ref()?;
        Some(
            self.dfa
                .get(len, || automaton(&self.lits, AhoCorasickKind::DFA))
                .unwrap_or(nfa),
        )
    }
}

/// An ASCII word boundary at byte `at` of `hay`, as the regex `\b` of the
/// patterns (Unicode classes off) sees it.
fn boundary(hay: &[u8], at: usize) -> bool {
    let word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    word(at.checked_sub(1).and_then(|i| hay.get(i))) != word(hay.get(at))
}

/// One case-insensitive overlapping-search automaton of the literals.
fn automaton<L: AsRef<[u8]>>(lits: &[L], kind: AhoCorasickKind) -> Option<AhoCorasick> {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .kind(Some(kind))
        .build(lits)
        .ok()
}

/// The clauses `build.rs` derived for one pattern table of a data file.
#[derive(serde::Deserialize)]
pub struct Required(pub std::collections::BTreeMap<String, Vec<Option<Clauses>>>);

impl Required {
    /// The prefilter of table `key` (one entry per pattern, in file order).
    pub fn prefilter(&self, key: &str, patterns: usize) -> Prefilter {
        match self.0.get(key).filter(|r| r.len() == patterns) {
            Some(r) => Prefilter::new(r),
            // A mismatch would be a build defect: every pattern is then a candidate.
            None => Prefilter::new(&vec![None; patterns]),
        }
    }
}

#[cfg(test)]
mod tests {
    use regex::bytes::RegexSetBuilder;

    /// Every string of the JSON files under `dir`.
    fn strings(dir: &std::path::Path, out: &mut Vec<String>) {
        fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::String(s) => out.push(s.clone()),
                serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
                serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
                    out.push(k.clone());
                    walk(x, out)
                }),
                _ => {}
            }
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                strings(&p, out);
            } else if p.extension().is_some_and(|x| x == "json")
                && let Ok(v) = serde_json::from_slice(&std::fs::read(&p).unwrap_or_default())
            {
                walk(&v, out);
            }
        }
    }

    /// The prefilter never drops a pattern that matches: on every string of the
    /// dev corpus, the fixtures and the vendored catalogs, each pattern a
    /// `RegexSet` of the table finds is a candidate.
    #[test]
    fn candidates_include_every_matching_pattern() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = Vec::new();
        for d in ["tests/corpora/dev", "fixtures", "tests/vendor/corpora"] {
            strings(&root.join(d), &mut texts);
        }
        assert!(texts.len() > 10_000, "{} texts", texts.len());
        let injection: toml_edit::DocumentMut =
            include_str!("data/injection.toml").parse().unwrap();
        let frames: toml_edit::DocumentMut = include_str!("data/lang/frames.toml").parse().unwrap();
        let tables = [
            (
                &injection,
                "pattern",
                true,
                crate::data::prefilter!("injection"),
            ),
            (
                &injection,
                "secret",
                false,
                crate::data::prefilter!("injection"),
            ),
            (
                &frames,
                "frame",
                false,
                crate::data::prefilter!("lang/frames"),
            ),
        ];
        for (doc, key, ci, required) in tables {
            let patterns: Vec<String> = doc[key]
                .as_array_of_tables()
                .unwrap()
                .iter()
                .map(|t| t["pattern"].as_str().unwrap().to_string())
                .collect();
            let set = RegexSetBuilder::new(&patterns)
                .unicode(false)
                .case_insensitive(ci)
                .size_limit(256 << 20)
                .dfa_size_limit(256 << 20)
                .build()
                .unwrap();
            let pre = required.prefilter(key, patterns.len());
            assert!(
                pre.need.iter().all(|&n| n != 0),
                "{key}: patterns without a literal"
            );
            let mut matched = 0;
            for t in &texts {
                // As the stages see them: raw and lowercased (the reader's normalised text).
                for t in [t.clone(), crate::lang::normalize(t).text] {
                    let cands = pre.candidates(t.as_bytes());
                    for i in set.matches(t.as_bytes()).iter() {
                        matched += 1;
                        assert!(cands.contains(&i), "{key} #{i} matches {t:?}");
                    }
                }
            }
            assert!(matched > 0, "{key}: no match checked");
        }
    }
}
