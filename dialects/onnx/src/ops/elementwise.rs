//! Elementwise operators: unary math and activations, casts, binary
//! arithmetic/logic/comparison with numpy broadcasting, variadic
//! Max/Min/Mean/Sum, Where, and onnx-mlc's `Activation` (its activations
//! are the fused ops', `fused.rs`).
//!
//! Result shape: the input shape (unary), or the broadcast of the inputs
//! (binary, variadic, Where). Opset < 7 `Add`/`Sub`/`Mul`/`Div`/… used
//! limited broadcasting (`broadcast`/`axis` attributes) where the result
//! has the first input's shape. Result type: the input type, except bool
//! for comparisons, logic and `IsInf`/`IsNaN`; `to` for `Cast`; the second
//! input's for `CastLike`; the second input's for `Where`.
//!
//! Integer values of `Add`, `Sub`, `Mul`, `Div`, `Mod`, `Neg`, `Abs`, `Cast`,
//! `Max`, `Min`, comparisons and `Where` are propagated (shape
//! arithmetic), and so are bool values (0/1) through `Not`, `And`, `Or`
//! and `Xor`: expanded function bodies (Attention's grouped-query branch)
//! choose shape entries with `Where` on conditions built from constants by
//! logic ops.

use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::knowledge::SymTensor;
use crate::ops::shape::{broadcast, broadcast_all};
use crate::schema::{ElementwiseOp, OpKind};
use crate::types::ElemType;

pub(crate) fn infer(op: ElementwiseOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use ElementwiseOp::*;
    match op {
        IsInf | IsNaN => same_shape(cx, Some(ElemType::Bool)),
        Cast => {
            let to = cx.int("to")?;
            let elem = ElemType::from_onnx(to as i32)
                .ok_or_else(|| invalid!("'to' = {to} is not a data type"))?;
            same_shape(cx, Some(elem))?;
            match elem {
                ElemType::I64 | ElemType::I32 => {
                    if let Some(v) = cx.sym_input(0).cloned() {
                        cx.set_value(0, v);
                    }
                }
                ElemType::Bool => propagate(
                    cx,
                    |a, _| Some(Dim::Known(1).sub(&a.eq_of(&Dim::Known(0)))),
                    1,
                )?,
                _ => {}
            }
            Ok(())
        }
        CastLike => {
            let elem = cx.elem(1)?;
            same_shape(cx, Some(elem))
        }
        BitCast => bitcast(cx),
        Activation => {
            super::fused::check_activation(cx)?;
            same_shape(cx, None)
        }
        Neg => {
            same_shape(cx, None)?;
            propagate(cx, |a, _| Some(a.scale(-1)), 1)
        }
        Add | Sub | Mul | Div | Pow | Mod | BitShift | BitwiseAnd | BitwiseOr | BitwiseXor
        | PRelu => {
            binary(cx, None)?;
            match op {
                Add => propagate(cx, |a, b| Some(a.add(b)), 2),
                Sub => propagate(cx, |a, b| Some(a.sub(b)), 2),
                Mul => propagate(cx, |a, b| Some(a.mul(b)), 2),
                Div => propagate(cx, int_div, 2),
                Mod => {
                    let fmod = cx.int("fmod")? != 0;
                    propagate(cx, |a, b| int_mod(a, b, fmod), 2)
                }
                _ => Ok(()),
            }
        }
        Abs => {
            same_shape(cx, None)?;
            propagate(cx, |a, _| abs(a), 1)
        }
        Not => {
            same_shape(cx, None)?;
            propagate(cx, |a, _| truth(a).map(|p| Dim::Known(1).sub(&p)), 1)
        }
        And | Or | Xor => {
            binary(cx, Some(ElemType::Bool))?;
            let logic = match op {
                And => |p: &Dim, q: &Dim| p.mul(q),
                Or => |p: &Dim, q: &Dim| p.add(q).sub(&p.mul(q)),
                _ => |p: &Dim, q: &Dim| p.add(q).sub(&p.mul(q).scale(2)),
            };
            propagate(cx, |a, b| defined(logic(&truth(a)?, &truth(b)?)), 2)
        }
        Equal | Greater | GreaterOrEqual | Less | LessOrEqual => {
            binary(cx, Some(ElemType::Bool))?;
            let cmp = match op {
                Equal => |a: &Dim, b: &Dim| a.eq_of(b),
                Greater => |a: &Dim, b: &Dim| b.lt_of(a),
                GreaterOrEqual => |a: &Dim, b: &Dim| Dim::Known(1).sub(&a.lt_of(b)),
                Less => |a: &Dim, b: &Dim| a.lt_of(b),
                _ => |a: &Dim, b: &Dim| Dim::Known(1).sub(&b.lt_of(a)),
            };
            propagate(cx, |a, b| defined(cmp(a, b)), 2)
        }
        Max | Min | Mean | Sum => {
            let n = cx.num_inputs();
            if n == 0 {
                return Err(invalid!("needs at least one input"));
            }
            let elem = cx.elem(0)?;
            let shapes: Vec<Vec<Dim>> = (0..n)
                .map(|i| cx.dims(i).map(<[Dim]>::to_vec))
                .collect::<Result<_, _>>()?;
            let out = broadcast_all(shapes.iter().map(Vec::as_slice))?;
            cx.set_tensor(0, elem, out);
            let fold: fn(&Dim, &Dim) -> Dim = match op {
                Max => Dim::max_of,
                Min => Dim::min_of,
                _ => return Ok(()),
            };
            propagate_variadic(cx, fold);
            Ok(())
        }
        Where => {
            let elem = cx.elem(1)?;
            let out = broadcast_all([cx.dims(0)?, cx.dims(1)?, cx.dims(2)?])?;
            cx.set_tensor(0, elem, out);
            propagate_where(cx);
            Ok(())
        }
        Acos | Acosh | Asin | Asinh | Atan | Atanh | Ceil | Celu | Cos | Cosh | Elu | Erf | Exp
        | Floor | Gelu | HardSigmoid | HardSwish | LeakyRelu | Log | Mish | Reciprocal | Relu
        | Round | Selu | Shrink | Sigmoid | Sign | Sin | Sinh | Softplus | Softsign | Sqrt
        | Swish | Tan | Tanh | ThresholdedRelu | BitwiseNot | Clip => same_shape(cx, None),
    }
}

/// Result 0 has input 0's shape and either its element type or `elem`.
fn same_shape(cx: &mut InferCtx, elem: Option<ElemType>) -> Result<(), Fail> {
    let t = cx.tensor(0)?.clone();
    cx.set_type(
        0,
        crate::types::Type::Tensor(crate::types::TensorType {
            elem: elem.unwrap_or(t.elem),
            shape: t.shape,
        }),
    );
    Ok(())
}

/// Two-input broadcasting op.
fn binary(cx: &mut InferCtx, elem: Option<ElemType>) -> Result<(), Fail> {
    let a = cx.tensor(0)?;
    let out_elem = elem.unwrap_or(a.elem);
    let legacy = cx.version() < 7 && cx.kind() != OpKind::PRelu && cx.kind() != OpKind::BitShift;
    let dims = if legacy || cx.kind() == OpKind::PRelu && cx.version() < 9 {
        // Limited broadcasting: B broadcasts to A, the result is A's shape.
        cx.dims(0)?.to_vec()
    } else {
        broadcast(cx.dims(0)?, cx.dims(1)?)?
    };
    cx.set_tensor(0, out_elem, dims);
    Ok(())
}

/// `BitCast`: reinterprets the bits of each element as the `to` type. The
/// widths must match, so the shape is unchanged.
fn bitcast(cx: &mut InferCtx) -> Result<(), Fail> {
    let to = cx.int("to")?;
    let elem =
        ElemType::from_onnx(to as i32).ok_or_else(|| invalid!("'to' = {to} is not a data type"))?;
    let from = cx.elem(0)?;
    if from.bit_width() != elem.bit_width() || elem == ElemType::String || from == ElemType::String
    {
        return Err(invalid!(
            "cannot bit-cast {from} to {elem}: element widths differ"
        ));
    }
    same_shape(cx, Some(elem))
}

/// Integer division as ONNX defines it for integers (truncating): static,
/// a polynomial quotient, or a truncating-division atom for sizes
/// ([`Dim::trunc_div`]).
fn int_div(a: &Dim, b: &Dim) -> Option<Dim> {
    defined(a.trunc_div(b))
}

/// Integer `Mod`: the remainder takes the divisor's sign (Python's `%`),
/// or the dividend's with `fmod = 1` (C's `fmod`). By a positive constant
/// `k` it is `a - k*floor(a/k)` for any sign of `a` (Python's `%`; also
/// C's when `a` is a size): the padding arithmetic `(k - n % k) % k` of
/// windowed models stays a size. Of two sizes (never negative, where both
/// agree) it is `a - b*(a/b)` with the truncating division atom.
fn int_mod(a: &Dim, b: &Dim, fmod: bool) -> Option<Dim> {
    if let (Some(x), Some(y)) = (a.as_known(), b.as_known()) {
        if y == 0 {
            return None;
        }
        let r = x.wrapping_rem(y);
        return Some(Dim::Known(if !fmod && r != 0 && (r < 0) != (y < 0) {
            r + y
        } else {
            r
        }));
    }
    if let Some(k) = b
        .as_known()
        .filter(|&k| k > 0 && (!fmod || a.is_nonnegative()))
    {
        return defined(a.sub(&a.floor_quotient(k).scale(k)));
    }
    if !(a.is_nonnegative() && b.is_nonnegative()) {
        return None;
    }
    defined(a.sub(&b.mul(&a.trunc_div(b))))
}

/// `|a|`: static, or a size unchanged.
fn abs(a: &Dim) -> Option<Dim> {
    match a {
        Dim::Known(x) => Some(Dim::Known(x.checked_abs()?)),
        _ if a.is_nonnegative() => defined(a.clone()),
        _ => None,
    }
}

/// A bool (or integer) element as a 0/1 truth value: a static one is
/// normalized (any non-zero integer is true); a symbolic one is a
/// comparison's or a logic op's 0/1 dim already.
fn truth(a: &Dim) -> Option<Dim> {
    match a {
        Dim::Known(x) => Some(Dim::Known(i64::from(*x != 0))),
        _ => defined(a.clone()),
    }
}

/// `Some` unless the dim is unknown.
fn defined(d: Dim) -> Option<Dim> {
    (d != Dim::Unknown).then_some(d)
}

/// Variadic `Max`/`Min` on known values: folds the inputs'
/// elements left to right with `f`, broadcasting; does nothing when an
/// input value or a result element is unknown.
fn propagate_variadic(cx: &mut InferCtx, f: fn(&Dim, &Dim) -> Dim) {
    let ins: Option<Vec<SymTensor>> = (0..cx.num_inputs())
        .map(|i| cx.sym_input(i).cloned())
        .collect();
    let Some(ins) = ins else { return };
    let refs: Vec<&SymTensor> = ins.iter().collect();
    let out = zip_broadcast(&refs, |e| {
        let (first, rest) = e.split_first()?;
        defined(rest.iter().fold((*first).clone(), |acc, d| f(&acc, d)))
    });
    if let Some(out) = out {
        cx.set_value(0, out);
    }
}

/// Propagates known integer values through an elementwise op of `arity`
/// inputs with broadcasting; does nothing when an input value is unknown
/// or a result element cannot be computed.
fn propagate(
    cx: &mut InferCtx,
    f: impl Fn(&Dim, &Dim) -> Option<Dim>,
    arity: usize,
) -> Result<(), Fail> {
    let zero = SymTensor::scalar(Dim::Known(0));
    let inputs: Option<Vec<SymTensor>> = (0..2)
        .map(|i| {
            if i < arity {
                cx.sym_input(i).cloned()
            } else {
                Some(zero.clone())
            }
        })
        .collect();
    if let Some(out) = inputs.and_then(|ins| zip_broadcast(&[&ins[0], &ins[1]], |e| f(e[0], e[1])))
    {
        cx.set_value(0, out);
    }
    Ok(())
}

/// `Where` on known values: picks from the second or third input.
fn propagate_where(cx: &mut InferCtx) {
    let ins: Option<Vec<SymTensor>> = (0..3).map(|i| cx.sym_input(i).cloned()).collect();
    let Some(ins) = ins else { return };
    let out = zip_broadcast(&[&ins[0], &ins[1], &ins[2]], |e| {
        defined(Dim::select(&truth(e[0])?, e[1], e[2]))
    });
    if let Some(out) = out {
        cx.set_value(0, out);
    }
}

/// Applies `f` elementwise over small tensors with numpy broadcasting.
pub(crate) fn zip_broadcast(
    inputs: &[&SymTensor],
    f: impl Fn(&[&Dim]) -> Option<Dim>,
) -> Option<SymTensor> {
    let rank = inputs.iter().map(|t| t.dims.len()).max()?;
    let padded: Vec<Vec<i64>> = inputs
        .iter()
        .map(|t| {
            std::iter::repeat_n(1, rank - t.dims.len())
                .chain(t.dims.iter().copied())
                .collect()
        })
        .collect();
    let mut dims = vec![1i64; rank];
    for p in &padded {
        for (o, &d) in dims.iter_mut().zip(p) {
            if d != 1 {
                if *o != 1 && *o != d {
                    return None;
                }
                *o = d;
            }
        }
    }
    let n: i64 = dims.iter().product();
    // Flat index into an input of (padded) dims `src` for output element `flat`.
    let index = |flat: i64, src: &[i64]| -> usize {
        let (mut rem, mut idx, mut stride) = (flat, 0i64, 1i64);
        for k in (0..rank).rev() {
            let coord = rem % dims[k];
            rem /= dims[k];
            if src[k] != 1 {
                idx += coord * stride;
            }
            stride *= src[k];
        }
        idx as usize
    };
    let elems = (0..n)
        .map(|i| {
            let args: Vec<&Dim> = inputs
                .iter()
                .zip(&padded)
                .map(|(t, p)| &t.elems[index(i, p)])
                .collect();
            f(&args)
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SymTensor { dims, elems })
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::attr::Attr;
    use crate::schema::OpKind;

    /// What `keeps_input_shape` (refinement from consumers) relies on:
    /// every op the table calls unary elementwise infers its first
    /// input's shape, symbolic and unknown dims included.
    #[test]
    fn every_unary_elementwise_op_keeps_its_input_shape() {
        for kind in OpKind::ALL.into_iter().filter(|k| k.is_unary_elementwise()) {
            let mut g = Graph::new(newest_opset(kind));
            let x = g.input(t("2xNx?xf32"));
            let mut inputs = vec![x];
            let attrs: Vec<(&str, Attr)> = match kind {
                OpKind::Cast | OpKind::BitCast => vec![("to", int(6))],
                OpKind::Activation => vec![("activation", Attr::str("Relu"))],
                OpKind::CastLike => {
                    inputs.push(g.input(t("i32")));
                    vec![]
                }
                _ => vec![],
            };
            let y = g.op(kind, &inputs, &attrs, 1)[0];
            g.infer().unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            let dims = g.ty(y);
            assert!(dims.starts_with(r#"tensor<2x"N"x?x"#), "{kind:?}: {dims}");
        }
    }

    /// The newest opset of the op's domain.
    fn newest_opset(kind: OpKind) -> i64 {
        i64::from(kind.domain().max_version())
    }

    #[test]
    fn unary_ops_keep_shape_and_type() {
        infers! {
            14 Relu(ti("2xNx4xf32")) => "2xNx4xf32";
            13 Sqrt(ti("*xf16")) => "*xf16";
            20 IsNaN(ti("3xf32")) => "3xi1";
            13 Cast(ti("2x3xf32"); to = int(7)) => "2x3xi64";
            13 Cast(ti("2xf32"); to = int(99)) => Fails(1, "'to' = 99");
            13 Clip(ti("5xf32")) => "5xf32";
        }
    }

    #[test]
    fn binary_ops_broadcast() {
        infers! {
            14 Add(ti("2x1x4xf32"), ti("3x1xf32")) => "2x3x4xf32";
            14 Mul(ti("Bx1xf32"), ti("4xf32")) => "Bx4xf32";
            14 Sub(ti("2xf32"), ti("3xf32")) => Fails(1, "do not broadcast");
            13 Equal(ti("2x3xi64"), ti("3xi64")) => "2x3xi1";
            6 Add(ti("2x3xf32"), ti("3xf32"); broadcast = int(1)) => "2x3xf32";
            13 Max(ti("2x1xf32"), ti("1x5xf32"), ti("5xf32")) => "2x5xf32";
            16 Where(ti("2x1xi1"), ti("3xf32"), ti("f32")) => "2x3xf32";
        }
    }

    #[test]
    fn integer_values_propagate() {
        infers! {
            14 Add(ci(&[2, 3]), cs(1)) => Valued("2xi64", &[3, 4]);
            14 Mul(ci(&[2, 3]), ci(&[4, 5])) => Valued("2xi64", &[8, 15]);
            14 Div(ci(&[7, -7]), cs(2)) => Valued("2xi64", &[3, -3]);
            13 Mod(ci(&[7, -7, 7]), ci(&[3, 3, -3])) => Valued("3xi64", &[1, 2, -2]);
            13 Mod(ci(&[7, -7]), cs(3); fmod = int(1)) => Valued("2xi64", &[1, -1]);
            13 Neg(ci(&[1, -2])) => Valued("2xi64", &[-1, 2]);
            13 Equal(ci(&[1, -1]), cs(-1)) => Valued("2xi1", &[0, 1]);
            13 Greater(ci(&[-3]), cs(-2)) => Valued("1xi1", &[0]);
            16 Where(ci(&[1, 0]), ci(&[5, 6]), ci(&[7, 8])) => Valued("2xi64", &[5, 8]);
            13 Max(ci(&[1, 9]), ci(&[4, 2])) => Valued("2xi64", &[4, 9]);
            13 Max(ci(&[1, 9]), ci(&[4, 2]), cs(5)) => Valued("2xi64", &[5, 9]);
            13 Min(ci(&[1, 9])) => Valued("2xi64", &[1, 9]);
            13 Abs(ci(&[-3, 4])) => Valued("2xi64", &[3, 4]);
            13 Abs(ci(&[i64::MIN])) => "1xi64";
        }
    }

    #[test]
    fn bool_values_propagate_through_logic() {
        infers! {
            1 Not(cb(&[false, true])) => Valued("2xi1", &[1, 0]);
            7 And(cb(&[true, true, false]), cb(&[true, false, false])) => Valued("3xi1", &[1, 0, 0]);
            7 Or(cb(&[true, false]), cb(&[false])) => Valued("2xi1", &[1, 0]);
            7 Xor(cb(&[true, false]), cb(&[true, true])) => Valued("2xi1", &[0, 1]);
            13 Cast(ci(&[0, 7, -1]); to = int(9)) => Valued("3xi1", &[0, 1, 1]);
            7 And(ti("2xi1"), cb(&[false, false])) => "2xi1";
        }
    }

    #[test]
    fn unknown_input_values_give_no_value() {
        let out = run(
            14,
            crate::schema::OpKind::Mul,
            &[ti("2xi64"), ci(&[1, 2])],
            &[],
            1,
        )
        .unwrap();
        assert!(
            out.values[0].is_none(),
            "an input of unknown value has no value"
        );
    }
}
