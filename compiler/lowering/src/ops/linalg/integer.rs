//! The integer matrix products: MatMulInteger (`i32` products of u8/i8
//! operands minus their zero points) and QLinearMatMul (the same,
//! requantized with the scales, `quant::requantize`).

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{ElemType, Model, OpKind, Value};

use super::matmul::{batch_gather, contraction};
use crate::builder::{generic, identity_map, Size};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::elementwise::cast::cast;
use crate::ops::operand::BodyOperand;
use crate::ops::quant::{
    int_operands, param_check, param_dims, param_read, requantize, IntOperand,
};
use crate::symbols::{sized_dims, Check};

/// `(x - zero)` as an `i32` tensor, with its type dims: `x` itself
/// extended when there is no zero point. The zero point is a scalar or
/// 1-D along dim `per_dim` of `x` (`a`'s rows, `b`'s columns, W's output
/// channels), read by [`param_read`]. An operand of a product into `y`
/// whose batch dims broadcast only at run time is read at `y`'s batch
/// sizes (`linalg::batch_gather`), so that the contraction's maps stay
/// affine.
pub(crate) fn widened<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    operand: &IntOperand,
    per_dim: Option<usize>,
    product: Option<Value>,
) -> Result<(MValue<'c, 'a>, Vec<i64>)> {
    let (dims, elem) = kb.shape(operand.value)?;
    if !matches!(elem, ElemType::U8 | ElemType::I8) {
        return Err(kb.unsupported(op, &format!("{elem} operands")));
    }
    let rank = dims.len();
    let mut ins = vec![];
    let batch = match product {
        Some(y) if rank >= 2 && kb.shape(y)?.0.len() >= 2 => batch_gather(kb, operand.value, y)?,
        _ => None,
    };
    let (x, sizes) = match batch {
        Some((g, sizes)) => (BodyOperand::Gathered(g), sizes),
        None => {
            ins.push((kb.tensor(operand.value), identity_map(kb.e.cx, rank)));
            (BodyOperand::Input(0), kb.sizes(operand.value)?)
        }
    };
    let zero = match operand.zero {
        Some(z) => {
            let x_dims = param_dims(kb.model, operand.value);
            let read = param_read(kb, z, &x_dims, per_dim, &mut ins)?;
            Some(read.ok_or_else(|| {
                let zd = kb.shape(z).map(|s| s.0).unwrap_or_default();
                kb.unsupported(
                    op,
                    &format!("a zero point of shape {zd:?} for an operand of shape {dims:?}"),
                )
            })?)
        }
        None => None,
    };
    let init = kb.empty(&sizes, ElemType::I32)?;
    let out_rank = sizes.len();
    let g = generic(
        kb.e,
        &ins,
        &[(init, identity_map(kb.e.cx, out_rank))],
        &vec![false; out_rank],
        |be, a| {
            let wide = |v| {
                cast(be, v, elem, ElemType::I32, false)
                    .ok()
                    .flatten()
                    .expect("an 8-bit integer")
            };
            let v = wide(x.read(be, &a));
            vec![match &zero {
                Some(z) => be.subi(v, wide(z.read(be, &a))),
                None => v,
            }]
        },
    );
    let g = kb.structured(g).result(0).expect("one result").into();
    Ok((g, sizes.iter().map(Size::type_dim).collect()))
}

/// The `i32` product `(a - a_zero) · (b - b_zero)` with MatMul's
/// semantics, into `init` (zeroed here); the kernel is left unchunked.
fn integer_product<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    [a, b]: [&IntOperand; 2],
    init: MValue<'c, 'a>,
    y: Value,
) -> Result<MValue<'c, 'a>> {
    let (ad, bd) = (kb.shape(a.value)?.0, kb.shape(b.value)?.0);
    let (a32, ad) = widened(kb, op, a, ad.len().checked_sub(2), Some(y))?;
    let (b32, bd) = widened(kb, op, b, (bd.len() >= 2).then(|| bd.len() - 1), Some(y))?;
    let e = kb.e;
    let zero = e.i(e.int_type(32), 0);
    let filled = kb.filled(zero, init);
    let yd = kb.shape(y)?.0;
    let c = contraction(kb, (a32, &ad, false), (b32, &bd, false), filled, &yd);
    Ok(kb.structured(c).result(0).expect("one result").into())
}

/// The conditions the integer products' lowerings rely on, checked at
/// run time: MatMul's (`matmul::product_checks`), and each zero point
/// or scale of symbolic size 1 or the dim it runs along (a's rows, b's
/// columns; one element for the scales and the output's zero point). An
/// error names what cannot be lowered: an unknown size.
pub(crate) fn product_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let mut out = super::matmul::product_checks(model, data)
        .map_err(|_| "operands of unknown rank")?
        .unwrap_or_default();
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    // The zero points along a's rows and b's columns; the scales and the
    // output's zero point per tensor.
    let (b_at, qlinear) = match data.kind {
        OpKind::QLinearMatMul => (3, true),
        _ => (1, false),
    };
    let (a, b) = (dims(input(0))?, dims(input(b_at))?);
    let b_zero = if qlinear { 5 } else { 3 };
    let mut params = vec![
        (input(2), a.clone(), a.len().checked_sub(2)),
        (
            input(b_zero),
            b.clone(),
            (b.len() >= 2).then(|| b.len() - 1),
        ),
    ];
    if qlinear {
        for i in [1, 4, 6, 7] {
            params.push((input(i), a.clone(), None));
        }
    }
    for (p, x, along) in params {
        if let Some(p) = p {
            if let Some(check) = param_check(&dims(Some(p))?, &x, along) {
                out.push(check);
            }
        }
    }
    Ok(out)
}

/// Lowers MatMulInteger (see the module docs).
pub(crate) fn lower_matmul_integer(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let [a, b] = int_operands(kb, op, (0, 2), (1, 3));
    let y = data.results[0].expect("verified: Y");
    let init = kb.init(y)?;
    let product = integer_product(kb, op, [&a, &b], init, y)?;
    kb.define(y, product);
    Ok(())
}

/// Lowers QLinearMatMul (see the module docs).
pub(crate) fn lower_qlinear_matmul(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op);
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let [a, b] = int_operands(kb, op, (0, 2), (3, 5));
    let [Some(a_scale), Some(b_scale), Some(y_scale)] = [input(1), input(4), input(6)] else {
        return Err(kb.unsupported(op, "without its three scales"));
    };
    let y_zero = input(7);
    let y = data.results[0].expect("verified: y");
    let acc = kb.empty(&kb.sizes(y)?, ElemType::I32)?;
    let c = integer_product(kb, op, [&a, &b], acc, y)?;
    requantize(kb, op, c, [a_scale, b_scale, y_scale], y_zero, y, None)
}
