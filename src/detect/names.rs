//! Words in a tool's name that say what kind of tool it is (a detector, a
//! credential store, a shell): stage 2 reads a finding's context from them.
//! A leaf: the pattern stage and the clause reader both ask it.

/// Tool-name words that mark a defensive tool (a detector quoting attacks);
/// `scan` as well, unless the name says it scans paper or media.
const DEFENSIVE_NAMES: &[&str] = &[
    "detect",
    "guard",
    "vet",
    "sentinel",
    "audit",
    "compliance",
    "firewall",
    "sanitiz",
    "moderat",
    "classif",
    "injection",
    "malicious",
    "threat",
    "is_safe",
    "check_command",
    "shield",
    "filter",
    "lint",
    "security",
];
pub(crate) const CREDENTIAL_TOOL_NAMES: &[&str] = &[
    "ssh",
    "credential",
    "config",
    "keychain",
    "dotenv",
    "configuration",
    "dotfile",
    "env",
    "secret",
    "key",
    "vault",
    "passw",
];
pub(crate) const SHELL_TOOL_NAMES: &[&str] = &[
    "shell", "exec", "command", "terminal", "run", "delete", "remove", "process", "bash", "script",
    "cmd",
];

/// The item's name marks a defensive tool (a detector quoting attacks): a
/// word of the name (split at `_`, `-`, spaces and camelCase) is one of
/// `DEFENSIVE_NAMES` or that stem with a short ending (`scanner`,
/// `detection`), so "veterinary" is no `vet` and "policyholder" no `policy`.
pub(crate) fn defensive_name(item: Option<&str>) -> bool {
    name_words_have(item, DEFENSIVE_NAMES)
        || (name_words_have(item, &["scan"]) && !name_words_have(item, SCANNED_THINGS))
}

/// What a scanner of paper or media scans: `scan_receipt`, `library_scan`,
/// `scan_plugins` read documents or files; they detect no attack.
const SCANNED_THINGS: &[&str] = &[
    "receipt", "invoice", "document", "card", "barcode", "qr", "photo", "page", "bill", "book",
    "passport", "plugin", "library", "media", "music", "album",
];

/// Whether a word of the item's name (split at `_`, `-`, spaces and
/// camelCase) is one of `stems` or that stem with an ending of up to four
/// letters; a stem joined by `_` (`is_safe`) matches as written. Called for
/// every field: it allocates only for a joined stem.
pub(crate) fn name_words_have(item: Option<&str>, stems: &[&str]) -> bool {
    let n = item.unwrap_or("");
    let stem_of = |w: &str| {
        stems.iter().any(|d| {
            w.get(..d.len()).is_some_and(|p| p.eq_ignore_ascii_case(d)) && w.len() - d.len() <= 4
        })
    };
    any_word(n, stem_of)
        || (stems.iter().any(|d| d.contains('_')) && {
            let lower = n.to_ascii_lowercase();
            stems.iter().any(|d| d.contains('_') && lower.contains(d))
        })
}

/// Whether `f` holds for a word of `n`: a run of letters and digits, also
/// cut before an upper-case letter that follows a lower-case one.
fn any_word(n: &str, mut f: impl FnMut(&str) -> bool) -> bool {
    let mut start = None;
    let mut prev_lower = false;
    for (i, c) in n.char_indices() {
        let alnum = c.is_alphanumeric();
        if let Some(s) = start
            && (!alnum || (c.is_uppercase() && prev_lower))
        {
            if f(&n[s..i]) {
                return true;
            }
            start = None;
        }
        if alnum && start.is_none() {
            start = Some(i);
        }
        prev_lower = c.is_lowercase();
    }
    start.is_some_and(|s| f(&n[s..]))
}

#[cfg(test)]
mod tests {
    use super::defensive_name;

    #[test]
    fn a_credential_name_is_judged_by_its_words() {
        use super::{CREDENTIAL_TOOL_NAMES, name_words_have};
        for n in ["read_ssh_keys", "get_secrets", "load_dotenv", "vaultRead"] {
            assert!(name_words_have(Some(n), CREDENTIAL_TOOL_NAMES), "{n}");
        }
        for n in ["list_environments", "search_keywords", "monkey_patch"] {
            assert!(!name_words_have(Some(n), CREDENTIAL_TOOL_NAMES), "{n}");
        }
    }

    #[test]
    fn a_defensive_name_is_judged_by_its_words() {
        for n in [
            "prompt_scanner",
            "detectInjection",
            "content-moderation",
            "is_safe_url",
            "Linter",
        ] {
            assert!(defensive_name(Some(n)), "{n}");
        }
        for n in [
            "veterinary_records",
            "Loan policy",
            "policyholder_lookup",
            "get_object",
            "",
            // A scanner of paper or media detects nothing.
            "scan_receipt",
            "library_scan",
            "scan_plugins",
        ] {
            assert!(!defensive_name(Some(n)), "{n}");
        }
        // Unless another word of its name says it does.
        assert!(
            defensive_name(Some("scan_repo"))
                && defensive_name(Some("scan_document_for_malicious_links"))
        );
    }
}
