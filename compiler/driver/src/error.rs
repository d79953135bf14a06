//! The driver's error type: every stage's errors, and which of them mean
//! "not supported yet" rather than "this model is wrong".

use onnx_mlc_codegen::CodegenError;
use onnx_mlc_import::ImportError;
use onnx_mlc_lowering::LowerError;
use onnx_mlc_runtime::RuntimeError;

/// Why a model could not be compiled or run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Dialect(#[from] onnx_mlc_dialect::Error),
    #[error(transparent)]
    Optimize(#[from] onnx_mlc_optimizer::OptimizeError),
    #[error(transparent)]
    Plan(#[from] onnx_mlc_plan::Error),
    #[error(transparent)]
    Lower(#[from] LowerError),
    #[error(transparent)]
    Codegen(#[from] CodegenError),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error(transparent)]
    Program(#[from] onnx_mlc_program::ProgramError),
    /// A strict import ([`CompileOptions::strict`](crate::CompileOptions::strict))
    /// of a model the importer warns about.
    #[error("strict import: {}", warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>().join("; "))]
    Strict {
        warnings: Vec<onnx_mlc_import::Warning>,
    },
    /// A constant the compiled code needs cannot be supplied (a sparse
    /// initializer, say).
    #[error("weight {name}: {message}")]
    Weight { name: String, message: String },
    /// An output file (a library, a weights file) could not be written.
    #[error("cannot write {path}: {message}")]
    Output {
        path: std::path::PathBuf,
        message: String,
    },
    /// A compiled library could not be loaded or is not an onnx-mlc one.
    #[error("library {path}: {message}")]
    Library {
        path: std::path::PathBuf,
        message: String,
    },
    /// A size variant asked for ahead of time (`--specialize`) that cannot
    /// be made: a malformed binding, a dim the model does not have, a
    /// variant that does not compile into one function.
    #[error("size variant {binding}: {message}")]
    Specialize { binding: String, message: String },
    /// A compiled library's run failed: its `OMLC_ERR_*` code and message.
    #[error("{message} (code {code})")]
    Run { code: i32, message: String },
}

impl Error {
    /// True when the model is fine but uses something onnx-mlc cannot
    /// compile yet (an operator, a type): the CLI's exit code 3.
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            Error::Lower(LowerError::Unsupported { .. } | LowerError::UnsupportedType { .. })
                | Error::Runtime(RuntimeError::Unsupported(_))
                | Error::Program(_)
                | Error::Plan(onnx_mlc_plan::Error::Unplaceable { .. })
        )
    }
}

/// The driver's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
