//! Output comparison the way the ONNX backend runner does it: same kind,
//! shape and element type; strings and integers exactly; floats within
//! `atol + rtol·|expected|` with NaN equal to NaN (bfloat16 gets at least
//! two of its ulps, as the runner grants); sequences, maps and optionals
//! element by element. Element types without a numeric reading here
//! (float8, 4-bit and 2-bit ints, complex) compare bit for bit.
//!
//! Outputs of random ops depend on the generator and its seed, so their
//! cases are checked by [`check_random`] instead: the reference's kind,
//! shape and element type, and values in the op's range.

use onnx_mlc_dialect::{ElemType, TensorData};
use onnx_mlc_import::TestValue;

/// Relative and absolute tolerance for floating-point outputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative to the expected value.
    pub rtol: f64,
    /// Absolute.
    pub atol: f64,
}

impl Default for Tolerance {
    /// The conformance issue's tolerance: rtol 1e-3, atol 1e-4.
    fn default() -> Self {
        Tolerance {
            rtol: 1e-3,
            atol: 1e-4,
        }
    }
}

/// How a case's outputs are checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// Against the reference values, within a tolerance.
    Values(Tolerance),
    /// Seed-dependent outputs of a random op, by [`check_random`].
    Random(RandomOp),
}

/// The random op whose range [`check_random`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomOp {
    /// Bernoulli: every value 0 or 1.
    Bernoulli,
    /// Training-mode Dropout of inputs `(x, ratio, training)`: every output
    /// element 0 or `x / (1 − ratio)`, and where a mask is returned, the
    /// kept ones exactly where it is true.
    Dropout,
}

/// Checks the outputs of a random op: `got` has the kinds, shapes and
/// element types of `want`, and values in the op's range (`inputs` are
/// the case's inputs).
pub fn check_random(
    op: RandomOp,
    got: &[TestValue],
    want: &[TestValue],
    inputs: &[TestValue],
) -> Result<(), String> {
    let tensors = |v: &[TestValue]| -> Result<Vec<TensorData>, String> {
        v.iter()
            .map(|t| match t {
                TestValue::Tensor(t) => Ok(t.clone()),
                other => Err(format!("{} value, expected a tensor", kind(other))),
            })
            .collect()
    };
    let (got, want) = (tensors(got)?, tensors(want)?);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        if g.elem != w.elem || g.dims != w.dims {
            return Err(format!(
                "output {k}: {} {:?}, expected {} {:?}",
                g.elem, g.dims, w.elem, w.dims
            ));
        }
    }
    let floats = |t: &TensorData| t.to_f64s().ok_or(format!("cannot read {} data", t.elem));
    let values = floats(got.first().ok_or("no output")?)?;
    match op {
        RandomOp::Bernoulli => match values.iter().position(|&v| v != 0.0 && v != 1.0) {
            None => Ok(()),
            Some(i) => Err(format!("output 0[{i}]: {}, expected 0 or 1", values[i])),
        },
        RandomOp::Dropout => {
            let inputs = tensors(inputs)?;
            let x = floats(inputs.first().ok_or("no input")?)?;
            let ratio = match inputs.get(1) {
                Some(r) => *floats(r)?.first().ok_or("empty ratio")?,
                None => 0.5,
            };
            let mask = match got.get(1) {
                Some(m) => Some(m.to_i64s().ok_or("cannot read the mask")?),
                None => None,
            };
            let scale = 1.0 / (1.0 - ratio);
            let tol = Tolerance::default();
            for (i, (&y, &x)) in values.iter().zip(&x).enumerate() {
                let kept = (y - x * scale).abs() <= tol.atol + tol.rtol * (x * scale).abs();
                let ok = match mask.as_ref().map(|m| m[i] != 0) {
                    Some(true) => kept,
                    Some(false) => y == 0.0,
                    None => kept || y == 0.0,
                };
                if !ok {
                    return Err(format!(
                        "output 0[{i}]: {y}, expected 0 or {} (x {x}, ratio {ratio})",
                        x * scale
                    ));
                }
            }
            Ok(())
        }
    }
}

/// Checks `got` against `want`; the error says where they first differ.
pub fn compare(got: &TestValue, want: &TestValue, tol: Tolerance) -> Result<(), String> {
    match (got, want) {
        (TestValue::Tensor(g), TestValue::Tensor(w)) => compare_tensors(g, w, tol),
        (TestValue::Sequence(g), TestValue::Sequence(w)) => {
            if g.len() != w.len() {
                return Err(format!(
                    "sequence of {} items, expected {}",
                    g.len(),
                    w.len()
                ));
            }
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                compare(a, b, tol).map_err(|e| format!("item {i}: {e}"))?;
            }
            Ok(())
        }
        (TestValue::Optional(g), TestValue::Optional(w)) => match (g, w) {
            (None, None) => Ok(()),
            (Some(a), Some(b)) => compare(a, b, tol),
            (None, Some(_)) => Err("empty optional, expected a value".into()),
            (Some(_), None) => Err("a value, expected an empty optional".into()),
        },
        (TestValue::Map(g), TestValue::Map(w)) => {
            if g.len() != w.len() {
                return Err(format!("map of {} entries, expected {}", g.len(), w.len()));
            }
            for ((gk, gv), (wk, wv)) in g.iter().zip(w) {
                if gk != wk {
                    return Err(format!("map key {gk:?}, expected {wk:?}"));
                }
                compare(gv, wv, tol).map_err(|e| format!("map entry {wk:?}: {e}"))?;
            }
            Ok(())
        }
        _ => Err(format!("{} value, expected a {}", kind(got), kind(want))),
    }
}

fn kind(v: &TestValue) -> &'static str {
    match v {
        TestValue::Tensor(_) => "tensor",
        TestValue::SparseTensor(_) => "sparse tensor",
        TestValue::Sequence(_) => "sequence",
        TestValue::Map(_) => "map",
        TestValue::Optional(_) => "optional",
    }
}

fn compare_tensors(got: &TensorData, want: &TensorData, tol: Tolerance) -> Result<(), String> {
    if got.elem != want.elem {
        return Err(format!("element type {}, expected {}", got.elem, want.elem));
    }
    if got.dims != want.dims {
        return Err(format!("shape {:?}, expected {:?}", got.dims, want.dims));
    }
    if let (Some(g), Some(w)) = (got.strings(), want.strings()) {
        return match g.iter().zip(w).position(|(a, b)| a != b) {
            None => Ok(()),
            Some(i) => Err(format!(
                "[{i}]: {:?}, expected {:?}",
                String::from_utf8_lossy(&g[i]),
                String::from_utf8_lossy(&w[i])
            )),
        };
    }
    if want.elem.is_int() || want.elem == ElemType::Bool {
        if let (Some(g), Some(w)) = (got.to_i64s(), want.to_i64s()) {
            return match g.iter().zip(&w).position(|(a, b)| a != b) {
                None => Ok(()),
                Some(i) => Err(format!("[{i}]: {}, expected {}", g[i], w[i])),
            };
        }
    }
    if let (Some(g), Some(w)) = (got.to_f64s(), want.to_f64s()) {
        let rtol = if want.elem == ElemType::BF16 {
            tol.rtol.max(2f64.powi(-6))
        } else {
            tol.rtol
        };
        let close = |a: f64, b: f64| {
            a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol.atol + rtol * b.abs()
        };
        return match g.iter().zip(&w).position(|(&a, &b)| !close(a, b)) {
            None => Ok(()),
            Some(i) => Err(format!("[{i}]: {}, expected {}", g[i], w[i])),
        };
    }
    match (got.raw(), want.raw()) {
        (Some(g), Some(w)) if g == w => Ok(()),
        (Some(g), Some(w)) => {
            let i = g
                .iter()
                .zip(w.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            Err(format!("byte {i} differs ({} data)", want.elem))
        }
        _ => Err(format!("cannot compare {} data", want.elem)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> TestValue {
        TestValue::Tensor(TensorData::from_vec(vec![v.len() as i64], v).unwrap())
    }

    #[test]
    fn floats_within_tolerance_and_nans_match() {
        let tol = Tolerance::default();
        assert!(compare(&f32s(&[1.0, f32::NAN]), &f32s(&[1.0005, f32::NAN]), tol).is_ok());
        assert!(compare(&f32s(&[1.0]), &f32s(&[1.01]), tol).is_err());
        assert!(compare(&f32s(&[f32::NAN]), &f32s(&[0.0]), tol).is_err());
        assert!(compare(&f32s(&[1.0, 2.0]), &f32s(&[1.0]), tol).is_err());
    }

    #[test]
    fn integers_and_strings_compare_exactly() {
        let i =
            |v: &[i64]| TestValue::Tensor(TensorData::from_vec(vec![v.len() as i64], v).unwrap());
        assert!(compare(&i(&[1, 2]), &i(&[1, 2]), Tolerance::default()).is_ok());
        assert!(compare(&i(&[1, 2]), &i(&[1, 3]), Tolerance::default()).is_err());
        let s = |v: &[&str]| {
            TestValue::Tensor(
                TensorData::from_strings(
                    vec![v.len() as i64],
                    v.iter().map(|s| s.as_bytes().to_vec()).collect(),
                )
                .unwrap(),
            )
        };
        assert!(compare(&s(&["a"]), &s(&["a"]), Tolerance::default()).is_ok());
        assert!(compare(&s(&["a"]), &s(&["A"]), Tolerance::default()).is_err());
    }

    #[test]
    fn random_outputs_are_checked_by_range() {
        let b = |v: &[f32]| [f32s(v)];
        let bernoulli = RandomOp::Bernoulli;
        assert!(check_random(bernoulli, &b(&[0.0, 1.0]), &b(&[1.0, 1.0]), &[]).is_ok());
        assert!(check_random(bernoulli, &b(&[0.5, 1.0]), &b(&[1.0, 1.0]), &[]).is_err());
        assert!(check_random(bernoulli, &b(&[1.0]), &b(&[1.0, 0.0]), &[]).is_err());
        let inputs = [f32s(&[1.0, -2.0]), f32s(&[0.5])];
        let dropout = RandomOp::Dropout;
        assert!(check_random(dropout, &b(&[0.0, -4.0]), &b(&[2.0, 0.0]), &inputs).is_ok());
        assert!(check_random(dropout, &b(&[1.0, -4.0]), &b(&[2.0, 0.0]), &inputs).is_err());
    }

    #[test]
    fn kinds_and_dtypes_must_match() {
        let tol = Tolerance::default();
        let f64s = TestValue::Tensor(TensorData::from_vec(vec![1], &[1.0f64]).unwrap());
        assert!(compare(&f32s(&[1.0]), &f64s, tol).is_err());
        assert!(compare(&TestValue::Sequence(vec![f32s(&[1.0])]), &f32s(&[1.0]), tol).is_err());
        assert!(compare(&TestValue::Optional(None), &TestValue::Optional(None), tol).is_ok());
    }
}
