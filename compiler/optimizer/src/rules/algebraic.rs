//! Algebraic rules: identities and zeros, chains of transposes, reshapes
//! and casts, neutral broadcasts, and distributivity where it saves work.
//!
//! Identities keep the root's type (`same_type`): `x + 0` is `x` only when
//! the zero broadcasts nothing. `x·0 = 0` is not a rule: it is false for
//! infinities and NaN. Reassociation is limited to constants, which then
//! fold, so it never makes more work.

use onnx_mlc_dialect::{Attr, OpKind};

use super::util::{exact_widening, is_const, not_const, same_type, tensor_of, Builder};
use super::{Guard, Rule};
use crate::pattern::Match;
use crate::rw;
use std::sync::Arc;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // x + 0 = x
        rw!("add-zero"; "(Add ?x 0)" => "?x"; if same_type("?x")),
        // 0 + x = x
        rw!("zero-add"; "(Add 0 ?x)" => "?x"; if same_type("?x")),
        // x − 0 = x
        rw!("sub-zero"; "(Sub ?x 0)" => "?x"; if same_type("?x")),
        // x · 1 = x
        rw!("mul-one"; "(Mul ?x 1)" => "?x"; if same_type("?x")),
        // 1 · x = x
        rw!("one-mul"; "(Mul 1 ?x)" => "?x"; if same_type("?x")),
        // x / 1 = x
        rw!("div-one"; "(Div ?x 1)" => "?x"; if same_type("?x")),
        // x ^ 1 = x
        rw!("pow-one"; "(Pow ?x 1)" => "?x"; if same_type("?x")),
        // x ^ 2 = x · x
        rw!("pow-two"; "(Pow ?x 2)" => "(Mul ?x ?x)"; if same_type("?x")),
        // x / c = x · (1/c)   (c a constant float: a multiply instead of a divide)
        rw!("div-const"; "(Div ?x ?c)" => multiply_by_reciprocal; if is_const("?c"), not_const("?x"), float("?c")),
        // −(−x) = x
        rw!("neg-neg"; "(Neg (Neg ?x))" => "?x"),
        // Identity(x) = x
        rw!("identity"; "(Identity ?x)" => "?x"),
        // Dropout(x) = x   (inference: no training mode)
        rw!("dropout"; "(Dropout ?x ?ratio ?training)" => "?x"; if super::util::absent_or_false("?training")),
        // Transpose_p(Transpose_q(x)) = Transpose_{q∘p}(x)
        rw!("transpose-transpose"; "(Transpose[perm=?p] (Transpose[perm=?q] ?x))" => transpose_transpose),
        // Transpose_id(x) = x
        rw!("transpose-identity"; "(Transpose[perm=?p] ?x)" => "?x"; if identity_perm()),
        // Reshape(Reshape(x, s), t) = Reshape(x, t)   (t holds no 0 that would copy from s)
        rw!("reshape-reshape"; "(Reshape@r (Reshape ?x ?s) ?t)" => "(@r ?x ?t)"; if copies_no_dim("?t")),
        // Reshape(x, s) = x   (s is x's shape)
        rw!("reshape-noop"; "(Reshape ?x ?s)" => "?x"; if same_type("?x")),
        // Flatten(x) = x   (x already 2-D as flattened)
        rw!("flatten-noop"; "(Flatten ?x)" => "?x"; if same_type("?x")),
        // Squeeze(x, axes) = x   (nothing squeezed)
        rw!("squeeze-noop"; "(Squeeze ?x ?axes)" => "?x"; if same_type("?x")),
        // Expand(x, s) = x   (a neutral broadcast)
        rw!("expand-noop"; "(Expand ?x ?s)" => "?x"; if same_type("?x")),
        // Cast_t(x) = x   (x is already t)
        rw!("cast-noop"; "(Cast ?x)" => "?x"; if same_type("?x")),
        // Cast_t(Cast_a(x)) = Cast_t(x)   (a holds every value of x exactly)
        rw!("cast-cast"; "(Cast@o (Cast[to=?a] ?x))" => "(@o ?x)"; if widening("?x", "?a")),
        // (x · c) · d = x · (c · d)   (c, d constants: one multiply, folded)
        rw!("mul-const-assoc"; "(Mul (Mul ?x ?c) ?d)" => "(Mul ?x (Mul ?c ?d))"; if is_const("?c"), is_const("?d"), not_const("?x")),
        // (x + c) + d = x + (c + d)   (c, d constants)
        rw!("add-const-assoc"; "(Add (Add ?x ?c) ?d)" => "(Add ?x (Add ?c ?d))"; if is_const("?c"), is_const("?d"), not_const("?x")),
        // x·a + x·b = x·(a + b)   (a, b constants: one multiply instead of two)
        rw!("mul-add-distribute"; "(Add (Mul ?x ?a) (Mul ?x ?b))" => "(Mul ?x (Add ?a ?b))"; if is_const("?a"), is_const("?b")),
        // x·A + x·B = x·(A + B)   (A, B constant matrices of one shape: one matmul instead of two)
        rw!("matmul-add-distribute"; "(Add (MatMul ?x ?a) (MatMul ?x ?b))" => "(MatMul ?x (Add ?a ?b))"; if is_const("?a"), is_const("?b"), same_shape("?a", "?b")),
        // (s·A)·(t·B) = (s·t)·(A·B)   (s, t scalar constants: exposes a scaled product)
        rw!("matmul-scalars"; "(MatMul (Mul ?a ?s) (Mul ?b ?t))" => "(Mul (MatMul ?a ?b) (Mul ?s ?t))"; if scalar_const("?s"), scalar_const("?t")),
    ]
}

/// `?c` has a float element type.
fn float(v: &'static str) -> Guard {
    super::util::is_float(v)
}

/// `?v` is a constant with exactly one element (a broadcast scalar).
fn scalar_const(v: &'static str) -> Guard {
    Arc::new(move |eg, m| super::util::const_of(eg, m.class(v)).is_some_and(|t| t.numel() == 1))
}

/// Two classes of one static shape.
fn same_shape(a: &'static str, b: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let (x, y) = (tensor_of(eg, m.class(a)), tensor_of(eg, m.class(b)));
        matches!((x, y), (Some(x), Some(y)) if x.static_dims().is_some() && x == y)
    })
}

/// The root's `perm` (bound as `?p`) is the identity.
fn identity_perm() -> Guard {
    Arc::new(|eg, m| {
        let Some(r) = tensor_of(eg, m.class("?x")).and_then(|t| t.rank()) else {
            return false;
        };
        match m.attr("?p") {
            Some(Attr::Ints(p)) => p.iter().enumerate().all(|(i, &v)| v == i as i64),
            None => r <= 1,
            _ => false,
        }
    })
}

/// A Reshape shape operand with no 0 entry (0 copies a dim of the
/// reshaped value, which a composed reshape would read elsewhere).
fn copies_no_dim(v: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        super::util::const_of(eg, m.class(v))
            .and_then(|t| t.to_i64s())
            .is_some_and(|s| !s.contains(&0))
    })
}

/// `?x`'s element type widens exactly to the `to` bound as `?a`.
fn widening(x: &'static str, a: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let Some(from) = tensor_of(eg, m.class(x)).map(|t| t.elem) else {
            return false;
        };
        let via = match m.attr(a) {
            Some(Attr::Int(code)) => onnx_mlc_dialect::ElemType::from_onnx(*code as i32),
            _ => None,
        };
        via.is_some_and(|via| exact_widening(from, via))
    })
}

/// A Transpose's permutation: the `perm` attribute, or reversed axes.
pub fn perm_of(attr: Option<&Attr>, rank: usize) -> Option<Vec<i64>> {
    match attr {
        Some(Attr::Ints(p)) if p.len() == rank => Some(p.clone()),
        None => Some((0..rank as i64).rev().collect()),
        _ => None,
    }
}

fn multiply_by_reciprocal(b: &mut Builder, m: &Match) -> Option<egg::Id> {
    let r = b.op(OpKind::Reciprocal, vec![], &[m.class("?c")])?;
    b.op(OpKind::Mul, vec![], &[m.class("?x"), r])
}

fn transpose_transpose(b: &mut Builder, m: &Match) -> Option<egg::Id> {
    let x = m.class("?x");
    let rank = b.rank(x)?;
    let (outer, inner) = (perm_of(m.attr("?p"), rank)?, perm_of(m.attr("?q"), rank)?);
    // out[i] = mid[outer[i]] = x[inner[outer[i]]]
    let perm: Vec<i64> = outer
        .iter()
        .map(|&o| inner.get(o as usize).copied())
        .collect::<Option<_>>()?;
    b.op(OpKind::Transpose, vec![("perm", Attr::Ints(perm))], &[x])
}
