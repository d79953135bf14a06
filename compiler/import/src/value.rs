//! Values of the ONNX backend test data: `test_data_set_N/{input,output}_K.pb`.
//!
//! Each file holds one serialized value: a `TensorProto`, or (for models
//! whose inputs or outputs are not tensors) a `SequenceProto`, `MapProto`,
//! `OptionalProto` or `SparseTensorProto`. The file does not say which, so
//! the caller passes the type the model declares for that input or output.
//! [`encode_tensor`] writes the tensor files (`onnx-mlc run`'s outputs) and
//! [`encode_value`] those of sequences and optionals.

use std::path::Path;

use bytes::Bytes;
use onnx_mlc_dialect::attr::SparseTensorData;
use onnx_mlc_dialect::{ElemType, TensorData, Type};
use onnx_mlc_proto::optional_proto::DataType as OptionalKind;
use onnx_mlc_proto::sequence_proto::DataType as SequenceKind;
use onnx_mlc_proto::tensor_proto::DataType;
use onnx_mlc_proto::{
    MapProto, Message, OptionalProto, SequenceProto, SparseTensorProto, TensorProto,
};

use crate::error::{ExportError, ImportError, Result};
use crate::export::tensor_proto;
use crate::external::{map_file, ExternalFiles};
use crate::tensor::{elem_type, sparse_tensor_data, tensor_data};

/// A value of any ONNX type, as read from test data.
#[derive(Clone, Debug, PartialEq)]
pub enum TestValue {
    /// A dense tensor.
    Tensor(TensorData),
    /// A sparse tensor.
    SparseTensor(SparseTensorData),
    /// A sequence.
    Sequence(Vec<TestValue>),
    /// A map, as (key, value) pairs in file order.
    Map(Vec<(MapKey, TestValue)>),
    /// An optional value: `None` when absent.
    Optional(Option<Box<TestValue>>),
}

/// A key of a [`TestValue::Map`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MapKey {
    /// A key of an integer key type.
    Int(i64),
    /// A key of type string.
    String(Vec<u8>),
}

impl TestValue {
    /// The tensor, when this is a dense tensor.
    pub fn as_tensor(&self) -> Option<&TensorData> {
        match self {
            TestValue::Tensor(t) => Some(t),
            _ => None,
        }
    }
}

/// Reads a `.pb` test value file holding a value of type `expected` (any
/// tensor type or [`Type::Unknown`] reads a `TensorProto`).
pub fn read_value(path: &Path, expected: &Type) -> Result<TestValue> {
    let bytes = map_file(path).map_err(|source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    decode(
        bytes,
        expected,
        &path.display().to_string(),
        &mut ExternalFiles::new(Some(folder))?,
    )
}

/// Serializes a dense tensor as a `TensorProto` named `name`, the content
/// of a test data `.pb` file.
pub fn encode_tensor(t: &TensorData, name: &str) -> Result<Vec<u8>, ExportError> {
    let proto = tensor_proto(t, name).map_err(|message| ExportError::Tensor {
        tensor: name.to_string(),
        message,
    })?;
    Ok(proto.encode_to_vec())
}

/// Serializes a tensor, sequence, map or optional named `name` as the
/// proto a test data `.pb` file holds for it (`TensorProto`,
/// `SequenceProto`, `MapProto`, `OptionalProto`); sparse tensors are not
/// written yet.
pub fn encode_value(v: &TestValue, name: &str) -> Result<Vec<u8>, ExportError> {
    Ok(match v {
        TestValue::Tensor(t) => return encode_tensor(t, name),
        TestValue::Sequence(items) => sequence_proto(items, name)?.encode_to_vec(),
        TestValue::Map(entries) => map_proto(entries, name)?.encode_to_vec(),
        TestValue::Optional(o) => optional_proto(o.as_deref(), name)?.encode_to_vec(),
        TestValue::SparseTensor(_) => {
            return Err(ExportError::Tensor {
                tensor: name.to_string(),
                message: "sparse tensors are not written as test values yet".into(),
            })
        }
    })
}

/// A map's proto: its key type is that of its keys (int64 for integer
/// keys, and for an empty map, which says nothing of them).
fn map_proto(entries: &[(MapKey, TestValue)], name: &str) -> Result<MapProto, ExportError> {
    let strings = matches!(entries.first(), Some((MapKey::String(_), _)));
    let mut m = MapProto {
        name: name.to_string(),
        key_type: if strings {
            DataType::String as i32
        } else {
            DataType::Int64 as i32
        },
        ..MapProto::default()
    };
    for (key, _) in entries {
        match key {
            MapKey::Int(k) if !strings => m.keys.push(*k),
            MapKey::String(k) if strings => m.string_keys.push(Bytes::from(k.clone())),
            _ => {
                return Err(ExportError::Tensor {
                    tensor: name.to_string(),
                    message: "a map mixes integer and string keys".into(),
                })
            }
        }
    }
    let values: Vec<TestValue> = entries.iter().map(|(_, v)| v.clone()).collect();
    m.values = Some(sequence_proto(&values, "")?);
    Ok(m)
}

fn tensor_value_proto(t: &TensorData, name: &str) -> Result<TensorProto, ExportError> {
    tensor_proto(t, name).map_err(|message| ExportError::Tensor {
        tensor: name.to_string(),
        message,
    })
}

fn sequence_proto(items: &[TestValue], name: &str) -> Result<SequenceProto, ExportError> {
    let mut s = SequenceProto {
        name: name.to_string(),
        ..SequenceProto::default()
    };
    // An empty sequence says nothing of its items: ONNX writes it as a
    // sequence of tensors.
    s.elem_type = SequenceKind::Tensor as i32;
    for item in items {
        match item {
            TestValue::Tensor(t) => s.tensor_values.push(tensor_value_proto(t, "")?),
            TestValue::Sequence(v) => {
                s.elem_type = SequenceKind::Sequence as i32;
                s.sequence_values.push(sequence_proto(v, "")?);
            }
            TestValue::Optional(o) => {
                s.elem_type = SequenceKind::Optional as i32;
                s.optional_values.push(optional_proto(o.as_deref(), "")?);
            }
            TestValue::Map(entries) => {
                s.elem_type = SequenceKind::Map as i32;
                s.map_values.push(map_proto(entries, "")?);
            }
            TestValue::SparseTensor(_) => {
                return Err(ExportError::Tensor {
                    tensor: name.to_string(),
                    message: "sequences of sparse tensors are not written yet".into(),
                })
            }
        }
    }
    Ok(s)
}

fn optional_proto(v: Option<&TestValue>, name: &str) -> Result<OptionalProto, ExportError> {
    let mut o = OptionalProto {
        name: name.to_string(),
        ..OptionalProto::default()
    };
    match v {
        None => o.elem_type = OptionalKind::Undefined as i32,
        Some(TestValue::Tensor(t)) => {
            o.elem_type = OptionalKind::Tensor as i32;
            o.tensor_value = Some(tensor_value_proto(t, "")?);
        }
        Some(TestValue::Sequence(items)) => {
            o.elem_type = OptionalKind::Sequence as i32;
            o.sequence_value = Some(sequence_proto(items, "")?);
        }
        Some(TestValue::Optional(inner)) => {
            o.elem_type = OptionalKind::Optional as i32;
            o.optional_value = Some(Box::new(optional_proto(inner.as_deref(), "")?));
        }
        Some(TestValue::Map(_) | TestValue::SparseTensor(_)) => {
            return Err(ExportError::Tensor {
                tensor: name.to_string(),
                message: "optionals of maps or sparse tensors are not written yet".into(),
            })
        }
    }
    Ok(o)
}

/// Decodes a serialized test value of type `expected` (see [`read_value`]).
/// External data is not available to values decoded from memory.
pub fn decode_value(bytes: Bytes, expected: &Type) -> Result<TestValue> {
    decode(bytes, expected, "<memory>", &mut ExternalFiles::new(None)?)
}

fn decode(bytes: Bytes, expected: &Type, what: &str, ext: &mut ExternalFiles) -> Result<TestValue> {
    let decode_err = |source| ImportError::Decode {
        what: what.to_string(),
        source,
    };
    match expected {
        Type::Tensor(_) | Type::Unknown => Ok(TestValue::Tensor(tensor_data(
            &TensorProto::decode(bytes).map_err(decode_err)?,
            ext,
        )?)),
        Type::SparseTensor(_) => Ok(TestValue::SparseTensor(sparse_tensor_data(
            &SparseTensorProto::decode(bytes).map_err(decode_err)?,
            ext,
        )?)),
        Type::Sequence(_) => sequence(&SequenceProto::decode(bytes).map_err(decode_err)?, ext),
        Type::Map(..) => map(&MapProto::decode(bytes).map_err(decode_err)?, ext),
        Type::Optional(_) => optional(&OptionalProto::decode(bytes).map_err(decode_err)?, ext),
    }
}

fn sequence(s: &SequenceProto, ext: &mut ExternalFiles) -> Result<TestValue> {
    let err = |message: String| ImportError::Model(format!("sequence {:?}: {message}", s.name));
    let lens = [
        s.tensor_values.len(),
        s.sparse_tensor_values.len(),
        s.sequence_values.len(),
        s.map_values.len(),
        s.optional_values.len(),
    ];
    let items = match SequenceKind::try_from(s.elem_type) {
        Ok(SequenceKind::Tensor) => s
            .tensor_values
            .iter()
            .map(|t| Ok(TestValue::Tensor(tensor_data(t, ext)?)))
            .collect::<Result<_>>()?,
        Ok(SequenceKind::SparseTensor) => s
            .sparse_tensor_values
            .iter()
            .map(|t| Ok(TestValue::SparseTensor(sparse_tensor_data(t, ext)?)))
            .collect::<Result<_>>()?,
        Ok(SequenceKind::Sequence) => s
            .sequence_values
            .iter()
            .map(|v| sequence(v, ext))
            .collect::<Result<_>>()?,
        Ok(SequenceKind::Map) => s
            .map_values
            .iter()
            .map(|v| map(v, ext))
            .collect::<Result<_>>()?,
        Ok(SequenceKind::Optional) => s
            .optional_values
            .iter()
            .map(|v| optional(v, ext))
            .collect::<Result<_>>()?,
        Ok(SequenceKind::Undefined) if lens.iter().all(|&n| n == 0) => vec![],
        Ok(SequenceKind::Undefined) => return Err(err("elements but no elem_type".into())),
        Err(_) => return Err(err(format!("unknown elem_type {}", s.elem_type))),
    };
    Ok(TestValue::Sequence(items))
}

fn map(m: &MapProto, ext: &mut ExternalFiles) -> Result<TestValue> {
    let err = |message: String| ImportError::Model(format!("map {:?}: {message}", m.name));
    let key_type = elem_type(m.key_type).map_err(|e| err(format!("key type: {e}")))?;
    let keys: Vec<MapKey> = match key_type {
        ElemType::String => m
            .string_keys
            .iter()
            .map(|k| MapKey::String(k.to_vec()))
            .collect(),
        k if k.is_int() => m.keys.iter().map(|&k| MapKey::Int(k)).collect(),
        k => {
            return Err(err(format!(
                "key type {k} is not an integer or string type"
            )))
        }
    };
    let values = match &m.values {
        Some(s) => match sequence(s, ext)? {
            TestValue::Sequence(items) => items,
            _ => unreachable!("sequence() returns a sequence"),
        },
        None => vec![],
    };
    if keys.len() != values.len() {
        return Err(err(format!(
            "{} keys but {} values",
            keys.len(),
            values.len()
        )));
    }
    Ok(TestValue::Map(keys.into_iter().zip(values).collect()))
}

fn optional(o: &OptionalProto, ext: &mut ExternalFiles) -> Result<TestValue> {
    let err = |message: String| ImportError::Model(format!("optional {:?}: {message}", o.name));
    let missing = || err("elem_type names a field that is not set".into());
    let value = match OptionalKind::try_from(o.elem_type) {
        Ok(OptionalKind::Undefined) => return Ok(TestValue::Optional(None)),
        Ok(OptionalKind::Tensor) => TestValue::Tensor(tensor_data(
            o.tensor_value.as_ref().ok_or_else(missing)?,
            ext,
        )?),
        Ok(OptionalKind::SparseTensor) => TestValue::SparseTensor(sparse_tensor_data(
            o.sparse_tensor_value.as_ref().ok_or_else(missing)?,
            ext,
        )?),
        Ok(OptionalKind::Sequence) => {
            sequence(o.sequence_value.as_ref().ok_or_else(missing)?, ext)?
        }
        Ok(OptionalKind::Map) => map(o.map_value.as_ref().ok_or_else(missing)?, ext)?,
        Ok(OptionalKind::Optional) => {
            optional(o.optional_value.as_ref().ok_or_else(missing)?, ext)?
        }
        Err(_) => return Err(err(format!("unknown elem_type {}", o.elem_type))),
    };
    Ok(TestValue::Optional(Some(Box::new(value))))
}
