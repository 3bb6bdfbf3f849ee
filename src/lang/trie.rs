//! An Aho–Corasick automaton that is built at compile time (`build.rs`) and
//! searched in place from the binary's read-only data: no construction at
//! start-up, no heap. It reports exactly what `aho_corasick`'s overlapping
//! search with `MatchKind::Standard` reports, in the same order: by end
//! position, then the longest pattern first (a state's own patterns, in
//! pattern order, then those of its failure state). Plain `std` only, so
//! `build.rs` includes this file too.
//!
//! Layout (little-endian): `nodes`, `patterns`, `node_bytes`, `outs` (u32),
//! then the nodes, breadth first, one record each, a node's id being the
//! offset of its record: `fail` (u32), `out_next` (u32: the nearest failure
//! state with patterns of its own, or `u32::MAX`), `out_start` (u32, into
//! `out_pattern`), `edge_count` (u16), `out_count` (u16), the edges' bytes
//! (sorted) and their targets (u32 each); then `out_pattern[outs]` and
//! `pattern_len[patterns]` (u32). One step of a search reads one record,
//! usually one cache line of one page.

/// The fixed part of a node's record: `fail`, `out_next`, `out_start`,
/// `edge_count`, `out_count`.
const NODE_HEADER: usize = 16;

/// Build the automaton of `patterns` (pattern id = index).
#[allow(dead_code)]
pub fn build(patterns: &[&[u8]]) -> Vec<u8> {
    // Trie: children sorted by byte.
    let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
    let mut own: Vec<Vec<u32>> = vec![Vec::new()];
    for (pid, p) in patterns.iter().enumerate() {
        let mut s = 0usize;
        for &b in p.iter() {
            s = match children[s].binary_search_by_key(&b, |&(x, _)| x) {
                Ok(i) => children[s][i].1 as usize,
                Err(i) => {
                    let n = children.len();
                    children[s].insert(i, (b, n as u32));
                    children.push(Vec::new());
                    own.push(Vec::new());
                    n
                }
            };
        }
        own[s].push(pid as u32);
    }
    let (children, own) = breadth_first(children, own);
    let n = children.len();
    // Failure links, breadth first.
    let mut fail = vec![0u32; n];
    let mut queue = std::collections::VecDeque::new();
    for &(_, c) in &children[0] {
        queue.push_back(c as usize);
    }
    while let Some(s) = queue.pop_front() {
        for &(b, c) in &children[s] {
            let c = c as usize;
            queue.push_back(c);
            let mut f = fail[s] as usize;
            let next = loop {
                if let Ok(i) = children[f].binary_search_by_key(&b, |&(x, _)| x) {
                    break children[f][i].1;
                }
                if f == 0 {
                    break 0;
                }
                f = fail[f] as usize;
            };
            fail[c] = if next as usize == c { 0 } else { next };
        }
    }
    // Output links: the nearest failure state with patterns of its own.
    let mut out_next = vec![u32::MAX; n];
    for s in 1..n {
        let mut f = fail[s] as usize;
        while f != 0 && own[f].is_empty() {
            f = fail[f] as usize;
        }
        if f != 0 {
            out_next[s] = f as u32;
        }
    }
    // Each node's record offset, its id in the table.
    let mut off = Vec::with_capacity(n);
    let mut at = 0usize;
    for c in &children {
        off.push(u32::try_from(at).expect("automaton fits u32"));
        at += NODE_HEADER + 5 * c.len();
    }
    let outs: usize = own.iter().map(Vec::len).sum();
    let mut w = Writer(Vec::with_capacity(16 + at + 4 * (outs + patterns.len())));
    w.num(n);
    w.num(patterns.len());
    w.num(at);
    w.num(outs);
    let mut out_at = 0;
    for s in 0..n {
        w.num(off[fail[s] as usize] as usize);
        let on = out_next[s];
        w.0.extend_from_slice(&if on == u32::MAX { on } else { off[on as usize] }.to_le_bytes());
        w.num(out_at);
        out_at += own[s].len();
        for count in [children[s].len(), own[s].len()] {
            w.0.extend_from_slice(&u16::try_from(count).expect("fits u16").to_le_bytes());
        }
        w.0.extend(children[s].iter().map(|&(b, _)| b));
        for &(_, c) in &children[s] {
            w.num(off[c as usize] as usize);
        }
    }
    for o in &own {
        for &p in o {
            w.num(p as usize);
        }
    }
    for p in patterns {
        w.num(p.len());
    }
    w.0
}

/// A trie node's children: (byte, child), sorted by byte.
type Children = Vec<(u8, u32)>;

/// The trie renumbered breadth first. A search spends nearly all its steps in
/// the shallow states, and the table is read in place from the executable's
/// pages: numbered in insertion order, the root's children and grandchildren
/// were spread over every page of every array, so a one-tool scan faulted in
/// most of the 16 MB lexicon (issue 22). Breadth first, they share a few pages.
#[allow(dead_code)]
fn breadth_first(
    children: Vec<Children>,
    mut own: Vec<Vec<u32>>,
) -> (Vec<Children>, Vec<Vec<u32>>) {
    let mut order = vec![0u32];
    let mut i = 0;
    while i < order.len() {
        order.extend(children[order[i] as usize].iter().map(|&(_, c)| c));
        i += 1;
    }
    let mut new_id = vec![0u32; children.len()];
    for (new, &old) in order.iter().enumerate() {
        new_id[old as usize] = new as u32;
    }
    let kids = order
        .iter()
        .map(|&old| {
            children[old as usize]
                .iter()
                .map(|&(b, c)| (b, new_id[c as usize]))
                .collect()
        })
        .collect();
    let own = order
        .iter()
        .map(|&old| std::mem::take(&mut own[old as usize]))
        .collect();
    (kids, own)
}

/// Writes the little-endian u32 fields of the compiled formats (this
/// automaton, compiled lexicons and prefilters).
#[allow(dead_code)]
pub struct Writer(pub Vec<u8>);

#[allow(dead_code)]
impl Writer {
    pub fn num(&mut self, v: usize) {
        self.0
            .extend_from_slice(&u32::try_from(v).expect("fits u32").to_le_bytes());
    }

    /// A length, then the bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.num(b.len());
        self.0.extend_from_slice(b);
    }
}

/// Reads what [`Writer`] wrote; every read is checked (`None` past the end).
#[allow(dead_code)]
#[derive(Clone)]
pub struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

#[allow(dead_code)]
impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, at: 0 }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    pub fn num(&mut self) -> Option<usize> {
        let s = self.take(4)?;
        usize::try_from(u32::from_le_bytes(s.try_into().ok()?)).ok()
    }

    /// A length, then that many bytes ([`Writer::bytes`]).
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.num()?;
        self.take(n)
    }

    /// What is left.
    pub fn rest(&self) -> &'a [u8] {
        self.b.get(self.at..).unwrap_or_default()
    }
}

/// A little-endian u32 array inside the automaton's bytes.
#[allow(dead_code)]
#[derive(Clone, Copy)]
struct U32s<'a>(&'a [u8]);

#[allow(dead_code)]
impl U32s<'_> {
    #[inline]
    fn get(&self, i: usize) -> u32 {
        let b = &self.0[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// The automaton, read in place.
#[allow(dead_code)]
pub struct Nfa<'a> {
    /// The node records.
    nodes: &'a [u8],
    node_count: usize,
    out_pattern: U32s<'a>,
    pattern_len: U32s<'a>,
    /// The root's transitions, dense (0 = stay at the root).
    root: [u32; 256],
    patterns: usize,
}

/// A little-endian u32 at byte `at`.
#[inline]
fn u32_at(b: &[u8], at: usize) -> u32 {
    let b = &b[at..at + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// A little-endian u16 at byte `at`.
#[inline]
fn u16_at(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
}

#[allow(dead_code)]
impl<'a> Nfa<'a> {
    /// Check the layout (the sizes, and the root's edges in range) and read
    /// it. The automata are compiled into the binary by `build.rs`, and every
    /// one of them passes [`Nfa::valid`] in the unit tests: checking every
    /// index again at start-up read the whole table (several hundred pages)
    /// for a scan that visits a few of them (issue 22).
    pub fn new(b: &'a [u8]) -> Option<Nfa<'a>> {
        let mut r = Reader::new(b);
        let (node_count, patterns, node_bytes, outs) = (r.num()?, r.num()?, r.num()?, r.num()?);
        let nodes = r.take(node_bytes)?;
        let out_pattern = U32s(r.take(outs.checked_mul(4)?)?);
        let pattern_len = U32s(r.take(patterns.checked_mul(4)?)?);
        if !r.rest().is_empty() || node_count == 0 || nodes.len() < NODE_HEADER {
            return None;
        }
        let edges = u16_at(nodes, 12);
        if NODE_HEADER + 5 * edges > nodes.len() {
            return None;
        }
        let mut root = [0u32; 256];
        for e in 0..edges {
            let to = u32_at(nodes, NODE_HEADER + 4 * e + edges);
            if to as usize + NODE_HEADER > nodes.len() {
                return None;
            }
            root[nodes[NODE_HEADER + e] as usize] = to;
        }
        Some(Nfa {
            nodes,
            node_count,
            out_pattern,
            pattern_len,
            root,
            patterns,
        })
    }

    pub fn patterns(&self) -> usize {
        self.patterns
    }

    /// Every index in range, so the search never panics (run on every
    /// compiled automaton by the unit tests): the records tile the node
    /// area, and every link is the start of a record.
    pub fn valid(&self) -> bool {
        let b = self.nodes;
        let outs = self.out_pattern.0.len() / 4;
        let mut start = vec![false; b.len()];
        let mut records = Vec::new();
        let mut at = 0;
        while at < b.len() {
            if at + NODE_HEADER > b.len() {
                return false;
            }
            let size = NODE_HEADER + 5 * u16_at(b, at + 12);
            if at + size > b.len() {
                return false;
            }
            start[at] = true;
            records.push(at);
            at += size;
        }
        let node = |x: u32| start.get(x as usize).copied().unwrap_or(false);
        records.len() == self.node_count
            && records.iter().all(|&s| {
                let edges = u16_at(b, s + 12);
                let (o0, o1) = (
                    u32_at(b, s + 8) as usize,
                    u32_at(b, s + 8) as usize + u16_at(b, s + 14),
                );
                let on = u32_at(b, s + 4);
                node(u32_at(b, s))
                    && (on == u32::MAX || node(on))
                    && o1 <= outs
                    && (o0..o1).all(|o| (self.out_pattern.get(o) as usize) < self.patterns)
                    && (0..edges).all(|e| node(u32_at(b, s + NODE_HEADER + edges + 4 * e)))
            })
    }

    #[inline]
    fn next(&self, s: usize, b: u8) -> Option<usize> {
        let edges = u16_at(self.nodes, s + 12);
        let bytes = &self.nodes[s + NODE_HEADER..s + NODE_HEADER + edges];
        // Most states have one or two children.
        let i = if bytes.len() <= 8 {
            bytes.iter().position(|&x| x == b)
        } else {
            bytes.binary_search(&b).ok()
        }?;
        Some(u32_at(self.nodes, s + NODE_HEADER + edges + 4 * i) as usize)
    }
    /// Every occurrence of every pattern in `hay`, overlapping ones included:
    /// `f(pattern, start, end)`, in the order described in the module comment.
    pub fn overlapping(&self, hay: &[u8], f: impl FnMut(usize, usize, usize)) {
        self.overlapping_folded(hay, |b| b, f);
    }

    /// [`Nfa::overlapping`] of `hay` with every byte mapped by `fold` first
    /// (`u8::to_ascii_lowercase`: a case-insensitive search of lowercase
    /// patterns, with no lowercased copy of the text).
    #[inline]
    pub fn overlapping_folded(
        &self,
        hay: &[u8],
        fold: impl Fn(u8) -> u8,
        mut f: impl FnMut(usize, usize, usize),
    ) {
        let mut s = 0usize;
        for (i, b) in hay.iter().map(|&b| fold(b)).enumerate() {
            loop {
                if s == 0 {
                    s = self.root[b as usize] as usize;
                    break;
                }
                if let Some(n) = self.next(s, b) {
                    s = n;
                    break;
                }
                s = u32_at(self.nodes, s) as usize;
            }
            let end = i + 1;
            let mut o = s;
            while o != u32::MAX as usize {
                let k0 = u32_at(self.nodes, o + 8) as usize;
                for k in k0..k0 + u16_at(self.nodes, o + 14) {
                    let p = self.out_pattern.get(k) as usize;
                    f(p, end.saturating_sub(self.pattern_len.get(p) as usize), end);
                }
                o = u32_at(self.nodes, o + 4) as usize;
            }
        }
    }
}
