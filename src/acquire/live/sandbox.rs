//! The stdio sandbox: which commands may run, with which environment, where,
//! and the guarantee that the whole process group dies with the scan.

use std::collections::BTreeMap;
use std::path::Path;

/// Executables a live scan runs without `--allow-any-command` (bare names only).
pub const DEFAULT_ALLOWLIST: &[&str] =
    &["npx", "uvx", "python", "python3", "node", "docker", "deno"];

/// Variables never passed from a config (they change what the interpreter
/// loads or where packages come from); matched case-insensitively.
const DENY_EXACT: &[&str] = &[
    "PATH",
    "HOME",
    "NODE_PATH",
    "NODE_OPTIONS",
    "NODE_REPL_EXTERNAL_MODULE",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "PYTHONHOME",
    "PERL5OPT",
    "RUBYOPT",
    "BASH_ENV",
    "ENV",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "NPM_CONFIG_REGISTRY",
    "PIP_INDEX_URL",
    "PIP_EXTRA_INDEX_URL",
    "UV_INDEX_URL",
    "UV_DEFAULT_INDEX",
];
const DENY_PREFIX: &[&str] = &["LD_", "DYLD_", "NPM_CONFIG_"];

/// Refuse a command outside the allowlist. The match is on the bare name: a
/// path (`/`, `\`) is refused even when its last segment is allowed.
pub fn check_command(command: &str, allowlist: &[String], allow_any: bool) -> Result<(), String> {
    if allow_any {
        return Ok(());
    }
    if command.contains('/') || command.contains('\\') {
        return Err(format!(
            "command `{}` is a path; only bare allowlisted names run without --allow-any-command",
            crate::text::visible(command)
        ));
    }
    if allowlist.iter().any(|a| a == command) {
        Ok(())
    } else {
        Err(format!(
            "command `{}` is not in the executable allowlist ({}); pass --allow-any-command to run it",
            crate::text::visible(command),
            allowlist.join(", ")
        ))
    }
}

/// The child's whole environment: `PATH` (the scanner's), `HOME` (a fresh
/// directory), and the variables the config itself names — with `${VAR}`
/// references resolved from the scanner's environment, and an empty value
/// meaning "forward this variable" (Codex `env_vars`). Nothing else.
pub fn build_env(
    config_env: &BTreeMap<String, String>,
    lookup: &dyn Fn(&str) -> Option<String>,
    home: &Path,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut notes = Vec::new();
    let mut env = vec![
        (
            "PATH".to_string(),
            lookup("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        ),
        ("HOME".to_string(), home.to_string_lossy().into_owned()),
    ];
    for (name, value) in config_env {
        let upper = name.to_ascii_uppercase();
        if DENY_EXACT.contains(&upper.as_str())
            || DENY_PREFIX.iter().any(|p| upper.starts_with(p))
            || value.starts_with("()")
        {
            notes.push(format!(
                "environment variable `{}` from the config was not passed (sandbox denylist)",
                crate::text::visible(name)
            ));
            continue;
        }
        let value = if value.is_empty() {
            lookup(name).unwrap_or_default()
        } else {
            let (v, missing) = super::expand_vars(value, lookup);
            for m in missing {
                notes.push(format!(
                    "environment variable `{}` referenced by `{}` is not set",
                    crate::text::visible(&m),
                    crate::text::visible(name)
                ));
            }
            v
        };
        env.push((name.clone(), value));
    }
    (env, notes)
}

/// Kills the child's whole process group when dropped, so nothing it started
/// outlives the scan (even on an early return or a panic).
pub(crate) struct GroupGuard {
    pub pgid: Option<i32>,
}

impl GroupGuard {
    pub fn kill(&mut self) {
        if let Some(pg) = self.pgid.take() {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pg),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allow() -> Vec<String> {
        DEFAULT_ALLOWLIST.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn allowlist_is_on_the_bare_name() {
        assert!(check_command("npx", &allow(), false).is_ok());
        assert!(check_command("bash", &allow(), false).is_err());
        assert!(check_command("/tmp/evil/node", &allow(), false).is_err());
        assert!(check_command("..\\node", &allow(), false).is_err());
        assert!(check_command("bash", &allow(), true).is_ok());
    }

    #[test]
    fn environment_is_only_path_home_and_the_config() {
        let mut cfg = BTreeMap::new();
        cfg.insert("API_KEY".to_string(), "${MY_KEY}".to_string());
        cfg.insert("FORWARD".to_string(), String::new());
        cfg.insert("LD_PRELOAD".to_string(), "/x.so".to_string());
        cfg.insert("node_options".to_string(), "--require x".to_string());
        cfg.insert("FN".to_string(), "() { evil; }".to_string());
        let lookup = |n: &str| match n {
            "PATH" => Some("/bin".to_string()),
            "MY_KEY" => Some("k".to_string()),
            "FORWARD" => Some("f".to_string()),
            _ => Some("SCANNER-SECRET".to_string()),
        };
        let (env, notes) = build_env(&cfg, &lookup, Path::new("/tmp/h"));
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["PATH", "HOME", "API_KEY", "FORWARD"]);
        assert_eq!(env[2].1, "k");
        assert_eq!(env[3].1, "f");
        assert_eq!(env[1].1, "/tmp/h");
        assert_eq!(notes.len(), 3);
    }
}
