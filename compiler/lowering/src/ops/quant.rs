//! Quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//! and the integer products (MatMulInteger, QLinearMatMul, ConvInteger,
//! QLinearConv).
//!
//! | op | computes | variants |
//! |---|---|---|
//! | QuantizeLinear | `y = saturate(round_half_even(x / scale) + zero_point)` for an integer `y`; `y = cast(x / scale)` for float8, `cast(x / scale + zero_point)` for float4 | per-tensor, per-axis (`axis`), blocked (`block_size`), `output_dtype`, `saturate` (float8), `precision` (the type of the division); `x`/`scale` f32, f16, bf16; `y` u8, i8, u16, i16, u4, i4, u2, i2, the four float8 formats, float4e2m1 |
//! | DequantizeLinear | `y = (x - zero_point) · scale` (the zero point ignored for narrow floats) | per-tensor, per-axis, blocked, `output_dtype`; `x` any integer or narrow type of the op; `scale` f32, f16, bf16 |
//! | MatMulInteger | `y = (a - a_zero_point) · (b - b_zero_point)` in `i32` | u8/i8 operands; zero points scalar, per row of `a`, per column of `b`; MatMul's batching and 1-D promotion |
//! | QLinearMatMul | `y = saturate(round_half_even(c · (a_scale · b_scale / y_scale)) + y_zero_point)` with `c` the MatMulInteger product | scalar scales and output zero point; u8/i8 |
//! | ConvInteger | Conv of `(x - x_zero_point)` and `(w - w_zero_point)` in `i32` | u8/i8; `w_zero_point` scalar or per output channel; Conv's geometry |
//! | QLinearConv | `y = saturate(round_half_even(c · (x_scale · w_scale / y_scale)) + y_zero_point)`, `c` ConvInteger's result plus the `i32` bias | `w_scale` scalar or per output channel; u8/i8 |
//! | DynamicQuantizeLinear | `scale = (max(0, max x) - min(0, min x)) / 255` (1/255 when both are 0), `zero_point = round_half_even(clamp(-min(0, min x) / scale, 0, 255))`, `y` = QuantizeLinear to u8 | opset 11, `x` f32 |
//!
//! Q/DQ are each one elementwise `linalg.generic` over `x`'s loops. The scale
//! and zero point are read through their indexing map: no dims (or all
//! zeros) per tensor, `(d_axis)` per axis, and the input's map with
//! `d_axis floordiv block_size` when blocked — the reference's
//! repetition of each scale over its block, without materializing it.
//!
//! Arithmetic is in `f32`, as the reference's (numpy's) for these types:
//! integers up to 16 bits and every narrow value are exact there, and a
//! quotient of two `f16` (or two `bf16`) values is rounded back to that
//! type, as numpy divides in it (`f32` holds enough bits for that double
//! rounding to be exact). Conversions to and from the narrow types are
//! [`super::narrow`]'s, through [`super::elementwise::cast`].
//!
//! The integer products widen each operand minus its zero point to an
//! `i32` tensor, then reuse MatMul's contraction
//! ([`super::linalg::contraction`], whose body is integer when its
//! accumulator is) or Conv's window ([`conv_with`]) with an `i32`
//! accumulator: products of 8-bit values summed in `i32` are exact, as
//! the reference's. QLinearMatMul/QLinearConv then requantize the `i32`
//! result ([`requantize`]).

use std::collections::HashMap;

use melior::ir::{AffineMap, Type, Value as MValue, ValueLike};
use melior::Context;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::QuantOp;
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use super::common::norm_axis;
use super::elementwise::cast::cast;
use super::narrow::{self, Format};
use super::operand::{BodyOperand, Gather};
use crate::builder::{
    d, generic, identity_map, map, projection, ranked_tensor, vector_type, CmpfPredicate, Emitter,
    Expr, Size,
};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::symbols::{equalities, same_shape_pairs, sized_dims, Check, Symbolic};

/// How a scale (or zero point) is laid over the input.
struct Layout {
    axis: usize,
    block: i64,
}

impl Layout {
    /// The layout of op `op` (its `axis` and `block_size`) over an input
    /// of rank `rank`.
    fn of(kb: &KernelBuilder, op: OpId, rank: usize) -> Layout {
        let attrs = &kb.model.ir.op(op).attrs;
        Layout {
            axis: norm_axis(attrs.int("axis").unwrap_or(1), rank),
            block: attrs.int("block_size").unwrap_or(0),
        }
    }

    /// The indexing map of a scale or zero point of `dims` over an input
    /// of rank `rank`; `None` when its shape fits none of the layouts.
    fn map<'c>(
        &self,
        cx: &'c Context,
        dims: &[i64],
        rank: usize,
        x_dims: &[i64],
    ) -> Option<AffineMap<'c>> {
        let all_ones = dims.iter().all(|&d| d == 1);
        if self.axis >= rank || self.block <= 0 || all_ones {
            let along = (self.axis < rank).then(|| (self.axis, x_dims[self.axis]));
            return param_map(cx, dims, rank, along);
        }
        let fits = dims.len() == rank
            && dims.iter().zip(x_dims).enumerate().all(|(i, (&d, &x))| {
                d >= 0
                    && x >= 0
                    && if i == self.axis {
                        d == (x + self.block - 1) / self.block
                    } else {
                        d == x
                    }
            });
        if !fits {
            return None;
        }
        let exprs: Vec<Expr> = (0..rank)
            .map(|i| {
                if i == self.axis {
                    d(cx, i).floordiv(self.block)
                } else {
                    d(cx, i)
                }
            })
            .collect();
        Some(map(cx, rank, &exprs))
    }
}

/// The indexing map, over `rank` loops, of a scale or zero point of
/// `dims`: one element (all dims 1) for every point, or, given `along =
/// (d, n)`, a 1-D tensor of `n` elements indexed by loop `d`. `None` for
/// any other shape.
fn param_map<'c>(
    cx: &'c Context,
    dims: &[i64],
    rank: usize,
    along: Option<(usize, i64)>,
) -> Option<AffineMap<'c>> {
    if dims.iter().all(|&n| n == 1) {
        return Some(map(cx, rank, &vec![Expr::constant(cx, 0); dims.len()]));
    }
    let (axis, n) = along?;
    (dims == [n]).then(|| projection(cx, rank, [axis]))
}

/// The inclusive range of an integer quantized type, `None` for a type
/// that is not one.
fn int_range(elem: ElemType) -> Option<(f64, f64)> {
    use ElemType::*;
    Some(match elem {
        U8 => (0.0, 255.0),
        I8 => (-128.0, 127.0),
        U16 => (0.0, 65535.0),
        I16 => (-32768.0, 32767.0),
        U4 => (0.0, 15.0),
        I4 => (-8.0, 7.0),
        U2 => (0.0, 3.0),
        I2 => (-2.0, 1.0),
        _ => return None,
    })
}

/// `x` (a float) clamped to `lo..=hi`; NaN becomes `lo` (`maxnumf`),
/// like the reference's conversion of NaN to the smallest `int32`.
fn clamp<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, (lo, hi): (f64, f64)) -> MValue<'c, 'b> {
    let t = x.r#type();
    let x = e.maxnumf(x, e.f(t, lo));
    e.minnumf(x, e.f(t, hi))
}

/// `x` (an `f32`) rounded to the float type `elem` and back (exact for
/// `f32`).
fn rounded_to<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, elem: ElemType) -> MValue<'c, 'b> {
    if elem == ElemType::F32 {
        return x;
    }
    let narrow = cast(e, x, ElemType::F32, elem, false)
        .ok()
        .flatten()
        .expect("a wide float type");
    to_f32(e, narrow, elem)
}

/// Whether `elem` is a float type a scale or an input to quantize can have.
fn is_wide_float(elem: ElemType) -> bool {
    matches!(elem, ElemType::F32 | ElemType::F16 | ElemType::BF16)
}

/// `x` (of ONNX type `from`) as an `f32`; the caller has checked the
/// conversion exists.
fn to_f32<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, from: ElemType) -> MValue<'c, 'b> {
    cast(e, x, from, ElemType::F32, false)
        .ok()
        .flatten()
        .expect("operand types checked before building the body")
}

/// A `linalg.generic`'s inputs: each tensor with its indexing map.
type Inputs<'c, 'a> = Vec<(MValue<'c, 'a>, AffineMap<'c>)>;

/// The operands of a quantization op as `linalg.generic` inputs: `x` with
/// the identity map, then the scale and the zero point (when given) with
/// their layout's map; and how the body reads each parameter. A 1-D
/// parameter whose size is known only at run time ([`runtime_param`]) is
/// gathered instead: per axis, or at 0 where its size is 1.
fn operands<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    op: OpId,
    x: Value,
    params: &[Value],
) -> Result<(Inputs<'c, 'a>, Vec<BodyOperand<'c, 'a>>)> {
    let x_dims = kb.shape(x)?.0;
    let rank = x_dims.len();
    let layout = Layout::of(kb, op, rank);
    let mut ins = vec![(kb.tensor(x), identity_map(kb.e.cx, rank))];
    let mut readers = vec![];
    for &p in params {
        if let Some(axis) = runtime_param(kb.model, kb.model.ir.op(op), p) {
            readers.push(BodyOperand::Gathered(Gather::along(kb, p, axis)?));
            continue;
        }
        let dims = kb.shape(p)?.0;
        let m = layout.map(kb.e.cx, &dims, rank, &x_dims).ok_or_else(|| {
            kb.unsupported(
                op,
                &format!(
                    "a scale or zero point of shape {dims:?} for an input of shape {x_dims:?}"
                ),
            )
        })?;
        ins.push((kb.tensor(p), m));
        readers.push(BodyOperand::Input(ins.len() - 1));
    }
    Ok((ins, readers))
}

/// Whether parameter `p` (a scale or zero point) of Q/DQ op `data` is a
/// 1-D tensor of a size known only at run time (neither 1 nor the input's
/// dim along the axis at compile time): per-tensor or per-axis is then
/// decided at run time. `Some(axis)`: read along the input's `axis` (or
/// at 0 where its size is 1); `Some(None)`: the axis is out of the input's
/// range, so it must be one element.
fn runtime_param(model: &Model, data: &OpData, p: Value) -> Option<Option<usize>> {
    let dims = |v: Value| {
        crate::types::value_tensor(model, v)
            .ok()?
            .dims()
            .map(<[Dim]>::to_vec)
    };
    let x = dims(data.inputs[0]?)?;
    let [d] = &dims(p)?[..] else { return None };
    if data.attrs.int("block_size").unwrap_or(0) != 0 || *d == Dim::Known(1) || *d == Dim::Unknown {
        return None;
    }
    let axis = data.attrs.int("axis").unwrap_or(1);
    let rank = x.len() as i64;
    let axis = (-rank..rank)
        .contains(&axis)
        .then(|| norm_axis(axis, x.len()));
    match axis {
        Some(a) if x[a] == *d => None,
        _ => Some(axis),
    }
}

/// The checks of a QuantizeLinear/DequantizeLinear with symbolic sizes:
/// `x`'s dims equal `y`'s, and each parameter read at run time
/// ([`runtime_param`]) 1 or the input's dim along the axis (1 when the
/// axis is out of range). An error names what cannot be lowered: a
/// parameter that is blocked or of higher rank with symbolic sizes, or an
/// unknown size.
fn linear_checks(model: &Model, data: &OpData) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Value| sized_dims(model, Some(v));
    let x = dims(data.inputs[0].expect("verified: x"))?;
    let y = dims(data.results[0].expect("verified: y"))?;
    if x.len() != y.len() {
        return Err("a result of another rank than its input");
    }
    let mut out: Vec<Check> = x
        .iter()
        .zip(&y)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| Check::Equal(a.clone(), b.clone()))
        .collect();
    for &p in data.inputs[1..].iter().flatten() {
        let d = dims(p)?;
        match runtime_param(model, data, p) {
            Some(Some(axis)) => out.push(Check::Broadcast(d[0].clone(), x[axis].clone())),
            Some(None) => out.push(Check::Equal(d[0].clone(), Dim::Known(1))),
            None if d.iter().any(|d| !d.is_known()) && d.len() > 1 => {
                return Err("a blocked scale or zero point of symbolic size")
            }
            None => {}
        }
    }
    Ok(out)
}

/// Appends the elementwise generic of a quantization op and defines its
/// result `y`.
fn build<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    ins: &[(MValue<'c, 'a>, AffineMap<'c>)],
    y: Value,
    body: impl for<'b> FnOnce(Emitter<'c, 'b>, Vec<MValue<'c, 'b>>) -> MValue<'c, 'b>,
) -> Result<()> {
    let (dims, elem) = kb.shape(y)?;
    let init = kb.init(y)?;
    let rank = dims.len();
    let g = generic(
        kb.e,
        ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, args| vec![body(be, args)],
    );
    let g = kb.elementwise(g, &dims, elem.bit_width().max(8));
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// The op's inputs and its result: `x`, scale, optional zero point, `y`.
fn signature(kb: &KernelBuilder, op: OpId) -> (Value, Value, Option<Value>, Value) {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    (
        input(0).expect("verified: x"),
        input(1).expect("verified: scale"),
        input(2),
        data.results[0].expect("verified: y"),
    )
}

/// Lowers a linear quantization or dequantization.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: QuantOp) -> Result<()> {
    match which {
        QuantOp::QuantizeLinear => lower_quantize(kb, op),
        QuantOp::DequantizeLinear => lower_dequantize(kb, op),
        QuantOp::DynamicQuantizeLinear => lower_dynamic_quantize(kb, op),
    }
}

/// How a quantization op takes symbolic sizes: a scale or zero point per
/// tensor or per axis decided at run time ([`linear_checks`]); the
/// dynamic quantization's input and result agree.
pub(crate) fn checks(model: &Model, data: &OpData, which: QuantOp) -> Symbolic {
    match which {
        QuantOp::QuantizeLinear | QuantOp::DequantizeLinear => {
            Symbolic::of(linear_checks(model, data))
        }
        QuantOp::DynamicQuantizeLinear => {
            Symbolic::of(same_shape_pairs(model, data).map(equalities))
        }
    }
}

/// Lowers QuantizeLinear (see the module docs).
fn lower_quantize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let (x, scale, zero, y) = signature(kb, op);
    let (xe, se, ye) = (kb.shape(x)?.1, kb.shape(scale)?.1, kb.shape(y)?.1);
    if !is_wide_float(xe) || !is_wide_float(se) {
        return Err(kb.unsupported(op, &format!("{xe} input with {se} scale")));
    }
    let attrs = &kb.model.ir.op(op).attrs;
    let saturate = attrs.int("saturate").unwrap_or(1) != 0;
    let div = match attrs.int("precision").filter(|&p| p != 0) {
        Some(p) => match i32::try_from(p).ok().and_then(ElemType::from_onnx) {
            Some(t) if is_wide_float(t) => t,
            _ => return Err(kb.unsupported(op, &format!("precision {p}"))),
        },
        None if xe == se => xe,
        None => ElemType::F32,
    };
    let range = int_range(ye);
    let format = Format::of(ye);
    if range.is_none() && format.is_none() {
        return Err(kb.unsupported(op, &format!("{ye} output")));
    }
    let params: Vec<Value> = std::iter::once(scale).chain(zero).collect();
    let (ins, readers) = operands(kb, op, x, &params)?;
    let ze = match zero {
        Some(z) => Some(kb.shape(z)?.1),
        None => None,
    };
    build(kb, &ins, y, |e, args| {
        let q = e.divf(
            to_f32(e, args[0], xe),
            to_f32(e, readers[0].read(e, &args), se),
        );
        // Rounded to the type numpy divides in.
        let q = rounded_to(e, q, div);
        let zero_f32 = ze.map(|z| to_f32(e, readers[1].read(e, &args), z));
        if let Some(range) = range {
            let r = e.roundeven(q);
            let r = zero_f32.map_or(r, |z| e.addf(r, z));
            return cast(e, clamp(e, r, range), ElemType::F32, ye, false)
                .ok()
                .flatten()
                .expect("an integer quantized type");
        }
        let f = format.expect("checked: an integer or a narrow float output");
        if ye == ElemType::F4E2M1 {
            // Float4 adds its zero point; float8's is zero by the spec.
            let q = zero_f32.map_or(q, |z| e.addf(q, z));
            return narrow::encode(e, q, f, true);
        }
        narrow::encode(e, q, f, saturate)
    })
}

/// Lowers DequantizeLinear (see the module docs).
fn lower_dequantize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let (x, scale, zero, y) = signature(kb, op);
    let (xe, se, ye) = (kb.shape(x)?.1, kb.shape(scale)?.1, kb.shape(y)?.1);
    let integer = int_range(xe).is_some() || xe == ElemType::I32;
    if !(integer || Format::of(xe).is_some()) || !is_wide_float(se) || !is_wide_float(ye) {
        return Err(kb.unsupported(op, &format!("{xe} input, {se} scale, {ye} output")));
    }
    // Narrow floats ignore their zero point (zero by the spec).
    let zero = zero.filter(|_| integer);
    let params: Vec<Value> = std::iter::once(scale).chain(zero).collect();
    let (ins, readers) = operands(kb, op, x, &params)?;
    build(kb, &ins, y, |e, args| {
        let mut d = to_f32(e, args[0], xe);
        if zero.is_some() {
            d = e.subf(d, to_f32(e, readers[1].read(e, &args), xe));
        }
        let r = e.mulf(d, to_f32(e, readers[0].read(e, &args), se));
        cast(e, r, ElemType::F32, ye, false)
            .ok()
            .flatten()
            .expect("a wide float output")
    })
}

/// The scalar computation of a QuantizeLinear or DequantizeLinear in an
/// elementwise run: the planner joins those between `f32` and 8-bit
/// integers with one scale and zero point (`Ir::quantizes_elementwise`),
/// computed as the ops' own kernels compute them.
pub(crate) fn quantize_scalar<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    op: OpId,
    scalars: &HashMap<Value, MValue<'c, 'b>>,
) -> Result<MValue<'c, 'b>> {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let x = input(0).expect("verified: x");
    let (s, zero) = (scalars[&input(1).expect("verified: scale")], input(2));
    let y = data.results[0].expect("verified: y");
    let (xe, ye) = (kb.shape(x)?.1, kb.shape(y)?.1);
    if data.kind == OpKind::DequantizeLinear {
        let mut d = to_f32(e, scalars[&x], xe);
        if let Some(z) = zero {
            d = e.subf(d, to_f32(e, scalars[&z], xe));
        }
        return Ok(e.mulf(d, s));
    }
    let range = int_range(ye).expect("planned: an 8-bit output");
    let mut r = e.roundeven(e.divf(scalars[&x], s));
    if let Some(z) = zero {
        r = e.addf(r, to_f32(e, scalars[&z], ye));
    }
    Ok(cast(e, clamp(e, r, range), ElemType::F32, ye, false)
        .ok()
        .flatten()
        .expect("an integer quantized type"))
}

/// Lowers DynamicQuantizeLinear (see the module docs), written vector by
/// vector along the last dim of `x`, row after row (a scalar as one row of
/// one): the range of `x` as vectors of minima and maxima (lanes past the
/// end read 0, which the range includes anyway), reduced to the scale and
/// zero point, then the quantization. One chunk: every element depends on
/// the whole range.
fn lower_dynamic_quantize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let x = data.inputs[0].expect("verified: x");
    let results: Vec<Value> = data.results.iter().flatten().copied().collect();
    let [y, scale, zero] = results[..] else {
        return Err(kb.unsupported(op, "without all three results"));
    };
    let (x_dims, xe) = kb.shape(x)?;
    if xe != ElemType::F32 {
        return Err(kb.unsupported(op, &format!("{xe} input")));
    }
    let e = kb.e;
    let (f32t, u8t) = (Type::float32(e.cx), e.int_type(8));
    let lanes = kb.target.lanes(32);
    // A scalar as the one element of a row: the transfers need a dim.
    let (xs, ys, dims) = if x_dims.is_empty() {
        let one = [Size::Static(1)];
        let xs = e.expand_shape(kb.tensor(x), &[], &one, f32t);
        (xs, e.expand_shape(kb.init(y)?, &[], &one, u8t), vec![1])
    } else {
        (kb.tensor(x), kb.init(y)?, kb.shape(y)?.0)
    };
    let sizes: Vec<MValue> = e.sizes_of(ys, &dims).iter().map(|s| s.value(&e)).collect();
    let (lead, last) = (&sizes[..dims.len() - 1], sizes[dims.len() - 1]);
    let rows = e.product(lead);
    let vectors = e.ceildivsi(last, e.index(lanes));
    let zeros = e.broadcast(e.f(f32t, 0.0), lanes);
    let range = e.for_loop(e.index(0), rows, &[zeros, zeros], |be, r, acc| {
        let row = be.delinearize(r, lead);
        be.for_loop(be.index(0), vectors, &acc, |ve, v, acc| {
            let mut at = row.clone();
            at.push(ve.muli(v, ve.index(lanes)));
            let x = ve.read_vector(xs, &at, lanes, ve.f(f32t, 0.0), false);
            vec![ve.maximumf(acc[0], x), ve.minimumf(acc[1], x)]
        })
    });
    let hi = e.reduce_vector("maximumf", range[0], f32t);
    let lo = e.reduce_vector("minimumf", range[1], f32t);
    let same = e.cmpf(CmpfPredicate::Oeq, hi, lo);
    let width = e.select(same, e.f(f32t, 1.0), e.subf(hi, lo));
    let s = e.divf(width, e.f(f32t, 255.0));
    let z = e.roundeven(clamp(e, e.negf(e.divf(lo, s)), (0.0, 255.0)));
    kb.define(scale, e.insert(s, kb.init(scale)?, &[]));
    kb.define(zero, e.insert(e.fptoui(z, u8t), kb.init(zero)?, &[]));
    let (s, z) = (e.broadcast(s, lanes), e.broadcast(z, lanes));
    let ys = e.for_loop(e.index(0), rows, &[ys], |be, r, t| {
        let row = be.delinearize(r, lead);
        be.for_loop(be.index(0), vectors, &t, |ve, v, t| {
            let mut at = row.clone();
            at.push(ve.muli(v, ve.index(lanes)));
            let x = ve.read_vector(xs, &at, lanes, ve.f(f32t, 0.0), false);
            let q = quantize_lanes(ve, x, (s, z), lanes, false);
            vec![ve.write_vector(q, t[0], &at, false)]
        })
    })[0];
    let y_tensor = if x_dims.is_empty() {
        e.collapse_shape(ys, &[], ranked_tensor(&[], u8t))
    } else {
        ys
    };
    kb.define(y, y_tensor);
    kb.written(Schedule::Written { chunks: 1 });
    Ok(())
}

/// The per-tensor QuantizeLinear that a kernel applies to its `f32`
/// results before storing them (the packed products' and DepthwiseConv's
/// `y_scale`, `y_zero_point` operands).
pub(crate) struct Requantize<'c, 'a> {
    /// `y_scale` and `y_zero_point` as `f32` scalars.
    scale: MValue<'c, 'a>,
    zero: MValue<'c, 'a>,
    /// Whether the result is `i8` (else `u8`).
    signed: bool,
}

impl<'c, 'a> Requantize<'c, 'a> {
    /// The quantization by the scalars `ys` and `yz`, read at the kernel's
    /// start.
    pub(crate) fn of(kb: &KernelBuilder<'c, 'a>, ys: Value, yz: Value) -> Result<Self> {
        let e = kb.e;
        let first = |v| -> Result<MValue<'c, 'a>> {
            let at = vec![e.index(0); kb.shape(v)?.0.len()];
            Ok(e.extract(kb.tensor(v), &at))
        };
        let signed = kb.shape(yz)?.1 == ElemType::I8;
        let zero = first(yz)?;
        let f32t = Type::float32(e.cx);
        let zero = if signed {
            e.sitofp(zero, f32t)
        } else {
            e.uitofp(zero, f32t)
        };
        Ok(Requantize {
            scale: first(ys)?,
            zero,
            signed,
        })
    }

    /// The `lanes` `f32` lanes of `y` quantized ([`quantize_lanes`]).
    pub(crate) fn lanes<'b>(
        &self,
        e: Emitter<'c, 'b>,
        y: MValue<'c, 'b>,
        lanes: i64,
    ) -> MValue<'c, 'b>
    where
        'a: 'b,
    {
        let (s, z) = (
            e.broadcast(self.scale, lanes),
            e.broadcast(self.zero, lanes),
        );
        quantize_lanes(e, y, (s, z), lanes, self.signed)
    }
}

/// The `lanes` `f32` lanes of `x` quantized as QuantizeLinear does, by the
/// scale and zero point `s`, `z` (`f32` vectors of the same lanes):
/// `saturate(round_half_even(x / s) + z)` into 8 bits (`signed`: `i8`).
/// DynamicQuantizeLinear's and the packed products' requantization.
pub(crate) fn quantize_lanes<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    (s, z): (MValue<'c, 'b>, MValue<'c, 'b>),
    lanes: i64,
    signed: bool,
) -> MValue<'c, 'b> {
    let f32t = Type::float32(e.cx);
    let (lo, hi) = if signed {
        (-128.0, 127.0)
    } else {
        (0.0, 255.0)
    };
    let splat = |v| e.broadcast(e.f(f32t, v), lanes);
    let r = e.addf(e.roundeven(e.divf(x, s)), z);
    let r = e.minnumf(e.maxnumf(r, splat(lo)), splat(hi));
    let bytes = vector_type(&[lanes], e.int_type(8));
    if signed {
        e.fptosi(r, bytes)
    } else {
        e.fptoui(r, bytes)
    }
}

/// A matrix operand of an integer product (`a` or `b`) and its optional
/// zero point.
pub(crate) struct IntOperand {
    /// The operand.
    pub value: Value,
    /// Its zero point, when it has one.
    pub zero: Option<Value>,
}

/// How the body of a generic over the loops of a tensor of dims `x` reads
/// a scale or zero point `p`, pushing it to `ins` when its indexing map
/// can say how: one element (every dim 1) for every point, or a 1-D
/// tensor along loop `d` of `along` whose size is that dim's. A 1-D `p`
/// of another symbolic size is gathered: at 0 where its run-time size is
/// 1, else along `d` (the model's entry checks that it is 1 or the dim,
/// [`param_check`]). `None` for any other shape.
pub(crate) fn param_read<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    p: Value,
    x: &[Dim],
    along: Option<usize>,
    ins: &mut Inputs<'c, 'a>,
) -> Result<Option<BodyOperand<'c, 'a>>> {
    let pd = param_dims(kb.model, p);
    let rank = x.len();
    let cx = kb.e.cx;
    let m = if pd.iter().all(|d| *d == Dim::Known(1)) {
        map(cx, rank, &vec![Expr::constant(cx, 0); pd.len()])
    } else if let (Some(d), [n]) = (along, &pd[..]) {
        if *n != x[d] {
            if *n == Dim::Unknown || n.is_known() && x[d].is_known() {
                return Ok(None);
            }
            return Ok(Some(BodyOperand::Gathered(Gather::along(kb, p, Some(d))?)));
        }
        projection(cx, rank, [d])
    } else if let [n] = &pd[..] {
        if n.is_known() || *n == Dim::Unknown {
            return Ok(None);
        }
        return Ok(Some(BodyOperand::Gathered(Gather::along(kb, p, None)?)));
    } else {
        return Ok(None);
    };
    ins.push((kb.tensor(p), m));
    Ok(Some(BodyOperand::Input(ins.len() - 1)))
}

/// The check [`param_read`] relies on for parameter `p` (its dims) over a
/// tensor of dims `x`: a 1-D `p` gathered along `x`'s dim `along` is 1 or
/// that dim, one without `along` is 1.
pub(crate) fn param_check(p: &[Dim], x: &[Dim], along: Option<usize>) -> Option<Check> {
    let [n] = p else { return None };
    match along {
        _ if *n == Dim::Known(1) => None,
        Some(d) if *n != x[d] => Some(Check::Broadcast(n.clone(), x[d].clone())),
        Some(_) => None,
        None => Some(Check::Equal(n.clone(), Dim::Known(1))),
    }
}

/// The dims of `v` (empty when unknown, which the lowering refuses).
pub(crate) fn param_dims(model: &Model, v: Value) -> Vec<Dim> {
    sized_dims(model, Some(v)).unwrap_or_else(|_| vec![Dim::Unknown])
}

/// The integer operands of op `op`: the inputs at `(value, zero point)`
/// indices `a` and `b`.
pub(crate) fn int_operands(
    kb: &KernelBuilder,
    op: OpId,
    a: (usize, usize),
    b: (usize, usize),
) -> [IntOperand; 2] {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    [a, b].map(|(v, z)| IntOperand {
        value: input(v).expect("verified: a required operand"),
        zero: input(z),
    })
}

/// Defines `y` as the `i32` tensor `c` requantized: `round_half_even(c ·
/// (s0 · s1 / s2)) + y_zero`, saturated to `y`'s u8/i8. As the reference
/// (numpy) does, the multiplier is computed in the scales' type and the
/// rest in `f64`. The scales and the zero point are scalars, but for `s1`
/// (the weights' scale), which may be 1-D along `channel` of `y`.
pub(crate) fn requantize<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    c: MValue<'c, 'a>,
    scales: [Value; 3],
    y_zero: Option<Value>,
    y: Value,
    channel: Option<usize>,
) -> Result<()> {
    let (yd, ye) = kb.shape(y)?;
    let range = int_range(ye)
        .filter(|_| matches!(ye, ElemType::U8 | ElemType::I8))
        .ok_or_else(|| kb.unsupported(op, &format!("{ye} output")))?;
    let rank = yd.len();
    let y_dims = param_dims(kb.model, y);
    let mut ins = vec![(c, identity_map(kb.e.cx, rank))];
    let mut elems = vec![];
    let mut readers = vec![];
    for (i, v) in scales.iter().chain(&y_zero).enumerate() {
        let (dims, elem) = kb.shape(*v)?;
        let along = channel.filter(|_| i == 1);
        let Some(read) = param_read(kb, *v, &y_dims, along, &mut ins)? else {
            return Err(kb.unsupported(op, &format!("a scale or zero point of shape {dims:?}")));
        };
        readers.push(read);
        elems.push(elem);
    }
    let scale_elem = elems[0];
    if elems[..3].iter().any(|&t| t != scale_elem) || !is_wide_float(scale_elem) {
        return Err(kb.unsupported(op, "scales of different or non-float types"));
    }
    let zero_elem = elems.get(3).copied();
    let init = kb.init(y)?;
    let g = generic(
        kb.e,
        &ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let f64t = Type::float64(be.cx);
            let s = |i: usize| to_f32(be, readers[i].read(be, &a), scale_elem);
            let m = rounded_to(be, be.mulf(s(0), s(1)), scale_elem);
            let m = rounded_to(be, be.divf(m, s(2)), scale_elem);
            let m = be.extf(m, f64t);
            let d = be.mulf(be.sitofp(a[0], f64t), m);
            let d = match zero_elem {
                Some(z) => {
                    let z = cast(be, readers[3].read(be, &a), z, ElemType::F64, false)
                        .ok()
                        .flatten()
                        .expect("an 8-bit integer");
                    be.addf(d, z)
                }
                None => d,
            };
            let r = clamp(be, be.roundeven(d), range);
            vec![cast(be, r, ElemType::F64, ye, false)
                .ok()
                .flatten()
                .expect("an 8-bit integer")]
        },
    );
    let g = kb.structured(g);
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_layouts() {
        let cx = Context::new();
        let text = |m: Option<AffineMap>| m.map(|m| m.to_string());
        let per_axis = Layout { axis: 1, block: 0 };
        let x = [2, 3, 4];
        let map = |layout: &Layout, dims: &[i64]| text(layout.map(&cx, dims, 3, &x));
        assert_eq!(map(&per_axis, &[]).as_deref(), Some("(d0, d1, d2) -> ()"));
        assert_eq!(map(&per_axis, &[1]).as_deref(), Some("(d0, d1, d2) -> (0)"));
        assert_eq!(
            map(&per_axis, &[3]).as_deref(),
            Some("(d0, d1, d2) -> (d1)")
        );
        assert_eq!(map(&per_axis, &[4]), None);
        // A last block shorter than the others: ceil(4 / 3) = 2 scales.
        let blocked = Layout { axis: 2, block: 3 };
        assert_eq!(
            map(&blocked, &[2, 3, 2]).as_deref(),
            Some("(d0, d1, d2) -> (d0, d1, d2 floordiv 3)")
        );
        assert_eq!(map(&blocked, &[2, 3, 1]), None);
        assert_eq!(map(&blocked, &[2, 3]), None);
    }
}
