//! The optimizers of `ai.onnx.preview.training` (version 1): one update
//! step of each of `n` tensors, elementwise.
//!
//! Inputs are the learning rate `R` (scalar), the step count `T` (int64
//! scalar) and `n` tensors of each kind, grouped by kind (`X1..Xn, G1..Gn,
//! …`); the outputs are grouped the same way. With `g = norm_coefficient ·
//! X + G` (the regularized gradient):
//!
//! ```text
//! Adagrad   r = R / (1 + T · decay_factor)
//!           H' = H + g²;  X' = X - r · g / (√H' + epsilon)
//! Momentum  β = beta if T > 0 else 1;  V' = alpha · V + β · g
//!           X' = X - R · V'                   (mode standard)
//!           X' = X - R · (g + alpha · V')     (mode nesterov)
//! Adam      V' = alpha · V + (1 - alpha) · g;  H' = beta · H + (1 - beta) · g²
//!           r = R · √(1 - betaᵀ) / (1 - alphaᵀ) if T > 0 else R
//!           X' = (1 - norm_coefficient_post) · (X - r · V' / (√H' + epsilon))
//! ```
//!
//! Every attribute is handled; an input count that does not split into
//! the groups, or an unknown Momentum mode, leaves the op as it is.

use super::builder::Builder;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::types::ElemType;

/// The shared start of the three updates: the group count for `kinds`
/// tensors per group, and `R` and `T` in the tensors' element type.
struct Step {
    n: usize,
    elem: ElemType,
    rate: Value,
    count: Value,
}

impl Step {
    fn new(b: &mut Builder, kinds: usize) -> Option<Step> {
        let inputs = b.target().inputs.len().checked_sub(2)?;
        if inputs == 0 || inputs % kinds != 0 {
            return None;
        }
        let elem = b.elem(b.input(2)?)?;
        let (rate, count) = (b.input(0)?, b.input(1)?);
        Some(Step {
            n: inputs / kinds,
            elem,
            rate: b.cast(rate, elem)?,
            count: b.cast(count, elem)?,
        })
    }

    /// Input `j` of kind `k` (0: X, 1: G, …).
    fn input(&self, b: &Builder, k: usize, j: usize) -> Option<Value> {
        b.input(2 + k * self.n + j)
    }

    /// `norm_coefficient · X + G`.
    fn regularized(&self, b: &mut Builder, x: Value, g: Value) -> Option<Value> {
        let norm = b.scalar(self.elem, attr(b, "norm_coefficient", 0.0))?;
        let scaled = b.binary(Mul, norm, x)?;
        b.binary(Add, scaled, g)
    }

    /// `T > 0`.
    fn started(&self, b: &mut Builder) -> Option<Value> {
        let zero = b.scalar(self.elem, 0.0)?;
        b.binary(Greater, self.count, zero)
    }

    /// The outputs, grouped by kind (`per_group[j][k]`).
    fn outputs(&self, per_group: Vec<Vec<Value>>) -> Vec<Option<Value>> {
        let kinds = per_group.first().map_or(0, Vec::len);
        (0..kinds)
            .flat_map(|k| per_group.iter().map(move |g| Some(g[k])))
            .collect()
    }
}

/// A float attribute as `f64` (or its default).
fn attr(b: &Builder, name: &str, default: f32) -> f64 {
    f64::from(b.float_attr(name).unwrap_or(default))
}

/// `a · x + c · y` with scalar coefficients.
fn blend(b: &mut Builder, elem: ElemType, a: f64, x: Value, c: f64, y: Value) -> Option<Value> {
    let (a, c) = (b.scalar(elem, a)?, b.scalar(elem, c)?);
    let ax = b.binary(Mul, a, x)?;
    let cy = b.binary(Mul, c, y)?;
    b.binary(Add, ax, cy)
}

/// `X - r · v / (√h + epsilon)`.
fn scaled_step(
    b: &mut Builder,
    elem: ElemType,
    x: Value,
    r: Value,
    v: Value,
    h: Value,
) -> Option<Value> {
    let root = b.unary(Sqrt, h)?;
    let epsilon = b.scalar(elem, attr(b, "epsilon", 1e-6))?;
    let denominator = b.binary(Add, root, epsilon)?;
    let ratio = b.binary(Div, v, denominator)?;
    let delta = b.binary(Mul, r, ratio)?;
    b.binary(Sub, x, delta)
}

/// Expands Adagrad (see the module docs).
pub(super) fn adagrad(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let s = Step::new(b, 3)?;
    let decay = b.scalar(s.elem, attr(b, "decay_factor", 0.0))?;
    let one = b.scalar(s.elem, 1.0)?;
    let decayed = b.binary(Mul, s.count, decay)?;
    let divisor = b.binary(Add, one, decayed)?;
    let rate = b.binary(Div, s.rate, divisor)?;
    let mut groups = vec![];
    for j in 0..s.n {
        let (x, g, h) = (s.input(b, 0, j)?, s.input(b, 1, j)?, s.input(b, 2, j)?);
        let g = s.regularized(b, x, g)?;
        let square = b.binary(Mul, g, g)?;
        let h = b.binary(Add, h, square)?;
        let x = scaled_step(b, s.elem, x, rate, g, h)?;
        groups.push(vec![x, h]);
    }
    Some(s.outputs(groups))
}

/// Expands Momentum (see the module docs).
pub(super) fn momentum(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let nesterov = match b.string_attr("mode")?.as_str() {
        "standard" => false,
        "nesterov" => true,
        _ => return None,
    };
    let s = Step::new(b, 3)?;
    let (alpha, beta) = (b.float_attr("alpha")?, b.float_attr("beta")?);
    let started = s.started(b)?;
    let beta = b.scalar(s.elem, beta.into())?;
    let one = b.scalar(s.elem, 1.0)?;
    let beta = b.select(started, beta, one)?;
    let alpha_v = b.scalar(s.elem, alpha.into())?;
    let mut groups = vec![];
    for j in 0..s.n {
        let (x, g, v) = (s.input(b, 0, j)?, s.input(b, 1, j)?, s.input(b, 2, j)?);
        let g = s.regularized(b, x, g)?;
        let kept = b.binary(Mul, alpha_v, v)?;
        let pushed = b.binary(Mul, beta, g)?;
        let v = b.binary(Add, kept, pushed)?;
        let direction = if nesterov {
            let ahead = b.binary(Mul, alpha_v, v)?;
            b.binary(Add, g, ahead)?
        } else {
            v
        };
        let delta = b.binary(Mul, s.rate, direction)?;
        let x = b.binary(Sub, x, delta)?;
        groups.push(vec![x, v]);
    }
    Some(s.outputs(groups))
}

/// Expands Adam (see the module docs).
pub(super) fn adam(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let s = Step::new(b, 4)?;
    let alpha = attr(b, "alpha", 0.9);
    let beta = attr(b, "beta", 0.999);
    let post = attr(b, "norm_coefficient_post", 0.0);
    // r = R · √(1 - betaᵀ) / (1 - alphaᵀ) once T > 0 (the division by
    // 0 at T = 0 is not selected).
    let one = b.scalar(s.elem, 1.0)?;
    let power = |b: &mut Builder, base: f64| -> Option<Value> {
        let base = b.scalar(s.elem, base)?;
        let raised = b.binary(Pow, base, s.count)?;
        b.binary(Sub, one, raised)
    };
    let (beta_gap, alpha_gap) = (power(b, beta)?, power(b, alpha)?);
    let root = b.unary(Sqrt, beta_gap)?;
    let scaled = b.binary(Mul, s.rate, root)?;
    let corrected = b.binary(Div, scaled, alpha_gap)?;
    let started = s.started(b)?;
    let rate = b.select(started, corrected, s.rate)?;
    let mut groups = vec![];
    for j in 0..s.n {
        let (x, g) = (s.input(b, 0, j)?, s.input(b, 1, j)?);
        let (v, h) = (s.input(b, 2, j)?, s.input(b, 3, j)?);
        let g = s.regularized(b, x, g)?;
        let v = blend(b, s.elem, alpha, v, 1.0 - alpha, g)?;
        let square = b.binary(Mul, g, g)?;
        let h = blend(b, s.elem, beta, h, 1.0 - beta, square)?;
        let mut x = scaled_step(b, s.elem, x, rate, v, h)?;
        if post != 0.0 {
            let keep = b.scalar(s.elem, 1.0 - post)?;
            x = b.binary(Mul, keep, x)?;
        }
        groups.push(vec![x, v, h]);
    }
    Some(s.outputs(groups))
}
