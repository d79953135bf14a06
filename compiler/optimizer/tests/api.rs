//! The optimizer's API on a small model written in the text form:
//! optimization, the off switch, option parsing, the report and Graphviz.

use onnx_mlc_dialect::{parse_model, print_model, Model, PrintOptions};
use onnx_mlc_optimizer::{optimize, to_dot, Limits, OptimizeOptions, RuleSet, StopReason};

const CONV_BN_RELU: &str = r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x3x8x8xf32>) -> ("y": tensor<1x4x8x8xf32>) {
  %w = "onnx.Constant"() {value = dense<0.5> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b = "onnx.Constant"() {value = dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %g = "onnx.Constant"() {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %beta = "onnx.Constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %mean = "onnx.Constant"() {value = dense<0.25> : tensor<4xf32>} : () -> tensor<4xf32>
  %var = "onnx.Constant"() {value = dense<4.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %conv = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> loc("conv")
  %bn = "onnx.BatchNormalization"(%conv, %g, %beta, %mean, %var) : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> loc("bn")
  %r = "onnx.Relu"(%bn) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("relu")
  onnx.return %r
}
"#;

fn model() -> Model {
    parse_model(CONV_BN_RELU).expect("the test model parses")
}

fn ops(m: &Model) -> Vec<String> {
    let ir = &m.ir;
    ir.region(m.graph)
        .ops
        .iter()
        .map(|&o| ir.op(o).kind.name().to_string())
        .collect()
}

#[test]
fn conv_batchnorm_relu_becomes_one_fused_conv() {
    let mut m = model();
    let report = optimize(&mut m, &OptimizeOptions::default()).expect("optimizes");
    assert_eq!(
        ops(&m)
            .iter()
            .filter(|k| *k != "Constant")
            .collect::<Vec<_>>(),
        ["FusedConv"]
    );
    let text = print_model(&m, &PrintOptions::default());
    assert!(
        text.contains("\"omlc.FusedConv\"") && text.contains("activation = \"Relu\""),
        "{text}"
    );
    assert!(
        text.contains("\"onnx_mlc\" = 1"),
        "the internal domain is imported: {text}"
    );
    assert_eq!(m.ir.region(m.graph).outputs[0].name, "y");
    assert_eq!(report.stop, Some(StopReason::Saturated));
    for rule in [
        "batchnorm-affine",
        "conv-mul",
        "conv-add",
        "relu-act",
        "conv-act",
    ] {
        assert!(
            report.applied.iter().any(|(n, _)| *n == rule),
            "{rule} did not fire:\n{report}"
        );
    }
    assert!(report.cost_after < report.cost_before, "{report}");
    assert_eq!((report.ops_before, report.ops_after), (9, 3));
}

#[test]
fn the_off_switch_and_empty_rule_sets_leave_the_graph() {
    let mut m = model();
    let report = optimize(
        &mut m,
        &OptimizeOptions {
            enabled: false,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(m, model());
    assert!(report.to_string().contains("skipped"));
    let mut m = model();
    optimize(
        &mut m,
        &OptimizeOptions {
            rule_sets: vec![],
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(ops(&m), ops(&model()));
}

#[test]
fn one_rule_set_at_a_time() {
    let mut m = model();
    let report = optimize(
        &mut m,
        &OptimizeOptions {
            rule_sets: vec![RuleSet::Algebraic],
            ..Default::default()
        },
    )
    .unwrap();
    assert!(report.applied.is_empty(), "{report}");
    assert!(ops(&m).contains(&"BatchNormalization".to_string()));
}

#[test]
fn options_parse_and_reject_bad_text() {
    assert_eq!(
        OptimizeOptions::parse_rule_sets("fusion,layout").unwrap(),
        [RuleSet::Fusion, RuleSet::Layout]
    );
    assert_eq!(
        OptimizeOptions::parse_rule_sets("all").unwrap(),
        RuleSet::ALL
    );
    assert!(OptimizeOptions::parse_rule_sets("none").unwrap().is_empty());
    let e = OptimizeOptions::parse_rule_sets("fusion,magic")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unknown rule set 'magic'") && e.contains("algebraic"),
        "{e}"
    );
    let l = Limits::parse("iterations=3, time=250ms,nodes=500").unwrap();
    assert_eq!((l.iterations, l.nodes, l.time.as_millis()), (3, 500, 250));
    assert_eq!(Limits::parse("time=2s").unwrap().time.as_secs(), 2);
    assert_eq!(
        Limits::parse(&Limits::default().to_string()).unwrap(),
        Limits::default()
    );
    for bad in ["iterations", "iterations=x", "time=5", "speed=3"] {
        assert!(
            Limits::parse(bad)
                .unwrap_err()
                .to_string()
                .contains("bad e-graph limit"),
            "{bad}"
        );
    }
}

#[test]
fn limits_stop_saturation() {
    let mut m = model();
    let limits = Limits {
        iterations: 1,
        ..Limits::default()
    };
    let report = optimize(
        &mut m,
        &OptimizeOptions {
            limits,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        (report.iterations, report.stop),
        (1, Some(StopReason::IterationLimit))
    );
}

#[test]
fn report_and_dot_show_what_changed() {
    let before = model();
    let mut m = model();
    let report = optimize(&mut m, &OptimizeOptions::default()).unwrap();
    let text = report.to_string();
    for part in [
        "rules fired",
        "ops: 9 -> 3",
        "estimated cost",
        "e-nodes",
        "conv-act",
    ] {
        assert!(text.contains(part), "missing {part}:\n{text}");
    }
    let (a, b) = (to_dot(&before), to_dot(&m));
    assert!(
        a.starts_with("digraph \"g\"") && a.contains("BatchNormalization") && a.contains("(bn)"),
        "{a}"
    );
    assert!(
        b.contains("omlc.FusedConv") && b.contains("Relu") && !b.contains("BatchNormalization"),
        "{b}"
    );
    assert!(b.contains("-> out0"), "{b}");
}

/// A fold too big to compute during saturation is computed once extracted
/// (a lazy constant); when it cannot be computed after all (here `Abs` of
/// an integer tensor, which the folder evaluates only for floats), the
/// optimizer keeps the op instead of failing with an internal error, as a
/// T5 encoder's relative-position buckets (`Abs` of a 128×128 `i64`
/// difference) once made it.
#[test]
fn a_big_fold_that_cannot_be_computed_keeps_its_op() {
    let rows: Vec<String> = (0..64)
        .map(|r| {
            let row: Vec<String> = (0..128).map(|i| ((r + i) % 7 - 3).to_string()).collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    let text = format!(
        r#"onnx.model {{ir_version = 8, opset_imports = {{"" = 17}}}}
onnx.graph "g"(%x: tensor<64x128xi64>) -> ("y": tensor<64x128xi64>) {{
  %c = "onnx.Constant"() {{value = dense<[{}]> : tensor<64x128xi64>}} : () -> tensor<64x128xi64>
  %a = "onnx.Abs"(%c) : (tensor<64x128xi64>) -> tensor<64x128xi64>
  %y = "onnx.Add"(%x, %a) : (tensor<64x128xi64>, tensor<64x128xi64>) -> tensor<64x128xi64>
  onnx.return %y
}}
"#,
        rows.join(", ")
    );
    let mut m = parse_model(&text).expect("the test model parses");
    optimize(&mut m, &OptimizeOptions::default()).expect("optimizes");
    let kinds = ops(&m);
    assert!(kinds.contains(&"Abs".to_string()), "{kinds:?}");
}
