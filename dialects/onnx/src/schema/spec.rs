//! What the op table says of one version of an operator: its formal
//! inputs and outputs, attributes and type constraints ([`OpSchema`]).

use super::kind::OpKind;
use crate::attr::{Attr, AttrKind};
use crate::types::{ElemType, Type};

/// How many values a formal parameter takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamOption {
    /// Exactly one.
    Single,
    /// Zero or one (an empty name in ONNX means absent).
    Optional,
    /// Any number from `min_arity`; only the last parameter can be variadic.
    Variadic,
}

/// A type in a type constraint or a fixed parameter type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypePattern {
    Tensor(ElemType),
    SparseTensor(ElemType),
    Sequence(&'static TypePattern),
    Optional(&'static TypePattern),
    Map(ElemType, &'static TypePattern),
}

impl TypePattern {
    /// Whether a value type matches this pattern. Unknown parts of `ty`
    /// match anything (they may be inferred later).
    pub fn matches(&self, ty: &Type) -> bool {
        match (self, ty) {
            (_, Type::Unknown) => true,
            (TypePattern::Tensor(e), Type::Tensor(t)) => *e == t.elem,
            (TypePattern::SparseTensor(e), Type::SparseTensor(t)) => *e == t.elem,
            (TypePattern::Sequence(p), Type::Sequence(t)) => p.matches(t),
            (TypePattern::Optional(p), Type::Optional(t)) => p.matches(t),
            (TypePattern::Map(k, p), Type::Map(kt, t)) => k == kt && p.matches(t),
            _ => false,
        }
    }
}

impl std::fmt::Display for TypePattern {
    /// The spec's spelling: `tensor(float)`, `seq(tensor(int64))`, …
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypePattern::Tensor(e) => write!(f, "tensor({})", e.onnx_name()),
            TypePattern::SparseTensor(e) => write!(f, "sparse_tensor({})", e.onnx_name()),
            TypePattern::Sequence(p) => write!(f, "seq({p})"),
            TypePattern::Optional(p) => write!(f, "optional({p})"),
            TypePattern::Map(k, p) => write!(f, "map({}, {p})", k.onnx_name()),
        }
    }
}

/// The type of a formal parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// A type variable named by a [`TypeConstraint`] (`T`, `T1`, …): all
    /// parameters sharing it have the same type.
    Var(&'static str),
    /// A fixed type (`tensor(int64)` for shape operands, say).
    Fixed(TypePattern),
}

/// A formal input or output of an operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub option: ParamOption,
    pub ty: ParamType,
    /// For variadic parameters: whether all values share one type.
    pub homogeneous: bool,
    /// For variadic parameters: the least number of values.
    pub min_arity: u32,
}

/// A default attribute value from the spec.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum AttrDefault {
    Int(i64),
    Float(f32),
    String(&'static str),
    Ints(&'static [i64]),
    Floats(&'static [f32]),
    Strings(&'static [&'static str]),
}

impl AttrDefault {
    /// The default as an attribute value.
    pub fn to_attr(self) -> Attr {
        match self {
            AttrDefault::Int(v) => Attr::Int(v),
            AttrDefault::Float(v) => Attr::Float(v),
            AttrDefault::String(v) => Attr::str(v),
            AttrDefault::Ints(v) => Attr::Ints(v.to_vec()),
            AttrDefault::Floats(v) => Attr::Floats(v.to_vec()),
            AttrDefault::Strings(v) => {
                Attr::Strings(v.iter().map(|s| s.as_bytes().to_vec()).collect())
            }
        }
    }
}

/// A formal attribute of an operator.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AttrSchema {
    pub name: &'static str,
    pub kind: AttrKind,
    pub required: bool,
    pub default: Option<AttrDefault>,
}

/// A type variable and the types it may stand for.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TypeConstraint {
    pub name: &'static str,
    pub allowed: &'static [TypePattern],
}

/// One version of an operator.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OpSchema {
    pub kind: OpKind,
    /// The opset version that introduced this version of the op.
    pub since_version: u32,
    pub deprecated: bool,
    pub min_inputs: u32,
    pub max_inputs: u32,
    pub min_outputs: u32,
    pub max_outputs: u32,
    pub inputs: &'static [Param],
    pub outputs: &'static [Param],
    pub attrs: &'static [AttrSchema],
    pub type_constraints: &'static [TypeConstraint],
}

impl OpSchema {
    /// The formal attribute called `name`.
    pub fn attr(&self, name: &str) -> Option<&'static AttrSchema> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The type constraint called `name`.
    pub fn constraint(&self, name: &str) -> Option<&'static TypeConstraint> {
        self.type_constraints.iter().find(|c| c.name == name)
    }

    /// The formal input that actual input `index` binds to (the last
    /// formal absorbs the tail when it is variadic).
    pub fn input_param(&self, index: usize) -> Option<&'static Param> {
        formal_for(self.inputs, index)
    }

    /// The formal output that actual output `index` binds to.
    pub fn output_param(&self, index: usize) -> Option<&'static Param> {
        formal_for(self.outputs, index)
    }

    /// Whether output `index` may have type `ty` (its fixed type or type
    /// constraint allows it).
    pub fn output_allows(&self, index: usize, ty: &Type) -> bool {
        self.output_param(index).is_some_and(|p| match p.ty {
            ParamType::Fixed(pattern) => pattern.matches(ty),
            ParamType::Var(var) => self
                .constraint(var)
                .is_some_and(|c| c.allowed.iter().any(|p| p.matches(ty))),
        })
    }
}

fn formal_for(params: &'static [Param], index: usize) -> Option<&'static Param> {
    match params.get(index) {
        Some(p) => Some(p),
        None => params.last().filter(|p| p.option == ParamOption::Variadic),
    }
}
