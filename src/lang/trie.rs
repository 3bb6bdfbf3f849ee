//! An Aho–Corasick automaton that is built at compile time (`build.rs`) and
//! searched in place from the binary's read-only data: no construction at
//! start-up, no heap. It reports exactly what `aho_corasick`'s overlapping
//! search with `MatchKind::Standard` reports, in the same order: by end
//! position, then the longest pattern first (a state's own patterns, in
//! pattern order, then those of its failure state). Plain `std` only, so
//! `build.rs` includes this file too.
//!
//! Layout (little-endian u32 unless noted): `nodes`, `edges`, `patterns`, then
//! `edge_start[nodes + 1]`, `edge_next[edges]`, `fail[nodes]`,
//! `out_start[nodes + 1]`, `out_next[nodes]` (the nearest failure state with
//! patterns of its own, or `u32::MAX`), `out_pattern[..]`, `pattern_len[patterns]`,
//! and last `edge_byte[edges]` (bytes).

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
    let edges: usize = children.iter().map(Vec::len).sum();
    let mut w = Writer(Vec::new());
    w.num(n);
    w.num(edges);
    w.num(patterns.len());
    let mut at = 0;
    for c in &children {
        w.num(at);
        at += c.len();
    }
    w.num(at);
    for c in &children {
        for &(_, x) in c {
            w.num(x as usize);
        }
    }
    for &f in &fail {
        w.num(f as usize);
    }
    let mut at = 0;
    for o in &own {
        w.num(at);
        at += o.len();
    }
    w.num(at);
    for &o in &out_next {
        w.0.extend_from_slice(&o.to_le_bytes());
    }
    for o in &own {
        for &p in o {
            w.num(p as usize);
        }
    }
    for p in patterns {
        w.num(p.len());
    }
    for c in &children {
        for &(b, _) in c {
            w.0.push(b);
        }
    }
    w.0
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
    edge_start: U32s<'a>,
    edge_next: U32s<'a>,
    fail: U32s<'a>,
    out_start: U32s<'a>,
    out_next: U32s<'a>,
    out_pattern: U32s<'a>,
    pattern_len: U32s<'a>,
    edge_byte: &'a [u8],
    /// The root's transitions, dense (0 = stay at the root).
    root: [u32; 256],
    patterns: usize,
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
        let (nodes, edges, patterns) = (r.num()?, r.num()?, r.num()?);
        let mut u32s = |n: usize| Some(U32s(r.take(n.checked_mul(4)?)?));
        let edge_start = u32s(nodes + 1)?;
        let edge_next = u32s(edges)?;
        let fail = u32s(nodes)?;
        let out_start = u32s(nodes + 1)?;
        let out_next = u32s(nodes)?;
        let outs = out_start.get(nodes) as usize;
        let out_pattern = u32s(outs)?;
        let pattern_len = u32s(patterns)?;
        let edge_byte = r.take(edges)?;
        if !r.rest().is_empty() || nodes == 0 {
            return None;
        }
        let (e0, e1) = (edge_start.get(0) as usize, edge_start.get(1) as usize);
        if e0 > e1 || e1 > edges || (e0..e1).any(|e| edge_next.get(e) as usize >= nodes) {
            return None;
        }
        let mut root = [0u32; 256];
        for e in edge_start.get(0) as usize..edge_start.get(1) as usize {
            root[edge_byte[e] as usize] = edge_next.get(e);
        }
        Some(Nfa {
            edge_start,
            edge_next,
            fail,
            out_start,
            out_next,
            out_pattern,
            pattern_len,
            edge_byte,
            root,
            patterns,
        })
    }

    pub fn patterns(&self) -> usize {
        self.patterns
    }

    /// Every index in range, so the search never panics (run on every
    /// compiled automaton by the unit tests).
    pub fn valid(&self) -> bool {
        let nodes = self.fail.0.len() / 4;
        let edges = self.edge_byte.len();
        let outs = self.out_pattern.0.len() / 4;
        (0..nodes).all(|s| {
            let (e0, e1) = (
                self.edge_start.get(s) as usize,
                self.edge_start.get(s + 1) as usize,
            );
            let (o0, o1) = (
                self.out_start.get(s) as usize,
                self.out_start.get(s + 1) as usize,
            );
            let on = self.out_next.get(s);
            e0 <= e1
                && e1 <= edges
                && o0 <= o1
                && o1 <= outs
                && (self.fail.get(s) as usize) < nodes
                && (on == u32::MAX || (on as usize) < nodes)
        }) && (0..edges).all(|e| (self.edge_next.get(e) as usize) < nodes)
            && (0..outs).all(|o| (self.out_pattern.get(o) as usize) < self.patterns)
    }

    #[inline]
    fn next(&self, s: usize, b: u8) -> Option<usize> {
        let (e0, e1) = (
            self.edge_start.get(s) as usize,
            self.edge_start.get(s + 1) as usize,
        );
        let bytes = &self.edge_byte[e0..e1];
        // Most states have one or two children.
        if bytes.len() <= 8 {
            bytes
                .iter()
                .position(|&x| x == b)
                .map(|i| self.edge_next.get(e0 + i) as usize)
        } else {
            bytes
                .binary_search(&b)
                .ok()
                .map(|i| self.edge_next.get(e0 + i) as usize)
        }
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
                s = self.fail.get(s) as usize;
            }
            let end = i + 1;
            let mut o = s;
            while o != u32::MAX as usize {
                for k in self.out_start.get(o) as usize..self.out_start.get(o + 1) as usize {
                    let p = self.out_pattern.get(k) as usize;
                    f(p, end.saturating_sub(self.pattern_len.get(p) as usize), end);
                }
                o = self.out_next.get(o) as usize;
            }
        }
    }
}
