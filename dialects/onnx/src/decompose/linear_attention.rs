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
//! A static sequence of at most [`MAX_STEPS`] steps is unrolled, each step
//! a handful of small products. A longer one, or one whose length (or any
//! other size) is known at run time only, is a `Loop` over the steps
//! (run-time control flow, which the host program runs): the body gathers
//! step `t` of each input, viewed per head with sizes read by `Shape`, and
//! makes the same update; the Loop stacks the steps' reads. Query heads
//! read their KV head's state as a `[B, H_kv, H_q/H_kv, d_k]` block, so
//! grouped- and multi-query attention need no repeated state. Every update
//! rule, decay and beta layout of the spec is handled.

use super::builder::{Builder, Size};
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

/// What the op computes with, besides query, key and value.
struct Parts {
    decay: Option<Value>,
    beta: Option<Value>,
    q_heads: i64,
    kv_heads: i64,
}

/// Expands LinearAttention as described in the module docs.
pub(super) fn linear_attention(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let qkv = [b.input(0)?, b.input(1)?, b.input(2)?];
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
    let parts = Parts {
        decay,
        beta,
        q_heads,
        kv_heads,
    };
    let unrolled = |x: Value| {
        b.dims(x)
            .is_some_and(|d| d.len() == 3 && (1..=MAX_STEPS).contains(&d[1]))
    };
    let (joined, state, d_k) = if qkv.into_iter().all(unrolled) {
        unroll(b, qkv, &parts)?
    } else {
        looped(b, qkv, &parts)?
    };
    let scale = match b.float_attr("scale") {
        Some(s) if s != 0.0 => b.scalar(ElemType::F32, f64::from(s))?,
        _ => match d_k {
            Size::Fixed(d) => b.scalar(ElemType::F32, 1.0 / (d as f64).sqrt())?,
            Size::Of(..) => {
                // `1/√d_k` in f64, rounded to f32 as the reference's
                // product with an f32 array does.
                let d = b.size_vector(&[d_k])?;
                let d = b.cast(d, ElemType::F64)?;
                let root = b.unary(Sqrt, d)?;
                let scale = b.unary(Reciprocal, root)?;
                b.cast(scale, ElemType::F32)?
            }
        },
    };
    let scaled = b.binary(Mul, joined, scale)?;
    let output = b.cast(scaled, b.elem(qkv[0])?)?;
    let present = if b.wants_result(1) {
        let state_elem = match b.input(3) {
            Some(past) => b.elem(past)?,
            None => b.elem(qkv[0])?,
        };
        Some(b.cast(state, state_elem)?)
    } else {
        None
    };
    Some(vec![Some(output), present])
}

/// One step's inputs, shaped for the update: `q [B, H_kv, G, d_k]`, key
/// and value rows `[B, H_kv, 1, d]`, the decay factor `[B, H_kv, 1 or d_k,
/// 1]` and beta `[B, H_kv or 1, 1, 1]`.
struct Step {
    q: Value,
    k_row: Value,
    v_row: Value,
    decay: Option<Value>,
    beta: Option<Value>,
}

/// One step of the recurrence: the next state and the read `q @ S`
/// (`[B, H_kv, G, d_v]`).
fn update(b: &mut Builder, state: Value, t: &Step) -> Option<(Value, Value)> {
    let mut state = state;
    if let Some(decay) = t.decay {
        state = b.binary(Mul, state, decay)?;
    }
    let mut v_t = t.v_row;
    if let Some(beta) = t.beta {
        let retrieved = b.binary(MatMul, t.k_row, state)?;
        let error = b.binary(Sub, v_t, retrieved)?;
        v_t = b.binary(Mul, beta, error)?;
    }
    let k_col = b.transpose(t.k_row, &[0, 1, 3, 2])?;
    let outer = b.binary(Mul, k_col, v_t)?;
    state = b.binary(Add, state, outer)?;
    let read = b.binary(MatMul, t.q, state)?;
    Some((state, read))
}

/// The recurrence unrolled over a static sequence: the reads joined as
/// `[B, T, H_q·d_v]`, the final state and `d_k`.
fn unroll(
    b: &mut Builder,
    [query, key, value]: [Value; 3],
    p: &Parts,
) -> Option<(Value, Value, Size)> {
    let (q_heads, kv_heads) = (p.q_heads, p.kv_heads);
    let group = q_heads / kv_heads;
    let [batch, steps, q_width] = <[i64; 3]>::try_from(b.dims(query)?).ok()?;
    let [_, _, k_width] = <[i64; 3]>::try_from(b.dims(key)?).ok()?;
    let [_, _, v_width] = <[i64; 3]>::try_from(b.dims(value)?).ok()?;
    if q_width % q_heads != 0 || v_width % kv_heads != 0 {
        return None;
    }
    let (d_k, d_v) = (q_width / q_heads, v_width / kv_heads);
    if k_width != kv_heads * d_k {
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
    let decays = match p.decay {
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
    let betas = match p.beta {
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
        let step = Step {
            q: q_steps[t],
            k_row: k_rows[t],
            v_row: v_rows[t],
            decay: decays.as_ref().map(|d| d[t]),
            beta: betas.as_ref().map(|d| d[t]),
        };
        let (next, read) = update(b, state, &step)?;
        state = next;
        outputs.push(b.reshape(read, &[batch, 1, q_heads * d_v])?);
    }
    let joined = match outputs.as_slice() {
        [one] => *one,
        _ => b.op(Concat, &outputs, &[("axis", Attr::Int(1))])?,
    };
    Some((joined, state, Size::Fixed(d_k)))
}

/// The recurrence as a `Loop` over the steps (a sequence known at run time
/// only, or longer than [`MAX_STEPS`]): the reads joined as `[B, T,
/// H_q·d_v]`, the final state and `d_k`. Each input is viewed per head
/// (`[B, T, H, d]`, `d` by Reshape's `-1`: the model's entry checks the
/// division) and each step gathers its slice; the body builds every shape
/// it needs from `Shape`s of what it reads, so that its compiled segment
/// keeps the sizes symbolic.
fn looped(
    b: &mut Builder,
    [query, key, value]: [Value; 3],
    p: &Parts,
) -> Option<(Value, Value, Size)> {
    let (q_heads, kv_heads) = (p.q_heads, p.kv_heads);
    let group = q_heads / kv_heads;
    let f32 = ElemType::F32;
    // `x [B, T, W]` in f32 (after `f`) as `[B, T, heads, W / heads]`.
    let per_head = |b: &mut Builder, x: Value, heads: i64, f: Option<crate::schema::OpKind>| {
        let mut x = b.cast(x, f32)?;
        if let Some(f) = f {
            x = b.unary(f, x)?;
        }
        let sizes = [
            b.size(x, 0)?,
            b.size(x, 1)?,
            Size::Fixed(heads),
            Size::Fixed(-1),
        ];
        let shape = b.size_vector(&sizes)?;
        b.op(Reshape, &[x, shape], &[])
    };
    let q = per_head(b, query, q_heads, None)?;
    let k = per_head(b, key, kv_heads, None)?;
    let v = per_head(b, value, kv_heads, None)?;
    // Decay per KV head (one row) or per key dim (`d_k` rows), beta per KV
    // head or shared: the update broadcasts them.
    let decay = match p.decay {
        Some(decay) => Some(per_head(b, decay, kv_heads, Some(Exp))?),
        None => None,
    };
    let beta = match p.beta {
        Some(beta) => {
            let beta = b.cast(beta, f32)?;
            Some(b.squeeze_like(Unsqueeze, beta, &[3])?)
        }
        None => None,
    };
    let d_k = b.size(q, 3)?;
    let state = match b.input(3) {
        Some(past) => b.cast(past, f32)?,
        None => {
            let sizes = [b.size(q, 0)?, Size::Fixed(kv_heads), d_k, b.size(v, 3)?];
            b.zeros(f32, &sizes)?
        }
    };
    let trips = b.size_scalar(b.size(query, 1)?)?;
    let results = b.run_time_loop(trips, &[state], |b, t, carried| {
        let take = |b: &mut Builder, x: Value| b.op(Gather, &[x, t], &[("axis", Attr::Int(1))]);
        let q_t = take(b, q)?;
        let sizes = [
            b.size(q_t, 0)?,
            Size::Fixed(kv_heads),
            Size::Fixed(group),
            b.size(q_t, 2)?,
        ];
        let shape = b.size_vector(&sizes)?;
        let q_t = b.op(Reshape, &[q_t, shape], &[])?;
        let row = |b: &mut Builder, x: Value, axis: i64| {
            let x_t = take(b, x)?;
            b.squeeze_like(Unsqueeze, x_t, &[axis])
        };
        let step = Step {
            q: q_t,
            k_row: row(b, k, 2)?,
            v_row: row(b, v, 2)?,
            decay: match decay {
                Some(d) => Some(row(b, d, 3)?),
                None => None,
            },
            beta: match beta {
                Some(d) => Some(row(b, d, 3)?),
                None => None,
            },
        };
        let (next, read) = update(b, carried[0], &step)?;
        let sizes = [b.size(read, 0)?, Size::Fixed(-1)];
        let shape = b.size_vector(&sizes)?;
        let read = b.op(Reshape, &[read, shape], &[])?;
        Some((vec![next], vec![read]))
    })?;
    let joined = b.transpose(results[1], &[1, 0, 2])?;
    Some((joined, results[0], d_k))
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
