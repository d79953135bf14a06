//! Half-precision floats (f16, bf16) computed in f32.
//!
//! The references compute on half-precision tensors the way numpy and
//! `ml_dtypes` do: each op widens its operands to f32, computes, and
//! rounds its result once back to the half type; reductions and products
//! accumulate in f32 (onnxruntime does the same). The backend has no bf16
//! arithmetic at all (only the conversions, through `arith-expand`), so
//! lowerings widen half-precision values with [`widen`], compute in the
//! type [`wide`] gives, and round results with [`narrow`].

use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ElemType;

use crate::builder::Emitter;

/// Whether `elem` is a half-precision float (computed in f32).
pub(crate) fn is_half(elem: ElemType) -> bool {
    matches!(elem, ElemType::F16 | ElemType::BF16)
}

/// The type computations on `elem` run in: f32 for half-precision floats,
/// `elem` itself otherwise.
pub(crate) fn wide(elem: ElemType) -> ElemType {
    if is_half(elem) {
        ElemType::F32
    } else {
        elem
    }
}

/// Whether MLIR type `ty` is f16 or bf16.
fn is_half_type(e: Emitter, ty: Type) -> bool {
    ty == Type::float16(e.cx) || ty == Type::bfloat16(e.cx)
}

/// `v` widened to f32 when it is f16 or bf16 (exactly), else `v`.
pub(crate) fn widen<'c, 'b>(e: Emitter<'c, 'b>, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
    if is_half_type(e, v.r#type()) {
        e.extf(v, Type::float32(e.cx))
    } else {
        v
    }
}

/// `v` rounded (to nearest even) to `ty` when `ty` is f16 or bf16 and `v`
/// is not of it already, else `v`.
pub(crate) fn narrow<'c, 'b>(
    e: Emitter<'c, 'b>,
    v: MValue<'c, 'b>,
    ty: Type<'c>,
) -> MValue<'c, 'b> {
    if v.r#type() != ty && is_half_type(e, ty) {
        e.truncf(v, ty)
    } else {
        v
    }
}
