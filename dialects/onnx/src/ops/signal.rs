//! Signal processing.
//!
//! - `DFT`: the discrete Fourier transform of `input` along one axis. The
//!   last dim holds real (1) or complex (2) values. The result has the
//!   input's shape with a complex last dim (2), except the inverse one-sided
//!   transform (IRFFT), which is real (1). The transformed axis becomes
//!   `dft_length` (default: unchanged), or `floor(dft_length/2) + 1` for a
//!   one-sided forward transform (RFFT), and defaults to `2 * (n - 1)` for
//!   IRFFT. The axis is the `axis` attribute (version 17, default 1) or the
//!   `axis` input (version 20, default -2); it may not be the last dim.
//! - `STFT` (17): `[batch, frames, bins, 2]` for a `[batch, length, 1|2]`
//!   signal, where `frames = floor((length - frame_length) / frame_step) + 1`
//!   and `bins` is `frame_length`, or `floor(frame_length/2) + 1` when
//!   `onesided` (the default). `frame_length` is the input of that name, or
//!   the window's length, or the signal length.
//! - `BlackmanWindow`, `HammingWindow`, `HannWindow` (17): a `[size]`
//!   window of type `output_datatype` (default float).
//! - `MelWeightMatrix` (17): `[floor(dft_length/2) + 1, num_mel_bins]` of
//!   type `output_datatype`.
//!
//! Sizes come from the known values of the scalar inputs, symbolic ones
//! included.

use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{elem_attr, fmt_dims, known_tensor, normalize_axis, unify};
use crate::schema::SignalOp;
use crate::types::ElemType;

pub(crate) fn infer(op: SignalOp, cx: &mut InferCtx) -> Result<(), Fail> {
    match op {
        SignalOp::DFT => dft(cx),
        SignalOp::STFT => stft(cx),
        SignalOp::MelWeightMatrix => {
            let elem = elem_attr(cx, "output_datatype")?.unwrap_or(ElemType::F32);
            let bins = positive(scalar(cx, 0, "num_mel_bins")?, "num_mel_bins")?;
            let length = positive(scalar(cx, 1, "dft_length")?, "dft_length")?;
            cx.set_tensor(0, elem, vec![half_plus_one(&length), bins]);
            Ok(())
        }
        SignalOp::BlackmanWindow | SignalOp::HammingWindow | SignalOp::HannWindow => {
            let elem = elem_attr(cx, "output_datatype")?.unwrap_or(ElemType::F32);
            let size = positive(scalar(cx, 0, "size")?, "size")?;
            cx.set_tensor(0, elem, vec![size]);
            Ok(())
        }
    }
}

/// The known value of scalar input `i` (unknown when absent or not
/// known); invalid when it holds more than one element.
fn scalar(cx: &InferCtx, i: usize, name: &str) -> Result<Dim, Fail> {
    match cx.sym_vector(i).as_deref() {
        None => Ok(Dim::Unknown),
        Some([v]) => Ok(v.clone()),
        Some(v) => Err(invalid!(
            "'{name}' must be a scalar, it has {} elements",
            v.len()
        )),
    }
}

/// `d`, which must be positive when known.
fn positive(d: Dim, name: &str) -> Result<Dim, Fail> {
    match d {
        Dim::Known(n) if n <= 0 => Err(invalid!("'{name}' must be positive, got {n}")),
        d => Ok(d),
    }
}

/// `floor(n / 2) + 1`: the number of unique bins of a real DFT of size n.
fn half_plus_one(n: &Dim) -> Dim {
    n.floor_div(2).add(&Dim::Known(1))
}

fn dft(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    let Some(dims) = x.dims() else {
        cx.set_unranked(0, x.elem);
        return Ok(());
    };
    let rank = dims.len();
    if rank < 2 {
        return Err(invalid!("the input must have rank 2 or more (the last dim holds real or complex values), got shape {}", fmt_dims(dims)));
    }
    let onesided = cx.int("onesided")? != 0;
    let inverse = cx.int("inverse")? != 0;
    let last = &dims[rank - 1];
    let (allowed, what): (&[i64], _) = match (onesided, inverse) {
        (true, false) => (&[1], "a one-sided DFT needs a real input (last dim 1)"),
        (true, true) => (
            &[2],
            "an inverse one-sided DFT needs a complex input (last dim 2)",
        ),
        _ => (&[1, 2], "the last dim must be 1 (real) or 2 (complex)"),
    };
    if let Dim::Known(n) = last {
        if !allowed.contains(n) {
            return Err(invalid!("{what}, got {n}"));
        }
    }
    let axis = if cx.version() < 20 {
        Some(cx.int("axis")?)
    } else if cx.has_input(2) {
        match scalar(cx, 2, "axis")? {
            Dim::Known(a) => Some(a),
            _ => None,
        }
    } else {
        Some(-2)
    };
    let length = if cx.has_input(1) {
        Some(positive(scalar(cx, 1, "dft_length")?, "dft_length")?)
    } else {
        None
    };
    let mut out = dims.to_vec();
    match axis {
        // Only the transformed axis can change size: with the axis unknown,
        // every dim is unknown unless none changes.
        None if onesided || length.is_some() => out.fill(Dim::Unknown),
        None => {}
        Some(axis) => {
            let r = rank as i64;
            if axis < -r || axis >= r - 1 || axis == -1 {
                return Err(invalid!("axis {axis} is out of range for an input of rank {rank} (the last dim cannot be transformed)"));
            }
            let a = normalize_axis(axis, rank)?;
            out[a] = match (length, onesided, inverse) {
                (Some(n), true, false) => half_plus_one(&n),
                (Some(n), _, _) => n,
                (None, true, false) => half_plus_one(&dims[a]),
                (None, true, true) => dims[a].sub(&Dim::Known(1)).scale(2),
                (None, false, _) => dims[a].clone(),
            };
        }
    }
    out[rank - 1] = Dim::Known(if onesided && inverse { 1 } else { 2 });
    cx.set_tensor(0, x.elem, out);
    Ok(())
}

fn stft(cx: &mut InferCtx) -> Result<(), Fail> {
    let signal = cx.tensor(0)?.clone();
    let onesided = cx.int("onesided")? != 0;
    let Some(dims) = signal.dims() else {
        cx.set_unranked(0, signal.elem);
        return Ok(());
    };
    let [batch, length, last] = dims else {
        return Err(invalid!(
            "the signal must be [batch, length, 1 or 2], got shape {}",
            fmt_dims(dims)
        ));
    };
    match last {
        Dim::Known(2) if onesided => {
            return Err(invalid!(
                "a one-sided STFT needs a real signal (last dim 1), got a complex one"
            ))
        }
        Dim::Known(n) if *n != 1 && *n != 2 => {
            return Err(invalid!(
                "the signal's last dim must be 1 (real) or 2 (complex), got {n}"
            ))
        }
        _ => {}
    }
    let step = positive(scalar(cx, 1, "frame_step")?, "frame_step")?;
    let mut frame = Dim::Unknown;
    if cx.has_input(3) {
        frame = positive(scalar(cx, 3, "frame_length")?, "frame_length")?;
    }
    if let Some(window) = known_tensor(cx, 2)? {
        match window.dims() {
            Some([w]) => unify(&mut frame, w, || "the window length".into())?,
            Some(d) => {
                return Err(invalid!(
                    "the window must be 1-D, got shape {}",
                    fmt_dims(d)
                ))
            }
            None => {}
        }
    }
    if !cx.has_input(2) && !cx.has_input(3) {
        frame = length.clone();
    }
    let frames = match (&step, length.sub(&frame)) {
        (Dim::Known(k), Dim::Known(rest)) if rest < 0 => {
            return Err(invalid!(
                "frames of {frame} samples do not fit in a signal of {length} (step {k})"
            ))
        }
        (Dim::Known(k), rest) => rest.floor_div(*k).add(&Dim::Known(1)),
        _ => Dim::Unknown,
    };
    let bins = if onesided {
        half_plus_one(&frame)
    } else {
        frame
    };
    cx.set_tensor(
        0,
        signal.elem,
        vec![batch.clone(), frames, bins, Dim::Known(2)],
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::ir::Value;
    use crate::schema::OpKind::*;
    use crate::tensor::TensorData;

    #[test]
    fn dft_shapes() {
        let mut g = Graph::new(28);
        let main = g.main();
        let real = g.input(t("1x10x10x1xf32"));
        let complex = g.input(t("1x10x10x2xf32"));
        let half = g.input(t("1x6x10x2xf32"));
        let one = g.constant(TensorData::scalar(1i64));
        let axis_in = g.input(t("i64"));
        let dft = |g: &mut Graph,
                   opset,
                   x: Value,
                   len: Option<Value>,
                   axis: Option<Value>,
                   attrs: Vec<(&str, Attr)>| {
            g.node(main, DFT, opset, &[Some(x), len, axis], &[true], &attrs)[0].unwrap()
        };
        // Backend test_dft (axis 1), test_dft_inverse, test_dft_rfft,
        // test_dft_irfft, and their opset-19 twins with the axis attribute.
        let plain = dft(&mut g, 20, real, None, Some(one), vec![]);
        let inverse = dft(
            &mut g,
            20,
            complex,
            None,
            Some(one),
            vec![("inverse", Attr::Int(1))],
        );
        let rfft = dft(
            &mut g,
            20,
            real,
            None,
            Some(one),
            vec![("onesided", Attr::Int(1))],
        );
        let irfft = dft(
            &mut g,
            20,
            half,
            None,
            Some(one),
            vec![("onesided", Attr::Int(1)), ("inverse", Attr::Int(1))],
        );
        let rfft19 = dft(
            &mut g,
            19,
            real,
            None,
            None,
            vec![("onesided", Attr::Int(1))],
        );
        // An unknown axis: the shape is known when nothing can change size.
        let any_axis = dft(&mut g, 20, real, None, Some(axis_in), vec![]);
        let any_axis_rfft = dft(
            &mut g,
            20,
            real,
            None,
            Some(axis_in),
            vec![("onesided", Attr::Int(1))],
        );
        // dft_length pads (or crops) the axis, by default -2.
        let sixteen = g.constant(TensorData::scalar(16i32));
        let padded = dft(
            &mut g,
            20,
            real,
            Some(sixteen),
            None,
            vec![("onesided", Attr::Int(1))],
        );
        g.infer().unwrap();
        assert_eq!(g.ty(plain), "tensor<1x10x10x2xf32>");
        assert_eq!(g.ty(inverse), "tensor<1x10x10x2xf32>");
        assert_eq!(g.ty(rfft), "tensor<1x6x10x2xf32>");
        assert_eq!(g.ty(irfft), "tensor<1x10x10x1xf32>");
        assert_eq!(g.ty(rfft19), "tensor<1x6x10x2xf32>");
        assert_eq!(g.ty(any_axis), "tensor<1x10x10x2xf32>");
        assert_eq!(g.ty(any_axis_rfft), "tensor<?x?x?x2xf32>");
        assert_eq!(g.ty(padded), "tensor<1x10x9x2xf32>");
    }

    #[test]
    fn dft_errors() {
        let cases = [
            (17, "1x10x2xf32", vec![("onesided", Attr::Int(1))], "a one-sided DFT needs a real input (last dim 1), got 2"),
            (17, "1x10x3xf32", vec![], "the last dim must be 1 (real) or 2 (complex), got 3"),
            (17, "1x10x1xf32", vec![("axis", Attr::Int(2))], "axis 2 is out of range for an input of rank 3 (the last dim cannot be transformed)"),
        ];
        for (opset, shape, attrs, message) in cases {
            let mut g = Graph::new(28);
            let x = g.input(t(shape));
            g.op_at(DFT, opset, &[x], &attrs, 1);
            let err = g.infer_err();
            assert!(err.ends_with(message), "{err}");
        }
    }

    #[test]
    fn stft_shapes() {
        // Backend test_stft (frame_length 16) and test_stft_with_window (a
        // window of 16): [1,128,1] with step 8 -> [1,15,9,2].
        let mut g = Graph::new(28);
        let main = g.main();
        let signal = g.input(t("1x128x1xf32"));
        let step = g.constant(TensorData::scalar(8i64));
        let len = g.constant(TensorData::scalar(16i64));
        let window = g.input(t("16xf32"));
        let a = g.node(
            main,
            STFT,
            17,
            &[Some(signal), Some(step), None, Some(len)],
            &[true],
            &[],
        )[0]
        .unwrap();
        let b = g.node(
            main,
            STFT,
            17,
            &[Some(signal), Some(step), Some(window)],
            &[true],
            &[],
        )[0]
        .unwrap();
        let full = g.node(
            main,
            STFT,
            17,
            &[Some(signal), Some(step), Some(window)],
            &[true],
            &[("onesided", Attr::Int(0))],
        )[0]
        .unwrap();
        let whole = g.node(main, STFT, 17, &[Some(signal), Some(step)], &[true], &[])[0].unwrap();
        g.infer().unwrap();
        assert_eq!(g.ty(a), "tensor<1x15x9x2xf32>");
        assert_eq!(g.ty(b), "tensor<1x15x9x2xf32>");
        assert_eq!(g.ty(full), "tensor<1x15x16x2xf32>");
        assert_eq!(g.ty(whole), "tensor<1x1x65x2xf32>");

        let mut g = Graph::new(28);
        let main = g.main();
        let signal = g.input(t("1x128x1xf32"));
        let step = g.constant(TensorData::scalar(8i64));
        let len = g.constant(TensorData::scalar(16i64));
        let window = g.input(t("32xf32"));
        g.node(
            main,
            STFT,
            17,
            &[Some(signal), Some(step), Some(window), Some(len)],
            &[true],
            &[],
        );
        assert!(g
            .infer_err()
            .ends_with("the window length is 32 but must be 16"));
    }

    #[test]
    fn windows_and_mel_matrix() {
        // Backend test_blackmanwindow (size 10) and test_melweightmatrix
        // (8 bins, dft_length 16 -> [9, 8]).
        let mut g = Graph::new(28);
        let ten = g.constant(TensorData::scalar(10i32));
        let blackman = g.op_at(BlackmanWindow, 17, &[ten], &[], 1)[0];
        let hann = g.op_at(
            HannWindow,
            17,
            &[ten],
            &[
                ("output_datatype", Attr::Int(11)),
                ("periodic", Attr::Int(0)),
            ],
            1,
        )[0];
        let n = g.input(t("i32"));
        let unknown = g.op_at(HammingWindow, 17, &[n], &[], 1)[0];
        let bins = g.constant(TensorData::scalar(8i32));
        let len = g.constant(TensorData::scalar(16i32));
        let rate = g.constant(TensorData::scalar(8192i32));
        let lo = g.input(t("f32"));
        let hi = g.input(t("f32"));
        let mel = g.op_at(MelWeightMatrix, 17, &[bins, len, rate, lo, hi], &[], 1)[0];
        g.infer().unwrap();
        assert_eq!(g.ty(blackman), "tensor<10xf32>");
        assert_eq!(g.ty(hann), "tensor<10xf64>");
        assert_eq!(g.ty(unknown), "tensor<?xf32>");
        assert_eq!(g.ty(mel), "tensor<9x8xf32>");

        let mut g = Graph::new(28);
        let zero = g.constant(TensorData::scalar(0i64));
        g.op_at(HannWindow, 17, &[zero], &[], 1);
        assert!(g.infer_err().ends_with("'size' must be positive, got 0"));
    }
}
