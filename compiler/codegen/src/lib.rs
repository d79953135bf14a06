//! Code generation: from the LLVM dialect to LLVM IR (translation, target
//! attributes, O3), and on to objects, assembly, shared libraries, or
//! code in memory (JIT).

pub mod emit;
pub mod error;
pub mod glue;
pub mod link;
pub mod llvm;
pub mod target;

pub use error::{CodegenError, Result};
pub use target::TargetSpec;
