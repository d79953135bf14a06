//! Run-time values beyond dense tensors: what the host program
//! (`docs/runtime.md`, "Host programs") passes between compiled segments
//! and host operators.
//!
//! Compiled code only ever sees dense tensors of fixed-width elements
//! ([`Tensor`]). Everything else an ONNX graph can carry — string tensors,
//! sequences, maps, optionals — lives in the runtime as a [`Value`] and is
//! handled by host operators (`crate::host`), which are plain Rust.

use onnx_mlc_dialect::tensor::{checked_numel, Payload};
use onnx_mlc_dialect::{Dim, ElemType, TensorData, TensorType, Type};
use serde::{Deserialize, Serialize};

use crate::error::{Result, RuntimeError};
use crate::tensor::Tensor;

/// One run-time value of an ONNX graph.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Value {
    /// A dense tensor of a fixed-width element type.
    Tensor(Tensor),
    /// A tensor of strings.
    Strings(StringTensor),
    /// A sequence of values of one type.
    Sequence(Sequence),
    /// A map from integer or string keys to values of one type.
    Map(Map),
    /// An optional value: present or absent.
    Optional(Optional),
}

/// A tensor of byte strings (ONNX strings are UTF-8 by convention, but a
/// value passes through unchanged), row-major.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    try_from = "(Vec<i64>, Vec<Vec<u8>>)",
    into = "(Vec<i64>, Vec<Vec<u8>>)"
)]
pub struct StringTensor {
    /// The dims; their product is `data.len()`.
    pub shape: Vec<i64>,
    /// The elements in row-major order.
    pub data: Vec<Vec<u8>>,
}

impl StringTensor {
    /// A string tensor, checking that `shape` holds `data.len()` elements.
    pub fn new(shape: Vec<i64>, data: Vec<Vec<u8>>) -> Result<StringTensor> {
        let numel = checked_numel(&shape).ok_or_else(|| RuntimeError::Shape(shape.clone()))?;
        if numel != data.len() {
            return Err(RuntimeError::DataLength {
                shape,
                expected: numel,
                got: data.len(),
            });
        }
        Ok(StringTensor { shape, data })
    }

    /// A copy of constant string data (an initializer, a `.pb` test input).
    pub fn from_tensor_data(data: &TensorData) -> Result<StringTensor> {
        match &data.payload {
            Payload::Strings(strings) => StringTensor::new(data.dims.clone(), strings.to_vec()),
            Payload::Elided => Err(RuntimeError::Elided(data.elem)),
            Payload::Raw(_) => Err(RuntimeError::ElemType {
                expected: ElemType::String,
                got: data.elem,
            }),
        }
    }

    /// The tensor as constant data (a copy), e.g. to write a `.pb` file.
    /// Fails only when `shape` does not hold `data.len()` elements.
    pub fn to_tensor_data(&self) -> Result<TensorData> {
        let checked = StringTensor::new(self.shape.clone(), self.data.clone())?;
        Ok(TensorData::from_strings(checked.shape, checked.data)
            .expect("the shape was checked against the data"))
    }
}

/// Deserialized string tensors are checked like built ones.
impl TryFrom<(Vec<i64>, Vec<Vec<u8>>)> for StringTensor {
    type Error = RuntimeError;

    fn try_from((shape, data): (Vec<i64>, Vec<Vec<u8>>)) -> Result<StringTensor> {
        StringTensor::new(shape, data)
    }
}

impl From<StringTensor> for (Vec<i64>, Vec<Vec<u8>>) {
    fn from(s: StringTensor) -> Self {
        (s.shape, s.data)
    }
}

/// A sequence: its element type (kept for empty sequences) and items.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sequence {
    /// The type every item has (its dims may be unknown).
    pub elem: Type,
    /// The items, in order.
    pub items: Vec<Value>,
}

/// A map (ONNX-ML's `map(K, V)`): its key and value types (kept for an
/// empty map) and its entries in order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Map {
    /// The key type: an integer type or `String`.
    pub key: ElemType,
    /// The type every value has.
    pub value: Type,
    /// The entries, in order (keys distinct).
    pub entries: Vec<(MapKey, Value)>,
}

/// A key of a [`Map`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MapKey {
    /// A key of an integer key type.
    Int(i64),
    /// A string key (bytes, as string tensors hold them).
    String(Vec<u8>),
}

/// An optional: the type of its value (kept when absent) and the value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Optional {
    /// The type of the value when present.
    pub elem: Type,
    /// The value, or `None`.
    pub value: Option<Box<Value>>,
}

impl Value {
    /// What kind of value this is, for messages: `tensor`, `string
    /// tensor`, `sequence`, `map` or `optional`.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Tensor(_) => "tensor",
            Value::Strings(_) => "string tensor",
            Value::Sequence(_) => "sequence",
            Value::Map(_) => "map",
            Value::Optional(_) => "optional",
        }
    }

    /// The value's type, with every dim known (a sequence, a map or an
    /// optional gives its declared item type).
    pub fn type_of(&self) -> Type {
        let tensor = |elem, shape: &[i64]| {
            Type::Tensor(TensorType::with_dims(
                elem,
                shape.iter().map(|&d| Dim::Known(d)).collect(),
            ))
        };
        match self {
            Value::Tensor(t) => tensor(t.elem(), t.shape()),
            Value::Strings(s) => tensor(ElemType::String, &s.shape),
            Value::Sequence(s) => Type::Sequence(Box::new(s.elem.clone())),
            Value::Map(m) => Type::Map(m.key, Box::new(m.value.clone())),
            Value::Optional(o) => Type::Optional(Box::new(o.elem.clone())),
        }
    }
}

/// The tensors of `values`, which must all be dense tensors: `what` says
/// where they come from in the message otherwise (`"inputs of a model of
/// tensors"` gives "sequence inputs of a model of tensors are not
/// supported …").
pub fn into_tensors(values: Vec<Value>, what: &str) -> Result<Vec<Tensor>> {
    values
        .into_iter()
        .map(|v| match v {
            Value::Tensor(t) => Ok(t),
            other => Err(RuntimeError::Unsupported(format!(
                "{} {what} are",
                other.kind()
            ))),
        })
        .collect()
}
