//! onnxruntime's contrib operators (domain `com.microsoft`, text prefix
//! `ms`, and onnxruntime's `SimplifiedLayerNormalization` of ai.onnx):
//! the contrib family. Their schemas come from the onnxruntime package
//! (`tools/contrib_ops.py`); onnxruntime's ContribOperators documentation
//! says what each computes.
//!
//! None of them is lowered: the `decompose` pass expands those it knows
//! into standard operators (`decompose/contrib*.rs`), inferring each op it
//! builds, and the lowering refuses the rest by node, op type and domain.
//! So inference says nothing of their results before the expansion: the
//! expansion's ops do, and `decompose` infers the ops after an expanded
//! contrib op again.

use crate::ops::ctx::{unknown, Fail, InferCtx};
use crate::schema::ContribOp;

pub(crate) fn infer(op: ContribOp, _cx: &mut InferCtx) -> Result<(), Fail> {
    Err(unknown!(
        "{op:?} is inferred through its expansion (the decompose pass)"
    ))
}
