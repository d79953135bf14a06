"""8-bit models against onnxruntime on the same model, and against onnx-mlc's
own fp32 model.

Each real model (`tools/setup.sh`'s `.cache/models/<name>`) gets an 8-bit
twin made with onnxruntime's quantization tool, written once beside it
(`int8.onnx`): dynamic quantization (int8 weights, DynamicQuantizeLinear
and MatMulInteger) for the transformers, static quantization in QDQ format
(per-channel int8 weights, calibrated on seeded random inputs) for the
CNNs, as `onnxruntime.quantization` documents for each. On the model's
seeded reference inputs, at 1 and `--threads` threads: onnx-mlc on the fp32
model and on the int8 one (JIT), onnxruntime on the int8 one (all graph
optimizations), then onnx-mlc's int8 latency over onnxruntime's and over
its own fp32 one (below 1: faster). A model onnx-mlc cannot compile shows
`unsupported`, with the reason below the table.
"""
from __future__ import annotations

import argparse
import pathlib
import tempfile

import numpy as np

from .. import compiler, models, ort, report

# name: how onnxruntime quantizes it
MODELS = {
    "bert_base": "dynamic",
    "gpt2": "dynamic",
    "vit_b_16": "dynamic",
    "resnet50": "qdq",
    "mobilenet_v2": "qdq",
    "efficientnet_b0": "qdq",
}
CALIBRATION_BATCHES = 4


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=2, help="the thread count besides 1")
    parser.add_argument("names", nargs="*", help=f"models (default: {' '.join(MODELS)})")


def quantized(model: pathlib.Path, kind: str, feeds: dict) -> pathlib.Path:
    """The 8-bit twin of `model` (made once): `kind` is `dynamic` or `qdq`."""
    out = model.parent / "int8.onnx"
    if out.is_file():
        return out
    from onnxruntime import quantization as q

    if kind == "dynamic":
        q.quantize_dynamic(str(model), str(out), weight_type=q.QuantType.QInt8)
        return out

    class Calibration(q.CalibrationDataReader):
        """Seeded random batches shaped like the reference inputs."""

        def __init__(self):
            rng = np.random.default_rng(0)
            self.batches = iter([
                {n: rng.uniform(-1, 1, v.shape).astype(v.dtype) for n, v in feeds.items()}
                for _ in range(CALIBRATION_BATCHES)
            ])

        def get_next(self):
            return next(self.batches, None)

    import onnx

    with tempfile.TemporaryDirectory() as tmp:
        # (self-contained: the pre-processing cannot follow external data)
        whole, prepared = pathlib.Path(tmp) / "whole.onnx", pathlib.Path(tmp) / "prepared.onnx"
        onnx.save(onnx.load(str(model)), str(whole))
        q.quant_pre_process(str(whole), str(prepared), skip_symbolic_shape=True)
        q.quantize_static(str(prepared), str(out), Calibration(), quant_format=q.QuantFormat.QDQ,
                          per_channel=True, activation_type=q.QuantType.QUInt8,
                          weight_type=q.QuantType.QInt8)
    return out


def main(args: argparse.Namespace) -> int:
    counts = [1, args.threads]
    print(report.machine_line(args.runs, args.warmup))
    print()
    table = report.Table("model", "quantization", "threads", "onnx-mlc fp32", "onnx-mlc int8",
                         "onnxruntime int8", "int8 ÷ ort", "int8 ÷ fp32")
    unsupported = {}
    for name in args.names or MODELS:
        model = models.resolve(name)
        inputs = models.read_data_set(model.parent / models.DATA_SET)
        files = [f for f, _, _ in inputs]
        feeds = {n: v for _, n, v in inputs}
        int8 = quantized(model, MODELS[name], feeds)
        ours = {}
        for which, path in [("fp32", model), ("int8", int8)]:
            try:
                rows = compiler.bench(args.bin, path, files, threads=args.threads,
                                      runs=args.runs, warmup=args.warmup)
                ours[which] = {t: row.median for t, row in rows.items()}
            except compiler.Unsupported as e:
                ours[which] = {}
                unsupported[f"{name} {which}"] = str(e)
        for t in counts:
            theirs = ort.latency_ms(int8, feeds, t, args.runs, args.warmup)
            fp32, mine = ours["fp32"].get(t), ours["int8"].get(t)
            table.row(name, MODELS[name], t, report.ms(fp32), report.ms(mine), report.ms(theirs),
                      report.ratio(mine, theirs), report.ratio(mine, fp32))
    return report.finish(unsupported)
