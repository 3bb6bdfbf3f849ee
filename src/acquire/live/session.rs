//! One MCP session over a raw frame link: rmcp runs the lifecycle, we keep
//! every frame verbatim and read the catalog from those frames.

use super::{Catalog, LiveOptions, LiveReport, Outcome};
use rmcp::ServiceExt;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientJsonRpcMessage, ClientRequest, Implementation,
    ListPromptsRequest, ListResourceTemplatesRequest, ListResourcesRequest, ListToolsRequest,
    PaginatedRequestParams, PingRequest, ProtocolVersion, ServerJsonRpcMessage,
};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// What a transport hands up: frames, then possibly why it stopped.
#[derive(Debug)]
pub(crate) enum Incoming {
    Frame(Value),
    /// A bound stopped reading (e.g. the byte budget).
    Bound(String),
    /// The connection failed (HTTP status, refused connection, …).
    Failed(String),
}

/// A transport as two channels of raw JSON frames.
pub(crate) struct RawLink {
    pub rx: mpsc::Receiver<Incoming>,
    pub tx: mpsc::Sender<Value>,
}

/// Everything seen on the wire, for correlation and for the report.
#[derive(Default)]
pub(crate) struct Capture {
    /// Outgoing requests: (method, id).
    out: Vec<(String, Value)>,
    /// Responses by id (serialized), verbatim.
    responses: HashMap<String, Value>,
    pub server_requests: Vec<Value>,
    pub tools_changed: usize,
    pub bound: Option<String>,
    pub failed: Option<String>,
    pub junk: usize,
}

type Shared = Arc<Mutex<Capture>>;

fn lock(c: &Shared) -> std::sync::MutexGuard<'_, Capture> {
    c.lock().unwrap_or_else(|p| p.into_inner())
}

impl Capture {
    fn method_of(&self, id: &Value) -> Option<&str> {
        self.out
            .iter()
            .rev()
            .find(|(_, i)| i == id)
            .map(|(m, _)| m.as_str())
    }

    /// Record an incoming frame; return what rmcp should see (a lean copy:
    /// list results are read from the raw frame, so rmcp gets an empty result).
    fn record_in(&mut self, v: Value) -> Option<ServerJsonRpcMessage> {
        let method = v.get("method").and_then(Value::as_str).map(str::to_string);
        let id = v.get("id").cloned();
        let typed = match (method, id) {
            (Some(m), Some(_)) => {
                self.server_requests.push(v.clone());
                let _ = m;
                v
            }
            (Some(m), None) => {
                if m == "notifications/tools/list_changed" {
                    self.tools_changed += 1;
                }
                v
            }
            (None, Some(id)) if v.get("result").is_some() || v.get("error").is_some() => {
                let lean = if self.method_of(&id) == Some("initialize") || v.get("error").is_some()
                {
                    v.clone()
                } else {
                    json!({"jsonrpc": "2.0", "id": id, "result": {}})
                };
                self.responses.insert(id.to_string(), v);
                return serde_json::from_value(lean)
                    .ok()
                    .or_else(|| serde_json::from_value(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "malformed response"}})).ok());
            }
            _ => {
                self.junk += 1;
                return None;
            }
        };
        serde_json::from_value(typed).ok()
    }

    fn record_out(&mut self, v: &Value) {
        if let (Some(m), Some(id)) = (v.get("method").and_then(Value::as_str), v.get("id")) {
            self.out.push((m.to_string(), id.clone()));
        }
    }

    /// The raw response to the latest request of `method`.
    fn take_response(&mut self, method: &str) -> Option<Value> {
        let id = self.out.iter().rev().find(|(m, _)| m == method)?.1.clone();
        self.responses.remove(&id.to_string())
    }
}

/// The identity and capabilities the scanner announces: sampling and
/// elicitation are declared (servers show more when they are) and refused.
fn client_config() -> ClientConfig {
    let caps: ClientCapabilities = serde_json::from_value(
        json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": false}}),
    )
    .unwrap_or_default();
    ClientConfig::new(caps, Implementation::new("mcptrustchecker", crate::VERSION))
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

/// Await `fut` under the per-request timeout and the server's deadline.
async fn bounded<F: Future>(
    fut: F,
    opts: &LiveOptions,
    deadline: Instant,
) -> Result<F::Output, String> {
    within(
        fut,
        opts.request_timeout,
        "no response within the per-request timeout",
        opts,
        deadline,
    )
    .await
}

/// Await `fut` for at most `limit`, or until the server's deadline if sooner.
async fn within<F: Future>(
    fut: F,
    limit: std::time::Duration,
    what: &str,
    opts: &LiveOptions,
    deadline: Instant,
) -> Result<F::Output, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    if limit <= left {
        tokio::time::timeout(limit, fut)
            .await
            .map_err(|_| format!("{what} ({} ms)", limit.as_millis()))
    } else {
        tokio::time::timeout(left, fut).await.map_err(|_| {
            format!(
                "the per-server wall-clock bound ({} ms) was reached",
                opts.server_timeout.as_millis()
            )
        })
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Tools,
    Prompts,
    Resources,
    Templates,
}

impl Kind {
    fn method(self) -> &'static str {
        match self {
            Kind::Tools => "tools/list",
            Kind::Prompts => "prompts/list",
            Kind::Resources => "resources/list",
            Kind::Templates => "resources/templates/list",
        }
    }
    fn key(self) -> &'static str {
        match self {
            Kind::Tools => "tools",
            Kind::Prompts => "prompts",
            Kind::Resources => "resources",
            Kind::Templates => "resourceTemplates",
        }
    }
    fn capability(self) -> &'static str {
        match self {
            Kind::Tools => "tools",
            Kind::Prompts => "prompts",
            Kind::Resources | Kind::Templates => "resources",
        }
    }
    fn request(self, cursor: Option<String>) -> ClientRequest {
        let p = PaginatedRequestParams::default().with_cursor(cursor);
        match self {
            Kind::Tools => ClientRequest::ListToolsRequest(ListToolsRequest::with_param(p)),
            Kind::Prompts => ClientRequest::ListPromptsRequest(ListPromptsRequest::with_param(p)),
            Kind::Resources => {
                ClientRequest::ListResourcesRequest(ListResourcesRequest::with_param(p))
            }
            Kind::Templates => ClientRequest::ListResourceTemplatesRequest(
                ListResourceTemplatesRequest::with_param(p),
            ),
        }
    }
}

/// Why a list loop stopped early.
enum Stop {
    /// A bound: stop the whole session, keep what was read.
    Bound(String),
    /// The connection is gone or broken.
    Failed(String),
    /// This list returned an error; the others go on.
    ListError(String),
}

/// Run the session: initialize, read every list (all pages, bounded), re-list
/// tools after `list_changed`, and close. Fills `report` as it goes.
pub(crate) async fn run(
    link: RawLink,
    opts: &LiveOptions,
    deadline: Instant,
    report: &mut LiveReport,
    line: &super::progress::Line,
) -> Catalog {
    let cap: Shared = Arc::new(Mutex::new(Capture::default()));
    let RawLink { rx, tx } = link;
    let stream_cap = cap.clone();
    let stream = Box::pin(futures::stream::unfold(
        (rx, stream_cap),
        |(mut rx, cap)| async move {
            loop {
                match rx.recv().await? {
                    Incoming::Frame(v) => {
                        let msg = lock(&cap).record_in(v);
                        if let Some(m) = msg {
                            return Some((m, (rx, cap)));
                        }
                    }
                    Incoming::Bound(why) => {
                        lock(&cap).bound.get_or_insert(why);
                        return None;
                    }
                    Incoming::Failed(why) => {
                        lock(&cap).failed.get_or_insert(why);
                        return None;
                    }
                }
            }
        },
    ));
    let sink_cap = cap.clone();
    let sink = Box::pin(futures::sink::unfold(
        (tx, sink_cap),
        |(tx, cap), msg: ClientJsonRpcMessage| async move {
            let v = serde_json::to_value(&msg).map_err(std::io::Error::other)?;
            lock(&cap).record_out(&v);
            tx.send(v).await.map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::BrokenPipe, "server connection closed")
            })?;
            Ok::<_, std::io::Error>((tx, cap))
        },
    ));

    let mut catalog = Catalog::default();
    // The start-up deadline: it includes whatever the launcher still downloads.
    let served = within(
        client_config().serve((sink, stream)),
        opts.startup_timeout,
        "no answer within the start-up deadline",
        opts,
        deadline,
    )
    .await;
    let running = match served {
        Ok(Ok(r)) => r,
        other => {
            let c = lock(&cap);
            report.outcome = match (&c.bound, &c.failed, other) {
                (Some(b), _, _) => Outcome::Bounded(b.clone()),
                (_, Some(f), _) => Outcome::Failed(f.clone()),
                (_, _, Err(t)) => Outcome::Bounded(format!("initialize: {t}")),
                (_, _, Ok(Err(e))) => Outcome::Failed(format!(
                    "initialize failed: {}",
                    crate::text::truncate_chars(&e.to_string(), 200)
                )),
                (_, _, Ok(Ok(_))) => Outcome::Failed("initialize failed".into()),
            };
            report.server_requests = c.server_requests.clone();
            return catalog;
        }
    };
    line.answered();
    catalog.init = lock(&cap)
        .take_response("initialize")
        .and_then(|v| v.get("result").cloned());
    let declared = |k: &str| {
        catalog
            .init
            .as_ref()
            .and_then(|i| i.get("capabilities"))
            .and_then(|c| c.get(k))
            .is_some()
    };
    let kinds: Vec<Kind> = [Kind::Tools, Kind::Prompts, Kind::Resources, Kind::Templates]
        .into_iter()
        .filter(|k| declared(k.capability()))
        .collect();
    let peer = running.peer().clone();
    let mut stop: Option<Stop> = None;
    for kind in kinds.iter().copied() {
        let mut items = Vec::new();
        let r = list(&peer, &cap, kind, opts, deadline, &mut items).await;
        match kind {
            Kind::Tools => catalog.tools = items,
            Kind::Prompts => catalog.prompts = items,
            Kind::Resources => catalog.resources = items,
            Kind::Templates => catalog.templates = items,
        }
        match r {
            Ok(()) => {}
            Err(Stop::ListError(e)) => report
                .notes
                .push(format!("{} returned an error: {e}", kind.method())),
            Err(s) => {
                stop = Some(s);
                break;
            }
        }
    }
    // A ping round trip flushes what the server sent before it (stdio is
    // ordered), so a `list_changed` sent right after a list is not missed.
    if stop.is_none() {
        let ping = peer.send_request(ClientRequest::PingRequest(PingRequest::default()));
        let _ = tokio::time::timeout(
            opts.request_timeout.min(std::time::Duration::from_secs(2)),
            ping,
        )
        .await;
    }
    // A server that announced a new tool list during the scan is listed again,
    // and both catalogs are kept when they differ.
    if stop.is_none()
        && lock(&cap).tools_changed > 0
        && kinds.iter().any(|k| matches!(k, Kind::Tools))
    {
        let mut again = Vec::new();
        match list(&peer, &cap, Kind::Tools, opts, deadline, &mut again).await {
            Ok(()) => {
                if again != catalog.tools {
                    report.tools_before_change = Some(std::mem::replace(&mut catalog.tools, again));
                }
            }
            Err(Stop::ListError(e)) => report.notes.push(format!(
                "tools/list after list_changed returned an error: {e}"
            )),
            Err(s) => stop = Some(s),
        }
    }
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), running.cancel()).await;
    let c = lock(&cap);
    report.server_requests = c.server_requests.clone();
    if c.junk > 0 {
        // No count: how much junk arrives before a bound is timing-dependent.
        report
            .notes
            .push("output that is not JSON-RPC was ignored".to_string());
    }
    report.outcome = match stop {
        None => Outcome::Complete,
        Some(Stop::Bound(b)) => Outcome::Bounded(b),
        Some(Stop::Failed(f)) => Outcome::Failed(f),
        Some(Stop::ListError(_)) => Outcome::Complete,
    };
    catalog
}

/// One `*/list` loop: our own pagination, with a page cap, an item cap and a
/// repeated-cursor check (rmcp's `list_all_*` has neither).
async fn list(
    peer: &rmcp::Peer<rmcp::RoleClient>,
    cap: &Shared,
    kind: Kind,
    opts: &LiveOptions,
    deadline: Instant,
    items: &mut Vec<Value>,
) -> Result<(), Stop> {
    let mut cursor: Option<String> = None;
    let mut seen = BTreeSet::new();
    for _page in 0..opts.max_pages {
        let sent = bounded(
            peer.send_request(kind.request(cursor.clone())),
            opts,
            deadline,
        )
        .await;
        let raw = lock(cap).take_response(kind.method());
        let Some(raw) = raw else {
            let c = lock(cap);
            return Err(match (&c.bound, &c.failed, sent) {
                (Some(b), _, _) => Stop::Bound(b.clone()),
                (_, Some(f), _) => Stop::Failed(f.clone()),
                (_, _, Err(t)) => Stop::Bound(format!("{}: {t}", kind.method())),
                (_, _, Ok(r)) => Stop::Failed(format!(
                    "{}: {}",
                    kind.method(),
                    r.err()
                        .map(|e| e.to_string())
                        .unwrap_or_else(|| "no response".into())
                )),
            });
        };
        if let Some(err) = raw.get("error") {
            let msg = err
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("error");
            return Err(Stop::ListError(crate::text::truncate_chars(msg, 200)));
        }
        let result = raw.get("result").cloned().unwrap_or(Value::Null);
        let Some(page) = result.get(kind.key()).and_then(Value::as_array) else {
            return Err(Stop::ListError(format!(
                "the result has no `{}` array",
                kind.key()
            )));
        };
        for item in page {
            if items.len() >= opts.max_items {
                return Err(Stop::Bound(format!(
                    "{}: more than {} items (max items)",
                    kind.method(),
                    opts.max_items
                )));
            }
            items.push(item.clone());
        }
        match result.get("nextCursor").and_then(Value::as_str) {
            None => return Ok(()),
            Some("") => return Ok(()),
            Some(c) => {
                if !seen.insert(c.to_string()) {
                    return Err(Stop::Bound(format!(
                        "{}: the server repeated a pagination cursor",
                        kind.method()
                    )));
                }
                cursor = Some(c.to_string());
            }
        }
    }
    Err(Stop::Bound(format!(
        "{}: more than {} pages (max pages)",
        kind.method(),
        opts.max_pages
    )))
}
