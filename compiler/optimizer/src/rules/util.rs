//! What rules are written with: guards (conditions on a match's classes)
//! and the [`Builder`] that right-hand-side functions add nodes through.

use std::sync::Arc;

use egg::Id;
use onnx_mlc_dialect::{Attr, Attrs, Dim, ElemType, OpKind, TensorData, TensorType};

use super::Guard;
use crate::analysis::OGraph;
use crate::eval::splat;
use crate::lang::{ONode, OpKey};
use crate::pattern::{add_op, Match};

/// The tensor type of a class, when it is a tensor.
pub fn tensor_of(egraph: &OGraph, id: Id) -> Option<&TensorType> {
    egraph[id].data.ty.as_tensor()
}

/// The dims of a class, when its rank is known.
pub fn dims_of(egraph: &OGraph, id: Id) -> Option<Vec<Dim>> {
    Some(tensor_of(egraph, id)?.dims()?.to_vec())
}

/// The static dims of a class.
pub fn static_dims_of(egraph: &OGraph, id: Id) -> Option<Vec<i64>> {
    tensor_of(egraph, id)?.static_dims()
}

/// The value of the constant a class equals, when at hand: original
/// constants and small folds (big folds stay lazy until extracted, and no
/// rule needs their values).
pub fn const_of(egraph: &OGraph, id: Id) -> Option<&TensorData> {
    egraph[id]
        .data
        .constant
        .and_then(|c| egraph.analysis.pool.materialized(c))
}

/// The value of the constant a class equals, computing a lazy fold: for
/// a rule that rewrites the values themselves.
pub fn forced_const_of(egraph: &OGraph, id: Id) -> Option<&TensorData> {
    egraph[id]
        .data
        .constant
        .and_then(|c| egraph.analysis.pool.force(c))
}

/// True when the class is an absent operand.
pub fn is_absent(egraph: &OGraph, id: Id) -> bool {
    egraph[id].nodes.iter().any(|n| matches!(n, ONode::Absent))
}

/// The root's type is `?v`'s type (known rank, equal dims and element
/// type): the op was neutral.
pub fn same_type(v: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let (a, b) = (tensor_of(eg, m.root), tensor_of(eg, m.class(v)));
        matches!((a, b), (Some(a), Some(b)) if a.elem == b.elem && a.dims().is_some() && a.dims() == b.dims())
    })
}

/// `?v` is a constant.
pub fn is_const(v: &'static str) -> Guard {
    Arc::new(move |eg, m| eg[m.class(v)].data.constant.is_some())
}

/// `?v` is not a constant (keeps constant-only rewrites to folding).
pub fn not_const(v: &'static str) -> Guard {
    Arc::new(move |eg, m| eg[m.class(v)].data.constant.is_none())
}

/// `?v` has a floating-point element type.
pub fn is_float(v: &'static str) -> Guard {
    Arc::new(move |eg, m| tensor_of(eg, m.class(v)).is_some_and(|t| t.elem.is_float()))
}

/// `?v` has this rank.
pub fn rank(v: &'static str, r: usize) -> Guard {
    Arc::new(move |eg, m| tensor_of(eg, m.class(v)).and_then(|t| t.rank()) == Some(r))
}

/// `?v` is an absent optional operand.
pub fn absent(v: &'static str) -> Guard {
    Arc::new(move |eg, m| is_absent(eg, m.class(v)))
}

/// `?v` is given (not an absent optional operand).
pub fn not_absent(v: &'static str) -> Guard {
    Arc::new(move |eg, m| !is_absent(eg, m.class(v)))
}

/// `?v` is absent or a constant false (Dropout's `training_mode`).
pub fn absent_or_false(v: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let id = m.class(v);
        is_absent(eg, id) || const_of(eg, id).and_then(splat) == Some(0.0)
    })
}

/// `?a` (a tensor class) broadcasts unidirectionally to the root's shape:
/// adding it changes no shape.
pub fn broadcasts_to_root(a: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let (Some(x), Some(r)) = (dims_of(eg, m.class(a)), dims_of(eg, m.root)) else {
            return false;
        };
        unidirectional(&x, &r)
    })
}

/// `x` broadcasts to `to` without changing `to`.
pub fn unidirectional(x: &[Dim], to: &[Dim]) -> bool {
    x.len() <= to.len()
        && x.iter()
            .rev()
            .zip(to.iter().rev())
            .all(|(a, b)| a == &Dim::Known(1) || a == b)
}

/// The normalized `axis` of a Softmax-like node is its operand's last.
pub fn last_axis(label: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let node = m.node(label);
        let key = node.key().expect("labels are on ops");
        let Some(r) = tensor_of(eg, node.operands()[0]).and_then(|t| t.rank()) else {
            return false;
        };
        let axis = key.int("axis").unwrap_or(-1);
        axis == -1 || axis == r as i64 - 1
    })
}

/// Every value of `from` is exactly representable in `via`.
pub fn exact_widening(from: ElemType, via: ElemType) -> bool {
    use ElemType::*;
    let rank = |t: ElemType| -> Option<(u8, bool, u32)> {
        // (kind: 0 unsigned int, 1 signed int, 2 float; signed; precision bits)
        Some(match t {
            Bool => (0, false, 1),
            U8 => (0, false, 8),
            U16 => (0, false, 16),
            U32 => (0, false, 32),
            U64 => (0, false, 64),
            I8 => (1, true, 7),
            I16 => (1, true, 15),
            I32 => (1, true, 31),
            I64 => (1, true, 63),
            F16 => (2, true, 11),
            BF16 => (2, true, 8),
            F32 => (2, true, 24),
            F64 => (2, true, 53),
            _ => return None,
        })
    };
    if from == via {
        return true;
    }
    let (Some((fk, fs, fp)), Some((vk, vs, vp))) = (rank(from), rank(via)) else {
        return false;
    };
    match (fk, vk) {
        (2, 2) => {
            // f16 → f32/f64, bf16 → f32/f64, f32 → f64 (exponent ranges grow too)
            matches!((from, via), (F16 | BF16, F32 | F64) | (F32, F64))
        }
        (2, _) => false,
        (_, 2) => fp <= vp,
        _ => (vs || !fs) && fp <= vp,
    }
}

/// Right-hand-side functions add nodes through this.
pub struct Builder<'a> {
    egraph: &'a mut OGraph,
    changed: bool,
}

impl<'a> Builder<'a> {
    /// A builder on `egraph`.
    pub fn new(egraph: &'a mut OGraph) -> Builder<'a> {
        Builder {
            egraph,
            changed: false,
        }
    }

    /// The e-graph.
    pub fn egraph(&mut self) -> &mut OGraph {
        self.egraph
    }

    /// The e-graph, read-only.
    pub fn graph(&self) -> &OGraph {
        self.egraph
    }

    /// Whether the builder merged classes itself.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// The rank of a class.
    pub fn rank(&self, id: Id) -> Option<usize> {
        tensor_of(self.egraph, id)?.rank()
    }

    /// The static dims of a class.
    pub fn static_dims(&self, id: Id) -> Option<Vec<i64>> {
        static_dims_of(self.egraph, id)
    }

    /// A constant class.
    pub fn add_constant(&mut self, t: TensorData) -> Id {
        let c = self.egraph.analysis.pool.intern(t, None);
        self.egraph.add(ONode::Const(c))
    }

    /// The all-zero constant of type `ty` (one class per type).
    pub fn zeros(&mut self, ty: TensorType) -> Option<Id> {
        let c = self.egraph.analysis.pool.zeros(ty)?;
        Some(self.egraph.add(ONode::Const(c)))
    }

    /// An absent operand.
    pub fn absent(&mut self) -> Id {
        self.egraph.add(ONode::Absent)
    }

    /// An op of `kind` at the version the model's opsets give it; `None`
    /// when the model cannot have it.
    pub fn op(&mut self, kind: OpKind, attrs: Vec<(&str, Attr)>, children: &[Id]) -> Option<Id> {
        let version = self.egraph.analysis.version_of(kind)?;
        let attrs = Attrs(attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect());
        Some(add_op(
            self.egraph,
            OpKey::single(kind, version, attrs),
            children.to_vec(),
        ))
    }

    /// An op with a full key.
    pub fn op_key(&mut self, key: OpKey, children: &[Id]) -> Id {
        add_op(self.egraph, key, children.to_vec())
    }

    /// Result `i` of a tuple class.
    pub fn get(&mut self, i: u32, tuple: Id) -> Id {
        self.egraph.add(ONode::Get(i, [tuple]))
    }

    /// Merges two classes.
    pub fn union(&mut self, a: Id, b: Id) {
        self.changed |= self.egraph.union(a, b);
    }

    /// A constant's class reshaped by a `Reshape` op on a constant shape
    /// (folds right away).
    pub fn reshape(&mut self, x: Id, dims: &[i64]) -> Option<Id> {
        let shape = self.add_constant(TensorData::i64s(dims));
        self.op(OpKind::Reshape, vec![], &[x, shape])
    }
}

/// A match's constant operand as a scalar.
pub fn scalar(b: &Builder, m: &Match, v: &str) -> Option<f64> {
    const_of(b.graph(), m.class(v)).and_then(splat)
}
