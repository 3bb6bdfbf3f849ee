//! The size budget: the document as parts, and the assembly that drops the
//! least important entries until it fits under GitHub's comment limit.

use super::MAX_CHARS;
use std::collections::BTreeMap;

/// One part of the document. Groups lose their items, least important first,
/// when the report is too long; a group with no item left disappears.
pub(super) enum Part {
    Fixed(String),
    Group {
        head: String,
        items: Vec<(String, u8)>,
        tail: String,
    },
}

fn part_len(p: &Part) -> usize {
    match p {
        Part::Fixed(t) => t.chars().count(),
        Part::Group { head, items, tail } => {
            head.chars().count()
                + tail.chars().count()
                + items.iter().map(|(t, _)| t.chars().count()).sum::<usize>()
        }
    }
}

/// Assemble, dropping the least important entries until the report fits.
pub(super) fn finish(mut parts: Vec<Part>, note_at: usize, max: usize) -> String {
    let mut total: usize = parts.iter().map(part_len).sum();
    let mut dropped = 0usize;
    // Reserve room for the note (its length varies only with the digit count).
    let note = |n: usize| {
        format!(
            "> [!NOTE]\n> Truncated to stay under GitHub's {MAX_CHARS}-character comment limit: {n} least-severe entries omitted. The JSON and SARIF reports have everything.\n\n"
        )
    };
    let reserve = note(usize::MAX).chars().count();
    if total >= max {
        let mut order: Vec<(u8, usize, usize)> = Vec::new();
        for (pi, p) in parts.iter().enumerate() {
            if let Part::Group { items, .. } = p {
                for (ii, (_, rank)) in items.iter().enumerate() {
                    if *rank > 0 {
                        order.push((*rank, pi, ii));
                    }
                }
            }
        }
        // Highest rank first; within a rank, later entries first.
        order.sort_by(|a, b| b.cmp(a));
        let mut removed: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (_, pi, ii) in order {
            if total + reserve < max {
                break;
            }
            if let Part::Group { head, items, tail } = &parts[pi] {
                total -= items[ii].0.chars().count();
                let r = removed.entry(pi).or_default();
                r.push(ii);
                if r.len() == items.len() {
                    total -= head.chars().count() + tail.chars().count();
                }
                dropped += 1;
            }
        }
        // One pass per group: removing entries one at a time shifted the rest
        // of the group each time (quadratic in a 60,000-row server table).
        for (pi, idx) in removed {
            if let Part::Group { items, .. } = &mut parts[pi] {
                let mut gone = vec![false; items.len()];
                for i in idx {
                    gone[i] = true;
                }
                let mut at = 0;
                items.retain(|_| {
                    at += 1;
                    !gone[at - 1]
                });
            }
        }
    }
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i == note_at && dropped > 0 {
            out.push_str(&note(dropped));
        }
        match p {
            Part::Fixed(t) => out.push_str(t),
            Part::Group { head, items, tail } if !items.is_empty() => {
                out.push_str(head);
                for (t, _) in items {
                    out.push_str(t);
                }
                out.push_str(tail);
            }
            Part::Group { .. } => {}
        }
    }
    if out.chars().count() >= max {
        // Only fixed text is left and it is still too long: keep the verdict.
        let first = match parts.first() {
            Some(Part::Fixed(t)) => t.clone(),
            _ => String::new(),
        };
        out = crate::text::truncate_chars(&first, max.saturating_sub(reserve + 1));
        out.push_str("\n\n");
        out.push_str(&note(dropped.max(1)));
    }
    out
}
