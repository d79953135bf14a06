"""Seeds and seeded inputs: the same bytes on every machine and every run.

The real models' weights (`tools/materialize_models.py`) and every reference
data set (`tools/reference.py`) are drawn here; both stamp their output with
this file's hash, so a change to the drawing regenerates them.
"""
from __future__ import annotations

import hashlib

# onnxruntime's input type names -> numpy dtype names.
ORT_TYPES = {
    "tensor(float)": "float32",
    "tensor(double)": "float64",
    "tensor(float16)": "float16",
    "tensor(int64)": "int64",
    "tensor(int32)": "int32",
    "tensor(int16)": "int16",
    "tensor(int8)": "int8",
    "tensor(uint8)": "uint8",
    "tensor(bool)": "bool",
    "tensor(string)": "object",
}


def seed_of(name: str) -> int:
    """A generator seed from a name, the same on every machine and Python run."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")


def seed_arg(text: str) -> int:
    """A seed as written on a command line: an integer, or a name (`seed_of`)."""
    try:
        return int(text)
    except ValueError:
        return seed_of(text)


def seeded_inputs(session, seed: int, recipe: dict | None = None) -> list[tuple[str, object]]:
    """(name, array) of every input of an onnxruntime session, in order.

    Floats are standard normal samples; integers are uniform over the range
    `recipe["int_ranges"]` gives the input (default [0, 2)); strings are
    drawn from `recipe["string_values"]`'s list for the input (default
    "a", "b"); a symbolic dim is `recipe["dim_values"]`'s value for its name,
    or for `<input>:<axis>` when the dim has no name (default 1). One
    generator seeded with `seed` draws them all in input order, so the same
    seed gives the same bytes.
    """
    import numpy as np

    recipe = recipe or {}
    ranges = recipe.get("int_ranges", {})
    dims = recipe.get("dim_values", {})
    rng = np.random.default_rng(seed)
    feeds = []
    for info in session.get_inputs():
        shape = [d if isinstance(d, int) else dims.get(d or f"{info.name}:{axis}", 1)
                 for axis, d in enumerate(info.shape)]
        if info.type not in ORT_TYPES:
            raise ValueError(f"input {info.name}: no generator for {info.type}")
        dtype = np.dtype(ORT_TYPES[info.type])
        if np.issubdtype(dtype, np.floating):
            value = rng.standard_normal(shape).astype(dtype)
        elif dtype == object:
            words = recipe.get("string_values", {}).get(info.name, ["a", "b"])
            value = np.array(words, dtype=object)[rng.integers(0, len(words), shape)]
        else:
            low, high = ranges.get(info.name, (0, 2))
            value = rng.integers(low, high, shape, dtype=dtype)
        feeds.append((info.name, value))
    return feeds
