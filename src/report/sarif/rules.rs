//! The rule side of SARIF: each catalogue entry as a reporting descriptor,
//! and the severity and confidence scales GitHub code scanning reads.

use crate::finding::{Confidence, Severity};
use crate::rules::Rule;
use serde_json::json;
use serde_sarif::sarif;
use std::collections::BTreeMap;

/// GitHub's `security-severity` for a severity (bands: critical ≥ 9.0, high 7.0–8.9,
/// medium 4.0–6.9, low 0.1–3.9); `None` for info, which is not a security alert.
pub fn security_severity(s: Severity) -> Option<&'static str> {
    match s {
        Severity::Critical => Some("9.5"),
        Severity::High => Some("8.0"),
        Severity::Medium => Some("5.5"),
        Severity::Low => Some("2.0"),
        Severity::Info => None,
    }
}

/// SARIF result level for a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

pub(super) fn result_level(s: Severity) -> sarif::ResultLevel {
    match level(s) {
        "error" => sarif::ResultLevel::Error,
        "warning" => sarif::ResultLevel::Warning,
        _ => sarif::ResultLevel::Note,
    }
}

/// GitHub's `precision` vocabulary for our confidence.
pub fn precision(c: Confidence) -> &'static str {
    match c {
        Confidence::Confirmed => "very-high",
        Confidence::Strong => "high",
        Confidence::Heuristic => "medium",
        Confidence::Speculative => "low",
    }
}

/// `HiddenTagsBlockPayload` from "Hidden Tags-block payload".
pub(super) fn pascal(title: &str) -> String {
    title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|c| c.to_ascii_uppercase().to_string() + cs.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn mfs(text: &str, markdown: Option<String>) -> sarif::MultiformatMessageString {
    sarif::MultiformatMessageString {
        markdown,
        properties: None,
        text: text.to_string(),
    }
}

pub(super) fn descriptor(r: &Rule) -> sarif::ReportingDescriptor {
    let mut props = BTreeMap::new();
    props.insert("precision".to_string(), json!(precision(r.confidence)));
    if let Some(s) = security_severity(r.severity) {
        props.insert("security-severity".to_string(), json!(s));
    }
    props.insert(
        "problem.severity".to_string(),
        json!(match r.severity {
            Severity::Critical | Severity::High => "error",
            Severity::Medium => "warning",
            _ => "recommendation",
        }),
    );
    let help_text = format!(
        "What it detects: {}\n\nWhy it matters: {}\n\nHow to fix it: {}",
        r.what, r.why, r.fix
    );
    let help_md = format!(
        "**What it detects**\n\n{}\n\n**Why it matters**\n\n{}\n\n**How to fix it**\n\n{}\n\nSeverity {}, confidence {}, category {}. [Rule documentation]({})",
        r.what,
        r.why,
        r.fix,
        r.severity,
        r.confidence,
        r.category,
        crate::rules::help_uri(&r.id)
    );
    sarif::ReportingDescriptor::builder()
        .id(r.id.clone())
        .name(pascal(&r.title))
        .short_description(mfs(&r.title, None))
        .full_description(mfs(
            if r.what.is_empty() { &r.title } else { &r.what },
            None,
        ))
        .help(mfs(&help_text, Some(help_md)))
        .help_uri(crate::rules::help_uri(&r.id))
        .default_configuration(
            sarif::ReportingConfiguration::builder()
                .level(json!(level(r.severity)))
                .build(),
        )
        .properties(
            sarif::PropertyBag::builder()
                .tags(vec![
                    "security".to_string(),
                    r.category.as_str().to_string(),
                    "mcp".to_string(),
                ])
                .additional_properties(props)
                .build(),
        )
        .build()
}
