"""The operators of onnx-mlc's internal domain (`onnx_mlc`, text prefix `omlc`).

The graph optimizer (compiler/optimizer) rewrites ONNX subgraphs into these
fused operators; the lowering implements them. Each definition below is the
contract between the two: what the operator computes, exactly. They are data,
in the shape of `onnx.defs.OpSchema`, so that `tools/gen_op_table.py` puts
them into the one op table (`OpKind`) next to the ONNX operators, each
with its op family (`operators()`; `Activation` is elementwise, the others
fused).

Activations. The fused operators end in an optional elementwise activation,
named by the STRING attribute `activation` ("" = none) with its FLOATS
parameters in `activation_params`:

| activation  | params         | f(x)                                              |
|-------------|----------------|---------------------------------------------------|
| ""          |                | x                                                 |
| Relu        |                | max(x, 0)                                         |
| LeakyRelu   | alpha          | x if x >= 0 else alpha * x                        |
| Sigmoid     |                | 1 / (1 + exp(-x))                                 |
| Tanh        |                | tanh(x)                                           |
| Clip        | min, max       | min(max(x, min), max)                             |
| HardSigmoid | alpha, beta    | max(0, min(1, alpha * x + beta))                  |
| HardSwish   |                | x * max(0, min(1, x / 6 + 1 / 2))                 |
| Silu        |                | x * sigmoid(x)                                    |
| Gelu        |                | x / 2 * (1 + erf(x / sqrt(2)))                    |
| GeluTanh    |                | x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))) |
"""
from __future__ import annotations

from onnx import AttributeProto, helper
from onnx.defs import OpSchema

DOMAIN = "onnx_mlc"
VERSION = 1

FLOATS = ["tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"]

P = OpSchema.FormalParameter
OPTIONAL = OpSchema.FormalParameterOption.Optional


def attr(name: str, value, doc: str) -> OpSchema.Attribute:
    """An optional attribute with a default value."""
    return OpSchema.Attribute(name, helper.make_attribute(name, value), doc)


def attr_nodefault(name: str, kind, doc: str) -> OpSchema.Attribute:
    """An optional attribute without default."""
    return OpSchema.Attribute(name, kind, doc, required=False)


# The packed integer products' optional epilogue operands (after the zero
# points) and their type constraints.
PACKED_EPILOGUE = [
    P("scale", "T4", param_option=OPTIONAL),
    P("bias", "T4", param_option=OPTIONAL),
    P("y_scale", "T4", param_option=OPTIONAL),
    P("y_zero_point", "T6", param_option=OPTIONAL),
]
PACKED_TYPES = [
    ("T1", ["tensor(uint8)", "tensor(int8)"], "8-bit integer activations"),
    ("T2", ["tensor(int8)"], "the packed int8 weights"),
    ("T3", ["tensor(int32)"], "int32 sums"),
    ("T4", ["tensor(float)"], "the scales and bias"),
    ("T5", ["tensor(int32)", "tensor(float)", "tensor(uint8)", "tensor(int8)"],
     "int32 sums, scaled float, or requantized"),
    ("T6", ["tensor(uint8)", "tensor(int8)"], "the requantized type"),
]

ACTIVATION = [
    attr("activation", "", "the activation applied last (see the table in tools/internal_ops.py); empty: none"),
    attr_nodefault("activation_params", AttributeProto.FLOATS, "the activation's parameters"),
]

CONV_ATTRS = [
    attr("auto_pad", "NOTSET", "as Conv"),
    attr_nodefault("dilations", AttributeProto.INTS, "as Conv"),
    attr("group", 1, "as Conv"),
    attr_nodefault("kernel_shape", AttributeProto.INTS, "as Conv"),
    attr_nodefault("pads", AttributeProto.INTS, "as Conv"),
    attr_nodefault("strides", AttributeProto.INTS, "as Conv"),
]


def op(name, doc, inputs, outputs, attributes):
    return OpSchema(
        name,
        DOMAIN,
        VERSION,
        doc=doc,
        inputs=inputs,
        outputs=outputs,
        type_constraints=[("T", FLOATS, "floating-point tensors")],
        attributes=attributes,
    )


def schemas() -> list[OpSchema]:
    """Every internal operator."""
    return [schema for _, schema in operators()]


def families() -> dict[str, str]:
    """The dialect family of each internal operator (the op-family file
    `dialects/onnx/src/ops/<family>.rs` of `tools/gen_op_table.py`'s
    `FAMILIES`)."""
    return {schema.name: family for family, schema in operators()}


def operators() -> list[tuple[str, OpSchema]]:
    """Every internal operator with its dialect family."""
    return [
        ("elementwise", op(
            "Activation",
            "Y = activation(X), elementwise.",
            [P("X", "T")],
            [P("Y", "T")],
            ACTIVATION,
        )),
        ("fused", op(
            "FusedConv",
            "Y = activation(Conv(X, W, B) + Z): Conv with its attributes, then the optional"
            " residual Z (exactly Y's shape), then the activation.",
            [P("X", "T"), P("W", "T"), P("B", "T", param_option=OPTIONAL), P("Z", "T", param_option=OPTIONAL)],
            [P("Y", "T")],
            CONV_ATTRS + ACTIVATION,
        )),
        ("fused", op(
            "FusedGemm",
            "Y = activation(alpha * A' * B' + beta * C): Gemm with its attributes, then the activation.",
            [P("A", "T"), P("B", "T"), P("C", "T", param_option=OPTIONAL)],
            [P("Y", "T")],
            [
                attr("alpha", 1.0, "as Gemm"),
                attr("beta", 1.0, "as Gemm"),
                attr("transA", 0, "as Gemm"),
                attr("transB", 0, "as Gemm"),
            ]
            + ACTIVATION,
        )),
        ("fused", op(
            "FusedMatMul",
            "Y = activation(MatMul(A, B) + Bias + Z): numpy matmul, then Bias broadcast"
            " unidirectionally to the product's shape, then the optional residual Z (exactly"
            " Y's shape), then the activation.",
            [P("A", "T"), P("B", "T"), P("Bias", "T", param_option=OPTIONAL),
             P("Z", "T", param_option=OPTIONAL)],
            [P("Y", "T")],
            ACTIVATION,
        )),
        ("fused", op(
            "FusedAttention",
            "Y = Softmax(scale * MatMul(Q, Kt) + Mask, axis=-1) * V, with Q [..., Sq, D],"
            " Kt [..., D, Sk] (keys already transposed), V [..., Sk, Dv]; batch dims broadcast"
            " as in MatMul; Mask broadcasts unidirectionally to [..., Sq, Sk]; Y is [..., Sq, Dv].",
            [P("Q", "T"), P("Kt", "T"), P("V", "T"), P("Mask", "T", param_option=OPTIONAL)],
            [P("Y", "T")],
            [attr("scale", 1.0, "the factor applied to the scores before the mask")],
        )),
        ("linalg", OpSchema(
            "PackedMatMulInteger",
            DOMAIN,
            VERSION,
            doc="Y = (A - a_zero_point) · (B - B_zero_point) in int32: MatMulInteger with a"
            " constant int8 B [K, N] given in the layout of the 8-bit dot-product"
            " instructions (4 bytes of a column per 32-bit lane, 16 columns per block):"
            " B_packed [ceil(N/16), ceil(K/4), 16, 4] with B_packed[p, q, j, r] = B[4q + r, 16p + j]"
            " (0 past K and N), B_colsum [N] its column sums, B_zero_point an int32 scalar or [N];"
            " A [..., M, K] with a scalar a_zero_point; Y [..., M, N]. With a scale (a scalar or"
            " [N]), Y is float: the int32 sums converted, times the scale, plus the bias (a"
            " scalar or [N]) if given; with y_scale and y_zero_point (scalars) too, that float"
            " is quantized as QuantizeLinear does, into y_zero_point's type.",
            inputs=[P("A", "T1"), P("B_packed", "T2"), P("B_colsum", "T3"),
                    P("a_zero_point", "T1", param_option=OPTIONAL),
                    P("B_zero_point", "T3", param_option=OPTIONAL),
                    *PACKED_EPILOGUE],
            outputs=[P("Y", "T5")],
            type_constraints=PACKED_TYPES,
            attributes=[],
        )),
        ("conv", OpSchema(
            "DepthwiseConv",
            DOMAIN,
            VERSION,
            doc="A depthwise convolution in channels-last layout, in f32: X [N, H, W, C] (already"
            " padded; f32, or 8-bit integers read as their values), W [KH, KW, C] (f32),"
            " Y [N, OH, OW, C] with OH = (H - dilations[0]·(KH - 1) - 1) / strides[0] + 1 (and"
            " OW alike): Y[n, oh, ow, c] = Σ X[n, oh·s0 + kh·d0, ow·s1 + kw·d1, c] · W[kh, kw, c]"
            " + B[c] (B [C] optional). With y_scale and y_zero_point (scalars), that float is"
            " quantized as QuantizeLinear does, into y_zero_point's type. A QDQ depthwise"
            " convolution is this op with the input's scale folded into W and its zero point"
            " into B.",
            inputs=[P("X", "T1"), P("W", "T2"), P("B", "T2", param_option=OPTIONAL),
                    P("y_scale", "T2", param_option=OPTIONAL),
                    P("y_zero_point", "T3", param_option=OPTIONAL)],
            outputs=[P("Y", "T4")],
            type_constraints=[
                ("T1", ["tensor(float)", "tensor(uint8)", "tensor(int8)"], "the input"),
                ("T2", ["tensor(float)"], "the weights, bias and output scale"),
                ("T3", ["tensor(uint8)", "tensor(int8)"], "the requantized type"),
                ("T4", ["tensor(float)", "tensor(uint8)", "tensor(int8)"],
                 "float, or requantized"),
            ],
            attributes=[
                OpSchema.Attribute("kernel_shape", AttributeProto.INTS, "[KH, KW]", required=True),
                attr_nodefault("strides", AttributeProto.INTS, "as Conv (default 1)"),
                attr_nodefault("dilations", AttributeProto.INTS, "as Conv (default 1)"),
            ],
        )),
        ("linalg", OpSchema(
            "PackedConvInteger",
            DOMAIN,
            VERSION,
            doc="Y = ConvInteger in channels-last layout with a constant int8 W packed like"
            " PackedMatMulInteger's B: X [N, H, W, C] (already padded; C a multiple of 4),"
            " W_packed the [KH·KW·C, M] matrix B[(kh·KW + kw)·C + c, m] = W[m, c, kh, kw] in"
            " the layout [ceil(M/16), KH·KW·C/4, 16, 4], W_colsum [M] its column sums,"
            " x_zero_point a scalar, W_zero_point an int32 scalar or [M];"
            " Y [N, OH, OW, M] with OH = (H - dilations[0]·(KH - 1) - 1) / strides[0] + 1"
            " (and OW alike): Y[n, oh, ow, m] = Σ (X[n, oh·s0 + kh·d0, ow·s1 + kw·d1, c] -"
            " x_zero_point) · (W[m, c, kh, kw] - W_zero_point[m]). With a scale (a scalar or [M]),"
            " Y is float: the int32 sums converted, times the scale, plus the bias (a scalar or"
            " [M]) if given; with y_scale and y_zero_point (scalars) too, that float is"
            " quantized as QuantizeLinear does, into y_zero_point's type.",
            inputs=[P("X", "T1"), P("W_packed", "T2"), P("W_colsum", "T3"),
                    P("x_zero_point", "T1", param_option=OPTIONAL),
                    P("W_zero_point", "T3", param_option=OPTIONAL),
                    *PACKED_EPILOGUE],
            outputs=[P("Y", "T5")],
            type_constraints=PACKED_TYPES,
            attributes=[
                OpSchema.Attribute("kernel_shape", AttributeProto.INTS, "[KH, KW]", required=True),
                attr_nodefault("strides", AttributeProto.INTS, "as Conv (default 1)"),
                attr_nodefault("dilations", AttributeProto.INTS, "as Conv (default 1)"),
            ],
        )),
    ]
