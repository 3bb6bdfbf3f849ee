//! A table pattern, run after its prefilter chose it (`crate::prefilter`).
//!
//! Same syntax and semantics as `regex::bytes::Regex` (leftmost-first, ASCII
//! classes, `unicode(false)`), without the regex engine's own literal
//! prefilter: the prefilter's clauses already proved the pattern's literals
//! occur. The pattern is not compiled at run time: `build.rs` wrote its
//! forward and reverse NFAs (`crate::pattern_nfa`), and the lazy DFAs are
//! built straight from them, as the `meta` regex would build them. Parsing
//! and compiling the patterns a scan needed was about half the CPU of a
//! 5-tool scan (issue 22). When the lazy DFA gives up (its cache thrashes on
//! a large text), the search runs again on the `meta` regex compiled from
//! the pattern, whose slower engines never give up: the matches are the same.

use crate::lazy::Lazy;
use regex_automata::hybrid::{self, regex::Cache};
use regex_automata::util::iter::Searcher;
use regex_automata::util::pool::Pool;
use regex_automata::{Anchored, Input, Match, MatchKind, meta};
use std::sync::{Arc, OnceLock};

/// The compiled NFAs of pattern table `key` of `src/data/<path>.toml`.
macro_rules! nfas {
    ($path:literal, $key:literal) => {
        $crate::data::compiled!($path, $key, "nfa")
    };
}
pub(crate) use nfas;

type CacheFn =
    Box<dyn Fn() -> Cache + Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe>;
type FwdCacheFn = Box<
    dyn Fn() -> hybrid::dfa::Cache
        + Send
        + Sync
        + std::panic::UnwindSafe
        + std::panic::RefUnwindSafe,
>;

/// Both lazy DFAs, as one regex that reports where a match starts.
type Engine = (Arc<hybrid::regex::Regex>, Pool<Cache, CacheFn>);

/// The lazy DFAs read from compiled NFAs. Most candidates a prefilter passes
/// never match, and telling that needs only the forward DFA: the reverse NFA
/// is read, and its DFA built, on the first text that has a match.
struct Fast {
    fwd: Arc<hybrid::dfa::DFA>,
    fwd_caches: Pool<hybrid::dfa::Cache, FwdCacheFn>,
    config: hybrid::dfa::Config,
    /// The reverse NFA's bytes (`crate::pattern_nfa`).
    rev: &'static [u8],
    full: OnceLock<Option<Engine>>,
}

impl Fast {
    /// Whether `hay` holds a match (`None`: the lazy DFA gave up).
    fn any(&self, hay: &[u8]) -> Option<bool> {
        let mut cache = self.fwd_caches.get();
        self.fwd
            .try_search_fwd(&mut cache, &Input::new(hay))
            .ok()
            .map(|m| m.is_some())
    }

    /// The regex that reports whole matches, built on first use.
    fn full(&self) -> Option<&Engine> {
        self.full
            .get_or_init(|| {
                let mut at = 0;
                let nfa = crate::pattern_nfa::decode(self.rev, &mut at, true)?;
                (at == self.rev.len()).then_some(())?;
                let rev = hybrid::dfa::Builder::new()
                    .configure(self.config.clone().match_kind(MatchKind::All))
                    .build_from_nfa(nfa)
                    .ok()?;
                let re = Arc::new(
                    hybrid::regex::Builder::new().build_from_dfas((*self.fwd).clone(), rev),
                );
                let r2 = Arc::clone(&re);
                let create: CacheFn = Box::new(move || r2.create_cache());
                Some((re, Pool::new(create)))
            })
            .as_ref()
    }
}

/// At most this many anchored runs per pattern and text; more read the
/// whole text once (a hostile text repeating a start literal would otherwise
/// cost its length times the repeats).
const MAX_PLACES: usize = 32;

/// A table pattern's lazy DFAs, with its meta regex beside it.
pub struct Candidate {
    fast: Option<Fast>,
    slow: Lazy<meta::Regex>,
}

impl Candidate {
    /// Pattern `i` of the `count` patterns whose NFAs are in `nfas`; `p` is its
    /// text (`case_insensitive` as compiled), for the fallback engine; the lazy
    /// DFA's cache may grow to `cache` bytes.
    pub fn new(
        nfas: &'static [u8],
        count: usize,
        i: usize,
        p: &str,
        case_insensitive: bool,
        cache: usize,
    ) -> Candidate {
        let fast = crate::pattern_nfa::entry(nfas, count, i).and_then(|one| {
            let mut at = 0;
            let nfa = crate::pattern_nfa::decode(one, &mut at, false)?;
            // The meta regex's lazy-DFA settings (regex-automata `meta::wrappers`).
            let config = hybrid::dfa::Config::new()
                .match_kind(MatchKind::LeftmostFirst)
                .starts_for_each_pattern(true)
                .unicode_word_boundary(true)
                .specialize_start_states(false)
                .cache_capacity(cache)
                .minimum_cache_clear_count(Some(3))
                .minimum_bytes_per_state(Some(10));
            let fwd = Arc::new(
                hybrid::dfa::Builder::new()
                    .configure(config.clone())
                    .build_from_nfa(nfa)
                    .ok()?,
            );
            let f2 = Arc::clone(&fwd);
            let create: FwdCacheFn = Box::new(move || f2.create_cache());
            Some(Fast {
                fwd,
                fwd_caches: Pool::new(create),
                config,
                rev: one.get(at..)?,
                full: OnceLock::new(),
            })
        });
        let p = p.to_string();
        let slow = Lazy::new(move || {
            meta_regex(&p, case_insensitive, cache)
                .unwrap_or_else(|e| panic!("table pattern {p}: {e}"))
        });
        if fast.is_none() || cfg!(test) {
            // An NFA file that does not hold the pattern: compile it now, so an
            // invalid one fails where its table is loaded (and in unit tests).
            slow.force();
        }
        Candidate { fast, slow }
    }

    /// Whether `hay` holds a match.
    pub fn is_match(&self, hay: &[u8]) -> bool {
        if let Some(any) = self.fast.as_ref().and_then(|fast| fast.any(hay)) {
            return any;
        }
        self.slow.is_match(hay)
    }

    /// Every match in `hay`, in order (as `find_iter`).
    pub fn for_each_match(&self, hay: &[u8], mut f: impl FnMut(Match)) {
        if let Some(fast) = &self.fast {
            if fast.any(hay) == Some(false) {
                return;
            }
            if let Some((re, pool)) = fast.full() {
                let mut cache = pool.get();
                let mut it = Searcher::new(Input::new(hay));
                let mut found = Vec::new();
                loop {
                    match it.try_advance(|input| re.try_search(&mut cache, input)) {
                        Ok(Some(m)) => found.push(m),
                        Ok(None) => return found.into_iter().for_each(f),
                        // Gave up: the whole search runs again below.
                        Err(_) => break,
                    }
                }
            }
        }
        self.slow.find_iter(hay).for_each(&mut f);
    }

    /// Every match in `hay`, in order (as `find_iter`), when matches can
    /// start only at `starts` (ascending; `None`: anywhere): the pattern runs
    /// anchored at each place not inside an earlier match. A run usually
    /// stops within a few bytes, but one may read to the end of the text
    /// (`[\w-]{16,}` after "sk-"), so past [`MAX_PLACES`] places the whole
    /// text is read once instead: cost stays linear in the text whatever it
    /// repeats.
    pub fn for_each_match_at(
        &self,
        hay: &[u8],
        starts: Option<&[usize]>,
        mut f: impl FnMut(Match),
    ) {
        let Some(starts) = starts.filter(|s| s.len() <= MAX_PLACES) else {
            return self.for_each_match(hay, f);
        };
        let mut end = 0;
        for &at in starts {
            if at < end {
                continue;
            }
            if let Some(m) = self.match_at(hay, at) {
                end = m.end().max(at + 1);
                f(m);
            }
        }
    }

    /// The first match in `hay`, when matches can start only at `starts`
    /// (ascending; `None`: anywhere).
    pub fn find_at(&self, hay: &[u8], starts: Option<&[usize]>) -> Option<Match> {
        match starts.filter(|s| s.len() <= MAX_PLACES) {
            Some(starts) => starts.iter().find_map(|&at| self.match_at(hay, at)),
            None => self.find(hay),
        }
    }

    /// The match that starts at `at`, if any.
    fn match_at(&self, hay: &[u8], at: usize) -> Option<Match> {
        if at > hay.len() {
            return None;
        }
        let input = Input::new(hay).range(at..).anchored(Anchored::Yes);
        let fast = self.fast.as_ref().and_then(|fast| {
            let mut cache = fast.fwd_caches.get();
            fast.fwd.try_search_fwd(&mut cache, &input).ok()
        });
        match fast {
            Some(half) => half.map(|h| Match::new(h.pattern(), at..h.offset())),
            None => self.slow.search(&input),
        }
    }

    /// The first match in `hay`.
    pub fn find(&self, hay: &[u8]) -> Option<Match> {
        if let Some(fast) = &self.fast {
            if fast.any(hay) == Some(false) {
                return None;
            }
            if let Some((re, pool)) = fast.full()
                && let Ok(m) = re.try_search(&mut pool.get(), &Input::new(hay))
            {
                return m;
            }
        }
        self.slow.find(hay)
    }

    /// The compiled regex, for capture groups (compiled on first use).
    pub fn meta(&self) -> &meta::Regex {
        &self.slow
    }
}

/// Compiles table pattern `p` as a `meta` regex: an NFA of up to 64 MiB and a
/// lazy DFA whose cache may grow to `cache` bytes; no literal prefilter.
pub fn meta_regex(
    p: &str,
    case_insensitive: bool,
    cache: usize,
) -> Result<meta::Regex, Box<meta::BuildError>> {
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .match_kind(MatchKind::LeftmostFirst)
                .utf8_empty(false)
                .auto_prefilter(false)
                .nfa_size_limit(Some(64 << 20))
                .hybrid_cache_capacity(cache),
        )
        .syntax(crate::pattern_nfa::syntax(case_insensitive))
        .build(p)
        .map_err(Box::new)
}
