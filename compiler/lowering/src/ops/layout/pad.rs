//! Pad (each source index computed in the body: constant, edge,
//! reflect, wrap) and CenterCropPad (a centered crop or zero pad of each
//! axis).

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model};

use super::copy::finish_root;
use crate::builder::{generic, identity_map, map, CmpiPredicate, Expr, Size};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::fused_root;
use crate::ops::common::{const_ints, entries_are, equal, norm_axis, operand, per_axis};
use crate::ops::sample::{elem_of_scalar, F};
use crate::symbols::{sized_dims, Check};
use crate::types::{elem_type, value_tensor};

pub(super) fn pad(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let y = data.results[0].expect("output");
    let (xd, elem) = kb.shape(x)?;
    let rank = xd.len();
    let mode = data.attrs.string("mode").unwrap_or("constant").to_string();
    if !matches!(mode.as_str(), "constant" | "edge" | "reflect" | "wrap") {
        return Err(kb.unsupported(op, &format!("pad mode '{mode}'")));
    }
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let axes_input = input(3).filter(|_| data.version >= 18);
    // Each dim's leading pad: known, or read from the inputs at run time.
    let begin = if data.version < 11 {
        let name = if data.version < 2 { "paddings" } else { "pads" };
        let pads = data.attrs.ints(name).unwrap_or_default();
        Begin::Known(
            (0..rank)
                .map(|i| pads.get(i).copied().unwrap_or(0))
                .collect(),
        )
    } else {
        let pads = input(1).expect("pads");
        let known_axes = match axes_input {
            Some(v) => const_ints(kb.model, v),
            None => Some((0..rank as i64).collect()),
        };
        match (const_ints(kb.model, pads), known_axes) {
            (Some(pads), Some(axes)) => {
                let mut begin = vec![0; rank];
                for (k, &a) in axes.iter().enumerate() {
                    begin[norm_axis(a, rank)] = pads[k];
                }
                Begin::Known(begin)
            }
            _ => Begin::AtRunTime {
                pads: kb.tensor(pads),
                axes: axes_input.map(|v| kb.tensor(v)),
                n: match kb.sizes(pads)?[0] {
                    Size::Static(len) => Size::Static(len / 2),
                    Size::Dynamic(len) => Size::Dynamic(kb.e.divui(len, kb.e.index(2))),
                },
            },
        }
    };
    // The constant value: an attribute before 11, an optional input after.
    let value_input = input(2).filter(|_| data.version >= 11);
    let value_attr = f64::from(data.attrs.float("value").unwrap_or(0.0));
    let has_value = value_input.is_some();
    let xt = kb.tensor(x);
    let sizes = kb.sizes(x)?;
    let init = kb.init(y)?;
    let mut ins = vec![];
    if let Some(v) = value_input {
        // A scalar, or (as the Attention function body passes it) a
        // one-element vector: every index of it is 0.
        let value_rank = kb.shape(v)?.0.len();
        let zeros = vec![Expr::constant(kb.e.cx, 0); value_rank];
        ins.push((kb.tensor(v), map(kb.e.cx, rank, &zeros)));
    }
    let e = kb.e;
    let scalar = elem_type(e.cx, elem)?;
    let g = generic(
        e,
        &ins,
        &[(init, identity_map(kb.e.cx, rank))],
        &vec![false; rank],
        |be, a| {
            let index = Type::index(be.cx);
            let zero = be.i(index, 0);
            let begin = match &begin {
                Begin::Known(b) => b.iter().map(|&p| be.index(p)).collect(),
                Begin::AtRunTime { pads, axes, n } => per_axis(be, rank, *n, *axes, *pads, 0, 0),
            };
            let mut valid: Option<MValue> = None;
            let mut idx = vec![];
            for i in 0..rank {
                let src = be.subi(be.loop_index(i), begin[i]);
                let (n, dynamic) = match sizes[i] {
                    Size::Static(n) => (be.i(index, n), None),
                    // (a run-time size picks its case with a select, and
                    // divides by at least 1)
                    Size::Dynamic(n) => (n, Some(n)),
                };
                let last = be.maxsi(be.subi(n, be.i(index, 1)), zero);
                let clamped = be.minsi(be.maxsi(src, zero), last);
                let static_n = match sizes[i] {
                    Size::Static(n) => n,
                    Size::Dynamic(_) => i64::MAX,
                };
                let j = match mode.as_str() {
                    "edge" => clamped,
                    "reflect" if static_n > 1 => {
                        // Reflect about 0 and n-1 with period 2(n-1).
                        let period = be.addi(last, last);
                        let period = be.maxsi(period, be.i(index, 1));
                        let m = be.remsi(src, period);
                        let m =
                            be.select(be.cmpi(CmpiPredicate::Slt, m, zero), be.addi(m, period), m);
                        let back = be.subi(period, m);
                        let reflected = be.minsi(m, back);
                        match dynamic {
                            Some(n) => be.select(
                                be.cmpi(CmpiPredicate::Sgt, n, be.i(index, 1)),
                                reflected,
                                clamped,
                            ),
                            None => reflected,
                        }
                    }
                    "wrap" if static_n > 0 => {
                        let nn = be.maxsi(n, be.i(index, 1));
                        let m = be.remsi(src, nn);
                        be.select(be.cmpi(CmpiPredicate::Slt, m, zero), be.addi(m, nn), m)
                    }
                    "constant" => {
                        let inside = be.andi(
                            be.cmpi(CmpiPredicate::Sge, src, zero),
                            be.cmpi(CmpiPredicate::Slt, src, n),
                        );
                        valid = Some(match valid {
                            Some(v) => be.andi(v, inside),
                            None => inside,
                        });
                        clamped
                    }
                    _ => clamped,
                };
                idx.push(j);
            }
            let v = be.extract(xt, &idx);
            let v = match valid {
                Some(ok) => {
                    let c = if has_value {
                        a[0]
                    } else if elem.is_float() {
                        be.f(scalar, value_attr)
                    } else {
                        be.i(scalar, value_attr as i64)
                    };
                    be.select(ok, v, c)
                }
                None => v,
            };
            vec![v]
        },
    );
    finish_root(kb, g, y)
}

/// Pad's leading pad per dim.
enum Begin<'c, 'a> {
    /// Known at compile time.
    Known(Vec<i64>),
    /// Entries `0..n` of `pads` (the leading pads of `axes`, or of dims
    /// `0..n`), read at run time.
    AtRunTime {
        pads: MValue<'c, 'a>,
        axes: Option<MValue<'c, 'a>>,
        n: Size<'c, 'a>,
    },
}

/// Lowers CenterCropPad (18): each axis is cropped (start `⌊(in − out)/2⌋`)
/// or zero-padded (`⌊(out − in)/2⌋` before) around its center to the
/// output's (inferred) extent: `y[o] = x[o + crop − pad]`, 0 outside `x`.
pub(super) fn center_crop_pad(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input_data");
    let y = data.results[0].expect("output_data");
    let (yd, _) = kb.shape(y)?;
    let (xs, ys) = (kb.sizes(x)?, kb.sizes(y)?);
    let same = |d: usize| -> Result<bool> {
        let dims = |v| value_tensor(kb.model, v).map(|t| t.dims().map(|ds| ds[d].clone()));
        Ok(dims(x)? == dims(y)?)
    };
    let same: Vec<bool> = (0..yd.len()).map(same).collect::<Result<_>>()?;
    let e = kb.e;
    // Per dim: the shift `⌊(in − out)⁺/2⌋ − ⌊(out − in)⁺/2⌋` (at run
    // time for a symbolic size), `None` where the output reads the input
    // at its own coordinates (no shift, no padding).
    let shifts: Vec<Option<Size>> = (0..yd.len())
        .map(|d| match (xs[d], ys[d]) {
            (Size::Static(i), Size::Static(o)) => {
                let shift = (i - o).max(0) / 2 - (o - i).max(0) / 2;
                (shift != 0 || i < o).then_some(Size::Static(shift))
            }
            _ if same[d] => None,
            (xd, yd) => {
                let diff = e.subi(xd.value(&e), yd.value(&e));
                let zero = e.index(0);
                let crop = e.maxsi(diff, zero);
                let pad = e.maxsi(e.subi(zero, diff), zero);
                let half = |v| e.divsi(v, e.index(2));
                Some(Size::Dynamic(e.subi(half(crop), half(pad))))
            }
        })
        .collect();
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let n = yd.len();
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, args| {
            let ty = elem_of_scalar(args[0]);
            let mut idx = vec![];
            let mut inside: Option<MValue> = None;
            for d in 0..n {
                let o = be.loop_index(d);
                let Some(shift) = shifts[d] else {
                    idx.push(o);
                    continue;
                };
                let p = be.sized(shift, |s| be.addi(o, s));
                // Unsigned: a negative position compares above the extent.
                let ok = be.sized(xs[d], |n| be.cmpi(CmpiPredicate::Ult, p, n));
                idx.push(be.select(ok, p, be.index(0)));
                inside = Some(inside.map_or(ok, |all| be.andi(all, ok)));
            }
            let f = F { e: be };
            let v = f.extract(xt, &idx);
            let v = match inside {
                Some(ok) => {
                    let zero = if melior::ir::r#type::IntegerType::try_from(ty).is_ok() {
                        be.i(ty, 0)
                    } else {
                        be.f(ty, 0.0)
                    };
                    be.select(ok, v, zero)
                }
                None => v,
            };
            vec![v]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// The checks of a CenterCropPad with symbolic sizes (`ops::entry_checks`):
/// the dims off `axes` are the input's, `shape` gives the others.
pub(crate) fn center_crop_pad_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let input = |i: usize| operand(data, i);
    let y = sized_dims(model, data.results[0])?;
    let mut out = vec![];
    let x = dims(0)?;
    if x.len() != y.len() {
        return Err("an output of another rank than the input");
    }
    let r = x.len() as i64;
    let axes: Vec<usize> = match data.attrs.ints("axes") {
        Some(a) => a
            .iter()
            .map(|&d| {
                usize::try_from(if d < 0 { d + r } else { d })
                    .ok()
                    .filter(|&d| d < x.len())
            })
            .collect::<Option<_>>()
            .ok_or("axes out of range")?,
        None => (0..x.len()).collect(),
    };
    for d in (0..x.len()).filter(|d| !axes.contains(d)) {
        equal(&mut out, &x[d], &y[d]);
    }
    let shape: Vec<(usize, Dim)> = axes
        .iter()
        .enumerate()
        .map(|(j, &a)| (j, y[a].clone()))
        .collect();
    entries_are(model, input(1)?, axes.len(), &shape, &mut out)?;
    Ok(out)
}
