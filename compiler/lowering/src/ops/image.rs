//! Kernels that run image by image: which ops compute image `n` of their
//! results from image `n` of their operands, and which values of a kernel
//! over a batch are then seen one image at a time (`KernelBuilder` builds
//! the loop over the images and the views).

use std::collections::HashSet;

use onnx_mlc_dialect::ir::OpData;
use onnx_mlc_dialect::schema::Family;
use onnx_mlc_dialect::{Dim, Model, OpKind, Value};

use crate::kernel::KernelSpec;
use crate::ops::common::{const_ints, norm_axis};
use crate::types::value_tensor;

/// The first dim of value `v`, when it is a tensor of known rank ≥ 1.
fn first_dim(model: &Model, v: Value) -> Option<&Dim> {
    value_tensor(model, v).ok()?.dims()?.first()
}

/// The inputs of op `op` whose first dim is the batch when it has the
/// result's rank (the batch-aligned operands), when the op computes image
/// `n` of its results from image `n` of those and from the whole of its
/// other inputs; `None` for an op that does not work image by image. The
/// ops that do: the elementwise ops, convolutions and pools (their data
/// and a fused residual, never their weights), the per-image
/// normalizations with their single result, batched matrix products and
/// attention, and the ops along another axis than the first: the
/// normalizations and softmaxes over trailing axes, Concat, Split,
/// Gather, a Slice, a Transpose that keeps the first axis first.
fn batch_aligned(model: &Model, op: &OpData) -> Option<Vec<usize>> {
    let single = op.results.iter().skip(1).all(Option::is_none);
    let rank = |i: usize| {
        let v = op.inputs.get(i).copied().flatten()?;
        value_tensor(model, v).ok()?.dims().map(<[Dim]>::len)
    };
    let all = (0..op.inputs.len()).collect();
    match op.kind {
        k if k.family() == Family::Elementwise => Some(all),
        OpKind::Conv | OpKind::ConvTranspose => Some(vec![0]),
        OpKind::FusedConv => Some(vec![0, 3]),
        OpKind::AveragePool
        | OpKind::LpPool
        | OpKind::GlobalAveragePool
        | OpKind::GlobalMaxPool
        | OpKind::GlobalLpPool
        | OpKind::InstanceNormalization
        | OpKind::LRN => Some(vec![0]),
        OpKind::MaxPool | OpKind::BatchNormalization | OpKind::Dropout if single => Some(vec![0]),
        // Along an axis other than the batch (the ONNX defaults: the last
        // axis for the normalizations, the first for Split and Gather).
        OpKind::LayerNormalization | OpKind::RMSNormalization if single => {
            (norm_axis(op.attrs.int("axis").unwrap_or(-1), rank(0)?) != 0).then(|| vec![0])
        }
        OpKind::Softmax | OpKind::LogSoftmax | OpKind::Hardmax => {
            (norm_axis(op.attrs.int("axis").unwrap_or(-1), rank(0)?) != 0).then(|| vec![0])
        }
        OpKind::Concat | OpKind::Split | OpKind::Gather => {
            let axis = op.attrs.int("axis").unwrap_or(0);
            let aligned = if op.kind == OpKind::Concat {
                all
            } else {
                vec![0]
            };
            (norm_axis(axis, rank(0)?) != 0).then_some(aligned)
        }
        OpKind::Transpose => op
            .attrs
            .ints("perm")
            .is_some_and(|perm| perm.first() == Some(&0))
            .then(|| vec![0]),
        OpKind::FusedAttention => Some(all),
        // Results of rank ≥ 3 (`image_batch`): a batched product, whose
        // operands of the results' rank have its batch first.
        OpKind::MatMul | OpKind::FusedMatMul => Some(all),
        OpKind::Slice => {
            let axes = if op.version < 10 {
                op.attrs.ints("axes").map(<[i64]>::to_vec)
            } else {
                op.inputs
                    .get(3)
                    .copied()
                    .flatten()
                    .and_then(|v| const_ints(model, v))
            };
            // Without axes, the starts begin at the first axis.
            let r = rank(0)?;
            axes?.iter().all(|&a| norm_axis(a, r) != 0).then(|| vec![0])
        }
        _ => None,
    }
}

/// The values a kernel sees one image at a time (those whose first dim is
/// the batch, seen as `[1, …]`), when it runs image by image: a loop over
/// the images around the kernel's ops, each seeing one image of the
/// batched values and all of every other value, every size static.
/// So a convolution over a dynamic batch, or a static one above 1, gets
/// its static schedule for one image (the product form, tiles, vectors,
/// chunks for the threads) instead of the general loop nest of a symbolic
/// kernel or the window nest of a batch.
///
/// It does when the first output's first dim is the batch — symbolic, or
/// static above 1 in a kernel with a convolution — every op works image
/// by image ([`batch_aligned`]) with its results batched, each
/// batch-aligned operand of the results' rank has the batch first (it is
/// batched) or 1 (it broadcasts), no other operand is batched, and every
/// value with a symbolic size is batched with static sizes after the
/// batch. Results have rank ≥ 3 (images, not rows: a loop over rows of a
/// matrix would schedule each row apart).
pub(crate) fn image_batch(model: &Model, spec: &KernelSpec) -> Option<HashSet<Value>> {
    let batch = first_dim(model, *spec.outputs.first()?)?.clone();
    let has_conv = || {
        spec.ops
            .iter()
            .any(|&o| matches!(model.ir.op(o).kind, OpKind::Conv | OpKind::FusedConv))
    };
    match batch {
        Dim::Known(n) if n <= 1 || !has_conv() => return None,
        _ => {}
    }
    let dims = |v: Value| value_tensor(model, v).ok()?.dims();
    let mut batched = HashSet::new();
    let mut whole = HashSet::new();
    for &op in &spec.ops {
        let data = model.ir.op(op);
        let aligned = batch_aligned(model, data)?;
        let mut rank = None;
        for &r in data.results.iter().flatten() {
            let d = dims(r)?;
            if d.len() < 3 || d[0] != batch || rank.is_some_and(|k| k != d.len()) {
                return None;
            }
            rank = Some(d.len());
            batched.insert(r);
        }
        for (i, v) in data.inputs.iter().enumerate() {
            let Some(v) = *v else { continue };
            let d = dims(v)?;
            if aligned.contains(&i) && Some(d.len()) == rank && d[0] == batch {
                batched.insert(v);
            } else if aligned.contains(&i) && Some(d.len()) == rank && d[0] != Dim::Known(1) {
                return None;
            } else {
                whole.insert(v);
            }
        }
    }
    let every = spec.ops.iter().flat_map(|&o| {
        let data = model.ir.op(o);
        data.inputs.iter().chain(&data.results).flatten().copied()
    });
    for v in every.chain(spec.inputs.iter().chain(&spec.outputs).copied()) {
        let d = dims(v)?;
        let symbolic = d.iter().any(|d| !d.is_known());
        let in_batch = batched.contains(&v);
        if (in_batch && whole.contains(&v))
            || (symbolic && !(in_batch && d[1..].iter().all(Dim::is_known)))
        {
            return None;
        }
    }
    Some(batched)
}
