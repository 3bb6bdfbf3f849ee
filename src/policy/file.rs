//! The policy file's schema and its parser: every error names the file and
//! the line of the offending key.

use super::Date;
use crate::parse::{self, InputError, ptr_seg};
use crate::score::{FailOn, Grade};
use crate::surface::{Location, Transport};
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::BTreeMap;
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
    pub(super) fn matches(self, t: &Transport) -> bool {
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
    pub(super) fn as_str(self) -> &'static str {
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
    pub(super) fn loc(&self, ptr: &str) -> Location {
        let (l, c) = self.positions.get(ptr).copied().unwrap_or((1, 1));
        Location::new(&self.path, l, c)
    }
}
