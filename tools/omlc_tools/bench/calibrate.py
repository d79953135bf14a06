"""Calibrates the optimizer's cost model (compiler/optimizer/src/cost.rs)
against kernels measured on this machine.

Each probe is a one-op (or one-pattern) ONNX model with the shapes the real
models use; `onnx-mlc bench` times it at one thread (release build, median
of --runs). The fit follows the cost model's own form,
`time = overhead + max(flops / (peak · efficiency[kind]), bytes / bandwidth)`:

- overhead:  the time per kernel of a chain of 64 tiny (4×4) MatMuls, one
             kernel each (no work to speak of);
- bandwidth: bytes moved by a 4 Mi-element Add over its time less overhead;
- peak:      FLOPs of BERT's 128×768×768 MatMul over its time less overhead
             (so MatMul's efficiency is 1 by definition: "peak" is what
             the compiled MatMul reaches, not the hardware's peak);
- efficiency[kind]: achieved FLOP/s of the other probes over that peak
             (geometric mean over a kind's probes), for the kinds whose
             time the memory side of the roofline does not explain (the
             others stay at 1).

The attention probe is measured twice: the exporter's pattern unfused,
and the internal op `omlc.FusedAttention` written directly in the model
(not left to the optimizer, whose calibrated cost model would not pick
it), so the extraction picks the fused op only if it pays.

Prints the measurements and the constants as Rust for `Target::default()`.
"""
from __future__ import annotations

import argparse
import pathlib
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .. import compiler

# Kernels in the overhead probe: a chain of tiny MatMuls, one kernel each
# (a single tiny op is below the timer's resolution).
CHAIN = 64


def weight(name: str, shape: list[int]) -> onnx.TensorProto:
    rng = np.random.default_rng(0)
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def model(nodes, inputs, output_shape, inits=()) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes, "probe",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, output_shape)],
        list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def f32_bytes(*shapes: list[int]) -> float:
    return 4.0 * sum(float(np.prod(s)) for s in shapes)


def probes():
    """(name, op kind, model, flops, bytes, rule sets) of each probe.
    Every probe compiles with --rules=none: it is timed as written."""
    m, k, n = 128, 768, 768
    yield ("matmul 128x768x768", "MatMul",
           model([helper.make_node("MatMul", ["x", "w"], ["y"])], [("x", [m, k])], [m, n],
                 [weight("w", [k, n])]),
           2.0 * m * k * n, f32_bytes([m, k], [k, n], [m, n]), "none")
    b, s, d = 12, 128, 64
    yield ("batched matmul 12x128x64x128", "MatMul",
           model([helper.make_node("MatMul", ["q", "kt"], ["y"])],
                 [("q", [b, s, d]), ("kt", [b, d, s])], [b, s, s]),
           2.0 * b * s * s * d, f32_bytes([b, s, d], [b, d, s], [b, s, s]), "none")
    c, hw = 64, 56
    yield ("conv 3x3 64->64 56x56", "Conv",
           model([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
                 [("x", [1, c, hw, hw])], [1, c, hw, hw], [weight("w", [c, c, 3, 3])]),
           2.0 * c * hw * hw * c * 9, f32_bytes([1, c, hw, hw], [c, c, 3, 3], [1, c, hw, hw]),
           "none")
    yield ("conv 1x1 256->64 56x56", "Conv",
           model([helper.make_node("Conv", ["x", "w"], ["y"])],
                 [("x", [1, 256, hw, hw])], [1, 64, hw, hw], [weight("w", [64, 256, 1, 1])]),
           2.0 * 64 * hw * hw * 256, f32_bytes([1, 256, hw, hw], [64, 256], [1, 64, hw, hw]),
           "none")
    yield from pointwise_probes()
    big = [1, 1 << 22]
    yield ("add 4Mi", "Add",
           model([helper.make_node("Add", ["a", "b"], ["y"])], [("a", big), ("b", big)], big),
           float(1 << 22), f32_bytes(big, big, big), "none")
    chain = [helper.make_node("MatMul", ["x" if i == 0 else f"t{i}", "w"],
                              ["y" if i == CHAIN - 1 else f"t{i + 1}"]) for i in range(CHAIN)]
    yield (f"{CHAIN} chained 4x4 matmuls", "overhead",
           model(chain, [("x", [4, 4])], [4, 4], [weight("w", [4, 4])]),
           CHAIN * 128.0, CHAIN * f32_bytes([4, 4], [4, 4], [4, 4]), "none")
    sm = [b, s, s]
    yield ("softmax 12x128x128", "Softmax",
           model([helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [("x", sm)], sm),
           8.0 * np.prod(sm), f32_bytes(sm, sm), "none")
    act = [128, 3072]
    yield ("erf 128x3072", "Erf",
           model([helper.make_node("Erf", ["x"], ["y"])], [("x", act)], act),
           10.0 * np.prod(act), f32_bytes(act, act), "none")
    ln = [128, 768]
    yield ("layernorm 128x768", "LayerNormalization",
           model([helper.make_node("LayerNormalization", ["x", "g", "bb"], ["y"], axis=-1)],
                 [("x", ln)], ln, [weight("g", [768]), weight("bb", [768])]),
           8.0 * np.prod(ln), f32_bytes(ln, ln), "none")
    attention = model(
        [helper.make_node("MatMul", ["q", "kt"], ["qk"]),
         helper.make_node("Mul", ["qk", "scale"], ["scaled"]),
         helper.make_node("Add", ["scaled", "mask"], ["masked"]),
         helper.make_node("Softmax", ["masked"], ["p"], axis=-1),
         helper.make_node("MatMul", ["p", "v"], ["y"])],
        [("q", [b, s, d]), ("kt", [b, d, s]), ("v", [b, s, d])], [b, s, d],
        [numpy_helper.from_array(np.array(0.125, np.float32), "scale"),
         numpy_helper.from_array(np.zeros([1, s, s], np.float32), "mask")])
    fused = model(
        [helper.make_node("FusedAttention", ["q", "kt", "v", "mask"], ["y"],
                          domain="onnx_mlc", scale=0.125)],
        [("q", [b, s, d]), ("kt", [b, d, s]), ("v", [b, s, d])], [b, s, d],
        [numpy_helper.from_array(np.zeros([1, s, s], np.float32), "mask")])
    fused.opset_import.append(helper.make_opsetid("onnx_mlc", 1))
    flops = b * s * s * (2.0 * d + 2.0 * d + 8.0)
    moved = f32_bytes([b, s, d], [b, d, s], [b, s, d], [1, s, s], [b, s, d])
    yield ("attention 12x128x64 unfused", "unfused attention", attention, flops, moved, "none")
    yield ("attention 12x128x64 fused", "FusedAttention", fused, flops, moved, "none")


def pointwise_probes():
    """1x1 convolutions (ResNet-50's first and last stage) in the
    `pointwise` rules' product form, `W[K, C] · X[1, C, P]` over reshaped
    views, and the last stage's as Conv (the first's is a Conv probe
    above): measured to check that the extraction, which weighs them by
    Conv's and MatMul's efficiencies, picks the faster kernel. Printed,
    not fitted (kinds "pointwise …")."""
    for c, k, hw in [(256, 64, 56), (2048, 512, 7)]:
        flops = 2.0 * k * c * hw * hw
        moved = f32_bytes([1, c, hw, hw], [k, c], [1, k, hw, hw])
        if hw == 7:
            yield (f"conv 1x1 {c}->{k} {hw}x{hw}", "pointwise conv",
                   model([helper.make_node("Conv", ["x", "w"], ["y"])],
                         [("x", [1, c, hw, hw])], [1, k, hw, hw],
                         [weight("w", [k, c, 1, 1])]),
                   flops, moved, "none")
        shapes = [numpy_helper.from_array(np.array(s, np.int64), n)
                  for n, s in [("xs", [1, c, hw * hw]), ("ys", [1, k, hw, hw])]]
        yield (f"pointwise {c}->{k} {hw}x{hw} as matmul", "pointwise matmul",
               model([helper.make_node("Reshape", ["x", "xs"], ["xr"]),
                      helper.make_node("MatMul", ["w", "xr"], ["p"]),
                      helper.make_node("Reshape", ["p", "ys"], ["y"])],
                     [("x", [1, c, hw, hw])], [1, k, hw, hw], [weight("w", [k, c])] + shapes),
               flops, moved, "none")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options besides the shared ones."""


def main(args: argparse.Namespace) -> int:
    measured = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, kind, proto, flops, moved, rules) in enumerate(probes()):
            path = pathlib.Path(tmp) / f"probe{i}.onnx"
            onnx.save(proto, path)
            row = compiler.bench(args.bin, path, runs=args.runs, warmup=args.warmup,
                                 flags=[f"--rules={rules}"])[1]
            t = row.median * 1e-3  # seconds
            measured.append((name, kind, flops, moved, t))
            print(f"{name:32} {t * 1e3:9.3f} ms  {flops / t / 1e9:7.2f} GFLOP/s"
                  f"  {moved / t / 1e9:6.2f} GB/s")
    by_name = {name: (flops, moved, t) for name, _, flops, moved, t in measured}
    overhead = by_name[f"{CHAIN} chained 4x4 matmuls"][2] / CHAIN
    flops, moved, t = by_name["add 4Mi"]
    bandwidth = moved / (t - overhead)
    flops, moved, t = by_name["matmul 128x768x768"]
    peak = flops / (t - overhead)
    efficiency: dict[str, list[float]] = {}
    for name, kind, flops, moved, t in measured:
        if kind in ("Add", "MatMul", "unfused attention", "overhead") or \
                kind.startswith("pointwise"):
            continue
        if t - overhead <= moved / bandwidth:
            continue
        efficiency.setdefault(kind, []).append(flops / (t - overhead) / peak)
    print()
    print(f"peak_flops: {peak:.3e},")
    print(f"mem_bandwidth: {bandwidth:.3e},")
    print(f"op_overhead: {overhead:.3e},")
    # FusedConv is Conv's kernel with an epilogue: Conv's efficiency.
    if "Conv" in efficiency:
        efficiency["FusedConv"] = efficiency["Conv"]
    print("efficiency: vec![")
    for kind, values in sorted(efficiency.items()):
        print(f"    (OpKind::{kind}, {float(np.exp(np.mean(np.log(values)))):.3f}),")
    print("],")
    return 0

