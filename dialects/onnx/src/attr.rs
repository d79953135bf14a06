//! Op attributes: the IR spec's `AttributeProto` values, with subgraphs
//! held as regions of the enclosing [`Ir`](crate::ir::Ir).

use serde::{Deserialize, Serialize};

use crate::entity::RegionId;
use crate::tensor::TensorData;
use crate::types::Type;

/// A sparse tensor in COO form (the IR spec's `SparseTensorProto`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SparseTensorData {
    /// Dims of the dense tensor this represents.
    pub dims: Vec<i64>,
    /// The non-zero values, a 1-D tensor of `NNZ` elements.
    pub values: TensorData,
    /// int64 indices: `[NNZ, rank]` coordinates or `[NNZ]` linearized.
    pub indices: TensorData,
}

/// The type of an attribute (the IR spec's `AttributeProto.AttributeType`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrKind {
    Float,
    Int,
    String,
    Tensor,
    Graph,
    SparseTensor,
    Type,
    Floats,
    Ints,
    Strings,
    Tensors,
    Graphs,
    SparseTensors,
    Types,
}

impl AttrKind {
    /// The spec's name of this kind (`INT`, `FLOATS`, …).
    pub fn name(self) -> &'static str {
        match self {
            AttrKind::Float => "FLOAT",
            AttrKind::Int => "INT",
            AttrKind::String => "STRING",
            AttrKind::Tensor => "TENSOR",
            AttrKind::Graph => "GRAPH",
            AttrKind::SparseTensor => "SPARSE_TENSOR",
            AttrKind::Type => "TYPE_PROTO",
            AttrKind::Floats => "FLOATS",
            AttrKind::Ints => "INTS",
            AttrKind::Strings => "STRINGS",
            AttrKind::Tensors => "TENSORS",
            AttrKind::Graphs => "GRAPHS",
            AttrKind::SparseTensors => "SPARSE_TENSORS",
            AttrKind::Types => "TYPE_PROTOS",
        }
    }
}

/// An attribute value.
///
/// Serialized (in a host program of an AOT library) by variant index: the
/// subgraph variants, which have no serialized form, come last so that
/// skipping them leaves the other indices alike on both sides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Attr {
    Float(f32),
    Int(i64),
    /// ONNX strings are byte strings; most are ASCII.
    String(Vec<u8>),
    Tensor(TensorData),
    SparseTensor(SparseTensorData),
    Type(Type),
    Floats(Vec<f32>),
    Ints(Vec<i64>),
    Strings(Vec<Vec<u8>>),
    Tensors(Vec<TensorData>),
    SparseTensors(Vec<SparseTensorData>),
    Types(Vec<Type>),
    /// A subgraph: a region owned by the op that carries the attribute.
    /// (Not serialized: a region only means something inside its `Ir`.)
    #[serde(skip)]
    Graph(RegionId),
    #[serde(skip)]
    Graphs(Vec<RegionId>),
}

impl Attr {
    /// The kind of this value.
    pub fn kind(&self) -> AttrKind {
        match self {
            Attr::Float(_) => AttrKind::Float,
            Attr::Int(_) => AttrKind::Int,
            Attr::String(_) => AttrKind::String,
            Attr::Tensor(_) => AttrKind::Tensor,
            Attr::Graph(_) => AttrKind::Graph,
            Attr::SparseTensor(_) => AttrKind::SparseTensor,
            Attr::Type(_) => AttrKind::Type,
            Attr::Floats(_) => AttrKind::Floats,
            Attr::Ints(_) => AttrKind::Ints,
            Attr::Strings(_) => AttrKind::Strings,
            Attr::Tensors(_) => AttrKind::Tensors,
            Attr::Graphs(_) => AttrKind::Graphs,
            Attr::SparseTensors(_) => AttrKind::SparseTensors,
            Attr::Types(_) => AttrKind::Types,
        }
    }

    /// A string attribute from text.
    pub fn str(s: &str) -> Attr {
        Attr::String(s.as_bytes().to_vec())
    }

    /// The regions this attribute holds (none, one or several).
    pub fn regions(&self) -> &[RegionId] {
        match self {
            Attr::Graph(r) => std::slice::from_ref(r),
            Attr::Graphs(rs) => rs,
            _ => &[],
        }
    }
}

/// The attributes of one op, in the order they were given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Attrs(pub Vec<(String, Attr)>);

impl Attrs {
    /// The attribute called `name`.
    pub fn get(&self, name: &str) -> Option<&Attr> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// Sets (replaces or appends) an attribute.
    pub fn set(&mut self, name: &str, value: Attr) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }

    /// Removes and returns an attribute.
    pub fn remove(&mut self, name: &str) -> Option<Attr> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    /// An `INT` attribute.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.get(name)? {
            Attr::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// A `FLOAT` attribute.
    pub fn float(&self, name: &str) -> Option<f32> {
        match self.get(name)? {
            Attr::Float(v) => Some(*v),
            _ => None,
        }
    }

    /// A `STRING` attribute that is valid UTF-8.
    pub fn string(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            Attr::String(v) => std::str::from_utf8(v).ok(),
            _ => None,
        }
    }

    /// An `INTS` attribute.
    pub fn ints(&self, name: &str) -> Option<&[i64]> {
        match self.get(name)? {
            Attr::Ints(v) => Some(v),
            _ => None,
        }
    }

    /// A `FLOATS` attribute.
    pub fn floats(&self, name: &str) -> Option<&[f32]> {
        match self.get(name)? {
            Attr::Floats(v) => Some(v),
            _ => None,
        }
    }

    /// A `TENSOR` attribute.
    pub fn tensor(&self, name: &str) -> Option<&TensorData> {
        match self.get(name)? {
            Attr::Tensor(v) => Some(v),
            _ => None,
        }
    }

    /// A `GRAPH` attribute.
    pub fn graph(&self, name: &str) -> Option<RegionId> {
        match self.get(name)? {
            Attr::Graph(r) => Some(*r),
            _ => None,
        }
    }

    /// Every region held by these attributes, in attribute order.
    pub fn regions(&self) -> impl Iterator<Item = RegionId> + '_ {
        self.0.iter().flat_map(|(_, a)| a.regions().iter().copied())
    }

    /// Iterates over `(name, value)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Attr)> {
        self.0.iter().map(|(n, a)| (n.as_str(), a))
    }

    /// Number of attributes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no attributes.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
