//! One server's policy verdict: pass, fail, or a time-limited exception that
//! rests on active suppressions. The scan's gate ([`crate::gate`]) reads these.

use super::Policy;
use crate::finding::{Finding, Severity};
use crate::model::{Decision, Exception, PolicyVerdict, ServerResult};
use crate::rules::ids;
use crate::score::{self, FailOn, Grade};
use std::collections::BTreeSet;

/// Breaches of the contract fail the gate on their own (the seed: pass or fail,
/// never an average). MTC-POL-004 (a literal secret) runs without a policy too and,
/// like every detection rule, gates through the grade.
pub fn is_violation(f: &Finding) -> bool {
    f.rule_id.starts_with("MTC-POL-")
        && f.rule_id != ids::MTC_POL_004
        && f.severity >= Severity::Medium
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

pub(super) fn server_verdict(
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
