//! The random ops RandomUniform (1, 22), RandomUniformLike (1, 22) and
//! Bernoulli (15, 22) — and training-mode Dropout through [`uniform`] —
//! from a counter-based generator built of integer ops.
//!
//! Element `i` of a random tensor is a pure function of `(seed, i)`:
//! SplitMix64's finalizer (Steele, Lea and Flood) applied to
//! `i · φ + key(seed)`, whose top mantissa bits make a float in `[0, 1)`:
//!
//! ```text
//! z = i · 0x9E3779B97F4A7C15 + key          (u64, wrapping)
//! z = (z ^ z >> 30) · 0xBF58476D1CE4E5B9
//! z = (z ^ z >> 27) · 0x94D049BB133111EB
//! z =  z ^ z >> 31
//! u = float(z >> (64 − m)) · 2^−m           (m: the type's mantissa bits)
//! ```
//!
//! so the values are the same in every mode and thread count, and the
//! whole computation is one elementwise loop. `key` is the seed's bits
//! through the same finalizer (seed 0 when the attribute is absent: a
//! model without a seed gets the same numbers on every run, which the
//! spec allows). `u` is exact in the element type, so it stays below 1.
//!
//! - RandomUniform(Like): `low + u · (high − low)`, of `dtype` (the
//!   input's type for the Like form).
//! - Bernoulli: `u < p`, cast to `dtype` (the input's type by default).
//!
//! The normal-distribution ops and Multinomial are not expanded.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// SplitMix64's increment, ⌊2^64/φ⌋.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// SplitMix64's finalizer multipliers.
const MIX: [u64; 2] = [0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB];

/// SplitMix64's finalizer, as [`uniform`] builds it: the key of a seed.
fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(MIX[0]);
    z = (z ^ (z >> 27)).wrapping_mul(MIX[1]);
    z ^ (z >> 31)
}

/// The generator's key for the op's `seed` attribute (a float for the
/// random ops, an int for Dropout).
pub(super) fn key(b: &Builder) -> u64 {
    let seed = match b.attr("seed") {
        Some(Attr::Float(s)) => f64::from(s),
        Some(Attr::Int(s)) => s as f64,
        _ => 0.0,
    };
    finalize(seed.to_bits())
}

/// The shape of a random tensor: static, or that of a tensor (whose sizes
/// may be symbolic: read with `Size` and `Shape` at run time).
pub(super) enum Sizes {
    /// Static dims.
    Dims(Vec<i64>),
    /// The shape of a value.
    Of(Value),
}

/// Uniform numbers in `[0, 1)` of type `elem` and shape `shape`, element
/// `i` drawn from `(key, i)` as the module docs describe.
pub(super) fn uniform(b: &mut Builder, shape: &Sizes, elem: ElemType, key: u64) -> Option<Value> {
    let bits: u64 = match elem {
        ElemType::F64 => 53,
        ElemType::F32 => 24,
        ElemType::F16 => 11,
        ElemType::BF16 => 8,
        _ => return None,
    };
    let u64_scalar = |b: &mut Builder, v: u64| b.constant(TensorData::scalar(v));
    let limit = match shape {
        Sizes::Dims(dims) => b.constant(TensorData::scalar(dims.iter().product::<i64>()))?,
        Sizes::Of(x) => b.unary(Size, *x)?,
    };
    let (start, step) = (
        b.constant(TensorData::scalar(0i64))?,
        b.constant(TensorData::scalar(1i64))?,
    );
    let index = b.op(Range, &[start, limit, step], &[])?;
    let index = b.cast(index, ElemType::U64)?;
    let golden = u64_scalar(b, GOLDEN)?;
    let key = u64_scalar(b, key)?;
    let z = b.binary(Mul, index, golden)?;
    let mut z = b.binary(Add, z, key)?;
    for (shift, mul) in [(30, Some(MIX[0])), (27, Some(MIX[1])), (31, None)] {
        let s = u64_scalar(b, shift)?;
        let shifted = b.op(
            BitShift,
            &[z, s],
            &[("direction", Attr::String(b"RIGHT".to_vec()))],
        )?;
        z = b.binary(BitwiseXor, z, shifted)?;
        if let Some(m) = mul {
            let m = u64_scalar(b, m)?;
            z = b.binary(Mul, z, m)?;
        }
    }
    let s = u64_scalar(b, 64 - bits)?;
    let top = b.op(
        BitShift,
        &[z, s],
        &[("direction", Attr::String(b"RIGHT".to_vec()))],
    )?;
    let top = b.cast(top, elem)?;
    let scale = b.scalar(elem, (-(bits as f64)).exp2())?;
    let u = b.binary(Mul, top, scale)?;
    match shape {
        Sizes::Dims(dims) => b.reshape(u, dims),
        Sizes::Of(x) => {
            let dims = b.unary(Shape, *x)?;
            b.op(Reshape, &[u, dims], &[])
        }
    }
}

/// `low + u · (high − low)` of the op's `dtype` (or `elem`) and `shape`.
fn scaled_uniform(b: &mut Builder, shape: &Sizes, elem: ElemType) -> Option<Value> {
    let elem = match b.target().attrs.get("dtype") {
        Some(Attr::Int(code)) => ElemType::from_onnx(i32::try_from(*code).ok()?)?,
        _ => elem,
    };
    let (low, high) = (b.float_attr("low")?, b.float_attr("high")?);
    let key = key(b);
    let u = uniform(b, shape, elem, key)?;
    if (low, high) == (0.0, 1.0) {
        return Some(u);
    }
    let width = b.scalar(elem, f64::from(high) - f64::from(low))?;
    let low = b.scalar(elem, f64::from(low))?;
    let u = b.binary(Mul, u, width)?;
    b.binary(Add, u, low)
}

/// Expands RandomUniformLike.
pub(super) fn random_uniform_like(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    b.sym_dims(x)?;
    let elem = b.elem(x)?;
    Some(vec![Some(scaled_uniform(b, &Sizes::Of(x), elem)?)])
}

/// Expands RandomUniform.
pub(super) fn random_uniform(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let dims = b.int_list("shape")?;
    Some(vec![Some(scaled_uniform(
        b,
        &Sizes::Dims(dims),
        ElemType::F32,
    )?)])
}

/// Expands Bernoulli.
pub(super) fn bernoulli(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let p = b.input(0)?;
    b.sym_dims(p)?;
    let elem = b.elem(p)?;
    let key = key(b);
    let u = uniform(b, &Sizes::Of(p), elem, key)?;
    let hit = b.binary(Less, u, p)?;
    let out = b.result_elem(0).unwrap_or(elem);
    Some(vec![Some(b.cast(hit, out)?)])
}
