//! Who does what a verb names. "The address the user pasted" was moved by
//! the user, and "clients that send flat fields" describes other software:
//! neither is an order to the model.

/// Who, besides the model, sends things a text describes.
const THIRD_PARTIES: &[&str] = &[
    "clients",
    "callers",
    "users",
    "customers",
    "apps",
    "applications",
    "integrations",
    "services",
    "systems",
    "devices",
    "browsers",
    "consumers",
    "senders",
    "scripts",
];

/// The words before a verb end in the user as its subject: "the user",
/// "the customer has", or in other software ("clients that send …").
/// ("The client" is the MCP client, the model's side, not a person: "the
/// client attaches the user's statement here" is an order.)
pub(super) fn user_is_subject(before: &str) -> bool {
    let mut w = before.split_whitespace().rev();
    let mut last = w.next();
    // "asks to see or copy": an alternative shares the subject of the verb
    // before it. ("And" often starts the model's own next step: "the user
    // wants to read it and send …" is not read this way.)
    if last == Some("or") {
        w.next();
        last = w.next();
    }
    // "… the user wants (them) copied": the user's wish, with its object.
    if last.is_some_and(|x| matches!(x, "it" | "them" | "these" | "those")) {
        last = w.next();
    }
    // "When they only need to paste it somewhere": their need, their act.
    if last == Some("to") {
        let mut need = w.next();
        // "When the user asks me to reveal it": what they ask the model to do.
        let object = need.is_some_and(|x| matches!(x, "me" | "you" | "us"));
        if object {
            need = w.next();
        }
        // "When the user explicitly asks to copy it": their request, their act.
        if !need.is_some_and(|x| {
            matches!(
                x,
                "need"
                    | "want"
                    | "have"
                    | "needs"
                    | "wants"
                    | "asks"
                    | "asked"
                    | "chooses"
                    | "decides"
                    | "wishes"
            ) || (object && matches!(x, "tells" | "told" | "allows" | "allowed"))
        }) {
            return false;
        }
        let mut who = w.next();
        while who.is_some_and(|x| {
            matches!(
                x,
                "only" | "just" | "also" | "still" | "really" | "explicitly" | "specifically"
            )
        }) {
            who = w.next();
        }
        return matches!(
            who,
            Some("they" | "user" | "users" | "customer" | "customers")
        );
    }
    if last == Some("like") {
        last = w.next().filter(|x| *x == "would").and_then(|_| w.next());
    } else if last.is_some_and(|x| {
        matches!(
            x,
            "has"
                | "have"
                | "had"
                | "just"
                | "already"
                | "themselves"
                | "wants"
                | "wanted"
                | "needs"
                | "prefers"
        )
    }) {
        last = w.next();
    }
    let Some(subject) = last else {
        return false;
    };
    // "Version 3 clients that send flat fields": what other software does.
    if matches!(subject, "that" | "who") {
        return w.next().is_some_and(|x| THIRD_PARTIES.contains(&x));
    }
    matches!(subject, "user" | "customer" | "caller" | "requester")
        && matches!(w.next(), Some("the" | "a" | "your"))
}

/// The first words naming the user's own choice ("the IBAN the user typed",
/// "stated by the customer"). "The account listed here" is the text's own
/// value, listed where the model reads it, not chosen by anyone.
pub(super) fn user_choice<'h>(
    t: &super::tables::Tables,
    bytes: &'h [u8],
) -> Option<crate::prebuilt::Match<'h>> {
    t.user_choice_re.find_iter(bytes).find(|m| {
        let after = bytes[m.end()..].trim_ascii_start();
        !(m.as_bytes().ends_with(b"listed") || m.as_bytes().ends_with(b"lists"))
            || ![&b"here"[..], b"below", b"above"]
                .iter()
                .any(|w| after.starts_with(w))
    })
}
