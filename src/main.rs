//! Command-line entry point: argument parsing only; the work is in `app`.
#![forbid(unsafe_code)]

/// mimalloc: the pipeline allocates many small strings and JSON nodes; the
/// measured 10,000-tool scan spent about a fifth of its time in glibc malloc/free.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use mcptrustchecker::acquire::live::LiveOptions;
use mcptrustchecker::acquire::registry::RegistryConfig;
use mcptrustchecker::app::{self, Format, ScanArgs};
use mcptrustchecker::detect::ScanOptions;
use mcptrustchecker::lock::cmd::{self as lockcmd, LockArgs};
use mcptrustchecker::output::{emit, exit, note};
use mcptrustchecker::policy::Date;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "mcptrustchecker",
    version,
    about = "Deterministic, offline-first security scanner for MCP servers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Scan MCP client configs, server descriptors and tool manifests.
    Scan(Box<ScanCmd>),
    /// Pin every server's surface into the lockfile (only changed entries are rewritten).
    Lock(LockCmd),
    /// Show the semantic diff between the servers and the lockfile; exit 1 on drift.
    Diff(DiffCmd),
    /// List every rule.
    Rules {
        /// Print the catalogue as Markdown (the source of docs/rules.md).
        #[arg(long)]
        markdown: bool,
    },
    /// Work with the policy file (`mcptrustchecker.toml`).
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
    /// Explain one rule: what, why, how to fix.
    Explain {
        /// Rule id, e.g. MTC-UNI-001.
        id: String,
    },
    /// The CI gate and GitHub Action entrypoint (reads the GitHub environment).
    Ci(CiCmd),
}

#[derive(clap::Args)]
struct CiCmd {
    /// Base revision: scan what changed between it and --head (default: the PR's base).
    #[arg(long)]
    base: Option<String>,
    /// Head revision (default: the PR's head, or HEAD with --base).
    #[arg(long)]
    head: Option<String>,
    /// Event payload (default: $GITHUB_EVENT_PATH).
    #[arg(long)]
    event: Option<PathBuf>,
    /// Repository checkout (default: $GITHUB_WORKSPACE, else the current directory).
    #[arg(long)]
    workspace: Option<PathBuf>,
    /// Refuse files larger than this many bytes (default: the `max-file-size` input, else 16 MiB).
    #[arg(long)]
    max_file_size: Option<u64>,
}

#[derive(Subcommand)]
enum PolicyCommand {
    /// Draft a policy from the current configs and lockfile (every server, its tools, env names and hosts).
    Init(PolicyInitCmd),
}

#[derive(clap::Args)]
struct PolicyInitCmd {
    /// Files or directories (default: the current directory).
    paths: Vec<PathBuf>,
    /// Write to FILE (default: `mcptrustchecker.toml` at the repository root).
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Overwrite an existing policy file.
    #[arg(long)]
    force: bool,
    /// Repository root that ids and paths are relative to (default: nearest `.git`).
    #[arg(long)]
    root: Option<PathBuf>,
    /// The date the review expiry counts from (YYYY-MM-DD; default today, UTC).
    #[arg(long, env = "MTC_NOW")]
    now: Option<Date>,
    /// Refuse files larger than this many bytes.
    #[arg(long, default_value_t = mcptrustchecker::parse::DEFAULT_MAX_FILE_BYTES)]
    max_file_size: u64,
}

#[derive(clap::Args)]
struct ScanCmd {
    /// Files or directories (default: the current directory).
    paths: Vec<PathBuf>,
    /// Scan the user's installed client configs instead of PATHs.
    #[arg(long, conflicts_with = "paths")]
    installed: bool,
    #[arg(long, value_enum, default_value = "terminal")]
    format: Format,
    /// Write the report to FILE instead of stdout.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Fail (exit 1) when any server or session is graded this or worse (`none`: never on grades).
    #[arg(long, default_value = "F", value_parser = parse_fail_on)]
    fail_on: mcptrustchecker::score::FailOn,
    /// Zero-width characters in one field before it counts as a hidden payload.
    #[arg(long, default_value_t = 5)]
    zero_width_threshold: usize,
    /// Refuse files larger than this many bytes.
    #[arg(long, default_value_t = mcptrustchecker::parse::DEFAULT_MAX_FILE_BYTES)]
    max_file_size: u64,
    /// Repository root that ids and paths are relative to (default: nearest `.git`).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Ask the npm and PyPI registries about the packages the configs run.
    #[arg(long)]
    online: bool,
    /// npm registry base URL for `--online`.
    #[arg(long, value_name = "URL", requires = "online")]
    npm_registry: Option<String>,
    /// PyPI base URL for `--online` (serves `/pypi/NAME/json`).
    #[arg(long, value_name = "URL", requires = "online")]
    pypi_index: Option<String>,
    /// Policy file (default: `mcptrustchecker.toml` at the repository root, when present).
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// The date expiries are judged against (YYYY-MM-DD; default today, UTC).
    #[arg(long, env = "MTC_NOW")]
    now: Option<Date>,
    /// Lockfile to check drift against (default: mcptrustchecker.lock at the root, when present).
    #[arg(long)]
    lockfile: Option<PathBuf>,
    /// An earlier `--format json` report: the Markdown report shows each server's change against it.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    #[command(flatten)]
    live: LiveFlags,
    /// Add a client's built-in tools (shell, file, web) to every session:
    /// claude-code, cursor, vscode, windsurf, codex, gemini-cli, cline, or `auto`
    /// (the client each config belongs to).
    #[arg(long, value_name = "CLIENT", value_parser = parse_client)]
    include_builtins: Option<String>,
    /// Also allow this stdio executable (repeatable; default list: see `src/data/launch.toml`).
    #[arg(long, value_name = "NAME", help = allow_exec_help())]
    allow_exec: Vec<String>,
}

/// The executable allowlist, as the help names it (`src/data/launch.toml`).
fn allowlist_names() -> String {
    mcptrustchecker::launch::exec_allowlist().join(", ")
}

fn allow_exec_help() -> String {
    format!(
        "Also allow this stdio executable (repeatable; default list: {})",
        allowlist_names()
    )
}

fn allow_any_command_help() -> String {
    format!(
        "Run stdio commands outside the allowlist ({})",
        allowlist_names()
    )
}

fn parse_client(s: &str) -> Result<String, String> {
    if s == "auto" || mcptrustchecker::detect::builtins_for(s).is_some() {
        Ok(s.to_ascii_lowercase())
    } else {
        Err(format!(
            "no built-in tool profile for `{s}` (known: auto, {})",
            mcptrustchecker::detect::builtins::known_clients().join(", ")
        ))
    }
}

/// Live acquisition: connect to every configured server and read its catalog.
#[derive(clap::Args, Clone)]
pub struct LiveFlags {
    /// Read each server's catalog from the running server (runs stdio commands in a sandbox).
    #[arg(long)]
    live: bool,
    /// Run stdio commands outside the allowlist (see `src/data/launch.toml`).
    #[arg(long, requires = "live", help = allow_any_command_help())]
    allow_any_command: bool,
    /// Per-request timeout after `initialize`, seconds.
    #[arg(long, default_value_t = 15.0, value_name = "SECS")]
    live_timeout: f64,
    /// Start-up deadline: from spawn or connect to the answer to `initialize`, seconds.
    #[arg(long, default_value_t = 45.0, value_name = "SECS")]
    live_startup_timeout: f64,
    /// Wall-clock bound per server, seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    live_server_timeout: f64,
    /// Package cache for spawned servers' npm, uv, pip and deno (default: the
    /// user's cache directory, e.g. ~/.cache/mcptrustchecker/packages).
    #[arg(long, value_name = "DIR", conflicts_with = "live_no_cache")]
    live_cache: Option<PathBuf>,
    /// Give each spawned server a fresh, empty package cache (every package is downloaded again).
    #[arg(long)]
    live_no_cache: bool,
    /// Skip the install phase that resolves every npx/uvx package before servers are timed.
    #[arg(long)]
    live_no_install: bool,
    /// Longest one package install may take, seconds.
    #[arg(long, default_value_t = 300.0, value_name = "SECS")]
    live_install_timeout: f64,
    /// Most pages read in one `*/list` loop.
    #[arg(long, default_value_t = 50)]
    live_max_pages: usize,
    /// Most items kept per list.
    #[arg(long, default_value_t = 10_000)]
    live_max_items: usize,
    /// Most bytes read from one server.
    #[arg(long, default_value_t = 16 * 1024 * 1024)]
    live_max_bytes: u64,
    /// Servers scanned at once (default: cores × 2).
    #[arg(long)]
    live_concurrency: Option<usize>,
    /// Only these hosts may be contacted (repeatable; default: any).
    #[arg(long, value_name = "HOST")]
    live_allow_host: Vec<String>,
    /// Give spawned servers (and `${NAME}` references in a config's env and headers)
    /// this variable of the scanner's environment (repeatable; default: none).
    #[arg(long, value_name = "NAME", requires = "live")]
    pass_env: Vec<String>,
}

impl LiveFlags {
    /// The live options, or `None` without `--live`.
    fn options(&self, exec_allowlist: &[String]) -> anyhow::Result<Option<LiveOptions>> {
        if !self.live {
            return Ok(None);
        }
        let secs = |v: f64, flag: &str| -> anyhow::Result<std::time::Duration> {
            std::time::Duration::try_from_secs_f64(v)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| anyhow::anyhow!("--{flag} must be a positive number of seconds"))
        };
        let mut o = LiveOptions {
            request_timeout: secs(self.live_timeout, "live-timeout")?,
            startup_timeout: secs(self.live_startup_timeout, "live-startup-timeout")?,
            server_timeout: secs(self.live_server_timeout, "live-server-timeout")?,
            install_timeout: secs(self.live_install_timeout, "live-install-timeout")?,
            max_pages: self.live_max_pages.max(1),
            max_items: self.live_max_items,
            max_bytes: self.live_max_bytes,
            allow_any_command: self.allow_any_command,
            exec_allowlist: exec_allowlist.to_vec(),
            host_allowlist: (!self.live_allow_host.is_empty())
                .then(|| self.live_allow_host.clone()),
            pass_env: mcptrustchecker::acquire::live::PassEnv::new(self.pass_env.clone()),
            ..LiveOptions::default()
        };
        if let Some(c) = self.live_concurrency {
            o.concurrency = c.max(1);
        }
        o.package_cache = if self.live_no_cache {
            None
        } else {
            self.live_cache
                .clone()
                .map(|p| std::path::absolute(&p).unwrap_or(p))
                .or_else(|| {
                    mcptrustchecker::acquire::live::sandbox::default_cache_dir(&|n| {
                        std::env::var(n).ok()
                    })
                })
        };
        o.install = o.package_cache.is_some() && !self.live_no_install;
        Ok(Some(o))
    }
}

#[derive(clap::Args)]
struct LockCmd {
    /// Files or directories (default: the current directory).
    paths: Vec<PathBuf>,
    /// The lockfile (default: mcptrustchecker.lock at the repository root).
    #[arg(long)]
    lockfile: Option<PathBuf>,
    /// Repository root that ids and paths are relative to (default: nearest `.git`).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Refuse files larger than this many bytes.
    #[arg(long, default_value_t = mcptrustchecker::parse::DEFAULT_MAX_FILE_BYTES)]
    max_file_size: u64,
    #[command(flatten)]
    live: LiveFlags,
    /// Also allow this stdio executable for `--live` (repeatable).
    #[arg(long, value_name = "NAME")]
    allow_exec: Vec<String>,
}

#[derive(clap::Args)]
struct DiffCmd {
    #[command(flatten)]
    lock: LockCmd,
    #[arg(long, value_enum, default_value = "terminal")]
    format: DiffFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DiffFormat {
    Terminal,
    Json,
}

impl LockCmd {
    fn args(self, json: bool) -> anyhow::Result<LockArgs> {
        let mut allow = ScanOptions::default().exec_allowlist;
        allow.extend(self.allow_exec);
        Ok(LockArgs {
            live: self.live.options(&allow)?,
            paths: self.paths,
            lockfile: self.lockfile,
            root: self.root,
            max_file_bytes: self.max_file_size,
            json,
        })
    }
}

fn parse_fail_on(s: &str) -> Result<mcptrustchecker::score::FailOn, String> {
    mcptrustchecker::score::FailOn::parse(s)
        .ok_or_else(|| format!("`{s}` is not a grade (A, B, C, D or F) or `none`"))
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::INPUT_ERROR
            } else {
                exit::OK
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let code = match run(cli) {
        Ok(c) => c,
        Err(e) => {
            note(&format!("error: {e:#}"));
            exit::INPUT_ERROR
        }
    };
    std::process::exit(code);
}

fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Scan(c) => {
            let online = c
                .online
                .then(|| RegistryConfig::new(c.npm_registry.as_deref(), c.pypi_index.as_deref()));
            let mut options = ScanOptions {
                zero_width_threshold: c.zero_width_threshold,
                include_builtins: c.include_builtins,
                ..ScanOptions::default()
            };
            options.exec_allowlist.extend(c.allow_exec);
            let live = c.live.options(&options.exec_allowlist)?;
            let args = ScanArgs {
                paths: c.paths,
                installed: c.installed,
                format: c.format,
                output: c.output,
                fail_on: c.fail_on,
                max_file_bytes: c.max_file_size,
                root: c.root,
                options,
                lockfile: c.lockfile,
                policy: c.policy,
                now: c.now,
                online,
                live,
                baseline: c.baseline,
            };
            app::scan(&args)
        }
        Command::Ci(c) => {
            let args = mcptrustchecker::ci::CiArgs {
                base: c.base,
                head: c.head,
                event: c.event,
                workspace: c.workspace,
                max_file_size: c.max_file_size,
            };
            Ok(mcptrustchecker::ci::run(
                &args,
                &mcptrustchecker::ci::event::Env::from_process(),
            ))
        }
        Command::Lock(c) => lockcmd::lock(&c.args(false)?),
        Command::Diff(c) => {
            let json = c.format == DiffFormat::Json;
            lockcmd::diff(&c.lock.args(json)?)
        }
        Command::Policy {
            command: PolicyCommand::Init(c),
        } => app::policy_init(&app::PolicyInitArgs {
            paths: c.paths,
            output: c.output,
            force: c.force,
            root: c.root,
            now: c.now,
            max_file_bytes: c.max_file_size,
        }),
        Command::Rules { markdown } => {
            let text = if markdown {
                app::rules_markdown()
            } else {
                app::rules()
            };
            emit(&text, None)?;
            Ok(exit::OK)
        }
        Command::Explain { id } => match app::explain(&id) {
            Some(text) => {
                emit(&text, None)?;
                Ok(exit::OK)
            }
            None => {
                note(&format!(
                    "error: no rule `{}` (see `mcptrustchecker rules`)",
                    mcptrustchecker::text::visible(&id)
                ));
                Ok(exit::INPUT_ERROR)
            }
        },
    }
}
