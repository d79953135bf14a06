//! Code out of the final LLVM module: an object file, assembly or LLVM IR
//! text, for `--emit obj|asm|llvm` and as the model half of a shared
//! library ([`crate::link`]).
//!
//! Before a module leaves the process, [`hide_symbols`] gives every symbol
//! it defines hidden visibility: the kernels, `omlc_model` and the glue
//! (`__omlc_main`, `__omlc_info`) are private to the library, so that
//! several compiled models can be loaded into one process without binding
//! to each other's symbols. Only the C runtime's public API is exported.

use std::path::Path;

use inkwell::module::{Linkage, Module};
use inkwell::targets::FileType;
use inkwell::values::GlobalValue;
use inkwell::GlobalVisibility;

use crate::error::{CodegenError, Result};
use crate::target::TargetSpec;

/// What to write out of an LLVM module.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// A relocatable ELF object (position-independent).
    Object,
    /// Assembly text for the target.
    Assembly,
    /// LLVM IR text (`.ll`).
    LlvmIr,
}

/// Gives every symbol `module` defines with external linkage hidden
/// visibility (declarations — libm, the runtime — are left alone).
pub fn hide_symbols(module: &Module) {
    let mut global = module.get_first_global();
    while let Some(g) = global {
        if !g.is_declaration() && g.get_linkage() == Linkage::External {
            g.set_visibility(GlobalVisibility::Hidden);
        }
        global = g.get_next_global();
    }
    for f in module.get_functions() {
        let g = f.as_global_value();
        if !g.is_declaration() && g.get_linkage() == Linkage::External {
            g.set_visibility(GlobalVisibility::Hidden);
        }
    }
}

/// Prefixes the name of every symbol `module` defines for the linker
/// (functions and globals of external linkage), so that several compiled
/// models can be linked into one library: `__omlc_main` becomes
/// `{prefix}__omlc_main`. Declarations (the runtime's functions, libm) keep
/// their names.
pub fn prefix_symbols(module: &Module, prefix: &str) {
    let rename = |g: GlobalValue| {
        if !g.is_declaration() && g.get_linkage() == Linkage::External {
            let name = g.get_name().to_string_lossy().into_owned();
            g.set_name(&format!("{prefix}{name}"));
        }
    };
    let mut global = module.get_first_global();
    while let Some(g) = global {
        rename(g);
        global = g.get_next_global();
    }
    for f in module.get_functions() {
        rename(f.as_global_value());
    }
}

/// `module` as `artifact`, in memory.
pub fn to_bytes(module: &Module, target: &TargetSpec, artifact: Artifact) -> Result<Vec<u8>> {
    let file_type = match artifact {
        Artifact::LlvmIr => return Ok(module.print_to_string().to_bytes().to_vec()),
        Artifact::Object => FileType::Object,
        Artifact::Assembly => FileType::Assembly,
    };
    let buffer = target
        .machine()?
        .write_to_memory_buffer(module, file_type)
        .map_err(|e| CodegenError::Llvm(e.to_string()))?;
    Ok(buffer.as_slice().to_vec())
}

/// Writes `module` as `artifact` to `path`.
pub fn to_file(
    module: &Module,
    target: &TargetSpec,
    artifact: Artifact,
    path: &Path,
) -> Result<()> {
    let io = |e: std::io::Error| CodegenError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    match (artifact, path.to_str()) {
        // Straight to the file: no copy of the code (and of embedded
        // weights) in memory.
        (Artifact::Object | Artifact::Assembly, Some(_)) => {
            let file_type = if artifact == Artifact::Object {
                FileType::Object
            } else {
                FileType::Assembly
            };
            target
                .machine()?
                .write_to_file(module, file_type, path)
                .map_err(|e| CodegenError::Llvm(e.to_string()))
        }
        // LLVM's file writers want UTF-8 paths: through memory otherwise.
        _ => std::fs::write(path, to_bytes(module, target, artifact)?).map_err(io),
    }
}
