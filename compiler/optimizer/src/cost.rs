//! The cost model: the estimated run time of each op on the target, from
//! the shapes the analysis knows.
//!
//! An op costs a fixed overhead (dispatch, loop set-up, threads) plus the
//! larger of its compute time (FLOPs over peak FLOP/s) and its memory time
//! (bytes read and written over memory bandwidth): a roofline. Constants,
//! inputs and projections cost nothing; pure views (Reshape, Squeeze, …)
//! cost a token amount so that fewer ops win ties. The parameters
//! ([`Target`]) are fitted to kernels compiled by onnx-mlc and measured on
//! the development machine at one thread (`tools/bench.py calibrate`, whose
//! method and output `docs/optimizer.md` records): "peak" is what the
//! compiled MatMul reaches, and an op kind whose kernels reach less (Conv,
//! the fused attention kernel) carries its measured efficiency, so that
//! the extraction does not trade a fast kernel for a slow fused one.

use egg::Id;
use onnx_mlc_dialect::{Dim, OpKind, Type};

use crate::analysis::OGraph;
use crate::lang::{ONode, OpKey};

/// What the target machine can do.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Peak floating-point operations per second.
    pub peak_flops: f64,
    /// Memory bandwidth, bytes per second.
    pub mem_bandwidth: f64,
    /// Fixed cost of running one op, seconds.
    pub op_overhead: f64,
    /// The size assumed for a dim whose value is not known (symbolic or
    /// unknown), so that such ops still get comparable costs.
    pub unknown_dim: i64,
    /// Per-op factors on the compute speed, from measured kernels (1.0 =
    /// MatMul's speed); kinds not listed are at 1.0.
    pub efficiency: Vec<(OpKind, f64)>,
    /// The factor on the compute speed of a matrix product whose `B` rows
    /// lie a multiple of 4 KiB apart, at least two pages (see
    /// [`aliased_rows`]).
    pub aliased_rows: f64,
}

impl Default for Target {
    /// The calibration of the development machine (2 Xeon cores at
    /// 2.6 GHz with AVX-512; one thread measured): `tools/bench.py calibrate`
    /// on a release build, medians of three runs, rounded.
    fn default() -> Target {
        Target {
            peak_flops: 1.3e11,
            mem_bandwidth: 5.5e9,
            op_overhead: 2e-8,
            unknown_dim: 64,
            efficiency: EFFICIENCY.to_vec(),
            aliased_rows: ALIASED_ROWS,
        }
    }
}

/// A matrix product's speed when the rows of its `B` operand lie a
/// multiple of 4 KiB apart (`N·elem` bytes, from 8 KiB): the register
/// tile walks down a column panel of `B`, and rows that far apart fall
/// into the same L1 sets, so the panel does not stay in L1. Measured on
/// the development machine (`[128, 768] · [768, N]`, one thread, release
/// build): N = 3072 ran at 70 GFLOP/s and N = 3088 at 114; N = 2048 and
/// 4096 at 104 and 103 against 125 for N + 16.
const ALIASED_ROWS: f64 = 0.7;

/// Achieved FLOP/s over MatMul's of the kinds whose kernels are slower and
/// that a rule trades against other kernels: Conv and FusedConv (weight
/// folding keeps them, the merge rules change their shapes), and
/// FusedAttention against the batched MatMuls and Softmax it replaces
/// (Softmax, vectorized along its rows, is memory-bound: the roofline's
/// memory side explains its time, so it has no factor). The calibration
/// also measures Erf and LayerNormalization, which stay at 1: the
/// canonical rules trade them for spelled-out sequences of elementwise ops
/// that are not calibrated, and a factor on one side only would bias the
/// extraction.
const EFFICIENCY: &[(OpKind, f64)] = &[
    (OpKind::Conv, 0.53),
    (OpKind::FusedConv, 0.53),
    (OpKind::FusedAttention, 0.67),
];

impl Target {
    /// This target with other per-op compute efficiencies (ratios of
    /// achieved to roofline speed, as `tools/bench.py calibrate` prints).
    pub fn calibrated(mut self, efficiency: Vec<(OpKind, f64)>) -> Target {
        self.efficiency = efficiency;
        self
    }

    fn efficiency(&self, kind: OpKind) -> f64 {
        self.efficiency
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(1.0, |(_, e)| *e)
    }
}

/// The work of one op: floating-point operations and bytes moved.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Work {
    /// Floating-point operations.
    pub flops: f64,
    /// Bytes read and written.
    pub bytes: f64,
}

/// A token cost for pure views, below any real op.
const VIEW_COST: f64 = 1e-9;

/// The cost in seconds of e-node `node` of class `class`. An op with
/// unknown shapes gets the cost of [`Target::unknown_dim`]-sized dims.
pub fn node_cost(egraph: &OGraph, class: Id, node: &ONode, target: &Target) -> f64 {
    let ONode::Op(key, _) = node else { return 0.0 };
    if key.kind.is_view() {
        return VIEW_COST;
    }
    let w = work(egraph, class, node, key, target);
    let mut efficiency = target.efficiency(key.kind);
    if aliased_rows(egraph, node, key) {
        efficiency *= target.aliased_rows;
    }
    let compute = w.flops / (target.peak_flops * efficiency);
    let memory = w.bytes / target.mem_bandwidth;
    // Internal ops cost a hair more so that, at equal cost, the standard op
    // stays (an unfused `omlc.Activation` is no better than `Relu`).
    let internal = if key.kind.domain() == onnx_mlc_dialect::Domain::Internal {
        1e-12
    } else {
        0.0
    };
    target.op_overhead + compute.max(memory) + internal
}

/// Whether matrix rows `bytes` apart alias as [`ALIASED_ROWS`] says: a
/// multiple of 4 KiB, at least 8 KiB.
pub fn rows_alias(bytes: i64) -> bool {
    bytes >= 8192 && bytes % 4096 == 0
}

/// A matrix product (`B` not transposed) whose `B` rows alias
/// ([`rows_alias`]).
fn aliased_rows(egraph: &OGraph, node: &ONode, key: &OpKey) -> bool {
    use OpKind::*;
    let transposed = matches!(key.kind, Gemm | FusedGemm) && key.int("transB").unwrap_or(0) != 0;
    if !matches!(key.kind, MatMul | FusedMatMul | Gemm | FusedGemm) || transposed {
        return false;
    }
    let Some(b) = node.operands().get(1) else {
        return false;
    };
    let Some(t) = egraph[*b].data.ty.as_tensor() else {
        return false;
    };
    match t.dims() {
        Some([.., _, Dim::Known(n)]) => rows_alias(n * i64::from(t.elem.bit_width() / 8)),
        _ => false,
    }
}

/// Elements of a type, with unknown dims at `unknown`.
fn numel(ty: &Type, unknown: i64) -> f64 {
    dims(ty, unknown).iter().map(|&d| d as f64).product()
}

fn dims(ty: &Type, unknown: i64) -> Vec<i64> {
    let Some(t) = ty.as_tensor() else {
        return vec![unknown];
    };
    match t.dims() {
        Some(d) => d
            .iter()
            .map(|d| if let Dim::Known(n) = d { *n } else { unknown })
            .collect(),
        None => vec![unknown],
    }
}

fn elem_bytes(ty: &Type) -> f64 {
    ty.elem()
        .map_or(4.0, |e| f64::from(e.bit_width().max(8)) / 8.0)
}

fn bytes(ty: &Type, unknown: i64) -> f64 {
    numel(ty, unknown) * elem_bytes(ty)
}

/// FLOPs of one element of an elementwise op (transcendentals count more).
fn elementwise_flops(kind: OpKind, key: &OpKey) -> f64 {
    use OpKind::*;
    match kind {
        Erf | Exp | Log | Tanh | Sigmoid | Sin | Cos | Pow | Softplus | Mish | Elu | Selu
        | Celu | Gelu => 10.0,
        Activation => activation_flops(key),
        Sqrt | Reciprocal | Div => 4.0,
        _ => 1.0,
    }
}

fn activation_flops(key: &OpKey) -> f64 {
    match key.string("activation").as_deref() {
        None | Some("") => 0.0,
        Some("Relu" | "Clip" | "LeakyRelu") => 1.0,
        Some("HardSigmoid" | "HardSwish") => 3.0,
        _ => 12.0,
    }
}

fn work(egraph: &OGraph, class: Id, node: &ONode, key: &OpKey, target: &Target) -> Work {
    use OpKind::*;
    let u = target.unknown_dim;
    let data = &egraph[class].data;
    let out_ty = match &data.results {
        Some(types) => types.first().cloned().unwrap_or(Type::Unknown),
        None => data.ty.clone(),
    };
    let operands: Vec<&Type> = node
        .operands()
        .iter()
        .map(|&c| &egraph[c].data.ty)
        .collect();
    let in_bytes: f64 = node
        .operands()
        .iter()
        .map(|&c| bytes(&egraph[c].data.ty, u))
        .sum();
    let out_elems = numel(&out_ty, u);
    let out_bytes = match &data.results {
        Some(types) => types.iter().map(|t| bytes(t, u)).sum(),
        None => bytes(&out_ty, u),
    };
    let moved = in_bytes + out_bytes;
    let flops = match key.kind {
        MatMul | FusedMatMul | Gemm | FusedGemm => {
            let a = operands.first().map(|t| dims(t, u)).unwrap_or_default();
            let k = match key.kind {
                Gemm | FusedGemm if key.int("transA").unwrap_or(0) != 0 => a.first().copied(),
                _ => a.last().copied(),
            };
            let epilogue = out_elems * (1.0 + activation_flops(key));
            2.0 * out_elems * k.unwrap_or(u) as f64 + epilogue
        }
        // The integer products: MatMulInteger widens to i32 products of
        // scalars, the packed form sums four bytes per 32-bit lane.
        MatMulInteger | PackedMatMulInteger => {
            let k = operands.first().and_then(|t| dims(t, u).last().copied());
            let rate = if key.kind == MatMulInteger { 4.0 } else { 0.25 };
            2.0 * out_elems * k.unwrap_or(u) as f64 * rate
        }
        // The packed convolution's reduction: 4 bytes per group of `W_packed`.
        PackedConvInteger => {
            let groups = operands.get(1).and_then(|t| dims(t, u).get(1).copied());
            2.0 * out_elems * (4 * groups.unwrap_or(u)) as f64 * 0.25
        }
        // One fused multiply-add per tap and output, 16 lanes at a time
        // along the channels (the windows of `Conv` vectorize worse).
        DepthwiseConv => {
            let w = operands.get(1).map(|t| dims(t, u)).unwrap_or_default();
            let taps: f64 = w.iter().take(2).map(|&d| d as f64).product();
            2.0 * out_elems * taps * 0.25 + out_elems
        }
        Conv | FusedConv | ConvTranspose | ConvInteger => {
            let w = operands.get(1).map(|t| dims(t, u)).unwrap_or_default();
            let per_out: f64 = w.iter().skip(1).map(|&d| d as f64).product();
            // ConvInteger widens each operand to i32, as MatMulInteger does.
            let rate = if key.kind == ConvInteger { 4.0 } else { 1.0 };
            rate * 2.0 * out_elems * per_out + out_elems * (1.0 + activation_flops(key))
        }
        FusedAttention => {
            let q = operands.first().map(|t| dims(t, u)).unwrap_or_default();
            let kt = operands.get(1).map(|t| dims(t, u)).unwrap_or_default();
            let (d, sk) = (
                *q.last().unwrap_or(&u) as f64,
                *kt.last().unwrap_or(&u) as f64,
            );
            let sq = q.get(q.len().saturating_sub(2)).copied().unwrap_or(u) as f64;
            let batch: f64 = q.iter().rev().skip(2).map(|&x| x as f64).product();
            let dv = out_elems / (batch * sq).max(1.0);
            batch * sq * sk * (2.0 * d + 2.0 * dv + 8.0)
        }
        Softmax | LogSoftmax => 8.0 * out_elems,
        LayerNormalization
        | BatchNormalization
        | InstanceNormalization
        | GroupNormalization
        | RMSNormalization => 8.0 * out_elems,
        kind if kind.is_reduction() || matches!(kind, GlobalAveragePool | GlobalMaxPool) => {
            operands.first().map_or(out_elems, |t| numel(t, u))
        }
        MaxPool | AveragePool | LpPool => {
            let k: f64 = key
                .ints("kernel_shape")
                .unwrap_or_default()
                .iter()
                .map(|&d| d as f64)
                .product();
            out_elems * k.max(1.0)
        }
        kind => out_elems * elementwise_flops(kind, key),
    };
    Work {
        flops,
        bytes: moved,
    }
}
