//! Size variants of a JIT-compiled model, compiled in the background.
//!
//! A model exported with dynamic axes (a batch, a sequence length) compiles
//! to general code: every kernel sized by symbols bound at run time. That
//! code is correct at every size, and its convolutions run image by image
//! on their static schedules (products of symbolic rows and attention of
//! symbolic length have schedules of their own), but other kernels of
//! symbolic size stay unscheduled, and the shapes the model computes from its inputs
//! (`Shape` → `Gather` → `Reshape`) stay run-time work. So the first run
//! at new sizes also starts compiling, on a thread of its own, a variant
//! for exactly those sizes: the source model with its open input dims
//! bound ([`bind_input_dims`]), through the whole pipeline again. Runs at
//! those sizes take the general code until the variant is ready, and the
//! variant after: compiling never makes a run wait (a static compile can
//! take far longer than the general one — a segmentation network's
//! dilated convolutions took 95 s against 4 s), the way tiered JITs
//! compile hot code.
//!
//! The cache is bounded by [`CompileOptions::max_variants`]: once it holds
//! that many variants, other sizes run on the general code (no eviction,
//! so a stream of ever-new sizes never recompiles). A variant that does
//! not compile (sizes the model rejects, an op the static lowering
//! refuses) is remembered as such, and those sizes keep the general code,
//! which reports any error a caller should see. The compile itself is the
//! caller's (`Compilation::jit`): the variants share the general code's
//! thread pool, and read the weights they have in common with it where it
//! holds them (`jit::WeightPool`).

use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use onnx_mlc_dialect::name_dims::{bind_input_dims, open_input_dims, OpenDim};
use onnx_mlc_dialect::Model;

/// Compiles a model with its open input dims bound: `None` when it does
/// not compile.
pub(crate) type CompileFn<C> = dyn Fn(&Model) -> Option<C> + Send + Sync;

/// The size variants of one JIT-compiled model, each code of type `C`;
/// see the module docs.
pub(crate) struct Variants<C> {
    /// What a compile needs, shared with the compiling threads.
    source: Arc<Source<C>>,
    max_variants: usize,
    /// The variants, in the order they were first asked for.
    cache: Mutex<Vec<Variant<C>>>,
    /// The threads still compiling (or done but not joined yet).
    compiling: Mutex<Vec<JoinHandle<()>>>,
}

/// What compiling a variant starts from.
struct Source<C> {
    /// The model as the caller gave it, before the front end.
    model: Model,
    /// The input dims the run time sizes, in the order of a variant's sizes.
    open: Vec<OpenDim>,
    compile: Box<CompileFn<C>>,
}

/// The code for one set of sizes, set once its compile is over; `None`
/// inside when the sizes did not compile.
struct Variant<C> {
    sizes: Vec<i64>,
    code: Arc<OnceLock<Option<C>>>,
}

impl<C: Send + Sync + 'static> Variants<C> {
    /// Up to `max_variants` variants of `source`, each compiled by
    /// `compile`; `None` when `max_variants` is 0 or every input size is
    /// known (the general code is then static code already; [`applies`]).
    pub(crate) fn new(
        source: Model,
        max_variants: usize,
        compile: Box<CompileFn<C>>,
    ) -> Option<Variants<C>> {
        let open = open_dims(&source, max_variants)?;
        Some(Variants {
            source: Arc::new(Source {
                model: source,
                open,
                compile,
            }),
            max_variants,
            cache: Mutex::new(Vec::new()),
            compiling: Mutex::new(Vec::new()),
        })
    }

    /// The variant for inputs of these shapes (`shape(k)`: input `k`'s,
    /// `None` when it is not a tensor or missing) when it is ready; `None`
    /// when they run on the general code. Their first run starts the
    /// variant's compile if the cache has room.
    pub(crate) fn code<'s>(
        &self,
        shape: impl Fn(usize) -> Option<&'s [i64]>,
    ) -> Option<Arc<OnceLock<Option<C>>>> {
        let sizes = sizes_of(&self.source.open, shape)?;
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = cache.iter().find(|v| v.sizes == sizes) {
            return v.code.get()?.as_ref().map(|_| v.code.clone());
        }
        if cache.len() < self.max_variants {
            let code = Arc::new(OnceLock::new());
            cache.push(Variant {
                sizes: sizes.clone(),
                code: code.clone(),
            });
            let source = self.source.clone();
            let thread = std::thread::Builder::new()
                .name("onnx-mlc-variant".into())
                .spawn(move || {
                    code.get_or_init(|| source.compile(&sizes));
                });
            match thread {
                Ok(handle) => self.lock_compiling().push(handle),
                // No thread: these sizes keep the general code.
                Err(_) => {
                    let _ = cache.last().expect("just pushed").code.set(None);
                }
            }
        }
        None
    }

    fn lock_compiling(&self) -> std::sync::MutexGuard<'_, Vec<JoinHandle<()>>> {
        self.compiling.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until every variant started so far has compiled (or failed).
    pub(crate) fn wait(&self) {
        let handles: Vec<_> = self.lock_compiling().drain(..).collect();
        for handle in handles {
            // A compile that panicked leaves its variant unset: the general
            // code keeps those sizes.
            let _ = handle.join();
        }
    }

    /// The sizes of the variants ready so far (each in the order of the
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

impl<C> Source<C> {
    /// Compiles the variant for `sizes`: `None` when the model does not
    /// compile at them.
    fn compile(&self, sizes: &[i64]) -> Option<C> {
        let mut model = self.model.clone();
        bind_input_dims(&mut model, &self.open, sizes);
        (self.compile)(&model)
    }
}

/// Whether a model compiled with `max_variants` gets size variants: it
/// may have some, and its inputs have sizes the run time knows.
pub(crate) fn applies(model: &Model, max_variants: usize) -> bool {
    open_dims(model, max_variants).is_some()
}

/// The open input dims a model's variants bind, when it gets variants.
fn open_dims(model: &Model, max_variants: usize) -> Option<Vec<OpenDim>> {
    let open = open_input_dims(model)?;
    (!open.is_empty() && max_variants > 0).then_some(open)
}

/// The sizes of the `open` dims in inputs of these shapes (`shape(k)`:
/// input `k`'s); `None` when an input is missing or too short.
fn sizes_of<'s>(open: &[OpenDim], shape: impl Fn(usize) -> Option<&'s [i64]>) -> Option<Vec<i64>> {
    open.iter()
        .map(|d| shape(d.input).and_then(|s| s.get(d.axis).copied()))
        .collect()
}
