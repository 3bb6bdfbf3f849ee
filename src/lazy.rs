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
