//! The pipeline's stages that need MLIR, tested in one binary (each test
//! binary linking MLIR and LLVM costs seconds to link): the file tests of
//! the lowering (`tests/lowering/`).

mod lowering;
