"""Seeded inputs and onnxruntime reference outputs for a model, as raw files.

Usage: ort_seeded_reference.py MODEL.onnx OUT_DIR SEED [THREADS]

Writes OUT_DIR/manifest.txt, one line per tensor:
`input|output INDEX DTYPE DIM...` (DTYPE: f32, i64, ...), and the tensor's
little-endian bytes in OUT_DIR/input_INDEX.bin / output_INDEX.bin. Integer
inputs named like token ids are drawn from [0, 1000); attention masks are
ones; other integer inputs (token types) zeros; float inputs standard
normal. When THREADS is given, also times onnxruntime with that many
intra-op threads and prints `ort_ms MEDIAN`.
"""
import os
import sys
import time

import numpy as np
import onnxruntime as ort

DTYPES = {
    "tensor(float)": (np.float32, "f32"),
    "tensor(int64)": (np.int64, "i64"),
    "tensor(int32)": (np.int32, "i32"),
}


def main():
    model, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else None
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(seed)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    feeds = {}
    lines = []
    for i, inp in enumerate(sess.get_inputs()):
        dtype, tag = DTYPES[inp.type]
        shape = [d if isinstance(d, int) else 1 for d in inp.shape]
        if tag == "f32":
            x = rng.standard_normal(shape).astype(dtype)
        elif "mask" in inp.name:
            x = np.ones(shape, dtype)
        elif "ids" in inp.name and "type" not in inp.name:
            x = rng.integers(0, 1000, shape).astype(dtype)
        else:
            x = np.zeros(shape, dtype)
        feeds[inp.name] = x
        x.tofile(os.path.join(out, f"input_{i}.bin"))
        lines.append(" ".join(["input", str(i), tag] + [str(d) for d in x.shape]))
    outs = sess.run(None, feeds)
    for i, y in enumerate(outs):
        tag = {np.dtype(np.float32): "f32", np.dtype(np.int64): "i64"}[y.dtype]
        y.tofile(os.path.join(out, f"output_{i}.bin"))
        lines.append(" ".join(["output", str(i), tag] + [str(d) for d in y.shape]))
    with open(os.path.join(out, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if threads:
        sess.run(None, feeds)
        times = []
        for _ in range(10):
            t = time.perf_counter()
            sess.run(None, feeds)
            times.append((time.perf_counter() - t) * 1e3)
        print(f"ort_ms {sorted(times)[len(times) // 2]:.3f}")


if __name__ == "__main__":
    main()
