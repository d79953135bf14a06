//! Training operators (`ai.onnx.preview.training`, version 1).
//!
//! - `Adagrad`, `Momentum`, `Adam`: one optimizer step for n variables.
//!   The inputs are the learning rate `R` and update count `T`, then n
//!   tensors of each group: `X, G, H` (Adagrad), `X, G, V` (Momentum),
//!   `X, G, V, H` (Adam). The results are the new `X, H`, `X, V` or
//!   `X, V, H`, n each. A variable's tensors all have its shape, so the
//!   types of each variable's inputs are merged (a disagreement is an
//!   error) and given to its results.
//! - `Gradient`: the gradients of `y` with respect to the graph values named
//!   by `xs`; the inputs feed `xs` then `zs`, and result i has the type of
//!   input i.

use crate::attr::Attr;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::schema::TrainingOp;
use crate::types::{merge_types, Type};

pub(crate) fn infer(op: TrainingOp, cx: &mut InferCtx) -> Result<(), Fail> {
    match op {
        TrainingOp::Adagrad => optimizer(cx, &["X", "G", "H"], &[0, 2]),
        TrainingOp::Momentum => optimizer(cx, &["X", "G", "V"], &[0, 2]),
        TrainingOp::Adam => optimizer(cx, &["X", "G", "V", "H"], &[0, 2, 3]),
        TrainingOp::Gradient => gradient(cx),
    }
}

/// An optimizer whose inputs after `R` and `T` are n tensors of each of
/// `groups`, and whose results are n tensors of each group in `updated`.
fn optimizer(cx: &mut InferCtx, groups: &[&str], updated: &[usize]) -> Result<(), Fail> {
    let tensors = cx.num_inputs().saturating_sub(2);
    if tensors == 0 || tensors % groups.len() != 0 {
        return Err(invalid!(
            "after R and T, the inputs must be {} groups of equal size ({}), got {tensors} tensors",
            groups.len(),
            groups.join(", ")
        ));
    }
    let n = tensors / groups.len();
    if cx.num_outputs() != n * updated.len() {
        let names: Vec<&str> = updated.iter().map(|&g| groups[g]).collect();
        return Err(invalid!(
            "{n} variables need {} results ({} for each), the op has {}",
            n * updated.len(),
            names.join(", "),
            cx.num_outputs()
        ));
    }
    for var in 0..n {
        let mut ty = Type::Unknown;
        for (g, name) in groups.iter().enumerate() {
            let i = 2 + g * n + var;
            let t = cx
                .input_type(i)
                .cloned()
                .ok_or_else(|| invalid!("input {i} is missing"))?;
            ty = merge_types(&ty, &t).ok_or_else(|| {
                invalid!("{name} of variable {var} (input {i}) is {t} but the variable's other tensors are {ty}")
            })?;
        }
        if ty != Type::Unknown {
            for o in 0..updated.len() {
                cx.set_type(o * n + var, ty.clone());
            }
        }
    }
    Ok(())
}

fn gradient(cx: &mut InferCtx) -> Result<(), Fail> {
    let names = |name: &str| match cx.attr(name) {
        None => Ok(0),
        Some(Attr::Strings(s)) => Ok(s.len()),
        Some(a) => Err(invalid!(
            "attribute '{name}' must be STRINGS, got {}",
            a.kind().name()
        )),
    };
    let (xs, zs) = (names("xs")?, names("zs")?);
    if cx.num_inputs() != xs + zs {
        return Err(invalid!(
            "'xs' and 'zs' name {} values but the op has {} inputs",
            xs + zs,
            cx.num_inputs()
        ));
    }
    if cx.num_outputs() != xs {
        return Err(invalid!(
            "'xs' names {xs} values but the op has {} results",
            cx.num_outputs()
        ));
    }
    for i in 0..xs {
        let t = cx.tensor(i)?;
        if t.elem.is_float() {
            let t = Type::Tensor(t.clone());
            cx.set_type(i, t);
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
    fn optimizers_keep_variable_shapes() {
        // Backend test_adagrad_multiple (X1 [1], X2 [2]), test_adam and
        // test_momentum (X [2]).
        let mut g = Graph::new(28);
        let r = g.input(t("f32"));
        let step = g.input(t("i64"));
        let v1: Vec<_> = (0..3).map(|_| g.input(t("1xf32"))).collect();
        let v2: Vec<_> = (0..4)
            .map(|i| g.input(t(if i == 1 { "?xf32" } else { "2xf32" })))
            .collect();
        let adagrad = g.op_at(
            Adagrad,
            1,
            &[r, step, v1[0], v2[0], v1[1], v2[1], v1[2], v2[2]],
            &[],
            4,
        );
        let adam = g.op_at(Adam, 1, &[r, step, v2[0], v2[1], v2[2], v2[3]], &[], 3);
        let momentum = g.op_at(
            Momentum,
            1,
            &[r, step, v2[1], v2[1], v2[2]],
            &[("mode", Attr::str("standard"))],
            2,
        );
        g.infer().unwrap();
        let types =
            |g: &Graph, vs: &[crate::ir::Value]| vs.iter().map(|&v| g.ty(v)).collect::<Vec<_>>();
        assert_eq!(
            types(&g, &adagrad),
            [
                "tensor<1xf32>",
                "tensor<2xf32>",
                "tensor<1xf32>",
                "tensor<2xf32>"
            ]
        );
        assert_eq!(types(&g, &adam), ["tensor<2xf32>"; 3]);
        assert_eq!(types(&g, &momentum), ["tensor<2xf32>"; 2]);
    }

    #[test]
    fn gradient_and_errors() {
        let mut g = Graph::new(28);
        let w = g.input(t("3x4xf32"));
        let z = g.input(t("4xf32"));
        let xs = Attr::Strings(vec![b"W".to_vec()]);
        let zs = Attr::Strings(vec![b"Z".to_vec()]);
        let grads = g.op_at(
            Gradient,
            1,
            &[w, z],
            &[("xs", xs), ("zs", zs), ("y", Attr::str("Y"))],
            1,
        );
        g.infer().unwrap();
        assert_eq!(g.ty(grads[0]), "tensor<3x4xf32>");

        let mut g = Graph::new(28);
        let r = g.input(t("f32"));
        let step = g.input(t("i64"));
        let x = g.input(t("2xf32"));
        let gr = g.input(t("3xf32"));
        g.op_at(Momentum, 1, &[r, step, x, gr, x], &[], 2);
        assert!(g.infer_err().ends_with(
            "G of variable 0 (input 3) is tensor<3xf32> but the variable's other tensors are tensor<2xf32>"
        ));

        let mut g = Graph::new(28);
        let r = g.input(t("f32"));
        let step = g.input(t("i64"));
        let x = g.input(t("2xf32"));
        g.op_at(Adam, 1, &[r, step, x, x, x], &[], 3);
        assert!(g.infer_err().ends_with(
            "after R and T, the inputs must be 4 groups of equal size (X, G, V, H), got 3 tensors"
        ));
    }
}
