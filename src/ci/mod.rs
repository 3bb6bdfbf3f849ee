//! `mcptrustchecker ci`: the GitHub Action's entrypoint (and a CLI that runs the
//! same gate by hand with `--base REV --head REV`). Contract: spec/ci.md.
//!
//! Read the event → find what to scan (changed files on a pull request,
//! everything elsewhere) → run the shared pipeline → compare with the head
//! lockfile (drift the PR did not record is unreviewed) → write SARIF, the job
//! summary, outputs and annotations → post one sticky PR comment → exit 0/1/2.

pub mod base;
pub mod bridge;
pub mod changed;
pub mod comment;
pub mod event;
mod files;
pub mod github;
mod inputs;
pub mod outputs;
mod plan;
pub mod summary;
pub mod trust;

use crate::acquire::confine::Workspace;
use crate::acquire::{self, AcquireOptions};
use crate::gate::{self, DriftRule};
use crate::lock::lockfile::Lockfile;
use crate::model::ScanResult;
use crate::output::{exit, stdout_line, write_atomic};
use crate::scan::{self, Judging, LockSource, PolicySource, Request, Source};
use event::Env;
use files::{append_runner_file, sarif_target};
pub use inputs::{Inputs, Live};
use plan::{Plan, select};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Command-line overrides (the action passes none: everything comes from the env).
#[derive(Debug, Clone, Default)]
pub struct CiArgs {
    pub base: Option<String>,
    pub head: Option<String>,
    pub event: Option<PathBuf>,
    pub workspace: Option<PathBuf>,
    /// `--max-file-size`: overrides the `max-file-size` input.
    pub max_file_size: Option<u64>,
}

/// Print one line to the job log, made safe: scanned text in it can never
/// become a workflow command.
fn say(line: &str) {
    stdout_line(&crate::text::log_text(line));
}

/// Print a warning for the log and as a workflow annotation.
fn warn(msg: &str) {
    stdout_line(&crate::text::workflow_command(
        "warning",
        &[("title", "mcptrustchecker".into())],
        msg,
    ));
}

/// Why a run stops before a verdict (exit 2). Every message says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input, a flag, the event or a revision that cannot be used, or a
    /// step that cannot go on (no changed-file list, a base that cannot be read).
    #[error("{0}")]
    Usage(String),
    /// An input path that leaves the workspace, or a workspace that is not one.
    #[error(transparent)]
    Path(#[from] crate::acquire::confine::PathError),
    /// A file the run reads is unreadable or malformed.
    #[error(transparent)]
    Input(#[from] crate::parse::InputError),
    /// The run's own I/O failed: its runtime, a directory, a runner file.
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// The SARIF report could not be written (the message carries the cause).
    #[error("{0}")]
    Report(String),
}

impl From<String> for Error {
    fn from(message: String) -> Self {
        Error::Usage(message)
    }
}

impl Error {
    fn io(what: String) -> impl FnOnce(std::io::Error) -> Error {
        move |source| Error::Io { what, source }
    }
}

/// The whole run; errors are usage or runtime errors (exit 2).
pub fn run(args: &CiArgs, env: &Env) -> i32 {
    match run_inner(args, env) {
        Ok(code) => code,
        Err(e) => {
            stdout_line(&crate::text::workflow_command(
                "error",
                &[("title", "mcptrustchecker".into())],
                &e.to_string(),
            ));
            crate::output::note(&format!("error: {e}"));
            exit::INPUT_ERROR
        }
    }
}

/// The GraphQL endpoint next to the REST one (`GITHUB_GRAPHQL_URL` when the runner sets it).
fn graphql_url(env: &Env) -> String {
    if let Some(u) = env.get("GITHUB_GRAPHQL_URL") {
        return u.to_string();
    }
    let rest = env
        .get("GITHUB_API_URL")
        .unwrap_or("https://api.github.com")
        .trim_end_matches('/');
    match rest.strip_suffix("/api/v3") {
        Some(host) => format!("{host}/api/graphql"),
        None => format!("{rest}/graphql"),
    }
}

/// The base commit's files through the GitHub API (a shallow clone).
struct ApiBase<'a> {
    api: &'a github::Api,
    rt: &'a tokio::runtime::Runtime,
    base: &'a str,
}

impl trust::BaseReader for ApiBase<'_> {
    fn read(&self, path: &str) -> Result<Option<String>, String> {
        match self.rt.block_on(async {
            tokio::time::timeout(Duration::from_secs(30), self.api.file_at(path, self.base)).await
        }) {
            Ok(r) => r.map_err(|e| {
                format!("the GitHub API could not read {path} at the base commit: {e}")
            }),
            Err(_) => Err("the GitHub API timed out reading the base commit".into()),
        }
    }
    fn source(&self) -> trust::Source {
        trust::Source::BaseApi
    }
}

fn run_inner(args: &CiArgs, env: &Env) -> Result<i32, Error> {
    let mut inputs = Inputs::from_env(env)?;
    if let Some(n) = args.max_file_size {
        inputs.max_file_bytes = n;
    }
    let ws_raw = args
        .workspace
        .clone()
        .or_else(|| env.get("GITHUB_WORKSPACE").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("."));
    let space = Workspace::new(&ws_raw)?;
    let ws = space.root().to_path_buf();
    let input_path = |what: &str, rel: &str| {
        space
            .resolve(rel)
            .map_err(|e| format!("input `{what}`: {e}"))
    };
    let (scan_root, scan_rel) = input_path("path", &inputs.path)?;
    let (lock_abs, lock_rel) = input_path("lockfile", &inputs.lockfile)?;
    let (sarif_abs, sarif_shown) = sarif_target(&space, &inputs, env)?;
    let ev = event::load(env, args.event.as_deref())?;
    let pr = ev.pull_request.clone();
    let base = args
        .base
        .clone()
        .or_else(|| pr.as_ref().map(|p| p.base_sha.clone()));
    let head = args
        .head
        .clone()
        .or_else(|| pr.as_ref().map(|p| p.head_sha.clone()))
        .or_else(|| base.as_ref().map(|_| "HEAD".to_string()));
    for r in [&base, &head].into_iter().flatten() {
        if !event::is_rev(r) {
            return Err(format!("`{}` is not a revision", crate::text::visible(r)).into());
        }
    }
    let diff_mode = base.is_some();

    if inputs.live == Live::On && !ev.live_trusted(diff_mode) {
        return Err(format!(
            "input `live: true` is refused on `{}` events: they can carry a pull request's configs, which are attacker-controlled, and live acquisition would run them. Live acquisition runs on {}; set `live: force` if every author who can trigger this event is trusted.",
            crate::text::visible(&ev.name),
            event::LIVE_TRUSTED_EVENTS.join(", ")
        )
        .into());
    }

    let api = || -> Option<Result<github::Api, String>> {
        let token = env.token()?;
        let repo = ev
            .repository
            .clone()
            .or_else(|| env.get("GITHUB_REPOSITORY").map(str::to_string))?;
        let base_url = env
            .get("GITHUB_API_URL")
            .unwrap_or("https://api.github.com");
        Some(github::Api::new(base_url, &token, &repo))
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::io("cannot start the async runtime".into()))?;
    // octocrab spawns its service worker when the client is built.
    let _entered = rt.enter();

    // The policy that judges: the base commit's on a change, the workspace's elsewhere.
    // The base commit from git when the clone has it, else through the API.
    let client = match base.as_deref() {
        Some(b) if changed::resolve(&ws, b).is_none() => api().and_then(Result::ok),
        _ => None,
    };
    let reader: Option<Box<dyn trust::BaseReader + '_>> = match (base.as_deref(), &client) {
        (None, _) => None,
        (Some(b), Some(client)) => Some(Box::new(ApiBase {
            api: client,
            rt: &rt,
            base: b,
        })),
        (Some(b), None) => Some(Box::new(trust::GitBase { ws: &ws, base: b })),
    };
    let trusted = trust::policy(
        &space,
        inputs.policy.as_deref(),
        reader.as_deref(),
        inputs.max_file_bytes,
    )?;
    let fail_on = trust::fail_on(inputs.fail_on, trusted.policy.as_ref());
    let fail_on_drift = trust::fail_on_drift(inputs.fail_on_drift, trusted.policy.as_ref());

    // The head lockfile, read once: it selects files (when it changed), then the
    // pipeline and the reviewed-change diff compare with it. On a pull request a
    // repository without a lockfile has pinned nothing yet.
    let head_lock = bridge::load_lock(&lock_abs, &lock_rel, &ws, inputs.max_file_bytes)?;

    // 1. What to scan.
    let plan = if let (Some(b), Some(h)) = (&base, &head) {
        let names = match changed::diff_names(&ws, b, h) {
            Ok((names, method)) => {
                let how = match method {
                    changed::Method::MergeBase => "git diff base...head",
                    changed::Method::TwoDot => {
                        "git diff base head (the merge base is not in the clone)"
                    }
                };
                Ok((names, how.to_string(), Vec::new()))
            }
            Err(git_err) => match (pr.as_ref(), api()) {
                (Some(p), Some(Ok(api))) => {
                    let listed = rt.block_on(async {
                        tokio::time::timeout(Duration::from_secs(60), api.pr_files(p.number)).await
                    });
                    match listed {
                        Ok(Ok(names)) => {
                            let note = format!(
                                "{git_err}: the changed files were listed through the GitHub API instead (use `fetch-depth: 0` with actions/checkout to diff locally)."
                            );
                            warn(&note);
                            Ok((
                                names,
                                "files listed by the GitHub API".to_string(),
                                vec![note],
                            ))
                        }
                        Ok(Err(e)) => Err(format!(
                            "{git_err}, and the GitHub API could not list the PR's files: {e}"
                        )),
                        Err(_) => Err(format!(
                            "{git_err}, and the GitHub API timed out listing the PR's files"
                        )),
                    }
                }
                (_, Some(Err(e))) => {
                    Err(format!("{git_err}, and the GitHub API is not usable: {e}"))
                }
                _ => Err(format!(
                    "{git_err}, and no token is available to ask the GitHub API"
                )),
            },
        };
        match names {
            Ok((names, how, notes)) => select(
                &space,
                &scan_rel,
                &lock_rel,
                head_lock.as_deref(),
                names,
                how,
                notes,
                base.clone(),
            ),
            Err(e) => {
                // Scanning everything is the safe answer when we cannot tell what changed.
                warn(&format!("{e}; scanning every config instead"));
                Plan {
                    files: None,
                    lockfile_changed: false,
                    scope: summary::Scope {
                        how: "every config (the changed files are unknown)".into(),
                        notes: vec![e],
                        ..Default::default()
                    },
                    base: None,
                }
            }
        }
    } else {
        Plan {
            files: None,
            lockfile_changed: false,
            scope: summary::Scope {
                how: format!(
                    "every config under {}",
                    summary::code(if scan_rel.is_empty() { "." } else { &scan_rel })
                ),
                notes: Vec::new(),
                ..Default::default()
            },
            base: None,
        }
    };

    // 2. Acquire and run the shared pipeline. Every file is confined to the workspace.
    let opts = AcquireOptions {
        root: ws.clone(),
        max_file_bytes: inputs.max_file_bytes,
        confine: true,
        ..AcquireOptions::default()
    };
    let acquired = match &plan.files {
        None => acquire::acquire_paths(std::slice::from_ref(&scan_root), &opts),
        Some(files) if files.is_empty() => acquire::Acquired::default(),
        Some(files) => {
            let paths: Vec<PathBuf> = files.iter().map(|f| ws.join(f)).collect();
            let mut a = acquire::acquire_paths(&paths, &opts);
            // A changed file with an MCP-like name that is not MCP (a Chrome `manifest.json`)
            // is not an error in CI: it is simply not ours.
            let (not_mcp, errors): (Vec<_>, Vec<_>) = a.errors.into_iter().partition(|e| {
                e.line.is_none() && e.message.starts_with("not recognised as an MCP")
            });
            a.errors = errors;
            a.skipped.extend(
                not_mcp
                    .into_iter()
                    .map(|e| (e.path, "not an MCP config or descriptor".to_string())),
            );
            a
        }
    };
    // 3. The head lockfile: drift, unpinned servers, and the reviewed change.
    let lock_present = head_lock.is_some();
    let lock_for_scan = match (&head_lock, diff_mode) {
        (Some(l), _) => LockSource::Given(l.clone()),
        (None, true) => LockSource::Given(std::sync::Arc::new(Lockfile::empty(&lock_rel))),
        (None, false) => LockSource::None,
    };
    // Sandboxed: the whole invocation is checked, and the child gets PATH, a
    // temp HOME, the config's literal values and the `pass-env` names only
    // (no GITHUB_TOKEN, ACTIONS_* or INPUT_* reaches a server or a remote host).
    // The runner's network configuration reaches servers (a documented
    // allowlist); packages are cached under the job's HOME; no progress.
    let live = (inputs.live != Live::Off && !acquired.surfaces.is_empty()).then(|| {
        let package_cache =
            crate::acquire::live::sandbox::default_cache_dir(&|n| std::env::var(n).ok());
        crate::acquire::live::LiveOptions {
            pass_env: crate::acquire::live::PassEnv::new(inputs.pass_env.clone()),
            install: package_cache.is_some(),
            package_cache,
            progress: false,
            ..crate::acquire::live::LiveOptions::default()
        }
    });
    let live_asked = live.is_some();
    // The trusted policy and the grade gate: drift is judged apart from the
    // policy's server verdicts, following `fail-on-drift` (made stricter by the policy).
    let now = env
        .get("MTC_NOW")
        .and_then(|d| d.parse::<crate::policy::Date>().ok());
    let mut request = Request::new(Source::Acquired(acquired), &ws, inputs.max_file_bytes);
    request.acquire.confine = true;
    request.lockfile = lock_for_scan;
    request.live = live;
    // Registry I/O happens before the stages, as in `scan`.
    request.online = inputs
        .online
        .then(crate::acquire::registry::RegistryConfig::default);
    request.stages.include_builtins = inputs.include_builtins.clone();
    request.policy = match &trusted.policy {
        Some(p) => PolicySource::Given(p.clone()),
        None => PolicySource::None,
    };
    request.judging = Judging {
        fail_on: inputs.fail_on,
        now,
        drift_in_verdicts: false,
    };
    let scanned = scan::run(request)?;
    if live_asked {
        say(&format!(
            "live acquisition: {} server(s) contacted",
            scanned.live.len()
        ));
    }
    let mut result = scanned.result;
    let mut scope = plan.scope;
    scope.lockfile_present = lock_present;
    scope.notes.extend(trusted.notes.iter().cloned());
    if let (true, Some(head)) = (plan.lockfile_changed, &head_lock) {
        let base_text = plan
            .base
            .as_deref()
            .and_then(|b| changed::show(&ws, b, &lock_rel));
        if base_text.is_none()
            && plan
                .base
                .as_deref()
                .and_then(|b| changed::resolve(&ws, b))
                .is_none()
        {
            scope.notes.push(
                "the base lockfile is not in the clone: every entry is shown as a reviewed change"
                    .into(),
            );
        }
        result.lockfile_changes = bridge::lockfile_diff(base_text.as_deref(), head, &lock_rel)?;
    }

    // The base side, for "change against the base" (best effort).
    let baseline = match (&plan.files, plan.base.as_deref()) {
        (Some(files), Some(b)) if !files.is_empty() && changed::resolve(&ws, b).is_some() => {
            match base::scores(&ws, b, files, &lock_rel, inputs.max_file_bytes) {
                Ok(m) => Some(m),
                Err(e) => {
                    warn(&format!("could not score the base commit: {e}"));
                    None
                }
            }
        }
        _ => None,
    };

    // 4. Verdict and outputs.
    let gate = gate::decide(
        &result,
        inputs.fail_on,
        DriftRule::Ci {
            fail_on_drift,
            unpinned_gates: diff_mode,
        },
    );
    let sarif = bridge::sarif(
        &result,
        &gate.verdict,
        inputs.category.as_deref(),
        &ws,
        inputs.max_file_bytes,
    );
    if let Some(dir) = sarif_abs.parent() {
        std::fs::create_dir_all(dir)
            .map_err(Error::io(format!("cannot create {}", dir.display())))?;
    }
    write_atomic(&sarif_abs, sarif.as_bytes()).map_err(|e| Error::Report(format!("{e:#}")))?;
    // The head commit the findings' lines are at: the PR's head, else the
    // pushed commit (`GITHUB_SHA`), resolved in the clone when it can be.
    let head_sha = head
        .as_deref()
        .and_then(|h| changed::resolve(&ws, h))
        .or_else(|| head.clone().filter(|h| h.len() == 40))
        .or_else(|| env.get("GITHUB_SHA").map(str::to_string));
    let run = summary::RunInfo {
        server_url: Some(
            env.get("GITHUB_SERVER_URL")
                .unwrap_or("https://github.com")
                .to_string(),
        ),
        repo: ev
            .repository
            .clone()
            .or_else(|| env.get("GITHUB_REPOSITORY").map(str::to_string)),
        head_time: head_sha
            .as_deref()
            .and_then(|s| changed::commit_time(&ws, s)),
        head_sha,
        run_id: env.get("GITHUB_RUN_ID").map(str::to_string),
        run_attempt: env.get("GITHUB_RUN_ATTEMPT").map(str::to_string),
    };
    let ctx = summary::context(
        &result,
        &gate,
        &scope,
        &lock_rel,
        trusted.change.as_ref(),
        &run,
    );
    let markdown = bridge::markdown(&result, &gate.verdict, baseline, fail_on, &ctx);

    print_summary(&result, &gate, &scope, trusted.change.as_ref());
    for line in outputs::annotations(&result, &gate, fail_on, fail_on_drift) {
        stdout_line(&line);
    }
    for e in &result.errors {
        let loc =
            crate::surface::Location::new(&e.path, e.line.unwrap_or(0), e.column.unwrap_or(0));
        stdout_line(&crate::text::workflow_command(
            "error",
            &[
                ("file", loc.path.clone()),
                ("line", loc.line.max(1).to_string()),
            ],
            &e.message,
        ));
    }
    if let Some(p) = env.get("GITHUB_STEP_SUMMARY") {
        // GitHub accepts up to 1 MiB of summary per step (4 bytes per char at worst).
        append_runner_file(Path::new(p), &comment::cap(&markdown, 250_000))
            .map_err(Error::io(format!("cannot write the job summary {p}")))?;
    }
    if let Some(p) = env.get("GITHUB_OUTPUT") {
        append_runner_file(Path::new(p), &outputs::outputs(&gate, &sarif_shown))
            .map_err(Error::io(format!("cannot write the step outputs {p}")))?;
    }

    // 5. The sticky comment: best effort, the verdict stands either way.
    if let (Some(p), true) = (&pr, inputs.comment) {
        let worth_creating = !result.servers.is_empty()
            || !result.lockfile_changes.is_empty()
            || !result.errors.is_empty()
            || trusted.change.is_some()
            || gate.verdict.failed;
        match api() {
            None => warn(
                "no GitHub token or repository: the PR comment was not posted (the verdict stands)",
            ),
            Some(Err(e)) => warn(&format!(
                "the PR comment was not posted: {e} (the verdict stands)"
            )),
            Some(Ok(api)) => {
                let body = comment::body(
                    &markdown,
                    &comment::marker(inputs.comment_header.as_deref()),
                );
                let gql = graphql_url(env);
                let done = rt.block_on(async {
                    tokio::time::timeout(
                        Duration::from_secs(90),
                        comment::upsert(&api, p.number, &body, worth_creating, &gql),
                    )
                    .await
                });
                match done {
                    Ok(Ok(comment::Outcome::Created(id))) => {
                        say(&format!("posted PR comment {id}"))
                    }
                    Ok(Ok(comment::Outcome::Updated(id))) => {
                        say(&format!("updated PR comment {id}"))
                    }
                    Ok(Ok(comment::Outcome::NotNeeded)) => say("no MCP changes: no PR comment"),
                    Ok(Err(e)) => {
                        let hint = if p.fork {
                            " (a pull request from a fork gets a read-only token)"
                        } else {
                            ""
                        };
                        warn(&format!(
                            "could not post the PR comment: {e}{hint}; the verdict stands"
                        ))
                    }
                    Err(_) => warn("posting the PR comment timed out; the verdict stands"),
                }
            }
        }
    }
    Ok(gate.exit_code(!result.errors.is_empty()))
}

/// A short plain-text summary for the job log (every line through the log
/// escaper, so no scanned id can start a workflow command).
fn print_summary(
    r: &ScanResult,
    g: &gate::Gate,
    scope: &summary::Scope,
    change: Option<&crate::policy::diff::PolicyChange>,
) {
    say(&format!(
        "mcptrustchecker {}: {}",
        crate::VERSION,
        crate::text::visible(&scope.how)
    ));
    for s in &r.servers {
        let drift = if s.drift.is_some() {
            "  [drift]"
        } else if r.unpinned.contains(&s.surface.id) {
            "  [not in lockfile]"
        } else {
            ""
        };
        say(&format!(
            "  {} {:>3}  {}{drift}",
            s.score.grade,
            s.score.value,
            crate::text::visible(&s.surface.id)
        ));
    }
    for n in &scope.notes {
        say(&format!("note: {}", crate::text::visible(n)));
    }
    for (path, why) in &r.skipped {
        if why.starts_with("not read:") {
            say(&format!(
                "  skipped {}: {}",
                crate::text::visible(path),
                crate::text::visible(why)
            ));
        }
    }
    if let Some(c) = change {
        say(&format!(
            "policy change in {} ({} item(s){}): shown in the report, applied only once merged",
            crate::text::visible(&c.path),
            c.items.len(),
            if c.loosens() {
                ", loosens the gate"
            } else {
                ""
            }
        ));
    }
    say(&gate::verdict_line(&g.verdict));
}

#[cfg(test)]
mod tests;
