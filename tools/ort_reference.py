"""onnxruntime as the reference for onnx-mlc's model tests and benchmarks.

usage: ort_reference.py MODEL INPUT.bin OUTPUT.bin [RUNS]

Runs MODEL (one float32 input, shape from the model) on 1 thread with all
graph optimizations, on the raw little-endian float32 values of INPUT.bin;
writes the first output as raw float32 to OUTPUT.bin and prints the median
latency in milliseconds over RUNS timed runs (after one warm-up run).
"""
import statistics
import sys
import time

import numpy as np
import onnxruntime as ort


def main():
    model, inp, out = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    first = session.get_inputs()[0]
    x = np.fromfile(inp, dtype=np.float32).reshape(first.shape)
    feed = {first.name: x}
    y = session.run(None, feed)[0]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        session.run(None, feed)
        times.append((time.perf_counter() - t) * 1e3)
    np.asarray(y, dtype=np.float32).tofile(out)
    print(f"{statistics.median(times):.3f}")


if __name__ == "__main__":
    main()
