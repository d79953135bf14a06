//! Lowers the onnx dialect to upstream MLIR and down to the LLVM dialect.
//!
//! The unit of code is the *kernel*: a group of onnx ops (chosen by the
//! execution plan) becomes one `func.func` over memrefs, written at the
//! tensor level in destination-passing style ([`kernel`]), with one file per
//! op family under `ops/` mirroring the dialect's. Schedules in the
//! transform dialect then tile, fuse and vectorize each kernel for the
//! target, and one-shot bufferization turns it into loops over the
//! caller's buffers.

pub mod builder;
pub mod context;
pub mod error;
pub mod kernel;
pub mod model;
mod ops;
pub mod pipeline;
pub mod schedule;
pub mod symbols;
pub mod types;

pub use error::{LowerError, Result};
