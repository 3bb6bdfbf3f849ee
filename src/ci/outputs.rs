//! How the CI verdict (decided by [`crate::gate`]) reaches GitHub: step
//! outputs and workflow annotations.

use crate::finding::{Finding, Severity};
use crate::gate::{Gate, all_findings};
use crate::model::ScanResult;
use crate::surface::Location;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Most annotations written per run (GitHub shows only the first few per step anyway).
const MAX_ANNOTATIONS: usize = 50;

use crate::detect::integrity::DRIFT_RULE;

/// `name=value` lines for `$GITHUB_OUTPUT`; a value with a line break uses
/// GitHub's heredoc form with a delimiter that cannot occur in it.
pub fn outputs(g: &Gate, sarif_file: &str) -> String {
    let pairs = [
        (
            "grade",
            g.verdict
                .worst_grade
                .map(|x| x.as_str().to_string())
                .unwrap_or_default(),
        ),
        (
            "score",
            g.worst_score.map(|x| x.to_string()).unwrap_or_default(),
        ),
        ("drift", g.drift().to_string()),
        ("findings", g.findings.to_string()),
        ("sarif-file", sarif_file.to_string()),
        ("passed", (!g.verdict.failed).to_string()),
    ];
    let mut out = String::new();
    for (k, v) in pairs {
        if v.contains('\n') || v.contains('\r') {
            let mut delim = String::from("MTC_EOF");
            while v.contains(&delim) {
                delim.push('_');
            }
            let _ = write!(out, "{k}<<{delim}\n{v}\n{delim}\n");
        } else {
            let _ = writeln!(out, "{k}={v}");
        }
    }
    out
}

/// Escape a workflow command's message (`%`, CR, LF, and the legacy `##[`).
pub fn escape_data(s: &str) -> String {
    crate::text::log::command_data(s)
}

/// Escape a workflow command property value (also `:` and `,`).
pub fn escape_property(s: &str) -> String {
    crate::text::log::command_property(s)
}

fn command(level: &str, loc: &Location, title: &str, message: &str) -> String {
    let mut props = vec![("file", loc.path.clone())];
    if loc.line > 0 {
        props.push(("line", loc.line.to_string()));
        if loc.column > 0 {
            props.push(("col", loc.column.to_string()));
        }
    }
    props.push(("title", crate::text::visible(title)));
    crate::text::workflow_command(level, &props, message)
}

/// `::error` annotations for what fails the gate: the serious findings of every
/// server or session graded at or below `fail_on`, drift, and unpinned servers.
pub fn annotations(
    r: &ScanResult,
    g: &Gate,
    fail_on: crate::score::FailOn,
    fail_on_drift: bool,
) -> Vec<String> {
    let mut picked: Vec<&Finding> = Vec::new();
    let failing = r
        .servers
        .iter()
        .filter(|s| fail_on.fails(s.score.grade))
        .map(|s| &s.findings)
        .chain(
            r.sessions
                .iter()
                .filter(|s| fail_on.fails(s.score.grade))
                .map(|s| &s.findings),
        );
    for fs in failing {
        let live: Vec<&Finding> = fs.iter().filter(|f| f.suppressed.is_none()).collect();
        let serious: Vec<&Finding> = live
            .iter()
            .copied()
            .filter(|f| f.severity >= Severity::High)
            .collect();
        picked.extend(if serious.is_empty() { live } else { serious });
    }
    if fail_on_drift {
        picked
            .extend(all_findings(r).filter(|f| f.rule_id == DRIFT_RULE && f.suppressed.is_none()));
    }
    picked.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    picked.dedup();
    let mut seen = BTreeSet::new();
    let mut out: Vec<String> = picked
        .into_iter()
        .map(|f| {
            let server = f
                .server
                .as_deref()
                .map(|s| format!(" (server {s})"))
                .unwrap_or_default();
            command(
                "error",
                &f.location,
                &format!("{} {}", f.rule_id, f.severity),
                &format!("{}{server}", f.message),
            )
        })
        .filter(|l| seen.insert(l.clone()))
        .collect();
    if fail_on_drift {
        for id in &g.unpinned {
            if let Some(s) = r.servers.iter().find(|s| &s.surface.id == id) {
                out.push(command("error", &s.surface.source.location, "Server not in the lockfile", &format!("{id} has no lockfile entry: its catalog was never reviewed. Run `mcptrustchecker lock` and commit the lockfile.")));
            }
        }
    }
    if out.len() > MAX_ANNOTATIONS {
        let more = out.len() - MAX_ANNOTATIONS;
        out.truncate(MAX_ANNOTATIONS);
        out.push(format!(
            "::warning::{more} more gating findings are in the job summary and the SARIF file"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Verdict;
    use crate::score::Grade;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("100%\r\nnext"), "100%25%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(escape_data("x##[add-mask]y"), "x#<U+0023>[add-mask]y");
        let l = command(
            "error",
            &Location::new("x,y:z.json", 3, 5),
            "T",
            "line1\n::set-output name=x::y",
        );
        assert_eq!(
            l,
            "::error file=x%2Cy%3Az.json,line=3,col=5,title=T::line1\\n::set-output name=x::y"
        );
        assert_eq!(l.lines().count(), 1);
    }

    #[test]
    fn outputs_are_name_value_lines() {
        let g = Gate {
            verdict: Verdict {
                failed: true,
                reasons: vec!["x".into()],
                worst_grade: Some(Grade::F),
            },
            drifted: vec!["a".into()],
            unpinned: vec![],
            uninspected: vec![],
            worst_score: Some(12),
            findings: 3,
        };
        let o = outputs(&g, "out.sarif");
        assert_eq!(
            o,
            "grade=F\nscore=12\ndrift=true\nfindings=3\nsarif-file=out.sarif\npassed=false\n"
        );
        let o = outputs(&g, "a\nMTC_EOF");
        assert!(
            o.contains("sarif-file<<MTC_EOF_\na\nMTC_EOF\nMTC_EOF_\n"),
            "{o}"
        );
    }
}
