//! onnx-mlc's test suites, one module each, in one test binary.

mod backend_import;
mod dialect;
mod export_round_trip;
mod hostile_import;
mod infer_backend;
mod models;
mod op_variants;
mod optimizer;
mod workspace;
