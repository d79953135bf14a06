//! `ai.onnx.preview.training.Gradient` (version 1) by reverse-mode
//! automatic differentiation.
//!
//! `Gradient(xs, zs, y)` names values of its graph: `y` is a function of
//! the independent values `xs` (differentiated) and `zs` (held constant),
//! and the op's inputs are the points at which `∂y/∂x` is taken. The
//! expansion handles the case the spec calls optimizable — the inputs *are*
//! the named values — so the forward values already in the graph are
//! reused, and builds the adjoint graph:
//!
//! ```text
//! ȳ = 1 (of y's shape: the gradient of the sum of y's elements)
//! for each op on a path from xs to y, last first:
//!     v̄ᵢ += unbroadcast(∂op/∂vᵢ · ōut)      (to vᵢ's shape, by ReduceSum)
//! output k = x̄ₖ  (zeros where y does not depend on xₖ)
//! ```
//!
//! The derivatives it knows (`g` the result's adjoint, `o` the result):
//!
//! ```text
//! Add     a: g        b: g            Neg, Identity   g · (−1), g
//! Sub     a: g        b: −g           Relu            Where(x > 0, g, 0)
//! Mul     a: g·b      b: g·a          Sigmoid         g·o·(1 − o)
//! Div     a: g/b      b: −g·o/b       Tanh            g·(1 − o²)
//! MatMul  a: g·bᵀ     b: aᵀ·g (2-D)   Exp, Log, Sqrt  g·o, g/x, g/(2o)
//! ```
//!
//! Another op on the path, a named value not found before the Gradient,
//! inputs other than the named values, or shapes that are not static leave
//! the op as it is.

use std::collections::{HashMap, HashSet};

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::{OpId, Value};
use crate::schema::OpKind::{self, *};
use crate::types::ElemType;

/// The expansion of `Gradient`.
pub(super) fn gradient(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let names = |a: Option<Attr>| match a {
        Some(Attr::Strings(s)) => s
            .into_iter()
            .map(String::from_utf8)
            .collect::<Result<Vec<_>, _>>()
            .ok(),
        None => Some(vec![]),
        _ => None,
    };
    let xs_names = names(b.attr("xs"))?;
    let zs_names = names(b.attr("zs"))?;
    let forward = forward_ops(b);
    let find = |name: &str| named_value(b, &forward, name);
    let xs: Vec<Value> = xs_names.iter().map(|n| find(n)).collect::<Option<_>>()?;
    let zs: Vec<Value> = zs_names.iter().map(|n| find(n)).collect::<Option<_>>()?;
    let y = find(&b.string_attr("y")?)?;
    let inputs: Vec<Option<Value>> = b.target().inputs.clone();
    let named: Vec<Option<Value>> = xs.iter().chain(&zs).copied().map(Some).collect();
    if inputs != named {
        return None;
    }
    let path = ops_between(b, &forward, &xs, y);
    let elem = b.elem(y)?;
    let seed = ones(b, y, elem)?;
    let mut adjoint: HashMap<Value, Value> = HashMap::from([(y, seed)]);
    for &op in path.iter().rev() {
        let result = b.ir.op(op).results.first().copied().flatten()?;
        let Some(&g) = adjoint.get(&result) else {
            continue;
        };
        let operands: Vec<Value> = b.ir.op(op).inputs.iter().copied().collect::<Option<_>>()?;
        let kind = b.ir.op(op).kind;
        for (i, contribution) in derivatives(b, kind, &operands, result, g)? {
            let v = operands[i];
            let c = unbroadcast(b, contribution, v)?;
            let sum = match adjoint.get(&v) {
                Some(&prior) => b.binary(Add, prior, c)?,
                None => c,
            };
            adjoint.insert(v, sum);
        }
    }
    // Each output a value of its own (two `x`s may share an adjoint).
    let mut outputs: Vec<Option<Value>> = vec![];
    for &x in &xs {
        let g = match adjoint.get(&x) {
            Some(&g) if outputs.contains(&Some(g)) => b.unary(Identity, g)?,
            Some(&g) => g,
            None => zeros(b, x)?,
        };
        outputs.push(Some(g));
    }
    Some(outputs)
}

/// The ops before the Gradient in its region, in order.
fn forward_ops(b: &Builder) -> Vec<OpId> {
    let region = b.target().parent;
    let ops = &b.ir.region(region).ops;
    let at = ops.iter().position(|&o| o == b.op).unwrap_or(ops.len());
    ops[..at]
        .iter()
        .copied()
        .filter(|o| !b.built.contains(o))
        .collect()
}

/// The value called `name` among the region's arguments and the results
/// of `forward`.
fn named_value(b: &Builder, forward: &[OpId], name: &str) -> Option<Value> {
    let region = b.ir.region(b.target().parent);
    let args = region.args.iter().map(|a| a.value);
    let results = forward
        .iter()
        .flat_map(|&o| b.ir.op(o).results.iter().copied().flatten());
    args.chain(results)
        .find(|&v| b.ir.value(v).name.as_deref() == Some(name))
}

/// The ops of `forward` that depend on one of `xs` and that `y` depends on,
/// in order.
fn ops_between(b: &Builder, forward: &[OpId], xs: &[Value], y: Value) -> Vec<OpId> {
    let mut active: HashSet<Value> = xs.iter().copied().collect();
    let mut depends = vec![];
    for &op in forward {
        let data = b.ir.op(op);
        if data.inputs.iter().flatten().any(|v| active.contains(v)) {
            active.extend(data.results.iter().copied().flatten());
            depends.push(op);
        }
    }
    let mut needed: HashSet<Value> = HashSet::from([y]);
    let mut path = vec![];
    for &op in depends.iter().rev() {
        let data = b.ir.op(op);
        if data.results.iter().flatten().any(|v| needed.contains(v)) {
            needed.extend(data.inputs.iter().copied().flatten());
            path.push(op);
        }
    }
    path.reverse();
    path
}

/// The adjoint contribution of an op's result adjoint `g` to each operand
/// it differentiates, as (operand index, contribution of the result's
/// shape or the operand's); `None` for an op without a derivative here.
fn derivatives(
    b: &mut Builder,
    kind: OpKind,
    operands: &[Value],
    out: Value,
    g: Value,
) -> Option<Vec<(usize, Value)>> {
    let elem = b.elem(out)?;
    let x = operands[0];
    Some(match (kind, operands.len()) {
        (Identity, 1) => vec![(0, g)],
        (Neg, 1) => vec![(0, b.unary(Neg, g)?)],
        (Add, 2) => vec![(0, g), (1, g)],
        (Sub, 2) => vec![(0, g), (1, b.unary(Neg, g)?)],
        (Mul, 2) => vec![
            (0, b.binary(Mul, g, operands[1])?),
            (1, b.binary(Mul, g, x)?),
        ],
        (Div, 2) => {
            let da = b.binary(Div, g, operands[1])?;
            let go = b.binary(Mul, g, out)?;
            let q = b.binary(Div, go, operands[1])?;
            vec![(0, da), (1, b.unary(Neg, q)?)]
        }
        (Relu, 1) => {
            let zero = b.scalar(elem, 0.0)?;
            let positive = b.binary(Greater, x, zero)?;
            vec![(0, b.select(positive, g, zero)?)]
        }
        (Sigmoid, 1) => {
            let one = b.scalar(elem, 1.0)?;
            let rest = b.binary(Sub, one, out)?;
            let slope = b.binary(Mul, out, rest)?;
            vec![(0, b.binary(Mul, g, slope)?)]
        }
        (Tanh, 1) => {
            let one = b.scalar(elem, 1.0)?;
            let square = b.binary(Mul, out, out)?;
            let slope = b.binary(Sub, one, square)?;
            vec![(0, b.binary(Mul, g, slope)?)]
        }
        (Exp, 1) => vec![(0, b.binary(Mul, g, out)?)],
        (Log, 1) => vec![(0, b.binary(Div, g, x)?)],
        (Sqrt, 1) => {
            let twice = b.binary(Add, out, out)?;
            vec![(0, b.binary(Div, g, twice)?)]
        }
        (MatMul, 2) if b.rank(x)? == 2 && b.rank(operands[1])? == 2 => {
            let bt = b.transpose(operands[1], &[1, 0])?;
            let at = b.transpose(x, &[1, 0])?;
            vec![(0, b.binary(MatMul, g, bt)?), (1, b.binary(MatMul, at, g)?)]
        }
        _ => return None,
    })
}

/// `c` summed over the dims `v` was broadcast along, in `v`'s shape.
fn unbroadcast(b: &mut Builder, c: Value, v: Value) -> Option<Value> {
    let (from, to) = (b.dims(c)?, b.dims(v)?);
    if from == to {
        return Some(c);
    }
    let extra = from.len().checked_sub(to.len())?;
    let axes: Vec<i64> = (0..from.len())
        .filter(|&a| a < extra || (to[a - extra] == 1 && from[a] != 1))
        .map(|a| a as i64)
        .collect();
    let summed = b.reduce(ReduceSum, c, &axes, true)?;
    b.reshape(summed, &to)
}

/// A tensor of ones shaped like `v`.
fn ones(b: &mut Builder, v: Value, elem: ElemType) -> Option<Value> {
    let dims = b.dims(v)?;
    let n = dims.iter().product::<i64>().max(0) as usize;
    b.floats(elem, dims, &vec![1.0; n])
}

/// A tensor of zeros shaped like `v`.
fn zeros(b: &mut Builder, v: Value) -> Option<Value> {
    let (elem, dims) = (b.elem(v)?, b.dims(v)?);
    let n = dims.iter().product::<i64>().max(0) as usize;
    b.floats(elem, dims, &vec![0.0; n])
}
