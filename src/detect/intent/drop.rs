//! Hits a word's surroundings show to mean something else: an adjective,
//! an indirect question, the conversation narrowed to the call's subject.

use super::tables::{Tables, bit};
use crate::lang;

/// The conversation narrowed to this call's subject ("only what the user
/// said about this shipment", "the messages regarding this order") is the
/// input the tool is for, not the conversation; so is the conversation as
/// the place where the user chose a value ("the account the user supplied
/// in this conversation"). Such a hit is dropped.
pub(super) fn drop_scoped_context(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    let chosen_in: Vec<usize> = hits
        .iter()
        .filter(|h| bit(h.concept as u8) & t.c.user_choice != 0)
        .map(|h| h.span.1 as usize)
        .collect();
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.context == 0 {
            return true;
        }
        let start = h.span.0 as usize;
        // "What the user gives (you) in this conversation": where it was given.
        if chosen_in.iter().any(|&e| {
            e <= start
                && matches!(
                    text[e..start].trim().trim_start_matches("you "),
                    "in" | "during" | "earlier in" | "within"
                )
        }) {
            return false;
        }
        let mut words = text[h.span.1 as usize..]
            .split(|c: char| c.is_whitespace())
            .filter(|w| !w.is_empty());
        let scoped = match (words.next(), words.next(), words.next()) {
            (Some("about" | "regarding" | "concerning" | "on"), Some("this" | "that"), Some(w))
            | (Some("related" | "relevant"), Some("to"), Some(w)) => {
                // "About this chat" is the conversation again.
                w.chars().next().is_some_and(char::is_alphabetic)
                    && !["conversation", "chat", "session", "thread", "dialog"]
                        .iter()
                        .any(|x| w.starts_with(x))
            }
            _ => false,
        };
        !scoped
    });
}

/// "The first open section", "an open ticket": "open" after a determiner
/// or an ordinal is an adjective; it opens nothing. "Open the pack,
/// including …", "a ferry": a verb that is also a noun, after a determiner
/// and with no destination after it, is that noun; it moves nothing.
pub(super) fn drop_adjectives(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const BEFORE: [&str; 15] = [
        "the ", "an ", "first ", "next ", "any ", "each ", "every ", "its ", "no ", "a ", "this ",
        "that ", "their ", "our ", "your ",
    ];
    const NOUNS: [&str; 3] = ["pack", "ferry", "packs"];
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.verbs == 0 {
            return true;
        }
        let word = &text[h.range()];
        let noun = || {
            NOUNS.contains(&word)
                && !text[h.span.1 as usize..]
                    .split_whitespace()
                    .take(3)
                    .any(|w| matches!(w, "to" | "into" | "onto" | "off"))
        };
        !(word == "open" || noun())
            || !BEFORE.iter().any(|d| {
                let before = &text[..h.span.0 as usize];
                before.ends_with(d)
                    && !before[..before.len() - d.len()].ends_with(|c: char| c.is_alphanumeric())
            })
    });
}

/// "Tell them that" followed by a question word ("बताएं कि किस दफ़्तर में…",
/// "tell the user that which …") asks the model to report an answer, and
/// "report it as returned" passes the tool's answer on: their deceiving
/// reading is dropped.
pub(super) fn drop_indirect_questions(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.deceive == 0 {
            return true;
        }
        let term = text[h.span.0 as usize..h.span.1 as usize].trim_end_matches([',', ' ']);
        let complementizer = ["that", "que", "कि", "что", "dass", "che", "أن", "بأن"]
            .iter()
            .any(|c| term.ends_with(c));
        let next = text[h.span.1 as usize..]
            .split_whitespace()
            .next()
            .map(|w| w.trim_matches(|c: char| c.is_ascii_punctuation() || "¿¡«»“”،".contains(c)));
        // "Report the state to the user as returned": the tool's own word, passed on.
        let verbatim = term.ends_with(" as")
            && next.is_some_and(|w| ["returned", "shown", "given", "listed", "is"].contains(&w));
        !(complementizer && next.is_some_and(|w| t.interrogatives.contains(w)) || verbatim)
    });
}

/// "Timers that fetch and run remote scripts" describes what the timers do:
/// an order's words in a relative clause order nothing ("a script that you
/// must fetch and run" keeps its modal, and its order).
pub(super) fn drop_relative_orders(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.exec_order == 0
            || !text[..h.span.0 as usize].ends_with(" that ")
                && !text[..h.span.0 as usize].ends_with(" which ")
    });
}

/// "Cleared today to avoid an interruption of supply": "to avoid" gives a
/// purpose; it forbids nothing.
pub(super) fn drop_purpose_avoid(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.prohibit == 0
            || !matches!(&text[h.range()], "avoid" | "avoids")
            || !text[..h.span.0 as usize].ends_with("to ")
            // "Try to avoid …", "make sure to avoid …" still forbid.
            || word_before(text, h.span.0 as usize - 3).is_some_and(|w| {
                    ["try", "tries", "trying", "attempt", "sure", "careful", "best", "want", "need"]
                        .contains(&w)
                })
    });
}

/// "This tool sends immediately", "the change takes effect immediately":
/// an adverb of time after a verb that describes says how the tool
/// behaves; it hurries no one.
pub(super) fn drop_descriptive_urgency(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.framing == 0
            || !matches!(&text[h.range()], "immediately" | "instantly")
            || !word_before(text, h.span.0 as usize).is_some_and(|w| {
                super::verb_form::third_person(w) || matches!(w, "effect" | "is" | "are")
            })
    });
}

/// "Saves to whatever folder the user picks", "replies in whichever
/// language they write": a free relative after a preposition is where the
/// tool puts the user's own choice; it sets nothing aside.
pub(super) fn drop_honoured_choice(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.against_user == 0
            || !(text[h.range()].starts_with("whatever ")
                || text[h.range()].starts_with("whichever "))
            || !word_before(text, h.span.0 as usize).is_some_and(|w| {
                matches!(
                    w,
                    "to" | "in"
                        | "into"
                        | "for"
                        | "from"
                        | "on"
                        | "at"
                        | "with"
                        | "under"
                        | "by"
                        | "onto"
                )
            })
    });
}

/// "The password is copied to their clipboard and not shown in the chat":
/// a secret whose value is kept off the screen is protected, not an act
/// hidden. Dropped when the sentence names the secret before it and sends
/// nothing to an address or a third party (one that does is read by the
/// data combinations). One pass over the hits, which are sorted by start.
pub(super) fn drop_masked_value(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const MASKS: [&str; 6] = [
        "shown",
        "displayed",
        "printed",
        "echoed",
        "visible",
        "revealed",
    ];
    let masking = |h: &lang::Hit| {
        bit(h.concept as u8) & t.c.conceal != 0 && MASKS.iter().any(|m| text[h.range()].contains(m))
    };
    if !hits.iter().any(masking) {
        return;
    }
    let bounds = |at: usize| {
        let start = text[..at]
            .rfind(['.', ';', '\n', '!', '?'])
            .map_or(0, |i| i + 1);
        let end = text[at..]
            .find(['.', ';', '\n', '!', '?'])
            .map_or(text.len(), |i| at + i);
        (start, end)
    };
    // The sentence being read: its bounds, where its first secret ends, and
    // whether it names a third party or an address.
    let mut sentence: Option<(usize, usize)> = None;
    let (mut secret_end, mut outside) = (None::<u32>, false);
    let mut dropped = vec![false; hits.len()];
    for (i, h) in hits.iter().enumerate() {
        let at = h.span.0 as usize;
        if sentence.is_none_or(|(s, e)| at < s || at >= e) {
            let (s, e) = bounds(at);
            sentence = Some((s, e));
            secret_end = None;
            let words = &text[s..e];
            outside = words.contains('@')
                || words.contains("://")
                || hits[i..]
                    .iter()
                    .take_while(|o| (o.span.0 as usize) < e)
                    .any(|o| bit(o.concept as u8) & t.c.where_self != 0);
        }
        if bit(h.concept as u8) & t.c.secret != 0 && secret_end.is_none() {
            secret_end = Some(h.span.1);
        }
        dropped[i] = masking(h) && !outside && secret_end.is_some_and(|e| e <= h.span.0);
    }
    let mut i = 0;
    hits.retain(|_| {
        i += 1;
        !dropped[i - 1]
    });
}

/// "학과 사무실에 문의하라고 안내하세요" (tell them to ask the office): a
/// Korean "-하라고"/"-으라고" quotes an order passed on to the person, not a
/// claim made to them (a claim ends "-다고", or "-이라고" after a noun).
pub(super) fn drop_indirect_commands(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.deceive == 0
            || !text[h.range()].starts_with("라고")
            || !text[..h.span.0 as usize].ends_with(['하', '으'])
    });
}

/// "Where the customer asks …, …" opens a rule only at a sentence's start;
/// "the folder where the user saved it, …" names a place.
pub(super) fn drop_inner_where(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.when == 0
            || !text[h.range()].starts_with("where ")
            || text[..h.span.0 as usize]
                .trim_end()
                .chars()
                .next_back()
                .is_none_or(|c| matches!(c, '.' | ';' | ':' | '!' | '?' | '\n'))
    });
}

/// "When the outcome is rejected, relay it as upheld": a defensive-sounding
/// word inside the condition of a lie is the outcome misreported, no sign
/// that the text is about attacks.
pub(super) fn drop_defence_in_lie(t: &Tables, hits: &mut Vec<lang::Hit>) {
    drop_inside(hits, t.c.lie, t.c.defensive);
}

/// "Tell them it may be a scam": a telling that only hedges ("may",
/// "might", "could", "is likely") warns; it asserts no state to deceive with.
pub(super) fn drop_hedged_telling(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.deceive == 0
            || !{
                let after = text[h.span.1 as usize..].trim_start();
                let after = after.strip_prefix("is ").unwrap_or(after);
                [
                    "may ",
                    "might ",
                    "could ",
                    "likely ",
                    "probably ",
                    "possibly ",
                ]
                .iter()
                .any(|w| after.starts_with(w))
            }
    });
}

/// "Never tell a resident their water will be shut off unless
/// `get_account_status` returns shutoff_scheduled=true": a telling forbidden
/// until a record confirms it keeps an unverified claim from the person, not
/// a fact. The condition's subject is a tool or a record, not the person
/// ("unless they ask" keeps something from them, and stays).
pub(super) fn drop_verified_telling(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const TELL: [&str; 6] = [
        "never tell",
        "do not tell",
        "don't tell",
        "never say",
        "do not say",
        "don't say",
    ];
    const VERIFY: [&str; 9] = [
        " returns ",
        " shows ",
        " confirms ",
        " says ",
        " lists ",
        " reports ",
        " indicates ",
        " is confirmed",
        " has confirmed",
    ];
    const RECORD: [&str; 10] = [
        "_", "record", "status", "system", "lookup", "result", "data", "api", "registry", "log",
    ];
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.conceal == 0 {
            return true;
        }
        let said = &text[h.span.0 as usize..h.span.1 as usize];
        if !TELL.iter().any(|w| said.starts_with(w)) {
            return true;
        }
        let rest = clause_after(text, h.span.1 as usize);
        let Some(u) = rest.find(" unless ") else {
            return true;
        };
        let cond = &rest[u + 8..];
        !VERIFY.iter().any(|v| {
            cond.find(v)
                .is_some_and(|i| i <= 80 && RECORD.iter().any(|r| cond[..i].contains(r)))
        })
    });
}

/// "Starts an upload and returns an upload_token plus a pre-signed URL":
/// a credential the tool itself returns, said where a clause of the tool's
/// own description opens with the verb, is its output, not data taken. Not
/// when the sentence names an address to send it to.
pub(super) fn drop_returned_secret(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.secret == 0
            || !returned_by_tool(text, h.span.0 as usize, h.span.1 as usize)
    });
}

/// Whether `text[start..end]` is what a clause opening with "returns",
/// "issues", "generates" … gives back (see [`drop_returned_secret`]).
pub(super) fn returned_by_tool(text: &str, start: usize, end: usize) -> bool {
    const ISSUES: [&str; 10] = [
        "returns",
        "issues",
        "generates",
        "mints",
        "creates",
        "outputs",
        "yields",
        "gives",
        "hands",
        "produces",
    ];
    const OPENS: [&str; 6] = ["", "and", "then", "it", "also", "tool"];
    let from = crate::text::reach_back(text, start, 60);
    let before = &text[from..start];
    let before = &before[before.rfind(['.', ';', ':', '\n']).map_or(0, |i| i + 1)..];
    let words: Vec<&str> = before.split_whitespace().collect();
    // The verb, then at most two words (an article, "new", "signed"), then the secret.
    let Some(v) = words.iter().rposition(|w| ISSUES.contains(w)) else {
        return false;
    };
    let opens = OPENS.contains(&v.checked_sub(1).map_or("", |i| words[i]));
    let rest = clause_after(text, end);
    words.len() - v <= 3 && opens && !rest.contains("://") && !rest.contains('@')
}

/// "Every visit flagged 'incident'", "orders flagged hazardous", "reads
/// flagged actual or estimated": a record picked or labelled, not a warning
/// the text raises, so no sign that the text is about attacks.
pub(super) fn drop_flagged_label(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const LINKS: [&str; 16] = [
        "as", "by", "for", "if", "when", "with", "in", "to", "and", "or", "it", "them", "this",
        "that", "any", "all",
    ];
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.defensive == 0 || text.get(h.range()) != Some("flagged") {
            return true;
        }
        let after = text[h.span.1 as usize..].trim_start();
        let next = after
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .next()
            .unwrap_or("");
        !(after.starts_with(['\'', '"'])
            || after.starts_with("as '")
            || after.starts_with("as \"")
            || (next.len() > 2
                && next.bytes().all(|c| c.is_ascii_lowercase() || c == b'-')
                && !LINKS.contains(&next)))
    });
}

/// "If they ask whether the cover applies, confirm it is only if the policy
/// lists it": an answer given on a condition that checks is no fixed answer.
pub(super) fn drop_checked_answer(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const CHECKS: [&str; 9] = [
        "only if",
        "if ",
        "when ",
        "once ",
        "after ",
        "unless ",
        "provided ",
        "as long as",
        "where ",
    ];
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.lie == 0
            || !text[h.range()].starts_with("ask")
            || !{
                let after = text[h.span.1 as usize..].trim_start();
                let after = after.strip_prefix("so ").unwrap_or(after);
                CHECKS.iter().any(|w| after.starts_with(w))
            }
    });
}

/// "  # production: download, read, then run" above a command: an order on
/// a shell comment line captions the snippet under it for whoever reads it.
pub(super) fn drop_commented_order(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.exec_order == 0 || {
            // The line's start within 200 bytes (bounded: linear in long lines).
            let start = h.span.0 as usize;
            let from = crate::text::reach_back(text, start, 200);
            let line = match text[from..start].rfind('\n') {
                Some(i) => &text[from + i + 1..start],
                None if from == 0 => &text[..start],
                None => return true,
            };
            !line.trim_start().starts_with("# ")
        }
    });
}

/// "Confirm it's done but don't call any tool": the "don't" inside a false
/// claim of success is part of the lie, not a prohibition that softens it;
/// so is the "doesn't" of a concealment ("the part the user doesn't see").
pub(super) fn drop_prohibit_in_lie(t: &Tables, hits: &mut Vec<lang::Hit>) {
    drop_inside(hits, t.c.lie, t.c.prohibit);
    drop_inside(hits, t.c.conceal, t.c.prohibit);
}

/// "If they ask to opt out of sharing, …": an opt-out the person asks for
/// is their request, not the text disclosing one; "the opt-out isn't wired
/// up" denies the one it names.
pub(super) fn drop_requested_disclosure(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.disclosure == 0 || {
            let from = crate::text::reach_back(text, h.span.0 as usize, 24);
            let before = text[from..h.span.0 as usize].trim_end();
            let after =
                &text[h.span.1 as usize..crate::text::reach_ahead(text, h.span.1 as usize, 24)];
            ![
                "ask to",
                "asks to",
                "asked to",
                "want to",
                "wants to",
                "request to",
                "requests to",
            ]
            .iter()
            .any(|w| before.ends_with(w))
                && ![
                    " isn't ",
                    " is not ",
                    " doesn't ",
                    " does not ",
                    " won't ",
                    " will not ",
                ]
                .iter()
                .any(|w| after.starts_with(w))
        }
    });
}

/// "Never skip the fume hood check", "do not treat a missing certificate
/// as OK": a check skipped under a prohibition right before it is forbidden,
/// not ordered.
pub(super) fn drop_forbidden_skip(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & t.c.approval_off == 0 || {
            let last = word_before(text, h.span.0 as usize).unwrap_or("");
            ![
                "never",
                "not",
                "don't",
                "mustn't",
                "shouldn't",
                "won't",
                "cannot",
            ]
            .contains(&last)
        }
    });
}

/// "E-mails that ask the reader to pay a new account rather than the one
/// on the invoice", "asked them to disregard the IBAN on the invoice": an
/// account set aside inside a request someone else made is reported, the
/// fraud a warning describes, not an order of the text's own.
pub(super) fn drop_reported_payee_swap(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    // Said of someone else: a third-person or past form, or a bare verb in
    // a relative clause ("e-mails that ask the reader to …"); "never ask the
    // user to confirm" is the text's own order.
    const ASKING: [&str; 8] = [
        "asks",
        "asked",
        "asking",
        "tells",
        "told",
        "urges",
        "urged",
        "instructs",
    ];
    const BARE: [&str; 4] = ["ask", "tell", "urge", "instruct"];
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.against_user == 0 {
            return true;
        }
        let from = crate::text::reach_back(text, h.span.0 as usize, 60);
        let words: Vec<&str> = text[from..h.span.0 as usize].split_whitespace().collect();
        // "… asks the reader to pay …": an asking verb, then "to" within four words.
        !words.iter().enumerate().any(|(i, w)| {
            let reported = ASKING.contains(w)
                || BARE.contains(w) && i > 0 && matches!(words[i - 1], "that" | "which" | "who");
            reported && words[i + 1..].iter().take(4).any(|x| *x == "to")
        })
    });
}

/// The user's choice named inside a change made beside it ("besides the
/// recipients the user names, the assistant includes …") or inside a lie
/// about it ("refer to it by the name the user asked for") discloses
/// nothing: the frame that says so is about what is done to it.
pub(super) fn drop_choice_in_change(t: &Tables, hits: &mut Vec<lang::Hit>) {
    drop_inside(
        hits,
        t.c.shadow_change | t.c.override_ | t.c.deceive | t.c.lie,
        t.c.disclosure,
    );
}

/// The user's choice named as what something is added beside ("besides the
/// addresses the user types, the assistant also adds …") honours nothing.
pub(super) fn drop_choice_beside(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        bit(h.concept as u8) & (t.c.user_choice | t.c.disclosure) == 0
            || beside_choice(&text[..h.span.0 as usize]).is_none()
    });
}

/// Where "besides" (or "in addition to", "as well as", "on top of", "apart
/// from") opens the last few words before a user's choice, within its clause:
/// "besides the addresses" + "the user types".
pub(super) fn beside_choice(before: &str) -> Option<usize> {
    const BESIDE: [&str; 5] = [
        "besides ",
        "in addition to ",
        "as well as ",
        "on top of ",
        "apart from ",
    ];
    let before = before.trim_end_matches([' ', ',']);
    let window = &before[crate::text::reach_back(before, before.len(), 60)..];
    let tail = window
        .rfind([',', ';', ':', '.', '\n'])
        .map_or(window, |i| &window[i + 1..]);
    BESIDE.iter().find_map(|b| {
        let i = tail.rfind(b)?;
        let words = tail[i + b.len()..].split_whitespace().count();
        let word_start = i == 0 || tail.as_bytes()[i - 1] == b' ';
        (word_start && (1..=3).contains(&words)).then_some(before.len() - tail.len() + i)
    })
}

/// A check switched off only where an order's verb stands: at its
/// sentence's start, after a list marker, a label's colon, a comma or a
/// conjunction ("and", "et", "y", "und", "e", "en", "i"). "Never skip the
/// signature check", "the client ignores the checksum if …" order nothing,
/// and "don't verify it yourself" leaves the check to another.
pub(super) fn drop_unplaced_check_off(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const OPENERS: [&str; 22] = [
        "and", "then", "just", "simply", "also", "please", "et", "puis", "ensuite", "y", "luego",
        "und", "dann", "danach", "e", "poi", "quindi", "depois", "en", "dan", "i", "potem",
    ];
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.check_off == 0 {
            return true;
        }
        // "Don't verify the signature yourself: `verify_release` does" hands
        // the check to someone else.
        let handed = clause_after(text, h.span.1 as usize)
            .split_whitespace()
            .any(|w| {
                matches!(
                    w.trim_end_matches([',', ':', ')']),
                    "yourself" | "manually" | "twice" | "again" | "separately"
                )
            });
        let before = text[..h.span.0 as usize].trim_end();
        !handed
            && (before.is_empty()
                || before.ends_with(['.', ';', ':', '!', '?', ',', '-', '*', ')', '\n'])
                || word_before(text, h.span.0 as usize).is_some_and(|w| OPENERS.contains(&w)))
    });
}

/// "A lost or stolen card", "eine verlorene oder gestohlene Karte", "une
/// carte perdue ou volée": theft paired with loss names what befell the
/// person's item, the reason to block it; it orders no harm.
pub(super) fn drop_lost_or_stolen(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const LOSS: [&str; 9] = [
        "lost",
        "missing",
        "misplaced",
        "damaged",
        "verloren",
        "perdu",
        "perdid",
        "smarrit",
        "beschädigt",
    ];
    const OR: [&str; 5] = ["or", "oder", "ou", "o", "and/or"];
    // Italian "perso / persa / persi / perse" whole, not "personal".
    let loss = |w: &str| {
        LOSS.iter().any(|l| w.starts_with(l)) || ["perso", "persa", "persi", "perse"].contains(&w)
    };
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.harm == 0 {
            return true;
        }
        let mut back = text[..h.span.0 as usize].split_whitespace().rev();
        let mut ahead = text[h.span.1 as usize..].split_whitespace();
        let paired = |a: Option<&str>, b: Option<&str>| {
            a.is_some_and(|w| OR.contains(&w))
                && b.is_some_and(|w| loss(w.trim_end_matches([',', '.', ';'])))
        };
        !(paired(back.next(), back.next()) || paired(ahead.next(), ahead.next()))
    });
}

/// A telling the text calls honest ("честно скажи, что оценка недоступна",
/// "tell them honestly that …", "di' sinceramente che") deceives no one.
pub(super) fn drop_honest_telling(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    const HONEST: [&str; 12] = [
        "honestly",
        "truthfully",
        "candidly",
        "честно",
        "ehrlich",
        "wahrheitsgemäß",
        "honnêtement",
        "franchement",
        "sinceramente",
        "honestamente",
        "onestamente",
        "francamente",
    ];
    hits.retain(|h| {
        bit(h.concept as u8) & (t.c.deceive | t.c.lie) == 0
            || !word_before(text, h.span.0 as usize)
                .is_some_and(|w| HONEST.contains(&w.trim_end_matches(',')))
    });
}

/// Hits of `inner` concepts that lie within a hit of an `outer` concept.
fn drop_inside(hits: &mut Vec<lang::Hit>, outer: u128, inner: u128) {
    let mut spans: Vec<(u32, u32)> = hits
        .iter()
        .filter(|h| bit(h.concept as u8) & outer != 0)
        .map(|h| h.span)
        .collect();
    if spans.is_empty() {
        return;
    }
    // One sweep in start order (the hits are sorted by start): the outer
    // spans that start at or before an inner hit, and the furthest end among
    // them (linear, however many).
    spans.sort_unstable();
    let (mut next, mut reach) = (0, 0);
    hits.retain(|h| {
        if bit(h.concept as u8) & inner == 0 {
            return true;
        }
        while next < spans.len() && spans[next].0 <= h.span.0 {
            reach = reach.max(spans[next].1);
            next += 1;
        }
        next == 0 || reach < h.span.1
    });
}

/// The rest of the clause after byte `at`, up to its `.`, `;` or line end
/// and at most 200 bytes (bounded: linear however long the sentence).
fn clause_after(text: &str, at: usize) -> &str {
    let rest = &text[at..crate::text::reach_ahead(text, at, 200)];
    &rest[..rest.find(['.', ';', '\n']).unwrap_or(rest.len())]
}

/// The word before byte `at`: what a hit's reading may hinge on.
fn word_before(text: &str, at: usize) -> Option<&str> {
    text[..at].split_whitespace().next_back()
}
