//! MTC-INJ-SHADOW-2, cross-server tool-name collisions in one session: the same
//! name, the same confusable skeleton, or a near miss (Damerau–Levenshtein ≤ 2 on
//! names of 5+ characters) on another server can hijack tool selection.
//!
//! Names are indexed, never compared all-pairs: exact and skeleton collisions by
//! hash bucket; near misses through a deletion index (every variant with up to two
//! characters deleted), verified with the optimal-string-alignment distance.

use crate::confusables::skeleton;
use crate::finding::{Confidence, Finding, Severity};
use crate::model::ServerResult;
use crate::rules::ids;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Names longer than this are only checked for exact and skeleton collisions.
const MAX_FUZZY_CHARS: usize = 64;
/// Most candidates verified per name (bounds a pathological catalog).
const MAX_CANDIDATES: usize = 200;

struct Entry<'a> {
    member: usize,
    server: &'a ServerResult,
    tool: &'a str,
    lower: String,
    skel: Vec<char>,
    /// `skel` as a string (compared and measured without rebuilding it).
    skel_str: String,
}

/// Polynomial hash base (odd, so powers never vanish modulo 2^64).
const BASE: u64 = 0x100_0000_01B3;

/// Hashes of every variant of `s` with zero, one or two characters deleted, in
/// O(1) each from prefix hashes (no string built). Equal variants hash equally;
/// a collision between different ones only adds a candidate, and every candidate
/// is verified by its edit distance.
fn deletion_hashes(s: &[char]) -> Vec<u64> {
    let mut out = deletion_hashes_with_repeats(s);
    out.sort_unstable();
    out.dedup();
    out
}

/// [`deletion_hashes`] before sorting: a variant reached by deleting either of
/// two equal neighbours is listed twice.
fn deletion_hashes_with_repeats(s: &[char]) -> Vec<u64> {
    let n = s.len();
    let mut pow = vec![1u64; n + 1];
    let mut pre = vec![0u64; n + 1];
    for i in 0..n {
        pow[i + 1] = pow[i].wrapping_mul(BASE);
        pre[i + 1] = pre[i].wrapping_mul(BASE).wrapping_add(s[i] as u64 + 1);
    }
    // Hash of s[a..b].
    let sub = |a: usize, b: usize| pre[b].wrapping_sub(pre[a].wrapping_mul(pow[b - a]));
    // Hash of a concatenation of ranges.
    let cat = |parts: &[(usize, usize)]| {
        parts.iter().fold(0u64, |h, &(a, b)| {
            h.wrapping_mul(pow[b - a]).wrapping_add(sub(a, b))
        })
    };
    // The length is mixed in so variants of different depth never collide by construction.
    let tag = |h: u64, len: usize| h ^ (len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::with_capacity(1 + n + n * n.saturating_sub(1) / 2);
    out.push(tag(cat(&[(0, n)]), n));
    for i in 0..n {
        out.push(tag(cat(&[(0, i), (i + 1, n)]), n - 1));
        for j in i + 1..n {
            out.push(tag(cat(&[(0, i), (i + 1, j), (j + 1, n)]), n - 2));
        }
    }
    out
}

/// The variant hash of `s` computed directly (what `deletion_hashes` derives in O(1)).
#[cfg(test)]
fn written_hash(s: &[char]) -> u64 {
    let h = s.iter().fold(0u64, |h, &c| {
        h.wrapping_mul(BASE).wrapping_add(c as u64 + 1)
    });
    h ^ (s.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Optimal-string-alignment distance when it is at most 2, else `None`: a band of
/// width 5 around the diagonal, abandoned as soon as a row exceeds 2.
fn osa_within_2(a: &[char], b: &[char]) -> Option<usize> {
    const K: usize = 2;
    const FAR: usize = K + 1;
    if a.len().abs_diff(b.len()) > K {
        return None;
    }
    let (n, m) = (a.len(), b.len());
    // Three rows (OSA looks two rows back for transpositions).
    let mut prev2 = vec![FAR; m + 1];
    let mut prev: Vec<usize> = (0..=m).map(|j| j.min(FAR)).collect();
    let mut cur = vec![FAR; m + 1];
    for i in 1..=n {
        cur.fill(FAR);
        if i <= K {
            cur[0] = i;
        }
        let lo = i.saturating_sub(K).max(1);
        let hi = (i + K).min(m);
        let mut row_min = cur[0];
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d.min(FAR);
            row_min = row_min.min(cur[j]);
        }
        if row_min > K {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[m] <= K).then_some(prev[m])
}

pub fn check(members: &[&ServerResult], out: &mut Vec<Finding>) {
    // Skeletons are the costly part of an entry: computed in parallel, in order.
    let entries: Vec<Entry<'_>> = members
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.surface.tools.iter().map(move |t| (i, *m, t)))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(member, server, t)| {
            let lower = t.name.to_lowercase();
            let skel_str = skeleton(&lower);
            Entry {
                member,
                server,
                tool: &t.name,
                skel: skel_str.chars().collect(),
                lower,
                skel_str,
            }
        })
        .collect();
    let mut by_skel: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        by_skel.entry(e.skel_str.as_str()).or_default().push(i);
    }
    // One finding per colliding tool, naming its strongest and earliest partner and
    // counting the rest: N servers sharing a name give N-1 findings, not N²/2.
    let mut best: BTreeMap<usize, Collision> = BTreeMap::new();
    let id = |i: usize| entries[i].server.surface.id.as_str();
    for bucket in by_skel.values() {
        let mut sorted = bucket.clone();
        sorted.sort_by(|&a, &b| (id(a), entries[a].tool).cmp(&(id(b), entries[b].tool)));
        // Earliest entries so far: overall, and per lowercase name; each with the
        // first entry of a different member, so every later entry finds a partner.
        type Slot = Option<(usize, Option<usize>)>;
        let mut first_any: Slot = None;
        let mut first_by_name: BTreeMap<&str, Slot> = BTreeMap::new();
        let mut per_member: BTreeMap<usize, usize> = BTreeMap::new();
        for (j, &e) in sorted.iter().enumerate() {
            let m = entries[e].member;
            let lower = entries[e].lower.as_str();
            let earlier_other = j - per_member.get(&m).copied().unwrap_or(0);
            let partner_of = |slot: &Slot| {
                slot.and_then(|(a, b)| {
                    if entries[a].member != m {
                        Some(a)
                    } else {
                        b.filter(|&b| entries[b].member != m)
                    }
                })
            };
            if earlier_other > 0 {
                let exact = first_by_name.get(lower).and_then(partner_of);
                if let Some(p) = exact {
                    note(&entries, &mut best, e, 0, p, earlier_other);
                } else if let Some(p) = partner_of(&first_any) {
                    note(&entries, &mut best, e, 1, p, earlier_other);
                }
            }
            *per_member.entry(m).or_default() += 1;
            let update = |slot: &mut Slot| match slot {
                None => *slot = Some((e, None)),
                Some((a, b)) if b.is_none() && entries[*a].member != m => *b = Some(e),
                _ => {}
            };
            update(&mut first_any);
            update(first_by_name.entry(lower).or_default());
        }
    }
    // Near misses, between distinct skeletons: N servers sharing one name are one
    // node here, so a hostile session cannot make the index quadratic.
    let groups: Vec<(&Vec<char>, Vec<usize>)> = by_skel
        .values()
        .filter(|bucket| (5..=MAX_FUZZY_CHARS).contains(&entries[bucket[0]].skel.len()))
        .map(|bucket| {
            let mut sorted = bucket.clone();
            sorted.sort_by(|&a, &b| (id(a), entries[a].tool).cmp(&(id(b), entries[b].tool)));
            (&entries[bucket[0]].skel, sorted)
        })
        .collect();
    for (x, y, rank) in near_pairs(&groups) {
        for (mine, other) in [(x, y), (y, x)] {
            let other = &groups[other].1;
            for &e in &groups[mine].1 {
                // Partners: the other name's tools on other servers listed before this one.
                let key = (id(e), entries[e].tool);
                let before = other.partition_point(|&o| (id(o), entries[o].tool) < key);
                let m = entries[e].member;
                let mut others = other[..before].iter().filter(|&&o| entries[o].member != m);
                if let Some(&partner) = others.next() {
                    note(&entries, &mut best, e, rank, partner, 1 + others.count());
                }
            }
        }
    }
    for (s, c) in best {
        let (second, first) = (&entries[s], &entries[c.partner]);
        let what = match c.rank {
            0 => "has the same name as".to_string(),
            1 => "looks identical (same confusable skeleton) to".to_string(),
            r => format!("is a near miss (edit distance {}) of", r - 1),
        };
        let more = match c.total - 1 {
            0 => String::new(),
            n => format!(" (and {n} more colliding tool(s) on other servers)"),
        };
        let mut f = Finding::new(
            ids::MTC_INJ_SHADOW_2,
            format!(
                "tool `{}` on server `{}` {what} tool `{}` on server `{}` in the same session{more}",
                second.tool, second.server.surface.name, first.tool, first.server.surface.name
            ),
            second.server.surface.location_for(Some(second.tool)),
        )
        .server(&second.server.surface.id)
        .tool(Some(second.tool))
        .evidence(format!(
            "`{}` ({}) vs `{}` ({})",
            second.tool, second.server.surface.id, first.tool, first.server.surface.id
        ));
        if c.rank >= 2 {
            f = f
                .severity(Severity::Medium)
                .confidence(Confidence::Heuristic);
        }
        out.push(f);
    }
}

/// Pairs of distinct skeletons (group indices, lower first) within edit distance 2,
/// with their rank (2: distance 1, 3: distance 2). Candidates come from a deletion
/// index (every variant with up to two characters deleted, as a hash), walked run by
/// run in hash order; each is verified with the optimal-string-alignment distance.
fn near_pairs(groups: &[(&Vec<char>, Vec<usize>)]) -> Vec<(usize, usize, u8)> {
    // Each index entry is one u64: the variant hash in the high bits, the group in
    // the low `bits` (a 1,000-server session has about 5 million entries: packed,
    // they take half the memory and sort faster). Hash bits lost to the packing only
    // add candidates, and every candidate is verified.
    let bits = usize::BITS - groups.len().leading_zeros();
    let low = (1u64 << bits) - 1;
    // Almost every variant is unique to its name. Two bitmaps over the hashes'
    // top bits (seen once, seen again) keep only the variants another name may
    // share, so the index sorted below is a tenth of the whole. Equal packed
    // keys share their top bits, so no run of the index loses a member.
    let seen_twice = shared_prefixes(groups, bits);
    let mut index: Vec<u64> = groups
        .par_iter()
        .enumerate()
        .flat_map_iter(|(g, (skel, _))| {
            let seen_twice = &seen_twice;
            deletion_hashes(skel)
                .into_iter()
                .filter(move |&h| seen_twice.contains(h))
                .map(move |h| (h & !low) | g as u64)
        })
        .collect();
    index.par_sort_unstable();
    let group = |k: u64| (k & low) as usize;
    let mut cands: Vec<(usize, usize)> = Vec::new();
    for run in index
        .chunk_by(|a, b| a & !low == b & !low)
        .filter(|r| r.len() > 1)
    {
        for (i, &a) in run.iter().enumerate() {
            cands.extend(
                run[i + 1..]
                    .iter()
                    .take(MAX_CANDIDATES)
                    .map(|&b| (group(a), group(b))),
            );
        }
    }
    cands.par_sort_unstable();
    cands.dedup();
    // At most MAX_CANDIDATES verified per name (bounds a pathological catalog).
    let capped: Vec<(usize, usize)> = cands
        .chunk_by(|a, b| a.0 == b.0)
        .flat_map(|c| c.iter().take(MAX_CANDIDATES).copied())
        .collect();
    capped
        .par_iter()
        .filter_map(|&(a, b)| {
            osa_within_2(groups[a].0, groups[b].0)
                .filter(|&d| d > 0)
                .map(|d| (a, b, if d == 1 { 2 } else { 3 }))
        })
        .collect()
}

/// A bitmap of hash prefixes (the top `width` bits of a variant hash) that
/// occur under at least two names, or twice under one through a prefix clash.
struct PrefixSet {
    width: u32,
    words: Vec<AtomicU64>,
}

impl PrefixSet {
    fn new(width: u32) -> PrefixSet {
        let words = (1usize << width).div_ceil(64);
        PrefixSet {
            width,
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The word and bit of `h`'s prefix.
    fn slot(&self, h: u64) -> (&AtomicU64, u64) {
        let p = h >> (64 - self.width);
        (&self.words[(p / 64) as usize], 1 << (p % 64))
    }

    fn contains(&self, h: u64) -> bool {
        let (word, bit) = self.slot(h);
        word.load(Relaxed) & bit != 0
    }

    /// Marks `h`'s prefix; true when it was marked already.
    fn insert(&self, h: u64) -> bool {
        let (word, bit) = self.slot(h);
        word.fetch_or(bit, Relaxed) & bit != 0
    }
}

/// Marks every variant hash prefix seen twice. The bitmaps hold about eight bits
/// per variant (at most 2^28 bits, 32 MB each), and the prefix never takes more
/// bits than the index keeps after packing the group into its `group_bits`.
fn shared_prefixes(groups: &[(&Vec<char>, Vec<usize>)], group_bits: u32) -> PrefixSet {
    let variants: usize = groups
        .iter()
        .map(|(s, _)| 1 + s.len() + s.len() * s.len().saturating_sub(1) / 2)
        .sum();
    let width = (variants
        .saturating_mul(8)
        .clamp(1 << 12, 1 << 28)
        .next_power_of_two()
        .trailing_zeros())
    .min(64 - group_bits);
    let (once, twice) = (PrefixSet::new(width), PrefixSet::new(width));
    // The variants are hashed again when the index is built: keeping all of them
    // (5.3 million in the benchmark session) was the memory this filter saves.
    // A repeated variant of one name only adds an index entry: no sort needed here.
    groups.par_iter().for_each(|(skel, _)| {
        for h in deletion_hashes_with_repeats(skel) {
            if once.insert(h) {
                twice.insert(h);
            }
        }
    });
    twice
}

/// The collision reported for one tool.
struct Collision {
    /// 0 exact, 1 same skeleton, 2 edit distance 1, 3 edit distance 2.
    rank: u8,
    /// The entry named in the finding (strongest kind, then earliest server).
    partner: usize,
    /// Colliding tools on other servers, the partner included.
    total: usize,
}

/// Record one more collision for `second`; the named partner is the strongest
/// kind, then the earliest server.
fn note(
    entries: &[Entry<'_>],
    best: &mut BTreeMap<usize, Collision>,
    second: usize,
    rank: u8,
    partner: usize,
    count: usize,
) {
    let key = |rank: u8, p: usize| (rank, entries[p].server.surface.id.as_str(), entries[p].tool);
    match best.get_mut(&second) {
        None => {
            best.insert(
                second,
                Collision {
                    rank,
                    partner,
                    total: count,
                },
            );
        }
        Some(c) => {
            c.total += count;
            if key(rank, partner) < key(c.rank, c.partner) {
                c.rank = rank;
                c.partner = partner;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::acquire::Acquired;
    use crate::detect::ScanOptions;
    use crate::finding::Severity;
    use crate::surface::{Item, ServerSurface};
    use serde_json::json;

    fn surface(id: &str, tools: &[&str]) -> ServerSurface {
        crate::testkit::surface(id)
            .name(id)
            .at("mcp.json", 1, 1)
            .format("config")
            .session(Some("mcp.json"))
            .named_tools(tools)
            .build()
    }

    fn shadows(servers: Vec<ServerSurface>) -> Vec<(String, Severity)> {
        let r = crate::detect::run(
            Acquired {
                surfaces: servers,
                ..Acquired::default()
            },
            &ScanOptions::default(),
        );
        r.sessions[0]
            .findings
            .iter()
            .filter(|f| f.rule_id == crate::rules::ids::MTC_INJ_SHADOW_2)
            .map(|f| (f.tool.clone().unwrap(), f.severity))
            .collect()
    }

    #[test]
    fn exact_skeleton_and_near_misses() {
        let a = surface(
            "mcp.json#a",
            &["send_email", "read_file", "list_items", "ping"],
        );
        let b = surface(
            "mcp.json#b",
            &[
                "SEND_EMAIL",
                "re\u{0430}d_file",
                "list_itmes",
                "pong",
                "unrelated_tool",
            ],
        );
        let got = shadows(vec![a, b]);
        assert!(
            got.contains(&("SEND_EMAIL".into(), Severity::High)),
            "{got:?}"
        );
        assert!(
            got.contains(&("re\u{0430}d_file".into(), Severity::High)),
            "{got:?}"
        );
        assert!(
            got.contains(&("list_itmes".into(), Severity::Medium)),
            "{got:?}"
        );
        // `ping`/`pong` are shorter than 5 characters: no near-miss check.
        assert_eq!(got.len(), 3, "{got:?}");
    }

    #[test]
    fn many_servers_sharing_a_name_give_one_finding_each_not_one_per_pair() {
        let servers: Vec<ServerSurface> = (0..60)
            .map(|i| surface(&format!("mcp.json#s{i:02}"), &["send_email", "send_emails"]))
            .collect();
        let r = crate::detect::run(
            Acquired {
                surfaces: servers,
                ..Acquired::default()
            },
            &ScanOptions::default(),
        );
        let got: Vec<_> = r.sessions[0]
            .findings
            .iter()
            .filter(|f| f.rule_id == crate::rules::ids::MTC_INJ_SHADOW_2)
            .collect();
        // Every tool of every server but the first collides: 59 × 2 findings, not 60·59 pairs.
        assert_eq!(got.len(), 59 * 2, "{}", got.len());
        let last = got
            .iter()
            .find(|f| {
                f.server.as_deref() == Some("mcp.json#s59")
                    && f.tool.as_deref() == Some("send_email")
            })
            .expect("the last server's send_email");
        assert!(
            last.message
                .contains("has the same name as tool `send_email` on server `mcp.json#s00`"),
            "{}",
            last.message
        );
        // 59 same-name tools plus 59 near misses (`send_emails`, edit distance 1) on earlier servers.
        assert!(
            last.message.contains("and 117 more colliding"),
            "{}",
            last.message
        );
        assert_eq!(last.severity, Severity::High);
    }

    #[test]
    fn banded_osa_on_known_pairs() {
        let d = |a: &str, b: &str| {
            let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            super::osa_within_2(&x, &y)
        };
        assert_eq!(d("send_email", "send_email"), Some(0));
        assert_eq!(d("send_email", "sned_email"), Some(1)); // transposition
        assert_eq!(d("send_email", "send_emails"), Some(1));
        assert_eq!(d("send_email", "snd_emal"), Some(2));
        assert_eq!(d("send_email", "sned_emial"), Some(2)); // two transpositions
        assert_eq!(d("send_email", "sn_emai"), None);
        assert_eq!(d("read_file", "write_file"), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

        /// The banded distance is the full OSA distance whenever that is at most 2.
        #[test]
        fn banded_osa_matches_the_full_distance(a in "[abc_]{0,9}", b in "[abc_]{0,9}") {
            let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let full = strsim::osa_distance(&a, &b);
            proptest::prop_assert_eq!(super::osa_within_2(&x, &y), (full <= 2).then_some(full));
        }

        /// The prefiltered deletion index finds exactly the pairs within distance 2
        /// that comparing every pair finds.
        #[test]
        fn near_pairs_equal_all_pairs(names in proptest::collection::btree_set("[ab_]{5,9}", 1..40)) {
            let skels: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
            let groups: Vec<(&Vec<char>, Vec<usize>)> = skels.iter().map(|s| (s, vec![])).collect();
            let mut want = Vec::new();
            for a in 0..skels.len() {
                for b in a + 1..skels.len() {
                    if let Some(d) = super::osa_within_2(&skels[a], &skels[b]) {
                        want.push((a, b, if d == 1 { 2 } else { 3 }));
                    }
                }
            }
            let mut got = super::near_pairs(&groups);
            got.sort_unstable();
            proptest::prop_assert_eq!(got, want);
        }

        /// The O(1) variant hashes equal the hash of the variant written out.
        #[test]
        fn deletion_hashes_equal_the_written_out_variants(s in "[a-dé_]{1,12}", i in 0usize..12, j in 0usize..12) {
            let chars: Vec<char> = s.chars().collect();
            let (i, j) = (i % chars.len(), j % chars.len());
            let all = super::deletion_hashes(&chars);
            let shorter: Vec<char> = chars
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i && *k != j)
                .map(|(_, c)| *c)
                .collect();
            proptest::prop_assert!(all.contains(&super::written_hash(&chars)));
            proptest::prop_assert!(all.contains(&super::written_hash(&shorter)));
            // A 3-deletion variant is not in the set (unless a hash collides, which these sizes never show).
            if chars.len() >= 4 {
                proptest::prop_assert!(!all.contains(&super::written_hash(&chars[3..])));
            }
        }
    }

    #[test]
    fn same_server_names_never_collide() {
        let a = surface("mcp.json#a", &["read_file", "read_files"]);
        let b = surface("mcp.json#b", &["totally_different"]);
        assert!(shadows(vec![a, b]).is_empty());
    }

    #[test]
    fn large_sessions_stay_fast() {
        let a = surface("mcp.json#a", &[]);
        let mut a = a;
        let mut b = surface("mcp.json#b", &[]);
        for i in 0..600 {
            a.tools
                .push(Item::new(format!("tool_a_{i:05}"), json!({}), None));
            b.tools
                .push(Item::new(format!("zzzz_b_{i:05}"), json!({}), None));
        }
        let t = std::time::Instant::now();
        let got = shadows(vec![a, b]);
        assert!(got.is_empty());
        assert!(t.elapsed().as_secs() < 20);
    }
}
