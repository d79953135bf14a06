//! Constant folding: evaluates an op whose operands are all constants.
//!
//! Folding is what turns rewrites on weights into new weights: a
//! BatchNormalization after a Conv becomes `Conv(x, W·s, (b−μ)·s + β)`
//! where the products are ops on constants that fold here. Only what
//! those rewrites and exported graphs need is evaluated: elementwise
//! arithmetic with broadcasting (in `f64`, rounded to the result type),
//! data movement (`Transpose`, `Reshape`, `Concat`, …, on raw bytes, so
//! exact for every type), and the dequantization of integer weights into
//! `f32` (QDQ models' `DequantizeLinear` of constants, computed as the
//! kernels compute it: `(x − zero_point)` exact, times the scale in `f32`). Integer shape arithmetic is folded by the
//! dialect's own value propagation instead (see [`crate::analysis`]).

use onnx_mlc_dialect::tensor::{checked_numel, Payload};
use onnx_mlc_dialect::{ElemType, OpKind, TensorData};

use crate::lang::OpKey;

/// Evaluates `key` on constant operands (`None` = absent); `None` when the
/// op is not folded here, an operand has no data, or the result would
/// have more than `max_elems` elements.
pub fn fold(key: &OpKey, inputs: &[Option<&TensorData>], max_elems: usize) -> Option<TensorData> {
    use OpKind::*;
    if key.is_tuple() {
        return None;
    }
    let x = || inputs.first().copied().flatten();
    match key.kind {
        Identity => x().cloned(),
        Neg | Sqrt | Reciprocal | Relu | Exp | Log | Abs | Sigmoid | Tanh => {
            let x = x()?;
            unary(x, |v| match key.kind {
                Neg => -v,
                Sqrt => v.sqrt(),
                Reciprocal => 1.0 / v,
                Relu => v.max(0.0),
                Exp => v.exp(),
                Log => v.ln(),
                Abs => v.abs(),
                Sigmoid => 1.0 / (1.0 + (-v).exp()),
                _ => v.tanh(),
            })
        }
        Cast => {
            let to = ElemType::from_onnx(key.int("to")? as i32)?;
            let x = x()?;
            from_f64(to, x.dims.clone(), &x.to_f64s()?)
        }
        Add | Sub | Mul | Div | Pow | Max | Min if inputs.len() == 2 => {
            let (a, b) = (inputs[0]?, inputs[1]?);
            if a.elem != b.elem {
                return None;
            }
            let int = !a.elem.is_float();
            match key.kind {
                Add => binary(a, b, max_elems, |p, q| p + q, |p, q| p + q),
                Sub => binary(a, b, max_elems, |p, q| p - q, |p, q| p - q),
                Mul => binary(a, b, max_elems, |p, q| p * q, |p, q| p * q),
                Div if int => binary(a, b, max_elems, |p, q| p / q, |p, q| (p / q).trunc()),
                Div => binary(a, b, max_elems, |p, q| p / q, |p, q| p / q),
                Pow => binary(a, b, max_elems, f32::powf, f64::powf),
                Max => binary(a, b, max_elems, f32::max, f64::max),
                _ => binary(a, b, max_elems, f32::min, f64::min),
            }
        }
        Reshape => {
            let (x, shape) = (x()?, inputs.get(1).copied().flatten()?.to_i64s()?);
            let allowzero = key.int("allowzero").unwrap_or(0) != 0;
            let dims = reshape_dims(&x.dims, &shape, allowzero)?;
            with_dims(x, dims)
        }
        Flatten => {
            let x = x()?;
            let r = x.dims.len() as i64;
            let axis = key.int("axis").unwrap_or(1);
            let axis = if axis < 0 { axis + r } else { axis };
            if !(0..=r).contains(&axis) {
                return None;
            }
            let (a, b) = x.dims.split_at(axis as usize);
            with_dims(x, vec![a.iter().product(), b.iter().product()])
        }
        Unsqueeze | Squeeze => {
            let x = x()?;
            let axes = match inputs.get(1).copied().flatten() {
                Some(t) => Some(t.to_i64s()?),
                None => key.ints("axes"),
            };
            let dims = if key.kind == Unsqueeze {
                unsqueeze_dims(&x.dims, &axes?)?
            } else {
                squeeze_dims(&x.dims, axes.as_deref())?
            };
            with_dims(x, dims)
        }
        Transpose => {
            let x = x()?;
            let perm = key
                .ints("perm")
                .unwrap_or_else(|| (0..x.dims.len() as i64).rev().collect());
            transpose(x, &perm)
        }
        Concat => {
            let parts: Option<Vec<&TensorData>> = inputs.iter().copied().collect();
            concat(&parts?, key.int("axis")?, max_elems)
        }
        DequantizeLinear => {
            let scale = inputs.get(1).copied().flatten()?;
            dequantize(key, x()?, scale, inputs.get(2).copied().flatten())
        }
        _ => None,
    }
}

/// Whether [`fold`] evaluates ops of this kind.
pub fn folds(kind: OpKind) -> bool {
    use OpKind::*;
    matches!(
        kind,
        Identity
            | Neg
            | Sqrt
            | Reciprocal
            | Relu
            | Exp
            | Log
            | Abs
            | Sigmoid
            | Tanh
            | Cast
            | Add
            | Sub
            | Mul
            | Div
            | Pow
            | Max
            | Min
            | Reshape
            | Flatten
            | Unsqueeze
            | Squeeze
            | Transpose
            | Concat
            | DequantizeLinear
    )
}

/// DequantizeLinear of an integer `x` by an `f32` `scale` and optional
/// `zero`, per tensor or per axis (no blocks, an `f32` result).
fn dequantize(
    key: &OpKey,
    x: &TensorData,
    scale: &TensorData,
    zero: Option<&TensorData>,
) -> Option<TensorData> {
    use ElemType::*;
    let plain = key.int("block_size").unwrap_or(0) == 0
        && matches!(key.int("output_dtype").unwrap_or(0), 0 | 1)
        && matches!(x.elem, I8 | U8 | I16 | U16 | I32)
        && scale.elem == F32;
    if !plain {
        return None;
    }
    let values = x.to_i64s()?;
    let scales = scale.to_vec::<f32>()?;
    let zeros = match zero {
        Some(z) if z.elem == x.elem => z.to_i64s()?,
        Some(_) => return None,
        None => vec![0],
    };
    // The parameters' index of flat position `i`: 0 per tensor, else the
    // position's index along `axis`.
    let (inner, extent) = if scales.len() == 1 && zeros.len() == 1 {
        (1, 1)
    } else {
        let rank = x.dims.len() as i64;
        let axis = key.int("axis").unwrap_or(1);
        let axis = usize::try_from(if axis < 0 { axis + rank } else { axis }).ok()?;
        let extent = usize::try_from(*x.dims.get(axis)?).ok()?;
        if scales.len() != extent || !(zeros.len() == 1 || zeros.len() == extent) {
            return None;
        }
        let inner: i64 = x.dims[axis + 1..].iter().product();
        (usize::try_from(inner).ok()?, extent)
    };
    let y: Vec<f32> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let c = (i / inner) % extent;
            let z = zeros[if zeros.len() == 1 { 0 } else { c }];
            (v - z) as f32 * scales[c]
        })
        .collect();
    TensorData::from_vec(x.dims.clone(), &y).ok()
}

/// Every element of `t` as `f64`, when it has data.
fn values(t: &TensorData) -> Option<Vec<f64>> {
    t.to_f64s()
}

fn unary(x: &TensorData, f: impl Fn(f64) -> f64) -> Option<TensorData> {
    if !x.elem.is_float() {
        return None;
    }
    let v: Vec<f64> = values(x)?.into_iter().map(f).collect();
    from_f64(x.elem, x.dims.clone(), &v)
}

/// Numpy broadcasting of two static shapes.
pub fn broadcast_shape(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    (0..rank)
        .map(|i| {
            let x = if i + a.len() >= rank {
                a[i + a.len() - rank]
            } else {
                1
            };
            let y = if i + b.len() >= rank {
                b[i + b.len() - rank]
            } else {
                1
            };
            match (x, y) {
                (1, d) | (d, 1) => Some(d),
                (p, q) if p == q => Some(p),
                _ => None,
            }
        })
        .collect()
}

/// Element strides of a tensor of `dims` (right-aligned) in the space of
/// the broadcast result `out`: 0 along broadcast dims.
fn broadcast_strides(dims: &[i64], out: &[i64]) -> Vec<usize> {
    let pad = out.len() - dims.len();
    let mut strides = vec![0usize; out.len()];
    let mut s = 1usize;
    for k in (0..dims.len()).rev() {
        if dims[k] != 1 {
            strides[pad + k] = s;
        }
        s *= dims[k] as usize;
    }
    strides
}

/// Calls `f(i, j)` with the flat indices into `a` and `b` of each element
/// of their broadcast `out`, in order. Dims along which both operands are
/// contiguous are merged first, so that the inner loop is long (a weight
/// times a per-channel scale is one loop per channel).
fn for_each_pair(a: &[i64], b: &[i64], out: &[i64], mut f: impl FnMut(usize, usize)) {
    let n = checked_numel(out).unwrap_or(0);
    if n == 0 {
        return;
    }
    let (sa, sb) = (broadcast_strides(a, out), broadcast_strides(b, out));
    // Merge dim k into dim k + 1 when each operand steps over it exactly
    // as over k + 1 continued (or not at all, in both).
    let (mut dims, mut sa2, mut sb2): (Vec<usize>, Vec<usize>, Vec<usize>) =
        (vec![], vec![], vec![]);
    for k in 0..out.len() {
        let d = out[k] as usize;
        if d == 1 {
            continue;
        }
        if let (Some(&ld), Some(&la), Some(&lb)) = (dims.last(), sa2.last(), sb2.last()) {
            if la == sa[k] * d && lb == sb[k] * d {
                let last = dims.len() - 1;
                dims[last] = ld * d;
                sa2[last] = sa[k];
                sb2[last] = sb[k];
                continue;
            }
        }
        dims.push(d);
        sa2.push(sa[k]);
        sb2.push(sb[k]);
    }
    if dims.is_empty() {
        f(0, 0);
        return;
    }
    let r = dims.len();
    let inner = dims[r - 1];
    let (step_a, step_b) = (sa2[r - 1], sb2[r - 1]);
    let mut coord = vec![0usize; r - 1];
    let (mut ia, mut ib) = (0usize, 0usize);
    for _ in 0..n / inner {
        for k in 0..inner {
            f(ia + k * step_a, ib + k * step_b);
        }
        for d in (0..r - 1).rev() {
            coord[d] += 1;
            ia += sa2[d];
            ib += sb2[d];
            if coord[d] < dims[d] {
                break;
            }
            ia -= sa2[d] * dims[d];
            ib -= sb2[d] * dims[d];
            coord[d] = 0;
        }
    }
}

/// An elementwise binary op with broadcasting: `f32` tensors in `f32`
/// arithmetic (as a run-time kernel would compute them), others in `f64`
/// rounded to their type.
fn binary(
    a: &TensorData,
    b: &TensorData,
    max: usize,
    f32_op: impl Fn(f32, f32) -> f32,
    f64_op: impl Fn(f64, f64) -> f64,
) -> Option<TensorData> {
    let out = broadcast_shape(&a.dims, &b.dims)?;
    let n = checked_numel(&out)?;
    if n > max {
        return None;
    }
    if a.elem == ElemType::F32 {
        let (ra, rb) = (raw(a)?, raw(b)?);
        let get = |r: &[u8], i: usize| {
            f32::from_le_bytes([r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]])
        };
        let mut bytes = vec![0u8; n * 4];
        let mut chunks = bytes.chunks_exact_mut(4);
        for_each_pair(&a.dims, &b.dims, &out, |i, j| {
            if let Some(c) = chunks.next() {
                c.copy_from_slice(&f32_op(get(ra, i), get(rb, j)).to_le_bytes());
            }
        });
        return TensorData::from_raw(ElemType::F32, out, bytes.into()).ok();
    }
    let (va, vb) = (values(a)?, values(b)?);
    let mut v = Vec::with_capacity(n);
    for_each_pair(&a.dims, &b.dims, &out, |i, j| v.push(f64_op(va[i], vb[j])));
    from_f64(a.elem, out, &v)
}

/// A tensor of `elem` from `f64` values (rounded to nearest for floats,
/// truncated for integers).
pub fn from_f64(elem: ElemType, dims: Vec<i64>, v: &[f64]) -> Option<TensorData> {
    let t = match elem {
        ElemType::F32 => {
            TensorData::from_vec(dims, &v.iter().map(|&x| x as f32).collect::<Vec<_>>())
        }
        ElemType::F64 => TensorData::from_vec(dims, v),
        ElemType::F16 => TensorData::from_vec(
            dims,
            &v.iter()
                .map(|&x| half::f16::from_f64(x))
                .collect::<Vec<_>>(),
        ),
        ElemType::I64 => {
            TensorData::from_vec(dims, &v.iter().map(|&x| x as i64).collect::<Vec<_>>())
        }
        ElemType::I32 => {
            TensorData::from_vec(dims, &v.iter().map(|&x| x as i32).collect::<Vec<_>>())
        }
        ElemType::I16 => {
            TensorData::from_vec(dims, &v.iter().map(|&x| x as i16).collect::<Vec<_>>())
        }
        ElemType::U16 => {
            TensorData::from_vec(dims, &v.iter().map(|&x| x as u16).collect::<Vec<_>>())
        }
        ElemType::I8 => TensorData::from_vec(dims, &v.iter().map(|&x| x as i8).collect::<Vec<_>>()),
        ElemType::U8 => TensorData::from_vec(dims, &v.iter().map(|&x| x as u8).collect::<Vec<_>>()),
        ElemType::Bool => {
            let bytes: Vec<u8> = v.iter().map(|&x| u8::from(x != 0.0)).collect();
            TensorData::from_raw(ElemType::Bool, dims, bytes.into())
        }
        _ => return None,
    };
    t.ok()
}

fn with_dims(x: &TensorData, dims: Vec<i64>) -> Option<TensorData> {
    (checked_numel(&dims)? == x.numel()).then(|| TensorData {
        elem: x.elem,
        dims,
        payload: x.payload.clone(),
    })
}

/// Reshape's target dims (`0` copies the input dim unless `allowzero`,
/// one `-1` is inferred).
pub fn reshape_dims(input: &[i64], shape: &[i64], allowzero: bool) -> Option<Vec<i64>> {
    let total = checked_numel(input)? as i64;
    let mut dims: Vec<i64> = shape
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            if d == 0 && !allowzero {
                input.get(i).copied()
            } else {
                Some(d)
            }
        })
        .collect::<Option<_>>()?;
    let known: i64 = dims.iter().filter(|&&d| d != -1).product();
    match dims.iter().filter(|&&d| d == -1).count() {
        0 => (known == total).then_some(dims),
        1 if known > 0 && total % known == 0 => {
            let slot = dims.iter_mut().find(|d| **d == -1)?;
            *slot = total / known;
            Some(dims)
        }
        _ => None,
    }
}

fn unsqueeze_dims(dims: &[i64], axes: &[i64]) -> Option<Vec<i64>> {
    let rank = (dims.len() + axes.len()) as i64;
    let mut axes: Vec<i64> = axes
        .iter()
        .map(|&a| if a < 0 { a + rank } else { a })
        .collect();
    axes.sort_unstable();
    if axes.windows(2).any(|w| w[0] == w[1]) || axes.iter().any(|&a| !(0..rank).contains(&a)) {
        return None;
    }
    let mut src = dims.iter();
    (0..rank)
        .map(|i| {
            if axes.contains(&i) {
                Some(1)
            } else {
                src.next().copied()
            }
        })
        .collect()
}

fn squeeze_dims(dims: &[i64], axes: Option<&[i64]>) -> Option<Vec<i64>> {
    let r = dims.len() as i64;
    match axes {
        None => Some(dims.iter().copied().filter(|&d| d != 1).collect()),
        Some(axes) => {
            let axes: Vec<i64> = axes
                .iter()
                .map(|&a| if a < 0 { a + r } else { a })
                .collect();
            if axes
                .iter()
                .any(|&a| !(0..r).contains(&a) || dims[a as usize] != 1)
            {
                return None;
            }
            Some(
                (0..r)
                    .filter(|i| !axes.contains(i))
                    .map(|i| dims[i as usize])
                    .collect(),
            )
        }
    }
}

/// Raw bytes per element; `None` for sub-byte and string types.
fn elem_bytes(t: &TensorData) -> Option<usize> {
    let bits = t.elem.bit_width();
    (bits >= 8 && bits % 8 == 0).then_some(bits as usize / 8)
}

fn raw(t: &TensorData) -> Option<&[u8]> {
    match &t.payload {
        Payload::Raw(b) => Some(b),
        _ => None,
    }
}

/// Transposes raw data by `perm`.
pub fn transpose(x: &TensorData, perm: &[i64]) -> Option<TensorData> {
    let rank = x.dims.len();
    let mut seen = vec![false; rank];
    for &p in perm {
        let p = usize::try_from(p).ok().filter(|&p| p < rank)?;
        if std::mem::replace(&mut seen[p], true) {
            return None;
        }
    }
    if perm.len() != rank {
        return None;
    }
    let w = elem_bytes(x)?;
    let src = raw(x)?;
    let out_dims: Vec<i64> = perm.iter().map(|&p| x.dims[p as usize]).collect();
    let mut in_strides = vec![1usize; rank];
    for k in (0..rank.saturating_sub(1)).rev() {
        in_strides[k] = in_strides[k + 1] * x.dims[k + 1] as usize;
    }
    let strides: Vec<usize> = perm.iter().map(|&p| in_strides[p as usize]).collect();
    let positions = strided_positions(&out_dims, &strides);
    let mut out = Vec::with_capacity(src.len());
    for p in positions {
        out.extend_from_slice(&src[p * w..(p + 1) * w]);
    }
    TensorData::from_raw(x.elem, out_dims, out.into()).ok()
}

/// Flat source positions, in row-major order of `dims`, of a view with
/// the given element strides.
fn strided_positions(dims: &[i64], strides: &[usize]) -> Vec<usize> {
    let n = checked_numel(dims).unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    let mut coord = vec![0i64; dims.len()];
    let mut flat = 0usize;
    for _ in 0..n {
        out.push(flat);
        for k in (0..dims.len()).rev() {
            coord[k] += 1;
            flat += strides[k];
            if coord[k] < dims[k] {
                break;
            }
            flat -= strides[k] * dims[k] as usize;
            coord[k] = 0;
        }
    }
    out
}

/// Concatenates raw data along `axis`.
pub fn concat(parts: &[&TensorData], axis: i64, max: usize) -> Option<TensorData> {
    let first = parts.first()?;
    let rank = first.dims.len() as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    if !(0..rank).contains(&axis) {
        return None;
    }
    let axis = axis as usize;
    let w = elem_bytes(first)?;
    for p in parts {
        let same = p.elem == first.elem
            && p.dims.len() == first.dims.len()
            && p.dims
                .iter()
                .zip(&first.dims)
                .enumerate()
                .all(|(k, (a, b))| k == axis || a == b);
        if !same {
            return None;
        }
    }
    let mut dims = first.dims.clone();
    dims[axis] = parts.iter().map(|p| p.dims[axis]).sum();
    if checked_numel(&dims)? > max {
        return None;
    }
    let outer: usize = first.dims[..axis].iter().product::<i64>() as usize;
    let inner: usize = first.dims[axis + 1..].iter().product::<i64>() as usize;
    let mut out = Vec::with_capacity(checked_numel(&dims)? * w);
    for o in 0..outer {
        for p in parts {
            let chunk = p.dims[axis] as usize * inner * w;
            out.extend_from_slice(&raw(p)?[o * chunk..(o + 1) * chunk]);
        }
    }
    TensorData::from_raw(first.elem, dims, out.into()).ok()
}

/// The scalar value of a constant whose elements are all equal.
pub fn splat(t: &TensorData) -> Option<f64> {
    if t.numel() == 0 || t.numel() > 1 << 16 {
        return None;
    }
    let v = values(t)?;
    let first = v[0];
    v.iter()
        .all(|&x| x.to_bits() == first.to_bits())
        .then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_mlc_dialect::{Attr, Attrs};

    fn key(kind: OpKind, attrs: Vec<(&str, Attr)>) -> OpKey {
        let v = kind.schema(17).unwrap().since_version;
        OpKey::single(
            kind,
            v,
            Attrs(attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect()),
        )
    }

    fn f32s(dims: &[i64], v: &[f32]) -> TensorData {
        TensorData::from_vec(dims.to_vec(), v).unwrap()
    }

    #[test]
    fn dequantization_per_tensor_and_per_axis() {
        let x = TensorData::from_vec(vec![2, 3], &[-128i8, 0, 127, 1, 2, 3]).unwrap();
        let per_tensor = f32s(&[], &[0.5]);
        let zero = TensorData::from_vec(vec![], &[1i8]).unwrap();
        let dq = key(OpKind::DequantizeLinear, vec![]);
        let y = fold(&dq, &[Some(&x), Some(&per_tensor), Some(&zero)], 100).unwrap();
        assert_eq!(
            y.to_vec::<f32>().unwrap(),
            vec![-64.5, -0.5, 63.0, 0.0, 0.5, 1.0]
        );
        // per column (axis 1), zero point absent
        let columns = f32s(&[3], &[1.0, 2.0, 4.0]);
        let y = fold(&dq, &[Some(&x), Some(&columns), None], 100).unwrap();
        assert_eq!(
            y.to_vec::<f32>().unwrap(),
            vec![-128.0, 0.0, 508.0, 1.0, 4.0, 12.0]
        );
        // per row (axis 0)
        let rows = f32s(&[2], &[1.0, -1.0]);
        let by_row = key(OpKind::DequantizeLinear, vec![("axis", Attr::Int(0))]);
        let y = fold(&by_row, &[Some(&x), Some(&rows), None], 100).unwrap();
        assert_eq!(
            y.to_vec::<f32>().unwrap(),
            vec![-128.0, 0.0, 127.0, -1.0, -2.0, -3.0]
        );
        // a scale that fits no axis is not folded
        assert!(fold(&by_row, &[Some(&x), Some(&columns), None], 100).is_none());
    }

    #[test]
    fn broadcasting_arithmetic() {
        let a = f32s(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
        let b = f32s(&[3], &[10., 20., 30.]);
        let c = fold(&key(OpKind::Add, vec![]), &[Some(&a), Some(&b)], 100).unwrap();
        assert_eq!(
            c.to_vec::<f32>().unwrap(),
            vec![11., 22., 33., 14., 25., 36.]
        );
        let col = f32s(&[2, 1], &[2., 3.]);
        let d = fold(&key(OpKind::Mul, vec![]), &[Some(&a), Some(&col)], 100).unwrap();
        assert_eq!(d.to_vec::<f32>().unwrap(), vec![2., 4., 6., 12., 15., 18.]);
        assert!(fold(&key(OpKind::Mul, vec![]), &[Some(&a), Some(&col)], 5).is_none());
        let i = TensorData::from_vec(vec![2], &[7i64, -7]).unwrap();
        let two = TensorData::from_vec(vec![], &[2i64]).unwrap();
        let q = fold(&key(OpKind::Div, vec![]), &[Some(&i), Some(&two)], 10).unwrap();
        assert_eq!(q.to_vec::<i64>().unwrap(), vec![3, -3]);
    }

    #[test]
    fn data_movement() {
        let a = f32s(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
        let t = fold(
            &key(OpKind::Transpose, vec![("perm", Attr::Ints(vec![1, 0]))]),
            &[Some(&a)],
            100,
        )
        .unwrap();
        assert_eq!(t.dims, vec![3, 2]);
        assert_eq!(t.to_vec::<f32>().unwrap(), vec![1., 4., 2., 5., 3., 6.]);
        let shape = TensorData::i64s(&[0, -1, 1]);
        let r = fold(
            &key(OpKind::Reshape, vec![]),
            &[Some(&a), Some(&shape)],
            100,
        )
        .unwrap();
        assert_eq!(r.dims, vec![2, 3, 1]);
        let c = fold(
            &key(OpKind::Concat, vec![("axis", Attr::Int(1))]),
            &[Some(&a), Some(&a)],
            100,
        )
        .unwrap();
        assert_eq!(c.dims, vec![2, 6]);
        assert_eq!(c.to_vec::<f32>().unwrap()[..6], [1., 2., 3., 1., 2., 3.]);
        let axes = TensorData::i64s(&[0, 3]);
        let u = fold(
            &key(OpKind::Unsqueeze, vec![]),
            &[Some(&a), Some(&axes)],
            100,
        )
        .unwrap();
        assert_eq!(u.dims, vec![1, 2, 3, 1]);
        assert_eq!(reshape_dims(&[2, 3], &[4, -1], false), None);
    }
}
