//! Kernels built from onnx dialect text verify as MLIR.

use melior::ir::operation::OperationLike;
use melior::ir::{Location, Module};
use onnx_mlc_dialect::{parse_model, passes, Model, OpKind};
use onnx_mlc_lowering::context::new_context;
use onnx_mlc_lowering::kernel::KernelSpec;
use onnx_mlc_lowering::model::{build_kernel, build_module, distinct};
use onnx_mlc_lowering::pipeline;
use onnx_mlc_lowering::schedule::Target;
use onnx_mlc_lowering::symbols::Symbols;
use onnx_mlc_plan::{plan, PlanOptions};

fn model(text: &str) -> Model {
    let mut m = parse_model(text).expect("valid text");
    for p in passes::DEFAULT_PIPELINE {
        (passes::pass(p).unwrap().run)(&mut m).expect("pipeline");
    }
    m
}

/// One kernel computing every non-Constant op of the main graph, from the
/// graph inputs and constants to the graph outputs.
fn whole_graph(m: &Model) -> KernelSpec {
    let g = m.ir.region(m.graph);
    let mut inputs: Vec<_> = g.args.iter().map(|a| a.value).collect();
    let mut ops = vec![];
    for &op in &g.ops {
        let data = m.ir.op(op);
        if data.kind == OpKind::Constant {
            inputs.push(data.results[0].unwrap());
        } else {
            ops.push(op);
        }
    }
    KernelSpec {
        name: "k0".into(),
        ops,
        inputs,
        outputs: g.outputs.iter().map(|o| o.value).collect(),
    }
}

const AVX512: Target = Target {
    vector_bits: 512,
    vector_registers: 32,
    dot_u8s8: false,
    amx_int8: false,
    byte_permute: false,
};

/// Builds the whole graph as one kernel and returns the module's text at
/// each stage.
fn build(text: &str) -> [String; 3] {
    let cx = new_context();
    let mut module = Module::new(Location::unknown(&cx));
    let m = model(text);
    let symbols = Symbols::of_model(&m).expect("inputs of known rank");
    let (schedule, _) =
        build_kernel(&cx, &module, (&m, &symbols), &whole_graph(&m), &AVX512).expect("lowers");
    assert!(
        module.as_operation().verify(),
        "invalid MLIR:\n{}",
        module.as_operation()
    );
    let linalg = module.as_operation().to_string();
    pipeline::to_affine(&cx, &mut module, &[schedule], &AVX512).expect("schedules");
    let affine = module.as_operation().to_string();
    pipeline::to_llvm(&cx, &mut module).expect("lowers to LLVM");
    [linalg, affine, module.as_operation().to_string()]
}

#[test]
fn matmul_with_bias_and_relu_epilogue_is_one_kernel() {
    let [text, affine, llvm] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> ("y": tensor<4x16xf32>) {
  %m = "onnx.MatMul"(%x, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = "onnx.Add"(%m, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %y = "onnx.Relu"(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  onnx.return %y
}
"#,
    );
    assert!(text.contains("linalg.matmul"));
    assert_eq!(
        text.matches("linalg.generic").count(),
        1,
        "bias and relu fuse into one generic"
    );
    assert!(
        affine.contains("vector.fma"),
        "the matmul is vectorized:\n{affine}"
    );
    assert!(
        !affine.contains("memref.alloc"),
        "no temporary buffers:\n{affine}"
    );
    assert!(llvm.contains("llvm.func @k0"));
}

/// A fused op's own epilogue (bias, activation) and the plan's (a
/// residual Add) both stay in the register-tiled, vectorized matmul
/// kernel: with two epilogues the kernel once fell back to an untiled
/// generic contraction (ViT-B/16 28× slower).
#[test]
fn fused_matmul_with_a_residual_epilogue_stays_tiled() {
    let [text, affine, _] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<1x20x8xf32>, %w: tensor<8x40xf32>, %b: tensor<40xf32>, %z: tensor<1x20x40xf32>) -> ("y": tensor<1x20x40xf32>) {
  %m = "omlc.FusedMatMul"(%x, %w, %b) {activation = "Relu"} : (tensor<1x20x8xf32>, tensor<8x40xf32>, tensor<40xf32>) -> tensor<1x20x40xf32>
  %y = "onnx.Add"(%m, %z) : (tensor<1x20x40xf32>, tensor<1x20x40xf32>) -> tensor<1x20x40xf32>
  onnx.return %y
}
"#,
    );
    assert_eq!(text.matches("omlc.epilogue").count(), 2, "{text}");
    assert!(
        affine.contains("vector.load") && affine.contains("vector.store"),
        "the kernel is vectorized by its schedule (an untiled generic is not):\n{affine}"
    );
    assert!(
        !affine.contains("memref.alloc"),
        "no temporary buffers:\n{affine}"
    );
}

/// Register tiles that do not divide the product (20 rows in tiles of 8,
/// 40 columns in tiles of 32, like ViT's 197 tokens) are peeled: the full
/// tiles and the remainders get static sizes and vectorize (a tile of
/// dynamic size does not: the whole product and its epilogues ran scalar,
/// and ViT-B/16's products at half the speed or less).
#[test]
fn partial_register_tiles_are_peeled_and_the_full_ones_vectorized() {
    let [_, affine, _] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<1x20x8xf32>, %w: tensor<8x40xf32>, %b: tensor<40xf32>, %z: tensor<1x20x40xf32>) -> ("y": tensor<1x20x40xf32>) {
  %m = "omlc.FusedMatMul"(%x, %w, %b) {activation = "Relu"} : (tensor<1x20x8xf32>, tensor<8x40xf32>, tensor<40xf32>) -> tensor<1x20x40xf32>
  %y = "onnx.Add"(%m, %z) : (tensor<1x20x40xf32>, tensor<1x20x40xf32>) -> tensor<1x20x40xf32>
  onnx.return %y
}
"#,
    );
    assert!(
        affine.contains("vector.fma"),
        "the register tiles of the product are vectorized:\n{affine}"
    );
    assert!(
        affine
            .lines()
            .any(|l| l.contains("arith.maximumf") && l.contains("vector<1x8x32xf32>")),
        "so are the epilogue's (the Relu of full 8 × 32 tiles):\n{affine}"
    );
}

/// A pointwise convolution as the optimizer writes it (weights `[K, C]`
/// broadcast over a batch of `[C, P]` images, bias `[K, 1]`, a residual
/// `Z`, an activation) is one register-tiled product with its epilogue.
/// P = 49 columns are tiled 3 × 16 + 1, not 32 + 17: odd vectors wider
/// than one register were split lane by lane (4× slower).
#[test]
fn pointwise_product_with_a_residual_tiles_whole_vectors() {
    let [text, affine, _] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%w: tensor<16x8xf32>, %x: tensor<2x8x49xf32>, %b: tensor<16x1xf32>, %z: tensor<2x16x49xf32>) -> ("y": tensor<2x16x49xf32>) {
  %y = "omlc.FusedMatMul"(%w, %x, %b, %z) {activation = "Relu"} : (tensor<16x8xf32>, tensor<2x8x49xf32>, tensor<16x1xf32>, tensor<2x16x49xf32>) -> tensor<2x16x49xf32>
  onnx.return %y
}
"#,
    );
    assert_eq!(text.matches("omlc.epilogue").count(), 1, "{text}");
    assert!(affine.contains("vector.fma"), "{affine}");
    assert!(
        affine.contains("vector<16xf32>") && !affine.contains("vector<17xf32>"),
        "tiles of one vector:\n{affine}"
    );
    assert!(
        !affine.contains("memref.alloc"),
        "no temporary buffers:\n{affine}"
    );
}

#[test]
fn a_kernel_with_symbolic_sizes_takes_them_as_arguments() {
    let [text, affine, llvm] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> ("y": tensor<"N"x16xf32>) {
  %m = "onnx.MatMul"(%x, %w) : (tensor<"N"x8xf32>, tensor<8x16xf32>) -> tensor<"N"x16xf32>
  %y = "onnx.Add"(%m, %b) : (tensor<"N"x16xf32>, tensor<16xf32>) -> tensor<"N"x16xf32>
  onnx.return %y
}
"#,
    );
    assert!(
        text.contains("@k0(%arg0: memref<0xf32>")
            && text.contains("%arg4: index, %arg5: index, %arg6: index)"),
        "a buffer of symbolic size crosses the boundary as memref<0xf32>, \
         followed by the symbol N, begin and end:\n{text}"
    );
    assert!(text.contains("memref<?x8xf32>"), "{text}");
    assert!(text.contains("tensor<?x16xf32>"), "{text}");
    assert!(text.contains("linalg.matmul"), "{text}");
    assert!(
        affine.contains("vector.fma"),
        "a product of symbolic rows keeps the product's schedule:\n{affine}"
    );
    assert!(llvm.contains("llvm.func @k0"));
}

/// `K` against `N`: which one is 1 is known only at run time. The result
/// dim is the broadcast atom, the kernel reads both operands with
/// `tensor.extract` at index 0 where their size is 1, and the model gets
/// `omlc_check`, which returns `OMLC_ERR_SHAPE` (3) unless each operand dim
/// is 1 or the result's.
const RUN_TIME_BROADCAST: &str = r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"K"xf32>, %y: tensor<"M"x"N"xf32>) -> ("z": tensor<"M"x?xf32>) {
  %z = "onnx.Mul"(%y, %x) : (tensor<"M"x"N"xf32>, tensor<"K"xf32>) -> tensor<"M"x?xf32>
  onnx.return %z
}
"#;

#[test]
fn a_broadcast_between_symbols_is_decided_at_run_time() {
    let m = model(RUN_TIME_BROADCAST);
    let z = m.ir.region(m.graph).outputs[0].value;
    assert_eq!(
        m.ir.ty(z).to_string(),
        r#"tensor<"M"x"bcast(\"K\",\"N\")"xf32>"#
    );
    let [linalg, _, llvm] = build(RUN_TIME_BROADCAST);
    let generic = &linalg[linalg.find("linalg.generic").expect("one generic")..];
    assert_eq!(
        generic.matches("tensor.extract").count(),
        2,
        "both operands are read in the body:\n{linalg}"
    );
    assert_eq!(generic.matches("linalg.index").count(), 3, "{linalg}");
    assert!(
        linalg.contains("arith.select"),
        "the run-time broadcasts choose index 0 or the loop's:\n{linalg}"
    );
    assert!(llvm.contains("llvm.func @k0"));

    let cx = new_context();
    let plan = plan(&m, &PlanOptions { in_place: false }).expect("plans");
    let built = build_module(&cx, &m, &plan, &AVX512).expect("lowers");
    let text = built.module.as_operation().to_string();
    let check = &text[text
        .find("func.func @omlc_check")
        .expect("a check function")..];
    let check = &check[..check.find("return").expect("returns")];
    assert!(
        check.contains(
            "(%arg0: index, %arg1: index, %arg2: index, %arg3: memref<0xf32>, \
             %arg4: memref<0xf32>) -> i32"
        ),
        "the check takes the symbols K, M, N and the inputs:\n{check}"
    );
    // K against the result and N against the result, each `= 1 or =`.
    assert_eq!(check.matches("arith.ori").count(), 2, "{check}");
    assert!(check.contains("arith.constant 3 : i32"), "{check}");
}

#[test]
fn a_static_model_has_no_run_time_checks() {
    let m = model(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<3xf32>, %y: tensor<2x1xf32>) -> ("z": tensor<2x3xf32>) {
  %z = "onnx.Mul"(%y, %x) : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  onnx.return %z
}
"#,
    );
    let cx = new_context();
    let plan = plan(&m, &PlanOptions { in_place: false }).expect("plans");
    let built = build_module(&cx, &m, &plan, &AVX512).expect("lowers");
    let text = built.module.as_operation().to_string();
    assert!(!text.contains("omlc_check"), "{text}");
    assert!(!text.contains("tensor.extract"), "{text}");
}

#[test]
fn scatter_reads_indices_and_never_writes_through_them() {
    let [text, _, llvm] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> ("y": tensor<1x5xf32>) {
  %y = "onnx.ScatterElements"(%x, %i, %u) {axis = 1, reduction = "add"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  onnx.return %y
}
"#,
    );
    assert_eq!(text.matches("linalg.generic").count(), 1, "{text}");
    assert!(
        text.contains("scf.for"),
        "updates are folded in a loop:\n{text}"
    );
    assert!(
        !text.contains("tensor.insert"),
        "no write by index:\n{text}"
    );
    assert!(llvm.contains("llvm.func @k0"));
}

#[test]
fn cumsum_with_a_run_time_axis_scans_in_the_body() {
    let [text, _, llvm] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 14}}
onnx.graph "g"(%x: tensor<2x3xf64>, %a: tensor<i32>) -> ("y": tensor<2x3xf64>) {
  %y = "onnx.CumSum"(%x, %a) {exclusive = 1, reverse = 1} : (tensor<2x3xf64>, tensor<i32>) -> tensor<2x3xf64>
  onnx.return %y
}
"#,
    );
    assert!(text.contains("scf.for"), "{text}");
    assert!(text.contains("arith.addf"), "{text}");
    assert!(llvm.contains("llvm.func @k0"));
}

#[test]
fn slice_with_run_time_starts_computes_source_indices() {
    let [text, _, llvm] = build(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 13}}
onnx.graph "g"(%x: tensor<20x10xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> ("y": tensor<3x10xf32>) {
  %y = "onnx.Slice"(%x, %s, %e) : (tensor<20x10xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x10xf32>
  onnx.return %y
}
"#,
    );
    assert!(!text.contains("tensor.extract_slice"), "{text}");
    assert!(text.contains("arith.minsi"), "indices are clamped:\n{text}");
    assert!(llvm.contains("llvm.func @k0"));
}

#[test]
fn identical_kernels_share_one_function() {
    let m = model(
        r#"onnx.model {ir_version = 8, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %v: tensor<8x16xf32>) -> ("y": tensor<4x16xf32>) {
  %a = "onnx.MatMul"(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = "onnx.Relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "onnx.MatMul"(%b, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %d = "onnx.Relu"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = "onnx.MatMul"(%d, %v) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  onnx.return %y
}
"#,
    );
    let cx = new_context();
    let plan = plan(&m, &PlanOptions { in_place: false }).expect("plans");
    let built = build_module(&cx, &m, &plan, &AVX512).expect("lowers");
    let names: Vec<&str> = built.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["k0", "k0", "k2"]);
    let distinct: Vec<&str> = distinct(&built.kernels).map(|k| k.name.as_str()).collect();
    assert_eq!(distinct, ["k0", "k2"]);
    let text = built.module.as_operation().to_string();
    assert_eq!(text.matches("omlc.kernel").count(), 2, "{text}");
    assert_eq!(text.matches("call @k0(").count(), 2, "{text}");
}
