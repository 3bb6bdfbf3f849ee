//! Where the CI mode meets the lockfile and the report renderers. Each function
//! here is the single switch point to the shared implementation; until that
//! lands, a small local version keeps the action working end to end.

use crate::detect::{Drift, ScanResult};
use crate::diff::{CatalogDiff, Change, ChangeKind};
use crate::report::Verdict;
use crate::surface::Location;
use serde_json::Value;
use std::collections::BTreeMap;

/// The parts of a lockfile the gate needs: each pinned server's digest and the
/// line of its entry.
#[derive(Debug, Clone, Default)]
pub struct Lock {
    pub path: String,
    pub entries: BTreeMap<String, (String, Location)>,
}

impl Lock {
    /// Config files (or descriptors) whose servers this lockfile pins.
    pub fn pinned_paths(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .entries
            .keys()
            .map(|id| id.split('#').next().unwrap_or(id).to_string())
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// Parse a lockfile's text (`display` names it in errors).
pub fn parse_lock(text: &str, display: &str) -> Result<Lock, String> {
    let doc = crate::parse::jsonc(text, display).map_err(|e| e.to_string())?;
    let mut lock = Lock {
        path: display.to_string(),
        entries: BTreeMap::new(),
    };
    let Value::Object(root) = &doc.value else {
        return Err(format!("{display}: a lockfile is a JSON object"));
    };
    for (key, v) in root {
        let base = format!("/{}", crate::parse::ptr_seg(key));
        match v {
            Value::Object(m) => {
                for (id, e) in m {
                    if let Some(d) = e.get("digest").and_then(Value::as_str) {
                        let (l, c) = doc
                            .pos(&format!("{base}/{}", crate::parse::ptr_seg(id)))
                            .unwrap_or((1, 1));
                        lock.entries
                            .insert(id.clone(), (d.to_string(), Location::new(display, l, c)));
                    }
                }
            }
            Value::Array(a) => {
                for (i, e) in a.iter().enumerate() {
                    if let (Some(id), Some(d)) = (
                        e.get("id").and_then(Value::as_str),
                        e.get("digest").and_then(Value::as_str),
                    ) {
                        let (l, c) = doc.pos(&format!("{base}/{i}")).unwrap_or((1, 1));
                        lock.entries.insert(
                            id.to_string(),
                            (d.to_string(), Location::new(display, l, c)),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    Ok(lock)
}

/// Compare every scanned surface with the head lockfile: drift, unpinned
/// servers and (when `whole_repo`) stale entries.
pub fn apply_lock(r: &mut ScanResult, lock: &Lock, whole_repo: bool) {
    for s in &mut r.servers {
        match lock.entries.get(&s.surface.id) {
            None => r.unpinned.push(s.surface.id.clone()),
            Some((digest, loc)) if *digest != s.digest => {
                s.drift = Some(Drift {
                    pinned_digest: digest.clone(),
                    diff: CatalogDiff {
                        server: s.surface.id.clone(),
                        changes: Vec::new(),
                    },
                    lock_location: loc.clone(),
                });
            }
            Some(_) => {}
        }
    }
    if whole_repo {
        r.stale = lock
            .entries
            .keys()
            .filter(|id| !r.servers.iter().any(|s| &s.surface.id == *id))
            .cloned()
            .collect();
    }
    r.unpinned.sort();
    r.unpinned.dedup();
}

/// The reviewed change: what the PR's lockfile edit approves, server by server.
pub fn lockfile_diff(
    base: Option<&str>,
    head: &str,
    display: &str,
) -> Result<Vec<CatalogDiff>, String> {
    let before = match base {
        Some(t) => parse_lock(t, &format!("{display} (base)"))?,
        None => Lock::default(),
    };
    let after = parse_lock(head, display)?;
    let change = |kind, server: &str, summary: String| CatalogDiff {
        server: server.to_string(),
        changes: vec![Change {
            kind,
            item: None,
            field: None,
            summary,
            before: None,
            after: None,
            words: Vec::new(),
            whitespace_only: false,
        }],
    };
    let mut out = Vec::new();
    for (id, (d, _)) in &after.entries {
        match before.entries.get(id) {
            None => out.push(change(
                ChangeKind::ServerAdded,
                id,
                "server pinned for the first time".into(),
            )),
            Some((old, _)) if old != d => out.push(change(
                ChangeKind::SchemaChanged,
                id,
                "surface digest changed".into(),
            )),
            Some(_) => {}
        }
    }
    for id in before
        .entries
        .keys()
        .filter(|id| !after.entries.contains_key(*id))
    {
        out.push(change(
            ChangeKind::ServerRemoved,
            id,
            "server unpinned".into(),
        ));
    }
    Ok(out)
}

/// SARIF 2.1.0 for code scanning.
pub fn sarif(r: &ScanResult, _verdict: &Verdict) -> Result<String, String> {
    super::fallback::sarif(r)
}

/// The Markdown report (job summary and PR comment).
pub fn markdown(r: &ScanResult, verdict: &Verdict) -> Result<String, String> {
    Ok(super::fallback::markdown(r, verdict))
}
