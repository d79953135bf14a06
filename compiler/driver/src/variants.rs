//! Size variants of a JIT-compiled model.
//!
//! A model exported with dynamic axes (a batch, a sequence length) compiles
//! to general code: every kernel sized by symbols bound at run time. That
//! code is correct at every size, but some of its kernels cannot take
//! their static schedules (a convolution as a product needs its sizes),
//! and the shapes the model computes from its inputs (`Shape` → `Gather`
//! → `Reshape`) stay run-time work. So the JIT also compiles, the first
//! time the model runs at new sizes, a variant for exactly those sizes:
//! the source model with its open input dims bound
//! ([`bind_input_dims`]), through the whole pipeline again. It is kept and
//! runs every later call at those sizes.
//!
//! The cache is bounded by [`CompileOptions::max_variants`]: once it holds
//! that many variants, other sizes run on the general code (no eviction,
//! so a stream of ever-new sizes never recompiles). A variant that does
//! not compile (sizes the model rejects) is remembered as such, and those
//! sizes run on the general code too, which reports the error a caller
//! should see. Callers that run one thread block only while their own
//! sizes compile.

use std::sync::{Arc, Mutex, OnceLock};

use onnx_mlc_dialect::name_dims::{bind_input_dims, open_input_dims, OpenDim};
use onnx_mlc_dialect::Model;
use onnx_mlc_runtime::RtContext;

use crate::compilation::Compilation;
use crate::compiled::Compiled;
use crate::pipeline::CompileOptions;

/// The size variants of one JIT-compiled model; see the module docs.
pub(crate) struct Variants {
    /// The model as the caller gave it, before the front end.
    source: Model,
    options: CompileOptions,
    /// The thread pool the general code runs on, shared by every variant.
    rt: Arc<RtContext>,
    /// The input dims the run time sizes, in the order of a variant's sizes.
    open: Vec<OpenDim>,
    /// The variants, in the order they were first asked for.
    cache: Mutex<Vec<Variant>>,
}

/// The code for one set of sizes: compiled once, by the first caller that
/// asks; `None` inside when the sizes did not compile.
struct Variant {
    sizes: Vec<i64>,
    code: Arc<OnceLock<Option<Compiled>>>,
}

impl Variants {
    /// The variants of `source` compiled with `options` on `rt`; `None`
    /// when `options.max_variants` is 0 or every input size is known (the
    /// general code is then static code already).
    pub(crate) fn new(
        source: &Model,
        options: &CompileOptions,
        rt: &Arc<RtContext>,
    ) -> Option<Variants> {
        let open = open_input_dims(source)?;
        if open.is_empty() || options.max_variants == 0 {
            return None;
        }
        Some(Variants {
            source: source.clone(),
            options: options.clone(),
            rt: rt.clone(),
            open,
            cache: Mutex::new(Vec::new()),
        })
    }

    /// The code for inputs of these shapes (`shape(k)`: input `k`'s, `None`
    /// when it is not a tensor or missing), compiled now if it is their
    /// first run and the cache has room; `None` when they run on the
    /// general code.
    pub(crate) fn code<'s>(
        &self,
        shape: impl Fn(usize) -> Option<&'s [i64]>,
    ) -> Option<Arc<OnceLock<Option<Compiled>>>> {
        let sizes = sizes_of(&self.open, shape)?;
        let code = {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            match cache.iter().find(|v| v.sizes == sizes) {
                Some(v) => v.code.clone(),
                None if cache.len() < self.options.max_variants => {
                    let code = Arc::new(OnceLock::new());
                    cache.push(Variant {
                        sizes: sizes.clone(),
                        code: code.clone(),
                    });
                    code
                }
                None => return None,
            }
        };
        code.get_or_init(|| self.compile(&sizes));
        code.get()?.as_ref()?;
        Some(code)
    }

    /// Compiles the variant for `sizes`: `None` when the model does not
    /// compile at them.
    fn compile(&self, sizes: &[i64]) -> Option<Compiled> {
        let mut model = self.source.clone();
        bind_input_dims(&mut model, &self.open, sizes);
        Compilation::new(&model, &self.options)
            .and_then(|c| c.jit_on(&self.rt))
            .ok()
            .map(|(compiled, _)| compiled)
    }

    /// The sizes of the variants compiled so far (each in the order of the
    /// open input dims), in the order they were first run.
    pub(crate) fn sizes(&self) -> Vec<Vec<i64>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .iter()
            .filter(|v| v.code.get().is_some_and(Option::is_some))
            .map(|v| v.sizes.clone())
            .collect()
    }
}

/// The sizes of the `open` dims in inputs of these shapes (`shape(k)`:
/// input `k`'s); `None` when an input is missing or too short.
fn sizes_of<'s>(open: &[OpenDim], shape: impl Fn(usize) -> Option<&'s [i64]>) -> Option<Vec<i64>> {
    open.iter()
        .map(|d| shape(d.input).and_then(|s| s.get(d.axis).copied()))
        .collect()
}

/// `model` with its `open` input dims bound to their sizes in inputs of
/// these shapes; `None` when an input is missing or too short.
pub(crate) fn bind<'s>(
    model: &Model,
    open: &[OpenDim],
    shape: impl Fn(usize) -> Option<&'s [i64]>,
) -> Option<Model> {
    let sizes = sizes_of(open, shape)?;
    let mut model = model.clone();
    bind_input_dims(&mut model, open, &sizes);
    Some(model)
}
