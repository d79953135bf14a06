//! The classification losses: NegativeLogLikelihoodLoss (ai.onnx 12, 13,
//! 22) and SoftmaxCrossEntropyLoss (12, 13).
//!
//! ```text
//! input [N, C, d…], target [N, d…] (integers), weight [C] (optional)
//! t      = Where(target == ignore_index, 0, target)        (an index in range)
//! w      = weight[t] (1 without weights), 0 where target == ignore_index
//! loss   = -input[n, t[n, d…], d…] · w                      (GatherElements on axis 1)
//! none: loss   sum: ΣLoss   mean: ΣLoss / Σw (ΣLoss / count without weights or ignore_index)
//! SoftmaxCrossEntropyLoss(x) = NegativeLogLikelihoodLoss(LogSoftmax(x, axis 1)),
//! with log_prob = LogSoftmax(x, axis 1) as its optional second result.
//! ```
//!
//! Every reduction, weights and `ignore_index` are handled; inputs of
//! unknown rank are not.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands NegativeLogLikelihoodLoss.
pub(super) fn negative_log_likelihood(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (input, target) = (b.input(0)?, b.input(1)?);
    Some(vec![Some(nll(b, input, target)?)])
}

/// Expands SoftmaxCrossEntropyLoss.
pub(super) fn softmax_cross_entropy(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (scores, target) = (b.input(0)?, b.input(1)?);
    let log_prob = b.op(LogSoftmax, &[scores], &[("axis", Attr::Int(1))])?;
    let loss = nll(b, log_prob, target)?;
    Some(vec![Some(loss), b.wants_result(1).then_some(log_prob)])
}

/// The negative log-likelihood of `target` under the log-probabilities
/// `input`, with the op's `weight` input (2), `ignore_index` and
/// `reduction`.
fn nll(b: &mut Builder, input: Value, target: Value) -> Option<Value> {
    let elem = b.elem(input)?;
    let rank = b.rank(input)?;
    let reduction = b
        .string_attr("reduction")
        .unwrap_or_else(|| "mean".to_string());
    let weight = b.input(2);
    let ignored = match b.int_attr("ignore_index") {
        Some(index) => {
            let index = int_scalar(b, b.elem(target)?, index)?;
            Some(b.binary(Equal, target, index)?)
        }
        None => None,
    };
    let index = match ignored {
        Some(ignored) => {
            let zero = int_scalar(b, b.elem(target)?, 0)?;
            b.select(ignored, zero, target)?
        }
        None => target,
    };
    let wide = b.squeeze_like(Unsqueeze, index, &[1])?;
    let picked = b.op(GatherElements, &[input, wide], &[("axis", Attr::Int(1))])?;
    let picked = b.squeeze_like(Squeeze, picked, &[1])?;
    let negated = b.unary(Neg, picked)?;
    let mut w = match weight {
        Some(weight) => Some(b.op(Gather, &[weight, index], &[("axis", Attr::Int(0))])?),
        None => None,
    };
    if let Some(ignored) = ignored {
        let zero = b.scalar(elem, 0.0)?;
        let kept = match w {
            Some(w) => w,
            None => b.scalar(elem, 1.0)?,
        };
        w = Some(b.select(ignored, zero, kept)?);
    }
    let loss = match w {
        Some(w) => b.binary(Mul, negated, w)?,
        None => negated,
    };
    let axes: Vec<i64> = (0..rank as i64 - 1).collect();
    match reduction.as_str() {
        "none" => Some(loss),
        "sum" => b.reduce(ReduceSum, loss, &axes, false),
        "mean" => match w {
            Some(w) => {
                let total = b.reduce(ReduceSum, loss, &axes, false)?;
                let weights = b.reduce(ReduceSum, w, &axes, false)?;
                b.binary(Div, total, weights)
            }
            None => b.reduce(ReduceMean, loss, &axes, false),
        },
        _ => None,
    }
}

/// An integer scalar of `elem` (the target's type: int32 or int64).
fn int_scalar(b: &mut Builder, elem: ElemType, value: i64) -> Option<Value> {
    let data = match elem {
        ElemType::I64 => TensorData::scalar(value),
        ElemType::I32 => TensorData::scalar(i32::try_from(value).ok()?),
        _ => return None,
    };
    b.constant(data)
}
