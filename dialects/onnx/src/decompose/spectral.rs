//! The signal ops DFT (17, 20), STFT (17) and MelWeightMatrix (17) as
//! dense matrix products.
//!
//! A DFT of length `n` along one axis is the product of the signal with a
//! matrix of twiddle factors, built here at compile time in f64 and rounded
//! to the element type. The signal's last dim holds real (1) or complex (2)
//! values; both it and the transformed axis are moved last and flattened,
//! so one `MatMul` with a `[n_in·C, K·D]` matrix computes every output:
//!
//! ```text
//! θ(j, k)   = 2π · (j·k mod n) / n
//! forward   Y[k] = Σ_j x[j] · (cos θ − i·sin θ)            K = n (⌊n/2⌋ + 1 one-sided)
//! inverse   Y[k] = 1/n · Σ_j x[j] · (cos θ + i·sin θ)      K = n
//! irfft     y[t] = 1/n · Σ_{j ≤ n/2} w_j (Re x[j] cos θ − Im x[j] sin θ)
//!           (w_j = 1 for j = 0 and j = n/2, else 2: the Hermitian half)
//! ```
//!
//! Rows `j ≥ n` are zero (`dft_length` below the input length truncates,
//! above it zero-pads, as numpy's `fft(x, n)` does). DFT-20 takes its axis
//! as an input, which must be a constant here, as `dft_length` must.
//!
//! STFT slices `frames` windows of `frame_length` samples every
//! `frame_step` with one `Gather` (indices `f·step + k`, computed at run
//! time when the step is), multiplies by the window and takes a one-sided
//! or full DFT of each. The frame length comes from the window's length,
//! the known `frame_length`, or else the declared result shape (bins and
//! frames) when exactly one length fits it.
//!
//! MelWeightMatrix is computed from its run-time scalars (the sizes come
//! from the declared result shape) with the reference's formulas: the mel
//! scale's `num_mel_bins + 2` band edges (spaced by the mel span over
//! `num_mel_bins + 2`, as the reference divides), mapped to DFT bins with
//! `⌊(dft_length + 1) · hz / sample_rate⌋`, and the triangular filters
//! between each band's edges, as comparisons and `Where`s over a
//! `[bins, num_mel_bins]` grid.
//!
//! Not handled (the op stays, and the lowering sums each output element
//! directly: `compiler/lowering/src/ops/signal.rs`): non-static signal
//! shapes, an unknown `dft_length` or axis, an STFT frame length no shape settles,
//! sizes above [`MAX_MATRIX`] elements, element types other than
//! f16/bf16/f32/f64.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The largest twiddle matrix built (elements): 4 M, 16 MB of f32.
const MAX_MATRIX: i64 = 1 << 22;

/// Which transform a twiddle matrix computes.
#[derive(Clone, Copy)]
struct Transform {
    /// The DFT length `n`.
    n: i64,
    inverse: bool,
    onesided: bool,
}

impl Transform {
    /// The output length along the transformed axis.
    fn out_len(self) -> i64 {
        match (self.inverse, self.onesided) {
            (false, true) => self.n / 2 + 1,
            _ => self.n,
        }
    }

    /// The output's last dim: 1 for the real irfft, else 2.
    fn out_parts(self) -> i64 {
        if self.inverse && self.onesided {
            1
        } else {
            2
        }
    }

    /// The `[n_in·parts, K·D]` twiddle matrix for an input of `n_in`
    /// samples of `parts` (1 or 2) values each, row-major.
    fn matrix(self, n_in: i64, parts: i64) -> Vec<f64> {
        let (n, k_len, d_len) = (self.n, self.out_len(), self.out_parts());
        let mut w = vec![0.0; (n_in * parts * k_len * d_len) as usize];
        let scale = if self.inverse { 1.0 / n as f64 } else { 1.0 };
        let sign = if self.inverse { -1.0 } else { 1.0 };
        for j in 0..n_in.min(n) {
            for k in 0..k_len {
                let theta = 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                let (sin, cos) = theta.sin_cos();
                // Entries of row (j, c), column (k, d).
                let entries: [[f64; 2]; 2] = if d_len == 1 {
                    if 2 * j > n {
                        continue;
                    }
                    let weight = if j == 0 || 2 * j == n { 1.0 } else { 2.0 };
                    [[weight * cos, 0.0], [-weight * sin, 0.0]]
                } else {
                    [[cos, -sign * sin], [sign * sin, cos]]
                };
                for c in 0..parts {
                    for d in 0..d_len {
                        let row = j * parts + c;
                        let col = k * d_len + d;
                        w[(row * k_len * d_len + col) as usize] =
                            scale * entries[c as usize][d as usize];
                    }
                }
            }
        }
        w
    }
}

/// Expands DFT as described in the module docs.
pub(super) fn dft(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let dims = b.dims(x)?;
    let rank = dims.len() as i64;
    let inverse = b.int_attr("inverse")? != 0;
    let onesided = b.int_attr("onesided")? != 0;
    let length = match b.input(1) {
        Some(l) => Some(*b.known(l)?.first()?),
        None => None,
    };
    let transform = |axis: i64| {
        let len = dims[axis as usize];
        let n = match (length, inverse && onesided) {
            (Some(n), _) => n,
            (None, true) => 2 * (len - 1),
            (None, false) => len,
        };
        Transform {
            n,
            inverse,
            onesided,
        }
    };
    // An axis read at run time stays: the lowering checks it at the
    // model's entry and transforms along it.
    let axis = if b.target().version < 20 {
        b.int_attr("axis")?
    } else {
        match b.input(2) {
            Some(a) => *b.known(a)?.first()?,
            None => -2,
        }
    };
    if axis < -rank || axis >= rank - 1 || axis == -1 {
        return None;
    }
    let axis = axis.rem_euclid(rank);
    Some(vec![Some(along(b, x, axis, transform(axis))?)])
}

/// The transform `t` of `x` along `axis` (non-negative, not the last).
fn along(b: &mut Builder, x: Value, axis: i64, t: Transform) -> Option<Value> {
    let elem = b.elem(x)?;
    if !matches!(
        elem,
        ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64
    ) || t.n <= 0
    {
        return None;
    }
    let dims = b.dims(x)?;
    let rank = dims.len();
    let (n_in, parts) = (dims[axis as usize], dims[rank - 1]);
    let (k_len, d_len) = (t.out_len(), t.out_parts());
    if n_in * parts * k_len * d_len > MAX_MATRIX || !(1..=2).contains(&parts) {
        return None;
    }
    // [rest…, axis, parts] → [rest…, axis·parts] @ W → [rest…, K, D].
    let mut perm: Vec<i64> = (0..rank as i64 - 1).filter(|&a| a != axis).collect();
    perm.extend([axis, rank as i64 - 1]);
    let moved = b.transpose(x, &perm)?;
    let rest: Vec<i64> = perm[..rank - 2].iter().map(|&a| dims[a as usize]).collect();
    let flat = b.reshape(moved, &[rest.clone(), vec![n_in * parts]].concat())?;
    let w = b.floats(
        elem,
        vec![n_in * parts, k_len * d_len],
        &t.matrix(n_in, parts),
    )?;
    let product = b.binary(MatMul, flat, w)?;
    let split = b.reshape(product, &[rest, vec![k_len, d_len]].concat())?;
    let mut back = vec![0; rank];
    for (i, &p) in perm.iter().enumerate() {
        back[p as usize] = i as i64;
    }
    b.transpose(split, &back)
}

/// Expands STFT as described in the module docs.
pub(super) fn stft(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let signal = b.input(0)?;
    let [_, samples, _] = b.dims(signal)?[..] else {
        return None;
    };
    let onesided = b.int_attr("onesided")? != 0;
    let step_value = b.input(1)?;
    let step = b.known(step_value).and_then(|v| v.first().copied());
    let window = b.input(2);
    let declared = b
        .target()
        .results
        .first()
        .copied()
        .flatten()
        .and_then(|r| b.dims(r));
    let frame_length = match (window, b.input(3)) {
        (Some(w), _) => *b.dims(w)?.first()?,
        (None, Some(l)) => match b.known(l).and_then(|v| v.first().copied()) {
            Some(v) => v,
            None => fitting_length(samples, step, onesided, declared.as_deref()?)?,
        },
        (None, None) => samples,
    };
    let frames = match (step, &declared) {
        (Some(s), _) if s > 0 => (samples - frame_length).div_euclid(s) + 1,
        (_, Some(d)) => d[1],
        _ => return None,
    };
    if frame_length <= 0 || frame_length > samples || frames <= 0 {
        return None;
    }
    // Sample indices [frames, frame_length]: f·step + k.
    let offsets: Vec<i64> = (0..frame_length).collect();
    let indices = match step {
        Some(s) => {
            let all: Vec<i64> = (0..frames)
                .flat_map(|f| offsets.iter().map(move |k| f * s + k))
                .collect();
            b.constant(TensorData::from_vec(vec![frames, frame_length], &all).ok()?)?
        }
        None => {
            let starts: Vec<i64> = (0..frames).collect();
            let starts = b.constant(TensorData::from_vec(vec![frames, 1], &starts).ok()?)?;
            let step_value = b.cast(step_value, ElemType::I64)?;
            let starts = b.binary(Mul, starts, step_value)?;
            let offsets =
                b.constant(TensorData::from_vec(vec![1, frame_length], &offsets).ok()?)?;
            let indices = b.binary(Add, starts, offsets)?;
            // A step larger than the declared shape allows stays in bounds.
            let last = b.constant(TensorData::scalar(samples - 1))?;
            b.binary(Min, indices, last)?
        }
    };
    let framed = b.op(Gather, &[signal, indices], &[("axis", Attr::Int(1))])?;
    let weighted = match window {
        Some(w) => {
            let w = b.reshape(w, &[frame_length, 1])?;
            b.binary(Mul, framed, w)?
        }
        None => framed,
    };
    let t = Transform {
        n: frame_length,
        inverse: false,
        onesided,
    };
    Some(vec![Some(along(b, weighted, 2, t)?)])
}

/// The one frame length that gives the declared `[batch, frames, bins, 2]`
/// result of a signal of `samples`, for some step (`step` when known).
fn fitting_length(
    samples: i64,
    step: Option<i64>,
    onesided: bool,
    declared: &[i64],
) -> Option<i64> {
    let [_, frames, bins, _] = declared[..] else {
        return None;
    };
    let lengths = if onesided {
        vec![2 * (bins - 1), 2 * bins - 1]
    } else {
        vec![bins]
    };
    let steps: Vec<i64> = match step {
        Some(s) => vec![s],
        None => (1..=samples).collect(),
    };
    let fits: Vec<i64> = lengths
        .into_iter()
        .filter(|&l| {
            l > 0
                && l <= samples
                && steps
                    .iter()
                    .any(|&s| s > 0 && (samples - l) / s + 1 == frames)
        })
        .collect();
    match fits[..] {
        [l] => Some(l),
        _ => None,
    }
}

/// Expands MelWeightMatrix as described in the module docs.
pub(super) fn mel_weight_matrix(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let result = b.target().results.first().copied().flatten()?;
    let [bins, mels] = b.dims(result)?[..] else {
        return None;
    };
    let out_elem = b.result_elem(0)?;
    let f64_input = |b: &mut Builder, i: usize| {
        let v = b.input(i)?;
        b.cast(v, ElemType::F64)
    };
    let (length, rate) = (f64_input(b, 1)?, f64_input(b, 2)?);
    let (low, high) = (f64_input(b, 3)?, f64_input(b, 4)?);
    // hz → mel: 2595·log10(1 + hz/700); mel → hz: 700·(10^(mel/2595) − 1).
    let c700 = b.scalar(ElemType::F64, 700.0)?;
    let c2595 = b.scalar(ElemType::F64, 2595.0)?;
    let one = b.scalar(ElemType::F64, 1.0)?;
    let ln10 = b.scalar(ElemType::F64, std::f64::consts::LN_10)?;
    let to_mel = |b: &mut Builder, hz: Value| {
        let r = b.binary(Div, hz, c700)?;
        let r = b.binary(Add, r, one)?;
        let r = b.unary(Log, r)?;
        let r = b.binary(Div, r, ln10)?;
        b.binary(Mul, r, c2595)
    };
    let (low_mel, high_mel) = (to_mel(b, low)?, to_mel(b, high)?);
    let span = b.binary(Sub, high_mel, low_mel)?;
    let count = b.scalar(ElemType::F64, (mels + 2) as f64)?;
    let mel_step = b.binary(Div, span, count)?;
    let edges: Vec<f64> = (0..mels + 2).map(|i| i as f64).collect();
    let edges = b.floats(ElemType::F64, vec![mels + 2], &edges)?;
    let edges = b.binary(Mul, edges, mel_step)?;
    let edges = b.binary(Add, edges, low_mel)?;
    let edges = b.binary(Div, edges, c2595)?;
    let edges = b.binary(Mul, edges, ln10)?;
    let edges = b.unary(Exp, edges)?;
    let edges = b.binary(Sub, edges, one)?;
    let hz = b.binary(Mul, edges, c700)?;
    let length_plus_one = b.binary(Add, length, one)?;
    let scaled = b.binary(Mul, hz, length_plus_one)?;
    let scaled = b.binary(Div, scaled, rate)?;
    let edge_bins = b.unary(Floor, scaled)?;
    // Band i has edges (l, c, h) = edge_bins[i], [i + 1], [i + 2], [1, mels].
    let band = |b: &mut Builder, from: i64| {
        let idx: Vec<i64> = (from..from + mels).collect();
        let idx = b.constant(TensorData::from_vec(vec![1, mels], &idx).ok()?)?;
        b.op(Gather, &[edge_bins, idx], &[("axis", Attr::Int(0))])
    };
    let (l, c, h) = (band(b, 0)?, band(b, 1)?, band(b, 2)?);
    let rows: Vec<f64> = (0..bins).map(|j| j as f64).collect();
    let j = b.floats(ElemType::F64, vec![bins, 1], &rows)?;
    let zero = b.scalar(ElemType::F64, 0.0)?;
    // Rising edge on l ≤ j ≤ c: (j − l)/(c − l), or 1 at j = c when c = l.
    let rise_width = b.binary(Sub, c, l)?;
    let flat_rise = b.binary(Equal, rise_width, zero)?;
    let safe_rise = b.select(flat_rise, one, rise_width)?;
    let from_l = b.binary(Sub, j, l)?;
    let rise = b.binary(Div, from_l, safe_rise)?;
    let rise = b.select(flat_rise, one, rise)?;
    let above_l = b.binary(GreaterOrEqual, j, l)?;
    let below_c = b.binary(LessOrEqual, j, c)?;
    let in_rise = b.binary(And, above_l, below_c)?;
    let value = b.select(in_rise, rise, zero)?;
    // Falling edge on c ≤ j < h: (h − j)/(h − c).
    let fall_width = b.binary(Sub, h, c)?;
    let flat_fall = b.binary(LessOrEqual, fall_width, zero)?;
    let safe_fall = b.select(flat_fall, one, fall_width)?;
    let to_h = b.binary(Sub, h, j)?;
    let fall = b.binary(Div, to_h, safe_fall)?;
    let above_c = b.binary(GreaterOrEqual, j, c)?;
    let below_h = b.binary(Less, j, h)?;
    let in_fall = b.binary(And, above_c, below_h)?;
    let value = b.select(in_fall, fall, value)?;
    Some(vec![Some(b.cast(value, out_elem)?)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transform of `x` (`[n_in][parts]`) by the twiddle matrix.
    fn apply(t: Transform, x: &[[f64; 2]], parts: i64) -> Vec<f64> {
        let w = t.matrix(x.len() as i64, parts);
        let cols = (t.out_len() * t.out_parts()) as usize;
        (0..cols)
            .map(|col| {
                x.iter()
                    .enumerate()
                    .flat_map(|(j, v)| (0..parts as usize).map(move |c| (j, c, v[c])))
                    .map(|(j, c, v)| v * w[(j * parts as usize + c) * cols + col])
                    .sum()
            })
            .collect()
    }

    /// `Σ_j x[j] e^{∓2πi jk/n}` (scaled by 1/n when inverse), directly.
    fn naive(x: &[[f64; 2]], n: usize, inverse: bool) -> Vec<[f64; 2]> {
        let sign = if inverse { 1.0 } else { -1.0 };
        let scale = if inverse { 1.0 / n as f64 } else { 1.0 };
        (0..n)
            .map(|k| {
                let mut acc = [0.0, 0.0];
                for (j, v) in x.iter().enumerate().take(n) {
                    let th = sign * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64;
                    acc[0] += v[0] * th.cos() - v[1] * th.sin();
                    acc[1] += v[0] * th.sin() + v[1] * th.cos();
                }
                [acc[0] * scale, acc[1] * scale]
            })
            .collect()
    }

    fn signal(len: usize) -> Vec<[f64; 2]> {
        (0..len)
            .map(|i| {
                [
                    (i as f64 * 0.7).sin() + 0.1 * i as f64,
                    (i as f64 * 1.3).cos(),
                ]
            })
            .collect()
    }

    fn close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-9, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn matrices_match_the_direct_transform() {
        for (len, n) in [(6, 6), (5, 8), (9, 7)] {
            let x = signal(len);
            for inverse in [false, true] {
                let t = Transform {
                    n: n as i64,
                    inverse,
                    onesided: false,
                };
                let want: Vec<f64> = naive(&x, n, inverse).concat();
                close(&apply(t, &x, 2), &want);
            }
            // Real input, one-sided: the first ⌊n/2⌋ + 1 bins.
            let real: Vec<[f64; 2]> = x.iter().map(|v| [v[0], 0.0]).collect();
            let t = Transform {
                n: n as i64,
                inverse: false,
                onesided: true,
            };
            let want: Vec<f64> = naive(&real, n, false)[..n / 2 + 1].concat();
            close(&apply(t, &real, 1), &want);
        }
    }

    #[test]
    fn irfft_inverts_the_one_sided_transform() {
        for n in [6usize, 7] {
            let real: Vec<[f64; 2]> = signal(n).iter().map(|v| [v[0], 0.0]).collect();
            let half = naive(&real, n, false)[..n / 2 + 1].to_vec();
            let t = Transform {
                n: n as i64,
                inverse: true,
                onesided: true,
            };
            let want: Vec<f64> = real.iter().map(|v| v[0]).collect();
            close(&apply(t, &half, 2), &want);
        }
    }

    #[test]
    fn a_frame_length_is_taken_from_the_declared_shape_only_when_unique() {
        // test_stft: 128 samples, 15 frames of 9 one-sided bins: 16 (step 8).
        assert_eq!(fitting_length(128, None, true, &[1, 15, 9, 2]), Some(16));
        assert_eq!(fitting_length(128, Some(8), true, &[1, 15, 9, 2]), Some(16));
        assert_eq!(fitting_length(128, None, false, &[1, 15, 16, 2]), Some(16));
        // 10 samples, 1 frame of 3 bins: lengths 4 and 5 both fit.
        assert_eq!(fitting_length(10, None, true, &[1, 1, 3, 2]), None);
    }
}
