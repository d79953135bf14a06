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
    /// Lists of detections, against the reference by [`compare_ranked`]:
    /// output `by` orders every output's rows.
    Ranked {
        /// The tolerance of float values.
        tol: Tolerance,
        /// The output whose descending values order the rows.
        by: usize,
    },
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

/// Checks lists of detections (a detector's boxes, scores, labels, masks,
/// keypoints: row `i` of every output is detection `i`, in descending
/// order of output `by`'s values) against the reference's.
///
/// Output `by` compares value by value; let `ε` be the largest difference
/// found there. Rows whose `by` values are within `2ε` of each other may
/// come in either order: which of two scores that close comes first is
/// decided by float rounding, which differs between correct
/// implementations. So each run of such tied rows must match the
/// reference's as a set (every reference row has its own row in the run
/// that matches it in every output), except at the end of the list, where
/// the rows tied with the last one may differ in which of them made the
/// cut. Float values compare within `atol + rtol·|expected|`, the `atol`
/// raised to `rtol` times the output's largest magnitude: a coordinate is
/// as precise as the image it is in, not as its own value (a box edge at
/// x = 0.04 carries the error of one at x = 300).
pub fn compare_ranked(
    got: &[TestValue],
    want: &[TestValue],
    by: usize,
    tol: Tolerance,
) -> Result<(), String> {
    let key = want
        .get(by)
        .ok_or(format!("no output {by} to order the rows by"))?;
    compare(&got[by], key, tol).map_err(|e| format!("output {by}: {e}"))?;
    let rows = |values: &[TestValue]| -> Result<Vec<Rows>, String> {
        values
            .iter()
            .enumerate()
            .map(|(k, v)| Rows::of(v).ok_or(format!("output {k} is not a numeric tensor")))
            .collect()
    };
    let (g, w) = (rows(got)?, rows(want)?);
    let n = w[by].count;
    for (k, (a, b)) in g.iter().zip(&w).enumerate() {
        if a.dims != b.dims {
            return Err(format!(
                "output {k}: shape {:?}, expected {:?}",
                a.dims, b.dims
            ));
        }
        if b.count != n {
            return Err(format!("output {k} has {} rows, output {by} {n}", b.count));
        }
    }
    let tols: Vec<Tolerance> = w
        .iter()
        .map(|r| Tolerance {
            rtol: tol.rtol,
            atol: tol.atol.max(tol.rtol * r.largest()),
        })
        .collect();
    let (Some(scores), Some(found)) = (w[by].floats(), g[by].floats()) else {
        return Err(format!("output {by} is not a float tensor"));
    };
    let tie = 2.0
        * scores
            .iter()
            .zip(found)
            .fold(0.0, |m: f64, (a, b)| m.max((a - b).abs()));
    let tied = |a: f64, b: f64| (a - b).abs() <= tie;
    let matches = |j: usize, i: usize| {
        g.iter()
            .zip(&w)
            .zip(&tols)
            .all(|((a, b), &t)| a.row_matches(j, b, i, t))
    };
    let mut start = 0;
    for end in 1..=n {
        if end < n && tied(scores[end - 1], scores[end]) {
            continue;
        }
        let mut taken = vec![false; end - start];
        for i in start..end {
            // The same place first, then the other tied rows.
            let mut candidates = std::iter::once(i).chain((start..end).filter(|&j| j != i));
            if let Some(j) = candidates.find(|&j| !taken[j - start] && matches(j, i)) {
                taken[j - start] = true;
            } else if !(end == n && tied(scores[i], scores[n - 1])) {
                let (k, diff) = g
                    .iter()
                    .zip(&w)
                    .zip(&tols)
                    .enumerate()
                    .find_map(|(k, ((a, b), &t))| a.row_diff(i, b, i, t).map(|d| (k, d)))
                    .unwrap_or((by, "tied rows in another order".into()));
                return Err(format!(
                    "row {i} (rows {start}..{end} tie on output {by}) has no match: \
                     output {k} row {i}: {diff}"
                ));
            }
        }
        start = end;
    }
    Ok(())
}

/// Whether `a` is within `tol` of the expected `b`.
fn close(a: f64, b: f64, tol: Tolerance) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol.atol + tol.rtol * b.abs()
}

/// A tensor as rows along its first dim, its values read as numbers.
struct Rows {
    dims: Vec<i64>,
    count: usize,
    width: usize,
    values: RowValues,
}

enum RowValues {
    Floats(Vec<f64>),
    Ints(Vec<i64>),
}

impl Rows {
    fn of(v: &TestValue) -> Option<Rows> {
        let TestValue::Tensor(t) = v else { return None };
        let count = usize::try_from(*t.dims.first()?).ok()?;
        let total: i64 = t.dims.iter().product();
        let width = usize::try_from(total).ok()?.checked_div(count).unwrap_or(0);
        let values = if t.elem.is_int() || t.elem == ElemType::Bool {
            RowValues::Ints(t.to_i64s()?)
        } else {
            RowValues::Floats(t.to_f64s()?)
        };
        Some(Rows {
            dims: t.dims.clone(),
            count,
            width,
            values,
        })
    }

    fn floats(&self) -> Option<&[f64]> {
        match &self.values {
            RowValues::Floats(v) => Some(v),
            RowValues::Ints(_) => None,
        }
    }

    /// The largest magnitude of a float tensor (0 for integers).
    fn largest(&self) -> f64 {
        self.floats().map_or(0.0, |v| {
            v.iter()
                .filter(|x| x.is_finite())
                .fold(0.0, |m, x| m.max(x.abs()))
        })
    }

    fn row_matches(&self, i: usize, want: &Rows, j: usize, tol: Tolerance) -> bool {
        self.row_diff(i, want, j, tol).is_none()
    }

    /// Where row `i` first differs from `want`'s row `j`, if it does.
    fn row_diff(&self, i: usize, want: &Rows, j: usize, tol: Tolerance) -> Option<String> {
        let (a, b) = (i * self.width, j * want.width);
        let w = self.width;
        match (&self.values, &want.values) {
            (RowValues::Floats(g), RowValues::Floats(e)) => (0..w)
                .find(|&x| !close(g[a + x], e[b + x], tol))
                .map(|x| format!("[{x}]: {}, expected {}", g[a + x], e[b + x])),
            (RowValues::Ints(g), RowValues::Ints(e)) => (0..w)
                .find(|&x| g[a + x] != e[b + x])
                .map(|x| format!("[{x}]: {}, expected {}", g[a + x], e[b + x])),
            _ => Some("element types differ".into()),
        }
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
        let tol = Tolerance {
            rtol,
            atol: tol.atol,
        };
        return match g.iter().zip(&w).position(|(&a, &b)| !close(a, b, tol)) {
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

    /// Detections: boxes `[n, 4]`, scores `[n]`, labels `[n]`.
    fn detections(boxes: &[[f32; 4]], scores: &[f32], labels: &[i64]) -> Vec<TestValue> {
        let n = scores.len() as i64;
        let flat: Vec<f32> = boxes.iter().flatten().copied().collect();
        vec![
            TestValue::Tensor(TensorData::from_vec(vec![n, 4], &flat).unwrap()),
            f32s(scores),
            TestValue::Tensor(TensorData::from_vec(vec![n], labels).unwrap()),
        ]
    }

    #[test]
    fn ranked_rows_tied_on_the_key_may_swap() {
        let tol = Tolerance {
            rtol: 1e-3,
            atol: 1e-3,
        };
        let (a, b, c) = (
            [0.0, 0.0, 10.0, 10.0],
            [5.0, 5.0, 300.0, 300.0],
            [1.0, 2.0, 3.0, 4.0],
        );
        let d = [7.0, 7.0, 9.0, 9.0];
        let want = detections(&[a, b, c, d], &[0.9, 0.5, 0.4996, 0.3], &[1, 2, 3, 4]);
        // Scores off by up to 2e-4: rows 1 and 2 (4e-4 apart) tie, either
        // order passes.
        let swapped = detections(&[a, c, b, d], &[0.9, 0.4998, 0.4997, 0.3], &[1, 3, 2, 4]);
        assert!(compare_ranked(&swapped, &want, 1, tol).is_ok());
        // With exact scores nothing ties.
        let exact = detections(&[a, c, b, d], &[0.9, 0.5, 0.4996, 0.3], &[1, 3, 2, 4]);
        let e = compare_ranked(&exact, &want, 1, tol).unwrap_err();
        assert!(
            e.starts_with("row 1 (rows 1..2 tie on output 1) has no match"),
            "{e}"
        );
        // Rows 0 and 1 never tie.
        let wrong = detections(&[b, a, c, d], &[0.9, 0.5, 0.4996, 0.3], &[2, 1, 3, 4]);
        assert!(compare_ranked(&wrong, &want, 1, tol).is_err());
        // A tied row that is not the reference's.
        let other = [1.0, 2.0, 3.0, 5.0];
        let odd = detections(
            &[a, other, b, d],
            &[0.9, 0.4998, 0.4997, 0.3],
            &[1, 3, 2, 4],
        );
        assert!(compare_ranked(&odd, &want, 1, tol).is_err());
        // Coordinates are as precise as the largest one: 0.2 off at 1.0 is
        // within 1e-3 of 300.
        let moved = detections(
            &[a, b, [1.2, 2.0, 3.0, 4.0], d],
            &[0.9, 0.5, 0.4996, 0.3],
            &[1, 2, 3, 4],
        );
        assert!(compare_ranked(&moved, &want, 1, tol).is_ok());
        let far = detections(
            &[a, b, [1.4, 2.0, 3.0, 4.0], d],
            &[0.9, 0.5, 0.4996, 0.3],
            &[1, 2, 3, 4],
        );
        assert!(compare_ranked(&far, &want, 1, tol).is_err());
        // The last rows may differ in which made the cut, when tied with the last.
        let cut = detections(
            &[a, b, d, other],
            &[0.9, 0.5, 0.4997, 0.4998],
            &[1, 2, 4, 5],
        );
        let short = detections(&[a, b, c], &[0.9, 0.5, 0.4996], &[1, 2, 3]);
        let cut_short = detections(&[a, b, other], &[0.9, 0.5, 0.4997], &[1, 2, 5]);
        assert!(compare_ranked(&cut_short, &short, 1, tol).is_ok());
        assert!(compare_ranked(&cut, &want, 1, tol).is_err());
        // The scores compare in place, and the row counts must agree.
        let lower = detections(&[a, b, c, d], &[0.9, 0.4, 0.4996, 0.3], &[1, 2, 3, 4]);
        assert!(compare_ranked(&lower, &want, 1, tol).is_err());
        let fewer = detections(&[a, b], &[0.9, 0.5], &[1, 2]);
        assert!(compare_ranked(&fewer, &short, 1, tol).is_err());
    }
}
