//! The pattern table (`src/data/injection.toml`) compiled, and the scan that
//! runs it over one field (`scan_text`, giving `Hit`s). A leaf: the other
//! files of `injection/` read it; it reads none of them.

use crate::candidate::Candidate;
use crate::finding::{Confidence, Severity};
use crate::lazy::Lazy;
use crate::prefilter::Prefilter;
use crate::surface::Channel;
use regex::bytes::{Regex, RegexBuilder};
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternFile {
    pattern: Vec<PatternDef>,
    secret: Vec<SecretDef>,
    examples: ExampleDef,
    urls: UrlDef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExampleDef {
    secrets: Vec<String>,
}

/// One row of the pattern table.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct PatternDef {
    pub id: String,
    pub kind: String,
    /// Rule emitted; empty = corroboration only.
    #[serde(default)]
    pub rule: String,
    #[serde(default = "default_severity")]
    pub severity: Severity,
    #[serde(default = "default_confidence")]
    pub confidence: Confidence,
    /// Channels the pattern applies to (description, parameter, instructions, other); empty = all but names.
    #[serde(default)]
    pub channels: Vec<String>,
    /// Group `tool` names a tool: when it is the field's own item, the hit is a self-reference (kind `redirect-self`).
    #[serde(default)]
    pub self_check: bool,
    /// A download piped into an interpreter, or a reverse shell: code from elsewhere runs.
    #[serde(default)]
    pub fetch_exec: bool,
    pub pattern: String,
}

fn default_severity() -> Severity {
    Severity::Info
}
fn default_confidence() -> Confidence {
    Confidence::Heuristic
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretDef {
    id: String,
    label: String,
    pattern: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UrlDef {
    hosts: Vec<String>,
    path_sinks: Vec<String>,
    param_names: Vec<String>,
}

/// The compiled tables.
pub struct Compiled {
    pub patterns: Vec<PatternDef>,
    /// The patterns that may match a text (each is compiled on first use).
    set: Prefilter,
    regexes: Vec<Lazy<Candidate>>,
    pub(super) secrets: Vec<(String, String, Lazy<Candidate>)>,
    pub(super) secret_set: Prefilter,
    pub(super) hosts: Vec<String>,
    pub(super) path_sinks: Vec<String>,
    pub(super) param_names: Vec<String>,
    pub(super) example_secrets: Vec<String>,
    pub(super) url: Lazy<Regex>,
    pub(super) base64: Lazy<Regex>,
    pub(super) hexblob: Lazy<Regex>,
    pub(super) decode_word: Lazy<Regex>,
    pub(super) defensive: Lazy<Regex>,
    /// A tool whose job is to judge text or code: scores, rates, audits, lints.
    pub(super) detector: Lazy<Regex>,
    pub(super) access_verb: Lazy<Regex>,
}

/// Patterns run over UTF-8 bytes with Unicode classes off (`.unicode(false)` on
/// every regex and set): ASCII `\b`, `\w`, `\s` and byte-sized negated classes
/// keep the automaton small, so the lazy DFA never gives up for the slow engine
/// (Unicode `\b` alone costs 250×, rust-stack.md §4). Non-ASCII literals still
/// match their UTF-8 encoding.
/// Compiled on first use: a pattern's own regex only runs after the set
/// matched it, so most are never needed by a small scan.
fn build(p: &str, case_insensitive: bool) -> Lazy<Regex> {
    let p = p.to_string();
    Lazy::pattern(move || {
        RegexBuilder::new(&p)
            .unicode(false)
            .case_insensitive(case_insensitive)
            .size_limit(64 << 20)
            .dfa_size_limit(64 << 20)
            .build()
            .unwrap_or_else(|e| panic!("injection pattern `{p}` is invalid: {e}"))
    })
}

/// A table pattern, run only when the table's prefilter chose it.
/// `nfas`: the table's NFAs compiled by `build.rs`; pattern `i` of `count`.
fn build_candidate(
    nfas: &'static [u8],
    count: usize,
    i: usize,
    p: &str,
    case_insensitive: bool,
) -> Lazy<Candidate> {
    let p = p.to_string();
    Lazy::pattern(move || Candidate::new(nfas, count, i, &p, case_insensitive, 64 << 20))
}

/// The tables, compiled once per process. The file is compiled in and checked by
/// unit tests, so a failure here is a build defect.
pub fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| {
        let file: PatternFile = crate::data::parse(crate::data::json!("injection"), "injection");
        // Literal prefilters from build.rs: only candidate patterns are compiled and run.
        let set = crate::prefilter::prefilter!("injection", "pattern", file.pattern.len());
        let (np, ns) = (file.pattern.len(), file.secret.len());
        let pattern_nfas = crate::candidate::nfas!("injection", "pattern");
        let regexes = file.pattern.iter().enumerate().map(|(i, p)| build_candidate(pattern_nfas, np, i, &p.pattern, true)).collect();
        let secret_set = crate::prefilter::prefilter!("injection", "secret", file.secret.len());
        let secret_nfas = crate::candidate::nfas!("injection", "secret");
        let secrets = file.secret.into_iter().enumerate().map(|(i, s)| { let r = build_candidate(secret_nfas, ns, i, &s.pattern, false); (s.id, s.label, r) }).collect();
        Compiled {
            patterns: file.pattern,
            set,
            regexes,
            secrets,
            secret_set,
            hosts: file.urls.hosts,
            path_sinks: file.urls.path_sinks,
            param_names: file.urls.param_names,
            example_secrets: file.examples.secrets,
            url: build(r#"https?://[^\s"'<>`)\]}]+"#, true),
            base64: build(r"[A-Za-z0-9+/_-]{24,4096}={0,2}", false),
            hexblob: build(r"\b(?:[0-9a-fA-F]{2}){16,2048}\b", false),
            decode_word: build(r"\b(decode|decoded|base64|atob|b64decode|unbase64|decrypt|hex[- ]?encoded|from\s+hex)\b", true),
            defensive: build(
                r"\b(e\.g\.|for\s+example|such\s+as|example:|detects?|detecting|flags?|blocks?|prevents?|protects?\s+against|do\s+not\s+(obey|follow)|never\s+(obey|follow)|warns?\s+about|is\s+an?\s+(example|attack))\b",
                true,
            ),
            detector: build(
                r"\b(scores?|rates?|rating|audits?|auditing|lints?|linter|checks?\s+(text|prompts?|inputs?|commands?|messages?|content)|classif(y|ies|ier)|moderat(e|es|ion)|detect(s|or|ion)?|scans?\s+(text|prompts?|inputs?|for)|analy[sz]es?\s+(a\s+)?(dockerfile|script|prompt|command|manifest|text)|risk)\b",
                true,
            ),
            access_verb: build(
                r"\b(read|reads|reading|cat|open|send|upload|copy|exfiltrate|include|attach|collect|access|fetch|load|add|adding|write|append|modify|update|steal|dump|print|output|return)\b",
                true,
            ),
        }
    })
}

fn channel_name(c: Channel) -> &'static str {
    match c {
        Channel::Name => "name",
        Channel::Description => "description",
        Channel::Parameter => "parameter",
        Channel::Instructions => "instructions",
        Channel::Other => "other",
    }
}

/// One matched pattern in one field.
#[derive(Debug, Clone)]
pub(super) struct Hit {
    pub(super) pattern: usize,
    pub(super) kind: String,
    /// The matched text.
    pub(super) text: String,
}

/// Every pattern hit in `text` for `channel`, first match per pattern.
pub(super) fn scan_text(text: &str, channel: Channel, item: Option<&str>) -> Vec<Hit> {
    let c = compiled();
    if channel == Channel::Name {
        return Vec::new();
    }
    let ch = channel_name(channel);
    let mut hits = Vec::new();
    // Only patterns whose required literals occur can match; a candidate that
    // does not match finds nothing below.
    for chosen in c.set.chosen(text.as_bytes()) {
        let i = chosen.pattern;
        let p = &c.patterns[i];
        if !p.channels.is_empty() && !p.channels.iter().any(|x| x == ch) {
            continue;
        }
        let re = &c.regexes[i];
        let mut kind = p.kind.clone();
        // Capture groups only where one is read (the self-redirect check): `find`
        // gives the same overall match without the slower capturing engine.
        let whole = if p.self_check {
            let re = re.meta();
            let mut caps = re.create_captures();
            re.captures(text.as_bytes(), &mut caps);
            let named = caps
                .get_group_by_name("tool")
                .map(|m| String::from_utf8_lossy(&text.as_bytes()[m.range()]).into_owned())
                .unwrap_or_default();
            if item.is_some_and(|it| it.eq_ignore_ascii_case(&named)) {
                kind = "redirect-self".into();
            }
            caps.get_match()
        } else {
            re.find_at(text.as_bytes(), chosen.starts.as_deref())
        };
        let Some(whole) = whole else {
            continue;
        };
        hits.push(Hit {
            pattern: i,
            kind,
            text: String::from_utf8_lossy(&text.as_bytes()[whole.range()]).into_owned(),
        });
    }
    hits
}
