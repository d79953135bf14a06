//! Signal ops: the windows HannWindow, HammingWindow and BlackmanWindow.
//!
//! | op | computes | variants |
//! |---|---|---|
//! | HannWindow | `y[n] = 0.5 - 0.5·cos(2πn/N')` | `periodic` (N' = N, else N - 1), `output_datatype` f32/f64 |
//! | HammingWindow | `y[n] = α - (1-α)·cos(2πn/N')`, α = 25/46 | as Hann |
//! | BlackmanWindow | `y[n] = 0.42 - 0.5·cos(2πn/N') + 0.08·cos(4πn/N')` | as Hann |
//!
//! The window's length N is the value of the `size` input: a constant, or
//! a graph input (int32/int64 scalar) read at run time, whose value the
//! model's entry checks against the output's length
//! (`symbols::Check::Value`), so that a size that does not match the
//! output fails with `OMLC_ERR_SHAPE` instead of giving a window of
//! another length. Each element is one generic over the output,
//! computed in f64 and rounded to the output type.
//!
//! DFT and STFT reach this lowering only when the dialect's expansion into
//! a matrix product (`decompose::spectral`) cannot be built at compile
//! time: symbolic sizes, a length or step read at run time, a matrix too
//! large to store. Each output element is then its own sum, with the
//! twiddle factors computed in the loop (f64), as the definition reads:
//!
//! ```text
//! DFT    Y[k] = s · Σ_{j < min(n_in, n)} x[j] · (cos θ ∓ i·sin θ)    θ = 2π·(j·k mod n)/n
//!        irfft: y[t] = 1/n · Σ_{j ≤ n/2} w_j · (Re x[j]·cos θ − Im x[j]·sin θ)
//! STFT   Y[b, f, k] = Σ_{j < L} w[j] · x[b, f·step + j] · (cos θ − i·sin θ)   θ = 2π·(j·k mod L)/L
//! ```
//!
//! The axis, length and step may be graph inputs: the model's entry checks
//! that the output dims follow from them and the input's dims
//! (`symbols::Check::Dft`, `Check::Stft`, [`dft_holds`], [`stft_holds`]),
//! so every element read is in bounds.

use std::f64::consts::PI;

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::schema::SignalOp;
use onnx_mlc_dialect::{Dim, ElemType, Model, OpKind, Value};

use super::common::{const_ints, equal, fused_root, position};
use crate::builder::{elem_of, generic, identity_map, CmpiPredicate, Emitter};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::symbols::{graph_input, sized_dims, Check, Scalar, Symbolic};
use crate::types::value_tensor;

/// Lowers a window function.
pub(crate) fn lower(kb: &mut KernelBuilder, op: OpId, which: SignalOp) -> Result<()> {
    use SignalOp::*;
    match which {
        BlackmanWindow | HammingWindow | HannWindow => lower_window(kb, op),
        DFT => lower_dft(kb, op),
        STFT => lower_stft(kb, op),
        MelWeightMatrix => Err(kb.not_lowered(op)),
    }
}

/// How a signal op takes symbolic sizes: DFT and STFT with their output
/// dims checked against the input's ([`dft_checks`], [`stft_checks`]);
/// the windows are static, but a window's size read from a graph input
/// ([`runtime_size`]) is checked by the model's entry to be the output's
/// length, which the kernel assumes.
pub(crate) fn checks(model: &Model, op: OpId, which: SignalOp) -> Result<Symbolic> {
    use SignalOp::*;
    let data = model.ir.op(op);
    Ok(match which {
        DFT => Symbolic::of(dft_checks(model, data)),
        STFT => Symbolic::of(stft_checks(model, data)),
        MelWeightMatrix => Symbolic::not_yet(),
        BlackmanWindow | HammingWindow | HannWindow => {
            let mut symbolic = Symbolic::not_yet();
            if let Some(size) = runtime_size(model, op) {
                let y = data.results[0].expect("a window has an output");
                if let Some([n]) = value_tensor(model, y)?.dims() {
                    symbolic.checks.push(Check::Value {
                        input: graph_input(model, size).expect("runtime_size is a graph input"),
                        elem: value_tensor(model, size)?.elem,
                        entry: None,
                        expected: n.clone(),
                    });
                }
            }
            symbolic
        }
    })
}

/// The `size` input of window op `op` when it is read at run time: a
/// graph input (checked by the model's entry, `symbols::Check::Value`).
fn runtime_size(model: &Model, op: OpId) -> Option<Value> {
    let data = model.ir.op(op);
    let windowed = matches!(
        data.kind,
        OpKind::HannWindow | OpKind::HammingWindow | OpKind::BlackmanWindow
    );
    let size = data.inputs.first().copied().flatten()?;
    (windowed && graph_input(model, size).is_some()).then_some(size)
}

/// Lowers HannWindow, HammingWindow or BlackmanWindow.
fn lower_window(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let size = data.inputs[0].expect("size");
    let y = data.results[0].expect("output");
    let (yd, elem) = kb.shape(y)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) || yd.len() != 1 {
        return Err(kb.unsupported(op, &format!("{elem} windows")));
    }
    let e = kb.e;
    let f64t = Type::float64(e.cx);
    let n = match const_ints(kb.model, size) {
        Some(v) => {
            if Some(&v[0]) != yd.first() {
                return Err(kb.unsupported(op, "a size that is not the output's length"));
            }
            e.f(f64t, v[0] as f64)
        }
        None if runtime_size(kb.model, op).is_some() => {
            let s = kb.tensor(size);
            let s = e.extract(s, &[]);
            e.sitofp(s, f64t)
        }
        None => return Err(kb.unsupported(op, "a size computed by the model")),
    };
    let periodic = data.attrs.int("periodic").unwrap_or(1) != 0;
    let denominator = if periodic {
        n
    } else {
        e.subf(n, e.f(f64t, 1.0))
    };
    let kind = data.kind;
    let init = kb.init(y)?;
    let out = elem_of(init);
    let g = generic(
        e,
        &[],
        &[(init, identity_map(kb.e.cx, 1))],
        &[false],
        |be, _| {
            let i = be.index_cast(be.loop_index(0), be.int_type(64));
            let i = be.sitofp(i, f64t);
            // cos(k·2πn/N')
            let cosine = |k: f64| {
                let t = be.mulf(i, be.f(f64t, 2.0 * PI * k));
                be.cos(be.divf(t, denominator))
            };
            let terms: &[(f64, f64)] = match kind {
                OpKind::HannWindow => &[(1.0, -0.5)],
                OpKind::HammingWindow => &[(1.0, -(1.0 - 25.0 / 46.0))],
                _ => &[(1.0, -0.5), (2.0, 0.08)],
            };
            let base = match kind {
                OpKind::HannWindow => 0.5,
                OpKind::HammingWindow => 25.0 / 46.0,
                _ => 0.42,
            };
            let w = terms.iter().fold(be.f(f64t, base), |w, &(k, c)| {
                be.addf(w, be.mulf(cosine(k), be.f(f64t, c)))
            });
            vec![if elem == ElemType::F64 {
                w
            } else {
                be.truncf(w, out)
            }]
        },
    );
    fused_root(kb, g, y, &yd);
    Ok(())
}

/// Which DFT is computed: the inverse transform, a one-sided spectrum (or,
/// inverse, the real signal of one: irfft).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Transform {
    pub inverse: bool,
    pub onesided: bool,
}

impl Transform {
    /// DFT's transform, from its attributes.
    fn of(data: &OpData) -> Transform {
        Transform {
            inverse: data.attrs.int("inverse").unwrap_or(0) != 0,
            onesided: data.attrs.int("onesided").unwrap_or(0) != 0,
        }
    }

    /// The real signal of a one-sided spectrum: 1 value per output element.
    fn irfft(self) -> bool {
        self.inverse && self.onesided
    }

    /// The transform's length when no `dft_length` is given, from the
    /// input's length `len` along the axis.
    fn default_length<'c, 'a>(self, e: &Emitter<'c, 'a>, len: MValue<'c, 'a>) -> MValue<'c, 'a> {
        if self.irfft() {
            e.muli(e.subi(len, e.index(1)), e.index(2))
        } else {
            len
        }
    }

    /// The output's length along the axis for a transform of length `n`.
    fn out_len<'c, 'a>(self, e: &Emitter<'c, 'a>, n: MValue<'c, 'a>) -> MValue<'c, 'a> {
        if self.onesided && !self.inverse {
            e.addi(e.divsi(n, e.index(2)), e.index(1))
        } else {
            n
        }
    }
}

/// The entry's checks of DFT: its output dims follow from the input's,
/// the axis and the length ([`Check::Dft`]); refused when the axis or the
/// length is computed by the model (the entry cannot read it).
fn dft_checks(model: &Model, data: &OpData) -> std::result::Result<Vec<Check>, &'static str> {
    let x = sized_dims(model, data.inputs[0])?;
    let y = sized_dims(model, data.results[0])?;
    if x.len() != y.len() || x.len() < 2 {
        return Err("an output of another rank than the input");
    }
    let axis = match dft_axis(data) {
        Ok(a) => Scalar::Size(Dim::Known(a)),
        Err(v) => checked_scalar(model, v)?,
    };
    let length = operand(data, 1)
        .map(|v| checked_scalar(model, v))
        .transpose()?;
    let t = Transform::of(data);
    Ok(vec![Check::Dft {
        axis,
        length,
        inverse: t.inverse,
        onesided: t.onesided,
        x,
        y,
    }])
}

/// The entry's checks of STFT: its output dims follow from the signal's,
/// the step and the frame length ([`Check::Stft`]), and a frame length
/// given beside a window is the window's length.
fn stft_checks(model: &Model, data: &OpData) -> std::result::Result<Vec<Check>, &'static str> {
    let x = sized_dims(model, data.inputs[0])?;
    let y = sized_dims(model, data.results[0])?;
    if x.len() != 3 || y.len() != 4 {
        return Err("a signal or an output of another rank than STFT's");
    }
    let step = checked_scalar(model, operand(data, 1).ok_or("no frame step")?)?;
    let window = operand(data, 2)
        .map(|w| sized_dims(model, Some(w)))
        .transpose()?;
    let given = operand(data, 3)
        .map(|l| checked_scalar(model, l))
        .transpose()?;
    let mut out = vec![];
    let length = match (window.as_deref(), given) {
        (Some([w]), given) => {
            match given {
                Some(Scalar::Size(l)) => equal(&mut out, &l, w),
                Some(Scalar::Input { input, elem }) => out.push(Check::Value {
                    input,
                    elem,
                    entry: None,
                    expected: w.clone(),
                }),
                None => {}
            }
            Scalar::Size(w.clone())
        }
        (Some(_), _) => return Err("a window of another rank than 1"),
        (None, Some(l)) => l,
        (None, None) => Scalar::Size(x[1].clone()),
    };
    out.push(Check::Stft {
        step,
        length,
        onesided: data.attrs.int("onesided").unwrap_or(1) != 0,
        x,
        y,
    });
    Ok(out)
}

/// Operand `i` of an op, when given.
fn operand(data: &OpData, i: usize) -> Option<Value> {
    data.inputs.get(i).copied().flatten()
}

/// DFT's axis: the attribute (DFT-17, default 1), or the `axis` input's
/// constant value (DFT-20, default -2), else the input read at run time.
fn dft_axis(data: &OpData) -> std::result::Result<i64, Value> {
    if data.version < 20 {
        return Ok(data.attrs.int("axis").unwrap_or(1));
    }
    match operand(data, 2) {
        None => Ok(-2),
        Some(v) => Err(v),
    }
}

/// Scalar operand `v` as an entry check reads it: a constant, or a graph
/// input of integers read at run time.
fn checked_scalar(model: &Model, v: Value) -> std::result::Result<Scalar, &'static str> {
    if let Some(&[c]) = const_ints(model, v).as_deref() {
        return Ok(Scalar::Size(Dim::Known(c)));
    }
    let input = graph_input(model, v).ok_or("an axis, length or step computed by the model")?;
    let elem = value_tensor(model, v)
        .map_err(|_| "an axis, length or step that is no tensor")?
        .elem;
    if !matches!(elem, ElemType::I32 | ElemType::I64) {
        return Err("an axis, length or step that is not an integer");
    }
    Ok(Scalar::Input { input, elem })
}

/// Scalar operand `v`'s value as an index: its constant, or its single
/// entry read in the kernel.
fn scalar_value<'c, 'a>(kb: &KernelBuilder<'c, 'a>, v: Value) -> Result<MValue<'c, 'a>> {
    let e = kb.e;
    if let Some(&[c]) = const_ints(kb.model, v).as_deref() {
        return Ok(e.index(c));
    }
    let rank = kb.shape(v)?.0.len();
    let entry = e.extract(kb.tensor(v), &vec![e.index(0); rank]);
    Ok(e.index_cast(entry, Type::index(e.cx)))
}

/// `sizes[axis]` for a run-time `axis` among the first `sizes.len()` dims
/// (the first size when `axis` is none of them).
fn pick<'c, 'a>(
    e: &Emitter<'c, 'a>,
    axis: MValue<'c, 'a>,
    sizes: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    sizes
        .iter()
        .enumerate()
        .skip(1)
        .fold(sizes[0], |acc, (d, &s)| {
            let here = e.cmpi(CmpiPredicate::Eq, axis, e.index(d as i64));
            e.select(here, s, acc)
        })
}

/// `x[at]` widened to f64.
fn read_f64<'c, 'a>(
    e: &Emitter<'c, 'a>,
    x: MValue<'c, 'a>,
    at: &[MValue<'c, 'a>],
    elem: ElemType,
) -> MValue<'c, 'a> {
    let v = e.extract(x, at);
    if elem == ElemType::F64 {
        v
    } else {
        e.extf(v, Type::float64(e.cx))
    }
}

/// `(cos θ, sin θ)` for `θ = 2π·(j·k mod n)/n`, the product reduced in
/// integers so that θ stays accurate for long transforms.
fn twiddle<'c, 'a>(
    e: &Emitter<'c, 'a>,
    j: MValue<'c, 'a>,
    k: MValue<'c, 'a>,
    n: MValue<'c, 'a>,
) -> (MValue<'c, 'a>, MValue<'c, 'a>) {
    let f64t = Type::float64(e.cx);
    let to_f64 = |v| e.sitofp(e.index_cast(v, e.int_type(64)), f64t);
    let jk = e.remui(e.muli(j, k), n);
    let theta = e.divf(e.mulf(to_f64(jk), e.f(f64t, 2.0 * PI)), to_f64(n));
    (e.cos(theta), e.sin(theta))
}

/// Part `p` (0 real, 1 imaginary) of `(re + i·im)·(cos θ + sign·i·sin θ)`.
fn rotated<'c, 'a>(
    e: &Emitter<'c, 'a>,
    (re, im): (MValue<'c, 'a>, MValue<'c, 'a>),
    (cos, sin): (MValue<'c, 'a>, MValue<'c, 'a>),
    sign: f64,
    p: MValue<'c, 'a>,
) -> MValue<'c, 'a> {
    let f64t = Type::float64(e.cx);
    let sign = e.f(f64t, sign);
    let real = e.subf(e.mulf(re, cos), e.mulf(sign, e.mulf(im, sin)));
    let imaginary = e.addf(e.mulf(im, cos), e.mulf(sign, e.mulf(re, sin)));
    e.select(e.cmpi(CmpiPredicate::Eq, p, e.index(0)), real, imaginary)
}

/// The real and imaginary parts of signal sample `at` (its last index
/// replaced): a real signal (last dim 1) has no imaginary part.
fn sample<'c, 'a>(
    e: &Emitter<'c, 'a>,
    x: MValue<'c, 'a>,
    at: &[MValue<'c, 'a>],
    parts: MValue<'c, 'a>,
    elem: ElemType,
) -> (MValue<'c, 'a>, MValue<'c, 'a>) {
    let last = at.len() - 1;
    let mut at = at.to_vec();
    at[last] = e.index(0);
    let re = read_f64(e, x, &at, elem);
    at[last] = e.subi(e.minui(parts, e.index(2)), e.index(1));
    let im = read_f64(e, x, &at, elem);
    let complex = e.cmpi(CmpiPredicate::Eq, parts, e.index(2));
    (re, e.select(complex, im, e.f(Type::float64(e.cx), 0.0)))
}

/// `v` (f64) rounded to the output's type.
fn narrowed<'c, 'a>(
    e: &Emitter<'c, 'a>,
    v: MValue<'c, 'a>,
    elem: ElemType,
    out: Type<'c>,
) -> MValue<'c, 'a> {
    if elem == ElemType::F64 {
        v
    } else {
        e.truncf(v, out)
    }
}

/// The signal (operand 0) and output of DFT or STFT `op`: their values,
/// dims and element type, refused when the ranks are not `ranks` (none:
/// equal, at least 2) or the type is not a float the ops take.
struct Spectral {
    data: OpData,
    x: Value,
    y: Value,
    xd: Vec<i64>,
    yd: Vec<i64>,
    elem: ElemType,
}

impl Spectral {
    fn of(kb: &KernelBuilder, op: OpId, ranks: Option<(usize, usize)>) -> Result<Spectral> {
        let data = kb.model.ir.op(op).clone();
        let (x, y) = (
            data.inputs[0].expect("signal"),
            data.results[0].expect("output"),
        );
        let ((xd, elem), (yd, _)) = (kb.shape(x)?, kb.shape(y)?);
        if !matches!(
            elem,
            ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64
        ) {
            return Err(kb.unsupported(op, &format!("{elem} signals")));
        }
        let fits = match ranks {
            Some(r) => (xd.len(), yd.len()) == r,
            None => xd.len() == yd.len() && xd.len() >= 2,
        };
        if !fits {
            return Err(kb.unsupported(op, "a signal or an output of another rank"));
        }
        Ok(Spectral {
            data,
            x,
            y,
            xd,
            yd,
            elem,
        })
    }
}

/// Lowers DFT as one sum per output element (module docs).
fn lower_dft(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let Spectral {
        data,
        x,
        y,
        xd,
        yd,
        elem,
    } = Spectral::of(kb, op, None)?;
    let rank = xd.len();
    let t = Transform::of(&data);
    let axis = match dft_axis(&data) {
        Ok(a) => kb.e.index(a),
        Err(v) => scalar_value(kb, v)?,
    };
    let length = operand(&data, 1).map(|v| scalar_value(kb, v)).transpose()?;
    let (xt, init) = (kb.tensor(x), kb.init(y)?);
    let out_type = elem_of(init);
    let e = kb.e;
    let xs: Vec<MValue> = e.sizes_of(xt, &xd).iter().map(|s| s.value(&e)).collect();
    let ys: Vec<MValue> = e.sizes_of(init, &yd).iter().map(|s| s.value(&e)).collect();
    let (zero, one) = (e.index(0), e.index(1));
    let negative = e.cmpi(CmpiPredicate::Slt, axis, zero);
    let axis = e.select(negative, e.addi(axis, e.index(rank as i64)), axis);
    let n_in = pick(&e, axis, &xs[..rank - 1]);
    let n = length.unwrap_or_else(|| t.default_length(&e, n_in));
    let mut count = e.minsi(n_in, n);
    if t.irfft() {
        count = e.minsi(count, e.addi(e.divsi(n, e.index(2)), one));
    }
    let total = ys.iter().fold(one, |acc, &s| e.muli(acc, s));
    let f64t = Type::float64(e.cx);
    let sign = if t.inverse { 1.0 } else { -1.0 };
    let out = e.for_loop(zero, total, &[init], |le, r, c| {
        let at = position(&le, r, &ys);
        let (k, p) = (pick(&le, axis, &at[..rank - 1]), at[rank - 1]);
        let sum = le.for_loop(zero, count, &[le.f(f64t, 0.0)], |be, j, acc| {
            let mut from = at.clone();
            for (d, place) in from.iter_mut().enumerate().take(rank - 1) {
                let here = be.cmpi(CmpiPredicate::Eq, axis, be.index(d as i64));
                *place = be.select(here, j, *place);
            }
            let x = sample(&be, xt, &from, xs[rank - 1], elem);
            let w = twiddle(&be, j, k, n);
            let term = if t.irfft() {
                // The Hermitian half counts twice, but for bins 0 and n/2.
                let edge = be.ori(
                    be.cmpi(CmpiPredicate::Eq, j, zero),
                    be.cmpi(CmpiPredicate::Eq, be.muli(j, be.index(2)), n),
                );
                let weight = be.select(edge, be.f(f64t, 1.0), be.f(f64t, 2.0));
                be.mulf(weight, rotated(&be, x, w, 1.0, zero))
            } else {
                rotated(&be, x, w, sign, p)
            };
            vec![be.addf(acc[0], term)]
        })[0];
        let v = if t.inverse {
            le.divf(sum, le.sitofp(le.index_cast(n, le.int_type(64)), f64t))
        } else {
            sum
        };
        vec![le.insert(narrowed(&le, v, elem, out_type), c[0], &at)]
    });
    kb.define(y, out[0]);
    Ok(())
}

/// Lowers STFT as one sum per output element (module docs).
fn lower_stft(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let Spectral {
        data,
        x,
        y,
        xd,
        yd,
        elem,
    } = Spectral::of(kb, op, Some((3, 4)))?;
    let step = scalar_value(kb, operand(&data, 1).expect("a frame step"))?;
    let window = operand(&data, 2).map(|w| (kb.tensor(w), kb.shape(w)));
    let given = operand(&data, 3).map(|l| scalar_value(kb, l)).transpose()?;
    let (xt, init) = (kb.tensor(x), kb.init(y)?);
    let out_type = elem_of(init);
    let e = kb.e;
    let xs: Vec<MValue> = e.sizes_of(xt, &xd).iter().map(|s| s.value(&e)).collect();
    let ys: Vec<MValue> = e.sizes_of(init, &yd).iter().map(|s| s.value(&e)).collect();
    let window = match window {
        Some((w, shape)) => Some((w, shape?)),
        None => None,
    };
    let length = match (&window, given) {
        (Some((w, (wd, _))), _) => e.sizes_of(*w, wd)[0].value(&e),
        (None, Some(l)) => l,
        (None, None) => xs[1],
    };
    let (zero, one) = (e.index(0), e.index(1));
    let total = ys.iter().fold(one, |acc, &s| e.muli(acc, s));
    let f64t = Type::float64(e.cx);
    let out = e.for_loop(zero, total, &[init], |le, r, c| {
        let at = position(&le, r, &ys);
        let (b, f, k, p) = (at[0], at[1], at[2], at[3]);
        let start = le.muli(f, step);
        let sum = le.for_loop(zero, length, &[le.f(f64t, 0.0)], |be, j, acc| {
            let x = sample(&be, xt, &[b, be.addi(start, j), zero], xs[2], elem);
            let term = rotated(&be, x, twiddle(&be, j, k, length), -1.0, p);
            let term = match &window {
                Some((w, (_, welem))) => be.mulf(read_f64(&be, *w, &[j], *welem), term),
                None => term,
            };
            vec![be.addf(acc[0], term)]
        })[0];
        vec![le.insert(narrowed(&le, sum, elem, out_type), c[0], &at)]
    });
    kb.define(y, out[0]);
    Ok(())
}

/// Emits `i1` true when DFT's output dims `y` follow from its input dims
/// `x`, its run-time `axis` and `length` (else the input's along the axis)
/// for transform `t` ([`Check::Dft`]).
pub(crate) fn dft_holds<'c, 'a>(
    e: &Emitter<'c, 'a>,
    axis: MValue<'c, 'a>,
    length: Option<MValue<'c, 'a>>,
    t: Transform,
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let r = x.len();
    let last = r - 1;
    let eq = |a, b| e.cmpi(CmpiPredicate::Eq, a, b);
    let negative = e.cmpi(CmpiPredicate::Slt, axis, e.index(0));
    let axis = e.select(negative, e.addi(axis, e.index(r as i64)), axis);
    let mut ok = e.andi(
        e.cmpi(CmpiPredicate::Sge, axis, e.index(0)),
        e.cmpi(CmpiPredicate::Slt, axis, e.index(last as i64)),
    );
    for d in 0..last {
        ok = e.andi(ok, e.ori(eq(axis, e.index(d as i64)), eq(x[d], y[d])));
    }
    let n = length.unwrap_or_else(|| t.default_length(e, pick(e, axis, &x[..last])));
    ok = e.andi(ok, e.cmpi(CmpiPredicate::Sge, n, e.index(1)));
    ok = e.andi(ok, eq(pick(e, axis, &y[..last]), t.out_len(e, n)));
    let parts = e.index(if t.irfft() { 1 } else { 2 });
    ok = e.andi(ok, eq(y[last], parts));
    let real_or_complex = e.ori(eq(x[last], e.index(1)), eq(x[last], e.index(2)));
    e.andi(ok, real_or_complex)
}

/// Emits `i1` true when STFT's output dims `y` (`[batch, frames, bins, 2]`)
/// follow from its signal's dims `x` (`[batch, samples, 1 or 2]`), the
/// run-time `step` and frame `length` ([`Check::Stft`]): every frame
/// lies inside the signal.
pub(crate) fn stft_holds<'c, 'a>(
    e: &Emitter<'c, 'a>,
    step: MValue<'c, 'a>,
    length: MValue<'c, 'a>,
    onesided: bool,
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let eq = |a, b| e.cmpi(CmpiPredicate::Eq, a, b);
    let (one, two) = (e.index(1), e.index(2));
    let (samples, parts) = (x[1], x[2]);
    let mut ok = eq(x[0], y[0]);
    ok = e.andi(ok, e.ori(eq(parts, one), eq(parts, two)));
    ok = e.andi(ok, eq(y[3], two));
    ok = e.andi(ok, e.cmpi(CmpiPredicate::Sge, step, one));
    ok = e.andi(ok, e.cmpi(CmpiPredicate::Sge, length, one));
    ok = e.andi(ok, e.cmpi(CmpiPredicate::Sle, length, samples));
    let frames = e.divsi(e.subi(samples, length), e.maxsi(step, one));
    ok = e.andi(ok, eq(y[1], e.addi(frames, one)));
    let bins = if onesided {
        e.addi(e.divsi(length, two), one)
    } else {
        length
    };
    e.andi(ok, eq(y[2], bins))
}
