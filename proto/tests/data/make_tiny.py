"""Writes tiny.onnx, the model the proto crate's decoding test reads.

Run with a Python that has onnx (1.23) installed:
    python proto/tests/data/make_tiny.py
The test checks the fields set here, so keep the two in sync.
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))

then_graph = helper.make_graph(
    [helper.make_node("Identity", ["x"], ["then_out"])],
    "then_branch",
    [],
    [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [2, 3])],
)
else_graph = helper.make_graph(
    [helper.make_node("Neg", ["x"], ["else_out"])],
    "else_branch",
    [],
    [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [2, 3])],
)

weight = numpy_helper.from_array(
    np.arange(6, dtype=np.float32).reshape(2, 3), name="weight"
)
sparse = helper.make_sparse_tensor(
    helper.make_tensor("sparse_w", TensorProto.INT64, [2], [5, 7]),
    helper.make_tensor("sparse_w_idx", TensorProto.INT64, [2], [1, 4]),
    [2, 3],
)

add = helper.make_node("Add", ["x", "weight"], ["sum"], name="add0", doc_string="adds")
add.metadata_props.append(onnx.StringStringEntryProto(key="origin", value="test"))
cond = helper.make_node("Cast", ["flag"], ["cond"], name="cast0", to=TensorProto.BOOL)
branch = helper.make_node(
    "If", ["cond"], ["y"], name="if0", then_branch=then_graph, else_branch=else_graph
)
leaky = helper.make_node(
    "LeakyRelu", ["sum"], ["z"], name="leaky0", alpha=0.25
)
call = helper.make_node("Twice", ["z"], ["w"], name="call0", domain="local", scale=3)

fn = helper.make_function(
    "local",
    "Twice",
    ["a"],
    ["b"],
    [helper.make_node("Add", ["a", "a"], ["b"])],
    [helper.make_opsetid("", 17)],
    attributes=[],
)
fn.attribute_proto.append(helper.make_attribute("scale", 2))
fn.overload = "v1"

graph = helper.make_graph(
    [cond, add, branch, leaky, call],
    "tiny",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3]),
        helper.make_tensor_value_info("flag", TensorProto.INT64, []),
    ],
    [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
        helper.make_tensor_value_info("w", TensorProto.FLOAT, None),
    ],
    initializer=[weight],
    sparse_initializer=[sparse],
    value_info=[helper.make_tensor_value_info("sum", TensorProto.FLOAT, ["batch", None])],
)
graph.metadata_props.append(onnx.StringStringEntryProto(key="graph_key", value="g"))

model = helper.make_model(
    graph,
    producer_name="make_tiny",
    producer_version="1.0",
    opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
    functions=[fn],
)
model.ir_version = 10
model.model_version = 7
model.doc_string = "a tiny model"
model.metadata_props.append(onnx.StringStringEntryProto(key="author", value="onnx-mlc"))
model.training_info.append(
    onnx.TrainingInfoProto(
        algorithm=helper.make_graph([], "step", [], []),
        update_binding=[onnx.StringStringEntryProto(key="weight", value="new_weight")],
    )
)

onnx.save(model, os.path.join(here, "tiny.onnx"))
