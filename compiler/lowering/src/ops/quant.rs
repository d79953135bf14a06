//! Quantization: QuantizeLinear and DequantizeLinear.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | QuantizeLinear | `y = saturate(round_half_even(x / scale) + zero_point)` for an integer `y`; `y = cast(x / scale)` for float8, `cast(x / scale + zero_point)` for float4 | per-tensor, per-axis (`axis`), blocked (`block_size`), `output_dtype`, `saturate` (float8), `precision` (the type of the division); `x`/`scale` f32, f16, bf16; `y` u8, i8, u16, i16, u4, i4, u2, i2, the four float8 formats, float4e2m1 |
//! | DequantizeLinear | `y = (x - zero_point) · scale` (the zero point ignored for narrow floats) | per-tensor, per-axis, blocked, `output_dtype`; `x` any integer or narrow type of the op; `scale` f32, f16, bf16 |
//!
//! Each is one elementwise `linalg.generic` over `x`'s loops. The scale
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

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, Value};

use super::elementwise::{cast, identity_map};
use super::narrow::{self, Format};
use super::structured::{generic, map, norm_axis};
use super::unsupported;
use crate::emit::Emitter;
use crate::error::Result;
use crate::kernel::KernelBuilder;

/// How a scale (or zero point) is laid over the input.
struct Layout {
    axis: usize,
    block: i64,
}

impl Layout {
    /// The layout of op `op` (its `axis` and `block_size`) over input `x`.
    fn of(kb: &KernelBuilder, op: OpId, rank: usize) -> Layout {
        let attrs = &kb.model.ir.op(op).attrs;
        Layout {
            axis: norm_axis(attrs.int("axis").unwrap_or(1), rank),
            block: attrs.int("block_size").unwrap_or(0),
        }
    }

    /// The indexing map of a scale or zero point of `dims` over an input
    /// of rank `rank`; `None` when its shape fits none of the layouts.
    fn map(&self, dims: &[i64], rank: usize, x_dims: &[i64]) -> Option<String> {
        let all_ones = dims.iter().all(|&d| d == 1);
        if all_ones {
            return Some(map(rank, &vec!["0".to_string(); dims.len()]));
        }
        if self.axis >= rank {
            return None;
        }
        if self.block > 0 {
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
            let exprs: Vec<String> = (0..rank)
                .map(|i| {
                    if i == self.axis {
                        format!("d{i} floordiv {}", self.block)
                    } else {
                        format!("d{i}")
                    }
                })
                .collect();
            return Some(map(rank, &exprs));
        }
        let fits = dims.len() == 1 && (dims[0] == x_dims[self.axis] || dims[0] < 0);
        fits.then(|| map(rank, &[format!("d{}", self.axis)]))
    }
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

/// The operands of a quantization op as `linalg.generic` inputs: `x` with
/// the identity map, then the scale and the zero point (when given) with
/// their layout's map.
fn operands<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    op: OpId,
    x: Value,
    params: &[Value],
) -> Result<Vec<(MValue<'c, 'a>, String)>> {
    let x_dims = kb.shape(x)?.0;
    let rank = x_dims.len();
    let layout = Layout::of(kb, op, rank);
    let mut ins = vec![(kb.tensor(x), identity_map(rank))];
    for &p in params {
        let dims = kb.shape(p)?.0;
        let m = layout.map(&dims, rank, &x_dims).ok_or_else(|| {
            unsupported(
                kb,
                op,
                &format!(
                    "a scale or zero point of shape {dims:?} for an input of shape {x_dims:?}"
                ),
            )
        })?;
        ins.push((kb.tensor(p), m));
    }
    Ok(ins)
}

/// Appends the elementwise generic of a quantization op and defines its
/// result `y`.
fn build<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    ins: &[(MValue<'c, 'a>, String)],
    y: Value,
    body: impl for<'b> FnOnce(Emitter<'c, 'b>, Vec<MValue<'c, 'b>>) -> MValue<'c, 'b>,
) -> Result<()> {
    let (dims, elem) = kb.shape(y)?;
    let init = kb.init(y)?;
    let rank = dims.len();
    let g = generic(
        kb.e,
        ins,
        &[(init, identity_map(rank))],
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

/// Lowers QuantizeLinear (see the module docs).
pub(crate) fn lower_quantize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let (x, scale, zero, y) = signature(kb, op);
    let (xe, se, ye) = (kb.shape(x)?.1, kb.shape(scale)?.1, kb.shape(y)?.1);
    if !is_wide_float(xe) || !is_wide_float(se) {
        return Err(unsupported(kb, op, &format!("{xe} input with {se} scale")));
    }
    let attrs = &kb.model.ir.op(op).attrs;
    let saturate = attrs.int("saturate").unwrap_or(1) != 0;
    let div = match attrs.int("precision").filter(|&p| p != 0) {
        Some(p) => match i32::try_from(p).ok().and_then(ElemType::from_onnx) {
            Some(t) if is_wide_float(t) => t,
            _ => return Err(unsupported(kb, op, &format!("precision {p}"))),
        },
        None if xe == se => xe,
        None => ElemType::F32,
    };
    let range = int_range(ye);
    let format = Format::of(ye);
    if range.is_none() && format.is_none() {
        return Err(unsupported(kb, op, &format!("{ye} output")));
    }
    let params: Vec<Value> = std::iter::once(scale).chain(zero).collect();
    let ins = operands(kb, op, x, &params)?;
    let ze = match zero {
        Some(z) => Some(kb.shape(z)?.1),
        None => None,
    };
    build(kb, &ins, y, |e, args| {
        let f32t = Type::float32(e.cx);
        let q = e.same(
            "arith.divf",
            &[to_f32(e, args[0], xe), to_f32(e, args[1], se)],
        );
        // Rounded to the type numpy divides in.
        let q = if div == ElemType::F32 {
            q
        } else {
            let narrow = cast(e, q, ElemType::F32, div, false)
                .ok()
                .flatten()
                .expect("a wide float type");
            to_f32(e, narrow, div)
        };
        let zero_f32 = ze.map(|z| to_f32(e, args[2], z));
        if let Some((lo, hi)) = range {
            let mut r = e.same("math.roundeven", &[q]);
            if let Some(z) = zero_f32 {
                r = e.same("arith.addf", &[r, z]);
            }
            // `maxnumf` sends NaN to the low end, like the reference's
            // conversion of NaN to the smallest `int32`.
            let r = e.same("arith.maxnumf", &[r, e.f(f32t, lo)]);
            let r = e.same("arith.minnumf", &[r, e.f(f32t, hi)]);
            return cast(e, r, ElemType::F32, ye, false)
                .ok()
                .flatten()
                .expect("an integer quantized type");
        }
        let f = format.expect("checked: an integer or a narrow float output");
        if ye == ElemType::F4E2M1 {
            // Float4 adds its zero point; float8's is zero by the spec.
            let q = zero_f32.map_or(q, |z| e.same("arith.addf", &[q, z]));
            return narrow::encode(e, q, f, true);
        }
        narrow::encode(e, q, f, saturate)
    })
}

/// Lowers DequantizeLinear (see the module docs).
pub(crate) fn lower_dequantize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let (x, scale, zero, y) = signature(kb, op);
    let (xe, se, ye) = (kb.shape(x)?.1, kb.shape(scale)?.1, kb.shape(y)?.1);
    let integer = int_range(xe).is_some() || xe == ElemType::I32;
    if !(integer || Format::of(xe).is_some()) || !is_wide_float(se) || !is_wide_float(ye) {
        return Err(unsupported(
            kb,
            op,
            &format!("{xe} input, {se} scale, {ye} output"),
        ));
    }
    // Narrow floats ignore their zero point (zero by the spec).
    let zero = zero.filter(|_| integer);
    let params: Vec<Value> = std::iter::once(scale).chain(zero).collect();
    let ins = operands(kb, op, x, &params)?;
    build(kb, &ins, y, |e, args| {
        let mut d = to_f32(e, args[0], xe);
        if zero.is_some() {
            d = e.same("arith.subf", &[d, to_f32(e, args[2], xe)]);
        }
        let r = e.same("arith.mulf", &[d, to_f32(e, args[1], se)]);
        cast(e, r, ElemType::F32, ye, false)
            .ok()
            .flatten()
            .expect("a wide float output")
    })
}
