//! Interim renderers used by [`super::bridge`] until the shared SARIF and
//! Markdown reports are available: small, valid, and escaped the same way as
//! the CI section.

use super::summary::{cell, code};
use crate::detect::ScanResult;
use crate::report::Verdict;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn markdown(r: &ScanResult, v: &Verdict, base: Option<&super::bridge::Baseline>) -> String {
    let mut out = String::from("<!-- mcptrustchecker:report -->\n## MCP Trust Checker\n\n");
    let verdict = match (v.failed, v.worst_grade) {
        (true, _) => "**Gate failed**",
        (false, Some(_)) => "**Gate passed**",
        (false, None) => "**Gate passed**: no MCP servers to check",
    };
    let worst = v
        .worst_grade
        .map(|g| format!(" — worst grade **{g}**"))
        .unwrap_or_default();
    let _ = writeln!(out, "{verdict}{worst}\n");
    for reason in &v.reasons {
        let _ = writeln!(out, "- {}", code(reason));
    }
    if !r.servers.is_empty() {
        let _ = writeln!(
            out,
            "\n| server | grade | score | change | coverage | findings |\n|---|---|---|---|---|---|"
        );
        for s in &r.servers {
            let change = match base.map(|b| b.get(&s.surface.id)) {
                None => "—".to_string(),
                Some(None) => "new".to_string(),
                Some(Some((v, g))) if *v == s.score.value && *g == s.score.grade => {
                    "no change".to_string()
                }
                Some(Some((v, g))) => format!("{g} {v} → {} {}", s.score.grade, s.score.value),
            };
            let _ = writeln!(
                out,
                "| {} | **{}** | {} | {change} | {} | {} |",
                cell(&s.surface.id),
                s.score.grade,
                s.score.value,
                s.surface.coverage.as_str(),
                s.findings.iter().filter(|f| f.suppressed.is_none()).count()
            );
        }
    }
    let mut top: Vec<_> = r
        .servers
        .iter()
        .flat_map(|s| &s.findings)
        .chain(r.sessions.iter().flat_map(|s| &s.findings))
        .filter(|f| f.suppressed.is_none())
        .collect();
    top.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    if !top.is_empty() {
        let _ = writeln!(out, "\n### Findings that matter most\n");
        for f in top.iter().take(20) {
            let _ = writeln!(
                out,
                "- **{}** {} {} at {}",
                f.severity,
                code(&f.rule_id),
                code(&f.message),
                code(&format!("{}:{}", f.location.path, f.location.line))
            );
        }
        if top.len() > 20 {
            let _ = writeln!(out, "- … and {} more in the SARIF file", top.len() - 20);
        }
    }
    out
}

fn level(s: crate::finding::Severity) -> &'static str {
    use crate::finding::Severity::*;
    match s {
        Critical | High => "error",
        Medium => "warning",
        Low | Info => "note",
    }
}

pub fn sarif(r: &ScanResult) -> Result<String, String> {
    let findings: Vec<_> = r
        .servers
        .iter()
        .flat_map(|s| &s.findings)
        .chain(r.sessions.iter().flat_map(|s| &s.findings))
        .filter(|f| !f.location.path.is_empty() && !f.location.path.starts_with('/'))
        .collect();
    let mut rules: BTreeMap<&str, Value> = BTreeMap::new();
    for f in &findings {
        rules.entry(&f.rule_id).or_insert_with(|| {
            let r = crate::rules::get(&f.rule_id).unwrap_or_else(|| crate::rules::unknown_rule(&f.rule_id));
            json!({"id": r.id, "name": r.id, "shortDescription": {"text": r.title}, "fullDescription": {"text": r.what},
                   "help": {"text": format!("{}\n\n{}", r.why, r.fix)}, "helpUri": crate::rules::help_uri(&r.id),
                   "defaultConfiguration": {"level": level(r.severity)}, "properties": {"tags": ["security", r.category.as_str()]}})
        });
    }
    let index: BTreeMap<&str, usize> = rules.keys().enumerate().map(|(i, k)| (*k, i)).collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let fp = crate::canonical::digest_value(&json!([f.rule_id, f.server, f.tool, f.field]));
            json!({"ruleId": f.rule_id, "ruleIndex": index[f.rule_id.as_str()], "level": level(f.severity), "message": {"text": f.message},
                   "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.location.path, "uriBaseId": "%SRCROOT%"},
                   "region": {"startLine": f.location.line.max(1), "startColumn": f.location.column.max(1)}}}],
                   "partialFingerprints": {"mcptrustchecker/v1": fp}})
        })
        .collect();
    let log = json!({"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "mcptrustchecker", "semanticVersion": crate::VERSION, "informationUri": "https://github.com/mcptrustchecker/mcptrustchecker", "rules": rules.into_values().collect::<Vec<_>>()}},
        "automationDetails": {"id": "mcptrustchecker/"}, "results": results}]});
    serde_json::to_string_pretty(&log)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| e.to_string())
}
