//! The real models through [`Engine::compile`], compared with onnxruntime.
//!
//! Each model of the corpus (the six of `tests/models/` with materialized
//! weights, the MLP of `tools/make_mlp.py` and the default model) runs on
//! seeded inputs and must match onnxruntime's outputs on them within
//! rel. 1e-3 / abs. 1e-4: the six models' data is in
//! `.cache/models/<name>/test_data_set_0` (written by
//! `tools/reference.py models`, which `tools/setup.sh` runs), the small
//! models' is checked in beside them.
//!
//! The other tests check the contract of [`CompiledModel`]: shareable
//! between threads with identical results, and bad inputs (names, element
//! types, shapes, `dim_param` bindings) are errors.

use std::path::{Path, PathBuf};

use onnx_mlc::{CompileOptions, CompiledModel, Engine, Tensor};
use onnx_mlc_dialect::Model;
use onnx_mlc_import::{read_value, TestValue};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directory holding `model.onnx` and `test_data_set_0` for `name`.
fn model_dir(name: &str) -> PathBuf {
    match name {
        // The small models are checked in with their data.
        "default" | "mlp" => repo().join("tests/models").join(name),
        // `$ONNX_MLC_CACHE` moves the generated data, as for the other suites.
        _ => std::env::var_os("ONNX_MLC_CACHE")
            .map_or_else(|| repo().join(".cache"), PathBuf::from)
            .join("models")
            .join(name),
    }
}

fn load(name: &str) -> Model {
    let path = model_dir(name).join("model.onnx");
    assert!(
        path.is_file(),
        "{} is missing: run tools/setup.sh (it materializes the models and their reference data)",
        path.display()
    );
    Engine::load(&path).unwrap_or_else(|e| panic!("{name}: load: {e}"))
}

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
fn check(name: &str) {
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
    check("mlp");
}

#[test]
fn default_model() {
    check("default");
}

#[test]
fn resnet50() {
    check("resnet50");
}

#[test]
fn mobilenet_v2() {
    check("mobilenet_v2");
}

#[test]
fn efficientnet_b0() {
    check("efficientnet_b0");
}

#[test]
fn vit_b_16() {
    check("vit_b_16");
}

#[test]
fn bert_base() {
    check("bert_base");
}

#[test]
fn gpt2() {
    check("gpt2");
}

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
