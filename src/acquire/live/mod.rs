//! Live acquisition: connect to each configured server and read its catalog
//! from the running process, which is how a rug pull is caught.
//!
//! rmcp drives the MCP session (initialize, request ids, answering server
//! requests) over transports we own, because rmcp's typed model drops unknown
//! fields: every frame is captured raw (`session::Capture`) and the catalog is
//! built from those frames, verbatim. Launching a server runs a command, so the
//! stdio side runs in a sandbox (`sandbox`), and every step is bounded.

mod http;
pub mod sandbox;
mod session;
mod sse;
mod stdio;

use crate::finding::Finding;
use crate::surface::{Coverage, Item, RemoteKind, ServerSurface, Transport};
use serde::Serialize;
use serde_json::Value;
use std::io::IsTerminal;
use std::time::Duration;

/// Every bound and switch of a live scan (all exposed as `scan` flags).
#[derive(Debug, Clone)]
pub struct LiveOptions {
    /// Longest wait for any one response (including `initialize`).
    pub request_timeout: Duration,
    /// Longest a whole server may take, start to teardown.
    pub server_timeout: Duration,
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
    /// Show a progress bar (only ever on a terminal).
    pub progress: bool,
}

impl Default for LiveOptions {
    fn default() -> Self {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        LiveOptions {
            request_timeout: Duration::from_secs(15),
            server_timeout: Duration::from_secs(60),
            max_pages: 50,
            max_items: 10_000,
            max_bytes: 16 * 1024 * 1024,
            concurrency: cores * 2,
            allow_any_command: false,
            exec_allowlist: sandbox::DEFAULT_ALLOWLIST
                .iter()
                .map(|s| s.to_string())
                .collect(),
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

/// Fill every config-derived surface's catalog from its running server,
/// concurrently (bounded). Reports come back in the order of `surfaces`.
pub async fn acquire_live(surfaces: &mut [ServerSurface], opts: &LiveOptions) -> Vec<LiveReport> {
    install_crypto();
    use futures::StreamExt;
    let bar = progress_bar(surfaces.len(), opts);
    let jobs: Vec<(usize, ServerSurface)> = surfaces.iter().cloned().enumerate().collect();
    let mut done: Vec<(usize, LiveReport, Option<Catalog>)> = futures::stream::iter(jobs)
        .map(|(i, s)| {
            let bar = bar.clone();
            async move {
                let (report, catalog) = scan_one(&s, opts).await;
                if let Some(b) = &bar {
                    b.inc(1);
                }
                (i, report, catalog)
            }
        })
        .buffer_unordered(opts.concurrency.max(1))
        .collect()
        .await;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    done.sort_by_key(|(i, _, _)| *i);
    done.into_iter()
        .map(|(i, report, catalog)| {
            if let Some(c) = catalog {
                apply(&mut surfaces[i], c, &report);
            }
            report
        })
        .collect()
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

fn progress_bar(len: usize, opts: &LiveOptions) -> Option<indicatif::ProgressBar> {
    if !opts.progress || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(len as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "live scan {bar:30} {pos}/{len} servers ({elapsed})",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// Scan one server under its wall-clock bound.
async fn scan_one(s: &ServerSurface, opts: &LiveOptions) -> (LiveReport, Option<Catalog>) {
    let start = std::time::Instant::now();
    let (mut report, catalog) = if s.disabled {
        (
            LiveReport::new(&s.id, Outcome::Skipped("disabled in its config".into())),
            None,
        )
    } else {
        match &s.transport {
            Transport::Stdio { command, args, .. } => stdio::scan(s, command, args, opts).await,
            Transport::Remote { url, protocol, .. } => match protocol {
                RemoteKind::WebSocket => (
                    LiveReport::new(
                        &s.id,
                        Outcome::Skipped("WebSocket transport is not supported".into()),
                    ),
                    None,
                ),
                p => http::scan(s, url, *p == RemoteKind::Sse, opts).await,
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
            Finding::new("MTC-META-003", msg, loc.clone())
                .server(&s.id)
                .evidence(ev),
        );
    }
    for req in &report.server_requests {
        let method = req.get("method").and_then(Value::as_str).unwrap_or("");
        let (rule, what) = match method {
            "sampling/createMessage" => (
                "MTC-LIVE-001",
                "asked the client to run a model completion (sampling)",
            ),
            "elicitation/create" => (
                "MTC-LIVE-002",
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
            Finding::new("MTC-LIVE-003", format!("server `{}` changed its tool list during the scan (notifications/tools/list_changed)", s.name), loc)
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
