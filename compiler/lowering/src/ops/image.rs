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
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, OpKind, Value};

use super::elementwise::identity_map;
use super::structured::{const_data, elem_of, fused_root, generic, loop_index};
use super::unsupported;
use crate::emit::Emitter;
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::types::DYNAMIC;

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
    fn bin(self, name: &str, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.same(name, &[a, b])
    }
    fn add(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.bin("arith.addf", a, b)
    }
    fn sub(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.bin("arith.subf", a, b)
    }
    fn mul(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.bin("arith.mulf", a, b)
    }
    fn div(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.bin("arith.divf", a, b)
    }
    fn min(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.bin("arith.minimumf", a, b)
    }
    fn max(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.bin("arith.maximumf", a, b)
    }
    fn un(self, name: &str, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.same(name, &[a])
    }
    fn floor(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.un("math.floor", a)
    }
    fn ceil(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.un("math.ceil", a)
    }
    fn abs(self, a: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.un("math.absf", a)
    }
    /// `arith.cmpf` with a predicate name (`olt`, `ole`, `oeq`, `ogt`, `oge`, `une`).
    fn cmp(self, pred: &str, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        let p = match pred {
            "oeq" => 1,
            "ogt" => 2,
            "oge" => 3,
            "olt" => 4,
            "ole" => 5,
            "une" => 14,
            _ => unreachable!("known predicate {pred}"),
        };
        self.e.cmp("arith.cmpf", p, a, b)
    }
    fn or(self, a: MValue<'c, 'b>, b: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.same("arith.ori", &[a, b])
    }
    /// A loop index as f64.
    fn of_index(self, i: MValue<'c, 'b>) -> MValue<'c, 'b> {
        let i64t = self.e.int_type(64);
        let i = self.e.convert("arith.index_cast", i, i64t);
        self.e.convert("arith.sitofp", i, self.ty())
    }
    /// An integral f64 as an `index` clamped to `[0, dim)`.
    fn clamp_index(self, v: MValue<'c, 'b>, dim: i64) -> MValue<'c, 'b> {
        let v = self.max(self.min(v, self.c((dim - 1) as f64)), self.c(0.0));
        let i64t = self.e.int_type(64);
        let i = self.e.convert("arith.fptosi", v, i64t);
        self.e
            .convert("arith.index_cast", i, Type::index(self.e.cx))
    }
    /// Whether an integral f64 lies in `[0, dim)`.
    fn inside(self, v: MValue<'c, 'b>, dim: i64) -> MValue<'c, 'b> {
        self.inside_range(v, 0.0, (dim - 1) as f64)
    }
    /// Whether `v` lies in `[lo, hi]`.
    fn inside_range(self, v: MValue<'c, 'b>, lo: f64, hi: f64) -> MValue<'c, 'b> {
        let above = self.cmp("oge", v, self.c(lo));
        let below = self.cmp("ole", v, self.c(hi));
        self.e.same("arith.andi", &[above, below])
    }
    /// A float element (of any width) as f64.
    fn extend(self, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
        if elem_of_scalar(v) == self.ty() {
            v
        } else {
            self.e.convert("arith.extf", v, self.ty())
        }
    }
    /// An integer element as f64.
    fn of_int(self, v: MValue<'c, 'b>) -> MValue<'c, 'b> {
        self.e.convert("arith.sitofp", v, self.ty())
    }
    /// An f64 as the float element type `ty`.
    fn narrow(self, v: MValue<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
        if ty == self.ty() {
            v
        } else {
            self.e.convert("arith.truncf", v, ty)
        }
    }
    /// `tensor.extract t[idx…]`.
    fn extract(self, t: MValue<'c, '_>, idx: &[MValue<'c, 'b>]) -> MValue<'c, 'b> {
        let mut operands: Vec<MValue<'c, '_>> = vec![t];
        operands.extend(idx.iter().copied());
        self.e
            .value(self.e.op("tensor.extract", &operands, &[elem_of(t)], &[]))
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

/// Static dims of `v`, or a clean refusal when some are symbolic.
fn static_dims(kb: &KernelBuilder, op: OpId, v: Value) -> Result<(Vec<i64>, ElemType)> {
    let (dims, elem) = kb.shape(v)?;
    if dims.contains(&DYNAMIC) {
        return Err(unsupported(kb, op, "symbolic dims are not supported"));
    }
    Ok((dims, elem))
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

/// Lowers Resize (10–19) and Upsample (7, 9).
fn resize(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let a = &data.attrs;
    let x = data.inputs[0].expect("X");
    let y = data.results[0].expect("Y");
    let (xd, elem) = static_dims(kb, op, x)?;
    let (yd, _) = static_dims(kb, op, y)?;
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
    let input = |i: usize| data.inputs.get(i).copied().flatten();
    let nonempty = |v: Option<Value>| -> Result<Option<Value>> {
        Ok(match v {
            Some(v) if static_dims(kb, op, v)?.0.iter().product::<i64>() > 0 => Some(v),
            _ => None,
        })
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
    if coords == Coords::TfCropAndResize && roi.is_none() {
        return Err(unsupported(kb, op, "tf_crop_and_resize without roi"));
    }
    let axes_attr: Vec<usize> = match a.ints("axes") {
        Some(ax) => ax
            .iter()
            .map(|&d| if d < 0 { d + rank as i64 } else { d } as usize)
            .collect(),
        None => (0..rank).collect(),
    };
    let policy = a.string("keep_aspect_ratio_policy").unwrap_or("stretch");
    let static_scales: Option<Vec<f64>> = match (data.kind, data.version) {
        (OpKind::Upsample, 7) => a
            .floats("scales")
            .map(|s| s.iter().map(|&v| f64::from(v)).collect()),
        _ => scales.and_then(|s| const_data(kb.model, s)?.to_f64s()),
    };
    let mut axes = vec![];
    for (k, &d) in axes_attr.iter().enumerate() {
        let (din, dout) = (xd[d], yd[d]);
        let scale = if sizes.is_some() {
            match policy {
                "stretch" => Scale::Static(dout as f64 / din as f64),
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
            Scale::Input(_) => Some((dout as f64, din as f64)),
            Scale::Policy { .. } => (dout > 1).then_some(((dout - 1) as f64, din as f64)),
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
        &[(init, identity_map(n))],
        &vec![false; n],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let policy_scale = |larger: bool| {
                let sizes_t = sizes_t.expect("a policy needs sizes");
                let mut best: Option<MValue> = None;
                for (k, &d) in axes_attr.iter().enumerate() {
                    let s = f.div(f.element(sizes_t, k), f.c(xd[d] as f64));
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
                let (din, dout) = (xd[ax.dim], yd[ax.dim]);
                let s = match ax.scale {
                    Scale::Static(s) => f.c(s),
                    Scale::Input(k) => f.element(scales_t.expect("scales"), k),
                    Scale::Policy { larger } => policy_scale(larger),
                };
                let o = f.of_index(loop_index(be, ax.dim));
                let width = f.mul(s, f.c(din as f64));
                let one_wide = f.cmp("oeq", width, f.c(1.0));
                let half = f.sub(f.div(f.add(o, f.c(0.5)), s), f.c(0.5));
                let xo = match coords {
                    Coords::HalfPixel => half,
                    Coords::HalfPixelSymmetric => {
                        let adjustment = f.div(f.c(dout as f64), width);
                        let center = f.c(din as f64 / 2.0);
                        let offset = f.mul(center, f.sub(f.c(1.0), adjustment));
                        f.add(offset, half)
                    }
                    Coords::PytorchHalfPixel => be.select(one_wide, f.c(-0.5), half),
                    Coords::AlignCorners => {
                        let v = f.div(f.mul(o, f.c((din - 1) as f64)), f.sub(width, f.c(1.0)));
                        be.select(one_wide, f.c(0.0), v)
                    }
                    Coords::Asymmetric => f.div(o, s),
                    Coords::TfCropAndResize => {
                        let roi_t = roi_t.expect("roi");
                        let r0 = f.element(roi_t, ax.roi);
                        let r1 = f.element(roi_t, ax.roi + naxes);
                        let span = f.sub(r1, r0);
                        let last = f.c((din - 1) as f64);
                        let v = f.div(f.mul(f.mul(o, span), last), f.sub(width, f.c(1.0)));
                        let v = be.select(one_wide, f.div(f.mul(span, last), f.c(2.0)), v);
                        let v = f.add(v, f.mul(r0, last));
                        let out = f.or(f.cmp("olt", v, f.c(0.0)), f.cmp("ogt", v, last));
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
                                be.select(f.cmp("ole", frac, f.c(0.5)), fl, up)
                            }
                            Rounding::PreferCeil => be.select(f.cmp("olt", frac, f.c(0.5)), fl, up),
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
                            let zero = f.cmp("oeq", sum, f.c(0.0));
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
                let mut idx: Vec<MValue> = (0..rank).map(|d| loop_index(be, d)).collect();
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
    let w = f.e.select(f.cmp("ole", t, f.c(1.0)), near, far);
    f.e.select(f.cmp("olt", t, f.c(2.0)), w, f.c(0.0))
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
    let (xd, elem) = static_dims(kb, op, x)?;
    let (gd, gelem) = static_dims(kb, op, grid)?;
    let (yd, _) = static_dims(kb, op, y)?;
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
        &[(init, identity_map(n))],
        &vec![false; n],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let batch = loop_index(be, 0);
            let channel = loop_index(be, 1);
            let spatial: Vec<MValue> = (2..n).map(|d| loop_index(be, d)).collect();
            // Per input spatial dim: (index, weight, inside) of each tap.
            let mut taps: Vec<Vec<GridTap<'_, '_>>> = vec![];
            for i in 0..nd {
                let len = xd[2 + i];
                let mut gi = vec![batch];
                gi.extend(spatial.iter().copied());
                gi.push(be.index((nd - 1 - i) as i64));
                let g = f.extend(f.extract(gt, &gi));
                let (lo, hi) = if align {
                    (0.0, (len - 1) as f64)
                } else {
                    (-0.5, len as f64 - 0.5)
                };
                let mut v = if align {
                    f.mul(f.div(f.add(g, f.c(1.0)), f.c(2.0)), f.c((len - 1) as f64))
                } else {
                    f.div(
                        f.sub(f.mul(f.add(g, f.c(1.0)), f.c(len as f64)), f.c(1.0)),
                        f.c(2.0),
                    )
                };
                if mode == GridMode::Nearest {
                    v = f.un("math.roundeven", v);
                }
                let out = f.or(f.cmp("olt", v, f.c(lo)), f.cmp("ogt", v, f.c(hi)));
                v = match padding {
                    Padding::Zeros => v,
                    Padding::Border => {
                        let c = f.max(f.min(v, f.c((len - 1) as f64)), f.c(0.0));
                        be.select(out, c, v)
                    }
                    Padding::Reflection => be.select(out, reflect(f, v, lo, hi), v),
                };
                let (start, weights): (MValue, Vec<Option<MValue>>) = match mode {
                    GridMode::Nearest => (f.un("math.trunc", v), vec![None]),
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
                                (f.un("math.trunc", r), None)
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
                        inside = Some(inside.map_or(ins, |p| be.same("arith.andi", &[p, ins])));
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
/// (GridSample's reflection padding).
fn reflect<'c, 'b>(f: F<'c, 'b>, x: MValue<'c, 'b>, lo: f64, hi: f64) -> MValue<'c, 'b> {
    let range = hi - lo;
    if range <= 0.0 {
        return f.c(lo);
    }
    let below = f.cmp("olt", x, f.c(lo));
    let dx = be_select(f, below, f.sub(f.c(lo), x), f.sub(x, f.c(hi)));
    let flips = f.floor(f.div(dx, f.c(range)));
    let r = f.sub(dx, f.mul(flips, f.c(range)));
    let half = f.mul(f.floor(f.mul(flips, f.c(0.5))), f.c(2.0));
    let even = f.cmp("oeq", half, flips);
    let from_lo = f.add(f.c(lo), r);
    let from_hi = f.sub(f.c(hi), r);
    let reflected = be_select(
        f,
        below,
        be_select(f, even, from_lo, from_hi),
        be_select(f, even, from_hi, from_lo),
    );
    let inside = f.inside_range(x, lo, hi);
    be_select(f, inside, x, reflected)
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
    let (td, elem) = static_dims(kb, op, theta)?;
    let (yd, _) = static_dims(kb, op, y)?;
    if !sampled_float(elem) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let nd = yd.len() - 2;
    if td.len() != 3 || td[1] != nd as i64 || td[2] != nd as i64 + 1 {
        return Err(unsupported(kb, op, "theta does not match the grid's rank"));
    }
    let align = data.attrs.int("align_corners").unwrap_or(0) != 0;
    let tt = kb.tensor(theta);
    let init = kb.init(y)?;
    let e = kb.e;
    let n = yd.len();
    let spatial = yd[1..1 + nd].to_vec();
    let g = generic(
        e,
        &[],
        &[(init, identity_map(n))],
        &vec![false; n],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let batch = loop_index(be, 0);
            let row = loop_index(be, n - 1);
            let mut acc = f.extend(f.extract(tt, &[batch, row, be.index(nd as i64)]));
            for j in 0..nd {
                // Coordinate j (x, y, z) runs along spatial dim nd − 1 − j.
                let dim = nd - 1 - j;
                let len = spatial[dim];
                let p = f.of_index(loop_index(be, 1 + dim));
                let base = if !align {
                    f.sub(
                        f.div(f.add(f.mul(p, f.c(2.0)), f.c(1.0)), f.c(len as f64)),
                        f.c(1.0),
                    )
                } else if len > 1 {
                    f.add(f.c(-1.0), f.mul(p, f.c(2.0 / (len - 1) as f64)))
                } else {
                    f.c(-1.0)
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
    let (xd, _) = static_dims(kb, op, x)?;
    let (yd, _) = static_dims(kb, op, y)?;
    let xt = kb.tensor(x);
    let init = kb.init(y)?;
    let e = kb.e;
    let n = yd.len();
    let g = generic(
        e,
        &[],
        &[(init, identity_map(n))],
        &vec![false; n],
        |be, args| {
            let ty = elem_of_scalar(args[0]);
            let mut idx = vec![];
            let mut inside: Option<MValue> = None;
            for d in 0..n {
                let shift = (xd[d] - yd[d]).max(0) / 2 - (yd[d] - xd[d]).max(0) / 2;
                let o = loop_index(be, d);
                if shift == 0 && xd[d] >= yd[d] {
                    idx.push(o);
                    continue;
                }
                let p = be.same("arith.addi", &[o, be.index(shift)]);
                // Unsigned: a negative position compares above the extent.
                let ok = be.cmp("arith.cmpi", 6, p, be.index(xd[d]));
                idx.push(be.select(ok, p, be.index(0)));
                inside = Some(inside.map_or(ok, |all| be.same("arith.andi", &[all, ok])));
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
    let (xd, elem) = static_dims(kb, op, x)?;
    let (yd, _) = static_dims(kb, op, y)?;
    if !sampled_float(elem) {
        return Err(unsupported(kb, op, &format!("{elem} elements")));
    }
    let r = yd.len() - 2;
    let channels = yd[1];
    if channels == 0 || xd[1] % channels != 0 {
        return Err(unsupported(kb, op, "input channels not a multiple of C"));
    }
    let k_total = xd[1] / channels;
    let a = &data.attrs;
    let per_dim = |name: &str, default: i64| -> Vec<i64> {
        a.ints(name).map_or(vec![default; r], <[i64]>::to_vec)
    };
    let strides = per_dim("strides", 1);
    let dilations = per_dim("dilations", 1);
    let pads = a.ints("pads").map_or(vec![0; 2 * r], <[i64]>::to_vec);
    let xt = kb.tensor(x);
    let bt = kb.tensor(block);
    let bounds = super::structured::empty(kb, &[k_total], elem)?;
    let init = kb.init(y)?;
    let e = kb.e;
    let zero = e.f(elem_of(init), 0.0);
    let fill = super::structured::named(e, "linalg.fill", &[zero], init);
    let init: MValue = kb.structured(fill).result(0).expect("one result").into();
    let e = kb.e;
    let n = yd.len();
    let dk = n;
    let mut reduction = vec![false; n];
    reduction.push(true);
    let out_map = super::structured::map(n + 1, &super::structured::ds(0..n));
    let k_map = super::structured::map(n + 1, &[format!("d{dk}")]);
    let g = generic(
        e,
        &[(bounds, k_map)],
        &[(init, out_map)],
        &reduction,
        |be, args| {
            let index = Type::index(be.cx);
            let ty = elem_of_scalar(args[1]);
            let k = loop_index(be, dk);
            let zero = be.index(0);
            let blocks: Vec<MValue> = (0..r)
                .map(|i| {
                    let f = F { e: be };
                    let b = f.extract(bt, &[be.index(i as i64)]);
                    be.convert("arith.index_cast", b, index)
                })
                .collect();
            // Kernel position of k along each dim (row-major over blocks).
            let mut rest = k;
            let mut kpos = vec![zero; r];
            for i in (0..r).rev() {
                kpos[i] = be.same("arith.remui", &[rest, blocks[i]]);
                rest = be.same("arith.divui", &[rest, blocks[i]]);
            }
            let mut l = zero;
            let mut inside: Option<MValue> = None;
            for i in 0..r {
                // Blocks along dim i: (out + pads − d·(b − 1) − 1) / s + 1.
                let span = be.same(
                    "arith.muli",
                    &[
                        be.same("arith.subi", &[blocks[i], be.index(1)]),
                        be.index(dilations[i]),
                    ],
                );
                let room = be.same(
                    "arith.subi",
                    &[be.index(yd[2 + i] + pads[i] + pads[r + i] - 1), span],
                );
                let count = be.same(
                    "arith.addi",
                    &[
                        be.same("arith.divsi", &[room, be.index(strides[i])]),
                        be.index(1),
                    ],
                );
                let o = loop_index(be, 2 + i);
                let kd = be.same("arith.muli", &[kpos[i], be.index(dilations[i])]);
                let num = be.same(
                    "arith.subi",
                    &[be.same("arith.addi", &[o, be.index(pads[i])]), kd],
                );
                let s = be.index(strides[i]);
                let q = be.same("arith.divsi", &[num, s]);
                let exact = be.cmp("arith.cmpi", 0, be.same("arith.remsi", &[num, s]), zero);
                // Unsigned: a negative block compares above the count.
                let within = be.cmp("arith.cmpi", 6, q, count);
                let ok = be.same("arith.andi", &[exact, within]);
                let q = be.select(ok, q, zero);
                l = be.same("arith.addi", &[be.same("arith.muli", &[l, count]), q]);
                inside = Some(inside.map_or(ok, |all| be.same("arith.andi", &[all, ok])));
            }
            let ok = inside.expect("a spatial dim");
            // The block number stays inside x's last dim.
            let ok = be.same(
                "arith.andi",
                &[ok, be.cmp("arith.cmpi", 6, l, be.index(xd[2]))],
            );
            let l = be.select(ok, l, zero);
            let c = be.same(
                "arith.addi",
                &[
                    be.same("arith.muli", &[loop_index(be, 1), be.index(k_total)]),
                    k,
                ],
            );
            let f = F { e: be };
            let v = f.extract(xt, &[loop_index(be, 0), c, l]);
            let v = be.select(ok, v, be.f(ty, 0.0));
            vec![be.same("arith.addf", &[args[1], v])]
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
    let (xd, elem) = static_dims(kb, op, x)?;
    let (yd, _) = static_dims(kb, op, y)?;
    if !sampled_float(elem) || !sampled_float(static_dims(kb, op, rois)?.1) {
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
    let (h, w) = (xd[2], xd[3]);
    let (ph_n, pw_n) = (yd[2], yd[3]);
    let xt = kb.tensor(x);
    let rt = kb.tensor(rois);
    let bt = kb.tensor(batch);
    let init = kb.init(y)?;
    let e = kb.e;
    let g = generic(
        e,
        &[],
        &[(init, identity_map(4))],
        &[false; 4],
        |be, args| {
            let f = F { e: be };
            let out_ty = elem_of_scalar(args[0]);
            let r = loop_index(be, 0);
            let c = loop_index(be, 1);
            let b = f.of_int(f.extract(bt, &[r]));
            let b = f.clamp_index(b, xd[0]);
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
            let base_h = f.add(sh, f.mul(f.of_index(loop_index(be, 2)), bin_h));
            let base_w = f.add(sw, f.mul(f.of_index(loop_index(be, 3)), bin_w));
            // Per axis: the sample's (low, high) clamped indices and weights.
            let axis = |start, bin, i: i64, len: i64| {
                let step = f.div(f.mul(f.c(i as f64 + 0.5), bin), f.c(ratio as f64));
                let p = f.add(start, step);
                let out = f.or(f.cmp("olt", p, f.c(-1.0)), f.cmp("ogt", p, f.c(len as f64)));
                let p = f.max(p, f.c(0.0));
                let low = f.floor(p);
                let at_end = f.cmp("oge", low, f.c((len - 1) as f64));
                let last = f.c((len - 1) as f64);
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
                let (yl, yh, hy, ly, out_y) = axis(base_h, bin_h, iy, h);
                for ix in 0..ratio {
                    let (xl, xh, hx, lx, out_x) = axis(base_w, bin_w, ix, w);
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
