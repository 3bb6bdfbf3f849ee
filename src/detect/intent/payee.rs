//! Where money is told to go: an account or routing number named as such,
//! an IBAN, a wallet or a UPI address. A number shown as a format's example
//! ("e.g. NL91 …") is none.

use super::signals::Sentence;
use super::tables::{Derived, Tables};
use crate::prebuilt::Match;

/// Add each payee `bytes` (a normalised sentence) names as a value and an
/// account; `digits`: whether it holds any; `used` rejects matches inside a
/// quoted example.
pub(super) fn accounts(
    t: &Tables,
    bytes: &[u8],
    digits: bool,
    used: &dyn Fn(&Match<'_>) -> bool,
    sen: &mut Sentence,
) {
    let text = |m: Match<'_>| String::from_utf8_lossy(m.as_bytes()).into_owned();
    // A value that says it is a stand-in ("key `not-a-real-secret-demo`",
    // "account TEST-0001") pays no one.
    let stand_in = |m: &Match<'_>| {
        let v = String::from_utf8_lossy(m.as_bytes());
        [
            "not-a-real",
            "dummy",
            "fake",
            "placeholder",
            "-demo",
            "demo-",
        ]
        .iter()
        .any(|w| v.contains(w))
    };
    // An account or routing number named as such ("account 12345678").
    if digits
        && let Some(m) = t
            .account_number
            .find_iter(bytes)
            .find(|m| used(m) && !stand_in(m))
    {
        sen.add(Derived::Value as u8, &text(m));
        sen.add(Derived::Account as u8, &text(m));
    }
    // An account mixes digits and letters (a word of 32 letters is none); a
    // wallet outside 0x… holds a letter past `f` (a commit hash holds none).
    let account = |m: &Match<'_>, wallet: bool| {
        let b = m.as_bytes();
        // A JSON Web Token's part (base64 of `{"…`) is no account.
        b.iter().any(u8::is_ascii_digit)
            && b.iter().any(u8::is_ascii_alphabetic)
            && !b.starts_with(b"eyj")
            && (!wallet || b.starts_with(b"0x") || b.iter().any(|c| (b'g'..=b'z').contains(c)))
    };
    // A number shown as the format's example ("an IBAN with spaces, e.g.
    // NL91 …") is no account anyone is told to use.
    let example = |m: &Match<'_>| {
        let before = String::from_utf8_lossy(&bytes[m.start().saturating_sub(14)..m.start()]);
        let before = before.trim_end();
        [
            "e.g.",
            "e.g",
            "for example",
            "for instance",
            "such as",
            "example:",
            "i.e.",
        ]
        .iter()
        .any(|w| before.ends_with(w))
    };
    for (re, wallet) in [(&t.iban, false), (&t.wallet, true)] {
        if !digits {
            break;
        }
        if let Some(m) = re
            .find_iter(bytes)
            .find(|m| used(m) && account(m, wallet) && !example(m))
        {
            sen.add(Derived::Value as u8, &text(m));
            sen.add(Derived::Account as u8, &text(m));
        }
    }
    if bytes.contains(&b'@')
        && let Some(m) = t.vpa.find_iter(bytes).find(used)
    {
        let v = text(m);
        let v = v.trim_end_matches(|c: char| !c.is_alphanumeric());
        sen.add(Derived::Value as u8, v);
        sen.add(Derived::Account as u8, v);
    }
}

/// A street address the sentence names ("the consignee address
/// is Unit 14, 88 Wharf Road, …", "delivered to our depot, Unit 9, 12
/// Example Trading Estate"): where goods go, as an account is where money
/// goes. One shown as an example is none.
pub(super) fn postal(
    t: &Tables,
    bytes: &[u8],
    used: &dyn Fn(&Match<'_>) -> bool,
    sen: &mut Sentence,
) {
    if let Some(m) = t.postal.find_iter(bytes).find(used) {
        let v = String::from_utf8_lossy(m.as_bytes());
        // Not a `value`: only `delivery-fixed` reads an address as a
        // destination (a returns centre's address is no injected value).
        sen.add(Derived::Postal as u8, &v);
    }
}

/// An account or routing number named as such ("sort code 04-00-75,
/// account 31926819"): numbers too short or too split for [`digit_run`].
pub(super) fn named_account(t: &Tables, sentence: &str) -> bool {
    sentence.bytes().filter(u8::is_ascii_digit).count() >= 6
        && t.account_number.is_match(sentence.as_bytes())
}

/// A run of ten digits or more, spaces allowed between groups: the shape
/// of an IBAN, a card, account or routing number (a wallet holds digits
/// too). One linear pass, cheap enough to ask of every sentence: a wallet
/// is often the only thing its sentence names.
pub(super) fn digit_run(sentence: &str) -> bool {
    let mut run = 0;
    for w in sentence.split_whitespace() {
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let digits = w.bytes().filter(u8::is_ascii_digit).count();
        if digits >= 2 && w.bytes().all(|b| b.is_ascii_alphanumeric()) {
            run += digits;
            if run >= 10 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Whether an act asks the person to pay: a fee said due ("an expedite fee
/// of 149.00 is due"), or an act ending in "at", "via" or "through" followed
/// by a URL ("renew at https://…"; "renews at the end of the month" names no
/// place). A condition or relative clause does not excuse it; a negation
/// ("never charge a fee") still does.
pub(super) fn asks_payment(text: &str, hit: std::ops::Range<usize>) -> bool {
    let term = &text[hit.clone()];
    fn words(s: &str) -> impl Iterator<Item = &str> {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
    }
    let fee = words(term).any(|w| matches!(w, "fee" | "fees" | "due"));
    let place = [" at", " via", " through"]
        .iter()
        .any(|p| term.ends_with(p))
        && text[hit.end..]
            .split_whitespace()
            .next()
            .is_some_and(|w| w.contains("://"));
    // Only the three words before it: no walk over the whole text.
    let negated = || {
        text[..hit.start]
            .rsplit(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(3)
            .any(|w| matches!(w, "not" | "never" | "without" | "cannot" | "no"))
    };
    (fee || place) && !negated()
}
