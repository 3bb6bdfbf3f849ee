//! Server descriptors and tool manifests: MCP registry `server.json`, MCPB/DXT
//! `manifest.json`, Docker `server.yaml`, Smithery, and every tool-list dump shape
//! (bare array, `{tools, prompts, …}`, JSON-RPC response, Inspector `{result}`,
//! and dumps with an `initialize` object).

use super::{Acquired, FileKind, configs, package};
use crate::parse::Doc;
use crate::surface::{
    Client, Coverage, Item, Location, RemoteKind, ServerSurface, Source, Transport,
};
use serde_json::Value;

/// Recognise and read a descriptor; `None` when the document is not one.
///
/// Item lists (tools, prompts, resources) are moved out of `doc`, not copied: a
/// 10,000-tool manifest is not held twice. Nothing is taken when `None` is returned.
pub fn read(doc: &mut Doc, path: &str, out: &mut Acquired) -> Option<FileKind> {
    let v = &doc.value;
    // Unwrap a JSON-RPC response or an Inspector `{result: …}` envelope.
    if let Some(result) = v.get("result").filter(|r| r.is_object() || r.is_array())
        && looks_like_catalog(result)
    {
        read_tool_manifest(doc, "/result", path, out);
        return Some(FileKind::ToolManifest);
    }
    if v.get("manifest_version").is_some()
        || v.get("dxt_version").is_some()
        || v.pointer("/server/mcp_config").is_some()
    {
        read_mcpb(doc, path, out);
        return Some(FileKind::McpbManifest);
    }
    if is_registry_server_json(v) {
        read_registry(
            doc,
            v.get("server").filter(|s| s.is_object()).unwrap_or(v),
            if v.get("server").is_some_and(Value::is_object) {
                "/server"
            } else {
                ""
            },
            path,
            out,
        );
        return Some(FileKind::RegistryServerJson);
    }
    if looks_like_catalog(v) && v.get("mcpServers").is_none() {
        read_tool_manifest(doc, "", path, out);
        return Some(FileKind::ToolManifest);
    }
    if v.get("image").is_some()
        && v.get("name").is_some()
        && matches!(
            v.get("type").and_then(Value::as_str),
            Some("server" | "remote" | "poci")
        )
    {
        read_docker_server(doc, path, out);
        return Some(FileKind::DockerServerYaml);
    }
    if v.get("type").and_then(Value::as_str) == Some("remote")
        && v.pointer("/remote/url").is_some()
        && v.get("name").is_some()
    {
        read_docker_server(doc, path, out);
        return Some(FileKind::DockerServerYaml);
    }
    if v.get("startCommand").is_some()
        || (v.get("runtime").is_some() && path.contains("smithery"))
        || (v.get("container").is_some() && path.contains("smithery"))
    {
        read_smithery(doc, path, out);
        return Some(FileKind::Smithery);
    }
    None
}

/// A tool list, or an object carrying one beside prompts/resources/initialize.
fn looks_like_catalog(v: &Value) -> bool {
    match v {
        Value::Array(a) => {
            !a.is_empty()
                && a.iter().all(|t| {
                    t.get("name").is_some_and(Value::is_string)
                        && (t.get("inputSchema").is_some()
                            || t.get("description").is_some()
                            || t.get("arguments").is_some())
                })
        }
        Value::Object(o) => {
            ["tools", "prompts", "resources", "resourceTemplates"]
                .iter()
                .any(|k| {
                    o.get(*k)
                        .and_then(Value::as_array)
                        .is_some_and(|a| a.iter().all(Value::is_object))
                })
                && !o.contains_key("mcpServers")
                && !o.contains_key("manifest_version")
                && !o.contains_key("mcp-servers")
                && !o.contains_key("mcp_servers")
        }
        _ => false,
    }
}

fn is_registry_server_json(v: &Value) -> bool {
    let inner = v.get("server").filter(|s| s.is_object()).unwrap_or(v);
    let schema = inner.get("$schema").and_then(Value::as_str).unwrap_or("");
    schema.contains("server.schema.json")
        || inner.get("registry_name").is_some()
        || (inner
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(|n| n.contains('/'))
            && (inner.get("packages").is_some() || inner.get("remotes").is_some()))
}

fn pos(doc: &Doc, ptr: &str, path: &str) -> Location {
    let (l, c) = doc.pos(ptr).unwrap_or((1, 1));
    Location::new(path, l, c)
}

/// The items of the array at `ptr`, moved out of the document (left `null`).
fn take_items(doc: &mut Doc, ptr: &str, path: &str) -> Vec<Item> {
    let Some(Value::Array(a)) = doc
        .value
        .pointer_mut(ptr)
        .filter(|l| l.is_array())
        .map(Value::take)
    else {
        return Vec::new();
    };
    a.into_iter()
        .enumerate()
        .map(|(i, raw)| {
            let name = raw
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{i}"));
            let at = pos(doc, &format!("{ptr}/{i}"), path);
            Item::new(name, raw, Some(at))
        })
        .collect()
}

fn read_tool_manifest(doc: &mut Doc, base: &str, path: &str, out: &mut Acquired) {
    let Some(v) = doc.value.pointer(base) else {
        return;
    };
    let init = v.get("initialize");
    let pick = |k: &str| {
        v.get(k)
            .or_else(|| init.and_then(|i| i.get(k)))
            .filter(|x| !x.is_null())
            .cloned()
    };
    let server_info = pick("serverInfo");
    let name = server_info
        .as_ref()
        .and_then(|s| s.get("name"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| v.get("name").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());
    let source = Source {
        location: Location::new(path, 1, 1),
        format: "tool-manifest".into(),
        client: None,
    };
    // A dump that records how the server was launched (real-catalogs shape) keeps it.
    let transport = match (
        v.get("command").and_then(Value::as_str),
        v.get("url").and_then(Value::as_str),
    ) {
        (Some(cmd), _) => Transport::Stdio {
            command: cmd.to_string(),
            args: v
                .get("args")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            env_names: v
                .get("env")
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default(),
            cwd: None,
        },
        (None, Some(url)) => Transport::Remote {
            url: url.to_string(),
            protocol: RemoteKind::Unspecified,
            header_names: Vec::new(),
        },
        _ => Transport::Unknown,
    };
    let mut s = ServerSurface::new(path.to_string(), name, source, transport);
    if let Transport::Stdio { command, args, .. } = &s.transport {
        s.package = package::identify(command, args);
    }
    read_package_meta(v, &mut s);
    s.server_info = server_info;
    s.capabilities = pick("capabilities");
    s.instructions = pick("instructions").and_then(|i| i.as_str().map(str::to_string));
    s.protocol_version = pick("protocolVersion").and_then(|p| p.as_str().map(str::to_string));
    if v.get("nextCursor").is_some_and(|c| !c.is_null()) {
        s.notes.push(
            "the dump has a nextCursor: later pages of the tool list are not in this file".into(),
        );
    }
    if v.is_array() {
        s.tools = take_items(doc, base, path);
    } else {
        s.tools = take_items(doc, &format!("{base}/tools"), path);
        s.prompts = take_items(doc, &format!("{base}/prompts"), path);
        s.resources = take_items(doc, &format!("{base}/resources"), path);
        s.resource_templates = take_items(doc, &format!("{base}/resourceTemplates"), path);
    }
    s.coverage = if s.catalog_is_empty() && s.instructions.is_none() {
        Coverage::Empty
    } else {
        Coverage::Manifest
    };
    out.surfaces.push(s);
}

/// A dump may declare the package it describes (`packageMeta`, the reference
/// corpus shape): keep it for the supply-chain stage, and take the package
/// identity from it when no spawn command gave one.
fn read_package_meta(v: &Value, s: &mut ServerSurface) {
    let Some(meta) = v.get("packageMeta").filter(|m| m.is_object()) else {
        return;
    };
    s.package_meta = Some(meta.clone());
    if s.package.is_some() {
        return;
    }
    let Some(name) = meta
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
    else {
        return;
    };
    let registry = meta
        .get("registry")
        .and_then(Value::as_str)
        .unwrap_or("npm")
        .to_ascii_lowercase();
    let version = meta
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_string);
    let pinned = version.as_deref().is_some_and(package::is_exact_version);
    // Declared, not requested: an empty spec keeps MTC-SUP-013 quiet.
    s.package = Some(crate::surface::PackageId {
        registry,
        name: name.to_string(),
        version,
        spec: String::new(),
        pinned,
    });
}

fn read_mcpb(doc: &mut Doc, path: &str, out: &mut Acquired) {
    let v = &doc.value;
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("mcpb")
        .to_string();
    let cfg = v.pointer("/server/mcp_config");
    let transport = match cfg.and_then(|c| c.get("command")).and_then(Value::as_str) {
        Some(cmd) => Transport::Stdio {
            command: cmd.to_string(),
            args: cfg
                .and_then(|c| c.get("args"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|x| {
                            x.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| x.to_string())
                        })
                        .collect()
                })
                .unwrap_or_default(),
            env_names: cfg
                .and_then(|c| c.get("env"))
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default(),
            cwd: None,
        },
        None => Transport::Unknown,
    };
    let source = Source {
        location: Location::new(path, 1, 1),
        format: "mcpb-manifest".into(),
        client: None,
    };
    let mut s = ServerSurface::new(path.to_string(), name, source, transport);
    if let Some(env) = cfg.and_then(|c| c.get("env")).and_then(Value::as_object) {
        s.env = env
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string()),
                )
            })
            .collect();
    }
    s.config_entry = cfg.cloned();
    // A full `initialize` and `tools/list` may be embedded for Windows: prefer them.
    let statics = v.pointer("/_meta/com.microsoft.windows/static_responses");
    // `tools/list` as one key or as nested `tools` → `list`.
    let tools_ptr = statics
        .and_then(|st| {
            [
                ("/tools/list/tools", "/tools/list"),
                ("/tools~1list/tools", "/tools~1list"),
            ]
            .into_iter()
            .find(|(_, list)| st.pointer(list).is_some_and(|r| r.get("tools").is_some()))
        })
        .map_or("/tools".to_string(), |(t, _)| {
            format!("/_meta/com.microsoft.windows/static_responses{t}")
        });
    if let Some(init) = statics.and_then(|st| st.get("initialize")) {
        s.server_info = init.get("serverInfo").cloned();
        s.capabilities = init.get("capabilities").cloned();
        s.instructions = init
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_string);
        s.protocol_version = init
            .get("protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_string);
    }
    if s.server_info.is_none() {
        s.server_info = Some(
            serde_json::json!({ "name": s.name, "version": v.get("version").cloned().unwrap_or(Value::Null) }),
        );
    }
    let generated = v.get("tools_generated").and_then(Value::as_bool) == Some(true)
        || v.get("prompts_generated").and_then(Value::as_bool) == Some(true);
    if generated {
        s.notes
            .push("the bundle generates more tools or prompts at run time than it declares".into());
    }
    if let Transport::Stdio { command, args, .. } = &s.transport {
        s.package = package::identify(command, args);
    }
    s.tools = take_items(doc, &tools_ptr, path);
    s.prompts = take_items(doc, "/prompts", path);
    s.coverage = if s.catalog_is_empty() {
        Coverage::ConfigOnly
    } else {
        Coverage::Manifest
    };
    out.surfaces.push(s);
}

fn read_registry(doc: &Doc, v: &Value, base: &str, path: &str, out: &mut Acquired) {
    let name = v
        .get("name")
        .or_else(|| v.get("registry_name"))
        .and_then(Value::as_str)
        .unwrap_or("server")
        .to_string();
    let mut entries: Vec<(String, Transport, Option<crate::surface::PackageId>, String)> =
        Vec::new();
    if let Some(Value::Array(pkgs)) = v.get("packages") {
        for (i, p) in pkgs.iter().enumerate() {
            let reg = p
                .get("registryType")
                .or_else(|| p.get("registry_type"))
                .or_else(|| p.get("registry_name"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let ident = p
                .get("identifier")
                .or_else(|| p.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let version = p.get("version").and_then(Value::as_str).map(str::to_string);
            let hint = p
                .get("runtimeHint")
                .or_else(|| p.get("runtime_hint"))
                .and_then(Value::as_str)
                .map(str::to_string);
            let command = hint.unwrap_or_else(|| match reg.as_str() {
                "npm" => "npx".into(),
                "pypi" => "uvx".into(),
                "oci" | "docker" => "docker".into(),
                "nuget" => "dnx".into(),
                _ => reg.clone(),
            });
            let env_names: Vec<String> = p
                .get("environmentVariables")
                .or_else(|| p.get("environment_variables"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e.get("name").and_then(Value::as_str).map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            let spec = match (reg.as_str(), &version) {
                ("pypi", Some(ver)) => format!("{ident}=={ver}"),
                ("oci" | "docker", Some(ver)) if !ident.contains(':') && !ident.contains('@') => {
                    format!("{ident}:{ver}")
                }
                (_, Some(ver)) if reg == "npm" => format!("{ident}@{ver}"),
                _ => ident.clone(),
            };
            let args = if command == "docker" {
                vec!["run".into(), "-i".into(), "--rm".into(), spec.clone()]
            } else {
                vec![spec.clone()]
            };
            let pkg = package::identify(&command, &args).or_else(|| {
                (!ident.is_empty()).then(|| crate::surface::PackageId {
                    registry: reg.clone(),
                    name: ident.clone(),
                    pinned: version.is_some(),
                    version: version.clone(),
                    spec: spec.clone(),
                })
            });
            let transport = match p.pointer("/transport/url").and_then(Value::as_str) {
                Some(url) => Transport::Remote {
                    url: url.into(),
                    protocol: remote_kind(p.pointer("/transport/type")),
                    header_names: Vec::new(),
                },
                None => Transport::Stdio {
                    command,
                    args,
                    env_names,
                    cwd: None,
                },
            };
            entries.push((
                format!("packages/{i}"),
                transport,
                pkg,
                format!("{base}/packages/{i}"),
            ));
        }
    }
    if let Some(Value::Array(remotes)) = v.get("remotes") {
        for (i, r) in remotes.iter().enumerate() {
            let url = r
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let header_names = r
                .get("headers")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|h| h.get("name").and_then(Value::as_str).map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            entries.push((
                format!("remotes/{i}"),
                Transport::Remote {
                    url,
                    protocol: remote_kind(r.get("type")),
                    header_names,
                },
                None,
                format!("{base}/remotes/{i}"),
            ));
        }
    }
    if entries.is_empty() {
        entries.push((String::new(), Transport::Unknown, None, base.to_string()));
    }
    let single = entries.len() == 1;
    for (suffix, transport, pkg, ptr) in entries {
        let id = if single {
            path.to_string()
        } else {
            format!("{path}#{suffix}")
        };
        let source = Source {
            location: pos(doc, &ptr, path),
            format: "registry-server-json".into(),
            client: None,
        };
        let mut s = ServerSurface::new(id, name.clone(), source, transport);
        s.package = pkg;
        s.server_info = Some(serde_json::json!({
            "name": name,
            "title": v.get("title").cloned().unwrap_or(Value::Null),
            "description": v.get("description").cloned().unwrap_or(Value::Null),
            "version": v.get("version").cloned().unwrap_or(Value::Null),
        }));
        s.notes.push("a registry server.json declares how to run the server, not its tools: the catalog was not inspected".into());
        s.config_entry = v.pointer(&ptr.replacen(base, "", 1)).cloned();
        out.surfaces.push(s);
    }
}

fn remote_kind(v: Option<&Value>) -> RemoteKind {
    match v.and_then(Value::as_str) {
        Some("streamable-http" | "http" | "streamable_http") => RemoteKind::StreamableHttp,
        Some("sse") => RemoteKind::Sse,
        _ => RemoteKind::Unspecified,
    }
}

fn read_docker_server(doc: &Doc, path: &str, out: &mut Acquired) {
    let v = &doc.value;
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("server")
        .to_string();
    let source = Source {
        location: Location::new(path, 1, 1),
        format: "docker-server-yaml".into(),
        client: None,
    };
    let mut entry = v.clone();
    // `run.command` / `run.env` / `config.secrets` describe the launch.
    if let Some(run) = v.get("run")
        && let Some(obj) = entry.as_object_mut()
        && let Some(env) = run.get("env")
    {
        obj.insert("env".into(), env.clone());
    }
    let mut s = configs::entry_to_surface(
        path.to_string(),
        &name,
        &entry,
        source,
        Client::Generic,
        out,
    );
    s.source.format = "docker-server-yaml".into();
    s.server_info = Some(
        serde_json::json!({ "name": name, "description": v.pointer("/about/description").cloned().unwrap_or(Value::Null) }),
    );
    out.surfaces.push(s);
}

fn read_smithery(doc: &Doc, path: &str, out: &mut Acquired) {
    let v = &doc.value;
    let kind = v
        .pointer("/startCommand/type")
        .and_then(Value::as_str)
        .unwrap_or("");
    let source = Source {
        location: pos(doc, "/startCommand", path),
        format: "smithery".into(),
        client: None,
    };
    let transport = if kind == "http" || v.get("runtime").is_some() || v.get("container").is_some()
    {
        Transport::Remote {
            url: "http://localhost:${PORT}/mcp".into(),
            protocol: RemoteKind::StreamableHttp,
            header_names: Vec::new(),
        }
    } else {
        Transport::Unknown
    };
    let name = path.rsplit('/').nth(1).unwrap_or("smithery").to_string();
    let mut s = ServerSurface::new(path.to_string(), name, source, transport);
    if v.pointer("/startCommand/commandFunction").is_some() {
        s.notes.push("the launch command is computed by a JavaScript commandFunction: not executed, not inspected".into());
    }
    s.config_entry = Some(v.clone());
    out.surfaces.push(s);
}
