//! The LLVM IR around the lowered model: what turns `omlc_model` and its
//! kernels into the runtime ABI of `docs/abi.md`.
//!
//! - `<kernel>_parallel(rt, buffers…, symbols…)` for each kernel of
//!   several chunks: packs the buffer pointers (and, for a kernel with
//!   symbolic sizes, the symbols' values) into a context on the stack and
//!   calls `omlc_rt_parallel_for(rt, <kernel>_task, ctx, chunks)`;
//!   `<kernel>_task(ctx, begin, end)` unpacks them and runs the kernel over
//!   chunks `[begin, end)`.
//! - `__omlc_main(inputs, outputs, workspace, weights, rt)`: reads the data
//!   pointers of the `omlc_tensor` descriptors and the weights table, reads
//!   the value of each `dim_param` symbol from the first input shape that
//!   carries it, writes the shapes of the outputs the inputs determine,
//!   returns `omlc_check(symbols…, inputs…)`'s code when the module has
//!   that function and it fails (a run-time broadcast between sizes that do
//!   not agree, a reduction's axes input that does not fit the shapes),
//!   and calls `omlc_model` (which allocates the other outputs and fills
//!   in their `data` and `shape` itself).
//! - `_mlir_memref_to_llvm_alloc`/`_free`, when the lowered model allocates
//!   (buffers of symbolic size): private, on `omlc_rt_alloc`/`omlc_rt_free`.
//! - `__omlc_info`: the model's description (`omlc_model_info`).

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, BasicType};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, GlobalValue, PointerValue};
use inkwell::AddressSpace;
use onnx_mlc_lowering::model::{distinct, KernelInfo, CHECK_FN, MODEL_FN};

use crate::error::{CodegenError, Result};

/// The runtime ABI version the glue writes (`OMLC_ABI_VERSION` of
/// `runtime/c/omlc_rt.h`; the runtimes check it).
pub const ABI_VERSION: u64 = 2;

/// The symbol of the weights blob a library's size variants share with
/// its general code ([`Weights::Shared`], [`define_shared_weights`]).
pub const SHARED_WEIGHTS: &str = "__omlc_shared_weights";

/// One graph input or output as the ABI describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoDesc {
    pub name: String,
    /// ONNX `TensorProto.DataType` code.
    pub dtype: i32,
    /// Dims; -1 where symbolic.
    pub dims: Vec<i64>,
    /// `dim_param` names, `None` where the dim is static.
    pub dim_params: Vec<Option<String>>,
}

/// Where a library's weights are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weights<'a> {
    /// Supplied by the caller at run time (the JIT: the model's own
    /// tensors, no copy); the info names no blob.
    Runtime,
    /// In the library: the blob, and each weight's offset in it.
    Embedded { blob: &'a [u8], offsets: Vec<u64> },
    /// In a side file next to the library.
    File {
        name: String,
        offsets: Vec<u64>,
        size: u64,
    },
    /// In the library's one blob that several compiled models share
    /// ([`SHARED_WEIGHTS`], defined once by [`define_shared_weights`]):
    /// each weight's offset in it, and the blob's size so far.
    Shared { offsets: Vec<u64>, size: u64 },
}

/// What the entry point and the info describe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelDesc<'a> {
    pub inputs: Vec<IoDesc>,
    pub outputs: Vec<IoDesc>,
    pub num_weights: usize,
    pub weights: Weights<'a>,
    pub workspace_size: u64,
}

fn err(e: impl std::fmt::Display) -> CodegenError {
    CodegenError::Llvm(e.to_string())
}

/// Defines every glue function and the info in `module`, which must hold
/// the translated model (`omlc_model`, the kernels, and declarations of
/// the parallel wrappers).
pub fn define_glue<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    kernels: &[KernelInfo],
    desc: &ModelDesc,
) -> Result<()> {
    let b = llcx.create_builder();
    for k in distinct(kernels).filter(|k| k.chunks > 1) {
        define_parallel(llcx, module, &b, k)?;
    }
    define_entry(llcx, module, &b, desc)?;
    define_info(llcx, module, desc);
    define_allocator(llcx, module, &b)
}

/// The `dim_param` symbols `omlc_model` takes, in its order (that of
/// `onnx_mlc_lowering::symbols::Symbols`): each name once, at its first
/// appearance among the inputs' dims, as (name, input, axis).
pub fn symbols(desc: &ModelDesc) -> Vec<(String, usize, usize)> {
    let mut out: Vec<(String, usize, usize)> = vec![];
    for (i, io) in desc.inputs.iter().enumerate() {
        for (d, p) in io.dim_params.iter().enumerate() {
            if let Some(p) = p {
                if !out.iter().any(|(n, ..)| n == p) {
                    out.push((p.clone(), i, d));
                }
            }
        }
    }
    out
}

/// Defines the allocation functions `memref.alloc`/`dealloc` lower to
/// (`finalize-memref-to-llvm{use-generic-functions}`) on the runtime's
/// allocator, when the module declares them: `_mlir_memref_to_llvm_alloc(n)`
/// is `omlc_rt_alloc(NULL, n, 64)` and `_mlir_memref_to_llvm_free(p)` is
/// `omlc_rt_free(NULL, p)` (the allocator does not depend on the context).
fn define_allocator<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
) -> Result<()> {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let i64t = llcx.i64_type();
    let declare = |name: &str, ty| {
        module
            .get_function(name)
            .unwrap_or_else(|| module.add_function(name, ty, Some(Linkage::External)))
    };
    if let Some(f) = module.get_function("_mlir_memref_to_llvm_alloc") {
        let rt_alloc = declare(
            "omlc_rt_alloc",
            ptr.fn_type(&[ptr.into(), i64t.into(), i64t.into()], false),
        );
        f.set_linkage(Linkage::Private);
        b.position_at_end(llcx.append_basic_block(f, "entry"));
        let bytes = f.get_nth_param(0).expect("declared").into();
        let args = [
            ptr.const_null().into(),
            bytes,
            i64t.const_int(64, false).into(),
        ];
        let p = b.build_call(rt_alloc, &args, "p").map_err(err)?;
        let p = p
            .try_as_basic_value()
            .basic()
            .expect("omlc_rt_alloc returns a pointer");
        b.build_return(Some(&p)).map_err(err)?;
    }
    if let Some(f) = module.get_function("_mlir_memref_to_llvm_free") {
        let rt_free = declare(
            "omlc_rt_free",
            llcx.void_type().fn_type(&[ptr.into(), ptr.into()], false),
        );
        f.set_linkage(Linkage::Private);
        b.position_at_end(llcx.append_basic_block(f, "entry"));
        let p = f.get_nth_param(0).expect("declared").into();
        b.build_call(rt_free, &[ptr.const_null().into(), p], "")
            .map_err(err)?;
        b.build_return(None).map_err(err)?;
    }
    Ok(())
}

fn function<'ctx>(
    module: &Module<'ctx>,
    name: &str,
) -> Result<inkwell::values::FunctionValue<'ctx>> {
    module
        .get_function(name)
        .ok_or_else(|| CodegenError::Llvm(format!("the module has no function {name}")))
}

fn define_parallel<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
    k: &KernelInfo,
) -> Result<()> {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let i64t = llcx.i64_type();
    let kernel = function(module, &k.name)?;
    // task(ctx, begin, end): kernel(ctx[0], …, ctx[n-1], begin, end)
    let task_ty = llcx
        .void_type()
        .fn_type(&[ptr.into(), i64t.into(), i64t.into()], false);
    let task = module.add_function(
        &format!("{}_task", k.name),
        task_ty,
        Some(Linkage::Internal),
    );
    b.position_at_end(llcx.append_basic_block(task, "entry"));
    let ctx = task.get_nth_param(0).expect("ctx").into_pointer_value();
    // One pointer-sized slot per buffer, then per symbol value.
    let slots = k.memrefs + k.symbols;
    let mut args: Vec<BasicMetadataValueEnum> = vec![];
    for j in 0..slots {
        let slot = gep(b, llcx, ctx, j)?;
        let ty = if j < k.memrefs {
            ptr.as_basic_type_enum()
        } else {
            i64t.as_basic_type_enum()
        };
        args.push(
            b.build_load(ty, slot, &format!("a{j}"))
                .map_err(err)?
                .into(),
        );
    }
    args.push(task.get_nth_param(1).expect("begin").into());
    args.push(task.get_nth_param(2).expect("end").into());
    b.build_call(kernel, &args, "").map_err(err)?;
    b.build_return(None).map_err(err)?;
    // parallel(rt, a0, …): ctx = [a0, …]; omlc_rt_parallel_for(rt, task, ctx, chunks)
    let wrapper = function(module, &k.parallel_name())?;
    b.position_at_end(llcx.append_basic_block(wrapper, "entry"));
    let ctx = b
        .build_array_alloca(ptr, i64t.const_int(slots as u64, false), "ctx")
        .map_err(err)?;
    for j in 0..slots {
        let slot = gep(b, llcx, ctx, j)?;
        let a = wrapper.get_nth_param(1 + j as u32).expect("declared");
        b.build_store(slot, a).map_err(err)?;
    }
    let pf = parallel_for(llcx, module);
    let rt = wrapper.get_nth_param(0).expect("rt");
    let chunks = i64t.const_int(k.chunks as u64, false);
    let task_ptr = task.as_global_value().as_pointer_value();
    b.build_call(
        pf,
        &[rt.into(), task_ptr.into(), ctx.into(), chunks.into()],
        "",
    )
    .map_err(err)?;
    b.build_return(None).map_err(err)?;
    Ok(())
}

/// `omlc_rt_parallel_for`, declared once.
fn parallel_for<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
) -> inkwell::values::FunctionValue<'ctx> {
    const NAME: &str = "omlc_rt_parallel_for";
    module.get_function(NAME).unwrap_or_else(|| {
        let ptr = llcx.ptr_type(AddressSpace::default());
        let ty = llcx.void_type().fn_type(
            &[ptr.into(), ptr.into(), ptr.into(), llcx.i64_type().into()],
            false,
        );
        module.add_function(NAME, ty, Some(Linkage::External))
    })
}

/// `&base[j]` for an array of pointers.
fn gep<'ctx>(
    b: &Builder<'ctx>,
    llcx: &'ctx Context,
    base: PointerValue<'ctx>,
    j: usize,
) -> Result<PointerValue<'ctx>> {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let index = llcx.i64_type().const_int(j as u64, false);
    // SAFETY: `base` points at an array of at least j+1 pointers (the
    // context or a descriptor table this module itself lays out).
    unsafe { b.build_in_bounds_gep(ptr, base, &[index], &format!("p{j}")) }.map_err(err)
}

/// The size of `omlc_tensor` ({data, shape, rank, dtype}) in pointer slots.
const TENSOR_SLOTS: usize = 3;

fn define_entry<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
    desc: &ModelDesc,
) -> Result<()> {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let i32t = llcx.i32_type();
    let i64t = llcx.i64_type();
    let params: Vec<BasicMetadataTypeEnum> = vec![ptr.into(); 5];
    let entry = module.add_function(
        "__omlc_main",
        i32t.fn_type(&params, false),
        Some(Linkage::External),
    );
    b.position_at_end(llcx.append_basic_block(entry, "entry"));
    let p = |i| {
        entry
            .get_nth_param(i)
            .expect("declared")
            .into_pointer_value()
    };
    let (inputs, outputs, workspace, weights, rt) = (p(0), p(1), p(2), p(3), p(4));
    let mut args: Vec<BasicMetadataValueEnum> = vec![rt.into(), workspace.into()];
    // inputs[i].shape[d], an i64.
    let input_dim = |i: usize, d: usize| -> Result<BasicValueEnum<'ctx>> {
        let shape_slot = gep(b, llcx, inputs, i * TENSOR_SLOTS + 1)?;
        let shape = b
            .build_load(ptr, shape_slot, &format!("in_shape{i}"))
            .map_err(err)?
            .into_pointer_value();
        let index = i64t.const_int(d as u64, false);
        // SAFETY: the runtime validated `rank` shape entries per input.
        let at = unsafe { b.build_in_bounds_gep(i64t, shape, &[index], "dim") }.map_err(err)?;
        b.build_load(i64t, at, &format!("in{i}_dim{d}"))
            .map_err(err)
    };
    let symbols = symbols(desc);
    let mut symbol_values = vec![];
    for (_, i, d) in &symbols {
        let v = input_dim(*i, *d)?;
        symbol_values.push(v);
        args.push(v.into());
    }
    for i in 0..desc.inputs.len() {
        let slot = gep(b, llcx, inputs, i * TENSOR_SLOTS)?;
        args.push(
            b.build_load(ptr, slot, &format!("in{i}"))
                .map_err(err)?
                .into(),
        );
    }
    for (i, out) in desc.outputs.iter().enumerate() {
        let slot = gep(b, llcx, outputs, i * TENSOR_SLOTS)?;
        let shape_slot = gep(b, llcx, outputs, i * TENSOR_SLOTS + 1)?;
        let shape = b
            .build_load(ptr, shape_slot, &format!("shape{i}"))
            .map_err(err)?
            .into_pointer_value();
        // The size of each dim, when the inputs give it (static, or an
        // input's dim_param); `None` when the model computes it.
        let given: Vec<Option<BasicValueEnum>> = out
            .dims
            .iter()
            .zip(&out.dim_params)
            .map(|(&n, param)| match param {
                None => Some(i64t.const_int(n as u64, true).into()),
                Some(p) => symbols
                    .iter()
                    .position(|(name, ..)| name == p)
                    .map(|k| symbol_values[k]),
            })
            .collect();
        if given.iter().any(Option::is_none) {
            // The model allocates the output: it gets the `data` and
            // `shape` slots to fill in.
            args.extend::<[BasicMetadataValueEnum; 2]>([slot.into(), shape.into()]);
            continue;
        }
        args.push(
            b.build_load(ptr, slot, &format!("out{i}"))
                .map_err(err)?
                .into(),
        );
        for (d, size) in given.into_iter().flatten().enumerate() {
            let index = i64t.const_int(d as u64, false);
            // SAFETY: the caller passes `rank` shape entries per output.
            let at = unsafe { b.build_in_bounds_gep(i64t, shape, &[index], "dim") }.map_err(err)?;
            b.build_store(at, size).map_err(err)?;
        }
    }
    for k in 0..desc.num_weights {
        let slot = gep(b, llcx, weights, k)?;
        args.push(
            b.build_load(ptr, slot, &format!("w{k}"))
                .map_err(err)?
                .into(),
        );
    }
    if let Some(check) = module.get_function(CHECK_FN) {
        // The symbols and the inputs, as `omlc_model` gets them.
        let check_args = &args[2..2 + symbol_values.len() + desc.inputs.len()];
        let code = b
            .build_call(check, check_args, "check")
            .map_err(err)?
            .try_as_basic_value()
            .expect_basic("omlc_check returns an i32")
            .into_int_value();
        let ok = b
            .build_int_compare(
                inkwell::IntPredicate::EQ,
                code,
                i32t.const_zero(),
                "check_ok",
            )
            .map_err(err)?;
        let run = llcx.append_basic_block(entry, "run");
        let fail = llcx.append_basic_block(entry, "shape_error");
        b.build_conditional_branch(ok, run, fail).map_err(err)?;
        b.position_at_end(fail);
        b.build_return(Some(&code)).map_err(err)?;
        b.position_at_end(run);
    }
    b.build_call(function(module, MODEL_FN)?, &args, "")
        .map_err(err)?;
    b.build_return(Some(&i32t.const_zero())).map_err(err)?;
    Ok(())
}

/// A private constant global of type `ty` initialized to `value`.
fn constant<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    value: &dyn inkwell::values::BasicValue<'ctx>,
    ty: impl BasicType<'ctx>,
) -> GlobalValue<'ctx> {
    let g = module.add_global(ty, None, name);
    g.set_initializer(value);
    g.set_constant(true);
    g.set_linkage(Linkage::Private);
    g
}

fn cstr<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    name: &str,
    s: &str,
) -> PointerValue<'ctx> {
    let v = llcx.const_string(s.as_bytes(), true);
    constant(module, name, &v, v.get_type()).as_pointer_value()
}

fn i64_array<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    name: &str,
    values: &[i64],
) -> PointerValue<'ctx> {
    let i64t = llcx.i64_type();
    let items: Vec<_> = values
        .iter()
        .map(|&v| i64t.const_int(v as u64, true))
        .collect();
    let arr = i64t.const_array(&items);
    constant(module, name, &arr, i64t.array_type(values.len() as u32)).as_pointer_value()
}

fn io_table<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    what: &str,
    ios: &[IoDesc],
) -> PointerValue<'ctx> {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let i32t = llcx.i32_type();
    let info_ty = llcx.struct_type(
        &[ptr.into(), i32t.into(), i32t.into(), ptr.into(), ptr.into()],
        false,
    );
    let mut rows = vec![];
    for (i, io) in ios.iter().enumerate() {
        let name = cstr(llcx, module, &format!("__omlc_{what}{i}_name"), &io.name);
        let dims = i64_array(llcx, module, &format!("__omlc_{what}{i}_dims"), &io.dims);
        let params: Vec<_> = io
            .dim_params
            .iter()
            .enumerate()
            .map(|(d, p)| match p {
                Some(p) => cstr(llcx, module, &format!("__omlc_{what}{i}_param{d}"), p),
                None => ptr.const_null(),
            })
            .collect();
        let params_arr = ptr.const_array(&params);
        let params = constant(
            module,
            &format!("__omlc_{what}{i}_params"),
            &params_arr,
            ptr.array_type(params.len() as u32),
        )
        .as_pointer_value();
        rows.push(info_ty.const_named_struct(&[
            name.into(),
            i32t.const_int(io.dtype as u64, false).into(),
            i32t.const_int(io.dims.len() as u64, false).into(),
            dims.into(),
            params.into(),
        ]));
    }
    let table = info_ty.const_array(&rows);
    constant(
        module,
        &format!("__omlc_{what}s"),
        &table,
        info_ty.array_type(rows.len() as u32),
    )
    .as_pointer_value()
}

fn define_info<'ctx>(llcx: &'ctx Context, module: &Module<'ctx>, desc: &ModelDesc) {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let (i32t, i64t) = (llcx.i32_type(), llcx.i64_type());
    let inputs = io_table(llcx, module, "input", &desc.inputs);
    let outputs = io_table(llcx, module, "output", &desc.outputs);
    let (offsets, size, blob, file): (&[u64], u64, PointerValue, PointerValue) = match &desc.weights
    {
        Weights::Runtime => (&[], 0, ptr.const_null(), ptr.const_null()),
        Weights::Embedded { blob, offsets } => {
            let data = llcx.const_string(blob, false);
            let g = constant(module, "__omlc_weights", &data, data.get_type());
            g.set_alignment(64);
            (
                offsets,
                blob.len() as u64,
                g.as_pointer_value(),
                ptr.const_null(),
            )
        }
        Weights::File {
            name,
            offsets,
            size,
        } => (
            offsets,
            *size,
            ptr.const_null(),
            cstr(llcx, module, "__omlc_weights_file", name),
        ),
        Weights::Shared { offsets, size } => {
            let g = module
                .get_global(SHARED_WEIGHTS)
                .unwrap_or_else(|| module.add_global(llcx.i8_type(), None, SHARED_WEIGHTS));
            (offsets, *size, g.as_pointer_value(), ptr.const_null())
        }
    };
    let offsets: Vec<i64> = offsets.iter().map(|&o| o as i64).collect();
    let offsets = i64_array(llcx, module, "__omlc_weight_offsets", &offsets);
    let info_ty = llcx.struct_type(
        &[
            i32t.into(),
            i32t.into(),
            i32t.into(),
            ptr.into(),
            ptr.into(),
            i64t.into(),
            i32t.into(),
            ptr.into(),
            i64t.into(),
            ptr.into(),
            ptr.into(),
        ],
        false,
    );
    let info = info_ty.const_named_struct(&[
        i32t.const_int(ABI_VERSION, false).into(),
        i32t.const_int(desc.inputs.len() as u64, false).into(),
        i32t.const_int(desc.outputs.len() as u64, false).into(),
        inputs.into(),
        outputs.into(),
        i64t.const_int(desc.workspace_size, false).into(),
        i32t.const_int(desc.num_weights as u64, false).into(),
        offsets.into(),
        i64t.const_int(size, false).into(),
        blob.into(),
        file.into(),
    ]);
    let g = module.add_global(info_ty, None, "__omlc_info");
    g.set_initializer(&BasicValueEnum::StructValue(info));
    g.set_constant(true);
}

/// The symbols of one compiled model in a library: its `omlc_model_info`
/// and its entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentSymbols {
    /// The `omlc_model_info` global (`__omlc_info`, `__omlc_s2___omlc_info`).
    pub info: String,
    /// The entry function (`__omlc_main`, …).
    pub main: String,
}

impl SegmentSymbols {
    /// The symbols of a model whose names are prefixed by `prefix`
    /// ([`crate::emit::prefix_symbols`]); `""` for the only model of a
    /// library.
    pub fn with_prefix(prefix: &str) -> SegmentSymbols {
        SegmentSymbols {
            info: format!("{prefix}__omlc_info"),
            main: format!("{prefix}__omlc_main"),
        }
    }
}

/// What a library holds besides its code, as `__omlc_program` describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibraryTable<'a> {
    /// The compiled models: the only one, or a host program's segments.
    pub segments: Vec<SegmentSymbols>,
    /// The serialized host program that calls the segments; `None` for a
    /// library of one model.
    pub program: Option<&'a [u8]>,
    /// The size variants of a library of one model (`--specialize`).
    pub variants: Vec<SegmentSymbols>,
}

/// Defines `__omlc_program` (`omlc_program_info`), the C runtime's view of
/// what a library holds (`table`; the models' symbols are declared here
/// when defined in another module).
pub fn define_program_table<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    table: &LibraryTable,
) -> Result<()> {
    let ptr = llcx.ptr_type(AddressSpace::default());
    let (i32t, i64t) = (llcx.i32_type(), llcx.i64_type());
    let segment_ty = llcx.struct_type(&[ptr.into(), ptr.into()], false);
    let entries = |name: &str, symbols: &[SegmentSymbols]| -> Result<PointerValue<'ctx>> {
        let rows: Vec<_> = symbols
            .iter()
            .map(|s| {
                let info = module
                    .get_global(&s.info)
                    .unwrap_or_else(|| module.add_global(i32t, None, &s.info));
                let main = module.get_function(&s.main).ok_or_else(|| {
                    CodegenError::Llvm(format!("the library's module has no function {}", s.main))
                })?;
                Ok(segment_ty.const_named_struct(&[
                    info.as_pointer_value().into(),
                    main.as_global_value().as_pointer_value().into(),
                ]))
            })
            .collect::<Result<_>>()?;
        let array = segment_ty.const_array(&rows);
        Ok(constant(
            module,
            name,
            &array,
            segment_ty.array_type(rows.len() as u32),
        )
        .as_pointer_value())
    };
    let segments = entries("__omlc_segments", &table.segments)?;
    let variants = match table.variants.is_empty() {
        true => ptr.const_null(),
        false => entries("__omlc_variants", &table.variants)?,
    };
    let program = table.program;
    let (bytes, size) = match program {
        Some(p) => {
            let data = llcx.const_string(p, false);
            let g = constant(module, "__omlc_program_bytes", &data, data.get_type());
            (g.as_pointer_value(), p.len() as u64)
        }
        None => (ptr.const_null(), 0),
    };
    let program_ty = llcx.struct_type(
        &[
            i32t.into(),
            i32t.into(),
            ptr.into(),
            ptr.into(),
            i64t.into(),
            i32t.into(),
            ptr.into(),
        ],
        false,
    );
    let value = program_ty.const_named_struct(&[
        i32t.const_int(ABI_VERSION, false).into(),
        i32t.const_int(table.segments.len() as u64, false).into(),
        segments.into(),
        bytes.into(),
        i64t.const_int(size, false).into(),
        i32t.const_int(table.variants.len() as u64, false).into(),
        variants.into(),
    ]);
    let g = module.add_global(program_ty, None, "__omlc_program");
    g.set_initializer(&BasicValueEnum::StructValue(value));
    g.set_constant(true);
    Ok(())
}

/// Defines [`SHARED_WEIGHTS`], the weights blob of the compiled models
/// that share one ([`Weights::Shared`]): 64-byte aligned, read-only.
pub fn define_shared_weights<'ctx>(llcx: &'ctx Context, module: &Module<'ctx>, blob: &[u8]) {
    let data = llcx.const_string(blob, false);
    let g = module.add_global(data.get_type(), None, SHARED_WEIGHTS);
    g.set_initializer(&data);
    g.set_constant(true);
    g.set_alignment(64);
}
