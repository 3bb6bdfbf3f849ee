//! The commands behind the CLI: each returns an exit code and writes its output,
//! so `main.rs` stays argument parsing only.

use crate::acquire;
use crate::detect::ScanOptions;
use crate::gate::{self, DriftRule};
use crate::output::{emit, exit, note, write_atomic};
use crate::report;
use crate::scan::{self, Judging, LockSource, PolicySource, Request, Source};
use anyhow::{Context, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Terminal,
    Json,
    Sarif,
    Markdown,
}

/// Options of `scan`.
#[derive(Debug, Clone)]
pub struct ScanArgs {
    pub paths: Vec<PathBuf>,
    pub installed: bool,
    pub format: Format,
    pub output: Option<PathBuf>,
    pub fail_on: crate::score::FailOn,
    pub max_file_bytes: u64,
    pub root: Option<PathBuf>,
    /// What the stages read.
    pub options: ScanOptions,
    /// `--lockfile FILE` (default: `mcptrustchecker.lock` at the root, when present).
    pub lockfile: Option<PathBuf>,
    /// `--policy FILE` (default: `mcptrustchecker.toml` at the root, when present).
    pub policy: Option<PathBuf>,
    /// The date expiries are judged against (`--now` / `MTC_NOW`; default today, UTC).
    pub now: Option<crate::policy::Date>,
    /// `--online`: the registries to ask before the stages (`None`: offline).
    pub online: Option<acquire::registry::RegistryConfig>,
    /// Read catalogs from the running servers (`--live`).
    pub live: Option<acquire::live::LiveOptions>,
    /// An earlier JSON report to compare scores against (Markdown "Change" column).
    pub baseline: Option<PathBuf>,
}

fn scan_paths(args: &ScanArgs) -> Vec<PathBuf> {
    if args.installed {
        acquire::installed::installed_configs()
    } else if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    }
}

/// The repository root a scan's ids, paths and policy file are relative to.
pub fn scan_root(args: &ScanArgs) -> PathBuf {
    args.root.clone().unwrap_or_else(|| {
        if args.installed {
            PathBuf::from("/")
        } else {
            acquire::find_root(&scan_paths(args)[0])
        }
    })
}

/// The pipeline request of a `scan`.
fn request(args: &ScanArgs) -> Request {
    let mut req = Request::new(
        Source::Paths(scan_paths(args)),
        &scan_root(args),
        args.max_file_bytes,
    );
    // Installed configs have no repository root: only an explicit lockfile applies there.
    req.lockfile = if args.installed && args.lockfile.is_none() {
        LockSource::None
    } else {
        LockSource::Find(args.lockfile.clone())
    };
    req.live = args.live.clone();
    req.online = args.online.clone();
    req.stages = args.options.clone();
    req.policy = PolicySource::Find(args.policy.clone());
    req.judging = Judging {
        fail_on: args.fail_on,
        now: args.now,
        drift_in_verdicts: true,
    };
    req
}

/// Read `--baseline FILE` (a JSON report from an earlier scan).
pub fn read_baseline(path: &Path) -> Result<report::markdown::Baseline> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading baseline {}", path.display()))?;
    report::markdown::Baseline::from_json(&text)
        .map_err(|e| anyhow::anyhow!("baseline {}: {e}", path.display()))
}

/// `mcptrustchecker scan`.
pub fn scan(args: &ScanArgs) -> Result<i32> {
    let baseline = args.baseline.as_deref().map(read_baseline).transpose()?;
    let result = scan::run(request(args))
        .map_err(|e| anyhow::anyhow!(crate::text::visible(&e.to_string())))?
        .result;
    let verdict = gate::decide(&result, args.fail_on, DriftRule::Always).verdict;
    let color = args.output.is_none()
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none();
    let text = match args.format {
        Format::Json => report::json::render(&result, &verdict),
        Format::Terminal => {
            report::terminal::render(&result, &verdict, &report::terminal::Style { color })
        }
        // Full regions need the lines of the files the results sit in.
        Format::Sarif => report::sarif::render_opts(
            &result,
            &verdict,
            &report::sarif::Options {
                lines: report::sarif::LineIndex::read(
                    &scan_root(args),
                    &result,
                    args.max_file_bytes,
                ),
                ..Default::default()
            },
        ),
        Format::Markdown => report::markdown::render(
            &result,
            &verdict,
            &report::markdown::Options {
                baseline,
                fail_on: args.fail_on,
                ..Default::default()
            },
        ),
    };
    emit(&text, args.output.as_deref())?;
    if args.output.is_some() && args.format != Format::Terminal {
        // Keep a one-line verdict on stderr for humans when the report goes to a file.
        note(&gate::verdict_line(&verdict));
    }
    for e in &result.errors {
        note(&format!("error: {}", crate::text::visible(&e.to_string())));
    }
    let code = gate::exit_code(&verdict, !result.errors.is_empty());
    // The process exits next and the OS reclaims everything at once: freeing a
    // 10,000-tool result node by node cost about 5% of the whole run.
    std::mem::forget(result);
    std::mem::forget(text);
    Ok(code)
}

/// `mcptrustchecker rules`.
pub fn rules() -> String {
    let mut out = String::new();
    for r in crate::rules::all() {
        out.push_str(&format!(
            "{:<20} {:<8} {:<10} {:<13} {}\n",
            r.id,
            r.severity.as_str(),
            r.confidence.as_str(),
            r.category.as_str(),
            r.title
        ));
    }
    out
}

/// `mcptrustchecker rules --markdown`: the catalogue as `docs/rules.md` (kept in
/// sync by a test), one anchored section per rule so `help_uri` links resolve.
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Rule catalogue\n\nGenerated by `mcptrustchecker rules --markdown` from `src/data/rules/*.toml`; do not edit by hand.\n\n| id | severity | confidence | category | title |\n|---|---|---|---|---|\n",
    );
    for r in crate::rules::all() {
        out.push_str(&format!(
            "| [{}](#{}) | {} | {} | {} | {} |\n",
            r.id,
            r.id.to_ascii_lowercase(),
            r.severity,
            r.confidence,
            r.category,
            r.title
        ));
    }
    for r in crate::rules::all() {
        out.push_str(&format!(
            "\n<a id=\"{}\"></a>\n## {} — {}\n\n*{} · {} · {} · stage {}*\n\n**What it detects.** {}\n\n**Why it matters.** {}\n\n**How to fix it.** {}\n",
            r.id.to_ascii_lowercase(),
            r.id,
            r.title,
            r.severity,
            r.confidence,
            r.category,
            r.stage,
            r.what,
            r.why,
            r.fix
        ));
    }
    out
}

/// `mcptrustchecker explain ID`.
pub fn explain(id: &str) -> Option<String> {
    let r = crate::rules::get(id)?;
    Some(format!(
        "{} — {}\n\nseverity {} · confidence {} · category {} · stage {}\n\nWhat it detects\n  {}\n\nWhy it matters\n  {}\n\nHow to fix it\n  {}\n\nMore: {}\n",
        r.id,
        r.title,
        r.severity,
        r.confidence,
        r.category,
        r.stage,
        r.what,
        r.why,
        r.fix,
        crate::rules::help_uri(&r.id)
    ))
}

/// Options of `policy init`.
#[derive(Debug, Clone)]
pub struct PolicyInitArgs {
    pub paths: Vec<PathBuf>,
    /// Where to write (default: `mcptrustchecker.toml` at the root).
    pub output: Option<PathBuf>,
    pub force: bool,
    pub root: Option<PathBuf>,
    pub now: Option<crate::policy::Date>,
    pub max_file_bytes: u64,
}

/// `mcptrustchecker policy init`: draft a policy from the current configs (and lockfile).
pub fn policy_init(a: &PolicyInitArgs) -> Result<i32> {
    let paths = if a.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        a.paths.clone()
    };
    let root = a
        .root
        .clone()
        .unwrap_or_else(|| acquire::find_root(&paths[0]));
    let mut req = Request::new(Source::Paths(paths), &root, a.max_file_bytes);
    req.lockfile = LockSource::Find(None);
    let result = scan::run(req)
        .map_err(|e| anyhow::anyhow!(crate::text::visible(&e.to_string())))?
        .result;
    if let Some(e) = result.errors.first() {
        anyhow::bail!(
            "cannot draft a policy from unreadable input: {}",
            crate::text::visible(&e.to_string())
        );
    }
    let out = a
        .output
        .clone()
        .unwrap_or_else(|| root.join(crate::policy::DEFAULT_FILE));
    if out.exists() && !a.force {
        anyhow::bail!(
            "{} already exists; pass --force to overwrite it",
            out.display()
        );
    }
    // The repository's own lockfile, read only inside the repository.
    let lock = if let Some(lock_path) =
        acquire::confine::inside(&root, crate::lock::lockfile::FILE_NAME).filter(|p| p.is_file())
    {
        let display = acquire::display_path(&lock_path, &root);
        let text = crate::parse::read_text(&lock_path, &display, a.max_file_bytes)
            .map_err(|e| anyhow::anyhow!(e.to_string()))?;
        Some(
            crate::parse::jsonc(&text, &display)
                .map_err(|e| anyhow::anyhow!(e.to_string()))?
                .value,
        )
    } else {
        None
    };
    let now = a.now.unwrap_or_else(crate::policy::Date::today_utc);
    let text = crate::policy::init::render(&result, lock.as_ref(), now);
    write_atomic(&out, text.as_bytes())?;
    let n = result
        .servers
        .iter()
        .filter(|s| !s.surface.disabled)
        .count();
    note(&format!(
        "wrote {} with {n} server entr{}: set each owner and narrow the allowlists before committing",
        out.display(),
        if n == 1 { "y" } else { "ies" }
    ));
    Ok(exit::OK)
}
