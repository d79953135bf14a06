//! Canonicalization of exporter idioms: subgraphs that spell an op out in
//! primitive ops become that op, so that fusion (and the lowering) see one
//! op instead of a dozen.
//!
//! The spellings are the ones PyTorch's exporter writes (checked on the
//! real models: BERT's erf GELU, GPT-2's tanh GELU). Constants match by
//! value with a relative tolerance of 1e-6. `Shape → Gather → Unsqueeze →
//! Concat → Reshape` chains need no rule: the analysis knows their values
//! and folds them into constants when the shapes are static.

use std::sync::Arc;

use onnx_mlc_dialect::{Attr, OpKind};

use super::util::{const_of, is_const, same_type, static_dims_of, tensor_of, Builder};
use super::{Guard, Rule};
use crate::eval::{from_f64, splat};
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // (x·(erf(x/√2) + 1))·½ = Gelu(x)
        rw!("gelu-erf"; "(Mul (Mul ?x (Add (Erf (Div ?x 1.4142135)) 1)) 0.5)" => "(omlc.Activation[activation=\"Gelu\"] ?x)"; if same_type("?x")),
        // (x·½)·(erf(x/√2) + 1) = Gelu(x)
        rw!("gelu-erf-half-first"; "(Mul (Mul ?x 0.5) (Add (Erf (Div ?x 1.4142135)) 1))" => "(omlc.Activation[activation=\"Gelu\"] ?x)"; if same_type("?x")),
        // (x·½)·(tanh(√(2/π)·(x + 0.044715·x³)) + 1) = GeluTanh(x)
        rw!("gelu-tanh"; "(Mul (Mul ?x 0.5) (Add (Tanh (Mul (Add ?x (Mul (Pow ?x 3) 0.044715)) 0.7978846)) 1))" => "(omlc.Activation[activation=\"GeluTanh\"] ?x)"; if same_type("?x")),
        // x·sigmoid(x) = Silu(x)
        rw!("silu"; "(Mul ?x (Sigmoid ?x))" => "(omlc.Activation[activation=\"Silu\"] ?x)"),
        // sigmoid(x)·x = Silu(x)
        rw!("silu-swapped"; "(Mul (Sigmoid ?x) ?x)" => "(omlc.Activation[activation=\"Silu\"] ?x)"),
        // x·clip(x + 3, 0, 6)/6 = HardSwish(x)
        rw!("hardswish"; "(Div (Mul ?x (Clip (Add ?x 3) 0 6)) 6)" => "(HardSwish ?x)"; if same_type("?x")),
        // (x − μ)/√(mean((x − μ)²) + ε) with μ = mean(x) = LayerNormalization_ε(x, 1, 0)   (last axis)
        rw!("layernorm"; "(Div (Sub ?x (ReduceMean@m1 ?x)) (Sqrt (Add (ReduceMean@m2 (Pow (Sub ?x (ReduceMean ?x)) 2)) ?eps)))" => layernorm; if last_axis_mean("@m1"), last_axis_mean("@m2"), is_const("?eps")),
        // the same with ReduceMean's axes as an operand (opset ≥ 18)
        rw!("layernorm-axes-operand"; "(Div (Sub ?x (ReduceMean@m1 ?x ?a)) (Sqrt (Add (ReduceMean@m2 (Pow (Sub ?x (ReduceMean ?x ?a)) 2) ?a) ?eps)))" => layernorm; if last_axis_mean("@m1"), last_axis_mean("@m2"), is_const("?eps")),
        // LayerNorm(x, s, b)·g = LayerNorm(x, s·g, b·g)   (g constant along the normalized axis)
        rw!("layernorm-scale"; "(Mul (LayerNormalization@ln ?x ?s ?b) ?g)" => "(@ln ?x (Mul ?s ?g) (Mul ?b ?g))"; if is_const("?s"), is_const("?b"), along_last_axis("?g")),
        // LayerNorm(x, s, b) + β = LayerNorm(x, s, b + β)   (β constant along the normalized axis)
        rw!("layernorm-shift"; "(Add (LayerNormalization@ln ?x ?s ?b) ?beta)" => "(@ln ?x ?s (Add ?b ?beta))"; if is_const("?b"), along_last_axis("?beta")),
    ]
}

/// A ReduceMean over the last axis only, keeping dims.
fn last_axis_mean(label: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let node = m.node(label);
        let key = node.key().expect("labels are on ops");
        let Some(r) = tensor_of(eg, node.operands()[0]).and_then(|t| t.rank()) else {
            return false;
        };
        let axes = match node.operands().get(1) {
            Some(&a) => const_of(eg, a).and_then(|t| t.to_i64s()),
            None => key.ints("axes"),
        };
        key.int("keepdims").unwrap_or(1) == 1
            && matches!(axes.as_deref(), Some([a]) if *a == -1 || *a == r as i64 - 1)
    })
}

/// A constant vector (or scalar) along the root's last axis: a
/// per-feature scale or shift of a LayerNormalization, whose own scale
/// and bias are such vectors.
fn along_last_axis(v: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let (Some(c), Some(root)) = (static_dims_of(eg, m.class(v)), static_dims_of(eg, m.root))
        else {
            return false;
        };
        let Some(&d) = root.last() else { return false };
        eg[m.class(v)].data.constant.is_some()
            && c.len() <= 1
            && c.last().is_none_or(|&l| l == d || l == 1)
    })
}

fn layernorm(b: &mut Builder, m: &Match) -> Option<egg::Id> {
    let x = m.class("?x");
    let t = tensor_of(b.graph(), x)?.clone();
    let d = t.static_dims()?.last().copied()?;
    let eps = const_of(b.graph(), m.class("?eps")).and_then(splat)?;
    let ones = b.add_constant(from_f64(t.elem, vec![d], &vec![1.0; d as usize])?);
    let zeros = b.add_constant(from_f64(t.elem, vec![d], &vec![0.0; d as usize])?);
    b.op(
        OpKind::LayerNormalization,
        vec![
            ("axis", Attr::Int(-1)),
            ("epsilon", Attr::Float(eps as f32)),
        ],
        &[x, ones, zeros],
    )
}
