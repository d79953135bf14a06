//! What inference knows beyond types: the integer values it tracks
//! (shape arithmetic) and the ops it could not fully infer.

use std::collections::HashMap;

use crate::dim::Dim;
use crate::ir::{OpId, Value};
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The known contents of a small integer tensor; elements may be symbolic.
#[derive(Clone, Debug, PartialEq)]
pub struct SymTensor {
    /// Static shape of the tensor (rank 0 or 1 in practice).
    pub dims: Vec<i64>,
    /// The elements in row-major order.
    pub elems: Vec<Dim>,
}

/// Integer tensors with more elements than this are not tracked as values.
pub const MAX_TRACKED_ELEMS: usize = 1024;

impl SymTensor {
    /// A 1-D tensor of the given elements.
    pub fn vector(elems: Vec<Dim>) -> SymTensor {
        SymTensor {
            dims: vec![elems.len() as i64],
            elems,
        }
    }

    /// A rank-0 tensor.
    pub fn scalar(elem: Dim) -> SymTensor {
        SymTensor {
            dims: vec![],
            elems: vec![elem],
        }
    }

    /// The contents of an integer (or bool, as 0/1) constant, when small
    /// enough to track.
    pub fn from_data(data: &TensorData) -> Option<SymTensor> {
        if !matches!(data.elem, ElemType::I64 | ElemType::I32 | ElemType::Bool)
            || data.numel() > MAX_TRACKED_ELEMS
        {
            return None;
        }
        Some(SymTensor {
            dims: data.dims.clone(),
            elems: data.to_i64s()?.into_iter().map(Dim::Known).collect(),
        })
    }

    /// The elements as integers when all are static.
    pub fn as_known(&self) -> Option<Vec<i64>> {
        self.elems.iter().map(Dim::as_known).collect()
    }
}

/// What inference learned beyond types: the tracked integer values.
#[derive(Clone, Debug, Default)]
pub struct Knowledge {
    /// Known contents of integer values.
    pub values: HashMap<Value, SymTensor>,
    /// Ops whose result types could not be fully inferred, with why.
    pub incomplete: Vec<(OpId, String)>,
}
