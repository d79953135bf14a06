//! The sliding window: its geometry read from an op's attributes
//! ([`Window`]), its run-time extents over symbolic sizes ([`Extents`]),
//! the loop nests over it ([`Loops`]) and the reads of the input through
//! it, and the conditions the model's entry checks for it.

use melior::ir::operation::OperationMutLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{AffineMap, Type, Value as MValue, ValueLike};
use melior::Context;
use onnx_mlc_dialect::ir::{OpData, OpId};
use onnx_mlc_dialect::{Attrs, Dim, Model, OpKind, Value};

use crate::builder::{
    d, generic, identity_map, map, projection, unit, CmpiPredicate, Emitter, Expr, Size, DYNAMIC,
};
use crate::error::Result;
use crate::kernel::KernelBuilder;
use crate::ops::half;
use crate::symbols::{sized_dims, Check};

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
    /// The input's extent, per spatial dim.
    pub input: Vec<Size<'c, 'a>>,
    /// The padding before each spatial dim.
    pub begin: Vec<Size<'c, 'a>>,
    /// The padding after each spatial dim.
    pub end: Vec<Size<'c, 'a>>,
}

/// The checks of a Conv (or FusedConv), MaxPool, AveragePool, LpPool or
/// global pool with symbolic sizes (`ops::entry_checks`): the batch and
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
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    use OpKind::{
        Conv, ConvInteger, FusedConv, GlobalAveragePool, GlobalLpPool, GlobalMaxPool, QLinearConv,
    };
    let dims = |v: Option<Value>| sized_dims(model, v);
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
        Conv | FusedConv | ConvInteger | QLinearConv => {
            // The weight, bias and residual operands by position.
            let (w, bias, residual) = match data.kind {
                FusedConv => (1, Some(2), Some(3)),
                ConvInteger => (1, None, None),
                QLinearConv => (3, Some(8), None),
                _ => (1, Some(2), None),
            };
            let operand = |i: Option<usize>| i.and_then(|i| data.inputs.get(i).copied().flatten());
            let w = dims(data.inputs[w])?;
            if w.len() != x.len() {
                return Err("a weight of another rank than the input");
            }
            let group = a.int("group").unwrap_or(1);
            equal(&x[1], &w[1].scale(group));
            equal(&y[1], &w[0]);
            if group != 1 && !w[0].is_known() {
                more.push(Check::Divisible(w[0].clone(), Dim::Known(group)));
            }
            if let Some(b) = operand(bias) {
                equal(&dims(Some(b))?[0], &w[0]);
            }
            // FusedConv's residual, added at the same coordinates.
            if let Some(z) = operand(residual) {
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

/// The checks of a ConvTranspose with symbolic sizes (`ops::entry_checks`):
/// the batch dims agree, the input's channels are the weight's first dim
/// (a multiple of `group`), the output's are the weight's second times
/// `group` (and the bias length), the weight's kernel dims are
/// `kernel_shape` (a symbolic kernel at least 1), and each output
/// spatial dim is at least 1 and, without `output_shape`, the size the
/// input gives (`s·(d − 1) + output_padding + extent − pads`, `d·s` with
/// SAME). The lowering reads the input masked by its run-time sizes.
pub(crate) fn conv_transpose_checks(
    model: &Model,
    data: &OpData,
) -> std::result::Result<Vec<Check>, &'static str> {
    let dims = |v: Option<Value>| sized_dims(model, v);
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
fn kernel_dims(attrs: &Attrs, w: &[Dim]) -> Vec<Dim> {
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
            return Err(kb.unsupported(op, "strides/dilations of the wrong length"));
        }
        let (begin, end) = match attrs.string("auto_pad").unwrap_or("NOTSET") {
            "NOTSET" => match attrs.ints("pads") {
                Some(p) if p.len() == 2 * r => (p[..r].to_vec(), p[r..].to_vec()),
                Some(_) => return Err(kb.unsupported(op, "pads of the wrong length")),
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
            other => return Err(kb.unsupported(op, &format!("auto_pad '{other}' is not lowered"))),
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
    pub(super) fn is_static(&self) -> bool {
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
    pub(super) fn count(&self, i: usize, o: i64, lo: i64, hi: i64) -> i64 {
        (0..self.kernel[i])
            .map(|k| o * self.strides[i] + k * self.dilations[i] - self.begin[i])
            .filter(|p| (lo..hi).contains(p))
            .count() as i64
    }
}

/// The dilated extent `(k − 1)·dil + 1` of a kernel size `k`, as an
/// `index`.
pub(super) fn span_of<'c, 'a>(
    e: &Emitter<'c, 'a>,
    k: Size<'c, 'a>,
    dilation: i64,
) -> MValue<'c, 'a> {
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
pub(super) struct Loops<'c> {
    cx: &'c Context,
    /// Per loop, whether it reduces.
    pub reduction: Vec<bool>,
}

impl<'c> Loops<'c> {
    pub(super) fn new(cx: &'c Context) -> Loops<'c> {
        Loops {
            cx,
            reduction: vec![],
        }
    }

    /// `n` parallel loops.
    pub(super) fn parallel(cx: &'c Context, n: usize) -> Loops<'c> {
        Loops {
            cx,
            reduction: vec![false; n],
        }
    }

    /// Adds a loop, returns its dim number.
    pub(super) fn add(&mut self, reduction: bool) -> usize {
        self.reduction.push(reduction);
        self.reduction.len() - 1
    }

    /// Loop dim `i`.
    pub(super) fn d(&self, i: usize) -> Expr<'c> {
        d(self.cx, i)
    }

    /// The map of `exprs` over the loops.
    pub(super) fn map(&self, exprs: &[Expr<'c>]) -> AffineMap<'c> {
        map(self.cx, self.reduction.len(), exprs)
    }

    /// The map reading loop dims `dims`.
    pub(super) fn dims(&self, dims: impl IntoIterator<Item = usize>) -> AffineMap<'c> {
        projection(self.cx, self.reduction.len(), dims)
    }

    /// The identity map over the loops.
    pub(super) fn identity(&self) -> AffineMap<'c> {
        identity_map(self.cx, self.reduction.len())
    }
}

/// Fills `init` (of rank `rank`) with `value`, or with the per-channel
/// `bias` (`[C]`, along dim 1) when given; tagged `omlc.init`.
pub(super) fn fill<'c, 'a>(
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
    be.sized(ext.begin[i], |b| be.subi(p, b))
}

/// The input positions of the current window element inside a body, 0
/// where one leaves the input, and whether all lie inside it.
pub(super) fn window_positions<'c, 'b>(
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
        let ok = be.sized(ext.input[i], |n| be.cmpi(CmpiPredicate::Ult, p, n));
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
pub(super) fn read_window<'c, 'b>(
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
pub(super) fn window_exprs<'c>(
    loops: &Loops<'c>,
    w: &Window,
    o_dims: &[usize],
    k_dims: &[usize],
) -> Vec<Expr<'c>> {
    (0..w.kernel.len())
        .map(|i| loops.d(o_dims[i]) * w.strides[i] + loops.d(k_dims[i]) * w.dilations[i])
        .collect()
}

/// The kernel of a Conv or ConvTranspose of weight kernel dims `wd`
/// ([`DYNAMIC`] where symbolic): `kernel_shape`, which a symbolic weight
/// dim is checked to equal at run time ([`window_checks`],
/// [`conv_transpose_checks`]), else the weight's, its symbolic sizes
/// read at run time.
pub(super) fn kernel_sizes(kb: &KernelBuilder, op: OpId, wd: &[i64]) -> Result<Vec<i64>> {
    match kb.model.ir.op(op).attrs.ints("kernel_shape") {
        Some(ks)
            if ks.len() == wd.len() && ks.iter().zip(wd).all(|(k, d)| k == d || *d == DYNAMIC) =>
        {
            Ok(ks.to_vec())
        }
        Some(_) => Err(kb.unsupported(op, "kernel_shape differs from W's")),
        None => Ok(wd.to_vec()),
    }
}

/// The product of `sizes`, a schedule's work estimate: a symbolic size
/// (whose kernel is not scheduled) counts as 1.
pub(super) fn work(sizes: &[&[i64]]) -> i64 {
    sizes
        .iter()
        .flat_map(|s| s.iter())
        .filter(|&&d| d != DYNAMIC)
        .product()
}

/// The zero of scalar type `ty`, float or integer.
pub(super) fn zero<'c, 'b>(be: Emitter<'c, 'b>, ty: Type<'c>) -> MValue<'c, 'b> {
    if ty.is_integer() {
        be.i(ty, 0)
    } else {
        be.f(ty, 0.0)
    }
}
