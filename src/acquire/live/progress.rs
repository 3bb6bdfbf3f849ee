//! Progress of a live scan on a terminal: one header line (installed, queued,
//! starting, answered, failed, elapsed), one spinner per server in flight, a
//! line per failure as it happens, and a final coverage line. Drawn only when
//! both stdout and stderr are terminals and the caller asked for it (never in
//! `ci`); otherwise every method is a no-op.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Default)]
struct Counts {
    total: usize,
    installing: usize,
    installed: usize,
    install_failed: usize,
    /// Started and not finished.
    in_flight: usize,
    /// Started, no answer to `initialize` yet.
    waiting: usize,
    /// Answered `initialize` (cumulative).
    answered: usize,
    done: usize,
    failed: usize,
}

struct Inner {
    multi: MultiProgress,
    header: ProgressBar,
    counts: Mutex<Counts>,
}

/// The whole scan's display (cheap to clone; `None` inside when not drawn).
#[derive(Clone, Default)]
pub(crate) struct Progress(Option<Arc<Inner>>);

/// One server's line.
#[derive(Clone, Default)]
pub(crate) struct Line {
    progress: Progress,
    bar: Option<ProgressBar>,
    answered: Arc<AtomicBool>,
}

fn lock(c: &Mutex<Counts>) -> std::sync::MutexGuard<'_, Counts> {
    c.lock().unwrap_or_else(|p| p.into_inner())
}

impl Progress {
    /// Drawn only if `wanted` and both standard streams are terminals.
    pub fn new(wanted: bool, total: usize) -> Progress {
        use std::io::IsTerminal;
        if !wanted || !std::io::stderr().is_terminal() || !std::io::stdout().is_terminal() {
            return Progress(None);
        }
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let header = multi.add(ProgressBar::new(total as u64));
        if let Ok(style) =
            ProgressStyle::with_template("live {bar:24} {pos}/{len} servers  {msg}  ({elapsed})")
        {
            header.set_style(style);
        }
        header.enable_steady_tick(Duration::from_millis(200));
        let p = Progress(Some(Arc::new(Inner {
            multi,
            header,
            counts: Mutex::new(Counts {
                total,
                ..Counts::default()
            }),
        })));
        p.refresh();
        p
    }

    fn refresh(&self) {
        let Some(i) = &self.0 else { return };
        let c = lock(&i.counts);
        let queued = c.total.saturating_sub(c.done + c.in_flight);
        let mut parts = Vec::new();
        if c.installing > 0 || c.installed > 0 || c.install_failed > 0 {
            parts.push(format!(
                "installed {}{}{}",
                c.installed,
                if c.installing > 0 {
                    format!(" (+{} installing)", c.installing)
                } else {
                    String::new()
                },
                if c.install_failed > 0 {
                    format!(" ({} install failed)", c.install_failed)
                } else {
                    String::new()
                }
            ));
        }
        parts.push(format!("{queued} queued"));
        parts.push(format!("{} starting", c.waiting));
        parts.push(format!("{} answered", c.answered));
        parts.push(format!("{} failed", c.failed));
        i.header.set_position(c.done as u64);
        i.header.set_message(parts.join(" · "));
    }

    fn spinner(&self, name: &str, msg: &str) -> Option<ProgressBar> {
        let i = self.0.as_ref()?;
        let bar = i.multi.add(ProgressBar::new_spinner());
        if let Ok(style) = ProgressStyle::with_template("  {spinner} {prefix:32!} {msg} {elapsed}")
        {
            bar.set_style(style);
        }
        bar.set_prefix(crate::text::visible(name));
        bar.set_message(msg.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Some(bar)
    }

    /// An install of `name`'s package began.
    pub fn installing(&self, name: &str) -> Option<ProgressBar> {
        let i = self.0.as_ref()?;
        lock(&i.counts).installing += 1;
        self.refresh();
        self.spinner(name, "installing")
    }

    /// That install ended.
    pub fn installed(&self, bar: Option<ProgressBar>, name: &str, failure: Option<&str>) {
        let Some(i) = &self.0 else { return };
        {
            let mut c = lock(&i.counts);
            c.installing = c.installing.saturating_sub(1);
            match failure {
                None => c.installed += 1,
                Some(_) => c.install_failed += 1,
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        if let Some(why) = failure {
            let _ = i.multi.println(format!(
                "  install of {} failed: {}",
                crate::text::visible(name),
                crate::text::visible(why)
            ));
        }
        self.refresh();
    }

    /// A server is being started or connected to.
    pub fn start(&self, name: &str) -> Line {
        let Some(i) = &self.0 else {
            return Line::default();
        };
        {
            let mut c = lock(&i.counts);
            c.in_flight += 1;
            c.waiting += 1;
        }
        self.refresh();
        Line {
            progress: self.clone(),
            bar: self.spinner(name, "starting"),
            answered: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Print the final line (coverage and failures), then remove the bars.
    pub fn finish(&self, summary: &str) {
        let Some(i) = &self.0 else { return };
        i.header.finish_and_clear();
        let _ = i.multi.clear();
        crate::output::stderr_line(summary);
    }
}

impl Line {
    /// The server answered `initialize`.
    pub fn answered(&self) {
        let Some(i) = &self.progress.0 else { return };
        if !self.answered.swap(true, Ordering::Relaxed) {
            {
                let mut c = lock(&i.counts);
                c.answered += 1;
                c.waiting = c.waiting.saturating_sub(1);
            }
            if let Some(b) = &self.bar {
                b.set_message("answered, listing");
            }
            self.progress.refresh();
        }
    }

    /// The server is done; `failure` is why it was not read, if it was not.
    pub fn finish(&self, name: &str, failure: Option<&str>) {
        let Some(i) = &self.progress.0 else { return };
        {
            let mut c = lock(&i.counts);
            c.in_flight = c.in_flight.saturating_sub(1);
            if !self.answered.load(Ordering::Relaxed) {
                c.waiting = c.waiting.saturating_sub(1);
            }
            c.done += 1;
            if failure.is_some() {
                c.failed += 1;
            }
        }
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        if let Some(why) = failure {
            let _ = i.multi.println(format!(
                "  ✗ {}: {}",
                crate::text::visible(name),
                crate::text::visible(why)
            ));
        }
        self.progress.refresh();
    }
}
