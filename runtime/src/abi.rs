//! The C ABI between compiled models and their runtime (`docs/abi.md`):
//! `#[repr(C)]` mirrors of its structs, the error codes, and the one place
//! that reads a model's `omlc_model_info` into owned Rust values.
//!
//! Everything a compiled model describes about itself is checked here
//! before the rest of the runtime trusts it, so that a code generator bug
//! shows up as [`RuntimeError::ModelInfo`] instead of a wild pointer.

use std::ffi::{c_char, c_void, CStr};

use onnx_mlc_dialect::ElemType;

use crate::error::{Result, RuntimeError};
use crate::signature::{IoSpec, ModelSignature, SpecDim};

/// The ABI version this runtime implements (`omlc_model_info.abi_version`).
pub const ABI_VERSION: u32 = 2;

/// Success.
pub const OMLC_OK: i32 = 0;
/// The inputs or outputs given to a run do not match the model.
pub const OMLC_ERR_INVALID_ARGUMENT: i32 = 1;
/// Memory exhausted.
pub const OMLC_ERR_ALLOC: i32 = 2;
/// A shape check in the compiled code failed (broadcast, reshape, …).
pub const OMLC_ERR_SHAPE: i32 = 3;
/// An index in the input data is out of range (Gather, …).
pub const OMLC_ERR_INDEX: i32 = 4;
/// The input values need something the compiled code does not handle.
pub const OMLC_ERR_UNSUPPORTED: i32 = 5;
/// An invariant of the compiler or runtime failed (a bug).
pub const OMLC_ERR_INTERNAL: i32 = 6;
/// The weights file cannot be read.
pub const OMLC_ERR_IO: i32 = 7;

/// The `OMLC_ERR_*` name of a code and what it means.
pub fn error_code_info(code: i32) -> (&'static str, &'static str) {
    match code {
        OMLC_OK => ("OMLC_OK", "success"),
        OMLC_ERR_INVALID_ARGUMENT => (
            "OMLC_ERR_INVALID_ARGUMENT",
            "the inputs or outputs do not match the model",
        ),
        OMLC_ERR_ALLOC => ("OMLC_ERR_ALLOC", "out of memory"),
        OMLC_ERR_SHAPE => ("OMLC_ERR_SHAPE", "a run-time shape check failed"),
        OMLC_ERR_INDEX => ("OMLC_ERR_INDEX", "an index is out of range"),
        OMLC_ERR_UNSUPPORTED => (
            "OMLC_ERR_UNSUPPORTED",
            "the input values need something the compiled code lacks",
        ),
        OMLC_ERR_INTERNAL => ("OMLC_ERR_INTERNAL", "internal error"),
        OMLC_ERR_IO => ("OMLC_ERR_IO", "the weights file cannot be read"),
        _ => (
            "unknown error code",
            "the model returned a code the ABI does not define",
        ),
    }
}

/// `omlc_tensor`: a dense, row-major, contiguous tensor.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OmlcTensor {
    /// The element buffer.
    pub data: *mut c_void,
    /// `rank` dims; for outputs, a caller buffer the model writes.
    pub shape: *mut i64,
    /// Number of dims.
    pub rank: i32,
    /// ONNX `TensorProto.DataType` code.
    pub dtype: i32,
}

/// `omlc_rt`: the opaque runtime context compiled code passes back to the
/// runtime functions. In this runtime it is an
/// [`RtContext`](crate::RtContext).
#[repr(C)]
pub struct OmlcRt {
    _opaque: [u8; 0],
}

/// `omlc_io_info`: one graph input or output.
#[repr(C)]
#[derive(Debug)]
pub struct OmlcIoInfo {
    /// NUL-terminated UTF-8 name.
    pub name: *const c_char,
    /// ONNX `TensorProto.DataType` code.
    pub dtype: i32,
    /// Number of dims.
    pub rank: i32,
    /// `rank` sizes, -1 where symbolic or unknown.
    pub dims: *const i64,
    /// `rank` entries (or NULL when no dim is symbolic): the `dim_param`
    /// name of a symbolic dim, NULL for static and unknown dims.
    pub dim_params: *const *const c_char,
}

/// `omlc_model_info`: everything the runtime knows about a compiled model.
#[repr(C)]
#[derive(Debug)]
pub struct OmlcModelInfo {
    /// [`ABI_VERSION`].
    pub abi_version: u32,
    /// Number of graph inputs.
    pub num_inputs: i32,
    /// Number of graph outputs.
    pub num_outputs: i32,
    /// `num_inputs` descriptions.
    pub inputs: *const OmlcIoInfo,
    /// `num_outputs` descriptions.
    pub outputs: *const OmlcIoInfo,
    /// Bytes of the static arena `__omlc_main` receives.
    pub workspace_size: u64,
    /// Number of weights.
    pub num_weights: i32,
    /// `num_weights` byte offsets into the weights blob.
    pub weight_offsets: *const u64,
    /// Bytes of the weights blob.
    pub weights_size: u64,
    /// The embedded weights, or NULL.
    pub weights_blob: *const u8,
    /// The side file holding the weights, or NULL.
    pub weights_file: *const c_char,
}

/// `omlc_segment_info`: one compiled model of an AOT library.
#[repr(C)]
#[derive(Debug)]
pub struct OmlcSegmentInfo {
    /// Its description.
    pub info: *const OmlcModelInfo,
    /// Its entry point.
    pub main: MainFn,
}

/// `omlc_program_info` (`omlc_program_get`): what an AOT library holds.
#[repr(C)]
#[derive(Debug)]
pub struct OmlcProgramInfo {
    /// [`ABI_VERSION`].
    pub abi_version: u32,
    /// Number of compiled models.
    pub num_segments: i32,
    /// `num_segments` entries.
    pub segments: *const OmlcSegmentInfo,
    /// The serialized host program (`Program::to_bytes`), or NULL for a
    /// library of one model.
    pub program: *const u8,
    /// Its size in bytes.
    pub program_size: u64,
    /// Number of size variants of the one model (`onnx-mlc --specialize`).
    pub num_variants: i32,
    /// `num_variants` entries: the model compiled for fixed sizes of some
    /// of its symbolic input dims, its weights in segment 0's blob.
    pub variants: *const OmlcSegmentInfo,
}

/// The task `omlc_rt_parallel_for` runs: `task(ctx, begin, end)`.
pub type TaskFn = unsafe extern "C" fn(ctx: *mut c_void, begin: i64, end: i64);

/// `__omlc_main`: runs the model once.
pub type MainFn = unsafe extern "C" fn(
    inputs: *const OmlcTensor,
    outputs: *mut OmlcTensor,
    workspace: *mut u8,
    weights: *const *const c_void,
    rt: *mut OmlcRt,
) -> i32;

fn bad(message: impl Into<String>) -> RuntimeError {
    RuntimeError::ModelInfo(message.into())
}

/// A `count`-element array, empty when `count` is 0 (the pointer may then
/// be NULL).
///
/// # Safety
/// When `count > 0` and `ptr` is non-NULL, `ptr` must point at `count`
/// readable `T`s that live for `'a`.
unsafe fn array<'a, T>(ptr: *const T, count: i64, what: &str) -> Result<&'a [T]> {
    let count = usize::try_from(count).map_err(|_| bad(format!("{what}: negative count")))?;
    if count == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(bad(format!("{what}: NULL array of {count} entries")));
    }
    // SAFETY: non-NULL, and the caller vouches for `count` entries.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// A NUL-terminated UTF-8 string.
///
/// # Safety
/// `ptr` must be NULL or point at a NUL-terminated string.
unsafe fn string(ptr: *const c_char, what: &str) -> Result<Option<String>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL and NUL-terminated (caller).
    let s = unsafe { CStr::from_ptr(ptr) };
    let s = s
        .to_str()
        .map_err(|_| bad(format!("{what}: name is not UTF-8")))?;
    Ok(Some(s.to_owned()))
}

/// Reads one input or output description.
///
/// # Safety
/// `io`'s pointers must satisfy the ABI (see [`read_signature`]).
unsafe fn read_io(io: &OmlcIoInfo, what: &str) -> Result<IoSpec> {
    // SAFETY: the ABI makes `name` NULL or a NUL-terminated string.
    let name = unsafe { string(io.name, what)? }.ok_or_else(|| bad(format!("{what}: no name")))?;
    let what = format!("{what} \"{name}\"");
    let elem = ElemType::from_onnx(io.dtype)
        .ok_or_else(|| bad(format!("{what}: unknown dtype {}", io.dtype)))?;
    let rank = i64::from(io.rank);
    // SAFETY: the ABI makes `dims` an array of `rank` sizes.
    let dims = unsafe { array(io.dims, rank, &what)? };
    let params = if io.dim_params.is_null() {
        vec![std::ptr::null(); dims.len()]
    } else {
        // SAFETY: non-NULL `dim_params` has `rank` entries (ABI).
        unsafe { array(io.dim_params, rank, &what)? }.to_vec()
    };
    let mut spec_dims = Vec::with_capacity(dims.len());
    for (axis, (&size, &param)) in dims.iter().zip(&params).enumerate() {
        // SAFETY: each entry is NULL or a NUL-terminated string (ABI).
        let param = unsafe { string(param, &what)? };
        spec_dims.push(match (size, param) {
            (-1, Some(p)) => SpecDim::Param(p),
            (-1, None) => SpecDim::Unknown,
            (s, None) if s >= 0 => SpecDim::Static(s),
            (s, _) => {
                return Err(bad(format!(
                    "{what}: dim {axis} is {s} with a dim_param entry"
                )))
            }
        });
    }
    Ok(IoSpec {
        name,
        elem,
        dims: spec_dims,
    })
}

/// Reads a compiled model's description, checking it against the ABI.
///
/// # Safety
/// `info` must be NULL or point at an `omlc_model_info` laid out as the ABI
/// says, whose arrays and strings stay valid during the call.
pub unsafe fn read_signature(info: *const OmlcModelInfo) -> Result<ModelSignature> {
    // SAFETY: NULL or a valid `omlc_model_info` (caller).
    let info = unsafe { info.as_ref() }.ok_or_else(|| bad("NULL omlc_model_info"))?;
    if info.abi_version != ABI_VERSION {
        return Err(bad(format!(
            "ABI version {}, this runtime implements {ABI_VERSION}",
            info.abi_version
        )));
    }
    // SAFETY: the ABI's arrays of `num_inputs`/`num_outputs` descriptions.
    let (ins, outs) = unsafe {
        (
            array(info.inputs, info.num_inputs.into(), "inputs")?,
            array(info.outputs, info.num_outputs.into(), "outputs")?,
        )
    };
    // SAFETY: each description follows the ABI (caller).
    let inputs = ins
        .iter()
        .map(|io| unsafe { read_io(io, "input") })
        .collect::<Result<_>>()?;
    // SAFETY: as above.
    let outputs = outs
        .iter()
        .map(|io| unsafe { read_io(io, "output") })
        .collect::<Result<_>>()?;
    let num_weights = usize::try_from(info.num_weights)
        .map_err(|_| bad(format!("{} weights", info.num_weights)))?;
    // SAFETY: a NUL-terminated string or NULL (ABI).
    let weights_file = unsafe { string(info.weights_file, "weights_file")? };
    Ok(ModelSignature {
        inputs,
        outputs,
        workspace_size: info.workspace_size,
        num_weights,
        weights_file,
    })
}

/// The weight pointers of a model whose weights are embedded
/// (`weights_blob + weight_offsets[k]`).
///
/// # Safety
/// As for [`read_signature`]; the blob must hold `weights_size` bytes.
pub unsafe fn embedded_weights(info: *const OmlcModelInfo) -> Result<Vec<*const c_void>> {
    // SAFETY: NULL or a valid `omlc_model_info` (caller).
    let info = unsafe { info.as_ref() }.ok_or_else(|| bad("NULL omlc_model_info"))?;
    if info.num_weights > 0 && info.weights_blob.is_null() {
        return Err(bad("the weights are not embedded (weights_blob is NULL)"));
    }
    // SAFETY: `num_weights` offsets (ABI).
    let offsets = unsafe { array(info.weight_offsets, info.num_weights.into(), "weights")? };
    offsets
        .iter()
        .enumerate()
        .map(|(k, &offset)| {
            // `==` is a zero-byte weight at the end.
            if offset > info.weights_size {
                return Err(bad(format!(
                    "weight {k} at offset {offset} is outside the {}-byte blob",
                    info.weights_size
                )));
            }
            // SAFETY: `offset` is at most the blob's size (checked above).
            Ok(unsafe { info.weights_blob.add(offset as usize) }.cast())
        })
        .collect()
}
