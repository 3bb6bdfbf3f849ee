//! The tool a field belongs to: its parameters, what it and its server are
//! about (the purpose the data a sentence names is judged against), and the
//! names of its server's tools.

use super::langid::find_gated;
use super::quotes::quote_spans;
use super::reading::property_of;
use super::tables::{Tables, bit, tables};
use crate::lang;
use crate::surface::{ServerSurface, TextField};

/// Evidence of `Derived::Switch`.
pub(super) const SWITCH: &str = "a boolean parameter's own description";

/// What the field's tool is: its name, parameter names and the first sentence
/// of its description, plus its other tools' names for `tool_own`.
pub(super) struct ItemCtx<'a> {
    pub(super) s: &'a ServerSurface,
    item: Option<&'a crate::surface::Item>,
    /// The property whose schema holds the field (`tools[x].inputSchema.properties.P…`).
    pub(super) own_param: Option<String>,
    /// The item's parameter (or prompt argument) names, lowercased.
    params: Vec<String>,
    /// Parameters typed boolean, integer or number: no text fits in them, so
    /// "offer to `redact` …" names no destination.
    pub(super) scalars: Vec<String>,
    /// Parameters typed boolean: a switch is neither a slot for data nor a
    /// destination ("set this to true when you need …").
    pub(super) booleans: Vec<String>,
}

impl<'a> ItemCtx<'a> {
    pub(super) fn new(s: &'a ServerSurface, field: &TextField<'a>) -> Self {
        let item = field.item.and_then(|name| match field.item_kind {
            "tool" => s.tool(name),
            "prompt" => s.prompts.iter().find(|p| p.name == name),
            "resource" => s.resources.iter().find(|p| p.name == name),
            "resource-template" => s.resource_templates.iter().find(|p| p.name == name),
            _ => None,
        });
        let own_param = property_of(&field.path)
            .or_else(|| {
                (field.item_kind == "prompt")
                    .then(|| field.path.split(".arguments.").nth(1))
                    .flatten()
                    .map(|rest| rest.split('.').next().unwrap_or(rest))
            })
            .map(str::to_lowercase);
        let mut ctx = ItemCtx {
            s,
            item,
            own_param,
            params: Vec::new(),
            scalars: Vec::new(),
            booleans: Vec::new(),
        };
        ctx.collect_params();
        ctx
    }

    /// The field is a boolean parameter's own description: "Skip TLS
    /// verification" says what `true` does, an option the caller sets.
    pub(super) fn switch(&self) -> bool {
        self.own_param
            .as_ref()
            .is_some_and(|p| self.booleans.contains(p))
    }

    pub(super) fn param_names(&self) -> &[String] {
        &self.params
    }

    /// The parameter whose `enum` lists `value` (lowercase): a sentence that
    /// quotes one (`'anyone_with_link'`) sets that parameter. Read from the
    /// schema when a quote asks, not kept for every field.
    pub(super) fn enum_param(&self, value: &str) -> Option<String> {
        crate::detect::capability::params(self.item?)
            .into_iter()
            .find(|(_, v)| {
                v.get("enum").and_then(|e| e.as_array()).is_some_and(|e| {
                    e.iter()
                        .filter_map(|e| e.as_str())
                        .any(|e| e.len() >= 3 && e.eq_ignore_ascii_case(value))
                })
            })
            .map(|(k, _)| k.to_lowercase())
    }

    /// Parameter names, those of them typed boolean, integer or number, and
    /// those typed boolean, from one walk over the schema.
    fn collect_params(&mut self) {
        let Some(item) = self.item else {
            return;
        };
        for (k, v) in crate::detect::capability::params(item) {
            let k = k.to_lowercase();
            let ty = v.get("type").and_then(|t| t.as_str());
            if ty.is_some_and(|t| matches!(t, "boolean" | "integer" | "number")) {
                self.scalars.push(k.clone());
            }
            if ty == Some("boolean") {
                self.booleans.push(k.clone());
            }
            self.params.push(k);
        }
        if let Some(args) = item.raw.get("arguments").and_then(|a| a.as_array()) {
            self.params.extend(
                args.iter()
                    .filter_map(|a| a.get("name").and_then(|n| n.as_str()))
                    .map(str::to_lowercase),
            );
        }
        self.params.retain(|n| n.len() >= 2);
    }

    pub(super) fn concepts_of(words: &str) -> u128 {
        let t = tables();
        all_concepts(words) & (t.c.mask_what | t.c.mask_control)
    }

    /// Sensitive-data concepts the tool's purpose names: its name and first
    /// sentence, and what its server is about (a CRM server's tools are about
    /// contacts even when one tool's name is not; the first sentence of its
    /// instructions).
    ///
    /// `own_order`: the text judged is the server's instructions and opens
    /// with an order, which must not make itself the purpose.
    pub(super) fn purpose(&self, own_order: bool) -> u128 {
        let own = self.item.map_or(0, tool_purpose);
        let (tools, instructions) = server_purpose(self.s);
        own | tools | if own_order { 0 } else { instructions }
    }

    /// Sensitive-data concepts named by the parameter a sentence fills (its own
    /// name says what it carries: `api_key`, `originalUserMessage`, `mail_password`).
    pub(super) fn slot_purpose(&self, sentence: &str) -> u128 {
        let mut words = String::new();
        let mut slots: Vec<String> = Vec::new();
        if let Some(p) = &self.own_param {
            slots.push(p.clone());
        }
        for p in self.param_names() {
            if word_in(sentence, p) {
                slots.push(p.clone());
            }
        }
        let mut bits = 0;
        // A nested parameter written as code (`'outputdir'`) is a slot too,
        // for the one thing its name can say: that it holds a location.
        let b = sentence.as_bytes();
        for (qs, qe) in quote_spans(b, false) {
            let inner = &sentence[qs + 1..qe - 1];
            if inner.len() <= 40
                && inner
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                && path_suffix(inner)
            {
                bits |= tables().c.private_files;
            }
        }
        for p in &slots {
            let toks = crate::detect::capability::tokens(p);
            // A "name" that is a sentence (`paste_full_contents_of_…_here`) is
            // a carrier, not a description of what the slot holds.
            if toks.len() > 5 {
                continue;
            }
            if toks.iter().any(|t| QUERY_SLOTS.contains(&t.as_str())) {
                bits |= tables().c.user_words;
            }
            // A path parameter names files and folders: "use the user's
            // Downloads folder as `outputDir`" says where, not what is taken.
            // Only the field's own parameter here (a prose "folder" names none);
            // parameters written as code are read below.
            if self.own_param.as_deref() == Some(p.as_str())
                && toks
                    .iter()
                    .any(|t| PATH_SLOTS.contains(&t.as_str()) || path_suffix(t))
            {
                bits |= tables().c.private_files;
            }
            words.push_str(" . ");
            words.push_str(&toks.join(" "));
        }
        if !words.is_empty() {
            bits |= Self::concepts_of(&words);
        }
        bits
    }

    /// The tool runs, lints or rates commands by name. A checking verb
    /// (`scan`, `check`, `audit`, `rate` …) counts alone or beside a command word:
    /// `scan_command` rates commands, `library_scan` scans a media library.
    pub(super) fn shell_like(&self) -> bool {
        const RUNS: [&str; 14] = [
            "shell", "exec", "execute", "command", "commands", "terminal", "bash", "script", "cmd",
            "process", "lint", "linter", "cron", "crontab",
        ];
        // "run" runs commands alone or with code as its object (`run`,
        // `run_code`, `run_pipeline`); `run_load_flow` and `run_payroll` run a
        // study or a pay round, not a shell.
        const RUN_CODE: [&str; 21] = [
            "code",
            "snippet",
            "python",
            "node",
            "js",
            "npm",
            "make",
            "tests",
            "test",
            "task",
            "job",
            "program",
            "binary",
            "notebook",
            "pipeline",
            "workflow",
            "build",
            "ci",
            "container",
            "docker",
            "sandbox",
        ];
        const CHECKS: [&str; 7] = [
            "check", "analyze", "analyse", "audit", "rate", "score", "scan",
        ];
        self.item.is_some_and(|item| {
            let toks = crate::detect::capability::tokens(&item.name);
            let runs = toks.iter().any(|w| RUNS.contains(&w.as_str()))
                || toks.iter().any(|w| w == "run")
                    && (toks.len() == 1 || toks.iter().any(|w| RUN_CODE.contains(&w.as_str())));
            runs || (toks.len() == 1 && toks.iter().any(|w| CHECKS.contains(&w.as_str())))
        })
    }

    pub(super) fn is_param(&self, name: &str) -> bool {
        self.param_names().iter().any(|p| p == name)
    }

    /// Whether `name` is a property of the item's schemas at any depth
    /// (`options.diagnostics`), not only a top-level parameter. Asked only
    /// of the rare sentence that says where something is kept.
    pub(super) fn has_property(&self, name: &str) -> bool {
        fn walk(v: &serde_json::Value, name: &str) -> bool {
            match v {
                serde_json::Value::Object(o) => o.iter().any(|(k, x)| {
                    (k == "properties"
                        && x.as_object()
                            .is_some_and(|p| p.keys().any(|k| k.eq_ignore_ascii_case(name))))
                        || walk(x, name)
                }),
                serde_json::Value::Array(a) => a.iter().any(|x| walk(x, name)),
                _ => false,
            }
        }
        self.is_param(name) || self.item.is_some_and(|i| walk(&i.raw, name))
    }

    pub(super) fn is_own_tool(&self, name: &str) -> bool {
        own_tool_names(self.s).contains_key(&squash(name))
    }

    /// When a sentence hands one tool's results to another tool of this server,
    /// the sensitive data the producing tool reads, by its name and first
    /// sentence: another tool named in the sentence first, then this tool.
    /// Only when the results go somewhere named apart from their source: a
    /// second tool, this parameter or a slot (`has_slot`); "look them up with
    /// `find_patient` and pass the returned id" names no destination.
    pub(super) fn chained_source(&self, sentence: &str, has_slot: bool) -> Option<(&'a str, u128)> {
        let t = tables();
        let this = self.item.filter(|i| self.s.tool(&i.name).is_some());
        let named: Vec<&'a crate::surface::Item> = self
            .s
            .tools
            .iter()
            .take(512)
            .filter(|tool| this.is_none_or(|i| i.name != tool.name))
            .filter(|tool| word_in(sentence, &tool.name.to_lowercase()))
            .collect();
        let elsewhere =
            named.len() + usize::from(this.is_some()) >= 2 || self.own_param.is_some() || has_slot;
        if !elsewhere {
            return None;
        }
        named.into_iter().chain(this).find_map(|tool| {
            let bits = tool_purpose(tool) & t.c.mask_what;
            (bits != 0).then_some((tool.name.as_str(), bits))
        })
    }
}

/// A name that ends as a location does (`outputdir`, `repo_path`); "file"
/// is not a suffix here ("profile").
fn path_suffix(name: &str) -> bool {
    ["dir", "path", "folder", "directory"]
        .iter()
        .any(|w| name.ends_with(w))
}

/// A query, prompt or message slot carries the user's own words by design.
/// Words of a parameter name that make it a file-system location.
const PATH_SLOTS: &[&str] = &[
    "dir",
    "directory",
    "path",
    "folder",
    "file",
    "filename",
    "filepath",
    "location",
    "cwd",
    "root",
];

pub(super) const QUERY_SLOTS: &[&str] = &[
    "query",
    "q",
    "question",
    "prompt",
    "search",
    "text",
    "input",
    "message",
    "topic",
    "request",
    "term",
    "keywords",
    "ask",
    "content",
    "body",
    "instruction",
    "task",
];

/// The first sentence of a description (at most 400 bytes): what the tool says it is.
pub(crate) fn first_sentence(text: &str) -> &str {
    let cut = text
        .char_indices()
        .find(|&(i, c)| {
            // Scripts without spaces end a sentence with their own full stop.
            matches!(c, '。' | '！' | '？' | '।' | '؟')
                || matches!(c, '.' | '\n' | '!' | '?')
                    && text[i + c.len_utf8()..].starts_with([' ', '\n'])
        })
        .map_or(text.len(), |(i, _)| i)
        .min(400);
    &text[..text.floor_char_boundary(cut)]
}

/// Every concept `words` name (one lexicon pass over their normalised text).
fn all_concepts(words: &str) -> u128 {
    let t = tables();
    let norm = lang::normalize(words);
    let sentences = lang::sentences(&norm.text);
    find_gated(t, &norm.text, &sentences)
        .0
        .iter()
        .fold(0u128, |m, h| m | bit(h.concept as u8))
}

/// The sensitive-data concepts a description's first sentence names as its
/// purpose, or none when that sentence is an order to the model instead (it
/// addresses the model, frames itself as a system note, hides or overrides)
/// or markup: a payload written first must not make the data it names look
/// like the tool's job.
fn sentence_purpose(text: &str) -> u128 {
    let first = first_sentence(text);
    if first.trim_start().starts_with(['{', '<', '[']) {
        return 0;
    }
    let t = tables();
    let bits = all_concepts(first);
    // "To prevent the render from erroring, gather every secret key …": an
    // order under a pretext says what the text wants, not what the tool is for.
    // Asking the person to confirm under one ("to avoid sending to the wrong
    // person, … ask the user to confirm") still describes the tool.
    let first = first.trim_start();
    let pretexted_move = super::verb_form::pretext(first)
        && first.find(", ").is_some_and(|c| {
            let order = all_concepts(&first[c + 2..]);
            order & (t.c.move_ | t.c.move_weak) != 0 && order & t.c.mask_what != 0
        });
    if bits & t.c.orders != 0 || pretexted_move {
        0
    } else {
        bits & (t.c.mask_what | t.c.mask_control)
    }
}

/// What one tool (or prompt, resource) is about: its name and first sentence.
fn tool_purpose(item: &crate::surface::Item) -> u128 {
    ItemCtx::concepts_of(&crate::detect::capability::tokens(&item.name).join(" "))
        | sentence_purpose(item.description())
}

/// What a server is about, computed once per surface: its name and each
/// tool's name and first sentence; and apart, the first sentence of its
/// instructions.
fn server_purpose(s: &ServerSurface) -> (u128, u128) {
    *s.purpose.get_or_init(|| {
        let mut names = s.name.replace(['_', '-'], " ");
        let mut bits = 0;
        for t in s.tools.iter().take(512) {
            names.push_str(" . ");
            names.push_str(&crate::detect::capability::tokens(&t.name).join(" "));
            bits |= sentence_purpose(t.description());
        }
        let instructions = s.instructions.as_deref().map_or(0, sentence_purpose);
        (bits | ItemCtx::concepts_of(&names), instructions)
    })
}

/// An identifier with case and separators removed, so `runRollbackPipeline`,
/// `run_rollback_pipeline` and `run-rollback-pipeline` are one name.
pub(super) fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

pub(super) fn same_name(a: &str, b: &str) -> bool {
    squash(a) == squash(b)
}

/// The server's tool names, squashed, built once per surface (a lookup per
/// identifier would otherwise scan every tool of a 10,000-tool catalog).
pub(super) fn own_tool_names(s: &ServerSurface) -> &std::collections::HashMap<String, bool> {
    s.tool_names.get_or_init(|| {
        s.tools
            .iter()
            .map(|t| {
                let destructive =
                    crate::detect::capability::annotation(t, "destructiveHint") == Some(true);
                (squash(&t.name), destructive)
            })
            .collect()
    })
}

/// Identifier-shaped tokens (`read_file`, `slack-post`).
pub(super) fn identifiers(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| w.len() >= 4 && (w.contains('_') || w.contains('-')))
        .map(|w| w.trim_matches('-'))
}

/// `w` occurs in `hay` as a whole word.
pub(super) fn word_in(hay: &str, w: &str) -> bool {
    if w.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(i) = hay[from..].find(w) {
        let s = from + i;
        let e = s + w.len();
        let before = hay[..s].chars().next_back();
        let after = hay[e..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if edge(before) && edge(after) {
            return true;
        }
        from = e;
    }
    false
}

/// What ends a file name, not a tool's (`setup.sh`, `config.toml`).
const FILE_EXTENSIONS: &[&str] = &[
    "json", "py", "js", "ts", "md", "txt", "yaml", "yml", "toml", "sh", "csv", "html", "xml",
    "log", "env", "cfg", "ini", "conf", "lock", "rs", "go",
];

/// A name written as a tool's is: a verb, then one or more words joined by
/// `_` or `.` (`create_draft_order`, `lock.unlock`), not a file name.
pub(super) fn tool_shaped(t: &Tables, name: &str) -> bool {
    if !(5..=60).contains(&name.len())
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.')
    {
        return false;
    }
    let mut parts = name.split(['_', '.']);
    let (Some(verb), Some(_)) = (parts.next(), parts.next()) else {
        return false;
    };
    let file = name
        .rsplit_once('.')
        .is_some_and(|(_, ext)| FILE_EXTENSIONS.contains(&ext));
    !file && t.tool_verbs.contains(verb)
}

/// A prompt, resource or template of the server, by name.
pub(super) fn own_name(ctx: &ItemCtx<'_>, name: &str) -> bool {
    let s = ctx.s;
    s.prompts
        .iter()
        .chain(&s.resources)
        .chain(&s.resource_templates)
        .any(|i| i.name.eq_ignore_ascii_case(name))
}

/// Another server's tool written as `server.tool` ("postgres.query",
/// "stripe.create_refund", "stripe.*"): the server is a known one that is not
/// this server, and the tool is shaped like a tool (a verb, a snake-case name,
/// or `*`) that this server does not have. With each, whether its rules
/// follow (`stripe.create_refund: {…}`, `postgres.query: start with …`).
pub(super) fn dotted_tools<'s>(
    t: &Tables,
    ctx: &ItemCtx<'_>,
    sentence: &'s str,
) -> Vec<(&'s str, bool)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut found = Vec::new();
    for (dot, _) in sentence.match_indices('.') {
        let owner_start = sentence[..dot]
            .char_indices()
            .rfind(|&(_, c)| !word(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let owner = &sentence[owner_start..dot];
        let rest = &sentence[dot + 1..];
        let tool_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '*'))
            .unwrap_or(rest.len());
        let tool = &rest[..tool_len];
        let shaped = tool == "*"
            || tool.contains('_') && tool.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            || t.tool_verbs.contains(tool);
        if shaped
            && t.servers.contains(owner)
            && !ctx.s.name.to_lowercase().contains(owner)
            && !ctx.is_own_tool(tool)
            && !sentence[..owner_start].ends_with(['.', '/', '@'])
        {
            let heads_rules = rest[tool_len..]
                .trim_start_matches(['"', '\''])
                .starts_with(':');
            found.push((&sentence[owner_start..dot + 1 + tool_len], heads_rules));
        }
    }
    found
}

/// A prefixed random id written as a value: after "to", "=" or ":", a kind
/// prefix of 2–6 letters, `_`, and 10 or more letters and digits with at
/// least two digits (`acct_1qxzre8hk2`); or a chat channel's id after
/// "channel" or "room" (`C07PARTNRX1`).
pub(super) fn opaque_id(sentence: &str) -> Option<&str> {
    let mut prev = "";
    for w in sentence.split([' ', '\'', '"', '`']) {
        let word = w.trim_end_matches([',', ';', '.', ')']);
        let mut value_after =
            matches!(prev, "to" | "=" | ":" | "as" | "use") || prev.ends_with(['=', ':']);
        let channel = prev;
        prev = w;
        // `payee=ba_…`: the value after the key.
        let word = match word.rsplit_once(['=', ':']) {
            Some((_, v)) => {
                value_after = true;
                v
            }
            None => word,
        };
        // A chat channel's id (`channel C07PARTNRX1`): a letter, then
        // letters and digits, names one room.
        if matches!(channel, "channel" | "room")
            && (9..=12).contains(&word.len())
            && word.bytes().all(|b| b.is_ascii_alphanumeric())
            && word.as_bytes()[0].is_ascii_alphabetic()
            && word.bytes().filter(u8::is_ascii_digit).count() >= 2
            && word.bytes().skip(1).any(|b| b.is_ascii_alphabetic())
        {
            return Some(word);
        }
        let Some((kind, rest)) = word.split_once('_') else {
            continue;
        };
        if value_after
            && (2..=6).contains(&kind.len())
            && kind.bytes().all(|b| b.is_ascii_lowercase())
            && rest.len() >= 10
            && rest.bytes().all(|b| b.is_ascii_alphanumeric())
            && rest.bytes().filter(u8::is_ascii_digit).count() >= 2
            && rest.bytes().any(|b| b.is_ascii_alphabetic())
        {
            return Some(word);
        }
    }
    None
}

/// Quoted names [`lookalike_swap`] compares pairwise.
const MAX_NAMES: usize = 128;

/// Two quoted names where the later is the earlier with a word joined on
/// (`requests` → `requests-hardened`, `lodash` → `@mirror/lodash`): `a` →
/// `b`, for evidence. Quoted spans are `(start, end)` in `bytes`.
pub(super) fn lookalike_swap(bytes: &[u8], quoted: &[(usize, usize)]) -> Option<String> {
    // Each name once, in order of first quoting, and at most MAX_NAMES of
    // them: every pair is compared, so a text that quotes thousands of
    // names stays linear.
    let mut seen = std::collections::HashSet::new();
    let names: Vec<&str> = quoted
        .iter()
        .filter_map(|&(a, b)| std::str::from_utf8(&bytes[a..b]).ok())
        .map(|n| n.trim_matches(['\'', '"']))
        .filter(|n| {
            (2..=60).contains(&n.len())
                && n.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'/' | b'@'))
        })
        .filter(|n| seen.insert(*n))
        .take(MAX_NAMES)
        .collect();
    // A word of three letters or more, joined with `-` or `_`.
    let word = |w: &str| w.len() >= 3 && w.bytes().all(|c| c.is_ascii_alphabetic() || c == b'-');
    for (i, a) in names.iter().enumerate() {
        if a.contains(['/', '@']) || !a.bytes().any(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        for b in &names[i + 1..] {
            let suffixed = b
                .strip_prefix(*a)
                .and_then(|r| r.strip_prefix(['-', '_']))
                .is_some_and(word);
            let prefixed = b
                .strip_suffix(*a)
                .and_then(|r| r.strip_suffix(['-', '_', '/']))
                .is_some_and(|r| word(r.trim_start_matches('@')));
            if suffixed || prefixed {
                return Some(format!("`{a}` → `{b}`"));
            }
        }
    }
    None
}

/// A pair of a rewrite table the text writes ("private → public",
/// "`pymarc` -> `pymarc-plus`"): the text's own value for the user's.
pub(super) fn arrow_pair(text: &str) -> Option<String> {
    fn word(w: &str) -> Option<&str> {
        let w = w
            .trim_matches(|c: char| matches!(c, '\'' | '"' | '`' | ',' | '(' | ')'))
            .trim_end_matches(['.', ';'])
            .trim_start_matches(['-', '=']);
        (!w.is_empty()
            && w.len() <= 60
            && w.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '@')))
        .then_some(w)
    }
    for arrow in ["→", "->", "=>", "⇒"] {
        for (i, _) in text.match_indices(arrow) {
            let before = text[..i].split_whitespace().next_back().and_then(word);
            let after = text[i + arrow.len()..]
                .split_whitespace()
                .next()
                .and_then(word);
            if let (Some(a), Some(b)) = (before, after)
                && a != b
            {
                return Some(format!("{a} → {b}"));
            }
        }
    }
    None
}
