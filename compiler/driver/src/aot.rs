//! Ahead-of-time compilation: a model as a self-contained shared library
//! (`onnx-mlc model.onnx -o libmodel.so`), its C header, and loading such a
//! library back into this process to run it.
//!
//! A library holds the compiled model (kernels, `omlc_model`, the ABI glue
//! `__omlc_main`/`__omlc_info`, all hidden) — or, for a model that runs as a
//! host program, every compiled segment under a symbol prefix of its own
//! and the serialized program — the table `__omlc_program` listing them,
//! and the C runtime (`runtime/c/omlc_rt.c`), whose public API
//! (`omlc_session_create`, …; `docs/abi.md`) is all it exports. It needs only libc and libm at run
//! time. The weights are embedded in the library (64-byte aligned, in the
//! plan's order), or — for models past [`WeightsPolicy::Auto`]'s limit, or
//! when asked — written to a side file next to it that the runtime maps at
//! session creation. See `docs/aot.md`.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::time::Instant;

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module as LlvmModule;
use onnx_mlc_codegen::emit::{self, Artifact};
use onnx_mlc_codegen::glue::{self, IoDesc, LibraryTable, SegmentSymbols, Weights};
use onnx_mlc_codegen::link;
use onnx_mlc_codegen::CodegenError;
use onnx_mlc_dialect::{ElemType, Model, Type};
use onnx_mlc_optimizer::OptReport;
use onnx_mlc_plan::Plan;
use onnx_mlc_runtime::abi::{read_signature, OmlcModelInfo, OmlcProgramInfo, OmlcTensor, OMLC_OK};
use onnx_mlc_runtime::{
    into_tensors, HostProgram, ModelSignature, Program, Segment, Tensor, Value,
};

use crate::error::{Error, Result};
use crate::pipeline::{io_desc, weight_tensor, CompileOptions, Timings, Units};
use onnx_mlc_codegen::TargetSpec;

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
    /// How to compile: the machine the library runs on (`compile.target`),
    /// the optimizer, strictness. (`compile.threads` is for the library's
    /// user to choose when creating a session.)
    pub compile: CompileOptions,
    /// The file to write (`libmodel.so`, `model.o`, `model.s`, `model.ll`).
    pub output: PathBuf,
    /// What to write there.
    pub kind: AotOutput,
    /// Where the weights go.
    pub weights: WeightsPolicy,
}

impl LibraryOptions {
    /// A shared library for `target` at `output`, weights by the default
    /// policy, compiled with the default options otherwise.
    pub fn library(target: TargetSpec, output: impl Into<PathBuf>) -> LibraryOptions {
        LibraryOptions {
            compile: CompileOptions {
                target,
                ..CompileOptions::default()
            },
            output: output.into(),
            kind: AotOutput::Library,
            weights: WeightsPolicy::default(),
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
    /// The weights side files: none when the weights are embedded, else
    /// one (one per compiled segment of a host program whose weights are
    /// not embedded).
    pub weights_files: Vec<PathBuf>,
    /// The weights' size in bytes (embedded or in side files, with
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

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::Output {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// One compiled model's weights, laid out (each at a 64-byte aligned offset
/// of one blob) when the pipeline asks for them, and placed in the library
/// or in a side file by the policy.
pub(crate) struct WeightsLayout<'m> {
    model: &'m Model,
    policy: WeightsPolicy,
    /// The side file, if the policy sends the weights there.
    side_path: PathBuf,
    laid_out: OnceCell<(Vec<u8>, Vec<u64>)>,
    in_file: OnceCell<bool>,
}

impl<'m> WeightsLayout<'m> {
    /// The weights of a library's compiled unit: the whole model (side file
    /// `<stem>.weights` beside `output`), or segment `k` of a host program
    /// (`<stem>.s<k>.weights`).
    pub(crate) fn of_unit(
        model: &'m Model,
        policy: WeightsPolicy,
        output: &Path,
        segment: Option<usize>,
    ) -> WeightsLayout<'m> {
        let side_path = match segment {
            None => output.with_extension("weights"),
            Some(k) => output.with_extension(format!("s{k}.weights")),
        };
        WeightsLayout {
            model,
            policy,
            side_path,
            laid_out: OnceCell::new(),
            in_file: OnceCell::new(),
        }
    }

    /// Where the plan's weights go, as the ABI glue describes them.
    pub(crate) fn weights(&self, plan: &Plan) -> Result<Weights<'_>> {
        if self.laid_out.get().is_none() {
            let _ = self.laid_out.set(layout_weights(self.model, plan)?);
        }
        let (blob, offsets) = self.laid_out.get().expect("just laid out");
        // A model without weights needs no side file, whatever the policy.
        let file = !offsets.is_empty()
            && match self.policy {
                WeightsPolicy::Embed => false,
                WeightsPolicy::File => true,
                WeightsPolicy::Auto { max_embedded } => blob.len() as u64 > max_embedded,
            };
        let _ = self.in_file.set(file);
        Ok(if file {
            Weights::File {
                name: side_file_name(&self.side_path)?,
                offsets: offsets.clone(),
                size: blob.len() as u64,
            }
        } else {
            Weights::Embedded {
                blob,
                offsets: offsets.clone(),
            }
        })
    }

    /// The weights once placed, without the model: what is left to write
    /// after linking.
    pub(crate) fn finish(self) -> PlacedWeights {
        let (blob, _) = self.laid_out.into_inner().unwrap_or_default();
        let in_file = self.in_file.into_inner().unwrap_or(false);
        PlacedWeights {
            blob,
            side_file: in_file.then_some(self.side_path),
        }
    }
}

/// A compiled model's weights blob, and the side file it goes to when it
/// is not in the library.
pub(crate) struct PlacedWeights {
    blob: Vec<u8>,
    side_file: Option<PathBuf>,
}

impl PlacedWeights {
    /// No weights of its own: a unit whose weights are shared.
    pub(crate) fn none() -> PlacedWeights {
        PlacedWeights {
            blob: vec![],
            side_file: None,
        }
    }
}

/// The one weights blob a library's general code and its size variants
/// share (`crate::specialize`): each distinct weight stored once, at a
/// 64-byte aligned offset, and the whole blob placed by the policy (the
/// side file `<stem>.weights`, or the library's [`glue::SHARED_WEIGHTS`]).
/// The general code is compiled last, so that its description covers the
/// whole blob, which its session loads and the variants read.
pub(crate) struct SharedWeights {
    policy: WeightsPolicy,
    side_path: PathBuf,
    blob: RefCell<Vec<u8>>,
    /// The weights stored so far, by a hash of their bytes: offset, length.
    stored: RefCell<HashMap<u64, Vec<(u64, usize)>>>,
    /// Whether the blob goes to the side file: decided by the first unit
    /// that has weights.
    in_file: OnceCell<bool>,
}

impl SharedWeights {
    /// An empty blob for the library at `output`, placed by `policy`.
    pub(crate) fn new(policy: WeightsPolicy, output: &Path) -> SharedWeights {
        SharedWeights {
            policy,
            side_path: output.with_extension("weights"),
            blob: RefCell::new(vec![]),
            stored: RefCell::new(HashMap::new()),
            in_file: OnceCell::new(),
        }
    }

    /// Where the weights of one unit's plan are, as the ABI glue describes
    /// them: those not in the blob yet are added to it.
    pub(crate) fn weights(&self, model: &Model, plan: &Plan) -> Result<Weights<'static>> {
        if plan.weights.is_empty() {
            return Ok(Weights::Embedded {
                blob: &[],
                offsets: vec![],
            });
        }
        let offsets = plan
            .weights
            .iter()
            .map(|&v| Ok(self.store(weight_tensor(model, v)?.as_bytes())))
            .collect::<Result<Vec<u64>>>()?;
        let size = self.blob.borrow().len() as u64;
        let in_file = *self.in_file.get_or_init(|| match self.policy {
            WeightsPolicy::Embed => false,
            WeightsPolicy::File => true,
            WeightsPolicy::Auto { max_embedded } => size > max_embedded,
        });
        Ok(if in_file {
            Weights::File {
                name: side_file_name(&self.side_path)?,
                offsets,
                size,
            }
        } else {
            Weights::Shared { offsets, size }
        })
    }

    /// The offset of a weight of these bytes in the blob, added if new.
    fn store(&self, bytes: &[u8]) -> u64 {
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        let mut stored = self.stored.borrow_mut();
        let same = stored.entry(hasher.finish()).or_default();
        let mut blob = self.blob.borrow_mut();
        let found = same.iter().find(|&&(offset, len)| {
            len == bytes.len() && &blob[offset as usize..offset as usize + len] == bytes
        });
        if let Some(&(offset, _)) = found {
            return offset;
        }
        let offset = blob.len().next_multiple_of(WEIGHT_ALIGN);
        blob.resize(offset, 0);
        blob.extend_from_slice(bytes);
        let offset = offset as u64;
        same.push((offset, bytes.len()));
        offset
    }

    /// The blob, and the side file it goes to when it is not in the library.
    pub(crate) fn finish(self) -> PlacedWeights {
        let in_file = self.in_file.into_inner().unwrap_or(false);
        PlacedWeights {
            blob: self.blob.into_inner(),
            side_file: in_file.then_some(self.side_path),
        }
    }
}

/// The name of a side file, as a library records it.
fn side_file_name(path: &Path) -> Result<String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::Output {
            path: path.to_path_buf(),
            message: "not a file name".into(),
        })
}

/// A compiled unit of a library: its LLVM module, how many weights its plan
/// has, and where they went.
pub(crate) type LibraryUnit<'c> = (LlvmModule<'c>, usize, PlacedWeights);

/// What [`write`] wrote.
pub(crate) struct Written {
    pub output_bytes: u64,
    pub weights_files: Vec<PathBuf>,
    pub weights_bytes: u64,
    pub num_weights: usize,
}

/// A library's compiled parts, ready to be put together.
pub(crate) struct LibraryParts<'c> {
    /// The model's code: the one unit, or a host program's segments.
    pub units: Units<LibraryUnit<'c>>,
    /// The size variants of a library of one unit: each one's module and
    /// number of weights.
    pub variants: Vec<(LlvmModule<'c>, usize)>,
    /// The weights blob the unit and its variants share, when there are
    /// variants (the units' own [`PlacedWeights`] are then empty).
    pub shared: Option<PlacedWeights>,
}

/// Links `part` into `module` under `prefix`.
fn link_part<'c>(module: &LlvmModule<'c>, part: LlvmModule<'c>, prefix: &str) -> Result<()> {
    emit::prefix_symbols(&part, prefix);
    module
        .link_in_module(part)
        .map_err(|e| CodegenError::Llvm(format!("linking {prefix} into the library: {e}")).into())
}

/// Puts a library's compiled parts together and writes them: one module
/// (a host program's segments each under its symbol prefix `__omlc_s<K>_`,
/// with the serialized program; size variants under `__omlc_v<K>_`, with
/// their shared weights), emitted as `kind` for `target` to `output` (and
/// linked with the C runtime for a library), then the weights side files.
/// The time of each step is added to `timings`.
pub(crate) fn write<'c>(
    llcx: &'c LlvmContext,
    parts: LibraryParts<'c>,
    target: &TargetSpec,
    output: &Path,
    kind: AotOutput,
    timings: &mut Timings,
) -> Result<Written> {
    let mut num_weights = 0;
    let mut placed_weights = vec![];
    let LibraryParts {
        units,
        variants,
        shared,
    } = parts;
    let module = match units {
        Units::Single((module, n, placed)) if variants.is_empty() => {
            num_weights += n;
            placed_weights.push(placed);
            let table = LibraryTable {
                segments: vec![SegmentSymbols::with_prefix("")],
                ..LibraryTable::default()
            };
            glue::define_program_table(llcx, &module, &table)?;
            module
        }
        Units::Single((general, n, placed)) => {
            num_weights += n;
            placed_weights.push(placed);
            let module = llcx.create_module("omlc_library");
            // Defined before the parts that refer to it are linked in.
            if let Some(shared) = shared.as_ref().filter(|s| s.side_file.is_none()) {
                if !shared.blob.is_empty() {
                    glue::define_shared_weights(llcx, &module, &shared.blob);
                }
            }
            link_part(&module, general, "")?;
            let mut table = LibraryTable {
                segments: vec![SegmentSymbols::with_prefix("")],
                ..LibraryTable::default()
            };
            for (k, (variant, n)) in variants.into_iter().enumerate() {
                num_weights += n;
                let prefix = format!("__omlc_v{k}_");
                link_part(&module, variant, &prefix)?;
                table.variants.push(SegmentSymbols::with_prefix(&prefix));
            }
            glue::define_program_table(llcx, &module, &table)?;
            module
        }
        Units::Program(program, segments) => {
            let program = program.to_bytes()?;
            let module = llcx.create_module("omlc_program");
            let mut table = LibraryTable {
                program: Some(&program),
                ..LibraryTable::default()
            };
            for (k, (segment_module, n, placed)) in segments.into_iter().enumerate() {
                num_weights += n;
                placed_weights.push(placed);
                let prefix = format!("__omlc_s{k}_");
                link_part(&module, segment_module, &prefix)?;
                table.segments.push(SegmentSymbols::with_prefix(&prefix));
            }
            glue::define_program_table(llcx, &module, &table)?;
            module
        }
    };
    placed_weights.extend(shared);
    emit::hide_symbols(&module);
    let start = Instant::now();
    match kind {
        AotOutput::Code(artifact) => {
            emit::to_file(&module, target, artifact, output)?;
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
            link::link_shared(target, &[&object_path, &runtime], output)?;
            timings.0.push(("link", start.elapsed()));
        }
    }
    let mut weights_files = vec![];
    let mut weights_bytes = 0;
    for placed in &placed_weights {
        if let Some(path) = &placed.side_file {
            write_file(path, &placed.blob)?;
            weights_files.push(path.clone());
        }
        weights_bytes += placed.blob.len() as u64;
    }
    let output_bytes = std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
    Ok(Written {
        output_bytes,
        weights_files,
        weights_bytes,
        num_weights,
    })
}

/// A directory removed when dropped.
pub(crate) struct TempDir {
    pub path: PathBuf,
}

/// A fresh temporary directory of this process.
pub(crate) fn tempdir() -> Result<TempDir> {
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

/// One graph input or output of the header's comment: a dense tensor as
/// the ABI describes it, or (in a host program) a value of another type,
/// as the text form writes it.
fn describe_io(name: &str, ty: &Type) -> String {
    // Names are arbitrary strings: keep them from closing the comment.
    let name = name.replace("*/", "*\\/");
    match ty.as_tensor() {
        Some(t) if t.elem != ElemType::String && t.dims().is_some() => {
            let io = io_desc(&name, ty);
            format!(
                "\"{name}\": {} (dtype {}) {}",
                t.elem.onnx_name(),
                io.dtype,
                describe_dims(&io)
            )
        }
        _ => format!("\"{name}\": {}", ty.to_string().replace("*/", "*\\/")),
    }
}

fn describe_ios(out: &mut String, what: &str, ios: &[String]) {
    out.push_str(&format!(" * {what} ({}):\n", ios.len()));
    for (i, io) in ios.iter().enumerate() {
        out.push_str(&format!(" *   [{i}] {io}\n"));
    }
}

/// [`emit_header`] for a model that went through the front end, which
/// runs as a host program when `program` says so.
pub(crate) fn header(model: &Model, program: bool) -> String {
    let g = model.ir.region(model.graph);
    let name = |v| model.ir.value(v).name.clone().unwrap_or_default();
    let inputs: Vec<String> = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| describe_io(&name(a.value), model.ir.ty(a.value)))
        .collect();
    let outputs: Vec<String> = g
        .outputs
        .iter()
        .map(|o| describe_io(&o.name, model.ir.ty(o.value)))
        .collect();
    let mut out = String::from(
        "/*\n * Generated by onnx-mlc: the C API of a compiled model's shared library.\n *\n",
    );
    describe_ios(&mut out, "Inputs", &inputs);
    describe_ios(&mut out, "Outputs", &outputs);
    if program {
        out.push_str(
            " *\n * This model runs as a host program (sequences, optionals, strings,\n \
             * data-dependent shapes or run-time control flow): its library holds\n \
             * compiled segments and the program that calls them, which the onnx-mlc\n \
             * runtime (Rust, Python) interprets. omlc_model_info_get() returns NULL\n \
             * and omlc_session_create() fails; omlc_program_get() lists the segments.\n */\n",
        );
    } else {
        out.push_str(
            " *\n * Tensors are passed in this order to omlc_session_run; a dim named by a\n \
             * string is symbolic (the same name means the same size), `?` is any size.\n \
             * omlc_model_info_get() returns the same description at run time.\n */\n",
        );
    }
    out.push_str(&public_runtime_header());
    out
}

type SegmentSessionCreate = unsafe extern "C" fn(i32, i32) -> *mut c_void;
type SessionRun = unsafe extern "C" fn(*mut c_void, *const OmlcTensor, *mut OmlcTensor) -> i32;
type SessionLastError = unsafe extern "C" fn(*const c_void) -> *const c_char;
type LastError = unsafe extern "C" fn() -> *const c_char;
type Free = unsafe extern "C" fn(*mut c_void);
type SessionDestroy = unsafe extern "C" fn(*mut c_void);
type ProgramGet = unsafe extern "C" fn() -> *const OmlcProgramInfo;

/// The functions of a loaded library's C API a session needs.
#[derive(Clone, Copy)]
struct Api {
    create: SegmentSessionCreate,
    run: SessionRun,
    session_last_error: SessionLastError,
    last_error: LastError,
    free: Free,
    destroy: SessionDestroy,
}

/// A session of one compiled model of a loaded library (the whole model,
/// or one segment of a host program), run by the library's C runtime.
struct CSession {
    session: NonNull<c_void>,
    api: Api,
    signature: ModelSignature,
    /// Which segment, for messages.
    segment: usize,
}

// SAFETY: the C runtime's sessions may be used from any thread, and
// `omlc_session_run` from several at once (docs/abi.md).
unsafe impl Send for CSession {}
// SAFETY: as above; `&self` methods only call `omlc_session_run`.
unsafe impl Sync for CSession {}

impl CSession {
    /// A session of `segment` on `threads` threads; the message of the C
    /// runtime when it cannot be created.
    ///
    /// # Safety
    /// `api` holds the functions of one loaded library, which must outlive
    /// the session, and `info` is that library's description of `segment`.
    unsafe fn create(
        api: Api,
        info: *const OmlcModelInfo,
        segment: usize,
        threads: usize,
    ) -> std::result::Result<CSession, String> {
        // SAFETY: the library's own description, valid while it is loaded.
        let signature =
            unsafe { read_signature(info) }.map_err(|e| format!("bad model description: {e}"))?;
        let threads = i32::try_from(threads).unwrap_or(i32::MAX);
        // SAFETY: plain C call; NULL means failure, explained by
        // omlc_last_error on this thread.
        let session = unsafe { (api.create)(segment as i32, threads) };
        let session = NonNull::new(session).ok_or_else(|| {
            // SAFETY: the message of this thread's failed call.
            let message = unsafe { c_string((api.last_error)()) };
            format!("cannot create a session: {message}")
        })?;
        Ok(CSession {
            session,
            api,
            signature,
            segment,
        })
    }

    /// Runs the model on inputs in graph order; the library's runtime
    /// validates them (dtypes, ranks, dims) and allocates the outputs.
    /// Fails with the run's `OMLC_ERR_*` code and message.
    fn run_refs(&self, inputs: &[&Tensor]) -> std::result::Result<Vec<Tensor>, (i32, String)> {
        let expected = self.signature.inputs.len();
        if inputs.len() != expected {
            let e = onnx_mlc_runtime::RuntimeError::InputCount {
                expected,
                got: inputs.len(),
            };
            return Err((
                onnx_mlc_runtime::abi::OMLC_ERR_INVALID_ARGUMENT,
                e.to_string(),
            ));
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
            (self.api.run)(
                self.session.as_ptr(),
                descriptors.as_ptr(),
                outputs.as_mut_ptr(),
            )
        };
        if rc != OMLC_OK {
            // SAFETY: this thread's last message, valid until its next call.
            let message = unsafe { c_string((self.api.session_last_error)(self.session.as_ptr())) };
            return Err((rc, message));
        }
        let mut result = Vec::with_capacity(outputs.len());
        let mut failure = None;
        for (o, shape) in outputs.iter().zip(&shapes) {
            if failure.is_none() {
                match collect(o, shape) {
                    Ok(t) => result.push(t),
                    Err(e) => failure = Some(e),
                }
            }
            // SAFETY: a block this run allocated (or NULL), freed once.
            unsafe { (self.api.free)(o.data) };
        }
        match failure {
            Some(e) => Err((onnx_mlc_runtime::abi::OMLC_ERR_INTERNAL, e)),
            None => Ok(result),
        }
    }
}

impl Drop for CSession {
    fn drop(&mut self) {
        // SAFETY: the session was created by this library and is destroyed
        // once; no run can be in progress (`&mut self`).
        unsafe { (self.api.destroy)(self.session.as_ptr()) };
    }
}

/// A segment of a host program in a library, as the program's
/// interpreter calls it.
impl Segment for CSession {
    fn run_refs(&self, inputs: &[&Tensor]) -> onnx_mlc_runtime::Result<Vec<Tensor>> {
        CSession::run_refs(self, inputs).map_err(|(code, message)| {
            onnx_mlc_runtime::RuntimeError::Host {
                op: format!("compiled segment {}", self.segment),
                code,
                message,
            }
        })
    }
}

/// A copy of one output a library's run wrote.
fn collect(o: &OmlcTensor, shape: &[i64]) -> std::result::Result<Tensor, String> {
    let elem = ElemType::from_onnx(o.dtype)
        .ok_or_else(|| format!("output of unknown element type {}", o.dtype))?;
    let shape = &shape[..(o.rank.max(0) as usize).min(shape.len())];
    let numel = shape.iter().try_fold(1usize, |n, &d| {
        usize::try_from(d).ok().and_then(|d| n.checked_mul(d))
    });
    let numel = numel.ok_or_else(|| format!("output with shape {shape:?}"))?;
    let bytes = elem.packed_bytes(numel);
    let data: &[u8] = if bytes == 0 {
        &[]
    } else {
        // SAFETY: after a successful run the runtime checked that the
        // output holds `shape` elements of `elem` at `data`.
        unsafe { std::slice::from_raw_parts(o.data as *const u8, bytes) }
    };
    Tensor::from_bytes(elem, shape, data).map_err(|e| e.to_string())
}

/// What a loaded library runs: one model, or a host program over its
/// segments.
enum Loaded {
    Single(CSession),
    Program(HostProgram),
}

/// A compiled shared library loaded into this process, with sessions:
/// runs the model through the library's own C runtime (`onnx-mlc run
/// --aot`) — one session for a library of one model; for a library of a
/// host program, one session per compiled segment and the program's
/// interpreter (`onnx_mlc_runtime::program`) for the steps between them.
/// `Send + Sync`: runs from several threads at once are safe.
pub struct AotModel {
    loaded: Loaded,
    /// The size variants the library carries (`--specialize`), as their
    /// signatures: the inputs' dims they fix are static in them.
    variants: Vec<ModelSignature>,
    /// Dropped last: the sessions' code lives in it.
    _library: libloading::Library,
}

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
    /// Loads the library at `path` and creates its sessions, each running
    /// on `threads` threads (0: one per CPU).
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
        let (program_get, create, run, session_last_error, last_error, free, destroy) = (
            symbol("omlc_program_get")?,
            symbol("omlc_segment_session_create")?,
            symbol("omlc_session_run")?,
            symbol("omlc_session_last_error")?,
            symbol("omlc_last_error")?,
            symbol("omlc_free")?,
            symbol("omlc_session_destroy")?,
        );
        // SAFETY: each is the function of that name in the ABI, whose
        // C signature the function pointer type spells.
        let (program_get, api) = unsafe {
            (
                std::mem::transmute::<*mut c_void, ProgramGet>(program_get),
                Api {
                    create: std::mem::transmute::<*mut c_void, SegmentSessionCreate>(create),
                    run: std::mem::transmute::<*mut c_void, SessionRun>(run),
                    session_last_error: std::mem::transmute::<*mut c_void, SessionLastError>(
                        session_last_error,
                    ),
                    last_error: std::mem::transmute::<*mut c_void, LastError>(last_error),
                    free: std::mem::transmute::<*mut c_void, Free>(free),
                    destroy: std::mem::transmute::<*mut c_void, SessionDestroy>(destroy),
                },
            )
        };
        // SAFETY: the library's own table, valid while it is loaded.
        let table = unsafe { program_get().as_ref() }
            .ok_or_else(|| library_error(path, "no program table"))?;
        // A library of one model has one segment; a host program may have
        // none (every step on the host).
        let num_segments = usize::try_from(table.num_segments)
            .ok()
            .filter(|&n| (n > 0 || !table.program.is_null()) && !table.segments.is_null())
            .ok_or_else(|| library_error(path, "a program table without segments"))?;
        // SAFETY: `num_segments` entries (checked non-NULL), part of the
        // loaded library.
        let segments = unsafe { std::slice::from_raw_parts(table.segments, num_segments) };
        let session = |k: usize| {
            // SAFETY: `api` is this library's, which the `AotModel` keeps
            // loaded for as long as the session, and `segments[k].info`
            // its description of segment `k`.
            unsafe { CSession::create(api, segments[k].info, k, threads) }
                .map_err(|e| library_error(path, e))
        };
        let num_variants = usize::try_from(table.num_variants).unwrap_or(0);
        let variants = match table.variants.is_null() {
            true => &[][..],
            // SAFETY: `num_variants` entries (checked non-NULL) of the
            // loaded library.
            false => unsafe { std::slice::from_raw_parts(table.variants, num_variants) },
        };
        let variants = variants
            .iter()
            // SAFETY: the library's own description of each variant.
            .map(|v| unsafe { read_signature(v.info) })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| library_error(path, format!("bad size variant description: {e}")))?;
        let loaded = if table.program.is_null() {
            Loaded::Single(session(0)?)
        } else {
            // SAFETY: `program_size` bytes of the loaded library.
            let bytes =
                unsafe { std::slice::from_raw_parts(table.program, table.program_size as usize) };
            let program = Program::from_bytes(bytes).map_err(|e| library_error(path, e))?;
            let sessions = (0..num_segments)
                .map(|k| Ok(Box::new(session(k)?) as Box<dyn Segment>))
                .collect::<Result<Vec<_>>>()?;
            Loaded::Program(HostProgram::new(program, sessions)?)
        };
        Ok(AotModel {
            loaded,
            variants,
            _library: library,
        })
    }

    /// The model's inputs and outputs, as the library describes them, for
    /// a library of one model; `None` for a host program, whose inputs and
    /// outputs may be sequences, optionals or strings.
    pub fn signature(&self) -> Option<&ModelSignature> {
        match &self.loaded {
            Loaded::Single(s) => Some(&s.signature),
            Loaded::Program(_) => None,
        }
    }

    /// The size variants the library carries (`--specialize`), in the
    /// order its runtime tries them: each one's signature, with static
    /// dims where the variant fixed a size. A run whose inputs have all of
    /// a variant's static sizes runs on that variant's code.
    pub fn variants(&self) -> &[ModelSignature] {
        &self.variants
    }

    /// The names of the model's outputs, in graph order.
    pub fn output_names(&self) -> Vec<&str> {
        match &self.loaded {
            Loaded::Single(s) => s.signature.output_names(),
            Loaded::Program(p) => p.output_names(),
        }
    }

    /// The host program the library holds, if it holds one.
    pub fn program(&self) -> Option<&Program> {
        match &self.loaded {
            Loaded::Single(_) => None,
            Loaded::Program(p) => Some(p.program()),
        }
    }

    /// Runs the model on inputs in graph order; the library's runtime
    /// validates them (dtypes, ranks, dims) and allocates the outputs.
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        match &self.loaded {
            Loaded::Single(s) => run_single(s, &inputs.iter().collect::<Vec<_>>()),
            Loaded::Program(p) => Ok(p.run_tensors(inputs)?),
        }
    }

    /// Runs the model on values of any kind (tensors, string tensors,
    /// sequences, optionals) in graph order.
    pub fn run_values(&self, inputs: Vec<Value>) -> Result<Vec<Value>> {
        match &self.loaded {
            Loaded::Program(p) => Ok(p.run(inputs)?),
            Loaded::Single(s) => {
                let tensors = into_tensors(inputs, "inputs of a model of tensors")?;
                let outputs = run_single(s, &tensors.iter().collect::<Vec<_>>())?;
                Ok(outputs.into_iter().map(Value::Tensor).collect())
            }
        }
    }

    /// Runs the model on inputs given by name (each exactly once); returns
    /// the outputs in graph order.
    pub fn run_named(&self, inputs: &[(&str, &Tensor)]) -> Result<Vec<Tensor>> {
        match &self.loaded {
            Loaded::Single(s) => run_single(s, &s.signature.order_named(inputs)?),
            Loaded::Program(_) => Err(onnx_mlc_runtime::RuntimeError::Unsupported(
                "inputs given by name to a host program are".into(),
            )
            .into()),
        }
    }

    /// [`AotModel::run`] on borrowed tensors.
    pub fn run_refs(&self, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        match &self.loaded {
            Loaded::Single(s) => run_single(s, inputs),
            Loaded::Program(p) => {
                Ok(p.run_tensors(&inputs.iter().map(|&t| t.clone()).collect::<Vec<_>>())?)
            }
        }
    }
}

/// Runs a library of one model, its failure as [`Error::Run`].
fn run_single(session: &CSession, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
    session
        .run_refs(inputs)
        .map_err(|(code, message)| Error::Run { code, message })
}
