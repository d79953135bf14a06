//! Rule `structure`: the arena behind the model is consistent.
//!
//! The IR stores each relation twice (a region lists its ops and each op
//! names its parent; a region holds its args and each value names its
//! definition), so a pass that updates one side only leaves IR that the
//! other checks would misread or index out of bounds. This check runs
//! first, over everything reachable from the model's graphs, and
//! establishes what the others rely on:
//! - every handle (value, op, region) exists;
//! - every reachable op is listed once, in the region its `parent` names;
//! - every reachable region is held once (as a top-level graph or by one
//!   attribute of one op) and its `parent` says so — hence no region
//!   contains itself;
//! - every value is defined once (rule `ssa`), where its `def` says.

use super::cx::{describe_def, fail, graph_at, Check};
use crate::error::Rule;
use crate::ir::{Ir, Model, OpId, RegionId, RegionParent, Value, ValueDef};

/// The ops reachable from the model's graphs (listed in a reachable
/// region); others are detached leftovers of rewrites.
pub(super) struct Reachable {
    ops: Vec<bool>,
}

impl Reachable {
    /// Whether `op` is listed in a graph of the model.
    pub(super) fn op(&self, op: OpId) -> bool {
        self.ops[op.index()]
    }
}

/// Checks the arena and returns which ops are reachable.
pub(super) fn check(model: &Model) -> Check<Reachable> {
    let ir = &model.ir;
    let mut walk = Walk {
        model,
        ir,
        holder: vec![None; ir.num_regions()],
        ops: vec![false; ir.num_ops()],
        defs: vec![None; ir.num_values()],
    };
    let mut tops = vec![("main graph", model.graph)];
    for t in &model.training_info {
        tops.extend(
            t.initialization
                .map(|r| ("training initialization graph", r)),
        );
        tops.push(("training algorithm graph", t.algorithm));
    }
    for (what, region) in tops {
        if region.index() >= ir.num_regions() {
            return Err(fail(
                Rule::Structure,
                "model",
                format!("the {what} is {region:?}, which does not exist"),
            ));
        }
        walk.region(region, Holder::Top(what))?;
    }
    Ok(Reachable { ops: walk.ops })
}

/// Who holds a region.
#[derive(Copy, Clone)]
enum Holder<'m> {
    /// The model, as the named kind of top-level graph.
    Top(&'static str),
    /// An attribute of an op.
    Attr(OpId, &'m str),
}

struct Walk<'m> {
    model: &'m Model,
    ir: &'m Ir,
    /// The first holder found for each region.
    holder: Vec<Option<Holder<'m>>>,
    /// Ops seen listed in a region.
    ops: Vec<bool>,
    /// Where each value was first seen defined.
    defs: Vec<Option<ValueDef>>,
}

impl<'m> Walk<'m> {
    fn describe_holder(&self, holder: Holder) -> String {
        match holder {
            Holder::Top(what) => format!("the model as its {what}"),
            Holder::Attr(op, attr) => {
                format!("attribute \"{attr}\" of {}", self.ir.describe_op(op))
            }
        }
    }

    fn region(&mut self, region: RegionId, holder: Holder<'m>) -> Check {
        let ir = self.ir;
        let at = || match holder {
            Holder::Top(_) => "model".to_string(),
            Holder::Attr(op, _) => ir.describe_op(op).to_string(),
        };
        if let Some(first) = self.holder[region.index()] {
            return Err(fail(
                Rule::Structure,
                at(),
                format!(
                    "{} is held by {}, and already by {}",
                    graph_at(ir, region),
                    self.describe_holder(holder),
                    self.describe_holder(first)
                ),
            ));
        }
        self.holder[region.index()] = Some(holder);
        let data = ir.region(region);
        let expected = match holder {
            Holder::Top(_) => RegionParent::Top,
            Holder::Attr(op, _) => RegionParent::Op(op),
        };
        if data.parent != expected {
            let actual = match data.parent {
                RegionParent::Top => "it says it is a top-level graph".to_string(),
                RegionParent::Op(op) if op.index() < ir.num_ops() => {
                    format!("it says its parent is {}", ir.describe_op(op))
                }
                RegionParent::Op(op) => format!("its parent {op:?} does not exist"),
            };
            return Err(fail(
                Rule::Structure,
                at(),
                format!(
                    "{} is held by {}, but {actual}",
                    graph_at(ir, region),
                    self.describe_holder(holder)
                ),
            ));
        }

        let graph = graph_at(ir, region);
        for (i, arg) in data.args.iter().enumerate() {
            self.define(arg.value, ValueDef::Arg(region, i as u32), || {
                format!("{graph} input {i}")
            })?;
        }
        for &op in &data.ops {
            self.op(region, op)?;
        }
        for (i, out) in data.outputs.iter().enumerate() {
            self.exists(out.value, || {
                format!("{graph} output {i} (\"{}\")", out.name)
            })?;
        }
        Ok(())
    }

    fn op(&mut self, region: RegionId, op: OpId) -> Check {
        let ir = self.ir;
        let graph = || graph_at(ir, region);
        if op.index() >= ir.num_ops() {
            let message = format!("lists op {op:?}, which does not exist");
            return Err(fail(Rule::Structure, graph(), message));
        }
        if self.ops[op.index()] {
            return Err(fail(
                Rule::Structure,
                graph(),
                format!(
                    "lists {}, which is already listed in {}",
                    ir.describe_op(op),
                    graph_at(ir, ir.op(op).parent)
                ),
            ));
        }
        self.ops[op.index()] = true;
        let data = ir.op(op);
        let at = || ir.describe_op(op).to_string();
        if data.parent != region {
            let parent = if data.parent.index() < ir.num_regions() {
                graph_at(ir, data.parent)
            } else {
                format!("{:?}, which does not exist", data.parent)
            };
            return Err(fail(
                Rule::Structure,
                at(),
                format!("is listed in {} but its parent is {parent}", graph()),
            ));
        }
        for (i, input) in data.inputs.iter().enumerate() {
            if let Some(v) = *input {
                self.exists(v, || format!("{} input {i}", at()))?;
            }
        }
        for (i, result) in data.results.iter().enumerate() {
            if let Some(v) = *result {
                self.define(v, ValueDef::Result(op, i as u32), || {
                    format!("{} result {i}", at())
                })?;
            }
        }
        for (name, attr) in data.attrs.iter() {
            for &sub in attr.regions() {
                if sub.index() >= ir.num_regions() {
                    return Err(fail(
                        Rule::Structure,
                        at(),
                        format!("attribute \"{name}\" holds graph {sub:?}, which does not exist"),
                    ));
                }
                self.region(sub, Holder::Attr(op, name))?;
            }
        }
        Ok(())
    }

    /// Checks that a used value exists.
    fn exists(&self, v: Value, place: impl Fn() -> String) -> Check {
        if v.index() >= self.ir.num_values() {
            return Err(fail(
                Rule::Structure,
                place(),
                format!("refers to value {v:?}, which does not exist"),
            ));
        }
        Ok(())
    }

    /// Records that `v` is defined at `site`, checking that it exists, is
    /// not defined elsewhere too and that its `def` agrees.
    fn define(&mut self, v: Value, site: ValueDef, place: impl Fn() -> String) -> Check {
        self.exists(v, &place)?;
        let (ir, model) = (self.ir, self.model);
        if let Some(first) = self.defs[v.index()] {
            return Err(fail(
                Rule::Ssa,
                place(),
                format!(
                    "value {v:?} is defined twice: as {} and as {}",
                    describe_def(ir, model, first),
                    describe_def(ir, model, site)
                ),
            ));
        }
        self.defs[v.index()] = Some(site);
        let recorded = ir.value(v).def;
        if recorded != site {
            let recorded = describe_def(ir, model, recorded);
            return Err(fail(
                Rule::Structure,
                place(),
                format!("value {v:?} appears here but its entry says it is {recorded}"),
            ));
        }
        Ok(())
    }
}
