//! The compiled-in data tables of `src/data/`. They are written in TOML and
//! `build.rs` turns each file into JSON at build time, so start-up reads them
//! with serde_json (several times faster than a TOML parser) into the same
//! serde structs. A file that is not valid TOML fails the build.

use serde::de::DeserializeOwned;

/// The JSON text of `src/data/<path>.toml`, e.g. `data::json!("lang/combos")`.
macro_rules! json {
    ($path:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/data/", $path, ".json"))
    };
}
pub(crate) use json;

/// A file `build.rs` compiled from pattern table `key` of
/// `src/data/<path>.toml`: `<path>.<key>.<ext>` (`nfa`, `caps`, `prefilter`).
macro_rules! compiled {
    ($path:literal, $key:literal, $ext:literal) => {
        include_bytes!(concat!(
            env!("OUT_DIR"),
            "/data/",
            $path,
            ".",
            $key,
            ".",
            $ext
        ))
    };
}
pub(crate) use compiled;

/// A lexicon file (`src/data/<path>.toml` with `[concept.*]` tables) as
/// `build.rs` compiled it, for `Lexicon::from_compiled`.
macro_rules! lexicon {
    ($path:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/data/", $path, ".lex"))
    };
}
pub(crate) use lexicon;

/// Read one table; the files are compiled in and every one is loaded by a unit
/// test, so a failure is a build defect.
pub fn parse<T: DeserializeOwned>(json: &str, name: &str) -> T {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("src/data/{name}.toml: {e}"))
}
