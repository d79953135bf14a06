//! RotaryEmbedding (ai.onnx 23): rotates pairs of features of each head by
//! position-dependent angles.
//!
//! ```text
//! x          [B, H, S, D] → [B, S, H, D]   (3-D [B, S, H·D]: split into num_heads)
//! cos, sin   = cos_cache[position_ids], sin_cache[position_ids]   (the caches as they are without ids)
//!              → [B, S, 1, R/2]
//! x1, x2     = halves of x[…, :R]          (interleaved: even and odd features)
//! real       = cos · x1 - sin · x2
//! imag       = sin · x1 + cos · x2
//! y          = Concat(real, imag) (interleaved: re-interleaved), then x[…, R:], back to x's layout
//! ```
//!
//! R is `rotary_embedding_dim` (the head size by default). Every variant is
//! handled, with static or symbolic sizes (a symbolic head size is halved
//! as a quotient atom, checked even at run time; an `R` below it is
//! checked by the Slice that takes the rest).

use super::builder::{Builder, Size};
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;

/// Expands RotaryEmbedding as described in the module docs.
pub(super) fn rotary_embedding(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (input, cos, sin) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let rank = b.sym_dims(input)?.len();
    let x = match rank {
        4 => b.transpose(input, &[0, 2, 1, 3])?,
        3 => {
            let heads = b.int_attr("num_heads").filter(|&h| h > 0)?;
            b.reshape(input, &[0, 0, heads, -1])?
        }
        _ => return None,
    };
    // The rotated features: all (`None`), or the first `r` (checked at run
    // time to be at most a symbolic head size, by the Slice).
    let rotary = match (
        b.int_attr("rotary_embedding_dim").unwrap_or(0),
        b.size(x, 3)?,
    ) {
        (0, _) => None,
        (r, Size::Fixed(d)) if r == d && r % 2 == 0 => None,
        (r, Size::Fixed(d)) if r < d && r % 2 == 0 => Some((r, d)),
        (r, Size::Of(..)) if r > 0 && r % 2 == 0 => Some((r, i64::MAX)),
        _ => return None,
    };
    let (cos, sin) = match b.input(3) {
        Some(ids) => {
            let gather = [("axis", Attr::Int(0))];
            (
                b.op(Gather, &[cos, ids], &gather)?,
                b.op(Gather, &[sin, ids], &gather)?,
            )
        }
        None => (cos, sin),
    };
    let interleaved = b.int_attr("interleaved").unwrap_or(0) != 0;
    let rotate = match rotary {
        Some((r, _)) => b.slice(x, 3, 0, r)?,
        None => x,
    };
    // Interleaved pairs are the last axis of [B, S, H, R/2, 2]; halves are
    // the two rows of [B, S, H, 2, R/2] (the view, rather than a split of
    // the last axis, halves a symbolic R as a quotient atom).
    let (shape, split_axis, cache_axes) = if interleaved {
        ([0, 0, 0, -1, 2], 4, vec![2, 4])
    } else {
        ([0, 0, 0, 2, -1], 3, vec![2, 3])
    };
    let pairs = b.reshape(rotate, &shape)?;
    // Split-18 on needs its number of parts; before, it splits evenly
    // into its results (a contrib RotaryEmbedding in an older opset).
    let mut split = vec![("axis", Attr::Int(split_axis))];
    if b.opset >= 18 {
        split.push(("num_outputs", Attr::Int(2)));
    }
    let halves = b.node(Split, &[Some(pairs)], &split, 2)?;
    let (x1, x2) = (halves[0], halves[1]);
    let cos = b.squeeze_like(Unsqueeze, cos, &cache_axes)?;
    let sin = b.squeeze_like(Unsqueeze, sin, &cache_axes)?;
    let cos_x1 = b.binary(Mul, cos, x1)?;
    let sin_x2 = b.binary(Mul, sin, x2)?;
    let real = b.binary(Sub, cos_x1, sin_x2)?;
    let sin_x1 = b.binary(Mul, sin, x1)?;
    let cos_x2 = b.binary(Mul, cos, x2)?;
    let imag = b.binary(Add, sin_x1, cos_x2)?;
    let mut rotated = b.op(Concat, &[real, imag], &[("axis", Attr::Int(split_axis))])?;
    rotated = b.reshape(rotated, &[0, 0, 0, -1])?;
    if let Some((r, end)) = rotary {
        let rest = b.slice(x, 3, r, end)?;
        rotated = b.op(Concat, &[rotated, rest], &[("axis", Attr::Int(3))])?;
    }
    let y = match rank {
        4 => b.transpose(rotated, &[0, 2, 1, 3])?,
        _ => b.reshape(rotated, &[0, 0, -1])?,
    };
    Some(vec![Some(y)])
}
