#!/usr/bin/env python3
"""Generates the op table, dialects/onnx/src/schema/kind.rs and table.rs,
from the `onnx` package's operator schemas (every version of every op in
ai.onnx, ai.onnx.ml, ai.onnx.preview.training and ai.onnx.preview), onnx-mlc's own
internal operators (domain `onnx_mlc`, defined in `tools/internal_ops.py`)
and onnxruntime's contrib operators (domain `com.microsoft`, read from the
onnxruntime package by `tools/contrib_ops.py`).

The table is data: regenerate it with the pinned onnx and onnxruntime
releases (`.venv/bin/python tools/gen_op_table.py`) and check the result in.
The test suite compares the checked-in files with a fresh run
(`--check`) when the venv exists.

Besides the schemas, the table carries what onnx-mlc knows per operator
that the schemas do not say, as data below: the op family of each operator
(`FAMILIES`: the file of `dialects/onnx/src/ops/` that infers its types,
and the lowering file of the same name), and facts that cut across a family
(`FACTS`). Every operator must be given a family here: the generator fails
on an operator without one, so a new onnx release's operators are decided
here first.
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys

import numpy as np
import onnx
import onnx.defs as defs

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import contrib_ops  # noqa: E402
import internal_ops  # noqa: E402

DOMAINS = {
    "": "Onnx",
    "ai.onnx.ml": "Ml",
    "ai.onnx.preview.training": "Training",
    "ai.onnx.preview": "Preview",
    internal_ops.DOMAIN: "Internal",
    contrib_ops.DOMAIN: "Microsoft",
}

# The prefix of the `OpKind` variants of a domain's operators, where its
# op types clash with other domains' (`com.microsoft.Attention` is
# `OpKind::MsAttention`).
VARIANT_PREFIX = {contrib_ops.DOMAIN: "Ms"}


def variant(s) -> str:
    """The `OpKind` variant of a schema's operator."""
    return VARIANT_PREFIX.get(s.domain, "") + s.name

ELEM = {
    "float": "F32", "uint8": "U8", "int8": "I8", "uint16": "U16", "int16": "I16",
    "int32": "I32", "int64": "I64", "string": "String", "bool": "Bool",
    "float16": "F16", "double": "F64", "uint32": "U32", "uint64": "U64",
    "complex64": "Complex64", "complex128": "Complex128", "bfloat16": "BF16",
    "float8e4m3fn": "F8E4M3FN", "float8e4m3fnuz": "F8E4M3FNUZ",
    "float8e5m2": "F8E5M2", "float8e5m2fnuz": "F8E5M2FNUZ", "uint4": "U4",
    "int4": "I4", "float4e2m1": "F4E2M1", "float8e8m0": "F8E8M0",
    "uint2": "U2", "int2": "I2", "float6e2m3": "F6E2M3", "float6e3m2": "F6E3M2",
}

ATTR_KIND = {
    "FLOAT": "Float", "INT": "Int", "STRING": "String", "TENSOR": "Tensor",
    "GRAPH": "Graph", "SPARSE_TENSOR": "SparseTensor", "TYPE_PROTO": "Type",
    "FLOATS": "Floats", "INTS": "Ints", "STRINGS": "Strings", "TENSORS": "Tensors",
    "GRAPHS": "Graphs", "SPARSE_TENSORS": "SparseTensors", "TYPE_PROTOS": "Types",
}

OPTION = {"Single": "Single", "Optional": "Optional", "Variadic": "Variadic"}

# The op families: one file of dialects/onnx/src/ops/ each, in the order of
# the dialect's dispatch, with what its operators have in common and the
# ONNX operators it holds (the internal operators give theirs in
# tools/internal_ops.py). Every operator is in exactly one family.
FAMILIES = {
    "elementwise": (
        "Computed per element from the input elements at the same (broadcast) position:"
        " unary math and activations, casts, arithmetic, comparisons, logic, the variadic"
        " Max/Min/Mean/Sum and Where.",
        """Abs Acos Acosh Asin Asinh Atan Atanh Ceil Celu Cos Cosh Elu Erf Exp Floor Gelu
        HardSigmoid HardSwish IsInf IsNaN LeakyRelu Log Mish Neg Not Reciprocal Relu Round Selu
        Shrink Sigmoid Sign Sin Sinh Softplus Softsign Sqrt Swish Tan Tanh ThresholdedRelu
        BitwiseNot Cast CastLike Clip BitCast Add Sub Mul Div Pow Mod And Or Xor Equal Greater
        GreaterOrEqual Less LessOrEqual BitShift BitwiseAnd BitwiseOr BitwiseXor PRelu Max Min
        Mean Sum Where""",
    ),
    "reduce": (
        "Reductions over axes, arg-extremes, cumulative sums and products, TopK.",
        """ArgMax ArgMin ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean
        ReduceMin ReduceProd ReduceSum ReduceSumSquare CumSum CumProd TopK""",
    ),
    "conv": (
        "Convolutions and pooling windows over spatial dims, and their inverses.",
        """Conv ConvTranspose ConvInteger QLinearConv DeformConv CausalConvWithState AveragePool
        MaxPool LpPool GlobalAveragePool GlobalMaxPool GlobalLpPool MaxUnpool Col2Im""",
    ),
    "norm": (
        "Normalizations, the softmaxes, LRN and Dropout.",
        """BatchNormalization InstanceNormalization LayerNormalization GroupNormalization
        RMSNormalization LpNormalization MeanVarianceNormalization LRN Softmax LogSoftmax Hardmax
        Dropout""",
    ),
    "linalg": (
        "Matrix products, Einsum, Det and the attention blocks.",
        """MatMul Gemm MatMulInteger QLinearMatMul Einsum Det Attention FlexAttention
        LinearAttention RotaryEmbedding SwiGLU""",
    ),
    "layout": (
        "Shapes, views, data movement and tensors built from shapes.",
        """Shape Size Reshape Flatten Squeeze Unsqueeze Transpose Concat Split Slice Expand Tile
        Pad DepthToSpace SpaceToDepth CenterCropPad Identity Constant ConstantOfShape Range
        EyeLike Trilu""",
    ),
    "index": (
        "Gathers, scatters and selections by index or mask.",
        """Gather GatherElements GatherND Scatter ScatterElements ScatterND TensorScatter OneHot
        Compress NonZero Unique ReverseSequence""",
    ),
    "vision": (
        "Image resampling, sampling grids, region pooling and box suppression.",
        "Resize Upsample GridSample AffineGrid RoiAlign MaxRoiPool NonMaxSuppression",
    ),
    "control": (
        "Control flow: subgraphs run by condition or per iteration.",
        "If Loop Scan",
    ),
    "sequence": (
        "Sequences and optionals.",
        """SequenceAt SequenceConstruct SequenceEmpty SequenceErase SequenceInsert SequenceLength
        SequenceMap SplitToSequence ConcatFromSequence Optional OptionalGetElement
        OptionalHasElement""",
    ),
    "quant": (
        "Linear quantization and dequantization.",
        "QuantizeLinear DequantizeLinear DynamicQuantizeLinear",
    ),
    "rnn": (
        "Recurrent layers.",
        "RNN GRU LSTM",
    ),
    "signal": (
        "Fourier transforms, windows and mel filter banks.",
        "DFT STFT BlackmanWindow HammingWindow HannWindow MelWeightMatrix",
    ),
    "random": (
        "Random number generators.",
        "RandomNormal RandomNormalLike RandomUniform RandomUniformLike Bernoulli Multinomial",
    ),
    "text": (
        "Strings, text vectorization and image decoding.",
        "StringConcat StringNormalizer StringSplit RegexFullMatch TfIdfVectorizer ImageDecoder",
    ),
    "loss": (
        "Losses.",
        "NegativeLogLikelihoodLoss SoftmaxCrossEntropyLoss",
    ),
    "ml": (
        "The classical machine-learning operators of ai.onnx.ml.",
        """ArrayFeatureExtractor Binarizer CastMap CategoryMapper DictVectorizer FeatureVectorizer
        Imputer LabelEncoder LinearClassifier LinearRegressor Normalizer OneHotEncoder
        SVMClassifier SVMRegressor Scaler TreeEnsemble TreeEnsembleClassifier
        TreeEnsembleRegressor ZipMap""",
    ),
    "training": (
        "The optimizers and gradients of ai.onnx.preview.training.",
        "Adagrad Adam Gradient Momentum",
    ),
    "fused": (
        "onnx-mlc's fused operators: what the graph optimizer produces from ONNX subgraphs.",
        "",
    ),
    "contrib": (
        "onnxruntime's contrib operators (every op of com.microsoft, and its"
        " SimplifiedLayerNormalization of ai.onnx): the decompose pass expands them into"
        " standard operators; the lowering refuses those it does not expand.",
        "SimplifiedLayerNormalization",
    ),
}

# Facts about operators beyond their family: each is the Rust predicate
# `OpKind::<name>`, its doc, the family its operators belong to and the
# operators it holds.
FACTS = {
    "is_unary_elementwise": (
        "Whether the op is a unary elementwise one: its first result has its first input's"
        " shape (Clip's bounds and CastLike's type donor aside).",
        "elementwise",
        """Abs Acos Acosh Asin Asinh Atan Atanh Ceil Celu Cos Cosh Elu Erf Exp Floor Gelu
        HardSigmoid HardSwish IsInf IsNaN LeakyRelu Log Mish Neg Not Reciprocal Relu Round Selu
        Shrink Sigmoid Sign Sin Sinh Softplus Softsign Sqrt Swish Tan Tanh ThresholdedRelu
        BitwiseNot Cast CastLike Clip BitCast Activation""",
    ),
    "is_reduction": (
        "Whether the op is one of the ten `Reduce*` ops (a reduction over `axes`, an attribute"
        " before opset 18 (13 for ReduceSum) and an input since).",
        "reduce",
        """ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean ReduceMin
        ReduceProd ReduceSum ReduceSumSquare""",
    ),
    "is_view": (
        "Whether the op only reinterprets the shape of its first input: its result is that"
        " input's data, in the same order, under another shape (a view, no computation).",
        "layout",
        "Reshape Flatten Squeeze Unsqueeze Identity",
    ),
}


def split_args(s: str) -> list[str]:
    """Splits `a, b(c, d)` at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur.strip())
    return out


def type_pattern(s: str) -> str:
    """Rust expression of a `TypePattern` for a spec type string."""
    s = s.strip()
    m = re.fullmatch(r"(\w+)\((.*)\)", s)
    if not m:
        # A bare element type stands for a tensor of it (map values).
        return f"TypePattern::Tensor(ElemType::{ELEM[s]})"
    head, inner = m.group(1), m.group(2)
    if head == "tensor":
        return f"TypePattern::Tensor(ElemType::{ELEM[inner]})"
    if head == "sparse_tensor":
        return f"TypePattern::SparseTensor(ElemType::{ELEM[inner]})"
    if head == "seq":
        return f"TypePattern::Sequence(&{type_pattern(inner)})"
    if head == "optional":
        return f"TypePattern::Optional(&{type_pattern(inner)})"
    if head == "map":
        key, value = split_args(inner)
        return f"TypePattern::Map(ElemType::{ELEM[key]}, &{type_pattern(value)})"
    raise ValueError(f"unknown type string {s!r}")


def rust_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rust_f32(v: float) -> str:
    """The shortest literal that reads back as the f32 `v`."""
    r = str(np.float32(v))
    if r in ("inf", "-inf", "nan"):
        return {"inf": "f32::INFINITY", "-inf": "f32::NEG_INFINITY", "nan": "f32::NAN"}[r]
    return r if ("." in r or "e" in r) else r + ".0"


def attr_default(a) -> str:
    dv = a.default_value
    if dv is None or dv.type == 0:
        return "None"
    k = onnx.AttributeProto.AttributeType.Name(dv.type)
    if k == "INT":
        return f"Some(AttrDefault::Int({dv.i}))"
    if k == "FLOAT":
        return f"Some(AttrDefault::Float({rust_f32(dv.f)}))"
    if k == "STRING":
        return f"Some(AttrDefault::String({rust_str(dv.s.decode())}))"
    if k == "INTS":
        return f"Some(AttrDefault::Ints(&[{', '.join(str(i) for i in dv.ints)}]))"
    if k == "FLOATS":
        return f"Some(AttrDefault::Floats(&[{', '.join(rust_f32(f) for f in dv.floats)}]))"
    if k == "STRINGS":
        return f"Some(AttrDefault::Strings(&[{', '.join(rust_str(s.decode()) for s in dv.strings)}]))"
    raise ValueError(f"unsupported default of kind {k}")


def param(p, constraints: set[str]) -> str:
    ty = (
        f"ParamType::Var({rust_str(p.type_str)})"
        if p.type_str in constraints
        else f"ParamType::Fixed({type_pattern(p.type_str)})"
    )
    return (
        f"Param {{ name: {rust_str(p.name)}, option: ParamOption::{OPTION[p.option.name]}, "
        f"ty: {ty}, homogeneous: {str(p.is_homogeneous).lower()}, min_arity: {p.min_arity} }}"
    )


def schema(s) -> str:
    constraints = {tc.type_param_str for tc in s.type_constraints}
    ins = ", ".join(param(p, constraints) for p in s.inputs)
    outs = ", ".join(param(p, constraints) for p in s.outputs)
    attrs = ", ".join(
        f"AttrSchema {{ name: {rust_str(a.name)}, kind: AttrKind::{ATTR_KIND[a.type.name]}, "
        f"required: {str(a.required).lower()}, default: {attr_default(a)} }}"
        for a in sorted(s.attributes.values(), key=lambda a: a.name)
    )
    tcs = ", ".join(
        f"TypeConstraint {{ name: {rust_str(tc.type_param_str)}, allowed: &[{', '.join(type_pattern(t) for t in tc.allowed_type_strs)}] }}"
        for tc in s.type_constraints
    )
    cap = lambda n: min(n, 2**31 - 1)
    return (
        f"OpSchema {{ kind: OpKind::{variant(s)}, since_version: {s.since_version}, "
        f"deprecated: {str(s.deprecated).lower()}, "
        f"min_inputs: {s.min_input}, max_inputs: {cap(s.max_input)}, "
        f"min_outputs: {s.min_output}, max_outputs: {cap(s.max_output)}, "
        f"inputs: &[{ins}], outputs: &[{outs}], attrs: &[{attrs}], "
        f"type_constraints: &[{tcs}] }}"
    )


def camel(name: str) -> str:
    """`elementwise` -> `Elementwise`: a family's Rust variant."""
    return name[0].upper() + name[1:]


def family_of(names: list[str], ops: dict[str, list]) -> dict[str, str]:
    """The family of every operator, checked: each in exactly one family,
    every family's operators in the table, each fact within its family.
    Every com.microsoft operator is of the contrib family."""
    of: dict[str, str] = {}
    members = [(f, n) for f, (_, listed) in FAMILIES.items() for n in listed.split()]
    members += [(f, n) for n, f in internal_ops.families().items()]
    members += [("contrib", n) for n in names if ops[n][0].domain == contrib_ops.DOMAIN]
    for f, n in members:
        assert f in FAMILIES, f"{n}: unknown family {f!r}"
        assert n in names, f"{n} (family {f}) is not in the op table"
        assert n not in of, f"{n} is in families {of[n]} and {f}"
        of[n] = f
    missing = [n for n in names if n not in of]
    assert not missing, f"give these operators a family in FAMILIES: {' '.join(missing)}"
    for fact, (_, family, ops) in FACTS.items():
        for n in ops.split():
            assert of.get(n) == family, f"{fact}: {n} is not in family {family}"
    return of


def generate() -> dict[str, str]:
    """The generated files of dialects/onnx/src/schema/, by name: `kind.rs`
    (the `OpKind` enum, its families and facts) and `table.rs` (every
    version of every schema). Two files, so that the schema types
    (`spec.rs`), which name `OpKind`, sit between them."""
    schemas = [s for s in defs.get_all_schemas_with_history() if s.domain in DOMAINS]
    schemas += internal_ops.schemas()
    schemas += contrib_ops.schemas()
    ops: dict[str, list] = {}
    for s in schemas:
        ops.setdefault(variant(s), []).append(s)
    # Within a domain, variants sort as their op types do (one prefix per
    # domain): `OpKind::from_name` searches by (domain, op type).
    names = sorted(ops, key=lambda n: (list(DOMAINS).index(ops[n][0].domain), n))
    for n in names:
        ops[n].sort(key=lambda s: s.since_version)
        assert len({s.domain for s in ops[n]}) == 1, f"{n} is in several domains"
    of = family_of(names, ops)
    return {"kind.rs": kind_rs(names, ops, of), "table.rs": table_rs(names, ops)}


HEADER = (
    f"// @generated by tools/gen_op_table.py from onnx {onnx.__version__} and onnxruntime"
    f" {contrib_ops.version()}. Do not edit."
)


def kind_rs(names: list[str], ops: dict[str, list], of: dict[str, str]) -> str:
    """`OpKind`, its domains, families and facts; the family enums."""
    out = []
    w = out.append
    w(HEADER)
    w("")
    w("use super::domain::Domain;")
    w("")
    w("/// Every operator of the op table, one variant per (domain, name).")
    w("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]")
    w("pub enum OpKind {")
    for n in names:
        w(f"    /// `{ops[n][0].domain or 'ai.onnx'}.{ops[n][0].name}`, versions {', '.join(str(s.since_version) for s in ops[n])}.")
        w(f"    {n},")
    w("}")
    w("")
    w("impl OpKind {")
    w(f"    /// Every op kind, domain by domain, in name order.")
    w(f"    pub const ALL: [OpKind; {len(names)}] = [{', '.join('OpKind::' + n for n in names)}];")
    w("")
    w("    /// The operator's name as written in `NodeProto.op_type`.")
    w("    pub fn name(self) -> &'static str {")
    w("        match self {")
    for n in names:
        w(f"            OpKind::{n} => {rust_str(ops[n][0].name)},")
    w("        }")
    w("    }")
    w("")
    w("    /// The operator set domain.")
    w("    pub fn domain(self) -> Domain {")
    w("        match self {")
    for dom, variant in DOMAINS.items():
        members = [n for n in names if ops[n][0].domain == dom]
        if members:
            w(f"            {' | '.join('OpKind::' + n for n in members)} => Domain::{variant},")
    w("        }")
    w("    }")
    w("")
    w("    /// The op's family: the file of `dialects/onnx/src/ops/` (and of the")
    w("    /// lowering) that handles it.")
    w("    pub fn family(self) -> Family {")
    w("        match self {")
    for f in FAMILIES:
        members = [n for n in names if of[n] == f]
        w(f"            {' | '.join('OpKind::' + n for n in members)} => Family::{camel(f)},")
    w("        }")
    w("    }")
    w("")
    w("    /// The op as a member of its family, for an exhaustive match over the")
    w("    /// family's own ops.")
    w("    pub fn family_op(self) -> FamilyOp {")
    w("        match self {")
    for n in names:
        w(f"            OpKind::{n} => FamilyOp::{camel(of[n])}({camel(of[n])}Op::{n}),")
    w("        }")
    w("    }")
    for fact, (doc, _, holds) in FACTS.items():
        w("")
        w(f"    /// {doc}")
        w(f"    pub fn {fact}(self) -> bool {{")
        w(f"        matches!(self, {' | '.join('OpKind::' + n for n in sorted(holds.split(), key=names.index))})")
        w("    }")
    w("}")
    w("")
    w("/// The op families: one file of `dialects/onnx/src/ops/` each (shape and")
    w("/// type inference), and the lowering's file of the same name.")
    w("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]")
    w("pub enum Family {")
    for f, (doc, _) in FAMILIES.items():
        w(f"    /// {doc}")
        w(f"    {camel(f)},")
    w("}")
    w("")
    w("impl Family {")
    w("    /// Every family, in the order of the dialect's dispatch.")
    w(f"    pub const ALL: [Family; {len(FAMILIES)}] = [{', '.join('Family::' + camel(f) for f in FAMILIES)}];")
    w("")
    w("    /// The family's file name (`elementwise` for `ops/elementwise.rs`).")
    w("    pub fn name(self) -> &'static str {")
    w("        match self {")
    for f in FAMILIES:
        w(f"            Family::{camel(f)} => {rust_str(f)},")
    w("        }")
    w("    }")
    w("}")
    w("")
    w("/// An op as a member of its family ([`OpKind::family_op`]).")
    w("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]")
    w("pub enum FamilyOp {")
    for f in FAMILIES:
        w(f"    /// An op of [`Family::{camel(f)}`].")
        w(f"    {camel(f)}({camel(f)}Op),")
    w("}")
    for f in FAMILIES:
        members = [n for n in names if of[n] == f]
        w("")
        w(f"/// The ops of [`Family::{camel(f)}`].")
        w("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]")
        w(f"pub enum {camel(f)}Op {{")
        for n in members:
            w(f"    /// [`OpKind::{n}`].")
            w(f"    {n},")
        w("}")
    w("")
    return "\n".join(out)


def table_rs(names: list[str], ops: dict[str, list]) -> str:
    """Every version of every operator's schema."""
    out = []
    w = out.append
    w(HEADER)
    w("")
    w("use super::kind::OpKind;")
    w("use super::spec::{")
    w("    AttrDefault, AttrSchema, OpSchema, Param, ParamOption, ParamType, TypeConstraint, TypePattern,")
    w("};")
    w("use crate::attr::AttrKind;")
    w("use crate::types::ElemType;")
    w("")
    w("impl OpKind {")
    w("    /// Every version of the operator's schema, oldest first.")
    w("    pub fn versions(self) -> &'static [OpSchema] {")
    w("        match self {")
    for n in names:
        w(f"            OpKind::{n} => &[")
        for s in ops[n]:
            w(f"                {schema(s)},")
        w("            ],")
    w("        }")
    w("    }")
    w("}")
    w("")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    root = pathlib.Path(__file__).resolve().parent.parent
    ap.add_argument("--dir", default=root / "dialects/onnx/src/schema", type=pathlib.Path,
                    help="where kind.rs and table.rs go")
    ap.add_argument("--check", action="store_true", help="exit 1 if the checked-in files differ")
    args = ap.parse_args()
    files = generate()
    if args.check:
        stale = [n for n, text in files.items()
                 if not (args.dir / n).exists() or (args.dir / n).read_text() != text]
        print(f"out of date in {args.dir}: {', '.join(stale)} (run tools/gen_op_table.py"
              f" with onnx {onnx.__version__} and onnxruntime {contrib_ops.version()})" if stale else "op table up to date")
        return 1 if stale else 0
    for n, text in files.items():
        (args.dir / n).write_text(text)
        print(f"wrote {args.dir / n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
