//! Model-local functions are inlined at each call site.

use onnx_mlc_dialect::{Attr, OpKind};
use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::*;

use super::build::*;

fn function(name: &str, inputs: &[&str], outputs: &[&str], nodes: Vec<NodeProto>) -> FunctionProto {
    FunctionProto {
        name: name.into(),
        domain: "local".into(),
        input: strs(inputs),
        output: strs(outputs),
        node: nodes,
        opset_import: vec![opset("", 17)],
        ..Default::default()
    }
}

fn call(name: &str, f: &str, inputs: &[&str], outputs: &[&str]) -> NodeProto {
    let mut n = named(name, node(f, inputs, outputs));
    n.domain = "local".into();
    n
}

/// A model calling `functions` through `nodes`, with float inputs `x`, `y`.
fn model_with(
    functions: Vec<FunctionProto>,
    nodes: Vec<NodeProto>,
    outputs: &[&str],
) -> ModelProto {
    let mut m = model(graph(
        "main",
        nodes,
        vec![fvalue("x", &["2"]), fvalue("y", &["2"])],
        outputs.iter().map(|o| fvalue(o, &["2"])).collect(),
    ));
    m.opset_import.push(opset("local", 1));
    m.functions = functions;
    m
}

/// `b = a + a`, with an internal value `s`: `s = a + a; b = Identity(s)`.
fn twice() -> FunctionProto {
    function(
        "Twice",
        &["a"],
        &["b"],
        vec![
            named("add", node("Add", &["a", "a"], &["s"])),
            node("Identity", &["s"], &["b"]),
        ],
    )
}

#[test]
fn a_call_is_replaced_by_the_body() {
    let m = model_with(
        vec![twice()],
        vec![call("call0", "Twice", &["x"], &["z"])],
        &["z"],
    );
    let model = ok(&m);
    let region = model.ir.region(model.graph);
    assert_eq!(op_names(&model, model.graph), ["Add", "Identity"]);
    let add = model.ir.op(region.ops[0]);
    let x = region.args[0].value;
    assert_eq!(
        add.inputs,
        [Some(x), Some(x)],
        "the formal input is bound to the caller's value"
    );
    assert_eq!(add.name, "call0/add");
    let s = add.results[0].unwrap();
    assert_eq!(
        model.ir.value(s).name.as_deref(),
        Some("call0/s"),
        "internal names are prefixed"
    );
    let id = model.ir.op(region.ops[1]);
    assert_eq!(
        id.name, "call0/Identity_1",
        "unnamed body nodes are named by op and index"
    );
    let z = id.results[0].unwrap();
    assert_eq!(
        model.ir.value(z).name.as_deref(),
        Some("z"),
        "the formal output takes the caller's name"
    );
    assert_eq!(region.outputs[0].value, z);
}

#[test]
fn each_call_site_gets_its_own_values() {
    let m = model_with(
        vec![twice()],
        vec![
            call("c", "Twice", &["x"], &["z1"]),
            call("c", "Twice", &["z1"], &["z2"]),
        ],
        &["z2"],
    );
    let model = ok(&m);
    let ops = ops(&model, model.graph);
    assert_eq!(ops.len(), 4);
    let names: Vec<_> = ops
        .iter()
        .map(|o| model.ir.value(o.results[0].unwrap()).name.clone().unwrap())
        .collect();
    // Two call sites named "c": the second gets a distinct prefix.
    assert_eq!(names, ["c/s", "z1", "c#2/s", "z2"]);
    assert_eq!(
        ops[2].inputs[0], ops[1].results[0],
        "the second call reads the first one's output"
    );
}

#[test]
fn missing_trailing_inputs_are_absent() {
    // clip(a, lo, hi) with the bounds left out by the caller.
    let f = function(
        "MyClip",
        &["a", "lo", "hi"],
        &["b"],
        vec![node("Clip", &["a", "lo", "hi"], &["b"])],
    );
    let m = model_with(vec![f], vec![call("c", "MyClip", &["x"], &["z"])], &["z"]);
    let model = ok(&m);
    let clip = &ops(&model, model.graph)[0];
    assert_eq!(clip.kind, OpKind::Clip);
    assert!(clip.inputs[0].is_some() && clip.inputs[1].is_none() && clip.inputs[2].is_none());

    let m = model_with(
        vec![twice()],
        vec![call("c", "Twice", &["x", "y"], &["z"])],
        &["z"],
    );
    assert_eq!(
        err(&m),
        r#"node "c" (op Twice, domain "local", opset 1): function "local.Twice" takes 1 inputs and 1 outputs, the node has 2 and 1"#
    );
}

/// `b = LeakyRelu(a, alpha = <ref alpha>)`, alpha defaulting to `default`.
fn leaky(default: Option<f32>) -> FunctionProto {
    let body = with_attr(
        named("lr", node("LeakyRelu", &["a"], &["b"])),
        attr_ref("alpha", "alpha", AttributeType::Float),
    );
    let mut f = function("Leaky", &["a"], &["b"], vec![body]);
    match default {
        Some(d) => f.attribute_proto.push(attr_float("alpha", d)),
        None => f.attribute.push("alpha".into()),
    }
    f
}

fn alpha_of(m: &ModelProto) -> Option<f32> {
    let model = ok(m);
    let op = ops(&model, model.graph)[0];
    op.attrs.float("alpha")
}

#[test]
fn attribute_references_take_the_callers_value_or_the_default_or_are_dropped() {
    let given = with_attr(call("c", "Leaky", &["x"], &["z"]), attr_float("alpha", 0.5));
    let defaulted = call("c", "Leaky", &["x"], &["z"]);
    assert_eq!(
        alpha_of(&model_with(
            vec![leaky(Some(0.1))],
            vec![given.clone()],
            &["z"]
        )),
        Some(0.5)
    );
    assert_eq!(
        alpha_of(&model_with(
            vec![leaky(Some(0.1))],
            vec![defaulted.clone()],
            &["z"]
        )),
        Some(0.1)
    );
    assert_eq!(
        alpha_of(&model_with(vec![leaky(None)], vec![defaulted], &["z"])),
        None
    );

    let unknown = with_attr(call("c", "Leaky", &["x"], &["z"]), attr_float("beta", 0.5));
    assert_eq!(
        err(&model_with(vec![leaky(None)], vec![unknown], &["z"])),
        r#"node "c" (op Leaky, domain "local", opset 1): attribute "beta" is not an attribute of the function"#
    );
    let wrong_type = with_attr(call("c", "Leaky", &["x"], &["z"]), attr_int("alpha", 1));
    assert_eq!(
        err(&model_with(vec![leaky(None)], vec![wrong_type], &["z"])),
        r#"in function "local.Leaky" called by node "c" (op Leaky, domain "local", opset 1): node "lr" (op LeakyRelu, domain "", opset 17): attribute "alpha" refers to "alpha" of type FLOAT, but the value has type INT"#
    );
}

#[test]
fn references_outside_functions_are_errors() {
    let n = with_attr(
        named("lr", node("LeakyRelu", &["x"], &["z"])),
        attr_ref("alpha", "alpha", AttributeType::Float),
    );
    assert_eq!(
        err(&model_with(vec![], vec![n], &["z"])),
        r#"node "lr" (op LeakyRelu, domain "", opset 17): attribute "alpha" refers to "alpha", but the node is not in a function body"#
    );
}

#[test]
fn references_inside_subgraphs_of_the_body_are_resolved() {
    // body: b = If(cond) { then: LeakyRelu(a, alpha = ref alpha) } else { Identity(a) }
    let then = graph(
        "then",
        vec![with_attr(
            node("LeakyRelu", &["a"], &["t"]),
            attr_ref("alpha", "alpha", AttributeType::Float),
        )],
        vec![],
        vec![fvalue("t", &["2"])],
    );
    let els = graph(
        "else",
        vec![node("Identity", &["a"], &["e"])],
        vec![],
        vec![fvalue("e", &["2"])],
    );
    let iff = with_attr(
        with_attr(
            named("if", node("If", &["cond"], &["b"])),
            attr_graph("then_branch", then),
        ),
        attr_graph("else_branch", els),
    );
    let mut f = function("Branch", &["cond", "a"], &["b"], vec![iff]);
    f.attribute.push("alpha".into());
    let mut m = model_with(
        vec![f],
        vec![with_attr(
            call("c", "Branch", &["flag", "x"], &["z"]),
            attr_float("alpha", 0.25),
        )],
        &["z"],
    );
    m.graph
        .as_mut()
        .unwrap()
        .input
        .push(value("flag", tensor_type(9, Some(&[]))));
    let model = ok(&m);
    let iff = ops(&model, model.graph)[0];
    assert_eq!(iff.name, "c/if");
    let then = iff.attrs.graph("then_branch").unwrap();
    let lr = ops(&model, then)[0];
    assert_eq!(lr.attrs.get("alpha"), Some(&Attr::Float(0.25)));
    assert_eq!(
        model.ir.value(lr.results[0].unwrap()).name.as_deref(),
        Some("c/t"),
        "subgraph names are prefixed too"
    );
    assert_eq!(
        lr.inputs[0],
        Some(model.ir.region(model.graph).args[0].value),
        "the branch sees the bound formal input"
    );
}

#[test]
fn the_function_opset_imports_resolve_its_body() {
    // The model imports only the functions' domain: the body resolves in
    // the function's opset 11, which the model then imports too.
    let mut f = function("MyClip", &["a"], &["b"], vec![node("Clip", &["a"], &["b"])]);
    f.opset_import = vec![opset("", 11)];
    let mut m = model_with(
        vec![f.clone()],
        vec![call("c", "MyClip", &["x"], &["z"])],
        &["z"],
    );
    m.opset_import = vec![opset("local", 1)];
    let model = ok(&m);
    assert_eq!(ops(&model, model.graph)[0].version, 11);
    let imports: Vec<_> = model
        .opset_imports
        .iter()
        .map(|o| (o.domain.as_str(), o.version))
        .collect();
    assert_eq!(imports, [("local", 1), ("", 11)]);

    // When both import the domain, the op must resolve alike (as onnx.checker
    // requires): Clip is version 11 at opset 11 but 13 at opset 17.
    let m = model_with(vec![f], vec![call("c", "MyClip", &["x"], &["z"])], &["z"]);
    assert_eq!(
        err(&m),
        r#"in function "local.MyClip" called by node "c" (op MyClip, domain "local", opset 1): node #0 (op Clip, domain "", opset 11): the function imports opset 11 of domain "", where Clip is version 11, but the model imports opset 17, where it is version 13"#
    );
    // Opset 15 gives Clip the version opset 17 gives.
    let mut f = function("MyClip", &["a"], &["b"], vec![node("Clip", &["a"], &["b"])]);
    f.opset_import = vec![opset("", 15)];
    let model = ok(&model_with(
        vec![f],
        vec![call("c", "MyClip", &["x"], &["z"])],
        &["z"],
    ));
    assert_eq!(ops(&model, model.graph)[0].version, 13);

    // A domain the function does not import falls back to the model's.
    let mut f = function("MyClip", &["a"], &["b"], vec![node("Clip", &["a"], &["b"])]);
    f.opset_import.clear();
    let model = ok(&model_with(
        vec![f],
        vec![call("c", "MyClip", &["x"], &["z"])],
        &["z"],
    ));
    assert_eq!(ops(&model, model.graph)[0].version, 13);
}

#[test]
fn functions_can_call_functions() {
    let mut quad = function(
        "Quad",
        &["a"],
        &["b"],
        vec![
            named("first", node("Twice", &["a"], &["t"])),
            named("second", node("Twice", &["t"], &["b"])),
        ],
    );
    for n in &mut quad.node {
        n.domain = "local".into();
    }
    quad.opset_import.push(opset("local", 1));
    let model = ok(&model_with(
        vec![twice(), quad],
        vec![call("q", "Quad", &["x"], &["z"])],
        &["z"],
    ));
    let names: Vec<_> = ops(&model, model.graph)
        .iter()
        .map(|o| o.name.clone())
        .collect();
    assert_eq!(
        names,
        [
            "q/first/add",
            "q/first/Identity_1",
            "q/second/add",
            "q/second/Identity_1"
        ]
    );
    let last = ops(&model, model.graph)[3];
    assert_eq!(
        model.ir.value(last.results[0].unwrap()).name.as_deref(),
        Some("z")
    );
}

#[test]
fn recursion_is_an_error_naming_the_chain() {
    let mut direct = function(
        "Loopy",
        &["a"],
        &["b"],
        vec![call("again", "Loopy", &["a"], &["b"])],
    );
    direct.opset_import.push(opset("local", 1));
    assert_eq!(
        err(&model_with(
            vec![direct],
            vec![call("c", "Loopy", &["x"], &["z"])],
            &["z"]
        )),
        r#"in function "local.Loopy" called by node "c" (op Loopy, domain "local", opset 1): node "again" (op Loopy, domain "local", opset 1): recursive function call: local.Loopy -> local.Loopy"#
    );

    let mut ping = function(
        "Ping",
        &["a"],
        &["b"],
        vec![call("to_pong", "Pong", &["a"], &["b"])],
    );
    let mut pong = function(
        "Pong",
        &["a"],
        &["b"],
        vec![call("to_ping", "Ping", &["a"], &["b"])],
    );
    ping.opset_import.push(opset("local", 1));
    pong.opset_import.push(opset("local", 1));
    let message = err(&model_with(
        vec![ping, pong],
        vec![call("c", "Ping", &["x"], &["z"])],
        &["z"],
    ));
    assert_has(
        &message,
        "recursive function call: local.Ping -> local.Pong -> local.Ping",
    );
}

#[test]
fn errors_in_a_body_name_the_call_site() {
    let bad = function(
        "Bad",
        &["a"],
        &["b"],
        vec![node("Frobnicate", &["a"], &["b"])],
    );
    assert_eq!(
        err(&model_with(
            vec![bad],
            vec![call("c", "Bad", &["x"], &["z"])],
            &["z"]
        )),
        r#"in function "local.Bad" called by node "c" (op Bad, domain "local", opset 1): node #0 (op Frobnicate, domain "", opset 17): unknown operator"#
    );
    let lazy = function(
        "Lazy",
        &["a"],
        &["b"],
        vec![node("Relu", &["a"], &["other"])],
    );
    assert_eq!(
        err(&model_with(
            vec![lazy],
            vec![call("c", "Lazy", &["x"], &["z"])],
            &["z"]
        )),
        r#"in function "local.Lazy" called by node "c" (op Lazy, domain "local", opset 1): function output "b" is not computed by the body"#
    );
}

#[test]
fn overloads_select_the_function() {
    let mut neg = function("F", &["a"], &["b"], vec![node("Neg", &["a"], &["b"])]);
    neg.overload = "neg".into();
    let mut abs = function("F", &["a"], &["b"], vec![node("Abs", &["a"], &["b"])]);
    abs.overload = "abs".into();
    let mut n = call("c", "F", &["x"], &["z"]);
    n.overload = "abs".into();
    let model = ok(&model_with(
        vec![neg.clone(), abs.clone()],
        vec![n.clone()],
        &["z"],
    ));
    assert_eq!(op_names(&model, model.graph), ["Abs"]);

    n.overload = "sqrt".into();
    assert_eq!(
        err(&model_with(vec![neg.clone(), abs], vec![n], &["z"])),
        r#"node "c" (op F, domain "local", opset 1): no model-local function has overload "sqrt""#
    );
    assert_eq!(
        err(&model_with(vec![neg.clone(), neg], vec![], &[])),
        r#"model-local function "local.F:neg" is defined twice"#
    );
}

#[test]
fn a_formal_output_may_pass_an_input_through() {
    let f = function(
        "Pass",
        &["a"],
        &["b", "a"],
        vec![node("Neg", &["a"], &["b"])],
    );
    let m = model_with(
        vec![f],
        vec![
            call("c", "Pass", &["x"], &["n", "same"]),
            node("Add", &["n", "same"], &["z"]),
        ],
        &["z"],
    );
    let model = ok(&m);
    let add = ops(&model, model.graph)[1];
    assert_eq!(
        add.inputs[1],
        Some(model.ir.region(model.graph).args[0].value)
    );
}
