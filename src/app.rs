//! The commands behind the CLI: each returns an exit code and writes its output,
//! so `main.rs` stays argument parsing only.

use crate::acquire::{self, AcquireOptions};
use crate::detect::{self, ScanOptions, ScanResult};
use crate::report::{self, Verdict};
use crate::score::Grade;
use anyhow::{Context, Result};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Exit codes (documented in the README).
pub mod exit {
    /// The gate passed.
    pub const OK: i32 = 0;
    /// The gate failed (a grade at or below `--fail-on`, or unreviewed drift).
    pub const GATE_FAILED: i32 = 1;
    /// A usage error, or an input that could not be read.
    pub const INPUT_ERROR: i32 = 2;
}

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
    pub options: ScanOptions,
    /// `--lockfile FILE` (default: `mcptrustchecker.lock` at the root, when present).
    pub lockfile: Option<PathBuf>,
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

/// Acquire and run the pipeline.
pub fn scan_tree(args: &ScanArgs) -> ScanResult {
    let paths = scan_paths(args);
    let root = scan_root(args);
    let opts = AcquireOptions {
        root,
        max_file_bytes: args.max_file_bytes,
        ..AcquireOptions::default()
    };
    // Installed configs have no repository root: only an explicit lockfile applies there.
    // The lockfile (up to tens of MB) is read while the configs are acquired.
    let load_options = || {
        if args.installed && args.lockfile.is_none() {
            (args.options.clone(), None)
        } else {
            crate::lockcmd::scan_options(
                &args.options,
                args.lockfile.as_deref(),
                &opts.root,
                args.max_file_bytes,
            )
        }
    };
    let ((options, lock_error), mut acquired) =
        rayon::join(load_options, || acquire::acquire_paths(&paths, &opts));
    // Live catalogs replace config-only ones before stage 7 compares them with the lockfile.
    if let Some(live) = &args.live {
        live_fill(&mut acquired, live);
    }
    let mut options = options;
    // Registry I/O happens here, before the pipeline: stages never do I/O.
    if let Some(cfg) = &options.online {
        options.registry_facts = Some(std::sync::Arc::new(acquire::registry::fetch(
            &acquired.surfaces,
            cfg,
        )));
    }
    let mut result = detect::run(acquired, &options);
    result
        .errors
        .extend(lock_error.filter(|e| !result.errors.contains(e)));
    // The options hold the parsed lockfile: freed beside the report, not before it.
    crate::parse::drop_in_background(options);
    result
}

/// Fill every surface from its running server and add the live findings.
/// Exposed for `lock --live`.
pub fn live_fill(
    acquired: &mut acquire::Acquired,
    live: &acquire::live::LiveOptions,
) -> Vec<acquire::live::LiveReport> {
    let reports = acquire::live::acquire_live_blocking(&mut acquired.surfaces, live);
    for (report, surface) in reports.iter().zip(acquired.surfaces.iter()) {
        acquired
            .findings
            .extend(acquire::live::findings(report, surface));
    }
    reports
}

/// Render a result in a format.
pub fn render(
    result: &ScanResult,
    verdict: &Verdict,
    format: Format,
    color: bool,
) -> Result<String> {
    render_with_baseline(result, verdict, format, color, None)
}

/// Render, comparing against an earlier report (used by the Markdown format only).
pub fn render_with_baseline(
    result: &ScanResult,
    verdict: &Verdict,
    format: Format,
    color: bool,
    baseline: Option<report::markdown::Baseline>,
) -> Result<String> {
    Ok(match format {
        Format::Json => report::json::render(result, verdict),
        Format::Terminal => {
            report::terminal::render(result, verdict, &report::terminal::Style { color })
        }
        Format::Sarif => report::sarif::render(result, verdict),
        Format::Markdown => report::markdown::render(
            result,
            verdict,
            &report::markdown::Options {
                baseline,
                ..Default::default()
            },
        ),
    })
}

/// Read `--baseline FILE` (a JSON report from an earlier scan).
pub fn read_baseline(path: &Path) -> Result<report::markdown::Baseline> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading baseline {}", path.display()))?;
    report::markdown::Baseline::from_json(&text)
        .map_err(|e| anyhow::anyhow!("baseline {}: {e}", path.display()))
}

/// Write to a file atomically, or to stdout. Stdout is where a CI runner reads
/// workflow commands, so every line there goes through the log escaper (JSON
/// and SARIF are already log-safe; a terminal report or Markdown with a hostile
/// `##[…]` or leading `::` is rewritten).
pub fn emit(text: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(p) => write_atomic(p, text.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(crate::text::log_text(text).as_bytes())
                .context("writing to stdout")?;
            out.flush().ok();
            Ok(())
        }
    }
}

/// One line to stderr, through the log escaper (a runner parses stderr too).
pub fn note(line: &str) {
    eprintln!("{}", crate::text::log_text(line));
}

/// Write through a temporary file in the same directory, then rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    // A temporary file is created 0600; reports and the lockfile are read by
    // others (the runner's user reads what a root container wrote): 0644.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("setting the permissions of {}", path.display()))?;
    }
    tmp.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// `mcptrustchecker scan`.
pub fn scan(args: &ScanArgs) -> Result<i32> {
    let baseline = args.baseline.as_deref().map(read_baseline).transpose()?;
    let mut result = scan_tree(args);
    let verdict = crate::policy::enforce(
        &mut result,
        &scan_root(args),
        args.options.policy.as_deref(),
        args.options.now,
        args.fail_on,
        args.max_file_bytes,
    )
    .map_err(|e| anyhow::anyhow!(crate::text::visible(&e.to_string())))?;
    let color = args.output.is_none()
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none();
    let text = match args.format {
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
        _ => render_with_baseline(&result, &verdict, args.format, color, baseline)?,
    };
    emit(&text, args.output.as_deref())?;
    if args.output.is_some() && args.format != Format::Terminal {
        // Keep a one-line verdict on stderr for humans when the report goes to a file.
        note(&verdict_line(&verdict));
    }
    for e in &result.errors {
        note(&format!("error: {}", crate::text::visible(&e.to_string())));
    }
    let code = exit_code(&verdict, !result.errors.is_empty());
    // The process exits next and the OS reclaims everything at once: freeing a
    // 10,000-tool result node by node cost about 5% of the whole run.
    std::mem::forget(result);
    std::mem::forget(text);
    Ok(code)
}

pub fn verdict_line(v: &Verdict) -> String {
    match (v.failed, v.worst_grade) {
        (true, _) => {
            // One line on stderr: a 1,000-server session names the first few only.
            const SHOWN: usize = 5;
            let mut line = format!(
                "gate failed: {}",
                v.reasons
                    .iter()
                    .take(SHOWN)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            if v.reasons.len() > SHOWN {
                line.push_str(&format!("; and {} more", v.reasons.len() - SHOWN));
            }
            line
        }
        (false, Some(g)) => format!("gate passed: worst grade {g}"),
        (false, None) => "gate passed: no MCP servers found".into(),
    }
}

/// 1 when the gate failed, else 2 when an input could not be read, else 0.
pub fn exit_code(v: &Verdict, input_errors: bool) -> i32 {
    if v.failed {
        exit::GATE_FAILED
    } else if input_errors {
        exit::INPUT_ERROR
    } else {
        exit::OK
    }
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
    let scan = ScanArgs {
        paths: a.paths.clone(),
        installed: false,
        format: Format::Json,
        output: None,
        fail_on: crate::score::FailOn::At(Grade::F),
        max_file_bytes: a.max_file_bytes,
        root: a.root.clone(),
        options: ScanOptions::default(),
        lockfile: None,
        live: None,
        baseline: None,
    };
    let root = scan_root(&scan);
    let result = scan_tree(&scan);
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
        acquire::confine::inside(&root, crate::lockfile::FILE_NAME).filter(|p| p.is_file())
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
