//! Random number generators.
//!
//! - `RandomNormal`, `RandomUniform`: a tensor of the `shape` attribute's
//!   shape and `dtype` (default float) drawn from a normal or uniform
//!   distribution.
//! - `RandomNormalLike`, `RandomUniformLike`, `Bernoulli`: the same, with
//!   the input's shape, and `dtype` or else the input's element type
//!   (`Bernoulli` draws 0/1 with the input's probabilities).
//! - `Multinomial`: `sample_size` class indices per row of a `[batch,
//!   classes]` input of log-probabilities: `[batch, sample_size]` of
//!   `dtype` (int32, the default, or int64).
//!
//! Versions: 1 and 22 (`Bernoulli` 15 and 22, `Multinomial` 7 and 22); the
//! versions differ only in the types allowed.

use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{elem_attr, fmt_dims};
use crate::schema::RandomOp;
use crate::types::{ElemType, TensorType, Type};

pub(crate) fn infer(op: RandomOp, cx: &mut InferCtx) -> Result<(), Fail> {
    match op {
        RandomOp::RandomNormal | RandomOp::RandomUniform => {
            let elem = elem_attr(cx, "dtype")?.unwrap_or(ElemType::F32);
            let shape = cx
                .ints_opt("shape")?
                .ok_or_else(|| invalid!("attribute 'shape' is required"))?;
            if let Some(d) = shape.iter().find(|&&d| d < 0) {
                return Err(invalid!("attribute 'shape' has a negative dim {d}"));
            }
            cx.set_type(0, Type::tensor(elem, &shape));
            Ok(())
        }
        RandomOp::Multinomial => {
            let elem = elem_attr(cx, "dtype")?.unwrap_or(ElemType::I32);
            if !matches!(elem, ElemType::I32 | ElemType::I64) {
                return Err(invalid!(
                    "attribute 'dtype' must be int32 or int64, got {elem}"
                ));
            }
            let samples = cx.int("sample_size")?;
            if samples <= 0 {
                return Err(invalid!(
                    "attribute 'sample_size' must be positive, got {samples}"
                ));
            }
            let batch = match cx.tensor(0)?.dims() {
                None => Dim::Unknown,
                Some([batch, _]) => batch.clone(),
                Some(d) => {
                    return Err(invalid!(
                        "the input must be [batch, classes], got shape {}",
                        fmt_dims(d)
                    ))
                }
            };
            cx.set_tensor(0, elem, vec![batch, Dim::Known(samples)]);
            Ok(())
        }
        RandomOp::RandomNormalLike | RandomOp::RandomUniformLike | RandomOp::Bernoulli => {
            let x = cx.tensor(0)?.clone();
            let elem = elem_attr(cx, "dtype")?.unwrap_or(x.elem);
            cx.set_type(
                0,
                Type::Tensor(TensorType {
                    elem,
                    shape: x.shape,
                }),
            );
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::schema::OpKind::*;

    #[test]
    fn shapes_and_types() {
        let mut g = Graph::new(28);
        let x = g.input(t("10xf32"));
        let xd = g.input(t("10xf64"));
        let logits = g.input(t("Bx5xf32"));
        let normal = g.op_at(
            RandomNormal,
            22,
            &[],
            &[("shape", Attr::Ints(vec![2, 3]))],
            1,
        )[0];
        let uniform = g.op_at(
            RandomUniform,
            1,
            &[],
            &[("shape", Attr::Ints(vec![4])), ("dtype", Attr::Int(11))],
            1,
        )[0];
        let like = g.op_at(RandomUniformLike, 22, &[x], &[], 1)[0];
        let like16 = g.op_at(RandomNormalLike, 22, &[x], &[("dtype", Attr::Int(10))], 1)[0];
        // Backend test_bernoulli (double in, double out) and
        // test_bernoulli_double (float in, dtype double).
        let bernoulli = g.op_at(Bernoulli, 22, &[xd], &[], 1)[0];
        let bernoulli_double = g.op_at(Bernoulli, 22, &[x], &[("dtype", Attr::Int(11))], 1)[0];
        let samples = g.op_at(
            Multinomial,
            22,
            &[logits],
            &[("sample_size", Attr::Int(3)), ("dtype", Attr::Int(7))],
            1,
        )[0];
        let one = g.op_at(Multinomial, 7, &[logits], &[], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(normal), "tensor<2x3xf32>");
        assert_eq!(g.ty(uniform), "tensor<4xf64>");
        assert_eq!(g.ty(like), "tensor<10xf32>");
        assert_eq!(g.ty(like16), "tensor<10xf16>");
        assert_eq!(g.ty(bernoulli), "tensor<10xf64>");
        assert_eq!(g.ty(bernoulli_double), "tensor<10xf64>");
        assert_eq!(g.ty(samples), r#"tensor<"B"x3xi64>"#);
        assert_eq!(g.ty(one), r#"tensor<"B"x1xi32>"#);
    }

    #[test]
    fn errors() {
        let mut g = Graph::new(28);
        g.op_at(
            RandomNormal,
            22,
            &[],
            &[("shape", Attr::Ints(vec![2, -1]))],
            1,
        );
        assert!(g
            .infer_err()
            .ends_with("attribute 'shape' has a negative dim -1"));

        let mut g = Graph::new(28);
        let x = g.input(t("2x3xf32"));
        g.op_at(Multinomial, 22, &[x], &[("dtype", Attr::Int(1))], 1);
        assert!(g
            .infer_err()
            .ends_with("attribute 'dtype' must be int32 or int64, got f32"));

        let mut g = Graph::new(28);
        let x = g.input(t("3xf32"));
        g.op_at(Multinomial, 22, &[x], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("the input must be [batch, classes], got shape [3]"));
    }
}
