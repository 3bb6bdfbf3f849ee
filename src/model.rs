//! The result of a scan as every later step reads it: the stages fill it, the
//! policy annotates it, the gate judges it and the reports render it. A leaf:
//! it names no stage, policy or report, so each of them can depend on it.

use crate::acquire::FileKind;
use crate::finding::Finding;
use crate::lock::diff::CatalogDiff;
use crate::parse::InputError;
use crate::score::{FailOn, Grade, Score};
use crate::surface::{Client, Location, ServerSurface};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Capability roles a tool can play (stage 3); stage 4 combines them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    UntrustedInput,
    SensitiveSource,
    ExternalSink,
    CodeExec,
    FileWrite,
    /// Deletes, wipes, overwrites, drops, truncates, force-pushes or kills.
    Destructive,
    /// Moves money, deploys, or grants and changes permissions.
    HighImpact,
    /// Requests a caller-chosen URL: a weaker egress (data can ride in the URL).
    UrlFetch,
}

impl Role {
    /// Parse a role name as written in the data files (`untrusted-input`, …).
    pub fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "untrusted-input" => Role::UntrustedInput,
            "sensitive-source" => Role::SensitiveSource,
            "external-sink" => Role::ExternalSink,
            "code-exec" => Role::CodeExec,
            "file-write" => Role::FileWrite,
            "destructive" => Role::Destructive,
            "high-impact" => Role::HighImpact,
            "url-fetch" => Role::UrlFetch,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::UntrustedInput => "untrusted-input",
            Role::SensitiveSource => "sensitive-source",
            Role::ExternalSink => "external-sink",
            Role::CodeExec => "code-exec",
            Role::FileWrite => "file-write",
            Role::Destructive => "destructive",
            Role::HighImpact => "high-impact",
            Role::UrlFetch => "url-fetch",
        }
    }
}

/// One server after the pipeline.
#[derive(Debug, Clone)]
pub struct ServerResult {
    pub surface: ServerSurface,
    /// Roles per tool name (stage 3).
    pub roles: BTreeMap<String, BTreeSet<Role>>,
    pub findings: Vec<Finding>,
    pub score: Score,
    /// SHA-256 of the canonical surface that was scored.
    pub digest: String,
    /// Drift against the committed lockfile (stage 7), when the surface is pinned and differs.
    pub drift: Option<Drift>,
    /// The policy gate's decision for this server, when a policy is in force.
    pub policy: Option<PolicyVerdict>,
}

/// A surface that no longer matches its lockfile pin.
#[derive(Debug, Clone)]
pub struct Drift {
    pub pinned_digest: String,
    pub diff: CatalogDiff,
    /// The pinned entry's line in the lockfile (SARIF location for MTC-TOFU-001).
    pub lock_location: Location,
}

/// One session: the servers one client config enables together.
#[derive(Debug, Clone)]
pub struct SessionResult {
    pub id: String,
    pub client: Option<Client>,
    pub servers: Vec<String>,
    /// Findings that belong to the session itself (cross-server).
    pub findings: Vec<Finding>,
    /// Score of the union of its servers' findings and its own.
    pub score: Score,
}

/// Everything a report needs.
#[derive(Debug, Clone, Default)]
pub struct ScanResult {
    pub servers: Vec<ServerResult>,
    pub sessions: Vec<SessionResult>,
    pub errors: Vec<InputError>,
    pub skipped: Vec<(String, String)>,
    pub files: Vec<(String, FileKind)>,
    /// Reviewed changes: the base → head lockfile diff (set by the CI mode).
    pub lockfile_changes: Vec<CatalogDiff>,
    /// Servers in a config with no lockfile entry (catalog never reviewed).
    pub unpinned: Vec<String>,
    /// Lockfile entries whose server no config declares any more.
    pub stale: Vec<String>,
    /// The policy file in force and its own findings (stale entries, lapsed suppressions).
    pub policy: Option<PolicyOutcome>,
}

/// The gate's decision for one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Pass,
    Fail,
    /// Passes only because of active suppressions: a time-limited exception.
    Exception,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Pass => "pass",
            Decision::Fail => "fail",
            Decision::Exception => "exception",
        }
    }
}

/// Who granted an exception, until when, and for which rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exception {
    pub owner: String,
    /// The earliest expiry among the suppressions it rests on.
    pub expires: String,
    pub rules: Vec<String>,
}

/// The seed's gate verdict for one server: pass, fail, or exception.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolicyVerdict {
    pub decision: Decision,
    /// Why it fails (or would fail without the exception).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The owner of the server's policy entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_expires: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<Exception>,
}

/// The policy in force for a scan, and the findings about the file itself.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyOutcome {
    pub path: String,
    /// The effective gate grade (the stricter of the policy's and `--fail-on`).
    pub fail_on: FailOn,
    pub drift_fails: bool,
    pub require_entries: bool,
    /// Stale entries and lapsed suppressions of servers no config declares.
    pub findings: Vec<Finding>,
}

/// The gate verdict for a scan.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    pub failed: bool,
    /// Why the gate failed, one line per reason (empty when it passed).
    pub reasons: Vec<String>,
    pub worst_grade: Option<Grade>,
}
