//! The importer's and the exporter's error types.
//!
//! Every error says what is wrong and where: the file, the tensor, or the
//! node (its name or index, op type, domain and the opset it was resolved
//! in). Errors inside an inlined function body are wrapped with the call
//! site, so a message reads from the outermost context inwards.

use std::fmt;
use std::path::PathBuf;

use onnx_mlc_dialect::ir::OpRef;

/// Names a node of the model in a message:
/// `node "conv1" (op Conv, domain "", opset 17)`, or `node #3 (…)` for an
/// unnamed node (its index in its graph or function body).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRef {
    /// The node name (may be empty).
    pub name: String,
    /// Index of the node in its graph or function body.
    pub index: usize,
    /// The node's `op_type`.
    pub op_type: String,
    /// The node's domain as written (`""` for ai.onnx).
    pub domain: String,
    /// The opset version imported for the domain, if any.
    pub opset: Option<i64>,
}

impl fmt::Display for NodeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "node #{}", self.index)?;
        } else {
            write!(f, "node {:?}", self.name)?;
        }
        write!(f, " (op {}, domain {:?}", self.op_type, self.domain)?;
        if let Some(v) = self.opset {
            write!(f, ", opset {v}")?;
        }
        f.write_str(")")
    }
}

/// Everything that can go wrong while reading and importing a model.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A file could not be opened, mapped or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The bytes are not a valid protobuf message of the expected kind.
    #[error("{what}: malformed or truncated protobuf: {}", shorten(&source.to_string()))]
    Decode {
        /// The file (or `<memory>`) that was decoded.
        what: String,
        /// prost's description of the problem.
        source: prost::DecodeError,
    },
    /// A node cannot be imported.
    #[error("{node}: {message}")]
    Node {
        /// The node.
        node: Box<NodeRef>,
        /// What is wrong.
        message: String,
    },
    /// Something inside a node (an attribute, a tensor, a subgraph) is
    /// wrong; `source` says what.
    #[error("{node}: {source}")]
    InNode {
        /// The node.
        node: Box<NodeRef>,
        /// The error inside it.
        source: Box<ImportError>,
    },
    /// Something inside an attribute (a tensor, a subgraph) is wrong.
    #[error("attribute {attribute:?}: {source}")]
    InAttribute {
        /// The attribute's name.
        attribute: String,
        /// The error inside it.
        source: Box<ImportError>,
    },
    /// An error inside the body of a model-local function, at one call site.
    #[error("in function {function:?} called by {call}: {source}")]
    InFunction {
        /// `domain.name` (and `:overload` when there is one) of the function.
        function: String,
        /// The calling node.
        call: Box<NodeRef>,
        /// The error in the body.
        source: Box<ImportError>,
    },
    /// A tensor (initializer, attribute or test value) is malformed.
    #[error("tensor {tensor:?}: {message}")]
    Tensor {
        /// The tensor's name (may be empty).
        tensor: String,
        /// What is wrong.
        message: String,
    },
    /// A tensor's external data cannot be used.
    #[error("tensor {tensor:?}: external data {}: {message}", path.display())]
    ExternalData {
        /// The tensor's name.
        tensor: String,
        /// The data file (as given by `location`, or resolved).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A graph (main graph, subgraph or training graph) breaks a rule of
    /// the IR spec outside any single node.
    #[error("graph {graph:?}: {message}")]
    Graph {
        /// The graph's name.
        graph: String,
        /// What is wrong.
        message: String,
    },
    /// A model-level problem (opset imports, functions, types, values).
    #[error("{0}")]
    Model(String),
}

impl ImportError {
    /// A [`ImportError::Node`] error.
    pub(crate) fn node(node: &NodeRef, message: impl Into<String>) -> ImportError {
        ImportError::Node {
            node: Box::new(node.clone()),
            message: message.into(),
        }
    }

    /// A [`ImportError::Graph`] error.
    pub(crate) fn graph(graph: &str, message: impl Into<String>) -> ImportError {
        ImportError::Graph {
            graph: graph.to_string(),
            message: message.into(),
        }
    }

    /// A [`ImportError::Tensor`] error.
    pub(crate) fn tensor(tensor: &str, message: impl Into<String>) -> ImportError {
        ImportError::Tensor {
            tensor: tensor.to_string(),
            message: message.into(),
        }
    }

    /// Whether the error already names the node it happened in (then it
    /// needs no more context: the node is the most precise place).
    fn names_a_node(&self) -> bool {
        matches!(
            self,
            ImportError::Node { .. } | ImportError::InNode { .. } | ImportError::InFunction { .. }
        )
    }

    /// Wraps an error that happened inside `node`.
    pub(crate) fn in_node(self, node: &NodeRef) -> ImportError {
        if self.names_a_node() {
            return self;
        }
        ImportError::InNode {
            node: Box::new(node.clone()),
            source: Box::new(self),
        }
    }

    /// Wraps an error that happened inside attribute `attribute`.
    pub(crate) fn in_attr(self, attribute: &str) -> ImportError {
        if self.names_a_node() {
            return self;
        }
        ImportError::InAttribute {
            attribute: attribute.to_string(),
            source: Box::new(self),
        }
    }
}

/// prost's message lists every enclosing field (`GraphProto.node:
/// AttributeProto.g: …`); for deeply nested data keep the outermost and
/// innermost few.
fn shorten(message: &str) -> String {
    const KEEP: usize = 4;
    let parts: Vec<&str> = message.split(": ").collect();
    if parts.len() <= 2 * KEEP + 1 {
        return message.to_string();
    }
    let skipped = parts.len() - 2 * KEEP;
    format!(
        "{}: … {skipped} more fields …: {}",
        parts[..KEEP].join(": "),
        parts[parts.len() - KEEP..].join(": ")
    )
}

/// The crate's result type.
pub type Result<T, E = ImportError> = std::result::Result<T, E>;

/// Everything that can go wrong while exporting a model (see
/// [`export_model`](crate::export_model)): parts of the IR that a
/// `ModelProto` cannot express, and file errors of
/// [`save_model`](crate::save_model).
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// An op cannot be written as a node.
    #[error("{op}: {message}")]
    Op {
        /// The op, as messages name it: `node "conv1" (Conv-11)`.
        op: OpRef,
        /// What is wrong.
        message: String,
    },
    /// A graph's signature cannot be written (names that its inputs and
    /// outputs would have to share).
    #[error("graph {graph:?}: {message}")]
    Graph {
        /// The graph's name.
        graph: String,
        /// What is wrong.
        message: String,
    },
    /// An initializer (or input default) cannot be written.
    #[error("tensor {tensor:?}: {message}")]
    Tensor {
        /// The tensor's name.
        tensor: String,
        /// What is wrong.
        message: String,
    },
    /// The options ask for something impossible.
    #[error("{0}")]
    Options(String),
    /// A file could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The model is too large for one protobuf message.
    #[error("the model takes {size} bytes, more than protobuf's limit of 2 GiB: save it with external data")]
    TooLarge {
        /// The encoded size in bytes.
        size: usize,
    },
}
