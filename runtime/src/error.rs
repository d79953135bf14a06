//! The runtime's error type.
//!
//! Input-validation messages are written exactly like the C runtime's
//! (`runtime/c/omlc_rt.c`), so a user sees the same text from the JIT and
//! from an AOT library.

use onnx_mlc_dialect::ElemType;

/// Everything that can go wrong building tensors, reading a model's
/// description, validating inputs or running a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    /// A typed view or conversion asked for the wrong element type.
    #[error("tensor has element type {got}, not {expected}")]
    ElemType {
        /// The element type asked for.
        expected: ElemType,
        /// The tensor's element type.
        got: ElemType,
    },
    /// The number of values does not match the shape.
    #[error("shape {shape:?} holds {expected} elements, got {got} values")]
    DataLength {
        /// The shape given.
        shape: Vec<i64>,
        /// Elements the shape holds.
        expected: usize,
        /// Values (or, for raw bytes, bytes) given.
        got: usize,
    },
    /// A negative dim, or a tensor too large for the address space.
    #[error("invalid tensor shape {0:?}")]
    Shape(Vec<i64>),
    /// A bool tensor holds a byte other than 0 or 1.
    #[error("bool tensor holds the byte {0}, not 0 or 1")]
    InvalidBool(u8),
    /// Something the runtime does not handle yet (string tensors, …).
    #[error("{0} not supported by the runtime yet")]
    Unsupported(String),
    /// Constant data whose values were left out of a printed IR.
    #[error("tensor data of type {0} is elided and cannot be executed")]
    Elided(ElemType),
    /// Memory exhausted.
    #[error("out of memory allocating {0} bytes")]
    Alloc(usize),

    /// A model was given the wrong number of inputs.
    #[error("expected {expected} inputs, got {got}")]
    InputCount {
        /// The model's input count.
        expected: usize,
        /// Inputs given.
        got: usize,
    },
    /// An input given by a name the model does not have.
    #[error("no input named \"{name}\" (inputs: {known})")]
    UnknownInput {
        /// The name given.
        name: String,
        /// The model's input names, quoted and comma-separated.
        known: String,
    },
    /// An input given twice by name.
    #[error("input \"{0}\" given twice")]
    DuplicateInput(String),
    /// An input not given by name.
    #[error("input \"{0}\" missing")]
    MissingInput(String),
    /// An input of the wrong element type.
    #[error("input \"{input}\": expected element type {expected}, got {got}")]
    InputElem {
        /// The input's name.
        input: String,
        /// The model's element type.
        expected: ElemType,
        /// The tensor's.
        got: ElemType,
    },
    /// An input of the wrong rank.
    #[error("input \"{input}\": expected rank {expected}, got {got}")]
    InputRank {
        /// The input's name.
        input: String,
        /// The model's rank.
        expected: usize,
        /// The tensor's.
        got: usize,
    },
    /// An input whose static dim differs from the model's.
    #[error("input \"{input}\": dim {axis} must be {expected}, got {got}")]
    InputDim {
        /// The input's name.
        input: String,
        /// The axis.
        axis: usize,
        /// The model's size.
        expected: i64,
        /// The tensor's.
        got: i64,
    },
    /// A `dim_param` that two input dims give different sizes.
    #[error(
        "input \"{input}\": dim {axis} (\"{param}\") is {got}, \
         but input \"{bound_by}\" dim {bound_axis} bound \"{param}\" to {bound}"
    )]
    DimParam {
        /// The input with the conflicting size.
        input: String,
        /// Its axis.
        axis: usize,
        /// The `dim_param` name.
        param: String,
        /// The conflicting size.
        got: i64,
        /// The input that bound the name first.
        bound_by: String,
        /// Its axis.
        bound_axis: usize,
        /// The size bound first.
        bound: i64,
    },

    /// An `omlc_model_info` that breaks the ABI (a code generator bug).
    #[error("invalid model info: {0}")]
    ModelInfo(String),
    /// A session was given the wrong number of weights.
    #[error("the model has {expected} weights, got {got}")]
    WeightCount {
        /// The model's weight count.
        expected: usize,
        /// Weights given.
        got: usize,
    },
    /// The thread pool could not start.
    #[error("cannot start the thread pool: {0}")]
    ThreadPool(String),
    /// `__omlc_main` returned a nonzero code.
    #[error("model failed: {name} ({code}): {meaning}")]
    Model {
        /// The code returned.
        code: i32,
        /// Its `OMLC_ERR_*` name.
        name: &'static str,
        /// What it means.
        meaning: &'static str,
    },
    /// A host operator of a host program failed at run time (a position
    /// out of range, shapes that do not fit): the `OMLC_ERR_*` code the C
    /// runtime gives the same failure, and why.
    #[error("{op}: {message} ({})", code_name(.code))]
    Host {
        /// The operator, as `node "n" (SequenceAt-11)`.
        op: String,
        /// Its `OMLC_ERR_*` code.
        code: i32,
        /// What went wrong.
        message: String,
    },
    /// The model broke its contract for an output (a code generator bug).
    #[error("output \"{output}\": {message}")]
    Output {
        /// The output's name.
        output: String,
        /// What was wrong.
        message: String,
    },
}

/// The `OMLC_ERR_*` name of a code, for messages.
fn code_name(code: &i32) -> &'static str {
    crate::abi::error_code_info(*code).0
}

/// The runtime's result type.
pub type Result<T, E = RuntimeError> = std::result::Result<T, E>;
