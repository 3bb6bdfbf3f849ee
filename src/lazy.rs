//! Values built on first use. Most compiled patterns are only needed by some
//! inputs (a pattern's own regex after its set matched, a derived signal's
//! regex in a sentence that has an action): a small scan should not pay to
//! compile them all at start-up.

use std::ops::Deref;
use std::sync::OnceLock;

/// A value built by `init` the first time it is read (thread-safe; built once).
pub struct Lazy<T> {
    cell: OnceLock<T>,
    init: Box<dyn Fn() -> T + Send + Sync>,
}

impl<T> Lazy<T> {
    pub fn new(init: impl Fn() -> T + Send + Sync + 'static) -> Lazy<T> {
        Lazy {
            cell: OnceLock::new(),
            init: Box::new(init),
        }
    }

    /// A compiled-in pattern: built on first use, but at once in unit tests,
    /// so an invalid pattern fails `cargo test` wherever its table is loaded.
    pub fn pattern(init: impl Fn() -> T + Send + Sync + 'static) -> Lazy<T> {
        let l = Lazy::new(init);
        if cfg!(test) {
            l.force();
        }
        l
    }

    /// Build now (tests use it to check every compiled-in pattern).
    pub fn force(&self) -> &T {
        self.cell.get_or_init(|| (self.init)())
    }
}

impl<T> Deref for Lazy<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.force()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell.get() {
            Some(v) => v.fmt(f),
            None => f.write_str("Lazy(unbuilt)"),
        }
    }
}

/// An Aho–Corasick DFA built only once enough text has been read to pay for
/// it. Searching with it finds what the cheaper automaton before it finds, so
/// the switch never changes a result; a small scan never builds its table.
pub struct LateDfa {
    after: usize,
    read: std::sync::atomic::AtomicUsize,
    dfa: OnceLock<Option<aho_corasick::AhoCorasick>>,
}

impl LateDfa {
    /// Built once `after` bytes of text have been read through [`LateDfa::get`].
    pub fn new(after: usize) -> LateDfa {
        LateDfa {
            after,
            read: std::sync::atomic::AtomicUsize::new(0),
            dfa: OnceLock::new(),
        }
    }

    /// The DFA for a text of `len` more bytes, built by `build` the first time
    /// the text read passes the threshold (`None` before then, or if it failed).
    pub fn get(
        &self,
        len: usize,
        build: impl FnOnce() -> Option<aho_corasick::AhoCorasick>,
    ) -> Option<&aho_corasick::AhoCorasick> {
        if let Some(dfa) = self.dfa.get() {
            return dfa.as_ref();
        }
        let read = self
            .read
            .fetch_add(len, std::sync::atomic::Ordering::Relaxed);
        if read + len < self.after {
            return None;
        }
        self.dfa.get_or_init(build).as_ref()
    }

    /// Whether the DFA has been built.
    pub fn is_built(&self) -> bool {
        self.dfa.get().is_some_and(Option::is_some)
    }
}
