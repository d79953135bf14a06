//! The code of the model's entry check: `i1` values computing whether the
//! shape conditions the kernels rely on ([`Check`], gathered from the op
//! families by `ops::entry_checks`) hold for the symbols' values and the
//! graph inputs. `model.rs` wraps them in `omlc_check`.

use melior::ir::r#type::{MemRefType, ShapedTypeLike};
use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::{Dim, ElemType};

use crate::builder::{CmpiPredicate, Emitter};
use crate::error::{LowerError, Result};
use crate::ops::reduce::reduction::axes_mask;
use crate::ops::signal::{dft_holds, stft_holds, Transform};
use crate::ops::vision::resized_hold;
use crate::symbols::{evaluate, Check, Scalar, Symbols};

/// Emits `i1` true when every check of [`checks`] holds for the symbols'
/// `values` and the graph inputs' buffers `inputs` (memrefs, in the
/// order of `omlc_model`'s inputs).
pub fn emit_check<'c, 'a>(
    e: &Emitter<'c, 'a>,
    symbols: &Symbols,
    values: &[MValue<'c, 'a>],
    inputs: &[MValue<'c, 'a>],
    checks: &[Check],
) -> Result<MValue<'c, 'a>> {
    let mut ok = e.i(e.int_type(1), 1);
    let size = |d: &Dim| -> Result<MValue<'c, 'a>> {
        if !symbols.binds(d) {
            return Err(LowerError::UnsupportedType {
                ty: d.to_string(),
                what: "a size checked at run time (a size that is not a polynomial over the \
                       inputs' dim_params)"
                    .into(),
            });
        }
        Ok(evaluate(e, symbols, values, d))
    };
    let scalar = |s: &Scalar| match s {
        Scalar::Size(d) => size(d),
        Scalar::Input { input, elem } => Ok(input_entry(e, inputs[*input], *elem, None)),
    };
    for check in checks {
        let holds = match check {
            Check::Broadcast(d, y) | Check::Equal(d, y) => {
                let (d, y) = (size(d)?, size(y)?);
                let same = e.cmpi(CmpiPredicate::Eq, d, y);
                match check {
                    Check::Broadcast(..) => {
                        let one = e.cmpi(CmpiPredicate::Eq, d, e.index(1));
                        e.ori(one, same)
                    }
                    _ => same,
                }
            }
            Check::AtLeast(d, bound) => {
                // Signed `>=`.
                e.cmpi(CmpiPredicate::Sge, size(d)?, e.index(*bound))
            }
            Check::Divisible(a, b) => {
                let (a, b) = (size(a)?, size(b)?);
                let zero = e.index(0);
                let nonzero = e.cmpi(CmpiPredicate::Ne, b, zero);
                let safe = e.select(nonzero, b, e.index(1));
                let rem = e.remsi(a, safe);
                let exact = e.cmpi(CmpiPredicate::Eq, rem, zero);
                e.andi(nonzero, exact)
            }
            Check::Axes {
                input,
                len,
                keepdims,
                noop,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                let len = size(len)?;
                axes_hold(e, inputs[*input], len, (*keepdims, *noop), &x, &y)
            }
            Check::Count {
                input,
                len,
                expected,
            } => {
                let buffer = inputs[*input];
                let (zero, one) = (e.index(0), e.index(1));
                let len = e.maxsi(size(len)?, zero);
                let count = e.for_loop(zero, len, &[zero], |le, t, c| {
                    let v = le.load(buffer, &[t]);
                    let selected = le.cmpi(CmpiPredicate::Ne, v, le.i(le.int_type(8), 0));
                    vec![le.select(selected, le.addi(c[0], one), c[0])]
                })[0];
                e.cmpi(CmpiPredicate::Eq, count, size(expected)?)
            }
            Check::SliceLength {
                dim,
                start,
                end,
                step,
                expected,
            } => {
                let n = slice_length(e, size(dim)?, *start, *end, *step);
                e.cmpi(CmpiPredicate::Eq, n, size(expected)?)
            }
            Check::ShapeOperand {
                input,
                len,
                tile,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                let len = size(len)?;
                shape_operand_holds(e, inputs[*input], len, *tile, &x, &y)
            }
            Check::Resized {
                input,
                elem,
                rule,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                resized_hold(e, inputs[*input], *elem, *rule, &x, &y)
            }
            Check::Value {
                input,
                elem,
                entry,
                expected,
            } => {
                let v = input_entry(e, inputs[*input], *elem, *entry);
                e.cmpi(CmpiPredicate::Eq, v, size(expected)?)
            }
            Check::Dft {
                axis,
                length,
                inverse,
                onesided,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                let length = length.as_ref().map(scalar).transpose()?;
                let transform = Transform {
                    inverse: *inverse,
                    onesided: *onesided,
                };
                dft_holds(e, scalar(axis)?, length, transform, &x, &y)
            }
            Check::Stft {
                step,
                length,
                onesided,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                stft_holds(e, scalar(step)?, scalar(length)?, *onesided, &x, &y)
            }
        };
        ok = e.andi(ok, holds);
    }
    Ok(ok)
}

/// Emits entry `entry` of graph input `buffer` (a vector), else its single
/// entry (a scalar or a vector of one), as an index; a float (OneHot's
/// depth) is truncated, as the reference casts it to int64.
fn input_entry<'c, 'a>(
    e: &Emitter<'c, 'a>,
    buffer: MValue<'c, 'a>,
    elem: ElemType,
    entry: Option<usize>,
) -> MValue<'c, 'a> {
    let at: Vec<MValue> = match entry {
        Some(j) => vec![e.index(j as i64)],
        None => {
            let rank = MemRefType::try_from(buffer.r#type()).map_or(0, |m| m.rank());
            (0..rank).map(|_| e.index(0)).collect()
        }
    };
    let mut v = e.load(buffer, &at);
    if elem.is_float() {
        v = e.fptosi(v, e.int_type(64));
    }
    e.index_cast(v, Type::index(e.cx))
}

/// Emits the number of elements a slice of a dim of run-time size `d`
/// selects from `start` to `end` by `step` (the spec's clamping: negative
/// bounds count from the end; then `[0, d]` for a positive step,
/// `[0, d-1]` and `[-1, d-1]` for a negative one).
fn slice_length<'c, 'a>(
    e: &Emitter<'c, 'a>,
    d: MValue<'c, 'a>,
    start: i64,
    end: i64,
    step: i64,
) -> MValue<'c, 'a> {
    let bound = |v: i64, low: i64, high: MValue<'c, 'a>| {
        let v = if v < 0 {
            e.addi(e.index(v), d)
        } else {
            e.index(v)
        };
        let v = e.maxsi(v, e.index(low));
        e.minsi(v, high)
    };
    let span = if step > 0 {
        let (s, t) = (bound(start, 0, d), bound(end, 0, d));
        e.subi(t, s)
    } else {
        let last = e.subi(d, e.index(1));
        let s = bound(start, 0, e.maxsi(last, e.index(0)));
        let t = bound(end, -1, last);
        e.subi(s, t)
    };
    // A step this large selects at most one element either way.
    let k = step.checked_abs().unwrap_or(i64::MAX).min(1 << 40);
    let up = e.addi(span, e.index(k - 1));
    let n = e.divsi(up, e.index(k));
    e.maxsi(n, e.index(0))
}

/// Emits `i1` true when the `len` int64 entries of `operand` (a memref)
/// give sizes `y` from sizes `x` ([`Check::ShapeOperand`]). Only the
/// entries that exist are read: a loop over `min(len, rank)` of them.
///
/// Tile's repeats are one per dim. Expand's shape is right-aligned with
/// `y` and may be shorter when `x` has `y`'s rank: a dim it does not
/// reach is `x`'s own (as an entry of 1 would give).
fn shape_operand_holds<'c, 'a>(
    e: &Emitter<'c, 'a>,
    operand: MValue<'c, 'a>,
    len: MValue<'c, 'a>,
    tile: bool,
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let rank = e.index(y.len() as i64);
    let lead = y.len() - x.len().min(y.len());
    let i1 = e.int_type(1);
    let count = e.minsi(len, rank);
    // The first dim of `y` the entries reach.
    let first = if tile {
        e.index(0)
    } else {
        e.subi(rank, count)
    };
    let (zero, one) = (e.index(0), e.index(1));
    let entries = e.for_loop(zero, count, &[e.i(i1, 1)], |le, t, ok| {
        // `dims`' entry at `y`'s dim `at` (1 where it has none).
        let at = le.addi(first, t);
        let pick = |dims: &[MValue<'c, 'a>], offset: usize| {
            dims.iter().enumerate().fold(one, |acc, (j, &d)| {
                let here = le.cmpi(CmpiPredicate::Eq, at, le.index((offset + j) as i64));
                le.select(here, d, acc)
            })
        };
        let (yt, xt) = (pick(y, 0), pick(x, lead));
        let s = le.load(operand, &[t]);
        let s = le.index_cast(s, Type::index(le.cx));
        let holds = if tile {
            le.cmpi(CmpiPredicate::Eq, le.muli(xt, s), yt)
        } else {
            let is_y = le.cmpi(CmpiPredicate::Eq, s, yt);
            let is_one = le.cmpi(CmpiPredicate::Eq, s, one);
            let x_is_y = le.cmpi(CmpiPredicate::Eq, xt, yt);
            le.ori(is_y, le.andi(is_one, x_is_y))
        };
        vec![le.andi(ok[0], holds)]
    })[0];
    if tile || x.len() != y.len() {
        let complete = e.cmpi(CmpiPredicate::Eq, len, rank);
        return e.andi(entries, complete);
    }
    // Expand of an `x` of `y`'s rank: at most `rank` entries, and the
    // dims before them are `x`'s.
    let mut ok = e.andi(entries, e.cmpi(CmpiPredicate::Sle, len, rank));
    for (j, (&xj, &yj)) in x.iter().zip(y).enumerate() {
        let reached = e.cmpi(CmpiPredicate::Sge, e.index(j as i64), first);
        let same = e.cmpi(CmpiPredicate::Eq, xj, yj);
        ok = e.andi(ok, e.ori(reached, same));
    }
    ok
}

/// Emits `i1` true when the `len` int64 entries of `axes` (a memref) are
/// valid axes of a reduction from sizes `x` to sizes `y` ([`Check::Axes`],
/// `(keepdims, noop_with_empty_axes)`).
fn axes_hold<'c, 'a>(
    e: &Emitter<'c, 'a>,
    axes: MValue<'c, 'a>,
    len: MValue<'c, 'a>,
    (keepdims, noop): (bool, bool),
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let mask = axes_mask(*e, axes, len, x.len(), noop);
    let mut ok = mask.valid;
    let mut kept_before = e.index(0);
    let mut expected = vec![e.index(1); y.len()];
    for (d, &n) in x.iter().enumerate() {
        let reduced = mask.reduced[d];
        if keepdims {
            if let Some(slot) = expected.get_mut(d) {
                *slot = e.select(reduced, e.index(1), n);
            }
        } else {
            for (m, slot) in expected.iter_mut().enumerate() {
                let here = e.cmpi(CmpiPredicate::Eq, kept_before, e.index(m as i64));
                let here = e.andi(here, e.xori(reduced, e.i(e.int_type(1), 1)));
                *slot = e.select(here, n, *slot);
            }
        }
        let next = e.addi(kept_before, e.index(1));
        kept_before = e.select(reduced, kept_before, next);
    }
    if !keepdims {
        // As many kept dims as the output has.
        let count = e.cmpi(CmpiPredicate::Eq, kept_before, e.index(y.len() as i64));
        ok = e.andi(ok, count);
    }
    for (&want, &got) in expected.iter().zip(y) {
        ok = e.andi(ok, e.cmpi(CmpiPredicate::Eq, want, got));
    }
    ok
}
