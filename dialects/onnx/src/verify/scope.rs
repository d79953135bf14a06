//! Rules `names`, `ssa`, `topo-order` and `undefined-value`: one walk over
//! every graph in order, keeping the values and names in scope.
//!
//! The scoping follows the IR spec and `onnx.checker`:
//! - a graph's inputs, initializers (Constant ops here) and node outputs
//!   are its definitions; a name is defined once per graph, except that an
//!   input and an initializer of the same name are one input with a
//!   default value — which a subgraph may not have from IR version 4 on
//!   ("users MUST NOT use the same name as both a subgraph initializer and
//!   subgraph input"), its inputs being what its op passes;
//! - a node in a subgraph may use any value visible where the op owning
//!   the subgraph sits: the enclosing graphs' inputs, and the outputs of
//!   the nodes before that op (not the op's own results);
//! - a node output in a subgraph must not reuse a name visible from the
//!   enclosing graphs ("a node output name MUST be distinct from the names
//!   from the outer scopes that are visible in the nested subgraph"), but
//!   subgraph *inputs* may (the checker only checks them within their
//!   graph), and sibling subgraphs may reuse each other's names;
//! - a training algorithm graph is evaluated as a continuation of the main
//!   graph ("the concatenation of ModelProto.graph … and algorithm …; this
//!   combined graph must satisfy the normal ONNX conditions"): it sees all
//!   of the main graph and may not reuse any of its names, inputs
//!   included. A training initialization graph stands alone.
//!
//! A subgraph output may be a value of an enclosing graph. `onnx.checker`
//! rejects that in serialized models, but rewrites produce it naturally
//! (replacing an `Identity` of an outer value by the value), so the IR
//! allows it and the exporter adds the `Identity` back.

use std::collections::HashMap;

use super::cx::{fail, Check, Cx};
use super::structure::Reachable;
use super::{constant, control, op};
use crate::error::Rule;
use crate::ir::{OpId, RegionId, RegionParent, Value, ValueDef};

/// Walks every graph of the model.
pub(super) fn check(cx: &Cx, reachable: &Reachable) -> Check {
    let model = cx.model;
    let mut walk = Walk {
        cx,
        reachable,
        live: vec![false; cx.ir.num_values()],
        scopes: vec![],
    };
    walk.enter(model.graph, Shadowing::ArgsMayShadow)?;
    walk.body(model.graph)?;
    for t in &model.training_info {
        walk.region(t.algorithm, Shadowing::Never)?;
    }
    walk.exit();
    for t in &model.training_info {
        if let Some(init) = t.initialization {
            walk.region(init, Shadowing::ArgsMayShadow)?;
        }
    }
    Ok(())
}

/// Whether a graph's inputs may reuse names of the enclosing graphs.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Shadowing {
    /// Subgraph inputs may (the checker's rule; harmless for top-level
    /// graphs, which have no enclosing graph).
    ArgsMayShadow,
    /// Nothing may: the graph continues the enclosing one.
    Never,
}

/// The definitions of one graph on the walk's stack.
struct Scope<'m> {
    region: RegionId,
    /// Names defined so far, to the value defining them.
    names: HashMap<&'m str, Value>,
    /// Values defined so far (to un-mark on exit).
    values: Vec<Value>,
}

struct Walk<'a, 'm> {
    cx: &'a Cx<'m>,
    reachable: &'a Reachable,
    /// Values usable at the current point of the walk.
    live: Vec<bool>,
    /// The graphs enclosing the current point, outermost first.
    scopes: Vec<Scope<'m>>,
}

impl<'m> Walk<'_, 'm> {
    fn region(&mut self, region: RegionId, shadowing: Shadowing) -> Check {
        self.enter(region, shadowing)?;
        self.body(region)?;
        self.exit();
        Ok(())
    }

    /// Opens a graph's scope and defines its inputs.
    fn enter(&mut self, region: RegionId, shadowing: Shadowing) -> Check {
        let cx = self.cx;
        let data = cx.ir.region(region);
        let subgraph = matches!(data.parent, RegionParent::Op(_));
        if data.name.is_empty() {
            let at = match data.parent {
                RegionParent::Op(op) => cx.op_at(op),
                RegionParent::Top => "model".to_string(),
            };
            return Err(fail(
                Rule::Names,
                at,
                "a graph has an empty name; every graph must have a name",
            ));
        }
        self.scopes.push(Scope {
            region,
            names: HashMap::new(),
            values: vec![],
        });
        for (i, arg) in data.args.iter().enumerate() {
            let at = || format!("{} input {i}", cx.graph_at(region));
            match cx.ir.value(arg.value).name.as_deref() {
                None | Some("") => {
                    return Err(fail(Rule::Names, at(), "graph inputs must be named"))
                }
                Some(name) => {
                    let visible = if shadowing == Shadowing::Never {
                        self.scopes.len()
                    } else {
                        1
                    };
                    self.define(arg.value, name, visible, &at)?;
                }
            }
            if arg.default.is_some() && subgraph && cx.model.ir_version >= 4 {
                let message = "a subgraph input cannot also be an initializer (have a default \
                               value) in IR version 4 and later";
                return Err(fail(Rule::Names, at(), message));
            }
            constant::check_arg_default(cx, region, i)?;
        }
        Ok(())
    }

    /// Checks a graph's ops and outputs.
    fn body(&mut self, region: RegionId) -> Check {
        let cx = self.cx;
        let data = cx.ir.region(region);
        for &op in &data.ops {
            self.op(op)?;
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, out) in data.outputs.iter().enumerate() {
            let at = format!("{} output {i}", cx.graph_at(region));
            if out.name.is_empty() {
                return Err(fail(Rule::Names, at, "graph outputs must be named"));
            }
            if let Some(first) = seen.insert(&out.name, i) {
                return Err(fail(
                    Rule::Names,
                    at,
                    format!(
                        "output name \"{}\" is also the name of output {first}",
                        out.name
                    ),
                ));
            }
            self.use_value(
                out.value,
                None,
                || at.clone(),
                || format!("value {}", cx.value(out.value)),
            )?;
        }
        Ok(())
    }

    /// Closes the innermost scope.
    fn exit(&mut self) {
        let scope = self.scopes.pop().expect("exit matches enter");
        for v in scope.values {
            self.live[v.index()] = false;
        }
    }

    fn op(&mut self, op: OpId) -> Check {
        let cx = self.cx;
        op::check(cx, op)?;
        control::check(cx, op)?;
        constant::check_constant(cx, op)?;
        let data = cx.ir.op(op);
        for (i, input) in data.inputs.iter().enumerate() {
            if let Some(v) = *input {
                self.use_value(
                    v,
                    Some(op),
                    || cx.op_at(op),
                    || super::cx::slot(cx.ir, "input", i, Some(v)),
                )?;
            }
        }
        for region in data.attrs.regions() {
            self.region(region, Shadowing::ArgsMayShadow)?;
        }
        for (i, result) in data.results.iter().enumerate() {
            let Some(v) = *result else { continue };
            let at = || format!("{} result {i}", cx.op_at(op));
            match cx.ir.value(v).name.as_deref() {
                None => self.define_unnamed(v),
                Some("") => return Err(fail(Rule::Names, at(), "a value name must not be empty")),
                Some(name) => self.define(v, name, self.scopes.len(), &at)?,
            }
        }
        Ok(())
    }

    /// Defines a named value, checking its name against the innermost
    /// `visible` scopes.
    fn define(
        &mut self,
        v: Value,
        name: &'m str,
        visible: usize,
        at: &dyn Fn() -> String,
    ) -> Check {
        let cx = self.cx;
        let depth = self.scopes.len();
        for scope in self.scopes[depth - visible..].iter().rev() {
            let Some(&other) = scope.names.get(name) else {
                continue;
            };
            let message = if scope.region == self.scopes[depth - 1].region {
                format!(
                    "\"{name}\" is already defined in this graph, as {}",
                    cx.def_of(other)
                )
            } else {
                format!(
                    "\"{name}\" is already defined in the enclosing {}, as {}; a node output must \
                     not reuse a name visible from an enclosing graph",
                    cx.graph_at(scope.region),
                    cx.def_of(other)
                )
            };
            return Err(fail(Rule::Ssa, at(), message));
        }
        let scope = self.scopes.last_mut().expect("inside a graph");
        scope.names.insert(name, v);
        scope.values.push(v);
        self.live[v.index()] = true;
        Ok(())
    }

    fn define_unnamed(&mut self, v: Value) {
        self.scopes
            .last_mut()
            .expect("inside a graph")
            .values
            .push(v);
        self.live[v.index()] = true;
    }

    /// Checks that `v` is visible where it is used (by `user`, or by the
    /// current graph's outputs when `None`).
    fn use_value(
        &self,
        v: Value,
        user: Option<OpId>,
        at: impl Fn() -> String,
        what: impl Fn() -> String,
    ) -> Check {
        if self.live[v.index()] {
            return Ok(());
        }
        let cx = self.cx;
        let def = cx.ir.value(v).def;
        let Some(region) = self.defining_region(v) else {
            return Err(fail(
                Rule::UndefinedValue,
                at(),
                format!(
                    "{} is not defined in any graph (its entry says {})",
                    what(),
                    self.claimed_def(def)
                ),
            ));
        };
        if self.scopes.iter().any(|s| s.region == region) {
            let message = match def {
                ValueDef::Result(op, _) if Some(op) == user => {
                    format!("{} is a result of this node itself (a cycle)", what())
                }
                _ => format!("{} is used before its definition, {}", what(), cx.def_of(v)),
            };
            return Err(fail(Rule::TopoOrder, at(), message));
        }
        Err(fail(
            Rule::UndefinedValue,
            at(),
            format!(
                "{} is defined as {}, in a graph that does not enclose this use",
                what(),
                cx.def_of(v)
            ),
        ))
    }

    /// The graph that really defines `v`: the one its `def` names, if that
    /// graph (or op, listed in a graph) does have `v` at that position.
    fn defining_region(&self, v: Value) -> Option<RegionId> {
        let ir = self.cx.ir;
        match ir.value(v).def {
            ValueDef::Arg(r, i) => {
                let exists = r.index() < ir.num_regions();
                (exists && ir.region(r).args.get(i as usize).map(|a| a.value) == Some(v))
                    .then_some(r)
            }
            ValueDef::Result(op, i) => {
                let listed = op.index() < ir.num_ops() && self.reachable.op(op);
                (listed && ir.op(op).results.get(i as usize) == Some(&Some(v)))
                    .then(|| ir.op(op).parent)
            }
        }
    }

    /// A value's recorded definition, which does not hold it.
    fn claimed_def(&self, def: ValueDef) -> String {
        let ir = self.cx.ir;
        let text = super::cx::describe_def(ir, self.cx.model, def);
        match def {
            ValueDef::Arg(r, _) if r.index() >= ir.num_regions() => text,
            ValueDef::Result(op, _) if op.index() >= ir.num_ops() => text,
            ValueDef::Result(op, _) if !self.reachable.op(op) => {
                format!("{text}, which is in no graph")
            }
            _ => format!("{text}, which does not hold it"),
        }
    }
}
