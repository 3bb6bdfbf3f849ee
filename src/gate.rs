//! The gate: the one place that turns a finished scan (grades, the policy's
//! verdicts, drift) into pass or fail, and a verdict into an exit code. `scan`,
//! `diff`, `lock` and `ci` all end here, so they cannot disagree.

use crate::finding::Finding;
use crate::model::{Decision, ScanResult, Verdict};
use crate::output::exit;
use crate::score::FailOn;
use crate::text::visible;

/// How drift from the lockfile and servers missing from it count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriftRule {
    /// `scan`: a surface that drifted from its pin fails the gate.
    Always,
    /// `ci`: drift fails with `fail-on-drift` only, judged apart from the
    /// policy's per-server verdicts; with `unpinned_gates` (a change under
    /// review) a server with no lockfile entry fails too.
    Ci {
        fail_on_drift: bool,
        unpinned_gates: bool,
    },
}

/// The verdict, and what the CI outputs say about it.
#[derive(Debug, Clone)]
pub struct Gate {
    pub verdict: Verdict,
    /// Servers whose surface differs from the lockfile: drift nobody reviewed.
    pub drifted: Vec<String>,
    /// Servers with no lockfile entry that fail the gate (`ci` on a change only).
    pub unpinned: Vec<String>,
    /// Servers with no lockfile entry whose catalog was not read (config-only):
    /// they cannot be pinned statically, so they are reported, not gated.
    pub uninspected: Vec<String>,
    pub worst_score: Option<i64>,
    /// Unsuppressed findings, servers and sessions together.
    pub findings: usize,
}

impl Gate {
    /// Unreviewed change of any kind (the CI's `drift` output).
    pub fn drift(&self) -> bool {
        !self.drifted.is_empty() || !self.unpinned.is_empty()
    }

    /// 1 when the gate failed, else 2 when an input could not be read, else 0.
    pub fn exit_code(&self, input_errors: bool) -> i32 {
        exit_code(&self.verdict, input_errors)
    }
}

/// Judge a scan. `cli_fail_on` is `--fail-on` (or the workflow's `fail-on`);
/// a policy in force may make it stricter (see `policy::apply`).
pub fn decide(r: &ScanResult, cli_fail_on: FailOn, drift: DriftRule) -> Gate {
    let fail_on = r.policy.as_ref().map_or(cli_fail_on, |o| o.fail_on);
    let mut reasons = Vec::new();
    for s in &r.servers {
        if fail_on.fails(s.score.grade) {
            reasons.push(format!(
                "server {} graded {}",
                visible(&s.surface.id),
                s.score.grade
            ));
        }
    }
    if drift == DriftRule::Always {
        for s in r.servers.iter().filter(|s| s.drift.is_some()) {
            reasons.push(format!(
                "server {} drifted from its lockfile pin",
                visible(&s.surface.id)
            ));
        }
    }
    for s in &r.sessions {
        if fail_on.fails(s.score.grade) {
            reasons.push(format!(
                "session {} graded {}",
                visible(&s.id),
                s.score.grade
            ));
        }
    }
    if let Some(o) = &r.policy {
        for s in &r.servers {
            if let Some(pv) = s.policy.as_ref().filter(|pv| pv.decision == Decision::Fail) {
                for why in pv.reasons.iter().filter(|r| !r.starts_with("graded ")) {
                    reasons.push(format!(
                        "server {}: {}",
                        visible(&s.surface.id),
                        visible(why)
                    ));
                }
            }
        }
        for f in o
            .findings
            .iter()
            .filter(|f| f.suppressed.is_none() && crate::policy::is_violation(f))
        {
            reasons.push(format!("{}: {}", f.rule_id, visible(&f.message)));
        }
    }

    let drifted: Vec<String> = r
        .servers
        .iter()
        .filter(|s| s.drift.is_some())
        .map(|s| s.surface.id.clone())
        .collect();
    // Only a catalog that was read can be pinned; a config-only server is
    // reported (MTC-META-001, and in the comment) but cannot be locked statically.
    let (mut unpinned, mut uninspected) = (Vec::new(), Vec::new());
    for s in r
        .servers
        .iter()
        .filter(|s| r.unpinned.contains(&s.surface.id))
    {
        if crate::lock::pin::acquired(&s.surface) {
            unpinned.push(s.surface.id.clone());
        } else {
            uninspected.push(s.surface.id.clone());
        }
    }
    if let DriftRule::Ci {
        fail_on_drift,
        unpinned_gates,
    } = drift
    {
        if !unpinned_gates {
            unpinned.clear();
        }
        if fail_on_drift {
            for id in &drifted {
                reasons.push(format!(
                    "server {} drifted from the lockfile without a reviewed lockfile change",
                    visible(id)
                ));
            }
            for id in &unpinned {
                reasons.push(format!(
                    "server {} has no lockfile entry: run `mcptrustchecker lock` and commit",
                    visible(id)
                ));
            }
        }
    }

    let worst_grade = r
        .servers
        .iter()
        .map(|s| s.score.grade)
        .chain(r.sessions.iter().map(|s| s.score.grade))
        .max();
    let worst_score = r
        .servers
        .iter()
        .map(|s| s.score.value)
        .chain(r.sessions.iter().map(|s| s.score.value))
        .min();
    let findings = all_findings(r).filter(|f| f.suppressed.is_none()).count();
    Gate {
        verdict: Verdict {
            failed: !reasons.is_empty(),
            reasons,
            worst_grade,
        },
        drifted,
        unpinned,
        uninspected,
        worst_score,
        findings,
    }
}

/// Every finding of a result, servers first, then sessions.
pub fn all_findings(r: &ScanResult) -> impl Iterator<Item = &Finding> {
    r.servers
        .iter()
        .flat_map(|s| &s.findings)
        .chain(r.sessions.iter().flat_map(|s| &s.findings))
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

/// `diff`: 1 on any change against the lockfile, else 2 when an input could
/// not be read, else 0.
pub fn drift_exit_code(changed: bool, input_errors: bool) -> i32 {
    if changed {
        exit::GATE_FAILED
    } else if input_errors {
        exit::INPUT_ERROR
    } else {
        exit::OK
    }
}

/// The verdict in one line (stderr for humans, the CI log).
pub fn verdict_line(v: &Verdict) -> String {
    match (v.failed, v.worst_grade) {
        (true, _) => {
            // One line on stderr: a 1,000-server session names the first few only.
            const SHOWN: usize = 5;
            let mut line = format!(
                "gate failed: {}",
                v.reasons
                    .iter()
                    .take(SHOWN)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            if v.reasons.len() > SHOWN {
                line.push_str(&format!("; and {} more", v.reasons.len() - SHOWN));
            }
            line
        }
        (false, Some(g)) => format!("gate passed: worst grade {g}"),
        (false, None) => "gate passed: no MCP servers found".into(),
    }
}
