//! The exporter's choices that only the `ModelProto` shows: which
//! `Constant`s become initializers, `value_info`, tensor storage fields,
//! `dim_param` spellings, domains, names it has to make, and external data.
//! (What survives a round trip is tested by the file tests in
//! `tests/dialect/export/` and the round-trip suite over every backend and
//! real model.)

use std::path::PathBuf;

use onnx_mlc_dialect::ir::NewOp;
use onnx_mlc_dialect::{parse_model, print_model, Attrs, Model, OpKind, PrintOptions, Value};
use onnx_mlc_import::{
    export_model, import_model, load_model, save_model, ExportError, ExportOptions, ExternalData,
    ImportOptions,
};
use onnx_mlc_proto::tensor_proto::DataLocation;
use onnx_mlc_proto::tensor_shape_proto::dimension::Value as DimValue;
use onnx_mlc_proto::type_proto::Value as TypeValue;
use onnx_mlc_proto::{GraphProto, Message, ModelProto, ValueInfoProto};

fn parse(text: &str) -> Model {
    parse_model(text).unwrap_or_else(|e| panic!("{e}"))
}

fn export(model: &Model) -> ModelProto {
    export_model(model, &ExportOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn graph(proto: &ModelProto) -> &GraphProto {
    proto.graph.as_ref().expect("a graph")
}

fn names<'a, T>(items: &'a [T], name: impl Fn(&'a T) -> &'a str) -> Vec<&'a str> {
    items.iter().map(name).collect()
}

/// The dims of a tensor value info: numbers, names, or `?`.
fn dims(vi: &ValueInfoProto) -> Vec<String> {
    let Some(TypeValue::TensorType(t)) = vi.r#type.as_ref().and_then(|t| t.value.as_ref()) else {
        panic!("{} is not a tensor", vi.name)
    };
    t.shape
        .as_ref()
        .expect("a shape")
        .dim
        .iter()
        .map(|d| match &d.value {
            Some(DimValue::DimValue(n)) => n.to_string(),
            Some(DimValue::DimParam(p)) => p.clone(),
            None => "?".into(),
        })
        .collect()
}

/// Imports a protobuf again and prints it.
fn reimported(proto: &ModelProto) -> String {
    let model = import_model(proto, None, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .model;
    print_model(&model, &PrintOptions::default())
}

const CONSTANTS: &str = r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>, %d: tensor<2xf32> = dense<[1.0, 2.0]> : tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %w = "onnx.Constant"() {value = dense<[3.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "onnx.Constant"() {sparse_value = sparse<dense<[1]> : tensor<1xi64>, dense<[5.0]> : tensor<1xf32>> : !onnx.sparse<2xf32>} : () -> tensor<2xf32>
  %n = "onnx.Constant"() {value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32> loc("named")
  %a = "onnx.Add"(%x, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %late = "onnx.Constant"() {value = dense<[7.0, 8.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "onnx.Add"(%a, %s) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c = "onnx.Add"(%b, %n) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %e = "onnx.Add"(%c, %late) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %y = "onnx.Add"(%e, %d) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
"#;

#[test]
fn leading_unnamed_constants_become_initializers() {
    let proto = export(&parse(CONSTANTS));
    let g = graph(&proto);
    // The default of %d, then the Constants before the first other op
    // (the named one stops the run).
    assert_eq!(names(&g.initializer, |t| &t.name), ["d", "w"]);
    assert_eq!(
        names(&g.sparse_initializer, |s| &s.values.as_ref().unwrap().name),
        ["s"]
    );
    assert_eq!(names(&g.input, |v| &v.name), ["x", "d"]);
    assert_eq!(
        names(&g.node, |n| &n.op_type),
        ["Constant", "Add", "Constant", "Add", "Add", "Add", "Add"]
    );
    assert_eq!(g.node[0].name, "named");
    assert_eq!(g.node[2].output, ["late"]);
}

#[test]
fn before_ir_version_4_initializers_must_be_inputs() {
    let model = parse(&CONSTANTS.replace("ir_version = 10", "ir_version = 3"));
    let g = graph(&export(&model)).clone();
    assert_eq!(names(&g.initializer, |t| &t.name), ["d"]);
    assert!(g.sparse_initializer.is_empty());
    assert_eq!(g.node.iter().filter(|n| n.op_type == "Constant").count(), 4);
}

#[test]
fn tensors_are_raw_data_and_strings_string_data() {
    let model = parse(
        r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"() -> ("f": tensor<2xf32>, "s": tensor<2xstring>) {
  %f = "onnx.Constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "onnx.Constant"() {value = dense<["a", "bc"]> : tensor<2xstring>} : () -> tensor<2xstring>
  onnx.return %f, %s
}
"#,
    );
    let proto = export(&model);
    let [f, s] = &graph(&proto).initializer[..] else {
        panic!("two initializers")
    };
    assert_eq!(f.data_type, 1);
    assert_eq!(f.dims, [2]);
    assert_eq!(&f.raw_data[..], [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]);
    assert!(f.float_data.is_empty());
    assert_eq!(s.data_type, 8);
    assert_eq!(s.string_data, [&b"a"[..], b"bc"]);
    assert!(s.raw_data.is_empty());
}

const TYPED: &str = r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<"batch"x"seq"x4xf32>) -> ("y": tensor<("batch"*"seq")x4xf32>) {
  %f = "onnx.Flatten"(%x) {axis = 2} : (tensor<"batch"x"seq"x4xf32>) -> tensor<("batch"*"seq")x4xf32>
  %u = "onnx.Relu"(%f) : (tensor<("batch"*"seq")x4xf32>) -> tensor<?x4xf32>
  %n = "onnx.Neg"(%u) : (tensor<?x4xf32>) -> !onnx.unknown
  %y = "onnx.Abs"(%n) : (!onnx.unknown) -> tensor<("batch"*"seq")x4xf32>
  onnx.return %y
}
"#;

#[test]
fn value_info_types_intermediate_values_with_dim_params_for_symbols() {
    let proto = export(&parse(TYPED));
    let g = graph(&proto);
    // Not the untyped %n, not the output %y (its type is the output's).
    assert_eq!(names(&g.value_info, |v| &v.name), ["f", "u"]);
    assert_eq!(dims(&g.value_info[0]), ["batch*seq", "4"]);
    assert_eq!(dims(&g.value_info[1]), ["?", "4"]);
    assert_eq!(dims(&g.input[0]), ["batch", "seq", "4"]);
    assert_eq!(dims(&g.output[0]), ["batch*seq", "4"]);

    let options = ExportOptions {
        value_info: false,
        ..ExportOptions::default()
    };
    let bare = export_model(&parse(TYPED), &options).unwrap();
    assert!(graph(&bare).value_info.is_empty());
}

#[test]
fn nodes_spell_their_domain_as_the_model_imports_it() {
    let model = parse(
        r#"
onnx.model {ir_version = 10, opset_imports = {"ai.onnx" = 17, "ai.onnx.ml" = 3}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %s = "onnx_ml.Scaler"(%x) {offset = [0.0], scale = [2.0]} : (tensor<2xf32>) -> tensor<2xf32>
  %y = "onnx.Relu"(%s) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
"#,
    );
    let proto = export(&model);
    assert_eq!(
        names(&graph(&proto).node, |n| &n.domain),
        ["ai.onnx.ml", "ai.onnx"]
    );
    assert_eq!(
        names(&proto.opset_import, |o| &o.domain),
        ["ai.onnx", "ai.onnx.ml"]
    );
}

#[test]
fn an_identity_imports_ai_onnx_when_the_model_does_not() {
    let model = parse(
        r#"
onnx.model {ir_version = 10, opset_imports = {"ai.onnx.ml" = 3}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %s = "onnx_ml.Scaler"(%x) {offset = [0.0], scale = [2.0]} : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %s
}
"#,
    );
    let proto = export(&model);
    let newest = i64::from(onnx_mlc_dialect::Domain::Onnx.max_version());
    let imports: Vec<(&str, i64)> = proto
        .opset_import
        .iter()
        .map(|o| (o.domain.as_str(), o.version))
        .collect();
    assert_eq!(imports, [("ai.onnx.ml", 3), ("", newest)]);
    let g = graph(&proto);
    assert_eq!(names(&g.node, |n| &n.op_type), ["Scaler", "Identity"]);
    assert_eq!(g.node[1].input, ["s"]);
    assert_eq!(g.node[1].output, ["y"]);
}

const LOOP: &str = r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>, %n: tensor<i64>) -> ("l": tensor<2xf32>) {
  %l = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<2xf32>) -> ("c": tensor<i1>, "acc": tensor<2xf32>) {
    %t = "onnx.Add"(%acc, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %u = "onnx.Neg"(%t) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %c, %u
  }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  onnx.return %l
}
"#;

/// `LOOP` with the body's value named `old` renamed to `new` (as a pass
/// might name values).
fn loop_with_renamed(old: &str, new: &str) -> Model {
    let mut model = parse(LOOP);
    let ir = &mut model.ir;
    let v = (0..ir.num_values())
        .map(Value::from_index)
        .find(|&v| ir.value(v).name.as_deref() == Some(old))
        .expect("the value exists");
    ir.value_mut(v).name = Some(new.to_string());
    model
}

fn body(proto: &ModelProto) -> &GraphProto {
    graph(proto).node[0].attribute[0]
        .g
        .as_ref()
        .expect("the body")
}

#[test]
fn a_subgraph_input_that_would_hide_an_outer_value_it_uses_is_renamed() {
    // The body's %acc named "x" would hide the outer %x the body adds.
    let proto = export(&loop_with_renamed("acc", "x"));
    let b = body(&proto);
    let acc = &b.input[2].name;
    assert_ne!(acc, "x");
    assert_eq!(b.node[0].input, [acc.as_str(), "x"]);
    // Imported again, the body still adds the outer %x to its own input.
    let text = reimported(&proto);
    assert!(
        text.contains(&format!(r#""onnx.Add"(%{acc}, %x)"#)),
        "{text}"
    );
}

#[test]
fn a_subgraph_input_may_shadow_outer_names_it_does_not_use() {
    let proto = export(&loop_with_renamed("acc", "n"));
    assert_eq!(body(&proto).input[2].name, "n");
}

#[test]
fn a_node_output_named_like_a_visible_value_is_renamed() {
    let proto = export(&loop_with_renamed("t", "x"));
    let b = body(&proto);
    let t = &b.node[0].output[0];
    assert_ne!(t, "x");
    assert_eq!(b.node[1].input, [t.as_str()]);
    assert_eq!(b.node[0].input[1], "x");
}

#[test]
fn values_sharing_a_name_in_a_graph_are_told_apart() {
    let proto = export(&loop_with_renamed("u", "t"));
    let b = body(&proto);
    let (t, u) = (&b.node[0].output[0], &b.node[1].output[0]);
    assert_eq!(t, "t");
    assert_ne!(u, "t");
    assert_eq!(b.node[1].input, ["t"]);
}

/// A model whose default and initializer (16 floats each) go to external
/// data from 64 bytes on, and whose small initializer stays inline.
const WEIGHTS: &str = r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<16xf32>, %d: tensor<16xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : tensor<16xf32>) -> ("y": tensor<16xf32>) {
  %w = "onnx.Constant"() {value = dense<[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0, 9.0, 7.0, 9.0, 3.0]> : tensor<16xf32>} : () -> tensor<16xf32>
  %b = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %s = "onnx.Add"(%x, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %t = "onnx.Add"(%s, %d) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %y = "onnx.Add"(%t, %b) : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  onnx.return %y
}
"#;

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onnx-mlc-export-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn save_model_writes_large_initializers_as_external_data() {
    let dir = scratch("external");
    let path = dir.join("m.onnx");
    let model = parse(WEIGHTS);
    let options = ExportOptions {
        external_data: Some(ExternalData {
            location: "m.weights".into(),
            min_bytes: 64,
        }),
        ..ExportOptions::default()
    };
    save_model(&model, &path, &options).unwrap();

    let proto = ModelProto::decode(std::fs::read(&path).unwrap().as_slice()).unwrap();
    let g = graph(&proto);
    let entries: Vec<(&str, Vec<(&str, &str)>)> = g
        .initializer
        .iter()
        .map(|t| {
            let kv = t
                .external_data
                .iter()
                .map(|e| (e.key.as_str(), e.value.as_str()))
                .collect();
            (t.name.as_str(), kv)
        })
        .collect();
    let at = |offset| {
        vec![
            ("location", "m.weights"),
            ("offset", offset),
            ("length", "64"),
        ]
    };
    // The second tensor starts at the next multiple of 64 bytes.
    assert_eq!(entries, [("d", at("0")), ("w", at("64")), ("b", vec![])]);
    let external = DataLocation::External as i32;
    assert_eq!(g.initializer[0].data_location, external);
    assert!(g.initializer[0].raw_data.is_empty());
    assert_eq!(g.initializer[2].data_location, DataLocation::Default as i32);
    assert_eq!(std::fs::metadata(dir.join("m.weights")).unwrap().len(), 128);

    let loaded = load_model(&path, &ImportOptions::default()).unwrap().model;
    assert_eq!(
        print_model(&loaded, &PrintOptions::default()),
        print_model(&model, &PrintOptions::default())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn external_data_beside_the_model_is_named_after_it() {
    let external = ExternalData::beside(std::path::Path::new("out/model.onnx"));
    assert_eq!(external.location, "model.onnx.data");
    assert_eq!(external.min_bytes, 1024);
}

#[test]
fn external_data_must_stay_in_the_models_folder() {
    let dir = scratch("escape");
    let inside = "must be a relative path inside the model's folder";
    for (location, problem) in [
        ("../w.bin", inside),
        ("/tmp/w.bin", inside),
        ("", inside),
        ("./m.onnx", "is the model file itself"),
    ] {
        let options = ExportOptions {
            external_data: Some(ExternalData {
                location: location.into(),
                min_bytes: 0,
            }),
            ..ExportOptions::default()
        };
        let err = save_model(&parse(WEIGHTS), &dir.join("m.onnx"), &options).unwrap_err();
        assert!(matches!(err, ExportError::Options(_)), "{err}");
        assert_eq!(
            err.to_string(),
            format!("external data location {location:?} {problem}")
        );
    }
    assert!(!dir.join("m.onnx").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_model_reports_the_file_it_cannot_write() {
    let path = std::path::Path::new("/nonexistent-folder/m.onnx");
    let err = save_model(&parse(WEIGHTS), path, &ExportOptions::default()).unwrap_err();
    assert!(
        err.to_string().starts_with("/nonexistent-folder/m.onnx: "),
        "{err}"
    );
}

/// Appends `kind` (at its newest version) to the main graph of `model`,
/// applied to `input`, and returns the new op's result.
fn append(model: &mut Model, kind: OpKind, input: Value) -> Value {
    let newest = kind.versions().last().expect("a version").since_version;
    let ty = model.ir.ty(input).clone();
    let op = model.ir.append_op(
        model.graph,
        NewOp {
            kind,
            version: newest,
            inputs: vec![Some(input)],
            results: vec![Some((None, ty))],
            attrs: Attrs::default(),
            name: "added".into(),
        },
    );
    model.ir.op(op).results[0].expect("the result")
}

#[test]
fn a_domain_the_model_does_not_import_is_imported() {
    let mut model = parse(
        r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
"#,
    );
    let x = model.ir.region(model.graph).args[0].value;
    let scaled = append(&mut model, OpKind::Scaler, x);
    model.ir.add_output(model.graph, "scaled", scaled);
    let proto = export(&model);
    let imports: Vec<(&str, i64)> = proto
        .opset_import
        .iter()
        .map(|o| (o.domain.as_str(), o.version))
        .collect();
    let ml = i64::from(onnx_mlc_dialect::Domain::Ml.max_version());
    assert_eq!(imports, [("", 21), ("ai.onnx.ml", ml)]);
    assert_eq!(graph(&proto).node[1].domain, "ai.onnx.ml");
    assert_eq!(graph(&proto).node[1].output, ["scaled"]);
}

#[test]
fn a_value_used_outside_its_graph_is_an_error() {
    // The main graph uses the value %t of the If's then-branch.
    let mut model = parse(
        r#"
onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%c: tensor<i1>, %x: tensor<2xf32>) -> ("r": tensor<2xf32>) {
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("t": tensor<2xf32>) {
    %t = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %t
  }, else_branch = onnx.graph "else"() -> ("o": tensor<2xf32>) {
    %o = "onnx.Abs"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %o
  }} : (tensor<i1>) -> tensor<2xf32>
  onnx.return %r
}
"#,
    );
    let t = (0..model.ir.num_values())
        .map(Value::from_index)
        .find(|&v| model.ir.value(v).name.as_deref() == Some("t"))
        .expect("%t");
    append(&mut model, OpKind::Relu, t);
    let err = export_model(&model, &ExportOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"node "added" (Relu-14): input 0 is not defined before the op in its graph or a graph around it"#
    );
}
