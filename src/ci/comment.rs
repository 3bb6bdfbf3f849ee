//! The sticky pull-request comment: one per PR, found again by a hidden marker
//! and by its author, updated in place, never duplicated. Writing it is best
//! effort: the caller turns any error into a warning.

use super::github::{Api, Identity, IssueComment};

/// Starts every comment we write; the Markdown report carries the same marker.
pub const MARKER: &str = "<!-- mcptrustchecker:report -->";

/// GitHub refuses comments over 65,536 characters; keep a margin.
pub const MAX_CHARS: usize = 65_000;

/// What happened to the comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Created(u64),
    Updated(u64),
    /// Nothing to say and no earlier comment to refresh.
    NotNeeded,
}

/// The hidden marker of this job's comment: the default one, or with the
/// `comment-header` input, one per header (so two jobs keep two comments).
/// The header is reduced to `[A-Za-z0-9._-]`, so it cannot end the HTML comment.
pub fn marker(header: Option<&str>) -> String {
    let slug: String = header
        .unwrap_or("")
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    // One dash per run, so the comment holds no `--` at all.
    let mut slug = slug;
    while slug.contains("--") {
        slug = slug.replace("--", "-");
    }
    let slug = slug.trim_matches('-');
    if slug.is_empty() {
        MARKER.to_string()
    } else {
        format!("<!-- mcptrustchecker:report:{slug} -->")
    }
}

/// The comment body: `marker` first (once, in place of the report's own),
/// capped below GitHub's limit.
pub fn body(markdown: &str, marker: &str) -> String {
    let rest = markdown.replacen(MARKER, "", 1);
    let full = format!("{marker}\n{}", rest.trim_start_matches('\n'));
    cap(&full, MAX_CHARS)
}

/// Cut at a line boundary, close what the cut left open, and say so.
pub fn cap(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    const NOTE: &str = "\n\n_The report was truncated to fit in a comment; the full report is in the job summary and the SARIF file._\n";
    let budget = max.saturating_sub(NOTE.len() + 200);
    let (mut kept, mut count) = (String::new(), 0);
    for line in text.split_inclusive('\n') {
        let n = line.chars().count();
        if count + n > budget {
            break;
        }
        kept.push_str(line);
        count += n;
    }
    if kept
        .lines()
        .filter(|l| l.trim_start().starts_with("```"))
        .count()
        % 2
        == 1
    {
        kept.push_str("\n```\n");
    }
    let open = kept
        .matches("<details>")
        .count()
        .saturating_sub(kept.matches("</details>").count());
    for _ in 0..open {
        kept.push_str("\n</details>\n");
    }
    kept.push_str(NOTE);
    kept
}

/// Ours: written by the token's own identity and carrying the marker. Anyone
/// can post a comment containing the marker, and another bot can too: only the
/// exact login counts, and a bot login must match the app that posted it
/// (`performed_via_github_app`), so another app's comment is never adopted.
fn is_ours(who: &Identity, c: &IssueComment, marker: &str) -> bool {
    let login = who.login();
    if c.author != login || !c.body.contains(marker) {
        return false;
    }
    match (login.strip_suffix("[bot]"), &c.app) {
        (Some(slug), Some(app)) => c.bot && app == slug,
        (Some(_), None) => c.bot,
        (None, _) => !c.bot,
    }
}

/// Update our earlier comment (the oldest, if a past race left several), or
/// create one when `create` allows it. Someone else's comment is never
/// edited: without one of ours, a new comment is posted.
pub async fn upsert(
    api: &Api,
    number: u64,
    body: &str,
    create: bool,
    graphql_url: &str,
) -> Result<Outcome, String> {
    let marker = body.lines().next().unwrap_or(MARKER);
    let who = api.identity(graphql_url).await;
    let comments = api.comments(number).await?;
    match comments
        .iter()
        .filter(|c| is_ours(&who, c, marker))
        .min_by_key(|c| c.id)
    {
        Some(c) => api
            .update_comment(c.id, body)
            .await
            .map(|_| Outcome::Updated(c.id)),
        None if create => api.create_comment(number, body).await.map(Outcome::Created),
        None => Ok(Outcome::NotNeeded),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_ours_default(who: &Identity, c: &IssueComment) -> bool {
        is_ours(who, c, MARKER)
    }

    #[test]
    fn marker_once_and_first() {
        let b = body(&format!("{MARKER}\n# Report\n"), MARKER);
        assert!(b.starts_with(MARKER));
        assert_eq!(b.matches(MARKER).count(), 1);
        assert!(body("plain", MARKER).starts_with(MARKER));
        let m = marker(Some("docs --> <b>x</b> job"));
        assert_eq!(m, "<!-- mcptrustchecker:report:docs-b-x-b-job -->");
        assert_eq!(marker(Some("  ")), MARKER);
        let b = body(&format!("{MARKER}\n# Report\n"), &m);
        assert!(b.starts_with(&m) && !b.contains(MARKER), "{b}");
    }

    #[test]
    fn ownership_needs_author_and_marker() {
        let c = |author: &str, bot: bool, app: Option<&str>, body: &str| IssueComment {
            id: 1,
            author: author.into(),
            bot,
            app: app.map(str::to_string),
            body: body.into(),
        };
        let me = Identity::Login("ci-user".into());
        assert!(is_ours_default(
            &me,
            &c("ci-user", false, None, &format!("x {MARKER}"))
        ));
        assert!(!is_ours_default(&me, &c("mallory", false, None, MARKER)));
        assert!(!is_ours_default(
            &me,
            &c("ci-user", false, None, "no marker")
        ));
        let actions = Identity::Convention("github-actions[bot]".into());
        assert!(is_ours_default(
            &actions,
            &c("github-actions[bot]", true, Some("github-actions"), MARKER)
        ));
        assert!(
            !is_ours_default(
                &actions,
                &c("other-app[bot]", true, Some("other-app"), MARKER)
            ),
            "another bot's comment is not ours"
        );
        assert!(
            !is_ours_default(
                &actions,
                &c("github-actions[bot]", true, Some("impostor"), MARKER)
            ),
            "the posting app must match the login"
        );
        assert!(
            !is_ours_default(&actions, &c("mallory", false, None, MARKER)),
            "a person's planted marker is not ours"
        );
        let app = Identity::Login("mtc-app[bot]".into());
        assert!(is_ours_default(
            &app,
            &c("mtc-app[bot]", true, Some("mtc-app"), MARKER)
        ));
        assert!(!is_ours_default(
            &app,
            &c("github-actions[bot]", true, Some("github-actions"), MARKER)
        ));
    }

    #[test]
    fn cap_closes_details_and_fences() {
        let mut s = String::from("<details>\n```\n");
        for i in 0..20_000 {
            s.push_str(&format!("line {i}\n"));
        }
        let c = cap(&s, 5_000);
        assert!(c.chars().count() <= 5_000);
        assert_eq!(
            c.matches("<details>").count(),
            c.matches("</details>").count()
        );
        assert_eq!(c.lines().filter(|l| l.starts_with("```")).count() % 2, 0);
        assert!(c.contains("truncated"));
        assert_eq!(cap("short", 10), "short");
    }

    #[test]
    fn each_header_finds_only_its_own_comment() {
        let me = Identity::Login("ci-user".into());
        let c = |body: String| IssueComment {
            id: 1,
            author: "ci-user".into(),
            bot: false,
            app: None,
            body,
        };
        let (a, b) = (marker(Some("prod")), marker(Some("staging")));
        assert!(is_ours(&me, &c(format!("{a}\nx")), &a));
        assert!(!is_ours(&me, &c(format!("{a}\nx")), &b));
        assert!(!is_ours(&me, &c(format!("{a}\nx")), MARKER));
        assert!(!is_ours(&me, &c(format!("{MARKER}\nx")), &a));
    }
}
