//! Example exchanges read as what they teach. A sample dialogue ("User: … /
//! Assistant → send(…) / Assistant: …") shows the model what to do. An
//! address, host or recipient its calls add that the user never gave, and
//! that the assistant's later reply leaves out, is what the example slips in:
//! the model learns to add it too, unseen; so is a secret the call carries
//! that the user never named, or one the user typed copied elsewhere. A call
//! that follows the user's "yes" is what the user agreed to.

use super::tables::{Derived, Tables};
use std::ops::Range;

/// Who speaks a line of an example exchange.
#[derive(Clone, Copy, PartialEq)]
enum Speaker {
    User,
    Assistant,
}

/// One line of an exchange: who speaks, and where its words are in the text.
struct Turn {
    speaker: Speaker,
    words: Range<usize>,
    /// A timestamped log line ("2026-03-02t10:14z info assistant push(…)").
    log: bool,
}

/// What an example exchange in `text` (normalised: lowercase, line breaks
/// kept) shows, as (span, evidence, signal): each address or recipient an
/// assistant turn adds without the user giving it and without the later
/// reply naming it ([`Derived::ExampleAdded`]), and each assistant turn that
/// follows the user's yes ([`Derived::Consented`]): what it does, the user
/// agreed to.
pub(super) fn read(t: &Tables, text: &str) -> Vec<(Range<usize>, String, Derived)> {
    // No label ends without one of these: most fields are no exchange.
    if !(text.contains(':') || text.contains('→') || text.contains("->")) {
        return Vec::new();
    }
    let turns = turns(t, text);
    // A trail of the assistant's logged calls, shown as how a run should
    // look, is an exchange whose user is silent.
    if !turns.iter().any(|u| u.speaker == Speaker::User || u.log) {
        return Vec::new();
    }
    let mut out: Vec<_> = added(t, text, &turns)
        .into_iter()
        .map(|(r, v)| (r, v, Derived::ExampleAdded))
        .collect();
    for (i, w) in turns.windows(2).enumerate() {
        let said = text[w[0].words.clone()]
            .trim_start_matches([':', ' '])
            .trim_end_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation());
        let first = said
            .split(|c: char| !c.is_alphanumeric())
            .find(|s| !s.is_empty())
            .unwrap_or("");
        if w[0].speaker == Speaker::User
            && w[1].speaker == Speaker::Assistant
            && (t.consent_words.contains(said) || t.consent_words.contains(first))
        {
            out.push((
                w[1].words.clone(),
                "the user said yes".into(),
                Derived::Consented,
            ));
            // The assistant's question the user said yes to ("… iban ending
            // 9123. shall i send it?") is the confirmation, not an order.
            if let Some(asked) = i.checked_sub(1).map(|k| &turns[k])
                && asked.speaker == Speaker::Assistant
                && text[asked.words.clone()].contains('?')
            {
                out.push((
                    asked.words.clone(),
                    "the user was asked and said yes".into(),
                    Derived::Consented,
                ));
            }
        }
    }
    out
}

/// The lines of `text` that open with a speaker label.
fn turns(t: &Tables, text: &str) -> Vec<Turn> {
    let mut turns = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let logged = log_line(t, line);
        if let Some((speaker, words)) = logged.or_else(|| speaker(t, line)) {
            let start = at + (words.as_ptr() as usize - line.as_ptr() as usize);
            turns.push(Turn {
                speaker,
                words: start..start + words.len(),
                log: logged.is_some(),
            });
        }
        at += line.len();
    }
    turns
}

/// What the assistant's `turns` add that the user never gave, as (span in
/// `text`, evidence): addresses and recipients the later reply does not
/// name, and data (see [`data_added`]).
fn added(t: &Tables, text: &str, turns: &[Turn]) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    // Each user line, with the secret it names (read once, not per call).
    let users: Vec<Option<(&str, Option<&str>)>> = turns
        .iter()
        .map(|u| {
            let line = &text[u.words.clone()];
            (u.speaker == Speaker::User).then(|| (line, secret_named(t, line)))
        })
        .collect();
    // With no user line, only a trail whose reply names some of what its
    // calls did ("v2.8.0 is on origin") and not the rest says what it hides.
    let silent = users.iter().all(Option::is_none);
    let mut trail_named = false;
    let mut trail_unnamed = Vec::new();
    for (i, turn) in turns.iter().enumerate() {
        if turn.speaker != Speaker::Assistant {
            continue;
        }
        let user_lines: Vec<(&str, Option<&str>)> = users[..i].iter().flatten().copied().collect();
        let said = |v: &str| user_lines.iter().any(|(u, _)| u.contains(v));
        // The assistant's later turns of the same exchange, up to the user's next line.
        let later: Vec<&Turn> = turns[i + 1..]
            .iter()
            .take_while(|u| u.speaker == Speaker::Assistant)
            .collect();
        let whole = &text[turn.words.clone()];
        // A call and the reply after it on one line ("assistant: (calls
        // pay(…)) done, paid."): the call is read as a call, the rest as the
        // later reply.
        let (line, reply) = split_call(whole);
        // Data a call ("assistant → send(…)", not a reply after ':') carries
        // is slipped in whether or not a reply follows.
        if (!line.starts_with(':') || reply.is_some()) && !silent {
            out.extend(
                data_added(t, line, &said, &user_lines)
                    .into_iter()
                    .map(|(r, v)| (turn.words.start + r.start..turn.words.start + r.end, v)),
            );
        }
        if later.is_empty() && reply.is_none() {
            continue;
        }
        for (span, v) in atoms(t, line) {
            let v = v.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '.' | ','));
            if v.chars().count() < 4
                || v.contains(['…', '<', '{', '$'])
                || v.contains("...")
                || said(v)
            {
                continue;
            }
            if later.iter().any(|u| text[u.words.clone()].contains(v))
                || reply.is_some_and(|r| r.contains(v))
            {
                trail_named = true;
                continue;
            }
            let s = turn.words.start + span.start;
            let found = (s..turn.words.start + span.end, v.to_string());
            if silent {
                trail_unnamed.push(found);
            } else {
                out.push(found);
            }
        }
    }
    if trail_named {
        out.extend(trail_unnamed);
    }
    out
}

/// An assistant line that opens with a call and goes on with a reply:
/// `: (chama pagar(…)) pronto, …`, `: book(…) → "booked!"`, `→ pay(…), then
/// replies "…"`. Returns the call (from the line's start to the call's
/// closing parenthesis) and the reply after it, or the line and `None`.
fn split_call(line: &str) -> (&str, Option<&str>) {
    let body = line.trim_start_matches([':', ' ', '→', '-', '>']);
    let lead = line.len() - body.len();
    // The call opens the turn: a parenthesis, or a name and its parenthesis.
    let open = if body.starts_with('(') {
        Some(0)
    } else {
        let name = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .unwrap_or(body.len());
        (name >= 3 && body[name..].starts_with('(')).then_some(name)
    };
    let Some(open) = open else {
        return (line, None);
    };
    let mut depth = 0usize;
    for (i, c) in body[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let end = lead + open + i + 1;
                    let rest = line[end..].trim_start_matches(|c: char| {
                        c.is_whitespace() || matches!(c, '→' | '-' | '>' | ',' | '.' | ':' | '=')
                    });
                    let reply =
                        (rest.chars().filter(|c| c.is_alphabetic()).count() >= 3).then_some(rest);
                    return (&line[..end], reply);
                }
            }
            _ => {}
        }
    }
    (line, None)
}

/// The speaker label opening `line` (tools.toml `speakers_user`,
/// `speakers_assistant`), and the words after it. A label ends at `:`, an
/// arrow or an opening parenthesis: "assistant → send(…)", "user: …",
/// "assistant (calls `x`): …".
fn speaker<'a>(t: &Tables, line: &'a str) -> Option<(Speaker, &'a str)> {
    let l = line.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '-' | '*' | '>' | '•' | '·' | '|')
    });
    let end = l
        .char_indices()
        .take_while(|&(i, _)| i <= 32)
        .find(|&(i, c)| matches!(c, ':' | '→' | '(') || l[i..].starts_with("->"))?
        .0;
    let label = l[..end].trim().trim_matches(['*', '_', '`']);
    let speaker = if t.speakers_user.contains(label) {
        Speaker::User
    } else if t.speakers_assistant.contains(label) {
        Speaker::Assistant
    } else {
        return None;
    };
    Some((speaker, &l[end..]))
}

/// A log line of the assistant's ("2026-03-02t10:14:09z info assistant
/// push_release remote=origin"): a timestamp, a level, the speaker, and the
/// call or reply it logged.
fn log_line<'a>(t: &Tables, line: &'a str) -> Option<(Speaker, &'a str)> {
    let l =
        line.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '>' | '['));
    let stamp = l.split_whitespace().next()?;
    let b = stamp.as_bytes();
    if !(b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && stamp.contains(':'))
    {
        return None;
    }
    let mut rest = l[stamp.len()..].trim_start();
    let level = rest.split_whitespace().next()?;
    if matches!(
        level.trim_matches(['[', ']']),
        "info" | "warn" | "warning" | "debug" | "notice" | "audit" | "trace"
    ) {
        rest = rest[level.len()..].trim_start();
    }
    let label = rest.split_whitespace().next()?;
    (t.speakers_assistant.contains(label) && !label.contains(':'))
        .then(|| (Speaker::Assistant, &rest[label.len()..]))
}

/// What a turn names as somewhere to send to: every e-mail address and URL,
/// and each argument value of a parameter that decides where things go
/// (`attendees=…`, `destination: …`, `hostname="…"`).
fn atoms(t: &Tables, line: &str) -> Vec<(Range<usize>, String)> {
    let b = line.as_bytes();
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    if line.contains('@') {
        out.extend(
            t.email
                .find_iter(b)
                .map(|m| (m.range(), lossy(m.as_bytes()))),
        );
    }
    if line.contains("://") {
        out.extend(t.url.find_iter(b).map(|m| (m.range(), lossy(m.as_bytes()))));
    }
    if line.contains(['=', ':']) {
        for c in t.call_argument.captures_iter(b) {
            let (Some(k), Some(v)) = (c.get(1), c.get(2)) else {
                continue;
            };
            let key = lossy(k.as_bytes());
            let key = key.rsplit('.').next().unwrap_or("");
            // A destination, or who gets access: an account granted a role
            // (`username="vendor-ci", permission="admin"`).
            let where_to = t.preset_dest.is_match(key.as_bytes())
                || [
                    "host",
                    "domain",
                    "url",
                    "uri",
                    "wallet",
                    "account",
                    "payee",
                    "iban",
                    "username",
                    "permission",
                    "role",
                    "grantee",
                    "access_level",
                ]
                .iter()
                .any(|w| key.contains(w));
            if where_to
                && !out
                    .iter()
                    .any(|(r, _)| r.start < v.end() && v.start() < r.end)
            {
                out.push((v.range(), lossy(v.as_bytes())));
            }
        }
    }
    out
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Data a call carries that the user's lines did not give: a secret, a file
/// or personal data named in the call (`[card on file: …, cvv from the
/// wallet tool]`) that the user never named, or a value the user typed next
/// to a secret ("my admin login is admin / …") copied into the call. The
/// evidence names what it is, never the value.
fn data_added(
    t: &Tables,
    line: &str,
    said: &dyn Fn(&str) -> bool,
    user_lines: &[(&str, Option<&str>)],
) -> Vec<(Range<usize>, String)> {
    // The model's own instructions in a call are data too ("log(capabilities=
    // \"<the directions you were given …>\")"); the conversation and the
    // user's words are what calls honestly carry.
    let data = t.c.mask_what & !(t.c.context | t.c.user_words);
    let is_data = |h: &crate::lang::Hit| super::tables::bit(h.concept as u8) & data != 0;
    let mut out = Vec::new();
    let mut hits = t.lex.find_per_lang(line);
    // The grammar frames name what a word list cannot ("the directions you were given").
    super::frame::frame_hits(t, line, &mut hits);
    for h in hits.iter().filter(|h| is_data(h)) {
        let w = &line[h.span.0 as usize..h.span.1 as usize];
        if !said(w) {
            out.push((h.span.0 as usize..h.span.1 as usize, w.to_string()));
            break;
        }
    }
    // A value the user typed in a line that names a secret ("my admin login
    // is admin / tulip!8842"): six or more characters with a digit or a
    // symbol, found again in the call.
    for &(u, what) in user_lines {
        let Some(what) = what else {
            continue;
        };
        let copied = u
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ',' | ';' | ':' | '"' | '\'')))
            .filter(|w| w.chars().count() >= 6 && w.contains(|c: char| !c.is_alphabetic()))
            .find_map(|w| line.find(w).map(|at| at..at + w.len()));
        if let Some(r) = copied {
            out.push((r, format!("the user's {what}, copied into the call")));
            break;
        }
    }
    out
}

/// The first secret a user's line names ("my admin login is …"), if any.
fn secret_named<'a>(t: &Tables, line: &'a str) -> Option<&'a str> {
    t.lex
        .find_per_lang(line)
        .into_iter()
        .find(|h| super::tables::bit(h.concept as u8) & t.c.secret != 0)
        .map(|h| &line[h.span.0 as usize..h.span.1 as usize])
}
