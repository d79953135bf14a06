//! DeformConv (19, 22) in 2-D: a convolution whose kernel taps sample the
//! input at learned fractional offsets, bilinearly, with zeros outside.
//!
//! For output position `(p, q)`, kernel tap `(i, j)` and offset group `g`
//! (input channels split into `offset_group` equal runs):
//!
//! ```text
//! y = p·s_h − pad_top  + i·d_h + offset[n, g, i, j, 0, p, q]
//! x = q·s_w − pad_left + j·d_w + offset[n, g, i, j, 1, p, q]
//! col[n, c, i, j, p, q] = mask[n, g, i, j, p, q] · Σ_corners (1 − |y − y_c|)(1 − |x − x_c|) X[n, c, y_c, x_c]
//! Y[n, o, p, q] = B[o] + Σ_{c ∈ group(o), i, j} W[o, c, i, j] · col[n, c, i, j, p, q]
//! ```
//!
//! The four corners `(⌊y⌋ + a, ⌊x⌋ + b)` are gathered with GatherElements
//! from the input flattened to `[N, G, C/G, H·W]` (an outside corner
//! weighs 0), as the reference's GridSample with `align_corners` does; the
//! columns then meet the weights in one batched MatMul per group.
//!
//! Not handled (the op stays): other than 2 spatial dims, non-static
//! shapes, element types other than f16/f32/f64.

use super::builder::Builder;
use crate::attr::Attr;
use crate::ir::Value;
use crate::schema::OpKind::*;
use crate::tensor::TensorData;
use crate::types::ElemType;

/// Expands DeformConv as described in the module docs.
pub(super) fn deform_conv(b: &mut Builder) -> Option<Vec<Option<Value>>> {
    let (x, w, offset) = (b.input(0)?, b.input(1)?, b.input(2)?);
    let elem = b.elem(x)?;
    if !matches!(elem, ElemType::F16 | ElemType::F32 | ElemType::F64) {
        return None;
    }
    let [n, c, h, wd] = b.dims(x)?[..] else {
        return None;
    };
    let [oc, cpg, kh, kw] = b.dims(w)?[..] else {
        return None;
    };
    let [_, _, oh, ow] = b.dims(offset)?[..] else {
        return None;
    };
    let group = b.int_attr("group").unwrap_or(1);
    let og = b.int_attr("offset_group").unwrap_or(1);
    if group <= 0 || og <= 0 || c % og != 0 || cpg * group != c || oc % group != 0 {
        return None;
    }
    if let Some(k) = b.int_list("kernel_shape") {
        if k != [kh, kw] {
            return None;
        }
    }
    let pair = |v: Option<Vec<i64>>| match v.as_deref() {
        None => Some([1, 1]),
        Some(&[a, b]) => Some([a, b]),
        _ => None,
    };
    let [sh, sw] = pair(b.int_list("strides"))?;
    let [dh, dw] = pair(b.int_list("dilations"))?;
    let pads = b.int_list("pads").unwrap_or_else(|| vec![0; 4]);
    let (top, left) = (*pads.first()?, *pads.get(1)?);
    let (taps, outs) = (kh * kw, oh * ow);

    // Sample coordinates [N, G, K·P]: the tap's place plus its offset.
    let offset = b.reshape(offset, &[n, og, taps, 2, outs])?;
    let coordinate = |b: &mut Builder, axis: i64, base: &dyn Fn(i64, i64) -> i64| {
        let part = b.constant(TensorData::scalar(axis))?;
        let delta = b.op(Gather, &[offset, part], &[("axis", Attr::Int(3))])?;
        let delta = b.reshape(delta, &[n, og, taps * outs])?;
        let places: Vec<f64> = (0..taps)
            .flat_map(|t| (0..outs).map(move |o| base(t, o) as f64))
            .collect();
        let places = b.floats(elem, vec![taps * outs], &places)?;
        b.binary(Add, delta, places)
    };
    let ys = coordinate(b, 0, &|t, o| (o / ow) * sh - top + (t / kw) * dh)?;
    let xs = coordinate(b, 1, &|t, o| (o % ow) * sw - left + (t % kw) * dw)?;
    let (y0, x0) = (b.unary(Floor, ys)?, b.unary(Floor, xs)?);
    let (fy, fx) = (b.binary(Sub, ys, y0)?, b.binary(Sub, xs, x0)?);
    let one = b.scalar(elem, 1.0)?;
    let zero = b.scalar(elem, 0.0)?;
    let (gy, gx) = (b.binary(Sub, one, fy)?, b.binary(Sub, one, fx)?);

    let data = b.reshape(x, &[n, og, c / og, h * wd])?;
    let shape = b.ints(&[n, og, c / og, taps * outs])?;
    let mut sampled: Option<Value> = None;
    for (dy, wy) in [(0.0, gy), (1.0, fy)] {
        for (dx, wx) in [(0.0, gx), (1.0, fx)] {
            let yc = corner(b, y0, dy)?;
            let xc = corner(b, x0, dx)?;
            let inside_y = inside(b, yc, h)?;
            let inside_x = inside(b, xc, wd)?;
            let inside = b.binary(And, inside_y, inside_x)?;
            let weight = b.binary(Mul, wy, wx)?;
            let weight = b.select(inside, weight, zero)?;
            let (yc, xc) = (clamp(b, yc, h)?, clamp(b, xc, wd)?);
            let width = b.scalar(elem, wd as f64)?;
            let flat = b.binary(Mul, yc, width)?;
            let flat = b.binary(Add, flat, xc)?;
            let flat = b.cast(flat, ElemType::I64)?;
            let flat = b.squeeze_like(Unsqueeze, flat, &[2])?;
            let flat = b.op(Expand, &[flat, shape], &[])?;
            let values = b.op(GatherElements, &[data, flat], &[("axis", Attr::Int(3))])?;
            let weight = b.squeeze_like(Unsqueeze, weight, &[2])?;
            let term = b.binary(Mul, values, weight)?;
            sampled = Some(match sampled {
                None => term,
                Some(s) => b.binary(Add, s, term)?,
            });
        }
    }
    let mut sampled = sampled?;
    if let Some(mask) = b.input(4) {
        let mask = b.reshape(mask, &[n, og, 1, taps * outs])?;
        sampled = b.binary(Mul, sampled, mask)?;
    }
    // Columns [N, group, C/group·K, P] against weights [group, O/group, C/group·K].
    let columns = b.reshape(sampled, &[n, group, cpg * taps, outs])?;
    let weights = b.reshape(w, &[group, oc / group, cpg * taps])?;
    let y = b.binary(MatMul, weights, columns)?;
    let mut y = b.reshape(y, &[n, oc, oh, ow])?;
    if let Some(bias) = b.input(3) {
        let bias = b.reshape(bias, &[oc, 1, 1])?;
        y = b.binary(Add, y, bias)?;
    }
    Some(vec![Some(y)])
}

/// `base + delta` (a corner's coordinate).
fn corner(b: &mut Builder, base: Value, delta: f64) -> Option<Value> {
    if delta == 0.0 {
        return Some(base);
    }
    let elem = b.elem(base)?;
    let d = b.scalar(elem, delta)?;
    b.binary(Add, base, d)
}

/// `0 ≤ v ≤ size − 1`.
fn inside(b: &mut Builder, v: Value, size: i64) -> Option<Value> {
    let elem = b.elem(v)?;
    let (lo, hi) = (b.scalar(elem, 0.0)?, b.scalar(elem, (size - 1) as f64)?);
    let above = b.binary(GreaterOrEqual, v, lo)?;
    let below = b.binary(LessOrEqual, v, hi)?;
    b.binary(And, above, below)
}

/// `v` clamped to `[0, size − 1]`.
fn clamp(b: &mut Builder, v: Value, size: i64) -> Option<Value> {
    let elem = b.elem(v)?;
    let (lo, hi) = (b.scalar(elem, 0.0)?, b.scalar(elem, (size - 1) as f64)?);
    let v = b.binary(Max, v, lo)?;
    b.binary(Min, v, hi)
}
