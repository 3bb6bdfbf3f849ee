//! `mcptrustchecker.lock`: the approved snapshot of every server's model-visible
//! surface (spec/lockfile.md). Stored as pretty JSON with sorted keys so a change
//! to it reads well in `git diff`; read back with the span-aware parser so a
//! malformed file is an error with its position and each entry's line is known.

use crate::lock::canonical::{PackageRef, Snapshot, digest_value};
use crate::parse::{self, Doc, InputError, ptr_seg};
use crate::surface::{Item, Location};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Default file name, at the repository root.
pub const FILE_NAME: &str = "mcptrustchecker.lock";
/// Version of this file format; a newer one is refused rather than misread.
pub const FORMAT_VERSION: u64 = 1;

/// The four item lists, with their key in the file.
const LISTS: [&str; 4] = ["tools", "prompts", "resources", "resourceTemplates"];

/// One pinned server.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The pinned digest, as written (compared with the acquired surface's digest).
    pub digest: String,
    pub snapshot: Snapshot,
    /// Where the entry is written (SARIF location for drift).
    pub location: Location,
    /// Where each item definition is written: list key → positions in snapshot order.
    pub item_locations: BTreeMap<&'static str, Vec<Option<Location>>>,
    /// The entry exactly as read (or as built): written back unchanged unless its
    /// surface changed. `None` when read for a scan only ([`Lockfile::load`] without `keep_raw`):
    /// the definitions then move into the snapshot instead of being copied.
    raw: Option<Value>,
}

impl Entry {
    /// A fresh entry for an acquired surface.
    pub fn from_snapshot(snapshot: Snapshot) -> Entry {
        let digest = snapshot.digest();
        let raw = entry_json(&digest, &snapshot);
        Entry {
            digest,
            snapshot,
            location: Location::default(),
            item_locations: BTreeMap::new(),
            raw: Some(raw),
        }
    }

    fn items(&self, list: &str) -> &[(String, Value)] {
        match list {
            "tools" => &self.snapshot.tools,
            "prompts" => &self.snapshot.prompts,
            "resources" => &self.snapshot.resources,
            _ => &self.snapshot.resource_templates,
        }
    }

    /// The snapshot's items as surface items located at their lockfile lines.
    pub fn surface_items(&self, list: &'static str) -> Vec<Item> {
        let locs = self.item_locations.get(list);
        self.items(list)
            .iter()
            .enumerate()
            .map(|(i, (n, v))| {
                Item::new(
                    n.clone(),
                    v.clone(),
                    locs.and_then(|l| l.get(i).cloned().flatten()),
                )
            })
            .collect()
    }
}

/// A lockfile in memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lockfile {
    /// Repo-relative display path (used in finding locations).
    pub path: String,
    pub methodology: String,
    pub entries: BTreeMap<String, Entry>,
    /// Config files named by entry ids that do not exist under the root (their entries are stale).
    pub missing_files: BTreeSet<String>,
}

/// The config (or descriptor) path of a server id: `.cursor/mcp.json#github` → `.cursor/mcp.json`.
pub fn id_file(id: &str) -> &str {
    id.split('#').next().unwrap_or(id)
}

fn package_json(p: &PackageRef) -> Value {
    serde_json::to_value(p).unwrap_or(Value::Null)
}

/// The JSON of one entry (keys sorted by serde_json's map; written pretty).
fn entry_json(digest: &str, s: &Snapshot) -> Value {
    let mut source = Map::new();
    source.insert("transport".into(), json!(s.transport));
    if let Value::Object(spawn) = &s.spawn {
        for (k, v) in spawn {
            if k != "transport" {
                source.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(p) = &s.package {
        source.insert("package".into(), package_json(p));
    }
    let mut e = Map::new();
    e.insert("digest".into(), json!(digest));
    e.insert("source".into(), Value::Object(source));
    if let Some(v) = &s.protocol_version {
        e.insert("protocolVersion".into(), json!(v));
    }
    if let Some(v) = &s.capabilities {
        e.insert("capabilities".into(), v.clone());
    }
    if let Some(v) = &s.instructions {
        e.insert("instructions".into(), json!(v));
    }
    for (key, items) in [
        ("tools", &s.tools),
        ("prompts", &s.prompts),
        ("resources", &s.resources),
        ("resourceTemplates", &s.resource_templates),
    ] {
        let list: Vec<Value> = items
            .iter()
            .map(|(n, def)| json!({ "name": n, "digest": digest_value(def), "definition": def }))
            .collect();
        e.insert(key.into(), Value::Array(list));
    }
    crate::lock::canonical::sort_value(&Value::Object(e))
}

impl Lockfile {
    pub fn empty(path: &str) -> Lockfile {
        Lockfile {
            path: path.to_string(),
            methodology: crate::METHODOLOGY.to_string(),
            ..Lockfile::default()
        }
    }

    /// Read and parse a lockfile. `root` resolves entry paths (to find stale
    /// entries); `max_bytes` is the `--max-file-size` limit (a lockfile pinning
    /// 20,000 tools is about 37 MB). Only a reader that writes the file back
    /// (`lock`) needs `keep_raw`: without it each pinned definition moves into
    /// its snapshot instead of being copied, and an entry written anyway comes
    /// out in canonical form.
    pub fn load(
        file: &Path,
        display: &str,
        root: &Path,
        max_bytes: u64,
        keep_raw: bool,
    ) -> Result<Lockfile, InputError> {
        let text = parse::read_text(file, display, max_bytes)?;
        let mut lock = Lockfile::parse_with(&text, display, keep_raw)?;
        // Entry ids name files; they are looked up only inside the root (an
        // absolute id, a `..` or a symlink out counts as missing, unread).
        let ws = crate::acquire::confine::Workspace::new(root).ok();
        let files: BTreeSet<&str> = lock.entries.keys().map(|id| id_file(id)).collect();
        lock.missing_files = files
            .into_iter()
            .filter(|f| {
                !ws.as_ref()
                    .and_then(|ws| ws.resolve(f).ok())
                    .is_some_and(|(p, _)| p.exists())
            })
            .map(str::to_string)
            .collect();
        Ok(lock)
    }

    /// Parse lockfile text; every error names the file and the position.
    pub fn parse(text: &str, display: &str) -> Result<Lockfile, InputError> {
        Self::parse_with(text, display, true)
    }

    fn parse_with(text: &str, display: &str, keep_raw: bool) -> Result<Lockfile, InputError> {
        let mut doc = parse::jsonc(text, display)?;
        // The tree is taken apart: each entry keeps its own raw value (moved, not copied).
        let mut value = std::mem::take(&mut doc.value);
        let at = |ptr: &str, msg: String| {
            let (l, c) = doc.pos(ptr).unwrap_or((1, 1));
            InputError::at(display, l, c, msg)
        };
        let Value::Object(top) = &mut value else {
            return Err(InputError::at(display, 1, 1, "a lockfile is a JSON object"));
        };
        match top.get("lockfileVersion").and_then(Value::as_u64) {
            Some(v) if v <= FORMAT_VERSION && v > 0 => {}
            Some(v) => {
                return Err(at(
                    "/lockfileVersion",
                    format!(
                        "lockfile format {v} is newer than this mcptrustchecker understands ({FORMAT_VERSION}); upgrade it"
                    ),
                ));
            }
            None => {
                return Err(at(
                    "/lockfileVersion",
                    "missing or invalid `lockfileVersion` (not an mcptrustchecker lockfile?)"
                        .into(),
                ));
            }
        }
        let methodology = top
            .get("methodology")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let servers = match top.remove("servers") {
            Some(Value::Object(m)) => m,
            None => return Err(InputError::at(display, 1, 1, "missing `servers` object")),
            Some(_) => return Err(at("/servers", "`servers` must be an object".into())),
        };
        // Entries are independent: read in parallel, the first error in key order wins.
        use rayon::prelude::*;
        let list: Vec<(String, Value)> = servers.into_iter().collect();
        let parsed: Vec<(String, String, Result<Entry, String>)> = list
            .into_par_iter()
            .map(|(id, raw)| {
                let ptr = format!("/servers/{}", ptr_seg(&id));
                let entry = parse_entry(raw, &ptr, &doc, display, keep_raw);
                (id, ptr, entry)
            })
            .collect();
        let mut entries = BTreeMap::new();
        for (id, ptr, entry) in parsed {
            let entry = entry
                .map_err(|m| at(&ptr, format!("entry `{}`: {m}", crate::text::visible(&id))))?;
            entries.insert(id, entry);
        }
        // A 37 MB lockfile's tree takes a while to free: not on the critical path.
        crate::parse::drop_in_background(doc);
        Ok(Lockfile {
            path: display.to_string(),
            methodology,
            entries,
            missing_files: BTreeSet::new(),
        })
    }

    /// The file's text: sorted, pretty, trailing newline. Unchanged entries are written as read.
    pub fn to_text(&self) -> String {
        let servers: Map<String, Value> = self
            .entries
            .iter()
            .map(|(k, e)| {
                let raw = e
                    .raw
                    .clone()
                    .unwrap_or_else(|| entry_json(&e.digest, &e.snapshot));
                (k.clone(), raw)
            })
            .collect();
        let mut top = Map::new();
        top.insert("lockfileVersion".into(), json!(FORMAT_VERSION));
        top.insert("methodology".into(), json!(crate::METHODOLOGY));
        top.insert("servers".into(), Value::Object(servers));
        let mut buf = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(
            &mut buf,
            VisibleFormatter(serde_json::ser::PrettyFormatter::new()),
        );
        // Serialising a Value into memory cannot fail.
        let _ = serde::Serialize::serialize(
            &crate::lock::canonical::sort_value(&Value::Object(top)),
            &mut ser,
        );
        let mut s = String::from_utf8(buf).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Ids of entries whose server is gone: not among `surfaces`, and its file was
    /// read (and declares it no more) or no longer exists. Files that failed to
    /// parse, or were not scanned, keep their entries.
    pub fn stale(
        &self,
        surfaces: &[&str],
        files_read: &BTreeSet<String>,
        files_failed: &BTreeSet<String>,
    ) -> Vec<String> {
        let present: BTreeSet<&str> = surfaces.iter().copied().collect();
        self.entries
            .keys()
            .filter(|id| !present.contains(id.as_str()))
            .filter(|id| {
                let f = id_file(id);
                !files_failed.contains(f)
                    && (files_read.contains(f) || self.missing_files.contains(f))
            })
            .cloned()
            .collect()
    }
}

/// Pretty JSON that writes invisible characters as `\uXXXX` escapes, so an added
/// zero-width or Tags character is visible in a plain `git diff` of the lockfile.
/// The escapes decode to the same strings: digests are unaffected.
struct VisibleFormatter(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for VisibleFormatter {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if crate::text::is_invisible(c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(w, "\\u{:04x}", u)?;
                }
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

fn parse_entry(
    mut raw: Value,
    ptr: &str,
    doc: &Doc,
    display: &str,
    keep_raw: bool,
) -> Result<Entry, String> {
    let obj = raw.as_object().ok_or("must be an object")?;
    let digest = obj
        .get("digest")
        .and_then(Value::as_str)
        .ok_or("missing `digest` string")?
        .to_string();
    let source = obj
        .get("source")
        .and_then(Value::as_object)
        .ok_or("missing `source` object")?;
    let transport = source
        .get("transport")
        .and_then(Value::as_str)
        .ok_or("missing `source.transport`")?
        .to_string();
    let spawn = if let Some(url) = source.get("url") {
        json!({ "url": url, "transport": transport })
    } else if let Some(cmd) = source.get("command") {
        json!({ "command": cmd, "args": source.get("args").cloned().unwrap_or(json!([])) })
    } else {
        Value::Null
    };
    let package = match source.get("package") {
        None | Some(Value::Null) => None,
        Some(p) => Some(
            serde_json::from_value::<PackageRef>(p.clone())
                .map_err(|e| format!("`source.package`: {e}"))?,
        ),
    };
    let opt_str = |k: &str| -> Result<Option<String>, String> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{k}` must be a string")),
        }
    };
    let package = package.map(|mut p| {
        p.name = crate::text::redact_command(&p.name);
        p.spec = crate::text::redact_command(&p.spec);
        p
    });
    // A lockfile written before launch lines were redacted may hold a secret:
    // it is never kept in memory nor written back (see `migrate_redaction`).
    let redacted_spawn = crate::lock::canonical::redact_spawn(&spawn);
    let mut snapshot = Snapshot {
        transport,
        spawn,
        package,
        protocol_version: opt_str("protocolVersion")?,
        capabilities: obj
            .get("capabilities")
            .filter(|v| !v.is_null())
            .map(crate::lock::canonical::sort_value),
        instructions: opt_str("instructions")?,
        ..Snapshot::default()
    };
    let mut item_locations = BTreeMap::new();
    for list in LISTS {
        let items: &mut [Value] = match raw.get_mut(list) {
            None => &mut [],
            Some(Value::Array(a)) => a,
            Some(_) => return Err(format!("`{list}` must be an array")),
        };
        let mut out = Vec::new();
        let mut locs = Vec::new();
        for (i, it) in items.iter_mut().enumerate() {
            let name = it
                .get("name")
                .and_then(Value::as_str)
                .or_else(|| it.get("definition")?.get("name")?.as_str())
                .map(str::to_string);
            let Some(d) = it.get_mut("definition") else {
                return Err(format!("`{list}[{i}]` has no `definition`"));
            };
            let name = name.ok_or_else(|| format!("`{list}[{i}]` has no `name`"))?;
            // Without a raw copy to keep, the definition moves into the snapshot.
            let mut def = if keep_raw { d.clone() } else { d.take() };
            crate::lock::canonical::canonicalize_item(&mut def);
            out.push((name, def));
            locs.push(
                doc.pos(&format!("{ptr}/{list}/{i}/definition"))
                    .map(|(l, c)| Location::new(display, l, c)),
            );
        }
        // Keep the canonical order even if the file was edited by hand.
        let mut paired: Vec<((String, Value), Option<Location>)> =
            out.into_iter().zip(locs).collect();
        // By name; only items sharing a name are ordered by their canonical text.
        paired.sort_by(|a, b| a.0.0.cmp(&b.0.0));
        for run in paired.chunk_by_mut(|a, b| a.0.0 == b.0.0) {
            if run.len() > 1 {
                run.sort_by_cached_key(|p| p.0.1.to_string());
            }
        }
        let (items, locs): (Vec<_>, Vec<_>) = paired.into_iter().unzip();
        match list {
            "tools" => snapshot.tools = items,
            "prompts" => snapshot.prompts = items,
            "resources" => snapshot.resources = items,
            _ => snapshot.resource_templates = items,
        }
        item_locations.insert(list, locs);
    }
    let (line, column) = doc.pos(ptr).unwrap_or((1, 1));
    let mut raw = keep_raw.then_some(raw);
    let mut digest = digest;
    if redacted_spawn != snapshot.spawn {
        digest = migrate_redaction(&mut snapshot, redacted_spawn, digest);
        raw = None;
    }
    Ok(Entry {
        digest,
        snapshot,
        location: Location::new(display, line, column),
        item_locations,
        raw,
    })
}

/// An entry whose launch line held a secret (written before redaction):
/// the snapshot takes the redacted launch line. When the stored digest was the
/// digest of the entry as written (nothing else changed), it becomes the digest
/// of the redacted form, so the server still compares equal and no drift is
/// reported; otherwise it is kept and the difference shows as drift. Either
/// way the raw entry is dropped, so `lock` rewrites it without the secret.
fn migrate_redaction(snapshot: &mut Snapshot, redacted: Value, stored: String) -> String {
    let was_consistent = snapshot.digest() == stored;
    snapshot.spawn = redacted;
    if was_consistent {
        snapshot.digest()
    } else {
        stored
    }
}

/// Where the lockfile is: `--lockfile`, else `mcptrustchecker.lock` at the root.
pub fn lock_path(explicit: Option<&Path>, root: &Path) -> PathBuf {
    explicit
        .map(Path::to_path_buf)
        .unwrap_or_else(|| root.join(FILE_NAME))
}

/// Read the lockfile if there is one. A missing default lockfile is `None`; a
/// missing explicit one, or a malformed one, is an error with its position.
/// `keep_raw`: see [`Lockfile::load`] (only `lock` writes the file back).
pub fn load_lock(
    explicit: Option<&Path>,
    root: &Path,
    max_bytes: u64,
    keep_raw: bool,
) -> Result<Option<Lockfile>, InputError> {
    let path = lock_path(explicit, root);
    let display = crate::acquire::display_path(&path, root);
    if explicit.is_none() {
        // The default lockfile is the repository's: a symlink leaving it is refused.
        let ws = crate::acquire::confine::Workspace::new(root)
            .map_err(|e| InputError::new(&display, e.to_string()))?;
        ws.resolve(FILE_NAME).map_err(|e| {
            InputError::new(&display, format!("{e}; pass --lockfile FILE to use it"))
        })?;
    }
    if !path.exists() {
        return match explicit {
            Some(_) => Err(InputError::new(&display, "lockfile not found")),
            None => Ok(None),
        };
    }
    Lockfile::load(&path, &display, root, max_bytes, keep_raw).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::pin::lock_surfaces;
    use crate::surface::{Coverage, ServerSurface};
    use crate::surface::{Source, Transport};

    pub(crate) fn surface(id: &str, tools: &[(&str, &str)]) -> ServerSurface {
        let source = Source {
            location: Location::new(id_file(id), 1, 1),
            format: "tool-manifest".into(),
            client: None,
        };
        let mut s = ServerSurface::new(
            id.into(),
            "x".into(),
            source,
            Transport::Stdio {
                command: "npx".into(),
                args: vec!["-y".into(), "pkg@1.0.0".into()],
                env_names: vec![],
                cwd: None,
            },
        );
        s.coverage = Coverage::Manifest;
        for (n, d) in tools {
            s.tools.push(Item::new(
                *n,
                json!({"name": n, "description": d, "inputSchema": {"type": "object"}}),
                None,
            ));
        }
        s
    }

    #[test]
    fn round_trip_keeps_digests_and_positions() {
        let mut lock = Lockfile::empty("mcptrustchecker.lock");
        let s = surface(
            "a/mcp.json#x",
            &[("b", "two\u{E0041}"), ("a", "one\u{200B}")],
        );
        lock_surfaces(&mut lock, std::slice::from_ref(&s), &[]);
        let text = lock.to_text();
        assert!(text.ends_with("}\n"));
        // Invisible characters are escaped, so `git diff` shows them.
        assert!(
            text.contains("one\\u200b") && text.contains("two\\udb40\\udc41"),
            "{text}"
        );
        assert!(!text.contains('\u{200B}'));
        let back = Lockfile::parse(&text, "mcptrustchecker.lock").unwrap();
        let e = &back.entries["a/mcp.json#x"];
        assert_eq!(e.digest, crate::lock::canonical::surface_digest(&s));
        assert_eq!(e.snapshot.digest(), e.digest);
        assert!(e.location.line > 1);
        let tl = e.item_locations["tools"][0].as_ref().unwrap();
        assert!(tl.line > e.location.line);
        assert_eq!(back.to_text(), text);
    }

    #[test]
    fn scan_read_moves_definitions_and_equals_the_full_read() {
        let mut lock = Lockfile::empty("mcptrustchecker.lock");
        let s = surface("a/mcp.json#x", &[("b", "two"), ("a", "one"), ("a", "dup")]);
        lock_surfaces(&mut lock, std::slice::from_ref(&s), &[]);
        // A hand-edited entry: volatile keys and volatile `_meta` inside a definition.
        let mut v: Value = serde_json::from_str(&lock.to_text()).unwrap();
        let def = &mut v["servers"]["a/mcp.json#x"]["tools"][0]["definition"];
        def["nextCursor"] = json!("c2");
        def["_meta"] = json!({"progressToken": 7, "keep": {"z": 1, "a": 2}});
        let text = serde_json::to_string_pretty(&v).unwrap();
        let full = Lockfile::parse(&text, "l").unwrap();
        let scan = Lockfile::parse_with(&text, "l", false).unwrap();
        let (f, g) = (&full.entries["a/mcp.json#x"], &scan.entries["a/mcp.json#x"]);
        assert_eq!(f.snapshot, g.snapshot);
        assert_eq!(
            (&f.digest, &f.item_locations),
            (&g.digest, &g.item_locations)
        );
        assert_eq!(
            g.snapshot.tools[0].1["_meta"],
            json!({"keep": {"a": 2, "z": 1}})
        );
        assert!(g.snapshot.tools[0].1.get("nextCursor").is_none());
        assert!(g.raw.is_none() && f.raw.is_some());
        // Written anyway, a scan-read entry comes out canonical (no volatile keys).
        let again = Lockfile::parse(&scan.to_text(), "l").unwrap();
        assert_eq!(again.entries["a/mcp.json#x"].snapshot, f.snapshot);
    }

    /// A lockfile written before launch lines were redacted (raw token in
    /// `source.args`, digest over the raw form) still compares equal to the
    /// surface, and is rewritten without the secret; one without a secret is
    /// byte for byte what it was.
    #[test]
    fn old_entries_with_a_secret_migrate_and_clean_ones_do_not_move() {
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let mut s = surface("a/mcp.json#x", &[("t", "d")]);
        s.transport = crate::surface::Transport::Stdio {
            command: "npx".into(),
            args: vec![
                "-y".into(),
                "pkg@1.0.0".into(),
                "--token".into(),
                secret.into(),
            ],
            env_names: vec![],
            cwd: None,
        };
        // The entry as the old writer made it: raw spawn, digest over it.
        let mut raw = Snapshot::of(&s);
        raw.spawn = json!({"command": "npx", "args": ["-y", "pkg@1.0.0", "--token", secret]});
        let old_digest = raw.digest();
        let mut lock = Lockfile::empty("l");
        lock.entries.insert(
            s.id.clone(),
            Entry {
                digest: old_digest.clone(),
                raw: Some(entry_json(&old_digest, &raw)),
                ..Entry::from_snapshot(raw.clone())
            },
        );
        let old_text = lock.to_text();
        assert!(old_text.contains(secret));
        let back = Lockfile::parse(&old_text, "l").unwrap();
        let e = &back.entries[&s.id];
        assert_eq!(
            e.digest,
            crate::lock::canonical::surface_digest(&s),
            "no drift"
        );
        assert_ne!(e.digest, old_digest);
        let written = back.to_text();
        assert!(!written.contains(secret), "{written}");
        assert_eq!(
            Lockfile::parse(&written, "l").unwrap().entries[&s.id].digest,
            e.digest
        );
        // A clean entry: digest and text unchanged.
        let clean = surface("b.json", &[("t", "d")]);
        let mut lock = Lockfile::empty("l");
        lock_surfaces(&mut lock, std::slice::from_ref(&clean), &[]);
        let text = lock.to_text();
        let back = Lockfile::parse(&text, "l").unwrap();
        assert_eq!(back.to_text(), text);
        assert_eq!(
            back.entries["b.json"].digest,
            crate::lock::canonical::surface_digest(&clean)
        );
    }

    #[test]
    fn malformed_lockfile_errors_with_position() {
        let err = Lockfile::parse(
            "{\n  \"lockfileVersion\": 1,\n  \"servers\": {\n    \"x\": [}\n}\n",
            "mcptrustchecker.lock",
        )
        .unwrap_err();
        assert_eq!(err.path, "mcptrustchecker.lock");
        assert_eq!(err.line, Some(4));
        let err = Lockfile::parse(
            "{\"lockfileVersion\": 1,\n \"servers\": {\"x\": {\"digest\": 3}}}",
            "l",
        )
        .unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("digest"), "{}", err.message);
        let err = Lockfile::parse("{\"lockfileVersion\": 99, \"servers\": {}}", "l").unwrap_err();
        assert!(err.message.contains("newer"));
    }

    #[test]
    fn lock_touches_only_changed_entries_and_keeps_unacquired() {
        let mut lock = Lockfile::empty("l");
        let a = surface("a.json", &[("t", "x")]);
        let b = surface("b.json", &[("t", "y")]);
        let r = lock_surfaces(&mut lock, &[a.clone(), b.clone()], &[]);
        assert_eq!(r.added.len(), 2);
        let mut b2 = b.clone();
        b2.tools[0].raw["description"] = json!("y changed");
        let mut a_cfg = a.clone();
        a_cfg.coverage = Coverage::ConfigOnly;
        a_cfg.tools.clear();
        let before = lock.entries["a.json"].clone();
        let r = lock_surfaces(&mut lock, &[a_cfg, b2], &[]);
        assert_eq!(r.updated, vec!["b.json".to_string()]);
        assert_eq!(r.kept.len(), 1);
        assert_eq!(lock.entries["a.json"], before);
        let r = lock_surfaces(&mut lock, &[], &["a.json".into()]);
        assert_eq!(r.removed, vec!["a.json".to_string()]);
    }

    #[test]
    fn stale_only_for_read_or_missing_files() {
        let mut lock = Lockfile::empty("l");
        lock_surfaces(
            &mut lock,
            &[
                surface("a.json#x", &[]),
                surface("b.json#y", &[]),
                surface("c.json#z", &[]),
            ],
            &[],
        );
        lock.missing_files.insert("c.json".into());
        let read: BTreeSet<String> = ["a.json".to_string()].into();
        assert_eq!(
            lock.stale(&[], &read, &BTreeSet::new()),
            vec!["a.json#x".to_string(), "c.json#z".to_string()]
        );
        assert_eq!(
            lock.stale(&["a.json#x"], &read, &read),
            vec!["c.json#z".to_string()]
        );
    }
}
