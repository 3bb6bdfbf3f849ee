//! What a run scans: on a change, the changed configs and descriptors under
//! `path` and every config a changed lockfile pins, each resolved inside the
//! workspace; elsewhere, everything.

use super::{bridge, summary};
use crate::acquire::{self, confine::Workspace};
use crate::lock::lockfile::Lockfile;
use std::path::Path;

/// What this run scans.
pub(super) struct Plan {
    /// `None`: the whole `path`; `Some`: these workspace-relative files.
    pub(super) files: Option<Vec<String>>,
    pub(super) lockfile_changed: bool,
    pub(super) scope: summary::Scope,
    pub(super) base: Option<String>,
}

/// Choose the changed files worth scanning: configs and descriptors under
/// `path`, and every config a changed lockfile pins. Every name (a changed
/// file, a lockfile id) goes through the workspace resolver: absolute paths,
/// `..` and symlinks leaving the workspace are skipped with a note.
#[allow(clippy::too_many_arguments)]
pub(super) fn select(
    ws: &Workspace,
    scan_rel: &str,
    lock_rel: &str,
    head_lock: Option<&Lockfile>,
    names: Vec<String>,
    how: String,
    mut notes: Vec<String>,
    base: Option<String>,
) -> Plan {
    let under =
        |f: &str| scan_rel.is_empty() || f == scan_rel || f.starts_with(&format!("{scan_rel}/"));
    let mut files = Vec::new();
    let mut lockfile_changed = false;
    let mut removed = 0;
    let mut refused = Vec::new();
    for f in &names {
        if f == lock_rel {
            lockfile_changed = true;
        } else if under(f) && acquire::is_candidate(Path::new(f)) {
            match ws.resolve(f) {
                Ok((abs, rel)) if abs.is_file() => files.push(rel),
                Ok(_) => removed += 1,
                Err(e) => refused.push(e.to_string()),
            }
        }
    }
    if let (true, Some(lock)) = (lockfile_changed, head_lock) {
        for p in bridge::pinned_paths(lock) {
            match ws.resolve(&p) {
                Ok((abs, rel)) if under(&rel) && abs.is_file() => files.push(rel),
                Ok(_) => {}
                Err(e) => refused.push(format!("lockfile entry {e}")),
            }
        }
    }
    for r in &refused {
        notes.push(format!("not read: {r}"));
    }
    files.sort();
    files.dedup();
    let mut how = format!(
        "{} changed files ({how}), {} MCP configs or descriptors scanned",
        names.len(),
        files.len()
    );
    if lockfile_changed {
        how.push_str(", lockfile changed");
    }
    if removed > 0 {
        how.push_str(&format!(", {removed} removed"));
    }
    if !refused.is_empty() {
        how.push_str(&format!(
            ", {} refused (outside the workspace)",
            refused.len()
        ));
    }
    Plan {
        files: Some(files),
        lockfile_changed,
        scope: summary::Scope {
            how,
            notes,
            ..Default::default()
        },
        base,
    }
}
