//! Matrix products: MatMul (numpy semantics: batched, broadcast, 1-D
//! promotion) and Gemm (`alpha·A'·B' + beta·C`).
//!
//! A plain 2-D product is `linalg.matmul`, which the schedules tile and
//! vectorize; batched, broadcast or transposed products are a
//! `linalg.generic` contraction with the equivalent indexing maps.

use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::ShapedTypeLike;
use melior::ir::{Region, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::OpKind;

use super::elementwise::{broadcast_map, identity_map};
use super::unsupported;
use crate::emit::region;
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::types::elem_type;

/// Lowers a MatMul or Gemm.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let a = data.inputs[0].expect("A is required");
    let b = data.inputs[1].expect("B is required");
    let y = data.results[0].expect("Y is produced");
    let (ad, elem) = kb.shape(a)?;
    let (bd, _) = kb.shape(b)?;
    let (yd, _) = kb.shape(y)?;
    if !elem.is_float() {
        return Err(unsupported(
            kb,
            op,
            "integer matrix products are not lowered yet",
        ));
    }
    let (trans_a, trans_b) = match data.kind {
        OpKind::Gemm => (
            data.attrs.int("transA").unwrap_or(0) != 0,
            data.attrs.int("transB").unwrap_or(0) != 0,
        ),
        _ => (false, false),
    };
    if ad.len() == 1 || bd.len() == 1 {
        return Err(unsupported(
            kb,
            op,
            "1-D MatMul operands are not lowered yet",
        ));
    }
    let e = kb.e;
    let init = kb.init(y)?;
    let zero = e.f(elem_type(e.cx, elem)?, 0.0);
    let filled = e.value(named(kb, "linalg.fill", &[zero], init)?);
    let product = if ad.len() == 2 && bd.len() == 2 && !trans_a && !trans_b {
        let mm = named(kb, "linalg.matmul", &[kb.tensor(a), kb.tensor(b)], filled)?;
        let mm = kb.root(
            mm,
            Schedule::Matmul {
                m: yd[0],
                n: yd[1],
                k: ad[1],
                epilogue: false,
            },
        );
        mm.result(0).expect("one result").into()
    } else {
        let (ta, tb) = (
            (kb.tensor(a), &ad[..], trans_a),
            (kb.tensor(b), &bd[..], trans_b),
        );
        let c = contraction(kb, ta, tb, filled, &yd);
        let c = kb.root(c, Schedule::Generic { outer: Some(yd[0]) });
        c.result(0).expect("one result").into()
    };
    let result = if data.kind == OpKind::Gemm {
        gemm_epilogue(kb, op, product, &yd)?
    } else {
        product
    };
    kb.define(y, result);
    Ok(())
}

/// Builds a named linalg op (`linalg.fill`, `linalg.matmul`) with its
/// body filled in by MLIR.
fn named<'c>(
    kb: &KernelBuilder<'c, '_>,
    name: &str,
    ins: &[MValue<'c, '_>],
    out: MValue<'c, '_>,
) -> Result<melior::ir::Operation<'c>> {
    let e = kb.e;
    let mut operands = ins.to_vec();
    operands.push(out);
    let op = OperationBuilder::new(name, e.loc)
        .add_operands(&operands)
        .add_results(&[out.r#type()])
        .add_attributes(&[(
            e.id("operandSegmentSizes"),
            e.segments(&[ins.len() as i32, 1]),
        )])
        .add_regions([Region::new()])
        .build()
        .expect("a well-formed named linalg op");
    // SAFETY: `op` is a freshly built, valid linalg named op that owns its
    // (empty) region; the call only fills that region.
    unsafe { mlir_sys::mlirLinalgFillBuiltinNamedOpRegion(op.to_raw()) };
    Ok(op)
}

/// `out[batch…, m, n] += a[…, m, k] · b[…, k, n]` as a `linalg.generic`,
/// with numpy broadcasting of the batch dims and optional transposes.
fn contraction<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    (a, ad, ta): (MValue<'c, 'a>, &[i64], bool),
    (b, bd, tb): (MValue<'c, 'a>, &[i64], bool),
    init: MValue<'c, 'a>,
    yd: &[i64],
) -> melior::ir::Operation<'c> {
    let e = kb.e;
    let rank = yd.len();
    // Loop dims: d0..d(rank-1) over the output, d(rank) = k.
    let dims: Vec<String> = (0..=rank).map(|d| format!("d{d}")).collect();
    let operand_map = |od: &[i64], transposed: bool, is_a: bool| {
        let batch_out = &yd[..rank - 2];
        let batch = broadcast_map(&od[..od.len() - 2], batch_out);
        let inner = batch
            .split("-> (")
            .nth(1)
            .expect("a map")
            .trim_end_matches(")>");
        let mut exprs: Vec<String> = inner
            .split(", ")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let (m, n, k) = (
            format!("d{}", rank - 2),
            format!("d{}", rank - 1),
            format!("d{rank}"),
        );
        let (r, c) = if is_a { (m, k) } else { (k, n) };
        if transposed {
            exprs.extend([c, r])
        } else {
            exprs.extend([r, c])
        }
        format!(
            "affine_map<({}) -> ({})>",
            dims.join(", "),
            exprs.join(", ")
        )
    };
    let maps = [
        operand_map(ad, ta, true),
        operand_map(bd, tb, false),
        identity_map(rank).replace(
            &format!("({}) ->", dims[..rank].join(", ")),
            &format!("({}) ->", dims.join(", ")),
        ),
    ];
    let mut iterators = vec!["#linalg.iterator_type<parallel>"; rank];
    iterators.push("#linalg.iterator_type<reduction>");
    let ty = melior::ir::r#type::RankedTensorType::try_from(init.r#type())
        .expect("a tensor")
        .element();
    let body: Region = region(e.cx, e.loc, &[ty, ty, ty], |be, args| {
        let prod = be.same("arith.mulf", &[args[0], args[1]]);
        let sum = be.same("arith.addf", &[args[2], prod]);
        be.append(be.op("linalg.yield", &[sum], &[], &[]));
    });
    OperationBuilder::new("linalg.generic", e.loc)
        .add_operands(&[a, b, init])
        .add_results(&[init.r#type()])
        .add_attributes(&[
            (
                e.id("indexing_maps"),
                e.attr(&format!("[{}]", maps.join(", "))),
            ),
            (
                e.id("iterator_types"),
                e.attr(&format!("[{}]", iterators.join(", "))),
            ),
            (e.id("operandSegmentSizes"), e.segments(&[2, 1])),
        ])
        .add_regions([body])
        .build()
        .expect("a well-formed contraction")
}

/// `alpha · product + beta · C`, in place on the product.
fn gemm_epilogue<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    op: OpId,
    product: MValue<'c, 'a>,
    yd: &[i64],
) -> Result<MValue<'c, 'a>> {
    let data = kb.model.ir.op(op);
    let alpha = data.attrs.float("alpha").unwrap_or(1.0) as f64;
    let beta = data.attrs.float("beta").unwrap_or(1.0) as f64;
    let c = data
        .inputs
        .get(2)
        .copied()
        .flatten()
        .filter(|_| beta != 0.0);
    if alpha == 1.0 && c.is_none() {
        return Ok(product);
    }
    let e = kb.e;
    let ty = melior::ir::r#type::RankedTensorType::try_from(product.r#type())
        .expect("a tensor")
        .element();
    let mut ins = vec![];
    let mut maps = vec![];
    if let Some(c) = c {
        ins.push(kb.tensor(c));
        maps.push(broadcast_map(&kb.shape(c)?.0, yd));
    }
    maps.push(identity_map(yd.len()));
    let arg_types = vec![ty; ins.len() + 1];
    let has_c = c.is_some();
    let body = region(e.cx, e.loc, &arg_types, |be, args| {
        let acc = *args.last().expect("the output");
        let mut y = if alpha == 1.0 {
            acc
        } else {
            be.same("arith.mulf", &[acc, be.f(ty, alpha)])
        };
        if has_c {
            let cv = if beta == 1.0 {
                args[0]
            } else {
                be.same("arith.mulf", &[args[0], be.f(ty, beta)])
            };
            y = be.same("arith.addf", &[y, cv]);
        }
        be.append(be.op("linalg.yield", &[y], &[], &[]));
    });
    let mut operands = ins.clone();
    operands.push(product);
    let op = OperationBuilder::new("linalg.generic", e.loc)
        .add_operands(&operands)
        .add_results(&[product.r#type()])
        .add_attributes(&[
            (
                e.id("indexing_maps"),
                e.attr(&format!("[{}]", maps.join(", "))),
            ),
            (
                e.id("iterator_types"),
                e.attr(&format!(
                    "[{}]",
                    vec!["#linalg.iterator_type<parallel>"; yd.len()].join(", ")
                )),
            ),
            (
                e.id("operandSegmentSizes"),
                e.segments(&[ins.len() as i32, 1]),
            ),
        ])
        .add_regions([body])
        .build()
        .expect("a well-formed Gemm epilogue");
    Ok(e.value(op))
}
