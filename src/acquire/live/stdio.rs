//! stdio servers: spawned in the sandbox, spoken to line by line, every
//! stdout byte counted against the metadata budget.

use super::progress::Line;
use super::sandbox::{self, GroupGuard};
use super::session::{self, Incoming, RawLink};
use super::{Catalog, Ctx, LiveReport, Outcome};
use crate::surface::ServerSurface;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::Instant;

pub(super) async fn scan(
    s: &ServerSurface,
    command: &str,
    args: &[String],
    ctx: &Ctx<'_>,
    line: &Line,
) -> (LiveReport, Option<Catalog>) {
    let opts = ctx.opts;
    let mut report = LiveReport::new(&s.id, Outcome::Complete);
    if let Err(e) =
        sandbox::check_invocation(command, args, &opts.exec_allowlist, opts.allow_any_command)
    {
        report.outcome = Outcome::Refused(e);
        return (report, None);
    }
    let dirs = (
        tempfile::Builder::new().prefix("mtc-home-").tempdir(),
        tempfile::Builder::new().prefix("mtc-cwd-").tempdir(),
    );
    let (Ok(home), Ok(cwd)) = dirs else {
        report.outcome =
            Outcome::Failed("cannot create the sandbox's temporary directories".into());
        return (report, None);
    };
    let lookup = |n: &str| std::env::var(n).ok();
    let (env, notes) =
        sandbox::build_env(&s.env, &opts.pass_env, &lookup, home.path(), &ctx.base_env);
    report.notes.extend(notes);
    report.transport = Some("stdio".into());
    if let Some(why) = sandbox::missing_launcher(command, &env) {
        report.outcome = Outcome::Failed(why);
        return (report, None);
    }

    let mut cmd = sandbox::command(command, args, &env, cwd.path(), true);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            report.outcome = Outcome::Failed(format!(
                "cannot start `{}`: {e}",
                crate::text::visible(command)
            ));
            return (report, None);
        }
    };
    let mut guard = GroupGuard {
        pgid: child.id().map(|p| p as i32),
    };
    let (Some(stdout), Some(stdin), Some(stderr)) =
        (child.stdout.take(), child.stdin.take(), child.stderr.take())
    else {
        report.outcome = Outcome::Failed("the child's pipes are missing".into());
        return (report, None);
    };

    let err_buf = Arc::new(Mutex::new(Vec::new()));
    let drain = tokio::spawn(drain_bounded(
        stderr,
        err_buf.clone(),
        opts.max_stderr_bytes,
    ));
    let (in_tx, in_rx) = mpsc::channel(64);
    let reader = tokio::spawn(read_lines(stdout, in_tx, opts.max_bytes));
    let (out_tx, out_rx) = mpsc::channel::<Value>(64);
    let writer = tokio::spawn(write_lines(stdin, out_rx));

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

    guard.kill();
    let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
    reader.abort();
    writer.abort();
    let _ = tokio::time::timeout(Duration::from_millis(200), drain).await;
    report.stderr =
        String::from_utf8_lossy(&err_buf.lock().unwrap_or_else(|p| p.into_inner())).into_owned();
    // The stderr itself is never reported (it may echo config values); a
    // known cause of a failed start is named instead.
    if catalog.init.is_none()
        && let Outcome::Failed(why) | Outcome::Bounded(why) = &mut report.outcome
        && let Some(cause) = sandbox::diagnose(&report.stderr)
    {
        why.push_str("; likely cause: ");
        why.push_str(cause);
    }
    drop((home, cwd));
    (report, Some(catalog))
}

/// Read stderr to the end (so the child never blocks on a full pipe), keeping the first `max` bytes.
async fn drain_bounded<R: AsyncRead + Unpin>(mut r: R, keep: Arc<Mutex<Vec<u8>>>, max: usize) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = r.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let mut k = keep.lock().unwrap_or_else(|p| p.into_inner());
        let room = max.saturating_sub(k.len());
        k.extend_from_slice(&buf[..n.min(room)]);
    }
}

/// Split stdout into lines, parse each as JSON-RPC (a batch array gives several
/// frames; anything else becomes a junk marker), and stop at the byte budget.
async fn read_lines<R: AsyncRead + Unpin>(r: R, tx: mpsc::Sender<Incoming>, max_bytes: u64) {
    let mut r = tokio::io::BufReader::with_capacity(64 * 1024, r);
    let mut line = Vec::new();
    let mut total: u64 = 0;
    loop {
        let buf = match r.fill_buf().await {
            Ok(b) => b,
            Err(e) => {
                let _ = tx
                    .send(Incoming::Failed(format!(
                        "reading the server's stdout: {e}"
                    )))
                    .await;
                return;
            }
        };
        if buf.is_empty() {
            let _ = tx
                .send(Incoming::Failed(
                    "the server closed its stdout (it exited)".into(),
                ))
                .await;
            return;
        }
        let (n, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        total += n as u64;
        if total > max_bytes {
            let _ = tx
                .send(Incoming::Bound(format!(
                    "the server sent more than {max_bytes} bytes (max metadata bytes)"
                )))
                .await;
            return;
        }
        line.extend_from_slice(&buf[..n]);
        r.consume(n);
        if found {
            for frame in parse_line(&line) {
                if tx.send(Incoming::Frame(frame)).await.is_err() {
                    return;
                }
            }
            line.clear();
        }
    }
}

/// One line → frames (`Null` marks a non-JSON line, counted as junk).
pub(super) fn parse_line(line: &[u8]) -> Vec<Value> {
    let text = line.trim_ascii();
    if text.is_empty() {
        return Vec::new();
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Array(batch)) => batch,
        Ok(v) => vec![v],
        Err(_) => vec![Value::Null],
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(mut w: W, mut rx: mpsc::Receiver<Value>) {
    while let Some(v) = rx.recv().await {
        let Ok(mut bytes) = serde_json::to_vec(&v) else {
            continue;
        };
        bytes.push(b'\n');
        if w.write_all(&bytes).await.is_err() || w.flush().await.is_err() {
            return;
        }
    }
}
