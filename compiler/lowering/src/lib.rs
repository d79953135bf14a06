//! Lowers the onnx dialect to upstream MLIR and down to the LLVM dialect.
//!
//! The unit of code is the *kernel*: a group of onnx ops (chosen by the
//! execution plan) becomes one `func.func` over memrefs, written at the
//! tensor level in destination-passing style ([`kernel`]), with one file per
//! op family under `ops/` mirroring the dialect's. Schedules in the
//! transform dialect then tile, fuse and vectorize each kernel for the
//! target, and one-shot bufferization turns it into loops over the
//! caller's buffers.
//!
//! The modules are layers, each importing only the ones below it:
//!
//! | layer | modules | what it knows |
//! |---|---|---|
//! | builder | [`builder`] | MLIR: typed op builders, affine maps, attributes |
//! | core | [`types`], [`symbols`], [`schedule`] | ONNX types as MLIR types, symbolic sizes and the entry's shape checks, the schedules |
//! | kernel | [`kernel`] | one kernel function; the op lowering is handed to it ([`kernel::OpLowering`]) |
//! | op families | `ops/<family>` | one family of the op table each, and what several share (`ops/common.rs`, `ops/operand.rs`, …) |
//! | dispatch | `ops/mod.rs` | the one match over the op table's families |
//! | model | [`model`], `check.rs`, [`pipeline`] | the module of a whole model, its entry check, the pass pipelines |
//!
//! ([`context`] and [`error`] are below them all.)

pub mod builder;
mod check;
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
