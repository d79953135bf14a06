//! Maps onnx dialect types to MLIR builtin types.
//!
//! Integers are signless in MLIR: the signedness of an ONNX `uint8` lives
//! in the ops the lowering picks (`arith.divui`, `arith.uitofp`, …), not in
//! the type. Booleans are stored as `i8` (0 or 1, one byte each, as ONNX
//! lays them out): vectors of `i1` would be stored bit-packed. Code that
//! computes with them converts to `i1` after loading and back before
//! storing ([`scalar_type`]). The narrow types (float8, float4, the
//! sub-byte integers) are stored one per byte as `i8` and only converted
//! (see `ops/narrow.rs`).

use melior::ir::r#type::{IntegerType, MemRefType};
use melior::ir::Type;
use melior::Context;
use onnx_mlc_dialect::{Dim, ElemType, Model, TensorType, Value};

use crate::builder::{ranked_tensor, DYNAMIC};
use crate::error::{LowerError, Result};

/// The MLIR type an element of an ONNX element type is stored as (in
/// tensors and memrefs).
pub fn elem_type<'c>(cx: &'c Context, elem: ElemType) -> Result<Type<'c>> {
    use ElemType::*;
    let int = |bits| IntegerType::new(cx, bits).into();
    Ok(match elem {
        F32 => Type::float32(cx),
        F64 => Type::float64(cx),
        F16 => Type::float16(cx),
        BF16 => Type::bfloat16(cx),
        Bool => int(8),
        I8 | U8 => int(8),
        I16 | U16 => int(16),
        I32 | U32 => int(32),
        I64 | U64 => int(64),
        F8E4M3FN | F8E4M3FNUZ | F8E5M2 | F8E5M2FNUZ | F4E2M1 | I4 | U4 | I2 | U2 => int(8),
        _ => {
            return Err(LowerError::UnsupportedType {
                ty: elem.to_string(),
                what: "an element type".into(),
            })
        }
    })
}

/// The dims of a tensor type as MLIR types spell them: static sizes, and
/// [`DYNAMIC`] where the size is a polynomial over `dim_param`s (evaluated
/// at run time, see [`crate::symbols`]); an error naming `what` when the
/// rank or a size is unknown.
pub fn lowered_dims(ty: &TensorType, what: &str) -> Result<Vec<i64>> {
    let unsupported = || LowerError::UnsupportedType {
        ty: format!("tensor<{ty}>"),
        what: format!("{what} (unknown ranks and sizes are not lowered)"),
    };
    ty.dims()
        .ok_or_else(unsupported)?
        .iter()
        .map(|d| match d {
            Dim::Known(n) => Ok(*n),
            Dim::Sym(_) => Ok(DYNAMIC),
            Dim::Unknown => Err(unsupported()),
        })
        .collect()
}

/// `tensor<dims x elem>` ([`DYNAMIC`] dims are `?`).
pub fn tensor_type<'c>(cx: &'c Context, dims: &[i64], elem: ElemType) -> Result<Type<'c>> {
    Ok(ranked_tensor(dims, elem_type(cx, elem)?))
}

/// `memref<dims x elem>` with the identity layout ([`DYNAMIC`] dims are `?`).
pub fn memref_type<'c>(cx: &'c Context, dims: &[i64], elem: ElemType) -> Result<MemRefType<'c>> {
    Ok(MemRefType::new(elem_type(cx, elem)?, dims, None, None))
}

/// The MLIR type computations use for an element: the stored type, but
/// `i1` for booleans.
pub fn scalar_type<'c>(cx: &'c Context, elem: ElemType) -> Result<Type<'c>> {
    match elem {
        ElemType::Bool => Ok(IntegerType::new(cx, 1).into()),
        _ => elem_type(cx, elem),
    }
}

/// The memref type a tensor of `dims` has in a function signature: its own,
/// or `memref<0 x elem>` when it has no elements (the bare-pointer calling
/// convention does not convert signatures with several zero-sized
/// multi-dimensional memrefs) or a dynamic size (the bare-pointer
/// convention only passes static shapes); inside, the buffer is
/// reinterpreted to its real shape.
pub fn boundary_memref_type<'c>(
    cx: &'c Context,
    dims: &[i64],
    elem: ElemType,
) -> Result<MemRefType<'c>> {
    if dims.contains(&0) || dims.contains(&DYNAMIC) {
        memref_type(cx, &[0], elem)
    } else {
        memref_type(cx, dims, elem)
    }
}

/// The tensor type of an onnx value, which must be a statically shaped tensor.
pub fn value_tensor(model: &Model, v: Value) -> Result<&TensorType> {
    model
        .ir
        .ty(v)
        .as_tensor()
        .ok_or_else(|| LowerError::UnsupportedType {
            ty: model.ir.ty(v).to_string(),
            what: describe_value(model, v),
        })
}

/// Names a value for messages.
pub fn describe_value(model: &Model, v: Value) -> String {
    match &model.ir.value(v).name {
        Some(n) => format!("value \"{n}\""),
        None => format!("value {v:?}"),
    }
}
