//! Stage 3, capability: the roles each tool can play, derived from its name,
//! description and parameter shape (lexicon in `src/data/capability_lexicon.toml`),
//! never from its annotations — annotations are only checked against the roles.

use super::ScanOptions;
use crate::finding::Finding;
use crate::model::Role;
use crate::surface::{Item, ServerSurface};
use rayon::prelude::*;
use regex::Regex;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

#[derive(Deserialize)]
struct LexiconFile {
    name: NameLex,
    params: ParamLex,
    description: ContextPatterns,
}

/// Patterns that qualify a parameter by the words around it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextPatterns {
    exec_context: String,
    exec_negative: String,
    output_path: String,
    recipient_context: String,
    remote_context: String,
    local_context: String,
    input_path: String,
}

#[derive(Deserialize)]
struct NameLex {
    read_verbs: Vec<String>,
    write_verbs: Vec<String>,
    send_verbs: Vec<String>,
    create_verbs: Vec<String>,
    sink_objects: Vec<String>,
    sink_phrases: Vec<String>,
    exec_standalone: Vec<String>,
    exec_verbs: Vec<String>,
    exec_objects: Vec<String>,
    untrusted_standalone: Vec<String>,
    untrusted_objects: Vec<String>,
    untrusted_phrases: Vec<String>,
    untrusted_object_phrases: Vec<String>,
    not_sink_phrases: Vec<String>,
    param_id_tokens: Vec<String>,
    sensitive_standalone: Vec<String>,
    sensitive_objects: Vec<String>,
    file_objects: Vec<String>,
    getter_prefixes: Vec<String>,
    getter_suffixes: Vec<String>,
    mutation_tokens: Vec<String>,
    destructive_tokens: Vec<String>,
    detach_objects: Vec<String>,
    namespace_prefixes: Vec<String>,
    high_impact_verbs: Vec<String>,
    high_impact_phrases: Vec<String>,
    high_impact_objects: Vec<String>,
    request_tokens: Vec<String>,
    inspect_verbs: Vec<String>,
    other_verbs: Vec<String>,
    meta_tokens: Vec<String>,
    draft_tokens: Vec<String>,
    listing_only: Vec<String>,
    public_tokens: Vec<String>,
    private_containers: Vec<String>,
    comment_objects: Vec<String>,
    forge_context: Vec<String>,
    forge_words: Vec<String>,
    private_words: Vec<String>,
    settings_tokens: Vec<String>,
    page_namespaces: Vec<String>,
    snapshot_namespaces: Vec<String>,
    page_no_content: Vec<String>,
    page_content_tokens: Vec<String>,
    page_input_tokens: Vec<String>,
    remote_tokens: Vec<String>,
    drop_objects: Vec<String>,
    upload_verbs: Vec<String>,
    people_sinks: Vec<String>,
    store_verbs: Vec<String>,
}

#[derive(Deserialize)]
struct ParamLex {
    url: Vec<String>,
    path: Vec<String>,
    command: Vec<String>,
    recipient: Vec<String>,
    sql: Vec<String>,
    http_shape: Vec<String>,
    ssrf: Vec<String>,
    traversal: Vec<String>,
    injection: Vec<String>,
    secret_fields: Vec<String>,
    secret_exclusions: Vec<String>,
    destination: Vec<String>,
    strong_secrets: Vec<String>,
}

/// The compiled lexicon.
struct Lexicon {
    name: NameLex,
    params: ParamLex,
    exec_context: crate::lazy::Lazy<Regex>,
    exec_negative: crate::lazy::Lazy<Regex>,
    recipient_context: crate::lazy::Lazy<Regex>,
    output_path: crate::lazy::Lazy<Regex>,
    remote_context: crate::lazy::Lazy<Regex>,
    local_context: crate::lazy::Lazy<Regex>,
    input_path: crate::lazy::Lazy<Regex>,
}

fn lexicon() -> &'static Lexicon {
    static LEX: OnceLock<Lexicon> = OnceLock::new();
    LEX.get_or_init(|| {
        // Compiled in and covered by a unit test: a parse failure is a build defect.
        let file: LexiconFile = crate::data::parse(
            crate::data::json!("capability_lexicon"),
            "capability_lexicon",
        );
        // ASCII word boundaries: a Unicode `\b` disables the lazy DFA and costs ~100× on long descriptions.
        let compile = |p: &str| {
            let p = p.to_string();
            crate::lazy::Lazy::pattern(move || {
                Regex::new(&p.replace("\\b", "(?-u:\\b)"))
                    .unwrap_or_else(|e| panic!("capability_lexicon.toml pattern {p:?}: {e}"))
            })
        };
        let d = &file.description;
        Lexicon {
            exec_context: compile(&d.exec_context),
            exec_negative: compile(&d.exec_negative),
            output_path: compile(&d.output_path),
            recipient_context: compile(&d.recipient_context),
            remote_context: compile(&d.remote_context),
            local_context: compile(&d.local_context),
            input_path: compile(&d.input_path),
            name: file.name,
            params: file.params,
        }
    })
}

/// Split an identifier into lowercase tokens: snake, kebab, dotted, camelCase.
pub fn tokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            // `readFile` → read|File; `HTTPRequest` → HTTP|Request.
            if prev.is_lowercase() || prev.is_numeric() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Where a role came from (annotation contradictions only trust name and parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    Name,
    Param,
    Description,
}

/// The roles of one tool with the reason for each.
#[derive(Debug, Clone, Default)]
pub struct ToolRoles {
    pub roles: BTreeMap<Role, (Basis, String)>,
}

impl ToolRoles {
    fn add(&mut self, role: Role, basis: Basis, why: String) {
        self.roles.entry(role).or_insert((basis, why));
    }
    pub fn has(&self, r: Role) -> bool {
        self.roles.contains_key(&r)
    }
    pub fn set(&self) -> BTreeSet<Role> {
        self.roles.keys().copied().collect()
    }
}

fn any_in<'a>(toks: &'a [String], list: &[String]) -> Option<&'a str> {
    toks.iter()
        .find(|t| list.iter().any(|l| l == *t))
        .map(String::as_str)
}

fn phrase_in(toks: &[String], phrases: &[String]) -> Option<String> {
    let joined = format!(" {} ", toks.join(" "));
    phrases
        .iter()
        .find(|p| joined.contains(&format!(" {p} ")))
        .cloned()
}

/// Top-level input properties: (name, schema).
pub fn params(item: &Item) -> Vec<(&str, &Value)> {
    item.raw
        .get("inputSchema")
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

/// Whether a schema admits strings (no `type`, `string`, or a list holding it).
fn stringy(obj: &serde_json::Map<String, Value>) -> bool {
    match obj.get("type") {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
        _ => false,
    }
}

/// A string parameter with nothing that narrows its value.
pub fn unconstrained(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return true;
    };
    stringy(obj)
        && !["enum", "pattern", "const", "format"]
            .iter()
            .any(|k| obj.contains_key(*k))
}

/// Derive a tool's roles on its own (no sibling tools known).
pub fn classify(item: &Item) -> ToolRoles {
    classify_in(item, &[])
}

/// Derive a tool's roles from its name, its description (sentence by sentence,
/// `behaviour::read`) and its parameters. `siblings`: the lowercased names of
/// the server's other tools (a description segment about one of them is skipped).
pub fn classify_in(item: &Item, siblings: &[String]) -> ToolRoles {
    let lex = lexicon();
    let n = &lex.name;
    let mut toks = tokens(&item.name);
    // `API-post-page`: after an `api` prefix, an HTTP method is what the call does.
    if toks.len() > 1 && toks[0] == "api" {
        let m = match toks[1].as_str() {
            "post" => Some("create"),
            "patch" | "put" => Some("update"),
            _ => None,
        };
        if let Some(m) = m {
            toks[1] = m.to_string();
        }
    }
    let mut r = ToolRoles::default();
    let first = toks.first().map(String::as_str).unwrap_or("");
    let desc_lower = item.description().to_lowercase();
    // A one-word router (`sql`, `storage`) says nothing by its name: its description does.
    let router = toks.len() == 1 && lex.exec_negative.is_match(&desc_lower);
    let has = |list: &[String]| any_in(&toks, list).is_some();
    let is_verb = |t: &str| {
        [
            &n.read_verbs,
            &n.write_verbs,
            &n.send_verbs,
            &n.create_verbs,
            &n.exec_verbs,
            &n.destructive_tokens,
            &n.high_impact_verbs,
            &n.other_verbs,
        ]
        .iter()
        .any(|l| l.iter().any(|v| v == t))
    };
    // The verb run of the name: its first verb and the verbs joined to it
    // (`create_or_update_file`, `find_and_replace_doc`); nouns before it are a namespace.
    let skip = usize::from(n.namespace_prefixes.iter().any(|p| p == first) && toks.len() > 1);
    let vstart = toks
        .iter()
        .skip(skip)
        .position(|t| is_verb(t))
        .map(|i| i + skip);
    let mut run: Vec<usize> = Vec::new();
    if let Some(i) = vstart {
        run.push(i);
        let mut j = i + 1;
        while j + 1 < toks.len()
            && matches!(toks[j].as_str(), "and" | "or")
            && is_verb(&toks[j + 1])
        {
            run.push(j + 1);
            j += 2;
        }
    }
    let run_has = |list: &[String]| {
        run.iter()
            .map(|&i| toks[i].as_str())
            .find(|t| list.iter().any(|l| l == t))
    };
    let replace = run.iter().any(|&i| toks[i] == "replace");
    let read = run_has(&n.read_verbs).filter(|_| !replace);
    let write = run_has(&n.write_verbs);
    let verb = vstart.map(|i| toks[i].as_str()).unwrap_or("");
    // An object token other than the verb itself (`query … query` is one word).
    let obj = |list: &[String]| {
        toks.iter()
            .enumerate()
            .find(|(i, t)| !run.contains(i) && list.iter().any(|l| l == *t))
            .map(|(i, t)| (i, t.as_str()))
    };
    // Facts about a thing after its object (`get_file_info`, `list_gmail_labels`) read no content.
    let after_run = run.last().map_or(0, |&i| i + 1);
    let meta_after = |i: usize| {
        toks[after_run.min(i + 1)..]
            .iter()
            .any(|t| n.meta_tokens.iter().any(|m| m == t))
    };
    let meta_name = meta_after(after_run);
    // A draft is the user's own unsent words (publishing drafts does send them).
    let draft = has(&n.draft_tokens) && run_has(&n.send_verbs).is_none();
    // A comment is public on a forge and private on a document or a workspace page.
    let forge = has(&n.forge_context)
        || n.forge_words
            .iter()
            .any(|w| desc_lower.contains(w.as_str()));
    let private_ctx = has(&n.private_containers)
        || n.private_words
            .iter()
            .any(|w| desc_lower.contains(w.as_str()));
    let detach = has(&n.detach_objects);
    let page_ns = n.page_namespaces.iter().any(|p| p == first);
    // The tool's files live on a remote service (a Drive file, a GitLab file).
    let remote_desc = lex.remote_context.is_match(&desc_lower);
    let remote_tool =
        has(&n.remote_tokens) || (remote_desc && !lex.local_context.is_match(&desc_lower));
    let snapshot_ns = n.snapshot_namespaces.iter().any(|p| p == first);

    if !router {
        // code-exec
        if let Some(t) = any_in(&toks, &n.exec_standalone) {
            r.add(Role::CodeExec, Basis::Name, format!("name token `{t}`"));
        } else if let (Some(v), Some(o)) =
            (any_in(&toks, &n.exec_verbs), any_in(&toks, &n.exec_objects))
        {
            r.add(Role::CodeExec, Basis::Name, format!("name `{v} … {o}`"));
        }
        // untrusted-input
        let private_container = private_ctx;
        // Notes are the user's own unless they are a forge's comments.
        let ui_obj = obj(&n.untrusted_objects).filter(|(i, t)| {
            let comment = n.comment_objects.iter().any(|c| c == t);
            !(meta_after(*i) || (private_container && comment))
                && (!matches!(*t, "note" | "notes") || forge)
        });
        if draft {
            // Drafts are the user's own words.
        } else if let Some(t) = any_in(&toks, &n.untrusted_standalone) {
            r.add(
                Role::UntrustedInput,
                Basis::Name,
                format!("name token `{t}`"),
            );
        } else if snapshot_ns && !has(&n.page_no_content) && !has(&n.page_input_tokens) {
            // (An input tool puts data into the page; the page it then shows is the next call's input.)
            r.add(
                Role::UntrustedInput,
                Basis::Name,
                format!("`{first}_…` tools return the page they act on"),
            );
        } else if page_ns && let Some(t) = any_in(&toks, &n.page_content_tokens) {
            r.add(
                Role::UntrustedInput,
                Basis::Name,
                format!("name `{first} … {t}` (page content)"),
            );
        } else if let Some(p) = phrase_in(&toks, &n.untrusted_phrases)
            .or_else(|| {
                // `open_pull_request` creates one; `get_pull_request` reads it.
                read.filter(|v| !n.create_verbs.iter().any(|c| c == v))
                    .and_then(|_| phrase_in(&toks, &n.untrusted_object_phrases))
            })
            .filter(|_| !toks.iter().any(|t| n.meta_tokens.iter().any(|m| m == t)))
        {
            r.add(Role::UntrustedInput, Basis::Name, format!("name `{p}`"));
        } else if let (Some(v), Some((_, o))) = (read, ui_obj)
            && !(n.create_verbs.iter().any(|c| c == v) && n.sink_objects.iter().any(|x| x == o))
        {
            // (`open_pull_request` opens one for others to read: a sink, not an input.)
            r.add(
                Role::UntrustedInput,
                Basis::Name,
                format!("name `{v} … {o}`"),
            );
        }
        // sensitive-source
        let public = has(&n.public_tokens);
        if let Some(t) = any_in(&toks, &n.sensitive_standalone)
            && (write.is_none() || read.is_some() || t == "sql")
            && !public
        {
            r.add(
                Role::SensitiveSource,
                Basis::Name,
                format!("name token `{t}`"),
            );
        }
        if let (Some(v), Some((i, o))) = (read, obj(&n.sensitive_objects))
            && !meta_after(i)
            && !public
            && !(v == "list" && n.listing_only.iter().any(|l| l == o))
            && !(forge && n.comment_objects.iter().any(|c| c == o))
        {
            r.add(
                Role::SensitiveSource,
                Basis::Name,
                format!("name `{v} … {o}`"),
            );
        }
        // external-sink
        let not_sink = phrase_in(&toks, &n.not_sink_phrases).is_some()
            || draft
            || detach
            || toks
                .last()
                .is_some_and(|l| n.settings_tokens.iter().any(|s| s == l));
        if not_sink {
        } else if let Some(t) = any_in(&toks, &n.send_verbs).filter(|t| {
            // An upload with no destination stores the file on the server's own service.
            !n.store_verbs.iter().any(|v| v == *t)
                || has_destination(item)
                || page_ns
                || snapshot_ns
        }) {
            r.add(Role::ExternalSink, Basis::Name, format!("name token `{t}`"));
        } else if let Some(p) = phrase_in(&toks, &n.sink_phrases) {
            r.add(Role::ExternalSink, Basis::Name, format!("name `{p}`"));
        } else if let (Some(v), Some((_, o))) = (run_has(&n.create_verbs), obj(&n.sink_objects))
            && (forge || !n.comment_objects.iter().any(|c| c == o))
        {
            r.add(Role::ExternalSink, Basis::Name, format!("name `{v} … {o}`"));
        } else if page_ns | snapshot_ns
            && let Some(t) = any_in(&toks, &n.page_input_tokens)
        {
            r.add(
                Role::ExternalSink,
                Basis::Name,
                format!("name `{first} … {t}` (data typed into a web page)"),
            );
        }
        // file-write: local files only (a Drive file or a GitLab file is not on this disk).
        if let (Some(v), Some((_, o))) = (write, obj(&n.file_objects))
            && !remote_tool
        {
            r.add(Role::FileWrite, Basis::Name, format!("name `{v} … {o}`"));
        }
        // destructive: a deleting verb, unless what goes is only an association (`delete_issue_link`).
        if let Some(t) = any_in(&toks, &n.destructive_tokens)
            && !detach
            && (t != "drop" || has(&n.drop_objects))
        {
            r.add(Role::Destructive, Basis::Name, format!("name token `{t}`"));
        }
        // high-impact: money, deployments, permissions.
        if n.high_impact_verbs.iter().any(|v| v == verb) {
            r.add(Role::HighImpact, Basis::Name, format!("name verb `{verb}`"));
        } else if let Some(p) = phrase_in(&toks, &n.high_impact_phrases) {
            r.add(Role::HighImpact, Basis::Name, format!("name `{p}`"));
        } else if let (Some(v), Some((_, o))) = (
            write.or_else(|| run_has(&n.high_impact_verbs)),
            obj(&n.high_impact_objects),
        ) {
            r.add(Role::HighImpact, Basis::Name, format!("name `{v} … {o}`"));
        }
    }

    // Description: each sentence's verbs and objects.
    let desc = item.description();
    for reading in super::behaviour::read(desc, siblings) {
        let obj_word = reading
            .object
            .as_ref()
            .map(|(w, _)| w.as_str())
            .unwrap_or("");
        let comment = n
            .comment_objects
            .iter()
            .any(|c| obj_word.starts_with(c.as_str()));
        // Comments: untrusted and sent out on a forge, private on a document.
        if comment
            && matches!(reading.role, Role::UntrustedInput | Role::ExternalSink)
            && (private_ctx || !forge)
            && !(reading.role == Role::UntrustedInput && forge)
        {
            continue;
        }
        r.add(
            reading.role,
            Basis::Description,
            format!("{} in \"{}\"", reading.words, reading.sentence),
        );
    }
    let desc = desc.to_lowercase();

    // Parameter shape.
    let ps = params(item);
    let p = &lex.params;
    let router = lex.exec_negative.is_match(&desc);
    let tool_ctx = (lex.exec_context.is_match(&desc) && !router) || r.has(Role::CodeExec);
    let url_params: Vec<(&str, &Value)> = ps
        .iter()
        .filter(|(k, _)| {
            let t = tokens(k);
            any_in(&t, &p.url).is_some() && any_in(&t, &n.param_id_tokens).is_none()
        })
        .map(|(k, v)| (*k, *v))
        .collect();
    let has_url = url_params.first().map(|(k, _)| *k);
    let http = ps
        .iter()
        .find(|(k, _)| any_in(&tokens(k), &p.http_shape).is_some())
        .map(|(k, _)| *k);
    let mutating_name = write.is_some() || run_has(&n.send_verbs).is_some();
    for (k, schema) in &ps {
        let pt = tokens(k);
        let pdesc_raw = schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("");
        let pdesc = pdesc_raw.to_lowercase();
        let ident = any_in(&pt, &n.param_id_tokens).is_some();
        if any_in(&pt, &p.command).is_some()
            && run_has(&n.inspect_verbs).is_none()
            && unconstrained(schema)
            && (tool_ctx || (lex.exec_context.is_match(&pdesc) && !router))
            && !(pt.len() == 1 && pt[0] == "code" && !tool_ctx)
        {
            r.add(Role::CodeExec, Basis::Param, format!("parameter `{k}`"));
        }
        if any_in(&pt, &p.path).is_some()
            && !ident
            && any_in(&pt, &p.url).is_none()
            && any_in(&pt, &p.recipient).is_none()
            // On a tool of a remote service a path names a remote object, unless it says local.
            && (!remote_desc || lex.local_context.is_match(&pdesc))
        {
            // An output path (`save the result to`) is written, not read; an input path is read.
            let input = lex.input_path.is_match(&pdesc)
                || pt
                    .iter()
                    .any(|t| matches!(t.as_str(), "from" | "input" | "source" | "src"));
            let output = (lex.output_path.is_match(&pdesc)
                || pt.iter().any(|t| {
                    matches!(
                        t.as_str(),
                        "output" | "dest" | "destination" | "save" | "out"
                    )
                }))
                && !input;
            // Any mutating verb writes the local file its path names (an Excel workbook, a
            // repository); a remote service's tool only reads a local path, to upload it.
            let sends = run_has(&n.upload_verbs).or_else(|| page_input(&toks, n));
            let file_verb = write.filter(|_| !input && !remote_desc && sends.is_none());
            if read.is_some() && write.is_none() && !output && !meta_name {
                r.add(
                    Role::SensitiveSource,
                    Basis::Param,
                    format!("path parameter `{k}`"),
                );
            }
            // An upload, an attachment or a drop reads the local file it is given (and writes none).
            if let Some(v) = sends
                && !output
            {
                r.add(
                    Role::SensitiveSource,
                    Basis::Param,
                    format!("path parameter `{k}` of a `{v}` tool (the file is read and sent)"),
                );
            }
            if let Some(v) = file_verb {
                r.add(
                    Role::FileWrite,
                    Basis::Param,
                    format!("path parameter `{k}` on a `{v}` tool"),
                );
            } else if output {
                r.add(
                    Role::FileWrite,
                    Basis::Param,
                    format!("output path parameter `{k}`"),
                );
            }
        }
        let is_to = k.eq_ignore_ascii_case("to")
            && (lex.recipient_context.is_match(&pdesc)
                || schema.get("format").and_then(Value::as_str) == Some("email"));
        // `webhook_path` names the tool's own trigger, not a destination.
        let own_path = any_in(&pt, &p.path).is_some() || ident;
        if (any_in(&pt, &p.recipient).is_some() && !own_path) || is_to {
            r.add(
                Role::ExternalSink,
                Basis::Param,
                format!("recipient parameter `{k}`"),
            );
        }
        if any_in(&pt, &p.sql).is_some() && write.is_none() {
            r.add(
                Role::SensitiveSource,
                Basis::Param,
                format!("parameter `{k}`"),
            );
        }
        // A parameter's description says what the tool does with it (`URL to fetch`,
        // `local path to save the file`): read for the roles a parameter can show.
        for reading in super::behaviour::read(pdesc_raw, siblings) {
            let local_obj = reading
                .object
                .as_ref()
                .is_some_and(|(_, c)| c == "o_local_file" || c == "o_secret");
            let allowed = match reading.role {
                // Content a mutating tool fetches is stored, not read back; and only a
                // URL parameter's own description says what is fetched.
                Role::UntrustedInput => !mutating_name && !draft && any_in(&pt, &p.url).is_some(),
                // A parameter says it is read from a local file or a secret, not a record.
                Role::SensitiveSource => (local_obj || reading.phrase) && !remote_tool,
                Role::FileWrite => !remote_tool && !lex.input_path.is_match(&pdesc),
                Role::Destructive => reading.phrase,
                _ => false,
            };
            if allowed {
                r.add(
                    reading.role,
                    Basis::Param,
                    format!(
                        "parameter `{k}`: {} in \"{}\"",
                        reading.words, reading.sentence
                    ),
                );
            }
        }
    }
    // A URL with a method or a body is an HTTP client: it sends and it reads.
    if let (Some(u), Some(h)) = (has_url, http)
        && !mutating_name
    {
        r.add(
            Role::ExternalSink,
            Basis::Param,
            format!("parameters `{u}` + `{h}` (an HTTP client)"),
        );
        r.add(
            Role::UntrustedInput,
            Basis::Param,
            format!("URL parameter `{u}`"),
        );
    }
    // url-fetch: a caller-chosen URL that the tool requests (its name or its
    // description says it fetches, opens, loads, downloads or converts).
    for (u, schema) in &url_params {
        if !caller_chosen_url(schema) {
            continue;
        }
        let pdesc = schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("");
        // `get_story_by_external_link(url)`: the URL is a lookup key, not fetched.
        if toks.iter().any(|t| t == "by") {
            continue;
        }
        let how = if let Some(t) = any_in(&toks, &n.request_tokens).filter(|_| !mutating_name) {
            Some((Basis::Name, format!("parameter `{u}` of a `{t}` tool")))
        } else if let Some(v) = super::behaviour::requests(item.description()) {
            Some((
                Basis::Description,
                format!("parameter `{u}`, and the description says `{v}`"),
            ))
        } else {
            super::behaviour::requests(pdesc)
                .map(|v| (Basis::Param, format!("parameter `{u}`: \"{v}\"")))
        };
        if let Some((basis, why)) = how {
            r.add(
                Role::UrlFetch,
                basis,
                format!("{why} (a caller-chosen URL is requested)"),
            );
            if !mutating_name {
                r.add(
                    Role::UntrustedInput,
                    basis,
                    format!("fetched URL parameter `{u}`"),
                );
            }
            // `file:` URIs reach local files through the same parameter.
            let scheme = format!("{} {}", desc, pdesc.to_lowercase());
            if ["file://", "file:,", "file: or", "file: uri"]
                .iter()
                .any(|f| scheme.contains(f))
            {
                r.add(
                    Role::SensitiveSource,
                    Basis::Description,
                    format!("parameter `{u}` accepts `file:` URIs"),
                );
            }
            break;
        }
    }
    // Getter exclusion: `get_…`, `list_…`, `…_status` do not send, write, delete or deploy.
    let second = toks.get(1).map(String::as_str).unwrap_or("");
    let getter = n.getter_prefixes.iter().any(|g| g == first || g == second)
        || toks
            .last()
            .is_some_and(|l| n.getter_suffixes.iter().any(|g| g == l));
    if getter && any_in(&toks, &n.mutation_tokens).is_none() {
        for role in [Role::ExternalSink, Role::Destructive, Role::HighImpact] {
            r.roles.remove(&role);
        }
        // …but an output-file parameter still writes (`get_logs(output_dir)`).
        if r.roles
            .get(&Role::FileWrite)
            .is_some_and(|(b, _)| *b != Basis::Param)
        {
            r.roles.remove(&Role::FileWrite);
        }
    }
    // The page a tool fetches from a caller-chosen URL is the web's, not the
    // user's private page (`fetch_page(url)` is not Notion's `get_page`).
    if r.has(Role::UrlFetch)
        && r.roles.get(&Role::SensitiveSource).is_some_and(|(b, why)| {
            *b == Basis::Name && (why.ends_with(" page`") || why.ends_with(" pages`"))
        })
    {
        r.roles.remove(&Role::SensitiveSource);
    }
    // …whatever its description says about sending.
    if draft {
        r.roles.remove(&Role::ExternalSink);
        r.roles.remove(&Role::UntrustedInput);
    }
    // Removing an association (a reaction, a link) destroys nothing, whatever the boilerplate says.
    if detach
        && !r
            .roles
            .get(&Role::Destructive)
            .is_some_and(|(b, _)| *b == Basis::Name)
    {
        r.roles.remove(&Role::Destructive);
    }
    r
}

/// The page-input token of a browser tool's name (`browser_type`, `puppeteer_fill`).
fn page_input<'a>(toks: &'a [String], n: &NameLex) -> Option<&'a str> {
    let first = toks.first()?;
    let ns = n
        .page_namespaces
        .iter()
        .chain(&n.snapshot_namespaces)
        .any(|p| p == first);
    if !ns {
        return None;
    }
    toks.iter()
        .skip(1)
        .find(|t| n.page_input_tokens.iter().any(|p| p == *t))
        .map(String::as_str)
}

/// A URL parameter whose value the caller chooses: no enum or const, and no
/// pattern that pins a host (`^https://api\.example\.com/`). `format: uri`
/// only says it is a URL.
fn caller_chosen_url(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return true;
    };
    if obj.contains_key("enum") || obj.contains_key("const") || !stringy(obj) {
        return false;
    }
    match obj.get("pattern").and_then(Value::as_str) {
        None => true,
        Some(p) => {
            // After an optional anchor and scheme, a literal host character pins the destination.
            let rest = p.trim_start_matches('^');
            let rest = [
                "https?://",
                "https?:\\/\\/",
                "(https?|ftp)://",
                "https://",
                "http://",
            ]
            .iter()
            .find_map(|s| rest.strip_prefix(s))
            .unwrap_or(rest);
            !rest
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
        }
    }
}

/// Annotations a tool can make about itself, and the roles that make each a lie:
/// (key, claimed value, contradicting roles, what the claim means).
const ANNOTATION_CLAIMS: &[(&str, bool, &[Role], &str)] = &[
    (
        "readOnlyHint",
        true,
        &[
            Role::Destructive,
            Role::ExternalSink,
            Role::HighImpact,
            Role::CodeExec,
            Role::FileWrite,
        ],
        "it changes nothing",
    ),
    (
        "destructiveHint",
        false,
        &[Role::Destructive],
        "it destroys nothing",
    ),
    (
        "openWorldHint",
        false,
        &[Role::UrlFetch, Role::ExternalSink],
        "it reaches nothing outside",
    ),
];

/// Whether the caller chooses where the tool sends (a URL, a recipient, a channel).
fn has_destination(item: &Item) -> bool {
    let lex = lexicon();
    params(item).iter().any(|(k, _)| {
        let t = tokens(k);
        any_in(&t, &lex.params.url).is_some()
            || any_in(&t, &lex.params.recipient).is_some()
            || any_in(&t, &lex.params.destination).is_some()
    })
}

pub(crate) fn annotation(item: &Item, key: &str) -> Option<bool> {
    item.raw
        .get("annotations")
        .and_then(|a| a.get(key))
        .and_then(Value::as_bool)
}

/// Whether a field name asks for a secret (MTC-CAP-011).
pub fn secret_field(name: &str) -> bool {
    secret_in_name(name).is_some()
}

/// The secret a field name asks for (`password`, `sms_code`), if it asks for one.
fn secret_in_name(name: &str) -> Option<String> {
    let p = &lexicon().params;
    let lower = name.to_lowercase();
    if p.secret_exclusions
        .iter()
        .any(|e| e.eq_ignore_ascii_case(name))
    {
        return None;
    }
    let toks = tokens(name);
    let snake = toks.join("_");
    p.secret_fields
        .iter()
        .find(|f| {
            **f == lower
                || **f == snake
                || toks.iter().any(|t| t == *f)
                || (f.contains('_') && snake.contains(f.as_str()))
        })
        .cloned()
}

/// The lowercased tool names of a server: a description segment naming one of
/// them (`use 'read_file' first`) is usage guidance, not what the tool does.
pub fn sibling_names(s: &ServerSurface) -> Vec<String> {
    let mut names: Vec<String> = s.tools.iter().map(|t| t.name.to_lowercase()).collect();
    names.sort();
    names.dedup();
    names
}

/// Every tool of a server with its roles, as stage 3 derives them.
pub fn classify_server(s: &ServerSurface) -> Vec<(&Item, ToolRoles)> {
    let siblings = sibling_names(s);
    s.tools
        .iter()
        .map(|t| (t, classify_in(t, &siblings)))
        .collect()
}

/// Stage 3 over one server: fills `roles` and emits MTC-CAP-*.
pub fn check(
    s: &ServerSurface,
    _opts: &ScanOptions,
    roles: &mut BTreeMap<String, BTreeSet<Role>>,
    out: &mut Vec<Finding>,
) {
    let lex = lexicon();
    let mut exec: Vec<(&Item, String)> = Vec::new();
    let mut write: Vec<(&Item, String)> = Vec::new();
    let mut undeclared: Vec<(&Item, String)> = Vec::new();
    let mut open_world: Vec<(&Item, String)> = Vec::new();
    let siblings = sibling_names(s);
    // Tools are classified independently: in parallel, consumed in catalog order.
    let classified: Vec<(ToolRoles, Vec<Finding>)> = s
        .tools
        .par_iter()
        .with_min_len(32)
        .map(|item| {
            let tr = classify_in(item, &siblings);
            let mut own = Vec::new();
            tool_findings(s, item, &tr, lex, &mut own);
            (tr, own)
        })
        .collect();
    for (item, (tr, own)) in s.tools.iter().zip(classified) {
        roles.insert(item.name.clone(), tr.set());
        out.extend(own);
        let why = |r: Role| tr.roles.get(&r).map(|(_, w)| w.clone()).unwrap_or_default();
        if tr.has(Role::CodeExec) {
            exec.push((item, why(Role::CodeExec)));
        }
        if tr.has(Role::FileWrite) {
            write.push((item, why(Role::FileWrite)));
        }
        if (tr.has(Role::FileWrite) || tr.has(Role::CodeExec))
            && annotation(item, "destructiveHint").is_none()
        {
            undeclared.push((item, String::new()));
        }
        if annotation(item, "openWorldHint") == Some(true) && tr.has(Role::SensitiveSource) {
            open_world.push((item, why(Role::SensitiveSource)));
        }
    }
    // Capability inventory: one finding per server listing the tools (the score
    // should measure that the server can run code, not how many ways it can).
    inventory(s, "MTC-CAP-001", "can execute code or commands", &exec, out);
    inventory(
        s,
        "MTC-CAP-002",
        "can write, move or delete files",
        &write,
        out,
    );
    inventory(
        s,
        "MTC-CAP-005",
        "write files or run code but declare no `destructiveHint`",
        &undeclared,
        out,
    );
    inventory(
        s,
        "MTC-CAP-004",
        "read sensitive data and declare `openWorldHint: true` (they reach outside the local world)",
        &open_world,
        out,
    );
    protocol_findings(s, out);
}

fn inventory(
    s: &ServerSurface,
    id: &str,
    what: &str,
    tools: &[(&Item, String)],
    out: &mut Vec<Finding>,
) {
    let Some((first, _)) = tools.first() else {
        return;
    };
    let names: Vec<String> = tools.iter().map(|(t, _)| format!("`{}`", t.name)).collect();
    let shown = if names.len() > 8 {
        format!("{} (+{} more)", names[..8].join(", "), names.len() - 8)
    } else {
        names.join(", ")
    };
    let ev: Vec<String> = tools
        .iter()
        .map(|(t, w)| {
            if w.is_empty() {
                t.name.clone()
            } else {
                format!("{}: {w}", t.name)
            }
        })
        .collect();
    out.push(
        Finding::new(
            id,
            format!(
                "server `{}`: {} tool(s) {what}: {shown}",
                s.name,
                tools.len()
            ),
            s.location_for(Some(&first.name)),
        )
        .server(&s.id)
        .tool((tools.len() == 1).then_some(first.name.as_str()))
        .evidence(ev.join("; ")),
    );
}

fn tool_findings(
    s: &ServerSurface,
    item: &Item,
    tr: &ToolRoles,
    lex: &Lexicon,
    out: &mut Vec<Finding>,
) {
    let t = item.name.as_str();
    let loc = || s.location_for(Some(t));
    let mk = |id: &str, msg: String, ev: String| {
        Finding::new(id, msg, loc())
            .server(&s.id)
            .tool(Some(t))
            .evidence(ev)
    };
    // CAP-003: annotations contradicted by what the tool does, one finding per tool.
    let mut lies: Vec<String> = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut outright = false;
    for (key, claim, roles, says) in ANNOTATION_CLAIMS {
        if annotation(item, key) != Some(*claim) {
            continue;
        }
        // An output-file parameter alone is not what a read-only tool is about; and a
        // service's own upload is inside its world unless the caller picks where it goes
        // (a URL, a recipient) or it sends mail or messages.
        let contra: Vec<(Role, Basis, String)> = roles
            .iter()
            .filter_map(|r| tr.roles.get(r).map(|(b, w)| (*r, *b, w.clone())))
            .filter(|(r, b, _)| !(*r == Role::FileWrite && *b == Basis::Param))
            .filter(|(r, _, w)| {
                *key != "openWorldHint"
                    || *r != Role::ExternalSink
                    || has_destination(item)
                    || lex.name.people_sinks.iter().any(|p| w.contains(p.as_str()))
            })
            .collect();
        if contra.is_empty() {
            continue;
        }
        // Confirmed when the name or a sentence states the behaviour outright; a
        // parameter's shape, or a file write alone, stays strong.
        outright |= contra
            .iter()
            .any(|(r, b, _)| *b != Basis::Param && *r != Role::FileWrite);
        let list: Vec<String> = contra
            .iter()
            .map(|(r, _, w)| format!("it is {} ({w})", r.as_str()))
            .collect();
        lies.push(format!("`{key}: {claim}` ({says}) but {}", list.join("; ")));
        fields.push(format!("annotations.{key} = {claim}"));
    }
    if let Some(first) = fields.first() {
        let key = first
            .trim_start_matches("annotations.")
            .split(' ')
            .next()
            .unwrap_or("");
        let mut f = mk(
            "MTC-CAP-003",
            format!(
                "server `{}`: tool `{t}` claims {}",
                s.name,
                lies.join("; and claims ")
            ),
            fields.join(", "),
        )
        .field(format!("tools[{t}].annotations.{key}"));
        if outright {
            f = f
                .severity(crate::finding::Severity::High)
                .confidence(crate::finding::Confidence::Confirmed);
        }
        out.push(f);
    }
    // CAP-006/007/008: one per parameter, most severe first.
    let p = &lex.params;
    for (k, schema) in params(item) {
        if !unconstrained(schema) {
            continue;
        }
        let pt = tokens(k);
        let field = format!("tools[{t}].inputSchema.properties.{k}");
        let hit = if tr.has(Role::CodeExec) && any_in(&pt, &p.injection).is_some() {
            Some(("MTC-CAP-006", "command injection"))
        } else if (tr.has(Role::ExternalSink)
            || tr.has(Role::UntrustedInput)
            || tr.has(Role::UrlFetch))
            && any_in(&pt, &p.ssrf).is_some()
        {
            Some(("MTC-CAP-007", "server-side request forgery"))
        } else if (tr.has(Role::FileWrite) || tr.has(Role::SensitiveSource))
            && any_in(&pt, &p.traversal).is_some()
        {
            Some(("MTC-CAP-008", "path traversal"))
        } else {
            None
        };
        if let Some((id, what)) = hit {
            out.push(
                Finding::new(id, format!("server `{}`: tool `{t}` parameter `{k}` is an unconstrained string (no enum, pattern, const or format): the advertised half of {what}", s.name), s.location_for_field(&field))
                    .server(&s.id)
                    .tool(Some(t))
                    .field(field)
                    .evidence(format!("{k}: {}", serde_json::to_string(schema).unwrap_or_default())),
            );
        }
    }
}

/// Where a server's surface seeks a credential: field names at any depth of a
/// tool's input schema or a prompt's arguments, field descriptions that name a
/// credential, and sentences (tool, prompt, resource, instructions) that ask for
/// one. Returns (where, what) pairs, sorted.
fn credential_seekers(s: &ServerSurface) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    fn walk(schema: &Value, path: &str, depth: usize, out: &mut Vec<(String, String)>) {
        if depth > 16 {
            return;
        }
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            if let Some(items) = schema.get("items") {
                walk(items, path, depth + 1, out);
            }
            return;
        };
        for (k, v) in props {
            let here = format!("{path}.{k}");
            if let Some(what) = secret_in_name(k) {
                out.push((here.clone(), what));
            } else if let Some(what) = v
                .get("description")
                .and_then(Value::as_str)
                .and_then(super::behaviour::names_credential)
            {
                out.push((format!("{here}.description"), what));
            }
            walk(v, &here, depth + 1, out);
        }
    }
    let ask = |place: String, text: &str, out: &mut Vec<(String, String)>| {
        for what in super::behaviour::credential_requests(text) {
            out.push((place.clone(), what));
        }
    };
    for t in &s.tools {
        if let Some(schema) = t.raw.get("inputSchema") {
            walk(schema, &format!("tools[{}]", t.name), 0, &mut out);
        }
        ask(
            format!("tools[{}].description", t.name),
            t.description(),
            &mut out,
        );
    }
    for p in &s.prompts {
        for a in p
            .raw
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(n) = a.get("name").and_then(Value::as_str) else {
                continue;
            };
            if let Some(what) = secret_in_name(n) {
                out.push((format!("prompts[{}].{n}", p.name), what));
            } else if let Some(what) = a
                .get("description")
                .and_then(Value::as_str)
                .and_then(super::behaviour::names_credential)
            {
                out.push((format!("prompts[{}].{n}.description", p.name), what));
            }
        }
        ask(
            format!("prompts[{}].description", p.name),
            p.description(),
            &mut out,
        );
    }
    for r in s.resources.iter().chain(&s.resource_templates) {
        ask(
            format!("resources[{}].description", r.name),
            r.description(),
            &mut out,
        );
    }
    if let Some(i) = &s.instructions {
        ask("instructions".into(), i, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

/// CAP-009/010/011: sampling and elicitation are client capabilities; a server
/// surface that declares them signals intent to use them. Either one together
/// with a surface that seeks credentials is the shape of consent phishing
/// (CAP-011): confirmed when what is sought is a password, a one-time or
/// recovery code, a card or a wallet secret; strong for API keys and tokens.
fn protocol_findings(s: &ServerSurface, out: &mut Vec<Finding>) {
    let Some(caps) = s.capabilities.as_ref().and_then(Value::as_object) else {
        return;
    };
    let declared = |key: &str| -> Option<String> {
        if caps.contains_key(key) {
            Some(format!("capabilities.{key}"))
        } else if caps.get("experimental").and_then(|e| e.get(key)).is_some() {
            Some(format!("capabilities.experimental.{key}"))
        } else {
            None
        }
    };
    let loc = s.source.location.clone();
    let sampling = declared("sampling");
    let elicitation = declared("elicitation");
    if let Some(f) = &sampling {
        out.push(Finding::new("MTC-CAP-009", format!("server `{}` declares the client capability `sampling`: it intends to ask the client's model to generate text", s.name), loc.clone()).server(&s.id).field(f.clone()).evidence(f));
    }
    let Some(channel) = elicitation.as_ref().or(sampling.as_ref()) else {
        return;
    };
    let seekers = credential_seekers(s);
    if seekers.is_empty() {
        if let Some(f) = &elicitation {
            out.push(Finding::new("MTC-CAP-010", format!("server `{}` declares the client capability `elicitation`: it intends to ask the user for input mid-call", s.name), loc).server(&s.id).field(f.clone()).evidence(f));
        }
        return;
    }
    let strong = &lexicon().params.strong_secrets;
    let confirmed = seekers
        .iter()
        .any(|(_, what)| strong.iter().any(|x| what.contains(x.as_str())));
    let how = if elicitation.is_some() {
        "can ask the user questions mid-call (`elicitation`)"
    } else {
        "can have the client's model write text to the user (`sampling`)"
    };
    let list: Vec<String> = seekers
        .iter()
        .map(|(w, what)| format!("{w} ({what})"))
        .collect();
    let mut f = Finding::new(
        "MTC-CAP-011",
        format!(
            "server `{}` {how} and its surface seeks credentials: {}",
            s.name,
            seekers
                .iter()
                .map(|(_, w)| w.as_str())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        ),
        loc,
    )
    .server(&s.id)
    .field(channel.clone())
    .evidence(format!(
        "{channel}; credential-seeking: {}",
        list.join(", ")
    ));
    if confirmed {
        f = f.confidence(crate::finding::Confidence::Confirmed);
    }
    out.push(f);
}

/// Every id this stage emits (a unit test checks each is catalogued).
pub const RULE_IDS: &[&str] = &[
    "MTC-CAP-001",
    "MTC-CAP-002",
    "MTC-CAP-003",
    "MTC-CAP-004",
    "MTC-CAP-005",
    "MTC-CAP-006",
    "MTC-CAP-007",
    "MTC-CAP-008",
    "MTC-CAP-009",
    "MTC-CAP-010",
    "MTC-CAP-011",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::{Location, Source, Transport};
    use serde_json::json;

    pub(crate) fn surface(tools: Vec<Value>) -> ServerSurface {
        let src = Source {
            location: Location::new("t.json", 1, 1),
            format: "tool-manifest".into(),
            client: None,
        };
        let mut s = ServerSurface::new("t.json".into(), "t".into(), src, Transport::Unknown);
        for t in tools {
            let name = t["name"].as_str().unwrap().to_string();
            s.tools.push(Item::new(name, t, None));
        }
        s
    }

    fn roles_of(t: Value) -> BTreeSet<Role> {
        classify(&Item::new(t["name"].as_str().unwrap(), t.clone(), None)).set()
    }

    fn run(s: &ServerSurface) -> (BTreeMap<String, BTreeSet<Role>>, Vec<Finding>) {
        let mut roles = BTreeMap::new();
        let mut out = Vec::new();
        check(s, &ScanOptions::default(), &mut roles, &mut out);
        (roles, out)
    }

    fn ids(f: &[Finding]) -> Vec<&str> {
        f.iter().map(|x| x.rule_id.as_str()).collect()
    }

    #[test]
    fn lexicon_loads_and_rule_ids_are_catalogued() {
        let _ = lexicon();
        for id in RULE_IDS {
            assert!(crate::rules::get(id).is_some(), "{id} not catalogued");
        }
    }

    #[test]
    fn tokens_split_every_style() {
        assert_eq!(tokens("readFile"), ["read", "file"]);
        assert_eq!(tokens("HTTPRequest"), ["http", "request"]);
        assert_eq!(tokens("get-env"), ["get", "env"]);
        assert_eq!(tokens("API-post-page"), ["api", "post", "page"]);
        assert_eq!(tokens("run_shell.cmd"), ["run", "shell", "cmd"]);
    }

    #[test]
    fn seed_roles() {
        use Role::*;
        assert_eq!(
            roles_of(json!({"name": "fetch_url", "description": "Fetch a URL"})),
            [UntrustedInput, UrlFetch].into()
        );
        assert_eq!(
            roles_of(
                json!({"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}})
            ),
            [SensitiveSource].into()
        );
        let http = roles_of(
            json!({"name": "http_request", "inputSchema": {"properties": {"url": {"type": "string"}, "method": {"type": "string"}}}}),
        );
        assert!(http.contains(&ExternalSink), "{http:?}");
        assert_eq!(
            roles_of(
                json!({"name": "run_command", "inputSchema": {"properties": {"command": {"type": "string"}}}})
            ),
            [CodeExec].into()
        );
        assert!(roles_of(json!({"name": "write_file", "inputSchema": {"properties": {"path": {"type": "string"}}}})).contains(&FileWrite));
        assert!(roles_of(json!({"name": "send_email", "inputSchema": {"properties": {"to": {"type": "string", "format": "email"}}}})).contains(&ExternalSink));
        let all = roles_of(
            json!({"name": "sync", "description": "Fetch a URL, read a local file and post the result to a webhook."}),
        );
        assert!(
            all.contains(&UntrustedInput)
                && all.contains(&SensitiveSource)
                && all.contains(&ExternalSink),
            "{all:?}"
        );
    }

    #[test]
    fn negatives() {
        assert!(roles_of(json!({"name": "get_current_time", "description": "Get the current time in a timezone"})).is_empty());
        // An output file name is not a sensitive read.
        let find = roles_of(
            json!({"name": "browser_find", "inputSchema": {"properties": {"filename": {"type": "string", "description": "File name to save the result to."}}}}),
        );
        assert!(!find.contains(&Role::SensitiveSource), "{find:?}");
        assert!(
            roles_of(json!({"name": "generate_pie_chart", "description": "Generate a pie chart"}))
                .is_empty()
        );
        // Getter exclusion: a getter does not send even when its name holds a send word.
        assert!(
            !roles_of(json!({"name": "get_webhook_subscription"})).contains(&Role::ExternalSink)
        );
        // Azure-style `command` selector is not a shell.
        let az = roles_of(
            json!({"name": "storage", "inputSchema": {"properties": {"command": {"type": "string", "description": "The command to execute against the specified tool."}}}}),
        );
        assert!(!az.contains(&Role::CodeExec), "{az:?}");
        // A pagination token is not a secret.
        assert!(!secret_field("page_token") && secret_field("api_key") && secret_field("password"));
    }

    #[test]
    fn cap_001_002_005_and_preconditions() {
        let s = surface(vec![
            json!({"name": "run_command", "inputSchema": {"properties": {"command": {"type": "string"}}}}),
            json!({"name": "write_file", "annotations": {"destructiveHint": true}, "inputSchema": {"properties": {"path": {"type": "string", "pattern": "^/tmp/"}}}}),
        ]);
        let (roles, f) = run(&s);
        assert_eq!(roles["run_command"], [Role::CodeExec].into());
        let ids = ids(&f);
        assert!(
            ids.contains(&"MTC-CAP-001")
                && ids.contains(&"MTC-CAP-002")
                && ids.contains(&"MTC-CAP-006"),
            "{ids:?}"
        );
        assert_eq!(
            ids.iter().filter(|i| **i == "MTC-CAP-005").count(),
            1,
            "only run_command lacks destructiveHint"
        );
        assert!(
            !ids.contains(&"MTC-CAP-008"),
            "a pattern constrains the path"
        );
        let six = f.iter().find(|x| x.rule_id == "MTC-CAP-006").unwrap();
        assert_eq!(
            six.field.as_deref(),
            Some("tools[run_command].inputSchema.properties.command")
        );
    }

    #[test]
    fn cap_007_008_fire_and_enum_silences() {
        let s = surface(vec![
            json!({"name": "fetch_page", "inputSchema": {"properties": {"url": {"type": "string"}}}}),
            json!({"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}}),
            json!({"name": "fetch_known", "inputSchema": {"properties": {"url": {"type": "string", "enum": ["https://a.example"]}}}}),
        ]);
        let (_, f) = run(&s);
        let got: Vec<(&str, Option<&str>)> = f
            .iter()
            .filter(|x| x.rule_id.starts_with("MTC-CAP-00"))
            .map(|x| (x.rule_id.as_str(), x.tool.as_deref()))
            .collect();
        assert!(
            got.contains(&("MTC-CAP-007", Some("fetch_page"))),
            "{got:?}"
        );
        assert!(got.contains(&("MTC-CAP-008", Some("read_file"))), "{got:?}");
        assert!(
            !got.iter().any(|(_, t)| *t == Some("fetch_known")),
            "{got:?}"
        );
    }

    #[test]
    fn cap_003_contradictions() {
        let s = surface(vec![
            json!({"name": "delete_file", "annotations": {"readOnlyHint": true}, "inputSchema": {"properties": {"path": {"type": "string"}}}}),
            json!({"name": "drop_table", "annotations": {"readOnlyHint": false, "destructiveHint": false}}),
            json!({"name": "read_file", "annotations": {"readOnlyHint": true}}),
        ]);
        let (_, f) = run(&s);
        let hits: Vec<&str> = f
            .iter()
            .filter(|x| x.rule_id == "MTC-CAP-003")
            .map(|x| x.tool.as_deref().unwrap())
            .collect();
        assert_eq!(hits, ["delete_file", "drop_table"]);
        // A sentence that says it outright confirms the lie; a file write alone stays strong.
        let s = surface(vec![
            json!({"name": "helper", "description": "Writes a file to disk", "annotations": {"readOnlyHint": true}}),
            json!({"name": "tidy", "description": "Delete every file in the workspace directory.", "annotations": {"readOnlyHint": true}}),
            json!({"name": "lookup", "description": "Searches the index. It does not delete anything.", "annotations": {"readOnlyHint": true}}),
        ]);
        let f = run(&s).1;
        let three = |t: &str| {
            f.iter()
                .find(|x| x.rule_id == "MTC-CAP-003" && x.tool.as_deref() == Some(t))
                .map(|x| (x.severity, x.confidence))
        };
        use crate::finding::{Confidence, Severity};
        assert_eq!(
            three("helper"),
            Some((Severity::Medium, Confidence::Strong))
        );
        assert_eq!(three("tidy"), Some((Severity::High, Confidence::Confirmed)));
        assert_eq!(three("lookup"), None);
    }

    #[test]
    fn cap_004_open_world_sensitive() {
        let s = surface(vec![
            json!({"name": "read_env", "annotations": {"openWorldHint": true}}),
        ]);
        assert!(ids(&run(&s).1).contains(&"MTC-CAP-004"));
        let s = surface(vec![
            json!({"name": "read_env", "annotations": {"openWorldHint": false}}),
        ]);
        assert!(!ids(&run(&s).1).contains(&"MTC-CAP-004"));
    }

    #[test]
    fn sampling_and_elicitation() {
        let mut s = surface(vec![
            json!({"name": "login", "inputSchema": {"properties": {"api_key": {"type": "string"}}}}),
        ]);
        s.capabilities = Some(json!({"tools": {}, "sampling": {}, "elicitation": {}}));
        let f = run(&s).1;
        let ids = ids(&f);
        assert!(
            ids.contains(&"MTC-CAP-009")
                && ids.contains(&"MTC-CAP-011")
                && !ids.contains(&"MTC-CAP-010"),
            "{ids:?}"
        );
        assert!(
            f.iter()
                .any(|x| x.evidence.contains("tools[login].api_key"))
        );
        s.tools.clear();
        s.capabilities = Some(json!({"experimental": {"elicitation": {}}}));
        assert_eq!(
            run(&s)
                .1
                .iter()
                .map(|x| x.rule_id.as_str())
                .collect::<Vec<_>>(),
            ["MTC-CAP-010"]
        );
        s.capabilities = Some(json!({"tools": {}, "logging": {}}));
        assert!(run(&s).1.is_empty());
    }
}
