//! `ai.onnx.ml` ops that are plain tensor ops in disguise:
//!
//! ```text
//! Binarizer(x)                = Cast(x > threshold, type of x)
//! ArrayFeatureExtractor(x, y) = Gather(x, Reshape(y, [-1]), axis = -1)
//!                               (with a leading 1 for a 1-D x)
//! ```
//!
//! the linear models, as onnxruntime computes them (its kernels are the
//! numeric reference; see each expansion for the cases):
//!
//! ```text
//! LinearRegressor(x)  = post(x · Wᵀ + b)
//! LinearClassifier(x) = (labels[ArgMax(s)], post(s)),  s = x · Wᵀ + b
//! Scaler(x)           = (x - offset) * scale
//! Normalizer(x)       = x / norm(x) per row (MAX, L1, L2; 0 norms left alone)
//! ```
//!
//! (a string label is a Gather of the label strings, which runs on the
//! host). The tree ensembles are in `tree.rs`, which shares the helpers
//! here (float input, post transform, class labels).

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands Binarizer over float, double, int32 and int64 inputs.
pub(super) fn binarizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let threshold = f64::from(b.float_attr("threshold")?);
    let threshold = match elem {
        ElemType::I64 => b.constant(TensorData::scalar(threshold as i64))?,
        ElemType::I32 => b.constant(TensorData::scalar(threshold as i32))?,
        e if e.is_float() => b.scalar(e, threshold)?,
        _ => return None,
    };
    let above = b.binary(Greater, x, threshold)?;
    Some(vec![Some(b.cast(above, elem)?)])
}

/// Expands ArrayFeatureExtractor: the entries of the last axis that the
/// (flattened) indices pick.
pub(super) fn array_feature_extractor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let indices = b.input(1)?;
    let indices = if b.rank(indices)? == 1 {
        indices
    } else {
        b.reshape(indices, &[-1])?
    };
    let rank = b.rank(x)?;
    let picked = b.op(
        Gather,
        &[x, indices],
        &[("axis", Attr::Int(rank as i64 - 1))],
    )?;
    let picked = if rank == 1 {
        b.squeeze_like(Unsqueeze, picked, &[0])?
    } else {
        picked
    };
    Some(vec![Some(picked)])
}

/// A `FLOATS` attribute as `f64`s; absent or empty is `None`.
pub(super) fn float_list(b: &Builder, name: &str) -> Option<Vec<f64>> {
    match b.attr(name)? {
        Attr::Floats(v) if !v.is_empty() => Some(v.into_iter().map(f64::from).collect()),
        _ => None,
    }
}

/// Input 0 of an ml op that computes in float: float, double, int32 or
/// int64, cast to float.
pub(super) fn float_input(b: &mut Builder) -> Option<Value> {
    let x = b.input(0)?;
    if !matches!(
        b.elem(x)?,
        ElemType::F32 | ElemType::F64 | ElemType::I32 | ElemType::I64
    ) {
        return None;
    }
    b.cast(x, ElemType::F32)
}

/// The input of a linear ml op as a float `[N, F]` matrix: cast from
/// double or an integer type, a 1-D `[F]` input taken as one row (as
/// onnxruntime takes it).
pub(super) fn float_rows(b: &mut Builder) -> Option<(Value, i64)> {
    let x = float_input(b)?;
    let x = match b.rank(x)? {
        1 => b.squeeze_like(Unsqueeze, x, &[0])?,
        2 => x,
        _ => return None,
    };
    let features = b.sym_dims(x)?.last()?.as_known()?;
    (features > 0).then_some((x, features))
}

/// `X · Wᵀ + intercepts` for the `[targets, F]` coefficients of a linear
/// ml op (intercepts absent: none).
fn linear_scores(b: &mut Builder, x: Value, features: i64) -> Option<(Value, i64)> {
    let w = float_list(b, "coefficients")?;
    let targets = w.len() as i64 / features;
    if targets == 0 || targets * features != w.len() as i64 {
        return None;
    }
    let (t, f) = (targets as usize, features as usize);
    let transposed: Vec<f64> = (0..f * t).map(|k| w[(k % t) * f + k / t]).collect();
    let wt = b.floats(ElemType::F32, vec![features, targets], &transposed)?;
    let scores = b.binary(MatMul, x, wt)?;
    Some(match float_list(b, "intercepts") {
        Some(c) if c.len() as i64 == targets => {
            let c = b.floats(ElemType::F32, vec![targets], &c)?;
            (b.binary(Add, scores, c)?, targets)
        }
        Some(_) => return None,
        None => (scores, targets),
    })
}

/// onnxruntime's `post_transform` of `[N, targets]` scores with more than
/// one target: SOFTMAX, LOGISTIC, SOFTMAX_ZERO (a softmax over the non-zero
/// scores, zeros staying 0); PROBIT is not expanded. A single target is
/// left as it is (onnxruntime transforms one score only by PROBIT).
pub(super) fn post_transform(b: &mut Builder, scores: Value, targets: i64) -> Option<Value> {
    let post = b
        .string_attr("post_transform")
        .unwrap_or_else(|| "NONE".into());
    if targets == 1 {
        return (post != "PROBIT").then_some(scores);
    }
    match post.as_str() {
        "NONE" => Some(scores),
        "SOFTMAX" => b.op(Softmax, &[scores], &[("axis", Attr::Int(1))]),
        "LOGISTIC" => b.unary(Sigmoid, scores),
        "SOFTMAX_ZERO" => {
            let zero = b.scalar(ElemType::F32, 0.0)?;
            let nonzero = b.binary(Equal, scores, zero)?;
            let nonzero = b.unary(Not, nonzero)?;
            let low = b.scalar(ElemType::F32, f64::from(f32::MIN))?;
            let masked = b.select(nonzero, scores, low)?;
            let max = b.reduce(ReduceMax, masked, &[1], true)?;
            let shifted = b.binary(Sub, scores, max)?;
            let exp = b.unary(Exp, shifted)?;
            let exp = b.select(nonzero, exp, zero)?;
            let sum = b.reduce(ReduceSum, exp, &[1], true)?;
            b.binary(Div, exp, sum)
        }
        _ => None,
    }
}

/// The class labels of a classifier (`classlabels_strings`, or the int64
/// labels under `ints`) as a constant, and their count.
pub(super) fn class_labels(b: &mut Builder, ints: &str) -> Option<(Value, usize)> {
    match (b.attr("classlabels_strings"), b.int_list(ints)) {
        (Some(Attr::Strings(s)), _) if !s.is_empty() => {
            let n = s.len();
            Some((
                b.constant(TensorData::from_strings(vec![n as i64], s).ok()?)?,
                n,
            ))
        }
        (_, Some(i)) if !i.is_empty() => Some((b.ints(&i)?, i.len())),
        _ => None,
    }
}

/// The index of each row's first highest score (`[N, C]` → `[N]`).
pub(super) fn first_max(b: &mut Builder, scores: Value) -> Option<Value> {
    b.op(
        ArgMax,
        &[scores],
        &[("axis", Attr::Int(1)), ("keepdims", Attr::Int(0))],
    )
}

/// The labels (a constant of [`class_labels`]) at `index` (a Gather, on
/// the host for string labels).
pub(super) fn label_at(b: &mut Builder, labels: Value, index: Value) -> Option<Value> {
    b.op(Gather, &[labels, index], &[("axis", Attr::Int(0))])
}

/// The label of each row's first highest score.
pub(super) fn top_label(b: &mut Builder, labels: Value, scores: Value) -> Option<Value> {
    let index = first_max(b, scores)?;
    label_at(b, labels, index)
}

/// Expands LinearRegressor: `X · Wᵀ + intercepts` (`[N, targets]`), then
/// the post transform (onnxruntime's).
pub(super) fn linear_regressor(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, features) = float_rows(b)?;
    let (scores, targets) = linear_scores(b, x, features)?;
    Some(vec![Some(post_transform(b, scores, targets)?)])
}

/// Expands LinearClassifier as onnxruntime computes it: scores
/// `X · Wᵀ + intercepts`; with several classes the label is the class
/// of the first highest raw score (a Gather of the labels by ArgMax: on
/// the host for string labels) and the scores go through the post
/// transform; with one coefficient row and two labels the label is the
/// second where the raw score `s` is positive, else the first, and the
/// scores are `[1 - p, p]` with `p` the score after the post transform
/// (NONE or LOGISTIC; the others are not expanded).
pub(super) fn linear_classifier(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, features) = float_rows(b)?;
    let (scores, targets) = linear_scores(b, x, features)?;
    let (labels, n_labels) = class_labels(b, "classlabels_ints")?;
    if targets == 1 {
        let post = b
            .string_attr("post_transform")
            .unwrap_or_else(|| "NONE".into());
        if n_labels != 2 || !matches!(post.as_str(), "NONE" | "LOGISTIC") {
            return None;
        }
        let zero = b.scalar(ElemType::F32, 0.0)?;
        let positive = b.binary(Greater, scores, zero)?;
        let positive = b.reshape(positive, &[-1])?;
        let index = b.cast(positive, ElemType::I64)?;
        let label = label_at(b, labels, index)?;
        let scores = if post == "LOGISTIC" {
            b.unary(Sigmoid, scores)?
        } else {
            scores
        };
        let one = b.scalar(ElemType::F32, 1.0)?;
        let other = b.binary(Sub, one, scores)?;
        let both = b.op(Concat, &[other, scores], &[("axis", Attr::Int(1))])?;
        return Some(vec![Some(label), Some(both)]);
    }
    if n_labels as i64 != targets {
        return None;
    }
    let label = top_label(b, labels, scores)?;
    let scores = post_transform(b, scores, targets)?;
    Some(vec![Some(label), Some(scores)])
}

/// Expands Scaler: `(X - offset) * scale` per column (or one value for
/// all), in float.
pub(super) fn scaler(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = float_input(b)?;
    let columns = b.sym_dims(x)?.last()?.as_known()?;
    let mut y = x;
    for (name, op) in [("offset", Sub), ("scale", Mul)] {
        if let Some(v) = float_list(b, name) {
            if v.len() != 1 && v.len() as i64 != columns {
                return None;
            }
            let c = b.floats(ElemType::F32, vec![v.len() as i64], &v)?;
            y = b.binary(op, y, c)?;
        }
    }
    Some(vec![Some(y)])
}

/// Expands Normalizer over the rows of a `[N, C]` (or `[C]`) input, as
/// onnxruntime computes it: MAX divides by the row's largest value, L1
/// by the sum of absolute values, L2 by the square root of the sum of
/// squares; a row whose divisor is 0 is left as it is.
pub(super) fn normalizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = float_input(b)?;
    let axis = b.rank(x)? as i64 - 1;
    let norm = match b.string_attr("norm")?.as_str() {
        "MAX" => b.reduce(ReduceMax, x, &[axis], true)?,
        "L1" => {
            let abs = b.unary(Abs, x)?;
            b.reduce(ReduceSum, abs, &[axis], true)?
        }
        "L2" => {
            let square = b.binary(Mul, x, x)?;
            let sum = b.reduce(ReduceSum, square, &[axis], true)?;
            b.unary(Sqrt, sum)?
        }
        _ => return None,
    };
    let zero = b.scalar(ElemType::F32, 0.0)?;
    let one = b.scalar(ElemType::F32, 1.0)?;
    let is_zero = b.binary(Equal, norm, zero)?;
    let norm = b.select(is_zero, one, norm)?;
    Some(vec![Some(b.binary(Div, x, norm)?)])
}

/// Expands OneHotEncoder: `Cast(x[..., None] == cats, float)`, one more
/// axis of the categories. int64 and int32 inputs compare as int64, float
/// and double ones truncated to int64 as onnxruntime does; strings first
/// become their category's index by a CategoryMapper on the host (-1 for
/// none), which then compares with `0..C`. An unknown category gives a
/// row of zeros (onnxruntime fails on one when `zeros` is 0).
pub(super) fn one_hot_encoder(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let (x, cats) = match (b.attr("cats_strings"), b.int_list("cats_int64s")) {
        (Some(Attr::Strings(s)), _) if !s.is_empty() && b.elem(x)? == ElemType::String => {
            let indices: Vec<i64> = (0..s.len() as i64).collect();
            let attrs = [
                ("cats_strings", Attr::Strings(s)),
                ("cats_int64s", Attr::Ints(indices.clone())),
                ("default_int64", Attr::Int(-1)),
            ];
            let index = b.node(CategoryMapper, &[Some(x)], &attrs, 1)?[0];
            (index, b.ints(&indices)?)
        }
        (_, Some(ints)) if !ints.is_empty() && b.elem(x)? != ElemType::String => {
            (b.cast(x, ElemType::I64)?, b.ints(&ints)?)
        }
        _ => return None,
    };
    let axis = b.rank(x)? as i64;
    let x = b.squeeze_like(Unsqueeze, x, &[axis])?;
    let equal = b.binary(Equal, x, cats)?;
    Some(vec![Some(b.cast(equal, ElemType::F32)?)])
}

/// Expands Imputer: `Where(x is the replaced value, imputed, x)` per
/// column of the last axis (or one imputed value for all); a NaN replaced
/// value (float inputs) matches NaNs.
pub(super) fn imputer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let x = b.input(0)?;
    let elem = b.elem(x)?;
    let (replaced, imputed) = if elem == ElemType::I64 {
        let replaced = b.int_attr("replaced_value_int64").unwrap_or(0);
        let imputed = b.int_list("imputed_value_int64s")?;
        let replaced = b.constant(TensorData::scalar(replaced))?;
        let imputed = match imputed.as_slice() {
            [] => return None,
            [one] => b.constant(TensorData::scalar(*one))?,
            many => b.ints(many)?,
        };
        (replaced, imputed)
    } else if elem == ElemType::F32 {
        let replaced = b.float_attr("replaced_value_float").unwrap_or(0.0);
        let imputed = float_list(b, "imputed_value_floats")?;
        let imputed = b.floats(ElemType::F32, vec![imputed.len() as i64], &imputed)?;
        if replaced.is_nan() {
            let nan = b.unary(IsNaN, x)?;
            return Some(vec![Some(b.select(nan, imputed, x)?)]);
        }
        (b.scalar(ElemType::F32, f64::from(replaced))?, imputed)
    } else {
        return None;
    };
    let hit = b.binary(Equal, x, replaced)?;
    Some(vec![Some(b.select(hit, imputed, x)?)])
}

/// Expands FeatureVectorizer: each input cast to float as `[N, C_i]` (a
/// 1-D input one row), cut or zero-padded to its `inputdimensions` width
/// as onnxruntime does, then concatenated along the features.
pub(super) fn feature_vectorizer(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let widths = b.int_list("inputdimensions")?;
    let count = b.target().inputs.len();
    if widths.len() != count {
        return None;
    }
    let mut parts = vec![];
    for (i, &want) in widths.iter().enumerate() {
        let x = b.input(i)?;
        if !matches!(
            b.elem(x)?,
            ElemType::F32 | ElemType::F64 | ElemType::I32 | ElemType::I64
        ) {
            return None;
        }
        let x = b.cast(x, ElemType::F32)?;
        let x = match b.rank(x)? {
            1 => b.squeeze_like(Unsqueeze, x, &[0])?,
            2 => x,
            _ => return None,
        };
        let have = b.sym_dims(x)?.last()?.as_known()?;
        let x = if have > want {
            b.slice(x, 1, 0, want)?
        } else if have < want {
            let pads = b.ints(&[0, 0, 0, want - have])?;
            b.op(Pad, &[x, pads], &[])?
        } else {
            x
        };
        parts.push(x);
    }
    let y = match parts.as_slice() {
        [one] => *one,
        _ => b.op(Concat, &parts, &[("axis", Attr::Int(1))])?,
    };
    Some(vec![Some(y)])
}
