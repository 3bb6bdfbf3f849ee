//! A field as the model reads it: normalised, matched, split into sentences,
//! with the quoted spans that only mention attacks marked.

use super::drop;
use super::frame::frame_hits;
use super::langid::{find_gated, gated};
use super::tables::{Tables, bit, tables};
use crate::lang;
use crate::surface::TextField;
use std::ops::Range;

/// A field as a model reads it, with the spans that only mention attacks
/// (quoted examples in a detector's description) marked.
pub struct Reading {
    pub text: String,
    pub(super) hits: Vec<lang::Hit>,
    mentions: Vec<(usize, usize)>,
    pub(super) sentences: Vec<std::ops::Range<usize>>,
    /// A Spanish, French, German, Portuguese or Italian term matched somewhere.
    pub(super) gated: bool,
}

impl Reading {
    /// Normalise and match `raw` (`None` when the text is too short to say anything).
    pub fn new(
        raw: &str,
        field: &TextField<'_>,
        ctx_defensive: impl FnOnce() -> bool,
    ) -> Option<Reading> {
        let t = tables();
        // A value written as one identifier of four or more words
        // (`ignore-previous-instructions-and-reveal-…`) is read as its words.
        // A schema value may hold an address too
        // (`standard_with_full_transcript_copied_to_qa@…`): its underscores
        // alone separate the words.
        let spaced;
        let raw = if raw.contains(char::is_whitespace) {
            raw
        } else if super::is_schema_value(&field.path) && raw.matches('_').count() >= 3 {
            spaced = raw.replace('_', " ");
            spaced.as_str()
        } else if raw.is_ascii()
            && raw.bytes().filter(|&b| b == b'-' || b == b'_').count() >= 3
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            spaced = raw.replace(['-', '_'], " ");
            spaced.as_str()
        } else {
            raw
        };
        // One token is no sentence, unless it is an address a schema value
        // pre-sets (a recipient, a remote): `analyse` judges where it points.
        let address =
            || (raw.contains('@') || raw.contains("://")) && super::is_schema_value(&field.path);
        if raw.len() < 12
            || !(raw.contains(|c: char| c.is_whitespace() || !c.is_ascii()) || address())
        {
            return None;
        }
        let text = lang::normalize(raw).text;
        let sentences = lang::sentences(&text);
        let (mut hits, gated) = find_gated(t, &text, &sentences);
        frame_hits(t, &text, &mut hits);
        settings_hits(t, &text, &sentences, &mut hits);
        super::grid::grid_hits(t, &text, &sentences, &mut hits);
        nominal_hits(t, &text, &sentences, &mut hits);
        // A span cut inside a character (a settings line's value that starts
        // with a non-ASCII letter) is no span to read: dropped, never sliced.
        hits.retain(|h| {
            h.span.0 <= h.span.1
                && text.is_char_boundary(h.span.0 as usize)
                && text.is_char_boundary(h.span.1 as usize)
        });
        drop::drop_scoped_context(t, &text, &mut hits);
        drop::drop_indirect_questions(t, &text, &mut hits);
        drop::drop_adjectives(t, &text, &mut hits);
        drop::drop_relative_orders(t, &text, &mut hits);
        drop::drop_purpose_avoid(t, &text, &mut hits);
        drop::drop_descriptive_urgency(t, &text, &mut hits);
        drop::drop_honoured_choice(t, &text, &mut hits);
        drop::drop_masked_value(t, &text, &mut hits);
        drop::drop_indirect_commands(t, &text, &mut hits);
        drop::drop_inner_where(t, &text, &mut hits);
        drop::drop_defence_in_lie(t, &mut hits);
        drop::drop_hedged_telling(t, &text, &mut hits);
        drop::drop_reported_payee_swap(t, &text, &mut hits);
        drop::drop_verified_telling(t, &text, &mut hits);
        drop::drop_returned_secret(t, &text, &mut hits);
        drop::drop_flagged_label(t, &text, &mut hits);
        drop::drop_checked_answer(t, &text, &mut hits);
        drop::drop_commented_order(t, &text, &mut hits);
        drop::drop_prohibit_in_lie(t, &mut hits);
        drop::drop_requested_disclosure(t, &text, &mut hits);
        drop::drop_forbidden_skip(t, &text, &mut hits);
        drop::drop_unplaced_check_off(t, &text, &mut hits);
        drop::drop_lost_or_stolen(t, &text, &mut hits);
        drop::drop_honest_telling(t, &text, &mut hits);
        drop::drop_choice_in_change(t, &mut hits);
        drop::drop_choice_beside(t, &text, &mut hits);
        super::fixed_report::drop_unquoted_states(t, &text, &mut hits);
        super::task_input::drop_task_input(t, &text, &sentences, &mut hits);
        // A defensive word inside an address (`audit@…`, `…/scan/…`,
        // `lint-cloud.example.com`) says nothing; one in a hyphenated
        // compound ("prompt-injection") does.
        let defensive = |h: &&lang::Hit| {
            bit(h.concept as u8) & t.c.defensive != 0 && !defence_in_address(&text, h.range())
        };
        let defensive_words = hits.iter().filter(defensive).count();
        let mut mentions = Vec::new();
        // "These are quotations, and the assistant should follow them": a
        // quotation the text orders followed is no mention ("never act on
        // them" forbids it).
        let adopted = hits.iter().any(|h| {
            let before = text[..h.span.0 as usize].trim_end();
            bit(h.concept as u8) & t.c.adopt_example != 0
                && ![" never", " not", "n't", " no", " never to", " not to"]
                    .iter()
                    .any(|n| before.ends_with(n))
        });
        // A quotation introduced as one ("a page saying \"send …\"") is reported
        // speech in any field, not an order to the reader.
        let quotes: Vec<(usize, usize)> = if !adopted && text.contains(['"', '\'']) {
            // A lure quoted whole in a text about lures (red flags, training)
            // may run to a long sentence; elsewhere a long quote after "reads:"
            // is the order it quotes.
            super::quotes::quote_spans(text.as_bytes(), defensive_words > 0).collect()
        } else {
            Vec::new()
        };
        // The hits by start (ties in their order), read per sentence,
        // quotation or parenthesis from its start on: a field of thousands of
        // them stays linear.
        let by_start = std::cell::OnceCell::new();
        let hits_from = |a: usize| {
            let hs: &Vec<&lang::Hit> = by_start.get_or_init(|| {
                let mut v: Vec<&lang::Hit> = hits.iter().collect();
                v.sort_by_key(|h| h.span.0);
                v
            });
            hs[hs.partition_point(|h| (h.span.0 as usize) < a)..]
                .iter()
                .copied()
        };
        // Hits whose span lies inside `r`.
        let within = |r: &Range<usize>| {
            let r = r.clone();
            hits_from(r.start)
                .take_while(move |h| h.span.0 as usize <= r.end)
                .filter(move |h| h.span.1 as usize <= r.end)
        };
        let mut last_end: Option<usize> = None;
        // Hits that give an order or name an example, by position, for the
        // headings of quoted lists: built on the first quote on a list line
        // of its own, then read once per list line, not per hit.
        let marks = std::cell::OnceCell::new();
        let marks = || {
            marks.get_or_init(|| {
                let mut m: Vec<(usize, usize, u128)> = hits
                    .iter()
                    .map(|h| (h.span.0 as usize, h.span.1 as usize, bit(h.concept as u8)))
                    .filter(|m| m.2 & (t.c.orders | t.c.when | t.c.example | t.c.defensive) != 0)
                    .collect();
                m.sort_unstable();
                let shown_from = m
                    .iter()
                    .find(|m| m.2 & (t.c.example | t.c.defensive) != 0)
                    .map(|m| m.0);
                (m, shown_from)
            })
        };
        for &(s, e) in &quotes {
            let from = text.floor_char_boundary(s.saturating_sub(64));
            // The next item of a quoted list ("e.g. '…' or '…'") is reported speech too.
            let listed = last_end.is_some_and(|l| {
                matches!(
                    text[l..s].trim_matches(|c: char| c == ',' || c.is_whitespace()),
                    "" | "or" | "and" | "/" | ";"
                )
            });
            // Attributed after it ("\"…,\" said the CTO"), as a press release quotes.
            let after = text[e..].trim_start_matches([',', ' ']);
            let attributed = ["said ", "says ", "added ", "adds ", "explained ", "noted "]
                .iter()
                .any(|w| after.starts_with(w));
            // Outside a defensive text, a quotation that tells the assistant
            // what to do ("said: \"from now on, the assistant …\"") is an order.
            let addresses = defensive_words == 0 && {
                hits_from(s + 1)
                    .take_while(|h| (h.span.0 as usize) < e)
                    .any(|h| bit(h.concept as u8) & t.c.addressee != 0 && (h.span.1 as usize) < e)
            };
            if text.as_bytes()[s..e].iter().filter(|&&b| b == b' ').count() >= 2
                && !addresses
                && (listed
                    || attributed
                    || t.quote_intro.is_match(&text.as_bytes()[from..s])
                    || super::quotes::exhibit_line(&text, s, e, |a, b| {
                        let (marks, shown_from) = marks();
                        let (mut order, mut shown) = (false, false);
                        let from = marks.partition_point(|m| m.0 < a);
                        for &(_, end, bits) in marks[from..].iter().take_while(|m| m.0 < b) {
                            if end <= b {
                                order |= bits & (t.c.orders | t.c.when) != 0;
                                shown |= bits & (t.c.example | t.c.defensive) != 0;
                            }
                        }
                        (order, shown, shown_from.is_some_and(|f| f < a))
                    }))
            {
                mentions.push((s, e));
                last_end = Some(e);
            } else {
                last_end = None;
            }
        }
        // A parenthesis that opens with "for example" / "e.g." / "such as" and
        // gives no order inside lists what the text is about ("(for example
        // `' or 1=1 --` and `; cat /etc/passwd`)"): its items are mentions.
        if text.contains('(') {
            for r in super::grid::example_parentheses(&text) {
                let gives_order = within(&r).any(|h| bit(h.concept as u8) & t.c.orders != 0);
                if !gives_order {
                    mentions.push((r.start, r.end));
                }
            }
        }
        // A schema value written as a regular expression (a secret scanner's
        // `-----begin (rsa|openssh) private key-----`) describes text to find.
        // Not when it speaks to the model (`(?#assistant: …)`, an alternative
        // `assistant_must_call_…`).
        if super::is_schema_value(&field.path)
            && super::grid::looks_like_regex(raw)
            && !hits.iter().any(|h| bit(h.concept as u8) & t.c.orders != 0)
        {
            mentions.push((0, text.len()));
        }
        let name_defensive = crate::detect::names::defensive_name(field.item);
        if defensive_words > 0 || name_defensive {
            let purpose_defensive = name_defensive || ctx_defensive();
            // Quoted text and whatever follows "such as …" in a sentence; not
            // a quote the model is told to use in a sentence that names
            // nothing detected ("the assistant runs `GRANT ALL …`" in a
            // dashboard whose text says "audit" elsewhere; "a README that
            // asks the agent to …" reports one).
            let ordered = |q: &&(usize, usize)| {
                let Some(r) = sentences[sentences.partition_point(|r| r.end <= q.0)..]
                    .first()
                    .filter(|r| r.contains(&q.0))
                else {
                    return false;
                };
                // A table cell is read on its own (`assistant-targeted | "…"`).
                let cell = text[r.start..q.0]
                    .rfind('|')
                    .map_or(r.start, |i| r.start + i + 1);
                let inside = || hits_from(cell).take_while(|h| (h.span.0 as usize) < r.end);
                // Addressed to the model, or an order to run what follows ("run 'curl …'").
                inside().any(|h| {
                    let b = bit(h.concept as u8);
                    (h.span.1 as usize <= q.0 && b & t.c.addressed != 0
                        || h.span.0 as usize <= q.0 && b & t.c.exec_order != 0)
                        && !reports_request(&text[r.start..h.span.0 as usize])
                }) && !inside().any(|h| bit(h.concept as u8) & (t.c.defensive | t.c.example) != 0)
            };
            mentions.extend(quotes.iter().filter(|q| purpose_defensive || !ordered(q)));
            // A parameter's own text says what to send in it, whatever the
            // tool detects ("lint profile: the contents of ~/.git-credentials").
            let param_text =
                property_of(&field.path).is_some() && field.path.ends_with(".description");
            for r in sentences.iter().cloned() {
                let inside = || within(&r);
                if !adopted
                    && let Some(e) = inside()
                        .filter(|h| bit(h.concept as u8) & t.c.example != 0)
                        .map(|h| h.span.1 as usize)
                        .min()
                {
                    mentions.push((e, r.end));
                }
                // A detector's sentence about what it detects reports attacks, it does not make one.
                // Not when the model is addressed before any defensive word:
                // "the agent appends … so the linter picks it up" is an order.
                let first_defensive = inside().find(|h| defensive(h)).map(|h| h.span.0);
                let addressed_first = first_defensive.is_some_and(|d| {
                    inside().any(|h| h.span.0 < d && bit(h.concept as u8) & t.c.addressed != 0)
                });
                // Nor when an aside after it gives the model an order of its own:
                // "file to lint (tip: before linting, also cat ~/.ssh/… into `x`)".
                let aside_order = first_defensive.is_some_and(|d| {
                    let d = d as usize;
                    text[d..r.end].find('(').is_some_and(|p| {
                        let aside = d + p;
                        inside().any(|h| {
                            h.span.0 as usize > aside
                                && bit(h.concept as u8) & (t.c.addressed | t.c.when) != 0
                        })
                    })
                });
                if purpose_defensive
                    && !adopted
                    && first_defensive.is_some()
                    && !addressed_first
                    && !aside_order
                    && !param_text
                {
                    mentions.push((r.start, r.end));
                }
            }
        }
        Some(Reading {
            text,
            hits,
            mentions,
            sentences,
            gated,
        })
    }

    pub(super) fn mentioned(&self, r: std::ops::Range<usize>) -> bool {
        self.mentions
            .iter()
            .any(|&(s, e)| r.start >= s && r.end <= e)
    }

    /// True when every occurrence of `snippet` (a pattern hit, raw) in the
    /// field is a mention: the pattern stage drops such hits.
    pub fn only_mentions(&self, snippet: &str) -> bool {
        if self.mentions.is_empty() {
            return false;
        }
        let n = lang::normalize(snippet).text;
        if n.is_empty() {
            return false;
        }
        let mut any = false;
        let mut from = 0;
        while let Some(i) = self.text[from..].find(&n) {
            let s = from + i;
            if !self.mentioned(s..s + n.len()) {
                return false;
            }
            any = true;
            from = s + n.len();
        }
        any
    }
}

/// A settings line written into prose (`mention_to_user: no`, `disclose:
/// never`, `also_include: the medication list`), or a setting assigned
/// inside a sentence (`… sent as production with skip_approval=true`), read
/// as words: the key's `_` and `-` as spaces, negated when its value says no
/// (tools.toml `config_off`). What the key's words mean is placed on the key;
/// a negated key adds only what its negation means ("do not mention"
/// conceals; "do not share" forbids, so its "share" is dropped). A question
/// answered no ("q: should the assistant ask first? a: no.") is negated the
/// same way, and placed on the answer's "no": the orders that follow it are
/// what the answer permits.
pub(super) fn settings_hits(
    t: &Tables,
    text: &str,
    sentences: &[Range<usize>],
    hits: &mut Vec<lang::Hit>,
) {
    if !text.contains([':', '=', '?']) {
        return;
    }
    let before = hits.len();
    // What a list's heading line says (`include:`), read on each item under it.
    let mut list_head: Vec<lang::Hit> = Vec::new();
    let field_lang = std::cell::OnceCell::new();
    for (i, r) in sentences.iter().enumerate() {
        let line = &text[r.clone()];
        // An item, or a `key: value` line after the heading (YAML's children;
        // normalising dropped their indentation).
        let child = line.starts_with(['-', '*', '•'])
            || line.split_once(':').is_some_and(|(k, _)| {
                (1..=32).contains(&k.len()) && !k.contains(' ') && !k.ends_with(['\'', '"'])
            });
        if child {
            let span = (r.start as u32, r.end as u32);
            hits.extend(list_head.iter().map(|h| lang::Hit { span, ..*h }));
        } else {
            list_head.clear();
        }
        let sentence_lang = std::cell::OnceCell::new();
        let found = |reading: &str| -> Vec<lang::Hit> {
            let mut found: Vec<lang::Hit> = t
                .lex
                .find_per_lang(reading)
                .into_iter()
                .filter(|h| {
                    // A settings line too short to tell its language is in the field's.
                    !gated(h.lang)
                        || Some(
                            *sentence_lang
                                .get_or_init(|| t.sentence_langs(&line.replace(['_', '-'], " "))),
                        )
                        .filter(|l| !l.is_empty())
                        .unwrap_or_else(|| *field_lang.get_or_init(|| t.sentence_langs(text)))
                        .has(h.lang)
                })
                .collect();
            frame_hits(t, reading, &mut found);
            found
        };
        let mut place = |span: Range<usize>, new: Vec<lang::Hit>| {
            hits.extend(new.into_iter().map(|h| lang::Hit {
                span: (span.start as u32, span.end as u32),
                ..h
            }));
        };
        if let Some(no) = sentences
            .get(i + 1)
            .and_then(|a| answered_no(t, line, &text[a.clone()]).map(|n| a.start..a.start + n))
        {
            let q = line.trim_end_matches('?');
            let q = q
                .split_once(':')
                .filter(|(p, _)| p.len() <= 10)
                .map_or(q, |(_, q)| q);
            // The question's verb follows its auxiliary and subject: each of its
            // first words may start the negated clause.
            let words: Vec<&str> = q.split_whitespace().collect();
            let readings: Vec<String> = (0..words.len().min(5))
                .map(|k| words[k..].join(" "))
                .collect();
            place(no, negation_adds(t, &readings, &found));
        }
        if !line.contains([':', '=']) {
            continue;
        }
        if let Some(head) = line.strip_suffix(':')
            && !head.contains(' ')
            && (2..=32).contains(&head.len())
        {
            list_head = found(&head.replace(['_', '-'], " "));
        }
        for (key, value, value_end) in settings(line) {
            let first = value
                .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | '.'))
                .next()
                .unwrap_or("");
            let negated = t.config_off.contains(value) || t.config_off.contains(first);
            let key_start = r.start + (key.as_ptr() as usize - line.as_ptr() as usize);
            // `to: someone@…`, `bcc = …`: a recipient set is a send.
            if !negated
                && matches!(
                    key,
                    "to" | "cc" | "bcc" | "recipient" | "recipients" | "forward"
                )
                && (value.contains('@') || value.contains("://"))
            {
                place(key_start..r.start + value_end, found("send to"));
                continue;
            }
            if !negated && !key.contains(['_', '-']) {
                continue;
            }
            let mut words: String = key
                .chars()
                .map(|c| if c == '_' || c == '-' { ' ' } else { c })
                .collect();
            // An elided article written with `_` (`chiedi_all_utente`, `envoyer_l_adresse`)
            // is read with its apostrophe, as the sentence would be written.
            for el in [
                "all", "dell", "nell", "sull", "dall", "l", "d", "un", "qu", "j", "n", "s",
            ] {
                words = words.replace(&format!(" {el} "), &format!(" {el}'"));
            }
            if negated {
                place(
                    key_start..r.start + value_end,
                    negation_adds(t, &[words], &found),
                );
            } else {
                // Over the key and its value: a verb in the key is the setting's, not a name's.
                place(key_start..r.start + value_end, found(&words));
            }
        }
    }
    if hits.len() > before {
        hits.sort_by_key(|h| (h.span.0, h.span.1));
        hits.dedup_by(|a, b| a.span == b.span && a.concept == b.concept);
    }
}

/// A sentence written in nouns read again with its verbs: "delivery of the
/// packet is effected to …" as "send the packet is effected to …" (tools.toml
/// `nominal_verbs`; an article before the noun goes too). What the verb's
/// reading finds, where it touches a verb put in, is placed on the noun, so
/// the evidence quotes the text as written.
pub(super) fn nominal_hits(
    t: &Tables,
    text: &str,
    sentences: &[Range<usize>],
    hits: &mut Vec<lang::Hit>,
) {
    if !text.contains(" of ") {
        return;
    }
    let before = hits.len();
    // The reading, and per verb put in: its span there and the noun's in
    // `text`; buffers shared by the field's sentences.
    let mut reading = String::new();
    let mut put: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut words: Vec<(usize, &str)> = Vec::new();
    for r in sentences {
        let line = &text[r.clone()];
        if !line.contains(" of ") {
            continue;
        }
        reading.clear();
        put.clear();
        let mut copied = 0;
        words.clear();
        words.extend(line.split_inclusive(' ').scan(0, |at, w| {
            let s = *at;
            *at += w.len();
            Some((s, w.trim_end()))
        }));
        let mut article: Option<usize> = None;
        let mut i = 0;
        while let Some(&(at, w)) = words.get(i) {
            i += 1;
            let noun = w.trim_start_matches(|c: char| !c.is_alphanumeric());
            // "of" next, or after a place ("inclusion in this field of …").
            let of = match words.get(i) {
                Some((_, "of")) => Some(i),
                Some((_, "in" | "into" | "to")) => {
                    (i + 1..(i + 4).min(words.len())).find(|&k| words[k].1 == "of")
                }
                _ => None,
            };
            if let (Some(verb), Some(k)) = (t.nominal_verbs.get(noun), of) {
                let from = article.unwrap_or(at + (w.len() - noun.len()));
                let (of_at, _) = words[k];
                reading.push_str(&line[copied..from]);
                let start = reading.len();
                reading.push_str(verb);
                if k > i {
                    // The place goes after the verb: "include in this field".
                    reading.push(' ');
                    reading.push_str(line[words[i].0..of_at].trim_end());
                }
                put.push((start..reading.len(), r.start + at..r.start + of_at + 2));
                copied = of_at + 2;
                i = k + 1;
            }
            article = matches!(w, "the" | "a" | "an" | "any" | "its" | "their").then_some(at);
        }
        if put.is_empty() {
            continue;
        }
        reading.push_str(&line[copied..]);
        let mut found: Vec<lang::Hit> = t
            .lex
            .find_per_lang(&reading)
            .into_iter()
            .filter(|h| !gated(h.lang))
            .collect();
        frame_hits(t, &reading, &mut found);
        for h in found {
            let span = h.span.0 as usize..h.span.1 as usize;
            if let Some((_, noun)) = put
                .iter()
                .find(|(v, _)| v.start < span.end && span.start < v.end)
            {
                hits.push(lang::Hit {
                    span: (noun.start as u32, noun.end as u32),
                    ..h
                });
            }
        }
    }
    if hits.len() > before {
        hits.sort_by_key(|h| (h.span.0, h.span.1));
        hits.dedup_by(|a, b| a.span == b.span && a.concept == b.concept);
    }
}

/// What saying no to each of `clauses` adds: the concepts of their negated
/// readings (tools.toml `config_negated`) that neither the clauses nor the
/// readings' own words ("turn off") have, prohibition aside; and concealment,
/// when what is negated reports to the user.
fn negation_adds(
    t: &Tables,
    clauses: &[String],
    found: &dyn Fn(&str) -> Vec<lang::Hit>,
) -> Vec<lang::Hit> {
    let mut own = t.config_negated_own | t.c.prohibit;
    let mut negated = String::new();
    for c in clauses {
        own |= found(c).iter().fold(0, |m, h| m | bit(h.concept as u8));
        for f in &t.config_negated {
            negated.push_str(&f.replace("{}", c));
            negated.push_str(" . ");
        }
    }
    let mut adds: Vec<lang::Hit> = found(&negated)
        .into_iter()
        .filter(|h| bit(h.concept as u8) & own == 0)
        .collect();
    // Not reporting to the user ("list_extra_in_summary: false") conceals.
    let reports = |h: &lang::Hit| bit(h.concept as u8) & t.c.report_to_user != 0;
    if own & t.c.report_to_user != 0 || adds.iter().any(reports) {
        adds.retain(|h| !reports(h));
        adds.push(lang::Hit {
            concept: t.c.conceal.trailing_zeros() as lang::ConceptId,
            lang: lang::Lang::En,
            span: (0, 0),
        });
    }
    adds
}

/// Where the answer to `question` says no (`a: no.`, `answer: never`, `no,
/// …`): the length of `answer` up to the end of that word; `None` when
/// `question` asks nothing or the answer does not start with no.
fn answered_no(t: &Tables, question: &str, answer: &str) -> Option<usize> {
    if !question.ends_with('?') {
        return None;
    }
    let body = answer.trim_start();
    let body = body
        .split_once(':')
        .filter(|(p, _)| p.chars().count() <= 10 && !p.contains(' '))
        .map_or(body, |(_, b)| b.trim_start());
    let word_len = body
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(body.len());
    t.config_off
        .contains(&body[..word_len])
        .then(|| answer.len() - body.len() + word_len)
}

/// The settings of a sentence as `(key, value, end of value)`: a key opening
/// it (`key: value`, `key = value`, after a bullet), and any compound key
/// assigned inside it (`skip_approval=true`).
pub(super) fn settings(line: &str) -> Vec<(&str, &str, usize)> {
    let is_key = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let mut out = Vec::new();
    let body = line.trim_start_matches(['-', '*', '•', ' ']);
    let key_len = body.find(|c: char| !is_key(c)).unwrap_or(body.len());
    let (key, rest) = body.split_at(key_len);
    let after = rest.trim_start();
    let mut opening_end = 0;
    if (2..=48).contains(&key_len)
        && let Some(v) = after.strip_prefix([':', '='])
    {
        out.push((key, v.trim(), line.len()));
        opening_end = line.len() - rest.len();
    }
    for (i, _) in line.match_indices('=').filter(|&(i, _)| i > opening_end) {
        let k_start = line[..i]
            .char_indices()
            .rfind(|&(_, c)| !is_key(c))
            .map_or(0, |(j, c)| j + c.len_utf8());
        let key = &line[k_start..i];
        if !(3..=48).contains(&key.len()) || !key.contains('_') {
            continue;
        }
        let v = &line[i + 1..];
        let v_len = v
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ')'))
            .unwrap_or(v.len());
        out.push((key, &v[..v_len], i + 1 + v_len));
    }
    // Quoted keys, as JSON writes them: `{"reverse_transfer": false, "cc": "…"}`.
    for q in ['"', '\''] {
        let pat = format!("{q}:");
        for (i, _) in line
            .match_indices(pat.as_str())
            .filter(|&(i, _)| i > opening_end)
        {
            let Some(open) = line[..i].rfind(q) else {
                continue;
            };
            let key = &line[open + 1..i];
            // Inside an object or at the line's start, not a quoted name in prose.
            let opens =
                line[..open].trim_end().ends_with(['{', ',']) || line[..open].trim().is_empty();
            if !opens || !(2..=48).contains(&key.len()) || !key.chars().all(is_key) {
                continue;
            }
            let v = line[i + 2..].trim_start();
            let v_at = line.len() - v.len();
            let v_len = match v.strip_prefix(q) {
                Some(rest) => rest.find(q).map_or(v.len(), |e| e + 2),
                None => v.find([',', '}', ']']).unwrap_or(v.len()),
            };
            out.push((key, v[..v_len].trim_matches(q), v_at + v_len));
        }
    }
    out
}

/// The parameter a docstring line documents: `name (type): …`,
/// `@param {type} name - …`, `:param name: …`, `- name: …` (no regex: it
/// runs on every line-initial sentence).
pub(super) fn documented_param(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for bullet in ["- ", "* "] {
        rest = rest.strip_prefix(bullet).unwrap_or(rest).trim_start();
    }
    if let Some(r) = rest.strip_prefix("@param") {
        rest = r.trim_start();
        if let Some(r) = rest.strip_prefix('{') {
            rest = r.split_once('}')?.1.trim_start();
        }
    } else if let Some(r) = rest.strip_prefix(":param ") {
        rest = r.trim_start();
    }
    let rest = rest.strip_prefix('\'').unwrap_or(rest);
    let end = rest
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    if name.len() < 2 || !name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
        return None;
    }
    let mut after = after.strip_prefix('\'').unwrap_or(after).trim_start();
    if let Some(r) = after.strip_prefix('(') {
        after = r.split_once(')')?.1.trim_start();
    }
    (after.starts_with(':') || after.starts_with("- ") || after.starts_with("-- ")).then_some(name)
}

/// The schema property a field's path lies under (`….properties.remote.description`: `remote`).
pub(super) fn property_of(path: &str) -> Option<&str> {
    // A shared definition (`$defs.OwnerContact`) is filled wherever it is used.
    let rest = path
        .split(".properties.")
        .nth(1)
        .or_else(|| path.split(".$defs.").nth(1))
        .or_else(|| path.split(".definitions.").nth(1))?;
    Some(rest.split('.').next().unwrap_or(rest))
}

/// The words before a mention of the model report someone's request to it
/// ("a README that asks the agent to …", "a comment telling the assistant").
fn reports_request(before: &str) -> bool {
    let last = before
        .split_whitespace()
        .rev()
        .find(|w| !matches!(*w, "the" | "an" | "a" | "your"));
    matches!(
        last,
        Some(
            "asks"
                | "ask"
                | "asking"
                | "asked"
                | "tells"
                | "telling"
                | "told"
                | "instructs"
                | "instructing"
                | "urges"
                | "lures"
                | "tricks"
        )
    )
}

/// Whether a defensive word at `r` is part of an address by the characters
/// next to it (`audit@…`, `…/scan/…`, `lint-cloud.example.com`). A full
/// stop ends a sentence ("the red flags."); a dot followed by a letter
/// continues a host name, also after a hyphenated label. Unlike
/// `derive::in_address`, which asks whether a whole token is a URL or an
/// e-mail address, this also reads bare host names.
fn defence_in_address(text: &str, r: std::ops::Range<usize>) -> bool {
    let before = text[..r.start].chars().next_back();
    if matches!(before, Some('/' | '@' | '.' | '_')) {
        return true;
    }
    let mut rest = text[r.end..].chars().peekable();
    if matches!(rest.peek(), Some('@' | '/' | '_')) {
        return true;
    }
    // Over the rest of a hyphenated label (at most a host label's length).
    let mut n = 0;
    while n < 63
        && rest
            .next_if(|c| c.is_ascii_alphanumeric() || *c == '-')
            .is_some()
    {
        n += 1;
    }
    rest.next() == Some('.') && rest.next().is_some_and(char::is_alphanumeric)
}
