//! The canonical form of a surface, and its SHA-256 digest: sorted keys, items
//! sorted by name, strings kept exactly (no normalisation), volatile list fields dropped.

use crate::surface::{Item, ServerSurface, Transport};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// Fields of list results the protocol calls volatile (paging and caching), never part of an item.
pub const VOLATILE_KEYS: &[&str] = &["nextCursor", "ttlMs", "cacheScope", "resultType"];

/// Sort object keys recursively (serde_json's map is already ordered; this also
/// drops volatile keys at the top level of an item).
pub fn canonical_item(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, val) in m {
                if VOLATILE_KEYS.contains(&k.as_str()) {
                    continue;
                }
                out.insert(k.clone(), val.clone());
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn sorted_items(items: &[Item]) -> Vec<Value> {
    let mut v: Vec<(String, String, Value)> = items
        .iter()
        .map(|i| {
            let c = canonical_item(&i.raw);
            (i.name.clone(), c.to_string(), c)
        })
        .collect();
    v.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    v.into_iter().map(|(_, _, c)| c).collect()
}

/// The spawn facts that are part of the digest (the seed: "spawn command").
pub fn spawn(t: &Transport) -> Value {
    match t {
        Transport::Stdio { command, args, .. } => json!({ "command": command, "args": args }),
        Transport::Remote { url, protocol, .. } => json!({ "url": url, "transport": protocol }),
        Transport::Unknown => Value::Null,
    }
}

/// The canonical JSON of the model-visible surface.
pub fn canonical_surface(s: &ServerSurface) -> Value {
    json!({
        "spawn": spawn(&s.transport),
        "protocolVersion": s.protocol_version,
        "capabilities": s.capabilities,
        "instructions": s.instructions,
        "tools": sorted_items(&s.tools),
        "prompts": sorted_items(&s.prompts),
        "resources": sorted_items(&s.resources),
        "resourceTemplates": sorted_items(&s.resource_templates),
    })
}

/// `sha256:<hex>` of a JSON value's compact serialisation (keys are sorted).
pub fn digest_value(v: &Value) -> String {
    let mut h = Sha256::new();
    h.update(v.to_string().as_bytes());
    format!("sha256:{}", hex::encode(h.finalize()))
}

pub fn surface_digest(s: &ServerSurface) -> String {
    digest_value(&canonical_surface(s))
}
