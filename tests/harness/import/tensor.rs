//! Tensors: every element type and storage field, malformed tensors, and
//! external data.

use std::collections::HashMap;

use onnx_mlc_dialect::{ElemType, Model, TensorData};
use onnx_mlc_import::{import_model, load_model, ImportOptions};
use onnx_mlc_proto::tensor_proto::{DataLocation, Segment};
use onnx_mlc_proto::*;
use onnx_mlc_tests::repo_root;

use super::build::*;

/// The `value` of every Constant of the main graph, by result name.
fn constants(m: &Model) -> HashMap<String, TensorData> {
    ops(m, m.graph)
        .into_iter()
        .filter_map(|op| {
            let name = m.ir.value(op.results[0]?).name.clone()?;
            Some((name, op.attrs.tensor("value")?.clone()))
        })
        .collect()
}

#[test]
fn typed_fields_decode_like_onnx_encodes_raw_data() {
    // storage.onnx (written by tests/import/make_storage.py) holds each
    // element type twice: in its typed field and in raw_data packed by onnx itself.
    let path = repo_root().join("tests/import/storage.onnx");
    let imported = load_model(&path, &ImportOptions::default()).unwrap();
    let tensors = constants(&imported.model);
    let mut pairs = 0;
    for (name, typed) in &tensors {
        let Some(stem) = name.strip_suffix("_typed") else {
            continue;
        };
        assert_eq!(typed.dims, [5], "{name}");
        if let Some(raw) = tensors.get(&format!("{stem}_raw")) {
            assert_eq!(typed, raw, "{stem}: typed field and raw_data differ");
            assert_eq!(typed.raw(), raw.raw(), "{stem}");
            pairs += 1;
        }
    }
    assert_eq!(pairs, 27, "every element type but string");
    assert_eq!(tensors.len(), 55);

    // A few values checked against the spec's layout rules directly.
    assert_eq!(
        tensors["float_typed"].to_vec::<f32>().unwrap(),
        [1.5, -2.0, 3.25, 0.0, 1e30]
    );
    assert_eq!(
        tensors["int64_typed"].to_i64s().unwrap(),
        [i64::MIN, -1, 0, 1, i64::MAX]
    );
    assert_eq!(
        tensors["uint64_typed"].to_vec::<u64>().unwrap(),
        [0, 1, 1 << 63, u64::MAX, 7]
    );
    assert_eq!(
        tensors["bool_typed"].raw().unwrap().as_ref(),
        [1, 0, 1, 1, 0]
    );
    // int4 [-8, -1, 0, 1, 7]: two per byte, first in the low nibble.
    assert_eq!(
        tensors["int4_typed"].raw().unwrap().as_ref(),
        [0xf8, 0x10, 0x07]
    );
    // uint2 [0, 1, 2, 3, 1]: four per byte, first in the lowest bits.
    assert_eq!(
        tensors["uint2_typed"].raw().unwrap().as_ref(),
        [0b1110_0100, 0b01]
    );
    // float16 1.5 is 0x3e00.
    assert_eq!(&tensors["float16_typed"].raw().unwrap()[..2], [0x00, 0x3e]);
    // complex64 (1 + 2i) is two floats.
    assert_eq!(
        tensors["complex64_typed"].to_vec::<f32>(),
        None,
        "complex is not f32"
    );
    assert_eq!(
        &tensors["complex64_typed"].raw().unwrap()[..8],
        [1f32.to_le_bytes(), 2f32.to_le_bytes()].concat()
    );
    assert_eq!(
        tensors["float6e2m3_typed"].raw().unwrap().len(),
        4,
        "5 x 6 bits in 4 bytes"
    );
    let strings = tensors["string_typed"].strings().unwrap();
    assert_eq!(
        strings,
        [
            b"a".to_vec(),
            vec![],
            b"hello".to_vec(),
            vec![0xff, 1],
            b"z".to_vec()
        ]
    );
    assert_eq!(tensors["float8e4m3fn_typed"].elem, ElemType::F8E4M3FN);
}

fn with_initializer(t: TensorProto) -> ModelProto {
    let mut m = model(graph("g", vec![], vec![], vec![]));
    m.graph.as_mut().unwrap().initializer.push(t);
    m
}

#[test]
fn malformed_tensors_name_the_tensor() {
    let short = floats("w", &[2, 2], &[1.0, 2.0, 3.0]);
    assert_eq!(
        err(&with_initializer(short)),
        r#"tensor "w": shape [2, 2] needs 4 float_data entries (one float per element, two for complex) for 4 elements of type f32, found 3"#
    );
    let raw = TensorProto {
        name: "w".into(),
        dims: vec![2],
        data_type: 1,
        raw_data: vec![0; 7].into(),
        ..Default::default()
    };
    assert_eq!(
        err(&with_initializer(raw)),
        r#"tensor "w": tensor of type f32 and shape [2] needs 8 bytes of data, got 7"#
    );
    let wrong = TensorProto {
        name: "w".into(),
        dims: vec![1],
        data_type: 1,
        int64_data: vec![1],
        ..Default::default()
    };
    assert_eq!(
        err(&with_initializer(wrong)),
        r#"tensor "w": data is in int64_data, which does not hold f32"#
    );
    let segment = TensorProto {
        segment: Some(Segment { begin: 0, end: 1 }),
        ..floats("w", &[1], &[1.0])
    };
    assert_eq!(
        err(&with_initializer(segment)),
        r#"tensor "w": segmented tensors are not supported"#
    );
    let unknown = TensorProto {
        data_type: 99,
        ..floats("w", &[1], &[1.0])
    };
    assert_eq!(
        err(&with_initializer(unknown)),
        r#"tensor "w": unknown data type 99"#
    );
    let undefined = TensorProto {
        data_type: 0,
        ..floats("w", &[1], &[1.0])
    };
    assert_eq!(
        err(&with_initializer(undefined)),
        r#"tensor "w": data type is UNDEFINED"#
    );
    assert_eq!(
        err(&with_initializer(floats("w", &[-1], &[]))),
        r#"tensor "w": invalid shape [-1]"#
    );
    // 2^62 float elements fit a usize, their 2^67 bits do not.
    let huge = TensorProto {
        raw_data: vec![0; 4].into(),
        ..floats("w", &[1 << 31, 1 << 31], &[])
    };
    assert_eq!(
        err(&with_initializer(huge)),
        r#"tensor "w": invalid shape [2147483648, 2147483648]"#
    );
    let huge_typed = floats("w", &[1 << 40], &[1.0]);
    assert_has(
        &err(&with_initializer(huge_typed)),
        "needs 1099511627776 float_data entries",
    );
    let big = TensorProto {
        name: "w".into(),
        dims: vec![1],
        data_type: 12,
        uint64_data: vec![1 << 40],
        ..Default::default()
    };
    assert_eq!(
        err(&with_initializer(big)),
        r#"tensor "w": uint64_data value 1099511627776 does not fit uint32"#
    );
    let no_name = TensorProto {
        name: String::new(),
        ..floats("w", &[1], &[1.0])
    };
    assert_eq!(
        err(&with_initializer(no_name)),
        r#"graph "g": an initializer has no name"#
    );
}

#[test]
fn empty_tensors_need_no_data() {
    let model = ok(&with_initializer(floats("w", &[0, 3], &[])));
    assert_eq!(constants(&model)["w"].dims, [0, 3]);
}

#[test]
fn attribute_tensors_are_checked_too() {
    let c = with_attr(
        named("c", node("Constant", &[], &["y"])),
        attr_tensor("value", floats("", &[3], &[1.0])),
    );
    assert_eq!(
        err(&model(graph("g", vec![c], vec![], vec![]))),
        r#"node "c" (op Constant, domain "", opset 17): attribute "value": tensor "": shape [3] needs 3 float_data entries (one float per element, two for complex) for 3 elements of type f32, found 1"#
    );
}

/// A float tensor `w` of `dims` stored in external file `location`.
fn external(location: &str, dims: &[i64], keys: &[(&str, &str)]) -> TensorProto {
    let mut entries = vec![StringStringEntryProto {
        key: "location".into(),
        value: location.into(),
    }];
    entries.extend(keys.iter().map(|(k, v)| StringStringEntryProto {
        key: k.to_string(),
        value: v.to_string(),
    }));
    TensorProto {
        name: "w".into(),
        dims: dims.to_vec(),
        data_type: 1,
        data_location: DataLocation::External as i32,
        external_data: entries,
        ..Default::default()
    }
}

/// A folder with `weights.bin` (the floats 1, 2, 3, 4) and a model whose
/// initializer is `t`; returns the result of loading the model.
fn load_external(test: &str, t: TensorProto) -> Result<HashMap<String, TensorData>, String> {
    let dir = temp_dir(test);
    let data: Vec<u8> = [1f32, 2.0, 3.0, 4.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(dir.join("weights.bin"), data).unwrap();
    let path = dir.join("model.onnx");
    std::fs::write(
        &path,
        onnx_mlc_proto::Message::encode_to_vec(&with_initializer(t)),
    )
    .unwrap();
    load_model(&path, &ImportOptions::default())
        .map(|i| constants(&i.model))
        .map_err(|e| e.to_string())
}

#[test]
fn external_data_is_read_from_the_model_folder() {
    let whole = load_external("ext_whole", external("weights.bin", &[4], &[])).unwrap();
    assert_eq!(whole["w"].to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    let checked = [
        ("offset", "8"),
        ("length", "8"),
        ("checksum", "28079b53967e9605495922b3281c09cc13825af6"),
    ];
    let part = load_external("ext_part", external("weights.bin", &[2], &checked)).unwrap();
    assert_eq!(part["w"].to_vec::<f32>().unwrap(), [3.0, 4.0]);
    // A checksum of the whole file is accepted too.
    let file_sum = [
        ("offset", "8"),
        ("checksum", "c26df9440df999ae7d765499acd5ca855709702f"),
    ];
    assert!(load_external("ext_file_sum", external("./weights.bin", &[2], &file_sum)).is_ok());
}

#[test]
fn bad_external_data_is_an_error_naming_tensor_and_path() {
    let e = load_external("ext_missing", external("nothing.bin", &[4], &[])).unwrap_err();
    assert_has(&e, r#"tensor "w": external data "#);
    assert_has(&e, "ext_missing/nothing.bin: No such file or directory");

    let e = load_external(
        "ext_past",
        external("weights.bin", &[4], &[("offset", "8"), ("length", "16")]),
    )
    .unwrap_err();
    assert_has(
        &e,
        "ext_past/weights.bin: offset 8 and length 16 reach past the end of the file (16 bytes)",
    );
    let e = load_external(
        "ext_offset",
        external("weights.bin", &[0], &[("offset", "17")]),
    )
    .unwrap_err();
    assert_has(
        &e,
        "offset 17 and length (rest of file) reach past the end of the file (16 bytes)",
    );
    let e = load_external("ext_size", external("weights.bin", &[3], &[])).unwrap_err();
    assert_eq!(
        e,
        r#"tensor "w": tensor of type f32 and shape [3] needs 12 bytes of data, got 16"#
    );

    let e = load_external(
        "ext_sum",
        external("weights.bin", &[4], &[("checksum", "0000")]),
    )
    .unwrap_err();
    assert_has(&e, "weights.bin: checksum mismatch: expected SHA-1 0000, data has c26df9440df999ae7d765499acd5ca855709702f");
    let e = load_external(
        "ext_num",
        external("weights.bin", &[4], &[("offset", "-1")]),
    )
    .unwrap_err();
    assert_has(&e, r#"offset "-1" is not a byte count"#);
}

#[test]
fn external_data_must_stay_in_the_model_folder() {
    let e = load_external("ext_abs", external("/etc/passwd", &[1], &[])).unwrap_err();
    assert_eq!(
        e,
        r#"tensor "w": external data /etc/passwd: absolute locations are not allowed"#
    );
    let e = load_external("ext_up", external("../ext_whole/weights.bin", &[4], &[])).unwrap_err();
    assert_eq!(
        e,
        r#"tensor "w": external data ../ext_whole/weights.bin: `..` components are not allowed"#
    );

    // A symlink inside the folder that points outside of it.
    let outside = temp_dir("ext_outside");
    std::fs::write(outside.join("secret.bin"), [0u8; 16]).unwrap();
    let dir = temp_dir("ext_link");
    std::os::unix::fs::symlink(outside.join("secret.bin"), dir.join("link.bin")).unwrap();
    let path = dir.join("model.onnx");
    std::fs::write(
        &path,
        onnx_mlc_proto::Message::encode_to_vec(&with_initializer(external("link.bin", &[4], &[]))),
    )
    .unwrap();
    let e = load_model(&path, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert_has(&e, "outside the model's folder");
    assert_has(&e, "ext_outside/secret.bin");

    let e = load_external(
        "ext_noloc",
        TensorProto {
            external_data: vec![],
            ..external("", &[4], &[])
        },
    )
    .unwrap_err();
    assert_eq!(
        e,
        r#"tensor "w": data_location is EXTERNAL but external_data has no `location`"#
    );
}

#[test]
fn in_memory_models_have_no_folder_for_external_data() {
    let m = with_initializer(external("weights.bin", &[4], &[]));
    let e = import_model(&m, None, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        r#"tensor "w": external data weights.bin: the model's folder is unknown (model not loaded from a file)"#
    );
}
