//! The `name-dims` pass: every size the compiled model can be bound to at
//! run time gets a name, and no other name survives.
//!
//! Exporters leave the batch of a graph input as a dim with neither
//! `dim_value` nor `dim_param` (skl2onnx, many torch exports), and name
//! computed sizes freely on outputs and `value_info` (`4*batch`,
//! `MatMullogits_dim_1`, `s0 + 1`). The compiled model binds its symbols
//! from the main graph's inputs, so:
//! - an unknown dim of a main-graph input becomes a fresh symbol of its
//!   own, `"?<input>.<axis>"` (the `?` marks a dim the model left unnamed;
//!   a name the model already uses gets a numeric suffix), bound from the
//!   actual input like any `dim_param`;
//! - a `dim_param` on a value that is no graph's input (outputs,
//!   `value_info`, the values inside subgraphs) and that no input defines
//!   is a name, not a size: it becomes unknown, for inference to derive
//!   (an output's size is what its op computes, whatever the exporter
//!   called it). A subgraph's inputs define names too: they are bound
//!   when the subgraph is entered. Their unnamed dims stay unknown, for
//!   inference to take from the op that runs the subgraph.

use std::collections::HashSet;

use crate::dim::Dim;
use crate::entity::{OpId, RegionId, Value};
use crate::error::Result;
use crate::infer::infer_model;
use crate::ir::{Ir, Model};
use crate::types::Type;

/// Runs the pass on a model (see the module docs).
pub fn name_dims(model: &mut Model) -> Result<()> {
    let inputs: Vec<Value> = model
        .ir
        .region(model.graph)
        .args
        .iter()
        .map(|a| a.value)
        .collect();
    let mut taken = atoms_in_use(model);
    let mut defined: HashSet<String> = HashSet::new();
    let mut args: HashSet<Value> = HashSet::new();
    for r in (0..model.ir.num_regions()).map(RegionId::from_index) {
        for arg in &model.ir.region(r).args {
            args.insert(arg.value);
            visit_dims(&model.ir.value(arg.value).ty, &mut |d| {
                defined.extend(d.atoms().into_iter().flatten().map(str::to_string))
            });
        }
    }
    for &v in &inputs {
        name_unknown_dims(&mut model.ir, v, &format!("arg{}", v.index()), &mut taken);
        visit_dims(&model.ir.value(v).ty, &mut |d| {
            defined.extend(d.atoms().into_iter().flatten().map(str::to_string))
        });
    }
    for v in (0..model.ir.num_values()).map(Value::from_index) {
        if !args.contains(&v) {
            forget_undefined(&mut model.ir, v, &defined);
        }
    }
    Ok(())
}

/// A copy of the model where the results of the ops whose sizes only the
/// run time knows — in the main graph and in the subgraphs the host runs
/// (a Loop's body, an If's branches) — have symbols of their own, and
/// those ops in order; `None` when there are none (nothing is copied).
///
/// A Pad by pads computed from data, a Resize to computed sizes, a Range, a
/// TopK by a computed K: inference leaves some result dim of theirs unknown
/// even when everything before them is sized. Each such dim becomes a
/// fresh symbol `"?<value>.<axis>"`, defined by the op (the run time
/// computes it from the op's operands before the op runs), and inference
/// runs again so that the ops downstream are sized in terms of it. Ops are
/// taken in order, so an op is only named when what it reads is sized.
/// Host operators (NonZero, SequenceAt, a Loop) are named too, so that the
/// ops after them are sized in terms of their results, which the run time
/// has when it gets there. Results of unknown rank are left alone.
pub fn name_run_time_sizes(model: &Model) -> Result<Option<(Model, Vec<OpId>)>> {
    let open_size = |m: &Model, o: OpId| {
        m.ir.op(o).results.iter().flatten().any(|&v| {
            matches!(m.ir.ty(v), Type::Tensor(t) if t.dims().is_some_and(|d| d.contains(&Dim::Unknown)))
        })
    };
    if !model
        .ir
        .walk_ops(model.graph)
        .into_iter()
        .any(|o| open_size(model, o))
    {
        return Ok(None);
    }
    let mut model = model.clone();
    let mut taken = atoms_in_use(&model);
    let mut sized = vec![];
    loop {
        let Some(o) = model
            .ir
            .walk_ops(model.graph)
            .into_iter()
            .find(|&o| !sized.contains(&o) && open_size(&model, o))
        else {
            return Ok(Some((model, sized)));
        };
        for v in model.ir.op(o).results.clone().into_iter().flatten() {
            name_unknown_dims(&mut model.ir, v, &format!("v{}", v.index()), &mut taken);
        }
        sized.push(o);
        infer_model(&mut model)?;
    }
}

/// A dim of a main-graph input that the run time sizes: the input's
/// position among the inputs a caller passes (those without a default) and
/// the axis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpenDim {
    /// The input's position among the inputs without a default.
    pub input: usize,
    /// The axis of the dim.
    pub axis: usize,
}

/// The main-graph inputs a caller passes (those without a default), in
/// order.
fn passed_inputs(model: &Model) -> Vec<Value> {
    let graph = model.ir.region(model.graph);
    graph
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| a.value)
        .collect()
}

/// The dims of the main graph's passed inputs that are not known at
/// compile time (symbolic or unnamed), in input then axis order; `None`
/// when some input's rank is unknown or an input is not a tensor of
/// known rank (a sequence, a map, an optional), whose sizes cannot be
/// bound by position.
pub fn open_input_dims(model: &Model) -> Option<Vec<OpenDim>> {
    let mut open = vec![];
    for (input, v) in passed_inputs(model).into_iter().enumerate() {
        let Type::Tensor(t) = model.ir.ty(v) else {
            return None;
        };
        for (axis, d) in t.shape.as_ref()?.iter().enumerate() {
            if !d.is_known() {
                open.push(OpenDim { input, axis });
            }
        }
    }
    Some(open)
}

/// The name a caller gives an open input dim by: its `dim_param`, or
/// `<input>.<axis>` (the input's name) for a dim the model left unnamed.
pub fn open_dim_name(model: &Model, dim: OpenDim) -> String {
    let v = passed_inputs(model)[dim.input];
    let param = match model.ir.ty(v) {
        Type::Tensor(t) => t.dims().and_then(|d| d.get(dim.axis)?.as_param()),
        _ => None,
    };
    match param {
        Some(p) => p.to_string(),
        None => {
            let input = model.ir.value(v).name.as_deref().unwrap_or("");
            format!("{input}.{}", dim.axis)
        }
    }
}

/// Binds the open dims of the main graph's inputs to sizes: each dim of
/// `open` (from [`open_input_dims`]) becomes the known size at the same
/// position of `sizes`. Everything else is left for the front end to
/// derive: `name-dims` forgets the dims that named the bound symbols on
/// the other values, and inference sizes them from the inputs. Compiling
/// the result gives code for these sizes only: the shapes computed from
/// them fold to constants, and every kernel gets its static schedule.
pub fn bind_input_dims(model: &mut Model, open: &[OpenDim], sizes: &[i64]) {
    let inputs = passed_inputs(model);
    for (dim, &size) in open.iter().zip(sizes) {
        if let Type::Tensor(t) = &mut model.ir.value_mut(inputs[dim.input]).ty {
            if let Some(d) = t.shape.as_mut().and_then(|s| s.get_mut(dim.axis)) {
                *d = Dim::Known(size);
            }
        }
    }
}

/// Gives each unknown dim of tensor `v` a fresh symbol `"?<name>.<axis>"`
/// (`unnamed` standing for the name of a value without one).
fn name_unknown_dims(ir: &mut Ir, v: Value, unnamed: &str, taken: &mut HashSet<String>) {
    let name = ir
        .value(v)
        .name
        .clone()
        .unwrap_or_else(|| unnamed.to_string());
    if let Type::Tensor(t) = &mut ir.value_mut(v).ty {
        for (axis, d) in t.shape.iter_mut().flatten().enumerate() {
            if *d == Dim::Unknown {
                *d = Dim::param(&fresh(&format!("?{name}.{axis}"), taken));
            }
        }
    }
}

/// Every atom some type of the model names.
fn atoms_in_use(model: &Model) -> HashSet<String> {
    let mut taken: HashSet<String> = HashSet::new();
    for v in 0..model.ir.num_values() {
        visit_dims(&model.ir.value(Value::from_index(v)).ty, &mut |d| {
            taken.extend(d.atoms().into_iter().flatten().map(str::to_string))
        });
    }
    taken
}

/// `base`, or `base.1`, `base.2`, … : the first not in `taken` (then taken).
fn fresh(base: &str, taken: &mut HashSet<String>) -> String {
    let name = (0..)
        .map(|k| {
            if k == 0 {
                base.to_string()
            } else {
                format!("{base}.{k}")
            }
        })
        .find(|n| !taken.contains(n))
        .expect("a free name");
    taken.insert(name.clone());
    name
}

/// Makes unknown every dim of `v`'s type that names an atom no input
/// defines.
fn forget_undefined(ir: &mut Ir, v: Value, defined: &HashSet<String>) {
    visit_dims_mut(&mut ir.value_mut(v).ty, &mut |d| {
        if d.atoms()
            .is_some_and(|atoms| atoms.iter().any(|a| !defined.contains(*a)))
        {
            *d = Dim::Unknown;
        }
    });
}

fn visit_dims(ty: &Type, f: &mut impl FnMut(&Dim)) {
    match ty {
        Type::Tensor(t) | Type::SparseTensor(t) => t.dims().into_iter().flatten().for_each(f),
        Type::Sequence(inner) | Type::Map(_, inner) | Type::Optional(inner) => visit_dims(inner, f),
        Type::Unknown => {}
    }
}

fn visit_dims_mut(ty: &mut Type, f: &mut impl FnMut(&mut Dim)) {
    match ty {
        Type::Tensor(t) | Type::SparseTensor(t) => t.shape.iter_mut().flatten().for_each(f),
        Type::Sequence(inner) | Type::Map(_, inner) | Type::Optional(inner) => {
            visit_dims_mut(inner, f)
        }
        Type::Unknown => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::DEFAULT_PIPELINE;

    const MODEL: &str = r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x?x4xf32>, %w: tensor<4x3xf32>) -> ("y": tensor<"N"x?x3xf32>) {
  %y = "onnx.MatMul"(%x, %w) : (tensor<"N"x?x4xf32>, tensor<4x3xf32>) -> tensor<"N"x?x3xf32>
  onnx.return %y
}
"#;

    #[test]
    fn binding_the_open_input_dims_sizes_the_whole_graph() {
        let mut m = crate::parse_model(MODEL).unwrap();
        let open = open_input_dims(&m).unwrap();
        assert_eq!(
            open,
            [OpenDim { input: 0, axis: 0 }, OpenDim { input: 0, axis: 1 }]
        );
        bind_input_dims(&mut m, &open, &[2, 5]);
        for pass in DEFAULT_PIPELINE {
            (crate::passes::pass(pass).unwrap().run)(&mut m).unwrap();
        }
        assert_eq!(open_input_dims(&m).unwrap(), []);
        let out = m.ir.region(m.graph).outputs[0].value;
        assert_eq!(m.ir.ty(out).to_string(), "tensor<2x5x3xf32>");
    }

    #[test]
    fn inputs_of_unknown_rank_cannot_be_bound_by_position() {
        let m = crate::parse_model(
            r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<*xf32>) -> ("y": !onnx.unknown) {
  %y = "onnx.Relu"(%x) : (tensor<*xf32>) -> !onnx.unknown
  onnx.return %y
}
"#,
        )
        .unwrap();
        assert_eq!(open_input_dims(&m), None);
    }
}
