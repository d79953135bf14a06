//! 8-bit integer products on the dot-product kernels: MatMulInteger with
//! constant weights, which the optimizer packs (`omlc.PackedMatMulInteger`,
//! the `quant` rules), compiled and run against the product computed
//! exactly in Rust, over the layouts' edges: signed and unsigned `A` and
//! `B`, zero points absent, per tensor and per column, `K` and `N` not
//! multiples of the packing's 4 and 16, rows past a multiple of 4, batch
//! dims, symbolic batch dims and rows, several column tiles (chunks) on 2 threads,
//! and the three code paths: AMX's tiles and AVX-512 VNNI's `vpdpbusd`
//! when the host has them, and the portable widening sums. Then the QDQ forms: products and
//! convolutions on the packed kernels, depthwise convolutions on the
//! channels-last `omlc.DepthwiseConv`, against the dequantized results in
//! f64.

use onnx_mlc::{CompileOptions, Engine, TargetSpec, Tensor};
use onnx_mlc_dialect::{parse_model, Model, OpKind};

/// A seeded stream of bytes (xorshift).
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// One product to check.
#[derive(Clone, Copy, Debug)]
struct Case {
    /// Batch dims before A's rows (empty: A is a matrix).
    batch: &'static [i64],
    m: i64,
    k: i64,
    n: i64,
    signed_a: bool,
    signed_b: bool,
    b_zero: BZero,
    /// Whether A's batch dims and rows are symbolic.
    symbolic_rows: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum BZero {
    Absent,
    PerTensor,
    PerColumn,
}

/// An 8-bit value of the case's type, as the i64 it stands for.
fn value(byte: u8, signed: bool) -> i64 {
    if signed {
        i64::from(byte as i8)
    } else {
        i64::from(byte)
    }
}

fn type_name(signed: bool) -> &'static str {
    if signed {
        "i8"
    } else {
        "ui8"
    }
}

/// `values` as a nested `dense<…>` literal of `dims`.
fn literal(values: &[i64], dims: &[i64]) -> String {
    match dims {
        [] => values[0].to_string(),
        [d, rest @ ..] => {
            let inner: usize = rest.iter().product::<i64>() as usize;
            let parts: Vec<String> = (0..*d as usize)
                .map(|i| literal(&values[i * inner..(i + 1) * inner], rest))
                .collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

fn shape(dims: &[i64], elem: &str) -> String {
    let mut d: Vec<String> = dims.iter().map(i64::to_string).collect();
    d.push(elem.to_string());
    format!("tensor<{}>", d.join("x"))
}

/// `bytes` as a tensor of `dims`, int8 when `signed`, else uint8.
fn int8_tensor(dims: &[i64], bytes: &[u8], signed: bool) -> Tensor {
    if signed {
        let v: Vec<i8> = bytes.iter().map(|&x| x as i8).collect();
        Tensor::from_slice(dims, &v).unwrap()
    } else {
        Tensor::from_slice(dims, bytes).unwrap()
    }
}

/// Checks that the optimizer of `options` puts `model`'s product on the
/// packed kernel, which the numbers are then checked from.
fn assert_packed(model: &Model, options: &CompileOptions, kind: OpKind, what: &str) {
    let mut optimized = model.clone();
    for name in onnx_mlc_dialect::passes::DEFAULT_PIPELINE {
        (onnx_mlc_dialect::passes::pass(name).unwrap().run)(&mut optimized).unwrap();
    }
    onnx_mlc_optimizer::optimize(&mut optimized, &options.optimizer).unwrap();
    let region = optimized.ir.region(optimized.graph);
    assert!(
        region
            .ops
            .iter()
            .any(|&op| optimized.ir.op(op).kind == kind),
        "{what}: runs on the packed kernel"
    );
}

/// Compiles and runs `case` with `options`, and checks every element
/// against the exact product.
fn check(case: Case, options: &CompileOptions, seed: u64) {
    let mut rng = Bytes(seed);
    let (m, k, n) = (case.m, case.k, case.n);
    let (ta, tb) = (type_name(case.signed_a), type_name(case.signed_b));
    let rows: i64 = case.batch.iter().product::<i64>() * m;
    let a = rng.take((rows * k) as usize);
    let b = rng.take((k * n) as usize);
    let a_zero = rng.next();
    let b_zero: Vec<u8> = match case.b_zero {
        BZero::Absent => vec![],
        BZero::PerTensor => vec![rng.next()],
        BZero::PerColumn => rng.take(n as usize),
    };
    let mut a_dims = case.batch.to_vec();
    a_dims.extend([m, k]);
    let mut y_dims = case.batch.to_vec();
    y_dims.extend([m, n]);
    let show = |dims: &[i64], elem: &str| {
        let mut t = shape(dims, elem);
        if case.symbolic_rows {
            let mut d: Vec<String> = dims.iter().map(i64::to_string).collect();
            let last = d.len() - 1;
            for (i, x) in d[..last].iter_mut().enumerate() {
                *x = format!("\"D{i}\"");
            }
            d.push(elem.to_string());
            t = format!("tensor<{}>", d.join("x"));
        }
        t
    };
    let (a_ty, y_ty) = (show(&a_dims, ta), show(&y_dims, "i32"));
    let b_values: Vec<i64> = b.iter().map(|&x| value(x, case.signed_b)).collect();
    let b_ty = shape(&[k, n], tb);
    let mut body = format!(
        "  %b = \"onnx.Constant\"() {{value = dense<{}> : {b_ty}}} : () -> {b_ty}\n",
        literal(&b_values, &[k, n])
    );
    let mut operands = "%a, %b, %az".to_string();
    let mut types = format!("{a_ty}, {b_ty}, tensor<{ta}>");
    if case.b_zero != BZero::Absent {
        let dims: Vec<i64> = if case.b_zero == BZero::PerColumn {
            vec![n]
        } else {
            vec![]
        };
        let z: Vec<i64> = b_zero.iter().map(|&x| value(x, case.signed_b)).collect();
        let z_ty = shape(&dims, tb);
        body += &format!(
            "  %bz = \"onnx.Constant\"() {{value = dense<{}> : {z_ty}}} : () -> {z_ty}\n",
            literal(&z, &dims)
        );
        operands += ", %bz";
        types += &format!(", {z_ty}");
    }
    let text = format!(
        "onnx.model {{ir_version = 8, opset_imports = {{\"\" = 17}}}}\n\
         onnx.graph \"g\"(%a: {a_ty}, %az: tensor<{ta}>) -> (\"y\": {y_ty}) {{\n{body}\
         \x20 %y = \"onnx.MatMulInteger\"({operands}) : ({types}) -> {y_ty}\n\
         \x20 onnx.return %y\n}}\n"
    );
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{case:?}: {e}"));
    assert_packed(
        &model,
        options,
        OpKind::PackedMatMulInteger,
        &format!("{case:?}"),
    );
    let compiled = Engine::compile(&model, options).unwrap_or_else(|e| panic!("{case:?}: {e}"));
    let inputs = [
        int8_tensor(&a_dims, &a, case.signed_a),
        int8_tensor(&[], &[a_zero], case.signed_a),
    ];
    let y = compiled
        .run(&inputs)
        .unwrap_or_else(|e| panic!("{case:?}: {e}"));
    let got = y[0].to_vec::<i32>().unwrap();
    let za = value(a_zero, case.signed_a);
    for r in 0..rows as usize {
        for c in 0..n as usize {
            let zb = match case.b_zero {
                BZero::Absent => 0,
                BZero::PerTensor => value(b_zero[0], case.signed_b),
                BZero::PerColumn => value(b_zero[c], case.signed_b),
            };
            let want: i64 = (0..k as usize)
                .map(|i| {
                    let x = value(a[r * k as usize + i], case.signed_a) - za;
                    let w = value(b[i * n as usize + c], case.signed_b) - zb;
                    x * w
                })
                .sum();
            assert_eq!(
                i64::from(got[r * n as usize + c]),
                want,
                "{case:?}: y[{r}, {c}]"
            );
        }
    }
}

const fn case(m: i64, k: i64, n: i64, signed_a: bool, signed_b: bool, b_zero: BZero) -> Case {
    Case {
        batch: &[],
        m,
        k,
        n,
        signed_a,
        signed_b,
        b_zero,
        symbolic_rows: false,
    }
}

/// The cases: every combination of signs and zero points, on shapes
/// whose edges differ.
const CASES: &[Case] = &[
    case(67, 64, 128, false, true, BZero::Absent),
    case(64, 61, 37, false, true, BZero::PerTensor),
    case(33, 96, 80, true, true, BZero::PerColumn),
    case(41, 130, 48, false, false, BZero::PerTensor),
    case(64, 66, 96, true, false, BZero::PerColumn),
    case(16, 256, 16, true, false, BZero::Absent),
    Case {
        batch: &[2, 3],
        ..case(13, 72, 64, false, true, BZero::Absent)
    },
    Case {
        symbolic_rows: true,
        ..case(70, 64, 112, true, true, BZero::PerTensor)
    },
    Case {
        batch: &[2, 3],
        symbolic_rows: true,
        ..case(5, 64, 64, false, true, BZero::Absent)
    },
    // AMX's tiles where the host has them (unsigned A, K a multiple of 64,
    // no zero point of B, no batch): 6 tiles of 16 rows, then 4 rows.
    Case {
        symbolic_rows: true,
        ..case(100, 192, 80, false, true, BZero::Absent)
    },
    // A sequence-first projection, `[S, 1, K]`: the tiles' rows run across
    // the batch dim (2 tiles of 16, then 8 rows).
    Case {
        batch: &[40],
        ..case(1, 128, 48, false, true, BZero::Absent)
    },
];

fn options(threads: usize, target: TargetSpec) -> CompileOptions {
    CompileOptions {
        threads,
        target,
        ..CompileOptions::default()
    }
}

#[test]
fn packed_products_are_exact_on_the_host() {
    for (i, &c) in CASES.iter().enumerate() {
        check(c, &options(1, TargetSpec::host()), 100 + i as u64);
    }
}

#[test]
fn packed_products_are_exact_on_two_threads() {
    for (i, &c) in CASES.iter().enumerate() {
        check(c, &options(2, TargetSpec::host()), 200 + i as u64);
    }
}

#[test]
fn packed_products_are_exact_without_vnni() {
    let host = TargetSpec::host();
    let features: Vec<&str> = host
        .features
        .split(',')
        .filter(|f| !f.contains("vnni") && !f.contains("amx"))
        .collect();
    let target = TargetSpec::parse(None, None, Some(&features.join(","))).unwrap();
    assert!(!target.lowering_target().dot_u8s8 && !target.lowering_target().amx_int8);
    for (i, &c) in CASES.iter().enumerate() {
        check(c, &options(1, target.clone()), 300 + i as u64);
    }
}

/// A MatMul of two DequantizeLinear (QDQ) with constant weights: `xq`
/// `[2, 64, 256]` (`signed_x`) with a per-tensor scale and zero point,
/// `W` `[256, 48]` int8 with per-column scales and zero points; with
/// `gemm`, a Gemm of `xq` `[128, 256]` and a bias instead. Compared with
/// the dequantized product in f64: the packed integer sum is exact, the
/// scaling rounds once.
fn check_qdq(signed_x: bool, gemm: bool, seed: u64) {
    let mut rng = Bytes(seed);
    let (m, k, n) = (64i64, 256i64, 48i64);
    let bias: Vec<f32> = (0..n).map(|c| c as f32 * 0.25 - 3.0).collect();
    let tx = type_name(signed_x);
    let xq = rng.take((2 * m * k) as usize);
    let w = rng.take((k * n) as usize);
    let zw: Vec<i64> = (0..n).map(|c| c % 5 - 2).collect();
    let sw: Vec<f32> = (0..n).map(|c| 0.01 + 0.001 * c as f32).collect();
    let (sx, zx) = (0.05f32, value(rng.next(), signed_x));
    let w_values: Vec<i64> = w.iter().map(|&x| value(x, true)).collect();
    let floats = |v: &[f32]| {
        let parts: Vec<String> = v.iter().map(|x| format!("{x:e}")).collect();
        format!("[{}]", parts.join(", "))
    };
    let (x_dims, y_dims) = if gemm {
        (format!("{}x{k}", 2 * m), format!("{}x{n}", 2 * m))
    } else {
        (format!("2x{m}x{k}"), format!("2x{m}x{n}"))
    };
    let x_ty = format!("tensor<{x_dims}x{tx}>");
    let product = if gemm {
        format!(
            "  %c = \"onnx.Constant\"() {{value = dense<{}> : tensor<{n}xf32>}} : () -> tensor<{n}xf32>\n\
             \x20 %y = \"onnx.Gemm\"(%x, %wf, %c) : (tensor<{x_dims}xf32>, tensor<{k}x{n}xf32>, tensor<{n}xf32>) -> tensor<{y_dims}xf32>\n",
            floats(&bias)
        )
    } else {
        format!("  %y = \"onnx.MatMul\"(%x, %wf) : (tensor<{x_dims}xf32>, tensor<{k}x{n}xf32>) -> tensor<{y_dims}xf32>\n")
    };
    let text = format!(
        "onnx.model {{ir_version = 8, opset_imports = {{\"\" = 21}}}}\n\
         onnx.graph \"g\"(%xq: {x_ty}) -> (\"y\": tensor<{y_dims}xf32>) {{\n\
         \x20 %sx = \"onnx.Constant\"() {{value = dense<{sx:e}> : tensor<f32>}} : () -> tensor<f32>\n\
         \x20 %zx = \"onnx.Constant\"() {{value = dense<{zx}> : tensor<{tx}>}} : () -> tensor<{tx}>\n\
         \x20 %w = \"onnx.Constant\"() {{value = dense<{}> : tensor<{k}x{n}xi8>}} : () -> tensor<{k}x{n}xi8>\n\
         \x20 %sw = \"onnx.Constant\"() {{value = dense<{}> : tensor<{n}xf32>}} : () -> tensor<{n}xf32>\n\
         \x20 %zw = \"onnx.Constant\"() {{value = dense<{}> : tensor<{n}xi8>}} : () -> tensor<{n}xi8>\n\
         \x20 %x = \"onnx.DequantizeLinear\"(%xq, %sx, %zx) : ({x_ty}, tensor<f32>, tensor<{tx}>) -> tensor<{x_dims}xf32>\n\
         \x20 %wf = \"onnx.DequantizeLinear\"(%w, %sw, %zw) {{axis = 1}} : (tensor<{k}x{n}xi8>, tensor<{n}xf32>, tensor<{n}xi8>) -> tensor<{k}x{n}xf32>\n\
         {product}\
         \x20 onnx.return %y\n}}\n",
        literal(&w_values, &[k, n]),
        floats(&sw),
        literal(&zw, &[n]),
    );
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e}"));
    let options = CompileOptions::default();
    assert_packed(
        &model,
        &options,
        OpKind::PackedMatMulInteger,
        &format!("QDQ (gemm: {gemm})"),
    );
    let compiled = Engine::compile(&model, &options).unwrap();
    let dims: Vec<i64> = if gemm { vec![2 * m, k] } else { vec![2, m, k] };
    let input = int8_tensor(&dims, &xq, signed_x);
    let got = compiled.run(&[input]).unwrap()[0].to_vec::<f32>().unwrap();
    for r in 0..(2 * m) as usize {
        for c in 0..n as usize {
            let sum: f64 = (0..k as usize)
                .map(|i| {
                    let x = (value(xq[r * k as usize + i], signed_x) - zx) as f64 * f64::from(sx);
                    let w = (w_values[i * n as usize + c] - zw[c]) as f64 * f64::from(sw[c]);
                    x * w
                })
                .sum::<f64>()
                + if gemm { f64::from(bias[c]) } else { 0.0 };
            let g = f64::from(got[r * n as usize + c]);
            assert!(
                (g - sum).abs() <= 1e-5 * sum.abs().max(1.0),
                "y[{r}, {c}] = {g}, want {sum}"
            );
        }
    }
}

#[test]
fn qdq_products_run_on_the_packed_kernel() {
    check_qdq(false, false, 400);
    check_qdq(true, false, 401);
    check_qdq(false, true, 402);
    check_qdq(true, true, 403);
}

/// One QDQ convolution to check: `Conv(DQ(xq), DQ(W), b)` over `[n, c, h, w]`
/// with `m` output channels in `group` groups (a depthwise one when
/// `group = c = m`), optionally quantized after.
#[derive(Clone, Copy, Debug)]
struct ConvCase {
    n: i64,
    c: i64,
    hw: [i64; 2],
    m: i64,
    kernel: [i64; 2],
    strides: [i64; 2],
    dilations: [i64; 2],
    /// Begin and end pads of both spatial dims.
    pads: [i64; 4],
    signed_x: bool,
    /// Per-channel weight zero points (else absent).
    w_zero: bool,
    bias: bool,
    /// A ConvInteger (int32 sums) instead of the QDQ convolution.
    integer: bool,
    group: i64,
    /// A QuantizeLinear after the convolution (`uint8` results).
    quantize: bool,
}

/// The QuantizeLinear after a [`ConvCase`]'s convolution.
const Y_SCALE: f64 = 0.05;
const Y_ZERO: i64 = 100;

/// Compiles and runs `case` on `threads` threads, checks that the
/// convolution runs on the packed kernel (a depthwise one on
/// DepthwiseConv), and compares every element with the dequantized
/// convolution in f64 (the integer sum is exact, the scaling rounds once;
/// the depthwise kernel sums in f32), or a ConvInteger's with the exact
/// sums; quantized results within one step.
fn check_qdq_conv(case: ConvCase, threads: usize, seed: u64) {
    let mut rng = Bytes(seed);
    let ConvCase { n, c, m, group, .. } = case;
    let cg = c / group;
    let [h, w] = case.hw;
    let [kh, kw] = case.kernel;
    let out = |i: usize| {
        let span = case.hw[i] + case.pads[i] + case.pads[i + 2];
        (span - case.dilations[i] * (case.kernel[i] - 1) - 1) / case.strides[i] + 1
    };
    let (oh, ow) = (out(0), out(1));
    let tx = type_name(case.signed_x);
    let xq = rng.take((n * c * h * w) as usize);
    let wq: Vec<i64> = rng
        .take((m * cg * kh * kw) as usize)
        .iter()
        .map(|&b| value(b, true))
        .collect();
    let zw: Vec<i64> = (0..m)
        .map(|o| if case.w_zero { o % 7 - 3 } else { 0 })
        .collect();
    let sw: Vec<f32> = (0..m).map(|o| 0.002 + 0.0005 * o as f32).collect();
    let bias: Vec<f32> = (0..m).map(|o| o as f32 * 0.125 - 2.0).collect();
    let (sx, zx) = (0.03f32, value(rng.next(), case.signed_x));
    let floats = |v: &[f32]| {
        let parts: Vec<String> = v.iter().map(|x| format!("{x:e}")).collect();
        format!("[{}]", parts.join(", "))
    };
    let ints = |v: &[i64]| format!("{v:?}");
    let x_ty = format!("tensor<{n}x{c}x{h}x{w}x{tx}>");
    let w_ty = format!("tensor<{m}x{cg}x{kh}x{kw}xi8>");
    let conv_ty = format!(
        "tensor<{n}x{m}x{oh}x{ow}x{}>",
        if case.integer { "i32" } else { "f32" }
    );
    let y_ty = if case.quantize {
        format!("tensor<{n}x{m}x{oh}x{ow}xui8>")
    } else {
        conv_ty.clone()
    };
    let (b_const, b_operand, b_type) = if case.bias {
        (
            format!("  %b = \"onnx.Constant\"() {{value = dense<{}> : tensor<{m}xf32>}} : () -> tensor<{m}xf32>\n", floats(&bias)),
            ", %b",
            format!(", tensor<{m}xf32>"),
        )
    } else {
        (String::new(), "", String::new())
    };
    let zw_operand = if case.w_zero { ", %zw" } else { "" };
    let zw_type = if case.w_zero {
        format!(", tensor<{m}xi8>")
    } else {
        String::new()
    };
    let attrs = format!(
        "{{group = {group}, kernel_shape = {}, strides = {}, dilations = {}, pads = {}}}",
        ints(&case.kernel),
        ints(&case.strides),
        ints(&case.dilations),
        ints(&case.pads),
    );
    let weights = format!(
        "\x20 %w = \"onnx.Constant\"() {{value = dense<{}> : {w_ty}}} : () -> {w_ty}\n\
         \x20 %zx = \"onnx.Constant\"() {{value = dense<{zx}> : tensor<{tx}>}} : () -> tensor<{tx}>\n\
         \x20 %zw = \"onnx.Constant\"() {{value = dense<{}> : tensor<{m}xi8>}} : () -> tensor<{m}xi8>\n",
        literal(&wq, &[m, cg, kh, kw]),
        literal(&zw, &[m]),
    );
    let body = if case.integer {
        let zw_operand = if case.w_zero { ", %zw" } else { ", none" };
        let zw_type = if case.w_zero {
            format!(", tensor<{m}xi8>")
        } else {
            ", none".into()
        };
        format!(
            "\x20 %y = \"onnx.ConvInteger\"(%xq, %w, %zx{zw_operand}) {attrs} : ({x_ty}, {w_ty}, tensor<{tx}>{zw_type}) -> {conv_ty}\n"
        )
    } else {
        format!(
            "\x20 %sx = \"onnx.Constant\"() {{value = dense<{sx:e}> : tensor<f32>}} : () -> tensor<f32>\n\
             \x20 %sw = \"onnx.Constant\"() {{value = dense<{}> : tensor<{m}xf32>}} : () -> tensor<{m}xf32>\n\
             {b_const}\
             \x20 %x = \"onnx.DequantizeLinear\"(%xq, %sx, %zx) : ({x_ty}, tensor<f32>, tensor<{tx}>) -> tensor<{n}x{c}x{h}x{w}xf32>\n\
             \x20 %wf = \"onnx.DequantizeLinear\"(%w, %sw{zw_operand}) {{axis = 0}} : ({w_ty}, tensor<{m}xf32>{zw_type}) -> tensor<{m}x{cg}x{kh}x{kw}xf32>\n\
             \x20 %y = \"onnx.Conv\"(%x, %wf{b_operand}) {attrs} : (tensor<{n}x{c}x{h}x{w}xf32>, tensor<{m}x{cg}x{kh}x{kw}xf32>{b_type}) -> {conv_ty}\n",
            floats(&sw),
        )
    };
    let (quantize, result) = if case.quantize {
        let q = format!(
            "\x20 %ys = \"onnx.Constant\"() {{value = dense<{Y_SCALE:e}> : tensor<f32>}} : () -> tensor<f32>\n\
             \x20 %yz = \"onnx.Constant\"() {{value = dense<{Y_ZERO}> : tensor<ui8>}} : () -> tensor<ui8>\n\
             \x20 %q = \"onnx.QuantizeLinear\"(%y, %ys, %yz) : ({conv_ty}, tensor<f32>, tensor<ui8>) -> {y_ty}\n"
        );
        (q, "%q")
    } else {
        (String::new(), "%y")
    };
    let text = format!(
        "onnx.model {{ir_version = 8, opset_imports = {{\"\" = 21}}}}\n\
         onnx.graph \"g\"(%xq: {x_ty}) -> (\"y\": {y_ty}) {{\n{weights}{body}{quantize}\
         \x20 onnx.return {result}\n}}\n"
    );
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e}"));
    let options = options(threads, TargetSpec::host());
    let kernel = if group > 1 {
        OpKind::DepthwiseConv
    } else {
        OpKind::PackedConvInteger
    };
    assert_packed(&model, &options, kernel, &format!("{case:?}"));
    let compiled = Engine::compile(&model, &options).unwrap_or_else(|e| panic!("{case:?}: {e}"));
    let input = int8_tensor(&[n, c, h, w], &xq, case.signed_x);
    let output = &compiled.run(&[input]).unwrap()[0];
    let got: Vec<f64> = if case.quantize {
        let bytes = output.to_vec::<u8>().unwrap();
        bytes.into_iter().map(f64::from).collect()
    } else if case.integer {
        let sums = output.to_vec::<i32>().unwrap();
        sums.into_iter().map(f64::from).collect()
    } else {
        let values = output.to_vec::<f32>().unwrap();
        values.into_iter().map(f64::from).collect()
    };
    // `x − zx` (0 in the padding).
    let x_at = |b: i64, ch: i64, y: i64, x: i64| -> i64 {
        if y < 0 || y >= h || x < 0 || x >= w {
            return 0;
        }
        value(xq[(((b * c + ch) * h + y) * w + x) as usize], case.signed_x) - zx
    };
    for (at, &g) in got.iter().enumerate() {
        let at = at as i64;
        let (b, o, y, x) = (
            at / (m * oh * ow),
            at / (oh * ow) % m,
            at / ow % oh,
            at % ow,
        );
        let (mut sum, mut magnitude) = (0i64, 0i64);
        for k in 0..cg {
            let ch = o / (m / group) * cg + k;
            for i in 0..kh {
                for j in 0..kw {
                    let iy = y * case.strides[0] + i * case.dilations[0] - case.pads[0];
                    let ix = x * case.strides[1] + j * case.dilations[1] - case.pads[1];
                    let wv = wq[(((o * cg + k) * kh + i) * kw + j) as usize] - zw[o as usize];
                    sum += x_at(b, ch, iy, ix) * wv;
                    magnitude += (x_at(b, ch, iy, ix) + zx).abs().max(zx.abs()) * wv.abs();
                }
            }
        }
        let want = if case.integer {
            sum as f64
        } else {
            let bias = if case.bias {
                f64::from(bias[o as usize])
            } else {
                0.0
            };
            sum as f64 * f64::from(sx) * f64::from(sw[o as usize]) + bias
        };
        if case.quantize {
            let q = ((want / Y_SCALE).round_ties_even() + Y_ZERO as f64).clamp(0.0, 255.0);
            assert!(
                (g - q).abs() <= 1.0,
                "{case:?}: y[{b}, {o}, {y}, {x}] = {g}, want {q} ({want})"
            );
            continue;
        }
        // The depthwise kernel sums `x·(sx·W)` in f32, the zero point's
        // share taken back after: its error is relative to the terms.
        let scale = f64::from(sx) * f64::from(sw[o as usize]);
        let terms = if group > 1 {
            magnitude as f64 * scale
        } else {
            0.0
        };
        assert!(
            (g - want).abs() <= 1e-5 * (want.abs().max(1.0) + terms),
            "{case:?}: y[{b}, {o}, {y}, {x}] = {g}, want {want}"
        );
    }
}

/// A 9×11 image of `c` channels, one of them, no strides or dilations.
fn conv_case(c: i64, m: i64, kernel: [i64; 2], pads: [i64; 4]) -> ConvCase {
    ConvCase {
        n: 1,
        c,
        hw: [9, 11],
        m,
        kernel,
        strides: [1, 1],
        dilations: [1, 1],
        pads,
        signed_x: false,
        w_zero: false,
        bias: true,
        integer: false,
        group: 1,
        quantize: false,
    }
}

/// A depthwise [`conv_case`] over `c` channels.
fn depthwise_case(c: i64, kernel: [i64; 2], pads: [i64; 4]) -> ConvCase {
    ConvCase {
        group: c,
        ..conv_case(c, c, kernel, pads)
    }
}

#[test]
fn qdq_convolutions_run_on_the_packed_kernel() {
    let cases = [
        // A ResNet stem: 3 channels padded to 4, a 7×7 window, strides 2.
        ConvCase {
            hw: [20, 18],
            strides: [2, 2],
            ..conv_case(3, 16, [7, 7], [3, 3, 3, 3])
        },
        // 3×3, same padding, 20 output channels (a masked block), weight
        // zero points, a signed input, no bias.
        ConvCase {
            hw: [12, 12],
            signed_x: true,
            w_zero: true,
            bias: false,
            ..conv_case(32, 20, [3, 3], [1, 1, 1, 1])
        },
        // 1×1 on 128 channels, two images.
        ConvCase {
            n: 2,
            hw: [14, 14],
            ..conv_case(128, 64, [1, 1], [0, 0, 0, 0])
        },
        // 1×1 on 128 channels, one image, quantized after: AMX's tiles
        // where the host has them (196 pixels: 12 tiles of 16, then 4).
        ConvCase {
            hw: [14, 14],
            quantize: true,
            ..conv_case(128, 48, [1, 1], [0, 0, 0, 0])
        },
        // Strides and dilations, uneven pads, several column tiles.
        ConvCase {
            hw: [16, 18],
            strides: [2, 1],
            dilations: [1, 2],
            ..conv_case(40, 80, [3, 2], [1, 0, 2, 1])
        },
        // A ConvInteger (a patch embedding: 4×4 windows, strides 4) with
        // per-channel weight zero points: exact int32 sums.
        ConvCase {
            hw: [16, 20],
            strides: [4, 4],
            w_zero: true,
            bias: false,
            integer: true,
            ..conv_case(48, 64, [4, 4], [0, 0, 0, 0])
        },
        // Tall enough to be cut into row chunks (one column tile).
        ConvCase {
            hw: [40, 8],
            ..conv_case(32, 32, [3, 3], [1, 1, 1, 1])
        },
    ];
    for (i, &case) in cases.iter().enumerate() {
        check_qdq_conv(case, 1, 500 + i as u64);
        check_qdq_conv(case, 2, 600 + i as u64);
    }
}

#[test]
fn depthwise_qdq_convolutions_run_channels_last() {
    let cases = [
        // MobileNet's: 3×3, same padding, quantized after (the stores
        // requantize), 32 channels (two whole blocks).
        ConvCase {
            hw: [14, 13],
            quantize: true,
            ..depthwise_case(32, [3, 3], [1, 1, 1, 1])
        },
        // Strides 2, 24 channels (a masked block), a signed input, no
        // bias, two images.
        ConvCase {
            n: 2,
            hw: [15, 16],
            strides: [2, 2],
            signed_x: true,
            bias: false,
            ..depthwise_case(24, [3, 3], [1, 1, 1, 1])
        },
        // EfficientNet's 5×5 with per-channel weight zero points, dilations
        // and uneven pads, quantized.
        ConvCase {
            hw: [12, 17],
            dilations: [2, 1],
            w_zero: true,
            quantize: true,
            ..depthwise_case(48, [5, 5], [2, 1, 3, 2])
        },
    ];
    for (i, &case) in cases.iter().enumerate() {
        check_qdq_conv(case, 1, 700 + i as u64);
        check_qdq_conv(case, 2, 800 + i as u64);
    }
}

/// A QDQ SiLU (`DQ → Sigmoid → Q → DQ → Mul → Q`, EfficientNet's) over
/// every byte value, `dims` elements (`signed`: an int8 input): compiled
/// for the host, where the run becomes a table lookup when it has AVX-512
/// VBMI, and for the host without VBMI (the vectorized run), the two
/// results equal, and within one step of the run computed in f64.
fn check_lookup(dims: [i64; 4], signed: bool, threads: usize) {
    let t = type_name(signed);
    let (zx, zy) = if signed { (-3, -100) } else { (128, 10) };
    let shape = |elem: &str| format!("tensor<{}x{elem}>", dims.map(|d| d.to_string()).join("x"));
    let (x_ty, f_ty) = (shape(t), shape("f32"));
    let text = format!(
        "onnx.model {{ir_version = 8, opset_imports = {{\"\" = 21}}}}\n\
         onnx.graph \"g\"(%x: {x_ty}) -> (\"y\": {x_ty}) {{\n\
         \x20 %sx = \"onnx.Constant\"() {{value = dense<0.05> : tensor<f32>}} : () -> tensor<f32>\n\
         \x20 %zx = \"onnx.Constant\"() {{value = dense<{zx}> : tensor<{t}>}} : () -> tensor<{t}>\n\
         \x20 %ss = \"onnx.Constant\"() {{value = dense<0.004> : tensor<f32>}} : () -> tensor<f32>\n\
         \x20 %zs = \"onnx.Constant\"() {{value = dense<0> : tensor<ui8>}} : () -> tensor<ui8>\n\
         \x20 %sy = \"onnx.Constant\"() {{value = dense<0.03> : tensor<f32>}} : () -> tensor<f32>\n\
         \x20 %zy = \"onnx.Constant\"() {{value = dense<{zy}> : tensor<{t}>}} : () -> tensor<{t}>\n\
         \x20 %d = \"onnx.DequantizeLinear\"(%x, %sx, %zx) : ({x_ty}, tensor<f32>, tensor<{t}>) -> {f_ty}\n\
         \x20 %s = \"onnx.Sigmoid\"(%d) : ({f_ty}) -> {f_ty}\n\
         \x20 %sq = \"onnx.QuantizeLinear\"(%s, %ss, %zs) : ({f_ty}, tensor<f32>, tensor<ui8>) -> {}\n\
         \x20 %sd = \"onnx.DequantizeLinear\"(%sq, %ss, %zs) : ({}, tensor<f32>, tensor<ui8>) -> {f_ty}\n\
         \x20 %m = \"onnx.Mul\"(%d, %sd) : ({f_ty}, {f_ty}) -> {f_ty}\n\
         \x20 %y = \"onnx.QuantizeLinear\"(%m, %sy, %zy) : ({f_ty}, tensor<f32>, tensor<{t}>) -> {x_ty}\n\
         \x20 onnx.return %y\n}}\n",
        shape("ui8"),
        shape("ui8"),
    );
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e}"));
    let count = dims.iter().product::<i64>() as usize;
    let bytes: Vec<u8> = (0..count).map(|i| (i * 7 % 256) as u8).collect();
    let run = |target: TargetSpec| -> Vec<u8> {
        let compiled = Engine::compile(&model, &options(threads, target)).unwrap();
        let y = &compiled.run(&[int8_tensor(&dims, &bytes, signed)]).unwrap()[0];
        if signed {
            y.to_vec::<i8>()
                .unwrap()
                .into_iter()
                .map(|v| v as u8)
                .collect()
        } else {
            y.to_vec::<u8>().unwrap()
        }
    };
    let host = TargetSpec::host();
    let features: Vec<&str> = host
        .features
        .split(',')
        .filter(|f| !f.contains("vbmi"))
        .collect();
    let plain = TargetSpec::parse(None, None, Some(&features.join(","))).unwrap();
    assert!(!plain.lowering_target().byte_permute);
    let (looked_up, computed) = (run(host), run(plain));
    let (lo, hi) = if signed {
        (-128.0, 127.0)
    } else {
        (0.0, 255.0)
    };
    let q =
        |v: f64, s: f64, z: f64, lo: f64, hi: f64| ((v / s).round_ties_even() + z).clamp(lo, hi);
    for (i, (&a, &b)) in looked_up.iter().zip(&computed).enumerate() {
        assert_eq!(
            a, b,
            "{dims:?} signed {signed}: element {i} of input byte {}",
            bytes[i]
        );
        let d = (value(bytes[i], signed) - zx) as f64 * 0.05;
        let s = q(1.0 / (1.0 + (-d).exp()), 0.004, 0.0, 0.0, 255.0) * 0.004;
        let want = q(d * s, 0.03, zy as f64, lo, hi);
        let got = value(a, signed) as f64;
        assert!(
            (got - want).abs() <= 1.0,
            "{dims:?}: y[{i}] = {got}, want {want}"
        );
    }
}

#[test]
fn quantized_activations_are_table_lookups() {
    // Two chunks, a partial last vector; then a signed input on two threads.
    check_lookup([1, 130, 131, 8], false, 1);
    check_lookup([1, 56, 56, 24], true, 2);
}
