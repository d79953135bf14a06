//! GridSample (the input sampled at a grid's normalized coordinates) and
//! AffineGrid (the affine images of the base grid).

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model};

use crate::builder::{generic, identity_map, CmpfPredicate, Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{entries_are, equal, fused_root, nonempty, operand};
use crate::ops::sample::{cubic_weight, elem_of_scalar, next_pick, sampled_float, F};
use crate::symbols::{sized_dims, Check};

/// A GridSample tap along one axis: its clamped index, its weight (none
/// for nearest), and whether it lies inside the input (zeros padding).
type GridTap<'c, 'b> = (
    MValue<'c, 'b>,
    Option<MValue<'c, 'b>>,
    Option<MValue<'c, 'b>>,
);

/// GridSample's interpolation.
#[derive(Clone, Copy, PartialEq)]
enum GridMode {
    Nearest,
    Linear,
    Cubic,
}

/// GridSample's handling of coordinates outside the input.
#[derive(Clone, Copy, PartialEq)]
enum Padding {
    Zeros,
    Border,
    Reflection,
}

/// Lowers GridSample (16, 20, 22): `Y[n, c, o…] = X[n, c]` sampled at the
/// denormalized coordinates `grid[n, o…, ::-1]`.
pub(super) fn grid_sample(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X");
    let grid = data.inputs[1].expect("grid");
    let y = data.results[0].expect("Y");
    let (xd, elem) = kb.shape(x)?;
    let (gd, gelem) = kb.shape(grid)?;
    let (yd, _) = kb.shape(y)?;
    let xs = kb.sizes(x)?;
    if !sampled_float(elem) || !sampled_float(gelem) {
        return Err(kb.unsupported(op, &format!("{elem} elements")));
    }
    let mode = match data.attrs.string("mode").unwrap_or(if data.version < 20 {
        "bilinear"
    } else {
        "linear"
    }) {
        "nearest" => GridMode::Nearest,
        "bilinear" | "linear" => GridMode::Linear,
        "bicubic" | "cubic" => GridMode::Cubic,
        m => return Err(kb.unsupported(op, &format!("mode {m:?}"))),
    };
    let padding = match data.attrs.string("padding_mode").unwrap_or("zeros") {
        "zeros" => Padding::Zeros,
        "border" => Padding::Border,
        "reflection" => Padding::Reflection,
        m => return Err(kb.unsupported(op, &format!("padding_mode {m:?}"))),
    };
    let align = data.attrs.int("align_corners").unwrap_or(0) != 0;
    let nd = xd.len() - 2;
    let xt = kb.tensor(x);
    let gt = kb.tensor(grid);
    let init = kb.init(y)?;
    let e = kb.e;
    let n = yd.len();
    debug_assert_eq!(gd.len(), nd + 2);
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let batch = be.loop_index(0);
            let channel = be.loop_index(1);
            let spatial: Vec<MValue> = (2..n).map(|d| be.loop_index(d)).collect();
            // Per input spatial dim: (index, weight, inside) of each tap.
            let mut taps: Vec<Vec<GridTap<'_, '_>>> = vec![];
            for i in 0..nd {
                let len = xs[2 + i];
                let mut gi = vec![batch];
                gi.extend(spatial.iter().copied());
                gi.push(be.index((nd - 1 - i) as i64));
                let g = f.extend(f.extract(gt, &gi));
                let (lo, hi) = if align {
                    (f.c(0.0), f.size(len, -1.0))
                } else {
                    (f.c(-0.5), f.size(len, -0.5))
                };
                let mut v = if align {
                    f.mul(f.div(f.add(g, f.c(1.0)), f.c(2.0)), f.size(len, -1.0))
                } else {
                    f.div(
                        f.sub(f.mul(f.add(g, f.c(1.0)), f.size(len, 0.0)), f.c(1.0)),
                        f.c(2.0),
                    )
                };
                if mode == GridMode::Nearest {
                    v = f.e.roundeven(v);
                }
                let out = f.or(
                    f.cmp(CmpfPredicate::Olt, v, lo),
                    f.cmp(CmpfPredicate::Ogt, v, hi),
                );
                v = match padding {
                    Padding::Zeros => v,
                    Padding::Border => {
                        let c = f.max(f.min(v, f.size(len, -1.0)), f.c(0.0));
                        be.select(out, c, v)
                    }
                    Padding::Reflection => be.select(out, reflect(f, v, lo, hi), v),
                };
                let (start, weights): (MValue, Vec<Option<MValue>>) = match mode {
                    GridMode::Nearest => (f.e.trunc(v), vec![None]),
                    GridMode::Linear => {
                        let x0 = f.floor(v);
                        let t = f.sub(v, x0);
                        (x0, vec![Some(f.sub(f.c(1.0), t)), Some(t)])
                    }
                    GridMode::Cubic => {
                        let x0 = f.floor(v);
                        let t = f.sub(v, x0);
                        // Taps at distances 1 + t, t, 1 − t and 2 − t.
                        let ws = [
                            f.add(t, f.c(1.0)),
                            t,
                            f.sub(f.c(1.0), t),
                            f.sub(f.c(2.0), t),
                        ]
                        .into_iter()
                        .map(|d| Some(cubic_weight(f, d, -0.75)))
                        .collect();
                        (f.sub(x0, f.c(1.0)), ws)
                    }
                };
                let row = weights
                    .into_iter()
                    .enumerate()
                    .map(|(k, w)| {
                        let p = f.add(start, f.c(k as f64));
                        let (p, inside) = match padding {
                            Padding::Zeros => (p, Some(f.inside(p, len))),
                            Padding::Border => (p, None),
                            Padding::Reflection => {
                                let r = reflect(f, p, lo, hi);
                                (f.e.trunc(r), None)
                            }
                        };
                        (f.clamp_index(p, len), w, inside)
                    })
                    .collect();
                taps.push(row);
            }
            let mut acc: Option<MValue> = None;
            let mut pick = vec![0usize; nd];
            loop {
                let mut idx = vec![batch, channel];
                let mut weight: Option<MValue> = None;
                let mut inside: Option<MValue> = None;
                for (d, row) in taps.iter().enumerate() {
                    let (i, w, ins) = row[pick[d]];
                    idx.push(i);
                    if let Some(w) = w {
                        weight = Some(weight.map_or(w, |p| f.mul(p, w)));
                    }
                    if let Some(ins) = ins {
                        inside = Some(inside.map_or(ins, |p| be.andi(p, ins)));
                    }
                }
                let mut v = f.extend(f.extract(xt, &idx));
                if let Some(ins) = inside {
                    v = be.select(ins, v, f.c(0.0));
                }
                let term = weight.map_or(v, |w| f.mul(w, v));
                acc = Some(acc.map_or(term, |p| f.add(p, term)));
                if !next_pick(&mut pick, |d| taps[d].len()) {
                    break;
                }
            }
            vec![f.narrow(acc.expect("at least one tap"), out_ty)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// Reflects `x` by the nearer border of `[lo, hi]` until it lies inside
/// (GridSample's reflection padding); `lo` for an empty range.
fn reflect<'c, 'b>(
    f: F<'c, 'b>,
    x: MValue<'c, 'b>,
    lo: MValue<'c, 'b>,
    hi: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let range = f.sub(hi, lo);
    let below = f.cmp(CmpfPredicate::Olt, x, lo);
    let dx = be_select(f, below, f.sub(lo, x), f.sub(x, hi));
    let flips = f.floor(f.div(dx, range));
    let r = f.sub(dx, f.mul(flips, range));
    let half = f.mul(f.floor(f.mul(flips, f.c(0.5))), f.c(2.0));
    let even = f.cmp(CmpfPredicate::Oeq, half, flips);
    let from_lo = f.add(lo, r);
    let from_hi = f.sub(hi, r);
    let reflected = be_select(
        f,
        below,
        be_select(f, even, from_lo, from_hi),
        be_select(f, even, from_hi, from_lo),
    );
    let inside = f.inside_range(x, lo, hi);
    let empty = f.cmp(CmpfPredicate::Ole, range, f.c(0.0));
    be_select(f, empty, lo, be_select(f, inside, x, reflected))
}

/// `arith.select` through an [`F`].
fn be_select<'c, 'b>(
    f: F<'c, 'b>,
    c: MValue<'c, 'b>,
    a: MValue<'c, 'b>,
    b: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    f.e.select(c, a, b)
}

/// Lowers AffineGrid (20): `grid[n, s…, i] = Σ_j θ[n, i, j] · b_j +
/// θ[n, i, nd]`, with `b` the base grid's normalized coordinates of
/// position `s` in x, y(, z) order (x along the last spatial dim):
/// `−1 + 2j/(L−1)` with `align_corners`, else `(2j+1)/L − 1`.
pub(super) fn affine_grid(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let theta = data.inputs[0].expect("theta");
    let y = data.results[0].expect("grid");
    let (td, elem) = kb.shape(theta)?;
    let (yd, _) = kb.shape(y)?;
    if !sampled_float(elem) {
        return Err(kb.unsupported(op, &format!("{elem} elements")));
    }
    let nd = yd.len() - 2;
    let fits = |d: i64, n: usize| d == n as i64 || d == DYNAMIC;
    if td.len() != 3 || !fits(td[1], nd) || !fits(td[2], nd + 1) {
        return Err(kb.unsupported(op, "theta does not match the grid's rank"));
    }
    let align = data.attrs.int("align_corners").unwrap_or(0) != 0;
    let tt = kb.tensor(theta);
    let init = kb.init(y)?;
    let e = kb.e;
    let n = yd.len();
    let spatial = kb.sizes(y)?[1..1 + nd].to_vec();
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let batch = be.loop_index(0);
            let row = be.loop_index(n - 1);
            let mut acc = f.extend(f.extract(tt, &[batch, row, be.index(nd as i64)]));
            for j in 0..nd {
                // Coordinate j (x, y, z) runs along spatial dim nd − 1 − j.
                let dim = nd - 1 - j;
                let len = spatial[dim];
                let p = f.of_index(be.loop_index(1 + dim));
                let base = match len {
                    _ if !align => f.sub(
                        f.div(f.add(f.mul(p, f.c(2.0)), f.c(1.0)), f.size(len, 0.0)),
                        f.c(1.0),
                    ),
                    Size::Static(len) if len > 1 => {
                        f.add(f.c(-1.0), f.mul(p, f.c(2.0 / (len - 1) as f64)))
                    }
                    Size::Static(_) => f.c(-1.0),
                    // `−1 + 2p/(L−1)`, and −1 for a single position.
                    Size::Dynamic(_) => {
                        let last = f.size(len, -1.0);
                        let single = f.cmp(CmpfPredicate::Ole, last, f.c(0.0));
                        let last = be.select(single, f.c(1.0), last);
                        f.add(f.c(-1.0), f.div(f.mul(p, f.c(2.0)), last))
                    }
                };
                let t = f.extend(f.extract(tt, &[batch, row, be.index(j as i64)]));
                acc = f.add(acc, f.mul(t, base));
            }
            vec![f.narrow(acc, out_ty)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// The checks of a GridSample with symbolic sizes (`ops::entry_checks`),
/// the conditions its generic (one loop nest over the output, reading the
/// inputs at computed and clamped coordinates) relies on: X, grid and Y
/// share the batch, X and Y the channels, the grid's spatial dims are Y's
/// and its last dim the spatial rank; X's spatial sizes (indices are
/// clamped into them) are at least 1.
pub(crate) fn grid_sample_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let y = sized_dims(model, data.results[0])?;
    let mut out = vec![];
    let (x, g) = (dims(0)?, dims(1)?);
    let r = x.len();
    if r < 3 || g.len() != r || y.len() != r {
        return Err("operands of different ranks");
    }
    equal(&mut out, &x[0], &y[0]);
    equal(&mut out, &g[0], &y[0]);
    equal(&mut out, &x[1], &y[1]);
    for i in 0..r - 2 {
        equal(&mut out, &g[1 + i], &y[2 + i]);
    }
    equal(&mut out, &g[r - 1], &Dim::Known(r as i64 - 2));
    nonempty(&mut out, &x[2..]);
    Ok(out)
}

/// The checks of an AffineGrid with symbolic sizes (`ops::entry_checks`):
/// theta is `[N, r, r + 1]` and `size` is `[N, C, Y's spatial dims…]`
/// (compared at compile time for a constant, checked at run time for a
/// graph input).
pub(crate) fn affine_grid_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let input = |i: usize| operand(data, i);
    let y = sized_dims(model, data.results[0])?;
    let mut out = vec![];
    let theta = dims(0)?;
    let nd = y.len().checked_sub(2).ok_or("a grid of rank below 2")?;
    if theta.len() != 3 {
        return Err("a theta of a rank other than 3");
    }
    equal(&mut out, &theta[0], &y[0]);
    equal(&mut out, &theta[1], &Dim::Known(nd as i64));
    equal(&mut out, &theta[2], &Dim::Known(nd as i64 + 1));
    let mut sizes = vec![(0, y[0].clone())];
    sizes.extend((0..nd).map(|i| (2 + i, y[1 + i].clone())));
    entries_are(model, input(1)?, nd + 2, &sizes, &mut out)?;
    Ok(out)
}
