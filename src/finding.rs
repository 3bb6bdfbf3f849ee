//! A finding: one rule firing on one place, with everything needed to explain it.

/// A rule's rating, as the catalogue gives it.
pub use crate::rules::{Category, Confidence, Severity};
use crate::surface::Location;
use serde::Serialize;

/// A time-limited exception that stops a finding from counting (policy issue).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suppression {
    pub reason: String,
    pub owner: String,
    pub expires: String,
}

/// One rule firing on one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule_id: String,
    pub severity: Severity,
    pub confidence: Confidence,
    pub category: Category,
    /// One sentence naming the server, the tool and the field.
    pub message: String,
    /// Safe to print: invisible characters as `<U+XXXX>`, secrets redacted.
    pub evidence: String,
    pub location: Location,
    /// The server the finding is about (`None` for a session-level finding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The exact field path, e.g. `tools[send_email].inputSchema.properties.bcc.default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed: Option<Suppression>,
}

impl Finding {
    /// A finding with the rule's catalogue defaults; stages override severity and
    /// confidence where the rule's table says so.
    pub fn new(rule_id: &str, message: impl Into<String>, location: Location) -> Self {
        let (rule_id, rule) = match crate::rules::get(rule_id) {
            Some(rule) => (rule.id.clone(), rule),
            None => (rule_id.to_string(), crate::rules::unknown_rule()),
        };
        // The last line of defence of "no secret in any output": whatever a
        // stage quoted, credential-shaped values never leave a finding.
        let message = message.into();
        let message = match crate::text::redact_secrets(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(m) => m,
        };
        Finding {
            rule_id,
            severity: rule.severity,
            confidence: rule.confidence,
            category: rule.category,
            message,
            evidence: String::new(),
            location,
            server: None,
            tool: None,
            field: None,
            suppressed: None,
        }
    }
    pub fn severity(mut self, s: Severity) -> Self {
        self.severity = s;
        self
    }
    pub fn confidence(mut self, c: Confidence) -> Self {
        self.confidence = c;
        self
    }
    /// Evidence is made safe to print here, once, whatever the stage passed:
    /// secrets redacted, invisible characters shown, cut to 400 characters.
    pub fn evidence(mut self, e: impl AsRef<str>) -> Self {
        let redacted = crate::text::redact_secrets(e.as_ref());
        self.evidence = crate::text::visible(&crate::text::truncate_chars(&redacted, 400));
        self
    }
    pub fn server(mut self, id: &str) -> Self {
        self.server = Some(id.to_string());
        self
    }
    pub fn tool(mut self, t: Option<&str>) -> Self {
        self.tool = t.map(str::to_string);
        self
    }
    pub fn field(mut self, f: impl Into<String>) -> Self {
        self.field = Some(f.into());
        self
    }

    /// Total order used everywhere findings are listed, so output is deterministic.
    pub fn sort_key(&self) -> impl Ord + '_ {
        (
            std::cmp::Reverse(self.severity),
            &self.location,
            &self.rule_id,
            &self.server,
            &self.tool,
            &self.field,
            &self.message,
            &self.evidence,
        )
    }
}

/// Sort findings in the report order and drop exact duplicates.
pub fn sort_dedup(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
}
