//! Sequences and optionals.
//!
//! - `SequenceEmpty`: an empty sequence of `dtype` (default float) tensors.
//! - `SequenceConstruct`: the sequence of its inputs.
//! - `SequenceInsert`: the sequence with a tensor inserted at `position`
//!   (default: at the back); `SequenceErase`: with the tensor at `position`
//!   (default: the last) removed; `SequenceAt`: the tensor at `position`.
//! - `SequenceLength`: the number of tensors, an int64 scalar.
//! - `SequenceMap`: `body` applied to each element of the first input
//!   (taking the same element of the other sequence inputs, and the other
//!   inputs whole); one output sequence per body output.
//! - `SplitToSequence`: a tensor split along `axis` into pieces of `split`
//!   sizes (default: pieces of size 1, `keepdims` saying whether the axis
//!   stays); `ConcatFromSequence`: the tensors concatenated along `axis`, or
//!   stacked on a new `axis` when `new_axis` is 1.
//! - `Optional`: its input wrapped, or an empty optional of type `type`.
//! - `OptionalGetElement`: the optional's value; `OptionalHasElement`:
//!   whether it has one (a bool scalar).
//!
//! A sequence type describes every element: its element type is the union
//! ([`union_types`]) of the types of the tensors that can be in it, so
//! `SequenceConstruct` of `[2]` and `[3]` tensors is a sequence of `[?]`.
//! The length is not part of the type; where the ops that built a sequence
//! say how long it is (empty, constructed, split, inserted into, erased
//! from), `SequenceLength` gives it as a known value, and
//! `ConcatFromSequence` uses it for the concatenated dim.
//!
//! Versions: all ops are opset 11 except `SequenceMap` (17), `Optional`*
//! (15, 18, 28) and `SplitToSequence` 24 (more types, same rule).
//! `OptionalGetElement` and `OptionalHasElement` accept a tensor or a
//! sequence in place of an optional from version 18, and
//! `OptionalHasElement` an absent input.

use crate::attr::Attr;
use crate::dim::Dim;
use crate::ir::{Ir, OpId, Value, ValueDef};
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::knowledge::SymTensor;
use crate::ops::shape::{elem_attr, known_tensor, normalize_axis, union_types};
use crate::schema::{OpKind, SequenceOp};
use crate::types::{merge_types, ElemType, TensorType, Type};

pub(crate) fn infer(op: SequenceOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use SequenceOp::*;
    match op {
        SequenceEmpty => {
            let elem = elem_attr(cx, "dtype")?.unwrap_or(ElemType::F32);
            cx.set_type(0, seq_of(Type::Tensor(TensorType::unranked(elem))));
            Ok(())
        }
        SequenceConstruct => construct(cx),
        SequenceInsert => insert(cx),
        SequenceErase => {
            let ty = seq_of(sequence_elem(cx)?.clone());
            let len = input_len(cx, 0);
            if len == Some(Dim::Known(0)) {
                return Err(invalid!("erases from an empty sequence"));
            }
            check_position(cx, 1, len, false)?;
            cx.set_type(0, ty);
            Ok(())
        }
        SequenceAt => {
            let elem = sequence_elem(cx)?.clone();
            let len = input_len(cx, 0);
            let position = check_position(cx, 1, len, false)?;
            let ty = position
                .and_then(|p| constructed_element(cx.ir(), cx.op().inputs[0]?, p))
                .unwrap_or(elem);
            if ty != Type::Unknown {
                cx.set_type(0, ty);
            }
            Ok(())
        }
        SequenceLength => {
            sequence_elem(cx)?;
            cx.set_tensor(0, ElemType::I64, vec![]);
            if let Some(len) = input_len(cx, 0) {
                cx.set_value(0, SymTensor::scalar(len));
            }
            Ok(())
        }
        SequenceMap => sequence_map(cx),
        SplitToSequence => split_to_sequence(cx),
        ConcatFromSequence => concat_from_sequence(cx),
        Optional => optional(cx),
        OptionalGetElement => match cx.required_type(0)? {
            Type::Optional(inner) => {
                let inner = (**inner).clone();
                cx.set_type(0, inner);
                Ok(())
            }
            other if cx.version() < 18 => {
                Err(invalid!("the input must be an optional, got {other}"))
            }
            other => {
                let other = other.clone();
                cx.set_type(0, other);
                if let Some(v) = cx.sym_input(0).cloned() {
                    cx.set_value(0, v);
                }
                Ok(())
            }
        },
        OptionalHasElement => has_element(cx),
    }
}

fn seq_of(elem: Type) -> Type {
    Type::Sequence(Box::new(elem))
}

/// The element type of input 0, which must be a sequence.
fn sequence_elem<'a>(cx: &'a InferCtx) -> Result<&'a Type, Fail> {
    match cx.required_type(0)? {
        Type::Sequence(elem) => Ok(elem),
        other => Err(invalid!("input 0 must be a sequence, got {other}")),
    }
}

/// The length of sequence input `i`, when the ops that built it say.
fn input_len(cx: &InferCtx, i: usize) -> Option<Dim> {
    sequence_len(cx.ir(), (*cx.op().inputs.get(i)?)?)
}

/// The length of a sequence value, followed back through the ops that
/// built it: a chain of inserts and erases ending at an empty, constructed
/// or split sequence. `None` when it depends on run-time data.
pub(crate) fn sequence_len(ir: &Ir, mut v: Value) -> Option<Dim> {
    let mut offset = 0i64;
    loop {
        let ValueDef::Result(def, _) = ir.value(v).def else {
            return None;
        };
        let op = ir.op(def);
        let input0 = op.inputs.first().copied().flatten();
        let base = match op.kind {
            OpKind::SequenceEmpty => Dim::Known(0),
            OpKind::SequenceConstruct => Dim::Known(op.inputs.len() as i64),
            // Every output of SequenceMap is as long as its first input.
            OpKind::SequenceInsert
            | OpKind::SequenceErase
            | OpKind::Identity
            | OpKind::SequenceMap => {
                offset += match op.kind {
                    OpKind::SequenceInsert => 1,
                    OpKind::SequenceErase => -1,
                    _ => 0,
                };
                v = input0?;
                continue;
            }
            OpKind::SplitToSequence => split_len(ir, def)?,
            _ => return None,
        };
        return Some(base.add(&Dim::Known(offset)));
    }
}

/// The number of pieces a `SplitToSequence` op makes, from the shape of
/// its input and its `split` operand when that is absent or a constant.
fn split_len(ir: &Ir, op: OpId) -> Option<Dim> {
    let d = ir.op(op);
    let input = ir.ty(d.inputs.first().copied().flatten()?).as_tensor()?;
    let rank = input.rank()?;
    let axis = d.attrs.int("axis").unwrap_or(0);
    let axis = normalize_axis(axis, rank).ok()?;
    let dim = &input.dims()?[axis];
    let Some(split) = d.inputs.get(1).copied().flatten() else {
        return Some(dim.clone());
    };
    match ir.ty(split).as_tensor()?.dims()? {
        [n] => Some(n.clone()),
        [] => {
            let ValueDef::Result(c, _) = ir.value(split).def else {
                return None;
            };
            let size = ir.op(c).attrs.tensor("value")?.to_i64s()?;
            (size.len() == 1 && size[0] > 0).then(|| dim.ceil_div(size[0]))
        }
        _ => None,
    }
}

/// The type of element `position` of a sequence built by
/// `SequenceConstruct` (more precise than the sequence's element type).
fn constructed_element(ir: &Ir, seq: Value, position: i64) -> Option<Type> {
    let ValueDef::Result(def, _) = ir.value(seq).def else {
        return None;
    };
    let op = ir.op(def);
    if op.kind != OpKind::SequenceConstruct {
        return None;
    }
    let n = op.inputs.len() as i64;
    let index = if position < 0 { position + n } else { position };
    let element = op
        .inputs
        .get(usize::try_from(index).ok()?)
        .copied()
        .flatten()?;
    Some(ir.ty(element).clone())
}

/// Checks a known `position` operand (input `i`) against a known length:
/// `[-n, n-1]`, or `[-n, n]` for an insertion. Returns the position.
fn check_position(
    cx: &InferCtx,
    i: usize,
    len: Option<Dim>,
    insert: bool,
) -> Result<Option<i64>, Fail> {
    let Some(position) = cx.const_ints(i) else {
        return Ok(None);
    };
    let [p] = position[..] else {
        return Err(invalid!(
            "'position' must hold a single element, it has {}",
            position.len()
        ));
    };
    if let Some(Dim::Known(n)) = len {
        let hi = if insert { n } else { n - 1 };
        if p < -n || p > hi {
            return Err(invalid!(
                "position {p} is out of range for a sequence of {n} tensors"
            ));
        }
    }
    Ok(Some(p))
}

fn construct(cx: &mut InferCtx) -> Result<(), Fail> {
    if cx.num_inputs() == 0 {
        return Err(invalid!("needs at least one input"));
    }
    let first = cx.tensor(0)?.clone();
    let mut union = Type::Tensor(first.clone());
    for i in 1..cx.num_inputs() {
        let t = cx.tensor(i)?;
        if t.elem != first.elem {
            return Err(invalid!(
                "input {i} has element type {} but input 0 has {}",
                t.elem,
                first.elem
            ));
        }
        union = union_types(&union, &Type::Tensor(t.clone())).expect("same element type");
    }
    cx.set_type(0, seq_of(union));
    Ok(())
}

fn insert(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = sequence_elem(cx)?.clone();
    let tensor = Type::Tensor(cx.tensor(1)?.clone());
    let len = input_len(cx, 0);
    check_position(cx, 2, len.clone(), true)?;
    let union = union_types(&elem, &tensor)
        .ok_or_else(|| invalid!("inserts a {tensor} into a sequence of {elem}"))?;
    // Into an empty sequence, the tensor is the only element.
    let elem = if len == Some(Dim::Known(0)) {
        tensor
    } else {
        union
    };
    cx.set_type(0, seq_of(elem));
    Ok(())
}

fn sequence_map(cx: &mut InferCtx) -> Result<(), Fail> {
    let body = cx.graph("body")?;
    sequence_elem(cx)?;
    let len = input_len(cx, 0);
    let mut args = Vec::with_capacity(cx.num_inputs());
    for i in 0..cx.num_inputs() {
        match cx.input_type(i) {
            None => return Err(invalid!("input {i} is missing")),
            Some(Type::Sequence(elem)) => {
                if let (Some(Dim::Known(a)), Some(Dim::Known(b))) = (&len, input_len(cx, i)) {
                    if *a != b {
                        return Err(invalid!(
                            "input {i} is a sequence of {b} tensors but input 0 has {a}"
                        ));
                    }
                }
                args.push((**elem).clone());
            }
            Some(other) => args.push(other.clone()),
        }
    }
    let outs = cx.infer_subgraph(body, &args)?;
    if outs.len() != cx.num_outputs() {
        return Err(invalid!(
            "the body has {} outputs but the op has {} results",
            outs.len(),
            cx.num_outputs()
        ));
    }
    for (i, out) in outs.into_iter().enumerate() {
        if !matches!(out, Type::Tensor(_) | Type::Unknown) {
            return Err(invalid!(
                "output {i} of the body must be a tensor, got {out}"
            ));
        }
        cx.set_type(i, seq_of(out));
    }
    Ok(())
}

fn split_to_sequence(cx: &mut InferCtx) -> Result<(), Fail> {
    let input = cx.tensor(0)?.clone();
    let Some(dims) = input.dims() else {
        cx.set_type(0, seq_of(Type::Tensor(TensorType::unranked(input.elem))));
        return Ok(());
    };
    let axis = cx.int("axis")?;
    let axis = normalize_axis(axis, dims.len()).map_err(|_| {
        invalid!(
            "attribute 'axis' = {axis} is out of range for an input of rank {}",
            dims.len()
        )
    })?;
    let dim = &dims[axis];
    let mut out = dims.to_vec();
    if !cx.has_input(1) {
        if cx.int("keepdims")? != 0 {
            out[axis] = Dim::Known(1);
        } else {
            out.remove(axis);
        }
    } else {
        known_tensor(cx, 1)?;
        let split = cx
            .sym_input(1)
            .and_then(|s| Some((s.dims.is_empty(), s.as_known()?)));
        out[axis] = match split {
            Some((true, split)) => {
                let s = split[0];
                if s <= 0 {
                    return Err(invalid!("a scalar 'split' must be positive, got {s}"));
                }
                // The last piece is smaller unless `s` divides the dim.
                match dim {
                    Dim::Known(d) if d % s == 0 => Dim::Known(s),
                    _ => Dim::Unknown,
                }
            }
            Some((false, split)) => {
                if split.is_empty() {
                    return Err(invalid!("'split' is empty"));
                }
                if let Some(v) = split.iter().find(|&&v| v < 0) {
                    return Err(invalid!("'split' values must not be negative, got {v}"));
                }
                let sum: i64 = split.iter().sum();
                if dim.definitely_ne(&Dim::Known(sum)) {
                    return Err(invalid!(
                        "'split' sums to {sum} but the input's dim {axis} is {dim}"
                    ));
                }
                if split.iter().all(|&v| v == split[0]) {
                    Dim::Known(split[0])
                } else {
                    Dim::Unknown
                }
            }
            None => Dim::Unknown,
        };
    }
    cx.set_type(
        0,
        seq_of(Type::Tensor(TensorType::with_dims(input.elem, out))),
    );
    Ok(())
}

fn concat_from_sequence(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = match sequence_elem(cx)? {
        Type::Tensor(elem) => elem.clone(),
        Type::Unknown => return Err(unknown!("the sequence's element type is unknown")),
        other => {
            return Err(invalid!(
                "the sequence's elements must be tensors, got {other}"
            ))
        }
    };
    let axis = cx.int("axis")?;
    let new_axis = match cx.int("new_axis")? {
        0 => false,
        1 => true,
        v => return Err(invalid!("attribute 'new_axis' must be 0 or 1, got {v}")),
    };
    let Some(dims) = elem.dims() else {
        cx.set_unranked(0, elem.elem);
        return Ok(());
    };
    let out_rank = dims.len() + usize::from(new_axis);
    let axis_index = normalize_axis(axis, out_rank).map_err(|_| {
        invalid!(
            "attribute 'axis' = {axis} is out of range for {} tensors of rank {}",
            if new_axis {
                "stacking"
            } else {
                "concatenating"
            },
            dims.len()
        )
    })?;
    let len = input_len(cx, 0).unwrap_or(Dim::Unknown);
    let mut out = dims.to_vec();
    if new_axis {
        out.insert(axis_index, len);
    } else {
        // Every element has the element type's dim (when that is known).
        out[axis_index] = len.mul(&dims[axis_index]);
    }
    cx.set_tensor(0, elem.elem, out);
    Ok(())
}

fn optional(cx: &mut InferCtx) -> Result<(), Fail> {
    let declared = match cx.attr("type") {
        None => None,
        Some(Attr::Type(t)) => Some(t),
        Some(a) => {
            return Err(invalid!(
                "attribute 'type' must be TYPE_PROTO, got {}",
                a.kind().name()
            ))
        }
    };
    let ty = match (cx.input_type(0), declared) {
        (Some(input), None) => input.clone(),
        (Some(input), Some(declared)) => merge_types(input, &declared)
            .ok_or_else(|| invalid!("the input is {input} but attribute 'type' says {declared}"))?,
        (None, Some(declared)) => declared,
        (None, None) => return Err(invalid!("needs an input or the 'type' attribute")),
    };
    cx.set_type(0, Type::Optional(Box::new(ty)));
    Ok(())
}

fn has_element(cx: &mut InferCtx) -> Result<(), Fail> {
    let accepts_plain = cx.version() >= 18;
    let known = match cx.input_type(0) {
        None if accepts_plain => Some(false),
        None => return Err(invalid!("input 0 is required")),
        Some(Type::Optional(_)) => {
            // An optional made by an `Optional` op is empty exactly when
            // that op had no input.
            let v = cx.op().inputs[0].expect("present");
            match cx.ir().value(v).def {
                ValueDef::Result(def, _) if cx.ir().op(def).kind == OpKind::Optional => {
                    Some(matches!(cx.ir().op(def).inputs.first(), Some(Some(_))))
                }
                _ => None,
            }
        }
        Some(Type::Unknown) => None,
        Some(_) if accepts_plain => Some(true),
        Some(other) => return Err(invalid!("the input must be an optional, got {other}")),
    };
    cx.set_tensor(0, ElemType::Bool, vec![]);
    if let Some(has) = known {
        cx.set_value(0, SymTensor::scalar(Dim::Known(i64::from(has))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{opt, seq, t, Graph};
    use crate::attr::Attr;
    use crate::dim::Dim;
    use crate::ir::Value;
    use crate::ops::knowledge::{Knowledge, SymTensor};
    use crate::schema::OpKind::*;
    use crate::tensor::TensorData;

    fn known(k: &Knowledge, v: Value) -> Option<i64> {
        k.values.get(&v).and_then(SymTensor::as_known).map(|e| e[0])
    }

    #[test]
    fn construct_unions_element_shapes() {
        let mut g = Graph::new(28);
        let a = g.input(t("2xNxf32"));
        let b = g.input(t("3xNxf32"));
        let s = g.op_at(SequenceConstruct, 11, &[a, b], &[], 1)[0];
        let same = g.op_at(SequenceConstruct, 11, &[a, a], &[], 1)[0];
        let len = g.op_at(SequenceLength, 11, &[s], &[], 1)[0];
        let k = g.infer().unwrap();
        assert_eq!(g.ty(s), r#"!onnx.seq<tensor<?x"N"xf32>>"#);
        assert_eq!(g.ty(same), r#"!onnx.seq<tensor<2x"N"xf32>>"#);
        assert_eq!(g.ty(len), "tensor<i64>");
        assert_eq!(known(&k, len), Some(2));

        let mut g = Graph::new(28);
        let a = g.input(t("2xf32"));
        let b = g.input(t("2xi64"));
        g.op_at(SequenceConstruct, 11, &[a, b], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("input 1 has element type i64 but input 0 has f32"));
    }

    #[test]
    fn insert_erase_and_length() {
        // Backend test_sequence_insert_at_back: seq(int64 of unknown shape)
        // + int64[3] -> seq(int64 of unknown shape).
        let mut g = Graph::new(28);
        let s = g.input(seq(t("*xi64")));
        let x = g.input(t("3xi64"));
        let back = g.op_at(SequenceInsert, 11, &[s, x], &[], 1)[0];
        // Into an empty sequence the element type is the tensor's.
        let empty = g.op_at(SequenceEmpty, 11, &[], &[("dtype", Attr::Int(7))], 1)[0];
        let one = g.op_at(SequenceInsert, 11, &[empty, x], &[], 1)[0];
        let two = g.op_at(SequenceInsert, 11, &[one, x], &[], 1)[0];
        let erased = g.op_at(SequenceErase, 11, &[two], &[], 1)[0];
        let lens: Vec<Value> = [empty, one, two, erased, s]
            .iter()
            .map(|&q| g.op_at(SequenceLength, 11, &[q], &[], 1)[0])
            .collect();
        let k = g.infer().unwrap();
        assert_eq!(g.ty(back), "!onnx.seq<tensor<*xi64>>");
        assert_eq!(g.ty(empty), "!onnx.seq<tensor<*xi64>>");
        assert_eq!(g.ty(one), "!onnx.seq<tensor<3xi64>>");
        assert_eq!(g.ty(erased), "!onnx.seq<tensor<3xi64>>");
        let values: Vec<_> = lens.iter().map(|&l| known(&k, l)).collect();
        assert_eq!(values, [Some(0), Some(1), Some(2), Some(1), None]);

        let mut g = Graph::new(28);
        let empty = g.op_at(SequenceEmpty, 11, &[], &[], 1)[0];
        g.op_at(SequenceErase, 11, &[empty], &[], 1);
        assert!(g.infer_err().ends_with("erases from an empty sequence"));

        let mut g = Graph::new(28);
        let x = g.input(t("3xf32"));
        let s = g.op_at(SequenceEmpty, 11, &[], &[], 1)[0];
        let p = g.constant(TensorData::scalar(2i64));
        g.op_at(SequenceInsert, 11, &[s, x, p], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("position 2 is out of range for a sequence of 0 tensors"));

        let mut g = Graph::new(28);
        let s = g.input(seq(t("2xf32")));
        let x = g.input(t("2xi32"));
        g.op_at(SequenceInsert, 11, &[s, x], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("inserts a tensor<2xi32> into a sequence of tensor<2xf32>"));
    }

    #[test]
    fn sequence_at_reads_constructed_elements() {
        let mut g = Graph::new(28);
        let a = g.input(t("2xf32"));
        let b = g.input(t("3xf32"));
        let s = g.op_at(SequenceConstruct, 11, &[a, b], &[], 1)[0];
        let p = g.constant(TensorData::scalar(-1i64));
        let q = g.input(t("i64"));
        let last = g.op_at(SequenceAt, 11, &[s, p], &[], 1)[0];
        let any = g.op_at(SequenceAt, 11, &[s, q], &[], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(last), "tensor<3xf32>");
        assert_eq!(g.ty(any), "tensor<?xf32>");

        let mut g = Graph::new(28);
        let a = g.input(t("2xf32"));
        let s = g.op_at(SequenceConstruct, 11, &[a, a], &[], 1)[0];
        let p = g.constant(TensorData::scalar(2i64));
        g.op_at(SequenceAt, 11, &[s, p], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("position 2 is out of range for a sequence of 2 tensors"));
    }

    #[test]
    fn split_to_sequence() {
        let mut g = Graph::new(28);
        let data = g.input(t("3x6xf32"));
        // Backend test_split_to_sequence_1 (scalar split 2 on axis 1: three
        // [3, 2] pieces), _2 ([1, 2] on axis 0: [1, 6] and [2, 6]) and
        // _nokeepdims (six [3] pieces).
        let two = g.constant(TensorData::scalar(2i64));
        let one_two = g.constant(TensorData::i64s(&[1, 2]));
        let s1 = g.op_at(
            SplitToSequence,
            24,
            &[data, two],
            &[("axis", Attr::Int(1))],
            1,
        )[0];
        let s2 = g.op_at(
            SplitToSequence,
            24,
            &[data, one_two],
            &[("axis", Attr::Int(0))],
            1,
        )[0];
        let s3 = g.op_at(
            SplitToSequence,
            24,
            &[data],
            &[("axis", Attr::Int(1)), ("keepdims", Attr::Int(0))],
            1,
        )[0];
        let s4 = g.op_at(SplitToSequence, 11, &[data], &[], 1)[0];
        let sym = g.input(t("Nx2xf32"));
        let s5 = g.op_at(SplitToSequence, 24, &[sym], &[], 1)[0];
        let lens: Vec<Value> = [s1, s2, s3, s4, s5]
            .iter()
            .map(|&q| g.op_at(SequenceLength, 11, &[q], &[], 1)[0])
            .collect();
        let k = g.infer().unwrap();
        assert_eq!(g.ty(s1), "!onnx.seq<tensor<3x2xf32>>");
        assert_eq!(g.ty(s2), "!onnx.seq<tensor<?x6xf32>>");
        assert_eq!(g.ty(s3), "!onnx.seq<tensor<3xf32>>");
        assert_eq!(g.ty(s4), "!onnx.seq<tensor<1x6xf32>>");
        assert_eq!(g.ty(s5), "!onnx.seq<tensor<1x2xf32>>");
        let values: Vec<_> = lens[..4].iter().map(|&l| known(&k, l)).collect();
        assert_eq!(values, [Some(3), Some(2), Some(6), Some(3)]);
        assert_eq!(k.values[&lens[4]].elems, [Dim::param("N")]);

        let mut g = Graph::new(28);
        let data = g.input(t("3x6xf32"));
        let bad = g.constant(TensorData::i64s(&[1, 1]));
        g.op_at(SplitToSequence, 24, &[data, bad], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("'split' sums to 2 but the input's dim 0 is 3"));
    }

    #[test]
    fn concat_from_sequence_uses_the_length() {
        let mut g = Graph::new(28);
        let a = g.input(t("2xNxf32"));
        let s = g.op_at(SequenceConstruct, 11, &[a, a, a], &[], 1)[0];
        let cat = g.op_at(ConcatFromSequence, 11, &[s], &[("axis", Attr::Int(0))], 1)[0];
        let stack = g.op_at(
            ConcatFromSequence,
            11,
            &[s],
            &[("axis", Attr::Int(-1)), ("new_axis", Attr::Int(1))],
            1,
        )[0];
        let u = g.input(seq(t("2xNxf32")));
        let unknown_len = g.op_at(ConcatFromSequence, 11, &[u], &[("axis", Attr::Int(1))], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(cat), r#"tensor<6x"N"xf32>"#);
        assert_eq!(g.ty(stack), r#"tensor<2x"N"x3xf32>"#);
        assert_eq!(g.ty(unknown_len), "tensor<2x?xf32>");

        let mut g = Graph::new(28);
        let u = g.input(seq(t("2xf32")));
        g.op_at(ConcatFromSequence, 11, &[u], &[("axis", Attr::Int(1))], 1);
        assert!(g
            .infer_err()
            .ends_with("attribute 'axis' = 1 is out of range for concatenating tensors of rank 1"));
    }

    #[test]
    fn sequence_map_applies_the_body() {
        // Backend test_sequence_map_add_1_sequence_1_tensor: seq(float[N])
        // and float[N] through Add -> seq(float[N]).
        let mut g = Graph::new(28);
        let x0 = g.input(seq(t("Nxf32")));
        let x1 = g.input(t("Nxf32"));
        let r = g.region("body");
        let a = g.arg(r, crate::types::Type::Unknown);
        let b = g.arg(r, crate::types::Type::Unknown);
        let y = g.node(r, Add, 14, &[Some(a), Some(b)], &[true], &[])[0].unwrap();
        g.output(r, y);
        let out = g.op_at(SequenceMap, 17, &[x0, x1], &[("body", Attr::Graph(r))], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(out), r#"!onnx.seq<tensor<"N"xf32>>"#);
        assert_eq!(g.ty(a), r#"tensor<"N"xf32>"#);
    }

    #[test]
    fn optionals() {
        // Backend test_optional_get_element_optional_sequence and
        // test_optional_get_element_tensor (a plain tensor, opset 18+).
        let mut g = Graph::new(28);
        let main = g.main();
        let os = g.input(opt(seq(t("4xi32"))));
        let x = g.input(t("4xf32"));
        let got = g.op_at(OptionalGetElement, 28, &[os], &[], 1)[0];
        let plain = g.op_at(OptionalGetElement, 18, &[x], &[], 1)[0];
        let wrapped = g.op_at(Optional, 15, &[x], &[], 1)[0];
        let empty = g.op_at(Optional, 15, &[], &[("type", Attr::Type(t("i64")))], 1)[0];
        let has = [Some(wrapped), Some(empty), Some(x), None, Some(os)]
            .map(|i| g.node(main, OptionalHasElement, 18, &[i], &[true], &[])[0].unwrap());
        let k = g.infer().unwrap();
        assert_eq!(g.ty(got), "!onnx.seq<tensor<4xi32>>");
        assert_eq!(g.ty(plain), "tensor<4xf32>");
        assert_eq!(g.ty(wrapped), "!onnx.opt<tensor<4xf32>>");
        assert_eq!(g.ty(empty), "!onnx.opt<tensor<i64>>");
        assert_eq!(g.ty(has[0]), "tensor<i1>");
        assert_eq!(
            has.map(|h| known(&k, h)),
            [Some(1), Some(0), Some(1), Some(0), None]
        );

        let mut g = Graph::new(28);
        let x = g.input(t("4xf32"));
        g.op_at(OptionalGetElement, 15, &[x], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("the input must be an optional, got tensor<4xf32>"));

        let mut g = Graph::new(28);
        g.op_at(Optional, 15, &[], &[], 1);
        assert!(g
            .infer_err()
            .ends_with("needs an input or the 'type' attribute"));
    }
}
