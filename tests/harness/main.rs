//! onnx-mlc's test suites, one module each, in one test binary.

mod backend_import;
mod dialect;
mod infer_backend;
mod optimizer;
