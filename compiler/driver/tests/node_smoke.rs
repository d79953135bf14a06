//! Every ONNX backend node test through the JIT: each must pass, or be
//! refused with a clean "unsupported" error — never a wrong result, an
//! internal error or a panic. (The conformance harness with its manifest
//! comes with the conformance issue; this is the net for the lowering.)

use std::path::Path;

use onnx_mlc::{CompileOptions, Engine, Tensor};
use onnx_mlc_import::{read_value, TestValue};

fn backend() -> std::path::PathBuf {
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.cache/onnx-backend/node");
    if main.exists() {
        main
    } else {
        "/tmp/onnx-backend/node".into()
    }
}

fn run_case(dir: &Path) -> Result<(), String> {
    let model = Engine::load(dir.join("model.onnx")).map_err(|e| format!("load: {e}"))?;
    let compiled = match Engine::compile(&model, &CompileOptions::default()) {
        Ok(c) => c,
        Err(e) if e.is_unsupported() => return Err(format!("unsupported: {e}")),
        Err(e) => return Err(format!("compile: {e}")),
    };
    let g = model.ir.region(model.graph);
    let data = dir.join("test_data_set_0");
    let mut inputs = vec![];
    for (i, a) in g.args.iter().filter(|a| a.default.is_none()).enumerate() {
        let v = read_value(&data.join(format!("input_{i}.pb")), model.ir.ty(a.value))
            .map_err(|e| e.to_string())?;
        let TestValue::Tensor(t) = v else {
            return Err("non-tensor input".into());
        };
        inputs.push(Tensor::from_tensor_data(&t).map_err(|e| e.to_string())?);
    }
    let outputs = compiled.run(&inputs).map_err(|e| format!("run: {e}"))?;
    for (i, o) in g.outputs.iter().enumerate() {
        let TestValue::Tensor(want) =
            read_value(&data.join(format!("output_{i}.pb")), model.ir.ty(o.value))
                .map_err(|e| e.to_string())?
        else {
            return Err("non-tensor output".into());
        };
        let got = outputs[i].to_tensor_data();
        if got.dims != want.dims || got.elem != want.elem {
            return Err(format!(
                "output {i}: {:?} {:?} vs {:?} {:?}",
                got.elem, got.dims, want.elem, want.dims
            ));
        }
        match (got.to_f64s(), want.to_f64s()) {
            (Some(g), Some(w)) => {
                for (j, (a, b)) in g.iter().zip(&w).enumerate() {
                    let ok = a == b
                        || (a - b).abs() <= 1e-4 + 1e-3 * b.abs()
                        || (a.is_nan() && b.is_nan());
                    if !ok {
                        return Err(format!("output {i}[{j}]: {a} vs {b}"));
                    }
                }
            }
            _ => return Err("cannot compare".into()),
        }
    }
    Ok(())
}

#[test]
fn node_smoke() {
    let dir = backend();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let filter = std::env::var("NODE_FILTER").unwrap_or_default();
    let (mut pass, mut fail) = (0, 0);
    let mut failures = vec![];
    for n in names.iter().filter(|n| n.contains(&filter)) {
        let outcome = std::panic::catch_unwind(|| run_case(&dir.join(n))).unwrap_or_else(|p| {
            Err(format!(
                "PANIC {:?}",
                p.downcast_ref::<String>()
                    .map(String::as_str)
                    .or(p.downcast_ref::<&str>().copied())
            ))
        });
        match outcome {
            Ok(()) => {
                pass += 1;
                println!("PASS {n}");
            }
            Err(e) => {
                fail += 1;
                let line = format!("FAIL {n}: {}", e.lines().next().unwrap_or(""));
                println!("{line}");
                failures.push(line);
            }
        }
    }
    println!("{pass} passed, {fail} failed");
    let wrong: Vec<&String> = failures
        .iter()
        .filter(|f| !f.contains(": unsupported: "))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} cases fail other than as unsupported:\n{}",
        wrong.len(),
        wrong
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
