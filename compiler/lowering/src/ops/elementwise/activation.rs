//! The activations of the optimizer's fused ops (`activation`
//! attribute, the dialect's `ops/fused.rs`), applied to a float scalar,
//! and the ones the elementwise ops share with them.

use melior::ir::{Value as MValue, ValueLike};

use crate::builder::{CmpfPredicate, Emitter};
use crate::ops::math;

/// GELU: `x/2 · (1 + erf(x/√2))`, or with `tanh` its approximation
/// `x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
pub(super) fn gelu<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, tanh: bool) -> MValue<'c, 'b> {
    let fl = |v: f64| e.f(x.r#type(), v);
    let inner = if tanh {
        let x3 = e.mulf(x, e.mulf(x, x));
        let u = e.addf(x, e.mulf(x3, fl(0.044715)));
        math::tanh(e, e.mulf(u, fl((2.0 / std::f64::consts::PI).sqrt())))
    } else {
        math::erf(e, e.mulf(x, fl(std::f64::consts::FRAC_1_SQRT_2)))
    };
    e.mulf(e.mulf(x, fl(0.5)), e.addf(inner, fl(1.0)))
}

/// The activations of the optimizer's fused ops (`activation` attribute;
/// see the dialect's `ops/fused.rs`).
pub(crate) const ACTIVATIONS: &[&str] = &[
    "",
    "Relu",
    "LeakyRelu",
    "Sigmoid",
    "Tanh",
    "Clip",
    "HardSigmoid",
    "HardSwish",
    "Silu",
    "Gelu",
    "GeluTanh",
];

/// Applies the fused ops' activation `name` (one of [`ACTIVATIONS`]) with
/// its `params` to a float scalar.
pub(crate) fn apply_activation<'c, 'b>(
    e: Emitter<'c, 'b>,
    name: &str,
    params: &[f32],
    x: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let fl = |v: f64| e.f(x.r#type(), v);
    let p = |i: usize| f64::from(params[i]);
    match name {
        "Relu" => e.maximumf(x, fl(0.0)),
        "LeakyRelu" => {
            let neg = e.mulf(x, fl(p(0)));
            e.select(e.cmpf(CmpfPredicate::Ogt, x, fl(0.0)), x, neg)
        }
        "Sigmoid" => math::sigmoid(e, x),
        "Tanh" => math::tanh(e, x),
        "Clip" => clamp(e, x, fl(p(0)), fl(p(1))),
        "HardSigmoid" => {
            let y = e.addf(e.mulf(x, fl(p(0))), fl(p(1)));
            clamp(e, y, fl(0.0), fl(1.0))
        }
        "HardSwish" => {
            let y = e.addf(e.mulf(x, fl(1.0 / 6.0)), fl(0.5));
            e.mulf(x, clamp(e, y, fl(0.0), fl(1.0)))
        }
        "Silu" => e.mulf(x, math::sigmoid(e, x)),
        "Gelu" => gelu(e, x, false),
        "GeluTanh" => gelu(e, x, true),
        _ => x,
    }
}

pub(super) fn clamp<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    lo: MValue<'c, 'b>,
    hi: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    e.minimumf(e.maximumf(x, lo), hi)
}
