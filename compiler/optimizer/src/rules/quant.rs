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
//!
//! A MatMul of two DequantizeLinear (the QDQ format of statically
//! quantized models) whose weights are constant is the same integer
//! product, scaled: `(xq − zx)·sx · (W − zw)·sw = ((xq − zx)·(W − zw))·(sx·sw)`
//! for per-tensor `sx`, `zx` and per-tensor or per-column `sw`, `zw`. The
//! integer sum is exact where the float one rounds at every step.

use egg::Id;
use onnx_mlc_dialect::packing::{pack_int8_columns, PackedInt8};
use onnx_mlc_dialect::{Attr, ElemType, OpKind, TensorData};

use super::util::{const_of, is_absent, is_const, static_dims_of, tensor_of, Builder};
use super::Rule;
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // MatMulInteger(a, B, za, zb) = PackedMatMulInteger(a, pack(B'), Σₖ B', za, zb')   (B constant [K, N]; B' = B − 128, zb' = zb − 128 for a uint8 B)
        rw!("pack-matmulinteger"; "(MatMulInteger ?a ?b ?az ?bz)" => pack_matmul_integer; if is_const("?b")),
        // MatMul(DQ(xq, sx, zx), DQ(W, sw, zw)) = Cast(PackedMatMulInteger(xq, pack(W'), Σₖ W', zx, zw'))·(sx·sw)   (W constant [K, N]; sx, zx per tensor; sw, zw per tensor or per column)
        rw!("pack-dq-matmul"; "(MatMul (DequantizeLinear@dx ?xq ?sx ?zx) (DequantizeLinear@dw ?w ?sw ?zw))" => pack_dq_matmul; if is_const("?w")),
        // Gemm(DQ(xq, sx, zx), DQ(W, sw, zw), c) = Cast(PackedMatMulInteger(xq, pack(W'), Σₖ W', zx, zw'))·(sx·sw) + c   (no transposes, alpha = beta = 1)
        rw!("pack-dq-gemm"; "(Gemm@g (DequantizeLinear@dx ?xq ?sx ?zx) (DequantizeLinear@dw ?w ?sw ?zw) ?c)" => pack_dq_gemm; if is_const("?w")),
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
    if !activations(b, a, az) {
        return None;
    }
    let [packed, colsum, zero] = packed_weights(b, w, bz)?;
    b.op(
        OpKind::PackedMatMulInteger,
        vec![],
        &[a, packed, colsum, az, zero],
    )
}

/// Whether `a` (with zero point `az`) can be the product's left operand:
/// an 8-bit matrix (or a batch of them), one zero point.
fn activations(b: &Builder, a: Id, az: Id) -> bool {
    let g = b.graph();
    let Some(ty) = tensor_of(g, a) else {
        return false;
    };
    matches!(ty.elem, ElemType::U8 | ElemType::I8)
        && ty.rank().is_some_and(|r| r >= 2)
        && (is_absent(g, az) || numel(b, az) == Some(1))
}

fn numel(b: &Builder, id: Id) -> Option<i64> {
    Some(static_dims_of(b.graph(), id)?.iter().product())
}

/// The constant `[K, N]` 8-bit weights `w` with zero point `wz` (absent,
/// per tensor or per column) as the packed product's operands: the
/// packed bytes, the column sums and the int32 zero point (absent when
/// it is 0), a uint8 `w` shifted into int8.
fn packed_weights(b: &mut Builder, w: Id, wz: Id) -> Option<[Id; 3]> {
    let g = b.graph();
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
    // The zero point (0 when absent), shifted with the weights.
    let (zero_dims, zero) = if is_absent(g, wz) {
        (vec![], vec![0])
    } else {
        let zd = const_of(g, wz)?;
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
    Some([packed, colsum, zero])
}

/// Whether the DequantizeLinear matched at `label` is per tensor, or per
/// column of a matrix (`axis` 1 or −1) when `per_column`, without blocks,
/// into `f32`.
fn plain_dequantize(b: &Builder, m: &Match, label: &str, scale: Id, per_column: bool) -> bool {
    let key = m.key(label);
    let g = b.graph();
    let axis = key.int("axis").unwrap_or(1);
    let columns_ok = match numel(b, scale) {
        Some(1) => true,
        Some(_) => {
            per_column
                && (axis == 1 || axis == -1)
                && static_dims_of(g, scale).is_some_and(|d| d.len() == 1)
        }
        None => false,
    };
    key.int("block_size").unwrap_or(0) == 0
        && tensor_of(g, scale).is_some_and(|t| t.elem == ElemType::F32)
        && columns_ok
}

/// The QDQ product matched by `pack-dq-matmul` or `pack-dq-gemm`: the
/// packed integer product, cast to `f32` and scaled by `sx·sw`.
fn pack_dq_matmul(b: &mut Builder, m: &Match) -> Option<Id> {
    let (xq, sx, zx) = (m.class("?xq"), m.class("?sx"), m.class("?zx"));
    let (w, sw, zw) = (m.class("?w"), m.class("?sw"), m.class("?zw"));
    if !(activations(b, xq, zx)
        && plain_dequantize(b, m, "@dx", sx, false)
        && plain_dequantize(b, m, "@dw", sw, true))
    {
        return None;
    }
    let [packed, colsum, zero] = packed_weights(b, w, zw)?;
    let product = b.op(
        OpKind::PackedMatMulInteger,
        vec![],
        &[xq, packed, colsum, zx, zero],
    )?;
    let to = Attr::Int(i64::from(ElemType::F32.onnx_code()));
    let sums = b.op(OpKind::Cast, vec![("to", to)], &[product])?;
    let scale = b.op(OpKind::Mul, vec![], &[sx, sw])?;
    b.op(OpKind::Mul, vec![], &[sums, scale])
}

fn pack_dq_gemm(b: &mut Builder, m: &Match) -> Option<Id> {
    let key = m.key("@g");
    let plain = key.int("transA").unwrap_or(0) == 0
        && key.int("transB").unwrap_or(0) == 0
        && key.float("alpha").unwrap_or(1.0) == 1.0
        && key.float("beta").unwrap_or(1.0) == 1.0;
    if !plain {
        return None;
    }
    let product = pack_dq_matmul(b, m)?;
    let c = m.class("?c");
    if is_absent(b.graph(), c) {
        return Some(product);
    }
    b.op(OpKind::Add, vec![], &[product, c])
}
