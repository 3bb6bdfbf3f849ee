//! Files the run writes for the runner: the SARIF report (under
//! `RUNNER_TEMP`, or its container mount) and the `GITHUB_OUTPUT` /
//! `GITHUB_STEP_SUMMARY` files it appends to, never through a symlink.

use super::event::Env;
use super::inputs::Inputs;
use crate::acquire::confine::Workspace;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the SARIF is written, and the path the `sarif-file` output names for
/// the next step (which runs on the runner, not in this container).
///
/// An explicit input is a workspace path or an absolute path under
/// `RUNNER_TEMP`. Without one the report goes under `RUNNER_TEMP`, outside the
/// checkout (so no `git add -A` commits it): there directly when this process
/// sees that directory, else (a container action, where the runner mounts only
/// `$RUNNER_TEMP/_github_home`, as `HOME`) into `HOME`, named by its host
/// path. Outside Actions: `mcptrustchecker.sarif` in the workspace.
pub(super) fn sarif_target(
    space: &Workspace,
    inputs: &Inputs,
    env: &Env,
) -> Result<(PathBuf, String), String> {
    let temp = env.get("RUNNER_TEMP").map(PathBuf::from);
    let home = env.get("HOME").map(PathBuf::from).filter(|h| h.is_dir());
    let mounted = |t: &Path| -> Option<(PathBuf, PathBuf)> {
        // (host directory, where this process sees it)
        if t.is_dir() {
            return Some((t.to_path_buf(), t.to_path_buf()));
        }
        home.clone().map(|h| (t.join("_github_home"), h))
    };
    let named = |host: &Path, local: &Path, file: &str| -> Result<(PathBuf, String), String> {
        let rest = Path::new(file)
            .strip_prefix(host)
            .map_err(|_| format!("input `sarif-file`: {file} is not under RUNNER_TEMP"))?;
        let write = space
            .output(&local.join(rest).to_string_lossy(), &[local.to_path_buf()])
            .map_err(|e| format!("input `sarif-file`: {e}"))?;
        Ok((write, file.to_string()))
    };
    match (inputs.sarif_file.as_deref(), temp.as_deref()) {
        (Some(f), Some(t))
            if Path::new(f).is_absolute() && !Path::new(f).starts_with(space.root()) =>
        {
            let (host, local) = mounted(t).ok_or_else(|| {
                format!("input `sarif-file`: {f}: RUNNER_TEMP is not visible to this process")
            })?;
            if !Path::new(f).starts_with(&host) && host != t {
                return Err(format!(
                    "input `sarif-file`: in a container action only {} of RUNNER_TEMP is mounted; write there, in the workspace, or leave the input empty",
                    host.display()
                ));
            }
            named(&host, &local, f)
        }
        (Some(f), _) => {
            let write = space
                .output(f, &[])
                .map_err(|e| format!("input `sarif-file`: {e}"))?;
            Ok((write, f.to_string()))
        }
        (None, Some(t)) => {
            let (host, local) = mounted(t).ok_or_else(|| {
                "RUNNER_TEMP is not visible to this process and HOME is not set: set the `sarif-file` input".to_string()
            })?;
            let file = host.join(sarif_name(inputs.category.as_deref()));
            named(&host, &local, &file.to_string_lossy())
        }
        (None, None) => {
            let f = "mcptrustchecker.sarif";
            let write = space
                .output(f, &[])
                .map_err(|e| format!("input `sarif-file`: {e}"))?;
            Ok((write, f.to_string()))
        }
    }
}

/// `mcptrustchecker.sarif`, or `mcptrustchecker-<category>.sarif` so two jobs
/// of one run never share a file.
fn sarif_name(category: Option<&str>) -> String {
    let slug: String = category
        .unwrap_or("")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_matches(['-', '.']);
    if slug.is_empty() {
        "mcptrustchecker.sarif".into()
    } else {
        format!("mcptrustchecker-{slug}.sarif")
    }
}

/// Append to a file the runner named (`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`):
/// never through a symlink, whatever the directory (the runner's own
/// file-command directory sits outside the workspace in a container action).
pub(super) fn append_runner_file(path: &Path, text: &str) -> std::io::Result<()> {
    for p in [Some(path), path.parent()].into_iter().flatten() {
        if std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(std::io::Error::other(format!(
                "{} is a symlink; not written through",
                p.display()
            )));
        }
    }
    append(path, text)
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
