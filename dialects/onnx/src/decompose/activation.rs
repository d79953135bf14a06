//! Activations the elementwise lowering has no formula for, as compositions
//! of the ones it has (the identities of their spec function bodies):
//!
//! ```text
//! Celu(x)            = max(0, x) + min(0, alpha · (exp(x / alpha) - 1))
//! ThresholdedRelu(x) = Where(x > alpha, x, 0)
//! Shrink(x)          = Where(x < -lambd, x + bias, Where(x > lambd, x - bias, 0))
//! Mish(x)            = x · tanh(Softplus(x))
//! SwiGLU(a, b)       = a · Sigmoid(alpha · a) · b
//! ```
//!
//! Every version and floating-point type is handled (attributes take their
//! spec defaults).

use super::builder::Builder;
use crate::ir::Value;
use crate::schema::OpKind::*;

/// Expands Celu.
pub(super) fn celu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let alpha = b.scalar(elem, f64::from(b.float_attr("alpha").unwrap_or(1.0)))?;
    let zero = b.scalar(elem, 0.0)?;
    let one = b.scalar(elem, 1.0)?;
    let scaled = b.binary(Div, x, alpha)?;
    let exp = b.unary(Exp, scaled)?;
    let less_one = b.binary(Sub, exp, one)?;
    let negative = b.binary(Mul, alpha, less_one)?;
    let negative = b.binary(Min, zero, negative)?;
    let positive = b.binary(Max, zero, x)?;
    Some(vec![Some(b.binary(Add, positive, negative)?)])
}

/// Expands ThresholdedRelu.
pub(super) fn thresholded_relu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let alpha = b.scalar(elem, f64::from(b.float_attr("alpha").unwrap_or(1.0)))?;
    let zero = b.scalar(elem, 0.0)?;
    let above = b.binary(Greater, x, alpha)?;
    Some(vec![Some(b.select(above, x, zero)?)])
}

/// Expands Shrink.
pub(super) fn shrink(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    if !elem.is_float() {
        return None;
    }
    let lambd = f64::from(b.float_attr("lambd").unwrap_or(0.5));
    let bias = b.scalar(elem, f64::from(b.float_attr("bias").unwrap_or(0.0)))?;
    let low = b.scalar(elem, -lambd)?;
    let high = b.scalar(elem, lambd)?;
    let zero = b.scalar(elem, 0.0)?;
    let is_low = b.binary(Less, x, low)?;
    let is_high = b.binary(Greater, x, high)?;
    let raised = b.binary(Add, x, bias)?;
    let lowered = b.binary(Sub, x, bias)?;
    let upper = b.select(is_high, lowered, zero)?;
    Some(vec![Some(b.select(is_low, raised, upper)?)])
}

/// Expands Mish.
pub(super) fn mish(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let softplus = b.unary(Softplus, x)?;
    let tanh = b.unary(Tanh, softplus)?;
    Some(vec![Some(b.binary(Mul, x, tanh)?)])
}

/// Expands SwiGLU-28.
pub(super) fn swiglu(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (a, gate) = (b.input(0)?, b.input(1)?);
    let elem = b.elem(a)?;
    let alpha = b.scalar(elem, f64::from(b.float_attr("alpha").unwrap_or(1.0)))?;
    let scaled = b.binary(Mul, alpha, a)?;
    let sigmoid = b.unary(Sigmoid, scaled)?;
    let swish = b.binary(Mul, a, sigmoid)?;
    Some(vec![Some(b.binary(Mul, swish, gate)?)])
}
