//! Where the CI mode meets the lockfile and the report renderers: each function
//! here is the single switch point to the shared implementation.

use crate::lock::diff::CatalogDiff;
use crate::lock::lockfile::{Lockfile, id_file};
use crate::model::ScanResult;
use crate::model::Verdict;
use std::path::Path;
use std::sync::Arc;

/// The head lockfile (`None` when the repository has none yet), read once and
/// shared by the file selection, the pipeline and the reviewed-change diff. CI
/// never writes it, so no raw copies are kept. A malformed lockfile is an error
/// naming the file and the position.
pub fn load_lock(
    abs: &Path,
    display: &str,
    root: &Path,
    max_bytes: u64,
) -> Result<Option<Arc<Lockfile>>, String> {
    if !abs.exists() {
        return Ok(None);
    }
    Lockfile::load(abs, display, root, max_bytes, false)
        .map(|l| Some(Arc::new(l)))
        .map_err(|e| crate::text::visible(&e.to_string()))
}

/// Config files (or descriptors) whose servers a lockfile pins.
pub fn pinned_paths(lock: &Lockfile) -> Vec<String> {
    let mut v: Vec<String> = lock
        .entries
        .keys()
        .map(|id| id_file(id).to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The reviewed change: base lockfile → head lockfile, server by server.
pub fn lockfile_diff(
    base: Option<&str>,
    head: &Lockfile,
    display: &str,
) -> Result<Vec<CatalogDiff>, String> {
    let before = match base {
        Some(t) => Lockfile::parse(t, &format!("{display} (base)"))
            .map_err(|e| crate::text::visible(&e.to_string()))?,
        None => Lockfile::empty(display),
    };
    Ok(crate::lock::diff::diff_lockfiles(&before, head))
}

/// SARIF 2.1.0 for code scanning: the `category` input, and full regions
/// from the workspace's files.
pub fn sarif(
    r: &ScanResult,
    verdict: &Verdict,
    category: Option<&str>,
    ws: &std::path::Path,
    max_bytes: u64,
) -> String {
    use crate::report::sarif::{LineIndex, Options, render_opts};
    let opts = Options {
        category: category.map(str::to_string),
        lines: LineIndex::read(ws, r, max_bytes),
        ..Options::default()
    };
    render_opts(r, verdict, &opts)
}

/// Scores at the base commit, by server id (the "change" column).
pub type Baseline = std::collections::BTreeMap<String, (i64, crate::score::Grade)>;

/// The Markdown report (job summary and PR comment) with the CI context.
pub fn markdown(
    r: &ScanResult,
    verdict: &Verdict,
    baseline: Option<Baseline>,
    fail_on: crate::score::FailOn,
    ctx: &crate::report::markdown::Context,
) -> String {
    use crate::report::markdown::{self, Options};
    let opts = Options {
        baseline: baseline.map(|servers| markdown::Baseline { servers }),
        max_chars: markdown::MAX_CHARS,
        fail_on,
    };
    markdown::render_in(r, verdict, &opts, ctx)
}
