//! Scoring exactly as `docs/spec/scoring.md`: integer milli-points, diminishing
//! returns per rule, category caps, bands, then weakest-link gates.
//! Every constant of the methodology appears here once.

use crate::finding::{Category, Confidence, Finding, Severity};
use serde::Serialize;
use std::collections::BTreeMap;

/// Severity weight in whole points.
pub fn weight(s: Severity) -> i64 {
    match s {
        Severity::Critical => 45,
        Severity::High => 22,
        Severity::Medium => 9,
        Severity::Low => 3,
        Severity::Info => 0,
    }
}

/// Confidence multiplier in thousandths.
pub fn multiplier(c: Confidence) -> i64 {
    match c {
        Confidence::Confirmed => 1000,
        Confidence::Strong => 700,
        Confidence::Heuristic => 400,
        Confidence::Speculative => 200,
    }
}

/// Diminishing factor in thousandths for the n-th (0-based) finding of one rule:
/// each finding counts half the one before, and nothing from the 11th on, so one
/// rule never costs more than twice its first finding (80 unconstrained `path`
/// parameters are one concern, not eighty).
pub fn diminishing(n: usize) -> i64 {
    if n < 10 { 1000 >> n } else { 0 }
}

/// What heuristic and speculative findings, all categories together, may subtract
/// at most, in whole points: heuristics alone move a server to B, never further.
pub const HEURISTIC_CAP: i64 = 15;

/// Findings whose confidence is too weak to fail anything on their own.
fn is_heuristic(c: Confidence) -> bool {
    matches!(c, Confidence::Heuristic | Confidence::Speculative)
}

/// Category cap in whole points.
pub fn cap(c: Category) -> i64 {
    match c {
        Category::Injection => 50,
        Category::Exfiltration => 50,
        Category::Permissions => 35,
        Category::SupplyChain => 30,
        Category::Network => 25,
        Category::Hygiene => 10,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Grade {
    A,
    B,
    C,
    D,
    F,
}

impl Grade {
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
            Grade::D => "D",
            Grade::F => "F",
        }
    }
    pub fn parse(s: &str) -> Option<Grade> {
        match s.trim().to_ascii_uppercase().as_str() {
            "A" => Some(Grade::A),
            "B" => Some(Grade::B),
            "C" => Some(Grade::C),
            "D" => Some(Grade::D),
            "F" => Some(Grade::F),
            _ => None,
        }
    }
    /// The grade the score's number alone earns.
    pub fn band(score: i64) -> Grade {
        match score {
            90.. => Grade::A,
            80..=89 => Grade::B,
            70..=79 => Grade::C,
            60..=69 => Grade::D,
            _ => Grade::F,
        }
    }
}

/// The gate's grade threshold: a server or session graded at or below it
/// fails; `Never` (`fail-on: none`) reports grades without failing on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    At(Grade),
    Never,
}

impl FailOn {
    /// `A`–`F`, or `none`.
    pub fn parse(s: &str) -> Option<FailOn> {
        if s.trim().eq_ignore_ascii_case("none") {
            return Some(FailOn::Never);
        }
        Grade::parse(s).map(FailOn::At)
    }
    /// Whether a surface with this grade fails the gate.
    pub fn fails(self, g: Grade) -> bool {
        matches!(self, FailOn::At(t) if g >= t)
    }
    /// The stricter of this threshold and a policy's grade (a policy may
    /// tighten the gate, never loosen it).
    pub fn tightened(self, policy: Option<Grade>) -> FailOn {
        match (self, policy) {
            (FailOn::At(t), Some(p)) => FailOn::At(t.min(p)),
            (FailOn::Never, Some(p)) => FailOn::At(p),
            (t, None) => t,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::At(g) => g.as_str(),
            FailOn::Never => "none",
        }
    }
}

impl std::fmt::Display for FailOn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for FailOn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Grade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One line of the penalty vector: how one finding moved the score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PenaltyLine {
    pub rule_id: String,
    pub category: Category,
    pub severity: Severity,
    pub confidence: Confidence,
    /// Severity weight in points.
    pub weight: i64,
    /// Confidence multiplier in thousandths.
    pub multiplier: i64,
    /// Diminishing factor in thousandths.
    pub diminishing: i64,
    /// weight × multiplier × diminishing, in milli-points, before the category cap.
    pub milli_points: i64,
}

/// Per-category subtotal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CategoryTotal {
    /// Sum of the category's penalty lines, milli-points.
    pub raw_milli: i64,
    /// What the category subtracts after its cap, milli-points (before the
    /// heuristic cap, which is applied across categories).
    pub applied_milli: i64,
    /// The cap in milli-points.
    pub cap_milli: i64,
    /// The part of `applied_milli` owed to heuristic or speculative findings
    /// (confirmed and strong findings fill the cap first).
    pub heuristic_milli: i64,
}

/// The cross-category bound on heuristic and speculative findings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeuristicTotal {
    /// Sum of the categories' `heuristic_milli`.
    pub raw_milli: i64,
    /// What heuristics subtract in all: `min(raw_milli, cap_milli)`.
    pub applied_milli: i64,
    pub cap_milli: i64,
}

/// A score with everything needed to reproduce it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Score {
    /// 0..=100.
    pub value: i64,
    pub grade: Grade,
    /// The grade the number alone earns.
    pub band: Grade,
    /// The weakest-link gate that capped the grade, in words (`none` when the band stands).
    pub gate: String,
    pub categories: BTreeMap<Category, CategoryTotal>,
    /// Heuristic and speculative findings together: `score = 100 − Σ applied −
    /// (heuristics.raw − heuristics.applied)`.
    pub heuristics: HeuristicTotal,
    pub vector: Vec<PenaltyLine>,
}

/// Score a set of findings (one server, or one session's union). Suppressed
/// findings do not count; `findings` may be in any order.
pub fn score<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Score {
    let mut counted: Vec<&Finding> = findings
        .into_iter()
        .filter(|f| f.suppressed.is_none())
        .collect();
    // Stable order: rule id, then severity (most severe first), then location.
    counted.sort_by(|a, b| {
        a.rule_id
            .cmp(&b.rule_id)
            .then_with(|| a.sort_key().cmp(&b.sort_key()))
    });

    let mut vector = Vec::with_capacity(counted.len());
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    // (confirmed + strong, heuristic + speculative) milli-points per category.
    let mut raw: BTreeMap<Category, (i64, i64)> = BTreeMap::new();
    for f in &counted {
        let n = per_rule.entry(f.rule_id.as_str()).or_insert(0);
        let (w, m, d) = (
            weight(f.severity),
            multiplier(f.confidence),
            diminishing(*n),
        );
        *n += 1;
        // points × (m/1000) × (d/1000) × 1000 milli-points per point: exact in integers.
        let milli = w * m * d / 1000;
        let e = raw.entry(f.category).or_insert((0, 0));
        if is_heuristic(f.confidence) {
            e.1 += milli;
        } else {
            e.0 += milli;
        }
        vector.push(PenaltyLine {
            rule_id: f.rule_id.clone(),
            category: f.category,
            severity: f.severity,
            confidence: f.confidence,
            weight: w,
            multiplier: m,
            diminishing: d,
            milli_points: milli,
        });
    }

    let mut categories = BTreeMap::new();
    let (mut firm_total, mut heuristic_raw) = (0i64, 0i64);
    for cat in Category::ALL {
        let (firm, heur) = raw.get(&cat).copied().unwrap_or((0, 0));
        let cap_milli = cap(cat) * 1000;
        let firm_applied = firm.min(cap_milli);
        let heuristic_milli = heur.min(cap_milli - firm_applied);
        firm_total += firm_applied;
        heuristic_raw += heuristic_milli;
        categories.insert(
            cat,
            CategoryTotal {
                raw_milli: firm + heur,
                applied_milli: firm_applied + heuristic_milli,
                cap_milli,
                heuristic_milli,
            },
        );
    }
    let heuristics = HeuristicTotal {
        raw_milli: heuristic_raw,
        applied_milli: heuristic_raw.min(HEURISTIC_CAP * 1000),
        cap_milli: HEURISTIC_CAP * 1000,
    };
    let total = firm_total + heuristics.applied_milli;
    let value = round_half_up_milli(100_000 - total).clamp(0, 100);
    let band = Grade::band(value);
    let (gate_grade, gate) = gate(&counted);
    let mut grade = band.max(gate_grade);
    let mut gate = if gate_grade > band {
        gate
    } else {
        "none".to_string()
    };
    // F means "we can show the attack": without a confirmed critical, a band F is a D.
    if grade == Grade::F && gate_grade < Grade::F {
        grade = Grade::D;
        gate = "many findings, none confirmed critical: band F reported as D".to_string();
    }
    Score {
        value,
        grade,
        band,
        gate,
        categories,
        heuristics,
        vector,
    }
}

/// Round milli-points to whole points, halves away from zero for positives
/// (`x.5` → `x+1`); negatives are clamped by the caller.
fn round_half_up_milli(milli: i64) -> i64 {
    if milli >= 0 {
        (milli + 500) / 1000
    } else {
        -((-milli + 499) / 1000)
    }
}

/// The weakest-link gates: the worst grade the findings allow, and why.
fn gate(findings: &[&Finding]) -> (Grade, String) {
    let confirmed_critical = findings
        .iter()
        .filter(|f| f.severity == Severity::Critical && f.confidence == Confidence::Confirmed)
        .count();
    let any_critical = findings
        .iter()
        .filter(|f| f.severity == Severity::Critical)
        .count();
    let confirmed_high = findings
        .iter()
        .filter(|f| f.severity == Severity::High && f.confidence == Confidence::Confirmed)
        .count();
    if confirmed_critical > 0 {
        (
            Grade::F,
            format!("{confirmed_critical} confirmed critical finding(s) force F"),
        )
    } else if any_critical > 0 {
        (
            Grade::D,
            format!("{any_critical} critical finding(s) cap the grade at D"),
        )
    } else if confirmed_high >= 2 {
        (
            Grade::D,
            format!("{confirmed_high} confirmed high findings cap the grade at D"),
        )
    } else if confirmed_high == 1 {
        (
            Grade::C,
            "one confirmed high finding caps the grade at C".to_string(),
        )
    } else {
        (Grade::A, "none".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::Location;

    fn f(rule: &str, sev: Severity, conf: Confidence, cat: Category) -> Finding {
        let mut x = Finding::new(
            crate::rules::ids::MTC_META_001,
            "m",
            Location::new("a.json", 1, 1),
        );
        x.rule_id = rule.into();
        x.severity = sev;
        x.confidence = conf;
        x.category = cat;
        x
    }

    #[test]
    fn clean_is_a_hundred() {
        let s = score(&[]);
        assert_eq!((s.value, s.grade, s.gate.as_str()), (100, Grade::A, "none"));
    }

    #[test]
    fn bands() {
        assert_eq!(Grade::band(90), Grade::A);
        assert_eq!(Grade::band(89), Grade::B);
        assert_eq!(Grade::band(80), Grade::B);
        assert_eq!(Grade::band(79), Grade::C);
        assert_eq!(Grade::band(70), Grade::C);
        assert_eq!(Grade::band(60), Grade::D);
        assert_eq!(Grade::band(59), Grade::F);
        assert_eq!(Grade::band(0), Grade::F);
    }

    #[test]
    fn confirmed_critical_forces_f() {
        let s = score(&[f(
            "X-1",
            Severity::Critical,
            Confidence::Confirmed,
            Category::Injection,
        )]);
        assert_eq!(s.value, 55);
        assert_eq!(s.grade, Grade::F);
        assert_eq!(s.band, Grade::F);
    }

    #[test]
    fn critical_not_confirmed_caps_at_d() {
        // 45 × 0.4 = 18, heuristics bounded at 15 → 85 (band B), gate D.
        let s = score(&[f(
            "X-1",
            Severity::Critical,
            Confidence::Heuristic,
            Category::Injection,
        )]);
        assert_eq!((s.value, s.band, s.grade), (85, Grade::B, Grade::D));
        assert!(s.gate.contains("at D"));
        // strong: 45 × 0.7 = 31.5 → 68.5 → rounds half up to 69 → D by band too.
        let s = score(&[f(
            "X-1",
            Severity::Critical,
            Confidence::Strong,
            Category::Exfiltration,
        )]);
        assert_eq!((s.value, s.grade), (69, Grade::D));
    }

    #[test]
    fn confirmed_high_gates() {
        let one = score(&[f(
            "X-1",
            Severity::High,
            Confidence::Confirmed,
            Category::SupplyChain,
        )]);
        assert_eq!((one.value, one.band, one.grade), (78, Grade::C, Grade::C));
        let low_one = score(&[f(
            "X-1",
            Severity::High,
            Confidence::Confirmed,
            Category::Hygiene,
        )]);
        // Hygiene cap 10 → 90 → band A, gate C.
        assert_eq!(
            (low_one.value, low_one.band, low_one.grade),
            (90, Grade::A, Grade::C)
        );
        let two = score(&[
            f(
                "X-1",
                Severity::High,
                Confidence::Confirmed,
                Category::Hygiene,
            ),
            f(
                "X-2",
                Severity::High,
                Confidence::Confirmed,
                Category::Hygiene,
            ),
        ]);
        assert_eq!((two.value, two.grade), (90, Grade::D));
    }

    #[test]
    fn heuristics_alone_never_go_below_b() {
        let many: Vec<Finding> = (0..40)
            .map(|i| {
                f(
                    &format!("X-{i}"),
                    Severity::High,
                    Confidence::Heuristic,
                    Category::Injection,
                )
            })
            .collect();
        let s = score(&many);
        // Injection caps the raw 352 points at 50; heuristics together at 15 → 85, B.
        assert_eq!(s.categories[&Category::Injection].applied_milli, 50_000);
        assert_eq!(s.categories[&Category::Injection].heuristic_milli, 50_000);
        assert_eq!(
            (s.heuristics.raw_milli, s.heuristics.applied_milli),
            (50_000, 15_000)
        );
        assert_eq!((s.value, s.grade, s.gate.as_str()), (85, Grade::B, "none"));
    }

    #[test]
    fn firm_findings_fill_the_category_cap_before_heuristics() {
        // Network cap 25: a strong critical (31.5) fills it, so the heuristic adds nothing.
        let s = score(&[
            f(
                "X-1",
                Severity::Critical,
                Confidence::Strong,
                Category::Network,
            ),
            f(
                "X-2",
                Severity::High,
                Confidence::Heuristic,
                Category::Network,
            ),
            // Elsewhere, heuristics count up to the shared 15-point bound.
            f(
                "X-3",
                Severity::High,
                Confidence::Heuristic,
                Category::Hygiene,
            ),
            f(
                "X-4",
                Severity::Critical,
                Confidence::Speculative,
                Category::Injection,
            ),
        ]);
        assert_eq!(s.categories[&Category::Network].applied_milli, 25_000);
        assert_eq!(s.categories[&Category::Network].heuristic_milli, 0);
        // Hygiene 8.8, injection 9 → 17.8 raw, 15 applied; 100 − 25 − 15 = 60.
        assert_eq!(
            (s.heuristics.raw_milli, s.heuristics.applied_milli),
            (17_800, 15_000)
        );
        assert_eq!((s.value, s.grade), (60, Grade::D));
    }

    #[test]
    fn band_f_without_a_confirmed_critical_is_d() {
        let s = score(&[
            f(
                "X-1",
                Severity::Critical,
                Confidence::Strong,
                Category::Exfiltration,
            ),
            f(
                "X-2",
                Severity::Critical,
                Confidence::Strong,
                Category::Injection,
            ),
        ]);
        assert_eq!((s.value, s.band, s.grade), (37, Grade::F, Grade::D));
        assert!(s.gate.contains("none confirmed critical"), "{}", s.gate);
        // With a confirmed critical, F stands.
        let s = score(&[f(
            "X-1",
            Severity::Critical,
            Confidence::Confirmed,
            Category::Exfiltration,
        )]);
        assert_eq!(s.grade, Grade::F);
    }

    #[test]
    fn diminishing_returns_per_rule() {
        let five: Vec<Finding> = (0..5)
            .map(|_| {
                f(
                    "X-1",
                    Severity::Medium,
                    Confidence::Confirmed,
                    Category::Permissions,
                )
            })
            .collect();
        let s = score(&five);
        let d: Vec<i64> = s.vector.iter().map(|l| l.diminishing).collect();
        assert_eq!(d, vec![1000, 500, 250, 125, 62]);
        // 9 × (1 + .5 + .25 + .125 + .062) = 17.433 → 82.567 → 83
        assert_eq!(s.value, 83);
        assert_eq!(s.categories[&Category::Permissions].raw_milli, 17_433);
        // Converges: the 11th finding on counts nothing, so a rule never costs twice its first.
        assert_eq!(diminishing(9), 1);
        assert_eq!(diminishing(10), 0);
        assert_eq!(diminishing(500), 0);
        let total: i64 = (0..1000).map(diminishing).sum();
        assert!(total < 2000, "{total}");
    }

    #[test]
    fn diminishing_counts_most_severe_first() {
        let s = score(&[
            f(
                "X-1",
                Severity::Low,
                Confidence::Confirmed,
                Category::Network,
            ),
            f("X-1", Severity::High, Confidence::Strong, Category::Network),
        ]);
        assert_eq!(s.vector[0].severity, Severity::High);
        assert_eq!(s.vector[0].diminishing, 1000);
        assert_eq!(s.vector[1].diminishing, 500);
    }

    #[test]
    fn category_caps_apply() {
        let many: Vec<Finding> = (0..10)
            .map(|i| {
                f(
                    &format!("X-{i}"),
                    Severity::Medium,
                    Confidence::Confirmed,
                    Category::Hygiene,
                )
            })
            .collect();
        let s = score(&many);
        assert_eq!(s.categories[&Category::Hygiene].raw_milli, 90_000);
        assert_eq!(s.categories[&Category::Hygiene].applied_milli, 10_000);
        assert_eq!(s.value, 90);
    }

    #[test]
    fn clamped_at_zero() {
        let mut all = Vec::new();
        for cat in Category::ALL {
            for i in 0..5 {
                all.push(f(
                    &format!("X-{i}"),
                    Severity::Critical,
                    Confidence::Strong,
                    cat,
                ));
            }
        }
        let s = score(&all);
        assert_eq!(s.value, 0);
        // No confirmed critical: the band F is a D.
        assert_eq!((s.band, s.grade), (Grade::F, Grade::D));
    }

    #[test]
    fn rounding_half_up() {
        assert_eq!(round_half_up_milli(68_500), 69);
        assert_eq!(round_half_up_milli(68_499), 68);
        assert_eq!(round_half_up_milli(0), 0);
        // 3 × 0.7 × 0.25 = 0.525 → 99.475 → 99
        let s = score(&[
            f("X-1", Severity::Low, Confidence::Strong, Category::Network),
            f("X-1", Severity::Low, Confidence::Strong, Category::Network),
            f("X-1", Severity::Low, Confidence::Strong, Category::Network),
        ]);
        // 2.1 + 1.05 + 0.525 = 3.675 → 96.325 → 96
        assert_eq!(s.value, 96);
    }

    #[test]
    fn suppressed_findings_do_not_count() {
        let mut x = f(
            "X-1",
            Severity::Critical,
            Confidence::Confirmed,
            Category::Injection,
        );
        x.suppressed = Some(crate::finding::Suppression {
            reason: "r".into(),
            owner: "o".into(),
            expires: "2099-01-01".into(),
        });
        let s = score(&[x]);
        assert_eq!((s.value, s.grade), (100, Grade::A));
    }

    #[test]
    fn info_weighs_nothing() {
        let s = score(&[f(
            "X-1",
            Severity::Info,
            Confidence::Confirmed,
            Category::Network,
        )]);
        assert_eq!(s.value, 100);
        assert_eq!(s.vector.len(), 1);
    }
}
