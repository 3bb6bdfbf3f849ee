//! YAML with positions (Continue, Goose, front matter), bounded in depth and
//! node count.

use super::json::number;
use super::{Doc, InputError, MAX_DEPTH, MAX_YAML_NODES, ptr_seg};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Parse YAML (Continue, Goose, Copilot agents, Docker catalogs) with positions.
/// Only the first document is read. Aliases are expanded within a node budget.
pub fn yaml(text: &str, display: &str) -> Result<Doc, InputError> {
    yaml_with_offset(text, display, 0)
}

/// Parse YAML whose first line is line `line_offset + 1` of the file (front matter).
pub fn yaml_with_offset(text: &str, display: &str, line_offset: u32) -> Result<Doc, InputError> {
    use yaml_rust2::parser::{Event, Parser};
    let mut parser = Parser::new_from_str(text);
    let mut doc = Doc::default();
    enum Frame {
        Seq(Vec<Value>, String, usize),
        Map(Map<String, Value>, String, usize, Option<String>),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: BTreeMap<usize, Value> = BTreeMap::new();
    let mut root: Option<Value> = None;
    let mut nodes = 0usize;
    let err = |line: usize, col: usize, m: String| {
        InputError::at(display, line as u32 + line_offset, col as u32 + 1, m)
    };

    loop {
        let (ev, mark) = parser.next_token().map_err(|e| {
            let m = e.marker();
            let info = e.info();
            if info.contains("recursion limit") {
                err(
                    m.line(),
                    m.col(),
                    format!("nesting deeper than the YAML parser's recursion limit ({info})"),
                )
            } else {
                err(m.line(), m.col(), format!("malformed YAML: {info}"))
            }
        })?;
        let (line, col) = (mark.line() as u32 + line_offset, mark.col() as u32 + 1);
        // The pointer and anchor of a new node, given where it is inserted.
        let next_ptr = |stack: &Vec<Frame>| -> String {
            match stack.last() {
                Some(Frame::Seq(v, p, _)) => format!("{p}/{}", v.len()),
                Some(Frame::Map(_, p, _, Some(k))) => format!("{p}/{}", ptr_seg(k)),
                Some(Frame::Map(_, p, _, None)) => format!("{p}/?"),
                None => String::new(),
            }
        };
        let mut finished: Option<(Value, usize)> = None;
        match ev {
            Event::StreamEnd => break,
            Event::DocumentEnd if root.is_some() => break,
            Event::Nothing | Event::StreamStart | Event::DocumentStart | Event::DocumentEnd => {}
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(
                        mark.line(),
                        mark.col(),
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let p = next_ptr(&stack);
                doc.positions.entry(p.clone()).or_insert((line, col));
                stack.push(if matches!(ev, Event::SequenceStart(..)) {
                    Frame::Seq(Vec::new(), p, anchor)
                } else {
                    Frame::Map(Map::new(), p, anchor, None)
                });
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq(v, _, anchor)) = stack.pop() {
                    finished = Some((Value::Array(v), anchor));
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map(m, _, anchor, _)) = stack.pop() {
                    finished = Some((Value::Object(m), anchor));
                }
            }
            Event::Scalar(s, style, anchor, tag) => {
                // A scalar in key position names the next member.
                if let Some(Frame::Map(m, p, _, key @ None)) = stack.last_mut() {
                    let kp = format!("{p}/{}", ptr_seg(&s));
                    if m.contains_key(&s)
                        && let Some(&(ol, oc)) = doc.positions.get(&kp)
                    {
                        doc.duplicates.push((kp.clone(), ol, oc));
                    }
                    doc.positions.insert(kp, (line, col));
                    *key = Some(s);
                    continue;
                }
                let p = next_ptr(&stack);
                doc.positions.entry(p).or_insert((line, col));
                let plain =
                    matches!(style, yaml_rust2::scanner::TScalarStyle::Plain) && tag.is_none();
                finished = Some((
                    if plain {
                        yaml_scalar(&s)
                    } else {
                        Value::String(s)
                    },
                    anchor,
                ));
            }
            Event::Alias(id) => {
                let v = anchors.get(&id).cloned().ok_or_else(|| {
                    err(mark.line(), mark.col(), "alias to an unknown anchor".into())
                })?;
                nodes += count_nodes(&v);
                if nodes > MAX_YAML_NODES {
                    return Err(err(
                        mark.line(),
                        mark.col(),
                        format!("aliases expand past {MAX_YAML_NODES} nodes (a YAML bomb?)"),
                    ));
                }
                if let Some(Frame::Map(_, _, _, key @ None)) = stack.last_mut() {
                    // An alias used as a key: use its text form.
                    *key = Some(match v {
                        Value::String(s) => s,
                        other => other.to_string(),
                    });
                    continue;
                }
                finished = Some((v, 0));
            }
        }
        if let Some((value, anchor)) = finished {
            nodes += 1;
            if nodes > MAX_YAML_NODES {
                return Err(err(
                    mark.line(),
                    mark.col(),
                    format!("document has more than {MAX_YAML_NODES} nodes"),
                ));
            }
            if anchor > 0 {
                anchors.insert(anchor, value.clone());
            }
            match stack.last_mut() {
                Some(Frame::Seq(v, _, _)) => v.push(value),
                Some(Frame::Map(m, _, _, key)) => {
                    if let Some(k) = key.take() {
                        m.insert(k, value);
                    } else {
                        // A complex (non-scalar) key: keep its text form as the key.
                        *key = Some(value.to_string());
                    }
                }
                None => root = Some(value),
            }
        }
    }
    doc.value = root.unwrap_or(Value::Null);
    Ok(doc)
}

fn count_nodes(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(count_nodes).sum::<usize>(),
        Value::Object(m) => 1 + m.values().map(count_nodes).sum::<usize>(),
        _ => 1,
    }
}

/// YAML 1.2 core schema for plain scalars.
fn yaml_scalar(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => {
            let numeric = s
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
                && s.bytes().any(|b| b.is_ascii_digit());
            if numeric {
                match number(s) {
                    Value::Number(n) => Value::Number(n),
                    _ => Value::String(s.to_string()),
                }
            } else {
                Value::String(s.to_string())
            }
        }
    }
}

/// Split a Markdown file's YAML front matter (`---` … `---`) from its body:
/// returns the YAML text and the number of lines before it.
pub fn front_matter(text: &str) -> Option<(&str, u32)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..offset], 1));
        }
        offset += line.len();
    }
    // Front matter without a closing fence (an excerpt): take it all.
    Some((rest, 1))
}
