//! The `decompose` pass: composite ONNX operators become the primitive
//! operators of their definition.
//!
//! Many operators are specified as *functions* of simpler ones (their
//! schema carries a function body: Attention, the losses, RMSNormalization,
//! Celu, …). The lowering implements the primitives (MatMul, Softmax,
//! Reduce*, elementwise ops, Where, Gather, Transpose, Reshape, Concat, …);
//! this pass rewrites each composite op into them, the way onnx-mlir's
//! Decompose pass does, so that one lowering serves both. The e-graph
//! optimizer may re-fuse the expansion afterwards.
//!
//! Each family file (`attention.rs`, `flex_attention.rs`,
//! `linear_attention.rs`, `causal_conv.rs`, `tensor_scatter.rs`,
//! `rotary.rs`, `loss.rs`, `norm.rs`, `activation.rs`, `dropout.rs`,
//! `einsum.rs`, `rnn.rs`, `training.rs`, `gradient.rs`, `det.rs`,
//! `tfidf.rs`, `ml.rs`, `tree.rs`, `svm.rs`, `spectral.rs`, `pool.rs`, `deform_conv.rs`,
//! `random.rs`, `control.rs`; for onnxruntime's contrib operators
//! `contrib.rs`, `contrib_quant.rs`, `contrib_attention.rs`)
//! states the identity each expansion implements, following the spec text
//! and the reference implementation of the `onnx` package (onnxruntime's
//! ContribOperators documentation for its operators; an expansion may
//! build a composite op and expand it at once, `Builder::expanded`: the
//! contrib attentions become ai.onnx Attention-23). An expansion
//! builds its ops with a [`Builder`], which infers each new op's types as
//! it goes (expansions read shapes and element types of what they built).
//!
//! An op the pass cannot expand — a variant an expansion does not handle,
//! or one whose shapes it needs statically and does not know — stays as it
//! is (its partial expansion is discarded), and the lowering refuses it by
//! node, op type and opset. Ops inside subgraphs are expanded like those of
//! the main graph, innermost subgraphs first, so that control flow nested in
//! a subgraph is already straight-line when the enclosing op is inlined
//! (`control.rs`). Only ops the lowering has no direct kernel for are
//! expanded: LayerNormalization, Softmax, HardSwish and the like lower as
//! they are.

mod activation;
mod attention;
mod builder;
mod causal_conv;
mod contrib;
mod contrib_attention;
mod contrib_quant;
mod control;
mod deform_conv;
mod det;
mod dropout;
mod einsum;
mod flex_attention;
mod gradient;
mod linear_attention;
mod loss;
mod ml;
mod norm;
mod pool;
mod random;
mod rnn;
mod rotary;
mod spectral;
mod svm;
mod tensor_scatter;
mod tfidf;
mod training;
mod tree;

use crate::error::Result;
use crate::infer::{infer_model, infer_op};
use crate::ir::{Model, OpsetImport, RegionId, Value};
use crate::schema::{Domain, Family, FamilyOp, OpKind};
use builder::Builder;

/// An expansion: builds the replacement of the op in the builder and
/// returns one value per result of the op (`None` for an absent result),
/// or `None` when it does not handle this op's variant.
type Expansion = fn(&mut Builder) -> Option<Vec<Option<Value>>>;

/// The expansion of an op kind, if it has one: one match per family over
/// its ops, so that a new op in a family with expansions does not compile
/// until it is given one or none here. The families without expansions
/// lower every op as it is.
fn expansion(kind: OpKind) -> Option<Expansion> {
    use crate::schema::{
        ContribOp::*, ControlOp::*, ConvOp::*, ElementwiseOp::*, IndexOp::*, LinalgOp::*,
        LossOp::*, MlOp::*, NormOp::*, RandomOp::*, RnnOp::*, SignalOp::*, TextOp::*,
        TrainingOp::*,
    };
    Some(match kind.family_op() {
        FamilyOp::Elementwise(op) => match op {
            Celu => activation::celu,
            ThresholdedRelu => activation::thresholded_relu,
            Shrink => activation::shrink,
            Mish => activation::mish,
            Abs | Acos | Acosh | Activation | Add | And | Asin | Asinh | Atan | Atanh | BitCast
            | BitShift | BitwiseAnd | BitwiseNot | BitwiseOr | BitwiseXor | Cast | CastLike
            | Ceil | Clip | Cos | Cosh | Div | Elu | Equal | Erf | Exp | Floor | Gelu | Greater
            | GreaterOrEqual | HardSigmoid | HardSwish | IsInf | IsNaN | LeakyRelu | Less
            | LessOrEqual | Log | Max | Mean | Min | Mod | Mul | Neg | Not | Or | PRelu | Pow
            | Reciprocal | Relu | Round | Selu | Sigmoid | Sign | Sin | Sinh | Softplus
            | Softsign | Sqrt | Sub | Sum | Swish | Tan | Tanh | Where | Xor => return None,
        },
        FamilyOp::Conv(op) => match op {
            CausalConvWithState => causal_conv::causal_conv_with_state,
            MaxUnpool => pool::max_unpool,
            DeformConv => deform_conv::deform_conv,
            AveragePool | Col2Im | Conv | ConvInteger | ConvTranspose | DepthwiseConv
            | GlobalAveragePool | GlobalLpPool | GlobalMaxPool | LpPool | MaxPool | QLinearConv => {
                return None
            }
        },
        FamilyOp::Norm(op) => match op {
            Dropout => dropout::dropout,
            RMSNormalization => norm::rms_normalization,
            LpNormalization => norm::lp_normalization,
            MeanVarianceNormalization => norm::mean_variance_normalization,
            GroupNormalization => norm::group_normalization,
            Hardmax => norm::hardmax,
            BatchNormalization => norm::batch_normalization_training,
            InstanceNormalization | LRN | LayerNormalization | LogSoftmax | Softmax => return None,
        },
        FamilyOp::Linalg(op) => match op {
            Attention => attention::attention,
            Einsum => einsum::einsum,
            RotaryEmbedding => rotary::rotary_embedding,
            SwiGLU => activation::swiglu,
            Det => det::det,
            LinearAttention => linear_attention::linear_attention,
            FlexAttention => flex_attention::flex_attention,
            Gemm | MatMul | MatMulInteger | PackedMatMulInteger | PackedConvInteger
            | QLinearMatMul => return None,
        },
        FamilyOp::Index(op) => match op {
            TensorScatter => tensor_scatter::tensor_scatter,
            Compress | Gather | GatherElements | GatherND | NonZero | OneHot | ReverseSequence
            | Scatter | ScatterElements | ScatterND | Unique => return None,
        },
        FamilyOp::Control(op) => match op {
            If => control::if_op,
            Loop => control::loop_op,
            Scan => control::scan,
        },
        FamilyOp::Rnn(op) => match op {
            RNN => rnn::rnn,
            GRU => rnn::gru,
            LSTM => rnn::lstm,
        },
        FamilyOp::Signal(op) => match op {
            DFT => spectral::dft,
            STFT => spectral::stft,
            MelWeightMatrix => spectral::mel_weight_matrix,
            BlackmanWindow | HammingWindow | HannWindow => return None,
        },
        FamilyOp::Random(op) => match op {
            RandomUniform => random::random_uniform,
            RandomUniformLike => random::random_uniform_like,
            Bernoulli => random::bernoulli,
            Multinomial | RandomNormal | RandomNormalLike => return None,
        },
        FamilyOp::Text(op) => match op {
            TfIdfVectorizer => tfidf::tfidf_vectorizer,
            ImageDecoder | RegexFullMatch | StringConcat | StringNormalizer | StringSplit => {
                return None
            }
        },
        FamilyOp::Loss(op) => match op {
            SoftmaxCrossEntropyLoss => loss::softmax_cross_entropy,
            NegativeLogLikelihoodLoss => loss::negative_log_likelihood,
        },
        FamilyOp::Ml(op) => match op {
            Binarizer => ml::binarizer,
            ArrayFeatureExtractor => ml::array_feature_extractor,
            TreeEnsemble => tree::tree_ensemble,
            TreeEnsembleClassifier => tree::tree_ensemble_classifier,
            TreeEnsembleRegressor => tree::tree_ensemble_regressor,
            LinearClassifier => ml::linear_classifier,
            LinearRegressor => ml::linear_regressor,
            Normalizer => ml::normalizer,
            Scaler => ml::scaler,
            SVMClassifier => svm::svm_classifier,
            SVMRegressor => svm::svm_regressor,
            OneHotEncoder => ml::one_hot_encoder,
            Imputer => ml::imputer,
            FeatureVectorizer => ml::feature_vectorizer,
            CastMap | CategoryMapper | DictVectorizer | LabelEncoder | ZipMap => return None,
        },
        FamilyOp::Training(op) => match op {
            Adagrad => training::adagrad,
            Adam => training::adam,
            Momentum => training::momentum,
            Gradient => gradient::gradient,
        },
        FamilyOp::Contrib(op) => match op {
            MsGelu => contrib::gelu,
            MsFastGelu => contrib::fast_gelu,
            MsBiasGelu => contrib::bias_gelu,
            MsQuickGelu => contrib::quick_gelu,
            MsBiasAdd => contrib::bias_add,
            MsSkipLayerNormalization => contrib::skip_layer_normalization,
            MsSkipSimplifiedLayerNormalization => contrib::skip_simplified_layer_normalization,
            SimplifiedLayerNormalization => contrib::simplified_layer_normalization,
            MsEmbedLayerNormalization => contrib::embed_layer_normalization,
            MsFusedMatMul => contrib::fused_matmul,
            MsFusedGemm => contrib::fused_gemm,
            MsFusedConv => contrib::fused_conv,
            MsNhwcConv => contrib::nhwc_conv,
            MsQuantizeLinear => contrib_quant::quantize_linear,
            MsDequantizeLinear => contrib_quant::dequantize_linear,
            MsQLinearAdd | MsQLinearMul => contrib_quant::qlinear_binary,
            MsQLinearSigmoid | MsQLinearLeakyRelu => contrib_quant::qlinear_activation,
            MsQLinearSoftmax => contrib_quant::qlinear_softmax,
            MsQLinearConcat => contrib_quant::qlinear_concat,
            MsQLinearGlobalAveragePool | MsQLinearAveragePool => contrib_quant::qlinear_pool,
            MsQGemm => contrib_quant::qgemm,
            MsQLinearConv => contrib_quant::qlinear_conv,
            MsDynamicQuantizeMatMul => contrib_quant::dynamic_quantize_matmul,
            MsMatMulIntegerToFloat => contrib_quant::matmul_integer_to_float,
            MsMatMulNBits => contrib_quant::matmul_nbits,
            MsAttention => contrib_attention::attention,
            MsMultiHeadAttention => contrib_attention::multi_head_attention,
            MsGroupQueryAttention => contrib_attention::group_query_attention,
            MsRotaryEmbedding => contrib_attention::rotary_embedding,
            MsAttnLSTM
            | MsBeamSearch
            | MsBiasDropout
            | MsBiasSoftmax
            | MsBiasSplitGelu
            | MsBifurcationDetector
            | MsBitmaskBiasDropout
            | MsBitmaskDropout
            | MsBranchwiseRMSNorm
            | MsCDist
            | MsCausalConvWithState
            | MsComplexMul
            | MsComplexMulConj
            | MsConvTransposeWithDynamicPads
            | MsCropAndResize
            | MsDecoderAttention
            | MsDecoderMaskedMultiHeadAttention
            | MsDecoderMaskedSelfAttention
            | MsDequantizeBFP
            | MsDequantizeWithOrder
            | MsDynamicQuantizeLSTM
            | MsDynamicSparseAttention
            | MsDynamicTimeWarping
            | MsEPContext
            | MsEngramGate
            | MsExpandDims
            | MsFusedMatMulActivation
            | MsGatedAdd
            | MsGatedDeltaNet
            | MsGatedRMSNorm
            | MsGatedRelativePositionBias
            | MsGatherBlockQuantized
            | MsGatherND
            | MsGemmFastGelu
            | MsGemmFloat8
            | MsGemmaRotaryEmbedding
            | MsGreedySearch
            | MsGridSample
            | MsGroupNorm
            | MsHyperConnectionPostMix
            | MsHyperConnectionPreMix
            | MsInverse
            | MsIrfft
            | MsIsAllFinite
            | MsLinearAttention
            | MsLinearAttentionGate
            | MsLongformerAttention
            | MsMRotaryEmbedding
            | MsMatMulBlockQuantizedFp4Weight
            | MsMatMulBlockQuantizedFp8Weight
            | MsMatMulBnb4
            | MsMatMulFpQ4
            | MsMatMulInteger16
            | MsMatMulNBitsMlp
            | MsMatMulNBitsQkv
            | MsMaxpoolWithMask
            | MsMoE
            | MsMulInteger
            | MsMurmurHash3
            | MsNGramHashMapping
            | MsNGramRepeatBlock
            | MsNhwcFusedConv
            | MsNhwcMaxPool
            | MsPackedAttention
            | MsPackedMultiHeadAttention
            | MsPackedSparseAttentionIndexer
            | MsPad
            | MsPagedAttention
            | MsQAttention
            | MsQEmbedLayerNormalization
            | MsQLinearReduceMean
            | MsQLinearWhere
            | MsQMoE
            | MsQOrderedAttention
            | MsQOrderedGelu
            | MsQOrderedLayerNormalization
            | MsQOrderedLongformerAttention
            | MsQOrderedMatMul
            | MsQuantizeBFP
            | MsQuantizeWithOrder
            | MsRange
            | MsReduceSumInteger
            | MsRelativePositionBias
            | MsRemovePadding
            | MsRestorePadding
            | MsRfft
            | MsSampleOp
            | MsSampling
            | MsScaledSiLU
            | MsSkipGroupNorm
            | MsSnpe
            | MsSparseAttention
            | MsSparseAttentionIndexer
            | MsSparsePagedAttention
            | MsSparseToDenseMatMul
            | MsTokenizer
            | MsTorchEmbedding
            | MsTransposeMatMul
            | MsTrilu
            | MsUnfoldTensor
            | MsUnique
            | MsVarlenCausalConvWithState
            | MsVarlenNGramHashMapping
            | MsWhisperBeamSearch
            | MsWordConvEmbedding => return None,
        },
        FamilyOp::Reduce(_)
        | FamilyOp::Layout(_)
        | FamilyOp::Vision(_)
        | FamilyOp::Sequence(_)
        | FamilyOp::Quant(_)
        | FamilyOp::Fused(_) => return None,
    })
}

/// Expands every composite op of the model (subgraphs included) that an
/// expansion handles.
///
/// A model that imports no ai.onnx opset (one of ai.onnx.ml or training
/// ops alone) gets [`IMPLIED_ONNX_OPSET`] when an expansion builds ai.onnx
/// ops into it.
pub fn decompose(model: &mut Model) -> Result<()> {
    let imported = model.opset(Domain::Onnx);
    let opset = imported.unwrap_or(IMPLIED_ONNX_OPSET);
    let mut expanded = false;
    let mut knowledge = infer_model(model)?;
    let regions: Vec<RegionId> = model
        .top_regions()
        .into_iter()
        .flat_map(|r| model.ir.regions_within(r))
        .rev()
        .collect();
    for region in regions {
        let ops = model.ir.region(region).ops.clone();
        for (position, &op) in ops.iter().enumerate() {
            let kind = model.ir.op(op).kind;
            let Some(expand) = expansion(kind) else {
                continue;
            };
            let mut b = Builder::new(&mut model.ir, &mut knowledge, opset, op);
            let committed = match expand(&mut b) {
                Some(results) => b.commit(&results),
                None => {
                    b.discard();
                    false
                }
            };
            expanded |= committed;
            // Inference knew nothing of a contrib op's results: the ops
            // after it learn them from its expansion.
            if committed && kind.family() == Family::Contrib {
                for &later in &ops[position + 1..] {
                    infer_op(&mut model.ir, later, &mut knowledge)?;
                }
            }
        }
    }
    if expanded && imported.is_none() {
        model.opset_imports.push(OpsetImport {
            domain: String::new(),
            version: opset,
        });
    }
    import_internal_domain(model);
    Ok(())
}

/// Imports the internal domain into a model an expansion built internal
/// ops into (the contrib fused ops become onnx-mlc's).
fn import_internal_domain(model: &mut Model) {
    if model.opset(Domain::Internal).is_some() {
        return;
    }
    let regions: Vec<RegionId> = model
        .top_regions()
        .into_iter()
        .flat_map(|r| model.ir.regions_within(r))
        .collect();
    let uses_internal = regions.iter().any(|&r| {
        model
            .ir
            .region(r)
            .ops
            .iter()
            .any(|&op| model.ir.op(op).kind.domain() == Domain::Internal)
    });
    if uses_internal {
        model.opset_imports.push(OpsetImport {
            domain: Domain::Internal.name().to_string(),
            version: 1,
        });
    }
}

/// The ai.onnx opset imported into a model that imported none when an
/// expansion builds ai.onnx ops into it: that of onnx 1.16, the release
/// of the newest ai.onnx.ml opset (5), which runtimes of the last years
/// (onnxruntime among them) accept, unlike the newest ai.onnx opsets.
const IMPLIED_ONNX_OPSET: i64 = 21;
