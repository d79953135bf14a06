//! Det (ai.onnx 11, 22): the determinant of each `[M, M]` matrix of a
//! `[…, M, M]` tensor, by Gaussian elimination with partial pivoting
//! (LU, as LAPACK's `getrf` that numpy uses), unrolled over the `M`
//! columns of a static `M`:
//!
//! ```text
//! for k in 0..M:
//!   p    = argmax over rows r ≥ k of |A[r, k]|      (the first on ties)
//!   swap rows k and p of A (Where on one-hot rows); sign = -sign when p ≠ k
//!   det  = det · A[k, k]
//!   A[r, :] -= A[r, k] / A[k, k] · A[k, :]          for r > k
//! det = sign · det
//! ```
//!
//! A zero pivot (a singular matrix; its column below is then zero too)
//! divides by 1 instead, so the determinant is an exact 0, not a NaN.
//! Not handled (the op stays): `M` unknown or above [`MAX_ORDER`] (the
//! lowering's loops compute those: `compiler/lowering/src/ops/linalg/det.rs`),
//! element types other than f32 and f64.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The largest matrix order unrolled (about 30 ops per column).
const MAX_ORDER: i64 = 64;

/// Expands Det as described in the module docs.
pub(super) fn det(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return None;
    }
    let dims = b.tensor(x)?.dims()?;
    let rank = dims.len();
    if rank < 2 {
        return None;
    }
    let order = (dims[rank - 1].as_known()?, dims[rank - 2].as_known()?);
    let m = match order {
        (m, n) if m == n && (1..=MAX_ORDER).contains(&m) => m,
        _ => return None,
    };
    let rows: Vec<i64> = (0..m).collect();
    let iota = b.ints(&rows)?;
    let (one, zero, minus_one) = (
        b.scalar(elem, 1.0)?,
        b.scalar(elem, 0.0)?,
        b.scalar(elem, -1.0)?,
    );
    let mut a = x;
    let mut det = None;
    let mut sign = None;
    for k in 0..m {
        let k_index = b.constant(TensorData::scalar(k))?;
        // The pivot row: the largest |A[r, k]| among rows r ≥ k.
        let column = b.op(Gather, &[a, k_index], &[("axis", Attr::Int(-1))])?;
        let magnitude = b.unary(Abs, column)?;
        let below = b.binary(GreaterOrEqual, iota, k_index)?;
        let candidates = b.select(below, magnitude, minus_one)?;
        let pivot_row = b.op(
            ArgMax,
            &[candidates],
            &[("axis", Attr::Int(-1)), ("keepdims", Attr::Int(1))],
        )?;
        if k + 1 < m {
            // Swap rows k and p.
            let is_pivot_row = b.binary(Equal, iota, pivot_row)?;
            let is_pivot = b.squeeze_like(Unsqueeze, is_pivot_row, &[-1])?;
            let is_k = b.binary(Equal, iota, k_index)?;
            let is_k = b.squeeze_like(Unsqueeze, is_k, &[-1])?;
            let row_k = row(b, a, k_index)?;
            let one_hot = b.cast(is_pivot_row, elem)?;
            let one_hot = b.squeeze_like(Unsqueeze, one_hot, &[-2])?;
            let row_p = b.binary(MatMul, one_hot, a)?;
            let other = b.select(is_pivot, row_k, a)?;
            a = b.select(is_k, row_p, other)?;
            let stayed = b.binary(Equal, pivot_row, k_index)?;
            let stayed = b.squeeze_like(Squeeze, stayed, &[-1])?;
            let flip = b.select(stayed, one, minus_one)?;
            sign = Some(match sign {
                Some(s) => b.binary(Mul, s, flip)?,
                None => flip,
            });
        }
        let row_k = row(b, a, k_index)?;
        let pivot = b.op(Gather, &[row_k, k_index], &[("axis", Attr::Int(-1))])?;
        let pivot = b.squeeze_like(Squeeze, pivot, &[-1])?;
        det = Some(match det {
            Some(d) => b.binary(Mul, d, pivot)?,
            None => pivot,
        });
        if k + 1 < m {
            // Eliminate column k below the pivot.
            let is_zero = b.binary(Equal, pivot, zero)?;
            let divisor = b.select(is_zero, one, pivot)?;
            let divisor = b.squeeze_like(Unsqueeze, divisor, &[-1])?;
            let column = b.op(Gather, &[a, k_index], &[("axis", Attr::Int(-1))])?;
            let factor = b.binary(Div, column, divisor)?;
            let after = b.binary(Greater, iota, k_index)?;
            let factor = b.select(after, factor, zero)?;
            let factor = b.squeeze_like(Unsqueeze, factor, &[-1])?;
            let update = b.binary(Mul, factor, row_k)?;
            a = b.binary(Sub, a, update)?;
        }
    }
    let det = det?;
    Some(vec![Some(match sign {
        Some(s) => b.binary(Mul, s, det)?,
        None => det,
    })])
}

/// Row `k` of each matrix, `[…, 1, M]`.
fn row(b: &mut Builder, a: Value, k: Value) -> Option<Value> {
    let r = b.op(Gather, &[a, k], &[("axis", Attr::Int(-2))])?;
    b.squeeze_like(Unsqueeze, r, &[-2])
}
