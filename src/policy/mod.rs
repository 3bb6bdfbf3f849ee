//! The policy file (`mcptrustchecker.toml`): the seed's allowlist as a
//! versioned capability contract. Per server id it binds an owner, a review
//! expiry, the tools, env names and hosts the server may use and the artifact it
//! may launch; it sets the gate; and it holds time-limited suppressions.
//!
//! [`apply`] runs after the pipeline: it adds the policy findings, marks
//! suppressed findings (they stay visible but stop counting until they expire),
//! re-scores servers and sessions, and decides each server's gate verdict in the
//! seed's terms: pass, fail, or exception (owner, expiry).

mod checks;
pub mod date;
pub mod diff;
mod file;
pub mod init;
mod verdict;

pub use date::Date;
pub use file::{
    DEFAULT_FILE, FORMAT_VERSION, GateSettings, Policy, ServerEntry, SuppressionEntry, TransportPin,
};
pub use verdict::is_violation;

use crate::finding::{Finding, Suppression, sort_dedup};
use crate::model::{PolicyOutcome, ScanResult};
use crate::parse::{InputError, ptr_seg};
use crate::rules::ids;
use crate::score::{self, FailOn};
use std::path::Path;

/// Whether a suppression covers a finding raised in scope `scope` (server or session id).
fn covers(sup: &SuppressionEntry, f: &Finding, scope: &str) -> bool {
    f.rule_id != ids::MTC_POL_010
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
        checks::check_server(p, sr, now, &mut add);
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
            ids::MTC_POL_010,
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
                Finding::new(ids::MTC_POL_011, format!("the policy approves server `{id}`, which no scanned config enables any more"), p.loc(&format!("/servers/{}", ptr_seg(id))))
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
        sr.policy = (!sr.surface.disabled)
            .then(|| verdict::server_verdict(sr, p, fail_on, drift_in_verdicts));
    }
    result.policy = Some(PolicyOutcome {
        path: p.path.clone(),
        fail_on,
        drift_fails: p.gate.drifts_fail(),
        require_entries: p.gate.require_entries,
        findings: own,
    });
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

#[cfg(test)]
mod tests;
