//! Test values (`.pb` files) of every kind, as serialized by the onnx
//! package (`tests/import/make_values.py`).

use std::path::PathBuf;

use bytes::Bytes;
use onnx_mlc_dialect::{ElemType, TensorData, TensorType, Type};
use onnx_mlc_import::{decode_value, encode_tensor, read_value, MapKey, TestValue};
use onnx_mlc_tests::repo_root;

fn path(name: &str) -> PathBuf {
    repo_root().join("tests/import/values").join(name)
}

fn read(name: &str, ty: &Type) -> TestValue {
    read_value(&path(name), ty).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn seq(elem: Type) -> Type {
    Type::Sequence(Box::new(elem))
}

fn f32_scalar(v: f32) -> TestValue {
    TestValue::Tensor(TensorData::scalar(v))
}

#[test]
fn tensors() {
    let TestValue::Tensor(t) = read("tensor.pb", &Type::Unknown) else {
        panic!()
    };
    assert_eq!((t.elem, t.dims.as_slice()), (ElemType::I32, &[2i64, 3][..]));
    assert_eq!(t.to_i64s().unwrap(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        read("tensor.pb", &Type::tensor(ElemType::I32, &[2, 3])),
        TestValue::Tensor(t)
    );
}

#[test]
fn sequences() {
    let v = read("sequence.pb", &seq(Type::Unknown));
    assert_eq!(
        v,
        TestValue::Sequence(vec![
            TestValue::Tensor(TensorData::i64s(&[1, 2])),
            TestValue::Tensor(TensorData::i64s(&[3])),
        ])
    );
}

#[test]
fn maps() {
    let v = read("map.pb", &Type::Map(ElemType::I64, Box::new(Type::Unknown)));
    assert_eq!(
        v,
        TestValue::Map(vec![
            (MapKey::Int(1), f32_scalar(0.5)),
            (MapKey::Int(3), f32_scalar(1.5))
        ])
    );
    let v = read(
        "string_map.pb",
        &Type::Map(ElemType::String, Box::new(Type::Unknown)),
    );
    let TestValue::Map(pairs) = v else { panic!() };
    assert_eq!(
        pairs[1],
        (
            MapKey::String(b"bc".to_vec()),
            TestValue::Tensor(TensorData::scalar(2i64))
        )
    );
    let zipmap = read(
        "sequence_of_maps.pb",
        &seq(Type::Map(ElemType::I64, Box::new(Type::Unknown))),
    );
    assert_eq!(
        zipmap,
        TestValue::Sequence(vec![
            TestValue::Map(vec![(MapKey::Int(5), f32_scalar(2.0))]),
            TestValue::Map(vec![(MapKey::Int(6), f32_scalar(3.0))]),
        ])
    );
}

#[test]
fn optionals() {
    let ty = Type::Optional(Box::new(Type::Tensor(TensorType::unranked(ElemType::F64))));
    let v = read("optional.pb", &ty);
    let t = TensorData::from_vec(vec![1], &[7.0f64]).unwrap();
    assert_eq!(v, TestValue::Optional(Some(Box::new(TestValue::Tensor(t)))));
    assert_eq!(read("optional_none.pb", &ty), TestValue::Optional(None));
}

#[test]
fn bad_values_are_errors() {
    let e = decode_value(Bytes::from_static(b"\x0a\xff"), &Type::Unknown)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "<memory>: malformed or truncated protobuf: failed to decode Protobuf message: TensorProto.dims: invalid varint");
    // A map with two keys and one value.
    let bytes = std::fs::read(path("map.pb")).unwrap();
    let mut map =
        <onnx_mlc_proto::MapProto as onnx_mlc_proto::Message>::decode(bytes.as_slice()).unwrap();
    map.keys.push(9);
    let bytes = onnx_mlc_proto::Message::encode_to_vec(&map);
    let e = decode_value(
        bytes.into(),
        &Type::Map(ElemType::I64, Box::new(Type::Unknown)),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), r#"map "m": 3 keys but 2 values"#);
    let e = read_value(&path("missing.pb"), &Type::Unknown)
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("missing.pb: No such file or directory (os error 2)"),
        "{e}"
    );
}

#[test]
fn tensors_encode_and_decode_back() {
    let TestValue::Tensor(t) = read("tensor.pb", &Type::Unknown) else {
        panic!()
    };
    let bytes = encode_tensor(&t, "out").unwrap();
    let proto =
        <onnx_mlc_proto::TensorProto as onnx_mlc_proto::Message>::decode(bytes.as_slice()).unwrap();
    assert_eq!(proto.name, "out");
    assert_eq!(
        decode_value(bytes.into(), &Type::Unknown).unwrap(),
        TestValue::Tensor(t)
    );
    let e = encode_tensor(&TensorData::elided(ElemType::F32, vec![2]), "w").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"tensor "w": the data of this tensor<2xf32> was elided from a printed IR: there is nothing to export"#
    );
}
