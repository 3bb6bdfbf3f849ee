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
pub mod gate;
pub mod github;
pub mod summary;

use crate::acquire::{self, AcquireOptions};
use crate::app::{exit, write_atomic};
use crate::detect::{self, ScanOptions, ScanResult};
use crate::lockfile::Lockfile;
use crate::score::Grade;
use event::Env;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
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

/// The action's inputs, validated.
#[derive(Debug, Clone)]
pub struct Inputs {
    pub path: String,
    pub lockfile: String,
    pub fail_on: Grade,
    pub fail_on_drift: bool,
    pub live: Live,
    pub online: bool,
    pub include_builtins: Option<String>,
    pub policy: Option<String>,
    pub sarif_file: String,
    pub comment: bool,
    /// Files (configs, descriptors, the lockfile, the policy) larger than this are refused.
    pub max_file_bytes: u64,
}

/// The `live` input. A pull request's configs are the PR author's: spawning
/// them needs an explicit `force`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live {
    Off,
    On,
    Force,
}

impl Inputs {
    pub fn from_env(env: &Env) -> Result<Inputs, String> {
        let fail_on = match env.input("fail-on") {
            None => Grade::F,
            Some(g) => Grade::parse(g).ok_or_else(|| {
                format!(
                    "input `fail-on` must be a grade A–F, not `{}`",
                    crate::text::visible(g)
                )
            })?,
        };
        let live = match env.input("live").map(|s| s.to_ascii_lowercase()) {
            None => Live::Off,
            Some(s) if s == "force" => Live::Force,
            Some(s) => match event::parse_bool(&s) {
                Some(true) => Live::On,
                Some(false) => Live::Off,
                None => {
                    return Err(format!(
                        "input `live` must be `true`, `false` or `force`, not `{}`",
                        crate::text::visible(&s)
                    ));
                }
            },
        };
        let include_builtins = env
            .input("include-builtins")
            .filter(|v| event::parse_bool(v) != Some(false))
            .map(str::to_string);
        Ok(Inputs {
            path: env.input("path").unwrap_or(".").to_string(),
            lockfile: env
                .input("lockfile")
                .unwrap_or("mcptrustchecker.lock")
                .to_string(),
            fail_on,
            fail_on_drift: env.bool_input("fail-on-drift", true)?,
            live,
            online: env.bool_input("online", false)?,
            include_builtins,
            policy: env.input("policy").map(str::to_string),
            sarif_file: env
                .input("sarif-file")
                .unwrap_or("mcptrustchecker.sarif")
                .to_string(),
            comment: env.bool_input("comment", true)?,
            max_file_bytes: match env.input("max-file-size") {
                None => crate::parse::DEFAULT_MAX_FILE_BYTES,
                Some(v) => v.trim().parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!(
                        "input `max-file-size` must be a number of bytes above 0, not `{}`",
                        crate::text::visible(v)
                    )
                })?,
            },
        })
    }
}

/// A workspace-relative path that cannot leave the workspace.
fn inside(ws: &Path, rel: &str, what: &str) -> Result<(PathBuf, String), String> {
    let p = Path::new(rel);
    if p.is_absolute() || p.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(format!(
            "input `{what}` must be a path inside the workspace, not `{}`",
            crate::text::visible(rel)
        ));
    }
    let norm: Vec<String> = p
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    Ok((ws.join(p), norm.join("/")))
}

/// Print a warning for the log and as a workflow annotation.
fn warn(msg: &str) {
    println!(
        "::warning title=mcptrustchecker::{}",
        gate::escape_data(msg)
    );
}

/// The whole run; errors are usage or runtime errors (exit 2).
pub fn run(args: &CiArgs, env: &Env) -> i32 {
    match run_inner(args, env) {
        Ok(code) => code,
        Err(e) => {
            println!("::error title=mcptrustchecker::{}", gate::escape_data(&e));
            eprintln!("error: {e}");
            exit::INPUT_ERROR
        }
    }
}

/// What this run scans.
struct Plan {
    /// `None`: the whole `path`; `Some`: these workspace-relative files.
    files: Option<Vec<String>>,
    lockfile_changed: bool,
    scope: summary::Scope,
    base: Option<String>,
}

fn run_inner(args: &CiArgs, env: &Env) -> Result<i32, String> {
    let mut inputs = Inputs::from_env(env)?;
    if let Some(n) = args.max_file_size {
        inputs.max_file_bytes = n;
    }
    let ws_raw = args
        .workspace
        .clone()
        .or_else(|| env.get("GITHUB_WORKSPACE").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("."));
    let ws = std::fs::canonicalize(&ws_raw)
        .map_err(|e| format!("workspace {}: {e}", ws_raw.display()))?;
    let (scan_root, scan_rel) = inside(&ws, &inputs.path, "path")?;
    let (lock_abs, lock_rel) = inside(&ws, &inputs.lockfile, "lockfile")?;
    let (sarif_abs, _) = inside(&ws, &inputs.sarif_file, "sarif-file")?;
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
            return Err(format!("`{}` is not a revision", crate::text::visible(r)));
        }
    }
    let diff_mode = base.is_some();

    if inputs.live != Live::Off && ev.is_pull_request() && inputs.live != Live::Force {
        return Err("input `live: true` is refused on pull_request events: the PR's configs are attacker-controlled and live acquisition would run them. Use it on push or schedule, or set `live: force` if every PR author is trusted.".into());
    }
    let policy_path = match &inputs.policy {
        Some(p) => Some(inside(&ws, p, "policy")?.0),
        None => None,
    };

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
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    // octocrab spawns its service worker when the client is built.
    let _entered = rt.enter();

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
                &ws,
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

    // 2. Acquire and run the shared pipeline.
    let opts = AcquireOptions {
        root: ws.clone(),
        max_file_bytes: inputs.max_file_bytes,
        ..AcquireOptions::default()
    };
    let mut acquired = match &plan.files {
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
        (Some(l), _) => Some(l.clone()),
        (None, true) => Some(std::sync::Arc::new(Lockfile::empty(&lock_rel))),
        (None, false) => None,
    };
    let options = ScanOptions {
        include_builtins: inputs.include_builtins.clone(),
        lockfile: lock_for_scan,
        ..ScanOptions::default()
    };
    if inputs.live != Live::Off && !acquired.surfaces.is_empty() {
        // Sandboxed (cleared environment: no GITHUB_TOKEN or INPUT_* reaches a
        // server), bounded, before stage 7 compares the catalogs with the lockfile.
        let reports =
            crate::app::live_fill(&mut acquired, &crate::acquire::live::LiveOptions::default());
        println!("live acquisition: {} server(s) contacted", reports.len());
    }
    let mut options = options;
    if inputs.online {
        // Registry I/O happens before the pipeline, as in `scan`.
        let cfg = crate::acquire::registry::RegistryConfig::default();
        options.registry_facts = Some(std::sync::Arc::new(crate::acquire::registry::fetch(
            &acquired.surfaces,
            &cfg,
        )));
        options.online = Some(cfg);
    }
    let mut result = detect::run(acquired, &options);
    let mut scope = plan.scope;
    scope.lockfile_present = lock_present;
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
    // The policy (`policy` input, else mcptrustchecker.toml when present) and the
    // grade gate, judged without drift: drift follows `fail-on-drift` below.
    let drifts: Vec<_> = result.servers.iter_mut().map(|s| s.drift.take()).collect();
    let base_verdict = crate::policy::enforce(
        &mut result,
        &ws,
        policy_path.as_deref(),
        None,
        inputs.fail_on,
        inputs.max_file_bytes,
    )
    .map_err(|e| crate::text::visible(&e.to_string()))?;
    for (s, d) in result.servers.iter_mut().zip(drifts) {
        s.drift = d;
    }
    let fail_on = result
        .policy
        .as_ref()
        .map(|o| o.fail_on)
        .unwrap_or(inputs.fail_on);
    let gate = gate::evaluate(&result, base_verdict, inputs.fail_on_drift, diff_mode);
    let sarif = bridge::sarif(&result, &gate.verdict);
    write_atomic(&sarif_abs, sarif.as_bytes()).map_err(|e| format!("{e:#}"))?;
    let markdown = format!(
        "{}\n{}",
        bridge::markdown(&result, &gate.verdict, baseline),
        summary::section(&result, &gate, &scope, &lock_rel)
    );

    print_summary(&result, &gate, &scope);
    for line in gate::annotations(&result, &gate, fail_on, inputs.fail_on_drift) {
        println!("{line}");
    }
    for e in &result.errors {
        let loc =
            crate::surface::Location::new(&e.path, e.line.unwrap_or(0), e.column.unwrap_or(0));
        println!(
            "::error file={},line={}::{}",
            gate::escape_property(&loc.path),
            loc.line.max(1),
            gate::escape_data(&crate::text::visible(&e.message))
        );
    }
    if let Some(p) = env.get("GITHUB_STEP_SUMMARY") {
        // GitHub accepts up to 1 MiB of summary per step (4 bytes per char at worst).
        append(Path::new(p), &comment::cap(&markdown, 250_000))
            .map_err(|e| format!("cannot write the job summary {p}: {e}"))?;
    }
    if let Some(p) = env.get("GITHUB_OUTPUT") {
        append(Path::new(p), &gate::outputs(&gate, &inputs.sarif_file))
            .map_err(|e| format!("cannot write the step outputs {p}: {e}"))?;
    }

    // 5. The sticky comment: best effort, the verdict stands either way.
    if let (Some(p), true) = (&pr, inputs.comment) {
        let worth_creating = !result.servers.is_empty()
            || !result.lockfile_changes.is_empty()
            || !result.errors.is_empty()
            || gate.verdict.failed;
        match api() {
            None => warn(
                "no GitHub token or repository: the PR comment was not posted (the verdict stands)",
            ),
            Some(Err(e)) => warn(&format!(
                "the PR comment was not posted: {e} (the verdict stands)"
            )),
            Some(Ok(api)) => {
                let body = comment::body(&markdown);
                let done = rt.block_on(async {
                    tokio::time::timeout(
                        Duration::from_secs(90),
                        comment::upsert(&api, p.number, &body, worth_creating),
                    )
                    .await
                });
                match done {
                    Ok(Ok(comment::Outcome::Created(id))) => println!("posted PR comment {id}"),
                    Ok(Ok(comment::Outcome::Updated(id))) => println!("updated PR comment {id}"),
                    Ok(Ok(comment::Outcome::NotNeeded)) => {
                        println!("no MCP changes: no PR comment")
                    }
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
    Ok(crate::app::exit_code(
        &gate.verdict,
        !result.errors.is_empty(),
    ))
}

/// Choose the changed files worth scanning: configs and descriptors under
/// `path`, and every config a changed lockfile pins.
#[allow(clippy::too_many_arguments)]
fn select(
    ws: &Path,
    scan_rel: &str,
    lock_rel: &str,
    head_lock: Option<&Lockfile>,
    names: Vec<String>,
    how: String,
    notes: Vec<String>,
    base: Option<String>,
) -> Plan {
    let under =
        |f: &str| scan_rel.is_empty() || f == scan_rel || f.starts_with(&format!("{scan_rel}/"));
    let mut files = Vec::new();
    let mut lockfile_changed = false;
    let mut removed = 0;
    for f in &names {
        if f == lock_rel {
            lockfile_changed = true;
        } else if under(f) && acquire::is_candidate(Path::new(f)) {
            if ws.join(f).is_file() {
                files.push(f.clone());
            } else {
                removed += 1;
            }
        }
    }
    if let (true, Some(lock)) = (lockfile_changed, head_lock) {
        files.extend(
            bridge::pinned_paths(lock)
                .into_iter()
                .filter(|p| under(p) && ws.join(p).is_file()),
        );
    }
    files.sort();
    files.dedup();
    let mut how = format!(
        "{} changed files ({how}), {} MCP configs or descriptors scanned",
        names.len(),
        files.len()
    );
    if lockfile_changed {
        how.push_str(", lockfile changed");
    }
    if removed > 0 {
        how.push_str(&format!(", {removed} removed"));
    }
    Plan {
        files: Some(files),
        lockfile_changed,
        scope: summary::Scope {
            how,
            notes,
            ..Default::default()
        },
        base,
    }
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        f.write_all(b"\n")?;
    }
    Ok(())
}

/// A short plain-text summary for the job log (scanned text made visible, so no
/// line can start a workflow command).
fn print_summary(r: &ScanResult, g: &gate::Gate, scope: &summary::Scope) {
    println!(
        "mcptrustchecker {}: {}",
        crate::VERSION,
        crate::text::visible(&scope.how)
    );
    for s in &r.servers {
        let drift = if s.drift.is_some() {
            "  [drift]"
        } else if r.unpinned.contains(&s.surface.id) {
            "  [not in lockfile]"
        } else {
            ""
        };
        println!(
            "  {} {:>3}  {}{drift}",
            s.score.grade,
            s.score.value,
            crate::text::visible(&s.surface.id)
        );
    }
    println!("{}", crate::app::verdict_line(&g.verdict));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_defaults_and_refusals() {
        let i = Inputs::from_env(&Env::default()).unwrap();
        assert_eq!(
            (i.fail_on, i.fail_on_drift, i.live, i.comment),
            (Grade::F, true, Live::Off, true)
        );
        assert_eq!(
            (i.sarif_file.as_str(), i.lockfile.as_str(), i.path.as_str()),
            ("mcptrustchecker.sarif", "mcptrustchecker.lock", ".")
        );
        let env = Env::from_pairs([
            ("INPUT_FAIL-ON".into(), "c".into()),
            ("INPUT_LIVE".into(), "force".into()),
            ("INPUT_INCLUDE-BUILTINS".into(), "false".into()),
        ]);
        let i = Inputs::from_env(&env).unwrap();
        assert_eq!(
            (i.fail_on, i.live, i.include_builtins),
            (Grade::C, Live::Force, None)
        );
        assert!(
            Inputs::from_env(&Env::from_pairs([("INPUT_FAIL-ON".into(), "Z".into())])).is_err()
        );
        assert_eq!(
            Inputs::from_env(&Env::default()).unwrap().max_file_bytes,
            crate::parse::DEFAULT_MAX_FILE_BYTES
        );
        let size = |v: &str| {
            Inputs::from_env(&Env::from_pairs([("INPUT_MAX-FILE-SIZE".into(), v.into())]))
                .map(|i| i.max_file_bytes)
        };
        assert_eq!(size(" 67108864 "), Ok(67108864));
        for bad in ["0", "-1", "16MB", "1e9"] {
            let e = size(bad).unwrap_err();
            assert!(e.contains("`max-file-size`"), "{e}");
        }
        assert!(inside(Path::new("/w"), "../etc", "path").is_err());
        assert!(inside(Path::new("/w"), "/etc", "path").is_err());
        assert_eq!(
            inside(Path::new("/w"), "./a/b.lock", "lockfile").unwrap().1,
            "a/b.lock"
        );
    }
}
