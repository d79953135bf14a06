//! Gathers, scatters and selections by index or mask (the dialect's
//! `ops/index.rs` family): the indexed reads in `gather.rs`, the
//! scatters in `scatter.rs`, Compress in `compress.rs`.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Gather | `y[i…, j…, k…] = x[i…, idx[j…], k…]` along `axis` | i32/i64 indices, negative indices |
//! | GatherElements | `y[p] = x[p with p[axis] = idx[p]]` | i32/i64 indices, negative indices |
//! | GatherND | `y[b…, m…, k…] = x[b…, idx[b…, m…, :], k…]` | `batch_dims`, negative indices |
//! | OneHot | `y[p] = on` where `idx[p without axis] = p[axis]`, else `off` | `axis`, negative indices, integer or float indices; depth from the output shape |
//! | ReverseSequence | `y[p] = x[p with p[t] = len[p[b]] - 1 - p[t]]` for `p[t] < len[p[b]]`, else `x[p]` | `batch_axis`, `time_axis` |
//! | Scatter, ScatterElements, ScatterND | each output element from the data, the matching updates folded in | `reduction` none, add, mul, max, min |
//! | Compress | the (q+1)-th selected slice for output position q | `axis` or flattened |
//!

mod compress;
mod gather;
mod scatter;

use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::schema::IndexOp;
use onnx_mlc_dialect::{Dim, Model, Value};

use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::norm_axis;
use crate::symbols::{is_dynamic, Check, Symbolic};
use crate::types::value_tensor;

/// Lowers one op of the index family.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: IndexOp) -> Result<()> {
    use IndexOp::*;
    match which {
        Gather | GatherElements => gather::gather(kb, op),
        GatherND => gather::gather_nd(kb, op),
        OneHot => gather::one_hot(kb, op),
        ReverseSequence => gather::reverse_sequence(kb, op),
        Scatter | ScatterElements | ScatterND => scatter::lower(kb, op),
        Compress => compress::lower(kb, op),
        TensorScatter | NonZero | Unique => Err(kb.not_lowered(op)),
    }
}

/// How an op of the index family takes symbolic sizes: Gather and
/// GatherElements wrap and clamp their indices by the data's run-time
/// sizes; the others rely on conditions of their own.
pub(crate) fn checks(model: &Model, op: OpId, which: IndexOp) -> Result<Symbolic> {
    use IndexOp::*;
    let data = model.ir.op(op);
    Ok(match which {
        Gather | GatherElements => Symbolic::checked(vec![]),
        GatherND => Symbolic::of(gather::gather_nd_checks(model, data)),
        OneHot => Symbolic::of(gather::one_hot_checks(model, data)),
        ReverseSequence => Symbolic::checked(reverse_sequence_checks(model, op)?),
        Scatter | ScatterElements | ScatterND => Symbolic::of(scatter::checks(model, data)),
        Compress => Symbolic::of(compress::checks(model, data)),
        TensorScatter | NonZero | Unique => Symbolic::not_yet(),
    })
}

/// The checks of a ReverseSequence with symbolic sizes (a gather over the
/// output, the time axis's run-time size bounding the lengths): it keeps
/// the input's dims, and the sequence lengths are one per batch entry.
/// Static kernels keep their shapes from inference alone.
fn reverse_sequence_checks(model: &Model, op: OpId) -> Result<Vec<Check>> {
    let data = model.ir.op(op);
    let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
        let v = v.expect("a required operand");
        Ok(value_tensor(model, v)?.dims().unwrap_or_default().to_vec())
    };
    let mut out = vec![];
    let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
    let lens = dims(data.inputs[1])?;
    let batch = norm_axis(data.attrs.int("batch_axis").unwrap_or(1), x.len());
    for (d, y) in x.iter().zip(&y) {
        out.push(Check::Equal(d.clone(), y.clone()));
    }
    if let [n] = &lens[..] {
        out.push(Check::Equal(n.clone(), x[batch].clone()));
    }
    out.retain(|c| !matches!(c, Check::Equal(a, b) if a == b));
    if !is_dynamic(model, &[op]) {
        out.clear();
    }
    Ok(out)
}
