//! The models, through every stage, in one place: each real model of
//! `tests/models/` (materialized with seeded weights into `.cache/models/`
//! by `tools/setup.sh`) and the two small checked-in ones, `mlp` and the
//! demo model `default`. [`MODELS`] says what each stage must do with
//! each:
//!
//! - `onnx`: the model imports and passes the default dialect pipeline
//!   with every value fully typed — static shapes for models with static
//!   inputs, symbolic (never unknown) dims for the `_dynamic` variants,
//!   which keep their `dim_param`s.
//! - `plan`: the kernel and fused-op counts worked out from each
//!   architecture, plans that pass `onnx_mlc_tests::plan_check` (with and
//!   without in-place reuse), memory reuse within bounds, and run-time
//!   allocation of what the symbols size. The numbers print with
//!   `cargo test -p onnx-mlc --test pipeline models -- --nocapture`.
//! - compiled: [`Engine::compile`] runs the model on seeded inputs and must
//!   match onnxruntime's outputs on them within rel. 1e-3 / abs. 1e-4 (the
//!   real models' data in `.cache/models/<name>/test_data_set_0`, written
//!   by `tools/reference.py models`, which `tools/setup.sh` runs; the
//!   small models' checked in beside them).
//!
//! The last tests check the contract of [`CompiledModel`]: shareable
//! between threads with identical results, and bad inputs (names, element
//! types, shapes, `dim_param` bindings) are errors.

use std::path::PathBuf;
use std::time::Instant;

use onnx_mlc::{CompileOptions, CompiledModel, Engine, Tensor};
use onnx_mlc_dialect::dim::Dim;
use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Model, OpKind, Type};
use onnx_mlc_import::{load_model, read_value, ImportOptions, TestValue};
use onnx_mlc_plan::{plan, Plan, PlanOptions, Storage};
use onnx_mlc_tests::plan_check::check;
use onnx_mlc_tests::{cache_dir, repo_root};

/// A model and what the stages must do with it.
struct Case {
    name: &'static str,
    /// Inputs with symbolic dims (the `_dynamic` variants of a model).
    dynamic: bool,
    /// The kernels and fused ops of its plan ([`MODELS`] says why).
    plan: Option<(usize, usize)>,
}

/// The models. Kernel and fused-op counts follow from each architecture
/// (main-graph op counts as `onnx-mlc inspect` lists them):
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
const MODELS: &[Case] = &[
    real("resnet50", Some((56, 118))),
    real("mobilenet_v2", Some((54, 97))),
    real("efficientnet_b0", Some((115, 172))),
    real("vit_b_16", Some((296, 168))),
    real("bert_base", Some((193, 182))),
    real("gpt2", Some((211, 121))),
    Case {
        name: "resnet50_dynamic",
        dynamic: true,
        plan: None,
    },
    Case {
        name: "bert_base_dynamic",
        dynamic: true,
        plan: None,
    },
];

const fn real(name: &'static str, plan: Option<(usize, usize)>) -> Case {
    Case {
        name,
        dynamic: false,
        plan,
    }
}

/// The directory holding `model.onnx` and `test_data_set_0` for `name`.
fn model_dir(name: &str) -> PathBuf {
    match name {
        // The small models are checked in with their data.
        "default" | "mlp" => repo_root().join("tests/models").join(name),
        _ => cache_dir().join("models").join(name),
    }
}

/// The model file `name`, imported.
fn load(name: &str) -> Model {
    let path = model_dir(name).join("model.onnx");
    assert!(
        path.is_file(),
        "{} is missing: run tools/setup.sh (it materializes the models and their reference data)",
        path.display()
    );
    load_model(&path, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .model
}

/// The model `name` after the default dialect pipeline (the `onnx` stage).
fn prepare(name: &str) -> Model {
    let mut model = load(name);
    for p in DEFAULT_PIPELINE {
        (pass(p).expect("registered").run)(&mut model)
            .unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
    }
    model
}

// ---- onnx: types after the dialect pipeline ----

/// Every value of the model whose type fails `ok`, named for the message.
fn offending_values(model: &Model, ok: impl Fn(&Type) -> bool) -> Vec<String> {
    let ir = &model.ir;
    let mut bad = vec![];
    for region in model.top_regions() {
        for r in ir.regions_within(region) {
            let args = ir.region(r).args.iter().map(|a| a.value);
            let results = ir
                .region(r)
                .ops
                .iter()
                .flat_map(|&o| ir.op(o).results.iter().flatten().copied());
            for v in args.chain(results) {
                if !ok(ir.ty(v)) {
                    let name = ir.value(v).name.clone().unwrap_or_else(|| format!("{v:?}"));
                    bad.push(format!("{name}: {}", ir.ty(v)));
                }
            }
        }
    }
    bad
}

/// Ranked, with no unknown dim anywhere (symbolic dims allowed).
fn fully_known(ty: &Type) -> bool {
    match ty {
        Type::Tensor(t) | Type::SparseTensor(t) => t
            .dims()
            .is_some_and(|d| d.iter().all(|d| *d != Dim::Unknown)),
        Type::Sequence(t) | Type::Optional(t) | Type::Map(_, t) => fully_known(t),
        Type::Unknown => false,
    }
}

#[test]
fn real_models_infer_to_fully_known_shapes() {
    let mut failures = vec![];
    for case in MODELS {
        let start = Instant::now();
        let model = prepare(case.name);
        let elapsed = start.elapsed();
        let bad = if case.dynamic {
            offending_values(&model, fully_known)
        } else {
            offending_values(&model, Type::is_static)
        };
        let ops: usize = model
            .top_regions()
            .iter()
            .map(|&r| model.ir.walk_ops(r).len())
            .sum();
        println!(
            "{}: {ops} ops after the pipeline, {} not fully known, {elapsed:.2?}",
            case.name,
            bad.len()
        );
        if !bad.is_empty() {
            failures.push(format!(
                "{}: {} values, e.g. {}",
                case.name,
                bad.len(),
                bad[..bad.len().min(3)].join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The dims of the first output of `name` after the dialect pipeline.
fn first_output_dims(name: &str) -> Vec<Dim> {
    let model = prepare(name);
    let main = model.ir.region(model.graph);
    let out = model.ir.ty(main.outputs[0].value);
    let dims = out.as_tensor().and_then(|t| t.dims());
    dims.expect("a ranked tensor output").to_vec()
}

#[test]
fn dynamic_models_keep_their_dim_params() {
    let dims: Vec<String> = first_output_dims("bert_base_dynamic")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        dims,
        ["\"batch\"", "\"sequence\"", "768"],
        "BERT's first output is [batch, sequence, 768]"
    );
    let dims = first_output_dims("resnet50_dynamic");
    assert_eq!(dims[0], Dim::param("batch"));
    assert_eq!(dims[1], Dim::Known(1000));
}

// ---- plan: kernels, fusion and memory ----

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

#[test]
fn real_models_fuse_and_reuse_memory() {
    let mut wrong = vec![];
    for case in MODELS {
        let Some((kernels, fused)) = case.plan else {
            continue;
        };
        let name = case.name;
        let (_, plan) = planned(name);
        let largest = plan
            .storage
            .values()
            .filter_map(|s| match s {
                Storage::Workspace { bytes, .. } => Some(*bytes),
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
            .all(|s| !matches!(s, Storage::Dynamic { .. }));
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
    for case in MODELS.iter().filter(|c| c.dynamic) {
        let (_, plan) = planned(case.name);
        let dynamic = plan
            .storage
            .values()
            .filter(|s| matches!(s, Storage::Dynamic { .. }))
            .count();
        assert!(dynamic > plan.num_kernels / 2, "{}: {plan}", case.name);
    }
}

// ---- compiled: outputs against onnxruntime's ----

/// The test data file `file` of `name`, as a tensor of the value's type.
fn test_tensor(model: &Model, name: &str, file: &str, value: onnx_mlc_dialect::Value) -> Tensor {
    let path = model_dir(name).join("test_data_set_0").join(file);
    assert!(
        path.is_file(),
        "{} is missing: run tools/setup.sh (tools/reference.py models)",
        path.display()
    );
    let TestValue::Tensor(t) =
        read_value(&path, model.ir.ty(value)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    else {
        panic!("{}: not a tensor", path.display())
    };
    Tensor::from_tensor_data(&t).unwrap()
}

/// The reference inputs of `name`, in graph order.
fn inputs(model: &Model, name: &str) -> Vec<Tensor> {
    let g = model.ir.region(model.graph);
    g.args
        .iter()
        .filter(|a| a.default.is_none())
        .enumerate()
        .map(|(k, a)| test_tensor(model, name, &format!("input_{k}.pb"), a.value))
        .collect()
}

/// Compares outputs with onnxruntime's: the first difference, if any.
fn compare(model: &Model, name: &str, outputs: &[Tensor]) -> Result<(), String> {
    let g = model.ir.region(model.graph);
    if outputs.len() != g.outputs.len() {
        return Err(format!(
            "{} outputs, expected {}",
            outputs.len(),
            g.outputs.len()
        ));
    }
    for (k, (o, got)) in g.outputs.iter().zip(outputs).enumerate() {
        let want = test_tensor(model, name, &format!("output_{k}.pb"), o.value);
        if got.elem() != want.elem() || got.shape() != want.shape() {
            return Err(format!(
                "output {k}: {} {:?}, expected {} {:?}",
                got.elem(),
                got.shape(),
                want.elem(),
                want.shape()
            ));
        }
        let (g, w) = (got.to_tensor_data(), want.to_tensor_data());
        let (Some(g), Some(w)) = (g.to_f64s(), w.to_f64s()) else {
            return Err(format!(
                "output {k}: element type {} not comparable",
                got.elem()
            ));
        };
        let mut worst = (0.0f64, 0usize);
        for (j, (a, b)) in g.iter().zip(&w).enumerate() {
            let close = a == b || (a - b).abs() <= 1e-4 + 1e-3 * b.abs();
            if !close {
                return Err(format!("output {k}[{j}]: {a}, onnxruntime {b}"));
            }
            if (a - b).abs() > worst.0 {
                worst = ((a - b).abs(), j);
            }
        }
        eprintln!(
            "{name}: output {k} {:?} matches (largest difference {:.2e} at {})",
            got.shape(),
            worst.0,
            worst.1
        );
    }
    Ok(())
}

/// Compiles and runs the model `name` and checks it against onnxruntime.
fn compiled_matches_onnxruntime(name: &str) {
    let model = load(name);
    let compiled = Engine::compile(&model, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: compile: {e}"));
    let outputs = compiled
        .run(&inputs(&model, name))
        .unwrap_or_else(|e| panic!("{name}: run: {e}"));
    if let Err(e) = compare(&model, name, &outputs) {
        panic!("{name}: {e}");
    }
}

#[test]
fn mlp() {
    compiled_matches_onnxruntime("mlp");
}

#[test]
fn default_model() {
    compiled_matches_onnxruntime("default");
}

#[test]
fn resnet50() {
    compiled_matches_onnxruntime("resnet50");
}

#[test]
fn mobilenet_v2() {
    compiled_matches_onnxruntime("mobilenet_v2");
}

#[test]
fn efficientnet_b0() {
    compiled_matches_onnxruntime("efficientnet_b0");
}

#[test]
fn vit_b_16() {
    compiled_matches_onnxruntime("vit_b_16");
}

#[test]
fn bert_base() {
    compiled_matches_onnxruntime("bert_base");
}

#[test]
fn gpt2() {
    compiled_matches_onnxruntime("gpt2");
}

// ---- the contract of a compiled model ----

#[test]
fn compiled_models_are_shared_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<CompiledModel>();

    let model = load("mlp");
    let inputs = inputs(&model, "mlp");
    // Single-threaded code, and code that itself runs on 2 threads (the
    // callers then share the runtime's thread pool).
    for threads in [1, 2] {
        let options = CompileOptions {
            threads,
            ..CompileOptions::default()
        };
        let compiled = Engine::compile(&model, &options).unwrap();
        let alone = compiled.run(&inputs).unwrap();
        compare(&model, "mlp", &alone).unwrap();
        let barrier = std::sync::Barrier::new(8);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        (0..20)
                            .map(|_| compiled.run(&inputs).unwrap())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                for outputs in h.join().unwrap() {
                    assert_eq!(outputs, alone, "{threads} threads");
                }
            }
        });
    }
}
/// A model with static shapes: `z = x + y` on `2×4` floats.
const STATIC: &str = r#"
onnx.model {opset_imports = {"" = 17}}
onnx.graph "add"(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> ("z": tensor<2x4xf32>) {
  %z = "onnx.Add"(%x, %y) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  onnx.return %z
}
"#;

/// The same with a symbolic batch dim `N` shared by both inputs.
const DYNAMIC: &str = r#"
onnx.model {opset_imports = {"" = 17}}
onnx.graph "add"(%x: tensor<"N"x4xf32>, %y: tensor<"N"x4xf32>) -> ("z": tensor<"N"x4xf32>) {
  %z = "onnx.Add"(%x, %y) : (tensor<"N"x4xf32>, tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
  onnx.return %z
}
"#;

/// `n×4` ones.
fn ones(n: i64) -> Tensor {
    Tensor::from_vec(vec![n, 4], vec![1.0f32; 4 * n as usize]).unwrap()
}

fn err(r: onnx_mlc::Result<Vec<Tensor>>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn bad_inputs_are_errors() {
    let model = onnx_mlc_dialect::parse_model(STATIC).unwrap();
    let compiled = Engine::compile(&model, &CompileOptions::default()).unwrap();
    let z = compiled.run(&[ones(2), ones(2)]).unwrap();
    assert_eq!(z[0].to_vec::<f32>().unwrap(), vec![2.0; 8]);
    let named = compiled
        .run_named(&[("y", &ones(2)), ("x", &ones(2))])
        .unwrap();
    assert_eq!(named, z);

    let ints = Tensor::from_vec(vec![2, 4], vec![1i64; 8]).unwrap();
    let flat = Tensor::from_vec(vec![8], vec![1.0f32; 8]).unwrap();
    // Each bad call and a fragment of its message.
    let cases = [
        (err(compiled.run(&[ones(2)])), "2"),
        (err(compiled.run(&[ones(2), ones(2), ones(2)])), "3"),
        (err(compiled.run(&[ones(2), ints])), "i64"),
        (err(compiled.run(&[flat, ones(2)])), "rank"),
        (err(compiled.run(&[ones(2), ones(3)])), "y"),
        (
            err(compiled.run_named(&[("x", &ones(2)), ("w", &ones(2))])),
            "w",
        ),
        (err(compiled.run_named(&[("x", &ones(2))])), "y"),
        (
            err(compiled.run_named(&[("x", &ones(2)), ("x", &ones(2))])),
            "x",
        ),
    ];
    for (message, fragment) in &cases {
        eprintln!("{message}");
        assert!(message.contains(fragment), "{message:?} lacks {fragment:?}");
    }
}

#[test]
fn dim_params_are_checked() {
    let model = onnx_mlc_dialect::parse_model(DYNAMIC).unwrap();
    match Engine::compile(&model, &CompileOptions::default()) {
        // Until dynamic shapes lower: a clean refusal naming the reason.
        Err(e) => {
            assert!(e.is_unsupported(), "{e}");
            assert!(e.to_string().contains("dynamic shapes"), "{e}");
        }
        Ok(compiled) => {
            for n in [1, 3] {
                let z = compiled.run(&[ones(n), ones(n)]).unwrap();
                assert_eq!(z[0].shape(), [n, 4]);
            }
            let message = err(compiled.run(&[ones(2), ones(3)]));
            assert!(message.contains('N'), "{message}");
        }
    }
}
