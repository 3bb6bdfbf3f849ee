//! The JSON report: a stable, documented schema (see README "JSON report").
//! Internal structs are mapped into these DTOs so refactors don't break users.

use crate::finding::{Finding, Severity};
use crate::model::{ScanResult, ServerResult, SessionResult, Verdict};
use crate::score::Score;
use crate::surface::{Location, PackageId, Transport};
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of this JSON schema.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    schema_version: u32,
    tool: Tool,
    methodology: &'static str,
    servers: Vec<Server<'a>>,
    sessions: Vec<Session<'a>>,
    errors: &'a [crate::parse::InputError],
    skipped: Vec<Skipped<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<PolicyOut<'a>>,
    summary: Summary<'a>,
}

/// The policy in force and its file-level findings.
#[derive(Serialize)]
struct PolicyOut<'a> {
    path: &'a str,
    fail_on: crate::score::FailOn,
    drift_fails: bool,
    require_entries: bool,
    findings: Vec<FindingOut<'a>>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Skipped<'a> {
    path: &'a str,
    reason: &'a str,
}

#[derive(Serialize)]
struct SourceOut<'a> {
    path: &'a str,
    line: u32,
    column: u32,
    format: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    client: Option<&'static str>,
    transport: &'static str,
    /// Launch facts are shown redacted (credentials in arguments and URLs).
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    env: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    headers: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<PackageId>,
}

#[derive(Serialize)]
struct Server<'a> {
    id: &'a str,
    name: &'a str,
    source: SourceOut<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    coverage: &'static str,
    disabled: bool,
    digest: &'a str,
    counts: Counts,
    roles: &'a BTreeMap<String, std::collections::BTreeSet<crate::model::Role>>,
    score: &'a Score,
    findings: Vec<FindingOut<'a>>,
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<&'a crate::model::PolicyVerdict>,
}

#[derive(Serialize)]
struct Counts {
    tools: usize,
    prompts: usize,
    resources: usize,
    resource_templates: usize,
}

#[derive(Serialize)]
struct Session<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    client: Option<&'static str>,
    servers: &'a [String],
    score: &'a Score,
    findings: Vec<FindingOut<'a>>,
}

#[derive(Serialize)]
pub struct FindingOut<'a> {
    rule_id: &'a str,
    severity: Severity,
    confidence: crate::finding::Confidence,
    category: crate::finding::Category,
    message: &'a str,
    evidence: &'a str,
    location: &'a Location,
    #[serde(skip_serializing_if = "Option::is_none")]
    server: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suppressed: Option<&'a crate::finding::Suppression>,
}

fn finding(f: &Finding) -> FindingOut<'_> {
    FindingOut {
        rule_id: &f.rule_id,
        severity: f.severity,
        confidence: f.confidence,
        category: f.category,
        message: &f.message,
        evidence: &f.evidence,
        location: &f.location,
        server: f.server.as_deref(),
        tool: f.tool.as_deref(),
        field: f.field.as_deref(),
        suppressed: f.suppressed.as_ref(),
    }
}

#[derive(Serialize)]
struct Summary<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    worst_grade: Option<&'static str>,
    servers: usize,
    sessions: usize,
    findings: BTreeMap<&'static str, usize>,
    input_errors: usize,
    gate: &'a Verdict,
}

fn server(s: &ServerResult) -> Server<'_> {
    let t = &s.surface.transport;
    let (command, args, env, url, headers) = match t {
        Transport::Stdio {
            command,
            args,
            env_names,
            ..
        } => (
            Some(crate::text::redact_command(command)),
            Some(crate::text::redact_args(args)),
            Some(env_names.as_slice()),
            None,
            None,
        ),
        Transport::Remote {
            url, header_names, ..
        } => (
            None,
            None,
            None,
            Some(crate::text::redact_url(url)),
            Some(header_names.as_slice()),
        ),
        Transport::Unknown => (None, None, None, None, None),
    };
    Server {
        id: &s.surface.id,
        name: &s.surface.name,
        source: SourceOut {
            path: &s.surface.source.location.path,
            line: s.surface.source.location.line,
            column: s.surface.source.location.column,
            format: &s.surface.source.format,
            client: s.surface.source.client.map(|c| c.as_str()),
            transport: t.kind_str(),
            command,
            args,
            url,
            env,
            headers,
            package: s.surface.package.as_ref().map(redacted_package),
        },
        session: s.surface.session.as_deref(),
        coverage: s.surface.coverage.as_str(),
        disabled: s.surface.disabled,
        digest: &s.digest,
        counts: Counts {
            tools: s.surface.tools.len(),
            prompts: s.surface.prompts.len(),
            resources: s.surface.resources.len(),
            resource_templates: s.surface.resource_templates.len(),
        },
        roles: &s.roles,
        score: &s.score,
        findings: s.findings.iter().map(finding).collect(),
        notes: &s.surface.notes,
        policy: s.policy.as_ref(),
    }
}

/// A package id as reports show it: a spec like `git+https://user:token@…` redacted.
pub fn redacted_package(p: &PackageId) -> PackageId {
    let mut p = p.clone();
    p.spec = crate::text::redact_command(&p.spec);
    p.name = crate::text::redact_command(&p.name);
    p
}

fn session(s: &SessionResult) -> Session<'_> {
    Session {
        id: &s.id,
        client: s.client.map(|c| c.as_str()),
        servers: &s.servers,
        score: &s.score,
        findings: s.findings.iter().map(finding).collect(),
    }
}

/// Render the report as pretty JSON with a trailing newline.
pub fn render(r: &ScanResult, verdict: &Verdict) -> String {
    let mut counts: BTreeMap<&'static str, usize> =
        Severity::ALL.iter().map(|s| (s.as_str(), 0)).collect();
    let mut total = 0;
    let policy_findings = r.policy.iter().flat_map(|p| &p.findings);
    for f in r
        .servers
        .iter()
        .flat_map(|s| &s.findings)
        .chain(r.sessions.iter().flat_map(|s| &s.findings))
        .chain(policy_findings)
    {
        *counts.entry(f.severity.as_str()).or_default() += 1;
        total += 1;
    }
    counts.insert("total", total);
    let report = Report {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "mcptrustchecker",
            version: crate::VERSION,
        },
        methodology: crate::METHODOLOGY,
        servers: r.servers.iter().map(server).collect(),
        sessions: r.sessions.iter().map(session).collect(),
        errors: &r.errors,
        skipped: r
            .skipped
            .iter()
            .map(|(p, why)| Skipped {
                path: p,
                reason: why,
            })
            .collect(),
        policy: r.policy.as_ref().map(|p| PolicyOut {
            path: &p.path,
            fail_on: p.fail_on,
            drift_fails: p.drift_fails,
            require_entries: p.require_entries,
            findings: p.findings.iter().map(finding).collect(),
        }),
        summary: Summary {
            worst_grade: verdict.worst_grade.map(|g| g.as_str()),
            servers: r.servers.len(),
            sessions: r.sessions.len(),
            findings: counts,
            input_errors: r.errors.len(),
            gate: verdict,
        },
    };
    // Log-safe (no `##[` from scanned text), decoding to the same values.
    let mut s = crate::text::log_json(
        serde_json::to_string_pretty(&report)
            .unwrap_or_else(|e| format!("{{\"error\": \"serialisation failed: {e}\"}}")),
    );
    s.push('\n');
    s
}
