//! The capability lexicon (`src/data/capability_lexicon.toml`): the words and
//! phrases each role is read from, compiled once.

use regex::Regex;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Deserialize)]
pub(super) struct LexiconFile {
    pub(super) name: NameLex,
    pub(super) params: ParamLex,
    pub(super) description: ContextPatterns,
}

/// Patterns that qualify a parameter by the words around it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ContextPatterns {
    pub(super) exec_context: String,
    pub(super) exec_negative: String,
    pub(super) output_path: String,
    pub(super) recipient_context: String,
    pub(super) remote_context: String,
    pub(super) local_context: String,
    pub(super) input_path: String,
}

#[derive(Deserialize)]
pub(super) struct NameLex {
    pub(super) read_verbs: Vec<String>,
    pub(super) write_verbs: Vec<String>,
    pub(super) send_verbs: Vec<String>,
    pub(super) create_verbs: Vec<String>,
    pub(super) sink_objects: Vec<String>,
    pub(super) sink_phrases: Vec<String>,
    pub(super) exec_standalone: Vec<String>,
    pub(super) exec_verbs: Vec<String>,
    pub(super) exec_objects: Vec<String>,
    pub(super) untrusted_standalone: Vec<String>,
    pub(super) untrusted_objects: Vec<String>,
    pub(super) untrusted_phrases: Vec<String>,
    pub(super) untrusted_object_phrases: Vec<String>,
    pub(super) not_sink_phrases: Vec<String>,
    pub(super) param_id_tokens: Vec<String>,
    pub(super) sensitive_standalone: Vec<String>,
    pub(super) sensitive_objects: Vec<String>,
    pub(super) file_objects: Vec<String>,
    pub(super) getter_prefixes: Vec<String>,
    pub(super) getter_suffixes: Vec<String>,
    pub(super) mutation_tokens: Vec<String>,
    pub(super) destructive_tokens: Vec<String>,
    pub(super) detach_objects: Vec<String>,
    pub(super) namespace_prefixes: Vec<String>,
    pub(super) high_impact_verbs: Vec<String>,
    pub(super) high_impact_phrases: Vec<String>,
    pub(super) high_impact_objects: Vec<String>,
    pub(super) request_tokens: Vec<String>,
    pub(super) inspect_verbs: Vec<String>,
    pub(super) other_verbs: Vec<String>,
    pub(super) meta_tokens: Vec<String>,
    pub(super) draft_tokens: Vec<String>,
    pub(super) listing_only: Vec<String>,
    pub(super) public_tokens: Vec<String>,
    pub(super) private_containers: Vec<String>,
    pub(super) comment_objects: Vec<String>,
    pub(super) forge_context: Vec<String>,
    pub(super) forge_words: Vec<String>,
    pub(super) private_words: Vec<String>,
    pub(super) settings_tokens: Vec<String>,
    pub(super) page_namespaces: Vec<String>,
    pub(super) snapshot_namespaces: Vec<String>,
    pub(super) page_no_content: Vec<String>,
    pub(super) page_content_tokens: Vec<String>,
    pub(super) page_input_tokens: Vec<String>,
    pub(super) remote_tokens: Vec<String>,
    pub(super) drop_objects: Vec<String>,
    pub(super) upload_verbs: Vec<String>,
    pub(super) people_sinks: Vec<String>,
    pub(super) store_verbs: Vec<String>,
}

#[derive(Deserialize)]
pub(super) struct ParamLex {
    pub(super) url: Vec<String>,
    pub(super) path: Vec<String>,
    pub(super) command: Vec<String>,
    pub(super) recipient: Vec<String>,
    pub(super) sql: Vec<String>,
    pub(super) http_shape: Vec<String>,
    pub(super) ssrf: Vec<String>,
    pub(super) traversal: Vec<String>,
    pub(super) injection: Vec<String>,
    pub(super) secret_fields: Vec<String>,
    pub(super) secret_exclusions: Vec<String>,
    pub(super) destination: Vec<String>,
    pub(super) strong_secrets: Vec<String>,
}

/// The compiled lexicon.
pub(super) struct Lexicon {
    pub(super) name: NameLex,
    pub(super) params: ParamLex,
    pub(super) exec_context: crate::lazy::Lazy<Regex>,
    pub(super) exec_negative: crate::lazy::Lazy<Regex>,
    pub(super) recipient_context: crate::lazy::Lazy<Regex>,
    pub(super) output_path: crate::lazy::Lazy<Regex>,
    pub(super) remote_context: crate::lazy::Lazy<Regex>,
    pub(super) local_context: crate::lazy::Lazy<Regex>,
    pub(super) input_path: crate::lazy::Lazy<Regex>,
}

pub(super) fn lexicon() -> &'static Lexicon {
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
