//! Stage 3, capability: the roles each tool can play, derived from its name,
//! description and parameter shape (lexicon in `src/data/capability_lexicon.toml`),
//! never from its annotations — annotations are only checked against the roles.

use super::ScanOptions;
use crate::finding::Finding;
use crate::model::Role;
use crate::rules::ids;
use crate::surface::{Item, ServerSurface};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

mod classify;
mod lexicon;
#[cfg(test)]
mod tests;

pub(crate) use classify::annotation;
use classify::{ANNOTATION_CLAIMS, any_in, has_destination, secret_in_name};
pub use classify::{
    Basis, ToolRoles, classify, classify_in, classify_server, params, secret_field, sibling_names,
    tokens, unconstrained,
};
use lexicon::{Lexicon, lexicon};

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
    inventory(
        s,
        ids::MTC_CAP_001,
        "can execute code or commands",
        &exec,
        out,
    );
    inventory(
        s,
        ids::MTC_CAP_002,
        "can write, move or delete files",
        &write,
        out,
    );
    inventory(
        s,
        ids::MTC_CAP_005,
        "write files or run code but declare no `destructiveHint`",
        &undeclared,
        out,
    );
    inventory(
        s,
        ids::MTC_CAP_004,
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
            ids::MTC_CAP_003,
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
            Some((ids::MTC_CAP_006, "command injection"))
        } else if (tr.has(Role::ExternalSink)
            || tr.has(Role::UntrustedInput)
            || tr.has(Role::UrlFetch))
            && any_in(&pt, &p.ssrf).is_some()
        {
            Some((ids::MTC_CAP_007, "server-side request forgery"))
        } else if (tr.has(Role::FileWrite) || tr.has(Role::SensitiveSource))
            && any_in(&pt, &p.traversal).is_some()
        {
            Some((ids::MTC_CAP_008, "path traversal"))
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
        out.push(Finding::new(ids::MTC_CAP_009, format!("server `{}` declares the client capability `sampling`: it intends to ask the client's model to generate text", s.name), loc.clone()).server(&s.id).field(f.clone()).evidence(f));
    }
    let Some(channel) = elicitation.as_ref().or(sampling.as_ref()) else {
        return;
    };
    let seekers = credential_seekers(s);
    if seekers.is_empty() {
        if let Some(f) = &elicitation {
            out.push(Finding::new(ids::MTC_CAP_010, format!("server `{}` declares the client capability `elicitation`: it intends to ask the user for input mid-call", s.name), loc).server(&s.id).field(f.clone()).evidence(f));
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
        ids::MTC_CAP_011,
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
    ids::MTC_CAP_001,
    ids::MTC_CAP_002,
    ids::MTC_CAP_003,
    ids::MTC_CAP_004,
    ids::MTC_CAP_005,
    ids::MTC_CAP_006,
    ids::MTC_CAP_007,
    ids::MTC_CAP_008,
    ids::MTC_CAP_009,
    ids::MTC_CAP_010,
    ids::MTC_CAP_011,
];
