//! Pinning: which surfaces can be pinned, writing them into a [`Lockfile`]
//! (only changed entries move), and reading a pinned catalog back into a
//! config-only surface.

use crate::lock::canonical::Snapshot;
use crate::lock::lockfile::{Entry, Lockfile};
use crate::surface::{Coverage, ServerSurface};

/// Whether a surface's catalog was actually read (so it can be pinned).
pub fn acquired(s: &ServerSurface) -> bool {
    matches!(
        s.coverage,
        Coverage::Live | Coverage::Manifest | Coverage::Empty
    )
}

/// What `lock` did, per server id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockReport {
    pub added: Vec<String>,
    pub updated: Vec<String>,
    pub unchanged: Vec<String>,
    /// Pinned servers whose surface could not be acquired: old entry kept, with why.
    pub kept: Vec<(String, String)>,
    /// Servers whose surface could not be acquired and that have no entry: not pinned.
    pub not_locked: Vec<(String, String)>,
    pub removed: Vec<String>,
}

impl LockReport {
    pub fn render(&self, path: &str) -> String {
        let mut s = format!(
            "{}: {} added, {} updated, {} unchanged, {} removed\n",
            crate::text::visible(path),
            self.added.len(),
            self.updated.len(),
            self.unchanged.len(),
            self.removed.len()
        );
        for (label, ids) in [
            ("added", &self.added),
            ("updated", &self.updated),
            ("removed", &self.removed),
        ] {
            for id in ids {
                s.push_str(&format!("  {label}: {}\n", crate::text::visible(id)));
            }
        }
        for (id, why) in &self.kept {
            s.push_str(&format!(
                "  kept old entry: {} ({})\n",
                crate::text::visible(id),
                why
            ));
        }
        for (id, why) in &self.not_locked {
            s.push_str(&format!(
                "  not locked: {} ({})\n",
                crate::text::visible(id),
                why
            ));
        }
        s
    }
}

fn why_not(s: &ServerSurface) -> String {
    format!(
        "catalog not acquired, coverage {}: commit a descriptor or lock it live",
        s.coverage.as_str()
    )
}

/// Pin `surfaces` into `lock`: the entry point for any acquisition (files, live).
/// Entries whose digest is unchanged are left exactly as they were; surfaces
/// not acquired keep their old entry; `stale` ids are removed.
pub fn lock_surfaces(
    lock: &mut Lockfile,
    surfaces: &[ServerSurface],
    stale: &[String],
) -> LockReport {
    let mut report = LockReport::default();
    for s in surfaces {
        if !acquired(s) {
            if lock.entries.contains_key(&s.id) {
                report.kept.push((s.id.clone(), why_not(s)));
            } else {
                report.not_locked.push((s.id.clone(), why_not(s)));
            }
            continue;
        }
        let snap = Snapshot::of(s);
        let digest = snap.digest();
        match lock.entries.get(&s.id) {
            Some(e) if e.digest == digest && e.snapshot.digest() == digest => {
                report.unchanged.push(s.id.clone())
            }
            Some(_) => {
                lock.entries
                    .insert(s.id.clone(), Entry::from_snapshot(snap));
                report.updated.push(s.id.clone());
            }
            None => {
                lock.entries
                    .insert(s.id.clone(), Entry::from_snapshot(snap));
                report.added.push(s.id.clone());
            }
        }
    }
    for id in stale {
        if lock.entries.remove(id).is_some() {
            report.removed.push(id.clone());
        }
    }
    report
}

/// Give a config-only surface the catalog of its lockfile snapshot (coverage
/// `lockfile`), so `scan` grades the reviewed snapshot. Launch facts stay the config's.
pub fn fill_from_snapshot(s: &mut ServerSurface, e: &Entry) {
    s.tools = e.surface_items("tools");
    s.prompts = e.surface_items("prompts");
    s.resources = e.surface_items("resources");
    s.resource_templates = e.surface_items("resourceTemplates");
    s.instructions = e.snapshot.instructions.clone();
    s.capabilities = e.snapshot.capabilities.clone();
    s.protocol_version = e.snapshot.protocol_version.clone();
    s.coverage = Coverage::Lockfile;
    s.notes.push(format!(
        "catalog read from the lockfile snapshot at {}:{}",
        e.location.path, e.location.line
    ));
}
