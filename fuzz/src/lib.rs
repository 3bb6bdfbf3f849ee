//! Fuzz target bodies, shared by the libFuzzer binaries in `fuzz_targets/`.
//!
//! Each function takes raw bytes and must never panic, except on a broken
//! invariant that the function asserts itself (that is a bug report).

use mcptrustchecker::acquire::{self, Acquired, configs, manifest};
use mcptrustchecker::detect::{self, ScanOptions};
use mcptrustchecker::gate::{self, DriftRule};
use mcptrustchecker::lock::lockfile::Lockfile;
use mcptrustchecker::model::ScanResult;
use mcptrustchecker::parse::{self, Doc};
use mcptrustchecker::report::{json, markdown, sarif};
use mcptrustchecker::score::Grade;
use mcptrustchecker::surface::{Item, Location, ServerSurface, Source, Transport};
use mcptrustchecker::text;

/// Paths whose names select every client config and manifest shape.
const NAMES: &[&str] = &[
    ".mcp.json",
    ".vscode/mcp.json",
    ".cursor/mcp.json",
    "claude_desktop_config.json",
    ".gemini/settings.json",
    ".zed/settings.json",
    "windsurf/mcp_config.json",
    "cline_mcp_settings.json",
    ".roo/mcp.json",
    "opencode.jsonc",
    ".amazonq/default.json",
    ".kiro/settings/mcp.json",
    ".junie/mcp/mcp.json",
    ".devcontainer/devcontainer.json",
    "gemini-extension.json",
    "x-plugin/.claude-plugin/plugin.json",
    "server.json",
    "manifest.json",
    "tools.json",
    ".codex/config.toml",
    "x.toml",
    ".continue/mcpServers/x.yaml",
    "goose/config.yaml",
    ".goose/recipes/recipe.yaml",
    "smithery.yaml",
    "servers/x/server.yaml",
    ".github/agents/x.agent.md",
    "x.frontmatter",
    "unknown",
];

/// Lossy text: the parsers see text after UTF-8 decoding, so feed them text.
fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Run every config and manifest reader over a parsed document, as `acquire` does.
fn read_doc(doc: &Doc, names: &[&str]) -> Acquired {
    let mut out = Acquired::default();
    for name in names {
        if manifest::read(&mut doc.clone(), name, &mut out).is_none() {
            configs::read(doc, name, &mut out);
        }
    }
    check_surfaces(&out);
    out
}

/// Invariants every acquired surface keeps: located in its own file, ids unique per file.
fn check_surfaces(a: &Acquired) {
    for s in &a.surfaces {
        assert!(s.source.location.line >= 1, "line 0 for {}", s.id);
        assert!(s.source.location.column >= 1, "column 0 for {}", s.id);
        let _ = s.text_fields();
    }
}

fn parse_and_read(
    data: &[u8],
    parse: fn(&str, &str) -> Result<Doc, parse::InputError>,
    names: &[&str],
) {
    let t = text_of(data);
    if let Ok(doc) = parse(&t, names[0]) {
        let _ = doc.pos("");
        read_doc(&doc, names);
    }
}

/// JSONC parser + every JSON-shaped reader.
pub fn parse_jsonc(data: &[u8]) {
    let names: Vec<&str> = NAMES
        .iter()
        .copied()
        .filter(|n| n.ends_with(".json") || n.ends_with(".jsonc"))
        .collect();
    parse_and_read(data, parse::jsonc, &names);
    // Differential: the strict-JSON fast path must give exactly the located
    // parser's document whenever it answers.
    let t = text_of(data);
    if let Ok(fast) = parse::jsonc(&t, "d.json") {
        let located = parse::jsonc_located(&t, "d.json");
        assert_eq!(Ok(fast), located, "fast path and located parser differ");
    }
}

/// TOML parser + the Codex reader (and every other shape over the same Doc).
pub fn parse_toml(data: &[u8]) {
    parse_and_read(
        data,
        parse::toml,
        &[".codex/config.toml", "x.toml", "manifest.json"],
    );
}

/// YAML parser (plain and front matter) + the YAML-shaped readers.
pub fn parse_yaml(data: &[u8]) {
    let names = [
        ".continue/mcpServers/x.yaml",
        "goose/config.yaml",
        ".goose/recipes/recipe.yaml",
        "smithery.yaml",
        "servers/x/server.yaml",
    ];
    parse_and_read(data, parse::yaml, &names);
    let t = text_of(data);
    if let Some((y, off)) = parse::front_matter(&t)
        && let Ok(doc) = parse::yaml_with_offset(y, ".github/agents/x.agent.md", off)
    {
        read_doc(&doc, &[".github/agents/x.agent.md"]);
    }
}

/// Render every report format and check what each promises.
fn render_all(r: &ScanResult) {
    let v = gate::decide(
        r,
        mcptrustchecker::score::FailOn::At(Grade::D),
        DriftRule::Always,
    )
    .verdict;
    let s = sarif::render(r, &v);
    let parsed: serde_json::Value = serde_json::from_str(&s).expect("SARIF output is not JSON");
    assert_eq!(parsed["version"], "2.1.0");
    assert!(parsed["runs"].is_array());
    let j = json::render(r, &v);
    serde_json::from_str::<serde_json::Value>(&j).expect("JSON report is not JSON");
    let opts = markdown::Options::default();
    let md = markdown::render(r, &v, &opts);
    assert!(
        md.chars().count() < opts.max_chars,
        "Markdown over its limit"
    );
    assert!(!md.contains('\u{1b}'), "ESC in Markdown");
}

/// The whole file path: name chosen by the first byte, parse, read, scan, report.
pub fn scan_file(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let name = NAMES[sel as usize % NAMES.len()];
    let t = text_of(rest);
    let Ok(doc) = acquire::parse_file(&t, name) else {
        return;
    };
    let a = read_doc(&doc, &[name]);
    let r = detect::run(a, &ScanOptions::default());
    render_all(&r);
}

/// Lockfile reader: never panics; what it accepts round-trips exactly.
pub fn lockfile(data: &[u8]) {
    let t = text_of(data);
    let Ok(lock) = Lockfile::parse(&t, "mcptrustchecker.lock") else {
        return;
    };
    let once = lock.to_text();
    let again = Lockfile::parse(&once, "mcptrustchecker.lock")
        .unwrap_or_else(|e| panic!("written lockfile does not parse: {e:?}\n{once}"));
    assert_eq!(once, again.to_text(), "lockfile text is not a fixed point");
    for e in lock.entries.values() {
        for list in ["tools", "prompts", "resources", "resourceTemplates"] {
            let _ = e.surface_items(list);
        }
    }
}

/// A one-tool surface whose description, parameter text and name come from the input.
fn one_tool(desc: &str, name: &str) -> ServerSurface {
    let src = Source {
        location: Location::new("t.json", 1, 1),
        format: "tool-manifest".into(),
        client: None,
    };
    let mut s = ServerSurface::new("t.json".into(), "t".into(), src, Transport::Unknown);
    s.tools.push(Item::new(
        name,
        serde_json::json!({
            "name": name,
            "description": desc,
            "inputSchema": {"type": "object", "properties": {"to": {"type": "string", "description": desc}}}
        }),
        Some(Location::new("t.json", 4, 3)),
    ));
    s
}

fn scan_one(s: ServerSurface) -> ScanResult {
    let a = Acquired {
        surfaces: vec![s],
        ..Acquired::default()
    };
    detect::run(a, &ScanOptions::default())
}

/// Unicode decoders (tags, variation selectors, BiDi, confusables, zero-width…):
/// no panic, evidence always visible, the same result twice.
pub fn unicode(data: &[u8]) {
    let t = text_of(data);
    let r = scan_one(one_tool(&t, "send_email"));
    for s in &r.servers {
        for f in &s.findings {
            assert!(
                !f.evidence.chars().any(text::is_invisible),
                "invisible character in evidence of {}: {:?}",
                f.rule_id,
                f.evidence
            );
        }
    }
    let v = gate::decide(
        &r,
        mcptrustchecker::score::FailOn::At(Grade::D),
        DriftRule::Always,
    )
    .verdict;
    let again = scan_one(one_tool(&t, "send_email"));
    assert_eq!(
        json::render(&r, &v),
        json::render(&again, &v),
        "scan is not deterministic"
    );
}

/// Entities and code tags `escape_inline` may emit.
const INERT: &[&str] = &[
    "<code>@</code>",
    "<code>#</code>",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#32;",
];

/// Remove the constructs `escape_inline` is allowed to emit, leaving the copied text.
fn strip_inert(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    'outer: while let Some(c) = rest.chars().next() {
        for tok in INERT {
            if let Some(r) = rest.strip_prefix(tok) {
                out.push('\u{FFFD}');
                rest = r;
                continue 'outer;
            }
        }
        if let Some(r) = rest.strip_prefix("&#") {
            let digits = r.chars().take_while(|d| d.is_ascii_digit()).count();
            if digits > 0 && r[digits..].starts_with(';') {
                let n: u32 = r[..digits].parse().unwrap_or(0);
                let ch = char::from_u32(n).unwrap_or('\0');
                assert!(
                    ch.is_ascii_punctuation(),
                    "entity for a non-punctuation char: {n}"
                );
                out.push('\u{FFFD}');
                rest = &r[digits + 1..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The Markdown escapers: inline text is one inert line, a block cannot close its fence.
pub fn markdown_escape(data: &[u8]) {
    let t = text_of(data);
    let inline = markdown::escape_inline(&t);
    let left = strip_inert(&inline);
    // Raw only where it means nothing: mid-line, and never completing an
    // autolink (`://`, `www.`, `mailto:`, `xmpp:`).
    let lower = left.to_ascii_lowercase();
    for bad in ["://", "www.", "mailto:", "xmpp:"] {
        assert!(!lower.contains(bad), "{bad} in {inline:?}");
    }
    for (i, c) in left.chars().enumerate() {
        assert!(!text::is_invisible(c), "invisible {:?} in {inline:?}", c);
        let mid_line_safe =
            i > 0 && matches!(c, '.' | ':' | '-' | '(' | ')' | '+' | '=' | '{' | '}');
        assert!(
            !c.is_ascii_punctuation()
                || mid_line_safe
                || matches!(c, ',' | '\'' | '/' | '?' | ';' | '%' | '^'),
            "raw {c:?} in {inline:?}"
        );
        assert!(!matches!(c, '\n' | '\r' | '\t'), "line break in {inline:?}");
    }
    assert!(
        !left.starts_with(' ') && !left.contains("  "),
        "space run in {inline:?}"
    );
    let cut = markdown::escape_cut(&t, 40);
    assert!(strip_inert(&cut).chars().count() <= 41 * 8);

    let block = markdown::escape_block(&t);
    let first = block.lines().next().unwrap();
    let fence = first
        .strip_suffix("text")
        .expect("block opens with a fence");
    assert!(fence.len() >= 3 && fence.chars().all(|c| c == '`'));
    assert!(block.ends_with(&format!("\n{fence}\n")), "block not closed");
    let inner: Vec<&str> = block.lines().collect();
    let inner = &inner[1..inner.len() - 1];
    assert_eq!(inner.len(), t.replace("\r\n", "\n").split('\n').count());
    for l in inner {
        assert!(!l.contains(fence), "fence closable from inside: {l:?}");
        assert!(
            !l.chars().any(|c| text::is_invisible(c) || c == '\r'),
            "invisible in block line {l:?}"
        );
    }
}

/// SARIF writer over surfaces whose every field is fuzzed: output is valid JSON.
pub fn sarif(data: &[u8]) {
    let t = text_of(data);
    let mut parts = t.split('\u{FFFD}');
    let mut next = || parts.next().unwrap_or("").to_string();
    let (id, name, path, tool, desc, url) = (next(), next(), next(), next(), next(), next());
    let src = Source {
        location: Location::new(path.clone(), 1, 1),
        format: "config".into(),
        client: None,
    };
    let transport = Transport::Remote {
        url,
        protocol: mcptrustchecker::surface::RemoteKind::Unspecified,
        header_names: vec![name.clone()],
    };
    let mut s = ServerSurface::new(format!("{path}#{id}"), name, src, transport);
    s.tools.push(Item::new(
        tool.clone(),
        serde_json::json!({"name": tool, "description": desc}),
        Some(Location::new(path, 2, 1)),
    ));
    render_all(&scan_one(s));
}

/// A fixed workspace for the path resolver: files, a directory, symlinks that
/// stay inside, leave it, dangle or loop, and a scratch `RUNNER_TEMP`. Built
/// once; nothing is ever written into it by the target.
struct Sandbox {
    ws: mcptrustchecker::acquire::confine::Workspace,
    outside: std::path::PathBuf,
    temp: std::path::PathBuf,
    _dirs: (tempfile::TempDir, tempfile::TempDir, tempfile::TempDir),
}

fn sandbox() -> &'static Sandbox {
    static S: std::sync::OnceLock<Sandbox> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let (w, o, t) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let root = w.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/b/mcp.json"), "{}").unwrap();
        std::fs::write(root.join("f.json"), "{}").unwrap();
        std::fs::write(o.path().join("secret.json"), "{}").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(root.join("a"), root.join("in")).unwrap();
            symlink(o.path(), root.join("out")).unwrap();
            symlink(o.path().join("secret.json"), root.join("s.json")).unwrap();
            symlink("/nonexistent/x", root.join("dangling")).unwrap();
            symlink(root.join("loop2"), root.join("loop1")).unwrap();
            symlink(root.join("loop1"), root.join("loop2")).unwrap();
            symlink("..", root.join("a/up")).unwrap();
        }
        Sandbox {
            ws: mcptrustchecker::acquire::confine::Workspace::new(root).unwrap(),
            outside: std::fs::canonicalize(o.path()).unwrap(),
            temp: std::fs::canonicalize(t.path()).unwrap(),
            _dirs: (w, o, t),
        }
    })
}

/// The workspace path resolver: never panics; whatever it resolves for reading
/// stays inside the workspace; whatever it allows as an output is under the
/// workspace or `RUNNER_TEMP` with no symlink on the way; the display form is a
/// clean relative path; `normalize` agrees with it.
pub fn confine(data: &[u8]) {
    use mcptrustchecker::acquire::confine::{self, PathError};
    let t = text_of(data);
    let sb = sandbox();
    let root = sb.ws.root();
    // Inputs may name the fixture's entries: map a few bytes onto them.
    let names = [
        "a/b/mcp.json",
        "in/b/mcp.json",
        "out/secret.json",
        "s.json",
        "dangling",
        "loop1",
        "a/up/f.json",
        "f.json",
    ];
    let mut candidates = vec![t.clone()];
    if let Some(&b) = data.first() {
        candidates.push(format!("{}{}", names[b as usize % names.len()], t));
        candidates.push(format!("{}/{}", names[b as usize % names.len()], t));
    }
    candidates.push(format!("{}/{t}", sb.temp.display()));
    candidates.push(format!("{}/{t}", root.display()));
    for c in &candidates {
        let norm = confine::normalize(c);
        match sb.ws.resolve(c) {
            Ok((p, display)) => {
                let n = norm
                    .as_ref()
                    .expect("resolve accepted what normalize refused");
                assert_eq!(&display, n, "display differs from normalize for {c:?}");
                assert!(
                    !display.starts_with('/') && !display.split('/').any(|s| s == ".." || s == ".")
                );
                if let Ok(real) = std::fs::canonicalize(&p) {
                    assert!(
                        real.starts_with(root),
                        "{c:?} resolved outside: {}",
                        real.display()
                    );
                    assert!(
                        !real.starts_with(&sb.outside),
                        "{c:?} reached the outside dir"
                    );
                }
            }
            Err(PathError::SymlinkOutside { .. } | PathError::Root(..)) => {}
            Err(_) => assert!(
                norm.is_err(),
                "resolve refused {c:?} that normalize accepts"
            ),
        }
        let _ = sb.ws.resolve_path(std::path::Path::new(c));
        if let Ok(out) = sb.ws.output(c, std::slice::from_ref(&sb.temp)) {
            let base = if out.starts_with(&sb.temp) {
                &sb.temp
            } else {
                root
            };
            assert!(out.starts_with(base), "output {c:?} at {}", out.display());
            let mut cur = base.to_path_buf();
            for comp in out.strip_prefix(base).unwrap().components() {
                cur.push(comp);
                if let Ok(m) = std::fs::symlink_metadata(&cur) {
                    assert!(
                        !m.file_type().is_symlink(),
                        "output {c:?} goes through {}",
                        cur.display()
                    );
                }
            }
            assert!(!out.starts_with(&sb.outside));
        }
    }
}

/// What the runner would run for one log line: the `::` command after leading
/// white space, or a legacy `##[` anywhere.
fn runs_command(line: &str) -> bool {
    line.trim_start().starts_with("::") || line.contains("##[")
}

/// The log escaper and the redactor. Escaper: no line of its output runs a
/// workflow command, line breaks are kept, it is idempotent, JSON keeps its
/// value, our own commands stay one line. Redactor: idempotent, argument lists
/// keep their length, no credential-shaped value of the input survives, a URL
/// password never survives.
pub fn log_redact(data: &[u8]) {
    use mcptrustchecker::text::{log, redact};
    let t = text_of(data);
    let safe = log::log_text(&t);
    for line in safe.split(['\n', '\r']) {
        assert!(!runs_command(line), "runner command survives: {line:?}");
    }
    assert_eq!(safe.matches('\n').count(), t.matches('\n').count());
    assert_eq!(safe.matches('\r').count(), t.matches('\r').count());
    assert_eq!(log::log_text(&safe), safe, "log_text is not idempotent");
    if !t.contains(['\n', '\r']) {
        assert_eq!(log::log_line(&t), safe);
    }
    let j = log::log_json(serde_json::to_string(&serde_json::Value::String(t.clone())).unwrap());
    assert!(!j.contains("##["));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&j).unwrap(),
        serde_json::Value::String(t.clone())
    );
    let cmd = log::workflow_command("error", &[("file", t.clone()), ("title", t.clone())], &t);
    assert!(!cmd.contains(['\n', '\r']) && !cmd.contains("##[") && cmd.starts_with("::error "));

    let once = redact::redact_secrets(&t).into_owned();
    assert_eq!(
        redact::redact_secrets(&once),
        once,
        "redact_secrets is not idempotent"
    );
    for m in redact::credential_formats().find_iter(&t) {
        let secret = m.as_str();
        if secret.len() >= 16 {
            assert!(!once.contains(secret), "{secret:?} survives in {once:?}");
        }
    }
    let url = redact::redact_url(&t);
    assert_eq!(
        redact::redact_url(&url),
        url,
        "redact_url is not idempotent"
    );
    if let Ok(u) = url::Url::parse(&t)
        && let Some(pw) = u.password()
        && pw.len() >= 8
        && !redact::is_reference(pw)
        && !pw.contains("[REDACTED")
        && !u.username().contains(pw)
        && !u.host_str().unwrap_or("").contains(pw)
        && !u.path().contains(pw)
    {
        assert!(
            !url.contains(&format!(":{pw}@")),
            "password survives in {url:?}"
        );
    }
    let args: Vec<String> = t.split('\u{0}').map(str::to_string).collect();
    let r = redact::redact_args(&args);
    assert_eq!(r.len(), args.len());
    assert_eq!(redact::redact_args(&r), r, "redact_args is not idempotent");
    for w in args.windows(2).zip(r.windows(2)) {
        let ((a, b), (_, rb)) = ((&w.0[0], &w.0[1]), (&w.1[0], &w.1[1]));
        if a == "--token"
            && b.len() >= 4
            && !b.starts_with('-')
            && !redact::is_reference(b)
            && !b.contains("[REDACTED")
        {
            assert_eq!(rb, &redact::redacted(b), "--token value not replaced");
        }
    }
}
