//! Tests of the verifier: for each rule, IR built through the builder API
//! (then broken by editing the arena directly) must fail with that rule
//! and a message naming the culprit; well-formed IR must pass.
//!
//! Ops are named `<kind>_<op index>` (`relu_0`), so messages can be
//! matched exactly.

use bytes::Bytes;

use super::*;
use crate::attr::{Attr, Attrs, SparseTensorData};
use crate::dim::Dim;
use crate::error::Error;
use crate::ir::{
    NewOp, OpId, OpsetImport, Output, RegionId, RegionParent, TrainingInfo, Value, ValueDef,
};
use crate::schema::OpKind;
use crate::tensor::TensorData;
use crate::types::{ElemType, TensorType, Type};

// ---- builders ----

fn import(domain: &str, version: i64) -> OpsetImport {
    OpsetImport {
        domain: domain.to_string(),
        version,
    }
}

fn t(elem: ElemType, dims: &[i64]) -> Type {
    Type::tensor(elem, dims)
}

fn f32t(dims: &[i64]) -> Type {
    t(ElemType::F32, dims)
}

fn unranked(elem: ElemType) -> Type {
    Type::Tensor(TensorType::unranked(elem))
}

fn seq(ty: Type) -> Type {
    Type::Sequence(Box::new(ty))
}

fn model() -> Model {
    Model::new("main", vec![import("", 17)])
}

fn input(m: &mut Model, region: RegionId, name: &str, ty: Type) -> Value {
    m.ir.add_arg(region, Some(name.to_string()), ty)
}

/// Appends an op at the version the model's import resolves it to.
fn node(
    m: &mut Model,
    region: RegionId,
    kind: OpKind,
    inputs: &[Option<Value>],
    results: &[(&str, Type)],
) -> OpId {
    let opset = m
        .opset(kind.domain())
        .expect("test models import the op's domain");
    let version = kind
        .schema(opset)
        .expect("the op exists at that opset")
        .since_version;
    let results = results
        .iter()
        .map(|(n, ty)| Some((Some(n.to_string()), ty.clone())));
    let name = format!("{}_{}", kind.name().to_lowercase(), m.ir.num_ops());
    let new = NewOp {
        kind,
        version,
        inputs: inputs.to_vec(),
        results: results.collect(),
        attrs: Attrs::default(),
        name,
    };
    m.ir.append_op(region, new)
}

/// Appends `name: ty = kind(inputs)`.
fn op(
    m: &mut Model,
    region: RegionId,
    kind: OpKind,
    inputs: &[Value],
    name: &str,
    ty: Type,
) -> OpId {
    let inputs: Vec<_> = inputs.iter().copied().map(Some).collect();
    node(m, region, kind, &inputs, &[(name, ty)])
}

/// Sets an attribute of an op.
fn set(m: &mut Model, op: OpId, name: &str, attr: Attr) {
    m.ir.op_mut(op).attrs.set(name, attr);
}

/// Appends a Constant holding `data`, typed as the data is.
fn constant(m: &mut Model, region: RegionId, name: &str, data: TensorData) -> OpId {
    let c = op(
        m,
        region,
        OpKind::Constant,
        &[],
        name,
        Type::Tensor(data.ty()),
    );
    set(m, c, "value", Attr::Tensor(data));
    c
}

fn res(m: &Model, op: OpId, i: usize) -> Value {
    m.ir.op(op).results[i].expect("result present")
}

fn output(m: &mut Model, region: RegionId, name: &str, op: OpId) {
    let v = res(m, op, 0);
    m.ir.add_output(region, name, v);
}

/// A subgraph held by attribute `attr` of `op`.
fn subgraph(m: &mut Model, op: OpId, attr: &str, name: &str) -> RegionId {
    let r = m.ir.new_region(name, RegionParent::Op(op));
    set(m, op, attr, Attr::Graph(r));
    r
}

fn floats(dims: &[i64], values: &[f32]) -> TensorData {
    TensorData::from_vec(dims.to_vec(), values).unwrap()
}

/// `main(x: f32[2,3]) -> y = Relu(x)`.
fn relu_model() -> (Model, Value, OpId) {
    let mut m = model();
    let g = m.graph;
    let x = input(&mut m, g, "x", f32t(&[2, 3]));
    let relu = op(&mut m, g, OpKind::Relu, &[x], "y", f32t(&[2, 3]));
    output(&mut m, g, "y", relu);
    (m, x, relu)
}

/// `main(x: f32[2]) -> y = If(c) { then: t = Relu(x) } else { e = Neg(x) }`
/// with `c` a constant; returns the model, x, the If and its branches.
fn if_model() -> (Model, Value, OpId, RegionId, RegionId) {
    let mut m = model();
    let g = m.graph;
    let x = input(&mut m, g, "x", f32t(&[2]));
    let true_ = TensorData::from_raw(ElemType::Bool, vec![], Bytes::from_static(&[1]));
    let c = constant(&mut m, g, "c", true_.unwrap());
    let c = res(&m, c, 0);
    let iff = op(&mut m, g, OpKind::If, &[c], "y", f32t(&[2]));
    let then = subgraph(&mut m, iff, "then_branch", "then");
    let relu = op(&mut m, then, OpKind::Relu, &[x], "t", f32t(&[2]));
    output(&mut m, then, "t", relu);
    let els = subgraph(&mut m, iff, "else_branch", "else");
    let neg = op(&mut m, els, OpKind::Neg, &[x], "e", f32t(&[2]));
    output(&mut m, els, "e", neg);
    output(&mut m, g, "y", iff);
    (m, x, iff, then, els)
}

/// `Loop(trip, cond, v0)` with one loop-carried value and one scan output;
/// returns the model, the Loop and its body.
fn loop_model() -> (Model, OpId, RegionId) {
    let mut m = model();
    let g = m.graph;
    let trip = input(&mut m, g, "trip", t(ElemType::I64, &[]));
    let cond = input(&mut m, g, "cond", t(ElemType::Bool, &[]));
    let v0 = input(&mut m, g, "v0", f32t(&[2]));
    let scans = Type::Tensor(TensorType::with_dims(
        ElemType::F32,
        vec![Dim::Unknown, 2.into()],
    ));
    let results = [("v_final", f32t(&[2])), ("scans", scans)];
    let lp = node(
        &mut m,
        g,
        OpKind::Loop,
        &[Some(trip), Some(cond), Some(v0)],
        &results,
    );
    let body = subgraph(&mut m, lp, "body", "body");
    input(&mut m, body, "i", t(ElemType::I64, &[]));
    let c = input(&mut m, body, "c", t(ElemType::Bool, &[]));
    let v = input(&mut m, body, "v", f32t(&[2]));
    let c_out = op(
        &mut m,
        body,
        OpKind::Identity,
        &[c],
        "c_out",
        t(ElemType::Bool, &[]),
    );
    let add = op(&mut m, body, OpKind::Add, &[v, v], "v_out", f32t(&[2]));
    let scan = op(&mut m, body, OpKind::Identity, &[v], "scan_out", f32t(&[2]));
    for (name, o) in [("c_out", c_out), ("v_out", add), ("scan_out", scan)] {
        output(&mut m, body, name, o);
    }
    for (name, i) in [("v_final", 0), ("scans", 1)] {
        let v = res(&m, lp, i);
        m.ir.add_output(g, name, v);
    }
    (m, lp, body)
}

/// `Scan(init, xs)` (opset 17) with one state value, one scan input and
/// one scan output; returns the model, the Scan and its body.
fn scan_model() -> (Model, OpId, RegionId) {
    let mut m = model();
    let g = m.graph;
    let init = input(&mut m, g, "init", f32t(&[2]));
    let xs = input(&mut m, g, "xs", f32t(&[3, 2]));
    let results = [("final", f32t(&[2])), ("ys", f32t(&[3, 2]))];
    let scan = node(&mut m, g, OpKind::Scan, &[Some(init), Some(xs)], &results);
    set(&mut m, scan, "num_scan_inputs", Attr::Int(1));
    let body = subgraph(&mut m, scan, "body", "body");
    let s = input(&mut m, body, "s", f32t(&[2]));
    let x = input(&mut m, body, "x", f32t(&[2]));
    let add = op(&mut m, body, OpKind::Add, &[s, x], "s_next", f32t(&[2]));
    let id = op(&mut m, body, OpKind::Identity, &[x], "y", f32t(&[2]));
    output(&mut m, body, "s_next", add);
    output(&mut m, body, "y", id);
    for (name, i) in [("final", 0), ("ys", 1)] {
        let v = res(&m, scan, i);
        m.ir.add_output(g, name, v);
    }
    (m, scan, body)
}

/// `SequenceMap(xs) { y = Relu(x) }` over a sequence of f32 tensors, the
/// body's types left unknown.
fn sequence_map_model() -> (Model, OpId, RegionId) {
    let mut m = model();
    let g = m.graph;
    let xs = input(&mut m, g, "xs", seq(unranked(ElemType::F32)));
    let map = op(
        &mut m,
        g,
        OpKind::SequenceMap,
        &[xs],
        "ys",
        seq(unranked(ElemType::F32)),
    );
    let body = subgraph(&mut m, map, "body", "body");
    let x = input(&mut m, body, "x", Type::Unknown);
    let relu = op(&mut m, body, OpKind::Relu, &[x], "y", Type::Unknown);
    output(&mut m, body, "y", relu);
    output(&mut m, g, "ys", map);
    (m, map, body)
}

/// `main(x) -> y = Add(x, w)` with initializer `w` and a training
/// algorithm graph computing `w_new = Neg(w)`, bound to `w`.
fn training_model() -> Model {
    let mut m = model();
    let g = m.graph;
    let x = input(&mut m, g, "x", f32t(&[2]));
    let w = constant(&mut m, g, "w", floats(&[2], &[1.0, 2.0]));
    let w = res(&m, w, 0);
    let add = op(&mut m, g, OpKind::Add, &[x, w], "y", f32t(&[2]));
    output(&mut m, g, "y", add);
    let algo = m.ir.new_region("algorithm", RegionParent::Top);
    let neg = op(&mut m, algo, OpKind::Neg, &[w], "w_new", f32t(&[2]));
    output(&mut m, algo, "w_new", neg);
    m.training_info.push(TrainingInfo {
        initialization: None,
        algorithm: algo,
        initialization_binding: vec![],
        update_binding: vec![("w".to_string(), "w_new".to_string())],
    });
    m
}

// ---- assertions ----

#[track_caller]
fn assert_ok(m: &Model) {
    if let Err(e) = verify_model(m) {
        panic!("expected a valid model, got: {e}");
    }
}

/// Asserts that verification fails with `rule`, at a place containing
/// `at` and with a message containing `message`.
#[track_caller]
fn assert_fails(m: &Model, rule: Rule, at: &str, message: &str) {
    match verify_model(m) {
        Ok(()) => panic!("expected error[{rule}], the model verified"),
        Err(Error::Verify(e)) => {
            let text = e.to_string();
            assert_eq!(e.rule, rule, "wrong rule: {text}");
            assert!(
                text.starts_with(&format!("error[{}]: ", rule.name())),
                "{text}"
            );
            assert!(e.at.contains(at), "place {:?} lacks {at:?}: {text}", e.at);
            assert!(
                e.message.contains(message),
                "message lacks {message:?}: {text}"
            );
        }
        Err(other) => panic!("expected a verify error, got {other}"),
    }
}

// ---- the verifier itself ----

#[test]
fn rule_names_are_stable_kebab_case_and_unique() {
    let names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
    for (i, n) in names.iter().enumerate() {
        assert!(n.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{n}");
        assert!(!names[..i].contains(n), "{n} twice");
        assert_eq!(Rule::from_name(n), Some(Rule::ALL[i]));
    }
    assert_eq!(Rule::TopoOrder.to_string(), "topo-order");
    assert_eq!(Rule::from_name("nope"), None);
}

#[test]
fn the_op_table_has_the_shape_the_verifier_assumes() {
    op::table_assumptions_hold().unwrap();
}

#[test]
fn error_display_names_rule_place_and_problem() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    op(&mut m, g, OpKind::Neg, &[x], "y", f32t(&[2, 3]));
    let err = verify_model(&m).unwrap_err();
    assert_eq!(
        err.to_string(),
        "error[ssa]: node \"neg_1\" (Neg-13) result 0: \"y\" is already defined in this \
         graph, as result 0 of node \"relu_0\" (Relu-14)"
    );
}

#[test]
fn well_formed_models_verify() {
    assert_ok(&relu_model().0);
    assert_ok(&if_model().0);
    assert_ok(&loop_model().0);
    assert_ok(&scan_model().0);
    assert_ok(&sequence_map_model().0);
    assert_ok(&training_model());
}

#[test]
fn pass_is_registered_around_inference() {
    let pass = crate::passes::pass("verify").expect("verify pass");
    let (mut m, _, relu) = relu_model();
    assert!((pass.run)(&mut m).is_ok());
    m.ir.op_mut(relu).inputs.push(None);
    assert!(matches!((pass.run)(&mut m), Err(Error::Verify(e)) if e.rule == Rule::Arity));
    assert_eq!(
        crate::passes::DEFAULT_PIPELINE,
        [
            "verify-imported",
            "name-dims",
            "infer-shapes",
            "decompose",
            "fold-shapes",
            "dce",
            "verify"
        ]
    );
}

/// Random edits of the arena (dangling handles, wrong parents, stolen
/// values, cycles of graphs) give errors, never panics.
#[test]
fn broken_arenas_never_panic() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut errors = 0;
    for round in 0..3000 {
        let mut m = match round % 4 {
            0 => if_model().0,
            1 => loop_model().0,
            2 => scan_model().0,
            _ => training_model(),
        };
        for _ in 0..1 + next(3) {
            let (nv, no, nr) = (
                m.ir.num_values() + 2,
                m.ir.num_ops() + 2,
                m.ir.num_regions() + 2,
            );
            let (v, o, r) = (
                Value::from_index(next(nv)),
                OpId::from_index(next(no)),
                RegionId::from_index(next(nr)),
            );
            let op = OpId::from_index(next(m.ir.num_ops()));
            let region = RegionId::from_index(next(m.ir.num_regions()));
            let value = Value::from_index(next(m.ir.num_values()));
            match next(9) {
                0 => m.ir.op_mut(op).inputs.push(Some(v)),
                1 => m.ir.op_mut(op).parent = r,
                2 => m.ir.op_mut(op).results.push(Some(v)),
                3 => m.ir.op_mut(op).attrs.set("then_branch", Attr::Graph(r)),
                4 => m.ir.region_mut(region).ops.push(o),
                5 => m.ir.region_mut(region).parent = RegionParent::Op(o),
                6 => m.ir.region_mut(region).outputs.push(Output {
                    name: "o".into(),
                    value: v,
                }),
                7 => m.ir.value_mut(value).def = ValueDef::Result(o, next(3) as u32),
                _ => m.ir.value_mut(value).def = ValueDef::Arg(r, next(3) as u32),
            }
        }
        errors += usize::from(verify_model(&m).is_err());
    }
    assert!(
        errors > 2500,
        "most random edits break a rule ({errors} of 3000 did)"
    );
}

// ---- structure ----

#[test]
fn structure_op_listed_in_a_graph_that_is_not_its_parent() {
    let (mut m, _, _, then, _) = if_model();
    let relu = m.ir.region(then).ops[0];
    m.ir.op_mut(relu).parent = m.graph;
    let message = "is listed in graph \"then\" but its parent is graph \"main\"";
    assert_fails(&m, Rule::Structure, "relu_2", message);
}

#[test]
fn structure_op_listed_twice() {
    let (mut m, _, relu) = relu_model();
    let g = m.graph;
    m.ir.region_mut(g).ops.push(relu);
    let message = "lists node \"relu_0\" (Relu-14), which is already listed";
    assert_fails(&m, Rule::Structure, "graph \"main\"", message);
}

#[test]
fn structure_value_def_disagrees_with_its_place() {
    let (mut m, x, _) = relu_model();
    m.ir.value_mut(x).def = ValueDef::Arg(m.graph, 7);
    let message = "its entry says it is input 7 of graph \"main\"";
    assert_fails(&m, Rule::Structure, "graph \"main\" input 0", message);
}

#[test]
fn structure_subgraph_held_twice() {
    let (mut m, _, iff, then, _) = if_model();
    set(&mut m, iff, "else_branch", Attr::Graph(then));
    let message = "graph \"then\" is held by attribute \"else_branch\" of node \"if_1\" (If-16), \
                   and already by attribute \"then_branch\"";
    assert_fails(&m, Rule::Structure, "if_1", message);
}

#[test]
fn structure_subgraph_parent_disagrees() {
    let (mut m, _, _, then, _) = if_model();
    m.ir.region_mut(then).parent = RegionParent::Top;
    assert_fails(
        &m,
        Rule::Structure,
        "if_1",
        "but it says it is a top-level graph",
    );
}

#[test]
fn structure_subgraph_holding_its_own_graph() {
    let (mut m, _, iff, _, _) = if_model();
    let g = m.graph;
    set(&mut m, iff, "else_branch", Attr::Graph(g));
    let message = "graph \"main\" is held by attribute \"else_branch\"";
    assert_fails(&m, Rule::Structure, "if_1", message);
}

#[test]
fn structure_dangling_handles_do_not_panic() {
    let (mut m, _, relu) = relu_model();
    m.ir.op_mut(relu).inputs[0] = Some(Value::from_index(999));
    let message = "refers to value v999, which does not exist";
    assert_fails(&m, Rule::Structure, "relu_0", message);

    let (mut m, _, relu) = relu_model();
    set(&mut m, relu, "body", Attr::Graph(RegionId::from_index(42)));
    let message = "holds graph r42, which does not exist";
    assert_fails(&m, Rule::Structure, "relu_0", message);

    let (mut m, _, _) = relu_model();
    let g = m.graph;
    m.ir.region_mut(g).ops.push(OpId::from_index(50));
    let message = "lists op op50, which does not exist";
    assert_fails(&m, Rule::Structure, "graph \"main\"", message);

    let (mut m, _, _) = relu_model();
    m.graph = RegionId::from_index(9);
    let message = "the main graph is r9, which does not exist";
    assert_fails(&m, Rule::Structure, "model", message);
}

// ---- names ----

#[test]
fn names_graphs_and_their_inputs_and_outputs_are_named() {
    let (mut m, x, _) = relu_model();
    m.ir.value_mut(x).name = None;
    assert_fails(
        &m,
        Rule::Names,
        "graph \"main\" input 0",
        "graph inputs must be named",
    );

    let (mut m, _, _) = relu_model();
    let g = m.graph;
    m.ir.region_mut(g).outputs[0].name.clear();
    assert_fails(
        &m,
        Rule::Names,
        "graph \"main\" output 0",
        "graph outputs must be named",
    );

    let (mut m, _, _, then, _) = if_model();
    m.ir.region_mut(then).name.clear();
    assert_fails(&m, Rule::Names, "if_1", "a graph has an empty name");
}

#[test]
fn names_output_names_are_unique() {
    let (mut m, _, relu) = relu_model();
    let g = m.graph;
    output(&mut m, g, "y", relu);
    let message = "output name \"y\" is also the name of output 0";
    assert_fails(&m, Rule::Names, "graph \"main\" output 1", message);

    // The same value under two names is fine.
    let (mut m, _, relu) = relu_model();
    output(&mut m, g, "y_again", relu);
    assert_ok(&m);
}

#[test]
fn names_value_names_are_not_empty() {
    let (mut m, _, relu) = relu_model();
    let y = res(&m, relu, 0);
    m.ir.value_mut(y).name = Some(String::new());
    assert_fails(&m, Rule::Names, "relu_0", "a value name must not be empty");
    // Values made by passes may be unnamed.
    m.ir.value_mut(y).name = None;
    assert_ok(&m);
}

#[test]
fn names_subgraph_inputs_with_defaults_depend_on_the_ir_version() {
    // IR version 3 declares subgraph initializers as trailing inputs with a
    // default; the Loop does not pass them.
    let (mut m, _, body) = loop_model();
    m.ir_version = 3;
    let bias = input(&mut m, body, "bias", f32t(&[2]));
    m.ir.region_mut(body).args[3].default = Some(floats(&[2], &[0.5, 0.5]));
    let v = m.ir.region(body).args[2].value;
    let add = m.ir.region(body).ops[1];
    m.ir.op_mut(add).inputs = vec![Some(v), Some(bias)];
    assert_ok(&m);

    m.ir_version = 4;
    let message = "a subgraph input cannot also be an initializer (have a default value) in IR \
                   version 4 and later";
    assert_fails(&m, Rule::Names, "graph \"body\" input 3", message);
}

// ---- ssa ----

#[test]
fn ssa_value_handle_defined_twice() {
    let (mut m, x, relu) = relu_model();
    let g = m.graph;
    let y = res(&m, relu, 0);
    let neg = op(&mut m, g, OpKind::Neg, &[x], "z", f32t(&[2, 3]));
    m.ir.op_mut(neg).results[0] = Some(y);
    let message = "is defined twice: as result 0 of node \"relu_0\"";
    assert_fails(&m, Rule::Ssa, "neg_1", message);
}

#[test]
fn ssa_graph_input_names_are_unique() {
    let (mut m, _, _) = relu_model();
    let g = m.graph;
    input(&mut m, g, "x", f32t(&[1]));
    let message = "\"x\" is already defined in this graph, as input 0";
    assert_fails(&m, Rule::Ssa, "graph \"main\" input 1", message);
}

#[test]
fn ssa_initializer_name_clashes_with_node_output() {
    let (mut m, _, _) = relu_model();
    let g = m.graph;
    let c = constant(&mut m, g, "y", floats(&[1], &[1.0]));
    m.ir.op_mut(c).name.clear();
    let at = "unnamed node (Constant-13) result 0";
    assert_fails(&m, Rule::Ssa, at, "\"y\" is already defined in this graph");
}

#[test]
fn ssa_subgraph_node_output_may_not_shadow_an_outer_name() {
    let (mut m, _, _, then, _) = if_model();
    let relu = m.ir.region(then).ops[0];
    let t = res(&m, relu, 0);
    m.ir.value_mut(t).name = Some("x".into());
    let message = "\"x\" is already defined in the enclosing graph \"main\", as input 0 of graph \
                   \"main\"; a node output must not reuse a name visible from an enclosing graph";
    assert_fails(
        &m,
        Rule::Ssa,
        "relu_2\" (Relu-14) in graph \"then\" result 0",
        message,
    );
}

#[test]
fn ssa_scoping_follows_the_checker() {
    // Sibling branches may reuse a name.
    let (mut m, _, _, then, els) = if_model();
    for r in [then, els] {
        let o = m.ir.region(r).ops[0];
        let v = res(&m, o, 0);
        m.ir.value_mut(v).name = Some("same".into());
        m.ir.region_mut(r).outputs[0].name = "same".into();
    }
    assert_ok(&m);

    // A subgraph may reuse the name of its op's own result, and a name the
    // enclosing graph defines after the op.
    let (mut m, x, _, then, _) = if_model();
    let relu = m.ir.region(then).ops[0];
    let t = res(&m, relu, 0);
    m.ir.value_mut(t).name = Some("y".into());
    m.ir.region_mut(then).outputs[0].name = "y".into();
    let g = m.graph;
    let later = op(&mut m, g, OpKind::Neg, &[x], "e", f32t(&[2]));
    output(&mut m, g, "e", later);
    assert_ok(&m);

    // A subgraph input may shadow an outer name (the checker checks graph
    // inputs within their graph only).
    let (mut m, _, body) = loop_model();
    let v = m.ir.region(body).args[2].value;
    m.ir.value_mut(v).name = Some("v0".into());
    assert_ok(&m);
}

#[test]
fn ssa_training_algorithm_continues_the_main_graph() {
    let mut m = training_model();
    let algo = m.training_info[0].algorithm;
    let neg = m.ir.region(algo).ops[0];
    let v = res(&m, neg, 0);
    m.ir.value_mut(v).name = Some("y".into());
    let message = "already defined in the enclosing graph \"main\"";
    assert_fails(&m, Rule::Ssa, "in graph \"algorithm\" result 0", message);

    // Its inputs may not reuse main-graph names either.
    let mut m = training_model();
    let algo = m.training_info[0].algorithm;
    input(&mut m, algo, "x", f32t(&[2]));
    assert_fails(&m, Rule::Ssa, "graph \"algorithm\" input 0", message);
}

// ---- topo-order ----

#[test]
fn topo_order_use_before_definition() {
    let (mut m, _, relu) = relu_model();
    let g = m.graph;
    let y = res(&m, relu, 0);
    op(&mut m, g, OpKind::Neg, &[y], "z", f32t(&[2, 3]));
    m.ir.region_mut(g).ops.reverse();
    let message = "input 0 (\"y\") is used before its definition, result 0 of node \"relu_0\"";
    assert_fails(&m, Rule::TopoOrder, "neg_1", message);
}

#[test]
fn topo_order_cycles_are_caught() {
    let (mut m, _, relu) = relu_model();
    let y = res(&m, relu, 0);
    m.ir.op_mut(relu).inputs[0] = Some(y);
    let message = "input 0 (\"y\") is a result of this node itself (a cycle)";
    assert_fails(&m, Rule::TopoOrder, "relu_0", message);

    // relu -> neg -> relu
    let (mut m, _, relu) = relu_model();
    let g = m.graph;
    let y = res(&m, relu, 0);
    let neg = op(&mut m, g, OpKind::Neg, &[y], "z", f32t(&[2, 3]));
    m.ir.op_mut(relu).inputs[0] = Some(res(&m, neg, 0));
    let message = "input 0 (\"z\") is used before its definition, result 0 of node \"neg_1\"";
    assert_fails(&m, Rule::TopoOrder, "relu_0", message);
}

#[test]
fn topo_order_subgraph_uses_its_own_op_result() {
    let (mut m, _, iff, then, _) = if_model();
    let y = res(&m, iff, 0);
    let relu = m.ir.region(then).ops[0];
    m.ir.op_mut(relu).inputs[0] = Some(y);
    let message = "input 0 (\"y\") is used before its definition, result 0 of node \"if_1\"";
    assert_fails(&m, Rule::TopoOrder, "in graph \"then\"", message);
}

// ---- undefined-value ----

#[test]
fn undefined_value_from_a_sibling_branch() {
    let (mut m, _, _, then, els) = if_model();
    let t = res(&m, m.ir.region(then).ops[0], 0);
    let neg = m.ir.region(els).ops[0];
    m.ir.op_mut(neg).inputs[0] = Some(t);
    let message = "input 0 (\"t\") is defined as result 0 of node \"relu_2\" (Relu-14) in \
                   graph \"then\", in a graph that does not enclose this use";
    assert_fails(
        &m,
        Rule::UndefinedValue,
        "neg_3\" (Neg-13) in graph \"else\"",
        message,
    );
}

#[test]
fn undefined_value_from_inside_a_subgraph() {
    let (mut m, _, _, then, _) = if_model();
    let t = res(&m, m.ir.region(then).ops[0], 0);
    let g = m.graph;
    m.ir.region_mut(g).outputs[0].value = t;
    let message = "value \"t\" is defined as result 0";
    assert_fails(&m, Rule::UndefinedValue, "graph \"main\" output 0", message);
}

#[test]
fn undefined_value_of_a_detached_op() {
    let (mut m, x, relu) = relu_model();
    let g = m.graph;
    let neg = op(&mut m, g, OpKind::Neg, &[x], "z", f32t(&[2, 3]));
    m.ir.detach_op(neg);
    m.ir.op_mut(relu).inputs[0] = Some(res(&m, neg, 0));
    let message = "input 0 (\"z\") is not defined in any graph (its entry says result 0 of node \
                   \"neg_1\" (Neg-13), which is in no graph)";
    assert_fails(&m, Rule::UndefinedValue, "relu_0", message);
}

#[test]
fn undefined_value_stale_or_dangling_definitions() {
    // A value whose graph no longer lists it.
    let (mut m, x, relu) = relu_model();
    let g = m.graph;
    let stale = input(&mut m, g, "stale", f32t(&[2, 3]));
    m.ir.region_mut(g).args.pop();
    m.ir.op_mut(relu).inputs[0] = Some(stale);
    let message = "input 0 (\"stale\") is not defined in any graph (its entry says input 1 of \
                   graph \"main\", which does not hold it)";
    assert_fails(&m, Rule::UndefinedValue, "relu_0", message);

    // A value whose definition does not exist.
    m.ir.value_mut(stale).def = ValueDef::Result(OpId::from_index(77), 0);
    let message = "(its entry says Result(op77, 0), which does not exist)";
    assert_fails(&m, Rule::UndefinedValue, "relu_0", message);
    let _ = x;
}

#[test]
fn undefined_value_outer_scope_uses_are_allowed() {
    // The branches of `if_model` read `x` of the main graph; a subgraph
    // output may also be an outer value directly.
    let (mut m, x, _, then, _) = if_model();
    m.ir.region_mut(then).outputs[0].value = x;
    assert_ok(&m);
}

// ---- ir-version and opset-import ----

#[test]
fn ir_version_is_known_and_consistent_with_imports() {
    let (mut m, _, _) = relu_model();
    m.ir_version = 99;
    let message = "ir_version 99 is not an IR version this compiler knows";
    assert_fails(&m, Rule::IrVersion, "model", message);

    let (mut m, _, _) = relu_model();
    m.ir_version = 2;
    let message = "a model of IR version 2 cannot import opsets";
    assert_fails(&m, Rule::IrVersion, "model", message);

    let (mut m, _, _) = relu_model();
    m.opset_imports.clear();
    let message = "a model of IR version 14 must import its opsets";
    assert_fails(&m, Rule::IrVersion, "model", message);

    // IR version < 3 without imports means ai.onnx opset 1.
    let (mut m, _, relu) = relu_model();
    m.opset_imports.clear();
    m.ir_version = 2;
    m.ir.op_mut(relu).version = 1;
    assert_ok(&m);
}

#[test]
fn opset_import_domains_are_unique_and_versions_positive() {
    let (mut m, _, _) = relu_model();
    m.opset_imports.push(import("ai.onnx", 18));
    let message = "domain \"ai.onnx\" is imported twice (also as \"\")";
    assert_fails(&m, Rule::OpsetImport, "model", message);

    let (mut m, _, _) = relu_model();
    m.opset_imports.push(import("com.example", 0));
    let message = "domain \"com.example\" is imported at version 0";
    assert_fails(&m, Rule::OpsetImport, "model", message);

    // Custom domains may be imported (their ops cannot appear).
    let (mut m, _, _) = relu_model();
    m.opset_imports.push(import("com.example", 1));
    assert_ok(&m);
}

// ---- op-version ----

#[test]
fn op_version_domain_must_be_imported() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    m.opset_imports.push(import("ai.onnx.ml", 3));
    let scaler = op(&mut m, g, OpKind::Scaler, &[x], "s", f32t(&[2, 3]));
    output(&mut m, g, "s", scaler);
    assert_ok(&m);
    m.opset_imports.pop();
    let at = "node \"scaler_1\" (ai.onnx.ml.Scaler-1)";
    assert_fails(
        &m,
        Rule::OpVersion,
        at,
        "the model does not import domain ai.onnx.ml",
    );
}

#[test]
fn op_version_matches_the_import() {
    let (mut m, _, relu) = relu_model();
    m.ir.op_mut(relu).version = 12;
    let message = "Relu has no version 12 (versions: 1, 6, 13, 14)";
    assert_fails(&m, Rule::OpVersion, "relu_0", message);

    let (mut m, _, relu) = relu_model();
    m.ir.op_mut(relu).version = 13;
    let message = "the model imports ai.onnx opset 17, where Relu is version 14, not 13";
    assert_fails(&m, Rule::OpVersion, "(Relu-13)", message);

    let (mut m, _, relu) = relu_model();
    m.ir.op_mut(relu).kind = OpKind::Gelu;
    m.ir.op_mut(relu).version = 20;
    let message = "Gelu does not exist in ai.onnx opset 17; it appears in opset 20";
    assert_fails(&m, Rule::OpVersion, "(Gelu-20)", message);
}

#[test]
fn op_version_deprecated_ops_are_rejected() {
    let mut m = Model::new("main", vec![import("", 10)]);
    let g = m.graph;
    let x = input(&mut m, g, "x", f32t(&[1, 1, 2, 2]));
    let scales = constant(&mut m, g, "scales", floats(&[4], &[1.0, 1.0, 2.0, 2.0]));
    let scales = res(&m, scales, 0);
    let up = op(
        &mut m,
        g,
        OpKind::Upsample,
        &[x, scales],
        "y",
        f32t(&[1, 1, 4, 4]),
    );
    output(&mut m, g, "y", up);
    let message = "Upsample is deprecated since ai.onnx opset 10";
    assert_fails(&m, Rule::OpVersion, "(Upsample-10)", message);

    // Opset 9 resolves to the version before the deprecation.
    m.opset_imports = vec![import("", 9)];
    m.ir.op_mut(up).version = 9;
    let c = m.ir.region(g).ops[0];
    m.ir.op_mut(c).version = 9;
    assert_ok(&m);
}

// ---- attr-name, missing-attr, attr-kind ----

#[test]
fn attr_name_unknown_and_duplicate() {
    let (mut m, _, relu) = relu_model();
    set(&mut m, relu, "alpha", Attr::Float(0.1));
    let message = "unknown attribute \"alpha\" (attributes of Relu: none)";
    assert_fails(&m, Rule::AttrName, "relu_0", message);

    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let leaky = op(&mut m, g, OpKind::LeakyRelu, &[x], "l", f32t(&[2, 3]));
    set(&mut m, leaky, "alpha", Attr::Float(0.1));
    assert_ok(&m);
    m.ir.op_mut(leaky)
        .attrs
        .0
        .push(("alpha".into(), Attr::Float(0.2)));
    let message = "attribute \"alpha\" is given twice";
    assert_fails(&m, Rule::AttrName, "leakyrelu_1", message);
}

#[test]
fn attr_name_exceptions_of_the_checker() {
    // Internal attributes (`__name`) are not checked.
    let (mut m, _, relu) = relu_model();
    set(&mut m, relu, "__fused", Attr::Int(1));
    assert_ok(&m);

    // LayerNormalization-17 allows unchecked attributes.
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let scale = input(&mut m, g, "scale", f32t(&[3]));
    let norm = op(
        &mut m,
        g,
        OpKind::LayerNormalization,
        &[x, scale],
        "n",
        f32t(&[2, 3]),
    );
    set(&mut m, norm, "whatever", Attr::Int(3));
    assert_ok(&m);
}

#[test]
fn missing_attr_required_attribute() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let cast = op(
        &mut m,
        g,
        OpKind::Cast,
        &[x],
        "c",
        t(ElemType::I64, &[2, 3]),
    );
    let message = "required attribute \"to\" is missing";
    assert_fails(&m, Rule::MissingAttr, "cast_1", message);
    set(
        &mut m,
        cast,
        "to",
        Attr::Int(ElemType::I64.onnx_code().into()),
    );
    assert_ok(&m);
}

#[test]
fn attr_kind_must_match_the_schema() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let leaky = op(&mut m, g, OpKind::LeakyRelu, &[x], "l", f32t(&[2, 3]));
    set(&mut m, leaky, "alpha", Attr::Int(1));
    let message = "attribute \"alpha\" must be FLOAT, got INT";
    assert_fails(&m, Rule::AttrKind, "leakyrelu_1", message);

    let (mut m, _, iff, _, els) = if_model();
    set(&mut m, iff, "else_branch", Attr::Graphs(vec![els]));
    let message = "attribute \"else_branch\" must be GRAPH, got GRAPHS";
    assert_fails(&m, Rule::AttrKind, "if_1", message);
}

// ---- arity ----

#[test]
fn arity_counts_within_the_schema_bounds() {
    let (mut m, x, relu) = relu_model();
    m.ir.op_mut(relu).inputs.push(Some(x));
    assert_fails(&m, Rule::Arity, "relu_0", "has 2 inputs, Relu takes 1");

    let (mut m, x, _) = relu_model();
    let g = m.graph;
    node(
        &mut m,
        g,
        OpKind::Clip,
        &[Some(x), None, None, None],
        &[("c", f32t(&[2, 3]))],
    );
    assert_fails(&m, Rule::Arity, "clip_1", "has 4 inputs, Clip takes 1 to 3");

    let (mut m, _, _) = relu_model();
    let g = m.graph;
    let concat = op(&mut m, g, OpKind::Concat, &[], "c", f32t(&[2, 3]));
    set(&mut m, concat, "axis", Attr::Int(0));
    let message = "variadic input \"inputs\" needs at least 1 values, got 0";
    assert_fails(&m, Rule::Arity, "concat_1", message);
}

#[test]
fn arity_only_optional_parameters_may_be_absent() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    node(
        &mut m,
        g,
        OpKind::Add,
        &[Some(x), None],
        &[("a", f32t(&[2, 3]))],
    );
    assert_fails(
        &m,
        Rule::Arity,
        "add_1",
        "input 1 (\"B\", required) is absent",
    );

    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let concat = node(
        &mut m,
        g,
        OpKind::Concat,
        &[Some(x), None],
        &[("c", f32t(&[4, 3]))],
    );
    set(&mut m, concat, "axis", Attr::Int(0));
    assert_fails(
        &m,
        Rule::Arity,
        "concat_1",
        "input 1 (\"inputs\", variadic) is absent",
    );

    let (mut m, _, relu) = relu_model();
    let g = m.graph;
    m.ir.op_mut(relu).results[0] = None;
    m.ir.region_mut(g).outputs.clear();
    assert_fails(
        &m,
        Rule::Arity,
        "relu_0",
        "output 0 (\"Y\", required) is absent",
    );

    // Optional inputs may be absent anywhere, optional outputs too.
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let max = constant(&mut m, g, "max", TensorData::scalar(6.0f32));
    let max = res(&m, max, 0);
    node(
        &mut m,
        g,
        OpKind::Clip,
        &[Some(x), None, Some(max)],
        &[("c", f32t(&[2, 3]))],
    );
    let dropout = op(&mut m, g, OpKind::Dropout, &[x], "d", f32t(&[2, 3]));
    m.ir.op_mut(dropout).results.push(None);
    assert_ok(&m);
}

// ---- type-constraint ----

#[test]
fn type_constraint_allowed_types() {
    let mut m = model();
    let g = m.graph;
    let x = input(&mut m, g, "x", t(ElemType::String, &[2]));
    let relu = op(
        &mut m,
        g,
        OpKind::Relu,
        &[x],
        "y",
        t(ElemType::String, &[2]),
    );
    output(&mut m, g, "y", relu);
    let message = "input 0 (\"x\") has type tensor<2xstring>, which type variable T of \"X\" does \
                   not allow (allowed: tensor(float)";
    assert_fails(&m, Rule::TypeConstraint, "relu_0", message);
}

#[test]
fn type_constraint_variables_bind_one_type() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let i = input(&mut m, g, "i", t(ElemType::I64, &[3]));
    op(&mut m, g, OpKind::Add, &[x, i], "s", f32t(&[2, 3]));
    let message = "input 1 (\"i\") has type tensor<3xi64>, but input 0 (\"x\") has type \
                   tensor<2x3xf32> and both are of type variable T";
    assert_fails(&m, Rule::TypeConstraint, "add_1", message);

    // Outputs bind too.
    let (mut m, _, relu) = relu_model();
    let y = res(&m, relu, 0);
    m.ir.value_mut(y).ty = t(ElemType::F64, &[2, 3]);
    let message = "output 0 (\"y\") has type tensor<2x3xf64>, but input 0 (\"x\")";
    assert_fails(&m, Rule::TypeConstraint, "relu_0", message);

    // Shapes do not matter (broadcasting); unknown types match anything.
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let b = input(&mut m, g, "b", f32t(&[3]));
    let i = input(&mut m, g, "i", t(ElemType::I64, &[]));
    op(&mut m, g, OpKind::Add, &[x, b], "s", f32t(&[2, 3]));
    let u = op(&mut m, g, OpKind::Identity, &[x], "u", Type::Unknown);
    let u = res(&m, u, 0);
    op(&mut m, g, OpKind::Add, &[u, x], "s2", Type::Unknown);
    op(&mut m, g, OpKind::Add, &[u, i], "s3", Type::Unknown);
    assert_ok(&m);
}

#[test]
fn type_constraint_fixed_types() {
    let (mut m, x, _) = relu_model();
    let g = m.graph;
    let shape = input(&mut m, g, "shape", t(ElemType::I32, &[2]));
    op(&mut m, g, OpKind::Reshape, &[x, shape], "r", f32t(&[3, 2]));
    let message = "input 1 (\"shape\") has type tensor<2xi32>, but \"shape\" must be tensor(int64)";
    assert_fails(&m, Rule::TypeConstraint, "reshape_1", message);
}

#[test]
fn type_constraint_heterogeneous_variadics_do_not_bind() {
    // A Loop without trip count carrying an f32 and an i64 value: each
    // satisfies V on its own.
    let mut m = model();
    let g = m.graph;
    let cond = input(&mut m, g, "cond", t(ElemType::Bool, &[]));
    let v0 = input(&mut m, g, "v0", f32t(&[2]));
    let k0 = input(&mut m, g, "k0", t(ElemType::I64, &[]));
    let inputs = [None, Some(cond), Some(v0), Some(k0)];
    let lp = node(
        &mut m,
        g,
        OpKind::Loop,
        &inputs,
        &[("v", f32t(&[2])), ("k", t(ElemType::I64, &[]))],
    );
    let body = subgraph(&mut m, lp, "body", "body");
    input(&mut m, body, "i", t(ElemType::I64, &[]));
    let c = input(&mut m, body, "c", t(ElemType::Bool, &[]));
    let v = input(&mut m, body, "vb", f32t(&[2]));
    let k = input(&mut m, body, "kb", t(ElemType::I64, &[]));
    for (value, name) in [(c, "c_out"), (v, "v_out"), (k, "k_out")] {
        m.ir.add_output(body, name, value);
    }
    for (i, name) in [(0, "v"), (1, "k")] {
        let value = res(&m, lp, i);
        m.ir.add_output(g, name, value);
    }
    assert_ok(&m);
}

// ---- io-type ----

#[test]
fn io_type_main_graph_inputs_and_outputs_are_ranked() {
    let (mut m, x, _) = relu_model();
    m.ir.value_mut(x).ty = unranked(ElemType::F32);
    assert_fails(
        &m,
        Rule::IoType,
        "graph \"main\" input 0 (\"x\")",
        "has no rank",
    );

    let (mut m, _, relu) = relu_model();
    let y = res(&m, relu, 0);
    m.ir.value_mut(y).ty = Type::Unknown;
    assert_fails(
        &m,
        Rule::IoType,
        "graph \"main\" output 0 (\"y\")",
        "has no type",
    );

    // Sequences need an element type, not a rank; subgraph values need no
    // type at all (`sequence_map_model`'s body has none).
    let (mut m, _, _) = sequence_map_model();
    assert_ok(&m);
    let g = m.graph;
    let ys = m.ir.region(g).outputs[0].value;
    m.ir.value_mut(ys).ty = seq(Type::Unknown);
    let at = "graph \"main\" output 0 (\"ys\")";
    assert_fails(&m, Rule::IoType, at, "has no element type");
}

#[test]
fn io_type_imported_models_may_leave_output_ranks_to_inference() {
    let (mut m, x, relu) = relu_model();
    let y = res(&m, relu, 0);
    m.ir.value_mut(y).ty = unranked(ElemType::F32);
    assert!(matches!(verify_model(&m), Err(Error::Verify(e)) if e.rule == Rule::IoType));
    assert!(crate::verify::verify_imported_model(&m).is_ok());
    // Inputs cannot be inferred: they need their rank either way.
    m.ir.value_mut(x).ty = unranked(ElemType::F32);
    assert!(matches!(
        crate::verify::verify_imported_model(&m),
        Err(Error::Verify(e)) if e.rule == Rule::IoType
    ));
}

// ---- constant-value ----

#[test]
fn constant_value_agrees_with_the_result_type() {
    let (mut m, _, _) = relu_model();
    let g = m.graph;
    let w = constant(&mut m, g, "w", floats(&[2, 3], &[0.0; 6]));
    m.ir.value_mut(res(&m, w, 0)).ty = f32t(&[3]);
    let message = "result \"w\" is declared as tensor<3xf32>, but attribute \"value\" is \
                   tensor<2x3xf32>";
    assert_fails(&m, Rule::ConstantValue, "constant_1", message);

    let (mut m, _, _) = relu_model();
    let g = m.graph;
    let k = op(
        &mut m,
        g,
        OpKind::Constant,
        &[],
        "k",
        t(ElemType::I32, &[3]),
    );
    set(&mut m, k, "value_ints", Attr::Ints(vec![1, 2, 3]));
    let message = "but attribute \"value_ints\" is tensor<3xi64>";
    assert_fails(&m, Rule::ConstantValue, "constant_1", message);

    // Symbolic and unknown dims accept any size.
    let (mut m, _, _) = relu_model();
    let g = m.graph;
    let w = constant(&mut m, g, "w", floats(&[2, 3], &[0.0; 6]));
    let dims = vec![Dim::param("N"), Dim::Unknown];
    m.ir.value_mut(res(&m, w, 0)).ty = Type::Tensor(TensorType::with_dims(ElemType::F32, dims));
    // A sparse value makes a dense tensor (ONNX's Constant inference).
    let sparse = SparseTensorData {
        dims: vec![4],
        values: floats(&[1], &[1.0]),
        indices: TensorData::i64s(&[2]),
    };
    let sp = op(&mut m, g, OpKind::Constant, &[], "sp", f32t(&[4]));
    set(&mut m, sp, "sparse_value", Attr::SparseTensor(sparse));
    assert_ok(&m);
}

#[test]
fn constant_value_exactly_one_value_attribute() {
    let (mut m, _, _) = relu_model();
    let g = m.graph;
    let k = op(&mut m, g, OpKind::Constant, &[], "k", t(ElemType::I64, &[]));
    let message = "a Constant needs exactly one of value, sparse_value, value_float";
    assert_fails(&m, Rule::ConstantValue, "constant_1", message);

    set(&mut m, k, "value_int", Attr::Int(1));
    assert_ok(&m);
    set(&mut m, k, "value_float", Attr::Float(1.0));
    assert_fails(
        &m,
        Rule::ConstantValue,
        "constant_1",
        "it has value_float, value_int",
    );
}

#[test]
fn constant_value_input_defaults_agree_with_the_input() {
    let (mut m, _, _) = relu_model();
    let g = m.graph;
    m.ir.region_mut(g).args[0].default = Some(TensorData::i64s(&[1, 2, 3]));
    let message = "the input is declared as tensor<2x3xf32>, but its default value (initializer) \
                   is tensor<3xi64>";
    assert_fails(
        &m,
        Rule::ConstantValue,
        "graph \"main\" input 0 (\"x\")",
        message,
    );

    m.ir.region_mut(g).args[0].default = Some(floats(&[2, 3], &[0.5; 6]));
    assert_ok(&m);
}

// ---- control-flow ----

#[test]
fn control_flow_if_branches() {
    let (mut m, x, _, then, _) = if_model();
    m.ir.add_output(then, "extra", x);
    let message = "then_branch \"then\" has 2 outputs, but the If has 1 results";
    assert_fails(&m, Rule::ControlFlow, "if_1", message);

    let (mut m, _, _, _, els) = if_model();
    input(&mut m, els, "z", f32t(&[2]));
    let message = "else_branch \"else\" takes 1 inputs; If branches take none";
    assert_fails(&m, Rule::ControlFlow, "if_1", message);

    let (mut m, _, iff, _, _) = if_model();
    let y = res(&m, iff, 0);
    m.ir.value_mut(y).ty = t(ElemType::I32, &[2]);
    let message = "then_branch \"then\" output 0 and If result 0 differ in type: tensor<2xf32> vs \
                   tensor<2xi32>";
    assert_fails(&m, Rule::ControlFlow, "if_1", message);
}

#[test]
fn control_flow_loop_body_signature() {
    let (mut m, _, body) = loop_model();
    m.ir.region_mut(body).args.pop();
    let message = "body \"body\" takes 2 inputs, but the Loop passes 2 + 1";
    assert_fails(&m, Rule::ControlFlow, "loop_0", message);

    let (mut m, _, body) = loop_model();
    m.ir.region_mut(body).outputs.pop();
    let message = "body \"body\" has 2 outputs, but the Loop needs 1 + 2";
    assert_fails(&m, Rule::ControlFlow, "loop_0", message);

    let (mut m, lp, _) = loop_model();
    let g = m.graph;
    m.ir.op_mut(lp).results.truncate(0);
    m.ir.region_mut(g).outputs.clear();
    let message = "variadic output \"v_final_and_scan_outputs\" needs at least 1 values, got 0";
    assert_fails(&m, Rule::Arity, "loop_0", message);

    let (mut m, _, body) = loop_model();
    let i = m.ir.region(body).args[0].value;
    m.ir.value_mut(i).ty = t(ElemType::I32, &[]);
    let message = "body \"body\" input 0 (the iteration number) must be a tensor of int64, got \
                   tensor<i32>";
    assert_fails(&m, Rule::ControlFlow, "loop_0", message);

    let (mut m, _, body) = loop_model();
    let v = m.ir.region(body).args[2].value;
    m.ir.value_mut(v).ty = t(ElemType::F64, &[2]);
    let message = "loop-carried value 0: Loop input 2 and body \"body\" input 2 differ in type";
    assert_fails(&m, Rule::ControlFlow, "loop_0", message);
}

/// `Loop(trip, none, v0)` whose carried value enters as `entry` (the type
/// of `v0` and of the body's input) and leaves as `exit`, computed from the
/// body's input by `kind`; the Loop's result has type `result`.
fn carried_loop(entry: Type, kind: OpKind, exit: Type, result: Type) -> Model {
    let mut m = model();
    let g = m.graph;
    let trip = input(&mut m, g, "trip", t(ElemType::I64, &[]));
    let v0 = input(&mut m, g, "v0", entry.clone());
    let lp = node(
        &mut m,
        g,
        OpKind::Loop,
        &[Some(trip), None, Some(v0)],
        &[("v_final", result)],
    );
    let body = subgraph(&mut m, lp, "body", "body");
    input(&mut m, body, "i", t(ElemType::I64, &[]));
    let c = input(&mut m, body, "c", t(ElemType::Bool, &[]));
    let v = input(&mut m, body, "v", entry);
    let c_out = op(
        &mut m,
        body,
        OpKind::Identity,
        &[c],
        "c_out",
        t(ElemType::Bool, &[]),
    );
    let v_out = op(&mut m, body, kind, &[v], "v_out", exit);
    output(&mut m, body, "c_out", c_out);
    output(&mut m, body, "v_out", v_out);
    output(&mut m, g, "v_final", lp);
    m
}

#[test]
fn control_flow_loop_carried_optionals() {
    let opt = |ty: Type| Type::Optional(Box::new(ty));
    let floats = seq(f32t(&[2]));
    // The backend's test_loop16_seq_none: an optional sequence enters, the
    // body returns the sequence it holds (onnx and onnxruntime accept it).
    let m = carried_loop(
        opt(floats.clone()),
        OpKind::OptionalGetElement,
        floats.clone(),
        floats.clone(),
    );
    assert_ok(&m);
    // And the reverse: a sequence enters, the body returns it wrapped.
    let wrapped = opt(floats.clone());
    let m = carried_loop(
        floats.clone(),
        OpKind::Optional,
        wrapped.clone(),
        wrapped.clone(),
    );
    assert_ok(&m);

    // A tensor that leaves as a sequence (onnx's inference lets it pass,
    // onnxruntime fails in the second iteration).
    let m = carried_loop(
        f32t(&[2]),
        OpKind::SequenceConstruct,
        floats.clone(),
        floats.clone(),
    );
    let message = "loop-carried value 0: Loop input 2 and body \"body\" output 1 differ in type: \
                   tensor<2xf32> vs !onnx.seq<tensor<2xf32>>";
    assert_fails(&m, Rule::ControlFlow, "loop_0", message);
    // The Loop's result has the type the body returns (onnx: "type case
    // mismatch").
    let m = carried_loop(
        opt(floats.clone()),
        OpKind::OptionalGetElement,
        floats.clone(),
        opt(floats),
    );
    let message = "loop-carried value 0: body \"body\" output 1 and Loop result 0 differ in type";
    assert_fails(&m, Rule::ControlFlow, "loop_0", message);
}

#[test]
fn control_flow_scan_body_signature() {
    for m_attr in [0, 3] {
        let (mut m, scan, _) = scan_model();
        set(&mut m, scan, "num_scan_inputs", Attr::Int(m_attr));
        let message =
            format!("num_scan_inputs is {m_attr}, but the Scan has 2 state and scan inputs");
        assert_fails(&m, Rule::ControlFlow, "scan_0", &message);
    }

    // Two state values, one scan input, but a single result.
    let (mut m, scan, body) = scan_model();
    let g = m.graph;
    let extra = input(&mut m, g, "extra", f32t(&[2]));
    m.ir.op_mut(scan).inputs.insert(0, Some(extra));
    input(&mut m, body, "s2", f32t(&[2]));
    m.ir.op_mut(scan).results.truncate(1);
    m.ir.region_mut(g).outputs.truncate(1);
    let message = "the Scan has 1 results, fewer than its 2 state values";
    assert_fails(&m, Rule::ControlFlow, "scan_0", message);

    let (mut m, _, body) = scan_model();
    m.ir.region_mut(body).args.pop();
    let message = "body \"body\" takes 1 inputs, but the Scan passes 1 state values + 1 scan input";
    assert_fails(&m, Rule::ControlFlow, "scan_0", message);

    let (mut m, _, body) = scan_model();
    m.ir.region_mut(body).outputs.pop();
    let message = "body \"body\" has 1 outputs, but the Scan has 2 results";
    assert_fails(&m, Rule::ControlFlow, "scan_0", message);

    let (mut m, scan, _) = scan_model();
    set(&mut m, scan, "scan_output_directions", Attr::Ints(vec![1]));
    assert_ok(&m);
    set(&mut m, scan, "scan_input_axes", Attr::Ints(vec![0, 0]));
    let message = "scan_input_axes has 2 entries, but the Scan has 1 of them";
    assert_fails(&m, Rule::ControlFlow, "scan_0", message);
}

#[test]
fn control_flow_sequence_map_body_signature() {
    let (mut m, _, body) = sequence_map_model();
    input(&mut m, body, "extra", Type::Unknown);
    let message = "body \"body\" takes 2 inputs, but the SequenceMap passes 1";
    assert_fails(&m, Rule::ControlFlow, "sequencemap_0", message);

    let (mut m, _, body) = sequence_map_model();
    m.ir.region_mut(body).outputs.clear();
    let message = "body \"body\" has 0 outputs, but the SequenceMap has 1 results";
    assert_fails(&m, Rule::ControlFlow, "sequencemap_0", message);

    let (mut m, _, body) = sequence_map_model();
    let x = m.ir.region(body).args[0].value;
    m.ir.value_mut(x).ty = t(ElemType::I64, &[2]);
    let message = "SequenceMap input 0 and body \"body\" input 0 differ in type";
    assert_fails(&m, Rule::ControlFlow, "sequencemap_0", message);
}

// ---- training-binding ----

#[test]
fn training_binding_names_initializers_and_outputs() {
    let mut m = training_model();
    m.training_info[0].update_binding[0].0 = "x".into();
    let message = "update_binding binds \"x\", which is not an initializer of the main or \
                   algorithm graph";
    assert_fails(&m, Rule::TrainingBinding, "training_info 0", message);

    let mut m = training_model();
    m.training_info[0].update_binding[0].1 = "nope".into();
    let message = "binds \"w\" to \"nope\", which is not an output of graph \"algorithm\"";
    assert_fails(&m, Rule::TrainingBinding, "training_info 0", message);

    let mut m = training_model();
    m.training_info[0]
        .update_binding
        .push(("w".into(), "w_new".into()));
    let message = "update_binding binds \"w\" twice";
    assert_fails(&m, Rule::TrainingBinding, "training_info 0", message);

    let mut m = training_model();
    m.training_info[0]
        .initialization_binding
        .push(("w".into(), "w0".into()));
    let message = "has an initialization_binding but no initialization graph";
    assert_fails(&m, Rule::TrainingBinding, "training_info 0", message);
}

#[test]
fn training_initialization_graph_stands_alone() {
    let mut m = training_model();
    let init = m.ir.new_region("init", RegionParent::Top);
    let w0 = constant(&mut m, init, "w0", floats(&[2], &[0.0, 0.0]));
    output(&mut m, init, "w0", w0);
    m.training_info[0].initialization = Some(init);
    m.training_info[0]
        .initialization_binding
        .push(("w".into(), "w0".into()));
    assert_ok(&m);

    // The main graph's values are not visible in it.
    let x = m.ir.region(m.graph).args[0].value;
    m.ir.region_mut(init).outputs.push(Output {
        name: "x_out".into(),
        value: x,
    });
    let message = "value \"x\" is defined as input 0 of graph \"main\"";
    assert_fails(&m, Rule::UndefinedValue, "graph \"init\" output 1", message);
    m.ir.region_mut(init).outputs.pop();

    input(&mut m, init, "seed", t(ElemType::I64, &[]));
    let message = "the initialization graph takes 1 inputs; it must take none";
    assert_fails(&m, Rule::TrainingBinding, "training_info 0", message);
}
