//! Opset imports and operator resolution.
//!
//! A node names its operator by `(domain, op_type)`; which version of the
//! operator it means is decided by the opset the model (or the enclosing
//! function) imports for that domain: the newest schema whose
//! `since_version` is at most the imported version.

use std::collections::HashMap;

use onnx_mlc_dialect::{Domain, OpKind, OpSchema};
use onnx_mlc_proto::OperatorSetIdProto;

use crate::error::{ImportError, Result};

/// The domain spelled the canonical way (`"ai.onnx"` is `""`).
pub(crate) fn canonical_domain(domain: &str) -> &str {
    if domain == "ai.onnx" {
        ""
    } else {
        domain
    }
}

/// The opset versions imported per domain.
#[derive(Clone, Debug, Default)]
pub(crate) struct Opsets(HashMap<String, i64>);

impl Opsets {
    /// Reads an `opset_import` list; `what` names its owner in messages.
    /// A domain imported twice with different versions is an error.
    pub(crate) fn new(imports: &[OperatorSetIdProto], what: &str) -> Result<Opsets> {
        let mut map = HashMap::new();
        for o in imports {
            let domain = canonical_domain(&o.domain).to_string();
            let newest = Domain::from_name(&domain).map(|d| i64::from(d.max_version()));
            if o.version < 1 || newest.is_some_and(|n| o.version > n) {
                let known = match newest {
                    Some(n) => format!("this compiler knows opsets 1 to {n} of it"),
                    None => "opset versions start at 1".to_string(),
                };
                return Err(ImportError::Model(format!(
                    "{what} imports opset {} of domain {:?}: {known}",
                    o.version, o.domain
                )));
            }
            match map.insert(domain, o.version) {
                Some(v) if v != o.version => {
                    return Err(ImportError::Model(format!(
                        "{what} imports domain {:?} twice, as opset {v} and {}",
                        o.domain, o.version
                    )))
                }
                _ => {}
            }
        }
        Ok(Opsets(map))
    }

    /// `self`, with the domains it does not import taken from `fallback`.
    pub(crate) fn or(mut self, fallback: &Opsets) -> Opsets {
        for (d, v) in &fallback.0 {
            self.0.entry(d.clone()).or_insert(*v);
        }
        self
    }

    /// The imported version of `domain`.
    pub(crate) fn get(&self, domain: &str) -> Option<i64> {
        self.0.get(canonical_domain(domain)).copied()
    }

    /// Resolves an operator to its schema; the error message says why not.
    pub(crate) fn resolve(&self, domain: &str, op_type: &str) -> Result<&'static OpSchema, String> {
        let Some(d) = Domain::from_name(domain) else {
            return Err(format!(
                "unknown domain {domain:?} (and no model-local function {op_type:?} in it)"
            ));
        };
        let Some(version) = self.get(domain) else {
            return Err(format!(
                "domain {domain:?} is not imported (no opset_import for it)"
            ));
        };
        let Some(kind) = OpKind::from_name(d, op_type) else {
            return Err("unknown operator".into());
        };
        kind.schema(version).ok_or_else(|| {
            let first = kind.versions().first().map_or(0, |s| s.since_version);
            format!("operator not defined at opset {version} (it was introduced in opset {first})")
        })
    }
}
