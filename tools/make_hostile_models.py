#!/usr/bin/env python3
"""Writes the hostile-model corpus (`tests/hostile/`).

Each case is a model file that is wrong in exactly one way: broken protobuf,
broken graph structure, unresolvable operators, external data escaping the
model's folder, broken tensors, recursive functions, schema violations,
inconsistent shapes. onnx-mlc must reject every one with an error that says
what and where, never panic, hang or read outside the model's folder. Each
case names the first stage that must reject it:

* decode — the bytes are not a valid protobuf `ModelProto`;
* import — valid protobuf, but the IR cannot be built: names do not resolve,
  SSA is broken, operators or opsets are unknown, tensors or external data
  are inconsistent, functions recurse;
* verify — the IR is built but breaks an operator schema (attributes, arity,
  subgraph signatures);
* infer — types or shapes are inconsistent.

The script also writes `tests/hostile/README.md` listing every case. With
`--references` (needs onnx and onnxruntime, e.g. the .venv) it runs the ONNX
checker (`full_check=True`) and onnxruntime on each case in a subprocess and
records whether they reject it, as a cross-check of the corpus itself.

Uses onnx's helpers and hand-written protobuf bytes (for what the onnx
package cannot or will not serialize); no torch. Deterministic output.

Usage: make_hostile_models.py [--out tests/hostile] [--references]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import random
import shutil
import subprocess
import sys
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

REPO = pathlib.Path(__file__).resolve().parent.parent
OPSET = 17
IR_VERSION = 8
# The external data file the ext_* cases point into (64 bytes).
EXT_FILE = "ext_data.bin"
EXT_BYTES = bytes(range(64))


# --- protobuf wire format ---------------------------------------------------

def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(field: int, wire: int) -> bytes:
    return varint(field << 3 | wire)


def field_varint(field: int, value: int) -> bytes:
    return tag(field, 0) + varint(value)


def field_bytes(field: int, payload: bytes) -> bytes:
    return tag(field, 2) + varint(len(payload)) + payload


# --- small valid building blocks --------------------------------------------

def f32(name: str, shape: list) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def model(nodes, inputs, outputs, *, initializers=(), opsets=None, functions=(),
          sparse=(), ir_version=IR_VERSION) -> bytes:
    """A model from parts, serialized without any checking."""
    graph = helper.make_graph(list(nodes), "hostile", list(inputs), list(outputs),
                              initializer=list(initializers))
    graph.sparse_initializer.extend(sparse)
    opsets = {"": OPSET} if opsets is None else opsets
    proto = helper.make_model(
        graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets.items()],
        functions=list(functions), producer_name="onnx-mlc hostile corpus")
    proto.ir_version = ir_version
    return proto.SerializeToString()


def relu_model(**extra) -> bytes:
    """X -> Relu -> Y, the valid model most cases start from."""
    return model([helper.make_node("Relu", ["X"], ["Y"], name="relu")],
                 [f32("X", [1, 4])], [f32("Y", [1, 4])], **extra)


def with_initializer(tensor: onnx.TensorProto, **extra) -> bytes:
    """Y = X + W for an initializer W (its name is forced to "W")."""
    tensor.name = "W"
    return model([helper.make_node("Add", ["X", "W"], ["Y"], name="add")],
                 [f32("X", [4])], [f32("Y", [4])], initializers=[tensor], **extra)


def external(location: str | None, offset: int = 0, length: int = 16, **keys) -> bytes:
    """Y = X + W where W (4 x f32, 16 bytes) lives in external data."""
    tensor = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[4],
                         data_location=TensorProto.EXTERNAL)
    entries = {} if location is None else {"location": location}
    entries.update(offset=str(offset), length=str(length), **keys)
    for key, value in entries.items():
        tensor.external_data.add(key=key, value=value)
    return with_initializer(tensor)


def nested_if(depth: int) -> bytes:
    """`depth` If nodes, each in the previous one's then_branch, hand-encoded.

    Python's protobuf refuses to serialize (or parse) messages nested this
    deep, so the bytes are written directly. The graph at level k is
    head_k + (graph at level k+1) + tail_k, and a length prefix only needs the
    inner length: heads and tails are computed inside-out and the file is
    assembled once, in linear time. The model is valid apart from its depth:
    inputs c (bool) and x (f32 [1]); every graph outputs y (f32 [1]); every
    else_branch and the innermost then_branch are y = Identity(x).
    """
    # Field numbers: ModelProto ir_version 1, graph 7, opset_import 8;
    # GraphProto node 1, name 2, input 11, output 12; NodeProto input 1,
    # output 2, op_type 4, attribute 5; AttributeProto name 1, g 6, type 20
    # (GRAPH = 5); ValueInfoProto name 1, type 2; TypeProto tensor_type 1;
    # TypeProto.Tensor elem_type 1, shape 2; TensorShapeProto dim 1;
    # Dimension dim_value 1; OperatorSetIdProto domain 1, version 2.
    def value_info(name: bytes, elem: int, dims: list[int]) -> bytes:
        shape = b"".join(field_bytes(1, field_varint(1, d)) for d in dims)
        tensor = field_varint(1, elem) + field_bytes(2, shape)
        return field_bytes(1, name) + field_bytes(2, field_bytes(1, tensor))

    output = field_bytes(12, value_info(b"y", TensorProto.FLOAT, [1]))
    identity = field_bytes(1, b"x") + field_bytes(2, b"y") + field_bytes(4, b"Identity")
    leaf = field_bytes(1, identity) + field_bytes(2, b"leaf") + output
    graph_type = field_varint(20, 5)
    else_attr = field_bytes(5, field_bytes(1, b"else_branch") + field_bytes(6, leaf) + graph_type)

    heads, tails = [], []
    inner_len = len(leaf)
    for level in range(depth):
        then_head = field_bytes(1, b"then_branch") + tag(6, 2) + varint(inner_len)
        attr_len = len(then_head) + inner_len + len(graph_type)
        node_head = (field_bytes(1, b"c") + field_bytes(2, b"y") + field_bytes(4, b"If")
                     + tag(5, 2) + varint(attr_len) + then_head)
        node_tail = graph_type + else_attr
        node_len = len(node_head) + inner_len + len(node_tail)
        tail = node_tail + field_bytes(2, b"g") + output
        if level == depth - 1:
            tail += (field_bytes(11, value_info(b"c", TensorProto.BOOL, []))
                     + field_bytes(11, value_info(b"x", TensorProto.FLOAT, [1])))
        head = tag(1, 2) + varint(node_len) + node_head
        heads.append(head)
        tails.append(tail)
        inner_len += len(head) + len(tail)
    model_head = (field_varint(1, IR_VERSION)
                  + field_bytes(8, field_bytes(1, b"") + field_varint(2, OPSET))
                  + tag(7, 2) + varint(inner_len))
    return model_head + b"".join(reversed(heads)) + leaf + b"".join(tails)


def if_model(then_outputs: int, else_outputs: int) -> bytes:
    def branch(count: int, tag_: str) -> onnx.GraphProto:
        nodes = [helper.make_node("Identity", ["X"], [f"{tag_}{i}"]) for i in range(count)]
        return helper.make_graph(nodes, tag_, [], [f32(f"{tag_}{i}", [4]) for i in range(count)])

    node = helper.make_node("If", ["C"], ["Y"], then_branch=branch(then_outputs, "t"),
                            else_branch=branch(else_outputs, "e"))
    cond = helper.make_tensor_value_info("C", TensorProto.BOOL, [])
    return model([node], [cond, f32("X", [4])], [f32("Y", [4])])


def loop_wrong_body() -> bytes:
    # A Loop body takes (iteration, condition, carried...) and returns
    # (condition, carried...): this one takes only the iteration number.
    # Everything it reads is defined (a constant condition, the outer X), so
    # the model is well formed up to that signature.
    cond = helper.make_tensor("cond", TensorProto.BOOL, [], [True])
    body = helper.make_graph(
        [helper.make_node("Constant", [], ["cond_out"], value=cond),
         helper.make_node("Identity", ["X"], ["x_out"])], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), f32("x_out", [4])])
    node = helper.make_node("Loop", ["M", "", "X"], ["Y"], body=body)
    trip = helper.make_tensor_value_info("M", TensorProto.INT64, [])
    return model([node], [trip, f32("X", [4])], [f32("Y", [4])])


def local_function(name: str, callee_domain: str, callee: str) -> onnx.FunctionProto:
    """Function `name`(a) -> b in domain "local", whose body is b = callee(a)."""
    nodes = [helper.make_node(callee, ["a"], ["b"], domain=callee_domain)]
    return helper.make_function("local", name, ["a"], ["b"], nodes,
                                [helper.make_opsetid("", OPSET), helper.make_opsetid("local", 1)])


def call_model(functions, inputs=("X",)) -> bytes:
    node = helper.make_node("F", list(inputs), ["Y"], domain="local", name="call_f")
    declared = [f32(name, [4]) for name in inputs]
    return model([node], declared, [f32("Y", [4])], functions=functions,
                 opsets={"": OPSET, "local": 1})


def truncated_in_tensor() -> bytes:
    values = np.arange(256, dtype=np.float32)
    data = with_initializer(numpy_helper.from_array(values.reshape(4, 64)))
    start = data.index(values.tobytes())
    return data[: start + values.nbytes // 2]


def wrong_wire_type() -> bytes:
    # ir_version (field 1, a varint) sent as a length-delimited field.
    data = relu_model()
    header = field_varint(1, IR_VERSION)
    assert data.startswith(header), "onnx serializes ir_version first"
    return field_bytes(1, varint(IR_VERSION)) + data[len(header):]


def huge_length() -> bytes:
    # The graph field claims 2^62 bytes; 8 follow.
    return field_varint(1, IR_VERSION) + tag(7, 2) + varint(1 << 62) + b"\x0a\x06\x22\x04Relu"


def overlong_varint() -> bytes:
    # A varint never ends within the 10 bytes a 64-bit value can take.
    return tag(1, 0) + b"\xff" * 11 + b"\x01"


def invalid_utf8() -> bytes:
    data = relu_model()
    return data.replace(b"relu", b"r\xffl\xfe", 1)


def duplicate_opset_import() -> bytes:
    # ModelProto.opset_import is field 8; a repeated field may come anywhere.
    return relu_model() + field_bytes(8, field_bytes(1, b"") + field_varint(2, 13))


def attr_type_field_mismatch() -> bytes:
    node = helper.make_node("Conv", ["X", "W"], ["Y"], name="conv")
    node.attribute.append(onnx.AttributeProto(name="strides", type=onnx.AttributeProto.INTS,
                                              f=1.0))
    return model([node], [f32("X", [1, 1, 4, 4]), f32("W", [1, 1, 1, 1])],
                 [f32("Y", [1, 1, 4, 4])])


def garbage() -> bytes:
    rng = random.Random(0xBAD)
    return bytes(rng.randrange(256) for _ in range(4096))


@dataclasses.dataclass
class Case:
    """One hostile file: where it goes, the stage that must reject it, what is wrong."""

    path: str
    stage: str
    what: str
    build: Callable[[], bytes]


def dense(dims, data_type=TensorProto.FLOAT, raw=b"") -> onnx.TensorProto:
    return TensorProto(name="W", data_type=data_type, dims=dims, raw_data=raw)


def sparse_out_of_range() -> bytes:
    values = numpy_helper.from_array(np.ones(3, dtype=np.float32), "W")
    indices = numpy_helper.from_array(np.array([0, 5, 100], dtype=np.int64), "W_indices")
    sparse = helper.make_sparse_tensor(values, indices, [3, 4])
    return model([helper.make_node("Identity", ["W"], ["Y"])], [], [f32("Y", [3, 4])],
                 sparse=[sparse])


def const_i64(name: str, values: list[int]) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


CASES = [
    # decode
    Case("empty.onnx", "import", "empty file: decodes as an empty ModelProto with no ir_version, "
         "no opset import and no graph", lambda: b""),
    Case("garbage.onnx", "decode", "4 KiB of random bytes", garbage),
    Case("truncated_in_tensor.onnx", "decode", "valid model cut in the middle of an initializer's "
         "raw_data", truncated_in_tensor),
    Case("wrong_wire_type.onnx", "decode", "ir_version (a varint field) encoded as "
         "length-delimited", wrong_wire_type),
    Case("huge_length.onnx", "decode", "graph field with a length prefix of 2^62 bytes",
         huge_length),
    Case("overlong_varint.onnx", "decode", "a varint longer than 10 bytes", overlong_varint),
    Case("invalid_utf8.onnx", "decode", "node name is not UTF-8 (a protobuf `string`: proto2 parsers "
         "like onnx's let it pass, prost does not)",
         invalid_utf8),
    Case("nested_if_10000.onnx", "decode", "10,000 If nodes nested through then_branch "
         "(30,000 message levels: stack exhaustion bait)", lambda: nested_if(10_000)),
    Case("nested_if_200.onnx", "decode/import", "200 nested If nodes (600 message levels): just "
         "past the importer's nesting bound; decoders with a recursion limit stop earlier", lambda: nested_if(200)),
    # import: model header and opsets
    Case("ir_version_unsupported.onnx", "import", "ir_version 99",
         lambda: relu_model(ir_version=99)),
    Case("no_default_opset.onnx", "import", "no opset import for the ai.onnx domain",
         lambda: relu_model(opsets={"ai.onnx.ml": 3})),
    Case("duplicate_opset_import.onnx", "import", "two opset imports for the ai.onnx domain "
         "(17 and 13)", duplicate_opset_import),
    Case("opset_too_new.onnx", "import", "ai.onnx opset 99 (newer than the op table)",
         lambda: relu_model(opsets={"": 99})),
    Case("unknown_op.onnx", "import", "op type `Frobnicate` in the ai.onnx domain",
         lambda: model([helper.make_node("Frobnicate", ["X"], ["Y"], name="frob")],
                       [f32("X", [4])], [f32("Y", [4])])),
    Case("unknown_domain.onnx", "import", "op `Relu` in domain `com.example.nope` (imported, "
         "but no such operator set exists)",
         lambda: model([helper.make_node("Relu", ["X"], ["Y"], domain="com.example.nope")],
                       [f32("X", [4])], [f32("Y", [4])],
                       opsets={"": OPSET, "com.example.nope": 1})),
    Case("op_not_in_opset.onnx", "import", "Gelu (since opset 20) in a model importing opset 17",
         lambda: model([helper.make_node("Gelu", ["X"], ["Y"], name="gelu")],
                       [f32("X", [4])], [f32("Y", [4])])),
    # import: graph structure
    Case("cycle.onnx", "import", "two nodes feeding each other (t1 = Add(X, t2); t2 = Relu(t1))",
         lambda: model([helper.make_node("Add", ["X", "t2"], ["t1"], name="add"),
                        helper.make_node("Relu", ["t1"], ["t2"], name="relu")],
                       [f32("X", [4])], [f32("t2", [4])])),
    Case("duplicate_output_name.onnx", "import", "two nodes both define `t`",
         lambda: model([helper.make_node("Relu", ["X"], ["t"], name="a"),
                        helper.make_node("Neg", ["X"], ["t"], name="b")],
                       [f32("X", [4])], [f32("t", [4])])),
    Case("node_output_shadows_input.onnx", "import", "a node output named like the graph input "
         "`X`", lambda: model([helper.make_node("Relu", ["X"], ["X"], name="relu")],
                              [f32("X", [4])], [f32("X", [4])])),
    Case("duplicate_initializer.onnx", "import", "two initializers named `W`",
         lambda: model([helper.make_node("Add", ["X", "W"], ["Y"])], [f32("X", [4])],
                       [f32("Y", [4])], initializers=[
                           numpy_helper.from_array(np.ones(4, np.float32), "W"),
                           numpy_helper.from_array(np.zeros(4, np.float32), "W")])),
    Case("duplicate_graph_output.onnx", "import", "graph output `Y` listed twice",
         lambda: model([helper.make_node("Relu", ["X"], ["Y"])], [f32("X", [4])],
                       [f32("Y", [4]), f32("Y", [4])])),
    Case("undefined_node_input.onnx", "import", "node input `nope` is defined nowhere",
         lambda: model([helper.make_node("Add", ["X", "nope"], ["Y"], name="add")],
                       [f32("X", [4])], [f32("Y", [4])])),
    Case("undefined_graph_output.onnx", "import", "graph output `Z` is defined nowhere",
         lambda: model([helper.make_node("Relu", ["X"], ["Y"])], [f32("X", [4])],
                       [f32("Z", [4])])),
    Case("subgraph_undefined_outer.onnx", "import", "If branch uses `ghost`, defined neither in "
         "the branch nor in an enclosing scope",
         lambda: model([helper.make_node(
             "If", ["C"], ["Y"],
             then_branch=helper.make_graph([helper.make_node("Identity", ["ghost"], ["t"])],
                                           "then", [], [f32("t", [4])]),
             else_branch=helper.make_graph([helper.make_node("Identity", ["X"], ["e"])],
                                           "else", [], [f32("e", [4])]))],
             [helper.make_tensor_value_info("C", TensorProto.BOOL, []), f32("X", [4])],
             [f32("Y", [4])])),
    Case("graph_input_without_type.onnx", "import", "graph input `X` has no type",
         lambda: model([helper.make_node("Relu", ["X"], ["Y"])],
                       [onnx.ValueInfoProto(name="X")], [f32("Y", [4])])),
    # import: tensors
    Case("raw_data_length_mismatch.onnx", "import", "4x4 f32 initializer with 10 bytes of "
         "raw_data", lambda: with_initializer(dense([4, 4], raw=b"\0" * 10))),
    Case("negative_dim.onnx", "import", "initializer with dims [-1, 4]",
         lambda: with_initializer(dense([-1, 4]))),
    Case("dims_overflow.onnx", "import", "initializer with dims [2^40, 2^40] (element count "
         "overflows 64 bits)", lambda: with_initializer(dense([1 << 40, 1 << 40]))),
    Case("string_in_raw_data.onnx", "import", "string tensor with raw_data (strings must use "
         "string_data)", lambda: with_initializer(dense([2], TensorProto.STRING, b"abcd"))),
    Case("sparse_indices_out_of_range.onnx", "import", "sparse 3x4 initializer with linear index "
         "100", sparse_out_of_range),
    # import: external data
    Case("ext_parent_path.onnx", "import", "external data location `../x` (outside the model's "
         "folder)", lambda: external("../x")),
    Case("ext_absolute_path.onnx", "import", "external data location `/etc/passwd`",
         lambda: external("/etc/passwd")),
    Case("ext_symlink/model.onnx", "import", "external data `weights.bin` is a symlink to "
         "/etc/hostname (escapes the folder)", lambda: external("weights.bin")),
    Case("ext_missing_file.onnx", "import", "external data file `missing.bin` does not exist",
         lambda: external("missing.bin")),
    Case("ext_no_location.onnx", "import", "data_location EXTERNAL without a `location` key",
         lambda: external(None)),
    Case("ext_offset_past_end.onnx", "import", f"offset 4096 in the 64-byte `{EXT_FILE}`",
         lambda: external(EXT_FILE, offset=4096)),
    Case("ext_length_past_end.onnx", "import", f"offset 56 + length 16 past the end of "
         f"`{EXT_FILE}`", lambda: external(EXT_FILE, offset=56)),
    Case("ext_length_mismatch.onnx", "import", "external length 12 for a 4 x f32 tensor "
         "(16 bytes)", lambda: external(EXT_FILE, length=12)),
    Case("ext_checksum_mismatch.onnx", "import", "external data whose SHA-1 `checksum` does not "
         "match", lambda: external(EXT_FILE, checksum="0" * 40)),
    # import: model-local functions
    Case("function_recursion_direct.onnx", "import", "local function F calls itself",
         lambda: call_model([local_function("F", "local", "F")])),
    Case("function_recursion_mutual.onnx", "import", "local functions F and G call each other",
         lambda: call_model([local_function("F", "local", "G"),
                             local_function("G", "local", "F")])),
    Case("function_wrong_arity.onnx", "import", "F takes one input, called with two",
         lambda: call_model([local_function("F", "", "Relu")], inputs=("X", "X2"))),
    Case("attr_type_field_mismatch.onnx", "import", "Conv attribute `strides` declares type INTS "
         "but carries a float", attr_type_field_mismatch),
    # verify: operator schemas
    Case("wrong_attr_type.onnx", "verify", "Conv `strides` given as FLOAT",
         lambda: model([helper.make_node("Conv", ["X", "W"], ["Y"], name="conv", strides=1.0)],
                       [f32("X", [1, 1, 4, 4]), f32("W", [1, 1, 1, 1])],
                       [f32("Y", [1, 1, 4, 4])])),
    Case("unknown_attribute.onnx", "verify", "Relu with an attribute `alpha` (Relu has none)",
         lambda: model([helper.make_node("Relu", ["X"], ["Y"], name="relu", alpha=0.1)],
                       [f32("X", [4])], [f32("Y", [4])])),
    Case("missing_required_attribute.onnx", "verify", "Cast without `to`",
         lambda: model([helper.make_node("Cast", ["X"], ["Y"], name="cast")],
                       [f32("X", [4])], [f32("Y", [4])])),
    Case("too_many_inputs.onnx", "verify", "Relu with two inputs",
         lambda: model([helper.make_node("Relu", ["X", "X"], ["Y"], name="relu")],
                       [f32("X", [4])], [f32("Y", [4])])),
    Case("if_branch_output_count.onnx", "verify", "If whose then_branch has 1 output and "
         "else_branch 2", lambda: if_model(1, 2)),
    Case("loop_body_signature.onnx", "verify", "Loop body with 1 input (needs iteration, "
         "condition and the carried value)", loop_wrong_body),
    # infer: types and shapes
    Case("type_mismatch.onnx", "infer", "Add of f32 and i64",
         lambda: model([helper.make_node("Add", ["X", "I"], ["Y"], name="add")],
                       [f32("X", [4]), helper.make_tensor_value_info("I", TensorProto.INT64, [4])],
                       [f32("Y", [4])])),
    Case("reshape_two_minus_one.onnx", "infer", "Reshape to the constant shape [-1, -1]",
         lambda: model([helper.make_node("Reshape", ["X", "S"], ["Y"], name="reshape")],
                       [f32("X", [2, 6])], [f32("Y", None)],
                       initializers=[const_i64("S", [-1, -1])])),
    Case("conv_channel_mismatch.onnx", "infer", "Conv of a 3-channel input with a weight "
         "expecting 4 channels", lambda: model(
             [helper.make_node("Conv", ["X", "W"], ["Y"], name="conv")],
             [f32("X", [1, 3, 8, 8])], [f32("Y", None)],
             initializers=[numpy_helper.from_array(np.ones((8, 4, 3, 3), np.float32), "W")])),
    Case("concat_rank_mismatch.onnx", "infer", "Concat of a rank-2 and a rank-3 tensor",
         lambda: model([helper.make_node("Concat", ["A", "B"], ["Y"], name="concat", axis=0)],
                       [f32("A", [2, 3]), f32("B", [2, 3, 4])], [f32("Y", None)])),
    Case("matmul_dim_mismatch.onnx", "infer", "MatMul of [2, 3] by [4, 5]",
         lambda: model([helper.make_node("MatMul", ["A", "B"], ["Y"], name="matmul")],
                       [f32("A", [2, 3]), f32("B", [4, 5])], [f32("Y", None)])),
]


def write_corpus(out: pathlib.Path) -> None:
    if out.exists():
        for path in out.iterdir():
            if path.name != "README.md":
                shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    out.mkdir(parents=True, exist_ok=True)
    (out / EXT_FILE).write_bytes(EXT_BYTES)
    for case in CASES:
        path = out / case.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(case.build())
    os.symlink("/etc/hostname", out / "ext_symlink" / "weights.bin")


REFERENCE_PROBE = """
import sys
path, which = sys.argv[1], sys.argv[2]
try:
    if which == "checker":
        import onnx
        onnx.checker.check_model(path, full_check=True)
    else:
        import onnxruntime as ort
        ort.set_default_logger_severity(4)
        ort.InferenceSession(path, providers=["CPUExecutionProvider"])
except Exception as e:
    print(type(e).__name__ + ": " + " ".join(str(e).split())[:200])
    sys.exit(1)
"""


def reference_verdict(path: pathlib.Path, which: str) -> str:
    try:
        run = subprocess.run([sys.executable, "-c", REFERENCE_PROBE, str(path), which],
                             capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "hangs"
    if run.returncode == 0:
        return "accepts"
    if run.returncode == 1:
        return "rejects"
    return f"crashes ({run.returncode})"


def write_readme(out: pathlib.Path, references: dict[str, tuple[str, str]] | None) -> None:
    lines = [
        "# Hostile models",
        "",
        "Generated by `tools/make_hostile_models.py` (do not edit by hand). Every file here is",
        "wrong in one way; onnx-mlc must reject each with an error naming what and where —",
        "never panic, hang, or read outside the model's folder. *Stage* is the first stage",
        "that must reject it:",
        "",
        "- **decode**: not a valid protobuf `ModelProto`;",
        "- **import**: valid protobuf, but the IR cannot be built (names, SSA, opsets,",
        "  tensors, external data, functions);",
        "- **verify**: breaks an operator schema (attributes, arity, subgraph signatures);",
        "- **infer**: inconsistent types or shapes.",
        "",
        f"`{EXT_FILE}` (64 bytes) is the external data file the `ext_*` cases point into;",
        "`ext_symlink/weights.bin` is a symlink to `/etc/hostname`.",
        "",
    ]
    header = "| file | stage | what is wrong |"
    rule = "|---|---|---|"
    if references:
        lines += [
            "The reference columns record what the ONNX checker (`check_model(full_check=True)`)",
            "and onnxruntime (creating a session) do with each file, as a cross-check of the",
            "corpus, not the specification: e.g. the checker does not read external data, and",
            "neither verifies checksums or rejects a graph output listed twice.",
            "",
        ]
        header += " onnx.checker | onnxruntime |"
        rule += "---|---|"
    lines += [header, rule]
    for case in CASES:
        row = f"| `{case.path}` | {case.stage} | {case.what} |"
        if references:
            row += " {} | {} |".format(*references[case.path])
        lines.append(row)
    (out / "README.md").write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=REPO / "tests" / "hostile")
    parser.add_argument("--references", action="store_true",
                        help="record what onnx.checker and onnxruntime do with each case")
    args = parser.parse_args()
    write_corpus(args.out)
    references = None
    if args.references:
        references = {c.path: (reference_verdict(args.out / c.path, "checker"),
                               reference_verdict(args.out / c.path, "ort")) for c in CASES}
    write_readme(args.out, references)
    for case in CASES:
        verdicts = "  ".join(references[case.path]) if references else ""
        print(f"{case.stage:13} {case.path:36} {verdicts}")
    print(f"{len(CASES)} cases in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
