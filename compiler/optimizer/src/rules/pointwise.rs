//! Pointwise rules: a convolution with a 1×1 kernel (any spatial rank),
//! one group and no padding is a matrix product per image,
//! `y[n, :, p] = W[:, :, 0…] · x[n, :, p]` over the flattened positions
//! `p` — with strides, over the positions the window visits, which a
//! `Slice` with steps picks first.
//!
//! Why: the compiled MatMul is the fastest kernel of the compiler (its
//! schedule tiles the flattened positions in whole vectors), while the
//! convolution kernel vectorizes along the last spatial dim only (14 lanes
//! of a 56-wide image, 7 of a 7-wide one) and builds an im2col copy for a
//! strided 1×1 kernel. The product takes `W` as `[K, C]` and `x` as
//! `[N, C, P]` (views; a two-dim `W` broadcasts over the batch, so any
//! batch size is one product), the bias as `[K, 1]` and a residual as
//! `[N, K, P]` (views again), and its result is viewed back as
//! `[N, K, spatial…]`. The extraction picks it where the cost model says
//! the MatMul kernel is faster: its calibrated efficiency is MatMul's,
//! the convolution's lower (`cost.rs`, `docs/optimizer.md`).

use std::sync::Arc;

use egg::Id;
use onnx_mlc_dialect::{Dim, OpKind, TensorData};

use super::util::{is_absent, static_dims_of, tensor_of, Builder};
use super::{Guard, Rule};
use crate::pattern::Match;
use crate::rw;

/// The rules of the set.
pub fn rules() -> Vec<Rule> {
    vec![
        // Conv₁ₓ₁,ₛ(x, W, b) = View(W[K, C] · View(x[…, ::s], [N, C, P]) + b[K, 1], y)
        rw!("conv-matmul"; "(Conv@c ?x ?w ?b)" => conv_matmul; if pointwise("@c")),
        // FusedConv₁ₓ₁,ₛ⟨act⟩(x, W, b, z) = View(FusedMatMul⟨act⟩(W[K, C], View(x[…, ::s], [N, C, P]), b[K, 1], View(z, [N, K, P])), y)
        rw!("fusedconv-matmul"; "(omlc.FusedConv@c ?x ?w ?b ?z)" => fused_conv_matmul; if pointwise("@c")),
    ]
}

/// The convolution at `label` is pointwise: one group, a kernel of ones
/// (the weight's static dims `[K, C, 1…]`, and `kernel_shape` if given),
/// no explicit padding (with a 1×1 kernel, `SAME` padding is none), a
/// float input of rank 3 or more.
fn pointwise(label: &'static str) -> Guard {
    Arc::new(move |eg, m| {
        let node = m.node(label);
        let key = node.key().expect("labels are on ops");
        let ops = node.operands();
        let (Some(x), Some(w)) = (tensor_of(eg, ops[0]), static_dims_of(eg, ops[1])) else {
            return false;
        };
        let ones = |v: &[i64]| v.iter().all(|&d| d == 1);
        x.elem.is_float()
            && x.rank() == Some(w.len())
            && w.len() >= 3
            && ones(&w[2..])
            && key.int("group").unwrap_or(1) == 1
            && key.ints("kernel_shape").is_none_or(|k| ones(&k))
            && key.ints("pads").is_none_or(|p| p.iter().all(|&d| d == 0))
    })
}

/// The shapes of a pointwise convolution's matrix-product form.
struct Pointwise {
    /// Batch size, 0 when symbolic (a Reshape's "copy this dim").
    batch: i64,
    /// Input channels.
    channels: i64,
    /// Output channels.
    features: i64,
    /// The input's spatial dims.
    input: Vec<i64>,
    /// The result's spatial dims.
    output: Vec<i64>,
    /// The strides.
    strides: Vec<i64>,
}

impl Pointwise {
    /// The shapes of the convolution matched at `@c` (root `m.root`):
    /// static channels and spatial dims, each output size the input's
    /// divided by its stride, rounded up (the positions a 1×1 window
    /// visits without padding).
    fn of(b: &Builder, m: &Match) -> Option<Pointwise> {
        let g = b.graph();
        let x = tensor_of(g, m.class("?x"))?.dims()?.to_vec();
        let y = tensor_of(g, m.root)?.dims()?.to_vec();
        let w = static_dims_of(g, m.class("?w"))?;
        let known = |d: &[Dim]| d.iter().map(Dim::as_known).collect::<Option<Vec<i64>>>();
        let (input, output) = (known(&x[2..])?, known(&y[2..])?);
        let r = input.len();
        let strides = m.key("@c").ints("strides").unwrap_or(vec![1; r]);
        let visited = |(&i, &s): (&i64, &i64)| (s > 0).then(|| (i + s - 1) / s);
        let fits = strides.len() == r
            && y.len() == x.len()
            && input
                .iter()
                .zip(&strides)
                .map(visited)
                .eq(output.iter().map(|&o| Some(o)));
        let batch = match (&x[0], &y[0]) {
            (a, b) if a != b => return None,
            (Dim::Known(n), _) => *n,
            _ => 0,
        };
        let channels = x[1].as_known().filter(|&c| c == w[1])?;
        let features = y[1].as_known().filter(|&k| k == w[0])?;
        fits.then_some(Pointwise {
            batch,
            channels,
            features,
            input,
            output,
            strides,
        })
    }

    /// The flattened output positions.
    fn positions(&self) -> i64 {
        self.output.iter().product()
    }

    /// The product's operands: `W` as `[K, C]` and `x`, subsampled where
    /// strided, as `[N, C, P]`. `None` when the model's opsets lack the
    /// Reshape with a shape input (opset 5) or, for strides, the Slice
    /// with steps (opset 10).
    fn operands(&self, b: &mut Builder, m: &Match) -> Option<(Id, Id)> {
        let at_least = |b: &Builder, kind, version| {
            b.graph()
                .analysis
                .version_of(kind)
                .is_some_and(|v| v >= version)
        };
        if !at_least(b, OpKind::Reshape, 5) {
            return None;
        }
        let w = b.reshape(m.class("?w"), &[self.features, self.channels])?;
        let mut x = m.class("?x");
        if self.strides.iter().any(|&s| s != 1) {
            if !at_least(b, OpKind::Slice, 10) {
                return None;
            }
            let r = self.input.len() as i64;
            let consts: Vec<Id> = [
                vec![0; self.input.len()],
                self.input.clone(),
                (2..2 + r).collect(),
                self.strides.clone(),
            ]
            .into_iter()
            .map(|v| b.add_constant(TensorData::i64s(&v)))
            .collect();
            x = b.op(
                OpKind::Slice,
                vec![],
                &[x, consts[0], consts[1], consts[2], consts[3]],
            )?;
        }
        let x = b.reshape(x, &[self.batch, self.channels, self.positions()])?;
        Some((w, x))
    }

    /// The bias `b` as `[K, 1]`, or the absent operand.
    fn bias(&self, b: &mut Builder, bias: Id) -> Option<Id> {
        if is_absent(b.graph(), bias) {
            Some(bias)
        } else {
            b.reshape(bias, &[self.features, 1])
        }
    }

    /// The product's result `[N, K, P]` viewed as the convolution's.
    fn result(&self, b: &mut Builder, product: Id) -> Option<Id> {
        let mut dims = vec![self.batch, self.features];
        dims.extend(&self.output);
        b.reshape(product, &dims)
    }
}

fn conv_matmul(b: &mut Builder, m: &Match) -> Option<Id> {
    let form = Pointwise::of(b, m)?;
    let (w, x) = form.operands(b, m)?;
    let mut y = b.op(OpKind::MatMul, vec![], &[w, x])?;
    let bias = m.class("?b");
    if !is_absent(b.graph(), bias) {
        let bias = form.bias(b, bias)?;
        y = b.op(OpKind::Add, vec![], &[y, bias])?;
    }
    form.result(b, y)
}

fn fused_conv_matmul(b: &mut Builder, m: &Match) -> Option<Id> {
    let form = Pointwise::of(b, m)?;
    let (w, x) = form.operands(b, m)?;
    let bias = form.bias(b, m.class("?b"))?;
    let z = m.class("?z");
    let z = if is_absent(b.graph(), z) {
        z
    } else {
        b.reshape(z, &[form.batch, form.features, form.positions()])?
    };
    let key = m.key("@c");
    let attrs = ["activation", "activation_params"]
        .into_iter()
        .filter_map(|name| Some((name, key.attr(name)?)))
        .collect();
    let product = b.op(OpKind::FusedMatMul, attrs, &[w, x, bias, z])?;
    form.result(b, product)
}
