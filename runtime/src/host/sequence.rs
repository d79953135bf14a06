//! Host kernels for sequences and optionals (ONNX opsets 11–21).
//!
//! - `SequenceEmpty`: an empty sequence of `dtype` (default float) tensors.
//! - `SequenceConstruct`: the sequence of its inputs.
//! - `SequenceInsert`: the sequence with a tensor inserted at `position`
//!   (default: appended); positions in `[-n, n]`.
//! - `SequenceErase`: the sequence without the item at `position`
//!   (default: the last); positions in `[-n, n - 1]`.
//! - `SequenceAt`: the item at `position`, in `[-n, n - 1]`.
//! - `SequenceLength`: the item count, an `int64` scalar.
//! - `SplitToSequence`: a tensor cut along `axis` into pieces of `split`
//!   sizes (a scalar: equal pieces, the last one shorter; absent: pieces of
//!   one, squeezed unless `keepdims` is 1).
//! - `ConcatFromSequence`: the items joined along `axis`, or stacked along
//!   a new axis with `new_axis` = 1.
//! - `Optional`: its input wrapped, or an empty optional of `type`.
//! - `OptionalHasElement`: whether the input is present (opset 18 also
//!   takes a tensor or sequence, always present, or no input at all).
//! - `OptionalGetElement`: the optional's value (opset 18: a tensor or
//!   sequence passes through); an empty optional is a run-time error.
//! - `Identity` on sequences and optionals: the value itself.
//!
//! A position out of range is a run-time error with the C runtime's
//! `OMLC_ERR_INDEX` code, like an out-of-range gather index in compiled
//! code; shapes that do not fit together give `OMLC_ERR_SHAPE`.

use onnx_mlc_dialect::{ElemType, OpKind, TensorType, Type};

use super::HostOp;
use crate::abi::{OMLC_ERR_INDEX, OMLC_ERR_INVALID_ARGUMENT, OMLC_ERR_SHAPE};
use crate::error::{Result, RuntimeError};
use crate::tensor::Tensor;
use crate::value::{Sequence, Value};

/// Whether this file has a kernel for `kind`.
pub(super) fn handles(kind: OpKind) -> bool {
    use OpKind::*;
    matches!(
        kind,
        SequenceEmpty
            | SequenceConstruct
            | SequenceInsert
            | SequenceErase
            | SequenceAt
            | SequenceLength
            | SplitToSequence
            | ConcatFromSequence
            | Optional
            | OptionalHasElement
            | OptionalGetElement
            | Identity
    )
}

/// Runs one of the operators [`handles`] accepts.
pub(super) fn run(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    use OpKind::*;
    let input = |i: usize| inputs.get(i).copied().flatten();
    let required = |i: usize| {
        input(i).ok_or_else(|| {
            fail(
                op,
                OMLC_ERR_INVALID_ARGUMENT,
                format!("input {i} is missing"),
            )
        })
    };
    let out = match op.op.kind {
        SequenceEmpty => {
            let dtype = op.attrs.int("dtype").unwrap_or(ElemType::F32 as i64);
            let elem = ElemType::from_onnx(dtype as i32)
                .ok_or_else(|| fail(op, OMLC_ERR_INVALID_ARGUMENT, format!("dtype {dtype}")))?;
            Value::Sequence(Sequence {
                elem: item_type(op).unwrap_or(Type::Tensor(TensorType::unranked(elem))),
                items: vec![],
            })
        }
        SequenceConstruct => {
            let items: Vec<Value> = inputs.iter().flatten().map(|v| (*v).clone()).collect();
            let elem = item_type(op)
                .or_else(|| items.first().map(Value::type_of))
                .unwrap_or(Type::Unknown);
            Value::Sequence(Sequence { elem, items })
        }
        SequenceInsert => {
            let mut seq = sequence(op, required(0)?)?.clone();
            let item = required(1)?.clone();
            let n = seq.items.len();
            let at = match input(2) {
                Some(p) => position(op, p, n, true)?,
                None => n,
            };
            seq.items.insert(at, item);
            Value::Sequence(seq)
        }
        SequenceErase => {
            let mut seq = sequence(op, required(0)?)?.clone();
            let n = seq.items.len();
            let at = match input(1) {
                Some(p) => position(op, p, n, false)?,
                None if n > 0 => n - 1,
                None => return Err(fail(op, OMLC_ERR_INDEX, "the sequence is empty".into())),
            };
            seq.items.remove(at);
            Value::Sequence(seq)
        }
        SequenceAt => {
            let seq = sequence(op, required(0)?)?;
            let at = position(op, required(1)?, seq.items.len(), false)?;
            seq.items[at].clone()
        }
        SequenceLength => {
            let n = sequence(op, required(0)?)?.items.len();
            Value::Tensor(Tensor::scalar(n as i64))
        }
        SplitToSequence => split_to_sequence(op, tensor(op, required(0)?)?, input(1))?,
        ConcatFromSequence => concat_from_sequence(op, sequence(op, required(0)?)?)?,
        Optional => Value::Optional(crate::value::Optional {
            elem: match (input(0), &op.results[0]) {
                (Some(v), _) => v.type_of(),
                (None, Type::Optional(inner)) => (**inner).clone(),
                (None, _) => op
                    .attrs
                    .get("type")
                    .and_then(|a| match a {
                        onnx_mlc_dialect::Attr::Type(t) => Some(t.clone()),
                        _ => None,
                    })
                    .unwrap_or(Type::Unknown),
            },
            value: input(0).map(|v| Box::new(v.clone())),
        }),
        OptionalHasElement => {
            let present = match input(0) {
                Some(Value::Optional(o)) => o.value.is_some(),
                Some(_) => true,
                None => false,
            };
            Value::Tensor(Tensor::scalar(present))
        }
        OptionalGetElement => match required(0)? {
            Value::Optional(o) => match &o.value {
                Some(v) => (**v).clone(),
                None => {
                    return Err(fail(
                        op,
                        OMLC_ERR_INVALID_ARGUMENT,
                        "the optional is empty".into(),
                    ))
                }
            },
            v => v.clone(),
        },
        Identity => required(0)?.clone(),
        _ => unreachable!("`handles` admits only the kinds above"),
    };
    Ok(vec![out])
}

/// A run-time failure of `op` with the C runtime's error `code`.
fn fail(op: &HostOp, code: i32, message: String) -> RuntimeError {
    RuntimeError::Host {
        op: op.op.to_string(),
        code,
        message,
    }
}

/// The item type of the sequence `op` returns, when inference knew it.
fn item_type(op: &HostOp) -> Option<Type> {
    match op.results.first() {
        Some(Type::Sequence(t)) if **t != Type::Unknown => Some((**t).clone()),
        _ => None,
    }
}

fn sequence<'v>(op: &HostOp, v: &'v Value) -> Result<&'v Sequence> {
    match v {
        Value::Sequence(s) => Ok(s),
        other => Err(fail(
            op,
            OMLC_ERR_INVALID_ARGUMENT,
            format!("expected a sequence, got {}", other.kind()),
        )),
    }
}

fn tensor<'v>(op: &HostOp, v: &'v Value) -> Result<&'v Tensor> {
    match v {
        Value::Tensor(t) => Ok(t),
        other => Err(fail(
            op,
            OMLC_ERR_INVALID_ARGUMENT,
            format!("expected a dense tensor, got {}", other.kind()),
        )),
    }
}

/// The integers of an `int32`/`int64` tensor.
fn ints(op: &HostOp, v: &Value) -> Result<Vec<i64>> {
    let t = tensor(op, v)?;
    match t.elem() {
        ElemType::I64 => t.to_vec::<i64>(),
        ElemType::I32 => Ok(t.to_vec::<i32>()?.into_iter().map(i64::from).collect()),
        e => Err(fail(
            op,
            OMLC_ERR_INVALID_ARGUMENT,
            format!("expected int32 or int64 indices, got {e}"),
        )),
    }
}

/// A scalar position into a sequence of `n` items, made non-negative;
/// `end` admits `n` itself (insertion at the end).
fn position(op: &HostOp, v: &Value, n: usize, end: bool) -> Result<usize> {
    let p = match ints(op, v)?.as_slice() {
        [p] => *p,
        other => {
            return Err(fail(
                op,
                OMLC_ERR_INVALID_ARGUMENT,
                format!("the position must be a scalar, got {} values", other.len()),
            ))
        }
    };
    let n = n as i64;
    let last = if end { n } else { n - 1 };
    if p < -n || p > last {
        return Err(fail(
            op,
            OMLC_ERR_INDEX,
            format!("position {p} is out of range for a sequence of {n} items"),
        ));
    }
    Ok(if p < 0 { p + n } else { p } as usize)
}

/// An axis in `[-rank, rank)`, made non-negative.
fn axis(op: &HostOp, axis: i64, rank: usize) -> Result<usize> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(fail(
            op,
            OMLC_ERR_INVALID_ARGUMENT,
            format!("axis {axis} is out of range for rank {rank}"),
        ));
    }
    Ok(if axis < 0 { axis + r } else { axis } as usize)
}

/// Bytes per element; sub-byte element types are not split or joined yet.
fn elem_bytes(op: &HostOp, elem: ElemType) -> Result<usize> {
    let bits = elem.bit_width() as usize;
    if bits == 0 || bits % 8 != 0 {
        return Err(RuntimeError::Unsupported(format!(
            "{}: sequences of {elem} tensors are",
            op.op
        )));
    }
    Ok(bits / 8)
}

fn split_to_sequence(op: &HostOp, t: &Tensor, split: Option<&Value>) -> Result<Value> {
    let shape = t.shape();
    if shape.is_empty() {
        return Err(fail(op, OMLC_ERR_SHAPE, "cannot split a scalar".into()));
    }
    let a = axis(op, op.attrs.int("axis").unwrap_or(0), shape.len())?;
    let len = shape[a];
    let keepdims = op.attrs.int("keepdims").unwrap_or(1) != 0;
    let (sizes, squeeze) = match split {
        None => (vec![1; len as usize], !keepdims),
        Some(v) => {
            let s = ints(op, v)?;
            let scalar = matches!(v, Value::Tensor(t) if t.rank() == 0);
            let sizes = if scalar {
                let chunk = s[0];
                if chunk <= 0 {
                    return Err(fail(op, OMLC_ERR_SHAPE, format!("split size {chunk}")));
                }
                let mut sizes = vec![chunk; (len / chunk) as usize];
                if len % chunk != 0 {
                    sizes.push(len % chunk);
                }
                sizes
            } else {
                s
            };
            if sizes.iter().any(|&s| s < 0) || sizes.iter().sum::<i64>() != len {
                return Err(fail(
                    op,
                    OMLC_ERR_SHAPE,
                    format!("split sizes {sizes:?} do not add up to dim {a} ({len})"),
                ));
            }
            (sizes, false)
        }
    };
    let width = elem_bytes(op, t.elem())?;
    let outer: usize = shape[..a].iter().product::<i64>() as usize;
    let inner: usize = shape[a + 1..].iter().product::<i64>() as usize * width;
    let bytes = t.as_bytes();
    let mut items = Vec::with_capacity(sizes.len());
    let mut start = 0usize;
    for &size in &sizes {
        let size = size as usize;
        let mut piece = Vec::with_capacity(outer * size * inner);
        for o in 0..outer {
            let from = (o * len as usize + start) * inner;
            piece.extend_from_slice(&bytes[from..from + size * inner]);
        }
        let mut dims = shape.to_vec();
        dims[a] = size as i64;
        if squeeze {
            dims.remove(a);
        }
        items.push(Value::Tensor(Tensor::from_bytes(t.elem(), &dims, &piece)?));
        start += size;
    }
    let elem = item_type(op).unwrap_or(Type::Tensor(TensorType::unranked(t.elem())));
    Ok(Value::Sequence(Sequence { elem, items }))
}

fn concat_from_sequence(op: &HostOp, seq: &Sequence) -> Result<Value> {
    let new_axis = op.attrs.int("new_axis").unwrap_or(0) != 0;
    let tensors = seq
        .items
        .iter()
        .map(|v| tensor(op, v))
        .collect::<Result<Vec<_>>>()?;
    let Some(first) = tensors.first() else {
        return Err(fail(op, OMLC_ERR_SHAPE, "the sequence is empty".into()));
    };
    let rank = first.rank();
    let out_rank = rank + usize::from(new_axis);
    let a = axis(
        op,
        op.attrs
            .int("axis")
            .ok_or_else(|| fail(op, OMLC_ERR_INVALID_ARGUMENT, "no axis".into()))?,
        out_rank,
    )?;
    // With `new_axis`, every item is viewed with a 1 inserted at `a`.
    let view = |t: &Tensor| -> Vec<i64> {
        let mut s = t.shape().to_vec();
        if new_axis {
            s.insert(a, 1);
        }
        s
    };
    let base = view(first);
    let mut total = 0i64;
    for t in &tensors {
        let s = view(t);
        let fits = t.elem() == first.elem()
            && s.len() == base.len()
            && s.iter()
                .zip(&base)
                .enumerate()
                .all(|(i, (x, y))| i == a || x == y);
        if !fits {
            return Err(fail(
                op,
                OMLC_ERR_SHAPE,
                format!(
                    "items of shapes {:?} ({}) and {:?} ({}) cannot be joined along axis {a}",
                    first.shape(),
                    first.elem(),
                    t.shape(),
                    t.elem()
                ),
            ));
        }
        total += s[a];
    }
    let width = elem_bytes(op, first.elem())?;
    let outer: usize = base[..a].iter().product::<i64>() as usize;
    let inner: usize = base[a + 1..].iter().product::<i64>() as usize * width;
    let mut out = Vec::with_capacity(outer * total as usize * inner);
    for o in 0..outer {
        for t in &tensors {
            let rows = view(t)[a] as usize * inner;
            out.extend_from_slice(&t.as_bytes()[o * rows..(o + 1) * rows]);
        }
    }
    let mut dims = base;
    dims[a] = total;
    Ok(Value::Tensor(Tensor::from_bytes(
        first.elem(),
        &dims,
        &out,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_mlc_dialect::ir::OpRef;
    use onnx_mlc_dialect::{Attr, Attrs};

    fn op(kind: OpKind, attrs: &[(&str, Attr)]) -> HostOp {
        HostOp {
            op: OpRef {
                node: "n".into(),
                kind,
                version: 11,
            },
            attrs: Attrs(
                attrs
                    .iter()
                    .map(|(n, a)| (n.to_string(), a.clone()))
                    .collect(),
            ),
            results: vec![Type::Unknown],
        }
    }

    fn t(shape: &[i64], v: &[f32]) -> Value {
        Value::Tensor(Tensor::from_slice(shape, v).unwrap())
    }

    fn i(p: i64) -> Value {
        Value::Tensor(Tensor::scalar(p))
    }

    fn run1(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Value> {
        run(op, inputs).map(|mut v| v.remove(0))
    }

    fn floats(v: &Value) -> (Vec<i64>, Vec<f32>) {
        match v {
            Value::Tensor(t) => (t.shape().to_vec(), t.to_vec().unwrap()),
            other => panic!("not a tensor: {other:?}"),
        }
    }

    fn seq(items: Vec<Value>) -> Value {
        Value::Sequence(Sequence {
            elem: Type::Unknown,
            items,
        })
    }

    #[test]
    fn insert_erase_at_with_negative_positions() {
        let (a, b, c) = (t(&[1], &[1.0]), t(&[1], &[2.0]), t(&[1], &[3.0]));
        let s = run1(&op(OpKind::SequenceConstruct, &[]), &[Some(&a), Some(&b)]).unwrap();
        let s = run1(
            &op(OpKind::SequenceInsert, &[]),
            &[Some(&s), Some(&c), Some(&i(-1))],
        )
        .unwrap();
        // [1, 3, 2]
        let at = run1(&op(OpKind::SequenceAt, &[]), &[Some(&s), Some(&i(-2))]).unwrap();
        assert_eq!(floats(&at).1, [3.0]);
        let s = run1(&op(OpKind::SequenceErase, &[]), &[Some(&s), Some(&i(0))]).unwrap();
        let n = run1(&op(OpKind::SequenceLength, &[]), &[Some(&s)]).unwrap();
        match n {
            Value::Tensor(n) => assert_eq!(n.to_vec::<i64>().unwrap(), [2]),
            other => panic!("{other:?}"),
        }
        let err = run1(&op(OpKind::SequenceAt, &[]), &[Some(&s), Some(&i(2))]).unwrap_err();
        assert!(
            matches!(
                err,
                RuntimeError::Host {
                    code: OMLC_ERR_INDEX,
                    ..
                }
            ),
            "{err}"
        );
        assert!(run1(&op(OpKind::SequenceAt, &[]), &[Some(&s), Some(&i(-3))]).is_err());
    }

    #[test]
    fn split_and_concat_round_trip() {
        let x = t(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        let split = Value::Tensor(Tensor::from_slice(&[2], &[2i64, 1]).unwrap());
        let s = run1(
            &op(OpKind::SplitToSequence, &[("axis", Attr::Int(1))]),
            &[Some(&x), Some(&split)],
        )
        .unwrap();
        let Value::Sequence(items) = &s else { panic!() };
        assert_eq!(
            floats(&items.items[0]),
            (vec![2, 2], vec![0.0, 1.0, 3.0, 4.0])
        );
        assert_eq!(floats(&items.items[1]), (vec![2, 1], vec![2.0, 5.0]));
        let back = run1(
            &op(OpKind::ConcatFromSequence, &[("axis", Attr::Int(-1))]),
            &[Some(&s)],
        )
        .unwrap();
        assert_eq!(floats(&back), floats(&x));
        // Pieces of one, squeezed, then stacked again.
        let s = run1(
            &op(
                OpKind::SplitToSequence,
                &[("axis", Attr::Int(0)), ("keepdims", Attr::Int(0))],
            ),
            &[Some(&x)],
        )
        .unwrap();
        let Value::Sequence(rows) = &s else { panic!() };
        assert_eq!(floats(&rows.items[1]), (vec![3], vec![3.0, 4.0, 5.0]));
        let stacked = run1(
            &op(
                OpKind::ConcatFromSequence,
                &[("axis", Attr::Int(1)), ("new_axis", Attr::Int(1))],
            ),
            &[Some(&s)],
        )
        .unwrap();
        assert_eq!(
            floats(&stacked),
            (vec![3, 2], vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0])
        );
        // A scalar split: pieces of 2, the last one shorter.
        let two = i(2);
        let s = run1(
            &op(OpKind::SplitToSequence, &[("axis", Attr::Int(1))]),
            &[Some(&x), Some(&two)],
        )
        .unwrap();
        let Value::Sequence(parts) = &s else { panic!() };
        assert_eq!(parts.items.len(), 2);
        assert_eq!(floats(&parts.items[1]).0, [2, 1]);
    }

    #[test]
    fn optionals() {
        let x = t(&[1], &[7.0]);
        let some = run1(&op(OpKind::Optional, &[]), &[Some(&x)]).unwrap();
        let none = run1(
            &op(
                OpKind::Optional,
                &[("type", Attr::Type(Type::tensor(ElemType::F32, &[1])))],
            ),
            &[None],
        )
        .unwrap();
        let has = |v: &Value| match run1(&op(OpKind::OptionalHasElement, &[]), &[Some(v)]) {
            Ok(Value::Tensor(t)) => t.to_vec::<bool>().unwrap()[0],
            other => panic!("{other:?}"),
        };
        assert!(has(&some) && !has(&none) && has(&x));
        let got = run1(&op(OpKind::OptionalGetElement, &[]), &[Some(&some)]).unwrap();
        assert_eq!(floats(&got).1, [7.0]);
        assert!(run1(&op(OpKind::OptionalGetElement, &[]), &[Some(&none)]).is_err());
        let s = seq(vec![x.clone()]);
        let same = run1(&op(OpKind::Identity, &[]), &[Some(&s)]).unwrap();
        assert!(matches!(same, Value::Sequence(s) if s.items.len() == 1));
    }
}
