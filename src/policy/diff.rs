//! The semantic diff of a policy file: what a change to `mcptrustchecker.toml`
//! would do once merged. A pull request's own policy never judges the pull
//! request (the base commit's does); the reviewer sees this diff instead, each
//! line saying whether it loosens or tightens the gate.

use super::{Policy, ServerEntry, SuppressionEntry};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which way a change moves the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// Fewer things fail (a suppression added, a grade gate relaxed, a tool allowed).
    Loosens,
    /// More things fail.
    Tightens,
    /// Neither, or it depends (a pin moved, an owner changed).
    Changes,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Loosens => "loosens",
            Effect::Tightens => "tightens",
            Effect::Changes => "changes",
        }
    }
}

/// One line of the diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    pub effect: Effect,
    /// What changed, in plain words (scanned text unescaped: renderers escape).
    pub text: String,
}

/// A pull request's change to the policy file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolicyChange {
    /// Repo-relative path of the policy file.
    pub path: String,
    pub items: Vec<Item>,
    /// The PR's file does not parse (it would be refused once merged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PolicyChange {
    /// Whether any line loosens the gate.
    pub fn loosens(&self) -> bool {
        self.items.iter().any(|i| i.effect == Effect::Loosens)
    }
}

fn grade_text(g: Option<crate::score::Grade>) -> String {
    g.map(|g| g.as_str().to_string())
        .unwrap_or_else(|| "not set".into())
}

fn push(out: &mut Vec<Item>, effect: Effect, text: String) {
    out.push(Item { effect, text });
}

/// Names added to and removed from an allowlist.
fn list_diff(out: &mut Vec<Item>, id: &str, what: &str, old: &[String], new: &[String]) {
    let added: Vec<&String> = new.iter().filter(|n| !old.contains(n)).collect();
    let removed: Vec<&String> = old.iter().filter(|n| !new.contains(n)).collect();
    let join = |v: &[&String]| {
        v.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !added.is_empty() {
        push(
            out,
            Effect::Loosens,
            format!("server `{id}`: {what} adds {}", join(&added)),
        );
    }
    if !removed.is_empty() {
        push(
            out,
            Effect::Tightens,
            format!("server `{id}`: {what} removes {}", join(&removed)),
        );
    }
}

fn entry_diff(out: &mut Vec<Item>, id: &str, a: &ServerEntry, b: &ServerEntry) {
    list_diff(out, id, "tools_allow", &a.tools_allow, &b.tools_allow);
    list_diff(out, id, "env_allow", &a.env_allow, &b.env_allow);
    list_diff(out, id, "network_allow", &a.network_allow, &b.network_allow);
    if a.review_expires != b.review_expires {
        let effect = if b.review_expires > a.review_expires {
            Effect::Loosens
        } else {
            Effect::Tightens
        };
        push(
            out,
            effect,
            format!(
                "server `{id}`: review_expires {} → {}",
                a.review_expires, b.review_expires
            ),
        );
    }
    if a.owner != b.owner {
        push(
            out,
            Effect::Changes,
            format!("server `{id}`: owner `{}` → `{}`", a.owner, b.owner),
        );
    }
    let (pa, pb) = (Pin::of(a), Pin::of(b));
    if pa != pb {
        let effect = if pb.is_empty() && !pa.is_empty() {
            Effect::Loosens
        } else {
            Effect::Changes
        };
        push(
            out,
            effect,
            format!("server `{id}`: pin {} → {}", pa.show(), pb.show()),
        );
    }
}

/// What an entry pins, in the redacted form the check compares.
#[derive(PartialEq)]
struct Pin {
    transport: Option<&'static str>,
    command: Option<String>,
    args: Option<Vec<String>>,
    package: Option<String>,
    url: Option<String>,
}

impl Pin {
    fn of(e: &ServerEntry) -> Pin {
        Pin {
            transport: e.transport.map(|t| t.as_str()),
            command: e.command.as_deref().map(crate::text::redact_command),
            args: e.args.as_ref().map(|a| crate::text::redact_args(a)),
            package: e.package.as_deref().map(crate::text::redact_command),
            url: e.url.as_deref().map(crate::text::redact_url),
        }
    }
    fn is_empty(&self) -> bool {
        self.command.is_none()
            && self.args.is_none()
            && self.package.is_none()
            && self.url.is_none()
    }
    fn show(&self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = self.transport {
            parts.push(format!("transport {t}"));
        }
        if let Some(c) = &self.command {
            parts.push(format!("command `{c}`"));
        }
        if let Some(a) = &self.args {
            parts.push(format!("args `{}`", a.join(" ")));
        }
        if let Some(k) = &self.package {
            parts.push(format!("package `{k}`"));
        }
        if let Some(u) = &self.url {
            parts.push(format!("url `{u}`"));
        }
        if parts.is_empty() {
            "nothing".to_string()
        } else {
            parts.join(", ")
        }
    }
}

fn suppression_key(s: &SuppressionEntry) -> (String, String, Option<String>) {
    (s.rule.clone(), s.server.clone(), s.tool.clone())
}

fn suppression_text(s: &SuppressionEntry) -> String {
    let tool = s
        .tool
        .as_ref()
        .map(|t| format!(" tool `{t}`"))
        .unwrap_or_default();
    format!(
        "{} on `{}`{tool} (owner `{}`, expires {}, reason: {})",
        s.rule, s.server, s.owner, s.expires, s.reason
    )
}

/// What changes from `base` (`None`: no policy at the base) to `head` (`None`:
/// the PR deletes it). `head_error` is the PR's file failing to parse.
pub fn diff(
    path: &str,
    base: Option<&Policy>,
    head: Option<&Policy>,
    head_error: Option<String>,
) -> PolicyChange {
    let mut items = Vec::new();
    let empty = Policy::parse("", path).ok();
    let (a, b) = match (base, head, &empty) {
        (Some(a), Some(b), _) => (a, b),
        (None, Some(b), Some(e)) => {
            push(
                &mut items,
                Effect::Changes,
                format!("adds the policy file `{path}`"),
            );
            (e, b)
        }
        (Some(a), None, Some(e)) if head_error.is_none() => {
            push(
                &mut items,
                Effect::Loosens,
                format!("deletes the policy file `{path}`"),
            );
            (a, e)
        }
        _ => {
            return PolicyChange {
                path: path.to_string(),
                items,
                error: head_error,
            };
        }
    };
    let (ga, gb) = (&a.gate, &b.gate);
    if ga.fail_on != gb.fail_on {
        let effect = match (ga.fail_on, gb.fail_on) {
            (Some(x), Some(y)) if y > x => Effect::Loosens,
            (Some(_), None) => Effect::Loosens,
            _ => Effect::Tightens,
        };
        push(
            &mut items,
            effect,
            format!(
                "gate fail_on {} → {}",
                grade_text(ga.fail_on),
                grade_text(gb.fail_on)
            ),
        );
    }
    for (what, x, y) in [
        ("drift_fails", ga.drifts_fail(), gb.drifts_fail()),
        ("require_entries", ga.require_entries, gb.require_entries),
    ] {
        if x != y {
            let effect = if y { Effect::Tightens } else { Effect::Loosens };
            push(&mut items, effect, format!("gate {what} {x} → {y}"));
        }
    }
    let sa: BTreeMap<_, _> = a
        .suppressions
        .iter()
        .map(|s| (suppression_key(s), s))
        .collect();
    let sb: BTreeMap<_, _> = b
        .suppressions
        .iter()
        .map(|s| (suppression_key(s), s))
        .collect();
    for (k, s) in &sb {
        match sa.get(k) {
            None => push(
                &mut items,
                Effect::Loosens,
                format!("adds the suppression {}", suppression_text(s)),
            ),
            Some(old) if old != s => {
                let effect = if s.expires > old.expires {
                    Effect::Loosens
                } else {
                    Effect::Changes
                };
                push(
                    &mut items,
                    effect,
                    format!(
                        "changes the suppression {} (was: {})",
                        suppression_text(s),
                        suppression_text(old)
                    ),
                );
            }
            Some(_) => {}
        }
    }
    for (k, s) in &sa {
        if !sb.contains_key(k) {
            push(
                &mut items,
                Effect::Tightens,
                format!("removes the suppression {}", suppression_text(s)),
            );
        }
    }
    for (id, e) in &b.servers {
        match a.servers.get(id) {
            None => push(
                &mut items,
                Effect::Loosens,
                format!(
                    "approves server `{id}` (owner `{}`, review until {}, tools_allow {})",
                    e.owner,
                    e.review_expires,
                    e.tools_allow.len()
                ),
            ),
            Some(old) => entry_diff(&mut items, id, old, e),
        }
    }
    for id in a.servers.keys() {
        if !b.servers.contains_key(id) {
            push(
                &mut items,
                Effect::Tightens,
                format!("removes the entry of server `{id}`"),
            );
        }
    }
    PolicyChange {
        path: path.to_string(),
        items,
        error: head_error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Policy {
        Policy::parse(text, "mcptrustchecker.toml").unwrap()
    }

    #[test]
    fn suppressions_and_gates_are_classified() {
        let base = p("[gate]\nfail_on = \"C\"\n");
        let head = p(
            "[gate]\nfail_on = \"F\"\ndrift_fails = false\n\n[[suppressions]]\nrule = \"MTC-INJ-POISON\"\nserver = \"servers/notes/tools.json\"\nreason = \"trust me\"\nowner = \"me\"\nexpires = 2099-01-01\n",
        );
        let d = diff("mcptrustchecker.toml", Some(&base), Some(&head), None);
        let got: Vec<(Effect, &str)> = d
            .items
            .iter()
            .map(|i| (i.effect, i.text.as_str()))
            .collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], (Effect::Loosens, "gate fail_on C → F"));
        assert_eq!(got[1], (Effect::Loosens, "gate drift_fails true → false"));
        assert_eq!(got[2].0, Effect::Loosens);
        assert!(
            got[2]
                .1
                .starts_with("adds the suppression MTC-INJ-POISON on `servers/notes/tools.json`")
        );
        assert!(d.loosens());
        // The reverse direction tightens.
        let back = diff("mcptrustchecker.toml", Some(&head), Some(&base), None);
        assert!(
            back.items.iter().all(|i| i.effect == Effect::Tightens),
            "{back:?}"
        );
        // A new file and a deleted one.
        let added = diff("mcptrustchecker.toml", None, Some(&head), None);
        assert!(added.items[0].text.starts_with("adds the policy file"));
        assert!(added.loosens());
        let deleted = diff("mcptrustchecker.toml", Some(&base), None, None);
        assert_eq!(deleted.items[0].effect, Effect::Loosens);
        let broken = diff(
            "mcptrustchecker.toml",
            Some(&base),
            None,
            Some("bad".into()),
        );
        assert!(broken.items.is_empty() && broken.error.is_some());
    }

    #[test]
    fn entries_compare_field_by_field() {
        let base = p(
            "[servers.\"a#x\"]\nowner = \"o\"\nreview_expires = 2027-01-01\ntools_allow = [\"read\"]\npackage = \"pkg@1.0.0\"\n",
        );
        let head = p(
            "[servers.\"a#x\"]\nowner = \"o\"\nreview_expires = 2028-01-01\ntools_allow = [\"read\", \"write\"]\n\n[servers.\"b#y\"]\nowner = \"p\"\nreview_expires = 2027-01-01\n",
        );
        let d = diff("mcptrustchecker.toml", Some(&base), Some(&head), None);
        let texts: Vec<String> = d
            .items
            .iter()
            .map(|i| format!("{}: {}", i.effect.as_str(), i.text))
            .collect();
        assert_eq!(
            texts,
            [
                "loosens: server `a#x`: tools_allow adds `write`",
                "loosens: server `a#x`: review_expires 2027-01-01 → 2028-01-01",
                "loosens: server `a#x`: pin package `pkg@1.0.0` → nothing",
                "loosens: approves server `b#y` (owner `p`, review until 2027-01-01, tools_allow 0)",
            ]
        );
    }
}
