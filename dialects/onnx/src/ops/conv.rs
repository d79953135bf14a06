//! Convolutions and pooling: sliding windows over the spatial dims of
//! `[N, C, D1, …, Dn]` tensors.
//!
//! | op | computes | result shape | opsets |
//! |----|----------|--------------|--------|
//! | Conv / ConvInteger / QLinearConv | cross-correlation with `W: [M, C/group, k…]` | `[N, M, out…]`; int32 / `y_zero_point`'s type | 1, 11, 22 / 10 / 10 |
//! | DeformConv | deformable convolution | as Conv | 19, 22 |
//! | ConvTranspose | transposed convolution, `W: [C, M/group, k…]` | `[N, M, s·(d−1) + output_padding + k_eff − pads]`, `output_shape`, or `d·s` with SAME | 1, 11, 22 |
//! | CausalConvWithState | depthwise causal 1-D conv carrying `k − 1` steps of state | input's; state `[B, C, k − 1]` | 27 |
//! | AveragePool / MaxPool / LpPool | windowed average / max (+ int64 `Indices`) / p-norm | `[N, C, out…]` | 1, 7, 10 (ceil_mode), 11, 19 (dilations), 22 / 1, 8, 10, 11, 12, 22 / 1, 2, 11, 18, 22 |
//! | GlobalAveragePool / GlobalMaxPool / GlobalLpPool | reduce all spatial dims | `[N, C, 1…]` | 1, 22 / 1, 22 / 1, 2, 22 |
//! | MaxUnpool | inverse of MaxPool | `output_shape` input, or `(d − 1)·s + k − pads` | 9, 11, 22 |
//! | DepthwiseConv (internal) | depthwise convolution of a channels-last, padded `X [N, H, W, C]` (f32 or 8-bit) by `W [KH, KW, C]`, `+ B`, optionally requantized; `kernel_shape`/`strides`/`dilations` | `[N, OH, OW, C]`, f32 or `y_zero_point`'s type | 1 |
//! | Col2Im | rearrange column blocks into an image | `[N, C, image_shape…]` with `C = C·∏block / ∏block` | 18 |
//!
//! Spatial sizes: `out = floor((d + pad_b + pad_e − ((k − 1)·dil + 1)) / s) + 1`
//! (`ceil` with `ceil_mode`, dropping a last window that would start in
//! the end padding); `auto_pad = SAME_*` gives `ceil(d / s)`, `VALID` no
//! padding. On a symbolic dim the formula is kept symbolically, its
//! rounded division a floor-quotient atom ([`Dim::floor_quotient`]); the
//! `ceil_mode` correction only when it provably never applies (end
//! padding plus stride at most the window's extent), unknown otherwise.
//! Batch and channel dims are carried symbolically either way.

use super::operand::{
    dims_min_rank, dims_of_rank, expect_dim, input_name, known_dims, product, unify,
};
use crate::dim::Dim;
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::shape::fmt_dims;
use crate::schema::{ConvOp, OpKind};
use crate::types::ElemType;

pub(crate) fn infer(op: ConvOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use ConvOp::*;
    match op {
        Conv | DeformConv => {
            let elem = cx.elem(0)?;
            conv(cx, 0, 1, elem)
        }
        ConvInteger => conv(cx, 0, 1, ElemType::I32),
        QLinearConv => {
            let elem = cx.elem(7)?;
            conv(cx, 0, 3, elem)
        }
        ConvTranspose => conv_transpose(cx),
        CausalConvWithState => causal_conv(cx),
        AveragePool | MaxPool | LpPool => pool(cx),
        GlobalAveragePool | GlobalMaxPool | GlobalLpPool => {
            let elem = cx.elem(0)?;
            let dims = dims_min_rank(cx, 0, 2)?;
            let mut out = dims[..2].to_vec();
            out.resize(dims.len(), Dim::Known(1));
            cx.set_tensor(0, elem, out);
            Ok(())
        }
        MaxUnpool => max_unpool(cx),
        Col2Im => col2im(cx),
        DepthwiseConv => depthwise_conv(cx),
    }
}

/// The window attributes of the optimizer's channels-last convolutions
/// over the already padded `x [N, H, W, C]` (`kernel_shape` required,
/// `strides` and `dilations` default 1): the kernel's `[KH, KW]` and the
/// output's spatial dims `[OH, OW]`, `OH = (H − d·(KH − 1) − 1) / s + 1`.
pub(crate) fn channels_last_window(cx: &InferCtx, x: &[Dim]) -> Result<([i64; 2], [Dim; 2]), Fail> {
    let kernel = cx.ints_opt("kernel_shape")?.unwrap_or_default();
    let strides = cx.ints_opt("strides")?.unwrap_or_else(|| vec![1, 1]);
    let dilations = cx.ints_opt("dilations")?.unwrap_or_else(|| vec![1, 1]);
    let pairs = [&kernel, &strides, &dilations];
    if pairs
        .iter()
        .any(|v| v.len() != 2 || v.iter().any(|&d| d < 1))
    {
        return Err(invalid!(
            "kernel_shape {kernel:?}, strides {strides:?} and dilations {dilations:?} must be two positive ints each"
        ));
    }
    let spatial = |i: usize| {
        let extent = dilations[i] * (kernel[i] - 1) + 1;
        if x[i + 1].as_known().is_some_and(|d| d < extent) {
            return Err(invalid!(
                "X {} is smaller than the window ({extent}) along dim {}",
                fmt_dims(x),
                i + 1
            ));
        }
        let positions = x[i + 1].sub(&Dim::Known(extent));
        Ok(positions.floor_quotient(strides[i]).add(&Dim::Known(1)))
    };
    Ok(([kernel[0], kernel[1]], [spatial(0)?, spatial(1)?]))
}

/// DepthwiseConv: `X [N, H, W, C]` and `W [KH, KW, C]` give
/// `Y [N, OH, OW, C]` ([`channels_last_window`]); `B [C]`; `f32`, or
/// `y_zero_point`'s type when requantized (scalar `y_scale` and
/// `y_zero_point`, given together).
fn depthwise_conv(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = dims_of_rank(cx, 0, 4)?;
    let w = dims_of_rank(cx, 1, 3)?;
    let (kernel, [oh, ow]) = channels_last_window(cx, &x)?;
    let channels = &x[3];
    let window = format!(
        "the weights {} must be [KH, KW, C] = {kernel:?} × {channels}",
        fmt_dims(&w)
    );
    for (got, want) in w
        .iter()
        .zip([&Dim::Known(kernel[0]), &Dim::Known(kernel[1]), channels])
    {
        unify(got, want, &window)?;
    }
    if let Some(b) = cx.opt_tensor(2)?.and_then(|t| t.dims()) {
        if b.len() != 1 || b[0].definitely_ne(channels) {
            return Err(invalid!(
                "the bias {} must be [C] = [{channels}]",
                fmt_dims(b)
            ));
        }
    }
    let scalar = |i: usize, what: &str| -> Result<bool, Fail> {
        let Some(t) = cx.opt_tensor(i)? else {
            return Ok(false);
        };
        match t.dims() {
            Some(d) if d.iter().map(Dim::as_known).product::<Option<i64>>() != Some(1) => {
                Err(invalid!("{what} {} must be a scalar", fmt_dims(d)))
            }
            _ => Ok(true),
        }
    };
    let elem = match (scalar(3, "y_scale")?, scalar(4, "y_zero_point")?) {
        (true, true) => cx.elem(4)?,
        (false, false) => ElemType::F32,
        _ => return Err(invalid!("y_scale and y_zero_point come together")),
    };
    let out = vec![x[0].clone(), oh, ow, channels.clone()];
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// The `auto_pad` attribute.
#[derive(Copy, Clone, PartialEq, Eq)]
enum AutoPad {
    NotSet,
    Valid,
    SameUpper,
    SameLower,
}

/// The window attributes of a conv or pool over `n` spatial dims.
struct Window {
    /// Static from `kernel_shape` or a static weight; symbolic when the
    /// weight's kernel dims are (a weight given as a graph input).
    kernel: Vec<Dim>,
    strides: Vec<i64>,
    dilations: Vec<i64>,
    /// Begin pads then end pads (`2n` values).
    pads: Vec<i64>,
    auto_pad: AutoPad,
    ceil_mode: bool,
}

impl Window {
    /// Reads the window attributes; `kernel` is the kernel from the weight
    /// when the op has one (the `kernel_shape` attribute wins).
    fn read(cx: &InferCtx, n: usize, kernel: Option<Vec<Dim>>) -> Result<Window, Fail> {
        let list = |name: &str, default: i64, len: usize| -> Result<Vec<i64>, Fail> {
            match cx.ints_opt(name)? {
                Some(v) if v.len() != len => Err(invalid!(
                    "'{name}' has {} values for {n} spatial dims",
                    v.len()
                )),
                Some(v) => Ok(v),
                None => Ok(vec![default; len]),
            }
        };
        let kernel = match (cx.ints_opt("kernel_shape")?, kernel) {
            (Some(k), _) if k.len() != n => {
                return Err(invalid!(
                    "'kernel_shape' has {} values for {n} spatial dims",
                    k.len()
                ));
            }
            (Some(k), _) => k.into_iter().map(Dim::Known).collect(),
            (None, Some(k)) => k,
            (None, None) => return Err(invalid!("attribute 'kernel_shape' is required")),
        };
        let strides = list("strides", 1, n)?;
        let dilations = list("dilations", 1, n)?;
        let pads = list("pads", 0, 2 * n)?;
        let static_kernel: Vec<i64> = kernel.iter().filter_map(Dim::as_known).collect();
        for (name, v) in [
            ("kernel_shape", &static_kernel),
            ("strides", &strides),
            ("dilations", &dilations),
        ] {
            if let Some(bad) = v.iter().find(|&&x| x <= 0) {
                return Err(invalid!("'{name}' {v:?} has the non-positive value {bad}"));
            }
        }
        if pads.iter().any(|&p| p < 0) {
            return Err(invalid!("'pads' {pads:?} has a negative value"));
        }
        let auto_pad = match cx.string_opt("auto_pad")?.as_deref() {
            None | Some("NOTSET") | Some("") => AutoPad::NotSet,
            Some("VALID") => AutoPad::Valid,
            Some("SAME_UPPER") => AutoPad::SameUpper,
            Some("SAME_LOWER") => AutoPad::SameLower,
            Some(other) => return Err(invalid!("unknown auto_pad '{other}'")),
        };
        let ceil_mode = cx.int_opt("ceil_mode")?.unwrap_or(0) != 0;
        Ok(Window {
            kernel,
            strides,
            dilations,
            pads,
            auto_pad,
            ceil_mode,
        })
    }

    /// The kernel extent with dilation along spatial axis `i`:
    /// `(k − 1)·dil + 1`, saturating for a static kernel.
    fn extent(&self, i: usize) -> Dim {
        match &self.kernel[i] {
            Dim::Known(k) => {
                Dim::Known((k - 1).saturating_mul(self.dilations[i]).saturating_add(1))
            }
            k => k
                .sub(&Dim::Known(1))
                .scale(self.dilations[i])
                .add(&Dim::Known(1)),
        }
    }

    /// Begin and end padding along spatial axis `i` of size `d`; `None`
    /// when SAME padding depends on an unknown size.
    fn padding(&self, i: usize, d: &Dim) -> Option<(i64, i64)> {
        let n = self.kernel.len();
        match self.auto_pad {
            AutoPad::NotSet => Some((self.pads[i], self.pads[i + n])),
            AutoPad::Valid => Some((0, 0)),
            AutoPad::SameUpper | AutoPad::SameLower => {
                let s = self.strides[i];
                let residual = if s > 1 {
                    d.as_known()?.rem_euclid(s)
                } else {
                    0
                };
                let extent = self.extent(i).as_known()?;
                let total = (extent - if residual == 0 { s } else { residual }).max(0);
                let (small, big) = (total / 2, total - total / 2);
                Some(if self.auto_pad == AutoPad::SameUpper {
                    (small, big)
                } else {
                    (big, small)
                })
            }
        }
    }

    /// The output size along spatial axis `i` of an input of size `d`.
    fn output(&self, i: usize, d: &Dim) -> Result<Dim, Fail> {
        let s = self.strides[i];
        let extent = self.extent(i);
        if matches!(self.auto_pad, AutoPad::SameUpper | AutoPad::SameLower)
            && !(d.is_known() && extent.is_known())
        {
            return Ok(d.ceil_quotient(s));
        }
        let Some((pb, pe)) = self.padding(i, d) else {
            return Ok(Dim::Unknown);
        };
        let pads = pb.checked_add(pe);
        if let Dim::Known(e) = extent {
            if pads.and_then(|p| p.checked_sub(e)).is_none() {
                return Err(invalid!("pads ({pb}, {pe}) are out of range"));
            }
        } else if pads.is_none() {
            return Err(invalid!("pads ({pb}, {pe}) are out of range"));
        }
        match d.window_output(&extent, s, (pb, pe), self.ceil_mode) {
            Dim::Known(k) if k < 1 => Err(invalid!(
                "spatial dim {i} of size {d} is too small for a window of {extent} with padding ({pb}, {pe})"
            )),
            out => Ok(out),
        }
    }

    /// The output sizes of all spatial dims.
    fn outputs(&self, spatial: &[Dim]) -> Result<Vec<Dim>, Fail> {
        spatial
            .iter()
            .enumerate()
            .map(|(i, d)| self.output(i, d))
            .collect()
    }
}

/// The kernel sizes a weight of shape `[M, C, k…]` gives; `None` when one
/// is not static (then `kernel_shape` must be read from the attribute).
fn weight_kernel(w: &[Dim]) -> Option<Vec<i64>> {
    known_dims(w.get(2..)?)
}

/// The kernel a weight of shape `[M, C, k…]` gives, its sizes static or
/// symbolic; `None` when one is unknown.
fn weight_window(w: &[Dim]) -> Option<Vec<Dim>> {
    let k = w.get(2..)?;
    (!k.contains(&Dim::Unknown)).then(|| k.to_vec())
}

/// Conv, ConvInteger, QLinearConv, DeformConv: data input `x`, weight `w`.
pub(crate) fn conv(cx: &mut InferCtx, x: usize, w: usize, elem: ElemType) -> Result<(), Fail> {
    let xd = dims_min_rank(cx, x, 3)?;
    let wd = dims_of_rank(cx, w, xd.len())?;
    let n = xd.len() - 2;
    let group = cx.int_opt("group")?.unwrap_or(1);
    if group <= 0 {
        return Err(invalid!("group must be positive, got {group}"));
    }
    expect_dim(
        &xd[1],
        &wd[1].scale(group),
        &format!("the input channels (weight {} × group {group})", wd[1]),
    )?;
    if let Dim::Known(m) = wd[0] {
        if m % group != 0 {
            return Err(invalid!(
                "{m} output channels are not a multiple of group {group}"
            ));
        }
    }
    let bias = match cx.kind() {
        OpKind::QLinearConv => Some(8),
        OpKind::DeformConv => Some(3),
        OpKind::ConvInteger => None,
        _ => Some(2),
    };
    if let Some(bias) = bias.filter(|&b| cx.has_input(b)) {
        let b = dims_of_rank(cx, bias, 1)?;
        unify(&b[0], &wd[0], "the bias length and the output channels")?;
    }
    let kernel = weight_window(&wd);
    if kernel.is_none() && cx.ints_opt("kernel_shape")?.is_none() {
        cx.set_tensor(
            0,
            elem,
            [vec![xd[0].clone(), wd[0].clone()], vec![Dim::Unknown; n]].concat(),
        );
        return Err(unknown!("the kernel size is not known"));
    }
    let window = Window::read(cx, n, kernel)?;
    if let Some(k) = weight_kernel(&wd) {
        if k.iter()
            .map(|&k| Dim::Known(k))
            .ne(window.kernel.iter().cloned())
        {
            return Err(invalid!(
                "'kernel_shape' {} differs from the weight's {k:?}",
                fmt_dims(&window.kernel)
            ));
        }
    }
    let mut out = vec![xd[0].clone(), wd[0].clone()];
    out.extend(window.outputs(&xd[2..])?);
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn conv_transpose(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let xd = dims_min_rank(cx, 0, 3)?;
    let wd = dims_of_rank(cx, 1, xd.len())?;
    let n = xd.len() - 2;
    let group = cx.int_opt("group")?.unwrap_or(1);
    if group <= 0 {
        return Err(invalid!("group must be positive, got {group}"));
    }
    let inputs = unify(
        &xd[1],
        &wd[0],
        "the input channels and the weight's first dim",
    )?;
    if let Dim::Known(c) = inputs {
        if c % group != 0 {
            return Err(invalid!(
                "{c} input channels are not a multiple of group {group}"
            ));
        }
    }
    let channels = wd[1].scale(group);
    if cx.has_input(2) {
        let b = dims_of_rank(cx, 2, 1)?;
        unify(&b[0], &channels, "the bias length and the output channels")?;
    }
    let kernel = weight_window(&wd);
    if kernel.is_none() && cx.ints_opt("kernel_shape")?.is_none() {
        cx.set_tensor(
            0,
            elem,
            [vec![xd[0].clone(), channels], vec![Dim::Unknown; n]].concat(),
        );
        return Err(unknown!("the kernel size is not known"));
    }
    let window = Window::read(cx, n, kernel)?;
    if cx.ints_opt("pads")?.is_some() && window.auto_pad != AutoPad::NotSet {
        return Err(invalid!("'pads' cannot be combined with auto_pad"));
    }
    let output_padding = match cx.ints_opt("output_padding")? {
        Some(p) if p.len() != n => {
            return Err(invalid!(
                "'output_padding' has {} values for {n} spatial dims",
                p.len()
            ))
        }
        Some(p) if p.iter().any(|&x| x < 0) => {
            return Err(invalid!("'output_padding' {p:?} has a negative value"))
        }
        Some(p) => p,
        None => vec![0; n],
    };
    let mut out = vec![xd[0].clone(), channels];
    match cx.ints_opt("output_shape")? {
        Some(shape) => {
            // Either the spatial sizes or the whole shape.
            let spatial = if shape.len() == n + 2 {
                &shape[2..]
            } else {
                &shape[..]
            };
            if spatial.len() != n || spatial.iter().any(|&s| s < 0) {
                return Err(invalid!(
                    "'output_shape' {shape:?} does not describe {n} spatial dims"
                ));
            }
            out.extend(spatial.iter().map(|&s| Dim::Known(s)));
        }
        None => {
            for (i, d) in xd[2..].iter().enumerate() {
                let s = window.strides[i];
                let size = match window.auto_pad {
                    AutoPad::SameUpper | AutoPad::SameLower => d.scale(s),
                    _ => {
                        let pads = if window.auto_pad == AutoPad::Valid {
                            0
                        } else {
                            window.pads[i].saturating_add(window.pads[i + n])
                        };
                        let shift = output_padding[i].saturating_sub(pads).saturating_sub(s);
                        let extra = match window.extent(i) {
                            Dim::Known(e) => Dim::Known(shift.saturating_add(e)),
                            e => e.add(&Dim::Known(shift)),
                        };
                        d.scale(s).add(&extra)
                    }
                };
                if let Dim::Known(k) = size {
                    if k < 1 {
                        return Err(invalid!("spatial dim {i} of the output would be {k}"));
                    }
                }
                out.push(size);
            }
        }
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn causal_conv(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    if let Some(a) = cx.string_opt("activation")? {
        if !matches!(a.as_str(), "none" | "silu" | "swish") {
            return Err(invalid!("unknown activation '{a}'"));
        }
    }
    let x = dims_of_rank(cx, 0, 3)?;
    let w = dims_of_rank(cx, 1, 3)?;
    let mut channels = unify(&x[1], &w[0], "the channels of input and weight")?;
    expect_dim(&w[1], &Dim::Known(1), "the weight's second dim (depthwise)")?;
    if let Dim::Known(k) = w[2] {
        if k < 1 {
            return Err(invalid!("kernel size must be at least 1, got {k}"));
        }
    }
    if cx.has_input(2) {
        channels = unify(
            &channels,
            &dims_of_rank(cx, 2, 1)?[0],
            "the bias length and the channels",
        )?;
    }
    let mut state = vec![x[0].clone(), channels.clone(), w[2].sub(&Dim::Known(1))];
    if cx.has_input(3) {
        let past = dims_of_rank(cx, 3, 3)?;
        for (i, what) in ["batch", "channels", "length (kernel − 1)"]
            .iter()
            .enumerate()
        {
            state[i] = unify(&state[i], &past[i], &format!("the past_state {what}"))?;
        }
    }
    cx.set_tensor(0, elem, vec![state[0].clone(), channels, x[2].clone()]);
    cx.set_tensor(1, elem, state);
    Ok(())
}

fn pool(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let xd = dims_min_rank(cx, 0, 3)?;
    let window = Window::read(cx, xd.len() - 2, None)?;
    let mut out = xd[..2].to_vec();
    out.extend(window.outputs(&xd[2..])?);
    cx.set_tensor(0, elem, out.clone());
    if cx.kind() == OpKind::MaxPool {
        cx.set_tensor(1, ElemType::I64, out);
    }
    Ok(())
}

fn max_unpool(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let xd = dims_min_rank(cx, 0, 3)?;
    let n = xd.len() - 2;
    let window = Window::read(cx, n, None)?;
    if cx.has_input(2) {
        let Some(shape) = cx.sym_vector(2) else {
            cx.set_tensor(0, elem, vec![Dim::Unknown; xd.len()]);
            return Err(unknown!("'{}' is not known", input_name(cx, 2)));
        };
        if shape.len() != xd.len() {
            return Err(invalid!(
                "'output_shape' {} must have {} dims",
                fmt_dims(&shape),
                xd.len()
            ));
        }
        cx.set_tensor(0, elem, shape);
        return Ok(());
    }
    let mut out = xd[..2].to_vec();
    for (i, d) in xd[2..].iter().enumerate() {
        let pads = window.pads[i].saturating_add(window.pads[i + n]);
        let extra = window.kernel[i]
            .as_known()
            .ok_or_else(|| invalid!("attribute 'kernel_shape' is required"))?
            .saturating_sub(pads)
            .saturating_sub(window.strides[i]);
        out.push(d.scale(window.strides[i]).add(&Dim::Known(extra)));
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn col2im(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let x = dims_of_rank(cx, 0, 3)?;
    let (Some(image), Some(block)) = (cx.const_ints(1), cx.const_ints(2)) else {
        let n = super::operand::static_len(cx, 1);
        match n {
            Some(n) => cx.set_tensor(
                0,
                elem,
                [vec![x[0].clone(), Dim::Unknown], vec![Dim::Unknown; n]].concat(),
            ),
            None => cx.set_unranked(0, elem),
        }
        return Err(unknown!(
            "'image_shape' and 'block_shape' are not known constants"
        ));
    };
    let n = image.len();
    if block.len() != n {
        return Err(invalid!(
            "image_shape {image:?} and block_shape {block:?} differ in length"
        ));
    }
    if block.iter().any(|&b| b <= 0) {
        return Err(invalid!("block_shape {block:?} must be positive"));
    }
    let window = Window::read(cx, n, Some(block.iter().map(|&b| Dim::Known(b)).collect()))?;
    let blocks = product(&block.iter().map(|&b| Dim::Known(b)).collect::<Vec<_>>());
    let channels = match &x[1] {
        Dim::Known(c) if c % blocks.as_known().unwrap_or(1) != 0 => {
            return Err(invalid!(
                "{c} input channels are not a multiple of the block size {blocks}"
            ));
        }
        c => c.div_exact(&blocks),
    };
    // The number of blocks must match the sliding positions over the image.
    let positions =
        product(&window.outputs(&image.iter().map(|&d| Dim::Known(d)).collect::<Vec<_>>())?);
    expect_dim(&x[2], &positions, "the number of blocks (input dim 2)")?;
    let mut out = vec![x[0].clone(), channels];
    out.extend(image.iter().map(|&d| Dim::Known(d)));
    cx.set_tensor(0, elem, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::attr::Attr;
    use crate::dim::Dim;
    use crate::schema::OpKind;

    fn s(v: &str) -> Attr {
        Attr::str(v)
    }

    /// The spatial dims op `kind` infers for an input `x`.
    fn spatial(opset: i64, kind: OpKind, inputs: &[In], attrs: &[(&str, Attr)]) -> Vec<Dim> {
        let out = run(opset, kind, inputs, attrs, 1).expect("inference succeeds");
        let dims = out.types[0]
            .as_tensor()
            .and_then(|t| t.dims())
            .expect("ranked");
        dims[2..].to_vec()
    }

    #[test]
    fn strided_windows_over_symbolic_sizes() {
        let (h, w) = (Dim::param("H"), Dim::param("W"));
        let x = || ti("Nx3xHxWxf32");
        let k = || ti("8x3x3x3xf32");
        let floor = |d: &Dim, c: i64, s: i64| d.add(&Dim::Known(c)).floor_quotient(s);
        let one = Dim::Known(1);
        // floor((H − 3) / 2) + 1.
        let strided = spatial(11, OpKind::Conv, &[x(), k()], &[("strides", ints(&[2, 2]))]);
        assert_eq!(
            strided,
            [floor(&h, -3, 2).add(&one), floor(&w, -3, 2).add(&one)]
        );
        // SAME: ceil(H / 2).
        let attrs = [("strides", ints(&[2, 2])), ("auto_pad", s("SAME_UPPER"))];
        let same = spatial(11, OpKind::Conv, &[x(), k()], &attrs);
        assert_eq!(same, [h.ceil_quotient(2), w.ceil_quotient(2)]);
        // ceil_mode, when the last window provably starts inside: k 3, s 2.
        let pool = |extra: &[(&str, Attr)]| {
            let mut attrs = vec![("kernel_shape", ints(&[3, 3])), ("strides", ints(&[2, 2]))];
            attrs.extend(extra.iter().cloned());
            spatial(19, OpKind::AveragePool, &[ti("BxCxHxWxf32")], &attrs)
        };
        assert_eq!(
            pool(&[]),
            [floor(&h, -3, 2).add(&one), floor(&w, -3, 2).add(&one)]
        );
        // ceil((H − 3) / 2) + 1 = floor((H − 2) / 2) + 1.
        let ceil = pool(&[("ceil_mode", int(1))]);
        assert_eq!(
            ceil,
            [floor(&h, -2, 2).add(&one), floor(&w, -2, 2).add(&one)]
        );
        // End padding 2 with stride 2 over a window of 3: the correction
        // may apply, decided at run time: `o − 1 + ((o − 1)·2 < H)` for
        // `o = ceil((H − 1) / 2) + 1`.
        let late = pool(&[("ceil_mode", int(1)), ("pads", ints(&[0, 0, 2, 2]))]);
        let last = |d: &Dim| floor(d, 0, 2);
        let dropped = |d: &Dim| last(d).add(&last(d).scale(2).lt_of(d));
        assert_eq!(late, [dropped(&h), dropped(&w)]);
    }

    #[test]
    fn windows_of_symbolic_kernels() {
        let (h, k) = (Dim::param("H"), Dim::param("K"));
        let one = Dim::Known(1);
        let x = || ti("Nx4xHxf32");
        let w = || ti("8x4xKxf32");
        // H − K + 1, and floor((H + 2 − (2K − 1)) / 2) + 1 strided, dilated and padded.
        let plain = spatial(11, OpKind::Conv, &[x(), w()], &[]);
        assert_eq!(plain, [h.sub(&k).add(&one)]);
        let attrs = [
            ("strides", ints(&[2])),
            ("dilations", ints(&[2])),
            ("pads", ints(&[1, 1])),
        ];
        let strided = spatial(11, OpKind::Conv, &[x(), w()], &attrs);
        let span = h.add(&Dim::Known(2)).sub(&k.scale(2).sub(&one));
        assert_eq!(strided, [span.floor_quotient(2).add(&one)]);
        // SAME does not depend on the kernel: ceil(H / 2).
        let attrs = [("strides", ints(&[2])), ("auto_pad", s("SAME_LOWER"))];
        assert_eq!(
            spatial(11, OpKind::Conv, &[x(), w()], &attrs),
            [h.ceil_quotient(2)]
        );
        // Input channels that the groups do not divide.
        let attrs = [("group", int(3))];
        assert!(run(
            11,
            OpKind::ConvTranspose,
            &[x(), ti("4x2xKxf32")],
            &attrs,
            1
        )
        .is_err());
        // ConvTranspose: s·(H − 1) + K.
        let wt = || ti("4x2xKxf32");
        let up = spatial(
            11,
            OpKind::ConvTranspose,
            &[x(), wt()],
            &[("strides", ints(&[3]))],
        );
        assert_eq!(up, [h.sub(&one).scale(3).add(&k)]);
    }

    #[test]
    fn depthwise_conv_channels_last() {
        infers! {
            17 DepthwiseConv(ti("1x10x10x32xf32"), ti("3x3x32xf32"); kernel_shape = ints(&[3, 3])) => "1x8x8x32xf32";
            17 DepthwiseConv(ti("Nx11x9x48xui8"), ti("3x3x48xf32"), ti("48xf32"), ti("f32"), ti("i8"); kernel_shape = ints(&[3, 3]), strides = ints(&[2, 2])) => "Nx5x4x48xi8";
            17 DepthwiseConv(ti("1x9x9x16xi8"), ti("5x5x16xf32"); kernel_shape = ints(&[5, 5]), dilations = ints(&[2, 2])) => "1x1x1x16xf32";
            17 DepthwiseConv(ti("1x10x10x32xf32"), ti("3x3x16xf32"); kernel_shape = ints(&[3, 3])) => Fails(1, "must be [KH, KW, C]");
            17 DepthwiseConv(ti("1x10x10x32xf32"), ti("3x3x32xf32"), ti("16xf32"); kernel_shape = ints(&[3, 3])) => Fails(1, "the bias [16]");
            17 DepthwiseConv(ti("1x10x10x32xf32"), ti("3x3x32xf32"), In::Absent, ti("f32"); kernel_shape = ints(&[3, 3])) => Fails(1, "come together");
            17 DepthwiseConv(ti("1x10x10x32xf32"), ti("3x3x32xf32"), In::Absent, ti("2xf32"), ti("ui8"); kernel_shape = ints(&[3, 3])) => Fails(1, "y_scale [2] must be a scalar");
            17 DepthwiseConv(ti("1x2x10x32xf32"), ti("3x3x32xf32"); kernel_shape = ints(&[3, 3])) => Fails(1, "smaller than the window");
        }
    }

    #[test]
    fn conv_output_sizes() {
        let x = || ti("1x1x7x5xf32");
        let w = || ti("1x1x3x3xf32");
        infers! {
            11 Conv(ti("1x1x5x5xf32"), w(); pads = ints(&[1, 1, 1, 1])) => "1x1x5x5xf32";
            11 Conv(ti("1x1x5x5xf32"), w()) => "1x1x3x3xf32";
            11 Conv(x(), w(); strides = ints(&[2, 2]), pads = ints(&[1, 1, 1, 1])) => "1x1x4x3xf32";
            11 Conv(x(), w(); strides = ints(&[2, 2]), pads = ints(&[1, 0, 1, 0])) => "1x1x4x2xf32";
            11 Conv(ti("1x1x5x5xf32"), w(); strides = ints(&[2, 2]), auto_pad = s("SAME_LOWER")) => "1x1x3x3xf32";
            11 Conv(ti("1x1x5x5xf32"), w(); auto_pad = s("VALID")) => "1x1x3x3xf32";
            11 Conv(ti("1x1x7x7xf32"), w(); dilations = ints(&[2, 2])) => "1x1x3x3xf32";
            11 Conv(ti("2x4x5x5xf32"), ti("6x2x3x3xf32"), ti("6xf32"); group = int(2)) => "2x6x3x3xf32";
            11 Conv(ti("1x3x10xf32"), ti("8x3x3xf32")) => "1x8x8xf32";
            // Symbolic spatial dims: exact formulas stay polynomials.
            11 Conv(ti("Nx3xHxWxf32"), ti("8x3x3x3xf32"); pads = ints(&[1, 1, 1, 1])) => "Nx8xHxWxf32";
            11 Conv(ti("Nx3xHxWxf32"), ti("8x3x3x3xf32"); auto_pad = s("SAME_UPPER")) => "Nx8xHxWxf32";
            11 Conv(ti("1x4x5x5xf32"), w()) => Fails(1, "input channels");
            11 Conv(ti("1x1x2x2xf32"), w()) => Fails(1, "too small");
            11 Conv(ti("1x1x5x5xf32"), w(); pads = ints(&[1, 1])) => Fails(1, "'pads' has 2 values");
            11 Conv(ti("1x1x5x5xf32"), w(); auto_pad = s("SAME")) => Fails(1, "unknown auto_pad");
            11 Conv(ti("1x1x5x5xf32"), w(), ti("2xf32")) => Fails(1, "bias length");
            10 ConvInteger(ti("1x1x5x5xui8"), ti("1x1x3x3xui8")) => "1x1x3x3xi32";
            10 QLinearConv(ti("1x1x5x5xui8"), ti("f32"), ti("ui8"), ti("1x1x3x3xui8"), ti("f32"), ti("ui8"), ti("f32"), ti("ui8")) => "1x1x3x3xui8";
            19 DeformConv(ti("1x1x3x3xf32"), ti("1x1x2x2xf32"), ti("1x8x2x2xf32")) => "1x1x2x2xf32";
        }
    }

    #[test]
    fn conv_transpose_forms() {
        let x = || ti("1x1x3x3xf32");
        let w = || ti("1x2x3x3xf32");
        infers! {
            11 ConvTranspose(x(), w()) => "1x2x5x5xf32";
            11 ConvTranspose(x(), w(); strides = ints(&[3, 2]), output_shape = ints(&[10, 8])) => "1x2x10x8xf32";
            11 ConvTranspose(x(), w(); strides = ints(&[3, 2]), output_padding = ints(&[1, 1])) => "1x2x10x8xf32";
            11 ConvTranspose(x(), w(); strides = ints(&[3, 2]), pads = ints(&[1, 2, 1, 2])) => "1x2x7x3xf32";
            11 ConvTranspose(x(), w(); strides = ints(&[2, 2]), auto_pad = s("SAME_UPPER")) => "1x2x6x6xf32";
            11 ConvTranspose(x(), ti("1x1x2x2xf32"); dilations = ints(&[2, 2])) => "1x1x5x5xf32";
            11 ConvTranspose(ti("1x2x3x3xf32"), ti("2x2x3x3xf32"); group = int(2)) => "1x4x5x5xf32";
            11 ConvTranspose(ti("Nx1xHx3xf32"), w(); strides = ints(&[2, 2])) => "Nx2x(2*H+1)x7xf32";
            11 ConvTranspose(x(), w(); pads = ints(&[1, 1, 1, 1]), auto_pad = s("SAME_UPPER")) => Fails(1, "cannot be combined");
            11 ConvTranspose(ti("1x3x3x3xf32"), w()) => Fails(1, "input channels");
        }
    }

    #[test]
    fn pooling() {
        let x = || ti("1x1x4x4xf32");
        infers! {
            12 MaxPool(x(); kernel_shape = ints(&[3, 3]), strides = ints(&[2, 2]), ceil_mode = int(1)) => ["1x1x2x2xf32", "1x1x2x2xi64"];
            12 MaxPool(x(); kernel_shape = ints(&[3, 3]), strides = ints(&[2, 2])) => ["1x1x1x1xf32", "1x1x1x1xi64"];
            12 MaxPool(x(); kernel_shape = ints(&[2, 2]), dilations = ints(&[2, 2])) => "1x1x2x2xf32";
            12 MaxPool(ti("1x3x32x32xf32"); kernel_shape = ints(&[2, 2]), auto_pad = s("SAME_UPPER")) => "1x3x32x32xf32";
            12 MaxPool(ti("1x1x5x5xf32"); kernel_shape = ints(&[3, 3]), strides = ints(&[2, 2]), auto_pad = s("SAME_UPPER")) => "1x1x3x3xf32";
            // The last window would start in the end padding: it is dropped.
            12 MaxPool(ti("1x1x2x2xf32"); kernel_shape = ints(&[1, 1]), strides = ints(&[2, 2]), ceil_mode = int(1)) => "1x1x1x1xf32";
            19 AveragePool(ti("1x3x32xf32"); kernel_shape = ints(&[2])) => "1x3x31xf32";
            19 AveragePool(ti("1x3x32x32xf32"); kernel_shape = ints(&[5, 5]), pads = ints(&[2, 2, 2, 2])) => "1x3x32x32xf32";
            19 AveragePool(ti("BxCxHxWxf32"); kernel_shape = ints(&[3, 3]), pads = ints(&[1, 1, 1, 1])) => "BxCxHxWxf32";
            18 LpPool(ti("1x3x32x32xf32"); kernel_shape = ints(&[2, 2]), p = int(3)) => "1x3x31x31xf32";
            12 MaxPool(x()) => Fails(2, "'kernel_shape' is required");
            12 MaxPool(x(); kernel_shape = ints(&[5, 5])) => Fails(2, "too small");
            12 MaxPool(ti("1x4xf32"); kernel_shape = ints(&[2])) => Fails(2, "rank at least 3");
            1 GlobalAveragePool(ti("NxCx7x7xf32")) => "NxCx1x1xf32";
            1 GlobalMaxPool(ti("1x3x5xf32")) => "1x3x1xf32";
            2 GlobalLpPool(ti("1x3x5x5x5xf32")) => "1x3x1x1x1xf32";
        }
    }

    #[test]
    fn unpool_col2im_causal() {
        infers! {
            11 MaxUnpool(ti("1x1x2x2xf32"), ti("1x1x2x2xi64"); kernel_shape = ints(&[2, 2]), strides = ints(&[2, 2])) => "1x1x4x4xf32";
            11 MaxUnpool(ti("1x1x2x2xf32"), ti("1x1x2x2xi64"), ci(&[1, 1, 5, 5]); kernel_shape = ints(&[2, 2]), strides = ints(&[2, 2])) => "1x1x5x5xf32";
            18 Col2Im(ti("1x5x5xf32"), ci(&[5, 5]), ci(&[1, 5])) => "1x1x5x5xf32";
            18 Col2Im(ti("1x10x15xf32"), ci(&[5, 5]), ci(&[1, 5]); pads = ints(&[0, 1, 0, 1])) => "1x2x5x5xf32";
            18 Col2Im(ti("1x5x6xf32"), ci(&[5, 5]), ci(&[1, 5])) => Fails(1, "number of blocks");
            27 CausalConvWithState(ti("2x4x10xf32"), ti("4x1x3xf32")) => ["2x4x10xf32", "2x4x2xf32"];
            27 CausalConvWithState(ti("2x4x10xf32"), ti("4x1x3xf32"), ti("4xf32"), ti("2x4x2xf32")) => ["2x4x10xf32", "2x4x2xf32"];
            27 CausalConvWithState(ti("2x4x10xf32"), ti("4x1x3xf32"), In::Absent, ti("2x4x3xf32")) => Fails(2, "past_state length");
            27 CausalConvWithState(ti("2x4x10xf32"), ti("4x1x3xf32"); activation = s("relu")) => Fails(2, "unknown activation");
        }
    }
}
