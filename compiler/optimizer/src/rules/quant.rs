//! Quantization rules: integer products onto the 8-bit dot-product
//! kernels.
//!
//! A MatMulInteger whose `B` is a constant `[K, N]` matrix becomes a
//! `omlc.PackedMatMulInteger`: `B` is packed at compile time into the
//! layout of the dot-product instructions (`onnx_mlc_dialect::packing`,
//! four bytes of a column per 32-bit lane), which read it as it lies, and
//! its column sums turn `A`'s zero point into one subtraction per output.
//! The kernel multiplies unsigned by signed bytes (x86's `vpdpbusd`), so a
//! `uint8` `B` is packed shifted by −128 into `int8`, its zero point with
//! it: `(B − zb) = ((B − 128) − (zb − 128))`.

use egg::Id;
use onnx_mlc_dialect::packing::{pack_int8_columns, PackedInt8};
use onnx_mlc_dialect::{ElemType, OpKind, TensorData};

use super::util::{const_of, is_absent, is_const, tensor_of, Builder};
use super::Rule;
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // MatMulInteger(a, B, za, zb) = PackedMatMulInteger(a, pack(B'), Σₖ B', za, zb')   (B constant [K, N]; B' = B − 128, zb' = zb − 128 for a uint8 B)
        rw!("pack-matmulinteger"; "(MatMulInteger@o ?a ?b ?az ?bz)" => pack_matmul_integer; if is_const("?b")),
    ]
}

/// The shift that makes an 8-bit weight of `elem` signed.
fn signed_shift(elem: ElemType) -> Option<i64> {
    match elem {
        ElemType::I8 => Some(0),
        ElemType::U8 => Some(128),
        _ => None,
    }
}

fn pack_matmul_integer(b: &mut Builder, m: &Match) -> Option<Id> {
    let (a, w, az, bz) = (m.class("?a"), m.class("?b"), m.class("?az"), m.class("?bz"));
    let g = b.graph();
    let a_ty = tensor_of(g, a)?;
    if !matches!(a_ty.elem, ElemType::U8 | ElemType::I8) || a_ty.rank()? < 2 {
        return None;
    }
    if !is_absent(g, az) && tensor_of(g, az)?.static_dims()?.iter().product::<i64>() != 1 {
        return None;
    }
    let weights = const_of(g, w)?;
    let shift = signed_shift(weights.elem)?;
    let [k, n] = weights.dims[..] else {
        return None;
    };
    let values: Vec<i8> = weights
        .to_i64s()?
        .into_iter()
        .map(|v| i8::try_from(v - shift).ok())
        .collect::<Option<_>>()?;
    // B's zero point (0 when absent), shifted with B.
    let (zero_dims, zero) = if is_absent(g, bz) {
        (vec![], vec![0])
    } else {
        let zd = const_of(g, bz)?;
        let per_column = zd.dims == [n];
        if signed_shift(zd.elem)? != shift || (zd.numel() != 1 && !per_column) {
            return None;
        }
        let dims = if per_column { vec![n] } else { vec![] };
        (dims, zd.to_i64s()?)
    };
    let zero: Vec<i32> = zero
        .into_iter()
        .map(|z| i32::try_from(z - shift).ok())
        .collect::<Option<_>>()?;
    let PackedInt8 {
        packed,
        dims,
        colsum,
    } = pack_int8_columns(&values, k, n)?;
    let packed = b.add_constant(TensorData::from_vec(dims, &packed).ok()?);
    let colsum = b.add_constant(TensorData::from_vec(vec![n], &colsum).ok()?);
    let zero = if zero.iter().all(|&z| z == 0) {
        b.absent()
    } else {
        b.add_constant(TensorData::from_vec(zero_dims, &zero).ok()?)
    };
    b.op(
        OpKind::PackedMatMulInteger,
        vec![],
        &[a, packed, colsum, az, zero],
    )
}
