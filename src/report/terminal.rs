//! The human report: grouped by server, then severity. Colour only on a TTY
//! (and never with `NO_COLOR`); scanned text is always passed through
//! [`crate::text::visible`] first, so it can never emit a control character.

use crate::finding::{Finding, Severity};
use crate::model::{ScanResult, Verdict};
use crate::score::Grade;
use crate::text::visible;
use std::fmt::Write;

pub struct Style {
    pub color: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn sev(&self, s: Severity) -> String {
        let code = match s {
            Severity::Critical => "1;31",
            Severity::High => "31",
            Severity::Medium => "33",
            Severity::Low => "36",
            Severity::Info => "2",
        };
        self.paint(code, &format!("{:<8}", s.as_str()))
    }
    fn grade(&self, g: Grade) -> String {
        let code = match g {
            Grade::A => "1;32",
            Grade::B => "32",
            Grade::C => "33",
            Grade::D => "1;33",
            Grade::F => "1;31",
        };
        self.paint(code, g.as_str())
    }
}

fn finding_lines(out: &mut String, f: &Finding, st: &Style) {
    let loc = format!(
        "{}:{}:{}",
        visible(&f.location.path),
        f.location.line,
        f.location.column
    );
    let _ = writeln!(
        out,
        "    {} {} [{}] {}",
        st.sev(f.severity),
        st.paint("1", &f.rule_id),
        f.confidence,
        visible(&f.message)
    );
    let _ = writeln!(out, "             at {loc}");
    if !f.evidence.is_empty() {
        let _ = writeln!(out, "             evidence: {}", visible(&f.evidence));
    }
    if let Some(s) = &f.suppressed {
        let _ = writeln!(
            out,
            "             suppressed until {} by {}: {}",
            visible(&s.expires),
            visible(&s.owner),
            visible(&s.reason)
        );
    }
}

/// Render the terminal report.
pub fn render(r: &ScanResult, v: &Verdict, st: &Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} — methodology {}",
        st.paint("1", "MCP Trust Checker"),
        crate::VERSION,
        crate::METHODOLOGY
    );
    if r.servers.is_empty() {
        let _ = writeln!(out, "\nNo MCP servers found.");
    }
    for s in &r.servers {
        let sc = &s.score;
        let _ = writeln!(
            out,
            "\n{} {}  grade {} ({}/100)  coverage {}{}",
            st.paint("1", "●"),
            st.paint("1", &visible(&s.surface.id)),
            st.grade(sc.grade),
            sc.value,
            s.surface.coverage.as_str(),
            if s.surface.disabled {
                "  (disabled)"
            } else {
                ""
            }
        );
        let t = &s.surface.transport;
        // A catalog read from a file has no launch line to show.
        let launch = match t {
            crate::surface::Transport::Stdio { command, args, .. } => Some(format!(
                "{} {}",
                crate::text::redact_command(command),
                crate::text::redact_args(args).join(" ")
            )),
            crate::surface::Transport::Remote { url, .. } => Some(crate::text::redact_url(url)),
            crate::surface::Transport::Unknown => None,
        }
        .map_or_else(
            || "catalog only".to_string(),
            |l| {
                format!(
                    "{} {}",
                    t.kind_str(),
                    visible(&crate::text::truncate_chars(&l, 120))
                )
            },
        );
        let _ = writeln!(
            out,
            "  {launch} · {} tools, {} prompts, {} resources",
            s.surface.tools.len(),
            s.surface.prompts.len(),
            s.surface.resources.len()
        );
        if sc.gate != "none" {
            let _ = writeln!(out, "  gate: {}", sc.gate);
        }
        if let Some(pv) = &s.policy {
            let _ = writeln!(out, "  policy: {}", policy_line(pv, st));
        }
        for note in &s.surface.notes {
            let _ = writeln!(out, "  note: {}", visible(note));
        }
        for sev in Severity::ALL {
            for f in s.findings.iter().filter(|f| f.severity == sev) {
                finding_lines(&mut out, f, st);
            }
        }
    }
    for sess in &r.sessions {
        if sess.servers.len() < 2 && sess.findings.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "\n{} session {}  grade {} ({}/100)  {} server(s)",
            st.paint("1", "◆"),
            visible(&sess.id),
            st.grade(sess.score.grade),
            sess.score.value,
            sess.servers.len()
        );
        for f in &sess.findings {
            finding_lines(&mut out, f, st);
        }
    }
    if let Some(p) = &r.policy {
        let _ = writeln!(
            out,
            "\n{} {} (gate fails at {})",
            st.paint("1", "■ policy"),
            visible(&p.path),
            p.fail_on
        );
        for f in &p.findings {
            finding_lines(&mut out, f, st);
        }
    }
    if !r.errors.is_empty() {
        let _ = writeln!(out, "\n{}", st.paint("1;31", "Input errors"));
        for e in &r.errors {
            let _ = writeln!(out, "  {}", visible(&e.to_string()));
        }
    }
    let _ = writeln!(out);
    match (v.failed, v.worst_grade) {
        (true, _) => {
            let _ = writeln!(
                out,
                "{} {}",
                st.paint("1;31", "GATE FAILED:"),
                v.reasons.join("; ")
            );
        }
        (false, Some(g)) => {
            let _ = writeln!(
                out,
                "{} worst grade {}",
                st.paint("1;32", "gate passed:"),
                st.grade(g)
            );
        }
        (false, None) => {
            let _ = writeln!(out, "gate passed: nothing to grade");
        }
    }
    // A file name, id or tool name could hold `##[…]` or start a line with `::`.
    crate::text::log_text(&out).into_owned()
}

/// `pass (owner X, review until D)`, `FAIL: reasons`, or `exception (owner, until D): reasons`.
fn policy_line(v: &crate::model::PolicyVerdict, st: &Style) -> String {
    use crate::model::Decision;
    let owner = match (&v.owner, &v.review_expires) {
        (Some(o), Some(d)) => format!(" (owner {}, review until {})", visible(o), visible(d)),
        _ => String::new(),
    };
    let reasons = v
        .reasons
        .iter()
        .map(|r| visible(r))
        .collect::<Vec<_>>()
        .join("; ");
    match (v.decision, &v.exception) {
        (Decision::Fail, _) => format!("{}{owner}: {reasons}", st.paint("1;31", "FAIL")),
        (Decision::Exception, Some(x)) => format!(
            "{} (owner {}, until {}; {}){owner}: {reasons}",
            st.paint("1;33", "exception"),
            visible(&x.owner),
            visible(&x.expires),
            visible(&x.rules.join(", "))
        ),
        _ => format!("{}{owner}", st.paint("1;32", "pass")),
    }
}
