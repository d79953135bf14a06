//! Hand-built graphs whose kernels, storage and offsets are worked out by
//! hand in the comments.

use onnx_mlc_dialect::passes::pass;
use onnx_mlc_dialect::{parse_model, Dim, Model, Value};
use onnx_mlc_plan::{plan, Error, Lifetime, OutputCopy, Plan, PlanOptions, Storage};
use onnx_mlc_tests::plan_check::check;

/// A `Constant` line: `%name = "onnx.Constant"() {value = dense<splat> : ty} : () -> ty`.
pub fn constant(name: &str, splat: &str, ty: &str) -> String {
    format!("  %{name} = \"onnx.Constant\"() {{value = dense<{splat}> : {ty}}} : () -> {ty}\n")
}

/// Parses a main graph (the text form, opset 17), infers shapes, verifies,
/// and returns the model.
pub fn model(graph: &str) -> Model {
    let text = format!("onnx.model {{ir_version = 8, opset_imports = {{\"\" = 17}}}}\n{graph}");
    let mut model = parse_model(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for p in ["infer-shapes", "verify"] {
        (pass(p).expect("registered").run)(&mut model)
            .unwrap_or_else(|e| panic!("{p}: {e}\n{text}"));
    }
    model
}

/// Plans `model` with `options` and checks the plan's invariants.
fn checked_plan(model: &Model, options: &PlanOptions) -> Plan {
    let plan = plan(model, options).unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = check(model, &plan) {
        panic!("{e}\n{}", plan.dump(model));
    }
    plan
}

fn planned(graph: &str) -> (Model, Plan) {
    let model = model(graph);
    let plan = checked_plan(&model, &PlanOptions::default());
    (model, plan)
}

/// The main-graph value called `name`.
fn val(model: &Model, name: &str) -> Value {
    (0..model.ir.num_values())
        .map(Value::from_index)
        .find(|&v| model.ir.value(v).name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no value {name}"))
}

/// Each kernel as the node names of its ops.
fn kernels(model: &Model, plan: &Plan) -> Vec<Vec<String>> {
    plan.kernels
        .iter()
        .map(|k| {
            k.ops
                .iter()
                .map(|&op| model.ir.op(op).name.clone())
                .collect()
        })
        .collect()
}

fn storage(model: &Model, plan: &Plan, name: &str) -> Storage {
    plan.storage[&val(model, name)].clone()
}

fn lines(model: &Model, plan: &Plan) -> String {
    plan.dump(model).to_string()
}

#[test]
fn conv_bn_relu_is_one_kernel() {
    let graph = [
        "onnx.graph \"g\"(%x: tensor<1x3x8x8xf32>) -> (\"y\": !onnx.unknown) {\n".to_string(),
        constant("w", "0.5", "tensor<4x3x3x3xf32>"),
        constant("scale", "1.0", "tensor<4xf32>"),
        constant("bias", "0.0", "tensor<4xf32>"),
        constant("mean", "0.0", "tensor<4xf32>"),
        constant("var", "1.0", "tensor<4xf32>"),
        r#"  %c = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> !onnx.unknown loc("conv")
  %n = "onnx.BatchNormalization"(%c, %scale, %bias, %mean, %var) : (!onnx.unknown, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown loc("bn")
  %y = "onnx.Relu"(%n) : (!onnx.unknown) -> !onnx.unknown loc("relu")
  onnx.return %y
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(kernels(&m, &p), [["conv", "bn", "relu"]]);
    let k = &p.kernels[0];
    assert_eq!(k.root, Some(k.ops[0]));
    assert_eq!(k.epilogue().len(), 2);
    let names = |vs: &[Value]| {
        vs.iter()
            .map(|&v| m.ir.value(v).name.clone().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&k.inputs), ["x", "w", "scale", "bias", "mean", "var"]);
    assert_eq!(names(&k.outputs), ["y"]);
    assert_eq!(names(&p.weights), ["w", "scale", "bias", "mean", "var"]);
    assert_eq!(storage(&m, &p, "c"), Storage::Fused);
    assert_eq!(storage(&m, &p, "n"), Storage::Fused);
    assert_eq!(storage(&m, &p, "y"), Storage::Output(0));
    assert_eq!(storage(&m, &p, "x"), Storage::Input(0));
    assert_eq!(storage(&m, &p, "var"), Storage::Weight(4));
    assert_eq!(
        (
            p.workspace_size,
            p.naive_bytes,
            p.num_kernels,
            p.num_fused_ops
        ),
        (0, 0, 1, 2)
    );
    let dump = lines(&m, &p);
    assert!(
        dump.contains("kernel 0: Conv \"conv\" + BatchNormalization \"bn\", Relu \"relu\"\n"),
        "{dump}"
    );
    assert!(
        dump.contains("  in:  %x, %w, %scale, %bias, %mean, %var\n"),
        "{dump}"
    );
    assert!(dump.contains("  %n: fused\n"), "{dump}");
    assert_eq!(
        p.to_string(),
        "1 kernel (2 fused ops, 0 views), workspace 0 B"
    );
}

/// `x → relu → a`, read by two MatMuls whose results are added: `a` is
/// read by two kernels, so it stays in memory; the `Add` becomes the
/// epilogue of the first MatMul, which must then wait for the second.
#[test]
fn a_diamond_keeps_the_shared_value() {
    let graph = [
        "onnx.graph \"g\"(%x: tensor<4x8xf32>) -> (\"y\": !onnx.unknown) {\n".to_string(),
        constant("w1", "0.5", "tensor<8x8xf32>"),
        constant("w2", "0.25", "tensor<8x8xf32>"),
        r#"  %a = "onnx.Relu"(%x) : (tensor<4x8xf32>) -> !onnx.unknown loc("relu")
  %p = "onnx.MatMul"(%a, %w1) : (!onnx.unknown, tensor<8x8xf32>) -> !onnx.unknown loc("mm1")
  %q = "onnx.MatMul"(%a, %w2) : (!onnx.unknown, tensor<8x8xf32>) -> !onnx.unknown loc("mm2")
  %y = "onnx.Add"(%p, %q) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add")
  onnx.return %y
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(
        kernels(&m, &p),
        [vec!["relu"], vec!["mm2"], vec!["mm1", "add"]]
    );
    assert_eq!(p.kernels[0].root, None);
    // a: 128 B over kernels 0..2, q: 128 B over 1..2 — both live at 1.
    assert_eq!(
        storage(&m, &p, "a"),
        Storage::Workspace {
            offset: 0,
            bytes: 128
        }
    );
    assert_eq!(
        storage(&m, &p, "q"),
        Storage::Workspace {
            offset: 128,
            bytes: 128
        }
    );
    assert_eq!(p.lifetimes[&val(&m, "a")], Lifetime { first: 0, last: 2 });
    assert_eq!(storage(&m, &p, "p"), Storage::Fused);
    assert_eq!((p.workspace_size, p.naive_bytes), (256, 256));
    let dump = lines(&m, &p);
    assert!(
        dump.contains("kernel 1: MatMul \"mm2\"\n  in:  %a, %w2\n  out: %q\n"),
        "{dump}"
    );
    assert!(
        dump.contains("  %a: workspace 0+128, kernels 0..2\n"),
        "{dump}"
    );
}

/// A diamond of elementwise ops is one loop nest: the shared value is
/// loaded once per point and read twice, never stored.
#[test]
fn an_elementwise_diamond_is_one_loop_nest() {
    let (m, p) = planned(
        r#"onnx.graph "g"(%x: tensor<16xf32>) -> ("y": !onnx.unknown) {
  %a = "onnx.Relu"(%x) : (tensor<16xf32>) -> !onnx.unknown loc("relu")
  %b = "onnx.Sigmoid"(%a) : (!onnx.unknown) -> !onnx.unknown loc("sigmoid")
  %c = "onnx.Exp"(%a) : (!onnx.unknown) -> !onnx.unknown loc("exp")
  %y = "onnx.Add"(%b, %c) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add")
  onnx.return %y
}
"#,
    );
    assert_eq!(kernels(&m, &p), [["relu", "sigmoid", "exp", "add"]]);
    assert_eq!(p.kernels[0].root, None);
    for v in ["a", "b", "c"] {
        assert_eq!(storage(&m, &p, v), Storage::Fused, "{v}");
    }
}

/// Two residual blocks of 1x1 convolutions; every tensor is 1x4x8x8xf32 =
/// 1024 B. Kernels: 0 a = relu(conv1 x), 1 b = relu(conv2 a),
/// 2 c = relu(conv3 b + a), 3 d = relu(conv4 c), 4 e = relu(conv5 d + c).
/// Lifetimes a 0..2, b 1..2, c 2..4, d 3..4 (e is the output). Greedy by
/// size (equal sizes: earlier first): a at 0; b meets a: 1024; c meets a
/// and b: 2048; d meets only c, and the gap 0..2048 below it fits: 0.
#[test]
fn a_residual_block_reuses_buffers() {
    let mut graph =
        "onnx.graph \"g\"(%x: tensor<1x4x8x8xf32>) -> (\"e\": !onnx.unknown) {\n".to_string();
    for i in 1..=5 {
        graph += &constant(&format!("w{i}"), "0.1", "tensor<4x4x1x1xf32>");
    }
    graph += r#"  %c1 = "onnx.Conv"(%x, %w1) : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> !onnx.unknown loc("conv1")
  %a = "onnx.Relu"(%c1) : (!onnx.unknown) -> !onnx.unknown loc("relu1")
  %c2 = "onnx.Conv"(%a, %w2) : (!onnx.unknown, tensor<4x4x1x1xf32>) -> !onnx.unknown loc("conv2")
  %b = "onnx.Relu"(%c2) : (!onnx.unknown) -> !onnx.unknown loc("relu2")
  %c3 = "onnx.Conv"(%b, %w3) : (!onnx.unknown, tensor<4x4x1x1xf32>) -> !onnx.unknown loc("conv3")
  %s3 = "onnx.Add"(%c3, %a) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add3")
  %c = "onnx.Relu"(%s3) : (!onnx.unknown) -> !onnx.unknown loc("relu3")
  %c4 = "onnx.Conv"(%c, %w4) : (!onnx.unknown, tensor<4x4x1x1xf32>) -> !onnx.unknown loc("conv4")
  %d = "onnx.Relu"(%c4) : (!onnx.unknown) -> !onnx.unknown loc("relu4")
  %c5 = "onnx.Conv"(%d, %w5) : (!onnx.unknown, tensor<4x4x1x1xf32>) -> !onnx.unknown loc("conv5")
  %s5 = "onnx.Add"(%c5, %c) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add5")
  %e = "onnx.Relu"(%s5) : (!onnx.unknown) -> !onnx.unknown loc("relu5")
  onnx.return %e
}
"#;
    let (m, p) = planned(&graph);
    assert_eq!(
        kernels(&m, &p),
        [
            vec!["conv1", "relu1"],
            vec!["conv2", "relu2"],
            vec!["conv3", "add3", "relu3"],
            vec!["conv4", "relu4"],
            vec!["conv5", "add5", "relu5"],
        ]
    );
    let dump = lines(&m, &p);
    for line in [
        "  %a: workspace 0+1024, kernels 0..2\n",
        "  %b: workspace 1024+1024, kernels 1..2\n",
        "  %c: workspace 2048+1024, kernels 2..4\n",
        "  %d: workspace 0+1024, kernels 3..4\n",
        "  %e: output 0\n",
    ] {
        assert!(dump.contains(line), "missing {line:?} in\n{dump}");
    }
    assert_eq!(
        (p.workspace_size, p.naive_bytes, p.num_fused_ops),
        (3072, 4096, 7)
    );
    assert_eq!(
        p.to_string(),
        "5 kernels (7 fused ops, 0 views), workspace 3.0 KiB (naive 4.0 KiB, 1.3x less)"
    );
}

/// `x → Transpose → t → Exp → e → Transpose → y`: the Exp loop nest reads
/// `t` at the point it writes, and `t` dies there, so `e` is stored over
/// it. Without in-place, `e` needs its own 128 bytes.
#[test]
fn an_elementwise_kernel_writes_over_its_dying_input() {
    let graph = r#"onnx.graph "g"(%x: tensor<4x8xf32>) -> ("y": !onnx.unknown) {
  %t = "onnx.Transpose"(%x) {perm = [1, 0]} : (tensor<4x8xf32>) -> !onnx.unknown loc("t1")
  %e = "onnx.Exp"(%t) : (!onnx.unknown) -> !onnx.unknown loc("exp")
  %y = "onnx.Transpose"(%e) {perm = [1, 0]} : (!onnx.unknown) -> !onnx.unknown loc("t2")
  onnx.return %y
}
"#;
    let m = model(graph);
    let p = checked_plan(&m, &PlanOptions { in_place: true });
    assert_eq!(kernels(&m, &p), [["t1"], ["exp"], ["t2"]]);
    assert_eq!(
        storage(&m, &p, "t"),
        Storage::Workspace {
            offset: 0,
            bytes: 128
        }
    );
    assert_eq!(
        storage(&m, &p, "e"),
        Storage::Workspace {
            offset: 0,
            bytes: 128
        }
    );
    assert_eq!(p.in_place.get(&val(&m, "e")), Some(&val(&m, "t")));
    assert_eq!((p.workspace_size, p.naive_bytes), (128, 256));
    assert!(lines(&m, &p).contains("  %e: workspace 0+128, kernels 1..2, over %t\n"));
    let p = checked_plan(&m, &PlanOptions::default());
    assert!(p.in_place.is_empty(), "in-place reuse is opt-in");
    assert_eq!(
        storage(&m, &p, "e"),
        Storage::Workspace {
            offset: 128,
            bytes: 128
        }
    );
    assert_eq!(p.workspace_size, 256);
}

/// An input read broadcast (`b`: [32] into a [1, 32] loop nest) is read at
/// other points than the one written: no in-place, though it dies there
/// with the output's size.
#[test]
fn no_in_place_over_a_broadcast_input() {
    let m = model(
        r#"onnx.graph "g"(%z: tensor<32xf32>, %a: tensor<1x32xf32>) -> ("y": !onnx.unknown) {
  %b = "onnx.Softmax"(%z) : (tensor<32xf32>) -> !onnx.unknown loc("sm1")
  %c = "onnx.Add"(%a, %b) : (tensor<1x32xf32>, !onnx.unknown) -> !onnx.unknown loc("add")
  %y = "onnx.Softmax"(%c) : (!onnx.unknown) -> !onnx.unknown loc("sm2")
  onnx.return %y
}
"#,
    );
    let p = checked_plan(&m, &PlanOptions { in_place: true });
    assert_eq!(
        kernels(&m, &p),
        [["sm1"], ["add"], ["sm2"]],
        "[1, 32] is not Softmax's [32]"
    );
    assert!(p.in_place.is_empty());
    assert_eq!(
        storage(&m, &p, "c"),
        Storage::Workspace {
            offset: 128,
            bytes: 128
        }
    );
}

/// A chain on a view: `Mul(v, 0.5)` and `Pow(v, 3)` have no producer
/// group to join (`v` is a view), so the Pow joins the Mul's loop nest,
/// which reads `v` too, and the chain stays one kernel.
#[test]
fn a_chain_on_a_view_stays_one_loop_nest() {
    let graph = [
        "onnx.graph \"g\"(%x: tensor<4x8xf32>) -> (\"y\": !onnx.unknown) {\n".to_string(),
        constant("shape", "[4, 8]", "tensor<2xi64>"),
        constant("half", "0.5", "tensor<f32>"),
        constant("three", "3.0", "tensor<f32>"),
        r#"  %t = "onnx.Transpose"(%x) {perm = [1, 0]} : (tensor<4x8xf32>) -> !onnx.unknown loc("t")
  %v = "onnx.Reshape"(%t, %shape) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown loc("view")
  %a = "onnx.Mul"(%v, %half) : (!onnx.unknown, tensor<f32>) -> !onnx.unknown loc("half_x")
  %b = "onnx.Pow"(%v, %three) : (!onnx.unknown, tensor<f32>) -> !onnx.unknown loc("cube")
  %c = "onnx.Add"(%v, %b) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add")
  %y = "onnx.Mul"(%a, %c) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("mul")
  onnx.return %y
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(
        kernels(&m, &p),
        [vec!["t"], vec!["half_x", "cube", "add", "mul"]]
    );
    assert_eq!(
        p.kernels[1].inputs,
        [val(&m, "v"), val(&m, "half"), val(&m, "three")]
    );
}

/// A root whose result is also a graph output keeps no epilogue: the
/// result must be stored whole, so the Relu becomes a loop nest of its own.
#[test]
fn a_root_result_needed_elsewhere_splits_the_epilogue() {
    let graph = [
        "onnx.graph \"g\"(%x: tensor<4x8xf32>) -> (\"r\": !onnx.unknown, \"m\": !onnx.unknown) {\n".to_string(),
        constant("w", "0.5", "tensor<8x8xf32>"),
        r#"  %m = "onnx.MatMul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> !onnx.unknown loc("mm")
  %r = "onnx.Relu"(%m) : (!onnx.unknown) -> !onnx.unknown loc("relu")
  onnx.return %r, %m
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(kernels(&m, &p), [["mm"], ["relu"]]);
    assert_eq!(p.kernels[1].root, None);
    assert_eq!(storage(&m, &p, "m"), Storage::Output(1));
    assert_eq!(storage(&m, &p, "r"), Storage::Output(0));
}

/// `y = a + transpose(transpose(a))`: joining `a`'s loop nest would need
/// the transposes to run inside it. The Add runs after them, alone.
#[test]
fn fusion_never_makes_a_cycle() {
    let (m, p) = planned(
        r#"onnx.graph "g"(%x: tensor<4x4xf32>) -> ("y": !onnx.unknown) {
  %a = "onnx.Relu"(%x) : (tensor<4x4xf32>) -> !onnx.unknown loc("relu")
  %t = "onnx.Transpose"(%a) {perm = [1, 0]} : (!onnx.unknown) -> !onnx.unknown loc("t1")
  %u = "onnx.Transpose"(%t) {perm = [1, 0]} : (!onnx.unknown) -> !onnx.unknown loc("t2")
  %y = "onnx.Add"(%a, %u) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add")
  onnx.return %y
}
"#,
    );
    assert_eq!(kernels(&m, &p), [["relu"], ["t1"], ["t2"], ["add"]]);
    assert_eq!(p.lifetimes[&val(&m, "a")], Lifetime { first: 0, last: 3 });
}

/// The second kernel's epilogue waits for a later group: kernels are
/// ordered by dependence, not by their first op.
#[test]
fn an_epilogue_joins_the_root_it_does_not_depend_on() {
    let graph = [
        "onnx.graph \"g\"(%x: tensor<4x8xf32>) -> (\"y\": !onnx.unknown) {\n".to_string(),
        constant("w", "0.5", "tensor<8x8xf32>"),
        r#"  %a = "onnx.Relu"(%x) : (tensor<4x8xf32>) -> !onnx.unknown loc("relu")
  %m = "onnx.MatMul"(%a, %w) : (!onnx.unknown, tensor<8x8xf32>) -> !onnx.unknown loc("mm")
  %y = "onnx.Add"(%a, %m) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add")
  onnx.return %y
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    // The Add cannot join relu's loop nest (it needs the MatMul, which
    // needs relu); it joins the MatMul as a residual epilogue.
    assert_eq!(kernels(&m, &p), [vec!["relu"], vec!["mm", "add"]]);
}

/// Outputs: an input returned as is and a second return of one value are
/// copied; a view of a kernel result is computed into the output buffer;
/// a value that is an output and read later stays in its output buffer.
#[test]
fn outputs_are_computed_in_place_or_copied() {
    let graph = [
        "onnx.graph \"g\"(%x: tensor<4xf32>) -> (\"o0\": tensor<4xf32>, \"o1\": !onnx.unknown, \"o2\": !onnx.unknown, \"o3\": !onnx.unknown, \"o4\": !onnx.unknown) {\n".to_string(),
        constant("shape", "2", "tensor<2xi64>"),
        r#"  %a = "onnx.Relu"(%x) : (tensor<4xf32>) -> !onnx.unknown loc("relu")
  %f = "onnx.Reshape"(%a, %shape) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown loc("reshape")
  %b = "onnx.Sigmoid"(%x) : (tensor<4xf32>) -> !onnx.unknown loc("sigmoid")
  %g = "onnx.Reshape"(%b, %shape) : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown loc("reshape2")
  %n = "onnx.Neg"(%f) : (!onnx.unknown) -> !onnx.unknown loc("neg")
  onnx.return %x, %f, %a, %a, %g
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(storage(&m, &p, "a"), Storage::Output(2));
    assert_eq!(storage(&m, &p, "f"), Storage::Alias { of: val(&m, "a") });
    assert_eq!(storage(&m, &p, "b"), Storage::Output(4));
    assert_eq!(storage(&m, &p, "g"), Storage::Alias { of: val(&m, "b") });
    assert_eq!(storage(&m, &p, "x"), Storage::Input(0));
    let copies = |pairs: &[(usize, &str)]| {
        pairs
            .iter()
            .map(|&(output, v)| OutputCopy {
                output,
                from: val(&m, v),
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(p.output_copies, copies(&[(0, "x"), (1, "f"), (3, "a")]));
    // The Neg reads `a` through the view after `a` was stored in output 2;
    // its own result is unused but still stored (it has no other place).
    assert_eq!(
        storage(&m, &p, "n"),
        Storage::Workspace {
            offset: 0,
            bytes: 16
        }
    );
    assert_eq!(p.views.len(), 2);
    assert!(lines(&m, &p)
        .ends_with("output copies:\n  output 0 <- %x\n  output 1 <- %f\n  output 3 <- %a\n"));
}

/// Weights: initializer-backed inputs first, then Constants; views of
/// weights are aliases of them.
#[test]
fn weights_and_their_views() {
    let graph = [
        r#"onnx.graph "g"(%x: tensor<2x3xf32>, %d: tensor<3xf32> = dense<1.0> : tensor<3xf32>) -> ("y": !onnx.unknown) {
"#
        .to_string(),
        constant("k", "2.0", "tensor<3xf32>"),
        r#"  %i = "onnx.Identity"(%k) : (tensor<3xf32>) -> tensor<3xf32> loc("id")
  %s = "onnx.Add"(%x, %d) : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.unknown loc("add")
  %y = "onnx.Mul"(%s, %i) : (!onnx.unknown, tensor<3xf32>) -> !onnx.unknown loc("mul")
  onnx.return %y
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(p.weights, [val(&m, "d"), val(&m, "k")]);
    assert_eq!(storage(&m, &p, "d"), Storage::Weight(0));
    assert_eq!(storage(&m, &p, "i"), Storage::Alias { of: val(&m, "k") });
    assert_eq!(kernels(&m, &p), [["add", "mul"]]);
}

/// Symbolic sizes are allocated at run time, with a size polynomial and a
/// lifetime.
#[test]
fn symbolic_sizes_are_dynamic() {
    let (m, p) = planned(
        r#"onnx.graph "g"(%x: tensor<"N"x8xf32>) -> ("y": !onnx.unknown) {
  %t = "onnx.Transpose"(%x) {perm = [1, 0]} : (tensor<"N"x8xf32>) -> !onnx.unknown loc("t")
  %s = "onnx.Softmax"(%t) : (!onnx.unknown) -> !onnx.unknown loc("softmax")
  %y = "onnx.Transpose"(%s) {perm = [1, 0]} : (!onnx.unknown) -> !onnx.unknown loc("t2")
  onnx.return %y
}
"#,
    );
    assert_eq!(
        storage(&m, &p, "t"),
        Storage::Dynamic {
            bytes: Dim::param("N").scale(32)
        }
    );
    assert_eq!(p.lifetimes[&val(&m, "t")], Lifetime { first: 0, last: 1 });
    assert_eq!(p.workspace_size, 0);
    assert!(
        lines(&m, &p).contains("  %t: dynamic (32*\"N\") B, kernels 0..1\n"),
        "{}",
        lines(&m, &p)
    );
    assert_eq!(
        p.to_string(),
        "3 kernels (0 fused ops, 0 views), workspace 0 B, 2 dynamic buffers"
    );
}

/// A value an `If` branch reads is read by the `If`'s kernel: it is
/// stored, and lives through that kernel.
#[test]
fn values_read_by_subgraphs_live_through_the_control_kernel() {
    let (m, p) = planned(
        r#"onnx.graph "g"(%c: tensor<i1>, %x: tensor<4x4xf32>) -> ("y": !onnx.unknown) {
  %a = "onnx.Transpose"(%x) {perm = [1, 0]} : (tensor<4x4xf32>) -> !onnx.unknown loc("t")
  %b = "onnx.Relu"(%a) : (!onnx.unknown) -> !onnx.unknown loc("relu")
  %r = "onnx.If"(%c) {then_branch = onnx.graph "then"() -> ("o": !onnx.unknown) {
    %u = "onnx.Neg"(%a) : (!onnx.unknown) -> !onnx.unknown
    onnx.return %u
  }, else_branch = onnx.graph "else"() -> ("o": !onnx.unknown) {
    onnx.return %b
  }} : (tensor<i1>) -> !onnx.unknown loc("if")
  %y = "onnx.Add"(%r, %b) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown loc("add")
  onnx.return %y
}
"#,
    );
    assert_eq!(kernels(&m, &p), [["t"], ["relu"], ["if"], ["add"]]);
    let k = &p.kernels[2];
    assert_eq!(k.inputs, [val(&m, "c"), val(&m, "a"), val(&m, "b")]);
    assert_eq!(p.lifetimes[&val(&m, "a")], Lifetime { first: 0, last: 2 });
    assert_eq!(p.lifetimes[&val(&m, "b")], Lifetime { first: 1, last: 3 });
}

#[test]
fn values_without_a_planned_size_are_errors() {
    let m = model(
        r#"onnx.graph "g"(%x: tensor<4xf32>) -> ("s": !onnx.unknown) {
  %s = "onnx.SequenceConstruct"(%x) : (tensor<4xf32>) -> !onnx.unknown loc("seq")
  onnx.return %s
}
"#,
    );
    let err = plan(&m, &PlanOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Unplaceable { .. }));
    assert_eq!(
        err.to_string(),
        "value %s (result 0 of node \"seq\" (SequenceConstruct-11)): has type \
         !onnx.seq<tensor<4xf32>>: only dense tensors can be planned"
    );
    let mut m = model(
        r#"onnx.graph "g"(%x: tensor<4xf32>) -> ("y": !onnx.unknown) {
  %y = "onnx.Relu"(%x) : (tensor<4xf32>) -> !onnx.unknown loc("relu")
  onnx.return %y
}
"#,
    );
    let x = val(&m, "x");
    m.ir.value_mut(x).ty = onnx_mlc_dialect::Type::Tensor(onnx_mlc_dialect::TensorType::with_dims(
        onnx_mlc_dialect::ElemType::F32,
        vec![Dim::Unknown],
    ));
    assert_eq!(
        plan(&m, &PlanOptions::default()).unwrap_err().to_string(),
        "value %x (graph input): has type tensor<?xf32> with an unknown dim: run shape inference first"
    );
}

/// Each 2^28 x 2^30 f32 tensor takes 2^60 bytes, which fits; sixteen of
/// them live in a chain of transposes do not (2^64 bytes).
#[test]
fn a_workspace_beyond_64_bits_is_an_error() {
    let (rows, cols) = (1u64 << 28, 1u64 << 30);
    let mut graph =
        format!("onnx.graph \"g\"(%v0: tensor<{rows}x{cols}xf32>) -> (\"y\": !onnx.unknown) {{\n");
    let mut ty = format!("tensor<{rows}x{cols}xf32>");
    for i in 0..17 {
        graph += &format!(
            "  %v{} = \"onnx.Transpose\"(%v{i}) {{perm = [1, 0]}} : ({ty}) -> !onnx.unknown\n",
            i + 1
        );
        ty = "!onnx.unknown".into();
    }
    graph += "  onnx.return %v17\n}\n";
    let m = model(&graph);
    assert_eq!(
        plan(&m, &PlanOptions::default()),
        Err(Error::WorkspaceOverflow)
    );
}

/// A QDQ residual: the two DequantizeLinear, the Add and the
/// QuantizeLinear are one loop nest; the QuantizeLinear after a
/// convolution stays out of its epilogue (a kernel of its own).
#[test]
fn a_qdq_residual_is_one_loop_nest() {
    let graph = [
        "onnx.graph \"g\"(%a: tensor<1x4x8x8xui8>, %b: tensor<1x4x8x8xui8>, %x: tensor<1x3x8x8xf32>) -> (\"y\": tensor<1x4x8x8xui8>, \"z\": tensor<1x4x8x8xui8>) {\n".to_string(),
        constant("s", "0.5", "tensor<f32>"),
        constant("zp", "3", "tensor<ui8>"),
        constant("w", "0.5", "tensor<4x3x3x3xf32>"),
        constant("sc", "0.25", "tensor<f32>"),
        constant("zc", "0", "tensor<ui8>"),
        r#"  %da = "onnx.DequantizeLinear"(%a, %s, %zp) : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32> loc("da")
  %db = "onnx.DequantizeLinear"(%b, %s, %zp) : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32> loc("db")
  %r = "onnx.Add"(%da, %db) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("add")
  %y = "onnx.QuantizeLinear"(%r, %s, %zp) : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8> loc("q")
  %c = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> loc("conv")
  %z = "onnx.QuantizeLinear"(%c, %sc, %zc) : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8> loc("qc")
  onnx.return %y, %z
}
"#
        .to_string(),
    ]
    .concat();
    let (m, p) = planned(&graph);
    assert_eq!(
        kernels(&m, &p),
        [vec!["da", "db", "add", "q"], vec!["conv"], vec!["qc"]]
    );
}
