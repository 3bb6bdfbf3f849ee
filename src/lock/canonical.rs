//! The canonical form of a surface, and its SHA-256 digest (`docs/spec/lockfile.md`):
//! object keys sorted, items sorted by name (then by canonical text), strings kept
//! exactly (no normalisation, no trimming), only protocol-volatile fields dropped.
//! The spawn command and arguments are part of the digest.

use crate::surface::{Item, PackageId, ServerSurface, Transport};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::io::Write;

/// Fields of list results the protocol calls volatile (paging and caching), never part of an item.
pub const VOLATILE_KEYS: &[&str] = &["nextCursor", "ttlMs", "cacheScope", "resultType"];

/// `_meta` keys the protocol reserves for transport and progress bookkeeping
/// (they change per request, not with the surface).
pub const VOLATILE_META_KEYS: &[&str] = &["progressToken", "io.modelcontextprotocol/related-task"];

/// Sort object keys recursively (independent of serde_json's map feature flags).
pub fn sort_value(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), sort_value(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sort_value).collect()),
        other => other.clone(),
    }
}

/// One item in canonical form: keys sorted, volatile top-level keys and volatile
/// `_meta` entries dropped (a `_meta` emptied by that is dropped too).
pub fn canonical_item(v: &Value) -> Value {
    let mut c = v.clone();
    canonicalize_item(&mut c);
    c
}

/// [`canonical_item`] in place: nothing is copied, so the lockfile reader can
/// turn a definition it owns into its canonical form for free.
pub fn canonicalize_item(v: &mut Value) {
    if let Value::Object(m) = v {
        for k in VOLATILE_KEYS {
            m.remove(*k);
        }
        if let Some(Value::Object(meta)) = m.get_mut("_meta")
            && !meta.is_empty()
        {
            for k in VOLATILE_META_KEYS {
                meta.remove(*k);
            }
            if meta.is_empty() {
                m.remove("_meta");
            }
        }
    }
    sort_in_place(v);
}

/// Sort object keys recursively, in place (a no-op walk when the map type keeps
/// keys sorted already, as serde_json's default map does).
fn sort_in_place(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if !m.keys().is_sorted() {
                let mut members: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
                members.sort_by(|a, b| a.0.cmp(&b.0));
                m.extend(members);
            }
            m.values_mut().for_each(sort_in_place);
        }
        Value::Array(a) => a.iter_mut().for_each(sort_in_place),
        _ => {}
    }
}

/// Items as (name, canonical definition), sorted by name then canonical text.
pub fn sorted_items(items: &[Item]) -> Vec<(String, Value)> {
    let mut v: Vec<(String, String, Value)> = items
        .iter()
        .map(|i| {
            let c = canonical_item(&i.raw);
            (i.name.clone(), c.to_string(), c)
        })
        .collect();
    v.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    v.into_iter().map(|(n, _, c)| (n, c)).collect()
}

/// The spawn facts that are part of the digest (`docs/spec/lockfile.md`),
/// redacted: the lockfile stores them, and a credential in an argument or URL
/// must never be written there. Redaction leaves a launch line without a
/// secret unchanged, so such digests are the same as before it existed.
pub fn spawn(t: &Transport) -> Value {
    match t {
        Transport::Stdio { command, args, .. } => json!({
            "command": crate::text::redact_command(command),
            "args": crate::text::redact_args(args),
        }),
        Transport::Remote { url, .. } => {
            json!({ "url": crate::text::redact_url(url), "transport": t.kind_str() })
        }
        Transport::Unknown => Value::Null,
    }
}

/// A spawn value read back (a lockfile written before redaction existed may
/// hold a secret): the same redaction applied to its command, args and URL.
pub fn redact_spawn(v: &Value) -> Value {
    let mut out = v.clone();
    if let Some(Value::String(c)) = out.get_mut("command") {
        *c = crate::text::redact_command(c);
    }
    if let Some(Value::Array(a)) = out.get_mut("args") {
        let strings: Option<Vec<String>> =
            a.iter().map(|x| x.as_str().map(str::to_string)).collect();
        if let Some(strings) = strings {
            *a = crate::text::redact_args(&strings)
                .into_iter()
                .map(Value::String)
                .collect();
        }
    }
    if let Some(Value::String(u)) = out.get_mut("url") {
        *u = crate::text::redact_url(u);
    }
    out
}

/// The package a surface runs, as the lockfile records it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct PackageRef {
    pub registry: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The spec as written in the spawn arguments (lets the diff tell a version bump from other spawn edits).
    pub spec: String,
}

impl From<&PackageId> for PackageRef {
    fn from(p: &PackageId) -> Self {
        PackageRef {
            registry: p.registry.clone(),
            name: crate::text::redact_command(&p.name),
            version: p.version.clone(),
            spec: crate::text::redact_command(&p.spec),
        }
    }
}

/// The canonical, comparable snapshot of one surface: what the lockfile pins and
/// what the semantic diff compares. Items are (name, canonical definition), sorted.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    /// `stdio`, `streamable-http`, `sse`, `websocket`, `remote`, `unknown`.
    pub transport: String,
    pub spawn: Value,
    /// Not part of the digest (derived from `spawn`), kept for the diff and the reader.
    pub package: Option<PackageRef>,
    pub protocol_version: Option<String>,
    pub capabilities: Option<Value>,
    pub instructions: Option<String>,
    pub tools: Vec<(String, Value)>,
    pub prompts: Vec<(String, Value)>,
    pub resources: Vec<(String, Value)>,
    pub resource_templates: Vec<(String, Value)>,
}

impl Snapshot {
    pub fn of(s: &ServerSurface) -> Snapshot {
        Snapshot {
            transport: s.transport.kind_str().to_string(),
            spawn: spawn(&s.transport),
            package: s.package.as_ref().map(PackageRef::from),
            protocol_version: s.protocol_version.clone(),
            capabilities: s.capabilities.as_ref().map(sort_value),
            instructions: s.instructions.clone(),
            tools: sorted_items(&s.tools),
            prompts: sorted_items(&s.prompts),
            resources: sorted_items(&s.resources),
            resource_templates: sorted_items(&s.resource_templates),
        }
    }

    /// The canonical JSON whose digest is the surface digest.
    pub fn canonical(&self) -> Value {
        let items =
            |v: &[(String, Value)]| Value::Array(v.iter().map(|(_, c)| c.clone()).collect());
        sort_value(&json!({
            "spawn": self.spawn,
            "protocolVersion": self.protocol_version,
            "capabilities": self.capabilities,
            "instructions": self.instructions,
            "tools": items(&self.tools),
            "prompts": items(&self.prompts),
            "resources": items(&self.resources),
            "resourceTemplates": items(&self.resource_templates),
        }))
    }

    /// Same bytes as `digest_value(&self.canonical())`, streamed without building the tree.
    pub fn digest(&self) -> String {
        fn items(v: &[(String, Value)]) -> Vec<&Value> {
            v.iter().map(|(_, c)| c).collect()
        }
        Document {
            spawn: &self.spawn,
            protocol_version: self.protocol_version.as_deref(),
            capabilities: self.capabilities.as_ref(),
            instructions: self.instructions.as_deref(),
            tools: items(&self.tools),
            prompts: items(&self.prompts),
            resources: items(&self.resources),
            resource_templates: items(&self.resource_templates),
        }
        .digest()
    }

    /// The catalog only (tools, prompts, resources, instructions, capabilities),
    /// taking spawn and protocol facts from `other`: compares a descriptor with a pin.
    pub fn with_launch_of(&self, other: &Snapshot) -> Snapshot {
        Snapshot {
            transport: other.transport.clone(),
            spawn: other.spawn.clone(),
            package: other.package.clone(),
            protocol_version: other.protocol_version.clone(),
            ..self.clone()
        }
    }
}

/// The canonical JSON of the model-visible surface.
pub fn canonical_surface(s: &ServerSurface) -> Value {
    Snapshot::of(s).canonical()
}

/// `sha256:<hex>` of a JSON value's compact serialisation (keys are sorted).
pub fn digest_value(v: &Value) -> String {
    hash_with(|w| write_value(w, v))
}

/// The digest of a surface: the bytes of `canonical_surface(s)`, written straight
/// from the surface into SHA-256. No canonical copy of the catalog is built; only
/// items sharing a name are rendered to bytes, to order them.
pub fn surface_digest(s: &ServerSurface) -> String {
    let spawn = spawn(&s.transport);
    Document {
        spawn: &spawn,
        protocol_version: s.protocol_version.as_deref(),
        capabilities: s.capabilities.as_ref(),
        instructions: s.instructions.as_deref(),
        tools: item_order(&s.tools),
        prompts: item_order(&s.prompts),
        resources: item_order(&s.resources),
        resource_templates: item_order(&s.resource_templates),
    }
    .digest()
}

/// Items in canonical order: by name, then (same name only) by canonical text.
fn item_order(items: &[Item]) -> Vec<&Value> {
    let mut idx: Vec<&Item> = items.iter().collect();
    idx.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = Vec::with_capacity(idx.len());
    let mut i = 0;
    while i < idx.len() {
        let mut j = i + 1;
        while j < idx.len() && idx[j].name == idx[i].name {
            j += 1;
        }
        if j - i == 1 {
            out.push(&idx[i].raw);
        } else {
            let mut run: Vec<(Vec<u8>, &Value)> = idx[i..j]
                .iter()
                .map(|it| {
                    let mut buf = Vec::new();
                    // Writing into a Vec cannot fail.
                    let _ = write_item(&mut buf, &it.raw);
                    (buf, &it.raw)
                })
                .collect();
            run.sort_by(|a, b| a.0.cmp(&b.0));
            out.extend(run.into_iter().map(|(_, v)| v));
        }
        i = j;
    }
    out
}

/// The top-level canonical object (keys already in sorted order below).
struct Document<'a> {
    spawn: &'a Value,
    protocol_version: Option<&'a str>,
    capabilities: Option<&'a Value>,
    instructions: Option<&'a str>,
    tools: Vec<&'a Value>,
    prompts: Vec<&'a Value>,
    resources: Vec<&'a Value>,
    resource_templates: Vec<&'a Value>,
}

type Io = std::io::Result<()>;

impl Document<'_> {
    /// `sha256:<hex>` of the canonical document, streamed into the hash.
    fn digest(self) -> String {
        hash_with(|w| write_document(w, self))
    }
}

fn write_document<W: Write>(w: &mut W, d: Document<'_>) -> Io {
    let opt_str = |w: &mut W, s: Option<&str>| match s {
        Some(s) => serde_json::to_writer(&mut *w, s).map_err(std::io::Error::other),
        None => w.write_all(b"null"),
    };
    let list = |w: &mut W, items: &[&Value]| write_array(w, items.iter().copied(), write_item);
    // Byte order of the keys: capabilities < instructions < prompts < protocolVersion
    // < resourceTemplates < resources < spawn < tools.
    w.write_all(b"{\"capabilities\":")?;
    match d.capabilities {
        Some(c) => write_value(w, c)?,
        None => w.write_all(b"null")?,
    }
    w.write_all(b",\"instructions\":")?;
    opt_str(w, d.instructions)?;
    w.write_all(b",\"prompts\":")?;
    list(w, &d.prompts)?;
    w.write_all(b",\"protocolVersion\":")?;
    opt_str(w, d.protocol_version)?;
    w.write_all(b",\"resourceTemplates\":")?;
    list(w, &d.resource_templates)?;
    w.write_all(b",\"resources\":")?;
    list(w, &d.resources)?;
    w.write_all(b",\"spawn\":")?;
    write_value(w, d.spawn)?;
    w.write_all(b",\"tools\":")?;
    list(w, &d.tools)?;
    w.write_all(b"}")
}

/// `canonical_item(v)` serialised, without building it (idempotent on canonical items).
fn write_item<W: Write>(w: &mut W, v: &Value) -> Io {
    let Value::Object(m) = v else {
        return write_value(w, v);
    };
    let mut entries: Vec<(&str, Entry<'_>)> = Vec::with_capacity(m.len());
    for (k, val) in m {
        if VOLATILE_KEYS.contains(&k.as_str()) {
            continue;
        }
        if k == "_meta"
            && let Value::Object(meta) = val
            && !meta.is_empty()
        {
            let kept: Vec<(&str, &Value)> = meta
                .iter()
                .filter(|(mk, _)| !VOLATILE_META_KEYS.contains(&mk.as_str()))
                .map(|(a, b)| (a.as_str(), b))
                .collect();
            if !kept.is_empty() {
                entries.push((k, Entry::Meta(kept)));
            }
            continue;
        }
        entries.push((k, Entry::Plain(val)));
    }
    entries.sort_by(|a, b| a.0.cmp(b.0));
    w.write_all(b"{")?;
    for (i, (k, e)) in entries.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write_key(w, k)?;
        match e {
            Entry::Plain(v) => write_value(w, v)?,
            Entry::Meta(kept) => write_object(w, kept)?,
        }
    }
    w.write_all(b"}")
}

enum Entry<'a> {
    Plain(&'a Value),
    Meta(Vec<(&'a str, &'a Value)>),
}

/// `sort_value(v)` serialised compactly, without building it.
fn write_value<W: Write>(w: &mut W, v: &Value) -> Io {
    match v {
        Value::Object(m) => write_object(w, m.iter().map(|(k, v)| (k.as_str(), v)).collect()),
        Value::Array(a) => write_array(w, a.iter(), write_value),
        scalar => serde_json::to_writer(w, scalar).map_err(std::io::Error::other),
    }
}

fn write_array<'v, W: Write>(
    w: &mut W,
    items: impl Iterator<Item = &'v Value>,
    each: fn(&mut W, &Value) -> Io,
) -> Io {
    w.write_all(b"[")?;
    for (i, v) in items.enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        each(w, v)?;
    }
    w.write_all(b"]")
}

fn write_object<W: Write>(w: &mut W, mut entries: Vec<(&str, &Value)>) -> Io {
    entries.sort_by(|a, b| a.0.cmp(b.0));
    w.write_all(b"{")?;
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write_key(w, k)?;
        write_value(w, v)?;
    }
    w.write_all(b"}")
}

fn write_key<W: Write>(w: &mut W, k: &str) -> Io {
    serde_json::to_writer(&mut *w, k).map_err(std::io::Error::other)?;
    w.write_all(b":")
}

/// `sha256:<hex>` of whatever `write` streams (into the hash, never into memory).
fn hash_with(write: impl FnOnce(&mut std::io::BufWriter<HashWriter>) -> Io) -> String {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, HashWriter(Sha256::new()));
    // The sink never fails, and neither does serialising a `Value` into it.
    let _ = write(&mut w);
    let hash = match w.into_inner() {
        Ok(h) => h.0,
        Err(e) => e.into_inner().into_parts().0.0,
    };
    format!("sha256:{}", hex::encode(hash.finalize()))
}

struct HashWriter(Sha256);

impl Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn surface_from(doc: &Value) -> ServerSurface {
        crate::testkit::surface("x.json")
            .name("x")
            .stdio("npx", &["-y", "pkg@1.0.0"])
            .instructions(doc.get("instructions").and_then(Value::as_str))
            .tools(doc["tools"].as_array().unwrap().iter().cloned())
            .build()
    }

    fn digest_of_text(text: &str) -> String {
        let v: Value = serde_json::from_str(text).unwrap();
        surface_digest(&surface_from(&v))
    }

    /// Serialise with object keys in reverse order and arrays of tools reversed,
    /// with arbitrary whitespace: a different source text of the same surface.
    fn scrambled(v: &Value, ws: &str, top: bool) -> String {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.reverse();
                let parts: Vec<String> = keys
                    .iter()
                    .map(|k| {
                        format!(
                            "{ws}{}{ws}:{ws}{}",
                            Value::String((*k).clone()),
                            scrambled(&m[*k], ws, false)
                        )
                    })
                    .collect();
                format!("{{{}{ws}}}", parts.join(","))
            }
            Value::Array(a) => {
                let mut items: Vec<String> = a.iter().map(|x| scrambled(x, ws, false)).collect();
                if top {
                    items.reverse();
                }
                format!("[{ws}{}{ws}]", items.join(&format!(",{ws}")))
            }
            other => other.to_string(),
        }
    }

    fn catalog() -> impl Strategy<Value = Value> {
        let text = "[a-zA-Z0-9 .,]{0,12}";
        let tool = (text, text, proptest::option::of(text), any::<bool>()).prop_map(|(d, p, def, ro)| {
            let mut prop = json!({"type": "string", "description": p});
            if let Some(d) = def {
                prop["default"] = json!(d);
            }
            json!({"description": d, "inputSchema": {"type": "object", "properties": {"q": prop}, "required": ["q"]}, "annotations": {"readOnlyHint": ro}})
        });
        (proptest::collection::vec(tool, 1..6), "[a-z ]{0,10}").prop_map(|(tools, instr)| {
            let tools: Vec<Value> = tools
                .into_iter()
                .enumerate()
                .map(|(i, mut t)| {
                    t["name"] = json!(format!("tool_{i}"));
                    t
                })
                .collect();
            json!({"instructions": instr, "tools": tools})
        })
    }

    /// Every string leaf's JSON Pointer.
    fn string_pointers(v: &Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::String(_) => out.push(at),
            Value::Object(m) => m.iter().for_each(|(k, x)| {
                string_pointers(x, format!("{at}/{}", crate::parse::ptr_seg(k)), out)
            }),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| string_pointers(x, format!("{at}/{i}"), out)),
            _ => {}
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn digest_ignores_key_order_tool_order_and_whitespace(doc in catalog(), ws in "[ \t\n\r]{0,3}") {
            let plain = doc.to_string();
            let other = scrambled(&doc, &ws, false);
            // Reverse the tools array itself too.
            let mut rev = doc.clone();
            rev["tools"].as_array_mut().unwrap().reverse();
            prop_assert_eq!(digest_of_text(&plain), digest_of_text(&other));
            prop_assert_eq!(digest_of_text(&plain), digest_of_text(&scrambled(&rev, &ws, true)));
        }

        #[test]
        fn any_one_character_edit_changes_the_digest(doc in catalog(), pick in any::<prop::sample::Index>(), at in any::<prop::sample::Index>(), insert in prop::sample::select(vec!['\u{200B}', '\u{E0041}', '\u{E0020}', 'x', ' ', '\u{202E}', 'é']), mode in 0u8..3) {
            let base = surface_digest(&surface_from(&doc));
            let mut ptrs = Vec::new();
            string_pointers(&doc, String::new(), &mut ptrs);
            // The name is the item's identity; editing it is still a change, keep it in.
            let ptr = &ptrs[pick.index(ptrs.len())];
            let mut edited = doc.clone();
            let s = edited.pointer(ptr).unwrap().as_str().unwrap().to_string();
            let chars: Vec<char> = s.chars().collect();
            let new: String = match mode {
                // insert one character
                0 => { let i = at.index(chars.len() + 1); chars[..i].iter().chain(std::iter::once(&insert)).chain(chars[i..].iter()).collect() }
                // replace one character (or insert into an empty string)
                1 if !chars.is_empty() => { let i = at.index(chars.len()); let mut c = chars.clone(); c[i] = if c[i] == insert { 'Q' } else { insert }; c.into_iter().collect() }
                // delete one character (or insert into an empty string)
                2 if !chars.is_empty() => { let i = at.index(chars.len()); let mut c = chars.clone(); c.remove(i); c.into_iter().collect() }
                _ => format!("{s}{insert}"),
            };
            prop_assume!(new != s);
            *edited.pointer_mut(ptr).unwrap() = Value::String(new);
            prop_assert_ne!(base, surface_digest(&surface_from(&edited)));
        }
    }

    /// Any JSON value, including the keys canonicalisation treats specially.
    fn any_json() -> impl Strategy<Value = Value> {
        let key = prop::sample::select(vec![
            "name",
            "description",
            "_meta",
            "nextCursor",
            "ttlMs",
            "progressToken",
            "b",
            "a",
            "é",
            "\u{1}",
        ]);
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "[a-c\"\\\u{0}-\u{1f}\u{2028}é]{0,4}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 40, 5, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((key.clone(), inner), 0..5).prop_map(|kv| {
                    Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// The streamed digest is byte for byte the digest of the canonical tree,
        /// whatever the items hold (duplicate names, volatile keys, odd `_meta`).
        #[test]
        fn streamed_digest_equals_tree_digest(
            items in proptest::collection::vec((prop::sample::select(vec!["x", "y", "z"]), any_json()), 0..6),
            caps in proptest::option::of(any_json()),
        ) {
            let mut s = surface_from(&json!({"tools": []}));
            s.capabilities = caps;
            for (i, (name, raw)) in items.iter().enumerate() {
                let item = Item::new(*name, raw.clone(), None);
                match i % 3 {
                    0 => s.tools.push(item),
                    1 => s.prompts.push(item),
                    _ => s.resources.push(item),
                }
            }
            let tree = canonical_surface(&s);
            let text = serde_json::to_string(&tree).unwrap();
            let expected = format!("sha256:{}", hex::encode(Sha256::digest(text.as_bytes())));
            prop_assert_eq!(&surface_digest(&s), &expected);
            prop_assert_eq!(&Snapshot::of(&s).digest(), &expected);
            prop_assert_eq!(&digest_value(&tree), &expected);
        }
    }

    #[test]
    fn volatile_meta_is_dropped_and_other_meta_kept() {
        let a = canonical_item(&json!({"name": "t", "_meta": {"progressToken": 5}}));
        assert_eq!(a, json!({"name": "t"}));
        let b = canonical_item(
            &json!({"name": "t", "_meta": {"progressToken": 5, "vendor/x": "read me"}, "nextCursor": "c"}),
        );
        assert_eq!(b, json!({"name": "t", "_meta": {"vendor/x": "read me"}}));
    }

    #[test]
    fn spawn_command_is_part_of_the_digest() {
        let doc = json!({"tools": [{"name": "a", "description": "d"}]});
        let s1 = surface_from(&doc);
        let mut s2 = s1.clone();
        s2.transport = Transport::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "pkg@1.0.1".into()],
            env_names: vec![],
            cwd: None,
        };
        assert_ne!(surface_digest(&s1), surface_digest(&s2));
    }
}
