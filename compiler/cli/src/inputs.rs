//! The input tensors of `run` and `bench`: read from files, or seeded
//! random.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use onnx_mlc::{IoSpec, SpecDim, Tensor};
use onnx_mlc_dialect::{ElemType, Model, Type};
use onnx_mlc_import::{read_value, TestValue};

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
