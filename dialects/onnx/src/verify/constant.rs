//! Rule `constant-value`: constant data agrees with the type declared for
//! it.
//!
//! Initializers become `Constant` ops (or the `default` of a graph input of
//! the same name), and passes read constants through their result types
//! as often as through their data, so the two must not contradict each
//! other: same element type, and each static dim of the declared shape
//! equal to the data's (symbolic and unknown dims accept any size). A
//! `Constant` carries exactly one value attribute (its spec: "Exactly one
//! of the provided attributes, either value, sparse_value, or value_*
//! must be specified").

use super::cx::{fail, Check, Cx};
use crate::attr::Attr;
use crate::error::Rule;
use crate::ir::{OpId, RegionId};
use crate::schema::OpKind;
use crate::types::{merge_types, ElemType, TensorType, Type};

/// The attributes of `Constant` that can hold its value.
const VALUE_ATTRS: [&str; 8] = [
    "value",
    "sparse_value",
    "value_float",
    "value_floats",
    "value_int",
    "value_ints",
    "value_string",
    "value_strings",
];

/// Checks a `Constant` op's value against its result type.
pub(super) fn check_constant(cx: &Cx, op: OpId) -> Check {
    let data = cx.ir.op(op);
    if data.kind != OpKind::Constant {
        return Ok(());
    }
    let given: Vec<(&str, &Attr)> = VALUE_ATTRS
        .iter()
        .filter_map(|&n| Some((n, data.attrs.get(n)?)))
        .collect();
    let [(name, attr)] = given[..] else {
        let names: Vec<&str> = given.iter().map(|(n, _)| *n).collect();
        let got = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        return Err(fail(
            Rule::ConstantValue,
            cx.op_at(op),
            format!(
                "a Constant needs exactly one of {}; it has {got}",
                VALUE_ATTRS.join(", ")
            ),
        ));
    };
    let actual =
        value_type(attr).expect("rule attr-kind checked the kinds of the value attributes");
    let result = data.results[0].expect("rule arity checked that a Constant has its result");
    let declared = cx.ir.ty(result);
    if merge_types(declared, &actual).is_none() {
        return Err(fail(
            Rule::ConstantValue,
            cx.op_at(op),
            format!(
                "result {} is declared as {declared}, but attribute \"{name}\" is {actual}",
                cx.value(result)
            ),
        ));
    }
    Ok(())
}

/// The type of the value a `Constant` attribute defines.
fn value_type(attr: &Attr) -> Option<Type> {
    let tensor = |elem, dims: &[i64]| Type::Tensor(TensorType::new(elem, dims));
    Some(match attr {
        Attr::Tensor(t) => Type::Tensor(t.ty()),
        // ONNX's Constant inference: the sparse value is densified.
        Attr::SparseTensor(s) => tensor(s.values.elem, &s.dims),
        Attr::Float(_) => tensor(ElemType::F32, &[]),
        Attr::Floats(v) => tensor(ElemType::F32, &[v.len() as i64]),
        Attr::Int(_) => tensor(ElemType::I64, &[]),
        Attr::Ints(v) => tensor(ElemType::I64, &[v.len() as i64]),
        Attr::String(_) => tensor(ElemType::String, &[]),
        Attr::Strings(v) => tensor(ElemType::String, &[v.len() as i64]),
        _ => return None,
    })
}

/// Checks the default value (initializer) of graph input `index`.
pub(super) fn check_arg_default(cx: &Cx, region: RegionId, index: usize) -> Check {
    let arg = &cx.ir.region(region).args[index];
    let Some(default) = &arg.default else {
        return Ok(());
    };
    let declared = cx.ir.ty(arg.value);
    let actual = Type::Tensor(default.ty());
    if merge_types(declared, &actual).is_none() {
        return Err(fail(
            Rule::ConstantValue,
            format!(
                "{} input {index} ({})",
                cx.graph_at(region),
                cx.value(arg.value)
            ),
            format!(
                "the input is declared as {declared}, but its default value (initializer) is \
                 {actual}"
            ),
        ));
    }
    Ok(())
}
