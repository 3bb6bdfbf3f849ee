//! Remote servers: Streamable HTTP over our own reqwest layer (so every body
//! is captured raw and counted), falling back to legacy HTTP+SSE when the
//! `initialize` POST gets 400, 404 or 405.

use super::session::{self, Incoming, RawLink};
use super::sse::{self, Legacy};
use super::wire::{Budget, Http, describe, read_chunk};
use super::{Catalog, LiveOptions, LiveReport, Outcome};
use crate::surface::ServerSurface;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio::time::Instant;
use url::Url;

/// Refuse a URL whose scheme is not http(s), or whose host is not allowlisted.
pub(crate) fn check_url(url: &Url, allow: &Option<Vec<String>>) -> Result<(), String> {
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(format!(
            "scheme `{}` is not http or https",
            crate::text::visible(url.scheme())
        ));
    }
    let host = url.host_str().unwrap_or("");
    if let Some(list) = allow
        && !list.iter().any(|h| h.eq_ignore_ascii_case(host))
    {
        return Err(format!(
            "host `{}` is not in the host allowlist",
            crate::text::visible(host)
        ));
    }
    Ok(())
}

fn client(opts: &LiveOptions) -> Result<reqwest::Client, String> {
    let max = opts.max_redirects;
    let allow = opts.host_allowlist.clone();
    let policy = reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > max {
            return attempt.error(format!("more than {max} redirects"));
        }
        match check_url(attempt.url(), &allow) {
            Ok(()) => attempt.follow(),
            Err(e) => attempt.error(format!("redirect refused: {e}")),
        }
    });
    reqwest::Client::builder()
        .redirect(policy)
        .connect_timeout(opts.request_timeout)
        .user_agent(concat!("mcptrustchecker/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {}", describe(&e)))
}

/// Headers from the config. A `${VAR}` reference is resolved only when the
/// user named the variable (`--pass-env`); otherwise the header is not sent,
/// so a remote host never receives the scanner's (or the CI job's) secrets.
/// Values are never reported.
fn headers(s: &ServerSurface, pass: &super::PassEnv, notes: &mut Vec<String>) -> HeaderMap {
    use super::Expanded;
    let lookup = |n: &str| std::env::var(n).ok();
    let mut map = HeaderMap::new();
    for (name, value) in &s.headers {
        if value.is_empty() {
            continue;
        }
        let shown = crate::text::visible(name);
        let v = match pass.expand(value, &lookup) {
            Expanded::Value(v) => v,
            Expanded::Withheld(names) => {
                notes.push(format!(
                    "header `{shown}` refers to `{}` from the scanner's environment; not sent (name it with --pass-env to send it)",
                    crate::text::visible(&names.join("`, `"))
                ));
                continue;
            }
            Expanded::Missing(names) => {
                notes.push(format!(
                    "header `{shown}` references `{}`, which is not set; not sent",
                    crate::text::visible(&names.join("`, `"))
                ));
                continue;
            }
        };
        match (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&v),
        ) {
            (Ok(n), Ok(mut hv)) => {
                hv.set_sensitive(true);
                map.insert(n, hv);
            }
            _ => notes.push(format!(
                "header `{shown}` is not a valid HTTP header; not sent"
            )),
        }
    }
    map
}

pub(super) async fn scan(
    s: &ServerSurface,
    url: &str,
    legacy_only: bool,
    opts: &LiveOptions,
    line: &super::progress::Line,
) -> (LiveReport, Option<Catalog>) {
    let mut report = LiveReport::new(&s.id, Outcome::Complete);
    let url = match Url::parse(url) {
        Ok(u) => u,
        Err(e) => {
            report.outcome = Outcome::Refused(format!("the URL does not parse ({e})"));
            return (report, None);
        }
    };
    if let Err(e) = check_url(&url, &opts.host_allowlist) {
        report.outcome = Outcome::Refused(e);
        return (report, None);
    }
    report.tls = Some(url.scheme() == "https");
    report.bind = local_bind(&url);
    let hdrs = headers(s, &opts.pass_env, &mut report.notes);
    let client = match client(opts) {
        Ok(c) => c,
        Err(e) => {
            report.outcome = Outcome::Failed(e);
            return (report, None);
        }
    };
    let (in_tx, in_rx) = mpsc::channel(64);
    let (out_tx, out_rx) = mpsc::channel::<Value>(64);
    let http = Http {
        client,
        headers: hdrs,
        in_tx,
        budget: Budget {
            used: Arc::new(AtomicU64::new(0)),
            max: opts.max_bytes,
        },
        request_timeout: opts.request_timeout,
    };
    let used = Arc::new(Mutex::new(if legacy_only {
        "sse"
    } else {
        "streamable-http"
    }));
    let driver = tokio::spawn(drive(http, url, legacy_only, out_rx, used.clone()));
    let deadline = Instant::now() + opts.server_timeout;
    let catalog = session::run(
        RawLink {
            rx: in_rx,
            tx: out_tx,
        },
        opts,
        deadline,
        &mut report,
        line,
    )
    .await;
    driver.abort();
    report.transport = Some((*used.lock().unwrap_or_else(|p| p.into_inner())).to_string());
    (report, Some(catalog))
}

/// Send each outgoing frame; route each answer (JSON body or SSE stream) back.
async fn drive(
    http: Http,
    url: Url,
    legacy_only: bool,
    mut out_rx: mpsc::Receiver<Value>,
    used: Arc<Mutex<&'static str>>,
) {
    let mut tasks = tokio::task::JoinSet::new();
    let mut legacy: Option<Legacy> = None;
    let mut session_id: Option<HeaderValue> = None;
    let mut protocol: Option<HeaderValue> = None;
    if legacy_only {
        match Legacy::connect(&http, &url, &mut tasks).await {
            Ok(l) => legacy = Some(l),
            Err(e) => {
                let _ = http.in_tx.send(Incoming::Failed(e)).await;
                return;
            }
        }
    }
    while let Some(msg) = out_rx.recv().await {
        if let Some(l) = &legacy {
            l.post(&http, &msg).await;
            continue;
        }
        let is_init = msg.get("method").and_then(Value::as_str) == Some("initialize");
        if is_init {
            protocol = msg
                .pointer("/params/protocolVersion")
                .and_then(Value::as_str)
                .and_then(|p| HeaderValue::from_str(p).ok());
        }
        let mut req = http
            .client
            .post(url.clone())
            .headers(http.headers.clone())
            .header(ACCEPT, "application/json, text/event-stream")
            .json(&msg);
        if let Some(sid) = &session_id {
            req = req.header("mcp-session-id", sid.clone());
        }
        if let (false, Some(p)) = (is_init, &protocol) {
            req = req.header("mcp-protocol-version", p.clone());
        }
        let resp = match tokio::time::timeout(http.request_timeout, req.send()).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                let _ = http
                    .in_tx
                    .send(Incoming::Failed(format!(
                        "HTTP request failed: {}",
                        describe(&e)
                    )))
                    .await;
                return;
            }
            Err(_) => {
                http.fail_request(&msg, "no HTTP response within the per-request timeout")
                    .await;
                continue;
            }
        };
        let status = resp.status().as_u16();
        if is_init && matches!(status, 400 | 404 | 405) {
            // The server does not speak Streamable HTTP: try the legacy transport.
            *used.lock().unwrap_or_else(|p| p.into_inner()) = "sse";
            match Legacy::connect(&http, &url, &mut tasks).await {
                Ok(l) => {
                    l.post(&http, &msg).await;
                    legacy = Some(l);
                }
                Err(e) => {
                    let _ = http
                        .in_tx
                        .send(Incoming::Failed(format!(
                            "initialize returned HTTP {status}, and {e}"
                        )))
                        .await;
                    return;
                }
            }
            continue;
        }
        if !resp.status().is_success() {
            if is_init {
                let _ = http
                    .in_tx
                    .send(Incoming::Failed(format!(
                        "initialize returned HTTP {status}"
                    )))
                    .await;
                return;
            }
            http.fail_request(&msg, &format!("HTTP {status}")).await;
            continue;
        }
        if is_init {
            session_id = resp.headers().get("mcp-session-id").cloned();
        }
        let ct = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        if ct.starts_with("text/event-stream") {
            // Streams may carry server requests before the answer: read them
            // concurrently so we can keep POSTing our replies.
            tasks.spawn(sse::pump(
                resp,
                http.in_tx.clone(),
                http.budget.clone(),
                None,
            ));
        } else if status != 202 && msg.get("id").is_some() && msg.get("method").is_some() {
            let mut resp = resp;
            let mut body = Vec::new();
            loop {
                match read_chunk(&mut resp, &http.budget).await {
                    Ok(Some(c)) => body.extend_from_slice(&c),
                    Ok(None) => break,
                    Err(inc) => {
                        let _ = http.in_tx.send(inc).await;
                        return;
                    }
                }
            }
            let frames = super::stdio::parse_line(&body);
            if frames.is_empty() {
                http.fail_request(&msg, "empty HTTP response").await;
            }
            for f in frames {
                let _ = http.in_tx.send(Incoming::Frame(f)).await;
            }
        }
    }
}

/// For a loopback URL, the addresses its port is bound on, from
/// `/proc/net/tcp{,6}` (a server on 0.0.0.0 is reachable from the network).
fn local_bind(url: &Url) -> Vec<String> {
    let local = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback() || ip.is_unspecified(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
        None => false,
    };
    let Some(port) = url.port_or_known_default() else {
        return Vec::new();
    };
    if !local {
        return Vec::new();
    }
    let mut out = std::collections::BTreeSet::new();
    for (file, v6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols.len() < 4 || cols[3] != "0A" {
                continue;
            }
            let Some((addr, p)) = cols[1].split_once(':') else {
                continue;
            };
            if u16::from_str_radix(p, 16).ok() != Some(port) {
                continue;
            }
            out.insert(proc_addr(addr, v6, port));
        }
    }
    out.into_iter().collect()
}

fn proc_addr(hex: &str, v6: bool, port: u16) -> String {
    if !v6 && let Ok(n) = u32::from_str_radix(hex, 16) {
        let b = n.to_le_bytes();
        return format!("{}.{}.{}.{}:{port}", b[0], b[1], b[2], b[3]);
    }
    match hex {
        "00000000000000000000000000000000" => format!("[::]:{port}"),
        "00000000000000000000000001000000" => format!("[::1]:{port}"),
        _ if hex.len() == 32 && hex.starts_with("0000000000000000FFFF0000") => {
            let n = u32::from_str_radix(&hex[24..], 16)
                .unwrap_or(0)
                .to_le_bytes();
            format!("{}.{}.{}.{}:{port}", n[0], n[1], n[2], n[3])
        }
        _ => format!("[{hex}]:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        let u = |s: &str| Url::parse(s).unwrap();
        assert!(check_url(&u("https://a.example/mcp"), &None).is_ok());
        assert!(check_url(&u("ftp://a.example/mcp"), &None).is_err());
        assert!(check_url(&u("file:///etc/passwd"), &None).is_err());
        let allow = Some(vec!["a.example".to_string()]);
        assert!(check_url(&u("https://A.example/x"), &allow).is_ok());
        assert!(check_url(&u("https://b.example/x"), &allow).is_err());
    }

    #[test]
    fn proc_net_addresses() {
        assert_eq!(proc_addr("0100007F", false, 80), "127.0.0.1:80");
        assert_eq!(proc_addr("00000000", false, 80), "0.0.0.0:80");
        assert_eq!(
            proc_addr("00000000000000000000000000000000", true, 80),
            "[::]:80"
        );
    }
}
