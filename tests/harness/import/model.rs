//! Model fields, opset resolution, names, graph structure and types.

use onnx_mlc_dialect::ir::{RegionParent, ValueDef};
use onnx_mlc_dialect::{Attr, Dim, ElemType, OpKind, TensorType, Type};
use onnx_mlc_import::{import_model, ImportOptions};
use onnx_mlc_proto::type_proto::{self, Value as TypeValue};
use onnx_mlc_proto::*;

use super::build::*;

fn entry(key: &str, value: &str) -> StringStringEntryProto {
    StringStringEntryProto {
        key: key.into(),
        value: value.into(),
    }
}

fn relu_model() -> ModelProto {
    model(graph(
        "main",
        vec![named("r", node("Relu", &["x"], &["y"]))],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ))
}

#[test]
fn model_fields_and_metadata_are_kept() {
    let mut m = relu_model();
    m.producer_name = "pytorch".into();
    m.producer_version = "2.5".into();
    m.domain = "com.example".into();
    m.model_version = 3;
    m.doc_string = "model doc".into();
    m.metadata_props = vec![entry("author", "me")];
    let g = m.graph.as_mut().unwrap();
    g.doc_string = "graph doc".into();
    g.metadata_props = vec![entry("g", "1")];
    g.node[0].doc_string = "node doc".into();
    g.node[0].metadata_props = vec![entry("n", "2")];
    g.input[0].doc_string = "input doc".into();
    let model = ok(&m);
    assert_eq!(model.ir_version, 10);
    assert_eq!(
        (
            model.opset_imports[0].domain.as_str(),
            model.opset_imports[0].version
        ),
        ("", 17)
    );
    assert_eq!(
        (
            model.producer_name.as_str(),
            model.producer_version.as_str()
        ),
        ("pytorch", "2.5")
    );
    assert_eq!(
        (
            model.domain.as_str(),
            model.model_version,
            model.doc_string.as_str()
        ),
        ("com.example", 3, "model doc")
    );
    assert_eq!(
        model.metadata_props,
        [("author".to_string(), "me".to_string())]
    );
    let region = model.ir.region(model.graph);
    assert_eq!(region.name, "main");
    let meta = region.meta.as_ref().unwrap();
    assert_eq!(
        (meta.doc_string.as_str(), meta.metadata_props.as_slice()),
        ("graph doc", &[("g".to_string(), "1".to_string())][..])
    );
    let op = model.ir.op(op_named(&model, model.graph, "r"));
    assert_eq!(op.meta.as_ref().unwrap().doc_string, "node doc");
    assert_eq!(
        op.meta.as_ref().unwrap().metadata_props,
        [("n".to_string(), "2".to_string())]
    );
    let x = model.ir.region(model.graph).args[0].value;
    assert_eq!(
        model.ir.value(x).meta.as_ref().unwrap().doc_string,
        "input doc"
    );
}

#[test]
fn graph_inputs_outputs_and_ops() {
    let model = ok(&relu_model());
    let region = model.ir.region(model.graph);
    assert_eq!(region.args.len(), 1);
    let x = region.args[0].value;
    assert_eq!(model.ir.value(x).name.as_deref(), Some("x"));
    assert_eq!(model.ir.ty(x), &Type::tensor(ElemType::F32, &[2]));
    let relu = model.ir.op(region.ops[0]);
    assert_eq!(
        (relu.kind, relu.version, relu.name.as_str()),
        (OpKind::Relu, 14, "r")
    );
    assert_eq!(relu.inputs, [Some(x)]);
    let y = relu.results[0].unwrap();
    assert_eq!(region.outputs[0].name, "y");
    assert_eq!(region.outputs[0].value, y);
    assert_eq!(model.ir.value(y).def, ValueDef::Result(region.ops[0], 0));
}

#[test]
fn opsets_select_the_schema_version() {
    let clip = |version| {
        let mut m = model(graph(
            "g",
            vec![node("Clip", &["x"], &["y"])],
            vec![fvalue("x", &["2"])],
            vec![fvalue("y", &["2"])],
        ));
        m.opset_import = vec![opset("", version)];
        first_op(&ok(&m)).version
    };
    assert_eq!(clip(10), 6);
    assert_eq!(clip(17), 13);
    // "ai.onnx" is the default domain too.
    let mut m = relu_model();
    m.opset_import = vec![opset("ai.onnx", 13)];
    m.graph.as_mut().unwrap().node[0].domain = "ai.onnx".into();
    assert_eq!(first_op(&ok(&m)).version, 13);

    let mut ml = model(graph(
        "g",
        vec![node("Scaler", &["x"], &["y"])],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    ml.graph.as_mut().unwrap().node[0].domain = "ai.onnx.ml".into();
    ml.opset_import.push(opset("ai.onnx.ml", 3));
    assert_eq!(first_op(&ok(&ml)).kind, OpKind::Scaler);
}

/// The first op of the main graph.
fn first_op(m: &onnx_mlc_dialect::Model) -> &onnx_mlc_dialect::ir::OpData {
    m.ir.op(m.ir.region(m.graph).ops[0])
}

#[test]
fn unknown_operator_names_node_op_domain_and_opset() {
    let m = model(graph(
        "g",
        vec![named("foo", node("Frobnicate", &["x"], &["y"]))],
        vec![fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"node "foo" (op Frobnicate, domain "", opset 17): unknown operator"#
    );
}

#[test]
fn unnamed_nodes_are_named_by_index() {
    let m = model(graph(
        "g",
        vec![
            node("Relu", &["x"], &["a"]),
            node("Frobnicate", &["a"], &["y"]),
        ],
        vec![fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"node #1 (op Frobnicate, domain "", opset 17): unknown operator"#
    );
}

#[test]
fn unknown_and_unimported_domains() {
    let mut n = named("c", node("Foo", &["x"], &["y"]));
    n.domain = "com.example".into();
    let m = model(graph("g", vec![n], vec![fvalue("x", &["2"])], vec![]));
    assert_eq!(
        err(&m),
        r#"node "c" (op Foo, domain "com.example"): unknown domain "com.example" (and no model-local function "Foo" in it)"#
    );

    let mut n = named("s", node("Scaler", &["x"], &["y"]));
    n.domain = "ai.onnx.ml".into();
    let m = model(graph("g", vec![n], vec![fvalue("x", &["2"])], vec![]));
    assert_eq!(
        err(&m),
        r#"node "s" (op Scaler, domain "ai.onnx.ml"): domain "ai.onnx.ml" is not imported (no opset_import for it)"#
    );
}

#[test]
fn operator_newer_than_the_opset() {
    let m = model(graph(
        "g",
        vec![named("g0", node("Gelu", &["x"], &["y"]))],
        vec![fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"node "g0" (op Gelu, domain "", opset 17): operator not defined at opset 17 (it was introduced in opset 20)"#
    );
}

#[test]
fn conflicting_opset_imports() {
    let mut m = relu_model();
    m.opset_import = vec![opset("", 17), opset("ai.onnx", 13)];
    assert_eq!(
        err(&m),
        r#"the model imports domain "ai.onnx" twice, as opset 17 and 13"#
    );
}

#[test]
fn an_opset_imported_twice_at_one_version_is_kept_once() {
    // skl2onnx writes `""` twice.
    let mut m = relu_model();
    m.opset_import = vec![opset("", 17), opset("ai.onnx.ml", 1), opset("", 17)];
    let model = ok(&m);
    let domains: Vec<(&str, i64)> = model
        .opset_imports
        .iter()
        .map(|o| (o.domain.as_str(), o.version))
        .collect();
    assert_eq!(domains, [("", 17), ("ai.onnx.ml", 1)]);
    onnx_mlc_dialect::verify::verify_model(&model).unwrap();
}

#[test]
fn models_before_ir_3_use_opset_1() {
    let mut m = relu_model();
    m.ir_version = 2;
    m.opset_import.clear();
    let model = ok(&m);
    assert_eq!(first_op(&model).version, 1);
    assert!(model.opset_imports.is_empty(), "the import stays implied");
    let mut m = relu_model();
    m.opset_import.clear();
    assert_has(&err(&m), r#"domain "" is not imported"#);
}

#[test]
fn a_model_needs_a_graph() {
    assert_eq!(err(&ModelProto::default()), "the model has no graph");
}

#[test]
fn exporter_names_are_accepted_and_strict_names_warns() {
    let m = model(graph(
        "main_graph",
        vec![named(
            "/layer1/Conv",
            node("Relu", &["onnx::Gemm_12"], &["/layer1/Conv_output_0"]),
        )],
        vec![fvalue("onnx::Gemm_12", &["2"])],
        vec![fvalue("/layer1/Conv_output_0", &["2"])],
    ));
    let plain = import(&m).unwrap();
    assert!(plain.warnings.is_empty());
    assert_eq!(
        plain.model.ir.region(plain.model.graph).outputs[0].name,
        "/layer1/Conv_output_0"
    );

    let strict = import_model(
        &m,
        None,
        &ImportOptions {
            strict_names: true,
            ..Default::default()
        },
    )
    .unwrap();
    let warnings: Vec<String> = strict.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings
            .contains(&r#"graph input name "onnx::Gemm_12" is not a C90 identifier"#.to_string()),
        "{warnings:?}"
    );
    assert!(warnings
        .contains(&r#"value name "/layer1/Conv_output_0" is not a C90 identifier"#.to_string()));
    assert!(warnings.contains(&r#"node name "/layer1/Conv" is not a C90 identifier"#.to_string()));
    assert!(
        !warnings.iter().any(|w| w.contains("main_graph")),
        "main_graph is a C90 identifier"
    );
}

#[test]
fn unsorted_nodes_are_sorted() {
    // y = Relu(a) comes first in the file, a = Neg(x) second.
    let m = model(graph(
        "g",
        vec![
            named("relu", node("Relu", &["a"], &["y"])),
            named("neg", node("Neg", &["x"], &["a"])),
        ],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    let model = ok(&m);
    assert_eq!(op_names(&model, model.graph), ["Neg", "Relu"]);
}

#[test]
fn subgraph_uses_order_nodes_too() {
    // The If comes first, but its branch reads `a`, computed after it in the file.
    let then = graph(
        "then",
        vec![node("Identity", &["a"], &["t"])],
        vec![],
        vec![fvalue("t", &["2"])],
    );
    let els = graph(
        "else",
        vec![node("Neg", &["a"], &["e"])],
        vec![],
        vec![fvalue("e", &["2"])],
    );
    let iff = with_attr(
        with_attr(
            named("if", node("If", &["c"], &["y"])),
            attr_graph("then_branch", then),
        ),
        attr_graph("else_branch", els),
    );
    let m = model(graph(
        "g",
        vec![iff, named("neg", node("Neg", &["x"], &["a"]))],
        vec![fvalue("x", &["2"]), value("c", tensor_type(9, Some(&[])))],
        vec![fvalue("y", &["2"])],
    ));
    let model = ok(&m);
    assert_eq!(op_names(&model, model.graph), ["Neg", "If"]);
    let iff = model.ir.op(op_named(&model, model.graph, "if"));
    let then = iff.attrs.graph("then_branch").unwrap();
    assert_eq!(
        model.ir.region(then).parent,
        RegionParent::Op(op_named(&model, model.graph, "if"))
    );
    let a = model.ir.op(op_named(&model, model.graph, "neg")).results[0];
    assert_eq!(
        model.ir.op(model.ir.region(then).ops[0]).inputs,
        [a],
        "the branch reads the outer value"
    );
}

#[test]
fn cycles_are_errors_naming_the_nodes() {
    let m = model(graph(
        "g",
        vec![
            named("a", node("Relu", &["c_out"], &["a_out"])),
            named("b", node("Neg", &["a_out"], &["b_out"])),
            named("c", node("Abs", &["b_out"], &["c_out"])),
        ],
        vec![],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"graph "g": nodes form a cycle: node "a" (op Relu, domain "", opset 17) -> node "b" (op Neg, domain "", opset 17) -> node "c" (op Abs, domain "", opset 17) -> back to the first"#
    );
}

#[test]
fn undefined_inputs_are_errors() {
    let m = model(graph(
        "g",
        vec![named("n", node("Add", &["x", "nowhere"], &["y"]))],
        vec![fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"node "n" (op Add, domain "", opset 17): input "nowhere" is not defined"#
    );
}

#[test]
fn graph_outputs_must_be_defined() {
    let m = model(graph(
        "g",
        vec![],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    assert_eq!(err(&m), r#"graph "g": output "y" is not defined"#);
}

#[test]
fn a_value_is_defined_once() {
    let two_writers = model(graph(
        "g",
        vec![
            named("a", node("Relu", &["x"], &["y"])),
            named("b", node("Neg", &["x"], &["y"])),
        ],
        vec![fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(
        err(&two_writers),
        r#"node "b" (op Neg, domain "", opset 17): output "y" is already an output of node "a" (op Relu, domain "", opset 17)"#
    );

    let shadows_input = model(graph(
        "g",
        vec![named("a", node("Relu", &["x"], &["x"]))],
        vec![fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(
        err(&shadows_input),
        r#"node "a" (op Relu, domain "", opset 17): output "x" is already defined in this graph (input or initializer)"#
    );

    let mut shadows_init = model(graph(
        "g",
        vec![named("a", node("Relu", &["w"], &["w"]))],
        vec![],
        vec![],
    ));
    shadows_init
        .graph
        .as_mut()
        .unwrap()
        .initializer
        .push(floats("w", &[1], &[1.0]));
    assert_has(
        &err(&shadows_init),
        r#"output "w" is already defined in this graph"#,
    );

    // A node of a subgraph may not redefine an outer name either...
    let then = graph(
        "then",
        vec![named("inner", node("Neg", &["x"], &["x"]))],
        vec![],
        vec![fvalue("x", &["2"])],
    );
    let iff = with_attr(
        with_attr(
            named("if", node("If", &["c"], &["y"])),
            attr_graph("then_branch", then.clone()),
        ),
        attr_graph("else_branch", then),
    );
    let m = model(graph(
        "g",
        vec![iff],
        vec![fvalue("x", &["2"]), value("c", tensor_type(9, Some(&[])))],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"node "inner" (op Neg, domain "", opset 17): output "x" is already defined in an enclosing graph"#
    );

    let dup_init = {
        let mut m = relu_model();
        let g = m.graph.as_mut().unwrap();
        g.initializer = vec![floats("w", &[1], &[1.0]), floats("w", &[1], &[2.0])];
        m
    };
    assert_eq!(
        err(&dup_init),
        r#"graph "main": initializer "w" is defined twice"#
    );
}

#[test]
fn subgraph_inputs_may_shadow_outer_names() {
    // A Loop body's inputs are named like outer values: allowed (as the ONNX checker does).
    let body = graph(
        "body",
        vec![
            node("Identity", &["cond"], &["cond_out"]),
            node("Add", &["x", "x"], &["x_out"]),
        ],
        vec![
            value("i", tensor_type(7, Some(&[]))),
            value("cond", tensor_type(9, Some(&[]))),
            fvalue("x", &["2"]),
        ],
        vec![
            value("cond_out", tensor_type(9, Some(&[]))),
            fvalue("x_out", &["2"]),
        ],
    );
    let lp = with_attr(
        named("loop", node("Loop", &["n", "cond", "x"], &["y"])),
        attr_graph("body", body),
    );
    let m = model(graph(
        "g",
        vec![lp],
        vec![
            value("n", tensor_type(7, Some(&[]))),
            value("cond", tensor_type(9, Some(&[]))),
            fvalue("x", &["2"]),
        ],
        vec![fvalue("y", &["2"])],
    ));
    let model = ok(&m);
    let body = model
        .ir
        .op(op_named(&model, model.graph, "loop"))
        .attrs
        .graph("body")
        .unwrap();
    let inner_x = model.ir.region(body).args[2].value;
    let add = model.ir.op(model.ir.region(body).ops[1]);
    assert_eq!(
        add.inputs,
        [Some(inner_x), Some(inner_x)],
        "the body's own x wins"
    );
}

#[test]
fn empty_names_are_absent_optional_inputs_and_outputs() {
    let n = node("Clip", &["x", "", "hi"], &["y"]);
    let bn = node("Dropout", &["y"], &["z", ""]);
    let m = model(graph(
        "g",
        vec![n, bn],
        vec![fvalue("x", &["2"]), fvalue("hi", &[])],
        vec![fvalue("z", &["2"])],
    ));
    let model = ok(&m);
    let ops = ops(&model, model.graph);
    assert!(ops[0].inputs[0].is_some() && ops[0].inputs[1].is_none() && ops[0].inputs[2].is_some());
    assert!(ops[1].results[0].is_some() && ops[1].results[1].is_none());
}

#[test]
fn initializers_become_constants_or_input_defaults() {
    let mut m = model(graph(
        "g",
        vec![node("Add", &["x", "w"], &["y"])],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    let g = m.graph.as_mut().unwrap();
    g.initializer = vec![
        floats("x", &[2], &[5.0, 6.0]),
        floats("w", &[2], &[1.0, 2.0]),
    ];
    g.initializer[1].doc_string = "weight".into();
    let model = ok(&m);
    let region = model.ir.region(model.graph);
    // `x` is an input with a default; `w` a Constant at the start.
    assert_eq!(region.args.len(), 1);
    let default = region.args[0].default.as_ref().unwrap();
    assert_eq!(default.to_vec::<f32>().unwrap(), [5.0, 6.0]);
    assert_eq!(op_names(&model, model.graph), ["Constant", "Add"]);
    let c = model.ir.op(region.ops[0]);
    assert_eq!(c.version, 13, "Constant resolved at the model's opset");
    assert_eq!(
        c.attrs.tensor("value").unwrap().to_vec::<f32>().unwrap(),
        [1.0, 2.0]
    );
    let w = c.results[0].unwrap();
    assert_eq!(model.ir.value(w).name.as_deref(), Some("w"));
    assert_eq!(model.ir.ty(w), &Type::tensor(ElemType::F32, &[2]));
    assert_eq!(
        model.ir.value(w).meta.as_ref().unwrap().doc_string,
        "weight"
    );
    assert_eq!(
        model.ir.op(region.ops[1]).inputs,
        [Some(region.args[0].value), Some(w)]
    );
}

#[test]
fn before_ir_version_4_inputs_with_initializers_are_constants() {
    // IR version 3 made every initializer a graph input as well, so these
    // are constants, not overridable inputs: `w` of the main graph and `k`
    // of the branch (a subgraph initializer listed after the actual
    // inputs, which the If passes none of).
    let mut branch = graph(
        "then",
        vec![node("Add", &["w", "k"], &["o"])],
        vec![fvalue("k", &["2"])],
        vec![fvalue("o", &["2"])],
    );
    branch.initializer = vec![floats("k", &[2], &[3.0, 4.0])];
    let mut m = model(graph(
        "g",
        vec![
            with_attr(
                with_attr(
                    node("If", &["c"], &["b"]),
                    attr_graph("then_branch", branch.clone()),
                ),
                attr_graph("else_branch", branch),
            ),
            node("Add", &["x", "b"], &["y"]),
        ],
        vec![
            value("c", tensor_type(9, Some(&[]))),
            fvalue("x", &["2"]),
            fvalue("w", &["2"]),
        ],
        vec![fvalue("y", &["2"])],
    ));
    m.ir_version = 3;
    m.opset_import = vec![opset("", 9)];
    let g = m.graph.as_mut().unwrap();
    g.initializer = vec![floats("w", &[2], &[1.0, 2.0])];
    g.input[2].doc_string = "weights".into();
    let model = ok(&m);
    let region = model.ir.region(model.graph);
    let args: Vec<_> = region
        .args
        .iter()
        .map(|a| (model.ir.value(a.value).name.as_deref(), a.default.is_some()))
        .collect();
    assert_eq!(args, [(Some("c"), false), (Some("x"), false)]);
    assert_eq!(op_names(&model, model.graph), ["Constant", "If", "Add"]);
    let w = model.ir.op(region.ops[0]).results[0].unwrap();
    assert_eq!(model.ir.value(w).name.as_deref(), Some("w"));
    assert_eq!(model.ir.ty(w), &Type::tensor(ElemType::F32, &[2]));
    // The input's doc string, the initializer having none.
    assert_eq!(
        model.ir.value(w).meta.as_ref().unwrap().doc_string,
        "weights"
    );
    let then = model
        .ir
        .op(region.ops[1])
        .attrs
        .graph("then_branch")
        .unwrap();
    assert!(model.ir.region(then).args.is_empty());
    assert_eq!(op_names(&model, then), ["Constant", "Add"]);

    // From IR version 4 on, the same model has an input `w` with a default
    // (and the branch's input `k` is against the rules, so it goes).
    let mut m4 = m.clone();
    m4.ir_version = 4;
    for a in &mut m4.graph.as_mut().unwrap().node[0].attribute {
        let g = a.g.as_mut().unwrap();
        g.input.clear();
        g.initializer.clear();
        g.node[0].input[1] = "w".into();
    }
    let model = ok(&m4);
    let region = model.ir.region(model.graph);
    assert_eq!(region.args.len(), 3);
    assert!(region.args[2].default.is_some());
    assert_eq!(op_names(&model, model.graph), ["If", "Add"]);

    // The input's declared type must agree with its initializer.
    let g = m.graph.as_mut().unwrap();
    g.input[2] = fvalue("w", &["3"]);
    assert_eq!(
        err(&m),
        r#"graph "g": input "w" is declared as tensor<3xf32>, but its initializer is tensor<2xf32>"#
    );
}

#[test]
fn before_ir_version_4_initializers_a_constant_cannot_hold_stay_defaults() {
    // Before opset 9 a Constant holds floating-point tensors only (the
    // backend's test_operator_non_float_params, IR 3 and opset 6, has an
    // int64 input with an initializer): such an input keeps its default.
    let mut m = model(graph(
        "g",
        vec![node("Add", &["a", "b"], &["c"])],
        vec![
            value("a", tensor_type(7, Some(&["2"]))),
            value("b", tensor_type(7, Some(&["2"]))),
        ],
        vec![value("c", tensor_type(7, Some(&["2"])))],
    ));
    m.ir_version = 3;
    m.opset_import = vec![opset("", 6)];
    m.graph.as_mut().unwrap().initializer = vec![ints("b", &[2], &[1, 2])];
    let model = ok(&m);
    let region = model.ir.region(model.graph);
    assert_eq!(region.args.len(), 2);
    assert!(region.args[0].default.is_none());
    assert_eq!(
        region.args[1].default.as_ref().unwrap().to_i64s().unwrap(),
        [1, 2]
    );
    assert_eq!(op_names(&model, model.graph), ["Add"]);
}

#[test]
fn sparse_initializers_become_sparse_value_constants() {
    let mut m = model(graph(
        "g",
        vec![],
        vec![],
        vec![value("s", TypeProto::default())],
    ));
    m.graph
        .as_mut()
        .unwrap()
        .sparse_initializer
        .push(SparseTensorProto {
            values: Some(floats("s", &[2], &[5.0, 7.0])),
            indices: Some(ints("", &[2], &[1, 4])),
            dims: vec![2, 3],
        });
    let model = ok(&m);
    let c = model.ir.op(model.ir.region(model.graph).ops[0]);
    let Some(Attr::SparseTensor(s)) = c.attrs.get("sparse_value") else {
        panic!("{:?}", c.attrs)
    };
    assert_eq!(
        (s.dims.as_slice(), s.indices.to_i64s().unwrap()),
        (&[2i64, 3][..], vec![1, 4])
    );
    let v = c.results[0].unwrap();
    // Like a Constant's sparse_value, it stands for a dense tensor.
    assert_eq!(model.ir.ty(v), &Type::tensor(ElemType::F32, &[2, 3]));

    // An index past the dense size is an error naming the tensor.
    m.graph.as_mut().unwrap().sparse_initializer[0].indices = Some(ints("", &[2], &[1, 6]));
    assert_eq!(
        err(&m),
        r#"tensor "s": sparse tensor: an index is out of range for shape [2, 3]"#
    );
}

#[test]
fn subgraph_initializers_live_in_the_subgraph() {
    let mut then = graph(
        "then",
        vec![node("Add", &["x", "k"], &["t"])],
        vec![],
        vec![fvalue("t", &["2"])],
    );
    then.initializer.push(floats("k", &[2], &[1.0, 1.0]));
    let els = graph(
        "else",
        vec![node("Neg", &["x"], &["e"])],
        vec![],
        vec![fvalue("e", &["2"])],
    );
    let iff = with_attr(
        with_attr(
            named("if", node("If", &["c"], &["y"])),
            attr_graph("then_branch", then),
        ),
        attr_graph("else_branch", els),
    );
    let m = model(graph(
        "g",
        vec![iff],
        vec![fvalue("x", &["2"]), value("c", tensor_type(9, Some(&[])))],
        vec![fvalue("y", &["2"])],
    ));
    let model = ok(&m);
    let then = model
        .ir
        .op(op_named(&model, model.graph, "if"))
        .attrs
        .graph("then_branch")
        .unwrap();
    assert_eq!(op_names(&model, then), ["Constant", "Add"]);
    assert_eq!(op_names(&model, model.graph), ["If"]);
}

#[test]
fn constant_nodes_are_normalized_to_a_dense_value() {
    let constant = |a: AttributeProto| with_attr(node("Constant", &[], &["c"]), a);
    let floats_attr = AttributeProto {
        name: "value_floats".into(),
        r#type: onnx_mlc_proto::attribute_proto::AttributeType::Floats as i32,
        floats: vec![1.0, 2.5],
        ..Default::default()
    };
    let string_attr = AttributeProto {
        name: "value_string".into(),
        r#type: onnx_mlc_proto::attribute_proto::AttributeType::String as i32,
        s: "hi".into(),
        ..Default::default()
    };
    let m = model(graph(
        "g",
        vec![
            named("f", constant(attr_float("value_float", 1.5))),
            named("fs", with_attr(node("Constant", &[], &["d"]), floats_attr)),
            named(
                "i",
                with_attr(node("Constant", &[], &["e"]), attr_int("value_int", 7)),
            ),
            named(
                "s",
                with_attr(node("Constant", &[], &["s_out"]), string_attr),
            ),
            named(
                "t",
                with_attr(
                    node("Constant", &[], &["t_out"]),
                    attr_tensor("value", ints("", &[2], &[3, 4])),
                ),
            ),
        ],
        vec![],
        vec![],
    ));
    let model = ok(&m);
    let value = |name| {
        model
            .ir
            .op(op_named(&model, model.graph, name))
            .attrs
            .clone()
    };
    let f = value("f");
    assert_eq!(f.len(), 1);
    let t = f.tensor("value").unwrap();
    assert_eq!(
        (t.dims.as_slice(), t.to_vec::<f32>().unwrap()),
        (&[][..], vec![1.5])
    );
    let t = value("fs").tensor("value").unwrap().clone();
    assert_eq!(
        (t.dims.as_slice(), t.to_vec::<f32>().unwrap()),
        (&[2i64][..], vec![1.0, 2.5])
    );
    let t = value("i").tensor("value").unwrap().clone();
    assert_eq!((t.elem, t.to_i64s().unwrap()), (ElemType::I64, vec![7]));
    let t = value("s").tensor("value").unwrap().clone();
    assert_eq!(t.strings().unwrap(), [b"hi".to_vec()]);
    assert_eq!(
        value("t").tensor("value").unwrap().to_i64s().unwrap(),
        [3, 4]
    );

    let both = model_with(vec![with_attr(
        constant(attr_float("value_float", 1.5)),
        attr_tensor("value", ints("", &[1], &[1])),
    )]);
    assert_eq!(
        err(&both),
        r#"node #0 (op Constant, domain "", opset 17): both "value" and "value_float" are given"#
    );
}

fn model_with(nodes: Vec<NodeProto>) -> ModelProto {
    model(graph("g", nodes, vec![], vec![]))
}

#[test]
fn types_are_imported() {
    let seq = TypeProto {
        value: Some(TypeValue::SequenceType(Box::new(type_proto::Sequence {
            elem_type: Some(Box::new(tensor_type(1, None))),
        }))),
        denotation: String::new(),
    };
    let map = TypeProto {
        value: Some(TypeValue::MapType(Box::new(type_proto::Map {
            key_type: 8,
            value_type: Some(Box::new(tensor_type(1, Some(&[])))),
        }))),
        denotation: String::new(),
    };
    let opt = TypeProto {
        value: Some(TypeValue::OptionalType(Box::new(type_proto::Optional {
            elem_type: Some(Box::new(seq.clone())),
        }))),
        denotation: String::new(),
    };
    let sparse = TypeProto {
        value: Some(TypeValue::SparseTensorType(type_proto::SparseTensor {
            elem_type: 7,
            shape: tensor_type(7, Some(&["3", "N"]))
                .value
                .and_then(|v| match v {
                    TypeValue::TensorType(t) => t.shape,
                    _ => None,
                }),
        })),
        denotation: String::new(),
    };
    let m = model(graph(
        "g",
        vec![],
        vec![
            value("t", tensor_type(1, Some(&["batch", "3", "?"]))),
            value("u", tensor_type(10, None)),
            value("s", seq),
            value("m", map),
            value("o", opt),
            value("sp", sparse),
            value("none", TypeProto::default()),
        ],
        vec![],
    ));
    let model = unverified(&m);
    let tys: Vec<Type> = model
        .ir
        .region(model.graph)
        .args
        .iter()
        .map(|a| model.ir.ty(a.value).clone())
        .collect();
    let f32_unranked = Type::Tensor(TensorType::unranked(ElemType::F32));
    assert_eq!(
        tys,
        [
            Type::Tensor(TensorType::with_dims(
                ElemType::F32,
                vec![Dim::param("batch"), Dim::Known(3), Dim::Unknown]
            )),
            Type::Tensor(TensorType::unranked(ElemType::F16)),
            Type::Sequence(Box::new(f32_unranked.clone())),
            Type::Map(ElemType::String, Box::new(Type::tensor(ElemType::F32, &[]))),
            Type::Optional(Box::new(Type::Sequence(Box::new(f32_unranked)))),
            Type::SparseTensor(TensorType::with_dims(
                ElemType::I64,
                vec![Dim::Known(3), Dim::param("N")]
            )),
            Type::Unknown,
        ]
    );
}

#[test]
fn value_info_and_output_declarations_type_values() {
    let mut g = graph(
        "g",
        vec![
            node("Relu", &["x"], &["a"]),
            node("Neg", &["a"], &["y"]),
            node("Abs", &["a"], &["z"]),
        ],
        vec![fvalue("x", &["N"])],
        vec![fvalue("y", &["N"]), value("z", tensor_type(1, None))],
    );
    g.value_info.push(fvalue("a", &["N"]));
    g.value_info[0].doc_string = "relu out".into();
    let model = unverified(&model(g));
    let ty = |name| model.ir.ty(value_named(&model, name)).clone();
    let n = Type::Tensor(TensorType::with_dims(ElemType::F32, vec![Dim::param("N")]));
    assert_eq!(ty("a"), n);
    assert_eq!(ty("y"), n);
    assert_eq!(ty("z"), Type::Tensor(TensorType::unranked(ElemType::F32)));
    assert_eq!(
        model
            .ir
            .value(value_named(&model, "a"))
            .meta
            .as_ref()
            .unwrap()
            .doc_string,
        "relu out"
    );
}

#[test]
fn bad_types_are_errors() {
    let m = model(graph(
        "g",
        vec![],
        vec![value("x", tensor_type(99, None))],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"type of graph input "x": unknown element type 99"#
    );
}

#[test]
fn training_info_is_imported() {
    let mut m = relu_model();
    m.graph
        .as_mut()
        .unwrap()
        .initializer
        .push(floats("w", &[2], &[1.0, 2.0]));
    let mut init = graph(
        "init",
        vec![with_attr(
            node("Constant", &[], &["w0"]),
            attr_tensor("value", floats("", &[2], &[0.0, 0.0])),
        )],
        vec![],
        vec![fvalue("w0", &["2"])],
    );
    init.doc_string = "init".into();
    // The algorithm reads the main graph's initializer `w` and output `y`.
    let algo = graph(
        "step",
        vec![node("Add", &["w", "y"], &["w_new"])],
        vec![],
        vec![fvalue("w_new", &["2"])],
    );
    m.training_info.push(TrainingInfoProto {
        initialization: Some(init),
        algorithm: Some(algo),
        initialization_binding: vec![entry("w", "w0")],
        update_binding: vec![entry("w", "w_new")],
    });
    let model = ok(&m);
    let t = &model.training_info[0];
    assert_eq!(
        t.initialization_binding,
        [("w".to_string(), "w0".to_string())]
    );
    assert_eq!(t.update_binding, [("w".to_string(), "w_new".to_string())]);
    let init = t.initialization.unwrap();
    assert_eq!(model.ir.region(init).name, "init");
    assert_eq!(model.ir.region(init).parent, RegionParent::Top);
    let add = model.ir.op(model.ir.region(t.algorithm).ops[0]);
    assert_eq!(
        add.inputs,
        [
            Some(value_named(&model, "w")),
            Some(value_named(&model, "y"))
        ]
    );
    assert_eq!(model.top_regions(), [model.graph, init, t.algorithm]);

    // The initialization graph does not see the main graph.
    let mut bad = m.clone();
    bad.training_info[0]
        .initialization
        .as_mut()
        .unwrap()
        .node
        .push(node("Neg", &["w"], &["v"]));
    assert_eq!(
        err(&bad),
        r#"node #1 (op Neg, domain "", opset 17): input "w" is not defined"#
    );
}

#[test]
fn attributes_are_checked() {
    // IR version 1 producers left `type` UNDEFINED: the set field decides.
    let untyped = AttributeProto {
        name: "to".into(),
        i: 7,
        ..Default::default()
    };
    let cast = with_attr(node("Cast", &["x"], &["y"]), untyped);
    let model = ok(&model(graph(
        "g",
        vec![cast],
        vec![fvalue("x", &["2"])],
        vec![],
    )));
    assert_eq!(first_op(&model).attrs.int("to"), Some(7));

    let twice = with_attr(
        with_attr(named("c", node("Cast", &[], &["y"])), attr_int("to", 1)),
        attr_int("to", 7),
    );
    assert_eq!(
        err(&model_with(vec![twice])),
        r#"node "c" (op Cast, domain "", opset 17): attribute "to" is given twice"#
    );
    let unknown = AttributeProto {
        name: "to".into(),
        r#type: 42,
        ..Default::default()
    };
    assert_eq!(
        err(&model_with(vec![with_attr(
            named("c", node("Cast", &[], &["y"])),
            unknown
        )])),
        r#"node "c" (op Cast, domain "", opset 17): attribute "to": unknown attribute type 42"#
    );
    let empty = AttributeProto {
        name: "value".into(),
        r#type: 4,
        ..Default::default()
    };
    assert_eq!(
        err(&model_with(vec![with_attr(
            named("c", node("Constant", &[], &["y"])),
            empty
        )])),
        r#"node "c" (op Constant, domain "", opset 17): attribute "value": type TENSOR but no value"#
    );
}

#[test]
fn inputs_are_declared_once() {
    let m = model(graph(
        "g",
        vec![],
        vec![fvalue("x", &["2"]), fvalue("x", &["2"])],
        vec![],
    ));
    assert_eq!(err(&m), r#"graph "g": input "x" is declared twice"#);
}

#[test]
fn what_is_not_kept_is_reported() {
    let mut m = relu_model();
    m.graph
        .as_mut()
        .unwrap()
        .quantization_annotation
        .push(TensorAnnotation {
            tensor_name: "y".into(),
            ..Default::default()
        });
    m.configuration.push(DeviceConfigurationProto::default());
    let imported = import(&m).unwrap();
    let warnings: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "device configurations are not imported",
            r#"graph "main": quantization annotations are not imported"#
        ]
    );
}

#[test]
fn ir_versions_and_opset_versions_must_be_known() {
    for v in [0, 15] {
        let mut m = relu_model();
        m.ir_version = v;
        assert_eq!(
            err(&m),
            format!("IR version {v} is not supported (1 to 14)")
        );
    }
    let mut m = relu_model();
    m.opset_import = vec![opset("", 99)];
    assert_eq!(
        err(&m),
        r#"the model imports opset 99 of domain "": this compiler knows opsets 1 to 28 of it"#
    );
    m.opset_import = vec![opset("", 17), opset("com.example", 0)];
    assert_eq!(
        err(&m),
        r#"the model imports opset 0 of domain "com.example": opset versions start at 1"#
    );
}

#[test]
fn model_inputs_need_a_type() {
    let mut m = relu_model();
    m.graph.as_mut().unwrap().input[0].r#type = None;
    assert_eq!(err(&m), r#"graph "main": input "x" has no type"#);
    // Subgraph inputs may leave it to inference.
    let body = graph(
        "body",
        vec![
            node("Identity", &["c"], &["c_out"]),
            node("Identity", &["v"], &["v_out"]),
        ],
        vec![
            ValueInfoProto {
                name: "i".into(),
                ..Default::default()
            },
            ValueInfoProto {
                name: "c".into(),
                ..Default::default()
            },
            ValueInfoProto {
                name: "v".into(),
                ..Default::default()
            },
        ],
        vec![
            value("c_out", tensor_type(9, Some(&[]))),
            fvalue("v_out", &["2"]),
        ],
    );
    let lp = with_attr(
        node("Loop", &["n", "", "x"], &["y"]),
        attr_graph("body", body),
    );
    let m = model(graph(
        "g",
        vec![lp],
        vec![value("n", tensor_type(7, Some(&[]))), fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    ok(&m);
}

#[test]
fn output_names_are_unique() {
    let mut m = relu_model();
    let g = m.graph.as_mut().unwrap();
    g.output.push(g.output[0].clone());
    assert_eq!(err(&m), r#"graph "main": output "y" is listed twice"#);
}

#[test]
fn an_attribute_holds_one_kind_of_value() {
    // Declared INTS, but the value is in the FLOAT field.
    let strides = AttributeProto {
        name: "strides".into(),
        r#type: onnx_mlc_proto::attribute_proto::AttributeType::Ints as i32,
        f: 2.0,
        ..Default::default()
    };
    let conv = with_attr(named("conv", node("Conv", &["x", "w"], &["y"])), strides);
    let m = model(graph(
        "g",
        vec![conv],
        vec![fvalue("x", &["1", "1", "4"]), fvalue("w", &["1", "1", "1"])],
        vec![],
    ));
    assert_eq!(
        err(&m),
        r#"node "conv" (op Conv, domain "", opset 17): attribute "strides": type INTS but field f (FLOAT) holds a value"#
    );
}

#[test]
fn initializers_of_models_without_ai_onnx_import_it() {
    // An ai.onnx.ml-only model with an initializer: its Constant is an ai.onnx op.
    let mut scaler = named("s", node("Scaler", &["x"], &["y"]));
    scaler.domain = "ai.onnx.ml".into();
    let mut m = model(graph(
        "g",
        vec![scaler],
        vec![fvalue("x", &["2"])],
        vec![fvalue("y", &["2"])],
    ));
    m.opset_import = vec![opset("ai.onnx.ml", 3)];
    m.graph
        .as_mut()
        .unwrap()
        .initializer
        .push(floats("w", &[2], &[1.0, 2.0]));
    let imported = import(&m).unwrap();
    assert_eq!(
        imported.warnings[0].to_string(),
        "initializers are ai.onnx Constant ops, but the model does not import ai.onnx: importing opset 28"
    );
    let model = ok(&m);
    let imports: Vec<_> = model
        .opset_imports
        .iter()
        .map(|o| (o.domain.as_str(), o.version))
        .collect();
    assert_eq!(imports, [("ai.onnx.ml", 3), ("", 28)]);
    assert_eq!(first_op(&model).kind, OpKind::Constant);
}
