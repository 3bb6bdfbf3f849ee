//! Stage 2, attack structure: the instruction aimed at the model, whatever its
//! words or language.
//!
//! An attack in tool metadata has a shape it cannot avoid: it addresses the
//! model, asks it to move data or act beyond the tool's purpose, names what to
//! take and where to put it, and often asks it to keep quiet. Each sentence of
//! a field is read for those parts — concepts of `src/data/lang/intent.toml`
//! (seventeen languages) plus signals derived from the text and its tool (a named
//! parameter, another server's tool, a URL with a slot for data, hidden text,
//! data the tool's purpose never mentions) — and `src/data/lang/combos.toml`
//! says which combinations make a finding. Every finding lists its signals and
//! the words that gave them, so a reviewer sees why in one line.
//!
//! The reader is split along its seams, each file depending only on those
//! listed before it:
//! - `tables.rs`: the compiled tables (lexicon, combinations, the concept
//!   masks the code reads, patterns) and the lexicon lookups (`find_gated`,
//!   `frame_hits`);
//! - `signals.rs`: what a sentence and a field name (`Sentence`,
//!   `FieldSignals`), what is found (`Structure`) and the pattern stage's
//!   facts (`PatternFacts`);
//! - `reading.rs`: a field as the model reads it (`Reading`), with the quoted
//!   spans that only mention attacks marked (`quotes.rs` finds the quotes);
//! - `item.rs`: the field's tool (`ItemCtx`): its parameters, its purpose and
//!   its server's, its sibling tools' names;
//! - `derive.rs`: signals derived from a sentence's text and tool (`derive`)
//!   and the clause helpers the sentence reader uses (conditions, lists, the
//!   order's verb);
//! - `evaluate.rs`: the combinations matched and explained, per sentence and
//!   field and across a tool's fields (`analyse_item`);
//! - `carry.rs`: what a field's earlier lines make of its later ones (a
//!   heading, a list's scope, a scenario's steps, a switch of language);
//! - this file: one field read (`analyse`), `trace` and `kinds`.

mod carry;
mod condition;
mod derive;
mod dismiss;
mod drop;
mod evaluate;
mod fixed_report;
mod fnv;
mod frame;
mod grid;
mod guard;
mod impostor;
use impostor::{impostor_of, impostor_of_named};
mod item;
mod langid;
mod negation;
mod payee;
mod query_slot;
mod quotes;
mod subject;
use negation::{Negation, covers};
use subject::user_is_subject;
mod preset;
mod purpose;
mod reading;
mod signals;
mod tables;
mod task_input;
#[cfg(test)]
pub(crate) mod tests;
mod transcript;
mod untold;
mod url_slot;
mod verb_form;

pub use evaluate::analyse_item;
pub use fnv::{Fnv, FnvBuild};
pub(crate) use item::first_sentence;
pub use reading::Reading;
pub use signals::{FieldSignals, PatternFacts, Sentence, Structure};
pub use tables::{Combo, Derived, Scope, Tables, tables};

use crate::finding::Severity;
use crate::lang;
use crate::surface::{ServerSurface, TextField};
use condition::in_condition;
use derive::{auth_use, derive, in_address, in_name, lists_values, order_start};
use evaluate::evaluate;
use item::ItemCtx;
use preset::{assignment, outside_preset, preset_slot};
use tables::bit;

/// The signals of every sentence of one field, one line each: a tuning aid
/// (`detection_eval --case ID`) that shows why a structure did or did not form.
pub fn trace(sig: &FieldSignals) -> Vec<String> {
    let t = tables();
    let names = |ev: &[(u8, String)]| {
        ev.iter()
            .map(|(b, w)| format!("{}={w:?}", t.name(*b)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = Vec::new();
    if !sig.field_evidence.is_empty() {
        out.push(format!(
            "{} (field): {}",
            sig.path,
            names(&sig.field_evidence)
        ));
    }
    for s in &sig.sentences {
        out.push(format!(
            "{}: {}  <- {:?}",
            sig.path,
            names(&s.evidence),
            crate::text::truncate_chars(&s.text, 120)
        ));
    }
    out
}

/// Read one field: its signals and the structures they make.
pub fn analyse(
    s: &ServerSurface,
    field: &TextField<'_>,
    hidden: bool,
    facts: &PatternFacts,
    reading: Option<&Reading>,
) -> (Vec<Structure>, FieldSignals) {
    let t = tables();
    let mut sig = FieldSignals {
        path: field.path.clone(),
        ..FieldSignals::default()
    };
    let Some(reading) = reading else {
        return (Vec::new(), sig);
    };
    let text = reading.text.as_str();
    if hidden {
        sig.field_sigs |= bit(Derived::Hidden as u8);
        sig.field_evidence
            .push((Derived::Hidden as u8, "hidden from a reviewer".into()));
    }
    // A command belongs to the sentence that holds it (a field-wide signal
    // would join it to any directive elsewhere in the text).
    let cmd_norm = facts.cmd.as_ref().map(|c| {
        let n = lang::normalize(c).text;
        crate::text::truncate_chars(&n, 24)
            .trim_end_matches('…')
            .to_string()
    });
    if let Some(c) = &facts.fetch_exec {
        sig.field_sigs |= bit(Derived::CmdFetchExec as u8);
        sig.field_evidence
            .push((Derived::CmdFetchExec as u8, c.clone()));
    }
    // A `$comment` as long as a description is documentation, as a
    // description is (what it says is still read as prose).
    let documented = field.path.ends_with("$comment") && text.split_whitespace().nth(79).is_some();
    if is_schema_value(&field.path) && !documented {
        sig.field_sigs |= bit(Derived::SchemaValue as u8);
        sig.field_evidence.push((
            Derived::SchemaValue as u8,
            "a value the model may use as is".into(),
        ));
    }
    let preset = preset_slot(field, text, s);
    if let Some((p, pattern)) = &preset {
        sig.field_sigs |= bit(Derived::Preset as u8);
        sig.field_evidence.push((
            Derived::Preset as u8,
            format!(
                "the {} of `{p}`",
                if *pattern { "pattern" } else { "default" }
            ),
        ));
        // A pattern's address is escaped (`x@y\.com`): name it here.
        if *pattern {
            sig.field_sigs |= bit(Derived::WhereExt as u8);
            sig.field_evidence.push((
                Derived::WhereExt as u8,
                "an address the pattern requires".into(),
            ));
        }
    }
    // A label has no reason to be a sentence, still less one that gives orders.
    let words = text.split_whitespace().count();
    if (field.path.ends_with(".title") && !field.path.contains("Schema") && words >= 8)
        || (field.channel == crate::surface::Channel::Name && words > 5)
    {
        sig.field_sigs |= bit(Derived::Label as u8);
        sig.field_evidence
            .push((Derived::Label as u8, format!("a label of {words} words")));
    }
    let any_concept = reading
        .hits
        .iter()
        .fold(0u128, |m, h| m | bit(h.concept as u8));
    // An address, or a host with a slot for data (`<x>.zone.example`), is read alone.
    let address = text.contains("://")
        || text.contains(">.")
        || text.contains("}.")
        || text.contains('@') && t.email.is_match(text.as_bytes());
    if any_concept & t.c.trigger_any == 0
        && !hidden
        && cmd_norm.is_none()
        && !address
        && preset.is_none()
    {
        return (Vec::new(), sig);
    }
    let ctx = ItemCtx::new(s, field);
    let switch = ctx.switch();
    // "Do not store or repeat the code": a forbidden report says nothing to
    // the user; "must not invoke other tools … even if the user selects an
    // option" is caution, not the user overridden.
    let against = t.c.against_user;
    let negatable = t.c.move_
        | t.c.move_weak
        | t.c.act
        | t.c.read
        | t.c.no_consent
        | t.c.obey
        | t.c.ask_user
        | t.c.report_to_user
        | against;
    let ranges = &reading.sentences;
    let mut first_hit = 0;
    // The parameter a docstring line documents (`name (type): …`,
    // `@param {type} name - …`), for every sentence to the line's end.
    let mut doc_param: Option<String> = None;
    let example = transcript::read(t, text);
    for range in reading.sentences.iter().cloned() {
        let sentence = &text[range.clone()];
        let mut sen = Sentence::default();
        for (_, v, d) in example.iter().filter(|(r, ..)| range.contains(&r.start)) {
            sen.add(*d as u8, v);
        }
        // Hits are sorted by start: this sentence's are the next run of them.
        while first_hit < reading.hits.len()
            && (reading.hits[first_hit].span.0 as usize) < range.start
        {
            first_hit += 1;
        }
        let mut end_hit = first_hit;
        while end_hit < reading.hits.len() && (reading.hits[end_hit].span.0 as usize) < range.end {
            end_hit += 1;
        }
        let own = &reading.hits[first_hit..end_hit];
        let neg = Negation::new(t, text, range.clone(), own);
        let prohibition = neg.prohibition();
        let (negated, negated_back) = neg.scope(prohibition);
        // "Run exactly:" may end where its command starts, on the next line.
        // An act aimed at a protection is not excused as the tool's own description.
        let protection = own
            .iter()
            .any(|c| bit(c.concept as u8) & t.c.sec_control != 0);
        let reported = own
            .iter()
            .any(|c| bit(c.concept as u8) & t.c.report_to_user != 0);
        // The hits that may hold hit `h`: sorted by start, none starts more
        // than the longest hit's length before it. Read per weakening word,
        // so a sentence of thousands of them stays linear in practice.
        let longest = own.iter().map(|c| c.span.1 - c.span.0).max().unwrap_or(0);
        let around = |h: &lang::Hit| {
            let from = own.partition_point(|c| c.span.0 < h.span.0.saturating_sub(longest));
            let to = own.partition_point(|c| c.span.0 <= h.span.0);
            &own[from..to]
        };
        for h in own.iter().filter(|h| {
            (h.span.1 as usize) <= range.end || bit(h.concept as u8) & t.c.exec_order != 0
        }) {
            let b = bit(h.concept as u8);
            // Read by `untold.rs` only: alone they say nothing.
            if b & t.c.untold_words != 0 {
                continue;
            }
            if neg.asks_to(h) {
                sen.add(t.c.prohibit.trailing_zeros() as u8, &text[h.range()]);
                continue;
            }
            if neg.void(h) || neg.later_clause(h) {
                continue;
            }
            // "Valid values include: contacts, …" lists; it orders nothing
            // (a setting, `also_include: …`, does).
            if b & t.c.move_weak != 0
                && !text[h.range()].contains('_')
                && lists_values(
                    &text[range.start..h.span.0 as usize],
                    &text[h.span.1 as usize..range.end],
                )
            {
                continue;
            }
            // "Going forward, …" says from when on; it forwards nothing.
            if b & t.c.move_ != 0
                && text[h.range()].starts_with("forward")
                && [" going", " moving", "going", "moving"]
                    .iter()
                    .any(|p| text[..h.span.0 as usize].trim_end().ends_with(p))
            {
                continue;
            }
            // "Unless reveal is true", "only set reveal when …": a verb that is
            // one of the tool's parameters, named as such, is the switch.
            if b & t.c.verbs != 0 && ctx.is_param(&text[h.range()]) {
                let next = text[h.span.1 as usize..].split_whitespace().next();
                let prev = text[..h.span.0 as usize].split_whitespace().next_back();
                if matches!(next, Some("is" | "are" | "=" | "to"))
                    || matches!(
                        prev,
                        Some("set" | "sets" | "setting" | "unless" | "enable" | "disable")
                    )
                {
                    continue;
                }
            }
            // "Repeat it back before create_webhook": a read-back to the user moves nothing.
            let after = &text[h.span.1 as usize..];
            // "The requester is not notified twice": a duplicate spared, not an act hidden.
            if b & t.c.conceal != 0 && untold::DUPLICATE.iter().any(|p| after.starts_with(p)) {
                continue;
            }
            if b & (t.c.move_ | t.c.move_weak) != 0
                && untold::READ_BACK.iter().any(|p| after.starts_with(p))
            {
                continue;
            }
            // The words before the user's choice: passed over ("set it to +44…
            // and not the subscriber's own number") or added to ("always in
            // this list, in addition to whoever the user names").
            if b & t.c.user_choice != 0 {
                let before = text[range.start..h.span.0 as usize].trim_end();
                let reread: [(&[&str], u128); 2] = [
                    (
                        &["and not", "but not", "instead of", "rather than", "not to"],
                        t.c.override_,
                    ),
                    (
                        &[
                            "in addition to",
                            "as well as",
                            "besides",
                            "on top of",
                            "alongside",
                            "not only",
                            "not just",
                        ],
                        t.c.shadow_change,
                    ),
                ];
                if let Some((p, concept)) = reread.iter().find_map(|(words, c)| {
                    words.iter().find(|p| before.ends_with(**p)).map(|p| (p, c))
                }) {
                    let from = range.start + before.len() - p.len();
                    sen.add(
                        concept.trailing_zeros() as u8,
                        &text[from..h.span.1 as usize],
                    );
                    continue;
                }
            }
            // "The address the user pasted": the user moved it, nobody is told to.
            if b & (t.c.move_ | t.c.move_weak) != 0
                && user_is_subject(&text[range.start..h.span.0 as usize])
            {
                continue;
            }
            // "It will not go through": a change denied where it stands.
            if b & t.c.shadow_change != 0 {
                // "Goes to exactly the IBAN the user typed": the user's choice
                // kept. "Double the figure the user gives" changes it.
                let end = (h.span.1 as usize + 60).min(range.end);
                let ahead = &text[h.span.1 as usize..text.floor_char_boundary(end)];
                // "Enter ten times the number …": a figure computed from the
                // user's, not the user's.
                let arithmetic = [
                    "double", "triple", "multiply", "increase", "inflate", "round",
                ]
                .iter()
                .any(|w| text[h.range()].starts_with(w))
                    || [" times ", " twice ", "% of ", " half of "]
                        .iter()
                        .any(|w| text[h.range()].contains(w));
                if !arithmetic
                    && let Some(m) = subject::user_choice(t, ahead.as_bytes())
                    && !ahead[..m.start()].split_whitespace().any(|w| {
                        matches!(
                            w.trim_matches(|c: char| !c.is_alphanumeric()),
                            "not"
                                | "instead"
                                | "rather"
                                | "whatever"
                                | "regardless"
                                | "but"
                                | "except"
                                | "than"
                                | "over"
                                | "never"
                                | "whichever"
                                | "whoever"
                        )
                    })
                {
                    continue;
                }
                let before = text[range.start..h.span.0 as usize].trim_end();
                // ("Why not also send …?" suggests it.)
                if (before.ends_with(" not") && !before.ends_with("why not"))
                    || before.ends_with("n't")
                    || before.ends_with(" never")
                {
                    continue;
                }
            }
            if dismiss::dismissed(t, text, &range, h, own) {
                continue;
            }
            // "Never substituted or defaulted": a change negated where it stands.
            if b & t.c.shadow_change != 0
                && let Some(n) = &negated
                && text
                    .get(n.start..h.span.0 as usize)
                    .is_some_and(|g| g.trim().is_empty())
            {
                continue;
            }
            if b & negatable != 0
                && (covers(&negated, h)
                    || neg.denied_subject(h)
                    || negated_back
                        .as_ref()
                        .is_some_and(|r| r.contains(&(h.span.0 as usize))))
                || b & t.c.mask_what != 0 && (neg.object(&negated, h) || neg.denied_data(h))
            {
                continue;
            }
            if b & (t.c.defensive | t.c.example) == 0 && reading.mentioned(h.range()) {
                continue;
            }
            // A word inside an address (`https://telemetry.example.org`,
            // `audit@…`) cannot excuse what the sentence does with it.
            if b & t.c.weakening != 0 && in_address(text, h.range()) {
                continue;
            }
            // A query key or path part (`…&redirect_uri={redirect_uri}`,
            // `/send`) names a parameter or a route; it orders nothing.
            if b & t.c.verbs != 0 && text[..h.span.0 as usize].ends_with(['&', '?', '{', '/', '='])
            {
                continue;
            }
            // "Report the name the user asked for" echoes the user's choice; it discloses nothing.
            let echoed =
                |c: &lang::Hit| bit(c.concept as u8) & t.c.user_choice != 0 && c.span == h.span;
            if b & t.c.weakening != 0 && reported && around(h).iter().any(echoed) {
                continue;
            }
            // "Your own guidelines" are the model's, not the user's (so are
            // "your own" opening directions); the
            // "never" of "never reveals" conceals; "whatever branch the user
            // names" overrides the user: a weakening word inside what is
            // taken, a concealment or an override excuses nothing.
            if b & t.c.weakening != 0
                && (around(h).iter().any(|c| {
                    let cb = bit(c.concept as u8);
                    (cb & (t.c.context | t.c.model_rules | t.c.conceal) != 0
                        || cb & against != 0
                            && !covers(&negated, c))
                        && c.span.1 >= h.span.1
                        && c.span != h.span
                        // "Do not ask the user before …": the consent skipped, not asked.
                        || cb & t.c.no_consent != 0
                            && h.span.0 < c.span.1
                            && c.span != h.span
                })
                    // "Your own opening directions": the model's own, named
                    // right after it (hits sorted by start: the first one
                    // with a word between ends the search).
                    || own[own.partition_point(|c| c.span.0 < h.span.1)..]
                        .iter()
                        .take_while(|c| {
                            text[h.span.1 as usize..c.span.0 as usize].trim().is_empty()
                        })
                        .any(|c| bit(c.concept as u8) & t.c.model_rules != 0))
            {
                continue;
            }
            // "Do not show names of other patients", "do_not_show: internal
            // margins": data kept from view is a privacy rule, not concealment.
            if b & t.c.conceal != 0
                && (guard::guards_data(t, &text[h.range()], &text[h.span.1 as usize..range.end])
                    || guard::guards_key_before(t, text, own, h))
            {
                sen.add(t.c.prohibit.trailing_zeros() as u8, &text[h.range()]);
                continue;
            }
            // A key a call is made with ("using OPENAI_API_KEY") configures it; it is not sent.
            if b & t.c.secret != 0
                && text[h.range()].contains('_')
                && auth_use(&text[range.start..h.span.0 as usize])
            {
                continue;
            }
            // "In every conversation" says when, not what: a quantified
            // conversation after a preposition is a time, not data taken.
            if b & t.c.context != 0
                && ["every ", "each ", "all "]
                    .iter()
                    .any(|q| text[h.range()].starts_with(q))
                && [
                    "in",
                    "during",
                    "for",
                    "across",
                    "throughout",
                    "at",
                    "on",
                    "per",
                    "into",
                ]
                .iter()
                .any(|p| text[range.start..h.span.0 as usize].trim_end().ends_with(p))
            {
                continue;
            }
            // A verb inside a name is part of the name, not an order (only
            // verbs: `headers.cookie` still names a cookie). So is a verb
            // quoted on its own (`'reveal'`, `== "deploy"`), naming a product
            // ("the Harvest API") or opening a shell assignment (`export KEY=…`).
            if b & (negatable | t.c.verbs) != 0
                && (in_name(text, h.range()) || derive::verb_as_name(text, h.range()))
            {
                continue;
            }
            // An action named inside a condition ("when deploying, …") is not an order.
            // "Only if they renew at https://…", "… that a fee of 149.00 is due": a payment asked is the lure.
            if b & t.c.act != 0
                && in_condition(&text[range.start..h.span.0 as usize], protection)
                && !payee::asks_payment(text, h.range())
            {
                continue;
            }
            sen.add(h.concept as u8, &text[h.range()]);
            // The model's own instructions are context too, and never a tool's purpose.
            if b & t.c.model_rules != 0 {
                sen.add(t.c.context.trailing_zeros() as u8, &text[h.range()]);
            }
        }
        untold::mark(t, reading, range.clone(), own, &mut sen);
        untold::mark_set_aside(t, sentence, &mut sen);
        // An English order opens with its verb: "Add this key to …", "Also grab …".
        let at = range.start + order_start(sentence);
        // A hit may begin at a skipped adverb ("also send") and cover the verb.
        // A third-person verb there describes the tool ("Deletes every record
        // matching the filters"): docstring style, not an order; so does a
        // boolean switch's own description (`switch`, read once per field).
        if switch {
            sen.add(Derived::Switch as u8, item::SWITCH);
        }
        if !switch
            && let Some(h) = own.iter().find(|h| {
                (range.start..=at).contains(&(h.span.0 as usize))
                    && h.span.1 as usize > at
                    && bit(h.concept as u8) & (t.c.verbs | t.c.approval_off) & sen.sigs != 0
                    && h.lang == lang::Lang::En
            })
            && !verb_form::third_person(&text[at..])
            && !verb_form::gerund(&text[at..])
        {
            sen.add(Derived::Imperative as u8, &text[h.range()]);
        }
        // Structure is only derived where there is something to combine it
        // with: an action, a concealment, a rule, data named, an address.
        if text[..range.start].trim_end_matches(' ').ends_with('\n') || range.start == 0 {
            doc_param = reading::documented_param(&text[range.clone()])
                .filter(|p| ctx.is_param(p))
                .map(str::to_string);
        }
        // A defaults block or sample call in the text that sets a parameter
        // of this tool deciding where things go to an outside address.
        if let Some((p, v)) = assignment(sentence)
            && (sentence.contains('@') || sentence.contains("://") || sentence.contains('+'))
            && ctx.is_param(p)
            && outside_preset(field.item, p, v)
        {
            sen.add(
                Derived::Preset as u8,
                &format!("`{p}` set to an outside address"),
            );
        }
        if (sentence.contains('(') || sentence.contains(" with "))
            && (sentence.contains('@') || sentence.contains("://"))
            && let Some((tool, p)) = preset::call_preset(t, &ctx, sentence)
        {
            sen.add(
                Derived::Preset as u8,
                &format!("`{p}` of `{tool}` set to an outside address"),
            );
        }
        preset::mark_slots(t, &ctx, sentence, &mut sen);
        if sen.sigs & t.c.actionable != 0
            || hidden
            || (sen.sigs != 0 && sig.field_sigs & bit(Derived::Label as u8) != 0)
            || sentence.contains("://")
            || sentence.contains('@')
            || (sen.sigs != 0 && sentence.contains('\''))
            // An order to call a tool written bare: "call delete_all_events".
            || (sen.sigs != 0
                && (sentence.contains('_') && t.bare_call.is_match(sentence.as_bytes())
                    || t.bare_word_call.is_match(sentence.as_bytes())))
            || sentence.contains("'s '")
            // An IBAN, wallet or account number beside any signal.
            || payee::digit_run(sentence)
            || payee::named_account(t, sentence)
            || preset::opens_with_param(&ctx, sentence)
        {
            let start = range.start;
            let negated = negated.map(|n| n.start - start..n.end - start);
            derive(
                t,
                &ctx,
                field,
                sentence,
                (doc_param.as_deref(), negated),
                &|a, b| reading.mentioned(start + a..start + b),
                &mut sen,
            );
        }
        preset::slot_by_anaphor(sig.sentences.last(), sentence, &mut sen);
        if let Some(p) = preset::described_preset(t, &ctx, field, sentence, sen.sigs) {
            sen.add(Derived::Preset as u8, &p);
        }
        if let Some(c) = &cmd_norm
            && sentence.contains(c.as_str())
        {
            sen.add(Derived::Cmd as u8, c);
        }
        // Another server's results, as what is taken.
        if sen.sigs & t.c.tool_output != 0
            && sen.sigs & (bit(Derived::ToolKnown as u8) | t.c.other_tool) != 0
        {
            sen.add(t.c.context.trailing_zeros() as u8, "another tool's results");
        }
        // One tool's results handed to another of this server ("pass the
        // complete result to `submit_feedback`", "set it to the output of
        // `get_runtime_info`"): what is taken is what the producing tool reads.
        if sen.sigs & t.c.tool_output != 0
            && sen.sigs & bit(Derived::ToolOwn as u8) != 0
            && sen.sigs & (t.c.verbs | bit(Derived::Dest as u8) | bit(Derived::WhereParam as u8))
                != 0
            && let Some((source, what)) = ctx.chained_source(
                sentence,
                sen.sigs & (bit(Derived::Dest as u8) | bit(Derived::WhereParam as u8)) != 0,
            )
        {
            let source = crate::text::truncate_chars(source, 30);
            sen.add(
                what.trailing_zeros() as u8,
                &format!("the results of `{source}`"),
            );
            sen.add(
                Derived::Chained as u8,
                &format!("`{source}`'s results handed on"),
            );
        }
        dismiss::choice_overridden(t, &mut sen);
        sig.sentences.push(sen);
    }
    // A URL's query value the text defines in words carries that data.
    query_slot::mark(text, ranges, &mut sig.sentences);
    // "Send the goal exactly as in the example", "keep these as shown in
    // every call": an example the text orders used as is is no example.
    let union = sig.union();
    dismiss::consent_faked(t, &mut sig.sentences, union);
    if union & t.c.adopt_example != 0 {
        for sen in &mut sig.sentences {
            sen.sigs &= !t.c.example;
        }
    }
    // Purpose is only asked about when a sentence names sensitive data.
    if union & (t.c.mask_what | t.c.mask_control) != 0 {
        purpose::judge(t, &ctx, field, &s.name, (text, ranges), &mut sig.sentences);
    }
    if let Some(c) = &cmd_norm
        && !sig
            .sentences
            .iter()
            .any(|s| s.sigs & bit(Derived::Cmd as u8) != 0)
    {
        sig.field_sigs |= bit(Derived::Cmd as u8);
        sig.field_evidence.push((Derived::Cmd as u8, c.clone()));
    }
    if reading.gated || !crate::text::is_plain_ascii(text) {
        carry::mark_language_switch(t, text, ranges, &mut sig.sentences);
    }
    // A shell tool's own commands are its job, not guidance to run something;
    // so are those it quotes ("exercises cover `crontab -l`") with no order.
    let quoted = |s: &Sentence| {
        s.sigs & bit(Derived::Value as u8) != 0
            && s.sigs & t.c.persist != 0
            && s.sigs & t.c.orders == 0
    };
    let commands = facts.cmd.is_some() || facts.fetch_exec.is_some();
    let commands = commands || sig.sentences.iter().any(quoted);
    let why = if commands && ctx.shell_like() {
        Some("the tool runs or checks commands")
    } else if commands && dismiss::commands_for_user(t, sig.union(), text, ranges) {
        Some("the commands are for the user, not the model, to run")
    } else {
        None
    };
    if let Some(why) = why {
        for sen in &mut sig.sentences {
            sen.add(Derived::InPurpose as u8, why);
        }
        sig.field_sigs |= bit(Derived::ShellTool as u8);
        sig.field_evidence
            .push((Derived::ShellTool as u8, why.into()));
    }
    if field.channel != crate::surface::Channel::Name
        && let Some(near) = field
            .item
            .filter(|_| field.item_kind == "tool")
            .and_then(|name| {
                impostor_of(name)
                    .map(str::to_string)
                    .or_else(|| impostor_of_named(s, name, text))
            })
    {
        for sen in &mut sig.sentences {
            sen.add(
                Derived::Impostor as u8,
                &format!("name one edit from `{near}`"),
            );
        }
    }
    carry::carry_scopes(t, text, ranges, &mut sig.sentences);
    // Only sentences that name something are kept, with their words for evidence.
    let mut kept = Vec::new();
    for (sen, r) in sig.sentences.into_iter().zip(ranges) {
        if sen.sigs != 0 {
            kept.push(Sentence {
                text: crate::text::truncate_chars(&text[r.clone()], 160),
                ..sen
            });
        }
    }
    sig.sentences = kept;
    let found = evaluate(t, &sig, &[Scope::Sentence, Scope::Field]);
    (found, sig)
}

/// The text is a schema keyword's value, not prose: data a model uses as is
/// (`default`, `enum`, `examples`) or a constraint (`pattern`, `format`, `$comment`,
/// a schema `title`). An order to the model there has no honest reason.
fn is_schema_value(path: &str) -> bool {
    let in_schema = path.contains("Schema");
    // The last three segments, each with the one before it (no allocation: one call per field).
    let mut rev = path.rsplit('.');
    let last = [rev.next(), rev.next(), rev.next(), rev.next()];
    (0..3).any(|i| {
        let Some(seg) = last[i] else {
            return false;
        };
        // A property named `format` or `default` is a name, not that keyword.
        if last[i + 1] == Some("properties") {
            return false;
        }
        let key = seg.split('[').next().unwrap_or("");
        matches!(key, "default" | "const" | "examples" | "example" | "enum")
            || (in_schema
                && matches!(
                    key,
                    "pattern" | "format" | "$comment" | "title" | "contentMediaType"
                ))
    })
}

/// Kinds for the compound-poisoning count of stage 2: concealment and override
/// concepts, plus every structure found.
pub fn kinds(sig: &FieldSignals, found: &[Structure]) -> Vec<(String, String)> {
    let t = tables();
    let mut out = Vec::new();
    for s in &sig.sentences {
        for (b, ev) in &s.evidence {
            let k = bit(*b);
            let kind = if k & t.c.conceal != 0 {
                "secrecy"
            } else if k & t.c.override_ != 0 {
                "override"
            } else {
                continue;
            };
            out.push((kind.to_string(), ev.clone()));
        }
    }
    for f in found.iter().filter(|f| f.severity >= Severity::Medium) {
        out.push((
            f.combo.clone(),
            crate::text::truncate_chars(&f.evidence, 60),
        ));
    }
    out
}
