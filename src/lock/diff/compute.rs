//! Computing the diff: snapshot against snapshot (one server) and lockfile
//! against lockfile (a reviewed change), bounded so hostile input stays cheap.

use super::model::{CatalogDiff, Change, ChangeKind, WordPart};
use crate::lock::canonical::Snapshot;
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
    base: &crate::lock::lockfile::Lockfile,
    head: &crate::lock::lockfile::Lockfile,
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
