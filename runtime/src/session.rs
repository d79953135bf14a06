//! A safe, thread-safe handle on one compiled model: validates inputs,
//! prepares outputs and a workspace, calls `__omlc_main`, and turns what it
//! returns into [`Tensor`]s or a [`RuntimeError`].
//!
//! Many threads may call [`Session::run`] on one session at once. Each run
//! borrows a workspace from a pool (allocated on first need, kept for the
//! next run), so concurrent runs never share scratch memory; weights are
//! read-only and the thread pool is built for concurrent loops.

use std::any::Any;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use onnx_mlc_dialect::ElemType;

use crate::abi::{self, MainFn, OmlcModelInfo, OmlcTensor};
use crate::alloc::{AlignedBuf, MIN_ALIGN};
use crate::error::{Result, RuntimeError};
use crate::rt::RtContext;
use crate::signature::{Bindings, IoSpec, ModelSignature, SpecDim};
use crate::tensor::{tensor_size, Tensor};

/// A compiled model's two symbols and whatever keeps them alive.
pub struct CompiledCode {
    /// `&__omlc_info`.
    pub info: *const OmlcModelInfo,
    /// `__omlc_main`.
    pub main: MainFn,
    /// Owns the code and data behind `info` and `main` (a JIT module, a
    /// loaded library); dropped after the session.
    pub owner: Arc<dyn Any + Send + Sync>,
}

/// Where a session's weights come from.
pub enum Weights {
    /// The model's own `weights_blob` (`weights_blob + weight_offsets[k]`).
    Embedded,
    /// One buffer per weight, in the model's weight order (a JIT that keeps
    /// the initializers out of the compiled code); the session copies them
    /// into one buffer on huge pages and drops these.
    Tensors(Vec<Tensor>),
    /// Per weight, in the model's weight order: one another session holds
    /// ([`Session::weight`]), read in place, or a tensor copied as with
    /// [`Weights::Tensors`]. Compilations of one model at other sizes share
    /// the weights they did not change this way.
    Shared(Vec<SharedWeight>),
}

/// One weight of [`Weights::Shared`].
pub enum SharedWeight {
    /// A weight another session holds.
    Held(HeldWeight),
    /// A tensor of the session's own.
    Own(Tensor),
}

/// A weight a session holds in its weights buffer: its bytes, readable for
/// as long as this handle lives (it keeps the buffer alive).
#[derive(Clone)]
pub struct HeldWeight {
    ptr: *const u8,
    len: usize,
    owner: Arc<AlignedBuf>,
}

// SAFETY: the bytes are read-only and owned by `owner`, which is shared.
unsafe impl Send for HeldWeight {}
// SAFETY: as above.
unsafe impl Sync for HeldWeight {}

impl HeldWeight {
    /// The weight's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: `ptr..ptr + len` lies in `owner`'s buffer, which this
        // handle keeps alive and nobody writes after the session's setup.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// The weight pointers `__omlc_main` receives, and their owner when the
/// session holds the weights itself.
struct WeightTable {
    ptrs: Vec<*const c_void>,
    /// Each weight's length in bytes and the buffer that holds it (the
    /// arena its copy went to, or another session's); empty for embedded
    /// weights.
    held: Vec<(usize, Arc<AlignedBuf>)>,
}

impl WeightTable {
    /// The weights of `weights`: those other sessions hold read at their
    /// addresses, the others copied into one bulk buffer
    /// ([`AlignedBuf::bulk`]: on huge pages), each at a 64-byte aligned
    /// offset.
    fn shared(weights: &[SharedWeight]) -> Result<WeightTable> {
        let align = |n: usize| n.div_ceil(MIN_ALIGN) * MIN_ALIGN;
        let mut offsets = Vec::with_capacity(weights.len());
        let mut total = 0usize;
        for w in weights {
            offsets.push(total);
            if let SharedWeight::Own(t) = w {
                total = total
                    .checked_add(align(t.as_bytes().len()))
                    .ok_or(RuntimeError::Alloc(usize::MAX))?;
            }
        }
        let mut arena = AlignedBuf::bulk(total)?;
        for (w, &at) in weights.iter().zip(&offsets) {
            if let SharedWeight::Own(t) = w {
                let bytes = t.as_bytes();
                arena.as_bytes_mut()[at..at + bytes.len()].copy_from_slice(bytes);
            }
        }
        let arena = Arc::new(arena);
        let (mut ptrs, mut held) = (vec![], vec![]);
        for (w, &at) in weights.iter().zip(&offsets) {
            match w {
                SharedWeight::Own(t) => {
                    // SAFETY: `at` is inside the `total`-byte arena (or at
                    // its end for a trailing empty weight).
                    ptrs.push(unsafe { arena.as_ptr().add(at) }.cast_const().cast());
                    held.push((t.as_bytes().len(), arena.clone()));
                }
                SharedWeight::Held(h) => {
                    ptrs.push(h.ptr.cast());
                    held.push((h.len, h.owner.clone()));
                }
            }
        }
        Ok(WeightTable { ptrs, held })
    }
}

/// Fails unless the model takes `got` weights.
fn check_weight_count(signature: &ModelSignature, got: usize) -> Result<()> {
    if got != signature.num_weights {
        return Err(RuntimeError::WeightCount {
            expected: signature.num_weights,
            got,
        });
    }
    Ok(())
}

// SAFETY: the pointers address read-only memory owned by `held` or by
// the session's `CompiledCode::owner`; nobody writes through them.
unsafe impl Send for WeightTable {}
// SAFETY: as above.
unsafe impl Sync for WeightTable {}

/// A compiled model ready to run.
pub struct Session {
    signature: ModelSignature,
    main: MainFn,
    weights: WeightTable,
    rt: Arc<RtContext>,
    workspace_size: usize,
    workspaces: Mutex<Vec<AlignedBuf>>,
    // Last: the code must outlive everything above that points into it.
    _owner: Arc<dyn Any + Send + Sync>,
}

impl Session {
    /// Reads the model's description and sets up its weights.
    ///
    /// # Safety
    /// `code.info` must point at an `omlc_model_info` and `code.main` be the
    /// matching `__omlc_main`, both following `docs/abi.md` and valid as
    /// long as `code.owner` lives; with [`Weights::Embedded`] the blob must
    /// hold `weights_size` bytes. Compiled code that breaks the ABI beyond
    /// what the runtime checks can cause undefined behavior.
    pub unsafe fn new(code: CompiledCode, weights: Weights, rt: Arc<RtContext>) -> Result<Session> {
        // SAFETY: `code.info` follows the ABI (caller).
        let signature = unsafe { abi::read_signature(code.info)? };
        let strings = signature.inputs.iter().chain(&signature.outputs);
        if strings.into_iter().any(|io| io.elem == ElemType::String) {
            return Err(RuntimeError::Unsupported(
                "string inputs and outputs are".into(),
            ));
        }
        let weights = match weights {
            // SAFETY: as above, and the blob holds `weights_size` bytes.
            Weights::Embedded => WeightTable {
                ptrs: unsafe { abi::embedded_weights(code.info)? },
                held: vec![],
            },
            Weights::Tensors(tensors) => {
                check_weight_count(&signature, tensors.len())?;
                let own: Vec<SharedWeight> = tensors.into_iter().map(SharedWeight::Own).collect();
                WeightTable::shared(&own)?
            }
            Weights::Shared(weights) => {
                check_weight_count(&signature, weights.len())?;
                WeightTable::shared(&weights)?
            }
        };
        let workspace_size = usize::try_from(signature.workspace_size).map_err(|_| {
            RuntimeError::ModelInfo(format!("workspace of {} bytes", signature.workspace_size))
        })?;
        Ok(Session {
            signature,
            main: code.main,
            weights,
            rt,
            workspace_size,
            workspaces: Mutex::new(Vec::new()),
            _owner: code.owner,
        })
    }

    /// Weight `k` (in the model's weight order) when the session keeps it
    /// in a weights buffer (not an embedded weight): for another session to
    /// read in place ([`Weights::Shared`]).
    pub fn weight(&self, k: usize) -> Option<HeldWeight> {
        let (len, owner) = self.weights.held.get(k)?;
        Some(HeldWeight {
            ptr: self.weights.ptrs[k].cast(),
            len: *len,
            owner: owner.clone(),
        })
    }

    /// The model's inputs and outputs.
    pub fn signature(&self) -> &ModelSignature {
        &self.signature
    }

    /// The runtime context the model's loops run on.
    pub fn rt(&self) -> &Arc<RtContext> {
        &self.rt
    }

    /// Runs the model on inputs in graph order; returns the outputs in
    /// graph order.
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        self.run_refs(&inputs.iter().collect::<Vec<_>>())
    }

    /// Runs the model on inputs given by name; returns the outputs in graph
    /// order.
    pub fn run_named(&self, inputs: &[(&str, &Tensor)]) -> Result<Vec<Tensor>> {
        self.run_refs(&self.signature.order_named(inputs)?)
    }

    /// Runs the model on borrowed inputs in graph order.
    pub fn run_refs(&self, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        let bindings = self.signature.check_inputs(inputs)?;
        let raw_inputs: Vec<OmlcTensor> = inputs
            .iter()
            .map(|t| OmlcTensor {
                data: t.data_ptr().cast(),
                // The model only reads input shapes.
                shape: t.shape().as_ptr().cast_mut(),
                rank: t.rank() as i32,
                dtype: t.elem().onnx_code(),
            })
            .collect();

        // Outputs whose shape the inputs determine get a buffer; the model
        // allocates the others. Dims start at -1 so that one the model
        // forgets to write is caught.
        let specs = &self.signature.outputs;
        let mut given = Vec::with_capacity(specs.len());
        for spec in specs {
            let shape = bindings.resolve(spec);
            given.push(shape.map(|s| Tensor::zeros(spec.elem, &s)).transpose()?);
        }
        let mut shapes: Vec<Vec<i64>> = specs.iter().map(|s| vec![-1; s.dims.len()]).collect();
        let mut raw_outputs: Vec<OmlcTensor> = specs
            .iter()
            .zip(&given)
            .zip(&mut shapes)
            .map(|((spec, given), shape)| OmlcTensor {
                data: given
                    .as_ref()
                    .map_or(std::ptr::null_mut(), |t| t.data_ptr().cast()),
                shape: shape.as_mut_ptr(),
                rank: spec.dims.len() as i32,
                dtype: spec.elem.onnx_code(),
            })
            .collect();

        let workspace = self.take_workspace()?;
        // SAFETY: `main` follows the ABI (`Session::new`); the inputs were
        // validated against the signature, every pointer passed lives for
        // the call, output buffers match their resolved shapes, the
        // workspace holds `workspace_size` bytes and the weight table has
        // `num_weights` entries.
        let code = unsafe {
            (self.main)(
                raw_inputs.as_ptr(),
                raw_outputs.as_mut_ptr(),
                workspace.as_ptr(),
                self.weights.ptrs.as_ptr(),
                self.rt.as_raw(),
            )
        };
        drop(workspace);

        // Own what the model allocated before anything can fail, so that it
        // is freed on every path.
        let allocated: Vec<Option<AlignedBuf>> = raw_outputs
            .iter()
            .zip(&given)
            .map(|(raw, given)| match given {
                Some(_) => None,
                // SAFETY: the ABI makes an output the model allocated a
                // block from `omlc_rt_alloc` that the caller now owns.
                None => NonNull::new(raw.data.cast()).map(|p| unsafe { AlignedBuf::adopt(p) }),
            })
            .collect();
        if code != abi::OMLC_OK {
            let (name, meaning) = abi::error_code_info(code);
            return Err(RuntimeError::Model {
                code,
                name,
                meaning,
            });
        }
        specs
            .iter()
            .zip(given)
            .zip(allocated)
            .zip(shapes)
            .zip(&raw_outputs)
            .map(|((((spec, given), allocated), shape), raw)| {
                let data = match (given, allocated) {
                    (Some(t), _) if t.data_ptr().cast() != raw.data => {
                        return Err(RuntimeError::Output {
                            output: spec.name.clone(),
                            message: "the model replaced the buffer it was given".into(),
                        });
                    }
                    (Some(t), _) => OutputData::Given(t),
                    (None, Some(buf)) => OutputData::Allocated(buf),
                    (None, None) => OutputData::Missing,
                };
                output_tensor(spec, &bindings, shape, data)
            })
            .collect()
    }

    /// A workspace for one run: from the pool, or new.
    fn take_workspace(&self) -> Result<Workspace<'_>> {
        let pooled = self
            .workspaces
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        let buf = match pooled {
            Some(buf) => buf,
            None => AlignedBuf::bulk(self.workspace_size)?,
        };
        Ok(Workspace {
            buf: Some(buf),
            pool: &self.workspaces,
        })
    }
}

/// A workspace lent to one run; goes back to the pool when dropped.
struct Workspace<'s> {
    buf: Option<AlignedBuf>,
    pool: &'s Mutex<Vec<AlignedBuf>>,
}

impl Workspace<'_> {
    fn as_ptr(&self) -> *mut u8 {
        self.buf.as_ref().expect("returned only on drop").as_ptr()
    }
}

impl Drop for Workspace<'_> {
    fn drop(&mut self) {
        let buf = self.buf.take().expect("returned once");
        self.pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(buf);
    }
}

/// The data of an output after the model ran.
enum OutputData {
    /// The runtime's buffer, which the model filled.
    Given(Tensor),
    /// A block the model allocated.
    Allocated(AlignedBuf),
    /// Nothing: the model broke the ABI.
    Missing,
}

/// Checks an output the model produced and wraps it in a tensor.
fn output_tensor(
    spec: &IoSpec,
    bindings: &Bindings,
    shape: Vec<i64>,
    data: OutputData,
) -> Result<Tensor> {
    let fail = |message: String| RuntimeError::Output {
        output: spec.name.clone(),
        message,
    };
    for (axis, (dim, &got)) in spec.dims.iter().zip(&shape).enumerate() {
        let expected = bindings.size_of(dim);
        if got < 0 || expected.is_some_and(|e| e != got) {
            return Err(fail(format!(
                "the model wrote shape {shape:?}, but dim {axis} must be {}",
                match (dim, expected) {
                    (SpecDim::Param(p), Some(e)) => format!("{e} (\"{p}\")"),
                    (_, Some(e)) => e.to_string(),
                    (_, None) => "non-negative".to_owned(),
                }
            )));
        }
    }
    let mut buf = match data {
        OutputData::Given(tensor) => return Ok(tensor),
        OutputData::Allocated(buf) => buf,
        OutputData::Missing => return Err(fail("the model returned no data".into())),
    };
    let (_, bytes) = tensor_size(spec.elem, &shape).map_err(|e| fail(e.to_string()))?;
    let capacity = buf.as_bytes().len();
    if !buf.truncate(bytes) {
        return Err(fail(format!(
            "the model allocated {capacity} bytes for shape {shape:?}, which needs {bytes}"
        )));
    }
    Ok(Tensor::from_parts(spec.elem, shape, buf))
}
