//! Matrix products (the dialect's `ops/linalg.rs` family): MatMul, Gemm
//! and the optimizer's fused forms in `matmul.rs`, the integer products
//! (MatMulInteger, QLinearMatMul) in `integer.rs`, the packed integer
//! product and convolution of the optimizer in `packed.rs`, Det of a symbolic order in
//! `det.rs`.

mod det;
mod integer;
pub(crate) mod matmul;
mod packed;
mod tiles;

use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::LinalgOp;
use onnx_mlc_dialect::Model;

pub(crate) use integer::widened;

use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::Symbolic;

/// Lowers a matrix product.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: LinalgOp) -> Result<()> {
    use LinalgOp::*;
    match which {
        MatMul | Gemm => matmul::lower(kb, op),
        MatMulInteger => integer::lower_matmul_integer(kb, op),
        PackedMatMulInteger | PackedConvInteger => packed::lower(kb, op),
        QLinearMatMul => integer::lower_qlinear_matmul(kb, op),
        Det => det::lower(kb, op),
        Einsum | Attention | FlexAttention | LinearAttention | RotaryEmbedding | SwiGLU => {
            Err(kb.not_lowered(op))
        }
    }
}

/// How a matrix product takes symbolic sizes ([`matmul::checks`], the
/// integer products' own: their zero points and scales too).
pub(crate) fn checks(model: &Model, data: &OpData, which: LinalgOp) -> Result<Symbolic> {
    use LinalgOp::*;
    Ok(match which {
        MatMul | Gemm => matmul::checks(model, data)?,
        MatMulInteger | QLinearMatMul => Symbolic::of(integer::product_checks(model, data)),
        PackedMatMulInteger | PackedConvInteger => Symbolic::of(packed::checks(model, data)),
        Det => Symbolic::of(det::checks(model, data)),
        Einsum | Attention | FlexAttention | LinearAttention | RotaryEmbedding | SwiGLU => {
            Symbolic::not_yet()
        }
    })
}
