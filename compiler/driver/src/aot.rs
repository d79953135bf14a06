//! Ahead-of-time compilation: a model as a self-contained shared library
//! (`onnx-mlc model.onnx -o libmodel.so`), its C header, and loading such a
//! library back into this process to run it.
//!
//! A library holds the compiled model (kernels, `omlc_model`, the ABI glue
//! `__omlc_main`/`__omlc_info`, all hidden) and the C runtime
//! (`runtime/c/omlc_rt.c`), whose public API (`omlc_session_create`, …;
//! `docs/abi.md`) is all it exports. It needs only libc and libm at run
//! time. The weights are embedded in the library (64-byte aligned, in the
//! plan's order), or — for models past [`WeightsPolicy::Auto`]'s limit, or
//! when asked — written to a side file next to it that the runtime maps at
//! session creation. See `docs/aot.md`.

use std::cell::OnceCell;
use std::ffi::{c_char, c_void, CStr};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::time::Instant;

use inkwell::context::Context as LlvmContext;
use onnx_mlc_codegen::emit::{self, Artifact};
use onnx_mlc_codegen::glue::{IoDesc, Weights};
use onnx_mlc_codegen::link;
use onnx_mlc_dialect::{ElemType, Model};
use onnx_mlc_optimizer::{OptReport, OptimizeOptions};
use onnx_mlc_plan::Plan;
use onnx_mlc_runtime::abi::{read_signature, OmlcModelInfo, OmlcTensor, OMLC_OK};
use onnx_mlc_runtime::{ModelSignature, Tensor};

use crate::error::{Error, Result};
use crate::pipeline::{
    compile_to_llvm, default_optimizer, front_end, io_desc, prepare, PipelineOptions, Timings,
};
use crate::{weight_tensor, CompileOptions, Engine, TargetSpec};

/// The weights alignment the ABI requires (`docs/abi.md`).
const WEIGHT_ALIGN: usize = 64;

/// Where a compiled library keeps its weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WeightsPolicy {
    /// Always in the library.
    Embed,
    /// Always in a side file next to the output (`<stem>.weights`).
    File,
    /// In the library up to `max_embedded` bytes, in a side file beyond.
    Auto { max_embedded: u64 },
}

impl Default for WeightsPolicy {
    /// Embedded up to 256 MiB: past that, linking and loading a library
    /// that large gets slow, and mapping a file costs nothing.
    fn default() -> WeightsPolicy {
        WeightsPolicy::Auto {
            max_embedded: 256 << 20,
        }
    }
}

/// What an AOT compilation writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AotOutput {
    /// A shared library: the model and the C runtime, linked.
    Library,
    /// Only the model's code, as `artifact` (link it with the C runtime
    /// yourself; an object or assembly file is what [`AotOutput::Library`]
    /// links).
    Code(Artifact),
}

/// How to compile ahead of time.
#[derive(Clone, Debug)]
pub struct LibraryOptions {
    /// The machine the library runs on.
    pub target: TargetSpec,
    /// The file to write (`libmodel.so`, `model.o`, `model.s`, `model.ll`).
    pub output: PathBuf,
    /// What to write there.
    pub kind: AotOutput,
    /// Where the weights go.
    pub weights: WeightsPolicy,
    /// The e-graph optimizer (the `opt` stage), as in
    /// [`CompileOptions::optimizer`](crate::CompileOptions::optimizer).
    pub optimizer: OptimizeOptions,
}

impl LibraryOptions {
    /// A shared library for `target` at `output`, weights by the default
    /// policy.
    pub fn library(target: TargetSpec, output: impl Into<PathBuf>) -> LibraryOptions {
        LibraryOptions {
            target,
            output: output.into(),
            kind: AotOutput::Library,
            weights: WeightsPolicy::default(),
            optimizer: default_optimizer(),
        }
    }
}

/// What an AOT compilation produced.
#[derive(Clone, Debug)]
pub struct LibraryReport {
    /// The file written.
    pub output: PathBuf,
    /// Its size in bytes.
    pub output_bytes: u64,
    /// The weights side file, when the weights are not embedded.
    pub weights_file: Option<PathBuf>,
    /// The weights' size in bytes (embedded or in the side file, with
    /// alignment padding).
    pub weights_bytes: u64,
    /// The number of weights.
    pub num_weights: usize,
    /// What the optimizer did.
    pub optimizer: OptReport,
    /// How long each stage took (the pipeline's, then `emit`, and for a
    /// library `runtime` — compiling or finding the cached C runtime — and
    /// `link`).
    pub timings: Timings,
}

/// The plan's weights, each at a 64-byte aligned offset of one blob.
fn layout_weights(model: &Model, plan: &Plan) -> Result<(Vec<u8>, Vec<u64>)> {
    let mut blob = vec![];
    let mut offsets = vec![];
    for &v in &plan.weights {
        let t = weight_tensor(model, v)?;
        blob.resize(blob.len().next_multiple_of(WEIGHT_ALIGN), 0);
        offsets.push(blob.len() as u64);
        blob.extend_from_slice(t.as_bytes());
    }
    Ok((blob, offsets))
}

/// `output` with the extension `weights` (`libmodel.so` → `libmodel.weights`).
fn side_file_path(output: &Path) -> PathBuf {
    output.with_extension("weights")
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::Output {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

impl Engine {
    /// Compiles a model ahead of time: a shared library (or only the
    /// model's object, assembly or LLVM IR) for `options.target`, plus a
    /// weights side file when the policy says so.
    pub fn compile_library(model: &Model, options: &LibraryOptions) -> Result<LibraryReport> {
        let mut model = model.clone();
        let mut timings = Timings::default();
        let pipeline_options = PipelineOptions {
            target: options.target.clone(),
            optimizer: options.optimizer.clone(),
            print_after: vec![],
        };
        let optimizer = front_end(&mut model, &pipeline_options, &mut timings, &mut |_, _| {})?;
        if let Some(partition) = onnx_mlc_program::partition(&model)? {
            let op = partition.first_host_op().map_or_else(
                || "a graph input or output".to_string(),
                |op| op.to_string(),
            );
            return Err(Error::AotHostProgram { op });
        }
        let side_path = side_file_path(&options.output);
        let side_name = side_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| Error::Output {
                path: options.output.clone(),
                message: "not a file name".into(),
            })?;
        let laid_out: OnceCell<(Vec<u8>, Vec<u64>)> = OnceCell::new();
        let in_file: OnceCell<bool> = OnceCell::new();
        let weights = |plan: &Plan| -> Result<Weights> {
            if laid_out.get().is_none() {
                let _ = laid_out.set(layout_weights(&model, plan)?);
            }
            let (blob, offsets) = laid_out.get().expect("just laid out");
            // A model without weights needs no side file, whatever the policy.
            let file = !offsets.is_empty()
                && match options.weights {
                    WeightsPolicy::Embed => false,
                    WeightsPolicy::File => true,
                    WeightsPolicy::Auto { max_embedded } => blob.len() as u64 > max_embedded,
                };
            let _ = in_file.set(file);
            Ok(if file {
                Weights::File {
                    name: side_name.clone(),
                    offsets: offsets.clone(),
                    size: blob.len() as u64,
                }
            } else {
                Weights::Embedded {
                    blob,
                    offsets: offsets.clone(),
                }
            })
        };
        let llcx = LlvmContext::create();
        let (module, plan) = compile_to_llvm(
            &llcx,
            &model,
            &pipeline_options,
            &weights,
            &mut timings,
            &mut |_, _| {},
        )?;
        emit::hide_symbols(&module);
        let target = &options.target;
        let start = Instant::now();
        match options.kind {
            AotOutput::Code(artifact) => {
                emit::to_file(&module, target, artifact, &options.output)?;
                timings.0.push(("emit", start.elapsed()));
            }
            AotOutput::Library => {
                let dir = tempdir()?;
                let object_path = dir.path.join("model.o");
                emit::to_file(&module, target, Artifact::Object, &object_path)?;
                timings.0.push(("emit", start.elapsed()));
                let start = Instant::now();
                let runtime = link::runtime_object(target)?;
                timings.0.push(("runtime", start.elapsed()));
                let start = Instant::now();
                link::link_shared(target, &[&object_path, &runtime], &options.output)?;
                timings.0.push(("link", start.elapsed()));
            }
        }
        let (blob, _) = laid_out.get().expect("the pipeline asked for the weights");
        let weights_file = if *in_file.get().expect("decided with the layout") {
            write_file(&side_path, blob)?;
            Some(side_path)
        } else {
            None
        };
        let output_bytes = std::fs::metadata(&options.output)
            .map(|m| m.len())
            .unwrap_or(0);
        Ok(LibraryReport {
            output: options.output.clone(),
            output_bytes,
            weights_file,
            weights_bytes: blob.len() as u64,
            num_weights: plan.weights.len(),
            optimizer,
            timings,
        })
    }
}

/// A directory removed when dropped.
struct TempDir {
    path: PathBuf,
}

fn tempdir() -> Result<TempDir> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let path = std::env::temp_dir().join(format!("onnx-mlc-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&path).map_err(|e| Error::Output {
        path: path.clone(),
        message: e.to_string(),
    })?;
    Ok(TempDir { path })
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The part of `omlc_rt.h` a library's user needs: the ABI types, the
/// return codes and the public API — without its opening comment and the
/// declarations of the model's and the runtime's hidden symbols. (The
/// markers are checked by the tests: `headers_describe_the_model_and_compile`.)
fn public_runtime_header() -> String {
    const START: &str = "#ifndef OMLC_RT_H";
    const HIDDEN: &str = "/* ---- Defined by the compiled model";
    const PUBLIC: &str = "/* ---- Public API of an AOT library";
    let h = link::RUNTIME_HEADER;
    match (h.find(START), h.find(HIDDEN), h.find(PUBLIC)) {
        (Some(s), Some(a), Some(b)) if s < a && a < b => format!("{}{}", &h[s..a], &h[b..]),
        _ => h.to_string(),
    }
}

/// `"N"`-style dims: `[N, 3, 224, 224]`.
fn describe_dims(io: &IoDesc) -> String {
    let dims: Vec<String> = io
        .dims
        .iter()
        .zip(&io.dim_params)
        .map(|(&d, p)| match p {
            Some(p) => p.clone(),
            None if d >= 0 => d.to_string(),
            None => "?".into(),
        })
        .collect();
    format!("[{}]", dims.join(", "))
}

fn describe_ios(out: &mut String, what: &str, ios: &[IoDesc]) {
    out.push_str(&format!(" * {what} ({}):\n", ios.len()));
    for (i, io) in ios.iter().enumerate() {
        let elem = ElemType::from_onnx(io.dtype).map_or("?", ElemType::onnx_name);
        // Names are arbitrary strings: keep them from closing the comment.
        let name = io.name.replace("*/", "*\\/");
        out.push_str(&format!(
            " *   [{i}] \"{name}\": {elem} (dtype {}) {}\n",
            io.dtype,
            describe_dims(io)
        ));
    }
}

/// The C header of a model's library (`--emit header`): which inputs and
/// outputs this model has (names, element types, shapes with symbolic
/// dims), then the ABI types and the public API of `omlc_rt.h`.
pub fn emit_header(model: &Model) -> Result<String> {
    let mut model = model.clone();
    prepare(&mut model)?;
    let g = model.ir.region(model.graph);
    let name = |v| model.ir.value(v).name.clone().unwrap_or_default();
    let inputs: Vec<IoDesc> = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| io_desc(&name(a.value), model.ir.ty(a.value)))
        .collect();
    let outputs: Vec<IoDesc> = g
        .outputs
        .iter()
        .map(|o| io_desc(&o.name, model.ir.ty(o.value)))
        .collect();
    let mut out = String::from(
        "/*\n * Generated by onnx-mlc: the C API of a compiled model's shared library.\n *\n",
    );
    describe_ios(&mut out, "Inputs", &inputs);
    describe_ios(&mut out, "Outputs", &outputs);
    out.push_str(
        " *\n * Tensors are passed in this order to omlc_session_run; a dim named by a\n \
         * string is symbolic (the same name means the same size), `?` is any size.\n \
         * omlc_model_info_get() returns the same description at run time.\n */\n",
    );
    out.push_str(&public_runtime_header());
    Ok(out)
}

type SessionCreate = unsafe extern "C" fn(i32) -> *mut c_void;
type SessionRun = unsafe extern "C" fn(*mut c_void, *const OmlcTensor, *mut OmlcTensor) -> i32;
type SessionLastError = unsafe extern "C" fn(*const c_void) -> *const c_char;
type LastError = unsafe extern "C" fn() -> *const c_char;
type Free = unsafe extern "C" fn(*mut c_void);
type SessionDestroy = unsafe extern "C" fn(*mut c_void);
type InfoGet = unsafe extern "C" fn() -> *const OmlcModelInfo;

/// A compiled shared library loaded into this process, with a session:
/// runs the model through the library's own C runtime (`onnx-mlc run
/// --aot`). `Send + Sync`: runs from several threads at once are safe.
pub struct AotModel {
    session: NonNull<c_void>,
    run: SessionRun,
    last_error: SessionLastError,
    free: Free,
    destroy: SessionDestroy,
    signature: ModelSignature,
    /// Dropped last: the functions above live in it.
    _library: libloading::Library,
}

// SAFETY: the C runtime's sessions may be used from any thread, and
// `omlc_session_run` from several at once (docs/abi.md); the library
// handle is only kept to keep the code mapped.
unsafe impl Send for AotModel {}
// SAFETY: as above; `&self` methods only call `omlc_session_run`.
unsafe impl Sync for AotModel {}

fn library_error(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Library {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

/// A C string from the library, or `""` for NULL.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string alive for the call.
unsafe fn c_string(s: *const c_char) -> String {
    if s.is_null() {
        return String::new();
    }
    // SAFETY: NUL-terminated (caller).
    unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
}

impl AotModel {
    /// Loads the library at `path` and creates a session running on
    /// `threads` threads (0: one per CPU).
    pub fn load(path: impl AsRef<Path>, threads: usize) -> Result<AotModel> {
        let path = path.as_ref();
        // SAFETY: loading runs the library's initializers; an onnx-mlc
        // library has none beyond the C library's. The caller vouches that
        // `path` is such a library.
        let library =
            unsafe { libloading::Library::new(path) }.map_err(|e| library_error(path, e))?;
        // SAFETY: the symbols are the public API of docs/abi.md with these
        // signatures; the copies stay valid while `library` is loaded,
        // which `AotModel` guarantees by owning it.
        let symbol = |name: &str| -> Result<*mut c_void> {
            unsafe { library.get::<*mut c_void>(name.as_bytes()) }
                .map(|s| *s)
                .map_err(|e| library_error(path, format!("not an onnx-mlc library: {e}")))
        };
        let (info_get, create, run, session_last_error, last_error, free, destroy) = (
            symbol("omlc_model_info_get")?,
            symbol("omlc_session_create")?,
            symbol("omlc_session_run")?,
            symbol("omlc_session_last_error")?,
            symbol("omlc_last_error")?,
            symbol("omlc_free")?,
            symbol("omlc_session_destroy")?,
        );
        // SAFETY: each is the function of that name in the ABI, whose
        // C signature the function pointer type spells.
        let (info_get, create, run, session_last_error, last_error, free, destroy) = unsafe {
            (
                std::mem::transmute::<*mut c_void, InfoGet>(info_get),
                std::mem::transmute::<*mut c_void, SessionCreate>(create),
                std::mem::transmute::<*mut c_void, SessionRun>(run),
                std::mem::transmute::<*mut c_void, SessionLastError>(session_last_error),
                std::mem::transmute::<*mut c_void, LastError>(last_error),
                std::mem::transmute::<*mut c_void, Free>(free),
                std::mem::transmute::<*mut c_void, SessionDestroy>(destroy),
            )
        };
        // SAFETY: the library's own description, valid while it is loaded.
        let signature = unsafe { read_signature(info_get()) }
            .map_err(|e| library_error(path, format!("bad model description: {e}")))?;
        let threads = i32::try_from(threads).unwrap_or(i32::MAX);
        // SAFETY: plain C call; NULL means failure, explained by
        // omlc_last_error on this thread.
        let session = unsafe { create(threads) };
        let Some(session) = NonNull::new(session) else {
            // SAFETY: the message of this thread's failed call.
            let message = unsafe { c_string(last_error()) };
            return Err(library_error(
                path,
                format!("cannot create a session: {message}"),
            ));
        };
        Ok(AotModel {
            session,
            run,
            last_error: session_last_error,
            free,
            destroy,
            signature,
            _library: library,
        })
    }

    /// Compiles `model` into a shared library for this machine (the target
    /// of `options` must be the host) and loads it with a session on
    /// `options.threads` threads: the AOT path in one call
    /// (`onnx-mlc run --aot`). The library is built in a temporary
    /// directory, removed once the library is loaded (and its weights
    /// mapped), under a name of its own, so that any number of models can
    /// be compiled and loaded into one process.
    pub fn compile(model: &Model, options: &CompileOptions) -> Result<(AotModel, LibraryReport)> {
        let dir = tempdir()?;
        let name = dir.path.file_name().expect("a temporary directory's name");
        let output = dir.path.join(format!("lib{}.so", name.to_string_lossy()));
        let library = LibraryOptions {
            optimizer: options.optimizer.clone(),
            ..LibraryOptions::library(options.target.clone(), output)
        };
        let report = Engine::compile_library(model, &library)?;
        let loaded = AotModel::load(&library.output, options.threads)?;
        Ok((loaded, report))
    }

    /// The model's inputs and outputs, as the library describes them.
    pub fn signature(&self) -> &ModelSignature {
        &self.signature
    }

    /// Runs the model on inputs in graph order; the library's runtime
    /// validates them (dtypes, ranks, dims) and allocates the outputs.
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        self.run_refs(&inputs.iter().collect::<Vec<_>>())
    }

    /// Runs the model on inputs given by name (each exactly once); returns
    /// the outputs in graph order.
    pub fn run_named(&self, inputs: &[(&str, &Tensor)]) -> Result<Vec<Tensor>> {
        self.run_refs(&self.signature.order_named(inputs)?)
    }

    /// [`AotModel::run`] on borrowed tensors.
    pub fn run_refs(&self, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        let expected = self.signature.inputs.len();
        if inputs.len() != expected {
            return Err(onnx_mlc_runtime::RuntimeError::InputCount {
                expected,
                got: inputs.len(),
            }
            .into());
        }
        let descriptors: Vec<OmlcTensor> = inputs
            .iter()
            .map(|t| OmlcTensor {
                data: t.as_bytes().as_ptr() as *mut c_void,
                shape: t.shape().as_ptr() as *mut i64,
                rank: t.rank() as i32,
                dtype: t.elem().onnx_code(),
            })
            .collect();
        let mut shapes: Vec<Vec<i64>> = self
            .signature
            .outputs
            .iter()
            .map(|o| vec![0; o.dims.len()])
            .collect();
        let mut outputs: Vec<OmlcTensor> = shapes
            .iter_mut()
            .map(|s| OmlcTensor {
                data: std::ptr::null_mut(),
                shape: s.as_mut_ptr(),
                rank: 0,
                dtype: 0,
            })
            .collect();
        // SAFETY: as many input descriptors as the model has inputs, each
        // pointing at a live tensor the library only reads; one output
        // descriptor per output with a shape buffer of its rank and NULL
        // data, which the run allocates.
        let rc = unsafe {
            (self.run)(
                self.session.as_ptr(),
                descriptors.as_ptr(),
                outputs.as_mut_ptr(),
            )
        };
        if rc != OMLC_OK {
            // SAFETY: this thread's last message, valid until its next call.
            let message = unsafe { c_string((self.last_error)(self.session.as_ptr())) };
            return Err(Error::Run { code: rc, message });
        }
        let mut result = Vec::with_capacity(outputs.len());
        let mut failure = None;
        for (o, shape) in outputs.iter().zip(&shapes) {
            if failure.is_none() {
                match self.collect(o, shape) {
                    Ok(t) => result.push(t),
                    Err(e) => failure = Some(e),
                }
            }
            // SAFETY: a block this run allocated (or NULL), freed once.
            unsafe { (self.free)(o.data) };
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(result),
        }
    }

    /// A copy of one output the library wrote.
    fn collect(&self, o: &OmlcTensor, shape: &[i64]) -> Result<Tensor> {
        let elem = ElemType::from_onnx(o.dtype).ok_or_else(|| Error::Run {
            code: onnx_mlc_runtime::abi::OMLC_ERR_INTERNAL,
            message: format!("output of unknown element type {}", o.dtype),
        })?;
        let shape = &shape[..(o.rank.max(0) as usize).min(shape.len())];
        let numel = shape.iter().try_fold(1usize, |n, &d| {
            usize::try_from(d).ok().and_then(|d| n.checked_mul(d))
        });
        let numel = numel.ok_or_else(|| Error::Run {
            code: onnx_mlc_runtime::abi::OMLC_ERR_INTERNAL,
            message: format!("output with shape {shape:?}"),
        })?;
        let bytes = elem.packed_bytes(numel);
        let data: &[u8] = if bytes == 0 {
            &[]
        } else {
            // SAFETY: after a successful run the runtime checked that the
            // output holds `shape` elements of `elem` at `data`.
            unsafe { std::slice::from_raw_parts(o.data as *const u8, bytes) }
        };
        Ok(Tensor::from_bytes(elem, shape, data)?)
    }
}

impl Drop for AotModel {
    fn drop(&mut self) {
        // SAFETY: the session was created by this library and is destroyed
        // once; no run can be in progress (`&mut self`).
        unsafe { (self.destroy)(self.session.as_ptr()) };
    }
}
