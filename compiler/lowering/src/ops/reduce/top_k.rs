//! TopK: each row along the axis is scanned once, in index order, into
//! the outputs used as a buffer of the `k` best elements so far, kept in
//! rank order: an element that ranks before the buffer's last (or finds
//! it not yet full) is inserted at its place and the elements after it
//! move one slot down. Equal elements keep their index order, as ONNX
//! asks. The cost is O(n) per row plus O(k) per insertion: about
//! O(n + k²·log(n/k)) on unordered data (k·log(n/k) insertions), O(n·k)
//! at worst (an ascending row for `largest`), where comparing every pair
//! would cost O(n²·k).

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, Value};

use crate::builder::{CmpfPredicate, CmpiPredicate, Predicate};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::norm_axis;
use crate::symbols::{graph_input, sized_dims, Check};

/// The conditions TopK's lowering relies on, checked at run time
/// (`symbols::Check`): the values and indices have the input's dims but
/// along the axis, where they have `k` ≤ the input's; a `k` given as a
/// graph input (one entry) is the outputs' length along the axis (which
/// the lowering takes from their type); a `k` computed by the model sized
/// the outputs already (inference, or the host program's sizes step at run
/// time). An error names what cannot be lowered: an unknown size.
pub(super) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let x = dims(data.inputs[0])?;
    let mut out = vec![];
    for y in data.results.iter().map(|&r| dims(r)) {
        let y = y?;
        if y.len() != x.len() || x.is_empty() {
            return Err("outputs of another rank than the input");
        }
        let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), x.len());
        for (d, (a, b)) in x.iter().zip(&y).enumerate() {
            let check = if d == axis {
                Check::AtLeast(a.sub(b), 0)
            } else {
                Check::Equal(a.clone(), b.clone())
            };
            if a != b && !out.contains(&check) {
                out.push(check);
            }
        }
        let k = data.inputs.get(1).copied().flatten();
        if let Some((k, input)) = k.and_then(|k| Some((k, graph_input(model, k)?))) {
            let len = dims(Some(k))?;
            if let [n] = &len[..] {
                if *n != Dim::Known(1) {
                    out.push(Check::Equal(n.clone(), Dim::Known(1)));
                }
            }
            let check = Check::Value {
                input,
                elem: ElemType::I64,
                entry: None,
                expected: y[axis].clone(),
            };
            if !out.contains(&check) {
                out.push(check);
            }
        }
    }
    Ok(out)
}

/// Lowers TopK.
pub(super) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("data");
    let (xd, elem) = kb.shape(x)?;
    if elem == ElemType::Bool || matches!(elem, ElemType::F16 | ElemType::BF16) {
        return Err(kb.unsupported(op, &format!("{elem} inputs")));
    }
    let rank = xd.len();
    let axis = norm_axis(data.attrs.int("axis").unwrap_or(-1), rank);
    let largest = data.attrs.int("largest").unwrap_or(1) != 0;
    let (values, indices) = (data.results[0], data.results[1]);
    let (values, indices) = match (values, indices) {
        (Some(v), Some(i)) => (v, i),
        _ => return Err(kb.unsupported(op, "an unused output")),
    };
    let float = elem.is_float();
    let before = match (float, elem.is_signed_int(), largest) {
        (true, _, true) => Predicate::Float(CmpfPredicate::Ogt),
        (true, _, false) => Predicate::Float(CmpfPredicate::Olt),
        (false, true, true) => Predicate::Int(CmpiPredicate::Sgt),
        (false, true, false) => Predicate::Int(CmpiPredicate::Slt),
        (false, false, true) => Predicate::Int(CmpiPredicate::Ugt),
        (false, false, false) => Predicate::Int(CmpiPredicate::Ult),
    };
    let xt = kb.tensor(x);
    let (vinit, iinit) = (kb.init(values)?, kb.init(indices)?);
    let (yd, _) = kb.shape(values)?;
    let e = kb.e;
    let xs: Vec<MValue> = e.sizes_of(xt, &xd).iter().map(|s| s.value(&e)).collect();
    let k = e.sizes_of(vinit, &yd)[axis].value(&e);
    let (zero, one) = (e.index(0), e.index(1));
    let outer: Vec<usize> = (0..rank).filter(|&d| d != axis).collect();
    let rows = outer.iter().fold(one, |acc, &d| e.muli(acc, xs[d]));
    // An empty selection (k = 0) reads no buffer entry: no element is seen.
    let n = e.select(e.cmpi(CmpiPredicate::Eq, k, zero), zero, xs[axis]);
    let out = e.for_loop(zero, rows, &[vinit, iinit], |re, r, c| {
        let mut row = vec![r; rank];
        let mut rest = r;
        for &d in outer.iter().rev() {
            row[d] = re.remui(rest, xs[d]);
            rest = re.divui(rest, xs[d]);
        }
        let best = re.for_loop(zero, n, &[c[0], c[1], zero], |ie, i, s| {
            let (v, ix, filled) = (s[0], s[1], s[2]);
            let xi = ie.extract(xt, &along(&row, axis, i));
            let last = ie.subi(ie.maxui(filled, one), one);
            let worst = ie.extract(v, &along(&row, axis, last));
            let enters = ie.ori(
                ie.cmpi(CmpiPredicate::Ult, filled, k),
                ie.compare(before, xi, worst),
            );
            // Its place: after every kept element it does not rank before
            // (ties keep the earlier index first).
            let seen = ie.select(enters, filled, zero);
            let place = ie.for_loop(zero, seen, &[zero], |pe, t, c| {
                let behind = pe.compare(before, xi, pe.extract(v, &along(&row, axis, t)));
                vec![pe.addi(c[0], pe.select(behind, zero, one))]
            })[0];
            // Move the kept elements from `place` on one slot down (the
            // last one drops out when the buffer is full), from the end.
            let end = ie.select(enters, ie.minui(filled, ie.subi(k, one)), place);
            let moved = ie.for_loop(zero, ie.subi(end, place), &[v, ix], |se, s, c| {
                let from = se.subi(se.subi(end, one), s);
                let to = se.addi(from, one);
                let shift = |t| {
                    se.insert(
                        se.extract(t, &along(&row, axis, from)),
                        t,
                        &along(&row, axis, to),
                    )
                };
                vec![shift(c[0]), shift(c[1])]
            });
            let put = |t, new| {
                let old = ie.extract(t, &along(&row, axis, place));
                ie.insert(ie.select(enters, new, old), t, &along(&row, axis, place))
            };
            let i64t = ie.int_type(64);
            vec![
                put(moved[0], xi),
                put(moved[1], ie.index_cast(i, i64t)),
                ie.select(enters, ie.minui(ie.addi(filled, one), k), filled),
            ]
        });
        vec![best[0], best[1]]
    });
    kb.define(values, out[0]);
    kb.define(indices, out[1]);
    Ok(())
}

/// The position `row` with its `axis` coordinate replaced by `p`.
fn along<'c, 'x>(row: &[MValue<'c, 'x>], axis: usize, p: MValue<'c, 'x>) -> Vec<MValue<'c, 'x>> {
    let mut at = row.to_vec();
    at[axis] = p;
    at
}
