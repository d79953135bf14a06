//! Rule `control-flow`: the subgraphs of If, Loop, Scan and SequenceMap
//! have the signature their op calls them with.
//!
//! The op table cannot say this (a GRAPH attribute has no type), so the
//! signatures come from the operator specs and ONNX's inference functions
//! for these ops (`onnx/defs/controlflow/utils.cc`, `sequence/defs.cc`):
//! - If: both branches take no inputs and yield one value per If result.
//! - Loop with N loop-carried values (inputs `M`, `cond`, then N): the body
//!   takes `(iteration_num: int64, cond: bool, N values)` and yields
//!   `(cond: bool, N values, K scan outputs)`; the Loop has N + K results.
//! - Scan with M = `num_scan_inputs` and N state values (inputs after
//!   Scan-8's `sequence_lens`): the body takes N + M values and yields N +
//!   K, one per Scan result; the optional axis and direction lists have M
//!   (inputs) or K (outputs) entries.
//! - SequenceMap: the body takes one value per input (an element of a
//!   sequence input, a tensor input as is) and yields one value per
//!   result, whose sequences the op builds.
//!
//! Types are compared up to shape (loop-carried shapes may change between
//! iterations, branch shapes may differ), and only where known. A Loop's
//! carried value may also enter as an optional and leave as its value, or
//! the reverse (ONNX's inference and onnxruntime accept both; the backend
//! test `test_loop16_seq_none` does the first). Missing
//! or mistyped GRAPH attributes are the attribute rules' business, so
//! these checks run only on ops that passed them.

use super::cx::{fail, same_class, Check, Cx};
use crate::error::Rule;
use crate::ir::{Arg, OpData, OpId, Output, Value};
use crate::schema::OpKind;
use crate::types::{ElemType, TensorType, Type};

/// Checks the subgraph signatures of a control-flow op.
pub(super) fn check(cx: &Cx, op: OpId) -> Check {
    let data = cx.ir.op(op);
    let result = match data.kind {
        OpKind::If => check_if(cx, data),
        OpKind::Loop => check_loop(cx, data),
        OpKind::Scan => check_scan(cx, data),
        OpKind::SequenceMap => check_sequence_map(cx, data),
        _ => Ok(()),
    };
    result.map_err(|m| fail(Rule::ControlFlow, cx.op_at(op), m))
}

/// A subgraph as its op sees it.
struct Body<'m> {
    /// `body "loop_body"`, for messages.
    name: String,
    /// The inputs the op passes: all of them but a trailing run with
    /// default values, by which IR versions up to 3 declare subgraph
    /// initializers ("Subgraph initializer names must appear in the graph
    /// input list _after_ the actual inputs"; later versions forbid them).
    args: &'m [Arg],
    outputs: &'m [Output],
}

/// The subgraph held by attribute `attr`.
fn graph<'m>(cx: &Cx<'m>, data: &OpData, attr: &str) -> Option<Body<'m>> {
    let region = cx.ir.region(data.attrs.graph(attr)?);
    let passed = region
        .args
        .iter()
        .rposition(|a| a.default.is_none())
        .map_or(0, |i| i + 1);
    Some(Body {
        name: format!("{attr} \"{}\"", region.name),
        args: &region.args[..passed],
        outputs: &region.outputs,
    })
}

/// The type of input or result `i` (`Unknown` when absent).
fn ty<'m>(cx: &Cx<'m>, values: &[Option<Value>], i: usize) -> &'m Type {
    match values.get(i).copied().flatten() {
        Some(v) => cx.ir.ty(v),
        None => &Type::Unknown,
    }
}

/// Fails when `a` and `b` differ beyond shape; `pair` names them (`X and
/// Y`).
fn agree(a: &Type, b: &Type, pair: impl FnOnce() -> String) -> Result<(), String> {
    if same_class(a, b) {
        Ok(())
    } else {
        Err(format!("{} differ in type: {a} vs {b}", pair()))
    }
}

/// Fails when a loop-carried value that enters the body as `entry` leaves
/// it as `exit` of another type: the types must agree up to shape, or up
/// to an optional wrapper (the body may return the value an optional
/// holds, or wrap the value in an optional).
///
/// ONNX's `LoopInferenceFunction` accepts more: the Loop result starts as
/// the entry's type, and `propagateElemTypeWithValidation` replaces it by
/// any sequence or optional the body returns (a tensor must stay a tensor
/// of its element type). onnxruntime runs only the optional cases (a
/// tensor carried in and a sequence returned fails in the next iteration),
/// so those are the ones accepted here.
fn carried(entry: &Type, exit: &Type, pair: impl FnOnce() -> String) -> Result<(), String> {
    let unwrapped = |opt: &Type, t: &Type| matches!(opt, Type::Optional(x) if same_class(x, t));
    if same_class(entry, exit) || unwrapped(entry, exit) || unwrapped(exit, entry) {
        Ok(())
    } else {
        Err(format!("{} differ in type: {entry} vs {exit}", pair()))
    }
}

/// Fails when `ty` is known not to be a tensor of `elem`.
fn expect_tensor(ty: &Type, elem: ElemType, what: impl FnOnce() -> String) -> Result<(), String> {
    if same_class(ty, &Type::Tensor(TensorType::unranked(elem))) {
        Ok(())
    } else {
        Err(format!(
            "{} must be a tensor of {}, got {ty}",
            what(),
            elem.onnx_name()
        ))
    }
}

fn check_if(cx: &Cx, data: &OpData) -> Result<(), String> {
    for attr in ["then_branch", "else_branch"] {
        let Some(body) = graph(cx, data, attr) else {
            continue;
        };
        let name = &body.name;
        if !body.args.is_empty() {
            return Err(format!(
                "{name} takes {} inputs; If branches take none",
                body.args.len()
            ));
        }
        if body.outputs.len() != data.results.len() {
            return Err(format!(
                "{name} has {} outputs, but the If has {} results",
                body.outputs.len(),
                data.results.len()
            ));
        }
        for (i, out) in body.outputs.iter().enumerate() {
            agree(cx.ir.ty(out.value), ty(cx, &data.results, i), || {
                format!("{name} output {i} and If result {i}")
            })?;
        }
    }
    Ok(())
}

fn check_loop(cx: &Cx, data: &OpData) -> Result<(), String> {
    let Some(body) = graph(cx, data, "body") else {
        return Ok(());
    };
    let name = &body.name;
    let n = data.inputs.len().saturating_sub(2);
    let results = data.results.len();
    if body.args.len() != 2 + n {
        return Err(format!(
            "{name} takes {} inputs, but the Loop passes 2 + {n} (iteration number, condition, \
             {n} loop-carried values)",
            body.args.len()
        ));
    }
    if results < n {
        return Err(format!(
            "the Loop has {results} results, fewer than its {n} loop-carried values"
        ));
    }
    if body.outputs.len() != 1 + results {
        return Err(format!(
            "{name} has {} outputs, but the Loop needs 1 + {results} (condition, {n} loop-carried \
             values, {} scan outputs)",
            body.outputs.len(),
            results - n
        ));
    }
    let arg = |i: usize| cx.ir.ty(body.args[i].value);
    let out = |i: usize| cx.ir.ty(body.outputs[i].value);
    expect_tensor(arg(0), ElemType::I64, || {
        format!("{name} input 0 (the iteration number)")
    })?;
    expect_tensor(arg(1), ElemType::Bool, || {
        format!("{name} input 1 (the condition)")
    })?;
    expect_tensor(out(0), ElemType::Bool, || {
        format!("{name} output 0 (the condition)")
    })?;
    for i in 0..n {
        let initial = ty(cx, &data.inputs, 2 + i);
        agree(initial, arg(2 + i), || {
            format!(
                "loop-carried value {i}: Loop input {} and {name} input {}",
                2 + i,
                2 + i
            )
        })?;
        carried(initial, out(1 + i), || {
            format!(
                "loop-carried value {i}: Loop input {} and {name} output {}",
                2 + i,
                1 + i
            )
        })?;
        agree(out(1 + i), ty(cx, &data.results, i), || {
            format!(
                "loop-carried value {i}: {name} output {} and Loop result {i}",
                1 + i
            )
        })?;
    }
    for k in n..results {
        agree(out(1 + k), ty(cx, &data.results, k), || {
            format!(
                "scan output {}: {name} output {} and Loop result {k}",
                k - n,
                1 + k
            )
        })?;
    }
    Ok(())
}

fn check_scan(cx: &Cx, data: &OpData) -> Result<(), String> {
    let Some(body) = graph(cx, data, "body") else {
        return Ok(());
    };
    let name = &body.name;
    let Some(m) = data.attrs.int("num_scan_inputs") else {
        return Ok(());
    };
    // Scan-8 takes the optional `sequence_lens` before the variadic values.
    let first = usize::from(data.version == 8);
    let values = data.inputs.len().saturating_sub(first);
    let m = match usize::try_from(m) {
        Ok(m) if (1..=values).contains(&m) => m,
        _ => {
            return Err(format!(
                "num_scan_inputs is {m}, but the Scan has {values} state and scan inputs"
            ))
        }
    };
    let n = values - m;
    let results = data.results.len();
    if body.args.len() != n + m {
        return Err(format!(
            "{name} takes {} inputs, but the Scan passes {n} state values + {m} scan input slices",
            body.args.len()
        ));
    }
    if results < n {
        return Err(format!(
            "the Scan has {results} results, fewer than its {n} state values"
        ));
    }
    if body.outputs.len() != results {
        return Err(format!(
            "{name} has {} outputs, but the Scan has {results} results ({n} state values, {} scan \
             outputs)",
            body.outputs.len(),
            results - n
        ));
    }
    let k = results - n;
    for (attr, want) in [
        ("directions", m),
        ("scan_input_axes", m),
        ("scan_input_directions", m),
        ("scan_output_axes", k),
        ("scan_output_directions", k),
    ] {
        if let Some(list) = data.attrs.ints(attr) {
            if list.len() != want {
                return Err(format!(
                    "{attr} has {} entries, but the Scan has {want} of them",
                    list.len()
                ));
            }
        }
    }
    let arg = |i: usize| cx.ir.ty(body.args[i].value);
    let out = |i: usize| cx.ir.ty(body.outputs[i].value);
    for i in 0..n {
        let initial = ty(cx, &data.inputs, first + i);
        agree(initial, arg(i), || {
            format!(
                "state value {i}: Scan input {} and {name} input {i}",
                first + i
            )
        })?;
        agree(initial, out(i), || {
            format!(
                "state value {i}: Scan input {} and {name} output {i}",
                first + i
            )
        })?;
        agree(out(i), ty(cx, &data.results, i), || {
            format!("state value {i}: {name} output {i} and Scan result {i}")
        })?;
    }
    for j in n..n + m {
        agree(ty(cx, &data.inputs, first + j), arg(j), || {
            format!(
                "scan input {}: Scan input {} and {name} input {j}",
                j - n,
                first + j
            )
        })?;
    }
    for j in n..results {
        agree(out(j), ty(cx, &data.results, j), || {
            format!(
                "scan output {}: {name} output {j} and Scan result {j}",
                j - n
            )
        })?;
    }
    Ok(())
}

fn check_sequence_map(cx: &Cx, data: &OpData) -> Result<(), String> {
    let Some(body) = graph(cx, data, "body") else {
        return Ok(());
    };
    let name = &body.name;
    if body.args.len() != data.inputs.len() {
        return Err(format!(
            "{name} takes {} inputs, but the SequenceMap passes {}",
            body.args.len(),
            data.inputs.len()
        ));
    }
    if body.outputs.len() != data.results.len() {
        return Err(format!(
            "{name} has {} outputs, but the SequenceMap has {} results",
            body.outputs.len(),
            data.results.len()
        ));
    }
    for (i, arg) in body.args.iter().enumerate() {
        let passed = match ty(cx, &data.inputs, i) {
            Type::Sequence(elem) => elem,
            other => other,
        };
        agree(passed, cx.ir.ty(arg.value), || {
            format!("SequenceMap input {i} and {name} input {i}")
        })?;
    }
    for (i, out) in body.outputs.iter().enumerate() {
        let built = Type::Sequence(Box::new(cx.ir.ty(out.value).clone()));
        agree(&built, ty(cx, &data.results, i), || {
            format!("the sequence of {name} output {i} and SequenceMap result {i}")
        })?;
    }
    Ok(())
}
