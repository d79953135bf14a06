//! The result of a JIT compilation: a [`CompiledModel`], one compiled
//! function or a host program over compiled segments, run from any number
//! of threads, with the size variants a model with dynamic axes compiles
//! on first use (`crate::variants`).

use std::sync::{Arc, OnceLock};

use onnx_mlc_runtime::program::Program;
use onnx_mlc_runtime::{
    into_tensors, HostProgram, ModelSignature, RuntimeError, Session, Tensor, Value,
};

use crate::error::Result;
use crate::variants::Variants;

/// A compiled model, ready to run from any number of threads: one
/// compiled function, or a host program (`onnx_mlc_program`) whose
/// compiled segments run between host steps. A model whose inputs have
/// sizes only the run time knows also compiles in the background, from
/// the first run at new sizes, code for exactly those sizes
/// ([`crate::CompileOptions::max_variants`]).
pub struct CompiledModel {
    /// The general code: every size the model accepts.
    pub(crate) compiled: Compiled,
    pub(crate) variants: Option<Box<Variants<Compiled>>>,
}

/// The two forms of compiled code.
pub(crate) enum Compiled {
    /// The whole model is one compiled function.
    Single(Session),
    /// Compiled segments, host operators and control flow.
    Program(HostProgram),
}

impl Compiled {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        match self {
            Compiled::Single(s) => Ok(s.run(inputs)?),
            Compiled::Program(p) => Ok(p.run_tensors(inputs)?),
        }
    }

    fn run_refs(&self, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        match self {
            Compiled::Single(s) => Ok(s.run_refs(inputs)?),
            // A size variant may be a host program where the general code
            // is not; it runs on owned tensors.
            Compiled::Program(p) => {
                let owned: Vec<Tensor> = inputs.iter().map(|&t| t.clone()).collect();
                Ok(p.run_tensors(&owned)?)
            }
        }
    }

    fn run_values(&self, inputs: Vec<Value>) -> Result<Vec<Value>> {
        match self {
            Compiled::Program(p) => Ok(p.run(inputs)?),
            Compiled::Single(s) => {
                let tensors = into_tensors(inputs, "inputs of a model of tensors")?;
                Ok(s.run(&tensors)?.into_iter().map(Value::Tensor).collect())
            }
        }
    }
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

    /// The sizes the model has size variants ready for, in the order they
    /// were first run: each lists the sizes of the inputs' dims that are
    /// not known at compile time, input by input, axis by axis.
    pub fn variant_sizes(&self) -> Vec<Vec<i64>> {
        self.variants.as_ref().map_or_else(Vec::new, |v| v.sizes())
    }

    /// Waits until the size variants whose compiles have started are
    /// ready (or have failed): the runs after it at their sizes take them.
    /// (Runs never wait for a variant: until it is ready, the general code
    /// runs them.)
    pub fn wait_for_variants(&self) {
        if let Some(v) = &self.variants {
            v.wait();
        }
    }

    /// The variant for inputs of these shapes, when it is ready (its
    /// first run starts its compile); `None`: the general code runs them.
    fn variant<'s>(
        &self,
        shape: impl Fn(usize) -> Option<&'s [i64]>,
    ) -> Option<Arc<OnceLock<Option<Compiled>>>> {
        self.variants.as_ref()?.code(shape)
    }

    /// The code to run: `variant`'s, else the general code.
    fn code<'m>(&'m self, variant: &'m Option<Arc<OnceLock<Option<Compiled>>>>) -> &'m Compiled {
        variant
            .as_ref()
            .and_then(|code| code.get()?.as_ref())
            .unwrap_or(&self.compiled)
    }

    /// Runs the model on tensor inputs in graph order; validates their
    /// dtypes and shapes first. A host program whose inputs or outputs are
    /// not all dense tensors needs [`CompiledModel::run_values`].
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        let variant = self.variant(|k| Some(inputs.get(k)?.shape()));
        self.code(&variant).run(inputs)
    }

    /// Runs the model on values of any kind (tensors, string tensors,
    /// sequences, optionals) in graph order.
    pub fn run_values(&self, inputs: Vec<Value>) -> Result<Vec<Value>> {
        let variant = self.variant(|k| match inputs.get(k)? {
            Value::Tensor(t) => Some(t.shape()),
            _ => None,
        });
        self.code(&variant).run_values(inputs)
    }

    /// Runs the model on inputs given by name (each exactly once); returns
    /// the outputs in graph order.
    pub fn run_named(&self, inputs: &[(&str, &Tensor)]) -> Result<Vec<Tensor>> {
        match &self.compiled {
            Compiled::Single(s) => {
                let ordered = s.signature().order_named(inputs)?;
                let variant = self.variant(|k| Some(ordered.get(k)?.shape()));
                self.code(&variant).run_refs(&ordered)
            }
            Compiled::Program(_) => Err(RuntimeError::Unsupported(
                "inputs given by name to a host program are".into(),
            )
            .into()),
        }
    }
}
