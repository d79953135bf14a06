//! Compile-time control flow: `If`, `Scan` and `Loop` whose behaviour is
//! fixed when the model is compiled become the straight-line ops of their
//! subgraphs, inlined into the enclosing graph (values of enclosing graphs
//! that a subgraph reads are used directly).
//!
//! ```text
//! If(c) = then_branch()                          c known true
//!       = else_branch()                          c known false
//!       = Where(c, then_branch(), else_branch()) c known at run time only
//! Scan(s, xs) : for t in 0..T: s, y_t = body(s, xs[t]);  ys = stack(y_t)
//! Loop(M, c, v) : for i in 0..M while c: c, v, y_i = body(i, c, v);  ys = stack(y_i)
//! ```
//!
//! - `If` (1–25): a condition inference knows selects its branch. A run-time
//!   condition is if-converted (both branches computed, each result picked
//!   by `Where`) when the branches are pure tensor computations that cannot
//!   fault on the values of the branch not taken (no gathers or scatters by
//!   computed indices, no random draws, no integer division, only static
//!   shapes, no nested subgraphs) and give results of the same static
//!   tensor type.
//! - `Scan` (8–25) with a static sequence length: the body is inlined once per
//!   step; each scan input is sliced with a `Gather` of a constant index along
//!   its `scan_input_axes` entry (the last index first when its direction is
//!   reverse), the state goes from step to step, and each scan output is
//!   stacked with `Unsqueeze` + `Concat` along its `scan_output_axes` entry
//!   (in reverse order when its direction is reverse). Scan-8's leading batch
//!   axis is one more loop around the steps; its `sequence_lens` must be
//!   absent or known to be the full length.
//! - `Loop` (1–25) whose trip count and condition inference knows: the body
//!   is inlined with a constant iteration number and condition per step, and
//!   the condition it gives back must be known after each step. Scan outputs
//!   are stacked on a new leading axis; a loop that runs no step and has scan
//!   outputs is not expanded (their shape is the body's, never computed).
//!
//! A Scan (9–25) of more than [`MAX_UNROLLED_STEPS`] steps, or of a
//! symbolic length, runs as a run-time Loop over its steps instead. A
//! sequence length or trip count that is symbolic, a condition known at run
//! time only, a body with nested subgraphs that could not be expanded first,
//! or more than [`MAX_INLINED_OPS`] ops to emit leaves the op as it is, and
//! the lowering refuses it. Run-time control flow (structured loops and
//! branches in the model function) is not built yet.

use std::collections::HashMap;

use bytes::Bytes;

use super::builder::Builder;
use crate::attr::Attr;
use crate::dim::Dim;
use crate::ir::{Ir, NewOp, OpId, RegionId, Value};
use crate::schema::OpKind::{self, *};
use crate::tensor::TensorData;
use crate::types::{ElemType, Type};

/// The most ops one expansion may inline (body ops times steps).
pub(super) const MAX_INLINED_OPS: usize = 1024;

/// The most steps of a Scan inlined one by one: a longer one runs as a
/// run-time Loop, whose body compiles once (a scan over a k-NN model's
/// 200 training rows, inlined, took the lowering minutes).
const MAX_UNROLLED_STEPS: i64 = 64;

impl Builder<'_> {
    /// A `GRAPH` attribute of the op being replaced.
    fn graph_attr(&self, name: &str) -> Option<RegionId> {
        match self.target().attrs.get(name)? {
            Attr::Graph(r) => Some(*r),
            _ => None,
        }
    }

    /// An `INTS` attribute (or its default, or `default` when it has none).
    fn ints_attr(&self, name: &str, default: Vec<i64>) -> Option<Vec<i64>> {
        match self.attr(name) {
            Some(Attr::Ints(v)) => Some(v),
            None => Some(default),
            _ => None,
        }
    }

    /// Number of ops in a region (its own, not those of nested regions);
    /// `None` when one of them has a subgraph of its own.
    fn flat_len(&self, region: RegionId) -> Option<usize> {
        let ops = &self.ir.region(region).ops;
        ops.iter()
            .all(|&o| self.ir.op(o).attrs.regions().next().is_none())
            .then_some(ops.len())
    }

    /// Copies the ops of `region` (which has no nested subgraphs) before
    /// the op being replaced, with its arguments bound to `args`, and
    /// returns the values of its outputs.
    fn inline(&mut self, region: RegionId, args: &[Value]) -> Option<Vec<Value>> {
        let data = self.ir.region(region);
        if data.args.len() != args.len() {
            return None;
        }
        let mut map: HashMap<Value, Value> = data
            .args
            .iter()
            .map(|a| a.value)
            .zip(args.iter().copied())
            .collect();
        for src in data.ops.clone() {
            // A copy of the op: same kind, version, attributes and node
            // name, on the mapped inputs, its types inferred anew.
            let op = self.ir.op(src).clone();
            let new = NewOp {
                kind: op.kind,
                version: op.version,
                inputs: op
                    .inputs
                    .iter()
                    .map(|i| i.map(|v| *map.get(&v).unwrap_or(&v)))
                    .collect(),
                results: op
                    .results
                    .iter()
                    .map(|r| r.map(|_| (None, Type::Unknown)))
                    .collect(),
                attrs: op.attrs.clone(),
                name: op.name.clone(),
            };
            let id = self.insert(new)?;
            for (old, new) in op.results.iter().zip(&self.ir.op(id).results) {
                if let (Some(old), Some(new)) = (old, new) {
                    map.insert(*old, *new);
                }
            }
        }
        let outputs = &self.ir.region(region).outputs;
        Some(
            outputs
                .iter()
                .map(|o| map.get(&o.value).copied().unwrap_or(o.value))
                .collect(),
        )
    }

    /// A scalar constant of element type `elem` (int64 or bool); `None`
    /// before opset 9, where `Constant` holds floats only.
    fn int_scalar(&mut self, elem: ElemType, value: i64) -> Option<Value> {
        if self.opset < 9 {
            return None;
        }
        let data = match elem {
            ElemType::Bool => TensorData::from_raw(
                ElemType::Bool,
                vec![],
                Bytes::from(vec![u8::from(value != 0)]),
            )
            .ok()?,
            _ => TensorData::scalar(value),
        };
        self.constant(data)
    }

    /// Element `index` of `x` along `axis`, that axis removed.
    /// (Before opset 9, where `Constant` holds floats only, a `Slice` with
    /// attribute bounds and a `Squeeze`.)
    fn take(&mut self, x: Value, axis: i64, index: i64) -> Option<Value> {
        if self.opset < 9 {
            let slice = self.slice(x, axis, index, index + 1)?;
            return self.squeeze_like(Squeeze, slice, &[axis]);
        }
        let index = self.int_scalar(ElemType::I64, index)?;
        self.op(Gather, &[x, index], &[("axis", Attr::Int(axis))])
    }

    /// `parts` stacked along a new axis `axis` (negative counts from the
    /// end of the stacked rank).
    fn stack(&mut self, parts: &[Value], axis: i64) -> Option<Value> {
        let rank = i64::try_from(self.rank(*parts.first()?)?).ok()? + 1;
        let axis = if axis < 0 { axis + rank } else { axis };
        if !(0..rank).contains(&axis) {
            return None;
        }
        let mut expanded = vec![];
        for &p in parts {
            expanded.push(self.squeeze_like(Unsqueeze, p, &[axis])?);
        }
        if expanded.len() == 1 {
            return Some(expanded[0]);
        }
        self.op(Concat, &expanded, &[("axis", Attr::Int(axis))])
    }
}

/// Whether an op of a branch can run whatever the values it sees, as an
/// if-converted branch that is not taken must: no indexing by computed
/// indices, no random draws, no integer division (by a zero the branch
/// guards against), and only static result types (no sizes computed from
/// values the branch was not meant to see).
fn speculable(ir: &Ir, op: OpId) -> bool {
    let data = ir.op(op);
    let results_static = data.results.iter().flatten().all(|&r| ir.ty(r).is_static());
    let int_division = matches!(data.kind, Div | Mod)
        && data
            .results
            .iter()
            .flatten()
            .any(|&r| ir.ty(r).elem().is_some_and(|e| !e.is_float()));
    results_static && !int_division && !may_fault(data.kind)
}

/// Ops that may fault, or draw random numbers, on the values of a branch
/// that is not taken.
fn may_fault(kind: OpKind) -> bool {
    matches!(
        kind,
        Gather
            | GatherElements
            | GatherND
            | Scatter
            | ScatterElements
            | ScatterND
            | TensorScatter
            | OneHot
            | Compress
            | NonZero
            | Bernoulli
            | Multinomial
            | RandomNormal
            | RandomNormalLike
            | RandomUniform
            | RandomUniformLike
    )
}

/// Expands If.
pub(super) fn if_op(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let cond = b.input(0)?;
    let then_branch = b.graph_attr("then_branch")?;
    let else_branch = b.graph_attr("else_branch")?;
    if let Some([c]) = b.known(cond).as_deref() {
        let branch = if *c != 0 { then_branch } else { else_branch };
        b.flat_len(branch)?;
        let values = b.inline(branch, &[])?;
        // A result of no known rank could not be planned anyway, and
        // downstream passes may lose the type the If declared for it.
        if values.iter().any(|&v| !b.ir.ty(v).is_ranked()) {
            return None;
        }
        return Some(values.into_iter().map(Some).collect());
    }
    let budget = b.flat_len(then_branch)? + b.flat_len(else_branch)?;
    let all_speculable = |r: RegionId| b.ir.region(r).ops.iter().all(|&o| speculable(b.ir, o));
    if budget > MAX_INLINED_OPS || !all_speculable(then_branch) || !all_speculable(else_branch) {
        return None;
    }
    if b.tensor(cond)?.static_numel()? != 1 {
        return None;
    }
    let then_values = b.inline(then_branch, &[])?;
    let else_values = b.inline(else_branch, &[])?;
    let scalar_cond = if b.rank(cond)? == 0 {
        cond
    } else {
        b.reshape(cond, &[])?
    };
    let mut results = vec![];
    for (t, e) in then_values.into_iter().zip(else_values) {
        let (tt, et) = (b.tensor(t)?, b.tensor(e)?);
        if tt != et || tt.static_dims().is_none() {
            return None;
        }
        results.push(Some(b.select(scalar_cond, t, e)?));
    }
    Some(results)
}

/// One scan input of a Scan: the value, the axis its steps run along and
/// whether they run backwards.
struct ScanInput {
    value: Value,
    axis: i64,
    reverse: bool,
}

/// Expands Scan.
pub(super) fn scan(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let body = b.graph_attr("body")?;
    let body_len = b.flat_len(body)?;
    let num_scan = usize::try_from(b.int_attr("num_scan_inputs")?).ok()?;
    let batched = b.target().version < 9;
    let operands: Vec<Value> = b.target().inputs[usize::from(batched)..]
        .iter()
        .copied()
        .collect::<Option<_>>()?;
    let num_state = operands.len().checked_sub(num_scan)?;
    let num_results = b.target().results.len();
    let num_scan_out = num_results.checked_sub(num_state)?;
    let input_dirs_name = if batched {
        "directions"
    } else {
        "scan_input_directions"
    };
    let input_dirs = b.ints_attr(input_dirs_name, vec![0; num_scan])?;
    let input_axes = b.ints_attr("scan_input_axes", vec![0; num_scan])?;
    let output_dirs = b.ints_attr("scan_output_directions", vec![0; num_scan_out])?;
    let output_axes = b.ints_attr("scan_output_axes", vec![0; num_scan_out])?;
    if input_dirs.len() != num_scan
        || input_axes.len() != num_scan
        || output_dirs.len() != num_scan_out
        || output_axes.len() != num_scan_out
    {
        return None;
    }
    // Scan-8 has a batch axis before the sequence axis.
    let seq_axis_shift = i64::from(batched);
    let mut scan_inputs = vec![];
    for (i, &value) in operands[num_state..].iter().enumerate() {
        let rank = i64::try_from(b.rank(value)?).ok()?;
        let axis = input_axes[i];
        let axis = if axis < 0 {
            axis + rank
        } else {
            axis + seq_axis_shift
        };
        if !(seq_axis_shift..rank).contains(&axis) {
            return None;
        }
        scan_inputs.push(ScanInput {
            value,
            axis,
            reverse: input_dirs[i] == 1,
        });
    }
    let len_of = |b: &Builder, s: &ScanInput| {
        b.sym_dims(s.value)?
            .get(usize::try_from(s.axis).ok()?)
            .cloned()
    };
    let out_dirs = output_dirs.iter().map(|&d| d == 1).collect();
    let steps = match len_of(b, scan_inputs.first()?)? {
        Dim::Known(n) if batched || n <= MAX_UNROLLED_STEPS => n,
        _ if !batched => {
            return run_time_scan(
                b,
                body,
                &operands[..num_state],
                &scan_inputs,
                out_dirs,
                &output_axes,
            );
        }
        _ => return None,
    };
    if steps <= 0
        || scan_inputs
            .iter()
            .any(|s| len_of(b, s) != Some(Dim::Known(steps)))
    {
        return None;
    }
    let batches = if batched {
        b.dims(operands[0])?.first().copied()?
    } else {
        1
    };
    // Scan-8's `sequence_lens` may only say what the shapes say.
    if let Some(lens) = b.input(0).filter(|_| batched) {
        if b.known(lens)?.iter().any(|&l| l != steps) {
            return None;
        }
    }
    let total = body_len.checked_mul(usize::try_from(steps * batches).ok()?)?;
    if batches <= 0 || total > MAX_INLINED_OPS {
        return None;
    }
    let steps_out = Steps {
        steps,
        reverse: out_dirs,
        axes: output_axes,
    };
    if !batched {
        return run_scan(b, body, &operands[..num_state], &scan_inputs, &steps_out);
    }
    // Scan-8: each batch entry scans on its own; the results are stacked
    // along the batch axis.
    let mut per_batch: Vec<Vec<Value>> = vec![vec![]; num_results];
    for n in 0..batches {
        let mut state = vec![];
        for &s in &operands[..num_state] {
            state.push(b.take(s, 0, n)?);
        }
        let mut inputs = vec![];
        for s in &scan_inputs {
            inputs.push(ScanInput {
                value: b.take(s.value, 0, n)?,
                axis: s.axis - 1,
                reverse: s.reverse,
            });
        }
        for (i, r) in run_scan(b, body, &state, &inputs, &steps_out)?
            .into_iter()
            .enumerate()
        {
            per_batch[i].push(r?);
        }
    }
    per_batch
        .iter()
        .map(|parts| b.stack(parts, 0).map(Some))
        .collect()
}

/// How a Scan stacks its scan outputs.
struct Steps {
    steps: i64,
    reverse: Vec<bool>,
    axes: Vec<i64>,
}

/// Inlines a (batch-free) scan: the final state values, then the stacked
/// scan outputs.
fn run_scan(
    b: &mut Builder,
    body: RegionId,
    initial: &[Value],
    inputs: &[ScanInput],
    out: &Steps,
) -> Option<Vec<Option<Value>>> {
    let mut state = initial.to_vec();
    let mut collected: Vec<Vec<Value>> = vec![vec![]; out.axes.len()];
    for t in 0..out.steps {
        let mut args = state.clone();
        for s in inputs {
            let index = if s.reverse { out.steps - 1 - t } else { t };
            args.push(b.take(s.value, s.axis, index)?);
        }
        let outputs = b.inline(body, &args)?;
        if outputs.len() != state.len() + collected.len() {
            return None;
        }
        state = outputs[..state.len()].to_vec();
        for (c, &y) in collected.iter_mut().zip(&outputs[state.len()..]) {
            c.push(y);
        }
    }
    let mut results: Vec<Option<Value>> = state.into_iter().map(Some).collect();
    for (k, mut parts) in collected.into_iter().enumerate() {
        if out.reverse[k] {
            parts.reverse();
        }
        results.push(Some(b.stack(&parts, out.axes[k])?));
    }
    Some(results)
}

/// A (batch-free) scan of a length known at run time only, as a `Loop`
/// over the first scan input's length (the host program runs it): the
/// body gathers each scan input's element at the step (`T - 1 - t` when
/// reverse) and inlines the Scan's body; the Loop stacks the scan outputs
/// along a new leading axis, reversed (`reverse`) and moved to their axis
/// (`axes`) afterwards. The other scan inputs are viewed at the first
/// one's length, so that the model's entry checks that they agree.
fn run_time_scan(
    b: &mut Builder,
    body: RegionId,
    initial: &[Value],
    inputs: &[ScanInput],
    reverse: Vec<bool>,
    axes: &[i64],
) -> Option<Vec<Option<Value>>> {
    let first = inputs.first()?;
    let length = b.size(first.value, usize::try_from(first.axis).ok()?)?;
    let mut scanned = vec![first.value];
    for s in &inputs[1..] {
        let mut sizes = vec![];
        for axis in 0..b.rank(s.value)? {
            sizes.push(match i64::try_from(axis).ok()? == s.axis {
                true => length,
                false => b.size(s.value, axis)?,
            });
        }
        let shape = b.size_vector(&sizes)?;
        scanned.push(b.op(Reshape, &[s.value, shape], &[])?);
    }
    let trips = b.size_scalar(length)?;
    let one = b.int_scalar(ElemType::I64, 1)?;
    let last = b.binary(Sub, trips, one)?;
    let results = b.run_time_loop(trips, initial, |b, t, state| {
        let mut args = state.to_vec();
        for (s, &x) in inputs.iter().zip(&scanned) {
            let index = if s.reverse {
                b.binary(Sub, last, t)?
            } else {
                t
            };
            args.push(b.op(Gather, &[x, index], &[("axis", Attr::Int(s.axis))])?);
        }
        let outputs = b.inline(body, &args)?;
        let split = state.len();
        (outputs.len() == split + axes.len())
            .then(|| (outputs[..split].to_vec(), outputs[split..].to_vec()))
    })?;
    let (state, stacked) = results.split_at(initial.len());
    let mut out: Vec<Option<Value>> = state.iter().copied().map(Some).collect();
    for ((&y, &back), &axis) in stacked.iter().zip(&reverse).zip(axes) {
        let mut y = y;
        if back {
            y = b.reverse(y, 0)?;
        }
        let rank = i64::try_from(b.rank(y)?).ok()?;
        let axis = if axis < 0 { axis + rank } else { axis };
        if !(0..rank).contains(&axis) {
            return None;
        }
        if axis != 0 {
            // The stacked axis 0 moves to `axis`.
            let mut perm: Vec<i64> = (1..rank).collect();
            perm.insert(usize::try_from(axis).ok()?, 0);
            y = b.transpose(y, &perm)?;
        }
        out.push(Some(y));
    }
    Some(out)
}

/// Expands Loop.
pub(super) fn loop_op(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let body = b.graph_attr("body")?;
    let body_len = b.flat_len(body)?.max(1);
    let trips = match b.input(0) {
        Some(m) => match b.known(m).as_deref() {
            Some(&[m]) => Some(m),
            _ => return None,
        },
        None => None,
    };
    let mut cond = match b.input(1) {
        Some(c) => match b.known(c).as_deref() {
            Some(&[c]) => c != 0,
            _ => return None,
        },
        None => true,
    };
    let mut carried: Vec<Value> = b.target().inputs[2..]
        .iter()
        .copied()
        .collect::<Option<_>>()?;
    let num_scan_out = b.target().results.len().checked_sub(carried.len())?;
    let mut collected: Vec<Vec<Value>> = vec![vec![]; num_scan_out];
    let mut i = 0;
    while cond && trips.is_none_or(|m| i < m) {
        if (usize::try_from(i).ok()? + 1) * body_len > MAX_INLINED_OPS {
            return None;
        }
        let mut args = vec![
            b.int_scalar(ElemType::I64, i)?,
            b.int_scalar(ElemType::Bool, 1)?,
        ];
        args.extend(&carried);
        let outputs = b.inline(body, &args)?;
        if outputs.len() != 1 + carried.len() + num_scan_out {
            return None;
        }
        cond = match b.known(outputs[0]).as_deref() {
            Some(&[c]) => c != 0,
            _ => return None,
        };
        carried = outputs[1..=carried.len()].to_vec();
        for (c, &y) in collected.iter_mut().zip(&outputs[1 + carried.len()..]) {
            c.push(y);
        }
        i += 1;
    }
    let mut results: Vec<Option<Value>> = carried.into_iter().map(Some).collect();
    for parts in collected {
        results.push(Some(b.stack(&parts, 0)?));
    }
    Some(results)
}
