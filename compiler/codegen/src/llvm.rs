//! LLVM IR from the LLVM dialect: translation, target attributes, O3.

use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;

use crate::error::{CodegenError, Result};
use crate::target::TargetSpec;

/// Translates an MLIR module in the LLVM dialect into an LLVM module of
/// `llcx` for `target`: triple and data layout.
pub fn translate<'ctx>(
    llcx: &'ctx Context,
    mlir: &melior::ir::Module,
    target: &TargetSpec,
) -> Result<Module<'ctx>> {
    // SAFETY: the MLIR module is alive and in the LLVM dialect; the raw
    // LLVM context pointer is `llcx`'s, which outlives the new module; a
    // null result is checked before wrapping. inkwell's and mlir-sys's
    // bindings name the same C types through different crates, hence the
    // pointer casts.
    let raw = unsafe {
        mlir_sys::mlirTranslateModuleToLLVMIR(
            mlir.as_operation().to_raw(),
            llcx.raw() as mlir_sys::LLVMContextRef,
        )
    };
    if raw.is_null() {
        return Err(CodegenError::Translate(
            "MLIR could not translate the module".into(),
        ));
    }
    // SAFETY: `raw` is a fresh module owned by nobody else, created in `llcx`.
    let module = unsafe { Module::new(raw as inkwell::llvm_sys::prelude::LLVMModuleRef) };
    let machine = target.machine()?;
    module.set_triple(&machine.get_triple());
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    Ok(module)
}

/// Runs LLVM's `default<O3>` pipeline for the target. Every defined
/// function — the kernels and the glue alike — is first marked with the
/// target's CPU and features: code inlined into a function without them
/// would be compiled for the generic CPU, where `bf16` arithmetic becomes
/// calls to compiler-rt helpers that the JIT does not define.
pub fn optimize(module: &Module, target: &TargetSpec) -> Result<()> {
    let llcx = module.get_context();
    let cpu = llcx.create_string_attribute("target-cpu", &target.cpu);
    let features = llcx.create_string_attribute("target-features", &target.features);
    for f in module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
    {
        f.add_attribute(AttributeLoc::Function, cpu);
        f.add_attribute(AttributeLoc::Function, features);
    }
    let machine = target.machine()?;
    module
        .run_passes("default<O3>", &machine, PassBuilderOptions::create())
        .map_err(|e| CodegenError::Llvm(e.to_string()))
}
