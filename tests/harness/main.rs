//! onnx-mlc's test suites, one module each, in one test binary.

mod dialect;
mod export_round_trip;
mod import;
mod infer_backend;
mod op_variants;
mod opt;
mod optimizer;
