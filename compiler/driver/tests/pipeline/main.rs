//! The stages that need MLIR and LLVM, tested in one binary (each test
//! binary linking them costs seconds to link): the file tests of the
//! lowering (`tests/lowering/`, in `lowering`) and the models through
//! every stage (`models`).

mod lowering;
mod models;
