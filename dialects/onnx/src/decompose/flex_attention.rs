//! FlexAttention (ai.onnx.preview 1): scaled dot-product attention whose
//! scores and probabilities pass through user subgraphs.
//!
//! ```text
//! Q [B, H_q, L, E], K [B, H_kv, S, E], V [B, H_kv, S, E_v]   (each KV head repeated H_q/H_kv times)
//! s       = sqrt(scale)                           (scale = 1/√E by default)
//! scores  = (Q·s) @ (K·s)ᵀ                        (in the softmax precision: f32, or f64 for f64 inputs)
//! scores  = score_mod(scores)                     (the subgraph, inlined)
//! P       = Softmax(scores, -1)
//! P       = prob_mod(P)                           (the subgraph, inlined)
//! Y       = P @ V                                 (cast back to the input type)
//! ```
//!
//! A modifier subgraph is inlined on the whole `[B, H_q, L, S]` tensor:
//! its ops are rebuilt in the enclosing graph with its input bound to the
//! tensor (its outer-scope values are in scope there too). Subgraphs with
//! nested subgraphs or ops outside ai.onnx, a `softmax_precision` other
//! than f32/f64 are not handled (the op stays). Symbolic sizes are read
//! as Attention's expansion reads them (`attention.rs`).

use std::collections::HashMap;

use super::attention::{repeat_heads, scale_factor};
use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::{RegionId, Value};
use crate::schema::Domain;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// Expands FlexAttention as described in the module docs.
pub(super) fn flex_attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (q, k, v) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let elem = b.elem(q)?;
    let precision = match b.int_attr("softmax_precision") {
        Some(code) => ElemType::from_onnx(i32::try_from(code).ok()?)?,
        None if elem == ElemType::F64 => ElemType::F64,
        None => ElemType::F32,
    };
    if !matches!(precision, ElemType::F32 | ElemType::F64) {
        return None;
    }
    let (qd, kd, vd) = (b.sym_dims(q)?, b.sym_dims(k)?, b.sym_dims(v)?);
    if [qd.len(), kd.len(), vd.len()] != [4; 3] {
        return None;
    }
    // The products would broadcast what the spec rejects (sizes known to
    // differ; symbolic ones are checked by the products at run time).
    if kd[0].definitely_ne(&qd[0]) || vd[0].definitely_ne(&qd[0]) || vd[1].definitely_ne(&kd[1]) {
        return None;
    }
    let s = scale_factor(b, precision, b.size(q, 3)?, true)?;
    let keys = repeat_heads(b, k, q)?;
    let values = repeat_heads(b, v, q)?;
    let q = b.cast(q, precision)?;
    let keys = b.cast(keys, precision)?;
    let q_scaled = b.binary(Mul, q, s)?;
    let k_scaled = b.binary(Mul, keys, s)?;
    let k_t = b.transpose(k_scaled, &[0, 1, 3, 2])?;
    let mut scores = b.binary(MatMul, q_scaled, k_t)?;
    if let Some(Attr::Graph(region)) = b.attr("score_mod") {
        scores = inline(b, region, scores)?;
    }
    let mut probs = b.op(Softmax, &[scores], &[("axis", Attr::Int(-1))])?;
    if let Some(Attr::Graph(region)) = b.attr("prob_mod") {
        probs = inline(b, region, probs)?;
    }
    let values = b.cast(values, precision)?;
    let y = b.binary(MatMul, probs, values)?;
    Some(vec![Some(b.cast(y, elem)?)])
}

/// The output of the one-input, one-output subgraph `region` applied to
/// `input`: its ops rebuilt before the op being replaced. `None` for a
/// subgraph of another form, or with ops this cannot rebuild.
fn inline(b: &mut Builder, region: RegionId, input: Value) -> Option<Value> {
    let graph = b.ir.region(region).clone();
    let ([arg], [output]) = (graph.args.as_slice(), graph.outputs.as_slice()) else {
        return None;
    };
    let mut map = HashMap::from([(arg.value, input)]);
    for op in graph.ops {
        let data = b.ir.op(op).clone();
        if data.kind.domain() != Domain::Onnx
            || data.attrs.0.iter().any(|(_, a)| !a.regions().is_empty())
        {
            return None;
        }
        let inputs: Vec<Option<Value>> = data
            .inputs
            .iter()
            .map(|i| i.map(|v| map.get(&v).copied().unwrap_or(v)))
            .collect();
        let attrs: Vec<(&str, Attr)> = data
            .attrs
            .0
            .iter()
            .map(|(n, a)| (n.as_str(), a.clone()))
            .collect();
        let results = b.node(data.kind, &inputs, &attrs, data.results.len())?;
        for (old, new) in data.results.iter().zip(results) {
            if let Some(old) = old {
                map.insert(*old, new);
            }
        }
    }
    Some(map.get(&output.value).copied().unwrap_or(output.value))
}
