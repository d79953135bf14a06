//! Malformed and hostile files: errors that say what is wrong, never a
//! panic or a stack overflow.

use onnx_mlc_import::{import_model, load_model, ImportOptions};
use onnx_mlc_proto::{Message, ModelProto};

use super::build::*;

fn relu_model() -> ModelProto {
    model(graph(
        "main",
        vec![named("r", node("Relu", &["x"], &["y"]))],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ))
}

fn load(path: &std::path::Path) -> String {
    match load_model(path, &ImportOptions::default()) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn files_load() {
    let dir = temp_dir("files_load");
    let path = dir.join("relu.onnx");
    std::fs::write(&path, relu_model().encode_to_vec()).unwrap();
    let imported = load_model(&path, &ImportOptions::default()).unwrap();
    assert_eq!(op_names(&imported.model, imported.model.graph), ["Relu"]);
}

#[test]
fn missing_files_name_the_path() {
    let path = temp_dir("missing").join("nothing.onnx");
    assert_eq!(
        load(&path),
        format!("{}: No such file or directory (os error 2)", path.display())
    );
}

#[test]
fn truncated_and_malformed_files_say_so() {
    let dir = temp_dir("truncated");
    let bytes = relu_model().encode_to_vec();
    let path = dir.join("truncated.onnx");
    std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
    let message = load(&path);
    assert_has(
        &message,
        &format!(
            "{}: malformed or truncated protobuf: failed to decode Protobuf message",
            path.display()
        ),
    );

    let path = dir.join("garbage.onnx");
    std::fs::write(&path, b"\xff\xff\xff\xff not a model").unwrap();
    assert_has(&load(&path), "malformed or truncated protobuf");
}

/// Appends a protobuf varint.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn varint_len(v: u64) -> u64 {
    let mut out = vec![];
    varint(&mut out, v);
    out.len() as u64
}

/// Appends a length-delimited field (string, bytes or message).
fn field(out: &mut Vec<u8>, tag: u64, bytes: &[u8]) {
    varint(out, tag << 3 | 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// The bytes of a model whose graph holds an `If` whose `then_branch`
/// holds an `If` … `depth` times. Written front to back with precomputed
/// lengths, without recursion and in linear time.
fn nested_if_model(depth: usize) -> Vec<u8> {
    // Fixed parts of each level, each message's nested field last:
    // NodeProto { input: "c", output: "y", op_type: "If", attribute: <attr> }
    let mut node_head = vec![];
    field(&mut node_head, 1, b"c");
    field(&mut node_head, 2, b"y");
    field(&mut node_head, 4, b"If");
    // AttributeProto { name: "then_branch", type: GRAPH, g: <graph> }
    let mut attr_head = vec![];
    field(&mut attr_head, 1, b"then_branch");
    varint(&mut attr_head, 20 << 3);
    varint(&mut attr_head, 5);
    let mut innermost = vec![];
    field(&mut innermost, 2, b"leaf");

    // Lengths from the inside out: graph[k] holds node[k] holds attr[k] holds graph[k - 1].
    let (mut graph, mut nodes, mut attrs) = (vec![innermost.len() as u64], vec![0], vec![0]);
    for k in 1..=depth {
        let g = graph[k - 1];
        let a = attr_head.len() as u64 + 1 + varint_len(g) + g;
        let n = node_head.len() as u64 + 1 + varint_len(a) + a;
        attrs.push(a);
        nodes.push(n);
        graph.push(1 + varint_len(n) + n);
    }
    let mut out = vec![];
    varint(&mut out, 1 << 3); // ir_version = 10
    varint(&mut out, 10);
    let mut opset = vec![];
    varint(&mut opset, 2 << 3); // OperatorSetIdProto.version = 17
    varint(&mut opset, 17);
    field(&mut out, 8, &opset);
    varint(&mut out, 7 << 3 | 2); // ModelProto.graph
    varint(&mut out, graph[depth]);
    for k in (1..=depth).rev() {
        varint(&mut out, 1 << 3 | 2); // GraphProto.node
        varint(&mut out, nodes[k]);
        out.extend_from_slice(&node_head);
        varint(&mut out, 5 << 3 | 2); // NodeProto.attribute
        varint(&mut out, attrs[k]);
        out.extend_from_slice(&attr_head);
        varint(&mut out, 6 << 3 | 2); // AttributeProto.g
        varint(&mut out, graph[k - 1]);
    }
    out.extend_from_slice(&innermost);
    out
}

#[test]
fn the_nesting_builder_makes_valid_models() {
    let m = ModelProto::decode(nested_if_model(2).as_slice()).unwrap();
    let g = m.graph.unwrap();
    assert_eq!(g.node[0].op_type, "If");
    let inner = g.node[0].attribute[0].g.as_ref().unwrap();
    assert_eq!(inner.node[0].attribute[0].g.as_ref().unwrap().name, "leaf");
}

#[test]
fn ten_thousand_nested_ifs_are_an_error_not_a_stack_overflow() {
    let dir = temp_dir("deep");
    let path = dir.join("deep.onnx");
    std::fs::write(&path, nested_if_model(10_000)).unwrap();
    let message = load(&path);
    assert_has(
        &message,
        &format!("{}: malformed or truncated protobuf", path.display()),
    );
    assert_has(&message, "recursion limit reached");
}

#[test]
fn subgraph_nesting_is_bounded() {
    // Within prost's limit but deeper than the option allows.
    let dir = temp_dir("nesting");
    let path = dir.join("nested.onnx");
    std::fs::write(&path, nested_if_model(8)).unwrap();
    let options = ImportOptions {
        max_subgraph_depth: 5,
        ..Default::default()
    };
    let message = load_model(&path, &options).unwrap_err().to_string();
    assert_eq!(
        message,
        r#"node #0 (op If, domain "", opset 17): subgraphs nested deeper than 5"#
    );

    // Deep in-memory protos (no prost limit) stop at the default bound.
    let mut g = graph("leaf", vec![], vec![], vec![]);
    for _ in 0..200 {
        g = graph(
            "g",
            vec![with_attr(
                node("If", &["c"], &["y"]),
                attr_graph("then_branch", g),
            )],
            vec![],
            vec![],
        );
    }
    let message = import_model(&model(g), None, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        r#"node #0 (op If, domain "", opset 17): subgraphs nested deeper than 32"#
    );
}

#[test]
fn function_call_nesting_is_bounded() {
    // F0 calls F1 calls … F99: no recursion, but deeper than the bound.
    let functions = (0..100)
        .map(|i| {
            let callee = if i == 99 {
                node("Relu", &["a"], &["b"])
            } else {
                node(&format!("F{}", i + 1), &["a"], &["b"])
            };
            let mut callee = callee;
            if i != 99 {
                callee.domain = "local".into();
            }
            onnx_mlc_proto::FunctionProto {
                name: format!("F{i}"),
                domain: "local".into(),
                input: strs(&["a"]),
                output: strs(&["b"]),
                node: vec![callee],
                opset_import: vec![opset("", 17), opset("local", 1)],
                ..Default::default()
            }
        })
        .collect();
    let mut call = named("c", node("F0", &["x"], &["y"]));
    call.domain = "local".into();
    let mut m = model(graph(
        "g",
        vec![call],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    m.opset_import.push(opset("local", 1));
    m.functions = functions;
    assert_has(&err(&m), "function calls nested deeper than 32");
}
