//! Layout rules: transposes (and reshapes) sink through elementwise ops
//! and reductions, towards each other — where `transpose-transpose` cancels
//! them — or past a reduction, where they move fewer bytes.
//!
//! Sinking is directional (a transpose only ever moves down, towards the
//! outputs), so the rules cannot undo each other.
//!
//! The padding rules widen the hidden dim `H` between two matrix products
//! on constant weights (a transformer's feed-forward block: `[768, 3072]`
//! then `[3072, 768]`) by one cache line of zeros when the first weight's
//! rows lie a multiple of 4 KiB apart, which the matrix-product kernel
//! reads slowly (`cost::aliased_rows`). The first product gets zero
//! columns (and zero bias), the second zero rows, so the padded columns of
//! the hidden activations, whatever their value, add nothing. The widened
//! weights are folds of `Concat`s with zeros; they fire only in that
//! direction (the padded width is no longer a multiple of 4 KiB).

use egg::Id;
use onnx_mlc_dialect::{Attr, OpKind, TensorType};

use super::algebraic::perm_of;
use super::util::{const_of, is_absent, is_const, static_dims_of, tensor_of, Builder};
use super::{Guard, Rule};
use crate::cost::rows_alias;
use crate::lang::{ONode, OpKey};
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
        // GlobalPool(Transpose_p(x)) = Transpose_p(Reduce_{p[2..]}(x))   (GlobalAveragePool → ReduceMean, GlobalMaxPool → ReduceMax, keeping dims)
        rw!("transpose-sink-global-pool"; "(GlobalAveragePool|GlobalMaxPool@g (Transpose[perm=?p] ?x))" => sink_past_global_pool),
        // Q(Transpose_p(x), s, z) = Transpose_p(Q(x, s, z))   (Q a QuantizeLinear or DequantizeLinear with one scale and zero point)
        rw!("transpose-sink-quantize"; "(QuantizeLinear|DequantizeLinear@q (Transpose@t ?x) ?s ?z)" => "(@t (@q ?x ?s ?z))"; if per_tensor("?s", "?z")),
        // u(Reshape(x, s)) = Reshape(u(x), s)   (u elementwise)
        rw!("reshape-sink-unary"; "(Relu|Sigmoid|Tanh|Exp|Log|Neg|Abs|Sqrt|Erf|Reciprocal|Cast|LeakyRelu|HardSigmoid|HardSwish|Gelu|omlc.Activation@u (Reshape@r ?x ?s))" => "(@r (@u ?x) ?s)"),
        // P(x, W₁, b)·W₂ = P(x, [W₁ 0], [b 0])·[W₂; 0]   (P a product with epilogue, H·elem ≡ 0 mod 4 KiB)
        rw!("pad-hidden-matmul"; "(MatMul@o ?h ?w)" => pad_hidden; if is_const("?w")),
        // the same into a Gemm or FusedGemm
        rw!("pad-hidden-gemm"; "(Gemm|omlc.FusedGemm@o ?h ?w ?c)" => pad_hidden; if is_const("?w")),
        // the same into a FusedMatMul
        rw!("pad-hidden-fusedmatmul"; "(omlc.FusedMatMul@o ?h ?w ?c ?z)" => pad_hidden; if is_const("?w")),
    ]
}

/// Whether the scale `s` and zero point `z` (or its absence) are one value
/// each: a quantization that treats every element alike.
fn per_tensor(s: &'static str, z: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let one = |id| static_dims_of(eg, id).is_some_and(|d| d.iter().product::<i64>() == 1);
        one(m.class(s)) && (is_absent(eg, m.class(z)) || one(m.class(z)))
    })
}

/// Bytes of zeros the padding rules add to each row: one cache line.
const PAD_BYTES: i64 = 64;

/// A matrix product the padding rules handle: MatMul, FusedMatMul, or a
/// Gemm/FusedGemm without transposes.
fn plain_product(key: &OpKey) -> bool {
    use OpKind::*;
    match key.kind {
        MatMul | FusedMatMul => true,
        Gemm | FusedGemm => {
            key.int("transA").unwrap_or(0) == 0 && key.int("transB").unwrap_or(0) == 0
        }
        _ => false,
    }
}

/// `x` with `pad` zeros appended along `axis` (a fold of a `Concat`).
fn append_zeros(b: &mut Builder, x: Id, axis: usize, pad: i64) -> Option<Id> {
    let elem = tensor_of(b.graph(), x)?.elem;
    let mut dims = b.static_dims(x)?;
    dims[axis] = pad;
    let zeros = b.zeros(TensorType::new(elem, &dims))?;
    let axis = Attr::Int(axis as i64);
    let padded = b.op(OpKind::Concat, vec![("axis", axis)], &[x, zeros])?;
    b.graph()[padded].data.constant.is_some().then_some(padded)
}

/// `key` applied to `operands` (a product `x · W` of `[K, H]` constant
/// weights, an optional `[H]` or `[1, H]` constant bias, no residual)
/// with `pad` zero columns appended to `W` and the bias.
fn pad_columns(b: &mut Builder, key: &OpKey, operands: &[Id], hidden: i64, pad: i64) -> Option<Id> {
    if !plain_product(key) || operands.len() < 2 {
        return None;
    }
    let g = b.graph();
    let w = operands[1];
    let rest_absent = operands[3.min(operands.len())..]
        .iter()
        .all(|&z| is_absent(g, z));
    let bias = operands.get(2).copied().filter(|&c| !is_absent(g, c));
    let w_dims = static_dims_of(g, w)?;
    let bias_ok = bias.is_none_or(|c| {
        is_const_class(b, c)
            && matches!(static_dims_of(g, c).as_deref(), Some([h]) | Some([1, h]) if *h == hidden)
    });
    if !(is_const_class(b, w) && w_dims.len() == 2 && w_dims[1] == hidden && bias_ok && rest_absent)
    {
        return None;
    }
    let mut padded = operands.to_vec();
    padded[1] = append_zeros(b, w, 1, pad)?;
    if let Some(c) = bias {
        let last = static_dims_of(b.graph(), c)?.len() - 1;
        padded[2] = append_zeros(b, c, last, pad)?;
    }
    Some(b.op_key(key.clone(), &padded))
}

/// Whether class `id` is a constant.
fn is_const_class(b: &Builder, id: Id) -> bool {
    b.graph()[id].data.constant.is_some()
}

/// Pads the hidden dim `H` between the product matched at `@o` (`?h · ?w`,
/// `?w` a constant `[H, N]`) and each product in `?h`'s class, when rows
/// of `H` elements alias ([`rows_alias`]).
fn pad_hidden(b: &mut Builder, m: &Match) -> Option<Id> {
    let key = m.key("@o").clone();
    let (h, w) = (m.class("?h"), m.class("?w"));
    let ty = tensor_of(b.graph(), w)?;
    let elem_bytes = i64::from(ty.elem.bit_width() / 8);
    let [hidden, _] = ty.static_dims()?[..] else {
        return None;
    };
    if !(ty.elem.is_float()
        && elem_bytes > 0
        && plain_product(&key)
        && rows_alias(hidden * elem_bytes))
    {
        return None;
    }
    let pad = PAD_BYTES / elem_bytes;
    let producers: Vec<(OpKey, Vec<Id>)> = b.graph()[h]
        .nodes
        .iter()
        .filter_map(|n| match n {
            ONode::Op(k, ops) => Some((k.as_ref().clone(), ops.clone())),
            _ => None,
        })
        .collect();
    let mut result = None;
    for (inner, operands) in producers {
        let Some(x) = pad_columns(b, &inner, &operands, hidden, pad) else {
            continue;
        };
        let mut outer = m.node("@o").operands().to_vec();
        outer[0] = x;
        outer[1] = append_zeros(b, w, 0, pad)?;
        let padded = b.op_key(key.clone(), &outer);
        if let Some(first) = result {
            b.union(first, padded);
        }
        result = result.or(Some(padded));
    }
    result
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

/// A global pool of a transposed image as the reduction of the image over
/// the axes that the transpose moves to the spatial dims, transposed.
fn sink_past_global_pool(b: &mut Builder, m: &Match) -> Option<Id> {
    let x = m.class("?x");
    let rank = b.rank(x)?;
    let perm = perm_of(m.attr("?p"), rank)?;
    if rank < 3 {
        return None;
    }
    let kind = match m.key("@g").kind {
        OpKind::GlobalAveragePool => OpKind::ReduceMean,
        OpKind::GlobalMaxPool => OpKind::ReduceMax,
        _ => return None,
    };
    let axes = perm[2..].to_vec();
    let keep = ("keepdims", Attr::Int(1));
    // Reductions take their axes as an operand from opset 18.
    let reduced = if b.graph().analysis.version_of(kind)? >= 18 {
        let axes = b.add_constant(onnx_mlc_dialect::TensorData::i64s(&axes));
        b.op(kind, vec![keep], &[x, axes])?
    } else {
        b.op(kind, vec![keep, ("axes", Attr::Ints(axes))], &[x])?
    };
    b.op(
        OpKind::Transpose,
        vec![("perm", Attr::Ints(perm))],
        &[reduced],
    )
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
