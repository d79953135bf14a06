//! The `onnx-mlc` binary end to end: what it prints, and how it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn onnx_mlc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_onnx-mlc"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("the onnx-mlc binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Each hostile model (`tests/hostile/`, see its README) and a fragment of
/// the one-line error it must give: the specific problem, and where.
const HOSTILE: &[(&str, &str)] = &[
    ("attr_type_field_mismatch", r#"node "conv" (op Conv, domain "", opset 17): attribute "strides": type INTS but field f (FLOAT) holds a value"#),
    ("concat_rank_mismatch", r#"node "concat" (Concat-13): input 1 has rank 3, input 0 rank 2"#),
    ("conv_channel_mismatch", r#"node "conv" (Conv-11): the input channels (weight 4 × group 1) must be 4, got 3"#),
    ("cycle", r#"graph "hostile": nodes form a cycle: node "add" (op Add, domain "", opset 17) -> node "relu""#),
    ("dims_overflow", r#"tensor "W": invalid shape [1099511627776, 1099511627776]"#),
    ("duplicate_graph_output", r#"graph "hostile": output "Y" is listed twice"#),
    ("duplicate_initializer", r#"graph "hostile": initializer "W" is defined twice"#),
    ("duplicate_opset_import", r#"the model imports domain "" twice, as opset 17 and 13"#),
    ("duplicate_output_name", r#"node "b" (op Neg, domain "", opset 17): output "t" is already an output of node "a""#),
    ("empty", "the model has no graph"),
    ("ext_absolute_path", r#"tensor "W": external data /etc/passwd: absolute locations are not allowed"#),
    ("ext_checksum_mismatch", "ext_data.bin: checksum mismatch: expected SHA-1 0000000000000000000000000000000000000000"),
    ("ext_length_mismatch", r#"tensor "W": tensor of type f32 and shape [4] needs 16 bytes of data, got 12"#),
    ("ext_length_past_end", "ext_data.bin: offset 56 and length 16 reach past the end of the file (64 bytes)"),
    ("ext_missing_file", "missing.bin: No such file or directory"),
    ("ext_no_location", r#"tensor "W": data_location is EXTERNAL but external_data has no `location`"#),
    ("ext_offset_past_end", "ext_data.bin: offset 4096 and length 16 reach past the end of the file (64 bytes)"),
    ("ext_parent_path", r#"tensor "W": external data ../x: `..` components are not allowed"#),
    ("ext_symlink/model", "weights.bin: resolves to /etc/hostname, outside the model's folder"),
    ("function_recursion_direct", "recursive function call: local.F -> local.F"),
    ("function_recursion_mutual", "recursive function call: local.F -> local.G -> local.F"),
    ("function_wrong_arity", r#"node "call_f" (op F, domain "local", opset 1): function "local.F" takes 1 inputs and 1 outputs, the node has 2 and 1"#),
    ("garbage", "garbage.onnx: malformed or truncated protobuf: failed to decode Protobuf message: invalid wire type value: 7"),
    ("graph_input_without_type", r#"graph "hostile": input "X" has no type"#),
    ("huge_length", "huge_length.onnx: malformed or truncated protobuf: failed to decode Protobuf message: ModelProto.graph: buffer underflow"),
    ("if_branch_output_count", r#"error[control-flow]: unnamed node (If-16): else_branch "e" has 2 outputs, but the If has 1 results"#),
    ("invalid_utf8", "NodeProto.name: GraphProto.node: ModelProto.graph: invalid string value: data is not UTF-8 encoded"),
    ("ir_version_unsupported", "IR version 99 is not supported (1 to 14)"),
    ("loop_body_signature", r#"error[control-flow]: unnamed node (Loop-16): body "body" takes 1 inputs, but the Loop passes 2 + 1 (iteration number, condition, 1 loop-carried values)"#),
    ("matmul_dim_mismatch", r#"node "matmul" (MatMul-13): the inner dims of [2, 3] and [4, 5]: 3 and 4 differ"#),
    ("missing_required_attribute", r#"error[missing-attr]: node "cast" (Cast-13): required attribute "to" is missing"#),
    ("negative_dim", r#"tensor "W": invalid shape [-1, 4]"#),
    ("nested_if_10000", "nested_if_10000.onnx: malformed or truncated protobuf: failed to decode Protobuf message: GraphProto.node: AttributeProto.g"),
    ("nested_if_200", "nested_if_200.onnx: malformed or truncated protobuf: failed to decode Protobuf message: GraphProto.node: AttributeProto.g"),
    ("no_default_opset", r#"node "relu" (op Relu, domain ""): domain "" is not imported (no opset_import for it)"#),
    ("node_output_shadows_input", r#"node "relu" (op Relu, domain "", opset 17): output "X" is already defined in this graph"#),
    ("op_not_in_opset", r#"node "gelu" (op Gelu, domain "", opset 17): operator not defined at opset 17 (it was introduced in opset 20)"#),
    ("opset_too_new", r#"the model imports opset 99 of domain "": this compiler knows opsets 1 to 28 of it"#),
    ("overlong_varint", "overlong_varint.onnx: malformed or truncated protobuf: failed to decode Protobuf message: ModelProto.ir_version: invalid varint"),
    ("raw_data_length_mismatch", r#"tensor "W": tensor of type f32 and shape [4, 4] needs 64 bytes of data, got 10"#),
    ("reshape_two_minus_one", r#"node "reshape" (Reshape-14): target shape [-1, -1] has more than one -1"#),
    ("sparse_indices_out_of_range", r#"tensor "W": sparse tensor: an index is out of range for shape [3, 4]"#),
    ("string_in_raw_data", r#"tensor "W": data is in raw_data, which does not hold string"#),
    ("subgraph_undefined_outer", r#"node #0 (op Identity, domain "", opset 17): input "ghost" is not defined"#),
    ("too_many_inputs", r#"error[arity]: node "relu" (Relu-14): has 2 inputs, Relu takes 1"#),
    ("truncated_in_tensor", "truncated_in_tensor.onnx: malformed or truncated protobuf: failed to decode Protobuf message: ModelProto.graph: buffer underflow"),
    ("type_mismatch", r#"error[type-constraint]: node "add" (Add-14): input 1 ("I") has type tensor<4xi64>, but input 0 ("X") has type tensor<4xf32>"#),
    ("undefined_graph_output", r#"graph "hostile": output "Z" is not defined"#),
    ("undefined_node_input", r#"node "add" (op Add, domain "", opset 17): input "nope" is not defined"#),
    ("unknown_attribute", r#"error[attr-name]: node "relu" (Relu-14): unknown attribute "alpha""#),
    ("unknown_domain", r#"node #0 (op Relu, domain "com.example.nope", opset 1): unknown domain "com.example.nope""#),
    ("unknown_op", r#"node "frob" (op Frobnicate, domain "", opset 17): unknown operator"#),
    ("wrong_attr_type", r#"error[attr-kind]: node "conv" (Conv-11): attribute "strides" must be INTS, got FLOAT"#),
    ("wrong_wire_type", "wrong_wire_type.onnx: malformed or truncated protobuf: failed to decode Protobuf message: ModelProto.ir_version: invalid wire type: LengthDelimited (expected Varint)"),
];

#[test]
fn every_hostile_model_gets_its_specific_one_line_error() {
    let dir = repo().join("tests/hostile");
    let mut listed: Vec<String> = HOSTILE.iter().map(|(f, _)| format!("{f}.onnx")).collect();
    listed.sort();
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/hostile")
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            if e.path().is_dir() {
                Some(format!("{name}/model.onnx"))
            } else {
                name.ends_with(".onnx").then_some(name)
            }
        })
        .collect();
    on_disk.sort();
    assert_eq!(
        listed, on_disk,
        "every hostile model has an expected error here"
    );
    let mut wrong = vec![];
    for (file, fragment) in HOSTILE {
        let path = format!("tests/hostile/{file}.onnx");
        let out = onnx_mlc(&[&path, "--emit", "onnx"]);
        let err = stderr(&out);
        let first = err.lines().next().unwrap_or("");
        let problem = if out.status.code() != Some(1) {
            Some(format!(
                "exit status {:?} (a panic is 101)",
                out.status.code()
            ))
        } else if err.lines().count() != 1 || !first.contains("error") {
            Some(format!("not a one-line error: {err:?}"))
        } else if !first.contains(fragment) {
            Some(format!("error {first:?} lacks {fragment:?}"))
        } else {
            None
        };
        if let Some(p) = problem {
            wrong.push(format!("{file}: {p}"));
        }
        assert!(
            out.stdout.is_empty(),
            "{file}: nothing is printed for a rejected model"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn emits_the_dialect_that_parses_back() {
    let out = onnx_mlc(&[
        "tests/models/default/model.onnx",
        "--emit",
        "onnx",
        "--no-elide",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("onnx.model {ir_version = 8, opset_imports = {\"\" = 17}"),
        "{text}"
    );
    assert!(
        text.contains(r#""onnx.Conv"(%image, %features.0.weight"#),
        "{text}"
    );
    assert!(text.contains("-> (\"logits\": tensor<1x10xf32>)"), "{text}");
    let model = onnx_mlc_dialect::parse_model(&text).expect("the emitted text parses");
    assert_eq!(
        onnx_mlc_dialect::print_model(&model, &Default::default()),
        text
    );
}

#[test]
fn prints_after_the_passes_asked_for() {
    let out = onnx_mlc(&[
        "tests/models/default/model.onnx",
        "--print-ir-after=infer-shapes",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.matches("// -----// IR after").count(), 1, "{err}");
    assert!(err.contains("IR after infer-shapes"));
    let all = onnx_mlc(&["tests/models/default/model.onnx", "--print-ir-after=all"]);
    let passes = onnx_mlc_dialect::passes::DEFAULT_PIPELINE.len();
    assert_eq!(stderr(&all).matches("// -----// IR after").count(), passes);
    let bad = onnx_mlc(&["tests/models/default/model.onnx", "--print-ir-after=nope"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("unknown pass 'nope'"));
}

#[test]
fn inspect_summarizes_the_model() {
    let out = onnx_mlc(&["inspect", "tests/models/default/model.onnx"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "ir_version: 8",
        "opsets:     ai.onnx 17",
        "  image: tensor<1x3x32x32xf32>",
        "  logits: tensor<1x10xf32>",
        "ops:        19 (7 kinds, 0 subgraphs)",
        "       4  Conv",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
}

#[test]
fn usage_errors_and_help() {
    let help = onnx_mlc(&["--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("Examples:"));
    let none = onnx_mlc(&[]);
    assert_eq!(none.status.code(), Some(1));
    assert!(stderr(&none).contains("no model given"));
    let bad_flag = onnx_mlc(&["--frobnicate"]);
    assert_eq!(bad_flag.status.code(), Some(2));
    let missing = onnx_mlc(&["no/such/model.onnx"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("no/such/model.onnx"),
        "{}",
        stderr(&missing)
    );
}

/// A fresh folder for one test's outputs.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onnx-mlc-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

#[test]
fn emits_an_onnx_model_that_compiles_to_the_same_dialect() {
    let dir = scratch("onnx-proto");
    let model = "tests/models/default/model.onnx";
    let dialect = |path: &str| {
        let out = onnx_mlc(&[path, "--emit", "onnx", "--no-elide"]);
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        stdout(&out)
    };
    let original = dialect(model);
    for (file, extra) in [
        ("inline.onnx", None),
        ("external.onnx", Some("--external-data")),
    ] {
        let path = dir.join(file);
        let path = path.to_str().expect("a UTF-8 temporary path");
        let mut args = vec![model, "--emit", "onnx-proto", "-o", path];
        args.extend(extra);
        let out = onnx_mlc(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert_eq!(dialect(path), original, "{file}");
    }
    // The weights (about 280 KB) moved to external.onnx.data.
    let size = |f: &str| std::fs::metadata(dir.join(f)).map(|m| m.len()).unwrap_or(0);
    assert!(
        size("external.onnx.data") > 4096,
        "no external data written"
    );
    assert!(size("external.onnx") + 4096 < size("inline.onnx"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn onnx_proto_needs_an_output_file() {
    let out = onnx_mlc(&["tests/models/default/model.onnx", "--emit", "onnx-proto"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--output"), "{}", stderr(&out));
    let out = onnx_mlc(&["tests/models/default/model.onnx", "--external-data"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--external-data applies to --emit onnx-proto only"),
        "{}",
        stderr(&out)
    );
}
