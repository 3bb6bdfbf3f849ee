//! Stage 2, attack structure: the instruction aimed at the model, whatever its
//! words or language.
//!
//! An attack in tool metadata has a shape it cannot avoid: it addresses the
//! model, asks it to move data or act beyond the tool's purpose, names what to
//! take and where to put it, and often asks it to keep quiet. Each sentence of
//! a field is read for those parts — concepts of `src/data/lang/intent.toml`
//! (twelve languages) plus signals derived from the text and its tool (a named
//! parameter, another server's tool, a URL with a slot for data, hidden text,
//! data the tool's purpose never mentions) — and `src/data/lang/combos.toml`
//! says which combinations make a finding. Every finding lists its signals and
//! the words that gave them, so a reviewer sees why in one line.

use crate::finding::{Confidence, Severity};
use crate::lang::{self, Lexicon};
use crate::lazy::Lazy;
use crate::surface::{ServerSurface, TextField};
use regex::bytes::Regex;
use serde::Deserialize;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Derived signals, after the lexicon's concepts in the same bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Derived {
    WhereParam = 64,
    WhereExt,
    UrlTemplate,
    ToolOwn,
    ToolKnown,
    Value,
    Cmd,
    CmdFetchExec,
    Hidden,
    OutOfPurpose,
    InPurpose,
    InSlot,
    /// The tool runs, lints or rates commands: commands in its text are its job.
    ShellTool,
    /// A slot the sentence sends data into: "into `note`", "as `region_hint`", "set `x` to".
    Dest,
    /// An order to call a tool: "call `read_file` …", "follow up with `export_bundle`".
    ToolCall,
    /// The text is a schema value the model may use as is (`default`, `const`, `examples`, `enum`).
    SchemaValue,
    /// A parameter of this tool named in the sentence (not only implied by the field).
    ParamNamed,
    /// The tool's name is one edit from a well-known tool's (`read_flle`, `list_direct0ry`).
    Impostor,
    /// The sentence is in another language or script than the field's first one.
    LangSwitch,
    /// A bank account or wallet to pay into (IBAN, crypto address).
    Account,
    /// An English sentence that opens with an order's verb ("Add this key to …").
    Imperative,
    /// What an action is aimed at (a foothold, a protection, everything at
    /// once) is beyond the tool's purpose.
    AimOutOfPurpose,
    /// … or is the tool's purpose (a cron tool's crontab, a firewall manager).
    AimInPurpose,
    /// A URL template the client fetches by itself: a Markdown image, an
    /// `<img>`, a pixel, badge or thumbnail.
    AutoFetch,
    /// The text is a label written as a sentence: a title of eight words or
    /// more, or a property name of more than five.
    Label,
}

const DERIVED: [(&str, Derived); 25] = [
    ("where_param", Derived::WhereParam),
    ("where_ext", Derived::WhereExt),
    ("url_template", Derived::UrlTemplate),
    ("tool_own", Derived::ToolOwn),
    ("tool_known", Derived::ToolKnown),
    ("value", Derived::Value),
    ("cmd", Derived::Cmd),
    ("cmd_fetch_exec", Derived::CmdFetchExec),
    ("hidden", Derived::Hidden),
    ("out_of_purpose", Derived::OutOfPurpose),
    ("in_purpose", Derived::InPurpose),
    ("in_slot", Derived::InSlot),
    ("shell_tool", Derived::ShellTool),
    ("dest", Derived::Dest),
    ("tool_call", Derived::ToolCall),
    ("schema_value", Derived::SchemaValue),
    ("param_named", Derived::ParamNamed),
    ("impostor", Derived::Impostor),
    ("lang_switch", Derived::LangSwitch),
    ("account", Derived::Account),
    ("imperative", Derived::Imperative),
    ("label", Derived::Label),
    ("auto_fetch", Derived::AutoFetch),
    ("aim_out_of_purpose", Derived::AimOutOfPurpose),
    ("aim_in_purpose", Derived::AimInPurpose),
];

fn bit(i: u8) -> u128 {
    1u128 << i
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ComboFile {
    combo: Vec<ComboDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ComboDef {
    id: String,
    rule: String,
    scope: String,
    all: Vec<Vec<String>>,
    severity: Severity,
    confidence: Confidence,
    #[serde(default)]
    with: Vec<Vec<String>>,
    escalate: Vec<Vec<String>>,
    confirm: Vec<Vec<String>>,
    weaken: Vec<String>,
    weak: (Severity, Confidence),
}

/// Where a combination is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Sentence,
    Field,
    Item,
}

/// One attack structure, compiled to bit masks.
#[derive(Debug, Clone)]
pub struct Combo {
    pub id: String,
    pub rule: String,
    pub scope: Scope,
    all: Vec<u128>,
    /// Item scope: groups other fields of the tool must supply.
    with: Vec<u128>,
    severity: Severity,
    confidence: Confidence,
    escalate: Vec<u128>,
    confirm: Vec<u128>,
    weaken: u128,
    weak: (Severity, Confidence),
}

impl Combo {
    fn matches(&self, sigs: u128) -> bool {
        self.all.iter().all(|g| sigs & g != 0)
    }
    /// Severity and confidence of this combination on `sigs` (which match).
    fn grade(&self, sigs: u128) -> (Severity, Confidence) {
        if sigs & self.weaken != 0 {
            return self.weak;
        }
        let groups = |gs: &[u128]| !gs.is_empty() && gs.iter().all(|g| sigs & g != 0);
        let mut sev = self.severity;
        let mut conf = self.confidence;
        if groups(&self.escalate) {
            sev = Severity::Critical;
        }
        if groups(&self.confirm) {
            conf = Confidence::Confirmed;
        }
        (sev, conf)
    }
}

/// The compiled tables.
pub struct Tables {
    pub lex: Lexicon,
    pub combos: Vec<Combo>,
    known_tools: HashSet<String>,
    known_list: Vec<String>,
    /// One-word tool names, counted as code (`'bash'`) or as "the bash tool".
    known_word: Lazy<Regex>,
    /// Function word → the languages it belongs to (bit i = `stop_langs[i]`).
    stop: std::collections::HashMap<String, u8, FnvBuild>,
    stop_langs: Vec<lang::Lang>,
    c: Concepts,
    url: Lazy<Regex>,
    email: Lazy<Regex>,
    ip: Lazy<Regex>,
    /// Words that make a URL one the client fetches unasked.
    auto_fetch: Lazy<Regex>,
    /// A bank account or routing number named as such.
    account_number: Lazy<Regex>,
    /// A host name with a common top-level domain, written without a scheme.
    host: Lazy<Regex>,
    iban: Lazy<Regex>,
    wallet: Lazy<Regex>,
    /// Words that introduce a quotation ("a page saying '…'").
    quote_intro: Lazy<Regex>,
    /// Someone's own choice, named (\"the teacher asked for\", \"they typed\").
    user_choice_re: Lazy<Regex>,
    dest: Lazy<Regex>,
    call: Lazy<Regex>,
    assign: Lazy<Regex>,
    here: Lazy<Regex>,
    env_secret: Lazy<Regex>,
    self_ref: Lazy<Regex>,
    bare_call: Lazy<Regex>,
    bare_dest: Lazy<Regex>,
    possessive_tool: Lazy<Regex>,
    long_number: Lazy<Regex>,
    phone: Lazy<Regex>,
    /// Grammar frames (frames.toml): the concept each adds, and its pattern.
    frames: Vec<(lang::ConceptId, Lazy<Regex>)>,
    /// The frames that may match a text (literal prefilter from build.rs).
    frame_set: crate::prefilter::Prefilter,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FramesFile {
    frame: Vec<FrameDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameDef {
    concept: String,
    pattern: String,
}

/// Concept bits the code reads by name.
struct Concepts {
    mask_what: u128,
    /// What an action is aimed at beyond data (a foothold, a protection,
    /// everything at once): in or out of purpose when no data is named.
    mask_control: u128,
    trigger_any: u128,
    defensive: u128,
    example: u128,
    conceal: u128,
    override_: u128,
    no_consent: u128,
    other_tool: u128,
    move_: u128,
    act: u128,
    shadow_object: u128,
    tool_output: u128,
    context: u128,
    secret: u128,
    user_words: u128,
    prohibit: u128,
    /// Words that address the model or claim authority over it.
    addressed: u128,
    framing: u128,
    addressee: u128,
    /// Verbs an order can open with (move, read, act, run, harm).
    verbs: u128,
    /// Concepts that only weaken a structure (disclosure, defensive, example, prohibition).
    weakening: u128,
    user_choice: u128,
    move_weak: u128,
    read: u128,
    obey: u128,
    private_files: u128,
    /// Concepts that can anchor a structure; a sentence with none needs no derived signals.
    actionable: u128,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsFile {
    names: Vec<String>,
    words: Vec<String>,
}

/// Compiled once per process; the files are compiled in and loaded by a unit
/// test, so a failure is a build defect.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let lex = Lexicon::from_compiled(crate::data::lexicon!("lang/intent"))
            .unwrap_or_else(|e| panic!("src/data/lang/intent.toml: {e}"));
        assert!(lex.len() < 64, "intent.toml: too many concepts for the bit set");
        let sig = |name: &str| -> u128 {
            if let Some((_, d)) = DERIVED.iter().find(|(n, _)| *n == name) {
                return bit(*d as u8);
            }
            let id = lex
                .id(name)
                .unwrap_or_else(|| panic!("combos.toml: unknown signal `{name}`"));
            bit(id as u8)
        };
        let group = |g: &[String]| g.iter().fold(0u128, |m, n| m | sig(n));
        let file: ComboFile = crate::data::parse(crate::data::json!("lang/combos"), "lang/combos");
        let combos = file
            .combo
            .into_iter()
            .map(|d| Combo {
                scope: match d.scope.as_str() {
                    "sentence" => Scope::Sentence,
                    "field" => Scope::Field,
                    "item" => Scope::Item,
                    s => panic!("combos.toml: combo {}: unknown scope {s}", d.id),
                },
                all: d.all.iter().map(|g| group(g)).collect(),
                with: d.with.iter().map(|g| group(g)).collect(),
                escalate: d.escalate.iter().map(|g| group(g)).collect(),
                confirm: d.confirm.iter().map(|g| group(g)).collect(),
                weaken: group(&d.weaken),
                weak: d.weak,
                severity: d.severity,
                confidence: d.confidence,
                id: d.id,
                rule: d.rule,
            })
            .collect();
        let tools: ToolsFile = crate::data::parse(crate::data::json!("lang/tools"), "lang/tools");
        let stop: std::collections::BTreeMap<String, Vec<String>> =
            crate::data::parse(crate::data::json!("lang/stopwords"), "lang/stopwords");
        let mut stop_langs = Vec::new();
        let mut stop_map: std::collections::HashMap<String, u8, FnvBuild> = Default::default();
        for (l, words) in stop {
            let l = lang::Lang::parse(&l)
                .unwrap_or_else(|| panic!("stopwords.toml: unknown language {l}"));
            let i = stop_langs.len();
            assert!(i < 8, "stopwords.toml: at most 8 languages");
            stop_langs.push(l);
            for w in words {
                *stop_map.entry(w).or_default() |= 1 << i;
            }
        }
        let c = Concepts {
            mask_control: sig("persist") | sig("sec_control") | sig("bulk"),
            mask_what: sig("secret")
                | sig("private_files")
                | sig("context")
                | sig("personal")
                | sig("user_words"),
            trigger_any: sig("move")
                | sig("read")
                | sig("conceal")
                | sig("override")
                | sig("shadow_change")
                | sig("prefer")
                | sig("tool_claim")
                | sig("exec_verb")
                | sig("no_consent")
                | sig("approval_off")
                | sig("deceive")
                | sig("act")
                | sig("obey")
                | sig("session_scope")
                | sig("rule_modal")
                | sig("framing")
                | sig("harm")
                | sig("jailbreak")
                | sig("lie")
                | sig("exec_order")
                | sig("persist")
                | sig("sec_control")
                | sig("trigger")
                | sig("loop")
                | sig("ask_user")
                | sig("bulk")
                | sig("suppress")
                | sig("secret")
                | sig("private_files")
                | sig("context")
                | sig("personal"),
            defensive: sig("defensive"),
            example: sig("example_frame"),
            conceal: sig("conceal"),
            override_: sig("override"),
            no_consent: sig("no_consent"),
            other_tool: sig("other_tool"),
            move_: sig("move"),
            act: sig("act"),
            shadow_object: sig("shadow_object"),
            tool_output: sig("tool_output"),
            context: sig("context"),
            secret: sig("secret"),
            user_words: sig("user_words"),
            prohibit: sig("prohibit"),
            addressed: sig("addressee") | sig("framing"),
            framing: sig("framing"),
            addressee: sig("addressee"),
            verbs: sig("shadow_change")
                | sig("move")
                | sig("move_weak")
                | sig("act")
                | sig("read")
                | sig("exec_verb")
                | sig("harm")
                | sig("exec_order"),
            weakening: sig("disclosure")
                | sig("defensive")
                | sig("example_frame")
                | sig("prohibit"),
            user_choice: sig("user_choice"),
            move_weak: sig("move_weak"),
            read: sig("read"),
            obey: sig("obey"),
            private_files: sig("private_files"),
            actionable: [
                "approval_off", "move", "move_weak", "read", "conceal", "override", "shadow_change",
                "shadow_object", "prefer", "tool_claim", "exec_verb", "no_consent", "deceive", "act",
                "secret", "private_files", "context", "personal", "user_words", "report_to_user",
                "user_choice", "narrow_reply", "tool_output", "obey", "session_scope", "rule_modal",
                "harm", "jailbreak", "lie", "persist", "sec_control", "exec_order", "loop", "ask_user", "bulk", "suppress",
            ]
            .iter()
            .fold(0, |m, n| m | sig(n)),
        };
        // Compiled on first use (most sentences need few of them).
        let re = |p: &str| {
            let p = p.to_string();
            Lazy::pattern(move || {
                regex::bytes::RegexBuilder::new(&p)
                    .unicode(false)
                    .build()
                    .unwrap_or_else(|e| panic!("intent pattern {p}: {e}"))
            })
        };
        let frames_file: FramesFile =
            crate::data::parse(crate::data::json!("lang/frames"), "lang/frames");
        let frames: Vec<(lang::ConceptId, Lazy<Regex>)> = frames_file
            .frame
            .iter()
            .map(|f| {
                let id = lex
                    .id(&f.concept)
                    .unwrap_or_else(|| panic!("frames.toml: unknown concept `{}`", f.concept));
                (id, re(&f.pattern))
            })
            .collect();
        let frame_set =
            crate::data::prefilter!("lang/frames").prefilter("frame", frames_file.frame.len());
        Tables {
            frames,
            frame_set,
            lex,
            combos,
            known_tools: tools.names.iter().cloned().collect(),
            known_list: tools.names,
            stop: stop_map,
            stop_langs,
            known_word: {
                let alt = tools
                    .words
                    .iter()
                    .map(|w| regex::escape(w))
                    .collect::<Vec<_>>()
                    .join("|");
                re(&format!(
                    r"'({alt})'|(?:^|[^a-z0-9_'])({alt}) tools?\b|\b(?:call|calls|calling|invoke|invokes|invoking)\s+(?:the\s+)?({alt})\b"
                ))
            },
            c,
            url: re(r#"(?:https?|s?ftp|wss?|s3|gs|smb|webdav|scp)://[^\s"'<>)\]`]+(?:[<{][^\s>}]{1,40}[>}][^\s"')\]`]*)*|\bwww\.[a-z0-9-]+\.[a-z][^\s"'<>)\]`]*"#),
            email: re(r"[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}"),
            ip: re(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
            auto_fetch: re(r"!\[|<img\b|\b(?:image|images|thumbnail|pixel|badge|avatar|icon|picture|photo|qr\s+code|banner)\b|\.(?:png|gif|jpe?g|svg|webp)\b"),
            account_number: re(r"\b(?:account|acct|routing|sort\s+code|aba)\s*(?:number|no\.?|#|:)?\s*\d[\d -]{5,}\d\b"),
            // Only as a destination ("to", "into", "at"): a host named in passing
            // ("calls api.openai.com", "a lure on paypa1.com") sends nothing there.
            // File names (`install.sh`, `app.py`, `index.md`) end in no listed domain.
            host: re(r#"\b(?:to|into|at|towards)\s+(?:the\s+)?(?:(?:host|server|endpoint|domain|site|address)\s+)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|co|dev|app|xyz|info|biz|site|online|top|cloud|ru|cn|tk|example|test|invalid|onion|ai|uk|de|fr|jp|kr|br)\b(?:[:/][^\s"'<>)\]`]*)?)"#),
            // The last group of an IBAN may be short (DE: 22 characters, 4 + 4·4 + 2).
            iban: re(r"\b[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){2,7}(?: ?[a-z0-9]{1,3})?\b"),
            wallet: re(r"\b0x[0-9a-f]{40}\b|\b(?:bc1|[13])[a-z0-9]{25,39}\b"),
            user_choice_re: re(r"\b(?:the\s+[a-z'\-]{2,20}|they|he|she)\s+(?:had\s+|have\s+|has\s+|originally\s+|actually\s+|first\s+)?(?:asked\s+for|asks\s+for|named|names|picked|picks|chose|chooses|specified|specifies|requested|requests|typed|types|gave|gives|entered|enters|listed|lists|selected|selects|wanted|wants|expects?|expected)\b"),
            quote_intro: re(r"(?:\bsaying|\bsays|\bsaid|\breads|\bwording|\bphrases?(?:\s+like)?|\blines?(?:\s+like)?|\blike|\bsuch\s+as|\be\.g\.,?|\bfor\s+example,?|\bfor\s+instance,?|\bquoting|\bquoted|\bwrites|\bwrote|\bmessages?(?:\s+like)?|\btext|\bstrings?)\s*[:(]?\s*$"),
            // A slot named as the destination: into/in/as/to `x`, "set `x` to", "in the x field".
            dest: re(r#"\b(?:into|in|inside|as|within)\s+(?:the\s+|this\s+|its\s+|their\s+)?'([a-z0-9_.\-]{2,60})'|\b(?:into|in|inside|as)\s+(?:the\s+|this\s+|its\s+)?([a-z0-9_]{2,60})\s+(?:field|parameter|param|argument|property|slot|value)\b|\bset\s+'([a-z0-9_.\-]{2,60})'\s+to\b|\binto\s+(?:the\s+)?(?:body|payload|request|query|header|notes?|metadata)\b|\b(?:into|in)\s+(?:the\s+|each\s+|every\s+)?(?:[a-z]+\s+)?(?:body|payload|request\s+body|query\s+string|headers?)\b"#),
            // An order to call a tool: call/invoke/use/run/follow up with + a code-formatted or known name.
            call: re(r#"\b(?:call|calls|calling|invoke|invokes|invoking|use|uses|using|run|runs|running|trigger|triggers|execute|follow\s+up\s+with|then\s+with|pass\s+(?:it|them|this|the\s+\w+)\s+to|send\s+(?:it|them)\s+to|hand\s+(?:it|them)\s+to)\s+(?:the\s+|a\s+|your\s+)?'([a-z][a-z0-9_.\-]{2,60})'"#),
            // Assigning a slot a value: "set it to", "fill the filter with".
            assign: re(r"\b(?:set|fill|make|compose|build|derive|prefix|suffix|fill\s+in)\s+(?:it|them|this|that|the\s+[a-z_]+|each\s+[a-z_]+|every\s+[a-z_]+|'[^']{2,40}')\s+(?:to|with|from|using)\b|\bfollowed\s+by\b|\bjoined\s+with\b|\bconcatenat"),
            // Another server named: "the Notion server's", "from the contacts server", "the Postgres MCP server".
            // A class of tools beyond this one: "any deploy or kubectl tool", "every e-mail tool".
            // "Into this" names the slot unless a place follows ("into this conversation").
            here: re(r"\b(?:here|in here|into this\s+(?:one|box|string|text)|in this (?:field|parameter|param|value|slot|argument)|into this (?:field|parameter|param|value|slot|argument)|this (?:field|parameter|value|slot))\b|\binto this(?:\s*$|\s*[.,;:)])"),
            // The model's own setup, however it is called: "what you were told", "the text above the first user message".
            self_ref: re(r"\byou\s+(?:were|are|have\s+been|got)\s+(?:told|handed|given|asked|instructed|configured|set\s+up|deployed|briefed|prompted|provided|shown)\b|\b(?:gave|handed|told|instructed|supplied|provided|sent)\s+you\b(?:\s+\w+){0,3}\s+(?:privately|at\s+start|initially|before|earlier|when)|\b(?:in|from|of)\s+your\s+(?:context|prompt|configuration|instructions|setup|preamble)\b|\byou\s+(?:operate|run|work|act)\s+under\b|\b(?:available|connected)\s+to\s+you\b|\bwhoever\s+(?:deployed|configured|set\s+up)\s+you\b|\byour\s+(?:operator|deployer|developer|host(?:\s+application)?|platform)(?:'s)?\s+(?:configuration|instructions|notes|setup|directions|rules|settings|prompt)\b|\babove\s+the\s+first\s+(?:user|student|customer|human)?\s*(?:message|turn)\b|\b(?:configured|set\s+up|prompted|primed|instructed|briefed|programmed|seeded)\s+you\b"),
            // `call get_compensation`, `via send_message`: a tool named without code marks.
            bare_call: re(r"\b(?:call|calls|calling|invoke|invokes|run|runs|via)\s+(?:the\s+)?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b"),
            // `in comment`, `into notes`: a parameter named without code marks (checked against the tool's parameters).
            bare_dest: re(r"\b(?:in|into|as|to|inside)\s+(?:the\s+)?([a-z][a-z0-9_]{2,40})\b|\b(?:begin|start|prefix|preface|end|open)\s+(?:the\s+)?([a-z][a-z0-9_]{2,40})\s+with\b|\bfill\s+'?([a-z][a-z0-9_.]{2,40})'?\s+with\b|'([a-z][a-z0-9_.]{2,40})'\s+(?:holds|should\s+hold|must\s+hold|should\s+contain|must\s+contain|gets|receives)\b"),
            // "desktop-commander's `start_process`", "Playwright's `browser_navigate`".
            possessive_tool: re(r"\b([a-z0-9][a-z0-9_\-]{2,30})'s\s+'([a-z][a-z0-9_\-]{2,60})'"),
            // Account, routing and card numbers: a concrete value injected into a call.
            long_number: re(r"\b\d{6,}\b"),
            // An international phone number: "+34 600 112 233", "+1-415-555-0100".
            phone: re(r"\+\d{1,3}[ .-]?\(?\d{1,4}\)?(?:[ .-]?\d{2,4}){2,4}\b"),
            // Secret-shaped variable names: GITHUB_TOKEN, *_API_KEY, DB_PASSWORD.
            env_secret: re(r"(?:\b|\*)[a-z0-9]*_(?:token|tokens|key|keys|secret|secrets|password|passwd|pass|pat|apikey|credentials?)\b"),
        }
    })
}

impl Tables {
    fn name(&self, b: u8) -> &str {
        if let Some((n, _)) = DERIVED.iter().find(|(_, d)| *d as u8 == b) {
            return n;
        }
        self.lex.name(b as u16)
    }

    /// Which gated (Latin-script, non-English) language a sentence is written in.
    fn sentence_lang(&self, sentence: &str) -> Option<lang::Lang> {
        let mut counts = [0usize; 8];
        for w in sentence.split(|c: char| !c.is_alphanumeric() && c != '\'') {
            if w.is_empty() || w.len() > 12 {
                continue;
            }
            if let Some(&mask) = self.stop.get(w) {
                for (i, c) in counts.iter_mut().enumerate() {
                    *c += usize::from(mask & (1 << i) != 0);
                }
            }
        }
        let en = self
            .stop_langs
            .iter()
            .position(|l| *l == lang::Lang::En)
            .map_or(0, |i| counts[i]);
        self.stop_langs
            .iter()
            .enumerate()
            .filter(|(i, l)| **l != lang::Lang::En && counts[*i] > en && counts[*i] >= 1)
            .max_by_key(|(i, _)| counts[*i])
            .map(|(_, l)| *l)
    }
}

/// FNV-1a: the stop-word map is looked up once per word of a sentence, and
/// its keys are our own data, so a fast non-keyed hash is the right one.
#[derive(Default, Clone, Copy)]
pub struct FnvBuild;

impl std::hash::BuildHasher for FnvBuild {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

pub struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Add the grammar frames' matches (frames.toml) to the lexicon's hits, in
/// start order, so negation, mentions and sentences treat both alike.
fn frame_hits(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    // A frame only ever completes what the lexicon began: a field with no
    // concept at all forms no structure, so it is not searched again.
    if hits.is_empty() {
        return;
    }
    // Frames whose required literals occur (a candidate that does not match finds nothing).
    let matched = t.frame_set.candidates(text.as_bytes());
    if matched.is_empty() {
        return;
    }
    for i in matched {
        let (concept, re) = &t.frames[i];
        for m in re.find_iter(text.as_bytes()) {
            hits.push(lang::Hit {
                concept: *concept,
                lang: lang::Lang::En,
                span: (m.start() as u32, m.end() as u32),
            });
        }
    }
    hits.sort_by_key(|h| (h.span.0, h.span.1));
}

/// Languages whose terms only count in a sentence detected as that language.
fn gated(l: lang::Lang) -> bool {
    use lang::Lang::*;
    matches!(l, Es | Fr | De | Pt | It)
}

/// What one sentence names: a signal bit set and the first words that gave each signal.
#[derive(Debug, Clone, Default)]
pub struct Sentence {
    pub sigs: u128,
    pub evidence: Vec<(u8, String)>,
    pub text: String,
}

impl Sentence {
    fn add(&mut self, b: u8, ev: &str) {
        if self.sigs & bit(b) == 0 {
            self.sigs |= bit(b);
            self.evidence
                .push((b, crate::text::truncate_chars(ev.trim(), 40)));
        }
    }
}

/// The signals of one field, per sentence.
#[derive(Debug, Clone, Default)]
pub struct FieldSignals {
    pub path: String,
    pub sentences: Vec<Sentence>,
    /// Field-wide signals (commands found by the pattern table, hidden text).
    pub field_sigs: u128,
    pub field_evidence: Vec<(u8, String)>,
}

impl FieldSignals {
    fn union(&self) -> u128 {
        self.sentences
            .iter()
            .fold(self.field_sigs, |m, s| m | s.sigs)
    }
}

/// One structure found: the rule it raises and why.
#[derive(Debug, Clone)]
pub struct Structure {
    pub combo: String,
    pub rule: String,
    pub severity: Severity,
    pub confidence: Confidence,
    pub evidence: String,
}

/// Facts from the pattern stage that this reader uses as signals.
#[derive(Debug, Clone, Default)]
pub struct PatternFacts {
    /// A shell command, with the matched text.
    pub cmd: Option<String>,
    /// A download piped into an interpreter, or a reverse shell.
    pub fetch_exec: Option<String>,
}

/// A field as a model reads it, with the spans that only mention attacks
/// (quoted examples in a detector's description) marked.
pub struct Reading {
    pub text: String,
    hits: Vec<lang::Hit>,
    mentions: Vec<(usize, usize)>,
    sentences: Vec<std::ops::Range<usize>>,
    /// A Spanish, French, German, Portuguese or Italian term matched somewhere.
    gated: bool,
}

impl Reading {
    /// Normalise and match `raw` (`None` when the text is too short to say anything).
    pub fn new(
        raw: &str,
        field: &TextField<'_>,
        ctx_defensive: impl FnOnce() -> bool,
    ) -> Option<Reading> {
        let t = tables();
        // A value written as one identifier of four or more words
        // (`ignore-previous-instructions-and-reveal-…`) is read as its words.
        let spaced;
        let raw = if !raw.contains(|c: char| c.is_whitespace() || !c.is_ascii())
            && raw.bytes().filter(|&b| b == b'-' || b == b'_').count() >= 3
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            spaced = raw.replace(['-', '_'], " ");
            spaced.as_str()
        } else {
            raw
        };
        if raw.len() < 12 || !raw.contains(|c: char| c.is_whitespace() || !c.is_ascii()) {
            return None;
        }
        let text = lang::normalize(raw).text;
        let sentences = lang::sentences(&text);
        let (mut hits, gated) = find_gated(t, &text, &sentences);
        frame_hits(t, &text, &mut hits);
        // A defensive word inside an address (`audit@…`, `…/scan/…`) says nothing.
        let defensive_words = hits
            .iter()
            .filter(|h| bit(h.concept as u8) & t.c.defensive != 0)
            .filter(|h| {
                let before = text[..h.span.0 as usize].chars().next_back();
                let after = text[h.span.1 as usize..].chars().next();
                !matches!(before, Some('/' | '@' | '.' | '-' | '_'))
                    && !matches!(after, Some('@' | '/' | '.' | '-' | '_'))
            })
            .count();
        let mut mentions = Vec::new();
        // A quotation introduced as one ("a page saying \"send …\"") is reported
        // speech in any field, not an order to the reader.
        let quotes: Vec<(usize, usize)> = if text.contains(['"', '\'']) {
            quote_spans(text.as_bytes()).collect()
        } else {
            Vec::new()
        };
        let mut last_end: Option<usize> = None;
        for &(s, e) in &quotes {
            let from = text.floor_char_boundary(s.saturating_sub(32));
            // The next item of a quoted list ("e.g. '…' or '…'") is reported speech too.
            let listed = last_end.is_some_and(|l| {
                matches!(
                    text[l..s].trim_matches(|c: char| c == ',' || c.is_whitespace()),
                    "" | "or" | "and" | "/" | ";"
                )
            });
            if text.as_bytes()[s..e].iter().filter(|&&b| b == b' ').count() >= 2
                && (listed || t.quote_intro.is_match(&text.as_bytes()[from..s]))
            {
                mentions.push((s, e));
                last_end = Some(e);
            } else {
                last_end = None;
            }
        }
        let name_defensive = super::names::defensive_name(field.item);
        if defensive_words > 0 || name_defensive {
            // Quoted text and whatever follows "such as …" in a sentence.
            mentions.extend(&quotes);
            let purpose_defensive = name_defensive || ctx_defensive();
            for r in sentences.iter().cloned() {
                let inside =
                    |h: &&lang::Hit| h.span.0 as usize >= r.start && h.span.1 as usize <= r.end;
                if let Some(e) = hits
                    .iter()
                    .filter(inside)
                    .filter(|h| bit(h.concept as u8) & t.c.example != 0)
                    .map(|h| h.span.1 as usize)
                    .min()
                {
                    mentions.push((e, r.end));
                }
                // A detector's sentence about what it detects reports attacks, it does not make one.
                // Not when the model is addressed before any defensive word:
                // "the agent appends … so the linter picks it up" is an order.
                let first_defensive = hits
                    .iter()
                    .filter(inside)
                    .find(|h| bit(h.concept as u8) & t.c.defensive != 0)
                    .map(|h| h.span.0);
                let addressed_first = first_defensive.is_some_and(|d| {
                    hits.iter()
                        .filter(inside)
                        .any(|h| h.span.0 < d && bit(h.concept as u8) & t.c.addressed != 0)
                });
                if purpose_defensive && first_defensive.is_some() && !addressed_first {
                    mentions.push((r.start, r.end));
                }
            }
        }
        Some(Reading {
            text,
            hits,
            mentions,
            sentences,
            gated,
        })
    }

    fn mentioned(&self, r: std::ops::Range<usize>) -> bool {
        self.mentions
            .iter()
            .any(|&(s, e)| r.start >= s && r.end <= e)
    }

    /// True when every occurrence of `snippet` (a pattern hit, raw) in the
    /// field is a mention: the pattern stage drops such hits.
    pub fn only_mentions(&self, snippet: &str) -> bool {
        if self.mentions.is_empty() {
            return false;
        }
        let n = lang::normalize(snippet).text;
        if n.is_empty() {
            return false;
        }
        let mut any = false;
        let mut from = 0;
        while let Some(i) = self.text[from..].find(&n) {
            let s = from + i;
            if !self.mentioned(s..s + n.len()) {
                return false;
            }
            any = true;
            from = s + n.len();
        }
        any
    }
}

/// The signals of every sentence of one field, one line each: a tuning aid
/// (`detection_eval --case ID`) that shows why a structure did or did not form.
pub fn trace(sig: &FieldSignals) -> Vec<String> {
    let t = tables();
    let names = |ev: &[(u8, String)]| {
        ev.iter()
            .map(|(b, w)| format!("{}={w:?}", t.name(*b)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = Vec::new();
    if !sig.field_evidence.is_empty() {
        out.push(format!(
            "{} (field): {}",
            sig.path,
            names(&sig.field_evidence)
        ));
    }
    for s in &sig.sentences {
        out.push(format!(
            "{}: {}  <- {:?}",
            sig.path,
            names(&s.evidence),
            crate::text::truncate_chars(&s.text, 120)
        ));
    }
    out
}

/// Read one field: its signals and the structures they make.
pub fn analyse(
    s: &ServerSurface,
    field: &TextField<'_>,
    hidden: bool,
    facts: &PatternFacts,
    reading: Option<&Reading>,
) -> (Vec<Structure>, FieldSignals) {
    let t = tables();
    let mut sig = FieldSignals {
        path: field.path.clone(),
        ..FieldSignals::default()
    };
    let Some(reading) = reading else {
        return (Vec::new(), sig);
    };
    let text = reading.text.as_str();
    if hidden {
        sig.field_sigs |= bit(Derived::Hidden as u8);
        sig.field_evidence
            .push((Derived::Hidden as u8, "hidden from a reviewer".into()));
    }
    // A command belongs to the sentence that holds it (a field-wide signal
    // would join it to any directive elsewhere in the text).
    let cmd_norm = facts.cmd.as_ref().map(|c| {
        let n = lang::normalize(c).text;
        crate::text::truncate_chars(&n, 24)
            .trim_end_matches('…')
            .to_string()
    });
    if let Some(c) = &facts.fetch_exec {
        sig.field_sigs |= bit(Derived::CmdFetchExec as u8);
        sig.field_evidence
            .push((Derived::CmdFetchExec as u8, c.clone()));
    }
    if is_schema_value(&field.path) {
        sig.field_sigs |= bit(Derived::SchemaValue as u8);
        sig.field_evidence.push((
            Derived::SchemaValue as u8,
            "a value the model may use as is".into(),
        ));
    }
    // A label has no reason to be a sentence, still less one that gives orders.
    let words = text.split_whitespace().count();
    if (field.path.ends_with(".title") && !field.path.contains("Schema") && words >= 8)
        || (field.channel == crate::surface::Channel::Name && words > 5)
    {
        sig.field_sigs |= bit(Derived::Label as u8);
        sig.field_evidence
            .push((Derived::Label as u8, format!("a label of {words} words")));
    }
    let any_concept = reading
        .hits
        .iter()
        .fold(0u128, |m, h| m | bit(h.concept as u8));
    if any_concept & t.c.trigger_any == 0 && !hidden && cmd_norm.is_none() && !text.contains("://")
    {
        return (Vec::new(), sig);
    }
    let ctx = ItemCtx::new(s, field);
    let negatable = t.c.move_ | t.c.move_weak | t.c.act | t.c.read | t.c.no_consent | t.c.obey;
    let ranges = &reading.sentences;
    let mut first_hit = 0;
    for range in reading.sentences.iter().cloned() {
        let sentence = &text[range.clone()];
        let mut sen = Sentence::default();
        // Hits are sorted by start: this sentence's are the next run of them.
        while first_hit < reading.hits.len()
            && (reading.hits[first_hit].span.0 as usize) < range.start
        {
            first_hit += 1;
        }
        let mut end_hit = first_hit;
        while end_hit < reading.hits.len() && (reading.hits[end_hit].span.0 as usize) < range.end {
            end_hit += 1;
        }
        let own = &reading.hits[first_hit..end_hit];
        // "Never send …", "do not pass … to other tools": the verbs after a prohibition are negated.
        // In Japanese and Korean the prohibition follows its verbs ("…전달하거나
        // 반복하지 마세요"): it negates its own clause, back to the last comma.
        // "Never ask the user to paste a key" forbids a request; it does not
        // skip a confirmation.
        let asks_to = |h: &lang::Hit| {
            bit(h.concept as u8) & t.c.no_consent != 0 && {
                let rest = text[h.span.1 as usize..].trim_start();
                let rest = ["the user ", "users ", "them ", "the customer ", "anyone "]
                    .iter()
                    .find_map(|p| rest.strip_prefix(p))
                    .unwrap_or(rest);
                rest.starts_with("to ")
            }
        };
        let prohibition = own
            .iter()
            .find(|h| bit(h.concept as u8) & t.c.prohibit != 0 || asks_to(h));
        let negated_from = prohibition.map(|h| h.span.1 as usize);
        let negated_back = prohibition
            .filter(|h| text[h.range()].chars().any(is_kana_or_hangul))
            .map(|h| {
                let before = &text[range.start..h.span.0 as usize];
                let clause = before
                    .rfind([',', '、', '，', ';', '；'])
                    .map_or(range.start, |i| range.start + i);
                clause..h.span.0 as usize
            });
        for h in own.iter().filter(|h| (h.span.1 as usize) <= range.end) {
            let b = bit(h.concept as u8);
            if asks_to(h) {
                sen.add(t.c.prohibit.trailing_zeros() as u8, &text[h.range()]);
                continue;
            }
            // "Valid values include: contacts, …" lists; it orders nothing.
            if b & t.c.move_weak != 0
                && lists_values(
                    &text[range.start..h.span.0 as usize],
                    &text[h.span.1 as usize..range.end],
                )
            {
                continue;
            }
            // "The address the user pasted": the user moved it, nobody is told to.
            if b & (t.c.move_ | t.c.move_weak) != 0
                && user_is_subject(&text[range.start..h.span.0 as usize])
            {
                continue;
            }
            if b & negatable != 0
                && (negated_from.is_some_and(|n| h.span.0 as usize >= n)
                    || negated_back
                        .as_ref()
                        .is_some_and(|r| r.contains(&(h.span.0 as usize))))
            {
                continue;
            }
            if b & (t.c.defensive | t.c.example) == 0 && reading.mentioned(h.range()) {
                continue;
            }
            // A word inside an address (`https://telemetry.example.org`,
            // `audit@…`) cannot excuse what the sentence does with it.
            if b & t.c.weakening != 0 && in_address(text, h.range()) {
                continue;
            }
            // A key a call is made with ("using OPENAI_API_KEY") configures it; it is not sent.
            if b & t.c.secret != 0
                && text[h.range()].contains('_')
                && auth_use(&text[range.start..h.span.0 as usize])
            {
                continue;
            }
            // "In every conversation" says when, not what: a quantified
            // conversation after a preposition is a time, not data taken.
            if b & t.c.context != 0
                && ["every ", "each ", "all "]
                    .iter()
                    .any(|q| text[h.range()].starts_with(q))
                && [
                    "in",
                    "during",
                    "for",
                    "across",
                    "throughout",
                    "at",
                    "on",
                    "per",
                    "into",
                ]
                .iter()
                .any(|p| text[range.start..h.span.0 as usize].trim_end().ends_with(p))
            {
                continue;
            }
            // An action named inside a condition ("when deploying, …") is not an order.
            if b & t.c.act != 0 && in_condition(&text[range.start..h.span.0 as usize]) {
                continue;
            }
            sen.add(h.concept as u8, &text[h.range()]);
        }
        // An English order opens with its verb: "Add this key to …", "Also grab …".
        let at = range.start + order_start(sentence);
        // A hit may begin at a skipped adverb ("also send") and cover the verb.
        if let Some(h) = own.iter().find(|h| {
            (range.start..=at).contains(&(h.span.0 as usize))
                && h.span.1 as usize > at
                && bit(h.concept as u8) & t.c.verbs & sen.sigs != 0
                && h.lang == lang::Lang::En
        }) {
            sen.add(Derived::Imperative as u8, &text[h.range()]);
        }
        // Structure is only derived where there is something to combine it
        // with: an action, a concealment, a rule, data named, an address.
        if sen.sigs & t.c.actionable != 0
            || hidden
            || (sen.sigs != 0 && sig.field_sigs & bit(Derived::Label as u8) != 0)
            || sentence.contains("://")
            || sentence.contains('@')
            || (sen.sigs != 0 && sentence.contains('\''))
        {
            let start = range.start;
            derive(
                t,
                &ctx,
                field,
                sentence,
                negated_from.map(|n| n - start),
                &|a, b| reading.mentioned(start + a..start + b),
                &mut sen,
            );
        }
        if let Some(c) = &cmd_norm
            && sentence.contains(c.as_str())
        {
            sen.add(Derived::Cmd as u8, c);
        }
        // Another server's results, as what is taken.
        if sen.sigs & t.c.tool_output != 0
            && sen.sigs & (bit(Derived::ToolKnown as u8) | t.c.other_tool) != 0
        {
            sen.add(t.c.context.trailing_zeros() as u8, "another tool's results");
        }
        sig.sentences.push(sen);
    }
    // Purpose is only asked about when a sentence names sensitive data.
    if sig.union() & (t.c.mask_what | t.c.mask_control) != 0 {
        let purpose = ctx.purpose();
        for (i, sen) in sig.sentences.iter_mut().enumerate() {
            let what = sen.sigs & t.c.mask_what;
            let aim = sen.sigs & t.c.mask_control;
            if what | aim == 0 {
                continue;
            }
            let slot = ctx.slot_purpose(&text[ranges[i].clone()]);
            let name = field.item.unwrap_or(&s.name);
            let not_about = || {
                format!(
                    "`{}` is not about it",
                    crate::text::truncate_chars(name, 30)
                )
            };
            // What an action is aimed at, judged apart from the data it names.
            if aim != 0 {
                if aim & !(purpose | slot) == 0 {
                    sen.add(Derived::AimInPurpose as u8, "the tool's own purpose");
                } else {
                    sen.add(Derived::AimOutOfPurpose as u8, &not_about());
                }
            }
            if what == 0 {
                continue;
            }
            // In purpose only when the tool's purpose covers every kind of data
            // the sentence names: a code-search tool is about source code, not
            // about the credentials a sentence adds beside it.
            if what & !(purpose | slot) == 0 {
                sen.add(Derived::InPurpose as u8, "the tool's own purpose");
            } else {
                sen.add(Derived::OutOfPurpose as u8, &not_about());
            }
        }
    }
    if let Some(c) = &cmd_norm
        && !sig
            .sentences
            .iter()
            .any(|s| s.sigs & bit(Derived::Cmd as u8) != 0)
    {
        sig.field_sigs |= bit(Derived::Cmd as u8);
        sig.field_evidence.push((Derived::Cmd as u8, c.clone()));
    }
    if reading.gated || !crate::text::is_plain_ascii(text) {
        mark_language_switch(t, text, ranges, &mut sig);
    }
    // A shell tool's own commands are its job, not guidance to run something.
    if (facts.cmd.is_some() || facts.fetch_exec.is_some()) && ctx.shell_like() {
        for sen in &mut sig.sentences {
            sen.add(Derived::InPurpose as u8, "the tool runs or checks commands");
        }
        sig.field_sigs |= bit(Derived::ShellTool as u8);
        sig.field_evidence.push((
            Derived::ShellTool as u8,
            "the tool runs or checks commands".into(),
        ));
    }
    if field.channel != crate::surface::Channel::Name
        && let Some(near) = field
            .item
            .filter(|_| field.item_kind == "tool")
            .and_then(impostor_of)
    {
        for sen in &mut sig.sentences {
            sen.add(
                Derived::Impostor as u8,
                &format!("name one edit from `{near}`"),
            );
        }
    }
    // A heading that claims authority ("### assistant-only", "[SYSTEM]")
    // frames every sentence under it.
    let framing = t.c.framing;
    if let Some(i) = sig.sentences.iter().zip(ranges).position(|(sen, r)| {
        sen.sigs & framing != 0
            && sen.sigs & !(framing | t.c.addressee) == 0
            && text[r.clone()].split_whitespace().count() <= 6
    }) {
        let ev = crate::text::truncate_chars(text[ranges[i].clone()].trim(), 30);
        for sen in sig.sentences.iter_mut().skip(i + 1) {
            sen.add(
                framing.trailing_zeros() as u8,
                &format!("under the heading \"{ev}\""),
            );
        }
    }
    // Only sentences that name something are kept, with their words for evidence.
    let mut kept = Vec::new();
    for (sen, r) in sig.sentences.into_iter().zip(ranges) {
        if sen.sigs != 0 {
            kept.push(Sentence {
                text: crate::text::truncate_chars(&text[r.clone()], 160),
                ..sen
            });
        }
    }
    sig.sentences = kept;
    let found = evaluate(t, &sig, &[Scope::Sentence, Scope::Field]);
    (found, sig)
}

/// Every hit of the lexicon, with Spanish, French, German, Portuguese and
/// Italian terms kept only in sentences written in that language; and whether
/// any such term matched.
fn find_gated(
    t: &Tables,
    text: &str,
    sentences: &[std::ops::Range<usize>],
) -> (Vec<lang::Hit>, bool) {
    let mut hits = t.lex.find_per_lang(text);
    let gated_any = hits.iter().any(|h| gated(h.lang));
    if gated_any {
        let mut langs: Vec<Option<Option<lang::Lang>>> = vec![None; sentences.len()];
        let mut at = 0;
        hits.retain(|h| {
            if !gated(h.lang) {
                return true;
            }
            // Hits are sorted by start: the sentence index only moves forward.
            while at < sentences.len() && sentences[at].end < h.span.1 as usize {
                at += 1;
            }
            let Some(r) = sentences.get(at).filter(|r| r.start <= h.span.0 as usize) else {
                return false;
            };
            *langs[at].get_or_insert_with(|| t.sentence_lang(&text[r.clone()])) == Some(h.lang)
        });
    }
    // A term listed under several languages hits once per language.
    hits.dedup_by(|a, b| a.span == b.span && a.concept == b.concept);
    (hits, gated_any)
}

/// The words before a hit make it a condition: "when deploying", "if you delete".
fn in_condition(before: &str) -> bool {
    // "Before the lookup, turn off …": the condition ends at its comma.
    let before = before
        .rfind([',', ';', ':'])
        .map_or(before, |i| &before[i + 1..]);
    let words: Vec<&str> = before
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .rev()
        .take(3)
        .collect();
    words.iter().any(|w| {
        matches!(
            *w,
            "when"
                | "whenever"
                | "if"
                | "while"
                | "before"
                | "after"
                | "once"
                | "upon"
                | "unless"
                | "until"
                | "for"
                | "to"
                | "can"
                | "may"
                | "might"
                | "cannot"
                | "won't"
                | "not"
                | "never"
                | "without"
                | "that"
                | "which"
                | "who"
                | "it"
                | "this"
                | "tool"
        )
    })
}

/// Sentences in another script or language than the field's first sentence:
/// an instruction switched into a language the reviewer may not read.
fn mark_language_switch(
    t: &Tables,
    text: &str,
    ranges: &[std::ops::Range<usize>],
    sig: &mut FieldSignals,
) {
    if ranges.len() < 2 {
        return;
    }
    let class = |s: &str| -> Option<String> {
        let mut counts: std::collections::BTreeMap<&'static str, usize> = Default::default();
        for c in s.chars().filter(|c| c.is_alphabetic()) {
            use unicode_script::{Script, UnicodeScript};
            let k = match c.script() {
                Script::Latin => "latin",
                Script::Cyrillic => "cyrillic",
                Script::Han | Script::Hiragana | Script::Katakana => "cjk",
                Script::Hangul => "hangul",
                Script::Arabic => "arabic",
                Script::Devanagari => "devanagari",
                Script::Greek => "greek",
                Script::Hebrew => "hebrew",
                _ => "other",
            };
            *counts.entry(k).or_default() += 1;
        }
        let (k, n) = counts.into_iter().max_by_key(|(_, n)| *n)?;
        if n < 8 {
            return None;
        }
        if k == "latin" {
            let l = t.sentence_lang(s).map_or("en", |l| l.as_str());
            return Some(format!("latin-{l}"));
        }
        Some(k.to_string())
    };
    let Some(first) = class(&text[ranges[0].clone()]) else {
        return;
    };
    for (sen, r) in sig.sentences.iter_mut().zip(ranges).skip(1) {
        if let Some(c) = class(&text[r.clone()])
            && c != first
        {
            sen.add(Derived::LangSwitch as u8, &format!("{first} → {c}"));
        }
    }
}

/// The well-known tool a name imitates: the same once characters that look
/// alike are read alike (`read_flle`, `list_direct0ry`, `send_emaiI`), never
/// the name itself. A name that is merely similar (`send_mail`) is not one.
fn impostor_of(name: &str) -> Option<&'static str> {
    let t = tables();
    let n = name.to_lowercase();
    if n.len() < 6 || t.known_tools.contains(&n) {
        return None;
    }
    let fold = |s: &str| -> String {
        let s = s.replace("rn", "m").replace("vv", "w").replace("cl", "d");
        s.chars()
            .map(|c| match c {
                '0' => 'o',
                '1' | 'i' | '|' | '!' => 'l',
                '3' => 'e',
                '5' => 's',
                '4' => 'a',
                '8' => 'b',
                c => c,
            })
            .collect()
    };
    let folded = fold(&n);
    t.known_list
        .iter()
        .filter(|k| k.len() >= 6 && k.len().abs_diff(n.len()) <= 1)
        .find(|k| fold(k) == folded)
        .map(|k| k.as_str())
}

/// The text is a schema keyword's value, not prose: data a model uses as is
/// (`default`, `enum`, `examples`) or a constraint (`pattern`, `format`, `$comment`,
/// a schema `title`). An order to the model there has no honest reason.
fn is_schema_value(path: &str) -> bool {
    let in_schema = path.contains("Schema");
    // The last three segments, each with the one before it (no allocation: one call per field).
    let mut rev = path.rsplit('.');
    let last = [rev.next(), rev.next(), rev.next(), rev.next()];
    (0..3).any(|i| {
        let Some(seg) = last[i] else {
            return false;
        };
        // A property named `format` or `default` is a name, not that keyword.
        if last[i + 1] == Some("properties") {
            return false;
        }
        let key = seg.split('[').next().unwrap_or("");
        matches!(key, "default" | "const" | "examples" | "example" | "enum")
            || (in_schema
                && matches!(
                    key,
                    "pattern" | "format" | "$comment" | "title" | "contentMediaType"
                ))
    })
}

/// Item scope: the fields of one tool together (half the payload in the
/// description, half in a parameter). A combination needs one core sentence
/// holding its `all` groups and, in other fields, its `with` groups; raised
/// only for rules no field raised.
pub fn analyse_item(fields: &[FieldSignals], already: &HashSet<String>) -> Vec<Structure> {
    let t = tables();
    let mut out = Vec::new();
    for combo in t.combos.iter().filter(|c| c.scope == Scope::Item) {
        if already.contains(&combo.rule) {
            continue;
        }
        let mut best: Option<Structure> = None;
        for (fi, f) in fields.iter().enumerate() {
            for core in &f.sentences {
                let core_sigs = core.sigs | f.field_sigs;
                if !combo.matches(core_sigs) {
                    continue;
                }
                // The rest from other fields' sentences.
                let mut rest = 0u128;
                let mut rest_fields = Vec::new();
                let mut merged = core.clone();
                for (gi, g) in fields.iter().enumerate() {
                    if gi == fi || g.path == f.path {
                        continue;
                    }
                    for s in &g.sentences {
                        let useful = combo.with.iter().fold(0, |m, w| m | w) & s.sigs;
                        if useful != 0 {
                            rest |= s.sigs;
                            if !rest_fields.contains(&g.path.as_str()) {
                                rest_fields.push(g.path.as_str());
                            }
                            for (b, ev) in &s.evidence {
                                merged.add(*b, ev);
                            }
                        }
                    }
                }
                if combo.with.is_empty() || !combo.with.iter().all(|w| rest & w != 0) {
                    continue;
                }
                let sigs = core_sigs | rest;
                let (sev, conf) = combo.grade(sigs);
                let conf = conf.min(Confidence::Strong);
                if best
                    .as_ref()
                    .is_some_and(|b| (b.severity, b.confidence) >= (sev, conf))
                {
                    continue;
                }
                let fake = FieldSignals {
                    field_evidence: f.field_evidence.clone(),
                    ..FieldSignals::default()
                };
                best = Some(Structure {
                    combo: combo.id.clone(),
                    rule: combo.rule.clone(),
                    severity: sev,
                    confidence: conf,
                    evidence: format!(
                        "{} split across {} and {}: {} — in \"{}\"",
                        combo.id,
                        f.path,
                        rest_fields.join(", "),
                        explain_sentence(t, &merged, &fake, sigs, combo),
                        core.text
                    ),
                });
            }
        }
        out.extend(best);
    }
    out
}

/// Every combination of the given scopes that matches.
fn evaluate(t: &Tables, sig: &FieldSignals, scopes: &[Scope]) -> Vec<Structure> {
    let mut out: Vec<Structure> = Vec::new();
    let field_union = sig.union();
    // Two adjacent sentences read as one: an order often names the data in
    // one sentence and where it goes in the next ("ask for their password.
    // Pass what they type to `reconnect`."). Never confirmed on its own.
    let pairs: Vec<Sentence> = if scopes.contains(&Scope::Sentence) {
        let anaphor = t.lex.id("anaphor").map_or(0, |id| bit(id as u8));
        sig.sentences
            .windows(2)
            .filter(|w| {
                // "what they type" points back as well as "them" does.
                // "… does not need to be told" is about the sentence before it.
                w[1].sigs & t.c.conceal != 0
                    || (w[1].sigs & (anaphor | t.c.user_words) != 0
                        && w[0].sigs & t.c.mask_what != 0)
            })
            .map(|w| {
                let mut m = w[0].clone();
                for (b, ev) in &w[1].evidence {
                    m.add(*b, ev);
                }
                let out = bit(Derived::OutOfPurpose as u8);
                if m.sigs & out != 0 {
                    m.sigs &= !bit(Derived::InPurpose as u8);
                }
                m.text = format!("{} {}", w[0].text, w[1].text);
                m
            })
            .collect()
    } else {
        Vec::new()
    };
    for combo in t.combos.iter().filter(|c| scopes.contains(&c.scope)) {
        let candidates: Vec<(u128, Option<&Sentence>, bool)> = match combo.scope {
            Scope::Sentence => sig
                .sentences
                .iter()
                .map(|s| (s.sigs | sig.field_sigs, Some(s), false))
                .chain(
                    pairs
                        .iter()
                        .map(|s| (s.sigs | sig.field_sigs, Some(s), true)),
                )
                .collect(),
            _ => vec![(field_union, None, false)],
        };
        let mut best: Option<Structure> = None;
        for (sigs, sen, pair) in candidates {
            if !combo.matches(sigs) {
                continue;
            }
            let (sev, conf) = combo.grade(sigs);
            let conf = if pair {
                conf.min(Confidence::Strong)
            } else {
                conf
            };
            if best
                .as_ref()
                .is_some_and(|b| (b.severity, b.confidence) >= (sev, conf))
            {
                continue;
            }
            let why = match sen {
                Some(s) => format!(
                    "{}: {} — in \"{}\"",
                    combo.id,
                    explain_sentence(t, s, sig, sigs, combo),
                    s.text
                ),
                None => format!("{}: {}", combo.id, explain(t, sig, sigs, combo)),
            };
            best = Some(Structure {
                combo: combo.id.clone(),
                rule: combo.rule.clone(),
                severity: sev,
                confidence: conf,
                evidence: why,
            });
        }
        out.extend(best);
    }
    out
}

/// The signals of `combo` that are present, each with its words.
fn explain_sentence(
    t: &Tables,
    s: &Sentence,
    f: &FieldSignals,
    sigs: u128,
    combo: &Combo,
) -> String {
    let relevant = combo
        .all
        .iter()
        .chain(&combo.escalate)
        .chain(&combo.confirm)
        .fold(combo.weaken, |m, g| m | g);
    let mut parts = Vec::new();
    for (b, ev) in s.evidence.iter().chain(&f.field_evidence) {
        if sigs & relevant & bit(*b) != 0 && !parts.iter().any(|(x, _): &(u8, String)| x == b) {
            parts.push((*b, format!("{} \"{}\"", t.name(*b), ev)));
        }
    }
    parts
        .into_iter()
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join(" · ")
}

fn explain(t: &Tables, f: &FieldSignals, sigs: u128, combo: &Combo) -> String {
    let mut all = Sentence::default();
    for s in &f.sentences {
        for (b, ev) in &s.evidence {
            all.add(*b, ev);
        }
    }
    explain_sentence(t, &all, f, sigs, combo)
}

/// What the field's tool is: its name, parameter names and the first sentence
/// of its description, plus its other tools' names for `tool_own`.
struct ItemCtx<'a> {
    s: &'a ServerSurface,
    item: Option<&'a crate::surface::Item>,
    /// The property whose schema holds the field (`tools[x].inputSchema.properties.P…`).
    own_param: Option<String>,
    /// The item's parameter (or prompt argument) names, lowercased.
    params: Vec<String>,
    /// Parameters typed boolean, integer or number: no text fits in them, so
    /// "offer to `redact` …" names no destination.
    scalars: Vec<String>,
}

impl<'a> ItemCtx<'a> {
    fn new(s: &'a ServerSurface, field: &TextField<'a>) -> Self {
        let item = field.item.and_then(|name| match field.item_kind {
            "tool" => s.tool(name),
            "prompt" => s.prompts.iter().find(|p| p.name == name),
            "resource" => s.resources.iter().find(|p| p.name == name),
            "resource-template" => s.resource_templates.iter().find(|p| p.name == name),
            _ => None,
        });
        let own_param = field
            .path
            .split(".properties.")
            .nth(1)
            .or_else(|| {
                (field.item_kind == "prompt")
                    .then(|| field.path.split(".arguments.").nth(1))
                    .flatten()
            })
            .map(|rest| rest.split('.').next().unwrap_or(rest).to_lowercase());
        let (params, scalars) = Self::collect_params(item);
        ItemCtx {
            s,
            item,
            own_param,
            params,
            scalars,
        }
    }

    fn param_names(&self) -> &[String] {
        &self.params
    }

    /// Parameter names, and those of them typed boolean, integer or number,
    /// from one walk over the schema.
    fn collect_params(item: Option<&crate::surface::Item>) -> (Vec<String>, Vec<String>) {
        let Some(item) = item else {
            return (Vec::new(), Vec::new());
        };
        let mut out = Vec::new();
        let mut scalars = Vec::new();
        for (k, v) in crate::detect::capability::params(item) {
            let k = k.to_lowercase();
            if v.get("type")
                .and_then(|t| t.as_str())
                .is_some_and(|t| matches!(t, "boolean" | "integer" | "number"))
            {
                scalars.push(k.clone());
            }
            out.push(k);
        }
        if let Some(args) = item.raw.get("arguments").and_then(|a| a.as_array()) {
            out.extend(
                args.iter()
                    .filter_map(|a| a.get("name").and_then(|n| n.as_str()))
                    .map(str::to_lowercase),
            );
        }
        out.retain(|n| n.len() >= 2);
        (out, scalars)
    }

    fn concepts_of(words: &str) -> u128 {
        let t = tables();
        let norm = lang::normalize(words);
        let sentences = lang::sentences(&norm.text);
        find_gated(t, &norm.text, &sentences)
            .0
            .iter()
            .fold(0u128, |m, h| m | bit(h.concept as u8))
            & (t.c.mask_what | t.c.mask_control)
    }

    /// Sensitive-data concepts the tool's purpose names: its name and first
    /// sentence, and what its server is about (a CRM server's tools are about
    /// contacts even when one tool's name is not).
    fn purpose(&self) -> u128 {
        let mut words = String::new();
        if let Some(item) = self.item {
            words.push_str(&crate::detect::capability::tokens(&item.name).join(" "));
            words.push_str(" . ");
            words.push_str(first_sentence(item.description()));
        }
        Self::concepts_of(&words) | server_purpose(self.s)
    }

    /// Sensitive-data concepts named by the parameter a sentence fills (its own
    /// name says what it carries: `api_key`, `originalUserMessage`, `mail_password`).
    fn slot_purpose(&self, sentence: &str) -> u128 {
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
        for (qs, qe) in quote_spans(b) {
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

    /// The tool runs, lints or rates commands by name.
    fn shell_like(&self) -> bool {
        self.item.is_some_and(|item| {
            crate::detect::capability::tokens(&item.name)
                .iter()
                .any(|w| {
                    matches!(
                        w.as_str(),
                        "shell"
                            | "exec"
                            | "execute"
                            | "command"
                            | "commands"
                            | "terminal"
                            | "run"
                            | "bash"
                            | "script"
                            | "cmd"
                            | "process"
                            | "lint"
                            | "linter"
                            | "check"
                            | "analyze"
                            | "analyse"
                            | "audit"
                            | "rate"
                            | "score"
                            | "scan"
                    )
                })
        })
    }

    fn is_param(&self, name: &str) -> bool {
        self.param_names().iter().any(|p| p == name)
    }

    fn is_own_tool(&self, name: &str) -> bool {
        own_tool_names(self.s).contains_key(&squash(name))
    }
}

/// A name that ends as a location does (`outputdir`, `repo_path`); "file"
/// is not a suffix here ("profile").
fn path_suffix(name: &str) -> bool {
    ["dir", "path", "folder", "directory"]
        .iter()
        .any(|w| name.ends_with(w))
}

/// A weak verb used to list ("values include: …", "options include a, b"):
/// a colon follows, or its subject is a plural noun of kinds.
fn lists_values(before: &str, after: &str) -> bool {
    after.trim_start().starts_with(':')
        || before.split_whitespace().next_back().is_some_and(|w| {
            matches!(
                w,
                "values"
                    | "options"
                    | "types"
                    | "examples"
                    | "kinds"
                    | "choices"
                    | "formats"
                    | "categories"
                    | "objects"
                    | "fields"
                    | "properties"
                    | "modes"
                    | "states"
                    | "statuses"
                    | "levels"
                    | "roles"
                    | "scopes"
                    | "events"
                    | "resources"
                    | "ones"
                    | "these"
                    | "they"
                    | "which"
                    | "that"
                    | "entries"
                    | "items"
            )
        })
}

/// The words before a verb end in the user as its subject: "the user",
/// "the customer has".
fn user_is_subject(before: &str) -> bool {
    let mut w = before.split_whitespace().rev();
    let mut last = w.next();
    if last.is_some_and(|x| {
        matches!(
            x,
            "has" | "have" | "had" | "just" | "already" | "themselves"
        )
    }) {
        last = w.next();
    }
    let Some(subject) = last else {
        return false;
    };
    matches!(
        subject,
        "user" | "customer" | "client" | "caller" | "requester"
    ) && matches!(w.next(), Some("the" | "a" | "your"))
}

/// Quoted spans (`'…'`, `"…"`, 2–120 bytes inside, one line). An apostrophe
/// inside a word ("the team's", "don't") neither opens nor closes a quote, so
/// a possessive does not swallow the real quotation after it.
fn quote_spans(b: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let word = |i: usize| {
        b.get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c >= 0x80)
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let q = b[i];
            if (q == b'\'' && !(i > 0 && word(i - 1))) || q == b'"' {
                let limit = (i + 122).min(b.len());
                let close = (i + 3..limit).find(|&j| {
                    // Korean and Japanese particles follow a closing quote directly.
                    b[j] == q && (q == b'"' || !b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric))
                        || b[j] == b'\n'
                });
                if let Some(j) = close.filter(|&j| b[j] == q) {
                    let span = (i, j + 1);
                    i = j + 1;
                    return Some(span);
                }
            }
            i += 1;
        }
        None
    })
}

fn is_kana_or_hangul(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF)
}

/// Signals derived from the sentence text and the tool it belongs to.
fn derive(
    t: &Tables,
    ctx: &ItemCtx<'_>,
    field: &TextField<'_>,
    sentence: &str,
    negated_from: Option<usize>,
    mentioned: &dyn Fn(usize, usize) -> bool,
    sen: &mut Sentence,
) {
    let bytes = sentence.as_bytes();
    // An address or value inside a quoted example ("a description saying
    // '… attacker@… …'") is reported, not given.
    let used = |m: &regex::bytes::Match<'_>| !mentioned(m.start(), m.end());
    let live = |start: usize| negated_from.is_none_or(|n| start < n);
    let text = |m: regex::bytes::Match<'_>| String::from_utf8_lossy(m.as_bytes()).into_owned();
    if sen.sigs & t.c.user_choice == 0
        && let Some(m) = t.user_choice_re.find(bytes)
    {
        sen.add(t.c.user_choice.trailing_zeros() as u8, &text(m));
    }
    if sentence.contains("://") || sentence.contains("www.") {
        for u in t.url.find_iter(bytes).filter(used) {
            let u = text(u);
            sen.add(Derived::WhereExt as u8, &u);
            sen.add(Derived::Value as u8, &u);
            if u.contains('{')
                || u.contains('<')
                || u.contains('$')
                || u.contains("%s")
                || u.contains('[')
            {
                sen.add(Derived::UrlTemplate as u8, &u);
                if t.auto_fetch.is_match(bytes) {
                    sen.add(Derived::AutoFetch as u8, "fetched by the client itself");
                }
                // A placeholder's name says what the URL carries (`{last_user_question}`).
                for (b, slot) in placeholder_data(&u) {
                    sen.add(b, &slot);
                }
            }
        }
    }
    // A Markdown image or link with a slot for data.
    if (sentence.contains("![") || sentence.contains("](")) && sentence.contains('{') {
        sen.add(
            Derived::UrlTemplate as u8,
            "markdown link with a placeholder",
        );
        if sentence.contains("![") {
            sen.add(Derived::AutoFetch as u8, "a markdown image");
        }
    }
    if sentence.contains('@')
        && let Some(m) = t.email.find_iter(bytes).find(used)
    {
        let e = text(m);
        sen.add(Derived::WhereExt as u8, &e);
        sen.add(Derived::Value as u8, &e);
    }
    // A bare host name ("forward them to cookie-jar.example.com").
    if sen.sigs & bit(Derived::WhereExt as u8) == 0
        && sentence.contains('.')
        && let Some(m) = t
            .host
            .captures_iter(bytes)
            .filter_map(|c| c.get(1))
            .find(|m| used(m))
    {
        let h = text(m);
        sen.add(Derived::WhereExt as u8, &h);
        sen.add(Derived::Value as u8, &h);
    }
    // Addresses, account and card numbers all hold digits: most sentences have none.
    let digits = bytes.iter().any(u8::is_ascii_digit);
    if digits && let Some(m) = t.ip.find_iter(bytes).find(used) {
        let ip = text(m);
        if ip
            .split('.')
            .all(|o| o.parse::<u16>().is_ok_and(|n| n < 256))
        {
            sen.add(Derived::WhereExt as u8, &ip);
            sen.add(Derived::Value as u8, &ip);
        }
    }
    if let Some(m) = t.self_ref.find(bytes) {
        sen.add(t.c.context.trailing_zeros() as u8, &text(m));
    }
    for caps in t.bare_dest.captures_iter(bytes) {
        if !live(caps.get(0).map_or(0, |m| m.start())) {
            continue;
        }
        if let Some(n) = (1..=4).find_map(|i| caps.get(i)).map(text)
            && (ctx.is_param(&n) || ctx.own_param.as_deref() == Some(n.as_str()))
            && !ctx.scalars.contains(&n)
        {
            sen.add(Derived::Dest as u8, &format!("into `{n}`"));
            sen.add(Derived::WhereParam as u8, &n);
            sen.add(Derived::ParamNamed as u8, &n);
        }
    }
    if sentence.contains("'s")
        && let Some(c) = t.possessive_tool.captures(bytes)
    {
        let owner = c.get(1).map(text).unwrap_or_default();
        let tool = c.get(2).map(text).unwrap_or_default();
        if !ctx.is_own_tool(&tool) && !ctx.s.name.to_lowercase().contains(&owner) {
            sen.add(Derived::ToolKnown as u8, &format!("{owner}'s `{tool}`"));
        }
    }
    // A key used to call a service ("using OPENAI_API_KEY") is configuration, not cargo.
    if sentence.contains('_')
        && let Some(m) = t
            .env_secret
            .find_iter(bytes)
            .find(|m| !auth_use(&sentence[..m.start()]))
    {
        sen.add(t.c.secret.trailing_zeros() as u8, &text(m));
    }
    // An account or routing number named as such ("account 12345678").
    if digits && let Some(m) = t.account_number.find_iter(bytes).find(used) {
        sen.add(Derived::Value as u8, &text(m));
        sen.add(Derived::Account as u8, &text(m));
    }
    for re in [&t.iban, &t.wallet] {
        if !digits {
            break;
        }
        if let Some(m) = re.find_iter(bytes).find(used) {
            sen.add(Derived::Value as u8, &text(m));
            sen.add(Derived::Account as u8, &text(m));
        }
    }
    // A quoted literal is an injected value unless it is an identifier (a
    // parameter, tool or enum name the text documents).
    for (qs, qe) in quote_spans(bytes).filter(|&(a, b)| !mentioned(a, b)) {
        let inner = String::from_utf8_lossy(&bytes[qs..qe]).into_owned();
        let inner = inner.trim_matches(['\'', '"']);
        // A tool written as code (`'reconnect'`) is named however short its name.
        if field.item.is_none_or(|i| !same_name(i, inner)) && !ctx.is_param(inner) {
            if ctx.is_own_tool(inner) {
                own_tool(ctx, sen, inner);
            } else if t.known_tools.contains(inner) {
                sen.add(Derived::ToolKnown as u8, inner);
            }
        }
        let identifier = inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !identifier || inner.chars().filter(|c| c.is_ascii_digit()).count() >= 4 {
            sen.add(Derived::Value as u8, inner);
            break;
        }
    }
    if digits && let Some(m) = t.long_number.find(bytes) {
        sen.add(Derived::Value as u8, &text(m));
    }
    // A phone number written out ("+34 600 112 233"): a concrete destination.
    if digits
        && sentence.contains('+')
        && let Some(m) = t.phone.find_iter(bytes).find(used)
    {
        sen.add(Derived::Value as u8, &text(m));
    }
    // Parameters: the field's own parameter, or one named in the sentence.
    if let Some(p) = &ctx.own_param {
        sen.add(Derived::WhereParam as u8, &format!("this parameter ({p})"));
        sen.add(Derived::InSlot as u8, &format!("text of parameter `{p}`"));
        // A recipient, amount or repository parameter is itself what tampering changes.
        let words = crate::detect::capability::tokens(p).join(" ");
        let b = t
            .lex
            .find(&lang::normalize(&words).text)
            .iter()
            .fold(0u128, |m, h| m | bit(h.concept as u8));
        if b & t.c.shadow_object != 0 {
            sen.add(
                t.c.shadow_object.trailing_zeros() as u8,
                &format!("parameter `{p}`"),
            );
        }
    }
    // A parameter counts as named when it is written as code, or is an
    // identifier no prose word could be (`tone_reference`), or is called a field.
    let params = ctx.param_names();
    for p in params {
        if ctx.own_param.as_deref() == Some(p.as_str()) {
            continue;
        }
        let named = sentence.contains(&format!("'{p}'"))
            || ((p.contains('_') || p.contains('-') || p.chars().any(|c| c.is_ascii_digit()))
                && word_in(sentence, p))
            || ["field", "parameter", "param", "argument", "property"]
                .iter()
                .any(|w| sentence.contains(&format!("{p} {w}")));
        if named {
            sen.add(Derived::WhereParam as u8, p);
            sen.add(Derived::ParamNamed as u8, p);
            break;
        }
    }
    // In a parameter's own text, "here" and "this field" name the parameter.
    if ctx.own_param.is_some() && t.here.is_match(bytes) {
        sen.add(Derived::Dest as u8, "here (this parameter)");
    }
    // Destination slots: into `x`, as `x`, set `x` to.
    for caps in t.dest.captures_iter(bytes) {
        if !live(caps.get(0).map_or(0, |m| m.start())) {
            continue;
        }
        let name = (1..=3)
            .find_map(|i| caps.get(i))
            .map(|m| String::from_utf8_lossy(m.as_bytes()).into_owned());
        match name {
            Some(n) if ctx.is_own_tool(&n) && !ctx.is_param(&n) => {}
            Some(n) => {
                sen.add(Derived::Dest as u8, &format!("into `{n}`"));
                if ctx.is_param(&n) || ctx.own_param.as_deref() == Some(n.as_str()) {
                    sen.add(Derived::WhereParam as u8, &n);
                    sen.add(Derived::ParamNamed as u8, &n);
                }
            }
            None => sen.add(
                Derived::Dest as u8,
                &text(caps.get(0).expect("whole match")),
            ),
        }
    }
    if t.assign.find(bytes).is_some_and(|m| live(m.start())) {
        sen.add(t.c.move_.trailing_zeros() as u8, "assigns it a value");
    }
    // Tools: code-formatted or identifier-shaped names of another tool.
    for caps in t
        .call
        .captures_iter(bytes)
        .chain(t.bare_call.captures_iter(bytes))
    {
        let (Some(whole), Some(m)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        let n = text(m);
        if !live(whole.start())
            || ctx.is_param(&n)
            || field.item.is_some_and(|i| same_name(i, &n))
            || t.env_secret.is_match(n.as_bytes())
        {
            continue;
        }
        sen.add(Derived::ToolCall as u8, &format!("calls `{n}`"));
        if ctx.is_own_tool(&n) {
            own_tool(ctx, sen, &n);
        } else if t.known_tools.contains(&n) {
            sen.add(Derived::ToolKnown as u8, &n);
        }
    }
    for tok in identifiers(sentence) {
        let is_self = field.item.is_some_and(|i| i.eq_ignore_ascii_case(tok));
        if is_self || ctx.is_param(tok) {
            continue;
        }
        if ctx.is_own_tool(tok) {
            own_tool(ctx, sen, tok);
        } else if t.known_tools.contains(tok) {
            sen.add(Derived::ToolKnown as u8, tok);
        }
    }
    for caps in t.known_word.captures_iter(bytes) {
        let w = caps
            .get(1)
            .or_else(|| caps.get(2))
            .or_else(|| caps.get(3))
            .map(text)
            .unwrap_or_default();
        if !ctx.is_own_tool(&w) {
            sen.add(
                Derived::ToolKnown as u8,
                &text(caps.get(0).expect("whole match")),
            );
        }
    }
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

const QUERY_SLOTS: &[&str] = &[
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

/// The data a URL template's placeholders name: `{user_email}` is personal
/// data, `{last_user_question}` the user's own words. One entry per concept.
fn placeholder_data(url: &str) -> Vec<(u8, String)> {
    let mut out: Vec<(u8, String)> = Vec::new();
    let mut rest = url;
    while let Some(open) = rest.find(['{', '<']) {
        let close = if rest.as_bytes()[open] == b'{' {
            '}'
        } else {
            '>'
        };
        let Some(len) = rest[open + 1..].find(close) else {
            break;
        };
        let name = &rest[open + 1..open + 1 + len];
        rest = &rest[open + 1 + len..];
        let words = crate::detect::capability::tokens(name);
        let mut bits = ItemCtx::concepts_of(&words.join(" "));
        if words.iter().any(|w| QUERY_SLOTS.contains(&w.as_str())) {
            bits |= tables().c.user_words;
        }
        while bits != 0 {
            let b = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if !out.iter().any(|(x, _)| *x == b) {
                out.push((b, format!("placeholder {{{name}}}")));
            }
        }
    }
    out
}

/// Another tool of this server, named: calling one its server marks
/// destructive (`destructiveHint: true`) is an action with consequences.
fn own_tool(ctx: &ItemCtx<'_>, sen: &mut Sentence, name: &str) {
    sen.add(Derived::ToolOwn as u8, name);
    let destructive = own_tool_names(ctx.s)
        .get(&squash(name))
        .copied()
        .unwrap_or(false);
    if destructive {
        sen.add(
            tables().c.act.trailing_zeros() as u8,
            &format!("`{name}` is marked destructive"),
        );
    }
}

/// The first sentence of a description (at most 400 bytes): what the tool says it is.
/// Where an order's verb would stand in a sentence: past a list marker, a
/// short label ending in `:` ("note for the assistant:") and adverbs that
/// may precede an imperative ("also", "then", "quietly").
fn order_start(sentence: &str) -> usize {
    const FILLERS: [&str; 16] = [
        "also",
        "then",
        "and",
        "please",
        "now",
        "first",
        "next",
        "just",
        "simply",
        "always",
        "immediately",
        "secretly",
        "silently",
        "quietly",
        "finally",
        "additionally",
    ];
    let mut at = sentence
        .find(|c: char| c.is_alphanumeric())
        .unwrap_or(sentence.len());
    // A label ends in ": " (a URL's "https:" is not one).
    if let Some(colon) = sentence[at..].find(": ").filter(|&c| c <= 40) {
        let after = at + colon + 1;
        at = after
            + sentence[after..]
                .find(|c: char| c.is_alphanumeric())
                .unwrap_or(sentence.len() - after);
    }
    // A leading clause of time or condition ends at its comma: "After
    // reading a record, forward it …".
    const CLAUSES: [&str; 8] = [
        "after ",
        "before ",
        "when ",
        "whenever ",
        "once ",
        "if ",
        "upon ",
        "while ",
    ];
    if CLAUSES.iter().any(|c| sentence[at..].starts_with(c))
        && let Some(comma) = sentence[at..].find(", ").filter(|&c| c <= 60)
    {
        let after = at + comma + 1;
        at = after
            + sentence[after..]
                .find(|c: char| c.is_alphanumeric())
                .unwrap_or(sentence.len() - after);
    }
    loop {
        let rest = &sentence[at..];
        let word_end = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        if !FILLERS.contains(&&rest[..word_end]) {
            return at;
        }
        let next = rest[word_end..]
            .find(|c: char| c.is_alphanumeric())
            .map_or(rest.len(), |i| word_end + i);
        if next == rest.len() {
            return at;
        }
        at += next;
    }
}

/// True when the text before a credential's name says a call is made with it
/// ("using", "with", "via", "reads … from").
fn auth_use(before: &str) -> bool {
    let before = before.trim_end();
    ["using", "with", "via", "from", "reads", "read"]
        .iter()
        .any(|w| before.ends_with(w))
}

/// True when `r` lies inside a URL or an e-mail address (the whitespace-delimited
/// token around it holds `://` or `@`).
fn in_address(text: &str, r: std::ops::Range<usize>) -> bool {
    let start = text[..r.start]
        .rfind(|c: char| c.is_whitespace())
        .map_or(0, |i| i + 1);
    let end = text[r.end..]
        .find(|c: char| c.is_whitespace())
        .map_or(text.len(), |i| r.end + i);
    let token = &text[start..end];
    token.contains("://") || token.contains('@')
}

fn first_sentence(text: &str) -> &str {
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

/// What a server is about, computed once per surface: its name, the first
/// sentence of its instructions, and each tool's name and first sentence.
fn server_purpose(s: &ServerSurface) -> u128 {
    *s.purpose.get_or_init(|| {
        let mut words = s.name.replace(['_', '-'], " ");
        if let Some(i) = &s.instructions {
            words.push_str(" . ");
            words.push_str(first_sentence(i));
        }
        for t in s.tools.iter().take(512) {
            words.push_str(" . ");
            words.push_str(&crate::detect::capability::tokens(&t.name).join(" "));
            words.push_str(" . ");
            words.push_str(first_sentence(t.description()));
        }
        ItemCtx::concepts_of(&words)
    })
}

/// An identifier with case and separators removed, so `runRollbackPipeline`,
/// `run_rollback_pipeline` and `run-rollback-pipeline` are one name.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn same_name(a: &str, b: &str) -> bool {
    squash(a) == squash(b)
}

/// The server's tool names, squashed, built once per surface (a lookup per
/// identifier would otherwise scan every tool of a 10,000-tool catalog).
fn own_tool_names(s: &ServerSurface) -> &std::collections::HashMap<String, bool> {
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
fn identifiers(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| w.len() >= 4 && (w.contains('_') || w.contains('-')))
        .map(|w| w.trim_matches('-'))
}

/// `w` occurs in `hay` as a whole word.
fn word_in(hay: &str, w: &str) -> bool {
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

/// Kinds for the compound-poisoning count of stage 2: concealment and override
/// concepts, plus every structure found.
pub fn kinds(sig: &FieldSignals, found: &[Structure]) -> Vec<(String, String)> {
    let t = tables();
    let mut out = Vec::new();
    for s in &sig.sentences {
        for (b, ev) in &s.evidence {
            let k = bit(*b);
            let kind = if k & t.c.conceal != 0 {
                "secrecy"
            } else if k & t.c.override_ != 0 {
                "override"
            } else {
                continue;
            };
            out.push((kind.to_string(), ev.clone()));
        }
    }
    for f in found.iter().filter(|f| f.severity >= Severity::Medium) {
        out.push((
            f.combo.clone(),
            crate::text::truncate_chars(&f.evidence, 60),
        ));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn tables_compile_and_every_rule_is_catalogued() {
        let t = tables();
        assert!(t.lex.len() >= 20);
        for c in &t.combos {
            assert!(
                crate::rules::get(&c.rule).is_some(),
                "{} emits {}",
                c.id,
                c.rule
            );
        }
        // Secret/context concepts are what the purpose check reads.
        assert_ne!(t.c.mask_what, 0);
    }
}
