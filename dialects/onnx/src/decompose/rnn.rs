//! Recurrent layers: RNN, GRU and LSTM (every version), unrolled over the
//! time steps of a static sequence length.
//!
//! The three share one driver: the input projection of all time steps is
//! one MatMul, then each direction runs its cell once per step, in time
//! order (forward) or backwards (reverse), and the per-step states are
//! concatenated into `Y`. Per direction `d` (gates stacked along `W`'s
//! rows in the spec's order: RNN `i`, GRU `z r h`, LSTM `i o f c`):
//!
//! ```text
//! XW       = X @ W[d]ᵀ + Wb[d] + Rb[d]           [S, B, G·H]  (GRU with linear_before_reset: Rbh stays out)
//! RNN      H' = f(XW_t + H @ R[d]ᵀ)
//! GRU      z, r = f(XW_t[zr] + H @ R[d][zr]ᵀ)
//!          h  = g(XW_t[h] + (r ⊙ H) @ R[d][h]ᵀ)             (linear_before_reset = 0)
//!          h  = g(XW_t[h] + r ⊙ (H @ R[d][h]ᵀ + Rbh))      (linear_before_reset ≠ 0)
//!          H' = (1 - z) ⊙ h + z ⊙ H
//! LSTM     i = f(XW_t[i] + H @ R[d][i]ᵀ + Pi ⊙ C)
//!          f = f(XW_t[f] + H @ R[d][f]ᵀ + Pf ⊙ C)          (1 - i with input_forget)
//!          c = g(XW_t[c] + H @ R[d][c]ᵀ)
//!          C' = f ⊙ C + i ⊙ c
//!          o = f(XW_t[o] + H @ R[d][o]ᵀ + Po ⊙ C')
//!          H' = o ⊙ h(C')
//! ```
//!
//! `clip` bounds every activation's input to `[-clip, clip]`. With
//! `sequence_lens`, a batch entry past its length keeps its state and
//! outputs zeros (`Where` on `t < len[b]`); run backwards, an entry thus
//! starts at its own last step, as the spec's reverse direction does.
//! `Y` is `[S, D, B, H]` (`[B, S, D, H]` with `layout` 1), `Y_h` and `Y_c`
//! the last states `[D, B, H]` (`[B, D, H]`); any output may be absent.
//!
//! Handled: the three directions, both layouts, optional `B`,
//! `sequence_lens`, `initial_h`/`initial_c`, peepholes `P`,
//! `input_forget`, `linear_before_reset`, `clip` and every activation the
//! spec lists (Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu,
//! ScaledTanh, HardSigmoid, Elu, Softsign, Softplus), their `alpha` and
//! `beta` taken in order by the functions that use them, missing ones
//! at the function's default. A sequence length known at run time only is
//! a `Loop` over the steps per direction instead of the unrolled steps
//! (run-time control flow, which the host program runs): the body gathers
//! its step of the input projection (`S - 1 - i` backwards) and runs the
//! same cell; the Loop stacks the outputs, reversed into time order for
//! the reverse direction. Other sizes may be symbolic too, but
//! `hidden_size` must be known (the attribute, or `R`'s static dim). Not
//! handled (the op stays and the lowering refuses it): element types other
//! than f32 and f64.

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::dim::Dim;
use crate::ir::Value;
use crate::schema::OpKind::{self, *};
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The cell a recurrent op runs at each step.
#[derive(Clone, Copy)]
enum Cell {
    Rnn,
    Gru { linear_before_reset: bool },
    Lstm { input_forget: bool },
}

impl Cell {
    /// Gates stacked along the rows of `W` and `R`.
    fn gates(self) -> i64 {
        match self {
            Cell::Rnn => 1,
            Cell::Gru { .. } => 3,
            Cell::Lstm { .. } => 4,
        }
    }

    /// The spec's activations of one direction when `activations` is absent.
    fn default_activations(self) -> &'static [&'static str] {
        match self {
            Cell::Rnn => &["Tanh"],
            Cell::Gru { .. } => &["Sigmoid", "Tanh"],
            Cell::Lstm { .. } => &["Sigmoid", "Tanh", "Tanh"],
        }
    }
}

/// Expands RNN (see the module docs).
pub(super) fn rnn(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    expand(b, Cell::Rnn)
}

/// Expands GRU (see the module docs).
pub(super) fn gru(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let linear_before_reset = b.int_attr("linear_before_reset").unwrap_or(0) != 0;
    expand(
        b,
        Cell::Gru {
            linear_before_reset,
        },
    )
}

/// Expands LSTM (see the module docs).
pub(super) fn lstm(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let input_forget = b.int_attr("input_forget").unwrap_or(0) != 0;
    expand(b, Cell::Lstm { input_forget })
}

/// An activation function of the `activations` attribute.
#[derive(Clone, Copy)]
enum Activation {
    Unary(OpKind),
    /// `alpha · x + beta`.
    Affine(f32, f32),
    /// `alpha · tanh(beta · x)`.
    ScaledTanh(f32, f32),
    /// An op with an `alpha` attribute (LeakyRelu, ThresholdedRelu, Elu).
    WithAlpha(OpKind, f32),
    HardSigmoid(f32, f32),
}

/// The activations of each direction (`count` per direction), from the
/// attributes or the cell's defaults; `None` for an unknown function or a
/// list of the wrong length.
fn activations(b: &Builder, cell: Cell, directions: usize) -> Option<Vec<Vec<Activation>>> {
    let per_direction = cell.default_activations().len();
    // Only a given list: RNN's schema default (two Tanh) names the
    // functions of both directions, whatever the direction.
    let names: Vec<String> = match b.target().attrs.get("activations").cloned() {
        Some(Attr::Strings(names)) => names
            .into_iter()
            .map(|n| String::from_utf8(n).ok())
            .collect::<Option<_>>()?,
        _ => (0..directions)
            .flat_map(|_| cell.default_activations())
            .map(|n| n.to_string())
            .collect(),
    };
    if names.len() != per_direction * directions {
        return None;
    }
    let floats = |name| match b.attr(name) {
        Some(Attr::Floats(v)) => v,
        _ => vec![],
    };
    let (alphas, betas) = (floats("activation_alpha"), floats("activation_beta"));
    let (mut alphas, mut betas) = (alphas.into_iter(), betas.into_iter());
    let mut alpha = |default: f32| alphas.next().unwrap_or(default);
    let mut beta = |default: f32| betas.next().unwrap_or(default);
    let mut all = vec![];
    for name in &names {
        all.push(match name.to_ascii_lowercase().as_str() {
            "relu" => Activation::Unary(Relu),
            "tanh" => Activation::Unary(Tanh),
            "sigmoid" => Activation::Unary(Sigmoid),
            "softsign" => Activation::Unary(Softsign),
            "softplus" => Activation::Unary(Softplus),
            "affine" => Activation::Affine(alpha(1.0), beta(0.0)),
            "scaledtanh" => Activation::ScaledTanh(alpha(1.0), beta(1.0)),
            "leakyrelu" => Activation::WithAlpha(LeakyRelu, alpha(0.01)),
            "thresholdedrelu" => Activation::WithAlpha(ThresholdedRelu, alpha(1.0)),
            "elu" => Activation::WithAlpha(Elu, alpha(1.0)),
            "hardsigmoid" => Activation::HardSigmoid(alpha(0.2), beta(0.5)),
            _ => return None,
        });
    }
    Some(all.chunks(per_direction).map(<[_]>::to_vec).collect())
}

/// The per-op settings every step uses.
struct Setup {
    cell: Cell,
    elem: ElemType,
    hidden: i64,
    /// `clip`, when given.
    clip: Option<f32>,
    /// `sequence_lens` as a `[B, 1]` column, when given.
    lens: Option<Value>,
    /// Zeros `[B, H]`: the default initial state and the output past a length.
    zeros: Value,
}

/// One direction's weights, in the forms the steps use.
struct Weights {
    /// `X @ Wᵀ` plus the folded biases, `[S, B, G·H]`, of the gates
    /// computed together (all but GRU's hidden gate).
    xw: Value,
    /// `Rᵀ` of the same gates, `[H, G·H]`.
    rt: Value,
    /// GRU's hidden gate: its input projection `[S, B, H]`, its `Rhᵀ`
    /// `[H, H]` and, with `linear_before_reset`, its `Rbh` `[H]`.
    gru_h: Option<(Value, Value, Option<Value>)>,
    /// LSTM peepholes `(Pi, Po, Pf)`, each `[H]`.
    peepholes: Option<[Value; 3]>,
    activations: Vec<Activation>,
}

/// The state of one direction between steps.
struct State {
    h: Value,
    /// LSTM's cell state.
    c: Option<Value>,
}

/// The shared driver of the three cells.
fn expand(b: &mut Builder, cell: Cell) -> Option<Vec<Option<Value>>> {
    let (x, w, r) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let elem = b.elem(x)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return None;
    }
    let batch_major = match b.int_attr("layout").unwrap_or(0) {
        0 => false,
        1 => true,
        _ => return None,
    };
    let directions: &[bool] = match b.string_attr("direction")?.as_str() {
        "forward" => &[false],
        "reverse" => &[true],
        "bidirectional" => &[false, true],
        _ => return None,
    };
    let x = if batch_major {
        b.transpose(x, &[1, 0, 2])?
    } else {
        x
    };
    let [steps, _, _] = <[Dim; 3]>::try_from(b.sym_dims(x)?).ok()?;
    let [num_dirs, rows, r_hidden] = <[Dim; 3]>::try_from(b.sym_dims(r)?).ok()?;
    let hidden = b.int_attr("hidden_size").or(r_hidden.as_known())?;
    let differs = |d: &Dim, n: i64| d.as_known().is_some_and(|k| k != n);
    if differs(&num_dirs, directions.len() as i64)
        || differs(&rows, cell.gates() * hidden)
        || differs(&r_hidden, hidden)
        || steps.as_known().is_some_and(|s| s < 1)
    {
        return None;
    }
    let activations = activations(b, cell, directions.len())?;
    let lens = match b.input(4) {
        Some(lens) => Some(b.squeeze_like(Unsqueeze, lens, &[1])?),
        None => None,
    };
    let zeros = b.zeros(elem, &[b.size(x, 1)?, Size::Fixed(hidden)])?;
    let setup = Setup {
        cell,
        elem,
        hidden,
        clip: b.float_attr("clip"),
        lens,
        zeros,
    };
    let initial = |b: &mut Builder, i: usize| -> Option<Option<Value>> {
        match b.input(i) {
            Some(v) if batch_major => Some(Some(b.transpose(v, &[1, 0, 2])?)),
            v => Some(v),
        }
    };
    let (initial_h, initial_c) = (initial(b, 5)?, initial(b, 6)?);

    let (mut ys, mut last_h, mut last_c) = (vec![], vec![], vec![]);
    for (d, (&reverse, activations)) in directions.iter().zip(activations).enumerate() {
        let weights = weights(b, &setup, d as i64, x, w, r, activations)?;
        let mut state = State {
            h: match initial_h {
                Some(h) => pick(b, h, d as i64)?,
                None => zeros,
            },
            c: match (cell, initial_c) {
                (Cell::Lstm { .. }, Some(c)) => Some(pick(b, c, d as i64)?),
                (Cell::Lstm { .. }, None) => Some(zeros),
                _ => None,
            },
        };
        let y;
        (state, y) = match steps.as_known() {
            Some(steps) => unroll(b, &setup, &weights, state, steps, reverse)?,
            None => looped(b, &setup, &weights, state, x, reverse)?,
        };
        ys.extend(y);
        last_h.push(b.squeeze_like(Unsqueeze, state.h, &[0])?);
        if let Some(c) = state.c {
            last_c.push(b.squeeze_like(Unsqueeze, c, &[0])?);
        }
    }
    let y = if b.wants_result(0) {
        let y = concat(b, &ys, 1)?;
        Some(if batch_major {
            b.transpose(y, &[2, 0, 1, 3])?
        } else {
            y
        })
    } else {
        None
    };
    let last = |b: &mut Builder, states: &[Value], i: usize| -> Option<Option<Value>> {
        if !b.wants_result(i) {
            return Some(None);
        }
        let s = concat(b, states, 0)?;
        Some(Some(if batch_major {
            b.transpose(s, &[1, 0, 2])?
        } else {
            s
        }))
    };
    let y_h = last(b, &last_h, 1)?;
    let y_c = match cell {
        Cell::Lstm { .. } => last(b, &last_c, 2)?,
        _ => None,
    };
    Some(vec![y, y_h, y_c])
}

/// One direction's steps unrolled over a static sequence: the final
/// state and, when `Y` is produced, the direction's `[S, 1, B, H]`.
fn unroll(
    b: &mut Builder,
    setup: &Setup,
    weights: &Weights,
    mut state: State,
    steps: i64,
    reverse: bool,
) -> Option<(State, Option<Value>)> {
    let mut outputs = vec![None; steps as usize];
    let order: Vec<i64> = if reverse {
        (0..steps).rev().collect()
    } else {
        (0..steps).collect()
    };
    for t in order {
        let (next, y) = step(b, setup, weights, &state, Time::Fixed(t))?;
        state = next;
        outputs[t as usize] = Some(y);
    }
    if !b.wants_result(0) {
        return Some((state, None));
    }
    let mut framed = vec![];
    for y in outputs.into_iter().flatten() {
        framed.push(b.squeeze_like(Unsqueeze, y, &[0, 1])?);
    }
    let y = concat(b, &framed, 0)?;
    Some((state, Some(y)))
}

/// One direction's steps as a `Loop` over the run-time length of `x`
/// (`[S, B, I]`), step `S - 1 - i` at iteration `i` backwards: the final
/// state and, when `Y` is produced, the direction's `[S, 1, B, H]` (the
/// stacked outputs reversed into time order backwards).
fn looped(
    b: &mut Builder,
    setup: &Setup,
    weights: &Weights,
    state: State,
    x: Value,
    reverse: bool,
) -> Option<(State, Option<Value>)> {
    let trips = b.size_scalar(b.size(x, 0)?)?;
    let last = match reverse {
        true => {
            let one = b.constant(TensorData::scalar(1i64))?;
            Some(b.binary(Sub, trips, one)?)
        }
        false => None,
    };
    let initial: Vec<Value> = std::iter::once(state.h).chain(state.c).collect();
    let wants_y = b.wants_result(0);
    let results = b.run_time_loop(trips, &initial, |b, i, carried| {
        let t = match last {
            Some(last) => b.binary(Sub, last, i)?,
            None => i,
        };
        let state = State {
            h: carried[0],
            c: carried.get(1).copied(),
        };
        let (next, y) = step(b, setup, weights, &state, Time::At(t))?;
        let next = std::iter::once(next.h).chain(next.c).collect();
        Some((next, if wants_y { vec![y] } else { vec![] }))
    })?;
    let state = State {
        h: results[0],
        c: state.c.map(|_| results[1]),
    };
    if !wants_y {
        return Some((state, None));
    }
    let mut y = results[initial.len()];
    if reverse {
        y = b.reverse(y, 0)?;
    }
    let y = b.squeeze_like(Unsqueeze, y, &[1])?;
    Some((state, Some(y)))
}

/// A time step: static (unrolled), or an int64 scalar known at run time
/// (a Loop's step).
#[derive(Clone, Copy)]
enum Time {
    Fixed(i64),
    At(Value),
}

/// Direction `d`'s weights: the input projection of every step, the
/// transposed recurrence, and the biases and peepholes the steps need.
fn weights(
    b: &mut Builder,
    setup: &Setup,
    d: i64,
    x: Value,
    w: Value,
    r: Value,
    activations: Vec<Activation>,
) -> Option<Weights> {
    let (cell, hidden) = (setup.cell, setup.hidden);
    let width = cell.gates() * hidden;
    let w_d = pick(b, w, d)?;
    let wt = b.transpose(w_d, &[1, 0])?;
    let mut xw = b.binary(MatMul, x, wt)?;
    let r_d = pick(b, r, d)?;
    let mut rt = b.transpose(r_d, &[1, 0])?;
    let mut rb_h = None;
    if let Some(bias) = b.input(3) {
        let bias = pick(b, bias, d)?;
        let wb = b.slice(bias, 0, 0, width)?;
        let mut rb = b.slice(bias, 0, width, 2 * width)?;
        if let Cell::Gru {
            linear_before_reset: true,
        } = cell
        {
            rb_h = Some(b.slice(rb, 0, 2 * hidden, width)?);
            let rb_zr = b.slice(rb, 0, 0, 2 * hidden)?;
            let zeros = b.floats(setup.elem, vec![hidden], &vec![0.0; hidden as usize])?;
            rb = concat(b, &[rb_zr, zeros], 0)?;
        }
        let folded = b.binary(Add, wb, rb)?;
        xw = b.binary(Add, xw, folded)?;
    }
    let peepholes = match (cell, b.input(7)) {
        (Cell::Lstm { .. }, Some(p)) => {
            let p = pick(b, p, d)?;
            Some([
                b.slice(p, 0, 0, hidden)?,
                b.slice(p, 0, hidden, 2 * hidden)?,
                b.slice(p, 0, 2 * hidden, 3 * hidden)?,
            ])
        }
        _ => None,
    };
    let gru_h = match cell {
        Cell::Gru { .. } => {
            let xw_h = b.slice(xw, 2, 2 * hidden, width)?;
            let rt_h = b.slice(rt, 1, 2 * hidden, width)?;
            xw = b.slice(xw, 2, 0, 2 * hidden)?;
            rt = b.slice(rt, 1, 0, 2 * hidden)?;
            Some((xw_h, rt_h, rb_h))
        }
        _ => None,
    };
    Some(Weights {
        xw,
        rt,
        gru_h,
        peepholes,
        activations,
    })
}

/// One step at time `t`: the next state and the step's output `[B, H]`.
fn step(
    b: &mut Builder,
    setup: &Setup,
    weights: &Weights,
    state: &State,
    t: Time,
) -> Option<(State, Value)> {
    let hidden = setup.hidden;
    let at = |b: &mut Builder, v: Value| match t {
        Time::Fixed(t) => pick(b, v, t),
        Time::At(t) => b.op(Gather, &[v, t], &[("axis", Attr::Int(0))]),
    };
    let xw = at(b, weights.xw)?;
    let acts = &weights.activations;
    let (h, c) = match setup.cell {
        Cell::Rnn => {
            let hr = b.binary(MatMul, state.h, weights.rt)?;
            let pre = b.binary(Add, xw, hr)?;
            (activate(b, setup, acts[0], pre)?, None)
        }
        Cell::Gru {
            linear_before_reset,
        } => {
            let (xw_h, rt_h, rb_h) = weights.gru_h?;
            let xw_h = at(b, xw_h)?;
            let hr = b.binary(MatMul, state.h, weights.rt)?;
            let pre = b.binary(Add, xw, hr)?;
            let zr = activate(b, setup, acts[0], pre)?;
            let z = b.slice(zr, 1, 0, hidden)?;
            let reset = b.slice(zr, 1, hidden, 2 * hidden)?;
            let recurrent = if linear_before_reset {
                let mut hr = b.binary(MatMul, state.h, rt_h)?;
                if let Some(rb_h) = rb_h {
                    hr = b.binary(Add, hr, rb_h)?;
                }
                b.binary(Mul, reset, hr)?
            } else {
                let gated = b.binary(Mul, reset, state.h)?;
                b.binary(MatMul, gated, rt_h)?
            };
            let pre = b.binary(Add, xw_h, recurrent)?;
            let candidate = activate(b, setup, acts[1], pre)?;
            let one = b.scalar(setup.elem, 1.0)?;
            let keep = b.binary(Sub, one, z)?;
            let fresh = b.binary(Mul, keep, candidate)?;
            let held = b.binary(Mul, z, state.h)?;
            (b.binary(Add, fresh, held)?, None)
        }
        Cell::Lstm { input_forget } => {
            let c_prev = state.c?;
            let hr = b.binary(MatMul, state.h, weights.rt)?;
            let gates = b.binary(Add, xw, hr)?;
            let gate = |b: &mut Builder, k: i64| b.slice(gates, 1, k * hidden, (k + 1) * hidden);
            let (gi, go, gf, gc) = (gate(b, 0)?, gate(b, 1)?, gate(b, 2)?, gate(b, 3)?);
            let peep = |b: &mut Builder, g: Value, k: usize, c: Value| -> Option<Value> {
                match weights.peepholes {
                    Some(p) => {
                        let term = b.binary(Mul, p[k], c)?;
                        b.binary(Add, g, term)
                    }
                    None => Some(g),
                }
            };
            let pre_i = peep(b, gi, 0, c_prev)?;
            let i = activate(b, setup, acts[0], pre_i)?;
            let f = if input_forget {
                let one = b.scalar(setup.elem, 1.0)?;
                b.binary(Sub, one, i)?
            } else {
                let pre_f = peep(b, gf, 2, c_prev)?;
                activate(b, setup, acts[0], pre_f)?
            };
            let candidate = activate(b, setup, acts[1], gc)?;
            let kept = b.binary(Mul, f, c_prev)?;
            let added = b.binary(Mul, i, candidate)?;
            let c = b.binary(Add, kept, added)?;
            let pre_o = peep(b, go, 1, c)?;
            let o = activate(b, setup, acts[0], pre_o)?;
            let squashed = activate(b, setup, acts[2], c)?;
            (b.binary(Mul, o, squashed)?, Some(c))
        }
    };
    let Some(lens) = setup.lens else {
        return Some((State { h, c }, h));
    };
    let now = match t {
        Time::Fixed(t) => b.constant(TensorData::scalar(i32::try_from(t).ok()?))?,
        Time::At(t) => b.cast(t, b.elem(lens)?)?,
    };
    let live = b.binary(Greater, lens, now)?;
    let y = b.select(live, h, setup.zeros)?;
    let h = b.select(live, h, state.h)?;
    let c = match (c, state.c) {
        (Some(c), Some(c_prev)) => Some(b.select(live, c, c_prev)?),
        _ => None,
    };
    Some((State { h, c }, y))
}

/// `f(clip(x))`.
fn activate(b: &mut Builder, setup: &Setup, f: Activation, x: Value) -> Option<Value> {
    let x = match setup.clip {
        Some(clip) => {
            let hi = b.scalar(setup.elem, f64::from(clip))?;
            let lo = b.scalar(setup.elem, -f64::from(clip))?;
            let below = b.binary(Min, x, hi)?;
            b.binary(Max, below, lo)?
        }
        None => x,
    };
    let elem = setup.elem;
    match f {
        Activation::Unary(kind) => b.unary(kind, x),
        Activation::Affine(alpha, beta) => {
            let (a, c) = (b.scalar(elem, alpha.into())?, b.scalar(elem, beta.into())?);
            let scaled = b.binary(Mul, x, a)?;
            b.binary(Add, scaled, c)
        }
        Activation::ScaledTanh(alpha, beta) => {
            let (a, c) = (b.scalar(elem, alpha.into())?, b.scalar(elem, beta.into())?);
            let scaled = b.binary(Mul, x, c)?;
            let tanh = b.unary(Tanh, scaled)?;
            b.binary(Mul, tanh, a)
        }
        Activation::WithAlpha(kind, alpha) => b.op(kind, &[x], &[("alpha", Attr::Float(alpha))]),
        Activation::HardSigmoid(alpha, beta) => b.op(
            HardSigmoid,
            &[x],
            &[("alpha", Attr::Float(alpha)), ("beta", Attr::Float(beta))],
        ),
    }
}

/// `v[i]` along the leading axis (a direction, a time step), without it.
fn pick(b: &mut Builder, v: Value, i: i64) -> Option<Value> {
    let index = b.constant(TensorData::scalar(i))?;
    b.op(Gather, &[v, index], &[("axis", Attr::Int(0))])
}

/// `Concat(values, axis)` (the value itself when there is one).
fn concat(b: &mut Builder, values: &[Value], axis: i64) -> Option<Value> {
    match values {
        [v] => Some(*v),
        _ => b.op(Concat, values, &[("axis", Attr::Int(axis))]),
    }
}
