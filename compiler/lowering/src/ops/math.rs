//! Vectorizable f32 math: `exp`, `log`, `tanh`, `erf` and `sigmoid` as
//! `arith` polynomials (with `math.fma`, `math.floor` and `math.absf`,
//! which LLVM has as vector intrinsics) instead of `math.*` ops that end
//! as scalar libm calls. Once a kernel is vectorized, these compute a
//! whole vector per instruction, which is what GELU, softmax and
//! LogSoftmax spend their time on.
//!
//! | function | method | accuracy vs libm (f32, measured by `compiler/driver/tests/math_accuracy.rs` against the C library's f64 functions) |
//! |---|---|---|
//! | `exp` | Cephes `expf`: `x = n·ln2 + r`, degree-6 polynomial in `r`, `2^n` by exponent bits | 1.2 ulp on [-86, 88.5]; `+inf` above 88.72, results below 2^-125 flushed to 0 |
//! | `log` | Cephes `logf`: mantissa in `[√½, √2)`, degree-8 polynomial | 0.8 ulp over all normal inputs; `-inf` at 0, NaN below 0 |
//! | `tanh` | Eigen's rational 13/6 approximation, clamped to ±7.9 | 4.4 ulp, abs 2.6e-7 on [-12, 12] |
//! | `erf` | Eigen's rational 13/8 approximation, clamped to ±4 | abs 3.3e-7 (5.5 ulp) on [-6, 6] |
//! | `sigmoid` | `1 / (1 + exp(-x))` with the `exp` above | 3.0 ulp on [-80, 80] |
//!
//! f16 and bf16 inputs are computed in f32 and rounded once; f64 keeps the
//! `math` ops (the polynomials are tuned for f32 precision only).

use melior::ir::{Type, Value as MValue, ValueLike};

use crate::builder::{CmpfPredicate, Emitter};

/// Whether `ty` is `f32` (the polynomials' type).
fn is_f32(e: Emitter, ty: Type) -> bool {
    ty == Type::float32(e.cx)
}

/// `f(x)` computed in f32 when `x` is a half-precision float (f16, bf16),
/// rounded once at the end like a reference computing in f32; `None` for
/// other types.
fn in_f32<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    f: impl Fn(Emitter<'c, 'b>, MValue<'c, 'b>) -> MValue<'c, 'b>,
) -> Option<MValue<'c, 'b>> {
    let ty = x.r#type();
    if ty != Type::float16(e.cx) && ty != Type::bfloat16(e.cx) {
        return None;
    }
    let wide = e.extf(x, Type::float32(e.cx));
    Some(e.truncf(f(e, wide), ty))
}

/// Horner's scheme: `coefs[0]·x^(n-1) + … + coefs[n-1]`.
fn horner<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, coefs: &[f64]) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let mut p = e.f(ty, coefs[0]);
    for &c in &coefs[1..] {
        p = e.fma(p, x, e.f(ty, c));
    }
    p
}

fn clamp<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>, lo: f64, hi: f64) -> MValue<'c, 'b> {
    let ty = x.r#type();
    e.minimumf(e.maximumf(x, e.f(ty, lo)), e.f(ty, hi))
}

/// `exp(x)`.
pub(crate) fn exp<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>) -> MValue<'c, 'b> {
    if let Some(y) = in_f32(e, x, exp) {
        return y;
    }
    let ty = x.r#type();
    if !is_f32(e, ty) {
        return e.exp(x);
    }
    let i32t = e.int_type(32);
    // Clamped so that n is in [-125, 128] (2^(n-1) a normal number); the
    // ends are patched below.
    let xc = clamp(e, x, -86.6, 88.722_839);
    let n = e.floor(e.fma(xc, e.f(ty, std::f64::consts::LOG2_E), e.f(ty, 0.5)));
    // r = x - n·ln2, with ln2 split in two for precision.
    let r = e.fma(n, e.f(ty, -0.693_359_375), xc);
    let r = e.fma(n, e.f(ty, 2.121_944_4e-4), r);
    let p = horner(
        e,
        r,
        &[
            1.987_569_15e-4,
            1.398_199_950_7e-3,
            8.333_451_907_3e-3,
            4.166_579_589_4e-2,
            1.666_666_545_9e-1,
            5.000_000_120_1e-1,
        ],
    );
    let r2 = e.mulf(r, r);
    let p = e.fma(p, r2, e.addf(r, e.f(ty, 1.0)));
    // 2^n as 2 · 2^(n-1), the latter from the exponent bits.
    let ni = e.fptosi(n, i32t);
    let bits = e.shli(e.addi(ni, e.i(i32t, 126)), e.i(i32t, 23));
    let scale = e.bitcast(bits, ty);
    let y = e.mulf(e.mulf(p, scale), e.f(ty, 2.0));
    // Overflow to +inf, underflow to 0, NaN through.
    let y = e.select(
        e.cmpf(CmpfPredicate::Ogt, x, e.f(ty, 88.722_839)),
        e.f(ty, f64::INFINITY),
        y,
    );
    let y = e.select(
        e.cmpf(CmpfPredicate::Olt, x, e.f(ty, -86.6)),
        e.f(ty, 0.0),
        y,
    );
    e.select(e.cmpf(CmpfPredicate::Uno, x, x), x, y)
}

/// `log(x)`.
pub(crate) fn log<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>) -> MValue<'c, 'b> {
    if let Some(y) = in_f32(e, x, log) {
        return y;
    }
    let ty = x.r#type();
    if !is_f32(e, ty) {
        return e.log(x);
    }
    let i32t = e.int_type(32);
    let bits = e.bitcast(x, i32t);
    // x = m · 2^k with m in [0.5, 1).
    let k = e.subi(e.shrui(bits, e.i(i32t, 23)), e.i(i32t, 126));
    let mbits = e.ori(e.andi(bits, e.i(i32t, 0x007f_ffff)), e.i(i32t, 0x3f00_0000));
    let m = e.bitcast(mbits, ty);
    let kf = e.sitofp(k, ty);
    // With m < √½: use 2m - 1 and k - 1, so the argument is in [√½ - 1, √2 - 1).
    let small = e.cmpf(
        CmpfPredicate::Olt,
        m,
        e.f(ty, std::f64::consts::FRAC_1_SQRT_2),
    );
    let one = e.f(ty, 1.0);
    let xm = e.select(small, e.subf(e.addf(m, m), one), e.subf(m, one));
    let kf = e.select(small, e.subf(kf, one), kf);
    let z = e.mulf(xm, xm);
    let p = horner(
        e,
        xm,
        &[
            7.037_683_629_2e-2,
            -1.151_461_031_0e-1,
            1.167_699_874_0e-1,
            -1.242_014_084_6e-1,
            1.424_932_278_7e-1,
            -1.666_805_766_5e-1,
            2.000_071_476_5e-1,
            -2.499_999_399_3e-1,
            3.333_333_117_4e-1,
        ],
    );
    let y = e.mulf(e.mulf(p, xm), z);
    let y = e.fma(kf, e.f(ty, -2.121_944_4e-4), y);
    let y = e.fma(z, e.f(ty, -0.5), y);
    let y = e.addf(xm, y);
    let y = e.fma(kf, e.f(ty, 0.693_359_375), y);
    // log(0) = -inf, log(<0) = NaN, log(inf) = inf, NaN through.
    let y = e.select(
        e.cmpf(CmpfPredicate::Oeq, x, e.f(ty, 0.0)),
        e.f(ty, f64::NEG_INFINITY),
        y,
    );
    let y = e.select(
        e.cmpf(CmpfPredicate::Olt, x, e.f(ty, 0.0)),
        e.f(ty, f64::NAN),
        y,
    );
    let y = e.select(e.cmpf(CmpfPredicate::Oeq, x, e.f(ty, f64::INFINITY)), x, y);
    e.select(e.cmpf(CmpfPredicate::Uno, x, x), x, y)
}

/// `tanh(x)`.
pub(crate) fn tanh<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>) -> MValue<'c, 'b> {
    if let Some(y) = in_f32(e, x, tanh) {
        return y;
    }
    let ty = x.r#type();
    if !is_f32(e, ty) {
        return e.tanh(x);
    }
    let xc = clamp(e, x, -7.905_311_107_635_498, 7.905_311_107_635_498);
    let x2 = e.mulf(xc, xc);
    let p = horner(
        e,
        x2,
        &[
            -2.760_768_477_423_55e-16,
            2.000_187_904_824_77e-13,
            -8.604_671_522_137_35e-11,
            5.122_297_090_371_14e-8,
            1.485_722_357_179_79e-5,
            6.372_619_288_754_36e-4,
            4.893_524_558_917_86e-3,
        ],
    );
    let p = e.mulf(xc, p);
    let q = horner(
        e,
        x2,
        &[
            1.198_258_394_667_02e-6,
            1.185_347_056_866_54e-4,
            2.268_434_632_439_00e-3,
            4.893_525_185_543_85e-3,
        ],
    );
    let y = e.divf(p, q);
    // Tiny inputs: tanh(x) = x (also keeps -0); NaN through (olt 4).
    let tiny = e.cmpf(CmpfPredicate::Olt, e.absf(x), e.f(ty, 0.0004));
    let y = e.select(tiny, x, y);
    e.select(e.cmpf(CmpfPredicate::Uno, x, x), x, y)
}

/// `erf(x)`.
pub(crate) fn erf<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>) -> MValue<'c, 'b> {
    if let Some(y) = in_f32(e, x, erf) {
        return y;
    }
    let ty = x.r#type();
    if !is_f32(e, ty) {
        return e.erf(x);
    }
    let xc = clamp(e, x, -4.0, 4.0);
    let x2 = e.mulf(xc, xc);
    let p = horner(
        e,
        x2,
        &[
            -2.726_142_258_013_06e-10,
            2.770_681_424_959_02e-8,
            -2.101_024_020_825_08e-6,
            -5.692_506_394_623_46e-5,
            -7.349_906_303_268_55e-4,
            -2.954_599_808_540_25e-3,
            -1.609_603_332_624_15e-2,
        ],
    );
    let p = e.mulf(xc, p);
    let q = horner(
        e,
        x2,
        &[
            -1.456_607_184_649_96e-5,
            -2.133_740_552_789_05e-4,
            -1.682_826_974_382_03e-3,
            -7.373_329_167_204_68e-3,
            -1.426_473_905_141_89e-2,
        ],
    );
    let y = e.divf(p, q);
    e.select(e.cmpf(CmpfPredicate::Uno, x, x), x, y)
}

/// `1 / (1 + exp(-x))`.
pub(crate) fn sigmoid<'c, 'b>(e: Emitter<'c, 'b>, x: MValue<'c, 'b>) -> MValue<'c, 'b> {
    if let Some(y) = in_f32(e, x, sigmoid) {
        return y;
    }
    let ty = x.r#type();
    let one = e.f(ty, 1.0);
    let ex = exp(e, e.negf(x));
    e.divf(one, e.addf(one, ex))
}
