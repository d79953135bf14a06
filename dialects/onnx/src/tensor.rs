//! Constant tensor data: initializers, `Constant` values, tensor attributes
//! and folded results.
//!
//! Numeric data is kept in ONNX's `raw_data` layout (little-endian, sub-byte
//! types packed low bits first) inside a [`Bytes`], so that weights read
//! from a memory-mapped model or external-data file are never copied.

use std::fmt;
use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::types::{ElemType, TensorType};

/// The payload of a [`TensorData`].
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub enum Payload {
    /// Packed little-endian bytes (every type but strings).
    Raw(Bytes),
    /// One byte string per element (`ElemType::String`).
    Strings(Arc<[Vec<u8>]>),
    /// Data left out of a printed IR (`dense_resource<__elided__>`): the
    /// type is known, the values are not. Such IR can be analysed but
    /// not executed.
    Elided,
}

/// A dense constant tensor of static shape.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct TensorData {
    /// Element type.
    pub elem: ElemType,
    /// Static dims.
    pub dims: Vec<i64>,
    /// The values.
    pub payload: Payload,
}

/// Why a [`TensorData`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TensorDataError {
    /// The byte length does not match the element count.
    #[error(
        "tensor of type {elem} and shape {dims:?} needs {expected} bytes of data, got {actual}"
    )]
    Length {
        elem: ElemType,
        dims: Vec<i64>,
        expected: usize,
        actual: usize,
    },
    /// A negative dim or an element count that does not fit in memory.
    #[error("invalid tensor shape {0:?}")]
    Shape(Vec<i64>),
}

/// Number of elements of a static shape; `None` for negative dims or
/// overflow.
pub fn checked_numel(dims: &[i64]) -> Option<usize> {
    dims.iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?))
}

/// A plain-old-data element type that can be read from raw little-endian
/// bytes.
pub trait Element: Copy {
    /// The ONNX element type.
    const ELEM: ElemType;
    /// Decodes one element from its little-endian bytes.
    fn from_le(bytes: &[u8]) -> Self;
    /// Appends the little-endian bytes of `self`.
    fn push_le(self, out: &mut Vec<u8>);
}

macro_rules! element {
    ($t:ty, $e:expr) => {
        impl Element for $t {
            const ELEM: ElemType = $e;
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("element width"))
            }
            fn push_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    };
}

element!(f32, ElemType::F32);
element!(f64, ElemType::F64);
element!(i8, ElemType::I8);
element!(i16, ElemType::I16);
element!(i32, ElemType::I32);
element!(i64, ElemType::I64);
element!(u8, ElemType::U8);
element!(u16, ElemType::U16);
element!(u32, ElemType::U32);
element!(u64, ElemType::U64);
element!(half::f16, ElemType::F16);
element!(half::bf16, ElemType::BF16);

impl TensorData {
    /// Wraps packed raw bytes, checking the length against the shape.
    pub fn from_raw(
        elem: ElemType,
        dims: Vec<i64>,
        raw: Bytes,
    ) -> Result<TensorData, TensorDataError> {
        let n = checked_numel(&dims).ok_or_else(|| TensorDataError::Shape(dims.clone()))?;
        let expected = elem.packed_bytes(n);
        if elem == ElemType::String || raw.len() != expected {
            return Err(TensorDataError::Length {
                elem,
                dims,
                expected,
                actual: raw.len(),
            });
        }
        Ok(TensorData {
            elem,
            dims,
            payload: Payload::Raw(raw),
        })
    }

    /// A string tensor.
    pub fn from_strings(
        dims: Vec<i64>,
        strings: Vec<Vec<u8>>,
    ) -> Result<TensorData, TensorDataError> {
        let n = checked_numel(&dims).ok_or_else(|| TensorDataError::Shape(dims.clone()))?;
        if strings.len() != n {
            return Err(TensorDataError::Length {
                elem: ElemType::String,
                dims,
                expected: n,
                actual: strings.len(),
            });
        }
        Ok(TensorData {
            elem: ElemType::String,
            dims,
            payload: Payload::Strings(strings.into()),
        })
    }

    /// A tensor from typed values.
    pub fn from_vec<T: Element>(
        dims: Vec<i64>,
        values: &[T],
    ) -> Result<TensorData, TensorDataError> {
        let mut raw = Vec::with_capacity(std::mem::size_of_val(values));
        for v in values {
            v.push_le(&mut raw);
        }
        TensorData::from_raw(T::ELEM, dims, Bytes::from(raw))
    }

    /// A scalar (rank 0) tensor.
    pub fn scalar<T: Element>(value: T) -> TensorData {
        TensorData::from_vec(vec![], &[value]).expect("one element fits a scalar")
    }

    /// A 1-D int64 tensor, the type of shape operands.
    pub fn i64s(values: &[i64]) -> TensorData {
        TensorData::from_vec(vec![values.len() as i64], values).expect("length matches")
    }

    /// A tensor whose values are unknown (see [`Payload::Elided`]).
    pub fn elided(elem: ElemType, dims: Vec<i64>) -> TensorData {
        TensorData {
            elem,
            dims,
            payload: Payload::Elided,
        }
    }

    /// The tensor type of this value.
    pub fn ty(&self) -> TensorType {
        TensorType::new(self.elem, &self.dims)
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        checked_numel(&self.dims).expect("checked at construction")
    }

    /// The packed raw bytes; `None` for strings and elided data.
    pub fn raw(&self) -> Option<&Bytes> {
        match &self.payload {
            Payload::Raw(b) => Some(b),
            _ => None,
        }
    }

    /// The strings of a string tensor.
    pub fn strings(&self) -> Option<&[Vec<u8>]> {
        match &self.payload {
            Payload::Strings(s) => Some(s),
            _ => None,
        }
    }

    /// Size of the data in bytes (string tensors: sum of string lengths).
    pub fn byte_size(&self) -> usize {
        match &self.payload {
            Payload::Raw(b) => b.len(),
            Payload::Strings(s) => s.iter().map(Vec::len).sum(),
            Payload::Elided => self.elem.packed_bytes(self.numel()),
        }
    }

    /// The values as `T` when the element type is exactly `T`'s.
    pub fn to_vec<T: Element>(&self) -> Option<Vec<T>> {
        if self.elem != T::ELEM {
            return None;
        }
        let w = std::mem::size_of::<T>();
        Some(self.raw()?.chunks_exact(w).map(T::from_le).collect())
    }

    /// The values of an integer or bool tensor widened to `i64` (the way
    /// shape operands and indices are read, whatever their int type).
    pub fn to_i64s(&self) -> Option<Vec<i64>> {
        use ElemType::*;
        let raw = self.raw()?;
        Some(match self.elem {
            I64 => self.to_vec::<i64>()?,
            I32 => self.to_vec::<i32>()?.into_iter().map(i64::from).collect(),
            I16 => self.to_vec::<i16>()?.into_iter().map(i64::from).collect(),
            I8 => raw.iter().map(|&b| b as i8 as i64).collect(),
            U8 | Bool => raw.iter().map(|&b| b as i64).collect(),
            U16 => self.to_vec::<u16>()?.into_iter().map(i64::from).collect(),
            U32 => self.to_vec::<u32>()?.into_iter().map(i64::from).collect(),
            U64 => self
                .to_vec::<u64>()?
                .into_iter()
                .map(|v| v as i64)
                .collect(),
            _ => return None,
        })
    }

    /// The values of a floating-point (f16/bf16/f32/f64) or integer
    /// tensor as `f64`.
    pub fn to_f64s(&self) -> Option<Vec<f64>> {
        use ElemType::*;
        Some(match self.elem {
            F32 => self.to_vec::<f32>()?.into_iter().map(f64::from).collect(),
            F64 => self.to_vec::<f64>()?,
            F16 => self
                .to_vec::<half::f16>()?
                .into_iter()
                .map(f64::from)
                .collect(),
            BF16 => self
                .to_vec::<half::bf16>()?
                .into_iter()
                .map(f64::from)
                .collect(),
            _ => self.to_i64s()?.into_iter().map(|v| v as f64).collect(),
        })
    }
}

impl fmt::Debug for TensorData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorData<{}>({} bytes)", self.ty(), self.byte_size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_length_is_checked() {
        assert!(TensorData::from_raw(ElemType::F32, vec![2], Bytes::from_static(&[0; 8])).is_ok());
        assert!(TensorData::from_raw(ElemType::F32, vec![2], Bytes::from_static(&[0; 7])).is_err());
        // int4: 3 elements pack into 2 bytes.
        assert!(TensorData::from_raw(ElemType::I4, vec![3], Bytes::from_static(&[0; 2])).is_ok());
        assert!(TensorData::from_raw(ElemType::F32, vec![-1], Bytes::new()).is_err());
    }

    #[test]
    fn typed_round_trip() {
        let t = TensorData::from_vec(vec![2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(t.to_f64s().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
        assert!(t.to_vec::<i32>().is_none());
        assert_eq!(TensorData::i64s(&[1, -1]).to_i64s().unwrap(), vec![1, -1]);
    }
}
