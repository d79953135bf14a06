"""The operators of onnxruntime's contrib domain (`com.microsoft`, text
prefix `ms`), and the one operator onnxruntime adds to ai.onnx
(`SimplifiedLayerNormalization`), as `onnx.defs.OpSchema`s.

onnxruntime's schemas are the spec (its ContribOperators documentation is
generated from them); this module reads them from the installed
onnxruntime package and restates each in the shape of the `onnx`
package's schemas, so that `tools/gen_op_table.py` puts them into the one
op table next to the ONNX operators. The op table names every
`com.microsoft` operator `Ms<op_type>` (`OpKind::MsAttention`): several
of them share their `op_type` with an ONNX or internal operator
(Attention, QuantizeLinear, FusedConv, …).
"""
from __future__ import annotations

import onnx
from onnx.defs import OpSchema

DOMAIN = "com.microsoft"

# The operators onnxruntime defines in ai.onnx that the `onnx` package does
# not: those its transformer optimizer writes.
ONNX_DOMAIN_OPS = ["SimplifiedLayerNormalization"]


def _params(params, least: int) -> list[OpSchema.FormalParameter]:
    """The formal parameters; `least` is the schema's least count, which
    gives a variadic parameter's least arity (onnxruntime does not expose
    it)."""
    singles = sum(p.option.name == "Single" for p in params)
    return [
        OpSchema.FormalParameter(
            p.name,
            p.typeStr,
            "",
            param_option=OpSchema.FormalParameterOption(int(p.option)),
            is_homogeneous=p.isHomogeneous,
            min_arity=max(0, least - singles) if p.option.name == "Variadic" else 1,
        )
        for p in params
    ]


def _attr(a) -> OpSchema.Attribute:
    kind = onnx.AttributeProto.AttributeType.Value(a.type.name)
    if a._default_value:
        default = onnx.AttributeProto()
        default.ParseFromString(a._default_value)
        return OpSchema.Attribute(a.name, default, "")
    return OpSchema.Attribute(a.name, kind, "", required=a.required)


def _schema(s) -> OpSchema:
    return OpSchema(
        s.name,
        s.domain,
        s.since_version,
        doc="",
        inputs=_params(s.inputs, s.min_input),
        outputs=_params(s.outputs, s.min_output),
        type_constraints=[
            (tc.type_param_str, list(tc.allowed_type_strs), "") for tc in s.type_constraints
        ],
        attributes=[_attr(a) for a in s.attributes.values()],
    )


def version() -> str:
    """The onnxruntime release the schemas come from."""
    import onnxruntime

    return onnxruntime.__version__


def schemas() -> list[OpSchema]:
    """Every version of every contrib operator (and of `ONNX_DOMAIN_OPS`)."""
    from onnxruntime.capi import onnxruntime_pybind11_state as ort

    return [
        _schema(s)
        for s in ort.get_all_operator_schema()
        if s.domain == DOMAIN or (s.domain == "" and s.name in ONNX_DOMAIN_OPS)
    ]
