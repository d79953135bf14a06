//! Image and spatial ops: sampling an input at computed coordinates.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | Resize (11, 13, 18, 19) | each output element from the input around its source coordinate | modes nearest (4 rounding modes), linear, cubic (`cubic_coeff_a`, `exclude_outside`); the 6 coordinate transformations; `antialias`; `extrapolation_value`; scales or sizes (constant or run-time), `axes`, `keep_aspect_ratio_policy` |
//! | Resize (10), Upsample (7, 9) | the same with asymmetric coordinates | nearest (rounding down), linear |
//! | CenterCropPad (18) | a centered crop or zero pad of each axis to the output's extent | any element type, `axes` |
//! | Col2Im (18) | the sum of the column blocks covering each image position | any spatial rank; strides, dilations, pads; run-time block shape |
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

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, TensorData, Value};

use super::conv::sized;
use super::structured::{const_data, fused_root};
use super::unsupported;
use crate::builder::{
    elem_of, fill, generic, identity_map, projection, CmpfPredicate, CmpiPredicate, Emitter,
};
use crate::builder::{Size, DYNAMIC};
use crate::error::Result;
use crate::kernel::{value_tensor, KernelBuilder};
use crate::schedule::Schedule;
use crate::symbols::{graph_input, sized_dims, Check, ResizeRule};

/// Lowers one image op.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    match kb.model.ir.op(op).kind {
        OpKind::Resize | OpKind::Upsample => resize(kb, op),
        OpKind::GridSample => grid_sample(kb, op),
        OpKind::AffineGrid => affine_grid(kb, op),
        OpKind::CenterCropPad => center_crop_pad(kb, op),
        OpKind::Col2Im => col2im(kb, op),
        OpKind::RoiAlign => roi_align(kb, op),
        _ => Err(unsupported(kb, op, "no lowering for this operator yet")),
    }
}

/// f64 scalar arithmetic inside a generic's body.
#[derive(Clone, Copy)]
struct F<'c, 'b> {
    e: Emitter<'c, 'b>,
}

impl<'c, 'b> F<'c, 'b> {
    fn ty(self) -> Type<'c> {
        Type::float64(self.e.cx)
    }
    fn c(self, v: f64) -> MValue<'c, 'b> {
        self.e.f(self.ty(), v)
    }
    fn add(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.addf(a, b)
    }
    fn sub(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.subf(a, b)
    }
    fn mul(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.mulf(a, b)
    }
    fn div(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.divf(a, b)
    }
    fn min(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.minimumf(a, b)
    }
    fn max(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.maximumf(a, b)
    }
    fn floor(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.floor(a)
    }
    fn ceil(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.ceil(a)
    }
    fn abs(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.absf(a)
    }
    /// `arith.cmpf`.
    fn cmp(self, pred: CmpfPredicate, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.cmpf(pred, a, b)
    }
    fn or(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.ori(a, b)
    }
    /// An index (a loop index, a run-time size) as f64.
    fn of_index(self, i: MValue<'c, '_>) -> MValue<'c, 'b> {
        let i64t = self.e.int_type(64);
        let i = self.e.index_cast(i, i64t);
        self.e.sitofp(i, self.ty())
    }
    /// A size plus `offset` as f64: a constant for a static size, else the
    /// run-time value (computed outside the body) converted.
    fn size(self, s: Size<'c, '_>, offset: f64) -> MValue<'c, 'b> {
        match s {
            Size::Static(n) => self.c(n as f64 + offset),
            Size::Dynamic(v) if offset == 0.0 => self.of_index(v),
            Size::Dynamic(v) => self.add(self.of_index(v), self.c(offset)),
        }
    }
    /// An integral f64 as an `index` clamped to `[0, dim)`.
    fn clamp_index(self, v: MValue<'c, 'b>, dim: Size<'c, '_>) -> MValue<'c, 'b> {
        let v = self.max(self.min(v, self.size(dim, -1.0)), self.c(0.0));
        let i64t = self.e.int_type(64);
        let i = self.e.fptosi(v, i64t);
        self.e.index_cast(i, Type::index(self.e.cx))
    }
    /// Whether an integral f64 lies in `[0, dim)`.
    fn inside(self, v: MValue<'c, 'b>, dim: Size<'c, '_>) -> MValue<'c, 'b> {
        self.inside_range(v, self.c(0.0), self.size(dim, -1.0))
    }
    /// Whether `v` lies in `[lo, hi]`.
    fn inside_range(
        self,
        v: MValue<'c, 'b>,
        lo: MValue<'c, 'b>,
        hi: MValue<'c, 'b>,
    ) -> MValue<'c, 'b> {
        let above = self.cmp(CmpfPredicate::Oge, v, lo);
        let below = self.cmp(CmpfPredicate::Ole, v, hi);
        self.e.andi(above, below)
    }
    /// A float element (of any width) as f64.
    fn extend(self, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
        if elem_of_scalar(v) == self.ty() {
            v
        } else {
            self.e.extf(v, self.ty())
        }
    }
    /// An integer element as f64.
    fn of_int(self, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.sitofp(v, self.ty())
    }
    /// An f64 as the float element type `ty`.
    fn narrow(self, v: MValue<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
        if ty == self.ty() {
            v
        } else {
            self.e.truncf(v, ty)
        }
    }
    /// `tensor.extract t[idx…]`.
    fn extract(self, t: MValue<'c, '_>, idx: &[MValue<'c, 'b>]) -> MValue<'c, 'b> {
        self.e.extract(t, idx)
    }
    /// Element `i` of a rank-1 tensor as f64 (float or integer elements).
    fn element(self, t: MValue<'c, '_>, i: usize) -> MValue<'c, 'b> {
        let v = self.extract(t, &[self.e.index(i as i64)]);
        if melior::ir::r#type::IntegerType::try_from(elem_of(t)).is_ok() {
            self.of_int(v)
        } else {
            self.extend(v)
        }
    }
}

/// Whether `elem` is a float type the image ops compute on.
fn sampled_float(elem: ElemType) -> bool {
    matches!(
        elem,
        ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64
    )
}

/// How an output coordinate maps to the input's (Resize's
/// `coordinate_transformation_mode`).
#[derive(Clone, Copy, PartialEq)]
enum Coords {
    HalfPixel,
    HalfPixelSymmetric,
    PytorchHalfPixel,
    AlignCorners,
    Asymmetric,
    TfCropAndResize,
}

/// Resize's interpolation.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// `nearest_mode`: round_prefer_floor, round_prefer_ceil, floor, ceil.
    Nearest(Rounding),
    Linear,
    /// The cubic kernel's `a`.
    Cubic(f64),
}

/// How nearest-neighbour Resize rounds a source coordinate.
#[derive(Clone, Copy, PartialEq)]
enum Rounding {
    PreferFloor,
    PreferCeil,
    Floor,
    Ceil,
}

/// Where a resized axis's scale comes from.
#[derive(Clone)]
enum Scale {
    /// Known at compile time.
    Static(f64),
    /// Element `i` of the run-time `scales` input.
    Input(usize),
    /// `out / in` of the axis's sizes, one of them symbolic (`sizes`
    /// given, stretched).
    Ratio,
    /// `min` (not_larger) or `max` (not_smaller) over the resized axes of
    /// `sizes[j] / in[j]`, with `sizes` a run-time input.
    Policy { larger: bool },
}

/// One axis Resize resamples.
struct Axis {
    dim: usize,
    scale: Scale,
    /// Index into the roi input's halves (`roi[k]`, `roi[k + len]`).
    roi: usize,
    /// Taps (interpolating modes).
    taps: i64,
}

/// Resize's (or Upsample's) operands that set the output: which of roi,
/// scales and sizes are given, the scales when they are constants, and
/// the resized axes.
struct ResizeOperands {
    roi: Option<Value>,
    scales: Option<Value>,
    sizes: Option<Value>,
    static_scales: Option<Vec<f64>>,
    axes: Vec<usize>,
}

/// Reads the operands of Resize/Upsample `data` on an input of rank
/// `rank`. An input with no elements is not given (how Resize says so);
/// one of symbolic length is given (the model's entry checks its length,
/// [`resize_checks`]), so that scales and sizes may not both be present.
fn resize_operands(
    model: &Model,
    data: &OpData,
    rank: usize,
) -> std::result::Result<ResizeOperands, &'static str> {
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let nonempty = |v: Option<Value>| -> std::result::Result<Option<Value>, &'static str> {
        let Some(v) = v else { return Ok(None) };
        let dims = sized_dims(model, Some(v))?;
        Ok(
            match dims.iter().map(Dim::as_known).product::<Option<i64>>() {
                Some(0) => None,
                _ => Some(v),
            },
        )
    };
    let (roi, scales, sizes) = match (data.kind, data.version) {
        (OpKind::Upsample, 7) => (None, None, None),
        (OpKind::Upsample, _) | (_, 10) => (None, input(1), None),
        _ => (
            nonempty(input(1))?,
            nonempty(input(2))?,
            nonempty(input(3))?,
        ),
    };
    if scales.is_some() && sizes.is_some() {
        return Err("both scales and sizes given (or of symbolic length)");
    }
    let a = &data.attrs;
    let axes: Vec<usize> = match a.ints("axes") {
        Some(ax) => ax
            .iter()
            .map(|&d| if d < 0 { d + rank as i64 } else { d } as usize)
            .collect(),
        None => (0..rank).collect(),
    };
    let static_scales: Option<Vec<f64>> = match (data.kind, data.version) {
        (OpKind::Upsample, 7) => a
            .floats("scales")
            .map(|s| s.iter().map(|&v| f64::from(v)).collect()),
        _ => scales.and_then(|s| const_data(model, s)?.to_f64s()),
    };
    Ok(ResizeOperands {
        roi,
        scales,
        sizes,
        static_scales,
        axes,
    })
}

/// The checks of a Resize/Upsample with symbolic sizes
/// (`symbols::checks`): the dims it does not resize are the input's; a
/// scales, sizes or roi input of symbolic length has one entry per
/// resized axis (roi: two); each resized output dim is `floor(d ·
/// scale)` — a polynomial for a constant integral scale, else checked
/// from the run-time scales (`Check::Resized`) — or the run-time sizes
/// (rounded by `keep_aspect_ratio_policy`), with the input's size then at
/// least 1 (the scale divides by it). The kernel reads the input at
/// indices clamped into its run-time sizes, so a scale that disagrees
/// would only give other values, but the check refuses it. An error names
/// what cannot be lowered: constant scales that are not integral over a
/// symbolic size, scales or sizes computed by the model, antialiasing
/// over a symbolic size.
pub(crate) fn resize_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let (x, y) = (
        sized_dims(model, data.inputs[0])?,
        sized_dims(model, data.results[0])?,
    );
    if x.len() != y.len() {
        return Err("an output of another rank than the input");
    }
    let ops = resize_operands(model, data, x.len())?;
    if ops.axes.iter().any(|&a| a >= x.len()) {
        return Err("axes out of range");
    }
    let legacy = data.kind == OpKind::Upsample || data.version < 11;
    let antialias = data.attrs.int("antialias").unwrap_or(0) != 0 && !legacy;
    let resized = |d: &usize| ops.axes.contains(d);
    if antialias
        && ops
            .axes
            .iter()
            .any(|&a| !x[a].is_known() || !y[a].is_known())
    {
        return Err("antialias over a symbolic size");
    }
    let mut out = vec![];
    for d in (0..x.len()).filter(|d| !resized(d)) {
        if x[d] != y[d] {
            out.push(Check::Equal(x[d].clone(), y[d].clone()));
        }
    }
    let n = ops.axes.len() as i64;
    let tf_crop = data.attrs.string("coordinate_transformation_mode") == Some("tf_crop_and_resize");
    let lengths = [
        (ops.scales, n),
        (ops.sizes, n),
        (ops.roi.filter(|_| tf_crop), 2 * n),
    ];
    for (v, len) in lengths {
        if let Some(v) = v {
            let dims = sized_dims(model, Some(v))?;
            if dims.len() != 1 {
                return Err("scales, sizes or roi of a rank other than 1");
            }
            if dims[0] != Dim::Known(len) {
                out.push(Check::Equal(dims[0].clone(), Dim::Known(len)));
            }
        }
    }
    let xa: Vec<Dim> = ops.axes.iter().map(|&a| x[a].clone()).collect();
    let ya: Vec<Dim> = ops.axes.iter().map(|&a| y[a].clone()).collect();
    let given = |v: Value| -> std::result::Result<(usize, ElemType), &'static str> {
        let input = graph_input(model, v).ok_or("scales or sizes computed by the model")?;
        Ok((
            input,
            value_tensor(model, v)
                .map_err(|_| "an untyped operand")?
                .elem,
        ))
    };
    let policy = data
        .attrs
        .string("keep_aspect_ratio_policy")
        .unwrap_or("stretch");
    if let Some(scales) = &ops.static_scales {
        for ((xd, yd), &s) in xa.iter().zip(&ya).zip(scales) {
            let expected = xd.floor_scaled(s);
            if expected == Dim::Unknown {
                return Err("a scale that is not integral over a symbolic size");
            }
            if expected != *yd {
                out.push(Check::Equal(yd.clone(), expected));
            }
        }
    } else if let Some(v) = ops.sizes.filter(|&v| const_data(model, v).is_some()) {
        let sizes = const_data(model, v)
            .and_then(TensorData::to_i64s)
            .ok_or("sizes that are not integers")?;
        if policy != "stretch" && xa.iter().any(|d| !d.is_known()) {
            return Err("keep_aspect_ratio_policy over a symbolic size");
        }
        for (yd, &s) in ya.iter().zip(&sizes) {
            if policy == "stretch" && *yd != Dim::Known(s) {
                out.push(Check::Equal(yd.clone(), Dim::Known(s)));
            }
        }
    } else if let Some(v) = ops.scales.or(ops.sizes) {
        let (input, elem) = given(v)?;
        let rule = match (ops.sizes.is_some(), policy) {
            (false, _) => ResizeRule::Scales,
            (true, "not_larger") => ResizeRule::NotLarger,
            (true, "not_smaller") => ResizeRule::NotSmaller,
            (true, _) => ResizeRule::Sizes,
        };
        out.push(Check::Resized {
            input,
            elem,
            rule,
            x: xa.clone(),
            y: ya,
        });
    }
    if ops.sizes.is_some() {
        for d in xa.iter().filter(|d| !d.is_known()) {
            out.push(Check::AtLeast(d.clone(), 1));
        }
    }
    Ok(out)
}

/// Pushes `Check::Equal(a, b)` when the two dims differ as polynomials.
fn equal(out: &mut Vec<Check>, a: &Dim, b: &Dim) {
    if a != b {
        out.push(Check::Equal(a.clone(), b.clone()));
    }
}

/// Pushes `Check::AtLeast(d, 1)` for each symbolic dim of `dims`: a size
/// the kernel clamps indices into (reading index 0 of it).
fn nonempty(out: &mut Vec<Check>, dims: &[Dim]) {
    for d in dims.iter().filter(|d| !d.is_known()) {
        out.push(Check::AtLeast(d.clone(), 1));
    }
}

/// The checks that the 1-D integer operand `v` has `len` entries and that
/// its entries `j` are the dims of `expected` (`(j, dim)`): compared at
/// compile time for a constant, checked at run time
/// (`Check::Value`) for a graph input; an error for values the model
/// computes.
fn entries_are(
    model: &Model,
    v: Value,
    len: usize,
    expected: &[(usize, Dim)],
    out: &mut Vec<Check>,
) -> std::result::Result<(), &'static str> {
    let dims = sized_dims(model, Some(v))?;
    if dims.len() != 1 {
        return Err("a shape operand of a rank other than 1");
    }
    equal(out, &dims[0], &Dim::Known(len as i64));
    if let Some(values) = const_data(model, v).and_then(TensorData::to_i64s) {
        for (j, d) in expected {
            equal(
                out,
                d,
                &Dim::Known(*values.get(*j).ok_or("a shape operand too short")?),
            );
        }
        return Ok(());
    }
    let input = graph_input(model, v).ok_or("a shape operand computed by the model")?;
    let elem = value_tensor(model, v)
        .map_err(|_| "an untyped shape operand")?
        .elem;
    for (j, d) in expected {
        out.push(Check::Value {
            input,
            elem,
            entry: Some(*j),
            expected: d.clone(),
        });
    }
    Ok(())
}

/// The checks of the image ops other than Resize with symbolic sizes
/// (`symbols::checks`), the conditions their generics (one loop nest over
/// the output, reading the inputs at computed and clamped coordinates)
/// rely on: the dims they read at the output's coordinates agree, the
/// sizes given as input values are the output's (`Check::Value`), and
/// the sizes indices are clamped into are at least 1. GridSample: X,
/// grid and Y share the batch, X and Y the channels, the grid's spatial
/// dims are Y's and its last dim the spatial rank. AffineGrid: theta is
/// `[N, r, r + 1]` and `size` is `[N, C, Y's spatial dims…]`.
/// CenterCropPad: the dims off `axes` are the input's, `shape` gives the
/// others. Col2Im: the batch agrees, the output's channels divide the
/// input's, `image_shape` gives the output's spatial dims, `block_shape`
/// has one entry per spatial dim. RoiAlign: rois and batch indices count
/// the output's rows, rois have 4 coordinates, X and Y share the
/// channels.
pub(crate) fn checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |i: usize| sized_dims(model, data.inputs.get(i).copied().flatten());
    let input = |i: usize| {
        data.inputs
            .get(i)
            .copied()
            .flatten()
            .ok_or("an absent operand")
    };
    let y = sized_dims(model, data.results[0])?;
    let mut out = vec![];
    match data.kind {
        OpKind::GridSample => {
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
        }
        OpKind::AffineGrid => {
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
        }
        OpKind::CenterCropPad => {
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
        }
        OpKind::Col2Im => {
            let x = dims(0)?;
            let r = y.len().checked_sub(2).ok_or("an image of rank below 2")?;
            if x.len() != 3 {
                return Err("an input of a rank other than 3");
            }
            equal(&mut out, &x[0], &y[0]);
            if x[1].div_exact(&y[1]) == Dim::Unknown {
                out.push(Check::Divisible(x[1].clone(), y[1].clone()));
            }
            let image: Vec<(usize, Dim)> = (0..r).map(|i| (i, y[2 + i].clone())).collect();
            entries_are(model, input(1)?, r, &image, &mut out)?;
            entries_are(model, input(2)?, r, &[], &mut out)?;
        }
        OpKind::RoiAlign => {
            let (x, rois, batch) = (dims(0)?, dims(1)?, dims(2)?);
            if x.len() != 4 || rois.len() != 2 || batch.len() != 1 || y.len() != 4 {
                return Err("operands of the wrong ranks");
            }
            equal(&mut out, &rois[0], &y[0]);
            equal(&mut out, &batch[0], &y[0]);
            equal(&mut out, &rois[1], &Dim::Known(4));
            equal(&mut out, &x[1], &y[1]);
            nonempty(&mut out, &[x[0].clone(), x[2].clone(), x[3].clone()]);
        }
        _ => return Err("not an image op"),
    }
    Ok(out)
}

/// Emits `i1` true when Resize's output dims `y` along its resized axes
/// follow from input dims `x` and the entries of `operand` (a memref of
/// `elem`s, one per axis) by `rule` ([`Check::Resized`]), computed as the
/// reference does: `floor(x · scale)` in f64, the sizes themselves, or
/// `⌊x · s + 0.5⌋` for the smallest (largest) `s = size / x` over the
/// axes under a keep_aspect_ratio_policy.
pub(crate) fn resized_hold<'c, 'a>(
    e: &Emitter<'c, 'a>,
    operand: MValue<'c, 'a>,
    elem: ElemType,
    rule: ResizeRule,
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let f = F { e: *e };
    let entries: Vec<MValue> = (0..x.len())
        .map(|j| {
            let v = e.load(operand, &[e.index(j as i64)]);
            if elem.is_float() {
                f.extend(v)
            } else {
                f.of_int(v)
            }
        })
        .collect();
    // A size of 0 (refused by the entry's other checks) divides by 1.
    let positive = |v: MValue<'c, 'a>| f.of_index(e.maxsi(v, e.index(1)));
    let policy = match rule {
        ResizeRule::NotLarger | ResizeRule::NotSmaller => {
            let ratios = entries
                .iter()
                .zip(x)
                .map(|(&s, &xd)| f.div(s, positive(xd)));
            let pick = |a, b| match rule {
                ResizeRule::NotLarger => f.min(a, b),
                _ => f.max(a, b),
            };
            ratios.reduce(pick)
        }
        _ => None,
    };
    let mut ok = e.i(e.int_type(1), 1);
    for ((&s, &xd), &yd) in entries.iter().zip(x).zip(y) {
        let expected = match rule {
            ResizeRule::Scales => f.floor(f.mul(f.of_index(xd), s)),
            ResizeRule::Sizes => s,
            ResizeRule::NotLarger | ResizeRule::NotSmaller => {
                let s = policy.expect("a policy's scale");
                f.floor(f.add(f.mul(s, f.of_index(xd)), f.c(0.5)))
            }
        };
        ok = e.andi(ok, f.cmp(CmpfPredicate::Oeq, expected, f.of_index(yd)));
    }
    ok
}

/// Lowers Resize (10–19) and Upsample (7, 9).
fn resize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let a = &data.attrs;
    let x = data.inputs[0].expect("X");
    let y = data.results[0].expect("Y");
    let (xd, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let (xs, ys) = (kb.sizes(x)?, kb.sizes(y)?);
    if !sampled_float(elem) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let rank = xd.len();
    let legacy = data.kind == OpKind::Upsample || data.version < 11;
    let mode = match (a.string("mode").unwrap_or("nearest"), legacy) {
        ("nearest", true) => Mode::Nearest(Rounding::Floor),
        ("nearest", false) => Mode::Nearest(match a.string("nearest_mode") {
            None | Some("round_prefer_floor") => Rounding::PreferFloor,
            Some("round_prefer_ceil") => Rounding::PreferCeil,
            Some("floor") => Rounding::Floor,
            Some("ceil") => Rounding::Ceil,
            Some(m) => return Err(unsupported(kb, op, &format!("nearest_mode {m:?}"))),
        }),
        ("linear" | "bilinear", _) => Mode::Linear,
        ("cubic", false) => Mode::Cubic(f64::from(a.float("cubic_coeff_a").unwrap_or(-0.75))),
        (m, _) => return Err(unsupported(kb, op, &format!("mode {m:?}"))),
    };
    let coords = if legacy {
        Coords::Asymmetric
    } else {
        match a.string("coordinate_transformation_mode") {
            None | Some("half_pixel") => Coords::HalfPixel,
            Some("half_pixel_symmetric") => Coords::HalfPixelSymmetric,
            Some("pytorch_half_pixel") => Coords::PytorchHalfPixel,
            Some("align_corners") => Coords::AlignCorners,
            Some("asymmetric") => Coords::Asymmetric,
            Some("tf_crop_and_resize") => Coords::TfCropAndResize,
            Some(m) => {
                return Err(unsupported(
                    kb,
                    op,
                    &format!("coordinate_transformation_mode {m:?}"),
                ))
            }
        }
    };
    let antialias = a.int("antialias").unwrap_or(0) != 0 && !legacy;
    if antialias && matches!(mode, Mode::Nearest(_)) {
        return Err(unsupported(kb, op, "antialias with mode nearest"));
    }
    let exclude_outside = a.int("exclude_outside").unwrap_or(0) != 0 && !legacy;
    let extrapolation = f64::from(a.float("extrapolation_value").unwrap_or(0.0));
    let ResizeOperands {
        roi,
        scales,
        sizes,
        static_scales,
        axes: axes_attr,
    } = resize_operands(kb.model, &data, rank).map_err(|why| unsupported(kb, op, why))?;
    if coords == Coords::TfCropAndResize && roi.is_none() {
        return Err(unsupported(kb, op, "tf_crop_and_resize without roi"));
    }
    let policy = a.string("keep_aspect_ratio_policy").unwrap_or("stretch");
    let mut axes = vec![];
    for (k, &d) in axes_attr.iter().enumerate() {
        let (din, dout) = (xd[d], yd[d]);
        let sized = din != DYNAMIC && dout != DYNAMIC;
        let scale = if sizes.is_some() {
            match policy {
                "stretch" if sized => Scale::Static(dout as f64 / din as f64),
                "stretch" => Scale::Ratio,
                "not_larger" => Scale::Policy { larger: false },
                "not_smaller" => Scale::Policy { larger: true },
                p => {
                    return Err(unsupported(
                        kb,
                        op,
                        &format!("keep_aspect_ratio_policy {p:?}"),
                    ))
                }
            }
        } else if let Some(s) = &static_scales {
            Scale::Static(s[k])
        } else if scales.is_some() {
            Scale::Input(k)
        } else {
            return Err(unsupported(kb, op, "neither scales nor sizes given"));
        };
        // An axis of one element in and out reads index 0 whatever the
        // scale; one with a static scale of 1 and no crop is the identity.
        let identity = match scale {
            Scale::Static(s) => s == 1.0 && din == dout && coords != Coords::TfCropAndResize,
            _ => false,
        };
        if (din == 1 && dout == 1) || identity || dout == 0 {
            continue;
        }
        // The smallest scale the axis may have: floor(in·s) = out for
        // scales, round(in·s) = out under a policy.
        let lower = match scale {
            Scale::Static(s) => Some((s, 1.0)),
            Scale::Input(_) | Scale::Ratio if sized => Some((dout as f64, din as f64)),
            Scale::Policy { .. } if sized => (dout > 1).then_some(((dout - 1) as f64, din as f64)),
            _ => None,
        };
        let support = match mode {
            Mode::Nearest(_) => 0,
            Mode::Linear => 1,
            Mode::Cubic(_) => 2,
        };
        let taps = if support == 0 {
            1
        } else if !antialias {
            2 * support
        } else {
            let Some((num, den)) = lower else {
                return Err(unsupported(kb, op, "antialias with an unbounded scale"));
            };
            // start = floor(−support/s) + 1 at s = min(num/den, 1).
            let reach = if num >= den {
                support as f64
            } else {
                (support as f64 * den / num).ceil()
            };
            if reach > 64.0 {
                return Err(unsupported(kb, op, "antialias over more than 128 taps"));
            }
            2 * reach as i64
        };
        axes.push(Axis {
            dim: d,
            scale,
            roi: k,
            taps,
        });
    }
    let total: i64 = axes.iter().map(|ax| ax.taps).product();
    if total > 4096 {
        return Err(unsupported(
            kb,
            op,
            "more than 4096 taps per output element",
        ));
    }
    let naxes = axes_attr.len();
    let xt = kb.tensor(x);
    let roi_t = roi.map(|v| kb.tensor(v));
    let scales_t = scales.map(|v| kb.tensor(v));
    let sizes_t = sizes.map(|v| kb.tensor(v));
    let init = kb.init(y)?;
    let e = kb.e;
    let n = yd.len();
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, n))],
        &vec![false; n],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let policy_scale = |larger: bool| {
                let sizes_t = sizes_t.expect("a policy needs sizes");
                let mut best: Option<MValue> = None;
                for (k, &d) in axes_attr.iter().enumerate() {
                    let s = f.div(f.element(sizes_t, k), f.size(xs[d], 0.0));
                    best = Some(match best {
                        None => s,
                        Some(b) if larger => f.max(b, s),
                        Some(b) => f.min(b, s),
                    });
                }
                best.expect("at least one axis")
            };
            let mut outside: Option<MValue> = None;
            // Per resized axis: (clamped index, weight) of each tap.
            let mut taps: Vec<Vec<(MValue, Option<MValue>)>> = vec![];
            for ax in &axes {
                let (din, dout) = (xs[ax.dim], ys[ax.dim]);
                let s = match ax.scale {
                    Scale::Static(s) => f.c(s),
                    Scale::Input(k) => f.element(scales_t.expect("scales"), k),
                    Scale::Ratio => f.div(f.size(dout, 0.0), f.size(din, 0.0)),
                    Scale::Policy { larger } => policy_scale(larger),
                };
                let o = f.of_index(be.loop_index(ax.dim));
                let width = f.mul(s, f.size(din, 0.0));
                let one_wide = f.cmp(CmpfPredicate::Oeq, width, f.c(1.0));
                let half = f.sub(f.div(f.add(o, f.c(0.5)), s), f.c(0.5));
                let xo = match coords {
                    Coords::HalfPixel => half,
                    Coords::HalfPixelSymmetric => {
                        let adjustment = f.div(f.size(dout, 0.0), width);
                        let center = f.div(f.size(din, 0.0), f.c(2.0));
                        let offset = f.mul(center, f.sub(f.c(1.0), adjustment));
                        f.add(offset, half)
                    }
                    Coords::PytorchHalfPixel => be.select(one_wide, f.c(-0.5), half),
                    Coords::AlignCorners => {
                        let v = f.div(f.mul(o, f.size(din, -1.0)), f.sub(width, f.c(1.0)));
                        be.select(one_wide, f.c(0.0), v)
                    }
                    Coords::Asymmetric => f.div(o, s),
                    Coords::TfCropAndResize => {
                        let roi_t = roi_t.expect("roi");
                        let r0 = f.element(roi_t, ax.roi);
                        let r1 = f.element(roi_t, ax.roi + naxes);
                        let span = f.sub(r1, r0);
                        let last = f.size(din, -1.0);
                        let v = f.div(f.mul(f.mul(o, span), last), f.sub(width, f.c(1.0)));
                        let v = be.select(one_wide, f.div(f.mul(span, last), f.c(2.0)), v);
                        let v = f.add(v, f.mul(r0, last));
                        let out = f.or(
                            f.cmp(CmpfPredicate::Olt, v, f.c(0.0)),
                            f.cmp(CmpfPredicate::Ogt, v, last),
                        );
                        outside = Some(match outside {
                            Some(p) => f.or(p, out),
                            None => out,
                        });
                        v
                    }
                };
                taps.push(match mode {
                    Mode::Nearest(r) => {
                        let fl = f.floor(xo);
                        let up = f.add(fl, f.c(1.0));
                        let frac = f.sub(xo, fl);
                        let v = match r {
                            Rounding::PreferFloor => {
                                be.select(f.cmp(CmpfPredicate::Ole, frac, f.c(0.5)), fl, up)
                            }
                            Rounding::PreferCeil => {
                                be.select(f.cmp(CmpfPredicate::Olt, frac, f.c(0.5)), fl, up)
                            }
                            Rounding::Floor => fl,
                            Rounding::Ceil => f.ceil(xo),
                        };
                        vec![(f.clamp_index(v, din), None)]
                    }
                    Mode::Linear | Mode::Cubic(_) => {
                        let stretch = if antialias {
                            f.min(s, f.c(1.0))
                        } else {
                            f.c(1.0)
                        };
                        let start = f.sub(f.ceil(xo), f.c((ax.taps / 2) as f64));
                        let mut row = vec![];
                        for k in 0..ax.taps {
                            let i = f.add(start, f.c(k as f64));
                            let t = f.mul(f.abs(f.sub(i, xo)), stretch);
                            let mut w = match mode {
                                Mode::Cubic(a) => cubic_weight(f, t, a),
                                _ => f.max(f.sub(f.c(1.0), t), f.c(0.0)),
                            };
                            if exclude_outside {
                                w = be.select(f.inside(i, din), w, f.c(0.0));
                            }
                            row.push((f.clamp_index(i, din), Some(w)));
                        }
                        if antialias || exclude_outside {
                            let sum = row
                                .iter()
                                .map(|(_, w)| w.expect("weighted"))
                                .reduce(|a, b| f.add(a, b))
                                .expect("taps");
                            let zero = f.cmp(CmpfPredicate::Oeq, sum, f.c(0.0));
                            let sum = be.select(zero, f.c(1.0), sum);
                            for t in &mut row {
                                t.1 = Some(f.div(t.1.expect("weighted"), sum));
                            }
                        }
                        row
                    }
                });
            }
            let mut acc: Option<MValue> = None;
            let mut pick = vec![0usize; axes.len()];
            loop {
                let mut idx: Vec<MValue> = (0..rank).map(|d| be.loop_index(d)).collect();
                let mut weight: Option<MValue> = None;
                for (a, ax) in axes.iter().enumerate() {
                    let (i, w) = taps[a][pick[a]];
                    idx[ax.dim] = i;
                    if let Some(w) = w {
                        weight = Some(match weight {
                            Some(p) => f.mul(p, w),
                            None => w,
                        });
                    }
                }
                let v = f.extend(f.extract(xt, &idx));
                let term = match weight {
                    Some(w) => f.mul(w, v),
                    None => v,
                };
                acc = Some(match acc {
                    Some(p) => f.add(p, term),
                    None => term,
                });
                if !next_pick(&mut pick, |a| taps[a].len()) {
                    break;
                }
            }
            let mut v = acc.expect("at least one tap");
            if let Some(out) = outside {
                v = be.select(out, f.c(extrapolation), v);
            }
            vec![f.narrow(v, out_ty)]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// The type of a scalar value.
fn elem_of_scalar<'c>(v: MValue<'c, '_>) -> Type<'c> {
    use melior::ir::ValueLike;
    v.r#type()
}

/// The cubic convolution kernel with coefficient `a` at distance `t ≥ 0`:
/// `(a+2)t³ − (a+3)t² + 1` within 1, `at³ − 5at² + 8at − 4a` within 2,
/// else 0.
fn cubic_weight<'c, 'b>(f: F<'c, 'b>, t: MValue<'c, 'b>, a: f64) -> MValue<'c, 'b> {
    let t2 = f.mul(t, t);
    let t3 = f.mul(t2, t);
    let near = f.add(
        f.sub(f.mul(f.c(a + 2.0), t3), f.mul(f.c(a + 3.0), t2)),
        f.c(1.0),
    );
    let far = f.sub(
        f.add(
            f.sub(f.mul(f.c(a), t3), f.mul(f.c(5.0 * a), t2)),
            f.mul(f.c(8.0 * a), t),
        ),
        f.c(4.0 * a),
    );
    let w =
        f.e.select(f.cmp(CmpfPredicate::Ole, t, f.c(1.0)), near, far);
    f.e.select(f.cmp(CmpfPredicate::Olt, t, f.c(2.0)), w, f.c(0.0))
}

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
fn grid_sample(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X");
    let grid = data.inputs[1].expect("grid");
    let y = data.results[0].expect("Y");
    let (xd, elem) = kb.shape(x)?;
    let (gd, gelem) = kb.shape(grid)?;
    let (yd, _) = kb.shape(y)?;
    let xs = kb.sizes(x)?;
    if !sampled_float(elem) || !sampled_float(gelem) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let mode = match data.attrs.string("mode").unwrap_or(if data.version < 20 {
        "bilinear"
    } else {
        "linear"
    }) {
        "nearest" => GridMode::Nearest,
        "bilinear" | "linear" => GridMode::Linear,
        "bicubic" | "cubic" => GridMode::Cubic,
        m => return Err(unsupported(kb, op, &format!("mode {m:?}"))),
    };
    let padding = match data.attrs.string("padding_mode").unwrap_or("zeros") {
        "zeros" => Padding::Zeros,
        "border" => Padding::Border,
        "reflection" => Padding::Reflection,
        m => return Err(unsupported(kb, op, &format!("padding_mode {m:?}"))),
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

/// Advances `pick` (one tap per axis, `len(axis)` taps each) to the next
/// combination in odometer order; false once every combination was seen.
fn next_pick(pick: &mut [usize], len: impl Fn(usize) -> usize) -> bool {
    for a in (0..pick.len()).rev() {
        pick[a] += 1;
        if pick[a] < len(a) {
            return true;
        }
        pick[a] = 0;
    }
    false
}

/// Lowers AffineGrid (20): `grid[n, s…, i] = Σ_j θ[n, i, j] · b_j +
/// θ[n, i, nd]`, with `b` the base grid's normalized coordinates of
/// position `s` in x, y(, z) order (x along the last spatial dim):
/// `−1 + 2j/(L−1)` with `align_corners`, else `(2j+1)/L − 1`.
fn affine_grid(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let theta = data.inputs[0].expect("theta");
    let y = data.results[0].expect("grid");
    let (td, elem) = kb.shape(theta)?;
    let (yd, _) = kb.shape(y)?;
    if !sampled_float(elem) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let nd = yd.len() - 2;
    let fits = |d: i64, n: usize| d == n as i64 || d == DYNAMIC;
    if td.len() != 3 || !fits(td[1], nd) || !fits(td[2], nd + 1) {
        return Err(unsupported(kb, op, "theta does not match the grid's rank"));
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

/// Lowers CenterCropPad (18): each axis is cropped (start `⌊(in − out)/2⌋`)
/// or zero-padded (`⌊(out − in)/2⌋` before) around its center to the
/// output's (inferred) extent: `y[o] = x[o + crop − pad]`, 0 outside `x`.
fn center_crop_pad(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
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
                let p = sized(be, shift, |s| be.addi(o, s));
                // Unsigned: a negative position compares above the extent.
                let ok = sized(be, xs[d], |n| be.cmpi(CmpiPredicate::Ult, p, n));
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

/// Lowers Col2Im (18): `y[n, c, o…] = Σ_k x[n, c·K + k, l]` over the
/// `K = ∏ block` kernel positions `k…` whose block `q… = (o + begin −
/// k·d) / s` is exact and inside the grid of blocks, `l` its row-major
/// number. The block shape may be a run-time input: it is read in the body
/// and the kernel positions are decoded from `k` with it.
fn col2im(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("input");
    let block = data.inputs[2].expect("block_shape");
    let y = data.results[0].expect("output");
    let (_, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let (xs, ys) = (kb.sizes(x)?, kb.sizes(y)?);
    if !sampled_float(elem) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let r = yd.len() - 2;
    let e = kb.e;
    // The kernel positions per channel, `K = C·K / C` (checked exact at run
    // time for symbolic sizes; a 0 divisor divides by 1).
    let k_total = match (xs[1], ys[1]) {
        (Size::Static(ck), Size::Static(c)) => {
            if c == 0 || ck % c != 0 {
                return Err(unsupported(kb, op, "input channels not a multiple of C"));
            }
            Size::Static(ck / c)
        }
        (ck, c) => {
            let c = e.maxsi(c.value(&e), e.index(1));
            Size::Dynamic(e.divsi(ck.value(&e), c))
        }
    };
    let a = &data.attrs;
    let per_dim = |name: &str, default: i64| -> Vec<i64> {
        a.ints(name).map_or(vec![default; r], <[i64]>::to_vec)
    };
    let strides = per_dim("strides", 1);
    let dilations = per_dim("dilations", 1);
    let pads = a.ints("pads").map_or(vec![0; 2 * r], <[i64]>::to_vec);
    let xt = kb.tensor(x);
    let bt = kb.tensor(block);
    let bounds = kb.empty(&[k_total], elem)?;
    let init = kb.init(y)?;
    let zero = e.f(elem_of(init), 0.0);
    let init: MValue = kb
        .structured(fill(e, zero, init))
        .result(0)
        .expect("one result")
        .into();
    let e = kb.e;
    let n = yd.len();
    let dk = n;
    let mut reduction = vec![false; n];
    reduction.push(true);
    let out_map = projection(e.cx, n + 1, 0..n);
    let k_map = projection(e.cx, n + 1, [dk]);
    let g = generic(
        e,
        &[(bounds, k_map)],
        &[(init, out_map)],
        &reduction,
        |be, args| {
            let index = Type::index(be.cx);
            let ty = elem_of_scalar(args[1]);
            let k = be.loop_index(dk);
            let zero = be.index(0);
            // A block size below 1 (an invalid model) counts as 1, so that
            // the decoding below never divides by 0.
            let blocks: Vec<MValue> = (0..r)
                .map(|i| {
                    let f = F { e: be };
                    let b = f.extract(bt, &[be.index(i as i64)]);
                    let b = be.index_cast(b, index);
                    be.maxsi(b, be.index(1))
                })
                .collect();
            // Kernel position of k along each dim (row-major over blocks).
            let mut rest = k;
            let mut kpos = vec![zero; r];
            for i in (0..r).rev() {
                kpos[i] = be.remui(rest, blocks[i]);
                rest = be.divui(rest, blocks[i]);
            }
            let mut l = zero;
            let mut inside: Option<MValue> = None;
            for i in 0..r {
                // Blocks along dim i: (out + pads − d·(b − 1) − 1) / s + 1.
                let span = be.muli(be.subi(blocks[i], be.index(1)), be.index(dilations[i]));
                let padded = sized(be, ys[2 + i], |n| {
                    be.addi(n, be.index(pads[i] + pads[r + i] - 1))
                });
                let room = be.subi(padded, span);
                let count = be.addi(be.divsi(room, be.index(strides[i])), be.index(1));
                let o = be.loop_index(2 + i);
                let kd = be.muli(kpos[i], be.index(dilations[i]));
                let num = be.subi(be.addi(o, be.index(pads[i])), kd);
                let s = be.index(strides[i]);
                let q = be.divsi(num, s);
                let exact = be.cmpi(CmpiPredicate::Eq, be.remsi(num, s), zero);
                // Unsigned: a negative block compares above the count.
                let within = be.cmpi(CmpiPredicate::Ult, q, count);
                let ok = be.andi(exact, within);
                let q = be.select(ok, q, zero);
                l = be.addi(be.muli(l, count), q);
                inside = Some(inside.map_or(ok, |all| be.andi(all, ok)));
            }
            let ok = inside.expect("a spatial dim");
            // The block number stays inside x's last dim.
            let within = sized(be, xs[2], |n| be.cmpi(CmpiPredicate::Ult, l, n));
            let ok = be.andi(ok, within);
            let l = be.select(ok, l, zero);
            let first = sized(be, k_total, |n| be.muli(be.loop_index(1), n));
            let c = be.addi(first, k);
            let f = F { e: be };
            let v = f.extract(xt, &[be.loop_index(0), c, l]);
            let v = be.select(ok, v, be.f(ty, 0.0));
            vec![be.addf(args[1], v)]
        },
    );
    let g = kb.root(g, Schedule::Generic { outer: None });
    kb.define(y, g.result(0).expect("one result").into());
    Ok(())
}

/// Lowers RoiAlign (10, 16, 22) with a fixed `sampling_ratio`: each output
/// bin of roi `r` averages (or takes the max of) `ratio²` bilinear samples
/// of `X[batch_indices[r], c]` at the bin's regular sub-grid. Samples
/// beyond one pixel outside the image weigh 0; the others read clamped
/// neighbours. An adaptive ratio (0: from each roi's size) is refused.
fn roi_align(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X");
    let rois = data.inputs[1].expect("rois");
    let batch = data.inputs[2].expect("batch_indices");
    let y = data.results[0].expect("Y");
    let (_, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let xs = kb.sizes(x)?;
    if !sampled_float(elem) || !sampled_float(kb.shape(rois)?.1) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let a = &data.attrs;
    let ratio = a.int("sampling_ratio").unwrap_or(0);
    if ratio <= 0 {
        return Err(unsupported(kb, op, "an adaptive sampling_ratio (0)"));
    }
    if ratio > 16 {
        return Err(unsupported(kb, op, "a sampling_ratio above 16"));
    }
    let max_mode = match a.string("mode").unwrap_or("avg") {
        "avg" => false,
        "max" => true,
        m => return Err(unsupported(kb, op, &format!("mode {m:?}"))),
    };
    let half_pixel = match a.string("coordinate_transformation_mode") {
        Some("half_pixel") => true,
        Some("output_half_pixel") => false,
        None => data.version >= 16,
        Some(m) => {
            return Err(unsupported(
                kb,
                op,
                &format!("coordinate_transformation_mode {m:?}"),
            ))
        }
    };
    let scale = f64::from(a.float("spatial_scale").unwrap_or(1.0));
    let (ph_n, pw_n) = (yd[2], yd[3]);
    if ph_n == DYNAMIC || pw_n == DYNAMIC {
        return Err(unsupported(kb, op, "a symbolic output height or width"));
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
