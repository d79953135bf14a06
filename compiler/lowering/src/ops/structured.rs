//! Building blocks the op families share: `linalg.generic` ops from
//! indexing maps written as text and a body closure, named linalg ops,
//! fresh and filled tensors, and the compile-time contents of constant
//! operands (axes, starts, pads given as inputs).

use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::{RankedTensorType, ShapedTypeLike};
use melior::ir::{Operation, Region, Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::ValueDef;
use onnx_mlc_dialect::{ElemType, Model, OpKind, TensorData, Value};

use crate::emit::{region, Emitter};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::symbols::{dynamic_sizes, Size};
use crate::types::tensor_type;

/// `affine_map<(d0, …, d{n-1}) -> (exprs…)>`.
pub(crate) fn map(n: usize, exprs: &[String]) -> String {
    let dims: Vec<String> = (0..n).map(|d| format!("d{d}")).collect();
    format!(
        "affine_map<({}) -> ({})>",
        dims.join(", "),
        exprs.join(", ")
    )
}

/// `d{i}` for each `i` of `dims`.
pub(crate) fn ds(dims: impl IntoIterator<Item = usize>) -> Vec<String> {
    dims.into_iter().map(|d| format!("d{d}")).collect()
}

/// The element type of a tensor value.
pub(crate) fn elem_of<'c>(t: MValue<'c, '_>) -> Type<'c> {
    RankedTensorType::try_from(t.r#type())
        .expect("a ranked tensor")
        .element()
}

/// A `linalg.generic` over `n` loops (`reduction[i]`: loop `i` reduces)
/// reading `ins` and writing `outs`, each with its indexing map; `body`
/// receives the block's scalars (inputs then outputs) and returns the
/// values to yield, one per output.
pub(crate) fn generic<'c, 'a>(
    e: Emitter<'c, 'a>,
    ins: &[(MValue<'c, 'a>, String)],
    outs: &[(MValue<'c, 'a>, String)],
    reduction: &[bool],
    body: impl for<'b> FnOnce(Emitter<'c, 'b>, Vec<MValue<'c, 'b>>) -> Vec<MValue<'c, 'b>>,
) -> Operation<'c> {
    let types: Vec<Type> = ins.iter().chain(outs).map(|(t, _)| elem_of(*t)).collect();
    let body: Region = region(e.cx, e.loc, &types, |be, args| {
        let yields = body(be, args);
        be.append(be.op("linalg.yield", &yields, &[], &[]));
    });
    let maps: Vec<&str> = ins.iter().chain(outs).map(|(_, m)| m.as_str()).collect();
    let iterators: Vec<&str> = reduction
        .iter()
        .map(|&r| {
            if r {
                "#linalg.iterator_type<reduction>"
            } else {
                "#linalg.iterator_type<parallel>"
            }
        })
        .collect();
    let operands: Vec<MValue> = ins.iter().chain(outs).map(|(t, _)| *t).collect();
    let results: Vec<Type> = outs.iter().map(|(t, _)| t.r#type()).collect();
    OperationBuilder::new("linalg.generic", e.loc)
        .add_operands(&operands)
        .add_results(&results)
        .add_attributes(&[
            (
                e.id("indexing_maps"),
                e.attr(&format!("[{}]", maps.join(", "))),
            ),
            (
                e.id("iterator_types"),
                e.attr(&format!("[{}]", iterators.join(", "))),
            ),
            (
                e.id("operandSegmentSizes"),
                e.segments(&[ins.len() as i32, outs.len() as i32]),
            ),
        ])
        .add_regions([body])
        .build()
        .expect("a well-formed linalg.generic")
}

/// Builds a named linalg op (`linalg.fill`, `linalg.matmul`) with its
/// body filled in by MLIR.
pub(crate) fn named<'c>(
    e: Emitter<'c, '_>,
    name: &str,
    ins: &[MValue<'c, '_>],
    out: MValue<'c, '_>,
) -> Operation<'c> {
    let mut operands = ins.to_vec();
    operands.push(out);
    let op = OperationBuilder::new(name, e.loc)
        .add_operands(&operands)
        .add_results(&[out.r#type()])
        .add_attributes(&[(
            e.id("operandSegmentSizes"),
            e.segments(&[ins.len() as i32, 1]),
        )])
        .add_regions([Region::new()])
        .build()
        .expect("a well-formed named linalg op");
    // SAFETY: `op` is a freshly built, valid linalg named op that owns its
    // (empty) region; the call only fills that region.
    unsafe { mlir_sys::mlirLinalgFillBuiltinNamedOpRegion(op.to_raw()) };
    op
}

/// The run-time sizes of tensor `t` of `dims`: the static ones as they
/// are, `tensor.dim` for the dynamic ones.
pub(crate) fn tensor_sizes<'c, 'a>(
    e: Emitter<'c, 'a>,
    t: MValue<'c, '_>,
    dims: &[i64],
) -> Vec<Size<'c, 'a>> {
    let index = Type::index(e.cx);
    dims.iter()
        .enumerate()
        .map(|(i, &d)| {
            if d == crate::types::DYNAMIC {
                Size::Dynamic(e.value(e.op("tensor.dim", &[t, e.index(i as i64)], &[index], &[])))
            } else {
                Size::Static(d)
            }
        })
        .collect()
}

/// A fresh `tensor.empty` of run-time `sizes` × `elem` (static where they
/// are).
pub(crate) fn empty_sized<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    sizes: &[Size<'c, 'a>],
    elem: ElemType,
) -> Result<MValue<'c, 'a>> {
    let dims: Vec<i64> = sizes.iter().map(Size::type_dim).collect();
    let ty = tensor_type(kb.e.cx, &dims, elem)?;
    Ok(kb
        .e
        .value(kb.e.op("tensor.empty", &dynamic_sizes(sizes), &[ty], &[])))
}

/// A fresh `tensor.empty` of `dims` × `elem`.
pub(crate) fn empty<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    dims: &[i64],
    elem: ElemType,
) -> Result<MValue<'c, 'a>> {
    let ty = tensor_type(kb.e.cx, dims, elem)?;
    Ok(kb.e.value(kb.e.op("tensor.empty", &[], &[ty], &[])))
}

/// `tensor.extract t[at…]` inside a body.
pub(crate) fn extract<'c, 'b>(
    e: Emitter<'c, 'b>,
    t: MValue<'c, '_>,
    at: &[MValue<'c, 'b>],
) -> MValue<'c, 'b> {
    let mut operands: Vec<MValue<'c, '_>> = vec![t];
    operands.extend(at.iter().copied());
    e.value(e.op("tensor.extract", &operands, &[elem_of(t)], &[]))
}

/// `linalg.index` of loop `dim`, inside a generic's body.
pub(crate) fn loop_index<'c, 'b>(e: Emitter<'c, 'b>, dim: usize) -> MValue<'c, 'b> {
    let index = Type::index(e.cx);
    e.value(e.op(
        "linalg.index",
        &[],
        &[index],
        &[("dim", e.attr(&format!("{dim} : i64")))],
    ))
}

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

/// `scf.for %t = lb to ub step 1 iter_args(%acc = init)`, inside a
/// generic's body: `body` receives the induction variable and the carried
/// values and returns the values carried to the next iteration; the
/// results are the values after the last one.
pub(crate) fn for_loop<'c, 'b>(
    e: Emitter<'c, 'b>,
    lb: MValue<'c, 'b>,
    ub: MValue<'c, 'b>,
    init: &[MValue<'c, 'b>],
    body: impl for<'r> FnOnce(
        Emitter<'c, 'r>,
        MValue<'c, 'r>,
        Vec<MValue<'c, 'r>>,
    ) -> Vec<MValue<'c, 'r>>,
) -> Vec<MValue<'c, 'b>> {
    let index = Type::index(e.cx);
    let types: Vec<Type> = init.iter().map(|v| v.r#type()).collect();
    let mut args = vec![index];
    args.extend(&types);
    let region = region(e.cx, e.loc, &args, |be, a| {
        let yields = body(be, a[0], a[1..].to_vec());
        be.append(be.op("scf.yield", &yields, &[], &[]));
    });
    let mut operands = vec![lb, ub, e.index(1)];
    operands.extend(init);
    let op = OperationBuilder::new("scf.for", e.loc)
        .add_operands(&operands)
        .add_results(&types)
        .add_regions([region])
        .build()
        .expect("a well-formed scf.for");
    let op = e.append(op);
    (0..init.len())
        .map(|i| op.result(i).expect("one result per carried value").into())
        .collect()
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
        let read = |t: MValue<'c, '_>, j: MValue<'c, 'r>| {
            let v = e.value(e.op("tensor.extract", &[t, j], &[elem_of(t)], &[]));
            e.convert("arith.index_cast", v, index)
        };
        let zero = e.index(0);
        let axis = match axes {
            Some(a) => {
                let a = read(a, j);
                e.select(
                    e.cmp("arith.cmpi", 2, a, zero),
                    e.same("arith.addi", &[a, e.index(rank as i64)]),
                    a,
                )
            }
            None => j,
        };
        let v = read(vals, e.same("arith.addi", &[j, e.index(offset as i64)]));
        out.into_iter()
            .enumerate()
            .map(|(k, o)| e.select(e.cmp("arith.cmpi", 0, axis, e.index(k as i64)), v, o))
            .collect()
    }
    let defaults = vec![e.index(default); rank];
    match n {
        Size::Static(n) => (0..n).fold(defaults, |out, j| {
            apply(e, rank, e.index(j), axes, vals, offset, out)
        }),
        Size::Dynamic(n) => for_loop(e, e.index(0), n, &defaults, |le, j, out| {
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
