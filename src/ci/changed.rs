//! What a pull request changed, from git. Inside a container action the
//! workspace belongs to another uid, so every call passes
//! `-c safe.directory=*`; a shallow clone may lack the base commit, in which
//! case the caller falls back to the GitHub API (and says so).

use std::path::Path;
use std::process::{Command, Stdio};

/// Run git in `dir` with settings that make its output stable and safe to parse.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-c")
        .arg("safe.directory=*")
        .arg("-c")
        .arg("core.quotepath=off")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "git {} failed: {}",
            args.first().unwrap_or(&""),
            crate::text::visible(String::from_utf8_lossy(&out.stderr).trim())
        ))
    }
}

/// The commit a revision names, when it exists in the local object store.
pub fn resolve(dir: &Path, rev: &str) -> Option<String> {
    if !super::event::is_rev(rev) {
        return None;
    }
    let out = git(
        dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .ok()?;
    let s = String::from_utf8(out).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The committer time of a commit (ISO 8601), for the report's footer.
pub fn commit_time(dir: &Path, sha: &str) -> Option<String> {
    if !super::event::is_rev(sha) {
        return None;
    }
    let out = git(
        dir,
        &["show", "-s", "--format=%cI", "--end-of-options", sha],
    )
    .ok()?;
    let s = String::from_utf8(out).ok()?.trim().to_string();
    (!s.is_empty() && s.len() < 40).then_some(s)
}

/// How the changed files were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `git diff base...head` (changes since the merge base).
    MergeBase,
    /// `git diff base head`: the merge base is missing from a shallow clone.
    TwoDot,
}

/// Paths changed between `base` and `head` (repo-relative, `/` separators, sorted).
/// `Err` when either commit is missing locally (a shallow clone).
pub fn diff_names(dir: &Path, base: &str, head: &str) -> Result<(Vec<String>, Method), String> {
    let b = resolve(dir, base).ok_or_else(|| {
        format!(
            "the base commit {} is not in the clone",
            crate::text::visible(base)
        )
    })?;
    let h = resolve(dir, head).ok_or_else(|| {
        format!(
            "the head commit {} is not in the clone",
            crate::text::visible(head)
        )
    })?;
    let run = |range: &[&str]| -> Result<Vec<String>, String> {
        let mut args = vec![
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            "--no-ext-diff",
            "--no-textconv",
        ];
        args.extend_from_slice(range);
        args.push("--");
        let out = git(dir, &args)?;
        let mut names: Vec<String> = out
            .split(|&b| b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    };
    match run(&[&format!("{b}...{h}")]) {
        Ok(n) => Ok((n, Method::MergeBase)),
        Err(_) => run(&[&b, &h]).map(|n| (n, Method::TwoDot)),
    }
}

/// A file's content at a revision (`None` when it does not exist there).
pub fn show(dir: &Path, rev: &str, path: &str) -> Option<String> {
    let commit = resolve(dir, rev)?;
    let out = git(dir, &["show", "--no-textconv", &format!("{commit}:{path}")]).ok()?;
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.invalid",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn names_between_commits_and_missing_base() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        sh(p, &["init", "-q", "-b", "main"]);
        std::fs::write(p.join("a.json"), "{}").unwrap();
        sh(p, &["add", "-A"]);
        sh(p, &["commit", "-qm", "base"]);
        let base = resolve(p, "HEAD").unwrap();
        std::fs::create_dir(p.join("dir with space")).unwrap();
        std::fs::write(p.join("dir with space/mcp.json"), "{}").unwrap();
        std::fs::write(p.join("a.json"), "{\"x\":1}").unwrap();
        sh(p, &["add", "-A"]);
        sh(p, &["commit", "-qm", "head"]);
        let (names, method) = diff_names(p, &base, "HEAD").unwrap();
        assert_eq!(
            names,
            vec!["a.json".to_string(), "dir with space/mcp.json".to_string()]
        );
        assert_eq!(method, Method::MergeBase);
        assert_eq!(show(p, &base, "a.json").as_deref(), Some("{}"));
        assert_eq!(show(p, &base, "dir with space/mcp.json"), None);
        let missing = "0123456789abcdef0123456789abcdef01234567";
        assert!(
            diff_names(p, missing, "HEAD")
                .unwrap_err()
                .contains("not in the clone")
        );
        assert!(resolve(p, "--output=/tmp/x").is_none());
    }
}
