//! The policy file (`mcptrustchecker.toml`): the seed's allowlist as a
//! versioned capability contract. Per server id it binds an owner, a review
//! expiry, the tools, env names and hosts the server may use and the artifact it
//! may launch; it sets the gate; and it holds time-limited suppressions.
//!
//! [`apply`] runs after the pipeline: it adds the policy findings, marks
//! suppressed findings (they stay visible but stop counting until they expire),
//! re-scores servers and sessions, and decides each server's gate verdict in the
//! seed's terms: pass, fail, or exception (owner, expiry).

pub mod date;
pub mod diff;
pub mod init;

pub use date::Date;

use crate::finding::{Finding, Severity, Suppression, sort_dedup};
use crate::model::{Decision, Exception, PolicyOutcome, PolicyVerdict, ScanResult, ServerResult};
use crate::parse::{self, InputError, ptr_seg};
use crate::score::{self, FailOn, Grade};
use crate::surface::{Location, Transport};
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The policy file's name at the repository root.
pub const DEFAULT_FILE: &str = "mcptrustchecker.toml";
/// The only format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// A parsed policy file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default = "format_version")]
    pub version: u32,
    #[serde(default)]
    pub gate: GateSettings,
    /// Keyed by server id, the same ids as the lockfile (`.cursor/mcp.json#github`).
    #[serde(default)]
    pub servers: BTreeMap<String, ServerEntry>,
    #[serde(default)]
    pub suppressions: Vec<SuppressionEntry>,
    /// Repo-relative path of the file (for finding locations).
    #[serde(skip)]
    pub path: String,
    /// JSON Pointer → (line, column) in the file.
    #[serde(skip)]
    positions: BTreeMap<String, (u32, u32)>,
}

fn format_version() -> u32 {
    FORMAT_VERSION
}
fn yes() -> bool {
    true
}

/// How the policy gates a scan: stricter than `--fail-on` (or the workflow's
/// inputs) where it says so, never looser.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateSettings {
    /// A server or session graded this or worse fails (default: `--fail-on`, itself F by default).
    #[serde(default, deserialize_with = "de_grade")]
    pub fail_on: Option<Grade>,
    /// Unreviewed drift against the lockfile fails the server (default yes;
    /// `None` when the file does not say, so a CI input is not overridden by a default).
    #[serde(default)]
    pub drift_fails: Option<bool>,
    /// A server without an entry fails (MTC-POL-001).
    #[serde(default = "yes")]
    pub require_entries: bool,
}

impl GateSettings {
    /// Whether unreviewed drift fails (the file's setting, else yes).
    pub fn drifts_fail(&self) -> bool {
        self.drift_fails.unwrap_or(true)
    }
    /// The gate grade with `floor` (a workflow input or `--fail-on`) as the
    /// loosest allowed: a policy may tighten the gate, never loosen it.
    pub fn fail_on_with_floor(&self, floor: FailOn) -> FailOn {
        floor.tightened(self.fail_on)
    }
}

impl Default for GateSettings {
    fn default() -> Self {
        GateSettings {
            fail_on: None,
            drift_fails: None,
            require_entries: true,
        }
    }
}

/// What one server is approved to be and do.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerEntry {
    /// The team or person who owns the risk.
    pub owner: String,
    /// The day after which the approval lapses (MTC-POL-009).
    pub review_expires: Date,
    #[serde(default)]
    pub tools_allow: Vec<String>,
    #[serde(default)]
    pub env_allow: Vec<String>,
    /// `host`, `host:port`, `*.domain`, or `https://host[:port]` / `http://host[:port]`.
    #[serde(default)]
    pub network_allow: Vec<String>,
    #[serde(default)]
    pub transport: Option<TransportPin>,
    /// The pinned executable of a stdio server.
    #[serde(default)]
    pub command: Option<String>,
    /// The pinned arguments of a stdio server (exactly).
    #[serde(default)]
    pub args: Option<Vec<String>>,
    /// The pinned package spec, as written in the config (`pkg@1.2.3`).
    #[serde(default)]
    pub package: Option<String>,
    /// The pinned URL of a remote server.
    #[serde(default)]
    pub url: Option<String>,
    /// Free text for reviewers.
    #[serde(default)]
    pub note: Option<String>,
}

/// The transport a server entry pins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TransportPin {
    Stdio,
    StreamableHttp,
    Http,
    Sse,
    Websocket,
    /// Any remote protocol.
    Remote,
}

impl TransportPin {
    fn matches(self, t: &Transport) -> bool {
        match self {
            TransportPin::Stdio => matches!(t, Transport::Stdio { .. }),
            TransportPin::Remote => matches!(t, Transport::Remote { .. }),
            TransportPin::StreamableHttp | TransportPin::Http => {
                matches!(t.kind_str(), "streamable-http" | "remote")
            }
            TransportPin::Sse => t.kind_str() == "sse",
            TransportPin::Websocket => t.kind_str() == "websocket",
        }
    }
    fn as_str(self) -> &'static str {
        match self {
            TransportPin::Stdio => "stdio",
            TransportPin::StreamableHttp => "streamable-http",
            TransportPin::Http => "http",
            TransportPin::Sse => "sse",
            TransportPin::Websocket => "websocket",
            TransportPin::Remote => "remote",
        }
    }
}

/// A time-limited exception for one rule on one server (optionally one tool).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuppressionEntry {
    #[serde(deserialize_with = "de_rule")]
    pub rule: String,
    /// A server id, or a session id for cross-server findings.
    pub server: String,
    #[serde(default)]
    pub tool: Option<String>,
    pub reason: String,
    pub owner: String,
    pub expires: Date,
}

fn de_grade<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Grade>, D::Error> {
    let s = String::deserialize(d)?;
    Grade::parse(&s)
        .map(Some)
        .ok_or_else(|| de::Error::custom(format!("`{s}` is not a grade (A, B, C, D or F)")))
}

fn de_rule<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    crate::rules::get(&s).map(|r| r.id.clone()).ok_or_else(|| {
        de::Error::custom(format!(
            "unknown rule id `{s}` (see `mcptrustchecker rules`)"
        ))
    })
}

impl Policy {
    /// Parse a policy; every error names the file, line and column.
    pub fn parse(text: &str, display: &str) -> Result<Policy, InputError> {
        let doc = parse::toml(text, display)?;
        let mut p: Policy = toml_edit::de::from_str(text).map_err(|e| {
            let (l, c) = e
                .span()
                .map(|s| crate::text::line_col(text, s.start))
                .unwrap_or((1, 1));
            InputError::at(
                display,
                l,
                c,
                format!("invalid policy: {}", e.message().trim()),
            )
        })?;
        p.path = display.to_string();
        p.positions = doc.positions;
        let at = |ptr: &str, msg: String| {
            let (l, c) = p.positions.get(ptr).copied().unwrap_or((1, 1));
            InputError::at(display, l, c, format!("invalid policy: {msg}"))
        };
        if p.version != FORMAT_VERSION {
            return Err(at(
                "/version",
                format!(
                    "version {} is not supported (this build reads version {FORMAT_VERSION})",
                    p.version
                ),
            ));
        }
        for (id, e) in &p.servers {
            if e.owner.trim().is_empty() {
                return Err(at(
                    &format!("/servers/{}/owner", ptr_seg(id)),
                    format!("server `{id}` needs an owner"),
                ));
            }
        }
        for (i, s) in p.suppressions.iter().enumerate() {
            if s.owner.trim().is_empty() || s.reason.trim().is_empty() {
                return Err(at(
                    &format!("/suppressions/{i}"),
                    "a suppression needs an owner and a reason".into(),
                ));
            }
        }
        Ok(p)
    }

    /// Read and parse a policy file within the size bound.
    pub fn load(path: &Path, display: &str, max_bytes: u64) -> Result<Policy, InputError> {
        let text = parse::read_text(path, display, max_bytes)?;
        Policy::parse(&text, display)
    }

    /// The location of a pointer in the policy file (its first line when unknown).
    fn loc(&self, ptr: &str) -> Location {
        let (l, c) = self.positions.get(ptr).copied().unwrap_or((1, 1));
        Location::new(&self.path, l, c)
    }
}

/// Breaches of the contract fail the gate on their own (the seed: pass or fail,
/// never an average). MTC-POL-004 (a literal secret) runs without a policy too and,
/// like every detection rule, gates through the grade.
pub fn is_violation(f: &Finding) -> bool {
    f.rule_id.starts_with("MTC-POL-")
        && f.rule_id != "MTC-POL-004"
        && f.severity >= Severity::Medium
}

/// Every URL a server is reached at: a remote URL, or URLs in a stdio server's arguments.
fn endpoints(t: &Transport) -> Vec<(String, url::Url)> {
    let parse = |s: &str| {
        url::Url::parse(s).ok().filter(|u| {
            matches!(u.scheme(), "http" | "https" | "ws" | "wss") && u.host_str().is_some()
        })
    };
    match t {
        Transport::Remote { url, .. } => parse(url)
            .map(|u| vec![("url".to_string(), u)])
            .unwrap_or_default(),
        Transport::Stdio { args, .. } => args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| parse(a).map(|u| (format!("args[{i}]"), u)))
            .collect(),
        Transport::Unknown => Vec::new(),
    }
}

/// A URL fit to print: the shared redactor (userinfo, secret parameters).
fn safe_url(raw: &str) -> String {
    crate::text::redact_url(raw)
}

fn is_loopback(u: &url::Url) -> bool {
    match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether a `network_allow` entry admits `u`; `explicit_scheme` additionally
/// requires the entry to name the URL's scheme (how plain http is allowed).
fn allows(entry: &str, u: &url::Url, explicit_scheme: bool) -> bool {
    let entry = entry.trim().to_ascii_lowercase();
    let (scheme, rest) = match entry.split_once("://") {
        Some((s, r)) => (Some(s.to_string()), r.to_string()),
        None => (None, entry.clone()),
    };
    if explicit_scheme && scheme.is_none() {
        return false;
    }
    if scheme.as_deref().is_some_and(|s| s != u.scheme()) {
        return false;
    }
    let hostport = rest.split('/').next().unwrap_or("");
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p))
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':') =>
        {
            (h, p.parse::<u16>().ok())
        }
        _ => (hostport, None),
    };
    let actual = u.host_str().unwrap_or("").to_ascii_lowercase();
    let host_ok = match host.strip_prefix("*.") {
        Some(domain) => actual.ends_with(&format!(".{domain}")),
        None => actual == host,
    };
    host_ok && port.is_none_or(|p| u.port_or_known_default() == Some(p))
}

/// The checks of one enabled server against its entry.
fn check_server(p: &Policy, sr: &ServerResult, now: Date, out: &mut Vec<Finding>) {
    let s = &sr.surface;
    let here = s.source.location.clone();
    let id = s.id.as_str();
    let Some(e) = p.servers.get(id) else {
        if p.gate.require_entries {
            out.push(
                Finding::new(
                    "MTC-POL-001",
                    format!(
                        "server `{}` is enabled but has no entry in the policy {}",
                        s.name, p.path
                    ),
                    here,
                )
                .server(id)
                .evidence(format!("no [servers.\"{id}\"] table in {}", p.path)),
            );
        }
        return;
    };
    let entry_ptr = format!("/servers/{}", ptr_seg(id));

    for t in &s.tools {
        if e.tools_allow.contains(&t.name) {
            continue;
        }
        let roles = sr
            .roles
            .get(&t.name)
            .map(|r| r.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", "))
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| "none detected".into());
        out.push(
            Finding::new("MTC-POL-002", format!("server `{}` exposes tool `{}` (roles: {roles}), which its policy entry does not list in tools_allow", s.name, t.name), s.location_for(Some(&t.name)))
                .server(id)
                .tool(Some(&t.name))
                .field(format!("tools[{}]", t.name))
                .evidence(format!("roles: {roles}; tools_allow: [{}]", e.tools_allow.join(", "))),
        );
    }

    for k in s.env.keys() {
        if !e.env_allow.contains(k) {
            out.push(
                Finding::new("MTC-POL-003", format!("server `{}` is given environment variable `{k}`, which its policy entry does not list in env_allow", s.name), here.clone())
                    .server(id)
                    .field(format!("env.{k}"))
                    .evidence(format!("env_allow: [{}]", e.env_allow.join(", "))),
            );
        }
    }

    for (field, u) in endpoints(&s.transport) {
        let host = u.host_str().unwrap_or("");
        if !e.network_allow.iter().any(|a| allows(a, &u, false)) {
            out.push(
                Finding::new("MTC-POL-005", format!("server `{}` reaches host `{host}`, which its policy entry does not list in network_allow", s.name), here.clone())
                    .server(id)
                    .field(field.clone())
                    .evidence(format!("{}; network_allow: [{}]", safe_url(u.as_str()), e.network_allow.join(", "))),
            );
        }
        if matches!(u.scheme(), "http" | "ws")
            && !is_loopback(&u)
            && !e.network_allow.iter().any(|a| allows(a, &u, true))
        {
            out.push(
                Finding::new(
                    "MTC-POL-006",
                    format!(
                        "server `{}` is reached over plain {} at `{host}`",
                        s.name,
                        u.scheme()
                    ),
                    here.clone(),
                )
                .server(id)
                .field(field)
                .evidence(safe_url(u.as_str())),
            );
        }
    }

    check_pin(p, e, sr, &entry_ptr, out);

    if now > e.review_expires {
        out.push(
            Finding::new(
                "MTC-POL-009",
                format!(
                    "the policy review of server `{}` expired on {} (owner {})",
                    s.name, e.review_expires, e.owner
                ),
                p.loc(&format!("{entry_ptr}/review_expires")),
            )
            .server(id)
            .evidence(format!(
                "review_expires = {}, today is {now}",
                e.review_expires
            )),
        );
    }
}

/// MTC-POL-007/008: the launch must match the entry's pin, and the pin must be immutable.
fn check_pin(
    p: &Policy,
    e: &ServerEntry,
    sr: &ServerResult,
    entry_ptr: &str,
    out: &mut Vec<Finding>,
) {
    let s = &sr.surface;
    let here = s.source.location.clone();
    let mut differs = |what: &str, actual: String, pinned: String| {
        out.push(
            Finding::new("MTC-POL-007", format!("server `{}` launches with {what} `{actual}`, but its policy entry pins `{pinned}`", s.name), here.clone())
                .server(&s.id)
                .evidence(format!("{what}: config `{actual}`, policy `{pinned}`")),
        );
    };
    if let Some(t) = e.transport.filter(|t| !t.matches(&s.transport)) {
        differs(
            "transport",
            s.transport.kind_str().to_string(),
            t.as_str().to_string(),
        );
    }
    let mut pinned = false;
    match &s.transport {
        Transport::Stdio { command, args, .. } => {
            // Pins compare in redacted form on both sides: a policy drafted by
            // `policy init` (which never writes a secret) matches the config.
            if let Some(c) = &e.command {
                pinned = true;
                let (actual, pin) = (
                    crate::text::redact_command(command),
                    crate::text::redact_command(c),
                );
                if actual != pin {
                    differs("command", actual, pin);
                }
            }
            if let Some(a) = &e.args {
                pinned = true;
                let (actual, pin) = (crate::text::redact_args(args), crate::text::redact_args(a));
                if actual != pin {
                    differs("arguments", actual.join(" "), pin.join(" "));
                }
            }
            if let Some(pk) = &e.package {
                pinned = true;
                let actual = s
                    .package
                    .as_ref()
                    .map(|p| crate::text::redact_command(&p.spec))
                    .unwrap_or_else(|| "(no package)".into());
                let pk = crate::text::redact_command(pk);
                if actual != pk {
                    differs("package", actual, pk);
                }
            }
        }
        Transport::Remote { url, .. } => {
            if let Some(u) = &e.url {
                pinned = true;
                if safe_url(u) != safe_url(url) {
                    differs("URL", safe_url(url), safe_url(u));
                }
            }
        }
        Transport::Unknown => pinned = true,
    }
    if let Some(pkg) = s.package.as_ref().filter(|p| !p.pinned) {
        out.push(
            Finding::new(
                "MTC-POL-008",
                format!(
                    "server `{}` runs package `{}` without an immutable version",
                    s.name,
                    crate::text::redact_command(&pkg.spec)
                ),
                here.clone(),
            )
            .server(&s.id)
            .evidence(format!(
                "{} {}",
                pkg.registry,
                crate::text::redact_command(&pkg.spec)
            )),
        );
    }
    if !pinned {
        out.push(
            Finding::new(
                "MTC-POL-008",
                format!(
                    "the policy entry of server `{}` pins no artifact (no package, command or url)",
                    s.name
                ),
                p.loc(entry_ptr),
            )
            .server(&s.id)
            .evidence(format!("[servers.\"{}\"] approves a name only", s.id)),
        );
    }
}

/// Whether a suppression covers a finding raised in scope `scope` (server or session id).
fn covers(sup: &SuppressionEntry, f: &Finding, scope: &str) -> bool {
    f.rule_id != "MTC-POL-010"
        && sup.rule.eq_ignore_ascii_case(&f.rule_id)
        && f.server.as_deref().unwrap_or(scope) == sup.server
        && sup
            .tool
            .as_ref()
            .is_none_or(|t| f.tool.as_deref() == Some(t.as_str()))
}

fn suppress(findings: &mut [Finding], scope: &str, active: &[&SuppressionEntry]) {
    for f in findings {
        f.suppressed = active
            .iter()
            .find(|s| covers(s, f, scope))
            .map(|s| Suppression {
                reason: s.reason.clone(),
                owner: s.owner.clone(),
                expires: s.expires.to_string(),
            });
    }
}

/// Apply a policy to a finished pipeline result (see the module docs).
/// `root` is the repository root; `cli_fail_on` is `--fail-on` (or the workflow's
/// `fail-on`): the policy's gate may be stricter, never looser.
///
/// `drift_in_verdicts`: whether a server's verdict counts its drift (the
/// policy's `drift_fails`). `ci` passes false: there drift gates on its own,
/// through `fail-on-drift` (see `gate::DriftRule`).
pub fn apply(
    result: &mut ScanResult,
    p: &Policy,
    now: Date,
    cli_fail_on: FailOn,
    root: &Path,
    drift_in_verdicts: bool,
) {
    let fail_on = p.gate.fail_on_with_floor(cli_fail_on);
    let mut own = Vec::new();

    for sr in result.servers.iter_mut().filter(|s| !s.surface.disabled) {
        let mut add = Vec::new();
        check_server(p, sr, now, &mut add);
        sr.findings.extend(add);
    }

    for (i, sup) in p
        .suppressions
        .iter()
        .enumerate()
        .filter(|(_, s)| now > s.expires)
    {
        let tool = sup
            .tool
            .as_ref()
            .map(|t| format!(" tool `{t}`"))
            .unwrap_or_default();
        let f = Finding::new(
            "MTC-POL-010",
            format!("the suppression of {} on `{}`{tool} expired on {} (owner {}): the finding counts again", sup.rule, sup.server, sup.expires, sup.owner),
            p.loc(&format!("/suppressions/{i}")),
        )
        .server(&sup.server)
        .tool(sup.tool.as_deref())
        .evidence(format!("expires = {}, reason: {}", sup.expires, sup.reason));
        match result
            .servers
            .iter_mut()
            .find(|s| s.surface.id == sup.server)
        {
            Some(sr) => sr.findings.push(f),
            None => own.push(f),
        }
    }

    for id in p.servers.keys() {
        if result
            .servers
            .iter()
            .any(|s| s.surface.id == *id && !s.surface.disabled)
        {
            continue;
        }
        let file = id.split('#').next().unwrap_or(id);
        // Only judge entries whose config was part of this scan, or whose config is gone.
        let scanned = result.files.iter().any(|(f, _)| f == file)
            || result.skipped.iter().any(|(f, _)| f == file)
            || result.servers.iter().any(|s| s.surface.id == *id);
        let exists = crate::acquire::confine::inside(root, file).is_some_and(|p| p.exists());
        if scanned || !exists {
            own.push(
                Finding::new("MTC-POL-011", format!("the policy approves server `{id}`, which no scanned config enables any more"), p.loc(&format!("/servers/{}", ptr_seg(id))))
                    .server(id)
                    .evidence(format!("[servers.\"{id}\"]")),
            );
        }
    }

    let active: Vec<&SuppressionEntry> =
        p.suppressions.iter().filter(|s| now <= s.expires).collect();
    for sr in &mut result.servers {
        let scope = sr.surface.id.clone();
        suppress(&mut sr.findings, &scope, &active);
        sort_dedup(&mut sr.findings);
        sr.score = score::score(&sr.findings);
    }
    for f in &mut own {
        let scope = f.server.clone().unwrap_or_default();
        suppress(std::slice::from_mut(f), &scope, &active);
    }
    sort_dedup(&mut own);
    let servers = &result.servers;
    for sess in &mut result.sessions {
        let scope = sess.id.clone();
        suppress(&mut sess.findings, &scope, &active);
        let members = servers
            .iter()
            .filter(|s| sess.servers.contains(&s.surface.id));
        sess.score = score::score(
            members
                .flat_map(|m| m.findings.iter())
                .chain(sess.findings.iter()),
        );
    }
    for sr in result.servers.iter_mut() {
        sr.policy =
            (!sr.surface.disabled).then(|| server_verdict(sr, p, fail_on, drift_in_verdicts));
    }
    result.policy = Some(PolicyOutcome {
        path: p.path.clone(),
        fail_on,
        drift_fails: p.gate.drifts_fail(),
        require_entries: p.gate.require_entries,
        findings: own,
    });
}

/// Why a server fails with the findings as they count.
fn fail_reasons<'a>(
    findings: impl Iterator<Item = &'a Finding> + Clone,
    grade: Grade,
    fail_on: FailOn,
) -> Vec<String> {
    let mut reasons = Vec::new();
    if fail_on.fails(grade) {
        reasons.push(format!("graded {grade} (the gate fails at {fail_on})"));
    }
    let rules: BTreeSet<&str> = findings
        .filter(|f| is_violation(f))
        .map(|f| f.rule_id.as_str())
        .collect();
    for r in rules {
        let title = crate::rules::get(r).map(|x| x.title.as_str()).unwrap_or("");
        reasons.push(format!("{r} {title}"));
    }
    reasons
}

fn server_verdict(
    sr: &ServerResult,
    p: &Policy,
    fail_on: FailOn,
    drift_in_verdicts: bool,
) -> PolicyVerdict {
    let entry = p.servers.get(&sr.surface.id);
    let mut v = PolicyVerdict {
        decision: Decision::Pass,
        reasons: fail_reasons(
            sr.findings.iter().filter(|f| f.suppressed.is_none()),
            sr.score.grade,
            fail_on,
        ),
        owner: entry.map(|e| e.owner.clone()),
        review_expires: entry.map(|e| e.review_expires.to_string()),
        exception: None,
    };
    if drift_in_verdicts && p.gate.drifts_fail() && sr.drift.is_some() {
        v.reasons
            .push("unreviewed drift against the lockfile".into());
    }
    if !v.reasons.is_empty() {
        v.decision = Decision::Fail;
        return v;
    }
    let suppressed: Vec<&Finding> = sr
        .findings
        .iter()
        .filter(|f| f.suppressed.is_some())
        .collect();
    if suppressed.is_empty() {
        return v;
    }
    let unsuppressed: Vec<Finding> = sr
        .findings
        .iter()
        .cloned()
        .map(|mut f| {
            f.suppressed = None;
            f
        })
        .collect();
    let would_fail = fail_reasons(
        unsuppressed.iter(),
        score::score(&unsuppressed).grade,
        fail_on,
    );
    if would_fail.is_empty() {
        return v;
    }
    let owners: BTreeSet<&str> = suppressed
        .iter()
        .filter_map(|f| f.suppressed.as_ref())
        .map(|s| s.owner.as_str())
        .collect();
    let expires = suppressed
        .iter()
        .filter_map(|f| f.suppressed.as_ref())
        .map(|s| s.expires.as_str())
        .min()
        .unwrap_or_default();
    let rules: BTreeSet<&str> = suppressed.iter().map(|f| f.rule_id.as_str()).collect();
    v.decision = Decision::Exception;
    v.reasons = would_fail;
    v.exception = Some(Exception {
        owner: owners.into_iter().collect::<Vec<_>>().join(", "),
        expires: expires.to_string(),
        rules: rules.into_iter().map(str::to_string).collect(),
    });
    v
}

/// The policy for a scan: `explicit`, else `<root>/mcptrustchecker.toml` when
/// present. An explicit file that is missing, or any malformed policy, is an error.
pub fn find(
    root: &Path,
    explicit: Option<&Path>,
    max_bytes: u64,
) -> Result<Option<Policy>, InputError> {
    // The default file is the repository's: read only inside it (a symlink
    // leaving the repository is refused). An explicit `--policy` is the user's choice.
    let path = match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => {
            let ws = crate::acquire::confine::Workspace::new(root)
                .map_err(|e| InputError::new(DEFAULT_FILE, e.to_string()))?;
            let (p, _) = ws.resolve(DEFAULT_FILE).map_err(|e| {
                InputError::new(DEFAULT_FILE, format!("{e}; pass --policy FILE to use it"))
            })?;
            Some(p).filter(|p| p.is_file())
        }
    };
    path.map(|path| {
        let display = crate::acquire::display_path(&path, root);
        Policy::load(&path, &display, max_bytes)
    })
    .transpose()
}

/// The policy column of a Markdown server table: `pass`, `**fail**`, or
/// `exception (owner, until DATE)`, with policy text escaped so it cannot inject Markdown.
pub fn markdown_cell(v: Option<&PolicyVerdict>) -> String {
    match v {
        None => "—".into(),
        Some(v) => match (&v.decision, &v.exception) {
            (Decision::Exception, Some(x)) => format!(
                "exception ({}, until {})",
                markdown_escape(&x.owner),
                markdown_escape(&x.expires)
            ),
            (Decision::Fail, _) => "**fail**".into(),
            (d, _) => d.as_str().into(),
        },
    }
}

/// Escape text for a Markdown table cell: no HTML, links, emphasis, mentions or pipes.
fn markdown_escape(s: &str) -> String {
    let mut out = String::new();
    for c in crate::text::visible(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '@' => out.push_str("&#64;"),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '#' | '!' | '~' | '{' | '}'
            | ':' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
