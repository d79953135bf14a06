"""Writes the test values the importer's value tests read (values/*.pb),
serialized by the onnx package's own helpers.

    python tests/import/make_values.py
"""

import os

import numpy as np
import onnx
from onnx import numpy_helper

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "values")
os.makedirs(here, exist_ok=True)


def save(name, proto):
    with open(os.path.join(here, name), "wb") as f:
        f.write(proto.SerializeToString())


save("tensor.pb", numpy_helper.from_array(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32), "t"))
save(
    "sequence.pb",
    numpy_helper.from_list([np.array([1, 2], dtype=np.int64), np.array([3], dtype=np.int64)], "s"),
)
save("map.pb", numpy_helper.from_dict({1: np.array(0.5, dtype=np.float32), 3: np.array(1.5, dtype=np.float32)}, "m"))
# from_dict cannot build string keys; build that map by hand.
string_map = onnx.MapProto(name="sm", key_type=onnx.TensorProto.STRING, string_keys=[b"a", b"bc"])
string_map.values.CopyFrom(
    numpy_helper.from_list([np.array(1, dtype=np.int64), np.array(2, dtype=np.int64)])
)
save("string_map.pb", string_map)
save("optional.pb", numpy_helper.from_optional(np.array([7.0], dtype=np.float64), "o"))
save("optional_none.pb", numpy_helper.from_optional(None, "none"))
save(
    "sequence_of_maps.pb",
    numpy_helper.from_list([{5: np.array(2.0, dtype=np.float32)}, {6: np.array(3.0, dtype=np.float32)}], "zipmap"),
)
