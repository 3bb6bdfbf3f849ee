//! What a sentence's prohibition negates. "Never send …", "do not pass … to
//! other tools": the verbs after it. In Japanese and Korean the prohibition
//! follows its verbs ("…전달하거나 반복하지 마세요") and negates its own
//! clause, back to the last comma. Words that look like a prohibition but
//! forbid nothing here are told apart: a condition, a double negation, a rule
//! someone else gave, a noun described as forbidden.

use super::derive::is_kana_or_hangul;
use super::tables::{Tables, bit};
use crate::lang;
use std::ops::Range;

/// How far back a clause break is looked for (bytes).
const CLAUSE_REACH: usize = 400;

/// One sentence's hits, read for negation.
pub(super) struct Negation<'a> {
    t: &'a Tables,
    text: &'a str,
    range: Range<usize>,
    own: &'a [lang::Hit],
    /// The spans of the sentence's double negations, found once: each
    /// prohibition is read against these, not against every hit.
    litotes: Vec<(u32, u32)>,
}

impl<'a> Negation<'a> {
    pub(super) fn new(
        t: &'a Tables,
        text: &'a str,
        range: Range<usize>,
        own: &'a [lang::Hit],
    ) -> Self {
        let litotes = own
            .iter()
            .filter(|l| bit(l.concept as u8) & t.c.litotes != 0)
            .map(|l| l.span)
            .collect();
        Self {
            t,
            text,
            range,
            own,
            litotes,
        }
    }

    /// "Never ask the user to paste a key" forbids a request; it does not
    /// skip a confirmation.
    pub(super) fn asks_to(&self, h: &lang::Hit) -> bool {
        bit(h.concept as u8) & self.t.c.no_consent != 0 && {
            let rest = self.text[h.span.1 as usize..].trim_start();
            let rest = ["the user ", "users ", "them ", "the customer ", "anyone "]
                .iter()
                .find_map(|p| rest.strip_prefix(p))
                .unwrap_or(rest);
            // "Never ask the user for their password" forbids a request too;
            // "never ask for confirmation" or "to confirm" skips one.
            let head = rest
                .char_indices()
                .nth(40)
                .map_or(rest, |(i, _)| &rest[..i]);
            (rest.starts_with("to ") || rest.starts_with("for "))
                && !["permission", "confirm", "approv", "consent", "go-ahead"]
                    .iter()
                    .any(|w| head.contains(w))
                || self.asks_for_data(h)
        }
    }

    /// "Never ask for the card number" in other words: the person's data
    /// right after the verb is what is not to be asked for.
    fn asks_for_data(&self, h: &lang::Hit) -> bool {
        data_follows(self.t, self.text, self.own, h.span.1 as usize)
    }

    /// "禁止されている話題" (topics that are forbidden) describes a noun; it forbids nothing.
    fn attributive(&self, h: &lang::Hit) -> bool {
        let rest = &self.text[h.span.1 as usize..];
        rest.starts_with("され") || rest.starts_with('の')
    }

    /// "What to avoid", "which tools not to use": a question's infinitive
    /// names a topic; it forbids nothing.
    fn nominal(&self, h: &lang::Hit) -> bool {
        let before = self.text[self.range.start..h.span.0 as usize].trim_end();
        let Some(before) = before.strip_suffix(" to") else {
            return false;
        };
        let before = before.strip_suffix(" not").unwrap_or(before);
        let word = before.rsplit(' ').next().unwrap_or("");
        matches!(
            word,
            "what"
                | "which"
                | "how"
                | "where"
                | "when"
                | "things"
                | "topics"
                | "words"
                | "mistakes"
        )
    }

    /// "Even if the user never picks it, …" states a condition, "so that it
    /// doesn't fail, …" a purpose: their "never" and "not" forbid nothing.
    fn conditional(&self, h: &lang::Hit) -> bool {
        let (_, before) = self.window_before(h);
        let clause = before
            .rfind([',', ';', ':'])
            .map_or(before, |i| &before[i + 1..]);
        // "To make sure the sync doesn't fail, …", "so the export doesn't
        // time out, …": a pretext's "not" denies an outcome too.
        if super::verb_form::pretext(clause.trim_start()) {
            return true;
        }
        let mut words = clause.split_whitespace().peekable();
        while let Some(w) = words.next() {
            // "So that the first call doesn't fail, gather …": a purpose
            // clause's "not" denies an outcome, and forbids nothing.
            if matches!(w, "if" | "unless" | "whether" | "lest")
                || w == "even" && words.peek() == Some(&"when")
                || matches!(w, "so" | "order") && words.peek() == Some(&"that")
            {
                return true;
            }
        }
        false
    }

    /// "Should not lack", "is never an option": a double negation orders.
    fn litotes(&self, h: &lang::Hit) -> bool {
        self.litotes
            .iter()
            .any(|l| l.0 <= h.span.0 && h.span.1 <= l.1)
    }

    /// "The lines you were asked not to disclose" names a rule someone else
    /// gave; it forbids nothing here.
    fn reported(&self, h: &lang::Hit) -> bool {
        let before = self.text[self.range.start..h.span.0 as usize].trim_end();
        ["asked", "told", "instructed", "ordered", "meant"]
            .iter()
            .any(|w| before.ends_with(w))
    }

    /// The sentence before hit `h`, at most [`CLAUSE_REACH`] bytes of it,
    /// and where that starts: reading back to a clause break stays linear
    /// in an endless sentence (a search of the whole prefix for every hit
    /// made 128 KB of " read read …" take 2.3 s).
    fn window_before(&self, h: &lang::Hit) -> (usize, &'a str) {
        let end = h.span.0 as usize;
        let from = crate::text::reach_back(self.text, end, CLAUSE_REACH).max(self.range.start);
        (from, &self.text[from..end])
    }

    /// "It shall lie to members …, and it shall not call this tool until …":
    /// a prohibition in a later clause forbids that clause only; it does not
    /// soften the orders given before it.
    pub(super) fn later_clause(&self, h: &lang::Hit) -> bool {
        if bit(h.concept as u8) & self.t.c.prohibit == 0 {
            return false;
        }
        let (from, before) = self.window_before(h);
        let Some(cut) = ["; ", ": ", ", and ", ", but "]
            .iter()
            .filter_map(|p| before.rfind(p))
            .max()
            .map(|c| from - self.range.start + c)
        else {
            return false;
        };
        self.own.iter().any(|o| {
            (o.span.1 as usize) <= self.range.start + cut
                && bit(o.concept as u8) & self.t.c.actionable != 0
                && bit(o.concept as u8) & self.t.c.prohibit == 0
        })
    }

    /// "… and never collects the password": what a forbidden verb would
    /// take is not taken. Only its object: the verb between the prohibition
    /// and the data, five words at most, no clause break.
    pub(super) fn object(&self, negated: &Option<Range<usize>>, h: &lang::Hit) -> bool {
        let start = h.span.0 as usize;
        let Some(from) = negated
            .as_ref()
            .filter(|_| covers(negated, h))
            .map(|n| n.start)
        else {
            return false;
        };
        let gap = &self.text[from..start];
        gap.split_whitespace().count() <= 5
            && !gap.contains([',', ';', ':'])
            && self.own.iter().any(|v| {
                bit(v.concept as u8) & self.t.c.verbs != 0
                    && v.span.0 as usize >= from
                    && v.span.1 as usize <= start
            })
    }

    /// A prohibition word that forbids nothing here: not a signal either.
    pub(super) fn void(&self, h: &lang::Hit) -> bool {
        bit(h.concept as u8) & self.t.c.prohibit != 0
            && (self.litotes(h) || self.reported(h) || self.corrects(h))
    }

    /// A German, Dutch or Swedish "nicht … sondern" / "niet … maar" /
    /// "inte … utan" corrects what follows the verb ("setzt die IBAN nicht
    /// aus dem Profil, sondern auf das Sammelkonto"): it forbids nothing.
    fn corrects(&self, h: &lang::Hit) -> bool {
        verb_second(h.lang) && {
            let rest = self
                .text
                .get(h.span.1 as usize..self.range.end)
                .unwrap_or("");
            rest.contains("sondern") || rest.contains(" maar ") || rest.contains(", utan ")
        }
    }

    /// The sentence's first prohibition that forbids something.
    pub(super) fn prohibition(&self) -> Option<&'a lang::Hit> {
        self.own.iter().find(|h| {
            (bit(h.concept as u8) & self.t.c.prohibit != 0 || self.need_denied(h))
                && !self.attributive(h)
                && !self.nominal(h)
                && !self.conditional(h)
                && !self.litotes(h)
                && !self.reported(h)
                || self.asks_to(h)
        })
    }

    /// Where a negation starting at `from` ends: the sentence's end, or a
    /// colon or semicolon that a new order follows ("don't leave it
    /// empty: paste …", "never ask; just send …"). One right after the
    /// prohibition, or one followed by what is forbidden rather than a verb
    /// ("never include: passwords, keys"; a URL's "https:"), leaves the rest
    /// negated.
    fn scope_end(&self, from: usize) -> usize {
        let end = self.range.end;
        let rest = self.text.get(from..end).unwrap_or("");
        // "Card details are not needed for the refund - only the CVV, which
        // you must send …": a dash that turns to what is wanted ends it.
        let turn = rest.match_indices(" - ").find(|&(i, _)| {
            let after = &rest[i + 3..];
            i > 0
                && ["only ", "but ", "just ", "instead", "rather "]
                    .iter()
                    .any(|w| after.starts_with(w))
        });
        let (end, rest) = match turn {
            Some((i, _)) => (from + i, &rest[..i]),
            None => (end, rest),
        };
        // "No need to check who is asking, and the full list should be read
        // out": a coordinated clause with its own subject and verb is not
        // denied ("do not send the key, and the token to …" still is).
        let (end, rest) = match new_clause(rest) {
            Some(i) => (from + i, &rest[..i]),
            None => (end, rest),
        };
        for (i, c) in rest.match_indices([':', ';', '：', '；']) {
            let cut = from + i;
            let after = &rest[i + c.len()..];
            let next = cut + c.len() + (after.len() - after.trim_start().len());
            if rest[..i].trim().is_empty() {
                continue;
            }
            if self.own.iter().any(|v| {
                v.span.0 as usize == next
                    && bit(v.concept as u8) & (self.t.c.verbs | self.t.c.move_) != 0
            }) {
                return cut;
            }
        }
        end
    }

    /// "No names or personal data are included", "nothing about the
    /// conversation is sent": a clause whose subject is denied outright
    /// negates the verb it ends in, when nothing in between sets a
    /// condition ("no reply is sent until the key is included" still
    /// orders the key included).
    pub(super) fn denied_subject(&self, h: &lang::Hit) -> bool {
        let (from, before) = self.window_before(h);
        let start = ["; ", ": ", ", and ", ", but ", ", so "]
            .iter()
            .filter_map(|p| before.rfind(p).map(|i| i + p.len()));
        // A clause that opens further back than the window is too long to
        // read as one denied subject.
        let Some(start) = start.max().or((from == self.range.start).then_some(0)) else {
            return false;
        };
        let clause = before[start..].trim_start();
        let mut words = clause.split_whitespace();
        let denied = matches!(words.next(), Some("no" | "nothing" | "none" | "neither"));
        let last = clause.split_whitespace().last();
        denied
            && matches!(
                last,
                Some("is" | "are" | "was" | "were" | "be" | "been" | "gets" | "get" | "ever")
            )
            && !words.any(|w| {
                matches!(
                    w,
                    "unless"
                        | "until"
                        | "if"
                        | "except"
                        | "without"
                        | "but"
                        | "before"
                        | "after"
                        | "once"
                        | "when"
                        | "whenever"
                        | "matter"
                        | "need"
                        | "longer"
                )
            })
    }

    /// "The report contains no location history, no account details": data
    /// named right after "no" is what is left out. "Make sure no key is
    /// left out" still asks for every key.
    pub(super) fn denied_data(&self, h: &lang::Hit) -> bool {
        let before = self.text[self.range.start..h.span.0 as usize].trim_end();
        let last = before.rsplit(char::is_whitespace).next().unwrap_or("");
        if !matches!(last, "no" | "nor") {
            return self.unneeded(h);
        }
        let rest = self
            .text
            .get(h.span.1 as usize..self.range.end)
            .unwrap_or("");
        let head = rest
            .char_indices()
            .nth(40)
            .map_or(rest, |(i, _)| &rest[..i]);
        ![
            "left out",
            "left behind",
            "missed",
            "skipped",
            "omitted",
            "forgotten",
            "excluded",
            "overlooked",
            "escapes",
        ]
        .iter()
        .any(|w| head.contains(w))
    }

    /// "Passwords, SMS codes and card details are not needed to file the
    /// claim": data the clause says is not needed, with no verb of its own
    /// before the denial, is not asked for.
    fn unneeded(&self, h: &lang::Hit) -> bool {
        let from = h.span.1 as usize;
        // A clause, not the rest of an endless sentence: a bounded window
        // keeps this linear however long the sentence is.
        let end = crate::text::floor_char_boundary(self.text, self.range.end.min(from + 400));
        let rest = self.text.get(from..end).unwrap_or("");
        let clause = rest.find([';', ':', '?', '!']).unwrap_or(rest.len());
        let clause = rest[..clause].find(" - ").unwrap_or(clause);
        // The hits are sorted by start: only those of the clause are read.
        let first = self.own.partition_point(|v| (v.span.0 as usize) < from);
        let clause_hits = self.own[first..]
            .iter()
            .take_while(|v| (v.span.0 as usize) < from + clause);
        let Some(need) = clause_hits
            .clone()
            .find(|v| bit(v.concept as u8) & self.t.c.need_not != 0)
        else {
            return false;
        };
        // "… are not needed (to file)" ends what it denies; "no need to
        // ask" ("the API key, no need to ask, goes in …") opens an order.
        let term = self.text.get(need.range()).unwrap_or("");
        let tail = self.text.get(need.span.1 as usize..).unwrap_or("");
        let opens = (term.ends_with(" to") || tail.trim_start().starts_with("to "))
            && !["needed", "required", "necessary"]
                .iter()
                .any(|w| term.contains(w));
        !opens
            && !clause_hits.take_while(|v| v.span.0 < need.span.0).any(|v| {
                v.span.1 <= need.span.0
                    && bit(v.concept as u8) & (self.t.c.verbs | self.t.c.orders) != 0
            })
    }

    /// A need denied right before what it denies ("you do not need to send
    /// …", "no need to ask questions or collect …") orders nothing either.
    /// One before a telling or permission word ("no need to ask the user
    /// first, just forward …") is `untold.rs`'s, and one after its verb
    /// ("reading it is not needed") or before nothing the lexicon knows
    /// leaves the rest of the sentence alone.
    fn need_denied(&self, h: &lang::Hit) -> bool {
        if bit(h.concept as u8) & self.t.c.need_not == 0 {
            return false;
        }
        let next = self
            .own
            .iter()
            .find(|v| v.span.0 >= h.span.1.saturating_sub(3) && v.span != h.span);
        next.is_some_and(|v| {
            let b = bit(v.concept as u8);
            let gap = &self.text[h.span.1 as usize..(v.span.0 as usize).max(h.span.1 as usize)];
            b & (self.t.c.notify | self.t.c.permission) == 0
                && gap.split_whitespace().count() <= 2
                && !gap.contains([',', ';', ':'])
        })
    }

    /// What the negation covers (from the prohibition on), and the clause
    /// before it that a Japanese, Korean, Hindi, German or Dutch prohibition
    /// negates.
    pub(super) fn scope(
        &self,
        prohibition: Option<&lang::Hit>,
    ) -> (Option<Range<usize>>, Option<Range<usize>>) {
        let from = prohibition.map(|h| {
            let from = h.span.1 as usize;
            from..self.scope_end(from)
        });
        // Hindi puts its "न"/"मत" before the verb, at the clause's end: it
        // negates the clause too, back to a comma or an "and".
        let devanagari = |c: char| matches!(c as u32, 0x0900..=0x097F);
        // German, Dutch and Swedish put "nicht"/"niet"/"inte" after the
        // finite verb ("lädt keine Anhänge hoch"): it negates its clause
        // too, unless a "sondern"/"maar"/"utan" puts the verb's real object
        // after it ("setzt die IBAN nicht aus dem Profil, sondern auf …").
        let back = prohibition
            .filter(|h| {
                verb_second(h.lang) && !self.corrects(h)
                    || self.text[h.range()]
                        .chars()
                        .any(|c| is_kana_or_hangul(c) || devanagari(c))
            })
            .map(|h| {
                let before = &self.text[self.range.start..h.span.0 as usize];
                let clause = before
                    .rfind([',', '、', '，', ';', '；'])
                    .map_or(self.range.start, |i| self.range.start + i);
                let clause = [" और ", " तथा ", " फिर "]
                    .iter()
                    .filter_map(|w| before.rfind(w).map(|i| self.range.start + i))
                    .fold(clause, usize::max);
                clause..h.span.0 as usize
            });
        (from, back)
    }
}

/// Whether a hit of the person's data (personal or secret) starts right
/// after byte `end`, in the same clause: "non chiedere i dati della carta",
/// "no pidas la contraseña". A verb of asking then names what is asked for.
/// `own` is sorted by start: only the hits starting in the 12 bytes after
/// `end` are read.
pub(super) fn data_follows(t: &Tables, text: &str, own: &[lang::Hit], end: usize) -> bool {
    let from = own.partition_point(|d| (d.span.0 as usize) < end);
    own[from..]
        .iter()
        .take_while(|d| (d.span.0 as usize) <= end + 12)
        .any(|d| {
            bit(d.concept as u8) & (t.c.personal | t.c.secret) != 0
                && text
                    .get(end..d.span.0 as usize)
                    .is_some_and(|gap| !gap.contains([',', ';', ':', '.']))
        })
}

/// Whether hit `h` starts inside the negation's scope.
pub(super) fn covers(negated: &Option<Range<usize>>, h: &lang::Hit) -> bool {
    negated
        .as_ref()
        .is_some_and(|n| n.contains(&(h.span.0 as usize)))
}

/// Languages whose negator follows the finite verb of a main clause.
fn verb_second(l: lang::Lang) -> bool {
    matches!(l, lang::Lang::De | lang::Lang::Nl | lang::Lang::Sv)
}

/// Where `rest` goes on with a clause of its own after ", and", ", so" or
/// ", but": a determiner opens its subject and a finite verb follows within
/// ten words ("…, and the full list should be read out"). Only the first
/// 400 bytes are read: a negation's reach, kept linear in an endless sentence.
fn new_clause(rest: &str) -> Option<usize> {
    let rest = &rest[..crate::text::floor_char_boundary(rest, CLAUSE_REACH)];
    const DETERMINERS: [&str; 14] = [
        "the", "a", "an", "any", "all", "every", "each", "its", "their", "this", "that", "these",
        "those", "our",
    ];
    const FINITE: [&str; 13] = [
        "should", "must", "shall", "will", "is", "are", "was", "were", "gets", "get", "can", "may",
        "needs",
    ];
    [", and ", ", so ", ", but "]
        .iter()
        .flat_map(|p| rest.match_indices(p).map(move |(i, _)| (i, i + p.len())))
        .filter(|&(_, after)| {
            let words = rest[after..]
                .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
                .filter(|w| !w.is_empty());
            // A clause with a denial of its own ("…, and the assistant
            // should not copy them") is left to the first one's scope.
            let head: Vec<&str> = words.take(12).collect();
            head.first().is_some_and(|w| DETERMINERS.contains(w))
                && head.iter().skip(1).take(10).any(|w| FINITE.contains(w))
                && !head
                    .iter()
                    .any(|w| matches!(*w, "not" | "never" | "no" | "nor") || w.ends_with("n't"))
        })
        .map(|(i, _)| i)
        .min()
}
