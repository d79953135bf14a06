//! Types of onnx dialect values: tensors of every ONNX element type with
//! static, symbolic or unknown dimensions, and the non-tensor types of the
//! IR spec (sequence, map, optional, sparse tensor).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dim::Dim;

/// An ONNX element type (`TensorProto.DataType` minus `UNDEFINED`).
///
/// The discriminants are the protobuf enum values, so conversion to and
/// from the wire format is a cast.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(i32)]
pub enum ElemType {
    F32 = 1,
    U8 = 2,
    I8 = 3,
    U16 = 4,
    I16 = 5,
    I32 = 6,
    I64 = 7,
    String = 8,
    Bool = 9,
    F16 = 10,
    F64 = 11,
    U32 = 12,
    U64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BF16 = 16,
    F8E4M3FN = 17,
    F8E4M3FNUZ = 18,
    F8E5M2 = 19,
    F8E5M2FNUZ = 20,
    U4 = 21,
    I4 = 22,
    F4E2M1 = 23,
    F8E8M0 = 24,
    U2 = 25,
    I2 = 26,
    F6E2M3 = 27,
    F6E3M2 = 28,
}

impl ElemType {
    /// Every element type, in protobuf order.
    pub const ALL: [ElemType; 28] = [
        ElemType::F32,
        ElemType::U8,
        ElemType::I8,
        ElemType::U16,
        ElemType::I16,
        ElemType::I32,
        ElemType::I64,
        ElemType::String,
        ElemType::Bool,
        ElemType::F16,
        ElemType::F64,
        ElemType::U32,
        ElemType::U64,
        ElemType::Complex64,
        ElemType::Complex128,
        ElemType::BF16,
        ElemType::F8E4M3FN,
        ElemType::F8E4M3FNUZ,
        ElemType::F8E5M2,
        ElemType::F8E5M2FNUZ,
        ElemType::U4,
        ElemType::I4,
        ElemType::F4E2M1,
        ElemType::F8E8M0,
        ElemType::U2,
        ElemType::I2,
        ElemType::F6E2M3,
        ElemType::F6E3M2,
    ];

    /// The element type for a `TensorProto.DataType` value; `None` for
    /// `UNDEFINED` and values the spec does not define.
    pub fn from_onnx(code: i32) -> Option<ElemType> {
        ElemType::ALL.iter().copied().find(|t| *t as i32 == code)
    }

    /// The `TensorProto.DataType` value.
    pub fn onnx_code(self) -> i32 {
        self as i32
    }

    /// Size of one element in bits (4 for int4, 2 for int2, …); strings
    /// have no fixed size and report 0.
    pub fn bit_width(self) -> u32 {
        use ElemType::*;
        match self {
            Bool | U8 | I8 | F8E4M3FN | F8E4M3FNUZ | F8E5M2 | F8E5M2FNUZ | F8E8M0 => 8,
            U16 | I16 | F16 | BF16 => 16,
            F32 | I32 | U32 => 32,
            F64 | I64 | U64 | Complex64 => 64,
            Complex128 => 128,
            U4 | I4 | F4E2M1 => 4,
            U2 | I2 => 2,
            F6E2M3 | F6E3M2 => 6,
            String => 0,
        }
    }

    /// Number of bytes `n` elements take in ONNX's packed `raw_data`
    /// layout (sub-byte types are packed low bits first, rounded up).
    pub fn packed_bytes(self, n: usize) -> usize {
        (n * self.bit_width() as usize).div_ceil(8)
    }

    /// True for every floating-point type, including float8/float4/float6.
    pub fn is_float(self) -> bool {
        use ElemType::*;
        matches!(
            self,
            F32 | F64
                | F16
                | BF16
                | F8E4M3FN
                | F8E4M3FNUZ
                | F8E5M2
                | F8E5M2FNUZ
                | F8E8M0
                | F4E2M1
                | F6E2M3
                | F6E3M2
        )
    }

    /// True for signed and unsigned integer types (not bool).
    pub fn is_int(self) -> bool {
        use ElemType::*;
        matches!(
            self,
            U8 | I8 | U16 | I16 | I32 | I64 | U32 | U64 | U4 | I4 | U2 | I2
        )
    }

    /// True for signed integer types.
    pub fn is_signed_int(self) -> bool {
        use ElemType::*;
        matches!(self, I8 | I16 | I32 | I64 | I4 | I2)
    }

    /// The name used in the text form (`f32`, `ui8`, `f8E4M3FN`, …),
    /// following MLIR's builtin type names where MLIR has one.
    pub fn mnemonic(self) -> &'static str {
        use ElemType::*;
        match self {
            F32 => "f32",
            U8 => "ui8",
            I8 => "i8",
            U16 => "ui16",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            String => "string",
            Bool => "i1",
            F16 => "f16",
            F64 => "f64",
            U32 => "ui32",
            U64 => "ui64",
            Complex64 => "complex<f32>",
            Complex128 => "complex<f64>",
            BF16 => "bf16",
            F8E4M3FN => "f8E4M3FN",
            F8E4M3FNUZ => "f8E4M3FNUZ",
            F8E5M2 => "f8E5M2",
            F8E5M2FNUZ => "f8E5M2FNUZ",
            U4 => "ui4",
            I4 => "i4",
            F4E2M1 => "f4E2M1FN",
            F8E8M0 => "f8E8M0FNU",
            U2 => "ui2",
            I2 => "i2",
            F6E2M3 => "f6E2M3FN",
            F6E3M2 => "f6E3M2FN",
        }
    }

    /// Parses a text-form mnemonic (inverse of [`ElemType::mnemonic`]).
    pub fn from_mnemonic(s: &str) -> Option<ElemType> {
        ElemType::ALL.iter().copied().find(|t| t.mnemonic() == s)
    }

    /// The name the ONNX spec uses in type constraints (`float`, `uint8`,
    /// `float8e4m3fn`, …).
    pub fn onnx_name(self) -> &'static str {
        use ElemType::*;
        match self {
            F32 => "float",
            U8 => "uint8",
            I8 => "int8",
            U16 => "uint16",
            I16 => "int16",
            I32 => "int32",
            I64 => "int64",
            String => "string",
            Bool => "bool",
            F16 => "float16",
            F64 => "double",
            U32 => "uint32",
            U64 => "uint64",
            Complex64 => "complex64",
            Complex128 => "complex128",
            BF16 => "bfloat16",
            F8E4M3FN => "float8e4m3fn",
            F8E4M3FNUZ => "float8e4m3fnuz",
            F8E5M2 => "float8e5m2",
            F8E5M2FNUZ => "float8e5m2fnuz",
            U4 => "uint4",
            I4 => "int4",
            F4E2M1 => "float4e2m1",
            F8E8M0 => "float8e8m0",
            U2 => "uint2",
            I2 => "int2",
            F6E2M3 => "float6e2m3",
            F6E3M2 => "float6e3m2",
        }
    }

    /// Parses a spec type-constraint name (inverse of [`ElemType::onnx_name`]).
    pub fn from_onnx_name(s: &str) -> Option<ElemType> {
        ElemType::ALL.iter().copied().find(|t| t.onnx_name() == s)
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// The shape of a tensor: `None` when even the rank is unknown.
pub type Shape = Option<Vec<Dim>>;

/// A tensor type: element type and (possibly partial) shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TensorType {
    /// The element type.
    pub elem: ElemType,
    /// The dimensions, or `None` for unknown rank.
    pub shape: Shape,
}

impl TensorType {
    /// A tensor type of fully static shape.
    pub fn new(elem: ElemType, dims: &[i64]) -> TensorType {
        TensorType {
            elem,
            shape: Some(dims.iter().map(|&d| Dim::Known(d)).collect()),
        }
    }

    /// A tensor type with the given dims.
    pub fn with_dims(elem: ElemType, dims: Vec<Dim>) -> TensorType {
        TensorType {
            elem,
            shape: Some(dims),
        }
    }

    /// A tensor type of unknown rank.
    pub fn unranked(elem: ElemType) -> TensorType {
        TensorType { elem, shape: None }
    }

    /// The rank, if known.
    pub fn rank(&self) -> Option<usize> {
        self.shape.as_ref().map(Vec::len)
    }

    /// The dims, if the rank is known.
    pub fn dims(&self) -> Option<&[Dim]> {
        self.shape.as_deref()
    }

    /// The dims as integers when every dim is static.
    pub fn static_dims(&self) -> Option<Vec<i64>> {
        self.shape.as_ref()?.iter().map(Dim::as_known).collect()
    }

    /// Number of elements when the shape is fully static.
    pub fn static_numel(&self) -> Option<i64> {
        self.static_dims().map(|d| d.iter().product())
    }
}

/// The type of an onnx dialect value (the IR spec's `TypeProto`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Type {
    /// A dense tensor.
    Tensor(TensorType),
    /// A sparse tensor (COO): the type of sparse graph inputs and outputs.
    /// (A `Constant` with `sparse_value` produces a dense tensor.)
    SparseTensor(TensorType),
    /// A sequence of values of one type.
    Sequence(Box<Type>),
    /// A map from a scalar key type to values of one type.
    Map(ElemType, Box<Type>),
    /// An optional value: either absent or of the inner type.
    Optional(Box<Type>),
    /// Nothing is known yet (no `value_info`, inference not run or unable).
    Unknown,
}

impl Type {
    /// A tensor type of fully static shape.
    pub fn tensor(elem: ElemType, dims: &[i64]) -> Type {
        Type::Tensor(TensorType::new(elem, dims))
    }

    /// The tensor type, if this is a dense tensor.
    pub fn as_tensor(&self) -> Option<&TensorType> {
        match self {
            Type::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// The element type of a dense or sparse tensor.
    pub fn elem(&self) -> Option<ElemType> {
        match self {
            Type::Tensor(t) | Type::SparseTensor(t) => Some(t.elem),
            _ => None,
        }
    }

    /// True when nothing about this type is unknown (every tensor inside
    /// has a known rank, and every dim is static).
    pub fn is_static(&self) -> bool {
        match self {
            Type::Tensor(t) | Type::SparseTensor(t) => t.static_dims().is_some(),
            Type::Sequence(t) | Type::Optional(t) | Type::Map(_, t) => t.is_static(),
            Type::Unknown => false,
        }
    }

    /// True when the element type and rank of every tensor inside are known.
    pub fn is_ranked(&self) -> bool {
        match self {
            Type::Tensor(t) | Type::SparseTensor(t) => t.shape.is_some(),
            Type::Sequence(t) | Type::Optional(t) | Type::Map(_, t) => t.is_ranked(),
            Type::Unknown => false,
        }
    }
}

impl fmt::Display for TensorType {
    /// `1x3x?x"N"xf32`: the part between `tensor<` and `>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.shape {
            None => write!(f, "*x{}", self.elem),
            Some(dims) => {
                for d in dims {
                    write!(f, "{d}x")?;
                }
                write!(f, "{}", self.elem)
            }
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Tensor(t) => write!(f, "tensor<{t}>"),
            Type::SparseTensor(t) => write!(f, "!onnx.sparse<{t}>"),
            Type::Sequence(t) => write!(f, "!onnx.seq<{t}>"),
            Type::Map(k, v) => write!(f, "!onnx.map<{k}, {v}>"),
            Type::Optional(t) => write!(f, "!onnx.opt<{t}>"),
            Type::Unknown => f.write_str("!onnx.unknown"),
        }
    }
}

/// Combines two descriptions of the same value's type, keeping what
/// either knows; `None` when they contradict each other.
pub fn merge_types(a: &Type, b: &Type) -> Option<Type> {
    Some(match (a, b) {
        (Type::Unknown, t) | (t, Type::Unknown) => t.clone(),
        (Type::Tensor(x), Type::Tensor(y)) => Type::Tensor(merge_tensor(x, y)?),
        (Type::SparseTensor(x), Type::SparseTensor(y)) => Type::SparseTensor(merge_tensor(x, y)?),
        (Type::Sequence(x), Type::Sequence(y)) => Type::Sequence(Box::new(merge_types(x, y)?)),
        (Type::Optional(x), Type::Optional(y)) => Type::Optional(Box::new(merge_types(x, y)?)),
        (Type::Map(k1, x), Type::Map(k2, y)) if k1 == k2 => {
            Type::Map(*k1, Box::new(merge_types(x, y)?))
        }
        _ => return None,
    })
}

fn merge_tensor(a: &TensorType, b: &TensorType) -> Option<TensorType> {
    if a.elem != b.elem {
        return None;
    }
    let shape = match (&a.shape, &b.shape) {
        (None, s) | (s, None) => s.clone(),
        (Some(x), Some(y)) if x.len() == y.len() => Some(
            x.iter()
                .zip(y)
                .map(|(p, q)| p.merge(q))
                .collect::<Option<Vec<_>>>()?,
        ),
        _ => return None,
    };
    Some(TensorType {
        elem: a.elem,
        shape,
    })
}

/// `ty` with the shape of every tensor inside it forgotten (element types
/// and kinds kept).
pub fn erase_shapes(ty: &Type) -> Type {
    match ty {
        Type::Tensor(t) => Type::Tensor(TensorType::unranked(t.elem)),
        Type::SparseTensor(t) => Type::SparseTensor(TensorType::unranked(t.elem)),
        Type::Sequence(t) => Type::Sequence(Box::new(erase_shapes(t))),
        Type::Optional(t) => Type::Optional(Box::new(erase_shapes(t))),
        Type::Map(k, t) => Type::Map(*k, Box::new(erase_shapes(t))),
        Type::Unknown => Type::Unknown,
    }
}
