//! `mcptrustchecker policy init`: draft a policy from what the configs enable
//! today, so adoption is one command. Every enabled server gets an entry with its
//! current launch pinned, its current tools, env names and hosts allowed, an
//! owner placeholder and a review expiry 90 days out. Plain-http hosts are left
//! for a human to allow explicitly.

use super::{Date, FORMAT_VERSION};
use crate::model::ScanResult;
use crate::surface::Transport;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Days until the first review of a drafted entry.
pub const REVIEW_DAYS: i64 = 90;
/// The owner written into drafted entries until a human sets one.
pub const OWNER_PLACEHOLDER: &str = "TODO: team or person";

/// A TOML basic string (also a valid quoted key).
fn q(s: &str) -> String {
    toml_edit::Value::from(s).to_string().trim().to_string()
}

fn list<'a>(items: impl IntoIterator<Item = &'a String>) -> String {
    let v: Vec<String> = items.into_iter().map(|s| q(s)).collect();
    format!("[{}]", v.join(", "))
}

/// Tool names per server id from a lockfile, read leniently: `servers` (or
/// `entries`) as a map keyed by id or a list of objects with `id`, each with
/// `tools` as a list of names or of objects with `name`, or a map keyed by name.
pub fn lockfile_tools(lock: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let servers = lock.get("servers").or_else(|| lock.get("entries"));
    let entries: Vec<(String, &Value)> = match servers {
        Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| Some((v.get("id")?.as_str()?.to_string(), v)))
            .collect(),
        _ => Vec::new(),
    };
    for (id, e) in entries {
        let tools = e
            .get("tools")
            .or_else(|| e.pointer("/snapshot/tools"))
            .or_else(|| e.pointer("/surface/tools"));
        let names: Vec<String> = match tools {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|t| {
                    t.as_str()
                        .or_else(|| t.get("name").and_then(Value::as_str))
                        .map(str::to_string)
                })
                .collect(),
            Some(Value::Object(m)) => m.keys().cloned().collect(),
            _ => Vec::new(),
        };
        out.entry(id).or_default().extend(names);
    }
    out
}

/// The drafted policy file.
pub fn render(result: &ScanResult, lock: Option<&Value>, now: Date) -> String {
    let locked = lock.map(lockfile_tools).unwrap_or_default();
    let expires = now.add_days(REVIEW_DAYS);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# MCP Trust Checker policy: the allowlist as a versioned capability contract."
    );
    let _ = writeln!(
        out,
        "# Drafted by `mcptrustchecker policy init` on {now} from the current configs."
    );
    let _ = writeln!(
        out,
        "# Before committing: set every owner, narrow tools_allow / env_allow / network_allow"
    );
    let _ = writeln!(
        out,
        "# to what each server needs, and review the pins. See README, section \"Policy\"."
    );
    let _ = writeln!(out, "version = {FORMAT_VERSION}\n");
    let _ = writeln!(out, "[gate]");
    let _ = writeln!(
        out,
        "fail_on = \"F\"           # a server or session graded this or worse fails"
    );
    let _ = writeln!(
        out,
        "drift_fails = true       # unreviewed drift against mcptrustchecker.lock fails"
    );
    let _ = writeln!(
        out,
        "require_entries = true   # a server without an entry here fails"
    );
    for s in result.servers.iter().filter(|s| !s.surface.disabled) {
        let sf = &s.surface;
        let _ = writeln!(out, "\n[servers.{}]", q(&sf.id));
        let _ = writeln!(out, "owner = {}", q(OWNER_PLACEHOLDER));
        let _ = writeln!(out, "review_expires = {expires}");
        match &sf.transport {
            Transport::Stdio { command, args, .. } => {
                let _ = writeln!(out, "transport = \"stdio\"");
                // Pins are written redacted (the file is committed); the
                // check compares redacted forms, so they still match.
                let _ = writeln!(
                    out,
                    "command = {}",
                    q(&crate::text::redact_command(command))
                );
                let _ = writeln!(out, "args = {}", list(&crate::text::redact_args(args)));
                if let Some(p) = &sf.package {
                    let _ = writeln!(
                        out,
                        "package = {}",
                        q(&crate::text::redact_command(&p.spec))
                    );
                }
            }
            Transport::Remote { url, .. } => {
                let _ = writeln!(out, "transport = {}", q(sf.transport.kind_str()));
                let _ = writeln!(out, "url = {}", q(&crate::text::redact_url(url)));
            }
            Transport::Unknown => {}
        }
        let mut tools: BTreeSet<String> = sf.tools.iter().map(|t| t.name.clone()).collect();
        if let Some(l) = locked.get(&sf.id) {
            tools.extend(l.iter().cloned());
        }
        let _ = writeln!(out, "tools_allow = {}", list(&tools));
        let _ = writeln!(out, "env_allow = {}", list(sf.env.keys()));
        let hosts: BTreeSet<String> = super::checks::endpoints(&sf.transport)
            .into_iter()
            .filter(|(_, u)| matches!(u.scheme(), "https" | "wss") || super::checks::is_loopback(u))
            .filter_map(|(_, u)| {
                Some(match u.port() {
                    Some(p) => format!("{}:{p}", u.host_str()?),
                    None => u.host_str()?.to_string(),
                })
            })
            .collect();
        let _ = writeln!(out, "network_allow = {}", list(&hosts));
    }
    let _ = writeln!(
        out,
        "\n# Time-limited exceptions, e.g.:\n# [[suppressions]]\n# rule = \"MTC-META-001\"\n# server = \"<server id>\"\n# reason = \"why this is acceptable for now\"\n# owner = \"team\"\n# expires = {expires}"
    );
    out
}
