//! Classification losses.
//!
//! - `NegativeLogLikelihoodLoss` (12, 13, 22): `-input[n, target[n, d...],
//!   d...]`, weighted by `weight[class]`.
//! - `SoftmaxCrossEntropyLoss` (12, 13): the same on `log(softmax(scores))`,
//!   which is also its optional second output `log_prob` (the scores'
//!   type).
//!
//! The input is `[N, C, D1, ..., Dk]` (k >= 0), the target `[N, D1, ...,
//! Dk]` and the weight `[C]`; their dims are unified, so inputs that
//! disagree are an error. The loss has the input's element type and the
//! target's shape for `reduction = "none"`, and is a scalar for `"sum"`
//! and `"mean"` (the default).

use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{fmt_dims, known_tensor, unify};
use crate::schema::LossOp;
use crate::types::Type;

pub(crate) fn infer(op: LossOp, cx: &mut InferCtx) -> Result<(), Fail> {
    let input = cx.tensor(0)?.clone();
    let reduced = match cx.string_opt("reduction")?.as_deref().unwrap_or("mean") {
        "none" => false,
        "sum" | "mean" => true,
        other => {
            return Err(invalid!(
                "attribute 'reduction' must be none, sum or mean, got \"{other}\""
            ))
        }
    };
    let target = target_dims(cx)?;
    if reduced {
        cx.set_tensor(0, input.elem, vec![]);
    } else if let Some(dims) = target {
        cx.set_tensor(0, input.elem, dims);
    } else {
        cx.set_unranked(0, input.elem);
    }
    match op {
        LossOp::SoftmaxCrossEntropyLoss => cx.set_type(1, Type::Tensor(input)),
        LossOp::NegativeLogLikelihoodLoss => {}
    }
    Ok(())
}

/// The dims of the target `[N, D1, ..., Dk]` as the input, the target and
/// the weight describe them together; `None` when no rank is known.
fn target_dims(cx: &InferCtx) -> Result<Option<Vec<Dim>>, Fail> {
    let input = cx.tensor(0)?.dims();
    let target = cx.tensor(1)?.dims();
    if let Some(x) = input {
        if x.len() < 2 {
            return Err(invalid!(
                "the input must be [N, C, ...], got shape {}",
                fmt_dims(x)
            ));
        }
        if let Some(weight) = known_tensor(cx, 2)?.and_then(|w| w.dims()) {
            match weight {
                [c] => unify(&mut x[1].clone(), c, || "the weight's length".into())?,
                _ => {
                    return Err(invalid!(
                        "the weight must be 1-D, got shape {}",
                        fmt_dims(weight)
                    ))
                }
            }
        }
    }
    let mut dims = match (input, target) {
        (None, None) => return Ok(None),
        (Some(x), _) => [&x[..1], &x[2..]].concat(),
        (None, Some(t)) => t.to_vec(),
    };
    if let Some(t) = target {
        if t.len() != dims.len() {
            return Err(invalid!(
                "the target must have rank {} (the input's without the class dim), got shape {}",
                dims.len(),
                fmt_dims(t)
            ));
        }
        for (i, (slot, d)) in dims.iter_mut().zip(t).enumerate() {
            unify(slot, d, || format!("dim {i} of the target"))?;
        }
    }
    Ok(Some(dims))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::schema::OpKind::*;

    #[test]
    fn reductions_and_log_prob() {
        let mut g = Graph::new(28);
        let main = g.main();
        // Backend test_nllloss_NCd1d2_with_weight (none: [3,6,6]),
        // test_sce_mean_3d_log_prob (mean: scalar, log_prob [3,5,2]) and
        // test_sce_NCd1d2d3_none_no_weight_negative_ii.
        let x = g.input(t("3x5x6x6xf32"));
        let target = g.input(t("3x6x6xi64"));
        let weight = g.input(t("5xf32"));
        let none = vec![("reduction", Attr::str("none"))];
        let nll = g.op_at(
            NegativeLogLikelihoodLoss,
            22,
            &[x, target, weight],
            &none.clone(),
            1,
        )[0];
        let scores = g.input(t("3x5x2xf32"));
        let labels = g.input(t("3x2xi64"));
        let sce = g.op_at(SoftmaxCrossEntropyLoss, 13, &[scores, labels], &[], 2);
        let x5 = g.input(t("3x5x6x6x5xf32"));
        let y5 = g.input(t("3x6x6x5xi64"));
        let sce_none = g.node(
            main,
            SoftmaxCrossEntropyLoss,
            13,
            &[Some(x5), Some(y5)],
            &[true, false],
            &none.clone(),
        );
        // Dims unify across the input and the target.
        let xs = g.input(t("?xCx7xf32"));
        let ys = g.input(t("Nx?xi64"));
        let merged = g.op_at(NegativeLogLikelihoodLoss, 13, &[xs, ys], &none, 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(nll), "tensor<3x6x6xf32>");
        assert_eq!(g.ty(sce[0]), "tensor<f32>");
        assert_eq!(g.ty(sce[1]), "tensor<3x5x2xf32>");
        assert_eq!(g.ty(sce_none[0].unwrap()), "tensor<3x6x6x5xf32>");
        assert_eq!(g.ty(merged), r#"tensor<"N"x7xf32>"#);
    }

    #[test]
    fn inconsistent_inputs() {
        let cases = [
            (
                "3x5x6xf32",
                "3x7xi64",
                "5xf32",
                "dim 1 of the target is 7 but must be 6",
            ),
            (
                "3x5x6xf32",
                "3xi64",
                "5xf32",
                "the target must have rank 2 (the input's without the class dim), got shape [3]",
            ),
            (
                "3x5xf32",
                "3xi64",
                "4xf32",
                "the weight's length is 4 but must be 5",
            ),
            (
                "3xf32",
                "3xi64",
                "3xf32",
                "the input must be [N, C, ...], got shape [3]",
            ),
        ];
        for (x, y, w, message) in cases {
            let mut g = Graph::new(28);
            let x = g.input(t(x));
            let y = g.input(t(y));
            let w = g.input(t(w));
            g.op_at(NegativeLogLikelihoodLoss, 22, &[x, y, w], &[], 1);
            let err = g.infer_err();
            assert!(err.ends_with(message), "{err}");
        }
    }
}
