//! What the planner does with each op: the one exhaustive match from
//! [`OpKind`] to an [`OpClass`], so that a new op in the table does not
//! compile until someone decides whether it may fuse.

use onnx_mlc_dialect::ir::OpData;
use onnx_mlc_dialect::OpKind;

/// How an op takes part in kernels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum OpClass {
    /// `Constant`: no code; its result is a weight.
    Weight,
    /// A reshape-like op (`Reshape`, `Flatten`, `Squeeze`, `Unsqueeze`,
    /// `Identity`): no code; its result is a view of its first input.
    View,
    /// Each output element is computed from the input elements at the same
    /// (broadcast) position: may join a loop nest with its neighbours.
    Elementwise,
    /// A contraction, convolution, pooling, reduction or normalization with
    /// one result: lowered by its own pattern, and may take an elementwise
    /// epilogue on that result.
    Root,
    /// Any other op: lowered by its own pattern, in a kernel of its own.
    Single,
    /// An op with subgraphs (`If`, `Loop`, `Scan`, `SequenceMap`): a kernel
    /// of its own whose regions are lowered separately.
    Control,
}

/// The class of a main-graph op.
// rustfmt puts every op on a line of its own once one name is long; the
// table reads better wrapped.
#[rustfmt::skip]
pub(crate) fn classify(op: &OpData) -> OpClass {
    use OpKind::*;
    let root = || {
        // Extra results (MaxPool's indices, LayerNormalization's
        // statistics) are outputs an epilogue cannot follow.
        if op.results.iter().flatten().count() == 1 { OpClass::Root } else { OpClass::Single }
    };
    match op.kind {
        Constant => OpClass::Weight,
        Reshape | Flatten | Squeeze | Unsqueeze | Identity => OpClass::View,
        Abs | Acos | Acosh | Asin | Asinh | Atan | Atanh | Ceil | Celu | Cos | Cosh | Elu | Erf
        | Exp | Floor | Gelu | HardSigmoid | HardSwish | IsInf | IsNaN | LeakyRelu | Log | Mish
        | Neg | Not | Reciprocal | Relu | Round | Selu | Shrink | Sigmoid | Sign | Sin | Sinh
        | Softplus | Softsign | Sqrt | Swish | Tan | Tanh | ThresholdedRelu | BitwiseNot | Cast
        | CastLike | Clip | Add | Sub | Mul | Div | Pow | Mod | And | Or | Xor | Equal
        | Greater | GreaterOrEqual | Less | LessOrEqual | BitShift | BitwiseAnd | BitwiseOr
        | BitwiseXor | PRelu | Max | Min | Mean | Sum | Where | Activation => OpClass::Elementwise,
        BatchNormalization if batch_norm_is_affine(op) => OpClass::Elementwise,
        BatchNormalization => OpClass::Single,
        MatMul | Gemm | MatMulInteger | QLinearMatMul | Einsum | Conv | ConvTranspose
        | ConvInteger | QLinearConv | DeformConv | AveragePool | MaxPool | LpPool
        | GlobalAveragePool | GlobalMaxPool | GlobalLpPool | ArgMax | ArgMin | ReduceL1
        | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax | ReduceMean | ReduceMin
        | ReduceProd | ReduceSum | ReduceSumSquare | Softmax | LogSoftmax | Hardmax
        | LayerNormalization | InstanceNormalization | GroupNormalization | RMSNormalization
        | LpNormalization | MeanVarianceNormalization | Attention | FlexAttention
        | LinearAttention | FusedConv | FusedGemm | FusedMatMul | FusedAttention => root(),
        If | Loop | Scan | SequenceMap => OpClass::Control,
        AffineGrid | Bernoulli | BitCast | BlackmanWindow | CausalConvWithState | CenterCropPad
        | Col2Im | Compress | Concat | ConcatFromSequence | ConstantOfShape | CumProd | CumSum
        | DFT | DepthToSpace | DequantizeLinear | Det | Dropout | DynamicQuantizeLinear
        | Expand | EyeLike | GRU | Gather | GatherElements | GatherND | GridSample
        | HammingWindow | HannWindow | ImageDecoder | LRN | LSTM | MaxRoiPool | MaxUnpool
        | MelWeightMatrix | Multinomial | NegativeLogLikelihoodLoss | NonMaxSuppression
        | NonZero | OneHot | Optional | OptionalGetElement | OptionalHasElement | Pad
        | QuantizeLinear | RNN | RandomNormal | RandomNormalLike | RandomUniform
        | RandomUniformLike | Range | RegexFullMatch | Resize | ReverseSequence | RoiAlign
        | RotaryEmbedding | STFT | Scatter | ScatterElements | ScatterND | SequenceAt
        | SequenceConstruct | SequenceEmpty | SequenceErase | SequenceInsert | SequenceLength
        | Shape | Size | Slice | SoftmaxCrossEntropyLoss | SpaceToDepth | Split
        | SplitToSequence | StringConcat | StringNormalizer | StringSplit | SwiGLU
        | TensorScatter | TfIdfVectorizer | Tile | TopK | Transpose | Trilu | Unique | Upsample
        | ArrayFeatureExtractor | Binarizer | CastMap | CategoryMapper | DictVectorizer
        | FeatureVectorizer | Imputer | LabelEncoder | LinearClassifier | LinearRegressor
        | Normalizer | OneHotEncoder | SVMClassifier | SVMRegressor | Scaler | TreeEnsemble
        | TreeEnsembleClassifier | TreeEnsembleRegressor | ZipMap | Adagrad | Adam | Gradient
        | Momentum => OpClass::Single,
    }
}

/// `BatchNormalization` in inference form is a per-channel affine map,
/// `y = (x − mean) / √(var + ε) · scale + B`: elementwise over `x` with
/// the `[C]` parameters indexed by the channel (dim 1). That needs opset 9
/// or later (before, `spatial = 0` gave the parameters `x`'s trailing
/// shape), `training_mode = 0`, and only the `Y` result (the training
/// results are batch statistics, a reduction).
fn batch_norm_is_affine(op: &OpData) -> bool {
    op.version >= 9
        && op.attrs.int("training_mode").unwrap_or(0) == 0
        && op.results.iter().skip(1).all(Option::is_none)
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_mlc_dialect::ir::RegionId;
    use onnx_mlc_dialect::{Attr, Attrs, Value};

    fn op(kind: OpKind, version: u32, results: usize, attrs: Attrs) -> OpData {
        OpData {
            kind,
            version,
            inputs: vec![],
            results: (0..results).map(|i| Some(Value::from_index(i))).collect(),
            attrs,
            name: String::new(),
            parent: RegionId::from_index(0),
            meta: None,
        }
    }

    #[test]
    fn batch_norm_fuses_only_in_inference_form() {
        let bn = |version, results, training| {
            let attrs = Attrs(vec![("training_mode".into(), Attr::Int(training))]);
            classify(&op(OpKind::BatchNormalization, version, results, attrs))
        };
        assert_eq!(bn(15, 1, 0), OpClass::Elementwise);
        assert_eq!(bn(15, 3, 1), OpClass::Single);
        assert_eq!(bn(15, 1, 1), OpClass::Single);
        assert_eq!(
            bn(7, 1, 0),
            OpClass::Single,
            "spatial = 0 existed before opset 9"
        );
    }

    #[test]
    fn roots_with_extra_results_take_no_epilogue() {
        let plain = |kind, results| classify(&op(kind, 17, results, Attrs::default()));
        assert_eq!(plain(OpKind::LayerNormalization, 1), OpClass::Root);
        assert_eq!(plain(OpKind::LayerNormalization, 3), OpClass::Single);
        assert_eq!(plain(OpKind::MaxPool, 2), OpClass::Single);
        assert_eq!(plain(OpKind::Transpose, 1), OpClass::Single);
        assert_eq!(plain(OpKind::Flatten, 1), OpClass::View);
        assert_eq!(plain(OpKind::Loop, 1), OpClass::Control);
        assert_eq!(
            plain(OpKind::FusedConv, 1),
            OpClass::Root,
            "the optimizer's fused ops"
        );
        assert_eq!(plain(OpKind::Activation, 1), OpClass::Elementwise);
    }
}
