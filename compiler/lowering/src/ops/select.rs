//! Data-dependent selections: Compress.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Compress | the slices along `axis` (or the elements of the flattened input) whose entry of `condition` is true, in order | `axis` (negative too) or none; a constant condition, or a graph input read at run time; f32/f64, integers and bools (not f16/bf16 yet) |
//!
//! The output's length along the axis is the number of true entries: the
//! output type must give it (static, or a polynomial over the inputs'
//! dim_params). With a constant condition it is checked at compile time;
//! with a graph input the model's entry counts the true entries
//! (`symbols::Check::Count`) and fails with `OMLC_ERR_SHAPE` when the
//! output's length is another. One generic over the output: output slice
//! `q` reads the input at the position of the `q+1`-th true entry, found
//! by an `scf.for` over the condition (O(n·c) for n output elements and c
//! entries); positions stay within the input's axis.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, Model, OpKind, Value};

use super::elementwise::identity_map;
use super::structured::{const_ints, elem_of, for_loop, generic, loop_index, norm_axis};
use super::unsupported;
use crate::error::Result;
use crate::kernel::{value_tensor, KernelBuilder};
use crate::symbols::graph_input;

/// The condition of Compress op `op` and how many of its entries select
/// anything (those within the input's axis) when it is read at run time:
/// a graph input of static length, the input of static shape.
pub(crate) fn runtime_condition(model: &Model, op: OpId) -> Option<(Value, usize)> {
    let data = model.ir.op(op);
    if data.kind != OpKind::Compress {
        return None;
    }
    let condition = data.inputs.get(1).copied().flatten()?;
    graph_input(model, condition)?;
    let c = value_tensor(model, condition).ok()?.static_numel()? as usize;
    let xd = value_tensor(model, data.inputs[0]?).ok()?.static_dims()?;
    let extent = match data.attrs.int("axis") {
        Some(a) => xd[norm_axis(a, xd.len()).min(xd.len().checked_sub(1)?)],
        None => xd.iter().product(),
    };
    Some((condition, c.min(extent as usize)))
}

/// Lowers Compress.
pub(crate) fn lower_compress(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let condition = data.inputs[1].expect("condition");
    let y = data.results[0].expect("output");
    let (xd, elem) = kb.shape(x)?;
    if matches!(elem, ElemType::F16 | ElemType::BF16) {
        return Err(unsupported(kb, op, &format!("{elem} inputs")));
    }
    let (yd, _) = kb.shape(y)?;
    let rank = xd.len();
    let axis = match data.attrs.int("axis") {
        Some(a) if a < -(rank as i64) || a >= rank as i64 => {
            return Err(unsupported(kb, op, "an axis out of range"))
        }
        Some(a) => Some(norm_axis(a, rank)),
        None => None,
    };
    if yd.len() != axis.map_or(1, |_| rank) {
        return Err(unsupported(kb, op, "an output of another rank"));
    }
    if xd.iter().any(|&d| d < 0) {
        return Err(unsupported(kb, op, "an input of symbolic size"));
    }
    let extent = match axis {
        Some(a) => xd[a],
        None => xd.iter().product(),
    };
    let c = match const_ints(kb.model, condition) {
        Some(values) => {
            let n = values.len().min(extent as usize);
            let selected = values[..n].iter().filter(|&&v| v != 0).count() as i64;
            let length = yd.get(axis.unwrap_or(0)).copied();
            if length != Some(selected) {
                return Err(unsupported(
                    kb,
                    op,
                    "an output length that is not the number of true conditions",
                ));
            }
            n
        }
        None => match runtime_condition(kb.model, op) {
            Some((_, n)) => n,
            None => return Err(unsupported(kb, op, "a condition computed by the model")),
        },
    };
    let (xt, ct) = (kb.tensor(x), kb.tensor(condition));
    let init = kb.init(y)?;
    let out_rank = yd.len();
    let ty = elem_of(xt);
    let g = generic(
        kb.e,
        &[],
        &[(init, identity_map(out_rank))],
        &vec![false; out_rank],
        |be, _| {
            let p: Vec<MValue> = (0..out_rank).map(|m| loop_index(be, m)).collect();
            let q = p[axis.unwrap_or(0)];
            let index = Type::index(be.cx);
            let zero = be.index(0);
            // The position of the (q+1)-th true entry.
            let found = for_loop(be, zero, be.index(c as i64), &[zero, zero], |le, t, s| {
                let v = le.value(le.op("tensor.extract", &[ct, t], &[elem_of(ct)], &[]));
                let v = le.convert("arith.extui", v, le.int_type(64));
                let v = le.convert("arith.index_cast", v, index);
                let selected = le.cmp("arith.cmpi", 1, v, le.index(0));
                let hit = le.same("arith.andi", &[selected, le.cmp("arith.cmpi", 0, s[0], q)]);
                let count = le.select(selected, le.same("arith.addi", &[s[0], le.index(1)]), s[0]);
                vec![count, le.select(hit, t, s[1])]
            })[1];
            let mut at = vec![xt];
            match axis {
                Some(a) => at.extend((0..rank).map(|d| if d == a { found } else { p[d] })),
                None => {
                    let mut rest = found;
                    let mut coords = vec![zero; rank];
                    for d in (0..rank).rev() {
                        let n = be.index(xd[d]);
                        coords[d] = be.same("arith.remui", &[rest, n]);
                        rest = be.same("arith.divui", &[rest, n]);
                    }
                    at.extend(coords);
                }
            }
            vec![be.value(be.op("tensor.extract", &at, &[ty], &[]))]
        },
    );
    super::structured::fused_root(kb, g, y, &yd);
    Ok(())
}
