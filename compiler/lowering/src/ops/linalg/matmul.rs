//! Matrix products: MatMul (numpy semantics: batched, broadcast, 1-D
//! promotion) and Gemm (`alpha·A'·B' + beta·C`).
//!
//! A plain 2-D product is `linalg.matmul`, which the schedules tile and
//! vectorize; batched, broadcast or transposed products are a
//! `linalg.generic` contraction with the equivalent indexing maps.
//! f16 and bf16 products accumulate in an f32 temporary and are rounded
//! once, after the epilogue (see `lower_half`).

use melior::ir::{AffineMap, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use crate::builder::{d, fill, generic, identity_map, map, matmul, projection, Emitter, Size};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::fused_root;
use crate::ops::elementwise::activation::{apply_activation, ACTIVATIONS};
use crate::ops::half;
use crate::ops::operand::{broadcast_exprs, broadcast_map, runtime_gather, BodyOperand, Gather};
use crate::schedule::Schedule;
use crate::symbols::{
    broadcast_at_run_time, broadcasts_statically, ranked_dims, result_dims, Check, Refusal,
    Symbolic,
};
use crate::types::{elem_type, value_tensor};

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
        return Err(kb.unsupported(op, "integer matrix products are not lowered yet"));
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
    check_activation(kb, op, data.attrs.string("activation").unwrap_or(""))?;
    let ((at, ad), (bt, bd)) = if ad.len() >= 2 && bd.len() >= 2 {
        (batch_operand(kb, a, y)?, batch_operand(kb, b, y)?)
    } else {
        ((kb.tensor(a), ad), (kb.tensor(b), bd))
    };
    if half::is_half(elem) {
        let ta = (at, &ad[..], trans_a);
        let tb = (bt, &bd[..], trans_b);
        return lower_half(kb, op, ta, tb, (y, &yd));
    }
    let e = kb.e;
    let init = kb.init(y)?;
    let zero = e.f(elem_type(e.cx, elem)?, 0.0);
    let filled = e.value(fill(e, zero, init));
    let rank = yd.len();
    let promoted = ad.len() == 1 || bd.len() == 1;
    let product = if ad.len() == 2 && bd.len() == 2 && !trans_a && !trans_b {
        let mm = matmul(e, at, bt, filled);
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
        let (ta, tb) = ((at, &ad[..], trans_a), (bt, &bd[..], trans_b));
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
    let result = epilogue(kb, op, product, &yd)?;
    kb.define(y, result);
    Ok(())
}

/// Operand `v` (rank ≥ 2) of a product computing `y` (whose other
/// operand has rank ≥ 2 too), with its type dims: as it is, or — where a
/// batch dim broadcasts only at run time ([`batch_gather`]) — copied out
/// at `y`'s batch sizes by a producer, so that the contraction's indexing
/// maps stay affine.
pub(crate) fn batch_operand<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    v: Value,
    y: Value,
) -> Result<(MValue<'c, 'a>, Vec<i64>)> {
    let (vd, elem) = kb.shape(v)?;
    let Some((gather, sizes)) = batch_gather(kb, v, y)? else {
        return Ok((kb.tensor(v), vd));
    };
    let init = kb.empty(&sizes, elem)?;
    let rank = sizes.len();
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, _| vec![gather.read(be)],
    );
    let copied = kb.producer(g).result(0).expect("one result").into();
    Ok((copied, sizes.iter().map(Size::type_dim).collect()))
}

/// How to read operand `v` (rank ≥ 2) of a product computing `y` over
/// `y`'s batch loops and `v`'s two matrix loops, and those loops' sizes,
/// when a batch dim of `v` broadcasts only at run time (neither a static
/// 1 nor `y`'s at compile time; `ops::entry_checks` makes the entry verify
/// that it is 1 or `y`'s): index 0 along such a dim where its run-time
/// size is 1. `None` when the indexing maps can say how.
pub(crate) fn batch_gather<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    y: Value,
) -> Result<Option<(Gather<'c, 'a>, Vec<Size<'c, 'a>>)>> {
    let dims = |x: Value| -> Result<Vec<Dim>> {
        Ok(value_tensor(kb.model, x)?
            .dims()
            .unwrap_or_default()
            .to_vec())
    };
    let (d, yd) = (dims(v)?, dims(y)?);
    let batch = &yd[..yd.len() - 2];
    let own = &d[..d.len() - 2];
    let at_run_time = own.len() <= batch.len()
        && own
            .iter()
            .rev()
            .zip(batch.iter().rev())
            .any(|(d, y)| broadcast_at_run_time(d, y));
    if !at_run_time {
        return Ok(None);
    }
    let gather = Gather::batch_of(kb, v, batch)?;
    let (ys, vs) = (kb.sizes(y)?, kb.sizes(v)?);
    let sizes: Vec<Size> = ys[..batch.len()]
        .iter()
        .chain(&vs[vs.len() - 2..])
        .copied()
        .collect();
    Ok(Some((gather, sizes)))
}

/// A product of f16 or bf16 operands: the products summed in an f32
/// temporary (a producer), then the epilogue applied in f32 and rounded
/// once per element into the result (the root), as numpy and `ml_dtypes`
/// compute them.
fn lower_half<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    ta: (MValue<'c, 'a>, &[i64], bool),
    tb: (MValue<'c, 'a>, &[i64], bool),
    (y, yd): (Value, &[i64]),
) -> Result<()> {
    let e = kb.e;
    let f32t = elem_type(e.cx, ElemType::F32)?;
    let acc = kb.empty(&kb.sizes(y)?, ElemType::F32)?;
    let acc = e.value(fill(e, e.f(f32t, 0.0), acc));
    let sum = contraction(kb, ta, tb, acc, yd);
    let sum: MValue = kb.producer(sum).result(0).expect("one result").into();
    let ep = Epilogue::of(kb, op);
    let rank = yd.len();
    let mut ins = vec![(sum, identity_map(kb.e.cx, rank))];
    let c = c_operand(kb, &ep, y, yd, &mut ins)?;
    let z = z_operand(kb, &ep, rank, &mut ins);
    let out_ty = elem_type(e.cx, kb.shape(y)?.1)?;
    let g = generic(
        e,
        &ins,
        &[(kb.init(y)?, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, args| {
            let c = c.as_ref().map(|c| half::widen(be, c.read(be, &args)));
            let z = z.map(|i| half::widen(be, args[i]));
            vec![half::narrow(be, ep.apply(be, args[0], c, z), out_ty)]
        },
    );
    fused_root(kb, g, y, yd);
    Ok(())
}

/// An unknown activation of a fused op is an error, not a wrong result.
fn check_activation(kb: &KernelBuilder, op: OpId, name: &str) -> Result<()> {
    if ACTIVATIONS.contains(&name) {
        Ok(())
    } else {
        Err(kb.unsupported(op, &format!("activation '{name}'")))
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
    let cx = e.cx;
    let k = d(cx, rank);
    let m = d(cx, nb);
    let n = d(cx, rank.saturating_sub(1));
    let operand_map = |od: &[i64], transposed: bool, is_a: bool| {
        if od.len() == 1 {
            return map(cx, rank + 1, &[k]);
        }
        let mut exprs = broadcast_exprs(cx, &od[..od.len() - 2], &yd[..nb]);
        let (r, c) = if is_a { (m, k) } else { (k, n) };
        if transposed {
            exprs.extend([c, r])
        } else {
            exprs.extend([r, c])
        }
        map(cx, rank + 1, &exprs)
    };
    let out_map = projection(cx, rank + 1, 0..rank);
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

/// What follows a product: Gemm's `alpha · product + beta · C`,
/// FusedMatMul's `+ Bias + Z`, then the fused ops' activation.
struct Epilogue {
    alpha: f64,
    beta: f64,
    /// Gemm's C or FusedMatMul's bias (absent when `beta` is 0).
    c: Option<Value>,
    /// FusedMatMul's residual, of the result's shape.
    z: Option<Value>,
    activation: String,
    params: Vec<f32>,
}

impl Epilogue {
    /// The epilogue of product `op`.
    fn of(kb: &KernelBuilder, op: OpId) -> Self {
        let data = kb.model.ir.op(op);
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
        let z = match data.kind {
            OpKind::FusedMatMul => data.inputs.get(3).copied().flatten(),
            _ => None,
        };
        Epilogue {
            alpha,
            beta,
            c,
            z,
            activation: data.attrs.string("activation").unwrap_or("").to_string(),
            params: data
                .attrs
                .floats("activation_params")
                .unwrap_or_default()
                .to_vec(),
        }
    }

    /// Whether the epilogue leaves the product as it is.
    fn is_identity(&self) -> bool {
        self.alpha == 1.0 && self.c.is_none() && self.z.is_none() && self.activation.is_empty()
    }

    /// The epilogue of one element `acc` of the product, with `c` the
    /// element of C and `z` that of the residual (when there are).
    fn apply<'c, 'b>(
        &self,
        be: Emitter<'c, 'b>,
        acc: MValue<'c, 'b>,
        c: Option<MValue<'c, 'b>>,
        z: Option<MValue<'c, 'b>>,
    ) -> MValue<'c, 'b> {
        let ty = acc.r#type();
        let mut y = if self.alpha == 1.0 {
            acc
        } else {
            be.mulf(acc, be.f(ty, self.alpha))
        };
        if let Some(c) = c {
            let cv = if self.beta == 1.0 {
                c
            } else {
                be.mulf(c, be.f(ty, self.beta))
            };
            y = be.addf(y, cv);
        }
        if let Some(z) = z {
            y = be.addf(y, z);
        }
        apply_activation(be, &self.activation, &self.params, y)
    }
}

/// How the epilogue `ep` of a product into `y` (of `yd`) reads its C, if
/// it has one; pushes C to the generic's `ins` when its indexing map can
/// broadcast it.
fn c_operand<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    ep: &Epilogue,
    y: Value,
    yd: &[i64],
    ins: &mut Vec<(MValue<'c, 'a>, AffineMap<'c>)>,
) -> Result<Option<BodyOperand<'c, 'a>>> {
    let Some(c) = ep.c else { return Ok(None) };
    if let Some(g) = runtime_gather(kb, c, y)? {
        return Ok(Some(BodyOperand::Gathered(g)));
    }
    ins.push((kb.tensor(c), broadcast_map(kb.e.cx, &kb.shape(c)?.0, yd)));
    Ok(Some(BodyOperand::Input(ins.len() - 1)))
}

/// Pushes the residual of `ep`, if it has one, to the generic's `ins`
/// (read at the result's coordinates); returns its position.
fn z_operand<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    ep: &Epilogue,
    rank: usize,
    ins: &mut Vec<(MValue<'c, 'a>, AffineMap<'c>)>,
) -> Option<usize> {
    let z = ep.z?;
    ins.push((kb.tensor(z), identity_map(kb.e.cx, rank)));
    Some(ins.len() - 1)
}

/// The elementwise epilogue of a product, in place ([`Epilogue`]). None
/// when there is nothing to apply.
fn epilogue<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    product: MValue<'c, 'a>,
    yd: &[i64],
) -> Result<MValue<'c, 'a>> {
    let ep = Epilogue::of(kb, op);
    if ep.is_identity() {
        return Ok(product);
    }
    let mut ins = vec![];
    let y = kb.model.ir.op(op).results[0].expect("Y");
    let c = c_operand(kb, &ep, y, yd, &mut ins)?;
    let rank = yd.len();
    let z = z_operand(kb, &ep, rank, &mut ins);
    let g = generic(
        kb.e,
        &ins,
        &[(product, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, args| {
            let acc = *args.last().expect("the output");
            let c = c.as_ref().map(|c| c.read(be, &args));
            vec![ep.apply(be, acc, c, z.map(|i| args[i]))]
        },
    );
    let bits = kb
        .shape(kb.model.ir.op(op).results[0].expect("Y"))?
        .1
        .bit_width();
    let g = kb.elementwise(g, yd, bits);
    Ok(g.result(0).expect("one result").into())
}

/// How a matrix product (MatMul, Gemm and their fused forms) takes
/// symbolic sizes: its batch dims and C broadcast at compile time or at
/// run time, and its contraction sizes are checked at run time when they
/// differ ([`product_checks`]).
pub(crate) fn checks(model: &Model, data: &OpData) -> Result<Symbolic> {
    let refused = Refusal::outcome(refusal(model, data))?;
    let checks = product_checks(model, data)?.unwrap_or_default();
    Ok(Symbolic { checks, refused })
}

/// Why matrix product `data` is not lowered with symbolic sizes, if it is
/// not ([`checks`]): operand sizes not known to agree even at run time.
fn refusal(model: &Model, data: &OpData) -> std::result::Result<(), Refusal> {
    let y = result_dims(model, data)?;
    let a = ranked_dims(model, data.inputs[0].expect("A is required"))?;
    let b = ranked_dims(model, data.inputs[1].expect("B is required"))?;
    let Some((ka, kb)) = contraction_sizes(model, data)? else {
        return Ok(()); // 1-D operands are refused by the lowering itself.
    };
    let known = |dims: &[Dim], out: &[Dim]| {
        dims.len() <= out.len() && !dims.iter().chain(out).any(|d| *d == Dim::Unknown)
    };
    // C broadcasts at compile time, or at run time (read with a gather,
    // checked by the model's entry).
    let c_ok = match data.inputs.get(2).copied().flatten() {
        Some(c) => {
            let c = ranked_dims(model, c)?;
            broadcasts_statically(&c, &y) || known(&c, &y)
        }
        None => true,
    };
    // Contraction sizes that differ at compile time are checked to agree
    // at run time. Batch dims broadcast at compile time, or at run time
    // (the operand copied out at the result's batch sizes,
    // [`batch_operand`], checked by the model's entry).
    let batch = &y[..y.len() - 2];
    let batch_ok = |o: &[Dim]| broadcasts_statically(o, batch) || known(o, batch);
    // FusedMatMul's residual has the result's shape (checked by the
    // model's entry where its sizes are other polynomials).
    let z_ok = match residual(data) {
        Some(z) => ranked_dims(model, z)?.len() == y.len(),
        None => true,
    };
    if ka == Dim::Unknown
        || kb == Dim::Unknown
        || !batch_ok(&a[..a.len() - 2])
        || !batch_ok(&b[..b.len() - 2])
        || !c_ok
        || !z_ok
    {
        return Err(Refusal::Refused(
            "operand sizes that are only known to agree at run time",
        ));
    }
    Ok(())
}

/// The operands of a matrix product (MatMul, Gemm, their fused forms,
/// MatMulInteger, QLinearMatMul): A, B, and whether Gemm transposes them;
/// `None` for other ops.
fn product_operands(data: &OpData) -> Option<(Value, Value, bool, bool)> {
    let b = match data.kind {
        OpKind::MatMul
        | OpKind::Gemm
        | OpKind::FusedMatMul
        | OpKind::FusedGemm
        | OpKind::MatMulInteger => 1,
        OpKind::QLinearMatMul => 3,
        _ => return None,
    };
    let gemm = matches!(data.kind, OpKind::Gemm | OpKind::FusedGemm);
    let attr = |n| gemm && data.attrs.int(n).unwrap_or(0) != 0;
    Some((
        data.inputs[0]?,
        data.inputs.get(b).copied().flatten()?,
        attr("transA"),
        attr("transB"),
    ))
}

/// The two contraction sizes of a matrix product ([`product_operands`]:
/// A's columns, B's rows, after `transA`/`transB`); `None` for other ops
/// and 1-D operands.
fn contraction_sizes(model: &Model, data: &OpData) -> Result<Option<(Dim, Dim)>> {
    let Some((a, b, trans_a, trans_b)) = product_operands(data) else {
        return Ok(None);
    };
    let dims = |v: Value| -> Result<Option<Vec<Dim>>> {
        Ok(value_tensor(model, v)?.dims().map(<[Dim]>::to_vec))
    };
    let (Some(a), Some(b)) = (dims(a)?, dims(b)?) else {
        return Ok(None);
    };
    if a.len() < 2 || b.len() < 2 {
        return Ok(None);
    }
    let ka = &a[if trans_a { a.len() - 2 } else { a.len() - 1 }];
    let kb = &b[if trans_b { b.len() - 1 } else { b.len() - 2 }];
    Ok(Some((ka.clone(), kb.clone())))
}

/// The checks of a matrix product ([`product_operands`]; `None` for other
/// ops and 1-D operands): the contraction sizes equal, A's rows and B's
/// columns equal to the result's (the product loops over the result's
/// sizes), and each batch dim of A and B and each dim of Gemm's C (or a
/// fused bias) 1 or the result's where it broadcasts only at run time.
pub(crate) fn product_checks(model: &Model, data: &OpData) -> Result<Option<Vec<Check>>> {
    let Some((ka, kb)) = contraction_sizes(model, data)? else {
        return Ok(None);
    };
    let (a, b, trans_a, trans_b) = product_operands(data).expect("a product");
    let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
        let v = v.expect("A, B and Y are present");
        Ok(value_tensor(model, v)?
            .dims()
            .map(<[Dim]>::to_vec)
            .unwrap_or_default())
    };
    let (a, b, y) = (dims(Some(a))?, dims(Some(b))?, dims(data.results[0])?);
    let gemm = matches!(data.kind, OpKind::Gemm | OpKind::FusedGemm);
    let m = &a[a.len() - if trans_a { 1 } else { 2 }];
    let n = &b[b.len() - if trans_b { 2 } else { 1 }];
    let mut out = vec![];
    if a.len() >= 2 && b.len() >= 2 && y.len() >= 2 {
        let batch = &y[..y.len() - 2];
        for o in [&a, &b] {
            for (d, yd) in o[..o.len() - 2].iter().rev().zip(batch.iter().rev()) {
                if broadcast_at_run_time(d, yd) {
                    out.push(Check::Broadcast(d.clone(), yd.clone()));
                }
            }
        }
    }
    if y.len() >= 2 {
        for (d, yd) in [
            (ka, kb),
            (m.clone(), y[y.len() - 2].clone()),
            (n.clone(), y[y.len() - 1].clone()),
        ] {
            if d != yd {
                out.push(Check::Equal(d, yd));
            }
        }
    }
    let beta = if gemm {
        data.attrs.float("beta").unwrap_or(1.0)
    } else {
        1.0
    };
    let c = matches!(
        data.kind,
        OpKind::Gemm | OpKind::FusedGemm | OpKind::FusedMatMul
    )
    .then(|| data.inputs.get(2).copied().flatten())
    .flatten()
    .filter(|_| beta != 0.0);
    if let Some(c) = c {
        let c = dims(Some(c))?;
        for (d, yd) in c.iter().rev().zip(y.iter().rev()) {
            if broadcast_at_run_time(d, yd) {
                out.push(Check::Broadcast(d.clone(), yd.clone()));
            }
        }
    }
    if let Some(z) = residual(data) {
        for (d, yd) in dims(Some(z))?.into_iter().zip(&y) {
            if d != *yd {
                out.push(Check::Equal(d, yd.clone()));
            }
        }
    }
    Ok(Some(out))
}

/// FusedMatMul's residual `Z`, when it has one.
fn residual(data: &OpData) -> Option<Value> {
    match data.kind {
        OpKind::FusedMatMul => data.inputs.get(3).copied().flatten(),
        _ => None,
    }
}
