//! Whole models through `Engine::compile`, checked against references:
//! the checked-in `tests/models/default` against its own test data
//! (onnxruntime's outputs), and ResNet-50 and MobileNetV2 (the
//! materialized models of `.cache/models`, see `tools/setup.sh`) against
//! onnxruntime run in the same test on a seeded input
//! (`tools/ort_reference.py`), within rel 1e-3 / abs 1e-4. The real
//! models need the cache and the Python venv; without them the tests say
//! so and pass (`ONNX_MLC_CACHE` / `ONNX_MLC_PYTHON` point elsewhere).

use std::path::{Path, PathBuf};
use std::process::Command;

use onnx_mlc::{CompileOptions, Engine, Tensor};
use onnx_mlc_import::{read_value, TestValue};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> PathBuf {
    std::env::var_os("ONNX_MLC_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".venv/bin/python"))
}

fn cache() -> PathBuf {
    std::env::var_os("ONNX_MLC_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".cache"))
}

/// Checks `got` against `want` elementwise: `|a − b| ≤ 1e-4 + 1e-3·|b|`.
fn assert_close(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{what}: element count");
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        let ok = (a - b).abs() <= 1e-4 + 1e-3 * b.abs();
        assert!(ok, "{what}[{i}]: {a} vs {b}");
    }
}

#[test]
fn default_model_matches_its_test_data() {
    default_model_on(1);
}

#[test]
fn default_model_matches_its_test_data_on_two_threads() {
    default_model_on(2);
}

fn default_model_on(threads: usize) {
    let dir = repo().join("tests/models/default");
    let model = Engine::load(dir.join("model.onnx")).expect("loads");
    let options = CompileOptions {
        threads,
        ..CompileOptions::default()
    };
    let compiled = Engine::compile(&model, &options).expect("compiles");
    let g = model.ir.region(model.graph);
    let data = dir.join("test_data_set_0");
    let arg = g
        .args
        .iter()
        .find(|a| a.default.is_none())
        .expect("an input");
    let TestValue::Tensor(x) =
        read_value(&data.join("input_0.pb"), model.ir.ty(arg.value)).expect("input")
    else {
        panic!("a tensor input")
    };
    let outputs = compiled
        .run(&[Tensor::from_tensor_data(&x).expect("a tensor")])
        .expect("runs");
    let TestValue::Tensor(want) =
        read_value(&data.join("output_0.pb"), model.ir.ty(g.outputs[0].value)).expect("output")
    else {
        panic!("a tensor output")
    };
    let want = Tensor::from_tensor_data(&want).expect("a tensor");
    assert_eq!(outputs[0].shape(), want.shape());
    assert_close(
        "default",
        &outputs[0].to_vec::<f32>().expect("f32"),
        &want.to_vec::<f32>().expect("f32"),
    );
}

/// Uniform values in [-1, 1) from a fixed-seed xorshift generator.
fn seeded(n: usize) -> Vec<f32> {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// Runs model `name` of the cache here and in onnxruntime on the same
/// seeded `[1, 3, 224, 224]` image and compares the outputs.
fn matches_onnxruntime(name: &str) {
    let path = cache().join("models").join(name).join("model.onnx");
    if !path.exists() || !python().is_file() {
        eprintln!(
            "skipping {name}: needs {} and {}",
            path.display(),
            python().display()
        );
        return;
    }
    let model = Engine::load(&path).expect("loads");
    let compiled = Engine::compile(&model, &CompileOptions::default()).expect("compiles");
    let dims = [1, 3, 224, 224];
    let x = seeded(dims.iter().product::<i64>() as usize);
    let got = compiled
        .run(&[Tensor::from_slice(&dims, &x).expect("a tensor")])
        .expect("runs");
    let dir = std::env::temp_dir().join(format!("omlc-models-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let (xin, yout) = (dir.join("x.bin"), dir.join("y.bin"));
    let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(&xin, bytes).expect("writes the input");
    let out = Command::new(python())
        .arg(repo().join("tools/ort_reference.py"))
        .args([path.as_os_str(), xin.as_os_str(), yout.as_os_str()])
        .output()
        .expect("runs python");
    assert!(
        out.status.success(),
        "onnxruntime: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want: Vec<f32> = std::fs::read(&yout)
        .expect("onnxruntime's output")
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert_close(name, &got[0].to_vec::<f32>().expect("f32"), &want);
}

#[test]
fn resnet50_matches_onnxruntime() {
    matches_onnxruntime("resnet50");
}

#[test]
fn mobilenet_v2_matches_onnxruntime() {
    matches_onnxruntime("mobilenet_v2");
}
