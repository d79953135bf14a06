//! Imports ONNX models into the onnx dialect, and exports them back.
//!
//! This is the compiler's front door: it reads a `.onnx` file (protobuf,
//! any size, with or without external data) and builds an
//! [`onnx_mlc_dialect::Model`], the IR every later stage works on. It only
//! imports: types come from the model's declarations, shape inference is a
//! separate pass of the dialect crate. It is also the way back out: the
//! exporter writes a model of the dialect as an ONNX model again, for
//! onnxruntime to run what the compiler made of a model.
//!
//! # API
//!
//! - [`load_model`]`(path, &options)` memory-maps the file, decodes the
//!   `ModelProto` zero-copy (initializers stay views of the mapping) and
//!   imports it; external data is resolved relative to the file's folder.
//! - [`import_model`]`(&proto, base_dir, &options)` imports a `ModelProto`
//!   already in memory (tests, generated models).
//! - [`read_value`]`(path, &type)` and [`decode_value`]`(bytes, &type)` read
//!   the backend test data's `.pb` files into a [`TestValue`].
//! - [`export_model`]`(&model, &options)` goes the other way, from the
//!   dialect back to a `ModelProto`, and [`save_model`]`(&model, path,
//!   &options)` writes it, optionally with large initializers as external
//!   data (see the `export` module for the mapping and what a round trip
//!   changes).
//!
//! Both import functions return [`Imported`]: the model and the
//! [`Warning`]s about what was accepted but not kept (or, with
//! [`ImportOptions::strict_names`], names that break the IR spec's C90
//! identifier rule). Everything the importer refuses is an [`ImportError`]
//! that names the file, tensor or node (name or index, op type, domain and
//! opset) and says what is wrong.
//!
//! # What the import does
//!
//! - Each graph (main graph, subgraph attribute, training graph) becomes a
//!   region; subgraphs see the values of the graphs around them. Nodes are
//!   imported in topological order (sorted when the file is not). Cycles,
//!   undefined inputs and names defined twice are errors.
//! - Each node resolves `(domain, op_type)` to an
//!   [`OpKind`](onnx_mlc_dialect::OpKind) and the schema version the
//!   imported opset selects. Nodes calling model-local functions are
//!   replaced by the function body (see the `function` module).
//! - Initializers become `Constant` ops at the start of their region, except
//!   those named like a graph input, which become that input's default —
//!   from IR version 4 on: before, every initializer had to be an input
//!   too, and such inputs are the constants they hold (when the model's
//!   `Constant` can hold them).
//!   `Constant` nodes with `value_float(s)`/`value_int(s)`/`value_string(s)`
//!   are normalized to a dense `value`.
//! - Tensors of every element type and storage field convert to
//!   [`TensorData`](onnx_mlc_dialect::TensorData) (see the `tensor` module);
//!   external data is mapped once per file and checked (see `external`).
//! - The model must be of a supported IR version (1 to 14) and import known
//!   opset versions; the main graph's inputs must have types; a graph lists
//!   each output once; an attribute holds one kind of value.
//! - Subgraph nesting is bounded ([`ImportOptions::max_subgraph_depth`]) and
//!   protobuf nesting by prost's recursion limit, so hostile files give an
//!   error, never a stack overflow. Shapes whose size overflows are errors
//!   before anything is allocated for them.

#![warn(missing_docs)]

mod error;
mod export;
mod external;
mod function;
mod importer;
mod opset;
mod order;
mod tensor;
mod types;
mod value;

use std::fmt;
use std::path::Path;

use onnx_mlc_dialect::Model;
use onnx_mlc_proto::{Message, ModelProto};

pub use error::{ExportError, ImportError, NodeRef, Result};
pub use export::{export_model, save_model, ExportOptions, ExternalData};
pub use value::{decode_value, encode_tensor, encode_value, read_value, MapKey, TestValue};

/// Options of an import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// Warn about value, node and graph names that are not C90 identifiers
    /// (the IR spec's rule, which exporters often break: `/layer1/Conv`,
    /// `onnx::Gemm_12`). Such names are accepted either way.
    pub strict_names: bool,
    /// How deeply subgraphs (and inlined function calls) may nest. Decoded
    /// files cannot nest much deeper than 32 anyway: prost stops at 100
    /// nested messages, and each level of subgraph takes three.
    pub max_subgraph_depth: usize,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            strict_names: false,
            max_subgraph_depth: 32,
        }
    }
}

/// Something the importer accepted but the user may want to know about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What and where.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// An imported model and the warnings of its import.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The model.
    pub model: Model,
    /// Warnings, in the order they arose.
    pub warnings: Vec<Warning>,
}

/// Loads and imports the model in file `path`. The file is memory-mapped;
/// initializers and external data stay views of their mapped files.
pub fn load_model(path: &Path, options: &ImportOptions) -> Result<Imported> {
    let bytes = external::map_file(path).map_err(|source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let proto = ModelProto::decode(bytes).map_err(|source| ImportError::Decode {
        what: path.display().to_string(),
        source,
    })?;
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    importer::import(&proto, Some(folder), options)
}

/// Imports a model already decoded. External data is resolved relative to
/// `base_dir`; without one, a tensor with external data is an error.
pub fn import_model(
    proto: &ModelProto,
    base_dir: Option<&Path>,
    options: &ImportOptions,
) -> Result<Imported> {
    importer::import(proto, base_dir, options)
}
