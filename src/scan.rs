//! The one pipeline every command runs: acquire (files, then live catalogs
//! and registry facts when asked) → stages → integrity against the lockfile →
//! policy → score. `scan`, `lock`, `diff`, `ci` (head and base) and
//! `policy init` differ only in the [`Request`] they build; the gate
//! ([`crate::gate`]) judges what comes out.

use crate::acquire::live::{LiveOptions, LiveReport};
use crate::acquire::registry::RegistryConfig;
use crate::acquire::{self, AcquireOptions, Acquired};
use crate::detect::{self, ScanOptions};
use crate::lock::lockfile::Lockfile;
use crate::model::ScanResult;
use crate::parse::InputError;
use crate::policy::{Date, Policy};
use crate::score::FailOn;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What to read.
#[derive(Debug)]
pub enum Source {
    /// Files or directories, acquired by the pipeline.
    Paths(Vec<PathBuf>),
    /// Already acquired (`ci` selects and filters the changed files itself).
    Acquired(Acquired),
}

/// Which lockfile integrity compares with.
#[derive(Debug, Clone, Default)]
pub enum LockSource {
    /// None: no integrity stage.
    #[default]
    None,
    /// `--lockfile FILE`, else `mcptrustchecker.lock` at the root when present.
    /// A broken one becomes an input error of the result.
    Find(Option<PathBuf>),
    /// Already read.
    Given(Arc<Lockfile>),
}

/// Which policy judges the result.
#[derive(Debug, Clone, Default)]
pub enum PolicySource {
    /// None: the plain grade gate.
    #[default]
    None,
    /// `--policy FILE`, else `mcptrustchecker.toml` at the root when present;
    /// a missing explicit file or a malformed one stops the run.
    Find(Option<PathBuf>),
    /// Already read (`ci`: the base commit's policy).
    Given(Policy),
}

/// How the policy is applied.
#[derive(Debug, Clone, Copy)]
pub struct Judging {
    /// `--fail-on` (the policy may make it stricter).
    pub fail_on: FailOn,
    /// The date expiries are judged against (default today, UTC).
    pub now: Option<Date>,
    /// Whether a server's policy verdict counts its drift (see `policy::apply`).
    pub drift_in_verdicts: bool,
}

impl Default for Judging {
    fn default() -> Self {
        Judging {
            fail_on: FailOn::At(crate::score::Grade::F),
            now: None,
            drift_in_verdicts: true,
        }
    }
}

/// One run of the pipeline.
#[derive(Debug)]
pub struct Request {
    pub source: Source,
    /// The root ids and paths are relative to, the file-size bound, confinement.
    pub acquire: AcquireOptions,
    pub lockfile: LockSource,
    /// Read each catalog from its running server (`--live`).
    pub live: Option<LiveOptions>,
    /// Ask the registries before the stages (`--online`).
    pub online: Option<RegistryConfig>,
    /// What the stages read (the pipeline fills in the lockfile and registry facts).
    pub stages: ScanOptions,
    pub policy: PolicySource,
    pub judging: Judging,
}

impl Request {
    /// Defaults everywhere but the source and the root.
    pub fn new(source: Source, root: &Path, max_file_bytes: u64) -> Request {
        Request {
            source,
            acquire: AcquireOptions {
                root: root.to_path_buf(),
                max_file_bytes,
                ..AcquireOptions::default()
            },
            lockfile: LockSource::None,
            live: None,
            online: None,
            stages: ScanOptions::default(),
            policy: PolicySource::None,
            judging: Judging::default(),
        }
    }
}

/// What the pipeline produced.
#[derive(Debug)]
pub struct Scanned {
    pub result: ScanResult,
    /// One report per server contacted live (empty without `--live`).
    pub live: Vec<LiveReport>,
}

/// Acquire only: read the source, then fill catalogs from the running servers
/// when asked (live catalogs replace config-only ones). `lock` stops here.
pub fn acquire(
    source: Source,
    opts: &AcquireOptions,
    live: Option<&LiveOptions>,
) -> (Acquired, Vec<LiveReport>) {
    let mut acquired = match source {
        Source::Paths(paths) => acquire::acquire_paths(&paths, opts),
        Source::Acquired(a) => a,
    };
    let reports = live
        .map(|l| live_fill(&mut acquired, l))
        .unwrap_or_default();
    (acquired, reports)
}

/// Fill every surface from its running server and add the live findings.
fn live_fill(acquired: &mut Acquired, live: &LiveOptions) -> Vec<LiveReport> {
    let reports = acquire::live::acquire_live_blocking(&mut acquired.surfaces, live);
    for (report, surface) in reports.iter().zip(acquired.surfaces.iter()) {
        acquired
            .findings
            .extend(acquire::live::findings(report, surface));
    }
    reports
}

/// Run the whole pipeline. The only error is a policy that cannot be read;
/// unreadable inputs (a config, the lockfile) are errors inside the result.
pub fn run(req: Request) -> Result<Scanned, InputError> {
    let Request {
        source,
        acquire: opts,
        lockfile,
        live,
        online,
        mut stages,
        policy,
        judging,
    } = req;
    // The lockfile (up to tens of MB) is read while the configs are acquired.
    let load_lock = || match lockfile {
        LockSource::None => (None, None),
        LockSource::Given(l) => (Some(l), None),
        LockSource::Find(explicit) => {
            // The pipeline only compares with the lockfile, never writes it.
            match crate::lock::lockfile::load_lock(
                explicit.as_deref(),
                &opts.root,
                opts.max_file_bytes,
                false,
            ) {
                Ok(l) => (l.map(Arc::new), None),
                Err(e) => (None, Some(e)),
            }
        }
    };
    let ((lock, lock_error), (acquired, live_reports)) =
        rayon::join(load_lock, || acquire(source, &opts, live.as_ref()));
    stages.lockfile = lock;
    // Registry I/O happens here, before the stages: stages never do I/O.
    if let Some(cfg) = &online {
        stages.registry_facts = Some(Arc::new(acquire::registry::fetch(&acquired.surfaces, cfg)));
    }
    let mut result = detect::run(acquired, &stages);
    result
        .errors
        .extend(lock_error.filter(|e| !result.errors.contains(e)));
    // The options hold the parsed lockfile: freed beside the report, not before it.
    crate::parse::drop_in_background(stages);
    let policy = match policy {
        PolicySource::None => None,
        PolicySource::Given(p) => Some(p),
        PolicySource::Find(explicit) => {
            crate::policy::find(&opts.root, explicit.as_deref(), opts.max_file_bytes)?
        }
    };
    if let Some(p) = &policy {
        crate::policy::apply(
            &mut result,
            p,
            judging.now.unwrap_or_else(Date::today_utc),
            judging.fail_on,
            &opts.root,
            judging.drift_in_verdicts,
        );
    }
    Ok(Scanned {
        result,
        live: live_reports,
    })
}
