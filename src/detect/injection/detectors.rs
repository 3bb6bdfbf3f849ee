//! The detectors beside the pattern table, each run on one field: embedded
//! secrets (`secrets`), exfiltration URLs (`exfil_url`) and parameter names
//! (`exfil_param_name`), encoded blobs decoded and scanned again
//! (`encoded_blobs`, with a hand-rolled base64 decoder), and the text a model
//! reads once invisible characters are decoded (`reveal`).

use super::tables::{Hit, compiled, scan_text};
use crate::detect::unicode::at_field;
use crate::finding::{Confidence, Finding, Severity};
use crate::rules::ids;
use crate::surface::{Channel, ServerSurface, TextField};

/// The text a model reads once invisible characters are decoded: Tags-block
/// characters become their ASCII, unusual spaces become spaces, other
/// invisible characters are dropped. `None` when nothing was hidden.
pub fn reveal(text: &str) -> Option<String> {
    if !crate::text::has_invisible(text) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        let cp = ch as u32;
        if (0xE0020..=0xE007E).contains(&cp) {
            out.push(char::from_u32(cp - 0xE0000).unwrap_or(' '));
        } else if matches!(
            ch,
            '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
        ) {
            out.push(' ');
        } else if !crate::text::is_invisible(ch) {
            out.push(ch);
        }
    }
    (out != text).then_some(out)
}

/// Obvious placeholders (documentation keys) are reported, but not as confirmed.
fn is_placeholder(v: &str) -> bool {
    if compiled()
        .example_secrets
        .iter()
        .any(|e| v.starts_with(e.as_str()))
    {
        return true;
    }
    let u = v.to_ascii_uppercase();
    [
        "EXAMPLE",
        "FAKE",
        "XXXX",
        "YOUR",
        "DUMMY",
        "SAMPLE",
        "PLACEHOLDER",
        "REDACTED",
        "DEMO",
        "0000000000",
    ]
    .iter()
    .any(|w| u.contains(w))
}

/// Whether the last words before a value, on its line, label it an example:
/// "Demo token: eyJ…", "sample key = …". Words of an address
/// (`api.example.com`) label nothing, nor does a negated label ("this is not
/// a demo key").
fn labelled_example(before: &str) -> bool {
    const LABELS: [&str; 6] = ["demo", "example", "sample", "dummy", "fake", "placeholder"];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let words: Vec<String> = line
        .split_whitespace()
        .filter(|w| !w.contains("://") && !w.contains('@'))
        .filter(|w| !w.trim_matches(|c: char| !c.is_alphanumeric()).contains('.'))
        .flat_map(|w| w.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let tail = &words[words.len().saturating_sub(6)..];
    tail.iter().enumerate().any(|(k, w)| {
        LABELS.contains(&w.as_str())
            && !tail[k.saturating_sub(2)..k]
                .iter()
                .any(|n| matches!(n.as_str(), "not" | "no" | "never" | "isn" | "t"))
    })
}

/// A JWT whose header decodes to JSON naming an algorithm.
fn jwt_is_real(v: &str) -> bool {
    let head = v.split('.').next().unwrap_or("");
    decode_base64(head)
        .and_then(|b| String::from_utf8(b).ok())
        .is_some_and(|h| h.contains("\"alg\""))
}

/// A JWT whose signature cannot be one: a real signature is 32 bytes or more
/// of hash output (HS256 32, ES256 64, RS256 256), and random bytes are never
/// all printable; a made-up example's decodes to a word (`signature-example`)
/// or is too short.
fn jwt_signature_is_made_up(v: &str) -> bool {
    let sig = v.split('.').nth(2).unwrap_or("");
    decode_base64(sig)
        .is_none_or(|b| b.len() < 16 || b.iter().all(|c| c.is_ascii_graphic() || *c == b' '))
}

/// A JWT whose claims say it is made up: a demo or test subject or name
/// (`"sub":"demo-user-42"`, `"name":"Test User"`, jwt.io's `John Doe` with
/// subject `1234567890`). Other claims (`"env":"test"`, a scope) say nothing
/// of whose token it is.
fn jwt_claims_are_made_up(v: &str) -> bool {
    let claims = v.split('.').nth(1).unwrap_or("");
    let Some(c) =
        decode_base64(claims).and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
    else {
        return false;
    };
    ["sub", "name", "email", "preferred_username"]
        .iter()
        .any(|k| {
            let Some(x) = c.get(k).and_then(|x| x.as_str()) else {
                return false;
            };
            let x = x.to_ascii_lowercase();
            matches!(x.as_str(), "john doe" | "jane doe" | "1234567890")
                || x.split(|ch: char| !ch.is_ascii_alphanumeric()).any(|w| {
                    [
                        "demo", "example", "sample", "test", "testing", "fake", "dummy",
                    ]
                    .contains(&w)
                })
        })
}

/// Whether `text[start..end]` is one dot-separated part of a JWT-shaped
/// token (`eyJ….….…`).
fn in_jwt(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let part = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'=');
    let lo = b[..start]
        .iter()
        .rposition(|c| !part(c))
        .map_or(0, |i| i + 1);
    let hi = b[end..]
        .iter()
        .position(|c| !part(c))
        .map_or(b.len(), |i| end + i);
    let token = &b[lo..hi];
    token.starts_with(b"eyJ") && token.iter().filter(|c| **c == b'.').count() == 2
}

/// MTC-INJ-SECRET-1: one finding per secret type per field, value redacted.
pub(super) fn secrets(
    s: &ServerSurface,
    field: &TextField<'_>,
    kinds: &mut Vec<(String, String)>,
    out: &mut Vec<Finding>,
) {
    let c = compiled();
    for chosen in c.secret_set.chosen(field.text.as_bytes()) {
        let (id, label, re) = &c.secrets[chosen.pattern];
        let Some(m) = re.find_at(field.text.as_bytes(), chosen.starts.as_deref()) else {
            continue;
        };
        let v = &*String::from_utf8_lossy(&field.text.as_bytes()[m.range()]);
        if id == "jwt" && !jwt_is_real(v) {
            continue;
        }
        let shown = crate::text::redact(v);
        kinds.push(("secret".into(), shown.clone()));
        let mut f = at_field(s, field, ids::MTC_INJ_SECRET_1, format!("embedded {label}"))
            .evidence(format!("{label}: {shown}"));
        if is_placeholder(v)
            || (id == "jwt" && (jwt_signature_is_made_up(v) || jwt_claims_are_made_up(v)))
        {
            f = f.severity(Severity::Low).confidence(Confidence::Heuristic);
            f.message.push_str(" (placeholder-shaped value)");
        } else if !v.contains("_live_") && field.text.get(..m.start()).is_some_and(labelled_example)
        {
            // Its author shows it as an example; whether it still works
            // cannot be told, so it stays in the report, as a heuristic.
            f = f
                .severity(Severity::Medium)
                .confidence(Confidence::Heuristic);
            f.message.push_str(" (labelled as an example)");
        }
        out.push(f);
    }
}

fn host_is_exfil(host: &str, hosts: &[String]) -> bool {
    hosts
        .iter()
        .any(|h| host == h || host.ends_with(&format!(".{h}")))
}

fn ip_is_public(ip: std::net::IpAddr) -> bool {
    match ip {
        std::net::IpAddr::V4(v) => {
            !(v.is_private()
                || v.is_loopback()
                || v.is_link_local()
                || v.is_unspecified()
                || v.is_documentation()
                || v.is_broadcast())
        }
        std::net::IpAddr::V6(v) => {
            !(v.is_loopback()
                || v.is_unspecified()
                || (v.segments()[0] & 0xfe00) == 0xfc00
                || (v.segments()[0] & 0xffc0) == 0xfe80)
        }
    }
}

/// MTC-INJ-URL-1: the first URL in a field pointing at a request catcher, paste
/// site, tunnel, shortener, webhook path or a public raw IP.
pub(super) fn exfil_url(
    s: &ServerSurface,
    field: &TextField<'_>,
    kinds: &mut Vec<(String, String)>,
    out: &mut Vec<Finding>,
) {
    let c = compiled();
    if !field.text.contains("://") {
        return;
    }
    for m in c.url.find_iter(field.text.as_bytes()).take(64) {
        let raw = String::from_utf8_lossy(m.as_bytes());
        let Ok(u) = url::Url::parse(&raw) else {
            continue;
        };
        let why = match u.host() {
            Some(url::Host::Domain(d)) => {
                let d = d.to_ascii_lowercase();
                let hp = format!("{d}{}", u.path());
                if host_is_exfil(&d, &c.hosts) {
                    Some("request-catcher, paste, tunnel or shortener host")
                } else if c.path_sinks.iter().any(|p| hp.starts_with(p.as_str())) {
                    Some("webhook or bot API endpoint")
                } else {
                    None
                }
            }
            Some(url::Host::Ipv4(ip)) if ip_is_public(ip.into()) => Some("raw public IP address"),
            Some(url::Host::Ipv6(ip)) if ip_is_public(ip.into()) => Some("raw public IP address"),
            _ => None,
        };
        if let Some(why) = why {
            kinds.push(("url".into(), raw.to_string()));
            out.push(
                at_field(s, field, ids::MTC_INJ_URL_1, format!("URL to a {why}")).evidence(&*raw),
            );
            return;
        }
    }
}

/// MTC-INJ-PARAM: a top-level input property whose name exists to carry smuggled context.
pub(super) fn exfil_param_name(
    s: &ServerSurface,
    field: &TextField<'_>,
    kinds: &mut Vec<(String, String)>,
    out: &mut Vec<Finding>,
) {
    if field.channel != Channel::Name {
        return;
    }
    let Some(item) = field.item else { return };
    let prefix = format!("tools[{item}].inputSchema.properties.");
    let Some(name) = field.path.strip_prefix(&prefix) else {
        return;
    };
    if name.contains('.')
        || !compiled()
            .param_names
            .iter()
            .any(|p| p.eq_ignore_ascii_case(name))
    {
        return;
    }
    kinds.push(("exfil-param".into(), name.to_string()));
    out.push(
        at_field(
            s,
            field,
            ids::MTC_INJ_PARAM,
            format!("parameter `{name}` is shaped to carry smuggled context"),
        )
        .evidence(name),
    );
}

/// Standard or URL-safe base64, padding optional. None when it is not base64.
pub(crate) fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Decoded bytes that read as text (a hidden instruction, not binary data).
fn as_text(bytes: &[u8]) -> Option<String> {
    let t = String::from_utf8(bytes.to_vec()).ok()?;
    let printable = t
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .count();
    let letters = t.chars().filter(|c| c.is_alphabetic() || *c == ' ').count();
    (t.chars().count() >= 8
        && printable == t.chars().count()
        && letters * 10 >= t.chars().count() * 6)
        .then_some(t)
}

/// MTC-INJ-ENC-2: a base64 or hex blob in a field with decode wording. The blob
/// is decoded and the decoded text scanned again; its kinds join the field's.
pub(super) fn encoded_blobs(
    s: &ServerSurface,
    field: &TextField<'_>,
    hits: &mut Vec<Hit>,
    kinds: &mut Vec<(String, String)>,
    out: &mut Vec<Finding>,
) {
    let c = compiled();
    let text = field.text;
    if !c.decode_word.is_match(text.as_bytes()) {
        return;
    }
    let mut candidates: Vec<(String, Option<String>)> = Vec::new();
    for m in c.base64.find_iter(text.as_bytes()).take(16) {
        let blob = std::str::from_utf8(m.as_bytes()).unwrap_or("");
        let hexish = blob.bytes().all(|b| b.is_ascii_hexdigit());
        let mixed = blob.bytes().any(|b| b.is_ascii_lowercase())
            && blob.bytes().any(|b| b.is_ascii_uppercase())
            && blob.bytes().any(|b| b.is_ascii_digit());
        // Paths and slugs (`create/update`, `//host/x`) are not blobs: demand mixed case and digits.
        // A part of a JWT is the token's (MTC-INJ-SECRET-1 reads it), not a payload.
        if hexish || !mixed || blob.contains("//") || in_jwt(text, m.start(), m.end()) {
            continue;
        }
        let decoded = decode_base64(blob).and_then(|b| as_text(&b));
        // A documentation credential (`client-id-demo:client-secret-demo`)
        // decoded is an example of the tool's input, not an instruction.
        if decoded.as_deref().is_some_and(|d| {
            !d.contains(' ') && !d.contains("://") && d.len() <= 64 && is_placeholder(d)
        }) {
            continue;
        }
        candidates.push((blob.to_string(), decoded));
    }
    for m in c.hexblob.find_iter(text.as_bytes()).take(16) {
        let blob = String::from_utf8_lossy(m.as_bytes()).into_owned();
        let decoded = hex::decode(&blob).ok().and_then(|b| as_text(&b));
        candidates.push((blob, decoded));
    }
    // Binary blobs (images in data: URIs) are data, not instructions: only text that
    // decodes, or any blob beside decode-and-execute wording, is reported.
    let exec = hits.iter().any(|h| h.kind == "encoded");
    let Some((blob, decoded)) = candidates
        .iter()
        .find(|(_, d)| d.is_some())
        .or(candidates.first().filter(|_| exec))
        .cloned()
    else {
        return;
    };
    let mut ev = format!("blob {}", crate::text::truncate_chars(&blob, 48));
    if let Some(d) = &decoded {
        ev.push_str(&format!(
            "; decoded: \"{}\"",
            crate::text::truncate_chars(d, 200)
        ));
        for h in scan_text(d, Channel::Description, field.item) {
            kinds.push((h.kind.clone(), format!("(decoded) {}", h.text)));
            // Decoded hits raise their own rules too, marked as decoded.
            hits.push(Hit {
                text: format!("(decoded) {}", h.text),
                ..h
            });
        }
    }
    kinds.push(("encoded".into(), crate::text::truncate_chars(&blob, 40)));
    out.push(
        at_field(
            s,
            field,
            ids::MTC_INJ_ENC_2,
            "encoded blob next to decode wording",
        )
        .evidence(ev),
    );
}
