//! The GitHub calls the gate makes, through `octocrab`: list a pull request's
//! files and read the base commit's policy (when the clone is too shallow),
//! learn who the token is, and find, create or update our comment. The base URI comes from `GITHUB_API_URL`, so GitHub Enterprise
//! Server works; every call is bounded by a timeout.

use octocrab::service::middleware::retry::RetryConfig;
use octocrab::{Octocrab, Page};
use serde_json::Value;
use std::time::Duration;

/// At most this many pages of any listing (GitHub caps a PR at 3000 files).
const MAX_PAGES: usize = 100;

/// A client for one repository.
pub struct Api {
    crab: Octocrab,
    /// Kept to reach the GraphQL endpoint, which lives outside the REST base path on GHES.
    token: String,
    pub owner: String,
    pub repo: String,
}

/// A client at `base` with our timeouts and no retries (a retried POST could
/// post the comment twice).
fn client(base: &str, token: &str) -> Result<Octocrab, String> {
    Octocrab::builder()
        .base_uri(base)
        .map_err(|e| {
            format!(
                "GitHub API URL `{}` is not a URL: {e}",
                crate::text::visible(base)
            )
        })?
        .personal_token(token.to_string())
        .add_retry_config(RetryConfig::None)
        .set_connect_timeout(Some(Duration::from_secs(10)))
        .set_read_timeout(Some(Duration::from_secs(20)))
        .set_write_timeout(Some(Duration::from_secs(20)))
        .build()
        .map_err(|e| format!("cannot build the GitHub client: {e}"))
}

impl Api {
    /// `repository` is `owner/name`; `base` the API root (default `https://api.github.com`).
    pub fn new(base: &str, token: &str, repository: &str) -> Result<Api, String> {
        crate::acquire::registry::install_crypto_provider();
        let (owner, repo) = repository
            .split_once('/')
            .filter(|(o, r)| !o.is_empty() && !r.is_empty() && !r.contains('/'))
            .ok_or_else(|| format!("`{}` is not owner/name", crate::text::visible(repository)))?;
        let crab = client(base.trim_end_matches('/'), token)?;
        Ok(Api {
            crab,
            token: token.to_string(),
            owner: owner.to_string(),
            repo: repo.to_string(),
        })
    }

    /// Follow `Link: rel="next"` from a first page, up to [`MAX_PAGES`].
    async fn all<T: serde::de::DeserializeOwned>(&self, first: Page<T>) -> Result<Vec<T>, String> {
        let mut items = Vec::new();
        let mut page = first;
        for _ in 0..MAX_PAGES {
            items.append(&mut page.items);
            match self
                .crab
                .get_page::<T>(&page.next)
                .await
                .map_err(describe)?
            {
                Some(next) => page = next,
                None => return Ok(items),
            }
        }
        Err(format!("more than {MAX_PAGES} pages: listing stopped"))
    }

    /// Every file a pull request touches (`GET /repos/{o}/{r}/pulls/{n}/files`, paginated).
    pub async fn pr_files(&self, number: u64) -> Result<Vec<String>, String> {
        let route = format!("/repos/{}/{}/pulls/{number}/files", self.owner, self.repo);
        let first: Page<Value> = self
            .crab
            .get(route, Some(&[("per_page", "100")]))
            .await
            .map_err(describe)?;
        let mut names: Vec<String> = self
            .all(first)
            .await?
            .iter()
            .filter_map(|f| {
                f.get("filename")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Who the token acts as: `GET /user` for a personal token, else the
    /// GraphQL `viewer` (which answers for GitHub App installation tokens, the
    /// Actions token included: `github-actions[bot]`, `<app>[bot]`), else the
    /// Actions convention: the workflow token posts as `github-actions[bot]`.
    pub async fn identity(&self, graphql_url: &str) -> Identity {
        if let Ok(u) = self.crab.current().user().await {
            return Identity::Login(u.login);
        }
        if let Some(login) = self.viewer(graphql_url).await {
            return Identity::Login(login);
        }
        Identity::Convention(ACTIONS_BOT.to_string())
    }

    /// `query { viewer { login } }` at the GraphQL endpoint (its own origin and path).
    async fn viewer(&self, graphql_url: &str) -> Option<String> {
        let u = url::Url::parse(graphql_url).ok()?;
        let origin = u.origin().ascii_serialization();
        let gql = client(&origin, &self.token).ok()?;
        let query = serde_json::json!({"query": "query { viewer { login } }"});
        let viewer: Result<Value, _> = gql.post(u.path(), Some(&query)).await;
        viewer.ok().and_then(|v| {
            v.pointer("/data/viewer/login")
                .and_then(Value::as_str)
                .map(str::to_string)
                .filter(|l| !l.is_empty())
        })
    }

    /// Every comment on an issue or pull request.
    pub async fn comments(&self, number: u64) -> Result<Vec<IssueComment>, String> {
        let route = format!(
            "/repos/{}/{}/issues/{number}/comments",
            self.owner, self.repo
        );
        let first: Page<Value> = self
            .crab
            .get(route, Some(&[("per_page", "100")]))
            .await
            .map_err(describe)?;
        Ok(self
            .all(first)
            .await?
            .iter()
            .filter_map(|c| {
                let s = |p: &str| c.pointer(p).and_then(Value::as_str).map(str::to_string);
                Some(IssueComment {
                    id: c.get("id")?.as_u64()?,
                    author: s("/user/login")?,
                    bot: s("/user/type").as_deref() == Some("Bot"),
                    app: s("/performed_via_github_app/slug"),
                    body: s("/body").unwrap_or_default(),
                })
            })
            .collect())
    }

    /// A file's content at a commit (`GET /repos/{o}/{r}/contents/{path}?ref=`):
    /// `Ok(None)` when the file does not exist there.
    pub async fn file_at(&self, path: &str, rev: &str) -> Result<Option<String>, String> {
        let enc: String = path
            .split('/')
            .map(|seg| {
                seg.bytes()
                    .map(|b| {
                        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                            (b as char).to_string()
                        } else {
                            format!("%{b:02X}")
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/");
        let route = format!("/repos/{}/{}/contents/{enc}", self.owner, self.repo);
        let got: Result<Value, _> = self.crab.get(route, Some(&[("ref", rev)])).await;
        let v = match got {
            Ok(v) => v,
            Err(octocrab::Error::GitHub { source, .. }) if source.status_code.as_u16() == 404 => {
                return Ok(None);
            }
            Err(e) => return Err(describe(e)),
        };
        if v.get("type").and_then(Value::as_str) != Some("file") {
            return Err("the contents API did not return a file".into());
        }
        let content = v.get("content").and_then(Value::as_str).unwrap_or("");
        let bytes = base64_decode(content).ok_or("the contents API returned invalid base64")?;
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| "the file is not UTF-8".to_string())
    }

    pub async fn create_comment(&self, number: u64, body: &str) -> Result<u64, String> {
        let c = self
            .crab
            .issues(&self.owner, &self.repo)
            .create_comment(number, body)
            .await
            .map_err(describe)?;
        Ok(c.id.into_inner())
    }

    pub async fn update_comment(&self, id: u64, body: &str) -> Result<(), String> {
        self.crab
            .issues(&self.owner, &self.repo)
            .update_comment(octocrab::models::CommentId(id), body)
            .await
            .map_err(describe)?;
        Ok(())
    }
}

/// The login the Actions workflow token comments as.
pub const ACTIONS_BOT: &str = "github-actions[bot]";

/// Who we post as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// Read from the API (`/user`, or the GraphQL `viewer`).
    Login(String),
    /// Not readable: the Actions token's convention.
    Convention(String),
}

impl Identity {
    pub fn login(&self) -> &str {
        match self {
            Identity::Login(l) | Identity::Convention(l) => l,
        }
    }
}

/// The parts of a comment the sticky logic reads.
#[derive(Debug, Clone)]
pub struct IssueComment {
    pub id: u64,
    pub author: String,
    pub bot: bool,
    /// `performed_via_github_app.slug`: the app that posted it, when one did.
    pub app: Option<String>,
    pub body: String,
}

/// Standard base64 (the contents API wraps lines with `\n`).
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let clean: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let body = clean
        .strip_suffix(b"==")
        .or_else(|| clean.strip_suffix(b"="))
        .unwrap_or(&clean);
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    for chunk in body.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        match chunk.len() {
            4 => out.extend_from_slice(&bytes[1..4]),
            3 => out.extend_from_slice(&bytes[1..3]),
            2 => out.push(bytes[1]),
            _ => return None,
        }
    }
    Some(out)
}

/// One line for an API error: the status and GitHub's message when there is one.
pub fn describe(e: octocrab::Error) -> String {
    match e {
        octocrab::Error::GitHub { source, .. } => format!(
            "GitHub answered {}: {}",
            source.status_code,
            crate::text::visible(&source.message)
        ),
        other => {
            let s = other.to_string();
            crate::text::visible(&crate::text::truncate_chars(&s, 300))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_the_contents_api_sends_it() {
        assert_eq!(base64_decode("aGVs\nbG8=").as_deref(), Some(&b"hello"[..]));
        assert_eq!(base64_decode("aGk=").as_deref(), Some(&b"hi"[..]));
        assert_eq!(base64_decode("").as_deref(), Some(&b""[..]));
        assert!(base64_decode("a").is_none());
        assert!(base64_decode("a$==").is_none());
    }
}
