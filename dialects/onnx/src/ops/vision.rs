//! Image-space operators: resampling, grid sampling, region-of-interest
//! pooling and box suppression.
//!
//! | op | computes | result shape | opsets |
//! |----|----------|--------------|--------|
//! | Resize | interpolation to new sizes | `sizes` (with `axes`, `keep_aspect_ratio_policy`), or `floor(d · scale)` | 10 (X, scales), 11 (roi, scales, sizes), 13, 18 (axes, policy, antialias), 19 |
//! | Upsample | nearest/linear upsampling | `floor(d · scale)` (`height_scale`/`width_scale` in 1, `scales` attr in 7, input in 9) | 1, 7, 9, 10 |
//! | GridSample | sampling at grid coordinates | `[N, C, grid spatial…]` | 16, 20, 22 |
//! | AffineGrid | sampling grid of affine matrices | `[N, H, W, 2]` or `[N, D, H, W, 3]` from `size` | 20 |
//! | RoiAlign | bilinear pooling of regions | `[num_rois, C, output_height, output_width]` | 10, 16, 22 |
//! | MaxRoiPool | max pooling of regions | `[num_rois, C, pooled_shape…]` | 1, 22 |
//! | NonMaxSuppression | kept boxes | `[?, 3]` int64 | 10, 11 |

use super::operand::{dims_of_rank, expect_dim, input_name, normalize_axes, static_len, unify};
use crate::dim::Dim;
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::shape::fmt_dims;
use crate::schema::{OpKind, VisionOp};
use crate::tensor::TensorData;
use crate::types::ElemType;

pub(crate) fn infer(op: VisionOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use VisionOp::*;
    match op {
        Resize | Upsample => resize(cx),
        GridSample => grid_sample(cx),
        AffineGrid => affine_grid(cx),
        RoiAlign => {
            let elem = cx.elem(0)?;
            let x = dims_of_rank(cx, 0, 4)?;
            let rois = dims_of_rank(cx, 1, 2)?;
            expect_dim(&rois[1], &Dim::Known(4), "the second dim of 'rois'")?;
            let batch = dims_of_rank(cx, 2, 1)?;
            let n = unify(&rois[0], &batch[0], "the number of rois and batch indices")?;
            let (h, w) = (cx.int("output_height")?, cx.int("output_width")?);
            cx.set_tensor(0, elem, vec![n, x[1].clone(), Dim::Known(h), Dim::Known(w)]);
            Ok(())
        }
        MaxRoiPool => {
            let elem = cx.elem(0)?;
            let x = dims_of_rank(cx, 0, 4)?;
            let rois = dims_of_rank(cx, 1, 2)?;
            expect_dim(&rois[1], &Dim::Known(5), "the second dim of 'rois'")?;
            let pooled = cx
                .ints_opt("pooled_shape")?
                .ok_or_else(|| invalid!("attribute 'pooled_shape' is required"))?;
            let [h, w] = pooled[..] else {
                return Err(invalid!("'pooled_shape' {pooled:?} must have 2 values"));
            };
            cx.set_tensor(
                0,
                elem,
                vec![rois[0].clone(), x[1].clone(), Dim::Known(h), Dim::Known(w)],
            );
            Ok(())
        }
        NonMaxSuppression => {
            let boxes = dims_of_rank(cx, 0, 3)?;
            let scores = dims_of_rank(cx, 1, 3)?;
            expect_dim(&boxes[2], &Dim::Known(4), "the last dim of 'boxes'")?;
            unify(&boxes[0], &scores[0], "the batch sizes of boxes and scores")?;
            unify(
                &boxes[1],
                &scores[2],
                "the number of boxes in boxes and scores",
            )?;
            cx.set_tensor(0, ElemType::I64, vec![Dim::Unknown, Dim::Known(3)]);
            Ok(())
        }
    }
}

/// The contents of a float input when it is a non-empty known constant;
/// `Ok(None)` when absent or empty (how Resize says "not given").
fn float_input(cx: &InferCtx, i: usize) -> Result<Option<Vec<f64>>, Fail> {
    if !cx.has_input(i) {
        return Ok(None);
    }
    match cx.const_input(i).and_then(TensorData::to_f64s) {
        Some(v) => Ok((!v.is_empty()).then_some(v)),
        None if static_len(cx, i) == Some(0) => Ok(None),
        None => Err(unknown!(
            "'{}' (input {i}) is not a known constant",
            input_name(cx, i)
        )),
    }
}

fn resize(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = cx.dims(0)?.to_vec();
    let r = dims.len();
    let axes = match cx.ints_opt("axes")? {
        Some(a) => normalize_axes(&a, r)?,
        None => (0..r).collect(),
    };
    // Where scales and sizes are: attribute (Upsample-7), input 1, or inputs 2 and 3.
    let (scales, sizes) = match (cx.kind(), cx.version()) {
        (OpKind::Upsample, 1) => {
            let scale = |name| {
                cx.float_opt(name)?
                    .ok_or_else(|| invalid!("attribute '{name}' is required"))
            };
            let (h, w) = (
                f64::from(scale("height_scale")?),
                f64::from(scale("width_scale")?),
            );
            if r != 4 {
                return Err(invalid!("Upsample-1 takes an NCHW input, got rank {r}"));
            }
            (Ok(Some(vec![1.0, 1.0, h, w])), None)
        }
        (OpKind::Upsample, v) if v < 9 => {
            let s = cx
                .floats_opt("scales")?
                .ok_or_else(|| invalid!("attribute 'scales' is required"))?;
            (Ok(Some(s.into_iter().map(f64::from).collect())), None)
        }
        (OpKind::Upsample, _) | (OpKind::Resize, 10) => (float_input(cx, 1), None),
        _ => (
            float_input(cx, 2),
            cx.has_input(3).then(|| cx.sym_vector(3)),
        ),
    };
    let sizes = match sizes {
        Some(Some(s)) if s.is_empty() => None,
        Some(None) if static_len(cx, 3) == Some(0) => None,
        s => s,
    };
    let policy = cx
        .string_opt("keep_aspect_ratio_policy")?
        .unwrap_or_else(|| "stretch".into());
    if !matches!(policy.as_str(), "stretch" | "not_larger" | "not_smaller") {
        return Err(invalid!("unknown keep_aspect_ratio_policy '{policy}'"));
    }
    let mut out = dims.clone();
    match (scales, sizes) {
        (Ok(Some(_)), Some(_)) => {
            return Err(invalid!("only one of 'scales' and 'sizes' may be given"))
        }
        (_, Some(None)) | (Err(_), None) => {
            axes.iter().for_each(|&a| out[a] = Dim::Unknown);
            cx.set_tensor(0, elem, out);
            return Err(unknown!("the output sizes or scales are not known"));
        }
        (Ok(Some(scales)), None) => {
            if policy != "stretch" {
                return Err(invalid!(
                    "'scales' cannot be combined with keep_aspect_ratio_policy '{policy}'"
                ));
            }
            if scales.len() != axes.len() {
                return Err(invalid!("{} scales for {} axes", scales.len(), axes.len()));
            }
            if let Some(s) = scales.iter().find(|&&s| s <= 0.0) {
                return Err(invalid!("scale {s} is not positive"));
            }
            for (&a, &s) in axes.iter().zip(&scales) {
                out[a] = dims[a].floor_scaled(s);
            }
        }
        (Ok(None) | Err(_), Some(Some(sizes))) => {
            if sizes.len() != axes.len() {
                return Err(invalid!("{} sizes for {} axes", sizes.len(), axes.len()));
            }
            if policy == "stretch" {
                for (&a, s) in axes.iter().zip(sizes) {
                    out[a] = s;
                }
            } else {
                keep_aspect_ratio(&policy, &dims, &axes, &sizes, &mut out);
            }
        }
        (Ok(None), None) => return Err(invalid!("one of 'scales' and 'sizes' must be given")),
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// Sizes under `not_larger` / `not_smaller`: one scale for all `axes`,
/// the smallest (largest) of `size / d`, applied with rounding.
fn keep_aspect_ratio(policy: &str, dims: &[Dim], axes: &[usize], sizes: &[Dim], out: &mut [Dim]) {
    let ratios: Option<Vec<f64>> = axes
        .iter()
        .zip(sizes)
        .map(|(&a, s)| Some(s.as_known()? as f64 / dims[a].as_known()? as f64))
        .collect();
    let scale = ratios.map(|r| {
        let pick = if policy == "not_larger" {
            f64::min
        } else {
            f64::max
        };
        r.into_iter().reduce(pick).unwrap_or(1.0)
    });
    for &a in axes {
        out[a] = match (scale, &dims[a]) {
            (Some(s), Dim::Known(d)) => Dim::Known((s * *d as f64).round() as i64),
            _ => Dim::Unknown,
        };
    }
}

fn grid_sample(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let x = cx.dims(0)?.to_vec();
    let grid = cx.dims(1)?.to_vec();
    let r = x.len();
    if grid.len() != r || r < 3 {
        return Err(invalid!(
            "X {} and grid {} must have the same rank, at least 3",
            fmt_dims(&x),
            fmt_dims(&grid)
        ));
    }
    expect_dim(
        &grid[r - 1],
        &Dim::Known(r as i64 - 2),
        "the last dim of 'grid'",
    )?;
    let mut out = vec![
        unify(&x[0], &grid[0], "the batch sizes of X and grid")?,
        x[1].clone(),
    ];
    out.extend_from_slice(&grid[1..r - 1]);
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn affine_grid(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let theta = dims_of_rank(cx, 0, 3)?;
    let Some(size) = cx.sym_vector(1) else {
        match static_len(cx, 1) {
            Some(n @ (4 | 5)) => cx.set_tensor(0, elem, vec![Dim::Unknown; n]),
            _ => cx.set_unranked(0, elem),
        }
        return Err(unknown!("'size' is not known"));
    };
    let n = size.len();
    if n != 4 && n != 5 {
        return Err(invalid!(
            "'size' {} must be [N, C, H, W] or [N, C, D, H, W]",
            fmt_dims(&size)
        ));
    }
    let spatial = n as i64 - 2;
    expect_dim(&theta[1], &Dim::Known(spatial), "the second dim of 'theta'")?;
    expect_dim(
        &theta[2],
        &Dim::Known(spatial + 1),
        "the third dim of 'theta'",
    )?;
    let mut out = vec![unify(
        &theta[0],
        &size[0],
        "the batch sizes of theta and size",
    )?];
    out.extend_from_slice(&size[2..]);
    out.push(Dim::Known(spatial));
    cx.set_tensor(0, elem, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::attr::Attr;

    #[test]
    fn resize_by_scales_and_sizes() {
        let x = || ti("1x1x4x4xf32");
        infers! {
            13 Resize(x(), In::Absent, cf(&[1.0, 1.0, 0.6, 0.6])) => "1x1x2x2xf32";
            13 Resize(x(), In::Absent, cf(&[1.0, 1.0, 2.0, 3.0])) => "1x1x8x12xf32";
            11 Resize(x(), cf(&[]), cf(&[]), ci(&[1, 1, 3, 3])) => "1x1x3x3xf32";
            10 Resize(x(), cf(&[1.0, 1.0, 2.0, 2.0])) => "1x1x8x8xf32";
            18 Resize(x(), In::Absent, cf(&[2.0, 3.0]); axes = ints(&[2, 3])) => "1x1x8x12xf32";
            18 Resize(x(), In::Absent, In::Absent, ci(&[7, 8]); axes = ints(&[3, 2])) => "1x1x8x7xf32";
            18 Resize(ti("1x1x2x4xf32"), In::Absent, In::Absent, ci(&[7, 8]); keep_aspect_ratio_policy = Attr::str("not_larger"), axes = ints(&[2, 3])) => "1x1x4x8xf32";
            18 Resize(ti("1x1x2x4xf32"), In::Absent, In::Absent, ci(&[7, 8]); keep_aspect_ratio_policy = Attr::str("not_smaller"), axes = ints(&[2, 3])) => "1x1x7x14xf32";
            13 Resize(ti("Nx3xHxWxf32"), In::Absent, cf(&[1.0, 1.0, 2.0, 2.0])) => "Nx3x(2*H)x(2*W)xf32";
            13 Resize(ti("Nx3xHxWxf32"), In::Absent, cf(&[1.0, 1.0, 0.5, 0.5])) => "Nx3x?x?xf32";
            13 Resize(x(), In::Absent, ti("4xf32")) => "?x?x?x?xf32";
            13 Resize(x(), In::Absent, cf(&[2.0, 2.0])) => Fails(1, "2 scales for 4 axes");
            13 Resize(x(), In::Absent, cf(&[1.0, 1.0, 2.0, 2.0]), ci(&[1, 1, 8, 8])) => Fails(1, "only one");
            13 Resize(x()) => Fails(1, "must be given");
            9 Upsample(x(), cf(&[1.0, 1.0, 2.0, 3.0])) => "1x1x8x12xf32";
            7 Upsample(x(); scales = Attr::Floats(vec![1.0, 1.0, 2.0, 2.0])) => "1x1x8x8xf32";
            1 Upsample(x(); height_scale = Attr::Float(2.0), width_scale = Attr::Float(3.0)) => "1x1x8x12xf32";
        }
    }

    #[test]
    fn sampling_and_regions() {
        infers! {
            16 GridSample(ti("2x3x8x8xf32"), ti("2x5x6x2xf32")) => "2x3x5x6xf32";
            20 GridSample(ti("2x3x4x8x8xf32"), ti("2x5x6x7x3xf32")) => "2x3x5x6x7xf32";
            16 GridSample(ti("2x3x8x8xf32"), ti("2x5x6x3xf32")) => Fails(1, "last dim of 'grid'");
            20 AffineGrid(ti("2x2x3xf32"), ci(&[2, 3, 5, 6])) => "2x5x6x2xf32";
            20 AffineGrid(ti("2x3x4xf32"), ci(&[2, 3, 4, 5, 6])) => "2x4x5x6x3xf32";
            20 AffineGrid(ti("2x2x3xf32"), ci(&[2, 3, 4, 5, 6])) => Fails(1, "second dim of 'theta'");
            16 RoiAlign(ti("1x3x10x10xf32"), ti("5x4xf32"), ti("5xi64"); output_height = int(6), output_width = int(7)) => "5x3x6x7xf32";
            16 RoiAlign(ti("1x3x10x10xf32"), ti("5x4xf32"), ti("5xi64")) => "5x3x1x1xf32";
            22 MaxRoiPool(ti("1x3x10x10xf32"), ti("5x5xf32"); pooled_shape = ints(&[2, 2])) => "5x3x2x2xf32";
            11 NonMaxSuppression(ti("1x6x4xf32"), ti("1x1x6xf32")) => "?x3xi64";
            11 NonMaxSuppression(ti("1x6x4xf32"), ti("1x1x5xf32")) => Fails(1, "number of boxes");
        }
    }
}
