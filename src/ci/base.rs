//! The base side of a pull request, for the "change against the base" column:
//! the changed files as they were at the base commit, read with `git show` into
//! a scratch directory and run through the same pipeline (no live, no network).

use super::changed;
use crate::scan::{self, LockSource, Request, Source};
use crate::score::Grade;
use std::collections::BTreeMap;
use std::path::Path;

/// Score and grade per server id at `base`, for the given repo-relative files.
/// Files absent at the base are skipped (their servers are new).
pub fn scores(
    ws: &Path,
    base: &str,
    files: &[String],
    lockfile: &str,
    max_file_bytes: u64,
) -> Result<BTreeMap<String, (i64, Grade)>, String> {
    let tmp = tempfile::tempdir().map_err(|e| format!("scratch directory: {e}"))?;
    let mut paths = Vec::new();
    for f in files.iter().chain(std::iter::once(&lockfile.to_string())) {
        let Some(text) = changed::show(ws, base, f) else {
            continue;
        };
        if text.len() as u64 > max_file_bytes {
            continue;
        }
        let dst = tmp.path().join(f);
        if let Some(parent) = dst.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("scratch directory: {e}"))?;
        }
        std::fs::write(&dst, text).map_err(|e| format!("scratch file: {e}"))?;
        if f != lockfile {
            paths.push(dst);
        }
    }
    if paths.is_empty() {
        return Ok(BTreeMap::new());
    }
    let lock = tmp.path().join(lockfile);
    let mut request = Request::new(Source::Paths(paths), tmp.path(), max_file_bytes);
    request.lockfile = LockSource::Find(lock.is_file().then_some(lock));
    let result = scan::run(request).map_err(|e| e.to_string())?.result;
    Ok(result
        .servers
        .iter()
        .map(|s| (s.surface.id.clone(), (s.score.value, s.score.grade)))
        .collect())
}
