//! Small builders for `ModelProto`s, so that tests read like the models
//! they describe, plus helpers to look at the imported IR.

use onnx_mlc_dialect::ir::OpData;
use onnx_mlc_dialect::{Model, OpId, RegionId, Value};
use onnx_mlc_import::{import_model, ImportError, ImportOptions, Imported};
use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::tensor_shape_proto::{dimension, Dimension};
use onnx_mlc_proto::type_proto::{self, Value as TypeValue};
use onnx_mlc_proto::*;

pub fn strs(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

pub fn node(op: &str, inputs: &[&str], outputs: &[&str]) -> NodeProto {
    NodeProto {
        op_type: op.into(),
        input: strs(inputs),
        output: strs(outputs),
        ..Default::default()
    }
}

pub fn named(name: &str, mut n: NodeProto) -> NodeProto {
    n.name = name.into();
    n
}

pub fn with_attr(mut n: NodeProto, a: AttributeProto) -> NodeProto {
    n.attribute.push(a);
    n
}

pub fn attr_int(name: &str, i: i64) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Int as i32,
        i,
        ..Default::default()
    }
}

pub fn attr_float(name: &str, f: f32) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Float as i32,
        f,
        ..Default::default()
    }
}

pub fn attr_graph(name: &str, g: GraphProto) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Graph as i32,
        g: Some(g),
        ..Default::default()
    }
}

pub fn attr_tensor(name: &str, t: TensorProto) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Tensor as i32,
        t: Some(t),
        ..Default::default()
    }
}

/// An attribute referring to formal attribute `to` of the enclosing function.
pub fn attr_ref(name: &str, to: &str, ty: AttributeType) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        ref_attr_name: to.into(),
        r#type: ty as i32,
        ..Default::default()
    }
}

/// A tensor type; dims are numbers, `"?"` (unknown) or names (dim_param).
pub fn tensor_type(elem: i32, dims: Option<&[&str]>) -> TypeProto {
    let shape = dims.map(|dims| TensorShapeProto {
        dim: dims
            .iter()
            .map(|d| Dimension {
                value: match (*d, d.parse::<i64>()) {
                    ("?", _) => None,
                    (_, Ok(n)) => Some(dimension::Value::DimValue(n)),
                    (p, Err(_)) => Some(dimension::Value::DimParam(p.into())),
                },
                denotation: String::new(),
            })
            .collect(),
    });
    TypeProto {
        value: Some(TypeValue::TensorType(type_proto::Tensor {
            elem_type: elem,
            shape,
        })),
        denotation: String::new(),
    }
}

pub fn value(name: &str, ty: TypeProto) -> ValueInfoProto {
    ValueInfoProto {
        name: name.into(),
        r#type: Some(ty),
        ..Default::default()
    }
}

/// A float tensor value info of static shape.
pub fn fvalue(name: &str, dims: &[&str]) -> ValueInfoProto {
    value(name, tensor_type(1, Some(dims)))
}

pub fn floats(name: &str, dims: &[i64], data: &[f32]) -> TensorProto {
    TensorProto {
        name: name.into(),
        dims: dims.to_vec(),
        data_type: 1,
        float_data: data.to_vec(),
        ..Default::default()
    }
}

pub fn ints(name: &str, dims: &[i64], data: &[i64]) -> TensorProto {
    TensorProto {
        name: name.into(),
        dims: dims.to_vec(),
        data_type: 7,
        int64_data: data.to_vec(),
        ..Default::default()
    }
}

pub fn graph(
    name: &str,
    nodes: Vec<NodeProto>,
    inputs: Vec<ValueInfoProto>,
    outputs: Vec<ValueInfoProto>,
) -> GraphProto {
    GraphProto {
        name: name.into(),
        node: nodes,
        input: inputs,
        output: outputs,
        ..Default::default()
    }
}

pub fn opset(domain: &str, version: i64) -> OperatorSetIdProto {
    OperatorSetIdProto {
        domain: domain.into(),
        version,
    }
}

/// A model of `g` importing ai.onnx opset 17.
pub fn model(g: GraphProto) -> ModelProto {
    ModelProto {
        ir_version: 10,
        opset_import: vec![opset("", 17)],
        graph: Some(g),
        ..Default::default()
    }
}

pub fn import(m: &ModelProto) -> Result<Imported, ImportError> {
    import_model(m, None, &ImportOptions::default())
}

/// Imports a model that must import, and checks that the IR it makes
/// satisfies the dialect's verifier.
pub fn ok(m: &ModelProto) -> Model {
    let model = match import(m) {
        Ok(i) => i.model,
        Err(e) => panic!("import failed: {e}"),
    };
    if let Err(e) = onnx_mlc_dialect::verify::verify_model(&model) {
        panic!("the imported model does not verify: {e}");
    }
    model
}

/// Imports a model that must import, without verifying it: for tests of
/// what the importer keeps from models the verifier rejects (main-graph
/// inputs of unknown rank, say).
pub fn unverified(m: &ModelProto) -> Model {
    match import(m) {
        Ok(i) => i.model,
        Err(e) => panic!("import failed: {e}"),
    }
}

/// The message of an import that must fail.
pub fn err(m: &ModelProto) -> String {
    match import(m) {
        Ok(_) => panic!("import succeeded"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that `message` contains `part`.
#[track_caller]
pub fn assert_has(message: &str, part: &str) {
    assert!(message.contains(part), "expected {part:?} in:\n{message}");
}

/// The ops of a region.
pub fn ops(m: &Model, r: RegionId) -> Vec<&OpData> {
    m.ir.region(r).ops.iter().map(|&o| m.ir.op(o)).collect()
}

/// The op types of a region, in order.
pub fn op_names(m: &Model, r: RegionId) -> Vec<&'static str> {
    ops(m, r).iter().map(|o| o.kind.name()).collect()
}

/// The region's op whose node name is `name`.
pub fn op_named(m: &Model, r: RegionId, name: &str) -> OpId {
    *m.ir
        .region(r)
        .ops
        .iter()
        .find(|&&o| m.ir.op(o).name == name)
        .unwrap_or_else(|| panic!("no op {name:?}"))
}

/// The value of `r` (or a region within) whose name is `name`.
pub fn value_named(m: &Model, name: &str) -> Value {
    (0..m.ir.num_values())
        .map(Value::from_index)
        .find(|&v| m.ir.value(v).name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no value {name:?}"))
}

/// A fresh, empty folder for test files.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("import-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
