//! TOML with positions (Codex `config.toml`, policy files).

use super::check_flow_depth;
use super::{Doc, InputError, MAX_DEPTH, ptr_seg};
use crate::text::{LineIndex, line_col};
use serde_json::{Map, Number, Value};

/// Parse TOML (Codex `config.toml`, policy files) with positions.
pub fn toml(text: &str, display: &str) -> Result<Doc, InputError> {
    check_flow_depth(text, display)?;
    let parsed = toml_edit::Document::parse(text).map_err(|e| {
        let (l, c) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
        let msg = e.message().to_string();
        InputError::at(display, l, c, format!("malformed TOML: {msg}"))
    })?;
    let mut doc = Doc::default();
    let table = parsed.as_table();
    let index = LineIndex::new(text);
    let value = toml_table(&index, table, String::new(), &mut doc, 0);
    doc.value = value;
    Ok(doc)
}

fn toml_table(
    idx: &LineIndex<'_>,
    t: &toml_edit::Table,
    ptr: String,
    doc: &mut Doc,
    depth: usize,
) -> Value {
    let mut map = Map::new();
    for (k, item) in t.iter() {
        let p = format!("{ptr}/{}", ptr_seg(k));
        let span = t.key(k).and_then(|key| key.span()).or_else(|| item.span());
        if let Some(s) = span {
            doc.positions.insert(p.clone(), idx.line_col(s.start));
        }
        map.insert(k.to_string(), toml_item(idx, item, p, doc, depth + 1));
    }
    Value::Object(map)
}

fn toml_item(
    idx: &LineIndex<'_>,
    item: &toml_edit::Item,
    ptr: String,
    doc: &mut Doc,
    depth: usize,
) -> Value {
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    match item {
        toml_edit::Item::None => Value::Null,
        toml_edit::Item::Value(v) => toml_value(idx, v, ptr, doc, depth),
        toml_edit::Item::Table(t) => toml_table(idx, t, ptr, doc, depth),
        toml_edit::Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, t)| {
                    let p = format!("{ptr}/{i}");
                    if let Some(s) = t.span() {
                        doc.positions.insert(p.clone(), idx.line_col(s.start));
                    }
                    toml_table(idx, t, p, doc, depth + 1)
                })
                .collect(),
        ),
    }
}

fn toml_value(
    idx: &LineIndex<'_>,
    v: &toml_edit::Value,
    ptr: String,
    doc: &mut Doc,
    depth: usize,
) -> Value {
    use toml_edit::Value as T;
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    match v {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::Number((*i.value()).into()),
        T::Float(f) => Number::from_f64(*f.value())
            .map(Value::Number)
            .unwrap_or(Value::Null),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, e)| {
                    let p = format!("{ptr}/{i}");
                    if let Some(s) = e.span() {
                        doc.positions.insert(p.clone(), idx.line_col(s.start));
                    }
                    toml_value(idx, e, p, doc, depth + 1)
                })
                .collect(),
        ),
        T::InlineTable(t) => {
            let mut map = Map::new();
            for (k, e) in t.iter() {
                let p = format!("{ptr}/{}", ptr_seg(k));
                let span = t.key(k).and_then(|key| key.span()).or_else(|| e.span());
                if let Some(s) = span {
                    doc.positions.insert(p.clone(), idx.line_col(s.start));
                }
                map.insert(k.to_string(), toml_value(idx, e, p, doc, depth + 1));
            }
            Value::Object(map)
        }
    }
}
