//! LinearAttention (ai.onnx 27): attention whose keys and values are
//! folded into a fixed-size state `S [B, H_kv, d_k, d_v]`, updated once
//! per time step.
//!
//! ```text
//! query [B, T, H_q·d_k], key [B, T, H_kv·d_k], value [B, T, H_kv·d_v]   (all computed in f32)
//! decay [B, T, H_kv] or [B, T, H_kv·d_k], beta [B, T, H_kv] or [B, T, 1]
//! S     = past_state, or zeros                      [B, H_kv, d_k, d_v]
//! for t in 0..T:
//!     S   = S · exp(decay_t)                          (gated, gated_delta)
//!     v_t = beta_t · (v_t - k_tᵀ @ S)                 (delta, gated_delta)
//!     S   = S + k_t ⊗ v_t
//!     o_t = q_t @ S                                   (query head h reads KV head h / (H_q / H_kv))
//! output        = scale · [o_0, …, o_{T-1}]           [B, T, H_q·d_v] (scale = 1/√d_k by default)
//! present_state = S                                   (in past_state's type, or query's)
//! ```
//!
//! The recurrence is unrolled: the sequence length must be static and at
//! most [`MAX_STEPS`] (the op stays otherwise; a longer prefill would make
//! a graph of tens of thousands of ops), and each step is a handful of
//! small products. Query heads read their KV head's state as a
//! `[B, H_kv, H_q/H_kv, d_k]` block, so grouped- and multi-query attention
//! need no repeated state. Every update rule, decay and beta layout of the
//! spec is handled.

use super::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// The longest sequence the expansion unrolls.
const MAX_STEPS: i64 = 512;

/// The four update rules: whether the state decays, and whether the value
/// is corrected by what the state already holds (the delta rule).
struct Rule {
    gated: bool,
    delta: bool,
}

/// Expands LinearAttention as described in the module docs.
pub(super) fn linear_attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (query, key, value) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let rule = match b.string_attr("update_rule")?.as_str() {
        "linear" => Rule {
            gated: false,
            delta: false,
        },
        "gated" => Rule {
            gated: true,
            delta: false,
        },
        "delta" => Rule {
            gated: false,
            delta: true,
        },
        "gated_delta" => Rule {
            gated: true,
            delta: true,
        },
        _ => return None,
    };
    let (decay, beta) = (b.input(4), b.input(5));
    if rule.gated != decay.is_some() || rule.delta != beta.is_some() {
        return None;
    }
    let q_heads = b.int_attr("q_num_heads").filter(|&h| h > 0)?;
    let kv_heads = b.int_attr("kv_num_heads").filter(|&h| h > 0)?;
    if q_heads % kv_heads != 0 {
        return None;
    }
    let group = q_heads / kv_heads;
    let elem = b.elem(query)?;
    let [batch, steps, q_width] = <[i64; 3]>::try_from(b.dims(query)?).ok()?;
    let [_, _, k_width] = <[i64; 3]>::try_from(b.dims(key)?).ok()?;
    let [_, _, v_width] = <[i64; 3]>::try_from(b.dims(value)?).ok()?;
    if q_width % q_heads != 0 || v_width % kv_heads != 0 {
        return None;
    }
    let (d_k, d_v) = (q_width / q_heads, v_width / kv_heads);
    if k_width != kv_heads * d_k || !(1..=MAX_STEPS).contains(&steps) {
        return None;
    }
    let f32 = ElemType::F32;
    let state_shape = [batch, kv_heads, d_k, d_v];

    // Per-step slices, each already shaped for its use.
    let q = b.cast(query, f32)?;
    let q_steps = step_slices(b, q, &[batch, kv_heads, group, d_k], steps)?;
    let k = b.cast(key, f32)?;
    let k_rows = step_slices(b, k, &[batch, kv_heads, 1, d_k], steps)?;
    let v = b.cast(value, f32)?;
    let v_rows = step_slices(b, v, &[batch, kv_heads, 1, d_v], steps)?;
    let decays = match decay {
        Some(decay) => {
            let width = *b.dims(decay)?.get(2)?;
            let rows = match width {
                w if w == kv_heads => 1,
                w if w == kv_heads * d_k => d_k,
                _ => return None,
            };
            let decay = b.cast(decay, f32)?;
            let factor = b.unary(Exp, decay)?;
            Some(step_slices(b, factor, &[batch, kv_heads, rows, 1], steps)?)
        }
        None => None,
    };
    let betas = match beta {
        Some(beta) => {
            let heads = *b.dims(beta)?.get(2)?;
            if heads != kv_heads && heads != 1 {
                return None;
            }
            let beta = b.cast(beta, f32)?;
            Some(step_slices(b, beta, &[batch, heads, 1, 1], steps)?)
        }
        None => None,
    };

    let mut state = match b.input(3) {
        Some(past) => {
            if b.dims(past)? != state_shape {
                return None;
            }
            b.cast(past, f32)?
        }
        None => {
            let n = state_shape.iter().product::<i64>() as usize;
            b.floats(f32, state_shape.to_vec(), &vec![0.0; n])?
        }
    };
    let mut outputs = vec![];
    for t in 0..steps as usize {
        if let Some(decays) = &decays {
            state = b.binary(Mul, state, decays[t])?;
        }
        let mut v_t = v_rows[t];
        if let Some(betas) = &betas {
            let retrieved = b.binary(MatMul, k_rows[t], state)?;
            let error = b.binary(Sub, v_t, retrieved)?;
            v_t = b.binary(Mul, betas[t], error)?;
        }
        let k_col = b.transpose(k_rows[t], &[0, 1, 3, 2])?;
        let outer = b.binary(Mul, k_col, v_t)?;
        state = b.binary(Add, state, outer)?;
        let read = b.binary(MatMul, q_steps[t], state)?;
        outputs.push(b.reshape(read, &[batch, 1, q_heads * d_v])?);
    }
    let joined = match outputs.as_slice() {
        [one] => *one,
        _ => b.op(Concat, &outputs, &[("axis", Attr::Int(1))])?,
    };
    let scale = match b.float_attr("scale") {
        Some(s) if s != 0.0 => f64::from(s),
        _ => 1.0 / (d_k as f64).sqrt(),
    };
    let scale = b.scalar(f32, scale)?;
    let scaled = b.binary(Mul, joined, scale)?;
    let output = b.cast(scaled, elem)?;
    let present = if b.wants_result(1) {
        let state_elem = match b.input(3) {
            Some(past) => b.elem(past)?,
            None => elem,
        };
        Some(b.cast(state, state_elem)?)
    } else {
        None
    };
    Some(vec![Some(output), present])
}

/// The `steps` time steps of a `[B, T, …]` value, each reshaped to `shape`
/// (whose element count is one step's).
fn step_slices(b: &mut Builder, x: Value, shape: &[i64], steps: i64) -> Option<Vec<Value>> {
    let slices = if steps == 1 {
        vec![x]
    } else {
        b.node(
            Split,
            &[Some(x)],
            &[("axis", Attr::Int(1)), ("num_outputs", Attr::Int(steps))],
            steps as usize,
        )?
    };
    slices.into_iter().map(|s| b.reshape(s, shape)).collect()
}
