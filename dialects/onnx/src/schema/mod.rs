//! The op table: every operator of `ai.onnx` (opsets 1–28), `ai.onnx.ml`,
//! `ai.onnx.preview.training` and `ai.onnx.preview`, every version, with
//! its inputs, outputs, attributes and type constraints; the fused
//! operators of onnx-mlc's internal domain (`onnx_mlc`), which the graph
//! optimizer produces and the lowering implements; and onnxruntime's
//! contrib operators (`com.microsoft`, variants `Ms<op_type>`, read from
//! the onnxruntime package by `tools/contrib_ops.py`).
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

mod domain;
// Generated (one item per line, as the generator writes it): rustfmt
// leaves them alone.
#[rustfmt::skip]
mod kind;
mod spec;
#[rustfmt::skip]
mod table;

pub use domain::Domain;
// The op kinds, their families and the per-family op enums.
pub use kind::*;
pub use spec::{
    AttrDefault, AttrSchema, OpSchema, Param, ParamOption, ParamType, TypeConstraint, TypePattern,
};

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

impl Domain {
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
    use crate::types::{ElemType, Type};

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
        // The 203 of the onnx package and onnxruntime's
        // SimplifiedLayerNormalization.
        assert_eq!(onnx_ops, 204);
        assert_eq!(Domain::Microsoft.max_version(), 1);
        assert_eq!(
            OpKind::from_name(Domain::Microsoft, "Attention"),
            Some(OpKind::MsAttention)
        );
        assert_eq!(OpKind::MsAttention.name(), "Attention");
        assert_eq!(OpKind::MsAttention.domain(), Domain::Microsoft);
        assert_eq!(OpKind::MsFusedConv.family(), Family::Contrib);
        assert_eq!(
            OpKind::from_name(Domain::Internal, "FusedConv"),
            Some(OpKind::FusedConv)
        );
        assert!(TypePattern::Sequence(&TypePattern::Tensor(ElemType::F32))
            .matches(&Type::Sequence(Box::new(Type::tensor(ElemType::F32, &[2])))));
    }

    /// The facts the generator checks, as the crates rely on them: each
    /// fact within its family, and the families that are a domain.
    #[test]
    fn facts_lie_within_their_families() {
        for kind in OpKind::ALL {
            let family = kind.family();
            if kind.is_unary_elementwise() {
                assert_eq!(family, Family::Elementwise, "{kind:?}");
            }
            if kind.is_reduction() {
                assert_eq!(family, Family::Reduce, "{kind:?}");
            }
            if kind.is_view() {
                assert_eq!(family, Family::Layout, "{kind:?}");
            }
            assert_eq!(
                family == Family::Ml,
                kind.domain() == Domain::Ml,
                "{kind:?}"
            );
            assert_eq!(
                family == Family::Training,
                kind.domain() == Domain::Training,
                "{kind:?}"
            );
            if family == Family::Fused {
                assert_eq!(kind.domain(), Domain::Internal, "{kind:?}");
            }
        }
        assert_eq!(OpKind::ALL.iter().filter(|k| k.is_reduction()).count(), 10);
        assert_eq!(OpKind::BitCast.family(), Family::Elementwise);
        assert_eq!(OpKind::Activation.family(), Family::Elementwise);
    }
}
