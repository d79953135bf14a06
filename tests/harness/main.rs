//! onnx-mlc's test suites, one module each, in one test binary.

mod dialect;
