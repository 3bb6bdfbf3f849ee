//! `--baseline`: the scores of an earlier JSON report, for the "Change" column.

use crate::score::Grade;
use std::collections::BTreeMap;

/// Scores of an earlier JSON report (`--baseline`), by server id.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    pub servers: BTreeMap<String, (i64, Grade)>,
}

impl Baseline {
    /// Read a JSON report written by `scan --format json`.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let servers = v
            .get("servers")
            .and_then(|s| s.as_array())
            .ok_or("not a mcptrustchecker JSON report (no `servers` array)")?;
        let mut out = BTreeMap::new();
        for s in servers {
            let id = s
                .get("id")
                .and_then(|x| x.as_str())
                .ok_or("a server without an `id`")?;
            let value = s
                .pointer("/score/value")
                .and_then(|x| x.as_i64())
                .ok_or("a server without `score.value`")?;
            let grade = s
                .pointer("/score/grade")
                .and_then(|x| x.as_str())
                .and_then(Grade::parse)
                .ok_or("a server without `score.grade`")?;
            out.insert(id.to_string(), (value, grade));
        }
        Ok(Baseline { servers: out })
    }
}
