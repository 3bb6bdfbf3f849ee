//! The module graph has no cycles: every dependency between two of `src/`'s
//! files runs one way, so each layer can be read (and tested) without the
//! ones above it. Checked at two granularities: files (`acquire::live::http`,
//! `detect::capability`, …) and top-level modules (`detect`, `policy`,
//! `report`, …, with a feature's command file such as `lock::cmd` apart).
//!
//! An edge is a `crate::…` or `super::…` path in a file's code (its `use`
//! lines and inline paths; comments and the trailing `mod tests` are not
//! read). A parent naming its own children (`mod.rs` calling `capability::check`)
//! is the module's facade, not an edge; a child reaching up to its parent is one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Edges left out, each with the reason. Keep this empty.
const ALLOWED: &[(&str, &str, &str)] = &[];

type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// Module path of a file under `src/` (`detect/mod.rs` → `detect`).
fn module_of(rel: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    match stem {
        // Test-only files (`policy/tests.rs`) are not part of the graph.
        "tests" => return None,
        "mod" | "lib" | "main" => {}
        s => parts.push(s.to_string()),
    }
    Some(parts)
}

/// The code of a file: full-line comments blanked, the trailing test module cut.
fn code(text: &str) -> String {
    let text = match text.find("\n#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Every path named after `prefix::` in `code`, as segments (a `{…}` group
/// gives one path per member).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut segs = Vec::new();
        let mut s = rest;
        loop {
            let id = ident_at(s);
            if id.is_empty() {
                break;
            }
            segs.push(id.to_string());
            s = &s[id.len()..];
            match s.strip_prefix("::") {
                Some(t) => s = t,
                None => break,
            }
        }
        if let Some(group) = s.strip_prefix('{') {
            let body = &group[..group.find('}').unwrap_or(group.len())];
            for member in body.split(',') {
                let first = ident_at(member.trim());
                let mut p = segs.clone();
                if !first.is_empty() && first != "self" {
                    p.push(first.to_string());
                }
                out.push(p);
            }
        } else {
            out.push(segs);
        }
    }
    out
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("src/ is readable") {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(&src).expect("under src/").to_path_buf();
                if let Some(m) = module_of(&rel) {
                    files.insert(m, p);
                }
            }
        }
    }
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    // The longest prefix of a path that is a file (the crate root is not a node).
    let resolve = |p: &[String]| -> Option<Vec<String>> {
        (1..=p.len())
            .rev()
            .map(|n| p[..n].to_vec())
            .find(|q| modules.contains(q))
    };
    let mut g = Graph::new();
    for (m, path) in &files {
        let text = std::fs::read_to_string(path).expect("a source file");
        let code = code(&text);
        let parent = &m[..m.len().saturating_sub(1)];
        let mut targets: Vec<Vec<String>> = paths_after(&code, "crate::");
        for p in paths_after(&code, "super::") {
            let mut full = parent.to_vec();
            full.extend(p);
            targets.push(full);
        }
        let from = m.join("::");
        let deps = g.entry(from.clone()).or_default();
        for t in targets {
            let Some(to) = resolve(&t) else { continue };
            let to = to.join("::");
            if to != from {
                deps.entry(to)
                    .or_insert_with(|| format!("{}: {}", path.display(), t.join("::")));
            }
        }
    }
    for (from, to, _) in ALLOWED {
        if let Some(d) = g.get_mut(*from) {
            d.remove(*to);
        }
    }
    g
}

/// The graph with every node cut to its top-level module. A command file
/// (`lock::cmd`) stays a node of its own: it drives the pipeline, so it sits
/// above `scan` while the rest of its feature sits below.
fn top_level(g: &Graph) -> Graph {
    let cut = |m: &str| {
        if m.ends_with("::cmd") {
            m.to_string()
        } else {
            m.split("::").next().unwrap_or(m).to_string()
        }
    };
    let mut out = Graph::new();
    for (from, deps) in g {
        let f = cut(from);
        let entry = out.entry(f.clone()).or_default();
        for (to, why) in deps {
            let t = cut(to);
            if t != f {
                entry.entry(t).or_insert_with(|| why.clone());
            }
        }
    }
    out
}

/// One cycle, if any: the nodes in order, each with the reference that makes the edge.
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        g: &Graph,
        n: &str,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(n.to_string(), Mark::Open);
        path.push(n.to_string());
        for (to, why) in g.get(n).into_iter().flatten() {
            match marks.get(to.as_str()).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let start = path.iter().position(|p| p == to).unwrap_or(0);
                    let mut cycle: Vec<String> = path[start..].to_vec();
                    cycle.push(format!("{to}   (last edge: {why})"));
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(g, to, marks, path) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for n in g.keys() {
        if marks.get(n).copied().unwrap_or(Mark::New) == Mark::New
            && let Some(c) = visit(g, n, &mut marks, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn no_cycle_between_top_level_modules() {
    let g = top_level(&graph());
    assert!(g.contains_key("detect") && g.contains_key("scan"), "{g:?}");
    if let Some(c) = find_cycle(&g) {
        panic!("import cycle between modules:\n  {}", c.join("\n  -> "));
    }
}

#[test]
fn no_cycle_between_files() {
    let g = graph();
    assert!(g.contains_key("acquire::live::http"), "{:?}", g.keys());
    if let Some(c) = find_cycle(&g) {
        panic!("import cycle between files:\n  {}", c.join("\n  -> "));
    }
}

#[test]
fn the_checker_sees_a_cycle() {
    let mut g = Graph::new();
    g.entry("a".into())
        .or_default()
        .insert("b".into(), "a.rs: crate::b".into());
    g.entry("b".into())
        .or_default()
        .insert("a".into(), "b.rs: crate::a".into());
    assert!(find_cycle(&g).is_some());
    assert_eq!(
        paths_after(
            "use crate::x::{y, z::w, self};\nlet a = super::q::r();",
            "crate::"
        ),
        vec![
            vec!["x".to_string(), "y".into()],
            vec!["x".into(), "z".into()],
            vec!["x".into()]
        ]
    );
    assert_eq!(
        paths_after("foo::crate::x super::y", "super::"),
        vec![vec!["y".to_string()]]
    );
}

/// No source file over 800 lines: a file that grows past it holds more than
/// one concept and is split along its seams (a directory module).
#[test]
fn no_source_file_over_800_lines() {
    fn walk(dir: &Path, out: &mut Vec<(String, usize)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let n = std::fs::read_to_string(&p).map_or(0, |t| t.lines().count());
                out.push((p.display().to_string(), n));
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 50, "src/ read: {} files", files.len());
    let mut long: Vec<String> = files
        .into_iter()
        .filter(|(_, n)| *n > 800)
        .map(|(p, n)| format!("{p}: {n} lines"))
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "files over 800 lines:\n  {}",
        long.join("\n  ")
    );
}
