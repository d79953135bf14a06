//! Kernels compiled through the whole pipeline and run in the JIT, checked
//! against plain reference loops.

use inkwell::context::Context as LlvmContext;
use inkwell::OptimizationLevel;
use melior::ir::{Location, Module};
use onnx_mlc_codegen::{llvm, TargetSpec};
use onnx_mlc_dialect::{parse_model, passes, Model, OpKind};
use onnx_mlc_lowering::context::new_context;
use onnx_mlc_lowering::kernel::KernelSpec;
use onnx_mlc_lowering::model::build_kernel;
use onnx_mlc_lowering::pipeline;
use onnx_mlc_lowering::symbols::Symbols;

fn model(text: &str) -> Model {
    let mut m = parse_model(text).expect("valid text");
    for p in passes::DEFAULT_PIPELINE {
        (passes::pass(p).unwrap().run)(&mut m).expect("pipeline");
    }
    m
}

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

type Kernel4 = extern "C" fn(*const f32, *const f32, *const f32, *mut f32, i64, i64);

/// Compiles the graph as one kernel of four memref arguments and calls it
/// over `ranges` of chunks.
fn run4(text: &str, args: [&[f32]; 3], out: &mut [f32], split: bool) {
    let cx = new_context();
    let mut module = Module::new(Location::unknown(&cx));
    let m = model(text);
    let target = TargetSpec::host();
    let symbols = Symbols::of_model(&m).expect("inputs of known rank");
    let (schedule, _) = build_kernel(
        &cx,
        &module,
        (&m, &symbols),
        &whole_graph(&m),
        &target.lowering_target(),
    )
    .expect("lowers");
    let chunks = pipeline::to_affine(&cx, &mut module, &[schedule], &target.lowering_target())
        .expect("schedules")[0];
    pipeline::to_llvm(&cx, &mut module).expect("to LLVM");
    let llcx = LlvmContext::create();
    let llmod = llvm::translate(&llcx, &module, &target).expect("translates");
    llvm::optimize(&llmod, &target).expect("optimizes");
    let engine = llmod
        .create_jit_execution_engine(OptimizationLevel::Aggressive)
        .expect("a JIT");
    let addr = engine.get_function_address("k0").expect("k0 is defined");
    // SAFETY: k0 was generated with exactly this signature (four bare
    // memref pointers, begin, end) and the buffers have the shapes of the
    // model's types.
    let k0: Kernel4 = unsafe { std::mem::transmute(addr) };
    let (a, b, c) = (args[0].as_ptr(), args[1].as_ptr(), args[2].as_ptr());
    if split && chunks > 1 {
        k0(a, b, c, out.as_mut_ptr(), 0, 1);
        k0(a, b, c, out.as_mut_ptr(), 1, chunks);
    } else {
        k0(a, b, c, out.as_mut_ptr(), 0, chunks);
    }
}

fn matmul_bias_relu(x: &[f32], w: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut y = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let s: f32 = (0..k).map(|p| x[i * k + p] * w[p * n + j]).sum();
            y[i * n + j] = (s + b[j]).max(0.0);
        }
    }
    y
}

fn close(a: &[f32], b: &[f32]) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= 1e-4 + 1e-4 * y.abs(),
            "element {i}: {x} vs {y}"
        );
    }
}

#[test]
fn matmul_bias_relu_matches_reference() {
    for (m, k, n) in [(4, 8, 16), (64, 96, 128), (33, 70, 50)] {
        let text = format!(
            r#"onnx.model {{ir_version = 8, opset_imports = {{"" = 17}}}}
onnx.graph "g"(%x: tensor<{m}x{k}xf32>, %w: tensor<{k}x{n}xf32>, %b: tensor<{n}xf32>) -> ("y": tensor<{m}x{n}xf32>) {{
  %mm = "onnx.MatMul"(%x, %w) : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %a = "onnx.Add"(%mm, %b) : (tensor<{m}x{n}xf32>, tensor<{n}xf32>) -> tensor<{m}x{n}xf32>
  %y = "onnx.Relu"(%a) : (tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  onnx.return %y
}}
"#
        );
        let x: Vec<f32> = (0..m * k)
            .map(|i| ((i * 7 % 13) as f32 - 6.0) * 0.1)
            .collect();
        let w: Vec<f32> = (0..k * n)
            .map(|i| ((i * 5 % 11) as f32 - 5.0) * 0.1)
            .collect();
        let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.1 - 0.3).collect();
        let want = matmul_bias_relu(&x, &w, &b, m, k, n);
        for split in [false, true] {
            let mut y = vec![f32::NAN; m * n];
            run4(&text, [&x, &w, &b], &mut y, split);
            close(&y, &want);
        }
    }
}
