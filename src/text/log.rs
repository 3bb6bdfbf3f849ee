//! The one escaper for every line the tool prints where a CI runner reads it.
//!
//! The GitHub Actions runner turns two shapes of log line into workflow
//! commands: `::name args::data` when the line, after leading whitespace, starts
//! with `::`, and the legacy `##[name args]data` anywhere in a line. Scanned text
//! (config keys, file names, tool names, evidence) must never take either shape,
//! or a hostile config could stop command processing, mask values or fake
//! errors. The runner splits lines on `\n`, `\r` and `\r\n`.
//!
//! Both shapes are broken with the notation [`super::visible`] already uses for
//! characters a reader cannot see: `##[` becomes `#<U+0023>[`, and a leading
//! `::` becomes `:<U+003A>`. The text stays readable and the rewrite is
//! idempotent.

use std::borrow::Cow;

/// The legacy command prefix the runner finds anywhere in a line.
const LEGACY: &str = "##[";
const LEGACY_SAFE: &str = "#<U+0023>[";

/// Whether the runner would skip `c` before looking for `::` (.NET's
/// `TrimStart` trims white space; controls and invisible characters are
/// skipped too, to be safe).
fn skipped(c: char) -> bool {
    c.is_whitespace() || c.is_control() || super::is_invisible(c)
}

/// One line (no `\n` or `\r` inside) made safe for a runner's log.
pub fn log_line(line: &str) -> Cow<'_, str> {
    let legacy = line.contains(LEGACY);
    let start = line.len() - line.trim_start_matches(skipped).len();
    let command = line[start..].starts_with("::");
    if !legacy && !command {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 16);
    if command {
        out.push_str(&line[..start]);
        out.push_str(":<U+003A>");
        out.push_str(&line[start + 2..]);
    } else {
        out.push_str(line);
    }
    if legacy {
        // `###[` holds one `##[`; replacing left to right leaves none behind
        // (the replacement makes no new `##[` with what precedes it).
        out = out.replace(LEGACY, LEGACY_SAFE);
    }
    Cow::Owned(out)
}

/// Text of any number of lines made safe for a runner's log, line by line
/// (line breaks kept as they are).
pub fn log_text(text: &str) -> Cow<'_, str> {
    if !text.contains(LEGACY) && !text.contains("::") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        out.push_str(&log_line(&rest[..end]));
        let brk = rest[end..].chars().next().map(char::len_utf8).unwrap_or(0);
        out.push_str(&rest[end..end + brk]);
        rest = &rest[end + brk..];
    }
    Cow::Owned(out)
}

/// JSON text made safe for a runner's log without changing what it decodes
/// to: `##[` can only occur inside a JSON string, where `#` may be written as
/// `\u0023`; a line of pretty JSON never starts with `::`.
pub fn log_json(json: String) -> String {
    if !json.contains(LEGACY) {
        return json;
    }
    json.replace(LEGACY, "#\\u0023[")
}

/// The data of a workflow command we write ourselves (`::error …::DATA`): the
/// runner's own escapes (`%`, CR, LF) plus the legacy prefix, which `%`-escapes
/// cannot express (the runner only decodes `%25`, `%0D`, `%0A`, `%3A`, `%2C`).
pub fn command_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
        .replace(LEGACY, LEGACY_SAFE)
}

/// A property value of a workflow command (`file=…`, `title=…`): the data
/// escapes plus `:` and `,`.
pub fn command_property(s: &str) -> String {
    command_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A workflow command line: `::name key=value,…::data`, every part escaped.
/// The only way this crate writes a line the runner acts on.
pub fn workflow_command(name: &str, props: &[(&str, String)], data: &str) -> String {
    let props: Vec<String> = props
        .iter()
        .map(|(k, v)| format!("{k}={}", command_property(v)))
        .collect();
    let sep = if props.is_empty() { "" } else { " " };
    format!(
        "::{name}{sep}{}::{}",
        props.join(","),
        command_data(&super::visible(data))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the runner would do with a line: `Some(command)` if it runs one.
    pub(crate) fn runner_command(line: &str) -> Option<String> {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("::") {
            return Some(rest.split("::").next().unwrap_or("").to_string());
        }
        line.find("##[")
            .map(|i| line[i + 3..].split(']').next().unwrap_or("").to_string())
    }

    #[test]
    fn hostile_lines_run_no_command() {
        for hostile in [
            "docs##[stop-commands]x",
            "##[add-mask]secret",
            "  ##[error]fake failure",
            "a ##[add-matcher]m.json",
            "::error::fake",
            "  \t::set-output name=x::y",
            "\u{200B}::warning::hidden",
            "###[x]",
            "##[##[x]",
            "x::y",
        ] {
            let safe = log_line(hostile);
            if hostile == "x::y" {
                assert_eq!(safe, "x::y", "an inner :: is harmless");
                continue;
            }
            assert_eq!(runner_command(&safe), None, "{hostile} -> {safe}");
            assert_eq!(log_line(&safe), safe, "idempotent");
        }
        assert_eq!(
            log_line("docs##[stop-commands]x"),
            "docs#<U+0023>[stop-commands]x"
        );
        assert_eq!(log_line("::error::x"), ":<U+003A>error::x");
        assert_eq!(log_line("plain"), "plain");
    }

    #[test]
    fn every_line_of_a_text_is_guarded() {
        let t = "ok\n::error::a\r::warning::b\r\n c ##[group]d\n";
        let safe = log_text(t);
        assert_eq!(
            safe,
            "ok\n:<U+003A>error::a\r:<U+003A>warning::b\r\n c #<U+0023>[group]d\n"
        );
        for l in safe.split(['\n', '\r']) {
            assert_eq!(runner_command(l), None, "{l}");
        }
    }

    #[test]
    fn json_keeps_its_value() {
        let v = serde_json::json!({"id": "docs##[stop-commands]x"});
        let safe = log_json(serde_json::to_string_pretty(&v).unwrap());
        assert!(!safe.contains("##["));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn our_commands_escape_every_part() {
        let l = workflow_command(
            "error",
            &[("file", "a,b:c##[x].json".into()), ("line", "3".into())],
            "100%\nnext ##[add-mask]x",
        );
        assert_eq!(
            l,
            "::error file=a%2Cb%3Ac#<U+0023>[x].json,line=3::100%25\\nnext #<U+0023>[add-mask]x"
        );
        assert_eq!(l.matches("##[").count(), 0);
        assert_eq!(workflow_command("warning", &[], "w"), "::warning::w");
    }
}
