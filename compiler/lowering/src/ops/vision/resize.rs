//! Resize and Upsample: each output element from the input around its
//! source coordinate (nearest, or separable linear/cubic taps), and the
//! conditions the model's entry checks for scales and sizes read at run
//! time.

use melior::ir::Value as MValue;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, TensorData, Value};

use crate::builder::{generic, identity_map, CmpfPredicate, Emitter, DYNAMIC};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::common::{const_data, fused_root};
use crate::ops::sample::{cubic_weight, elem_of_scalar, next_pick, sampled_float, F};
use crate::symbols::{graph_input, sized_dims, Check, ResizeRule};
use crate::types::value_tensor;

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
/// (`ops::entry_checks`): the dims it does not resize are the input's; a
/// scales, sizes or roi input of symbolic length has one entry per
/// resized axis (roi: two); each resized output dim is `floor(d ·
/// scale)` — a polynomial for a constant integral scale, else checked
/// from the run-time scales (`Check::Resized`) — or the run-time sizes
/// (rounded by `keep_aspect_ratio_policy`), with the input's size then at
/// least 1 (the scale divides by it). The kernel reads the input at
/// indices clamped into its run-time sizes, so a scale that disagrees
/// would only give other values, but the check refuses it. Scales or sizes
/// the model computes need no check (see the body). An error names what
/// cannot be lowered: constant scales that are not integral over a
/// symbolic size, antialiasing over a symbolic size.
pub(super) fn resize_checks(
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
        if graph_input(model, v).is_none() {
            // Computed by the model (a segmentation head resized to its
            // input's size): the output dims are inference's over the
            // computed values, or a host program's sizes step computed
            // them from these very values; either way they hold.
            return Ok(out);
        }
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
pub(super) fn resize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let a = &data.attrs;
    let x = data.inputs[0].expect("X");
    let y = data.results[0].expect("Y");
    let (xd, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    let (xs, ys) = (kb.sizes(x)?, kb.sizes(y)?);
    if !sampled_float(elem) {
        return Err(kb.unsupported(op, &format!("{elem} elements")));
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
            Some(m) => return Err(kb.unsupported(op, &format!("nearest_mode {m:?}"))),
        }),
        ("linear" | "bilinear", _) => Mode::Linear,
        ("cubic", false) => Mode::Cubic(f64::from(a.float("cubic_coeff_a").unwrap_or(-0.75))),
        (m, _) => return Err(kb.unsupported(op, &format!("mode {m:?}"))),
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
                return Err(kb.unsupported(op, &format!("coordinate_transformation_mode {m:?}")))
            }
        }
    };
    let antialias = a.int("antialias").unwrap_or(0) != 0 && !legacy;
    if antialias && matches!(mode, Mode::Nearest(_)) {
        return Err(kb.unsupported(op, "antialias with mode nearest"));
    }
    let exclude_outside = a.int("exclude_outside").unwrap_or(0) != 0 && !legacy;
    let extrapolation = f64::from(a.float("extrapolation_value").unwrap_or(0.0));
    let ResizeOperands {
        roi,
        scales,
        sizes,
        static_scales,
        axes: axes_attr,
    } = resize_operands(kb.model, &data, rank).map_err(|why| kb.unsupported(op, why))?;
    if coords == Coords::TfCropAndResize && roi.is_none() {
        return Err(kb.unsupported(op, "tf_crop_and_resize without roi"));
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
                p => return Err(kb.unsupported(op, &format!("keep_aspect_ratio_policy {p:?}"))),
            }
        } else if let Some(s) = &static_scales {
            Scale::Static(s[k])
        } else if scales.is_some() {
            Scale::Input(k)
        } else {
            return Err(kb.unsupported(op, "neither scales nor sizes given"));
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
                return Err(kb.unsupported(op, "antialias with an unbounded scale"));
            };
            // start = floor(−support/s) + 1 at s = min(num/den, 1).
            let reach = if num >= den {
                support as f64
            } else {
                (support as f64 * den / num).ceil()
            };
            if reach > 64.0 {
                return Err(kb.unsupported(op, "antialias over more than 128 taps"));
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
        return Err(kb.unsupported(op, "more than 4096 taps per output element"));
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
