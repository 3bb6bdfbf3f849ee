//! The Unicode character families (`src/data/unicode.toml`, pinned to one
//! Unicode version): what stage 1 flags, and the one set of invisible
//! characters every output escapes ([`invisible`]).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

#[derive(Deserialize)]
struct TableFile {
    unicode_version: String,
    /// The families shown escaped wherever scanned text is printed.
    invisible: Vec<String>,
    families: BTreeMap<String, FamilyFile>,
}

#[derive(Deserialize)]
struct FamilyFile {
    ranges: Vec<[u32; 2]>,
}

/// Inclusive code-point ranges of one family.
#[derive(Debug, Default)]
pub struct Ranges(pub Vec<[u32; 2]>);

impl Ranges {
    pub fn contains(&self, c: char) -> bool {
        let cp = c as u32;
        self.0.iter().any(|r| (r[0]..=r[1]).contains(&cp))
    }
}

/// The families of `src/data/unicode.toml`.
pub struct Tables {
    pub unicode_version: String,
    pub families: BTreeMap<String, Ranges>,
    /// Every code point of the `invisible` families, sorted and merged.
    pub invisible: Vec<[u32; 2]>,
}

impl Tables {
    pub fn family(&self, name: &str) -> &Ranges {
        static EMPTY: Ranges = Ranges(Vec::new());
        self.families.get(name).unwrap_or(&EMPTY)
    }
}

/// The Unicode tables, parsed once. The file is compiled in and checked by a unit
/// test, so a parse failure is a build defect.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let file: TableFile = crate::data::parse(crate::data::json!("unicode"), "unicode");
        let mut invisible: Vec<[u32; 2]> = file
            .invisible
            .iter()
            .filter_map(|f| file.families.get(f))
            .flat_map(|f| f.ranges.iter().copied())
            .collect();
        invisible.sort_unstable();
        let mut merged: Vec<[u32; 2]> = Vec::with_capacity(invisible.len());
        for r in invisible {
            match merged.last_mut() {
                Some(last) if r[0] <= last[1].saturating_add(1) => last[1] = last[1].max(r[1]),
                _ => merged.push(r),
            }
        }
        Tables {
            unicode_version: file.unicode_version,
            families: file
                .families
                .into_iter()
                .map(|(k, v)| (k, Ranges(v.ranges)))
                .collect(),
            invisible: merged,
        }
    })
}

/// In one of the `invisible` families (binary search over merged ranges).
pub fn is_invisible(cp: u32) -> bool {
    tables()
        .invisible
        .binary_search_by(|r| {
            if r[1] < cp {
                std::cmp::Ordering::Less
            } else if r[0] > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// True for characters a reader cannot see or that change how text renders:
/// controls, format characters, invisible operators, tags, variation selectors,
/// BiDi controls, and unusual whitespace (the `invisible` families of
/// `src/data/unicode.toml`, the same table stage 1 flags from).
pub fn invisible(c: char) -> bool {
    let cp = c as u32;
    // Printable ASCII is never invisible: no table lookup for the common case.
    !(0x20..0x7F).contains(&cp) && is_invisible(cp)
}

/// Printable ASCII, tab, newline and carriage return only: text that can hold no
/// invisible, control or non-Latin character (checked without decoding).
pub fn is_plain_ascii(s: &str) -> bool {
    // Non-short-circuit `|`/`&` over fixed 32-byte chunks: the compiler turns each
    // chunk into a few vector compares (about 8× a byte-at-a-time `all`).
    fn plain(b: u8) -> bool {
        (b.wrapping_sub(0x20) < 0x5F) | (b == b'\t') | (b == b'\n') | (b == b'\r')
    }
    let mut chunks = s.as_bytes().chunks_exact(32);
    for chunk in &mut chunks {
        if !chunk.iter().fold(true, |all, &b| all & plain(b)) {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| plain(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invisible_families_exist_and_are_merged() {
        let t = tables();
        let file: TableFile = crate::data::parse(crate::data::json!("unicode"), "unicode");
        for f in &file.invisible {
            assert!(t.families.contains_key(f), "unknown family {f}");
        }
        assert!(t.invisible.windows(2).all(|w| w[0][1] + 1 < w[1][0]));
        for c in [
            '\u{200B}',
            '\u{202E}',
            '\u{E0041}',
            '\u{FE0F}',
            '\u{A0}',
            '\u{7}',
        ] {
            assert!(is_invisible(c as u32), "{:X}", c as u32);
        }
        for c in ['a', ' ', '\u{E9}', '\u{1F600}', '\u{4E2D}'] {
            assert!(!is_invisible(c as u32), "{:X}", c as u32);
        }
    }
}
