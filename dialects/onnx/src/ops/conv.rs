//! TODO(family): shape inference for this family.

use crate::infer::{Fail, InferCtx};
use crate::unknown;

pub(crate) fn infer(cx: &mut InferCtx) -> Result<(), Fail> {
    Err(unknown!(
        "shape inference for {} is not implemented yet",
        cx.kind().name()
    ))
}
