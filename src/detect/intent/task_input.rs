//! What the user wrote for this very task is the tool's input, not the
//! conversation taken: "the announcement the user wrote" names one piece of
//! work; "the messages the user wrote", "everything the user typed" and
//! "the note the user wrote earlier" reach into the chat.

use super::tables::{Tables, bit};
use crate::lang;

/// Heads that make "the … the user wrote" the conversation itself.
const CONVERSATION: &[&str] = &[
    "message",
    "messages",
    "chat",
    "chats",
    "conversation",
    "conversations",
    "thread",
    "threads",
    "turn",
    "turns",
    "history",
    "everything",
    "anything",
    "all",
    "whatever",
    "what",
    "things",
    "prompt",
    "prompts",
    "instructions",
    "replies",
    "reply",
    "lines",
    "words",
    "text",
    "question",
    "questions",
    "request",
    "requests",
    "query",
    "queries",
    "input",
    "inputs",
    "comment",
    "comments",
    "answer",
    "answers",
    "response",
    "responses",
    "feedback",
    "data",
    "details",
    "information",
    "content",
    "contents",
];

/// Words in the rest of the clause that send it back into the chat ("…
/// wrote earlier", "… typed anywhere in this conversation").
const EARLIER: &[&str] = &[
    "earlier",
    "before",
    "previously",
    "so far",
    "chat",
    "conversation",
    "session",
    "anywhere",
    "yesterday",
    "last",
    "ago",
    "across",
    "throughout",
    "above",
    "already",
    "history",
];

/// Drops a conversation hit ("user wrote", "user typed") that closes a
/// relative clause on a concrete piece of work ("the caption the user
/// typed"), unless the rest of its clause points back into the chat or its
/// sentence names an address it would go to.
pub(super) fn drop_task_input(
    t: &Tables,
    text: &str,
    sentences: &[std::ops::Range<usize>],
    hits: &mut Vec<lang::Hit>,
) {
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.context == 0 {
            return true;
        }
        let term = &text[h.range()];
        if !term.starts_with("user ") || !(term.ends_with("wrote") || term.ends_with("typed")) {
            return true;
        }
        let before = &text[..h.span.0 as usize];
        let Some(before) = before
            .strip_suffix("the ")
            .filter(|b| b.is_empty() || b.ends_with(' '))
        else {
            return true;
        };
        let mut words = before.split_whitespace().rev();
        let noun = words.next().unwrap_or("");
        let det = words.next().unwrap_or("");
        let concrete = noun.len() > 2
            && noun.chars().all(|c| c.is_alphabetic() || c == '-')
            && !CONVERSATION.contains(&noun)
            && matches!(det, "the" | "a" | "an" | "this" | "that");
        if !concrete {
            return true;
        }
        let after = &text[h.span.1 as usize..];
        let clause = &after[..after.find(['.', ';', ',', '\n']).unwrap_or(after.len())];
        let sentence = sentences
            .iter()
            .find(|r| r.contains(&(h.span.0 as usize)))
            .map_or("", |r| &text[r.clone()]);
        EARLIER.iter().any(|w| clause.contains(w))
            || sentence.contains("://")
            || sentence.contains('@')
    });
}
