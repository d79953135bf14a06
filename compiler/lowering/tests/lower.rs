//! Kernels built from onnx dialect text verify as MLIR.

use melior::ir::operation::OperationLike;
use melior::ir::{Location, Module};
use onnx_mlc_dialect::{parse_model, passes, Model, OpKind};
use onnx_mlc_lowering::context::new_context;
use onnx_mlc_lowering::kernel::{build_kernel, KernelSpec};
use onnx_mlc_lowering::pipeline;
use onnx_mlc_lowering::schedule::Target;

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
};

/// Builds the whole graph as one kernel and returns the module's text at
/// each stage.
fn build(text: &str) -> [String; 3] {
    let cx = new_context();
    let mut module = Module::new(Location::unknown(&cx));
    let m = model(text);
    let schedule = build_kernel(&cx, &module, &m, &whole_graph(&m)).expect("lowers");
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
