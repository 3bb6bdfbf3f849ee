//! The roles table (`src/data/lang/roles.toml`) compiled once: its verbs,
//! objects and phrases per role, as one automaton over every language.

use crate::lang::{ConceptId, Lexicon};
use crate::model::Role;
use serde::Deserialize;
use std::sync::OnceLock;

/// What a concept is for, from its name's prefix in the data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Verb,
    Object,
    Phrase,
    Neg,
    Guidance,
    Example,
    Credential,
    Ask,
}

#[derive(Deserialize)]
pub(super) struct RuleFile {
    pub(super) rule: Vec<RawRule>,
    pub(super) phrase: Vec<RawPhrase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRule {
    pub(super) role: String,
    pub(super) verbs: Vec<String>,
    pub(super) objects: Vec<String>,
    #[serde(default)]
    pub(super) only: Vec<String>,
    #[serde(default, rename = "except")]
    pub(super) except: Vec<String>,
    #[serde(default)]
    pub(super) unless: Vec<String>,
    #[serde(default)]
    pub(super) unless_anywhere: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPhrase {
    pub(super) role: String,
    pub(super) concept: String,
}

pub(super) struct Rule {
    pub(super) role: Role,
    pub(super) verbs: Vec<ConceptId>,
    /// `None`: any object, or none (`objects = ["*"]`).
    pub(super) objects: Option<Vec<ConceptId>>,
    pub(super) only: Vec<String>,
    /// Object words the rule does not apply to.
    pub(super) except: Vec<String>,
    /// Concepts that cancel the rule when named in the same segment…
    pub(super) unless: Vec<ConceptId>,
    /// …or anywhere in the text.
    pub(super) unless_anywhere: Vec<ConceptId>,
}

pub(super) struct Engine {
    pub(super) lex: Lexicon,
    pub(super) kinds: Vec<Option<Kind>>,
    pub(super) rules: Vec<Rule>,
    pub(super) phrases: Vec<(ConceptId, Role)>,
    /// Concepts whose presence in a segment cancels a `file-write` phrase (remote objects).
    pub(super) remote: Option<ConceptId>,
}

pub(super) const SRC: &str = crate::data::json!("lang/roles");

pub(super) fn engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| {
        // Compiled in and loaded by a unit test: an invalid file is a build defect.
        let lex = Lexicon::from_compiled(crate::data::lexicon!("lang/roles"))
            .unwrap_or_else(|e| panic!("roles.toml: {e}"));
        let file: RuleFile = crate::data::parse(SRC, "lang/roles");
        let kinds = (0..lex.len())
            .map(|i| {
                let n = lex.name(i as ConceptId);
                Some(match n.split('_').next().unwrap_or("") {
                    "v" => Kind::Verb,
                    "o" => Kind::Object,
                    "s" => Kind::Phrase,
                    "c" => Kind::Credential,
                    "q" => Kind::Ask,
                    "x" if n == "x_neg" => Kind::Neg,
                    "x" if n == "x_example" => Kind::Example,
                    "x" => Kind::Guidance,
                    _ => return None,
                })
            })
            .collect();
        let id = |n: &str| {
            lex.id(n)
                .unwrap_or_else(|| panic!("roles.toml: unknown concept {n}"))
        };
        let role = |r: &str| Role::parse(r).unwrap_or_else(|| panic!("roles.toml: role {r}"));
        let rules = file
            .rule
            .iter()
            .map(|r| Rule {
                role: role(&r.role),
                verbs: r.verbs.iter().map(|v| id(v)).collect(),
                objects: (r.objects != ["*"]).then(|| r.objects.iter().map(|o| id(o)).collect()),
                only: r.only.clone(),
                except: r.except.clone(),
                unless: r.unless.iter().map(|u| id(u)).collect(),
                unless_anywhere: r.unless_anywhere.iter().map(|u| id(u)).collect(),
            })
            .collect();
        let phrases = file
            .phrase
            .iter()
            .map(|p| (id(&p.concept), role(&p.role)))
            .collect();
        let remote = lex.id("o_remote");
        Engine {
            lex,
            kinds,
            rules,
            phrases,
            remote,
        }
    })
}
