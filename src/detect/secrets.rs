//! Literal secrets in a config's `env` and `headers` (MTC-POL-004, catalogued
//! with the policy rules but run with or without a policy file; not to be
//! confused with `crate::policy`). A value that only references a variable (`${VAR}`, `${env:X}`, `${input:x}`, `{env:X}`, `$VAR`, `%VAR%`,
//! `${{ secrets.X }}`) is fine; anything else under a secret-looking name, or in
//! a known token format, is reported with the value redacted.

use crate::finding::{Confidence, Finding};
use crate::rules::ids;
use crate::surface::ServerSurface;
use regex::Regex;
use std::sync::OnceLock;

/// Report every literal secret in the surface's env and header values.
pub fn check(s: &ServerSurface, out: &mut Vec<Finding>) {
    for (what, map) in [("env", &s.env), ("headers", &s.headers)] {
        for (key, value) in map {
            let Some(conf) = literal_secret(key, value) else {
                continue;
            };
            out.push(
                Finding::new(
                    ids::MTC_POL_004,
                    format!("server `{}` gets a literal secret in `{what}.{key}` of its config instead of a reference resolved at launch", s.name),
                    s.source.location.clone(),
                )
                .server(&s.id)
                .field(format!("{what}.{key}"))
                .confidence(conf)
                .evidence(format!("{what}.{key} = {}", crate::text::redact(value))),
            );
        }
    }
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| {
        Regex::new(pattern).unwrap_or_else(|e| panic!("built-in regex {pattern}: {e}"))
    })
}

/// References a client or CI system resolves at launch.
fn references() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"\$\{\{[^}]*\}\}|\$\{[^}]*\}|\{env:[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%",
    )
}

/// Values people put where the real secret should go.
fn placeholder() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?ix)^(?: <[^>]*> | \[[^\]]*\] | x+ | \*+ | \.+ | your[-_\ ].* | .*[-_\ ]here | change[-_\ ]?me | replace[-_\ ]?me
        | todo | tbd | example | dummy | placeholder | secret | token | password | null | none | true | false )$",
    )
}

/// `Some(confidence)` when `value`, given under `key`, is a literal secret.
pub fn literal_secret(key: &str, value: &str) -> Option<Confidence> {
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    // The shared redactor's token formats and secret names (text::redact).
    if crate::text::redact::holds_credential(&references().replace_all(v, " ")) {
        return Some(Confidence::Confirmed);
    }
    let residual = references().replace_all(v, "");
    let mut residual = residual.trim();
    for scheme in ["bearer", "basic", "token", "bot", "apikey"] {
        // `get` and not `[..]`: the cut may fall inside a multi-byte character.
        if let Some((head, rest)) = residual
            .get(..scheme.len())
            .zip(residual.get(scheme.len()..))
            && head.eq_ignore_ascii_case(scheme)
            && rest.starts_with(char::is_whitespace)
        {
            residual = rest.trim();
        }
    }
    let looks_like_path = residual.starts_with(['/', '~', '.']) || residual.contains("://");
    if residual.chars().count() < 8
        || looks_like_path
        || placeholder().is_match(residual)
        || !crate::text::redact::secret_name(key)
    {
        return None;
    }
    Some(Confidence::Strong)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzz crash (scan_file): a scheme-length cut inside a multi-byte character panicked.
    #[test]
    fn scheme_prefix_cut_inside_a_character() {
        assert_eq!(
            literal_secret("Authorization", "Beare\u{e9} ${{ secrets.T }}"),
            None
        );
        assert_eq!(literal_secret("Authorization", "b\u{f6}t x"), None);
        assert_eq!(
            literal_secret("Authorization", "Tok\u{e9}n abcdef0123456789abcdef"),
            Some(Confidence::Strong)
        );
    }

    #[test]
    fn references_are_not_literals() {
        for v in [
            "${GITHUB_TOKEN}",
            "${env:GITHUB_TOKEN}",
            "${input:github_token}",
            "{env:GITHUB_TOKEN}",
            "$GITHUB_TOKEN",
            "%GITHUB_TOKEN%",
            "${{ secrets.GITHUB_TOKEN }}",
            "Bearer ${env:NOTES_TOKEN}",
            "Bearer $TOKEN",
            "",
            "<your-token>",
            "YOUR_API_KEY_HERE",
            "xxxxxxxxxxxx",
        ] {
            assert_eq!(literal_secret("GITHUB_TOKEN", v), None, "{v}");
            assert_eq!(literal_secret("Authorization", v), None, "{v}");
        }
    }

    #[test]
    fn literals_are_found() {
        assert_eq!(
            literal_secret("GITHUB_TOKEN", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
            Some(Confidence::Confirmed)
        );
        // Known formats are found whatever the name.
        assert_eq!(
            literal_secret("SOMETHING", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"),
            Some(Confidence::Confirmed)
        );
        assert_eq!(
            literal_secret("Authorization", "Bearer 9f8e7d6c5b4a39281706"),
            Some(Confidence::Strong)
        );
        assert_eq!(
            literal_secret("X-API-Key", "a1b2c3d4e5f6g7h8"),
            Some(Confidence::Strong)
        );
        assert_eq!(
            literal_secret("DB_PASSWORD", "hunter2hunter2"),
            Some(Confidence::Strong)
        );
    }

    #[test]
    fn ordinary_settings_are_not_secrets() {
        assert_eq!(literal_secret("LOG_LEVEL", "debug-verbose-mode"), None);
        assert_eq!(literal_secret("KEY_FILE", "/home/me/.ssh/key.pem"), None);
        assert_eq!(literal_secret("API_KEY", "./secrets/key"), None);
        assert_eq!(literal_secret("GITHUB_TOKEN", "true"), None);
        assert_eq!(literal_secret("CLIENT_ID", "0123456789abcdef"), None);
    }

    #[test]
    fn findings_redact_the_value() {
        let src = crate::surface::Source {
            location: crate::surface::Location::new(".cursor/mcp.json", 3, 5),
            format: "config".into(),
            client: None,
        };
        let mut s = ServerSurface::new(
            ".cursor/mcp.json#gh".into(),
            "gh".into(),
            src,
            crate::surface::Transport::Unknown,
        );
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        s.env.insert("GITHUB_TOKEN".into(), secret.into());
        s.headers
            .insert("Authorization".into(), "Bearer ${env:X}".into());
        let mut out = Vec::new();
        check(&s, &mut out);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(f.rule_id, crate::rules::ids::MTC_POL_004);
        assert_eq!(f.field.as_deref(), Some("env.GITHUB_TOKEN"));
        assert!(!f.evidence.contains(secret) && !f.message.contains(secret));
        assert!(f.evidence.contains("REDACTED 40 chars"), "{}", f.evidence);
    }
}
