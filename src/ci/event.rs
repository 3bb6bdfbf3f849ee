//! The GitHub environment of a run: which event fired, the pull request's base
//! and head commits, and the action's inputs as GitHub hands them to a
//! container (`INPUT_<NAME>`, upper-cased, hyphens kept).

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A snapshot of the process environment (a map, so tests can build one).
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: BTreeMap<String, String>,
}

impl Env {
    pub fn from_process() -> Self {
        Env {
            vars: std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                .collect(),
        }
    }
    pub fn from_pairs<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Self {
        Env {
            vars: pairs.into_iter().collect(),
        }
    }
    /// A variable, `None` when unset or empty (GitHub sets unused inputs to "").
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }
    /// An action input. GitHub passes `fail-on` as `INPUT_FAIL-ON`; a few runners
    /// and hand-written scripts use `INPUT_FAIL_ON`, so both are read.
    pub fn input(&self, name: &str) -> Option<&str> {
        let upper = name.to_ascii_uppercase();
        self.get(&format!("INPUT_{upper}"))
            .or_else(|| self.get(&format!("INPUT_{}", upper.replace('-', "_"))))
            .map(str::trim)
    }
    /// A boolean input (`true`/`false`, as YAML 1.2 core schema spells them).
    pub fn bool_input(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.input(name) {
            None => Ok(default),
            Some(v) => parse_bool(v).ok_or_else(|| {
                format!(
                    "input `{name}` must be `true` or `false`, not `{}`",
                    crate::text::visible(v)
                )
            }),
        }
    }
    /// The token for the GitHub API: the `github-token` input, else `GITHUB_TOKEN`.
    pub fn token(&self) -> Option<String> {
        self.input("github-token")
            .or_else(|| self.get("GITHUB_TOKEN"))
            .map(|s| s.trim().to_string())
    }
}

pub fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// The pull request an event is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    pub number: u64,
    pub base_sha: String,
    pub head_sha: String,
    /// The head branch lives in another repository (its token is usually read-only).
    pub fork: bool,
}

/// What triggered the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// `pull_request`, `push`, `schedule`, `workflow_dispatch`, … or `manual` by hand.
    pub name: String,
    pub pull_request: Option<PullRequest>,
    /// `owner/name` of the base repository.
    pub repository: Option<String>,
}

/// Events whose checkout is the repository's own, reviewed content: live
/// acquisition may run their configs. Every other event (`pull_request*`,
/// `merge_group`, `issue_comment`, `workflow_run`, anything new) may carry
/// files a pull request author wrote.
pub const LIVE_TRUSTED_EVENTS: &[&str] = &["push", "schedule", "workflow_dispatch", "release"];

impl Event {
    /// Pull-request events run the PR author's configuration: changed files only,
    /// no live acquisition, and a comment.
    pub fn is_pull_request(&self) -> bool {
        matches!(self.name.as_str(), "pull_request" | "pull_request_target")
    }

    /// Whether `live: true` may spawn this run's configs. A run by hand (no
    /// `GITHUB_EVENT_NAME`) is trusted only when it judges no change (no base).
    pub fn live_trusted(&self, diff_mode: bool) -> bool {
        LIVE_TRUSTED_EVENTS.contains(&self.name.as_str()) || (self.name == "manual" && !diff_mode)
    }
}

/// Read the event: its name from `GITHUB_EVENT_NAME` (or `manual`), its payload
/// from `event_file` (or `GITHUB_EVENT_PATH`).
pub fn load(env: &Env, event_file: Option<&Path>) -> Result<Event, String> {
    let name = env.get("GITHUB_EVENT_NAME").unwrap_or("manual").to_string();
    let path = event_file
        .map(Path::to_path_buf)
        .or_else(|| env.get("GITHUB_EVENT_PATH").map(Into::into));
    let payload = match &path {
        None => Value::Null,
        Some(p) => {
            let meta = std::fs::metadata(p)
                .map_err(|e| format!("cannot read the event file {}: {e}", p.display()))?;
            if meta.len() > 64 * 1024 * 1024 {
                return Err(format!(
                    "the event file {} is larger than 64 MiB",
                    p.display()
                ));
            }
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read the event file {}: {e}", p.display()))?;
            serde_json::from_str(&text)
                .map_err(|e| format!("the event file {} is not JSON: {e}", p.display()))?
        }
    };
    let mut ev = parse(&name, &payload)?;
    if ev.repository.is_none() {
        ev.repository = env.get("GITHUB_REPOSITORY").map(str::to_string);
    }
    Ok(ev)
}

/// Interpret an event payload. A `pull_request` payload without its PR object
/// is an error: the gate cannot know what changed.
pub fn parse(name: &str, payload: &Value) -> Result<Event, String> {
    let repository = payload
        .pointer("/repository/full_name")
        .and_then(Value::as_str)
        .map(str::to_string);
    let pr = payload.get("pull_request").filter(|v| v.is_object());
    let pull_request = match pr {
        None if matches!(name, "pull_request" | "pull_request_target") => {
            return Err(format!(
                "the `{name}` event payload has no `pull_request` object"
            ));
        }
        None => None,
        Some(pr) => {
            let s = |p: &str| pr.pointer(p).and_then(Value::as_str).map(str::to_string);
            let number = pr
                .get("number")
                .and_then(Value::as_u64)
                .or_else(|| payload.get("number").and_then(Value::as_u64))
                .ok_or("the pull request has no number")?;
            let base_sha = s("/base/sha").ok_or("the pull request has no base.sha")?;
            let head_sha = s("/head/sha").ok_or("the pull request has no head.sha")?;
            for sha in [&base_sha, &head_sha] {
                if !is_rev(sha) {
                    return Err(format!(
                        "`{}` is not a commit id",
                        crate::text::visible(sha)
                    ));
                }
            }
            let fork = match (s("/head/repo/full_name"), s("/base/repo/full_name")) {
                (Some(h), Some(b)) => h != b,
                _ => pr
                    .pointer("/head/repo/fork")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            };
            Some(PullRequest {
                number,
                base_sha,
                head_sha,
                fork,
            })
        }
    };
    Ok(Event {
        name: name.to_string(),
        pull_request,
        repository,
    })
}

/// A revision we are willing to pass to git: no option injection, no odd bytes.
pub fn is_rev(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 256
        && !s.starts_with('-')
        && !s.contains("..")
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/_.-~^@{}".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inputs_keep_hyphens_and_accept_underscores() {
        let env = Env::from_pairs([
            ("INPUT_FAIL-ON".into(), "D".into()),
            ("INPUT_SARIF_FILE".into(), "x.sarif".into()),
            ("INPUT_LIVE".into(), " ".into()),
        ]);
        assert_eq!(env.input("fail-on"), Some("D"));
        assert_eq!(env.input("sarif-file"), Some("x.sarif"));
        assert_eq!(env.input("live"), None, "an empty input is unset");
        assert_eq!(env.bool_input("comment", true), Ok(true));
        let bad = Env::from_pairs([("INPUT_COMMENT".into(), "maybe".into())]);
        assert!(bad.bool_input("comment", true).is_err());
    }

    #[test]
    fn token_prefers_the_input() {
        let env = Env::from_pairs([
            ("INPUT_GITHUB-TOKEN".into(), "a".into()),
            ("GITHUB_TOKEN".into(), "b".into()),
        ]);
        assert_eq!(env.token().as_deref(), Some("a"));
        let env = Env::from_pairs([("GITHUB_TOKEN".into(), "b".into())]);
        assert_eq!(env.token().as_deref(), Some("b"));
    }

    #[test]
    fn pull_request_payload() {
        let p = json!({"number": 7, "repository": {"full_name": "o/r"}, "pull_request": {"number": 7,
            "base": {"sha": "a1", "repo": {"full_name": "o/r"}}, "head": {"sha": "b2", "repo": {"full_name": "fork/r"}}}});
        let e = parse("pull_request", &p).unwrap();
        assert!(e.is_pull_request());
        assert_eq!(e.repository.as_deref(), Some("o/r"));
        assert_eq!(
            e.pull_request,
            Some(PullRequest {
                number: 7,
                base_sha: "a1".into(),
                head_sha: "b2".into(),
                fork: true
            })
        );
        assert!(parse("pull_request", &json!({})).is_err());
        let bad = json!({"pull_request": {"number": 1, "base": {"sha": "--upload-pack=x"}, "head": {"sha": "b"}}});
        assert!(
            parse("pull_request", &bad).is_err(),
            "option-like revisions are refused"
        );
        let push = parse("push", &json!({"after": "abc"})).unwrap();
        assert!(!push.is_pull_request() && push.pull_request.is_none());
        assert!(push.live_trusted(false));
        for name in [
            "pull_request",
            "pull_request_target",
            "pull_request_review",
            "pull_request_review_comment",
            "merge_group",
            "issue_comment",
            "workflow_run",
            "something_new",
        ] {
            let ev = Event {
                name: name.into(),
                pull_request: None,
                repository: None,
            };
            assert!(!ev.live_trusted(false), "{name}");
        }
        let by_hand = Event {
            name: "manual".into(),
            pull_request: None,
            repository: None,
        };
        assert!(by_hand.live_trusted(false) && !by_hand.live_trusted(true));
    }
}
