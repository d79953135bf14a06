//! What the planner does with each op: the one exhaustive match from an
//! op's family (the op table's [`FamilyOp`]) to an [`OpClass`], so that a
//! new op in the table does not compile until someone decides whether it
//! may fuse.

use onnx_mlc_dialect::ir::{Ir, OpData};
use onnx_mlc_dialect::schema::FamilyOp;

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

/// The class of a main-graph op (of `ir`): by family (the op table's),
/// and within a family whose ops differ, one exhaustive match over its
/// ops.
// rustfmt puts every op on a line of its own once one name is long; the
// table reads better wrapped.
#[rustfmt::skip]
pub(crate) fn classify(ir: &Ir, op: &OpData) -> OpClass {
    use onnx_mlc_dialect::schema::{
        ConvOp::*, LayoutOp::*, LinalgOp::*, NormOp::*, QuantOp::*, ReduceOp::*, SequenceOp::*,
    };
    let root = || {
        // Extra results (MaxPool's indices, LayerNormalization's
        // statistics) are outputs an epilogue cannot follow.
        if op.results.iter().flatten().count() == 1 { OpClass::Root } else { OpClass::Single }
    };
    match op.kind.family_op() {
        FamilyOp::Elementwise(_) => OpClass::Elementwise,
        FamilyOp::Reduce(r) => match r {
            ArgMax | ArgMin | ReduceL1 | ReduceL2 | ReduceLogSum | ReduceLogSumExp | ReduceMax
            | ReduceMean | ReduceMin | ReduceProd | ReduceSum | ReduceSumSquare => root(),
            CumSum | CumProd | TopK => OpClass::Single,
        },
        FamilyOp::Conv(c) => match c {
            Conv | ConvTranspose | ConvInteger | QLinearConv | DeformConv | AveragePool | MaxPool
            | LpPool | GlobalAveragePool | GlobalMaxPool | GlobalLpPool => root(),
            CausalConvWithState | Col2Im | DepthwiseConv | MaxUnpool => OpClass::Single,
        },
        FamilyOp::Norm(n) => match n {
            Softmax | LogSoftmax | Hardmax | LayerNormalization | InstanceNormalization
            | GroupNormalization | RMSNormalization | LpNormalization
            | MeanVarianceNormalization => root(),
            BatchNormalization if batch_norm_is_affine(op) => OpClass::Elementwise,
            BatchNormalization | LRN | Dropout => OpClass::Single,
        },
        FamilyOp::Linalg(l) => match l {
            MatMul | Gemm | MatMulInteger | QLinearMatMul | Einsum | Attention | FlexAttention
            | LinearAttention => root(),
            Det | PackedConvInteger | PackedMatMulInteger | RotaryEmbedding | SwiGLU => {
                OpClass::Single
            }
        },
        FamilyOp::Layout(l) => match l {
            Constant => OpClass::Weight,
            Reshape | Flatten | Squeeze | Unsqueeze | Identity => OpClass::View,
            CenterCropPad | Concat | ConstantOfShape | DepthToSpace | Expand | EyeLike | Pad
            | Range | Shape | Size | Slice | SpaceToDepth | Split | Tile | Transpose | Trilu => {
                OpClass::Single
            }
        },
        FamilyOp::Control(_) => OpClass::Control,
        FamilyOp::Sequence(s) => match s {
            SequenceMap => OpClass::Control,
            SequenceAt | SequenceConstruct | SequenceEmpty | SequenceErase | SequenceInsert
            | SequenceLength | SplitToSequence | ConcatFromSequence | Optional
            | OptionalGetElement | OptionalHasElement => OpClass::Single,
        },
        FamilyOp::Fused(_) => root(),
        FamilyOp::Quant(q) => match q {
            QuantizeLinear | DequantizeLinear if ir.quantizes_elementwise(op) => {
                OpClass::Elementwise
            }
            QuantizeLinear | DequantizeLinear | DynamicQuantizeLinear => OpClass::Single,
        },
        // Families whose every op is lowered in a kernel of its own.
        FamilyOp::Index(_) | FamilyOp::Vision(_) | FamilyOp::Rnn(_)
        | FamilyOp::Signal(_) | FamilyOp::Random(_) | FamilyOp::Text(_) | FamilyOp::Loss(_)
        | FamilyOp::Ml(_) | FamilyOp::Training(_) | FamilyOp::Contrib(_) => OpClass::Single,
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
    use onnx_mlc_dialect::schema::Family;
    use onnx_mlc_dialect::{Attr, Attrs, OpKind, Value};

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
            classify(
                &Ir::new(),
                &op(OpKind::BatchNormalization, version, results, attrs),
            )
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
        let plain = |kind, results| classify(&Ir::new(), &op(kind, 17, results, Attrs::default()));
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

    /// The classes the op table decides: the elementwise family fuses
    /// per element (BitCast among it: the same bits read as another type
    /// of the same width, element by element), the views are views, the
    /// reductions take epilogues. BatchNormalization is the one op outside
    /// the elementwise family that fuses per element (in inference form).
    #[test]
    fn classes_agree_with_the_op_table() {
        for kind in OpKind::ALL {
            let version = kind.versions().last().unwrap().since_version;
            let class = classify(&Ir::new(), &op(kind, version, 1, Attrs::default()));
            let elementwise = kind.family() == Family::Elementwise;
            assert_eq!(
                class == OpClass::Elementwise,
                elementwise || kind == OpKind::BatchNormalization,
                "{kind:?}"
            );
            assert_eq!(class == OpClass::View, kind.is_view(), "{kind:?}");
            if kind.is_reduction() {
                assert_eq!(class, OpClass::Root, "{kind:?}");
            }
            if kind.family() == Family::Control {
                assert_eq!(class, OpClass::Control, "{kind:?}");
            }
        }
        assert_eq!(
            classify(&Ir::new(), &op(OpKind::BitCast, 26, 1, Attrs::default())),
            OpClass::Elementwise
        );
    }

    /// QuantizeLinear and DequantizeLinear between `f32` and 8-bit
    /// integers with one scale and zero point fuse per element; per axis or
    /// blocked they are kernels of their own.
    #[test]
    fn per_tensor_quantization_is_elementwise() {
        use onnx_mlc_dialect::{ElemType, Model, Type};
        let mut model = Model::new("g", vec![]);
        let graph = model.graph;
        let mut value =
            |elem, dims: &[i64]| model.ir.add_arg(graph, None, Type::tensor(elem, dims));
        let x = value(ElemType::F32, &[2, 3]);
        let q = value(ElemType::U8, &[2, 3]);
        let (scale, zero) = (value(ElemType::F32, &[]), value(ElemType::U8, &[]));
        let scales = value(ElemType::F32, &[3]);
        let ir = &model.ir;
        let op = |kind, inputs: &[Value], result, attrs: Vec<(&str, Attr)>| OpData {
            inputs: inputs.iter().map(|&v| Some(v)).collect(),
            results: vec![Some(result)],
            attrs: Attrs(attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect()),
            ..op(kind, 21, 1, Attrs::default())
        };
        let class = |data: OpData| classify(ir, &data);
        assert_eq!(
            class(op(OpKind::QuantizeLinear, &[x, scale, zero], q, vec![])),
            OpClass::Elementwise
        );
        assert_eq!(
            class(op(OpKind::DequantizeLinear, &[q, scale, zero], x, vec![])),
            OpClass::Elementwise
        );
        assert_eq!(
            class(op(OpKind::DequantizeLinear, &[q, scale], x, vec![])),
            OpClass::Elementwise
        );
        let axis = vec![("axis", Attr::Int(1))];
        assert_eq!(
            class(op(OpKind::DequantizeLinear, &[q, scales], x, axis)),
            OpClass::Single
        );
        let blocked = vec![("block_size", Attr::Int(2))];
        assert_eq!(
            class(op(OpKind::QuantizeLinear, &[x, scale, zero], q, blocked)),
            OpClass::Single
        );
    }
}
