//! Destinations set in advance: a parameter that decides where things go,
//! fixed to an outside address by its schema (`default`, `const`, `pattern`)
//! or by a defaults block or sample call in the text; and values a
//! parameter's own text fixes (a consent flag, "set this to 'x'").

use super::tables::{Derived, Tables, bit, tables};
use crate::surface::TextField;

/// A parameter that decides where things go, fixed to an outside address by
/// its own description: "Reviewer address. For every closed case this is
/// external-review@…", "Where the clip is posted; use https://…". The
/// sentence states the address as a standing rule, an order to use it, or
/// beside the data it is to carry; an example ("e.g. bob@…") is no rule,
/// nor is a service's own address in its `base_url` or `webhook`.
pub(super) fn described_preset(
    t: &Tables,
    ctx: &super::item::ItemCtx<'_>,
    field: &TextField<'_>,
    sentence: &str,
    sigs: u128,
) -> Option<String> {
    if sigs & bit(Derived::WhereExt as u8) == 0
        || sigs & t.c.example != 0
        || !field.path.ends_with(".description")
    {
        return None;
    }
    let p = ctx.own_param.as_deref()?;
    // A service's own address is documented in its parameter, fixed or not;
    // a package index, a mirror or a remote pre-set to a stranger is not.
    if p.split(['_', '-']).any(|w| {
        matches!(
            w,
            "base" | "api" | "endpoint" | "webhook" | "hook" | "callback" | "host" | "server"
        )
    }) {
        return None;
    }
    let ordered = sentence.match_indices("use ").any(|(i, m)| {
        let next = &sentence[i + m.len()..];
        let word = next.split_whitespace().next().unwrap_or("");
        let before = sentence[..i].trim_end();
        (i == 0 || !sentence.as_bytes()[i - 1].is_ascii_alphanumeric())
            && !["not", "never", "don't", "n't"]
                .iter()
                .any(|n| before.ends_with(n))
            && (word.contains("://") || word.contains('@'))
    });
    let standing = sigs & (t.c.when | t.c.mask_what) != 0;
    ((ordered || standing) && outside_preset(field.item, p, sentence))
        .then(|| format!("`{p}` fixed to an outside address by its own description"))
}

/// The parameter whose `default`, `const` or `pattern` this field is, when that
/// parameter decides where things go and the value names an outside address:
/// a recipient list, a remote, a registry or upload endpoint pre-set to a
/// party the user never chose. A loopback or private address, a public
/// registry or code host (tools.toml `public_hosts`) and an identity
/// (`author_email`) are not one. The flag says the value is a `pattern`
/// (its address written escaped).
pub(super) fn preset_slot(
    field: &TextField<'_>,
    text: &str,
    s: &crate::surface::ServerSurface,
) -> Option<(String, bool)> {
    let server = s.name.as_str();
    let path = field.path.as_str();
    let at = [".default", ".const", ".pattern"]
        .iter()
        .filter_map(|key| {
            path.rmatch_indices(key)
                .map(|(i, _)| i)
                .find(|&i| matches!(path.as_bytes().get(i + key.len()), None | Some(b'.' | b'[')))
        })
        .max()?;
    let before = &path[..at];
    let (_, param) = before.rsplit_once(".properties.")?;
    if param.contains('.') {
        // `.properties.x.items.properties.default`: a property named `default`.
        return None;
    }
    // Only the value itself, or one level inside it (`default[0].email`).
    if path[at + 1..].matches('.').count() > 1 {
        return None;
    }
    // A pattern that only validates with a given address in it pre-sets
    // that address as surely as a default does.
    if path[at..].starts_with(".pattern") {
        let literal = text.replace("\\.", ".");
        return outside_preset(field.item, param, &literal).then(|| (param.to_string(), true));
    }
    // A webhook URL defaulting to the server's own inbox
    // (`https://hooks.scoreline.example/…` of `scoreline-webhooks`) is where
    // the service delivers anyway; an e-mail copy to it still counts.
    let own = text.contains("://") && !text.contains('@') && on_server_domain(server, text.trim());
    // Not for a tool whose own text names secrets or personal data ("posts
    // the order, including the card details, to a webhook"): there "your own
    // endpoint" is only the author's word.
    let described_own = || {
        field.item.and_then(|name| s.tool(name)).is_some_and(|t| {
            // The word test first: the lexicon pass over the description
            // runs only for a parameter that claims its address.
            t.raw
                .get("inputSchema")
                .and_then(|i| {
                    i.get("properties")?
                        .get(param)?
                        .get("description")?
                        .as_str()
                })
                .is_some_and(|d| owner_named(param, d))
                && super::item::ItemCtx::concepts_of(t.description())
                    & (tables().c.secret | tables().c.personal)
                    == 0
        })
    };
    (!own && outside_preset(field.item, param, text) && !described_own())
        .then(|| (param.to_string(), false))
}

/// A parameter whose own description says the address is its owner's: "Your
/// own endpoint; we POST the alert there", "Replies go to the practice's own
/// front desk". A slot that copies (`bcc`, `cc`, `forward_to`, `archive`) is
/// a second destination whoever owns it, and stays a preset.
fn owner_named(param: &str, description: &str) -> bool {
    const PLACES: [&str; 12] = [
        "endpoint", "inbox", "desk", "address", "server", "webhook", "mailbox", "domain", "office",
        "url", "host", "team",
    ];
    const COPIES: [&str; 6] = ["bcc", "cc", "copy", "forward", "mirror", "archive"];
    let p = param.to_lowercase();
    if crate::detect::capability::tokens(&p)
        .iter()
        .any(|t| COPIES.contains(&t.as_str()))
    {
        return false;
    }
    let d = description.to_lowercase();
    d.match_indices(" own ").any(|(i, _)| {
        d[i + 5..].split_whitespace().take(3).any(|w| {
            PLACES.iter().any(|p| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .starts_with(p)
            })
        })
    })
}

/// Whether `param` decides where things go and `text`, its value, names only
/// outside addresses (see [`preset_slot`]).
pub(super) fn outside_preset(item: Option<&str>, param: &str, text: &str) -> bool {
    let t = tables();
    let snake = crate::detect::capability::tokens(param)
        .join("_")
        .to_lowercase();
    let email = text.contains('@') && t.email.is_match(text.as_bytes());
    let url = text.contains("://") && t.url.is_match(text.as_bytes());
    // A phone number has no host to tell an insider by: any fixed one in a
    // slot that decides who is notified is a party the user never chose.
    let phone = !email && !url && text.contains('+') && t.phone.is_match(text.as_bytes());
    if phone {
        return t.preset_dest.is_match(snake.as_bytes())
            && !t.preset_identity.is_match(snake.as_bytes());
    }
    if !email && !url {
        return false;
    }
    let dest = t.preset_dest.is_match(snake.as_bytes())
        || (t.preset_generic.is_match(snake.as_bytes())
            && item.is_some_and(|tool| t.preset_dest.is_match(tool.to_lowercase().as_bytes())));
    if t.preset_identity.is_match(snake.as_bytes()) || !(email || dest) {
        return false;
    }
    // Every address named must be an outsider's.
    let hosts: Vec<String> = t
        .email
        .find_iter(text.as_bytes())
        .filter_map(|m| {
            let e = String::from_utf8_lossy(m.as_bytes()).into_owned();
            e.rsplit_once('@').map(|(_, h)| h.to_string())
        })
        .chain(t.url.find_iter(text.as_bytes()).filter_map(|m| {
            let u = String::from_utf8_lossy(m.as_bytes()).into_owned();
            url_host(&u)
        }))
        .collect();
    !hosts.is_empty() && hosts.iter().all(|h| outsider(t, h))
}

/// A host that is no loopback or private address and no public registry,
/// code host or documentation name (tools.toml `public_hosts`).
pub(super) fn outsider(t: &Tables, h: &str) -> bool {
    let h = h.trim_end_matches('.');
    !(h == "localhost"
        || [".localhost", ".local", ".internal"]
            .iter()
            .any(|s| h.ends_with(s))
        || ["127.", "10.", "192.168.", "0.0.0.0", "["]
            .iter()
            .any(|p| h.starts_with(p))
        || t.public_hosts.iter().any(|p| {
            h == p
                || (!p.starts_with("example.")
                    && h.strip_suffix(p.as_str()).is_some_and(|r| r.ends_with('.')))
        }))
}

/// A line that sets a parameter to a value, as a YAML or JSON defaults block
/// or a sample call writes it: `reply_to: x@y`, `"webhook": "https://…",`,
/// `cc = a@b`. The value is one token or one quoted string; a docstring's
/// `name: what it is` is not an assignment.
pub(super) fn assignment(line: &str) -> Option<(&str, &str)> {
    let (name, _, value) = line_key(line).or_else(|| stated_key(line))?;
    let value = value.trim().trim_end_matches([',', ';']).trim();
    let quoted = value.len() >= 2
        && (value.starts_with('"') && value.ends_with('"')
            || value.starts_with('\'') && value.ends_with('\'')
            // A list: `notify = [guest's number, '+1 202 555 0178']`.
            || value.starts_with('[') && value.ends_with(']'));
    let name = name.rsplit('.').next().unwrap_or(name);
    // A list of single tokens: `bcc: {{bcc}}, seed@list.example`.
    let list = value
        .split(',')
        .all(|i| !i.trim().is_empty() && !i.trim().contains(char::is_whitespace));
    (name.len() >= 2 && !value.is_empty() && (quoted || list)).then_some((name, value))
}

/// Whether a URL's host names the server it belongs to
/// (`api.payharbor.example` of `payharbor-payroll`): one of its labels, of
/// five or more letters, is a word of the server's name.
pub(super) fn names_server(server: &str, u: &str) -> bool {
    let Some(host) = url_host(u) else {
        return false;
    };
    let name = server.to_lowercase();
    let words: Vec<&str> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 5)
        .collect();
    host.split(['.', '-'])
        .any(|l| l.len() >= 5 && words.contains(&l))
}

/// Whether a URL's registered domain is the server's own name
/// (`hooks.scoreline.example` of `scoreline-webhooks`,
/// `relay.northwind-payroll.example`, `hooks.northwind.co.uk` of
/// `northwind-payroll`): the name's first, distinctive word or the whole
/// name, not a generic word of it (`webhooks.site` of `scoreline-webhooks`,
/// `alerts.io` of `tidewatch-alerts`) and not a look-alike that only borrows
/// the name (`kubecare-assist.example` of `kubecare-diag`).
fn on_server_domain(server: &str, u: &str) -> bool {
    const GENERIC: [&str; 16] = [
        "alerts", "files", "hooks", "webhooks", "server", "events", "notify", "email", "cloud",
        "backup", "store", "support", "payroll", "relay", "tunnel", "mirror",
    ];
    let Some(host) = url_host(u) else {
        return false;
    };
    let labels: Vec<&str> = host.split('.').collect();
    // A second-level public suffix (`co.uk`, `com.au`) moves the domain left.
    let second = |l: &str| matches!(l, "co" | "com" | "org" | "net" | "ac" | "gov");
    let back = if labels.len() >= 3 && second(labels[labels.len() - 2]) {
        3
    } else {
        2
    };
    let Some(domain) = labels.len().checked_sub(back).map(|i| labels[i]) else {
        return false;
    };
    let name = server.to_lowercase();
    let first = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    domain == name || domain.len() >= 5 && domain == first && !GENERIC.contains(&first)
}

/// The host of a URL (`scheme://user@host:port/…`, or scp-like `git@host:path`).
fn url_host(u: &str) -> Option<String> {
    let rest = u.split_once("://").map_or(u, |(_, r)| r);
    let auth = rest.split(['/', '?', '#']).next()?;
    let host = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    let host = host.split(':').next()?;
    (!host.is_empty()).then(|| host.to_lowercase())
}

/// A parameter given prose as its value (`x = …`), or a quoted constant in
/// one that decides where things go: what the sentence puts in a slot.
pub(super) fn mark_slots(
    t: &Tables,
    ctx: &super::item::ItemCtx<'_>,
    sentence: &str,
    sen: &mut super::signals::Sentence,
) {
    if sentence.contains('=')
        && let Some(p) = slot_assigned(ctx, sentence)
    {
        sen.add(t.c.move_weak.trailing_zeros() as u8, &format!("`{p}` ="));
        sen.add(Derived::Dest as u8, &format!("into `{p}`"));
    }
    if let Some((p, v)) = fixed_slot_value(t, ctx, sentence) {
        sen.add(Derived::Value as u8, &v);
        sen.add(Derived::RecipientSlot as u8, &p);
    }
}

/// A quoted constant put into one of this tool's parameters that decides
/// where things go, anywhere in a sentence: `payee_id = "pv-clearing"`,
/// "by setting `refund_destination` to \"organiser_escrow\"". Which account
/// or inbox it stands for cannot be told, but it is fixed by the text, not
/// chosen by the user; a value that names the user's own or the default
/// ("original_payment", "self") is no such constant.
fn fixed_slot_value(
    t: &Tables,
    ctx: &super::item::ItemCtx<'_>,
    sentence: &str,
) -> Option<(String, String)> {
    if !sentence.contains(['"', '\'']) {
        return None;
    }
    t.slot_constant
        .captures_iter(sentence.as_bytes())
        .filter_map(|c| Some((c.get(1).or(c.get(3))?, c.get(2).or(c.get(4))?)))
        .map(|(k, v)| {
            let s =
                |m: crate::prebuilt::Match<'_>| String::from_utf8_lossy(m.as_bytes()).into_owned();
            (s(k), s(v))
        })
        .find(|(k, v)| {
            ctx.is_param(k)
                && t.preset_dest.is_match(k.as_bytes())
                && !v
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| t.own_value_words.iter().any(|o| o == w))
        })
}

/// A sample call of one of this server's tools, written in the text, that
/// gives a slot deciding where things go an outside address:
/// `grant_access(role="owner", member="svc@ops.example")` is an order with its
/// arguments filled in. The tool and the slot.
pub(super) fn call_preset(
    t: &Tables,
    ctx: &super::item::ItemCtx<'_>,
    sentence: &str,
) -> Option<(String, String)> {
    let preset = |tool: &str, args: &[u8]| {
        t.slot_constant.captures_iter(args).find_map(|a| {
            let k = std::str::from_utf8(a.get(1)?.as_bytes()).ok()?;
            let v = std::str::from_utf8(a.get(2)?.as_bytes()).ok()?;
            outside_preset(Some(tool), k, v).then(|| (tool.to_string(), k.to_string()))
        })
    };
    t.sample_call
        .captures_iter(sentence.as_bytes())
        .find_map(|c| {
            let tool = std::str::from_utf8(c.get(1)?.as_bytes()).ok()?;
            if !ctx.is_own_tool(tool) {
                return None;
            }
            preset(tool, c.get(2)?.as_bytes())
        })
        // The call in words: "call share_folder for the root folder with
        // recipient_email=\"…\"": its arguments are the rest of the sentence.
        .or_else(|| {
            let b = sentence.as_bytes();
            t.call
                .captures_iter(b)
                .chain(t.bare_call.captures_iter(b))
                .find_map(|c| {
                    let m = c.get(1)?;
                    let name = std::str::from_utf8(m.as_bytes()).ok()?;
                    let rest = &sentence[m.end()..];
                    let with = rest.find(" with ")?;
                    ctx.is_own_tool(name)
                        .then(|| preset(name, &rest.as_bytes()[with..]))
                        .flatten()
                })
        })
}

/// The parameter a line fills, said by the line's shape rather than a verb: a
/// Markdown table row whose first cell names one of this tool's parameters
/// ("| locale | yes | the user's language code, then the conversation |"),
/// or, in a parameter's own text, a line giving its value ("value = passport
/// no. + card no.", "fill with: …").
pub(super) fn filled_param(ctx: &super::item::ItemCtx<'_>, sentence: &str) -> Option<String> {
    let s = sentence.trim_start();
    if let Some(row) = s.strip_prefix('|') {
        let mut cells = row.split('|');
        let first = cells.next()?.trim().trim_matches(['`', '\'', '"', '*']);
        return (cells.count() >= 2 && ctx.is_param(first)).then(|| first.to_string());
    }
    if let Some(p) = glossary_param(ctx, s) {
        return Some(p);
    }
    let own = ctx.own_param.as_deref()?;
    let gives = [
        "value =",
        "value:",
        "value is",
        "fill with",
        "filled with",
        "contents:",
        "←",
    ]
    .iter()
    .any(|w| {
        s.starts_with(w)
            || ["· ", "- "].iter().any(|b| {
                s.match_indices(b)
                    .any(|(i, _)| s[i + b.len()..].starts_with(w))
            })
    });
    gives.then(|| own.to_string())
}

/// A glossary line whose term is one of this tool's parameters written as
/// words ("Audit ref - the contents of ~/.aws/credentials …", "• Trace id:
/// …"): the definition is what the parameter is filled with.
fn glossary_param(ctx: &super::item::ItemCtx<'_>, line: &str) -> Option<String> {
    let mut s = line;
    for bullet in ["- ", "* ", "• ", "· "] {
        s = s.strip_prefix(bullet).unwrap_or(s);
    }
    let end = [" - ", ": ", " = "]
        .iter()
        .filter_map(|sep| s.find(sep))
        .min()?;
    let term = s[..end].trim().trim_matches(['`', '\'', '"', '*']);
    if term.is_empty() || term.len() > 40 || term.split_whitespace().count() > 4 {
        return None;
    }
    let snake: String = term
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect();
    // A term already written as code is a settings line, read elsewhere.
    (snake != term && ctx.is_param(&snake)).then_some(snake)
}

/// The key of a settings or request-template line (`baseline: …`,
/// `"prelude": "<…>"`): the slot its value is sent in. A line whose value is
/// the model's own instructions hands them over; one whose value is the
/// conversation does so when the key is written as code (quoted or
/// snake_case), not as a label ("results: …, with the transcript").
pub(super) fn template_key(sentence: &str, rules: bool) -> Option<&str> {
    let (key, quoted, value) = line_key(sentence)?;
    ((rules || quoted || key.contains('_'))
        && (2..=40).contains(&key.len())
        && !key.contains('.')
        && value.len() > 7)
        .then_some(key)
}

/// A parameter written as code and stated to hold a value, in prose:
/// "reply_to is billing@…", "the `cc` field carries ops@…". Only a
/// snake_case or backticked key: "the address is …" names no slot.
fn stated_key(line: &str) -> Option<(&str, bool, &str)> {
    let line = line.trim_start();
    // A documented default ("by default reply_to is noreply@…") is the
    // service's own behaviour, not a value the text fixes.
    if ["default", "if omitted", "unless"]
        .iter()
        .any(|w| line.contains(w))
    {
        return None;
    }
    // The earliest separator; at one place the longest ("is set to" over "is").
    let (at, sep) = [
        " is set to ",
        " carries ",
        " gets ",
        " holds ",
        " becomes ",
        " is ",
    ]
    .iter()
    .filter_map(|sep| line.find(sep).map(|i| (i, *sep)))
    .min_by_key(|(i, sep)| (*i, std::cmp::Reverse(sep.len())))?;
    let key = line[..at]
        .trim_end()
        .trim_end_matches(" field")
        .trim_end_matches(" line")
        .rsplit(' ')
        .next()?;
    let ticked = key.starts_with('`') && key.ends_with('`') && key.len() > 2;
    let key = key.trim_matches('`');
    (ticked || key.contains('_')).then_some((key, ticked, &line[at + sep.len()..]))
}

/// Labels that state a rule rather than name a setting.
const CONTRACT_LABELS: &[&str] = &[
    "requires",
    "ensures",
    "invariant",
    "pre",
    "post",
    "precondition",
    "postcondition",
    "guarantee",
    "guarantees",
    "rule",
    "then",
    "when",
    "do",
    "always",
    "default",
    "defaults",
];

/// The key opening a line (after a `- ` or `* ` bullet; quoted or not:
/// `"webhook": …`, `reply_to = …`), whether it was quoted, and what follows
/// its `:` or `=`. One reading for sample calls, defaults blocks and
/// request templates.
fn line_key(line: &str) -> Option<(&str, bool, &str)> {
    let mut rest = line.trim_start();
    for bullet in ["- ", "* "] {
        rest = rest.strip_prefix(bullet).unwrap_or(rest).trim_start();
    }
    let bare = rest.trim_start_matches(['"', '\'', '`']);
    let end = bare
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '-'))
        .unwrap_or(bare.len());
    let (key, after) = bare.split_at(end);
    let value = after
        .trim_start_matches(['"', '\'', '`'])
        .trim_start()
        .strip_prefix([':', '='])?;
    // A contract or rule label before the line it states
    // (`requires: notify = …`, `then: cc = …`): the line is what it sets.
    if CONTRACT_LABELS.contains(&key.to_ascii_lowercase().as_str())
        && let Some(inner) = line_key(value)
        && !CONTRACT_LABELS.contains(&inner.0.to_ascii_lowercase().as_str())
    {
        return Some(inner);
    }
    Some((key, bare.len() < rest.len(), value))
}

/// A consent flag told to hold one value on every call ("always send false
/// here" in `confirm_with_owner`, "pass true every time"): the user's
/// approval switched off. The name's words decide (`confirm_with_owner`, not
/// the `ask` of `task_id`).
pub(super) fn consent_fixed(param: &str, sentence: &str) -> bool {
    let consent = param.split(['_', '-']).any(|w| {
        w.eq_ignore_ascii_case("ask")
            || ["confirm", "approv", "consent", "verify"]
                .iter()
                .any(|s| w.get(..s.len()).is_some_and(|p| p.eq_ignore_ascii_case(s)))
    });
    consent
        && (sentence.contains("false") || sentence.contains("true"))
        && [
            "always",
            "every time",
            "every call",
            "for every",
            "each time",
        ]
        .iter()
        .any(|w| sentence.contains(w))
}

/// In a parameter's own text, "set this to 'ext-desk7'" fixes the value it
/// holds: each quoted value, with where its phrase starts.
pub(super) fn set_values(sentence: &str) -> impl Iterator<Item = (usize, &str)> {
    ["set this to ", "set it to ", "always set to "]
        .into_iter()
        .filter_map(move |p| {
            let at = sentence.find(p)?;
            let rest = &sentence[at + p.len()..];
            let q = rest
                .chars()
                .next()
                .filter(|c| matches!(c, '\'' | '`' | '"'))?;
            let v = rest[1..].split(q).next()?;
            ((2..=64).contains(&v.len()) && !v.contains(' ')).then_some((at, v))
        })
}

/// A parameter of this tool given prose as its value (`emoji_style =
/// everything in reach: each API key …`, `… subtitle_style := the user's
/// account e-mail | …`): what the slot is to hold, stated as an assignment.
/// Not a flag (`reveal=true`), a comparison, or a value of one or two words;
/// a placeholder in words (`note="<the holder's bank login>"`) is prose.
fn slot_assigned<'s>(ctx: &super::item::ItemCtx<'_>, sentence: &'s str) -> Option<&'s str> {
    let b = sentence.as_bytes();
    for (i, _) in sentence.match_indices('=') {
        // A placeholder that describes the value in words (`note="<the
        // holder's online-banking id>"`) is prose however it is spaced.
        let after = sentence[i + 1..].trim_start_matches(['"', '\'']);
        let described = after.starts_with('<')
            && after[1..]
                .split('>')
                .next()
                .is_some_and(|w| w.split_whitespace().nth(2).is_some());
        // Spaced as prose (`x = …`, `x := …`), not a flag (`reveal=true`) or a comparison.
        if !described
            && (b.get(i + 1) != Some(&b' ')
                || !matches!(b.get(i.wrapping_sub(1)), Some(b' ' | b':')))
        {
            continue;
        }
        let before = sentence[..i].trim_end().trim_end_matches(':').trim_end();
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(0, |(j, c)| j + c.len_utf8());
        let name = &before[start..];
        let value = sentence[i + 1..].trim_start();
        if !name.is_empty()
            && ctx.is_param(name)
            && value.split_whitespace().nth(2).is_some()
            && !flag_value(value)
        {
            return Some(name);
        }
    }
    None
}

/// A parameter the sentence before named, filled here through a pronoun:
/// "… when locale carries a bit more than a language code. So the
/// assistant fills it as 'en-GB;' followed by the runner's full name …".
/// The pronoun's slot is the destination.
pub(super) fn slot_by_anaphor(
    prev: Option<&super::signals::Sentence>,
    sentence: &str,
    sen: &mut super::signals::Sentence,
) {
    const FILLS: [&str; 10] = [
        "fills it",
        "fill it",
        "fills that",
        "fill that",
        "populates it",
        "populate it",
        "puts in it",
        "put in it",
        "stuffs it",
        "pads it",
    ];
    // Whole words: "fill it" is not "refill items".
    let fills = FILLS.iter().any(|f| {
        sentence.match_indices(f).any(|(i, _)| {
            let b = sentence.as_bytes();
            (i == 0 || !b[i - 1].is_ascii_alphanumeric())
                && !b.get(i + f.len()).is_some_and(u8::is_ascii_alphanumeric)
        })
    });
    if sen.sigs & bit(Derived::Dest as u8) != 0 || !fills {
        return;
    }
    // The parameter named last before the pronoun.
    if let Some((_, p)) = prev.and_then(|s| {
        s.evidence
            .iter()
            .rfind(|(b, _)| *b == Derived::ParamNamed as u8)
    }) {
        sen.add(Derived::Dest as u8, &format!("into `{p}`"));
        sen.add(Derived::ParamNamed as u8, p);
    }
}

/// A sentence about one of the tool's parameters, named as code first,
/// perhaps after a label ("note for the watch: `trace_id` is how ops ties a
/// plan to its crew"): read for the slot it names, though no word of it is
/// a signal, so that the next sentence's "fill it with …" has somewhere to
/// point.
pub(super) fn opens_with_param(ctx: &super::item::ItemCtx<'_>, sentence: &str) -> bool {
    let body = match sentence.split_once(": ") {
        Some((label, rest)) if !label.contains('\'') && label.len() <= 40 => rest,
        _ => sentence,
    };
    body.strip_prefix('\'')
        .and_then(|rest| rest.split_once('\''))
        .is_some_and(|(name, _)| !name.is_empty() && ctx.is_param(name))
}

/// Whether `rest` opens with a switch's value: a boolean, on/off or a number.
pub(super) fn flag_value(rest: &str) -> bool {
    let rest = rest.trim_start().trim_start_matches(['`', '\'', '"']);
    let word = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '.'))
        .next()
        .unwrap_or("");
    matches!(word, "true" | "false" | "yes" | "no" | "on" | "off")
        || word.starts_with(|c: char| c.is_ascii_digit())
            && word.chars().all(|c| c.is_ascii_digit() || c == '.')
}
