//! The MLIR context a compilation works in: every upstream dialect
//! registered and loaded, every pass and LLVM translation registered.

use melior::dialect::DialectRegistry;
use melior::utility::{register_all_dialects, register_all_llvm_translations, register_all_passes};
use melior::Context;

/// Creates a context with every upstream dialect loaded and the LLVM
/// translations registered. Passes are registered once per process.
pub fn new_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_llvm_translations(&context);
    register_all_passes();
    context
}
