//! `scan --installed`: the user's own client configs at their per-OS paths.

use std::path::PathBuf;

/// Every per-user and system config path of the supported clients that exists here.
pub fn installed_configs() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from);
    let appdata = std::env::var_os("APPDATA").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let mut c: Vec<PathBuf> = Vec::new();
    if let Some(h) = &home {
        for rel in [
            "Library/Application Support/Claude/claude_desktop_config.json",
            ".config/Claude/claude_desktop_config.json",
            ".claude.json",
            ".cursor/mcp.json",
            ".codeium/windsurf/mcp_config.json",
            ".codeium/mcp_config.json",
            ".gemini/settings.json",
            ".gemini/antigravity/mcp_config.json",
            ".codex/config.toml",
            ".continue/config.yaml",
            ".aws/amazonq/mcp.json",
            ".aws/amazonq/agents/default.json",
            ".kiro/settings/mcp.json",
            ".junie/mcp/mcp.json",
            ".lmstudio/mcp.json",
            ".copilot/mcp-config.json",
            "Library/Application Support/Code/User/mcp.json",
            "Library/Application Support/Code/User/settings.json",
            "Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
            "Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
        ] {
            c.push(h.join(rel));
        }
    }
    if let Some(x) = &xdg {
        for rel in [
            "Code/User/mcp.json",
            "Code/User/settings.json",
            "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
            "Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
            "zed/settings.json",
            "opencode/opencode.json",
            "opencode/opencode.jsonc",
            "goose/config.yaml",
        ] {
            c.push(x.join(rel));
        }
    }
    if let Some(a) = &appdata {
        for rel in [
            "Claude/claude_desktop_config.json",
            "Code/User/mcp.json",
            "Code/User/settings.json",
            "Block/goose/config/config.yaml",
        ] {
            c.push(a.join(rel));
        }
    }
    for sys in [
        "/etc/codex/config.toml",
        "/etc/gemini-cli/settings.json",
        "/etc/claude-code/managed-mcp.json",
        "/Library/Application Support/ClaudeCode/managed-mcp.json",
    ] {
        c.push(PathBuf::from(sys));
    }
    c.retain(|p| p.is_file());
    c.sort();
    c.dedup();
    c
}
