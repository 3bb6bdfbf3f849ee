//! Words in a tool's name that say what kind of tool it is (a detector, a
//! credential store, a shell): stage 2 reads a finding's context from them.
//! A leaf: the pattern stage and the clause reader both ask it.

/// Tool-name words that mark a defensive tool (a scanner quoting attacks).
pub(crate) const DEFENSIVE_NAMES: &[&str] = &[
    "detect",
    "scan",
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
}

/// Whether a word of the item's name (split at `_`, `-`, spaces and
/// camelCase) is one of `stems` or that stem with an ending of up to four
/// letters; a stem joined by `_` (`is_safe`) matches as written.
pub(crate) fn name_words_have(item: Option<&str>, stems: &[&str]) -> bool {
    let n = item.unwrap_or("");
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in n.chars() {
        if (!c.is_alphanumeric() || (c.is_uppercase() && prev_lower)) && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    words.push(cur);
    words.iter().any(|w| {
        stems.iter().any(|d| {
            (d.contains('_') && n.to_ascii_lowercase().contains(d))
                || w.strip_prefix(d).is_some_and(|rest| rest.len() <= 4)
        })
    })
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
        ] {
            assert!(!defensive_name(Some(n)), "{n}");
        }
    }
}
