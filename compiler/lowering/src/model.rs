//! Builds the MLIR module of a whole model from its execution plan: one
//! function per kernel, and `omlc_model`, which runs them in order.
//!
//! `omlc_model(rt, workspace, symbols…, inputs…, outputs…, weights…)` takes
//! every buffer as a memref (bare pointers once lowered): the runtime
//! context, the workspace arena, the values of the model's `dim_param`
//! symbols (`index`, none for a static model, see [`crate::symbols`]), the
//! graph inputs and outputs, and the weights in the plan's order. It carves
//! each intermediate of static size out of the arena (`memref.view` at the
//! planned offset), allocates each one of symbolic size (`memref.alloc`,
//! which the code generator routes to the runtime's allocator) for its
//! lifetime, reinterprets views of contiguous tensors
//! (`memref.reinterpret_cast`, with run-time sizes where they are
//! symbolic), and calls the kernels.
//! A kernel of one chunk is called directly over `[0, 1)`; a kernel of
//! several is called through `<kernel>_parallel(rt, buffers…)`, which only
//! the code generator defines (it hands the chunk range to the runtime's
//! parallel-for, `docs/abi.md`).
//! Kernels that come out identical (same ops on the same shapes, same
//! schedule — ResNet-50 repeats its bottleneck blocks) share one function:
//! the later ones call the first one's, so that every later stage
//! (schedules, lowering, LLVM O3, code generation) compiles it once.
//! Sub-byte tensors (int4, uint4, int2, uint2, float4) cross the ABI
//! packed but live one element per byte inside (`ops/narrow.rs`):
//! `omlc_model` unpacks such inputs and weights into buffers of its own
//! before the first kernel and packs such outputs after the last.
//! A model whose kernels broadcast symbolic sizes at run time also gets
//! [`CHECK_FN`], which the entry point calls first (`ops::entry_checks`).

use std::collections::{HashMap, HashSet};

use melior::dialect::{func, llvm};
use melior::ir::attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::{FunctionType, IntegerType, MemRefType};
use melior::ir::{
    Block, BlockLike, Identifier, Location, Module, Operation, Region, RegionLike, Type,
    Value as MValue,
};
use melior::Context;
use onnx_mlc_dialect::{ElemType, Model, Value};
use onnx_mlc_plan::{Plan, Storage};

use crate::builder::{declare_intrinsics, Emitter, Size, DYNAMIC};
use crate::check::emit_check;
use crate::error::{LowerError, Result};
use crate::kernel::{self, KernelSpec};
use crate::ops::{self, narrow};
use crate::schedule::{Schedule, Target};
use crate::symbols::{self, Symbols};
use crate::types::{boundary_memref_type, describe_value, lowered_dims, memref_type, value_tensor};

/// The name of the function that runs the whole model.
pub const MODEL_FN: &str = "omlc_model";

/// The name of the function that checks the run-time broadcasts of a model
/// with symbolic sizes and the axes of reductions read from graph inputs
/// (`omlc_check(symbols…, inputs…) -> i32`: 0, or `OMLC_ERR_SHAPE`); the
/// entry point calls it before [`MODEL_FN`] when the module defines it
/// (only when some broadcast or some reduction's axes are decided at run
/// time).
pub const CHECK_FN: &str = "omlc_check";

/// `OMLC_ERR_SHAPE` (`docs/abi.md`): a run-time shape check failed.
const ERR_SHAPE: i64 = 3;

/// One kernel of the built module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// The kernel function's symbol.
    pub name: String,
    /// How many memref arguments it takes (before `begin`, `end`).
    pub memrefs: usize,
    /// How many chunks its schedule splits it into.
    pub chunks: i64,
    /// How it is scheduled.
    pub schedule: Schedule,
    /// How many symbol values it takes after its memrefs: all the model's
    /// when it has symbolic sizes, else none.
    pub symbols: usize,
}

impl KernelInfo {
    /// The symbol of the parallel wrapper the code generator defines for a
    /// kernel of several chunks.
    pub fn parallel_name(&self) -> String {
        format!("{}_parallel", self.name)
    }
}

/// A model built as an MLIR module, and what the code generator needs to
/// know about it.
pub struct BuiltModel<'c> {
    pub module: Module<'c>,
    /// One per kernel of the plan, in order. Identical kernels share one
    /// function, so a name can appear several times ([`distinct`]).
    pub kernels: Vec<KernelInfo>,
    /// Bytes of the workspace arena `omlc_model` expects (at least 64).
    pub workspace_size: u64,
}

/// Builds the module of `model` (which must have passed the dialect
/// pipeline) following `plan`, with schedules chosen for `target`.
pub fn build_module<'c>(
    cx: &'c Context,
    model: &Model,
    plan: &Plan,
    target: &Target,
) -> Result<BuiltModel<'c>> {
    let module = Module::new(Location::unknown(cx));
    let symbols = Symbols::of_model(model)?;
    let mut kernels = vec![];
    // A kernel's text without its name (and its schedule) → its function.
    let mut built: HashMap<(String, String), String> = HashMap::new();
    for (i, k) in plan.kernels.iter().enumerate() {
        let spec = KernelSpec {
            name: format!("k{i}"),
            ops: k.ops.clone(),
            inputs: k.inputs.clone(),
            outputs: k.outputs.clone(),
        };
        let scratch = Module::new(Location::unknown(cx));
        let (schedule, dynamic) = build_kernel(cx, &scratch, (model, &symbols), &spec, target)?;
        let func = scratch
            .body()
            .first_operation()
            .expect("build_kernel adds the kernel function");
        let key = (
            func.to_string()
                .replacen(&format!("@{}(", spec.name), "@(", 1),
            format!("{schedule:?}"),
        );
        let name = match built.get(&key) {
            Some(name) => name.clone(),
            None => {
                module.body().append_operation(Operation::clone(&func));
                built.insert(key, spec.name.clone());
                spec.name
            }
        };
        let chunks = schedule.script(target).1;
        kernels.push(KernelInfo {
            name,
            memrefs: k.inputs.len() + k.outputs.len(),
            chunks,
            schedule,
            symbols: if dynamic { symbols.len() } else { 0 },
        });
    }
    let kernel_ops: Vec<Vec<_>> = plan.kernels.iter().map(|k| k.ops.clone()).collect();
    let checks = ops::entry_checks(model, &kernel_ops)?;
    if !checks.is_empty() {
        build_check(cx, &module, model, &symbols, &checks)?;
    }
    declare_intrinsics(cx, &module);
    let workspace_size = plan.workspace_size.max(64);
    build_main(cx, &module, model, plan, &symbols, &kernels, workspace_size)?;
    // The passes assume valid IR (an op missing operands crashes them):
    // a kernel built wrong is refused here, as a bug in this stage.
    if !module.as_operation().verify() {
        return Err(LowerError::Mlir {
            stage: "linalg".into(),
            message: "the built module does not verify".into(),
        });
    }
    Ok(BuiltModel {
        module,
        kernels,
        workspace_size,
    })
}

/// Builds the kernel function for `spec` at the end of `module`'s body,
/// its ops lowered by their families ([`kernel::build`]), and returns how
/// to schedule it, and whether it has symbolic sizes.
pub fn build_kernel<'c>(
    cx: &'c Context,
    module: &Module<'c>,
    (model, symbols): (&Model, &Symbols),
    spec: &KernelSpec,
    target: &Target,
) -> Result<(Schedule, bool)> {
    kernel::build(cx, module, (model, symbols), spec, target, &ops::Families)
}

/// Adds [`CHECK_FN`]: 0 when every run-time shape check of `checks` holds
/// for the symbols and the graph inputs it is given (`omlc_check(symbols…,
/// inputs…)`, the inputs as `omlc_model` takes them), else
/// `OMLC_ERR_SHAPE`.
fn build_check(
    cx: &Context,
    module: &Module,
    model: &Model,
    symbols: &Symbols,
    checks: &[symbols::Check],
) -> Result<()> {
    let loc = Location::new(cx, CHECK_FN, 0, 0);
    let mut arg_types = vec![Type::index(cx); symbols.len()];
    for a in model
        .ir
        .region(model.graph)
        .args
        .iter()
        .filter(|a| a.default.is_none())
    {
        arg_types.push(abi_type(cx, model, a.value)?.into());
    }
    let i32t: Type = IntegerType::new(cx, 32).into();
    let block = Block::new(&arg_types.iter().map(|t| (*t, loc)).collect::<Vec<_>>());
    {
        let e = Emitter::new(cx, loc, &block);
        let values: Vec<MValue> = (0..symbols.len())
            .map(|k| block.argument(k).expect("declared").into())
            .collect();
        let inputs: Vec<MValue> = (symbols.len()..arg_types.len())
            .map(|k| block.argument(k).expect("declared").into())
            .collect();
        let ok = emit_check(&e, symbols, &values, &inputs, checks)?;
        let code = e.select(ok, e.i(i32t, 0), e.i(i32t, ERR_SHAPE));
        e.append(func::r#return(&[code], loc));
    }
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        cx,
        StringAttribute::new(cx, CHECK_FN),
        TypeAttribute::new(FunctionType::new(cx, &arg_types, &[i32t]).into()),
        region,
        &[],
        loc,
    ));
    Ok(())
}

/// The kernels of `kernels` that have a function of their own: each name
/// once, at its first appearance.
pub fn distinct(kernels: &[KernelInfo]) -> impl Iterator<Item = &KernelInfo> {
    let mut seen = HashSet::new();
    kernels.iter().filter(move |k| seen.insert(k.name.as_str()))
}

/// The memref type of a value.
fn memref_of_value<'c>(cx: &'c Context, model: &Model, v: Value) -> Result<MemRefType<'c>> {
    let t = value_tensor(model, v)?;
    memref_type(cx, &lowered_dims(t, &describe_value(model, v))?, t.elem)
}

/// The element type of `v` when it is a sub-byte tensor (packed at the
/// ABI).
fn sub_byte(model: &Model, v: Value) -> Result<Option<ElemType>> {
    let t = value_tensor(model, v)?;
    Ok((narrow::is_sub_byte_int(t.elem) || t.elem == ElemType::F4E2M1).then_some(t.elem))
}

/// The number of elements of a tensor of `sizes`: static, or computed
/// from the run-time sizes.
fn numel<'c, 'a>(e: &Emitter<'c, 'a>, sizes: &[Size<'c, 'a>]) -> Size<'c, 'a> {
    if let Some(n) = sizes
        .iter()
        .map(|s| match s {
            Size::Static(n) => Some(*n),
            Size::Dynamic(_) => None,
        })
        .product::<Option<i64>>()
    {
        return Size::Static(n);
    }
    Size::Dynamic(
        sizes
            .iter()
            .fold(e.index(1), |acc, s| e.muli(acc, s.value(e))),
    )
}

/// The memref type of `v` in `omlc_model`'s signature: its boundary type,
/// or its packed bytes for a sub-byte tensor (`memref<0xi8>` when its size
/// is symbolic, as [`boundary_memref_type`] does).
fn abi_type<'c>(cx: &'c Context, model: &Model, v: Value) -> Result<MemRefType<'c>> {
    Ok(match sub_byte(model, v)? {
        Some(elem) => {
            let dims = lowered_dims(value_tensor(model, v)?, &describe_value(model, v))?;
            if dims.contains(&DYNAMIC) {
                packed_type(cx, 0)
            } else {
                packed_type(cx, narrow::packed_bytes(elem, dims.iter().product()))
            }
        }
        None => boundary_type(cx, model, v)?,
    })
}

/// `memref<bytes x i8>` ([`DYNAMIC`] bytes: `?`).
fn packed_type(cx: &Context, bytes: i64) -> MemRefType<'_> {
    MemRefType::new(IntegerType::new(cx, 8).into(), &[bytes], None, None)
}

/// A buffer holding the `n` elements of sub-byte `elem` one per byte,
/// padded to whole packed bytes.
fn unpacked_buffer<'c, 'a>(e: &Emitter<'c, 'a>, elem: ElemType, n: Size<'c, 'a>) -> MValue<'c, 'a> {
    let per = 8 / i64::from(elem.bit_width());
    let len = match narrow::packed_size(e, elem, n) {
        Size::Static(bytes) => Size::Static(bytes * per),
        Size::Dynamic(bytes) => Size::Dynamic(e.muli(bytes, e.index(per))),
    };
    e.alloc(packed_type(e.cx, len.type_dim()), &[len])
}

/// The packed buffer `packed` (an ABI argument) of `n` elements of
/// sub-byte `elem` with its run-time byte count when `n` is symbolic.
fn packed_view<'c, 'a>(
    e: &Emitter<'c, 'a>,
    elem: ElemType,
    n: Size<'c, 'a>,
    packed: MValue<'c, 'a>,
) -> Result<MValue<'c, 'a>> {
    let bytes = narrow::packed_size(e, elem, n);
    Ok(e.reinterpret(packed, packed_type(e.cx, bytes.type_dim()), &[bytes]))
}

/// The buffer of input or weight `v` (of run-time `sizes`) from its ABI
/// buffer `packed`: that buffer, or for a sub-byte tensor a buffer
/// unpacked from it (added to `unpacked`, freed at the end).
fn unpack_arg<'c, 'a>(
    e: &Emitter<'c, 'a>,
    model: &Model,
    v: Value,
    sizes: &[Size<'c, 'a>],
    packed: MValue<'c, 'a>,
    unpacked: &mut Vec<MValue<'c, 'a>>,
) -> Result<MValue<'c, 'a>> {
    Ok(match sub_byte(model, v)? {
        Some(elem) => {
            let n = numel(e, sizes);
            let b = unpacked_buffer(e, elem, n);
            narrow::unpack(e, elem, n, packed_view(e, elem, n, packed)?, b);
            unpacked.push(b);
            b
        }
        None => packed,
    })
}

/// The memref type a value has in a function signature.
fn boundary_type<'c>(cx: &'c Context, model: &Model, v: Value) -> Result<MemRefType<'c>> {
    let t = value_tensor(model, v)?;
    boundary_memref_type(cx, &lowered_dims(t, &describe_value(model, v))?, t.elem)
}

fn build_main(
    cx: &Context,
    module: &Module,
    model: &Model,
    plan: &Plan,
    symbols: &Symbols,
    kernels: &[KernelInfo],
    ws: u64,
) -> Result<()> {
    let loc = Location::new(cx, MODEL_FN, 0, 0);
    let g = model.ir.region(model.graph);
    let inputs: Vec<Value> = g
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .map(|a| a.value)
        .collect();
    let outputs: Vec<Value> = g.outputs.iter().map(|o| o.value).collect();
    let ptr = llvm::r#type::pointer(cx, 0);
    let i8 = IntegerType::new(cx, 8).into();
    let mut arg_types: Vec<Type> = vec![ptr, MemRefType::new(i8, &[ws as i64], None, None).into()];
    arg_types.extend(vec![Type::index(cx); symbols.len()]);
    for &v in &inputs {
        arg_types.push(abi_type(cx, model, v)?.into());
    }
    // An output the model allocates takes its `data` and `shape` slots.
    let i64t: Type = IntegerType::new(cx, 64).into();
    let mut computed = vec![];
    for &v in &outputs {
        if symbols.is_computed(model, v)? {
            if sub_byte(model, v)?.is_some() {
                return Err(LowerError::UnsupportedType {
                    ty: model.ir.ty(v).to_string(),
                    what: format!(
                        "{} (a packed sub-byte output of data-dependent size)",
                        describe_value(model, v)
                    ),
                });
            }
            let rank = value_tensor(model, v)?.dims().map_or(0, |d| d.len()) as i64;
            arg_types.push(MemRefType::new(i64t, &[1], None, None).into());
            arg_types.push(MemRefType::new(i64t, &[rank], None, None).into());
            computed.push(true);
        } else {
            arg_types.push(abi_type(cx, model, v)?.into());
            computed.push(false);
        }
    }
    for &v in &plan.weights {
        arg_types.push(abi_type(cx, model, v)?.into());
    }
    let block = Block::new(&arg_types.iter().map(|t| (*t, loc)).collect::<Vec<_>>());
    {
        let e = Emitter::new(cx, loc, &block);
        let arg = |i: usize| -> MValue { block.argument(i).expect("declared").into() };
        let rt = arg(0);
        let workspace = arg(1);
        let symbol_values: Vec<MValue> = (0..symbols.len()).map(|k| arg(2 + k)).collect();
        let sizes = |v: Value| symbols::sizes(&e, model, symbols, &symbol_values, v);
        let in_base = 2 + symbols.len();
        // The buffers each storage class names.
        let mut buffers: HashMap<Value, MValue> = HashMap::new();
        // Buffers of unpacked sub-byte tensors, freed before returning.
        let mut unpacked = vec![];
        let mut to_pack = vec![];
        for (i, &v) in inputs.iter().enumerate() {
            let b = e.reinterpret(
                unpack_arg(&e, model, v, &sizes(v)?, arg(in_base + i), &mut unpacked)?,
                memref_of_value(cx, model, v)?,
                &sizes(v)?,
            );
            buffers.insert(v, b);
        }
        // Each output's buffer: the caller's, or one allocated here (its
        // pointer and shape written to the caller's slots).
        let mut next = in_base + inputs.len();
        let mut out_buffers = vec![];
        for (&v, &computed) in outputs.iter().zip(&computed) {
            if computed {
                let (data_slot, shape_slot) = (arg(next), arg(next + 1));
                next += 2;
                let b = e.alloc(memref_of_value(cx, model, v)?, &sizes(v)?);
                let p = e.aligned_pointer(b);
                let zero = e.index(0);
                let p = e.index_cast(p, i64t);
                e.store(p, data_slot, &[zero]);
                for (d, size) in sizes(v)?.iter().enumerate() {
                    let n = e.index_cast(size.value(&e), i64t);
                    let at = e.index(d as i64);
                    e.store(n, shape_slot, &[at]);
                }
                out_buffers.push(b);
            } else {
                match sub_byte(model, v)? {
                    Some(elem) => {
                        let n = numel(&e, &sizes(v)?);
                        let b = unpacked_buffer(&e, elem, n);
                        narrow::zero_tail(&e, elem, n, b);
                        to_pack.push((elem, n, b, packed_view(&e, elem, n, arg(next))?));
                        out_buffers.push(b);
                    }
                    None => out_buffers.push(arg(next)),
                }
                next += 1;
            }
        }
        let weight_base = next;
        for (k, &v) in plan.weights.iter().enumerate() {
            let b = e.reinterpret(
                unpack_arg(
                    &e,
                    model,
                    v,
                    &sizes(v)?,
                    arg(weight_base + k),
                    &mut unpacked,
                )?,
                memref_of_value(cx, model, v)?,
                &sizes(v)?,
            );
            buffers.insert(v, b);
        }
        let output = |i: usize| out_buffers[i];
        for (k, info) in kernels.iter().enumerate() {
            let kernel = &plan.kernels[k];
            let mut operands = vec![];
            for &v in kernel.inputs.iter().chain(&kernel.outputs) {
                let ty = boundary_type(cx, model, v)?;
                let dims = lowered_dims(value_tensor(model, v)?, &describe_value(model, v))?;
                // See `boundary_memref_type`: empty or symbolic → `memref<0xT>`.
                let shape = if dims.contains(&0) || dims.contains(&DYNAMIC) {
                    vec![Size::Static(0)]
                } else {
                    sizes(v)?
                };
                operands.push(e.reinterpret(
                    buffer_of(&e, model, plan, &sizes, v, &mut buffers, workspace, output)?,
                    ty,
                    &shape,
                ));
            }
            operands.extend(&symbol_values[..info.symbols]);
            if info.chunks == 1 {
                operands.extend([e.index(0), e.index(1)]);
                e.append(func::call(
                    cx,
                    FlatSymbolRefAttribute::new(cx, &info.name),
                    &operands,
                    &[],
                    loc,
                ));
            } else {
                let mut all = vec![rt];
                all.extend(operands);
                e.append(func::call(
                    cx,
                    FlatSymbolRefAttribute::new(cx, &info.parallel_name()),
                    &all,
                    &[],
                    loc,
                ));
            }
            // Buffers of symbolic size die after their last reader (freed
            // in value order, so that the module is the same every run).
            let mut dying: Vec<Value> = plan
                .lifetimes
                .iter()
                .filter(|(v, live)| {
                    live.last == k && matches!(plan.storage.get(v), Some(Storage::Dynamic { .. }))
                })
                .map(|(&v, _)| v)
                .collect();
            dying.sort();
            for v in dying {
                if let Some(&b) = buffers.get(&v) {
                    e.dealloc(b);
                }
            }
        }
        for copy in &plan.output_copies {
            let from = buffer_of(
                &e,
                model,
                plan,
                &sizes,
                copy.from,
                &mut buffers,
                workspace,
                output,
            )?;
            let to = e.reinterpret(
                out_buffers[copy.output],
                memref_of_value(cx, model, copy.from)?,
                &sizes(copy.from)?,
            );
            e.copy(from, to);
        }
        for &(elem, n, from, to) in &to_pack {
            narrow::pack(&e, elem, n, from, to);
            unpacked.push(from);
        }
        for b in unpacked {
            e.dealloc(b);
        }
        e.append(func::r#return(&[], loc));
    }
    let region = Region::new();
    region.append_block(block);
    let body = module.body();
    body.append_operation(func::func(
        cx,
        StringAttribute::new(cx, MODEL_FN),
        TypeAttribute::new(FunctionType::new(cx, &arg_types, &[]).into()),
        region,
        &[],
        loc,
    ));
    declare_parallel_wrappers(cx, module, model, plan, kernels, ptr)
}

/// The memref holding `v`, created on first use.
#[allow(clippy::too_many_arguments)]
fn buffer_of<'c, 'a>(
    e: &Emitter<'c, 'a>,
    model: &Model,
    plan: &Plan,
    sizes: &dyn Fn(Value) -> Result<Vec<Size<'c, 'a>>>,
    v: Value,
    buffers: &mut HashMap<Value, MValue<'c, 'a>>,
    workspace: MValue<'c, 'a>,
    output: impl Fn(usize) -> MValue<'c, 'a> + Copy,
) -> Result<MValue<'c, 'a>> {
    if let Some(b) = buffers.get(&v) {
        return Ok(*b);
    }
    let ty = memref_of_value(e.cx, model, v)?;
    let b = match plan.storage.get(&v) {
        Some(Storage::Workspace { offset, .. }) => {
            // A slot's size is static, but its dims need not be: a tensor of
            // a static 0 dim among symbolic ones holds no bytes whatever
            // they are, and its view takes the symbolic sizes as operands.
            e.view(ty, workspace, e.index(*offset as i64), &sizes(v)?)
        }
        Some(Storage::Dynamic { .. }) => e.alloc(ty, &sizes(v)?),
        Some(Storage::Output(i)) => e.reinterpret(output(*i), ty, &sizes(v)?),
        Some(Storage::Alias { of }) => {
            let target = buffer_of(e, model, plan, sizes, *of, buffers, workspace, output)?;
            e.reinterpret(target, ty, &sizes(v)?)
        }
        other => {
            return Err(LowerError::UnsupportedType {
                ty: model.ir.ty(v).to_string(),
                what: format!("{} stored as {other:?}", describe_value(model, v)),
            })
        }
    };
    buffers.insert(v, b);
    Ok(b)
}

/// Declares `<kernel>_parallel(rt, buffers…)` for each kernel of several
/// chunks; the code generator defines them.
fn declare_parallel_wrappers(
    cx: &Context,
    module: &Module,
    model: &Model,
    plan: &Plan,
    kernels: &[KernelInfo],
    ptr: Type,
) -> Result<()> {
    let loc = Location::unknown(cx);
    let mut declared = HashSet::new();
    for (info, kernel) in kernels
        .iter()
        .zip(&plan.kernels)
        .filter(|(i, _)| i.chunks > 1 && declared.insert(i.name.as_str()))
    {
        let mut types = vec![ptr];
        for &v in kernel.inputs.iter().chain(&kernel.outputs) {
            types.push(boundary_type(cx, model, v)?.into());
        }
        types.extend(vec![Type::index(cx); info.symbols]);
        module.body().append_operation(func::func(
            cx,
            StringAttribute::new(cx, &info.parallel_name()),
            TypeAttribute::new(FunctionType::new(cx, &types, &[]).into()),
            Region::new(),
            &[(
                Identifier::new(cx, "sym_visibility"),
                StringAttribute::new(cx, "private").into(),
            )],
            loc,
        ));
    }
    Ok(())
}
