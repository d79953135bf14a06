//! What the checks share: the model seen through [`Cx`], how its parts
//! are named in messages, and [`fail`].

use crate::error::{Rule, VerifyError};
use crate::ir::{Ir, Model, OpId, RegionId, Value, ValueDef};
use crate::schema::Domain;
use crate::types::Type;

/// The result of one check.
pub(super) type Check<T = ()> = std::result::Result<T, VerifyError>;

/// Builds a [`VerifyError`].
pub(super) fn fail(rule: Rule, at: impl Into<String>, message: impl Into<String>) -> VerifyError {
    VerifyError {
        rule,
        at: at.into(),
        message: message.into(),
    }
}

/// What the checks after [`structure`] share: the model, and how to name
/// its parts in messages. Only valid on structurally sound IR.
pub(super) struct Cx<'m> {
    pub(super) model: &'m Model,
    pub(super) ir: &'m Ir,
}

impl Cx<'_> {
    /// An op as a place: `node "x" (Relu-14)`, followed by its graph
    /// when that is not the main graph.
    pub(super) fn op_at(&self, op: OpId) -> String {
        op_place(self.ir, self.model, op)
    }

    /// A graph as a place: `graph "main"`.
    pub(super) fn graph_at(&self, region: RegionId) -> String {
        graph_at(self.ir, region)
    }

    /// A value in a message: its name in quotes, or its handle.
    pub(super) fn value(&self, v: Value) -> String {
        value_label(self.ir, v)
    }

    /// Where a value is defined, for messages: `result 0 of node "a"
    /// (Relu-14)` or `input 1 of graph "body"`.
    pub(super) fn def_of(&self, v: Value) -> String {
        describe_def(self.ir, self.model, self.ir.value(v).def)
    }

    /// The version of `domain` the model imports. Models of IR version < 3
    /// have no imports and implicitly use ai.onnx opset 1.
    pub(super) fn imported(&self, domain: Domain) -> Option<i64> {
        let m = self.model;
        m.opset(domain).or_else(|| {
            (domain == Domain::Onnx && m.ir_version < 3 && m.opset_imports.is_empty()).then_some(1)
        })
    }
}

/// An op and, unless it is the main graph, its graph. The op must exist;
/// its parent need not (it is not checked for detached ops).
pub(super) fn op_place(ir: &Ir, model: &Model, op: OpId) -> String {
    let region = ir.op(op).parent;
    if region == model.graph || region.index() >= ir.num_regions() {
        ir.describe_op(op).to_string()
    } else {
        format!("{} in {}", ir.describe_op(op), graph_at(ir, region))
    }
}

pub(super) fn graph_at(ir: &Ir, region: RegionId) -> String {
    format!("graph \"{}\"", ir.region(region).name)
}

pub(super) fn value_label(ir: &Ir, v: Value) -> String {
    match &ir.value(v).name {
        Some(n) => format!("\"{n}\""),
        None => format!("{v:?}"),
    }
}

/// A value definition for messages; handles that do not exist (in broken
/// IR) are printed as such.
pub(super) fn describe_def(ir: &Ir, model: &Model, def: ValueDef) -> String {
    match def {
        ValueDef::Arg(r, i) if r.index() < ir.num_regions() => {
            format!("input {i} of {}", graph_at(ir, r))
        }
        ValueDef::Result(op, i) if op.index() < ir.num_ops() => {
            format!("result {i} of {}", op_place(ir, model, op))
        }
        _ => format!("{def:?}, which does not exist"),
    }
}

/// `input 1 ("x")`: an operand or result slot of an op, for messages.
pub(super) fn slot(ir: &Ir, what: &str, index: usize, value: Option<Value>) -> String {
    match value {
        Some(v) => format!("{what} {index} ({})", value_label(ir, v)),
        None => format!("{what} {index}"),
    }
}

/// Whether two types can describe the same value when shapes are ignored:
/// the same constructors and element types, unknown parts matching
/// anything. This is what "the same type" means for a type variable, for
/// loop-carried values and for branch outputs, whose shapes may differ.
pub(super) fn same_class(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Unknown, _) | (_, Type::Unknown) => true,
        (Type::Tensor(x), Type::Tensor(y)) | (Type::SparseTensor(x), Type::SparseTensor(y)) => {
            x.elem == y.elem
        }
        (Type::Sequence(x), Type::Sequence(y)) | (Type::Optional(x), Type::Optional(y)) => {
            same_class(x, y)
        }
        (Type::Map(k1, x), Type::Map(k2, y)) => k1 == k2 && same_class(x, y),
        _ => false,
    }
}
