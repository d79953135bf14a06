//! Soundness of the e-graph optimizer, differentially: models evaluated by
//! the reference interpreter (`onnx_mlc_tests::reference`) before and after
//! optimization must agree within tolerance — random small graphs built
//! from the motifs the rules rewrite, and the real models. Also: the
//! optimizer without rules gives the graph back (names included), and the
//! interpreter itself matches a real model's expected outputs.

use std::path::Path;

use onnx_mlc_dialect::ir::{NewOp, OpsetImport};
use onnx_mlc_dialect::passes::{pass, DEFAULT_PIPELINE};
use onnx_mlc_dialect::{Attr, Attrs, ElemType, Model, OpKind, TensorData, Type, Value};
use onnx_mlc_optimizer::{optimize, OptimizeOptions, RuleSet, Target};
use onnx_mlc_tests::reference::{max_rel_diff, run, Tensor};

const TOLERANCE: f32 = 2e-4;

fn load(path: &Path) -> Model {
    let mut model = onnx_mlc_import::load_model(path, &Default::default())
        .expect("imports")
        .model;
    for name in DEFAULT_PIPELINE {
        (pass(name).expect("a pass").run)(&mut model).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    model
}

/// Deterministic pseudo-random numbers (an LCG), in [-1, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn float(&mut self) -> f32 {
        (self.next() % 2_000_000) as f32 / 1_000_000.0 - 1.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn floats(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.float()).collect()
    }
}

/// Random inputs for a model's arguments: f32 in [-1, 1); i64 token ids
/// in [0, 100), except masks (all 1) and token types (all 0).
fn inputs_for(model: &Model, rng: &mut Rng) -> Vec<Tensor> {
    let region = model.ir.region(model.graph);
    region
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| {
            let t = model.ir.ty(a.value).as_tensor().expect("tensor inputs");
            let dims: Vec<usize> = t
                .static_dims()
                .expect("static inputs")
                .iter()
                .map(|&d| d as usize)
                .collect();
            let n = dims.iter().product();
            let name = model.ir.value(a.value).name.clone().unwrap_or_default();
            match t.elem {
                ElemType::F32 => Tensor::F32(dims, rng.floats(n)),
                ElemType::I64 if name.contains("mask") => Tensor::I64(dims, vec![1; n]),
                ElemType::I64 if name.contains("type") => Tensor::I64(dims, vec![0; n]),
                ElemType::I64 => Tensor::I64(dims, (0..n).map(|_| rng.below(100) as i64).collect()),
                e => panic!("no random inputs of type {e}"),
            }
        })
        .collect()
}

/// Optimizes a copy of `model` with `options` and checks that both give
/// the same outputs on `inputs`.
fn assert_same_outputs(
    model: &Model,
    options: &OptimizeOptions,
    inputs: &[Tensor],
    what: &str,
) -> (Model, Vec<&'static str>) {
    let expected =
        run(model, inputs).unwrap_or_else(|e| panic!("{what}: reference run failed: {e}\n{model}"));
    let mut optimized = model.clone();
    let report =
        optimize(&mut optimized, options).unwrap_or_else(|e| panic!("{what}: {e}\n{model}"));
    let got = run(&optimized, inputs)
        .unwrap_or_else(|e| panic!("{what}: optimized run failed: {e}\n{optimized}"));
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        let d = max_rel_diff(g, e).unwrap_or_else(|| panic!("{what}: output {i} changed shape"));
        assert!(
            d <= TOLERANCE,
            "{what}: output {i} differs by {d}\n{report}\nbefore:\n{model}\nafter:\n{optimized}"
        );
    }
    (
        optimized,
        report.applied.iter().map(|(name, _)| *name).collect(),
    )
}

/// A small model under construction.
struct Builder {
    model: Model,
    rng: Rng,
    values: Vec<(Value, Vec<usize>)>,
}

impl Builder {
    fn new(seed: u64, input: &[usize]) -> Builder {
        let mut model = Model::new(
            "random",
            vec![OpsetImport {
                domain: String::new(),
                version: 17,
            }],
        );
        let dims: Vec<i64> = input.iter().map(|&d| d as i64).collect();
        let x = model.ir.add_arg(
            model.graph,
            Some("x".into()),
            Type::tensor(ElemType::F32, &dims),
        );
        Builder {
            model,
            rng: Rng(seed),
            values: vec![(x, input.to_vec())],
        }
    }

    fn op(&mut self, kind: OpKind, inputs: &[Option<Value>], attrs: Vec<(&str, Attr)>) -> Value {
        let version = kind.schema(17).expect("in opset 17").since_version;
        let op = self.model.ir.append_op(
            self.model.graph,
            NewOp {
                kind,
                version,
                inputs: inputs.to_vec(),
                results: vec![Some((None, Type::Unknown))],
                attrs: Attrs(attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect()),
                name: String::new(),
            },
        );
        self.model.ir.op(op).results[0].expect("one result")
    }

    fn constant(&mut self, data: TensorData) -> Value {
        let ty = Type::Tensor(data.ty());
        let version = OpKind::Constant.schema(17).expect("Constant").since_version;
        let op = self.model.ir.append_op(
            self.model.graph,
            NewOp {
                kind: OpKind::Constant,
                version,
                inputs: vec![],
                results: vec![Some((None, ty))],
                attrs: Attrs(vec![("value".into(), Attr::Tensor(data))]),
                name: String::new(),
            },
        );
        self.model.ir.op(op).results[0].expect("one result")
    }

    fn floats(&mut self, dims: &[usize]) -> Value {
        let v = self.rng.floats(dims.iter().product());
        self.constant(
            TensorData::from_vec(dims.iter().map(|&d| d as i64).collect(), &v).expect("sized"),
        )
    }

    fn fill(&mut self, dims: &[usize], v: f32) -> Value {
        let n = dims.iter().product();
        self.constant(
            TensorData::from_vec(dims.iter().map(|&d| d as i64).collect(), &vec![v; n])
                .expect("sized"),
        )
    }

    fn ints(&mut self, v: &[i64]) -> Value {
        self.constant(TensorData::i64s(v))
    }

    /// A value of the given rank made so far, if any.
    fn pick(&mut self, rank: usize) -> Option<(Value, Vec<usize>)> {
        let of_rank: Vec<_> = self
            .values
            .iter()
            .filter(|(_, d)| d.len() == rank)
            .cloned()
            .collect();
        (!of_rank.is_empty()).then(|| of_rank[self.rng.below(of_rank.len())].clone())
    }

    fn push(&mut self, v: Value, dims: Vec<usize>) {
        self.values.push((v, dims));
    }

    /// Applies one random motif that some rule rewrites.
    fn motif(&mut self) {
        let rank = if self.pick(4).is_some() && self.rng.below(2) == 0 {
            4
        } else {
            3
        };
        let Some((x, d)) = self.pick(rank).or_else(|| self.pick(4)) else {
            return;
        };
        let r = d.len();
        match self.rng.below(15) {
            0 => {
                // x + 0, x · 1, x / 1, x - 0 (a neutral operand, sometimes a broadcast one)
                let kind = [OpKind::Add, OpKind::Mul, OpKind::Div, OpKind::Sub][self.rng.below(4)];
                let neutral = if matches!(kind, OpKind::Add | OpKind::Sub) {
                    0.0
                } else {
                    1.0
                };
                let c = self.fill(&d[r - 1..], neutral);
                let y = self.op(kind, &[Some(x), Some(c)], vec![]);
                self.push(y, d);
            }
            1 => {
                // Transpose(Transpose(x)) and a unary op between
                let p: Vec<i64> = (0..r as i64).rev().collect();
                let t = self.op(
                    OpKind::Transpose,
                    &[Some(x)],
                    vec![("perm", Attr::Ints(p.clone()))],
                );
                let unary = [OpKind::Relu, OpKind::Tanh, OpKind::Sigmoid][self.rng.below(3)];
                let u = self.op(unary, &[Some(t)], vec![]);
                let y = self.op(OpKind::Transpose, &[Some(u)], vec![("perm", Attr::Ints(p))]);
                self.push(y, d);
            }
            2 => {
                // Reshape(Reshape(x, flat), dims) and Identity
                let flat = self.ints(&[-1]);
                let f = self.op(OpKind::Reshape, &[Some(x), Some(flat)], vec![]);
                let shape = self.ints(&d.iter().map(|&v| v as i64).collect::<Vec<_>>());
                let y = self.op(OpKind::Reshape, &[Some(f), Some(shape)], vec![]);
                let y = self.op(OpKind::Identity, &[Some(y)], vec![]);
                self.push(y, d);
            }
            3 => {
                // GELU spelled with Erf
                let s = self.fill(&[], std::f32::consts::SQRT_2);
                let q = self.op(OpKind::Div, &[Some(x), Some(s)], vec![]);
                let e = self.op(OpKind::Erf, &[Some(q)], vec![]);
                let one = self.fill(&[], 1.0);
                let a = self.op(OpKind::Add, &[Some(e), Some(one)], vec![]);
                let m = self.op(OpKind::Mul, &[Some(x), Some(a)], vec![]);
                let half = self.fill(&[], 0.5);
                let y = self.op(OpKind::Mul, &[Some(m), Some(half)], vec![]);
                self.push(y, d);
            }
            4 => {
                // MatMul + bias + Relu
                let (k, n) = (d[r - 1], 4 + self.rng.below(8));
                let w = self.floats(&[k, n]);
                let b = self.floats(&[n]);
                let mm = self.op(OpKind::MatMul, &[Some(x), Some(w)], vec![]);
                let a = self.op(OpKind::Add, &[Some(b), Some(mm)], vec![]);
                let y = self.op(OpKind::Relu, &[Some(a)], vec![]);
                let mut dy = d.clone();
                dy[r - 1] = n;
                self.push(y, dy);
            }
            5 => {
                // parallel MatMuls sharing x (multi-pattern), combined
                let k = d[r - 1];
                let (w1, w2) = (self.floats(&[k, k]), self.floats(&[k, k]));
                let a = self.op(OpKind::MatMul, &[Some(x), Some(w1)], vec![]);
                let b = self.op(OpKind::MatMul, &[Some(x), Some(w2)], vec![]);
                let t = self.op(OpKind::Tanh, &[Some(b)], vec![]);
                let y = self.op(OpKind::Add, &[Some(a), Some(t)], vec![]);
                self.push(y, d);
            }
            6 if r == 4 => {
                // Conv → BatchNormalization → Relu, with a residual when shapes allow
                let (c, m) = (d[1], d[1]);
                let w = self.floats(&[m, c, 3, 3]);
                let b = self.floats(&[m]);
                let conv = self.op(
                    OpKind::Conv,
                    &[Some(x), Some(w), Some(b)],
                    vec![("pads", Attr::Ints(vec![1, 1, 1, 1]))],
                );
                let g = self.floats(&[m]);
                let beta = self.floats(&[m]);
                let mean = self.floats(&[m]);
                let var = self.fill(&[m], 1.5);
                let bn = self.op(
                    OpKind::BatchNormalization,
                    &[Some(conv), Some(g), Some(beta), Some(mean), Some(var)],
                    vec![],
                );
                let sum = if self.rng.below(2) == 0 {
                    self.op(OpKind::Add, &[Some(bn), Some(x)], vec![])
                } else {
                    bn
                };
                let y = self.op(OpKind::Relu, &[Some(sum)], vec![]);
                self.push(y, d);
            }
            7 if r == 3 => {
                // attention over [B, S, D]
                let dd = d[2];
                let (wq, wk, wv) = (
                    self.floats(&[dd, dd]),
                    self.floats(&[dd, dd]),
                    self.floats(&[dd, dd]),
                );
                let q = self.op(OpKind::MatMul, &[Some(x), Some(wq)], vec![]);
                let k = self.op(OpKind::MatMul, &[Some(x), Some(wk)], vec![]);
                let v = self.op(OpKind::MatMul, &[Some(x), Some(wv)], vec![]);
                let kt = self.op(
                    OpKind::Transpose,
                    &[Some(k)],
                    vec![("perm", Attr::Ints(vec![0, 2, 1]))],
                );
                let s = self.op(OpKind::MatMul, &[Some(q), Some(kt)], vec![]);
                let scale = self.fill(&[], 0.125);
                let s = self.op(OpKind::Mul, &[Some(s), Some(scale)], vec![]);
                let mask = self.floats(&[d[1], d[1]]);
                let s = self.op(OpKind::Add, &[Some(s), Some(mask)], vec![]);
                let p = self.op(OpKind::Softmax, &[Some(s)], vec![("axis", Attr::Int(-1))]);
                let y = self.op(OpKind::MatMul, &[Some(p), Some(v)], vec![]);
                self.push(y, d);
            }
            8 => {
                // LayerNorm spelled out over the last axis, then scale and shift
                let axes = Attr::Ints(vec![-1]);
                let mean = self.op(OpKind::ReduceMean, &[Some(x)], vec![("axes", axes.clone())]);
                let c = self.op(OpKind::Sub, &[Some(x), Some(mean)], vec![]);
                let two = self.fill(&[], 2.0);
                let sq = self.op(OpKind::Pow, &[Some(c), Some(two)], vec![]);
                let var = self.op(OpKind::ReduceMean, &[Some(sq)], vec![("axes", axes)]);
                let eps = self.fill(&[], 1e-5);
                let ve = self.op(OpKind::Add, &[Some(var), Some(eps)], vec![]);
                let sd = self.op(OpKind::Sqrt, &[Some(ve)], vec![]);
                let n = self.op(OpKind::Div, &[Some(c), Some(sd)], vec![]);
                let g = self.floats(&d[r - 1..]);
                let y = self.op(OpKind::Mul, &[Some(n), Some(g)], vec![]);
                self.push(y, d);
            }
            9 => {
                // SiLU and x^2
                let s = self.op(OpKind::Sigmoid, &[Some(x)], vec![]);
                let y = self.op(OpKind::Mul, &[Some(x), Some(s)], vec![]);
                let two = self.fill(&[], 2.0);
                let y = self.op(OpKind::Pow, &[Some(y), Some(two)], vec![]);
                self.push(y, d);
            }
            10 => {
                // a transposed value combined with a constant and reduced
                let p: Vec<i64> = (0..r as i64).rev().collect();
                let t = self.op(OpKind::Transpose, &[Some(x)], vec![("perm", Attr::Ints(p))]);
                let dt: Vec<usize> = d.iter().rev().copied().collect();
                let c = self.floats(&dt);
                let m = self.op(OpKind::Mul, &[Some(t), Some(c)], vec![]);
                let axes = self.ints(&[0]);
                let y = self.op(
                    OpKind::ReduceSum,
                    &[Some(m), Some(axes)],
                    vec![("keepdims", Attr::Int(1))],
                );
                let mut dy = dt;
                dy[0] = 1;
                self.push(y, dy);
            }
            11 => {
                // (x · 2) · 3 and x · a + x · b
                let (c2, c3) = (self.fill(&[], 2.0), self.fill(&[], 3.0));
                let m = self.op(OpKind::Mul, &[Some(x), Some(c2)], vec![]);
                let m = self.op(OpKind::Mul, &[Some(m), Some(c3)], vec![]);
                let (a, b) = (self.floats(&d[r - 1..]), self.floats(&d[r - 1..]));
                let xa = self.op(OpKind::Mul, &[Some(m), Some(a)], vec![]);
                let xb = self.op(OpKind::Mul, &[Some(m), Some(b)], vec![]);
                let y = self.op(OpKind::Add, &[Some(xa), Some(xb)], vec![]);
                self.push(y, d);
            }
            12 if r == 4 => {
                // two convs sharing x (multi-pattern) into Clip (ReLU6)
                let c = d[1];
                let (w1, w2) = (self.floats(&[c, c, 1, 1]), self.floats(&[c, c, 1, 1]));
                let a = self.op(OpKind::Conv, &[Some(x), Some(w1)], vec![]);
                let b = self.op(OpKind::Conv, &[Some(x), Some(w2)], vec![]);
                let s = self.op(OpKind::Add, &[Some(a), Some(b)], vec![]);
                let (lo, hi) = (self.fill(&[], 0.0), self.fill(&[], 6.0));
                let y = self.op(OpKind::Clip, &[Some(s), Some(lo), Some(hi)], vec![]);
                self.push(y, d);
            }
            13 => self.pointwise(x, &d),
            _ => {
                // x / 4, Neg(Neg(x)), Cast to f32
                let four = self.fill(&[], 4.0);
                let q = self.op(OpKind::Div, &[Some(x), Some(four)], vec![]);
                let n = self.op(OpKind::Neg, &[Some(q)], vec![]);
                let n = self.op(OpKind::Neg, &[Some(n)], vec![]);
                let y = self.op(OpKind::Cast, &[Some(n)], vec![("to", Attr::Int(1))]);
                self.push(y, d);
            }
        }
    }

    /// A pointwise (1×1) convolution of `x` (of dims `d`), sometimes
    /// strided, → Relu, with a residual when the shapes allow.
    fn pointwise(&mut self, x: Value, d: &[usize]) {
        let r = d.len();
        let c = d[1];
        let k = c * (1 + self.rng.below(2));
        let stride = 1 + self.rng.below(2);
        let mut wd = vec![k, c];
        wd.resize(r, 1);
        let w = self.floats(&wd);
        let b = self.floats(&[k]);
        let strides = Attr::Ints(vec![stride as i64; r - 2]);
        let conv = self.op(
            OpKind::Conv,
            &[Some(x), Some(w), Some(b)],
            vec![("strides", strides)],
        );
        let mut dy = d.to_vec();
        dy[1] = k;
        for s in &mut dy[2..] {
            *s = s.div_ceil(stride);
        }
        let sum = if dy == d && self.rng.below(2) == 0 {
            self.op(OpKind::Add, &[Some(conv), Some(x)], vec![])
        } else {
            conv
        };
        let y = self.op(OpKind::Relu, &[Some(sum)], vec![]);
        self.push(y, dy);
    }

    /// A transformer's feed-forward block on `x` (of dims `d`, last `c`):
    /// `x · W₁ (+ b₁) → activation → · W₂ (+ b₂ or + x)`, hidden width
    /// 2048 (rows of 8 KiB: the padding rules' case); as MatMuls and Adds
    /// or, when `x` is a matrix and `gemm`, as Gemms.
    fn feed_forward(&mut self, x: Value, d: &[usize], gemm: bool) {
        const HIDDEN: usize = 2048;
        let c = d[d.len() - 1];
        let (w1, b1) = (self.floats(&[c, HIDDEN]), self.floats(&[HIDDEN]));
        let (w2, b2) = (self.floats(&[HIDDEN, c]), self.floats(&[c]));
        let gemm = gemm && d.len() == 2;
        let bias = self.rng.below(2) == 0;
        let h = if gemm {
            self.op(
                OpKind::Gemm,
                &[Some(x), Some(w1), bias.then_some(b1)],
                vec![],
            )
        } else {
            let h = self.op(OpKind::MatMul, &[Some(x), Some(w1)], vec![]);
            if bias {
                self.op(OpKind::Add, &[Some(h), Some(b1)], vec![])
            } else {
                h
            }
        };
        let h = match self.rng.below(4) {
            0 => self.op(OpKind::Relu, &[Some(h)], vec![]),
            1 => self.op(OpKind::Sigmoid, &[Some(h)], vec![]),
            2 => self.op(OpKind::Tanh, &[Some(h)], vec![]),
            _ => h,
        };
        let y = if gemm {
            self.op(OpKind::Gemm, &[Some(h), Some(w2), Some(b2)], vec![])
        } else {
            let y = self.op(OpKind::MatMul, &[Some(h), Some(w2)], vec![]);
            let z = if self.rng.below(2) == 0 { x } else { b2 };
            self.op(OpKind::Add, &[Some(y), Some(z)], vec![])
        };
        self.push(y, d.to_vec());
    }

    fn finish(mut self, outputs: usize) -> Model {
        let n = self.values.len();
        let last: Vec<Value> = self.values[n.saturating_sub(outputs)..]
            .iter()
            .map(|(v, _)| *v)
            .collect();
        for (i, v) in last.into_iter().enumerate() {
            self.model
                .ir
                .add_output(self.model.graph, format!("y{i}"), v);
        }
        let mut model = self.model;
        onnx_mlc_dialect::infer::infer_model(&mut model).expect("random models infer");
        onnx_mlc_dialect::verify::verify_model(&model)
            .unwrap_or_else(|e| panic!("random model invalid: {e}\n{model}"));
        model
    }
}

#[test]
fn random_graphs_keep_their_meaning() {
    let options = OptimizeOptions::default();
    let mut fired = std::collections::BTreeSet::new();
    for seed in 0..120u64 {
        let input: &[usize] = if seed % 2 == 0 {
            &[2, 4, 8]
        } else {
            &[1, 4, 5, 5]
        };
        let mut b = Builder::new(seed, input);
        for _ in 0..3 + seed % 4 {
            b.motif();
        }
        let model = b.finish(1 + (seed % 2) as usize);
        let mut rng = Rng(seed ^ 0x5eed);
        let inputs = inputs_for(&model, &mut rng);
        fired.extend(
            assert_same_outputs(&model, &options, &inputs, &format!("random graph {seed}")).1,
        );
    }
    // The graphs exercise most rules, or the test would prove little.
    let all = onnx_mlc_optimizer::rules::rules_of(&onnx_mlc_optimizer::RuleSet::ALL);
    let missed: Vec<&str> = all
        .iter()
        .map(|r| r.name)
        .filter(|n| !fired.contains(n))
        .collect();
    eprintln!(
        "random graphs fired {} of {} rules; not fired: {missed:?}",
        fired.len(),
        all.len()
    );
    assert!(
        fired.len() >= 30,
        "only {} rules fired: {fired:?}",
        fired.len()
    );
}

#[test]
fn each_rule_set_alone_keeps_the_meaning() {
    for set in onnx_mlc_optimizer::RuleSet::ALL {
        let options = OptimizeOptions {
            rule_sets: vec![set],
            ..OptimizeOptions::default()
        };
        for seed in 200..230u64 {
            let input: &[usize] = if seed % 2 == 0 {
                &[2, 4, 8]
            } else {
                &[1, 4, 5, 5]
            };
            let mut b = Builder::new(seed, input);
            for _ in 0..4 {
                b.motif();
            }
            let model = b.finish(1);
            let inputs = inputs_for(&model, &mut Rng(seed));
            assert_same_outputs(
                &model,
                &options,
                &inputs,
                &format!("{set} on random graph {seed}"),
            );
        }
    }
}

/// The pointwise rules where the extraction takes every product form (a
/// target without memory or per-op costs, and slow, so that the
/// convolution's lower efficiency decides): chains of pointwise
/// convolutions — batched, 1-D and 2-D, strided, with residuals — keep
/// their meaning, and no convolution is left.
#[test]
fn pointwise_products_keep_the_meaning() {
    let options = OptimizeOptions {
        rule_sets: vec![RuleSet::Fusion, RuleSet::Pointwise],
        target: Target {
            peak_flops: 1e9,
            mem_bandwidth: f64::INFINITY,
            op_overhead: 0.0,
            ..Target::default()
        },
        ..OptimizeOptions::default()
    };
    let mut fired = std::collections::BTreeSet::new();
    for seed in 300..330u64 {
        let input: &[usize] = [&[2, 4, 8][..], &[1, 4, 5, 5], &[2, 3, 6, 6]][seed as usize % 3];
        let mut b = Builder::new(seed, input);
        for _ in 0..3 {
            let (x, d) = b.values.last().cloned().expect("the input");
            b.pointwise(x, &d);
        }
        let model = b.finish(1);
        let inputs = inputs_for(&model, &mut Rng(seed));
        let what = format!("pointwise graph {seed}");
        let (optimized, applied) = assert_same_outputs(&model, &options, &inputs, &what);
        let g = optimized.ir.region(optimized.graph);
        assert!(
            g.ops
                .iter()
                .all(|&op| !matches!(optimized.ir.op(op).kind, OpKind::Conv | OpKind::FusedConv)),
            "{what}: a convolution is left\n{optimized}"
        );
        fired.extend(applied);
    }
    assert!(
        fired.contains("conv-matmul") && fired.contains("fusedconv-matmul"),
        "{fired:?}"
    );
}

/// Feed-forward blocks whose hidden width makes the extraction pad it
/// (MatMul, FusedMatMul and Gemm forms, with and without biases,
/// activations that are not 0 at 0 included) keep their meaning, and every
/// padding rule fires.
#[test]
fn padded_feed_forward_blocks_keep_the_meaning() {
    // Compute decides, as in a real model's feed-forward block (these are
    // too small for that on the default target).
    let options = OptimizeOptions {
        target: Target {
            peak_flops: 1e9,
            mem_bandwidth: f64::INFINITY,
            op_overhead: 0.0,
            ..Target::default()
        },
        ..OptimizeOptions::default()
    };
    let mut fired = std::collections::BTreeSet::new();
    for seed in 400..424u64 {
        let input: &[usize] = [&[3, 8][..], &[2, 3, 8]][seed as usize % 2];
        let mut b = Builder::new(seed, input);
        for _ in 0..2 {
            let (x, d) = b.values.last().cloned().expect("the input");
            b.feed_forward(x, &d, seed % 4 < 2);
        }
        let model = b.finish(1);
        let inputs = inputs_for(&model, &mut Rng(seed));
        let what = format!("feed-forward graph {seed}");
        let (optimized, applied) = assert_same_outputs(&model, &options, &inputs, &what);
        let g = optimized.ir.region(optimized.graph);
        let padded = g.ops.iter().any(|&op| {
            let results = &optimized.ir.op(op).results;
            results.iter().flatten().any(|&v| {
                let dims = optimized.ir.ty(v).as_tensor().and_then(|t| t.static_dims());
                dims.is_some_and(|d| d.last() == Some(&2064))
            })
        });
        assert!(
            padded,
            "{what}: the hidden width is not padded\n{optimized}"
        );
        fired.extend(applied);
    }
    for rule in [
        "pad-hidden-matmul",
        "pad-hidden-gemm",
        "pad-hidden-fusedmatmul",
    ] {
        assert!(fired.contains(rule), "{rule} never fired: {fired:?}");
    }
}

fn default_model() -> (Model, Vec<Tensor>, Vec<Tensor>) {
    let dir = onnx_mlc_tests::repo_root().join("tests/models/default");
    let model = load(&dir.join("model.onnx"));
    let read = |name: &str, ty: &Type| {
        let v = onnx_mlc_import::read_value(&dir.join("test_data_set_0").join(name), ty)
            .expect("test data");
        Tensor::from_data(v.as_tensor().expect("a tensor")).expect("f32 data")
    };
    let region = model.ir.region(model.graph);
    let input = read("input_0.pb", model.ir.ty(region.args[0].value));
    let output = read("output_0.pb", model.ir.ty(region.outputs[0].value));
    (model, vec![input], vec![output])
}

#[test]
fn reference_interpreter_matches_a_real_models_expected_outputs() {
    let (model, inputs, expected) = default_model();
    let got = run(&model, &inputs).expect("runs");
    let d = max_rel_diff(&got[0], &expected[0]).expect("same shape");
    assert!(d <= 1e-4, "the reference interpreter is off by {d}");
}

#[test]
fn optimized_real_model_matches_its_expected_outputs() {
    let (model, inputs, expected) = default_model();
    let (optimized, _) = assert_same_outputs(
        &model,
        &OptimizeOptions::default(),
        &inputs,
        "tests/models/default",
    );
    let got = run(&optimized, &inputs).expect("runs");
    let d = max_rel_diff(&got[0], &expected[0]).expect("same shape");
    assert!(d <= 1e-4, "optimized default model off by {d}");
    let ops = |m: &Model| m.ir.region(m.graph).ops.len();
    assert!(ops(&optimized) < ops(&model), "nothing was fused");
}

/// The materialized real models (`.cache/models`) small enough for the
/// reference interpreter; skipped (with a note) when not materialized.
#[test]
fn optimized_cnns_match_the_originals() {
    for name in ["mobilenet_v2", "efficientnet_b0"] {
        let path = onnx_mlc_tests::cache_dir()
            .join("models")
            .join(name)
            .join("model.onnx");
        if !path.exists() {
            eprintln!(
                "skipping {name}: {} is missing (run tools/setup.sh)",
                path.display()
            );
            continue;
        }
        let model = load(&path);
        let inputs = inputs_for(&model, &mut Rng(7));
        assert_same_outputs(&model, &OptimizeOptions::default(), &inputs, name);
    }
}

/// The big real models, before and after optimization, in the reference
/// interpreter: minutes of naive loops, so run by hand
/// (`cargo test --release -p onnx-mlc-tests --test suite big_models -- --ignored`).
#[test]
#[ignore]
fn big_models_match_the_originals() {
    for name in ["resnet50", "bert_base", "gpt2", "vit_b_16"] {
        let path = onnx_mlc_tests::cache_dir()
            .join("models")
            .join(name)
            .join("model.onnx");
        if !path.exists() {
            eprintln!("skipping {name}: not materialized");
            continue;
        }
        let model = load(&path);
        let inputs = inputs_for(&model, &mut Rng(11));
        let started = std::time::Instant::now();
        assert_same_outputs(&model, &OptimizeOptions::default(), &inputs, name);
        eprintln!(
            "{name}: outputs agree ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

/// Without rules the optimizer gives the graph back: same ops (constant
/// folding aside), every value name kept, and it verifies.
#[test]
fn round_trip_without_rules_keeps_the_graph() {
    let mut paths = vec![onnx_mlc_tests::repo_root().join("tests/models/default/model.onnx")];
    for name in [
        "resnet50",
        "bert_base",
        "gpt2",
        "mobilenet_v2",
        "efficientnet_b0",
        "vit_b_16",
        "bert_base_dynamic",
    ] {
        let p = onnx_mlc_tests::cache_dir()
            .join("models")
            .join(name)
            .join("model.onnx");
        if p.exists() {
            paths.push(p);
        } else {
            eprintln!("skipping {name}: not materialized");
        }
    }
    let options = OptimizeOptions {
        rule_sets: vec![],
        ..OptimizeOptions::default()
    };
    for path in paths {
        let model = load(&path);
        let mut out = model.clone();
        optimize(&mut out, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let names = |m: &Model| -> Vec<Option<String>> {
            let r = m.ir.region(m.graph);
            let mut v: Vec<_> = r
                .ops
                .iter()
                .flat_map(|&o| {
                    m.ir.op(o)
                        .results
                        .iter()
                        .flatten()
                        .map(|&v| m.ir.value(v).name.clone())
                })
                .collect();
            v.sort();
            v
        };
        // Where the analysis folded nothing, the graph comes back as it was,
        // op for op and in order.
        let (old_ops, new_ops) = (
            model.ir.region(model.graph).ops.clone(),
            out.ir.region(out.graph).ops.clone(),
        );
        if old_ops.len() == new_ops.len() {
            assert_eq!(old_ops, new_ops, "{}: the ops changed", path.display());
        }
        eprintln!(
            "{}: {} ops before, {} after the round trip",
            path.display(),
            old_ops.len(),
            new_ops.len()
        );
        let (before, after) = (names(&model), names(&out));
        assert!(
            after.iter().all(|n| n.is_some()),
            "{}: a value lost its name",
            path.display()
        );
        assert!(
            after.iter().all(|n| before.contains(n)),
            "{}: new values appeared",
            path.display()
        );
        let outs = |m: &Model| {
            m.ir.region(m.graph)
                .outputs
                .iter()
                .map(|o| o.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(outs(&model), outs(&out));
    }
}

/// Every ONNX backend model that imports and passes the default pipeline
/// optimizes without error (the result verifies: `optimize` checks), and
/// where the reference interpreter runs a model and matches its expected
/// outputs, the optimized model matches them too.
#[test]
fn backend_models_optimize_and_keep_their_outputs() {
    let Some(root) = onnx_mlc_tests::backend_dir() else {
        eprintln!("skipping: no ONNX backend test data");
        return;
    };
    let (mut optimized, mut compared) = (0, 0);
    for suite in ["node", "simple", "pytorch-converted", "pytorch-operator"] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(suite))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let Ok(imported) =
                onnx_mlc_import::load_model(&dir.join("model.onnx"), &Default::default())
            else {
                continue;
            };
            let mut model = imported.model;
            if DEFAULT_PIPELINE
                .iter()
                .any(|name| (pass(name).expect("a pass").run)(&mut model).is_err())
            {
                continue;
            }
            let before = model.clone();
            optimize(&mut model, &OptimizeOptions::default())
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            optimized += 1;
            compared += usize::from(outputs_agree(&before, &model, &dir));
        }
    }
    eprintln!(
        "{optimized} backend models optimized, {compared} compared with their expected outputs"
    );
    assert!(
        optimized > 1000 && compared > 100,
        "{optimized} optimized, {compared} compared"
    );
}

/// Whether both models could be compared on the case's first test data
/// set (the reference runs the original and matches the expected
/// outputs); panics when the optimized model then disagrees.
fn outputs_agree(before: &Model, after: &Model, dir: &Path) -> bool {
    let set = dir.join("test_data_set_0");
    let region = before.ir.region(before.graph);
    let read = |name: String, ty: &Type| -> Option<Tensor> {
        let v = onnx_mlc_import::read_value(&set.join(name), ty).ok()?;
        Tensor::from_data(v.as_tensor()?).ok()
    };
    let inputs: Option<Vec<Tensor>> = region
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| read(format!("input_{i}.pb"), before.ir.ty(a.value)))
        .collect();
    let expected: Option<Vec<Tensor>> = region
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| read(format!("output_{i}.pb"), before.ir.ty(o.value)))
        .collect();
    let (Some(inputs), Some(expected)) = (inputs, expected) else {
        return false;
    };
    let Ok(reference) = run(before, &inputs) else {
        return false;
    };
    let close = |got: &[Tensor]| {
        got.iter()
            .zip(&expected)
            .all(|(g, e)| max_rel_diff(g, e).is_some_and(|d| d <= 1e-3))
    };
    if !close(&reference) {
        return false;
    }
    let got = run(after, &inputs)
        .unwrap_or_else(|e| panic!("{}: the optimized model does not run: {e}", dir.display()));
    assert!(
        close(&got),
        "{}: the optimized model's outputs differ from the expected ones\n{after}",
        dir.display()
    );
    true
}

/// onnxruntime on the original and on the exported optimized model
/// (`tests/scripts/check_exported.py --tolerance`): every backend model
/// and the materialized real models, optimized with the rule sets whose
/// results are standard ONNX (`pointwise` without `fusion`: MatMul, Add,
/// Reshape and Slice; the fused ops of the internal domain are not ONNX,
/// so `canonical` and `fusion` are checked by the reference interpreter
/// above instead).
#[test]
fn onnxruntime_runs_optimized_models_like_the_originals() {
    let python = onnx_mlc_tests::repo_root().join(".venv/bin/python");
    let Some(root) = onnx_mlc_tests::backend_dir().filter(|_| python.is_file()) else {
        eprintln!(
            "skipping: needs the ONNX backend test data and the Python venv (tools/setup.sh)"
        );
        return;
    };
    let options = OptimizeOptions {
        rule_sets: vec![
            RuleSet::Algebraic,
            RuleSet::Layout,
            RuleSet::Multi,
            RuleSet::Pointwise,
        ],
        ..OptimizeOptions::default()
    };
    let out = std::env::temp_dir().join(format!("onnx-mlc-optimized-{}", std::process::id()));
    let mut cases: Vec<(String, std::path::PathBuf, Vec<String>)> = vec![];
    for suite in ["node", "simple", "pytorch-converted", "pytorch-operator"] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(suite))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let sets: Vec<String> = (0..4)
                .map(|k| dir.join(format!("test_data_set_{k}")))
                .filter(|d| d.is_dir())
                .map(|d| format!("{}|", d.display()))
                .collect();
            let name = format!(
                "{suite}/{}",
                dir.file_name().unwrap_or_default().to_string_lossy()
            );
            cases.push((name, dir.join("model.onnx"), sets));
        }
    }
    for name in [
        "resnet50",
        "mobilenet_v2",
        "efficientnet_b0",
        "bert_base",
        "gpt2",
        "vit_b_16",
    ] {
        let path = onnx_mlc_tests::cache_dir()
            .join("models")
            .join(name)
            .join("model.onnx");
        if path.exists() {
            cases.push((format!("models/{name}"), path, vec![]));
        }
    }
    let mut manifest = String::new();
    for (name, original, sets) in &cases {
        let Ok(imported) = onnx_mlc_import::load_model(original, &Default::default()) else {
            continue;
        };
        let mut model = imported.model;
        if DEFAULT_PIPELINE
            .iter()
            .any(|p| (pass(p).expect("a pass").run)(&mut model).is_err())
        {
            continue;
        }
        optimize(&mut model, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let folder = out.join(name);
        std::fs::create_dir_all(&folder).expect("the temporary folder is writable");
        let exported = folder.join("model.onnx");
        if onnx_mlc_import::save_model(&model, &exported, &Default::default()).is_err() {
            continue;
        }
        manifest += &format!(
            "{name}\t{}\t{}\t{}\n",
            original.display(),
            exported.display(),
            sets.join("\t")
        );
    }
    std::fs::write(out.join("manifest.tsv"), manifest).expect("the manifest is written");
    let script = onnx_mlc_tests::repo_root().join("tests/scripts/check_exported.py");
    let run = std::process::Command::new(&python)
        .arg(&script)
        .args(["--tolerance", "1e-4"])
        .arg(&out)
        .output()
        .expect("the checking script runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    eprintln!("{stdout}");
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        run.status.success(),
        "optimized models differ from the originals (see above)\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
