//! The rule catalogue, kept as data (`src/data/rules/*.toml`, one file per stage).
//!
//! Adding a rule: add its entry to the stage's TOML file (`build.rs` turns its
//! id into the constant `ids::MTC_…`), emit it from the stage's function under
//! that constant, and add its fixture to the family snapshots
//! (`tests/fixtures/families`). `mcptrustchecker rules` and `explain` print
//! this catalogue, and the SARIF driver lists it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The rule ids as constants, generated from the catalogue at build time: a
/// stage names `ids::MTC_INJ_EXFIL_1`, and a typo fails to compile.
pub mod ids {
    include!(concat!(env!("OUT_DIR"), "/data/rule_ids.rs"));
}
use std::sync::OnceLock;

/// How bad a finding is (the score's weight).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
            Severity::Info => "info",
        }
    }
    pub const ALL: [Severity; 5] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How sure the rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Speculative,
    Heuristic,
    Strong,
    Confirmed,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Confirmed => "confirmed",
            Confidence::Strong => "strong",
            Confidence::Heuristic => "heuristic",
            Confidence::Speculative => "speculative",
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of risk a rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Injection,
    Exfiltration,
    Permissions,
    SupplyChain,
    Network,
    Hygiene,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Injection => "injection",
            Category::Exfiltration => "exfiltration",
            Category::Permissions => "permissions",
            Category::SupplyChain => "supply-chain",
            Category::Network => "network",
            Category::Hygiene => "hygiene",
        }
    }
    pub const ALL: [Category; 6] = [
        Category::Injection,
        Category::Exfiltration,
        Category::Permissions,
        Category::SupplyChain,
        Category::Network,
        Category::Hygiene,
    ];
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of the catalogue.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub id: String,
    /// Short human name (used as the SARIF rule name).
    pub title: String,
    pub severity: Severity,
    pub confidence: Confidence,
    pub category: Category,
    /// Pipeline stage: acquire, unicode, injection, capability, toxic-flow,
    /// supply-chain, posture, integrity, policy.
    pub stage: String,
    /// What the rule detects.
    pub what: String,
    /// Why it matters.
    pub why: String,
    /// How to fix it.
    pub fix: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    rule: Vec<Rule>,
}

/// The stage files, in pipeline order.
const SOURCES: &[(&str, &str)] = &[
    ("acquire", crate::data::json!("rules/acquire")),
    ("unicode", crate::data::json!("rules/unicode")),
    ("injection", crate::data::json!("rules/injection")),
    ("integrity", crate::data::json!("rules/integrity")),
    ("policy", crate::data::json!("rules/policy")),
    ("supply-chain", crate::data::json!("rules/supply_chain")),
    ("live", crate::data::json!("rules/live")),
    ("capability", crate::data::json!("rules/capability")),
    ("toxic_flow", crate::data::json!("rules/toxic_flow")),
    ("posture", crate::data::json!("rules/posture")),
];

/// The whole catalogue, sorted by id.
pub fn all() -> &'static [Rule] {
    static CATALOGUE: OnceLock<Vec<Rule>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let mut rules = Vec::new();
        for (name, text) in SOURCES {
            // The files are compiled in and checked by a unit test, so a parse
            // failure is a build defect, not an input error.
            let file: RuleFile = crate::data::parse(text, &format!("rules/{name}"));
            rules.extend(file.rule);
        }
        rules.sort_by(|a, b| a.id.cmp(&b.id));
        rules
    })
}

/// Look a rule up by id (case-insensitive).
pub fn get(id: &str) -> Option<&'static Rule> {
    let all = all();
    all.binary_search_by(|r| r.id.as_str().cmp(id))
        .ok()
        .map(|i| &all[i])
        .or_else(|| all.iter().find(|r| r.id.eq_ignore_ascii_case(id)))
}

/// Defaults for an id missing from the catalogue (the id itself is kept by the
/// caller); a unit test guarantees every id the stages emit is catalogued, so
/// this only guards release builds.
pub fn unknown_rule() -> &'static Rule {
    static UNKNOWN: OnceLock<Rule> = OnceLock::new();
    UNKNOWN.get_or_init(|| Rule {
        id: "MTC-UNKNOWN".into(),
        title: "Uncatalogued rule".into(),
        severity: Severity::Info,
        confidence: Confidence::Speculative,
        category: Category::Hygiene,
        stage: "acquire".into(),
        what: String::new(),
        why: String::new(),
        fix: String::new(),
    })
}

/// Link to the rule's documentation (SARIF `helpUri`, Markdown rule links).
pub fn help_uri(id: &str) -> String {
    format!(
        "https://github.com/mcptrustchecker/mcptrustchecker/blob/main/docs/rules.md#{}",
        id.to_ascii_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_parses_and_ids_are_unique() {
        let all = all();
        assert!(all.len() >= 2);
        for w in all.windows(2) {
            assert_ne!(w[0].id, w[1].id, "duplicate rule id");
        }
        for r in all {
            assert!(r.id.starts_with("MTC-"), "{}", r.id);
            assert!(
                !r.what.is_empty() && !r.why.is_empty() && !r.fix.is_empty(),
                "{} lacks help",
                r.id
            );
        }
    }

    #[test]
    fn lookup_is_case_insensitive() {
        assert_eq!(
            get("mtc-uni-001").map(|r| r.id.as_str()),
            Some("MTC-UNI-001")
        );
        assert!(get("MTC-NOPE-999").is_none());
    }
}
