//! The verifier: checks that a model obeys the rules of the ONNX IR spec
//! (<https://onnx.ai/onnx/repo-docs/IR.html>) and the op table.
//!
//! Every later stage leans on these rules without re-checking them: shape
//! inference reads attributes by their schema kind, the optimizer assumes
//! SSA and topological order, the lowering assumes arities match the op
//! table. The importer and the text parser build IR from untrusted input
//! and passes rewrite it, so the rules are written down once, here, and
//! checked between stages (`verify` in the [pass pipeline](crate::passes)).
//!
//! Each violation is a [`VerifyError`] naming the broken [`Rule`] (a stable
//! kebab-case name, printed as `error[ssa]: …`), the place (a node as
//! `node "conv1" (Conv-11)`, or a graph, its inputs and outputs) and
//! what is wrong. `docs/verifier.md` lists the rules with the spec text
//! each one enforces, and where we deliberately differ from `onnx.checker`.
//!
//! The checks run in a fixed order and stop at the first violation:
//! 1. `structure`: the arena is consistent (handles in range, every op
//!    and subgraph owned by exactly one parent, value definitions agree
//!    with where the values appear). Everything after relies on it.
//! 2. `model`: IR version and opset imports.
//! 3. `scope`: one walk over every graph in order, checking names, SSA,
//!    topological order and visibility of every use, and each op against
//!    its schema (`op`, `control`, `constant`).
//! 4. `model`: main-graph input/output types and training bindings.

mod constant;
mod control;
mod model;
mod op;
mod scope;
mod structure;
#[cfg(test)]
mod tests;

use std::fmt;

use crate::error::Result;
use crate::ir::{Ir, Model, OpId, RegionId, Value, ValueDef};
use crate::schema::Domain;
use crate::types::Type;

/// A rule of the IR spec (or of the op table) that a model can break.
///
/// The names are stable: tests and users match on them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The arena is consistent: handles exist, each op and subgraph has one
    /// owner that agrees with its `parent`, values' `def` agree with where
    /// they appear.
    Structure,
    /// Graphs, graph inputs and graph outputs are named; output names are
    /// unique; value names are not empty.
    Names,
    /// Single static assignment: every value is defined once, value names
    /// are unique within a graph, and a node output does not reuse a name
    /// visible from an enclosing graph.
    Ssa,
    /// Every use comes after its definition (nodes are topologically
    /// sorted, hence no cycles).
    TopoOrder,
    /// Every use refers to a value of its own graph or of an enclosing one.
    UndefinedValue,
    /// `ir_version` is a known IR version consistent with `opset_import`.
    IrVersion,
    /// Opset imports name each domain once, with a positive version.
    OpsetImport,
    /// Every op's domain is imported and the op's version is the one the
    /// import resolves to, not deprecated.
    OpVersion,
    /// Attribute names are known to the op's schema and given once.
    AttrName,
    /// Required attributes are present.
    MissingAttr,
    /// Attribute kinds match the schema.
    AttrKind,
    /// Numbers of inputs and outputs match the schema; only optional
    /// parameters are absent.
    Arity,
    /// Input and output types satisfy the schema's type constraints.
    TypeConstraint,
    /// Main-graph inputs and outputs have a known type, tensors a rank.
    IoType,
    /// Constant values (Constant ops, input defaults) agree with the
    /// declared type; a Constant has exactly one value attribute.
    ConstantValue,
    /// Subgraphs of If, Loop, Scan and SequenceMap have the signature
    /// their op passes and expects.
    ControlFlow,
    /// Training bindings name existing initializers and graph outputs.
    TrainingBinding,
}

impl Rule {
    /// Every rule.
    pub const ALL: [Rule; 17] = [
        Rule::Structure,
        Rule::Names,
        Rule::Ssa,
        Rule::TopoOrder,
        Rule::UndefinedValue,
        Rule::IrVersion,
        Rule::OpsetImport,
        Rule::OpVersion,
        Rule::AttrName,
        Rule::MissingAttr,
        Rule::AttrKind,
        Rule::Arity,
        Rule::TypeConstraint,
        Rule::IoType,
        Rule::ConstantValue,
        Rule::ControlFlow,
        Rule::TrainingBinding,
    ];

    /// The rule's stable kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Structure => "structure",
            Rule::Names => "names",
            Rule::Ssa => "ssa",
            Rule::TopoOrder => "topo-order",
            Rule::UndefinedValue => "undefined-value",
            Rule::IrVersion => "ir-version",
            Rule::OpsetImport => "opset-import",
            Rule::OpVersion => "op-version",
            Rule::AttrName => "attr-name",
            Rule::MissingAttr => "missing-attr",
            Rule::AttrKind => "attr-kind",
            Rule::Arity => "arity",
            Rule::TypeConstraint => "type-constraint",
            Rule::IoType => "io-type",
            Rule::ConstantValue => "constant-value",
            Rule::ControlFlow => "control-flow",
            Rule::TrainingBinding => "training-binding",
        }
    }

    /// The rule called `name`.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A broken rule: which, where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("error[{rule}]: {at}: {message}")]
pub struct VerifyError {
    /// The rule broken.
    pub rule: Rule,
    /// The place: `node "x" (Conv-11)`, `graph "main" output 2
    /// ("y")`, `model`, …
    pub at: String,
    /// What is wrong.
    pub message: String,
}

/// Checks every rule of the IR spec on a model; the first violation is
/// returned as [`Error::Verify`](crate::Error::Verify).
///
/// Main-graph inputs and outputs must have a known, ranked type
/// ([`Rule::IoType`]).
pub fn verify_model(model: &Model) -> Result<()> {
    check(model, true).map_err(Into::into)
}

/// [`verify_model`] for a model fresh from the importer: every rule, except
/// that main-graph outputs may still lack a rank, since shape inference
/// can supply it. A model whose own op is wrong (a Reshape with two `-1`s,
/// say) then reaches inference, which reports the real problem, rather
/// than failing on the output declaration the problem left unranked.
pub fn verify_imported_model(model: &Model) -> Result<()> {
    check(model, false).map_err(Into::into)
}

fn check(model: &Model, outputs_need_rank: bool) -> Check {
    let reachable = structure::check(model)?;
    model::check_header(model)?;
    let cx = Cx {
        model,
        ir: &model.ir,
    };
    scope::check(&cx, &reachable)?;
    model::check_io_types(&cx, outputs_need_rank)?;
    model::check_training(&cx)
}

/// The result of one check.
type Check<T = ()> = std::result::Result<T, VerifyError>;

/// Builds a [`VerifyError`].
fn fail(rule: Rule, at: impl Into<String>, message: impl Into<String>) -> VerifyError {
    VerifyError {
        rule,
        at: at.into(),
        message: message.into(),
    }
}

/// What the checks after [`structure`] share: the model, and how to name
/// its parts in messages. Only valid on structurally sound IR.
struct Cx<'m> {
    model: &'m Model,
    ir: &'m Ir,
}

impl Cx<'_> {
    /// An op as a place: `node "x" (Relu-14)`, followed by its graph
    /// when that is not the main graph.
    fn op_at(&self, op: OpId) -> String {
        op_place(self.ir, self.model, op)
    }

    /// A graph as a place: `graph "main"`.
    fn graph_at(&self, region: RegionId) -> String {
        graph_at(self.ir, region)
    }

    /// A value in a message: its name in quotes, or its handle.
    fn value(&self, v: Value) -> String {
        value_label(self.ir, v)
    }

    /// Where a value is defined, for messages: `result 0 of node "a"
    /// (Relu-14)` or `input 1 of graph "body"`.
    fn def_of(&self, v: Value) -> String {
        describe_def(self.ir, self.model, self.ir.value(v).def)
    }

    /// The version of `domain` the model imports. Models of IR version < 3
    /// have no imports and implicitly use ai.onnx opset 1.
    fn imported(&self, domain: Domain) -> Option<i64> {
        let m = self.model;
        m.opset(domain).or_else(|| {
            (domain == Domain::Onnx && m.ir_version < 3 && m.opset_imports.is_empty()).then_some(1)
        })
    }
}

/// An op and, unless it is the main graph, its graph. The op must exist;
/// its parent need not (it is not checked for detached ops).
fn op_place(ir: &Ir, model: &Model, op: OpId) -> String {
    let region = ir.op(op).parent;
    if region == model.graph || region.index() >= ir.num_regions() {
        ir.describe_op(op).to_string()
    } else {
        format!("{} in {}", ir.describe_op(op), graph_at(ir, region))
    }
}

fn graph_at(ir: &Ir, region: RegionId) -> String {
    format!("graph \"{}\"", ir.region(region).name)
}

fn value_label(ir: &Ir, v: Value) -> String {
    match &ir.value(v).name {
        Some(n) => format!("\"{n}\""),
        None => format!("{v:?}"),
    }
}

/// A value definition for messages; handles that do not exist (in broken
/// IR) are printed as such.
fn describe_def(ir: &Ir, model: &Model, def: ValueDef) -> String {
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
fn slot(ir: &Ir, what: &str, index: usize, value: Option<Value>) -> String {
    match value {
        Some(v) => format!("{what} {index} ({})", value_label(ir, v)),
        None => format!("{what} {index}"),
    }
}

/// Whether two types can describe the same value when shapes are ignored:
/// the same constructors and element types, unknown parts matching
/// anything. This is what "the same type" means for a type variable, for
/// loop-carried values and for branch outputs, whose shapes may differ.
fn same_class(a: &Type, b: &Type) -> bool {
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
