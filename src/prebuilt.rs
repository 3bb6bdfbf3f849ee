//! A compiled-in pattern with the part of the `regex::bytes` API the
//! detectors use, read from the NFAs `build.rs` wrote: a scan compiles no
//! regex. Compiling stage 2's signal patterns (`src/data/lang/patterns.toml`)
//! with the `regex` crate took about 10 ms, a quarter of a 5-tool scan's CPU
//! (issue 22). Matches come from [`Candidate`]'s lazy DFAs; groups from a
//! PikeVM run only over a match already found, anchored at its start, as the
//! `meta` regex does: every match and group equals the `regex` crate's (a
//! unit test compares them on the dev corpus).

use crate::candidate::Candidate;
use regex_automata::nfa::thompson::pikevm::{self, PikeVM};
use regex_automata::util::captures::Captures as Slots;
use regex_automata::util::pool::Pool;
use regex_automata::{Anchored, Input};
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::OnceLock;

type CacheFn = Box<dyn Fn() -> pikevm::Cache + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// One pattern of a compiled-in table whose groups are read.
pub struct Regex {
    matches: Candidate,
    /// This pattern's forward NFA with capture states (`crate::pattern_nfa`).
    caps: Option<&'static [u8]>,
    groups: OnceLock<Option<(PikeVM, Pool<pikevm::Cache, CacheFn>)>>,
}

/// Where a match or group is, in the text searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match<'h> {
    hay: &'h [u8],
    start: usize,
    end: usize,
}

impl<'h> Match<'h> {
    pub fn start(&self) -> usize {
        self.start
    }

    pub fn end(&self) -> usize {
        self.end
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    pub fn as_bytes(&self) -> &'h [u8] {
        &self.hay[self.start..self.end]
    }
}

/// A match's groups (0: the whole match).
#[derive(Clone, Debug)]
pub struct Captures<'h> {
    hay: &'h [u8],
    groups: Vec<Option<(usize, usize)>>,
}

impl<'h> Captures<'h> {
    /// The number of groups, with group 0.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Group `i`, if it took part in the match.
    pub fn get(&self, i: usize) -> Option<Match<'h>> {
        let (start, end) = (*self.groups.get(i)?)?;
        Some(Match {
            hay: self.hay,
            start,
            end,
        })
    }
}

impl Regex {
    /// Pattern `i` of the `count` patterns of a table: `nfas` and `caps` are
    /// its `.nfa` and `.caps` files, `p` its text (for the fallback engine).
    pub fn new(nfas: &'static [u8], caps: &'static [u8], count: usize, i: usize, p: &str) -> Regex {
        Regex {
            matches: Candidate::new(nfas, count, i, p, false, 2 << 20),
            caps: crate::pattern_nfa::entry(caps, count, i),
            groups: OnceLock::new(),
        }
    }

    pub fn is_match(&self, hay: &[u8]) -> bool {
        self.matches.is_match(hay)
    }

    pub fn find<'h>(&self, hay: &'h [u8]) -> Option<Match<'h>> {
        let m = self.matches.find(hay)?;
        Some(Match {
            hay,
            start: m.start(),
            end: m.end(),
        })
    }

    /// Every match, in order.
    pub fn find_iter<'h>(&self, hay: &'h [u8]) -> std::vec::IntoIter<Match<'h>> {
        let mut out = Vec::new();
        self.matches.for_each_match(hay, |m| {
            out.push(Match {
                hay,
                start: m.start(),
                end: m.end(),
            })
        });
        out.into_iter()
    }

    /// The first match's groups.
    pub fn captures<'h>(&self, hay: &'h [u8]) -> Option<Captures<'h>> {
        let m = self.find(hay)?;
        Some(self.groups_of(m))
    }

    /// Every match's groups, in order; a match's groups are read only when
    /// it is reached (callers mostly stop at the first that fits).
    pub fn captures_iter<'h>(&self, hay: &'h [u8]) -> impl Iterator<Item = Captures<'h>> {
        self.find_iter(hay).map(|m| self.groups_of(m))
    }

    /// The PikeVM of the NFA with capture states, built on first use.
    fn pike(&self) -> Option<&(PikeVM, Pool<pikevm::Cache, CacheFn>)> {
        self.groups
            .get_or_init(|| {
                let b = self.caps?;
                let mut at = 0;
                let nfa = crate::pattern_nfa::decode(b, &mut at, false)?;
                (at == b.len()).then_some(())?;
                let vm = PikeVM::new_from_nfa(nfa).ok()?;
                let v2 = vm.clone();
                let create: CacheFn = Box::new(move || v2.create_cache());
                Some((vm, Pool::new(create)))
            })
            .as_ref()
    }

    /// The groups of match `m`: the pattern run again over `m` only,
    /// anchored at its start (the text around it still decides `\b`, `^`, `$`).
    fn groups_of<'h>(&self, m: Match<'h>) -> Captures<'h> {
        let input = Input::new(m.hay).span(m.range()).anchored(Anchored::Yes);
        let slots = self
            .pike()
            .and_then(|(vm, pool)| {
                let mut slots = vm.create_captures();
                vm.search(&mut pool.get(), &input, &mut slots);
                slots.is_match().then_some(slots)
            })
            .unwrap_or_else(|| {
                let re = self.matches.meta();
                let mut slots = re.create_captures();
                re.search_captures(&input, &mut slots);
                slots
            });
        Captures {
            hay: m.hay,
            groups: groups(&slots),
        }
    }
}

fn groups(slots: &Slots) -> Vec<Option<(usize, usize)>> {
    (0..slots.group_len())
        .map(|g| slots.get_group(g).map(|s| (s.start, s.end)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Regex;
    use crate::candidate::nfas;
    use crate::pattern_nfa::{config, decode, entry, syntax};
    use crate::prefilter::tests::{dev_texts, patterns};
    use regex_automata::nfa::thompson::{Compiler, WhichCaptures};

    /// The NFAs with capture states read back equal to the ones compiled, and
    /// every signal pattern finds the same matches and groups as the `regex`
    /// crate's compile of it, on every normalised dev-corpus string (each
    /// pattern on up to 400 strings where it matches, and as many where not).
    #[test]
    fn signal_patterns_equal_the_regex_crate() {
        let texts = dev_texts();
        let list = patterns(crate::data::json!("lang/patterns"), "pattern");
        let (blob, caps) = (
            nfas!("lang/patterns", "pattern"),
            crate::data::compiled!("lang/patterns", "pattern", "caps"),
        );
        let (mut compared, mut grouped) = (0, 0);
        for (i, p) in list.iter().enumerate() {
            let one = entry(caps, list.len(), i).expect("pattern in file");
            let mut at = 0;
            let nfa = decode(one, &mut at, false).expect("NFA with groups");
            assert_eq!(at, one.len(), "{p}: bytes after the NFA");
            let want = Compiler::new()
                .syntax(syntax(false))
                .configure(config(false).which_captures(WhichCaptures::All))
                .build(p)
                .unwrap();
            assert_eq!(nfa.states(), want.states(), "{p}");
            assert_eq!(
                nfa.group_info().all_group_len(),
                want.group_info().all_group_len()
            );
            let ours = Regex::new(blob, caps, list.len(), i, p);
            let theirs = regex::bytes::RegexBuilder::new(p)
                .unicode(false)
                .build()
                .unwrap();
            let (mut hits, mut misses) = (0, 0);
            for t in &texts {
                let hay = t.as_bytes();
                let hit = theirs.is_match(hay);
                if (hit && hits >= 400) || (!hit && misses >= 400) {
                    continue;
                }
                (hits, misses) = (hits + usize::from(hit), misses + usize::from(!hit));
                assert_eq!(ours.is_match(hay), hit, "{p} on {t:?}");
                let want: Vec<_> = theirs.find_iter(hay).map(|m| m.range()).collect();
                let got: Vec<_> = ours.find_iter(hay).map(|m| m.range()).collect();
                assert_eq!(got, want, "{p} on {t:?}");
                assert_eq!(ours.find(hay).map(|m| m.range()), want.first().cloned());
                let want: Vec<Vec<_>> = theirs
                    .captures_iter(hay)
                    .map(|c| c.iter().map(|g| g.map(|m| m.range())).collect())
                    .collect();
                let got: Vec<Vec<_>> = ours
                    .captures_iter(hay)
                    .map(|c| (0..c.len()).map(|g| c.get(g).map(|m| m.range())).collect())
                    .collect();
                assert_eq!(got, want, "{p} on {t:?}");
                let first = ours.captures(hay).map(|c| c.get(1).map(|m| m.as_bytes()));
                let want_first = theirs.captures(hay).map(|c| c.get(1).map(|m| m.as_bytes()));
                assert_eq!(first, want_first, "{p} on {t:?}");
                compared += 1;
                grouped += want.iter().filter(|c| c.len() > 1).count();
            }
            assert!(hits > 0, "{p}: no dev-corpus string matches it");
        }
        assert!(
            compared > 10_000 && grouped > 1_000,
            "{compared} texts compared, {grouped} matches with groups"
        );
    }
}
