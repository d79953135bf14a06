//! Decodes a model written by the Python `onnx` package
//! (`tests/data/make_tiny.py`) and checks the fields it set.

use bytes::Bytes;
use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::tensor_proto::DataType;
use onnx_mlc_proto::tensor_shape_proto::dimension::Value as DimValue;
use onnx_mlc_proto::type_proto::Value as TypeValue;
use onnx_mlc_proto::{Message, ModelProto, NodeProto, TensorShapeProto};

fn tiny() -> (Bytes, ModelProto) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny.onnx");
    let bytes = Bytes::from(std::fs::read(path).unwrap());
    let model = ModelProto::decode(bytes.clone()).unwrap();
    (bytes, model)
}

fn node<'m>(model: &'m ModelProto, name: &str) -> &'m NodeProto {
    model
        .graph
        .as_ref()
        .unwrap()
        .node
        .iter()
        .find(|n| n.name == name)
        .unwrap()
}

fn dims(shape: &TensorShapeProto) -> Vec<Option<DimValue>> {
    shape.dim.iter().map(|d| d.value.clone()).collect()
}

#[test]
fn model_fields() {
    let (_, m) = tiny();
    assert_eq!(m.ir_version, 10);
    assert_eq!(m.producer_name, "make_tiny");
    assert_eq!(m.producer_version, "1.0");
    assert_eq!(m.model_version, 7);
    assert_eq!(m.doc_string, "a tiny model");
    assert_eq!(m.metadata_props.len(), 1);
    assert_eq!(
        (
            m.metadata_props[0].key.as_str(),
            m.metadata_props[0].value.as_str()
        ),
        ("author", "onnx-mlc")
    );
    let opsets: Vec<_> = m
        .opset_import
        .iter()
        .map(|o| (o.domain.as_str(), o.version))
        .collect();
    assert_eq!(opsets, [("", 17), ("local", 1)]);
    assert_eq!(m.training_info.len(), 1);
    assert_eq!(m.training_info[0].algorithm.as_ref().unwrap().name, "step");
    assert_eq!(m.training_info[0].update_binding[0].value, "new_weight");
}

#[test]
fn graph_nodes_and_attributes() {
    let (_, m) = tiny();
    let g = m.graph.as_ref().unwrap();
    assert_eq!(g.name, "tiny");
    assert_eq!(g.metadata_props[0].key, "graph_key");
    let ops: Vec<_> = g.node.iter().map(|n| n.op_type.as_str()).collect();
    assert_eq!(ops, ["Cast", "Add", "If", "LeakyRelu", "Twice"]);

    let add = node(&m, "add0");
    assert_eq!(
        (add.input.as_slice(), add.output.as_slice()),
        (
            &["x".to_string(), "weight".into()][..],
            &["sum".to_string()][..]
        )
    );
    assert_eq!(add.doc_string, "adds");
    assert_eq!(add.metadata_props[0].value, "test");

    let cast = &node(&m, "cast0").attribute[0];
    assert_eq!(
        (cast.name.as_str(), cast.r#type(), cast.i),
        ("to", AttributeType::Int, DataType::Bool as i64)
    );
    let alpha = &node(&m, "leaky0").attribute[0];
    assert_eq!((alpha.r#type(), alpha.f), (AttributeType::Float, 0.25));

    let branch = node(&m, "if0");
    let then = branch
        .attribute
        .iter()
        .find(|a| a.name == "then_branch")
        .unwrap();
    assert_eq!(then.r#type(), AttributeType::Graph);
    let body = then.g.as_ref().unwrap();
    assert_eq!(body.node[0].op_type, "Identity");
    assert_eq!(body.output[0].name, "then_out");

    let call = node(&m, "call0");
    assert_eq!(call.domain, "local");
    assert_eq!(call.attribute[0].name, "scale");
}

#[test]
fn types_and_shapes() {
    let (_, m) = tiny();
    let g = m.graph.as_ref().unwrap();
    let Some(TypeValue::TensorType(x)) = &g.input[0].r#type.as_ref().unwrap().value else {
        panic!()
    };
    assert_eq!(x.elem_type, DataType::Float as i32);
    assert_eq!(
        dims(x.shape.as_ref().unwrap()),
        [
            Some(DimValue::DimParam("batch".into())),
            Some(DimValue::DimValue(3))
        ]
    );
    let Some(TypeValue::TensorType(flag)) = &g.input[1].r#type.as_ref().unwrap().value else {
        panic!()
    };
    assert_eq!(flag.elem_type, DataType::Int64 as i32);
    assert!(
        flag.shape.as_ref().unwrap().dim.is_empty(),
        "a scalar has a shape with no dims"
    );
    let Some(TypeValue::TensorType(w)) = &g.output[1].r#type.as_ref().unwrap().value else {
        panic!()
    };
    assert!(w.shape.is_none(), "no shape given: unknown rank");
    let Some(TypeValue::TensorType(sum)) = &g.value_info[0].r#type.as_ref().unwrap().value else {
        panic!()
    };
    assert_eq!(
        dims(sum.shape.as_ref().unwrap()),
        [Some(DimValue::DimParam("batch".into())), None]
    );
}

#[test]
fn initializers_are_zero_copy() {
    let (bytes, m) = tiny();
    let g = m.graph.as_ref().unwrap();
    let w = &g.initializer[0];
    assert_eq!(
        (w.name.as_str(), w.dims.as_slice(), w.data_type),
        ("weight", &[2i64, 3][..], DataType::Float as i32)
    );
    let values: Vec<f32> = w
        .raw_data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(values, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let range = bytes.as_ptr() as usize..bytes.as_ptr() as usize + bytes.len();
    assert!(
        range.contains(&(w.raw_data.as_ptr() as usize)),
        "raw_data points into the decoded buffer"
    );

    let s = &g.sparse_initializer[0];
    assert_eq!(s.dims, [2, 3]);
    assert_eq!(s.values.as_ref().unwrap().int64_data, [5, 7]);
    assert_eq!(s.indices.as_ref().unwrap().int64_data, [1, 4]);
}

#[test]
fn functions() {
    let (_, m) = tiny();
    let f = &m.functions[0];
    assert_eq!(
        (f.domain.as_str(), f.name.as_str(), f.overload.as_str()),
        ("local", "Twice", "v1")
    );
    assert_eq!(
        (f.input.as_slice(), f.output.as_slice()),
        (&["a".to_string()][..], &["b".to_string()][..])
    );
    assert_eq!(f.attribute_proto[0].name, "scale");
    assert_eq!(f.attribute_proto[0].i, 2);
    assert_eq!(f.opset_import[0].version, 17);
    assert_eq!(f.node[0].op_type, "Add");
}

#[test]
fn round_trip() {
    let (_, m) = tiny();
    let encoded = m.encode_to_vec();
    assert_eq!(ModelProto::decode(encoded.as_slice()).unwrap(), m);
}

#[test]
fn truncated_input_is_an_error() {
    let (bytes, _) = tiny();
    assert!(ModelProto::decode(bytes.slice(..bytes.len() - 3)).is_err());
}
