//! Code in memory: an LLVM module compiled by MCJIT, kept alive for as
//! long as a session uses it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::module::Module;
use inkwell::support::search_for_address_of_symbol;
use inkwell::OptimizationLevel;
use onnx_mlc_codegen::glue::Weights;
use onnx_mlc_codegen::CodegenError;
use onnx_mlc_dialect::{ElemType, Model, TensorData};
use onnx_mlc_runtime::abi::{MainFn, OmlcModelInfo};
use onnx_mlc_runtime::{
    runtime_symbols, CompiledCode, HeldWeight, RtContext, Session, SharedWeight, Tensor,
};

use crate::error::Result;
use crate::pipeline::{weight_data, Pipeline};

/// Lowers a compiled unit through `pipeline`, JIT-compiles it and wraps it
/// in a session on `rt` whose weights are the model's constants: those
/// `pool` holds already (the same data, from a compilation of the same
/// model at other sizes) read in place, the others copied, then offered
/// to `pool`.
pub(crate) fn jit_session(
    pipeline: &mut Pipeline,
    model: &Model,
    rt: &Arc<RtContext>,
    pool: &WeightPool,
) -> Result<Session> {
    let mut plan = None;
    let (start, before) = (Instant::now(), pipeline.timings.total());
    let code = JitCode::new(|llcx| {
        let (module, p) = pipeline
            .lower(llcx, model, &|_| Ok(Weights::Runtime))?
            .expect("a compilation to code runs every stage");
        plan = Some(p);
        Ok(module)
    })?;
    // Machine code generation: what building the JIT took beyond the
    // stages it ran.
    let lowering = pipeline.timings.total() - before;
    pipeline
        .timings
        .0
        .push(("jit", start.elapsed().saturating_sub(lowering)));
    let plan = plan.expect("set by the build");
    let data = plan
        .weights
        .iter()
        .map(|&v| weight_data(model, v))
        .collect::<Result<Vec<_>>>()?;
    let keys: Vec<Option<(WeightKey, &[u8])>> = data.iter().map(|d| WeightKey::of(d)).collect();
    let weights = data
        .iter()
        .zip(&keys)
        .map(|(d, key)| match key.as_ref().and_then(|k| pool.find(k)) {
            Some(held) => Ok(SharedWeight::Held(held)),
            None => Ok(SharedWeight::Own(Tensor::from_tensor_data(d)?)),
        })
        .collect::<Result<Vec<_>>>()?;
    let (info, main) = (code.info, code.main);
    let compiled = CompiledCode {
        info,
        main,
        owner: Arc::new(code),
    };
    // SAFETY: `info` and `main` come from the module just compiled with
    // the ABI glue, and `owner` keeps that code alive for the session.
    let session = unsafe {
        Session::new(
            compiled,
            onnx_mlc_runtime::Weights::Shared(weights),
            rt.clone(),
        )?
    };
    for (k, key) in keys.into_iter().enumerate() {
        if let (Some((key, _)), Some(held)) = (key, session.weight(k)) {
            pool.offer(key, held);
        }
    }
    Ok(session)
}

/// The weights the JIT sessions of one model hold, by their contents: the
/// model's size variants (`crate::variants`) read the weights they have in
/// common with the general code (initializers the compilation left alone,
/// and those it folded the same way, like a BatchNorm into its
/// convolution) in place instead of holding another copy. A weight is
/// looked up by its type and a hash of its bytes, then compared byte for
/// byte.
#[derive(Default)]
pub(crate) struct WeightPool(Mutex<HashMap<WeightKey, HeldWeight>>);

/// What a weight is looked up by.
#[derive(Clone, PartialEq, Eq, Hash)]
struct WeightKey {
    elem: ElemType,
    dims: Vec<i64>,
    hash: u64,
}

impl WeightKey {
    /// `data`'s key, when its bytes are what a session holds.
    fn of(data: &TensorData) -> Option<(WeightKey, &[u8])> {
        let raw = data.raw()?;
        let key = WeightKey {
            elem: data.elem,
            dims: data.dims.clone(),
            hash: content_hash(raw),
        };
        Some((key, raw))
    }
}

/// A fast non-cryptographic hash of `bytes` (a multiply-rotate over 8-byte
/// words, as rustc's FxHash): collisions only cost a byte comparison.
fn content_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut words = bytes.chunks_exact(8);
    let mut h = bytes.len() as u64;
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    h
}

impl WeightPool {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<WeightKey, HeldWeight>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A held weight of these bytes (found by their key), when the pool
    /// has one.
    fn find(&self, (key, bytes): &(WeightKey, &[u8])) -> Option<HeldWeight> {
        let held = self.lock().get(key)?.clone();
        (held.as_bytes() == *bytes).then_some(held)
    }

    /// Keeps `held`, a session's weight whose bytes have `key`, for later
    /// sessions.
    fn offer(&self, key: WeightKey, held: HeldWeight) {
        self.lock().entry(key).or_insert(held);
    }
}

/// A JIT-compiled model: the LLVM context and engine that own its code.
///
/// Field order matters: the engine (which owns the module and the code)
/// drops before the context it was created in.
pub struct JitCode {
    _engine: ExecutionEngine<'static>,
    _context: Box<Context>,
    /// `&__omlc_info` in the compiled code.
    pub info: *const OmlcModelInfo,
    /// `__omlc_main` in the compiled code.
    pub main: MainFn,
}

// SAFETY: after `JitCode::new` returns, neither the engine nor the context
// is used again except to be dropped (once, by whoever owns the last
// handle); what other threads use are `info` and `main`, which point at
// immutable data and machine code that live as long as the engine.
unsafe impl Send for JitCode {}
// SAFETY: as above: no `&self` method touches the engine or the context.
unsafe impl Sync for JitCode {}

impl JitCode {
    /// Compiles `build`'s module in a fresh context and resolves the
    /// model's ABI symbols. `build` translates the model into the context.
    pub fn new(build: impl for<'c> FnOnce(&'c Context) -> Result<Module<'c>>) -> Result<JitCode> {
        let context = Box::new(Context::create());
        // SAFETY: the context is boxed (its address is stable) and owned by
        // the returned `JitCode`, whose field order drops the engine — the
        // only thing borrowing it — first; so extending the borrow to
        // 'static never lets the borrow outlive the context.
        let context_ref: &'static Context = unsafe { &*(context.as_ref() as *const Context) };
        let module = build(context_ref)?;
        let engine = module
            .create_jit_execution_engine(OptimizationLevel::Aggressive)
            .map_err(|e| CodegenError::Jit(e.to_string()))?;
        let runtime = runtime_symbols();
        for (name, address) in runtime {
            if let Some(f) = module.get_function(name) {
                engine.add_global_mapping(&f, address);
            }
        }
        check_resolved(&module, &runtime.map(|(name, _)| name))?;
        let main = engine
            .get_function_address("__omlc_main")
            .map_err(|e| CodegenError::Jit(format!("__omlc_main: {e:?}")))?;
        let name = c"__omlc_info";
        // SAFETY: the engine is alive and finalized by the lookup above; the
        // name is a NUL-terminated string.
        let info = unsafe {
            inkwell::llvm_sys::execution_engine::LLVMGetGlobalValueAddress(
                engine.as_mut_ptr(),
                name.as_ptr(),
            )
        };
        if info == 0 {
            return Err(CodegenError::Jit("__omlc_info is not defined".into()).into());
        }
        // SAFETY: `__omlc_main` is generated with the ABI's signature.
        let main: MainFn = unsafe { std::mem::transmute::<usize, MainFn>(main) };
        let info = info as *const OmlcModelInfo;
        Ok(JitCode {
            _engine: engine,
            _context: context,
            info,
            main,
        })
    }
}

/// Fails when the module calls a function that is neither defined in it,
/// an LLVM intrinsic, one of the runtime's `mapped` symbols, nor found in
/// the process (libm): MCJIT would resolve it to address 0 and the first
/// call would crash.
fn check_resolved(module: &Module, mapped: &[&str]) -> Result<()> {
    for f in module.get_functions() {
        let name = f.get_name().to_string_lossy();
        let defined = f.count_basic_blocks() > 0;
        if defined || name.starts_with("llvm.") || mapped.contains(&name.as_ref()) {
            continue;
        }
        if search_for_address_of_symbol(&name).is_none() {
            return Err(CodegenError::Jit(format!(
                "the compiled code calls `{name}`, which neither the runtime nor the process defines"
            ))
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_nothing_defines_is_refused() {
        let err = JitCode::new(|cx| {
            let module = cx.create_module("m");
            let void = cx.void_type().fn_type(&[], false);
            let missing = module.add_function("omlc_test_no_such_symbol", void, None);
            let caller = module.add_function("caller", void, None);
            let builder = cx.create_builder();
            builder.position_at_end(cx.append_basic_block(caller, "entry"));
            builder.build_call(missing, &[], "").expect("call");
            builder.build_return(None).expect("return");
            Ok(module)
        })
        .err()
        .expect("an unresolved call must not compile");
        assert!(
            err.to_string().contains("omlc_test_no_such_symbol"),
            "{err}"
        );
    }
}
