//! Span-aware parsing of JSON/JSONC, TOML and YAML into one shape: a
//! `serde_json::Value` plus the line and column of every object member and array
//! element, keyed by JSON Pointer. Every parser is bounded (size, depth, alias
//! expansion) so hostile files give a clear error, never a crash or a hang.

use crate::text::{LineIndex, line_col};
use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Files larger than this are refused by default (configurable with `--max-file-size`).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Deepest nesting accepted in any format.
pub const MAX_DEPTH: usize = 256;
/// Most nodes a YAML document may expand to through aliases.
pub const MAX_YAML_NODES: usize = 1_000_000;

/// A problem with one input file: always names the file, and the line when known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("{path}{}: {message}", match (.line, .column) { (Some(l), Some(c)) => format!(":{l}:{c}"), (Some(l), None) => format!(":{l}"), _ => String::new() })]
pub struct InputError {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    pub message: String,
}

impl InputError {
    pub fn new(path: &str, message: impl Into<String>) -> Self {
        InputError {
            path: path.to_string(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
    pub fn at(path: &str, line: u32, column: u32, message: impl Into<String>) -> Self {
        InputError {
            path: path.to_string(),
            line: Some(line),
            column: Some(column),
            message: message.into(),
        }
    }
}

/// JSON Pointer → (line, column).
pub type Positions = BTreeMap<String, (u32, u32)>;

/// A parsed document with positions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Doc {
    pub value: Value,
    /// JSON Pointer → (line, column) of the member's key or the element's start.
    pub positions: Positions,
    /// Keys that appear twice in one object: (pointer, line, column) of the earlier, shadowed one.
    pub duplicates: Vec<(String, u32, u32)>,
}

/// Positions are recorded down to this JSON Pointer depth: deep enough for a
/// server entry, an item and its fields, and the lockfile's item definitions;
/// deeper schema nodes resolve to their nearest recorded ancestor. Recording
/// every node made a 10,000-tool manifest spend most of its time in map inserts.
pub const MAX_POSITION_DEPTH: usize = 6;

impl Doc {
    /// Position of a pointer, or of its nearest recorded ancestor.
    pub fn pos(&self, pointer: &str) -> Option<(u32, u32)> {
        let mut p = pointer;
        loop {
            if let Some(&pos) = self.positions.get(p) {
                return Some(pos);
            }
            p = &p[..p.rfind('/')?];
        }
    }
}

/// Free a large value on a helper thread, off the scan's critical path (the
/// process may exit first; the OS reclaims the memory either way).
pub fn drop_in_background<T: Send + 'static>(value: T) {
    // If no thread can be spawned, the closure (and the value) is freed right here.
    let _ = std::thread::Builder::new()
        .name("drop".into())
        .spawn(move || drop(value));
}

/// Escape one JSON Pointer segment (RFC 6901).
pub fn ptr_seg(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Read a file as UTF-8 within a size bound; invalid UTF-8 is reported with its line.
pub fn read_text(path: &Path, display: &str, max_bytes: u64) -> Result<String, InputError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| InputError::new(display, format!("cannot read: {e}")))?;
    if meta.len() > max_bytes {
        return Err(InputError::new(
            display,
            format!(
                "file is {} bytes, over the {} byte limit (raise it with --max-file-size)",
                meta.len(),
                max_bytes
            ),
        ));
    }
    let bytes =
        std::fs::read(path).map_err(|e| InputError::new(display, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > max_bytes {
        return Err(InputError::new(
            display,
            "file grew past the size limit while being read",
        ));
    }
    decode_utf8(bytes, display)
}

/// Decode bytes as UTF-8 (a leading BOM is dropped), naming the first bad byte's position.
pub fn decode_utf8(bytes: Vec<u8>, display: &str) -> Result<String, InputError> {
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{FEFF}') {
                s.replace_range(..3, "");
            }
            Ok(s)
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let good = String::from_utf8_lossy(&bytes[..at]);
            let (l, c) = line_col(&good, good.len());
            Err(InputError::at(
                display,
                l,
                c,
                format!("invalid UTF-8 at byte {at}"),
            ))
        }
    }
}

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
fn strict_json(text: &str) -> Option<Doc> {
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
fn number(lit: &str) -> Value {
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

/// Reject flow-style nesting (`[[[[…` or `{{{{…`) deeper than [`MAX_DEPTH`]
/// before a recursive parser sees it.
fn check_flow_depth(text: &str, display: &str) -> Result<(), InputError> {
    let mut depth = 0usize;
    let mut in_str: Option<u8> = None;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        if let Some(q) = in_str {
            if escaped {
                escaped = false;
            } else if b == b'\\' && q == b'"' {
                escaped = true;
            } else if b == q || b == b'\n' {
                in_str = None;
            }
            continue;
        }
        match b {
            b'"' | b'\'' => in_str = Some(b),
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    let (l, c) = line_col(text, i);
                    return Err(InputError::at(
                        display,
                        l,
                        c,
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

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
            Event::SequenceStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(
                        mark.line(),
                        mark.col(),
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let p = next_ptr(&stack);
                doc.positions.entry(p.clone()).or_insert((line, col));
                stack.push(Frame::Seq(Vec::new(), p, anchor));
            }
            Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(
                        mark.line(),
                        mark.col(),
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let p = next_ptr(&stack);
                doc.positions.entry(p.clone()).or_insert((line, col));
                stack.push(Frame::Map(Map::new(), p, anchor, None));
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn jsonc_positions_comments_and_trailing_commas() {
        let t = "{\n  // c\n  \"servers\": {\n    \"a\": {\"command\": \"npx\",},\n  },\n}\n";
        let d = jsonc(t, "x.json").unwrap();
        assert_eq!(d.value["servers"]["a"]["command"], "npx");
        assert_eq!(d.pos("/servers"), Some((3, 3)));
        assert_eq!(d.pos("/servers/a"), Some((4, 5)));
    }

    #[test]
    fn jsonc_reports_line_of_error() {
        let e = jsonc("{\n  \"a\": 1\n  \"b\": 2\n}", "bad.json").unwrap_err();
        assert_eq!(e.path, "bad.json");
        assert_eq!(e.line, Some(2)); // the comma was expected at the end of line 2
    }

    #[test]
    fn jsonc_duplicate_keys_are_recorded() {
        let d = jsonc("{\"m\": {\"check\": 1,\n \"check\": 2}}", "d.json").unwrap();
        assert_eq!(d.value["m"]["check"], 2);
        assert_eq!(d.duplicates, vec![("/m/check".to_string(), 1, 8)]);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(jsonc(&deep, "deep.json").is_err());
        assert!(toml(&format!("a = {deep}"), "deep.toml").is_err());
        assert!(yaml(&deep, "deep.yaml").is_err());
    }

    #[test]
    fn huge_number_is_kept_as_text() {
        let n = "1".repeat(10_000);
        let d = jsonc(&format!("{{\"n\": {n}}}"), "n.json").unwrap();
        assert_eq!(d.value["n"].as_str().map(str::len), Some(10_000));
    }

    /// A JSON text built from a small grammar with tricky parts: duplicate and
    /// escaped keys, numbers on every boundary serde_json and the located
    /// parser treat differently, escapes, lone surrogates, raw controls, comments
    /// and trailing commas (the last ones must leave the fast path).
    fn json_text() -> impl Strategy<Value = String> {
        let number = prop_oneof![
            Just("0"),
            Just("-0"),
            Just("-0.0"),
            Just("1.0"),
            Just("1E5"),
            Just("1e+5"),
            Just("0.1"),
            Just("1e400"),
            Just("-1e400"),
            Just("5e-324"),
            Just("1e-400"),
            Just("18446744073709551615"),
            Just("18446744073709551616"),
            Just("-9223372036854775808"),
            Just("-9223372036854775809"),
            Just("1.7976931348623157e308"),
            Just("123456789012345678901234567890123456789"),
            Just("12345678901234567890123456789012345678901"),
            Just("0.30000000000000004"),
            Just("01"),
            Just("1."),
            Just("-"),
            Just(".5"),
        ]
        .prop_map(str::to_string);
        let string = prop_oneof![
            "[a-z /~é😀]{0,6}".prop_map(|s| format!("\"{s}\"")),
            Just("\"a\\u0062\"".to_string()),
            Just("\"\\ud83d\\ude00\"".to_string()),
            Just("\"\\ud800\"".to_string()),
            Just("\"tab\there\"".to_string()),
            Just("\"\\n\\/\\\\\"".to_string()),
        ];
        let key = prop_oneof![
            Just("\"a\"".to_string()),
            Just("\"b\"".to_string()),
            Just("\"ab\"".to_string()),
            Just("\"a\\u0062\"".to_string()),
            Just("\"x/y~z\"".to_string()),
        ];
        let ws = prop_oneof![
            Just(""),
            Just(" "),
            Just("\n"),
            Just("\r\n  "),
            Just("\t"),
            Just(" // c\n")
        ];
        let leaf = prop_oneof![
            number,
            string,
            Just("true".to_string()),
            Just("null".to_string()),
            Just("false".to_string())
        ];
        let ws2 = ws.clone();
        leaf.prop_recursive(8, 64, 6, move |inner| {
            let ws = ws2.clone();
            prop_oneof![
                (
                    proptest::collection::vec((ws.clone(), inner.clone()), 0..6),
                    any::<bool>()
                )
                    .prop_map(|(items, trailing)| {
                        let body: Vec<String> =
                            items.into_iter().map(|(w, v)| format!("{w}{v}")).collect();
                        format!(
                            "[{}{}]",
                            body.join(","),
                            if trailing && !body.is_empty() {
                                ","
                            } else {
                                ""
                            }
                        )
                    }),
                proptest::collection::vec((ws.clone(), key.clone(), ws, inner), 0..6).prop_map(
                    |m| {
                        let body: Vec<String> = m
                            .into_iter()
                            .map(|(w, k, w2, v)| format!("{w}{k}{w2}:{v}"))
                            .collect();
                        format!("{{{}}}", body.join(","))
                    }
                ),
            ]
        })
        .prop_flat_map(move |doc| (ws.clone(), Just(doc)).prop_map(|(w, d)| format!("{w}{d}{w}")))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        /// The fast path never changes a document: whenever it answers, the
        /// located parser gives the same value, positions and duplicates.
        #[test]
        fn strict_json_fast_path_equals_the_located_parser(text in json_text()) {
            let located = jsonc_located(&text, "p.json");
            if let Some(fast) = strict_json(&text) {
                prop_assert_eq!(Ok(fast), located, "{}", text);
            }
        }
    }

    #[test]
    fn strict_json_takes_the_fast_path_with_positions() {
        let t = "{\n  \"servers\": {\n    \"a~/\": {\"args\": [1, \"x\", {\"k\": null}]}\n  }\n}\n";
        let fast = strict_json(t).expect("strict JSON takes the fast path");
        assert_eq!(Ok(fast.clone()), jsonc_located(t, "s.json"));
        assert_eq!(fast.pos("/servers/a~0~1/args/2/k"), Some((3, 31)));
        assert!(
            strict_json("{\"a\": 1, \"a\": 2}").is_none(),
            "duplicates go to the located parser"
        );
        assert!(strict_json("{\"a\": 1,}").is_none());
        assert!(strict_json("{\"a\": -0}").is_none());
    }

    #[test]
    fn toml_positions() {
        let t = "# c\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"x\"]\n";
        let d = toml(t, "c.toml").unwrap();
        assert_eq!(d.value["mcp_servers"]["docs"]["args"][1], "x");
        assert_eq!(d.pos("/mcp_servers/docs/command"), Some((3, 1)));
        assert!(d.pos("/mcp_servers/docs").is_some());
    }

    #[test]
    fn yaml_positions_lists_and_scalars() {
        let t = "name: x\nmcpServers:\n  - name: docs\n    command: npx\n    args: [\"-y\", 1]\n    on: true\n";
        let d = yaml(t, "c.yaml").unwrap();
        assert_eq!(d.value["mcpServers"][0]["name"], "docs");
        assert_eq!(d.value["mcpServers"][0]["args"][1], 1);
        assert_eq!(d.value["mcpServers"][0]["on"], true);
        assert_eq!(d.pos("/mcpServers"), Some((2, 1)));
        assert_eq!(d.pos("/mcpServers/0").map(|p| p.0), Some(3));
        assert_eq!(d.pos("/mcpServers/0/command"), Some((4, 5)));
    }

    #[test]
    fn yaml_bomb_is_refused() {
        let mut t = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            t.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"));
        }
        let e = yaml(&t, "bomb.yaml").unwrap_err();
        assert!(e.message.contains("nodes"), "{e}");
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let e = decode_utf8(b"ok\nbad \xff here".to_vec(), "u.json").unwrap_err();
        assert_eq!(e.line, Some(2));
    }

    #[test]
    fn front_matter_split() {
        let (y, off) = front_matter("---\na: 1\n---\nbody").unwrap();
        assert_eq!((y, off), ("a: 1\n", 1));
        assert!(front_matter("no front matter").is_none());
    }
}
