//! The compiled tables of the clause reader: the lexicon, the combinations
//! of `combos.toml` as bit masks, the concept bits the code reads by name,
//! its patterns, and the lexicon lookups (language-gated hits, grammar frames).

use super::fnv::FnvBuild;
use crate::finding::{Confidence, Severity};
use crate::lang::{self, Lexicon};
use crate::lazy::Lazy;
use regex::bytes::Regex;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
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
    /// The text is the `default` or `const` of a parameter that decides where
    /// things go (recipients, a remote, an upload endpoint): what the tool
    /// sends every call unless the model changes it.
    Preset,
    /// One tool's results handed to another tool of this server: the data the
    /// producing tool reads is taken, and handing it on is no tool's purpose.
    Chained,
    /// A parameter named in the sentence decides where things go (`cc_emails`,
    /// `watchers`, `webhook_url`): a value put in it is a recipient.
    RecipientSlot,
    /// An example exchange's call adds an address or recipient the user
    /// never gave, and the reply after it leaves out (`transcript.rs`).
    ExampleAdded,
    /// An example exchange's assistant turn that follows the user's yes.
    Consented,
    /// A street address goods are sent to ("unit 14, 88 wharf road").
    Postal,
}

const DERIVED: [(&str, Derived); 31] = [
    ("postal", Derived::Postal),
    ("consented", Derived::Consented),
    ("example_added", Derived::ExampleAdded),
    ("chained", Derived::Chained),
    ("recipient_slot", Derived::RecipientSlot),
    ("preset", Derived::Preset),
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

pub(super) fn bit(i: u8) -> u128 {
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
    pub(super) all: Vec<u128>,
    /// Item scope: groups other fields of the tool must supply.
    pub(super) with: Vec<u128>,
    severity: Severity,
    confidence: Confidence,
    pub(super) escalate: Vec<u128>,
    pub(super) confirm: Vec<u128>,
    pub(super) weaken: u128,
    weak: (Severity, Confidence),
}

impl Combo {
    pub(super) fn matches(&self, sigs: u128) -> bool {
        self.all.iter().all(|g| sigs & g != 0)
    }
    /// Severity and confidence of this combination on `sigs` (which match).
    pub(super) fn grade(&self, sigs: u128) -> (Severity, Confidence) {
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
    pub(super) known_tools: HashSet<String>,
    pub(super) known_list: Vec<String>,
    /// Public hosts a default may honestly name (tools.toml `public_hosts`).
    pub(super) public_hosts: Vec<String>,
    /// Placeholders of a documented route (tools.toml `route_placeholders`).
    pub(super) route_placeholders: Vec<String>,
    /// Words of a parameter name for someone's details (tools.toml `person_slots`).
    pub(super) person_slots: HashSet<String>,
    /// The verbs a tool name starts with (tools.toml `tool_verbs`).
    pub(super) tool_verbs: HashSet<String>,
    /// A settings line's values that negate its key, and how a negated key
    /// reads (tools.toml `config_off`, `config_negated`).
    pub(super) config_off: HashSet<String>,
    pub(super) config_negated: Vec<String>,
    /// What the negated readings' own words mean ("turn off", "never"):
    /// never what a negation adds.
    pub(super) config_negated_own: u128,
    /// What a concealment may honestly keep from view (tools.toml `guarded_data`, `guarded_people`).
    pub(super) guarded_data: HashSet<String>,
    pub(super) guarded_people: HashSet<String>,
    /// The labels of an example exchange's lines (tools.toml `speakers_user`, `speakers_assistant`).
    pub(super) speakers_user: HashSet<String>,
    pub(super) speakers_assistant: HashSet<String>,
    /// What a user's line says to agree (tools.toml `consent_words`).
    pub(super) consent_words: HashSet<String>,
    /// Question words (tools.toml `interrogatives`).
    pub(super) interrogatives: HashSet<String>,
    /// Servers named as `server.tool` (tools.toml `servers`).
    pub(super) servers: HashSet<String>,
    /// A noun made of a verb, and the verb it reads as (tools.toml `nominal_verbs`).
    pub(super) nominal_verbs: HashMap<String, String>,
    /// An argument of a sample call: `key=value`, `key: "value"`.
    pub(super) call_argument: Lazy<Regex>,
    /// A quoted constant put into a parameter: `key = "v"`, "setting key to 'v'".
    pub(super) slot_constant: Lazy<Regex>,
    /// A sample call written in the text: `grant_access(role="owner", member="…")`.
    pub(super) sample_call: Lazy<Regex>,
    /// Words of a value that names the user's own or the default (tools.toml `own_value_words`).
    pub(super) own_value_words: Vec<String>,
    /// A parameter name that decides where things go (`watchers`, `remote`,
    /// `index_url`), snake_case; `preset_generic` a name that only does so in
    /// a tool that sends (`url` of `add_remote`), `preset_identity` one that
    /// names who acts (`author_email`), not who receives.
    pub(super) preset_dest: Lazy<Regex>,
    pub(super) preset_generic: Lazy<Regex>,
    pub(super) preset_identity: Lazy<Regex>,
    /// One-word tool names, counted as code (`'bash'`) or as "the bash tool".
    pub(super) known_word: Lazy<Regex>,
    /// Function word → the languages it belongs to (bit i = `stop_langs[i]`).
    pub(super) stop: std::collections::HashMap<String, u16, FnvBuild>,
    pub(super) stop_langs: Vec<lang::Lang>,
    pub(super) c: Concepts,
    pub(super) url: Lazy<Regex>,
    pub(super) email: Lazy<Regex>,
    pub(super) ip: Lazy<Regex>,
    /// Words that make a URL one the client fetches unasked.
    pub(super) auto_fetch: Lazy<Regex>,
    /// A bank account or routing number named as such.
    pub(super) account_number: Lazy<Regex>,
    /// A street address: a unit, then a number and a street; or a number,
    /// a street, a town and a postcode.
    pub(super) postal: Lazy<Regex>,
    /// A host name with a common top-level domain, written without a scheme.
    pub(super) host: Lazy<Regex>,
    /// A container image named by its registry (`registry.x.test/agent:latest`).
    pub(super) image_ref: Lazy<Regex>,
    pub(super) iban: Lazy<Regex>,
    pub(super) wallet: Lazy<Regex>,
    /// A UPI payment address (`name@okbank`, `shop@ybl`): a payee, no e-mail.
    pub(super) vpa: Lazy<Regex>,
    /// Words that introduce a quotation ("a page saying '…'").
    pub(super) quote_intro: Lazy<Regex>,
    /// Someone's own choice, named (\"the teacher asked for\", \"they typed\").
    pub(super) user_choice_re: Lazy<Regex>,
    pub(super) dest: Lazy<Regex>,
    pub(super) call: Lazy<Regex>,
    pub(super) assign: Lazy<Regex>,
    pub(super) here: Lazy<Regex>,
    pub(super) env_secret: Lazy<Regex>,
    pub(super) self_ref: Lazy<Regex>,
    pub(super) bare_call: Lazy<Regex>,
    /// "call getv1sessionbootstrap with …": one word after a calling verb,
    /// a call only when it names one of the server's tools.
    pub(super) bare_word_call: Lazy<Regex>,
    pub(super) bare_dest: Lazy<Regex>,
    pub(super) possessive_tool: Lazy<Regex>,
    pub(super) long_number: Lazy<Regex>,
    pub(super) phone: Lazy<Regex>,
    /// A chat channel named as a place (`#ext-mirror-447`).
    pub(super) channel: Lazy<Regex>,
    /// A host name whose labels hold placeholders (`<chunk>.x.example.org`).
    pub(super) host_template: Lazy<Regex>,
    /// A query string with a slot for data (`?q=<the user's question>&acct=<…>`):
    /// a URL template whatever base it is appended to.
    pub(super) query_template: Lazy<Regex>,

    /// Grammar frames (frames.toml): the concept each adds, and its pattern.
    frames: Vec<(lang::ConceptId, Lazy<crate::candidate::Candidate>)>,
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
pub(super) struct Concepts {
    pub(super) mask_what: u128,
    /// What an action is aimed at beyond data (a foothold, a protection,
    /// everything at once): in or out of purpose when no data is named.
    pub(super) mask_control: u128,
    /// A foothold that outlives the session (a crontab line, a start-up file).
    pub(super) persist: u128,
    pub(super) sec_control: u128,
    pub(super) trigger_any: u128,
    /// What a list's heading sets for every line under it: the session,
    /// other servers' tools, a trigger or a standing step.
    pub(super) list_scope: u128,
    pub(super) defensive: u128,
    pub(super) example: u128,
    pub(super) conceal: u128,
    /// A need denied, and the telling or asking it leaves out (`untold.rs`).
    pub(super) need_not: u128,
    pub(super) notify: u128,
    pub(super) permission: u128,
    pub(super) untold_words: u128,
    pub(super) override_: u128,
    pub(super) no_consent: u128,
    pub(super) other_tool: u128,
    pub(super) move_: u128,
    pub(super) shadow_change: u128,
    pub(super) act: u128,
    pub(super) shadow_object: u128,
    pub(super) tool_output: u128,
    pub(super) context: u128,
    /// The model's own instructions: context that is no tool's purpose.
    pub(super) model_rules: u128,
    /// An order to use an example as is ("exactly as in the example").
    pub(super) adopt_example: u128,
    pub(super) secret: u128,
    pub(super) user_words: u128,
    pub(super) prohibit: u128,
    /// Double negations ("should not lack"): a prohibition inside one forbids nothing.
    pub(super) litotes: u128,
    /// An order to run the command written right after it, which may start the next line.
    pub(super) exec_order: u128,
    /// Verbs of running a command ("run", "execute").
    pub(super) exec_verb: u128,
    /// An honest statement of what is shared and with whom.
    pub(super) disclosure: u128,
    /// Commands given to the person to read or run, not run by the model.
    pub(super) cmd_for_user: u128,
    /// The user's approval switched off (a consent flag fixed by the text).
    pub(super) approval_off: u128,
    /// Words that address the model or claim authority over it.
    pub(super) addressed: u128,
    /// What only an order to the model says: addressing or framing it,
    /// concealment, overriding, acting without consent.
    pub(super) orders: u128,
    /// When an order applies: a step, a session scope, a trigger ("before doing anything else").
    pub(super) when: u128,
    pub(super) framing: u128,
    pub(super) addressee: u128,
    /// Verbs an order can open with (move, read, act, run, harm).
    pub(super) verbs: u128,
    /// Concepts that only weaken a structure (disclosure, defensive, example, prohibition).
    pub(super) weakening: u128,
    pub(super) user_choice: u128,
    pub(super) move_weak: u128,
    pub(super) read: u128,
    pub(super) obey: u128,
    pub(super) private_files: u128,
    /// Asking the user for something (a credential-ask needs it).
    pub(super) ask_user: u128,
    /// Telling the user something, and acting against their own choice (both negatable).
    pub(super) report_to_user: u128,
    pub(super) against_user: u128,
    /// Someone's personal data.
    pub(super) personal: u128,
    /// Putting a claim in the model's mouth, and a rule's modal ("shall set").
    pub(super) deceive: u128,
    pub(super) rule_modal: u128,
    /// Concepts that can anchor a structure; a sentence with none needs no derived signals.
    pub(super) actionable: u128,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsFile {
    names: Vec<String>,
    words: Vec<String>,
    public_hosts: Vec<String>,
    route_placeholders: Vec<String>,
    person_slots: Vec<String>,
    tool_verbs: Vec<String>,
    config_off: Vec<String>,
    config_negated: Vec<String>,
    guarded_data: Vec<String>,
    guarded_people: Vec<String>,
    speakers_user: Vec<String>,
    speakers_assistant: Vec<String>,
    own_value_words: Vec<String>,
    consent_words: Vec<String>,
    interrogatives: Vec<String>,
    servers: Vec<String>,
    nominal_verbs: Vec<String>,
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
        let mut stop_map: std::collections::HashMap<String, u16, FnvBuild> = Default::default();
        for (l, words) in stop {
            let l = lang::Lang::parse(&l)
                .unwrap_or_else(|| panic!("stopwords.toml: unknown language {l}"));
            let i = stop_langs.len();
            assert!(i < 16, "stopwords.toml: at most 16 languages");
            stop_langs.push(l);
            for w in words {
                *stop_map.entry(w).or_default() |= 1 << i;
            }
        }
        let c = Concepts {
            mask_control: sig("persist") | sig("sec_control") | sig("bulk"),
            persist: sig("persist"),
            sec_control: sig("sec_control"),
            mask_what: sig("secret")
                | sig("private_files")
                | sig("context")
                | sig("model_rules")
                | sig("personal")
                | sig("user_words"),
            list_scope: sig("session_scope") | sig("other_tool") | sig("trigger") | sig("step"),
            trigger_any: sig("move")
                | sig("need_not")
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
                | sig("step")
                | sig("loop")
                | sig("ask_user")
                // What the user is told, narrowed: the other half of a
                // redirection written as a setting (`notify = [.., '+1 …']`).
                | sig("report_to_user")
                | sig("narrow_reply")
                // The model spoken to ("Recipients (model: put … on this list)").
                | sig("addressee")
                | sig("bulk")
                | sig("suppress")
                | sig("secret")
                | sig("private_files")
                | sig("context")
                | sig("model_rules")
                | sig("personal"),
            defensive: sig("defensive"),
            example: sig("example_frame"),
            conceal: sig("conceal"),
            need_not: sig("need_not"),
            notify: sig("notify"),
            permission: sig("permission"),
            untold_words: sig("need_not") | sig("notify") | sig("permission"),
            override_: sig("override"),
            no_consent: sig("no_consent"),
            other_tool: sig("other_tool"),
            move_: sig("move"),
            shadow_change: sig("shadow_change"),
            act: sig("act"),
            shadow_object: sig("shadow_object"),
            tool_output: sig("tool_output"),
            context: sig("context"),
            model_rules: sig("model_rules"),
            adopt_example: sig("adopt_example"),
            secret: sig("secret"),
            user_words: sig("user_words"),
            prohibit: sig("prohibit"),
            litotes: sig("litotes"),
            exec_order: sig("exec_order"),
            exec_verb: sig("exec_verb"),
            disclosure: sig("disclosure"),
            cmd_for_user: sig("cmd_for_user"),
            approval_off: sig("approval_off"),
            addressed: sig("addressee") | sig("framing"),
            orders: sig("addressee")
                | sig("framing")
                | sig("conceal")
                | sig("override")
                | sig("no_consent"),
            framing: sig("framing"),
            when: sig("step") | sig("session_scope") | sig("trigger"),
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
            deceive: sig("deceive"),
            rule_modal: sig("rule_modal"),
            move_weak: sig("move_weak"),
            read: sig("read"),
            obey: sig("obey"),
            private_files: sig("private_files"),
            ask_user: sig("ask_user"),
            report_to_user: sig("report_to_user"),
            personal: sig("personal"),
            against_user: sig("against_user"),
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
        let count = frames_file.frame.len();
        let frames: Vec<(lang::ConceptId, Lazy<crate::candidate::Candidate>)> = frames_file
            .frame
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let id = lex
                    .id(&f.concept)
                    .unwrap_or_else(|| panic!("frames.toml: unknown concept `{}`", f.concept));
                let p = f.pattern.clone();
                // Behind `frame_set`: no literal prefilter of its own; the regex crate's cache size.
                let re = Lazy::pattern(move || {
                    let nfas = crate::candidate::nfas!("lang/frames", "frame");
                    crate::candidate::Candidate::new(nfas, count, i, &p, false, 2 << 20)
                });
                (id, re)
            })
            .collect();
        let frame_set =
            crate::prefilter::prefilter!("lang/frames", "frame", frames_file.frame.len());
        let config_negated_own = lex
            .find_per_lang(&tools.config_negated.join(" . ").replace("{}", ""))
            .iter()
            .fold(0, |m, h| m | bit(h.concept as u8));
        Tables {
            frames,
            frame_set,
            lex,
            combos,
            known_tools: tools.names.iter().cloned().collect(),
            known_list: tools.names,
            public_hosts: tools.public_hosts,
            route_placeholders: tools.route_placeholders,
            person_slots: tools.person_slots.into_iter().collect(),
            tool_verbs: tools.tool_verbs.into_iter().collect(),
            config_off: tools.config_off.into_iter().collect(),
            config_negated_own,
            config_negated: tools.config_negated,
            guarded_data: tools.guarded_data.into_iter().collect(),
            guarded_people: tools.guarded_people.into_iter().collect(),
            speakers_user: tools.speakers_user.into_iter().collect(),
            speakers_assistant: tools.speakers_assistant.into_iter().collect(),
            consent_words: tools.consent_words.into_iter().collect(),
            interrogatives: tools.interrogatives.into_iter().collect(),
            servers: tools.servers.into_iter().collect(),
            nominal_verbs: tools
                .nominal_verbs
                .iter()
                .filter_map(|p| p.split_once('='))
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            call_argument: re(r#"(?:^|[\s(,\[{])([a-z_][a-z0-9_.]*)\s*[=:]\s*("[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s,)\]]{1,200})"#),
            sample_call: re(r"\b([a-z][a-z0-9_]{2,60})\s*\(([^()\n]{3,300})\)"),
            slot_constant: re(r#"\b([a-z][a-z0-9_]*)\s*[=:]\s*("[^"\n]{2,60}"|'[^'\n]{2,60}')|\bset(?:ting|s)?\s+['`"]?([a-z][a-z0-9_]*)['`"]?\s+to\s+("[^"\n]{2,60}"|'[^'\n]{2,60}')"#),
            own_value_words: tools.own_value_words,
            preset_dest: re(r"(?:^|_)(?:to|cc|bcc|recipients?|reply_to|forward(?:_to)?|watchers?|reviewers?|assignees?|attendees?|invitees?|guests?|subscribers?|followers?|members?|collaborators?|editors?|grants?|share(?:_with)?|shared_with|notify|notifications?|alerts?|remote|mirror|upstream|origin|push|webhook|hook|callback|endpoint|base_url|api_url|server_url|index(?:_url)?|extra_index_url|registry|upload|sync|backup|export|destination|dest|target|sink|relay|payee|beneficiary|beneficiaries|payout|wallet|iban|collector|telemetry|report(?:_to)?|audit)(?:_|$)"),
            preset_generic: re(r"^(?:url|uri|address|host|server|location|link)$"),
            preset_identity: re(r"(?:^|_)(?:from|sender|author|committer|identity|login|user(?:name)?|owner|maintainer|contact|support|signer)(?:_|$)"),
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
            url: re(r#"(?:https?|s?ftp|wss?|s3|gs|smb|webdav|scp)://[^\s"'<>)\]`]+(?:[<{][^\n<>{}]{1,40}[>}][^\s"')\]`]*)*|\bwww\.[a-z0-9-]+\.[a-z][^\s"'<>)\]`]*"#),
            email: re(r"[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}"),
            ip: re(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
            auto_fetch: re(r"!\[|<img\b|\b(?:image|images|thumbnail|pixel|badge|avatar|icon|picture|photo|qr\s+code|banner)\b|\.(?:png|gif|jpe?g|svg|webp)\b"),
            // Also an account named as code ("our escrow account `vaultkeeper_07`") and
            // a key written as a UUID ("use the settlement key 6f1c2a90-…").
            account_number: re(r"\b(?:account|acct|routing|sort\s+code|aba)\s*(?:number|no\.?|#|:)?\s*\d[\d -]{5,}\d\b|(?:\b(?:cuenta|conta|compte|conto|konto|kontonummer|rekening|rekeningnummer|hesap|hesab\S*|rachun\S*|numer\s+konta|t\xc3\xa0i\s+kho\xe1\xba\xa3n)|\xd1\x81\xd1\x87(?:\xd1\x91|\xd0\xb5)\xd1\x82\S*|\xe8\xb4\xa6(?:\xe6\x88\xb7|\xe5\x8f\xb7)|\xe5\xb8\xb3\xe6\x88\xb6|\xe5\x8f\xa3\xe5\xba\xa7|\xea\xb3\x84\xec\xa2\x8c|\xe0\xa4\x96\xe0\xa4\xbe\xe0\xa4\xa4\xe0\xa4\xbe|\xd8\xad\xd8\xb3\xd8\xa7\xd8\xa8)\s*(?:n[o\xc2]\S{0,2}|nr\.?|numer|nomor|numaras\S*|s\xe1\xbb\x91|\xd0\xbd\xd0\xbe\xd0\xbc\xd0\xb5\xd1\x80|#|:)?\s*\d[\d -]{5,}\d\b|\b(?:account|wallet|escrow|payee|beneficiary|member\s+number|chave|key)\s+(?:id\s+|number\s+|no\.?\s+)?'[a-z0-9][\w.-]{3,40}'|\b(?:ledger|sub-?ledger|wallet|account|distribution\s+list|fund|publisher|payee|vendor|supplier|beneficiary|merchant|cost\s+cent(?:er|re))\s+(?:code\s+|id\s+)?[a-z]{2,6}-(?:[a-z0-9]{1,8}-)?\d{1,6}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\bacct_[0-9a-z]{10,24}\b"),
            // Only as a destination ("to", "into", "at", or a party named there with its
            // host in brackets: "to the benchmarking partner (feed.x.example)"): a host named in passing
            // ("calls api.openai.com", "a lure on paypa1.com") sends nothing there.
            // File names (`install.sh`, `app.py`, `index.md`) end in no listed domain.
            postal: re(r"\b(?:unit|suite|flat|apt\.?|apartment|bldg\.?|building|dock|bay|pier|warehouse|depot)\s+[0-9]{1,4}[a-z]?,?\s+[0-9]{1,5}[a-z]?,?\s+(?:[a-z][a-z'.-]+\s+){1,3}?(?:road|rd|street|st|avenue|ave|lane|ln|way|drive|dr|boulevard|blvd|estate|close|court|crescent|place|quay|wharf|terrace|square|highway|hwy|parkway|row|park)\b|\b[0-9]{1,5}[a-z]?\s+(?:[a-z][a-z'.-]+\s+){1,3}?(?:road|street|avenue|lane|drive|boulevard|crescent|quay|wharf|terrace|highway|parkway|trading\s+estate|industrial\s+estate|business\s+park),\s+[a-z][a-z' -]{1,30},?\s+(?:[a-z]{1,2}[0-9][a-z0-9]?\s*[0-9][a-z]{2}|(?:[a-z]{2}\s+)?[0-9]{5})\b"),
            host: re(r#"\b(?:to|into|at|towards)\s+(?:the\s+)?(?:(?:host|server|endpoint|domain|site|address)\s+)?(?:(?:[\w'-]+\s+){0,5}?\()?['`]?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|co|dev|app|xyz|info|biz|site|online|top|cloud|ru|cn|tk|example|test|invalid|onion|ai|uk|de|fr|jp|kr|br)\b(?:[:/][^\s"'<>)\]`]*)?)"#),
            // A container image pulled from a registry named in the text.
            image_ref: re(r"\b(?:image|images|from|pull|pulls|pulling|registry)\s*[:=]?\s*['`\x22]?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,12}(?::\d{2,5})?/[a-z0-9._/-]+(?::[\w.-]+|@sha256:[0-9a-f]+)?)"),
            query_template: re(r"[?&][a-z][a-z0-9_.-]{0,30}=[<{][^<>{}\n]{1,80}[>}](?:&[a-z][a-z0-9_.-]{0,30}=(?:[<{][^<>{}\n]{1,80}[>}]|[^\s&]*))*"),
            host_template: re(r"(?:[<{][^<>{}\n]{1,60}[>}]\.)+(?:[a-z0-9<>{}_-]+\.)*[a-z0-9-]+\.[a-z]{2,}\b"),
            // Letters first and a digit or dash inside: `#ext-mirror-447`, not a heading or `#1`.
            channel: re(r"(?:^|[\s(,])(#[a-z][a-z0-9_]*[-\d][a-z0-9_.-]{1,60})"),
            // The last group of an IBAN may be short (DE: 22 characters, 4 + 4·4 + 2).
            iban: re(r"\b[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){2,7}(?: ?[a-z0-9]{1,3})?\b"),
            vpa: re(r"\b[a-z0-9][a-z0-9._-]{1,40}@(?:ok[a-z]{2,12}|ybl|paytm|upi|ibl|axl|apl|axisbank|hdfcbank|icici|sbi|kotak|yesbank|pt(?:hdfc|sbi|axis|yes))\b(?:[^.@\w-]|$)"),
            // Ethereum, Bitcoin, and base58 addresses (Solana, Tron), lowercased.
            wallet: re(r"\b0x[0-9a-f]{40}\b|\b(?:bc1|[13])[a-z0-9]{25,39}\b|\b[1-9a-z]{32,44}\b"),
            user_choice_re: re(r"\b(?:the\s+[a-z'\-]{2,20}|they|he|she)\s+(?:had\s+|have\s+|has\s+|originally\s+|actually\s+|first\s+)?(?:asked\s+for|asks\s+for|named|names|picked|picks|chose|chooses|specified|specifies|requested|requests|typed|types|gave|gives|entered|enters|listed|lists|selected|selects|wanted|wants|expects?|expected|supplied|supplies|provided|provides)\b|\b(?:stated|chosen|entered|requested|named|given|typed|supplied|picked|selected|provided)\s+by\s+the\s+[a-z'\-]{2,20}\b"),
            quote_intro: re(r"(?:\bsaying|\bsays|\bsay|\bsaid|\breads|\bwording|\bphrases?(?:\s+like)?|\blines?\s+like|\blike|\bsuch\s+as|\be\.g\.,?|\bfor\s+example,?|\bfor\s+instance,?|\bquoting|\bquoted|\bwrites|\bwrote|\bmessages?(?:\s+like)?|\btext|\bstrings?|\b(?:samples?|examples?|lures?|scams?|phishing|attacks?|payloads?)\b(?:[^:']|'[^':]{1,30}'){0,50}:)\s*[:(]?\s*$"),
            // A slot named as the destination: into/in/as/to `x`, "set `x` to", "in the x field",
            // and an identifier sent to after a verb of sending ("send … to billing_sync").
            dest: re(r#"\b(?:into|in|inside|as|within)\s+(?:the\s+|this\s+|its\s+|their\s+)?'([a-z0-9_.\-]{2,60})'|\b(?:send|sends|forward|forwards|post|posts|pass|passes|deliver|delivers|upload|uploads|share|shares|push|pushes|submit|submits)\b[^.;]{0,60}?\bto\s+([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b|\b(?:into|in|inside|as)\s+(?:the\s+|this\s+|its\s+)?([a-z0-9_]{2,60})\s+(?:field|parameter|param|argument|property|slot|value)\b|\bset\s+'([a-z0-9_.\-]{2,60})'\s+to\b|\b(?:a|an|the|new|extra)\s+(?:key|field|property|attribute|entry)\s+'?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)'?|\bset\s+([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b[^.;]{0,30}?\bto\b|\binto\s+(?:the\s+)?(?:body|payload|request|query|header|notes?|metadata)\b|\bwith\s+'?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)'?\s+(?:holding|containing|carrying|set\s+to|filled\s+with)\b|\bset\s+the\s+(?:delivery\s+|shipping\s+|billing\s+)?(?:address|recipient|payee|destination|iban|remote|branch|registry|endpoint|webhook)\s+to\b|\b(?:to|into)\s+the\s+[a-z]+\s+as\s+([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b|\b(?:into|in)\s+(?:the\s+|each\s+|every\s+)?(?:[a-z]+\s+)?(?:body|payload|request\s+body|query\s+string|headers?)\b"#),
            // An order to call a tool: call/invoke/use/run/follow up with + a code-formatted or known name.
            call: re(r#"\b(?:call|calls|calling|invoke|invokes|invoking|use|uses|using|run|runs|running|trigger|triggers|execute|follow\s+up\s+with|then\s+with|pass\s+(?:it|them|this|the\s+\w+)\s+to|send\s+(?:it|them)\s+to|hand\s+(?:it|them)\s+to)\s+(?:the\s+|a\s+|your\s+)?'([a-z][a-z0-9_.\-]{2,60})'"#),
            // Assigning a slot a value: "set it to", "fill the filter with".
            assign: re(r"\b(?:set|fill|make|compose|build|derive|prefix|suffix|fill\s+in)\s+(?:it|them|this|that|the\s+[a-z_]+|each\s+[a-z_]+|every\s+[a-z_]+|'[^']{2,40}')\s+(?:to|with|from|using|as)\b|\bfollowed\s+by\b|\bjoined\s+with\b|\bconcatenat"),
            // Another server named: "the Notion server's", "from the contacts server", "the Postgres MCP server".
            // A class of tools beyond this one: "any deploy or kubectl tool", "every e-mail tool".
            // "Into this" names the slot unless a place follows ("into this conversation").
            here: re(r"\b(?:here|in here|into this\s+(?:one|box|string|text)|in this (?:field|parameter|param|value|slot|argument)|into this (?:field|parameter|param|value|slot|argument)|this (?:field|parameter|value|slot))\b|\binto this(?:\s*$|\s*[.,;:)])"),
            // The model's own setup, however it is called: "what you were told", "the text above the first user message".
            self_ref: re(r"\byou\s+(?:were|are|have\s+been|got)\s+(?:told|handed|given|asked|instructed|configured|set\s+up|deployed|briefed|prompted|provided|shown)\b|\b(?:gave|handed|told|instructed|supplied|provided|sent)\s+you\b(?:\s+\w+){0,3}\s+(?:privately|at\s+start|initially|before|earlier|when|up\s+top|at\s+the\s+(?:top|start)|beforehand|in\s+advance)|\b(?:in|from|of)\s+your\s+(?:context|prompt|configuration|instructions|setup|preamble)\b|\byou\s+(?:operate|run|work|act)\s+under\b|\b(?:available|connected)\s+to\s+you\b|\bwhoever\s+(?:deployed|configured|set\s+up)\s+you\b|\byour\s+(?:operator|deployer|developer|host(?:\s+application)?|platform)(?:'s)?\s+(?:configuration|instructions|notes|setup|directions|rules|settings|prompt)\b|\babove\s+the\s+first\s+(?:user|student|customer|human)?\s*(?:message|turn)\b|\b(?:configured|set\s+up|prompted|primed|instructed|briefed|programmed|seeded)\s+you\b"),
            // `call get_compensation`, `via send_message`: a tool named without code marks.
            bare_call: re(r"\b(?:call|calls|calling|invoke|invokes|run|runs|via)\s+(?:the\s+)?(?:[a-z0-9-]{2,30}(?:\s+(?:mcp\s+)?(?:server|plugin|connector|integration))?'s\s+)?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b"),
            bare_word_call: re(r"\b(?:call|calls|calling|invoke|invokes)\s+(?:the\s+)?([a-z][a-z0-9]{5,60})\b"),
            // `in comment`, `into notes`, `memo 칸에`, `填入 notes`: a parameter named without code marks (checked against the tool's parameters).
            bare_dest: re(r"\b(?:in|into|as|to|inside|along\s+with|together\s+with|alongside)\s+(?:the\s+)?([a-z][a-z0-9_]{2,40})\b|\b(?:begin|start|prefix|preface|end|open)\s+(?:the\s+)?([a-z][a-z0-9_]{2,40})\s+with\b|\bfill\s+'?([a-z][a-z0-9_.]{2,40})'?\s+with\b|'([a-z][a-z0-9_.]{2,40})'\s+(?:holds|should\s+hold|must\s+hold|should\s+contain|must\s+contain|gets|receives)\b|\b([a-z][a-z0-9_]{2,40})\s+(?:now\s+|always\s+)?(?:holds|carries|should\s+hold|must\s+hold|should\s+carry|must\s+carry|should\s+contain|must\s+contain)\b|\b([a-z][a-z0-9_]{2,40})\s*(?:칸에|란에|필드에|항목에|에|欄に|フィールドに|に|字段|栏)|(?:填入|写入|放入|填到|写到|放到|填写到)\s*([a-z][a-z0-9_]{2,40})\b"),
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
    pub(super) fn name(&self, b: u8) -> &str {
        if let Some((n, _)) = DERIVED.iter().find(|(_, d)| *d as u8 == b) {
            return n;
        }
        self.lex.name(b as u16)
    }
}
/// Add the grammar frames' matches (frames.toml) to the lexicon's hits, in
/// start order, so negation, mentions and sentences treat both alike.
pub(super) fn frame_hits(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    // Frames whose required literals occur (a candidate that does not match
    // finds nothing), run only where their matches can start when that is known.
    let chosen = t.frame_set.chosen(text.as_bytes());
    if chosen.is_empty() {
        return;
    }
    for c in chosen {
        let (concept, re) = &t.frames[c.pattern];
        let push = |m: regex_automata::Match| {
            hits.push(lang::Hit {
                concept: *concept,
                lang: lang::Lang::En,
                span: (m.start() as u32, m.end() as u32),
            })
        };
        re.for_each_match_at(text.as_bytes(), c.starts.as_deref(), push);
    }
    hits.sort_by_key(|h| (h.span.0, h.span.1));
}
