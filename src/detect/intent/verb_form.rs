//! What a sentence's first word says about it as an order: a verb in the
//! third person or a gerund describes ("deletes every record", "running
//! processes"); a base form orders ("delete every record").

/// Whether `text` opens with a third-person singular verb form ("deletes",
/// "sends", "pushes"): a description of what something does. Base forms
/// that end in `s` ("pass", "access", "process") end in `ss`.
pub(super) fn third_person(text: &str) -> bool {
    let w = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us")
}

/// Whether `text` opens with a gerund or participle ("running processes",
/// "sending reports"): a noun phrase or a description, not an order. Base
/// forms that end in `ing` ("bring", "string") are shorter or listed.
pub(super) fn gerund(text: &str) -> bool {
    let w = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    w.len() >= 6 && w.ends_with("ing") && !matches!(w, "string" | "spring" | "sting")
}

/// A leading clause of purpose, the pretext an order is given under: "to
/// make sure the sync doesn't fail, …", "so the export doesn't time out, …",
/// "in order to avoid errors, …". What follows its comma is the order.
/// Compared without regard to ASCII case, so raw text needs no lowercased copy.
pub(super) fn pretext(clause: &str) -> bool {
    const PRETEXTS: [&str; 10] = [
        "to make sure ",
        "to ensure ",
        "to prevent ",
        "to avoid ",
        "to keep ",
        "to stop ",
        "in order to ",
        "so that ",
        "so the ",
        "so it ",
    ];
    PRETEXTS.iter().any(|p| {
        clause
            .as_bytes()
            .get(..p.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(p.as_bytes()))
    })
}
