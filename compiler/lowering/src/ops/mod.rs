//! Op families: each file is the "lowering file" of the ops of the
//! dialect's family file of the same name (`dialects/onnx/src/ops/`).
//!
//! A kernel's ops are lowered in order. Runs of elementwise ops become one
//! `linalg.generic` whose body computes the whole run per element
//! ([`elementwise::lower_chain`]); every other op is lowered on its own by
//! its family ([`lower_op`], one exhaustive match over `OpKind`).

pub(crate) mod conv;
pub(crate) mod elementwise;
pub(crate) mod fused;
mod half;
pub(crate) mod image;
pub(crate) mod index;
pub(crate) mod layout;
pub(crate) mod linalg;
mod math;
pub(crate) mod narrow;
pub(crate) mod norm;
pub(crate) mod quant;
pub(crate) mod reduce;
pub(crate) mod scatter;
pub(crate) mod select;
pub(crate) mod signal;
pub(crate) mod structured;

use std::collections::HashSet;

use onnx_mlc_dialect::ir::OpId;
use onnx_mlc_dialect::{OpKind, Value};

use crate::error::{LowerError, Result};
use crate::kernel::KernelBuilder;

/// Lowers a kernel's ops, in order.
pub(crate) fn lower_ops(kb: &mut KernelBuilder, ops: &[OpId]) -> Result<()> {
    for &op in ops {
        narrow::check_op(kb, op)?;
    }
    let runs = split_runs(kb, ops);
    plan_in_place(kb, ops, &runs);
    for run in &runs {
        match run {
            Run::Chain(chain) => {
                let outputs = chain_outputs(kb, ops, chain);
                elementwise::lower_chain(kb, chain, &outputs)?
            }
            Run::Op(op) => lower_op(kb, *op)?,
        }
    }
    Ok(())
}

/// A maximal run of elementwise ops, or one other op.
enum Run {
    Chain(Vec<OpId>),
    Op(OpId),
}

fn split_runs(kb: &KernelBuilder, ops: &[OpId]) -> Vec<Run> {
    let mut runs = vec![];
    let mut chain = vec![];
    for &op in ops {
        if elementwise::is_elementwise(kb.model.ir.op(op).kind) {
            chain.push(op);
        } else {
            if !chain.is_empty() {
                runs.push(Run::Chain(std::mem::take(&mut chain)));
            }
            runs.push(Run::Op(op));
        }
    }
    if !chain.is_empty() {
        runs.push(Run::Chain(chain));
    }
    runs
}

/// Whether `v`, computed in `chain`, is needed outside it: by a later op
/// of the kernel or by the kernel's caller.
fn used_after(kb: &KernelBuilder, ops: &[OpId], chain: &[OpId], v: Value) -> bool {
    kb.is_output(v)
        || ops
            .iter()
            .filter(|o| !chain.contains(o))
            .any(|&o| kb.model.ir.op(o).inputs.contains(&Some(v)))
}

/// The results of `chain` needed after it, in order.
fn chain_outputs(kb: &KernelBuilder, ops: &[OpId], chain: &[OpId]) -> Vec<Value> {
    chain
        .iter()
        .flat_map(|&o| kb.model.ir.op(o).results.iter().flatten().copied())
        .filter(|&v| used_after(kb, ops, chain, v))
        .collect()
}

/// For each op directly followed by a chain that consumes its (single)
/// result and nothing else does: compute that result in the destination of
/// the chain's output of the same type, so the chain updates it in place.
fn plan_in_place(kb: &mut KernelBuilder, ops: &[OpId], runs: &[Run]) {
    for pair in runs.windows(2) {
        let (Run::Op(root), Run::Chain(chain)) = (&pair[0], &pair[1]) else {
            continue;
        };
        let results = &kb.model.ir.op(*root).results;
        let [Some(r)] = results.as_slice() else {
            continue;
        };
        if kb.is_output(*r) {
            continue;
        }
        let users: HashSet<OpId> = ops
            .iter()
            .copied()
            .filter(|&o| kb.model.ir.op(o).inputs.contains(&Some(*r)))
            .collect();
        if !users.iter().all(|u| chain.contains(u)) {
            continue;
        }
        let outputs = chain_outputs(kb, ops, chain);
        let ty = kb.model.ir.ty(*r);
        if let Some(&o) = outputs.iter().find(|&&o| kb.model.ir.ty(o) == ty) {
            kb.compute_in(*r, o);
        }
    }
}

/// Lowers one non-elementwise op.
fn lower_op(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    use OpKind::*;
    let kind = kb.model.ir.op(op).kind;
    match kind {
        Abs | Acos | Acosh | Asin | Asinh | Atan | Atanh | Ceil | Celu | Cos | Cosh | Elu | Erf
        | Exp | Floor | Gelu | HardSigmoid | HardSwish | IsInf | IsNaN | LeakyRelu | Log | Mish
        | Neg | Not | Reciprocal | Relu | Round | Selu | Shrink | Sigmoid | Sign | Sin | Sinh
        | Softplus | Softsign | Sqrt | Swish | Tan | Tanh | ThresholdedRelu | BitwiseNot | Cast
        | CastLike | Clip | BitCast | Add | Sub | Mul | Div | Pow | Mod | And | Or | Xor
        | Equal | Greater | GreaterOrEqual | Less | LessOrEqual | BitShift | BitwiseAnd
        | BitwiseOr | BitwiseXor | PRelu | Max | Min | Mean | Sum | Where | Activation => {
            unreachable!("elementwise ops are lowered in chains")
        }
        ArgMax | ArgMin => reduce::lower_arg(kb, op),
        ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax | ReduceMean
        | ReduceMin | ReduceProd | ReduceSum | ReduceSumSquare => reduce::lower_reduce(kb, op),
        CumSum | CumProd => reduce::lower_scan(kb, op),
        TopK => reduce::lower_top_k(kb, op),
        Conv => conv::lower_conv(kb, op),
        AveragePool | MaxPool | LpPool | GlobalAveragePool | GlobalMaxPool | GlobalLpPool => {
            conv::lower_pool(kb, op)
        }
        ConvTranspose => conv::lower_conv_transpose(kb, op),
        Col2Im => image::lower(kb, op),
        ConvInteger => quant::lower_conv_integer(kb, op),
        QLinearConv => quant::lower_qlinear_conv(kb, op),
        DeformConv | CausalConvWithState | MaxUnpool => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        BatchNormalization => unreachable!("elementwise ops are lowered in chains"),
        LayerNormalization => norm::lower_layer_norm(kb, op),
        Softmax | LogSoftmax => norm::lower_softmax(kb, op),
        InstanceNormalization | GroupNormalization => norm::lower_group_norm(kb, op),
        LRN => norm::lower_lrn(kb, op),
        RMSNormalization | LpNormalization | MeanVarianceNormalization | Hardmax | Dropout => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        MatMul | Gemm => linalg::lower(kb, op),
        MatMulInteger => quant::lower_matmul_integer(kb, op),
        QLinearMatMul => quant::lower_qlinear_matmul(kb, op),
        Einsum | Det | Attention | FlexAttention | LinearAttention | RotaryEmbedding | SwiGLU => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        Transpose | Concat | Split | Slice | Expand | Tile | Pad | ConstantOfShape | Range
        | Trilu | EyeLike | DepthToSpace | SpaceToDepth | Shape | Size => layout::lower(kb, op),
        Reshape | Flatten | Squeeze | Unsqueeze | Identity | Constant => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        Gather | GatherElements | GatherND | OneHot | ReverseSequence => index::lower(kb, op),
        Scatter | ScatterElements | ScatterND => scatter::lower(kb, op),
        Compress => select::lower_compress(kb, op),
        TensorScatter | NonZero | Unique => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        Resize | Upsample | GridSample | AffineGrid | CenterCropPad => image::lower(kb, op),
        RoiAlign => image::lower(kb, op),
        MaxRoiPool | NonMaxSuppression => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        If | Loop | Scan => Err(unsupported(kb, op, "no lowering for this operator yet")),
        SequenceAt | SequenceConstruct | SequenceEmpty | SequenceErase | SequenceInsert
        | SequenceLength | SequenceMap | SplitToSequence | ConcatFromSequence | Optional
        | OptionalGetElement | OptionalHasElement => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        QuantizeLinear => quant::lower_quantize(kb, op),
        DequantizeLinear => quant::lower_dequantize(kb, op),
        DynamicQuantizeLinear => quant::lower_dynamic_quantize(kb, op),
        RNN | GRU | LSTM => Err(unsupported(kb, op, "no lowering for this operator yet")),
        BlackmanWindow | HammingWindow | HannWindow => signal::lower_window(kb, op),
        DFT | STFT | MelWeightMatrix => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        RandomNormal | RandomNormalLike | RandomUniform | RandomUniformLike | Bernoulli
        | Multinomial => Err(unsupported(kb, op, "no lowering for this operator yet")),
        StringConcat | StringNormalizer | StringSplit | RegexFullMatch | TfIdfVectorizer
        | ImageDecoder => Err(unsupported(kb, op, "no lowering for this operator yet")),
        NegativeLogLikelihoodLoss | SoftmaxCrossEntropyLoss => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        ArrayFeatureExtractor
        | Binarizer
        | CastMap
        | CategoryMapper
        | DictVectorizer
        | FeatureVectorizer
        | Imputer
        | LabelEncoder
        | LinearClassifier
        | LinearRegressor
        | Normalizer
        | OneHotEncoder
        | SVMClassifier
        | SVMRegressor
        | Scaler
        | TreeEnsemble
        | TreeEnsembleClassifier
        | TreeEnsembleRegressor
        | ZipMap => Err(unsupported(kb, op, "no lowering for this operator yet")),
        Adagrad | Adam | Gradient | Momentum => {
            Err(unsupported(kb, op, "no lowering for this operator yet"))
        }
        FusedGemm | FusedMatMul => linalg::lower(kb, op),
        FusedAttention => fused::lower_attention(kb, op),
        FusedConv => fused::lower_fused_conv(kb, op),
    }
}

/// The error for an op (or a variant of it) that has no lowering.
pub(crate) fn unsupported(kb: &KernelBuilder, op: OpId, message: &str) -> LowerError {
    LowerError::Unsupported {
        op: kb.model.ir.describe_op(op),
        message: message.to_string(),
    }
}
