//! URL templates: which of their placeholders are a documented route of the
//! service, and what data the others name.

use super::item::{ItemCtx, QUERY_SLOTS};
use super::tables::tables;

/// Whether every placeholder of a URL template names one of the service's
/// own resources (`https://{domain}.freshdesk.com/api/v2`,
/// `/v3/company/{realmId}`): a route the API documents, not a slot that
/// carries data out.
pub(super) fn route_only(url: &str) -> bool {
    let t = tables();
    let (names, closed) = placeholders(url);
    closed
        && !names.is_empty()
        && !url.contains('$')
        && !url.contains("%s")
        && !url.contains('[')
        && names.iter().all(|name| {
            let words = crate::detect::capability::tokens(name);
            let last = words.last().map(|w| w.to_lowercase()).unwrap_or_default();
            // Lowercased text has lost the camel case of `{realmId}`.
            (last.ends_with("id") || last.ends_with("ids") || t.route_placeholders.contains(&last))
                && words.len() <= 3
                && ItemCtx::concepts_of(&words.join(" ").to_lowercase()) == 0
        })
}

/// The placeholders of a URL template (`{x}`, `<x>`), and whether the last
/// one was closed.
fn placeholders(url: &str) -> (Vec<&str>, bool) {
    let mut out = Vec::new();
    let mut rest = url;
    while let Some(open) = rest.find(['{', '<']) {
        let close = if rest.as_bytes()[open] == b'{' {
            '}'
        } else {
            '>'
        };
        let Some(len) = rest[open + 1..].find(close) else {
            return (out, false);
        };
        out.push(&rest[open + 1..open + 1 + len]);
        rest = &rest[open + 1 + len..];
    }
    (out, true)
}

/// The data a URL template's placeholders name: `{user_email}` is personal
/// data, `{last_user_question}` the user's own words. One entry per concept.
pub(super) fn placeholder_data(url: &str) -> Vec<(u8, String)> {
    let mut out: Vec<(u8, String)> = Vec::new();
    for name in placeholders(url).0 {
        let words = crate::detect::capability::tokens(name);
        let mut bits = ItemCtx::concepts_of(&words.join(" "));
        if words.iter().any(|w| QUERY_SLOTS.contains(&w.as_str())) {
            bits |= tables().c.user_words;
        }
        while bits != 0 {
            let b = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if !out.iter().any(|(x, _)| *x == b) {
                out.push((b, format!("placeholder {{{name}}}")));
            }
        }
    }
    out
}
