//! onnx-mlc's test suites, one module each, in one test binary.

mod dialect;
mod docs;
mod export_round_trip;
mod import;
mod infer_backend;
mod module_graph;
mod op_variants;
mod opt;
mod optimizer;
mod workspace;
