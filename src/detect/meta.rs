//! Acquisition hygiene: an empty or uninspected surface is not a clean bill of health.

use crate::finding::Finding;
use crate::rules::ids;
use crate::surface::{Coverage, ServerSurface};

pub fn check(s: &ServerSurface, out: &mut Vec<Finding>) {
    if !s.catalog_is_empty() {
        return;
    }
    let (msg, ev) = match s.coverage {
        Coverage::Empty => (
            format!(
                "server `{}` declares no tools, prompts or resources",
                s.name
            ),
            "descriptor read; catalog empty".to_string(),
        ),
        Coverage::ConfigOnly => (
            format!(
                "server `{}`: catalog not inspected, only its launch configuration was read (coverage config-only)",
                s.name
            ),
            format!(
                "coverage {}; no descriptor, lockfile snapshot or live scan for this server",
                s.coverage.as_str()
            ),
        ),
        c => (
            format!(
                "server `{}` exposes no tools, prompts or resources (coverage {})",
                s.name,
                c.as_str()
            ),
            String::new(),
        ),
    };
    out.push(
        Finding::new(ids::MTC_META_001, msg, s.source.location.clone())
            .server(&s.id)
            .evidence(ev),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::{Item, Location};

    fn surface() -> ServerSurface {
        crate::testkit::surface("a.json#x")
            .at("a.json", 3, 5)
            .format("client-config")
            .build()
    }

    #[test]
    fn config_only_is_flagged_at_the_entry() {
        let mut out = Vec::new();
        check(&surface(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].rule_id, crate::rules::ids::MTC_META_001);
        assert_eq!(out[0].location, Location::new("a.json", 3, 5));
        assert!(out[0].message.contains("not inspected"));
    }

    #[test]
    fn a_catalog_is_not_flagged() {
        let mut s = surface();
        s.tools
            .push(Item::new("t", serde_json::json!({"name": "t"}), None));
        let mut out = Vec::new();
        check(&s, &mut out);
        assert!(out.is_empty());
    }
}
