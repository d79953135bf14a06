"""Writes storage.onnx: the same values of every element type stored twice,
once in the typed field (float_data, int32_data, ...) and once in raw_data,
both encoded by the onnx package itself (helper.make_tensor).

The import test checks that both decode to the same TensorData: our
typed-field repacking must agree with onnx's raw_data packing.

    python tests/import/make_storage.py
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))

values = {
    TensorProto.FLOAT: [1.5, -2.0, 3.25, 0.0, 1e30],
    TensorProto.UINT8: [0, 1, 127, 128, 255],
    TensorProto.INT8: [-128, -1, 0, 1, 127],
    TensorProto.UINT16: [0, 1, 300, 40000, 65535],
    TensorProto.INT16: [-32768, -1, 0, 1, 32767],
    TensorProto.INT32: [-(2**31), -1, 0, 1, 2**31 - 1],
    TensorProto.INT64: [-(2**63), -1, 0, 1, 2**63 - 1],
    TensorProto.STRING: [b"a", b"", b"hello", b"\xff\x01", b"z"],
    TensorProto.BOOL: [True, False, True, True, False],
    TensorProto.FLOAT16: [1.5, -2.0, 65504.0, 0.0, -0.0],
    TensorProto.DOUBLE: [1.5, -2.0, 1e300, 0.0, -1e-300],
    TensorProto.UINT32: [0, 1, 2**31, 2**32 - 1, 7],
    TensorProto.UINT64: [0, 1, 2**63, 2**64 - 1, 7],
    TensorProto.COMPLEX64: [1 + 2j, -3.5j, 4, 0, 1e10 - 1j],
    TensorProto.COMPLEX128: [1 + 2j, -3.5j, 4, 0, 1e300 - 1j],
    TensorProto.BFLOAT16: [1.5, -2.0, 3.0, 0.0, 256.0],
    TensorProto.FLOAT8E4M3FN: [1.5, -2.0, 448.0, 0.0, 0.125],
    TensorProto.FLOAT8E4M3FNUZ: [1.5, -2.0, 240.0, 0.0, 0.125],
    TensorProto.FLOAT8E5M2: [1.5, -2.0, 57344.0, 0.0, 0.125],
    TensorProto.FLOAT8E5M2FNUZ: [1.5, -2.0, 57344.0, 0.0, 0.125],
    TensorProto.UINT4: [0, 1, 7, 15, 9],
    TensorProto.INT4: [-8, -1, 0, 1, 7],
    TensorProto.FLOAT4E2M1: [1.5, -2.0, 6.0, 0.0, 0.5],
    TensorProto.FLOAT8E8M0: [1.0, 2.0, 0.5, 2.0**100, 2.0**-100],
    TensorProto.UINT2: [0, 1, 2, 3, 1],
    TensorProto.INT2: [-2, -1, 0, 1, 1],
    TensorProto.FLOAT6E2M3: [1.5, -2.0, 7.5, 0.0, 0.125],
    TensorProto.FLOAT6E3M2: [1.5, -2.0, 28.0, 0.0, 0.25],
}

initializers = []
for dtype, vals in values.items():
    name = TensorProto.DataType.Name(dtype).lower()
    typed = helper.make_tensor(f"{name}_typed", dtype, [5], vals)
    initializers.append(typed)
    if dtype != TensorProto.STRING:
        np_dtype = helper.tensor_dtype_to_np_dtype(dtype)
        array = np.array(vals, dtype=np_dtype)
        raw = onnx.numpy_helper.from_array(array, name=f"{name}_raw")
        assert raw.data_type == dtype, (name, raw.data_type)
        initializers.append(raw)

graph = helper.make_graph([], "storage", [], [], initializer=initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.save(model, os.path.join(here, "storage.onnx"))
for t in initializers:
    fields = [f.name for f, _ in t.ListFields() if f.name.endswith("_data")]
    print(t.name, fields)
