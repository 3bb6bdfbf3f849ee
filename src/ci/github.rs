//! The three GitHub REST calls the gate makes, through `octocrab`: list a pull
//! request's files (when the clone is too shallow), and find, create or update
//! our comment. The base URI comes from `GITHUB_API_URL`, so GitHub Enterprise
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
    pub owner: String,
    pub repo: String,
}

impl Api {
    /// `repository` is `owner/name`; `base` the API root (default `https://api.github.com`).
    pub fn new(base: &str, token: &str, repository: &str) -> Result<Api, String> {
        crate::acquire::registry::install_crypto_provider();
        let (owner, repo) = repository
            .split_once('/')
            .filter(|(o, r)| !o.is_empty() && !r.is_empty() && !r.contains('/'))
            .ok_or_else(|| format!("`{}` is not owner/name", crate::text::visible(repository)))?;
        let base = base.trim_end_matches('/');
        let crab = Octocrab::builder()
            .base_uri(base)
            .map_err(|e| {
                format!(
                    "GITHUB_API_URL `{}` is not a URL: {e}",
                    crate::text::visible(base)
                )
            })?
            .personal_token(token.to_string())
            // A retried POST could post the comment twice: never retry.
            .add_retry_config(RetryConfig::None)
            .set_connect_timeout(Some(Duration::from_secs(10)))
            .set_read_timeout(Some(Duration::from_secs(20)))
            .set_write_timeout(Some(Duration::from_secs(20)))
            .build()
            .map_err(|e| format!("cannot build the GitHub client: {e}"))?;
        Ok(Api {
            crab,
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

    /// Who the token acts as. A personal token can read `/user`; an Actions or
    /// App installation token cannot, and then comments by any bot account
    /// count (a person cannot post as a bot).
    pub async fn identity(&self) -> Identity {
        match self.crab.current().user().await {
            Ok(u) => Identity::Login(u.login),
            Err(_) => Identity::AnyBot,
        }
    }

    /// Every comment on an issue or pull request.
    pub async fn comments(&self, number: u64) -> Result<Vec<IssueComment>, String> {
        let first = self
            .crab
            .issues(&self.owner, &self.repo)
            .list_comments(number)
            .per_page(100)
            .send()
            .await
            .map_err(describe)?;
        Ok(self
            .all(first)
            .await?
            .into_iter()
            .map(|c| IssueComment {
                id: c.id.into_inner(),
                bot: c.user.r#type == "Bot",
                author: c.user.login,
                body: c.body.unwrap_or_default(),
            })
            .collect())
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

/// Who we post as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    Login(String),
    AnyBot,
}

/// The parts of a comment the sticky logic reads.
#[derive(Debug, Clone)]
pub struct IssueComment {
    pub id: u64,
    pub author: String,
    pub bot: bool,
    pub body: String,
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
