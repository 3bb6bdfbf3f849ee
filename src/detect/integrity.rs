//! Stage 7, integrity: the acquired surface against its lockfile pin (rug-pull
//! drift, MTC-TOFU-001), servers never pinned (MTC-TOFU-005), and a committed
//! descriptor that disagrees with the reviewed snapshot. No I/O: the lockfile
//! was read before the pipeline ran.

use crate::acquire::FileKind;
use crate::finding::Finding;
use crate::lock::canonical::Snapshot;
use crate::lock::diff::{CatalogDiff, diff_surfaces};
use crate::lock::lockfile::{Entry, Lockfile};
use crate::model::{Drift, ServerResult};
use crate::parse::InputError;
use crate::rules::ids;
use crate::surface::{Coverage, ServerSurface};
use std::collections::{BTreeMap, BTreeSet};

/// Rule id of lockfile drift (a surface that no longer matches its pin).
pub const DRIFT_RULE: &str = ids::MTC_TOFU_001;

/// Before the stages: config-only servers with a pin are graded on their
/// snapshot; returns the descriptor comparisons for those servers.
pub fn prepare(
    surfaces: &mut [ServerSurface],
    lock: &Lockfile,
) -> BTreeMap<String, (String, CatalogDiff)> {
    // Each fill copies a pinned catalog: in parallel (1,000 pinned servers are 20,000 tools).
    use rayon::prelude::*;
    surfaces.par_iter_mut().for_each(|s| {
        if s.coverage == Coverage::ConfigOnly
            && let Some(e) = lock.entries.get(&s.id)
        {
            crate::lock::pin::fill_from_snapshot(s, e);
        }
    });
    descriptor_diffs(surfaces, lock)
}

/// After the stages: servers with no entry, and entries with no server.
pub fn unpinned_and_stale(
    servers: &[ServerResult],
    files: &[(String, FileKind)],
    errors: &[InputError],
    lock: &Lockfile,
) -> (Vec<String>, Vec<String>) {
    let unpinned = servers
        .iter()
        .filter(|s| !lock.entries.contains_key(&s.surface.id))
        .map(|s| s.surface.id.clone())
        .collect();
    let ids: Vec<&str> = servers.iter().map(|s| s.surface.id.as_str()).collect();
    let read: BTreeSet<String> = files.iter().map(|(f, _)| f.clone()).collect();
    let failed: BTreeSet<String> = errors.iter().map(|e| e.path.clone()).collect();
    (unpinned, lock.stale(&ids, &read, &failed))
}

/// For servers graded from their snapshot: the one descriptor in the scan that
/// describes the same server (same name, not a client config), compared with the
/// snapshot. Only an unambiguous match counts.
fn descriptor_diffs(
    surfaces: &[ServerSurface],
    lock: &Lockfile,
) -> BTreeMap<String, (String, CatalogDiff)> {
    // Descriptors by name: one lookup per pinned server, not a scan of every surface.
    let mut by_name: BTreeMap<&str, Vec<&ServerSurface>> = BTreeMap::new();
    for d in surfaces
        .iter()
        .filter(|d| d.source.client.is_none() && d.coverage == Coverage::Manifest)
    {
        by_name.entry(d.name.as_str()).or_default().push(d);
    }
    let mut out = BTreeMap::new();
    for s in surfaces.iter().filter(|s| s.coverage == Coverage::Lockfile) {
        let Some(e) = lock.entries.get(&s.id) else {
            continue;
        };
        let Some([d]) = by_name.get(s.name.as_str()).map(Vec::as_slice) else {
            continue;
        };
        let desc = Snapshot::of(d).with_launch_of(&e.snapshot);
        let diff = diff_surfaces(&s.id, &e.snapshot, &desc);
        if !diff.is_empty() {
            out.insert(s.id.clone(), (d.id.clone(), diff));
        }
    }
    out
}

fn drift_finding(s: &ServerSurface, e: &Entry, diff: &CatalogDiff, message: String) -> Finding {
    let evidence = if diff.is_empty() {
        "the digest differs but the snapshot matches: the entry's digest or snapshot was edited by hand".to_string()
    } else {
        diff.summary()
    };
    Finding::new(DRIFT_RULE, message, e.location.clone())
        .server(&s.id)
        .evidence(evidence)
}

/// The stage: drift against the pin, or an unpinned notice. Returns the drift to record.
pub fn check(
    s: &ServerSurface,
    digest: &str,
    lock: &Lockfile,
    descriptor: Option<&(String, CatalogDiff)>,
    out: &mut Vec<Finding>,
) -> Option<Drift> {
    let Some(e) = lock.entries.get(&s.id) else {
        out.push(
            Finding::new(
                ids::MTC_TOFU_005,
                format!(
                    "server `{}` has no entry in {}: its catalog has never been reviewed",
                    s.name, lock.path
                ),
                s.source.location.clone(),
            )
            .server(&s.id)
            .evidence(format!(
                "coverage {}; run `mcptrustchecker lock` and commit {}",
                s.coverage.as_str(),
                lock.path
            )),
        );
        return None;
    };
    let mut drift = None;
    if digest != e.digest {
        let now = Snapshot::of(s);
        let diff = diff_surfaces(&s.id, &e.snapshot, &now);
        let what = if diff.whitespace_only() {
            " (whitespace only)"
        } else {
            ""
        };
        let msg = format!(
            "server `{}` no longer matches its lockfile pin: {} change(s){what}",
            s.name,
            diff.changes.len()
        );
        out.push(drift_finding(s, e, &diff, msg));
        drift = Some(Drift {
            pinned_digest: e.digest.clone(),
            diff,
            lock_location: e.location.clone(),
        });
    }
    if let Some((path, diff)) = descriptor {
        let msg = format!(
            "descriptor {path} for server `{}` differs from the reviewed lockfile snapshot: {} change(s)",
            s.name,
            diff.changes.len()
        );
        out.push(drift_finding(s, e, diff, msg).field("descriptor"));
        if drift.is_none() {
            drift = Some(Drift {
                pinned_digest: e.digest.clone(),
                diff: diff.clone(),
                lock_location: e.location.clone(),
            });
        }
    }
    drift
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::pin::lock_surfaces;

    fn check_now(
        s: &ServerSurface,
        lock: &Lockfile,
        descriptor: Option<&(String, CatalogDiff)>,
        out: &mut Vec<Finding>,
    ) -> Option<Drift> {
        check(
            s,
            &crate::lock::canonical::surface_digest(s),
            lock,
            descriptor,
            out,
        )
    }

    fn surface(id: &str, client: bool, desc: &str) -> ServerSurface {
        crate::testkit::surface(id)
            .name("notes")
            .at(crate::lock::lockfile::id_file(id), 2, 3)
            .format("x")
            .client(client.then_some(crate::surface::Client::Cursor))
            .coverage(Coverage::Manifest)
            .described_tool("t", desc)
            .build()
    }

    fn locked(surfaces: &[ServerSurface]) -> Lockfile {
        let mut lock = Lockfile::empty("mcptrustchecker.lock");
        lock_surfaces(&mut lock, surfaces, &[]);
        Lockfile::parse(&lock.to_text(), "mcptrustchecker.lock").unwrap()
    }

    #[test]
    fn drift_is_located_at_the_entry_with_the_diff_as_evidence() {
        let lock = locked(&[surface("d.json", false, "Search notes.")]);
        let now = surface("d.json", false, "Search notes.\u{200B}");
        let mut out = Vec::new();
        let drift = check_now(&now, &lock, None, &mut out).expect("drift");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].rule_id, crate::rules::ids::MTC_TOFU_001);
        assert_eq!(out[0].location, lock.entries["d.json"].location);
        assert!(out[0].evidence.contains("<U+200B>"), "{}", out[0].evidence);
        assert_eq!(drift.diff.changes.len(), 1);
        let mut out = Vec::new();
        assert!(
            check_now(
                &surface("d.json", false, "Search notes."),
                &lock,
                None,
                &mut out
            )
            .is_none()
        );
        assert!(out.is_empty());
    }

    #[test]
    fn unpinned_server_is_reported() {
        let lock = locked(&[]);
        let mut out = Vec::new();
        check_now(&surface("d.json", false, "x"), &lock, None, &mut out);
        assert_eq!(out[0].rule_id, crate::rules::ids::MTC_TOFU_005);
    }

    #[test]
    fn config_only_server_is_graded_on_its_snapshot_and_compared_with_its_descriptor() {
        let mut pinned = surface("mcp.json#notes", true, "pinned text");
        pinned.coverage = Coverage::Live;
        let lock = locked(&[pinned]);
        let mut cfg = surface("mcp.json#notes", true, "");
        cfg.tools.clear();
        cfg.coverage = Coverage::ConfigOnly;
        let desc = surface("servers/notes/tools.json", false, "descriptor text");
        let mut all = vec![cfg, desc];
        let dd = prepare(&mut all, &lock);
        assert_eq!(all[0].coverage, Coverage::Lockfile);
        assert_eq!(all[0].tools[0].description(), "pinned text");
        assert!(all[0].tools[0].location.as_ref().unwrap().path == "mcptrustchecker.lock");
        let mut out = Vec::new();
        let drift = check_now(&all[0], &lock, dd.get("mcp.json#notes"), &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].message.contains("servers/notes/tools.json"));
        assert!(drift.is_some());
    }
}
