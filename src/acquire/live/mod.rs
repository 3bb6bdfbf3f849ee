//! Live acquisition: connect to each configured server and read its catalog
//! from the running process, which is how a rug pull is caught.
//!
//! rmcp drives the MCP session (initialize, request ids, answering server
//! requests) over transports we own, because rmcp's typed model drops unknown
//! fields: every frame is captured raw (`session::Capture`) and the catalog is
//! built from those frames, verbatim. Launching a server runs a command, so the
//! stdio side runs in a sandbox (`sandbox`), and every step is bounded.

mod http;
pub mod install;
mod progress;
pub mod sandbox;
mod session;
mod sse;
mod stdio;
mod wire;

use crate::finding::Finding;
use crate::rules::ids;
use crate::surface::{Coverage, Item, RemoteKind, ServerSurface, Transport};
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// Every bound and switch of a live scan (all exposed as `scan` flags).
#[derive(Debug, Clone)]
pub struct LiveOptions {
    /// Longest wait for any one response after `initialize`.
    pub request_timeout: Duration,
    /// Longest wait from start (spawn or connect) to the answer to
    /// `initialize`: a package a launcher still has to download counts here,
    /// not against the per-request timeout.
    pub startup_timeout: Duration,
    /// Longest a whole server may take, start to teardown.
    pub server_timeout: Duration,
    /// Where spawned servers' package managers keep their downloads (npm,
    /// uv, pip, deno), shared across scans; `None`: a fresh, empty cache per
    /// server.
    pub package_cache: Option<PathBuf>,
    /// Resolve every `npx`/`uvx` package into the cache before any server is
    /// timed (needs `package_cache`).
    pub install: bool,
    /// Longest one install may take.
    pub install_timeout: Duration,
    /// Most pages read in one `*/list` pagination loop.
    pub max_pages: usize,
    /// Most items kept per list (tools, prompts, resources, templates).
    pub max_items: usize,
    /// Most bytes read from one server (all frames together).
    pub max_bytes: u64,
    /// Most servers scanned at once.
    pub concurrency: usize,
    /// Run stdio commands outside the executable allowlist.
    pub allow_any_command: bool,
    /// Bare executable names allowed for stdio servers.
    pub exec_allowlist: Vec<String>,
    /// Variables of the scanner's environment that servers may receive (`--pass-env`).
    pub pass_env: PassEnv,
    /// When set, the only hosts a remote server (and its redirects) may use.
    pub host_allowlist: Option<Vec<String>>,
    /// Most HTTP redirects followed per request.
    pub max_redirects: usize,
    /// Most bytes of a server's stderr kept.
    pub max_stderr_bytes: usize,
    /// Show progress (only ever when stdout and stderr are terminals).
    pub progress: bool,
}

impl Default for LiveOptions {
    fn default() -> Self {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        LiveOptions {
            request_timeout: Duration::from_secs(15),
            startup_timeout: Duration::from_secs(45),
            server_timeout: Duration::from_secs(60),
            package_cache: None,
            install: false,
            install_timeout: Duration::from_secs(300),
            max_pages: 50,
            max_items: 10_000,
            max_bytes: 16 * 1024 * 1024,
            concurrency: cores * 2,
            allow_any_command: false,
            exec_allowlist: crate::launch::exec_allowlist().to_vec(),
            pass_env: PassEnv::default(),
            host_allowlist: None,
            max_redirects: 3,
            max_stderr_bytes: 64 * 1024,
            progress: true,
        }
    }
}

/// How a live scan of one server ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "reason", rename_all = "kebab-case")]
pub enum Outcome {
    /// Everything the server exposes was read.
    Complete,
    /// A bound stopped the scan; what was read so far is kept.
    Bounded(String),
    /// The connection or the protocol failed.
    Failed(String),
    /// The sandbox or a policy refused to connect (nothing was run).
    Refused(String),
    /// Not attempted (disabled entry, no transport we can reach).
    Skipped(String),
}

impl Outcome {
    /// Why the catalog was not read whole (`None` when it was).
    pub fn reason(&self) -> Option<&str> {
        match self {
            Outcome::Complete => None,
            Outcome::Bounded(w)
            | Outcome::Failed(w)
            | Outcome::Refused(w)
            | Outcome::Skipped(w) => Some(w),
        }
    }
}

/// What a live scan of one server observed (besides the catalog it filled in).
#[derive(Debug, Clone, Serialize)]
pub struct LiveReport {
    pub server: String,
    pub outcome: Outcome,
    /// `stdio`, `streamable-http` or `sse` (legacy HTTP+SSE), as actually used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// Whether the connection used TLS (remote servers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<bool>,
    /// For a localhost URL: the addresses the port is bound on (Linux `/proc/net`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bind: Vec<String>,
    /// Server→client requests received (`sampling/createMessage`, `elicitation/create`, …), verbatim.
    pub server_requests: Vec<Value>,
    /// The tool catalog before a `notifications/tools/list_changed`, when the re-list differed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools_before_change: Option<Vec<Value>>,
    /// Facts worth a note (lists that returned an error, missing variables).
    pub notes: Vec<String>,
    /// The server's stderr, bounded (not part of any report: it may echo config values).
    #[serde(skip)]
    pub stderr: String,
    /// Wall time (not part of any report: reports are deterministic).
    #[serde(skip)]
    pub elapsed: Duration,
}

impl LiveReport {
    fn new(server: &str, outcome: Outcome) -> Self {
        LiveReport {
            server: server.to_string(),
            outcome,
            transport: None,
            tls: None,
            bind: Vec::new(),
            server_requests: Vec::new(),
            tools_before_change: None,
            notes: Vec::new(),
            stderr: String::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// What one session read, in raw JSON.
#[derive(Debug, Default, Clone)]
pub(crate) struct Catalog {
    pub init: Option<Value>,
    pub tools: Vec<Value>,
    pub prompts: Vec<Value>,
    pub resources: Vec<Value>,
    pub templates: Vec<Value>,
}

/// Install ring as rustls's process-wide provider (reqwest is built without one).
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// What every server of one scan shares: the options, the environment base
/// (network allowlist and package cache), and the progress display.
pub(crate) struct Ctx<'a> {
    pub opts: &'a LiveOptions,
    pub base_env: Vec<(String, String)>,
    pub progress: progress::Progress,
}

/// Fill every config-derived surface's catalog from its running server,
/// concurrently (bounded). Reports come back in the order of `surfaces`.
pub async fn acquire_live(surfaces: &mut [ServerSurface], opts: &LiveOptions) -> Vec<LiveReport> {
    install_crypto();
    use futures::StreamExt;
    let lookup = |n: &str| std::env::var(n).ok();
    let mut base_env = sandbox::network_env(&lookup);
    if let Some(dir) = &opts.package_cache {
        let _ = std::fs::create_dir_all(dir);
        base_env.extend(sandbox::cache_env(dir));
    }
    let ctx = Ctx {
        opts,
        base_env,
        progress: progress::Progress::new(opts.progress, surfaces.len()),
    };
    let started = std::time::Instant::now();
    let installs = if opts.install && opts.package_cache.is_some() {
        install_all(surfaces, &ctx).await
    } else {
        vec![None; surfaces.len()]
    };
    let jobs: Vec<(usize, ServerSurface)> = surfaces.iter().cloned().enumerate().collect();
    let ctx_ref = &ctx;
    let installs_ref = &installs;
    let mut done: Vec<(usize, LiveReport, Option<Catalog>)> = futures::stream::iter(jobs)
        .map(|(i, s)| async move {
            // Its package did not install: starting it would only run the
            // same failing install again, inside its start-up deadline.
            if let Some(why) = &installs_ref[i] {
                let report = LiveReport::new(
                    &s.id,
                    Outcome::Failed(format!("its package did not install: {why}")),
                );
                ctx_ref.progress.start(&s.name).finish(&s.name, Some(why));
                return (i, report, None);
            }
            let (report, catalog) = scan_one(&s, ctx_ref).await;
            (i, report, catalog)
        })
        .buffer_unordered(opts.concurrency.max(1))
        .collect()
        .await;
    done.sort_by_key(|(i, _, _)| *i);
    let reports: Vec<LiveReport> = done
        .into_iter()
        .map(|(i, report, catalog)| {
            if let Some(c) = catalog {
                apply(&mut surfaces[i], c, &report);
            }
            report
        })
        .collect();
    ctx.progress
        .finish(&coverage_line(surfaces, &reports, started.elapsed()));
    reports
}

/// `live 44/46 read in 52.1 s; 2 failed: a (why), b (why)`.
fn coverage_line(surfaces: &[ServerSurface], reports: &[LiveReport], took: Duration) -> String {
    let read = surfaces
        .iter()
        .filter(|s| s.coverage == Coverage::Live)
        .count();
    let mut line = format!(
        "live {read}/{} read in {:.1} s",
        surfaces.len(),
        took.as_secs_f64()
    );
    let failed: Vec<String> = reports
        .iter()
        .zip(surfaces)
        .filter(|(_, s)| s.coverage != Coverage::Live)
        .map(|(r, s)| {
            let why = r.outcome.reason().unwrap_or("nothing read");
            format!("{} ({})", s.name, crate::text::truncate_chars(why, 120))
        })
        .collect();
    if !failed.is_empty() {
        line.push_str(&format!(
            "; {} not read: {}",
            failed.len(),
            failed.join(", ")
        ));
    }
    crate::text::visible(&line)
}

/// The install phase: one install per distinct step, in parallel within the
/// concurrency bound. Returns, per surface, why its install failed (if it did).
async fn install_all(surfaces: &[ServerSurface], ctx: &Ctx<'_>) -> Vec<Option<String>> {
    use futures::StreamExt;
    let opts = ctx.opts;
    let lookup = |n: &str| std::env::var(n).ok();
    type Planned = (Vec<usize>, Vec<(String, String)>, PathBuf);
    let mut steps: std::collections::BTreeMap<install::Step, Planned> = Default::default();
    for (i, s) in surfaces.iter().enumerate() {
        let Transport::Stdio { command, args, .. } = &s.transport else {
            continue;
        };
        if s.disabled
            || sandbox::check_invocation(
                command,
                args,
                &opts.exec_allowlist,
                opts.allow_any_command,
            )
            .is_err()
        {
            continue;
        }
        let Some(step) = install::plan(command, args) else {
            continue;
        };
        if opts
            .package_cache
            .as_deref()
            .is_some_and(|c| install::is_warm(&step, c))
        {
            continue;
        }
        if let Some(entry) = steps.get_mut(&step) {
            entry.0.push(i);
            continue;
        }
        // One HOME per step, removed when the step has run.
        let Ok(home) = tempfile::Builder::new().prefix("mtc-home-").tempdir() else {
            continue;
        };
        let (env, _) =
            sandbox::build_env(&s.env, &opts.pass_env, &lookup, home.path(), &ctx.base_env);
        if sandbox::missing_launcher(command, &env).is_some() {
            continue;
        }
        steps.insert(step, (vec![i], env, home.keep()));
    }
    let results: Vec<(Vec<usize>, Option<String>)> = futures::stream::iter(steps)
        .map(|(step, (who, env, home))| async move {
            let name = who
                .first()
                .map(|&i| surfaces[i].name.clone())
                .unwrap_or_default();
            let bar = ctx.progress.installing(&name);
            let (outcome, _) = install::run(
                &step,
                &env,
                opts.install_timeout,
                opts.package_cache.as_deref(),
            )
            .await;
            let _ = std::fs::remove_dir_all(&home);
            let failure = match outcome {
                install::Installed::Ok => None,
                install::Installed::Failed(why) => Some(why),
            };
            ctx.progress.installed(bar, &name, failure.as_deref());
            (who, failure)
        })
        .buffer_unordered(opts.concurrency.max(1))
        .collect()
        .await;
    let mut out = vec![None; surfaces.len()];
    for (who, failure) in results {
        for i in who {
            out[i] = failure.clone();
        }
    }
    out
}

/// [`acquire_live`] from synchronous code (the CLI).
pub fn acquire_live_blocking(
    surfaces: &mut [ServerSurface],
    opts: &LiveOptions,
) -> Vec<LiveReport> {
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(acquire_live(surfaces, opts)),
        Err(e) => surfaces
            .iter()
            .map(|s| {
                LiveReport::new(
                    &s.id,
                    Outcome::Failed(format!("cannot start the async runtime: {e}")),
                )
            })
            .collect(),
    }
}

/// Scan one server under its wall-clock bound.
async fn scan_one(s: &ServerSurface, ctx: &Ctx<'_>) -> (LiveReport, Option<Catalog>) {
    let start = std::time::Instant::now();
    let opts = ctx.opts;
    let line = ctx.progress.start(&s.name);
    let (mut report, catalog) = if s.disabled {
        (
            LiveReport::new(&s.id, Outcome::Skipped("disabled in its config".into())),
            None,
        )
    } else {
        match &s.transport {
            Transport::Stdio { command, args, .. } => {
                stdio::scan(s, command, args, ctx, &line).await
            }
            Transport::Remote { url, protocol, .. } => match protocol {
                RemoteKind::WebSocket => (
                    LiveReport::new(
                        &s.id,
                        Outcome::Skipped("WebSocket transport is not supported".into()),
                    ),
                    None,
                ),
                p => http::scan(s, url, *p == RemoteKind::Sse, opts, &line).await,
            },
            Transport::Unknown => (
                LiveReport::new(
                    &s.id,
                    Outcome::Skipped("the entry names no command and no URL".into()),
                ),
                None,
            ),
        }
    };
    report.elapsed = start.elapsed();
    let read = catalog.as_ref().is_some_and(|c| c.init.is_some());
    let failure = (!read).then(|| report.outcome.reason().unwrap_or("nothing read"));
    line.finish(&s.name, failure);
    (report, catalog)
}

/// Put what was read into the surface (verbatim items, coverage `live`).
fn apply(s: &mut ServerSurface, c: Catalog, report: &LiveReport) {
    let got_anything = c.init.is_some();
    if let Some(init) = &c.init {
        s.server_info = init.get("serverInfo").cloned();
        s.protocol_version = init
            .get("protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_string);
        s.capabilities = init.get("capabilities").cloned();
        s.instructions = init
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_string);
    }
    let items = |list: Vec<Value>, keys: &[&str]| -> Vec<Item> {
        list.into_iter()
            .map(|raw| {
                let name = keys
                    .iter()
                    .find_map(|k| raw.get(*k).and_then(Value::as_str))
                    .unwrap_or("")
                    .to_string();
                Item::new(name, raw, None)
            })
            .collect()
    };
    s.tools = items(c.tools, &["name"]);
    s.prompts = items(c.prompts, &["name"]);
    s.resources = items(c.resources, &["name", "uri"]);
    s.resource_templates = items(c.templates, &["name", "uriTemplate"]);
    if got_anything {
        s.coverage = Coverage::Live;
    }
    let mut posture = format!(
        "live: transport {}",
        report.transport.as_deref().unwrap_or("none")
    );
    if let Some(tls) = report.tls {
        posture.push_str(if tls { ", TLS" } else { ", no TLS" });
    }
    if !report.bind.is_empty() {
        posture.push_str(&format!(", bound on {}", report.bind.join(" ")));
    }
    s.notes.push(posture);
    if let Outcome::Bounded(why) = &report.outcome {
        s.notes.push(format!("live: catalog partial ({why})"));
    }
    s.notes
        .extend(report.notes.iter().map(|n| format!("live: {n}")));
}

/// The findings a live scan raises (bounds, failures, server requests, a changing catalog).
pub fn findings(report: &LiveReport, s: &ServerSurface) -> Vec<Finding> {
    let loc = s.source.location.clone();
    let mut out = Vec::new();
    let trouble = match &report.outcome {
        Outcome::Bounded(why) => Some(format!(
            "live acquisition of `{}` stopped at a bound: {why}; the catalog is what was read before",
            s.name
        )),
        Outcome::Failed(why) => Some(format!("live acquisition of `{}` failed: {why}", s.name)),
        Outcome::Refused(why) => Some(format!("live acquisition of `{}` refused: {why}", s.name)),
        Outcome::Complete | Outcome::Skipped(_) => None,
    };
    if let Some(msg) = trouble {
        let ev = format!(
            "outcome {}",
            serde_json::to_value(&report.outcome)
                .ok()
                .and_then(|v| v.get("status").and_then(Value::as_str).map(str::to_string))
                .unwrap_or_default()
        );
        out.push(
            Finding::new(ids::MTC_META_003, msg, loc.clone())
                .server(&s.id)
                .evidence(ev),
        );
    }
    for req in &report.server_requests {
        let method = req.get("method").and_then(Value::as_str).unwrap_or("");
        let (rule, what) = match method {
            "sampling/createMessage" => (
                ids::MTC_LIVE_001,
                "asked the client to run a model completion (sampling)",
            ),
            "elicitation/create" => (
                ids::MTC_LIVE_002,
                "asked the client to collect input from the user (elicitation)",
            ),
            _ => continue,
        };
        let params = req
            .get("params")
            .map(|p| serde_json::to_string(p).unwrap_or_default())
            .unwrap_or_default();
        out.push(
            Finding::new(
                rule,
                format!(
                    "server `{}` {what} during the scan; the scanner refused",
                    s.name
                ),
                loc.clone(),
            )
            .server(&s.id)
            .evidence(crate::text::truncate_chars(
                &format!("{method} {params}"),
                300,
            )),
        );
    }
    if let Some(before) = &report.tools_before_change {
        let names = |v: &[Value]| -> std::collections::BTreeSet<String> {
            v.iter()
                .filter_map(|t| t.get("name").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        };
        let old = names(before);
        let new: std::collections::BTreeSet<String> =
            s.tools.iter().map(|t| t.name.clone()).collect();
        let added: Vec<_> = new.difference(&old).cloned().collect();
        let removed: Vec<_> = old.difference(&new).cloned().collect();
        let changed: Vec<_> = s
            .tools
            .iter()
            .filter(|t| {
                before
                    .iter()
                    .any(|b| b.get("name").and_then(Value::as_str) == Some(&t.name) && b != &t.raw)
            })
            .map(|t| t.name.clone())
            .collect();
        out.push(
            Finding::new(ids::MTC_LIVE_003, format!("server `{}` changed its tool list during the scan (notifications/tools/list_changed)", s.name), loc)
                .server(&s.id)
                .evidence(format!("added [{}]; removed [{}]; changed [{}]", added.join(", "), removed.join(", "), changed.join(", "))),
        );
    }
    out
}

/// The `${VAR}` / `${env:VAR}` references of a value: `(byte range, name)`.
fn references(value: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = value[from..].find("${") {
        let start = from + rel;
        let Some(end_rel) = value[start + 2..].find('}') else {
            break;
        };
        let end = start + 2 + end_rel + 1;
        let inner = &value[start + 2..end - 1];
        let name = inner.strip_prefix("env:").unwrap_or(inner);
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push((start..end, name.to_string()));
        }
        from = end;
    }
    out
}

/// Names a value refers to with `${VAR}` or `${env:VAR}` (in order, repeats kept).
pub fn referenced_vars(value: &str) -> Vec<String> {
    references(value).into_iter().map(|(_, n)| n).collect()
}

/// The variables of the scanner's own environment that a spawned server or a
/// remote host may receive: only those the user named with `--pass-env NAME`
/// (action input `pass-env`). Everything else a config asks for is withheld,
/// so a hostile config cannot collect `GITHUB_TOKEN` or the runner's tokens.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassEnv {
    names: std::collections::BTreeSet<String>,
}

/// A value after [`PassEnv::expand`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expanded {
    /// Every reference was allowed and set (or there was none).
    Value(String),
    /// References to variables the user did not name: the value is not passed at all.
    Withheld(Vec<String>),
    /// Named but not set in the scanner's environment.
    Missing(Vec<String>),
}

impl PassEnv {
    pub fn new<I: IntoIterator<Item = String>>(names: I) -> PassEnv {
        PassEnv {
            names: names
                .into_iter()
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
        }
    }
    /// Whether the user named this variable (exact, case-sensitive).
    pub fn allows(&self, name: &str) -> bool {
        self.names.contains(name)
    }
    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.names.iter()
    }
    /// Resolve `${VAR}` / `${env:VAR}` in a config value from `lookup`, for
    /// the named variables only; anything else in the value is literal.
    pub fn expand(&self, value: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Expanded {
        let refs = references(value);
        let withheld: Vec<String> = refs
            .iter()
            .filter(|(_, n)| !self.allows(n))
            .map(|(_, n)| n.clone())
            .collect();
        if !withheld.is_empty() {
            return Expanded::Withheld(withheld);
        }
        let mut out = String::with_capacity(value.len());
        let mut missing = Vec::new();
        let mut at = 0;
        for (range, name) in refs {
            out.push_str(&value[at..range.start]);
            match lookup(&name) {
                Some(v) => out.push_str(&v),
                None => missing.push(name),
            }
            at = range.end;
        }
        out.push_str(&value[at..]);
        if missing.is_empty() {
            Expanded::Value(out)
        } else {
            Expanded::Missing(missing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_only_named_variables() {
        let lookup = |n: &str| (n == "TOKEN").then(|| "s3cret".to_string());
        let pass = PassEnv::new(["TOKEN".to_string(), "NOPE".to_string()]);
        assert_eq!(
            pass.expand("Bearer ${TOKEN}", &lookup),
            Expanded::Value("Bearer s3cret".into())
        );
        assert_eq!(
            pass.expand("${env:TOKEN}", &lookup),
            Expanded::Value("s3cret".into())
        );
        assert_eq!(
            pass.expand("$TOKEN and ${NOPE}", &lookup),
            Expanded::Missing(vec!["NOPE".into()])
        );
        assert_eq!(
            pass.expand("${a b} ${", &lookup),
            Expanded::Value("${a b} ${".into())
        );
        // Not named: withheld, whatever the scanner's environment holds.
        let none = PassEnv::default();
        assert_eq!(
            none.expand("Bearer ${GITHUB_TOKEN}", &|_| Some("ghs_job".into())),
            Expanded::Withheld(vec!["GITHUB_TOKEN".into()])
        );
        assert_eq!(
            referenced_vars("${A}-${env:B}-${c d}-$E"),
            vec!["A".to_string(), "B".to_string()]
        );
    }
}
