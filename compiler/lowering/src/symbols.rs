//! Dynamic shapes: the `dim_param` symbols of a model and the run-time
//! sizes computed from them.
//!
//! A model compiles once for every binding of its symbols. The symbols are
//! the `dim_param` names of the graph inputs, in order of first appearance
//! (input by input, axis by axis); the entry point receives each one's
//! value as an `index` argument (the ABI glue reads it from the input's
//! shape, `docs/codegen.md`, "Dynamic shapes"). Every other size is a
//! polynomial over them (the dialect's [`Dim`]), evaluated with `arith` ops
//! where it is needed: to type a buffer, to allocate one, to create a
//! `tensor.empty`. Types spell such a size `?` ([`crate::builder::DYNAMIC`]).
//!
//! A numpy-style broadcast between two different symbolic sizes (which one
//! is 1 is only known at run time) gives a broadcast atom
//! ([`Dim::broadcast_of`]) evaluated with a select; the elementwise
//! kernels read such an operand at index 0 where its run-time size is 1,
//! and the model's entry checks every such broadcast before anything runs
//! ([`checks`], [`emit_check`]): mismatched sizes fail with
//! `OMLC_ERR_SHAPE`.
//!
//! The same entry check makes a MatMul/Gemm's two contraction sizes equal
//! when they are different polynomials, and checks the values of graph
//! inputs that set sizes (a reduction's axes, a window's size, a
//! Compress's condition) against the shapes the kernels assume: the check
//! function takes the graph inputs besides the symbols.
//!
//! A division an op requires to be exact that is no polynomial (a
//! Reshape's `-1` over `"H"/3`) is a quotient atom ([`Dim::quotient`]),
//! evaluated with a division and checked to be exact by the same entry
//! check, as are the conditions the data-movement kernels rely on
//! (`ops::layout::runtime_checks`).
//!
//! What the generated code cannot decide at run time is refused at compile
//! time ([`check_kernel`]): a size that is no polynomial over the symbols,
//! and, for now, the op families whose lowerings do not take run-time
//! sizes yet.

use melior::ir::r#type::{MemRefType, ShapedTypeLike};
use melior::ir::{Type, Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{Dim, DimOp, ElemType, Model, OpKind, Value};

use crate::builder::{CmpiPredicate, Emitter, Size};
use crate::error::{LowerError, Result};
use crate::kernel::{describe_value, value_tensor};
use crate::ops::elementwise::{data_inputs, is_elementwise};
use crate::ops::layout;
use crate::ops::norm::channel_operands;
use crate::ops::reduce::{axes_mask, runtime_axes};
use crate::ops::signal::runtime_size;

/// One symbol: a `dim_param` name and the input dim it is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The `dim_param` name.
    pub name: String,
    /// Which graph input (among those without a default) first carries it.
    pub input: usize,
    /// Which axis of that input.
    pub axis: usize,
}

/// The symbols of a model, in the order the entry point receives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols(pub Vec<Symbol>);

impl Symbols {
    /// The symbols of `model`'s graph inputs. An input dim that is neither
    /// static nor a plain `dim_param` (an unknown size) is unsupported.
    pub fn of_model(model: &Model) -> Result<Symbols> {
        let g = model.ir.region(model.graph);
        let mut out: Vec<Symbol> = vec![];
        let inputs = g.args.iter().filter(|a| a.default.is_none());
        for (input, arg) in inputs.enumerate() {
            let t = value_tensor(model, arg.value)?;
            let unsupported = || LowerError::UnsupportedType {
                ty: model.ir.ty(arg.value).to_string(),
                what: format!(
                    "graph input {} (dims must be static or a dim_param)",
                    describe_value(model, arg.value)
                ),
            };
            for (axis, d) in t.dims().ok_or_else(unsupported)?.iter().enumerate() {
                match d {
                    Dim::Known(_) => {}
                    _ => {
                        let name = d.as_param().ok_or_else(unsupported)?;
                        if !out.iter().any(|s| s.name == name) {
                            out.push(Symbol {
                                name: name.to_string(),
                                input,
                                axis,
                            });
                        }
                    }
                }
            }
        }
        Ok(Symbols(out))
    }

    /// Whether the model has no symbols (every shape is static).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many symbols there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether every atom of `dim` is a symbol or a broadcast of sizes
    /// that are (so that it can be evaluated).
    fn binds(&self, dim: &Dim) -> bool {
        dim.monomials().is_some_and(|terms| {
            terms
                .iter()
                .all(|(_, atoms)| atoms.iter().all(|a| self.binds_atom(a)))
        })
    }

    fn binds_atom(&self, atom: &str) -> bool {
        self.0.iter().any(|s| s.name == atom)
            || Dim::compound_operands(atom).is_some_and(|(a, b)| self.binds(&a) && self.binds(&b))
            || Dim::floor_operands(atom).is_some_and(|(a, _)| self.binds(&a))
    }

    /// Whether graph output `v` has a size that the inputs' shapes do not
    /// give directly (neither static nor an input's `dim_param`, e.g.
    /// `2*N`): the model then allocates it and writes its shape
    /// (`docs/abi.md`); the code generator decides the same from the ABI's
    /// description of the outputs.
    pub fn is_computed(&self, model: &Model, v: Value) -> Result<bool> {
        let t = value_tensor(model, v)?;
        let dims = t.dims().ok_or_else(|| LowerError::UnsupportedType {
            ty: model.ir.ty(v).to_string(),
            what: format!("graph output {} of unknown rank", describe_value(model, v)),
        })?;
        Ok(!dims.iter().all(|d| {
            d.is_known()
                || d.as_param()
                    .is_some_and(|p| self.0.iter().any(|s| s.name == p))
        }))
    }
}

/// The run-time sizes of value `v`, given the symbols' values (`index`
/// values, in [`Symbols`] order). Values of static shape need no symbols.
pub fn sizes<'c, 'a>(
    e: &Emitter<'c, 'a>,
    model: &Model,
    symbols: &Symbols,
    values: &[MValue<'c, 'a>],
    v: Value,
) -> Result<Vec<Size<'c, 'a>>> {
    let t = value_tensor(model, v)?;
    let unsupported = || LowerError::UnsupportedType {
        ty: model.ir.ty(v).to_string(),
        what: format!(
            "{} (a size that is not a polynomial over the inputs' dim_params)",
            describe_value(model, v)
        ),
    };
    t.dims()
        .ok_or_else(unsupported)?
        .iter()
        .map(|d| match d {
            Dim::Known(n) => Ok(Size::Static(*n)),
            _ if !symbols.binds(d) => Err(unsupported()),
            _ => Ok(Size::Dynamic(evaluate(e, symbols, values, d))),
        })
        .collect()
}

/// Emits `arith` ops computing a polynomial whose atoms are all symbols.
fn evaluate<'c, 'a>(
    e: &Emitter<'c, 'a>,
    symbols: &Symbols,
    values: &[MValue<'c, 'a>],
    d: &Dim,
) -> MValue<'c, 'a> {
    let mut sum: Option<MValue> = None;
    for (coeff, atoms) in d.monomials().expect("checked by the caller") {
        let mut term: Option<MValue> = (coeff != 1 || atoms.is_empty()).then(|| e.index(coeff));
        for atom in atoms {
            let value = match symbols.0.iter().position(|s| s.name == atom) {
                Some(k) => values[k],
                None if Dim::operation_operands(atom).is_some() => {
                    let (op, a, b) = Dim::operation_operands(atom).expect("matched");
                    evaluate_operation(
                        e,
                        op,
                        evaluate(e, symbols, values, &a),
                        evaluate(e, symbols, values, &b),
                    )
                }
                None if Dim::quotient_operands(atom).is_some() => {
                    // `a / b`, checked to be exact by the model's entry
                    // ([`checks`]); a 0 divisor (which the check refuses)
                    // divides by 1 instead of trapping before it.
                    let (a, b) = Dim::quotient_operands(atom).expect("matched");
                    let (a, b) = (
                        evaluate(e, symbols, values, &a),
                        evaluate(e, symbols, values, &b),
                    );
                    let zero = e.cmpi(CmpiPredicate::Eq, b, e.index(0));
                    let b = e.select(zero, e.index(1), b);
                    e.divsi(a, b)
                }
                None if Dim::floor_operands(atom).is_some() => {
                    // `floor(a / k)` for a positive constant `k`, any sign of `a`.
                    let (a, k) = Dim::floor_operands(atom).expect("matched");
                    let a = evaluate(e, symbols, values, &a);
                    e.floordivsi(a, e.index(k))
                }
                None => {
                    // A broadcast of `a` and `b`: `b` where `a` is 1, else `a`
                    // (the model's entry checks that they agree, [`checks`]).
                    let (a, b) = Dim::broadcast_operands(atom).expect("checked by the caller");
                    let (a, b) = (
                        evaluate(e, symbols, values, &a),
                        evaluate(e, symbols, values, &b),
                    );
                    let a_is_one = e.cmpi(CmpiPredicate::Eq, a, e.index(1));
                    e.select(a_is_one, b, a)
                }
            };
            term = Some(match term {
                Some(t) => e.muli(t, value),
                None => value,
            });
        }
        let term = term.expect("a monomial has a coefficient or an atom");
        sum = Some(match sum {
            Some(s) => e.addi(s, term),
            None => term,
        });
    }
    sum.expect("a polynomial has a term")
}

/// Emits the value of an operation atom ([`DimOp`]) of operands `a` and
/// `b`: a truncating division (a 0 divisor, undefined in ONNX, divides by
/// 1 instead of trapping), or a comparison as 0/1.
fn evaluate_operation<'c, 'a>(
    e: &Emitter<'c, 'a>,
    op: DimOp,
    a: MValue<'c, 'a>,
    b: MValue<'c, 'a>,
) -> MValue<'c, 'a> {
    let truth = |predicate| {
        let bit = e.cmpi(predicate, a, b);
        e.select(bit, e.index(1), e.index(0))
    };
    match op {
        DimOp::TruncDiv => {
            let zero = e.cmpi(CmpiPredicate::Eq, b, e.index(0));
            let b = e.select(zero, e.index(1), b);
            e.divsi(a, b)
        }
        DimOp::Eq => truth(CmpiPredicate::Eq),
        DimOp::Lt => truth(CmpiPredicate::Slt),
    }
}

/// Whether any value the kernel's ops read or write has a symbolic size.
pub fn is_dynamic(model: &Model, ops: &[OpId]) -> bool {
    ops.iter().any(|&op| {
        let data = model.ir.op(op);
        data.inputs.iter().chain(&data.results).flatten().any(|&v| {
            value_tensor(model, v)
                .ok()
                .and_then(|t| t.dims())
                .is_some_and(|dims| dims.iter().any(|d| !d.is_known()))
        })
    })
}

/// Checks that the ops of a kernel with symbolic sizes can be lowered with
/// them: the families of [`reads_sizes`], the data movement of
/// `ops::layout::runtime_checks`, elementwise ops and MatMul/Gemm
/// and their fused forms (whose lowerings take every size from the types
/// and `tensor.empty`'s operands). An elementwise operand dim (of the
/// operands whose values are read: not `CastLike`'s type donor),
/// right-aligned against the result's, is 1 or the result's very size
/// (the same polynomial), or else broadcast at run time (sizes that are
/// not unknown; the legacy, opset < 7, broadcasts too, as the reference
/// evaluates them numpy-style), and a per-channel parameter
/// (`norm::channel_operands`) is a vector read along the result's dim 1,
/// of that size or 1 at run time; a MatMul/Gemm's batch dims and C
/// broadcast at compile time or at run time, and its contraction sizes are
/// checked at run time when they differ ([`checks`]).
pub fn check_kernel(model: &Model, ops: &[OpId]) -> Result<()> {
    for &op in ops {
        let data = model.ir.op(op);
        let unsupported = |why: &str| LowerError::Unsupported {
            op: model.ir.describe_op(op),
            message: format!("with symbolic sizes: {why}"),
        };
        let dims = |v: Value| -> Result<Vec<Dim>> {
            Ok(value_tensor(model, v)?
                .dims()
                .ok_or_else(|| unsupported("an operand of unknown rank"))?
                .to_vec())
        };
        let broadcasts = |operand: &[Dim], out: &[Dim]| {
            operand.len() <= out.len()
                && operand
                    .iter()
                    .rev()
                    .zip(out.iter().rev())
                    .all(|(a, y)| a == y || *a == Dim::Known(1))
        };
        let matmul = matches!(
            data.kind,
            OpKind::MatMul | OpKind::Gemm | OpKind::FusedMatMul | OpKind::FusedGemm
        );
        if reads_sizes(data.kind) || layout::runtime_checks(model, op)?.is_some() {
            continue;
        }
        if let Some(own) = own_checks(model, data) {
            own.map_err(unsupported)?;
            continue;
        }
        if !is_elementwise(data.kind) && !matmul {
            return Err(unsupported(
                "this op family is not lowered with dynamic shapes yet",
            ));
        }
        let y = dims(data.results[0].ok_or_else(|| unsupported("an absent first result"))?)?;
        match data.kind {
            k if is_elementwise(k) => {
                let channels = channel_operands(model, data);
                for &v in data_inputs(data) {
                    let operand = dims(v)?;
                    let known = !operand.iter().chain(&y).any(|d| *d == Dim::Unknown);
                    if channels.contains(&v) {
                        if operand.len() != 1 || y.len() < 2 || !known {
                            return Err(unsupported(
                                "a per-channel parameter that is not a vector of known size",
                            ));
                        }
                        continue;
                    }
                    let at_run_time = operand.len() <= y.len() && known;
                    if !broadcasts(&operand, &y) && !at_run_time {
                        return Err(unsupported(
                            "a broadcast between sizes that may differ at run time",
                        ));
                    }
                }
                for &r in data.results.iter().flatten() {
                    if dims(r)? != y {
                        return Err(unsupported("results of different shapes"));
                    }
                }
            }
            _ if matmul => {
                let a = dims(data.inputs[0].expect("A is required"))?;
                let b = dims(data.inputs[1].expect("B is required"))?;
                let Some((ka, kb)) = contraction(model, data)? else {
                    continue; // 1-D operands are refused by the lowering itself.
                };
                let batch = &y[..y.len() - 2];
                // C broadcasts at compile time, or at run time (read with
                // a gather, checked by [`checks`]).
                let c_ok = match data.inputs.get(2).copied().flatten() {
                    Some(c) => {
                        let c = dims(c)?;
                        broadcasts(&c, &y)
                            || (c.len() <= y.len()
                                && !c.iter().chain(&y).any(|d| *d == Dim::Unknown))
                    }
                    None => true,
                };
                // Contraction sizes that differ at compile time are checked
                // to agree at run time ([`checks`]).
                // Batch dims broadcast at compile time, or at run time (the
                // operand copied out at the result's batch sizes,
                // `ops::linalg`, checked by [`checks`]).
                let batch_ok = |o: &[Dim]| {
                    broadcasts(o, batch)
                        || (o.len() <= batch.len()
                            && !o.iter().chain(batch).any(|d| *d == Dim::Unknown))
                };
                // FusedMatMul's residual has the result's shape (checked
                // by [`checks`] where its sizes are other polynomials).
                let z_ok = match residual(data) {
                    Some(z) => dims(z)?.len() == y.len(),
                    None => true,
                };
                if ka == Dim::Unknown
                    || kb == Dim::Unknown
                    || !batch_ok(&a[..a.len() - 2])
                    || !batch_ok(&b[..b.len() - 2])
                    || !c_ok
                    || !z_ok
                {
                    return Err(unsupported(
                        "operand sizes that are only known to agree at run time",
                    ));
                }
            }
            _ => unreachable!("refused above"),
        }
    }
    Ok(())
}

/// Whether ops of `kind` are lowered with run-time sizes taken from their
/// operands (`KernelBuilder::sizes`) and have no operands whose sizes must
/// agree: the reductions and softmaxes (whose counts and temporaries are
/// sized at run time), Transpose and Trilu (one generic over the output),
/// Gather and GatherElements (indices wrapped and clamped by the data's
/// run-time sizes), Shape and Size (the sizes themselves).
fn reads_sizes(kind: OpKind) -> bool {
    use OpKind::*;
    kind.is_reduction()
        || matches!(
            kind,
            ArgMax
                | ArgMin
                | Softmax
                | LogSoftmax
                | Transpose
                | Trilu
                | Gather
                | GatherElements
                | Shape
                | Size
        )
}

/// The checks of an op whose lowering takes run-time sizes and relies on
/// conditions of its own (`None` for the other ops): LayerNormalization
/// (X, Y, the statistics, Scale and B agree), CumSum/CumProd and
/// DynamicQuantizeLinear (input and result agree),
/// QuantizeLinear/DequantizeLinear (also a scale or zero point per tensor
/// or per axis decided at run time) and the Scatter ops (data, indices
/// and updates agree), OneHot and GatherND (indices and output against
/// the data), TopK (outputs and `k` against the input),
/// the integer products (MatMul's checks, and their zero points and
/// scales), Conv and the pools (channels, kernel and output sizes agree
/// with the window's formula). An error names what the lowering cannot
/// take with symbolic sizes; [`check_kernel`] refuses the op then.
fn own_checks(
    model: &Model,
    data: &onnx_mlc_dialect::ir::OpData,
) -> Option<std::result::Result<Vec<Check>, &'static str>> {
    let equal =
        |pairs: Vec<(Dim, Dim)>| pairs.into_iter().map(|(a, b)| Check::Equal(a, b)).collect();
    Some(match data.kind {
        OpKind::LayerNormalization => {
            crate::ops::norm::layer_norm_equal_sizes(model, data).map(equal)
        }
        OpKind::QuantizeLinear | OpKind::DequantizeLinear => {
            crate::ops::quant::linear_checks(model, data)
        }
        OpKind::Scatter | OpKind::ScatterElements | OpKind::ScatterND => {
            crate::ops::scatter::checks(model, data)
        }
        OpKind::OneHot => crate::ops::index::one_hot_checks(model, data),
        OpKind::GatherND => crate::ops::index::gather_nd_checks(model, data),
        OpKind::Compress => crate::ops::select::checks(model, data),
        OpKind::Conv
        | OpKind::FusedConv
        | OpKind::MaxPool
        | OpKind::AveragePool
        | OpKind::LpPool
        | OpKind::GlobalAveragePool
        | OpKind::GlobalMaxPool
        | OpKind::GlobalLpPool => crate::ops::conv::window_checks(model, data),
        OpKind::ConvTranspose => crate::ops::conv::conv_transpose_checks(model, data),
        OpKind::FusedAttention => crate::ops::fused::attention_checks(model, data),
        OpKind::Resize | OpKind::Upsample => crate::ops::image::resize_checks(model, data),
        OpKind::GridSample
        | OpKind::AffineGrid
        | OpKind::CenterCropPad
        | OpKind::Col2Im
        | OpKind::RoiAlign => crate::ops::image::checks(model, data),
        OpKind::CumSum | OpKind::CumProd | OpKind::LRN | OpKind::DynamicQuantizeLinear => {
            same_shape_pairs(model, data).map(equal)
        }
        OpKind::InstanceNormalization | OpKind::GroupNormalization => {
            crate::ops::norm::group_norm_checks(model, data)
        }
        OpKind::BatchNormalization => crate::ops::norm::batch_norm_checks(model, data),
        OpKind::TopK => crate::ops::reduce::top_k_checks(model, data),
        OpKind::MatMulInteger | OpKind::QLinearMatMul => {
            crate::ops::quant::product_checks(model, data)
        }
        _ => return None,
    })
}

/// The dims of value `v` (an operand of an op whose lowering takes
/// run-time sizes, [`own_checks`]): an error for an absent operand, an
/// unknown rank or an unknown size.
pub(crate) fn sized_dims(
    model: &Model,
    v: Option<Value>,
) -> std::result::Result<Vec<Dim>, &'static str> {
    match v
        .and_then(|v| value_tensor(model, v).ok())
        .and_then(|t| t.dims())
    {
        Some(d) if !d.contains(&Dim::Unknown) => Ok(d.to_vec()),
        _ => Err("an operand of unknown rank or size"),
    }
}

/// The dims of the first input and of the first result of `data` that
/// differ (as polynomials) and that the model's entry checks equal (a
/// CumSum/CumProd, a DynamicQuantizeLinear's quantization, is one generic
/// over the result reading the input at the same coordinates); an error
/// for an unknown rank or size or different ranks.
fn same_shape_pairs(
    model: &Model,
    data: &onnx_mlc_dialect::ir::OpData,
) -> std::result::Result<Vec<(Dim, Dim)>, &'static str> {
    let dims = |v: Option<onnx_mlc_dialect::Value>| crate::symbols::sized_dims(model, v);
    let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
    if x.len() != y.len() {
        return Err("a result of another rank than its input");
    }
    Ok(x.into_iter().zip(y).filter(|(a, b)| a != b).collect())
}

/// Whether operand dim `d` (right-aligned against result dim `y`) is read
/// through a run-time broadcast: neither 1 nor `y` at compile time, so the
/// kernel reads index 0 where its run-time size is 1 and checks nothing
/// itself: [`checks`] makes the model's entry verify that the size is 1
/// or `y`.
pub fn broadcast_at_run_time(d: &Dim, y: &Dim) -> bool {
    d != y && *d != Dim::Known(1)
}

/// Appends the checks of `new` that `out` does not hold yet.
fn add_new(out: &mut Vec<Check>, new: impl IntoIterator<Item = Check>) {
    for check in new {
        if !out.contains(&check) {
            out.push(check);
        }
    }
}

/// The run-time broadcast checks of the ops of `kernels`: pairs `(d, y)`
/// of an operand dim and its result dim (both polynomials over the
/// symbols, or broadcasts of them) that the kernels read assuming `d` is 1
/// or `y`. The model's entry evaluates them before anything runs
/// ([`emit_check`]) and fails with `OMLC_ERR_SHAPE` when one does not
/// hold, so that mismatched inputs give an error rather than reads out of
/// bounds.
pub fn checks(model: &Model, kernels: &[Vec<OpId>]) -> Result<Vec<Check>> {
    let mut out: Vec<Check> = divisions(model);
    add_new(&mut out, view_sizes(model)?);
    for &op in kernels.iter().flatten() {
        let data = model.ir.op(op);
        if let Some(size) = runtime_size(model, op) {
            let y = data.results[0].expect("a window has an output");
            if let Some([n]) = value_tensor(model, y)?.dims() {
                out.push(Check::Value {
                    input: graph_input(model, size).expect("runtime_size is a graph input"),
                    elem: value_tensor(model, size)?.elem,
                    entry: None,
                    expected: n.clone(),
                });
            }
            continue;
        }
        if let Some(axes) = runtime_axes(model, op) {
            let input = graph_input(model, axes).expect("runtime_axes is a graph input");
            let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
                let v = v.expect("a Reduce* op has data, axes and a result");
                Ok(value_tensor(model, v)?
                    .dims()
                    .map(<[Dim]>::to_vec)
                    .unwrap_or_default())
            };
            out.push(Check::Axes {
                input,
                len: dims(Some(axes))?[0].clone(),
                keepdims: data.attrs.int("keepdims").unwrap_or(1) != 0,
                noop: data.attrs.int("noop_with_empty_axes").unwrap_or(0) != 0,
                x: dims(data.inputs[0])?,
                y: dims(data.results[0])?,
            });
            continue;
        }
        if let Some(conditions) = layout::runtime_checks(model, op)? {
            // (static kernels keep their shapes from inference alone)
            if is_dynamic(model, &[op]) {
                add_new(&mut out, conditions);
            }
            continue;
        }
        if let Some(own) = own_checks(model, data) {
            add_new(&mut out, own.unwrap_or_default());
            continue;
        }
        if let Some(product) = product_checks(model, data)? {
            add_new(&mut out, product);
            continue;
        }
        if !is_elementwise(data.kind) {
            continue;
        }
        let Some(result) = data.results.first().copied().flatten() else {
            continue;
        };
        let Some(y) = value_tensor(model, result)?.dims() else {
            continue;
        };
        let channels = channel_operands(model, data);
        for &v in data_inputs(data) {
            let Some(operand) = value_tensor(model, v)?.dims() else {
                continue;
            };
            // A per-channel parameter is read along dim 1, others
            // right-aligned (numpy-style).
            let aligned: Vec<(&Dim, &Dim)> = if channels.contains(&v) {
                operand.iter().zip(y.get(1)).collect()
            } else {
                operand.iter().rev().zip(y.iter().rev()).collect()
            };
            for (d, y) in aligned {
                let check = Check::Broadcast(d.clone(), y.clone());
                if broadcast_at_run_time(d, y) && !out.contains(&check) {
                    out.push(check);
                }
            }
        }
    }
    Ok(out)
}

/// The exact divisions the sizes of the main graph's values rely on: a
/// [`Check::Divisible`] for each quotient atom ([`Dim::quotient`]) of
/// their dims, nested ones included, each once; and a
/// [`Check::AtLeast`] 0 for each dim that subtracts (such as the width
/// `S_kv - M` of an attention mask's padding).
fn divisions(model: &Model) -> Vec<Check> {
    fn visit(d: &Dim, out: &mut Vec<Check>) {
        for atom in d.atoms().unwrap_or_default() {
            let quotient = Dim::quotient_operands(atom);
            if let Some((a, b)) = Dim::compound_operands(atom) {
                visit(&a, out);
                visit(&b, out);
            }
            if let Some((a, _)) = Dim::floor_operands(atom) {
                visit(&a, out);
            }
            if let Some((a, b)) = quotient {
                add_new(out, [Check::Divisible(a, b)]);
            }
        }
    }
    let mut out = vec![];
    let g = model.ir.region(model.graph);
    let values = g
        .ops
        .iter()
        .flat_map(|&op| model.ir.op(op).results.iter().flatten())
        .chain(g.outputs.iter().map(|o| &o.value));
    for &v in values {
        for d in model
            .ir
            .ty(v)
            .as_tensor()
            .and_then(|t| t.dims())
            .unwrap_or_default()
        {
            visit(d, &mut out);
            let subtracts = d
                .monomials()
                .is_some_and(|terms| terms.iter().any(|(c, _)| *c < 0));
            if subtracts {
                add_new(&mut out, [Check::AtLeast(d.clone(), 0)]);
            }
        }
    }
    out
}

/// The element counts the views of the main graph (Reshape, Flatten,
/// Squeeze, Unsqueeze: no code, the same buffer under another shape) rely
/// on: a [`Check::Equal`] of the input's and the result's counts where
/// they are different polynomials (a Reshape to a shape computed from
/// other inputs' dims, whose product inference cannot prove equal).
fn view_sizes(model: &Model) -> Result<Vec<Check>> {
    let mut out = vec![];
    for &op in &model.ir.region(model.graph).ops {
        let data = model.ir.op(op);
        let view = matches!(
            data.kind,
            OpKind::Reshape | OpKind::Flatten | OpKind::Squeeze | OpKind::Unsqueeze
        );
        let (Some(Some(x)), Some(Some(y))) = (data.inputs.first(), data.results.first()) else {
            continue;
        };
        if !view {
            continue;
        }
        let count = |v: Value| -> Result<Option<Dim>> {
            Ok(value_tensor(model, v)?
                .dims()
                .filter(|d| !d.contains(&Dim::Unknown))
                .map(|d| d.iter().fold(Dim::Known(1), |acc, d| acc.mul(d))))
        };
        if let (Some(a), Some(b)) = (count(*x)?, count(*y)?) {
            if a != b && a != Dim::Unknown && b != Dim::Unknown {
                add_new(&mut out, [Check::Equal(a, b)]);
            }
        }
    }
    Ok(out)
}

/// The position of `v` among the graph inputs `omlc_model` takes (those
/// without a default), when it is one.
pub fn graph_input(model: &Model, v: Value) -> Option<usize> {
    model
        .ir
        .region(model.graph)
        .args
        .iter()
        .filter(|a| a.default.is_none())
        .position(|a| a.value == v)
}

/// A shape condition the generated code relies on and the model's entry
/// checks at run time ([`checks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Operand dim `d` is 1 or the result's dim `y` (a run-time broadcast).
    Broadcast(Dim, Dim),
    /// The two contraction sizes of a matrix product are equal.
    Equal(Dim, Dim),
    /// The divisor is not 0 and divides the dividend (a quotient atom's
    /// division is exact, [`Dim::quotient`]).
    Divisible(Dim, Dim),
    /// The size is at least the bound: 1 for a window's output size, which
    /// a too small input would make 0 or negative (`ops::conv::window_checks`),
    /// 0 for a size that subtracts.
    AtLeast(Dim, i64),
    /// The `len` entries of graph input `input` (int64) are the axes of a
    /// reduction of an input of dims `x` into an output of dims `y`
    /// (`keepdims`: reduced dims kept as 1; no entries: every dim reduced,
    /// none with `noop`): each in `[-r, r)` for rank `r`, no two naming
    /// the same dim, and the kept dims (and 1s) are `y` (see
    /// `ops::reduce::runtime_axes`).
    Axes {
        input: usize,
        len: Dim,
        keepdims: bool,
        noop: bool,
        x: Vec<Dim>,
        y: Vec<Dim>,
    },
    /// The single entry of graph input `input` (a scalar or a vector of
    /// one element, of type `elem`, a float truncated), or its entry
    /// `entry` (1-D), is `expected` (a window's size and its output's
    /// length, `ops::signal`; OneHot's depth, `ops::index`; TopK's `k`,
    /// `ops::reduce`; an output dim given as an input's value,
    /// `ops::image`).
    Value {
        input: usize,
        elem: ElemType,
        entry: Option<usize>,
        expected: Dim,
    },
    /// A slice of a dim of size `dim` from `start` to `end` by `step`
    /// (constants, clamped as the spec says) has `expected` elements.
    SliceLength {
        dim: Dim,
        start: i64,
        end: i64,
        step: i64,
        expected: Dim,
    },
    /// The entries of graph input `input` (int64, `len` of them) give
    /// output dims `y` from input dims `x` (right-aligned): there are as
    /// many as `y` has dims, and each is `y`'s dim or 1 where `x`'s dim is
    /// `y`'s (Expand's shape), or `x`'s dim times it is `y`'s (`tile`:
    /// Tile's repeats).
    ShapeOperand {
        input: usize,
        len: Dim,
        tile: bool,
        x: Vec<Dim>,
        y: Vec<Dim>,
    },
    /// Among the first `len` entries of graph input `input` (bools),
    /// `expected` are true (Compress's output length, `ops::select`).
    Count {
        input: usize,
        len: Dim,
        expected: Dim,
    },
    /// Resize's output dims `y` along its resized axes follow from the
    /// input's dims `x` there and the entries of graph input `input` (one
    /// per axis, of type `elem`) by `rule` (`ops::image::resize_checks`).
    Resized {
        input: usize,
        elem: ElemType,
        rule: ResizeRule,
        x: Vec<Dim>,
        y: Vec<Dim>,
    },
}

/// How Resize's run-time scales or sizes give its output dims
/// ([`Check::Resized`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResizeRule {
    /// `floor(x · scale)`.
    Scales,
    /// The sizes themselves (`keep_aspect_ratio_policy` stretch).
    Sizes,
    /// `⌊x · s + 0.5⌋` for the smallest `s = size / x` over the axes.
    NotLarger,
    /// The same with the largest.
    NotSmaller,
}

/// The operands of a matrix product (MatMul, Gemm, their fused forms,
/// MatMulInteger, QLinearMatMul): A, B, and whether Gemm transposes them;
/// `None` for other ops.
fn product_operands(data: &onnx_mlc_dialect::ir::OpData) -> Option<(Value, Value, bool, bool)> {
    let b = match data.kind {
        OpKind::MatMul
        | OpKind::Gemm
        | OpKind::FusedMatMul
        | OpKind::FusedGemm
        | OpKind::MatMulInteger => 1,
        OpKind::QLinearMatMul => 3,
        _ => return None,
    };
    let gemm = matches!(data.kind, OpKind::Gemm | OpKind::FusedGemm);
    let attr = |n| gemm && data.attrs.int(n).unwrap_or(0) != 0;
    Some((
        data.inputs[0]?,
        data.inputs.get(b).copied().flatten()?,
        attr("transA"),
        attr("transB"),
    ))
}

/// The two contraction sizes of a matrix product ([`product_operands`]:
/// A's columns, B's rows, after `transA`/`transB`); `None` for other ops
/// and 1-D operands.
fn contraction(model: &Model, data: &onnx_mlc_dialect::ir::OpData) -> Result<Option<(Dim, Dim)>> {
    let Some((a, b, trans_a, trans_b)) = product_operands(data) else {
        return Ok(None);
    };
    let dims = |v: Value| -> Result<Option<Vec<Dim>>> {
        Ok(value_tensor(model, v)?.dims().map(<[Dim]>::to_vec))
    };
    let (Some(a), Some(b)) = (dims(a)?, dims(b)?) else {
        return Ok(None);
    };
    if a.len() < 2 || b.len() < 2 {
        return Ok(None);
    }
    let ka = &a[if trans_a { a.len() - 2 } else { a.len() - 1 }];
    let kb = &b[if trans_b { b.len() - 1 } else { b.len() - 2 }];
    Ok(Some((ka.clone(), kb.clone())))
}

/// The checks of a matrix product ([`product_operands`]; `None` for other
/// ops and 1-D operands): the contraction sizes equal, A's rows and B's
/// columns equal to the result's (the product loops over the result's
/// sizes), and each batch dim of A and B and each dim of Gemm's C (or a
/// fused bias) 1 or the result's where it broadcasts only at run time.
pub(crate) fn product_checks(
    model: &Model,
    data: &onnx_mlc_dialect::ir::OpData,
) -> Result<Option<Vec<Check>>> {
    let Some((ka, kb)) = contraction(model, data)? else {
        return Ok(None);
    };
    let (a, b, trans_a, trans_b) = product_operands(data).expect("a product");
    let dims = |v: Option<Value>| -> Result<Vec<Dim>> {
        let v = v.expect("A, B and Y are present");
        Ok(value_tensor(model, v)?
            .dims()
            .map(<[Dim]>::to_vec)
            .unwrap_or_default())
    };
    let (a, b, y) = (dims(Some(a))?, dims(Some(b))?, dims(data.results[0])?);
    let gemm = matches!(data.kind, OpKind::Gemm | OpKind::FusedGemm);
    let m = &a[a.len() - if trans_a { 1 } else { 2 }];
    let n = &b[b.len() - if trans_b { 2 } else { 1 }];
    let mut out = vec![];
    if a.len() >= 2 && b.len() >= 2 && y.len() >= 2 {
        let batch = &y[..y.len() - 2];
        for o in [&a, &b] {
            for (d, yd) in o[..o.len() - 2].iter().rev().zip(batch.iter().rev()) {
                if broadcast_at_run_time(d, yd) {
                    out.push(Check::Broadcast(d.clone(), yd.clone()));
                }
            }
        }
    }
    if y.len() >= 2 {
        for (d, yd) in [
            (ka, kb),
            (m.clone(), y[y.len() - 2].clone()),
            (n.clone(), y[y.len() - 1].clone()),
        ] {
            if d != yd {
                out.push(Check::Equal(d, yd));
            }
        }
    }
    let beta = if gemm {
        data.attrs.float("beta").unwrap_or(1.0)
    } else {
        1.0
    };
    let c = matches!(
        data.kind,
        OpKind::Gemm | OpKind::FusedGemm | OpKind::FusedMatMul
    )
    .then(|| data.inputs.get(2).copied().flatten())
    .flatten()
    .filter(|_| beta != 0.0);
    if let Some(c) = c {
        let c = dims(Some(c))?;
        for (d, yd) in c.iter().rev().zip(y.iter().rev()) {
            if broadcast_at_run_time(d, yd) {
                out.push(Check::Broadcast(d.clone(), yd.clone()));
            }
        }
    }
    if let Some(z) = residual(data) {
        for (d, yd) in dims(Some(z))?.into_iter().zip(&y) {
            if d != *yd {
                out.push(Check::Equal(d, yd.clone()));
            }
        }
    }
    Ok(Some(out))
}

/// FusedMatMul's residual `Z`, when it has one.
fn residual(data: &onnx_mlc_dialect::ir::OpData) -> Option<Value> {
    match data.kind {
        OpKind::FusedMatMul => data.inputs.get(3).copied().flatten(),
        _ => None,
    }
}

/// Emits `i1` true when every check of [`checks`] holds for the symbols'
/// `values` and the graph inputs' buffers `inputs` (memrefs, in the
/// order of `omlc_model`'s inputs).
pub fn emit_check<'c, 'a>(
    e: &Emitter<'c, 'a>,
    symbols: &Symbols,
    values: &[MValue<'c, 'a>],
    inputs: &[MValue<'c, 'a>],
    checks: &[Check],
) -> Result<MValue<'c, 'a>> {
    let mut ok = e.i(e.int_type(1), 1);
    let size = |d: &Dim| -> Result<MValue<'c, 'a>> {
        if !symbols.binds(d) {
            return Err(LowerError::UnsupportedType {
                ty: d.to_string(),
                what: "a size checked at run time (a size that is not a polynomial over the \
                       inputs' dim_params)"
                    .into(),
            });
        }
        Ok(evaluate(e, symbols, values, d))
    };
    for check in checks {
        let holds = match check {
            Check::Broadcast(d, y) | Check::Equal(d, y) => {
                let (d, y) = (size(d)?, size(y)?);
                let same = e.cmpi(CmpiPredicate::Eq, d, y);
                match check {
                    Check::Broadcast(..) => {
                        let one = e.cmpi(CmpiPredicate::Eq, d, e.index(1));
                        e.ori(one, same)
                    }
                    _ => same,
                }
            }
            Check::AtLeast(d, bound) => {
                // Signed `>=`.
                e.cmpi(CmpiPredicate::Sge, size(d)?, e.index(*bound))
            }
            Check::Divisible(a, b) => {
                let (a, b) = (size(a)?, size(b)?);
                let zero = e.index(0);
                let nonzero = e.cmpi(CmpiPredicate::Ne, b, zero);
                let safe = e.select(nonzero, b, e.index(1));
                let rem = e.remsi(a, safe);
                let exact = e.cmpi(CmpiPredicate::Eq, rem, zero);
                e.andi(nonzero, exact)
            }
            Check::Axes {
                input,
                len,
                keepdims,
                noop,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                let len = size(len)?;
                axes_hold(e, inputs[*input], len, (*keepdims, *noop), &x, &y)
            }
            Check::Count {
                input,
                len,
                expected,
            } => {
                let buffer = inputs[*input];
                let (zero, one) = (e.index(0), e.index(1));
                let len = e.maxsi(size(len)?, zero);
                let count = e.for_loop(zero, len, &[zero], |le, t, c| {
                    let v = le.load(buffer, &[t]);
                    let selected = le.cmpi(CmpiPredicate::Ne, v, le.i(le.int_type(8), 0));
                    vec![le.select(selected, le.addi(c[0], one), c[0])]
                })[0];
                e.cmpi(CmpiPredicate::Eq, count, size(expected)?)
            }
            Check::SliceLength {
                dim,
                start,
                end,
                step,
                expected,
            } => {
                let n = slice_length(e, size(dim)?, *start, *end, *step);
                e.cmpi(CmpiPredicate::Eq, n, size(expected)?)
            }
            Check::ShapeOperand {
                input,
                len,
                tile,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                let len = size(len)?;
                shape_operand_holds(e, inputs[*input], len, *tile, &x, &y)
            }
            Check::Resized {
                input,
                elem,
                rule,
                x,
                y,
            } => {
                let x = x.iter().map(size).collect::<Result<Vec<_>>>()?;
                let y = y.iter().map(size).collect::<Result<Vec<_>>>()?;
                crate::ops::image::resized_hold(e, inputs[*input], *elem, *rule, &x, &y)
            }
            Check::Value {
                input,
                elem,
                entry,
                expected,
            } => {
                // Entry `entry` of a vector, else a scalar or the first
                // entry of a one-element vector.
                let buffer = inputs[*input];
                let at: Vec<MValue> = match entry {
                    Some(j) => vec![e.index(*j as i64)],
                    None => {
                        let rank = MemRefType::try_from(buffer.r#type()).map_or(0, |m| m.rank());
                        (0..rank).map(|_| e.index(0)).collect()
                    }
                };
                let mut v = e.load(buffer, &at);
                if elem.is_float() {
                    // A float count (OneHot's depth) is truncated, as the
                    // reference casts it to int64.
                    v = e.fptosi(v, e.int_type(64));
                }
                let v = e.index_cast(v, Type::index(e.cx));
                e.cmpi(CmpiPredicate::Eq, v, size(expected)?)
            }
        };
        ok = e.andi(ok, holds);
    }
    Ok(ok)
}

/// Emits the number of elements a slice of a dim of run-time size `d`
/// selects from `start` to `end` by `step` (the spec's clamping: negative
/// bounds count from the end; then `[0, d]` for a positive step,
/// `[0, d-1]` and `[-1, d-1]` for a negative one).
fn slice_length<'c, 'a>(
    e: &Emitter<'c, 'a>,
    d: MValue<'c, 'a>,
    start: i64,
    end: i64,
    step: i64,
) -> MValue<'c, 'a> {
    let bound = |v: i64, low: i64, high: MValue<'c, 'a>| {
        let v = if v < 0 {
            e.addi(e.index(v), d)
        } else {
            e.index(v)
        };
        let v = e.maxsi(v, e.index(low));
        e.minsi(v, high)
    };
    let span = if step > 0 {
        let (s, t) = (bound(start, 0, d), bound(end, 0, d));
        e.subi(t, s)
    } else {
        let last = e.subi(d, e.index(1));
        let s = bound(start, 0, e.maxsi(last, e.index(0)));
        let t = bound(end, -1, last);
        e.subi(s, t)
    };
    // A step this large selects at most one element either way.
    let k = step.checked_abs().unwrap_or(i64::MAX).min(1 << 40);
    let up = e.addi(span, e.index(k - 1));
    let n = e.divsi(up, e.index(k));
    e.maxsi(n, e.index(0))
}

/// Emits `i1` true when the `len` int64 entries of `operand` (a memref)
/// give sizes `y` from sizes `x` ([`Check::ShapeOperand`]). Only the
/// entries that exist are read: a loop over `min(len, rank)` of them.
///
/// Tile's repeats are one per dim. Expand's shape is right-aligned with
/// `y` and may be shorter when `x` has `y`'s rank: a dim it does not
/// reach is `x`'s own (as an entry of 1 would give).
fn shape_operand_holds<'c, 'a>(
    e: &Emitter<'c, 'a>,
    operand: MValue<'c, 'a>,
    len: MValue<'c, 'a>,
    tile: bool,
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let rank = e.index(y.len() as i64);
    let lead = y.len() - x.len().min(y.len());
    let i1 = e.int_type(1);
    let count = e.minsi(len, rank);
    // The first dim of `y` the entries reach.
    let first = if tile {
        e.index(0)
    } else {
        e.subi(rank, count)
    };
    let (zero, one) = (e.index(0), e.index(1));
    let entries = e.for_loop(zero, count, &[e.i(i1, 1)], |le, t, ok| {
        // `dims`' entry at `y`'s dim `at` (1 where it has none).
        let at = le.addi(first, t);
        let pick = |dims: &[MValue<'c, 'a>], offset: usize| {
            dims.iter().enumerate().fold(one, |acc, (j, &d)| {
                let here = le.cmpi(CmpiPredicate::Eq, at, le.index((offset + j) as i64));
                le.select(here, d, acc)
            })
        };
        let (yt, xt) = (pick(y, 0), pick(x, lead));
        let s = le.load(operand, &[t]);
        let s = le.index_cast(s, Type::index(le.cx));
        let holds = if tile {
            le.cmpi(CmpiPredicate::Eq, le.muli(xt, s), yt)
        } else {
            let is_y = le.cmpi(CmpiPredicate::Eq, s, yt);
            let is_one = le.cmpi(CmpiPredicate::Eq, s, one);
            let x_is_y = le.cmpi(CmpiPredicate::Eq, xt, yt);
            le.ori(is_y, le.andi(is_one, x_is_y))
        };
        vec![le.andi(ok[0], holds)]
    })[0];
    if tile || x.len() != y.len() {
        let complete = e.cmpi(CmpiPredicate::Eq, len, rank);
        return e.andi(entries, complete);
    }
    // Expand of an `x` of `y`'s rank: at most `rank` entries, and the
    // dims before them are `x`'s.
    let mut ok = e.andi(entries, e.cmpi(CmpiPredicate::Sle, len, rank));
    for (j, (&xj, &yj)) in x.iter().zip(y).enumerate() {
        let reached = e.cmpi(CmpiPredicate::Sge, e.index(j as i64), first);
        let same = e.cmpi(CmpiPredicate::Eq, xj, yj);
        ok = e.andi(ok, e.ori(reached, same));
    }
    ok
}

/// Emits `i1` true when the `len` int64 entries of `axes` (a memref) are
/// valid axes of a reduction from sizes `x` to sizes `y` ([`Check::Axes`],
/// `(keepdims, noop_with_empty_axes)`).
fn axes_hold<'c, 'a>(
    e: &Emitter<'c, 'a>,
    axes: MValue<'c, 'a>,
    len: MValue<'c, 'a>,
    (keepdims, noop): (bool, bool),
    x: &[MValue<'c, 'a>],
    y: &[MValue<'c, 'a>],
) -> MValue<'c, 'a> {
    let mask = axes_mask(*e, axes, len, x.len(), noop);
    let mut ok = mask.valid;
    let mut kept_before = e.index(0);
    let mut expected = vec![e.index(1); y.len()];
    for (d, &n) in x.iter().enumerate() {
        let reduced = mask.reduced[d];
        if keepdims {
            if let Some(slot) = expected.get_mut(d) {
                *slot = e.select(reduced, e.index(1), n);
            }
        } else {
            for (m, slot) in expected.iter_mut().enumerate() {
                let here = e.cmpi(CmpiPredicate::Eq, kept_before, e.index(m as i64));
                let here = e.andi(here, e.xori(reduced, e.i(e.int_type(1), 1)));
                *slot = e.select(here, n, *slot);
            }
        }
        let next = e.addi(kept_before, e.index(1));
        kept_before = e.select(reduced, kept_before, next);
    }
    if !keepdims {
        // As many kept dims as the output has.
        let count = e.cmpi(CmpiPredicate::Eq, kept_before, e.index(y.len() as i64));
        ok = e.andi(ok, count);
    }
    for (&want, &got) in expected.iter().zip(y) {
        ok = e.andi(ok, e.cmpi(CmpiPredicate::Eq, want, got));
    }
    ok
}
