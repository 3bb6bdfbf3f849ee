//! Stage 0, acquisition: find every MCP client config and server descriptor,
//! recognise it by content (and conventional path), and turn each server into a
//! [`ServerSurface`]. Bad input never stops the scan: it becomes an
//! [`InputError`] in the report and the rest goes on.

pub mod configs;
pub mod confine;
pub mod installed;
pub mod live;
pub mod manifest;
pub mod package;
pub mod registry;

use crate::finding::Finding;
use crate::parse::{self, Doc, InputError};
use crate::surface::ServerSurface;
use std::path::{Path, PathBuf};

/// Options for acquisition from files.
#[derive(Debug, Clone)]
pub struct AcquireOptions {
    /// Repository root: ids and report paths are relative to it.
    pub root: PathBuf,
    pub max_file_bytes: u64,
    /// Most files read from one directory walk.
    pub max_files: usize,
    /// Every file, named or found, must resolve inside `root` (CI: the paths
    /// come from a pull request). A named file that is a symlink leaving the
    /// root is skipped with a note, as the directory walk skips one.
    pub confine: bool,
}

impl Default for AcquireOptions {
    fn default() -> Self {
        AcquireOptions {
            root: PathBuf::from("."),
            max_file_bytes: parse::DEFAULT_MAX_FILE_BYTES,
            max_files: 50_000,
            confine: false,
        }
    }
}

/// What acquisition produced.
#[derive(Debug, Default)]
pub struct Acquired {
    pub surfaces: Vec<ServerSurface>,
    /// Findings raised while reading (ambiguous entries, duplicates).
    pub findings: Vec<Finding>,
    pub errors: Vec<InputError>,
    /// Every file recognised, with what it was recognised as.
    pub files: Vec<(String, FileKind)>,
    /// Files skipped with a reason (symlinks out of the tree, unrecognised content).
    pub skipped: Vec<(String, String)>,
}

/// What a file was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    ClientConfig,
    RegistryServerJson,
    McpbManifest,
    ToolManifest,
    DockerServerYaml,
    Smithery,
    Lockfile,
    Policy,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::ClientConfig => "client-config",
            FileKind::RegistryServerJson => "registry-server-json",
            FileKind::McpbManifest => "mcpb-manifest",
            FileKind::ToolManifest => "tool-manifest",
            FileKind::DockerServerYaml => "docker-server-yaml",
            FileKind::Smithery => "smithery",
            FileKind::Lockfile => "lockfile",
            FileKind::Policy => "policy",
        }
    }
}

/// Find the repository root for `start`: the nearest ancestor holding `.git`,
/// else the current directory.
pub fn find_root(start: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let mut dir = if abs.is_dir() {
        abs.clone()
    } else {
        abs.parent().map(Path::to_path_buf).unwrap_or(abs.clone())
    };
    loop {
        if dir.join(".git").exists() {
            return dir;
        }
        match dir.parent() {
            Some(p) => dir = p.to_path_buf(),
            None => break,
        }
    }
    std::env::current_dir()
        .ok()
        .and_then(|d| std::fs::canonicalize(d).ok())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// `path` relative to `root` with `/` separators (as given when outside the root).
pub fn display_path(path: &Path, root: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let rel = abs
        .strip_prefix(&root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.to_path_buf());
    let s = rel.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

/// Directories never descended into.
const SKIP_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    ".hg",
    ".svn",
];

/// Acquire from files and directories (no live connection).
pub fn acquire_paths(paths: &[PathBuf], opts: &AcquireOptions) -> Acquired {
    let mut out = Acquired::default();
    let mut files: Vec<(PathBuf, bool)> = Vec::new();
    let ws = if opts.confine {
        match confine::Workspace::new(&opts.root) {
            Ok(ws) => Some(ws),
            Err(e) => {
                out.errors
                    .push(InputError::new(&opts.root.to_string_lossy(), e.to_string()));
                return out;
            }
        }
    } else {
        None
    };
    for p in paths {
        if let Some(ws) = &ws
            && let Err(e) = ws.resolve_path(p)
        {
            out.skipped
                .push((display_path(p, &opts.root), format!("not read: {e}")));
            continue;
        }
        match std::fs::symlink_metadata(p) {
            Err(e) => out.errors.push(InputError::new(
                &p.to_string_lossy(),
                format!("cannot read: {e}"),
            )),
            Ok(m) if m.is_dir() => walk(p, opts, &mut files, &mut out),
            Ok(_) => files.push((p.clone(), true)),
        }
    }
    files.sort();
    files.dedup();
    for (path, explicit) in files {
        read_one(&path, explicit, opts, &mut out);
    }
    out.surfaces.sort_by(|a, b| a.id.cmp(&b.id));
    // Two files can never share an id, but one file could repeat a name across
    // profiles; keep ids unique so lockfile keys stay unambiguous.
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for s in &mut out.surfaces {
        let n = seen.entry(s.id.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            s.id = format!("{}~{}", s.id, n);
        }
    }
    out.files.sort();
    out.skipped.sort();
    out.errors
        .sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    out
}

fn walk(dir: &Path, opts: &AcquireOptions, files: &mut Vec<(PathBuf, bool)>, out: &mut Acquired) {
    let canon_dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut count = 0usize;
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            !(e.file_type().is_dir()
                && e.depth() > 0
                && SKIP_DIRS.contains(&e.file_name().to_string_lossy().as_ref()))
        });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let p = e
                    .path()
                    .map(|p| p.to_string_lossy().to_string())
                    .unwrap_or_default();
                out.errors
                    .push(InputError::new(&p, format!("cannot read: {e}")));
                continue;
            }
        };
        let path = entry.path();
        if entry.file_type().is_symlink() {
            let disp = display_path(path, &opts.root);
            match std::fs::canonicalize(path) {
                Ok(target) if target.starts_with(&canon_dir) && target.is_file() => {
                    if is_candidate(path) {
                        files.push((path.to_path_buf(), false));
                    }
                }
                Ok(target) if target.starts_with(&canon_dir) => {}
                _ => out.skipped.push((
                    disp,
                    "symlink pointing outside the scanned tree: not followed".into(),
                )),
            }
            continue;
        }
        if !entry.file_type().is_file() || !is_candidate(path) {
            continue;
        }
        count += 1;
        if count > opts.max_files {
            out.errors.push(InputError::new(
                &display_path(dir, &opts.root),
                format!(
                    "more than {} candidate files: the rest were not read",
                    opts.max_files
                ),
            ));
            break;
        }
        files.push((path.to_path_buf(), false));
    }
}

/// Whether a file found in a directory walk is worth reading: conventional MCP
/// config and descriptor names (content decides what it actually is).
pub fn is_candidate(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let full = path
        .to_string_lossy()
        .replace('\\', "/")
        .to_ascii_lowercase();
    let ext_ok = [
        ".json",
        ".jsonc",
        ".toml",
        ".yaml",
        ".yml",
        ".md",
        ".frontmatter",
        ".lock",
    ]
    .iter()
    .any(|e| name.ends_with(e));
    if !ext_ok {
        return false;
    }
    if name == "mcptrustchecker.lock" || name == "mcptrustchecker.toml" {
        return true;
    }
    if name.ends_with(".lock") {
        return false;
    }
    if name.ends_with(".md") {
        return name.ends_with(".agent.md") || (parent == "agents" && full.contains(".github/"));
    }
    const SUFFIXES: &[&str] = &[
        "mcp.json",
        "mcp.jsonc",
        "mcp_config.json",
        "mcp_settings.json",
        "mcp-config.json",
        "desktop_config.json",
        "server.json",
        "manifest.json",
        "tools.json",
        "opencode.json",
        "opencode.jsonc",
        "gemini-extension.json",
        "smithery.yaml",
        "smithery.yml",
        "server.yaml",
        "recipe.yaml",
        "recipe.yml",
        ".frontmatter",
        "devcontainer.json",
    ];
    if SUFFIXES.iter().any(|s| name.ends_with(s)) || name.contains("mcp") {
        return true;
    }
    let in_dir = |d: &str| full.contains(&format!("/{d}/")) || full.starts_with(&format!("{d}/"));
    match name.as_str() {
        "settings.json" | "settings.local.json" => {
            [
                "vscode", ".vscode", ".zed", ".gemini", ".claude", "zed", "gemini",
            ]
            .iter()
            .any(|d| in_dir(d))
                || full.ends_with("_settings.json")
        }
        "config.toml" => full.contains("codex"),
        "config.yaml" | "config.yml" | "config.json" => {
            full.contains("goose") || full.contains(".continue")
        }
        "plugin.json" => full.contains("-plugin/"),
        "default.json" => in_dir(".amazonq"),
        _ => {
            in_dir("mcpServers")
                || in_dir(".continue/mcpservers")
                || in_dir(".kiro/agents")
                || in_dir("cli-agents")
                || in_dir(".goose/recipes")
                || in_dir(".opencode")
                || name.ends_with("settings.json")
                || name.ends_with("config.toml")
                || name.ends_with("config.yaml")
                || name.ends_with("plugin.json")
        }
    }
}

/// Parse a file by its extension (explicit files of unknown type: JSON, then YAML).
pub fn parse_file(text: &str, display: &str) -> Result<Doc, InputError> {
    let lower = display.to_ascii_lowercase();
    if lower.ends_with(".toml") {
        parse::toml(text, display)
    } else if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        parse::yaml(text, display)
    } else if lower.ends_with(".md") || lower.ends_with(".frontmatter") {
        match parse::front_matter(text) {
            Some((y, off)) => parse::yaml_with_offset(y, display, off),
            None => Err(InputError::at(
                display,
                1,
                1,
                "Markdown file without YAML front matter",
            )),
        }
    } else if lower.ends_with(".json") || lower.ends_with(".jsonc") || lower.ends_with(".lock") {
        parse::jsonc(text, display)
    } else {
        parse::jsonc(text, display).or_else(|e| parse::yaml(text, display).map_err(|_| e))
    }
}

fn read_one(path: &Path, explicit: bool, opts: &AcquireOptions, out: &mut Acquired) {
    let display = display_path(path, &opts.root);
    let text = match parse::read_text(path, &display, opts.max_file_bytes) {
        Ok(t) => t,
        Err(e) => {
            out.errors.push(e);
            return;
        }
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    // The lockfile is read (with positions) by stage 7; here it is only checked.
    // Strict JSON, as `lock` writes it, is validated without building a tree;
    // anything else goes through the located parser for its error.
    if name == "mcptrustchecker.lock"
        && serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok()
    {
        out.files.push((display, FileKind::Lockfile));
        return;
    }
    let mut doc = match parse_file(&text, &display) {
        Ok(d) => d,
        Err(e) => {
            out.errors.push(e);
            return;
        }
    };
    if name == "mcptrustchecker.lock" {
        out.files.push((display, FileKind::Lockfile));
        return;
    }
    if name == "mcptrustchecker.toml" {
        out.files.push((display, FileKind::Policy));
        return;
    }
    let before = out.surfaces.len();
    let kind = if let Some(kind) = manifest::read(&mut doc, &display, out) {
        Some(kind)
    } else if configs::read(&doc, &display, out) {
        Some(FileKind::ClientConfig)
    } else {
        None
    };
    // The readers copied what they need: a large document (and its text) is freed
    // off the critical path; small ones are not worth a thread.
    if text.len() > 1 << 20 {
        crate::parse::drop_in_background((doc, text));
    }
    match kind {
        Some(k) => {
            out.files.push((display.clone(), k));
            if out.surfaces.len() == before && k == FileKind::ClientConfig {
                out.skipped
                    .push((display, "client config declares no servers".into()));
            }
        }
        None if explicit => out.errors.push(InputError::new(
            &display,
            "not recognised as an MCP client config, server descriptor or tool manifest",
        )),
        None => out.skipped.push((
            display,
            "no MCP servers, tools or descriptor in this file".into(),
        )),
    }
}
