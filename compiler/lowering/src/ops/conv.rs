//! Convolutions and pooling: sliding windows over the spatial dims of
//! `[N, C, D1, …, Dn]` tensors (the dialect's `ops/conv.rs` family).
//!
//! | op | lowered as | variants handled |
//! |----|------------|------------------|
//! | Conv (1, 11, 22) | `linalg.generic` over `(n, m, o…, c, k…)` reducing `c, k…` | any spatial rank, `group` (incl. depthwise), strides, dilations, explicit pads, `auto_pad`, optional bias; float types (f16 and bf16 accumulated in f32, rounded once) |
//! | MaxPool (1–22) | the same window with `max` | ceil_mode, dilations, pads, `auto_pad`; float and integer types; the `Indices` output (`storage_order` both ways) from the same window reduced into values and their flat indices, one `linalg.generic` (`Schedule::Generic`), also over symbolic sizes |
//! | AveragePool (1–22) | the same window summing `x / count` | `count_include_pad` both ways, ceil_mode, dilations, pads |
//! | LpPool (1–22) | `Σ |x|^p`, then `^(1/p)` | as AveragePool |
//! | GlobalAveragePool / GlobalMaxPool / GlobalLpPool | a window as large as the input | all ranks |
//!
//! The output of the window op is the kernel's root (`omlc.root`), its
//! initial value (zero, the bias, or the identity of the reduction) a
//! separate fill tagged `omlc.init` so that the schedule can compute both
//! per chunk of output channels (`Schedule::Window`).
//!
//! **Padding.** A window that never leaves the input reads it through an
//! affine indexing map (`x[n, c, o·s + k·d]`). One that does (explicit or
//! automatic pads, or a `ceil_mode` window running past the end) reads the
//! input with `tensor.extract` at a clamped index inside the body and
//! substitutes the reduction's identity outside the input. We do not
//! materialize a padded copy with `tensor.pad`: that copy would be a
//! buffer allocated inside the kernel on every call, which the arena-based
//! memory plan does not provide for.
//!
//! A 1-D/2-D/3-D Conv is one code path: the loop nest is built for any
//! number of spatial dims.
//!
//! **Symbolic sizes.** Batch, channels, spatial sizes and a Conv's or
//! ConvTranspose's kernel (a weight given as a graph input) may be
//! symbolic. The bodies then read the window's run-time extents
//! ([`Extents`]: the input's sizes, SAME padding computed from the sizes
//! and the kernel's, AveragePool's counted bounds) where a static window
//! reads constants, so static kernels are unchanged (and keep the GEMM
//! form and their schedules); the kernel loops take their bounds from the
//! weight (or, for groups of symbolic size, from an unread tensor of the
//! reduction's run-time extents, the weight then read at coordinates
//! computed in the body). Only an unpadded floor-mode window reads the
//! input through its affine map; the model's entry checks what that
//! relies on ([`window_checks`], [`conv_transpose_checks`]).

use melior::ir::operation::OperationMutLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{AffineMap, Type, Value as MValue, ValueLike};
use melior::Context;
use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{Dim, ElemType, OpKind, Value};

use super::half;
use super::unsupported;
use crate::builder::{
    d, generic, identity_map, map, projection, ranked_tensor, unit, CmpfPredicate, CmpiPredicate,
    Emitter, Expr, Size, DYNAMIC,
};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::schedule::Schedule;
use crate::symbols::Check;
use crate::types::elem_type;

/// The geometry of a sliding window along the spatial dims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub kernel: Vec<i64>,
    pub strides: Vec<i64>,
    pub dilations: Vec<i64>,
    /// Padding before each spatial dim.
    pub begin: Vec<i64>,
    /// Padding after each spatial dim.
    pub end: Vec<i64>,
    /// The input's spatial extents.
    pub input: Vec<i64>,
    /// The output's spatial extents.
    pub output: Vec<i64>,
    /// `auto_pad` SAME_UPPER (`Some(true)`) or SAME_LOWER: where a size is
    /// symbolic, `begin` and `end` are 0 and the pads are computed at run
    /// time ([`Window::extents`]).
    pub same: Option<bool>,
    /// `ceil_mode`: the last window may run past the end.
    pub ceil_mode: bool,
}

/// The sizes of a window that are only known at run time when the input or
/// the output has a symbolic spatial size: per spatial dim, the input's
/// extent and the padding before and after it (SAME padding depends on
/// the sizes). All static for a static window, whose bodies then read
/// constants as before.
#[derive(Clone)]
pub(crate) struct Extents<'c, 'a> {
    input: Vec<Size<'c, 'a>>,
    begin: Vec<Size<'c, 'a>>,
    end: Vec<Size<'c, 'a>>,
}

/// Applies `f` to `size` as an index operand inside a body: a constant
/// emitted there, or the run-time value computed outside it.
pub(crate) fn sized<'c, 'b>(
    be: Emitter<'c, 'b>,
    size: Size<'c, '_>,
    f: impl FnOnce(MValue<'c, '_>) -> MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    match size {
        Size::Static(n) => f(be.index(n)),
        Size::Dynamic(v) => f(v),
    }
}

/// The checks of a Conv (or FusedConv), MaxPool, AveragePool, LpPool or
/// global pool with symbolic sizes (`symbols::checks`): the batch and
/// channel dims agree (the input's channels are the weight's times
/// `group`, the bias and the output have the weight's output channels, a
/// multiple of `group`), the weight's kernel dims are `kernel_shape` (or
/// at least 1 when symbolic: the weight's own), and each output spatial
/// dim is the size inference gives for the input's
/// ([`Dim::window_output`], SAME: `ceil(d / s)`) and at least 1 — so that
/// a window that is not padded stays inside the input, which the
/// lowering reads without bounds checks. An error names what cannot be
/// lowered: an output size that is no polynomial or floor quotient over
/// the symbols.
pub(crate) fn window_checks(
    model: &onnx_mlc_dialect::Model,
    data: &onnx_mlc_dialect::ir::OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    use OpKind::{Conv, FusedConv, GlobalAveragePool, GlobalLpPool, GlobalMaxPool};
    let dims = |v: Option<onnx_mlc_dialect::Value>| crate::symbols::sized_dims(model, v);
    let (x, y) = (dims(data.inputs[0])?, dims(data.results[0])?);
    if x.len() != y.len() || x.len() < 3 {
        return Err("an output of another rank than the input");
    }
    let r = x.len() - 2;
    // Equalities, then the other conditions.
    let (mut out, mut more) = (vec![], vec![]);
    let mut equal = |a: &Dim, b: &Dim| {
        if a != b {
            out.push(Check::Equal(a.clone(), b.clone()));
        }
    };
    equal(&x[0], &y[0]);
    // MaxPool's Indices, computed by the values' loops.
    if let Some(indices) = data.results.get(1).copied().flatten() {
        let indices = dims(Some(indices))?;
        if indices.len() != y.len() {
            return Err("indices of another rank than the output");
        }
        for (a, b) in indices.iter().zip(&y) {
            equal(a, b);
        }
    }
    let a = &data.attrs;
    let kernel: Vec<Dim> = match data.kind {
        GlobalAveragePool | GlobalMaxPool | GlobalLpPool => {
            equal(&x[1], &y[1]);
            for d in &y[2..] {
                equal(d, &Dim::Known(1));
            }
            return Ok(out);
        }
        Conv | FusedConv => {
            let w = dims(data.inputs[1])?;
            if w.len() != x.len() {
                return Err("a weight of another rank than the input");
            }
            let group = a.int("group").unwrap_or(1);
            equal(&x[1], &w[1].scale(group));
            equal(&y[1], &w[0]);
            if group != 1 && !w[0].is_known() {
                more.push(Check::Divisible(w[0].clone(), Dim::Known(group)));
            }
            if let Some(b) = data.inputs.get(2).copied().flatten() {
                equal(&dims(Some(b))?[0], &w[0]);
            }
            // FusedConv's residual, added at the same coordinates.
            if let Some(z) = data.inputs.get(3).copied().flatten() {
                let z = dims(Some(z))?;
                if z.len() != y.len() {
                    return Err("a residual of another rank than the output");
                }
                for (a, b) in z.iter().zip(&y) {
                    equal(a, b);
                }
            }
            let kernel = kernel_dims(a, &w[2..]);
            if kernel.len() != r {
                return Err("kernel_shape of the wrong length");
            }
            for (d, k) in w[2..].iter().zip(&kernel) {
                equal(d, k);
                if !k.is_known() {
                    more.push(Check::AtLeast(k.clone(), 1));
                }
            }
            kernel
        }
        _ => {
            equal(&x[1], &y[1]);
            let k = a.ints("kernel_shape").ok_or("no kernel_shape")?;
            k.iter().map(|&k| Dim::Known(k)).collect()
        }
    };
    let ones = vec![1; r];
    let strides = a.ints("strides").unwrap_or(&ones);
    let dilations = a.ints("dilations").unwrap_or(&ones);
    let zeros = vec![0; 2 * r];
    let pads = a.ints("pads").unwrap_or(&zeros);
    if kernel.len() != r || strides.len() != r || dilations.len() != r || pads.len() != 2 * r {
        return Err("window attributes of the wrong length");
    }
    let ceil_mode = a.int("ceil_mode").unwrap_or(0) != 0;
    for i in 0..r {
        let d = &x[2 + i];
        let extent = extent_dim(&kernel[i], dilations[i]);
        let expected = match a.string("auto_pad").unwrap_or("NOTSET") {
            "SAME_UPPER" | "SAME_LOWER" => d.ceil_quotient(strides[i]),
            "VALID" => d.window_output(&extent, strides[i], (0, 0), ceil_mode),
            _ => d.window_output(&extent, strides[i], (pads[i], pads[r + i]), ceil_mode),
        };
        if expected == Dim::Unknown {
            return Err("an output size that is not known symbolically");
        }
        equal(&y[2 + i], &expected);
        if !y[2 + i].is_known() {
            more.push(Check::AtLeast(y[2 + i].clone(), 1));
        }
    }
    out.extend(more);
    Ok(out)
}

/// The checks of a ConvTranspose with symbolic sizes (`symbols::checks`):
/// the batch dims agree, the input's channels are the weight's first dim
/// (a multiple of `group`), the output's are the weight's second times
/// `group` (and the bias length), the weight's kernel dims are
/// `kernel_shape` (a symbolic kernel at least 1), and each output
/// spatial dim is at least 1 and, without `output_shape`, the size the
/// input gives (`s·(d − 1) + output_padding + extent − pads`, `d·s` with
/// SAME). The lowering reads the input masked by its run-time sizes.
pub(crate) fn conv_transpose_checks(
    model: &onnx_mlc_dialect::Model,
    data: &onnx_mlc_dialect::ir::OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<onnx_mlc_dialect::Value>| crate::symbols::sized_dims(model, v);
    let (x, w, y) = (
        dims(data.inputs[0])?,
        dims(data.inputs[1])?,
        dims(data.results[0])?,
    );
    if x.len() != y.len() || w.len() != x.len() || x.len() < 3 {
        return Err("operands of different ranks");
    }
    let r = x.len() - 2;
    let a = &data.attrs;
    let group = a.int("group").unwrap_or(1);
    let mut pairs = vec![(x[0].clone(), y[0].clone()), (x[1].clone(), w[0].clone())];
    pairs.push((y[1].clone(), w[1].scale(group)));
    if let Some(b) = data.inputs.get(2).copied().flatten() {
        pairs.push((dims(Some(b))?[0].clone(), y[1].clone()));
    }
    let kernel = kernel_dims(a, &w[2..]);
    let per_dim = |name: &str, default: i64| a.ints(name).map_or(vec![default; r], <[i64]>::to_vec);
    let (strides, dilations) = (per_dim("strides", 1), per_dim("dilations", 1));
    let (output_padding, pads) = (per_dim("output_padding", 0), per_dim("pads", 0));
    if kernel.len() != r
        || [&strides, &dilations, &output_padding]
            .iter()
            .any(|v| v.len() != r)
        || pads.len() != if a.ints("pads").is_some() { 2 * r } else { r }
    {
        return Err("window attributes of the wrong length");
    }
    let mut more = vec![];
    if group != 1 && !x[1].is_known() {
        more.push(Check::Divisible(x[1].clone(), Dim::Known(group)));
    }
    for i in 0..r {
        pairs.push((w[2 + i].clone(), kernel[i].clone()));
        if !kernel[i].is_known() {
            more.push(Check::AtLeast(kernel[i].clone(), 1));
        }
        let d = &x[2 + i];
        let extent = extent_dim(&kernel[i], dilations[i]);
        let padded = a.ints("pads").map_or(0, |p| p[i] + p[r + i]);
        let expected = match a.string("auto_pad").unwrap_or("NOTSET") {
            _ if a.ints("output_shape").is_some() => y[2 + i].clone(),
            "SAME_UPPER" | "SAME_LOWER" => d.scale(strides[i]),
            _ => d
                .sub(&Dim::Known(1))
                .scale(strides[i])
                .add(&extent)
                .add(&Dim::Known(output_padding[i] - padded)),
        };
        pairs.push((y[2 + i].clone(), expected));
        if !y[2 + i].is_known() {
            more.push(Check::AtLeast(y[2 + i].clone(), 1));
        }
    }
    let mut out: Vec<Check> = pairs
        .into_iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| Check::Equal(a, b))
        .collect();
    out.extend(more);
    Ok(out)
}

/// The kernel of a Conv or ConvTranspose: `kernel_shape`, else the
/// weight's kernel dims `w` (static or symbolic).
fn kernel_dims(attrs: &onnx_mlc_dialect::Attrs, w: &[Dim]) -> Vec<Dim> {
    match attrs.ints("kernel_shape") {
        Some(k) => k.iter().map(|&k| Dim::Known(k)).collect(),
        None => w.to_vec(),
    }
}

/// The dilated extent `(k − 1)·dil + 1` of a kernel size `k`.
fn extent_dim(k: &Dim, dilation: i64) -> Dim {
    k.sub(&Dim::Known(1)).scale(dilation).add(&Dim::Known(1))
}

impl Window {
    /// Reads `strides`, `dilations`, `pads` and `auto_pad` of `op` for a
    /// window of `kernel` sliding over `input` to give `output`.
    pub(crate) fn read(
        kb: &KernelBuilder,
        op: OpId,
        kernel: Vec<i64>,
        input: &[i64],
        output: &[i64],
    ) -> Result<Window> {
        let attrs = &kb.model.ir.op(op).attrs;
        let r = kernel.len();
        let ones = vec![1; r];
        let strides = attrs.ints("strides").map_or(ones.clone(), <[i64]>::to_vec);
        let dilations = attrs.ints("dilations").map_or(ones, <[i64]>::to_vec);
        if strides.len() != r || dilations.len() != r {
            return Err(unsupported(kb, op, "strides/dilations of the wrong length"));
        }
        let (begin, end) = match attrs.string("auto_pad").unwrap_or("NOTSET") {
            "NOTSET" => match attrs.ints("pads") {
                Some(p) if p.len() == 2 * r => (p[..r].to_vec(), p[r..].to_vec()),
                Some(_) => return Err(unsupported(kb, op, "pads of the wrong length")),
                None => (vec![0; r], vec![0; r]),
            },
            "VALID" => (vec![0; r], vec![0; r]),
            mode @ ("SAME_UPPER" | "SAME_LOWER") => {
                let mut begin = vec![];
                let mut end = vec![];
                for i in 0..r {
                    if [input[i], output[i], kernel[i]].contains(&DYNAMIC) {
                        // Computed at run time ([`Window::extents`]).
                        begin.push(0);
                        end.push(0);
                        continue;
                    }
                    let span = (kernel[i] - 1) * dilations[i] + 1;
                    let total = ((output[i] - 1) * strides[i] + span - input[i]).max(0);
                    let small = total / 2;
                    let b = if mode == "SAME_UPPER" {
                        small
                    } else {
                        total - small
                    };
                    begin.push(b);
                    end.push(total - b);
                }
                (begin, end)
            }
            other => {
                return Err(unsupported(
                    kb,
                    op,
                    &format!("auto_pad '{other}' is not lowered"),
                ))
            }
        };
        let auto_pad = attrs.string("auto_pad").unwrap_or("NOTSET");
        Ok(Window {
            kernel,
            strides,
            dilations,
            begin,
            end,
            input: input.to_vec(),
            output: output.to_vec(),
            same: auto_pad
                .starts_with("SAME")
                .then_some(auto_pad == "SAME_UPPER"),
            ceil_mode: attrs.int("ceil_mode").unwrap_or(0) != 0,
        })
    }

    /// Whether some window position may fall outside the input. Over a
    /// symbolic size, only a window without padding and without
    /// `ceil_mode` provably stays inside (its output size being the one
    /// inference gives, checked at run time: [`window_checks`]).
    pub(crate) fn leaves_input(&self) -> bool {
        (0..self.kernel.len()).any(|i| {
            if [self.input[i], self.output[i], self.kernel[i]].contains(&DYNAMIC) {
                return self.begin[i] > 0
                    || self.end[i] > 0
                    || self.same.is_some()
                    || self.ceil_mode;
            }
            self.begin[i] > 0
                || (self.output[i] - 1) * self.strides[i] + (self.kernel[i] - 1) * self.dilations[i]
                    - self.begin[i]
                    >= self.input[i]
        })
    }

    /// Whether every size of the window is static.
    fn is_static(&self) -> bool {
        ![&self.kernel, &self.input, &self.output]
            .iter()
            .any(|v| v.contains(&DYNAMIC))
    }

    /// The window's run-time sizes for input `x`, output `y` and the
    /// kernel of `weight` (a symbolic kernel size is the weight's; pools
    /// have none): static where the types are, else evaluated from the
    /// symbols; the SAME padding of a symbolic size is `max(0, (out −
    /// 1)·s + span − in)`, the smaller half first with SAME_UPPER.
    pub(crate) fn extents<'c, 'a>(
        &self,
        kb: &KernelBuilder<'c, 'a>,
        x: Value,
        y: Value,
        weight: Option<Value>,
    ) -> Result<Extents<'c, 'a>> {
        let e = kb.e;
        let (xs, ys) = (kb.sizes(x)?, kb.sizes(y)?);
        let ks = match weight {
            Some(w) => kb.sizes(w)?[2..].to_vec(),
            None => vec![],
        };
        let mut out = Extents {
            input: vec![],
            begin: vec![],
            end: vec![],
        };
        for i in 0..self.kernel.len() {
            let (input, output) = (xs[2 + i], ys[2 + i]);
            let symbolic = input.type_dim() == DYNAMIC
                || output.type_dim() == DYNAMIC
                || self.kernel[i] == DYNAMIC;
            let (begin, end) = match self.same {
                Some(upper) if symbolic => {
                    let kernel = match self.kernel[i] {
                        DYNAMIC => ks[i],
                        k => Size::Static(k),
                    };
                    let span = span_of(&e, kernel, self.dilations[i]);
                    let last = e.subi(output.value(&e), e.index(1));
                    let last = e.muli(last, e.index(self.strides[i]));
                    let reach = e.addi(last, span);
                    let total = e.subi(reach, input.value(&e));
                    let total = e.maxsi(total, e.index(0));
                    let small = e.divsi(total, e.index(2));
                    let big = e.subi(total, small);
                    let (b, a) = if upper { (small, big) } else { (big, small) };
                    (Size::Dynamic(b), Size::Dynamic(a))
                }
                _ => (Size::Static(self.begin[i]), Size::Static(self.end[i])),
            };
            out.input.push(input);
            out.begin.push(begin);
            out.end.push(end);
        }
        Ok(out)
    }

    /// The input positions of output `o` along dim `i` that lie in
    /// `[lo, hi)`, counted.
    fn count(&self, i: usize, o: i64, lo: i64, hi: i64) -> i64 {
        (0..self.kernel[i])
            .map(|k| o * self.strides[i] + k * self.dilations[i] - self.begin[i])
            .filter(|p| (lo..hi).contains(p))
            .count() as i64
    }
}

/// The dilated extent `(k − 1)·dil + 1` of a kernel size `k`, as an
/// `index`.
fn span_of<'c, 'a>(e: &Emitter<'c, 'a>, k: Size<'c, 'a>, dilation: i64) -> MValue<'c, 'a> {
    match k {
        Size::Static(k) => e.index((k - 1) * dilation + 1),
        Size::Dynamic(k) => {
            let last = e.subi(k, e.index(1));
            let spread = e.muli(last, e.index(dilation));
            e.addi(spread, e.index(1))
        }
    }
}

/// A loop nest being described: the loops of a `linalg.generic` (each
/// parallel or reducing) and maps over them.
struct Loops<'c> {
    cx: &'c Context,
    reduction: Vec<bool>,
}

impl<'c> Loops<'c> {
    fn new(cx: &'c Context) -> Loops<'c> {
        Loops {
            cx,
            reduction: vec![],
        }
    }

    /// `n` parallel loops.
    fn parallel(cx: &'c Context, n: usize) -> Loops<'c> {
        Loops {
            cx,
            reduction: vec![false; n],
        }
    }

    /// Adds a loop, returns its dim number.
    fn add(&mut self, reduction: bool) -> usize {
        self.reduction.push(reduction);
        self.reduction.len() - 1
    }

    /// Loop dim `i`.
    fn d(&self, i: usize) -> Expr<'c> {
        d(self.cx, i)
    }

    /// The map of `exprs` over the loops.
    fn map(&self, exprs: &[Expr<'c>]) -> AffineMap<'c> {
        map(self.cx, self.reduction.len(), exprs)
    }

    /// The map reading loop dims `dims`.
    fn dims(&self, dims: impl IntoIterator<Item = usize>) -> AffineMap<'c> {
        projection(self.cx, self.reduction.len(), dims)
    }

    /// The identity map over the loops.
    fn identity(&self) -> AffineMap<'c> {
        identity_map(self.cx, self.reduction.len())
    }
}

/// Fills `init` (of rank `rank`) with `value`, or with the per-channel
/// `bias` (`[C]`, along dim 1) when given; tagged `omlc.init`.
fn fill<'c, 'a>(
    kb: &KernelBuilder<'c, 'a>,
    init: MValue<'c, 'a>,
    rank: usize,
    value: Option<f64>,
    bias: Option<MValue<'c, 'a>>,
    integer_identity: Option<(bool, u32)>,
) -> MValue<'c, 'a> {
    let e = kb.e;
    let loops = Loops::parallel(e.cx, rank);
    let ins = match bias {
        Some(b) => vec![(b, loops.dims([1]))],
        None => vec![],
    };
    let has_bias = bias.is_some();
    let outs = [(init, loops.identity())];
    let mut op = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        let ty = args.last().expect("the output").r#type();
        let v = if has_bias {
            // A half-precision bias into an f32 accumulator.
            half::widen(be, args[0])
        } else {
            match integer_identity {
                Some((signed, bits)) => {
                    let min = if signed { i64::MIN >> (64 - bits) } else { 0 };
                    be.i(ty, min)
                }
                None if ty.is_integer() => be.i(ty, value.unwrap_or(0.0) as i64),
                None => be.f(ty, value.unwrap_or(0.0)),
            }
        };
        vec![v]
    });
    op.set_attribute("omlc.init", unit(e.cx));
    e.value(op)
}

/// The input position `o·s + k·d − begin` of spatial dim `i`.
fn position<'c, 'b>(
    be: Emitter<'c, 'b>,
    w: &Window,
    ext: &Extents<'c, '_>,
    i: usize,
    o_dim: usize,
    k_dim: usize,
) -> MValue<'c, 'b> {
    let o = be.loop_index(o_dim);
    let k = be.loop_index(k_dim);
    let os = be.muli(o, be.index(w.strides[i]));
    let kd = be.muli(k, be.index(w.dilations[i]));
    let p = be.addi(os, kd);
    sized(be, ext.begin[i], |b| be.subi(p, b))
}

/// The input positions of the current window element inside a body, 0
/// where one leaves the input, and whether all lie inside it.
fn window_positions<'c, 'b>(
    be: Emitter<'c, 'b>,
    (w, ext): (&Window, &Extents<'c, '_>),
    o_dims: &[usize],
    k_dims: &[usize],
) -> (Vec<MValue<'c, 'b>>, MValue<'c, 'b>) {
    let mut positions = vec![];
    let mut inside: Option<MValue> = None;
    let zero = be.index(0);
    for i in 0..w.kernel.len() {
        let p = position(be, w, ext, i, o_dims[i], k_dims[i]);
        // Unsigned: a negative position compares above the extent.
        let ok = sized(be, ext.input[i], |n| be.cmpi(CmpiPredicate::Ult, p, n));
        positions.push(be.select(ok, p, zero));
        inside = Some(match inside {
            Some(all) => be.andi(all, ok),
            None => ok,
        });
    }
    (positions, inside.expect("at least one spatial dim"))
}

/// Reads `x[n, c, positions…]` inside a body, `outside` where the window
/// leaves the input.
#[allow(clippy::too_many_arguments)]
fn read_window<'c, 'b>(
    be: Emitter<'c, 'b>,
    x: MValue<'c, '_>,
    n: MValue<'c, 'b>,
    c: MValue<'c, 'b>,
    window: (&Window, &Extents<'c, '_>),
    o_dims: &[usize],
    k_dims: &[usize],
    outside: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let (positions, inside) = window_positions(be, window, o_dims, k_dims);
    let mut indices = vec![n, c];
    indices.extend(positions);
    let v = be.extract(x, &indices);
    be.select(inside, v, outside)
}

/// The affine expressions reading the input through the window without
/// padding: `o·s + k·d` per spatial dim.
fn window_exprs<'c>(
    loops: &Loops<'c>,
    w: &Window,
    o_dims: &[usize],
    k_dims: &[usize],
) -> Vec<Expr<'c>> {
    (0..w.kernel.len())
        .map(|i| loops.d(o_dims[i]) * w.strides[i] + loops.d(k_dims[i]) * w.dilations[i])
        .collect()
}

/// The operands of an integer convolution (ConvInteger, QLinearConv):
/// the input and the weights, zero points subtracted, and the tensor to
/// accumulate into, all `i32`.
pub(crate) struct IntConv<'c, 'a> {
    /// The input, `[N, C, D…]`.
    pub x: MValue<'c, 'a>,
    /// The weights, `[M, C/group, K…]`.
    pub w: MValue<'c, 'a>,
    /// The op's weights input (whose shape `w` has).
    pub weights: Value,
    /// The accumulator, the output's shape.
    pub init: MValue<'c, 'a>,
    /// The `i32` bias, `[M]`.
    pub bias: Option<MValue<'c, 'a>>,
}

/// The kernel of a Conv or ConvTranspose of weight kernel dims `wd`
/// ([`DYNAMIC`] where symbolic): `kernel_shape`, which a symbolic weight
/// dim is checked to equal at run time ([`window_checks`],
/// [`conv_transpose_checks`]), else the weight's, its symbolic sizes
/// read at run time.
fn kernel_sizes(kb: &KernelBuilder, op: OpId, wd: &[i64]) -> Result<Vec<i64>> {
    match kb.model.ir.op(op).attrs.ints("kernel_shape") {
        Some(ks)
            if ks.len() == wd.len() && ks.iter().zip(wd).all(|(k, d)| k == d || *d == DYNAMIC) =>
        {
            Ok(ks.to_vec())
        }
        Some(_) => Err(unsupported(kb, op, "kernel_shape differs from W's")),
        None => Ok(wd.to_vec()),
    }
}

/// Lowers a Conv (or the convolution of a FusedConv): returns its result
/// tensor without defining it.
pub(crate) fn conv<'c, 'a>(kb: &mut KernelBuilder<'c, 'a>, op: OpId) -> Result<MValue<'c, 'a>> {
    conv_with(kb, op, None)
}

/// [`conv`] of op `op`'s geometry, over the op's own float operands and
/// bias or, given `ints`, over integer ones (with the window's
/// general form: the GEMM form is for f32).
pub(crate) fn conv_with<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    op: OpId,
    ints: Option<IntConv<'c, 'a>>,
) -> Result<MValue<'c, 'a>> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let wv = ints
        .as_ref()
        .map_or(data.inputs[1], |i| Some(i.weights))
        .expect("W is required");
    let bias = data.inputs.get(2).copied().flatten();
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let (wd, _) = kb.shape(wv)?;
    let (yd, _) = kb.shape(y)?;
    if !elem.is_float() && ints.is_none() {
        return Err(unsupported(kb, op, "only float convolutions are lowered"));
    }
    // Half-precision convolutions accumulate in an f32 temporary (a
    // producer), rounded once per element into the result (the root), as
    // the references compute them.
    let half = half::is_half(elem) && ints.is_none();
    if xd.len() < 3 {
        return Err(unsupported(kb, op, "a convolution needs spatial dims"));
    }
    let r = xd.len() - 2;
    let group = data.attrs.int("group").unwrap_or(1);
    let (m, cg) = (wd[0], wd[1]);
    let fg = m / group;
    // A symbolic kernel size is `kernel_shape`'s (checked at run time,
    // [`window_checks`]).
    let kernel = kernel_sizes(kb, op, &wd[2..])?;
    let w = Window::read(kb, op, kernel, &xd[2..], &yd[2..])?;
    if w.is_static() && !wd.contains(&DYNAMIC) && gemm_form(&xd, group, elem) && ints.is_none() {
        return conv_gemm(kb, x, wv, bias, y, &wd, &yd, &w);
    }
    let e = kb.e;
    let (xt, wt, init, bias) = match ints {
        Some(i) => (i.x, i.w, i.init, i.bias),
        None => (
            kb.tensor(x),
            kb.tensor(wv),
            if half {
                kb.empty(&kb.sizes(y)?, ElemType::F32)?
            } else {
                kb.init(y)?
            },
            bias.map(|b| kb.tensor(b)),
        ),
    };
    let init = fill(kb, init, yd.len(), Some(0.0), bias, None);
    let ext = w.extents(kb, x, y, Some(wv))?;
    // The channel counts per group (run-time values when symbolic: the
    // output channels are checked to be a multiple of `group`).
    let w_sizes = kb.sizes(wv)?;
    let group_sizes = match w_sizes[0] {
        Size::Dynamic(v) => Size::Dynamic(e.divsi(v, e.index(group))),
        Size::Static(_) => Size::Static(fg),
    };
    let channel_sizes = w_sizes[1];
    // Loops: n, m, o…, c, k….
    let mut loops = Loops::new(e.cx);
    let dn = loops.add(false);
    let dm = loops.add(false);
    let o_dims: Vec<usize> = (0..r).map(|_| loops.add(false)).collect();
    let dc = loops.add(true);
    let k_dims: Vec<usize> = (0..r).map(|_| loops.add(true)).collect();
    let mut out_dims = vec![dn, dm];
    out_dims.extend(&o_dims);
    let out_map = loops.dims(out_dims);
    let mut w_dims = vec![dm, dc];
    w_dims.extend(&k_dims);
    let w_map = loops.dims(w_dims);
    let d = |i: usize| loops.d(i);
    let channel = if group == 1 {
        d(dc)
    } else if fg == 1 {
        d(dm) * cg + d(dc)
    } else {
        d(dm).floordiv(fg) * cg + d(dc)
    };
    let symbolic_groups = group != 1 && (m == DYNAMIC || cg == DYNAMIC);
    let conv = if w.leaves_input() || symbolic_groups {
        let win = w.clone();
        let outs = [(init, out_map)];
        generic(e, &[(wt, w_map)], &outs, &loops.reduction, |be, args| {
            let ty = args[0].r#type();
            let n = be.loop_index(dn);
            let c = be.loop_index(dc);
            let c = if group == 1 {
                c
            } else {
                let mi = be.loop_index(dm);
                let g = sized(be, group_sizes, |fg| be.divui(mi, fg));
                let base = sized(be, channel_sizes, |cg| be.muli(g, cg));
                be.addi(base, c)
            };
            let window = (&win, &ext);
            let xv = read_window(be, xt, n, c, window, &o_dims, &k_dims, zero(be, ty));
            vec![be.multiply_add(args[1], half::widen(be, xv), half::widen(be, args[0]))]
        })
    } else {
        let mut x_exprs = vec![d(dn), channel];
        x_exprs.extend(window_exprs(&loops, &w, &o_dims, &k_dims));
        let ins = [(xt, loops.map(&x_exprs)), (wt, w_map)];
        generic(e, &ins, &[(init, out_map)], &loops.reduction, |be, args| {
            let (xv, wv) = (half::widen(be, args[0]), half::widen(be, args[1]));
            vec![be.multiply_add(args[2], xv, wv)]
        })
    };
    if half {
        let sum: MValue = kb.producer(conv).result(0).expect("one result").into();
        let out_ty = elem_type(e.cx, elem)?;
        let parallel = Loops::parallel(e.cx, yd.len());
        let narrowed = generic(
            e,
            &[(sum, parallel.identity())],
            &[(kb.init(y)?, parallel.identity())],
            &parallel.reduction,
            |be, args| vec![half::narrow(be, args[0], out_ty)],
        );
        let producers = kb.producers();
        let root = kb.root(
            narrowed,
            Schedule::Fused {
                loops: yd.iter().map(|&d| (d, true)).collect(),
                producers,
                epilogue: false,
            },
        );
        return Ok(root.result(0).expect("one result").into());
    }
    let per_channel = work(&[&xd[..1], &w.output, &[cg], &w.kernel]);
    let root = kb.root(
        conv,
        Schedule::Window {
            channels: m,
            work_per_channel: per_channel,
            epilogues: 0,
        },
    );
    Ok(root.result(0).expect("one result").into())
}

/// The product of `sizes`, a schedule's work estimate: a symbolic size
/// (whose kernel is not scheduled) counts as 1.
fn work(sizes: &[&[i64]]) -> i64 {
    sizes
        .iter()
        .flat_map(|s| s.iter())
        .filter(|&&d| d != DYNAMIC)
        .product()
}

/// The zero of scalar type `ty`, float or integer.
fn zero<'c, 'b>(be: Emitter<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
    if ty.is_integer() {
        be.i(ty, 0)
    } else {
        be.f(ty, 0.0)
    }
}

/// Whether a convolution takes the GEMM form ([`conv_gemm`]): one image,
/// one group, f32.
fn gemm_form(xd: &[i64], group: i64, elem: ElemType) -> bool {
    xd[0] == 1 && group == 1 && elem == ElemType::F32
}

/// The GEMM form of a convolution of one image with one group:
/// `y[0, m, o…] = Σ_k Wc[m, k] · col[k, o…]`, with `Wc` the weight seen as
/// `[M, K]` (`K = C·∏kernel`, a view) and `col` the im2col matrix
/// `col[(c, j…), o…] = x[0, c, o·s + j·d − begin]` (0 in the padding),
/// built in a scratch buffer before the product. A 1×1 convolution with
/// unit strides and no padding reads `x` itself as `col`. The product is a
/// `linalg.generic` over `(n, m, o…, k)` with projected-permutation maps,
/// so that the schedule (`Schedule::ConvGemm`) can give it the register
/// tiling and vectorization of a matrix product.
#[allow(clippy::too_many_arguments)]
fn conv_gemm<'c, 'a>(
    kb: &mut KernelBuilder<'c, 'a>,
    x: Value,
    wv: Value,
    bias: Option<Value>,
    y: Value,
    wd: &[i64],
    yd: &[i64],
    w: &Window,
) -> Result<MValue<'c, 'a>> {
    let e = kb.e;
    let r = w.kernel.len();
    let m = wd[0];
    let k: i64 = wd[1..].iter().product();
    let f32t = elem_type(e.cx, ElemType::F32)?;
    let merged: Vec<i64> = (1..=r as i64 + 1).collect();
    let wc = e.collapse_shape(
        kb.tensor(wv),
        &[vec![0], merged],
        ranked_tensor(&[m, k], f32t),
    );
    let direct = w.kernel.iter().all(|&s| s == 1)
        && w.strides.iter().all(|&s| s == 1)
        && !w.leaves_input()
        && w.output == w.input;
    let xt = kb.tensor(x);
    let out = &yd[2..];
    let rhs = if direct {
        xt
    } else {
        let mut dims = vec![k];
        dims.extend(out);
        let scratch = e.empty(&Size::statics(&dims), f32t);
        let loops = Loops::parallel(e.cx, r + 1);
        let win = w.clone();
        let outs = [(scratch, loops.identity())];
        let mut col = generic(e, &[], &outs, &loops.reduction, |be, args| {
            let ty = args[0].r#type();
            let zero = be.index(0);
            // k = (c·k1 + j1)·k2 + j2 …: peel the kernel offsets.
            let mut rest = be.loop_index(0);
            let mut offsets = vec![zero; r];
            for i in (0..r).rev() {
                offsets[i] = be.remui(rest, be.index(win.kernel[i]));
                rest = be.divui(rest, be.index(win.kernel[i]));
            }
            let mut indices = vec![zero, rest];
            let mut inside: Option<MValue> = None;
            for (i, &j) in offsets.iter().enumerate() {
                let o = be.loop_index(1 + i);
                let os = be.muli(o, be.index(win.strides[i]));
                let jd = be.muli(j, be.index(win.dilations[i]));
                let p = be.addi(os, jd);
                let p = be.subi(p, be.index(win.begin[i]));
                let ok = be.cmpi(CmpiPredicate::Ult, p, be.index(win.input[i]));
                indices.push(be.select(ok, p, zero));
                inside = Some(match inside {
                    Some(all) => be.andi(all, ok),
                    None => ok,
                });
            }
            let v = be.extract(xt, &indices);
            vec![be.select(inside.expect("spatial dims"), v, be.f(ty, 0.0))]
        });
        col.set_attribute("omlc.col", unit(e.cx));
        e.value(col)
    };
    let init = kb.init(y)?;
    let init = fill(
        kb,
        init,
        yd.len(),
        Some(0.0),
        bias.map(|b| kb.tensor(b)),
        None,
    );
    // Loops: n, m, o…, k.
    let mut loops = Loops::parallel(e.cx, 2 + r);
    let dk = loops.add(true);
    let mut rhs_dims = if direct { vec![0, dk] } else { vec![dk] };
    rhs_dims.extend(2..2 + r);
    let ins = [(wc, loops.dims([1, dk])), (rhs, loops.dims(rhs_dims))];
    let outs = [(init, loops.dims(0..2 + r))];
    let product = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        // A multiply and an add (not `math.fma`): the vectorizer
        // recognizes the pair as a contraction, which tiles of several
        // reduction steps need (`Schedule::ConvGemm`); it emits FMAs.
        vec![be.multiply_add(args[2], args[0], args[1])]
    });
    let root = kb.root(
        product,
        Schedule::ConvGemm {
            channels: m,
            reduction: k,
            spatial: out.to_vec(),
            col: !direct,
            epilogues: 0,
        },
    );
    Ok(root.result(0).expect("one result").into())
}

/// Lowers a Conv.
pub(crate) fn lower_conv(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let y = kb.model.ir.op(op).results[0].expect("Y is produced");
    let result = conv(kb, op)?;
    kb.define(y, result);
    Ok(())
}

/// The reduction a pooling op computes.
#[derive(Copy, Clone, PartialEq)]
enum Pool {
    Max,
    Average,
    Lp(i64),
}

/// Lowers MaxPool, AveragePool, LpPool and their Global forms.
pub(crate) fn lower_pool(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    use OpKind::{AveragePool, GlobalAveragePool, GlobalLpPool, GlobalMaxPool, MaxPool};
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let (yd, _) = kb.shape(y)?;
    if xd.len() < 3 {
        return Err(unsupported(kb, op, "pooling needs spatial dims"));
    }
    let pool = match data.kind {
        MaxPool | GlobalMaxPool => Pool::Max,
        AveragePool | GlobalAveragePool => Pool::Average,
        _ => Pool::Lp(data.attrs.int("p").unwrap_or(2)),
    };
    if !elem.is_float() && pool != Pool::Max {
        return Err(unsupported(kb, op, "integer pooling other than max"));
    }
    let r = xd.len() - 2;
    let w = match data.kind {
        GlobalAveragePool | GlobalMaxPool | GlobalLpPool => Window {
            kernel: xd[2..].to_vec(),
            strides: vec![1; r],
            dilations: vec![1; r],
            begin: vec![0; r],
            end: vec![0; r],
            input: xd[2..].to_vec(),
            output: yd[2..].to_vec(),
            same: None,
            ceil_mode: false,
        },
        _ => {
            let Some(kernel) = data.attrs.ints("kernel_shape") else {
                return Err(unsupported(kb, op, "kernel_shape is required"));
            };
            Window::read(kb, op, kernel.to_vec(), &xd[2..], &yd[2..])?
        }
    };
    if w.kernel.len() != r {
        return Err(unsupported(kb, op, "kernel_shape of the wrong length"));
    }
    if let Some(indices) = data.results.get(1).copied().flatten() {
        return max_pool_with_indices(kb, op, &w, indices);
    }
    let e = kb.e;
    let init = kb.init(y)?;
    let int_identity = (!elem.is_float()).then(|| (elem.is_signed_int(), elem.bit_width()));
    let identity_value = match pool {
        Pool::Max => f64::NEG_INFINITY,
        _ => 0.0,
    };
    let init = fill(kb, init, yd.len(), Some(identity_value), None, int_identity);
    let mut loops = Loops::new(e.cx);
    let dn = loops.add(false);
    let dc = loops.add(false);
    let o_dims: Vec<usize> = (0..r).map(|_| loops.add(false)).collect();
    let k_dims: Vec<usize> = (0..r).map(|_| loops.add(true)).collect();
    let mut out_dims = vec![dn, dc];
    out_dims.extend(&o_dims);
    let out_map = loops.dims(out_dims);
    // AveragePool's divisor: one per output position, constant when every
    // window covers the same number of counted positions.
    // Over symbolic sizes: the kernel's size where no window leaves the
    // input (a run-time product for a global pool), else counted per
    // position with run-time bounds.
    let include_pad = data.attrs.int("count_include_pad").unwrap_or(0) != 0;
    let ext = w.extents(kb, x, y, None)?;
    let bounds = bounds_of(e, &ext, include_pad);
    let leaves = w.leaves_input();
    let kernel_sizes: Vec<Size> = match data.kind {
        GlobalAveragePool | GlobalMaxPool | GlobalLpPool => ext.input.clone(),
        _ => w.kernel.iter().map(|&k| Size::Static(k)).collect(),
    };
    let uniform_count = if w.is_static() {
        (0..r)
            .map(|i| {
                let (Size::Static(lo), Size::Static(hi)) = bounds[i] else {
                    unreachable!("a static window has static bounds")
                };
                let first = w.count(i, 0, lo, hi);
                (0..w.output[i])
                    .all(|o| w.count(i, o, lo, hi) == first)
                    .then_some(first)
            })
            .try_fold(1i64, |acc, c| c.map(|c| acc * c))
            .map(Size::Static)
    } else if !leaves {
        Some(
            kernel_sizes
                .iter()
                .fold(Size::Static(1), |acc, &k| acc.times(k, &e)),
        )
    } else {
        None
    };
    let signed = elem.is_signed_int();
    let float = elem.is_float();
    let xt = kb.tensor(x);
    let win = w.clone();
    // The window's extents come from a shape-only operand (as in linalg's
    // pooling ops): the k loops appear in no other operand's map.
    let shape = kb.empty(&kernel_sizes, elem)?;
    let k_map = loops.dims(k_dims.iter().copied());
    let ins = if leaves {
        vec![(shape, k_map)]
    } else {
        let mut x_exprs = vec![loops.d(dn), loops.d(dc)];
        x_exprs.extend(window_exprs(&loops, &w, &o_dims, &k_dims));
        vec![(xt, loops.map(&x_exprs)), (shape, k_map)]
    };
    let outs = [(init, out_map)];
    let window_op = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        let acc = *args.last().expect("the output");
        let ty = acc.r#type();
        let xv = if leaves {
            let n = be.loop_index(dn);
            let c = be.loop_index(dc);
            let outside = if float {
                be.f(ty, identity_value)
            } else {
                let bits = elem.bit_width();
                be.i(ty, if signed { i64::MIN >> (64 - bits) } else { 0 })
            };
            read_window(be, xt, n, c, (&win, &ext), &o_dims, &k_dims, outside)
        } else {
            args[0]
        };
        let v = match pool {
            Pool::Max if float => be.maximumf(acc, xv),
            Pool::Max if signed => be.maxsi(acc, xv),
            Pool::Max => be.maxui(acc, xv),
            Pool::Average => {
                let scale = match uniform_count {
                    Some(Size::Static(c)) => be.f(ty, 1.0 / c as f64),
                    Some(Size::Dynamic(count)) => be.divf(be.f(ty, 1.0), count_to(be, count, ty)),
                    None => {
                        let count = window_count(be, (&win, &ext), &o_dims, &bounds);
                        be.divf(be.f(ty, 1.0), count_to(be, count, ty))
                    }
                };
                be.addf(acc, be.mulf(xv, scale))
            }
            Pool::Lp(p) => {
                let a = be.absf(xv);
                let t = match p {
                    1 => a,
                    2 => be.mulf(a, a),
                    p => be.powf(a, be.f(ty, p as f64)),
                };
                be.addf(acc, t)
            }
        };
        vec![v]
    });
    let per_channel = work(&[&xd[..1], &w.output, &w.kernel]);
    let root = kb.root(
        window_op,
        Schedule::Window {
            channels: xd[1],
            work_per_channel: per_channel,
            epilogues: 0,
        },
    );
    let mut result: MValue = root.result(0).expect("one result").into();
    if let Pool::Lp(p) = pool {
        if p != 1 {
            let loops = Loops::parallel(e.cx, yd.len());
            let outs = [(result, loops.identity())];
            let root_op = generic(e, &[], &outs, &loops.reduction, |be, args| {
                let ty = args[0].r#type();
                vec![if p == 2 {
                    be.sqrt(args[0])
                } else {
                    be.powf(args[0], be.f(ty, 1.0 / p as f64))
                }]
            });
            let bits = elem.bit_width();
            result = kb
                .elementwise(root_op, &yd, bits)
                .result(0)
                .expect("one result")
                .into();
        }
    }
    kb.define(y, result);
    Ok(())
}

/// Lowers a MaxPool whose `Indices` result is used (8–22): one window
/// reduction into the values and their indices, scanning each window in
/// kernel order and keeping the first largest element inside the input,
/// as the reference does. An index counts the elements of the input
/// before the one taken, with the spatial dims row-major
/// (`storage_order = 0`) or column-major (1): `(n·C + c)·P + Σ p_i·s_i`
/// for `P` positions per channel and strides `s_i` of the run-time sizes.
fn max_pool_with_indices(
    kb: &mut KernelBuilder,
    op: OpId,
    w: &Window,
    indices: Value,
) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let x = data.inputs[0].expect("X is required");
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let r = xd.len() - 2;
    let column_major = data.attrs.int("storage_order").unwrap_or(0) != 0;
    let ext = w.extents(kb, x, y, None)?;
    let xs = kb.sizes(x)?;
    let e = kb.e;
    // Each spatial dim's stride in the flat index, then the channel's.
    let mut strides = vec![Size::Static(1); r];
    let order: Vec<usize> = if column_major {
        (0..r).collect()
    } else {
        (0..r).rev().collect()
    };
    let mut step = Size::Static(1);
    for &i in &order {
        strides[i] = step;
        step = step.times(xs[2 + i], &e);
    }
    let (channels, per_channel) = (xs[1], step);
    let float = elem.is_float();
    let int_identity = (!float).then(|| (elem.is_signed_int(), elem.bit_width()));
    let (rank, values) = (xd.len(), kb.init(y)?);
    let values = fill(
        kb,
        values,
        rank,
        Some(f64::NEG_INFINITY),
        None,
        int_identity,
    );
    let at = kb.init(indices)?;
    let at = fill(kb, at, rank, Some(-1.0), None, None);
    let kernel: Vec<Size> = w.kernel.iter().map(|&k| Size::Static(k)).collect();
    let shape = kb.empty(&kernel, elem)?;
    let xt = kb.tensor(x);
    let e = kb.e;
    let mut reduction = vec![false; rank];
    reduction.extend(vec![true; r]);
    let n_loops = reduction.len();
    let out_map = projection(e.cx, n_loops, 0..rank);
    let k_map = projection(e.cx, n_loops, rank..n_loops);
    let (o_dims, k_dims): (Vec<usize>, Vec<usize>) =
        ((2..rank).collect(), (rank..n_loops).collect());
    let signed = elem.is_signed_int();
    let win = (w, &ext);
    let g = generic(
        e,
        &[(shape, k_map)],
        &[(values, out_map), (at, out_map)],
        &reduction,
        |be, args| {
            let (acc, acc_at) = (args[1], args[2]);
            let (n, c) = (be.loop_index(0), be.loop_index(1));
            let (positions, inside) = window_positions(be, win, &o_dims, &k_dims);
            let mut element = vec![n, c];
            element.extend(positions.iter().copied());
            let v = be.extract(xt, &element);
            // (n·C + c)·P + Σ p_i·s_i.
            let image = sized(be, channels, |ch| be.muli(n, ch));
            let image = be.addi(image, c);
            let mut flat = sized(be, per_channel, |p| be.muli(image, p));
            for (i, &p) in positions.iter().enumerate() {
                let term = sized(be, strides[i], |s| be.muli(p, s));
                flat = be.addi(flat, term);
            }
            let flat = be.index_cast(flat, be.int_type(64));
            let larger = match (float, signed) {
                (true, _) => be.cmpf(CmpfPredicate::Ogt, v, acc),
                (false, true) => be.cmpi(CmpiPredicate::Sgt, v, acc),
                (false, false) => be.cmpi(CmpiPredicate::Ugt, v, acc),
            };
            let none = be.cmpi(CmpiPredicate::Eq, acc_at, be.i(be.int_type(64), -1));
            let take = be.ori(larger, none);
            let take = be.andi(take, inside);
            vec![be.select(take, v, acc), be.select(take, flat, acc_at)]
        },
    );
    let root = kb.root(g, Schedule::Generic { outer: None });
    kb.define(y, root.result(0).expect("the values").into());
    kb.define(indices, root.result(1).expect("the indices").into());
    Ok(())
}

/// The counted range `[lo, hi)` of input positions per spatial dim: the
/// input, or with `include_pad` the padded input.
fn bounds_of<'c, 'a>(
    e: Emitter<'c, 'a>,
    ext: &Extents<'c, 'a>,
    include_pad: bool,
) -> Vec<(Size<'c, 'a>, Size<'c, 'a>)> {
    (0..ext.input.len())
        .map(|i| match (ext.input[i], ext.begin[i], ext.end[i]) {
            (input, _, _) if !include_pad => (Size::Static(0), input),
            (Size::Static(n), Size::Static(b), Size::Static(a)) => {
                (Size::Static(-b), Size::Static(n + a))
            }
            (input, begin, end) => (
                Size::Dynamic(e.subi(e.index(0), begin.value(&e))),
                Size::Dynamic(e.addi(input.value(&e), end.value(&e))),
            ),
        })
        .collect()
}

/// The number of window positions of the current output position inside
/// `bounds`, as an index: per dim, the `k` in `[0, K)` with
/// `lo ≤ o·s + k·d − begin < hi`.
fn window_count<'c, 'b>(
    be: Emitter<'c, 'b>,
    (w, ext): (&Window, &Extents<'c, '_>),
    o_dims: &[usize],
    bounds: &[(Size<'c, '_>, Size<'c, '_>)],
) -> MValue<'c, 'b> {
    let mut total = be.index(1);
    for (i, &(lo, hi)) in bounds.iter().enumerate() {
        let o = be.loop_index(o_dims[i]);
        let os = be.muli(o, be.index(w.strides[i]));
        let base = sized(be, ext.begin[i], |b| be.subi(os, b));
        let d = be.index(w.dilations[i]);
        let kmin = sized(be, lo, |lo| be.subi(lo, base));
        let kmin = be.ceildivsi(kmin, d);
        let kmin = be.maxsi(kmin, be.index(0));
        let kmax = sized(be, hi, |hi| be.subi(hi, base));
        let kmax = be.ceildivsi(kmax, d);
        let kmax = be.minsi(kmax, be.index(w.kernel[i]));
        let n = be.maxsi(be.subi(kmax, kmin), be.index(0));
        total = be.muli(total, n);
    }
    total
}

/// An index converted to float type `ty`.
fn count_to<'c, 'b>(be: Emitter<'c, 'b>, count: MValue<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
    let i64t = be.int_type(64);
    let as_int = be.index_cast(count, i64t);
    be.sitofp(as_int, ty)
}

#[cfg(test)]
mod tests {
    use super::Window;

    fn window(kernel: i64, stride: i64, pads: (i64, i64), input: i64, output: i64) -> Window {
        Window {
            kernel: vec![kernel],
            strides: vec![stride],
            dilations: vec![1],
            begin: vec![pads.0],
            end: vec![pads.1],
            input: vec![input],
            output: vec![output],
            same: None,
            ceil_mode: false,
        }
    }

    #[test]
    fn windows_that_leave_the_input() {
        assert!(!window(3, 1, (0, 0), 5, 3).leaves_input());
        assert!(window(3, 1, (1, 1), 5, 5).leaves_input());
        // ceil_mode: the last window runs past the end without end padding.
        assert!(window(2, 2, (0, 0), 5, 3).leaves_input());
    }

    #[test]
    fn average_pool_divisors() {
        let w = window(3, 1, (1, 1), 5, 5);
        // Without the padding: 2 positions at the borders, 3 inside.
        assert_eq!(w.count(0, 0, 0, 5), 2);
        assert_eq!(w.count(0, 2, 0, 5), 3);
        // With it (count_include_pad): always 3.
        assert_eq!(w.count(0, 0, -1, 6), 3);
    }
}

/// Lowers ConvTranspose (1, 11, 22): the gradient of a convolution,
/// `y[n, m, o…] = B[m] + Σ_{c, k…} x[n, c, i…] · W[c, m mod M/g, k…]`
/// over the input channels `c` of `m`'s group, where `o = i·s + k·d −
/// begin` — read the other way round, each output position takes the
/// input position `i = (o + begin − k·d) / s` when that division is exact
/// and `i` lies in the input, so the sum is a window reduction like Conv's
/// (`Schedule::Window`) with masked reads. `output_padding` and
/// `output_shape` only shape the output (already inferred); `begin`
/// comes from `pads`, or from `auto_pad` (SAME_UPPER puts the smaller half
/// first), else 0.
pub(crate) fn lower_conv_transpose(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let a = &data.attrs;
    let x = data.inputs[0].expect("X is required");
    let wv = data.inputs[1].expect("W is required");
    let bias = data.inputs.get(2).copied().flatten();
    let y = data.results[0].expect("Y is produced");
    let (xd, elem) = kb.shape(x)?;
    let (wd, _) = kb.shape(wv)?;
    let (yd, _) = kb.shape(y)?;
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return Err(unsupported(
            kb,
            op,
            "only f32/f64 transposed convolutions are lowered",
        ));
    }
    if xd.len() < 3 {
        return Err(unsupported(kb, op, "needs spatial dims"));
    }
    let r = xd.len() - 2;
    let group = a.int("group").unwrap_or(1);
    let kernel = kernel_sizes(kb, op, &wd[2..])?;
    let per_dim = |name: &str, default: i64| -> Vec<i64> {
        a.ints(name).map_or(vec![default; r], <[i64]>::to_vec)
    };
    let strides = per_dim("strides", 1);
    let dilations = per_dim("dilations", 1);
    let output_padding = per_dim("output_padding", 0);
    let e = kb.e;
    let (xs, ys, ws) = (kb.sizes(x)?, kb.sizes(y)?, kb.sizes(wv)?);
    // The kernel's run-time sizes (`kernel_shape`'s where it is given).
    let ks: Vec<Size> = (0..r)
        .map(|i| match kernel[i] {
            DYNAMIC => ws[2 + i],
            k => Size::Static(k),
        })
        .collect();
    // SAME: `total = s·(in − 1) + output_padding + extent − out`, its
    // floor half first with SAME_UPPER (at run time for symbolic sizes).
    let begin: Vec<Size> = match (a.ints("pads"), a.string("auto_pad").unwrap_or("NOTSET")) {
        (Some(p), _) => p[..r].iter().map(|&p| Size::Static(p)).collect(),
        (None, mode @ ("SAME_UPPER" | "SAME_LOWER")) => (0..r)
            .map(|i| {
                let upper = mode == "SAME_UPPER";
                match (xs[2 + i], ys[2 + i], ks[i]) {
                    (Size::Static(input), Size::Static(output), Size::Static(k)) => {
                        let extent = (k - 1) * dilations[i] + 1;
                        let total = strides[i] * (input - 1) + output_padding[i] + extent - output;
                        let half = total.div_euclid(2);
                        Size::Static(if upper { half } else { total - half })
                    }
                    (input, output, k) => {
                        let last = e.subi(input.value(&e), e.index(1));
                        let reach = e.muli(last, e.index(strides[i]));
                        let reach = e.addi(reach, span_of(&e, k, dilations[i]));
                        let reach = e.addi(reach, e.index(output_padding[i]));
                        let total = e.subi(reach, output.value(&e));
                        let half = e.floordivsi(total, e.index(2));
                        Size::Dynamic(if upper { half } else { e.subi(total, half) })
                    }
                }
            })
            .collect(),
        (None, "NOTSET" | "VALID") => vec![Size::Static(0); r],
        (None, m) => return Err(unsupported(kb, op, &format!("auto_pad {m:?}"))),
    };
    // Input channels per group and output channels per group: run-time
    // values where symbolic (the input's channels are checked to be the
    // weight's first dim, which `group` divides then by construction of
    // the output's: `conv_transpose_checks`).
    let (cg, mg) = match (xs[1], ws[1]) {
        (Size::Static(c), Size::Static(m)) => (Size::Static(c / group), Size::Static(m)),
        (c, m) => (Size::Dynamic(e.divsi(c.value(&e), e.index(group))), m),
    };
    let init = kb.init(y)?;
    let init = fill(
        kb,
        init,
        yd.len(),
        Some(0.0),
        bias.map(|b| kb.tensor(b)),
        None,
    );
    // Loops: n, m, o…, c, k….
    let mut loops = Loops::new(e.cx);
    let dn = loops.add(false);
    let dm = loops.add(false);
    let o_dims: Vec<usize> = (0..r).map(|_| loops.add(false)).collect();
    let dc = loops.add(true);
    let k_dims: Vec<usize> = (0..r).map(|_| loops.add(true)).collect();
    let d = |i: usize| loops.d(i);
    let mut out_dims = vec![dn, dm];
    out_dims.extend(&o_dims);
    let xt = kb.tensor(x);
    let wt = kb.tensor(wv);
    // W is read through its indexing map (one group, or static groups:
    // `[g·C/G + c, m mod M/G, k…]`), or with groups of symbolic size at
    // the coordinates computed in the body; an unread tensor of the
    // reduction's extents then gives linalg the loops' bounds.
    let mapped = match (cg, mg) {
        _ if group == 1 => Some(vec![d(dc), d(dm)]),
        (Size::Static(cg), Size::Static(mg)) => {
            Some(vec![d(dm).floordiv(mg) * cg + d(dc), d(dm) % mg])
        }
        _ => None,
    };
    let mut ins = vec![];
    if let Some(mut w_exprs) = mapped.clone() {
        w_exprs.extend(k_dims.iter().map(|&i| d(i)));
        ins.push((wt, loops.map(&w_exprs)));
    }
    if group > 1 {
        let mut extents = vec![cg];
        extents.extend(&ks);
        let mut dims = vec![dc];
        dims.extend(&k_dims);
        ins.push((kb.empty(&extents, elem)?, loops.dims(dims)));
    }
    let outs = [(init, loops.dims(out_dims))];
    let input = xs[2..].to_vec();
    let g = generic(e, &ins, &outs, &loops.reduction, |be, args| {
        let acc = *args.last().expect("the output");
        let ty = acc.r#type();
        let c = be.loop_index(dc);
        let c = if group == 1 {
            c
        } else {
            let m = be.loop_index(dm);
            let g = sized(be, mg, |mg| be.divui(m, mg));
            let first = sized(be, cg, |cg| be.muli(g, cg));
            be.addi(first, c)
        };
        let weight = if mapped.is_some() {
            args[0]
        } else {
            let m = be.loop_index(dm);
            let mut at = vec![c, sized(be, mg, |mg| be.remui(m, mg))];
            at.extend(k_dims.iter().map(|&k| be.loop_index(k)));
            be.extract(wt, &at)
        };
        let zero = be.index(0);
        let mut indices = vec![be.loop_index(dn), c];
        let mut inside: Option<MValue> = None;
        for i in 0..r {
            // num = o + begin − k·d; i = num / s when exact and in range.
            let o = be.loop_index(o_dims[i]);
            let k = be.loop_index(k_dims[i]);
            let kd = be.muli(k, be.index(dilations[i]));
            let shifted = sized(be, begin[i], |b| be.addi(o, b));
            let num = be.subi(shifted, kd);
            let s = be.index(strides[i]);
            let q = be.divsi(num, s);
            let exact = be.cmpi(CmpiPredicate::Eq, be.remsi(num, s), zero);
            // Unsigned: a negative quotient compares above the extent.
            let within = sized(be, input[i], |n| be.cmpi(CmpiPredicate::Ult, q, n));
            let ok = be.andi(exact, within);
            indices.push(be.select(ok, q, zero));
            inside = Some(match inside {
                Some(all) => be.andi(all, ok),
                None => ok,
            });
        }
        let v = be.extract(xt, &indices);
        let v = be.select(inside.expect("a spatial dim"), v, be.f(ty, 0.0));
        let prod = be.mulf(v, weight);
        vec![be.addf(acc, prod)]
    });
    let per_channel = work(&[&xd[..1], &yd[2..], &[cg.type_dim()], &kernel]);
    let root = kb.root(
        g,
        Schedule::Window {
            channels: yd[1],
            work_per_channel: per_channel,
            epilogues: 0,
        },
    );
    kb.define(y, root.result(0).expect("one result").into());
    Ok(())
}
