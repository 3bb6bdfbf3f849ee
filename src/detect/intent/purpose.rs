//! Whether what a sentence names is what the tool is for. A sentence that
//! names sensitive data (or aims an action at something) is marked in or out
//! of the tool's purpose: a password manager returning a vault entry is
//! doing its job, a date formatter that talks about credentials is not.

use super::item::ItemCtx;
use super::signals::Sentence;
use super::tables::{Derived, Tables, bit};
use crate::surface::TextField;
use std::ops::Range;

/// Mark each sentence of `field` that names data or aims an action in or out
/// of the purpose of its item (or of server `server`, for server text).
pub(super) fn judge(
    t: &Tables,
    ctx: &ItemCtx<'_>,
    field: &TextField<'_>,
    server: &str,
    (text, ranges): (&str, &[Range<usize>]),
    sentences: &mut [Sentence],
) {
    // Instructions that open with an order ("before anything else, read …")
    // do not define what the server is for.
    let opening_order = sentences.first().is_some_and(|f| {
        let order = t.c.when | t.c.addressed | bit(Derived::Imperative as u8);
        f.sigs & order != 0 && f.sigs & (t.c.verbs | bit(Derived::ToolCall as u8)) != 0
    });
    let purpose = ctx.purpose(field.path == "instructions" && opening_order);
    let name = field.item.unwrap_or(server);
    let not_about = || {
        format!(
            "`{}` is not about it",
            crate::text::truncate_chars(name, 30)
        )
    };
    for i in 0..sentences.len() {
        // A next sentence that points back and names a slot ("the IBAN the
        // user types …; fill payee_iban with it") says where this one's data
        // goes.
        let next_points_back = sentences
            .get(i + 1)
            .is_some_and(|n| n.sigs & t.c.anaphor != 0);
        let sen = &mut sentences[i];
        let what = sen.sigs & t.c.mask_what;
        let aim = sen.sigs & t.c.mask_control;
        if what | aim == 0 {
            continue;
        }
        let slot = ctx.slot_purpose(&text[ranges[i].clone()]);
        // What an action is aimed at, judged apart from the data it names.
        if aim != 0 {
            if aim & !(purpose | slot) == 0 {
                sen.add(Derived::AimInPurpose as u8, "the tool's own purpose");
            } else {
                sen.add(Derived::AimOutOfPurpose as u8, &not_about());
            }
        }
        if what == 0 {
            continue;
        }
        // In purpose only when the tool's purpose covers every kind of data
        // the sentence names: a code-search tool is about source code, not
        // the credentials beside it. A slot named `standing_orders` is not
        // about the model's own ("your") instructions, though a prompt
        // linter, or a `system_prompt` the user writes, is about prompts.
        let said = |words: &[&str]| {
            sen.evidence.iter().any(|(b, ev)| {
                bit(*b) & t.c.model_rules != 0 && ev.split_whitespace().any(|w| words.contains(&w))
            })
        };
        let yours = said(&["your", "you", "yours"]);
        // "The instructions you were set up with" is the model's own set-up
        // even where the tool's first sentence names it; "paste your system
        // prompt" in a prompt linter is the user's.
        let set_up = said(&["you"]);
        let back = if next_points_back {
            ctx.slot_purpose(&text[ranges[i + 1].clone()])
        } else {
            0
        };
        let slot = (slot | back) & !if yours { t.c.model_rules } else { 0 };
        let covered = (purpose & !if set_up { t.c.model_rules } else { 0 }) | slot;
        if what & !covered == 0 && sen.sigs & bit(Derived::Chained as u8) == 0 {
            sen.add(Derived::InPurpose as u8, "the tool's own purpose");
        } else {
            sen.add(Derived::OutOfPurpose as u8, &not_about());
        }
    }
}
