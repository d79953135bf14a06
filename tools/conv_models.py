"""Single-convolution ONNX models with the shapes of ResNet-50 and
MobileNetV2 layers, for `cargo run --release -p onnx-mlc --example cnn_bench`.

usage: conv_models.py OUTDIR — writes OUTDIR/<name>.onnx (Conv + Relu,
seeded random weights and bias) and prints the names.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# name: (C, H, M, k, stride, group)
LAYERS = {
    "resnet_stem_7x7s2": (3, 224, 64, 7, 2, 1),
    "resnet_1x1_64_256_56": (64, 56, 256, 1, 1, 1),
    "resnet_3x3_64_56": (64, 56, 64, 3, 1, 1),
    "resnet_3x3_128_28": (128, 28, 128, 3, 1, 1),
    "resnet_1x1_1024_256_14": (1024, 14, 256, 1, 1, 1),
    "resnet_3x3_512_7": (512, 7, 512, 3, 1, 1),
    "mobilenet_1x1_24_144_56": (24, 56, 144, 1, 1, 1),
    "mobilenet_dw_3x3_144_56": (144, 56, 144, 3, 1, 144),
    "mobilenet_dw_3x3s2_144_56": (144, 56, 144, 3, 2, 144),
}


def model(c, h, m, k, s, g):
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((m, c // g, k, k)) * (2.0 / (c // g * k * k)) ** 0.5).astype(np.float32)
    b = rng.standard_normal(m).astype(np.float32) * 0.1
    p = k // 2
    out = (h + 2 * p - k) // s + 1
    conv = helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[p] * 4, strides=[s, s], group=g)
    relu = helper.make_node("Relu", ["c"], ["y"])
    graph = helper.make_graph(
        [conv, relu],
        "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, h])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, m, out, out])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, shape in LAYERS.items():
        onnx.save(model(*shape), os.path.join(out, name + ".onnx"))
        print(name)


if __name__ == "__main__":
    main()
