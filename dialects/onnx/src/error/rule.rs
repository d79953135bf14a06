//! The rules a model can break and the error naming one: what the
//! crate's [`Error::Verify`](crate::error::Error::Verify) carries.

use std::fmt;

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
