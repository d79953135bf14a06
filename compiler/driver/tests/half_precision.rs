//! Half-precision (f16) ops the lowering computes in f32 and rounds once
//! into the result, through `Engine::compile`, against the same steps in
//! f64 on the f16-rounded inputs (onnxruntime computes these ops on
//! float16 tensors the same way on CPU).

use onnx_mlc::{CompileOptions, Engine, Tensor};
use onnx_mlc_dialect::parse_model;
use onnx_mlc_tests::seeded_values as values;

/// `v` rounded to the nearest f16, as f64.
fn f16(v: f64) -> f64 {
    half::f16::from_f64(v).to_f64()
}

/// `v` as f16 values.
fn half_of(v: &[f32]) -> Vec<half::f16> {
    v.iter().map(|&x| half::f16::from_f32(x)).collect()
}

/// Compiles `text` and runs it on f16 tensors of `inputs` (shape, values).
fn run(text: &str, inputs: &[(&[i64], &[f32])]) -> Vec<f64> {
    let compiled =
        Engine::compile(&parse_model(text).unwrap(), &CompileOptions::default()).unwrap();
    let tensors: Vec<Tensor> = inputs
        .iter()
        .map(|(dims, v)| Tensor::from_vec(dims.to_vec(), half_of(v)).unwrap())
        .collect();
    let y = compiled.run(&tensors).unwrap()[0]
        .to_vec::<half::f16>()
        .unwrap();
    y.iter().map(|v| v.to_f64()).collect()
}

/// Whether `got` is within two rounding steps of f16 of `want`.
fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 2e-3 * w.abs().max(0.25),
            "[{i}]: {g} vs {w}"
        );
    }
}
/// A half-precision FusedConv with a residual and an activation (what the
/// optimizer makes of a float16-converted `Conv → Add → Relu`): the
/// convolution accumulates in f32 and rounds to f16, the epilogue adds
/// the residual and applies the activation in f32 and rounds once more,
/// as the unfused ops would. Against the same steps in f64 on the
/// f16-rounded inputs, within half a unit of f16's last place twice.
#[test]
fn fused_conv_in_half_precision_with_residual_and_activation() {
    let text = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%x: tensor<1x2x5x5xf16>, %w: tensor<3x2x3x3xf16>, %b: tensor<3xf16>, %z: tensor<1x3x5x5xf16>) -> ("y": tensor<1x3x5x5xf16>) {
  %y = "omlc.FusedConv"(%x, %w, %b, %z) {pads = [1, 1, 1, 1], activation = "LeakyRelu", activation_params = [0.1]} : (tensor<1x2x5x5xf16>, tensor<3x2x3x3xf16>, tensor<3xf16>, tensor<1x3x5x5xf16>) -> tensor<1x3x5x5xf16>
  onnx.return %y
}
"#;
    let (x, w, b, z) = (
        values(50, 21),
        values(54, 22),
        values(3, 23),
        values(75, 24),
    );
    let got = run(
        text,
        &[
            (&[1, 2, 5, 5], &x),
            (&[3, 2, 3, 3], &w),
            (&[3], &b),
            (&[1, 3, 5, 5], &z),
        ],
    );
    let r = |v: &[f32], i: usize| f16(f64::from(v[i]));
    let mut want = vec![];
    for o in 0..3 {
        for (i, j) in (0..5).flat_map(|i| (0..5).map(move |j| (i, j))) {
            let mut acc = r(&b, o);
            for c in 0..2 {
                for (di, dj) in (0..3).flat_map(|di| (0..3).map(move |dj| (di, dj))) {
                    let (p, q) = (i + di, j + dj);
                    if (1..=5).contains(&p) && (1..=5).contains(&q) {
                        acc += r(&x, c * 25 + (p - 1) * 5 + (q - 1))
                            * r(&w, ((o * 2 + c) * 3 + di) * 3 + dj);
                    }
                }
            }
            let v = f16(acc) + r(&z, o * 25 + i * 5 + j);
            want.push(f16(if v > 0.0 { v } else { 0.1 * v }));
        }
    }
    assert_close(&got, &want);
}

/// LayerNormalization of f16 tensors (what a float16-converted
/// transformer keeps): the mean and variance accumulate in f32 over the
/// last axis, Y is rounded once.
#[test]
fn layer_normalization_in_half_precision() {
    let text = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17}}
onnx.graph "g"(%x: tensor<2x3x40xf16>, %s: tensor<40xf16>, %b: tensor<40xf16>) -> ("y": tensor<2x3x40xf16>) {
  %y = "onnx.LayerNormalization"(%x, %s, %b) {axis = -1, epsilon = 1e-5} : (tensor<2x3x40xf16>, tensor<40xf16>, tensor<40xf16>) -> tensor<2x3x40xf16>
  onnx.return %y
}
"#;
    let x: Vec<f32> = values(240, 31).iter().map(|v| 3.0 * v + 1.0).collect();
    let (s, b) = (values(40, 32), values(40, 33));
    let got = run(text, &[(&[2, 3, 40], &x), (&[40], &s), (&[40], &b)]);
    let r = |v: &[f32], i: usize| f16(f64::from(v[i]));
    let mut want = vec![];
    for row in 0..6 {
        let xs: Vec<f64> = (0..40).map(|k| r(&x, row * 40 + k)).collect();
        let mean = xs.iter().sum::<f64>() / 40.0;
        let var = xs.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 40.0;
        for (k, v) in xs.iter().enumerate() {
            want.push(f16((v - mean) / (var + 1e-5).sqrt() * r(&s, k) + r(&b, k)));
        }
    }
    assert_close(&got, &want);
}
