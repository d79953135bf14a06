//! Linear quantization.
//!
//! - `QuantizeLinear`: `y = saturate(round(x / y_scale) + y_zero_point)`.
//! - `DequantizeLinear`: `y = (x - x_zero_point) * x_scale`.
//! - `DynamicQuantizeLinear`: computes a uint8 scale and zero point from the
//!   range of `x` and quantizes `x` with them.
//!
//! The result has `x`'s shape. Its element type is, for `QuantizeLinear`,
//! the zero point's, else `output_dtype` (21+), else uint8 (a zero point
//! and an `output_dtype` that disagree are an error); for
//! `DequantizeLinear`, float (10, 13), the scale's (19, 21), or
//! `output_dtype` when set, else the scale's (23+). `DynamicQuantizeLinear`
//! gives a uint8 `y` and scalar float scale and uint8 zero point.
//!
//! The scale and zero point must have a shape the spec allows for `x`:
//! one element (per-tensor), a 1-D tensor of `x`'s `axis` dim (per-axis,
//! 13+; `axis` defaults to 1), or, with `block_size` > 0 (21+), `x`'s shape
//! with the `axis` dim divided by `block_size`, rounded up (blocked).
//! Versions: 10, 13, 19 (`saturate`), 21 (`block_size`, `output_dtype`),
//! 23, 24, 25, 28 (`precision`; none of these change the rule).

use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{elem_attr, fmt_dims, known_tensor, normalize_axis};
use crate::schema::QuantOp;
use crate::types::{ElemType, TensorType, Type};

pub(crate) fn infer(op: QuantOp, cx: &mut InferCtx) -> Result<(), Fail> {
    match op {
        QuantOp::QuantizeLinear => {
            let zero_point = cx.opt_tensor(2)?.map(|t| t.elem);
            let elem = match (zero_point, elem_attr(cx, "output_dtype")?) {
                (Some(z), Some(o)) if z != o => {
                    return Err(invalid!(
                        "attribute 'output_dtype' is {o} but the zero point is {z}"
                    ))
                }
                (Some(z), _) => z,
                (None, Some(o)) => o,
                (None, None) => ElemType::U8,
            };
            linear(cx, elem)
        }
        QuantOp::DequantizeLinear => {
            let elem = match cx.version() {
                ..19 => ElemType::F32,
                v => match elem_attr(cx, "output_dtype")? {
                    Some(o) if v >= 23 => o,
                    _ => cx.elem(1)?,
                },
            };
            linear(cx, elem)
        }
        QuantOp::DynamicQuantizeLinear => {
            let x = cx.tensor(0)?.clone();
            cx.set_type(
                0,
                Type::Tensor(TensorType {
                    elem: ElemType::U8,
                    shape: x.shape,
                }),
            );
            cx.set_tensor(1, ElemType::F32, vec![]);
            cx.set_tensor(2, ElemType::U8, vec![]);
            Ok(())
        }
    }
}

/// `QuantizeLinear`/`DequantizeLinear`: checks the scale (input 1) and
/// zero point (input 2) against `x` and gives `y` `x`'s shape.
fn linear(cx: &mut InferCtx, elem: ElemType) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    if let Some(dims) = x.dims() {
        check_granularity(cx, dims, 1, "the scale")?;
        check_granularity(cx, dims, 2, "the zero point")?;
    }
    cx.set_type(
        0,
        Type::Tensor(TensorType {
            elem,
            shape: x.shape,
        }),
    );
    Ok(())
}

/// Checks that input `input` (a scale or zero point) has a shape allowed
/// for an `x` of dims `x`: per-tensor, per-axis or blocked.
fn check_granularity(cx: &InferCtx, x: &[Dim], input: usize, name: &str) -> Result<(), Fail> {
    let Some(param) = known_tensor(cx, input)? else {
        return Ok(());
    };
    let Some(p) = param.dims() else { return Ok(()) };
    if p.iter().all(|d| *d == Dim::Known(1)) {
        return Ok(());
    }
    let axis = cx.int_opt("axis")?.unwrap_or(1);
    let block = cx.int_opt("block_size")?.unwrap_or(0);
    if block < 0 {
        return Err(invalid!(
            "attribute 'block_size' must not be negative, got {block}"
        ));
    }
    // A parameter whose dims are 1 or symbolic may be per-tensor at run
    // time, where the axis is not used.
    let may_be_per_tensor = p.iter().all(|d| *d == Dim::Known(1) || !d.is_known());
    let ax = match normalize_axis(axis, x.len()) {
        Ok(ax) => ax,
        Err(_) if may_be_per_tensor => return Ok(()),
        Err(_) => {
            return Err(invalid!(
                "attribute 'axis' = {axis} is out of range for an input of rank {}",
                x.len()
            ))
        }
    };
    if block == 0 {
        return match p {
            [d] if d.definitely_ne(&x[ax]) => Err(invalid!(
                "{name} has {d} elements but dim {ax} of the input {} is {}",
                fmt_dims(x),
                x[ax]
            )),
            [_] => Ok(()),
            _ => Err(invalid!(
                "{name} has shape {}, not a scalar or 1-D (blocked quantization needs 'block_size')",
                fmt_dims(p)
            )),
        };
    }
    if p.len() != x.len() {
        return Err(invalid!(
            "{name} has shape {}, but blocked quantization of an input of shape {} needs rank {}",
            fmt_dims(p),
            fmt_dims(x),
            x.len()
        ));
    }
    for (i, (pd, xd)) in p.iter().zip(x).enumerate() {
        let expected = if i == ax {
            xd.ceil_div(block)
        } else {
            xd.clone()
        };
        if pd.definitely_ne(&expected) {
            return Err(invalid!(
                "{name} has shape {}, but blocks of {block} along axis {ax} of an input of shape {} need {expected} at dim {i}",
                fmt_dims(p),
                fmt_dims(x)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::schema::OpKind::*;

    #[test]
    fn quantize_follows_the_zero_point_or_output_dtype() {
        let mut g = Graph::new(28);
        // Backend test_quantizelinear, test_quantizelinear_e4m3fn (zero
        // point of shape [1] with a scalar scale), test_quantizelinear_axis
        // and test_quantizelinear_int4 (per-axis).
        let x = g.input(t("6xf32"));
        let s = g.input(t("f32"));
        let zp = g.input(t("ui8"));
        let y = g.op_at(QuantizeLinear, 28, &[x, s, zp], &[], 1)[0];
        let zp8 = g.input(t("1xf8E4M3FN"));
        let y8 = g.op_at(QuantizeLinear, 28, &[x, s, zp8], &[], 1)[0];
        let xa = g.input(t("1x3x3x2xf32"));
        let sa = g.input(t("3xf32"));
        let za = g.input(t("3xui8"));
        let ya = g.op_at(QuantizeLinear, 13, &[xa, sa, za], &[], 1)[0];
        let x4 = g.input(t("3x4xf32"));
        let z4 = g.input(t("3xi4"));
        let y4 = g.op_at(
            QuantizeLinear,
            28,
            &[x4, sa, z4],
            &[("axis", Attr::Int(0))],
            1,
        )[0];
        // No zero point: uint8, or output_dtype (21+).
        let plain = g.op_at(QuantizeLinear, 10, &[x, s], &[], 1)[0];
        let typed = g.op_at(
            QuantizeLinear,
            21,
            &[x, s],
            &[("output_dtype", Attr::Int(22))],
            1,
        )[0];
        g.infer().unwrap();
        assert_eq!(g.ty(y), "tensor<6xui8>");
        assert_eq!(g.ty(y8), "tensor<6xf8E4M3FN>");
        assert_eq!(g.ty(ya), "tensor<1x3x3x2xui8>");
        assert_eq!(g.ty(y4), "tensor<3x4xi4>");
        assert_eq!(g.ty(plain), "tensor<6xui8>");
        assert_eq!(g.ty(typed), "tensor<6xi4>");
    }

    #[test]
    fn blocked_quantization() {
        // Backend test_quantizelinear_blocked_asymmetric (x [3,4], scale
        // [3,2], block 2 on axis 1) and test_dequantizelinear_blocked.
        let mut g = Graph::new(28);
        let x = g.input(t("3x4xf32"));
        let s = g.input(t("3x2xf32"));
        let zp = g.input(t("3x2xui8"));
        let attrs = || vec![("axis", Attr::Int(1)), ("block_size", Attr::Int(2))];
        let y = g.op_at(QuantizeLinear, 28, &[x, s, zp], &attrs(), 1)[0];
        let xq = g.input(t("1x4x3x2xui8"));
        let sq = g.input(t("1x2x3x2xf32"));
        let deq = g.op_at(DequantizeLinear, 28, &[xq, sq], &attrs(), 1)[0];
        // A block that does not divide the dim: 5 / 2 rounds up to 3.
        let x5 = g.input(t("Nx5xf32"));
        let s5 = g.input(t("Nx3xf32"));
        let y5 = g.op_at(QuantizeLinear, 21, &[x5, s5], &attrs(), 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(y), "tensor<3x4xui8>");
        assert_eq!(g.ty(deq), "tensor<1x4x3x2xf32>");
        assert_eq!(g.ty(y5), r#"tensor<"N"x5xui8>"#);

        let mut g = Graph::new(28);
        let x = g.input(t("3x4xf32"));
        let s = g.input(t("3x1xf32"));
        g.op_at(QuantizeLinear, 28, &[x, s], &attrs(), 1);
        assert!(g.infer_err().ends_with(
            "the scale has shape [3, 1], but blocks of 2 along axis 1 of an input of shape [3, 4] need 2 at dim 1"
        ));
    }

    #[test]
    fn dequantize_output_type_by_version() {
        // Backend test_dequantizelinear (float scale) and
        // test_dequantizelinear_e4m3fn_float16 (float16 scale).
        let mut g = Graph::new(28);
        let x = g.input(t("4xui8"));
        let s = g.input(t("f32"));
        let s16 = g.input(t("f16"));
        let y = g.op_at(DequantizeLinear, 28, &[x, s], &[], 1)[0];
        let y16 = g.op_at(DequantizeLinear, 19, &[x, s16], &[], 1)[0];
        let old = g.op_at(DequantizeLinear, 13, &[x, s], &[], 1)[0];
        let bf = g.op_at(
            DequantizeLinear,
            23,
            &[x, s],
            &[("output_dtype", Attr::Int(16))],
            1,
        )[0];
        g.infer().unwrap();
        assert_eq!(g.ty(y), "tensor<4xf32>");
        assert_eq!(g.ty(y16), "tensor<4xf16>");
        assert_eq!(g.ty(old), "tensor<4xf32>");
        assert_eq!(g.ty(bf), "tensor<4xbf16>");
    }

    #[test]
    fn dynamic_quantize() {
        // Backend test_dynamicquantizelinear: float[6] -> uint8[6], float
        // scalar, uint8 scalar.
        let mut g = Graph::new(28);
        let x = g.input(t("6xf32"));
        let out = g.op_at(DynamicQuantizeLinear, 11, &[x], &[], 3);
        g.infer().unwrap();
        let types: Vec<String> = out.iter().map(|&v| g.ty(v)).collect();
        assert_eq!(types, ["tensor<6xui8>", "tensor<f32>", "tensor<ui8>"]);
    }

    #[test]
    fn bad_scales_and_types() {
        let mut g = Graph::new(28);
        let x = g.input(t("2x3xf32"));
        let s = g.input(t("2xf32"));
        g.op_at(QuantizeLinear, 13, &[x, s], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("the scale has 2 elements but dim 1 of the input [2, 3] is 3"));

        let mut g = Graph::new(28);
        let x = g.input(t("2x3xf32"));
        let s = g.input(t("2x3xf32"));
        g.op_at(QuantizeLinear, 13, &[x, s], &[], 1);
        assert!(g.infer_err().ends_with(
            "the scale has shape [2, 3], not a scalar or 1-D (blocked quantization needs 'block_size')"
        ));

        let mut g = Graph::new(28);
        let x = g.input(t("2x3xf32"));
        let s = g.input(t("f32"));
        let zp = g.input(t("ui8"));
        g.op_at(
            QuantizeLinear,
            21,
            &[x, s, zp],
            &[("output_dtype", Attr::Int(3))],
            1,
        );
        assert!(g
            .infer_err()
            .ends_with("attribute 'output_dtype' is i8 but the zero point is ui8"));
    }
}
