//! The op table: every operator of `ai.onnx` (opsets 1–28), `ai.onnx.ml`,
//! `ai.onnx.preview.training` and `ai.onnx.preview`, every version, with
//! its inputs, outputs, attributes and type constraints; and the fused
//! operators of onnx-mlc's internal domain (`onnx_mlc`), which the graph
//! optimizer produces and the lowering implements.
//!
//! [`OpKind`] is the one closed enum of operators: everything that treats
//! ops differently (verification, shape inference, lowering) matches on it
//! exhaustively, so adding an op is guided by the compiler. The table itself
//! (`table.rs`) is generated from the `onnx` package by
//! `tools/gen_op_table.py`, the internal operators from their definitions
//! in `tools/internal_ops.py` (each says exactly what the op computes).
//!
//! The table also says what onnx-mlc decides per op, once, as the
//! generator's data: each op's [`Family`] (the file of the dialect's
//! `ops/` and of the lowering that handles it; [`OpKind::family_op`] gives
//! the op as a member of a per-family enum, so that a family matches
//! exhaustively over its own ops) and the facts that cut across families
//! ([`OpKind::is_unary_elementwise`], [`OpKind::is_reduction`],
//! [`OpKind::is_view`]). Code that treats a group of ops alike asks the
//! table instead of listing the ops.

// Generated (one schema per line, as the generator writes it): rustfmt
// leaves it alone.
#[rustfmt::skip]
mod table;

// The op kinds, their families and the per-family op enums.
pub use table::*;

use crate::attr::{Attr, AttrKind};
use crate::types::{ElemType, Type};

/// An operator set domain.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Domain {
    /// `ai.onnx` (also spelled as the empty string).
    Onnx,
    /// `ai.onnx.ml`.
    Ml,
    /// `ai.onnx.preview.training`.
    Training,
    /// `ai.onnx.preview`.
    Preview,
    /// `onnx_mlc`: onnx-mlc's internal fused operators (`tools/internal_ops.py`).
    Internal,
}

impl Domain {
    /// Every domain.
    pub const ALL: [Domain; 5] = [
        Domain::Onnx,
        Domain::Ml,
        Domain::Training,
        Domain::Preview,
        Domain::Internal,
    ];

    /// The domain's name in `opset_import` (`""` for ai.onnx).
    pub fn name(self) -> &'static str {
        match self {
            Domain::Onnx => "",
            Domain::Ml => "ai.onnx.ml",
            Domain::Training => "ai.onnx.preview.training",
            Domain::Preview => "ai.onnx.preview",
            Domain::Internal => "onnx_mlc",
        }
    }

    /// Parses a domain name; both `""` and `"ai.onnx"` are ai.onnx.
    pub fn from_name(name: &str) -> Option<Domain> {
        match name {
            "" | "ai.onnx" => Some(Domain::Onnx),
            _ => Domain::ALL.into_iter().find(|d| d.name() == name),
        }
    }

    /// The prefix of op names in the text form (`onnx.Conv`,
    /// `onnx_ml.Scaler`, …).
    pub fn text_prefix(self) -> &'static str {
        match self {
            Domain::Onnx => "onnx",
            Domain::Ml => "onnx_ml",
            Domain::Training => "onnx_training",
            Domain::Preview => "onnx_preview",
            Domain::Internal => "omlc",
        }
    }

    /// Parses a text-form prefix (inverse of [`Domain::text_prefix`]).
    pub fn from_text_prefix(prefix: &str) -> Option<Domain> {
        Domain::ALL.into_iter().find(|d| d.text_prefix() == prefix)
    }

    /// The newest opset version the op table knows for this domain.
    pub fn max_version(self) -> u32 {
        OpKind::ALL
            .iter()
            .filter(|k| k.domain() == self)
            .flat_map(|k| k.versions().iter().map(|s| s.since_version))
            .max()
            .unwrap_or(1)
    }
}

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

/// An operator is written as its domain and `op_type` (`["", "Add"]`), so
/// that serialized programs do not depend on the order of the op table.
impl serde::Serialize for OpKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.domain().name(), self.name()).serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for OpKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<OpKind, D::Error> {
        let (domain, name) = <(String, String)>::deserialize(d)?;
        Domain::from_name(&domain)
            .and_then(|dom| OpKind::from_name(dom, &name))
            .ok_or_else(|| {
                serde::de::Error::custom(format!("unknown operator {domain:?} {name:?}"))
            })
    }
}

impl OpKind {
    /// Looks an operator up by domain and `op_type`.
    pub fn from_name(domain: Domain, name: &str) -> Option<OpKind> {
        let i = OpKind::ALL
            .binary_search_by(|k| (k.domain(), k.name()).cmp(&(domain, name)))
            .ok()?;
        Some(OpKind::ALL[i])
    }

    /// The schema in force for an opset version of the op's domain: the
    /// newest version whose `since_version` is at most `opset`. `None`
    /// when the op did not exist yet.
    pub fn schema(self, opset: i64) -> Option<&'static OpSchema> {
        self.versions()
            .iter()
            .rev()
            .find(|s| i64::from(s.since_version) <= opset)
    }

    /// The schema whose `since_version` is exactly `version`.
    pub fn schema_exact(self, version: u32) -> Option<&'static OpSchema> {
        self.versions().iter().find(|s| s.since_version == version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_for_lookup() {
        let keys: Vec<_> = OpKind::ALL.iter().map(|k| (k.domain(), k.name())).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(OpKind::from_name(Domain::Onnx, "Conv"), Some(OpKind::Conv));
        assert_eq!(
            OpKind::from_name(Domain::Ml, "Scaler"),
            Some(OpKind::Scaler)
        );
        assert_eq!(OpKind::from_name(Domain::Ml, "Conv"), None);
    }

    #[test]
    fn opset_resolution_picks_newest_applicable_version() {
        assert_eq!(OpKind::Clip.schema(10).unwrap().since_version, 6);
        assert_eq!(OpKind::Clip.schema(17).unwrap().since_version, 13);
        assert!(OpKind::Gelu.schema(19).is_none());
        let conv = OpKind::Conv.schema(17).unwrap();
        assert_eq!(
            conv.attr("auto_pad").unwrap().default,
            Some(AttrDefault::String("NOTSET"))
        );
        assert_eq!(conv.input_param(2).unwrap().option, ParamOption::Optional);
        assert_eq!(
            OpKind::Max
                .schema(13)
                .unwrap()
                .input_param(7)
                .unwrap()
                .option,
            ParamOption::Variadic
        );
    }

    #[test]
    fn the_table_covers_the_domains() {
        assert_eq!(Domain::Onnx.max_version(), 28);
        let onnx_ops = OpKind::ALL
            .iter()
            .filter(|k| k.domain() == Domain::Onnx)
            .count();
        assert_eq!(onnx_ops, 203);
        assert!(TypePattern::Sequence(&TypePattern::Tensor(ElemType::F32))
            .matches(&Type::Sequence(Box::new(Type::tensor(ElemType::F32, &[2])))));
    }
}
