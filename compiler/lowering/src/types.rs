//! Maps onnx dialect types to MLIR builtin types.
//!
//! Integers are signless in MLIR: the signedness of an ONNX `uint8` lives
//! in the ops the lowering picks (`arith.divui`, `arith.uitofp`, …), not in
//! the type. Booleans are `i1`.

use melior::ir::r#type::{IntegerType, MemRefType, RankedTensorType};
use melior::ir::Type;
use melior::Context;
use onnx_mlc_dialect::{ElemType, TensorType};

use crate::error::{LowerError, Result};

/// The MLIR element type of an ONNX element type.
pub fn elem_type<'c>(cx: &'c Context, elem: ElemType) -> Result<Type<'c>> {
    use ElemType::*;
    let int = |bits| IntegerType::new(cx, bits).into();
    Ok(match elem {
        F32 => Type::float32(cx),
        F64 => Type::float64(cx),
        F16 => Type::float16(cx),
        BF16 => Type::bfloat16(cx),
        Bool => int(1),
        I8 | U8 => int(8),
        I16 | U16 => int(16),
        I32 | U32 => int(32),
        I64 | U64 => int(64),
        _ => {
            return Err(LowerError::UnsupportedType {
                ty: elem.to_string(),
                what: "an element type".into(),
            })
        }
    })
}

/// The static dims of a tensor type, or an error naming `what`.
pub fn static_dims(ty: &TensorType, what: &str) -> Result<Vec<i64>> {
    ty.static_dims().ok_or_else(|| LowerError::UnsupportedType {
        ty: format!("tensor<{ty}>"),
        what: format!("{what} (dynamic shapes are not lowered yet)"),
    })
}

/// `tensor<dims x elem>`.
pub fn tensor_type<'c>(cx: &'c Context, dims: &[i64], elem: ElemType) -> Result<Type<'c>> {
    let dims: Vec<u64> = dims.iter().map(|&d| d as u64).collect();
    Ok(RankedTensorType::new(&dims, elem_type(cx, elem)?, None).into())
}

/// `memref<dims x elem>` with the identity layout.
pub fn memref_type<'c>(cx: &'c Context, dims: &[i64], elem: ElemType) -> Result<MemRefType<'c>> {
    Ok(MemRefType::new(elem_type(cx, elem)?, dims, None, None))
}
