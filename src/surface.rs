//! The one data model: a server's model-visible surface, however it was acquired.
//!
//! Every tool, prompt and resource is kept verbatim as JSON (unknown fields
//! included): a model may read any of them, so the scanner must too.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A place in a file of the repository (1-based line and column).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub column: u32,
}

impl Location {
    pub fn new(path: impl Into<String>, line: u32, column: u32) -> Self {
        Location {
            path: path.into(),
            line,
            column,
        }
    }
}

/// How much of the server's catalog was actually inspected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Read from the running server.
    Live,
    /// Read from a static descriptor or tool manifest.
    Manifest,
    /// Read from the committed lockfile snapshot.
    Lockfile,
    /// Only the launch configuration is known; the catalog was not inspected.
    ConfigOnly,
    /// A descriptor was read but declares nothing.
    Empty,
}

impl Coverage {
    pub fn as_str(self) -> &'static str {
        match self {
            Coverage::Live => "live",
            Coverage::Manifest => "manifest",
            Coverage::Lockfile => "lockfile",
            Coverage::ConfigOnly => "config-only",
            Coverage::Empty => "empty",
        }
    }
}

/// Which remote protocol a URL entry asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RemoteKind {
    StreamableHttp,
    Sse,
    WebSocket,
    /// Remote, protocol negotiated by the client.
    Unspecified,
}

/// How the client reaches the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Transport {
    Stdio {
        command: String,
        args: Vec<String>,
        /// Names of the environment variables the config gives the process.
        env_names: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    Remote {
        url: String,
        protocol: RemoteKind,
        /// Names of the headers the config sends (values are never reported).
        header_names: Vec<String>,
    },
    /// The entry names no command and no URL (e.g. a client built-in or an extension reference).
    Unknown,
}

impl Transport {
    pub fn kind_str(&self) -> &'static str {
        match self {
            Transport::Stdio { .. } => "stdio",
            Transport::Remote {
                protocol: RemoteKind::Sse,
                ..
            } => "sse",
            Transport::Remote {
                protocol: RemoteKind::WebSocket,
                ..
            } => "websocket",
            Transport::Remote {
                protocol: RemoteKind::StreamableHttp,
                ..
            } => "streamable-http",
            Transport::Remote {
                protocol: RemoteKind::Unspecified,
                ..
            } => "remote",
            Transport::Unknown => "unknown",
        }
    }
}

/// The package a spawn command installs and runs, when it implies one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PackageId {
    /// `npm`, `pypi`, `oci`, `jsr`, …
    pub registry: String,
    pub name: String,
    /// The version or tag as requested (`None`: no version given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The spec exactly as written in the config (`pkg@latest`, `pkg==1.2`).
    pub spec: String,
    /// True when the spec names one immutable version (or an OCI digest).
    pub pinned: bool,
}

/// Which client's format declared the server (drives built-in tool profiles and sessions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Client {
    ClaudeDesktop,
    ClaudeCode,
    Cursor,
    VsCode,
    Windsurf,
    Cline,
    RooCode,
    Zed,
    Continue,
    GeminiCli,
    Codex,
    Opencode,
    Goose,
    AmazonQ,
    Kiro,
    Junie,
    LmStudio,
    CopilotCli,
    /// `mcpServers`-shaped file whose client cannot be told from its path.
    Generic,
}

impl Client {
    pub fn as_str(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "claude-desktop",
            Client::ClaudeCode => "claude-code",
            Client::Cursor => "cursor",
            Client::VsCode => "vscode",
            Client::Windsurf => "windsurf",
            Client::Cline => "cline",
            Client::RooCode => "roo-code",
            Client::Zed => "zed",
            Client::Continue => "continue",
            Client::GeminiCli => "gemini-cli",
            Client::Codex => "codex",
            Client::Opencode => "opencode",
            Client::Goose => "goose",
            Client::AmazonQ => "amazon-q",
            Client::Kiro => "kiro",
            Client::Junie => "junie",
            Client::LmStudio => "lm-studio",
            Client::CopilotCli => "copilot-cli",
            Client::Generic => "generic",
        }
    }
}

/// Where a surface came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// Repo-relative path with `/` separators, line and column of the server's entry.
    #[serde(flatten)]
    pub location: Location,
    /// `config`, `registry-server-json`, `mcpb-manifest`, `tool-manifest`, …
    pub format: String,
    /// The client whose config declared it, when it is a client config.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client: Option<Client>,
}

/// One tool, prompt, resource or resource template, verbatim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    pub name: String,
    /// The object exactly as acquired (every field, unknown ones included).
    pub raw: Value,
    /// Where the item is written in the repository, when it is.
    #[serde(skip)]
    pub location: Option<Location>,
}

impl Item {
    pub fn new(name: impl Into<String>, raw: Value, location: Option<Location>) -> Self {
        Item {
            name: name.into(),
            raw,
            location,
        }
    }
    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.raw.get(key).and_then(Value::as_str)
    }
    pub fn description(&self) -> &str {
        self.str_field("description").unwrap_or("")
    }
}

/// Everything known about one MCP server.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerSurface {
    /// Stable id: repo-relative config path + `#` + server name, or the descriptor path.
    pub id: String,
    /// The server's name in its config (or descriptor name).
    pub name: String,
    pub source: Source,
    /// The session (one client config) this server belongs to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    pub transport: Transport,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<PackageId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_info: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    pub tools: Vec<Item>,
    pub prompts: Vec<Item>,
    pub resources: Vec<Item>,
    pub resource_templates: Vec<Item>,
    pub coverage: Coverage,
    /// The config disables this server (`disabled: true`, `enabled: false`).
    pub disabled: bool,
    /// Environment values given by the config. Never printed; posture and policy read them.
    #[serde(skip)]
    pub env: BTreeMap<String, String>,
    /// Header values given by the config. Never printed.
    #[serde(skip)]
    pub headers: BTreeMap<String, String>,
    /// The config entry as written (for posture and policy checks).
    #[serde(skip)]
    pub config_entry: Option<Value>,
    /// Package metadata a manifest declares beside its tools (`packageMeta`:
    /// scripts, repositoryUrl, license, dependencies), read by the supply-chain stage.
    #[serde(skip)]
    pub package_meta: Option<Value>,
    /// Facts about acquisition worth telling the reader (skipped parts, duplicates, …).
    pub notes: Vec<String>,
    /// Tool name → index, built on first lookup (findings look tools up by name;
    /// a linear search per finding was quadratic on 10,000-tool catalogs).
    /// Verified on every hit, so a stale index after a mutation only costs speed.
    #[serde(skip)]
    pub tool_index: std::sync::OnceLock<std::collections::HashMap<String, usize>>,
    /// What the server is for, as stage 2 concept bits (its name, tool names
    /// and their first sentences; and apart, its instructions' first
    /// sentence), computed on first use: data a server is about is not out of
    /// place in its own text.
    #[serde(skip)]
    pub purpose: std::sync::OnceLock<(u128, u128)>,
    /// Tool names with case and separators removed, built on first lookup (stage 2
    /// asks whether an identifier in a description names one of the server's
    /// tools), each with whether it is marked destructive.
    #[serde(skip)]
    pub tool_names: std::sync::OnceLock<std::collections::HashMap<String, bool>>,
}

impl ServerSurface {
    /// A surface with only its identity and transport; the catalog is filled by acquisition.
    pub fn new(id: String, name: String, source: Source, transport: Transport) -> Self {
        ServerSurface {
            id,
            name,
            source,
            session: None,
            transport,
            package: None,
            server_info: None,
            protocol_version: None,
            capabilities: None,
            instructions: None,
            tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
            resource_templates: Vec::new(),
            coverage: Coverage::ConfigOnly,
            disabled: false,
            env: BTreeMap::new(),
            headers: BTreeMap::new(),
            config_entry: None,
            package_meta: None,
            notes: Vec::new(),
            tool_index: std::sync::OnceLock::new(),
            purpose: std::sync::OnceLock::new(),
            tool_names: std::sync::OnceLock::new(),
        }
    }

    /// True when no tool, prompt, resource or template is known.
    pub fn catalog_is_empty(&self) -> bool {
        self.tools.is_empty()
            && self.prompts.is_empty()
            && self.resources.is_empty()
            && self.resource_templates.is_empty()
    }

    pub fn tool(&self, name: &str) -> Option<&Item> {
        let index = self.tool_index.get_or_init(|| {
            // Reversed so the first of two same-named tools wins, as a linear search would.
            self.tools
                .iter()
                .enumerate()
                .rev()
                .map(|(i, t)| (t.name.clone(), i))
                .collect()
        });
        if let Some(t) = index.get(name).and_then(|&i| self.tools.get(i))
            && t.name == name
        {
            return Some(t);
        }
        self.tools.iter().find(|t| t.name == name)
    }

    /// The best repository location for a finding about `tool` (or the server itself).
    pub fn location_for(&self, tool: Option<&str>) -> Location {
        tool.and_then(|t| self.tool(t))
            .and_then(|t| t.location.clone())
            .unwrap_or_else(|| self.source.location.clone())
    }

    /// The best repository location for a finding about a field path such as
    /// `tools[x].description` or `prompts[y]`.
    pub fn location_for_field(&self, field: &str) -> Location {
        let lists: [(&str, &Vec<Item>); 4] = [
            ("tools[", &self.tools),
            ("prompts[", &self.prompts),
            ("resources[", &self.resources),
            ("resourceTemplates[", &self.resource_templates),
        ];
        for (prefix, items) in lists {
            if let Some(rest) = field.strip_prefix(prefix)
                && let Some(end) = rest.find(']')
            {
                let name = &rest[..end];
                let item = if prefix == "tools[" {
                    self.tool(name)
                } else {
                    items.iter().find(|i| i.name == name)
                };
                if let Some(loc) = item.and_then(|i| i.location.clone()) {
                    return loc;
                }
            }
        }
        self.source.location.clone()
    }
}

/// The channel a piece of text reaches the model through; injection patterns
/// differ per channel (server instructions fire at connect time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Channel {
    /// Tool/prompt/resource names, URIs, serverInfo: identifiers.
    Name,
    /// A tool, prompt or resource description or title.
    Description,
    /// A parameter description or any other string inside a schema.
    Parameter,
    /// The server's free-text instructions.
    Instructions,
    /// Other metadata (serverInfo text, unknown fields).
    Other,
}

/// One string a model may read, with the exact field path it sits at.
#[derive(Debug, Clone)]
pub struct TextField<'a> {
    /// e.g. `tools[send_email].inputSchema.properties.bcc.default`
    pub path: String,
    pub channel: Channel,
    pub text: &'a str,
    /// The tool/prompt/resource the text belongs to, if any.
    pub item: Option<&'a str>,
    /// `tool`, `prompt`, `resource`, `resource-template`, `server`.
    pub item_kind: &'static str,
}

/// Maximum depth walked inside a schema; deeper content is still reported by the depth note.
pub const MAX_WALK_DEPTH: usize = 64;

/// A part of a surface whose text fields are walked together: the server's own
/// fields, or one item. Stages 1 and 2 walk and check parts in parallel.
#[derive(Clone, Copy)]
pub enum TextPart<'a> {
    Server,
    Item {
        item: &'a Item,
        /// `tools`, `prompts`, `resources`, `resourceTemplates`.
        list: &'static str,
        kind: &'static str,
    },
}

impl ServerSurface {
    /// Every string field of the surface a model may read, in a stable order.
    pub fn text_fields(&self) -> Vec<TextField<'_>> {
        let mut out = Vec::new();
        let mut path = String::with_capacity(128);
        for part in self.text_parts() {
            self.walk_part(part, &mut path, &mut out);
        }
        out
    }

    /// The parts of [`Self::text_fields`], in the same order.
    pub fn text_parts(&self) -> Vec<TextPart<'_>> {
        let mut parts = vec![TextPart::Server];
        for (items, list, kind) in [
            (&self.tools, "tools", "tool"),
            (&self.prompts, "prompts", "prompt"),
            (&self.resources, "resources", "resource"),
            (
                &self.resource_templates,
                "resourceTemplates",
                "resource-template",
            ),
        ] {
            parts.extend(items.iter().map(|item| TextPart::Item { item, list, kind }));
        }
        parts
    }

    /// Appends the text fields of one part to `out`. `path` is a scratch buffer:
    /// the walk keeps one path and copies it out only for a string leaf.
    pub fn walk_part<'a>(
        &'a self,
        part: TextPart<'a>,
        path: &mut String,
        out: &mut Vec<TextField<'a>>,
    ) {
        path.clear();
        match part {
            TextPart::Server => {
                if let Some(instr) = &self.instructions {
                    out.push(TextField {
                        path: "instructions".into(),
                        channel: Channel::Instructions,
                        text: instr,
                        item: None,
                        item_kind: "server",
                    });
                }
                if let Some(info) = &self.server_info {
                    path.push_str("serverInfo");
                    walk_value(info, path, Channel::Other, None, "server", 0, out);
                }
            }
            TextPart::Item { item, list, kind } => {
                path.push_str(list);
                path.push('[');
                path.push_str(&item.name);
                path.push(']');
                walk_item(item, path, kind, out);
            }
        }
    }
}

fn walk_item<'a>(
    item: &'a Item,
    path: &mut String,
    kind: &'static str,
    out: &mut Vec<TextField<'a>>,
) {
    let Value::Object(map) = &item.raw else {
        walk_value(
            &item.raw,
            path,
            Channel::Other,
            Some(&item.name),
            kind,
            0,
            out,
        );
        return;
    };
    let base = path.len();
    for (key, value) in map {
        path.truncate(base);
        path.push('.');
        path.push_str(key);
        let channel = match key.as_str() {
            "name" | "uri" | "uriTemplate" | "mimeType" => Channel::Name,
            "description" | "title" => Channel::Description,
            "inputSchema" | "outputSchema" | "arguments" => Channel::Parameter,
            _ => Channel::Other,
        };
        walk_value(value, path, channel, Some(&item.name), kind, 0, out);
    }
    path.truncate(base);
}

/// Walks `value` whose path is `path`; `path` is restored before returning.
fn walk_value<'a>(
    value: &'a Value,
    path: &mut String,
    channel: Channel,
    item: Option<&'a str>,
    kind: &'static str,
    depth: usize,
    out: &mut Vec<TextField<'a>>,
) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    let base = path.len();
    match value {
        Value::String(s) => out.push(TextField {
            path: path.clone(),
            channel,
            text: s,
            item,
            item_kind: kind,
        }),
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                // Prompt arguments are a list of named objects: name the path by argument name.
                match v.get("name").and_then(Value::as_str) {
                    Some(n) => {
                        path.push('.');
                        path.push_str(n);
                    }
                    None => {
                        use std::fmt::Write;
                        let _ = write!(path, "[{i}]");
                    }
                }
                walk_value(v, path, channel, item, kind, depth + 1, out);
                path.truncate(base);
            }
        }
        Value::Object(map) => {
            // Property names in a schema are text a model reads as well.
            let properties = path.ends_with(".properties");
            for (k, v) in map {
                path.push('.');
                path.push_str(k);
                if properties {
                    out.push(TextField {
                        path: path.clone(),
                        channel: Channel::Name,
                        text: k,
                        item,
                        item_kind: kind,
                    });
                }
                walk_value(v, path, channel, item, kind, depth + 1, out);
                path.truncate(base);
            }
        }
        _ => {}
    }
}
