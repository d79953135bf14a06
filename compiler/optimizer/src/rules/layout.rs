//! Layout rules: transposes (and reshapes) sink through elementwise ops
//! and reductions, towards each other — where `transpose-transpose` cancels
//! them — or past a reduction, where they move fewer bytes.
//!
//! Sinking is directional (a transpose only ever moves down, towards the
//! outputs), so the rules cannot undo each other.

use egg::Id;
use onnx_mlc_dialect::{Attr, OpKind};

use super::algebraic::perm_of;
use super::util::{const_of, is_const, tensor_of, Builder};
use super::{Guard, Rule};
use crate::lang::OpKey;
use crate::pattern::Match;
use crate::rw;
use std::sync::Arc;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // u(Transpose_p(x)) = Transpose_p(u(x))   (u elementwise)
        rw!("transpose-sink-unary"; "(Relu|Sigmoid|Tanh|Exp|Log|Neg|Abs|Sqrt|Erf|Reciprocal|Cast|LeakyRelu|HardSigmoid|HardSwish|Gelu|omlc.Activation@u (Transpose@t ?x))" => "(@t (@u ?x))"),
        // Transpose_p(x) ⊙ Transpose_p(y) = Transpose_p(x ⊙ y)
        rw!("transpose-sink-binary"; "(Add|Sub|Mul|Div|Pow|Max|Min@o (Transpose[perm=?p] ?x) (Transpose[perm=?p] ?y))" => "(Transpose[perm=?p] (@o ?x ?y))"; if same_rank("?x", "?y")),
        // Transpose_p(x) ⊙ c = Transpose_p(x ⊙ Transpose_p⁻¹(c))   (c constant)
        rw!("transpose-sink-const"; "(Add|Sub|Mul|Div|Pow|Max|Min@o (Transpose[perm=?p] ?x) ?c)" => sink_past_constant; if is_const("?c")),
        // R_A(Transpose_p(x)) = Transpose_p(R_{p[A]}(x))   (reduction keeping dims)
        rw!("transpose-sink-reduce"; "(ReduceSum|ReduceMean|ReduceMax|ReduceMin|ReduceProd|ReduceL1|ReduceL2|ReduceSumSquare|ReduceLogSumExp@r (Transpose[perm=?p] ?x))" => sink_past_reduction),
        // the same with the axes as an operand
        rw!("transpose-sink-reduce-axes"; "(ReduceSum|ReduceMean|ReduceMax|ReduceMin|ReduceProd|ReduceL1|ReduceL2|ReduceSumSquare|ReduceLogSumExp@r (Transpose[perm=?p] ?x) ?axes)" => sink_past_reduction),
        // u(Reshape(x, s)) = Reshape(u(x), s)   (u elementwise)
        rw!("reshape-sink-unary"; "(Relu|Sigmoid|Tanh|Exp|Log|Neg|Abs|Sqrt|Erf|Reciprocal|Cast|LeakyRelu|HardSigmoid|HardSwish|Gelu|omlc.Activation@u (Reshape@r ?x ?s))" => "(@r (@u ?x) ?s)"),
    ]
}

/// Two classes of the same known rank.
fn same_rank(a: &'static str, b: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let r = |v| tensor_of(eg, m.class(v)).and_then(|t| t.rank());
        r(a).is_some() && r(a) == r(b)
    })
}

/// `perm`'s inverse.
fn inverse(perm: &[i64]) -> Vec<i64> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inv[p as usize] = i as i64;
    }
    inv
}

fn sink_past_constant(b: &mut Builder, m: &Match) -> Option<Id> {
    let (x, c) = (m.class("?x"), m.class("?c"));
    let rank = b.rank(x)?;
    let perm = perm_of(m.attr("?p"), rank)?;
    let c_dims = b.static_dims(c)?;
    let moved = if c_dims.iter().product::<i64>() == 1 {
        c
    } else if c_dims.len() == rank {
        let t = b.op(
            OpKind::Transpose,
            vec![("perm", Attr::Ints(inverse(&perm)))],
            &[c],
        )?;
        b.graph()[t].data.constant.is_some().then_some(t)?
    } else {
        return None;
    };
    let op = b.op_key(m.key("@o").clone(), &[x, moved]);
    b.op(OpKind::Transpose, vec![("perm", Attr::Ints(perm))], &[op])
}

fn sink_past_reduction(b: &mut Builder, m: &Match) -> Option<Id> {
    let key = m.key("@r").clone();
    let x = m.class("?x");
    let rank = b.rank(x)?;
    let perm = perm_of(m.attr("?p"), rank)?;
    if key.int("keepdims").unwrap_or(1) != 1 {
        return None;
    }
    let operand = m.node("@r").operands().get(1).copied();
    let axes = match operand {
        Some(a) if !super::util::is_absent(b.graph(), a) => const_of(b.graph(), a)?.to_i64s()?,
        _ => key.ints("axes").unwrap_or_default(),
    };
    if axes.is_empty() {
        return None;
    }
    let mapped: Vec<i64> = axes
        .iter()
        .map(|&a| {
            let a = if a < 0 { a + rank as i64 } else { a };
            perm.get(usize::try_from(a).ok()?).copied()
        })
        .collect::<Option<_>>()?;
    let reduced = match operand {
        Some(_) => {
            let axes = b.add_constant(onnx_mlc_dialect::TensorData::i64s(&mapped));
            b.op_key(key, &[x, axes])
        }
        None => {
            let mut attrs = key.attrs.clone();
            attrs.set("axes", Attr::Ints(mapped));
            b.op_key(OpKey::single(key.kind, key.version, attrs), &[x])
        }
    };
    b.op(
        OpKind::Transpose,
        vec![("perm", Attr::Ints(perm))],
        &[reduced],
    )
}
