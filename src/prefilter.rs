//! Which patterns of a table can match a text, without compiling them.
//!
//! `build.rs` reads every pattern of the pattern tables (`injection.toml`,
//! `lang/frames.toml`), splits it into its top-level alternatives (`a|b`),
//! and derives for each up to eight clauses that any match of it satisfies,
//! each a set of literals one of which the match contains, some of them only
//! at an ASCII word boundary (`\bset\b` is not met by "reset"). It also
//! builds the literals' Aho–Corasick automaton, which is searched in place
//! (`crate::lang::trie`): start-up builds nothing. At run time one
//! case-insensitive pass over every literal marks the clauses met; a pattern
//! is a candidate when every clause of one of its alternatives is (a clause
//! common to all of them no longer hides a rare one), and only candidates
//! are compiled (on first use) and run. A pattern that can match is always a
//! candidate, so results equal running every pattern (or a `RegexSet` of
//! them); a unit test checks that on the dev corpus.
//!
//! `build.rs` also finds, per alternative, literals one of which starts
//! every match (a fixed number of bytes in: `[\s(]when` starts one byte
//! before "when"). The same pass records where they occur, and a candidate
//! all of whose possible alternatives have such a start runs anchored at
//! those places only ([`Prefilter::chosen`]): nearly every candidate matches
//! nowhere, and telling that took a lazy-DFA pass over the whole text per
//! candidate, a third of a 2,000-tool scan's CPU (issue 22).

use crate::lang::trie;
use crate::lazy::LateDfa;
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// The compiled prefilter of pattern table `key` of `src/data/<path>.toml`,
/// which has `patterns` patterns, e.g. `prefilter!("injection", "pattern", n)`.
macro_rules! prefilter {
    ($path:literal, $key:literal, $patterns:expr) => {
        crate::prefilter::Prefilter::from_compiled(
            crate::data::compiled!($path, $key, "prefilter"),
            $patterns,
        )
    };
}
pub(crate) use prefilter;

/// Text read through the compiled automaton before the DFA is built. Both
/// report the same matches, so the switch never changes a result; a small
/// scan never pays for the DFA's table, a large one reads several times
/// faster per byte.
const DFA_AFTER_BYTES: usize = 256 * 1024;

/// A word boundary is required before the literal.
const BOUND_BEFORE: u8 = 1;
/// A word boundary is required after the literal.
const BOUND_AFTER: u8 = 2;

/// One use of a literal: the clause of a pattern's alternative it meets,
/// under its flags.
#[derive(Clone, Copy)]
struct Owner {
    alternative: u32,
    clause: u8,
    flags: u8,
}

/// Bytes of one [`Owner`] as `build.rs` writes it: alternative (u32 LE), clause, flags.
const OWNER_BYTES: usize = 6;

/// Clause uses per literal, read in place from the compiled table (tens of
/// thousands of them: decoding them into a vector was a fifth of the page
/// faults of a scan of an empty manifest). Literal `i`'s uses are records
/// `starts[i]..starts[i + 1]` (u32 LE each); `Prefilter::decode` checks
/// every record once.
struct Owners {
    starts: &'static [u8],
    records: &'static [u8],
}

impl Owners {
    fn at(starts: &[u8], i: usize) -> usize {
        starts
            .get(4 * i..4 * i + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map_or(0, |b| u32::from_le_bytes(b) as usize)
    }

    fn get(&self, k: usize) -> Owner {
        let r = self
            .records
            .get(OWNER_BYTES * k..OWNER_BYTES * (k + 1))
            .unwrap_or(&[0; OWNER_BYTES]);
        Owner {
            alternative: u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
            clause: r[4],
            flags: r[5],
        }
    }

    /// The uses of literal `lit`.
    fn of(&self, lit: usize) -> impl Iterator<Item = Owner> + '_ {
        (Owners::at(self.starts, lit)..Owners::at(self.starts, lit + 1)).map(|k| self.get(k))
    }
}

/// Candidate patterns of one table.
pub struct Prefilter {
    /// The literals' automaton as `build.rs` compiled it (`None`: malformed,
    /// then every pattern is a candidate).
    nfa: Option<trie::Nfa<'static>>,
    /// The literals (ASCII-lowercased), kept to build the DFA when the text
    /// read warrants it.
    lits: Vec<&'static [u8]>,
    dfa: LateDfa,
    /// Clause uses per literal.
    owners: Owners,
    /// Per top-level alternative of a pattern (`a|b`), the pattern and the
    /// mask of its clauses (0: the pattern is always a candidate). A pattern
    /// is a candidate when one of its alternatives has all its clauses met.
    pattern: Vec<u32>,
    need: Vec<u8>,
    /// Per alternative, the clause whose literals start each of its matches,
    /// `offset` bytes in ([`NO_START`]: none), so the pattern can run
    /// anchored there instead of over the whole text.
    start: Vec<(u8, u8)>,
    /// Every alternative needs a clause (none is a candidate unmet).
    every_needs: bool,
    patterns: usize,
}

/// No clause starts every match of the alternative.
const NO_START: u8 = 0xFF;

/// A pattern that may match, and where its matches can start (`None`: anywhere).
pub struct Chosen {
    pub pattern: usize,
    pub starts: Option<Vec<usize>>,
}

impl Prefilter {
    /// From `build.rs`'s compiled table of `patterns` patterns; a malformed
    /// one or another count (a build defect) makes every pattern a candidate,
    /// which is slower but still correct.
    pub fn from_compiled(b: &'static [u8], patterns: usize) -> Prefilter {
        Prefilter::decode(b)
            .filter(|p| p.patterns == patterns)
            .unwrap_or_else(|| Prefilter {
                nfa: None,
                lits: Vec::new(),
                dfa: LateDfa::new(DFA_AFTER_BYTES),
                owners: Owners {
                    starts: &[0; 4],
                    records: &[],
                },
                pattern: (0..patterns as u32).collect(),
                need: vec![0; patterns],
                start: vec![(NO_START, 0); patterns],
                every_needs: false,
                patterns,
            })
    }

    fn decode(b: &'static [u8]) -> Option<Prefilter> {
        let mut r = trie::Reader::new(b);
        let patterns = r.num()?;
        let alternatives = r.num()?;
        let mut pattern = Vec::with_capacity(alternatives);
        let mut need = Vec::with_capacity(alternatives);
        let mut start = Vec::with_capacity(alternatives);
        for _ in 0..alternatives {
            let p = r.num()?;
            if p >= patterns || pattern.last().is_some_and(|&l| p < l as usize) {
                return None;
            }
            pattern.push(u32::try_from(p).ok()?);
            let &[mask, clause, offset] = r.take(3)? else {
                return None;
            };
            if clause != NO_START && (clause >= 8 || mask & (1 << clause) == 0) {
                return None;
            }
            need.push(mask);
            start.push((clause, offset));
        }
        let n = r.num()?;
        let mut lits = Vec::with_capacity(n);
        for _ in 0..n {
            lits.push(r.bytes()?);
        }
        let starts = r.take(4 * (n + 1))?;
        let owners = Owners {
            starts,
            records: r.take(OWNER_BYTES * Owners::at(starts, n))?,
        };
        // Checked once here, so reading them later cannot fail.
        let monotonic = (0..n).all(|i| Owners::at(starts, i) <= Owners::at(starts, i + 1));
        let in_range = (0..Owners::at(starts, n)).all(|k| {
            let o = owners.get(k);
            (o.alternative as usize) < alternatives && o.clause < 8
        });
        if !monotonic || !in_range {
            return None;
        }
        let nfa = trie::Nfa::new(r.rest())?;
        if nfa.patterns() != n {
            return None;
        }
        Some(Prefilter {
            nfa: Some(nfa),
            lits,
            dfa: LateDfa::new(DFA_AFTER_BYTES),
            owners,
            pattern,
            every_needs: need.iter().all(|&n| n != 0),
            need,
            start,
            patterns,
        })
    }

    /// The patterns that may match `hay`, in ascending order (the stages use
    /// [`Prefilter::chosen`]; the tests check both against the patterns).
    #[cfg(test)]
    pub fn candidates(&self, hay: &[u8]) -> Vec<usize> {
        let (met, _) = self.meet(hay, false);
        // Alternatives are in pattern order: each candidate is pushed once.
        let mut out: Vec<usize> = Vec::new();
        for ((&p, &n), &m) in self.pattern.iter().zip(&self.need).zip(&met) {
            if m & n == n && out.last() != Some(&(p as usize)) {
                out.push(p as usize);
            }
        }
        out
    }

    /// Whether some pattern may match `hay`.
    pub fn may_match(&self, hay: &[u8]) -> bool {
        let (met, _) = self.meet(hay, false);
        self.need.iter().zip(&met).any(|(&n, &m)| m & n == n)
    }

    /// The patterns that may match `hay`, in ascending order, each with the
    /// places its matches can start when every alternative of it that may
    /// match starts with known literals.
    pub fn chosen(&self, hay: &[u8]) -> Vec<Chosen> {
        // Places are kept as u32: a larger text runs its candidates over all of it.
        let collect = u32::try_from(hay.len()).is_ok();
        let (met, mut at) = self.meet(hay, collect);
        at.sort_unstable();
        let mut out: Vec<Chosen> = Vec::new();
        let mut i = 0;
        let mut next = 0;
        while next < met.len() {
            // Nearly every alternative meets nothing: eight of them at once
            // are skipped when none did (and each needs a clause; the start
            // places belong to alternatives met, so none is skipped).
            if self.every_needs
                && let Some(w) = met
                    .get(next..next + 8)
                    .and_then(|w| <[u8; 8]>::try_from(w).ok())
                && u64::from_ne_bytes(w) == 0
            {
                next += 8;
                continue;
            }
            let a = next;
            next += 1;
            let (p, n) = (self.pattern[a], self.need[a]);
            let here = i;
            while at.get(i).is_some_and(|&(x, _)| x as usize == a) {
                i += 1;
            }
            if met[a] & n != n {
                continue;
            }
            if out.last().is_none_or(|c| c.pattern != p as usize) {
                out.push(Chosen {
                    pattern: p as usize,
                    starts: Some(Vec::new()),
                });
            }
            let c = out.last_mut().expect("pushed");
            match (&mut c.starts, collect && self.start[a].0 != NO_START) {
                (Some(s), true) => s.extend(at[here..i].iter().map(|&(_, pos)| pos as usize)),
                _ => c.starts = None,
            }
        }
        for c in &mut out {
            if let Some(s) = &mut c.starts {
                s.sort_unstable();
                s.dedup();
            }
        }
        out
    }

    /// Per alternative, the mask of its clauses met in `hay`; with `starts`,
    /// also each `(alternative, place)` where a literal of its start clause
    /// puts the start of a match.
    fn meet(&self, hay: &[u8], starts: bool) -> (Vec<u8>, Vec<(u32, u32)>) {
        let mut met = vec![0u8; self.need.len()];
        let mut at = Vec::new();
        let mut mark = |lit: usize, start: usize, end: usize| {
            let before = boundary(hay, start);
            let after = boundary(hay, end);
            for o in self.owners.of(lit) {
                if (o.flags & BOUND_BEFORE == 0 || before) && (o.flags & BOUND_AFTER == 0 || after)
                {
                    met[o.alternative as usize] |= 1 << o.clause;
                    let (clause, offset) = self.start[o.alternative as usize];
                    if starts
                        && clause == o.clause
                        && let Some(pos) = start.checked_sub(usize::from(offset))
                    {
                        at.push((o.alternative, pos as u32));
                    }
                }
            }
        };
        if let Some(nfa) = &self.nfa {
            match self
                .dfa
                .get(hay.len(), || automaton(&self.lits, AhoCorasickKind::DFA))
            {
                Some(dfa) => dfa
                    .find_overlapping_iter(hay)
                    .for_each(|m| mark(m.pattern().as_usize(), m.start(), m.end())),
                None => nfa.overlapping_folded(hay, |b| b.to_ascii_lowercase(), &mut mark),
            }
        }
        (met, at)
    }
}

/// An ASCII word boundary at byte `at` of `hay`, as the regex `\b` of the
/// patterns (Unicode classes off) sees it.
fn boundary(hay: &[u8], at: usize) -> bool {
    let word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    word(at.checked_sub(1).and_then(|i| hay.get(i))) != word(hay.get(at))
}

/// One case-insensitive overlapping-search automaton of the literals.
fn automaton(lits: &[&[u8]], kind: AhoCorasickKind) -> Option<AhoCorasick> {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .kind(Some(kind))
        .build(lits)
        .ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use regex::bytes::RegexSetBuilder;

    /// Every string of the JSON files under `dir`.
    pub(crate) fn strings(dir: &std::path::Path, out: &mut Vec<String>) {
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

    /// The `pattern`s of table `key` of a data file as `build.rs` wrote it
    /// (frames with `{people}` expanded).
    /// Every string of the dev corpus, normalised as the reader sees it.
    pub(crate) fn dev_texts() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = Vec::new();
        strings(&root.join("tests/corpora/dev"), &mut texts);
        texts
            .iter()
            .map(|t| crate::lang::normalize(t).text)
            .collect()
    }

    pub(crate) fn patterns(json: &str, key: &str) -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["pattern"].as_str().unwrap().to_string())
            .collect()
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
        let injection = crate::data::json!("injection");
        let frames = crate::data::json!("lang/frames");
        let (pattern, secret, frame, format) = (
            patterns(injection, "pattern"),
            patterns(injection, "secret"),
            patterns(frames, "frame"),
            patterns(crate::data::json!("secrets"), "format"),
        );
        let tables = [
            (
                prefilter!("injection", "pattern", pattern.len()),
                pattern,
                "pattern",
                true,
            ),
            (
                prefilter!("injection", "secret", secret.len()),
                secret,
                "secret",
                false,
            ),
            (
                prefilter!("lang/frames", "frame", frame.len()),
                frame,
                "frame",
                false,
            ),
            (
                prefilter!("secrets", "format", format.len()),
                format,
                "format",
                false,
            ),
        ];
        for (pre, patterns, key, ci) in tables {
            let set = RegexSetBuilder::new(&patterns)
                .unicode(false)
                .case_insensitive(ci)
                .size_limit(256 << 20)
                .dfa_size_limit(256 << 20)
                .build()
                .unwrap();
            assert!(
                pre.need.iter().all(|&n| n != 0),
                "{key}: alternatives without a literal"
            );
            assert_eq!(pre.patterns, patterns.len(), "{key}: pattern count");
            // Start-up checks only the automaton's layout; every index here.
            assert!(
                pre.nfa.as_ref().is_some_and(|n| n.valid()),
                "{key}: automaton"
            );
            let mut matched = 0;
            for t in &texts {
                // As the stages see them: raw and lowercased (the reader's normalised text).
                for t in [t.clone(), crate::lang::normalize(t).text] {
                    let cands = pre.candidates(t.as_bytes());
                    for i in set.matches(t.as_bytes()).iter() {
                        matched += 1;
                        assert!(cands.contains(&i), "{key} #{i} matches {t:?}");
                        assert!(pre.may_match(t.as_bytes()), "{key} #{i} matches {t:?}");
                    }
                }
            }
            assert!(matched > 0, "{key}: no match checked");
        }
    }

    /// Running a pattern anchored at the places its start literals give
    /// finds what `find_iter` over the whole text finds, and the patterns
    /// chosen are the candidates, on every sixth string of the dev corpus
    /// (all of them take a minute unoptimised), raw and normalised.
    #[test]
    fn anchored_runs_find_every_match() {
        use crate::candidate::{Candidate, meta_regex, nfas};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = Vec::new();
        strings(&root.join("tests/corpora/dev"), &mut texts);
        let injection = crate::data::json!("injection");
        let frames = crate::data::json!("lang/frames");
        let pattern = patterns(injection, "pattern");
        let secret = patterns(injection, "secret");
        let frame = patterns(frames, "frame");
        let tables = [
            (
                super::prefilter!("injection", "pattern", pattern.len()),
                &nfas!("injection", "pattern")[..],
                pattern,
                true,
            ),
            (
                super::prefilter!("injection", "secret", secret.len()),
                &nfas!("injection", "secret")[..],
                secret,
                false,
            ),
            (
                super::prefilter!("lang/frames", "frame", frame.len()),
                &nfas!("lang/frames", "frame")[..],
                frame,
                false,
            ),
        ];
        let (mut anchored, mut matched) = (0, 0);
        for (pre, blob, patterns, ci) in tables {
            let runs: Vec<_> = (0..patterns.len())
                .map(|i| {
                    let c = Candidate::new(blob, patterns.len(), i, &patterns[i], ci, 2 << 20);
                    (c, meta_regex(&patterns[i], ci, 2 << 20).unwrap())
                })
                .collect();
            for t in texts.iter().step_by(6) {
                for t in [t.clone(), crate::lang::normalize(t).text] {
                    let hay = t.as_bytes();
                    let chosen = pre.chosen(hay);
                    let cands: Vec<usize> = chosen.iter().map(|c| c.pattern).collect();
                    assert_eq!(cands, pre.candidates(hay), "{t:?}");
                    for c in chosen {
                        let Some(starts) = c.starts else { continue };
                        let (fast, meta) = &runs[c.pattern];
                        let want: Vec<_> = meta.find_iter(hay).map(|m| m.range()).collect();
                        let mut got = Vec::new();
                        fast.for_each_match_at(hay, Some(&starts), |m| got.push(m.range()));
                        assert_eq!(got, want, "{} on {t:?}", patterns[c.pattern]);
                        let first = fast.find_at(hay, Some(&starts)).map(|m| m.range());
                        assert_eq!(first, want.first().cloned(), "{}", patterns[c.pattern]);
                        anchored += 1;
                        matched += usize::from(!want.is_empty());
                    }
                }
            }
        }
        assert!(
            anchored > 100_000 && matched > 2_000,
            "{anchored} anchored runs, {matched} with a match"
        );
    }

    /// The NFAs `build.rs` wrote read back equal to the ones compiled from
    /// each pattern, and the lazy DFAs built from them find the same matches
    /// as the `meta` regex of the pattern, on every dev-corpus string where
    /// one of the pattern's words occurs (up to 60 per pattern).
    #[test]
    fn compiled_nfas_equal_the_patterns() {
        use crate::candidate::{Candidate, meta_regex, nfas};
        use crate::pattern_nfa::{config, decode, entry, syntax};
        use regex_automata::nfa::thompson::Compiler;
        let texts = dev_texts();
        let injection = crate::data::json!("injection");
        let frames = crate::data::json!("lang/frames");
        let tables: [(&'static [u8], Vec<String>, bool); 3] = [
            (
                nfas!("injection", "pattern"),
                patterns(injection, "pattern"),
                true,
            ),
            (
                nfas!("injection", "secret"),
                patterns(injection, "secret"),
                false,
            ),
            (
                nfas!("lang/frames", "frame"),
                patterns(frames, "frame"),
                false,
            ),
        ];
        let (mut compared, mut matched) = (0, 0);
        for (blob, patterns, ci) in tables {
            for (i, p) in patterns.iter().enumerate() {
                let one = entry(blob, patterns.len(), i).expect("pattern in file");
                let mut at = 0;
                let fwd = decode(one, &mut at, false).expect("forward NFA");
                let rev = decode(one, &mut at, true).expect("reverse NFA");
                assert_eq!(at, one.len(), "{p}: bytes after the reverse NFA");
                for (nfa, reverse) in [(fwd, false), (rev, true)] {
                    let want = Compiler::new()
                        .syntax(syntax(ci))
                        .configure(config(reverse))
                        .build(p)
                        .unwrap();
                    assert_eq!(nfa.states(), want.states(), "{p}");
                    assert_eq!(nfa.start_anchored(), want.start_anchored(), "{p}");
                    assert_eq!(nfa.start_unanchored(), want.start_unanchored(), "{p}");
                }
                let fast = Candidate::new(blob, patterns.len(), i, p, ci, 2 << 20);
                let meta = meta_regex(p, ci, 2 << 20).unwrap();
                // Texts that hold one of the pattern's words (its first literal of 4+ bytes).
                let word = p
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .find(|w| w.len() >= 4)
                    .unwrap_or("")
                    .to_ascii_lowercase();
                for t in texts.iter().filter(|t| t.contains(&word)).take(60) {
                    let want: Vec<_> = meta.find_iter(t.as_bytes()).map(|m| m.range()).collect();
                    let mut got = Vec::new();
                    fast.for_each_match(t.as_bytes(), |m| got.push(m.range()));
                    assert_eq!(got, want, "{p} on {t:?}");
                    let first = fast.find(t.as_bytes()).map(|m| m.range());
                    assert_eq!(first, want.first().cloned(), "{p} on {t:?}");
                    matched += usize::from(!want.is_empty());
                    compared += 1;
                }
            }
        }
        assert!(
            compared > 5_000 && matched > 200,
            "{compared} texts compared, {matched} matched"
        );
    }
}
