//! What the Streamable HTTP and the legacy SSE transports share: the HTTP
//! side of a session, the byte budget every body is charged to, and errors
//! made printable. A leaf, so neither transport depends on the other's file.

use super::session::Incoming;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::mpsc;

/// Bytes left to read from one server, shared by all its response bodies.
#[derive(Clone)]
pub(crate) struct Budget {
    pub used: Arc<AtomicU64>,
    pub max: u64,
}

/// Next chunk of a body, charged to the budget. `Err` carries what to report.
pub(crate) async fn read_chunk(
    resp: &mut reqwest::Response,
    budget: &Budget,
) -> Result<Option<Vec<u8>>, Incoming> {
    match resp.chunk().await {
        Ok(Some(c)) => {
            let used = budget.used.fetch_add(c.len() as u64, Ordering::Relaxed) + c.len() as u64;
            if used > budget.max {
                Err(Incoming::Bound(format!(
                    "the server sent more than {} bytes (max metadata bytes)",
                    budget.max
                )))
            } else {
                Ok(Some(c.to_vec()))
            }
        }
        Ok(None) => Ok(None),
        Err(e) => Err(Incoming::Failed(format!(
            "reading a response: {}",
            describe(&e)
        ))),
    }
}

/// An error with its causes, safe to print.
pub(crate) fn describe(e: &reqwest::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(&format!(": {s}"));
        src = s.source();
    }
    crate::text::truncate_chars(&crate::text::visible(&msg), 300)
}

/// The HTTP side of one session.
pub(crate) struct Http {
    pub client: reqwest::Client,
    pub headers: HeaderMap,
    pub in_tx: mpsc::Sender<Incoming>,
    pub budget: Budget,
    pub request_timeout: std::time::Duration,
}

impl Http {
    /// A request that got no usable answer: answer it ourselves with a
    /// JSON-RPC error, so the session moves on instead of waiting.
    pub async fn fail_request(&self, v: &Value, why: &str) {
        if let (Some(id), Some(_)) = (v.get("id"), v.get("method")) {
            let _ = self
                .in_tx
                .send(Incoming::Frame(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": why}}),
                ))
                .await;
        }
    }
}
