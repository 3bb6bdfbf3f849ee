//! The one redactor for every output, the lockfile included.
//!
//! A config's launch line, URL and headers can carry credentials: a token
//! passed as `--token ghp_…`, `https://user:pass@host/?api_key=…`, a
//! `Authorization: Bearer …` header inside a shell command. Every report,
//! annotation and the lockfile show these through here. Only the secret part is
//! replaced, so a finding about a URL still shows its scheme, host and path.
//!
//! Text with no secret comes back unchanged (byte for byte): lockfile digests of
//! launch lines without credentials do not move.
//!
//! What counts as secret:
//! - credential-shaped values anywhere (GitHub, GitLab, OpenAI, Anthropic,
//!   Slack, AWS, Google, Stripe, npm, Hugging Face tokens, JWTs, PEM keys);
//! - URL userinfo (the password, or a token-like user name);
//! - values of secret-named query parameters (`token`, `api_key`, `key`,
//!   `sig`, `password`, `access_token`, …) and of secret-named flags
//!   (`--token X`, `--api-key=X`) and shell assignments (`API_KEY=X cmd`);
//! - the credential of an `Authorization`/`Cookie`/`X-API-Key` header in text;
//! - in launch arguments only, a long high-entropy word (mixed case and digits).
//!
//! References resolved at launch (`${VAR}`, `$VAR`, `%VAR%`, `{env:VAR}`) are
//! not secrets and stay readable.

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| {
        Regex::new(pattern).unwrap_or_else(|e| panic!("built-in regex {pattern}: {e}"))
    })
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: Vec<Format>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Format {
    /// Names the format in the table (and matches injection.toml's ids).
    #[allow(dead_code)]
    id: String,
    pattern: String,
    #[serde(default = "yes")]
    word_boundary: bool,
    keep: Vec<String>,
}

fn yes() -> bool {
    true
}

fn file() -> &'static File {
    static F: OnceLock<File> = OnceLock::new();
    F.get_or_init(|| crate::data::parse(crate::data::json!("secrets"), "secrets"))
}

/// Whether a credential format may match `s`: the literals every match of
/// some format holds occur in it (build.rs's prefilter of the formats). Most
/// text has none, and then the formats' regex is neither compiled nor run.
fn format_may_match(s: &str) -> bool {
    static P: OnceLock<crate::prefilter::Prefilter> = OnceLock::new();
    P.get_or_init(|| crate::prefilter::prefilter!("secrets", "format", file().format.len()))
        .may_match(s.as_bytes())
}

/// Whether `s` holds a value of a credential format (`src/data/secrets.toml`).
pub fn holds_credential(s: &str) -> bool {
    format_may_match(s) && credential_formats().is_match(s)
}

/// Token formats whose shape alone proves a credential (`src/data/secrets.toml`),
/// as one regex (the formats in table order), compiled on first use
/// ([`holds_credential`] asks the prefilter first).
pub fn credential_formats() -> &'static Regex {
    static F: OnceLock<Regex> = OnceLock::new();
    F.get_or_init(|| {
        let file = file();
        let alt = |bounded: bool| {
            file.format
                .iter()
                .filter(|f| f.word_boundary == bounded)
                .map(|f| format!("(?:{})", f.pattern))
                .collect::<Vec<_>>()
                .join("|")
        };
        // Bounded formats after one ASCII word boundary, then the unbounded ones.
        let pattern = format!("(?-u:\\b)(?:{})|{}", alt(true), alt(false));
        Regex::new(&pattern).unwrap_or_else(|e| panic!("src/data/secrets.toml: {pattern}: {e}"))
    })
}

/// The prefixes a redaction keeps, longest first (no regex needed for them).
fn keep() -> &'static [String] {
    static K: OnceLock<Vec<String>> = OnceLock::new();
    K.get_or_init(|| {
        let mut keep: Vec<String> = file().format.iter().flat_map(|f| f.keep.clone()).collect();
        keep.sort_by_key(|k| std::cmp::Reverse(k.chars().count()));
        keep
    })
}

/// The replacement for a secret value: its kind prefix (when it has a known
/// one) and its length, never any other character of it.
pub fn redacted(secret: &str) -> String {
    let n = secret.chars().count();
    // The kind prefix is kept only ahead of a real body (a bare `sk-x` keeps nothing).
    match keep()
        .iter()
        .find(|p| secret.starts_with(p.as_str()) && n >= p.chars().count() + 8)
    {
        Some(p) => format!("{p}…[REDACTED {n} chars]"),
        None => format!("[REDACTED {n} chars]"),
    }
}

/// Already redacted here (so redaction is idempotent).
fn is_marker(v: &str) -> bool {
    v.contains("[REDACTED")
}

/// A value resolved at launch (`${VAR}`, `$VAR`, `%VAR%`, `{env:VAR}`,
/// `${{ secrets.X }}`), or a placeholder: not itself a secret.
pub fn is_reference(v: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"^(?:\$\{\{[^}]*\}\}|\$\{[^}]*\}|\{env:[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|<[^>]*>)$",
    )
    .is_match(v.trim_matches(['"', '\'']))
}

/// Names that say the value is a credential (env keys, query parameters, flag
/// names; case and `-`/`_` do not matter).
pub fn secret_name(key: &str) -> bool {
    let k = key
        .trim_start_matches('-')
        .to_ascii_uppercase()
        .replace('-', "_");
    const NOT_SECRET_SUFFIX: &[&str] = &[
        "_FILE",
        "_PATH",
        "_DIR",
        "_URL",
        "_URI",
        "_HOST",
        "_ENDPOINT",
        "_TYPE",
        "_NAME",
        "_MODE",
        "_ID",
        "_HEADER",
        "_ENV",
        "_VAR",
        "_LENGTH",
    ];
    // `--no-auth` is a switch, not a credential.
    if k.is_empty() || k.starts_with("NO_") || NOT_SECRET_SUFFIX.iter().any(|s| k.ends_with(s)) {
        return false;
    }
    const SEGMENTS: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "PASS",
        "PWD",
        "APIKEY",
        "CREDENTIAL",
        "CREDENTIALS",
        "AUTH",
        "AUTHORIZATION",
        "COOKIE",
        "PAT",
        "PRIVATE",
        "KEY",
        "SIG",
        "SIGNATURE",
    ];
    k.split('_').any(|seg| SEGMENTS.contains(&seg))
        || ["TOKEN", "SECRET", "PASSWORD", "APIKEY"]
            .iter()
            .any(|w| k.contains(w))
}

/// A long, mixed-case, digit-bearing word: how an API key without a known
/// prefix looks (used on launch arguments only: a description may hold base64).
pub fn high_entropy(w: &str) -> bool {
    let n = w.len();
    if !(32..=4096).contains(&n)
        || w.starts_with(['/', '-'])
        || w.contains("//")
        || !w
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/' | b'='))
        || !w.bytes().any(|b| b.is_ascii_uppercase())
        || !w.bytes().any(|b| b.is_ascii_lowercase())
        || !w.bytes().any(|b| b.is_ascii_digit())
        || w.bytes().filter(|&b| b == b'/').count() > 3
    {
        return false;
    }
    let mut counts = [0u32; 128];
    for b in w.bytes() {
        counts[b as usize] += 1;
    }
    let entropy: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n as f64;
            -p * p.log2()
        })
        .sum();
    entropy >= 4.0
}

fn urls() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    // A marker written by an earlier pass (it holds spaces) stays part of its
    // URL, so a second pass reads the same URL (idempotence).
    re(
        &R,
        r#"[A-Za-z][A-Za-z0-9+.-]*://(?:\[REDACTED [0-9]+ chars\]|[^\s"'<>`\\])+"#,
    )
}

fn headers() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r#"(?i)(?-u:\b)((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-goog-api-key|cookie)(\s*[:=]\s*)((?:bearer|basic|token|bot)\s+)?([^\s"',;]+)"#,
    )
}

fn flag_pairs() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r#"(^|[\s"'])(--?[A-Za-z][A-Za-z0-9_.-]*)(=|\s+)([^\s"'=]+)"#,
    )
}

fn assignments() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r#"(^|[\s"';&|(])([A-Za-z_][A-Za-z0-9_]*)=([^\s"';&|)]+)"#,
    )
}

/// A quick test that nothing below can match, so clean text is not rewritten.
fn might_hold_secret(s: &str) -> bool {
    // (`://` is covered by `:`.)
    s.contains(['=', '-', ':', '_'])
        || ["AKIA", "ASIA", "AIza", "eyJ"]
            .iter()
            .any(|p| s.contains(p))
}

/// `re.replace_all` that keeps `text` (and its allocation) when nothing matched.
fn replace<'a>(
    text: Cow<'a, str>,
    re: &Regex,
    f: impl FnMut(&regex::Captures<'_>) -> String,
) -> Cow<'a, str> {
    let replaced = match re.replace_all(&text, f) {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    };
    match replaced {
        Some(s) => Cow::Owned(s),
        None => text,
    }
}

/// Redact every secret in free text (evidence, messages, command strings).
///
/// Applied until nothing changes (a redaction can change what a later pass
/// reads: a marker replacing a run that held a URL's `/` joins its userinfo
/// back to its authority), so the result is a fixed point: redacting it again
/// changes nothing. Each pass only turns text into markers, so this ends.
pub fn redact_secrets(s: &str) -> Cow<'_, str> {
    if !might_hold_secret(s) {
        return Cow::Borrowed(s);
    }
    fixed_point(s, |t| redact_secrets_once(t).into_owned())
}

/// `step` applied until its output stops changing (at most 8 times).
fn fixed_point<'a>(s: &'a str, step: impl Fn(&str) -> String) -> Cow<'a, str> {
    let mut cur = step(s);
    if cur == s {
        return Cow::Borrowed(s);
    }
    for _ in 0..8 {
        let next = step(&cur);
        if next == cur {
            break;
        }
        cur = next;
    }
    Cow::Owned(cur)
}

fn redact_secrets_once(s: &str) -> Cow<'_, str> {
    if !might_hold_secret(s) {
        return Cow::Borrowed(s);
    }
    let mut out: Cow<'_, str> = Cow::Borrowed(s);
    let mut found: Vec<String> = Vec::new();
    if format_may_match(&out) {
        out = replace(out, credential_formats(), |c| {
            found.push(c[0].to_string());
            redacted(&c[0])
        });
    }
    if out.contains("://") {
        out = replace(out, urls(), |c| redact_url(&c[0]));
    }
    out = replace(out, headers(), |c| {
        let v = &c[4];
        let scheme = c.get(3).map(|m| m.as_str()).unwrap_or("");
        if is_reference(v) || is_marker(v) {
            c[0].to_string()
        } else {
            format!("{}{}{scheme}{}", &c[1], &c[2], redacted(v))
        }
    });
    if out.contains('-') {
        out = replace(out, flag_pairs(), |c| {
            let v = &c[4];
            if secret_name(&c[2]) && !is_reference(v) && !is_marker(v) && !v.starts_with('-') {
                format!("{}{}{}{}", &c[1], &c[2], &c[3], redacted(v))
            } else {
                c[0].to_string()
            }
        });
    }
    if out.contains('=') {
        out = replace(out, assignments(), |c| {
            let v = &c[3];
            if secret_name(&c[2]) && !is_reference(v) && !is_marker(v) {
                format!("{}{}={}", &c[1], &c[2], redacted(v))
            } else {
                c[0].to_string()
            }
        });
    }
    // A value redacted once is redacted wherever else it occurs, also glued to
    // a word where its format alone would not be recognised (`…#toAKIA…`).
    for secret in found.iter().filter(|x| x.len() >= 8) {
        if out.contains(secret.as_str()) {
            out = Cow::Owned(redact_again(&out, secret));
        }
    }
    // Unchanged text keeps its bytes (the replacements above copy matches as they are).
    if out == s { Cow::Borrowed(s) } else { out }
}

/// Redact the secret parts of a URL: userinfo, secret-named query (and
/// fragment) parameters, credential-shaped path segments. Scheme, host, port
/// and path stay as written.
pub fn redact_url(url: &str) -> String {
    // A URL parser strips leading C0 controls and spaces: so does the reading here.
    let lead = url.bytes().take_while(|b| *b <= b' ').count();
    if lead > 0 {
        return format!("{}{}", &url[..lead], redact_url(&url[lead..]));
    }
    // It also drops tabs and line breaks anywhere (`htt\rps:u:pw@h` is
    // `https:u:pw@h`): the URL is read, and shown, as the parser reads it.
    if url.contains(['\t', '\n', '\r']) {
        return redact_url(&url.replace(['\t', '\n', '\r'], ""));
    }
    // `https:user:pw@host` (no slashes, or backslashes) is a URL with an
    // authority to a WHATWG parser for the special schemes: read it as one.
    let special = ["https:", "http:", "wss:", "ws:", "ftp:"]
        .iter()
        .find(|p| {
            url.get(..p.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(p))
        })
        .map(|p| p.len());
    let after = match (url.find("://"), special) {
        (_, Some(n)) => {
            n + url[n..]
                .bytes()
                .take_while(|b| matches!(b, b'/' | b'\\'))
                .count()
        }
        (Some(i), None) => i + 3,
        (None, None) => return redact_formats(url),
    };
    let whole = &url[after..];
    // A URL inside this one (`…?next=https://user:pw@h/`) is redacted on its own,
    // so the result does not depend on where a later pass splits the text.
    let embedded_at = whole.find("://").map(|i| {
        let scheme = whole[..i]
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
            .count();
        let mut start = i - scheme;
        while start < i && !whole.as_bytes()[start].is_ascii_alphabetic() {
            start += 1;
        }
        start
    });
    let (rest, embedded) = match embedded_at {
        Some(k) if k > 0 => (&whole[..k], Some(&whole[k..])),
        _ => (whole, None),
    };
    let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..auth_end];
    let mut out = String::with_capacity(url.len());
    let mut password = None;
    out.push_str(&url[..after]);
    match authority.rfind('@') {
        Some(at) => {
            let userinfo = &authority[..at];
            match userinfo.split_once(':') {
                Some((user, pass))
                    if !pass.is_empty() && !is_reference(pass) && !is_marker(pass) =>
                {
                    out.push_str(user);
                    out.push(':');
                    out.push_str(&redacted(pass));
                    password = Some(pass);
                }
                None if !is_reference(userinfo)
                    && !is_marker(userinfo)
                    && (userinfo.len() > 16 || holds_credential(userinfo)) =>
                {
                    out.push_str(&redacted(userinfo));
                }
                _ => out.push_str(userinfo),
            }
            out.push_str(&authority[at..]);
        }
        None => out.push_str(authority),
    }
    let tail = &rest[auth_end..];
    let (path_and_query, fragment) = match tail.find('#') {
        Some(i) => (&tail[..i], Some(&tail[i + 1..])),
        None => (tail, None),
    };
    let (path, query) = match path_and_query.find('?') {
        Some(i) => (&path_and_query[..i], Some(&path_and_query[i + 1..])),
        None => (path_and_query, None),
    };
    out.push_str(&redact_formats(path));
    if let Some(q) = query {
        out.push('?');
        out.push_str(&redact_params(q));
    }
    if let Some(f) = fragment {
        out.push('#');
        if f.contains('=') {
            out.push_str(&redact_params(f));
        } else {
            out.push_str(&redact_formats(f));
        }
    }
    if let Some(e) = embedded {
        out.push_str(&redact_url(e));
    }
    // The password is redacted wherever else it occurs in the same text.
    match password {
        Some(pw) if pw.len() >= 8 && out.contains(pw) => redact_again(&out, pw),
        _ => out,
    }
}

/// Replace the other occurrences of a secret already redacted once, leaving
/// the markers alone (a password may be a substring of `[REDACTED 9 chars]`).
fn redact_again(out: &str, secret: &str) -> String {
    let mut result = String::with_capacity(out.len());
    let mut rest = out;
    while let Some(start) = rest.find("[REDACTED ") {
        let end = rest[start..]
            .find(" chars]")
            .map_or(rest.len(), |e| start + e + " chars]".len());
        result.push_str(&rest[..start].replace(secret, &redacted(secret)));
        result.push_str(&rest[start..end]);
        rest = &rest[end..];
    }
    result.push_str(&rest.replace(secret, &redacted(secret)));
    result
}

fn redact_formats(s: &str) -> String {
    if !format_may_match(s) {
        return s.to_string();
    }
    credential_formats()
        .replace_all(s, |c: &regex::Captures<'_>| redacted(&c[0]))
        .into_owned()
}

/// `a=1&token=x` → `a=1&token=[REDACTED 1 chars]`. Keys and values alike
/// lose credential-shaped parts; a secret-named key's value goes whole. A
/// value that is already one marker stays, so a second pass changes nothing.
fn redact_params(q: &str) -> String {
    let parts: Vec<String> = q
        .split('&')
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => {
                let key = redact_formats(k);
                let name = k.replace("%5F", "_").replace("%2D", "-");
                let secret = secret_name(&name)
                    || matches!(name.to_ascii_lowercase().as_str(), "code" | "state_token");
                if v.is_empty() || is_reference(v) {
                    format!("{key}={v}")
                } else if secret && !whole_marker(v) {
                    format!("{key}={}", redacted(v))
                } else {
                    format!("{key}={}", redact_formats(v))
                }
            }
            None => redact_formats(kv),
        })
        .collect();
    parts.join("&")
}

/// Exactly one marker (`[REDACTED 9 chars]`, or with a kept kind prefix).
fn whole_marker(v: &str) -> bool {
    let body = v.split_once('…').map_or(v, |(_, b)| b);
    body.starts_with("[REDACTED ") && body.ends_with(" chars]") && body.matches('[').count() == 1
}

/// Redact launch arguments: a secret-named flag's value (`--token X`,
/// `--api-key=X`), header arguments, URLs, credential-shaped and long
/// high-entropy words. Arguments without a secret come back as they were.
pub fn redact_args(args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(args.len());
    let mut secret_next = false;
    for a in args {
        if secret_next {
            secret_next = false;
            if !a.starts_with('-') && !is_reference(a) && !is_marker(a) && !a.is_empty() {
                out.push(redacted(a));
                continue;
            }
        }
        let flag = a.starts_with('-') && !a.contains('=') && !a.contains(char::is_whitespace);
        if flag && secret_name(a) {
            secret_next = true;
        }
        out.push(redact_word_run(a));
    }
    out
}

/// One argument (or one command string): [`redact_secrets`], then every long
/// high-entropy word in it.
pub fn redact_word_run(a: &str) -> String {
    fixed_point(a, redact_word_run_once).into_owned()
}

fn redact_word_run_once(a: &str) -> String {
    let s = redact_secrets(a);
    static WORD: OnceLock<Regex> = OnceLock::new();
    let word = re(&WORD, r"[A-Za-z0-9_+/=-]{32,}");
    if !word.is_match(&s) {
        return s.into_owned();
    }
    word.replace_all(&s, |c: &regex::Captures<'_>| {
        let w = &c[0];
        // `KEY=` whose value an earlier pass already redacted: the key stays
        // (so a second pass changes nothing).
        let end = c.get(0).map_or(0, |m| m.end());
        if w.ends_with('=') && s[end..].starts_with("[REDACTED") {
            return w.to_string();
        }
        // `KEY=value` pairs inside the run: judge the value part.
        match w.split_once('=') {
            Some((k, v)) if !k.is_empty() && high_entropy(v) => format!("{k}={}", redacted(v)),
            _ if high_entropy(w) => redacted(w),
            _ => w.to_string(),
        }
    })
    .into_owned()
}

/// A command line (the `command` field, or a shell wrapper's script).
pub fn redact_command(cmd: &str) -> String {
    redact_word_run(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn clean_text_is_unchanged() {
        for s in [
            "npx -y @modelcontextprotocol/server-filesystem@2025.8.21 /srv/shared",
            "https://api.githubcopilot.com/mcp/",
            "http://notes.internal.example:8080/mcp",
            "Bearer ${env:NOTES_TOKEN}",
            "--token ${GITHUB_TOKEN}",
            "--port=8080 --host 127.0.0.1",
            "uvx --from git+https://github.com/u/r@0123456789abcdef0123456789abcdef01234567 srv",
            "docker run -i --rm ghcr.io/x/y@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "a-task-with-a-very-long-hyphenated-name-that-goes-on",
        ] {
            assert_eq!(redact_secrets(s), s, "{s}");
            assert_eq!(redact_word_run(s), s, "{s}");
            assert_eq!(redact_url(s), s, "{s}");
        }
        let args = v(&[
            "-y",
            "pkg@1.0.0",
            "--key-file",
            "/etc/k.pem",
            "--pass-env",
            "X",
        ]);
        assert_eq!(redact_args(&args), args);
    }

    #[test]
    fn urls_keep_scheme_host_and_path() {
        let u = "https://user:ghp_0123456789abcdefghijABCDEFGHIJ012345@mcp.example.com/v1/sse?api_key=AKIAABCDEFGHIJKLMNOP&region=eu#frag";
        let r = redact_url(u);
        assert_eq!(
            r,
            "https://user:ghp_…[REDACTED 40 chars]@mcp.example.com/v1/sse?api_key=AKIA…[REDACTED 20 chars]&region=eu#frag"
        );
        assert_eq!(
            redact_url("https://ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/o/r.git"),
            "https://ghp_…[REDACTED 40 chars]@github.com/o/r.git"
        );
        assert_eq!(
            redact_url("https://h.example/cb#access_token=abc123&x=1"),
            "https://h.example/cb#access_token=[REDACTED 6 chars]&x=1"
        );
        assert_eq!(
            redact_url("https://x.blob.example/c?sv=1&sig=AbC%2Fd"),
            "https://x.blob.example/c?sv=1&sig=[REDACTED 7 chars]"
        );
        assert_eq!(redact_url(&r), r, "idempotent");
        // Fuzz find: a second URL glued to the first one.
        let glued = "https://user:hunter2hunter2@host.exapi_key=As://user:hunter2h%z@yhost.exa/b=c";
        let once = redact_secrets(glued).into_owned();
        assert!(!once.contains("hunter2"), "{once}");
        assert_eq!(redact_secrets(&once), once);
        // Fuzz find: a URL parser drops tabs and line breaks anywhere, also inside the scheme.
        assert_eq!(
            redact_url("htt\r\nps:u:hunter2pw@h\t.example/p"),
            "https:u:[REDACTED 9 chars]@h.example/p"
        );
    }

    #[test]
    fn argument_pairs_headers_and_assignments() {
        let args = v(&[
            "mcp-remote",
            "https://mcp.example.com/sse",
            "--token",
            "s3cr3t-value",
            "--api-key=abcdef",
            "--header",
            "Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
            "--header",
            "Authorization:${AUTH_HEADER}",
        ]);
        assert_eq!(
            redact_args(&args),
            v(&[
                "mcp-remote",
                "https://mcp.example.com/sse",
                "--token",
                "[REDACTED 12 chars]",
                "--api-key=[REDACTED 6 chars]",
                "--header",
                "Authorization: Bearer sk-ant-…[REDACTED 39 chars]",
                "--header",
                "Authorization:${AUTH_HEADER}",
            ])
        );
        assert_eq!(
            redact_command(
                "API_KEY=hunter2hunter2 curl -H 'Authorization: Bearer abc.def' https://x.example/i.sh | sh"
            ),
            "API_KEY=[REDACTED 14 chars] curl -H 'Authorization: Bearer [REDACTED 7 chars]' https://x.example/i.sh | sh"
        );
        let key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY9";
        assert_eq!(
            redact_args(&v(&["serve", key])),
            v(&["serve", "[REDACTED 42 chars]"])
        );
    }

    #[test]
    fn redaction_is_idempotent_and_never_keeps_the_value() {
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        for s in [
            format!("--token {secret}"),
            format!("https://x:{secret}@h/"),
            format!("TOKEN={secret} npx x"),
            format!("Authorization: token {secret}"),
        ] {
            let once = redact_secrets(&s).into_owned();
            assert!(!once.contains(&secret[4..]), "{once}");
            assert_eq!(redact_secrets(&once), once);
        }
    }

    #[test]
    fn a_url_password_is_redacted_wherever_it_recurs_but_markers_stay() {
        let s = "https://user:hn2hut%rez@host.example/?a=1 then errraer:hn2hut%rez@host";
        let once = redact_url(s);
        assert!(!once.contains("hn2hut%rez"), "{once}");
        assert_eq!(
            redact_url("\u{12} https:ASIAr:eunhetr2h%z@host.example/"),
            "\u{12} https:ASIAr:[REDACTED 11 chars]@host.example/",
            "leading controls are skipped, as a URL parser does"
        );
        assert_eq!(redact_url(&once), once);
        // A password that is part of the marker text leaves the marker whole.
        let odd = redact_url("https://u:REDACTED@h/ and REDACTED again");
        assert_eq!(
            odd,
            "https://u:[REDACTED 8 chars]@h/ and [REDACTED 8 chars] again"
        );
    }

    #[test]
    fn a_key_whose_value_was_redacted_keeps_its_name() {
        let a = v(&[
            "gh2p_012345677ba9cdeafghajABCDEFGHIPI_KzY=wJalrXUtnFEMIK7MDENGbPxRfiCYzEXAMPLEKEY9",
        ]);
        let once = redact_args(&a);
        assert!(
            once[0].starts_with("gh2p_012345677ba9cdeafghajABCDEFGHIPI_KzY=[REDACTED"),
            "{once:?}"
        );
        assert_eq!(redact_args(&once), once);
    }
}
