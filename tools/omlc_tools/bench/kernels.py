"""Single kernels against onnxruntime: the convolutions of ResNet-50 and
MobileNetV2 and a 512³ MatMul.

Each case is a one-kernel ONNX model (Conv + Relu with seeded weights and
bias, or a MatMul of two inputs) written to a temporary folder with seeded
inputs and onnxruntime's outputs on them (`tools/reference.py outputs`).
For each it prints onnx-mlc's median latency at one thread (`onnx-mlc bench`,
JIT), onnxruntime's (1 intra-op thread) measured in the same run, their
ratio, onnx-mlc's GFLOP/s (2 flops per multiply-add; with `--peak`, also as a
share of that many GFLOP/s), the compile time, and the largest absolute and
relative error of onnx-mlc's output (`onnx-mlc run`) against onnxruntime's.
The whole models these layers come from are `tools/bench.py ort resnet50
mobilenet_v2`.
"""
from __future__ import annotations

import argparse
import pathlib
import tempfile

import numpy as np

from .. import compiler, models, ort, report

# name: (C, H, M, k, stride, group) of a Conv + Relu over a 1×C×H×H input
# producing M channels.
CONVS = {
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
MATMUL = 512
CASES = list(CONVS) + [f"matmul_{MATMUL}"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peak", type=float,
                        help="one core's fp32 peak in GFLOP/s, to print each kernel's share "
                             "(2.6 GHz × 2 FMA units × 16 lanes × 2 flops = 166.4 on the "
                             "development machine)")
    parser.add_argument("names", nargs="*", help=f"cases (default: {' '.join(CASES)})")


def conv_model(c: int, h: int, m: int, k: int, s: int, g: int):
    """Conv (same padding) + Relu with seeded weights; its flops."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    w = (rng.standard_normal((m, c // g, k, k)) * (2.0 / (c // g * k * k)) ** 0.5).astype(np.float32)
    b = rng.standard_normal(m).astype(np.float32) * 0.1
    p = k // 2
    out = (h + 2 * p - k) // s + 1
    conv = helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[p] * 4, strides=[s, s], group=g)
    relu = helper.make_node("Relu", ["c"], ["y"])
    graph = helper.make_graph(
        [conv, relu], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, h, h])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, m, out, out])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(proto)
    return proto, 2.0 * m * (c // g) * k * k * out * out


def matmul_model(n: int):
    """An n×n by n×n MatMul of two inputs; its flops."""
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["y"])], "matmul",
        [helper.make_tensor_value_info(v, TensorProto.FLOAT, [n, n]) for v in ("a", "b")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, n])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             ir_version=8), 2.0 * n ** 3


def errors(got: pathlib.Path, want: pathlib.Path) -> tuple[float, float]:
    """Largest absolute and relative (to max(|want|, 1e-3)) error of the first outputs."""
    (_, _, a), (_, _, b) = (models.read_data_set(d, "output")[0] for d in (got, want))
    d = np.abs(a.astype(np.float64) - b.astype(np.float64))
    return float(d.max()), float((d / np.maximum(np.abs(b), 1e-3)).max())


def main(args: argparse.Namespace) -> int:
    import onnx

    print(report.machine_line(args.runs, args.warmup) + "; 1 thread")
    print()
    columns = ["kernel", "onnx-mlc ms", "onnxruntime ms", "ratio", "GFLOP/s"]
    columns += ["% of peak"] if args.peak else []
    table = report.Table(*columns, "compile s", "max abs err", "max rel err")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.names or CASES:
            proto, flops = conv_model(*CONVS[name]) if name in CONVS else matmul_model(MATMUL)
            case = pathlib.Path(tmp) / name
            case.mkdir()
            model = case / "model.onnx"
            onnx.save(proto, model)
            data = case / models.DATA_SET
            ort.write_reference(model, data, 0, {})
            inputs = models.read_data_set(data)
            files = [f for f, _, _ in inputs]
            row = compiler.bench(args.bin, model, files, runs=args.runs, warmup=args.warmup)[1]
            compiler.run(args.bin, model, files, case / "out")
            theirs = ort.latency_ms(model, {n: v for _, n, v in inputs}, 1, args.runs,
                                    args.warmup)
            gflops = flops / (row.median * 1e-3) / 1e9
            cells = [name, report.ms(row.median), report.ms(theirs),
                     report.ratio(row.median, theirs), f"{gflops:.1f}"]
            cells += [f"{100 * gflops / args.peak:.0f}%"] if args.peak else []
            abs_err, rel_err = errors(case / "out", data)
            table.row(*cells, f"{row.compile_s:.2f}", f"{abs_err:.2e}", f"{rel_err:.2e}")
    print()
    print(report.end_line())
    return 0
