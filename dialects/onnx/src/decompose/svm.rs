//! The support vector machines of ai.onnx.ml, SVMClassifier and
//! SVMRegressor, as onnxruntime computes them (its kernels are the
//! numeric reference), with the support vectors fixed at compile time:
//!
//! ```text
//! K(x, v)        = x·v (LINEAR), (γ x·v + c₀)^degree (POLY),
//!                  exp(-γ |x - v|²) (RBF), tanh(γ x·v + c₀) (SIGMOID)
//! SVMRegressor   = K(x, SV) · coefficients + ρ₀   (one_class: ±1 by sign)
//!                  (no support vectors: x · coefficients + ρ₀)
//! SVMClassifier  = one-vs-one: s_ij = Σ_{v of i} c[j-1, v] K_v + Σ_{v of j} c[i, v] K_v + ρ_ij,
//!                  a vote for i where s_ij > 0 (else for j), label = first most voted;
//!                  scores s_ij (post transform), or with prob_a/prob_b the pairwise
//!                  Platt probabilities σ(-(s·A + B)) coupled into class
//!                  probabilities by libsvm's iterative method (a run-time Loop)
//! ```

use super::builder::Builder;
use super::ml::{
    class_labels, first_max, float_list, float_rows, label_at, post_transform, top_label,
};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// The iterations of libsvm's coupling of pairwise probabilities (it stops
/// earlier once a row has converged).
const COUPLING_ITERATIONS: i64 = 100;

/// A kernel with its parameters (`kernel_params`: γ, c₀, degree).
struct Kernel {
    kind: String,
    gamma: f64,
    coef0: f64,
    degree: f64,
}

impl Kernel {
    /// The op's kernel (LINEAR when absent).
    fn of(b: &Builder) -> Option<Kernel> {
        let kind = b
            .string_attr("kernel_type")
            .unwrap_or_else(|| "LINEAR".into());
        let params = float_list(b, "kernel_params").unwrap_or_default();
        let param = |k: usize| params.get(k).copied().unwrap_or(0.0);
        matches!(kind.as_str(), "LINEAR" | "POLY" | "RBF" | "SIGMOID").then(|| Kernel {
            kind,
            gamma: param(0),
            coef0: param(1),
            degree: param(2),
        })
    }

    /// `[N, V]`: the kernel of each row of `x` `[N, F]` with each of the
    /// `V` support vectors (`vectors`, row-major `[V, F]`).
    fn apply(&self, b: &mut Builder, x: Value, vectors: &[f64], features: i64) -> Option<Value> {
        let count = vectors.len() as i64 / features;
        if self.kind == "RBF" {
            let sv = b.floats(ElemType::F32, vec![count, features], vectors)?;
            let rows = b.squeeze_like(Unsqueeze, x, &[1])?;
            let diff = b.binary(Sub, rows, sv)?;
            let square = b.binary(Mul, diff, diff)?;
            let distance = b.reduce(ReduceSum, square, &[2], false)?;
            let scale = b.scalar(ElemType::F32, -self.gamma)?;
            let scaled = b.binary(Mul, distance, scale)?;
            return b.unary(Exp, scaled);
        }
        let (v, f) = (count as usize, features as usize);
        let transposed: Vec<f64> = (0..f * v).map(|k| vectors[(k % v) * f + k / v]).collect();
        let svt = b.floats(ElemType::F32, vec![features, count], &transposed)?;
        let dot = b.binary(MatMul, x, svt)?;
        if self.kind == "LINEAR" {
            return Some(dot);
        }
        let gamma = b.scalar(ElemType::F32, self.gamma)?;
        let coef0 = b.scalar(ElemType::F32, self.coef0)?;
        let scaled = b.binary(Mul, dot, gamma)?;
        let shifted = b.binary(Add, scaled, coef0)?;
        if self.kind == "SIGMOID" {
            return b.unary(Tanh, shifted);
        }
        let degree = self.degree;
        if degree == 1.0 {
            Some(shifted)
        } else if degree == 2.0 {
            b.binary(Mul, shifted, shifted)
        } else if degree == 3.0 {
            let square = b.binary(Mul, shifted, shifted)?;
            b.binary(Mul, square, shifted)
        } else {
            let degree = b.scalar(ElemType::F32, degree)?;
            b.binary(Pow, shifted, degree)
        }
    }
}

/// `x · Wᵀ + c` for a row-major `[rows, columns]` matrix `w` whose columns
/// match `x`'s last axis, `c` one constant for all.
fn times_transposed(b: &mut Builder, x: Value, w: &[f64], columns: usize, c: f64) -> Option<Value> {
    let rows = w.len() / columns;
    let transposed: Vec<f64> = (0..columns * rows)
        .map(|k| w[(k % rows) * columns + k / rows])
        .collect();
    let wt = b.floats(
        ElemType::F32,
        vec![columns as i64, rows as i64],
        &transposed,
    )?;
    let product = b.binary(MatMul, x, wt)?;
    let c = b.scalar(ElemType::F32, c)?;
    b.binary(Add, product, c)
}

/// Expands SVMRegressor: one score per row, `[N, 1]` (onnxruntime applies
/// no post transform).
pub(super) fn svm_regressor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, features) = float_rows(b)?;
    let coefficients = float_list(b, "coefficients")?;
    let rho = *float_list(b, "rho")?.first()?;
    let supports = b.int_attr("n_supports").unwrap_or(0);
    let y = if supports > 0 {
        let vectors = float_list(b, "support_vectors")?;
        if vectors.len() as i64 != supports * features || coefficients.len() as i64 != supports {
            return None;
        }
        let k = Kernel::of(b)?.apply(b, x, &vectors, features)?;
        times_transposed(b, k, &coefficients, supports as usize, rho)?
    } else {
        if coefficients.len() as i64 != features {
            return None;
        }
        times_transposed(b, x, &coefficients, features as usize, rho)?
    };
    let y = if b.int_attr("one_class").unwrap_or(0) != 0 {
        let zero = b.scalar(ElemType::F32, 0.0)?;
        let positive = b.binary(Greater, y, zero)?;
        let one = b.scalar(ElemType::F32, 1.0)?;
        let minus = b.scalar(ElemType::F32, -1.0)?;
        b.select(positive, one, minus)?
    } else {
        y
    };
    Some(vec![Some(y)])
}

/// Expands SVMClassifier as onnxruntime computes it.
///
/// With support vectors (one-vs-one): the label is the class with the
/// most votes (the first of them); the scores are the pairwise scores
/// through the post transform (two classes: `[-s, s]` under NONE,
/// `[σ(-s), σ(s)]` under LOGISTIC, the others not expanded), or with `prob_a`/`prob_b` the coupled class
/// probabilities through the post transform. Without (linear): scores
/// `x · Wᵀ + ρ₀`, the label the first highest, but with two classes the
/// second where the highest score is ≥ 0.5 (no negative coefficient) or
/// > 0 (some negative).
pub(super) fn svm_classifier(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, features) = float_rows(b)?;
    let (labels, classes) = class_labels(b, "classlabels_ints")?;
    let coefficients = float_list(b, "coefficients")?;
    let rho = float_list(b, "rho")?;
    let per_class = b.int_list("vectors_per_class").unwrap_or_default();
    let post = b
        .string_attr("post_transform")
        .unwrap_or_else(|| "NONE".into());
    if classes < 2 {
        return None;
    }
    let count: i64 = per_class.iter().sum();
    if count == 0 {
        return linear_svm_classifier(
            b,
            x,
            features,
            labels,
            classes,
            &coefficients,
            *rho.first()?,
        );
    }
    let vectors = float_list(b, "support_vectors")?;
    let pairs = classes * (classes - 1) / 2;
    if per_class.len() != classes
        || vectors.len() as i64 != count * features
        || coefficients.len() as i64 != (classes as i64 - 1) * count
        || rho.len() < pairs
    {
        return None;
    }
    let k = Kernel::of(b)?.apply(b, x, &vectors, features)?;

    // The pairwise scores, [N, pairs]: a linear map of the kernels.
    let count = count as usize;
    let starts: Vec<usize> = per_class
        .iter()
        .scan(0, |start, &n| {
            let s = *start;
            *start += n as usize;
            Some(s)
        })
        .collect();
    let mut w = vec![0.0; pairs * count];
    let mut votes_for = vec![0.0; pairs * classes];
    let mut base_votes = vec![0.0; classes];
    let mut p = 0;
    for i in 0..classes {
        for j in i + 1..classes {
            for (class, row) in [(i, j - 1), (j, i)] {
                for v in starts[class]..starts[class] + per_class[class] as usize {
                    w[p * count + v] = coefficients[row * count + v];
                }
            }
            votes_for[p * classes + i] = 1.0;
            votes_for[p * classes + j] = -1.0;
            base_votes[j] += 1.0;
            p += 1;
        }
    }
    let weights = {
        let wt: Vec<f64> = (0..count * pairs)
            .map(|k| w[(k % pairs) * count + k / pairs])
            .collect();
        b.floats(ElemType::F32, vec![count as i64, pairs as i64], &wt)?
    };
    let rho = b.floats(ElemType::F32, vec![pairs as i64], &rho[..pairs])?;
    let scores = b.binary(MatMul, k, weights)?;
    let scores = b.binary(Add, scores, rho)?;

    // The votes, [N, classes]: +1 to i where s_ij > 0, else +1 to j.
    let zero = b.scalar(ElemType::F32, 0.0)?;
    let positive = b.binary(Greater, scores, zero)?;
    let positive = b.cast(positive, ElemType::F32)?;
    let shift = b.floats(
        ElemType::F32,
        vec![pairs as i64, classes as i64],
        &votes_for,
    )?;
    let base_votes = b.floats(ElemType::F32, vec![classes as i64], &base_votes)?;
    let votes = b.binary(MatMul, positive, shift)?;
    let votes = b.binary(Add, votes, base_votes)?;
    let label = top_label(b, labels, votes)?;

    let (prob_a, prob_b) = (
        float_list(b, "prob_a").unwrap_or_default(),
        float_list(b, "prob_b").unwrap_or_default(),
    );
    let scores = if prob_a.is_empty() {
        if classes > 2 {
            post_transform(b, scores, pairs as i64)?
        } else if post == "NONE" {
            let negated = b.unary(Neg, scores)?;
            b.op(Concat, &[negated, scores], &[("axis", Attr::Int(1))])?
        } else if post == "LOGISTIC" {
            let negated = b.unary(Neg, scores)?;
            let p0 = b.unary(Sigmoid, negated)?;
            let p1 = b.unary(Sigmoid, scores)?;
            b.op(Concat, &[p0, p1], &[("axis", Attr::Int(1))])?
        } else {
            return None;
        }
    } else {
        if prob_a.len() < pairs || prob_b.len() < pairs {
            return None;
        }
        let probabilities =
            coupled_probabilities(b, scores, classes, &prob_a[..pairs], &prob_b[..pairs])?;
        post_transform(b, probabilities, classes as i64)?
    };
    Some(vec![Some(label), Some(scores)])
}

/// The linear SVMClassifier (no support vectors): scores `x · Wᵀ + ρ₀`
/// for the `[classes, F]` coefficients.
fn linear_svm_classifier(
    b: &mut Builder,
    x: Value,
    features: i64,
    labels: Value,
    classes: usize,
    coefficients: &[f64],
    rho: f64,
) -> Option<Vec<Option<Value>>> {
    if coefficients.len() as i64 != classes as i64 * features {
        return None;
    }
    let scores = times_transposed(b, x, coefficients, features as usize, rho)?;
    let index = first_max(b, scores)?;
    let index = if classes == 2 {
        let all_positive = coefficients.iter().all(|&c| c >= 0.0);
        let max = b.reduce(ReduceMax, scores, &[1], false)?;
        let second = if all_positive {
            let half = b.scalar(ElemType::F32, 0.5)?;
            b.binary(GreaterOrEqual, max, half)?
        } else {
            let zero = b.scalar(ElemType::F32, 0.0)?;
            b.binary(Greater, max, zero)?
        };
        let one = b.ints(&[1])?;
        b.select(second, one, index)?
    } else {
        index
    };
    let label = label_at(b, labels, index)?;
    let scores = post_transform(b, scores, classes as i64)?;
    Some(vec![Some(label), Some(scores)])
}

/// Class probabilities `[N, C]` from the pairwise scores `[N, pairs]`:
/// Platt's `r_ij = σ(-(s_ij·A + B))` clamped to `[1e-7, 1 - 1e-7]`
/// (`r_ji = 1 - r_ij`), then libsvm's coupling (Wu, Lin and Weng's second
/// method) as onnxruntime runs it: `Q_ii = Σ_j r_ji²`, `Q_ij = -r_ji r_ij`,
/// `p = 1/C`, and up to 100 sweeps updating one class at a time, a row
/// stopping once `max_i |(Qp)_i - pᵀQp| < 0.005 / C`.
fn coupled_probabilities(
    b: &mut Builder,
    scores: Value,
    classes: usize,
    prob_a: &[f64],
    prob_b: &[f64],
) -> Option<Value> {
    let (c, pairs) = (classes, prob_a.len());
    let a = b.floats(ElemType::F32, vec![pairs as i64], prob_a)?;
    let bias = b.floats(ElemType::F32, vec![pairs as i64], prob_b)?;
    let scaled = b.binary(Mul, scores, a)?;
    let shifted = b.binary(Add, scaled, bias)?;
    let negated = b.unary(Neg, shifted)?;
    let r = b.unary(Sigmoid, negated)?;
    let low = b.scalar(ElemType::F32, 1.0e-7)?;
    let high = b.scalar(ElemType::F32, 1.0 - 1.0e-7)?;
    let r = b.binary(Max, r, low)?;
    let r = b.binary(Min, r, high)?;

    // r as [N, C, C]: r_ij at (i, j), 1 - r_ij at (j, i), 0 on the diagonal.
    let mut upper = vec![0.0; pairs * c * c];
    let mut lower = vec![0.0; pairs * c * c];
    let mut p = 0;
    for i in 0..c {
        for j in i + 1..c {
            upper[p * c * c + i * c + j] = 1.0;
            lower[p * c * c + j * c + i] = 1.0;
            p += 1;
        }
    }
    let dims = vec![pairs as i64, (c * c) as i64];
    let upper = b.floats(ElemType::F32, dims.clone(), &upper)?;
    let lower = b.floats(ElemType::F32, dims, &lower)?;
    let one = b.scalar(ElemType::F32, 1.0)?;
    let complement = b.binary(Sub, one, r)?;
    let r_upper = b.binary(MatMul, r, upper)?;
    let r_lower = b.binary(MatMul, complement, lower)?;
    let r = b.binary(Add, r_upper, r_lower)?;
    let r = b.reshape(r, &[-1, c as i64, c as i64])?;

    // Q_ii = Σ_j r_ji² ([N, C]); Q_ij = -r_ij r_ji off the diagonal.
    let square = b.binary(Mul, r, r)?;
    let diagonal = b.reduce(ReduceSum, square, &[1], false)?;
    let rt = b.transpose(r, &[0, 2, 1])?;
    let product = b.binary(Mul, r, rt)?;
    let off = b.unary(Neg, product)?;
    let eye: Vec<f64> = (0..c * c)
        .map(|k| f64::from(u8::from(k / c == k % c)))
        .collect();
    let eye = b.floats(ElemType::F32, vec![c as i64, c as i64], &eye)?;
    let spread = b.squeeze_like(Unsqueeze, diagonal, &[1])?;
    let on = b.binary(Mul, spread, eye)?;
    let q = b.binary(Add, off, on)?;

    let zero = b.scalar(ElemType::F32, 0.0)?;
    let start = b.binary(Mul, diagonal, zero)?;
    let uniform = b.scalar(ElemType::F32, 1.0 / c as f64)?;
    let start = b.binary(Add, start, uniform)?;
    let trips = b.constant(TensorData::scalar(COUPLING_ITERATIONS))?;
    let eps = 0.005 / c as f64;
    let results = b.run_time_loop(trips, &[start], |b, _, carried| {
        let p0 = carried[0];
        let column = b.squeeze_like(Unsqueeze, p0, &[2])?;
        let qp = b.binary(MatMul, q, column)?;
        let mut qp = b.squeeze_like(Squeeze, qp, &[2])?;
        let weighted = b.binary(Mul, p0, qp)?;
        let mut pqp = b.reduce(ReduceSum, weighted, &[1], true)?;
        let gap = b.binary(Sub, qp, pqp)?;
        let gap = b.unary(Abs, gap)?;
        let error = b.reduce(ReduceMax, gap, &[1], true)?;
        let eps = b.scalar(ElemType::F32, eps)?;
        let done = b.binary(Less, error, eps)?;
        let one = b.scalar(ElemType::F32, 1.0)?;
        let two = b.scalar(ElemType::F32, 2.0)?;
        let mut p = p0;
        for i in 0..c as i64 {
            let qp_i = b.slice(qp, 1, i, i + 1)?;
            let q_ii = b.slice(diagonal, 1, i, i + 1)?;
            let q_row = b.slice(q, 1, i, i + 1)?;
            let q_row = b.squeeze_like(Squeeze, q_row, &[1])?;
            let gap = b.binary(Sub, pqp, qp_i)?;
            let diff = b.binary(Div, gap, q_ii)?;
            let unit: Vec<f64> = (0..c as i64).map(|k| f64::from(u8::from(k == i))).collect();
            let unit = b.floats(ElemType::F32, vec![c as i64], &unit)?;
            let step = b.binary(Mul, diff, unit)?;
            p = b.binary(Add, p, step)?;
            let grown = b.binary(Add, one, diff)?;
            // pᵀQp ← (pᵀQp + d (d Q_ii + 2 (Qp)_i)) / (1 + d)²
            let t = b.binary(Mul, diff, q_ii)?;
            let twice = b.binary(Mul, two, qp_i)?;
            let t = b.binary(Add, t, twice)?;
            let t = b.binary(Mul, diff, t)?;
            let t = b.binary(Add, pqp, t)?;
            let t = b.binary(Div, t, grown)?;
            pqp = b.binary(Div, t, grown)?;
            // Qp ← (Qp + d Q_i·) / (1 + d), p ← p / (1 + d)
            let moved = b.binary(Mul, diff, q_row)?;
            let moved = b.binary(Add, qp, moved)?;
            qp = b.binary(Div, moved, grown)?;
            p = b.binary(Div, p, grown)?;
        }
        let next = b.select(done, p0, p)?;
        Some((vec![next], vec![]))
    })?;
    results.first().copied()
}
