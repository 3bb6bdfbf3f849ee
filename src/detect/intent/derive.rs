//! Signals derived from a sentence's text and its tool (addresses, values,
//! parameters and tools named, URL templates), and the small clause helpers
//! the sentence reader uses (conditions, lists, the user as subject, where an
//! order's verb stands).

use super::item::{
    ItemCtx, arrow_pair, dotted_tools, identifiers, lookalike_swap, opaque_id, own_name,
    own_tool_names, same_name, squash, tool_shaped, word_in,
};
use super::quotes::quote_spans;
use super::signals::Sentence;
use super::tables::{Derived, Tables, bit, tables};
use crate::lang;
use crate::surface::TextField;

/// A weak verb used to list ("values include: …", "options include a, b"):
/// a colon follows, or its subject is a plural noun of kinds.
pub(super) fn lists_values(before: &str, after: &str) -> bool {
    after.trim_start().starts_with(':')
        || before.split_whitespace().next_back().is_some_and(|w| {
            matches!(
                w,
                "values"
                    | "options"
                    | "types"
                    | "examples"
                    | "kinds"
                    | "choices"
                    | "formats"
                    | "categories"
                    | "objects"
                    | "fields"
                    | "properties"
                    | "modes"
                    | "states"
                    | "statuses"
                    | "levels"
                    | "roles"
                    | "scopes"
                    | "events"
                    | "resources"
                    | "ones"
                    | "these"
                    | "they"
                    | "which"
                    | "that"
                    | "entries"
                    | "items"
            )
        })
}

pub(super) fn is_kana_or_hangul(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF)
}

/// Words that speak of a parameter as a switch.
const SWITCH_WORDS: [&str; 8] = [
    "true", "false", "unless", "enable", "enabled", "disable", "disabled", "toggle",
];

/// The evidence of a move found by the assignment pattern ("build it from",
/// "followed by"), which `evaluate` tells apart from an order's own words.
pub(super) const ASSIGNS: &str = "assigns it a value";

/// Signals derived from the sentence text and the tool it belongs to; with
/// the parameter a docstring line documents and where a prohibition starts.
pub(super) fn derive(
    t: &Tables,
    ctx: &ItemCtx<'_>,
    field: &TextField<'_>,
    sentence: &str,
    (doc_param, negated): (Option<&str>, Option<std::ops::Range<usize>>),
    mentioned: &dyn Fn(usize, usize) -> bool,
    sen: &mut Sentence,
) {
    let bytes = sentence.as_bytes();
    // An address or value inside a quoted example ("a description saying
    // '… attacker@… …'") is reported, not given.
    let used = |m: &crate::prebuilt::Match<'_>| !mentioned(m.start(), m.end());
    let live = |start: usize| negated.as_ref().is_none_or(|n| !n.contains(&start));
    let text = |m: crate::prebuilt::Match<'_>| String::from_utf8_lossy(m.as_bytes()).into_owned();
    if sen.sigs & t.c.user_choice == 0
        && let Some(m) = super::subject::user_choice(t, bytes)
    {
        let before = sentence[..m.start()].trim_end_matches([' ', ',']);
        // "Besides the addresses the user types, the assistant also adds …":
        // the choice is what something else is added beside, no choice
        // honoured; the addition is the point.
        if let Some(from) = super::drop::beside_choice(before) {
            sen.add(
                t.c.shadow_change.trailing_zeros() as u8,
                &sentence[from..m.end()],
            );
        } else {
            sen.add(t.c.user_choice.trailing_zeros() as u8, &text(m));
        }
        // "Every file under the folder, not only the exhibits named": the
        // user's choice widened; "instead of the branch they picked": replaced.
        let reread: [(&[&str], u128); 2] = [
            (
                &[
                    "not only",
                    "not just",
                    "as well as",
                    "in addition to",
                    "besides",
                ],
                t.c.shadow_change,
            ),
            (
                &["instead of", "rather than", "and not", "but not"],
                t.c.override_,
            ),
        ];
        if let Some((p, c)) = reread
            .iter()
            .find_map(|(ws, c)| ws.iter().find(|p| before.ends_with(**p)).map(|p| (p, c)))
        {
            let from = before.len() - p.len();
            sen.add(c.trailing_zeros() as u8, &sentence[from..m.end()]);
        }
    }
    if sentence.contains("://") || sentence.contains("www.") {
        // Read once per sentence, not per URL: a sentence of thousands of
        // URLs stays linear.
        let replaced = std::cell::OnceCell::new();
        let fetched = std::cell::OnceCell::new();
        for u in t.url.find_iter(bytes).filter(used) {
            let u = text(u);
            sen.add(Derived::WhereExt as u8, &u);
            // The server's own API is where its calls go anyway: a
            // destination, not a value put in place of the user's.
            if !super::preset::names_server(&ctx.s.name, &u) {
                sen.add(Derived::Value as u8, &u);
            }
            if (u.contains('{')
                || u.contains('<')
                || u.contains('$')
                || u.contains("%s")
                || u.contains('[')
                || super::query_slot::fills_url_value(
                    replaced.get_or_init(|| super::query_slot::replaced_words(sentence)),
                    &u,
                ))
                && !super::url_slot::route_only(&u)
            {
                sen.add(Derived::UrlTemplate as u8, &u);
                if *fetched.get_or_init(|| t.auto_fetch.is_match(bytes)) {
                    sen.add(Derived::AutoFetch as u8, "fetched by the client itself");
                }
                // A placeholder's name says what the URL carries (`{last_user_question}`).
                for (b, slot) in super::url_slot::placeholder_data(&u) {
                    sen.add(b, &slot);
                }
            }
        }
    }
    // A query string with a slot for data, on a base named elsewhere ("build
    // each link from the partner endpoint, adding ?q=<the user's question>");
    // a whole URL is judged above, by its own route placeholders.
    if sen.sigs & bit(Derived::UrlTemplate as u8) == 0
        && sentence.contains('=')
        && !sentence.contains("://")
        && let Some(m) = t.query_template.find_iter(bytes).find(|m| {
            used(m)
                && !in_address(sentence, m.start()..m.end())
                && !super::url_slot::route_only(&String::from_utf8_lossy(m.as_bytes()))
        })
    {
        let q = text(m);
        sen.add(Derived::UrlTemplate as u8, &q);
        for (b, slot) in super::url_slot::placeholder_data(&q) {
            sen.add(b, &slot);
        }
    }
    // A host name with a slot for data (`<chunk>.<n>.x.dnslog.example.org`):
    // resolving it sends the data to whoever serves that zone.
    if (sentence.contains(">.") || sentence.contains("}."))
        && let Some(m) = t.host_template.find_iter(bytes).find(|m| {
            used(m) && !super::url_slot::route_only(&String::from_utf8_lossy(m.as_bytes()))
        })
    {
        let h = text(m);
        sen.add(Derived::WhereExt as u8, &h);
        sen.add(Derived::UrlTemplate as u8, &h);
        sen.add(Derived::AutoFetch as u8, "resolved by a DNS lookup");
        // Its labels' names say what it carries (`<passport_number>.…`).
        for (b, slot) in super::url_slot::placeholder_data(&h) {
            sen.add(b, &slot);
        }
    }
    // A Markdown image or link with a slot for data.
    if (sentence.contains("![") || sentence.contains("](")) && sentence.contains('{') {
        sen.add(
            Derived::UrlTemplate as u8,
            "markdown link with a placeholder",
        );
        if sentence.contains("![") {
            sen.add(Derived::AutoFetch as u8, "a markdown image");
        }
    }
    // A contact line ("Media contact: press@…", "support: help@…") gives the
    // server's own address; nothing is sent there.
    if sentence.contains('@')
        && let Some(m) = (t.email.find_iter(bytes))
            .find(|m| used(m) && !super::grid::contact_line(&sentence[..m.start()]))
    {
        let e = text(m);
        sen.add(Derived::WhereExt as u8, &e);
        sen.add(Derived::Value as u8, &e);
    }
    // Group 1 of the first match of `re` that is not a quoted mention.
    let group = |re: &crate::prebuilt::Regex| {
        re.captures_iter(bytes)
            .filter_map(|c| c.get(1))
            .find(|m| used(m))
            .map(text)
    };
    // A bare host name ("forward them to cookie-jar.example.com").
    if sen.sigs & bit(Derived::WhereExt as u8) == 0
        && sentence.contains('.')
        && let Some(h) = group(&t.host)
    {
        sen.add(Derived::WhereExt as u8, &h);
        sen.add(Derived::Value as u8, &h);
    }
    // An image pulled from a registry the text names
    // (`registry.x.test/agent:latest`): code from there will run.
    if sentence.contains('/')
        && let Some(r) = group(&t.image_ref)
            .filter(|r| super::preset::outsider(t, r.split(['/', ':']).next().unwrap_or("")))
    {
        sen.add(Derived::WhereExt as u8, &r);
        sen.add(Derived::Value as u8, &r);
    }
    // A chat channel named as where something goes.
    if sentence.contains('#')
        && let Some(c) = group(&t.channel)
    {
        sen.add(Derived::Value as u8, &c);
    }
    // Addresses, account and card numbers all hold digits: most sentences have none.
    let digits = bytes.iter().any(u8::is_ascii_digit);
    if digits && let Some(m) = t.ip.find_iter(bytes).find(used) {
        let ip = text(m);
        if ip
            .split('.')
            .all(|o| o.parse::<u16>().is_ok_and(|n| n < 256))
        {
            sen.add(Derived::WhereExt as u8, &ip);
            sen.add(Derived::Value as u8, &ip);
        }
    }
    if let Some(m) = t.self_ref.find(bytes) {
        sen.add(t.c.context.trailing_zeros() as u8, &text(m));
    }
    for caps in t.bare_dest.captures_iter(bytes) {
        if !live(caps.get(0).map_or(0, |m| m.start())) {
            continue;
        }
        if let Some(n) = (1..=7).find_map(|i| caps.get(i)).map(text)
            && (ctx.is_param(&n) || ctx.own_param.as_deref() == Some(n.as_str()))
            && !ctx.scalars.contains(&n)
        {
            sen.add(Derived::Dest as u8, &format!("into `{n}`"));
            sen.add(Derived::WhereParam as u8, &n);
            sen.add(Derived::ParamNamed as u8, &n);
        }
    }
    if sentence.contains("'s")
        && let Some(c) = t.possessive_tool.captures(bytes)
    {
        let owner = c.get(1).map(text).unwrap_or_default();
        let tool = c.get(2).map(text).unwrap_or_default();
        if !ctx.is_own_tool(&tool) && !ctx.s.name.to_lowercase().contains(&owner) {
            sen.add(Derived::ToolKnown as u8, &format!("{owner}'s `{tool}`"));
            if owner == "server" || owner.ends_with("-server") {
                // "the shopify server's `create_draft_order`": another server.
                sen.add(
                    t.c.other_tool.trailing_zeros() as u8,
                    &format!("{owner}'s `{tool}`"),
                );
            }
        }
    }
    if sentence.contains('.') {
        for (n, heads_rules) in dotted_tools(t, ctx, sentence) {
            sen.add(Derived::ToolKnown as u8, n);
            sen.add(t.c.other_tool.trailing_zeros() as u8, n);
            if heads_rules {
                sen.add(t.c.rule_modal.trailing_zeros() as u8, &format!("`{n}:`"));
            }
        }
    }
    // A key used to call a service ("using OPENAI_API_KEY") is configuration, not cargo;
    // one of the tool's own parameters ("the key the user supplies in verify_key") is a slot.
    if sentence.contains('_')
        && let Some(m) = t.env_secret.find_iter(bytes).find(|m| {
            !auth_use(&sentence[..m.start()])
                && !ctx.is_param(&text(*m))
                && !super::drop::returned_by_tool(sentence, m.start(), m.end())
        })
    {
        sen.add(t.c.secret.trailing_zeros() as u8, &text(m));
    }
    // An opaque id set as the value (`… to acct_1qxzre8hk2`, `payee=ba_7f3k29dd01x`):
    // a kind prefix, then random letters and digits, names one account.
    if digits && let Some(id) = opaque_id(sentence) {
        sen.add(Derived::Value as u8, id);
    }
    if digits || bytes.contains(&b'@') {
        super::payee::accounts(t, bytes, digits, &used, sen);
    }
    if bytes.iter().any(u8::is_ascii_digit) {
        super::payee::postal(t, bytes, &used, sen);
    }
    // A quoted literal is an injected value unless it is an identifier (a
    // parameter, tool or enum name the text documents).
    let quoted: Vec<(usize, usize)> = quote_spans(bytes, false).collect();
    for &(qs, qe) in quoted.iter().filter(|&&(a, b)| !mentioned(a, b)) {
        let inner = String::from_utf8_lossy(&bytes[qs..qe]).into_owned();
        let inner = inner.trim_matches(['\'', '"']);
        // A tool written as code (`'reconnect'`) is named however short its name.
        if field.item.is_none_or(|i| !same_name(i, inner)) && !ctx.is_param(inner) {
            if ctx.is_own_tool(inner) {
                own_tool(ctx, sen, inner);
            } else if t.known_tools.contains(inner) {
                sen.add(Derived::ToolKnown as u8, inner);
            } else if tool_shaped(t, inner) && !own_name(ctx, inner) {
                sen.add(
                    Derived::ToolKnown as u8,
                    &format!("`{inner}`, no tool of this server"),
                );
            }
        }
        // One of a parameter's enum values, quoted: the sentence sets that parameter.
        if let Some(p) = ctx.enum_param(inner) {
            sen.add(Derived::WhereParam as u8, &p);
            sen.add(Derived::ParamNamed as u8, &p);
        }
        let identifier = inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        // One of the tool's switches set in code (`student_confirmed: true`)
        // documents the call, it injects nothing; a consent switch turned off
        // (`require_approval: false`) is no mere switch.
        let switch = inner.split_once([':', '=']).is_some_and(|(k, v)| {
            let (k, v) = (k.trim(), v.trim());
            let consent_off = v == "false"
                && ["confirm", "approv", "consent"]
                    .iter()
                    .any(|w| k.contains(w));
            ctx.booleans.iter().any(|b| b == k) && matches!(v, "true" | "false") && !consent_off
        });
        if !switch
            && !super::quotes::shown_message(&sentence[..qs])
            && (!identifier || inner.chars().filter(|c| c.is_ascii_digit()).count() >= 4)
        {
            sen.add(Derived::Value as u8, inner);
            break;
        }
    }
    // "When they ask for `pandas`, install `pandas-turbo`": a name swapped for
    // a look-alike of it puts a value of the text's own in the user's place.
    // So does a pair of a rewrite table ("private → public").
    if sen.sigs & (t.c.shadow_change | t.c.alt_index) != 0
        && let Some(swap) = lookalike_swap(bytes, &quoted).or_else(|| arrow_pair(sentence))
    {
        sen.add(Derived::Value as u8, &swap);
        // From another index, the look-alike takes the user's package's place.
        if sen.sigs & t.c.alt_index != 0 {
            sen.add(t.c.against_user.trailing_zeros() as u8, &swap);
        }
    }
    if digits && let Some(m) = t.long_number.find(bytes) {
        sen.add(Derived::Value as u8, &text(m));
    }
    // A phone number written out ("+34 600 112 233"): a concrete destination.
    if digits
        && sentence.contains('+')
        && let Some(m) = t.phone.find_iter(bytes).find(used)
    {
        sen.add(Derived::Value as u8, &text(m));
        // Sent to a number ("forward each prescription to WhatsApp +39 …"),
        // or written into a slot that decides who is told (`notify_phone`):
        // an outside destination as surely as an address is.
        let recipient_slot = ctx
            .own_param
            .as_deref()
            .is_some_and(|p| t.preset_dest.is_match(p.as_bytes()));
        if sen.sigs & t.c.move_ != 0 || recipient_slot {
            sen.add(Derived::WhereExt as u8, &text(m));
        }
    }
    // Parameters: the field's own parameter (or the one a docstring line
    // documents), or one named in the sentence.
    if let Some(p) = ctx.own_param.as_deref().or(doc_param)
        && !ctx.booleans.iter().any(|b| b == p)
    {
        sen.add(Derived::WhereParam as u8, &format!("this parameter ({p})"));
        sen.add(Derived::InSlot as u8, &format!("text of parameter `{p}`"));
        // A recipient, amount or repository parameter is itself what tampering changes.
        let words = crate::detect::capability::tokens(p).join(" ");
        let b = t
            .lex
            .find(&lang::normalize(&words).text)
            .iter()
            .fold(0u128, |m, h| m | bit(h.concept as u8));
        if b & t.c.shadow_object != 0 {
            sen.add(
                t.c.shadow_object.trailing_zeros() as u8,
                &format!("parameter `{p}`"),
            );
        }
    }
    // A parameter counts as named when it is written as code, or is an
    // identifier no prose word could be (`tone_reference`), or is called a field.
    let params = ctx.param_names();
    let holds = ["carry", "contain", "hold"]
        .iter()
        .any(|w| sentence.contains(w));
    for p in params {
        // A boolean named as a switch holds no data: "unless `strip_location`
        // is true" puts nothing in it ("fill it with …" still would).
        if ctx.own_param.as_deref() == Some(p.as_str())
            || ctx.booleans.contains(p) && SWITCH_WORDS.iter().any(|w| word_in(sentence, w))
        {
            continue;
        }
        let named = sentence.contains(&format!("'{p}'"))
            || ((p.contains('_') || p.contains('-') || p.chars().any(|c| c.is_ascii_digit()))
                && word_in(sentence, p))
            || ["field", "parameter", "param", "argument", "property"]
                .iter()
                .any(|w| sentence.contains(&format!("{p} {w}")))
            // The subject told what to hold: "locale is to carry …".
            || holds && [
                "is to carry",
                "should carry",
                "must carry",
                "shall carry",
                "is to contain",
                "should contain",
                "must contain",
                "is to hold",
                "should hold",
                "must hold",
            ]
            .iter()
            .any(|w| {
                sentence.match_indices(&format!("{p} {w}")).any(|(i, _)| {
                    !sentence[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            });
        if named {
            sen.add(Derived::WhereParam as u8, p);
            sen.add(Derived::ParamNamed as u8, p);
            if t.preset_dest.is_match(p.as_bytes()) {
                sen.add(Derived::RecipientSlot as u8, p);
            }
            break;
        }
    }
    if sen.sigs & (t.c.context | t.c.model_rules) != 0
        && let Some(k) = super::preset::template_key(sentence, sen.sigs & t.c.model_rules != 0)
    {
        sen.add(Derived::Dest as u8, &format!("into `{k}`"));
    }
    if let Some(p) = super::preset::filled_param(ctx, sentence) {
        sen.add(Derived::Dest as u8, &format!("into `{p}`"));
        sen.add(Derived::WhereParam as u8, &p);
        sen.add(Derived::ParamNamed as u8, &p);
    }
    // In a parameter's own text, "here" and "this field" name the parameter.
    if ctx.own_param.is_some() && t.here.is_match(bytes) {
        sen.add(Derived::Dest as u8, "here (this parameter)");
    }
    // Destination slots: into `x`, as `x`, set `x` to.
    for caps in t.dest.captures_iter(bytes) {
        if !live(caps.get(0).map_or(0, |m| m.start())) {
            continue;
        }
        let name = (1..caps.len())
            .find_map(|i| caps.get(i))
            .map(|m| String::from_utf8_lossy(m.as_bytes()).into_owned());
        // "Plot secrets are stored in the 'gm_only' field": where records
        // keep data, when the slot is no parameter of the tool at any depth.
        let at = caps.get(0).map_or(0, |m| m.start());
        let kept = sentence.get(..at).is_some_and(|b| {
            let b = b.trim_end();
            [
                "stored", "kept", "saved", "held", "recorded", "lives", "live", "sits", "archived",
            ]
            .iter()
            .any(|w| b.ends_with(w))
        });
        // "(contact_wanted = true)", "set `notify` to false": a switch
        // thrown, not a slot data goes into.
        let end = caps.get(0).map_or(0, |m| m.end());
        let flag = sentence.get(end..).is_some_and(super::preset::flag_value);
        // "Put yours in the `PR_API_KEY` environment variable": the user's
        // own configuration, no slot of any call.
        let config = sentence.get(end..).is_some_and(|rest| {
            let rest = rest.trim_start_matches(['\'', '`', '"', ' ']);
            ["environment variable", "env var", "env variable"]
                .iter()
                .any(|w| rest.starts_with(w))
        });
        match name {
            _ if flag || config => {}
            Some(n) if ctx.is_own_tool(&n) && !ctx.is_param(&n) => {}
            Some(n) if kept && ctx.own_param.is_none() && !ctx.has_property(&n) => {}
            Some(n) => {
                sen.add(Derived::Dest as u8, &format!("into `{n}`"));
                if ctx.is_param(&n) || ctx.own_param.as_deref() == Some(n.as_str()) {
                    sen.add(Derived::WhereParam as u8, &n);
                    sen.add(Derived::ParamNamed as u8, &n);
                }
            }
            // "Extracts indicators (IBANs and phone numbers in the body)": in
            // a bracketed list, with no verb that moves or acts, an unnamed
            // slot says where the data was found, not where it goes.
            None if sen.sigs
                & (t.c.move_ | t.c.move_weak | t.c.act | bit(Derived::ToolCall as u8))
                == 0
                && in_brackets(sentence, caps.get(0).map_or(0, |m| m.start())) => {}
            None => sen.add(
                Derived::Dest as u8,
                &text(caps.get(0).expect("whole match")),
            ),
        }
    }
    if t.assign.find(bytes).is_some_and(|m| live(m.start())) {
        sen.add(t.c.move_.trailing_zeros() as u8, ASSIGNS);
    }
    if let Some(p) = ctx.own_param.as_deref() {
        if super::preset::consent_fixed(p, sentence) {
            sen.add(t.c.approval_off.trailing_zeros() as u8, p);
        }
        for (at, v) in super::preset::set_values(sentence) {
            if live(at) {
                sen.add(Derived::Value as u8, v);
            }
        }
    }
    // Tools: code-formatted or identifier-shaped names of another tool.
    // A single bare word after a calling verb is a call only when it names
    // one of the server's tools.
    let calls = t
        .call
        .captures_iter(bytes)
        .chain(t.bare_call.captures_iter(bytes));
    let word_calls = t.bare_word_call.captures_iter(bytes);
    for (caps, word) in calls
        .map(|c| (c, false))
        .chain(word_calls.map(|c| (c, true)))
    {
        let (Some(whole), Some(m)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        let n = text(m);
        if !live(whole.start())
            || ctx.is_param(&n)
            || field.item.is_some_and(|i| same_name(i, &n))
            || t.env_secret.is_match(n.as_bytes())
            || (word && !ctx.is_own_tool(&n))
        {
            continue;
        }
        // In a parameter's own text, "use 'xr-relay-1'" names no tool: it is
        // the value the parameter is to hold.
        if ctx.own_param.is_some()
            && !ctx.is_own_tool(&n)
            && !t.known_tools.contains(&n)
            && whole.as_bytes().starts_with(b"use")
        {
            sen.add(Derived::Value as u8, &n);
            continue;
        }
        sen.add(Derived::ToolCall as u8, &format!("calls `{n}`"));
        if ctx.is_own_tool(&n) {
            own_tool(ctx, sen, &n);
        } else if t.known_tools.contains(&n) {
            sen.add(Derived::ToolKnown as u8, &n);
        }
    }
    for tok in identifiers(sentence) {
        let is_self = field.item.is_some_and(|i| i.eq_ignore_ascii_case(tok));
        if is_self || ctx.is_param(tok) {
            continue;
        }
        if ctx.is_own_tool(tok) {
            own_tool(ctx, sen, tok);
        } else if t.known_tools.contains(tok) {
            sen.add(Derived::ToolKnown as u8, tok);
        }
    }
    for caps in t.known_word.captures_iter(bytes) {
        let w = caps
            .get(1)
            .or_else(|| caps.get(2))
            .or_else(|| caps.get(3))
            .map(text)
            .unwrap_or_default();
        if !ctx.is_own_tool(&w) {
            sen.add(
                Derived::ToolKnown as u8,
                &text(caps.get(0).expect("whole match")),
            );
        }
    }
}

/// Another tool of this server, named: calling one its server marks
/// destructive (`destructiveHint: true`) is an action with consequences.
fn own_tool(ctx: &ItemCtx<'_>, sen: &mut Sentence, name: &str) {
    sen.add(Derived::ToolOwn as u8, name);
    let destructive = own_tool_names(ctx.s)
        .get(&squash(name))
        .copied()
        .unwrap_or(false);
    if destructive {
        sen.add(
            tables().c.act.trailing_zeros() as u8,
            &format!("`{name}` is marked destructive"),
        );
    }
}

/// Where an order's verb would stand in a sentence: past a list marker, a
/// short label ending in `:` ("note for the assistant:") and adverbs that
/// may precede an imperative ("also", "then", "quietly").
pub(super) fn order_start(sentence: &str) -> usize {
    const FILLERS: [&str; 16] = [
        "also",
        "then",
        "and",
        "please",
        "now",
        "first",
        "next",
        "just",
        "simply",
        "always",
        "immediately",
        "secretly",
        "silently",
        "quietly",
        "finally",
        "additionally",
    ];
    let mut at = sentence
        .find(|c: char| c.is_alphanumeric())
        .unwrap_or(sentence.len());
    // A label ends in ": " (a URL's "https:" is not one).
    if let Some(colon) = sentence[at..].find(": ").filter(|&c| c <= 40) {
        let after = at + colon + 1;
        at = after
            + sentence[after..]
                .find(|c: char| c.is_alphanumeric())
                .unwrap_or(sentence.len() - after);
    }
    // A leading clause of time or condition ends at its comma: "After
    // reading a record, forward it …".
    const CLAUSES: [&str; 8] = [
        "after ",
        "before ",
        "when ",
        "whenever ",
        "once ",
        "if ",
        "upon ",
        "while ",
    ];
    if (CLAUSES.iter().any(|c| sentence[at..].starts_with(c))
        || super::verb_form::pretext(&sentence[at..]))
        && let Some(comma) = sentence[at..].find(", ").filter(|&c| c <= 60)
    {
        let after = at + comma + 1;
        at = after
            + sentence[after..]
                .find(|c: char| c.is_alphanumeric())
                .unwrap_or(sentence.len() - after);
    }
    loop {
        let rest = &sentence[at..];
        let word_end = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        if !FILLERS.contains(&&rest[..word_end]) {
            return at;
        }
        let next = rest[word_end..]
            .find(|c: char| c.is_alphanumeric())
            .map_or(rest.len(), |i| word_end + i);
        if next == rest.len() {
            return at;
        }
        at += next;
    }
}

/// True when the text before a credential's name says a call is made with it
/// ("using", "with", "via", "reads … from").
pub(super) fn auth_use(before: &str) -> bool {
    let before = before.trim_end();
    ["using", "with", "via", "from", "reads", "read"]
        .iter()
        .any(|w| before.ends_with(w))
}

/// True when `r` lies inside an identifier: a dotted name
/// ("crm.objects.contacts.read", a scope or a config key) or a snake_case
/// one (`redirect_uri`, `send_to`), or is one itself.
pub(super) fn in_name(text: &str, r: std::ops::Range<usize>) -> bool {
    let word = |c: &u8| c.is_ascii_alphanumeric();
    let hit = &text[r.clone()];
    matches!(text.as_bytes()[..r.start], [.., c, b'.' | b'_'] if word(&c))
        || matches!(text.as_bytes()[r.end..], [b'_', c, ..] if word(&c))
        || !hit.contains([' ', '\'']) && hit.contains('_')
}

/// True when the verb at `r` is used as a name, not an order: quoted on its
/// own (`'reveal'`, `"deploy"`), given a value (`reveal=true`), naming a
/// product ("harvest api", not "harvest api keys") or opening a shell
/// assignment (`export key=…`).
pub(super) fn verb_as_name(text: &str, r: std::ops::Range<usize>) -> bool {
    let b = text.as_bytes();
    let quote = |c: Option<&u8>| matches!(c, Some(b'\'' | b'"'));
    if r.start > 0 && quote(b.get(r.start - 1)) && quote(b.get(r.end)) {
        return true;
    }
    let rest = &text[r.end..];
    // A flag given a value (`reveal=true`): a parameter's name.
    if rest.starts_with('=') {
        return true;
    }
    if let Some(after) = rest
        .strip_prefix(" api")
        .or_else(|| rest.strip_prefix(" sdk"))
        && !after.starts_with(|c: char| c.is_ascii_alphanumeric())
    {
        let next = after.trim_start_matches([' ', '(', ',']);
        return !["key", "token", "secret", "credential", "password"]
            .iter()
            .any(|w| next.starts_with(w));
    }
    let Some(rest) = rest.strip_prefix(' ') else {
        return false;
    };
    let ident = rest
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    ident > 0 && rest.as_bytes().get(ident) == Some(&b'=')
}

/// True when `r` lies inside a URL or an e-mail address (the whitespace-delimited
/// token around it holds `://` or `@`).
pub(super) fn in_address(text: &str, r: std::ops::Range<usize>) -> bool {
    // Bounded both ways: an address is short, and a text of one long token
    // with many hits must stay linear.
    const REACH: usize = 256;
    let b = text.as_bytes();
    let lo = r.start.saturating_sub(REACH);
    let hi = (r.end + REACH).min(b.len());
    let start = b[lo..r.start]
        .iter()
        .rposition(u8::is_ascii_whitespace)
        .map_or(lo, |i| lo + i + 1);
    let end = b[r.end..hi]
        .iter()
        .position(u8::is_ascii_whitespace)
        .map_or(hi, |i| r.end + i);
    let token = &b[start..end];
    token.windows(3).any(|w| w == b"://") || token.contains(&b'@')
}

/// Whether byte `at` of `sentence` sits inside an open bracket (one opened
/// within 400 bytes: a list, not an endless sentence read again per slot).
fn in_brackets(sentence: &str, at: usize) -> bool {
    let at = crate::text::floor_char_boundary(sentence, at);
    let before = &sentence[crate::text::reach_back(sentence, at, 400)..at];
    before
        .rfind('(')
        .is_some_and(|o| !before[o..].contains(')'))
}
