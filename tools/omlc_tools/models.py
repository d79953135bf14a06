"""Where the models and their data sets are; reading and writing data sets."""
from __future__ import annotations

import json
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
# The real models: graphs in tests/models/<name>/, weights in .cache/models/<name>/
# (the `_dynamic` variants share their static twin's data).
REAL_MODELS = ["resnet50", "mobilenet_v2", "efficientnet_b0", "vit_b_16", "bert_base", "gpt2"]
DATA_SET = "test_data_set_0"
CACHE = REPO / ".cache" / "models"
CHECKED_IN = REPO / "tests" / "models"


def model_dir(name: str, cache: pathlib.Path = CACHE) -> pathlib.Path:
    """Where `name`'s model.onnx and test_data_set_0 are: the cache (a real
    model), or tests/models (a small checked-in one)."""
    cached = cache / name
    return cached if (cached / "model.onnx").is_file() else CHECKED_IN / name


def resolve(model: str) -> pathlib.Path:
    """A model named on a command line: a file, or a name `model_dir` finds."""
    path = pathlib.Path(model)
    if path.is_file():
        return path
    path = model_dir(model) / "model.onnx"
    if not path.is_file():
        raise SystemExit(f"error: {model} is neither a file nor a model of {CACHE} or {CHECKED_IN}")
    return path


def recipe_of(name: str, models: pathlib.Path = CHECKED_IN) -> dict:
    """A real model's `weights.json` (dims and integer ranges of its inputs), or {}."""
    path = models / name / "weights.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def read_data_set(data: pathlib.Path, prefix: str = "input") -> list[tuple[pathlib.Path, str, object]]:
    """(file, name, array) of `data/<prefix>_K.pb`, in K order."""
    import onnx
    from onnx import numpy_helper

    files = sorted(data.glob(f"{prefix}_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
    out = []
    for f in files:
        t = onnx.load_tensor(str(f))
        out.append((f, t.name, numpy_helper.to_array(t)))
    return out


def write_data_set(data: pathlib.Path, inputs, outputs) -> None:
    """`data/input_K.pb` and `data/output_K.pb` (serialized TensorProtos, the
    ONNX backend tests' layout; a list of dicts, a ZipMap's output, as a
    SequenceProto of MapProtos) from (name, value) pairs."""
    import numpy as np
    from onnx import numpy_helper

    data.mkdir(parents=True, exist_ok=True)
    for prefix, values in (("input", inputs), ("output", outputs)):
        for k, (name, value) in enumerate(values):
            if isinstance(value, list):
                # onnxruntime gives a ZipMap's float32 probabilities as Python floats.
                maps = [{k: np.float32(v) for k, v in item.items()} for item in value]
                proto = numpy_helper.from_list(maps, name)
            else:
                proto = numpy_helper.from_array(np.asarray(value), name)
            (data / f"{prefix}_{k}.pb").write_bytes(proto.SerializeToString())
