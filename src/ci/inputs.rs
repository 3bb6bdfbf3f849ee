//! The action's inputs (`INPUT_*`), validated once: a bad value is a usage
//! error that names the input.

use super::event::{self, Env};
use crate::score::{FailOn, Grade};

/// The action's inputs, validated.
#[derive(Debug, Clone)]
pub struct Inputs {
    pub path: String,
    pub lockfile: String,
    pub fail_on: FailOn,
    pub fail_on_drift: bool,
    pub live: Live,
    pub online: bool,
    pub include_builtins: Option<String>,
    pub policy: Option<String>,
    /// `None`: under `RUNNER_TEMP` (see `files::sarif_target`).
    pub sarif_file: Option<String>,
    /// The code-scanning category (`automationDetails.id`).
    pub category: Option<String>,
    pub comment: bool,
    /// Names this job's sticky comment (its marker).
    pub comment_header: Option<String>,
    /// Files (configs, descriptors, the lockfile, the policy) larger than this are refused.
    pub max_file_bytes: u64,
    /// Variables of the job's environment live servers may receive (`pass-env`).
    pub pass_env: Vec<String>,
}

/// The `live` input. A pull request's configs are the PR author's: spawning
/// them needs an explicit `force`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live {
    Off,
    On,
    Force,
}

impl Inputs {
    pub fn from_env(env: &Env) -> Result<Inputs, String> {
        let fail_on = match env.input("fail-on") {
            None => FailOn::At(Grade::F),
            Some(g) => FailOn::parse(g).ok_or_else(|| {
                format!(
                    "input `fail-on` must be a grade A–F or `none`, not `{}`",
                    crate::text::visible(g)
                )
            })?,
        };
        let live = match env.input("live").map(|s| s.to_ascii_lowercase()) {
            None => Live::Off,
            Some(s) if s == "force" => Live::Force,
            Some(s) => match event::parse_bool(&s) {
                Some(true) => Live::On,
                Some(false) => Live::Off,
                None => {
                    return Err(format!(
                        "input `live` must be `true`, `false` or `force`, not `{}`",
                        crate::text::visible(&s)
                    ));
                }
            },
        };
        let include_builtins = env
            .input("include-builtins")
            .filter(|v| event::parse_bool(v) != Some(false))
            .map(str::to_string);
        Ok(Inputs {
            path: env.input("path").unwrap_or(".").to_string(),
            lockfile: env
                .input("lockfile")
                .unwrap_or("mcptrustchecker.lock")
                .to_string(),
            fail_on,
            fail_on_drift: env.bool_input("fail-on-drift", true)?,
            live,
            online: env.bool_input("online", false)?,
            include_builtins,
            policy: env.input("policy").map(str::to_string),
            sarif_file: env.input("sarif-file").map(str::to_string),
            category: env.input("category").map(str::to_string),
            comment: env.bool_input("comment", true)?,
            comment_header: env.input("comment-header").map(str::to_string),
            pass_env: env
                .input("pass-env")
                .map(|v| {
                    v.split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|n| !n.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            max_file_bytes: match env.input("max-file-size") {
                None => crate::parse::DEFAULT_MAX_FILE_BYTES,
                Some(v) => v.trim().parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!(
                        "input `max-file-size` must be a number of bytes above 0, not `{}`",
                        crate::text::visible(v)
                    )
                })?,
            },
        })
    }
}
