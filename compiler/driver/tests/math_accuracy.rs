//! Accuracy of the lowering's vectorizable f32 math (`ops/math.rs` in the
//! lowering) against the C library's f64 functions, over wide input
//! sweeps: each function runs as an ONNX op through `Engine::compile` on a
//! tensor large enough to take the vectorized path. Prints and asserts the
//! maximum error in f32 ulps (of the correctly rounded result) and the
//! maximum absolute error.

use onnx_mlc::{CompileOptions, Engine, Tensor};
use onnx_mlc_dialect::parse_model;

extern "C" {
    fn erf(x: f64) -> f64;
}

/// `erf` of the C library.
fn erf_ref(x: f64) -> f64 {
    // SAFETY: `erf` is the C library's pure function of a double.
    unsafe { erf(x) }
}

/// Runs `op` (an ONNX unary op on f32) over `xs` through the compiler.
fn run(op: &str, xs: &[f32]) -> Vec<f32> {
    let n = xs.len();
    let text = format!(
        "onnx.model {{ir_version = 10, opset_imports = {{\"\" = 17}}}}\n\
         onnx.graph \"g\"(%x: tensor<{n}xf32>) -> (\"y\": tensor<{n}xf32>) {{\n\
         %y = \"onnx.{op}\"(%x) : (tensor<{n}xf32>) -> tensor<{n}xf32>\n\
         onnx.return %y\n}}\n"
    );
    let model = parse_model(&text).unwrap();
    let compiled = Engine::compile(&model, &CompileOptions::default()).unwrap();
    let out = compiled
        .run(&[Tensor::from_slice(&[n as i64], xs).unwrap()])
        .unwrap();
    out[0]
        .to_tensor_data()
        .to_f64s()
        .unwrap()
        .into_iter()
        .map(|v| v as f32)
        .collect()
}

/// The distance in f32 ulps between `got` and the f64 reference `want`.
fn ulps(got: f32, want: f64) -> f64 {
    if got as f64 == want || (got.is_nan() && want.is_nan()) {
        return 0.0;
    }
    let w = want as f32;
    let ulp = f32::from_bits(w.abs().to_bits() + 1) - w.abs();
    ((got as f64 - want) / ulp as f64).abs()
}

/// `n` points spread evenly over `[lo, hi]`.
fn sweep(lo: f32, hi: f32, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| lo + (hi - lo) * i as f32 / (n - 1) as f32)
        .collect()
}

/// Maximum ulp and absolute errors of `op` against `reference` over `xs`.
fn measure(op: &str, xs: &[f32], reference: impl Fn(f64) -> f64) -> (f64, f64) {
    let got = run(op, xs);
    let (mut max_ulp, mut max_abs) = (0f64, 0f64);
    for (&x, &g) in xs.iter().zip(&got) {
        let want = reference(x as f64);
        max_ulp = max_ulp.max(ulps(g, want));
        max_abs = max_abs.max((g as f64 - want).abs());
    }
    eprintln!("{op}: max {max_ulp:.2} ulp, max abs error {max_abs:e}");
    (max_ulp, max_abs)
}

#[test]
fn exp_accuracy() {
    let mut xs = sweep(-86.0, 88.5, 200_003);
    xs.extend(sweep(-1.0, 1.0, 20_001));
    let (ulp, _) = measure("Exp", &xs, f64::exp);
    assert!(ulp <= 2.0, "exp: {ulp} ulp");
    // The ends: overflow, underflow, NaN.
    let ends = run(
        "Exp",
        &[
            100.0,
            -200.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
        ],
    );
    assert_eq!(ends[0], f32::INFINITY);
    assert_eq!(ends[1], 0.0);
    assert!(ends[2].is_nan());
    assert_eq!(ends[3], f32::INFINITY);
    assert_eq!(ends[4], 0.0);
    assert_eq!(ends[5], 1.0);
}

#[test]
fn log_accuracy() {
    // Normal positive floats over every exponent, by their bit patterns.
    let xs: Vec<f32> = (0..200_003u32)
        .map(|i| f32::from_bits(0x0080_0000 + i * ((0x7f7f_ffff - 0x0080_0000) / 200_003)))
        .chain(sweep(0.5, 2.0, 20_001))
        .collect();
    let (ulp, _) = measure("Log", &xs, f64::ln);
    assert!(ulp <= 2.0, "log: {ulp} ulp");
    let ends = run("Log", &[0.0, -1.0, f32::INFINITY, f32::NAN, 1.0]);
    assert_eq!(ends[0], f32::NEG_INFINITY);
    assert!(ends[1].is_nan());
    assert_eq!(ends[2], f32::INFINITY);
    assert!(ends[3].is_nan());
    assert_eq!(ends[4], 0.0);
}

#[test]
fn tanh_accuracy() {
    let mut xs = sweep(-12.0, 12.0, 200_003);
    xs.extend(sweep(-0.01, 0.01, 20_001));
    let (ulp, abs) = measure("Tanh", &xs, f64::tanh);
    assert!(ulp <= 8.0 && abs <= 1e-6, "tanh: {ulp} ulp, {abs} abs");
}

#[test]
fn erf_accuracy() {
    let mut xs = sweep(-6.0, 6.0, 200_003);
    xs.extend(sweep(-0.01, 0.01, 20_001));
    let (_, abs) = measure("Erf", &xs, erf_ref);
    assert!(abs <= 1e-6, "erf: {abs} abs");
}

#[test]
fn sigmoid_accuracy() {
    let xs = sweep(-80.0, 80.0, 200_003);
    let (ulp, abs) = measure("Sigmoid", &xs, |x| 1.0 / (1.0 + (-x).exp()));
    assert!(ulp <= 4.0 && abs <= 1e-7, "sigmoid: {ulp} ulp, {abs} abs");
}
