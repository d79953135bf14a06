//! Rules `op-version`, `attr-name`, `missing-attr`, `attr-kind`, `arity`
//! and `type-constraint`: an op against the schema of its version.
//!
//! The IR spec: "The number of inputs and outputs in a node, their types,
//! the set of attributes specified in a node and their types MUST satisfy
//! the constraints imposed by the signature of the node's operator." The
//! attribute and arity checks follow `OpSchema::Verify` of `onnx.checker`;
//! the type checks follow the type-constraint part of ONNX's shape
//! inference, skipping whatever is still [`Type::Unknown`].

use super::cx::{fail, same_class, slot, Check, Cx};
use crate::error::Rule;
use crate::ir::{OpData, OpId, Value};
use crate::schema::{Domain, OpKind, OpSchema, Param, ParamOption, ParamType, TypePattern};
use crate::types::Type;

/// Checks one op against its schema.
pub(super) fn check(cx: &Cx, op: OpId) -> Check {
    let data = cx.ir.op(op);
    let fail_here = |rule, message: String| fail(rule, cx.op_at(op), message);
    let schema = version(cx, data).map_err(|m| fail_here(Rule::OpVersion, m))?;
    attributes(data, schema).map_err(|(rule, m)| fail_here(rule, m))?;
    arity(cx, data, schema).map_err(|m| fail_here(Rule::Arity, m))?;
    types(cx, data, schema).map_err(|m| fail_here(Rule::TypeConstraint, m))
}

/// The domain's name as users know it (`ai.onnx` rather than `""`).
fn domain_name(domain: Domain) -> &'static str {
    match domain {
        Domain::Onnx => "ai.onnx",
        d => d.name(),
    }
}

/// `op-version`: the op's domain is imported, and its version is the
/// schema version the import resolves to, not deprecated.
///
/// Ops inlined from a model-local function keep the function's opset;
/// `onnx.checker` (`check_opset_compatibility`) requires that to resolve
/// to the same schema as the model's import of the domain, so this rule
/// holds for them too once the importer imports any domain only the
/// function imported.
fn version(cx: &Cx, data: &OpData) -> Result<&'static OpSchema, String> {
    let kind = data.kind;
    let domain = kind.domain();
    let Some(opset) = cx.imported(domain) else {
        return Err(format!(
            "the model does not import domain {}",
            domain_name(domain)
        ));
    };
    let Some(schema) = kind.schema_exact(data.version) else {
        return Err(format!(
            "{} has no version {} (versions: {})",
            kind.name(),
            data.version,
            versions(kind)
        ));
    };
    match kind.schema(opset) {
        None => Err(format!(
            "{} does not exist in {} opset {opset}; it appears in opset {}",
            kind.name(),
            domain_name(domain),
            kind.versions()[0].since_version
        )),
        Some(s) if s.since_version != data.version => Err(format!(
            "the model imports {} opset {opset}, where {} is version {}, not {}",
            domain_name(domain),
            kind.name(),
            s.since_version,
            data.version
        )),
        Some(_) if schema.deprecated => Err(format!(
            "{} is deprecated since {} opset {}",
            kind.name(),
            domain_name(domain),
            schema.since_version
        )),
        Some(_) => Ok(schema),
    }
}

fn versions(kind: OpKind) -> String {
    let v: Vec<String> = kind
        .versions()
        .iter()
        .map(|s| s.since_version.to_string())
        .collect();
    v.join(", ")
}

/// `attr-name`, `attr-kind`, `missing-attr`. As in `onnx.checker`, names
/// starting with `__` are implementation details and not checked, and
/// LayerNormalization-17 accepts any attribute (its schema says
/// `AllowUncheckedAttributes`).
fn attributes(data: &OpData, schema: &OpSchema) -> Result<(), (Rule, String)> {
    let unchecked = data.kind == OpKind::LayerNormalization && data.version == 17;
    let given = &data.attrs.0;
    for (i, (name, attr)) in given.iter().enumerate() {
        if given[..i].iter().any(|(n, _)| n == name) {
            return Err((
                Rule::AttrName,
                format!("attribute \"{name}\" is given twice"),
            ));
        }
        if name.starts_with("__") {
            continue;
        }
        match schema.attr(name) {
            None if unchecked => {}
            None => {
                let known: Vec<&str> = schema.attrs.iter().map(|a| a.name).collect();
                let known = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                return Err((
                    Rule::AttrName,
                    format!(
                        "unknown attribute \"{name}\" (attributes of {}: {known})",
                        data.kind.name()
                    ),
                ));
            }
            Some(s) if s.kind != attr.kind() => {
                return Err((
                    Rule::AttrKind,
                    format!(
                        "attribute \"{name}\" must be {}, got {}",
                        s.kind.name(),
                        attr.kind().name()
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    match schema
        .attrs
        .iter()
        .find(|s| s.required && data.attrs.get(s.name).is_none())
    {
        Some(s) => Err((
            Rule::MissingAttr,
            format!("required attribute \"{}\" is missing", s.name),
        )),
        None => Ok(()),
    }
}

/// One side (inputs or outputs) of an op against its schema.
struct Side<'a> {
    /// `input` or `output`.
    what: &'static str,
    actuals: &'a [Option<Value>],
    formals: &'static [Param],
    min: u32,
    max: u32,
    /// The formal an actual binds to ([`OpSchema::input_param`], …).
    formal: fn(&OpSchema, usize) -> Option<&'static Param>,
    /// Whether values of a variadic formal may be absent.
    absent_variadic_ok: bool,
}

/// `arity`: the numbers of inputs and outputs are within the schema's
/// bounds, variadic parameters get their least number of values, and only
/// optional parameters are absent.
///
/// An absent result of a variadic output is accepted (the op need not
/// compute a value nobody reads, which `onnx.checker` allows too); an
/// absent variadic *input* is not: it would leave the op without a value
/// it needs.
fn arity(cx: &Cx, data: &OpData, schema: &OpSchema) -> Result<(), String> {
    let inputs = Side {
        what: "input",
        actuals: &data.inputs,
        formals: schema.inputs,
        min: schema.min_inputs,
        max: schema.max_inputs,
        formal: OpSchema::input_param,
        absent_variadic_ok: false,
    };
    let outputs = Side {
        what: "output",
        actuals: &data.results,
        formals: schema.outputs,
        min: schema.min_outputs,
        max: schema.max_outputs,
        formal: OpSchema::output_param,
        absent_variadic_ok: true,
    };
    for side in [inputs, outputs] {
        side_arity(cx, data.kind, schema, &side)?;
    }
    Ok(())
}

fn side_arity(cx: &Cx, kind: OpKind, schema: &OpSchema, side: &Side) -> Result<(), String> {
    let (what, n) = (side.what, side.actuals.len());
    if let Some(last) = side
        .formals
        .last()
        .filter(|p| p.option == ParamOption::Variadic)
    {
        let count = (n + 1).saturating_sub(side.formals.len());
        if count < last.min_arity as usize {
            return Err(format!(
                "variadic {what} \"{}\" needs at least {} values, got {count}",
                last.name, last.min_arity
            ));
        }
    }
    if n < side.min as usize || n > side.max as usize {
        let range = range(side.min, side.max);
        return Err(format!("has {n} {what}s, {} takes {range}", kind.name()));
    }
    for (i, actual) in side.actuals.iter().enumerate() {
        let formal = (side.formal)(schema, i).expect("the arity bounds cover the formals");
        let (absent_ok, kind) = match formal.option {
            ParamOption::Optional => (true, "optional"),
            ParamOption::Variadic => (side.absent_variadic_ok, "variadic"),
            ParamOption::Single => (false, "required"),
        };
        if actual.is_none() && !absent_ok {
            let slot = slot(cx.ir, what, i, None);
            return Err(format!("{slot} (\"{}\", {kind}) is absent", formal.name));
        }
    }
    Ok(())
}

/// `1`, `1 to 3`, `at least 1`.
fn range(min: u32, max: u32) -> String {
    if min == max {
        min.to_string()
    } else if max == i32::MAX as u32 {
        format!("at least {min}")
    } else {
        format!("{min} to {max}")
    }
}

/// What is known of a type variable's binding: the type so far (shapes
/// ignored) and the first slot that gave it a known type.
struct Binding {
    var: &'static str,
    class: Type,
    first: String,
    first_ty: Type,
}

/// `type-constraint`: each actual's type is allowed by its formal's type
/// (a fixed type, or a type variable's constraint), and the actuals bound
/// to one type variable have the same type (up to shape). Actuals of a
/// heterogeneous variadic parameter (Loop's loop-carried values, say) are
/// each checked against the constraint but do not bind the variable.
fn types(cx: &Cx, data: &OpData, schema: &OpSchema) -> Result<(), String> {
    let mut bindings: Vec<Binding> = vec![];
    let inputs = data
        .inputs
        .iter()
        .enumerate()
        .map(|(i, v)| ("input", i, v, schema.input_param(i)));
    let outputs = data
        .results
        .iter()
        .enumerate()
        .map(|(i, v)| ("output", i, v, schema.output_param(i)));
    for (what, i, actual, formal) in inputs.chain(outputs) {
        let (Some(v), Some(formal)) = (*actual, formal) else {
            continue;
        };
        let ty = cx.ir.ty(v);
        if *ty == Type::Unknown {
            continue;
        }
        let label = || slot(cx.ir, what, i, Some(v));
        match formal.ty {
            ParamType::Fixed(pattern) => {
                if !pattern.matches(ty) {
                    return Err(format!(
                        "{} has type {ty}, but \"{}\" must be {pattern}",
                        label(),
                        formal.name
                    ));
                }
            }
            ParamType::Var(var) => {
                let constraint = schema
                    .constraint(var)
                    .expect("every type variable of the op table has a constraint");
                if !constraint.allowed.iter().any(|p| p.matches(ty)) {
                    return Err(format!(
                        "{} has type {ty}, which type variable {var} of \"{}\" does not allow \
                         (allowed: {})",
                        label(),
                        formal.name,
                        allowed_list(constraint.allowed)
                    ));
                }
                if formal.homogeneous {
                    bind(&mut bindings, var, ty, label)?;
                }
            }
        }
    }
    Ok(())
}

fn bind(
    bindings: &mut Vec<Binding>,
    var: &'static str,
    ty: &Type,
    label: impl Fn() -> String,
) -> Result<(), String> {
    let Some(b) = bindings.iter_mut().find(|b| b.var == var) else {
        bindings.push(Binding {
            var,
            class: ty.clone(),
            first: label(),
            first_ty: ty.clone(),
        });
        return Ok(());
    };
    if !same_class(&b.class, ty) {
        return Err(format!(
            "{} has type {ty}, but {} has type {} and both are of type variable {var}",
            label(),
            b.first,
            b.first_ty
        ));
    }
    b.class = refine(&b.class, ty);
    Ok(())
}

/// `a` with its unknown parts filled from `b` (both of the same class).
fn refine(a: &Type, b: &Type) -> Type {
    match (a, b) {
        (Type::Unknown, t) => t.clone(),
        (Type::Sequence(x), Type::Sequence(y)) => Type::Sequence(Box::new(refine(x, y))),
        (Type::Optional(x), Type::Optional(y)) => Type::Optional(Box::new(refine(x, y))),
        (Type::Map(k, x), Type::Map(_, y)) => Type::Map(*k, Box::new(refine(x, y))),
        (t, _) => t.clone(),
    }
}

/// The allowed types of a constraint, shortened for messages.
fn allowed_list(allowed: &[TypePattern]) -> String {
    const SHOWN: usize = 12;
    let mut parts: Vec<String> = allowed
        .iter()
        .take(SHOWN)
        .map(ToString::to_string)
        .collect();
    if allowed.len() > SHOWN {
        parts.push(format!("… {} more", allowed.len() - SHOWN));
    }
    parts.join(", ")
}

/// Whether the op table's shape is what the checks above assume: every
/// type variable has a constraint, only a last parameter is variadic, and
/// without a variadic parameter the arity bound is the number of formals.
#[cfg(test)]
pub(super) fn table_assumptions_hold() -> Result<(), String> {
    for kind in OpKind::ALL {
        for s in kind.versions() {
            for params in [s.inputs, s.outputs] {
                for (i, p) in params.iter().enumerate() {
                    if let ParamType::Var(var) = p.ty {
                        if s.constraint(var).is_none() {
                            return Err(format!(
                                "{}-{}: {} has no constraint",
                                kind.name(),
                                s.since_version,
                                var
                            ));
                        }
                    }
                    if p.option == ParamOption::Variadic && i + 1 != params.len() {
                        return Err(format!(
                            "{}-{}: {} is variadic but not last",
                            kind.name(),
                            s.since_version,
                            p.name
                        ));
                    }
                }
            }
            let bounded = |params: &[Param], max: u32| {
                params
                    .last()
                    .is_some_and(|p| p.option == ParamOption::Variadic)
                    || max as usize <= params.len()
            };
            if !bounded(s.inputs, s.max_inputs) || !bounded(s.outputs, s.max_outputs) {
                return Err(format!(
                    "{}-{}: max arity exceeds the formals",
                    kind.name(),
                    s.since_version
                ));
            }
        }
    }
    Ok(())
}
