//! Client configs: every format in `docs/spec/config-formats.md` normalised to
//! [`ServerSurface`]s, each located at the line of its entry.

use super::{Acquired, package};
use crate::finding::Finding;
use crate::parse::{Doc, ptr_seg};
use crate::rules::ids;
use crate::surface::{Client, Location, RemoteKind, ServerSurface, Source, Transport};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Which client a config path belongs to (the key names then confirm it).
pub fn client_from_path(path: &str) -> Option<Client> {
    let p = path.to_ascii_lowercase();
    let name = p.rsplit('/').next().unwrap_or(&p);
    let has = |s: &str| p.contains(s);
    Some(if has("claude_desktop_config") || has("claude-desktop") {
        Client::ClaudeDesktop
    } else if has(".cursor/") || has(".cursor_") || has("cursor/") {
        Client::Cursor
    } else if has(".vscode") || has("vscode/") || name.ends_with("devcontainer.json") {
        Client::VsCode
    } else if has("windsurf") || has("codeium") {
        Client::Windsurf
    } else if has("cline") {
        Client::Cline
    } else if has(".roo/") || has(".roo_") || has("roo-code") || has(".kilocode") {
        Client::RooCode
    } else if has(".zed/") || has("zed/") {
        Client::Zed
    } else if has(".continue") || has("continue/") {
        Client::Continue
    } else if has(".gemini") || has("gemini") {
        Client::GeminiCli
    } else if has("codex") || name.ends_with(".toml") {
        Client::Codex
    } else if has("opencode") {
        Client::Opencode
    } else if has("goose") || name.starts_with("recipe") {
        Client::Goose
    } else if has("amazonq") {
        Client::AmazonQ
    } else if has(".kiro") || has("kiro/") {
        Client::Kiro
    } else if has(".junie") || has("junie/") {
        Client::Junie
    } else if has("lmstudio") {
        Client::LmStudio
    } else if has(".copilot") || has(".github/") || has(".agent.md") || has("copilot") {
        Client::CopilotCli
    } else if name.ends_with(".mcp.json")
        || name == ".mcp.json"
        || has("claude")
        || has("managed-mcp")
    {
        Client::ClaudeCode
    } else {
        return None;
    })
}

/// One server map found in a config: its JSON Pointer and entries.
struct ServerMap<'a> {
    ptr: String,
    entries: Vec<(String, &'a Value, String)>,
    /// Client that this key shape implies.
    client_hint: Option<Client>,
    /// A `profile` suffix for the session id (e.g. a `~/.claude.json` project).
    session_suffix: Option<String>,
}

/// Read a client config; returns false when the document is not one.
pub fn read(doc: &Doc, path: &str, out: &mut Acquired) -> bool {
    let maps = find_server_maps(&doc.value);
    if maps.is_empty() {
        return false;
    }
    let path_client = client_from_path(path);
    for map in maps {
        let client = path_client.or(map.client_hint).unwrap_or(Client::Generic);
        let session = match &map.session_suffix {
            Some(s) => format!("{path}#{s}"),
            None => path.to_string(),
        };
        if let Some(note) = wrong_key_note(client, &map.ptr) {
            let (l, c) = doc.pos(&map.ptr).unwrap_or((1, 1));
            out.findings.push(
                Finding::new(
                    ids::MTC_META_002,
                    format!("{path}: {note}"),
                    Location::new(path, l, c),
                )
                .evidence(&map.ptr),
            );
        }
        for (name, entry, ptr) in map.entries {
            let (line, column) = doc.pos(&ptr).unwrap_or((1, 1));
            let id = match &map.session_suffix {
                Some(s) => format!("{path}#{s}/{name}"),
                None => format!("{path}#{name}"),
            };
            let source = Source {
                location: Location::new(path, line, column),
                format: "client-config".into(),
                client: Some(client),
            };
            let mut s = entry_to_surface(id, &name, entry, source, client, out);
            s.session = Some(session.clone());
            for (dptr, dl, dc) in &doc.duplicates {
                if *dptr == ptr {
                    out.findings.push(
                        Finding::new(
                            ids::MTC_META_002,
                            format!("server `{name}` in {path} is defined twice; most clients silently launch only the last definition (line {line}), hiding the one at line {dl}"),
                            Location::new(path, *dl, *dc),
                        )
                        .server(&s.id)
                        .evidence(format!("duplicate key `{name}` at line {dl}")),
                    );
                }
            }
            out.surfaces.push(s);
        }
    }
    true
}

/// A client reading the wrong key loads nothing: worth a reviewer's attention.
fn wrong_key_note(client: Client, ptr: &str) -> Option<String> {
    match (client, ptr) {
        (Client::VsCode, "/mcpServers") => Some("VS Code reads `servers` from mcp.json; the `mcpServers` key here loads nothing in VS Code".into()),
        (Client::Cursor | Client::ClaudeCode | Client::ClaudeDesktop | Client::Windsurf | Client::RooCode | Client::Kiro | Client::AmazonQ, "/servers") => {
            Some(format!("{} reads `mcpServers`; the `servers` key here loads nothing in that client", client.as_str()))
        }
        _ => None,
    }
}

fn is_entry(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    [
        "command",
        "cmd",
        "url",
        "serverUrl",
        "httpUrl",
        "uri",
        "type",
        "transport",
        "transportType",
        "args",
        "source",
        "image",
    ]
    .iter()
    .any(|k| o.contains_key(*k))
}

fn map_entries<'a>(v: &'a Value, ptr: &str) -> Vec<(String, &'a Value, String)> {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, e)| (k.clone(), e, format!("{ptr}/{}", ptr_seg(k))))
            .collect(),
        // Continue and Goose recipes use lists of entries with a `name`.
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let name = e
                    .get("name")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("#{i}"));
                (name, e, format!("{ptr}/{i}"))
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn find_server_maps(root: &Value) -> Vec<ServerMap<'_>> {
    let mut maps = Vec::new();
    let Some(obj) = root.as_object() else {
        return maps;
    };
    // Direct keys.
    let direct: &[(&str, Option<Client>)] = &[
        ("mcpServers", None),
        ("servers", Some(Client::VsCode)),
        ("context_servers", Some(Client::Zed)),
        ("mcp_servers", Some(Client::Codex)),
        ("mcp-servers", Some(Client::CopilotCli)),
        ("extensions", Some(Client::Goose)),
    ];
    for (key, hint) in direct {
        if let Some(v) = obj.get(*key) {
            let ptr = format!("/{}", ptr_seg(key));
            let entries = map_entries(v, &ptr);
            let ok = match *key {
                // `servers` and `extensions` are common words: require entry-shaped values.
                "servers" | "extensions" => {
                    !entries.is_empty()
                        && entries.iter().all(|(_, e, _)| is_entry(e) || goose_like(e))
                }
                _ => v.is_object() || v.is_array(),
            };
            if ok {
                let hint = if *key == "mcpServers" && v.is_array() {
                    Some(Client::Continue)
                } else {
                    *hint
                };
                maps.push(ServerMap {
                    ptr,
                    entries,
                    client_hint: hint,
                    session_suffix: None,
                });
            }
        }
    }
    // opencode: `mcp` (v1 map, v2 `mcp.servers`); VS Code legacy settings `mcp.servers`.
    if let Some(mcp) = obj.get("mcp").and_then(Value::as_object) {
        if let Some(servers) = mcp.get("servers").filter(|v| v.is_object()) {
            maps.push(ServerMap {
                ptr: "/mcp/servers".into(),
                entries: map_entries(servers, "/mcp/servers"),
                client_hint: Some(Client::Opencode),
                session_suffix: None,
            });
        } else if !mcp.is_empty() && mcp.values().all(is_entry) {
            maps.push(ServerMap {
                ptr: "/mcp".into(),
                entries: map_entries(obj.get("mcp").unwrap_or(&Value::Null), "/mcp"),
                client_hint: Some(Client::Opencode),
                session_suffix: None,
            });
        }
    }
    // VS Code pre-GA key.
    if let Some(v) = obj.get("github.copilot.chat.mcp.servers") {
        let ptr = format!("/{}", ptr_seg("github.copilot.chat.mcp.servers"));
        maps.push(ServerMap {
            entries: map_entries(v, &ptr),
            ptr,
            client_hint: Some(Client::VsCode),
            session_suffix: None,
        });
    }
    // Dev containers.
    if let Some(v) = root.pointer("/customizations/vscode/mcp/servers") {
        maps.push(ServerMap {
            ptr: "/customizations/vscode/mcp/servers".into(),
            entries: map_entries(v, "/customizations/vscode/mcp/servers"),
            client_hint: Some(Client::VsCode),
            session_suffix: None,
        });
    }
    // Continue legacy config.json.
    if let Some(v) = root.pointer("/experimental/modelContextProtocolServers") {
        let ptr = "/experimental/modelContextProtocolServers";
        maps.push(ServerMap {
            ptr: ptr.into(),
            entries: map_entries(v, ptr),
            client_hint: Some(Client::Continue),
            session_suffix: None,
        });
    }
    // Kiro powers.
    if let Some(v) = root.pointer("/powers/mcpServers") {
        maps.push(ServerMap {
            ptr: "/powers/mcpServers".into(),
            entries: map_entries(v, "/powers/mcpServers"),
            client_hint: Some(Client::Kiro),
            session_suffix: Some("powers".into()),
        });
    }
    // ~/.claude.json local scope: projects.<abs path>.mcpServers, one session per project.
    if let Some(projects) = obj.get("projects").and_then(Value::as_object) {
        for (proj, pv) in projects {
            if let Some(v) = pv.get("mcpServers") {
                let ptr = format!("/projects/{}/mcpServers", ptr_seg(proj));
                maps.push(ServerMap {
                    entries: map_entries(v, &ptr),
                    ptr,
                    client_hint: Some(Client::ClaudeCode),
                    session_suffix: Some(format!("projects/{proj}")),
                });
            }
        }
    }
    // Docker MCP catalog: `registry: {name: {image|remote}}`.
    if let Some(reg) = obj.get("registry").and_then(Value::as_object)
        && !reg.is_empty()
        && reg
            .values()
            .all(|v| v.get("image").is_some() || v.get("remote").is_some())
    {
        maps.push(ServerMap {
            ptr: "/registry".into(),
            entries: map_entries(obj.get("registry").unwrap_or(&Value::Null), "/registry"),
            client_hint: None,
            session_suffix: None,
        });
    }
    // Wrapper-less map (Claude Code plugin `.mcp.json`): every value is an entry.
    if maps.is_empty()
        && !obj.is_empty()
        && obj
            .values()
            .all(|v| is_entry(v) && (v.get("command").is_some() || v.get("url").is_some()))
    {
        maps.push(ServerMap {
            ptr: String::new(),
            entries: map_entries(root, ""),
            client_hint: Some(Client::ClaudeCode),
            session_suffix: None,
        });
    }
    maps
}

fn goose_like(v: &Value) -> bool {
    v.get("cmd").is_some()
        || v.get("uri").is_some()
        || matches!(
            v.get("type").and_then(Value::as_str),
            Some("builtin" | "platform" | "stdio" | "streamable_http" | "sse")
        )
}

fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Collect `k: v` string maps, noting non-string values.
fn string_map(v: Option<&Value>, what: &str, notes: &mut Vec<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, val) in m {
                // Numbers and booleans are accepted by several clients (VS Code); nested values are not.
                if val.is_object() || val.is_array() {
                    notes.push(format!(
                        "`{what}.{k}` is a {}, not a string",
                        type_name(val)
                    ));
                }
                out.insert(k.clone(), str_of(val));
            }
        }
        // Registry-style list of {name, value}.
        Some(Value::Array(a)) => {
            for e in a {
                if let Some(n) = e.get("name").and_then(Value::as_str) {
                    out.insert(
                        n.to_string(),
                        e.get("value").map(str_of).unwrap_or_default(),
                    );
                } else if let Some(s) = e.as_str() {
                    out.insert(s.to_string(), String::new());
                }
            }
        }
        Some(_) => notes.push(format!("`{what}` should be a map")),
    }
    out
}

/// Turn one config entry into a surface (config-only coverage).
pub fn entry_to_surface(
    id: String,
    name: &str,
    entry: &Value,
    source: Source,
    client: Client,
    out: &mut Acquired,
) -> ServerSurface {
    let mut notes = Vec::new();
    // Type problems: what a reviewer sees may not be what the client runs.
    let mut problems: Vec<String> = Vec::new();
    let empty = Map::new();
    let o = entry.as_object().unwrap_or(&empty);
    if !entry.is_object() {
        problems.push(format!(
            "server entry is a {}, not an object",
            type_name(entry)
        ));
    }
    let ty = o
        .get("type")
        .or_else(|| o.get("transport"))
        .or_else(|| o.get("transportType"))
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);

    // Command: string, argv array (opencode), Zed legacy object, Goose `cmd`, Docker `image`.
    let mut command: Option<String> = None;
    let mut args: Vec<String> = Vec::new();
    let mut env_extra: Option<&Value> = None;
    match o.get("command").or_else(|| o.get("cmd")) {
        Some(Value::String(s)) => command = Some(s.clone()),
        Some(Value::Array(a)) => {
            let mut it = a.iter().map(str_of);
            command = it.next();
            args.extend(it);
        }
        Some(Value::Object(z)) => {
            command = z.get("path").map(str_of);
            if let Some(Value::Array(a)) = z.get("args") {
                args.extend(a.iter().map(str_of));
            }
            env_extra = z.get("env");
        }
        Some(Value::Null) | None => {}
        Some(other) => problems.push(format!(
            "`command` has the wrong type ({})",
            type_name(other)
        )),
    }
    // Continue legacy: `transport: {type, command, args}`.
    if let Some(t) = o.get("transport").and_then(Value::as_object)
        && command.is_none()
    {
        command = t.get("command").map(str_of);
        if let Some(Value::Array(a)) = t.get("args") {
            args.extend(a.iter().map(str_of));
        }
    }
    match o.get("args") {
        Some(Value::Array(a)) => {
            if a.iter().any(|v| !v.is_string()) {
                problems.push("`args` holds non-string values".to_string());
            }
            args.extend(a.iter().map(str_of));
        }
        Some(Value::String(s)) => {
            problems.push(
                "`args` is a string, not a list: clients split it differently or reject it"
                    .to_string(),
            );
            args.extend(s.split_whitespace().map(str::to_string));
        }
        Some(Value::Null) | None => {}
        Some(other) => problems.push(format!("`args` has the wrong type ({})", type_name(other))),
    }
    // Docker catalogs and registry server.yaml: an image run by docker.
    if command.is_none()
        && let Some(img) = o.get("image").and_then(Value::as_str)
    {
        command = Some("docker".into());
        args = vec!["run".into(), "-i".into(), "--rm".into(), img.to_string()];
    }

    let mut env = string_map(
        o.get("env")
            .or_else(|| o.get("environment"))
            .or_else(|| o.get("envs"))
            .or(env_extra),
        "env",
        &mut problems,
    );
    for key in ["env_vars", "env_keys"] {
        if let Some(Value::Array(a)) = o.get(key) {
            for v in a {
                let n = v
                    .as_str()
                    .map(str::to_string)
                    .or_else(|| v.get("name").and_then(Value::as_str).map(str::to_string));
                if let Some(n) = n {
                    env.entry(n).or_default();
                }
            }
        }
    }
    let mut headers = string_map(
        o.get("headers").or_else(|| o.get("http_headers")),
        "headers",
        &mut problems,
    );
    if let Some(h) = o.get("requestOptions").and_then(|r| r.get("headers")) {
        headers.extend(string_map(Some(h), "requestOptions.headers", &mut problems));
    }
    if let Some(Value::Object(m)) = o.get("env_http_headers") {
        for k in m.keys() {
            headers.entry(k.clone()).or_default();
        }
    }
    if o.get("bearer_token_env_var").is_some() || o.get("apiKey").is_some() {
        headers.entry("Authorization".into()).or_default();
    }

    let url_key = ["url", "serverUrl", "httpUrl", "uri"]
        .into_iter()
        .find(|k| o.get(*k).is_some());
    let url = url_key
        .and_then(|k| o.get(k))
        .map(str_of)
        .or_else(|| entry.pointer("/remote/url").map(str_of));
    let disabled = o.get("disabled").and_then(Value::as_bool) == Some(true)
        || o.get("enabled").and_then(Value::as_bool) == Some(false);

    let transport = if let Some(cmd) = command.clone().filter(|_| {
        !matches!(
            ty.as_deref(),
            Some(
                "http"
                    | "sse"
                    | "remote"
                    | "streamable-http"
                    | "streamablehttp"
                    | "streamable_http"
                    | "ws"
            )
        )
    }) {
        Transport::Stdio {
            command: cmd,
            args: args.clone(),
            env_names: env.keys().cloned().collect(),
            cwd: o.get("cwd").map(str_of),
        }
    } else if let Some(url) = url {
        let rt = entry
            .pointer("/remote/transport_type")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase);
        let protocol = match ty.as_deref().or(rt.as_deref()) {
            Some("http" | "streamable-http" | "streamablehttp" | "streamable_http") => {
                RemoteKind::StreamableHttp
            }
            Some("sse") => RemoteKind::Sse,
            Some("ws" | "websocket") => RemoteKind::WebSocket,
            _ if url_key == Some("httpUrl") => RemoteKind::StreamableHttp,
            // Cline and Gemini CLI treat a bare `url` as legacy SSE.
            _ if matches!(client, Client::Cline | Client::GeminiCli) => RemoteKind::Sse,
            _ => RemoteKind::Unspecified,
        };
        Transport::Remote {
            url,
            protocol,
            header_names: headers.keys().cloned().collect(),
        }
    } else {
        if ty.as_deref() == Some("builtin") || ty.as_deref() == Some("platform") {
            notes.push("client built-in extension: no command or URL to inspect".to_string());
        } else {
            notes.push("entry has neither a command nor a URL".to_string());
        }
        Transport::Unknown
    };

    let mut s = ServerSurface::new(id, name.to_string(), source, transport);
    if let Transport::Stdio { command, args, .. } = &s.transport {
        s.package = package::identify(command, args);
    }
    if !problems.is_empty() {
        let loc = s.source.location.clone();
        out.findings.push(
            Finding::new(
                ids::MTC_META_002,
                format!(
                    "server `{name}` has fields with the wrong types: {}",
                    problems.join("; ")
                ),
                loc,
            )
            .server(&s.id)
            .evidence(problems.join("; ")),
        );
    }
    notes.extend(problems);
    s.notes = notes;
    s.env = env;
    s.headers = headers;
    s.disabled = disabled;
    s.config_entry = Some(entry.clone());
    s
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}
