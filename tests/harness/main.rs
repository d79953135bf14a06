//! onnx-mlc's test suites, one module each, in one test binary.

mod backend_import;
mod dialect;
mod docs;
mod export_round_trip;
mod hostile_import;
mod infer_backend;
mod models;
mod module_graph;
mod op_variants;
mod optimizer;
