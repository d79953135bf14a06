//! `--opt-report`: what the optimizer did, for people and for the
//! benchmark notes.

use std::fmt;
use std::time::Duration;

use crate::rules::RuleSet;
use crate::run::{Limits, StopReason};

/// Where the time went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Times {
    /// Inference and building the e-graph.
    pub convert: Duration,
    /// Equality saturation.
    pub saturate: Duration,
    /// Extraction.
    pub extract: Duration,
    /// Rebuilding the graph (computing the folded weights it uses) and
    /// verifying it.
    pub rebuild: Duration,
    /// Everything, rebuilding and verification included.
    pub total: Duration,
}

/// What [`crate::optimize`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct OptReport {
    /// Why nothing was done, if so.
    pub skipped: Option<String>,
    /// The rule sets that ran.
    pub rule_sets: Vec<RuleSet>,
    /// The limits in force.
    pub limits: Limits,
    /// Saturation iterations.
    pub iterations: usize,
    /// Why saturation stopped.
    pub stop: Option<StopReason>,
    /// Each rule that changed the e-graph, with how often.
    pub applied: Vec<(&'static str, usize)>,
    /// Each rule's time (search and application), slowest first.
    pub rule_times: Vec<(&'static str, Duration)>,
    /// E-nodes at the end.
    pub egraph_nodes: usize,
    /// E-classes at the end.
    pub egraph_classes: usize,
    /// Constants made by folding.
    pub folded: usize,
    /// Ops of the main graph before (`Constant`s included).
    pub ops_before: usize,
    /// Ops of the main graph after.
    pub ops_after: usize,
    /// Estimated run time before, seconds.
    pub cost_before: f64,
    /// Estimated run time after, seconds.
    pub cost_after: f64,
    /// Time spent.
    pub times: Times,
}

impl OptReport {
    pub(crate) fn skipped(why: &str, time: Duration) -> OptReport {
        OptReport {
            skipped: Some(why.to_string()),
            rule_sets: vec![],
            limits: Limits::default(),
            iterations: 0,
            stop: None,
            applied: vec![],
            rule_times: vec![],
            egraph_nodes: 0,
            egraph_classes: 0,
            folded: 0,
            ops_before: 0,
            ops_after: 0,
            cost_before: 0.0,
            cost_after: 0.0,
            times: Times {
                total: time,
                ..Times::default()
            },
        }
    }

    /// Total rule applications.
    pub fn rewrites(&self) -> usize {
        self.applied.iter().map(|(_, n)| n).sum()
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl fmt::Display for OptReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(why) = &self.skipped {
            return writeln!(f, "e-graph optimizer: skipped ({why})");
        }
        let sets: Vec<&str> = self.rule_sets.iter().map(|s| s.name()).collect();
        writeln!(
            f,
            "e-graph optimizer: rules {} | limits {}",
            sets.join(","),
            self.limits
        )?;
        let stop = self.stop.map(|s| s.to_string()).unwrap_or_default();
        writeln!(
            f,
            "  saturation: {} iterations ({stop}), {} e-nodes in {} e-classes, {} constants folded",
            self.iterations, self.egraph_nodes, self.egraph_classes, self.folded
        )?;
        writeln!(f, "  ops: {} -> {}", self.ops_before, self.ops_after)?;
        let gain = if self.cost_after > 0.0 {
            self.cost_before / self.cost_after
        } else {
            1.0
        };
        writeln!(
            f,
            "  estimated cost: {:.3} ms -> {:.3} ms ({gain:.2}x)",
            self.cost_before * 1e3,
            self.cost_after * 1e3
        )?;
        writeln!(
            f,
            "  time: {:.1} ms (convert {:.1}, saturate {:.1}, extract {:.1}, rebuild {:.1})",
            ms(self.times.total),
            ms(self.times.convert),
            ms(self.times.saturate),
            ms(self.times.extract),
            ms(self.times.rebuild)
        )?;
        writeln!(f, "  rules fired ({} rewrites):", self.rewrites())?;
        let mut applied = self.applied.clone();
        applied.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (name, n) in applied {
            writeln!(f, "    {n:>6}  {name}")?;
        }
        let slow: Vec<String> = self
            .rule_times
            .iter()
            .take(5)
            .map(|(n, t)| format!("{n} {:.1}", ms(*t)))
            .collect();
        if !slow.is_empty() {
            writeln!(f, "  slowest rules (ms): {}", slow.join(", "))?;
        }
        Ok(())
    }
}
