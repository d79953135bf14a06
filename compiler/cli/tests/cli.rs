//! The `onnx-mlc` binary end to end: what it prints, and how it fails.

use std::path::Path;
use std::process::Output;

// Each test binary uses its own subset of the shared helpers.
#[allow(dead_code)]
mod common;
use common::{onnx_mlc, repo, scratch, unsupported_model};

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
        // The plan that is compiled: the optimizer has folded each BN into
        // its Conv and fused the Relus (4 FusedConv, 1 FusedGemm), so the
        // plan fuses nothing more. 4 Conv, 2 MaxPool, GlobalAveragePool, 2
        // Gemm; Flatten is a view. Intermediates: 64 + 16 + 32 + 8 + 16 +
        // 16 KiB + 256 + 512 B; in a chain the peak is the largest pair
        // live at once, conv1's output and the first pooling's (64 + 16).
        "plan:       9 kernels (0 fused ops, 1 view), workspace 80.0 KiB (naive 152.8 KiB, 1.9x less)",
        "kernels:    4 FusedConv, 2 MaxPool, 1 FusedGemm, 1 Gemm, 1 GlobalAveragePool",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
}

#[test]
fn inspect_shows_the_plan_the_optimizer_leaves() {
    let out = onnx_mlc(&["inspect", "tests/models/default/model.onnx", "--no-egraph"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Without the optimizer the plan fuses each BN and Relu into the
    // kernel of the op before it; the model's own summary is the same.
    for line in [
        "       4  Conv",
        "plan:       9 kernels (9 fused ops, 1 view), workspace 80.0 KiB (naive 152.8 KiB, 1.9x less)",
        "kernels:    4 Conv, 2 Gemm, 2 MaxPool, 1 GlobalAveragePool",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    assert!(!text.contains("Fused"), "{text}");
}

/// The MLP with a quantization annotation, which the importer accepts
/// with a warning, written into `dir`.
fn model_with_a_warning(dir: &Path) -> String {
    use onnx_mlc_proto::{Message, ModelProto, TensorAnnotation};
    let bytes = std::fs::read(repo().join(MLP)).unwrap();
    let mut proto = ModelProto::decode(bytes.as_slice()).unwrap();
    let graph = proto.graph.as_mut().unwrap();
    graph.quantization_annotation.push(TensorAnnotation {
        tensor_name: "y".into(),
        quant_parameter_tensor_names: vec![],
    });
    let path = dir.join("annotated.onnx");
    std::fs::write(&path, proto.encode_to_vec()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn importer_warnings_are_printed_and_strict_refuses_them() {
    let dir = scratch("strict");
    let model = model_with_a_warning(&dir);
    let out_dir = dir.join("out");
    let out_str = out_dir.to_str().unwrap();
    let input = mlp_data("input_0.pb");
    let warning = "quantization annotations are not imported";
    let library = dir.join("libannotated.so");

    // Without --strict every subcommand prints the warning, after its work.
    let runs: &[&[&str]] = &[
        &["run", &model, "--out", out_str, &input],
        &["bench", &model, "--runs", "1", "--threads", "1"],
        &["inspect", &model],
        &[&model, "--emit", "onnx"],
    ];
    for args in runs {
        let out = onnx_mlc(args);
        let err = stderr(&out);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(
            err.lines()
                .any(|l| l.starts_with("warning: ") && l.contains(warning)),
            "{args:?}: {err}"
        );
    }
    assert!(out_dir.join("output_0.pb").exists());

    // With --strict the warning is an error, in each command's style.
    let strict: &[(&[&str], &str)] = &[
        (
            &["run", &model, "--out", out_str, &input, "--strict"],
            "ERROR: ",
        ),
        (&["bench", &model, "--runs", "1", "--strict"], "ERROR: "),
        (&["inspect", &model, "--strict"], "error: "),
        (&[&model, "--strict"], "error: "),
        (
            &[&model, "--strict", "-o", library.to_str().unwrap()],
            "error: ",
        ),
    ];
    for (args, style) in strict {
        let out = onnx_mlc(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("{style}strict import: ")) && first.contains(warning),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!library.exists());
    std::fs::remove_dir_all(&dir).unwrap();
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

// ---------------------------------------------------------------------------
// `run`, `bench` and the code-generation stages.

/// The MLP of `tools/make_mlp.py`, with onnxruntime's output on a seeded
/// input checked in beside it.
const MLP: &str = "tests/models/mlp/model.onnx";

fn mlp_data(file: &str) -> String {
    format!("tests/models/mlp/test_data_set_0/{file}")
}

fn tensor(path: &Path) -> onnx_mlc_dialect::TensorData {
    match onnx_mlc_import::read_value(path, &onnx_mlc_dialect::Type::Unknown) {
        Ok(onnx_mlc_import::TestValue::Tensor(t)) => t,
        other => panic!("{}: {other:?}", path.display()),
    }
}

/// Whether `got` matches onnxruntime's `want` (rel. 1e-3, abs. 1e-4).
fn assert_close(got: &onnx_mlc_dialect::TensorData, want: &onnx_mlc_dialect::TensorData) {
    assert_eq!((got.elem, &got.dims), (want.elem, &want.dims));
    let (g, w) = (got.to_f64s().unwrap(), want.to_f64s().unwrap());
    for (j, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!((a - b).abs() <= 1e-4 + 1e-3 * b.abs(), "[{j}]: {a} vs {b}");
    }
}

/// A `.npy` file (format 1.0) of little-endian f32s.
fn npy_f32(shape: &[i64], values: &[f32]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
    let mut header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        dims.join(", ")
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend_from_slice(&(header.len() as u16).to_le_bytes());
    b.extend_from_slice(header.as_bytes());
    for v in values {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b
}

#[test]
fn run_writes_outputs_that_match_onnxruntime() {
    let dir = scratch("run");
    let out_dir = dir.join("out");
    let out_str = out_dir.to_str().unwrap();
    let input = mlp_data("input_0.pb");
    let want = tensor(&repo().join(mlp_data("output_0.pb")));

    let out = onnx_mlc(&["run", MLP, "--out", out_str, &input]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let files: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
    assert_eq!(files.len(), 1, "one file per graph output");
    let proto = std::fs::read(out_dir.join("output_0.pb")).unwrap();
    let decoded =
        <onnx_mlc_proto::TensorProto as onnx_mlc_proto::Message>::decode(proto.as_slice()).unwrap();
    assert_eq!(decoded.name, "y", "outputs carry the graph output's name");
    let got = tensor(&out_dir.join("output_0.pb"));
    assert_close(&got, &want);

    // Through a shared library instead of the JIT.
    let aot_dir = dir.join("aot");
    let out = onnx_mlc(&[
        "run",
        MLP,
        "--aot",
        "--out",
        aot_dir.to_str().unwrap(),
        &input,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_close(&tensor(&aot_dir.join("output_0.pb")), &want);

    // The same input as .npy, 2 threads, no optimizer, .npy outputs.
    let x = tensor(&repo().join(&input));
    let npy = dir.join("x.npy");
    std::fs::write(&npy, npy_f32(&x.dims, &x.to_vec::<f32>().unwrap())).unwrap();
    let out = onnx_mlc(&[
        "run",
        MLP,
        "--out",
        out_str,
        npy.to_str().unwrap(),
        "--threads",
        "2",
        "--no-egraph",
        "--npy",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(out_dir.join("output_0.npy")).unwrap();
    assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(
        header.contains("'descr': '<f4'") && header.contains("'shape': (4, 10)"),
        "{header}"
    );
    let values: Vec<f64> = bytes[10 + header_len..]
        .chunks(4)
        .map(|c| f64::from(f32::from_le_bytes(c.try_into().unwrap())))
        .collect();
    let expected = want.to_f64s().unwrap();
    assert_eq!(values.len(), expected.len());
    for (a, b) in values.iter().zip(&expected) {
        assert!((a - b).abs() <= 1e-4 + 1e-3 * b.abs(), "{a} vs {b}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The MLP as skl2onnx and many torch exports write the batch: the
/// input's first dim with neither `dim_value` nor `dim_param`, the
/// output's named by a formula no input defines. It compiles (the unnamed
/// dim is a symbol bound from the input), `inspect` says where the symbol
/// comes from, and JIT and AOT runs match onnxruntime.
#[test]
fn a_model_with_an_unnamed_batch_dim_runs_and_inspect_names_its_symbol() {
    use onnx_mlc_proto::tensor_shape_proto::dimension::Value as DimValue;
    use onnx_mlc_proto::type_proto::Value as TypeValue;
    use onnx_mlc_proto::{Message, ModelProto};
    let dir = scratch("unnamed");
    let bytes = std::fs::read(repo().join(MLP)).unwrap();
    let mut proto = ModelProto::decode(bytes.as_slice()).unwrap();
    let graph = proto.graph.as_mut().unwrap();
    let set_dim = |vi: &mut onnx_mlc_proto::ValueInfoProto, value: Option<DimValue>| {
        let Some(TypeValue::TensorType(t)) = vi.r#type.as_mut().and_then(|t| t.value.as_mut())
        else {
            panic!("the MLP's values are tensors")
        };
        t.shape.as_mut().unwrap().dim[0].value = value;
    };
    set_dim(&mut graph.input[0], None);
    set_dim(
        &mut graph.output[0],
        Some(DimValue::DimParam("4*batch".into())),
    );
    let name = graph.input[0].name.clone();
    let model = dir.join("unnamed.onnx");
    std::fs::write(&model, proto.encode_to_vec()).unwrap();
    let model = model.to_str().unwrap();

    let out = onnx_mlc(&["inspect", model]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = format!("  \"?{name}.0\": input {name}, dim 0 (unnamed in the model)");
    assert!(
        stdout(&out).lines().any(|l| l == line),
        "missing {line:?} in\n{}",
        stdout(&out)
    );

    let input = mlp_data("input_0.pb");
    let want = tensor(&repo().join(mlp_data("output_0.pb")));
    for (mode, extra) in [("jit", None), ("aot", Some("--aot"))] {
        let out_dir = dir.join(mode);
        let mut args = vec!["run", model, "--out", out_dir.to_str().unwrap(), &input];
        args.extend(extra);
        let out = onnx_mlc(&args);
        assert!(out.status.success(), "{mode}: {}", stderr(&out));
        assert_close(&tensor(&out_dir.join("output_0.pb")), &want);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_reports_unsupported_models_with_exit_3() {
    let dir = scratch("run-unsupported");
    let model = unsupported_model(&dir);
    let out_dir = dir.join("out");
    let out = onnx_mlc(&[
        "run",
        model.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "input_0.pb",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with("UNSUPPORTED: "), "{err}");
    assert!(first.contains("Det"), "{err}");
    assert!(!out_dir.exists(), "no outputs");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_failures_are_errors() {
    let dir = scratch("run-errors");
    let out_dir = dir.join("out");
    let out_str = out_dir.to_str().unwrap();
    let input = mlp_data("input_0.pb");
    let wrong_shape = dir.join("wrong.npy");
    std::fs::write(&wrong_shape, npy_f32(&[2, 64], &[0.0; 128])).unwrap();
    let garbage = dir.join("garbage.pb");
    std::fs::write(&garbage, b"\xff\xff\xff").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["run", MLP, "--out", out_str], "expected 1 inputs, got 0"),
        (
            &["run", MLP, "--out", out_str, &input, &input],
            "expected 1 inputs, got 2",
        ),
        (
            &["run", MLP, "--out", out_str, "no/such.pb"],
            "input 0 (no/such.pb)",
        ),
        (
            &["run", MLP, "--out", out_str, wrong_shape.to_str().unwrap()],
            "dim 0 must be 4, got 2",
        ),
        (
            &["run", MLP, "--out", out_str, garbage.to_str().unwrap()],
            "input 0",
        ),
        (
            &["run", "no/such/model.onnx", "--out", out_str, &input],
            "no/such/model.onnx",
        ),
        (
            &[
                "run",
                "tests/hostile/garbage.onnx",
                "--out",
                out_str,
                &input,
            ],
            "malformed or truncated protobuf",
        ),
        (
            &["run", MLP, "--out", out_str, &input, "--rules=nope"],
            "unknown rule set 'nope'",
        ),
    ];
    for (args, fragment) in cases {
        let out = onnx_mlc(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with("ERROR: "), "{args:?}: {err}");
        assert!(
            first.contains(fragment),
            "{args:?}: {err:?} lacks {fragment:?}"
        );
    }
    assert!(!out_dir.exists(), "a failed run writes nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_prints_latency_at_1_and_n_threads() {
    let out = onnx_mlc(&[
        "bench",
        MLP,
        "--runs",
        "5",
        "--warmup",
        "1",
        "--threads",
        "2",
        "--timings",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("model: {MLP}"));
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        [
            "threads",
            "median_ms",
            "min_ms",
            "p90_ms",
            "runs",
            "compile_s"
        ]
    );
    for (row, threads) in lines[2..].iter().zip(["1", "2"]) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[0], threads);
        let (median, min, p90): (f64, f64, f64) = (
            cells[1].parse().unwrap(),
            cells[2].parse().unwrap(),
            cells[3].parse().unwrap(),
        );
        assert!(0.0 < min && min <= median && median <= p90, "{row}");
        assert_eq!(cells[4], "5");
    }
    assert_eq!(lines.len(), 4, "{text}");
    // --timings: once per compilation.
    assert_eq!(
        stderr(&out).matches("total:").count(),
        2,
        "{}",
        stderr(&out)
    );

    // Given inputs instead of random ones; a failure is an ERROR.
    let input = mlp_data("input_0.pb");
    let out = onnx_mlc(&["bench", MLP, &input, "--runs", "2", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 3);
    let out = onnx_mlc(&["bench", MLP, "--aot", "--runs", "2", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 3);
    let out = onnx_mlc(&["bench", MLP, "--runs", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("ERROR: --runs must be at least 1"));
    let dir = scratch("bench-unsupported");
    let model = unsupported_model(&dir);
    let out = onnx_mlc(&["bench", model.to_str().unwrap(), "--runs", "1"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).starts_with("UNSUPPORTED: "));
}

/// A host program: a run-time `Loop` (a control-flow step whose body is a
/// segment) and a `Relu` after it (a segment of the main graph).
const LOOP: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%n: tensor<i64>, %x: tensor<2xf32>, %w: tensor<2xf32>) -> ("y": tensor<2xf32>) {
  %acc = "onnx.Loop"(%n, none, %x) {body = onnx.graph "body"(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) -> ("c_out": tensor<i1>, "a_out": tensor<2xf32>) {
    %m = "onnx.Mul"(%a, %w) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %a_out = "onnx.Neg"(%m) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.return %c, %a_out
  }} : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  %y = "onnx.Relu"(%acc) : (tensor<2xf32>) -> tensor<2xf32>
  onnx.return %y
}
"#;

#[test]
fn host_programs_run_the_front_end_once() {
    let dir = scratch("host-program");
    let model = common::model_file(&dir, LOOP);
    let model = model.to_str().unwrap();

    // The front end runs once for the whole model; each segment then gets
    // shape inference from its border, and the loop body's segment (which
    // the optimizer, main graph only, has not seen) the optimizer too.
    let out = onnx_mlc(&[model, "--emit", "plan", "--timings"]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    let stages: Vec<&str> = err
        .lines()
        .filter_map(|l| l.split(':').next())
        .map(str::trim)
        .collect();
    let count = |stage: &str| stages.iter().filter(|s| **s == stage).count();
    assert_eq!(
        (
            count("onnx"),
            count("partition"),
            count("infer"),
            count("opt")
        ),
        (1, 1, 2, 2),
        "{err}"
    );
    assert_eq!(count("plan"), 2, "one plan per segment: {err}");
    assert!(
        text.contains("// segment 0\nplan: ") && text.contains("// segment 1\nplan: "),
        "{text}"
    );

    // And it runs: a ← -(a·w) three times from x, then Relu.
    let trip_count = onnx_mlc_proto::TensorProto {
        data_type: 7,
        int64_data: vec![3],
        name: "n".into(),
        ..Default::default()
    };
    let n = dir.join("n.pb");
    std::fs::write(&n, onnx_mlc_proto::Message::encode_to_vec(&trip_count)).unwrap();
    let (x, w) = (dir.join("x.npy"), dir.join("w.npy"));
    std::fs::write(&x, npy_f32(&[2], &[1.0, 2.0])).unwrap();
    std::fs::write(&w, npy_f32(&[2], &[2.0, -1.0])).unwrap();
    let out_dir = dir.join("out");
    for mode in [&[][..], &["--aot"][..]] {
        let mut args = vec!["run", model, "--npy", "--out", out_dir.to_str().unwrap()];
        args.extend([
            n.to_str().unwrap(),
            x.to_str().unwrap(),
            w.to_str().unwrap(),
        ]);
        args.extend(mode);
        let out = onnx_mlc(&args);
        assert!(out.status.success(), "{mode:?}: {}", stderr(&out));
        let bytes = std::fs::read(out_dir.join("output_0.npy")).unwrap();
        let values: Vec<f32> = bytes[bytes.len() - 8..]
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        // [1, 2] → [-2, 2] → [4, 2] → [-8, 2]; Relu → [0, 2].
        assert_eq!(values, [0.0, 2.0], "{mode:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn emits_every_stage() {
    let emit = |stage: &str, extra: &[&str]| {
        let mut args = vec![MLP, "--emit", stage];
        args.extend(extra);
        let out = onnx_mlc(&args);
        assert!(out.status.success(), "--emit {stage}: {}", stderr(&out));
        (stdout(&out), stderr(&out))
    };
    for (stage, fragment) in [
        ("onnx", "\"onnx.Gemm\""),
        ("opt", "\"onnx.Gemm\""),
        ("plan", "kernel"),
        ("linalg", "linalg."),
        ("affine", "scf.for"),
        ("llvm-mlir", "llvm.func"),
        ("llvm", "define"),
    ] {
        let (text, err) = emit(stage, &[]);
        assert!(
            text.contains(fragment),
            "--emit {stage} lacks {fragment:?}:\n{text}"
        );
        assert!(err.is_empty(), "--emit {stage}: {err}");
    }
    // The stages are generated for --target (AArch64's NEON vectors here).
    let (native, _) = emit("affine", &[]);
    let (arm, _) = emit("affine", &["--target", "aarch64"]);
    assert!(arm.contains("vector<") && arm != native);
    let (dot, _) = emit("dot", &[]);
    assert_eq!(
        dot.matches("digraph").count(),
        2,
        "before and after:\n{dot}"
    );

    // Dumps before the emitted stage, per-stage timings, the optimizer's report.
    let (text, err) = emit(
        "linalg",
        &[
            "--print-ir-after=plan",
            "--print-ir-after=infer-shapes",
            "--timings",
            "--opt-report",
        ],
    );
    assert!(text.contains("linalg."));
    assert!(
        err.contains("// -----// IR after infer-shapes //----- //"),
        "{err}"
    );
    assert!(err.contains("// -----// IR after plan //----- //"), "{err}");
    assert_eq!(err.matches("// -----// IR after").count(), 2, "{err}");
    for stage in ["onnx:", "opt:", "plan:", "linalg:", "total:"] {
        assert!(err.contains(stage), "--timings lacks {stage}: {err}");
    }
    assert!(
        !err.contains("affine:"),
        "stages after the emitted one do not run: {err}"
    );
    assert!(
        err.contains("e-graph optimizer: rules algebraic,canonical,fusion,layout"),
        "{err}"
    );
    let (_, err) = emit("opt", &["--no-egraph", "--opt-report"]);
    assert!(err.contains("e-graph optimizer: skipped"), "{err}");
    let (_, err) = emit(
        "opt",
        &[
            "--rules=all",
            "--egraph-limits=iterations=2",
            "--opt-report",
        ],
    );
    assert!(err.contains("iterations=2"), "{err}");

    // Bad controls are errors naming the flag's value.
    for (args, fragment) in [
        (
            &[MLP, "--emit", "plan", "--print-ir-after=affine"][..],
            "comes after the one emitted",
        ),
        (&[MLP, "--rules=bogus"][..], "unknown rule set 'bogus'"),
        (&[MLP, "--egraph-limits=bogus"][..], "bogus"),
    ] {
        let out = onnx_mlc(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains(fragment),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // A model whose kernels do not lower still shows its plan; lowering it
    // is a clean "unsupported".
    let dir = scratch("emit-unsupported");
    let model = unsupported_model(&dir);
    let model = model.to_str().unwrap();
    let out = onnx_mlc(&[model, "--emit", "plan"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = onnx_mlc(&[model, "--emit", "linalg"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("UNSUPPORTED: "),
        "{}",
        stderr(&out)
    );
}
