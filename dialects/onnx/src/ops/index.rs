//! Indexing operators: gathers and scatters by index tensors, one-hot
//! encoding, and the data-dependent selections (Compress, NonZero,
//! Unique) whose result sizes are only known with the data.
//!
//! | op | computes | result shape | opsets |
//! |----|----------|--------------|--------|
//! | Gather | `data` slices picked by `indices` along `axis` | `d[..axis] ++ indices ++ d[axis+1..]` | 1, 11, 13 |
//! | GatherElements | elementwise pick along `axis` | `indices`' | 11, 13 |
//! | GatherND | slices addressed by index tuples (`batch_dims`) | `indices[..-1] ++ d[b+k..]` with `k = indices[-1]` | 11, 12 (batch_dims), 13 |
//! | Scatter / ScatterElements / ScatterND | `data` with `updates` written at `indices` | `data`'s | 9, 11 / 11, 13, 16, 18 / 11, 13, 16, 18 |
//! | TensorScatter | KV-cache write of `update` into `past_cache` along `axis` | `past_cache`'s | 24 |
//! | OneHot | one-hot vectors of `depth` along `axis` | `indices` with `depth` inserted | 9, 11, 28 |
//! | Compress | slices where `condition` holds | `[?]` flat, or `?` on `axis` | 9, 11, 28 |
//! | NonZero | coordinates of non-zero elements | `[rank, ?]` int64 | 9, 13 |
//! | Unique | sorted unique values/slices, first indices, inverse, counts | `[?]` (or `?` on `axis`), `[?]`, `[numel or d[axis]]`, `[?]` | 11, 28 |
//! | ReverseSequence | reverses the first `sequence_lens` steps of each batch entry | the input's | 10, 28 |
//!
//! Gather moves known integer values (`Gather(Shape(x), i)` is the most
//! common shape idiom of exported models); Compress and NonZero have
//! static result sizes when their selecting input is a known constant.

use super::operand::{
    dims_min_rank, dims_of_rank, expect_dim, flat_index, input_name, known_dims, pick_elems,
    product, unify,
};
use crate::dim::Dim;
use crate::ops::ctx::{invalid, unknown, Fail, InferCtx};
use crate::ops::knowledge::SymTensor;
use crate::ops::shape::{fmt_dims, normalize_axis};
use crate::schema::IndexOp;
use crate::tensor::TensorData;
use crate::types::ElemType;

pub(crate) fn infer(op: IndexOp, cx: &mut InferCtx) -> Result<(), Fail> {
    use IndexOp::*;
    match op {
        Gather => gather(cx),
        GatherElements => gather_elements(cx),
        GatherND => gather_nd(cx),
        Scatter | ScatterElements => scatter_elements(cx),
        ScatterND => scatter_nd(cx),
        TensorScatter => tensor_scatter(cx),
        OneHot => one_hot(cx),
        Compress => compress(cx),
        NonZero => non_zero(cx),
        Unique => unique(cx),
        ReverseSequence => reverse_sequence(cx),
    }
}

fn gather(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let data = dims_min_rank(cx, 0, 1)?;
    let indices = cx.dims(1)?.to_vec();
    let axis = normalize_axis(cx.int("axis")?, data.len())?;
    let out: Vec<Dim> = data[..axis]
        .iter()
        .chain(&indices)
        .chain(&data[axis + 1..])
        .cloned()
        .collect();
    cx.set_tensor(0, elem, out.clone());
    gather_value(cx, axis, &out)
}

/// Gathers input 0's known value when the indices are known.
fn gather_value(cx: &mut InferCtx, axis: usize, out: &[Dim]) -> Result<(), Fail> {
    let (Some(src), Some(idx), Some(out)) = (cx.sym_input(0), cx.sym_input(1), known_dims(out))
    else {
        return Ok(());
    };
    let Some(idx) = idx.as_known() else {
        return Ok(());
    };
    if out.len() + 1 < src.dims.len() || axis >= src.dims.len() {
        return Ok(());
    }
    let d = src.dims[axis];
    if let Some(bad) = idx.iter().find(|&&i| i < -d || i >= d) {
        return Err(invalid!(
            "index {bad} is out of range for dim {axis} of size {d}"
        ));
    }
    let q = out.len() + 1 - src.dims.len();
    let value = pick_elems(src, &out, |c| {
        let i = *idx.get(flat_index(&c[axis..axis + q], &out[axis..axis + q]))?;
        let coord: Vec<i64> = c[..axis]
            .iter()
            .copied()
            .chain([if i < 0 { i + d } else { i }])
            .chain(c[axis + q..].iter().copied())
            .collect();
        Some(flat_index(&coord, &src.dims))
    });
    if let Some(v) = value {
        cx.set_value(0, v);
    }
    Ok(())
}

fn gather_elements(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let data = dims_min_rank(cx, 0, 1)?;
    let indices = cx.dims(1)?.to_vec();
    if indices.len() != data.len() {
        return Err(invalid!(
            "'indices' {} and 'data' {} differ in rank",
            fmt_dims(&indices),
            fmt_dims(&data)
        ));
    }
    normalize_axis(cx.int("axis")?, data.len())?;
    cx.set_tensor(0, elem, indices);
    Ok(())
}

fn gather_nd(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let data = dims_min_rank(cx, 0, 1)?;
    let indices = dims_min_rank(cx, 1, 1)?;
    let b = cx.int_opt("batch_dims")?.unwrap_or(0);
    let (q, r) = (indices.len(), data.len());
    if b < 0 || b as usize >= q.min(r) {
        return Err(invalid!(
            "batch_dims {b} must be less than the ranks of data ({r}) and indices ({q})"
        ));
    }
    let b = b as usize;
    for i in 0..b {
        unify(
            &data[i],
            &indices[i],
            &format!("batch dim {i} of data and indices"),
        )?;
    }
    let Some(k) = indices[q - 1].as_known() else {
        cx.set_unranked(0, elem);
        return Err(unknown!("the last dim of 'indices' is not static"));
    };
    if k < 1 || k as usize > r - b {
        return Err(invalid!(
            "index tuples of length {k} address a data tensor of rank {r} with {b} batch dims"
        ));
    }
    let out: Vec<Dim> = indices[..q - 1]
        .iter()
        .chain(&data[b + k as usize..])
        .cloned()
        .collect();
    cx.set_tensor(0, elem, out);
    Ok(())
}

fn scatter_elements(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let data = dims_min_rank(cx, 0, 1)?;
    let indices = cx.dims(1)?;
    let updates = cx.dims(2)?;
    if indices.len() != data.len() || updates.len() != data.len() {
        return Err(invalid!(
            "'data' {}, 'indices' {} and 'updates' {} must have the same rank",
            fmt_dims(&data),
            fmt_dims(indices),
            fmt_dims(updates)
        ));
    }
    for (i, (a, b)) in indices.iter().zip(updates).enumerate() {
        unify(a, b, &format!("dim {i} of 'indices' and 'updates'"))?;
    }
    normalize_axis(cx.int("axis")?, data.len())?;
    cx.set_tensor(0, elem, data);
    Ok(())
}

fn scatter_nd(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let data = dims_min_rank(cx, 0, 1)?;
    let indices = dims_min_rank(cx, 1, 1)?;
    let updates = cx.dims(2)?.to_vec();
    if let Some(k) = indices.last().and_then(Dim::as_known) {
        let (q, r) = (indices.len(), data.len());
        if k < 1 || k as usize > r {
            return Err(invalid!(
                "index tuples of length {k} address a data tensor of rank {r}"
            ));
        }
        let expected: Vec<Dim> = indices[..q - 1]
            .iter()
            .chain(&data[k as usize..])
            .cloned()
            .collect();
        if updates.len() != expected.len() {
            return Err(invalid!(
                "'updates' {} must have shape {}",
                fmt_dims(&updates),
                fmt_dims(&expected)
            ));
        }
        for (i, (u, e)) in updates.iter().zip(&expected).enumerate() {
            unify(u, e, &format!("dim {i} of 'updates'"))?;
        }
    }
    cx.set_tensor(0, elem, data);
    Ok(())
}

fn tensor_scatter(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let cache = cx.dims(0)?.to_vec();
    let update = cx.dims(1)?;
    let r = cache.len();
    if update.len() != r {
        return Err(invalid!(
            "'update' {} and 'past_cache' {} differ in rank",
            fmt_dims(update),
            fmt_dims(&cache)
        ));
    }
    let axis = normalize_axis(cx.int("axis")?, r)?;
    if axis == 0 {
        return Err(invalid!(
            "axis 0 is the batch axis and cannot be the sequence axis"
        ));
    }
    let mut out = cache.clone();
    for (i, u) in update.iter().enumerate() {
        if i != axis {
            out[i] = unify(&out[i], u, &format!("dim {i} of 'update' and 'past_cache'"))?;
        }
    }
    if cx.has_input(2) {
        let w = dims_of_rank(cx, 2, 1)?;
        out[0] = unify(
            &out[0],
            &w[0],
            "the batch size of 'write_indices' and 'past_cache'",
        )?;
    }
    cx.set_tensor(0, elem, out);
    Ok(())
}

/// A scalar (or one-element vector) integer or float input when it is a
/// known constant, as an integer.
fn scalar_int(cx: &InferCtx, i: usize) -> Option<Dim> {
    if let Some(v) = cx.sym_vector(i).filter(|v| v.len() == 1) {
        return Some(v[0].clone());
    }
    let v = cx.const_input(i).and_then(TensorData::to_f64s)?;
    (v.len() == 1).then(|| Dim::Known(v[0] as i64))
}

fn one_hot(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(2)?;
    let indices = cx.dims(0)?.to_vec();
    if let Ok(d) = cx.dims(1) {
        if d.len() > 1 || matches!(d, [Dim::Known(n)] if *n > 1) {
            return Err(invalid!(
                "'depth' must be a scalar or one-element vector, got {}",
                fmt_dims(d)
            ));
        }
    }
    if let Ok(v) = cx.dims(2) {
        expect_dim(
            &v.first().cloned().unwrap_or(Dim::Known(1)),
            &Dim::Known(2),
            "the size of 'values'",
        )?;
        if v.len() != 1 {
            return Err(invalid!(
                "'values' must be [off_value, on_value], got {}",
                fmt_dims(v)
            ));
        }
    }
    let r = indices.len() as i64 + 1;
    let axis = cx.int("axis")?;
    if axis < -r || axis >= r {
        return Err(invalid!(
            "axis {axis} is out of range for an output of rank {r}"
        ));
    }
    let axis = if axis < 0 { axis + r } else { axis } as usize;
    let depth = scalar_int(cx, 1);
    if let Some(Dim::Known(d)) = depth {
        if d < 1 {
            return Err(invalid!("'depth' must be positive, got {d}"));
        }
    }
    let mut out = indices;
    out.insert(axis, depth.clone().unwrap_or(Dim::Unknown));
    cx.set_tensor(0, elem, out);
    match depth {
        Some(_) => Ok(()),
        None => Err(unknown!("'depth' is not a known constant")),
    }
}

/// Number of non-zero elements of input `i` when its contents are known.
fn count_nonzero(cx: &InferCtx, i: usize, limit: Option<usize>) -> Option<i64> {
    let values: Vec<f64> = match cx.sym_input(i).and_then(SymTensor::as_known) {
        Some(v) => v.into_iter().map(|x| x as f64).collect(),
        None => cx.const_input(i).and_then(TensorData::to_f64s)?,
    };
    let n = limit.unwrap_or(values.len()).min(values.len());
    Some(values[..n].iter().filter(|&&x| x != 0.0).count() as i64)
}

fn compress(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let cond = dims_of_rank(cx, 1, 1)?;
    let dims = cx.dims(0)?.to_vec();
    match cx.int_opt("axis")? {
        None => {
            let limit = product(&dims).as_known().map(|n| n as usize);
            let n = count_nonzero(cx, 1, limit).map_or(Dim::Unknown, Dim::Known);
            cx.set_tensor(0, elem, vec![n]);
        }
        Some(axis) => {
            let axis = normalize_axis(axis, dims.len())?;
            if let (Dim::Known(c), Dim::Known(d)) = (&cond[0], &dims[axis]) {
                if c > d {
                    return Err(invalid!(
                        "'condition' has {c} entries for dim {axis} of size {d}"
                    ));
                }
            }
            let limit = dims[axis].as_known().map(|n| n as usize);
            let mut out = dims;
            out[axis] = count_nonzero(cx, 1, limit).map_or(Dim::Unknown, Dim::Known);
            cx.set_tensor(0, elem, out);
        }
    }
    Ok(())
}

fn non_zero(cx: &mut InferCtx) -> Result<(), Fail> {
    let r = cx.rank(0)?;
    let n = count_nonzero(cx, 0, None).map_or(Dim::Unknown, Dim::Known);
    cx.set_tensor(0, ElemType::I64, vec![Dim::Known(r as i64), n]);
    Ok(())
}

fn unique(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = cx.dims(0)?.to_vec();
    let (y, inverse) = match cx.int_opt("axis")? {
        None => (vec![Dim::Unknown], product(&dims)),
        Some(axis) => {
            let axis = normalize_axis(axis, dims.len())?;
            let mut y = dims.clone();
            y[axis] = Dim::Unknown;
            (y, dims[axis].clone())
        }
    };
    cx.set_tensor(0, elem, y);
    cx.set_tensor(1, ElemType::I64, vec![Dim::Unknown]);
    cx.set_tensor(2, ElemType::I64, vec![inverse]);
    cx.set_tensor(3, ElemType::I64, vec![Dim::Unknown]);
    Ok(())
}

fn reverse_sequence(cx: &mut InferCtx) -> Result<(), Fail> {
    let elem = cx.elem(0)?;
    let dims = dims_min_rank(cx, 0, 2)?;
    let lens = dims_of_rank(cx, 1, 1)?;
    let batch = cx.int("batch_axis")?;
    let time = cx.int("time_axis")?;
    if !matches!((batch, time), (0, 1) | (1, 0)) {
        return Err(invalid!(
            "batch_axis and time_axis must be 0 and 1 in some order, got {batch} and {time}"
        ));
    }
    unify(
        &lens[0],
        &dims[batch as usize],
        &format!("'{}' length and the batch size", input_name(cx, 1)),
    )?;
    cx.set_tensor(0, elem, dims);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::tensor::TensorData;
    use crate::types::ElemType;

    #[test]
    fn gather_shapes_and_values() {
        infers! {
            13 Gather(ti("5x4x3xf32"), ti("2x7xi64"); axis = int(1)) => "5x2x7x3xf32";
            13 Gather(ti("5x4x3xf32"), ti("i64")) => "4x3xf32";
            13 Gather(ti("NxDxf32"), ti("Bxi32")) => "BxDxf32";
            13 Gather(ti("5x4xf32"), ti("i64"); axis = int(2)) => Fails(1, "out of range");
            13 Gather(ci(&[2, 3, 4]), ci(&[-1, 0])) => Valued("2xi64", &[4, 2]);
            13 Gather(ci(&[2, 3, 4]), cs(1)) => Valued("i64", &[3]);
            13 Gather(ci(&[2, 3, 4]), cs(3)) => Fails(1, "index 3 is out of range");
        }
    }

    #[test]
    fn gather_elements_and_nd() {
        infers! {
            13 GatherElements(ti("3x3xf32"), ti("2x3xi64"); axis = int(1)) => "2x3xf32";
            13 GatherElements(ti("3x3xf32"), ti("3xi64")) => Fails(1, "differ in rank");
            // The GatherND spec examples.
            13 GatherND(ti("2x2xf32"), ti("2x2xi64")) => "2xf32";
            13 GatherND(ti("2x2xf32"), ti("2x1xi64")) => "2x2xf32";
            13 GatherND(ti("2x2x2xf32"), ti("2x1x2xi64")) => "2x1x2xf32";
            13 GatherND(ti("2x2x2xf32"), ti("2x1xi64"); batch_dims = int(1)) => "2x2xf32";
            13 GatherND(ti("2x3x4x5xf32"), ti("2x3x7x1xi64"); batch_dims = int(2)) => "2x3x7x5xf32";
            13 GatherND(ti("2x2xf32"), ti("2x3xi64")) => Fails(1, "index tuples of length 3");
            13 GatherND(ti("2x2xf32"), ti("3x1xi64"); batch_dims = int(1)) => Fails(1, "batch dim 0");
            13 GatherND(ti("2x2xf32"), ti("3x?xi64")) => "*xf32";
        }
    }

    #[test]
    fn scatters_keep_the_data_shape() {
        infers! {
            13 ScatterElements(ti("3x3xf32"), ti("2x3xi64"), ti("2x3xf32")) => "3x3xf32";
            9 Scatter(ti("3x3xf32"), ti("2x3xi64"), ti("2x3xf32")) => "3x3xf32";
            13 ScatterElements(ti("3x3xf32"), ti("2x3xi64"), ti("2x2xf32")) => Fails(1, "dim 1");
            13 ScatterND(ti("4x4x4xf32"), ti("2x1xi64"), ti("2x4x4xf32")) => "4x4x4xf32";
            13 ScatterND(ti("4x4x4xf32"), ti("2x1xi64"), ti("2x4xf32")) => Fails(1, "must have shape [2, 4, 4]");
            24 TensorScatter(ti("2x3x8x4xf32"), ti("2x3x1x4xf32"), ti("2xi64")) => "2x3x8x4xf32";
            24 TensorScatter(ti("?x3x8x4xf32"), ti("2x3x1x4xf32")) => "2x3x8x4xf32";
            24 TensorScatter(ti("2x3x8x4xf32"), ti("2x3x1x5xf32")) => Fails(1, "dim 3");
            24 TensorScatter(ti("2x8xf32"), ti("2x1xf32"); axis = int(0)) => Fails(1, "batch axis");
        }
    }

    #[test]
    fn one_hot_inserts_depth() {
        let vals = || cf(&[0.0, 1.0]);
        infers! {
            11 OneHot(ti("2x3xi64"), cs(10), vals()) => "2x3x10xf32";
            11 OneHot(ti("2x3xi64"), ci(&[10]), vals(); axis = int(1)) => "2x10x3xf32";
            11 OneHot(ti("2x3xi64"), In::C(TensorData::scalar(5.0f32)), vals(); axis = int(0)) => "5x2x3xf32";
            11 OneHot(ti("2x3xi64"), ti("i64"), vals()) => "2x3x?xf32";
            11 OneHot(ti("2x3xi64"), cs(10), vals(); axis = int(3)) => Fails(1, "out of range");
            11 OneHot(ti("2xi64"), cs(10), cf(&[0.0, 1.0, 2.0])) => Fails(1, "size of 'values'");
        }
    }

    #[test]
    fn selections() {
        let cond = |v: &[u8]| {
            In::C(
                TensorData::from_raw(ElemType::Bool, vec![v.len() as i64], v.to_vec().into())
                    .unwrap(),
            )
        };
        infers! {
            11 Compress(ti("3x2xf32"), cond(&[0, 1, 1]); axis = int(0)) => "2x2xf32";
            11 Compress(ti("3x2xf32"), cond(&[0, 1]); axis = int(1)) => "3x1xf32";
            11 Compress(ti("3x2xf32"), cond(&[0, 1, 1])) => "2xf32";
            11 Compress(ti("3x2xf32"), ti("3xi1"); axis = int(0)) => "?x2xf32";
            11 Compress(ti("3x2xf32"), ti("4xi1"); axis = int(0)) => Fails(1, "4 entries for dim 0");
            13 NonZero(ti("2x3xf32")) => "2x?xi64";
            13 NonZero(ci(&[0, 3, 0, 1])) => "1x2xi64";
            11 Unique(ti("2x3xf32")) => ["?xf32", "?xi64", "6xi64", "?xi64"];
            11 Unique(ti("2x3xf32"); axis = int(0)) => ["?x3xf32", "?xi64", "2xi64", "?xi64"];
            10 ReverseSequence(ti("4x3x2xf32"), ti("3xi64"); batch_axis = int(1), time_axis = int(0)) => "4x3x2xf32";
            10 ReverseSequence(ti("4x3xf32"), ti("4xi64"); batch_axis = int(1), time_axis = int(0)) => Fails(1, "batch size");
        }
    }
}
