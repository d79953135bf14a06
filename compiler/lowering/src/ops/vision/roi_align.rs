//! RoiAlign: bilinear samples of each region's bins, averaged or maxed.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, Model};

use crate::builder::{generic, identity_map, CmpfPredicate, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{equal, fused_root, nonempty};
use crate::ops::sample::{elem_of_scalar, sampled_float, F};
use crate::symbols::{sized_dims, Check};

/// Lowers RoiAlign (10, 16, 22) with a fixed `sampling_ratio`: each output
/// bin of roi `r` averages (or takes the max of) `ratio²` bilinear samples
/// of `X[batch_indices[r], c]` at the bin's regular sub-grid. Samples
/// beyond one pixel outside the image weigh 0; the others read clamped
/// neighbours. An adaptive ratio (0: from each roi's size) is refused.
pub(super) fn roi_align(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X");
    let rois = data.inputs[1].expect("rois");
    let batch = data.inputs[2].expect("batch_indices");
    let y = data.results[0].expect("Y");
    let (_, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let xs = kb.sizes(x)?;
    if !sampled_float(elem) || !sampled_float(kb.shape(rois)?.1) {
        return Err(kb.unsupported(op, &format!("{elem} elements")));
    }
    let a = &data.attrs;
    let ratio = a.int("sampling_ratio").unwrap_or(0);
    if ratio <= 0 {
        return Err(kb.unsupported(op, "an adaptive sampling_ratio (0)"));
    }
    if ratio > 16 {
        return Err(kb.unsupported(op, "a sampling_ratio above 16"));
    }
    let max_mode = match a.string("mode").unwrap_or("avg") {
        "avg" => false,
        "max" => true,
        m => return Err(kb.unsupported(op, &format!("mode {m:?}"))),
    };
    let half_pixel = match a.string("coordinate_transformation_mode") {
        Some("half_pixel") => true,
        Some("output_half_pixel") => false,
        None => data.version >= 16,
        Some(m) => return Err(kb.unsupported(op, &format!("coordinate_transformation_mode {m:?}"))),
    };
    let scale = f64::from(a.float("spatial_scale").unwrap_or(1.0));
    let (ph_n, pw_n) = (yd[2], yd[3]);
    if ph_n == DYNAMIC || pw_n == DYNAMIC {
        return Err(kb.unsupported(op, "a symbolic output height or width"));
    }
    let xt = kb.tensor(x);
    let rt = kb.tensor(rois);
    let bt = kb.tensor(batch);
    let init = kb.init(y)?;
    let e = kb.e;
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, 4))],
        &[false; 4],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let r = be.loop_index(0);
            let c = be.loop_index(1);
            let b = f.of_int(f.extract(bt, &[r]));
            let b = f.clamp_index(b, xs[0]);
            let offset = if half_pixel { 0.5 } else { 0.0 };
            let coord = |k: i64| {
                let v = f.extend(f.extract(rt, &[r, be.index(k)]));
                f.sub(f.mul(v, f.c(scale)), f.c(offset))
            };
            let (sw, sh, ew, eh) = (coord(0), coord(1), coord(2), coord(3));
            let mut rw = f.sub(ew, sw);
            let mut rh = f.sub(eh, sh);
            if !half_pixel {
                rw = f.max(rw, f.c(1.0));
                rh = f.max(rh, f.c(1.0));
            }
            let bin_h = f.div(rh, f.c(ph_n as f64));
            let bin_w = f.div(rw, f.c(pw_n as f64));
            let base_h = f.add(sh, f.mul(f.of_index(be.loop_index(2)), bin_h));
            let base_w = f.add(sw, f.mul(f.of_index(be.loop_index(3)), bin_w));
            // Per axis: the sample's (low, high) clamped indices and weights.
            // Along dim `d` of X.
            let axis = |start, bin, i: i64, d: usize| {
                let len = xs[d];
                let step = f.div(f.mul(f.c(i as f64 + 0.5), bin), f.c(ratio as f64));
                let p = f.add(start, step);
                let out = f.or(
                    f.cmp(CmpfPredicate::Olt, p, f.c(-1.0)),
                    f.cmp(CmpfPredicate::Ogt, p, f.size(len, 0.0)),
                );
                let p = f.max(p, f.c(0.0));
                let low = f.floor(p);
                let last = f.size(len, -1.0);
                let at_end = f.cmp(CmpfPredicate::Oge, low, last);
                let low = be.select(at_end, last, low);
                let high = be.select(at_end, last, f.add(low, f.c(1.0)));
                let p = be.select(at_end, last, p);
                let l = f.sub(p, low);
                let hw = f.sub(f.c(1.0), l);
                (
                    f.clamp_index(low, len),
                    f.clamp_index(high, len),
                    hw,
                    l,
                    out,
                )
            };
            let mut acc: Option<MValue> = None;
            for iy in 0..ratio {
                let (yl, yh, hy, ly, out_y) = axis(base_h, bin_h, iy, 2);
                for ix in 0..ratio {
                    let (xl, xh, hx, lx, out_x) = axis(base_w, bin_w, ix, 3);
                    let out = f.or(out_y, out_x);
                    let terms: Vec<MValue> = [
                        (yl, xl, f.mul(hy, hx)),
                        (yl, xh, f.mul(hy, lx)),
                        (yh, xl, f.mul(ly, hx)),
                        (yh, xh, f.mul(ly, lx)),
                    ]
                    .into_iter()
                    .map(|(yi, xi, wt)| {
                        let wt = be.select(out, f.c(0.0), wt);
                        f.mul(wt, f.extend(f.extract(xt, &[b, c, yi, xi])))
                    })
                    .collect();
                    let v = if max_mode {
                        terms.into_iter().reduce(|p, q| f.max(p, q))
                    } else {
                        terms.into_iter().reduce(|p, q| f.add(p, q))
                    }
                    .expect("four terms");
                    acc = Some(match acc {
                        None => v,
                        Some(p) if max_mode => f.max(p, v),
                        Some(p) => f.add(p, v),
                    });
                }
            }
            let mut v = acc.expect("at least one sample");
            if !max_mode {
                v = f.div(v, f.c((ratio * ratio) as f64));
            }
            vec![f.narrow(v, out_ty)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// The checks of a RoiAlign with symbolic sizes (`ops::entry_checks`):
/// rois and batch indices count the output's rows, rois have 4
/// coordinates, X and Y share the channels; X's batch and spatial sizes
/// (indices are clamped into them) are at least 1.
pub(crate) fn roi_align_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let y = sized_dims(model, data.results[0])?;
    let mut out = vec![];
    let (x, rois, batch) = (dims(0)?, dims(1)?, dims(2)?);
    if x.len() != 4 || rois.len() != 2 || batch.len() != 1 || y.len() != 4 {
        return Err("operands of the wrong ranks");
    }
    equal(&mut out, &rois[0], &y[0]);
    equal(&mut out, &batch[0], &y[0]);
    equal(&mut out, &rois[1], &Dim::Known(4));
    equal(&mut out, &x[1], &y[1]);
    nonempty(&mut out, &[x[0].clone(), x[2].clone(), x[3].clone()]);
    Ok(out)
}
