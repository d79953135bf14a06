//! Signal ops: the windows HannWindow, HammingWindow and BlackmanWindow.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | HannWindow | `y[n] = 0.5 - 0.5·cos(2πn/N')` | `periodic` (N' = N, else N - 1), `output_datatype` f32/f64 |
//! | HammingWindow | `y[n] = α - (1-α)·cos(2πn/N')`, α = 25/46 | as Hann |
//! | BlackmanWindow | `y[n] = 0.42 - 0.5·cos(2πn/N') + 0.08·cos(4πn/N')` | as Hann |
//!
//! The window's length N is the value of the `size` input: a constant, or
//! a graph input (int32/int64 scalar) read at run time, whose value the
//! model's entry checks against the output's length
//! (`symbols::Check::Value`), so that a size that does not match the
//! output fails with `OMLC_ERR_SHAPE` instead of giving a window of
//! another length. Each element is one generic over the output,
//! computed in f64 and rounded to the output type.

use std::f64::consts::PI;

use melior::ir::Type;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::schema::SignalOp;
use onnx_mlc_dialect::{ElemType, Model, OpKind, Value};

use super::common::{const_ints, fused_root};
use crate::builder::{elem_of, generic, identity_map};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::{graph_input, Check, Symbolic};
use crate::types::value_tensor;

/// Lowers a window function.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: SignalOp) -> Result<()> {
    use SignalOp::*;
    match which {
        BlackmanWindow | HammingWindow | HannWindow => lower_window(kb, op),
        DFT | STFT | MelWeightMatrix => Err(kb.not_lowered(op)),
    }
}

/// How a signal op takes symbolic sizes: none does yet, but a window's
/// size read from a graph input ([`runtime_size`]) is checked by the
/// model's entry to be the output's length, which the kernel assumes.
pub(crate) fn checks(model: &Model, op: OpId, which: SignalOp) -> Result<Symbolic> {
    use SignalOp::*;
    let mut symbolic = Symbolic::not_yet();
    match which {
        BlackmanWindow | HammingWindow | HannWindow => {
            if let Some(size) = runtime_size(model, op) {
                let y = model.ir.op(op).results[0].expect("a window has an output");
                if let Some([n]) = value_tensor(model, y)?.dims() {
                    symbolic.checks.push(Check::Value {
                        input: graph_input(model, size).expect("runtime_size is a graph input"),
                        elem: value_tensor(model, size)?.elem,
                        entry: None,
                        expected: n.clone(),
                    });
                }
            }
        }
        DFT | STFT | MelWeightMatrix => {}
    }
    Ok(symbolic)
}

/// The `size` input of window op `op` when it is read at run time: a
/// graph input (checked by the model's entry, `symbols::Check::Value`).
fn runtime_size(model: &Model, op: OpId) -> Option<Value> {
    let data = model.ir.op(op);
    let windowed = matches!(
        data.kind,
        OpKind::HannWindow | OpKind::HammingWindow | OpKind::BlackmanWindow
    );
    let size = data.inputs.first().copied().flatten()?;
    (windowed && graph_input(model, size).is_some()).then_some(size)
}

/// Lowers HannWindow, HammingWindow or BlackmanWindow.
fn lower_window(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let size = data.inputs[0].expect("size");
    let y = data.results[0].expect("output");
    let (yd, elem) = kb.shape(y)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) || yd.len() != 1 {
        return Err(kb.unsupported(op, &format!("{elem} windows")));
    }
    let e = kb.e;
    let f64t = Type::float64(e.cx);
    let n = match const_ints(kb.model, size) {
        Some(v) => {
            if Some(&v[0]) != yd.first() {
                return Err(kb.unsupported(op, "a size that is not the output's length"));
            }
            e.f(f64t, v[0] as f64)
        }
        None if runtime_size(kb.model, op).is_some() => {
            let s = kb.tensor(size);
            let s = e.extract(s, &[]);
            e.sitofp(s, f64t)
        }
        None => return Err(kb.unsupported(op, "a size computed by the model")),
    };
    let periodic = data.attrs.int("periodic").unwrap_or(1) != 0;
    let denominator = if periodic {
        n
    } else {
        e.subf(n, e.f(f64t, 1.0))
    };
    let kind = data.kind;
    let init = kb.init(y)?;
    let out = elem_of(init);
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, 1))],
        &[false],
        |be, _| {
            let i = be.index_cast(be.loop_index(0), be.int_type(64));
            let i = be.sitofp(i, f64t);
            // cos(k·2πn/N')
            let cosine = |k: f64| {
                let t = be.mulf(i, be.f(f64t, 2.0 * PI * k));
                be.cos(be.divf(t, denominator))
            };
            let terms: &[(f64, f64)] = match kind {
                OpKind::HannWindow => &[(1.0, -0.5)],
                OpKind::HammingWindow => &[(1.0, -(1.0 - 25.0 / 46.0))],
                _ => &[(1.0, -0.5), (2.0, 0.08)],
            };
            let base = match kind {
                OpKind::HannWindow => 0.5,
                OpKind::HammingWindow => 25.0 / 46.0,
                _ => 0.42,
            };
            let w = terms.iter().fold(be.f(f64t, base), |w, &(k, c)| {
                be.addf(w, be.mulf(cosine(k), be.f(f64t, c)))
            });
            vec![if elem == ElemType::F64 {
                w
            } else {
                be.truncf(w, out)
            }]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}
