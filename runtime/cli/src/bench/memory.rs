//! Host memory while grading long inputs: the response stream is generated
//! on the fly (the template lines over and over, pass `k` over them being
//! run `k`: each sample becomes `"<sample> #k"`), graded as `verigate grade`
//! grades it, and the process's peak resident set is read from `/proc`
//! (Linux; elsewhere it is not measured).

use serde::Serialize;
use std::io::{BufReader, Read};
use std::time::Instant;
use verigate_grading::grade::{Grader, Judgments, ResponseLine};
use verigate_grading::report::Report;
use verigate_registry::Registry;
use verigate_sandbox::Sandbox;

/// `count` response lines cycling through `templates`, each pass a new run.
struct Responses<'a> {
    templates: &'a [ResponseLine],
    next: usize,
    count: usize,
    line: Vec<u8>,
    at: usize,
}

impl Read for Responses<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.line.len() {
            if self.next == self.count {
                return Ok(0);
            }
            let template = &self.templates[self.next % self.templates.len()];
            let run = self.next / self.templates.len();
            let sample = match &template.sample {
                serde_json::Value::String(name) => format!("{name} #{run}"),
                other => format!("{other} #{run}"),
            };
            let response = ResponseLine {
                sample: sample.into(),
                ..template.clone()
            };
            self.line = serde_json::to_vec(&response)?;
            self.line.push(b'\n');
            self.at = 0;
            self.next += 1;
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Peak resident set since the last [`reset_peak`], in MiB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// Makes the peak resident set start again from the current one.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Host memory and throughput of one long grading run.
#[derive(Debug, Serialize)]
pub struct GradingMemory {
    /// Response lines graded.
    pub lines: usize,
    /// Peak resident set of the process meanwhile, MiB (Linux only).
    pub peak_rss_mb: Option<f64>,
    /// End-to-end grading throughput (all workers).
    pub lines_per_sec: f64,
}

/// Grades `count` lines cycling through `templates`, records serialized and
/// dropped and folded into a report, as `verigate grade` does.
pub fn grade_stream(
    registry: &Registry,
    sandbox: &Sandbox,
    templates: &[ResponseLine],
    count: usize,
    workers: usize,
) -> Result<GradingMemory, String> {
    let measured = reset_peak();
    let input = BufReader::new(Responses {
        templates,
        next: 0,
        count,
        line: Vec::new(),
        at: 0,
    });
    let mut judgments = Judgments::default();
    let mut report = Report::default();
    let mut bytes = 0;
    let mut bad = None;
    let started = Instant::now();
    Grader {
        registry,
        sandbox,
        judgments: &mut judgments,
        workers,
    }
    .grade(
        input,
        std::iter::empty(),
        |record, _| {
            report.add(record);
            bytes += serde_json::to_vec(record).map_or(0, |line| line.len());
        },
        |error| {
            bad.get_or_insert(format!("line {}: {}", error.line, error.message));
        },
    )?;
    if let Some(bad) = bad {
        return Err(format!("a generated response was refused: {bad}"));
    }
    let lines_per_sec = count as f64 / started.elapsed().as_secs_f64();
    std::hint::black_box((report.summary(), bytes));
    Ok(GradingMemory {
        lines: count,
        lines_per_sec,
        peak_rss_mb: if measured { peak_rss_mb() } else { None },
    })
}
