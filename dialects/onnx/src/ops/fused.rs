//! onnx-mlc's internal fused operators (domain `onnx_mlc`, text prefix
//! `omlc`): what the graph optimizer produces and the lowering implements.
//! Their definitions are data in `tools/internal_ops.py`; this header is
//! the contract, exactly. `Activation` is of the elementwise family
//! (`elementwise.rs` infers it, with [`check_activation`] from here).
//!
//! | op | computes | result shape |
//! |----|----------|--------------|
//! | Activation(X) | `act(X)` elementwise | X's |
//! | FusedConv(X, W, B?, Z?) | `act(Conv(X, W, B) + Z)`, Conv's attributes; Z has exactly Y's shape | as Conv |
//! | FusedGemm(A, B, C?) | `act(alpha·A'·B' + beta·C)`, Gemm's attributes | as Gemm |
//! | FusedMatMul(A, B, Bias?, Z?) | `act(MatMul(A, B) + Bias + Z)`, Bias broadcast unidirectionally to the product; Z has exactly Y's shape | as MatMul |
//! | FusedAttention(Q, Kt, V, Mask?) | `Softmax(scale·MatMul(Q, Kt) + Mask, axis = −1)·V`; Q `[…, Sq, D]`, Kt `[…, D, Sk]`, V `[…, Sk, Dv]`, Mask broadcast unidirectionally to `[…, Sq, Sk]` | `[…, Sq, Dv]` |
//!
//! `act` is named by the STRING attribute `activation` (`""`: none) with
//! FLOATS `activation_params`: `Relu`; `LeakyRelu` (alpha); `Sigmoid`;
//! `Tanh`; `Clip` (min, max); `HardSigmoid` (alpha, beta); `HardSwish`;
//! `Silu` (`x·sigmoid(x)`); `Gelu` (`x/2·(1 + erf(x/√2))`); `GeluTanh`
//! (`x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`). Every op is version 1,
//! for float16/float/double/bfloat16 tensors.

use super::conv;
use super::linalg::{gemm, matmul_dims};
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{broadcast, fmt_dims};
use crate::schema::FusedOp;

/// The activations the fused ops and `Activation` accept, with their
/// number of parameters.
pub(crate) const ACTIVATIONS: &[(&str, usize)] = &[
    ("", 0),
    ("Relu", 0),
    ("LeakyRelu", 1),
    ("Sigmoid", 0),
    ("Tanh", 0),
    ("Clip", 2),
    ("HardSigmoid", 2),
    ("HardSwish", 0),
    ("Silu", 0),
    ("Gelu", 0),
    ("GeluTanh", 0),
];

pub(crate) fn infer(op: FusedOp, cx: &mut InferCtx) -> Result<(), Fail> {
    check_activation(cx)?;
    match op {
        FusedOp::FusedConv => {
            let elem = cx.elem(0)?;
            conv::conv(cx, 0, 1, elem)?;
            residual_fits(cx, 3)
        }
        FusedOp::FusedGemm => gemm(cx),
        FusedOp::FusedMatMul => {
            let elem = cx.elem(0)?;
            let out = matmul_dims(cx.dims(0)?, cx.dims(1)?)?;
            broadcasts_to(cx, 2, &out, "Bias")?;
            cx.set_tensor(0, elem, out);
            residual_fits(cx, 3)
        }
        FusedOp::FusedAttention => attention(cx),
    }
}

/// `activation` names a known activation and `activation_params` has its
/// number of parameters.
pub(super) fn check_activation(cx: &InferCtx) -> Result<(), Fail> {
    let name = cx.string_opt("activation")?.unwrap_or_default();
    let Some(&(_, arity)) = ACTIVATIONS.iter().find(|(n, _)| *n == name) else {
        return Err(invalid!("unknown activation '{name}'"));
    };
    let params = cx.floats_opt("activation_params")?.unwrap_or_default();
    if params.len() != arity {
        return Err(invalid!(
            "activation '{name}' takes {arity} parameters, got {}",
            params.len()
        ));
    }
    Ok(())
}

/// Optional input `i` broadcasts unidirectionally to `out`.
fn broadcasts_to(cx: &InferCtx, i: usize, out: &[crate::dim::Dim], what: &str) -> Result<(), Fail> {
    let Some(dims) = cx.opt_tensor(i)?.and_then(|t| t.dims()) else {
        return Ok(());
    };
    let fits = dims.len() <= out.len()
        && broadcast(dims, out).is_ok_and(|b| {
            b.len() == out.len() && b.iter().zip(out).all(|(x, y)| !x.definitely_ne(y))
        });
    if !fits {
        return Err(invalid!(
            "{what} {} does not broadcast to {}",
            fmt_dims(dims),
            fmt_dims(out)
        ));
    }
    Ok(())
}

/// FusedConv's or FusedMatMul's residual `Z` has exactly the result's shape.
fn residual_fits(cx: &mut InferCtx, i: usize) -> Result<(), Fail> {
    let Some(z) = cx.opt_tensor(i)?.and_then(|t| t.dims()) else {
        return Ok(());
    };
    let Some(crate::types::Type::Tensor(y)) = cx.result_type(0) else {
        return Ok(());
    };
    let Some(y) = y.dims() else { return Ok(()) };
    if z.len() != y.len() || z.iter().zip(y).any(|(a, b)| a.definitely_ne(b)) {
        return Err(invalid!(
            "residual Z {} is not the result's shape {}",
            fmt_dims(z),
            fmt_dims(y)
        ));
    }
    Ok(())
}

/// FusedAttention: `Q·Kt` gives the scores, `scores·V` the result.
fn attention(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let scores = matmul_dims(cx.dims(0)?, cx.dims(1)?)?;
    if scores.len() < 2 {
        return Err(invalid!("Q and Kt must be at least 2-D"));
    }
    broadcasts_to(cx, 3, &scores, "Mask")?;
    let out = matmul_dims(&scores, cx.dims(2)?)?;
    cx.set_tensor(0, elem, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::attr::Attr;

    #[test]
    fn fused_ops_have_their_base_ops_shapes() {
        let act = |s: &str| Attr::str(s);
        let floats = |v: &[f32]| Attr::Floats(v.to_vec());
        infers! {
            17 Activation(ti("2x3xf32"); activation = act("Gelu")) => "2x3xf32";
            17 Activation(ti("2x3xf32"); activation = act("Clip"), activation_params = floats(&[0.0, 6.0])) => "2x3xf32";
            17 Activation(ti("2x3xf32"); activation = act("Clip")) => Fails(1, "takes 2 parameters");
            17 Activation(ti("2x3xf32"); activation = act("Swoosh")) => Fails(1, "unknown activation");
            17 FusedConv(ti("1x3x8x8xf32"), ti("4x3x3x3xf32"), ti("4xf32"); pads = ints(&[1, 1, 1, 1])) => "1x4x8x8xf32";
            17 FusedConv(ti("1x3x8x8xf32"), ti("4x3x3x3xf32"), ti("4xf32"), ti("1x4x6x6xf32"); activation = act("Relu")) => "1x4x6x6xf32";
            17 FusedConv(ti("1x3x8x8xf32"), ti("4x3x3x3xf32"), ti("4xf32"), ti("1x4x8x8xf32")) => Fails(1, "residual");
            17 FusedGemm(ti("4x3xf32"), ti("5x4xf32"), ti("5xf32"); transA = int(1), transB = int(1)) => "3x5xf32";
            17 FusedMatMul(ti("BxSx768xf32"), ti("768x3072xf32"), ti("3072xf32"); activation = act("Gelu")) => "BxSx3072xf32";
            17 FusedMatMul(ti("2x3x4xf32"), ti("4x5xf32"), ti("3x1xf32")) => "2x3x5xf32";
            17 FusedMatMul(ti("2x3x4xf32"), ti("4x5xf32"), ti("2x1x1x5xf32")) => Fails(1, "does not broadcast");
            17 FusedMatMul(ti("4x3xf32"), ti("Nx3x49xf32"), ti("4x1xf32"), ti("Nx4x49xf32"); activation = act("Relu")) => "Nx4x49xf32";
            17 FusedMatMul(ti("4x3xf32"), ti("2x3x49xf32"), ti("4x1xf32"), ti("1x4x49xf32")) => Fails(1, "residual");
            17 FusedAttention(ti("1x12x128x64xf32"), ti("1x12x64x128xf32"), ti("1x12x128x64xf32"), ti("1x1x1x128xf32"); scale = Attr::Float(0.125)) => "1x12x128x64xf32";
            17 FusedAttention(ti("2x5x8xf32"), ti("2x8x7xf32"), ti("2x7x3xf32")) => "2x5x3xf32";
            17 FusedAttention(ti("2x5x8xf32"), ti("2x8x7xf32"), ti("2x7x3xf32"), ti("5x6xf32")) => Fails(1, "Mask");
        }
    }
}
