//! The arithmetic of the elementwise ops that is more than one `arith`
//! op: integer and float `Mod`, `Pow` (by multiplications for small
//! constant exponents, by binary powering for integers), shifts whose
//! amount may be out of range, and the folds of the variadic ops.

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpData;
use onnx_mlc_dialect::schema::ElementwiseOp;
use onnx_mlc_dialect::ElemType;

use super::cast::to_float;
use crate::builder::{BinaryOp, CastOp, CmpfPredicate, CmpiPredicate, Emitter, Predicate};
use crate::kernel::KernelBuilder;
use crate::ops::common::const_data;

/// `x << y` or `x >> y` (arithmetic for signed types). A shift amount
/// out of `[0, width)` (where `arith` shifts are poison) gives 0, or for a
/// signed right shift the sign fill (`-1` for negative `x`), as the
/// reference does.
pub(super) fn bit_shift<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
    t: ElemType,
    left: bool,
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let bits = i64::from(t.bit_width());
    let signed = t.is_signed_int();
    let shift = match (left, signed) {
        (true, _) => BinaryOp::ShLI,
        (false, true) => BinaryOp::ShRSI,
        (false, false) => BinaryOp::ShRUI,
    };
    let shifted = e.binary(shift, x, y);
    let out_of_range = if !left && signed {
        e.shrsi(x, e.i(ty, bits - 1))
    } else {
        e.i(ty, 0)
    };
    // Unsigned: a negative amount is a huge one.
    let in_range = e.cmpi(CmpiPredicate::Ult, y, e.i(ty, bits));
    e.select(in_range, shifted, out_of_range)
}

/// Integer `Mod`: the remainder with the divisor's sign (`fmod = 0`,
/// Python's `%`) or the dividend's (`fmod = 1`, C's `%`). A zero divisor
/// gives 0 (ONNX leaves it undefined; the hardware would trap), and so does
/// `x mod -1` (`INT_MIN rem -1` traps too).
pub(super) fn int_mod<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
    signed: bool,
    fmod: bool,
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let zero = e.i(ty, 0);
    let mut trivial = e.cmpi(CmpiPredicate::Eq, y, zero);
    if signed {
        let minus_one = e.cmpi(CmpiPredicate::Eq, y, e.i(ty, -1));
        trivial = e.ori(trivial, minus_one);
    }
    let safe_y = e.select(trivial, e.i(ty, 1), y);
    let r = e.binary(
        if signed {
            BinaryOp::RemSI
        } else {
            BinaryOp::RemUI
        },
        x,
        safe_y,
    );
    let r = if signed && !fmod {
        // Move a nonzero remainder whose sign differs from the divisor's.
        let r_neg = e.cmpi(CmpiPredicate::Slt, r, zero);
        let y_neg = e.cmpi(CmpiPredicate::Slt, safe_y, zero);
        let differ = e.xori(r_neg, y_neg);
        let fix = e.andi(differ, e.cmpi(CmpiPredicate::Ne, r, zero));
        e.select(fix, e.addi(r, safe_y), r)
    } else {
        r
    };
    e.select(trivial, zero, r)
}

/// Float `Mod`: C's `fmod` (`fmod = 1`, the dividend's sign), or with the
/// divisor's sign like numpy's `mod` (`fmod = 0`: a nonzero remainder of
/// the other sign moves by `y`, a zero one takes `y`'s sign).
pub(super) fn float_mod<'c, 'b>(
    e: Emitter<'c, 'b>,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
    fmod: bool,
) -> MValue<'c, 'b> {
    let zero = e.f(x.r#type(), 0.0);
    let mut r = e.remf(x, y);
    if !fmod {
        let r_neg = e.cmpf(CmpfPredicate::Olt, r, zero);
        let y_neg = e.cmpf(CmpfPredicate::Olt, y, zero);
        let differ = e.xori(r_neg, y_neg);
        let fix = e.andi(differ, e.cmpf(CmpfPredicate::One, r, zero));
        r = e.select(fix, e.addf(r, y), r);
        let signed_zero = e.copysign(zero, y);
        r = e.select(e.cmpf(CmpfPredicate::Oeq, r, zero), signed_zero, r);
    }
    r
}

/// `x^y`: multiplications for a constant small integer exponent (2, 3, -1,
/// …), `sqrt` for 0.5, else `math.powf`.
pub(super) fn pow<'c, 'b>(
    kb: &KernelBuilder<'c, '_>,
    e: Emitter<'c, 'b>,
    data: &OpData,
    x: MValue<'c, 'b>,
    y: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let exponent = data.inputs[1]
        .and_then(|v| const_data(kb.model, v))
        .and_then(|d| d.to_f64s())
        .filter(|v| v.len() == 1)
        .map(|v| v[0]);
    let ty = x.r#type();
    match exponent {
        Some(0.5) => e.sqrt(x),
        Some(p) if p.fract() == 0.0 && p.abs() <= 8.0 => {
            let n = p.abs() as u32;
            // Binary powering.
            let mut acc: Option<MValue> = None;
            let mut base = x;
            let mut k = n;
            while k > 0 {
                if k & 1 == 1 {
                    acc = Some(match acc {
                        Some(a) => e.mulf(a, base),
                        None => base,
                    });
                }
                k >>= 1;
                if k > 0 {
                    base = e.mulf(base, base);
                }
            }
            let r = acc.unwrap_or_else(|| e.f(ty, 1.0));
            if p < 0.0 {
                e.divf(e.f(ty, 1.0), r)
            } else {
                r
            }
        }
        _ => e.powf(x, y),
    }
}

/// `x^p` for an integer `x` (Pow's result has the base's type): through
/// f64 for a float exponent, else by binary powering over the exponent's
/// 64 bits; a negative integer exponent gives the truncated `1/x^|p|`
/// (0 unless `x` is ±1).
pub(super) fn int_pow<'c, 'b>(
    e: Emitter<'c, 'b>,
    (x, t): (MValue<'c, 'b>, ElemType),
    (p, pt): (MValue<'c, 'b>, ElemType),
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let signed = t.is_signed_int();
    let f64t = melior::ir::Type::float64(e.cx);
    if pt.is_float() {
        let xf = to_float(e, x, t, (ElemType::F64, f64t));
        let pf = to_float(e, p, pt, (ElemType::F64, f64t));
        let r = e.powf(xf, pf);
        return e.cast(
            if signed {
                CastOp::FPToSI
            } else {
                CastOp::FPToUI
            },
            r,
            ty,
        );
    }
    let i64t = e.int_type(64);
    let widen = |v: MValue<'c, 'b>, elem: ElemType| {
        if elem.bit_width() == 64 {
            v
        } else if elem.is_signed_int() {
            e.extsi(v, i64t)
        } else {
            e.extui(v, i64t)
        }
    };
    let (xw, pw) = (widen(x, t), widen(p, pt));
    let one = e.i(i64t, 1);
    let r = e.for_loop(e.index(0), e.index(64), &[one, xw], |le, bit, c| {
        let bit = le.index_cast(bit, i64t);
        let set = le.andi(le.shrui(pw, bit), le.i(i64t, 1));
        let set = le.cmpi(CmpiPredicate::Ne, set, le.i(i64t, 0));
        let acc = le.select(set, le.muli(c[0], c[1]), c[0]);
        vec![acc, le.muli(c[1], c[1])]
    })[0];
    let negative = e.cmpi(CmpiPredicate::Slt, pw, e.i(i64t, 0));
    let odd = e.cmpi(CmpiPredicate::Ne, e.andi(pw, one), e.i(i64t, 0));
    let minus_one = e.i(i64t, -1);
    let of_minus_one = e.select(odd, minus_one, one);
    let inverse = e.select(
        e.cmpi(CmpiPredicate::Eq, xw, one),
        one,
        e.select(
            e.cmpi(CmpiPredicate::Eq, xw, minus_one),
            of_minus_one,
            e.i(i64t, 0),
        ),
    );
    let r = e.select(negative, inverse, r);
    if t.bit_width() == 64 {
        r
    } else {
        e.trunci(r, ty)
    }
}

pub(super) fn fold<'c, 'b>(
    e: Emitter<'c, 'b>,
    mut xs: impl Iterator<Item = MValue<'c, 'b>>,
    op: BinaryOp,
) -> MValue<'c, 'b> {
    let first = xs.next().expect("at least one operand");
    xs.fold(first, |acc, x| e.binary(op, acc, x))
}

pub(super) fn max_int(t: ElemType) -> BinaryOp {
    if t.is_signed_int() {
        BinaryOp::MaxSI
    } else {
        BinaryOp::MaxUI
    }
}

pub(super) fn min_int(t: ElemType) -> BinaryOp {
    if t.is_signed_int() {
        BinaryOp::MinSI
    } else {
        BinaryOp::MinUI
    }
}

/// The comparison of a comparison op (ordered for floats; signed or
/// unsigned by the operand type for integers).
pub(super) fn comparison(kind: ElementwiseOp, t: ElemType) -> Predicate {
    use ElementwiseOp::*;
    if t.is_float() {
        return Predicate::Float(match kind {
            Equal => CmpfPredicate::Oeq,
            Greater => CmpfPredicate::Ogt,
            GreaterOrEqual => CmpfPredicate::Oge,
            Less => CmpfPredicate::Olt,
            _ => CmpfPredicate::Ole,
        });
    }
    let signed = t.is_signed_int();
    Predicate::Int(match (kind, signed) {
        (Equal, _) => CmpiPredicate::Eq,
        (Greater, true) => CmpiPredicate::Sgt,
        (Greater, false) => CmpiPredicate::Ugt,
        (GreaterOrEqual, true) => CmpiPredicate::Sge,
        (GreaterOrEqual, false) => CmpiPredicate::Uge,
        (Less, true) => CmpiPredicate::Slt,
        (Less, false) => CmpiPredicate::Ult,
        (_, true) => CmpiPredicate::Sle,
        (_, false) => CmpiPredicate::Ule,
    })
}
