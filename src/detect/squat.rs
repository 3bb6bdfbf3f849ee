//! Package-name checks of the supply-chain stage (MTC-SUP-001..006): is this
//! name a squat of a protected package? A name is compared only with the
//! curated protected list in `src/data/supply/protected.toml`, never with every
//! package of a registry, and only within its own registry.

use crate::finding::{Confidence, Severity};
use crate::rules::ids;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protected {
    pub name: String,
    /// npm: weekly downloads from the package list.
    #[serde(default)]
    pub weekly: Option<u64>,
    /// PyPI: rank among the 15,000 most downloaded projects.
    #[serde(default)]
    pub rank: Option<u64>,
}

impl Protected {
    /// Popular enough that a near miss is worth a louder finding.
    pub fn popular(&self) -> bool {
        self.weekly.is_some_and(|w| w >= 50_000) || self.rank.is_some_and(|r| r <= 5_000)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub name: String,
    pub target: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    pub scope: String,
    pub fake: Vec<String>,
    pub fake_prefix: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combo {
    pub suffixes: Vec<String>,
    pub generic: Vec<String>,
}

/// The protected list and its tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    pub npm: Vec<Protected>,
    pub pypi: Vec<Protected>,
    pub squat: Vec<Pair>,
    pub official_scope: Scope,
    pub shadow: Vec<Pair>,
    pub combosquat: Combo,
}

/// The compiled-in protected list (checked by a unit test).
pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        crate::data::parse(crate::data::json!("supply/protected"), "supply/protected")
    })
}

/// Registry-specific spelling: PyPI names compare after PEP 503 normalisation.
pub fn normalize(registry: &str, name: &str) -> String {
    let lower = name.trim().to_lowercase();
    if registry != "pypi" {
        return lower;
    }
    let mut out = String::with_capacity(lower.len());
    for c in lower.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The protected packages of one registry.
pub fn protected(registry: &str) -> &'static [Protected] {
    match registry {
        "npm" => &data().npm,
        "pypi" => &data().pypi,
        _ => &[],
    }
}

/// A protected name with what every check derives from it, computed once
/// (not once per scanned server: a 1,000-server config compares every name).
pub struct Prepared {
    pub entry: &'static Protected,
    /// [`normalize`]d.
    pub norm: String,
    /// Confusable skeleton of the name.
    pub skeleton: String,
}

impl Prepared {
    /// The normalised name split into scope and bare name.
    fn split(&self) -> (Option<&str>, &str) {
        split_scope(&self.norm)
    }
}

/// The protected names of a registry, prepared.
fn prepared(registry: &str) -> &'static [Prepared] {
    static NPM: OnceLock<Vec<Prepared>> = OnceLock::new();
    static PYPI: OnceLock<Vec<Prepared>> = OnceLock::new();
    let cell = match registry {
        "npm" => &NPM,
        "pypi" => &PYPI,
        _ => return &[],
    };
    cell.get_or_init(|| {
        protected(registry)
            .iter()
            .map(|p| Prepared {
                entry: p,
                norm: normalize(registry, &p.name),
                skeleton: crate::confusables::skeleton(&p.name),
            })
            .collect()
    })
}

/// Is `name` itself protected in `registry`?
pub fn is_protected(registry: &str, name: &str) -> bool {
    let n = normalize(registry, name);
    prepared(registry).iter().any(|p| p.norm == n)
}

fn split_scope(name: &str) -> (Option<&str>, &str) {
    match name.strip_prefix('@').and_then(|r| r.split_once('/')) {
        Some((scope, bare)) => (Some(&name[..scope.len() + 1]), bare),
        None => (None, name),
    }
}

/// A bare name worth comparing with unscoped names: at least 5 characters and
/// not made only of generic words (`mcp-server` is nobody's brand).
fn distinctive(bare: &str) -> bool {
    let generic = &data().combosquat.generic;
    bare.chars().count() >= 5
        && !bare
            .split(['-', '_', '.'])
            .all(|w| w.is_empty() || generic.iter().any(|g| g == w))
}

/// One name check that fired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameHit {
    pub rule: &'static str,
    /// The protected package the name imitates.
    pub target: String,
    pub severity: Severity,
    pub confidence: Confidence,
    /// Why, in words (e.g. "one transposed pair of keys").
    pub detail: String,
    /// Edit distance, for SUP-005.
    pub distance: Option<usize>,
}

fn hit(
    rule: &'static str,
    target: &str,
    severity: Severity,
    confidence: Confidence,
    detail: String,
) -> NameHit {
    NameHit {
        rule,
        target: target.to_string(),
        severity,
        confidence,
        detail,
        distance: None,
    }
}

/// Facts from the registry that gate the near-miss check.
#[derive(Debug, Clone, Copy, Default)]
pub struct Downloads {
    /// The candidate's weekly downloads, when the registry gives them.
    pub candidate_weekly: Option<u64>,
}

/// Run the name checks in the anchor's order; the first table hit stops the
/// rest. `None` for a protected name, an unknown registry, or a clean name.
pub fn check_name(registry: &str, name: &str, dl: Downloads) -> Option<NameHit> {
    if !matches!(registry, "npm" | "pypi") || name.is_empty() || is_protected(registry, name) {
        return None;
    }
    let d = data();
    let lower = normalize(registry, name);
    // SUP-001: the known-squats table.
    if registry == "npm"
        && let Some(s) = d.squat.iter().find(|s| s.name == lower)
    {
        return Some(hit(
            ids::MTC_SUP_001,
            &s.target,
            Severity::High,
            Confidence::Strong,
            "listed in the known-squats table".into(),
        ));
    }
    let (scope, bare) = split_scope(&lower);
    if registry == "npm" {
        // SUP-002: a look-alike of the official scope.
        if let Some(sc) = scope {
            let official = &d.official_scope.scope;
            if sc != official
                && (d.official_scope.fake.iter().any(|f| f == sc)
                    || d.official_scope
                        .fake_prefix
                        .iter()
                        .any(|p| sc.starts_with(p.as_str())))
            {
                return Some(hit(
                    ids::MTC_SUP_002,
                    official,
                    Severity::High,
                    Confidence::Strong,
                    format!("scope `{sc}` imitates the official `{official}` scope"),
                ));
            }
        }
        // SUP-003: an unscoped shadow of an official scoped package.
        if let Some(s) = d.shadow.iter().find(|s| s.name == lower) {
            return Some(hit(
                ids::MTC_SUP_003,
                &s.target,
                Severity::High,
                Confidence::Strong,
                "unscoped copy of an official scoped package name".into(),
            ));
        }
    }
    // SUP-004: same confusable skeleton as a protected name.
    let sk = crate::confusables::skeleton(name.trim());
    for p in prepared(registry) {
        if p.skeleton == sk {
            return Some(hit(
                ids::MTC_SUP_004,
                &p.entry.name,
                Severity::High,
                Confidence::Strong,
                "renders like the protected name (same confusable skeleton)".into(),
            ));
        }
    }
    if registry == "npm" {
        // SUP-002, generalised: a scope within two typos of the official one,
        // or one that embeds it.
        if let Some(sc) = scope {
            let official = d.official_scope.scope.as_str();
            let squash = |s: &str| {
                s.chars()
                    .filter(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
            };
            let (a, b) = (squash(sc), squash(official));
            if sc != official && (a == b || (a.contains(&b) && a.len() > b.len())) {
                return Some(hit(
                    ids::MTC_SUP_002,
                    official,
                    Severity::High,
                    Confidence::Strong,
                    format!("scope `{sc}` embeds the official `{official}` scope"),
                ));
            }
            if sc != official && strsim::osa_distance(&a, &b) <= 2 {
                return Some(hit(
                    ids::MTC_SUP_002,
                    official,
                    Severity::Medium,
                    Confidence::Strong,
                    format!("scope `{sc}` is within two typos of the official `{official}` scope"),
                ));
            }
        }
    }
    // SUP-005: a near miss of a protected name, only if it is a plausible typo.
    if let Some(h) = near_miss(registry, &lower, dl) {
        return Some(h);
    }
    // SUP-006: a protected name with a combosquat suffix.
    if scope.is_none() {
        let mut base = bare.to_string();
        for suf in &d.combosquat.suffixes {
            if let Some(s) = base.strip_suffix(suf.as_str()) {
                base = s.to_string();
            }
        }
        if base != bare && base.chars().count() >= 5 && !d.combosquat.generic.contains(&base) {
            for p in prepared(registry) {
                let (_, pbare) = p.split();
                if pbare == base && distinctive(pbare) {
                    return Some(hit(
                        ids::MTC_SUP_006,
                        &p.entry.name,
                        Severity::Medium,
                        Confidence::Heuristic,
                        format!("`{bare}` is `{base}` plus a combosquat suffix"),
                    ));
                }
            }
        }
    }
    None
}

/// Damerau–Levenshtein (OSA) 1–2 to a protected name, gated by keyboard
/// plausibility, and by downloads when the registry gave them.
fn near_miss(registry: &str, lower: &str, dl: Downloads) -> Option<NameHit> {
    let (scope, bare) = split_scope(lower);
    let mut best: Option<(usize, &Protected)> = None;
    for prep in prepared(registry) {
        let (p, pn) = (prep.entry, &prep.norm);
        let (pscope, pbare) = prep.split();
        // What is compared: bare names in the same scope, the whole names
        // across scopes, an unscoped name with a distinctive protected bare name.
        let (a, b): (&str, &str) = match (scope, pscope) {
            (Some(s), Some(ps)) if s == ps => (bare, pbare),
            (Some(_), Some(_)) => (lower, pn),
            (None, _) if distinctive(pbare) => (bare, pbare),
            _ => continue,
        };
        let (la, lb) = (a.chars().count(), b.chars().count());
        // The distance is at least the difference in length: most protected
        // names are ruled out here, before the edit-distance table is built.
        if lb < 5 || a == b || la.abs_diff(lb) > 2 {
            continue;
        }
        // The allowed distance scales with the distinctive part of the name:
        // `mcp-server-git` has only `git` of its own, so `mcp-server-gin` is a
        // neighbour, not a typo; one edit needs 4 distinctive characters, two need 8.
        let core = core_len(b);
        let max_d = if core >= 8 {
            2
        } else if core >= 4 {
            1
        } else {
            0
        };
        if la.abs_diff(lb) > max_d {
            continue;
        }
        let d = strsim::osa_distance(a, b);
        if d == 0 || d > max_d || !plausible_typo(a, b, d) {
            continue;
        }
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, p));
        }
    }
    let (d, p) = best?;
    let target_weekly = p.weekly;
    let (mut sev, mut conf) = if d == 1 {
        (Severity::Medium, Confidence::Strong)
    } else {
        (Severity::Medium, Confidence::Heuristic)
    };
    let mut detail = format!("{d} keyboard-plausible edit(s) from the protected name");
    if let Some(cw) = dl.candidate_weekly {
        // The registry's download counts decide between a squat and an
        // established neighbour: never a silent pass, but a quiet one.
        let established = cw >= 1_000 && target_weekly.is_none_or(|tw| cw.saturating_mul(20) >= tw);
        if established {
            sev = Severity::Low;
            conf = Confidence::Heuristic;
            detail.push_str(&format!(
                "; but the name has {cw} weekly downloads of its own"
            ));
        } else if target_weekly.is_some_and(|tw| tw >= 50_000 && cw.saturating_mul(100) < tw) {
            if d == 1 {
                sev = Severity::High;
            }
            conf = Confidence::Strong;
            detail.push_str(&format!(
                "; {cw} weekly downloads against the target's {}",
                target_weekly.unwrap_or(0)
            ));
        }
    }
    Some(NameHit {
        rule: ids::MTC_SUP_005,
        target: p.name.clone(),
        severity: sev,
        confidence: conf,
        detail,
        distance: Some(d),
    })
}

/// Characters of a name outside its generic words (`mcp`, `server`, …) and separators.
fn core_len(name: &str) -> usize {
    let generic = &data().combosquat.generic;
    name.split(['-', '_', '.', '/', '@'])
        .filter(|w| !generic.iter().any(|g| g == w))
        .map(|w| w.chars().count())
        .sum()
}

/// QWERTY rows, for adjacency.
const ROWS: [&str; 4] = ["1234567890-=", "qwertyuiop[]", "asdfghjkl;'", "zxcvbnm,./"];

fn key_pos(c: char) -> Option<(usize, usize)> {
    let c = match c {
        '_' => '-',
        c => c,
    };
    ROWS.iter()
        .enumerate()
        .find_map(|(r, row)| row.find(c).map(|i| (r, i)))
}

/// Neighbouring keys on a QWERTY keyboard (rows are staggered right).
pub fn adjacent(a: char, b: char) -> bool {
    let (Some((ra, ia)), Some((rb, ib))) = (key_pos(a), key_pos(b)) else {
        return false;
    };
    match ra.abs_diff(rb) {
        0 => ia.abs_diff(ib) == 1,
        1 => {
            let (upper_i, lower_i) = if ra < rb { (ia, ib) } else { (ib, ia) };
            lower_i == upper_i || lower_i + 1 == upper_i
        }
        _ => false,
    }
}

/// Characters people confuse when reading or typing a name.
fn look_alike(a: char, b: char) -> bool {
    const GROUPS: [&str; 3] = ["l1i", "o0", "-_."];
    GROUPS.iter().any(|g| g.contains(a) && g.contains(b))
}

/// True when an optimal OSA alignment of `typed` onto `intended` uses only
/// typo-like edits: a neighbouring or look-alike key, a transposed pair, a
/// dropped character, or a doubled/neighbouring extra character.
pub fn plausible_typo(typed: &str, intended: &str, distance: usize) -> bool {
    const BAD: usize = 100;
    let a: Vec<char> = typed.chars().collect();
    let b: Vec<char> = intended.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut dp = vec![vec![0usize; m + 1]; n + 1];
    let extra_cost = |i: usize| -> usize {
        // a[i] is an extra character: a doubled keystroke, or a neighbour of
        // the key before or after it (two extra `ee` are not one typo each).
        let c = a[i];
        let prev = i.checked_sub(1).map(|j| a[j]);
        let next = a.get(i + 1).copied();
        if prev.is_some_and(|x| x == c || adjacent(x, c)) || next.is_some_and(|x| adjacent(x, c)) {
            1
        } else {
            BAD
        }
    };
    for i in 1..=n {
        let above = dp[i - 1][0];
        dp[i][0] = above + extra_cost(i - 1);
    }
    for (j, cell) in dp[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let sub = if a[i - 1] == b[j - 1] {
                0
            } else if adjacent(a[i - 1], b[j - 1]) || look_alike(a[i - 1], b[j - 1]) {
                1
            } else {
                BAD
            };
            let mut v = (dp[i - 1][j - 1] + sub)
                .min(dp[i - 1][j] + extra_cost(i - 1))
                .min(dp[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(dp[i - 2][j - 2] + 1);
            }
            dp[i][j] = v;
        }
    }
    dp[n][m] == distance
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(registry: &str, name: &str) -> Option<&'static str> {
        check_name(registry, name, Downloads::default()).map(|h| h.rule)
    }

    #[test]
    fn data_parses() {
        let d = data();
        assert!(d.npm.len() >= 40 && d.pypi.len() >= 10);
        for s in d.squat.iter().chain(d.shadow.iter()) {
            assert!(
                is_protected("npm", &s.target),
                "{} targets an unprotected name",
                s.name
            );
        }
    }

    #[test]
    fn the_issue_names_hit_the_right_rule() {
        assert_eq!(
            rule("npm", "@modelcontextprotocol/server-filesytem"),
            Some(crate::rules::ids::MTC_SUP_005)
        );
        assert_eq!(
            rule("npm", "@modelcontextprotocoI/server-github"),
            Some(crate::rules::ids::MTC_SUP_004)
        );
        assert_eq!(
            rule("npm", "@modelcontextprotocol-server/github"),
            Some(crate::rules::ids::MTC_SUP_002)
        );
        assert_eq!(
            rule("npm", "server-filesystem-mcp"),
            Some(crate::rules::ids::MTC_SUP_006)
        );
        assert_eq!(
            rule("npm", "playwright-mcp"),
            Some(crate::rules::ids::MTC_SUP_001)
        );
        assert_eq!(
            rule("npm", "server-github"),
            Some(crate::rules::ids::MTC_SUP_003)
        );
        assert_eq!(
            rule("npm", "@modlecontextprotocol/sdk"),
            Some(crate::rules::ids::MTC_SUP_002)
        );
        assert_eq!(
            rule("pypi", "mcp_server_fecth"),
            Some(crate::rules::ids::MTC_SUP_005)
        );
    }

    #[test]
    fn protected_and_unrelated_names_are_clean() {
        for n in [
            "@modelcontextprotocol/server-filesystem",
            "mcp-remote",
            "@playwright/mcp",
            "left-pad",
            "@acme/mcp-server",
            "mcp-servers",
            "my-mcp",
        ] {
            assert_eq!(rule("npm", n), None, "{n}");
        }
        assert_eq!(
            rule("pypi", "MCP_Server_Git"),
            None,
            "PEP 503 spelling of a protected name"
        );
        assert_eq!(
            rule("pypi", "mcp-server-gitee"),
            None,
            "two extra letters that are not typos"
        );
        assert_eq!(
            rule("pypi", "mcp-server-gin"),
            None,
            "`git` is too short a core for a near miss"
        );
        assert_eq!(rule("pypi", "mcp-sd"), None);
        assert_eq!(rule("oci", "mcp-remote"), None);
    }

    #[test]
    fn keyboard_gate() {
        assert!(
            adjacent('q', 'w') && adjacent('e', 'd') && adjacent('-', '0') && !adjacent('q', 'p')
        );
        assert!(plausible_typo("filesytem", "filesystem", 1));
        assert!(plausible_typo("filesysetm", "filesystem", 1));
        assert!(plausible_typo("filessystem", "filesystem", 1));
        assert!(
            !plausible_typo("filesyptem", "filesystem", 1),
            "p is far from s"
        );
        assert!(
            !plausible_typo("filesystemz", "filesystem", 1),
            "z is far from m"
        );
    }

    #[test]
    fn downloads_gate_the_near_miss() {
        let quiet = check_name(
            "npm",
            "mcp-remotr",
            Downloads {
                candidate_weekly: Some(3),
            },
        )
        .unwrap();
        assert_eq!(
            (quiet.rule, quiet.severity),
            (crate::rules::ids::MTC_SUP_005, Severity::High)
        );
        let busy = check_name(
            "npm",
            "mcp-remotr",
            Downloads {
                candidate_weekly: Some(90_000),
            },
        )
        .unwrap();
        assert_eq!(busy.severity, Severity::Low);
        let offline = check_name("npm", "mcp-remotr", Downloads::default()).unwrap();
        assert_eq!(
            offline.severity,
            Severity::Medium,
            "edit distance alone is never more than medium"
        );
    }
}
