"""Models exported with dynamic axes against their static twins and onnxruntime.

For each model and size (a value for each of its inputs' `dim_param`s), on
the same seeded inputs (floats uniform in [-1, 1), integers ones: a valid
token id, mask and segment id), at 1 and `--threads` threads:
- `static`: the static twin, the model with its inputs' dims fixed to the
  size (written beside the model, its external data shared), JIT;
- `jit`: the dynamic model through the JIT as a user gets it: the size
  variant compiled in the background from the first run (`onnx-mlc bench`
  waits for it before timing);
- `general`: the general code alone (`--max-variants 0`): every kernel of
  symbolic size, convolutions image by image;
- `aot`: a library compiled ahead of time, general code only;
- `aot-specialize`: a library with a size variant for the size
  (`--specialize SIZE`), as a user who knows their sizes builds it;
- `onnxruntime` on the dynamic model (all graph optimizations);
then each onnx-mlc column's ratio to the static twin and to onnxruntime.
`--modes` picks the onnx-mlc columns. The default models: the real
models' dynamic exports where `tools/setup.sh` makes them
(`resnet50_dynamic`, `bert_base_dynamic`) and the zoo's dynamic exports
of the others (`tools/materialize_models.py --models tests/zoo`).
"""
from __future__ import annotations

import argparse
import pathlib
import tempfile

import numpy as np

from .. import compiler, models, ort, report

ZOO = models.REPO / ".cache" / "zoo"
CNN_SIZES = ["batch=1", "batch=4"]
TEXT_SIZES = ["batch=1,sequence=128", "batch=4,sequence=384"]
# name: (model file, sizes)
MODELS = {
    "resnet50": (models.CACHE / "resnet50_dynamic" / "model.onnx", CNN_SIZES),
    "mobilenet_v2": (ZOO / "vision" / "mobilenet_v2" / "model.onnx", CNN_SIZES),
    "efficientnet_b0": (ZOO / "vision" / "efficientnet_b0" / "model.onnx", CNN_SIZES),
    "vit_b_16": (ZOO / "vision" / "vit_b_16" / "model.onnx", CNN_SIZES),
    "bert_base": (models.CACHE / "bert_base_dynamic" / "model.onnx", TEXT_SIZES),
    "gpt2": (ZOO / "text" / "gpt2" / "model.onnx", TEXT_SIZES),
}
# mode: the `onnx-mlc bench` flags at a size (`batch=1,sequence=128`)
MODES = {
    "jit": lambda size: [],
    "general": lambda size: ["--max-variants", "0"],
    "aot": lambda size: ["--aot"],
    "aot-specialize": lambda size: ["--aot", "--specialize", size],
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=2, help="the thread count besides 1")
    parser.add_argument("--modes", default=",".join(MODES),
                        help=f"the onnx-mlc columns besides the static twin (default {','.join(MODES)})")
    parser.add_argument("--sizes", help="sizes for every model, e.g. 'batch=1 batch=8' "
                        "(default: batch 1 and 4; sequence 128 and 384 for text)")
    parser.add_argument("names", nargs="*", help=f"models (default: {' '.join(MODELS)})")


def parse_size(text: str) -> dict[str, int]:
    return {k: int(v) for k, v in (kv.split("=") for kv in text.split(","))}


def inputs_of(model, size: dict[str, int]) -> list[tuple[str, np.ndarray]]:
    """Seeded inputs of the graph inputs that are not initializers, at `size`."""
    import onnx

    init = {i.name for i in model.graph.initializer}
    rng = np.random.default_rng(0)
    feeds = []
    for value in model.graph.input:
        if value.name in init:
            continue
        tensor = value.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else size[d.dim_param]
                for d in tensor.shape.dim]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        if np.issubdtype(dtype, np.floating):
            array = rng.uniform(-1, 1, dims).astype(dtype)
        else:
            array = np.ones(dims, dtype)
        feeds.append((value.name, array))
    return feeds


def static_twin(path: pathlib.Path, size: dict[str, int], out: pathlib.Path) -> None:
    """Writes `path` with its inputs' dims fixed to `size` and every other
    declared shape left to inference, to `out` (in `path`'s folder, so that
    the external data it names is found)."""
    import onnx

    model = onnx.load(str(path), load_external_data=False)
    for value in model.graph.input:
        for d in value.type.tensor_type.shape.dim:
            if d.HasField("dim_param") and d.dim_param in size:
                d.dim_value = size[d.dim_param]
    for value in model.graph.output:
        for d in value.type.tensor_type.shape.dim:
            if d.HasField("dim_param"):
                d.ClearField("dim_param")
    del model.graph.value_info[:]
    onnx.save(model, str(out))


def main(args: argparse.Namespace) -> int:
    import onnx

    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        raise SystemExit(f"error: unknown modes {sorted(unknown)}: pick from {list(MODES)}")
    counts = [1, args.threads]
    print(report.machine_line(args.runs, args.warmup))
    print()
    table = report.Table("model", "size", "threads", "static", *modes, "onnxruntime",
                         *(f"{m} ÷ static" for m in modes), *(f"{m} ÷ ort" for m in modes))
    for name in args.names or MODELS:
        path, sizes = MODELS[name]
        if not path.is_file():
            raise SystemExit(f"error: {path} is missing (see `bench.py dynamic --help`)")
        graph = onnx.load(str(path), load_external_data=False)
        for size_text in args.sizes.split() if args.sizes else sizes:
            size = parse_size(size_text)
            feeds = inputs_of(graph, size)
            twin = path.parent / f"static-{size_text.replace('=', '').replace(',', '-')}.onnx"
            with tempfile.TemporaryDirectory() as tmp:
                files = []
                for k, (_, array) in enumerate(feeds):
                    files.append(pathlib.Path(tmp) / f"input_{k}.npy")
                    np.save(files[-1], array)
                static_twin(path, size, twin)
                try:
                    bench = lambda model, flags: compiler.bench(
                        args.bin, model, files, threads=args.threads, runs=args.runs,
                        warmup=args.warmup, flags=flags)
                    rows = {"static": bench(twin, [])}
                    for mode in modes:
                        rows[mode] = bench(path, MODES[mode](size_text))
                finally:
                    twin.unlink()
            for t in counts:
                theirs = ort.latency_ms(path, dict(feeds), t, args.runs, args.warmup)
                ours = {m: rows[m][t].median for m in rows}
                table.row(name, size_text, t, report.ms(ours["static"]),
                          *(report.ms(ours[m]) for m in modes), report.ms(theirs),
                          *(report.ratio(ours[m], ours["static"]) for m in modes),
                          *(report.ratio(ours[m], theirs) for m in modes))
    print()
    print(report.end_line())
    return 0
