//! Output formats. Each takes the whole [`ScanResult`] and returns a string, so
//! every format is deterministic and testable without a terminal.

pub mod json;
pub mod markdown;
pub mod sarif;
pub mod terminal;

use crate::detect::ScanResult;
use crate::score::Grade;

/// The gate verdict for a scan.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    pub failed: bool,
    /// Why the gate failed, one line per reason (empty when it passed).
    pub reasons: Vec<String>,
    pub worst_grade: Option<Grade>,
}

/// The gate: any server or session graded `fail_on` or worse fails.
pub fn verdict(r: &ScanResult, fail_on: crate::score::FailOn) -> Verdict {
    let mut reasons = Vec::new();
    for s in &r.servers {
        if fail_on.fails(s.score.grade) {
            reasons.push(format!(
                "server {} graded {}",
                crate::text::visible(&s.surface.id),
                s.score.grade
            ));
        }
    }
    for s in r.servers.iter().filter(|s| s.drift.is_some()) {
        reasons.push(format!(
            "server {} drifted from its lockfile pin",
            crate::text::visible(&s.surface.id)
        ));
    }
    for s in &r.sessions {
        if fail_on.fails(s.score.grade) {
            reasons.push(format!(
                "session {} graded {}",
                crate::text::visible(&s.id),
                s.score.grade
            ));
        }
    }
    let worst = r
        .servers
        .iter()
        .map(|s| s.score.grade)
        .chain(r.sessions.iter().map(|s| s.score.grade))
        .max();
    Verdict {
        failed: !reasons.is_empty(),
        reasons,
        worst_grade: worst,
    }
}
