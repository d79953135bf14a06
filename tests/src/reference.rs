//! A small reference interpreter of the onnx dialect for soundness tests
//! of the graph optimizer: f32 (and i64 shape operands) only, plain loops,
//! written from the ONNX operator specs and the internal ops' contract
//! (`tools/internal_ops.py`), independently of the optimizer's own
//! constant folder.
//!
//! It runs a model before and after optimization on the same inputs;
//! equal outputs within tolerance are the evidence that rewrites kept the
//! meaning. It is checked itself against the expected outputs of a real
//! model (`tests/models/default`). When the dialect → ONNX exporter lands,
//! the same tests should also run onnxruntime on the exported models.

use std::collections::HashMap;

use onnx_mlc_dialect::{Attr, ElemType, Model, OpId, OpKind, TensorData, Value};

/// A tensor value: f32 data or i64 data, row-major.
#[derive(Clone, Debug, PartialEq)]
pub enum Tensor {
    F32(Vec<usize>, Vec<f32>),
    I64(Vec<usize>, Vec<i64>),
}

impl Tensor {
    /// The dims.
    pub fn dims(&self) -> &[usize] {
        match self {
            Tensor::F32(d, _) | Tensor::I64(d, _) => d,
        }
    }

    fn f(&self) -> Result<(&[usize], &[f32]), String> {
        match self {
            Tensor::F32(d, v) => Ok((d, v)),
            Tensor::I64(..) => Err("expected a float tensor".into()),
        }
    }

    fn ints(&self) -> Result<Vec<i64>, String> {
        match self {
            Tensor::I64(_, v) => Ok(v.clone()),
            Tensor::F32(..) => Err("expected an int tensor".into()),
        }
    }

    /// From constant data (f32, i64, i32 or bool).
    pub fn from_data(t: &TensorData) -> Result<Tensor, String> {
        let dims: Vec<usize> = t.dims.iter().map(|&d| d as usize).collect();
        match t.elem {
            ElemType::F32 => Ok(Tensor::F32(dims, t.to_vec::<f32>().ok_or("no data")?)),
            ElemType::I64 | ElemType::I32 | ElemType::Bool => {
                Ok(Tensor::I64(dims, t.to_i64s().ok_or("no data")?))
            }
            e => Err(format!("the reference interpreter has no {e}")),
        }
    }
}

fn numel(d: &[usize]) -> usize {
    d.iter().product()
}

/// Runs the main graph on `inputs` (by argument position; arguments with a
/// default may be left out) and returns the outputs.
pub fn run(model: &Model, inputs: &[Tensor]) -> Result<Vec<Tensor>, String> {
    let ir = &model.ir;
    let region = ir.region(model.graph);
    let mut env: HashMap<Value, Tensor> = HashMap::new();
    for (i, arg) in region.args.iter().enumerate() {
        let t = match (inputs.get(i), &arg.default) {
            (Some(t), _) => t.clone(),
            (None, Some(d)) => Tensor::from_data(d)?,
            (None, None) => return Err(format!("input {i} is missing")),
        };
        env.insert(arg.value, t);
    }
    for &op in &region.ops {
        let d = ir.op(op);
        let args: Vec<Option<&Tensor>> = d
            .inputs
            .iter()
            .map(|v| {
                v.map(|v| env.get(&v).ok_or_else(|| format!("{v:?} undefined")))
                    .transpose()
            })
            .collect::<Result<_, _>>()?;
        let outs = eval(model, op, &args).map_err(|e| format!("{}: {e}", ir.describe_op(op)))?;
        for (r, t) in d.results.iter().zip(outs) {
            let Some(r) = r else { continue };
            // A shape other than the model's means semantics the interpreter
            // does not implement: an error, never a silent difference.
            let declared = ir.ty(*r).as_tensor().and_then(|t| t.static_dims());
            if let Some(want) = declared {
                let got: Vec<i64> = t.dims().iter().map(|&v| v as i64).collect();
                if got != want {
                    return Err(format!(
                        "{}: computed dims {got:?}, the model says {want:?}",
                        ir.describe_op(op)
                    ));
                }
            }
            env.insert(*r, t);
        }
    }
    region
        .outputs
        .iter()
        .map(|o| env.get(&o.value).cloned().ok_or("output undefined".into()))
        .collect()
}

struct Op<'a> {
    model: &'a Model,
    op: OpId,
}

impl Op<'_> {
    fn attr(&self, name: &str) -> Option<Attr> {
        let d = self.model.ir.op(self.op);
        d.attrs
            .get(name)
            .cloned()
            .or_else(|| d.schema().attr(name)?.default.map(|a| a.to_attr()))
    }
    fn int(&self, name: &str, default: i64) -> i64 {
        match self.attr(name) {
            Some(Attr::Int(v)) => v,
            _ => default,
        }
    }
    fn float(&self, name: &str, default: f32) -> f32 {
        match self.attr(name) {
            Some(Attr::Float(v)) => v,
            _ => default,
        }
    }
    fn ints(&self, name: &str) -> Option<Vec<i64>> {
        match self.attr(name) {
            Some(Attr::Ints(v)) => Some(v),
            _ => None,
        }
    }
    fn floats(&self, name: &str) -> Vec<f32> {
        match self.attr(name) {
            Some(Attr::Floats(v)) => v,
            _ => vec![],
        }
    }
    fn string(&self, name: &str) -> String {
        match self.attr(name) {
            Some(Attr::String(v)) => String::from_utf8_lossy(&v).into_owned(),
            _ => String::new(),
        }
    }
}

/// Normalizes an axis attribute for a tensor of rank `rank`.
fn axis(op: &Op, name: &str, default: i64, rank: usize) -> Result<usize, String> {
    normalize(op.int(name, default), rank)
}

/// An axis in `[-rank, rank)` as an index.
fn normalize(a: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    if a < -r || a >= r {
        return Err(format!("axis {a} out of range for rank {rank}"));
    }
    Ok(if a < 0 { a + r } else { a } as usize)
}

fn req<'a>(args: &[Option<&'a Tensor>], i: usize) -> Result<&'a Tensor, String> {
    args.get(i)
        .copied()
        .flatten()
        .ok_or(format!("input {i} is missing"))
}

fn eval(model: &Model, id: OpId, args: &[Option<&Tensor>]) -> Result<Vec<Tensor>, String> {
    use OpKind::*;
    let op = Op { model, op: id };
    let kind = model.ir.op(id).kind;
    let x = || req(args, 0);
    let one = |t: Tensor| Ok(vec![t]);
    match kind {
        Constant => match op.attr("value") {
            Some(Attr::Tensor(t)) => one(Tensor::from_data(&t)?),
            _ => Err("Constant without a dense value".into()),
        },
        Identity | Dropout => one(x()?.clone()),
        Relu | Sigmoid | Tanh | Erf | Sqrt | Neg | Exp | Log | Abs | Reciprocal | HardSwish => {
            let f: fn(f32) -> f32 = match kind {
                Relu => |v| v.max(0.0),
                Sigmoid => sigmoid,
                Tanh => f32::tanh,
                Erf => erf,
                Sqrt => f32::sqrt,
                Neg => |v| -v,
                Exp => f32::exp,
                Log => f32::ln,
                Abs => f32::abs,
                Reciprocal => |v| 1.0 / v,
                _ => |v| v * (v / 6.0 + 0.5).clamp(0.0, 1.0),
            };
            map(x()?, f)
        }
        LeakyRelu => {
            let a = op.float("alpha", 0.01);
            map(x()?, move |v| if v >= 0.0 { v } else { a * v })
        }
        Clip => {
            let lo = args
                .get(1)
                .copied()
                .flatten()
                .map(|t| t.f().map(|(_, v)| v[0]))
                .transpose()?
                .unwrap_or(f32::NEG_INFINITY);
            let hi = args
                .get(2)
                .copied()
                .flatten()
                .map(|t| t.f().map(|(_, v)| v[0]))
                .transpose()?
                .unwrap_or(f32::INFINITY);
            map(x()?, move |v| v.max(lo).min(hi))
        }
        Activation => {
            let (name, p) = (op.string("activation"), op.floats("activation_params"));
            let (d, v) = x()?.f()?;
            one(Tensor::F32(
                d.to_vec(),
                v.iter()
                    .map(|&y| activation(&name, &p, y))
                    .collect::<Result<_, _>>()?,
            ))
        }
        Cast => match (op.int("to", 1), x()?) {
            (1, Tensor::F32(d, v)) => one(Tensor::F32(d.clone(), v.clone())),
            (1, Tensor::I64(d, v)) => one(Tensor::F32(
                d.clone(),
                v.iter().map(|&i| i as f32).collect(),
            )),
            (7 | 6, Tensor::I64(d, v)) => one(Tensor::I64(d.clone(), v.clone())),
            (9, t) => {
                let (d, v, _) = as_f64(t);
                one(Tensor::I64(
                    d,
                    v.iter().map(|&x| i64::from(x != 0.0)).collect(),
                ))
            }
            (7 | 6, Tensor::F32(d, v)) => one(Tensor::I64(
                d.clone(),
                v.iter().map(|&f| f as i64).collect(),
            )),
            (to, _) => Err(format!("Cast to {to}")),
        },
        Add | Sub | Mul | Div | Pow => {
            let f: fn(f32, f32) -> f32 = match kind {
                Add => |a, b| a + b,
                Sub => |a, b| a - b,
                Mul => |a, b| a * b,
                Div => |a, b| a / b,
                _ => f32::powf,
            };
            match (x()?, req(args, 1)?) {
                (Tensor::I64(..), _) => int_binary(kind, x()?, req(args, 1)?).map(|t| vec![t]),
                (a, b) => one(binary(a, b, f)?),
            }
        }
        MatMul => one(matmul(x()?, req(args, 1)?)?),
        FusedMatMul => {
            let mut y = matmul(x()?, req(args, 1)?)?;
            for addend in args.iter().skip(2).copied().flatten() {
                y = binary(&y, addend, |p, q| p + q)?;
            }
            one(act(&op, y)?)
        }
        Gemm | FusedGemm => {
            let y = gemm(&op, x()?, req(args, 1)?, args.get(2).copied().flatten())?;
            one(if kind == FusedGemm { act(&op, y)? } else { y })
        }
        Conv | FusedConv => {
            let mut y = conv(&op, x()?, req(args, 1)?, args.get(2).copied().flatten())?;
            if let Some(z) = args.get(3).copied().flatten() {
                y = binary(&y, z, |p, q| p + q)?;
            }
            one(if kind == FusedConv { act(&op, y)? } else { y })
        }
        BatchNormalization => {
            let (d, v) = x()?.f()?;
            let p: Vec<&[f32]> = (1..5)
                .map(|i| req(args, i)?.f().map(|t| t.1))
                .collect::<Result<_, _>>()?;
            let eps = op.float("epsilon", 1e-5);
            let (c, inner) = (d[1], numel(&d[2..]));
            let mut out = v.to_vec();
            for (i, o) in out.iter_mut().enumerate() {
                let ch = (i / inner) % c;
                *o = (*o - p[2][ch]) / (p[3][ch] + eps).sqrt() * p[0][ch] + p[1][ch];
            }
            one(Tensor::F32(d.to_vec(), out))
        }
        Softmax => {
            let (d, v) = x()?.f()?;
            let axis = axis(&op, "axis", -1, d.len())?;
            // opset >= 13: over one axis; earlier: over the flattened tail. Both
            // agree for the last axis, the only case the models use.
            let n = if model.ir.op(id).version >= 13 {
                d[axis]
            } else {
                numel(&d[axis..])
            };
            let stride = if model.ir.op(id).version >= 13 {
                numel(&d[axis + 1..])
            } else {
                1
            };
            let mut out = v.to_vec();
            for start in (0..v.len()).filter(|&i| (i / stride) % n == 0) {
                let idx = |k: usize| start + k * stride;
                let m = (0..n).map(|k| v[idx(k)]).fold(f32::NEG_INFINITY, f32::max);
                let s: f32 = (0..n).map(|k| (v[idx(k)] - m).exp()).sum();
                for k in 0..n {
                    out[idx(k)] = (v[idx(k)] - m).exp() / s;
                }
            }
            one(Tensor::F32(d.to_vec(), out))
        }
        LayerNormalization => {
            let (d, v) = x()?.f()?;
            let (s, b) = (
                req(args, 1)?.f()?.1,
                args.get(2)
                    .copied()
                    .flatten()
                    .map(|t| t.f().map(|t| t.1))
                    .transpose()?,
            );
            let eps = op.float("epsilon", 1e-5);
            let axis = axis(&op, "axis", -1, d.len())?;
            let n = numel(&d[axis..]);
            let mut out = v.to_vec();
            for row in out.chunks_mut(n) {
                let mean = row.iter().sum::<f32>() / n as f32;
                let var = row.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / n as f32;
                for (k, x) in row.iter_mut().enumerate() {
                    *x = (*x - mean) / (var + eps).sqrt() * s[k % s.len()]
                        + b.map_or(0.0, |b| b[k % b.len()]);
                }
            }
            one(Tensor::F32(d.to_vec(), out))
        }
        ReduceMean | ReduceSum | ReduceMax => {
            let axes = match args.get(1).copied().flatten() {
                Some(a) => a.ints()?,
                None => op.ints("axes").unwrap_or_default(),
            };
            one(reduce(kind, x()?, &axes, op.int("keepdims", 1) != 0)?)
        }
        Transpose => {
            let d = x()?.dims().to_vec();
            let perm = op
                .ints("perm")
                .unwrap_or_else(|| (0..d.len() as i64).rev().collect());
            one(transpose(
                x()?,
                &perm.iter().map(|&p| p as usize).collect::<Vec<_>>(),
            ))
        }
        Reshape => {
            let shape = req(args, 1)?.ints()?;
            let d = x()?.dims();
            let total = numel(d) as i64;
            let allowzero = op.int("allowzero", 0) != 0;
            let mut dims: Vec<i64> = shape
                .iter()
                .enumerate()
                .map(|(i, &s)| match (s, allowzero) {
                    (0, false) => d
                        .get(i)
                        .map(|&v| v as i64)
                        .ok_or("0 copies a missing dim".to_string()),
                    _ => Ok(s),
                })
                .collect::<Result<_, _>>()?;
            let known: i64 = dims.iter().filter(|&&s| s != -1).product();
            for s in dims.iter_mut().filter(|s| **s == -1) {
                *s = total / known;
            }
            one(with_dims(x()?, dims.iter().map(|&s| s as usize).collect()))
        }
        Flatten => {
            let d = x()?.dims();
            let r = d.len() as i64;
            let a = op.int("axis", 1);
            if a < -r || a > r {
                return Err(format!("axis {a} out of range"));
            }
            let axis = if a < 0 { a + r } else { a } as usize;
            one(with_dims(x()?, vec![numel(&d[..axis]), numel(&d[axis..])]))
        }
        Unsqueeze | Squeeze => {
            let d = x()?.dims().to_vec();
            let axes = match args.get(1).copied().flatten() {
                Some(a) => a.ints()?,
                None => op.ints("axes").unwrap_or_default(),
            };
            let dims = if kind == Unsqueeze {
                let r = (d.len() + axes.len()) as i64;
                let axes: Vec<i64> = axes
                    .iter()
                    .map(|&a| if a < 0 { a + r } else { a })
                    .collect();
                let mut src = d.iter();
                (0..r)
                    .map(|i| {
                        if axes.contains(&i) {
                            1
                        } else {
                            *src.next().unwrap_or(&1)
                        }
                    })
                    .collect()
            } else if axes.is_empty() {
                d.iter().copied().filter(|&s| s != 1).collect()
            } else {
                let r = d.len() as i64;
                let axes: Vec<i64> = axes
                    .iter()
                    .map(|&a| if a < 0 { a + r } else { a })
                    .collect();
                d.iter()
                    .enumerate()
                    .filter(|(i, _)| !axes.contains(&(*i as i64)))
                    .map(|(_, &s)| s)
                    .collect()
            };
            one(with_dims(x()?, dims))
        }
        Concat => {
            let parts: Vec<&Tensor> = args
                .iter()
                .map(|a| a.ok_or("absent Concat input"))
                .collect::<Result<_, _>>()?;
            one(concat(&parts, op.int("axis", 0))?)
        }
        Split => {
            let (d, v) = x()?.f()?;
            let axis = axis(&op, "axis", 0, d.len())?;
            let sizes = match args.get(1).copied().flatten() {
                Some(s) => s.ints()?,
                None => op.ints("split").ok_or("Split without sizes")?,
            };
            let (outer, inner) = (numel(&d[..axis]), numel(&d[axis + 1..]));
            let mut start = 0;
            let mut outs = vec![];
            for &s in &sizes {
                let s = s as usize;
                let mut data = Vec::with_capacity(outer * s * inner);
                for o in 0..outer {
                    let base = o * d[axis] * inner + start * inner;
                    data.extend_from_slice(&v[base..base + s * inner]);
                }
                let mut dims = d.to_vec();
                dims[axis] = s;
                outs.push(Tensor::F32(dims, data));
                start += s;
            }
            Ok(outs)
        }
        MaxPool | AveragePool => one(pool(&op, kind, x()?)?),
        GlobalAveragePool => {
            let (d, v) = x()?.f()?;
            let inner = numel(&d[2..]);
            let data = v
                .chunks(inner)
                .map(|c| c.iter().sum::<f32>() / inner as f32)
                .collect();
            let mut dims = d[..2].to_vec();
            dims.resize(d.len(), 1);
            one(Tensor::F32(dims, data))
        }
        FusedAttention => {
            let scores = matmul(x()?, req(args, 1)?)?;
            let s = op.float("scale", 1.0);
            let mut scores = map(&scores, move |v| v * s)?.remove(0);
            if let Some(m) = args.get(3).copied().flatten() {
                scores = binary(&scores, m, |p, q| p + q)?;
            }
            let (d, v) = scores.f()?;
            let n = d[d.len() - 1];
            let mut p = v.to_vec();
            for row in p.chunks_mut(n) {
                let m = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let sum: f32 = row.iter().map(|x| (x - m).exp()).sum();
                for x in row.iter_mut() {
                    *x = (*x - m).exp() / sum;
                }
            }
            one(matmul(&Tensor::F32(d.to_vec(), p), req(args, 2)?)?)
        }
        Equal | Less | LessOrEqual | Greater | GreaterOrEqual | And | Or | Mod => {
            let f: fn(f64, f64) -> f64 = match kind {
                Equal => |a, b| f64::from(u8::from(a == b)),
                Less => |a, b| f64::from(u8::from(a < b)),
                LessOrEqual => |a, b| f64::from(u8::from(a <= b)),
                Greater => |a, b| f64::from(u8::from(a > b)),
                GreaterOrEqual => |a, b| f64::from(u8::from(a >= b)),
                And => |a, b| f64::from(u8::from(a != 0.0 && b != 0.0)),
                Or => |a, b| f64::from(u8::from(a != 0.0 || b != 0.0)),
                _ => |a, b| a - b * (a / b).floor(),
            };
            let ((da, va, ia), (db, vb, ib)) = (as_f64(x()?), as_f64(req(args, 1)?));
            let out = broadcast_dims(&da, &db)?;
            let v: Vec<f64> = coords(&out)
                .map(|c| f(va[source_index(&da, &c)], vb[source_index(&db, &c)]))
                .collect();
            let int = kind != Mod || (ia && ib);
            one(from_f64(out, &v, int))
        }
        Not => {
            let (d, v, _) = as_f64(x()?);
            one(Tensor::I64(
                d,
                v.iter().map(|&a| i64::from(a == 0.0)).collect(),
            ))
        }
        Where => {
            let (dc, vc, _) = as_f64(x()?);
            let ((da, va, ia), (db, vb, _)) = (as_f64(req(args, 1)?), as_f64(req(args, 2)?));
            let out = broadcast_dims(&broadcast_dims(&dc, &da)?, &db)?;
            let v: Vec<f64> = coords(&out)
                .map(|c| {
                    if vc[source_index(&dc, &c)] != 0.0 {
                        va[source_index(&da, &c)]
                    } else {
                        vb[source_index(&db, &c)]
                    }
                })
                .collect();
            one(from_f64(out, &v, ia))
        }
        Expand => {
            let shape: Vec<usize> = req(args, 1)?.ints()?.iter().map(|&d| d as usize).collect();
            let (d, v, int) = as_f64(x()?);
            let out = broadcast_dims(&d, &shape)?;
            let e: Vec<f64> = coords(&out).map(|c| v[source_index(&d, &c)]).collect();
            one(from_f64(out, &e, int))
        }
        ConstantOfShape => {
            let dims: Vec<usize> = x()?.ints()?.iter().map(|&d| d as usize).collect();
            let n = numel(&dims);
            match op.attr("value") {
                Some(Attr::Tensor(t)) => match Tensor::from_data(&t)? {
                    Tensor::F32(_, v) => {
                        one(Tensor::F32(dims, vec![*v.first().ok_or("empty value")?; n]))
                    }
                    Tensor::I64(_, v) => {
                        one(Tensor::I64(dims, vec![*v.first().ok_or("empty value")?; n]))
                    }
                },
                _ => one(Tensor::F32(dims, vec![0.0; n])),
            }
        }
        Shape => {
            let d = x()?.dims();
            let r = d.len() as i64;
            let clamp = |a: i64| (if a < 0 { a + r } else { a }).clamp(0, r) as usize;
            let (start, end) = (clamp(op.int("start", 0)), clamp(op.int("end", r)));
            let v: Vec<i64> = d[start..end.max(start)].iter().map(|&n| n as i64).collect();
            one(Tensor::I64(vec![v.len()], v))
        }
        Gather => {
            let data = x()?;
            let d = data.dims().to_vec();
            let ax = axis(&op, "axis", 0, d.len())?;
            let idx = req(args, 1)?;
            let (di, vi) = (idx.dims().to_vec(), idx.ints()?);
            let (outer, n, inner) = (numel(&d[..ax]), d[ax], numel(&d[ax + 1..]));
            let mut dims = d[..ax].to_vec();
            dims.extend(&di);
            dims.extend(&d[ax + 1..]);
            let (_, v, int) = as_f64(data);
            let mut out = Vec::with_capacity(numel(&dims));
            for o in 0..outer {
                for &i in &vi {
                    let i = if i < 0 { i + n as i64 } else { i };
                    if !(0..n as i64).contains(&i) {
                        return Err(format!("Gather index {i} out of range"));
                    }
                    let base = (o * n + i as usize) * inner;
                    out.extend_from_slice(&v[base..base + inner]);
                }
            }
            one(from_f64(dims, &out, int))
        }
        Slice => {
            let data = x()?;
            let d = data.dims().to_vec();
            let starts = req(args, 1)?.ints()?;
            let ends = req(args, 2)?.ints()?;
            let axes = match args.get(3).copied().flatten() {
                Some(a) => a.ints()?,
                None => (0..starts.len() as i64).collect(),
            };
            let steps = match args.get(4).copied().flatten() {
                Some(s) => s.ints()?,
                None => vec![1; starts.len()],
            };
            if ends.len() != starts.len()
                || axes.len() != starts.len()
                || steps.len() != starts.len()
            {
                return Err("Slice operands of different lengths".into());
            }
            let mut ranges: Vec<Vec<usize>> = d.iter().map(|&n| (0..n).collect()).collect();
            for k in 0..starts.len() {
                let a = normalize(axes[k], d.len())?;
                let n = d[a] as i64;
                let step = steps[k];
                if step == 0 {
                    return Err("Slice step 0".into());
                }
                let fix = |v: i64, lo: i64, hi: i64| (if v < 0 { v + n } else { v }).clamp(lo, hi);
                let (s0, e0) = if step > 0 {
                    (fix(starts[k], 0, n), fix(ends[k], 0, n))
                } else {
                    (fix(starts[k], -1, n - 1), fix(ends[k], -1, n - 1))
                };
                let mut picked = vec![];
                let mut i = s0;
                while (step > 0 && i < e0) || (step < 0 && i > e0) {
                    picked.push(i as usize);
                    i += step;
                }
                ranges[a] = picked;
            }
            let dims: Vec<usize> = ranges.iter().map(Vec::len).collect();
            let (_, v, int) = as_f64(data);
            let out: Vec<f64> = coords(&dims)
                .map(|c| {
                    v[c.iter()
                        .enumerate()
                        .fold(0, |acc, (k, &i)| acc * d[k] + ranges[k][i])]
                })
                .collect();
            one(from_f64(dims, &out, int))
        }
        other => Err(format!(
            "the reference interpreter does not run {}",
            other.name()
        )),
    }
}

/// Any tensor as `f64` values (dims, values, whether it was integer).
fn as_f64(t: &Tensor) -> (Vec<usize>, Vec<f64>, bool) {
    match t {
        Tensor::F32(d, v) => (d.clone(), v.iter().map(|&x| f64::from(x)).collect(), false),
        Tensor::I64(d, v) => (d.clone(), v.iter().map(|&x| x as f64).collect(), true),
    }
}

fn from_f64(dims: Vec<usize>, v: &[f64], int: bool) -> Tensor {
    if int {
        Tensor::I64(dims, v.iter().map(|&x| x as i64).collect())
    } else {
        Tensor::F32(dims, v.iter().map(|&x| x as f32).collect())
    }
}

fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + (-v).exp())
}

/// erf by Abramowitz–Stegun 7.1.26 refined: |error| < 1.5e-7.
fn erf(x: f32) -> f32 {
    let x = f64::from(x);
    let t = 1.0 / (1.0 + 0.3275911 * x.abs());
    let y = 1.0
        - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
            + 0.254829592)
            * t
            * (-x * x).exp();
    (if x >= 0.0 { y } else { -y }) as f32
}

/// The activations of the internal ops (`tools/internal_ops.py`).
fn activation(name: &str, p: &[f32], x: f32) -> Result<f32, String> {
    Ok(match name {
        "" => x,
        "Relu" => x.max(0.0),
        "LeakyRelu" => {
            if x >= 0.0 {
                x
            } else {
                p[0] * x
            }
        }
        "Sigmoid" => sigmoid(x),
        "Tanh" => x.tanh(),
        "Clip" => x.max(p[0]).min(p[1]),
        "HardSigmoid" => (p[0] * x + p[1]).clamp(0.0, 1.0),
        "HardSwish" => x * (x / 6.0 + 0.5).clamp(0.0, 1.0),
        "Silu" => x * sigmoid(x),
        "Gelu" => 0.5 * x * (1.0 + erf(x / std::f32::consts::SQRT_2)),
        "GeluTanh" => {
            0.5 * x
                * (1.0 + ((2.0 / std::f32::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
        }
        other => return Err(format!("unknown activation {other}")),
    })
}

fn act(op: &Op, y: Tensor) -> Result<Tensor, String> {
    let (name, p) = (op.string("activation"), op.floats("activation_params"));
    let (d, v) = y.f()?;
    Ok(Tensor::F32(
        d.to_vec(),
        v.iter()
            .map(|&x| activation(&name, &p, x))
            .collect::<Result<_, _>>()?,
    ))
}

fn map(t: &Tensor, f: impl Fn(f32) -> f32) -> Result<Vec<Tensor>, String> {
    let (d, v) = t.f()?;
    Ok(vec![Tensor::F32(
        d.to_vec(),
        v.iter().map(|&x| f(x)).collect(),
    )])
}

fn with_dims(t: &Tensor, dims: Vec<usize>) -> Tensor {
    match t {
        Tensor::F32(_, v) => Tensor::F32(dims, v.clone()),
        Tensor::I64(_, v) => Tensor::I64(dims, v.clone()),
    }
}

fn broadcast_dims(a: &[usize], b: &[usize]) -> Result<Vec<usize>, String> {
    let r = a.len().max(b.len());
    (0..r)
        .map(|i| {
            let x = if i + a.len() >= r {
                a[i + a.len() - r]
            } else {
                1
            };
            let y = if i + b.len() >= r {
                b[i + b.len() - r]
            } else {
                1
            };
            match (x, y) {
                (1, d) | (d, 1) => Ok(d),
                (p, q) if p == q => Ok(p),
                _ => Err(format!("{a:?} and {b:?} do not broadcast")),
            }
        })
        .collect()
}

/// The flat index into `dims` (right-aligned, broadcast) of output
/// coordinate `coord`.
fn source_index(dims: &[usize], coord: &[usize]) -> usize {
    let pad = coord.len() - dims.len();
    dims.iter().enumerate().fold(0, |acc, (k, &d)| {
        acc * d + if d == 1 { 0 } else { coord[pad + k] }
    })
}

fn coords(dims: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    (0..numel(dims)).map(move |mut i| {
        let mut c = vec![0; dims.len()];
        for k in (0..dims.len()).rev() {
            c[k] = i % dims[k];
            i /= dims[k];
        }
        c
    })
}

fn binary(a: &Tensor, b: &Tensor, f: impl Fn(f32, f32) -> f32) -> Result<Tensor, String> {
    let ((da, va), (db, vb)) = (a.f()?, b.f()?);
    let out = broadcast_dims(da, db)?;
    let data = coords(&out)
        .map(|c| f(va[source_index(da, &c)], vb[source_index(db, &c)]))
        .collect();
    Ok(Tensor::F32(out, data))
}

fn int_binary(kind: OpKind, a: &Tensor, b: &Tensor) -> Result<Tensor, String> {
    let (va, vb) = (a.ints()?, b.ints()?);
    let out = broadcast_dims(a.dims(), b.dims())?;
    let f = |p: i64, q: i64| match kind {
        OpKind::Add => p + q,
        OpKind::Sub => p - q,
        OpKind::Mul => p * q,
        _ => p / q,
    };
    let data = coords(&out)
        .map(|c| {
            f(
                va[source_index(a.dims(), &c)],
                vb[source_index(b.dims(), &c)],
            )
        })
        .collect();
    Ok(Tensor::I64(out, data))
}

fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor, String> {
    let ((da, va), (db, vb)) = (a.f()?, b.f()?);
    if da.len() < 2 || db.len() < 2 {
        return Err("matmul operands must be at least 2-D".into());
    }
    let (m, k, n) = (da[da.len() - 2], da[da.len() - 1], db[db.len() - 1]);
    if db[db.len() - 2] != k {
        return Err("matmul inner dims differ".into());
    }
    let batch = broadcast_dims(&da[..da.len() - 2], &db[..db.len() - 2])?;
    let mut out = vec![0.0f32; numel(&batch) * m * n];
    for (bi, c) in coords(&batch).enumerate() {
        let oa = source_index(&da[..da.len() - 2], &c) * m * k;
        let ob = source_index(&db[..db.len() - 2], &c) * k * n;
        for i in 0..m {
            for p in 0..k {
                let x = va[oa + i * k + p];
                for j in 0..n {
                    out[bi * m * n + i * n + j] += x * vb[ob + p * n + j];
                }
            }
        }
    }
    let mut dims = batch;
    dims.extend([m, n]);
    Ok(Tensor::F32(dims, out))
}

fn gemm(op: &Op, a: &Tensor, b: &Tensor, c: Option<&Tensor>) -> Result<Tensor, String> {
    let a = if op.int("transA", 0) != 0 {
        transpose(a, &[1, 0])
    } else {
        a.clone()
    };
    let b = if op.int("transB", 0) != 0 {
        transpose(b, &[1, 0])
    } else {
        b.clone()
    };
    let (alpha, beta) = (op.float("alpha", 1.0), op.float("beta", 1.0));
    let y = map(&matmul(&a, &b)?, |v| alpha * v)?.remove(0);
    match c {
        Some(c) => binary(&y, c, |p, q| p + beta * q),
        None => Ok(y),
    }
}

fn transpose(t: &Tensor, perm: &[usize]) -> Tensor {
    let d = t.dims();
    let out: Vec<usize> = perm.iter().map(|&p| d[p]).collect();
    let src = |c: &[usize]| {
        let mut src = vec![0; d.len()];
        for (k, &p) in perm.iter().enumerate() {
            src[p] = c[k];
        }
        src.iter().zip(d).fold(0, |acc, (&i, &n)| acc * n + i)
    };
    match t {
        Tensor::F32(_, v) => Tensor::F32(out.clone(), coords(&out).map(|c| v[src(&c)]).collect()),
        Tensor::I64(_, v) => Tensor::I64(out.clone(), coords(&out).map(|c| v[src(&c)]).collect()),
    }
}

fn concat(parts: &[&Tensor], axis: i64) -> Result<Tensor, String> {
    let d = parts[0].dims().to_vec();
    let axis = if axis < 0 {
        axis + d.len() as i64
    } else {
        axis
    } as usize;
    let (outer, inner) = (numel(&d[..axis]), numel(&d[axis + 1..]));
    let mut dims = d.clone();
    dims[axis] = parts.iter().map(|p| p.dims()[axis]).sum();
    match parts[0] {
        Tensor::F32(..) => {
            let mut out = vec![];
            for o in 0..outer {
                for p in parts {
                    let (pd, v) = p.f()?;
                    let chunk = pd[axis] * inner;
                    out.extend_from_slice(&v[o * chunk..(o + 1) * chunk]);
                }
            }
            Ok(Tensor::F32(dims, out))
        }
        Tensor::I64(..) => {
            let mut out = vec![];
            for o in 0..outer {
                for p in parts {
                    let v = p.ints()?;
                    let chunk = p.dims()[axis] * inner;
                    out.extend_from_slice(&v[o * chunk..(o + 1) * chunk]);
                }
            }
            Ok(Tensor::I64(dims, out))
        }
    }
}

fn reduce(kind: OpKind, t: &Tensor, axes: &[i64], keep: bool) -> Result<Tensor, String> {
    let (d, v) = t.f()?;
    let r = d.len() as i64;
    let axes: Vec<usize> = if axes.is_empty() {
        (0..d.len()).collect()
    } else {
        axes.iter()
            .map(|&a| if a < 0 { a + r } else { a } as usize)
            .collect()
    };
    let kept: Vec<usize> = d
        .iter()
        .enumerate()
        .map(|(i, &n)| if axes.contains(&i) { 1 } else { n })
        .collect();
    let mut acc = vec![
        if kind == OpKind::ReduceMax {
            f32::NEG_INFINITY
        } else {
            0.0
        };
        numel(&kept)
    ];
    for (i, c) in coords(d).enumerate() {
        let o = source_index(&kept, &c);
        acc[o] = if kind == OpKind::ReduceMax {
            acc[o].max(v[i])
        } else {
            acc[o] + v[i]
        };
    }
    if kind == OpKind::ReduceMean {
        let n = axes.iter().map(|&a| d[a]).product::<usize>() as f32;
        acc.iter_mut().for_each(|x| *x /= n);
    }
    let dims = if keep {
        kept
    } else {
        d.iter()
            .enumerate()
            .filter(|(i, _)| !axes.contains(i))
            .map(|(_, &n)| n)
            .collect()
    };
    Ok(Tensor::F32(dims, acc))
}

/// Conv with `group`, `pads`, `strides`, `dilations` (explicit padding or
/// auto_pad NOTSET/VALID), any number of spatial dims.
fn conv(op: &Op, x: &Tensor, w: &Tensor, b: Option<&Tensor>) -> Result<Tensor, String> {
    let ((dx, vx), (dw, vw)) = (x.f()?, w.f()?);
    let s = dx.len() - 2;
    let group = op.int("group", 1) as usize;
    let strides = op.ints("strides").unwrap_or(vec![1; s]);
    let dil = op.ints("dilations").unwrap_or(vec![1; s]);
    let pads = match op.string("auto_pad").as_str() {
        "" | "NOTSET" | "VALID" => op.ints("pads").unwrap_or(vec![0; 2 * s]),
        other => return Err(format!("auto_pad {other}")),
    };
    let (n, c, m) = (dx[0], dx[1], dw[0]);
    let cg = c / group;
    let k = &dw[2..];
    let out_sp: Vec<usize> = (0..s)
        .map(|i| {
            (dx[2 + i] as i64 + pads[i] + pads[s + i] - dil[i] * (k[i] as i64 - 1) - 1) / strides[i]
                + 1
        })
        .map(|v| v as usize)
        .collect();
    let bias = b.map(|b| b.f().map(|t| t.1.to_vec())).transpose()?;
    let mut out_dims = vec![n, m];
    out_dims.extend(&out_sp);
    let mut out = vec![0.0f32; numel(&out_dims)];
    let (in_sp, osz, ksz) = (numel(&dx[2..]), numel(&out_sp), numel(k));
    for (oi, oc) in coords(&out_sp).enumerate() {
        for kc in coords(k) {
            let pos: Option<Vec<usize>> = (0..s)
                .map(|i| {
                    let p = oc[i] as i64 * strides[i] - pads[i] + kc[i] as i64 * dil[i];
                    (0..dx[2 + i] as i64).contains(&p).then_some(p as usize)
                })
                .collect();
            let Some(pos) = pos else { continue };
            let ii = pos
                .iter()
                .zip(&dx[2..])
                .fold(0, |acc, (&p, &d)| acc * d + p);
            let ki = kc.iter().zip(k).fold(0, |acc, (&p, &d)| acc * d + p);
            for bn in 0..n {
                for mo in 0..m {
                    let g = mo / (m / group);
                    let mut acc = 0.0;
                    for ci in 0..cg {
                        acc +=
                            vx[(bn * c + g * cg + ci) * in_sp + ii] * vw[(mo * cg + ci) * ksz + ki];
                    }
                    out[(bn * m + mo) * osz + oi] += acc;
                }
            }
        }
    }
    if let Some(bias) = bias {
        for (i, o) in out.iter_mut().enumerate() {
            *o += bias[(i / osz) % m];
        }
    }
    Ok(Tensor::F32(out_dims, out))
}

fn pool(op: &Op, kind: OpKind, x: &Tensor) -> Result<Tensor, String> {
    let (d, v) = x.f()?;
    let s = d.len() - 2;
    let k = op.ints("kernel_shape").ok_or("no kernel_shape")?;
    let strides = op.ints("strides").unwrap_or(vec![1; s]);
    let pads = op.ints("pads").unwrap_or(vec![0; 2 * s]);
    let out_sp: Vec<usize> = (0..s)
        .map(|i| ((d[2 + i] as i64 + pads[i] + pads[s + i] - k[i]) / strides[i] + 1) as usize)
        .collect();
    let kd: Vec<usize> = k.iter().map(|&v| v as usize).collect();
    let mut dims = d[..2].to_vec();
    dims.extend(&out_sp);
    let (in_sp, osz) = (numel(&d[2..]), numel(&out_sp));
    let mut out = vec![0.0f32; numel(&dims)];
    for nc in 0..d[0] * d[1] {
        for (oi, oc) in coords(&out_sp).enumerate() {
            let mut acc = if kind == OpKind::MaxPool {
                f32::NEG_INFINITY
            } else {
                0.0
            };
            let mut count = 0;
            for kc in coords(&kd) {
                let pos: Option<Vec<usize>> = (0..s)
                    .map(|i| {
                        let p = oc[i] as i64 * strides[i] - pads[i] + kc[i] as i64;
                        (0..d[2 + i] as i64).contains(&p).then_some(p as usize)
                    })
                    .collect();
                let Some(pos) = pos else { continue };
                let ii = pos.iter().zip(&d[2..]).fold(0, |acc, (&p, &n)| acc * n + p);
                let val = v[nc * in_sp + ii];
                acc = if kind == OpKind::MaxPool {
                    acc.max(val)
                } else {
                    acc + val
                };
                count += 1;
            }
            out[nc * osz + oi] = if kind == OpKind::MaxPool {
                acc
            } else {
                acc / count.max(1) as f32
            };
        }
    }
    Ok(Tensor::F32(dims, out))
}

/// The largest difference between two tensors, relative to the reference's
/// magnitude (`|a − b| / (1 + |b|)`); `None` when shapes differ.
pub fn max_rel_diff(a: &Tensor, b: &Tensor) -> Option<f32> {
    match (a, b) {
        (Tensor::F32(da, va), Tensor::F32(db, vb)) if da == db => Some(
            va.iter()
                .zip(vb)
                .map(|(x, y)| (x - y).abs() / (1.0 + y.abs()))
                .fold(0.0, f32::max),
        ),
        (Tensor::I64(da, va), Tensor::I64(db, vb)) if da == db => {
            Some(if va == vb { 0.0 } else { f32::INFINITY })
        }
        _ => None,
    }
}
