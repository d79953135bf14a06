//! Latency of convolutional networks and of their single convolutions,
//! next to onnxruntime's (1 thread) in the same run:
//! `cargo run --release -p onnx-mlc --example cnn_bench [-- MODEL.onnx…]`.
//!
//! Without arguments: the single-convolution models of
//! `tools/conv_models.py` (ResNet-50 and MobileNetV2 layer shapes), then
//! ResNet-50 and MobileNetV2 from `.cache/models` (or `$ONNX_MLC_CACHE/models`).
//! Each model runs on the same seeded input in both; the outputs are
//! compared (max abs and rel error) and the latency ratio printed.
//! Python with onnxruntime: `.venv/bin/python` or `$ONNX_MLC_PYTHON`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use onnx_mlc::{CompileOptions, Engine, Tensor};

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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn bench(path: &Path, runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = if stem == "model" {
        path.parent()
            .and_then(|p| p.file_name())
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    } else {
        stem.into_owned()
    };
    let model = Engine::load(path)?;
    let t = Instant::now();
    let compiled = Engine::compile(&model, &CompileOptions::default())?;
    let compile_ms = t.elapsed().as_secs_f64() * 1e3;
    let g = model.ir.region(model.graph);
    let first = g
        .args
        .iter()
        .find(|a| a.default.is_none())
        .ok_or("no input")?;
    let ty = model.ir.ty(first.value).as_tensor().ok_or("not a tensor")?;
    let dims: Vec<i64> = ty
        .dims()
        .ok_or("unranked input")?
        .iter()
        .map(|d| d.as_known().unwrap_or(1))
        .collect();
    let n: i64 = dims.iter().product();
    let x = seeded(n as usize);
    let input = Tensor::from_slice(&dims, &x)?;
    let ours = compiled.run(std::slice::from_ref(&input))?;
    let mut times = vec![];
    for _ in 0..runs {
        let t = Instant::now();
        compiled.run(std::slice::from_ref(&input))?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let ours_ms = median(times);
    let dir = std::env::temp_dir().join(format!("omlc-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (xin, yout) = (dir.join("x.bin"), dir.join("y.bin"));
    std::fs::write(
        &xin,
        x.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
    )?;
    let out = Command::new(python())
        .arg(repo().join("tools/ort_reference.py"))
        .args([path.as_os_str(), xin.as_os_str(), yout.as_os_str()])
        .arg(runs.to_string())
        .output()?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned().into());
    }
    let ort_ms: f64 = String::from_utf8_lossy(&out.stdout).trim().parse()?;
    let want: Vec<f32> = std::fs::read(&yout)?
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let got = ours[0].to_vec::<f32>()?;
    let (mut abs, mut rel) = (0f64, 0f64);
    for (a, b) in got.iter().zip(&want) {
        let d = (*a as f64 - *b as f64).abs();
        abs = abs.max(d);
        rel = rel.max(d / (*b as f64).abs().max(1e-3));
    }
    println!(
        "{name:<28} {ours_ms:>9.3} {ort_ms:>9.3} {:>7.2}x {compile_ms:>9.0} {abs:>9.2e} {rel:>9.2e}",
        ours_ms / ort_ms
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        let dir = std::env::temp_dir().join(format!("omlc-convs-{}", std::process::id()));
        let out = Command::new(python())
            .arg(repo().join("tools/conv_models.py"))
            .arg(&dir)
            .output()?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned().into());
        }
        for name in String::from_utf8_lossy(&out.stdout).lines() {
            paths.push(dir.join(format!("{name}.onnx")));
        }
        for m in ["resnet50", "mobilenet_v2"] {
            paths.push(cache().join("models").join(m).join("model.onnx"));
        }
    }
    println!(
        "{:<28} {:>9} {:>9} {:>8} {:>9} {:>9} {:>9}",
        "model", "ours ms", "ort ms", "ratio", "compile", "max abs", "max rel"
    );
    for p in &paths {
        if let Err(e) = bench(p, 10) {
            println!("{}: {e}", p.display());
        }
    }
    Ok(())
}
