//! `--baseline`: the scores of an earlier JSON report, for the "Change" column.

use crate::score::Grade;
use std::collections::BTreeMap;

/// Why a `--baseline` file is not usable.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error("not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error("not a mcptrustchecker JSON report (no `servers` array)")]
    NotAReport,
    /// A server entry lacks a field the column needs (`id`, `score.value`, `score.grade`).
    #[error("a server without {0}")]
    Missing(&'static str),
}

/// Scores of an earlier JSON report (`--baseline`), by server id.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    pub servers: BTreeMap<String, (i64, Grade)>,
}

impl Baseline {
    /// Read a JSON report written by `scan --format json`.
    pub fn from_json(text: &str) -> Result<Self, BaselineError> {
        let v: serde_json::Value = serde_json::from_str(text)?;
        let servers = v
            .get("servers")
            .and_then(|s| s.as_array())
            .ok_or(BaselineError::NotAReport)?;
        let mut out = BTreeMap::new();
        for s in servers {
            let id = s
                .get("id")
                .and_then(|x| x.as_str())
                .ok_or(BaselineError::Missing("an `id`"))?;
            let value = s
                .pointer("/score/value")
                .and_then(|x| x.as_i64())
                .ok_or(BaselineError::Missing("`score.value`"))?;
            let grade = s
                .pointer("/score/grade")
                .and_then(|x| x.as_str())
                .and_then(Grade::parse)
                .ok_or(BaselineError::Missing("`score.grade`"))?;
            out.insert(id.to_string(), (value, grade));
        }
        Ok(Baseline { servers: out })
    }
}
