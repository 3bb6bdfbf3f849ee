//! The semantic catalog diff: what a reviewer needs to read about a change to a
//! server's surface (tool added, description changed, required argument removed,
//! annotation flipped …). Computed by the lockfile stage, rendered by the
//! terminal and Markdown reports and by the Action's PR comment.

use serde::Serialize;

/// One kind of semantic change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    ToolAdded,
    ToolRemoved,
    TitleChanged,
    DescriptionChanged,
    PropertyAdded,
    PropertyRemoved,
    TypeChanged,
    EnumChanged,
    PatternChanged,
    DefaultChanged,
    MadeRequired,
    MadeOptional,
    SchemaChanged,
    AnnotationChanged,
    InstructionsChanged,
    PromptAdded,
    PromptRemoved,
    PromptChanged,
    ResourceAdded,
    ResourceRemoved,
    ResourceChanged,
    CapabilitiesChanged,
    ProtocolVersionChanged,
    SpawnChanged,
    PackageVersionChanged,
    ServerAdded,
    ServerRemoved,
}

/// A piece of a word-level diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", content = "text", rename_all = "lowercase")]
pub enum WordPart {
    Equal(String),
    Insert(String),
    Delete(String),
}

/// One change, about one item (a tool, prompt, resource) or the server itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// `tools[send_email]`, `prompts[p]`, or `None` for server-level changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// Field path inside the item, e.g. `inputSchema.properties.bcc.default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// One human line, already safe to print (invisible characters as `<U+XXXX>`).
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Word-level diff of text changes (descriptions, instructions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<WordPart>,
    /// Only whitespace differs.
    pub whitespace_only: bool,
}

/// All semantic changes of one server between two surfaces.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CatalogDiff {
    pub server: String,
    pub changes: Vec<Change>,
}

impl CatalogDiff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
    /// Every change is whitespace-only (still drift, but labelled as such).
    pub fn whitespace_only(&self) -> bool {
        !self.changes.is_empty() && self.changes.iter().all(|c| c.whitespace_only)
    }
}

// ---------------------------------------------------------------------------
// Computation

use crate::canonical::Snapshot;
use crate::text::{truncate_chars, visible};
use serde_json::Value;
use std::collections::BTreeSet;

/// Longest text (in words) diffed word by word; longer texts are shown as one
/// replacement, so a hostile megabyte description cannot make the diff slow.
const MAX_DIFF_WORDS: usize = 5_000;
/// Longest before/after value kept in a change.
const MAX_VALUE_CHARS: usize = 400;

impl Change {
    fn new(kind: ChangeKind, item: Option<&str>, field: Option<String>, summary: String) -> Change {
        Change {
            kind,
            item: item.map(str::to_string),
            field,
            summary,
            before: None,
            after: None,
            words: Vec::new(),
            whitespace_only: false,
        }
    }
    fn values(mut self, before: Option<&Value>, after: Option<&Value>) -> Change {
        self.before = before.map(show_value);
        self.after = after.map(show_value);
        self
    }
    /// A text change: word diff, before/after, whitespace-only label.
    fn text(mut self, before: &str, after: &str) -> Change {
        self.words = word_diff(before, after);
        self.before = Some(truncate_chars(&visible(before), MAX_VALUE_CHARS));
        self.after = Some(truncate_chars(&visible(after), MAX_VALUE_CHARS));
        self.whitespace_only = whitespace_only(before, after);
        if self.whitespace_only {
            self.summary.push_str(" (whitespace only)");
        }
        self
    }
}

/// A JSON value shown safely on one line.
fn show_value(v: &Value) -> String {
    let s = match v {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    };
    truncate_chars(&visible(&s), MAX_VALUE_CHARS)
}

/// Only ASCII whitespace differs (a no-break space or zero-width character is not whitespace here).
pub fn whitespace_only(a: &str, b: &str) -> bool {
    a != b && a.split_ascii_whitespace().eq(b.split_ascii_whitespace())
}

/// Word-level diff with invisible characters made visible (`<U+XXXX>`).
pub fn word_diff(old: &str, new: &str) -> Vec<WordPart> {
    let mut parts: Vec<WordPart> = Vec::new();
    let mut push = |op: similar::ChangeTag, text: &str| {
        let text = visible(text);
        match (parts.last_mut(), op) {
            (Some(WordPart::Equal(s)), similar::ChangeTag::Equal)
            | (Some(WordPart::Insert(s)), similar::ChangeTag::Insert)
            | (Some(WordPart::Delete(s)), similar::ChangeTag::Delete) => s.push_str(&text),
            (_, similar::ChangeTag::Equal) => parts.push(WordPart::Equal(text)),
            (_, similar::ChangeTag::Insert) => parts.push(WordPart::Insert(text)),
            (_, similar::ChangeTag::Delete) => parts.push(WordPart::Delete(text)),
        }
    };
    let words = |s: &str| s.split_whitespace().count();
    if words(old) > MAX_DIFF_WORDS || words(new) > MAX_DIFF_WORDS {
        push(similar::ChangeTag::Delete, old);
        push(similar::ChangeTag::Insert, new);
    } else {
        let d = similar::TextDiff::from_words(old, new);
        for c in d.iter_all_changes() {
            push(c.tag(), c.value());
        }
    }
    parts
}

/// The semantic diff between two snapshots of one server (`old` → `new`).
pub fn diff_surfaces(server: &str, old: &Snapshot, new: &Snapshot) -> CatalogDiff {
    let mut out = Vec::new();
    launch_changes(old, new, &mut out);
    if old.protocol_version != new.protocol_version {
        let v = |p: &Option<String>| {
            p.as_ref()
                .map(|s| Value::String(s.clone()))
                .unwrap_or(Value::Null)
        };
        out.push(
            Change::new(
                ChangeKind::ProtocolVersionChanged,
                None,
                Some("protocolVersion".into()),
                "protocol version changed".into(),
            )
            .values(
                Some(&v(&old.protocol_version)),
                Some(&v(&new.protocol_version)),
            ),
        );
    }
    if old.instructions != new.instructions {
        let (a, b) = (
            old.instructions.as_deref().unwrap_or(""),
            new.instructions.as_deref().unwrap_or(""),
        );
        out.push(
            Change::new(
                ChangeKind::InstructionsChanged,
                None,
                Some("instructions".into()),
                "server instructions changed".into(),
            )
            .text(a, b),
        );
    }
    if old.capabilities != new.capabilities {
        let null = Value::Null;
        leaf_changes(
            old.capabilities.as_ref().unwrap_or(&null),
            new.capabilities.as_ref().unwrap_or(&null),
            "capabilities",
            &mut |path, a, b| {
                out.push(
                    Change::new(
                        ChangeKind::CapabilitiesChanged,
                        None,
                        Some(path.to_string()),
                        format!("{} changed", visible(path)),
                    )
                    .values(a, b),
                );
            },
        );
    }
    items_diff("tools", &old.tools, &new.tools, &mut out);
    items_diff("prompts", &old.prompts, &new.prompts, &mut out);
    items_diff("resources", &old.resources, &new.resources, &mut out);
    items_diff(
        "resourceTemplates",
        &old.resource_templates,
        &new.resource_templates,
        &mut out,
    );
    CatalogDiff {
        server: server.to_string(),
        changes: out,
    }
}

/// Spawn command and package version changes. A version bump that is the only
/// spawn difference is reported once, as a package version change.
fn launch_changes(old: &Snapshot, new: &Snapshot, out: &mut Vec<Change>) {
    let mut version_only = false;
    if let (Some(a), Some(b)) = (&old.package, &new.package)
        && a.registry == b.registry
        && a.name == b.name
        && a.version != b.version
    {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(unversioned)".into());
        out.push(
            Change::new(
                ChangeKind::PackageVersionChanged,
                None,
                Some("package".into()),
                format!(
                    "package {} version {} → {}",
                    visible(&a.name),
                    visible(&show(&a.version)),
                    visible(&show(&b.version))
                ),
            )
            .values(
                Some(&Value::String(show(&a.version))),
                Some(&Value::String(show(&b.version))),
            ),
        );
        let replaced = replace_strings(&old.spawn, &a.spec, &b.spec);
        version_only = replaced == new.spawn;
    }
    if old.spawn != new.spawn && !version_only {
        out.push(
            Change::new(
                ChangeKind::SpawnChanged,
                None,
                Some("spawn".into()),
                format!(
                    "spawn changed: {} → {}",
                    command_line(&old.spawn),
                    command_line(&new.spawn)
                ),
            )
            .values(Some(&old.spawn), Some(&new.spawn)),
        );
    }
}

fn replace_strings(v: &Value, from: &str, to: &str) -> Value {
    match v {
        Value::String(s) if s == from => Value::String(to.to_string()),
        Value::Array(a) => Value::Array(a.iter().map(|x| replace_strings(x, from, to)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), replace_strings(x, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `npx -y pkg` or the URL, for one summary line.
fn command_line(spawn: &Value) -> String {
    let s = if let Some(url) = spawn.get("url").and_then(Value::as_str) {
        url.to_string()
    } else if let Some(cmd) = spawn.get("command").and_then(Value::as_str) {
        let args: Vec<&str> = spawn
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        std::iter::once(cmd)
            .chain(args)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        "(none)".to_string()
    };
    truncate_chars(&visible(&s), 200)
}

/// Per-kind change names: (added, removed, changed).
fn kinds(list: &str) -> (ChangeKind, ChangeKind, Option<ChangeKind>) {
    match list {
        "tools" => (ChangeKind::ToolAdded, ChangeKind::ToolRemoved, None),
        "prompts" => (
            ChangeKind::PromptAdded,
            ChangeKind::PromptRemoved,
            Some(ChangeKind::PromptChanged),
        ),
        _ => (
            ChangeKind::ResourceAdded,
            ChangeKind::ResourceRemoved,
            Some(ChangeKind::ResourceChanged),
        ),
    }
}

fn singular(list: &str) -> &'static str {
    match list {
        "tools" => "tool",
        "prompts" => "prompt",
        "resources" => "resource",
        _ => "resource template",
    }
}

fn items_diff(list: &str, old: &[(String, Value)], new: &[(String, Value)], out: &mut Vec<Change>) {
    let (added, removed, _) = kinds(list);
    let names: BTreeSet<&String> = old.iter().chain(new.iter()).map(|(n, _)| n).collect();
    for name in names {
        let a: Vec<&Value> = old
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v)
            .collect();
        let b: Vec<&Value> = new
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v)
            .collect();
        // Pair equal definitions first (repeated names), then the rest in order.
        let mut a_left: Vec<&Value> = a.iter().copied().filter(|x| !b.contains(x)).collect();
        let mut b_left: Vec<&Value> = b.iter().copied().filter(|x| !a.contains(x)).collect();
        let item = format!("{list}[{name}]");
        let shown = visible(name);
        while !a_left.is_empty() && !b_left.is_empty() {
            item_changes(list, &item, a_left.remove(0), b_left.remove(0), out);
        }
        for _ in a_left {
            out.push(Change::new(
                removed,
                Some(&item),
                None,
                format!("{} {shown} removed", singular(list)),
            ));
        }
        for v in b_left {
            let what = v
                .get("description")
                .and_then(Value::as_str)
                .map(|d| format!(": {}", truncate_chars(&visible(d), 120)))
                .unwrap_or_default();
            out.push(Change::new(
                added,
                Some(&item),
                None,
                format!("{} {shown} added{what}", singular(list)),
            ));
        }
    }
}

/// Changes inside one item (matched by name).
fn item_changes(list: &str, item: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    let (_, _, changed) = kinds(list);
    let get = |v: &'_ Value, k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    let keys: BTreeSet<String> = [a, b]
        .iter()
        .filter_map(|v| v.as_object())
        .flat_map(|m| m.keys().cloned())
        .collect();
    if keys.is_empty() {
        // Not objects: compare whole.
        leaf_changes(a, b, "", &mut |p, x, y| {
            out.push(generic(changed, item, p, x, y))
        });
        return;
    }
    for key in keys {
        let (x, y) = (get(a, &key), get(b, &key));
        if x == y {
            continue;
        }
        match (list, key.as_str()) {
            ("tools", "title") | (_, "description") if x.is_string() || y.is_string() => {
                let kind = if key == "title" {
                    ChangeKind::TitleChanged
                } else {
                    ChangeKind::DescriptionChanged
                };
                let kind = if list == "tools" {
                    kind
                } else {
                    changed.unwrap_or(kind)
                };
                out.push(
                    Change::new(
                        kind,
                        Some(item),
                        Some(key.clone()),
                        format!("{} {key} changed", visible(item)),
                    )
                    .text(x.as_str().unwrap_or(""), y.as_str().unwrap_or("")),
                );
            }
            ("tools", "inputSchema" | "outputSchema") => schema_changes(item, &key, &x, &y, out),
            ("tools", "annotations") => {
                leaf_changes(&x, &y, "annotations", &mut |p, u, v| {
                    let show = |o: Option<&Value>| {
                        o.map(|v| visible(&v.to_string()))
                            .unwrap_or_else(|| "unset".into())
                    };
                    out.push(
                        Change::new(
                            ChangeKind::AnnotationChanged,
                            Some(item),
                            Some(p.to_string()),
                            format!(
                                "{} {} {} → {}",
                                visible(item),
                                visible(p.trim_start_matches("annotations.")),
                                show(u),
                                show(v)
                            ),
                        )
                        .values(u, v),
                    );
                });
            }
            _ => leaf_changes(&x, &y, &key, &mut |p, u, v| {
                out.push(generic(changed, item, p, u, v))
            }),
        }
    }
}

/// Any other field change: the item's "changed" kind (tools: schema/other field).
fn generic(
    changed: Option<ChangeKind>,
    item: &str,
    path: &str,
    a: Option<&Value>,
    b: Option<&Value>,
) -> Change {
    let kind = changed.unwrap_or(ChangeKind::SchemaChanged);
    let field = (!path.is_empty()).then(|| path.to_string());
    let label = if path.is_empty() {
        visible(item)
    } else {
        format!("{} {}", visible(item), visible(path))
    };
    match (a, b) {
        (Some(Value::String(x)), Some(Value::String(y))) => {
            Change::new(kind, Some(item), field, format!("{label} changed")).text(x, y)
        }
        (None, Some(_)) => {
            Change::new(kind, Some(item), field, format!("{label} added")).values(a, b)
        }
        (Some(_), None) => {
            Change::new(kind, Some(item), field, format!("{label} removed")).values(a, b)
        }
        _ => Change::new(kind, Some(item), field, format!("{label} changed")).values(a, b),
    }
}

/// Called with (path, before, after) for each differing leaf.
type LeafFn<'f> = dyn FnMut(&str, Option<&Value>, Option<&Value>) + 'f;

/// Walk two values and report each differing leaf (missing = `None`). Arrays of
/// different lengths, or of different types, are one change.
fn leaf_changes(a: &Value, b: &Value, path: &str, f: &mut LeafFn) {
    fn walk(a: Option<&Value>, b: Option<&Value>, path: &str, depth: usize, f: &mut LeafFn) {
        if a == b {
            return;
        }
        let join = |k: &str| {
            if path.is_empty() {
                k.to_string()
            } else {
                format!("{path}.{k}")
            }
        };
        match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y)))
                if depth < crate::surface::MAX_WALK_DEPTH =>
            {
                let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
                for k in keys {
                    walk(x.get(k), y.get(k), &join(k), depth + 1, f);
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y)))
                if x.len() == y.len() && depth < crate::surface::MAX_WALK_DEPTH =>
            {
                for (i, (u, v)) in x.iter().zip(y).enumerate() {
                    walk(Some(u), Some(v), &format!("{path}[{i}]"), depth + 1, f);
                }
            }
            _ => f(path, a.filter(|v| !v.is_null()), b.filter(|v| !v.is_null())),
        }
    }
    walk(Some(a), Some(b), path, 0, f)
}

/// Schema keys with their own change kind.
const SCHEMA_KEYS: &[(&str, ChangeKind)] = &[
    ("type", ChangeKind::TypeChanged),
    ("enum", ChangeKind::EnumChanged),
    ("pattern", ChangeKind::PatternChanged),
    ("default", ChangeKind::DefaultChanged),
];

/// JSON Schema changes: properties added/removed, type/enum/pattern/default,
/// required flips, descriptions (word diff); anything else as a schema change.
fn schema_changes(item: &str, path: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    schema_walk(item, path, a, b, 0, out)
}

fn schema_walk(item: &str, path: &str, a: &Value, b: &Value, depth: usize, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    let (Some(x), Some(y)) = (a.as_object(), b.as_object()) else {
        out.push(generic(
            None,
            item,
            path,
            Some(a).filter(|v| !v.is_null()),
            Some(b).filter(|v| !v.is_null()),
        ));
        return;
    };
    if depth > crate::surface::MAX_WALK_DEPTH {
        out.push(generic(None, item, path, Some(a), Some(b)));
        return;
    }
    let empty = serde_json::Map::new();
    let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
    for key in keys {
        let (u, v) = (x.get(key), y.get(key));
        if u == v {
            continue;
        }
        let at = format!("{path}.{key}");
        let label = format!("{} {}", visible(item), visible(&at));
        match key.as_str() {
            "properties" => {
                let (p, q) = (
                    u.and_then(Value::as_object).unwrap_or(&empty),
                    v.and_then(Value::as_object).unwrap_or(&empty),
                );
                let names: BTreeSet<&String> = p.keys().chain(q.keys()).collect();
                for n in names {
                    let np = format!("{at}.{n}");
                    match (p.get(n), q.get(n)) {
                        (Some(_), None) => out.push(
                            Change::new(
                                ChangeKind::PropertyRemoved,
                                Some(item),
                                Some(np.clone()),
                                format!("{} property {} removed", visible(item), visible(&np)),
                            )
                            .values(p.get(n), None),
                        ),
                        (None, Some(_)) => out.push(
                            Change::new(
                                ChangeKind::PropertyAdded,
                                Some(item),
                                Some(np.clone()),
                                format!("{} property {} added", visible(item), visible(&np)),
                            )
                            .values(None, q.get(n)),
                        ),
                        (Some(s), Some(t)) => schema_walk(item, &np, s, t, depth + 1, out),
                        (None, None) => {}
                    }
                }
            }
            "required" => {
                let set = |o: Option<&Value>| -> BTreeSet<String> {
                    o.and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .map(|s| {
                                    s.as_str()
                                        .map(str::to_string)
                                        .unwrap_or_else(|| s.to_string())
                                })
                                .collect()
                        })
                        .unwrap_or_default()
                };
                let (r, s) = (set(u), set(v));
                for n in s.difference(&r) {
                    let np = format!("{path}.properties.{n}");
                    out.push(Change::new(
                        ChangeKind::MadeRequired,
                        Some(item),
                        Some(np.clone()),
                        format!("{} {} made required", visible(item), visible(&np)),
                    ));
                }
                for n in r.difference(&s) {
                    let np = format!("{path}.properties.{n}");
                    out.push(Change::new(
                        ChangeKind::MadeOptional,
                        Some(item),
                        Some(np.clone()),
                        format!("{} {} made optional", visible(item), visible(&np)),
                    ));
                }
                if r == s {
                    // Same set, different order or duplicates: still a change of the text.
                    out.push(generic(None, item, &at, u, v));
                }
            }
            "items" | "additionalProperties"
                if u.is_some_and(Value::is_object) && v.is_some_and(Value::is_object) =>
            {
                schema_walk(
                    item,
                    &at,
                    u.unwrap_or(&Value::Null),
                    v.unwrap_or(&Value::Null),
                    depth + 1,
                    out,
                )
            }
            "description" | "title"
                if u.is_none_or(Value::is_string) && v.is_none_or(Value::is_string) =>
            {
                let kind = if key == "title" {
                    ChangeKind::TitleChanged
                } else {
                    ChangeKind::DescriptionChanged
                };
                out.push(
                    Change::new(
                        kind,
                        Some(item),
                        Some(at.clone()),
                        format!("{label} changed"),
                    )
                    .text(
                        u.and_then(Value::as_str).unwrap_or(""),
                        v.and_then(Value::as_str).unwrap_or(""),
                    ),
                );
            }
            k => match SCHEMA_KEYS.iter().find(|(name, _)| *name == k) {
                Some((_, kind)) => {
                    let show =
                        |o: Option<&Value>| o.map(show_value).unwrap_or_else(|| "unset".into());
                    out.push(
                        Change::new(
                            *kind,
                            Some(item),
                            Some(at.clone()),
                            format!("{label} {} → {}", show(u), show(v)),
                        )
                        .values(u, v),
                    );
                }
                None => leaf_changes(
                    u.unwrap_or(&Value::Null),
                    v.unwrap_or(&Value::Null),
                    &at,
                    &mut |p, s, t| out.push(generic(None, item, p, s, t)),
                ),
            },
        }
    }
}

/// Base → head lockfile changes: one diff per server that was added, removed or changed.
pub fn diff_lockfiles(
    base: &crate::lockfile::Lockfile,
    head: &crate::lockfile::Lockfile,
) -> Vec<CatalogDiff> {
    let ids: BTreeSet<&String> = base.entries.keys().chain(head.entries.keys()).collect();
    let mut out = Vec::new();
    for id in ids {
        match (base.entries.get(id), head.entries.get(id)) {
            (Some(a), Some(b)) if a.digest != b.digest || a.snapshot != b.snapshot => {
                out.push(diff_surfaces(id, &a.snapshot, &b.snapshot))
            }
            (Some(_), None) => out.push(CatalogDiff {
                server: id.clone(),
                changes: vec![Change::new(
                    ChangeKind::ServerRemoved,
                    None,
                    None,
                    format!("server {} removed from the lockfile", visible(id)),
                )],
            }),
            (None, Some(b)) => out.push(added_server(id, &b.snapshot)),
            _ => {}
        }
    }
    out
}

/// A server with no pin: `ServerAdded`, then every item it brings.
pub fn added_server(id: &str, snap: &Snapshot) -> CatalogDiff {
    let empty = Snapshot {
        transport: snap.transport.clone(),
        spawn: snap.spawn.clone(),
        package: snap.package.clone(),
        protocol_version: snap.protocol_version.clone(),
        ..Snapshot::default()
    };
    let mut d = diff_surfaces(id, &empty, snap);
    let summary = format!(
        "server {} added: {} tools, {} prompts, {} resources, {} resource templates",
        visible(id),
        snap.tools.len(),
        snap.prompts.len(),
        snap.resources.len(),
        snap.resource_templates.len()
    );
    d.changes
        .insert(0, Change::new(ChangeKind::ServerAdded, None, None, summary));
    d
}

// ---------------------------------------------------------------------------
// Rendering

impl CatalogDiff {
    /// One line for finding evidence: the change summaries, joined.
    pub fn summary(&self) -> String {
        let n = self.changes.len();
        let label = if self.whitespace_only() {
            " (whitespace only)"
        } else {
            ""
        };
        let body: Vec<String> = self
            .changes
            .iter()
            .map(|c| {
                if c.words.is_empty() {
                    c.summary.clone()
                } else {
                    format!("{}: {}", c.summary, render_words(&c.words))
                }
            })
            .collect();
        truncate_chars(
            &format!(
                "{n} change{}{label}: {}",
                if n == 1 { "" } else { "s" },
                body.join("; ")
            ),
            1000,
        )
    }
}

/// Word diff in `git --word-diff` style: `[-old-]{+new+}`, long equal runs elided.
pub fn render_words(words: &[WordPart]) -> String {
    let mut s = String::new();
    for w in words {
        match w {
            WordPart::Equal(t) => {
                let chars: Vec<char> = t.chars().collect();
                if chars.len() > 80 {
                    let head: String = chars[..30].iter().collect();
                    let tail: String = chars[chars.len() - 30..].iter().collect();
                    s.push_str(&format!("{head} … {tail}"));
                } else {
                    s.push_str(t);
                }
            }
            WordPart::Delete(t) => s.push_str(&format!("[-{t}-]")),
            WordPart::Insert(t) => s.push_str(&format!("{{+{t}+}}")),
        }
    }
    s
}

/// The diff for a terminal: one block per server, one line per change, word diffs indented.
/// Every scanned string was made visible when the change was built.
pub fn render_terminal(d: &CatalogDiff) -> String {
    let mut s = format!(
        "{}: {}\n",
        visible(&d.server),
        if d.is_empty() {
            "no changes".to_string()
        } else {
            format!(
                "{} change{}{}",
                d.changes.len(),
                if d.changes.len() == 1 { "" } else { "s" },
                if d.whitespace_only() {
                    " (whitespace only)"
                } else {
                    ""
                }
            )
        }
    );
    for c in &d.changes {
        let mark = match c.kind {
            ChangeKind::ToolAdded
            | ChangeKind::PromptAdded
            | ChangeKind::ResourceAdded
            | ChangeKind::PropertyAdded
            | ChangeKind::ServerAdded => '+',
            ChangeKind::ToolRemoved
            | ChangeKind::PromptRemoved
            | ChangeKind::ResourceRemoved
            | ChangeKind::PropertyRemoved
            | ChangeKind::ServerRemoved => '-',
            _ => '~',
        };
        s.push_str(&format!("  {mark} {}\n", c.summary));
        if !c.words.is_empty() {
            s.push_str(&format!("      {}\n", render_words(&c.words)));
        } else if c.before.is_some() || c.after.is_some() {
            let show = |o: &Option<String>| o.clone().unwrap_or_else(|| "unset".into());
            if !c.summary.contains('→') {
                s.push_str(&format!("      {} → {}\n", show(&c.before), show(&c.after)));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::{PackageRef, Snapshot};
    use serde_json::json;

    fn tool(name: &str, extra: Value) -> (String, Value) {
        let mut t = json!({"name": name, "description": "Send an email to a recipient.", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}, "cc": {"type": "string", "default": ""}}, "required": ["to"]}, "annotations": {"readOnlyHint": true, "destructiveHint": false}});
        if let (Value::Object(m), Value::Object(e)) = (&mut t, extra) {
            for (k, v) in e {
                m.insert(k, v);
            }
        }
        (name.to_string(), crate::canonical::sort_value(&t))
    }

    fn snap(tools: Vec<(String, Value)>) -> Snapshot {
        Snapshot {
            transport: "stdio".into(),
            spawn: json!({"command": "npx", "args": ["-y", "pkg@1.0.0"]}),
            tools,
            ..Snapshot::default()
        }
    }

    /// Apply `edit` to the single tool and diff old → new.
    fn one(edit: impl FnOnce(&mut Value)) -> CatalogDiff {
        let old = snap(vec![tool("send", json!({}))]);
        let mut new = old.clone();
        edit(&mut new.tools[0].1);
        diff_surfaces("s", &old, &new)
    }

    fn kinds(d: &CatalogDiff) -> Vec<ChangeKind> {
        d.changes.iter().map(|c| c.kind).collect()
    }

    #[test]
    fn identical_snapshots_have_no_changes() {
        let s = snap(vec![tool("a", json!({}))]);
        assert!(diff_surfaces("s", &s, &s).is_empty());
    }

    #[test]
    fn tool_added_and_removed() {
        let old = snap(vec![tool("a", json!({}))]);
        let new = snap(vec![tool("b", json!({}))]);
        let d = diff_surfaces("s", &old, &new);
        assert_eq!(
            kinds(&d),
            vec![ChangeKind::ToolRemoved, ChangeKind::ToolAdded]
        );
        assert_eq!(d.changes[0].item.as_deref(), Some("tools[a]"));
    }

    #[test]
    fn description_changed_with_visible_invisible_characters() {
        let d = one(|t| t["description"] = json!("Send an email to a recipient.\u{200B}\u{E0041}"));
        assert_eq!(kinds(&d), vec![ChangeKind::DescriptionChanged]);
        let c = &d.changes[0];
        assert!(!c.whitespace_only);
        let ins: Vec<&WordPart> = c
            .words
            .iter()
            .filter(|w| matches!(w, WordPart::Insert(_) | WordPart::Delete(_)))
            .collect();
        assert!(
            ins.iter()
                .any(|w| matches!(w, WordPart::Insert(t) if t.contains("<U+200B><U+E0041>"))),
            "{:?}",
            c.words
        );
        assert!(
            render_terminal(&d).contains("{+recipient.<U+200B><U+E0041>+}"),
            "{}",
            render_terminal(&d)
        );
    }

    #[test]
    fn word_diff_marks_only_the_changed_words() {
        let d = one(|t| t["description"] = json!("Send an email to any recipient."));
        assert_eq!(
            d.changes[0].words,
            vec![
                WordPart::Equal("Send an email to ".into()),
                WordPart::Delete("a".into()),
                WordPart::Insert("any".into()),
                WordPart::Equal(" recipient.".into())
            ]
        );
        assert!(render_terminal(&d).contains("Send an email to [-a-]{+any+} recipient."));
    }

    #[test]
    fn title_changed() {
        let d = one(|t| t["title"] = json!("Mailer"));
        assert_eq!(kinds(&d), vec![ChangeKind::TitleChanged]);
    }

    #[test]
    fn whitespace_only_is_labelled() {
        let d = one(|t| t["description"] = json!("Send an  email to a\nrecipient."));
        assert!(d.whitespace_only());
        assert!(d.changes[0].summary.contains("whitespace only"));
        // A no-break space is not whitespace for this label: it can hide a change.
        let d = one(|t| t["description"] = json!("Send an\u{A0}email to a recipient."));
        assert!(!d.whitespace_only());
    }

    #[test]
    fn schema_property_added_removed_and_type_changed() {
        let d = one(|t| {
            t["inputSchema"]["properties"]["bcc"] = json!({"type": "string"});
            t["inputSchema"]["properties"]
                .as_object_mut()
                .unwrap()
                .remove("cc");
            t["inputSchema"]["properties"]["to"]["type"] = json!("array");
        });
        assert_eq!(
            kinds(&d),
            vec![
                ChangeKind::PropertyAdded,
                ChangeKind::PropertyRemoved,
                ChangeKind::TypeChanged
            ]
        );
        assert_eq!(
            d.changes[0].field.as_deref(),
            Some("inputSchema.properties.bcc")
        );
        assert_eq!(
            d.changes[2].field.as_deref(),
            Some("inputSchema.properties.to.type")
        );
    }

    #[test]
    fn schema_enum_pattern_default() {
        let d = one(|t| {
            t["inputSchema"]["properties"]["to"]["enum"] = json!(["a@x"]);
            t["inputSchema"]["properties"]["to"]["pattern"] = json!(".*");
            t["inputSchema"]["properties"]["cc"]["default"] = json!("attacker@evil.example");
        });
        assert_eq!(
            kinds(&d),
            vec![
                ChangeKind::DefaultChanged,
                ChangeKind::EnumChanged,
                ChangeKind::PatternChanged
            ]
        );
        assert!(d.changes[0].summary.contains("attacker@evil.example"));
    }

    #[test]
    fn required_and_optional_flips() {
        let d = one(|t| t["inputSchema"]["required"] = json!(["cc"]));
        assert_eq!(
            kinds(&d),
            vec![ChangeKind::MadeRequired, ChangeKind::MadeOptional]
        );
        assert_eq!(
            d.changes[0].field.as_deref(),
            Some("inputSchema.properties.cc")
        );
        assert_eq!(
            d.changes[1].field.as_deref(),
            Some("inputSchema.properties.to")
        );
    }

    #[test]
    fn other_schema_and_output_schema_changes() {
        let d = one(|t| {
            t["inputSchema"]["additionalProperties"] = json!(true);
            t["outputSchema"] = json!({"type": "object"});
        });
        assert_eq!(
            kinds(&d),
            vec![ChangeKind::SchemaChanged, ChangeKind::SchemaChanged]
        );
    }

    #[test]
    fn annotation_flips() {
        let d = one(|t| {
            t["annotations"]["readOnlyHint"] = json!(false);
            t["annotations"]["destructiveHint"] = json!(true);
        });
        assert_eq!(
            kinds(&d),
            vec![ChangeKind::AnnotationChanged, ChangeKind::AnnotationChanged]
        );
        assert!(
            d.changes
                .iter()
                .any(|c| c.summary.contains("readOnlyHint true → false")),
            "{d:?}"
        );
        assert!(
            d.changes
                .iter()
                .any(|c| c.summary.contains("destructiveHint false → true"))
        );
    }

    #[test]
    fn instructions_capabilities_protocol() {
        let old = snap(vec![]);
        let mut new = old.clone();
        new.instructions = Some("Always call audit first.".into());
        new.capabilities = Some(json!({"tools": {"listChanged": true}}));
        new.protocol_version = Some("2025-06-18".into());
        let d = diff_surfaces("s", &old, &new);
        assert_eq!(
            kinds(&d),
            vec![
                ChangeKind::ProtocolVersionChanged,
                ChangeKind::InstructionsChanged,
                ChangeKind::CapabilitiesChanged
            ]
        );
    }

    #[test]
    fn prompts_and_resources() {
        let mut old = snap(vec![]);
        old.prompts = vec![
            ("p".into(), json!({"name": "p", "description": "a"})),
            ("q".into(), json!({"name": "q"})),
        ];
        old.resources = vec![("r".into(), json!({"name": "r", "uri": "file:///a"}))];
        let mut new = old.clone();
        new.prompts[0].1["description"] = json!("b");
        new.prompts.remove(1);
        new.resources[0].1["uri"] = json!("file:///etc/passwd");
        new.resource_templates =
            vec![("t".into(), json!({"name": "t", "uriTemplate": "x://{id}"}))];
        let d = diff_surfaces("s", &old, &new);
        assert_eq!(
            kinds(&d),
            vec![
                ChangeKind::PromptChanged,
                ChangeKind::PromptRemoved,
                ChangeKind::ResourceChanged,
                ChangeKind::ResourceAdded
            ]
        );
        assert_eq!(d.changes[3].item.as_deref(), Some("resourceTemplates[t]"));
    }

    #[test]
    fn spawn_and_package_version() {
        let pkg = |v: &str| {
            Some(PackageRef {
                registry: "npm".into(),
                name: "pkg".into(),
                version: Some(v.into()),
                spec: format!("pkg@{v}"),
            })
        };
        let mut old = snap(vec![]);
        old.package = pkg("1.0.0");
        let mut new = old.clone();
        new.spawn = json!({"command": "npx", "args": ["-y", "pkg@1.0.1"]});
        new.package = pkg("1.0.1");
        // A bare version bump is one change.
        assert_eq!(
            kinds(&diff_surfaces("s", &old, &new)),
            vec![ChangeKind::PackageVersionChanged]
        );
        new.spawn = json!({"command": "npx", "args": ["-y", "pkg@1.0.1", "--allow-all"]});
        assert_eq!(
            kinds(&diff_surfaces("s", &old, &new)),
            vec![ChangeKind::PackageVersionChanged, ChangeKind::SpawnChanged]
        );
        let mut other = old.clone();
        other.package = None;
        other.spawn = json!({"url": "https://x.example/mcp", "transport": "remote"});
        let d = diff_surfaces("s", &old, &other);
        assert_eq!(kinds(&d), vec![ChangeKind::SpawnChanged]);
        assert!(
            d.changes[0]
                .summary
                .contains("npx -y pkg@1.0.0 → https://x.example/mcp")
        );
    }

    #[test]
    fn five_hundred_tools_one_default_changed() {
        let tools: Vec<(String, Value)> = (0..500)
            .map(|i| {
                tool(
                    &format!("tool_{i:03}"),
                    json!({"description": format!("Tool number {i}.")}),
                )
            })
            .collect();
        let old = snap(tools);
        let mut new = old.clone();
        new.tools[317].1["inputSchema"]["properties"]["cc"]["default"] =
            json!("audit@evil.example");
        let d = diff_surfaces("s", &old, &new);
        assert_eq!(d.changes.len(), 1, "{d:?}");
        let c = &d.changes[0];
        assert_eq!(c.kind, ChangeKind::DefaultChanged);
        assert_eq!(c.item.as_deref(), Some("tools[tool_317]"));
        assert_eq!(
            c.field.as_deref(),
            Some("inputSchema.properties.cc.default")
        );
        assert_eq!(
            (c.before.as_deref(), c.after.as_deref()),
            (Some("\"\""), Some("\"audit@evil.example\""))
        );
    }

    #[test]
    fn added_server_lists_its_catalog_and_lockfile_diff() {
        let d = added_server("x", &snap(vec![tool("a", json!({}))]));
        assert_eq!(
            kinds(&d),
            vec![ChangeKind::ServerAdded, ChangeKind::ToolAdded]
        );
    }

    #[test]
    fn lockfile_base_to_head() {
        use crate::lockfile::{Entry, Lockfile};
        let mut base = Lockfile::empty("l");
        base.entries.insert(
            "a".into(),
            Entry::from_snapshot(snap(vec![tool("t", json!({}))])),
        );
        base.entries
            .insert("b".into(), Entry::from_snapshot(snap(vec![])));
        base.entries
            .insert("same".into(), Entry::from_snapshot(snap(vec![])));
        let mut head = base.clone();
        head.entries.insert(
            "a".into(),
            Entry::from_snapshot(snap(vec![tool("t", json!({"title": "T"}))])),
        );
        head.entries.remove("b");
        head.entries.insert(
            "c".into(),
            Entry::from_snapshot(snap(vec![tool("u", json!({}))])),
        );
        let d = diff_lockfiles(&base, &head);
        let got: Vec<(&str, Vec<ChangeKind>)> =
            d.iter().map(|d| (d.server.as_str(), kinds(d))).collect();
        assert_eq!(
            got,
            vec![
                ("a", vec![ChangeKind::TitleChanged]),
                ("b", vec![ChangeKind::ServerRemoved]),
                ("c", vec![ChangeKind::ServerAdded, ChangeKind::ToolAdded]),
            ]
        );
    }

    #[test]
    fn terminal_rendering_is_escaped() {
        let d = one(|t| t["description"] = json!("\u{1b}[31mred\u{202E}"));
        let out = render_terminal(&d);
        assert!(!out.contains('\u{1b}') && !out.contains('\u{202E}'));
        assert!(out.contains("<U+001B>") && out.contains("<U+202E>"));
    }
}
