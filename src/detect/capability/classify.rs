//! Classification: the roles one tool can play (untrusted input, sensitive
//! source, external sink, code execution, …), read from its name, its
//! description and its parameters' shape, never from its annotations (the
//! stage only checks those against the roles). Stage 4 combines the roles.

use super::lexicon::{NameLex, lexicon};
use crate::model::Role;
use crate::surface::{Item, ServerSurface};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

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

pub(super) fn any_in<'a>(toks: &'a [String], list: &[String]) -> Option<&'a str> {
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
    // `API-post-page`: after an `api` prefix, an HTTP method is what the call
    // does; so it is at the head of an operationId generated from an OpenAPI
    // spec (`postV1Persons`, `postRepositoriesWorkspaceRepoSlugPipelines`):
    // POST creates a resource, it does not publish anything.
    let operation_id = !item.name.contains(['_', '-', ' ', '.'])
        && item.name.chars().skip(1).any(char::is_uppercase)
        && (toks.len() >= 3
            || toks.get(1).is_some_and(|v| {
                v.len() >= 2 && v.starts_with('v') && v[1..].bytes().all(|b| b.is_ascii_digit())
            }));
    let method_at = if toks.len() > 1 && toks[0] == "api" {
        Some(1)
    } else {
        operation_id.then_some(0)
    };
    if let Some(i) = method_at {
        let m = match toks[i].as_str() {
            "post" => Some("create"),
            "patch" | "put" => Some("update"),
            _ => None,
        };
        if let Some(m) = m {
            toks[i] = m.to_string();
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
    for reading in crate::detect::behaviour::read(desc, siblings) {
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
        for reading in crate::detect::behaviour::read(pdesc_raw, siblings) {
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
        } else if let Some(v) = crate::detect::behaviour::requests(item.description()) {
            Some((
                Basis::Description,
                format!("parameter `{u}`, and the description says `{v}`"),
            ))
        } else {
            crate::detect::behaviour::requests(pdesc)
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
pub(super) const ANNOTATION_CLAIMS: &[(&str, bool, &[Role], &str)] = &[
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
pub(super) fn has_destination(item: &Item) -> bool {
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
pub(super) fn secret_in_name(name: &str) -> Option<String> {
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
