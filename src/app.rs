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
    pub fail_on: Grade,
    pub max_file_bytes: u64,
    pub root: Option<PathBuf>,
    pub options: ScanOptions,
    /// `--lockfile FILE` (default: `mcptrustchecker.lock` at the root, when present).
    pub lockfile: Option<PathBuf>,
}

/// Acquire and run the pipeline.
pub fn scan_tree(args: &ScanArgs) -> ScanResult {
    let paths: Vec<PathBuf> = if args.installed {
        acquire::installed::installed_configs()
    } else if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let root = args.root.clone().unwrap_or_else(|| {
        if args.installed {
            PathBuf::from("/")
        } else {
            acquire::find_root(&paths[0])
        }
    });
    let opts = AcquireOptions {
        root,
        max_file_bytes: args.max_file_bytes,
        ..AcquireOptions::default()
    };
    // Installed configs have no repository root: only an explicit lockfile applies there.
    let (options, lock_error) = if args.installed && args.lockfile.is_none() {
        (args.options.clone(), None)
    } else {
        crate::lockcmd::scan_options(&args.options, args.lockfile.as_deref(), &opts.root)
    };
    let acquired = acquire::acquire_paths(&paths, &opts);
    let mut result = detect::run(acquired, &options);
    result
        .errors
        .extend(lock_error.filter(|e| !result.errors.contains(e)));
    result
}

/// Render a result in a format.
pub fn render(
    result: &ScanResult,
    verdict: &Verdict,
    format: Format,
    color: bool,
) -> Result<String> {
    Ok(match format {
        Format::Json => report::json::render(result, verdict),
        Format::Terminal => {
            report::terminal::render(result, verdict, &report::terminal::Style { color })
        }
        Format::Sarif => anyhow::bail!("--format sarif is not available yet"),
        Format::Markdown => anyhow::bail!("--format markdown is not available yet"),
    })
}

/// Write to a file atomically, or to stdout.
pub fn emit(text: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(p) => write_atomic(p, text.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .context("writing to stdout")?;
            out.flush().ok();
            Ok(())
        }
    }
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
    tmp.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// `mcptrustchecker scan`.
pub fn scan(args: &ScanArgs) -> Result<i32> {
    let result = scan_tree(args);
    let verdict = report::verdict(&result, args.fail_on);
    let color = args.output.is_none()
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none();
    let text = render(&result, &verdict, args.format, color)?;
    emit(&text, args.output.as_deref())?;
    if args.output.is_some() && args.format != Format::Terminal {
        // Keep a one-line verdict on stderr for humans when the report goes to a file.
        eprintln!("{}", verdict_line(&verdict));
    }
    for e in &result.errors {
        eprintln!("error: {}", crate::text::visible(&e.to_string()));
    }
    Ok(exit_code(&verdict, !result.errors.is_empty()))
}

pub fn verdict_line(v: &Verdict) -> String {
    match (v.failed, v.worst_grade) {
        (true, _) => format!("gate failed: {}", v.reasons.join("; ")),
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
