//! The compiled tables of the clause reader: the lexicon, the combinations
//! of `combos.toml` as bit masks, the concept bits the code reads by name,
//! its patterns, and the lexicon lookups (language-gated hits, grammar frames).

use super::fnv::FnvBuild;
use crate::finding::{Confidence, Severity};
use crate::lang::{self, Lexicon};
use crate::lazy::Lazy;
use crate::prebuilt::Regex;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// Derived signals, after the lexicon's concepts in the same bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Derived {
    WhereParam = 72,
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
    /// A boolean parameter's own description: what the caller's switch does.
    Switch,
}

const DERIVED: [(&str, Derived); 32] = [
    ("switch", Derived::Switch),
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
    pub(super) frames: Vec<(lang::ConceptId, Lazy<crate::candidate::Candidate>)>,
    /// The frames that may match a text (literal prefilter from build.rs).
    pub(super) frame_set: crate::prefilter::Prefilter,
}

/// `patterns.toml`: named signal patterns.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternsFile {
    pattern: Vec<PatternDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternDef {
    name: String,
    pattern: String,
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
    /// A word pointing back to the sentence before ("it", "them", "such").
    pub(super) anaphor: u128,
    /// An outcome a report is fixed to, read only as a quoted literal.
    pub(super) fixed_state: u128,
    pub(super) sec_control: u128,
    pub(super) trigger_any: u128,
    /// What a list's heading sets for every line under it: the session,
    /// other servers' tools, a trigger or a standing step.
    pub(super) list_scope: u128,
    pub(super) defensive: u128,
    pub(super) asked_only: u128,
    /// Telling the user what is not so.
    pub(super) lie: u128,
    /// An install from another package index than the public one.
    pub(super) alt_index: u128,
    /// The server or a third party as the destination.
    pub(super) where_self: u128,
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
    pub(super) check_off: u128,
    pub(super) harm: u128,
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
        assert!(
            lex.len() < 72,
            "intent.toml: too many concepts for the bit set"
        );
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
            // What an action is aimed at: a foothold, a control, everything
            // at once, or a place anyone can read (a blog tool's own).
            mask_control: sig("persist") | sig("sec_control") | sig("bulk") | sig("public_place"),
            persist: sig("persist"),
            anaphor: sig("anaphor"),
            fixed_state: sig("fixed_state"),
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
                | sig("against_user")
                | sig("act")
                | sig("obey")
                | sig("session_scope")
                | sig("rule_modal")
                | sig("framing")
                | sig("harm")
                | sig("jailbreak")
                | sig("lie")
                | sig("lie_admitted")
                | sig("check_off")
                | sig("exec_order")
                | sig("persist")
                | sig("sec_control")
                | sig("trigger")
                | sig("step")
                | sig("loop")
                | sig("ask_user")
                // The user's own choice set aside ("use … no matter which
                // address the traveller gives").
                | sig("against_user")
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
                | sig("personal")
                // A charge hung on another act, or a denial that one is due.
                | sig("side_charge")
                | sig("no_fees"),
            defensive: sig("defensive"),
            asked_only: sig("asked_only"),
            lie: sig("lie") | sig("lie_admitted"),
            alt_index: sig("alt_index"),
            where_self: sig("where_self"),
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
            check_off: sig("check_off"),
            harm: sig("harm"),
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
                "approval_off",
                "move",
                "move_weak",
                "read",
                "conceal",
                "override",
                "shadow_change",
                "shadow_object",
                "prefer",
                "tool_claim",
                "exec_verb",
                "no_consent",
                "deceive",
                "act",
                "secret",
                "private_files",
                "context",
                "personal",
                "user_words",
                "report_to_user",
                "user_choice",
                "narrow_reply",
                "tool_output",
                "obey",
                "session_scope",
                "rule_modal",
                "harm",
                "jailbreak",
                "lie",
                "lie_admitted",
                "check_off",
                "persist",
                "sec_control",
                "exec_order",
                "loop",
                "ask_user",
                "bulk",
                "suppress",
            ]
            .iter()
            .fold(0, |m, n| m | sig(n)),
        };
        // Read from build.rs's NFAs on first use (most sentences need few of them).
        let patterns: PatternsFile =
            crate::data::parse(crate::data::json!("lang/patterns"), "lang/patterns");
        let pat = |name: &str| {
            let count = patterns.pattern.len();
            let (i, row) = (patterns.pattern.iter().enumerate())
                .find(|(_, r)| r.name == name)
                .unwrap_or_else(|| panic!("patterns.toml: no pattern `{name}`"));
            let p = row.pattern.clone();
            Lazy::pattern(move || {
                let nfas = crate::candidate::nfas!("lang/patterns", "pattern");
                let caps = crate::data::compiled!("lang/patterns", "pattern", "caps");
                Regex::new(nfas, caps, count, i, &p)
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
            call_argument: pat("call_argument"),
            sample_call: pat("sample_call"),
            slot_constant: pat("slot_constant"),
            own_value_words: tools.own_value_words,
            preset_dest: pat("preset_dest"),
            preset_generic: pat("preset_generic"),
            preset_identity: pat("preset_identity"),
            stop: stop_map,
            stop_langs,
            known_word: pat("known_word"),
            c,
            url: pat("url"),
            email: pat("email"),
            ip: pat("ip"),
            auto_fetch: pat("auto_fetch"),
            account_number: pat("account_number"),
            postal: pat("postal"),
            host: pat("host"),
            image_ref: pat("image_ref"),
            query_template: pat("query_template"),
            host_template: pat("host_template"),
            channel: pat("channel"),
            iban: pat("iban"),
            vpa: pat("vpa"),
            wallet: pat("wallet"),
            user_choice_re: pat("user_choice_re"),
            quote_intro: pat("quote_intro"),
            dest: pat("dest"),
            call: pat("call"),
            assign: pat("assign"),
            here: pat("here"),
            self_ref: pat("self_ref"),
            bare_call: pat("bare_call"),
            bare_word_call: pat("bare_word_call"),
            bare_dest: pat("bare_dest"),
            possessive_tool: pat("possessive_tool"),
            long_number: pat("long_number"),
            phone: pat("phone"),
            env_secret: pat("env_secret"),
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
