//! Host kernels for string tensors: compiled code has no representation
//! for variable-length elements, so every operator that reads or writes
//! strings runs here.
//!
//! | op | computes | handled |
//! |---|---|---|
//! | `StringNormalizer` (10) | drops `stopwords` from a `[C]` or `[1, C]` tensor, then changes case | `case_change_action` LOWER/UPPER/NONE, `is_case_sensitive`, `locale` (Unicode default casing; Turkish, Azeri and Lithuanian refused) |
//! | `StringSplit` (20) | splits each element at `delimiter` (empty or absent: runs of whitespace), at most `maxsplit` times | the pieces padded with `""` to `X.shape + [max pieces]`, and the piece counts |
//! | `StringConcat` (20) | elementwise `x + y` | numpy broadcasting |
//! | `RegexFullMatch` (20) | whether each element matches `pattern` entirely | the `regex` crate's syntax (RE2's, but `\w`, `\d`, `\b` are Unicode-aware, as in the ONNX reference's Python `re`) |
//! | `Equal` (1–19) | elementwise equality, as bool | string operands, numpy broadcasting (numbers are compiled) |
//! | `Gather` (1, 11, 13) | numpy's `take` of strings along `axis` (a classifier's string label by class index) | int32 and int64 indices, negative from the end |
//! | `ai.onnx.ml.LabelEncoder` (1, 2, 4) | maps each key to its value, else the default | version 1's `classes_strings` (string ↔ index); keys and values as `*_strings`/`*_int64s`/`*_floats` or `*_tensor` (string, int16/32/64, float, double), `default_*` |
//! | `ai.onnx.ml.CategoryMapper` (1) | the LabelEncoder from `cats_strings` to `cats_int64s` (string input) or back | `default_int64`, `default_string` |
//!
//! Where the ONNX reference and onnxruntime differ, the kernels follow the
//! spec and onnxruntime: `StringNormalizer` drops whole elements equal to
//! a stopword and keeps empty strings (the reference removes stopwords
//! word by word inside each element, drops empty results, and strips
//! accents).

use std::collections::HashMap;

use half::f16;
use onnx_mlc_dialect::{Attr, ElemType, OpKind, TensorData};

use crate::error::Result;
use crate::tensor::Tensor;
use crate::value::{StringTensor, Value};

use super::operand::{invalid, mismatch, required, strings, tensor, unsupported};
use super::HostOp;

/// Whether this file has a kernel for `kind`.
pub(crate) fn handles(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::StringNormalizer
            | OpKind::StringSplit
            | OpKind::StringConcat
            | OpKind::RegexFullMatch
            | OpKind::Equal
            | OpKind::LabelEncoder
            | OpKind::CategoryMapper
            | OpKind::Gather
    )
}

/// Runs one of the operators [`handles`] accepts.
pub(crate) fn run(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    match op.op.kind {
        OpKind::StringNormalizer => string_normalizer(op, strings(op, inputs, 0)?),
        OpKind::StringSplit => string_split(op, strings(op, inputs, 0)?),
        OpKind::StringConcat => {
            let (x, y) = (strings(op, inputs, 0)?, strings(op, inputs, 1)?);
            let (shape, data) = broadcast(op, x, y, |a, b| [a, b].concat())?;
            Ok(vec![Value::Strings(StringTensor { shape, data })])
        }
        OpKind::RegexFullMatch => regex_full_match(op, strings(op, inputs, 0)?),
        OpKind::Equal => equal(op, inputs),
        OpKind::LabelEncoder | OpKind::CategoryMapper => {
            label_encoder(op, required(op, inputs, 0)?)
        }
        OpKind::Gather => gather(op, strings(op, inputs, 0)?, tensor(op, inputs, 1)?),
        _ => unreachable!("strings::run called for {}", op.op),
    }
}

/// The string attribute `name`, or `default`.
fn string_attr<'a>(op: &'a HostOp, name: &str, default: &'a [u8]) -> &'a [u8] {
    match op.attrs.get(name) {
        Some(Attr::String(s)) => s,
        _ => default,
    }
}

/// A string as UTF-8, for the operations that need characters.
fn utf8<'a>(op: &HostOp, s: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(s).map_err(|_| invalid(op, "a string is not valid UTF-8"))
}

/// `StringNormalizer`: see the module docs.
fn string_normalizer(op: &HostOp, x: &StringTensor) -> Result<Vec<Value>> {
    let row = match x.shape[..] {
        [_] => false,
        [1, _] => true,
        _ => {
            return Err(invalid(
                op,
                format!("the input must be [C] or [1, C], got {:?}", x.shape),
            ))
        }
    };
    let action = string_attr(op, "case_change_action", b"NONE");
    if !matches!(action, b"NONE" | b"LOWER" | b"UPPER") {
        return Err(invalid(
            op,
            format!(
                "case_change_action must be LOWER, UPPER or NONE, got {:?}",
                String::from_utf8_lossy(action)
            ),
        ));
    }
    let locale = string_attr(op, "locale", b"");
    if [&b"tr"[..], b"az", b"lt"]
        .iter()
        .any(|lang| locale.starts_with(lang))
    {
        return Err(unsupported(
            op,
            format!(
                "locale {:?} (casing rules beyond Unicode's defaults) is",
                String::from_utf8_lossy(locale)
            ),
        ));
    }
    let case_sensitive = op.attrs.int("is_case_sensitive").unwrap_or(0) != 0;
    let stopwords: Vec<Vec<u8>> = match op.attrs.get("stopwords") {
        Some(Attr::Strings(words)) if case_sensitive => words.clone(),
        Some(Attr::Strings(words)) => words
            .iter()
            .map(|w| Ok(utf8(op, w)?.to_lowercase().into_bytes()))
            .collect::<Result<_>>()?,
        _ => Vec::new(),
    };
    let mut kept = Vec::new();
    for s in &x.data {
        let stop = if case_sensitive {
            stopwords.contains(s)
        } else {
            !stopwords.is_empty() && stopwords.contains(&utf8(op, s)?.to_lowercase().into_bytes())
        };
        if stop {
            continue;
        }
        kept.push(match action {
            b"LOWER" => utf8(op, s)?.to_lowercase().into_bytes(),
            b"UPPER" => utf8(op, s)?.to_uppercase().into_bytes(),
            _ => s.clone(),
        });
    }
    // Nothing left: one empty string, so that the output is never empty.
    if kept.is_empty() {
        kept.push(Vec::new());
    }
    let n = kept.len() as i64;
    let shape = if row { vec![1, n] } else { vec![n] };
    Ok(vec![Value::Strings(StringTensor { shape, data: kept })])
}

/// Python's whitespace (`str.isspace`): Unicode's, plus the ASCII
/// information separators U+001C..U+001F.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Splits `s` at runs of whitespace, ignoring leading and trailing
/// whitespace, at most `max` times (Python's `str.split(None, max)`).
fn split_whitespace(s: &str, max: usize) -> Vec<Vec<u8>> {
    let mut pieces = Vec::new();
    let mut rest = s.trim_start_matches(is_space);
    while !rest.is_empty() {
        if pieces.len() == max {
            pieces.push(rest.as_bytes().to_vec());
            break;
        }
        let end = rest.find(is_space).unwrap_or(rest.len());
        pieces.push(rest.as_bytes()[..end].to_vec());
        rest = rest[end..].trim_start_matches(is_space);
    }
    pieces
}

/// Splits `s` at each `delimiter`, at most `max` times (Python's
/// `bytes.split(delimiter, max)`): `n` splits give `n + 1` pieces.
fn split_at(s: &[u8], delimiter: &[u8], max: usize) -> Vec<Vec<u8>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while pieces.len() < max && i + delimiter.len() <= s.len() {
        if s[i..].starts_with(delimiter) {
            pieces.push(s[start..i].to_vec());
            i += delimiter.len();
            start = i;
        } else {
            i += 1;
        }
    }
    pieces.push(s[start..].to_vec());
    pieces
}

/// `StringSplit`: see the module docs.
fn string_split(op: &HostOp, x: &StringTensor) -> Result<Vec<Value>> {
    let delimiter = string_attr(op, "delimiter", b"");
    // Absent or negative: no limit.
    let max = op
        .attrs
        .int("maxsplit")
        .and_then(|m| usize::try_from(m).ok())
        .unwrap_or(usize::MAX);
    let split: Vec<Vec<Vec<u8>>> = x
        .data
        .iter()
        .map(|s| {
            Ok(if delimiter.is_empty() {
                split_whitespace(utf8(op, s)?, max)
            } else {
                split_at(s, delimiter, max)
            })
        })
        .collect::<Result<_>>()?;
    let width = split.iter().map(Vec::len).max().unwrap_or(0);
    let counts: Vec<i64> = split.iter().map(|p| p.len() as i64).collect();
    let mut data = Vec::with_capacity(split.len() * width);
    for mut pieces in split {
        pieces.resize(width, Vec::new());
        data.extend(pieces);
    }
    let mut shape = x.shape.clone();
    shape.push(width as i64);
    Ok(vec![
        Value::Strings(StringTensor { shape, data }),
        Value::Tensor(Tensor::from_vec(x.shape.clone(), counts)?),
    ])
}

/// `RegexFullMatch`: see the module docs.
fn regex_full_match(op: &HostOp, x: &StringTensor) -> Result<Vec<Value>> {
    let Some(Attr::String(pattern)) = op.attrs.get("pattern") else {
        return Err(invalid(op, "the pattern attribute is missing"));
    };
    let pattern = utf8(op, pattern)?;
    let regex = regex::bytes::Regex::new(&format!(r"\A(?:{pattern})\z"))
        .map_err(|e| invalid(op, format!("invalid pattern {pattern:?}: {e}")))?;
    let matches: Vec<bool> = x.data.iter().map(|s| regex.is_match(s)).collect();
    Ok(vec![Value::Tensor(Tensor::from_vec(
        x.shape.clone(),
        matches,
    )?)])
}

/// `Equal` on two string tensors.
/// `Gather` of strings (a classifier's label by class index): numpy's
/// `take` along `axis`, negative indices counting from the end.
fn gather(op: &HostOp, x: &StringTensor, index_tensor: &Tensor) -> Result<Vec<Value>> {
    let indices: Vec<i64> = match index_tensor.elem() {
        ElemType::I64 => index_tensor.to_vec::<i64>()?,
        ElemType::I32 => index_tensor
            .to_vec::<i32>()?
            .into_iter()
            .map(i64::from)
            .collect(),
        other => return Err(invalid(op, format!("{other} indices"))),
    };
    let rank = x.shape.len() as i64;
    let axis = match op.attrs.get("axis") {
        Some(Attr::Int(a)) => *a,
        _ => 0,
    };
    if rank == 0 || !(-rank..rank).contains(&axis) {
        return Err(invalid(op, format!("axis {axis} of a rank-{rank} tensor")));
    }
    let axis = axis.rem_euclid(rank) as usize;
    let (outer, dim) = (
        x.shape[..axis].iter().product::<i64>() as usize,
        x.shape[axis],
    );
    let inner = x.shape[axis + 1..].iter().product::<i64>() as usize;
    let picked = indices
        .iter()
        .map(|&i| {
            let j = if i < 0 { i + dim } else { i };
            if (0..dim).contains(&j) {
                Ok(j as usize)
            } else {
                Err(invalid(
                    op,
                    format!("index {i} out of range for a dim of {dim}"),
                ))
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let mut data = Vec::with_capacity(outer * picked.len() * inner);
    for o in 0..outer {
        for &j in &picked {
            let start = (o * dim as usize + j) * inner;
            data.extend_from_slice(&x.data[start..start + inner]);
        }
    }
    let mut shape = x.shape[..axis].to_vec();
    shape.extend(index_tensor.shape());
    shape.extend(&x.shape[axis + 1..]);
    Ok(vec![Value::Strings(StringTensor::new(shape, data)?)])
}

fn equal(op: &HostOp, inputs: &[Option<&Value>]) -> Result<Vec<Value>> {
    match (required(op, inputs, 0)?, required(op, inputs, 1)?) {
        (Value::Strings(x), Value::Strings(y)) => {
            let (shape, equal) = broadcast(op, x, y, |a, b| a == b)?;
            Ok(vec![Value::Tensor(Tensor::from_vec(shape, equal)?)])
        }
        (x, y) => Err(unsupported(
            op,
            format!(
                "Equal of a {} and a {} on the host (only strings run there) is",
                x.kind(),
                y.kind()
            ),
        )),
    }
}

/// The numpy broadcast of two shapes, or `None` when they do not broadcast.
fn broadcast_shape(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    let dim = |s: &[i64], i: usize| (i + s.len()).checked_sub(rank).map_or(1, |j| s[j]);
    (0..rank)
        .map(|i| match (dim(a, i), dim(b, i)) {
            (x, y) if x == y || y == 1 => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

/// For each element of a tensor of shape `out` (row-major), the index of
/// the element of an operand of shape `shape` that broadcasts to it.
fn broadcast_indices(shape: &[i64], out: &[i64]) -> Vec<usize> {
    let pad = out.len() - shape.len();
    let mut strides = vec![0usize; out.len()];
    let mut stride = 1;
    for (i, &d) in shape.iter().enumerate().rev() {
        if d != 1 {
            strides[pad + i] = stride;
        }
        stride *= d as usize;
    }
    let numel: usize = out.iter().map(|&d| d as usize).product();
    let mut indices = Vec::with_capacity(numel);
    let mut index = vec![0i64; out.len()];
    for _ in 0..numel {
        indices.push(
            index
                .iter()
                .zip(&strides)
                .map(|(&i, &s)| i as usize * s)
                .sum(),
        );
        for axis in (0..out.len()).rev() {
            index[axis] += 1;
            if index[axis] < out[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    indices
}

/// `f` applied to the elements of `x` and `y` broadcast against each other:
/// the result shape and values.
fn broadcast<T>(
    op: &HostOp,
    x: &StringTensor,
    y: &StringTensor,
    f: impl Fn(&[u8], &[u8]) -> T,
) -> Result<(Vec<i64>, Vec<T>)> {
    let shape = broadcast_shape(&x.shape, &y.shape).ok_or_else(|| {
        mismatch(
            op,
            format!("shapes {:?} and {:?} do not broadcast", x.shape, y.shape),
        )
    })?;
    let values = broadcast_indices(&x.shape, &shape)
        .into_iter()
        .zip(broadcast_indices(&y.shape, &shape))
        .map(|(i, j)| f(&x.data[i], &y.data[j]))
        .collect();
    Ok((shape, values))
}

/// The keys or the values of a `LabelEncoder`, by their type.
enum Column {
    /// Strings.
    Strings(Vec<Vec<u8>>),
    /// Integers of this element type (int16, int32 or int64).
    Ints(ElemType, Vec<i64>),
    /// Floats of this element type (float or double).
    Floats(ElemType, Vec<f64>),
}

/// A key, hashable: floats by their bits, with every NaN one key and
/// `-0.0` the same key as `0.0`.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Str(Vec<u8>),
    Int(i64),
    Float(u64),
}

/// The hashable key of a float.
fn float_key(v: f64) -> Key {
    Key::Float(if v.is_nan() {
        f64::NAN.to_bits()
    } else if v == 0.0 {
        0
    } else {
        v.to_bits()
    })
}

impl Column {
    /// The attribute `{prefix}_strings`, `_int64s`, `_floats` or `_tensor`.
    fn from_attrs(op: &HostOp, prefix: &str) -> Result<Column> {
        let attr = |suffix: &str| op.attrs.get(&format!("{prefix}_{suffix}"));
        match (
            attr("strings"),
            attr("int64s"),
            attr("floats"),
            attr("tensor"),
        ) {
            (Some(Attr::Strings(s)), None, None, None) => Ok(Column::Strings(s.clone())),
            (None, Some(Attr::Ints(v)), None, None) => Ok(Column::Ints(ElemType::I64, v.clone())),
            (None, None, Some(Attr::Floats(v)), None) => Ok(Column::Floats(
                ElemType::F32,
                v.iter().map(|&f| f64::from(f)).collect(),
            )),
            (None, None, None, Some(Attr::Tensor(t))) => Column::from_tensor_data(op, t),
            _ => Err(invalid(
                op,
                format!(
                    "exactly one of {prefix}_strings, {prefix}_int64s, {prefix}_floats \
                     and {prefix}_tensor must be given"
                ),
            )),
        }
    }

    /// The values of a tensor attribute.
    fn from_tensor_data(op: &HostOp, t: &TensorData) -> Result<Column> {
        if let Some(s) = t.strings() {
            return Ok(Column::Strings(s.to_vec()));
        }
        let column = match t.elem {
            ElemType::I16 | ElemType::I32 | ElemType::I64 => {
                t.to_i64s().map(|v| Column::Ints(t.elem, v))
            }
            ElemType::F32 | ElemType::F64 => t.to_f64s().map(|v| Column::Floats(t.elem, v)),
            _ => None,
        };
        column.ok_or_else(|| unsupported(op, format!("a {} tensor of keys or values is", t.elem)))
    }

    /// The number of entries.
    fn len(&self) -> usize {
        match self {
            Column::Strings(v) => v.len(),
            Column::Ints(_, v) => v.len(),
            Column::Floats(_, v) => v.len(),
        }
    }

    /// The keys, hashable.
    fn keys(&self) -> Vec<Key> {
        match self {
            Column::Strings(v) => v.iter().cloned().map(Key::Str).collect(),
            Column::Ints(_, v) => v.iter().copied().map(Key::Int).collect(),
            Column::Floats(_, v) => v.iter().copied().map(float_key).collect(),
        }
    }

    /// The `LabelEncoder` default for values of this column's type: the
    /// `default_tensor` (opset 4) or the `default_*` attribute of the
    /// type, else the spec's defaults ("_Unused", -1, -0.0).
    fn default_value(&self, op: &HostOp) -> Result<Column> {
        if let Some(t) = op.attrs.tensor("default_tensor") {
            let column = Column::from_tensor_data(op, t)?;
            if column.len() != 1 {
                return Err(invalid(op, "default_tensor must hold one value"));
            }
            return Ok(column);
        }
        Ok(match self {
            Column::Strings(_) => Column::Strings(vec![match op.attrs.get("default_string") {
                Some(Attr::String(s)) => s.clone(),
                _ => b"_Unused".to_vec(),
            }]),
            Column::Ints(elem, _) => {
                Column::Ints(*elem, vec![op.attrs.int("default_int64").unwrap_or(-1)])
            }
            Column::Floats(elem, _) => Column::Floats(
                *elem,
                vec![f64::from(op.attrs.float("default_float").unwrap_or(-0.0))],
            ),
        })
    }

    /// The entries at `picks` (`None`: the default's one entry) as a value
    /// of this column's type and the given shape.
    fn gather(&self, default: &Column, picks: &[Option<usize>], shape: Vec<i64>) -> Result<Value> {
        Ok(match (self, default) {
            (Column::Strings(v), Column::Strings(d)) => {
                let data = picks
                    .iter()
                    .map(|p| p.map_or(&d[0], |i| &v[i]).clone())
                    .collect();
                Value::Strings(StringTensor { shape, data })
            }
            (Column::Ints(elem, v), Column::Ints(_, d)) => {
                let values: Vec<i64> = picks.iter().map(|p| p.map_or(d[0], |i| v[i])).collect();
                Value::Tensor(match elem {
                    ElemType::I16 => {
                        Tensor::from_vec(shape, values.iter().map(|&v| v as i16).collect())?
                    }
                    ElemType::I32 => {
                        Tensor::from_vec(shape, values.iter().map(|&v| v as i32).collect())?
                    }
                    _ => Tensor::from_vec(shape, values)?,
                })
            }
            (Column::Floats(elem, v), Column::Floats(_, d)) => {
                let values: Vec<f64> = picks.iter().map(|p| p.map_or(d[0], |i| v[i])).collect();
                Value::Tensor(match elem {
                    ElemType::F32 => {
                        Tensor::from_vec(shape, values.iter().map(|&v| v as f32).collect())?
                    }
                    _ => Tensor::from_vec(shape, values)?,
                })
            }
            _ => unreachable!("the default is checked to have the values' type"),
        })
    }

    /// Whether two columns hold the same kind of entries.
    fn same_kind(&self, other: &Column) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// The keys of the elements of a `LabelEncoder` input.
fn input_keys(op: &HostOp, x: &Value) -> Result<(Vec<i64>, Vec<Key>)> {
    Ok(match x {
        Value::Strings(s) => (
            s.shape.clone(),
            s.data.iter().cloned().map(Key::Str).collect(),
        ),
        Value::Tensor(t) => {
            let keys = match t.elem() {
                ElemType::I64 => t.as_slice::<i64>()?.iter().map(|&v| Key::Int(v)).collect(),
                ElemType::I32 => t
                    .as_slice::<i32>()?
                    .iter()
                    .map(|&v| Key::Int(v.into()))
                    .collect(),
                ElemType::I16 => t
                    .as_slice::<i16>()?
                    .iter()
                    .map(|&v| Key::Int(v.into()))
                    .collect(),
                ElemType::F32 => t
                    .as_slice::<f32>()?
                    .iter()
                    .map(|&v| float_key(v.into()))
                    .collect(),
                ElemType::F64 => t.as_slice::<f64>()?.iter().map(|&v| float_key(v)).collect(),
                ElemType::F16 => t
                    .as_slice::<f16>()?
                    .iter()
                    .map(|&v| float_key(v.into()))
                    .collect(),
                other => return Err(unsupported(op, format!("a {other} input is"))),
            };
            (t.shape().to_vec(), keys)
        }
        other => {
            return Err(invalid(
                op,
                format!("the input must be a tensor, got {}", other.kind()),
            ))
        }
    })
}

/// `ai.onnx.ml.LabelEncoder` and `CategoryMapper`: see the module docs.
fn label_encoder(op: &HostOp, x: &Value) -> Result<Vec<Value>> {
    let (keys, values) = if op.op.kind == OpKind::CategoryMapper {
        let strings = match op.attrs.get("cats_strings") {
            Some(Attr::Strings(s)) => s.clone(),
            _ => Vec::new(),
        };
        let ints = match op.attrs.get("cats_int64s") {
            Some(Attr::Ints(v)) => v.clone(),
            _ => Vec::new(),
        };
        let (strings, ints) = (Column::Strings(strings), Column::Ints(ElemType::I64, ints));
        match x {
            Value::Strings(_) => (strings, ints),
            _ => (ints, strings),
        }
    } else if op.op.version < 2 {
        // Version 1: strings to their index in `classes_strings`, or back.
        let classes = match op.attrs.get("classes_strings") {
            Some(Attr::Strings(c)) => c.clone(),
            _ => Vec::new(),
        };
        let indices = Column::Ints(ElemType::I64, (0..classes.len() as i64).collect());
        match x {
            Value::Strings(_) => (Column::Strings(classes), indices),
            _ => (indices, Column::Strings(classes)),
        }
    } else {
        (
            Column::from_attrs(op, "keys")?,
            Column::from_attrs(op, "values")?,
        )
    };
    if keys.len() != values.len() {
        return Err(invalid(
            op,
            format!("{} keys but {} values", keys.len(), values.len()),
        ));
    }
    let default = values.default_value(op)?;
    if !values.same_kind(&default) {
        return Err(invalid(op, "the default's type differs from the values'"));
    }
    let (shape, input) = input_keys(op, x)?;
    let key_kind = keys.keys().first().map(std::mem::discriminant);
    if let (Some(k), Some(i)) = (key_kind, input.first().map(std::mem::discriminant)) {
        if k != i {
            return Err(invalid(op, "the input's type differs from the keys'"));
        }
    }
    // A repeated key maps to its last value, as in the reference.
    let map: HashMap<Key, usize> = keys
        .keys()
        .into_iter()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let picks: Vec<Option<usize>> = input.iter().map(|k| map.get(k).copied()).collect();
    Ok(vec![values.gather(&default, &picks, shape)?])
}

#[cfg(test)]
mod tests {
    use onnx_mlc_dialect::Attrs;

    use super::*;
    use crate::host::operand::test_op as op;
    use crate::host::run as run_host;

    fn st(shape: &[i64], data: &[&str]) -> Value {
        Value::Strings(
            StringTensor::new(
                shape.to_vec(),
                data.iter().map(|s| s.as_bytes().to_vec()).collect(),
            )
            .unwrap(),
        )
    }

    fn run1(op: &HostOp, inputs: &[Value]) -> Vec<Value> {
        let inputs: Vec<Option<&Value>> = inputs.iter().map(Some).collect();
        run_host(op, &inputs).unwrap()
    }

    fn strs(v: &Value) -> (Vec<i64>, Vec<String>) {
        let Value::Strings(s) = v else {
            panic!("not strings: {v:?}")
        };
        (
            s.shape.clone(),
            s.data
                .iter()
                .map(|b| String::from_utf8(b.clone()).unwrap())
                .collect(),
        )
    }

    fn ints(v: &Value) -> (Vec<i64>, Vec<i64>) {
        let Value::Tensor(t) = v else {
            panic!("not a tensor: {v:?}")
        };
        (t.shape().to_vec(), t.to_vec::<i64>().unwrap())
    }

    fn bools(v: &Value) -> (Vec<i64>, Vec<bool>) {
        let Value::Tensor(t) = v else {
            panic!("not a tensor: {v:?}")
        };
        (t.shape().to_vec(), t.to_vec::<bool>().unwrap())
    }

    fn s(x: &str) -> Attr {
        Attr::String(x.as_bytes().to_vec())
    }

    fn ss(x: &[&str]) -> Attr {
        Attr::Strings(x.iter().map(|s| s.as_bytes().to_vec()).collect())
    }

    fn owned(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    // Expected values below come from the ONNX reference evaluator
    // (onnx 1.23.2) unless a comment says otherwise.

    #[test]
    fn string_normalizer() {
        let days = st(&[4], &["monday", "tuesday", "wednesday", "thursday"]);
        let upper = op(
            OpKind::StringNormalizer,
            10,
            1,
            vec![
                ("case_change_action", s("UPPER")),
                ("is_case_sensitive", Attr::Int(1)),
                ("stopwords", ss(&["monday"])),
            ],
        );
        assert_eq!(
            strs(&run1(&upper, std::slice::from_ref(&days))[0]),
            (vec![3], owned(&["TUESDAY", "WEDNESDAY", "THURSDAY"]))
        );
        let empty = run1(&upper, &[st(&[2], &["monday", "monday"])]);
        assert_eq!(strs(&empty[0]), (vec![1], owned(&[""])));
        let insensitive = op(
            OpKind::StringNormalizer,
            10,
            1,
            vec![
                ("case_change_action", s("LOWER")),
                ("stopwords", ss(&["MONDAY"])),
            ],
        );
        let row = st(&[1, 4], &["Monday", "TUESDAY", "monDay", "Straße"]);
        assert_eq!(
            strs(&run1(&insensitive, &[row])[0]),
            (vec![1, 2], owned(&["tuesday", "straße"]))
        );
        let all_stop = st(&[1, 1], &["monday"]);
        assert_eq!(
            strs(&run1(&insensitive, &[all_stop])[0]),
            (vec![1, 1], owned(&[""]))
        );
        let none = op(
            OpKind::StringNormalizer,
            10,
            1,
            vec![("is_case_sensitive", Attr::Int(1))],
        );
        assert_eq!(strs(&run1(&none, &[days])[0]).1.len(), 4);
        let bad = HostOp {
            attrs: Attrs(vec![("case_change_action".into(), s("TITLE"))]),
            ..none.clone()
        };
        let err = run_host(&bad, &[Some(&st(&[1], &["a"]))])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("StringNormalizer-10") && err.contains("TITLE"),
            "{err}"
        );
        let err = run_host(&none, &[Some(&st(&[2, 2], &["a", "b", "c", "d"]))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("[C] or [1, C]"), "{err}");
        let turkish = HostOp {
            attrs: Attrs(vec![("locale".into(), s("tr_TR"))]),
            ..none
        };
        let err = run_host(&turkish, &[Some(&st(&[1], &["a"]))])
            .unwrap_err()
            .to_string();
        assert!(err.contains("not supported"), "{err}");
    }

    #[test]
    fn string_split() {
        let split = |attrs, x: Value| {
            let out = run1(&op(OpKind::StringSplit, 20, 2, attrs), &[x]);
            (strs(&out[0]), ints(&out[1]))
        };
        let (pieces, counts) = split(
            vec![("delimiter", s("-"))],
            st(&[2], &["o-n-n--x-", "o-n----nx"]),
        );
        assert_eq!(
            pieces,
            (
                vec![2, 6],
                owned(&["o", "n", "n", "", "x", "", "o", "n", "", "", "", "nx"])
            )
        );
        assert_eq!(counts, (vec![2], vec![6, 6]));
        let (pieces, counts) = split(
            vec![],
            st(
                &[3],
                &["hello world !", "  hello   world !", " hello world   ! "],
            ),
        );
        assert_eq!(
            pieces.1,
            owned(&["hello", "world", "!", "hello", "world", "!", "hello", "world", "!"])
        );
        assert_eq!(counts.1, vec![3, 3, 3]);
        let (pieces, counts) = split(
            vec![("maxsplit", Attr::Int(2))],
            st(
                &[2, 2],
                &["hello world", "def.net", "o n n x", "the quick brown fox"],
            ),
        );
        assert_eq!(
            pieces,
            (
                vec![2, 2, 3],
                owned(&[
                    "hello",
                    "world",
                    "",
                    "def.net",
                    "",
                    "",
                    "o",
                    "n",
                    "n x",
                    "the",
                    "quick",
                    "brown fox",
                ])
            )
        );
        assert_eq!(counts, (vec![2, 2], vec![2, 1, 3, 3]));
        // Python: "".split(".") == [""], "  ".split() == [], "a  b ".split(None, 1) == ["a", "b "].
        let (pieces, counts) = split(vec![("delimiter", s("."))], st(&[2], &["", "a.b"]));
        assert_eq!(
            (pieces.1, counts.1),
            (owned(&["", "", "a", "b"]), vec![1, 2])
        );
        let (pieces, counts) = split(vec![("maxsplit", Attr::Int(1))], st(&[2], &["  ", "a  b "]));
        assert_eq!(
            (pieces.1, counts.1),
            (owned(&["", "", "a", "b "]), vec![0, 2])
        );
        let (pieces, counts) = split(vec![], st(&[0], &[]));
        assert_eq!((pieces.0, counts.0), (vec![0, 0], vec![0]));
    }

    #[test]
    fn string_concat_broadcasts() {
        let concat = op(OpKind::StringConcat, 20, 1, vec![]);
        let out = run1(
            &concat,
            &[st(&[3], &["cat", "dog", "snake"]), st(&[1], &["s"])],
        );
        assert_eq!(strs(&out[0]), (vec![3], owned(&["cats", "dogs", "snakes"])));
        let out = run1(
            &concat,
            &[st(&[2, 1], &["a", "b"]), st(&[3], &["x", "y", "的"])],
        );
        assert_eq!(
            strs(&out[0]),
            (vec![2, 3], owned(&["ax", "ay", "a的", "bx", "by", "b的"]))
        );
        let out = run1(&concat, &[st(&[], &["cat"]), st(&[], &["s"])]);
        assert_eq!(strs(&out[0]), (vec![], owned(&["cats"])));
        let err = run_host(
            &concat,
            &[
                Some(&st(&[2], &["a", "b"])),
                Some(&st(&[3], &["a", "b", "c"])),
            ],
        )
        .unwrap_err();
        assert!(err.to_string().contains("do not broadcast"), "{err}");
    }

    #[test]
    fn regex_full_match() {
        let email = op(
            OpKind::RegexFullMatch,
            20,
            1,
            vec![(
                "pattern",
                s(r"(\W|^)[\w.\-]{0,25}@(yahoo|gmail)\.com(\W|$)"),
            )],
        );
        let x = st(
            &[2, 2],
            &[
                "account@gmail.com",
                "account@hotmail.com",
                "not email",
                "account2@yahoo.com",
            ],
        );
        assert_eq!(
            bools(&run1(&email, &[x])[0]),
            (vec![2, 2], vec![true, false, false, true])
        );
        let www = op(
            OpKind::RegexFullMatch,
            20,
            1,
            vec![("pattern", s(r"www\.[\w.-]+\.\bcom\b"))],
        );
        let x = st(
            &[3],
            &["www.google.com", "www.facebook.com", "www.bbc.co.uk"],
        );
        assert_eq!(bools(&run1(&www, &[x])[0]).1, vec![true, true, false]);
        // A match of a prefix is not a full match.
        let prefix = op(
            OpKind::RegexFullMatch,
            20,
            1,
            vec![("pattern", s("ab|abc"))],
        );
        assert_eq!(
            bools(&run1(&prefix, &[st(&[2], &["abc", "abcd"])])[0]).1,
            vec![true, false]
        );
        let empty = run1(&email, &[st(&[2, 0], &[])]);
        assert_eq!(bools(&empty[0]), (vec![2, 0], vec![]));
        let bad = op(OpKind::RegexFullMatch, 20, 1, vec![("pattern", s("(a"))]);
        let err = run_host(&bad, &[Some(&st(&[1], &["a"]))])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("RegexFullMatch-20") && err.contains("invalid pattern"),
            "{err}"
        );
    }

    #[test]
    fn equal_on_strings() {
        let eq = op(OpKind::Equal, 19, 1, vec![]);
        let out = run1(
            &eq,
            &[st(&[2], &["string1", "string2"]), st(&[1], &["string1"])],
        );
        assert_eq!(bools(&out[0]), (vec![2], vec![true, false]));
        let out = run1(
            &eq,
            &[
                st(&[2], &["string1", "string2"]),
                st(&[2], &["string1", "string3"]),
            ],
        );
        assert_eq!(bools(&out[0]).1, vec![true, false]);
        let numbers = Value::Tensor(Tensor::from_vec(vec![1], vec![1.0f32]).unwrap());
        let err = run_host(&eq, &[Some(&numbers), Some(&numbers)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("not supported"), "{err}");
    }

    #[test]
    fn label_encoder() {
        let x = st(&[5], &["a", "b", "d", "c", "g"]);
        let encode = |attrs| {
            run1(
                &op(OpKind::LabelEncoder, 4, 1, attrs),
                std::slice::from_ref(&x),
            )
            .remove(0)
        };
        let keys = || ("keys_strings", ss(&["a", "b", "c"]));
        let out = encode(vec![
            keys(),
            ("values_int64s", Attr::Ints(vec![0, 1, 2])),
            ("default_int64", Attr::Int(42)),
        ]);
        assert_eq!(ints(&out), (vec![5], vec![0, 1, 42, 2, 42]));
        let out = encode(vec![keys(), ("values_int64s", Attr::Ints(vec![0, 1, 2]))]);
        assert_eq!(ints(&out).1, vec![0, 1, -1, 2, -1]);
        let i16s = |v: &[i16]| Attr::Tensor(TensorData::from_vec(vec![v.len() as i64], v).unwrap());
        let key_tensor =
            TensorData::from_strings(vec![3], vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()])
                .unwrap();
        for keys in [keys(), ("keys_tensor", Attr::Tensor(key_tensor))] {
            let out = encode(vec![
                keys,
                ("values_tensor", i16s(&[0, 1, 2])),
                ("default_tensor", i16s(&[42])),
            ]);
            let Value::Tensor(t) = out else { panic!() };
            assert_eq!(
                (t.elem(), t.to_vec::<i16>().unwrap()),
                (ElemType::I16, vec![0, 1, 42, 2, 42])
            );
        }
        // Numbers to strings, with a NaN key (onnxruntime matches it, the
        // reference does not) and the default "_Unused".
        let floats = Value::Tensor(Tensor::from_vec(vec![3], vec![f32::NAN, 2.0, -0.0]).unwrap());
        let to_strings = op(
            OpKind::LabelEncoder,
            2,
            1,
            vec![
                ("keys_floats", Attr::Floats(vec![f32::NAN, 0.0])),
                ("values_strings", ss(&["nan", "zero"])),
            ],
        );
        assert_eq!(
            strs(&run1(&to_strings, &[floats])[0]).1,
            owned(&["nan", "_Unused", "zero"])
        );
        let err = run_host(&op(OpKind::LabelEncoder, 4, 1, vec![keys()]), &[Some(&x)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("values_strings"), "{err}");
        let ints_in = Value::Tensor(Tensor::from_vec(vec![1], vec![1i64]).unwrap());
        let strings_keys = op(
            OpKind::LabelEncoder,
            4,
            1,
            vec![keys(), ("values_int64s", Attr::Ints(vec![0, 1, 2]))],
        );
        let err = run_host(&strings_keys, &[Some(&ints_in)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("differs from the keys"), "{err}");
    }

    #[test]
    fn label_encoder_1() {
        // Expected values from onnxruntime: the reference has no version 1.
        let classes = vec![("classes_strings", ss(&["a", "b"]))];
        let encode = op(OpKind::LabelEncoder, 1, 1, classes.clone());
        let out = run1(&encode, &[st(&[3], &["b", "z", "a"])]);
        assert_eq!(ints(&out[0]), (vec![3], vec![1, -1, 0]));
        let decode = op(
            OpKind::LabelEncoder,
            1,
            1,
            [classes, vec![("default_string", s("?"))]].concat(),
        );
        let indices = Value::Tensor(Tensor::from_vec(vec![3], vec![1i64, 7, 0]).unwrap());
        assert_eq!(
            strs(&run1(&decode, &[indices])[0]).1,
            owned(&["b", "?", "a"])
        );
    }

    #[test]
    fn string_tensor_data_round_trip() {
        let Value::Strings(t) = st(&[2], &["a", "的"]) else {
            unreachable!()
        };
        let data = t.to_tensor_data().unwrap();
        assert_eq!(StringTensor::from_tensor_data(&data).unwrap(), t);
        let numbers = TensorData::from_vec(vec![1], &[1.0f32]).unwrap();
        assert!(StringTensor::from_tensor_data(&numbers).is_err());
        assert!(StringTensor::new(vec![3], vec![]).is_err());
    }
}
