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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Drift, PolicyOutcome, PolicyVerdict, ServerResult, SessionResult};
    use crate::score::{Grade, Score};
    use crate::surface::{Coverage, Location, ServerSurface, Source, Transport};

    fn score(grade: Grade, value: i64) -> Score {
        let mut s = crate::score::score(std::iter::empty());
        s.grade = grade;
        s.value = value;
        s
    }

    fn server(id: &str, grade: Grade, coverage: Coverage, drift: bool) -> ServerResult {
        let source = Source {
            location: Location::new(id, 1, 1),
            format: "tool-manifest".into(),
            client: None,
        };
        let mut surface = ServerSurface::new(
            id.into(),
            id.into(),
            source,
            Transport::Stdio {
                command: "npx".into(),
                args: vec![],
                env_names: vec![],
                cwd: None,
            },
        );
        surface.coverage = coverage;
        ServerResult {
            surface,
            roles: Default::default(),
            findings: vec![],
            score: score(grade, if grade == Grade::F { 10 } else { 95 }),
            digest: String::new(),
            drift: drift.then(|| Drift {
                pinned_digest: String::new(),
                diff: Default::default(),
                lock_location: Location::new("mcptrustchecker.lock", 2, 3),
            }),
            policy: None,
        }
    }

    /// `f` graded F, `d` drifted, `n` unpinned with a read catalog, `c`
    /// unpinned and config-only, one session graded F.
    fn result() -> ScanResult {
        ScanResult {
            servers: vec![
                server("c", Grade::A, Coverage::ConfigOnly, false),
                server("d", Grade::A, Coverage::Manifest, true),
                server("f", Grade::F, Coverage::Manifest, false),
                server("n", Grade::A, Coverage::Manifest, false),
            ],
            sessions: vec![SessionResult {
                id: "s".into(),
                client: None,
                servers: vec!["f".into()],
                findings: vec![],
                score: score(Grade::F, 10),
            }],
            unpinned: vec!["c".into(), "n".into()],
            ..Default::default()
        }
    }

    const F: FailOn = FailOn::At(Grade::F);

    #[test]
    fn scan_fails_on_grades_and_any_drift_in_order() {
        let g = decide(&result(), F, DriftRule::Always);
        assert_eq!(
            g.verdict.reasons,
            [
                "server f graded F",
                "server d drifted from its lockfile pin",
                "session s graded F"
            ]
        );
        assert!(g.verdict.failed);
        assert_eq!(g.verdict.worst_grade, Some(Grade::F));
        assert_eq!(
            (g.drifted.as_slice(), g.unpinned.as_slice()),
            (&["d".to_string()][..], &["n".to_string()][..])
        );
        assert_eq!(g.uninspected, ["c"]);
        assert_eq!(g.worst_score, Some(10));
        assert_eq!(g.exit_code(false), exit::GATE_FAILED);
    }

    #[test]
    fn ci_judges_drift_last_and_unpinned_only_on_a_change() {
        let r = result();
        let pr = decide(
            &r,
            F,
            DriftRule::Ci {
                fail_on_drift: true,
                unpinned_gates: true,
            },
        );
        assert_eq!(
            pr.verdict.reasons,
            [
                "server f graded F",
                "session s graded F",
                "server d drifted from the lockfile without a reviewed lockfile change",
                "server n has no lockfile entry: run `mcptrustchecker lock` and commit",
            ]
        );
        assert!(pr.drift());
        let push = decide(
            &r,
            F,
            DriftRule::Ci {
                fail_on_drift: true,
                unpinned_gates: false,
            },
        );
        assert!(push.unpinned.is_empty() && push.verdict.reasons.len() == 3);
        // Without `fail-on-drift` drift is reported, never gated.
        let mut calm = result();
        calm.servers.retain(|s| s.score.grade != Grade::F);
        calm.sessions.clear();
        let g = decide(
            &calm,
            F,
            DriftRule::Ci {
                fail_on_drift: false,
                unpinned_gates: true,
            },
        );
        assert!(!g.verdict.failed && g.drift(), "{:?}", g.verdict.reasons);
        assert_eq!(g.exit_code(true), exit::INPUT_ERROR);
        assert_eq!(g.exit_code(false), exit::OK);
    }

    #[test]
    fn a_policy_sets_the_grade_and_adds_its_failures() {
        let mut r = result();
        r.servers.retain(|s| s.surface.id == "n");
        r.sessions.clear();
        r.servers[0].policy = Some(PolicyVerdict {
            decision: Decision::Fail,
            reasons: vec![
                "graded A (the gate fails at A)".into(),
                "MTC-POL-001 Server has no policy entry".into(),
            ],
            owner: None,
            review_expires: None,
            exception: None,
        });
        let stale = crate::finding::Finding::new(
            crate::rules::ids::MTC_POL_011,
            "the policy approves server `x`, which no scanned config enables any more",
            Location::new("mcptrustchecker.toml", 3, 1),
        );
        r.policy = Some(PolicyOutcome {
            path: "mcptrustchecker.toml".into(),
            fail_on: FailOn::At(Grade::A),
            drift_fails: true,
            require_entries: true,
            // A stale entry (low) is reported; a lapsed suppression (medium) gates.
            findings: vec![
                stale,
                crate::finding::Finding::new(
                    crate::rules::ids::MTC_POL_010,
                    "the suppression of MTC-INJ-POISON on `y` expired on 2026-01-01",
                    Location::new("mcptrustchecker.toml", 9, 1),
                ),
            ],
        });
        let v = decide(&r, F, DriftRule::Always).verdict;
        assert_eq!(
            v.reasons[0], "server n graded A",
            "the policy's fail_on applies"
        );
        assert_eq!(
            v.reasons[1],
            "server n: MTC-POL-001 Server has no policy entry"
        );
        assert!(
            v.reasons[2].starts_with("MTC-POL-010: the suppression of"),
            "{v:?}"
        );
        assert_eq!(v.reasons.len(), 3);
    }

    #[test]
    fn the_verdict_line_names_the_first_five_reasons() {
        let v = Verdict {
            failed: true,
            reasons: (1..=7).map(|i| format!("r{i}")).collect(),
            worst_grade: Some(Grade::F),
        };
        assert_eq!(
            verdict_line(&v),
            "gate failed: r1; r2; r3; r4; r5; and 2 more"
        );
        let pass = Verdict {
            failed: false,
            reasons: vec![],
            worst_grade: None,
        };
        assert_eq!(verdict_line(&pass), "gate passed: no MCP servers found");
        assert_eq!(drift_exit_code(true, true), exit::GATE_FAILED);
    }
}
