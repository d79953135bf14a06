//! Convolutions and pooling: sliding windows over the spatial dims of
//! `[N, C, D1, …, Dn]` tensors (the dialect's `ops/conv.rs` family):
//! `window.rs` holds the window's geometry and the loop nests they
//! share, one file per op after it.
//!
//! | op | lowered as | variants handled |
//! |----|------------|------------------|
//! | Conv (1, 11, 22) | `linalg.generic` over `(n, m, o…, c, k…)` reducing `c, k…` | any spatial rank, `group` (incl. depthwise), strides, dilations, explicit pads, `auto_pad`, optional bias; float types (f16 and bf16 accumulated in f32, rounded once) |
//! | MaxPool (1–22) | the same window with `max` | ceil_mode, dilations, pads, `auto_pad`; float and integer types; the `Indices` output (`storage_order` both ways) from the same window reduced into values and their flat indices, one `linalg.generic` (`Schedule::Generic`), also over symbolic sizes |
//! | AveragePool (1–22) | the same window summing `x / count` | `count_include_pad` both ways, ceil_mode, dilations, pads |
//! | LpPool (1–22) | `Σ |x|^p`, then `^(1/p)` | as AveragePool |
//! | GlobalAveragePool / GlobalMaxPool / GlobalLpPool | a window as large as the input | all ranks |
//! | ConvTranspose (1, 11, 22) | a window over the output reading the input where `(o + pad − k·d) / s` is exact | groups, strides, dilations, pads, `output_padding`, `output_shape`, `auto_pad` |
//! | ConvInteger (10), QLinearConv (10) | Conv's window over `i32` operands (zero points subtracted), QLinearConv's result requantized | u8/i8, per-tensor or per-channel weights' zero point and scale |
//! | DepthwiseConv (internal) | channels-last, 16 channels per vector, one fused multiply-add per tap and pixel (`depthwise.rs`) | f32 or 8-bit input, strides, dilations, optional bias, requantized result; symbolic batch and image size |
//! | Col2Im (18) | the sum of the column blocks covering each image position | any spatial rank; strides, dilations, pads; run-time block shape |
//! | MaxUnpool (9–22), symbolic sizes (a static one is expanded by the dialect) | one loop over the input storing each value at its index (`unpool.rs`) | any spatial rank; strides, pads; `output_shape` |
//!
//! The output of the window op is the kernel's root (`omlc.root`), its
//! initial value (zero, the bias, or the identity of the reduction) a
//! separate fill tagged `omlc.init` so that the schedule can compute both
//! per chunk of output channels (`Schedule::Window`).
//!
//! **Padding.** A window that never leaves the input reads it through an
//! affine indexing map (`x[n, c, o·s + k·d]`). One that does (explicit or
//! automatic pads, or a `ceil_mode` window running past the end) reads the
//! input with `tensor.extract` at a clamped index inside the body and
//! substitutes the reduction's identity outside the input. We do not
//! materialize a padded copy with `tensor.pad`: that copy would be a
//! buffer allocated inside the kernel on every call, which the arena-based
//! memory plan does not provide for.
//!
//! A 1-D/2-D/3-D Conv is one code path: the loop nest is built for any
//! number of spatial dims.
//!
//! **Symbolic sizes.** Batch, channels, spatial sizes and a Conv's or
//! ConvTranspose's kernel (a weight given as a graph input) may be
//! symbolic. The bodies then read the window's run-time extents
//! ([`Extents`]: the input's sizes, SAME padding computed from the sizes
//! and the kernel's, AveragePool's counted bounds) where a static window
//! reads constants, so static kernels are unchanged (and keep the GEMM
//! form and their schedules); the kernel loops take their bounds from the
//! weight (or, for groups of symbolic size, from an unread tensor of the
//! reduction's run-time extents, the weight then read at coordinates
//! computed in the body). Only an unpadded floor-mode window reads the
//! input through its affine map; the model's entry checks what that
//! relies on ([`checks`]).

mod col2im;
mod convolution;
mod depthwise;
mod integer;
mod pool;
mod transpose;
mod unpool;
pub(crate) mod window;

use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::ConvOp;
use onnx_mlc_dialect::Model;

pub(crate) use convolution::conv;

use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::Symbolic;

/// Lowers a convolution or a pool.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: ConvOp) -> Result<()> {
    use ConvOp::*;
    match which {
        Conv => convolution::lower(kb, op),
        AveragePool | MaxPool | LpPool | GlobalAveragePool | GlobalMaxPool | GlobalLpPool => {
            pool::lower(kb, op)
        }
        ConvTranspose => transpose::lower(kb, op),
        ConvInteger => integer::lower_conv_integer(kb, op),
        QLinearConv => integer::lower_qlinear_conv(kb, op),
        Col2Im => col2im::lower(kb, op),
        MaxUnpool => unpool::lower(kb, op),
        DepthwiseConv => depthwise::lower(kb, op),
        DeformConv | CausalConvWithState => Err(kb.not_lowered(op)),
    }
}

/// How a convolution or a pool takes symbolic sizes: the window's sizes
/// agree with the formula ([`window::window_checks`],
/// [`window::conv_transpose_checks`], Col2Im's own).
pub(crate) fn checks(model: &Model, data: &OpData, which: ConvOp) -> Symbolic {
    use ConvOp::*;
    match which {
        Conv | ConvInteger | QLinearConv | AveragePool | MaxPool | LpPool | GlobalAveragePool
        | GlobalMaxPool | GlobalLpPool => Symbolic::of(window::window_checks(model, data)),
        ConvTranspose => Symbolic::of(window::conv_transpose_checks(model, data)),
        Col2Im => Symbolic::of(col2im::col2im_checks(model, data)),
        MaxUnpool => Symbolic::of(unpool::checks(model, data)),
        DepthwiseConv => Symbolic::of(depthwise::checks(model, data)),
        DeformConv | CausalConvWithState => Symbolic::not_yet(),
    }
}
