//! Host kernels for ONNX-ML's maps: compiled code has no representation
//! for them, so the operators that make or read maps run here.
//!
//! | op | computes | handled |
//! |---|---|---|
//! | `ai.onnx.ml.ZipMap` (1) | a `[N, C]` float tensor to a sequence of N maps from the C class labels to the row's scores (a `[C]` tensor to one map) | `classlabels_strings` or `classlabels_int64s` |
//! | `ai.onnx.ml.DictVectorizer` (1) | a map to a `[1, V]` tensor: the value of each vocabulary key, 0 (or `""`) where the map has none | `string_vocabulary` or `int64_vocabulary`; float, double, int64 and string values |
//! | `ai.onnx.ml.CastMap` (1) | a map from int64 keys to a `[1, K]` tensor of its values in key order, cast to `cast_to` | `map_form` DENSE (the values in key order) and SPARSE (`max_map` slots, 0 where no key); TO_FLOAT, TO_INT64, TO_STRING from float or string values |
//!
//! The shapes follow onnxruntime, which gives DictVectorizer and CastMap a
//! leading dim of 1.

use onnx_mlc_dialect::{Attr, ElemType, OpKind, TensorType, Type};

use crate::error::Result;
use crate::tensor::Tensor;
use crate::value::{Map, MapKey, Sequence, StringTensor, Value};

use super::operand::{invalid, mismatch, required, tensor, unsupported};
use super::HostOp;

/// Whether this file has a kernel for `kind`.
pub(crate) fn handles(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::ZipMap | OpKind::DictVectorizer | OpKind::CastMap
    )
}

/// Runs one of the operators [`handles`] accepts.
pub(crate) fn run(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    match op.op.kind {
        OpKind::ZipMap => zip_map(op, inputs).map(|v| vec![v]),
        OpKind::DictVectorizer => dict_vectorizer(op, map(op, inputs)?).map(|v| vec![v]),
        OpKind::CastMap => cast_map(op, map(op, inputs)?).map(|v| vec![v]),
        _ => unreachable!("`handles` admits only the kinds above"),
    }
}

/// Input 0 as a map.
fn map<'a>(op: &HostOp, inputs: &[Option<&'a Value>]) -> Result<&'a Map> {
    match required(op, inputs, 0)? {
        Value::Map(m) => Ok(m),
        other => Err(invalid(
            op,
            format!("input 0 is a {}, not a map", other.kind()),
        )),
    }
}

/// The keys an attribute lists: `name_strings` or `name_int64s` (whichever
/// is given).
fn keys(op: &HostOp, strings: &str, ints: &str) -> Result<Vec<MapKey>> {
    match (op.attrs.get(strings), op.attrs.get(ints)) {
        (Some(Attr::Strings(s)), None) => Ok(s.iter().map(|k| MapKey::String(k.clone())).collect()),
        (None, Some(Attr::Ints(k))) => Ok(k.iter().map(|&k| MapKey::Int(k)).collect()),
        _ => Err(invalid(
            op,
            format!("exactly one of '{strings}' and '{ints}' must be given"),
        )),
    }
}

fn zip_map(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Value> {
    let x = tensor(op, inputs, 0)?;
    let labels = keys(op, "classlabels_strings", "classlabels_int64s")?;
    let scores = x
        .as_slice::<f32>()
        .map_err(|_| invalid(op, format!("the input must be float, got {}", x.elem())))?;
    let (rows, columns) = match x.shape() {
        &[c] => (1, c),
        &[n, c] => (n, c),
        s => {
            return Err(mismatch(
                op,
                format!("the input must be [N, C] or [C], got {s:?}"),
            ))
        }
    };
    if columns != labels.len() as i64 {
        return Err(mismatch(
            op,
            format!(
                "the input has {columns} columns for {} class labels",
                labels.len()
            ),
        ));
    }
    let key = match labels.first() {
        Some(MapKey::Int(_)) => ElemType::I64,
        _ => ElemType::String,
    };
    let value = Type::Tensor(TensorType::with_dims(ElemType::F32, vec![]));
    let items = (0..rows as usize)
        .map(|r| {
            let row = &scores[r * labels.len()..(r + 1) * labels.len()];
            Value::Map(Map {
                key,
                value: value.clone(),
                entries: labels
                    .iter()
                    .zip(row)
                    .map(|(k, &s)| (k.clone(), Value::Tensor(Tensor::scalar(s))))
                    .collect(),
            })
        })
        .collect();
    Ok(Value::Sequence(Sequence {
        elem: Type::Map(key, Box::new(value)),
        items,
    }))
}

/// A map value as one element of a tensor being built.
enum Elem {
    F32(f32),
    F64(f64),
    I64(i64),
    Str(Vec<u8>),
}

fn elem_of(op: &HostOp, v: &Value) -> Result<Elem> {
    let scalar = |t: &Tensor| -> Result<Elem> {
        if t.numel() != 1 {
            return Err(mismatch(
                op,
                format!("a map value of shape {:?}, not a scalar", t.shape()),
            ));
        }
        Ok(match t.elem() {
            ElemType::F32 => Elem::F32(t.as_slice::<f32>()?[0]),
            ElemType::F64 => Elem::F64(t.as_slice::<f64>()?[0]),
            ElemType::I64 => Elem::I64(t.as_slice::<i64>()?[0]),
            other => return Err(unsupported(op, format!("{other} map values are"))),
        })
    };
    match v {
        Value::Tensor(t) => scalar(t),
        Value::Strings(s) if s.data.len() == 1 => Ok(Elem::Str(s.data[0].clone())),
        other => Err(unsupported(op, format!("{} map values are", other.kind()))),
    }
}

/// A `[1, n]` tensor of `elem` from `values` (`None`: the type's zero).
fn row(op: &HostOp, elem: ElemType, values: Vec<Option<Elem>>) -> Result<Value> {
    let shape = vec![1, values.len() as i64];
    let bad = |e: &Elem| {
        let got = match e {
            Elem::F32(_) => "float",
            Elem::F64(_) => "double",
            Elem::I64(_) => "int64",
            Elem::Str(_) => "string",
        };
        mismatch(op, format!("a {got} map value for a {elem} result"))
    };
    macro_rules! numbers {
        ($t:ty) => {{
            let data = values
                .iter()
                .map(|v| match v {
                    None => Ok(<$t>::default()),
                    Some(Elem::F32(x)) => Ok(*x as $t),
                    Some(Elem::F64(x)) => Ok(*x as $t),
                    Some(Elem::I64(x)) => Ok(*x as $t),
                    Some(e @ Elem::Str(_)) => Err(bad(e)),
                })
                .collect::<Result<Vec<$t>>>()?;
            Value::Tensor(Tensor::from_vec(shape, data)?)
        }};
    }
    Ok(match elem {
        ElemType::F32 => numbers!(f32),
        ElemType::F64 => numbers!(f64),
        ElemType::I64 => numbers!(i64),
        ElemType::String => {
            let data = values
                .into_iter()
                .map(|v| match v {
                    None => Ok(vec![]),
                    Some(Elem::Str(s)) => Ok(s),
                    Some(Elem::F32(x)) => Ok(x.to_string().into_bytes()),
                    Some(e) => Err(bad(&e)),
                })
                .collect::<Result<Vec<_>>>()?;
            Value::Strings(StringTensor::new(shape, data)?)
        }
        other => return Err(unsupported(op, format!("{other} results are"))),
    })
}

fn dict_vectorizer(op: &HostOp, m: &Map) -> Result<Value> {
    let vocabulary = keys(op, "string_vocabulary", "int64_vocabulary")?;
    let elem = match &m.value {
        Type::Tensor(t) => t.elem,
        other => return Err(unsupported(op, format!("map values of type {other} are"))),
    };
    let values = vocabulary
        .iter()
        .map(|k| {
            m.entries
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| elem_of(op, v))
                .transpose()
        })
        .collect::<Result<Vec<_>>>()?;
    row(op, elem, values)
}

fn cast_map(op: &HostOp, m: &Map) -> Result<Value> {
    let string_attr = |name: &str, default: &str| match op.attrs.get(name) {
        Some(Attr::String(s)) => String::from_utf8_lossy(s).into_owned(),
        _ => default.to_string(),
    };
    let elem = match string_attr("cast_to", "TO_FLOAT").as_str() {
        "TO_FLOAT" => ElemType::F32,
        "TO_INT64" => ElemType::I64,
        "TO_STRING" => ElemType::String,
        other => return Err(invalid(op, format!("unknown cast_to \"{other}\""))),
    };
    let mut entries = m
        .entries
        .iter()
        .map(|(k, v)| match k {
            MapKey::Int(k) => Ok((*k, v)),
            MapKey::String(_) => Err(invalid(op, "a map with string keys")),
        })
        .collect::<Result<Vec<_>>>()?;
    entries.sort_by_key(|(k, _)| *k);
    let values = match string_attr("map_form", "DENSE").as_str() {
        "DENSE" => entries
            .iter()
            .map(|(_, v)| elem_of(op, v).map(Some))
            .collect::<Result<Vec<_>>>()?,
        "SPARSE" => {
            let slots = match op.attrs.get("max_map") {
                Some(Attr::Int(n)) if *n > 0 => *n,
                _ => return Err(invalid(op, "a SPARSE map_form needs a positive 'max_map'")),
            };
            let mut values: Vec<Option<Elem>> = (0..slots).map(|_| None).collect();
            for (k, v) in &entries {
                if *k >= 0 && *k < slots {
                    values[*k as usize] = Some(elem_of(op, v)?);
                }
            }
            values
        }
        other => return Err(invalid(op, format!("unknown map_form \"{other}\""))),
    };
    row(op, elem, values)
}
