//! The install phase: before any server is timed, resolve every `npx` and
//! `uvx` package into the scanner's package cache, in parallel within the
//! concurrency bound. A server then starts from a warm cache, so its start-up
//! deadline measures the server, not the download.
//!
//! The install runs the same launcher with the same options and environment
//! as the server, but in place of the server it runs a command that exits at
//! once (`node -e ""`, `python -c ""`): npm keys its `_npx` tree and uv its
//! cached environment on the packages, not on the command, so the server's own
//! invocation finds them.

use super::sandbox::{self, GroupGuard};
use std::time::{Duration, Instant};

/// One install: the launcher and its arguments.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Step {
    pub command: String,
    pub args: Vec<String>,
    /// For `npx`: the packages it installs (`-p` values, or the spec).
    pub npm_packages: Vec<String>,
}

/// The install step for a server's invocation, or `None` when it is not a
/// package runner we can warm (`npx -c`, a local path, another launcher).
pub fn plan(command: &str, args: &[String]) -> Option<Step> {
    match crate::acquire::package::bare_command(command).as_str() {
        "npx" => npx(command, args),
        "uvx" => uvx(command, args),
        _ => None,
    }
}

/// `npx [opts] spec args…` → `npx [opts] --yes --package=spec -- node -e ""`;
/// `npx [opts] --package=a bin args…` → `npx [opts] --yes -- node -e ""`.
fn npx(command: &str, args: &[String]) -> Option<Step> {
    const VALUE: &[&str] = &[
        "--registry",
        "--cache",
        "--userconfig",
        "--prefix",
        "-w",
        "--workspace",
    ];
    let mut opts: Vec<String> = Vec::new();
    let mut packages: Vec<String> = Vec::new();
    let mut i = 0;
    let spec = loop {
        let a = args.get(i)?.as_str();
        if matches!(a, "-c" | "--call") || a.starts_with("--call=") {
            return None;
        }
        if matches!(a, "-p" | "--package") {
            packages.push(args.get(i + 1)?.clone());
            opts.push(a.to_string());
            opts.push(args.get(i + 1)?.clone());
            i += 2;
            continue;
        }
        if let Some(p) = a.strip_prefix("--package=") {
            packages.push(p.to_string());
        }
        if VALUE.contains(&a) {
            opts.push(a.to_string());
            opts.push(args.get(i + 1)?.clone());
            i += 2;
            continue;
        }
        if a == "--" {
            break args.get(i + 1)?.clone();
        }
        if a.starts_with('-') {
            opts.push(a.to_string());
            i += 1;
            continue;
        }
        break a.to_string();
    };
    let implied = packages.is_empty();
    if implied {
        crate::acquire::package::npm_spec(&spec)?;
        packages.push(spec.clone());
    }
    if !opts.iter().any(|o| o == "-y" || o == "--yes") {
        opts.push("--yes".into());
    }
    if implied {
        opts.push(format!("--package={spec}"));
    }
    opts.extend(["--", "node", "-e", ""].map(String::from));
    Some(Step {
        command: command.to_string(),
        args: opts,
        npm_packages: packages,
    })
}

/// Whether an `npx` step is already in the cache, so the install phase can
/// skip it: every package is an exact version, and npm's `_npx` tree for the
/// package set (named, as npm names it, by the first 16 hex digits of the
/// SHA-512 of the sorted specs joined by newlines) holds that version.
pub fn is_warm(step: &Step, cache: &std::path::Path) -> bool {
    use sha2::Digest;
    if step.npm_packages.is_empty() {
        return false;
    }
    let mut specs = step.npm_packages.clone();
    specs.sort();
    let digest = sha2::Sha512::digest(specs.join("\n").as_bytes());
    let hash: String = hex::encode(digest).chars().take(16).collect();
    let tree = cache.join("npm").join("_npx").join(hash);
    if !tree.join("package.json").is_file() {
        return false;
    }
    step.npm_packages.iter().all(|spec| {
        let Some(id) = crate::acquire::package::npm_spec(spec).filter(|p| p.pinned) else {
            return false;
        };
        let manifest = tree
            .join("node_modules")
            .join(&id.name)
            .join("package.json");
        std::fs::read(&manifest)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|m| m.get("version").and_then(|v| v.as_str()) == id.version.as_deref())
    })
}

/// `uvx [opts] spec args…` → `uvx [opts] --from spec python -c ""`;
/// `uvx [opts] --from spec cmd args…` → `uvx [opts] --from spec python -c ""`.
fn uvx(command: &str, args: &[String]) -> Option<Step> {
    const VALUE: &[&str] = &[
        "--python",
        "-p",
        "--with",
        "-w",
        "--with-editable",
        "--with-requirements",
        "--index-url",
        "--extra-index-url",
        "--index",
        "--default-index",
        "--directory",
        "--project",
        "--constraint",
        "--constraints",
        "-c",
        "--overrides",
        "--build-constraint",
        "--env-file",
        "--python-preference",
        "--color",
        "--config-file",
        "--cache-dir",
    ];
    let mut opts: Vec<String> = Vec::new();
    let mut from = false;
    let mut i = 0;
    let spec = loop {
        let a = args.get(i)?.as_str();
        if a == "--from" {
            from = true;
            opts.push(a.to_string());
            opts.push(args.get(i + 1)?.clone());
            i += 2;
            continue;
        }
        if a.starts_with("--from=") {
            from = true;
        }
        if VALUE.contains(&a) {
            opts.push(a.to_string());
            opts.push(args.get(i + 1)?.clone());
            i += 2;
            continue;
        }
        if a.starts_with('-') {
            opts.push(a.to_string());
            i += 1;
            continue;
        }
        break a.to_string();
    };
    if !from {
        crate::acquire::package::pypi_spec(&spec)?;
        opts.push("--from".into());
        opts.push(spec);
    }
    opts.extend(["python", "-c", ""].map(String::from));
    Some(Step {
        command: command.to_string(),
        args: opts,
        npm_packages: Vec::new(),
    })
}

/// How an install ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installed {
    Ok,
    /// Why it did not finish (exit status, timeout, a known cause).
    Failed(String),
}

/// Run one install step in the sandbox's environment, bounded by `timeout`;
/// the whole process group dies with it. With a `cache`, the one known broken
/// state of npm's cache is repaired if it is met: an `_npx` tree whose install
/// was interrupted (a `node_modules` without `package.json`) makes every later
/// `npx` of the same packages fail with ENOENT. The tree named in that error
/// is removed (only inside `cache`) and the install run once more.
pub async fn run(
    step: &Step,
    env: &[(String, String)],
    timeout: Duration,
    cache: Option<&std::path::Path>,
) -> (Installed, Duration) {
    let (outcome, took, stderr) = run_once(step, env, timeout).await;
    if outcome == Installed::Ok {
        return (outcome, took);
    }
    match cache.and_then(|c| broken_npx_tree(&stderr, c)) {
        Some(dir) if std::fs::remove_dir_all(&dir).is_ok() => {
            let (again, more, _) = run_once(step, env, timeout).await;
            (again, took + more)
        }
        _ => (outcome, took),
    }
}

/// The `_npx/<hash>` directory an ENOENT on its `package.json` names, if it
/// lies inside `cache`'s npm directory.
fn broken_npx_tree(stderr: &str, cache: &std::path::Path) -> Option<std::path::PathBuf> {
    let at = stderr.find("Could not read package.json")?;
    let rest = &stderr[at..];
    let open = rest.find("open '")? + "open '".len();
    let end = rest[open..].find('\'')? + open;
    let file = std::path::Path::new(&rest[open..end]);
    let dir = file.parent()?;
    dir.file_name()?; // not `..`
    let npx = cache.join("npm").join("_npx");
    (file.file_name()? == "package.json" && dir.parent()? == npx).then(|| dir.to_path_buf())
}

async fn run_once(
    step: &Step,
    env: &[(String, String)],
    timeout: Duration,
) -> (Installed, Duration, String) {
    let start = Instant::now();
    let Ok(cwd) = tempfile::Builder::new().prefix("mtc-install-").tempdir() else {
        return (
            Installed::Failed("cannot create a temporary directory".into()),
            start.elapsed(),
            String::new(),
        );
    };
    let mut cmd = sandbox::command(&step.command, &step.args, env, cwd.path(), false);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return (
                Installed::Failed(format!("cannot start: {e}")),
                start.elapsed(),
                String::new(),
            );
        }
    };
    let mut guard = GroupGuard {
        pgid: child.id().map(|p| p as i32),
    };
    let stderr = child.stderr.take();
    let collect = async move {
        use tokio::io::AsyncReadExt;
        let mut keep = Vec::new();
        if let Some(mut r) = stderr {
            let mut buf = [0u8; 8192];
            while let Ok(n) = r.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                let room = (64 * 1024usize).saturating_sub(keep.len());
                keep.extend_from_slice(&buf[..n.min(room)]);
            }
        }
        keep
    };
    let result = tokio::time::timeout(timeout, async {
        let (err, status) = tokio::join!(collect, child.wait());
        (err, status)
    })
    .await;
    guard.kill();
    let mut stderr = String::new();
    let outcome = match result {
        Err(_) => Installed::Failed(format!(
            "did not finish within the install timeout ({} ms)",
            timeout.as_millis()
        )),
        Ok((_, Ok(status))) if status.success() => Installed::Ok,
        Ok((err, status)) => {
            stderr = String::from_utf8_lossy(&err).into_owned();
            let code = match status {
                Ok(s) => s.code().map_or_else(
                    || "was killed by a signal".to_string(),
                    |c| format!("exited with status {c}"),
                ),
                Err(e) => format!("failed: {e}"),
            };
            match sandbox::diagnose(&stderr) {
                Some(cause) => Installed::Failed(format!("{code}; likely cause: {cause}")),
                None => Installed::Failed(code),
            }
        }
    };
    (outcome, start.elapsed(), stderr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn npx_installs_the_same_packages_and_runs_nothing() {
        let s = plan("npx", &a(&["-y", "@scope/pkg@1.2.3", "--flag", "x"])).unwrap();
        assert_eq!(
            s.args,
            a(&["-y", "--package=@scope/pkg@1.2.3", "--", "node", "-e", ""])
        );
        let s = plan("npx", &a(&["--package", "a@1", "-p", "b@2", "bin", "arg"])).unwrap();
        assert_eq!(
            s.args,
            a(&[
                "--package",
                "a@1",
                "-p",
                "b@2",
                "--yes",
                "--",
                "node",
                "-e",
                ""
            ])
        );
        let s = plan("npx", &a(&["--registry", "https://r.example", "pkg"])).unwrap();
        assert_eq!(
            s.args,
            a(&[
                "--registry",
                "https://r.example",
                "--yes",
                "--package=pkg",
                "--",
                "node",
                "-e",
                ""
            ])
        );
        assert_eq!(s.npm_packages, a(&["pkg"]));
        assert_eq!(plan("npx", &a(&["-c", "echo hi"])), None);
        assert_eq!(plan("npx", &a(&["-y", "./local"])), None);
        assert_eq!(plan("npx", &a(&["-y"])), None);
        assert_eq!(plan("node", &a(&["server.js"])), None);
    }

    #[test]
    fn a_pinned_package_already_in_npms_tree_is_not_installed_again() {
        let cache = tempfile::tempdir().unwrap();
        let step = plan(
            "npx",
            &a(&["-y", "@modelcontextprotocol/server-memory@2026.8.31"]),
        )
        .unwrap();
        assert!(!is_warm(&step, cache.path()));
        // npm's own name for this package set's tree (seen in a real cache).
        let tree = cache.path().join("npm/_npx/c98ccc168155bafa");
        let pkg = tree.join("node_modules/@modelcontextprotocol/server-memory");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(tree.join("package.json"), "{}").unwrap();
        std::fs::write(pkg.join("package.json"), r#"{"version": "2026.8.30"}"#).unwrap();
        assert!(!is_warm(&step, cache.path()), "another version");
        std::fs::write(pkg.join("package.json"), r#"{"version": "2026.8.31"}"#).unwrap();
        assert!(is_warm(&step, cache.path()));
        // A range is resolved by npm on every start: always installed.
        let range = plan("npx", &a(&["-y", "@modelcontextprotocol/server-memory"])).unwrap();
        assert!(!is_warm(&range, cache.path()));
    }

    #[test]
    fn only_the_named_broken_npx_tree_inside_the_cache_is_repaired() {
        let cache = std::path::Path::new("/c");
        let err = "npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/c/npm/_npx/c329005a7fd3ed13/package.json'\n";
        assert_eq!(
            broken_npx_tree(err, cache),
            Some(std::path::PathBuf::from("/c/npm/_npx/c329005a7fd3ed13"))
        );
        for outside in [
            "Could not read package.json: Error: ENOENT: open '/home/u/project/package.json'",
            "Could not read package.json: Error: ENOENT: open '/c/npm/_npx/../../x/package.json'",
            "Could not read package.json: Error: ENOENT: open '/c/npm/_npx/h/sub/package.json'",
            "Could not read package.json: Error: ENOENT: open '/c/npm/_npx/../package.json'",
            "Could not read package.json",
        ] {
            assert_eq!(broken_npx_tree(outside, cache), None, "{outside}");
        }
    }

    #[test]
    fn uvx_installs_the_same_environment_and_runs_nothing() {
        let s = plan("uvx", &a(&["mcp-server-time@2026.10.19", "--tz", "UTC"])).unwrap();
        assert_eq!(
            s.args,
            a(&["--from", "mcp-server-time@2026.10.19", "python", "-c", ""])
        );
        let s = plan(
            "uvx",
            &a(&["--with", "mcp<2", "--from", "srv==1.0", "srv-cmd", "--x"]),
        )
        .unwrap();
        assert_eq!(
            s.args,
            a(&["--with", "mcp<2", "--from", "srv==1.0", "python", "-c", ""])
        );
        let s = plan("uvx", &a(&["--python", "3.12", "pkg@1"])).unwrap();
        assert_eq!(
            s.args,
            a(&["--python", "3.12", "--from", "pkg@1", "python", "-c", ""])
        );
        assert_eq!(plan("uvx", &a(&["--from"])), None);
        assert_eq!(plan("uvx", &a(&["./local"])), None);
    }
}
