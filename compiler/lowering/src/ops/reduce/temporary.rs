//! The temporaries the reductions accumulate in: their run-time sizes,
//! their initial values (a reduction's identity), and the maps reading
//! them back over the output.

use melior::ir::{AffineMap, Type, Value as MValue};
use melior::Context;
use onnx_mlc_dialect::ElemType;

use crate::builder::{elem_of, fill, identity_map, Emitter, Size};
use crate::kernel::KernelBuilder;
use crate::ops::operand::stat_map;

/// The identity of a reduction: `f64` for floats, raw bits for integers.
pub(super) fn constant<'c, 'b>(
    e: Emitter<'c, 'b>,
    ty: Type<'c>,
    elem: ElemType,
    v: Init,
) -> MValue<'c, 'b> {
    let bits = elem.bit_width();
    if elem.is_float() {
        return e.f(
            ty,
            match v {
                Init::Zero => 0.0,
                Init::One => 1.0,
                Init::Lowest => f64::NEG_INFINITY,
                Init::Highest => f64::INFINITY,
            },
        );
    }
    let signed = elem.is_signed_int();
    let value = match v {
        Init::Zero => 0,
        Init::One => 1,
        Init::Lowest if signed => i64::MIN >> (64 - bits),
        Init::Lowest => 0,
        Init::Highest if signed => i64::MAX >> (64 - bits),
        Init::Highest => -1,
    };
    e.i(ty, value)
}

#[derive(Copy, Clone)]
pub(super) enum Init {
    Zero,
    One,
    Lowest,
    Highest,
}

/// A fresh tensor of `dims` filled with a reduction identity, as a producer.
pub(super) fn filled<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    init: MValue<'c, 'a>,
    elem: ElemType,
    v: Init,
) -> MValue<'c, 'a> {
    let e = kb.e;
    let c = constant(e, elem_of(init), elem, v);
    kb.producer(fill(e, c, init))
        .result(0)
        .expect("one result")
        .into()
}

/// The run-time sizes of the temporary of a reduction over `reduced` of a
/// tensor of `sizes` (reduced dims dropped).
pub(super) fn stat_sizes<'c, 'a>(sizes: &[Size<'c, 'a>], reduced: &[bool]) -> Vec<Size<'c, 'a>> {
    sizes
        .iter()
        .zip(reduced)
        .filter(|(_, &r)| !r)
        .map(|(s, _)| *s)
        .collect()
}

/// The map reading a reduced temporary (reduced dims dropped) from loops
/// over the output (reduced dims kept as 1, or dropped too).
pub(super) fn result_map<'c>(cx: &'c Context, reduced: &[bool], keepdims: bool) -> AffineMap<'c> {
    if keepdims {
        stat_map(cx, reduced.len(), reduced)
    } else {
        let n = reduced.iter().filter(|&&r| !r).count();
        identity_map(cx, n)
    }
}
