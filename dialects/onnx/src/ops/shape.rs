//! Shape arithmetic shared by the op families: broadcasting, axis
//! normalization, and the like.

use super::ctx::{invalid, Fail, InferCtx};
use crate::dim::Dim;
use crate::types::{ElemType, TensorType, Type};

/// Multidirectional (numpy) broadcasting of two shapes.
pub fn broadcast(a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, Fail> {
    let rank = a.len().max(b.len());
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let x = if i + a.len() >= rank {
            &a[i + a.len() - rank]
        } else {
            &Dim::Known(1)
        };
        let y = if i + b.len() >= rank {
            &b[i + b.len() - rank]
        } else {
            &Dim::Known(1)
        };
        out.push(broadcast_dim(x, y).ok_or_else(|| {
            invalid!(
                "shapes {} and {} do not broadcast",
                fmt_dims(a),
                fmt_dims(b)
            )
        })?);
    }
    Ok(out)
}

/// Broadcasts two dims: 1 stretches; equal dims stay; a static dim other
/// than 1 wins over an unknown one (the only valid outcome); two different
/// symbolic dims give a broadcast atom ([`Dim::broadcast_of`]).
pub fn broadcast_dim(x: &Dim, y: &Dim) -> Option<Dim> {
    match (x, y) {
        (Dim::Known(1), d) | (d, Dim::Known(1)) => Some(d.clone()),
        (Dim::Known(p), Dim::Known(q)) => (p == q).then(|| x.clone()),
        _ if x == y => Some(x.clone()),
        (Dim::Known(_), _) => Some(x.clone()),
        (_, Dim::Known(_)) => Some(y.clone()),
        (Dim::Sym(_), Dim::Sym(_)) => Some(Dim::broadcast_of(x, y)),
        _ => Some(Dim::Unknown),
    }
}

/// Broadcasts any number of shapes.
pub fn broadcast_all<'a>(shapes: impl IntoIterator<Item = &'a [Dim]>) -> Result<Vec<Dim>, Fail> {
    shapes
        .into_iter()
        .try_fold(Vec::new(), |acc, s| broadcast(&acc, s))
}

/// Maps an axis in `[-rank, rank)` to `[0, rank)`.
pub fn normalize_axis(axis: i64, rank: usize) -> Result<usize, Fail> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(invalid!("axis {axis} is out of range for rank {rank}"));
    }
    Ok(if axis < 0 {
        (axis + r) as usize
    } else {
        axis as usize
    })
}

/// Merges what `dim` says into `slot` (see [`Dim::merge`]), for dims the
/// spec requires to be equal; a contradiction is invalid, with `what`
/// naming the dim in the message.
pub fn unify(slot: &mut Dim, dim: &Dim, what: impl FnOnce() -> String) -> Result<(), Fail> {
    *slot = slot
        .merge(dim)
        .ok_or_else(|| invalid!("{} is {dim} but must be {slot}", what()))?;
    Ok(())
}

/// The most specific type that describes values of either type, for
/// values that may come from two places (the branches of an `If`, the
/// iterations of a loop, the elements of a sequence): dims that differ
/// become unknown, and so does the rank when the ranks differ. The
/// opposite of [`merge_types`](crate::types::merge_types). `None` when the two
/// are different kinds of value or have different element types.
pub fn union_types(a: &Type, b: &Type) -> Option<Type> {
    Some(match (a, b) {
        (Type::Unknown, _) | (_, Type::Unknown) => Type::Unknown,
        (Type::Tensor(x), Type::Tensor(y)) => Type::Tensor(union_tensor(x, y)?),
        (Type::SparseTensor(x), Type::SparseTensor(y)) => Type::SparseTensor(union_tensor(x, y)?),
        (Type::Sequence(x), Type::Sequence(y)) => Type::Sequence(Box::new(union_types(x, y)?)),
        (Type::Optional(x), Type::Optional(y)) => Type::Optional(Box::new(union_types(x, y)?)),
        (Type::Map(k1, x), Type::Map(k2, y)) if k1 == k2 => {
            Type::Map(*k1, Box::new(union_types(x, y)?))
        }
        _ => return None,
    })
}

/// [`union_types`] of two tensor types.
pub fn union_tensor(a: &TensorType, b: &TensorType) -> Option<TensorType> {
    if a.elem != b.elem {
        return None;
    }
    let shape = match (&a.shape, &b.shape) {
        (Some(x), Some(y)) if x.len() == y.len() => Some(
            x.iter()
                .zip(y)
                .map(|(p, q)| if p == q { p.clone() } else { Dim::Unknown })
                .collect(),
        ),
        _ => None,
    };
    Some(TensorType {
        elem: a.elem,
        shape,
    })
}

/// The tensor type of input `i` when it is present and its type is known,
/// for inputs that refine a result without being needed for it (weights,
/// scales, optional operands). Invalid when it is not a tensor.
pub fn known_tensor<'a>(cx: &'a InferCtx, i: usize) -> Result<Option<&'a TensorType>, Fail> {
    match cx.input_type(i) {
        None | Some(Type::Unknown) => Ok(None),
        Some(Type::Tensor(t)) => Ok(Some(t)),
        Some(other) => Err(invalid!("input {i} must be a tensor, got {other}")),
    }
}

/// An INT attribute naming an element type (`dtype`, `output_dtype`, …),
/// or its default; `None` when absent or 0 (`UNDEFINED`, which some
/// attributes use for "not set"). Invalid when it is not a data type.
pub fn elem_attr(cx: &InferCtx, name: &str) -> Result<Option<ElemType>, Fail> {
    match cx.int_opt(name)? {
        None | Some(0) => Ok(None),
        Some(code) => i32::try_from(code)
            .ok()
            .and_then(ElemType::from_onnx)
            .map(Some)
            .ok_or_else(|| invalid!("attribute '{name}' = {code} is not a data type")),
    }
}

/// Formats dims as `[1, ?, "N"]` for messages.
pub fn fmt_dims(dims: &[Dim]) -> String {
    let parts: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: &[i64]) -> Vec<Dim> {
        v.iter().map(|&x| Dim::Known(x)).collect()
    }

    #[test]
    fn numpy_broadcasting() {
        assert_eq!(
            broadcast(&d(&[2, 1, 4]), &d(&[3, 1])).unwrap(),
            d(&[2, 3, 4])
        );
        assert!(broadcast(&d(&[2]), &d(&[3])).is_err());
        let n = Dim::param("N");
        assert_eq!(
            broadcast(&[n.clone(), Dim::Known(1)], &d(&[5])).unwrap(),
            vec![n.clone(), Dim::Known(5)]
        );
        assert_eq!(broadcast(&[Dim::Unknown], &d(&[5])).unwrap(), d(&[5]));
        let m = Dim::param("M");
        let nm = broadcast(std::slice::from_ref(&n), std::slice::from_ref(&m)).unwrap();
        assert_eq!(nm, vec![Dim::broadcast_of(&n, &m)]);
        assert_eq!(nm[0].to_string(), r#""bcast(\"M\",\"N\")""#);
        assert_eq!(
            broadcast(std::slice::from_ref(&n), &[Dim::Unknown]).unwrap(),
            vec![Dim::Unknown]
        );
        assert_eq!(normalize_axis(-1, 3).unwrap(), 2);
        assert!(normalize_axis(3, 3).is_err());
    }

    #[test]
    fn union_generalizes() {
        use crate::types::ElemType::{F32, I64};
        let n = Dim::param("N");
        let a = Type::Tensor(TensorType::with_dims(F32, vec![n.clone(), Dim::Known(2)]));
        let b = Type::Tensor(TensorType::with_dims(F32, vec![n.clone(), Dim::Known(3)]));
        assert_eq!(
            union_types(&a, &b).unwrap().to_string(),
            r#"tensor<"N"x?xf32>"#
        );
        assert_eq!(union_types(&a, &a).unwrap(), a);
        assert_eq!(
            union_types(&a, &Type::tensor(F32, &[1]))
                .unwrap()
                .to_string(),
            "tensor<*xf32>"
        );
        assert!(union_types(&a, &Type::tensor(I64, &[1, 2])).is_none());
        let s = |t: &Type| Type::Sequence(Box::new(t.clone()));
        let seqs = union_types(&s(&a), &s(&b)).unwrap();
        assert_eq!(seqs.to_string(), r#"!onnx.seq<tensor<"N"x?xf32>>"#);
        assert!(union_types(&s(&a), &a).is_none());
        assert_eq!(union_types(&Type::Unknown, &a), Some(Type::Unknown));
    }

    #[test]
    fn unify_reports_contradictions() {
        let mut slot = Dim::Unknown;
        unify(&mut slot, &Dim::param("B"), || "batch".into()).unwrap();
        unify(&mut slot, &Dim::Known(4), || "batch".into()).unwrap();
        assert_eq!(slot, Dim::Known(4));
        let err = unify(&mut slot, &Dim::Known(5), || "dim 0 of input 1".into()).unwrap_err();
        assert_eq!(
            err,
            Fail::Invalid("dim 0 of input 1 is 5 but must be 4".into())
        );
    }
}
