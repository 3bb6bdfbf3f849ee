//! The one place that decides which files of a pull request are trusted and
//! which are only evidence (`docs/spec/ci.md`, "Trust boundaries in a pull request").
//!
//! Everything a pull request carries is its author's. So:
//! - the **policy that judges** a pull request is the base commit's, read with
//!   `git show BASE:path` (or, from a shallow clone, through the GitHub API at
//!   the base commit); the PR's own version is diffed against it and shown as a
//!   *policy change* that takes effect once merged;
//! - the **workflow's inputs are a floor**: a policy may make `fail-on` and
//!   `fail-on-drift` stricter, never looser;
//! - the **head lockfile records review**: a lockfile change turns drift into a
//!   reviewed change, shown to the reviewer; grades come from the scanned
//!   content, so a server graded F still fails.
//!
//! On other events (push, schedule, …) the checkout is the repository's own
//! merged content, and its policy is read from the workspace (confined).

use crate::acquire::confine::Workspace;
use crate::policy::diff::PolicyChange;
use crate::policy::{self, Policy};

/// Where the policy in force came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The workspace (a trusted event).
    Workspace,
    /// The base commit, from git.
    BaseCommit,
    /// The base commit, through the GitHub contents API (shallow clone).
    BaseApi,
    /// No policy file applies.
    None,
}

/// The policy that judges this run, and the PR's proposed change to it.
#[derive(Debug, Clone)]
pub struct Trusted {
    pub policy: Option<Policy>,
    pub source: Source,
    /// The PR's change to the policy file (never applied to this run).
    pub change: Option<PolicyChange>,
    pub notes: Vec<String>,
}

/// How the base commit's copy of a file is read.
pub trait BaseReader {
    /// `Ok(Some(text))`, `Ok(None)` when the file does not exist there, or
    /// `Err` when the base cannot be read at all (commit missing, API down).
    fn read(&self, path: &str) -> Result<Option<String>, String>;
    /// How it was read.
    fn source(&self) -> Source;
}

/// `git show BASE:path` in the workspace.
pub struct GitBase<'a> {
    pub ws: &'a std::path::Path,
    pub base: &'a str,
}

impl BaseReader for GitBase<'_> {
    fn read(&self, path: &str) -> Result<Option<String>, String> {
        if super::changed::resolve(self.ws, self.base).is_none() {
            return Err(format!(
                "the base commit {} is not in the clone",
                crate::text::visible(self.base)
            ));
        }
        Ok(super::changed::show(self.ws, self.base, path))
    }
    fn source(&self) -> Source {
        Source::BaseCommit
    }
}

fn parse(text: &str, display: &str, max_bytes: u64) -> Result<Policy, String> {
    if text.len() as u64 > max_bytes {
        return Err(format!(
            "{display}: larger than the {max_bytes} byte limit (input `max-file-size`)"
        ));
    }
    Policy::parse(text, display).map_err(|e| crate::text::visible(&e.to_string()))
}

/// The workspace's copy of the policy (confined: a symlink leaving the
/// workspace is refused). `Ok(None)` when absent.
fn read_workspace(
    ws: &Workspace,
    rel: &str,
    max_bytes: u64,
) -> Result<Option<(String, String)>, String> {
    let (abs, display) = ws
        .resolve(rel)
        .map_err(|e| format!("input `policy`: {e}"))?;
    if !abs.is_file() {
        return Ok(None);
    }
    let text = crate::parse::read_text(&abs, &display, max_bytes)
        .map_err(|e| crate::text::visible(&e.to_string()))?;
    Ok(Some((text, display)))
}

/// Decide the policy for a run. `rel` is the `policy` input (else the default
/// file name); `explicit` says the input named it (then it must exist
/// somewhere). `base` is `Some` when a change is judged (a pull request, or
/// `--base`).
pub fn policy(
    ws: &Workspace,
    rel: Option<&str>,
    base: Option<&dyn BaseReader>,
    max_bytes: u64,
) -> Result<Trusted, String> {
    let explicit = rel.is_some();
    let rel = rel.unwrap_or(policy::DEFAULT_FILE);
    let Some(base) = base else {
        // A trusted event: the checkout is the repository's own content.
        return match read_workspace(ws, rel, max_bytes)? {
            Some((text, display)) => Ok(Trusted {
                policy: Some(parse(&text, &display, max_bytes)?),
                source: Source::Workspace,
                change: None,
                notes: Vec::new(),
            }),
            None if explicit => Err(format!(
                "{}: policy file not found",
                crate::text::visible(rel)
            )),
            None => Ok(Trusted {
                policy: None,
                source: Source::None,
                change: None,
                notes: Vec::new(),
            }),
        };
    };
    let display =
        crate::acquire::confine::normalize(rel).map_err(|e| format!("input `policy`: {e}"))?;
    let base_text = base.read(&display).map_err(|e| {
        format!("{e}: the base commit's policy decides this pull request and could not be read (use `fetch-depth: 0` with actions/checkout)")
    })?;
    let base_policy = match &base_text {
        Some(t) => Some(parse(t, &format!("{display} (base)"), max_bytes)?),
        None => None,
    };
    // The PR's version: evidence only. A symlink out of the workspace is not read.
    let mut notes = Vec::new();
    let head = match read_workspace(ws, rel, max_bytes) {
        Ok(h) => h.map(|(t, _)| t),
        Err(e) => {
            notes.push(format!("the pull request's policy file was not read: {e}"));
            None
        }
    };
    if explicit && base_text.is_none() && head.is_none() {
        return Err(format!(
            "{}: policy file not found",
            crate::text::visible(rel)
        ));
    }
    let change = if head == base_text {
        None
    } else {
        let (head_policy, head_error) = match &head {
            Some(t) => match parse(t, &display, max_bytes) {
                Ok(p) => (Some(p), None),
                Err(e) => (None, Some(e)),
            },
            None => (None, None),
        };
        let d = crate::policy::diff::diff(
            &display,
            base_policy.as_ref(),
            head_policy.as_ref(),
            head_error,
        );
        notes.push(format!(
            "this change edits the policy file {}; the base commit's policy judges it, and the change takes effect once merged",
            crate::text::visible(&display)
        ));
        Some(d)
    };
    Ok(Trusted {
        source: if base_policy.is_some() {
            base.source()
        } else {
            Source::None
        },
        policy: base_policy,
        change,
        notes,
    })
}

/// The gate grade: the workflow's `fail-on`, made stricter by the policy in force.
pub fn fail_on(input: crate::score::FailOn, p: Option<&Policy>) -> crate::score::FailOn {
    p.map_or(input, |p| p.gate.fail_on_with_floor(input))
}

/// Whether unreviewed drift fails: the workflow's `fail-on-drift`, or a policy
/// that explicitly asks for it. A policy can never turn it off.
pub fn fail_on_drift(input: bool, p: Option<&Policy>) -> bool {
    input || p.is_some_and(|p| p.gate.drift_fails == Some(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{FailOn, Grade};
    use std::collections::BTreeMap;

    struct Fake(Result<BTreeMap<String, String>, String>);
    impl BaseReader for Fake {
        fn read(&self, path: &str) -> Result<Option<String>, String> {
            self.0.clone().map(|m| m.get(path).cloned())
        }
        fn source(&self) -> Source {
            Source::BaseCommit
        }
    }

    const LOOSE: &str = "[gate]\nfail_on = \"F\"\ndrift_fails = false\n\n[[suppressions]]\nrule = \"MTC-UNI-001\"\nserver = \"x\"\nreason = \"r\"\nowner = \"me\"\nexpires = 2099-01-01\n";

    #[test]
    fn the_base_policy_judges_and_the_head_is_a_change() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("mcptrustchecker.toml"), LOOSE).unwrap();
        let ws = Workspace::new(d.path()).unwrap();
        // No policy at the base: none applies; the PR's file is only shown.
        let none = Fake(Ok(BTreeMap::new()));
        let t = policy(&ws, None, Some(&none), 1 << 20).unwrap();
        assert!(t.policy.is_none() && t.source == Source::None);
        let change = t.change.unwrap();
        assert!(change.loosens(), "{change:?}");
        // A base policy: it judges; the head's loosening is shown.
        let base = Fake(Ok(BTreeMap::from([(
            "mcptrustchecker.toml".to_string(),
            "[gate]\nfail_on = \"C\"\n".to_string(),
        )])));
        let t = policy(&ws, None, Some(&base), 1 << 20).unwrap();
        let p = t.policy.unwrap();
        assert_eq!(p.gate.fail_on, Some(Grade::C));
        assert!(p.suppressions.is_empty());
        assert!(t.change.is_some());
        // The base cannot be read: a clear error, not the head's policy.
        let missing = Fake(Err("the base commit x is not in the clone".into()));
        let e = policy(&ws, None, Some(&missing), 1 << 20).unwrap_err();
        assert!(e.contains("base commit's policy"), "{e}");
        // A trusted event reads the workspace.
        let t = policy(&ws, None, None, 1 << 20).unwrap();
        assert_eq!(t.source, Source::Workspace);
        assert_eq!(t.policy.unwrap().suppressions.len(), 1);
    }

    #[test]
    fn inputs_are_a_floor() {
        let loose = Policy::parse(LOOSE, "p").unwrap();
        let strict = Policy::parse("[gate]\nfail_on = \"B\"\ndrift_fails = true\n", "p").unwrap();
        let at = FailOn::At;
        assert_eq!(fail_on(at(Grade::C), Some(&loose)), at(Grade::C));
        assert_eq!(fail_on(at(Grade::F), Some(&strict)), at(Grade::B));
        assert_eq!(fail_on(at(Grade::D), None), at(Grade::D));
        // `none` reports only, but a trusted policy's grade still applies.
        assert_eq!(fail_on(FailOn::Never, None), FailOn::Never);
        assert_eq!(fail_on(FailOn::Never, Some(&strict)), at(Grade::B));
        assert!(fail_on_drift(true, Some(&loose)));
        assert!(fail_on_drift(false, Some(&strict)));
        assert!(!fail_on_drift(false, Some(&loose)));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_policy_out_of_the_workspace_is_not_read() {
        let d = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::write(out.path().join("p.toml"), LOOSE).unwrap();
        std::os::unix::fs::symlink(
            out.path().join("p.toml"),
            d.path().join("mcptrustchecker.toml"),
        )
        .unwrap();
        let ws = Workspace::new(d.path()).unwrap();
        assert!(policy(&ws, None, None, 1 << 20).is_err());
        let none = Fake(Ok(BTreeMap::new()));
        let t = policy(&ws, None, Some(&none), 1 << 20).unwrap();
        assert!(t.policy.is_none() && t.change.is_none());
        assert!(t.notes[0].contains("not read"), "{:?}", t.notes);
    }
}
