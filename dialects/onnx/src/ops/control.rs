//! Control flow: operators that run subgraphs.
//!
//! - `If` runs `then_branch` or `else_branch` (no inputs, N outputs).
//! - `Loop` runs `body(iteration_num, cond, v...) -> (cond, v..., scan...)`
//!   up to trip count `M` times while `cond` holds.
//! - `Scan` runs `body(state..., slices...) -> (state..., scan...)` once per
//!   slice of its scan inputs along their scan axes.
//!
//! Inference runs the subgraphs through [`InferCtx::infer_subgraph`] (which
//! also gives them the outer-scope values they use).
//!
//! - `If`: both branches are inferred; each result is the union of the two
//!   branch outputs ([`union_types`]: differing dims become unknown, differing
//!   ranks an unknown rank). Branches disagreeing on the kind or element type
//!   of a value is an error. When the condition is a known value, only the
//!   taken branch is inferred and gives the results (the other may not fit
//!   the shapes at hand: function bodies branch on the input rank).
//!   Known integer values of the outputs (shape computations) pass
//!   through, from the taken branch or when both branches agree.
//!   Versions 1–25 (11+ allow sequences, 16+ optionals; the rule is the
//!   same).
//! - `Loop` and `Scan` carry values from one iteration to the next, and a
//!   carried value may change shape across iterations (a sequence that grows,
//!   a tensor concatenated to). The body is inferred with the initial carried
//!   types, then again with each carried type widened to the union of what
//!   enters and what leaves the body, until nothing changes; the results are
//!   those fixpoint types. Termination: each round only loses information.
//!   Two refinements: a sequence known to start empty takes the type the
//!   body gives it after the first round (its elements are all the body's),
//!   and an optional may enter and leave as its value (the spec's tests do
//!   this), in which case the body sees an optional and the result is the
//!   value's type (or a value enter and leave wrapped in an optional: it is
//!   then carried as one, and the body receives the value).
//! - A `Loop` body's declared input types count for the first iteration
//!   only, and the shapes declared for the values it computes are
//!   forgotten: they may describe the first iteration only (the backend's
//!   `test_loop16_seq_none` declares scalar elements for a sequence its
//!   body appends 1-D slices to). ONNX's Loop inference drops the carried
//!   shapes for the same reason.
//! - `Loop` (versions 1–25): results are the N final carried values and the K
//!   scan outputs, each the body's per-iteration tensor with a leading
//!   iteration dim. That dim is `M` when `cond` is absent (the loop then runs
//!   exactly `M` times) and `M` is known, and unknown otherwise.
//! - `Scan` version 8: input 0 is the optional `sequence_lens`; state values
//!   are `[batch, ...]` and scan inputs `[batch, seq, ...]`; the body sees
//!   them without those leading dims, scan outputs are `[batch, seq, ...]`.
//!   Versions 9–25: no batch dim; each scan input is sliced along its
//!   `scan_input_axes` entry (default 0) and each scan output stacks along its
//!   `scan_output_axes` entry. All scan inputs must agree on the sequence
//!   length.

use super::sequence::sequence_len;
use crate::dim::Dim;
use crate::ir::RegionId;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::knowledge::SymTensor;
use crate::ops::shape::{fmt_dims, known_tensor, normalize_axis, unify, union_types};
use crate::schema::ControlOp;
use crate::types::{erase_shapes, merge_types, ElemType, TensorType, Type};

pub(crate) fn infer(op: ControlOp, cx: &mut InferCtx) -> Result<(), Fail> {
    match op {
        ControlOp::If => infer_if(cx),
        ControlOp::Loop => infer_loop(cx),
        ControlOp::Scan => infer_scan(cx),
    }
}

fn infer_if(cx: &mut InferCtx) -> Result<(), Fail> {
    // (A condition of unknown type does not keep the branches from being
    // inferred.)
    if let Some(n) = cx
        .input_type(0)
        .and_then(Type::as_tensor)
        .and_then(TensorType::static_numel)
    {
        if n != 1 {
            return Err(invalid!("'cond' must hold a single element, it has {n}"));
        }
    }
    let then_branch = cx.graph("then_branch")?;
    let else_branch = cx.graph("else_branch")?;
    let counts = [then_branch, else_branch].map(|r| cx.ir().region(r).outputs.len());
    if counts[0] != counts[1] {
        return Err(invalid!(
            "then_branch has {} outputs but else_branch has {}",
            counts[0],
            counts[1]
        ));
    }
    if counts[0] != cx.num_outputs() {
        return Err(invalid!(
            "the branches have {} outputs but the op has {} results",
            counts[0],
            cx.num_outputs()
        ));
    }
    let taken = match cx.const_ints(0).as_deref() {
        Some(&[c]) => Some(if c != 0 { then_branch } else { else_branch }),
        _ => None,
    };
    let (types, values) = match taken {
        // A branch that never runs may not even fit the shapes at hand
        // (a function body handling several ranks): only the taken one
        // is inferred.
        Some(branch) => {
            let types = cx.infer_subgraph(branch, &[])?;
            (types, branch_values(cx, branch))
        }
        None => {
            let then_types = cx.infer_subgraph(then_branch, &[])?;
            let else_types = cx.infer_subgraph(else_branch, &[])?;
            let types = then_types
                .into_iter()
                .zip(else_types)
                .enumerate()
                .map(|(i, (a, b))| {
                    union_types(&a, &b).ok_or_else(|| {
                        invalid!("output {i} is {a} in then_branch but {b} in else_branch")
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            // A value both branches agree on is known either way.
            let values = branch_values(cx, then_branch)
                .into_iter()
                .zip(branch_values(cx, else_branch))
                .map(|(a, b)| a.filter(|a| Some(a) == b.as_ref()))
                .collect();
            (types, values)
        }
    };
    for (i, (ty, value)) in types.into_iter().zip(values).enumerate() {
        if ty != Type::Unknown {
            cx.set_type(i, ty);
        }
        if let Some(value) = value {
            cx.set_value(i, value);
        }
    }
    Ok(())
}

/// The known values of a branch's outputs.
fn branch_values(cx: &InferCtx, branch: RegionId) -> Vec<Option<SymTensor>> {
    let outputs = &cx.ir().region(branch).outputs;
    outputs
        .iter()
        .map(|o| cx.value_of(o.value).cloned())
        .collect()
}

fn infer_loop(cx: &mut InferCtx) -> Result<(), Fail> {
    let body = cx.graph("body")?;
    let initial = (2..cx.num_inputs())
        .map(|i| {
            cx.input_type(i)
                .cloned()
                .ok_or_else(|| invalid!("loop-carried input {i} is missing"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let n_carried = initial.len();
    let empty: Vec<bool> = (2..cx.num_inputs())
        .map(|i| {
            let v = cx.op().inputs[i].expect("checked above");
            sequence_len(cx.ir(), v) == Some(Dim::Known(0))
        })
        .collect();
    let iteration = scalar_arg(cx, body, 0, ElemType::I64);
    let cond = match cx.input_type(1) {
        Some(t) => t.clone(),
        None => scalar_arg(cx, body, 1, ElemType::Bool),
    };
    let passed = [iteration, cond].into_iter().chain(initial).collect();
    let mut first = first_iteration(cx, body, passed)?;
    let initial = first.split_off(2);
    // The shapes the body declares for its carried values, and for what it
    // computes from them, may hold for the first iteration only
    // (test_loop16_seq_none declares scalar elements for the sequence it
    // appends 1-D slices to, in the body and in its If's branches). ONNX's
    // Loop inference passes the carried types without shapes for that
    // reason ("shape may change across iterations") and leaves the carried
    // results without shapes. Here the body's declared input types count
    // for the first iteration; the rest is inferred, and the fixpoint finds
    // the shapes of all iterations.
    cx.forget_declared_shapes(body);
    let (carried, outs) = infer_body(cx, body, &first, initial, &empty, &[], 1)?;
    let n_results = cx.num_outputs();
    if outs.len() != n_results + 1 || n_results < n_carried {
        return Err(invalid!(
            "the body has {} outputs; a Loop with {n_carried} loop-carried values and {n_results} results needs {}",
            outs.len(),
            n_results + 1
        ));
    }
    match &outs[0] {
        Type::Unknown => {}
        Type::Tensor(t) if t.elem == ElemType::Bool => {}
        other => {
            return Err(invalid!(
                "the body's first output (the condition) must be a bool tensor, got {other}"
            ))
        }
    }
    for (j, ty) in carried.into_iter().enumerate() {
        // An optional may enter and its value leave (the spec's own tests
        // do so): the result is then the value's type, as onnx infers it.
        // (A value that leaves wrapped in an optional is carried as one.)
        let ty = match (&ty, &outs[j + 1]) {
            (Type::Optional(_), exit) if !matches!(exit, Type::Optional(_) | Type::Unknown) => {
                exit.clone()
            }
            _ => ty,
        };
        if ty != Type::Unknown {
            cx.set_type(j, ty);
        }
    }
    let trips = trip_count(cx);
    for k in n_carried..n_results {
        match &outs[k + 1] {
            Type::Unknown => {}
            Type::Tensor(t) => {
                let shape = t.shape.as_ref().map(|d| {
                    std::iter::once(trips.clone())
                        .chain(d.iter().cloned())
                        .collect()
                });
                cx.set_type(
                    k,
                    Type::Tensor(TensorType {
                        elem: t.elem,
                        shape,
                    }),
                );
            }
            other => {
                return Err(invalid!(
                    "scan output {} of the body must be a tensor, got {other}",
                    k - n_carried
                ))
            }
        }
    }
    Ok(())
}

/// The number of iterations of a `Loop`, when known: `M`, if the loop has
/// no condition input (it then runs exactly `M` times).
fn trip_count(cx: &InferCtx) -> Dim {
    if cx.has_input(1) || !cx.has_input(0) {
        return Dim::Unknown;
    }
    match cx.sym_vector(0).as_deref() {
        Some([Dim::Known(m)]) => Dim::Known((*m).max(0)),
        Some([m]) => m.clone(),
        _ => Dim::Unknown,
    }
}

/// The type given to a scalar argument of a loop body (iteration number,
/// condition): a scalar, unless the body declares it otherwise (runtimes
/// also accept a 1-element tensor), in which case the declaration stands.
fn scalar_arg(cx: &InferCtx, body: RegionId, index: usize, elem: ElemType) -> Type {
    let scalar = Type::Tensor(TensorType::with_dims(elem, vec![]));
    let declared = cx
        .ir()
        .region(body)
        .args
        .get(index)
        .map(|a| cx.ir().ty(a.value));
    match declared {
        Some(d) if merge_types(d, &scalar).is_none() => Type::Tensor(TensorType::unranked(elem)),
        _ => scalar,
    }
}

/// The types of the body's inputs in the first iteration: the `passed`
/// types merged with what the body declares.
fn first_iteration(cx: &InferCtx, body: RegionId, passed: Vec<Type>) -> Result<Vec<Type>, Fail> {
    let args = &cx.ir().region(body).args;
    passed
        .into_iter()
        .enumerate()
        .map(|(i, ty)| {
            let Some(arg) = args.get(i) else {
                return Ok(ty);
            };
            let declared = cx.ir().ty(arg.value);
            merge_types(declared, &ty).ok_or_else(|| {
                invalid!("body input {i} is declared as {declared} but receives {ty}")
            })
        })
        .collect()
}

/// Infers a loop body whose arguments are `before`, the carried values,
/// then `after`, and whose outputs from `out_offset` on are the carried
/// values of the next iteration, widening the carried types until they
/// are stable. Returns the stable carried types and the body's output
/// types under them.
///
/// A carried value marked `empty` starts as a sequence known to be empty:
/// its element type says nothing about elements, so after the first round
/// it takes the type the body gives it (an empty sequence grown in a loop
/// gets the type of what the loop inserts).
fn infer_body(
    cx: &mut InferCtx,
    body: RegionId,
    before: &[Type],
    mut carried: Vec<Type>,
    empty: &[bool],
    after: &[Type],
    out_offset: usize,
) -> Result<(Vec<Type>, Vec<Type>), Fail> {
    let mut first = true;
    loop {
        let declared = &cx.ir().region(body).args;
        let args: Vec<Type> = before
            .iter()
            .cloned()
            .chain(carried.iter().enumerate().map(|(j, ty)| {
                let d = declared.get(before.len() + j).map(|a| cx.ir().ty(a.value));
                as_declared(ty, d.unwrap_or(&Type::Unknown))
            }))
            .chain(after.iter().cloned())
            .collect();
        let outs = cx.infer_subgraph(body, &args)?;
        let Some(exits) = outs.get(out_offset..out_offset + carried.len()) else {
            return Err(invalid!(
                "the body has {} outputs, too few for its {} loop-carried values",
                outs.len(),
                carried.len()
            ));
        };
        let next = carried
            .iter()
            .zip(exits)
            .enumerate()
            .map(|(j, (entry, exit))| {
                let widened = widen(entry, exit).ok_or_else(|| {
                    invalid!(
                        "loop-carried value {j} enters the body as {entry} but leaves it as {exit}"
                    )
                })?;
                let starts_empty = first && empty.get(j) == Some(&true);
                Ok(if starts_empty && matches!(exit, Type::Sequence(_)) {
                    exit.clone()
                } else {
                    widened
                })
            })
            .collect::<Result<Vec<_>, Fail>>()?;
        if next == carried {
            return Ok((carried, outs));
        }
        carried = next;
        first = false;
    }
}

/// The type of a carried value over all iterations so far, when it enters
/// the body as `entry` and leaves as `exit`. A body that could not be
/// inferred says nothing about shapes, but the value keeps its type.
fn widen(entry: &Type, exit: &Type) -> Option<Type> {
    let plain = |t: &Type| !matches!(t, Type::Optional(_) | Type::Unknown);
    match (entry, exit) {
        (_, Type::Unknown) => Some(erase_shapes(entry)),
        // An optional value may leave as its (present) value, and a value
        // wrapped in an optional: it is then carried as an optional.
        (Type::Optional(inner), _) if plain(exit) => {
            Some(Type::Optional(Box::new(union_types(inner, exit)?)))
        }
        (_, Type::Optional(inner)) if plain(entry) => {
            Some(Type::Optional(Box::new(union_types(entry, inner)?)))
        }
        _ => union_types(entry, exit),
    }
}

/// A carried value of type `ty` as the body input declared as `declared`
/// receives it: the value an optional holds when the input is not an
/// optional, and the value wrapped when it is (onnxruntime passes them so;
/// the verifier's `control-flow` rule allows nothing else).
fn as_declared(ty: &Type, declared: &Type) -> Type {
    let plain = |t: &Type| !matches!(t, Type::Optional(_) | Type::Unknown);
    match ty {
        Type::Optional(inner) if plain(declared) => (**inner).clone(),
        _ if plain(ty) && matches!(declared, Type::Optional(_)) => {
            Type::Optional(Box::new(ty.clone()))
        }
        _ => ty.clone(),
    }
}

/// The tensor type of input `i`; `None` when its type is unknown.
fn tensor_or_unknown(cx: &InferCtx, i: usize) -> Result<Option<TensorType>, Fail> {
    match cx.input_type(i) {
        None => Err(invalid!("input {i} is missing")),
        Some(Type::Unknown) => Ok(None),
        Some(Type::Tensor(t)) => Ok(Some(t.clone())),
        Some(other) => Err(invalid!(
            "Scan inputs must be tensors, input {i} is {other}"
        )),
    }
}

/// `t` without the dims `axes` (sorted), each merged into its slot of
/// `removed` (dims that all inputs must agree on).
fn remove_dims(
    t: Option<TensorType>,
    input: usize,
    axes: &[usize],
    removed: &mut [&mut Dim],
    names: &[&str],
) -> Result<Type, Fail> {
    let Some(t) = t else { return Ok(Type::Unknown) };
    let Some(dims) = t.shape else {
        return Ok(Type::Tensor(t));
    };
    if axes.iter().any(|&a| a >= dims.len()) {
        return Err(invalid!(
            "input {input} of shape {} lacks the {} dims",
            fmt_dims(&dims),
            names.join(" and ")
        ));
    }
    for ((&axis, slot), name) in axes.iter().zip(removed.iter_mut()).zip(names) {
        unify(slot, &dims[axis], || {
            format!("the {name} (dim {axis} of input {input})")
        })?;
    }
    let kept = dims
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !axes.contains(i))
        .map(|(_, d)| d)
        .collect();
    Ok(Type::Tensor(TensorType::with_dims(t.elem, kept)))
}

/// Checks an optional per-input INTS attribute of a Scan: its length, and
/// that each entry is 0 or 1 when `flags` is set. Returns its values.
fn scan_list(
    cx: &InferCtx,
    name: &str,
    len: usize,
    what: &str,
    flags: bool,
) -> Result<Option<Vec<i64>>, Fail> {
    let Some(values) = cx.ints_opt(name)? else {
        return Ok(None);
    };
    if values.len() != len {
        return Err(invalid!(
            "'{name}' has {} entries for {len} {what}",
            values.len()
        ));
    }
    if flags {
        if let Some(v) = values.iter().find(|&&v| v != 0 && v != 1) {
            return Err(invalid!("'{name}' entries must be 0 or 1, got {v}"));
        }
    }
    Ok(Some(values))
}

fn infer_scan(cx: &mut InferCtx) -> Result<(), Fail> {
    let opset8 = cx.version() < 9;
    let body = cx.graph("body")?;
    let first = usize::from(opset8);
    let n_inputs = cx.num_inputs().saturating_sub(first);
    let m = cx.int("num_scan_inputs")?;
    let m = usize::try_from(m)
        .ok()
        .filter(|&m| m <= n_inputs)
        .ok_or_else(|| {
            invalid!("'num_scan_inputs' = {m}, but the op has {n_inputs} state and scan inputs")
        })?;
    let n_state = n_inputs - m;
    let n_out = cx.num_outputs();
    let k = n_out.checked_sub(n_state).ok_or_else(|| {
        invalid!("{n_state} state values need as many results, the op has {n_out}")
    })?;

    let mut batch = Dim::Unknown;
    let mut seq_len = Dim::Unknown;
    let mut state = Vec::with_capacity(n_state);
    let mut slices = Vec::with_capacity(m);
    let out_axes;
    if opset8 {
        scan_list(cx, "directions", m, "scan inputs", true)?;
        if let Some(lens) = known_tensor(cx, 0)? {
            if let Some(dims) = lens.dims() {
                match dims {
                    [b] => unify(&mut batch, b, || {
                        "the batch size (dim 0 of 'sequence_lens')".into()
                    })?,
                    _ => {
                        return Err(invalid!(
                            "'sequence_lens' must be 1-D, got shape {}",
                            fmt_dims(dims)
                        ))
                    }
                }
            }
        }
        for i in first..first + n_state {
            state.push(remove_dims(
                tensor_or_unknown(cx, i)?,
                i,
                &[0],
                &mut [&mut batch],
                &["batch size"],
            )?);
        }
        for i in first + n_state..first + n_inputs {
            let t = tensor_or_unknown(cx, i)?;
            slices.push(remove_dims(
                t,
                i,
                &[0, 1],
                &mut [&mut batch, &mut seq_len],
                &["batch size", "sequence length"],
            )?);
        }
        out_axes = vec![];
    } else {
        let in_axes = scan_list(cx, "scan_input_axes", m, "scan inputs", false)?
            .unwrap_or_else(|| vec![0; m]);
        scan_list(cx, "scan_input_directions", m, "scan inputs", true)?;
        scan_list(cx, "scan_output_directions", k, "scan outputs", true)?;
        out_axes = scan_list(cx, "scan_output_axes", k, "scan outputs", false)?
            .unwrap_or_else(|| vec![0; k]);
        for i in 0..n_state {
            state.push(tensor_or_unknown(cx, i)?.map_or(Type::Unknown, Type::Tensor));
        }
        for (j, &axis) in in_axes.iter().enumerate() {
            let i = n_state + j;
            let t = tensor_or_unknown(cx, i)?;
            // An input of unknown rank gives a slice of unknown rank.
            let axes = match t.as_ref().and_then(TensorType::rank) {
                Some(rank) => vec![normalize_axis(axis, rank)
                    .map_err(|_| invalid!("'scan_input_axes' entry {axis} is out of range for input {i} of rank {rank}"))?],
                None => vec![],
            };
            slices.push(remove_dims(
                t,
                i,
                &axes,
                &mut [&mut seq_len],
                &["sequence length"],
            )?);
        }
    }

    let (state, outs) = infer_body(cx, body, &[], state, &[], &slices, 0)?;
    if outs.len() != n_out {
        return Err(invalid!(
            "the body has {} outputs but the op has {n_out} results",
            outs.len()
        ));
    }
    for (j, ty) in state.into_iter().enumerate() {
        // Not a tensor: unknown (the inputs are checked to be tensors).
        let Type::Tensor(t) = ty else { continue };
        let shape = match t.shape {
            Some(dims) if opset8 => Some(std::iter::once(batch.clone()).chain(dims).collect()),
            shape => shape,
        };
        cx.set_type(
            j,
            Type::Tensor(TensorType {
                elem: t.elem,
                shape,
            }),
        );
    }
    for j in 0..k {
        let t = match &outs[n_state + j] {
            Type::Unknown => continue,
            Type::Tensor(t) => t,
            other => {
                return Err(invalid!(
                    "scan output {j} of the body must be a tensor, got {other}"
                ))
            }
        };
        let shape = match &t.shape {
            None => None,
            Some(dims) if opset8 => Some(
                [batch.clone(), seq_len.clone()]
                    .into_iter()
                    .chain(dims.iter().cloned())
                    .collect(),
            ),
            Some(dims) => {
                let axis = normalize_axis(out_axes[j], dims.len() + 1).map_err(|_| {
                    invalid!("'scan_output_axes' entry {} is out of range for scan output {j} of rank {}", out_axes[j], dims.len() + 1)
                })?;
                let mut dims = dims.clone();
                dims.insert(axis, seq_len.clone());
                Some(dims)
            }
        };
        cx.set_type(
            n_state + j,
            Type::Tensor(TensorType {
                elem: t.elem,
                shape,
            }),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{opt, seq, t, Graph};
    use crate::attr::Attr;
    use crate::ir::{RegionId, Value};
    use crate::schema::OpKind::*;
    use crate::tensor::TensorData;
    use crate::types::{ElemType, Type};

    /// A branch that returns `x + x` for a main-graph (outer-scope) value.
    fn doubling_branch(g: &mut Graph, name: &str, x: Value) -> RegionId {
        let r = g.region(name);
        let y = g.node(r, Add, 14, &[Some(x), Some(x)], &[true], &[])[0].unwrap();
        g.output(r, y);
        r
    }

    fn if_op(g: &mut Graph, cond: Value, then: RegionId, els: RegionId, n: usize) -> Vec<Value> {
        let attrs = vec![
            ("then_branch", Attr::Graph(then)),
            ("else_branch", Attr::Graph(els)),
        ];
        g.op_at(If, 21, &[cond], &attrs, n)
    }

    #[test]
    fn if_merges_branches() {
        // Backend test_if: both branches give float[5].
        let mut g = Graph::new(28);
        let cond = g.input(t("i1"));
        let a = g.input(t("5xf32"));
        let b = g.input(t("5xf32"));
        let (then, els) = (
            doubling_branch(&mut g, "then", a),
            doubling_branch(&mut g, "else", b),
        );
        let res = if_op(&mut g, cond, then, els, 1);
        g.infer().unwrap();
        assert_eq!(g.ty(res[0]), "tensor<5xf32>");
    }

    #[test]
    fn if_branches_that_disagree_generalize() {
        let mut g = Graph::new(28);
        let cond = g.input(t("i1"));
        let cases = [
            ("Nx2xf32", "Nx3xf32", r#"tensor<"N"x?xf32>"#),
            ("2xf32", "2x2xf32", "tensor<*xf32>"),
            ("Nxf32", "Nxf32", r#"tensor<"N"xf32>"#),
        ];
        let mut results = vec![];
        for (a, b, _) in &cases {
            let a = g.input(t(a));
            let b = g.input(t(b));
            let (then, els) = (
                doubling_branch(&mut g, "then", a),
                doubling_branch(&mut g, "else", b),
            );
            results.push(if_op(&mut g, cond, then, els, 1)[0]);
        }
        g.infer().unwrap();
        for (v, (_, _, expected)) in results.into_iter().zip(cases) {
            assert_eq!(g.ty(v), expected);
        }
    }

    #[test]
    fn if_with_constant_condition_takes_one_branch() {
        let mut g = Graph::new(28);
        let cond =
            g.constant(TensorData::from_raw(ElemType::Bool, vec![], vec![0u8].into()).unwrap());
        let a = g.input(t("2xf32"));
        let b = g.input(t("3xf32"));
        // The branch not taken would not even infer: [2] + [3].
        let then = g.region("then");
        let bad = g.node(then, Add, 14, &[Some(a), Some(b)], &[true], &[])[0].unwrap();
        g.output(then, bad);
        let els = doubling_branch(&mut g, "else", b);
        let res = if_op(&mut g, cond, then, els, 1);
        g.infer().unwrap();
        assert_eq!(g.ty(res[0]), "tensor<3xf32>");
        assert_eq!(g.ty(bad), "!onnx.unknown");
    }

    #[test]
    fn if_passes_known_values_through() {
        let mut g = Graph::new(28);
        let cond = g.input(t("i1"));
        let yes =
            g.constant(TensorData::from_raw(ElemType::Bool, vec![], vec![1u8].into()).unwrap());
        let a = g.constant(TensorData::i64s(&[1, 2]));
        let b = g.constant(TensorData::i64s(&[1, 3]));
        let branches =
            |g: &mut Graph, x, y| (doubling_branch(g, "then", x), doubling_branch(g, "else", y));
        let (t1, e1) = branches(&mut g, a, a);
        let agree = if_op(&mut g, cond, t1, e1, 1)[0];
        let (t2, e2) = branches(&mut g, a, b);
        let differ = if_op(&mut g, cond, t2, e2, 1)[0];
        let (t3, e3) = branches(&mut g, a, b);
        let taken = if_op(&mut g, yes, t3, e3, 1)[0];
        let k = g.infer().unwrap();
        let known = |v| {
            k.values
                .get(&v)
                .and_then(crate::ops::knowledge::SymTensor::as_known)
        };
        assert_eq!(known(agree), Some(vec![2, 4]));
        assert_eq!(known(differ), None);
        assert_eq!(known(taken), Some(vec![2, 4]));
        assert_eq!(g.ty(differ), "tensor<2xi64>");
    }

    #[test]
    fn if_rejects_contradictory_branches() {
        let mut g = Graph::new(28);
        let cond = g.input(t("i1"));
        let a = g.input(t("2xf32"));
        let b = g.input(t("2xi64"));
        let (then, els) = (
            doubling_branch(&mut g, "then", a),
            doubling_branch(&mut g, "else", b),
        );
        if_op(&mut g, cond, then, els, 1);
        assert!(g.infer_err().ends_with(
            "output 0 is tensor<2xf32> in then_branch but tensor<2xi64> in else_branch"
        ));

        let mut g = Graph::new(28);
        let cond = g.input(t("2xi1"));
        let a = g.input(t("2xf32"));
        let (then, els) = (
            doubling_branch(&mut g, "then", a),
            doubling_branch(&mut g, "else", a),
        );
        if_op(&mut g, cond, then, els, 1);
        assert!(g
            .infer_err()
            .ends_with("'cond' must hold a single element, it has 2"));

        let mut g = Graph::new(28);
        let cond = g.input(t("i1"));
        let a = g.input(t("2xf32"));
        let then = doubling_branch(&mut g, "then", a);
        let els = g.region("else");
        if_op(&mut g, cond, then, els, 1);
        assert!(g
            .infer_err()
            .ends_with("then_branch has 1 outputs but else_branch has 0"));
    }

    /// A Loop body `(i, cond, y) -> (cond, y + c, y + c)` whose constant `c`
    /// (a body input fed from the main graph) has type `c`.
    struct LoopBody {
        region: RegionId,
        y: Value,
    }

    fn add_body(g: &mut Graph, y: Type, c: Value) -> LoopBody {
        let r = g.region("body");
        g.arg(r, t("i64"));
        let cond = g.arg(r, t("i1"));
        let y = g.arg(r, y);
        let sum = g.node(r, Add, 14, &[Some(y), Some(c)], &[true], &[])[0].unwrap();
        g.output(r, cond);
        g.output(r, sum);
        g.output(r, sum);
        LoopBody { region: r, y }
    }

    #[test]
    fn loop_carries_state_and_stacks_scan_outputs() {
        // Backend test_loop11: y: float[1] carried, scan output float[1]
        // stacked over 5 iterations (expected data: [1] and [5, 1]).
        let mut g = Graph::new(28);
        let m = g.input(t("i64"));
        let cond = g.input(t("i1"));
        let y = g.input(t("1xf32"));
        let c = g.input(t("1xf32"));
        let body = add_body(&mut g, Type::Unknown, c);
        let res = g.op_at(
            Loop,
            11,
            &[m, cond, y],
            &[("body", Attr::Graph(body.region))],
            2,
        );
        g.infer().unwrap();
        assert_eq!(g.ty(res[0]), "tensor<1xf32>");
        assert_eq!(g.ty(res[1]), "tensor<?x1xf32>");
    }

    #[test]
    fn loop_state_that_changes_shape_is_generalized() {
        // y enters as [1]; y + c broadcasts to [2]: the carried type is [?]
        // in every iteration, body included.
        let mut g = Graph::new(28);
        let y = g.input(t("1xf32"));
        let c = g.input(t("2xf32"));
        let m = g.input(t("i64"));
        let body = add_body(&mut g, Type::Unknown, c);
        let main = g.main();
        let res = g.node(
            main,
            Loop,
            21,
            &[Some(m), None, Some(y)],
            &[true, true],
            &[("body", Attr::Graph(body.region))],
        );
        g.infer().unwrap();
        assert_eq!(g.ty(res[0].unwrap()), "tensor<?xf32>");
        assert_eq!(g.ty(body.y), "tensor<?xf32>");
        assert_eq!(g.ty(res[1].unwrap()), "tensor<?x2xf32>");

        // A rank change generalizes to unknown rank; the body cannot say
        // more about its scan output then.
        let mut g = Graph::new(28);
        let y = g.input(t("1xf32"));
        let c = g.input(t("2x1xf32"));
        let body = add_body(&mut g, Type::Unknown, c);
        let main = g.main();
        let res = g.node(
            main,
            Loop,
            21,
            &[None, None, Some(y)],
            &[true, true],
            &[("body", Attr::Graph(body.region))],
        );
        g.infer().unwrap();
        assert_eq!(g.ty(res[0].unwrap()), "tensor<*xf32>");
        assert_eq!(g.ty(res[1].unwrap()), "!onnx.unknown");
    }

    #[test]
    fn loop_without_condition_runs_trip_count_times() {
        let mut g = Graph::new(28);
        let main = g.main();
        let m = g.constant(TensorData::scalar(5i64));
        let y = g.input(t("Nxf32"));
        let c = g.input(t("Nxf32"));
        let body = add_body(&mut g, Type::Unknown, c);
        let res = g.node(
            main,
            Loop,
            21,
            &[Some(m), None, Some(y)],
            &[true, true],
            &[("body", Attr::Graph(body.region))],
        );
        g.infer().unwrap();
        assert_eq!(g.ty(res[0].unwrap()), r#"tensor<"N"xf32>"#);
        assert_eq!(g.ty(res[1].unwrap()), r#"tensor<5x"N"xf32>"#);
    }

    #[test]
    fn loop_grows_a_sequence() {
        // Backend test_loop13_seq: an empty sequence carried through a body
        // that inserts a float[1] each iteration (expected data: 5 float[1]).
        let mut g = Graph::new(28);
        let m = g.input(t("i64"));
        let cond = g.input(t("i1"));
        let x = g.input(t("1xf32"));
        let empty = g.op_at(SequenceEmpty, 21, &[], &[], 1)[0];
        let r = g.region("body");
        g.arg(r, t("i64"));
        let c = g.arg(r, t("i1"));
        let s = g.arg(r, Type::Unknown);
        let s2 = g.node(r, SequenceInsert, 21, &[Some(s), Some(x)], &[true], &[])[0].unwrap();
        g.output(r, c);
        g.output(r, s2);
        let res = g.op_at(Loop, 13, &[m, cond, empty], &[("body", Attr::Graph(r))], 1);
        g.infer().unwrap();
        assert_eq!(g.ty(res[0]), "!onnx.seq<tensor<*xf32>>");
        assert_eq!(g.ty(s), "!onnx.seq<tensor<*xf32>>");

        // The body declares the elements it works on (as SequenceMap's
        // function body does): the sequence starts empty, so its elements
        // are all of that type.
        let mut g = Graph::new(28);
        let x = g.input(t("1xf32"));
        let empty = g.op_at(SequenceEmpty, 21, &[], &[], 1)[0];
        let r = g.region("body");
        g.arg(r, t("i64"));
        let c = g.arg(r, t("i1"));
        let s = g.arg(r, seq(t("1xf32")));
        let s2 = g.node(r, SequenceInsert, 21, &[Some(s), Some(x)], &[true], &[])[0].unwrap();
        g.output(r, c);
        g.output(r, s2);
        let main = g.main();
        let attrs = vec![("body", Attr::Graph(r))];
        let res = g.node(main, Loop, 21, &[None, None, Some(empty)], &[true], &attrs)[0].unwrap();
        g.infer().unwrap();
        assert_eq!(g.ty(res), "!onnx.seq<tensor<1xf32>>");
    }

    #[test]
    fn loop_carries_an_optional_that_leaves_as_its_value() {
        // Backend test_loop16_seq_none: an optional sequence enters, the
        // body returns a plain sequence; the Loop returns a sequence.
        let mut g = Graph::new(28);
        let o = g.input(opt(seq(t("f32"))));
        let x = g.input(t("1xf32"));
        let r = g.region("body");
        g.arg(r, t("i64"));
        let c = g.arg(r, t("i1"));
        let s = g.arg(r, Type::Unknown);
        let value = g.node(r, OptionalGetElement, 18, &[Some(s)], &[true], &[])[0].unwrap();
        let grown =
            g.node(r, SequenceInsert, 21, &[Some(value), Some(x)], &[true], &[])[0].unwrap();
        g.output(r, c);
        g.output(r, grown);
        let main = g.main();
        let attrs = vec![("body", Attr::Graph(r))];
        let res = g.node(main, Loop, 16, &[None, None, Some(o)], &[true], &attrs)[0].unwrap();
        g.infer().unwrap();
        assert_eq!(g.ty(s), "!onnx.opt<!onnx.seq<tensor<*xf32>>>");
        assert_eq!(g.ty(res), "!onnx.seq<tensor<*xf32>>");
    }

    #[test]
    fn loop_body_declarations_hold_for_the_first_iteration_only() {
        // Backend test_loop16_seq_none declares scalar elements for its
        // carried sequence everywhere in the body, but appends 1-D slices
        // to it: after the first iteration the elements are of both ranks.
        let mut g = Graph::new(28);
        let o = g.input(opt(seq(t("f32"))));
        let x = g.input(t("?xf32"));
        let r = g.region("body");
        g.arg(r, t("i64"));
        let c = g.arg(r, t("i1"));
        let s = g.arg(r, opt(seq(t("f32"))));
        let value = g.node(r, OptionalGetElement, 18, &[Some(s)], &[true], &[])[0].unwrap();
        let grown =
            g.node(r, SequenceInsert, 21, &[Some(value), Some(x)], &[true], &[])[0].unwrap();
        for v in [value, grown] {
            g.model.ir.value_mut(v).ty = seq(t("f32"));
        }
        g.output(r, c);
        g.output(r, grown);
        let main = g.main();
        let attrs = vec![("body", Attr::Graph(r))];
        let res = g.node(main, Loop, 16, &[None, None, Some(o)], &[true], &attrs)[0].unwrap();
        g.infer().unwrap();
        assert_eq!(g.ty(s), "!onnx.opt<!onnx.seq<tensor<*xf32>>>");
        assert_eq!(g.ty(value), "!onnx.seq<tensor<*xf32>>");
        assert_eq!(g.ty(grown), "!onnx.seq<tensor<*xf32>>");
        assert_eq!(g.ty(res), "!onnx.seq<tensor<*xf32>>");

        // The reverse: a sequence enters, and leaves wrapped in an optional
        // (onnxruntime unwraps it for the next iteration).
        let mut g = Graph::new(28);
        let s0 = g.input(seq(t("1xf32")));
        let x = g.input(t("1xf32"));
        let r = g.region("body");
        g.arg(r, t("i64"));
        let c = g.arg(r, t("i1"));
        let s = g.arg(r, seq(t("1xf32")));
        let grown = g.node(r, SequenceInsert, 21, &[Some(s), Some(x)], &[true], &[])[0].unwrap();
        let wrapped = g.node(r, Optional, 18, &[Some(grown)], &[true], &[])[0].unwrap();
        g.output(r, c);
        g.output(r, wrapped);
        let main = g.main();
        let attrs = vec![("body", Attr::Graph(r))];
        let res = g.node(main, Loop, 16, &[None, None, Some(s0)], &[true], &attrs)[0].unwrap();
        g.infer().unwrap();
        assert_eq!(g.ty(s), "!onnx.seq<tensor<1xf32>>");
        assert_eq!(g.ty(res), "!onnx.opt<!onnx.seq<tensor<1xf32>>>");
    }

    #[test]
    fn loop_rejects_bad_bodies() {
        // The carried value changes element type.
        let mut g = Graph::new(28);
        let y = g.input(t("1xf32"));
        let r = g.region("body");
        g.arg(r, t("i64"));
        let cond = g.arg(r, t("i1"));
        let y_in = g.arg(r, Type::Unknown);
        let y_out =
            g.node(r, Cast, 21, &[Some(y_in)], &[true], &[("to", Attr::Int(7))])[0].unwrap();
        g.output(r, cond);
        g.output(r, y_out);
        let main = g.main();
        g.node(
            main,
            Loop,
            21,
            &[None, None, Some(y)],
            &[true],
            &[("body", Attr::Graph(r))],
        );
        assert!(g.infer_err().ends_with(
            "loop-carried value 0 enters the body as tensor<1xf32> but leaves it as tensor<1xi64>"
        ));

        // The body has a scan output the op has no result for.
        let mut g = Graph::new(28);
        let y = g.input(t("1xf32"));
        let body = add_body(&mut g, Type::Unknown, y);
        let main = g.main();
        g.node(
            main,
            Loop,
            21,
            &[None, None, Some(y)],
            &[true],
            &[("body", Attr::Graph(body.region))],
        );
        assert!(g.infer_err().ends_with(
            "the body has 3 outputs; a Loop with 1 loop-carried values and 1 results needs 2"
        ));
    }

    /// A Scan body `(sum, x) -> (sum + x, sum + x)`.
    fn sum_body(g: &mut Graph) -> RegionId {
        let r = g.region("body");
        let s = g.arg(r, Type::Unknown);
        let x = g.arg(r, Type::Unknown);
        let y = g.node(r, Add, 14, &[Some(s), Some(x)], &[true], &[])[0].unwrap();
        g.output(r, y);
        g.output(r, y);
        r
    }

    #[test]
    fn scan_slices_and_stacks() {
        // Backend test_scan9_sum: initial float[2], x float[3,2] -> y [2], z [3,2].
        let mut g = Graph::new(28);
        let init = g.input(t("2xf32"));
        let x = g.input(t("3x2xf32"));
        let body = sum_body(&mut g);
        let res = g.op_at(
            Scan,
            9,
            &[init, x],
            &[
                ("body", Attr::Graph(body)),
                ("num_scan_inputs", Attr::Int(1)),
            ],
            2,
        );
        g.infer().unwrap();
        assert_eq!(g.ty(res[0]), "tensor<2xf32>");
        assert_eq!(g.ty(res[1]), "tensor<3x2xf32>");

        // Scanning along axis 1 (counted from the back) and stacking on axis 1.
        let mut g = Graph::new(28);
        let init = g.input(t("Bxf32"));
        let x = g.input(t("BxSxf32"));
        let body = sum_body(&mut g);
        let attrs = vec![
            ("body", Attr::Graph(body)),
            ("num_scan_inputs", Attr::Int(1)),
            ("scan_input_axes", Attr::Ints(vec![-1])),
            ("scan_output_axes", Attr::Ints(vec![1])),
            ("scan_output_directions", Attr::Ints(vec![1])),
        ];
        let res = g.op_at(Scan, 25, &[init, x], &attrs, 2);
        g.infer().unwrap();
        assert_eq!(g.ty(res[0]), r#"tensor<"B"xf32>"#);
        assert_eq!(g.ty(res[1]), r#"tensor<"B"x"S"xf32>"#);
    }

    #[test]
    fn subgraph_initializers_declared_as_inputs_are_not_passed() {
        // IR version 3 lists a subgraph's initializers among its inputs,
        // after the real ones, with their values as defaults.
        let mut g = Graph::new(28);
        let init = g.input(t("2xf32"));
        let x = g.input(t("3x2xf32"));
        let body = sum_body(&mut g);
        let w = g.arg(body, t("2xf32"));
        let last = g.model.ir.region(body).args.len() - 1;
        g.model.ir.region_mut(body).args[last].default =
            Some(TensorData::from_vec(vec![2], &[1f32, 2.0]).unwrap());
        let attrs = vec![
            ("body", Attr::Graph(body)),
            ("num_scan_inputs", Attr::Int(1)),
        ];
        let res = g.op_at(Scan, 9, &[init, x], &attrs, 2);
        g.infer().unwrap();
        assert_eq!(g.ty(res[1]), "tensor<3x2xf32>");
        assert_eq!(g.ty(w), "tensor<2xf32>");
    }

    #[test]
    fn scan_opset8_has_a_batch_dim() {
        // Backend test_scan_sum: initial float[1,2], x float[1,3,2] -> [1,2], [1,3,2].
        let mut g = Graph::new(28);
        let init = g.input(t("1x2xf32"));
        let x = g.input(t("1x3x2xf32"));
        let body = sum_body(&mut g);
        let main = g.main();
        let attrs = vec![
            ("body", Attr::Graph(body)),
            ("num_scan_inputs", Attr::Int(1)),
        ];
        let res = g.node(
            main,
            Scan,
            8,
            &[None, Some(init), Some(x)],
            &[true, true],
            &attrs,
        );
        g.infer().unwrap();
        assert_eq!(g.ty(res[0].unwrap()), "tensor<1x2xf32>");
        assert_eq!(g.ty(res[1].unwrap()), "tensor<1x3x2xf32>");
    }

    #[test]
    fn scan_rejects_inconsistent_inputs() {
        let mut g = Graph::new(28);
        let init = g.input(t("2xf32"));
        let x = g.input(t("3x2xf32"));
        let x2 = g.input(t("4x2xf32"));
        let r = g.region("body");
        let s = g.arg(r, Type::Unknown);
        g.arg(r, Type::Unknown);
        g.arg(r, Type::Unknown);
        g.output(r, s);
        g.op_at(
            Scan,
            9,
            &[init, x, x2],
            &[("body", Attr::Graph(r)), ("num_scan_inputs", Attr::Int(2))],
            1,
        );
        assert!(g
            .infer_err()
            .ends_with("the sequence length (dim 0 of input 2) is 4 but must be 3"));

        let mut g = Graph::new(28);
        let init = g.input(t("2xf32"));
        let body = sum_body(&mut g);
        g.op_at(
            Scan,
            9,
            &[init],
            &[
                ("body", Attr::Graph(body)),
                ("num_scan_inputs", Attr::Int(2)),
            ],
            2,
        );
        assert!(g
            .infer_err()
            .ends_with("'num_scan_inputs' = 2, but the op has 1 state and scan inputs"));

        let mut g = Graph::new(28);
        let init = g.input(t("2xf32"));
        let x = g.input(t("3x2xf32"));
        let body = sum_body(&mut g);
        let attrs = vec![
            ("body", Attr::Graph(body)),
            ("num_scan_inputs", Attr::Int(1)),
            ("scan_input_axes", Attr::Ints(vec![2])),
        ];
        g.op_at(Scan, 9, &[init, x], &attrs, 2);
        assert!(g
            .infer_err()
            .ends_with("'scan_input_axes' entry 2 is out of range for input 1 of rank 2"));
    }
}
