//! Dynamic shapes: the `dim_param` symbols of a model, the run-time sizes
//! computed from them, and the shape conditions the model's entry checks
//! at run time.
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
//! ([`Check`], emitted by `check.rs`): mismatched sizes fail with
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
//! check (`size_checks`), as are the conditions each op family's
//! lowering relies on (`Symbolic`, the families' `checks`).
//!
//! What the generated code cannot decide at run time is refused at compile
//! time (`Symbolic::refused`): a size that is no polynomial over the
//! symbols, and, for now, the ops whose lowerings do not take run-time
//! sizes yet.

use melior::ir::{Type, Value as MValue};
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Dim, DimOp, ElemType, Model, Value};

use crate::builder::{CmpiPredicate, Emitter, Size};
use crate::error::{LowerError, Result};
use crate::types::{describe_value, value_tensor};

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
    pub(crate) fn binds(&self, dim: &Dim) -> bool {
        dim.evaluable_from(&|atom| self.0.iter().any(|s| s.name == atom))
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
            _ => Ok(Size::Dynamic(kernel_size(e, symbols, values, d))),
        })
        .collect()
}

/// Emits `arith` ops computing a polynomial whose atoms are all symbols
/// (`index` arithmetic, as the model's entry check compares sizes).
pub(crate) fn evaluate<'c, 'a>(
    e: &Emitter<'c, 'a>,
    symbols: &Symbols,
    values: &[MValue<'c, 'a>],
    d: &Dim,
) -> MValue<'c, 'a> {
    let index = Type::index(e.cx);
    evaluate_as(e, symbols, &|k| values[k], index, d)
}

/// The run-time value of size `d` in a kernel: a symbol's own value, or
/// its polynomial computed in `i64` and cast to `index`. The cast hides the
/// arithmetic from MLIR's value-bounds analysis, which bufferization runs
/// to compare the slices a kernel reads and writes: on the long polynomials
/// of a detection head (nested floor divisions and broadcast selects, one
/// per feature level) it ran for more than fifteen minutes on one Concat.
fn kernel_size<'c, 'a>(
    e: &Emitter<'c, 'a>,
    symbols: &Symbols,
    values: &[MValue<'c, 'a>],
    d: &Dim,
) -> MValue<'c, 'a> {
    if let Some(k) = d
        .as_param()
        .and_then(|p| symbols.0.iter().position(|s| s.name == p))
    {
        return values[k];
    }
    let i64t = e.int_type(64);
    let leaf = |k: usize| e.index_cast(values[k], i64t);
    let v = evaluate_as(e, symbols, &leaf, i64t, d);
    e.index_cast(v, Type::index(e.cx))
}

/// [`evaluate`] in integer type `ty` (`index` or `i64`), symbol `k`'s
/// value given by `leaf(k)`.
fn evaluate_as<'c, 'a>(
    e: &Emitter<'c, 'a>,
    symbols: &Symbols,
    leaf: &dyn Fn(usize) -> MValue<'c, 'a>,
    ty: Type<'c>,
    d: &Dim,
) -> MValue<'c, 'a> {
    let at = |d: &Dim| evaluate_as(e, symbols, leaf, ty, d);
    let constant = |c: i64| e.i(ty, c);
    let mut sum: Option<MValue> = None;
    for (coeff, atoms) in d.monomials().expect("checked by the caller") {
        let mut term: Option<MValue> = (coeff != 1 || atoms.is_empty()).then(|| constant(coeff));
        for atom in atoms {
            let value = match symbols.0.iter().position(|s| s.name == atom) {
                Some(k) => leaf(k),
                None if Dim::operation_operands(atom).is_some() => {
                    let (op, a, b) = Dim::operation_operands(atom).expect("matched");
                    evaluate_operation(e, op, at(&a), at(&b), ty)
                }
                None if Dim::quotient_operands(atom).is_some() => {
                    // `a / b`, checked to be exact by the model's entry
                    // ([`checks`]); a 0 divisor (which the check refuses)
                    // divides by 1 instead of trapping before it.
                    let (a, b) = Dim::quotient_operands(atom).expect("matched");
                    let (a, b) = (at(&a), at(&b));
                    let zero = e.cmpi(CmpiPredicate::Eq, b, constant(0));
                    let b = e.select(zero, constant(1), b);
                    e.divsi(a, b)
                }
                None if Dim::floor_operands(atom).is_some() => {
                    // `floor(a / k)` for a positive constant `k`, any sign of `a`.
                    let (a, k) = Dim::floor_operands(atom).expect("matched");
                    e.floordivsi(at(&a), constant(k))
                }
                None => {
                    // A broadcast of `a` and `b`: `b` where `a` is 1, else `a`
                    // (the model's entry checks that they agree, [`checks`]).
                    let (a, b) = Dim::broadcast_operands(atom).expect("checked by the caller");
                    let (a, b) = (at(&a), at(&b));
                    let a_is_one = e.cmpi(CmpiPredicate::Eq, a, constant(1));
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
/// `b` (of integer type `ty`): a truncating division (a 0 divisor,
/// undefined in ONNX, divides by 1 instead of trapping), or a comparison
/// as 0/1.
fn evaluate_operation<'c, 'a>(
    e: &Emitter<'c, 'a>,
    op: DimOp,
    a: MValue<'c, 'a>,
    b: MValue<'c, 'a>,
    ty: Type<'c>,
) -> MValue<'c, 'a> {
    let truth = |predicate| {
        let bit = e.cmpi(predicate, a, b);
        e.select(bit, e.i(ty, 1), e.i(ty, 0))
    };
    match op {
        DimOp::TruncDiv => {
            let zero = e.cmpi(CmpiPredicate::Eq, b, e.i(ty, 0));
            let b = e.select(zero, e.i(ty, 1), b);
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
        data.inputs
            .iter()
            .chain(&data.results)
            .flatten()
            .any(|&v| has_symbolic_size(model, v))
    })
}

/// Whether value `v` has a size that is not static.
pub fn has_symbolic_size(model: &Model, v: Value) -> bool {
    value_tensor(model, v)
        .ok()
        .and_then(|t| t.dims())
        .is_some_and(|dims| dims.iter().any(|d| !d.is_known()))
}

/// The checks of a kernel that takes any symbolic size of its first
/// operand but the last dim, which must be static (`refusal` otherwise):
/// none.
pub(crate) fn static_last_dim(
    model: &Model,
    data: &OpData,
    refusal: &'static str,
) -> std::result::Result<Vec<Check>, &'static str> {
    let x = sized_dims(model, data.inputs.first().copied().flatten())?;
    match x.last() {
        Some(d) if d.as_known().is_some() => Ok(vec![]),
        _ => Err(refusal),
    }
}

/// The dims of value `v` (an operand of an op whose lowering takes
/// run-time sizes, the families' `checks`): an error for an absent operand, an
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
pub(crate) fn same_shape_pairs(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<(Dim, Dim)>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
    let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
    if x.len() != y.len() {
        return Err("a result of another rank than its input");
    }
    Ok(x.into_iter().zip(y).filter(|(a, b)| a != b).collect())
}

/// [`Check::Equal`] for each pair of dims.
pub(crate) fn equalities(pairs: Vec<(Dim, Dim)>) -> Vec<Check> {
    pairs.into_iter().map(|(a, b)| Check::Equal(a, b)).collect()
}

/// Whether operand dim `d` (right-aligned against result dim `y`) is read
/// through a run-time broadcast: neither 1 nor `y` at compile time, so the
/// kernel reads index 0 where its run-time size is 1 and checks nothing
/// itself: the model's entry verifies that the size is 1 or `y`
/// (`ops::entry_checks`).
pub fn broadcast_at_run_time(d: &Dim, y: &Dim) -> bool {
    d != y && *d != Dim::Known(1)
}

/// Appends the checks of `new` that `out` does not hold yet.
pub(crate) fn add_new(out: &mut Vec<Check>, new: impl IntoIterator<Item = Check>) {
    for check in new {
        if !out.contains(&check) {
            out.push(check);
        }
    }
}

/// The exact divisions the sizes of the main graph's values rely on: a
/// [`Check::Divisible`] for each quotient atom ([`Dim::quotient`]) of
/// their dims, nested ones included, each once; and a
/// [`Check::AtLeast`] 0 for each dim that subtracts (such as the width
/// `S_kv - M` of an attention mask's padding).
/// The checks the sizes of the main graph's values rely on, whatever
/// kernels compute them: their exact divisions ([`divisions`]) and the
/// element counts of views ([`view_sizes`]).
pub(crate) fn size_checks(model: &Model) -> Result<Vec<Check>> {
    let mut out = divisions(model);
    add_new(&mut out, view_sizes(model)?);
    Ok(out)
}

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
        let view = data.kind.is_view();
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
/// checks at run time (`ops::entry_checks`, `check.rs`).
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
    /// per axis, of type `elem`) by `rule` (`ops::vision::resize`).
    Resized {
        input: usize,
        elem: ElemType,
        rule: ResizeRule,
        x: Vec<Dim>,
        y: Vec<Dim>,
    },
    /// DFT's output dims `y` follow from its input dims `x`: along `axis`
    /// (normalized, not the last) the transform's length from `length`
    /// (else the input's own there), 1 or 2 values in the last dim, the
    /// input's own dims elsewhere (`ops::signal`).
    Dft {
        axis: Scalar,
        length: Option<Scalar>,
        inverse: bool,
        onesided: bool,
        x: Vec<Dim>,
        y: Vec<Dim>,
    },
    /// STFT's output dims `y` (`[batch, frames, bins, 2]`) follow from its
    /// signal's dims `x` (`[batch, samples, 1 or 2]`), the frame step and
    /// the frame length (`ops::signal`).
    Stft {
        step: Scalar,
        length: Scalar,
        onesided: bool,
        x: Vec<Dim>,
        y: Vec<Dim>,
    },
}

/// A scalar a check reads: a size (a constant or a polynomial over the
/// symbols), or the single entry of a graph input read at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// A size.
    Size(Dim),
    /// Graph input `input`'s single entry (a scalar or a vector of one),
    /// an integer of type `elem`.
    Input { input: usize, elem: ElemType },
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

/// How an op's lowering takes symbolic sizes, as its family says: the
/// conditions it relies on, which the model's entry checks before
/// anything runs, or why it does not take them (a kernel with symbolic
/// sizes is then refused at compile time).
#[derive(Debug, Default)]
pub(crate) struct Symbolic {
    /// The conditions the model's entry checks (also for static kernels:
    /// a window's size read from a graph input, say).
    pub checks: Vec<Check>,
    /// Why the op is not lowered with symbolic sizes, if it is not.
    pub refused: Option<&'static str>,
}

impl Symbolic {
    /// Lowered with symbolic sizes, given `checks`.
    pub fn checked(checks: Vec<Check>) -> Symbolic {
        Symbolic {
            checks,
            refused: None,
        }
    }

    /// Not lowered with symbolic sizes, for reason `why`.
    pub fn refused(why: &'static str) -> Symbolic {
        Symbolic {
            checks: vec![],
            refused: Some(why),
        }
    }

    /// The ops whose lowering does not take symbolic sizes yet.
    pub fn not_yet() -> Symbolic {
        Symbolic::refused("this op family is not lowered with dynamic shapes yet")
    }

    /// An op's own conditions, or why it cannot be lowered with symbolic
    /// sizes (an unknown rank, say).
    pub fn of(own: std::result::Result<Vec<Check>, &'static str>) -> Symbolic {
        match own {
            Ok(checks) => Symbolic::checked(checks),
            Err(why) => Symbolic::refused(why),
        }
    }
}

/// Why an op's lowering refuses symbolic sizes, or the error that
/// prevented finding out: what the refusal checks of the elementwise ops
/// and the products return, so that `?` works for both.
pub(crate) enum Refusal {
    /// The op is not lowered with symbolic sizes, for this reason.
    Refused(&'static str),
    /// Finding out failed (a value that is no tensor).
    Error(LowerError),
}

impl From<LowerError> for Refusal {
    fn from(e: LowerError) -> Refusal {
        Refusal::Error(e)
    }
}

impl Refusal {
    /// The outcome of a refusal check: why the op is refused, if it is.
    pub fn outcome(check: std::result::Result<(), Refusal>) -> Result<Option<&'static str>> {
        match check {
            Ok(()) => Ok(None),
            Err(Refusal::Refused(why)) => Ok(Some(why)),
            Err(Refusal::Error(e)) => Err(e),
        }
    }
}

/// The dims of value `v`, refused when its rank is unknown.
pub(crate) fn ranked_dims(model: &Model, v: Value) -> std::result::Result<Vec<Dim>, Refusal> {
    value_tensor(model, v)?
        .dims()
        .map(<[Dim]>::to_vec)
        .ok_or(Refusal::Refused("an operand of unknown rank"))
}

/// The dims of the first result of `data`, refused when it is absent or of
/// unknown rank.
pub(crate) fn result_dims(model: &Model, data: &OpData) -> std::result::Result<Vec<Dim>, Refusal> {
    let y = data.results[0].ok_or(Refusal::Refused("an absent first result"))?;
    ranked_dims(model, y)
}

/// Whether `operand` broadcasts to `out` numpy-style at compile time:
/// right-aligned, each of its dims `out`'s very size or 1.
pub(crate) fn broadcasts_statically(operand: &[Dim], out: &[Dim]) -> bool {
    operand.len() <= out.len()
        && operand
            .iter()
            .rev()
            .zip(out.iter().rev())
            .all(|(a, y)| a == y || *a == Dim::Known(1))
}
