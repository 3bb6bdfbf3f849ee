//! The CI part of the comment and job summary, appended to the shared Markdown
//! report: what was scanned and how the changed files were found, which
//! servers fail the gate for missing review, and the exact command that
//! approves a change. Scanned text only ever appears inside code spans, made
//! visible and stripped of backticks, so it cannot become a mention, link,
//! image, HTML or Markdown structure.

use crate::gate::Gate;
use crate::model::ScanResult;
use std::fmt::Write;

/// Scanned text as an inert inline code span.
pub fn code(s: &str) -> String {
    let v = crate::text::visible(&crate::text::truncate_chars(s, 300)).replace('`', "'");
    format!("`{v}`")
}

/// Where the list of changed files came from, and what was scanned.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// One sentence, e.g. "3 changed files (git diff base...head)".
    pub how: String,
    pub notes: Vec<String>,
    /// The head lockfile exists.
    pub lockfile_present: bool,
}

/// A pull request's change to the policy file: shown, never applied (the base
/// commit's policy judges the pull request).
fn policy_change(out: &mut String, c: &crate::policy::diff::PolicyChange) {
    use crate::report::markdown::escape_cut;
    let _ = writeln!(
        out,
        "\n### Policy change\n\nThis change edits {}. The policy that judges this pull request is the base commit's; this change takes effect only once merged.{}\n",
        code(&c.path),
        if c.loosens() {
            " **It loosens the gate**: review it like code."
        } else {
            ""
        }
    );
    if let Some(e) = &c.error {
        let _ = writeln!(
            out,
            "> [!WARNING]\n> The changed policy file does not parse and would be refused once merged: {}\n",
            escape_cut(e, 400)
        );
    }
    for i in &c.items {
        let _ = writeln!(
            out,
            "- **{}** {}",
            i.effect.as_str(),
            escape_cut(&i.text, 400)
        );
    }
    if !c.items.is_empty() {
        out.push('\n');
    }
}

/// What a CI run knows about itself, for links and the footer.
#[derive(Debug, Clone, Default)]
pub struct RunInfo {
    /// `GITHUB_SERVER_URL` (`https://github.com`).
    pub server_url: Option<String>,
    /// `owner/name`.
    pub repo: Option<String>,
    /// The commit the findings' lines are at.
    pub head_sha: Option<String>,
    pub run_id: Option<String>,
    pub run_attempt: Option<String>,
    /// The head commit's time (from git, so the same commit renders the same).
    pub head_time: Option<String>,
}

impl RunInfo {
    /// `https://github.com/o/r`, when every part is well-formed (they come from
    /// the runner, but are checked like any input before going into a link).
    fn repo_url(&self) -> Option<String> {
        let server = self.server_url.as_deref()?.trim_end_matches('/');
        let ok_server = (server.starts_with("https://") || server.starts_with("http://"))
            && server[server.find("://")? + 3..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:".contains(c));
        let repo = self.repo.as_deref()?;
        let ok_repo = repo.split('/').count() == 2
            && repo.split('/').all(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
            });
        (ok_server && ok_repo).then(|| format!("{server}/{repo}"))
    }
    fn sha(&self) -> Option<&str> {
        self.head_sha
            .as_deref()
            .filter(|s| s.len() >= 7 && s.len() <= 64 && s.chars().all(|c| c.is_ascii_hexdigit()))
    }
    fn digits(v: &Option<String>) -> Option<&str> {
        v.as_deref()
            .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
    }
}

/// The image a reviewer can run without installing anything.
pub const IMAGE: &str = "ghcr.io/mcptrustchecker/mcptrustchecker";

/// The CI parts of the report: the policy change after the verdict, how to
/// approve after the changes, how the files were chosen (folded), and the
/// footer's head commit, run link and time.
pub fn context(
    r: &ScanResult,
    g: &Gate,
    scope: &Scope,
    lockfile: &str,
    change: Option<&crate::policy::diff::PolicyChange>,
    run: &RunInfo,
) -> crate::report::markdown::Context {
    use crate::report::markdown::{Context, escape_inline};
    let mut ctx = Context::default();
    if let Some(c) = change {
        let mut out = String::new();
        policy_change(&mut out, c);
        ctx.after_verdict.push(out.trim_start().to_string() + "\n");
    }
    let repo_url = run.repo_url();
    if let (Some(url), Some(sha)) = (&repo_url, run.sha()) {
        ctx.blob_base = Some(format!("{url}/blob/{sha}"));
        ctx.footer
            .push(format!("head [`{}`]({url}/commit/{sha})", &sha[..7]));
    }
    if let (Some(url), Some(id)) = (&repo_url, RunInfo::digits(&run.run_id)) {
        let attempt = RunInfo::digits(&run.run_attempt)
            .map(|a| format!("/attempts/{a}"))
            .unwrap_or_default();
        ctx.footer
            .push(format!("[run {id}]({url}/actions/runs/{id}{attempt})"));
    }
    if let Some(t) = &run.head_time {
        ctx.footer.push(format!("committed {}", code(t)));
    }

    if !scope.how.is_empty() {
        ctx.notes
            .push(format!("Scope: {}.", escape_inline(&scope.how)));
    }
    for n in &scope.notes {
        ctx.notes.push(escape_inline(n));
    }
    if scope.lockfile_present && !g.uninspected.is_empty() {
        let ids: Vec<String> = g.uninspected.iter().take(20).map(|id| code(id)).collect();
        ctx.notes.push(format!(
            "Catalog not inspected (only the launch configuration is known, so these cannot be pinned from files; commit a descriptor or lock them live): {}",
            ids.join(", ")
        ));
    }
    if g.drift() || !g.unpinned.is_empty() {
        ctx.actions.push(format!(
            "### Approve the change\n\nAfter reviewing it, pin the catalogs and commit the lockfile, with the CLI (see *Install* in the README) or the image:\n\n```sh\nmcptrustchecker lock\n# or, with nothing installed:\ndocker run --rm --user \"$(id -u):$(id -g)\" -v \"$PWD:/w\" -w /w {IMAGE}:v{version} lock\ngit add {lockfile}\ngit commit -m \"Approve MCP server changes\"\n```\n\n",
            version = crate::VERSION,
            lockfile = shell_word(lockfile)
        ));
    } else if !scope.lockfile_present && !r.servers.is_empty() {
        ctx.actions.push(format!(
            "There is no {} yet: run `mcptrustchecker lock` and commit it to pin the reviewed catalogs, so later changes show up as drift.\n\n",
            code(lockfile)
        ));
    }
    ctx
}

/// A path as one shell word (single-quoted unless plainly safe).
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
    {
        s.to_string()
    } else {
        format!(
            "'{}'",
            crate::text::visible(s)
                .replace('\'', "'\\''")
                .replace('`', "'")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_are_inert() {
        assert_eq!(code("a`b @x [l](http://e)"), "`a'b @x [l](http://e)`");
        assert_eq!(code("x\u{E0041}\ny"), "`x<U+E0041>\\ny`");
        assert_eq!(shell_word("mcptrustchecker.lock"), "mcptrustchecker.lock");
        assert_eq!(shell_word("a b'c"), "'a b'\\''c'");
    }
}
