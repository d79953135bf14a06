//! The importer's tests: each rule with a case that imports and a case
//! that fails with the expected message. Models are built in Rust (see
//! `build`), except the fixtures written by the `onnx` package in `data/`.

mod build;
mod export;
mod function;
mod hostile;
mod model;
mod tensor;
mod value;
