//! The CI part of the comment and job summary, appended to the shared Markdown
//! report: what was scanned and how the changed files were found, which
//! servers fail the gate for missing review, and the exact command that
//! approves a change. Scanned text only ever appears inside code spans, made
//! visible and stripped of backticks, so it cannot become a mention, link,
//! image, HTML or Markdown structure.

use super::gate::Gate;
use crate::detect::ScanResult;
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

/// The CI section appended to the report.
pub fn section(
    r: &ScanResult,
    g: &Gate,
    scope: &Scope,
    lockfile: &str,
    change: Option<&crate::policy::diff::PolicyChange>,
) -> String {
    let mut out = String::new();
    if let Some(c) = change {
        policy_change(&mut out, c);
    }
    let _ = writeln!(out, "\n### Lockfile review\n");
    if !scope.how.is_empty() {
        let _ = writeln!(out, "_Scope: {}._\n", scope.how);
    }
    for n in &scope.notes {
        let _ = writeln!(
            out,
            "> [!NOTE]\n> {}\n",
            crate::report::markdown::escape_inline(n)
        );
    }
    if !g.drifted.is_empty() {
        let ids: Vec<String> = g.drifted.iter().map(|id| code(id)).collect();
        let _ = writeln!(
            out,
            "**Unreviewed drift** in {}: the surface no longer matches {} and this change does not update it (the changes are listed above).\n",
            ids.join(", "),
            code(lockfile)
        );
    }
    id_list(
        &mut out,
        &g.unpinned,
        "**Not in the lockfile** — the catalog of these servers was never reviewed:",
    );
    if scope.lockfile_present {
        id_list(
            &mut out,
            &g.uninspected,
            "**Catalog not inspected** — only the launch configuration of these servers is known, so they cannot be pinned from files; commit a descriptor (`server.json`, a tool manifest) for them or lock them live:",
        );
    }
    if !r.lockfile_changes.is_empty() {
        let _ = writeln!(
            out,
            "**Reviewed change**: this change updates {} for {} server(s) (the semantic diff is listed above).\n",
            code(lockfile),
            r.lockfile_changes.len()
        );
    }
    if g.drift() {
        let _ = writeln!(
            out,
            "**To approve** the change after reviewing it, update the lockfile and commit it:\n\n```sh\nmcptrustchecker lock\ngit add {lockfile}\ngit commit -m \"Approve MCP server changes\"\n```\n",
            lockfile = shell_word(lockfile)
        );
    } else if !scope.lockfile_present && !r.servers.is_empty() {
        let _ = writeln!(
            out,
            "There is no {} yet: run `mcptrustchecker lock` and commit it to pin the reviewed catalogs, so later changes show up as drift.",
            code(lockfile)
        );
    } else if r.lockfile_changes.is_empty() && !r.servers.is_empty() {
        let _ = writeln!(
            out,
            "No drift: every scanned surface matches {}.",
            code(lockfile)
        );
    }
    out
}

/// A headed list of server ids (nothing when empty).
fn id_list(out: &mut String, ids: &[String], heading: &str) {
    if ids.is_empty() {
        return;
    }
    let _ = writeln!(out, "{heading}\n");
    for id in ids {
        let _ = writeln!(out, "- {}", code(id));
    }
    out.push('\n');
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
