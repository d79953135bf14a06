//! The onnx dialect of onnx-mlc.
//!
//! This crate is the compiler's high-level IR: an arena-based SSA form of
//! ONNX models ([`ir`]) whose ops come from one generated table of every ONNX
//! operator ([`schema`]), with a text form that prints and parses, a
//! verifier for the IR spec's rules, and shape and type inference. It needs
//! neither LLVM nor protobuf: the importer builds it from `ModelProto`s, the
//! optimizer rewrites it, and the lowering turns it into MLIR.
//!
//! ## Module layers
//!
//! The files import each other in one direction only, bottom up (a file
//! imports only from the lines above it or from its own line's earlier
//! entries; unit-test modules sit on top):
//!
//! 1. `dim`, `entity` (the handles), `types`, `tensor`, `attr`;
//! 2. `schema` (`domain`, the generated `kind`, `spec`, the generated
//!    `table`), `ir`;
//! 3. `error` (with `error::rule`, the verifier's rules), `print`, `parse`,
//!    `summary`;
//! 4. inference: `ops::knowledge`, `ops::ctx`, `ops::shape`, the op
//!    families `ops::*`, their dispatch `ops`, the driver `infer` (which
//!    hands each op's context the subgraph inference instead of being
//!    imported back);
//! 5. the passes: `verify` (`cx`, the rule files, `verify`),
//!    `name_dims`, `decompose` (`builder`, the expansions, the pass), `fold`, `dce`,
//!    `passes`.

pub mod attr;
mod dce;
mod decompose;
pub mod dim;
mod entity;
pub mod error;
mod fold;
pub mod infer;
pub mod ir;
pub mod name_dims;
mod ops;
pub mod packing;
pub mod parse;
pub mod passes;
pub mod print;
pub mod schema;
pub mod summary;
pub mod tensor;
pub mod types;
pub mod verify;

pub use attr::{Attr, AttrKind, Attrs};
pub use dim::{Dim, DimOp};
pub use error::{Error, Result};
pub use ir::{Ir, Model, OpId, RegionId, Value, IR_VERSION};
pub use parse::parse_model;
pub use print::{print_model, PrintOptions};
pub use schema::{Domain, OpKind, OpSchema};
pub use tensor::TensorData;
pub use types::{ElemType, TensorType, Type};
