//! The input tensors of `run` and `bench`: read from files, or seeded
//! random.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use onnx_mlc::{IoSpec, Map, MapKey, Optional, Sequence, SpecDim, StringTensor, Tensor, Value};
use onnx_mlc_dialect::{ElemType, Model, TensorData, Type};
use onnx_mlc_import::{read_value, MapKey as TestKey, TestValue};

use crate::npy;

/// A valid input onnx-mlc cannot take yet (a sequence, say): `run`'s exit
/// code 3, like an unsupported operator.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unsupported(pub String);

/// Reads one tensor per file: `.npy` arrays, any other file a serialized
/// value of the type the model declares for that input (a `TensorProto`
/// for a tensor input).
pub fn read_all(model: &Model, paths: &[PathBuf]) -> Result<Vec<Tensor>> {
    read_each(model, paths, read)
}

/// Reads one value per file, of any kind (`run`, whose model may take
/// sequences, optionals or strings): `.npy` arrays, any other file a
/// serialized value of the type the model declares for that input.
pub fn read_values(model: &Model, paths: &[PathBuf]) -> Result<Vec<Value>> {
    read_each(model, paths, |path, ty| {
        if path.extension().is_some_and(|e| e == "npy") {
            return Ok(Value::Tensor(npy::decode(&std::fs::read(path)?)?));
        }
        to_value(read_value(path, ty)?, ty)
    })
}

/// Reads file `k` with `read` and the type the model declares for input
/// `k`.
fn read_each<T>(
    model: &Model,
    paths: &[PathBuf],
    read: impl Fn(&Path, &Type) -> Result<T>,
) -> Result<Vec<T>> {
    let g = model.ir.region(model.graph);
    let declared: Vec<&Type> = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| model.ir.ty(a.value))
        .collect();
    paths
        .iter()
        .enumerate()
        .map(|(k, p)| {
            // Files beyond the model's inputs are read as tensors; the
            // run then reports the count.
            let ty = declared.get(k).copied().unwrap_or(&Type::Unknown);
            read(p, ty).with_context(|| format!("input {k} ({})", p.display()))
        })
        .collect()
}

fn read(path: &Path, ty: &Type) -> Result<Tensor> {
    if path.extension().is_some_and(|e| e == "npy") {
        let bytes = std::fs::read(path)?;
        return npy::decode(&bytes);
    }
    match read_value(path, ty)? {
        TestValue::Tensor(t) => Ok(Tensor::from_tensor_data(&t).map_err(onnx_mlc::Error::from)?),
        other => Err(Unsupported(format!(
            "{} values are not supported as inputs (tensors only)",
            kind(&other)
        ))
        .into()),
    }
}

/// A test value as a run-time value; `ty` is its declared type (it gives
/// the item type of an empty sequence or an absent optional).
fn to_value(v: TestValue, ty: &Type) -> Result<Value> {
    let inner = |t: &Type| match t {
        Type::Sequence(t) | Type::Optional(t) => (**t).clone(),
        _ => Type::Unknown,
    };
    Ok(match v {
        TestValue::Tensor(t) => match t.strings() {
            Some(strings) => Value::Strings(StringTensor {
                shape: t.dims.clone(),
                data: strings.to_vec(),
            }),
            None => Value::Tensor(Tensor::from_tensor_data(&t).map_err(onnx_mlc::Error::from)?),
        },
        TestValue::Sequence(items) => {
            let elem = inner(ty);
            Value::Sequence(Sequence {
                items: items
                    .into_iter()
                    .map(|i| to_value(i, &elem))
                    .collect::<Result<_>>()?,
                elem,
            })
        }
        TestValue::Optional(o) => {
            let elem = inner(ty);
            Value::Optional(Optional {
                value: o.map(|v| to_value(*v, &elem).map(Box::new)).transpose()?,
                elem,
            })
        }
        TestValue::Map(entries) => {
            let Type::Map(key, value) = ty else {
                bail!("a map given for an input of type {ty}");
            };
            Value::Map(Map {
                key: *key,
                entries: entries
                    .into_iter()
                    .map(|(k, v)| {
                        let k = match k {
                            TestKey::Int(k) => MapKey::Int(k),
                            TestKey::String(k) => MapKey::String(k),
                        };
                        Ok((k, to_value(v, value)?))
                    })
                    .collect::<Result<_>>()?,
                value: (**value).clone(),
            })
        }
        other => {
            return Err(Unsupported(format!(
                "{} values are not supported as inputs",
                kind(&other)
            ))
            .into())
        }
    })
}

/// A run-time value as a test value, to be written as a `.pb` file.
pub fn to_test_value(v: &Value) -> Result<TestValue> {
    Ok(match v {
        Value::Tensor(t) => TestValue::Tensor(t.to_tensor_data()),
        Value::Strings(s) => {
            TestValue::Tensor(TensorData::from_strings(s.shape.clone(), s.data.clone())?)
        }
        Value::Sequence(s) => {
            TestValue::Sequence(s.items.iter().map(to_test_value).collect::<Result<_>>()?)
        }
        Value::Map(m) => TestValue::Map(
            m.entries
                .iter()
                .map(|(k, v)| {
                    let k = match k {
                        MapKey::Int(k) => TestKey::Int(*k),
                        MapKey::String(k) => TestKey::String(k.clone()),
                    };
                    Ok((k, to_test_value(v)?))
                })
                .collect::<Result<_>>()?,
        ),
        Value::Optional(o) => TestValue::Optional(
            o.value
                .as_deref()
                .map(|v| to_test_value(v).map(Box::new))
                .transpose()?,
        ),
    })
}

/// What a non-tensor test value is, for messages.
fn kind(v: &TestValue) -> &'static str {
    match v {
        TestValue::Tensor(_) => "tensor",
        TestValue::Sequence(_) => "sequence",
        TestValue::Map(_) => "map",
        TestValue::Optional(_) => "optional",
        TestValue::SparseTensor(_) => "sparse tensor",
    }
}

/// Seeded inputs for `specs`: floats uniform in [-1, 1), booleans random,
/// integers ones (a valid token id, mask or segment id for the models of
/// the corpus); symbolic dims are 1.
pub fn random(specs: &[IoSpec], seed: u64) -> Result<Vec<Tensor>> {
    let mut rng = SplitMix64(seed);
    specs
        .iter()
        .map(|spec| {
            let shape: Vec<i64> = spec
                .dims
                .iter()
                .map(|d| match d {
                    SpecDim::Static(n) => *n,
                    SpecDim::Param(_) | SpecDim::Unknown => 1,
                })
                .collect();
            let n = shape.iter().product::<i64>() as usize;
            let mut bytes = Vec::with_capacity(spec.elem.packed_bytes(n));
            for _ in 0..n {
                match spec.elem {
                    ElemType::F32 => bytes.extend((rng.unit() as f32).to_le_bytes()),
                    ElemType::F64 => bytes.extend(rng.unit().to_le_bytes()),
                    ElemType::Bool => bytes.push((rng.next() & 1) as u8),
                    e @ (ElemType::I8
                    | ElemType::U8
                    | ElemType::I16
                    | ElemType::U16
                    | ElemType::I32
                    | ElemType::U32
                    | ElemType::I64
                    | ElemType::U64) => {
                        let width = e.bit_width() as usize / 8;
                        bytes.push(1);
                        bytes.extend(std::iter::repeat_n(0, width - 1));
                    }
                    e => bail!(
                        "input \"{}\": no random {e} values; give input files",
                        spec.name
                    ),
                }
            }
            Ok(Tensor::from_bytes(spec.elem, &shape, &bytes).map_err(onnx_mlc::Error::from)?)
        })
        .collect()
}

/// Sebastiano Vigna's SplitMix64: small, seedable, good enough for inputs.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}
