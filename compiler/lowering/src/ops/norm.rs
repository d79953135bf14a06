//! Normalizations (the dialect's `ops/norm.rs` family): Softmax,
//! LogSoftmax, LayerNormalization and BatchNormalization in inference form.
//!
//! | op | computes / lowered as | variants |
//! |---|---|---|
//! | Softmax / LogSoftmax | `exp(x - max) / Σ exp(x - max)` (its log) along the reduced dims | opset 13+: one `axis` (default -1); before 13: the dims `[axis, r)` of the 2-D coercion (default 1); floats (f16 and bf16 computed in f32, rounded once) |
//! | LayerNormalization | `(x - mean) / sqrt(var + ε) · scale + bias` over `[axis, r)` | optional Mean / InvStdDev outputs; f32 and f64 |
//! | InstanceNormalization (1–22), GroupNormalization (18, 21) | the same over each image's group of channels (`[N, G, C/G, S…]` view), `scale`/`B` per channel (per group in 18) | f32 and f64 |
//! | LRN (1, 13) | `x / (bias + α/size · Σ x²)^β` over a window of channels | f32 and f64 |
//! | BatchNormalization (1–15) | a per-channel affine map `(x − mean) · scale / √(var + ε) + B`, computed per element inside an elementwise run | inference form (`training_mode = 0`, one result), float types; inputs of rank ≥ 2 |
//!
//! Softmax and LayerNormalization are a few `linalg.generic`s over the
//! input's loops: statistics are reductions into tensors of the input's
//! shape with the reduced dims dropped, and the result is one parallel
//! generic reading the input and the statistics. The schedule
//! (`Schedule::Fused`) chunks that last generic along its outer rows and
//! fuses the statistics into the chunks, so each chunk of rows makes one
//! pass for each statistic and one for the result, in cache. A softmax
//! over one axis with static dims and rows (the last dim) of at most 1024
//! elements is `Schedule::Tiled`: inside each chunk every op runs row by
//! row as vectors of the last dim (the max and the sum as vector
//! reductions, the `exp` polynomial a whole row per instruction; 12 ×
//! 128 × 128: 2.4 → 0.25 ms).
//!
//! The planner treats an inference BatchNormalization as elementwise (so a
//! BatchNormalization after a Conv is the Conv's epilogue), and the
//! lowering follows: it is one more op in an elementwise run
//! (`elementwise::lower_chain`), whose four parameter operands are read
//! along the channel dim (dim 1) rather than broadcast numpy-style.

use std::collections::HashMap;

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use onnx_mlc_dialect::schema::NormOp;

use super::common::{fused_root, norm_axis};
use super::half;
use super::math::{exp, log};
use super::operand::{broadcast_map, stat_map};
use crate::builder::{
    d, elem_of, fill, generic, identity_map, map, projection, CmpiPredicate, Emitter, Size,
};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::{vector_rows, OpTiles, Schedule};
use crate::symbols::{equalities, same_shape_pairs, sized_dims, Check, Symbolic};
use crate::types::elem_type;

/// A tensor of run-time `sizes` filled with `value`, as a producer of the
/// root.
pub(crate) fn filled_sized<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    sizes: &[Size<'c, 'a>],
    elem: ElemType,
    value: f64,
) -> Result<MValue<'c, 'a>> {
    let t = kb.empty(sizes, elem)?;
    let e = kb.e;
    let v = e.f(elem_of(t), value);
    let filled = fill(e, v, t);
    Ok(kb.producer(filled).result(0).expect("one result").into())
}

/// Lowers one normalization.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: NormOp) -> Result<()> {
    use NormOp::*;
    match which {
        Softmax | LogSoftmax => lower_softmax(kb, op),
        LayerNormalization => lower_layer_norm(kb, op),
        InstanceNormalization | GroupNormalization => lower_group_norm(kb, op),
        LRN => lower_lrn(kb, op),
        BatchNormalization => unreachable!("BatchNormalization is lowered in elementwise runs"),
        RMSNormalization | LpNormalization | MeanVarianceNormalization | Hardmax | Dropout => {
            Err(kb.not_lowered(op))
        }
    }
}

/// How a normalization takes symbolic sizes: the softmaxes size their
/// statistics at run time; the others rely on conditions of their own.
pub(crate) fn checks(model: &Model, data: &OpData, which: NormOp) -> Symbolic {
    use NormOp::*;
    match which {
        Softmax | LogSoftmax => Symbolic::checked(vec![]),
        LayerNormalization => Symbolic::of(layer_norm_equal_sizes(model, data).map(equalities)),
        InstanceNormalization | GroupNormalization => Symbolic::of(group_norm_checks(model, data)),
        LRN => Symbolic::of(same_shape_pairs(model, data).map(equalities)),
        BatchNormalization => Symbolic::of(batch_norm_checks(model, data)),
        RMSNormalization | LpNormalization | MeanVarianceNormalization | Hardmax | Dropout => {
            Symbolic::not_yet()
        }
    }
}

/// Lowers Softmax or LogSoftmax.
fn lower_softmax(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input is required");
    let y = data.results[0].expect("output is produced");
    let (dims, elem) = kb.shape(x)?;
    if !elem.is_float() {
        return Err(kb.unsupported(op, "only float softmax is lowered"));
    }
    let rank = dims.len();
    let legacy = data.version < 13;
    let axis = norm_axis(
        data.attrs
            .int("axis")
            .unwrap_or(if legacy { 1 } else { -1 }),
        rank,
    );
    let reduced: Vec<bool> = (0..rank)
        .map(|i| if legacy { i >= axis } else { i == axis })
        .collect();
    let is_log = data.kind == OpKind::LogSoftmax;
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let out = softmax(kb, xt, &dims, elem, &reduced, is_log, init)?;
    let producers = kb.producers();
    let loops = dims.iter().map(|&d| (d, true)).collect();
    // Row by row as vectors when the rows are short (attention's scores):
    // each op's loops but the last are tiled by 1 (the statistics' fills,
    // with one loop fewer, become scalars).
    let schedule = if vector_rows(&dims) && reduced.iter().filter(|&&r| r).count() == 1 {
        Schedule::Tiled {
            loops,
            tiles: vec![OpTiles::rows(rank - 1); producers + 1],
            epilogue: None,
        }
    } else {
        Schedule::Fused {
            loops,
            producers,
            epilogue: false,
        }
    };
    let out = kb.root(out, schedule);
    kb.define(y, out.result(0).expect("one result").into());
    Ok(())
}

/// The softmax (or log-softmax) of `xt` (of `dims`) over the `reduced`
/// dims into `init`: appends the max, the exponentials `exp(x - max)`
/// (softmax only: computed once, divided by their sum) and their sum as
/// producers and returns the (not yet appended) generic computing the
/// result. Half-precision inputs are computed in f32, rounded once.
pub(crate) fn softmax<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    xt: MValue<'c, 'a>,
    dims: &[i64],
    elem: ElemType,
    reduced: &[bool],
    is_log: bool,
    init: MValue<'c, 'a>,
) -> Result<melior::ir::Operation<'c>> {
    let rank = dims.len();
    let all_sizes = kb.e.sizes_of(xt, dims);
    let sizes: Vec<Size> = all_sizes
        .iter()
        .cloned()
        .zip(reduced)
        .filter(|(_, &r)| !r)
        .map(|(s, _)| s)
        .collect();
    let (id, sm) = (
        identity_map(kb.e.cx, rank),
        stat_map(kb.e.cx, rank, reduced),
    );
    let acc = half::wide(elem);
    let max0 = filled_sized(kb, &sizes, acc, f64::NEG_INFINITY)?;
    let max = generic(kb.e, &[(xt, id)], &[(max0, sm)], reduced, |be, a| {
        vec![be.maximumf(half::widen(be, a[0]), a[1])]
    });
    let max: MValue = kb.producer(max).result(0).expect("one result").into();
    if !is_log {
        // The exponentials once, kept for the quotient (a producer: in
        // cache, chunk by chunk).
        let e0 = kb.empty(&all_sizes, acc)?;
        let ex = generic(
            kb.e,
            &[(xt, id), (max, sm)],
            &[(e0, id)],
            &vec![false; rank],
            |be, a| vec![exp(be, be.subf(half::widen(be, a[0]), a[1]))],
        );
        let ex: MValue = kb.producer(ex).result(0).expect("one result").into();
        let sum0 = filled_sized(kb, &sizes, acc, 0.0)?;
        let sum = generic(kb.e, &[(ex, id)], &[(sum0, sm)], reduced, |be, a| {
            vec![be.addf(a[1], a[0])]
        });
        let sum: MValue = kb.producer(sum).result(0).expect("one result").into();
        let out_ty = elem_of(init);
        return Ok(generic(
            kb.e,
            &[(ex, id), (sum, sm)],
            &[(init, id)],
            &vec![false; rank],
            |be, a| vec![half::narrow(be, be.divf(a[0], a[1]), out_ty)],
        ));
    }
    let sum0 = filled_sized(kb, &sizes, acc, 0.0)?;
    let sum = generic(
        kb.e,
        &[(xt, id), (max, sm)],
        &[(sum0, sm)],
        reduced,
        |be, a| {
            let ex = exp(be, be.subf(half::widen(be, a[0]), a[1]));
            vec![be.addf(a[2], ex)]
        },
    );
    let sum: MValue = kb.producer(sum).result(0).expect("one result").into();
    let out_ty = elem_of(init);
    Ok(generic(
        kb.e,
        &[(xt, id), (max, sm), (sum, sm)],
        &[(init, id)],
        &vec![false; rank],
        |be, a| {
            let shifted = be.subf(half::widen(be, a[0]), a[1]);
            let y = be.subf(shifted, log(be, a[2]));
            vec![half::narrow(be, y, out_ty)]
        },
    ))
}

/// Lowers LayerNormalization (opset 17).
fn lower_layer_norm(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let scale = data.inputs[1].expect("Scale is required");
    let bias = data.inputs.get(2).copied().flatten();
    let y = data.results[0].expect("Y is produced");
    let (dims, elem) = kb.shape(x)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) && !half::is_half(elem) {
        return Err(kb.unsupported(op, "only float layer normalization is lowered"));
    }
    let stats_out: Vec<_> = data.results[1..].iter().flatten().copied().collect();
    if half::is_half(elem) && !stats_out.is_empty() {
        return Err(kb.unsupported(
            op,
            "the statistics of a half-precision layer normalization are not lowered",
        ));
    }
    // A half-precision input is normalized in f32 (sums, statistics, the
    // affine step) and rounded once, into Y.
    let acc = half::wide(elem);
    if !stats_out.is_empty() {
        for &v in &stats_out {
            if kb.shape(v)?.1 != elem {
                return Err(kb.unsupported(
                    op,
                    "statistics in a stash type other than the input's are not lowered",
                ));
            }
        }
    }
    let rank = dims.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), rank);
    let eps = f64::from(data.attrs.float("epsilon").unwrap_or(1e-5));
    let reduced: Vec<bool> = (0..rank).map(|i| i >= axis).collect();
    let xt = kb.tensor(x);
    let xs = kb.e.sizes_of(xt, &dims);
    // The number of normalized elements: static, or computed at run time
    // (its reciprocal, computed once outside the loops).
    let count = if xs[axis..].iter().all(|s| matches!(s, Size::Static(_))) {
        NormCount::Static(dims[axis..].iter().product::<i64>().max(1) as f64)
    } else {
        NormCount::of_sizes(kb.e, &xs[axis..], acc)?
    };
    let ssizes: Vec<Size> = xs[..axis].to_vec();
    let (id, sm) = (
        identity_map(kb.e.cx, rank),
        stat_map(kb.e.cx, rank, &reduced),
    );
    let sum0 = filled_sized(kb, &ssizes, acc, 0.0)?;
    let e = kb.e;
    let sum = generic(e, &[(xt, id)], &[(sum0, sm)], &reduced, |be, a| {
        vec![be.addf(half::widen(be, a[0]), a[1])]
    });
    let sum: MValue = kb.producer(sum).result(0).expect("one result").into();
    let sq0 = filled_sized(kb, &ssizes, acc, 0.0)?;
    let e = kb.e;
    let sq = generic(
        e,
        &[(xt, id), (sum, sm)],
        &[(sq0, sm)],
        &reduced,
        |be, a| {
            let d = be.subf(half::widen(be, a[0]), count.mean(be, a[1]));
            vec![be.addf(a[2], be.mulf(d, d))]
        },
    );
    let sq: MValue = kb.producer(sq).result(0).expect("one result").into();
    let mut ins = vec![
        (xt, id),
        (sum, sm),
        (sq, sm),
        (
            kb.tensor(scale),
            broadcast_map(kb.e.cx, &kb.shape(scale)?.0, &dims),
        ),
    ];
    if let Some(b) = bias {
        ins.push((kb.tensor(b), broadcast_map(kb.e.cx, &kb.shape(b)?.0, &dims)));
    }
    let has_bias = bias.is_some();
    let init = kb.init(y)?;
    let out_ty = elem_of(init);
    let e = kb.e;
    let out = generic(e, &ins, &[(init, id)], &vec![false; rank], |be, a| {
        let d = be.subf(half::widen(be, a[0]), count.mean(be, a[1]));
        let n = be.mulf(d, inv_std(be, count.mean(be, a[2]), eps));
        let mut v = be.mulf(n, half::widen(be, a[3]));
        if has_bias {
            v = be.addf(v, half::widen(be, a[4]));
        }
        vec![half::narrow(be, v, out_ty)]
    });
    let producers = kb.producers();
    let out = kb.root(
        out,
        Schedule::Fused {
            loops: dims.iter().map(|&d| (d, true)).collect(),
            producers,
            epilogue: false,
        },
    );
    kb.define(y, out.result(0).expect("one result").into());
    // The optional statistics, from the same reductions.
    let (sid, sin) = (
        identity_map(kb.e.cx, rank),
        stat_map(kb.e.cx, rank, &reduced),
    );
    for (slot, stat) in data.results.iter().enumerate().skip(1) {
        let Some(v) = *stat else { continue };
        let (src, is_mean) = if slot == 1 { (sum, true) } else { (sq, false) };
        let init = kb.init(v)?;
        let e = kb.e;
        let g = generic(
            e,
            &[(src, sin)],
            &[(init, sid)],
            &vec![false; rank],
            |be, a| {
                vec![if is_mean {
                    count.mean(be, a[0])
                } else {
                    inv_std(be, count.mean(be, a[0]), eps)
                }]
            },
        );
        let g = kb.structured(g);
        kb.define(v, g.result(0).expect("one result").into());
    }
    Ok(())
}

/// The pairs of sizes a LayerNormalization with symbolic sizes reads as
/// equal, for the model's entry to check (`ops::entry_checks`): each dim of
/// X against Y's and the statistics' (the kept dims), and each dim of
/// Scale and B (right-aligned) that is not a static 1 against X's. An
/// error names what cannot be lowered: an unknown rank or size.
fn layer_norm_equal_sizes(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<(Dim, Dim)>, &'static str> {
    let dims = |v: Value| sized_dims(model, Some(v));
    let x = dims(data.inputs[0].expect("X is required"))?;
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), x.len());
    let mut pairs = vec![];
    for (slot, r) in data.results.iter().enumerate() {
        let Some(r) = *r else { continue };
        let r = dims(r)?;
        if r.len() != x.len() {
            return Err("results of another rank than X");
        }
        let kept = if slot == 0 { x.len() } else { axis };
        pairs.extend(x[..kept].iter().cloned().zip(r[..kept].iter().cloned()));
    }
    for &v in data.inputs[1..].iter().flatten() {
        let p = dims(v)?;
        if p.len() > x.len() {
            return Err("a scale or bias of higher rank than X");
        }
        for (d, xd) in p.iter().rev().zip(x.iter().rev()) {
            if *d != Dim::Known(1) {
                pairs.push((d.clone(), xd.clone()));
            }
        }
    }
    Ok(pairs.into_iter().filter(|(a, b)| a != b).collect())
}

/// `s · k`.
fn scaled<'c, 'b>(e: Emitter<'c, 'b>, s: MValue<'c, 'b>, k: f64) -> MValue<'c, 'b> {
    e.mulf(s, e.f(s.r#type(), k))
}

/// `1 / sqrt(var + ε)`.
fn inv_std<'c, 'b>(e: Emitter<'c, 'b>, var: MValue<'c, 'b>, eps: f64) -> MValue<'c, 'b> {
    e.rsqrt(e.addf(var, e.f(var.r#type(), eps)))
}

/// The number of elements a LayerNormalization normalizes together: a
/// constant, or the reciprocal of a run-time count (an element computed
/// before the loops).
#[derive(Copy, Clone)]
enum NormCount<'c, 'a> {
    Static(f64),
    Dynamic(MValue<'c, 'a>),
}

impl<'c, 'a> NormCount<'c, 'a> {
    /// The reciprocal of the product of run-time `sizes` (at least 1), in
    /// `elem`, computed before the loops.
    fn of_sizes(e: Emitter<'c, 'a>, sizes: &[Size<'c, 'a>], elem: ElemType) -> Result<Self> {
        let n = sizes.iter().fold(e.index(1), |n, s| e.muli(n, s.value(&e)));
        let n = e.maxsi(n, e.index(1));
        let n = e.index_cast(n, e.int_type(64));
        let ty = elem_type(e.cx, elem)?;
        let n = e.sitofp(n, ty);
        Ok(NormCount::Dynamic(e.divf(e.f(ty, 1.0), n)))
    }

    /// `s / n`: the mean of a sum `s` of `n` elements.
    fn mean<'b>(&self, e: Emitter<'c, 'b>, s: MValue<'c, 'b>) -> MValue<'c, 'b> {
        match *self {
            NormCount::Static(n) => scaled(e, s, 1.0 / n),
            NormCount::Dynamic(inv) => e.mulf(s, inv),
        }
    }
}

/// Dims an entry check finds equal, pair by pair.
type DimPairs = Vec<(Dim, Dim)>;

/// X's dims, and each of them paired with Y's (a normalization keeps X's
/// shape: the entry checks the pairs equal). An error for an unknown
/// rank or size, or a Y of another rank than X, or a rank below 2.
fn x_and_y_pairs(
    model: &Model,
    data: &OpData,
) -> std::result::Result<(Vec<Dim>, DimPairs), &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
    if x.len() != y.len() || x.len() < 2 {
        return Err("an output of another rank than X, or a rank below 2");
    }
    let pairs = x.iter().cloned().zip(y).collect();
    Ok((x, pairs))
}

/// The checks of an inference BatchNormalization with symbolic sizes
/// (`ops::entry_checks`; the lowering reads its four parameters along the
/// channel dim, `channel_map`): X and Y agree, and each parameter is a
/// vector as long as X's channels. An error names what cannot be lowered:
/// an unknown rank or size, parameters that are no vectors (`spatial = 0`
/// before opset 9).
fn batch_norm_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, mut pairs) = x_and_y_pairs(model, data)?;
    for &v in data.inputs[1..].iter().flatten() {
        match dims(Some(v))?.as_slice() {
            [c] => pairs.push((c.clone(), x[1].clone())),
            _ => return Err("parameters that are not vectors over the channels"),
        }
    }
    Ok(pairs
        .into_iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| Check::Equal(a, b))
        .collect())
}

/// The scalar computation of an inference BatchNormalization.
pub(crate) fn batch_norm_scalar<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    op: OpId,
    scalars: &HashMap<Value, MValue<'c, 'b>>,
) -> Result<MValue<'c, 'b>> {
    let data = kb.model.ir.op(op);
    let training = data.attrs.int("training_mode").unwrap_or(0) != 0;
    if training || data.results.iter().skip(1).any(Option::is_some) {
        return Err(kb.unsupported(op, "training-mode BatchNormalization"));
    }
    let x = data.inputs[0].expect("X is required");
    let (xd, elem) = kb.shape(x)?;
    if !elem.is_float() || xd.len() < 2 {
        return Err(kb.unsupported(op, "BatchNormalization of a non-float or rank < 2 input"));
    }
    for p in data.inputs[1..].iter().flatten() {
        if kb.shape(*p)?.1 != elem {
            return Err(kb.unsupported(op, "parameters of another type than the input"));
        }
    }
    let arg = |i: usize| scalars[&data.inputs[i].expect("BatchNormalization has 5 inputs")];
    let (xs, scale, bias, mean, var) = (arg(0), arg(1), arg(2), arg(3), arg(4));
    let ty = xs.r#type();
    let eps = data.attrs.float("epsilon").unwrap_or(1e-5) as f64;
    let std = e.sqrt(e.addf(var, e.f(ty, eps)));
    let centered = e.subf(xs, mean);
    let normalized = e.divf(centered, std);
    let scaled = e.mulf(normalized, scale);
    Ok(e.addf(scaled, bias))
}

/// Lowers InstanceNormalization (1, 6, 22) and GroupNormalization (18, 21):
/// `(x − mean) / √(var + ε) · scale + bias` with the statistics of each
/// image's group of `C/G` channels (G = C for InstanceNormalization), and
/// `scale`/`bias` per channel (per group in GroupNormalization-18).
///
/// The statistics are reductions over the input seen as `[N, G, C/G,
/// S…]` (a `tensor.expand_shape` view, of run-time sizes where they are
/// symbolic) into `[N, G]`; the result is one generic over the input's
/// loops reading them at `(n, c floordiv C/G)` — in the body, at the
/// channel's group computed there, when `C/G` is symbolic. That map is no
/// projected permutation, so the kernel is left unchunked
/// (`Schedule::Generic`) rather than fused. Over symbolic sizes the
/// model's entry checks what the reads rely on ([`group_norm_checks`]).
fn lower_group_norm(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let scale = data.inputs[1].expect("scale is required");
    let bias = data.inputs[2].expect("B is required");
    let y = data.results[0].expect("Y is produced");
    let (dims, elem) = kb.shape(x)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return Err(kb.unsupported(op, "only f32 and f64 normalization is lowered"));
    }
    if dims.len() < 2 {
        return Err(kb.unsupported(op, "needs dims [N, C, …]"));
    }
    let xs = kb.sizes(x)?;
    let e = kb.e;
    let (groups, cg) = match (data.kind, xs[1]) {
        (OpKind::GroupNormalization, c) => {
            let g = data.attrs.int("num_groups").unwrap_or(1);
            let cg = match c {
                Size::Static(c) if g > 0 && c % g == 0 => Size::Static(c / g),
                Size::Static(_) => {
                    return Err(kb.unsupported(op, "channels not divisible by num_groups"))
                }
                // Checked to divide at run time ([`group_norm_checks`]).
                Size::Dynamic(c) if g > 0 => Size::Dynamic(e.divsi(c, e.index(g))),
                Size::Dynamic(_) => return Err(kb.unsupported(op, "num_groups below 1")),
            };
            (Size::Static(g), cg)
        }
        (_, c) => (c, Size::Static(1)),
    };
    let per_group_params = data.kind == OpKind::GroupNormalization && data.version < 21;
    let eps = f64::from(data.attrs.float("epsilon").unwrap_or(1e-5));
    let spatial = &xs[2..];
    // The number of elements per group: static, or the reciprocal of the
    // run-time count.
    let mut counted = vec![cg];
    counted.extend(spatial);
    let count = match counted
        .iter()
        .map(|s| match s {
            Size::Static(n) => Some(*n),
            Size::Dynamic(_) => None,
        })
        .product::<Option<i64>>()
    {
        Some(n) => NormCount::Static(n.max(1) as f64),
        None => NormCount::of_sizes(e, &counted, elem)?,
    };
    let mut view = vec![xs[0], groups, cg];
    view.extend(spatial);
    let vrank = view.len();
    let mut groups = vec![vec![0], vec![1, 2]];
    groups.extend((3..vrank as i64).map(|i| vec![i]));
    let xv = e.expand_shape(kb.tensor(x), &groups, &view, elem_type(e.cx, elem)?);
    let reduced: Vec<bool> = (0..vrank).map(|i| i >= 2).collect();
    let (vid, sm) = (
        identity_map(kb.e.cx, vrank),
        stat_map(kb.e.cx, vrank, &reduced),
    );
    let sum0 = kb.empty(&view[..2], elem)?;
    let sum0 = fill_zero(kb, sum0);
    let e = kb.e;
    let sum = generic(e, &[(xv, vid)], &[(sum0, sm)], &reduced, |be, a| {
        vec![be.addf(a[0], a[1])]
    });
    let sum: MValue = kb.structured(sum).result(0).expect("one result").into();
    let sq0 = kb.empty(&view[..2], elem)?;
    let sq0 = fill_zero(kb, sq0);
    let e = kb.e;
    let sq = generic(
        e,
        &[(xv, vid), (sum, sm)],
        &[(sq0, sm)],
        &reduced,
        |be, a| {
            let d = be.subf(half::widen(be, a[0]), count.mean(be, a[1]));
            vec![be.addf(a[2], be.mulf(d, d))]
        },
    );
    let sq: MValue = kb.structured(sq).result(0).expect("one result").into();
    let rank = dims.len();
    let (st, bt) = (kb.tensor(scale), kb.tensor(bias));
    let mut ins = vec![(kb.tensor(x), identity_map(kb.e.cx, rank))];
    if let Size::Static(cg) = cg {
        let cx = kb.e.cx;
        let group = d(cx, 1).floordiv(cg);
        let stat = map(cx, rank, &[d(cx, 0), group]);
        let param = if per_group_params {
            map(cx, rank, &[group])
        } else {
            projection(cx, rank, [1])
        };
        ins.extend([(sum, stat), (sq, stat), (st, param), (bt, param)]);
    }
    let init = kb.init(y)?;
    let e = kb.e;
    let out = generic(
        e,
        &ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let (mean, var, scale, bias) = match cg {
                Size::Static(_) => (a[1], a[2], a[3], a[4]),
                Size::Dynamic(cg) => {
                    let n = be.loop_index(0);
                    let c = be.loop_index(1);
                    let g = be.divui(c, cg);
                    let p = if per_group_params { g } else { c };
                    (
                        be.extract(sum, &[n, g]),
                        be.extract(sq, &[n, g]),
                        be.extract(st, &[p]),
                        be.extract(bt, &[p]),
                    )
                }
            };
            let d = be.subf(a[0], count.mean(be, mean));
            let v = be.mulf(d, inv_std(be, count.mean(be, var), eps));
            let v = be.mulf(v, scale);
            vec![be.addf(v, bias)]
        },
    );
    let out = kb.root(out, Schedule::Generic { outer: None });
    kb.define(y, out.result(0).expect("one result").into());
    Ok(())
}

/// The checks of an InstanceNormalization or GroupNormalization with
/// symbolic sizes (`ops::entry_checks`): X and Y agree, `num_groups`
/// divides the channels, and `scale` and `B` have one entry per channel
/// (per group in GroupNormalization-18). An error names what cannot be
/// lowered: an unknown rank or size.
fn group_norm_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, mut pairs) = x_and_y_pairs(model, data)?;
    let mut out = vec![];
    let per_param = match data.kind {
        OpKind::GroupNormalization => {
            let g = Dim::Known(data.attrs.int("num_groups").unwrap_or(1));
            if x[1].div_exact(&g) == Dim::Unknown {
                out.push(Check::Divisible(x[1].clone(), g.clone()));
            }
            if data.version < 21 {
                g
            } else {
                x[1].clone()
            }
        }
        _ => x[1].clone(),
    };
    for &v in data.inputs[1..].iter().flatten() {
        let p = dims(Some(v))?;
        if p.len() != 1 {
            return Err("a scale or bias of a rank other than 1");
        }
        pairs.push((p[0].clone(), per_param.clone()));
    }
    let mut equal: Vec<Check> = pairs
        .into_iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| Check::Equal(a, b))
        .collect();
    equal.extend(out);
    Ok(equal)
}

/// `t` filled with zeros (`linalg.fill`), as an unscheduled structured op.
fn fill_zero<'c, 'a>(kb: &mut KernelBuilder<'c, 'a>, t: MValue<'c, 'a>) -> MValue<'c, 'a> {
    let e = kb.e;
    let zero = e.f(elem_of(t), 0.0);
    let f = fill(e, zero, t);
    kb.structured(f).result(0).expect("one result").into()
}

/// Lowers LRN (1, 13): `y = x / (bias + α/size · Σ x[c′]²)^β` over the
/// channels `c′ ∈ [c − ⌊(size−1)/2⌋, c + ⌈(size−1)/2⌉]` inside the input.
/// One generic over the input's loops; the window (a few channels) is
/// unrolled in the body, each read at a clamped channel and masked.
fn lower_lrn(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let y = data.results[0].expect("Y is produced");
    let (dims, elem) = kb.shape(x)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return Err(kb.unsupported(op, "only f32 and f64 LRN is lowered"));
    }
    if dims.len() < 2 {
        return Err(kb.unsupported(op, "needs dims [N, C, …]"));
    }
    let a = &data.attrs;
    let size = a.int("size").unwrap_or(1);
    if !(1..=64).contains(&size) {
        return Err(kb.unsupported(op, "a window of more than 64 channels"));
    }
    let alpha = f64::from(a.float("alpha").unwrap_or(1e-4));
    let beta = f64::from(a.float("beta").unwrap_or(0.75));
    let bias = f64::from(a.float("bias").unwrap_or(1.0));
    let (before, c) = ((size - 1) / 2, kb.sizes(x)?[1]);
    let rank = dims.len();
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let e = kb.e;
    let out = generic(
        e,
        &[(xt, identity_map(kb.e.cx, rank))],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, args| {
            let ty = args[0].r#type();
            let mut idx: Vec<MValue> = (0..rank).map(|d| be.loop_index(d)).collect();
            let channel = idx[1];
            let mut sum = be.f(ty, 0.0);
            for k in 0..size {
                // Channel c − before + k, read when inside [0, C).
                let p = be.addi(channel, be.index(k));
                let p = be.subi(p, be.index(before));
                // Unsigned: a negative channel compares above C.
                let ok = be.sized(c, |c| be.cmpi(CmpiPredicate::Ult, p, c));
                idx[1] = be.select(ok, p, be.index(0));
                let v = be.extract(xt, &idx);
                let sq = be.mulf(v, v);
                sum = be.addf(sum, be.select(ok, sq, be.f(ty, 0.0)));
            }
            let base = be.addf(be.f(ty, bias), scaled(be, sum, alpha / size as f64));
            let den = be.powf(base, be.f(ty, beta));
            vec![be.divf(args[0], den)]
        },
    );
    fused_root(kb, out, y, &dims);
    Ok(())
}
