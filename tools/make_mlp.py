#!/usr/bin/env python3
"""Writes the MLP test model `tests/models/mlp/` with its reference data.

A three-layer perceptron written with the onnx helper API — Gemm (bias,
transB) → Relu → MatMul → Add → Tanh → Gemm (alpha, beta) — seeded weights,
one seeded input and the output onnxruntime computes for it
(`test_data_set_0/{input_0,output_0}.pb`, the backend test layout). The
AOT tests compile it into shared libraries for x86-64 and AArch64.

Usage: tools/make_mlp.py [--out DIR]   (needs onnx, onnxruntime, numpy)
"""
from __future__ import annotations

import argparse
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from omlc_tools import models, ort

BATCH, IN, HIDDEN1, HIDDEN2, OUT = 4, 64, 128, 32, 10


def build(rng: np.random.Generator) -> onnx.ModelProto:
    def weight(name: str, *shape: int) -> onnx.TensorProto:
        scale = 1.0 / np.sqrt(shape[0] if len(shape) > 1 else 1)
        data = (rng.standard_normal(shape) * scale).astype(np.float32)
        return numpy_helper.from_array(data, name)

    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h1"], name="fc1", transB=1),
        helper.make_node("Relu", ["h1"], ["a1"], name="relu1"),
        helper.make_node("MatMul", ["a1", "w2"], ["m2"], name="fc2"),
        helper.make_node("Add", ["m2", "b2"], ["h2"], name="bias2"),
        helper.make_node("Tanh", ["h2"], ["a2"], name="tanh2"),
        helper.make_node("Gemm", ["a2", "w3", "b3"], ["y"], name="fc3", alpha=0.5, beta=2.0),
    ]
    initializers = [
        weight("w1", HIDDEN1, IN),  # transB: [out, in]
        weight("b1", HIDDEN1),
        weight("w2", HIDDEN1, HIDDEN2),
        weight("b2", HIDDEN2),
        weight("w3", HIDDEN2, OUT),
        weight("b3", OUT),
    ]
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [BATCH, IN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [BATCH, OUT])],
        initializers,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="onnx-mlc tools/make_mlp.py"
    )
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=models.CHECKED_IN / "mlp")
    args = parser.parse_args()
    rng = np.random.default_rng(20261122)
    model = build(rng)
    x = rng.standard_normal((BATCH, IN)).astype(np.float32)
    args.out.mkdir(parents=True, exist_ok=True)
    onnx.save(model, args.out / "model.onnx")
    (y,) = ort.reference_session(args.out / "model.onnx").run(None, {"x": x})
    models.write_data_set(args.out / models.DATA_SET, [("x", x)], [("y", y)])
    print(f"wrote {args.out}: x {x.shape} -> y {y.shape}")


if __name__ == "__main__":
    main()
