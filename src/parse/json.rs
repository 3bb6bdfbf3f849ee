//! JSON and JSONC with positions: a fast path for strict JSON (serde_json
//! beside a position scan), and the located JSONC parser for everything else.

use super::{Doc, InputError, MAX_DEPTH, MAX_POSITION_DEPTH, Positions, drop_in_background};
use crate::text::{LineIndex, line_col};
use serde_json::{Map, Number, Value};

/// Parse JSON with comments and trailing commas (VS Code, Zed, opencode accept them).
///
/// Strict JSON (most files, and every lockfile) takes a fast path: serde_json
/// builds the value while [`scan_positions`] records positions, in parallel for
/// large texts. Anything else (comments, trailing commas, duplicate keys,
/// numbers serde_json would change, errors) goes through the located JSONC
/// parser, which gives the same document or the located error.
pub fn jsonc(text: &str, display: &str) -> Result<Doc, InputError> {
    if let Some(doc) = strict_json(text) {
        return Ok(doc);
    }
    jsonc_located(text, display)
}

/// Texts at least this long are parsed and scanned on two threads.
const PARALLEL_SCAN_BYTES: usize = 64 * 1024;

/// The strict-JSON fast path of [`jsonc`]: `None` sends the text to the located parser.
pub(super) fn strict_json(text: &str) -> Option<Doc> {
    let parse = || serde_json::from_str::<Value>(text).ok();
    let (value, scan) = if text.len() >= PARALLEL_SCAN_BYTES {
        rayon::join(parse, || scan_positions(text))
    } else {
        (parse(), scan_positions(text))
    };
    let (value, (positions, members)) = (value?, scan?);
    // serde_json keeps the last of two equal keys without a word; the located
    // parser reports them, so a document with any duplicate goes there.
    if count_members(&value) != members {
        drop_in_background(value);
        return None;
    }
    Some(Doc {
        value,
        positions,
        duplicates: Vec::new(),
    })
}

/// Object members in a value, at every depth.
fn count_members(v: &Value) -> usize {
    match v {
        Value::Object(m) => m.len() + m.values().map(count_members).sum::<usize>(),
        Value::Array(a) => a.iter().map(count_members).sum(),
        _ => 0,
    }
}

/// Positions of a strict-JSON text, exactly as the located parser records them
/// (members and elements of containers shallower than [`MAX_POSITION_DEPTH`]),
/// and the number of object members. `None` when the text is not plain strict
/// JSON or holds a number the two parsers could read differently (over 40
/// characters, or a negative zero integer); the located parser then decides.
/// Iterative and bounded: any input is safe here.
fn scan_positions(text: &str) -> Option<(Positions, usize)> {
    use std::fmt::Write;
    /// An open container: object or array, its pointer's length, next element index.
    struct Frame {
        object: bool,
        ptr_len: usize,
        next: usize,
    }
    enum Want {
        Value,
        FirstKey,
        Key,
        FirstElement,
        Element,
        After,
    }
    let b = text.as_bytes();
    let index = LineIndex::new(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut ptr = String::new();
    let mut out: Vec<(String, (u32, u32))> = Vec::new();
    let mut members = 0usize;
    let mut want = Want::Value;
    let mut i = 0usize;
    loop {
        i = skip_ws(b, i);
        let c = b.get(i).copied();
        match want {
            Want::Value => {
                match c? {
                    b'{' | b'[' => {
                        if stack.len() >= MAX_DEPTH {
                            return None;
                        }
                        let object = c == Some(b'{');
                        stack.push(Frame {
                            object,
                            ptr_len: ptr.len(),
                            next: 0,
                        });
                        want = if object {
                            Want::FirstKey
                        } else {
                            Want::FirstElement
                        };
                        i += 1;
                        continue;
                    }
                    b'"' => i = string_end(b, i)?,
                    b't' | b'f' | b'n' => {
                        while i < b.len() && b[i].is_ascii_lowercase() {
                            i += 1;
                        }
                    }
                    b'-' | b'0'..=b'9' => {
                        let start = i;
                        while i < b.len()
                            && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                        {
                            i += 1;
                        }
                        let lit = &b[start..i];
                        let integer = !lit.iter().any(|c| matches!(c, b'.' | b'e' | b'E'));
                        if lit.len() > MAX_FLOAT_LITERAL || (integer && lit.starts_with(b"-0")) {
                            return None;
                        }
                    }
                    _ => return None,
                }
                want = Want::After;
            }
            Want::FirstKey | Want::Key => {
                let frame = stack.last()?;
                if matches!(want, Want::FirstKey) && c == Some(b'}') {
                    // An empty container: `After` closes it.
                    want = Want::After;
                    continue;
                }
                if c != Some(b'"') {
                    return None;
                }
                let start = i;
                i = string_end(b, i)?;
                let raw = &text[start..i];
                members += 1;
                ptr.truncate(frame.ptr_len);
                ptr.push('/');
                if raw.contains('\\') {
                    push_ptr_seg(&mut ptr, &serde_json::from_str::<String>(raw).ok()?);
                } else {
                    push_ptr_seg(&mut ptr, &raw[1..raw.len() - 1]);
                }
                if stack.len() <= MAX_POSITION_DEPTH {
                    out.push((ptr.clone(), index.line_col(start)));
                }
                i = skip_ws(b, i);
                if b.get(i) != Some(&b':') {
                    return None;
                }
                i += 1;
                want = Want::Value;
            }
            Want::FirstElement | Want::Element => {
                let depth = stack.len();
                let frame = stack.last_mut()?;
                if matches!(want, Want::FirstElement) && c == Some(b']') {
                    // An empty container: `After` closes it.
                    want = Want::After;
                    continue;
                }
                c?;
                ptr.truncate(frame.ptr_len);
                let _ = write!(ptr, "/{}", frame.next);
                frame.next += 1;
                if depth <= MAX_POSITION_DEPTH {
                    out.push((ptr.clone(), index.line_col(i)));
                }
                want = Want::Value;
            }
            Want::After => {
                let Some(frame) = stack.last() else {
                    // The root value is complete: only whitespace may follow.
                    return (i == b.len()).then(|| (out.into_iter().collect(), members));
                };
                match (c?, frame.object) {
                    (b',', true) => want = Want::Key,
                    (b',', false) => want = Want::Element,
                    (b'}', true) | (b']', false) => {
                        ptr.truncate(frame.ptr_len);
                        stack.pop();
                    }
                    _ => return None,
                }
                i += 1;
            }
        }
    }
}

/// The offset of the first non-whitespace byte at or after `i`.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The offset just past the JSON string that opens at `b[start]` (a quote).
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        i += memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[i] == b'"' {
            return Some(i + 1);
        }
        i += 2;
    }
}

/// The located JSONC parser: builds an AST, then the value and its positions.
/// [`jsonc`] gives the same document for every strict-JSON text it takes a fast
/// path on (a property test and the `parse_jsonc` fuzz target check this).
pub fn jsonc_located(text: &str, display: &str) -> Result<Doc, InputError> {
    use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};
    let opts = ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Off,
        tokens: false,
    };
    let parsed = jsonc_parser::parse_to_ast(text, &collect, &opts).map_err(|e| {
        let (l, c) = line_col(text, e.range().start);
        InputError::at(display, l, c, format!("malformed JSON: {}", e.kind()))
    })?;
    let Some(root) = parsed.value else {
        return Err(InputError::at(display, 1, 1, "empty document"));
    };
    let mut doc = Doc::default();
    let index = LineIndex::new(text);
    let mut b = JsonBuilder {
        index: &index,
        doc: &mut doc,
        ptr: String::new(),
    };
    let value = b
        .convert(&root, 0)
        .map_err(|m| InputError::new(display, m))?;
    doc.value = value;
    Ok(doc)
}

struct JsonBuilder<'a, 'd> {
    index: &'a LineIndex<'a>,
    doc: &'d mut Doc,
    /// The JSON Pointer of the node being converted: one buffer, pushed and
    /// truncated on the way down and up (no string built per node).
    ptr: String,
}

impl JsonBuilder<'_, '_> {
    fn convert(&mut self, v: &jsonc_parser::ast::Value<'_>, depth: usize) -> Result<Value, String> {
        use jsonc_parser::ast::Value as A;
        use jsonc_parser::common::Ranged;
        use std::fmt::Write;
        if depth > MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        Ok(match v {
            A::StringLit(s) => Value::String(s.value.to_string()),
            A::NumberLit(n) => number(n.value),
            A::BooleanLit(b) => Value::Bool(b.value),
            A::NullKeyword(_) => Value::Null,
            A::Array(a) => {
                let mut out = Vec::with_capacity(a.elements.len());
                let len = self.ptr.len();
                for (i, e) in a.elements.iter().enumerate() {
                    self.ptr.truncate(len);
                    let _ = write!(self.ptr, "/{i}");
                    if depth < MAX_POSITION_DEPTH {
                        let (l, c) = self.index.line_col(e.range().start);
                        self.doc.positions.insert(self.ptr.clone(), (l, c));
                    }
                    out.push(self.convert(e, depth + 1)?);
                }
                self.ptr.truncate(len);
                Value::Array(out)
            }
            A::Object(o) => {
                let mut map = Map::new();
                let len = self.ptr.len();
                for prop in &o.properties {
                    let key = prop.name.as_str();
                    self.ptr.truncate(len);
                    self.ptr.push('/');
                    push_ptr_seg(&mut self.ptr, key);
                    if map.contains_key(key) {
                        let earlier = self.doc.positions.get(&self.ptr).copied();
                        let (ol, oc) =
                            earlier.unwrap_or_else(|| self.index.line_col(prop.range.start));
                        self.doc.duplicates.push((self.ptr.clone(), ol, oc));
                    }
                    if depth < MAX_POSITION_DEPTH {
                        let (l, c) = self.index.line_col(prop.range.start);
                        self.doc.positions.insert(self.ptr.clone(), (l, c));
                    }
                    let val = self.convert(&prop.value, depth + 1)?;
                    map.insert(key.to_string(), val);
                }
                self.ptr.truncate(len);
                Value::Object(map)
            }
        })
    }
}

/// Append one escaped JSON Pointer segment (RFC 6901) to `buf`.
fn push_ptr_seg(buf: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '~' => buf.push_str("~0"),
            '/' => buf.push_str("~1"),
            c => buf.push(c),
        }
    }
}

/// Longest number literal read as a float; longer ones are kept as text.
const MAX_FLOAT_LITERAL: usize = 40;

/// A JSON number kept exactly when it fits, else as its literal text (a
/// 10,000-digit number must not crash or be silently changed).
pub(super) fn number(lit: &str) -> Value {
    if let Ok(i) = lit.parse::<i64>() {
        return Value::Number(i.into());
    }
    if let Ok(u) = lit.parse::<u64>() {
        return Value::Number(u.into());
    }
    if lit.len() <= MAX_FLOAT_LITERAL
        && let Some(n) = lit.parse::<f64>().ok().and_then(Number::from_f64)
    {
        return Value::Number(n);
    }
    Value::String(lit.to_string())
}
