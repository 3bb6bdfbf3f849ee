//! Span-aware parsing of JSON/JSONC, TOML and YAML into one shape: a
//! `serde_json::Value` plus the line and column of every object member and array
//! element, keyed by JSON Pointer. Every parser is bounded (size, depth, alias
//! expansion) so hostile files give a clear error, never a crash or a hang.

mod json;
mod toml;
mod yaml;

use crate::text::line_col;
pub use json::{jsonc, jsonc_located};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
pub use toml::toml;
pub use yaml::{front_matter, yaml, yaml_with_offset};

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

/// Reject flow-style nesting (`[[[[…` or `{{{{…`) deeper than [`MAX_DEPTH`]
/// before a recursive parser sees it.
pub(crate) fn check_flow_depth(text: &str, display: &str) -> Result<(), InputError> {
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

#[cfg(test)]
mod tests;
