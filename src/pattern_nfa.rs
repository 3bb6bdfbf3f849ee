//! A table pattern's Thompson NFAs as bytes, written by `build.rs` and read
//! back at run time, so a scan never parses a compiled-in pattern or compiles
//! its NFA (about half the CPU of a small scan went there, issue 22).
//!
//! One file holds a table's patterns: `count`, `count + 1` offsets, then per
//! pattern its forward NFA and its reverse NFA (both without capture states:
//! the lazy DFA ignores them), or in a table whose groups are read (`.caps`)
//! its forward NFA with them. An NFA is its anchored, unanchored and pattern
//! start, its state count, and each state as a tag and its fields (numbers
//! as LEB128; the offsets little-endian u32). Reading replays the states through
//! `thompson::Builder`, which assigns the same ids, so the NFA read equals the
//! one compiled (a unit test compares every state of every table pattern).
//! Included by `build.rs` too (`#[path]`), so both sides share one format.

#![allow(dead_code)]

use regex_automata::nfa::thompson::{self, NFA, State, Transition};
use regex_automata::util::look::Look;
use regex_automata::util::primitives::{PatternID, StateID};

const BYTE_RANGE: u8 = 0;
const SPARSE: u8 = 1;
const LOOK: u8 = 2;
const UNION: u8 = 3;
const BINARY_UNION: u8 = 4;
const FAIL: u8 = 5;
const MATCH: u8 = 6;
const CAPTURE: u8 = 7;

/// The NFA configuration of a table pattern: what `meta` compiles for the
/// same pattern with `utf8_empty(false)`, minus capture states.
pub fn config(reverse: bool) -> thompson::Config {
    thompson::Config::new()
        .utf8(false)
        .reverse(reverse)
        .nfa_size_limit(Some(64 << 20))
        .shrink(false)
        .which_captures(thompson::WhichCaptures::None)
}

/// The syntax every table pattern is compiled with: bytes, ASCII classes.
pub fn syntax(case_insensitive: bool) -> regex_automata::util::syntax::Config {
    regex_automata::util::syntax::Config::new()
        .unicode(false)
        .utf8(false)
        .case_insensitive(case_insensitive)
}

/// A number as LEB128 (7 bits a byte): most ids fit two bytes, so the pages
/// a scan reads are a third of fixed-width ones.
fn put(out: &mut Vec<u8>, mut v: usize) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_u32(out: &mut Vec<u8>, v: usize) {
    out.extend_from_slice(&u32::try_from(v).expect("fits u32").to_le_bytes());
}

/// Appends `nfa` (one pattern, no capture states); `None` if it has a state
/// this format does not carry.
pub fn encode(nfa: &NFA, out: &mut Vec<u8>) -> Option<()> {
    if nfa.pattern_len() != 1 {
        return None;
    }
    put(out, nfa.start_anchored().as_usize());
    put(out, nfa.start_unanchored().as_usize());
    put(out, nfa.start_pattern(PatternID::ZERO)?.as_usize());
    put(out, nfa.states().len());
    for s in nfa.states() {
        match s {
            State::ByteRange { trans } => {
                out.extend_from_slice(&[BYTE_RANGE, trans.start, trans.end]);
                put(out, trans.next.as_usize());
            }
            State::Sparse(sp) => {
                out.push(SPARSE);
                put(out, sp.transitions.len());
                for t in sp.transitions.iter() {
                    out.extend_from_slice(&[t.start, t.end]);
                    put(out, t.next.as_usize());
                }
            }
            State::Look { look, next } => {
                out.push(LOOK);
                put(out, look.as_repr() as usize);
                put(out, next.as_usize());
            }
            State::Union { alternates } => {
                out.push(UNION);
                put(out, alternates.len());
                alternates.iter().for_each(|a| put(out, a.as_usize()));
            }
            State::BinaryUnion { alt1, alt2 } => {
                out.push(BINARY_UNION);
                put(out, alt1.as_usize());
                put(out, alt2.as_usize());
            }
            State::Fail => out.push(FAIL),
            State::Match { pattern_id } if *pattern_id == PatternID::ZERO => out.push(MATCH),
            // One pattern: a group's start slot is twice its index, its end one more.
            State::Capture {
                next,
                pattern_id,
                group_index,
                slot,
            } if *pattern_id == PatternID::ZERO
                && slot.as_usize() / 2 == group_index.as_usize() =>
            {
                out.push(CAPTURE);
                put(out, slot.as_usize());
                put(out, next.as_usize());
            }
            _ => return None,
        }
    }
    Some(())
}

/// Reads what [`encode`] wrote, from `at`; every read is checked, and a
/// malformed or truncated NFA is `None`.
pub fn decode(b: &[u8], at: &mut usize, reverse: bool) -> Option<NFA> {
    let mut r = Reader { b, at: *at };
    let anchored = r.id()?;
    let unanchored = r.id()?;
    let pattern = r.id()?;
    let n = r.num()?;
    let mut nb = thompson::Builder::new();
    nb.set_utf8(false);
    nb.set_reverse(reverse);
    nb.start_pattern().ok()?;
    for _ in 0..n {
        let tag = r.byte()?;
        let added = match tag {
            BYTE_RANGE => {
                let (start, end) = (r.byte()?, r.byte()?);
                nb.add_range(Transition {
                    start,
                    end,
                    next: r.id()?,
                })
            }
            SPARSE => {
                let k = r.num()?;
                let mut ts = Vec::with_capacity(k.min(256));
                for _ in 0..k {
                    let (start, end) = (r.byte()?, r.byte()?);
                    ts.push(Transition {
                        start,
                        end,
                        next: r.id()?,
                    });
                }
                nb.add_sparse(ts)
            }
            LOOK => {
                let look = Look::from_repr(u32::try_from(r.num()?).ok()?)?;
                nb.add_look(r.id()?, look)
            }
            UNION => {
                let k = r.num()?;
                let mut alts = Vec::with_capacity(k.min(1024));
                for _ in 0..k {
                    alts.push(r.id()?);
                }
                nb.add_union(alts)
            }
            BINARY_UNION => nb.add_union(vec![r.id()?, r.id()?]),
            FAIL => nb.add_fail(),
            MATCH => nb.add_match(),
            CAPTURE => {
                let slot = r.num()?;
                let (next, group) = (r.id()?, u32::try_from(slot / 2).ok()?);
                if slot % 2 == 0 {
                    nb.add_capture_start(next, group, None)
                } else {
                    nb.add_capture_end(next, group)
                }
            }
            _ => return None,
        };
        added.ok()?;
    }
    nb.finish_pattern(pattern).ok()?;
    let nfa = nb.build(anchored, unanchored).ok()?;
    // Ids are assigned in order: a state count that moved means a state
    // this reader merged (an empty union), so the ids no longer hold.
    (nfa.states().len() == n).then_some(())?;
    *at = r.at;
    Some(nfa)
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn num(&mut self) -> Option<usize> {
        let mut v = 0usize;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            v |= usize::from(b & 0x7F) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }

    fn u32(&mut self) -> Option<usize> {
        let s = self.b.get(self.at..self.at.checked_add(4)?)?;
        self.at += 4;
        usize::try_from(u32::from_le_bytes(s.try_into().ok()?)).ok()
    }

    fn id(&mut self) -> Option<StateID> {
        StateID::new(self.num()?).ok()
    }
}

/// A table file: each pattern's NFAs (forward then reverse, or the forward
/// one with capture states), behind an offset table so one pattern is read
/// without the others.
pub fn encode_table(nfas: &[Vec<NFA>]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    let mut offsets = Vec::with_capacity(nfas.len() + 1);
    for one in nfas {
        offsets.push(body.len());
        for nfa in one {
            encode(nfa, &mut body)?;
        }
    }
    offsets.push(body.len());
    let mut out = Vec::with_capacity(body.len() + 4 * (offsets.len() + 1));
    put_u32(&mut out, nfas.len());
    offsets.iter().for_each(|&o| put_u32(&mut out, o));
    out.extend_from_slice(&body);
    Some(out)
}

/// Pattern `i`'s bytes in a table file of `count` patterns: its NFAs in the
/// order written (`None` if the file does not hold them).
pub fn entry(b: &[u8], count: usize, i: usize) -> Option<&[u8]> {
    let mut r = Reader { b, at: 0 };
    if r.u32()? != count || i >= count {
        return None;
    }
    r.at = 4 + 4 * i;
    let start = r.u32()?;
    let end = r.u32()?;
    b.get(4 + 4 * (count + 1)..)?.get(start..end)
}
