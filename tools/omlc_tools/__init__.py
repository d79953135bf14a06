"""What the scripts of tools/ share, written once.

- `models`: where the models and their data sets live, reading and writing
  `test_data_set_0` directories;
- `seeded`: the seed a name gives and the seeded inputs of every reference;
- `ort`: onnxruntime sessions with the options each use needs, and timing;
- `compiler`: running the `onnx-mlc` binary (`bench`, `run`, the optimizer's report);
- `report`: medians, Markdown tables and the machine-load lines benchmarks print.

The scripts run as `tools/<script>.py`, so `tools/` is on the import path and
`from omlc_tools import models` works from any of them. numpy, onnx and
onnxruntime are imported where used: `seeded.seed_of` needs none of them.
"""
