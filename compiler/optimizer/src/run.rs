//! Equality saturation with explicit limits.
//!
//! Each iteration searches every rule on the same e-graph, then applies
//! all matches, then rebuilds (egg's batched rebuilding). It stops when an
//! iteration changes nothing (saturated) or at the first limit reached:
//! iterations, e-nodes, or time. Limits are always explicit ([`Limits`]);
//! the defaults keep the real models well inside the compile-time budget.

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::analysis::OGraph;
use crate::rules::Rule;
use crate::OptimizeError;

/// Bounds on saturation (`--egraph-limits`).
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Rewrite iterations.
    pub iterations: usize,
    /// E-nodes in the e-graph.
    pub nodes: usize,
    /// Wall time of saturation.
    pub time: Duration,
    /// Matches applied per rule and iteration.
    pub matches_per_rule: usize,
    /// Folded constants have at most this many elements.
    pub fold_elems: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            iterations: 32,
            nodes: 100_000,
            time: Duration::from_millis(500),
            matches_per_rule: 10_000,
            fold_elems: 1 << 24,
        }
    }
}

impl Limits {
    /// Parses `iterations=8,nodes=50000,time=300ms,matches=1000,fold=65536`
    /// (any subset, over the defaults; time in `ms` or `s`).
    pub fn parse(text: &str) -> Result<Limits, OptimizeError> {
        let mut l = Limits::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || {
                OptimizeError::Options(format!("bad e-graph limit '{item}' (expected iterations=N, nodes=N, time=Nms, matches=N or fold=N)"))
            };
            let (k, v) = item.split_once('=').ok_or_else(bad)?;
            let int = || v.parse::<usize>().map_err(|_| bad());
            match k {
                "iterations" => l.iterations = int()?,
                "nodes" => l.nodes = int()?,
                "matches" => l.matches_per_rule = int()?,
                "fold" => l.fold_elems = int()?,
                "time" => {
                    l.time = if let Some(ms) = v.strip_suffix("ms") {
                        Duration::from_millis(ms.parse().map_err(|_| bad())?)
                    } else if let Some(s) = v.strip_suffix('s') {
                        Duration::from_secs_f64(s.parse().map_err(|_| bad())?)
                    } else {
                        return Err(bad());
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(l)
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "iterations={},nodes={},time={}ms,matches={},fold={}",
            self.iterations,
            self.nodes,
            self.time.as_millis(),
            self.matches_per_rule,
            self.fold_elems
        )
    }
}

/// Why saturation stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// No rule changed the e-graph: every rewrite was found.
    Saturated,
    /// [`Limits::iterations`].
    IterationLimit,
    /// [`Limits::nodes`].
    NodeLimit,
    /// [`Limits::time`].
    TimeLimit,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Saturated => "saturated",
            StopReason::IterationLimit => "iteration limit",
            StopReason::NodeLimit => "e-node limit",
            StopReason::TimeLimit => "time limit",
        })
    }
}

/// What saturation did.
#[derive(Clone, Debug)]
pub struct Saturation {
    /// Iterations run.
    pub iterations: usize,
    /// Why it stopped.
    pub stop: StopReason,
    /// How often each rule changed the e-graph.
    pub applied: BTreeMap<&'static str, usize>,
    /// Time each rule took (search and application, analysis included).
    pub time: BTreeMap<&'static str, Duration>,
}

/// Runs `rules` on `egraph` within `limits`.
pub fn saturate(egraph: &mut OGraph, rules: &[Rule], limits: &Limits) -> Saturation {
    let start = Instant::now();
    let mut applied: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut time: BTreeMap<&'static str, Duration> = BTreeMap::new();
    let mut iterations = 0;
    let stop = loop {
        if iterations >= limits.iterations {
            break StopReason::IterationLimit;
        }
        iterations += 1;
        let matches: Vec<_> = rules
            .iter()
            .map(|r| {
                let t = Instant::now();
                let ms = r.search(egraph, limits.matches_per_rule);
                *time.entry(r.name).or_default() += t.elapsed();
                ms
            })
            .collect();
        let mut changed = false;
        let mut stop = None;
        for (rule, ms) in rules.iter().zip(&matches) {
            let t = Instant::now();
            for m in ms {
                if rule.apply(egraph, m) {
                    *applied.entry(rule.name).or_default() += 1;
                    changed = true;
                }
            }
            *time.entry(rule.name).or_default() += t.elapsed();
            if egraph.total_size() > limits.nodes {
                stop = Some(StopReason::NodeLimit);
                break;
            }
            if start.elapsed() > limits.time {
                stop = Some(StopReason::TimeLimit);
                break;
            }
        }
        egraph.rebuild();
        if let Some(s) = stop {
            break s;
        }
        if !changed {
            break StopReason::Saturated;
        }
    };
    Saturation {
        iterations,
        stop,
        applied,
        time,
    }
}
