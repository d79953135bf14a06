//! What the op families share: reading shape-like operands (axes, sizes,
//! pads given as an attribute in early opsets and as a constant input
//! later; target shapes whose contents come from value propagation),
//! checking ranks and dims, and moving known integer values through
//! data-movement ops.

use crate::dim::Dim;
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::knowledge::{SymTensor, MAX_TRACKED_ELEMS};
use crate::ops::shape::fmt_dims;
use crate::tensor::checked_numel;
use crate::types::ElemType;

/// The spec's name of input `i` (for messages).
pub(crate) fn input_name(cx: &InferCtx, i: usize) -> &'static str {
    cx.op().schema().input_param(i).map_or("?", |p| p.name)
}

/// The static contents of integer input `i`; `Unknown` when they are not
/// known at compile time.
pub(crate) fn const_ints(cx: &InferCtx, i: usize) -> Result<Vec<i64>, Fail> {
    cx.const_ints(i).ok_or_else(|| {
        unknown!(
            "'{}' (input {i}) is not a known constant",
            input_name(cx, i)
        )
    })
}

/// An integer list that is the attribute `attr` before opset `input_since`
/// and the optional input `input` from then on; `None` when not given.
pub(crate) fn ints_attr_or_input(
    cx: &InferCtx,
    attr: &str,
    input: usize,
    input_since: u32,
) -> Result<Option<Vec<i64>>, Fail> {
    if cx.version() < input_since {
        cx.ints_opt(attr)
    } else if cx.has_input(input) {
        const_ints(cx, input).map(Some)
    } else {
        Ok(None)
    }
}

/// The known contents (possibly symbolic) of a 1-D integer input such as
/// a target shape.
pub(crate) fn shape_input(cx: &InferCtx, i: usize) -> Result<Vec<Dim>, Fail> {
    cx.sym_vector(i)
        .ok_or_else(|| unknown!("'{}' (input {i}) is not known", input_name(cx, i)))
}

/// The length of a 1-D input when its shape is static (how many dims a
/// shape operand describes even when its contents are unknown).
pub(crate) fn static_len(cx: &InferCtx, i: usize) -> Option<usize> {
    match cx.dims(i).ok()? {
        [Dim::Known(n)] => usize::try_from(*n).ok(),
        _ => None,
    }
}

/// The element type an `INT` attribute (`dtype`, `stash_type`, …) names.
pub(crate) fn elem_type(code: i64, name: &str) -> Result<ElemType, Fail> {
    i32::try_from(code)
        .ok()
        .and_then(ElemType::from_onnx)
        .ok_or_else(|| invalid!("attribute '{name}' = {code} is not a data type"))
}

/// Normalizes axes to `[0, rank)`, rejecting out-of-range and repeated ones.
pub(crate) fn normalize_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>, Fail> {
    let r = rank as i64;
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        if a < -r || a >= r {
            return Err(invalid!("axis {a} is out of range for rank {rank}"));
        }
        let a = if a < 0 { (a + r) as usize } else { a as usize };
        if out.contains(&a) {
            return Err(invalid!("axis {a} is repeated in {axes:?}"));
        }
        out.push(a);
    }
    Ok(out)
}

/// The product of dims (`Unknown` as soon as one factor is, unless another
/// is zero).
pub(crate) fn product<'a>(dims: impl IntoIterator<Item = &'a Dim>) -> Dim {
    dims.into_iter().fold(Dim::Known(1), |acc, d| acc.mul(d))
}

/// Checks that a dim that must be `expected` is not statically something
/// else; `what` names it in the message.
pub(crate) fn expect_dim(d: &Dim, expected: &Dim, what: &str) -> Result<(), Fail> {
    if d.definitely_ne(expected) {
        return Err(invalid!("{what} must be {expected}, got {d}"));
    }
    Ok(())
}

/// Merges two descriptions of dims that must be equal (the same dimension
/// seen through two operands); contradictions are errors naming `what`.
pub(crate) fn unify(a: &Dim, b: &Dim, what: &str) -> Result<Dim, Fail> {
    a.merge(b)
        .ok_or_else(|| invalid!("{what}: {a} and {b} differ"))
}

/// Requires a tensor of exactly `rank` dims.
pub(crate) fn expect_rank<'a>(dims: &'a [Dim], rank: usize, what: &str) -> Result<&'a [Dim], Fail> {
    if dims.len() != rank {
        return Err(invalid!(
            "{what} must have rank {rank}, got {}",
            fmt_dims(dims)
        ));
    }
    Ok(dims)
}

/// Reads input `i` and checks that it has rank `rank`.
pub(crate) fn dims_of_rank(cx: &InferCtx, i: usize, rank: usize) -> Result<Vec<Dim>, Fail> {
    let what = format!("'{}' (input {i})", input_name(cx, i));
    expect_rank(cx.dims(i)?, rank, &what).map(<[Dim]>::to_vec)
}

/// Reads input `i` and checks that its rank is at least `min`.
pub(crate) fn dims_min_rank(cx: &InferCtx, i: usize, min: usize) -> Result<Vec<Dim>, Fail> {
    let dims = cx.dims(i)?;
    if dims.len() < min {
        return Err(invalid!(
            "'{}' (input {i}) must have rank at least {min}, got {}",
            input_name(cx, i),
            fmt_dims(dims)
        ));
    }
    Ok(dims.to_vec())
}

/// Builds the known contents of a result of static `dims` whose element
/// at each coordinate is the element of `src` at the flat index `pick`
/// gives (how data-movement ops such as Slice, Tile or Gather move known
/// values). `None` when the result is too large to track or `pick` fails.
pub(crate) fn pick_elems(
    src: &SymTensor,
    dims: &[i64],
    pick: impl Fn(&[i64]) -> Option<usize>,
) -> Option<SymTensor> {
    let n = checked_numel(dims)?;
    if n > MAX_TRACKED_ELEMS {
        return None;
    }
    let mut coord = vec![0i64; dims.len()];
    let mut elems = Vec::with_capacity(n);
    for _ in 0..n {
        elems.push(src.elems.get(pick(&coord)?)?.clone());
        for k in (0..dims.len()).rev() {
            coord[k] += 1;
            if coord[k] < dims[k] {
                break;
            }
            coord[k] = 0;
        }
    }
    Some(SymTensor {
        dims: dims.to_vec(),
        elems,
    })
}

/// The row-major flat index of `coord` in a tensor of static `dims`.
pub(crate) fn flat_index(coord: &[i64], dims: &[i64]) -> usize {
    coord.iter().zip(dims).fold(0i64, |acc, (&c, &d)| {
        acc.saturating_mul(d).saturating_add(c)
    }) as usize
}

/// Dims that are all static, as integers.
pub(crate) fn known_dims(dims: &[Dim]) -> Option<Vec<i64>> {
    dims.iter().map(Dim::as_known).collect()
}

/// Records that result 0 holds input 0's known elements laid out with
/// the static `dims` (Reshape, Squeeze, Identity and friends).
pub(crate) fn forward_value(cx: &mut InferCtx, dims: &[Dim]) {
    let Some(src) = cx.sym_input(0) else { return };
    let Some(dims) = known_dims(dims) else { return };
    if checked_numel(&dims) == Some(src.elems.len()) {
        let value = SymTensor {
            dims,
            elems: src.elems.clone(),
        };
        cx.set_value(0, value);
    }
}
