//! Normalizations, softmax-like ops and Dropout: the main result always has
//! the input's shape and type; what differs is the statistics outputs and
//! the checks on the parameter operands.
//!
//! | op | computes | extra results | opsets |
//! |----|----------|---------------|--------|
//! | BatchNormalization | `(x − mean) / √(var + ε) · scale + B` per channel | training: mean, var, saved mean/var `[C]` (1–9, of `T`); running mean/var `[C]` (14, 15: of the mean input's type) | 1, 6, 7, 9, 14, 15 |
//! | InstanceNormalization | per-instance, per-channel normalization | — | 1, 6, 22 |
//! | LayerNormalization | normalization over dims `[axis, r)` | Mean, InvStdDev: `d[..axis] ++ [1…]` of `stash_type` | 17 |
//! | GroupNormalization | normalization over channel groups | — (scale/bias `[num_groups]` in 18, `[C]` in 21) | 18, 21 |
//! | RMSNormalization | root-mean-square normalization over `[axis, r)` | — | 23 |
//! | LpNormalization / MeanVarianceNormalization / LRN | p-norm along `axis` / zero mean unit variance / local response | — | 1, 22 / 9, 13 / 1, 13 |
//! | Softmax / LogSoftmax / Hardmax | along `axis` (2-D coercion before 13) | — | 1, 11, 13 |
//! | Dropout | random zeroing (identity at inference) | mask: `T` (1–7), bool (10+) | 1, 6, 7, 10, 12, 13, 22 |

use super::operand::{dims_min_rank, dims_of_rank, elem_type, expect_rank, unify};
use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{fmt_dims, normalize_axis};
use crate::schema::NormOp;
use crate::types::{ElemType, Type};

pub(crate) fn infer(op: NormOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use NormOp::*;
    match op {
        BatchNormalization => batch_norm(cx),
        InstanceNormalization => {
            let dims = dims_min_rank(cx, 0, 3)?;
            for i in 1..3 {
                unify(
                    &dims_of_rank(cx, i, 1)?[0],
                    &dims[1],
                    "the channels of scale/B and input",
                )?;
            }
            same_as_input(cx)
        }
        LayerNormalization => layer_norm(cx),
        GroupNormalization => group_norm(cx),
        RMSNormalization => {
            let r = cx.rank(0)?;
            normalize_axis(cx.int("axis")?, r)?;
            same_as_input(cx)
        }
        LpNormalization | Softmax | LogSoftmax | Hardmax => {
            let r = cx.rank(0)?;
            normalize_axis(cx.int("axis")?, r)?;
            same_as_input(cx)
        }
        MeanVarianceNormalization => {
            let r = cx.rank(0)?;
            for a in cx.ints_opt("axes")?.unwrap_or_default() {
                normalize_axis(a, r)?;
            }
            same_as_input(cx)
        }
        LRN => {
            dims_min_rank(cx, 0, 3)?;
            if cx.int("size")? <= 0 {
                return Err(invalid!("size must be positive"));
            }
            same_as_input(cx)
        }
        Dropout => dropout(cx),
    }
}

/// Result 0 is input 0's type.
fn same_as_input(cx: &mut InferCtx) -> Result<(), Fail> {
    let t = cx.tensor(0)?.clone();
    cx.set_type(0, Type::Tensor(t));
    Ok(())
}

fn batch_norm(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    let mut channels = match x.dims() {
        Some([_, c, ..]) => c.clone(),
        Some([_]) => Dim::Known(1),
        Some(d) => {
            return Err(invalid!(
                "input must have rank at least 1, got {}",
                fmt_dims(d)
            ))
        }
        None => Dim::Unknown,
    };
    // Before opset 9, `spatial = 0` allowed per-element parameters of shape d[1..].
    let per_channel = cx.version() >= 9 || cx.int_opt("spatial")?.unwrap_or(1) != 0;
    if per_channel {
        for i in 1..5 {
            if let Ok(d) = cx.dims(i) {
                let d = expect_rank(d, 1, &format!("input {i}"))?;
                channels = unify(
                    &channels,
                    &d[0],
                    &format!("the channels of input {i} and X"),
                )?;
            }
        }
    }
    cx.set_type(0, Type::Tensor(x.clone()));
    let training = match cx.version() {
        v if v >= 14 => cx.int_opt("training_mode")?.unwrap_or(0) != 0,
        _ => cx.num_outputs() > 1,
    };
    if cx.version() >= 14 && !training && cx.num_outputs() > 1 && (1..3).any(|i| cx.has_output(i)) {
        return Err(invalid!(
            "running mean and variance are outputs only with training_mode = 1"
        ));
    }
    if training {
        let stats = if per_channel {
            vec![channels]
        } else {
            x.dims().map_or(vec![], |d| d[1..].to_vec())
        };
        for i in 1..cx.num_outputs() {
            // Opset 14+ running statistics take the mean/var inputs' type.
            let elem = if cx.version() >= 14 {
                cx.elem(i + 2)?
            } else {
                x.elem
            };
            cx.set_tensor(i, elem, stats.clone());
        }
    }
    Ok(())
}

fn layer_norm(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    let stash = elem_type(cx.int("stash_type")?, "stash_type")?;
    cx.set_type(0, Type::Tensor(x.clone()));
    let dims = cx.dims(0)?.to_vec();
    let axis = normalize_axis(cx.int("axis")?, dims.len())?;
    let stats: Vec<Dim> = dims
        .iter()
        .enumerate()
        .map(|(i, d)| if i < axis { d.clone() } else { Dim::Known(1) })
        .collect();
    cx.set_tensor(1, stash, stats.clone());
    cx.set_tensor(2, stash, stats);
    Ok(())
}

fn group_norm(cx: &mut InferCtx) -> Result<(), Fail> {
    let dims = dims_min_rank(cx, 0, 2)?;
    let groups = cx.int("num_groups")?;
    if groups <= 0 {
        return Err(invalid!("num_groups must be positive, got {groups}"));
    }
    if let Dim::Known(c) = dims[1] {
        if c % groups != 0 {
            return Err(invalid!("{c} channels do not divide into {groups} groups"));
        }
    }
    // Opset 18 scales per group, opset 21 per channel.
    let params = if cx.version() >= 21 {
        dims[1].clone()
    } else {
        Dim::Known(groups)
    };
    for i in 1..3 {
        unify(
            &dims_of_rank(cx, i, 1)?[0],
            &params,
            &format!("the length of input {i}"),
        )?;
    }
    same_as_input(cx)
}

fn dropout(cx: &mut InferCtx) -> Result<(), Fail> {
    let x = cx.tensor(0)?.clone();
    if cx.version() >= 12 {
        for i in 1..3 {
            if let Some(d) = cx.opt_tensor(i)?.and_then(|t| t.dims()) {
                if !d.is_empty() {
                    return Err(invalid!(
                        "input {i} must be a scalar, got shape {}",
                        fmt_dims(d)
                    ));
                }
            }
        }
    }
    let mask = if cx.version() >= 10 {
        ElemType::Bool
    } else {
        x.elem
    };
    cx.set_type(0, Type::Tensor(x.clone()));
    if cx.has_output(1) {
        cx.set_type(
            1,
            Type::Tensor(crate::types::TensorType {
                elem: mask,
                shape: x.shape,
            }),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn batch_norm_by_version() {
        let bn = |c: &str| [ti("2x3x4x5xf32"), ti(c), ti(c), ti(c), ti(c)];
        infers! {
            15 BatchNormalization(ti("2x3x4x5xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32")) => "2x3x4x5xf32";
            15 BatchNormalization(ti("2x3x4x5xf16"), ti("3xf16"), ti("3xf16"), ti("3xf32"), ti("3xf32"); training_mode = int(1)) => ["2x3x4x5xf16", "3xf32", "3xf32"];
            9 BatchNormalization(ti("2x3x4x5xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32")) => ["2x3x4x5xf32", "3xf32", "3xf32", "3xf32", "3xf32"];
            15 BatchNormalization(ti("2x3x4x5xf32"), ti("4xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32")) => Fails(1, "channels of input 1");
            15 BatchNormalization(ti("2x3x4x5xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32"), ti("3xf32")) => Fails(3, "training_mode");
            6 BatchNormalization(ti("2x3x4x5xf32"), ti("3x4x5xf32"), ti("3x4x5xf32"), ti("3x4x5xf32"), ti("3x4x5xf32"); spatial = int(0)) => "2x3x4x5xf32";
        }
        let [x, s, b, m, v] = bn("Cxf32");
        infers! { 15 BatchNormalization(x, s, b, m, v; training_mode = int(1)) => ["2x3x4x5xf32", "3xf32", "3xf32"]; }
    }

    #[test]
    fn layer_group_rms_instance() {
        infers! {
            17 LayerNormalization(ti("2x3x4xf16"), ti("4xf16"), ti("4xf16")) => ["2x3x4xf16", "2x3x1xf32", "2x3x1xf32"];
            17 LayerNormalization(ti("2x3x4xf16"), ti("3x4xf16"); axis = int(1), stash_type = int(10)) => ["2x3x4xf16", "2x1x1xf16", "2x1x1xf16"];
            17 LayerNormalization(ti("2x3x4xf32"), ti("4xf32"); axis = int(3)) => Fails(3, "out of range");
            18 GroupNormalization(ti("2x6x4xf32"), ti("3xf32"), ti("3xf32"); num_groups = int(3)) => "2x6x4xf32";
            21 GroupNormalization(ti("2x6x4xf32"), ti("6xf32"), ti("6xf32"); num_groups = int(3)) => "2x6x4xf32";
            21 GroupNormalization(ti("2x6x4xf32"), ti("3xf32"), ti("3xf32"); num_groups = int(3)) => Fails(1, "length of input 1");
            21 GroupNormalization(ti("2x6x4xf32"), ti("6xf32"), ti("6xf32"); num_groups = int(4)) => Fails(1, "do not divide");
            23 RMSNormalization(ti("2x3x4xf32"), ti("4xf32")) => "2x3x4xf32";
            22 InstanceNormalization(ti("2x3x4xf32"), ti("3xf32"), ti("3xf32")) => "2x3x4xf32";
            22 InstanceNormalization(ti("2x3x4xf32"), ti("2xf32"), ti("3xf32")) => Fails(1, "channels");
        }
    }

    #[test]
    fn softmax_lrn_dropout() {
        infers! {
            13 Softmax(ti("2x3x4xf32")) => "2x3x4xf32";
            13 LogSoftmax(ti("2x3x4xf32"); axis = int(-3)) => "2x3x4xf32";
            13 Hardmax(ti("2x3x4xf32"); axis = int(3)) => Fails(1, "out of range");
            1 Softmax(ti("NxCxf32")) => "NxCxf32";
            13 LRN(ti("2x3x4x4xf32"); size = int(3)) => "2x3x4x4xf32";
            13 MeanVarianceNormalization(ti("2x3x4x4xf32")) => "2x3x4x4xf32";
            22 LpNormalization(ti("2x3xf32"); axis = int(0)) => "2x3xf32";
            22 Dropout(ti("2x3xf32")) => ["2x3xf32", "2x3xi1"];
            22 Dropout(ti("2x3xf32"), cf(&[0.5])) => Fails(2, "must be a scalar");
            7 Dropout(ti("2x3xf32")) => ["2x3xf32", "2x3xf32"];
            10 Dropout(ti("2x3xf32")) => ["2x3xf32", "2x3xi1"];
        }
    }
}
