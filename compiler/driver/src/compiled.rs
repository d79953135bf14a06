//! The result of a JIT compilation: a [`CompiledModel`], one compiled
//! function or a host program over compiled segments, run from any number
//! of threads.

use onnx_mlc_runtime::program::Program;
use onnx_mlc_runtime::{
    into_tensors, HostProgram, ModelSignature, RuntimeError, Session, Tensor, Value,
};

use crate::error::Result;

/// A compiled model, ready to run from any number of threads: one
/// compiled function, or a host program (`onnx_mlc_program`) whose
/// compiled segments run between host steps.
pub struct CompiledModel {
    pub(crate) compiled: Compiled,
}

/// The two forms of a [`CompiledModel`].
pub(crate) enum Compiled {
    /// The whole model is one compiled function.
    Single(Session),
    /// Compiled segments, host operators and control flow.
    Program(HostProgram),
}

impl CompiledModel {
    /// The model's inputs and outputs, when it is one compiled function
    /// over dense tensors; `None` for a host program, whose inputs and
    /// outputs may be sequences, optionals or strings.
    pub fn signature(&self) -> Option<&ModelSignature> {
        match &self.compiled {
            Compiled::Single(s) => Some(s.signature()),
            Compiled::Program(_) => None,
        }
    }

    /// The names of the model's outputs, in graph order.
    pub fn output_names(&self) -> Vec<&str> {
        match &self.compiled {
            Compiled::Single(s) => s.signature().output_names(),
            Compiled::Program(p) => p.output_names(),
        }
    }

    /// The host program, when the model runs as one.
    pub fn program(&self) -> Option<&Program> {
        match &self.compiled {
            Compiled::Single(_) => None,
            Compiled::Program(p) => Some(p.program()),
        }
    }

    /// Runs the model on tensor inputs in graph order; validates their
    /// dtypes and shapes first. A host program whose inputs or outputs are
    /// not all dense tensors needs [`CompiledModel::run_values`].
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        match &self.compiled {
            Compiled::Single(s) => Ok(s.run(inputs)?),
            Compiled::Program(p) => Ok(p.run_tensors(inputs)?),
        }
    }

    /// Runs the model on values of any kind (tensors, string tensors,
    /// sequences, optionals) in graph order.
    pub fn run_values(&self, inputs: Vec<Value>) -> Result<Vec<Value>> {
        match &self.compiled {
            Compiled::Program(p) => Ok(p.run(inputs)?),
            Compiled::Single(s) => {
                let tensors = into_tensors(inputs, "inputs of a model of tensors")?;
                Ok(s.run(&tensors)?.into_iter().map(Value::Tensor).collect())
            }
        }
    }

    /// Runs the model on inputs given by name (each exactly once); returns
    /// the outputs in graph order.
    pub fn run_named(&self, inputs: &[(&str, &Tensor)]) -> Result<Vec<Tensor>> {
        match &self.compiled {
            Compiled::Single(s) => Ok(s.run_named(inputs)?),
            Compiled::Program(_) => Err(RuntimeError::Unsupported(
                "inputs given by name to a host program are".into(),
            )
            .into()),
        }
    }
}
