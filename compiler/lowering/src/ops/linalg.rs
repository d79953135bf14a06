//! Matrix products: MatMul (numpy semantics: batched, broadcast, 1-D
//! promotion) and Gemm (`alpha·A'·B' + beta·C`).
//!
//! A plain 2-D product is `linalg.matmul`, which the schedules tile and
//! vectorize; batched, broadcast or transposed products are a
//! `linalg.generic` contraction with the equivalent indexing maps.

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind, Value};

use super::elementwise::{apply_activation, broadcast_map, identity_map, ACTIVATIONS};
use super::half;
use super::structured::{ds, empty_sized, generic, map, named};
use super::unsupported;
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::types::elem_type;

/// Lowers a MatMul, Gemm, FusedMatMul or FusedGemm.
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
    if half::is_half(elem) {
        return lower_half(kb, op, (a, &ad), (b, &bd), (y, &yd));
    }
    let gemm = matches!(data.kind, OpKind::Gemm | OpKind::FusedGemm);
    let (trans_a, trans_b) = if gemm {
        (
            data.attrs.int("transA").unwrap_or(0) != 0,
            data.attrs.int("transB").unwrap_or(0) != 0,
        )
    } else {
        (false, false)
    };
    let activation = data.attrs.string("activation").unwrap_or("").to_string();
    let params = data
        .attrs
        .floats("activation_params")
        .unwrap_or_default()
        .to_vec();
    check_activation(kb, op, &activation)?;
    let e = kb.e;
    let init = kb.init(y)?;
    let zero = e.f(elem_type(e.cx, elem)?, 0.0);
    let filled = e.value(named(e, "linalg.fill", &[zero], init));
    let rank = yd.len();
    let promoted = ad.len() == 1 || bd.len() == 1;
    let product = if ad.len() == 2 && bd.len() == 2 && !trans_a && !trans_b {
        let mm = named(e, "linalg.matmul", &[kb.tensor(a), kb.tensor(b)], filled);
        let mm = kb.root(
            mm,
            Schedule::Matmul {
                batch: vec![],
                m: yd[0],
                n: yd[1],
                k: ad[1],
                epilogues: 0,
            },
        );
        mm.result(0).expect("one result").into()
    } else {
        let (ta, tb) = (
            (kb.tensor(a), &ad[..], trans_a),
            (kb.tensor(b), &bd[..], trans_b),
        );
        let c = contraction(kb, ta, tb, filled, &yd);
        let schedule = if promoted {
            Schedule::Generic {
                outer: yd.first().copied(),
            }
        } else {
            Schedule::Matmul {
                batch: yd[..rank - 2].to_vec(),
                m: yd[rank - 2],
                n: yd[rank - 1],
                k: if trans_a {
                    ad[ad.len() - 2]
                } else {
                    ad[ad.len() - 1]
                },
                epilogues: 0,
            }
        };
        let c = kb.root(c, schedule);
        c.result(0).expect("one result").into()
    };
    let result = epilogue(kb, op, product, &yd, &activation, &params)?;
    kb.define(y, result);
    Ok(())
}

/// A MatMul of f16 or bf16 operands: the products summed in an f32
/// temporary (a producer), then rounded once per element into the result
/// (the root), as numpy and `ml_dtypes` compute them. Gemm and the fused
/// products of half-precision operands are refused.
fn lower_half(
    kb: &mut KernelBuilder,
    op: OpId,
    (a, ad): (Value, &[i64]),
    (b, bd): (Value, &[i64]),
    (y, yd): (Value, &[i64]),
) -> Result<()> {
    if kb.model.ir.op(op).kind != OpKind::MatMul {
        return Err(unsupported(
            kb,
            op,
            "half-precision Gemm and fused products are not lowered yet",
        ));
    }
    let e = kb.e;
    let f32t = elem_type(e.cx, ElemType::F32)?;
    let acc = empty_sized(kb, &kb.sizes(y)?, ElemType::F32)?;
    let acc = e.value(named(e, "linalg.fill", &[e.f(f32t, 0.0)], acc));
    let (ta, tb) = ((kb.tensor(a), ad, false), (kb.tensor(b), bd, false));
    let sum = contraction(kb, ta, tb, acc, yd);
    let sum: MValue = kb.producer(sum).result(0).expect("one result").into();
    let out_ty = elem_type(e.cx, kb.shape(y)?.1)?;
    let rank = yd.len();
    let g = generic(
        e,
        &[(sum, identity_map(rank))],
        &[(kb.init(y)?, identity_map(rank))],
        &vec![false; rank],
        |be, args| vec![half::narrow(be, args[0], out_ty)],
    );
    let producers = kb.producers();
    let g = kb.root(
        g,
        Schedule::Fused {
            loops: yd.iter().map(|&d| (d, true)).collect(),
            producers,
            epilogue: false,
        },
    );
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// An unknown activation of a fused op is an error, not a wrong result.
fn check_activation(kb: &KernelBuilder, op: OpId, name: &str) -> Result<()> {
    if ACTIVATIONS.contains(&name) {
        Ok(())
    } else {
        Err(unsupported(kb, op, &format!("activation '{name}'")))
    }
}

/// `out[batch…, m, n] += a[…, m, k] · b[…, k, n]` as a `linalg.generic`
/// (in integers when `init`'s elements are; half-precision operands
/// widened to f32 when `init` is f32)
/// whose loops are the output's dims then `k`, with numpy broadcasting of
/// the batch dims, optional transposes, and 1-D operands promoted (a 1-D
/// `a` has no `m` dim in the output, a 1-D `b` no `n` dim).
pub(crate) fn contraction<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    (a, ad, ta): (MValue<'c, 'a>, &[i64], bool),
    (b, bd, tb): (MValue<'c, 'a>, &[i64], bool),
    init: MValue<'c, 'a>,
    yd: &[i64],
) -> melior::ir::Operation<'c> {
    let e = kb.e;
    let rank = yd.len();
    let (a1, b1) = (ad.len() == 1, bd.len() == 1);
    // Output dims: batch…, m (unless a is 1-D), n (unless b is 1-D).
    let nb = rank - usize::from(!a1) - usize::from(!b1);
    let k = format!("d{rank}");
    let m = format!("d{nb}");
    let n = format!("d{}", rank.saturating_sub(1));
    let operand_map = |od: &[i64], transposed: bool, is_a: bool| {
        if od.len() == 1 {
            return map(rank + 1, std::slice::from_ref(&k));
        }
        let batch = broadcast_map(&od[..od.len() - 2], &yd[..nb]);
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
        let (r, c) = if is_a {
            (m.clone(), k.clone())
        } else {
            (k.clone(), n.clone())
        };
        if transposed {
            exprs.extend([c, r])
        } else {
            exprs.extend([r, c])
        }
        map(rank + 1, &exprs)
    };
    let out_map = map(rank + 1, &ds(0..rank));
    let mut reduction = vec![false; rank];
    reduction.push(true);
    generic(
        e,
        &[
            (a, operand_map(ad, ta, true)),
            (b, operand_map(bd, tb, false)),
        ],
        &[(init, out_map)],
        &reduction,
        |be, args| {
            let (x, y) = if args[0].r#type() != args[2].r#type() {
                (half::widen(be, args[0]), half::widen(be, args[1]))
            } else {
                (args[0], args[1])
            };
            vec![be.multiply_add(args[2], x, y)]
        },
    )
}

/// The elementwise epilogue of a product, in place: Gemm's
/// `alpha · product + beta · C`, FusedMatMul's `+ Bias`, then the fused
/// ops' activation. None when there is nothing to apply.
fn epilogue<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    product: MValue<'c, 'a>,
    yd: &[i64],
    activation: &str,
    params: &[f32],
) -> Result<MValue<'c, 'a>> {
    let data = kb.model.ir.op(op).clone();
    let gemm = matches!(data.kind, OpKind::Gemm | OpKind::FusedGemm);
    let (alpha, beta) = if gemm {
        (
            f64::from(data.attrs.float("alpha").unwrap_or(1.0)),
            f64::from(data.attrs.float("beta").unwrap_or(1.0)),
        )
    } else {
        (1.0, 1.0)
    };
    let c = data
        .inputs
        .get(2)
        .copied()
        .flatten()
        .filter(|_| beta != 0.0);
    if alpha == 1.0 && c.is_none() && activation.is_empty() {
        return Ok(product);
    }
    let mut ins = vec![];
    if let Some(c) = c {
        ins.push((kb.tensor(c), broadcast_map(&kb.shape(c)?.0, yd)));
    }
    let has_c = c.is_some();
    let rank = yd.len();
    let activation = activation.to_string();
    let params = params.to_vec();
    let g = generic(
        kb.e,
        &ins,
        &[(product, identity_map(rank))],
        &vec![false; rank],
        |be, args| {
            let acc = *args.last().expect("the output");
            let ty = acc.r#type();
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
            vec![apply_activation(be, &activation, &params, y)]
        },
    );
    let bits = kb.shape(data.results[0].expect("Y"))?.1.bit_width();
    let g = kb.elementwise(g, yd, bits);
    Ok(g.result(0).expect("one result").into())
}
