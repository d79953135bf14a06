//! The importer (the stage before `onnx`), in one place: each rule with a
//! case that imports and a case that fails with the expected message
//! (models built in Rust, see `build`, or written by the `onnx` package
//! into `tests/import/`), the hostile files of `tests/hostile/` (`corpus`),
//! and every model and test value of the ONNX backend data (`backend`).

pub(crate) mod backend;
mod build;
mod corpus;
mod export;
mod function;
mod hostile;
mod model;
mod tensor;
mod value;
