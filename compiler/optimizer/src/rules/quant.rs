//! Quantization rules: integer products onto the 8-bit dot-product
//! kernels.
//!
//! A MatMulInteger whose `B` is a constant `[K, N]` matrix becomes a
//! `omlc.PackedMatMulInteger`: `B` is packed at compile time into the
//! layout of the dot-product instructions (`onnx_mlc_dialect::packing`,
//! four bytes of a column per 32-bit lane), which read it as it lies, and
//! its column sums turn `A`'s zero point into one subtraction per output.
//! The kernel multiplies unsigned by signed bytes (x86's `vpdpbusd`), so a
//! `uint8` `B` is packed shifted by −128 into `int8`, its zero point with
//! it: `(B − zb) = ((B − 128) − (zb − 128))`.
//!
//! A MatMul of two DequantizeLinear (the QDQ format of statically
//! quantized models) whose weights are constant is the same integer
//! product, scaled: `(xq − zx)·sx · (W − zw)·sw = ((xq − zx)·(W − zw))·(sx·sw)`
//! for per-tensor `sx`, `zx` and per-tensor or per-column `sw`, `zw`. The
//! integer sum is exact where the float one rounds at every step.

use egg::Id;
use onnx_mlc_dialect::packing::{pack_int8_columns, pack_int8_conv, PackedInt8};
use onnx_mlc_dialect::{Attr, ElemType, OpKind, TensorData};

use super::util::{
    absent, const_of, forced_const_of, is_absent, is_const, not_absent, scalar, static_dims_of,
    tensor_of, Builder,
};
use super::Rule;
use crate::lang::OpKey;
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // MatMulInteger(a, B, za, zb) = PackedMatMulInteger(a, pack(B'), Σₖ B', za, zb')   (B constant [K, N]; B' = B − 128, zb' = zb − 128 for a uint8 B)
        rw!("pack-matmulinteger"; "(MatMulInteger ?a ?b ?az ?bz)" => pack_matmul_integer; if is_const("?b")),
        // MatMul(DQ(xq, sx, zx), DQ(W, sw, zw)) = PackedMatMulInteger⟨sx·sw⟩(xq, pack(W'), Σₖ W', zx, zw')   (W constant [K, N]; sx, zx per tensor; sw, zw per tensor or per column; the kernel scales into f32)
        rw!("pack-dq-matmul"; "(MatMul (DequantizeLinear@dx ?xq ?sx ?zx) (DequantizeLinear@dw ?w ?sw ?zw))" => pack_dq_matmul; if is_const("?w")),
        // Gemm(DQ(xq, sx, zx), DQ(W, sw, zw), c) = PackedMatMulInteger⟨sx·sw, c⟩(xq, pack(W'), Σₖ W', zx, zw')   (W or, with transB, Wᵀ packed; no transA, alpha = beta = 1; c per column, else added after)
        rw!("pack-dq-gemm"; "(Gemm@g (DequantizeLinear@dx ?xq ?sx ?zx) (DequantizeLinear@dw ?w ?sw ?zw) ?c)" => pack_dq_gemm; if is_const("?w")),
        // Conv(DQ(xq, sx, zx), DQ(W, sw, zw), b) = Transpose_NCHW(PackedConvInteger⟨sx·sw, b⟩(Pad_zx(Transpose_NHWC(xq)), pack(W'), Σ W', zx, zw'))   (2-D, one group, W constant [M, C, KH, KW]; sx, zx per tensor; sw, zw per tensor or per output channel)
        rw!("pack-dq-conv"; "(Conv@c (DequantizeLinear@dx ?xq ?sx ?zx) (DequantizeLinear@dw ?w ?sw ?zw) ?b)" => pack_dq_conv; if is_const("?w")),
        // ConvInteger(x, W, zx, zw) = Transpose_NCHW(PackedConvInteger(Pad_zx(Transpose_NHWC(x)), pack(W'), Σ W', zx, zw'))   (the same conditions; int32 sums: a dynamically quantized patch embedding)
        rw!("pack-convinteger"; "(ConvInteger@c ?x ?w ?zx ?zw)" => pack_conv_integer; if is_const("?w")),
        // Cast_f32(P(…)) · s = P⟨s⟩(…)   (P a packed op with int32 sums; s an f32 scalar or per column: a dynamically quantized product's scale)
        rw!("packed-scale"; "(Mul (Cast[to=1] (omlc.PackedConvInteger|omlc.PackedMatMulInteger@p ?x ?w ?cs ?zx ?zw ?s0 ?b0 ?ys0 ?yz0)) ?s)" => packed_scale; if absent("?s0")),
        // s · Cast_f32(P(…)) = P⟨s⟩(…)   (the same)
        rw!("packed-scale-left"; "(Mul ?s (Cast[to=1] (omlc.PackedConvInteger|omlc.PackedMatMulInteger@p ?x ?w ?cs ?zx ?zw ?s0 ?b0 ?ys0 ?yz0)))" => packed_scale; if absent("?s0")),
        // P⟨s⟩(…) + b = P⟨s, b⟩(…)   (b an f32 scalar or per column)
        rw!("packed-bias"; "(Add (omlc.PackedConvInteger|omlc.PackedMatMulInteger@p ?x ?w ?cs ?zx ?zw ?s ?b0 ?ys0 ?yz0) ?b)" => packed_bias; if not_absent("?s"), absent("?b0"), absent("?ys0")),
        // Conv(DQ(xq, sx, zx), W, b) = Transpose_NCHW(DepthwiseConv(Pad_zx(Transpose_NHWC(xq)), W', b − zx·Σ W'))   (2-D, group = C = M, W constant f32 [C, 1, KH, KW], W'[kh, kw, c] = sx·W[c, 0, kh, kw]; sx, zx constant per tensor; b absent or constant)
        rw!("dq-depthwise"; "(Conv@c (DequantizeLinear@dx ?xq ?sx ?zx) ?w ?b)" => dq_depthwise; if is_const("?w")),
        // Q(DepthwiseConv(x, W, b), ys, yz) = DepthwiseConv⟨ys, yz⟩(x, W, b)   (ys, yz per tensor, yz 8-bit)
        rw!("depthwise-quantize"; "(QuantizeLinear@q (omlc.DepthwiseConv@p ?x ?w ?b ?ys0 ?yz0) ?ys ?yz)" => depthwise_quantize; if absent("?ys0")),
        // Q(P⟨s, b⟩(…), ys, yz) = P⟨s, b, ys, yz⟩(…)   (P a packed op with a float result; ys, yz per tensor, yz 8-bit)
        rw!("packed-quantize"; "(QuantizeLinear@q (omlc.PackedConvInteger|omlc.PackedMatMulInteger@p ?x ?w ?cs ?zx ?zw ?s ?b ?ys0 ?yz0) ?ys ?yz)" => packed_quantize; if not_absent("?s"), absent("?ys0")),
    ]
}

/// The shift that makes an 8-bit weight of `elem` signed.
fn signed_shift(elem: ElemType) -> Option<i64> {
    match elem {
        ElemType::I8 => Some(0),
        ElemType::U8 => Some(128),
        _ => None,
    }
}

fn pack_matmul_integer(b: &mut Builder, m: &Match) -> Option<Id> {
    if packed_already(b, m.root, OpKind::PackedMatMulInteger, 0) {
        return None;
    }
    let (a, w, az, bz) = (m.class("?a"), m.class("?b"), m.class("?az"), m.class("?bz"));
    if !activations(b, a, az) {
        return None;
    }
    let [packed, colsum, zero] = packed_weights(b, w, bz)?;
    b.op(
        OpKind::PackedMatMulInteger,
        vec![],
        &[a, packed, colsum, az, zero],
    )
}

/// Whether `a` (with zero point `az`) can be the product's left operand:
/// an 8-bit matrix (or a batch of them), one zero point.
fn activations(b: &Builder, a: Id, az: Id) -> bool {
    let g = b.graph();
    let Some(ty) = tensor_of(g, a) else {
        return false;
    };
    matches!(ty.elem, ElemType::U8 | ElemType::I8)
        && ty.rank().is_some_and(|r| r >= 2)
        && (is_absent(g, az) || numel(b, az) == Some(1))
}

fn numel(b: &Builder, id: Id) -> Option<i64> {
    Some(static_dims_of(b.graph(), id)?.iter().product())
}

/// The constant `[K, N]` 8-bit weights `w` with zero point `wz` (absent,
/// per tensor or per column) as the packed product's operands (see
/// [`finish`]).
fn packed_weights(b: &mut Builder, w: Id, wz: Id) -> Option<[Id; 3]> {
    packed_matrix(b, w, wz, false)
}

/// [`packed_weights`] of `w`, or of its transpose when `transposed` (a
/// Gemm's `transB`: `w` is `[N, K]`).
fn packed_matrix(b: &mut Builder, w: Id, wz: Id, transposed: bool) -> Option<[Id; 3]> {
    let weights = const_of(b.graph(), w)?;
    let [rows, cols] = weights.dims[..] else {
        return None;
    };
    let bytes = signed_bytes(weights)?;
    let (k, n, bytes) = if transposed {
        let (r, c) = (rows as usize, cols as usize);
        let t = (0..r * c).map(|i| bytes[(i % r) * c + i / r]).collect();
        (cols, rows, t)
    } else {
        (rows, cols, bytes)
    };
    let zero = WeightZero::of(b, wz, weights.elem, n)?;
    let packed = pack_int8_columns(&bytes, k, n)?;
    finish(b, packed, zero, n)
}

/// The values of 8-bit integer weights as `int8`: a `uint8` tensor
/// shifted by −128.
fn signed_bytes(t: &TensorData) -> Option<Vec<i8>> {
    let raw = t.raw()?;
    match t.elem {
        ElemType::U8 => Some(raw.iter().map(|&v| (v ^ 0x80) as i8).collect()),
        ElemType::I8 => Some(raw.iter().map(|&v| v as i8).collect()),
        _ => None,
    }
}

/// The weights' zero point, shifted with them into `int8`: one value, or
/// one per column.
struct WeightZero {
    dims: Vec<i64>,
    values: Vec<i8>,
}

impl WeightZero {
    /// The zero point `wz` (0 when absent) of weights of type `elem` with
    /// `n` columns; `None` when it is neither per tensor nor per column.
    fn of(b: &Builder, wz: Id, elem: ElemType, n: i64) -> Option<WeightZero> {
        let g = b.graph();
        let shift = signed_shift(elem)?;
        if is_absent(g, wz) {
            let values = vec![i8::try_from(-shift).ok()?];
            return Some(WeightZero {
                dims: vec![],
                values,
            });
        }
        let zd = const_of(g, wz)?;
        let per_column = zd.dims == [n];
        if signed_shift(zd.elem)? != shift || (zd.numel() != 1 && !per_column) {
            return None;
        }
        let dims = if per_column { vec![n] } else { vec![] };
        Some(WeightZero {
            dims,
            values: signed_bytes(zd)?,
        })
    }

    /// Column `col`'s zero point.
    fn at(&self, col: usize) -> i8 {
        self.values[if self.values.len() == 1 { 0 } else { col }]
    }
}

/// The packed weights as the packed op's operands: the packed bytes, the
/// column sums and the `int32` zero point (absent when it is 0).
fn finish(b: &mut Builder, p: PackedInt8, zero: WeightZero, n: i64) -> Option<[Id; 3]> {
    let packed = b.add_constant(TensorData::from_vec(p.dims, &p.packed).ok()?);
    let colsum = b.add_constant(TensorData::from_vec(vec![n], &p.colsum).ok()?);
    let zero = if zero.values.iter().all(|&z| z == 0) {
        b.absent()
    } else {
        let values: Vec<i32> = zero.values.iter().map(|&z| i32::from(z)).collect();
        b.add_constant(TensorData::from_vec(zero.dims, &values).ok()?)
    };
    Some([packed, colsum, zero])
}

/// Whether the DequantizeLinear matched at `label` is per tensor, or per
/// slice along one of `axes` (a matrix's columns: 1 or −1; a
/// convolution's output channels: 0 or −4), without blocks, into `f32`.
fn plain_dequantize(b: &Builder, m: &Match, label: &str, scale: Id, axes: &[i64]) -> bool {
    let key = m.key(label);
    let g = b.graph();
    let axis = key.int("axis").unwrap_or(1);
    let columns_ok = match numel(b, scale) {
        Some(1) => true,
        Some(_) => axes.contains(&axis) && static_dims_of(g, scale).is_some_and(|d| d.len() == 1),
        None => false,
    };
    key.int("block_size").unwrap_or(0) == 0
        && tensor_of(g, scale).is_some_and(|t| t.elem == ElemType::F32)
        && columns_ok
}

fn pack_dq_matmul(b: &mut Builder, m: &Match) -> Option<Id> {
    pack_dq_product(b, m, None, false)
}

/// Whether the class `root` already holds a packed op of `kind`, at most
/// `depth` ops down: a rule that has fired on it does not pack its
/// weights again at the next iteration.
fn packed_already(b: &Builder, root: Id, kind: OpKind, depth: usize) -> bool {
    b.graph()[root].nodes.iter().any(|node| match node.key() {
        Some(key) if key.kind == kind => true,
        Some(_) if depth > 0 => node
            .operands()
            .iter()
            .any(|&c| packed_already(b, c, kind, depth - 1)),
        _ => false,
    })
}

/// The QDQ product matched by `pack-dq-matmul` or `pack-dq-gemm` (with
/// its `c`): the packed integer product, scaled by `sx·sw` into `f32`,
/// plus `c` (by the kernel when it is per column).
fn pack_dq_product(b: &mut Builder, m: &Match, c: Option<Id>, transposed: bool) -> Option<Id> {
    if packed_already(b, m.root, OpKind::PackedMatMulInteger, 1) {
        return None;
    }
    let (xq, sx, zx) = (m.class("?xq"), m.class("?sx"), m.class("?zx"));
    let (w, sw, zw) = (m.class("?w"), m.class("?sw"), m.class("?zw"));
    let columns: &[i64] = if transposed { &[0, -2] } else { &[1, -1] };
    if !(activations(b, xq, zx)
        && plain_dequantize(b, m, "@dx", sx, &[])
        && plain_dequantize(b, m, "@dw", sw, columns))
    {
        return None;
    }
    let [packed, colsum, zero] = packed_matrix(b, w, zw, transposed)?;
    let scale = b.op(OpKind::Mul, vec![], &[sx, sw])?;
    let dims = static_dims_of(b.graph(), w)?;
    let n = if transposed { dims[0] } else { *dims.last()? };
    // A bias the kernel adds per column, or one added after it.
    let (bias, after) = match c {
        Some(c) if is_absent(b.graph(), c) || per_column_f32(b, c, n) => (c, None),
        Some(c) => (b.absent(), Some(c)),
        None => (b.absent(), None),
    };
    let product = b.op(
        OpKind::PackedMatMulInteger,
        vec![],
        &[xq, packed, colsum, zx, zero, scale, bias],
    )?;
    match after {
        Some(c) => b.op(OpKind::Add, vec![], &[product, c]),
        None => Some(product),
    }
}

/// Whether `c` is an `f32` scalar or `[n]` vector: a bias the packed
/// kernels add per column.
fn per_column_f32(b: &Builder, c: Id, n: i64) -> bool {
    let g = b.graph();
    tensor_of(g, c).is_some_and(|t| t.elem == ElemType::F32)
        && static_dims_of(g, c).is_some_and(|d| d == [n] || d.iter().product::<i64>() == 1)
}

fn pack_dq_gemm(b: &mut Builder, m: &Match) -> Option<Id> {
    let key = m.key("@g");
    let plain = key.int("transA").unwrap_or(0) == 0
        && key.float("alpha").unwrap_or(1.0) == 1.0
        && key.float("beta").unwrap_or(1.0) == 1.0;
    if !plain {
        return None;
    }
    let transposed = key.int("transB").unwrap_or(0) != 0;
    pack_dq_product(b, m, Some(m.class("?c")), transposed)
}

/// Channels-last `[N, H, W, C]` from `[N, C, H, W]`, and back.
const TO_NHWC: [i64; 4] = [0, 2, 3, 1];
const TO_NCHW: [i64; 4] = [0, 3, 1, 2];

/// The QDQ convolution matched by `pack-dq-conv` (see the module docs).
fn pack_dq_conv(b: &mut Builder, m: &Match) -> Option<Id> {
    if packed_already(b, m.root, OpKind::PackedConvInteger, 1) {
        return None;
    }
    let (xq, sx, zx) = (m.class("?xq"), m.class("?sx"), m.class("?zx"));
    let (w, sw, zw, bias) = (m.class("?w"), m.class("?sw"), m.class("?zw"), m.class("?b"));
    let out_channels = *static_dims_of(b.graph(), w)?.first()?;
    if !(plain_dequantize(b, m, "@dx", sx, &[])
        && plain_dequantize(b, m, "@dw", sw, &[0, -4])
        && (is_absent(b.graph(), bias) || per_column_f32(b, bias, out_channels)))
    {
        return None;
    }
    let scale = b.op(OpKind::Mul, vec![], &[sx, sw])?;
    packed_conv(b, m.key("@c"), [xq, zx, w, zw], [scale, bias])
}

fn pack_conv_integer(b: &mut Builder, m: &Match) -> Option<Id> {
    if packed_already(b, m.root, OpKind::PackedConvInteger, 1) {
        return None;
    }
    let operands = ["?x", "?zx", "?w", "?zw"].map(|v| m.class(v));
    let none = b.absent();
    packed_conv(b, m.key("@c"), operands, [none, none])
}

/// The convolution of `xq` (zero point `zx`) by the constant 8-bit
/// weights `w` (zero point `zw`) with Conv's attributes `key`, as
/// `Transpose_NCHW(PackedConvInteger(Pad_zx(Transpose_NHWC(xq)), …,
/// scale, bias))`: `None` unless it is 2-D, of one group, with explicit
/// pads, and `xq` is 8-bit with one zero point.
fn packed_conv(
    b: &mut Builder,
    key: &OpKey,
    [xq, zx, w, zw]: [Id; 4],
    [scale, bias]: [Id; 2],
) -> Option<Id> {
    if !(activations(b, xq, zx) && b.rank(xq) == Some(4)) {
        return None;
    }
    let weights = const_of(b.graph(), w)?;
    let [out_channels, channels, kh, kw] = weights.dims[..] else {
        return None;
    };
    let pads = explicit_pads(key, [kh, kw])?;
    if key.int("group").unwrap_or(1) != 1 {
        return None;
    }
    let zero = WeightZero::of(b, zw, weights.elem, out_channels)?;
    let c4 = (channels + 3) / 4 * 4;
    let layout = [out_channels, channels, kh, kw];
    let packed = pack_int8_conv(&signed_bytes(weights)?, layout, c4, |m| zero.at(m))?;
    let [packed, colsum, zero] = finish(b, packed, zero, out_channels)?;
    let x = channels_last(b, xq, zx, &pads, c4 - channels)?;
    let operands = [x, packed, colsum, zx, zero, scale, bias];
    let y = b.op(
        OpKind::PackedConvInteger,
        window_attrs(key, [kh, kw]),
        &operands,
    )?;
    b.op(OpKind::Transpose, perm(TO_NCHW), &[y])
}

/// A Transpose's `perm` attribute.
fn perm(p: [i64; 4]) -> Vec<(&'static str, Attr)> {
    vec![("perm", Attr::Ints(p.to_vec()))]
}

/// `Pad_zx(Transpose_NHWC(x))`: the image `x [N, C, H, W]` channels-last,
/// padded by Conv's 2-D `pads` and by `more_channels` channels at the
/// end, with its zero point `zx` (absent: 0).
fn channels_last(b: &mut Builder, x: Id, zx: Id, pads: &[i64], more_channels: i64) -> Option<Id> {
    let nhwc = b.op(OpKind::Transpose, perm(TO_NHWC), &[x])?;
    let padding = [0, pads[0], pads[1], 0, 0, pads[2], pads[3], more_channels];
    if padding.iter().all(|&p| p == 0) {
        return Some(nhwc);
    }
    let pads = b.add_constant(TensorData::i64s(&padding));
    let value = if is_absent(b.graph(), zx) {
        zx
    } else {
        b.reshape(zx, &[])?
    };
    b.op(OpKind::Pad, vec![], &[nhwc, pads, value])
}

/// The channels-last convolutions' window attributes from Conv's `key`.
fn window_attrs(key: &OpKey, kernel: [i64; 2]) -> Vec<(&'static str, Attr)> {
    let mut attrs = vec![("kernel_shape", Attr::Ints(kernel.to_vec()))];
    for name in ["strides", "dilations"] {
        if let Some(v) = key.ints(name) {
            attrs.push((name, Attr::Ints(v)));
        }
    }
    attrs
}

/// Conv's 2-D explicit `pads` (`[0; 4]` when absent), if its `auto_pad`
/// leaves them explicit and its `kernel_shape`, if given, is `kernel`.
fn explicit_pads(key: &OpKey, kernel: [i64; 2]) -> Option<Vec<i64>> {
    let pads = key.ints("pads").unwrap_or(vec![0; 4]);
    let explicit = matches!(
        key.string("auto_pad").as_deref(),
        None | Some("NOTSET" | "VALID")
    );
    let kernel_ok = key.ints("kernel_shape").is_none_or(|k| k == kernel);
    (explicit && kernel_ok && pads.len() == 4).then_some(pads)
}

/// The QDQ depthwise convolution matched by `dq-depthwise`: the input's
/// scale folded into the weights, laid out `[KH, KW, C]`, and its zero
/// point into the bias (padded taps hold the zero point, so they add
/// `zx·W'`, which the bias takes back).
fn dq_depthwise(b: &mut Builder, m: &Match) -> Option<Id> {
    if packed_already(b, m.root, OpKind::DepthwiseConv, 1) {
        return None;
    }
    let key = m.key("@c");
    let (xq, zx, w, bias) = (m.class("?xq"), m.class("?zx"), m.class("?w"), m.class("?b"));
    let g = b.graph();
    let [channels, 1, kh, kw] = static_dims_of(g, w)?[..] else {
        return None;
    };
    if key.int("group") != Some(channels) || static_dims_of(g, xq)?.get(1) != Some(&channels) {
        return None;
    }
    let weights = forced_const_of(g, w)?;
    let sx = scalar(b, m, "?sx")?;
    let zero = if is_absent(g, zx) {
        0.0
    } else {
        scalar(b, m, "?zx")?
    };
    let bias_values = if is_absent(g, bias) {
        vec![0.0; channels as usize]
    } else {
        let values = const_of(g, bias)?;
        (values.dims == [channels] && values.elem == ElemType::F32).then(|| values.to_f64s())??
    };
    if !(weights.elem == ElemType::F32
        && activations(b, xq, zx)
        && b.rank(xq) == Some(4)
        && plain_dequantize(b, m, "@dx", m.class("?sx"), &[]))
    {
        return None;
    }
    let pads = explicit_pads(key, [kh, kw])?;
    let w_values = weights.to_f64s()?;
    let taps = (kh * kw) as usize;
    let (c_count, mut sums) = (channels as usize, vec![0.0f64; channels as usize]);
    let mut folded = vec![0.0f32; taps * c_count];
    for c in 0..c_count {
        for t in 0..taps {
            let v = (sx as f32) * (w_values[c * taps + t] as f32);
            folded[t * c_count + c] = v;
            sums[c] += f64::from(v);
        }
    }
    let new_bias: Vec<f32> = (0..c_count)
        .map(|c| (bias_values[c] - zero * sums[c]) as f32)
        .collect();
    let w = b.add_constant(TensorData::from_vec(vec![kh, kw, channels], &folded).ok()?);
    let bias = b.add_constant(TensorData::from_vec(vec![channels], &new_bias).ok()?);
    let x = channels_last(b, xq, zx, &pads, 0)?;
    let none = b.absent();
    let y = b.op(
        OpKind::DepthwiseConv,
        window_attrs(key, [kh, kw]),
        &[x, w, bias, none, none],
    )?;
    b.op(OpKind::Transpose, perm(TO_NCHW), &[y])
}

/// The columns of the packed op matched at `@p` (its output's last dim).
fn packed_columns(b: &Builder, m: &Match) -> Option<i64> {
    static_dims_of(b.graph(), m.root)?.last().copied()
}

/// Operands of a packed op: `X`, `W`, its sums, the two zero points, scale,
/// bias, `y_scale`, `y_zero_point`.
const PACKED_OPERANDS: usize = 9;

fn packed_scale(b: &mut Builder, m: &Match) -> Option<Id> {
    packed_with(b, m, &["?x", "?w", "?cs", "?zx", "?zw"], "?s")
}

fn packed_bias(b: &mut Builder, m: &Match) -> Option<Id> {
    packed_with(b, m, &["?x", "?w", "?cs", "?zx", "?zw", "?s"], "?b")
}

/// The packed op matched at `@p` with the operands `kept`, then `added`
/// (an `f32` scalar or per-column scale or bias, else `None`), the rest
/// absent.
fn packed_with(b: &mut Builder, m: &Match, kept: &[&str], added: &str) -> Option<Id> {
    let (value, n) = (m.class(added), packed_columns(b, m)?);
    if !per_column_f32(b, value, n) {
        return None;
    }
    let mut operands: Vec<Id> = kept.iter().map(|v| m.class(v)).collect();
    operands.push(value);
    operands.resize(PACKED_OPERANDS, b.absent());
    let packed = m.node("@p").key()?.clone();
    Some(b.op_key(packed, &operands))
}

fn depthwise_quantize(b: &mut Builder, m: &Match) -> Option<Id> {
    let names = ["?x", "?w", "?b", "?ys", "?yz"];
    requantized(b, m, &names)
}

fn packed_quantize(b: &mut Builder, m: &Match) -> Option<Id> {
    let names = ["?x", "?w", "?cs", "?zx", "?zw", "?s", "?b", "?ys", "?yz"];
    requantized(b, m, &names)
}

/// The op matched at `@p` with the operands `names` (its own, ending with
/// the QuantizeLinear's `?ys`, `?yz`): its result requantized by the
/// kernel, when the QuantizeLinear `@q` is per tensor into 8 bits.
fn requantized(b: &mut Builder, m: &Match, names: &[&str]) -> Option<Id> {
    let key = m.key("@q");
    let (ys, yz) = (m.class("?ys"), m.class("?yz"));
    let g = b.graph();
    let plain = key.int("block_size").unwrap_or(0) == 0
        && key.int("output_dtype").unwrap_or(0) == 0
        && key.int("precision").unwrap_or(0) == 0;
    let scalar = |id, elems: &[ElemType]| {
        numel(b, id) == Some(1) && tensor_of(g, id).is_some_and(|t| elems.contains(&t.elem))
    };
    if !(plain && scalar(ys, &[ElemType::F32]) && scalar(yz, &[ElemType::U8, ElemType::I8])) {
        return None;
    }
    let packed = m.node("@p").key()?.clone();
    let operands: Vec<Id> = names.iter().map(|v| m.class(v)).collect();
    Some(b.op_key(packed, &operands))
}
