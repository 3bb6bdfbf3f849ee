//! Client built-in tools as data (`src/data/builtins.toml`): with
//! `--include-builtins CLIENT` they join every session, because the client's own
//! shell, file and web tools often complete a toxic flow an MCP server starts.

use crate::model::Role;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// One built-in tool of a client.
#[derive(Debug, Clone)]
pub struct BuiltinTool {
    pub name: String,
    pub roles: BTreeSet<Role>,
    pub what: String,
}

/// A client's built-in tool profile.
#[derive(Debug, Clone)]
pub struct BuiltinProfile {
    pub id: String,
    pub name: String,
    pub tools: Vec<BuiltinTool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    client: Vec<RawClient>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClient {
    id: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    tools: Vec<RawTool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTool {
    name: String,
    roles: Vec<String>,
    what: String,
}

fn profiles() -> &'static [(Vec<String>, BuiltinProfile)] {
    static P: OnceLock<Vec<(Vec<String>, BuiltinProfile)>> = OnceLock::new();
    P.get_or_init(|| {
        // Compiled in and covered by a unit test.
        let f: File = crate::data::parse(crate::data::json!("builtins"), "builtins");
        f.client
            .into_iter()
            .map(|c| {
                let tools = c
                    .tools
                    .into_iter()
                    .map(|t| BuiltinTool {
                        roles: t
                            .roles
                            .iter()
                            .map(|r| {
                                Role::parse(r)
                                    .unwrap_or_else(|| panic!("builtins.toml: unknown role {r}"))
                            })
                            .collect(),
                        name: t.name,
                        what: t.what,
                    })
                    .collect();
                let mut keys = vec![c.id.clone()];
                keys.extend(c.aliases);
                (
                    keys,
                    BuiltinProfile {
                        id: c.id,
                        name: c.name,
                        tools,
                    },
                )
            })
            .collect()
    })
}

/// The built-in profile of a client id (`claude-code`, `cursor`, …, or an alias), if known.
pub fn builtins_for(client: &str) -> Option<&'static BuiltinProfile> {
    let c = client.trim().to_ascii_lowercase();
    profiles()
        .iter()
        .find(|(keys, _)| keys.contains(&c))
        .map(|(_, p)| p)
}

/// Every client id with a profile (for `--help` and error messages).
pub fn known_clients() -> Vec<&'static str> {
    profiles().iter().map(|(_, p)| p.id.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::Client;

    #[test]
    fn required_profiles_exist_and_complete_the_trifecta() {
        for c in [
            Client::ClaudeCode,
            Client::Cursor,
            Client::VsCode,
            Client::Windsurf,
            Client::Codex,
            Client::GeminiCli,
        ] {
            let p =
                builtins_for(c.as_str()).unwrap_or_else(|| panic!("no profile for {}", c.as_str()));
            let roles: BTreeSet<Role> = p
                .tools
                .iter()
                .flat_map(|t| t.roles.iter().copied())
                .collect();
            assert!(roles.contains(&Role::CodeExec), "{} has no shell", p.id);
            assert!(
                roles.contains(&Role::SensitiveSource),
                "{} reads no files",
                p.id
            );
        }
        assert_eq!(
            builtins_for("Claude").map(|p| p.id.as_str()),
            Some("claude-code")
        );
        assert!(builtins_for("notepad").is_none());
        assert!(known_clients().len() >= 6);
    }
}
