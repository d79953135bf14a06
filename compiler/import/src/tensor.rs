//! `TensorProto` and `SparseTensorProto` to [`TensorData`].
//!
//! A tensor's values can sit in four places: `raw_data` (already our
//! layout, taken zero-copy), an external file (mapped, zero-copy), or one
//! of the typed repeated fields, whose encoding depends on the element type
//! (the IR spec's storage rules, mirrored from `onnx.numpy_helper.to_array`):
//!
//! | field         | element types                                                        |
//! |---------------|----------------------------------------------------------------------|
//! | `float_data`  | FLOAT; COMPLEX64 as (real, imaginary) pairs                          |
//! | `double_data` | DOUBLE; COMPLEX128 as pairs                                          |
//! | `int64_data`  | INT64                                                                |
//! | `uint64_data` | UINT32, UINT64                                                       |
//! | `string_data` | STRING                                                               |
//! | `int32_data`  | INT32, INT16, INT8, UINT16, UINT8, BOOL, FLOAT16, BFLOAT16, FLOAT8*: one element (its bit pattern) per entry; UINT4/INT4/FLOAT4E2M1: one packed byte (two elements) per entry; UINT2/INT2: one packed byte (four elements) per entry; FLOAT6*: one element per entry in bits 0–5 |
//!
//! Typed fields are repacked into the `raw_data` layout.

use bytes::Bytes;
use onnx_mlc_dialect::attr::SparseTensorData;
use onnx_mlc_dialect::tensor::checked_numel;
use onnx_mlc_dialect::{ElemType, ElemType as E, TensorData};
use onnx_mlc_proto::tensor_proto::DataLocation;
use onnx_mlc_proto::{SparseTensorProto, TensorProto};

use crate::error::{ImportError, Result};
use crate::external::ExternalFiles;

/// Converts a `TensorProto`. External data is resolved through `external`.
pub(crate) fn tensor_data(t: &TensorProto, external: &mut ExternalFiles) -> Result<TensorData> {
    let err = |message: String| ImportError::tensor(&t.name, message);
    if t.segment.is_some() {
        return Err(err("segmented tensors are not supported".into()));
    }
    let elem = elem_type(t.data_type).map_err(err)?;
    let dims = t.dims.clone();
    // The bit count must fit too: byte sizes are computed from it.
    let numel = checked_numel(&dims)
        .filter(|n| n.checked_mul(elem.bit_width().max(8) as usize).is_some())
        .ok_or_else(|| err(format!("invalid shape {dims:?}")))?;
    let raw = |bytes: Bytes| {
        TensorData::from_raw(elem, dims.clone(), bytes).map_err(|e| err(e.to_string()))
    };

    if t.data_location == DataLocation::External as i32 {
        if elem == ElemType::String {
            return Err(err(
                "string tensors cannot be stored as external data".into()
            ));
        }
        return raw(external.load(&t.name, &t.external_data)?);
    }
    if elem == ElemType::String {
        if let Some(field) = stray_field(t, "string_data") {
            return Err(err(format!(
                "data is in {field}, which does not hold string"
            )));
        }
        let strings = t.string_data.iter().map(|s| s.to_vec()).collect();
        return TensorData::from_strings(dims, strings).map_err(|e| err(e.to_string()));
    }
    if !t.raw_data.is_empty() {
        return raw(t.raw_data.clone());
    }
    let field = typed_field(elem);
    if let Some(other) = stray_field(t, field) {
        return Err(err(format!(
            "data is in {other}, which does not hold {elem}"
        )));
    }
    let count = |n: usize, per_entry: &str| {
        if n == expected_entries(elem, numel) {
            Ok(())
        } else {
            Err(err(format!(
                "shape {dims:?} needs {} {field} entries ({per_entry}) for {numel} elements of type {elem}, found {n}",
                expected_entries(elem, numel)
            )))
        }
    };
    // Grown as entries are converted, after their count is checked: the
    // shape alone may claim more memory than the data holds.
    let mut out = Vec::new();
    match elem {
        E::F32 | E::Complex64 => {
            count(t.float_data.len(), "one float per element, two for complex")?;
            t.float_data
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        }
        E::F64 | E::Complex128 => {
            count(
                t.double_data.len(),
                "one double per element, two for complex",
            )?;
            t.double_data
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        }
        E::I64 => {
            count(t.int64_data.len(), "one per element")?;
            t.int64_data
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        }
        E::U64 => {
            count(t.uint64_data.len(), "one per element")?;
            t.uint64_data
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        }
        E::U32 => {
            count(t.uint64_data.len(), "one per element")?;
            for &v in &t.uint64_data {
                let v = u32::try_from(v)
                    .map_err(|_| err(format!("uint64_data value {v} does not fit uint32")))?;
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        E::I32 => {
            count(t.int32_data.len(), "one per element")?;
            t.int32_data
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        }
        E::I16 | E::U16 | E::F16 | E::BF16 => {
            count(t.int32_data.len(), "one bit pattern per element")?;
            t.int32_data
                .iter()
                .for_each(|&v| out.extend_from_slice(&(v as u16).to_le_bytes()));
        }
        E::I8
        | E::U8
        | E::Bool
        | E::F8E4M3FN
        | E::F8E4M3FNUZ
        | E::F8E5M2
        | E::F8E5M2FNUZ
        | E::F8E8M0 => {
            count(t.int32_data.len(), "one bit pattern per element")?;
            out.extend(t.int32_data.iter().map(|&v| v as u8));
        }
        E::U4 | E::I4 | E::F4E2M1 => {
            count(
                t.int32_data.len(),
                "one byte of two packed elements per entry",
            )?;
            out.extend(t.int32_data.iter().map(|&v| v as u8));
        }
        E::U2 | E::I2 => {
            count(
                t.int32_data.len(),
                "one byte of four packed elements per entry",
            )?;
            out.extend(t.int32_data.iter().map(|&v| v as u8));
        }
        E::F6E2M3 | E::F6E3M2 => {
            count(t.int32_data.len(), "one element per entry")?;
            out = pack_6bit(t.int32_data.iter().map(|&v| v as u8 & 0x3f));
        }
        E::String => unreachable!("handled above"),
    }
    raw(Bytes::from(out))
}

/// Converts a `SparseTensorProto` (COO form), checking that the indices
/// fit the values and the dense shape.
pub(crate) fn sparse_tensor_data(
    s: &SparseTensorProto,
    external: &mut ExternalFiles,
) -> Result<SparseTensorData> {
    let name = s
        .values
        .as_ref()
        .map(|v| v.name.as_str())
        .unwrap_or_default();
    let err = |message: String| ImportError::tensor(name, format!("sparse tensor: {message}"));
    let values = tensor_data(
        s.values.as_ref().ok_or_else(|| err("no values".into()))?,
        external,
    )?;
    let indices = tensor_data(
        s.indices.as_ref().ok_or_else(|| err("no indices".into()))?,
        external,
    )?;
    let dims = s.dims.clone();
    let dense = checked_numel(&dims).ok_or_else(|| err(format!("invalid shape {dims:?}")))?;
    if values.dims.len() != 1 {
        return Err(err(format!(
            "values must be 1-D, got shape {:?}",
            values.dims
        )));
    }
    let nnz = values.dims[0];
    if indices.elem != ElemType::I64 {
        return Err(err(format!("indices must be int64, got {}", indices.elem)));
    }
    let rank = dims.len() as i64;
    let linear = match indices.dims.as_slice() {
        [n] if *n == nnz => true,
        [n, r] if *n == nnz && *r == rank => false,
        other => {
            return Err(err(format!(
                "indices of shape {other:?} fit neither [{nnz}] nor [{nnz}, {rank}] (NNZ = {nnz}, rank {rank})"
            )))
        }
    };
    let idx = indices
        .to_i64s()
        .ok_or_else(|| err("indices have no data".into()))?;
    let in_range = if linear {
        idx.iter().all(|&i| i >= 0 && (i as u64) < dense as u64)
    } else {
        idx.chunks(dims.len().max(1))
            .all(|c| c.iter().zip(&dims).all(|(&i, &d)| (0..d).contains(&i)))
    };
    if !in_range {
        return Err(err(format!("an index is out of range for shape {dims:?}")));
    }
    Ok(SparseTensorData {
        dims,
        values,
        indices,
    })
}

/// The element type of a `data_type` code.
pub(crate) fn elem_type(code: i32) -> Result<ElemType, String> {
    match ElemType::from_onnx(code) {
        Some(e) => Ok(e),
        None if code == 0 => Err("data type is UNDEFINED".into()),
        None => Err(format!("unknown data type {code}")),
    }
}

/// The typed field that holds `elem` values.
fn typed_field(elem: ElemType) -> &'static str {
    use ElemType::*;
    match elem {
        F32 | Complex64 => "float_data",
        F64 | Complex128 => "double_data",
        I64 => "int64_data",
        U32 | U64 => "uint64_data",
        String => "string_data",
        _ => "int32_data",
    }
}

/// Number of typed-field entries `numel` elements take.
fn expected_entries(elem: ElemType, numel: usize) -> usize {
    use ElemType::*;
    match elem {
        Complex64 | Complex128 => 2 * numel,
        U4 | I4 | F4E2M1 | U2 | I2 => elem.packed_bytes(numel),
        _ => numel,
    }
}

/// A non-empty typed field other than `expected`, if any.
fn stray_field(t: &TensorProto, expected: &str) -> Option<&'static str> {
    let fields = [
        ("float_data", t.float_data.is_empty()),
        ("double_data", t.double_data.is_empty()),
        ("int32_data", t.int32_data.is_empty()),
        ("int64_data", t.int64_data.is_empty()),
        ("uint64_data", t.uint64_data.is_empty()),
        ("string_data", t.string_data.is_empty()),
        ("raw_data", t.raw_data.is_empty()),
    ];
    fields
        .into_iter()
        .find(|&(name, empty)| !empty && name != expected)
        .map(|(name, _)| name)
}

/// Packs 6-bit values into the `raw_data` bit stream: four values per three
/// bytes, least significant bits first, the last group zero-padded and the
/// output trimmed to `ceil(6 * n / 8)` bytes.
fn pack_6bit(values: impl ExactSizeIterator<Item = u8>) -> Vec<u8> {
    let n = values.len();
    let mut out = Vec::with_capacity((6 * n).div_ceil(8));
    let (mut acc, mut bits) = (0u32, 0u32);
    for v in values {
        acc |= u32::from(v) << bits;
        bits += 6;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_bit_packing_matches_the_spec_formula() {
        // byte0 = x0 | (x1 & 3) << 6; byte1 = x1 >> 2 | (x2 & 0xF) << 4; byte2 = x2 >> 4 | x3 << 2
        let x = [0b101010u8, 0b110011, 0b011101, 0b111000];
        let b0 = x[0] | (x[1] & 3) << 6;
        let b1 = x[1] >> 2 | (x[2] & 0xf) << 4;
        let b2 = x[2] >> 4 | x[3] << 2;
        assert_eq!(pack_6bit(x.into_iter()), [b0, b1, b2]);
        // Five values take ceil(30 / 8) = 4 bytes.
        assert_eq!(pack_6bit([1u8, 2, 3, 4, 5].into_iter()).len(), 4);
    }
}
