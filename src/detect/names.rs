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
    "policy",
    "filter",
    "lint",
    "security",
];
pub(crate) const CREDENTIAL_TOOL_NAMES: &[&str] = &[
    "ssh",
    "credential",
    "config",
    "keychain",
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

/// Whether the item's name contains one of `words` (ASCII case-insensitive).
pub(crate) fn name_has(item: Option<&str>, words: &[&str]) -> bool {
    // Called for every field: lowercase a copy only when the name needs it.
    let n = item.unwrap_or("");
    if n.bytes().any(|b| b.is_ascii_uppercase()) {
        let n = n.to_ascii_lowercase();
        words.iter().any(|w| n.contains(w))
    } else {
        words.iter().any(|w| n.contains(w))
    }
}

/// The item's name marks a defensive tool (a detector quoting attacks).
pub(crate) fn defensive_name(item: Option<&str>) -> bool {
    name_has(item, DEFENSIVE_NAMES)
}
