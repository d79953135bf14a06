"""onnxruntime sessions, configured for the two things the tools ask of it.

- A *reference* session computes the outputs our tests compare with: CPU
  provider, graph optimizations off, so the outputs are the graph as written
  and not onnxruntime's rewrites of it.
- A *timing* session is the competitor in the benchmarks: CPU provider, all
  graph optimizations (onnxruntime's default), `intra_op_num_threads` set to
  the thread count being measured, one inter-op thread, sequential execution.
"""
from __future__ import annotations

import pathlib

from . import models, report, seeded


def reference_session(model: pathlib.Path):
    """A session whose outputs are the reference (no graph optimizations)."""
    import onnxruntime as rt

    options = rt.SessionOptions()
    options.graph_optimization_level = rt.GraphOptimizationLevel.ORT_DISABLE_ALL
    return rt.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def write_reference(model: pathlib.Path, data: pathlib.Path, seed: int, recipe: dict) -> list:
    """Seeded inputs (`seeded.seeded_inputs`) and the reference outputs on them,
    written to the data set `data`; returns the (name, value) outputs (arrays,
    or lists of dicts for a classifier's ZipMap)."""
    import numpy as np

    session = reference_session(model)
    feeds = seeded.seeded_inputs(session, seed, recipe)
    values = session.run(None, dict(feeds))
    outputs = [(o.name, v if isinstance(v, list) else np.asarray(v))
               for o, v in zip(session.get_outputs(), values)]
    for name, value in outputs:
        if isinstance(value, np.ndarray) and value.dtype.kind == "f" and not np.isfinite(value).all():
            raise ValueError(f"{model}: output {name} is not finite")
    models.write_data_set(data, feeds, outputs)
    return outputs


def timing_session(model: pathlib.Path, threads: int):
    """A session to time at `threads` intra-op threads (default optimizations)."""
    import onnxruntime as rt

    options = rt.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = rt.ExecutionMode.ORT_SEQUENTIAL
    return rt.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def latency_ms(model: pathlib.Path, feeds: dict, threads: int, runs: int, warmup: int) -> float:
    """onnxruntime's median latency (ms) on `feeds` at `threads` threads."""
    session = timing_session(model, threads)
    return report.median_ms(lambda: session.run(None, feeds), runs, warmup)
