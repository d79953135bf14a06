//! Dynamic shapes: backend node cases compiled once with symbolic input
//! dims and run at two sizes.
//!
//! Each case's graph inputs get a `dim_param` per size (`s{n}` for every
//! dim `n != 1`, so dims of equal size share a symbol and 1s stay static,
//! which keeps the broadcasts decidable), and every other type is forgotten
//! so that inference derives it again from the symbols. The symbolic model
//! then runs
//! - at the case's own sizes, compared with the backend's expected outputs
//!   (onnx's reference data);
//! - at a second size (every symbol `s{n}` bound to `n + 3`), compared
//!   with the static model compiled at that size, whose lowering is the
//!   one the backend data checks.
//!
//! A case may also be refused as unsupported (an op family not lowered
//! with symbolic sizes yet), never give a wrong result; the core
//! elementwise and matrix-product cases must run.
//!
//! These compile with the size variants off (`general()`), so that the
//! symbolic kernels are what runs; the last tests check the variants.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use onnx_mlc::{AotModel, CompileOptions, CompiledModel, Engine, Tensor};
use onnx_mlc_dialect::ir::ValueDef;
use onnx_mlc_dialect::schema::Family;
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, TensorType, Type};
use onnx_mlc_import::{read_value, TestValue};

/// Options that keep a model with dynamic sizes on its general code, no
/// size variants: these tests check the symbolic kernels.
fn general() -> CompileOptions {
    CompileOptions {
        max_variants: 0,
        ..CompileOptions::default()
    }
}

fn backend() -> PathBuf {
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.cache/onnx-backend/node");
    if main.exists() {
        main
    } else {
        "/tmp/onnx-backend/node".into()
    }
}

/// The cases that must run with symbolic dims.
const MUST_PASS: &[&str] = &[
    "test_add",
    "test_add_bcast",
    "test_mul",
    "test_sub",
    "test_div",
    "test_relu",
    "test_sigmoid",
    "test_tanh",
    "test_matmul_2d",
    "test_matmul_3d",
    "test_matmul_4d",
    "test_gemm_default_no_bias",
    "test_gemm_default_single_elem_vector_bias",
    "test_gemm_alpha",
    "test_gemm_beta",
    "test_gemm_transposeA",
    "test_gemm_transposeB",
];

/// Further cases that must pass or be refused cleanly.
const MAY_PASS: &[&str] = &[
    "test_mul_bcast",
    "test_gemm_all_attributes",
    "test_gemm_default_matrix_bias",
    "test_gemm_default_vector_bias",
    "test_clip",
    "test_where_example",
    "test_matmul_1d_1d",
];

/// `model` with its graph inputs' dims rewritten by `dim` and every result
/// type's dims forgotten (element type and rank kept), for inference to
/// derive again.
/// `None` when an input is not a tensor of static shape.
fn reshaped(model: &Model, dim: impl Fn(i64) -> Dim) -> Option<Model> {
    let mut m = model.clone();
    let g = m.ir.region(m.graph).clone();
    let inputs: Vec<_> = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| a.value)
        .collect();
    for v in inputs {
        let t = m.ir.ty(v).as_tensor()?.clone();
        let dims = t.static_dims()?;
        m.ir.value_mut(v).ty = Type::Tensor(TensorType::with_dims(
            t.elem,
            dims.iter().map(|&n| dim(n)).collect(),
        ));
    }
    for i in 0..m.ir.num_values() {
        let v = onnx_mlc_dialect::Value::from_index(i);
        if matches!(m.ir.value(v).def, ValueDef::Result(..)) {
            if let Some(t) = m.ir.ty(v).as_tensor() {
                let shape = t.dims().map(|d| vec![Dim::Unknown; d.len()]);
                let elem = t.elem;
                m.ir.value_mut(v).ty = Type::Tensor(TensorType { elem, shape });
            }
        }
    }
    Some(m)
}

/// A size's symbol.
fn symbolic(n: i64) -> Dim {
    if n == 1 {
        Dim::Known(1)
    } else {
        Dim::param(&format!("s{n}"))
    }
}

/// The second size of a dim.
fn grown(n: i64) -> i64 {
    if n == 1 {
        1
    } else {
        n + 3
    }
}

/// Deterministic pseudo-random values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Whether `got` matches `want` within rtol 1e-3 / atol 1e-4, NaN equal
/// to NaN; bfloat16 (`bf16`) gets at least two of its ulps, as in the
/// conformance harness and the ONNX backend runner.
fn close(got: &[f64], want: &[f64], bf16: bool) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} elements vs {}", got.len(), want.len()));
    }
    let rtol = if bf16 { 2f64.powi(-6) } else { 1e-3 };
    for (j, (a, b)) in got.iter().zip(want).enumerate() {
        if !(a == b || (a - b).abs() <= 1e-4 + rtol * b.abs() || (a.is_nan() && b.is_nan())) {
            return Err(format!("[{j}]: {a} vs {b}"));
        }
    }
    Ok(())
}

fn compare(got: &[Tensor], want: &[Tensor]) -> Result<(), String> {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let (g, w) = (g.to_tensor_data(), w.to_tensor_data());
        if g.dims != w.dims || g.elem != w.elem {
            return Err(format!(
                "output {i}: {:?} {:?} vs {:?} {:?}",
                g.elem, g.dims, w.elem, w.dims
            ));
        }
        match (g.to_f64s(), w.to_f64s()) {
            (Some(gv), Some(wv)) => {
                close(&gv, &wv, w.elem == ElemType::BF16).map_err(|e| format!("output {i}{e}"))?
            }
            // float8, float4, sub-byte: the cast rules are exact, so the bits must be.
            _ if g.payload == w.payload => {}
            _ => return Err(format!("output {i}: {:?} differs", g.elem)),
        }
    }
    Ok(())
}

/// How a case went, short of a failure.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// Right at both sizes.
    Pass,
    /// Refused cleanly as unsupported, with the message.
    Unsupported(String),
    /// The harness cannot make it symbolic (inputs that are no static
    /// tensors, the dialect pipeline rejecting the rewritten model, no
    /// second-size inputs of its element types) or has no reference at the
    /// second size (the static model is unsupported there).
    Skip(String),
}

/// Runs one case; `Err` for a wrong result or an unexpected error.
fn run_case(name: &str) -> Result<Outcome, String> {
    let dir = backend().join(name);
    let model = match Engine::load(dir.join("model.onnx")) {
        Ok(m) => m,
        Err(e) => return Ok(Outcome::Skip(format!("load: {e}"))),
    };
    let options = general();
    let Some(symbolic_model) = reshaped(&model, symbolic) else {
        return Ok(Outcome::Skip("inputs that are no static tensors".into()));
    };
    let compiled = match Engine::compile(&symbolic_model, &options) {
        Ok(c) => c,
        Err(e) if e.is_unsupported() => return Ok(Outcome::Unsupported(e.to_string())),
        Err(e @ onnx_mlc::Error::Dialect(_)) => {
            return Ok(Outcome::Skip(format!(
                "the rewritten model is rejected: {e}"
            )))
        }
        Err(e) => return Err(format!("compile: {e}")),
    };
    let g = model.ir.region(model.graph);
    let dense = |v: onnx_mlc_dialect::Value| {
        model
            .ir
            .ty(v)
            .as_tensor()
            .is_some_and(|t| t.elem != ElemType::String)
    };
    let io_dense =
        g.args.iter().map(|a| a.value).all(dense) && g.outputs.iter().map(|o| o.value).all(dense);
    if compiled.signature().is_none() && !io_dense {
        // Strings or sequences, which this sweep's tensor runs cannot
        // feed: the conformance run's dynamic mode checks it.
        return Ok(Outcome::Skip(
            "a host program of other values than tensors".into(),
        ));
    }
    let data = dir.join("test_data_set_0");
    let tensor = |path: PathBuf, ty: &Type| -> Result<Tensor, String> {
        match read_value(&path, ty).map_err(|e| e.to_string())? {
            TestValue::Tensor(t) => Tensor::from_tensor_data(&t).map_err(|e| e.to_string()),
            _ => Err("non-tensor value".into()),
        }
    };
    let inputs = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .enumerate()
        .map(|(i, a)| tensor(data.join(format!("input_{i}.pb")), model.ir.ty(a.value)))
        .collect::<Result<Vec<_>, _>>()?;
    let expected = g
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| tensor(data.join(format!("output_{i}.pb")), model.ir.ty(o.value)))
        .collect::<Result<Vec<_>, _>>()?;
    let got = compiled.run(&inputs).map_err(|e| format!("run: {e}"))?;
    let expected = if draws_random(&model) {
        // The reference's generator is not ours: the static model's draws
        // (checked by range in the conformance run) are the reference.
        Engine::compile(&model, &options)
            .and_then(|m| m.run(&inputs))
            .map_err(|e| format!("static run: {e}"))?
    } else {
        expected
    };
    compare(&got, &expected).map_err(|e| format!("at the case's size: {e}"))?;

    // The second size: same symbolic code, against the static model there.
    let bigger = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let shape: Vec<i64> = t.shape().iter().map(|&n| grown(n)).collect();
            let n = shape.iter().product::<i64>() as usize;
            second_input(t.elem(), &shape, values(n, i as u64))
        })
        .collect::<Result<Vec<_>, _>>();
    let bigger = match bigger {
        Ok(b) => b,
        Err(e) if e.starts_with(NO_INPUTS) => return Ok(Outcome::Skip(e)),
        Err(e) => return Err(e),
    };
    let static_model = reshaped(&model, |n| Dim::Known(grown(n))).expect("rewritten once");
    let reference = match Engine::compile(&static_model, &options) {
        Ok(r) => r,
        Err(e) => {
            return Ok(Outcome::Skip(format!(
                "no static model at the second size: {e}"
            )))
        }
    };
    let want = match reference.run(&bigger) {
        Ok(want) => want,
        // Grown operands an op reads as values (a Pad's pads, a
        // CenterCropPad's shape, a reduction's axes, a DFT's axis) can be
        // invalid for the model; the run-time sizes step or the entry's
        // shape check says so.
        Err(e)
            if ["OMLC_ERR_INVALID_ARGUMENT", "OMLC_ERR_SHAPE"]
                .iter()
                .any(|code| e.to_string().contains(code)) =>
        {
            return Ok(Outcome::Skip(format!(
                "second-size inputs the model rejects: {e}"
            )))
        }
        Err(e) => return Err(format!("static run: {e}")),
    };
    let got = compiled
        .run(&bigger)
        .map_err(|e| format!("run at the second size: {e}"))?;
    compare(&got, &want).map_err(|e| format!("at the second size: {e}"))?;
    Ok(Outcome::Pass)
}

/// Whether the model draws random numbers (the random family, Dropout),
/// whose values depend on the generator.
fn draws_random(model: &Model) -> bool {
    model.ir.region(model.graph).ops.iter().any(|&o| {
        let kind = model.ir.op(o).kind;
        kind.family() == Family::Random || kind == OpKind::Dropout
    })
}

/// An input of `shape` at the second size made from `xs` (in [-1, 1)):
/// floats as they are, integers small and positive (1 to 4: no division by
/// zero, in range for every integer type), booleans by sign.
fn second_input(elem: ElemType, shape: &[i64], xs: Vec<f32>) -> Result<Tensor, String> {
    let ints = || xs.iter().map(|&x| 1 + ((x + 1.0) * 2.0) as u64);
    let bytes: Vec<u8> = match elem {
        ElemType::F32 => xs.iter().flat_map(|x| x.to_le_bytes()).collect(),
        ElemType::F64 => xs.iter().flat_map(|&x| (x as f64).to_le_bytes()).collect(),
        ElemType::BF16 => xs
            .iter()
            .flat_map(|x| x.to_bits().to_le_bytes()[2..].to_vec())
            .collect(),
        ElemType::Bool => xs.iter().map(|&x| (x > 0.0) as u8).collect(),
        ElemType::I8 | ElemType::U8 => ints().map(|x| x as u8).collect(),
        ElemType::I16 | ElemType::U16 => ints().flat_map(|x| (x as u16).to_le_bytes()).collect(),
        ElemType::I32 | ElemType::U32 => ints().flat_map(|x| (x as u32).to_le_bytes()).collect(),
        ElemType::I64 | ElemType::U64 => ints().flat_map(|x| x.to_le_bytes()).collect(),
        other => return Err(format!("{NO_INPUTS} {other}")),
    };
    Tensor::from_bytes(elem, shape, &bytes).map_err(|e| e.to_string())
}

/// The start of the message for inputs the harness cannot generate.
const NO_INPUTS: &str = "no second-size inputs of type";

/// A compiled model's run (JIT or AOT), errors as text.
type Run<'a> = dyn Fn(&[Tensor]) -> Result<Vec<Tensor>, String> + 'a;

#[test]
fn node_cases_run_with_symbolic_dims_at_two_sizes() {
    if !backend().exists() {
        eprintln!("no backend data; skipped");
        return;
    }
    let mut failures = vec![];
    for &name in MUST_PASS.iter().chain(MAY_PASS) {
        match run_case(name) {
            Ok(Outcome::Pass) => eprintln!("PASS {name}"),
            Ok(Outcome::Unsupported(_)) if MAY_PASS.contains(&name) => {
                eprintln!("UNSUPPORTED {name}")
            }
            Ok(other) => failures.push(format!("{name}: {other:?}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A model of several kernels with symbolic batch and sequence sizes:
/// `y = relu(x · w1) · w2`, whose intermediate (`B×S×16`) lives in a buffer
/// of symbolic size, allocated through the runtime for its lifetime.
const MLP: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "mlp"(%x: tensor<"B"x"S"x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x4xf32>) -> ("y": tensor<"B"x"S"x4xf32>) {
  %h = "onnx.MatMul"(%x, %w1) : (tensor<"B"x"S"x8xf32>, tensor<8x16xf32>) -> tensor<"B"x"S"x16xf32>
  %r = "onnx.Relu"(%h) : (tensor<"B"x"S"x16xf32>) -> tensor<"B"x"S"x16xf32>
  %y = "onnx.MatMul"(%r, %w2) : (tensor<"B"x"S"x16xf32>, tensor<16x4xf32>) -> tensor<"B"x"S"x4xf32>
  onnx.return %y
}
"#;

/// `a (rows×k) · b (k×n)`, row-major.
fn matmul(a: &[f32], b: &[f32], k: usize, n: usize) -> Vec<f32> {
    a.chunks(k)
        .flat_map(|row| (0..n).map(move |j| (0..k).map(|l| row[l] * b[l * n + j]).sum::<f32>()))
        .collect()
}

/// Runs the MLP at several sizes through `run` (the JIT's or an AOT
/// library's) and checks it against a plain Rust reference.
fn check_mlp(run: impl Fn(&[Tensor]) -> Vec<Tensor>) {
    let w1 = values(8 * 16, 100);
    let w2 = values(16 * 4, 101);
    for (b, s) in [(1, 1), (2, 3), (5, 17), (0, 4)] {
        let x = values(b * s * 8, (b * 31 + s) as u64);
        let inputs = [
            Tensor::from_vec(vec![b as i64, s as i64, 8], x.clone()).unwrap(),
            Tensor::from_vec(vec![8, 16], w1.clone()).unwrap(),
            Tensor::from_vec(vec![16, 4], w2.clone()).unwrap(),
        ];
        let out = run(&inputs);
        assert_eq!(out[0].shape(), [b as i64, s as i64, 4]);
        let h: Vec<f32> = matmul(&x, &w1, 8, 16).iter().map(|v| v.max(0.0)).collect();
        let want: Vec<f64> = matmul(&h, &w2, 16, 4).iter().map(|&v| v as f64).collect();
        let got: Vec<f64> = out[0]
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|&v| v as f64)
            .collect();
        close(&got, &want, false).unwrap_or_else(|e| panic!("B={b} S={s}: {e}"));
    }
}

#[test]
fn a_model_with_symbolic_intermediates_runs_at_several_sizes() {
    let model = onnx_mlc_dialect::parse_model(MLP).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    check_mlp(|inputs| compiled.run(inputs).unwrap());
}

/// The MLP as exporters often write it: the input's batch and sequence
/// dims unnamed (`?`, neither `dim_value` nor `dim_param`), the output's
/// named by formulas no input defines. The unnamed dims become symbols
/// bound from the actual input; the output's names are forgotten and
/// inferred.
const MLP_UNNAMED: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "mlp"(%x: tensor<?x?x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x4xf32>) -> ("y": tensor<"4*batch"x"y_dim_1"x4xf32>) {
  %h = "onnx.MatMul"(%x, %w1) : (tensor<?x?x8xf32>, tensor<8x16xf32>) -> !onnx.unknown
  %r = "onnx.Relu"(%h) : (!onnx.unknown) -> tensor<"s0 + 1"x?x16xf32>
  %y = "onnx.MatMul"(%r, %w2) : (tensor<"s0 + 1"x?x16xf32>, tensor<16x4xf32>) -> tensor<"4*batch"x"y_dim_1"x4xf32>
  onnx.return %y
}
"#;

#[test]
fn unnamed_input_dims_and_free_output_names_run_at_several_sizes() {
    let model = onnx_mlc_dialect::parse_model(MLP_UNNAMED).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    check_mlp(|inputs| compiled.run(inputs).unwrap());
    let (library, _) = AotModel::compile(&model, &general()).unwrap();
    check_mlp(|inputs| library.run(inputs).unwrap());
}

#[test]
fn an_aot_library_with_symbolic_dims_runs_at_several_sizes() {
    let model = onnx_mlc_dialect::parse_model(MLP).unwrap();
    let (library, _) = AotModel::compile(
        &model,
        &CompileOptions {
            threads: 2,
            ..Default::default()
        },
    )
    .unwrap();
    check_mlp(|inputs| library.run(inputs).unwrap());
}

/// Every backend node case (or those whose name contains `NODE_FILTER`)
/// made symbolic: prints PASS / UNSUPPORTED / SKIP per case and the
/// counts; fails on any wrong result or error other than a clean refusal.
/// A case is skipped when the harness cannot make it symbolic or has no
/// reference at the second size ([`Outcome::Skip`]).
#[test]
fn node_cases_sweep_with_symbolic_dims() {
    let dir = backend();
    if !dir.exists() {
        return;
    }
    let filter = std::env::var("NODE_FILTER").unwrap_or_default();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(&filter))
        .collect();
    names.sort();
    let (mut pass, mut unsupported, mut skipped) = (0, 0, 0);
    let mut wrong = vec![];
    for n in &names {
        let outcome =
            std::panic::catch_unwind(|| run_case(n)).unwrap_or_else(|_| Err("PANIC".to_string()));
        match outcome {
            Ok(Outcome::Pass) => {
                pass += 1;
                println!("PASS {n}");
            }
            Ok(Outcome::Unsupported(why)) => {
                unsupported += 1;
                println!("UNSUPPORTED {n}: {why}");
            }
            Ok(Outcome::Skip(why)) => {
                skipped += 1;
                println!("SKIP {n}: {why}");
            }
            Err(e) => {
                println!("FAIL {n}: {e}");
                wrong.push(format!("{n}: {e}"));
            }
        }
    }
    println!(
        "{pass} passed, {unsupported} unsupported, {skipped} skipped, {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `y = b + a` with `a` of `K` and `b` of `M×N`: which of `K` and `N` is 1
/// (broadcast) is known only at run time, so the result's last dim is the
/// broadcast atom `bcast(K,N)` and the model allocates the output.
const RUN_TIME_BROADCAST: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<"K"xf32>, %b: tensor<"M"x"N"xf32>) -> ("y": tensor<"M"x?xf32>) {
  %y = "onnx.Add"(%b, %a) : (tensor<"M"x"N"xf32>, tensor<"K"xf32>) -> tensor<"M"x?xf32>
  onnx.return %y
}
"#;

fn check_run_time_broadcast(run: impl Fn(&[Tensor]) -> Result<Vec<Tensor>, String>) {
    let m = 2usize;
    for (k, n) in [(3usize, 3usize), (1, 4), (5, 1), (1, 1), (0, 0), (0, 1)] {
        let a = values(k, k as u64);
        let b = values(m * n, 7 + n as u64);
        let out = run(&[
            Tensor::from_vec(vec![k as i64], a.clone()).unwrap(),
            Tensor::from_vec(vec![m as i64, n as i64], b.clone()).unwrap(),
        ])
        .unwrap_or_else(|e| panic!("K={k} N={n}: {e}"));
        let w = if k == 1 { n } else { k };
        let want: Vec<f32> = (0..m * w)
            .map(|i| {
                let (r, c) = (i / w, i % w);
                b[r * n + if n == 1 { 0 } else { c }] + a[if k == 1 { 0 } else { c }]
            })
            .collect();
        assert_eq!(out[0].shape(), [m as i64, w as i64], "K={k} N={n}");
        assert_eq!(out[0].to_vec::<f32>().unwrap(), want, "K={k} N={n}");
    }
    // Sizes that do not broadcast: a clean shape error, never a read out
    // of bounds.
    let e = run(&[
        Tensor::from_vec(vec![2], values(2, 1)).unwrap(),
        Tensor::from_vec(vec![2, 3], values(6, 2)).unwrap(),
    ])
    .expect_err("K=2 against N=3 fails");
    assert!(e.contains("shape"), "{e}");
}

#[test]
fn broadcasts_between_symbols_are_decided_at_run_time() {
    let model = onnx_mlc_dialect::parse_model(RUN_TIME_BROADCAST).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    check_run_time_broadcast(|inputs| compiled.run(inputs).map_err(|e| e.to_string()));
    let (library, _) = AotModel::compile(&model, &general()).unwrap();
    check_run_time_broadcast(|inputs| library.run(inputs).map_err(|e| e.to_string()));
}

/// An output of size `2*N` (neither static nor an input's `dim_param`):
/// the model allocates it through the runtime and reports its shape.
const FLATTEN: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<"N"x2xf32>) -> ("y": tensor<1x(2*"N")xf32>, "r": tensor<"N"x2xf32>) {
  %r = "onnx.Relu"(%a) : (tensor<"N"x2xf32>) -> tensor<"N"x2xf32>
  %y = "onnx.Flatten"(%r) {axis = 0} : (tensor<"N"x2xf32>) -> tensor<1x(2*"N")xf32>
  onnx.return %y, %r
}
"#;

fn check_flatten(run: impl Fn(&[Tensor]) -> Vec<Tensor>) {
    for n in [3usize, 1, 0, 6] {
        let a = values(2 * n, n as u64);
        let out = run(&[Tensor::from_vec(vec![n as i64, 2], a.clone()).unwrap()]);
        let want: Vec<f32> = a.iter().map(|v| v.max(0.0)).collect();
        assert_eq!(out[0].shape(), [1, 2 * n as i64]);
        assert_eq!(out[0].to_vec::<f32>().unwrap(), want);
        assert_eq!(out[1].shape(), [n as i64, 2]);
        assert_eq!(out[1].to_vec::<f32>().unwrap(), want);
    }
}

#[test]
fn outputs_of_computed_sizes_are_allocated_by_the_model() {
    let model = onnx_mlc_dialect::parse_model(FLATTEN).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    check_flatten(|inputs| compiled.run(inputs).unwrap());
    let (library, _) = AotModel::compile(&model, &general()).unwrap();
    check_flatten(|inputs| library.run(inputs).unwrap());
}

/// An intermediate of a static 0 dim among symbolic ones: its workspace
/// slot holds no bytes whatever the symbols are, and its view still takes
/// their sizes (the expansion of CausalConvWithState with kernel size 1).
const EMPTY_AMONG_SYMBOLS: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"N"x"C"x"T"xf32>) -> ("y": tensor<"N"x"C"x"T"xf32>) {
  %zero = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Slice"(%x, %zero, %zero, %two) : (tensor<"N"x"C"x"T"xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<"N"x"C"x0xf32>
  %n = "onnx.Neg"(%e) : (tensor<"N"x"C"x0xf32>) -> tensor<"N"x"C"x0xf32>
  %c = "onnx.Concat"(%n, %x) {axis = 2} : (tensor<"N"x"C"x0xf32>, tensor<"N"x"C"x"T"xf32>) -> tensor<"N"x"C"x"T"xf32>
  %y = "onnx.Relu"(%c) : (tensor<"N"x"C"x"T"xf32>) -> tensor<"N"x"C"x"T"xf32>
  onnx.return %y
}
"#;

#[test]
fn empty_intermediates_of_symbolic_dims_take_their_sizes() {
    let model = onnx_mlc_dialect::parse_model(EMPTY_AMONG_SYMBOLS).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    for (n, c, t) in [(2usize, 4usize, 8usize), (1, 3, 5), (3, 1, 0)] {
        let x = values(n * c * t, t as u64);
        let shape = vec![n as i64, c as i64, t as i64];
        let out = compiled
            .run(&[Tensor::from_vec(shape.clone(), x.clone()).unwrap()])
            .unwrap_or_else(|e| panic!("{n}x{c}x{t}: {e}"));
        assert_eq!(out[0].shape(), shape);
        let want: Vec<f32> = x.iter().map(|v| v.max(0.0)).collect();
        assert_eq!(out[0].to_vec::<f32>().unwrap(), want);
    }
}

/// A reduction whose axes are a graph input, without kept dims: which
/// dims remain depends on the axes' values, which the model's entry
/// checks against the shapes (`omlc_check`).
const RUN_TIME_AXES: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<"N"x2x3xf32>, %axes: tensor<1xi64>) -> ("y": tensor<"N"x3xf32>) {
  %y = "onnx.ReduceSum"(%x, %axes) {keepdims = 0} : (tensor<"N"x2x3xf32>, tensor<1xi64>) -> tensor<"N"x3xf32>
  onnx.return %y
}
"#;

/// A window whose size is a graph input, and a Compress whose condition
/// is one: their values must match the output lengths.
const RUN_TIME_LENGTHS: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%s: tensor<i64>, %x: tensor<3x2xf32>, %c: tensor<3xi1>) -> ("w": tensor<4xf32>, "z": tensor<2x2xf32>) {
  %w = "onnx.HannWindow"(%s) : (tensor<i64>) -> tensor<4xf32>
  %z = "onnx.Compress"(%x, %c) {axis = 0} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<2x2xf32>
  onnx.return %w, %z
}
"#;

fn check_run_time_axes(run: &Run<'_>) {
    for n in [4usize, 1, 0] {
        let x = values(n * 6, n as u64);
        let axes = |a: i64| Tensor::from_vec(vec![1], vec![a]).unwrap();
        let input = Tensor::from_vec(vec![n as i64, 2, 3], x.clone()).unwrap();
        for a in [1, -2] {
            let out = run(&[input.clone(), axes(a)]).unwrap_or_else(|e| panic!("N={n}: {e}"));
            let want: Vec<f32> = (0..n * 3)
                .map(|i| x[(i / 3) * 6 + i % 3] + x[(i / 3) * 6 + 3 + i % 3])
                .collect();
            assert_eq!(out[0].shape(), [n as i64, 3], "N={n} axes={a}");
            assert_eq!(out[0].to_vec::<f32>().unwrap(), want, "N={n} axes={a}");
        }
        // Axes out of range, or giving another shape: a clean shape error.
        for a in [0, 2, 3, -4] {
            let e = run(&[input.clone(), axes(a)]).err();
            let e = e.unwrap_or_else(|| panic!("N={n}: axes {a} must fail"));
            assert!(e.contains("shape"), "{e}");
        }
    }
}

fn check_run_time_lengths(run: &Run<'_>) {
    let x = Tensor::from_vec(vec![3, 2], values(6, 3)).unwrap();
    let inputs = |s: i64, c: [bool; 3]| {
        vec![
            Tensor::from_vec(vec![], vec![s]).unwrap(),
            x.clone(),
            Tensor::from_bytes(ElemType::Bool, &[3], &c.map(u8::from)).unwrap(),
        ]
    };
    let out = run(&inputs(4, [true, false, true])).unwrap();
    let hann: Vec<f32> = (0..4)
        .map(|n| (0.5 - 0.5 * (2.0 * std::f64::consts::PI * n as f64 / 4.0).cos()) as f32)
        .collect();
    for (got, want) in out[0].to_vec::<f32>().unwrap().iter().zip(&hann) {
        assert!((got - want).abs() < 1e-6, "{got} against {want}");
    }
    let xs = x.to_vec::<f32>().unwrap();
    assert_eq!(
        out[1].to_vec::<f32>().unwrap(),
        [xs[0], xs[1], xs[4], xs[5]]
    );
    for (s, c) in [
        (5, [true, false, true]),
        (4, [true, true, true]),
        (4, [false; 3]),
    ] {
        let e = run(&inputs(s, c)).expect_err("a length that does not match fails");
        assert!(e.contains("shape"), "{e}");
    }
}

#[test]
fn sizes_set_by_input_values_are_checked_at_run_time() {
    for (text, check) in [
        (RUN_TIME_AXES, check_run_time_axes as fn(&Run<'_>)),
        (RUN_TIME_LENGTHS, check_run_time_lengths),
    ] {
        let model = onnx_mlc_dialect::parse_model(text).unwrap();
        let compiled = Engine::compile(&model, &general()).unwrap();
        check(&|inputs| compiled.run(inputs).map_err(|e| e.to_string()));
        let (library, _) = AotModel::compile(&model, &general()).unwrap();
        check(&|inputs| library.run(inputs).map_err(|e| e.to_string()));
    }
}

/// Compiles `template` (a model whose dims are the quoted `symbols`)
/// once, in the JIT and as an AOT library, and checks it against its
/// static instances: for each size list of `good` (the symbols' values,
/// then any values only `inputs` reads), the symbolic model's outputs on
/// `inputs(sizes)` are those of the model with the symbols replaced by
/// the sizes, compiled on its own; for each of `bad`, both refuse the
/// inputs with a shape error.
fn matches_static_instances(
    template: &str,
    symbols: &[&str],
    good: &[&[i64]],
    bad: &[&[i64]],
    inputs: &dyn Fn(&[i64]) -> Vec<Tensor>,
) {
    let model = onnx_mlc_dialect::parse_model(template).unwrap();
    let options = general();
    let compiled = Engine::compile(&model, &options).unwrap();
    let (library, _) = AotModel::compile(&model, &options).unwrap();
    for &sizes in good {
        let mut text = template.to_string();
        for (name, n) in symbols.iter().zip(sizes) {
            text = text.replace(&format!("\"{name}\""), &n.to_string());
        }
        let fixed = onnx_mlc_dialect::parse_model(&text).unwrap();
        let want = Engine::compile(&fixed, &options)
            .unwrap()
            .run(&inputs(sizes))
            .unwrap_or_else(|e| panic!("{sizes:?} (static): {e}"));
        let got = compiled.run(&inputs(sizes)).unwrap();
        compare(&got, &want).unwrap_or_else(|e| panic!("{sizes:?} (JIT): {e}"));
        let got = library.run(&inputs(sizes)).unwrap();
        compare(&got, &want).unwrap_or_else(|e| panic!("{sizes:?} (AOT): {e}"));
    }
    for &sizes in bad {
        for e in [
            compiled.run(&inputs(sizes)).err().map(|e| e.to_string()),
            library.run(&inputs(sizes)).err().map(|e| e.to_string()),
        ] {
            let e = e.unwrap_or_else(|| panic!("{sizes:?} must fail"));
            assert!(e.contains("shape"), "{sizes:?}: {e}");
        }
    }
}

/// A float tensor of `shape` with values from [`values`].
fn floats(shape: &[i64], seed: u64) -> Tensor {
    let n = shape.iter().product::<i64>() as usize;
    Tensor::from_vec(shape.to_vec(), values(n, seed)).unwrap()
}

/// A float tensor of `shape` holding `data`.
fn given(shape: &[i64], data: Vec<f32>) -> Tensor {
    Tensor::from_vec(shape.to_vec(), data).unwrap()
}

/// An int64 tensor of `shape` holding `data`.
fn ints(shape: &[i64], data: Vec<i64>) -> Tensor {
    Tensor::from_vec(shape.to_vec(), data).unwrap()
}

/// Attention-23 with symbolic sizes: grouped-query heads (the repeat
/// count `Hq/Hkv` a quotient atom), a past (the keys `P+S` long), the
/// causal band at the past's run-time length, the default scale from a
/// symbolic head size, and a mask `M` long, padded with -inf to the keys.
const ATTENTION: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 23}}
onnx.graph "g"(%q: tensor<"B"x"Hq"x"S"x"D"xf32>, %k: tensor<"B"x"Hkv"x"S"x"D"xf32>, %v: tensor<"B"x"Hkv"x"S"x"E"xf32>, %m: tensor<"S"x"M"xf32>, %pk: tensor<"B"x"Hkv"x"P"x"D"xf32>, %pv: tensor<"B"x"Hkv"x"P"x"E"xf32>) -> ("y": tensor<?x?x?x?xf32>, "present_key": tensor<?x?x?x?xf32>, "present_value": tensor<?x?x?x?xf32>) {
  %y, %present_key, %present_value = "onnx.Attention"(%q, %k, %v, %m, %pk, %pv) {is_causal = 1} : (tensor<"B"x"Hq"x"S"x"D"xf32>, tensor<"B"x"Hkv"x"S"x"D"xf32>, tensor<"B"x"Hkv"x"S"x"E"xf32>, tensor<"S"x"M"xf32>, tensor<"B"x"Hkv"x"P"x"D"xf32>, tensor<"B"x"Hkv"x"P"x"E"xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
  onnx.return %y, %present_key, %present_value
}
"#;

/// The symbols of [`ATTENTION`], in the order [`attention_inputs`] takes
/// their values.
const ATTENTION_SYMBOLS: [&str; 8] = ["B", "Hq", "Hkv", "S", "D", "E", "M", "P"];

/// Inputs of [`ATTENTION`] at sizes `[B, Hq, Hkv, S, D, E, M, P]`.
fn attention_inputs(sizes: [i64; 8]) -> Vec<Tensor> {
    let [b, hq, hkv, s, d, e, m, p] = sizes;
    [
        vec![b, hq, s, d],
        vec![b, hkv, s, d],
        vec![b, hkv, s, e],
        vec![s, m],
        vec![b, hkv, p, d],
        vec![b, hkv, p, e],
    ]
    .into_iter()
    .enumerate()
    .map(|(i, shape)| {
        let n = shape.iter().product::<i64>() as usize;
        Tensor::from_vec(shape, values(n, 11 + i as u64)).unwrap()
    })
    .collect()
}

#[test]
fn attention_with_symbolic_sizes_matches_the_static_model() {
    matches_static_instances(
        ATTENTION,
        &ATTENTION_SYMBOLS,
        // A mask one shorter than the keys, one as long; one head per KV head.
        &[
            &[1, 4, 2, 3, 8, 4, 4, 2],
            &[2, 6, 3, 2, 4, 4, 5, 3],
            &[2, 3, 3, 4, 2, 5, 5, 1],
        ],
        // Query heads that the KV heads do not divide, and a mask longer
        // than the keys: clean shape errors.
        &[&[1, 3, 2, 3, 8, 4, 5, 2], &[1, 4, 2, 3, 8, 4, 6, 2]],
        &|s| attention_inputs(s.try_into().expect("eight sizes")),
    );
}

/// A batched MatMul whose batch dims `P` and `Q` broadcast only at run
/// time (which one is 1 is known only then): the operand of size 1 is
/// copied out at the result's batch size before the contraction.
const RUN_TIME_BATCH: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%a: tensor<"P"x2x3xf32>, %b: tensor<"Q"x3x2xf32>) -> ("y": tensor<?x2x2xf32>) {
  %y = "onnx.MatMul"(%a, %b) : (tensor<"P"x2x3xf32>, tensor<"Q"x3x2xf32>) -> tensor<?x2x2xf32>
  onnx.return %y
}
"#;

fn check_run_time_batch(run: &Run<'_>) {
    for (p, q) in [(1usize, 3usize), (3, 1), (2, 2), (1, 1)] {
        let (a, b) = (values(p * 6, p as u64), values(q * 6, 5 + q as u64));
        let out = run(&[
            Tensor::from_vec(vec![p as i64, 2, 3], a.clone()).unwrap(),
            Tensor::from_vec(vec![q as i64, 3, 2], b.clone()).unwrap(),
        ])
        .unwrap_or_else(|e| panic!("P={p} Q={q}: {e}"));
        let n = p.max(q);
        let want: Vec<f32> = (0..n)
            .flat_map(|i| {
                let (ai, bi) = (if p == 1 { 0 } else { i }, if q == 1 { 0 } else { i });
                matmul(&a[ai * 6..ai * 6 + 6], &b[bi * 6..bi * 6 + 6], 3, 2)
            })
            .collect();
        assert_eq!(out[0].shape(), [n as i64, 2, 2], "P={p} Q={q}");
        let got = out[0].to_vec::<f32>().unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g - w).abs() < 1e-5,
                "P={p} Q={q}: {got:?} against {want:?}"
            );
        }
    }
    let e = run(&[
        Tensor::from_vec(vec![2, 2, 3], values(12, 1)).unwrap(),
        Tensor::from_vec(vec![3, 3, 2], values(18, 2)).unwrap(),
    ])
    .expect_err("P=2 against Q=3 fails");
    assert!(e.contains("shape"), "{e}");
}

#[test]
fn matmul_batch_dims_broadcast_at_run_time() {
    let model = onnx_mlc_dialect::parse_model(RUN_TIME_BATCH).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    check_run_time_batch(&|inputs| compiled.run(inputs).map_err(|e| e.to_string()));
    let (library, _) = AotModel::compile(&model, &general()).unwrap();
    check_run_time_batch(&|inputs| library.run(inputs).map_err(|e| e.to_string()));
}

/// A Scan-9+ of symbolic length `T` (a reversed scan input, a second one
/// of length `U` that must agree, a reversed scan output on axis 1): a
/// Loop the host program runs.
const SYMBOLIC_SCAN: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%init: tensor<"N"xf32>, %xs: tensor<"T"x"N"xf32>, %zs: tensor<"N"x"U"xf32>) -> ("final": tensor<"N"xf32>, "stacked": tensor<"N"x?xf32>) {
  %final, %stacked = "onnx.Scan"(%init, %xs, %zs) {body = onnx.graph "step"(%s: tensor<"N"xf32>, %x: tensor<"N"xf32>, %z: tensor<"N"xf32>) -> ("s_out": tensor<"N"xf32>, "y": tensor<"N"xf32>) {
    %t = "onnx.Add"(%s, %x) : (tensor<"N"xf32>, tensor<"N"xf32>) -> tensor<"N"xf32>
    %s_out = "onnx.Mul"(%t, %z) : (tensor<"N"xf32>, tensor<"N"xf32>) -> tensor<"N"xf32>
    %y = "onnx.Neg"(%s_out) : (tensor<"N"xf32>) -> tensor<"N"xf32>
    onnx.return %s_out, %y
  }, num_scan_inputs = 2, scan_input_axes = [0, 1], scan_input_directions = [0, 1], scan_output_axes = [1], scan_output_directions = [1]} : (tensor<"N"xf32>, tensor<"T"x"N"xf32>, tensor<"N"x"U"xf32>) -> (tensor<"N"xf32>, tensor<"N"x?xf32>)
  onnx.return %final, %stacked
}
"#;

/// LinearAttention (gated delta rule, two query heads per KV head, a past
/// state) over a symbolic batch `B` and sequence `T`: a Loop over the
/// steps the host program runs.
const SYMBOLIC_LINEAR_ATTENTION: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 27}}
onnx.graph "g"(%q: tensor<"B"x"T"x8xf32>, %k: tensor<"B"x"T"x4xf32>, %v: tensor<"B"x"T"x6xf32>, %past: tensor<"B"x2x2x3xf32>, %decay: tensor<"B"x"T"x2xf32>, %beta: tensor<"B"x"T"x2xf32>) -> ("y": tensor<"B"x"T"x12xf32>, "state": tensor<"B"x2x2x3xf32>) {
  %y, %state = "onnx.LinearAttention"(%q, %k, %v, %past, %decay, %beta) {kv_num_heads = 2, q_num_heads = 4, update_rule = "gated_delta"} : (tensor<"B"x"T"x8xf32>, tensor<"B"x"T"x4xf32>, tensor<"B"x"T"x6xf32>, tensor<"B"x2x2x3xf32>, tensor<"B"x"T"x2xf32>, tensor<"B"x"T"x2xf32>) -> (tensor<"B"x"T"x12xf32>, tensor<"B"x2x2x3xf32>)
  onnx.return %y, %state
}
"#;

/// An LSTM run both ways (peepholes, biases, initial states and
/// `sequence_lens` of run-time values) over a symbolic batch `B` and
/// sequence `S`: a Loop per direction the host program runs.
const SYMBOLIC_LSTM: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"S"x"B"x3xf32>, %w: tensor<2x8x3xf32>, %r: tensor<2x8x2xf32>, %b: tensor<2x16xf32>, %lens: tensor<"B"xi32>, %h0: tensor<2x"B"x2xf32>, %c0: tensor<2x"B"x2xf32>, %p: tensor<2x6xf32>) -> ("y": tensor<"S"x2x"B"x2xf32>, "y_h": tensor<2x"B"x2xf32>, "y_c": tensor<2x"B"x2xf32>) {
  %y, %y_h, %y_c = "onnx.LSTM"(%x, %w, %r, %b, %lens, %h0, %c0, %p) {direction = "bidirectional", hidden_size = 2} : (tensor<"S"x"B"x3xf32>, tensor<2x8x3xf32>, tensor<2x8x2xf32>, tensor<2x16xf32>, tensor<"B"xi32>, tensor<2x"B"x2xf32>, tensor<2x"B"x2xf32>, tensor<2x6xf32>) -> (tensor<"S"x2x"B"x2xf32>, tensor<2x"B"x2xf32>, tensor<2x"B"x2xf32>)
  onnx.return %y, %y_h, %y_c
}
"#;

/// Float inputs of `shapes` (seeded values).
fn float_inputs(shapes: Vec<Vec<i64>>) -> Vec<Tensor> {
    shapes
        .into_iter()
        .enumerate()
        .map(|(i, shape)| {
            let n = shape.iter().product::<i64>() as usize;
            Tensor::from_vec(shape, values(n, 3 + i as u64)).unwrap()
        })
        .collect()
}

#[test]
fn recurrences_of_symbolic_length_run_as_loops() {
    for text in [SYMBOLIC_SCAN, SYMBOLIC_LINEAR_ATTENTION, SYMBOLIC_LSTM] {
        let model = onnx_mlc_dialect::parse_model(text).unwrap();
        let compiled = Engine::compile(&model, &general()).unwrap();
        assert!(compiled.program().is_some(), "a host program");
    }
    matches_static_instances(
        SYMBOLIC_SCAN,
        &["N", "T", "U"],
        &[&[3, 1, 1], &[2, 4, 4], &[5, 7, 7]],
        &[],
        &|s| float_inputs(vec![vec![s[0]], vec![s[1], s[0]], vec![s[0], s[2]]]),
    );
    matches_static_instances(
        SYMBOLIC_LINEAR_ATTENTION,
        &["B", "T"],
        &[&[1, 1], &[2, 3], &[3, 9]],
        &[],
        &|s| {
            let (b, t) = (s[0], s[1]);
            float_inputs(vec![
                vec![b, t, 8],
                vec![b, t, 4],
                vec![b, t, 6],
                vec![b, 2, 2, 3],
                vec![b, t, 2],
                vec![b, t, 2],
            ])
        },
    );
    matches_static_instances(
        SYMBOLIC_LSTM,
        &["S", "B"],
        &[&[1, 1], &[3, 2], &[6, 3]],
        &[],
        &|s| {
            let (steps, b) = (s[0], s[1]);
            let mut inputs = float_inputs(vec![
                vec![steps, b, 3],
                vec![2, 8, 3],
                vec![2, 8, 2],
                vec![2, 16],
            ]);
            // Lengths from the full sequence down to 1.
            let lens: Vec<i32> = (0..b).map(|i| (steps - i).max(1) as i32).collect();
            inputs.push(Tensor::from_vec(vec![b], lens).unwrap());
            inputs.extend(float_inputs(vec![vec![2, b, 2], vec![2, b, 2], vec![2, 6]]));
            inputs
        },
    );
    // Scan inputs of different lengths: a clean shape error.
    let model = onnx_mlc_dialect::parse_model(SYMBOLIC_SCAN).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    let e = compiled
        .run(&[
            Tensor::from_vec(vec![2], values(2, 1)).unwrap(),
            Tensor::from_vec(vec![3, 2], values(6, 2)).unwrap(),
            Tensor::from_vec(vec![2, 4], values(8, 3)).unwrap(),
        ])
        .expect_err("lengths 3 and 4 fail")
        .to_string();
    assert!(e.contains("shape"), "{e}");
}

/// Resize with run-time scales into a declared 6×8 image, cubic with
/// aligned corners: the coordinates follow the input's run-time sizes; a
/// scale whose `floor(in · scale)` is not the output's size is refused.
const RESIZE_SCALES: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 19}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>, %scales: tensor<4xf32>) -> ("y": tensor<"N"x"C"x6x8xf32>) {
  %y = "onnx.Resize"(%x, none, %scales) {mode = "cubic", coordinate_transformation_mode = "align_corners"} : (tensor<"N"x"C"x"H"x"W"xf32>, none, tensor<4xf32>) -> tensor<"N"x"C"x6x8xf32>
  onnx.return %y
}
"#;

/// Resize to run-time sizes under `keep_aspect_ratio_policy`
/// not_larger, nearest, over axes 2 and 3 of symbolic sizes.
const RESIZE_POLICY: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 19}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>, %sizes: tensor<2xi64>) -> ("y": tensor<"N"x"C"x4x6xf32>) {
  %y = "onnx.Resize"(%x, none, none, %sizes) {mode = "nearest", axes = [2, 3], keep_aspect_ratio_policy = "not_larger"} : (tensor<"N"x"C"x"H"x"W"xf32>, none, none, tensor<2xi64>) -> tensor<"N"x"C"x4x6xf32>
  onnx.return %y
}
"#;

#[test]
fn resize_over_symbolic_sizes_matches_the_static_model() {
    // [N, C, H, W, extra]: the extra value spoils the scale of H.
    let scales = |s: &[i64]| {
        let (h, w) = (s[2] as f32, s[3] as f32);
        vec![
            floats(&s[..4], 1),
            given(&[4], vec![1.0, 1.0, (6 + s[4]) as f32 / h, 8.0 / w]),
        ]
    };
    matches_static_instances(
        RESIZE_SCALES,
        &["N", "C", "H", "W"],
        &[
            &[1, 2, 3, 4, 0],
            &[2, 1, 4, 2, 0],
            &[1, 1, 1, 1, 0],
            &[1, 1, 6, 5, 0],
        ],
        // floor(3 · 8/3) = 8 (7/3 would round down to 6 in f32).
        &[&[1, 2, 3, 4, 2]],
        &scales,
    );
    // [N, C, H, W, size H, size W].
    let sizes = |s: &[i64]| vec![floats(&s[..4], 2), ints(&[2], vec![s[4], s[5]])];
    matches_static_instances(
        RESIZE_POLICY,
        &["N", "C", "H", "W"],
        &[
            &[1, 2, 2, 3, 4, 7],
            &[2, 1, 4, 6, 4, 9],
            &[1, 1, 8, 12, 5, 6],
        ],
        &[&[1, 2, 2, 3, 5, 7]],
        &sizes,
    );
}

/// GridSample of symbolic sizes, with reflection padding and aligned
/// corners (an axis of one element reflects onto itself), and a grid
/// whose batch `M` is checked against the input's.
const GRID_SAMPLE: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>, %grid: tensor<"M"x"P"x"Q"x2xf32>) -> ("y": tensor<"N"x"C"x"P"x"Q"xf32>) {
  %y = "onnx.GridSample"(%x, %grid) {mode = "linear", padding_mode = "reflection", align_corners = 1} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<"M"x"P"x"Q"x2xf32>) -> tensor<"N"x"C"x"P"x"Q"xf32>
  onnx.return %y
}
"#;

/// AffineGrid into a declared 4×5 grid, the `size` input checked to
/// name it.
const AFFINE_GRID: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 20}}
onnx.graph "g"(%theta: tensor<"N"x"A"x"B"xf32>, %size: tensor<4xi64>) -> ("grid": tensor<"N"x4x5x2xf32>) {
  %grid = "onnx.AffineGrid"(%theta, %size) {align_corners = 1} : (tensor<"N"x"A"x"B"xf32>, tensor<4xi64>) -> tensor<"N"x4x5x2xf32>
  onnx.return %grid
}
"#;

/// RoiAlign over an image of symbolic size, `R` regions.
const ROI_ALIGN: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>, %rois: tensor<"R"x4xf32>, %batch: tensor<"R"xi64>) -> ("y": tensor<"R"x"C"x3x3xf32>) {
  %y = "onnx.RoiAlign"(%x, %rois, %batch) {output_height = 3, output_width = 3, sampling_ratio = 2, spatial_scale = 0.5} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<"R"x4xf32>, tensor<"R"xi64>) -> tensor<"R"x"C"x3x3xf32>
  onnx.return %y
}
"#;

#[test]
fn sampling_ops_over_symbolic_sizes_match_the_static_model() {
    // [N, C, H, W, P, Q, M].
    let grid = |s: &[i64]| vec![floats(&s[..4], 3), floats(&[s[6], s[4], s[5], 2], 4)];
    matches_static_instances(
        GRID_SAMPLE,
        &["N", "C", "H", "W", "P", "Q", "M"],
        &[&[1, 2, 3, 4, 2, 3, 1], &[2, 1, 1, 5, 4, 1, 2]],
        &[&[2, 1, 3, 3, 2, 2, 1]],
        &grid,
    );
    // [N, A, B, size's last entry].
    let affine = |s: &[i64]| {
        vec![
            floats(&[s[0], s[1], s[2]], 5),
            ints(&[4], vec![s[0], 3, 4, s[3]]),
        ]
    };
    matches_static_instances(
        AFFINE_GRID,
        &["N", "A", "B"],
        &[&[1, 2, 3, 5], &[3, 2, 3, 5]],
        &[&[2, 2, 3, 6], &[1, 3, 3, 5]],
        &affine,
    );
    // [N, C, H, W, R]: regions inside and across the image's border.
    let roi = |s: &[i64]| {
        let r = s[4] as usize;
        let boxes: Vec<f32> = (0..r)
            .flat_map(|i| {
                let o = i as f32;
                [o, 0.5 * o, 2.0 * s[3] as f32 + o, 2.0 * s[2] as f32 - o]
            })
            .collect();
        let batch: Vec<i64> = (0..r as i64).map(|i| i % s[0]).collect();
        vec![
            floats(&s[..4], 6),
            given(&[r as i64, 4], boxes),
            ints(&[r as i64], batch),
        ]
    };
    matches_static_instances(
        ROI_ALIGN,
        &["N", "C", "H", "W", "R"],
        &[&[1, 2, 5, 6, 3], &[2, 1, 4, 4, 2]],
        &[],
        &roi,
    );
}

/// DFT of a symbolic length along an axis read at run time, in a
/// signal of symbolic real (1) or complex (2) parts.
const DFT_AXIS: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<2x"N"x"C"xf32>, %axis: tensor<i64>) -> ("y": tensor<2x"N"x2xf32>) {
  %y = "onnx.DFT"(%x, none, %axis) : (tensor<2x"N"x"C"xf32>, none, tensor<i64>) -> tensor<2x"N"x2xf32>
  onnx.return %y
}
"#;

/// A one-sided DFT of a symbolic signal padded or cut to a run-time
/// length whose half gives the declared 5 bins.
const DFT_LENGTH: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<2x"N"x1xf32>, %length: tensor<i64>) -> ("y": tensor<2x5x2xf32>) {
  %axis = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %y = "onnx.DFT"(%x, %length, %axis) {onesided = 1} : (tensor<2x"N"x1xf32>, tensor<i64>, tensor<i64>) -> tensor<2x5x2xf32>
  onnx.return %y
}
"#;

/// STFT of a symbolic signal by a run-time step, with a window of
/// symbolic length, into a declared 15 frames of 9 bins.
const STFT: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<1x"S"x1xf32>, %step: tensor<i64>, %w: tensor<"W"xf32>) -> ("y": tensor<1x15x9x2xf32>) {
  %y = "onnx.STFT"(%x, %step, %w) : (tensor<1x"S"x1xf32>, tensor<i64>, tensor<"W"xf32>) -> tensor<1x15x9x2xf32>
  onnx.return %y
}
"#;

#[test]
fn spectral_ops_over_symbolic_sizes_match_the_static_model() {
    // [N, C, axis]: the axis 1 or 0 (as -3); a signal of 3 parts, or the
    // last axis (2, -1) or one out of range are refused.
    let axis = |s: &[i64]| vec![floats(&[2, s[0], s[1]], 9), ints(&[], vec![s[2]])];
    matches_static_instances(
        DFT_AXIS,
        &["N", "C"],
        &[&[5, 1, 1], &[6, 2, 1], &[2, 2, -3], &[7, 1, 1]],
        &[&[5, 3, 1], &[5, 2, 2], &[5, 2, -1], &[5, 2, -4]],
        &axis,
    );
    // [N, length]: lengths 8 and 9 give 5 bins, 10 gives 6.
    let length = |s: &[i64]| vec![floats(&[2, s[0], 1], 10), ints(&[], vec![s[1]])];
    matches_static_instances(
        DFT_LENGTH,
        &["N"],
        &[&[6, 8], &[12, 9], &[9, 9]],
        &[&[6, 10], &[6, 0]],
        &length,
    );
    // [S, W, step]: 15 frames of 9 bins; other frame counts are refused.
    let stft = |s: &[i64]| {
        vec![
            floats(&[1, s[0], 1], 11),
            ints(&[], vec![s[2]]),
            floats(&[s[1]], 12),
        ]
    };
    matches_static_instances(
        STFT,
        &["S", "W"],
        &[&[128, 16, 8], &[120, 16, 7], &[129, 17, 8]],
        &[&[100, 16, 8], &[128, 16, 9], &[128, 16, 0], &[128, 20, 8]],
        &stft,
    );
}

/// Det of a batch of matrices whose order and count are symbolic.
const DET: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"B"x"M"x"K"xf32>) -> ("y": tensor<"B"xf32>) {
  %y = "onnx.Det"(%x) : (tensor<"B"x"M"x"K"xf32>) -> tensor<"B"xf32>
  onnx.return %y
}
"#;

#[test]
fn det_of_a_symbolic_order_matches_the_static_model() {
    // [B, M, K]: the expansion of each static order against the loops;
    // a singular matrix (two equal rows) is an exact 0; non-square
    // matrices are refused.
    let det = |s: &[i64]| {
        let mut x = floats(s, 13);
        if s[1] >= 2 {
            let mut v = x.to_vec::<f32>().unwrap();
            let m = s[1] as usize;
            for c in 0..m {
                v[m + c] = v[c];
            }
            x = given(s, v);
        }
        vec![x]
    };
    matches_static_instances(
        DET,
        &["B", "M", "K"],
        &[&[3, 4, 4], &[2, 7, 7], &[1, 1, 1], &[2, 0, 0]],
        &[&[2, 3, 4]],
        &det,
    );
}

/// MaxUnpool of symbolic sizes into the shape MaxPool's input had
/// (inferred from the window), strided and padded.
const MAX_UNPOOL: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>, %i: tensor<"N"x"C"x"H"x"W"xi64>) -> ("y": tensor<?x?x?x?xf32>) {
  %y = "onnx.MaxUnpool"(%x, %i) {kernel_shape = [3, 2], strides = [2, 2], pads = [1, 0, 0, 1]} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<"N"x"C"x"H"x"W"xi64>) -> tensor<?x?x?x?xf32>
  onnx.return %y
}
"#;

/// MaxUnpool into a larger `output_shape` read at run time (padded at the
/// end), its entries checked against the declared output.
const MAX_UNPOOL_SHAPE: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<1x1x"H"x"W"xf32>, %i: tensor<1x1x"H"x"W"xi64>, %shape: tensor<4xi64>) -> ("y": tensor<1x1x7x7xf32>) {
  %y = "onnx.MaxUnpool"(%x, %i, %shape) {kernel_shape = [2, 2], strides = [2, 2]} : (tensor<1x1x"H"x"W"xf32>, tensor<1x1x"H"x"W"xi64>, tensor<4xi64>) -> tensor<1x1x7x7xf32>
  onnx.return %y
}
"#;

#[test]
fn max_unpool_of_symbolic_sizes_matches_the_static_model() {
    // Distinct positions (every other cell of the inferred image, one per
    // input element, none past its end) and values.
    let indices = |s: &[i64], inferred: i64| {
        let n = s.iter().product::<i64>();
        ints(s, (0..n).map(|k| (2 * k) % inferred).collect())
    };
    // [N, C, H, W]: the inferred image is (2H - 2) x 2W per channel.
    let unpool = |s: &[i64]| {
        let per_image = s[0] * s[1] * (2 * s[2] - 2) * (2 * s[3]);
        vec![floats(s, 14), indices(s, per_image)]
    };
    matches_static_instances(
        MAX_UNPOOL,
        &["N", "C", "H", "W"],
        &[&[1, 1, 3, 2], &[2, 3, 4, 5]],
        &[],
        &unpool,
    );
    // [H, W, output_shape's last entry]: 3x3 inputs unpool into 6x6.
    let shaped = |s: &[i64]| {
        let hw = [1, 1, s[0], s[1]];
        vec![
            floats(&hw, 15),
            indices(&hw, 4 * s[0] * s[1]),
            ints(&[4], vec![1, 1, 7, s[2]]),
        ]
    };
    matches_static_instances(
        MAX_UNPOOL_SHAPE,
        &["H", "W"],
        &[&[3, 3, 7], &[2, 3, 7]],
        &[&[3, 3, 6], &[4, 3, 7], &[3, 4, 7]],
        &shaped,
    );
}

/// CenterCropPad of the first two axes to a declared 6×5, from symbolic
/// sizes that crop, pad, or stay.
const CENTER_CROP_PAD: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<"H"x"W"x3xf32>, %shape: tensor<2xi64>) -> ("y": tensor<6x5x3xf32>) {
  %y = "onnx.CenterCropPad"(%x, %shape) {axes = [0, 1]} : (tensor<"H"x"W"x3xf32>, tensor<2xi64>) -> tensor<6x5x3xf32>
  onnx.return %y
}
"#;

/// Col2Im into a declared `N`×2×4×4 image from columns of symbolic
/// sizes; the block shape is a run-time input.
const COL2IM: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 18}}
onnx.graph "g"(%x: tensor<"N"x"K"x"L"xf32>, %image: tensor<2xi64>, %block: tensor<2xi64>) -> ("y": tensor<"N"x2x4x4xf32>) {
  %y = "onnx.Col2Im"(%x, %image, %block) : (tensor<"N"x"K"x"L"xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<"N"x2x4x4xf32>
  onnx.return %y
}
"#;

#[test]
fn shape_setting_image_ops_check_their_inputs_values() {
    // [H, W, shape's last entry].
    let crop = |s: &[i64]| vec![floats(&[s[0], s[1], 3], 7), ints(&[2], vec![6, s[2]])];
    matches_static_instances(
        CENTER_CROP_PAD,
        &["H", "W"],
        &[&[10, 3, 5], &[4, 8, 5], &[6, 5, 5], &[1, 1, 5]],
        &[&[6, 5, 4]],
        &crop,
    );
    // [N, K, L, block rows, block columns, image columns].
    let col2im = |s: &[i64]| {
        vec![
            floats(&s[..3], 8),
            ints(&[2], vec![4, s[5]]),
            ints(&[2], vec![s[3], s[4]]),
        ]
    };
    matches_static_instances(
        COL2IM,
        &["N", "K", "L"],
        &[&[1, 8, 9, 2, 2, 4], &[2, 4, 12, 1, 2, 4]],
        &[&[1, 8, 9, 2, 2, 5], &[1, 7, 9, 2, 2, 4]],
        &col2im,
    );
}

/// A ConvTranspose of two groups whose channels and kernel are all
/// symbolic (the weight a graph input), strided, dilated and padded.
const CONV_TRANSPOSE_GROUPS: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>, %w: tensor<"C"x"M"x"K"x"L"xf32>) -> ("y": tensor<?x?x?x?xf32>) {
  %y = "onnx.ConvTranspose"(%x, %w) {group = 2, strides = [2, 1], dilations = [1, 2], pads = [1, 0, 0, 1]} : (tensor<"N"x"C"x"H"x"W"xf32>, tensor<"C"x"M"x"K"x"L"xf32>) -> tensor<?x?x?x?xf32>
  onnx.return %y
}
"#;

/// A Conv of symbolic kernel size with SAME_LOWER padding and stride 2:
/// the padding is computed from the kernel's run-time size.
const CONV_SAME_KERNEL: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"xf32>, %w: tensor<"M"x"C"x"K"xf32>) -> ("y": tensor<?x?x?xf32>) {
  %y = "onnx.Conv"(%x, %w) {auto_pad = "SAME_LOWER", strides = [2]} : (tensor<"N"x"C"x"H"xf32>, tensor<"M"x"C"x"K"xf32>) -> tensor<?x?x?xf32>
  onnx.return %y
}
"#;

#[test]
fn convolutions_of_symbolic_kernels_match_the_static_model() {
    let transpose = |s: &[i64]| vec![floats(&s[..4], 9), floats(&[s[1], s[4], s[5], s[6]], 10)];
    matches_static_instances(
        CONV_TRANSPOSE_GROUPS,
        &["N", "C", "H", "W", "M", "K", "L"],
        &[&[1, 2, 3, 3, 1, 2, 3], &[2, 4, 2, 4, 3, 3, 1]],
        &[&[1, 3, 3, 3, 1, 2, 2]],
        &transpose,
    );
    let same = |s: &[i64]| vec![floats(&s[..3], 11), floats(&[s[3], s[1], s[4]], 12)];
    matches_static_instances(
        CONV_SAME_KERNEL,
        &["N", "C", "H", "M", "K"],
        &[&[1, 2, 7, 3, 3], &[2, 1, 4, 1, 5], &[1, 3, 5, 2, 1]],
        &[],
        &same,
    );
}

/// AveragePool with `ceil_mode` whose last window may start in the end
/// padding: whether it is dropped is decided at run time (a comparison
/// atom in the output's size).
const POOL_CEIL: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"xf32>) -> ("y": tensor<?x?x?xf32>) {
  %y = "onnx.AveragePool"(%x) {kernel_shape = [3], strides = [2], pads = [1, 2], ceil_mode = 1} : (tensor<"N"x"C"x"H"xf32>) -> tensor<?x?x?xf32>
  onnx.return %y
}
"#;

#[test]
fn ceil_mode_windows_drop_their_last_position_at_run_time() {
    let inputs = |s: &[i64]| vec![floats(s, 17)];
    let good: Vec<Vec<i64>> = (1..8).map(|h| vec![2, 3, h]).collect();
    let good: Vec<&[i64]> = good.iter().map(Vec::as_slice).collect();
    matches_static_instances(POOL_CEIL, &["N", "C", "H"], &good, &[], &inputs);
}

/// GroupNormalization of symbolic channels (two groups), LRN over them,
/// and a BatchNormalization whose parameters' length `D` is checked
/// against the channels.
const NORMALIZATIONS: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"xf32>, %scale: tensor<"C"xf32>, %bias: tensor<"C"xf32>, %p: tensor<"D"xf32>) -> ("g": tensor<"N"x"C"x"H"xf32>, "l": tensor<"N"x"C"x"H"xf32>, "b": tensor<"N"x"C"x"H"xf32>) {
  %g = "onnx.GroupNormalization"(%x, %scale, %bias) {num_groups = 2, epsilon = 0.01} : (tensor<"N"x"C"x"H"xf32>, tensor<"C"xf32>, tensor<"C"xf32>) -> tensor<"N"x"C"x"H"xf32>
  %l = "onnx.LRN"(%x) {size = 3} : (tensor<"N"x"C"x"H"xf32>) -> tensor<"N"x"C"x"H"xf32>
  %v = "onnx.Abs"(%p) : (tensor<"D"xf32>) -> tensor<"D"xf32>
  %b = "onnx.BatchNormalization"(%x, %p, %p, %p, %v) : (tensor<"N"x"C"x"H"xf32>, tensor<"D"xf32>, tensor<"D"xf32>, tensor<"D"xf32>, tensor<"D"xf32>) -> tensor<"N"x"C"x"H"xf32>
  onnx.return %g, %l, %b
}
"#;

#[test]
fn normalizations_over_symbolic_channels_match_the_static_model() {
    let inputs = |s: &[i64]| {
        vec![
            floats(&s[..3], 13),
            floats(&[s[1]], 14),
            floats(&[s[1]], 15),
            floats(&[s[3]], 16),
        ]
    };
    matches_static_instances(
        NORMALIZATIONS,
        &["N", "C", "H", "D"],
        &[&[1, 4, 3, 4], &[2, 6, 1, 6], &[3, 2, 5, 2]],
        &[&[1, 5, 3, 5], &[1, 4, 3, 3]],
        &inputs,
    );
}

/// MaxPool's `Indices` over symbolic sizes, row-major and column-major
/// (`storage_order = 1`), with begin and end pads, strides and dilations.
const MAX_POOL_INDICES: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 22}}
onnx.graph "g"(%x: tensor<"N"x"C"x"H"x"W"xf32>) -> ("y": tensor<?x?x?x?xf32>, "i": tensor<?x?x?x?xi64>, "t": tensor<?x?x?x?xf32>, "j": tensor<?x?x?x?xi64>) {
  %y, %i = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 1], pads = [1, 0, 0, 1], dilations = [1, 2]} : (tensor<"N"x"C"x"H"x"W"xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>)
  %t, %j = "onnx.MaxPool"(%x) {kernel_shape = [2, 2], strides = [2, 1], pads = [1, 0, 0, 1], dilations = [1, 2], storage_order = 1} : (tensor<"N"x"C"x"H"x"W"xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>)
  onnx.return %y, %i, %t, %j
}
"#;

/// The reference MaxPool of [`MAX_POOL_INDICES`] on `x` of sizes
/// `[n, c, h, w]`, written from the operator's definition: each window
/// scanned in kernel order keeps its first largest element inside the
/// input; the index counts the input's elements before it, with the
/// spatial dims row-major or (`column_major`) column-major.
fn max_pool_reference(x: &[f32], [n, c, h, w]: [i64; 4], column_major: bool) -> Vec<Tensor> {
    let (oh, ow) = ((h - 1) / 2 + 1, w - 1);
    let (mut values, mut indices) = (vec![], vec![]);
    for image in 0..n * c {
        for (oy, ox) in (0..oh).flat_map(|oy| (0..ow).map(move |ox| (oy, ox))) {
            let mut best: Option<(f32, i64)> = None;
            for (ky, kx) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                let (py, px) = (oy * 2 - 1 + ky, ox + kx * 2);
                if !(0..h).contains(&py) || !(0..w).contains(&px) {
                    continue;
                }
                let v = x[(image * h * w + py * w + px) as usize];
                let at = if column_major {
                    py + px * h
                } else {
                    py * w + px
                };
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, image * h * w + at));
                }
            }
            let (v, at) = best.expect("every window meets the input");
            values.push(v);
            indices.push(at);
        }
    }
    let shape = vec![n, c, oh, ow];
    vec![given(&shape, values), ints(&shape, indices)]
}

#[test]
fn max_pool_indices_over_symbolic_sizes_match_the_reference() {
    let model = onnx_mlc_dialect::parse_model(MAX_POOL_INDICES).unwrap();
    let options = general();
    let compiled = Engine::compile(&model, &options).unwrap();
    let (library, _) = AotModel::compile(&model, &options).unwrap();
    for sizes in [[1, 1, 1, 2], [2, 3, 4, 5], [1, 2, 5, 3], [3, 1, 2, 7]] {
        // Values in quarters: ties, where the first one scanned wins.
        let n = sizes.iter().product::<i64>() as usize;
        let data: Vec<f32> = values(n, 21).iter().map(|v| (v * 4.0).round()).collect();
        let mut want = max_pool_reference(&data, sizes, false);
        want.extend(max_pool_reference(&data, sizes, true));
        let inputs = [given(&sizes, data)];
        let got = compiled.run(&inputs).unwrap();
        compare(&got, &want).unwrap_or_else(|e| panic!("{sizes:?} (JIT): {e}"));
        let got = library.run(&inputs).unwrap();
        compare(&got, &want).unwrap_or_else(|e| panic!("{sizes:?} (AOT): {e}"));
    }
}

/// Reductions over axes given as a graph input of run-time length `K`:
/// the kernels read the axes (a dim is reduced when an entry names it;
/// with none, every dim, or none for `noop_with_empty_axes`) and the
/// model's entry checks them against the declared output shapes. Bool
/// (Min is an and) and f16 (accumulated in f32, rounded once) inputs
/// too.
const RUN_TIME_AXES_LENGTH: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 20}}
onnx.graph "g"(%x: tensor<"N"x2x3xf32>, %b: tensor<"N"x2x3xi1>, %h: tensor<"N"x2x3xf16>, %axes: tensor<"K"xi64>) -> ("y": tensor<"N"x3xf32>, "z": tensor<"N"x1x3xi1>, "m": tensor<"N"x3xf16>) {
  %y = "onnx.ReduceSum"(%x, %axes) {keepdims = 0} : (tensor<"N"x2x3xf32>, tensor<"K"xi64>) -> tensor<"N"x3xf32>
  %z = "onnx.ReduceMin"(%b, %axes) {keepdims = 1, noop_with_empty_axes = 1} : (tensor<"N"x2x3xi1>, tensor<"K"xi64>) -> tensor<"N"x1x3xi1>
  %m = "onnx.ReduceMean"(%h, %axes) {keepdims = 0} : (tensor<"N"x2x3xf16>, tensor<"K"xi64>) -> tensor<"N"x3xf16>
  onnx.return %y, %z, %m
}
"#;

/// The bits of `x` as an f16, for values an f16 holds exactly.
fn f16_bits(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let exponent = ((b >> 23) & 0xff) as i32 - 127 + 15;
    (((b >> 16) & 0x8000) | ((exponent as u32) << 10) | ((b >> 13) & 0x3ff)) as u16
}

fn check_run_time_axes_length(run: &Run<'_>) {
    for n in [4usize, 1, 0] {
        let x = values(n * 6, n as u64);
        // Eighths: exact in f16, and so are their halves.
        let h: Vec<f32> = x.iter().map(|v| (v * 8.0).round() / 8.0).collect();
        let b: Vec<u8> = x.iter().map(|&v| u8::from(v > -0.5)).collect();
        let inputs = |axes: Vec<i64>| {
            let hb: Vec<u8> = h.iter().flat_map(|&v| f16_bits(v).to_le_bytes()).collect();
            vec![
                Tensor::from_vec(vec![n as i64, 2, 3], x.clone()).unwrap(),
                Tensor::from_bytes(ElemType::Bool, &[n as i64, 2, 3], &b).unwrap(),
                Tensor::from_bytes(ElemType::F16, &[n as i64, 2, 3], &hb).unwrap(),
                Tensor::from_vec(vec![axes.len() as i64], axes).unwrap(),
            ]
        };
        // Element (i, j, k) of the inputs, and the reductions over j.
        let at = |v: &[f32], i: usize, j: usize, k: usize| v[i * 6 + j * 3 + k];
        let sum: Vec<f32> = (0..n * 3)
            .map(|o| at(&x, o / 3, 0, o % 3) + at(&x, o / 3, 1, o % 3))
            .collect();
        let all: Vec<u8> = (0..n * 3)
            .map(|o| b[(o / 3) * 6 + o % 3] & b[(o / 3) * 6 + 3 + o % 3])
            .collect();
        let mean: Vec<f64> = (0..n * 3)
            .map(|o| f64::from(at(&h, o / 3, 0, o % 3) + at(&h, o / 3, 1, o % 3)) / 2.0)
            .collect();
        for axes in [vec![1], vec![-2]] {
            let out = run(&inputs(axes.clone())).unwrap_or_else(|e| panic!("N={n} {axes:?}: {e}"));
            assert_eq!(out[0].shape(), [n as i64, 3]);
            assert_eq!(out[0].to_vec::<f32>().unwrap(), sum, "N={n} {axes:?}");
            assert_eq!(out[1].shape(), [n as i64, 1, 3]);
            assert_eq!(out[1].as_bytes(), all, "N={n} {axes:?}");
            let got = out[2].to_tensor_data().to_f64s().unwrap();
            close(&got, &mean, false).unwrap_or_else(|e| panic!("N={n} {axes:?}: {e}"));
        }
        // A repeated axis, no axes (every dim, or none for the Min: other
        // shapes than the outputs'), an axis out of range or of another
        // shape: clean shape errors.
        for axes in [
            vec![1, 1],
            vec![1, -2],
            vec![],
            vec![0],
            vec![3],
            vec![1, 2],
        ] {
            let e = run(&inputs(axes.clone())).err();
            let e = e.unwrap_or_else(|| panic!("N={n}: axes {axes:?} must fail"));
            assert!(e.contains("shape"), "{e}");
        }
    }
}

#[test]
fn axes_of_run_time_length_are_read_and_checked() {
    let model = onnx_mlc_dialect::parse_model(RUN_TIME_AXES_LENGTH).unwrap();
    let compiled = Engine::compile(&model, &general()).unwrap();
    check_run_time_axes_length(&|inputs| compiled.run(inputs).map_err(|e| e.to_string()));
    let (library, _) = AotModel::compile(&model, &general()).unwrap();
    check_run_time_axes_length(&|inputs| library.run(inputs).map_err(|e| e.to_string()));
}

/// BatchNormalization's parameters of symbolic size `S` against the
/// channels `C`: read per channel; the entry checks that `S` is `C` (the
/// spec's `[C]` parameters, as onnxruntime requires).
const CHANNEL_PARAMETERS: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 15}}
onnx.graph "g"(%x: tensor<"N"x"C"x"W"xf32>, %s: tensor<"S"xf32>, %b: tensor<"S"xf32>, %mean: tensor<"S"xf32>, %var: tensor<"S"xf32>) -> ("y": tensor<"N"x"C"x"W"xf32>) {
  %y = "onnx.BatchNormalization"(%x, %s, %b, %mean, %var) {epsilon = 0.5} : (tensor<"N"x"C"x"W"xf32>, tensor<"S"xf32>, tensor<"S"xf32>, tensor<"S"xf32>, tensor<"S"xf32>) -> tensor<"N"x"C"x"W"xf32>
  onnx.return %y
}
"#;

/// Legacy (opset 6) broadcasts with symbolic sizes: PRelu's `[3]` slope
/// per channel, and an Add with `broadcast`/`axis`, evaluated numpy-style.
const LEGACY_BROADCASTS: &str = r#"onnx.model {ir_version = 3, opset_imports = {"" = 6}}
onnx.graph "g"(%x: tensor<"N"x"C"x"W"xf32>, %slope: tensor<3xf32>, %a: tensor<"M"x"K"xf32>, %c: tensor<"L"xf32>) -> ("p": tensor<"N"x"C"x"W"xf32>, "s": tensor<"M"x"K"xf32>) {
  %p = "onnx.PRelu"(%x, %slope) : (tensor<"N"x"C"x"W"xf32>, tensor<3xf32>) -> tensor<"N"x"C"x"W"xf32>
  %s = "onnx.Add"(%a, %c) {broadcast = 1, axis = 1} : (tensor<"M"x"K"xf32>, tensor<"L"xf32>) -> tensor<"M"x"K"xf32>
  onnx.return %p, %s
}
"#;

fn check_channel_parameters(run: &Run<'_>) {
    for (n, c, w, s) in [(2usize, 3usize, 4usize, 3usize), (1, 4, 2, 4), (3, 1, 0, 1)] {
        let x = values(n * c * w, 1);
        let p: Vec<Vec<f32>> = (0..4).map(|i| values(s, 5 + i)).collect();
        let var: Vec<f32> = p[3].iter().map(|v| v.abs()).collect();
        let mut inputs =
            vec![Tensor::from_vec(vec![n as i64, c as i64, w as i64], x.clone()).unwrap()];
        for v in [&p[0], &p[1], &p[2], &var] {
            inputs.push(Tensor::from_vec(vec![s as i64], v.clone()).unwrap());
        }
        let out = run(&inputs).unwrap_or_else(|e| panic!("C={c} S={s}: {e}"));
        let want: Vec<f32> = (0..n * c * w)
            .map(|i| {
                let k = if s == 1 { 0 } else { (i / w) % c };
                (x[i] - p[2][k]) / (var[k] + 0.5).sqrt() * p[0][k] + p[1][k]
            })
            .collect();
        let got = out[0].to_vec::<f32>().unwrap();
        for (g, v) in got.iter().zip(&want) {
            assert!(
                (g - v).abs() < 1e-5,
                "C={c} S={s}: {got:?} against {want:?}"
            );
        }
    }
    let inputs: Vec<Tensor> = [vec![2, 3, 2], vec![2], vec![2], vec![2], vec![2]]
        .into_iter()
        .map(|shape| {
            let n = shape.iter().product::<i64>() as usize;
            Tensor::from_vec(shape, values(n, 2)).unwrap()
        })
        .collect();
    let e = run(&inputs).expect_err("S=2 against C=3 fails");
    assert!(e.contains("shape"), "{e}");
}

fn check_legacy_broadcasts(run: &Run<'_>) {
    let slope = values(3, 9);
    for (n, w, m, k, l) in [
        (2usize, 4usize, 2usize, 3usize, 3usize),
        (1, 1, 3, 2, 1),
        (0, 3, 1, 4, 4),
    ] {
        let (x, a, c) = (values(n * 3 * w, 1), values(m * k, 2), values(l, 3));
        let out = run(&[
            Tensor::from_vec(vec![n as i64, 3, w as i64], x.clone()).unwrap(),
            Tensor::from_vec(vec![3], slope.clone()).unwrap(),
            Tensor::from_vec(vec![m as i64, k as i64], a.clone()).unwrap(),
            Tensor::from_vec(vec![l as i64], c.clone()).unwrap(),
        ])
        .unwrap_or_else(|e| panic!("W={w} K={k} L={l}: {e}"));
        let prelu: Vec<f32> = (0..n * 3 * w)
            .map(|i| {
                if x[i] < 0.0 {
                    x[i] * slope[(i / w) % 3]
                } else {
                    x[i]
                }
            })
            .collect();
        let sum: Vec<f32> = (0..m * k)
            .map(|i| a[i] + c[if l == 1 { 0 } else { i % k }])
            .collect();
        assert_eq!(out[0].to_vec::<f32>().unwrap(), prelu, "W={w}");
        assert_eq!(out[1].to_vec::<f32>().unwrap(), sum, "K={k} L={l}");
    }
    // Four channels against a slope of three, two columns against three
    // values: clean shape errors.
    for (c, l) in [(4i64, 2i64), (3, 3)] {
        let e = run(&[
            Tensor::from_vec(vec![1, c, 2], values(2 * c as usize, 1)).unwrap(),
            Tensor::from_vec(vec![3], slope.clone()).unwrap(),
            Tensor::from_vec(vec![2, 2], values(4, 2)).unwrap(),
            Tensor::from_vec(vec![l], values(l as usize, 3)).unwrap(),
        ])
        .err()
        .unwrap_or_else(|| panic!("C={c} L={l} must fail"));
        assert!(e.contains("shape"), "{e}");
    }
}

#[test]
fn per_channel_and_legacy_broadcasts_are_checked_at_run_time() {
    for (text, check) in [
        (CHANNEL_PARAMETERS, check_channel_parameters as fn(&Run<'_>)),
        (LEGACY_BROADCASTS, check_legacy_broadcasts),
    ] {
        let model = onnx_mlc_dialect::parse_model(text).unwrap();
        let compiled = Engine::compile(&model, &general()).unwrap();
        check(&|inputs| compiled.run(inputs).map_err(|e| e.to_string()));
        let (library, _) = AotModel::compile(&model, &general()).unwrap();
        check(&|inputs| library.run(inputs).map_err(|e| e.to_string()));
    }
}

/// `text` with each quoted symbol of `symbols` replaced by its size.
fn bound(text: &str, symbols: &[&str], sizes: &[i64]) -> String {
    let mut text = text.to_string();
    for (name, n) in symbols.iter().zip(sizes) {
        text = text.replace(&format!("\"{name}\""), &n.to_string());
    }
    text
}

/// Compiles `text` once with its symbolic sizes, and runs it for each of
/// `runs` (the symbols' sizes, the inputs) against the model with the
/// sizes bound, compiled static: the reference. Then each of `bad`
/// (inputs that break a condition the symbolic code relies on) must fail
/// with a shape error.
fn matches_static_runs(
    text: &str,
    symbols: &[&str],
    runs: &[(Vec<i64>, Vec<Tensor>)],
    bad: &[Vec<Tensor>],
) {
    let options = general();
    let model = onnx_mlc_dialect::parse_model(text).unwrap();
    let compiled = Engine::compile(&model, &options).unwrap();
    for (sizes, inputs) in runs {
        let fixed = onnx_mlc_dialect::parse_model(&bound(text, symbols, sizes)).unwrap();
        let want = Engine::compile(&fixed, &options)
            .unwrap()
            .run(inputs)
            .unwrap_or_else(|e| panic!("{sizes:?} (static): {e}"));
        let got = compiled
            .run(inputs)
            .unwrap_or_else(|e| panic!("{sizes:?}: {e}"));
        compare(&got, &want).unwrap_or_else(|e| panic!("{sizes:?}: {e}"));
    }
    for inputs in bad {
        let shapes: Vec<&[i64]> = inputs.iter().map(Tensor::shape).collect();
        let e = compiled
            .run(inputs)
            .err()
            .unwrap_or_else(|| panic!("{shapes:?} must fail"))
            .to_string();
        assert!(e.contains("shape"), "{shapes:?}: {e}");
    }
}

/// TopK with `k` a graph input (checked against the outputs' length) and
/// Hardmax (its iota built at the axis's run-time size), over an axis of
/// symbolic length.
const TOP_K: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 13}}
onnx.graph "g"(%x: tensor<"N"x"M"xf32>, %k: tensor<1xi64>) -> ("v": tensor<"N"x2xf32>, "i": tensor<"N"x2xi64>, "h": tensor<"N"x"M"xf32>) {
  %v, %i = "onnx.TopK"(%x, %k) {largest = 0} : (tensor<"N"x"M"xf32>, tensor<1xi64>) -> (tensor<"N"x2xf32>, tensor<"N"x2xi64>)
  %h = "onnx.Hardmax"(%x) : (tensor<"N"x"M"xf32>) -> tensor<"N"x"M"xf32>
  onnx.return %v, %i, %h
}
"#;

#[test]
fn top_k_and_hardmax_take_run_time_lengths() {
    let runs: Vec<(Vec<i64>, Vec<Tensor>)> = [(3, 4), (1, 2), (0, 7)]
        .into_iter()
        .map(|(n, m)| (vec![n, m], vec![floats(&[n, m], 5), ints(&[1], vec![2])]))
        .collect();
    // k other than the outputs' length; an axis shorter than k.
    let bad = [
        vec![floats(&[3, 4], 5), ints(&[1], vec![3])],
        vec![floats(&[3, 1], 5), ints(&[1], vec![2])],
    ];
    matches_static_runs(TOP_K, &["N", "M"], &runs, &bad);
}

/// A transformer's layer with a symbolic batch and sequence: products of
/// symbolic rows by static weights with a bias and an activation (on the
/// product schedule with peeled partial tiles), and attention over heads
/// of static size whose rows and keys are symbolic (tiled op by op).
const TRANSFORMER: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<"B"x"S"x24xf32>, %w: tensor<24x40xf32>, %b: tensor<40xf32>, %q: tensor<"B"x3x"S"x16xf32>, %kt: tensor<"B"x3x16x"S"xf32>, %v: tensor<"B"x3x"S"x16xf32>, %mask: tensor<"B"x1x1x"S"xf32>) -> ("h": tensor<"B"x"S"x40xf32>, "y": tensor<"B"x3x"S"x16xf32>) {
  %scale = "onnx.Constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %p = "onnx.MatMul"(%x, %w) : (tensor<"B"x"S"x24xf32>, tensor<24x40xf32>) -> tensor<"B"x"S"x40xf32>
  %pb = "onnx.Add"(%p, %b) : (tensor<"B"x"S"x40xf32>, tensor<40xf32>) -> tensor<"B"x"S"x40xf32>
  %h = "onnx.Relu"(%pb) : (tensor<"B"x"S"x40xf32>) -> tensor<"B"x"S"x40xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<"B"x3x"S"x16xf32>, tensor<"B"x3x16x"S"xf32>) -> tensor<"B"x3x"S"x"S"xf32>
  %ss = "onnx.Mul"(%s, %scale) : (tensor<"B"x3x"S"x"S"xf32>, tensor<f32>) -> tensor<"B"x3x"S"x"S"xf32>
  %sm = "onnx.Add"(%ss, %mask) : (tensor<"B"x3x"S"x"S"xf32>, tensor<"B"x1x1x"S"xf32>) -> tensor<"B"x3x"S"x"S"xf32>
  %pr = "onnx.Softmax"(%sm) {axis = -1} : (tensor<"B"x3x"S"x"S"xf32>) -> tensor<"B"x3x"S"x"S"xf32>
  %y = "onnx.MatMul"(%pr, %v) : (tensor<"B"x3x"S"x"S"xf32>, tensor<"B"x3x"S"x16xf32>) -> tensor<"B"x3x"S"x16xf32>
  onnx.return %h, %y
}
"#;

#[test]
fn products_and_attention_of_symbolic_rows_keep_their_schedules() {
    let runs: Vec<(Vec<i64>, Vec<Tensor>)> = [(1, 1), (2, 5), (1, 37), (3, 20), (1, 130)]
        .into_iter()
        .map(|(b, s)| {
            let inputs = vec![
                floats(&[b, s, 24], 1),
                floats(&[24, 40], 2),
                floats(&[40], 3),
                floats(&[b, 3, s, 16], 4),
                floats(&[b, 3, 16, s], 5),
                floats(&[b, 3, s, 16], 6),
                floats(&[b, 1, 1, s], 7),
            ];
            (vec![b, s], inputs)
        })
        .collect();
    matches_static_runs(TRANSFORMER, &["B", "S"], &runs, &[]);
}

/// GatherND with batch dims and Compress along an axis, their indices and
/// condition of symbolic sizes (the condition's true entries counted at
/// run time against the output's length).
const INDEXED: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 13}}
onnx.graph "g"(%d: tensor<"B"x"R"x"C"xf32>, %idx: tensor<"B"x"Q"xi64>, %x: tensor<"N"x"M"xf32>, %c: tensor<"L"xi1>) -> ("g": tensor<"B"x"C"xf32>, "z": tensor<"N"x2xf32>) {
  %g = "onnx.GatherND"(%d, %idx) {batch_dims = 1} : (tensor<"B"x"R"x"C"xf32>, tensor<"B"x"Q"xi64>) -> tensor<"B"x"C"xf32>
  %z = "onnx.Compress"(%x, %c) {axis = 1} : (tensor<"N"x"M"xf32>, tensor<"L"xi1>) -> tensor<"N"x2xf32>
  onnx.return %g, %z
}
"#;

#[test]
fn gather_nd_and_compress_take_symbolic_sizes() {
    let bools = |v: &[u8]| Tensor::from_bytes(ElemType::Bool, &[v.len() as i64], v).unwrap();
    let inputs = |b: i64, r: i64, c: i64, q: i64, n: i64, m: i64, cond: &[u8]| {
        let idx: Vec<i64> = (0..b * q).map(|i| (i * 7) % r.max(1) - (i % 2)).collect();
        vec![
            floats(&[b, r, c], 1),
            ints(&[b, q], idx.clone()),
            floats(&[n, m], 2),
            bools(cond),
        ]
    };
    let runs = vec![
        (
            vec![2, 3, 4, 1, 3, 4, 3],
            inputs(2, 3, 4, 1, 3, 4, &[1, 0, 1]),
        ),
        (
            vec![5, 2, 1, 1, 1, 3, 3],
            inputs(5, 2, 1, 1, 1, 3, &[0, 1, 1]),
        ),
    ];
    let bad = [
        // Index rows of two entries; three true entries for two columns.
        inputs(2, 3, 4, 2, 3, 4, &[1, 0, 1, 0]),
        inputs(2, 3, 4, 1, 3, 4, &[1, 1, 1, 0]),
    ];
    matches_static_runs(INDEXED, &["B", "R", "C", "Q", "N", "M", "L"], &runs, &bad);
}

/// QLinearMatMul of batched operands whose batch dims broadcast at run
/// time, its zero points and scales of symbolic sizes (a's zero point per
/// row or per tensor, decided at run time; the scales one element), and
/// DynamicQuantizeLinear.
const QUANTIZED: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 21}}
onnx.graph "g"(%a: tensor<"P"x"M"x"K"xui8>, %as: tensor<"S"xf32>, %az: tensor<"Z"xui8>, %b: tensor<"Q"x"K"x"N"xui8>, %bs: tensor<"S"xf32>, %bz: tensor<"S"xui8>, %ys: tensor<"S"xf32>, %yz: tensor<"S"xui8>, %x: tensor<"L"xf32>) -> ("y": tensor<?x"M"x"N"xui8>, "q": tensor<"L"xui8>, "s": tensor<f32>, "z": tensor<ui8>) {
  %y = "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<"P"x"M"x"K"xui8>, tensor<"S"xf32>, tensor<"Z"xui8>, tensor<"Q"x"K"x"N"xui8>, tensor<"S"xf32>, tensor<"S"xui8>, tensor<"S"xf32>, tensor<"S"xui8>) -> tensor<?x"M"x"N"xui8>
  %q, %s, %z = "onnx.DynamicQuantizeLinear"(%x) : (tensor<"L"xf32>) -> (tensor<"L"xui8>, tensor<f32>, tensor<ui8>)
  onnx.return %y, %q, %s, %z
}
"#;

#[test]
fn integer_products_read_parameters_of_run_time_sizes() {
    let bytes = |shape: &[i64], seed: u64| {
        let n = shape.iter().product::<i64>() as usize;
        let v: Vec<u8> = values(n, seed)
            .iter()
            .map(|x| ((x + 1.0) * 100.0) as u8)
            .collect();
        Tensor::from_bytes(ElemType::U8, shape, &v).unwrap()
    };
    let inputs = |p: i64, q: i64, m: i64, k: i64, n: i64, z: i64, s: i64| {
        let scale = |v: f32| Tensor::from_vec(vec![s], vec![v; s as usize]).unwrap();
        vec![
            bytes(&[p, m, k], 1),
            scale(0.05),
            bytes(&[z], 2),
            bytes(&[q, k, n], 3),
            scale(0.1),
            bytes(&[s], 4),
            scale(2.0),
            bytes(&[s], 5),
            floats(&[m * k], 6),
        ]
    };
    // Sizes P, Q, M, K, N, Z, S, L (L = M·K, the DynamicQuantizeLinear's).
    let runs: Vec<(Vec<i64>, Vec<Tensor>)> =
        [(2, 1, 3, 4, 2, 3), (1, 3, 2, 5, 3, 1), (2, 2, 1, 1, 1, 1)]
            .into_iter()
            .map(|(p, q, m, k, n, z)| {
                let sizes = vec![p, q, m, k, n, z, 1, m * k];
                (sizes, inputs(p, q, m, k, n, z, 1))
            })
            .collect();
    let bad = [
        // Batch sizes 2 and 3; a zero point of 2 for 3 rows; scales of 2.
        inputs(2, 3, 3, 4, 2, 3, 1),
        inputs(1, 1, 3, 4, 2, 2, 1),
        inputs(1, 1, 3, 4, 2, 3, 2),
    ];
    matches_static_runs(
        QUANTIZED,
        &["P", "Q", "M", "K", "N", "Z", "S", "L"],
        &runs,
        &bad,
    );
}

// Size variants: a model with dynamic input sizes compiled once by the JIT
// runs each new size on code compiled for it, kept in a bounded cache,
// and agrees with its general code at every size.

/// A small CNN with a dynamic batch: a padded 3×3 convolution, ReLU,
/// Flatten and a product, so that the variant folds the batch into a
/// convolution the general code runs with a symbolic size.
const CNN: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "cnn"(%x: tensor<"N"x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %w2: tensor<256x5xf32>) -> ("y": tensor<?x?xf32>) {
  %c = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<"N"x3x8x8xf32>, tensor<4x3x3x3xf32>) -> !onnx.unknown
  %r = "onnx.Relu"(%c) : (!onnx.unknown) -> !onnx.unknown
  %f = "onnx.Flatten"(%r) : (!onnx.unknown) -> !onnx.unknown
  %y = "onnx.MatMul"(%f, %w2) : (!onnx.unknown, tensor<256x5xf32>) -> tensor<?x?xf32>
  onnx.return %y
}
"#;

/// The CNN's inputs at batch `n`.
fn inputs(n: usize) -> Vec<Tensor> {
    vec![
        Tensor::from_vec(vec![n as i64, 3, 8, 8], values(n * 192, n as u64)).unwrap(),
        Tensor::from_vec(vec![4, 3, 3, 3], values(108, 100)).unwrap(),
        Tensor::from_vec(vec![256, 5], values(1280, 101)).unwrap(),
    ]
}

fn with_variants(max_variants: usize) -> CompileOptions {
    CompileOptions {
        max_variants,
        ..CompileOptions::default()
    }
}

/// `model`'s output at batch `n`.
fn output(model: &CompiledModel, n: usize) -> Vec<f32> {
    let out = model.run(&inputs(n)).unwrap();
    assert_eq!(out[0].shape(), [n as i64, 5]);
    out[0].to_vec::<f32>().unwrap()
}

fn assert_close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (j, (a, b)) in got.iter().zip(want).enumerate() {
        assert!(
            (a - b).abs() <= 1e-4 + 1e-4 * b.abs(),
            "{what} [{j}]: {a} vs {b}"
        );
    }
}

/// The CNN at batch `n` computed directly (a padded 3×3 convolution,
/// ReLU, a product): the reference, which shares nothing with the compiler.
fn cnn_reference(n: usize) -> Vec<f32> {
    let ins = inputs(n);
    let [x, w, w2] = [0, 1, 2].map(|k| ins[k].to_vec::<f32>().unwrap());
    let mut features = vec![0f32; n * 256];
    for b in 0..n {
        for m in 0..4 {
            for (i, j) in (0..8).flat_map(|i| (0..8).map(move |j| (i, j))) {
                let mut acc = 0f32;
                for (c, ki, kj) in (0..3).flat_map(|c| (0..9).map(move |k| (c, k / 3, k % 3))) {
                    // Input row i + ki - 1, column j + kj - 1; 0 in the padding.
                    let (y, z) = (i + ki, j + kj);
                    if (1..=8).contains(&y) && (1..=8).contains(&z) {
                        let at = ((b * 3 + c) * 8 + y - 1) * 8 + z - 1;
                        acc += x[at] * w[((m * 3 + c) * 3 + ki) * 3 + kj];
                    }
                }
                features[b * 256 + (m * 8 + i) * 8 + j] = acc.max(0.0);
            }
        }
    }
    matmul(&features, &w2, 256, 5)
}

/// Runs `compiled` and `general` at each batch of `batches` and compares
/// both with the reference.
fn agree(compiled: &CompiledModel, general: &CompiledModel, batches: &[usize]) {
    for &n in batches {
        let want = cnn_reference(n);
        assert_close(&output(compiled, n), &want, &format!("N={n}"));
        assert_close(&output(general, n), &want, &format!("N={n}, general code"));
    }
}

#[test]
fn each_size_of_one_session_gets_its_own_variant() {
    let model = onnx_mlc_dialect::parse_model(CNN).unwrap();
    let general = Engine::compile(&model, &with_variants(0)).unwrap();
    let compiled = Engine::compile(&model, &CompileOptions::default()).unwrap();
    assert!(compiled.variant_sizes().is_empty(), "nothing ran yet");
    // The first runs start the compiles and take the general code.
    agree(&compiled, &general, &[1, 3]);
    compiled.wait_for_variants();
    assert_eq!(compiled.variant_sizes(), [[1], [3]]);
    agree(&compiled, &general, &[1, 3, 1]);
    general.wait_for_variants();
    assert!(general.variant_sizes().is_empty());
}

#[test]
fn the_cache_is_bounded_and_other_sizes_run_on_the_general_code() {
    let model = onnx_mlc_dialect::parse_model(CNN).unwrap();
    let general = Engine::compile(&model, &with_variants(0)).unwrap();
    let compiled = Engine::compile(&model, &with_variants(2)).unwrap();
    agree(&compiled, &general, &[2, 1, 4, 5]);
    compiled.wait_for_variants();
    agree(&compiled, &general, &[2, 1, 4, 5]);
    compiled.wait_for_variants();
    assert_eq!(compiled.variant_sizes(), [[2], [1]]);
}

#[test]
fn a_model_with_static_inputs_has_no_variants() {
    let model = onnx_mlc_dialect::parse_model(&CNN.replace("\"N\"x", "2x")).unwrap();
    let compiled = Engine::compile(&model, &CompileOptions::default()).unwrap();
    output(&compiled, 2);
    compiled.wait_for_variants();
    assert!(compiled.variant_sizes().is_empty());
}

#[test]
fn sizes_the_model_rejects_get_the_general_codes_error() {
    let model = onnx_mlc_dialect::parse_model(
        r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "add"(%a: tensor<"N"x4xf32>, %b: tensor<"N"x4xf32>) -> ("y": tensor<"N"x4xf32>) {
  %y = "onnx.Add"(%a, %b) : (tensor<"N"x4xf32>, tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
  onnx.return %y
}
"#,
    )
    .unwrap();
    let compiled = Engine::compile(&model, &CompileOptions::default()).unwrap();
    let a = Tensor::from_vec(vec![2, 4], values(8, 1)).unwrap();
    let b = Tensor::from_vec(vec![3, 4], values(12, 2)).unwrap();
    let err = compiled.run(&[a.clone(), b]).unwrap_err().to_string();
    assert!(err.contains("bound \"N\" to 2"), "{err}");
    compiled.wait_for_variants();
    assert!(
        compiled.variant_sizes().is_empty(),
        "those sizes do not compile"
    );
    let want: Vec<f32> = a.to_vec::<f32>().unwrap().iter().map(|v| v + v).collect();
    for _ in 0..2 {
        let sum = compiled.run(&[a.clone(), a.clone()]).unwrap();
        assert_eq!(sum[0].to_vec::<f32>().unwrap(), want);
        compiled.wait_for_variants();
    }
    assert_eq!(compiled.variant_sizes(), [[2, 2]]);
}

#[test]
fn threads_running_the_same_sizes_share_one_variant() {
    let model = onnx_mlc_dialect::parse_model(CNN).unwrap();
    let want: Vec<Vec<f32>> = (1..=2).map(cnn_reference).collect();
    let compiled = Arc::new(Engine::compile(&model, &CompileOptions::default()).unwrap());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let compiled = compiled.clone();
            std::thread::spawn(move || {
                (0..40)
                    .map(|k| {
                        let n = 1 + (t + k) % 2;
                        (n, output(&compiled, n))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for thread in threads {
        for (n, got) in thread.join().unwrap() {
            assert_close(&got, &want[n - 1], &format!("N={n}"));
        }
    }
    compiled.wait_for_variants();
    let mut sizes = compiled.variant_sizes();
    sizes.sort();
    assert_eq!(sizes, [[1], [2]]);
}

/// A network over a symbolic batch whose kernels all run image by image
/// in the general code: a padded convolution with BatchNormalization and
/// ReLU, a MaxPool, a residual Add, a Transpose that keeps the batch
/// first, a batched product with a weight, Softmax and LayerNormalization
/// over the last axis, a Concat and a Slice along other axes.
const IMAGES: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "images"(%x: tensor<"N"x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>, %g: tensor<4xf32>) -> ("y": tensor<?x?x?x?xf32>) {
  %c = "onnx.Conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<"N"x3x8x8xf32>, tensor<4x3x3x3xf32>) -> !onnx.unknown
  %n = "onnx.BatchNormalization"(%c, %s, %b, %m, %v) : (!onnx.unknown, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  %r = "onnx.Relu"(%n) : (!onnx.unknown) -> !onnx.unknown
  %q = "onnx.MaxPool"(%r) {kernel_shape = [2, 2], strides = [2, 2]} : (!onnx.unknown) -> !onnx.unknown
  %e = "onnx.Add"(%q, %q) : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %t = "onnx.Transpose"(%e) {perm = [0, 2, 3, 1]} : (!onnx.unknown) -> !onnx.unknown
  %h = "onnx.MatMul"(%t, %p) : (!onnx.unknown, tensor<4x4xf32>) -> !onnx.unknown
  %a = "onnx.Softmax"(%h) {axis = -1} : (!onnx.unknown) -> !onnx.unknown
  %l = "onnx.LayerNormalization"(%a, %g) {axis = -1} : (!onnx.unknown, tensor<4xf32>) -> !onnx.unknown
  %k = "onnx.Concat"(%l, %t) {axis = 3} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %starts = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = "onnx.Constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %y = "onnx.Slice"(%k, %starts, %ends, %axes) : (!onnx.unknown, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x?x?xf32>
  onnx.return %y
}
"#;

#[test]
fn kernels_run_image_by_image_agree_with_one_image_at_a_time() {
    let model = onnx_mlc_dialect::parse_model(IMAGES).unwrap();
    let one = onnx_mlc_dialect::parse_model(&IMAGES.replace("\"N\"x", "1x")).unwrap();
    let batched = Engine::compile(&model, &general()).unwrap();
    let single = Engine::compile(&one, &general()).unwrap();
    let params: Vec<Tensor> = [
        (vec![4, 3, 3, 3], 1),
        (vec![4], 2),
        (vec![4], 3),
        (vec![4], 4),
    ]
    .into_iter()
    .map(|(dims, seed)| {
        let n = dims.iter().product::<i64>() as usize;
        Tensor::from_vec(dims, values(n, seed)).unwrap()
    })
    .chain([
        // A positive variance.
        Tensor::from_vec(vec![4], vec![0.5f32, 1.0, 1.5, 2.0]).unwrap(),
        Tensor::from_vec(vec![4, 4], values(16, 6)).unwrap(),
        Tensor::from_vec(vec![4], values(4, 7)).unwrap(),
    ])
    .collect();
    let n = 3;
    let x = values(n * 192, 8);
    let mut inputs = vec![Tensor::from_vec(vec![n as i64, 3, 8, 8], x.clone()).unwrap()];
    inputs.extend(params.iter().cloned());
    let got = batched.run(&inputs).unwrap();
    assert_eq!(got[0].shape(), [3, 3, 4, 8]);
    let got = got[0].to_vec::<f32>().unwrap();
    let per_image = got.len() / n;
    for (i, image) in x.chunks(192).enumerate() {
        let mut inputs = vec![Tensor::from_vec(vec![1, 3, 8, 8], image.to_vec()).unwrap()];
        inputs.extend(params.iter().cloned());
        let want = single.run(&inputs).unwrap()[0].to_vec::<f32>().unwrap();
        let what = format!("image {i}");
        assert_close(&got[i * per_image..(i + 1) * per_image], &want, &what);
    }
}
