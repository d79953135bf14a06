//! Det with symbolic sizes: the determinant of each `[M, M]` matrix of a
//! `[…, M, M]` tensor whose order or batch is known only at run time.
//!
//! A static order is expanded by the dialect (`decompose::det`, unrolled
//! over the columns); here the same Gaussian elimination with partial
//! pivoting runs as loops over a working copy of the input, one matrix at
//! a time:
//!
//! ```text
//! for k in 0..M:
//!   p    = the first row r ≥ k of largest |A[r, k]|
//!   swap rows k and p; sign = -sign when p ≠ k
//!   det  = det · A[k, k]
//!   A[r, c] -= A[r, k] / A[k, k] · A[k, c]      for r > k, c ≥ k
//! det = sign · det
//! ```
//!
//! A zero pivot divides by 1 instead (its column below is zero too), so a
//! singular matrix gives an exact 0, as the expansion does. The entry
//! checks that the matrices are square and the output's dims are the
//! input's batch dims.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{ElemType, Model};

use crate::builder::{CmpfPredicate, CmpiPredicate};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{equal, position};
use crate::symbols::{sized_dims, Check};

/// The entry's checks of Det: square matrices, the output's dims the
/// input's batch dims.
pub(super) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let x = sized_dims(model, data.inputs[0])?;
    let y = sized_dims(model, data.results[0])?;
    if x.len() < 2 || y.len() != x.len() - 2 {
        return Err("an input of rank below 2, or an output of another rank");
    }
    let mut out = vec![];
    let r = x.len();
    equal(&mut out, &x[r - 2], &x[r - 1]);
    for (a, b) in x.iter().zip(&y) {
        equal(&mut out, a, b);
    }
    Ok(out)
}

/// Lowers Det as loops (module docs).
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let (x, y) = (
        data.inputs[0].expect("input"),
        data.results[0].expect("output"),
    );
    let ((xd, elem), (yd, _)) = (kb.shape(x)?, kb.shape(y)?);
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return Err(kb.unsupported(op, &format!("{elem} matrices")));
    }
    if xd.len() < 2 || yd.len() != xd.len() - 2 {
        return Err(kb.unsupported(op, "an output of another rank than the batch"));
    }
    let (xt, init) = (kb.tensor(x), kb.init(y)?);
    let e = kb.e;
    let ft = if elem == ElemType::F64 {
        Type::float64(e.cx)
    } else {
        Type::float32(e.cx)
    };
    let m = e.sizes_of(xt, &xd)[xd.len() - 1].value(&e);
    let ys: Vec<MValue> = e.sizes_of(init, &yd).iter().map(|s| s.value(&e)).collect();
    let (zero, one) = (e.index(0), e.index(1));
    let batches = ys.iter().fold(one, |acc, &s| e.muli(acc, s));
    // Over the matrices: the output and the working copy of the input.
    let out = e.for_loop(zero, batches, &[init, xt], |be, b, c| {
        let lead = position(&be, b, &ys);
        let (unit, nothing) = (be.f(ft, 1.0), be.f(ft, 0.0));
        // Over the columns: the matrix, the product of pivots, the sign.
        let eliminated = be.for_loop(zero, m, &[c[1], unit, unit], |ke, k, s| {
            let first = ke.absf(ke.extract(s[0], &at(&lead, k, k)));
            let pivot_row = ke.for_loop(ke.addi(k, one), m, &[k, first], |pe, r, best| {
                let v = pe.absf(pe.extract(s[0], &at(&lead, r, k)));
                let larger = pe.cmpf(CmpfPredicate::Ogt, v, best[1]);
                vec![pe.select(larger, r, best[0]), pe.select(larger, v, best[1])]
            })[0];
            let swapped = ke.for_loop(zero, m, &[s[0]], |se, col, a| {
                let top = se.extract(a[0], &at(&lead, k, col));
                let other = se.extract(a[0], &at(&lead, pivot_row, col));
                let a = se.insert(other, a[0], &at(&lead, k, col));
                vec![se.insert(top, a, &at(&lead, pivot_row, col))]
            })[0];
            let moved = ke.cmpi(CmpiPredicate::Ne, pivot_row, k);
            let sign = ke.select(moved, ke.negf(s[2]), s[2]);
            let pivot = ke.extract(swapped, &at(&lead, k, k));
            let singular = ke.cmpf(CmpfPredicate::Oeq, pivot, nothing);
            let divisor = ke.select(singular, unit, pivot);
            let reduced = ke.for_loop(ke.addi(k, one), m, &[swapped], |re, r, a| {
                let factor = re.divf(re.extract(a[0], &at(&lead, r, k)), divisor);
                re.for_loop(k, m, &[a[0]], |ce, col, a| {
                    let above = ce.extract(a[0], &at(&lead, k, col));
                    let v = ce.extract(a[0], &at(&lead, r, col));
                    let v = ce.subf(v, ce.mulf(factor, above));
                    vec![ce.insert(v, a[0], &at(&lead, r, col))]
                })
            })[0];
            vec![reduced, ke.mulf(s[1], pivot), sign]
        });
        let det = be.mulf(eliminated[2], eliminated[1]);
        vec![be.insert(det, c[0], &lead), eliminated[0]]
    });
    kb.define(y, out[0]);
    Ok(())
}

/// Entry `(row, col)` of the matrix at batch position `lead`.
fn at<'c, 'a>(
    lead: &[MValue<'c, 'a>],
    row: MValue<'c, 'a>,
    col: MValue<'c, 'a>,
) -> Vec<MValue<'c, 'a>> {
    [lead, &[row, col]].concat()
}
