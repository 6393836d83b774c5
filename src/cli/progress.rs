//! Progress of long work on standard error: a bar with the count and the time left at a
//! terminal (indicatif), and a plain count line now and then when standard error is a file or a
//! pipe, so that a log shows the work going on without a line per item.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a plain count line is written, at most.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// The progress of one piece of work of `total` items.
pub struct Progress {
    label: String,
    total: u64,
    done: u64,
    shown: Shown,
}

enum Shown {
    Bar(indicatif::ProgressBar),
    Plain { started: Instant, last: Instant },
}

impl Progress {
    /// Work named `label` (such as "brandubh: games") of `total` items, begun now.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        let label = label.into();
        let shown = if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total),
                indicatif::ProgressDrawTarget::stderr(),
            );
            let style = indicatif::ProgressStyle::with_template(
                "{msg} [{bar:30}] {pos}/{len}, {elapsed} so far, about {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(label.clone());
            Shown::Bar(bar)
        } else {
            let now = Instant::now();
            Shown::Plain {
                started: now,
                last: now,
            }
        };
        Progress {
            label,
            total,
            done: 0,
            shown,
        }
    }

    /// One more item done.
    pub fn step(&mut self) {
        self.done += 1;
        match &mut self.shown {
            Shown::Bar(bar) => bar.inc(1),
            Shown::Plain { started, last } => {
                if last.elapsed() >= PLAIN_EVERY {
                    *last = Instant::now();
                    eprintln!(
                        "{}",
                        plain_line(&self.label, self.done, self.total, started.elapsed())
                    );
                }
            }
        }
    }

    /// The work is done: the bar is cleared (the command prints what it did).
    pub fn finish(self) {
        if let Shown::Bar(bar) = self.shown {
            bar.finish_and_clear();
        }
    }
}

/// A plain count line: "brandubh: games 120/300, 41 s so far, about 62 s left".
pub fn plain_line(label: &str, done: u64, total: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let left = if done == 0 || done >= total {
        String::new()
    } else {
        let rest = seconds / done as f64 * (total - done) as f64;
        format!(", about {rest:.0} s left")
    };
    format!("{label} {done}/{total}, {seconds:.0} s so far{left}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_says_the_count_and_the_time_left_from_the_pace_so_far() {
        assert_eq!(
            plain_line("brandubh: games", 100, 300, Duration::from_secs(20)),
            "brandubh: games 100/300, 20 s so far, about 40 s left"
        );
        assert_eq!(
            plain_line("copy", 0, 5, Duration::from_secs(1)),
            "copy 0/5, 1 s so far"
        );
    }
}
