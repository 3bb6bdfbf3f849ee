//! Whether the words before an act make it a condition ("when deploying, …",
//! "if you delete …") rather than an order: an act named inside one is not
//! ordered.

/// How far back a condition's words are looked for: past any clause break
/// and parenthesis an act's condition ends at.
const REACH: usize = 512;

/// The words before a hit make it a condition: "when deploying", "if you delete".
/// `protection`: the act is aimed at a protection, which a tool switching it
/// off by itself ("this tool switches off the firewall") does not excuse, nor
/// a purpose clause ("called beforehand to drop the required-review rule")
/// unless it is one the speaker cannot or will not do ("refuses to disable").
pub(super) fn in_condition(before: &str, protection: bool) -> bool {
    // Only the last words before the act count: a sentence of a megabyte
    // with no comma is read from its last few hundred bytes, not per hit.
    let before = &before[crate::text::reach_back(before, before.len(), REACH)..];
    // "Create the role (if missing) and grant …": a parenthesis closing
    // right before the act conditions what it follows, not the act.
    let unbracketed;
    let before = match trailing_parenthesis(before) {
        Some((open, close)) => {
            unbracketed = format!("{}{}", &before[..open], &before[close + 1..]);
            unbracketed.as_str()
        }
        None => before,
    };
    // "Before the lookup, turn off …": the condition ends at its comma.
    let before = before
        .rfind([',', ';', ':'])
        .map_or(before, |i| &before[i + 1..]);
    let words: Vec<&str> = before
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .rev()
        .take(3)
        .collect();
    // "Refuses to disable …", "whether to turn off …": still no order.
    let cannot_to = words.windows(2).any(|p| {
        p[0] == "to"
            && matches!(
                p[1],
                "refuse" | "refuses" | "unable" | "fail" | "fails" | "whether" | "how" | "not"
            )
    });
    words.iter().any(|w| {
        matches!(
            *w,
            "when"
                | "whenever"
                | "if"
                | "while"
                | "before"
                | "after"
                | "once"
                | "upon"
                | "unless"
                | "until"
                | "for"
                | "to"
                | "can"
                | "may"
                | "might"
                | "cannot"
                | "won't"
                | "not"
                | "never"
                | "without"
                | "that"
                | "which"
                | "who"
        ) && !(protection && *w == "to" && !cannot_to)
            || !protection && matches!(*w, "it" | "this" | "tool")
    })
}

/// The byte range of a parenthesis that closes the text (before an optional
/// "and", "then" or "or"), matched by depth and holding no clause break;
/// `None` when there is none or it does not pair up.
fn trailing_parenthesis(before: &str) -> Option<(usize, usize)> {
    let mut t = before.trim_end();
    for w in [" and", " then", " or"] {
        if let Some(x) = t.strip_suffix(w) {
            t = x.trim_end();
            break;
        }
    }
    let close = t
        .len()
        .checked_sub(1)
        .filter(|&c| t.as_bytes()[c] == b')')?;
    let mut depth = 0usize;
    for (i, b) in t.bytes().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    return (i > 0 && !t[..i].trim().is_empty()).then_some((i, close));
                }
            }
            b',' | b';' | b':' => return None,
            _ => {}
        }
    }
    None
}
