//! The grammar frames (frames.toml): patterns that add a concept where a
//! word list cannot, run over a field after its lexicon pass.

use super::tables::Tables;
use crate::lang;

/// Add the grammar frames' matches (frames.toml) to the lexicon's hits, in
/// start order, so negation, mentions and sentences treat both alike.
pub(super) fn frame_hits(t: &Tables, text: &str, hits: &mut Vec<lang::Hit>) {
    // Frames whose required literals occur (a candidate that does not match
    // finds nothing), run only where their matches can start when that is known.
    let chosen = t.frame_set.chosen(text.as_bytes());
    if chosen.is_empty() {
        return;
    }
    for c in chosen {
        let (concept, re) = &t.frames[c.pattern];
        let push = |m: regex_automata::Match| {
            hits.push(lang::Hit {
                concept: *concept,
                lang: lang::Lang::En,
                span: (m.start() as u32, m.end() as u32),
            })
        };
        re.for_each_match_at(text.as_bytes(), c.starts.as_deref(), push);
    }
    hits.sort_by_key(|h| (h.span.0, h.span.1));
}
