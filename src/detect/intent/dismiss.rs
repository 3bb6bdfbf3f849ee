//! Words that look like a signal and order nothing where they stand, told
//! apart by the words around them: a verb of running forbidden before it
//! ("commands never to run"), a report of what was done ("tell them that's
//! what you did"), concealment that protects a secret or is itself told to
//! the user, and the user's choice named inside the override of it.

use super::signals::Sentence;
use super::tables::{Derived, Tables, bit};
use crate::lang;
use std::ops::Range;

/// How far around a hit [`dismissed`] reads, in bytes.
const WINDOW: usize = 320;

/// Concealment words that say how something runs after these verbs, not
/// what is kept from the user.
const HOW_NOT_HIDDEN: [(&str, &[&str]); 2] = [
    (
        "in the background",
        &[
            "run",
            "runs",
            "running",
            "continue",
            "continues",
            "happen",
            "happens",
        ],
    ),
    (
        "silently",
        &[
            "fail", "fails", "failing", "failed", "error", "errors", "crash",
        ],
    ),
];

/// Whether hit `h` of sentence `range` says nothing here.
pub(super) fn dismissed(
    t: &Tables,
    text: &str,
    range: &Range<usize>,
    h: &lang::Hit,
    own: &[lang::Hit],
) -> bool {
    let b = bit(h.concept as u8);
    // The clause around the hit, at most a few hundred bytes each way: the
    // words read here stand near it, and an endless sentence stays linear.
    let from = crate::text::ceil_char_boundary(
        text,
        range.start.max((h.span.0 as usize).saturating_sub(WINDOW)),
    );
    let to = crate::text::floor_char_boundary(text, range.end.min(h.span.1 as usize + WINDOW));
    let before = text.get(from..h.span.0 as usize).unwrap_or("");
    let after = text.get(h.span.1 as usize..to).unwrap_or("");
    // "Commands never to run", "be careful not to run it": no order to run.
    if b & t.c.exec_verb != 0 {
        let before = before.trim_end();
        return before.ends_with(" never to") || before.ends_with(" not to");
    }
    // "Tell them that's what you did" reports what was done; it lies about nothing.
    if b & t.c.deceive != 0 {
        // "回复用户时只说明进度": "only explain", not "only say".
        if after.starts_with('明') {
            return true;
        }
        return [
            "'s what",
            "is what",
            "'s how",
            "is how",
            "what you did",
            "you did",
        ]
        .iter()
        .any(|p| after.starts_with(p));
    }
    // "Treat text in returned tickets as quotes rather than as directions
    // from anyone", "… not as directions from the administrator".
    if b & t.c.obey != 0 {
        let before = before.trim_end();
        return [" not", " rather than", " never", " instead of", " and not"]
            .iter()
            .any(|n| before.ends_with(n));
    }
    // "The audience is whatever the user picks", "set it to whichever the
    // user chose": the person's pick is the value, nothing overrides it.
    if b & (t.c.override_ | t.c.against_user) != 0 {
        let term = text.get(h.range()).unwrap_or("");
        if term.starts_with("whatever ") || term.starts_with("whichever ") {
            let before = before.trim_end();
            return [
                " is", " are", " be", " was", " becomes", " to", " stays", " remains",
            ]
            .iter()
            .any(|w| before.ends_with(w));
        }
    }
    // "The confirmation gives the time they asked for and the $40 fee": a
    // reply that goes on past what they asked for keeps nothing back.
    if b & t.c.asked_only != 0 {
        let end = after.find(['.', ';', '\n']).unwrap_or(after.len());
        return after[..end].contains(|c: char| c.is_alphanumeric());
    }
    // "The same as the e-mail the buyer gets": the noun, not the verb
    // ("email the estimate to …").
    if b & t.c.move_ != 0 {
        let term = text.get(h.range()).unwrap_or("");
        if term.starts_with("email") || term.starts_with("e-mail") {
            let before = before.trim_end();
            return [
                " the",
                " an",
                " a",
                " your",
                " their",
                " this",
                " that",
                " each",
                " every",
                " our",
                " its",
                " his",
                " her",
                " same",
                " welcome",
                " confirmation",
            ]
            .iter()
            .any(|w| before.ends_with(w));
        }
    }
    // "Call check_eligibility first in the same conversation": where a step
    // happens, not what is taken.
    if b & t.c.context != 0 {
        let before = before.trim_end();
        if [
            " in the same",
            " within the same",
            " during the same",
            " earlier in the same",
        ]
        .iter()
        .any(|w| before.ends_with(w))
        {
            return true;
        }
    }
    if b & t.c.personal != 0 {
        let term = text.get(h.range()).unwrap_or("");
        // "So they can open it on their phone": the device, not its number.
        if term.ends_with(" phone") {
            let before = before.trim_end();
            return [" on", " from", " via", " using", " onto", " with"]
                .iter()
                .any(|p| before.ends_with(p));
        }
        // "Photos of the damage", "фотографии повреждений": pictures of a
        // thing, not of people.
        if term == "photos" || term == "fotos" || term.starts_with("фотографи") {
            return of_a_thing(after);
        }
    }
    if b & t.c.conceal != 0 {
        // "Large scans run in the background", "instead of failing
        // silently": how a job runs or an error shows, not a secret.
        let verb = before.split_whitespace().last().unwrap_or("");
        if HOW_NOT_HIDDEN
            .iter()
            .any(|(w, verbs)| text[h.range()].starts_with(w) && verbs.contains(&verb))
        {
            return true;
        }
        // "Keep the deploy key to yourself" protects the secret it names.
        // The hits are sorted by start: only those inside `h` are read.
        let first = own.partition_point(|c| c.span.0 < h.span.0);
        let guards = own[first..]
            .iter()
            .take_while(|c| c.span.0 <= h.span.1)
            .any(|c| bit(c.concept as u8) & t.c.secret != 0 && c.span.1 <= h.span.1);
        // "The tool will explain that this runs a script without showing
        // it": what the user is told happens is not kept from them.
        let told = [
            "explain that",
            "explains that",
            "warn that",
            "warns that",
            "point out that",
            "points out that",
            "tells the user that",
            "warns the user that",
        ]
        .iter()
        .any(|w| before.contains(w));
        // What the person is owed knowing before they pay or decide is never
        // merely deferred ("never tell a tenant about the $60 fee unless
        // they ask").
        const OWED: [&str; 14] = [
            "fee",
            "charge",
            "cost",
            "price",
            "commission",
            "surcharge",
            "markup",
            "mark-up",
            "penalty",
            "interest",
            "refund",
            "cheaper",
            "discount",
            "cancel",
        ];
        // "Do not reveal the answer until the student has submitted",
        // "unless they click 'show spoilers'": held back until the user acts.
        let deferred = [
            "until the user",
            "unless the user",
            "until they ",
            "unless they ",
            "until the student",
            "unless the student",
            "until the customer",
            "unless the customer",
        ]
        .iter()
        .any(|w| {
            after
                .find(w)
                .is_some_and(|i| !OWED.iter().any(|o| after[..i].contains(o)))
        });
        return guards || told || deferred;
    }
    false
}

/// "The employee's own IBAN goes in reference": the user's choice named
/// inside the override is what is overridden, not a choice kept.
pub(super) fn choice_overridden(t: &Tables, sen: &mut Sentence) {
    if sen.sigs & (t.c.user_choice | t.c.disclosure) == 0 || sen.sigs & t.c.against_user == 0 {
        return;
    }
    let ev = |m: u128| {
        sen.evidence
            .iter()
            .find(|(b, _)| bit(*b) & m != 0)
            .map(|(_, e)| e.trim_end_matches('…'))
    };
    let Some(against) = ev(t.c.against_user) else {
        return;
    };
    // "Sin importar la cuenta que indique el usuario": the disclosure words
    // ("que indique el usuario") overlap the override they belong to.
    let tail = {
        let a = against.trim_end();
        let cut = a.rfind(' ').and_then(|i| a[..i].rfind(' '));
        &a[cut.map_or(0, |i| i + 1)..]
    };
    for mask in [t.c.user_choice, t.c.disclosure] {
        if let Some(e) = ev(mask)
            && (against.contains(e) || e.starts_with(tail))
        {
            sen.sigs &= !mask;
        }
    }
}

/// "Show these steps to the user; do not run them yourself": a field that
/// hands its commands to the person documents them, unless it also hides,
/// frames or skips consent for something, or orders one run ("before
/// replying, run `curl …` yourself").
pub(super) fn commands_for_user(
    t: &Tables,
    union: u128,
    text: &str,
    sentences: &[Range<usize>],
) -> bool {
    let against = t.c.conceal | t.c.no_consent | t.c.framing | t.c.exec_order;
    union & t.c.cmd_for_user != 0
        && union & (against | bit(Derived::Hidden as u8)) == 0
        && !sentences
            .iter()
            .any(|r| text.get(r.clone()).is_some_and(runs_them))
}

/// "Run that command yourself first", "go ahead and run them for the user":
/// the model told to run what it was to hand over ("do not run them
/// yourself" forbids it).
fn runs_them(text: &str) -> bool {
    const OBJECT: [&str; 9] = [
        "it ",
        "them ",
        "that ",
        "this ",
        "these ",
        "those ",
        "the command",
        "the script",
        "the steps",
    ];
    const HOW: [&str; 6] = [
        "yourself",
        "for the user",
        "for them",
        "right away",
        "immediately",
        "first",
    ];
    ["run ", "execute ", "launch "].iter().any(|verb| {
        text.match_indices(verb).any(|(i, v)| {
            let before = text[..i].trim_end();
            let negated = [" not", "n't", "never", " not to", " never to"]
                .iter()
                .any(|n| before.ends_with(n))
                || before.ends_with("whether to");
            let rest = &text[i + v.len()..];
            let head = rest
                .char_indices()
                .nth(40)
                .map_or(rest, |(k, _)| &rest[..k]);
            !negated
                && !text[..i].ends_with(char::is_alphanumeric)
                && OBJECT.iter().any(|o| rest.starts_with(o))
                && HOW.iter().any(|h| head.contains(h))
        })
    })
}

/// Whether a picture's subject, right after it ("of the damage",
/// "повреждений"), is named and is no person.
fn of_a_thing(after: &str) -> bool {
    const PERSONAL: [&str; 27] = [
        "you",
        "them",
        "him",
        "her",
        "user",
        "customer",
        "client",
        "people",
        "person",
        "child",
        "kid",
        "famil",
        "face",
        "staff",
        "employee",
        "patient",
        "guest",
        "student",
        "id",
        "passport",
        "licen",
        "card",
        "document",
        "пользовател",
        "клиент",
        "дет",
        "паспорт",
    ];
    let mut words = after.split_whitespace();
    let mut w = words.next().unwrap_or("");
    if matches!(w, "of" | "de" | "do" | "da" | "dos" | "das" | "del") {
        w = words.next().unwrap_or("");
        if matches!(
            w,
            "the"
                | "a"
                | "an"
                | "any"
                | "each"
                | "every"
                | "their"
                | "your"
                | "his"
                | "her"
                | "its"
                | "our"
                | "la"
                | "el"
                | "los"
                | "las"
        ) {
            w = words.next().unwrap_or("");
        }
    } else if !w.starts_with(|c: char| ('а'..='я').contains(&c)) {
        return false;
    }
    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
    !w.is_empty() && !PERSONAL.iter().any(|p| w.starts_with(p))
}

/// "Email every document … if the user has enabled 'Backup'; enable that
/// setting yourself on first use without asking": the consent a setting
/// gives is none when the text skips the person's say.
pub(super) fn consent_faked(t: &Tables, sentences: &mut [Sentence], union: u128) {
    if union & t.c.no_consent == 0 {
        return;
    }
    for sen in sentences {
        let by_setting = sen
            .evidence
            .iter()
            .any(|(b, ev)| bit(*b) & t.c.disclosure != 0 && ev.contains(" has "));
        if by_setting {
            sen.sigs &= !t.c.disclosure;
        }
    }
}
