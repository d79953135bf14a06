//! Benchmarks of the generated code (run with `--release`):
//!
//! - a 512×512×512 f32 MatMul: GFLOP/s and the share of one core's fp32
//!   peak (`PEAK_GFLOPS`: 2.6 GHz × 2 FMA units × 16 lanes × 2 flops, the
//!   machine's figures from `/work/shared/TOOLCHAIN.md`; override with
//!   `OMLC_PEAK_GFLOPS`);
//! - BERT-base, GPT-2 and ViT-B/16 from the model cache: median latency of
//!   the compiled model on one thread against onnxruntime with
//!   `intra_op_num_threads=1` on the same seeded inputs, in the same run
//!   (`tools/ort_seeded_reference.py`), and their ratio.
//!
//! `cargo run --release -p onnx-mlc --example bench [model…]`

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use onnx_mlc::{CompileOptions, CompiledModel, Engine, Tensor};
use onnx_mlc_dialect::{parse_model, ElemType};

/// One core's fp32 peak on the reference machine, GFLOP/s.
const PEAK_GFLOPS: f64 = 2.6 * 2.0 * 16.0 * 2.0;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The median wall time of `runs` calls of `f`, in milliseconds.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn matmul() {
    let n = 512;
    let text = format!(
        "onnx.model {{ir_version = 10, opset_imports = {{\"\" = 17}}}}\n\
         onnx.graph \"g\"(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> (\"y\": tensor<{n}x{n}xf32>) {{\n\
         %y = \"onnx.MatMul\"(%a, %b) : (tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>\n\
         onnx.return %y\n}}\n"
    );
    let model = parse_model(&text).expect("a valid model");
    let compiled = Engine::compile(&model, &CompileOptions::default()).expect("compiles");
    let values: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 * 0.25).collect();
    let a = Tensor::from_slice(&[n as i64, n as i64], &values).unwrap();
    let ms = median_ms(20, || {
        compiled.run(&[a.clone(), a.clone()]).unwrap();
    });
    let gflops = 2.0 * (n as f64).powi(3) / (ms * 1e-3) / 1e9;
    let peak = std::env::var("OMLC_PEAK_GFLOPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PEAK_GFLOPS);
    println!(
        "matmul 512^3 f32: {ms:.3} ms, {gflops:.1} GFLOP/s, {:.1}% of {peak:.1} GFLOP/s peak",
        100.0 * gflops / peak
    );
}

/// Seeded inputs (and onnxruntime's 1-thread latency) for `model`.
fn reference(model: &Path) -> Option<(Vec<Tensor>, f64)> {
    let python = [
        "/work/main/.venv/bin/python".into(),
        repo().join(".venv/bin/python"),
    ]
    .into_iter()
    .find(|p: &PathBuf| p.exists())?;
    let out = std::env::temp_dir().join(format!("omlc-bench-{}", std::process::id()));
    let output = Command::new(python)
        .arg(repo().join("tools/ort_seeded_reference.py"))
        .arg(model)
        .arg(&out)
        .arg("7")
        .arg("1")
        .output()
        .ok()?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let ort_ms: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("ort_ms "))?
        .trim()
        .parse()
        .ok()?;
    let manifest = std::fs::read_to_string(out.join("manifest.txt")).ok()?;
    let mut inputs = vec![];
    for line in manifest.lines().filter(|l| l.starts_with("input")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let elem = match f[2] {
            "f32" => ElemType::F32,
            "i64" => ElemType::I64,
            _ => ElemType::I32,
        };
        let dims: Vec<i64> = f[3..].iter().map(|d| d.parse().unwrap()).collect();
        let bytes = std::fs::read(out.join(format!("input_{}.bin", f[1]))).ok()?;
        inputs.push(Tensor::from_bytes(elem, &dims, &bytes).ok()?);
    }
    std::fs::remove_dir_all(&out).ok();
    Some((inputs, ort_ms))
}

fn model(name: &str) {
    let path = [
        "/work/main/.cache/models".into(),
        repo().join(".cache/models"),
    ]
    .into_iter()
    .map(|d: PathBuf| d.join(name).join("model.onnx"))
    .find(|p| p.exists());
    let Some(path) = path else {
        println!("{name}: model not found");
        return;
    };
    let Some((inputs, ort_ms)) = reference(&path) else {
        println!("{name}: onnxruntime reference failed");
        return;
    };
    let loaded = Engine::load(&path).expect("loads");
    let compile_start = Instant::now();
    let compiled: CompiledModel = match Engine::compile(&loaded, &CompileOptions::default()) {
        Ok(c) => c,
        Err(e) => {
            println!("{name}: does not compile: {e}");
            return;
        }
    };
    let compile_s = compile_start.elapsed().as_secs_f64();
    let ms = median_ms(10, || {
        compiled.run(&inputs).unwrap();
    });
    println!(
        "{name}: {ms:.2} ms vs onnxruntime {ort_ms:.2} ms (1 thread): ratio {:.2} (compile {compile_s:.1} s)",
        ms / ort_ms
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let models: Vec<&str> = if args.is_empty() {
        vec!["matmul", "bert_base", "gpt2", "vit_b_16"]
    } else {
        args.iter().map(String::as_str).collect()
    };
    for m in models {
        match m {
            "matmul" => matmul(),
            name => model(name),
        }
    }
}
