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
];

/// Words after it that send it back into the chat ("… wrote earlier").
const EARLIER: &[&str] = &[
    "earlier",
    "before",
    "previously",
    "so",
    "in",
    "during",
    "at",
    "over",
];

/// Drops a conversation hit ("user wrote", "user typed") that closes a
/// relative clause on a concrete piece of work ("the caption the user
/// typed"), unless what follows points back into the chat.
pub(super) fn drop_task_input(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    hits.retain(|h| {
        if bit(h.concept as u8) & t.c.context == 0 {
            return true;
        }
        let term = &text[h.range()];
        if !term.starts_with("user ")
            || !["wrote", "typed", "entered", "pasted", "gave"]
                .iter()
                .any(|v| term.ends_with(v))
        {
            return true;
        }
        let Some(before) = text[..h.span.0 as usize].strip_suffix("the ") else {
            return true;
        };
        let mut words = before.split_whitespace().rev();
        let noun = words.next().unwrap_or("");
        let det = words.next().unwrap_or("");
        let next = text[h.span.1 as usize..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_matches(|c: char| c.is_ascii_punctuation());
        let concrete = noun.len() > 2
            && noun.chars().all(|c| c.is_alphabetic() || c == '-')
            && !CONVERSATION.contains(&noun)
            && matches!(det, "the" | "a" | "an" | "this" | "that");
        !concrete || EARLIER.contains(&next)
    });
}
