//! Server-sent events: the parser both HTTP transports share, and the legacy
//! HTTP+SSE transport (spec 2024-11-05), which rmcp no longer ships.

use super::session::Incoming;
use super::wire::{Budget, Http, describe, read_chunk};
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use url::Url;

/// Incremental SSE parser: bytes in, `(event, data)` pairs out.
#[derive(Default)]
pub(crate) struct SseParser {
    buf: Vec<u8>,
    event: String,
    data: String,
}

impl SseParser {
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<(String, String)> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(i) = self.buf[start..].iter().position(|&b| b == b'\n') {
            let mut line = &self.buf[start..start + i];
            start += i + 1;
            if line.last() == Some(&b'\r') {
                line = &line[..line.len() - 1];
            }
            let line = String::from_utf8_lossy(line);
            if line.is_empty() {
                if !self.data.is_empty() || !self.event.is_empty() {
                    let event = std::mem::take(&mut self.event);
                    out.push((
                        if event.is_empty() {
                            "message".to_string()
                        } else {
                            event
                        },
                        std::mem::take(&mut self.data),
                    ));
                }
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line.as_ref(), ""),
            };
            match field {
                "event" => self.event = value.to_string(),
                "data" => {
                    if !self.data.is_empty() {
                        self.data.push('\n');
                    }
                    self.data.push_str(value);
                }
                _ => {}
            }
        }
        self.buf.drain(..start);
        out
    }
}

/// Forward the JSON-RPC frames in one SSE `data` payload.
pub(crate) async fn forward_data(data: &str, tx: &mpsc::Sender<Incoming>) -> bool {
    let frames = super::stdio::parse_line(data.as_bytes());
    for f in frames {
        if tx.send(Incoming::Frame(f)).await.is_err() {
            return false;
        }
    }
    true
}

/// Read an SSE response body to its end, forwarding `message` events (and,
/// for the legacy transport, handing the first `endpoint` event over).
pub(crate) async fn pump(
    mut resp: reqwest::Response,
    tx: mpsc::Sender<Incoming>,
    budget: Budget,
    mut endpoint: Option<oneshot::Sender<String>>,
) {
    let mut parser = SseParser::default();
    loop {
        let chunk = match read_chunk(&mut resp, &budget).await {
            Ok(Some(c)) => c,
            Ok(None) => return,
            Err(inc) => {
                let _ = tx.send(inc).await;
                return;
            }
        };
        for (event, data) in parser.feed(&chunk) {
            if event == "endpoint" {
                if let Some(ep) = endpoint.take() {
                    let _ = ep.send(data);
                }
                continue;
            }
            if event == "message" && !forward_data(&data, &tx).await {
                return;
            }
        }
    }
}

/// A connected legacy session: messages are POSTed to the endpoint the
/// server announced; answers arrive on the GET stream.
pub(crate) struct Legacy {
    endpoint: Url,
}

impl Legacy {
    /// GET the SSE stream and wait for the `endpoint` event (same origin only:
    /// a cross-origin endpoint would carry our POSTs and headers elsewhere).
    pub async fn connect(
        http: &Http,
        url: &Url,
        tasks: &mut tokio::task::JoinSet<()>,
    ) -> Result<Legacy, String> {
        let send = http
            .client
            .get(url.clone())
            .headers(http.headers.clone())
            .header(ACCEPT, "text/event-stream")
            .send();
        let resp = tokio::time::timeout(http.request_timeout, send)
            .await
            .map_err(|_| "legacy SSE: no response to GET".to_string())?
            .map_err(|e| format!("legacy SSE: {}", describe(&e)))?;
        if !resp.status().is_success() {
            return Err(format!(
                "legacy SSE: GET returned HTTP {}",
                resp.status().as_u16()
            ));
        }
        let ct = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        if !ct.starts_with("text/event-stream") {
            return Err(format!(
                "legacy SSE: GET returned `{}`, not an event stream",
                crate::text::visible(&ct)
            ));
        }
        let (ep_tx, ep_rx) = oneshot::channel();
        tasks.spawn(pump(
            resp,
            http.in_tx.clone(),
            http.budget.clone(),
            Some(ep_tx),
        ));
        let data = tokio::time::timeout(http.request_timeout, ep_rx)
            .await
            .map_err(|_| "legacy SSE: no `endpoint` event".to_string())?
            .map_err(|_| "legacy SSE: the stream ended before an `endpoint` event".to_string())?;
        let endpoint = url
            .join(data.trim())
            .map_err(|_| "legacy SSE: the `endpoint` event is not a URL".to_string())?;
        if endpoint.origin() != url.origin() {
            return Err(format!(
                "legacy SSE: the server's endpoint `{}` is on another origin; refused",
                crate::text::visible(endpoint.as_str())
            ));
        }
        Ok(Legacy { endpoint })
    }

    pub async fn post(&self, http: &Http, v: &Value) {
        let req = http
            .client
            .post(self.endpoint.clone())
            .headers(http.headers.clone())
            .json(v)
            .send();
        let ok = matches!(tokio::time::timeout(http.request_timeout, req).await, Ok(Ok(r)) if r.status().is_success());
        if !ok {
            http.fail_request(v, "legacy SSE: the POST was not accepted")
                .await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_across_chunks() {
        let mut p = SseParser::default();
        assert!(p.feed(b"event: endpoint\r\ndata: /messages?s=1").is_empty());
        assert_eq!(
            p.feed(b"\r\n\r\n: comment\n"),
            vec![("endpoint".to_string(), "/messages?s=1".to_string())]
        );
        assert_eq!(
            p.feed(b"data: {\"a\":\ndata: 1}\n\n"),
            vec![("message".to_string(), "{\"a\":\n1}".to_string())]
        );
    }
}
