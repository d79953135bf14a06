//! Image resampling and sampling grids (the dialect's `ops/vision.rs`
//! family): sampling an input at computed coordinates. Resize and
//! Upsample in `resize.rs`, GridSample and AffineGrid in `grid.rs`,
//! RoiAlign in `roi_align.rs`; the f64 coordinate arithmetic is
//! `ops/sample.rs` (Col2Im and CenterCropPad, lowered the same way, are
//! in their families' files).
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Resize (11, 13, 18, 19) | each output element from the input around its source coordinate | modes nearest (4 rounding modes), linear, cubic (`cubic_coeff_a`, `exclude_outside`); the 6 coordinate transformations; `antialias`; `extrapolation_value`; scales or sizes (constant or run-time), `axes`, `keep_aspect_ratio_policy` |
//! | Resize (10), Upsample (7, 9) | the same with asymmetric coordinates | nearest (rounding down), linear |
//! | RoiAlign (10, 16, 22) | average or max of bilinear samples per bin of each region | `sampling_ratio` > 0, half_pixel / output_half_pixel, `spatial_scale` |
//! | AffineGrid (20) | the affine images of the base grid's normalized coordinates | 2-D and 3-D, `align_corners` |
//! | GridSample (16, 20, 22) | the input sampled at the grid's normalized coordinates | bilinear/linear, nearest, bicubic/cubic; padding zeros, border, reflection; `align_corners`; 4-D and 5-D |
//!
//! Each op is one `linalg.generic` over the output's loops whose body
//! computes source coordinates in f64 (the precision of the reference
//! implementations), then reads the input with `tensor.extract`. Every
//! index read is clamped into its axis, or masked (weight 0 or a select)
//! where the spec pads with a constant, so no computed coordinate reads
//! out of bounds. Scales, sizes and regions of interest given as run-time
//! inputs are read inside the body (loop-invariant, hoisted by MLIR).
//!
//! Interpolating resizes are separable: output = Σ over the taps of every
//! resized axis of Π weight · input. An axis contributes `n` taps starting
//! at `ceil(x) − n/2`, each weighted `k(|i − x| · s)` with the linear
//! (support 1) or cubic (support 2) kernel and `s = min(scale, 1)` when
//! antialiasing (else 1). With a run-time scale the tap count is bounded
//! from the static sizes; taps beyond the kernel's support weigh 0.

mod grid;
mod resize;
mod roi_align;

use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::VisionOp;
use onnx_mlc_dialect::Model;

pub(crate) use resize::resized_hold;

use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::Symbolic;

/// Lowers one op of the vision family.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: VisionOp) -> Result<()> {
    use VisionOp::*;
    match which {
        Resize | Upsample => resize::resize(kb, op),
        GridSample => grid::grid_sample(kb, op),
        AffineGrid => grid::affine_grid(kb, op),
        RoiAlign => roi_align::roi_align(kb, op),
        MaxRoiPool | NonMaxSuppression => Err(kb.not_lowered(op)),
    }
}

/// How an op of the vision family takes symbolic sizes: one loop nest
/// over the output reading the inputs at computed and clamped
/// coordinates, relying on the conditions of its own.
pub(crate) fn checks(model: &Model, data: &OpData, which: VisionOp) -> Symbolic {
    use VisionOp::*;
    match which {
        Resize | Upsample => Symbolic::of(resize::resize_checks(model, data)),
        GridSample => Symbolic::of(grid::grid_sample_checks(model, data)),
        AffineGrid => Symbolic::of(grid::affine_grid_checks(model, data)),
        RoiAlign => Symbolic::of(roi_align::roi_align_checks(model, data)),
        MaxRoiPool | NonMaxSuppression => Symbolic::not_yet(),
    }
}
