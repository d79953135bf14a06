//! The graph optimizer of onnx-mlc: equality saturation over the onnx
//! dialect with [`egg`].
//!
//! [`optimize`] turns the main graph into an e-graph ([`convert`]), whose
//! e-classes know their types, shapes and constant values ([`analysis`]);
//! applies the enabled rule sets ([`rules`]) until saturation or a limit
//! ([`run`]); extracts the cheapest graph under a roofline cost model of the
//! target ([`cost`]), counting shared subgraphs once ([`extract`]); and
//! writes it back into the model, which must still verify. Rewrites add
//! alternatives instead of replacing, so the order rules run in does not
//! matter and no rule can make the result worse than the input under the
//! cost model: the input graph is always among the candidates.
//!
//! How to write a rule: `docs/rewrite-rules.md`.

pub mod analysis;
pub mod convert;
pub mod cost;
pub mod dot;
pub mod eval;
pub mod expr;
pub mod extract;
pub mod lang;
pub mod pattern;
mod report;
pub mod rules;
pub mod run;

use std::collections::HashSet;
use std::time::Instant;

use onnx_mlc_dialect::infer::infer_model;
use onnx_mlc_dialect::verify::verify_model;
use onnx_mlc_dialect::Model;

use crate::lang::ConstId;

pub use cost::Target;
pub use dot::to_dot;
pub use report::OptReport;
pub use rules::RuleSet;
pub use run::{Limits, StopReason};

/// Errors of the optimizer. The model is left as it was given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptimizeError {
    /// Bad `--rules` or `--egraph-limits` text.
    #[error("{0}")]
    Options(String),
    /// The model is not one the optimizer can take (it should have been
    /// verified first).
    #[error("cannot optimize: {0}")]
    Malformed(String),
    /// Shape inference before optimizing failed.
    #[error("shape inference before optimizing failed: {0}")]
    Infer(String),
    /// Rules found values of different types equal, or made invalid ops:
    /// a rule is unsound. The model is left unchanged.
    #[error("the optimizer contradicted itself (an unsound rule?): {0}")]
    Unsound(String),
    /// The optimized model does not verify.
    #[error("the optimized model does not verify: {0}")]
    Verify(String),
    /// A bug in the optimizer.
    #[error("internal optimizer error: {0}")]
    Internal(String),
}

/// Which extractor picks the final graph (an ablation switch).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Extractor {
    /// Greedy DAG-aware extraction: shared subgraphs counted once.
    Dag,
    /// Tree extraction (each use of a subgraph counted).
    Tree,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct OptimizeOptions {
    /// Off switch (`--no-egraph`).
    pub enabled: bool,
    /// The rule sets to apply (`--rules=<set,…>`).
    pub rule_sets: Vec<RuleSet>,
    /// Saturation limits (`--egraph-limits`).
    pub limits: Limits,
    /// The machine the cost model describes.
    pub target: Target,
    /// The extractor.
    pub extractor: Extractor,
}

impl Default for OptimizeOptions {
    /// Every rule set, default limits, this machine, DAG extraction.
    fn default() -> OptimizeOptions {
        OptimizeOptions {
            enabled: true,
            rule_sets: RuleSet::ALL.to_vec(),
            limits: Limits::default(),
            target: Target::default(),
            extractor: Extractor::Dag,
        }
    }
}

impl OptimizeOptions {
    /// Parses a `--rules` list: set names separated by commas (`all` for
    /// every set, `none` for none).
    pub fn parse_rule_sets(text: &str) -> Result<Vec<RuleSet>, OptimizeError> {
        match text.trim() {
            "all" => return Ok(RuleSet::ALL.to_vec()),
            "none" | "" => return Ok(vec![]),
            _ => {}
        }
        text.split(',')
            .map(|s| {
                RuleSet::from_name(s.trim()).ok_or_else(|| {
                    let names: Vec<&str> = RuleSet::ALL.iter().map(|s| s.name()).collect();
                    OptimizeError::Options(format!(
                        "unknown rule set '{}' (known: {}, all, none)",
                        s.trim(),
                        names.join(", ")
                    ))
                })
            })
            .collect()
    }
}

/// Optimizes the model's main graph in place. On any error the model is
/// left exactly as it was. The model may come straight from the importer
/// or the text form: shape inference runs first.
pub fn optimize(model: &mut Model, options: &OptimizeOptions) -> Result<OptReport, OptimizeError> {
    run_optimizer(model, options, Input::Raw)
}

/// [`optimize`] for a model that comes out of the dialect pipeline
/// (`onnx_mlc_dialect::passes::DEFAULT_PIPELINE`), or out of shape
/// inference after it: verified, every value typed. The optimizer trusts
/// those types instead of inferring them again; debug builds check the
/// claim (the model verifies, and inference changes no type).
pub fn optimize_prepared(
    model: &mut Model,
    options: &OptimizeOptions,
) -> Result<OptReport, OptimizeError> {
    run_optimizer(model, options, Input::Prepared)
}

/// What the optimizer may assume about its input model.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Input {
    /// Anything that verifies once inferred.
    Raw,
    /// Verified and inferred by the dialect pipeline.
    Prepared,
}

fn run_optimizer(
    model: &mut Model,
    options: &OptimizeOptions,
    input: Input,
) -> Result<OptReport, OptimizeError> {
    let start = Instant::now();
    if !options.enabled {
        return Ok(OptReport::skipped(
            "the e-graph optimizer is off",
            start.elapsed(),
        ));
    }
    if !model.training_info.is_empty() {
        return Ok(OptReport::skipped(
            "the model has training graphs, which bind main-graph initializers by name",
            start.elapsed(),
        ));
    }
    let backup = model.clone();
    let result = optimize_unchecked(model, options, input, start);
    if result.is_err() {
        *model = backup;
    }
    result
}

/// The optimization proper; the caller restores the model on error.
fn optimize_unchecked(
    model: &mut Model,
    options: &OptimizeOptions,
    input: Input,
    start: Instant,
) -> Result<OptReport, OptimizeError> {
    match input {
        Input::Raw => {
            infer_model(model).map_err(|e| OptimizeError::Infer(e.to_string()))?;
        }
        Input::Prepared => debug_assert_prepared(model),
    }
    let ops_before = model.ir.region(model.graph).ops.len();
    let mut conv = convert::to_egraph(model, options.limits.fold_elems)?;
    let target = &options.target;
    let cost_before = original_cost(&conv, target);
    let converted = start.elapsed();
    let rules = rules::rules_of(&options.rule_sets);
    let saturation = run::saturate(&mut conv.egraph, &rules, &options.limits);
    let saturated = start.elapsed();
    if !conv.egraph.analysis.problems.is_empty() {
        return Err(OptimizeError::Unsound(
            conv.egraph.analysis.problems.join("; "),
        ));
    }
    let eg = &conv.egraph;
    // A big fold is computed only once extracted (`ConstPool::lazy`); one
    // that cannot be computed after all is skipped: the extraction runs
    // again without it, and the op that made it stays.
    let mut unfoldable: HashSet<ConstId> = HashSet::new();
    let (extraction, cost_after) = loop {
        let cost = |c, n: &lang::ONode| match n {
            lang::ONode::Const(k) if unfoldable.contains(k) => f64::INFINITY,
            _ => cost::node_cost(eg, c, n, target),
        };
        let extraction = match options.extractor {
            Extractor::Dag => extract::extract_dag(eg, &conv.outputs, cost),
            Extractor::Tree => extract::extract_tree(eg, &conv.outputs, cost),
        }
        .ok_or_else(|| {
            OptimizeError::Internal("no acyclic extraction for the graph outputs".into())
        })?;
        let failed: Vec<ConstId> = extraction
            .nodes()
            .filter_map(|n| match n {
                lang::ONode::Const(k) if eg.analysis.pool.force(*k).is_none() => Some(*k),
                _ => None,
            })
            .collect();
        if failed.is_empty() {
            let cost_after = extraction.dag_cost(eg, &cost);
            break (extraction, cost_after);
        }
        if failed.iter().all(|k| unfoldable.contains(k)) {
            return Err(OptimizeError::Internal(format!(
                "a constant of type {} cannot be computed and has no other form",
                eg.analysis.pool.ty(failed[0])
            )));
        }
        unfoldable.extend(failed);
    };
    let extracted = start.elapsed();
    let ops_after = convert::rebuild(model, &conv, &extraction)?;
    verify_model(model).map_err(|e| OptimizeError::Verify(e.to_string()))?;
    Ok(OptReport {
        skipped: None,
        rule_sets: options.rule_sets.clone(),
        limits: options.limits.clone(),
        iterations: saturation.iterations,
        stop: Some(saturation.stop),
        applied: saturation.applied.into_iter().collect(),
        rule_times: {
            let mut t: Vec<_> = saturation.time.into_iter().collect();
            t.sort_by_key(|e| std::cmp::Reverse(e.1));
            t
        },
        egraph_nodes: conv.egraph.total_number_of_nodes(),
        egraph_classes: conv.egraph.number_of_classes(),
        folded: conv.egraph.analysis.folded,
        ops_before,
        ops_after,
        cost_before,
        cost_after,
        times: report::Times {
            convert: converted,
            saturate: saturated - converted,
            extract: extracted - saturated,
            rebuild: start.elapsed() - extracted,
            total: start.elapsed(),
        },
    })
}

/// The cost of the graph as given: its ops' nodes, each once (the
/// `Constant` ops are leaves and cost nothing).
fn original_cost(conv: &convert::Converted, target: &Target) -> f64 {
    let eg = &conv.egraph;
    conv.originals
        .iter()
        .map(|(node, _)| {
            let node = egg::Language::map_children(node.clone(), |c| eg.find(c));
            let class = eg.lookup(node.clone()).unwrap_or_else(|| egg::Id::from(0));
            cost::node_cost(eg, class, &node, target)
        })
        .sum()
}

/// Checks, in debug builds, what [`optimize_prepared`] trusts: the model
/// verifies, and inference would change no type in it.
fn debug_assert_prepared(model: &Model) {
    if cfg!(debug_assertions) {
        if let Err(e) = verify_model(model) {
            panic!("optimize_prepared: the model does not verify: {e}");
        }
        let mut inferred = model.clone();
        if let Err(e) = infer_model(&mut inferred) {
            panic!("optimize_prepared: inference fails on the model: {e}");
        }
        for i in 0..model.ir.num_values() {
            let v = onnx_mlc_dialect::Value::from_index(i);
            assert_eq!(
                model.ir.ty(v),
                inferred.ir.ty(v),
                "optimize_prepared: inference changes the type of {v:?}"
            );
        }
    }
}
