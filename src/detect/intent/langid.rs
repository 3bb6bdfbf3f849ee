//! Which language a sentence is written in, told by its function words
//! (`stopwords.toml`), and the lexicon's hits kept to it: a term of a
//! Latin-script language other than English only counts in a sentence of
//! that language (`change` is French, `token*` German).

use super::tables::Tables;
use crate::lang;

impl Tables {
    /// Which gated (Latin-script, non-English) language a sentence is written in.
    pub(super) fn sentence_lang(&self, sentence: &str) -> Option<lang::Lang> {
        self.rivals(sentence)
            .max_by_key(|&(_, c)| c)
            .map(|(l, _)| l)
    }

    /// The gated languages a sentence may be written in: each whose function
    /// words outnumber English's and that ties for the most. A tie keeps
    /// both ("no hace falta avisar": as many Portuguese as Spanish words),
    /// where [`Tables::sentence_lang`] picks one.
    pub(super) fn sentence_langs(&self, sentence: &str) -> Langs {
        let (_, mask) =
            self.rivals(sentence)
                .fold((0, 0), |(best, m), (l, c)| match c.cmp(&best) {
                    std::cmp::Ordering::Greater => (c, 1 << (l as u32)),
                    std::cmp::Ordering::Equal => (best, m | 1 << (l as u32)),
                    std::cmp::Ordering::Less => (best, m),
                });
        Langs(mask)
    }

    /// Each non-English language with more function words in the sentence
    /// than English, and how many (`stop_langs` order).
    fn rivals(&self, sentence: &str) -> impl Iterator<Item = (lang::Lang, usize)> + '_ {
        let counts = self.stop_counts(sentence);
        let en = self
            .stop_langs
            .iter()
            .position(|l| *l == lang::Lang::En)
            .map_or(0, |e| counts[e]);
        self.stop_langs
            .iter()
            .zip(counts)
            .filter(move |&(l, c)| *l != lang::Lang::En && c > en)
            .map(|(l, c)| (*l, c))
    }

    /// How many function words of each language (`stop_langs` order) a sentence has.
    fn stop_counts(&self, sentence: &str) -> [usize; 16] {
        let mut counts = [0usize; 16];
        for w in sentence.split(|c: char| !c.is_alphanumeric() && c != '\'') {
            if w.is_empty() || w.len() > 12 {
                continue;
            }
            if let Some(&mask) = self.stop.get(w) {
                for (i, c) in counts.iter_mut().enumerate() {
                    *c += usize::from(mask & (1 << i) != 0);
                }
            }
        }
        counts
    }
}

/// The languages a sentence may be written in ([`Tables::sentence_langs`]).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Langs(u32);

impl Langs {
    pub(super) fn has(self, l: lang::Lang) -> bool {
        self.0 & (1 << (l as u32)) != 0
    }

    pub(super) fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Languages whose terms only count in a sentence detected as that language:
/// the Latin-script ones besides English, whose words can be English words.
pub(super) fn gated(l: lang::Lang) -> bool {
    use lang::Lang::*;
    matches!(
        l,
        Es | Fr | De | Pt | It | Tr | Pl | Vi | Id | Nl | Sv | Ro | Hu | Sw
    )
}

/// Every hit of the lexicon, with the terms of a gated (Latin-script,
/// non-English) language kept only in sentences written in that language;
/// and whether any such term matched.
pub(super) fn find_gated(
    t: &Tables,
    text: &str,
    sentences: &[std::ops::Range<usize>],
) -> (Vec<lang::Hit>, bool) {
    let mut hits = t.lex.find_per_lang(text);
    let gated_any = hits.iter().any(|h| gated(h.lang));
    if gated_any {
        let mut langs: Vec<Option<Langs>> = vec![None; sentences.len()];
        let mut at = 0;
        hits.retain(|h| {
            if !gated(h.lang) {
                return true;
            }
            // Hits are sorted by start: the sentence index only moves forward.
            while at < sentences.len() && sentences[at].end < h.span.1 as usize {
                at += 1;
            }
            let Some(r) = sentences.get(at).filter(|r| r.start <= h.span.0 as usize) else {
                return false;
            };
            langs[at]
                .get_or_insert_with(|| t.sentence_langs(&text[r.clone()]))
                .has(h.lang)
        });
    }
    // A term listed under several languages hits once per language.
    hits.dedup_by(|a, b| a.span == b.span && a.concept == b.concept);
    (hits, gated_any)
}
