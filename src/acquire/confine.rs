//! The one path resolver confined to a workspace. Every path that a repository
//! (or a pull request) controls goes through here before it is read or written:
//! lockfile ids, the policy and lockfile locations, config paths, changed files,
//! the SARIF file. Absolute paths, `..` escapes and symlinks leaving the
//! workspace are refused with a clear error, so nothing outside the checkout can
//! end up in a report, and no output can be written through a planted symlink.

use std::path::{Component, Path, PathBuf};

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("`{0}` is an absolute path; only paths inside the workspace are read")]
    Absolute(String),
    #[error("`{0}` leaves the workspace (`..`)")]
    Escapes(String),
    #[error("`{0}` is empty or not a plain relative path")]
    Invalid(String),
    #[error("`{path}` goes through the symlink `{link}`, which points outside the workspace")]
    SymlinkOutside { path: String, link: String },
    #[error(
        "`{path}` goes through the symlink `{link}`; outputs are never written through a symlink"
    )]
    SymlinkOutput { path: String, link: String },
    #[error("`{0}` is outside the workspace and RUNNER_TEMP; outputs are written only there")]
    OutputOutside(String),
    #[error("the workspace {0} cannot be read: {1}")]
    Root(String, String),
}

/// A directory that paths are resolved inside (canonical, so prefix checks are exact).
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

/// A path as written, normalised to `/`-separated components without `.`.
fn normal(rel: &str) -> Result<Vec<String>, PathError> {
    let shown = crate::text::visible(rel);
    if rel.is_empty() || rel.contains('\0') {
        return Err(PathError::Invalid(shown));
    }
    let unified = rel.replace('\\', "/");
    // `C:/x` and `//server/share` are absolute on Windows; refuse them everywhere.
    let bytes = unified.as_bytes();
    if unified.starts_with('/') || (bytes.len() >= 2 && bytes[1] == b':') {
        return Err(PathError::Absolute(shown));
    }
    let mut parts = Vec::new();
    for c in Path::new(&unified).components() {
        match c {
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => return Err(PathError::Escapes(shown)),
            Component::RootDir | Component::Prefix(_) => return Err(PathError::Absolute(shown)),
        }
    }
    Ok(parts)
}

/// A repository-relative path in its normal form (`a/b.json`), without
/// looking at the file system: absolute paths and `..` are refused.
pub fn normalize(rel: &str) -> Result<String, PathError> {
    normal(rel).map(|p| p.join("/"))
}

impl Workspace {
    /// The workspace at `root` (which must exist).
    pub fn new(root: &Path) -> Result<Workspace, PathError> {
        let root = std::fs::canonicalize(root)
            .map_err(|e| PathError::Root(root.display().to_string(), e.to_string()))?;
        Ok(Workspace { root })
    }

    /// The canonical workspace directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether an absolute, canonical path lies inside the workspace.
    pub fn contains(&self, canonical: &Path) -> bool {
        canonical.starts_with(&self.root)
    }

    /// A repository-relative path (`/` or `\` separated) for reading: returns
    /// the path to open and its normalised display form. A path that does not
    /// exist is fine (the caller decides what missing means); every symlink on
    /// the way must stay inside the workspace.
    pub fn resolve(&self, rel: &str) -> Result<(PathBuf, String), PathError> {
        let parts = normal(rel)?;
        if parts.is_empty() {
            return Ok((self.root.clone(), String::new()));
        }
        let display = parts.join("/");
        let mut cur = self.root.clone();
        for (i, p) in parts.iter().enumerate() {
            cur.push(p);
            let Ok(meta) = std::fs::symlink_metadata(&cur) else {
                // Missing: nothing below can be a symlink either.
                for rest in &parts[i + 1..] {
                    cur.push(rest);
                }
                return Ok((cur, display));
            };
            if meta.file_type().is_symlink() {
                let link = parts[..=i].join("/");
                match std::fs::canonicalize(&cur) {
                    Ok(target) if self.contains(&target) => cur = target,
                    // A dangling link: reading it finds nothing; never follow it out.
                    Err(_) => {
                        return Err(PathError::SymlinkOutside {
                            path: display,
                            link,
                        });
                    }
                    Ok(_) => {
                        return Err(PathError::SymlinkOutside {
                            path: display,
                            link,
                        });
                    }
                }
            }
        }
        Ok((cur, display))
    }

    /// A path given on a command line or by the event (absolute or relative to
    /// the workspace) for reading: it must resolve inside the workspace.
    pub fn resolve_path(&self, p: &Path) -> Result<(PathBuf, String), PathError> {
        if p.is_absolute() {
            let shown = p.display().to_string();
            let rel = p
                .strip_prefix(&self.root)
                .map_err(|_| PathError::Absolute(crate::text::visible(&shown)))?;
            let rel = rel.to_string_lossy().into_owned();
            if rel.is_empty() {
                return Ok((self.root.clone(), String::new()));
            }
            return self.resolve(&rel);
        }
        self.resolve(&p.to_string_lossy())
    }

    /// Where to write an output: a path relative to the workspace, or an
    /// absolute path inside one of `extra_roots` (`RUNNER_TEMP`). No component
    /// below the root may be a symlink (nor the file itself), so nothing is
    /// written through a link a pull request committed. Missing directories
    /// are allowed (the caller creates them).
    pub fn output(&self, path: &str, extra_roots: &[PathBuf]) -> Result<PathBuf, PathError> {
        let shown = crate::text::visible(path);
        let p = Path::new(path);
        let (base, parts) = if p.is_absolute() {
            let found = extra_roots
                .iter()
                .chain(std::iter::once(&self.root))
                .filter_map(|r| std::fs::canonicalize(r).ok())
                .find_map(|r| {
                    let rest = p.strip_prefix(&r).ok()?.to_string_lossy().into_owned();
                    Some((r, rest))
                });
            match found {
                Some((r, rest)) if !rest.is_empty() => (r, normal(&rest)?),
                _ => return Err(PathError::OutputOutside(shown)),
            }
        } else {
            (self.root.clone(), normal(path)?)
        };
        if parts.is_empty() {
            return Err(PathError::Invalid(shown));
        }
        let mut cur = base;
        for (i, part) in parts.iter().enumerate() {
            cur.push(part);
            match std::fs::symlink_metadata(&cur) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(PathError::SymlinkOutput {
                        path: shown,
                        link: parts[..=i].join("/"),
                    });
                }
                Ok(_) => {}
                Err(_) => {
                    for rest in &parts[i + 1..] {
                        cur.push(rest);
                    }
                    break;
                }
            }
        }
        Ok(cur)
    }
}

/// An id or path from a lockfile or policy, made safe to look up without
/// touching the file system outside `root`: `None` for anything that is not a
/// plain relative path staying inside.
pub fn inside(root: &Path, rel: &str) -> Option<PathBuf> {
    let ws = Workspace::new(root).ok()?;
    ws.resolve(rel).ok().map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_resolve_and_escapes_do_not() {
        let d = tempfile::tempdir().unwrap();
        let ws = Workspace::new(d.path()).unwrap();
        let (p, shown) = ws.resolve("./a//b.json").unwrap();
        assert_eq!(shown, "a/b.json");
        assert!(p.starts_with(ws.root()));
        for bad in [
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a/../b",
            "C:/x",
            "c:\\x",
            "\\\\srv\\x",
            "",
            "a\0b",
        ] {
            assert!(ws.resolve(bad).is_err(), "{bad:?}");
        }
        assert!(matches!(
            ws.resolve("/etc/passwd"),
            Err(PathError::Absolute(_))
        ));
        assert!(matches!(ws.resolve("../x"), Err(PathError::Escapes(_))));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_must_stay_inside() {
        let d = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.json"), "{}").unwrap();
        std::fs::create_dir(d.path().join("real")).unwrap();
        std::fs::write(d.path().join("real/mcp.json"), "{}").unwrap();
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, d.path().join(name)).unwrap()
        };
        link(&outside.path().join("secret.json"), "out.json");
        link(outside.path(), "outdir");
        link(&d.path().join("real"), "indir");
        link(Path::new("/nonexistent/x"), "dangling");
        let ws = Workspace::new(d.path()).unwrap();
        assert!(matches!(
            ws.resolve("out.json"),
            Err(PathError::SymlinkOutside { .. })
        ));
        assert!(ws.resolve("outdir/secret.json").is_err());
        assert!(ws.resolve("dangling").is_err());
        let (p, _) = ws.resolve("indir/mcp.json").unwrap();
        assert!(ws.contains(&std::fs::canonicalize(p).unwrap()));
        assert!(ws.resolve("missing/dir/x.json").is_ok());
        // Outputs: never through any symlink, even one pointing inside.
        assert!(ws.output("report.sarif", &[]).is_ok());
        assert!(ws.output("new/dir/report.sarif", &[]).is_ok());
        assert!(matches!(
            ws.output("outdir/x.sarif", &[]),
            Err(PathError::SymlinkOutput { .. })
        ));
        assert!(ws.output("indir/x.sarif", &[]).is_err());
        assert!(ws.output("out.json", &[]).is_err());
        assert!(matches!(
            ws.output("/tmp/x.sarif", &[]),
            Err(PathError::OutputOutside(_))
        ));
        let temp = outside.path().to_path_buf();
        let abs = temp.join("r.sarif").to_string_lossy().into_owned();
        assert!(ws.output(&abs, std::slice::from_ref(&temp)).is_ok());
        assert!(ws.output("../x.sarif", &[]).is_err());
    }
}
