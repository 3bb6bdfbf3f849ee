//! The sticky pull-request comment: one per PR, found again by a hidden marker
//! and by its author, updated in place, never duplicated. Writing it is best
//! effort: the caller turns any error into a warning.

use super::github::Api;

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

/// The comment body: marker first (once), capped below GitHub's limit.
pub fn body(markdown: &str) -> String {
    let rest = markdown.replacen(MARKER, "", 1);
    let full = format!("{MARKER}\n{}", rest.trim_start_matches('\n'));
    cap(&full, MAX_CHARS)
}

/// Cut at a line boundary, close what the cut left open, and say so.
pub fn cap(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    const NOTE: &str = "\n\n_The report was truncated to fit in a comment; the full report is in the job summary and the SARIF file._\n";
    let budget = max.saturating_sub(NOTE.len() + 200);
    let mut kept = String::new();
    for line in text.split_inclusive('\n') {
        if kept.chars().count() + line.chars().count() > budget {
            break;
        }
        kept.push_str(line);
    }
    if kept.lines().filter(|l| l.trim_start().starts_with("```")).count() % 2 == 1 {
        kept.push_str("\n```\n");
    }
    let open = kept.matches("<details>").count().saturating_sub(kept.matches("</details>").count());
    for _ in 0..open {
        kept.push_str("\n</details>\n");
    }
    kept.push_str(NOTE);
    kept
}

/// Ours: written by the token's identity and carrying the marker. Anyone can
/// post a comment containing the marker; we never adopt theirs.
fn is_ours(login: &str, author: &str, body: &str) -> bool {
    author == login && body.contains(MARKER)
}

/// Update our earlier comment (the oldest, if a past race left several), or
/// create one when `create` allows it.
pub async fn upsert(api: &Api, number: u64, body: &str, create: bool) -> Result<Outcome, String> {
    let login = api.login().await;
    let comments = api.comments(number).await?;
    match comments.iter().filter(|(_, a, b)| is_ours(&login, a, b)).min_by_key(|(id, _, _)| *id) {
        Some((id, _, _)) => api.update_comment(*id, body).await.map(|_| Outcome::Updated(*id)),
        None if create => api.create_comment(number, body).await.map(Outcome::Created),
        None => Ok(Outcome::NotNeeded),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_once_and_first() {
        let b = body(&format!("{MARKER}\n# Report\n"));
        assert!(b.starts_with(MARKER));
        assert_eq!(b.matches(MARKER).count(), 1);
        assert!(body("plain").starts_with(MARKER));
    }

    #[test]
    fn ownership_needs_author_and_marker() {
        assert!(is_ours("github-actions[bot]", "github-actions[bot]", &format!("x {MARKER}")));
        assert!(!is_ours("github-actions[bot]", "mallory", MARKER));
        assert!(!is_ours("github-actions[bot]", "github-actions[bot]", "no marker"));
    }

    #[test]
    fn cap_closes_details_and_fences() {
        let mut s = String::from("<details>\n```\n");
        for i in 0..20_000 {
            s.push_str(&format!("line {i}\n"));
        }
        let c = cap(&s, 5_000);
        assert!(c.chars().count() <= 5_000);
        assert_eq!(c.matches("<details>").count(), c.matches("</details>").count());
        assert_eq!(c.lines().filter(|l| l.starts_with("```")).count() % 2, 0);
        assert!(c.contains("truncated"));
        assert_eq!(cap("short", 10), "short");
    }
}
