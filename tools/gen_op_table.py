#!/usr/bin/env python3
"""Generates dialects/onnx/src/schema/table.rs from the `onnx` package's
operator schemas (every version of every op in ai.onnx, ai.onnx.ml,
ai.onnx.preview.training and ai.onnx.preview) and onnx-mlc's own internal
operators (domain `onnx_mlc`, defined in `tools/internal_ops.py`).

The table is data: regenerate it with the pinned onnx release
(`.venv/bin/python tools/gen_op_table.py`) and check the result in.
`tests` compares the checked-in table with a fresh run when the venv exists.
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys

import onnx
import onnx.defs as defs

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import internal_ops  # noqa: E402

DOMAINS = {
    "": "Onnx",
    "ai.onnx.ml": "Ml",
    "ai.onnx.preview.training": "Training",
    "ai.onnx.preview": "Preview",
    internal_ops.DOMAIN: "Internal",
}

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
    r = repr(float(v))
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
        f"OpSchema {{ kind: OpKind::{s.name}, since_version: {s.since_version}, "
        f"deprecated: {str(s.deprecated).lower()}, "
        f"min_inputs: {s.min_input}, max_inputs: {cap(s.max_input)}, "
        f"min_outputs: {s.min_output}, max_outputs: {cap(s.max_output)}, "
        f"inputs: &[{ins}], outputs: &[{outs}], attrs: &[{attrs}], "
        f"type_constraints: &[{tcs}] }}"
    )


def generate() -> str:
    schemas = [s for s in defs.get_all_schemas_with_history() if s.domain in DOMAINS]
    schemas += internal_ops.schemas()
    ops: dict[str, list] = {}
    for s in schemas:
        ops.setdefault(s.name, []).append(s)
    names = sorted(ops, key=lambda n: (list(DOMAINS).index(ops[n][0].domain), n))
    for n in names:
        ops[n].sort(key=lambda s: s.since_version)
        assert len({s.domain for s in ops[n]}) == 1, f"{n} is in several domains"

    out = []
    w = out.append
    w("// @generated by tools/gen_op_table.py from onnx " + onnx.__version__ + ". Do not edit.")
    w("")
    w("use super::*;")
    w("")
    w("/// Every operator of the op table, one variant per (domain, name).")
    w("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]")
    w("pub enum OpKind {")
    for n in names:
        w(f"    /// `{ops[n][0].domain or 'ai.onnx'}.{n}`, versions {', '.join(str(s.since_version) for s in ops[n])}.")
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
        w(f"            OpKind::{n} => {rust_str(n)},")
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
    ap.add_argument("--out", default=root / "dialects/onnx/src/schema/table.rs", type=pathlib.Path)
    ap.add_argument("--check", action="store_true", help="exit 1 if the checked-in table differs")
    args = ap.parse_args()
    text = generate()
    if args.check:
        same = args.out.exists() and args.out.read_text() == text
        print("op table up to date" if same else f"{args.out} differs from the onnx {onnx.__version__} schemas")
        return 0 if same else 1
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
