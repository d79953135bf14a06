//! Model-local functions, inlined at each call site.
//!
//! A node whose `(domain, op_type, overload)` names a `FunctionProto` of the
//! model is replaced by the function's body. The dialect has no function
//! calls: inlining keeps every later stage (inference, optimizer, lowering)
//! free of them, and a function called with different attributes gets a
//! body specialized to each call.
//!
//! At a call site:
//! - formal inputs are bound to the caller's input values; missing trailing
//!   inputs (and empty names) are absent optional inputs;
//! - formal outputs take the caller's output names;
//! - every other value and node name of the body is prefixed with a
//!   per-call-site prefix (the caller's node name), so names stay unique;
//! - attributes of the body that reference a formal attribute
//!   (`ref_attr_name`) take the caller's value, else the function's
//!   default (`attribute_proto`), else are dropped — inside subgraphs of
//!   the body too;
//! - the body's nodes resolve in the function's own `opset_import` (falling
//!   back to the model's for domains the function does not import);
//! - functions may call functions; a recursive chain is an error.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::{AttributeProto, FunctionProto};

use crate::error::{ImportError, Result};
use crate::opset::{canonical_domain, Opsets};

/// A model-local function ready to be inlined.
pub(crate) struct Function<'p> {
    pub(crate) proto: &'p FunctionProto,
    /// The opsets its body resolves in.
    pub(crate) opsets: Opsets,
    /// `domain.name` (with `:overload` when there is one), for messages.
    pub(crate) key: String,
}

/// The model's functions by `(domain, name, overload)`.
pub(crate) struct Functions<'p>(HashMap<(String, String, String), Function<'p>>);

impl<'p> Functions<'p> {
    /// Indexes the model's functions; two with the same key are an error.
    pub(crate) fn new(protos: &'p [FunctionProto], model_opsets: &Opsets) -> Result<Functions<'p>> {
        let mut map = HashMap::new();
        for f in protos {
            let domain = canonical_domain(&f.domain).to_string();
            let mut key = if domain.is_empty() {
                f.name.clone()
            } else {
                format!("{domain}.{}", f.name)
            };
            if !f.overload.is_empty() {
                key = format!("{key}:{}", f.overload);
            }
            if f.name.is_empty() {
                return Err(ImportError::Model(format!(
                    "a model-local function in domain {domain:?} has no name"
                )));
            }
            let opsets =
                Opsets::new(&f.opset_import, &format!("function {key:?}"))?.or(model_opsets);
            let id = (domain, f.name.clone(), f.overload.clone());
            if map
                .insert(
                    id,
                    Function {
                        proto: f,
                        opsets,
                        key: key.clone(),
                    },
                )
                .is_some()
            {
                return Err(ImportError::Model(format!(
                    "model-local function {key:?} is defined twice"
                )));
            }
        }
        Ok(Functions(map))
    }

    /// The function a node with this domain, op type and overload calls.
    pub(crate) fn get(&self, domain: &str, op_type: &str, overload: &str) -> Option<&Function<'p>> {
        self.0.get(&(
            canonical_domain(domain).to_string(),
            op_type.to_string(),
            overload.to_string(),
        ))
    }
}

/// What a function body being inlined needs to know about its call site.
pub(crate) struct Inline {
    /// Prefix of the body's value and node names at this call site.
    pub(crate) prefix: String,
    /// The formal attributes the function declares.
    pub(crate) formals: HashSet<String>,
    /// Value of each formal attribute at this call: the caller's, else
    /// the function's default. Formals with neither are missing.
    pub(crate) attrs: HashMap<String, AttributeProto>,
    /// Formal output name → IR name of the caller's output there.
    pub(crate) outputs: HashMap<String, String>,
}

impl Inline {
    /// The IR name of a body value.
    pub(crate) fn value_name(&self, name: &str) -> String {
        match self.outputs.get(name) {
            Some(caller) => caller.clone(),
            None => format!("{}/{name}", self.prefix),
        }
    }
}

/// Binds the caller's attributes to the formal attributes of `f`, adding
/// the defaults. An attribute the function does not declare is an error.
pub(crate) fn bind_attrs(
    f: &FunctionProto,
    actual: Vec<Cow<'_, AttributeProto>>,
) -> Result<(HashSet<String>, HashMap<String, AttributeProto>), String> {
    let formals: HashSet<String> = f
        .attribute
        .iter()
        .cloned()
        .chain(f.attribute_proto.iter().map(|a| a.name.clone()))
        .collect();
    let mut attrs = HashMap::new();
    for a in actual {
        if !formals.contains(&a.name) {
            return Err(format!(
                "attribute {:?} is not an attribute of the function",
                a.name
            ));
        }
        attrs.insert(a.name.clone(), a.into_owned());
    }
    for d in &f.attribute_proto {
        attrs.entry(d.name.clone()).or_insert_with(|| d.clone());
    }
    Ok((formals, attrs))
}

/// A node's attributes with references to formal attributes
/// (`ref_attr_name`) replaced by their value at the current call site, or
/// dropped when the call gives no value and there is no default.
pub(crate) fn resolve_refs<'a>(
    attrs: &'a [AttributeProto],
    inline: Option<&Inline>,
) -> Result<Vec<Cow<'a, AttributeProto>>, String> {
    let mut out = Vec::with_capacity(attrs.len());
    for a in attrs {
        if a.ref_attr_name.is_empty() {
            out.push(Cow::Borrowed(a));
            continue;
        }
        let r = &a.ref_attr_name;
        let Some(inline) = inline else {
            return Err(format!(
                "attribute {:?} refers to {r:?}, but the node is not in a function body",
                a.name
            ));
        };
        if !inline.formals.contains(r) {
            return Err(format!(
                "attribute {:?} refers to {r:?}, which the function does not declare",
                a.name
            ));
        }
        let Some(value) = inline.attrs.get(r) else {
            continue;
        };
        if a.r#type != AttributeType::Undefined as i32 && value.r#type != a.r#type {
            return Err(format!(
                "attribute {:?} refers to {r:?} of type {}, but the value has type {}",
                a.name,
                type_name(a.r#type),
                type_name(value.r#type)
            ));
        }
        let mut value = value.clone();
        value.name = a.name.clone();
        out.push(Cow::Owned(value));
    }
    Ok(out)
}

fn type_name(code: i32) -> String {
    AttributeType::try_from(code).map_or_else(|_| code.to_string(), |t| t.as_str_name().to_string())
}
