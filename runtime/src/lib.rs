//! The thin runtime of onnx-mlc: what compiled models need around them.
//!
//! Compiled code — a JIT module or an AOT shared library — does the math;
//! the runtime gives it memory, threads and checked inputs, through the C
//! ABI of `docs/abi.md`. This crate is the runtime the JIT uses, in Rust;
//! AOT libraries carry the C twin in `runtime/c/omlc_rt.c` so that they
//! depend on nothing but libc (`docs/runtime.md` describes both).
//!
//! - [`Tensor`]: an owned, 64-byte aligned tensor of any fixed-width ONNX
//!   element type, with typed and `ndarray` views.
//! - [`abi`]: the ABI's structs and error codes, and the reader of a
//!   model's `omlc_model_info` into a [`ModelSignature`].
//! - [`ModelSignature`]: input validation (element types, ranks, static
//!   dims, consistent `dim_param`s) and the output shapes it determines.
//! - [`RtContext`] and [`runtime_symbols`]: the thread pool and allocator
//!   behind `omlc_rt_parallel_for`, `omlc_rt_alloc` and `omlc_rt_free`.
//! - [`Session`]: runs a compiled model safely from many threads at once.
//! - [`Value`]: the run-time values beyond dense tensors (strings,
//!   sequences, optionals) that host programs pass around.
//! - [`program`]: host programs — compiled segments, host operators and
//!   control flow — and [`HostProgram`], their interpreter.
//!
//! It needs no LLVM: it builds and tests with the rest of the default
//! workspace members.

pub mod abi;
mod alloc;
mod element;
mod error;
pub mod host;
pub mod program;
mod rt;
mod session;
mod signature;
mod tensor;
mod value;

pub use element::TensorElement;
pub use error::{Result, RuntimeError};
pub use program::{HostProgram, Program, Segment};
pub use rt::{omlc_rt_alloc, omlc_rt_free, omlc_rt_parallel_for, runtime_symbols, RtContext};
pub use session::{CompiledCode, HeldWeight, Session, SharedWeight, Weights};
pub use signature::{Bindings, IoSpec, ModelSignature, SpecDim};
pub use tensor::Tensor;
pub use value::{into_tensors, Map, MapKey, Optional, Sequence, StringTensor, Value};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Tensor>();
        check::<RtContext>();
        check::<Session>();
        check::<HostProgram>();
    }
}
