#!/usr/bin/env python3
"""Writes `tests/models/mlp/model.onnx`: a small multi-layer perceptron.

Built with the onnx helper API (no torch), so it can be regenerated anywhere
the `.venv` exists; the output is deterministic and checked in. It is the
smallest real model of the corpus: a few dense layers with the ops every
code generator handles first (Gemm with a transposed weight, MatMul + bias
Add, Relu, Tanh), so that model tests, the AOT library tests and the
benchmarks have something that compiles while bigger models do not yet.

    x [4, 64] ─ Gemm(W1ᵀ, b1) ─ Relu ─ MatMul(W2) ─ Add(b2) ─ Tanh ─ Gemm(W3, b3) ─ logits [4, 10]

Weights are normal samples scaled by 1/sqrt(fan-in) from a fixed seed
(inline initializers, about 70 KiB). Reference outputs are computed by
`tools/make_reference_data.py` like those of the other models.

Usage: make_mlp_model.py [--out tests/models/mlp/model.onnx]
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

REPO = pathlib.Path(__file__).resolve().parent.parent
BATCH, IN, HIDDEN1, HIDDEN2, OUT = 4, 64, 128, 64, 10
OPSET = 17
SEED = 0


def build() -> onnx.ModelProto:
    rng = np.random.default_rng(SEED)

    def weight(name: str, shape: tuple[int, ...], fan_in: int) -> onnx.TensorProto:
        data = rng.standard_normal(shape, dtype=np.float32) / np.float32(np.sqrt(fan_in))
        return numpy_helper.from_array(data.astype(np.float32), name)

    initializers = [
        weight("W1", (HIDDEN1, IN), IN),  # used transposed (transB = 1)
        weight("b1", (HIDDEN1,), IN),
        weight("W2", (HIDDEN1, HIDDEN2), HIDDEN1),
        weight("b2", (HIDDEN2,), HIDDEN1),
        weight("W3", (HIDDEN2, OUT), HIDDEN2),
        weight("b3", (OUT,), HIDDEN2),
    ]
    nodes = [
        helper.make_node("Gemm", ["x", "W1", "b1"], ["h1"], name="fc1", transB=1),
        helper.make_node("Relu", ["h1"], ["a1"], name="relu1"),
        helper.make_node("MatMul", ["a1", "W2"], ["h2"], name="fc2"),
        helper.make_node("Add", ["h2", "b2"], ["h2b"], name="fc2_bias"),
        helper.make_node("Tanh", ["h2b"], ["a2"], name="tanh2"),
        helper.make_node("Gemm", ["a2", "W3", "b3"], ["logits"], name="fc3"),
    ]
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [BATCH, IN])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [BATCH, OUT])],
        initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="onnx-mlc tools/make_mlp_model.py",
        ir_version=8,
    )
    onnx.checker.check_model(model, full_check=True)
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path,
                        default=REPO / "tests" / "models" / "mlp" / "model.onnx")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(build(), str(args.out))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
