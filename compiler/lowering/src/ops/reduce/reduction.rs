//! The Reduce* ops: a reduction generic into a temporary without the
//! reduced dims, read back by one generic over the output; with axes read
//! from a graph input at run time, one generic over the output folding
//! the elements each output element stands for.

use melior::ir::r#type::MemRefType;
use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use super::temporary::{constant, filled, result_map, stat_sizes, Init};
use crate::builder::{generic, identity_map, BinaryOp, CmpiPredicate, Emitter};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_ints, fused_root, norm_axis};
use crate::ops::half;
use crate::ops::math::{exp, log};
use crate::ops::operand::stat_map;
use crate::symbols::{graph_input, Check};
use crate::types::{elem_type, value_tensor};

/// The check of a Reduce* op whose axes are read from a graph input
/// ([`runtime_axes`]): they are valid axes that give the result's dims.
pub(super) fn axes_checks(model: &Model, op: OpId) -> Result<Vec<Check>> {
    let data = model.ir.op(op);
    let Some(axes) = runtime_axes(model, op) else {
        return Ok(vec![]);
    };
    let input = graph_input(model, axes).expect("runtime_axes is a graph input");
    let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
        let v = v.expect("a Reduce* op has data, axes and a result");
        Ok(value_tensor(model, v)?
            .dims()
            .map(<[Dim]>::to_vec)
            .unwrap_or_default())
    };
    Ok(vec![Check::Axes {
        input,
        len: dims(Some(axes))?[0].clone(),
        keepdims: data.attrs.int("keepdims").unwrap_or(1) != 0,
        noop: data.attrs.int("noop_with_empty_axes").unwrap_or(0) != 0,
        x: dims(data.inputs[0])?,
        y: dims(data.results[0])?,
    }])
}

/// Lowers a Reduce* op.
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    use OpKind::*;
    let data = kb.model.ir.op(op).clone();
    let kind = data.kind;
    let x = data.inputs[0].expect("data");
    let y = data.results[0].expect("reduced");
    let (xd, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let rank = xd.len();
    let float = elem.is_float();
    if !float && matches!(kind, ReduceL2 | ReduceLogSum | ReduceLogSumExp) {
        return Err(kb.unsupported(op, "integer inputs"));
    }
    if elem == ElemType::Bool && !matches!(kind, ReduceMax | ReduceMin) {
        return Err(kb.unsupported(op, &format!("{elem} inputs")));
    }
    // Half-precision inputs reduce in f32, rounded once per result.
    let acc = half::wide(elem);
    let input_since = if kind == ReduceSum { 13 } else { 18 };
    let keepdims = data.attrs.int("keepdims").unwrap_or(1) != 0;
    let noop = data.attrs.int("noop_with_empty_axes").unwrap_or(0) != 0;
    let axes: Option<Vec<i64>> = if data.version < input_since {
        Some(data.attrs.ints("axes").unwrap_or_default().to_vec())
    } else {
        match data.inputs.get(1).copied().flatten() {
            Some(v) if value_tensor(kb.model, v)?.static_numel() == Some(0) => Some(vec![]),
            Some(v) => const_ints(kb.model, v),
            None => Some(vec![]),
        }
    };
    if axes.is_none() {
        if let Some(axes) = runtime_axes(kb.model, op) {
            return lower_runtime_axes(kb, op, axes);
        }
    }
    let reduced: Vec<bool> = match axes {
        Some(axes) => {
            let mut reduced = vec![axes.is_empty() && !noop; rank];
            for &a in &axes {
                reduced[norm_axis(a, rank)] = true;
            }
            reduced
        }
        // Axes known only at run time, with kept dims: the dims the
        // inferred output shrinks to 1 are reduced (reducing a dim of
        // size 1 or not gives the same values, so a symbolic input dim
        // against an output dim of 1 is reduced too).
        None if keepdims && !noop && yd.len() == rank => xd
            .iter()
            .zip(&yd)
            .map(|(&x, &y)| y == 1 && x != 1)
            .collect(),
        None => {
            return Err(kb.unsupported(
                op,
                "axes that are not constants are not lowered (without keepdims)",
            ))
        }
    };
    let xs = kb.sizes(x)?;
    let reduced_sizes = || xs.iter().zip(&reduced).filter(|(_, &r)| r).map(|(s, _)| s);
    // The number of elements reduced into each result: static, or (with
    // symbolic sizes) computed at run time, where an empty reduction needs
    // no special case (its loops run zero times).
    let count: Count = if reduced_sizes().all(|s| matches!(s, crate::builder::Size::Static(_))) {
        Count::Static(
            reduced_sizes()
                .map(crate::builder::Size::type_dim)
                .product(),
        )
    } else {
        let e = kb.e;
        Count::Dynamic(reduced_sizes().fold(e.index(1), |n, s| e.muli(n, s.value(&e))))
    };
    let xt = kb.tensor(x);
    let (rd, rm) = (stat_sizes(&xs, &reduced), stat_map(kb.e.cx, rank, &reduced));
    // LogSumExp subtracts the max first.
    let max = if kind == ReduceLogSumExp {
        let t = kb.empty(&rd, acc)?;
        let t = filled(kb, t, acc, Init::Lowest);
        let g = generic(
            kb.e,
            &[(xt, identity_map(kb.e.cx, rank))],
            &[(t, rm)],
            &reduced,
            |be, a| vec![be.maximumf(half::widen(be, a[0]), a[1])],
        );
        Some(if count.is_zero() {
            t
        } else {
            kb.producer(g).result(0).expect("one result").into()
        })
    } else {
        None
    };
    let acc0 = kb.empty(&rd, acc)?;
    let acc0 = filled(kb, acc0, acc, identity(kind));
    let mut ins = vec![(xt, identity_map(kb.e.cx, rank))];
    if let Some(m) = max {
        ins.push((m, rm));
    }
    let g = generic(kb.e, &ins, &[(acc0, rm)], &reduced, |be, a| {
        let max = (kind == ReduceLogSumExp).then(|| a[1]);
        vec![fold(
            be,
            kind,
            acc,
            *a.last().expect("the accumulator"),
            half::widen(be, a[0]),
            max,
        )]
    });
    // Reducing an empty set leaves the identity (no loop over a zero-sized input).
    let sum: MValue = if count.is_zero() {
        acc0
    } else {
        kb.producer(g).result(0).expect("one result").into()
    };
    // The result: the reduction (and the max) read back per output element.
    // Mean's divisor, as an element: ÷N of floats multiplies by 1/N.
    let acc_ty = elem_type(kb.e.cx, acc)?;
    let divisor = match (kind, count) {
        (ReduceMean, Count::Static(n)) if float => Some(kb.e.f(acc_ty, 1.0 / n.max(1) as f64)),
        (ReduceMean, Count::Static(n)) => Some(kb.e.i(acc_ty, n.max(1))),
        (ReduceMean, Count::Dynamic(n)) => Some(mean_divisor(kb.e, acc_ty, float, n)),
        _ => None,
    };
    let read = result_map(kb.e.cx, &reduced, keepdims);
    let mut ins = vec![(sum, read)];
    if let Some(m) = max {
        ins.push((m, read));
    }
    let init = kb.init(y)?;
    let out_rank = yd.len();
    let out_ty = elem_type(kb.e.cx, elem)?;
    let g = generic(
        kb.e,
        &ins,
        &[(init, identity_map(kb.e.cx, out_rank))],
        &vec![false; out_rank],
        |be, a| {
            let r = post(be, kind, acc, a[0], divisor, a.get(1).copied());
            vec![half::narrow(be, r, out_ty)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// The `axes` input of Reduce* op `op` when it is lowered with the axes
/// read at run time ([`lower_runtime_axes`]): a graph input (so that the
/// model's entry can check its values, `ops::entry_checks`) of one dim, not
/// a static 0 (no axes is a constant), whose length may be known at run
/// time only.
pub(super) fn runtime_axes(model: &Model, op: OpId) -> Option<Value> {
    use OpKind::*;
    let data = model.ir.op(op);
    let since = match data.kind {
        ReduceSum => 13,
        ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax | ReduceMean
        | ReduceMin | ReduceProd | ReduceSumSquare => 18,
        _ => return None,
    };
    let axes = data.inputs.get(1).copied().flatten()?;
    let len = match value_tensor(model, axes).ok()?.dims()? {
        [len] => len.clone(),
        _ => return None,
    };
    let counted = len != Dim::Unknown && len != Dim::Known(0);
    (data.version >= since && counted && graph_input(model, axes).is_some()).then_some(axes)
}

/// Lowers a Reduce* op whose axes are known only at run time (a graph
/// input whose length may be known at run time only too,
/// [`runtime_axes`]): the kernel reads them and derives, per input dim,
/// whether it is reduced ([`axes_mask`]); one generic over the
/// output then folds, for each output element, the elements of the input
/// it stands for with an `scf.for` over the reduced dims (their sizes, 1
/// for kept dims, delinearized). A kept dim's coordinate is the output's
/// at the same position (`keepdims`) or at the position among the kept
/// dims. The model's entry checks the axes against the shapes
/// (`symbols::Check::Axes`): in range, distinct, and giving the output's
/// dims; coordinates are clamped into the input besides, so that nothing
/// is read out of bounds even before that check. f16/bf16 inputs
/// accumulate in f32 and round once; bools fold with max/min of their
/// 0/1 bytes (or/and), the result normalized to 0/1.
fn lower_runtime_axes<'c, 'a>(kb: &mut KernelBuilder<'c, 'a>, op: OpId, axes: Value) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let kind = data.kind;
    let x = data.inputs[0].expect("data");
    let y = data.results[0].expect("reduced");
    let (xd, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let keepdims = data.attrs.int("keepdims").unwrap_or(1) != 0;
    let noop = data.attrs.int("noop_with_empty_axes").unwrap_or(0) != 0;
    let rank = xd.len();
    let static_len = value_tensor(kb.model, axes)?.static_numel();
    let rank_ok = match (keepdims, static_len) {
        (true, _) => yd.len() == rank,
        (false, Some(k)) => yd.len() as i64 == rank as i64 - k,
        // (checked at run time, `symbols::Check::Axes`)
        (false, None) => yd.len() <= rank,
    };
    if !rank_ok {
        return Err(kb.unsupported(
            op,
            "an output rank that does not match the length of the axes",
        ));
    }
    let e = kb.e;
    let xs: Vec<MValue> = kb.sizes(x)?.iter().map(|s| s.value(&e)).collect();
    let (xt, at) = (kb.tensor(x), kb.tensor(axes));
    let len = kb.sizes(axes)?[0].value(&e);
    let reduced = axes_mask(e, at, len, rank, noop).reduced;
    // Per dim: the position among the kept dims.
    let mut pos = vec![];
    let mut kept_before = e.index(0);
    for &r in &reduced {
        pos.push(kept_before);
        let next = e.addi(kept_before, e.index(1));
        kept_before = e.select(r, kept_before, next);
    }
    let ty = elem_type(e.cx, elem)?;
    // Half-precision inputs reduce in f32, rounded once per result.
    let acc = half::wide(elem);
    let acc_ty = elem_type(e.cx, acc)?;
    let init = kb.init(y)?;
    let out_rank = yd.len();
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, out_rank))],
        &vec![false; out_rank],
        |be, _| {
            let o: Vec<MValue> = (0..out_rank).map(|m| be.loop_index(m)).collect();
            // The output's coordinate of each kept dim, clamped into the input.
            let kept: Vec<MValue> = (0..rank)
                .map(|d| {
                    let c = if keepdims {
                        o[d]
                    } else {
                        o.iter().enumerate().fold(be.index(0), |c, (m, &om)| {
                            let here = be.cmpi(CmpiPredicate::Eq, pos[d], be.index(m as i64));
                            be.select(here, om, c)
                        })
                    };
                    let last = be.subi(xs[d], be.index(1));
                    be.maxsi(be.minsi(c, last), be.index(0))
                })
                .collect();
            let (spans, count) = extents(be, &reduced, &xs);
            let divisor = (kind == OpKind::ReduceMean)
                .then(|| mean_divisor(be, acc_ty, acc.is_float(), count));
            let walk = Walk {
                x: xt,
                spans: &spans,
                reduced: &reduced,
                kept: &kept,
            };
            let max = (kind == OpKind::ReduceLogSumExp).then(|| {
                let lowest = constant(be, acc_ty, acc, Init::Lowest);
                be.for_loop(be.index(0), count, &[lowest], |le, t, c| {
                    let x = half::widen(le, walk.element(le, t));
                    vec![le.maximumf(c[0], x)]
                })[0]
            });
            let start = constant(be, acc_ty, acc, identity(kind));
            let s = be.for_loop(be.index(0), count, &[start], |le, t, c| {
                let x = half::widen(le, walk.element(le, t));
                vec![fold(le, kind, acc, c[0], x, max)]
            })[0];
            let r = post(be, kind, acc, s, divisor, max);
            vec![if elem == ElemType::Bool {
                // Or/and of 0/1 bytes: an empty Min's all-ones identity is true.
                let true_ = be.cmpi(CmpiPredicate::Ne, r, be.i(ty, 0));
                be.extui(true_, ty)
            } else {
                half::narrow(be, r, ty)
            }]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// Per dim of [`lower_runtime_axes`]'s input (`reduced`: whether it is
/// reduced, `sizes`: its run-time sizes), the loop extent over it (its
/// size where reduced, else 1); and their product, the number of input
/// elements each output element reduces. (An empty kept dim makes the
/// output empty: nothing is then read.)
fn extents<'c, 'b>(
    e: Emitter<'c, 'b>,
    reduced: &[MValue<'c, '_>],
    sizes: &[MValue<'c, '_>],
) -> (Vec<MValue<'c, 'b>>, MValue<'c, 'b>) {
    let one = e.index(1);
    let spans: Vec<MValue> = reduced
        .iter()
        .zip(sizes)
        .map(|(&r, &n)| e.select(r, n, one))
        .collect();
    let count = spans.iter().fold(one, |c, &s| e.muli(c, s));
    (spans, count)
}

/// The input elements an output element of [`lower_runtime_axes`] reduces.
struct Walk<'c, 'o, 'i> {
    /// The input tensor.
    x: MValue<'c, 'o>,
    /// Per dim: the loop extent (the size where reduced, else 1), whether
    /// it is reduced (`i1`), and the output element's coordinate.
    spans: &'i [MValue<'c, 'i>],
    reduced: &'o [MValue<'c, 'o>],
    kept: &'i [MValue<'c, 'i>],
}

impl<'c> Walk<'c, '_, '_> {
    /// The `t`-th input element (`t` delinearized over the spans).
    fn element<'r>(&self, le: Emitter<'c, 'r>, t: MValue<'c, 'r>) -> MValue<'c, 'r> {
        let rank = self.spans.len();
        let mut rest = t;
        let mut at = vec![le.index(0); rank];
        for d in (0..rank).rev() {
            let td = le.remui(rest, self.spans[d]);
            rest = le.divui(rest, self.spans[d]);
            at[d] = le.select(self.reduced[d], td, self.kept[d]);
        }
        le.extract(self.x, &at)
    }
}

/// What the `len` entries of a Reduce*'s `axes` (integers; negative ones
/// count from the end) say about a rank-`rank` input ([`axes_mask`]).
pub(crate) struct AxesMask<'c, 'a> {
    /// Per dim, an `i1`: whether it is reduced (every dim for no entries,
    /// none with `noop_with_empty_axes`).
    pub(crate) reduced: Vec<MValue<'c, 'a>>,
    /// An `i1`: every entry is in `[-rank, rank)` and no two name the same
    /// dim.
    pub(crate) valid: MValue<'c, 'a>,
}

/// Reads the `len` (an `index`, possibly known at run time only) entries
/// of a Reduce*'s `axes` (a tensor in a kernel, a memref in the model's
/// entry check) in one `scf.for`, counting per dim how many entries name
/// it.
pub(crate) fn axes_mask<'c, 'a>(
    e: Emitter<'c, 'a>,
    axes: MValue<'c, 'a>,
    len: MValue<'c, 'a>,
    rank: usize,
    noop: bool,
) -> AxesMask<'c, 'a> {
    let index = Type::index(e.cx);
    let i1 = e.int_type(1);
    let r = rank as i64;
    let mut init = vec![e.i(i1, 1)];
    init.extend((0..rank).map(|_| e.index(0)));
    let memref = MemRefType::try_from(axes.r#type()).is_ok();
    let state = e.for_loop(e.index(0), len, &init, |le, j, c| {
        let a = if memref {
            le.load(axes, &[j])
        } else {
            le.extract(axes, &[j])
        };
        let a = le.index_cast(a, index);
        let low = le.cmpi(CmpiPredicate::Sge, a, le.index(-r));
        let high = le.cmpi(CmpiPredicate::Slt, a, le.index(r));
        let in_range = le.andi(low, high);
        let negative = le.cmpi(CmpiPredicate::Slt, a, le.index(0));
        let a = le.select(negative, le.addi(a, le.index(r)), a);
        let mut next = vec![le.andi(c[0], in_range)];
        for (d, &count) in c[1..].iter().enumerate() {
            let hit = le.cmpi(CmpiPredicate::Eq, a, le.index(d as i64));
            let plus = le.addi(count, le.index(1));
            next.push(le.select(hit, plus, count));
        }
        next
    });
    let empty = e.cmpi(CmpiPredicate::Eq, len, e.index(0));
    let all = e.i(i1, i64::from(!noop));
    let mut valid = state[0];
    let mut reduced = vec![];
    for &count in &state[1..] {
        let once = e.cmpi(CmpiPredicate::Sle, count, e.index(1));
        valid = e.andi(valid, once);
        let named = e.cmpi(CmpiPredicate::Ugt, count, e.index(0));
        reduced.push(e.select(empty, all, named));
    }
    AxesMask { reduced, valid }
}

/// Mean's divisor for a run-time count `n` (an `index`) of elements of
/// MLIR type `ty`: `1/max(n, 1)` for floats (multiplied by), `max(n, 1)`
/// for integers (divided by).
fn mean_divisor<'c, 'a>(
    e: Emitter<'c, 'a>,
    ty: Type<'c>,
    float: bool,
    n: MValue<'c, 'a>,
) -> MValue<'c, 'a> {
    let n = e.maxsi(n, e.index(1));
    let n = e.index_cast(n, e.int_type(64));
    if float {
        let n = e.sitofp(n, ty);
        e.divf(e.f(ty, 1.0), n)
    } else {
        e.trunci(n, ty)
    }
}

/// The identity a reduction of `kind` starts from.
fn identity(kind: OpKind) -> Init {
    match kind {
        OpKind::ReduceMax => Init::Lowest,
        OpKind::ReduceMin => Init::Highest,
        OpKind::ReduceProd => Init::One,
        _ => Init::Zero,
    }
}

/// One step of a reduction of `kind`: `acc` with element `x` folded in
/// (LogSumExp's terms are `exp(x - max)`).
fn fold<'c, 'b>(
    be: Emitter<'c, 'b>,
    kind: OpKind,
    elem: ElemType,
    acc: MValue<'c, '_>,
    x: MValue<'c, '_>,
    max: Option<MValue<'c, '_>>,
) -> MValue<'c, 'b> {
    use OpKind::*;
    let float = elem.is_float();
    let signed = elem.is_signed_int();
    let add = if float {
        BinaryOp::AddF
    } else {
        BinaryOp::AddI
    };
    let mul = if float {
        BinaryOp::MulF
    } else {
        BinaryOp::MulI
    };
    match kind {
        ReduceMax if float => be.maximumf(acc, x),
        ReduceMax if signed => be.maxsi(acc, x),
        ReduceMax => be.maxui(acc, x),
        ReduceMin if float => be.minimumf(acc, x),
        ReduceMin if signed => be.minsi(acc, x),
        ReduceMin => be.minui(acc, x),
        ReduceProd => be.binary(mul, acc, x),
        ReduceSumSquare | ReduceL2 => be.binary(add, acc, be.binary(mul, x, x)),
        ReduceL1 if float => be.binary(add, acc, be.absf(x)),
        ReduceL1 if signed => be.binary(add, acc, be.absi(x)),
        ReduceLogSumExp => {
            let max = max.expect("LogSumExp's max");
            be.binary(add, acc, exp(be, be.subf(x, max)))
        }
        _ => be.binary(add, acc, x),
    }
}

/// A reduction's result from its accumulated value `s`: Mean's ÷N (as a
/// product with `divisor` = 1/N for floats), L2's √, LogSum's log,
/// LogSumExp's `log s + max`.
fn post<'c, 'b>(
    be: Emitter<'c, 'b>,
    kind: OpKind,
    elem: ElemType,
    s: MValue<'c, 'b>,
    divisor: Option<MValue<'c, '_>>,
    max: Option<MValue<'c, '_>>,
) -> MValue<'c, 'b> {
    use OpKind::*;
    match kind {
        ReduceMean if elem.is_float() => be.mulf(s, divisor.expect("Mean's divisor")),
        ReduceMean if elem.is_signed_int() => be.divsi(s, divisor.expect("Mean's divisor")),
        ReduceMean => be.divui(s, divisor.expect("Mean's divisor")),
        ReduceL2 => be.sqrt(s),
        ReduceLogSum => log(be, s),
        ReduceLogSumExp => be.addf(log(be, s), max.expect("LogSumExp's max")),
        _ => s,
    }
}

/// How many elements a reduction reduces into each result.
#[derive(Copy, Clone)]
enum Count<'c, 'a> {
    Static(i64),
    /// Known at run time only (an `index`).
    Dynamic(MValue<'c, 'a>),
}

impl Count<'_, '_> {
    /// Whether the reduction is statically empty.
    fn is_zero(&self) -> bool {
        matches!(self, Count::Static(0))
    }
}
