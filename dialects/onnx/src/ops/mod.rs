//! Op families: each file is the "dialect file" of a group of operators
//! and holds what the dialect knows about them beyond the op table (result
//! types and shapes, propagated integer values).
//!
//! [`infer`] is the one exhaustive dispatch from [`OpKind`] to a family:
//! a new op in the table does not compile until it is given a family here.

mod control;
mod conv;
mod elementwise;
mod fused;
mod index;
mod layout;
pub(crate) mod linalg;
mod loss;
mod ml;
mod norm;
mod operand;
mod quant;
mod random;
mod reduce;
mod rnn;
mod sequence;
mod signal;
#[cfg(test)]
pub(crate) mod testing;
mod text;
mod training;
mod vision;

use crate::infer::{Fail, InferCtx};
use crate::schema::OpKind;

/// Infers the result types (and known integer values) of the op in `cx`.
pub(crate) fn infer(kind: OpKind, cx: &mut InferCtx) -> Result<(), Fail> {
    use OpKind::*;
    match kind {
        Abs | Acos | Acosh | Asin | Asinh | Atan | Atanh | Ceil | Celu | Cos | Cosh | Elu | Erf
        | Exp | Floor | Gelu | HardSigmoid | HardSwish | IsInf | IsNaN | LeakyRelu | Log | Mish
        | Neg | Not | Reciprocal | Relu | Round | Selu | Shrink | Sigmoid | Sign | Sin | Sinh
        | Softplus | Softsign | Sqrt | Swish | Tan | Tanh | ThresholdedRelu | BitwiseNot | Cast
        | CastLike | Clip | BitCast | Add | Sub | Mul | Div | Pow | Mod | And | Or | Xor
        | Equal | Greater | GreaterOrEqual | Less | LessOrEqual | BitShift | BitwiseAnd
        | BitwiseOr | BitwiseXor | PRelu | Max | Min | Mean | Sum | Where => elementwise::infer(cx),
        ArgMax | ArgMin | ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax
        | ReduceMean | ReduceMin | ReduceProd | ReduceSum | ReduceSumSquare | CumSum | CumProd
        | TopK => reduce::infer(cx),
        Conv | ConvTranspose | ConvInteger | QLinearConv | DeformConv | CausalConvWithState
        | AveragePool | MaxPool | LpPool | GlobalAveragePool | GlobalMaxPool | GlobalLpPool
        | MaxUnpool | Col2Im => conv::infer(cx),
        BatchNormalization
        | InstanceNormalization
        | LayerNormalization
        | GroupNormalization
        | RMSNormalization
        | LpNormalization
        | MeanVarianceNormalization
        | LRN
        | Softmax
        | LogSoftmax
        | Hardmax
        | Dropout => norm::infer(cx),
        MatMul | Gemm | MatMulInteger | QLinearMatMul | Einsum | Det | Attention
        | FlexAttention | LinearAttention | RotaryEmbedding | SwiGLU => linalg::infer(cx),
        Shape | Size | Reshape | Flatten | Squeeze | Unsqueeze | Transpose | Concat | Split
        | Slice | Expand | Tile | Pad | DepthToSpace | SpaceToDepth | CenterCropPad | Identity
        | Constant | ConstantOfShape | Range | EyeLike | Trilu => layout::infer(cx),
        Gather | GatherElements | GatherND | Scatter | ScatterElements | ScatterND
        | TensorScatter | OneHot | Compress | NonZero | Unique | ReverseSequence => {
            index::infer(cx)
        }
        Resize | Upsample | GridSample | AffineGrid | RoiAlign | MaxRoiPool | NonMaxSuppression => {
            vision::infer(cx)
        }
        If | Loop | Scan => control::infer(cx),
        SequenceAt | SequenceConstruct | SequenceEmpty | SequenceErase | SequenceInsert
        | SequenceLength | SequenceMap | SplitToSequence | ConcatFromSequence | Optional
        | OptionalGetElement | OptionalHasElement => sequence::infer(cx),
        QuantizeLinear | DequantizeLinear | DynamicQuantizeLinear => quant::infer(cx),
        RNN | GRU | LSTM => rnn::infer(cx),
        DFT | STFT | BlackmanWindow | HammingWindow | HannWindow | MelWeightMatrix => {
            signal::infer(cx)
        }
        RandomNormal | RandomNormalLike | RandomUniform | RandomUniformLike | Bernoulli
        | Multinomial => random::infer(cx),
        StringConcat | StringNormalizer | StringSplit | RegexFullMatch | TfIdfVectorizer
        | ImageDecoder => text::infer(cx),
        NegativeLogLikelihoodLoss | SoftmaxCrossEntropyLoss => loss::infer(cx),
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
        | ZipMap => ml::infer(cx),
        Adagrad | Adam | Gradient | Momentum => training::infer(cx),
        Activation | FusedConv | FusedGemm | FusedMatMul | FusedAttention => fused::infer(cx),
    }
}

/// Whether the first result of an op of `kind` always has its first
/// input's shape (unary elementwise ops, casts, `Identity`, the softmaxes),
/// so that known result dims tell the input's
/// (`infer::refine_from_consumers`).
pub(crate) fn keeps_input_shape(kind: OpKind) -> bool {
    use OpKind::*;
    kind.is_unary_elementwise() || matches!(kind, Identity | Softmax | LogSoftmax | Hardmax)
}

/// Whether ops of `kind` whose result shape depends on input values that
/// inference does not know may take it from their consumers
/// (`infer::refine_from_consumers`): their lowering reads those values at
/// run time and the model's entry checks them against the result's shape
/// (the reductions' `axes`: the lowering's `Check::Axes`), so a shape that
/// the values contradict is an error, never a wrong result.
pub(crate) fn shape_checked_at_run_time(kind: OpKind) -> bool {
    kind.is_reduction()
}
