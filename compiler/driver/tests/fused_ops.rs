//! The optimizer's internal ops (`omlc.FusedMatMul`, `omlc.FusedGemm`,
//! `omlc.FusedAttention`, `omlc.Activation`) through `Engine::compile`,
//! against direct evaluations of their contract (the dialect's
//! `ops/fused.rs`) in f64 on seeded inputs.

use onnx_mlc::{CompileOptions, Engine, Tensor};
use onnx_mlc_dialect::parse_model;
use onnx_mlc_tests::seeded_values as values;

fn ty(dims: &[i64]) -> String {
    let d: Vec<String> = dims.iter().map(i64::to_string).collect();
    format!("tensor<{}xf32>", d.join("x"))
}

/// Compiles a one-op model (`op` with `attrs` on inputs of `dims`, result
/// of `out`) and runs it on `inputs`.
fn run(op: &str, attrs: &str, dims: &[&[i64]], out: &[i64], inputs: &[Vec<f32>]) -> Vec<f32> {
    run_on(1, op, attrs, dims, out, inputs)
}

/// [`run`] on `threads` threads.
fn run_on(
    threads: usize,
    op: &str,
    attrs: &str,
    dims: &[&[i64]],
    out: &[i64],
    inputs: &[Vec<f32>],
) -> Vec<f32> {
    let args: Vec<String> = dims
        .iter()
        .enumerate()
        .map(|(i, d)| format!("%x{i}: {}", ty(d)))
        .collect();
    let names: Vec<String> = (0..dims.len()).map(|i| format!("%x{i}")).collect();
    let types: Vec<String> = dims.iter().map(|d| ty(d)).collect();
    let text = format!(
        "onnx.model {{ir_version = 10, opset_imports = {{\"\" = 17, \"onnx_mlc\" = 1}}}}\n\
         onnx.graph \"g\"({}) -> (\"y\": {}) {{\n\
         %y = \"omlc.{op}\"({}) {attrs} : ({}) -> {}\n\
         onnx.return %y\n}}\n",
        args.join(", "),
        ty(out),
        names.join(", "),
        types.join(", "),
        ty(out)
    );
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let options = CompileOptions {
        threads,
        ..CompileOptions::default()
    };
    let compiled = Engine::compile(&model, &options).unwrap();
    let tensors: Vec<Tensor> = inputs
        .iter()
        .zip(dims)
        .map(|(v, d)| Tensor::from_slice(d, v).unwrap())
        .collect();
    let y = compiled.run(&tensors).unwrap();
    y[0].to_tensor_data()
        .to_f64s()
        .unwrap()
        .into_iter()
        .map(|v| v as f32)
        .collect()
}

fn assert_close(got: &[f32], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g as f64 - w).abs() <= 1e-4 + 1e-3 * w.abs(),
            "[{i}]: {g} vs {w}"
        );
    }
}

fn gelu(x: f64) -> f64 {
    // erf by its series (|x| is small here).
    let mut term = x / std::f64::consts::SQRT_2;
    let z2 = term * term;
    let mut erf = 0.0;
    for n in 0..60 {
        erf += term / (2 * n + 1) as f64;
        term *= -z2 / (n + 1) as f64;
    }
    0.5 * x * (1.0 + erf * 2.0 / std::f64::consts::PI.sqrt())
}

#[test]
fn fused_matmul_bias_gelu() {
    let (b, m, k, n) = (2, 3, 4, 5);
    let a = values(b * m * k, 1);
    let w = values(k * n, 2);
    let bias = values(n, 3);
    let got = run(
        "FusedMatMul",
        "{activation = \"Gelu\"}",
        &[
            &[b as i64, m as i64, k as i64],
            &[k as i64, n as i64],
            &[n as i64],
        ],
        &[b as i64, m as i64, n as i64],
        &[a.clone(), w.clone(), bias.clone()],
    );
    let mut want = vec![];
    for bi in 0..b {
        for i in 0..m {
            for j in 0..n {
                let mut s = bias[j] as f64;
                for l in 0..k {
                    s += a[(bi * m + i) * k + l] as f64 * w[l * n + j] as f64;
                }
                want.push(gelu(s));
            }
        }
    }
    assert_close(&got, &want);
}

/// A pointwise convolution's product form (`docs/rewrite-rules.md`,
/// `pointwise`): weights `[K, C]` broadcast over a batch of `[C, P]`
/// images, bias `[K, 1]`, residual `Z`, Relu; over widths that leave one
/// vector and a column (49) and a partial cache block (196 = 128 + 68).
#[test]
fn fused_matmul_pointwise_residual_relu() {
    for (n, k, c, p) in [(2, 24, 40, 49), (1, 16, 8, 196)] {
        let w = values(k * c, 10);
        let x = values(n * c * p, 11);
        let bias = values(k, 12);
        let z = values(n * k * p, 13);
        let got = run(
            "FusedMatMul",
            "{activation = \"Relu\"}",
            &[
                &[k as i64, c as i64],
                &[n as i64, c as i64, p as i64],
                &[k as i64, 1],
                &[n as i64, k as i64, p as i64],
            ],
            &[n as i64, k as i64, p as i64],
            &[w.clone(), x.clone(), bias.clone(), z.clone()],
        );
        let mut want = vec![];
        for b in 0..n {
            for i in 0..k {
                for j in 0..p {
                    let mut s = bias[i] as f64 + z[(b * k + i) * p + j] as f64;
                    for l in 0..c {
                        s += w[i * c + l] as f64 * x[(b * c + l) * p + j] as f64;
                    }
                    want.push(s.max(0.0));
                }
            }
        }
        assert_close(&got, &want);
    }
}

#[test]
fn fused_gemm_transposed_relu() {
    let (m, k, n) = (3, 4, 5);
    let a = values(k * m, 4);
    let w = values(n * k, 5);
    let c = values(n, 6);
    let got = run(
        "FusedGemm",
        "{activation = \"Relu\", alpha = 0.5, beta = 2.0, transA = 1, transB = 1}",
        &[&[k as i64, m as i64], &[n as i64, k as i64], &[n as i64]],
        &[m as i64, n as i64],
        &[a.clone(), w.clone(), c.clone()],
    );
    let mut want = vec![];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0;
            for l in 0..k {
                s += a[l * m + i] as f64 * w[j * k + l] as f64;
            }
            want.push((0.5 * s + 2.0 * c[j] as f64).max(0.0));
        }
    }
    assert_close(&got, &want);
}

/// Gemm + bias + Sigmoid (the `linalg.matmul` path: the Matmul schedule
/// with the bias and the sigmoid as its epilogue), over sizes that leave
/// partial register tiles; once an internal schedule error.
#[test]
fn fused_gemm_bias_sigmoid() {
    let (m, k, n) = (20, 40, 37);
    let a = values(m * k, 7);
    let w = values(k * n, 8);
    let c = values(n, 9);
    let got = run(
        "FusedGemm",
        "{activation = \"Sigmoid\"}",
        &[&[m as i64, k as i64], &[k as i64, n as i64], &[n as i64]],
        &[m as i64, n as i64],
        &[a.clone(), w.clone(), c.clone()],
    );
    let mut want = vec![];
    for i in 0..m {
        for j in 0..n {
            let mut s = c[j] as f64;
            for l in 0..k {
                s += a[i * k + l] as f64 * w[l * n + j] as f64;
            }
            want.push(1.0 / (1.0 + (-s).exp()));
        }
    }
    assert_close(&got, &want);
}

#[test]
fn fused_attention_with_mask() {
    attention(1, &[1, 12], (64, 64, 64, 64), Mask::Keys);
}

/// The heads run in parallel chunks, each computing its own scores.
#[test]
fn fused_attention_on_two_threads() {
    attention(2, &[1, 12], (64, 64, 64, 64), Mask::Keys);
}

/// BERT's shapes without a mask (the register tiles divide every loop).
#[test]
fn fused_attention_unmasked() {
    attention(1, &[1, 12], (128, 64, 128, 64), Mask::None);
}

/// GPT-2's causal mask: the float minimum above the diagonal.
#[test]
fn fused_attention_causal() {
    attention(2, &[1, 12], (128, 64, 128, 64), Mask::Causal);
}

/// ViT's 197 tokens (prime: partial register tiles of the rows, keys and
/// the reduction over keys) in a rank-3 batch.
#[test]
fn fused_attention_odd_sizes() {
    attention(1, &[12], (197, 64, 197, 64), Mask::None);
}

/// Sizes no tile divides, queries and keys of different lengths, and a
/// mask per head and position.
#[test]
fn fused_attention_ragged() {
    attention(1, &[2, 3], (37, 24, 29, 40), Mask::Full);
}

/// The mask operand of an attention test.
enum Mask {
    None,
    /// `[1, …, 1, sk]`: one value per key.
    Keys,
    /// `[1, …, 1, sq, sk]`: the float minimum where a key follows the query.
    Causal,
    /// `[batch…, sq, sk]`: one value per head, query and key.
    Full,
}

/// FusedAttention with scale 0.35 over `batch` dims and `(sq, d, sk, dv)`
/// against the softmax attention computed in f64.
fn attention(
    threads: usize,
    batch: &[i64],
    (sq, d, sk, dv): (usize, usize, usize, usize),
    mask: Mask,
) {
    let heads: usize = batch.iter().product::<i64>() as usize;
    let q = values(heads * sq * d, 7);
    let kt = values(heads * d * sk, 8);
    let v = values(heads * sk * dv, 9);
    let dims = |inner: &[usize]| -> Vec<i64> {
        batch
            .iter()
            .copied()
            .chain(inner.iter().map(|&x| x as i64))
            .collect()
    };
    let ones = |inner: &[usize]| -> Vec<i64> {
        batch
            .iter()
            .map(|_| 1)
            .chain(inner.iter().map(|&x| x as i64))
            .collect()
    };
    // The mask's dims and the value at (head, query, key).
    let (mask_dims, mask_values): (Option<Vec<i64>>, Vec<f32>) = match mask {
        Mask::None => (None, vec![]),
        Mask::Keys => (
            Some(ones(&[sk])),
            (0..sk)
                .map(|j| if j == 2 { -1e4 } else { 0.1 * j as f32 })
                .collect(),
        ),
        Mask::Causal => (
            Some(ones(&[sq, sk])),
            (0..sq * sk)
                .map(|x| if x % sk > x / sk { f32::MIN } else { 0.0 })
                .collect(),
        ),
        Mask::Full => (Some(dims(&[sq, sk])), values(heads * sq * sk, 10)),
    };
    let mask_at = |h: usize, i: usize, j: usize| -> f64 {
        match mask {
            Mask::None => 0.0,
            Mask::Keys => mask_values[j] as f64,
            Mask::Causal => mask_values[i * sk + j] as f64,
            Mask::Full => mask_values[(h * sq + i) * sk + j] as f64,
        }
    };
    let mut shapes = vec![dims(&[sq, d]), dims(&[d, sk]), dims(&[sk, dv])];
    let mut inputs = vec![q.clone(), kt.clone(), v.clone()];
    if let Some(m) = mask_dims {
        shapes.push(m);
        inputs.push(mask_values.clone());
    }
    let shape_refs: Vec<&[i64]> = shapes.iter().map(Vec::as_slice).collect();
    let got = run_on(
        threads,
        "FusedAttention",
        "{scale = 0.35}",
        &shape_refs,
        &dims(&[sq, dv]),
        &inputs,
    );
    let mut want = vec![];
    for h in 0..heads {
        for i in 0..sq {
            let scores: Vec<f64> = (0..sk)
                .map(|j| {
                    let mut s = 0.0;
                    for l in 0..d {
                        s += q[(h * sq + i) * d + l] as f64 * kt[(h * d + l) * sk + j] as f64;
                    }
                    0.35 * s + mask_at(h, i, j)
                })
                .collect();
            let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let exps: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
            let sum: f64 = exps.iter().sum();
            for c in 0..dv {
                let mut o = 0.0;
                for j in 0..sk {
                    o += exps[j] / sum * v[(h * sk + j) * dv + c] as f64;
                }
                want.push(o);
            }
        }
    }
    assert_close(&got, &want);
}

#[test]
fn activation_silu_and_clip() {
    let x = values(64, 10);
    let got = run(
        "Activation",
        "{activation = \"Silu\"}",
        &[&[64]],
        &[64],
        std::slice::from_ref(&x),
    );
    let want: Vec<f64> = x
        .iter()
        .map(|&v| v as f64 / (1.0 + (-(v as f64)).exp()))
        .collect();
    assert_close(&got, &want);
    let got = run(
        "Activation",
        "{activation = \"Clip\", activation_params = [-0.5, 0.25]}",
        &[&[64]],
        &[64],
        std::slice::from_ref(&x),
    );
    let want: Vec<f64> = x.iter().map(|&v| (v as f64).clamp(-0.5, 0.25)).collect();
    assert_close(&got, &want);
}

/// FusedAttention with symbolic sizes: `Q [A, S, D]`, `Kt [B, D, T]`,
/// `V [C, T, E]`, `Mask [M, S, T]` whose batch dims (`A`, `B`, `C`, `M`)
/// broadcast only at run time — the result's batch dim is their broadcast
/// atom —, compiled once and run at several sizes against the softmax
/// attention computed in f64; mismatched sizes fail with a shape error.
const SYMBOLIC_ATTENTION: &str = r#"onnx.model {ir_version = 10, opset_imports = {"" = 17, "onnx_mlc" = 1}}
onnx.graph "g"(%q: tensor<"A"x"S"x"D"xf32>, %kt: tensor<"B"x"D"x"T"xf32>, %v: tensor<"C"x"T"x"E"xf32>, %m: tensor<"M"x"S"x"T"xf32>) -> ("y": tensor<?x"S"x"E"xf32>) {
  %y = "omlc.FusedAttention"(%q, %kt, %v, %m) {scale = 0.35} : (tensor<"A"x"S"x"D"xf32>, tensor<"B"x"D"x"T"xf32>, tensor<"C"x"T"x"E"xf32>, tensor<"M"x"S"x"T"xf32>) -> tensor<?x"S"x"E"xf32>
  onnx.return %y
}
"#;

#[test]
fn fused_attention_with_symbolic_sizes() {
    let model = parse_model(SYMBOLIC_ATTENTION).unwrap();
    let compiled = Engine::compile(&model, &CompileOptions::default()).unwrap();
    // [A, B, C, M] and (S, D, T, E).
    type Case = ([usize; 4], (usize, usize, usize, usize));
    let cases: [Case; 6] = [
        ([1, 3, 3, 1], (4, 8, 5, 6)),
        ([3, 1, 3, 3], (1, 3, 7, 2)),
        ([2, 2, 1, 2], (5, 4, 1, 3)),
        ([1, 1, 1, 1], (3, 2, 3, 1)),
        ([2, 2, 2, 1], (9, 16, 33, 8)),
        ([1, 1, 4, 4], (0, 2, 3, 2)),
    ];
    for (batch, (s, d, t, e)) in cases {
        let [a, b, c, m] = batch;
        let n = batch.into_iter().max().unwrap();
        let q = values(a * s * d, 1);
        let kt = values(b * d * t, 2);
        let v = values(c * t * e, 3);
        let mask = values(m * s * t, 4);
        let tensor =
            |dims: [usize; 3], xs: &[f32]| Tensor::from_slice(&dims.map(|x| x as i64), xs).unwrap();
        let y = compiled
            .run(&[
                tensor([a, s, d], &q),
                tensor([b, d, t], &kt),
                tensor([c, t, e], &v),
                tensor([m, s, t], &mask),
            ])
            .unwrap_or_else(|err| panic!("{batch:?} {:?}: {err}", (s, d, t, e)));
        assert_eq!(y[0].shape(), [n as i64, s as i64, e as i64]);
        let at = |size: usize, h: usize| if size == 1 { 0 } else { h };
        let mut want = vec![];
        for h in 0..n {
            let (hq, hk, hv, hm) = (at(a, h), at(b, h), at(c, h), at(m, h));
            for i in 0..s {
                let scores: Vec<f64> = (0..t)
                    .map(|j| {
                        let dot: f64 = (0..d)
                            .map(|l| {
                                q[(hq * s + i) * d + l] as f64 * kt[(hk * d + l) * t + j] as f64
                            })
                            .sum();
                        0.35 * dot + mask[(hm * s + i) * t + j] as f64
                    })
                    .collect();
                let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let exps: Vec<f64> = scores.iter().map(|x| (x - max).exp()).collect();
                let sum: f64 = exps.iter().sum();
                for col in 0..e {
                    want.push(
                        (0..t)
                            .map(|j| exps[j] / sum * v[(hv * t + j) * e + col] as f64)
                            .sum::<f64>(),
                    );
                }
            }
        }
        let got: Vec<f32> = y[0].to_vec::<f32>().unwrap();
        assert_close(&got, &want);
    }
    // Batch dims 2 and 3 among Q, Kt and V, or in the mask.
    for batch in [[2, 3, 3, 1], [1, 1, 2, 3]] {
        let [a, b, c, m] = batch.map(|x: usize| x as i64);
        let (s, d, t, e) = (2, 3, 5, 2);
        let tensor = |dims: [i64; 3]| {
            let n = dims.iter().product::<i64>() as usize;
            Tensor::from_slice(&dims, &values(n, 5)).unwrap()
        };
        let err = compiled
            .run(&[
                tensor([a, s, d]),
                tensor([b, d, t]),
                tensor([c, t, e]),
                tensor([m, s, t]),
            ])
            .err()
            .unwrap_or_else(|| panic!("{batch:?} must fail"));
        assert!(err.to_string().contains("shape"), "{err}");
    }
}
