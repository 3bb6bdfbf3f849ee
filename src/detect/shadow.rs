//! MTC-INJ-SHADOW-2, cross-server tool-name collisions in one session: the same
//! name, the same confusable skeleton, or a near miss (Damerau–Levenshtein ≤ 2 on
//! names of 5+ characters) on another server can hijack tool selection.
//!
//! Names are indexed, never compared all-pairs: exact and skeleton collisions by
//! hash bucket; near misses through a deletion index (every variant with up to two
//! characters deleted), verified with the optimal-string-alignment distance.

use super::ServerResult;
use crate::confusables::skeleton;
use crate::finding::{Confidence, Finding, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// Names longer than this are only checked for exact and skeleton collisions.
const MAX_FUZZY_CHARS: usize = 64;
/// Most candidates verified per name (bounds a pathological catalog).
const MAX_CANDIDATES: usize = 200;

struct Entry<'a> {
    member: usize,
    server: &'a ServerResult,
    tool: &'a str,
    lower: String,
    skel: Vec<char>,
}

fn deletions(s: &[char], depth: usize, out: &mut BTreeSet<String>) {
    out.insert(s.iter().collect());
    if depth == 0 {
        return;
    }
    for i in 0..s.len() {
        let mut v = s.to_vec();
        v.remove(i);
        deletions(&v, depth - 1, out);
    }
}

pub fn check(members: &[&ServerResult], out: &mut Vec<Finding>) {
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (i, m) in members.iter().enumerate() {
        for t in &m.surface.tools {
            entries.push(Entry {
                member: i,
                server: m,
                tool: &t.name,
                lower: t.name.to_lowercase(),
                skel: skeleton(&t.name.to_lowercase()).chars().collect(),
            });
        }
    }
    let mut by_skel: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut by_variant: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        by_skel.entry(e.skel.iter().collect()).or_default().push(i);
        if (5..=MAX_FUZZY_CHARS).contains(&e.skel.len()) {
            let mut vs = BTreeSet::new();
            deletions(&e.skel, 2, &mut vs);
            for v in vs {
                by_variant.entry(v).or_default().push(i);
            }
        }
    }
    // Pairs (a < b) on different servers, with their kind.
    let mut pairs: BTreeMap<(usize, usize), &'static str> = BTreeMap::new();
    for bucket in by_skel.values() {
        for (x, &a) in bucket.iter().enumerate() {
            for &b in &bucket[x + 1..] {
                if entries[a].member != entries[b].member {
                    let kind = if entries[a].lower == entries[b].lower {
                        "exact"
                    } else {
                        "skeleton"
                    };
                    pairs.insert((a.min(b), a.max(b)), kind);
                }
            }
        }
    }
    for (a, e) in entries.iter().enumerate() {
        if !(5..=MAX_FUZZY_CHARS).contains(&e.skel.len()) {
            continue;
        }
        let mut vs = BTreeSet::new();
        deletions(&e.skel, 2, &mut vs);
        let mut cands: BTreeSet<usize> = BTreeSet::new();
        for v in &vs {
            if let Some(list) = by_variant.get(v) {
                cands.extend(
                    list.iter()
                        .copied()
                        .filter(|&b| b > a && entries[b].member != e.member),
                );
            }
            if cands.len() > MAX_CANDIDATES {
                break;
            }
        }
        for b in cands.into_iter().take(MAX_CANDIDATES) {
            if pairs.contains_key(&(a, b)) {
                continue;
            }
            let d = strsim::osa_distance(
                &e.skel.iter().collect::<String>(),
                &entries[b].skel.iter().collect::<String>(),
            );
            if d <= 2 {
                pairs.insert((a, b), if d == 1 { "near-1" } else { "near-2" });
            }
        }
    }
    for ((a, b), kind) in pairs {
        let (x, y) = (&entries[a], &entries[b]);
        // Report on the later server (by id): the one whose tool may be the shadow.
        let (first, second) = if x.server.surface.id <= y.server.surface.id {
            (x, y)
        } else {
            (y, x)
        };
        let what = match kind {
            "exact" => "has the same name as".to_string(),
            "skeleton" => "looks identical (same confusable skeleton) to".to_string(),
            k => format!("is a near miss (edit distance {}) of", &k[5..]),
        };
        let mut f = Finding::new(
            "MTC-INJ-SHADOW-2",
            format!(
                "tool `{}` on server `{}` {what} tool `{}` on server `{}` in the same session",
                second.tool, second.server.surface.name, first.tool, first.server.surface.name
            ),
            second.server.surface.location_for(Some(second.tool)),
        )
        .server(&second.server.surface.id)
        .tool(Some(second.tool))
        .evidence(format!(
            "`{}` ({}) vs `{}` ({})",
            second.tool, second.server.surface.id, first.tool, first.server.surface.id
        ));
        if kind.starts_with("near") {
            f = f
                .severity(Severity::Medium)
                .confidence(Confidence::Heuristic);
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::acquire::Acquired;
    use crate::detect::ScanOptions;
    use crate::finding::Severity;
    use crate::surface::{Item, Location, ServerSurface, Source, Transport};
    use serde_json::json;

    fn surface(id: &str, tools: &[&str]) -> ServerSurface {
        let src = Source {
            location: Location::new("mcp.json", 1, 1),
            format: "config".into(),
            client: None,
        };
        let mut s = ServerSurface::new(id.into(), id.into(), src, Transport::Unknown);
        s.session = Some("mcp.json".into());
        for t in tools {
            s.tools.push(Item::new(*t, json!({"name": t}), None));
        }
        s
    }

    fn shadows(servers: Vec<ServerSurface>) -> Vec<(String, Severity)> {
        let r = crate::detect::run(
            Acquired {
                surfaces: servers,
                ..Acquired::default()
            },
            &ScanOptions::default(),
        );
        r.sessions[0]
            .findings
            .iter()
            .filter(|f| f.rule_id == "MTC-INJ-SHADOW-2")
            .map(|f| (f.tool.clone().unwrap(), f.severity))
            .collect()
    }

    #[test]
    fn exact_skeleton_and_near_misses() {
        let a = surface(
            "mcp.json#a",
            &["send_email", "read_file", "list_items", "ping"],
        );
        let b = surface(
            "mcp.json#b",
            &[
                "SEND_EMAIL",
                "re\u{0430}d_file",
                "list_itmes",
                "pong",
                "unrelated_tool",
            ],
        );
        let got = shadows(vec![a, b]);
        assert!(
            got.contains(&("SEND_EMAIL".into(), Severity::High)),
            "{got:?}"
        );
        assert!(
            got.contains(&("re\u{0430}d_file".into(), Severity::High)),
            "{got:?}"
        );
        assert!(
            got.contains(&("list_itmes".into(), Severity::Medium)),
            "{got:?}"
        );
        // `ping`/`pong` are shorter than 5 characters: no near-miss check.
        assert_eq!(got.len(), 3, "{got:?}");
    }

    #[test]
    fn same_server_names_never_collide() {
        let a = surface("mcp.json#a", &["read_file", "read_files"]);
        let b = surface("mcp.json#b", &["totally_different"]);
        assert!(shadows(vec![a, b]).is_empty());
    }

    #[test]
    fn large_sessions_stay_fast() {
        let a = surface("mcp.json#a", &[]);
        let mut a = a;
        let mut b = surface("mcp.json#b", &[]);
        for i in 0..600 {
            a.tools
                .push(Item::new(format!("tool_a_{i:05}"), json!({}), None));
            b.tools
                .push(Item::new(format!("zzzz_b_{i:05}"), json!({}), None));
        }
        let t = std::time::Instant::now();
        let got = shadows(vec![a, b]);
        assert!(got.is_empty());
        assert!(t.elapsed().as_secs() < 20);
    }
}
