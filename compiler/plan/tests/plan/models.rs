//! The real models (`tests/models/`, materialized into `.cache/models/` by
//! `tools/setup.sh`): each plans after the default pipeline, passes
//! `check`, and lands within bounds worked out from its architecture. The
//! numbers print with `cargo test -p onnx-mlc-plan models -- --nocapture`.

use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Model, OpKind};
use onnx_mlc_import::{load_model, ImportOptions};
use onnx_mlc_plan::{plan, Plan, PlanOptions};
use onnx_mlc_tests::cache_dir;

use crate::check::check;

fn prepare(name: &str) -> Model {
    let path = cache_dir().join("models").join(name).join("model.onnx");
    assert!(
        path.exists(),
        "{} is missing: run tools/setup.sh",
        path.display()
    );
    let mut model = load_model(&path, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .model;
    for p in DEFAULT_PIPELINE {
        (pass(p).expect("registered").run)(&mut model)
            .unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
    }
    model
}

/// Main-graph ops of each kind.
fn count(model: &Model, kinds: &[OpKind]) -> usize {
    let main = model.ir.region(model.graph);
    main.ops
        .iter()
        .filter(|&&op| kinds.contains(&model.ir.op(op).kind))
        .count()
}

/// Plans `name` by default and with in-place reuse, checks both plans,
/// prints their numbers, and returns the model and the default plan.
fn planned(name: &str) -> (Model, Plan) {
    let model = prepare(name);
    let [default, in_place] = [false, true].map(|in_place| {
        let plan =
            plan(&model, &PlanOptions { in_place }).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(e) = check(&model, &plan) {
            panic!("{name}, in place {in_place}: {e}");
        }
        plan
    });
    let code_ops =
        count(&model, &OpKind::ALL) - count(&model, &[OpKind::Constant]) - default.views.len();
    println!(
        "{name:<17} {code_ops:>4} ops -> {:>4} kernels, {:>4} fused; peak {:>9} B, naive {:>10} B ({:.1}x); \
         in place: {:>3} pairs, peak {:>9} B",
        default.num_kernels,
        default.num_fused_ops,
        default.workspace_size,
        default.naive_bytes,
        default.naive_bytes as f64 / default.workspace_size.max(1) as f64,
        in_place.in_place.len(),
        in_place.workspace_size,
    );
    (model, default)
}

/// Kernel and fused-op counts follow from each architecture (main-graph op
/// counts as `onnx-mlc inspect` lists them):
/// - ResNet-50: 53 Conv + MaxPool + GlobalAveragePool + Gemm kernels; all
///   53 BatchNormalizations, 49 Relus and 16 residual Adds are conv
///   epilogues (118 fused). Flatten is a view.
/// - MobileNetV2: 52 Conv + GlobalAveragePool + Gemm kernels; 52 BNs, 35
///   Clips (ReLU6) and 10 residual Adds fused (97).
/// - EfficientNet-B0: 81 Conv + 17 GlobalAveragePool + Gemm kernels, plus
///   the 16 squeeze-excitation scalings `x · s` (s is [1, C, 1, 1], x the
///   full map: another shape, and x also feeds the pooling that computes
///   s) = 115; 49 BNs, 65 Sigmoids, 49 Muls (65 less those 16) and 9 Adds
///   fused (172).
/// - ViT-B/16: patch Conv, Transpose, Expand, Concat, position Add (5);
///   per layer 24 (LN, QKV in-projection as Transpose + MatMul + bias,
///   head split as Transpose + 3 Gathers + 3 Transposes, the scale
///   `Cast, Sqrt, Div, Cast` on constants, 2 scaling Muls, scores MatMul,
///   Softmax, context MatMul, Transpose, out-projection Gemm, Transpose,
///   residual Add, LN, MLP MatMul + bias + GELU, MatMul + bias + residual);
///   final LN, Gather, Gemm (3): 5 + 12·24 + 3 = 296.
/// - BERT-base: 3 embedding Gathers, their two Adds, LN, 7 for the mask
///   (12); per layer 15 (Q, K, V MatMul + bias, 4 Transposes, scores
///   MatMul + scale + mask, Softmax, context MatMul, output MatMul + bias +
///   residual, LN, intermediate MatMul + bias + GELU, output MatMul + bias
///   + residual, LN); pooler Gather and Gemm + Tanh (2): 12 + 180 + 2 = 194.
/// - GPT-2: 2 embedding Gathers, Cast + Add, 3 for the causal mask (6);
///   per layer 17 (LN, c_attn Gemm, Split, 3 Transposes, scores MatMul +
///   scale + mask, Softmax + Cast, context MatMul, Transpose, c_proj Gemm,
///   residual Add — a loop nest of its own, the Gemm's result reaching it
///   through a Reshape —, LN, c_fc Gemm, the whole tanh-GELU as one loop
///   nest, c_proj Gemm, residual Add); final LN: 6 + 204 + 1 = 211.
const MODELS: &[(&str, usize, usize)] = &[
    ("resnet50", 56, 118),
    ("mobilenet_v2", 54, 97),
    ("efficientnet_b0", 115, 172),
    ("vit_b_16", 296, 168),
    ("bert_base", 193, 182),
    ("gpt2", 211, 121),
];

#[test]
fn real_models_fuse_and_reuse_memory() {
    let mut wrong = vec![];
    for &(name, kernels, fused) in MODELS {
        let (_, plan) = planned(name);
        let largest = plan
            .storage
            .values()
            .filter_map(|s| match s {
                onnx_mlc_plan::Storage::Workspace { bytes, .. } => Some(*bytes),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        if (plan.num_kernels, plan.num_fused_ops) != (kernels, fused) {
            wrong.push(format!(
                "{name}: {} kernels, {} fused ops; expected {kernels}, {fused}",
                plan.num_kernels, plan.num_fused_ops
            ));
        }
        // Reuse: at no point are more than three of the largest tensors
        // live (a residual, a block's input and its output), and the arena
        // is well under the sum of the intermediates.
        if plan.workspace_size > 3 * largest || 2 * plan.workspace_size >= plan.naive_bytes {
            wrong.push(format!(
                "{name}: workspace {} B, largest tensor {largest} B, naive {} B",
                plan.workspace_size, plan.naive_bytes
            ));
        }
        let statically_sized = plan
            .storage
            .values()
            .all(|s| !matches!(s, onnx_mlc_plan::Storage::Dynamic { .. }));
        if !statically_sized || !plan.output_copies.is_empty() {
            wrong.push(format!(
                "{name}: static models need neither dynamic buffers nor output copies: {plan}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The dynamic variants plan too: every intermediate whose size involves
/// `batch` (or `sequence`) is allocated at run time.
#[test]
fn dynamic_models_allocate_at_run_time() {
    for name in ["resnet50_dynamic", "bert_base_dynamic"] {
        let (_, plan) = planned(name);
        let dynamic = plan
            .storage
            .values()
            .filter(|s| matches!(s, onnx_mlc_plan::Storage::Dynamic { .. }))
            .count();
        assert!(dynamic > plan.num_kernels / 2, "{name}: {plan}");
    }
}
