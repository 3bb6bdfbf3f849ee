//! The `lock` and `diff` commands, and the lockfile lookup the pipeline shares with them.

use crate::acquire::{self, AcquireOptions};
use crate::gate;
use crate::lock::canonical::Snapshot;
use crate::lock::lockfile::{Lockfile, load_lock, lock_path};
use crate::model::ScanResult;
use crate::output::{emit, exit, note, write_atomic};
use crate::parse::InputError;
use crate::scan::{self, LockSource, Request, Source};
use crate::text::visible;
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

/// Options shared by `lock` and `diff`.
#[derive(Debug, Clone)]
pub struct LockArgs {
    pub paths: Vec<PathBuf>,
    /// `--lockfile FILE` (default: `mcptrustchecker.lock` at the repository root).
    pub lockfile: Option<PathBuf>,
    pub root: Option<PathBuf>,
    pub max_file_bytes: u64,
    /// `diff --format json`.
    pub json: bool,
    /// `--live`: read catalogs from the running servers (sandboxed) before pinning or comparing.
    pub live: Option<crate::acquire::live::LiveOptions>,
}

impl LockArgs {
    fn paths(&self) -> Vec<PathBuf> {
        if self.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            self.paths.clone()
        }
    }
    fn root(&self, paths: &[PathBuf]) -> PathBuf {
        self.root
            .clone()
            .unwrap_or_else(|| acquire::find_root(&paths[0]))
    }
}

fn print_errors(errors: &[InputError]) {
    for e in errors {
        note(&format!("error: {}", visible(&e.to_string())));
    }
}

/// `mcptrustchecker lock`: pin every acquired surface; only changed entries are rewritten.
pub fn lock(args: &LockArgs) -> Result<i32> {
    let paths = args.paths();
    let root = args.root(&paths);
    let path = lock_path(args.lockfile.as_deref(), &root);
    let display = acquire::display_path(&path, &root);
    let before = if path.exists() {
        Some(std::fs::read(&path).with_context(|| format!("reading {display}"))?)
    } else {
        None
    };
    let mut lock = match load_lock(Some(&path), &root, args.max_file_bytes, true) {
        Ok(Some(l)) => l,
        Ok(None) => Lockfile::empty(&display),
        Err(_) if before.is_none() => Lockfile::empty(&display),
        Err(e) => anyhow::bail!(
            "{} (the lockfile was left unchanged)",
            visible(&e.to_string())
        ),
    };
    let opts = AcquireOptions {
        root: root.clone(),
        max_file_bytes: args.max_file_bytes,
        ..AcquireOptions::default()
    };
    // Live catalogs replace config-only ones, so `lock --live` pins what the servers serve.
    let (acquired, _) = scan::acquire(Source::Paths(paths), &opts, args.live.as_ref());
    let ids: Vec<&str> = acquired.surfaces.iter().map(|s| s.id.as_str()).collect();
    let read: BTreeSet<String> = acquired.files.iter().map(|(f, _)| f.clone()).collect();
    let failed: BTreeSet<String> = acquired.errors.iter().map(|e| e.path.clone()).collect();
    let stale = lock.stale(&ids, &read, &failed);
    let report = crate::lock::pin::lock_surfaces(&mut lock, &acquired.surfaces, &stale);
    let text = lock.to_text();
    if before.as_deref() != Some(text.as_bytes()) {
        write_atomic(&path, text.as_bytes())?;
    }
    emit(&report.render(&display), None)?;
    print_errors(&acquired.errors);
    Ok(if acquired.errors.is_empty() {
        exit::OK
    } else {
        exit::INPUT_ERROR
    })
}

/// What `diff` found.
#[derive(Debug, Default, serde::Serialize)]
pub struct DiffOutcome {
    pub lockfile: String,
    /// Pinned servers whose surface changed.
    pub drift: Vec<crate::lock::diff::CatalogDiff>,
    /// Servers with no entry: everything they bring is new.
    pub unpinned: Vec<crate::lock::diff::CatalogDiff>,
    /// Entries with no server any more.
    pub stale: Vec<String>,
    pub errors: Vec<InputError>,
}

impl DiffOutcome {
    pub fn changed(&self) -> bool {
        !(self.drift.is_empty() && self.unpinned.is_empty() && self.stale.is_empty())
    }

    pub fn render_terminal(&self, servers: usize) -> String {
        let mut s = String::new();
        for d in self.drift.iter().chain(&self.unpinned) {
            s.push_str(&crate::lock::diff::render_terminal(d));
        }
        for id in &self.stale {
            s.push_str(&format!(
                "{}: pinned in {} but no longer declared (stale entry)\n",
                visible(id),
                visible(&self.lockfile)
            ));
        }
        if !self.changed() {
            s.push_str(&format!(
                "no drift: {servers} server(s) match {}\n",
                visible(&self.lockfile)
            ));
        } else {
            s.push_str(&format!(
                "\n{} drifted, {} unpinned, {} stale. Review the changes, then run `mcptrustchecker lock` and commit {} to approve them.\n",
                self.drift.len(),
                self.unpinned.len(),
                self.stale.len(),
                visible(&self.lockfile)
            ));
        }
        s
    }
}

/// The drift of a scan result against its lockfile.
pub fn outcome(result: &ScanResult, lockfile: &str) -> DiffOutcome {
    let mut o = DiffOutcome {
        lockfile: lockfile.to_string(),
        stale: result.stale.clone(),
        errors: result.errors.clone(),
        ..DiffOutcome::default()
    };
    for s in &result.servers {
        if let Some(d) = &s.drift {
            o.drift.push(d.diff.clone());
        } else if result.unpinned.contains(&s.surface.id) {
            let mut d = crate::lock::diff::added_server(&s.surface.id, &Snapshot::of(&s.surface));
            if !crate::lock::pin::acquired(&s.surface) {
                d.changes[0].summary.push_str(&format!(
                    " (catalog not acquired: coverage {})",
                    s.surface.coverage.as_str()
                ));
            }
            o.unpinned.push(d);
        }
    }
    o
}

/// `mcptrustchecker diff`: the semantic diff between the tree and the lockfile; exit 1 on any drift.
pub fn diff(args: &LockArgs) -> Result<i32> {
    let paths = args.paths();
    let root = args.root(&paths);
    let path = lock_path(args.lockfile.as_deref(), &root);
    let display = acquire::display_path(&path, &root);
    let lock = match load_lock(Some(&path), &root, args.max_file_bytes, false) {
        Ok(Some(l)) => l,
        // An explicit path that is missing is an error; `None` cannot come
        // back, but if it did it would mean the same thing.
        Ok(None) => anyhow::bail!(
            "{}: no lockfile; run `mcptrustchecker lock` first",
            visible(&display)
        ),
        Err(e) if !path.exists() => anyhow::bail!(
            "{}: no lockfile; run `mcptrustchecker lock` first",
            visible(&e.path)
        ),
        Err(e) => anyhow::bail!("{}", visible(&e.to_string())),
    };
    let mut request = Request::new(Source::Paths(paths), &root, args.max_file_bytes);
    request.lockfile = LockSource::Given(Arc::new(lock));
    request.live = args.live.clone();
    let result = scan::run(request)
        .map_err(|e| anyhow::anyhow!("{}", visible(&e.to_string())))?
        .result;
    let o = outcome(&result, &display);
    let text = if args.json {
        format!(
            "{}\n",
            crate::text::log_json(
                serde_json::to_string_pretty(&o).context("serialising the diff")?
            )
        )
    } else {
        o.render_terminal(result.servers.len())
    };
    emit(&text, None)?;
    print_errors(&result.errors);
    Ok(gate::drift_exit_code(
        o.changed(),
        !result.errors.is_empty(),
    ))
}
