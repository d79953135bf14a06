//! Builds one kernel: a `func.func` that computes a group of onnx ops.
//!
//! A kernel takes its external inputs and its outputs as memrefs (views the
//! caller owns: graph inputs and outputs, weights, workspace slices), plus a
//! chunk range `[begin, end)` for the parallel runtime. Inside, the ops are
//! expressed on tensors in destination-passing style: outputs are computed
//! into `bufferization.to_tensor` views of the output memrefs and committed
//! with `bufferization.materialize_in_destination`, so that one-shot
//! bufferization writes them in place, and fused intermediates (an
//! elementwise epilogue reading a matmul's result, say) never need a buffer
//! of their own.

use std::collections::{HashMap, HashSet};

use melior::dialect::func;
use melior::ir::attribute::{ArrayAttribute, DictionaryAttribute, StringAttribute, TypeAttribute};
use melior::ir::operation::OperationMutLike;
use melior::ir::r#type::FunctionType;
use melior::ir::{
    Attribute, Block, BlockLike, Identifier, Location, Module, Operation, OperationRef, Region,
    RegionLike, Type, Value as MValue,
};
use melior::Context;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{ElemType, Model, Value};

use crate::builder::Size;
use crate::builder::{declare_intrinsics, fill, unit, Emitter};
use crate::error::{LowerError, Result};
use crate::schedule::{OpTiles, Schedule, Target};
use crate::symbols::{self, Symbols};
use crate::types::{
    boundary_memref_type, describe_value, elem_type, lowered_dims, memref_type, tensor_type,
    value_tensor,
};

/// One kernel to build, in the lowering's terms.
#[derive(Clone, Debug)]
pub struct KernelSpec {
    /// The function's symbol name.
    pub name: String,
    /// The ops, in execution order.
    pub ops: Vec<OpId>,
    /// Values computed outside the kernel that it reads, in argument order.
    pub inputs: Vec<Value>,
    /// Values the kernel computes for others, in argument order (after the inputs).
    pub outputs: Vec<Value>,
}

/// The dims (static, or [`crate::builder::DYNAMIC`]) and element type of value `v`.
fn kb_shape(model: &Model, v: Value) -> Result<(Vec<i64>, ElemType)> {
    let t = value_tensor(model, v)?;
    Ok((lowered_dims(t, &describe_value(model, v))?, t.elem))
}

/// What an op's lowering sees: the tensors of its operands, where to put
/// its results, and an emitter for the kernel's body.
pub struct KernelBuilder<'c, 'a> {
    /// Appends to the kernel's body.
    pub e: Emitter<'c, 'a>,
    /// The model the ops belong to.
    pub model: &'a Model,
    /// The machine the kernel is for.
    pub target: Target,
    tensors: HashMap<Value, MValue<'c, 'a>>,
    dests: HashMap<Value, MValue<'c, 'a>>,
    /// A root result that is computed in the destination of a later value
    /// of the kernel (the epilogue that consumes it in place).
    init_alias: HashMap<Value, Value>,
    /// How to schedule the kernel, as far as its ops have told.
    schedule: Option<Schedule>,
    /// Structured ops built so far.
    structured_ops: usize,
    /// Producers tagged so far (see [`KernelBuilder::producer`]).
    producers: usize,
    /// The model's symbols, and their values when the kernel has
    /// symbolic sizes (else empty).
    symbols: &'a Symbols,
    symbol_values: Vec<MValue<'c, 'a>>,
    /// The values of a kernel run image by image (`OpLowering::image_batch`) that
    /// it sees one image at a time.
    image: Option<HashSet<Value>>,
}

impl<'c, 'a> KernelBuilder<'c, 'a> {
    /// The tensor computed for (or passed in as) `v`.
    pub fn tensor(&self, v: Value) -> MValue<'c, 'a> {
        *self
            .tensors
            .get(&v)
            .unwrap_or_else(|| panic!("{v:?} is lowered before use"))
    }

    /// Records the tensor computed for `v`.
    pub fn define(&mut self, v: Value, t: MValue<'c, 'a>) {
        self.tensors.insert(v, t);
    }

    /// The dims and element type of value `v`: static sizes, and
    /// [`crate::builder::DYNAMIC`] where the size is symbolic (only in the
    /// kernels [`OpLowering::check_dynamic`] admits).
    pub fn shape(&self, v: Value) -> Result<(Vec<i64>, ElemType)> {
        let (mut dims, elem) = kb_shape(self.model, v)?;
        if self.in_image(v) {
            dims[0] = 1;
        }
        Ok((dims, elem))
    }

    /// Whether `v` is seen one image at a time (`OpLowering::image_batch`).
    fn in_image(&self, v: Value) -> bool {
        self.image
            .as_ref()
            .is_some_and(|batched| batched.contains(&v))
    }

    /// The MLIR tensor type of value `v`.
    pub fn tensor_type(&self, v: Value) -> Result<Type<'c>> {
        let (dims, elem) = self.shape(v)?;
        tensor_type(self.e.cx, &dims, elem)
    }

    /// The tensor a result `v` is to be computed into (destination-passing
    /// style): its output memref's view when `v` leaves the kernel, else
    /// fresh (`tensor.empty`).
    pub fn init(&self, v: Value) -> Result<MValue<'c, 'a>> {
        let target = self.init_alias.get(&v).copied().unwrap_or(v);
        if let Some(d) = self.dests.get(&target) {
            return Ok(*d);
        }
        self.empty(&self.sizes(v)?, self.shape(v)?.1)
    }

    /// A fresh `tensor.empty` of run-time `sizes` × `elem` (static where
    /// they are).
    pub fn empty(&self, sizes: &[Size<'c, 'a>], elem: ElemType) -> Result<MValue<'c, 'a>> {
        Ok(self.e.empty(sizes, elem_type(self.e.cx, elem)?))
    }

    /// The run-time sizes of value `v` (static ones without code).
    pub fn sizes(&self, v: Value) -> Result<Vec<Size<'c, 'a>>> {
        let mut sizes = symbols::sizes(&self.e, self.model, self.symbols, &self.symbol_values, v)?;
        if self.in_image(v) {
            sizes[0] = Size::Static(1);
        }
        Ok(sizes)
    }

    /// Computes root result `root` in the destination of `consumer` (a later
    /// value of the kernel with the same type that reads it in place).
    pub fn compute_in(&mut self, root: Value, consumer: Value) {
        self.init_alias.insert(root, consumer);
    }

    /// Appends the structured op the kernel is built around, tagged
    /// `omlc.root` for the schedule to find, and records how to schedule it.
    pub fn root(&mut self, mut op: Operation<'c>, schedule: Schedule) -> OperationRef<'c, 'a> {
        op.set_attribute("omlc.root", unit(self.e.cx));
        self.structured_ops += 1;
        self.schedule = Some(schedule);
        self.e.append(op)
    }

    /// Appends a structured op whose result the kernel's root (appended
    /// later) consumes: tagged `omlc.p<N>` in order, for the schedule to
    /// fuse into the root's chunks.
    pub fn producer(&mut self, mut op: Operation<'c>) -> OperationRef<'c, 'a> {
        op.set_attribute(&format!("omlc.p{}", self.producers), unit(self.e.cx));
        self.producers += 1;
        self.structured_ops += 1;
        self.e.append(op)
    }

    /// The number of producers appended so far (see [`Self::producer`]).
    pub fn producers(&self) -> usize {
        self.producers
    }

    /// Appends a structured op that no schedule is built around (a copy
    /// into one slice of an output, say): the kernel is then bufferized as
    /// it is, unchunked.
    pub fn structured(&mut self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        self.structured_ops += 1;
        self.schedule = Some(Schedule::Generic { outer: None });
        self.e.append(op)
    }

    /// Records that the kernel's lowering wrote its loops itself, with
    /// `schedule` (a [`Schedule::Written`]).
    pub fn written(&mut self, schedule: Schedule) {
        self.schedule = Some(schedule);
    }

    /// Appends a `linalg.fill` of `value` into `out` (as [`structured`]
    /// does) and returns the filled tensor.
    ///
    /// [`structured`]: KernelBuilder::structured
    pub fn filled(&mut self, value: MValue<'c, 'a>, out: MValue<'c, 'a>) -> MValue<'c, 'a> {
        let e = self.e;
        self.structured(fill(e, value, out))
            .result(0)
            .expect("one result")
            .into()
    }

    /// Appends an elementwise `linalg.generic` over `dims` with
    /// `elem_bits`-bit elements: the epilogue of a matmul or window root (tagged
    /// `omlc.epilogue`), or the kernel's only op.
    pub fn elementwise(
        &mut self,
        mut op: Operation<'c>,
        dims: &[i64],
        elem_bits: u32,
    ) -> OperationRef<'c, 'a> {
        self.structured_ops += 1;
        self.schedule = match self.schedule.take() {
            Some(Schedule::Matmul {
                batch,
                m,
                n,
                k,
                epilogues,
            }) => {
                op.set_attribute("omlc.epilogue", unit(self.e.cx));
                Some(Schedule::Matmul {
                    batch,
                    m,
                    n,
                    k,
                    epilogues: epilogues + 1,
                })
            }
            Some(Schedule::Window {
                channels,
                work_per_channel,
                epilogues,
            }) => {
                op.set_attribute("omlc.epilogue", unit(self.e.cx));
                Some(Schedule::Window {
                    channels,
                    work_per_channel,
                    epilogues: epilogues + 1,
                })
            }
            Some(Schedule::ConvGemm {
                channels,
                reduction,
                spatial,
                col,
                epilogues,
            }) => {
                op.set_attribute("omlc.epilogue", unit(self.e.cx));
                Some(Schedule::ConvGemm {
                    channels,
                    reduction,
                    spatial,
                    col,
                    epilogues: epilogues + 1,
                })
            }
            None => Some(Schedule::Elementwise {
                dims: dims.to_vec(),
                elem_bits,
            }),
            // The epilogue becomes the op to chunk, the root its last producer.
            Some(Schedule::Fused {
                producers,
                epilogue: false,
                ..
            }) => {
                op.set_attribute("omlc.epilogue", unit(self.e.cx));
                Some(Schedule::Fused {
                    loops: dims.iter().map(|&d| (d, true)).collect(),
                    producers,
                    epilogue: true,
                })
            }
            // Rows of the epilogue as vectors too, when they are short.
            Some(Schedule::Tiled {
                tiles,
                epilogue: None,
                ..
            }) => {
                op.set_attribute("omlc.epilogue", unit(self.e.cx));
                let loops = dims.iter().map(|&d| (d, true)).collect();
                Some(if crate::schedule::vector_rows(dims) {
                    Schedule::Tiled {
                        loops,
                        tiles,
                        epilogue: Some(OpTiles::rows(dims.len() - 1)),
                    }
                } else {
                    Schedule::Fused {
                        loops,
                        producers: tiles.len() - 1,
                        epilogue: true,
                    }
                })
            }
            _ => Some(Schedule::Generic { outer: None }),
        };
        self.e.append(op)
    }

    /// Whether an op before has set the kernel's schedule (a root, or a
    /// written kernel): a run lowered now is its epilogue.
    pub fn has_root(&self) -> bool {
        self.schedule.is_some()
    }

    /// Whether `v` leaves the kernel (is written to an output memref).
    pub fn is_output(&self, v: Value) -> bool {
        self.dests.contains_key(&v)
    }

    /// The value whose destination `root` is computed in, if any.
    pub fn computed_in(&self, root: Value) -> Option<Value> {
        self.init_alias.get(&root).copied()
    }

    /// The error for op `op`, which has no lowering (yet).
    pub fn not_lowered(&self, op: OpId) -> LowerError {
        self.unsupported(op, "no lowering for this operator yet")
    }

    /// The error for op `op` (or a variant of it) that has no lowering.
    pub fn unsupported(&self, op: OpId, message: &str) -> LowerError {
        LowerError::Unsupported {
            op: self.model.ir.describe_op(op),
            message: message.to_string(),
        }
    }
}

/// The lowering of the ops, which the kernel builder is handed: the op
/// families build on [`KernelBuilder`], so it cannot call them itself
/// (`ops::Families` is the one implementation).
pub trait OpLowering {
    /// Refuses the ops of a kernel with symbolic sizes that are not
    /// lowered with them.
    fn check_dynamic(&self, model: &Model, ops: &[OpId]) -> Result<()>;

    /// Lowers the kernel's ops, in order.
    fn lower(&self, kb: &mut KernelBuilder, ops: &[OpId]) -> Result<()>;

    /// The values a kernel sees one image at a time when it runs image by
    /// image (`ops::image`), else `None`.
    fn image_batch(&self, model: &Model, spec: &KernelSpec) -> Option<HashSet<Value>>;
}

/// Builds the kernel function for `spec` at the end of `module`'s body,
/// its ops lowered by `lowering`, and returns how to schedule it, and
/// whether it has symbolic sizes.
///
/// Signature: `(inputs…, outputs…, [symbols…,] begin: index, end: index)`,
/// every tensor a memref with the identity layout (`memref<0xT>` when it
/// has no elements or a symbolic size, see [`boundary_memref_type`]),
/// marked `llvm.noalias`. A kernel with symbolic sizes also takes the
/// values of all the model's symbols (`index`), and is left unscheduled
/// (one chunk): the schedules' tile and vector sizes assume static shapes
/// — except a kernel run image by image and a product whose symbolic
/// sizes are rows (`Schedule::with_symbolic_rows`).
pub fn build<'c>(
    cx: &'c Context,
    module: &Module<'c>,
    (model, symbols): (&Model, &Symbols),
    spec: &KernelSpec,
    target: &Target,
    lowering: &dyn OpLowering,
) -> Result<(Schedule, bool)> {
    let loc = Location::new(cx, &spec.name, 0, 0);
    // (a subgraph's op reads values that are no operand of it: the
    // kernel's inputs count too)
    let dynamic = symbols::is_dynamic(model, &spec.ops)
        || spec
            .inputs
            .iter()
            .chain(&spec.outputs)
            .any(|&v| symbols::has_symbolic_size(model, v));
    let image = lowering.image_batch(model, spec);
    if dynamic && image.is_none() {
        lowering.check_dynamic(model, &spec.ops)?;
    }
    let mut arg_types = vec![];
    for &v in spec.inputs.iter().chain(&spec.outputs) {
        let (dims, elem) = kb_shape(model, v)?;
        arg_types.push(boundary_memref_type(cx, &dims, elem)?.into());
    }
    let index = Type::index(cx);
    if dynamic {
        arg_types.extend(vec![index; symbols.len()]);
    }
    arg_types.extend([index, index]);
    let block = Block::new(&arg_types.iter().map(|t| (*t, loc)).collect::<Vec<_>>());
    let schedule = build_body(
        cx,
        loc,
        &block,
        (model, symbols),
        dynamic,
        image,
        (spec, target),
        lowering,
    )?;
    let region = Region::new();
    region.append_block(block);
    let fn_type = FunctionType::new(cx, &arg_types, &[]);
    let n_memrefs = spec.inputs.len() + spec.outputs.len();
    let noalias: Vec<Attribute> = (0..arg_types.len())
        .map(|i| {
            let attrs = if i < n_memrefs {
                vec![(Identifier::new(cx, "llvm.noalias"), unit(cx))]
            } else {
                vec![]
            };
            DictionaryAttribute::new(cx, &attrs).into()
        })
        .collect();
    module.body().append_operation(func::func(
        cx,
        StringAttribute::new(cx, &spec.name),
        TypeAttribute::new(fn_type.into()),
        region,
        &[
            (
                Identifier::new(cx, "arg_attrs"),
                ArrayAttribute::new(cx, &noalias).into(),
            ),
            (Identifier::new(cx, "omlc.kernel"), unit(cx)),
        ],
        loc,
    ));
    declare_intrinsics(cx, module);
    Ok((schedule, dynamic))
}

/// Builds the body of kernel `spec` into `block` (whose arguments the
/// signature of [`build`] declares) and returns how to schedule it: its
/// ops once over the whole tensors or, for a kernel run image by image
/// (`image`, `OpLowering::image_batch`), inside a loop over the images, on static
/// views of one image.
#[allow(clippy::too_many_arguments)]
fn build_body<'c>(
    cx: &'c Context,
    loc: Location<'c>,
    block: &Block<'c>,
    (model, symbols): (&Model, &Symbols),
    dynamic: bool,
    image: Option<HashSet<Value>>,
    (spec, target): (&KernelSpec, &Target),
    lowering: &dyn OpLowering,
) -> Result<Schedule> {
    let e = Emitter::new(cx, loc, block);
    let n_memrefs = spec.inputs.len() + spec.outputs.len();
    let symbol_values: Vec<MValue> = if dynamic {
        (0..symbols.len())
            .map(|k| block.argument(n_memrefs + k).expect("declared").into())
            .collect()
    } else {
        vec![]
    };
    let args: Vec<MValue> = (0..n_memrefs)
        .map(|i| block.argument(i).expect("declared").into())
        .collect();
    let by_image = image.is_some();
    let kernel = Lowering {
        model,
        symbols,
        spec,
        target: *target,
        args: &args,
    };
    let lowered = match image {
        Some(images) => {
            let first = *spec.outputs.first().expect("an image kernel has outputs");
            let count = symbols::sizes(&e, model, symbols, &symbol_values, first)?[0].value(&e);
            let mut lowered = None;
            e.for_each(e.index(0), count, |be, n| {
                lowered = Some(kernel.lower(be, symbol_values, Some((images, n)), lowering));
            });
            lowered.expect("the loop body is built")?
        }
        None => kernel.lower(e, symbol_values, None, lowering)?,
    };
    e.append(func::r#return(&[], loc));
    let (schedule, structured_ops) = lowered;
    Ok(match schedule {
        Some(s @ Schedule::Written { .. }) => s,
        Some(s) if dynamic && !by_image => s
            .with_symbolic_rows()
            .unwrap_or(Schedule::Generic { outer: None }),
        _ if dynamic && !by_image => Schedule::Generic { outer: None },
        // Several independent structured ops: each is bufferized as it is.
        Some(Schedule::Elementwise { .. }) if structured_ops > 1 => {
            Schedule::Generic { outer: None }
        }
        Some(s) => s,
        None => Schedule::Generic { outer: None },
    })
}

/// The ops of one kernel, lowered where an emitter says: the function's
/// block, or the body of its loop over images.
struct Lowering<'k, 'c> {
    model: &'k Model,
    symbols: &'k Symbols,
    spec: &'k KernelSpec,
    target: Target,
    /// The function's memref arguments (inputs, then outputs).
    args: &'k [MValue<'c, 'k>],
}

impl<'k, 'c> Lowering<'k, 'c> {
    /// Lowers the ops with `e` between the kernel's inputs (as tensors) and
    /// its outputs (committed into their memrefs); with `image` (the batch
    /// dim and the image's index), on the views of that image. Returns the
    /// schedule the ops asked for and how many structured ops they built.
    fn lower<'r>(
        &self,
        e: Emitter<'c, 'r>,
        symbol_values: Vec<MValue<'c, 'r>>,
        image: Option<(HashSet<Value>, MValue<'c, 'r>)>,
        lowering: &dyn OpLowering,
    ) -> Result<(Option<Schedule>, usize)>
    where
        'k: 'r,
    {
        let (batched, index) = image.unzip();
        let mut kb = KernelBuilder {
            e,
            model: self.model,
            target: self.target,
            tensors: HashMap::new(),
            dests: HashMap::new(),
            init_alias: HashMap::new(),
            schedule: None,
            structured_ops: 0,
            producers: 0,
            symbols: self.symbols,
            symbol_values,
            image: batched,
        };
        // Argument `i` as its value's own memref (the image's view of it,
        // when it is seen one image at a time).
        let arg = |kb: &KernelBuilder<'c, 'r>, i: usize, v: Value| -> Result<MValue<'c, 'r>> {
            let (dims, elem) = kb.shape(v)?;
            let buffer = self.args[i];
            match index {
                Some(n) if kb.in_image(v) => {
                    let per_image: i64 = dims.iter().product();
                    let offset = kb.e.muli(n, kb.e.index(per_image));
                    Ok(kb
                        .e
                        .image_view(buffer, &dims, elem_type(kb.e.cx, elem)?, offset))
                }
                _ => {
                    Ok(kb
                        .e
                        .reinterpret(buffer, memref_type(kb.e.cx, &dims, elem)?, &kb.sizes(v)?))
                }
            }
        };
        let spec = self.spec;
        for (i, &v) in spec.inputs.iter().enumerate() {
            let memref = arg(&kb, i, v)?;
            let ty = kb.tensor_type(v)?;
            let t = kb.e.to_tensor(memref, ty, false);
            kb.define(v, t);
        }
        for (i, &v) in spec.outputs.iter().enumerate() {
            let memref = arg(&kb, spec.inputs.len() + i, v)?;
            let ty = kb.tensor_type(v)?;
            let t = kb.e.to_tensor(memref, ty, true);
            kb.dests.insert(v, t);
        }
        lowering.lower(&mut kb, &spec.ops)?;
        for (i, &v) in spec.outputs.iter().enumerate() {
            let memref = arg(&kb, spec.inputs.len() + i, v)?;
            kb.e.materialize_in_destination(kb.tensor(v), memref);
        }
        Ok((kb.schedule, kb.structured_ops))
    }
}
