//! Build step: the data tables of `src/data/` are written in TOML for people
//! and read as JSON by the binary. Parsing 400 KB of TOML at start-up was a
//! measurable share of a small scan; serde_json reads the same values into the
//! same serde structs several times faster. Every `src/data/**/*.toml` becomes
//! `$OUT_DIR/data/**/*.json` (see `src/data.rs`), so editing a TOML file is all a
//! rule change needs. An invalid file fails the build with its parse error.

//!
//! A lexicon file (a top-level `concept` table: `src/data/lang/intent.toml`,
//! `roles.toml`) is also compiled to `*.lex`: its terms and their Aho–Corasick
//! automaton, which the binary searches in place instead of building it at
//! start-up (`src/lang/trie.rs`; a unit test checks it against `aho_corasick`).

#[path = "src/lang/terms.rs"]
mod terms;
#[path = "src/lang/trie.rs"]
mod trie;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/data");
    println!("cargo:rerun-if-changed=src/lang/terms.rs");
    println!("cargo:rerun-if-changed=src/lang/trie.rs");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("data");
    let mut files = Vec::new();
    walk(Path::new("src/data"), &mut files);
    files.sort();
    for f in files {
        let rel = f.strip_prefix("src/data").expect("under src/data");
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let doc: toml_edit::DocumentMut = text
            .parse()
            .unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", f.display()));
        let mut json = String::with_capacity(text.len());
        table(doc.as_table(), &mut json, &f);
        let dest = out.join(rel).with_extension("json");
        std::fs::create_dir_all(dest.parent().expect("parent")).expect("create OUT_DIR/data");
        write_if_changed(&dest, json.as_bytes());
        if let Some(pre) = prefilters(&doc, &f) {
            write_if_changed(&dest.with_extension("prefilter.json"), pre.as_bytes());
        }
        if let Some(concepts) = doc.get("concept").and_then(|c| c.as_table_like()) {
            write_if_changed(&dest.with_extension("lex"), &lexicon(concepts, &f));
        }
    }
}

/// Only rewrite on change, so dependants are not rebuilt for nothing.
fn write_if_changed(dest: &Path, bytes: &[u8]) {
    if std::fs::read(dest).ok().as_deref() != Some(bytes) {
        std::fs::write(dest, bytes).expect("write OUT_DIR/data");
    }
}

/// The languages in `Lang::ALL` order (`src/lang/mod.rs`).
const LANGS: [&str; 13] = [
    "any", "en", "es", "fr", "de", "pt", "it", "ru", "zh", "ja", "ko", "hi", "ar",
];

/// `[concept.NAME] LANG = ["term", …]`, compiled as `Lexicon::from_toml` does
/// (concepts and languages in name order), plus the automaton of its literals.
fn lexicon(concepts: &dyn toml_edit::TableLike, f: &Path) -> Vec<u8> {
    let mut by_name: Vec<(&str, &toml_edit::Item)> = concepts.iter().collect();
    by_name.sort_by(|a, b| a.0.cmp(b.0));
    let mut names = Vec::new();
    let mut entries: Vec<(u16, u8, String)> = Vec::new();
    for (concept, langs) in by_name {
        let id = u16::try_from(names.len()).expect("too many concepts");
        let langs = langs
            .as_table_like()
            .unwrap_or_else(|| panic!("{}: concept {concept} is not a table", f.display()));
        let mut langs: Vec<(&str, &toml_edit::Item)> = langs.iter().collect();
        langs.sort_by(|a, b| a.0.cmp(b.0));
        for (lang, list) in langs {
            let l = LANGS.iter().position(|x| *x == lang).unwrap_or_else(|| {
                panic!(
                    "{}: concept {concept}: unknown language {lang}",
                    f.display()
                )
            });
            let list = list
                .as_array()
                .unwrap_or_else(|| panic!("{}: {concept}.{lang} is not an array", f.display()));
            for v in list.iter() {
                let t = v
                    .as_str()
                    .unwrap_or_else(|| panic!("{}: {concept}.{lang}: not a string", f.display()));
                entries.push((id, l as u8, t.to_string()));
            }
        }
        names.push(concept.to_string());
    }
    let specs = terms::compile(
        entries.iter().map(|(c, l, t)| (*c, *l, t.as_str())),
        spaceless,
        &|_| true,
    )
    .unwrap_or_else(|b| panic!("{}: term {:?}: {}", f.display(), entries[b.entry].2, b.why));
    let lits: Vec<&[u8]> = specs.iter().map(|s| s.lit.as_bytes()).collect();
    terms::encode(&names, &specs, &trie::build(&lits))
}

/// `lang::spaceless`: scripts written without spaces between words.
fn spaceless(c: char) -> bool {
    use unicode_script::{Script, UnicodeScript};
    matches!(
        c.script(),
        Script::Han
            | Script::Hiragana
            | Script::Katakana
            | Script::Hangul
            | Script::Thai
            | Script::Lao
            | Script::Khmer
            | Script::Myanmar
    )
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in entries {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// Keys in document order (the serde structs decide what order means).
fn table(t: &toml_edit::Table, out: &mut String, f: &Path) {
    out.push('{');
    let mut first = true;
    for (k, v) in t.iter() {
        if v.is_none() {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        string(k, out);
        out.push(':');
        item(v, out, f);
    }
    out.push('}');
}

fn item(i: &toml_edit::Item, out: &mut String, f: &Path) {
    match i {
        toml_edit::Item::None => out.push_str("null"),
        toml_edit::Item::Value(v) => value(v, out, f),
        toml_edit::Item::Table(t) => table(t, out, f),
        toml_edit::Item::ArrayOfTables(a) => {
            out.push('[');
            for (n, t) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                table(t, out, f);
            }
            out.push(']');
        }
    }
}

fn value(v: &toml_edit::Value, out: &mut String, f: &Path) {
    use toml_edit::Value as V;
    match v {
        V::String(s) => string(s.value(), out),
        V::Integer(i) => {
            let _ = write!(out, "{}", i.value());
        }
        V::Float(x) => {
            let x = *x.value();
            assert!(x.is_finite(), "{}: non-finite float", f.display());
            // `{:?}` is the shortest text that reads back as the same f64.
            let _ = write!(out, "{x:?}");
        }
        V::Boolean(b) => out.push_str(if *b.value() { "true" } else { "false" }),
        V::Datetime(_) => panic!(
            "{}: TOML dates are not used by the data tables",
            f.display()
        ),
        V::Array(a) => {
            out.push('[');
            for (n, x) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                value(x, out, f);
            }
            out.push(']');
        }
        V::InlineTable(t) => {
            out.push('{');
            for (n, (k, x)) in t.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                string(k, out);
                out.push(':');
                value(x, out, f);
            }
            out.push('}');
        }
    }
}

fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7F}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Pattern tables whose regexes are run behind a literal prefilter: for each
/// array of tables, the flags the runtime compiles its `pattern`s with
/// (case-insensitive?).
const PATTERN_TABLES: &[(&str, &str, bool)] = &[
    ("injection.toml", "pattern", true),
    ("injection.toml", "secret", false),
    ("lang/frames.toml", "frame", false),
];

/// `{"TABLE": [[literal bytes, …] | null, …]}`: for each pattern, literals one of
/// which (compared ASCII-case-insensitively) any match contains (`null`: no
/// such set, the pattern always runs). See `src/prefilter.rs`.
fn prefilters(doc: &toml_edit::DocumentMut, f: &Path) -> Option<String> {
    let rel = f
        .strip_prefix("src/data")
        .ok()?
        .to_str()?
        .replace('\\', "/");
    let tables: Vec<_> = PATTERN_TABLES.iter().filter(|t| t.0 == rel).collect();
    if tables.is_empty() {
        return None;
    }
    let mut out = String::from("{");
    for (n, (_, key, ci)) in tables.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        string(key, &mut out);
        out.push_str(":[");
        let rows = doc
            .get(key)
            .and_then(|i| i.as_array_of_tables())
            .unwrap_or_else(|| panic!("{}: no [[{key}]]", f.display()));
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let p = row
                .get("pattern")
                .and_then(|v| v.as_str())
                .unwrap_or_else(|| panic!("{}: [[{key}]] #{i} has no pattern", f.display()));
            match required(p, *ci) {
                Some(lits) => {
                    out.push('[');
                    for (k, l) in lits.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        out.push('[');
                        for (j, b) in l.iter().enumerate() {
                            if j > 0 {
                                out.push(',');
                            }
                            let _ = write!(out, "{b}");
                        }
                        out.push(']');
                    }
                    out.push(']');
                }
                None => {
                    println!(
                        "cargo:warning={}: [[{key}]] #{i} has no required literal; it runs on every text",
                        f.display()
                    );
                    out.push_str("null");
                }
            }
        }
        out.push(']');
    }
    out.push('}');
    Some(out)
}

type Lits = std::collections::BTreeSet<Vec<u8>>;

/// Literals (ASCII lowercased) one of which every match of `p` contains, as
/// the runtime compiles it (bytes, Unicode classes off).
fn required(p: &str, ci: bool) -> Option<Vec<Vec<u8>>> {
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .case_insensitive(ci)
        .build()
        .parse(p)
        .unwrap_or_else(|e| panic!("pattern {p}: {e}"));
    let lits = req(&hir)?;
    if lits.iter().any(Vec::is_empty) {
        return None;
    }
    Some(lits.into_iter().collect())
}

const MAX_LITS: usize = 64;

/// Every string `h` can match, when that is a small finite set.
fn exact(h: &regex_syntax::hir::Hir) -> Option<Lits> {
    use regex_syntax::hir::{Class, HirKind};
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Some([Vec::new()].into()),
        HirKind::Literal(l) => Some([l.0.to_ascii_lowercase()].into()),
        HirKind::Class(c) => {
            let mut bytes = std::collections::BTreeSet::new();
            match c {
                Class::Bytes(b) => {
                    for r in b.iter() {
                        if usize::from(r.end() - r.start()) > 16 {
                            return None;
                        }
                        for x in r.start()..=r.end() {
                            bytes.insert(x.to_ascii_lowercase());
                        }
                    }
                }
                Class::Unicode(u) => {
                    for r in u.iter() {
                        if !r.end().is_ascii() || (r.end() as u32 - r.start() as u32) > 16 {
                            return None;
                        }
                        for x in r.start()..=r.end() {
                            bytes.insert((x as u8).to_ascii_lowercase());
                        }
                    }
                }
            }
            (bytes.len() <= 8).then(|| bytes.into_iter().map(|b| vec![b]).collect())
        }
        HirKind::Capture(c) => exact(&c.sub),
        HirKind::Repetition(r) => {
            let max = r.max?;
            if max > 3 {
                return None;
            }
            let one = exact(&r.sub)?;
            let mut all = Lits::new();
            let mut cur: Lits = [Vec::new()].into();
            for k in 0..=max {
                if k >= r.min {
                    all.extend(cur.iter().cloned());
                }
                cur = product(&cur, &one)?;
            }
            (all.len() <= MAX_LITS).then_some(all)
        }
        HirKind::Concat(items) => {
            let mut cur: Lits = [Vec::new()].into();
            for i in items {
                cur = product(&cur, &exact(i)?)?;
            }
            Some(cur)
        }
        HirKind::Alternation(alts) => {
            let mut all = Lits::new();
            for a in alts {
                all.extend(exact(a)?);
            }
            (all.len() <= MAX_LITS).then_some(all)
        }
    }
}

fn product(a: &Lits, b: &Lits) -> Option<Lits> {
    if a.len() * b.len() > MAX_LITS {
        return None;
    }
    Some(
        a.iter()
            .flat_map(|x| b.iter().map(move |y| [x.as_slice(), y].concat()))
            .collect(),
    )
}

/// The better requirement: longer shortest literal, then fewer literals.
fn better(a: Option<Lits>, b: Option<Lits>) -> Option<Lits> {
    let score = |l: &Lits| {
        (
            l.iter().map(Vec::len).min().unwrap_or(0),
            std::cmp::Reverse(l.len()),
        )
    };
    match (a, b) {
        (Some(a), Some(b)) => Some(if score(&b) > score(&a) { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Literals one of which every match of `h` contains (`None`: none known).
fn req(h: &regex_syntax::hir::Hir) -> Option<Lits> {
    use regex_syntax::hir::HirKind;
    let usable = |l: Lits| (!l.iter().any(Vec::is_empty)).then_some(l);
    if let Some(e) = exact(h).and_then(usable) {
        return Some(e);
    }
    match h.kind() {
        HirKind::Capture(c) => req(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => req(&r.sub),
        HirKind::Alternation(alts) => {
            let mut all = Lits::new();
            for a in alts {
                all.extend(req(a)?);
            }
            Some(all)
        }
        HirKind::Concat(items) => {
            // Runs of adjacent items with exact strings make longer literals.
            let mut best: Option<Lits> = None;
            let mut run: Lits = [Vec::new()].into();
            for i in items {
                match exact(i) {
                    Some(e) => match product(&run, &e) {
                        Some(p) => run = p,
                        None => {
                            best = better(best, usable(std::mem::replace(&mut run, e)));
                        }
                    },
                    None => {
                        best = better(
                            best,
                            usable(std::mem::replace(&mut run, [Vec::new()].into())),
                        );
                        best = better(best, req(i));
                    }
                }
            }
            better(best, usable(run))
        }
        _ => None,
    }
}
