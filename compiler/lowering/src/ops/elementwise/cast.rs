//! ONNX `Cast` of one scalar between element types, through the narrow
//! formats' routines for the float8/float4 and sub-byte integer types.

use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ElemType;

use crate::builder::{CastOp, CmpfPredicate, CmpiPredicate, Emitter};
use crate::error::Result;
use crate::ops::narrow::{self, Format};
use crate::types::scalar_type;

/// `v`, of element type `from`, as a float of element type `to` (MLIR
/// type `ty`).
pub(super) fn to_float<'c, 'b>(
    e: Emitter<'c, 'b>,
    v: MValue<'c, 'b>,
    from: ElemType,
    (to, ty): (ElemType, melior::ir::Type<'c>),
) -> MValue<'c, 'b> {
    if v.r#type() == ty {
        v
    } else if !from.is_float() {
        let op = if from.is_signed_int() {
            CastOp::SIToFP
        } else {
            CastOp::UIToFP
        };
        e.cast(op, v, ty)
    } else if from.bit_width() < to.bit_width() {
        e.extf(v, ty)
    } else {
        e.truncf(v, ty)
    }
}

/// Converts a scalar between element types as ONNX `Cast` does
/// (float→int truncates toward zero; to bool is `!= 0`; to a narrow type
/// through [`narrow`]'s routines, `saturate` applying to the float8
/// formats). `None` for a conversion that is not lowered: from `f64` to a
/// narrow float (rounding twice, through `f32`, could differ from the
/// reference).
pub(crate) fn cast<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    from: ElemType,
    to: ElemType,
    saturate: bool,
) -> Result<Option<MValue<'c, 'b>>> {
    // A narrow source becomes the wide type holding its values exactly.
    let (x, from) = if let Some(f) = Format::of(from) {
        (narrow::decode(e, x, f), ElemType::F32)
    } else if narrow::is_sub_byte_int(from) {
        let wide = if from.is_signed_int() {
            ElemType::I8
        } else {
            ElemType::U8
        };
        (x, wide)
    } else {
        (x, from)
    };
    if let Some(f) = Format::of(to) {
        if from == ElemType::F64 {
            return Ok(None);
        }
        let x = cast_wide(e, x, from, ElemType::F32, Type::float32(e.cx));
        return Ok(Some(narrow::encode(e, x, f, saturate)));
    }
    if narrow::is_sub_byte_int(to) {
        // Truncated toward zero, then wrapped to the type's bits.
        let i8t = e.int_type(8);
        let byte = if from.is_float() {
            let i32t = e.int_type(32);
            let v = cast_wide(e, x, from, ElemType::I32, i32t);
            e.trunci(v, i8t)
        } else {
            cast_wide(e, x, from, ElemType::I8, i8t)
        };
        return Ok(Some(narrow::wrap_int(
            e,
            byte,
            to.bit_width(),
            to.is_signed_int(),
        )));
    }
    Ok(Some(cast_wide(e, x, from, to, scalar_type(e.cx, to)?)))
}

/// [`cast`] between types that are not narrow. Conversions to and from
/// `bf16` go through `f32`: the only ones `arith-expand` turns into integer
/// code; LLVM would make the others library calls (`__truncdfbf2`,
/// `__floatdibf`, …) that neither runtime provides. (From `f64` or a wide
/// integer that rounds twice, which can differ from a direct rounding by
/// one `bf16` ulp on exact ties.)
pub(super) fn cast_wide<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    from: ElemType,
    to: ElemType,
    to_ty: Type<'c>,
) -> MValue<'c, 'b> {
    if from == to {
        return x;
    }
    let f32t = Type::float32(e.cx);
    if to == ElemType::BF16 && from != ElemType::F32 {
        let x = cast_wide(e, x, from, ElemType::F32, f32t);
        if from.is_float() {
            return e.truncf(x, to_ty);
        }
        // Canonicalization would fold `truncf(sitofp)` back into one
        // conversion: round the (never NaN) `f32` to nearest even on its bits.
        let i32t = e.int_type(32);
        let bits = e.bitcast(x, i32t);
        let lowest_kept = e.andi(e.shrui(bits, e.i(i32t, 16)), e.i(i32t, 1));
        let rounded = e.addi(e.addi(bits, e.i(i32t, 0x7fff)), lowest_kept);
        let high = e.shrui(rounded, e.i(i32t, 16));
        let half = e.trunci(high, e.int_type(16));
        return e.bitcast(half, to_ty);
    }
    if from == ElemType::BF16 && to != ElemType::F32 {
        let x = e.extf(x, f32t);
        return cast_wide(e, x, ElemType::F32, to, to_ty);
    }
    // Booleans compute as i1.
    let width = |t: ElemType| {
        if t == ElemType::Bool {
            1
        } else {
            t.bit_width()
        }
    };
    let (fb, tb) = (width(from), width(to));
    match (from.is_float(), to.is_float()) {
        (true, true) if fb < tb => e.extf(x, to_ty),
        (true, true) => e.truncf(x, to_ty),
        (false, true) if from == ElemType::Bool || !from.is_signed_int() => e.uitofp(x, to_ty),
        (false, true) => e.sitofp(x, to_ty),
        (true, false) if to == ElemType::Bool => {
            e.cmpf(CmpfPredicate::Une, x, e.f(x.r#type(), 0.0))
        }
        (true, false) if to.is_signed_int() => e.fptosi(x, to_ty),
        (true, false) => e.fptoui(x, to_ty),
        (false, false) if to == ElemType::Bool => e.cmpi(CmpiPredicate::Ne, x, e.i(x.r#type(), 0)),
        (false, false) if fb < tb && from != ElemType::Bool && from.is_signed_int() => {
            e.extsi(x, to_ty)
        }
        (false, false) if fb < tb => e.extui(x, to_ty),
        (false, false) if fb > tb => e.trunci(x, to_ty),
        (false, false) => x,
    }
}
