"""Weight recipes: a model's large initializers replaced by how to regenerate them.

The exporters (`tools/export_models.py`, `tools/export_zoo.py`) check in a
graph whose large initializers are external data in `weights.bin` and a
`weights.json` recipe per tensor; `tools/materialize_models.py` regenerates
the bytes from it. A tensor's recipe is its dtype, dims, offset and length in
`weights.bin`, and either

- `constant`: the one value all its elements had;
- `normal`: the mean, standard deviation, minimum and maximum of a float
  tensor (regenerated as a seeded normal sample clipped to that range, so
  e.g. BatchNorm variances stay positive);
- `uniform`: the minimum and maximum of an 8-bit integer tensor, i.e. the
  quantized weights of a quantized model (regenerated uniformly in that
  range; their scales and zero points are small and stay inline, exact).

Float tensors with a non-finite element (masks of -inf) and wider integer
tensors (indices, shapes) always stay inline: a random stand-in could change
what the graph computes, not only its numbers.
"""
from __future__ import annotations

import json

FORMAT = "onnx-mlc weight recipes 1"
# Tensors with more elements than this go to external data.
INLINE_LIMIT = 1024
# Offsets in weights.bin are page aligned so that a loader can map tensors.
ALIGN = 4096
# Tensors are regenerated in chunks of this many elements to bound memory.
CHUNK = 1 << 24
WEIGHTS_FILE = "weights.bin"
FLOAT_DTYPES = {"float32", "float64", "float16"}
INT_DTYPES = {"int8", "uint8"}


def recipe(values) -> dict:
    """How to regenerate an array of this distribution."""
    import numpy as np

    flat = values.reshape(-1)
    if (flat == flat[0]).all():
        value = flat[0].item()
        return {"init": "constant", "value": float(value) if values.dtype.kind == "f" else value}
    if values.dtype.name in INT_DTYPES:
        return {"init": "uniform", "min": int(flat.min()), "max": int(flat.max())}
    flat = flat.astype(np.float64)
    return {"init": "normal", "mean": float(flat.mean()), "std": float(flat.std()),
            "min": float(flat.min()), "max": float(flat.max())}


def externalizable(values, ints: bool) -> bool:
    """Whether a tensor is large weights a recipe may stand in for."""
    import numpy as np

    if values.size <= INLINE_LIMIT:
        return False
    if values.dtype.name in FLOAT_DTYPES:
        return bool(np.isfinite(values).all())
    return ints and values.dtype.name in INT_DTYPES


def strip_weights(model, ints: bool = False) -> dict:
    """Moves the large float initializers (and with `ints` the large 8-bit
    integer ones) of `model` to external data in `weights.bin`; returns the
    recipe file's content for them."""
    import onnx
    from onnx import numpy_helper

    tensors = {}
    offset = 0
    for init in model.graph.initializer:
        if init.data_location == onnx.TensorProto.EXTERNAL:
            raise ValueError(f"{init.name}: load the external data first")
        values = numpy_helper.to_array(init)
        if not externalizable(values, ints):
            continue
        offset = -(-offset // ALIGN) * ALIGN
        tensors[init.name] = {"dtype": values.dtype.name, "dims": list(values.shape),
                              "offset": offset, "length": values.nbytes, **recipe(values)}
        for field in ("raw_data", "float_data", "double_data", "int32_data"):
            init.ClearField(field)
        init.data_location = onnx.TensorProto.EXTERNAL
        del init.external_data[:]
        for key, value in (("location", WEIGHTS_FILE), ("offset", str(offset)),
                           ("length", str(values.nbytes))):
            entry = init.external_data.add()
            entry.key, entry.value = key, value
        offset += values.nbytes
    return {"format": FORMAT, "file": WEIGHTS_FILE, "size": offset, "tensors": tensors}


def write_tensor(name: str, spec: dict, sink) -> None:
    """Writes the tensor's little-endian bytes, regenerated from its recipe
    `spec` (seeded by its name), to `sink` chunk by chunk."""
    import numpy as np

    from omlc_tools import seeded

    dtype = np.dtype(spec["dtype"]).newbyteorder("<")
    count = int(np.prod(spec["dims"], dtype=np.int64))
    if count * dtype.itemsize != spec["length"]:
        raise ValueError(f"{name}: {spec['dims']} x {dtype} is not {spec['length']} bytes")
    rng = np.random.default_rng(seeded.seed_of(name))
    for start in range(0, count, CHUNK):
        n = min(CHUNK, count - start)
        if spec["init"] == "constant":
            chunk = np.full(n, spec["value"], dtype=dtype)
        elif spec["init"] == "uniform":
            chunk = rng.integers(spec["min"], spec["max"], n, dtype=dtype, endpoint=True)
        elif spec["init"] == "normal":
            chunk = rng.standard_normal(n, dtype=np.float32)
            chunk *= np.float32(spec["std"])
            chunk += np.float32(spec["mean"])
            np.clip(chunk, spec["min"], spec["max"], out=chunk)
            chunk = chunk.astype(dtype, copy=False)
        else:
            raise ValueError(f"{name}: unknown init {spec['init']!r}")
        sink.write(chunk.tobytes())


def regenerate(name: str, spec: dict):
    """The tensor `write_tensor` writes, as an array."""
    import io

    import numpy as np

    sink = io.BytesIO()
    write_tensor(name, spec, sink)
    dtype = np.dtype(spec["dtype"]).newbyteorder("<")
    return np.frombuffer(sink.getvalue(), dtype=dtype).reshape(spec["dims"]).copy()


def dump(recipes: dict) -> str:
    """The recipe file: top-level fields first, then one line per tensor (diffable)."""
    lines = ["{"]
    lines += [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in recipes.items() if k != "tensors"]
    tensors = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in recipes["tensors"].items()]
    lines += [' "tensors": {', ",\n".join(tensors), " }", "}"]
    return "\n".join(lines) + "\n"
