//! Fusion rules: a producer (MatMul, Gemm, Conv) and its epilogue (bias,
//! residual add, activation) become one op of the internal domain;
//! BatchNormalization and per-channel Mul/Add after a Conv fold into its
//! weights. (Attention has its own set, `attention.rs`.)
//!
//! Activations first take one form, `omlc.Activation` (the `*-act`
//! rules), so that one rule per producer fuses all of them. Weight folding
//! writes the new weights as ops on constants, which the analysis folds;
//! a rule whose weights do not fold (too big for the limit) does not apply,
//! so that weight arithmetic never moves to run time.

use std::sync::Arc;

use egg::Id;
use onnx_mlc_dialect::{Attr, Dim, OpKind};

use super::util::{
    broadcasts_to_root, const_of, dims_of, is_const, is_float, not_const, rank, same_type,
    static_dims_of, tensor_of, Builder,
};
use super::{Guard, Rule};
use crate::eval::{from_f64, splat};
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // Relu(x) = act⟨Relu⟩(x)
        rw!("relu-act"; "(Relu ?x)" => "(omlc.Activation[activation=\"Relu\"] ?x)"; if is_float("?x")),
        // Sigmoid(x) = act⟨Sigmoid⟩(x)
        rw!("sigmoid-act"; "(Sigmoid ?x)" => "(omlc.Activation[activation=\"Sigmoid\"] ?x)"; if is_float("?x")),
        // Tanh(x) = act⟨Tanh⟩(x)
        rw!("tanh-act"; "(Tanh ?x)" => "(omlc.Activation[activation=\"Tanh\"] ?x)"; if is_float("?x")),
        // HardSwish(x) = act⟨HardSwish⟩(x)
        rw!("hardswish-act"; "(HardSwish ?x)" => "(omlc.Activation[activation=\"HardSwish\"] ?x)"; if is_float("?x")),
        // LeakyRelu_α(x) = act⟨LeakyRelu, α⟩(x)
        rw!("leakyrelu-act"; "(LeakyRelu[alpha=?a] ?x)" => |b, m| activation(b, m, "LeakyRelu", &["?a"]); if is_float("?x")),
        // HardSigmoid_αβ(x) = act⟨HardSigmoid, α, β⟩(x)
        rw!("hardsigmoid-act"; "(HardSigmoid[alpha=?a, beta=?b] ?x)" => |b, m| activation(b, m, "HardSigmoid", &["?a", "?b"]); if is_float("?x")),
        // Clip(x, lo, hi) = act⟨Clip, lo, hi⟩(x)   (constant bounds)
        rw!("clip-act"; "(Clip ?x ?lo ?hi)" => clip_activation; if is_float("?x")),
        // Gelu(x) = act⟨Gelu⟩(x), Gelu_tanh(x) = act⟨GeluTanh⟩(x)
        rw!("gelu-act"; "(Gelu[approximate=?a] ?x)" => gelu_activation; if is_float("?x")),
        // MatMul(a, b) + c = Gemm(a, b, c)   (2-D a, b; c broadcasts to [M, N])
        rw!("matmul-add-gemm"; "(Add (MatMul@mm ?a ?b) ?c)" => "(Gemm ?a ?b ?c)"; if rank("?a", 2), rank("?b", 2), broadcasts_to_root("?c"), keeps_type("@mm")),
        // c + MatMul(a, b) = Gemm(a, b, c)
        rw!("add-matmul-gemm"; "(Add ?c (MatMul@mm ?a ?b))" => "(Gemm ?a ?b ?c)"; if rank("?a", 2), rank("?b", 2), broadcasts_to_root("?c"), keeps_type("@mm")),
        // MatMul(a, b) + c = FusedMatMul(a, b, c)   (c broadcasts to the product)
        rw!("matmul-bias"; "(Add (MatMul@mm ?a ?b) ?c)" => "(omlc.FusedMatMul ?a ?b ?c)"; if is_float("?a"), broadcasts_to_root("?c"), keeps_type("@mm")),
        // c + MatMul(a, b) = FusedMatMul(a, b, c)
        rw!("bias-matmul"; "(Add ?c (MatMul@mm ?a ?b))" => "(omlc.FusedMatMul ?a ?b ?c)"; if is_float("?a"), broadcasts_to_root("?c"), keeps_type("@mm")),
        // act(MatMul(a, b)) = FusedMatMul⟨act⟩(a, b)
        rw!("matmul-act"; "(omlc.Activation[activation=?f, activation_params=?p] (MatMul ?a ?b))" => "(omlc.FusedMatMul[activation=?f, activation_params=?p] ?a ?b)"),
        // act(FusedMatMul(a, b, c, z)) = FusedMatMul⟨act⟩(a, b, c, z)
        rw!("fusedmatmul-act"; "(omlc.Activation[activation=?f, activation_params=?p] (omlc.FusedMatMul[activation=\"\"] ?a ?b ?c ?z))" => "(omlc.FusedMatMul[activation=?f, activation_params=?p] ?a ?b ?c ?z)"),
        // act(Gemm(a, b, c)) = FusedGemm⟨act⟩(a, b, c)
        rw!("gemm-act"; "(omlc.Activation[activation=?f, activation_params=?p] (Gemm@g ?a ?b ?c))" => "(omlc.FusedGemm[@g, activation=?f, activation_params=?p] ?a ?b ?c)"),
        // act(Conv(x, w, b)) = FusedConv⟨act⟩(x, w, b)
        rw!("conv-act"; "(omlc.Activation[activation=?f, activation_params=?p] (Conv@c ?x ?w ?b))" => "(omlc.FusedConv[@c, activation=?f, activation_params=?p] ?x ?w ?b)"),
        // act(FusedConv(x, w, b, z)) = FusedConv⟨act⟩(x, w, b, z)
        rw!("fusedconv-act"; "(omlc.Activation[activation=?f, activation_params=?p] (omlc.FusedConv@c[activation=\"\"] ?x ?w ?b ?z))" => "(omlc.FusedConv[@c, activation=?f, activation_params=?p] ?x ?w ?b ?z)"),
        // Conv(x, w, b) + z = FusedConv(x, w, b, z)   (z of the result's shape: a residual)
        rw!("conv-residual"; "(Add (Conv@c ?x ?w ?b) ?z)" => "(omlc.FusedConv[@c] ?x ?w ?b ?z)"; if same_type("?z"), not_const("?z")),
        // z + Conv(x, w, b) = FusedConv(x, w, b, z)
        rw!("residual-conv"; "(Add ?z (Conv@c ?x ?w ?b))" => "(omlc.FusedConv[@c] ?x ?w ?b ?z)"; if same_type("?z"), not_const("?z")),
        // BN(y) = y·s + (β − μ·s),  s = γ/√(σ² + ε)   (per channel, inference)
        rw!("batchnorm-affine"; "(BatchNormalization@bn ?y ?g ?beta ?mean ?var)" => batchnorm_affine; if is_const("?g"), is_const("?beta"), is_const("?mean"), is_const("?var")),
        // Conv(x, W, b)·s = Conv(x, W·s, b·s)   (s per output channel)
        rw!("conv-mul"; "(Mul (Conv@c ?x ?w ?b) ?s)" => conv_mul; if is_const("?w"), per_channel("?s")),
        // Conv(x, W, b) + t = Conv(x, W, b + t)   (t per output channel)
        rw!("conv-add"; "(Add (Conv@c ?x ?w ?b) ?t)" => conv_add; if per_channel("?t")),
    ]
}

/// The class of the node matched at `label`.
fn class_of_label(eg: &crate::analysis::OGraph, m: &Match, label: &str) -> Option<Id> {
    eg.lookup(m.node(label).clone())
}

/// The node at `label` has the root's type: the epilogue broadcast
/// nothing.
fn keeps_type(label: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let Some(c) = class_of_label(eg, m, label) else {
            return false;
        };
        let (a, b) = (tensor_of(eg, c), tensor_of(eg, m.root));
        matches!((a, b), (Some(a), Some(b)) if a.dims().is_some() && a == b)
    })
}

/// `?s` is a constant that varies at most along the channel axis (1) of
/// the root (a per-output-channel scale or shift of a Conv).
fn per_channel(v: &'static str) -> Guard {
    Arc::new(move |eg, m| channel_vector(eg, m.class(v), m.root).is_some())
}

/// The constant `c` as a vector over the channels of `out` (`[N, C, …]`):
/// `Some(len)` with len 1 (a scalar) or C.
fn channel_vector(eg: &crate::analysis::OGraph, c: Id, out: Id) -> Option<i64> {
    let dims = static_dims_of(eg, c)?;
    eg[c].data.constant?;
    let out = dims_of(eg, out)?;
    if out.len() < 2 || dims.len() > out.len() {
        return None;
    }
    let channel = 1;
    let pad = out.len() - dims.len();
    let mut len = 1;
    for (k, &d) in dims.iter().enumerate() {
        if d == 1 {
            continue;
        }
        if k + pad != channel || out[channel] != Dim::Known(d) {
            return None;
        }
        len = d;
    }
    Some(len)
}

fn activation(b: &mut Builder, m: &Match, name: &str, params: &[&str]) -> Option<Id> {
    let params: Vec<f32> = params
        .iter()
        .map(|p| match m.attr(p) {
            Some(Attr::Float(v)) => Some(*v),
            _ => None,
        })
        .collect::<Option<_>>()?;
    activation_op(b, m.class("?x"), name, params)
}

fn activation_op(b: &mut Builder, x: Id, name: &str, params: Vec<f32>) -> Option<Id> {
    let mut attrs = vec![("activation", Attr::str(name))];
    if !params.is_empty() {
        attrs.push(("activation_params", Attr::Floats(params)));
    }
    b.op(OpKind::Activation, attrs, &[x])
}

fn clip_activation(b: &mut Builder, m: &Match) -> Option<Id> {
    let bound = |b: &Builder, v: &str, default: f32| -> Option<f32> {
        let id = m.class(v);
        if super::util::is_absent(b.graph(), id) {
            return Some(default);
        }
        const_of(b.graph(), id)
            .filter(|t| t.numel() == 1)
            .and_then(splat)
            .map(|x| x as f32)
    };
    let lo = bound(b, "?lo", f32::NEG_INFINITY)?;
    let hi = bound(b, "?hi", f32::INFINITY)?;
    activation_op(b, m.class("?x"), "Clip", vec![lo, hi])
}

fn gelu_activation(b: &mut Builder, m: &Match) -> Option<Id> {
    let name = match m.attr("?a") {
        Some(Attr::String(s)) if s == b"tanh" => "GeluTanh",
        _ => "Gelu",
    };
    activation_op(b, m.class("?x"), name, vec![])
}

/// A folded op on constants: `None` unless the result is a constant (the
/// fold limit was not exceeded).
fn folded(b: &mut Builder, kind: OpKind, attrs: Vec<(&str, Attr)>, children: &[Id]) -> Option<Id> {
    let id = b.op(kind, attrs, children)?;
    b.graph()[id].data.constant.is_some().then_some(id)
}

/// A scalar constant of `x`'s element type.
fn scalar_like(b: &mut Builder, x: Id, v: f64) -> Option<Id> {
    let elem = tensor_of(b.graph(), x)?.elem;
    let t = from_f64(elem, vec![], &[v])?;
    Some(b.add_constant(t))
}

fn batchnorm_affine(b: &mut Builder, m: &Match) -> Option<Id> {
    let key = m.key("@bn");
    if key.version < 7
        || key.int("training_mode").unwrap_or(0) != 0
        || key.int("spatial").unwrap_or(1) != 1
    {
        return None;
    }
    let eps = f64::from(key.float("epsilon")?);
    let y = m.class("?y");
    let r = b.rank(y)?;
    let c = *b.static_dims(m.class("?g"))?.first()?;
    let mut shape = vec![c];
    shape.resize(r.checked_sub(1)?, 1);
    let eps = scalar_like(b, m.class("?var"), eps)?;
    let var_eps = folded(b, OpKind::Add, vec![], &[m.class("?var"), eps])?;
    let std = folded(b, OpKind::Sqrt, vec![], &[var_eps])?;
    let s = folded(b, OpKind::Div, vec![], &[m.class("?g"), std])?;
    let ms = folded(b, OpKind::Mul, vec![], &[m.class("?mean"), s])?;
    let t = folded(b, OpKind::Sub, vec![], &[m.class("?beta"), ms])?;
    let (s, t) = (b.reshape(s, &shape)?, b.reshape(t, &shape)?);
    let scaled = b.op(OpKind::Mul, vec![], &[y, s])?;
    b.op(OpKind::Add, vec![], &[scaled, t])
}

fn conv_mul(b: &mut Builder, m: &Match) -> Option<Id> {
    let (w, s) = (m.class("?w"), m.class("?s"));
    let wd = b.static_dims(w)?;
    let vec = b.reshape(s, &[-1])?;
    let mut shape = vec![-1];
    shape.resize(wd.len(), 1);
    let s_w = b.reshape(s, &shape)?;
    let w2 = folded(b, OpKind::Mul, vec![], &[w, s_w])?;
    let bias = m.class("?b");
    let b2 = if super::util::is_absent(b.graph(), bias) {
        bias
    } else {
        folded(b, OpKind::Mul, vec![], &[bias, vec])?
    };
    let key = m.key("@c").clone();
    Some(b.op_key(key, &[m.class("?x"), w2, b2]))
}

fn conv_add(b: &mut Builder, m: &Match) -> Option<Id> {
    let (w, t) = (m.class("?w"), m.class("?t"));
    let channels = *b.static_dims(w)?.first()?;
    let vec = b.reshape(t, &[-1])?;
    let bias = m.class("?b");
    let base = if super::util::is_absent(b.graph(), bias) {
        let elem = tensor_of(b.graph(), t)?.elem;
        b.add_constant(from_f64(
            elem,
            vec![channels],
            &vec![0.0; channels as usize],
        )?)
    } else {
        bias
    };
    let b2 = folded(b, OpKind::Add, vec![], &[base, vec])?;
    if b.static_dims(b2)? != [channels] {
        return None;
    }
    let key = m.key("@c").clone();
    Some(b.op_key(key, &[m.class("?x"), w, b2]))
}
