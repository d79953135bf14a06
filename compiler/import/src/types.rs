//! `TypeProto` to [`Type`].
//!
//! A dim with `dim_value` is known, one with `dim_param` is symbolic (the
//! same name is the same size across the model), one with neither is
//! unknown; a tensor type without a shape has unknown rank. Parts the
//! dialect cannot represent (opaque types, an UNDEFINED element type)
//! become [`Type::Unknown`], with a warning.

use onnx_mlc_dialect::{Dim, ElemType, TensorType, Type};
use onnx_mlc_proto::tensor_shape_proto::dimension::Value as DimValue;
use onnx_mlc_proto::type_proto::Value as TypeValue;
use onnx_mlc_proto::{TensorShapeProto, TypeProto};

use crate::error::{ImportError, Result};

/// Type nesting (sequence of map of optional …) deeper than this is
/// rejected, so that hostile in-memory protos cannot exhaust the stack.
/// Decoded protos never get close: prost stops at 100 nested messages.
const MAX_TYPE_DEPTH: usize = 64;

/// Converts a value's type; `what` names the value in messages and
/// `warn` receives what could not be represented.
pub(crate) fn value_type(
    ty: Option<&TypeProto>,
    what: &str,
    warn: &mut dyn FnMut(String),
) -> Result<Type> {
    match ty {
        None => Ok(Type::Unknown),
        Some(t) => convert(t, what, warn, 0),
    }
}

fn convert(t: &TypeProto, what: &str, warn: &mut dyn FnMut(String), depth: usize) -> Result<Type> {
    if depth > MAX_TYPE_DEPTH {
        return Err(ImportError::Model(format!(
            "type of {what} is nested deeper than {MAX_TYPE_DEPTH}"
        )));
    }
    let inner = |t: &Option<Box<TypeProto>>, warn: &mut dyn FnMut(String)| -> Result<Box<Type>> {
        Ok(Box::new(match t {
            Some(t) => convert(t, what, warn, depth + 1)?,
            None => Type::Unknown,
        }))
    };
    Ok(match &t.value {
        None => Type::Unknown,
        Some(TypeValue::TensorType(tt)) => {
            match tensor(tt.elem_type, tt.shape.as_ref(), what, warn)? {
                Some(tt) => Type::Tensor(tt),
                None => Type::Unknown,
            }
        }
        Some(TypeValue::SparseTensorType(tt)) => {
            match tensor(tt.elem_type, tt.shape.as_ref(), what, warn)? {
                Some(tt) => Type::SparseTensor(tt),
                None => Type::Unknown,
            }
        }
        Some(TypeValue::SequenceType(s)) => Type::Sequence(inner(&s.elem_type, warn)?),
        Some(TypeValue::OptionalType(o)) => Type::Optional(inner(&o.elem_type, warn)?),
        Some(TypeValue::MapType(m)) => {
            let key = ElemType::from_onnx(m.key_type)
                .filter(|k| k.is_int() || *k == ElemType::String)
                .ok_or_else(|| {
                    ImportError::Model(format!(
                        "type of {what}: map key type {} is not an integer or string type",
                        m.key_type
                    ))
                })?;
            Type::Map(key, inner(&m.value_type, warn)?)
        }
        Some(TypeValue::OpaqueType(o)) => {
            warn(format!(
                "type of {what}: opaque type {:?}.{:?} imported as unknown",
                o.domain, o.name
            ));
            Type::Unknown
        }
    })
}

fn tensor(
    elem_type: i32,
    shape: Option<&TensorShapeProto>,
    what: &str,
    warn: &mut dyn FnMut(String),
) -> Result<Option<TensorType>> {
    let Some(elem) = ElemType::from_onnx(elem_type) else {
        if elem_type == 0 {
            warn(format!(
                "type of {what}: element type UNDEFINED, imported as unknown"
            ));
            return Ok(None);
        }
        return Err(ImportError::Model(format!(
            "type of {what}: unknown element type {elem_type}"
        )));
    };
    let Some(shape) = shape else {
        return Ok(Some(TensorType::unranked(elem)));
    };
    let dims = shape
        .dim
        .iter()
        .map(|d| match &d.value {
            Some(DimValue::DimValue(n)) if *n >= 0 => Dim::Known(*n),
            Some(DimValue::DimValue(n)) => {
                warn(format!(
                    "type of {what}: negative dim_value {n} imported as unknown"
                ));
                Dim::Unknown
            }
            Some(DimValue::DimParam(p)) if !p.is_empty() => Dim::param(p),
            _ => Dim::Unknown,
        })
        .collect();
    Ok(Some(TensorType::with_dims(elem, dims)))
}
