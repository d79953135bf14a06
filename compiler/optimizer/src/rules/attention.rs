//! Attention fusion: `Softmax(scale·(Q·Kᵀ) + mask)·V`, as the exporters
//! spell it (and as the dialect's decomposition of Attention-23 writes
//! it), becomes one `omlc.FusedAttention` op.
//!
//! A set of its own, on by default: the fused op's lowering
//! (`compiler/lowering/src/ops/fused.rs`) is one kernel chunked by head,
//! its two contractions in register tiles and its softmax vectorized along
//! the rows, faster than the unfused batched MatMuls and softmax it
//! replaces, whose scores leave the cache between kernels (measured in
//! `docs/optimizer.md`).

use std::sync::Arc;

use egg::Id;
use onnx_mlc_dialect::{Attr, ElemType, OpKind};

use super::util::{const_of, dims_of, last_axis, scalar, tensor_of, unidirectional, Builder};
use super::{Guard, Rule};
use crate::lang::ONode;
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // Softmax(s·(Q·Kt) + M)·V = FusedAttention⟨s⟩(Q, Kt, V, M)
        rw!("attention"; "(MatMul (Softmax@sm (Add (Mul (MatMul ?q ?kt) ?s) ?mask)) ?v)" => |b, m| attention(b, m, true, true); if last_axis("@sm"), mask_fits()),
        // Softmax(s·(Q·Kt))·V = FusedAttention⟨s⟩(Q, Kt, V)
        rw!("attention-unmasked"; "(MatMul (Softmax@sm (Mul (MatMul ?q ?kt) ?s)) ?v)" => |b, m| attention(b, m, true, false); if last_axis("@sm")),
        // Softmax(Q·Kt + M)·V = FusedAttention(Q, Kt, V, M)
        rw!("attention-unscaled"; "(MatMul (Softmax@sm (Add (MatMul ?q ?kt) ?mask)) ?v)" => |b, m| attention(b, m, false, true); if last_axis("@sm"), mask_fits()),
        // Softmax(Q·Kt)·V = FusedAttention(Q, Kt, V)
        rw!("attention-plain"; "(MatMul (Softmax@sm (MatMul ?q ?kt)) ?v)" => |b, m| attention(b, m, false, false); if last_axis("@sm")),
    ]
}

/// The mask broadcasts unidirectionally to the scores, and adding it
/// changes no shape.
fn mask_fits() -> Guard {
    Arc::new(|eg, m| {
        let node = m.node("@sm");
        let scores = node.operands()[0];
        let (Some(mask), Some(s)) = (dims_of(eg, m.class("?mask")), dims_of(eg, scores)) else {
            return false;
        };
        let mask_class = eg.find(m.class("?mask"));
        let qk = eg[scores].nodes.iter().find_map(|n| match n {
            ONode::Op(k, ch) if k.kind == OpKind::Add && eg.find(ch[1]) == mask_class => {
                Some(ch[0])
            }
            _ => None,
        });
        let product = qk.and_then(|p| dims_of(eg, p));
        unidirectional(&mask, &s) && product.as_deref() == Some(&s[..])
    })
}

fn attention(b: &mut Builder, m: &Match, scaled: bool, masked: bool) -> Option<Id> {
    let scale = if scaled {
        let s = m.class("?s");
        if const_of(b.graph(), s)?.numel() != 1 {
            return None;
        }
        scalar(b, m, "?s")?
    } else {
        1.0
    };
    let mut inputs = vec![m.class("?q"), m.class("?kt"), m.class("?v")];
    if masked {
        inputs.push(m.class("?mask"));
    }
    let rank_ok = inputs[..3]
        .iter()
        .all(|&i| b.rank(i).is_some_and(|r| r >= 2));
    // The types the fused kernel is lowered for (f16 stays unfused).
    let elem = tensor_of(b.graph(), inputs[0])?.elem;
    if !rank_ok || !matches!(elem, ElemType::F32 | ElemType::F64) {
        return None;
    }
    b.op(
        OpKind::FusedAttention,
        vec![("scale", Attr::Float(scale as f32))],
        &inputs,
    )
}
