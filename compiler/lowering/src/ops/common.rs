//! What the op families share above the builder: the compile-time
//! contents of constant operands (axes, starts, pads given as inputs),
//! per-axis values read at run time, the fused root of a kernel, and the
//! building blocks of the families' checks.

use melior::ir::{Operation, Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, ValueDef};
use onnx_mlc_dialect::{Dim, Model, OpKind, TensorData, Value};

use crate::builder::{CmpiPredicate, Emitter, Size};
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::symbols::{graph_input, sized_dims, Check};
use crate::types::value_tensor;

/// The dense value of `v` when a `Constant` computes it.
pub(crate) fn const_data(model: &Model, v: Value) -> Option<&TensorData> {
    match model.ir.value(v).def {
        ValueDef::Result(op, _) => {
            let op = model.ir.op(op);
            (op.kind == OpKind::Constant)
                .then(|| op.attrs.tensor("value"))
                .flatten()
        }
        ValueDef::Arg(..) => None,
    }
}

/// The integer contents of `v` when a `Constant` computes it.
pub(crate) fn const_ints(model: &Model, v: Value) -> Option<Vec<i64>> {
    const_data(model, v)?.to_i64s()
}

/// `axis` (possibly negative) as a dim of a rank-`rank` tensor.
pub(crate) fn norm_axis(axis: i64, rank: usize) -> usize {
    if axis < 0 {
        (axis + rank as i64) as usize
    } else {
        axis as usize
    }
}

/// Per dim of a rank-`rank` tensor, read at run time inside a body: entry
/// `offset + j` of the 1-D integer tensor `vals` for the `j` (of `n`)
/// whose axis — entry `j` of `axes` (negative counts from the end), or `j`
/// itself without `axes` — is that dim, else `default`; as `index`es. A
/// static `n` unrolls the search, a run-time one (a tensor of symbolic
/// length) is an `scf.for`.
pub(crate) fn per_axis<'c, 'b>(
    e: Emitter<'c, 'b>,
    rank: usize,
    n: Size<'c, 'b>,
    axes: Option<MValue<'c, '_>>,
    vals: MValue<'c, '_>,
    offset: usize,
    default: i64,
) -> Vec<MValue<'c, 'b>> {
    // Entry `j`'s value replaces the default of its dim.
    fn apply<'c, 'r>(
        e: Emitter<'c, 'r>,
        rank: usize,
        j: MValue<'c, 'r>,
        axes: Option<MValue<'c, '_>>,
        vals: MValue<'c, '_>,
        offset: usize,
        out: Vec<MValue<'c, 'r>>,
    ) -> Vec<MValue<'c, 'r>> {
        let index = Type::index(e.cx);
        let read = |t: MValue<'c, '_>, j: MValue<'c, 'r>| e.index_cast(e.extract(t, &[j]), index);
        let zero = e.index(0);
        let axis = match axes {
            Some(a) => {
                let a = read(a, j);
                e.select(
                    e.cmpi(CmpiPredicate::Slt, a, zero),
                    e.addi(a, e.index(rank as i64)),
                    a,
                )
            }
            None => j,
        };
        let v = read(vals, e.addi(j, e.index(offset as i64)));
        out.into_iter()
            .enumerate()
            .map(|(k, o)| e.select(e.cmpi(CmpiPredicate::Eq, axis, e.index(k as i64)), v, o))
            .collect()
    }
    let defaults = vec![e.index(default); rank];
    match n {
        Size::Static(n) => (0..n).fold(defaults, |out, j| {
            apply(e, rank, e.index(j), axes, vals, offset, out)
        }),
        Size::Dynamic(n) => e.for_loop(e.index(0), n, &defaults, |le, j, out| {
            apply(le, rank, j, axes, vals, offset, out)
        }),
    }
}

/// Appends `g`, a generic over the loops (`dims`) of output `y`, as the
/// kernel's root (fused: its producers inlined, every loop parallel) and
/// defines `y` as its result.
pub(crate) fn fused_root<'c>(
    kb: &mut KernelBuilder<'c, '_>,
    g: Operation<'c>,
    y: Value,
    dims: &[i64],
) {
    let producers = kb.producers();
    let r = kb.root(
        g,
        Schedule::Fused {
            loops: dims.iter().map(|&d| (d, true)).collect(),
            producers,
            epilogue: false,
        },
    );
    kb.define(y, r.result(0).expect("one result").into());
}

/// Pushes `Check::Equal(a, b)` when the two dims differ as polynomials.
pub(crate) fn equal(out: &mut Vec<Check>, a: &Dim, b: &Dim) {
    if a != b {
        out.push(Check::Equal(a.clone(), b.clone()));
    }
}

/// Pushes `Check::AtLeast(d, 1)` for each symbolic dim of `dims`: a size
/// the kernel clamps indices into (reading index 0 of it).
pub(crate) fn nonempty(out: &mut Vec<Check>, dims: &[Dim]) {
    for d in dims.iter().filter(|d| !d.is_known()) {
        out.push(Check::AtLeast(d.clone(), 1));
    }
}

/// The checks that the 1-D integer operand `v` has `len` entries and that
/// its entries `j` are the dims of `expected` (`(j, dim)`): compared at
/// compile time for a constant, checked at run time
/// (`Check::Value`) for a graph input; an error for values the model
/// computes.
pub(crate) fn entries_are(
    model: &Model,
    v: Value,
    len: usize,
    expected: &[(usize, Dim)],
    out: &mut Vec<Check>,
) -> std::result::Result<(), &'static str> {
    let dims = sized_dims(model, Some(v))?;
    if dims.len() != 1 {
        return Err("a shape operand of a rank other than 1");
    }
    equal(out, &dims[0], &Dim::Known(len as i64));
    if let Some(values) = const_data(model, v).and_then(TensorData::to_i64s) {
        for (j, d) in expected {
            equal(
                out,
                d,
                &Dim::Known(*values.get(*j).ok_or("a shape operand too short")?),
            );
        }
        return Ok(());
    }
    let input = graph_input(model, v).ok_or("a shape operand computed by the model")?;
    let elem = value_tensor(model, v)
        .map_err(|_| "an untyped shape operand")?
        .elem;
    for (j, d) in expected {
        out.push(Check::Value {
            input,
            elem,
            entry: Some(*j),
            expected: d.clone(),
        });
    }
    Ok(())
}

/// Input `i` of `data`, for its checks: an error when absent.
pub(crate) fn operand(data: &OpData, i: usize) -> std::result::Result<Value, &'static str> {
    data.inputs
        .get(i)
        .copied()
        .flatten()
        .ok_or("an absent operand")
}

/// The position of element `r` (row-major) of a tensor of dims `sizes`.
pub(crate) fn position<'c, 'a>(
    e: &Emitter<'c, 'a>,
    r: MValue<'c, 'a>,
    sizes: &[MValue<'c, 'a>],
) -> Vec<MValue<'c, 'a>> {
    let mut at = vec![];
    let mut rest = r;
    for &s in sizes.iter().rev() {
        at.push(e.remui(rest, s));
        rest = e.divui(rest, s);
    }
    at.reverse();
    at
}
