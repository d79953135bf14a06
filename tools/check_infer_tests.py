#!/usr/bin/env python3
"""Checks the infer-shapes text tests against onnx's own shape inference.

`tests/dialect/infer-shapes/*.mlir` state what `infer-shapes` must infer (the
CHECK lines spell the whole printed model after the pass) or how it must fail
(an ERROR line). `cargo test` holds onnx-mlc to those files; this script holds
the files to the reference, so that no expectation is merely what onnx-mlc
happened to print:

* A file with CHECK lines: the model they spell is converted to an ONNX model
  (declared result types dropped) and run through
  `onnx.shape_inference.infer_shapes(strict_mode=True, data_prop=True)`. Every
  op result must agree: same kind and element type; where onnx knows the rank
  or a dim, the file says the same (a static dim, or the same input
  `dim_param`). Where the file knows more than onnx does (a polynomial such
  as `("N"+"M")`, or a dim onnx leaves unknown), every input `dim_param` is
  replaced by a number and onnx runs again on the static model: the file's
  dim, evaluated with those numbers, must be what onnx finds. Claims that
  even the static run cannot confirm are listed as unconfirmed, for a
  reviewer (or a `// REFERENCE:` comment citing the spec); results where the
  file knows less than onnx are listed too. A file whose model onnx's strict
  inference fails on because of an onnx bug says so in a `// REFERENCE:`
  comment; its ops are then checked with lenient inference and the run.
* A file with an ERROR line: its input model, converted, must be rejected by
  `onnx.checker.check_model(full_check=True)`, by strict inference, or by
  onnxruntime running it on random inputs (listed, since that rejection may
  have another cause), unless a `// REFERENCE:` comment cites the operator
  spec for it.

Input dims are replaced by 6, 10, 14, 22, 26, … in name order, or as a
`// REFERENCE-DIMS: N=4, S=9` comment says (`?=6` sizes the unknown input
dims of the run, 2 by default). Values listed in a
`// REFERENCE-RUN: %y, %z` comment (where onnx's inference is wrong, which a
REFERENCE comment explains) are checked against the run only.

Usage: check_infer_tests.py [file.mlir ...]   (default: every infer-shapes test)
Exit status 1 when a file disagrees with onnx.
"""
from __future__ import annotations

import dataclasses
import pathlib
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

REPO = pathlib.Path(__file__).resolve().parent.parent
TESTS = REPO / "tests" / "dialect" / "infer-shapes"

# ---------------------------------------------------------------------------
# The text form (docs/text-format.md), as far as tests use it.

ELEM = {
    "f32": TensorProto.FLOAT, "ui8": TensorProto.UINT8, "i8": TensorProto.INT8,
    "ui16": TensorProto.UINT16, "i16": TensorProto.INT16, "i32": TensorProto.INT32,
    "i64": TensorProto.INT64, "string": TensorProto.STRING, "i1": TensorProto.BOOL,
    "f16": TensorProto.FLOAT16, "f64": TensorProto.DOUBLE, "ui32": TensorProto.UINT32,
    "ui64": TensorProto.UINT64, "complex<f32>": TensorProto.COMPLEX64,
    "complex<f64>": TensorProto.COMPLEX128, "bf16": TensorProto.BFLOAT16,
    "f8E4M3FN": TensorProto.FLOAT8E4M3FN, "f8E4M3FNUZ": TensorProto.FLOAT8E4M3FNUZ,
    "f8E5M2": TensorProto.FLOAT8E5M2, "f8E5M2FNUZ": TensorProto.FLOAT8E5M2FNUZ,
    "ui4": TensorProto.UINT4, "i4": TensorProto.INT4, "f4E2M1FN": TensorProto.FLOAT4E2M1,
    "f8E8M0FNU": TensorProto.FLOAT8E8M0, "ui2": TensorProto.UINT2, "i2": TensorProto.INT2,
    "f6E2M3FN": 27, "f6E3M2FN": 28,
}
ELEM_NAME = {code: name for name, code in ELEM.items()}
DOMAINS = {"onnx": "", "onnx_ml": "ai.onnx.ml", "onnx_training": "ai.onnx.preview.training",
           "onnx_preview": "ai.onnx.preview"}


@dataclasses.dataclass
class Poly:
    """A dim: a polynomial over dim_params, `terms` mapping sorted name tuples to
    coefficients (the empty tuple is the constant)."""
    terms: dict

    @staticmethod
    def const(n):
        return Poly({(): n} if n else {})

    def eval(self, env):
        total = 0
        for names, coef in self.terms.items():
            value = coef
            for n in names:
                value *= env[n]
            total += value
        return total

    def params(self):
        return {n for names in self.terms for n in names}

    def as_param(self):
        """The dim_param name when the dim is one, alone."""
        if len(self.terms) == 1:
            (names, coef), = self.terms.items()
            if coef == 1 and len(names) == 1:
                return names[0]
        return None

    def as_int(self):
        if not self.terms:
            return 0
        if list(self.terms) == [()]:
            return self.terms[()]
        return None


@dataclasses.dataclass
class Tensor:
    elem: str
    dims: list | None  # of Poly or None (unknown); None = unranked
    sparse: bool = False


@dataclasses.dataclass
class Seq:
    elem: object


@dataclasses.dataclass
class Opt:
    elem: object


@dataclasses.dataclass
class Map:
    key: str
    value: object


class Unknown:
    pass


@dataclasses.dataclass
class Dense:
    ty: Tensor
    values: object  # list (nested), scalar (splat), bytes (hex)


@dataclasses.dataclass
class Graph:
    name: str
    args: list  # (name, type, default Dense | None)
    outputs: list  # (name, type)
    ops: list
    returns: list


@dataclasses.dataclass
class Op:
    results: list  # names or None
    domain: str
    op_type: str
    version: int | None
    operands: list  # names or None
    attrs: list  # (name, value)
    in_types: list
    out_types: list
    loc: str


class ParseError(Exception):
    pass


class Parser:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def error(self, what):
        line = self.s.count("\n", 0, self.i) + 1
        raise ParseError(f"line {line}: expected {what} at {self.s[self.i:self.i + 30]!r}")

    def ws(self):
        while True:
            while self.i < len(self.s) and self.s[self.i].isspace():
                self.i += 1
            if self.s.startswith("//", self.i):
                end = self.s.find("\n", self.i)
                self.i = len(self.s) if end < 0 else end
            else:
                return

    def peek(self, lit):
        self.ws()
        return self.s.startswith(lit, self.i)

    def eat(self, lit):
        if self.peek(lit):
            self.i += len(lit)
            return True
        return False

    def expect(self, lit):
        if not self.eat(lit):
            self.error(repr(lit))

    def string(self):
        self.ws()
        if self.s[self.i] != '"':
            self.error("a string")
        self.i += 1
        out = bytearray()
        while self.s[self.i] != '"':
            c = self.s[self.i]
            if c == "\\":
                nxt = self.s[self.i + 1]
                if nxt in '"\\':
                    out += nxt.encode()
                    self.i += 2
                else:
                    out.append(int(self.s[self.i + 1:self.i + 3], 16))
                    self.i += 3
            else:
                out += c.encode()
                self.i += 1
        self.i += 1
        return bytes(out)

    def ident(self):
        self.ws()
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_.$]*").match(self.s, self.i)
        if not m:
            self.error("a name")
        self.i = m.end()
        return m.group()

    def number(self):
        self.ws()
        m = re.compile(r"-?(inf|nan(\(0x[0-9A-Fa-f]+\))?|\d+(\.\d*)?([eE][+-]?\d+)?)").match(
            self.s, self.i)
        if not m:
            self.error("a number")
        self.i = m.end()
        text = m.group()
        if "nan" in text:
            return float("nan")
        if "inf" in text:
            return float(text)
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        return float(text)

    def value(self):
        self.expect("%")
        if self.s[self.i] == '"':
            return self.string().decode()
        m = re.compile(r"[A-Za-z0-9_.$]+").match(self.s, self.i)
        self.i = m.end()
        return m.group()

    # types
    def dim(self):
        self.ws()
        c = self.s[self.i]
        if c == "?":
            self.i += 1
            return None
        if c == '"':
            return Poly({(self.string().decode(),): 1})
        if c == "(":
            self.i += 1
            terms = {}
            sign = 1
            if self.s[self.i] == "-":
                sign, self.i = -1, self.i + 1
            while True:
                coef, names = sign, []
                while True:
                    if self.s[self.i] == '"':
                        names.append(self.string().decode())
                    else:
                        m = re.compile(r"\d+").match(self.s, self.i)
                        coef *= int(m.group())
                        self.i = m.end()
                    if self.s[self.i] != "*":
                        break
                    self.i += 1
                key = tuple(sorted(names))
                terms[key] = terms.get(key, 0) + coef
                c = self.s[self.i]
                self.i += 1
                if c == ")":
                    return Poly({k: v for k, v in terms.items() if v})
                sign = 1 if c == "+" else -1
        m = re.compile(r"-?\d+").match(self.s, self.i)
        self.i = m.end()
        return Poly.const(int(m.group()))

    def elem(self):
        self.ws()
        for name in sorted(ELEM, key=len, reverse=True):
            if self.s.startswith(name, self.i):
                self.i += len(name)
                return name
        self.error("an element type")

    def shaped(self, sparse):
        self.expect("<")
        if self.eat("*x"):
            ty = Tensor(self.elem(), None, sparse)
        else:
            dims = []
            while True:
                save = self.i
                try:
                    e = self.elem()
                    if self.peek(">"):
                        break
                except ParseError:
                    pass
                self.i = save
                dims.append(self.dim())
                self.expect("x")
            ty = Tensor(e, dims, sparse)
        self.expect(">")
        return ty

    def type(self):
        self.ws()
        if self.eat("tensor"):
            return self.shaped(False)
        if self.eat("!onnx.sparse"):
            return self.shaped(True)
        if self.eat("!onnx.seq<"):
            t = Seq(self.type())
        elif self.eat("!onnx.opt<"):
            t = Opt(self.type())
        elif self.eat("!onnx.map<"):
            k = self.elem()
            self.expect(",")
            t = Map(k, self.type())
        elif self.eat("!onnx.unknown"):
            return Unknown()
        elif self.eat("none"):
            return None
        else:
            self.error("a type")
        self.expect(">")
        return t

    # attributes
    def dense(self):
        self.ws()
        if self.eat("dense_resource<__elided__>"):
            raise ParseError("elided tensors cannot be checked")
        self.expect("dense<")
        if self.peek('"0x'):
            values = bytes.fromhex(self.string().decode()[2:])
        else:
            values = self.literal()
        self.expect(">")
        self.expect(":")
        return Dense(self.type(), values)

    def literal(self):
        if self.eat("["):
            items = []
            if not self.eat("]"):
                items.append(self.literal())
                while self.eat(","):
                    items.append(self.literal())
                self.expect("]")
            return items
        if self.eat("true"):
            return True
        if self.eat("false"):
            return False
        if self.peek('"'):
            return self.string()
        return self.number()

    def attr_value(self):
        self.ws()
        if self.peek("dense"):
            return self.dense()
        if self.peek("onnx.graph"):
            return self.graph()
        if self.peek("tensor") or self.peek("!onnx."):
            return ("type", self.type())
        if self.peek('"'):
            return self.string()
        if self.eat("["):
            if self.eat("]"):
                self.expect(":")
                return ("empty", self.ident())
            items = [self.attr_value()]
            while self.eat(","):
                items.append(self.attr_value())
            self.expect("]")
            return items
        return self.number()

    def attr_dict(self):
        attrs = []
        if not self.eat("{"):
            return attrs
        if self.eat("}"):
            return attrs
        while True:
            name = self.string().decode() if self.peek('"') else self.ident()
            self.expect("=")
            attrs.append((name, self.attr_value()))
            if not self.eat(","):
                break
        self.expect("}")
        return [(n, v) for n, v in attrs if not n.startswith("onnx.")]

    def types(self):
        self.expect("(")
        out = []
        if not self.eat(")"):
            out.append(self.type())
            while self.eat(","):
                out.append(self.type())
            self.expect(")")
        return out

    def op(self):
        results = []
        if self.peek("%") or self.peek("_"):
            while True:
                results.append(None if self.eat("_") else self.value())
                if not self.eat(","):
                    break
            self.expect("=")
        name = self.string().decode()
        prefix, rest = name.split(".", 1)
        op_type, _, version = rest.partition("-")
        self.expect("(")
        operands = []
        if not self.eat(")"):
            while True:
                operands.append(None if self.eat("none") else self.value())
                if not self.eat(","):
                    break
            self.expect(")")
        attrs = self.attr_dict()
        self.expect(":")
        in_types = self.types()
        self.expect("->")
        out_types = self.types() if self.peek("(") else [self.type()]
        loc = ""
        if self.eat("loc"):
            self.expect("(")
            loc = self.string().decode()
            self.expect(")")
        return Op(results, DOMAINS[prefix], op_type, int(version) if version else None,
                  operands, attrs, in_types, out_types, loc)

    def graph(self):
        self.expect("onnx.graph")
        name = self.string().decode()
        self.expect("(")
        args = []
        if not self.eat(")"):
            while True:
                v = self.value()
                self.expect(":")
                ty = self.type()
                default = self.dense() if self.eat("=") else None
                if self.peek("{"):
                    self.attr_dict()
                args.append((v, ty, default))
                if not self.eat(","):
                    break
            self.expect(")")
        self.expect("->")
        self.expect("(")
        outputs = []
        if not self.eat(")"):
            while True:
                n = self.string().decode()
                self.expect(":")
                outputs.append((n, self.type()))
                if not self.eat(","):
                    break
            self.expect(")")
        if self.eat("attributes"):
            self.attr_dict()
        self.expect("{")
        ops = []
        while not self.peek("onnx.return"):
            ops.append(self.op())
        self.expect("onnx.return")
        returns = []
        if self.peek("%"):
            returns.append(self.value())
            while self.eat(","):
                returns.append(self.value())
        self.expect("}")
        return Graph(name, args, outputs, ops, returns)

    def model(self):
        self.expect("onnx.model")
        self.expect("{")
        fields = {}
        while not self.eat("}"):
            key = self.ident()
            self.expect("=")
            if key == "opset_imports":
                self.expect("{")
                imports = {}
                while not self.eat("}"):
                    d = self.string().decode()
                    self.expect("=")
                    imports[d] = self.number()
                    self.eat(",")
                fields[key] = imports
            elif key == "metadata_props":
                self.attr_dict()
            else:
                fields[key] = self.attr_value()
            self.eat(",")
        return fields, self.graph()


# ---------------------------------------------------------------------------
# To ONNX.

def type_proto(ty, env=None):
    if isinstance(ty, Tensor):
        dims = None
        if ty.dims is not None:
            dims = []
            for d in ty.dims:
                if d is None:
                    dims.append(None)
                elif env is not None and d.params():
                    dims.append(d.eval(env))
                elif d.as_int() is not None:
                    dims.append(d.as_int())
                elif d.as_param():
                    dims.append(d.as_param())
                else:
                    raise ParseError("polynomial dims in inputs are not supported")
        if ty.sparse:
            return helper.make_sparse_tensor_type_proto(ELEM[ty.elem], dims)
        return helper.make_tensor_type_proto(ELEM[ty.elem], dims)
    if isinstance(ty, Seq):
        return helper.make_sequence_type_proto(type_proto(ty.elem, env))
    if isinstance(ty, Opt):
        return helper.make_optional_type_proto(type_proto(ty.elem, env))
    if isinstance(ty, Map):
        return helper.make_map_type_proto(ELEM[ty.key], type_proto(ty.value, env))
    raise ParseError(f"no ONNX type for {ty}")


def flatten(values):
    if isinstance(values, list):
        return [x for v in values for x in flatten(v)]
    return [values]


def tensor_proto(name, d: Dense):
    dims = [p.as_int() for p in d.ty.dims]
    code = ELEM[d.ty.elem]
    n = int(np.prod(dims)) if dims else 1
    if isinstance(d.values, bytes):
        t = TensorProto(name=name, data_type=code, dims=dims, raw_data=d.values)
        return t
    flat = flatten(d.values)
    if len(flat) == 1 and n != 1:
        flat = flat * n
    if d.ty.elem == "string":
        return helper.make_tensor(name, code, dims, flat)
    if d.ty.elem == "i1":
        flat = [bool(v) for v in flat]
    return helper.make_tensor(name, code, dims, flat)


def attribute(name, value, env):
    if isinstance(value, Dense):
        return helper.make_attribute(name, tensor_proto("", value))
    if isinstance(value, Graph):
        return helper.make_attribute(name, graph_proto(value, env))
    if isinstance(value, tuple) and value[0] == "type":
        return helper.make_attribute(name, type_proto(value[1]))
    if isinstance(value, tuple) and value[0] == "empty":
        kind = {"ints": onnx.AttributeProto.INTS, "floats": onnx.AttributeProto.FLOATS,
                "strings": onnx.AttributeProto.STRINGS, "tensors": onnx.AttributeProto.TENSORS,
                "graphs": onnx.AttributeProto.GRAPHS}[value[1]]
        return helper.make_attribute(name, [], attr_type=kind)
    if isinstance(value, list) and value and isinstance(value[0], Dense):
        return helper.make_attribute(name, [tensor_proto("", v) for v in value])
    if isinstance(value, list) and value and isinstance(value[0], Graph):
        return helper.make_attribute(name, [graph_proto(v, env) for v in value])
    if isinstance(value, list) and any(isinstance(v, float) for v in value):
        return helper.make_attribute(name, [float(v) for v in value])
    return helper.make_attribute(name, value)


def graph_proto(g: Graph, env):
    inputs = [helper.make_value_info(n, type_proto(t, env)) for n, t, d in g.args]
    inits = [tensor_proto(n, d) for n, _, d in g.args if d is not None]
    nodes = []
    for i, op in enumerate(g.ops):
        node = helper.make_node(op.op_type, [o or "" for o in op.operands],
                                [r or "" for r in op.results], name=op.loc or f"n{i}",
                                domain=op.domain)
        node.attribute.extend(attribute(n, v, env) for n, v in op.attrs)
        nodes.append(node)
    outputs = [helper.make_value_info(v, onnx.TypeProto()) for v in g.returns]
    return helper.make_graph(nodes, g.name, inputs, outputs, inits)


def model_proto(fields, g: Graph, env=None):
    imports = [helper.make_opsetid(d, v) for d, v in fields.get("opset_imports", {}).items()]
    return helper.make_model(graph_proto(g, env), opset_imports=imports,
                             ir_version=fields.get("ir_version", 10))


def inferred_types(model):
    """Name -> TypeProto of every value of every graph, after inference."""
    out = {}

    def walk(g):
        for vi in list(g.input) + list(g.value_info) + list(g.output):
            out[vi.name] = vi.type
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)
                for sub in a.graphs:
                    walk(sub)

    walk(model.graph)
    return out


def infer(model, strict=True):
    return onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=strict,
                                             data_prop=True)


# ---------------------------------------------------------------------------
# Comparison.

def show(ty):
    """A type for messages (dim_params bare: `tensor<Nx3xf32>`)."""
    if isinstance(ty, Tensor):
        if ty.dims is None:
            return f"tensor<*x{ty.elem}>"
        return "tensor<" + "".join(show_dim(p) + "x" for p in ty.dims) + ty.elem + ">"
    if isinstance(ty, Seq):
        return f"seq<{show(ty.elem)}>"
    if isinstance(ty, Opt):
        return f"opt<{show(ty.elem)}>"
    if isinstance(ty, Map):
        return f"map<{ty.key}, {show(ty.value)}>"
    return "unknown"


class Report:
    """What the check of one file found."""

    def __init__(self):
        self.errors, self.unconfirmed, self.weaker, self.notes = [], [], [], []


def compare(ours, ref, where, report, input_params, claims):
    """Compares our type with onnx's; a type with dims onnx does not know is
    added to `claims` as `(where, type)`, for the static model and the run."""
    kind = ref.WhichOneof("value") if ref is not None else None
    if kind is None:
        if not isinstance(ours, Unknown):
            claims.append((where, ours))
        return
    if isinstance(ours, Unknown):
        report.weaker.append(f"{where}: onnx infers {kind}, the file says !onnx.unknown")
        return
    if kind in ("tensor_type", "sparse_tensor_type"):
        t = getattr(ref, kind)
        if not isinstance(ours, Tensor) or ours.sparse != (kind == "sparse_tensor_type"):
            report.errors.append(f"{where}: onnx infers a {kind}, the file says {show(ours)}")
            return
        if t.elem_type and ELEM.get(ours.elem) != t.elem_type:
            report.errors.append(f"{where}: element type {ours.elem}, onnx infers "
                                 f"{ELEM_NAME.get(t.elem_type, t.elem_type)}")
        if not t.HasField("shape"):
            if ours.dims is not None:
                claims.append((where, ours))
            return
        if ours.dims is None:
            report.weaker.append(f"{where}: onnx infers rank {len(t.shape.dim)}, the file "
                                 f"says {show(ours)}")
            return
        if len(ours.dims) != len(t.shape.dim):
            report.errors.append(f"{where}: rank {len(ours.dims)}, onnx infers "
                                 f"{len(t.shape.dim)}")
            return
        unconfirmed = False
        for k, (p, d) in enumerate(zip(ours.dims, t.shape.dim)):
            if d.HasField("dim_value"):
                if p is None:
                    report.weaker.append(f"{where} dim {k}: onnx infers {d.dim_value}, the "
                                         f"file says ?")
                elif p.as_int() != d.dim_value:
                    report.errors.append(f"{where} dim {k}: the file says {show_dim(p)}, onnx "
                                         f"infers {d.dim_value}")
            elif d.HasField("dim_param") and d.dim_param in input_params:
                if p is None:
                    report.weaker.append(f"{where} dim {k}: onnx infers \"{d.dim_param}\", "
                                         f"the file says ?")
                elif p.as_param() != d.dim_param:
                    report.errors.append(f"{where} dim {k}: the file says {show_dim(p)}, onnx "
                                         f"infers \"{d.dim_param}\"")
            elif p is not None:
                unconfirmed = True
        if unconfirmed:
            claims.append((where, ours))
        return
    if kind == "sequence_type":
        if not isinstance(ours, Seq):
            report.errors.append(f"{where}: onnx infers a sequence, the file says {show(ours)}")
            return
        compare(ours.elem, ref.sequence_type.elem_type, where + " (element)", report,
                input_params, claims)
        return
    if kind == "optional_type":
        if not isinstance(ours, Opt):
            report.errors.append(f"{where}: onnx infers an optional, the file says {show(ours)}")
            return
        compare(ours.elem, ref.optional_type.elem_type, where + " (value)", report,
                input_params, claims)
        return
    if kind == "map_type":
        if not isinstance(ours, Map) or ELEM[ours.key] != ref.map_type.key_type:
            report.errors.append(f"{where}: onnx infers a map, the file says {show(ours)}")
            return
        compare(ours.value, ref.map_type.value_type, where + " (value)", report,
                input_params, claims)


def show_dim(p):
    """A dim for messages."""
    if p is None:
        return "?"
    if p.as_int() is not None:
        return str(p.as_int())
    return p.as_param() or "(" + " + ".join(
        "*".join([str(c)] + list(n)) for n, c in p.terms.items()) + ")"


def confirm(ours, ref, env, where, report):
    """Checks our type, evaluated with `env`, against onnx's on the static
    model; returns False when onnx does not know enough to say."""
    kind = ref.WhichOneof("value") if ref is not None else None
    if isinstance(ours, Tensor):
        if kind not in ("tensor_type", "sparse_tensor_type"):
            return False
        t = getattr(ref, kind)
        if not t.HasField("shape"):
            return False
        if ours.dims is None:
            return True
        if len(ours.dims) != len(t.shape.dim):
            report.errors.append(f"{where}: rank {len(ours.dims)}, onnx infers "
                                 f"{len(t.shape.dim)} on the static model")
            return True
        known = True
        for k, (p, d) in enumerate(zip(ours.dims, t.shape.dim)):
            if p is None:
                continue
            if not d.HasField("dim_value"):
                known = False
                continue
            if p.eval(env) != d.dim_value:
                report.errors.append(f"{where} dim {k}: the file says {show_dim(p)} = "
                                     f"{p.eval(env)} for {env}, onnx infers {d.dim_value}")
        return known
    if isinstance(ours, Seq) and kind == "sequence_type":
        return confirm(ours.elem, ref.sequence_type.elem_type, env, where, report)
    if isinstance(ours, Opt) and kind == "optional_type":
        return confirm(ours.elem, ref.optional_type.elem_type, env, where, report)
    if isinstance(ours, Map) and kind == "map_type":
        return confirm(ours.value, ref.map_type.value_type, env, where, report)
    return False


def expected_text(source):
    """The printed model the CHECK lines of a blessed file spell."""
    lines = []
    for line in source.splitlines():
        m = re.match(r"\s*// CHECK(-NEXT)?: ?(.*)$", line)
        if m:
            text = m.group(2)
            if text == "{{^[ \\t]+$}}":
                text = ""
            lines.append(text.replace("{{\\{\\{}}", "{{"))
        elif re.match(r"\s*// CHECK-EMPTY:", line):
            lines.append("")
        elif "CHECK" in line and "//" in line:
            raise ParseError(f"only blessed CHECK/CHECK-NEXT files can be checked: {line!r}")
    return "\n".join(lines)


def input_params(g: Graph):
    params = set()

    def collect(ty):
        if isinstance(ty, Tensor) and ty.dims:
            for d in ty.dims:
                if d is not None:
                    params.update(d.params())
        elif isinstance(ty, (Seq, Opt)):
            collect(ty.elem)
        elif isinstance(ty, Map):
            collect(ty.value)

    for _, ty, _ in g.args:
        collect(ty)
    return params


def all_results(g: Graph, path=""):
    for op in g.ops:
        for r, ty in zip(op.results, op.out_types):
            if r is not None:
                yield f"{path}%{r} ({op.op_type})", r, ty
        for name, value in op.attrs:
            subs = value if isinstance(value, list) else [value]
            for sub in subs:
                if isinstance(sub, Graph):
                    yield from all_results(sub, f"{path}{sub.name}/")
                    for n, ty, _ in sub.args:
                        yield f"{path}{sub.name}/%{n} (input)", n, ty


def substitution(params, source):
    m = re.search(r"//\s*REFERENCE-DIMS:(.*)", source)
    fixed = {}
    if m:
        for part in m.group(1).split(","):
            k, v = part.split("=")
            fixed[k.strip().strip('"')] = int(v)
    values = iter([6, 10, 14, 22, 26, 34, 38, 46, 58, 62])
    env = {p: fixed[p] if p in fixed else next(values) for p in sorted(params)}
    if "?" in fixed:
        env["?"] = fixed["?"]
    return env


def check_positive(source, report):
    fields, g = Parser(expected_text(source)).model()
    params = input_params(g)
    strict = True
    try:
        ref = inferred_types(infer(model_proto(fields, g)))
    except Exception as e:  # noqa: BLE001 - any onnx failure is the finding
        if not re.search(r"//\s*REFERENCE:", source):
            report.errors.append(f"onnx rejects the model: {one_line(e)}")
            return
        # The file explains why (an onnx bug): the ops onnx fails on are
        # left to the run.
        report.notes.append(f"strict inference fails, see the REFERENCE comment: "
                            f"{one_line(e)}")
        strict = False
        ref = inferred_types(infer(model_proto(fields, g), strict=False))
    claims = []
    # Values whose onnx inference a REFERENCE comment shows wrong (an onnx
    # bug): only the run counts for them.
    run_only = set()
    for m in re.finditer(r"//\s*REFERENCE-RUN:(.*)", source):
        run_only.update(v.strip().lstrip("%") for v in m.group(1).split(","))
    for where, name, ty in all_results(g):
        if name in run_only:
            claims.append((where, ty))
        else:
            compare(ty, ref.get(name), where, report, params, claims)
    if not claims:
        return
    env = substitution(params, source)
    try:
        static = inferred_types(infer(model_proto(fields, g, env), strict=strict))
    except Exception as e:  # noqa: BLE001
        report.errors.append(f"onnx rejects the static model ({env}): {one_line(e)}")
        return
    names = {where: name for where, name, _ in all_results(g)}
    left = []
    for where, ty in claims:
        base = where.split(" (element)")[0].split(" (value)")[0]
        name = names[base]
        if name in run_only or not confirm(ty, static.get(name), env, where, report):
            left.append((where, name, ty))
    if not left:
        return
    # What onnx's inference cannot say, running the static model can:
    # onnxruntime computes the values, and their shapes are the reference.
    ran = run_model(fields, g, env, [n for _, n, _ in left])
    for where, name, ty in left:
        if isinstance(ran, str) and len(left) > 1:
            # One op the run cannot do should not hide the others.
            ran = run_model(fields, g, env, [name])
        if isinstance(ran, str) or name not in ran:
            why = ran if isinstance(ran, str) else "not computed"
            report.unconfirmed.append(f"{where}: the file says {show(ty)}; neither onnx's "
                                      f"inference nor a run ({why}) confirms it for {env}")
        else:
            check_value(ty, ran[name], env, where, report)


def random_value(ty, env, rng):
    """Input data of type `ty` (dims from `env`) for a run."""
    if isinstance(ty, Tensor):
        dims = [d.eval(env) if d is not None else env.get("?", 2) for d in ty.dims or []]
        if ty.elem == "string":
            return np.array(["a"] * int(np.prod(dims)), dtype=object).reshape(dims)
        if ty.elem == "i1":
            return np.asarray(rng.random(dims) < 0.5)
        dtype = onnx.helper.tensor_dtype_to_np_dtype(ELEM[ty.elem])
        if np.issubdtype(dtype, np.integer):
            # Zeros are valid indices, axes and counts wherever ints go.
            return np.zeros(dims, dtype)
        return np.asarray(rng.standard_normal(dims)).astype(dtype)
    if isinstance(ty, Seq):
        return [random_value(ty.elem, env, rng) for _ in range(2)]
    if isinstance(ty, Opt):
        return random_value(ty.elem, env, rng)
    if isinstance(ty, Map) and isinstance(ty.value, Tensor) and ty.value.dims == []:
        keys = ["a", "b"] if ty.key == "string" else [1, 2]
        return {k: float(rng.standard_normal()) for k in keys}
    raise ParseError(f"cannot make data of type {show(ty)}")


def used_names(g: Graph):
    """Every value name an op of `g` (or of its subgraphs) reads."""
    for op in g.ops:
        yield from (o for o in op.operands if o)
        for _, value in op.attrs:
            for sub in value if isinstance(value, list) else [value]:
                if isinstance(sub, Graph):
                    yield from used_names(sub)
                    yield from sub.returns


def pruned(g: Graph, names):
    """`g` with only the ops that `names` depend on, so that a run is not
    stopped by an op the check does not need (random inputs do not suit
    every op)."""
    needed, kept = set(names), []
    for op in reversed(g.ops):
        if needed.intersection(r for r in op.results if r):
            kept.append(op)
            needed.update(used_names(Graph("", [], [], [op], [])))
    kept.reverse()
    read = set(used_names(Graph("", [], [], kept, [])))
    args = [a for a in g.args if a[0] in read]
    return Graph(g.name, args, g.outputs, kept, list(names))


def run_model(fields, g, env, names):
    """The values `names` computed on random inputs by onnxruntime, or by
    onnx's reference evaluator for ops onnxruntime lacks (training ops); an
    error message when neither runs the model."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator
    rng = np.random.default_rng(0)
    part = pruned(g, names)
    model = model_proto(fields, part, env)
    try:
        feed = {n: random_value(t, env, rng) for n, t, d in part.args if d is None}
        ort.set_default_logger_severity(4)
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        wanted = [o.name for o in session.get_outputs()]
        return dict(zip(wanted, session.run(None, feed)))
    except Exception as e:  # noqa: BLE001 - any failure means no run
        if "is not a registered function/op" not in str(e):
            return f"onnxruntime rejects it: {one_line(e)}"
    try:
        with np.errstate(all="ignore"):
            values = ReferenceEvaluator(model).run(None, feed)
        return dict(zip([o.name for o in model.graph.output], values))
    except Exception as e:  # noqa: BLE001
        return f"onnxruntime does not implement it, the reference evaluator rejects it: " \
               f"{one_line(e)}"


def check_value(ty, value, env, where, report):
    """Checks a computed value against our type, dims evaluated with `env`."""
    if isinstance(ty, Tensor):
        if not isinstance(value, np.ndarray):
            report.errors.append(f"{where}: the run gives a {type(value).__name__}")
            return
        if value.dtype != object and \
                helper.np_dtype_to_tensor_dtype(value.dtype) != ELEM[ty.elem]:
            report.errors.append(f"{where}: the file says {ty.elem}, the run gives {value.dtype}")
        if ty.dims is None:
            return
        want = [d.eval(env) if d is not None else None for d in ty.dims]
        if len(want) != value.ndim or any(w is not None and w != v
                                            for w, v in zip(want, value.shape)):
            report.errors.append(f"{where}: the file says {show(ty)} = {want} for {env}, the "
                                 f"run gives shape {list(value.shape)}")
    elif isinstance(ty, Seq) and isinstance(value, list):
        for v in value:
            check_value(ty.elem, v, env, where + " (element)", report)
    elif isinstance(ty, Opt):
        if value is not None:
            check_value(ty.elem, value, env, where + " (value)", report)


def check_negative(source, report):
    fields, g = Parser(source).model()
    model = model_proto(fields, g)
    try:
        onnx.checker.check_model(model, full_check=True)
        infer(model)
    except Exception:  # noqa: BLE001 - a rejection is what is expected
        return
    # onnx's inference does not check everything the spec requires: the
    # reference implementation running the model may reject it.
    env = substitution(input_params(g), source)
    results = [r for op in g.ops for r in op.results if r]
    ran = run_model(fields, g, env, results)
    if isinstance(ran, str) and "rejects" in ran:
        report.notes.append(f"onnx's inference accepts it, {ran}")
        return
    if not re.search(r"//\s*REFERENCE:", source):
        report.errors.append("onnx accepts the model (add a // REFERENCE: comment naming the "
                             "reference that rejects it)")
    else:
        report.unconfirmed.append("onnx accepts it; see the file's REFERENCE comment")


def one_line(e):
    return " ".join(str(e).split())[:300]


def main(argv):
    files = [pathlib.Path(a) for a in argv] or sorted(TESTS.glob("*.mlir"))
    failed = 0
    for path in files:
        source = path.read_text()
        report = Report()
        try:
            if re.search(r"^\s*// ERROR:", source, re.M):
                check_negative(source, report)
            else:
                check_positive(source, report)
        except ParseError as e:
            report.errors.append(f"cannot read: {e}")
        name = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        status = "FAILED" if report.errors else "ok"
        print(f"{name}: {status}")
        for kind, items in (("error", report.errors), ("unconfirmed", report.unconfirmed),
                            ("less precise than onnx", report.weaker),
                            ("note", report.notes)):
            for item in items:
                print(f"  {kind}: {item}")
        failed += bool(report.errors)
    print(f"{len(files) - failed} of {len(files)} files agree with onnx")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
