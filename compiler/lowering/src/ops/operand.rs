//! How a generic's body reads an operand: broadcast numpy-style through
//! its indexing map, read along the channel dim (a per-channel
//! parameter), or gathered with `tensor.extract` where its sizes
//! broadcast only at run time; and the maps reading a statistic. Shared
//! by the elementwise runs, the products' epilogues, the normalizations
//! and the quantization ops.

use melior::ir::{AffineMap, Type, Value as MValue};
use melior::Context;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use crate::builder::{d, map, projection, CmpiPredicate, Emitter, Expr};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::broadcast_at_run_time;
use crate::types::{elem_type, value_tensor};

/// How the body of a run reads an operand broadcast at run time.
pub(crate) struct Gather<'c, 'a> {
    tensor: MValue<'c, 'a>,
    /// The loop dim of each operand dim, and `Some(is_one)` (an `i1`) where
    /// the operand's size is 1 only at run time, `None` where it is
    /// statically 1 (`Some` index 0 either way) — or the loop index as is.
    axes: Vec<(usize, Option<Option<MValue<'c, 'a>>>)>,
    /// The stored element type (`i8` for booleans, computed as `i1`).
    elem: Type<'c>,
    is_bool: bool,
}

impl<'c, 'a> Gather<'c, 'a> {
    /// The operand's element at the body's loop indices.
    pub(crate) fn read<'b>(&self, be: Emitter<'c, 'b>) -> MValue<'c, 'b> {
        let zero = be.index(0);
        let indices: Vec<MValue> = self
            .axes
            .iter()
            .map(|&(dim, broadcast)| match broadcast {
                None => be.loop_index(dim),
                Some(None) => zero,
                Some(Some(is_one)) => be.select(is_one, zero, be.loop_index(dim)),
            })
            .collect();
        let x = be.extract(self.tensor, &indices);
        if self.is_bool {
            be.cmpi(CmpiPredicate::Ne, x, be.i(self.elem, 0))
        } else {
            x
        }
    }

    /// How to read a matrix-product operand `v` (rank ≥ 2) over the loops
    /// of `[batch…, rows, cols]` with the result's batch dims `batch`: a
    /// batch dim at index 0 where it is a static 1, or where its run-time
    /// size is 1 and it broadcasts only at run time
    /// ([`broadcast_at_run_time`]); every other dim at its loop.
    pub(crate) fn batch_of(kb: &KernelBuilder<'c, 'a>, v: Value, batch: &[Dim]) -> Result<Self> {
        let dims = value_tensor(kb.model, v)?
            .dims()
            .unwrap_or_default()
            .to_vec();
        let sizes = kb.sizes(v)?;
        let own = dims.len() - 2;
        let lead = batch.len() - own;
        let e = kb.e;
        let mut axes = vec![];
        for (j, (d, size)) in dims.iter().zip(&sizes).enumerate() {
            let broadcast = match j < own {
                true if *d == Dim::Known(1) => Some(None),
                true if broadcast_at_run_time(d, &batch[lead + j]) => {
                    Some(Some(e.cmpi(CmpiPredicate::Eq, size.value(&e), e.index(1))))
                }
                _ => None,
            };
            axes.push((lead + j, broadcast));
        }
        let elem = kb.shape(v)?.1;
        Ok(Gather {
            tensor: kb.tensor(v),
            axes,
            elem: elem_type(e.cx, elem)?,
            is_bool: elem == ElemType::Bool,
        })
    }

    /// How to read the 1-D tensor `v` (a per-tensor or per-axis
    /// parameter whose size is known only at run time) over a generic's
    /// loops: at loop `axis`'s index, or at 0 where its run-time size is
    /// 1 (always with no axis).
    pub(crate) fn along(kb: &KernelBuilder<'c, 'a>, v: Value, axis: Option<usize>) -> Result<Self> {
        let e = kb.e;
        let size = kb.sizes(v)?[0].value(&e);
        let broadcast = axis.map(|_| e.cmpi(CmpiPredicate::Eq, size, e.index(1)));
        let elem = kb.shape(v)?.1;
        Ok(Gather {
            tensor: kb.tensor(v),
            axes: vec![(axis.unwrap_or(0), Some(broadcast))],
            elem: elem_type(e.cx, elem)?,
            is_bool: elem == ElemType::Bool,
        })
    }
}

/// How a generic's body reads an operand: one of its inputs (at that
/// position of the body's arguments), or gathered where its sizes
/// broadcast only at run time.
pub(crate) enum BodyOperand<'c, 'a> {
    Input(usize),
    Gathered(Gather<'c, 'a>),
}

impl<'c, 'a> BodyOperand<'c, 'a> {
    /// The operand's element at the body's loop indices, from the body's
    /// `args`.
    pub(crate) fn read<'b>(&self, be: Emitter<'c, 'b>, args: &[MValue<'c, 'b>]) -> MValue<'c, 'b> {
        match self {
            BodyOperand::Input(i) => args[*i],
            BodyOperand::Gathered(g) => g.read(be),
        }
    }
}

/// How to read operand `v` of a run computing `out` when some dim of it
/// broadcasts at run time ([`broadcast_at_run_time`]); `None` when
/// its indexing map can say how (every dim 1 or `out`'s at compile time).
pub(crate) fn runtime_gather<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    out: Value,
) -> Result<Option<Gather<'c, 'a>>> {
    let y = value_tensor(kb.model, out)?
        .dims()
        .unwrap_or_default()
        .to_vec();
    runtime_gather_to(kb, v, &y)
}

/// [`runtime_gather`] for a computation over dims `y` that is no value
/// of the model (FusedAttention's scores).
pub(crate) fn runtime_gather_to<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    y: &[Dim],
) -> Result<Option<Gather<'c, 'a>>> {
    let d = value_tensor(kb.model, v)?
        .dims()
        .unwrap_or_default()
        .to_vec();
    if d.len() > y.len()
        || !d
            .iter()
            .rev()
            .zip(y.iter().rev())
            .any(|(d, y)| broadcast_at_run_time(d, y))
    {
        return Ok(None);
    }
    let sizes = kb.sizes(v)?;
    let lead = y.len() - d.len();
    let e = kb.e;
    let axes = d
        .iter()
        .zip(&sizes)
        .enumerate()
        .map(|(j, (dj, size))| {
            let broadcast = if *dj == Dim::Known(1) {
                Some(None)
            } else if broadcast_at_run_time(dj, &y[lead + j]) {
                Some(Some(e.cmpi(CmpiPredicate::Eq, size.value(&e), e.index(1))))
            } else {
                None
            };
            (lead + j, broadcast)
        })
        .collect();
    let elem = kb.shape(v)?.1;
    Ok(Some(Gather {
        tensor: kb.tensor(v),
        axes,
        elem: elem_type(e.cx, elem)?,
        is_bool: elem == ElemType::Bool,
    }))
}

/// How to read per-channel parameter `v` (a `[C]` vector read along dim 1
/// of `out`, [`channel_operands`]) when its size is not the channel
/// count at compile time: at index 0 where its run-time size is 1, else
/// at the channel (the model's entry has checked that it is 1 or the
/// channel count, `ops::entry_checks`); `None` when its indexing map reads it.
pub(crate) fn channel_gather<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    v: Value,
    out: Value,
) -> Result<Option<Gather<'c, 'a>>> {
    let dims = |v| value_tensor(kb.model, v).map(|t| t.dims().unwrap_or_default().to_vec());
    let (c, y) = (dims(v)?, dims(out)?);
    if c.first() == y.get(1) {
        return Ok(None);
    }
    Gather::along(kb, v, Some(1)).map(Some)
}

/// The inputs whose values an op reads (`CastLike`'s second input only
/// gives the type).
pub(crate) fn data_inputs(op: &OpData) -> impl Iterator<Item = &Value> {
    let n = if op.kind == OpKind::CastLike {
        1
    } else {
        op.inputs.len()
    };
    op.inputs[..n.min(op.inputs.len())].iter().flatten()
}

/// Whether an operand of `dims` broadcasts to `out` numpy-style (right
/// aligned, each dim 1 or equal; dynamic dims, negative here, are decided
/// by the dynamic-shape checks).
pub(crate) fn broadcasts_to(dims: &[i64], out: &[i64]) -> bool {
    dims.len() <= out.len()
        && dims
            .iter()
            .zip(&out[out.len() - dims.len()..])
            .all(|(&d, &o)| d == 1 || d == o || d < 0 || o < 0)
}

/// The expressions reading an operand of `dims` broadcast to `out`
/// (right-aligned; a dim of 1 against a larger one reads index 0).
pub(crate) fn broadcast_exprs<'c>(cx: &'c Context, dims: &[i64], out: &[i64]) -> Vec<Expr<'c>> {
    let lead = out.len() - dims.len();
    dims.iter()
        .enumerate()
        .map(|(j, &n)| {
            if n == 1 && out[lead + j] != 1 {
                Expr::constant(cx, 0)
            } else {
                d(cx, lead + j)
            }
        })
        .collect()
}

/// The indexing map reading an operand of `dims` broadcast to `out`.
pub(crate) fn broadcast_map<'c>(cx: &'c Context, dims: &[i64], out: &[i64]) -> AffineMap<'c> {
    map(cx, out.len(), &broadcast_exprs(cx, dims, out))
}

/// Whether `v` is read by an op of `chain` as a per-channel parameter
/// ([`channel_operands`]); an error when another op of the run reads it
/// numpy-style too (one operand, one indexing map).
pub(crate) fn is_channel_operand(kb: &KernelBuilder, chain: &[OpId], v: Value) -> Result<bool> {
    let ir = &kb.model.ir;
    let reads = |o: &&OpId| ir.op(**o).inputs.contains(&Some(v));
    let by_channel = |o: &&OpId| channel_operands(kb.model, ir.op(**o)).contains(&v);
    let Some(&bn) = chain.iter().find(by_channel) else {
        return Ok(false);
    };
    if chain.iter().filter(reads).any(|o| !by_channel(&o)) {
        return Err(kb.unsupported(bn, "a parameter read elementwise by another op of the run"));
    }
    Ok(true)
}

/// The operands of elementwise op `data` read along the channels (dim 1
/// of its result) rather than broadcast numpy-style: the scale, B, mean
/// and var of a BatchNormalization, and the `[C]` slope of a PRelu before
/// opset 7 (whose legacy broadcast aligns it with the channels: a 1-D
/// slope, not a static 1, of an input of rank at least 2 whose channel
/// count may be its size — with symbolic sizes the model's entry checks
/// that it is, `ops::entry_checks`).
pub(crate) fn channel_operands(model: &Model, data: &OpData) -> Vec<Value> {
    let dims = |i: usize| {
        data.inputs
            .get(i)
            .copied()
            .flatten()
            .and_then(|v| value_tensor(model, v).ok())
            .and_then(|t| t.dims().map(<[Dim]>::to_vec))
    };
    match data.kind {
        OpKind::BatchNormalization => data.inputs[1..].iter().flatten().copied().collect(),
        OpKind::PRelu if data.version < 7 => match (dims(0), dims(1)) {
            (Some(x), Some(slope))
                if x.len() >= 2
                    && slope.len() == 1
                    && slope[0] != Dim::Known(1)
                    && !slope[0].definitely_ne(&x[1]) =>
            {
                data.inputs[1].into_iter().collect()
            }
            _ => vec![],
        },
        _ => vec![],
    }
}

/// The indexing map reading a `[C]` parameter along dim 1 of a rank-`rank`
/// iteration space.
pub(crate) fn channel_map(cx: &Context, rank: usize) -> AffineMap<'_> {
    projection(cx, rank, [1])
}

/// The map reading a statistic (the dims left after dropping `reduced`)
/// from loops over the full input.
pub(crate) fn stat_map<'c>(cx: &'c Context, rank: usize, reduced: &[bool]) -> AffineMap<'c> {
    projection(cx, rank, (0..rank).filter(|&i| !reduced[i]))
}
