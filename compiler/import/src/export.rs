//! [`Model`] to `ModelProto`: the inverse of the importer.
//!
//! The exporter writes the onnx dialect back as an ONNX model, so that
//! other tools can run what the compiler made of a model: onnxruntime
//! checks the optimizer differentially (original against exported
//! optimized model), `onnx-mlc --emit onnx-proto` hands the result to
//! users, and import → export → import round trips test the importer.
//!
//! # Mapping
//!
//! - A region becomes a graph: arguments are inputs (an argument's default
//!   is an initializer of the same name), ops are nodes in region order,
//!   outputs keep their names. Subgraph attributes are exported
//!   recursively; a subgraph refers to outer values by name.
//! - The `Constant` ops at the top of a region become initializers (or
//!   sparse initializers) when importing those gives the same op back: the
//!   op is unnamed and undocumented, its result is named, typed as its
//!   tensor and its one attribute is `value` or `sparse_value`, its version
//!   is the one the importer gives initializers, and the model's IR version
//!   (4 or later) allows initializers that are not inputs. Other
//!   `Constant`s stay nodes.
//! - An op's kind gives `op_type` and `domain` (spelled as the model's
//!   opset import spells it; a domain the model does not import is imported
//!   at its newest opset). ONNX has no per-node versions: an op whose
//!   version is not the one the model's opset import resolves it to is an
//!   error, and so is an op that uses a value not defined before it in its
//!   graph or a graph around it.
//! - Values keep their names where the IR spec's scoping allows it: a node
//!   output may not reuse a name visible in its graph or the graphs around
//!   it; inputs and initializers of a subgraph may shadow outer names, but
//!   not the outer names their subgraph refers to. A value without a name,
//!   or whose name is not allowed where it is defined, gets a fresh name
//!   that no value or output of the model has. Main-graph inputs keep
//!   their names (they are the model's interface) or the export fails.
//! - Outputs are named by [`Output::name`](onnx_mlc_dialect::ir::Output).
//!   An unnamed value computed in the graph takes the name of its first
//!   output. When the value behind an output has another name, is defined
//!   outside the graph, or is already another output, an `Identity` node
//!   computes the output. A subgraph output whose name an enclosing graph
//!   already uses is renamed (subgraph outputs are positional).
//! - Every node output of known type (or with a doc string) is listed in
//!   `value_info` ([`ExportOptions::value_info`]).
//! - Types map one to one; a symbolic dim that is a single name is that
//!   `dim_param`, a polynomial becomes a `dim_param` spelled like the text
//!   form without quotes (`batch*seq`, `2*seq+1`).
//! - Tensors use `raw_data` (the dialect's own layout), strings
//!   `string_data`; a tensor whose data was elided from a printed IR is an
//!   error. Doc strings and metadata of nodes, values, graphs and the model
//!   go back where the importer found them.
//!
//! # What a round trip changes
//!
//! Importing an exported model gives the model back, printed identically,
//! except where the export had to make names or imports: `Identity` nodes
//! for the outputs described above, fresh names for unnamed or clashing
//! values, polynomial dims that come back as single names, and opset
//! imports for the domains the model used without importing them. Sparse
//! initializers come back after the dense ones.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Component, Path};

use bytes::Bytes;
use onnx_mlc_dialect::attr::SparseTensorData;
use onnx_mlc_dialect::ir::{Meta, OpsetImport, RegionParent, ValueDef};
use onnx_mlc_dialect::tensor::Payload;
use onnx_mlc_dialect::{
    Attr, Dim, Domain, Ir, Model, OpId, OpKind, RegionId, TensorData, TensorType, Type, Value,
};
use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::tensor_proto::DataLocation;
use onnx_mlc_proto::tensor_shape_proto::{dimension, Dimension};
use onnx_mlc_proto::type_proto::{self, Value as TypeValue};
use onnx_mlc_proto::{
    AttributeProto, GraphProto, Message, ModelProto, NodeProto, OperatorSetIdProto,
    SparseTensorProto, StringStringEntryProto, TensorProto, TensorShapeProto, TrainingInfoProto,
    TypeProto, ValueInfoProto,
};

use crate::error::ExportError;
use crate::importer::constant_schema;

/// The exporter's result type.
type Result<T, E = ExportError> = std::result::Result<T, E>;

/// Options of an export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Write `value_info` (type, doc string and metadata) for the node
    /// outputs that have any. Without it, consumers re-infer the types.
    pub value_info: bool,
    /// Write large initializers to a data file next to the model (the IR
    /// spec's external data). Only [`save_model`] writes files:
    /// [`export_model`] always keeps the data inside the `ModelProto`.
    pub external_data: Option<ExternalData>,
}

impl Default for ExportOptions {
    /// Value info on, no external data.
    fn default() -> ExportOptions {
        ExportOptions {
            value_info: true,
            external_data: None,
        }
    }
}

/// Where and from which size [`save_model`] writes initializer data
/// outside the model file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalData {
    /// The data file, relative to the model's folder (it becomes each
    /// tensor's `location`): no absolute path, no `..`.
    pub location: String,
    /// Initializers (and input defaults) of at least this many bytes go to
    /// the data file; smaller ones stay inline.
    pub min_bytes: usize,
}

impl ExternalData {
    /// The data file `<model file name>.data` beside the model, for
    /// initializers of 1 KiB or more (the `onnx` package's default).
    pub fn beside(model_path: &Path) -> ExternalData {
        let file = model_path
            .file_name()
            .map_or("model.onnx".into(), |n| n.to_string_lossy());
        ExternalData {
            location: format!("{file}.data"),
            min_bytes: 1024,
        }
    }
}

/// Tensors in the data file start at multiples of this many bytes, so that
/// a mapped file gives aligned weights.
const EXTERNAL_ALIGNMENT: u64 = 64;

/// Protobuf messages larger than 2 GiB cannot be decoded.
const MAX_PROTO_BYTES: usize = i32::MAX as usize;

/// Exports a model as a `ModelProto` (all tensor data inline; see
/// [`save_model`] for external data).
pub fn export_model(model: &Model, options: &ExportOptions) -> Result<ModelProto> {
    let mut ex = Exporter::new(model, options);
    let (graph, main_scope) = ex.graph(model.graph)?;
    let mut training_info = Vec::with_capacity(model.training_info.len());
    for t in &model.training_info {
        let initialization = t
            .initialization
            .map(|r| ex.graph(r).map(|(g, _)| g))
            .transpose()?;
        // The algorithm runs as if appended to the main graph: it refers
        // to the main graph's values by name.
        ex.scopes.push(Scope {
            region: model.graph,
            names: main_scope.clone(),
        });
        let algorithm = ex.graph(t.algorithm);
        ex.scopes.pop();
        training_info.push(TrainingInfoProto {
            initialization,
            algorithm: Some(algorithm?.0),
            initialization_binding: entries(&t.initialization_binding),
            update_binding: entries(&t.update_binding),
        });
    }
    Ok(ModelProto {
        ir_version: model.ir_version,
        opset_import: ex
            .opset_imports
            .iter()
            .map(|o| OperatorSetIdProto {
                domain: o.domain.clone(),
                version: o.version,
            })
            .collect(),
        producer_name: model.producer_name.clone(),
        producer_version: model.producer_version.clone(),
        domain: model.domain.clone(),
        model_version: model.model_version,
        doc_string: model.doc_string.clone(),
        graph: Some(graph),
        metadata_props: entries(&model.metadata_props),
        training_info,
        functions: vec![],
        configuration: vec![],
    })
}

/// Exports a model and writes it to `path` (binary protobuf), with the
/// data of large initializers in a separate file when
/// [`ExportOptions::external_data`] says so.
pub fn save_model(model: &Model, path: &Path, options: &ExportOptions) -> Result<()> {
    let mut proto = export_model(model, options)?;
    if let Some(external) = &options.external_data {
        write_external_data(&mut proto, path, external)?;
    }
    let size = proto.encoded_len();
    if size > MAX_PROTO_BYTES {
        return Err(ExportError::TooLarge { size });
    }
    std::fs::write(path, proto.encode_to_vec()).map_err(|source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Moves the data of the initializers of at least `external.min_bytes`
/// bytes, in every graph, to the file `external.location` beside the model
/// file `model_path`.
fn write_external_data(
    proto: &mut ModelProto,
    model_path: &Path,
    external: &ExternalData,
) -> Result<()> {
    let location = Path::new(&external.location);
    let folder = model_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let path = folder.join(location);
    let bad = if external.location.is_empty()
        || !location
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        Some("must be a relative path inside the model's folder")
    } else if model_path
        .file_name()
        .is_some_and(|f| path == folder.join(f))
    {
        Some("is the model file itself")
    } else {
        None
    };
    if let Some(bad) = bad {
        return Err(ExportError::Options(format!(
            "external data location {:?} {bad}",
            external.location
        )));
    }
    let mut tensors: Vec<&mut TensorProto> = vec![];
    let graphs = proto.graph.iter_mut().chain(
        proto
            .training_info
            .iter_mut()
            .flat_map(|t| t.initialization.iter_mut().chain(&mut t.algorithm)),
    );
    for g in graphs {
        collect_initializers(g, &mut tensors);
    }
    tensors.retain(|t| !t.raw_data.is_empty() && t.raw_data.len() >= external.min_bytes);
    if tensors.is_empty() {
        return Ok(());
    }
    let io = |source| ExportError::Io {
        path: path.clone(),
        source,
    };
    let mut file = BufWriter::new(File::create(&path).map_err(io)?);
    let mut offset = 0u64;
    for t in tensors {
        let padding = offset.next_multiple_of(EXTERNAL_ALIGNMENT) - offset;
        file.write_all(&[0; EXTERNAL_ALIGNMENT as usize][..padding as usize])
            .map_err(io)?;
        offset += padding;
        let data = std::mem::take(&mut t.raw_data);
        file.write_all(&data).map_err(io)?;
        t.data_location = DataLocation::External as i32;
        t.external_data = entries(&[
            ("location".into(), external.location.clone()),
            ("offset".into(), offset.to_string()),
            ("length".into(), data.len().to_string()),
        ]);
        offset += data.len() as u64;
    }
    file.flush().map_err(io)
}

/// The initializers of `g` and of its subgraphs.
fn collect_initializers<'g>(g: &'g mut GraphProto, out: &mut Vec<&'g mut TensorProto>) {
    out.extend(g.initializer.iter_mut());
    for attr in g.node.iter_mut().flat_map(|n| &mut n.attribute) {
        for sub in attr.g.iter_mut().chain(&mut attr.graphs) {
            collect_initializers(sub, out);
        }
    }
}

fn entries(pairs: &[(String, String)]) -> Vec<StringStringEntryProto> {
    pairs
        .iter()
        .map(|(key, value)| StringStringEntryProto {
            key: key.clone(),
            value: value.clone(),
        })
        .collect()
}

/// The doc string and metadata of `meta`, empty when there is none.
fn doc(meta: Option<&Meta>) -> (String, Vec<StringStringEntryProto>) {
    meta.map_or_else(Default::default, |m| {
        (m.doc_string.clone(), entries(&m.metadata_props))
    })
}

/// A value's `ValueInfoProto`; its doc string and metadata only when
/// `with_meta`.
fn value_info_proto(ir: &Ir, v: Value, name: &str, with_meta: bool) -> ValueInfoProto {
    let meta = with_meta.then(|| ir.value(v).meta.as_deref()).flatten();
    let (doc_string, metadata_props) = doc(meta);
    ValueInfoProto {
        name: name.to_string(),
        r#type: type_proto(ir.ty(v)),
        doc_string,
        metadata_props,
    }
}

/// A type as a `TypeProto`; `None` for [`Type::Unknown`].
fn type_proto(ty: &Type) -> Option<TypeProto> {
    let boxed = |t: &Type| type_proto(t).map(Box::new);
    let value = match ty {
        Type::Tensor(t) => TypeValue::TensorType(type_proto::Tensor {
            elem_type: t.elem.onnx_code(),
            shape: shape_proto(t),
        }),
        Type::SparseTensor(t) => TypeValue::SparseTensorType(type_proto::SparseTensor {
            elem_type: t.elem.onnx_code(),
            shape: shape_proto(t),
        }),
        Type::Sequence(t) => TypeValue::SequenceType(Box::new(type_proto::Sequence {
            elem_type: boxed(t),
        })),
        Type::Map(key, t) => TypeValue::MapType(Box::new(type_proto::Map {
            key_type: key.onnx_code(),
            value_type: boxed(t),
        })),
        Type::Optional(t) => TypeValue::OptionalType(Box::new(type_proto::Optional {
            elem_type: boxed(t),
        })),
        Type::Unknown => return None,
    };
    Some(TypeProto {
        value: Some(value),
        denotation: String::new(),
    })
}

fn shape_proto(t: &TensorType) -> Option<TensorShapeProto> {
    let dims = t.dims()?;
    Some(TensorShapeProto {
        dim: dims
            .iter()
            .map(|d| Dimension {
                value: match d {
                    Dim::Known(n) => Some(dimension::Value::DimValue(*n)),
                    Dim::Sym(_) => Some(dimension::Value::DimParam(dim_param(d))),
                    Dim::Unknown => None,
                },
                denotation: String::new(),
            })
            .collect(),
    })
}

/// The `dim_param` of a symbolic dim: its name when it is a single name,
/// else the polynomial as the text form prints it, without the quotes
/// around names and the parentheses around the whole (`("batch"*"seq")`
/// becomes `batch*seq`). Equal polynomials get equal names, so dims that
/// inference proved equal stay equal for the consumer.
fn dim_param(d: &Dim) -> String {
    if let Some(name) = d.as_param() {
        return name.to_string();
    }
    let text = d.to_string();
    let text = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(&text);
    // Undo `write_quoted`: `"` delimits names, inside which `\"`, `\\`
    // and `\xx` (two hex digits) are escapes.
    let mut out = Vec::with_capacity(text.len());
    let mut quoted = false;
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'"' => quoted = !quoted,
            b'\\' if quoted => match bytes.next() {
                Some(hi) if hi.is_ascii_hexdigit() => {
                    let lo = bytes.next().unwrap_or(b'0');
                    let hex = [hi, lo];
                    let digits = std::str::from_utf8(&hex).unwrap_or("00");
                    out.push(u8::from_str_radix(digits, 16).unwrap_or(0));
                }
                Some(escaped) => out.push(escaped),
                None => {}
            },
            b => out.push(b),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A tensor as a `TensorProto` named `name`; the message says why not.
pub(crate) fn tensor_proto(t: &TensorData, name: &str) -> Result<TensorProto, String> {
    let mut proto = TensorProto {
        name: name.to_string(),
        dims: t.dims.clone(),
        data_type: t.elem.onnx_code(),
        ..TensorProto::default()
    };
    match &t.payload {
        Payload::Raw(bytes) => proto.raw_data = bytes.clone(),
        Payload::Strings(strings) => {
            proto.string_data = strings.iter().map(|s| Bytes::from(s.clone())).collect()
        }
        Payload::Elided => {
            let ty = Type::Tensor(t.ty());
            return Err(format!(
                "the data of this {ty} was elided from a printed IR: there is nothing to export"
            ));
        }
    }
    Ok(proto)
}

/// A sparse tensor as a `SparseTensorProto` whose values are named `name`.
fn sparse_proto(s: &SparseTensorData, name: &str) -> Result<SparseTensorProto, String> {
    Ok(SparseTensorProto {
        values: Some(tensor_proto(&s.values, name)?),
        indices: Some(tensor_proto(&s.indices, "")?),
        dims: s.dims.clone(),
    })
}

/// A [`ExportError::Graph`] about `region`.
fn graph_error(ir: &Ir, region: RegionId, message: String) -> ExportError {
    ExportError::Graph {
        graph: ir.region(region).name.clone(),
        message,
    }
}

/// How a value defined in a graph may take its name.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Claim {
    /// A main-graph (or training graph) input: the name is part of the
    /// model's interface; it must be free in its graph.
    Interface,
    /// A subgraph input or any initializer: may shadow outer names, but not
    /// the outer names its graph refers to.
    Shadowing,
    /// A node output: must not be visible in its graph or around it.
    NodeOutput,
}

/// What the naming of one graph's values must respect.
#[derive(Default)]
struct GraphNames {
    /// The graph's output names and the value behind each: no other value
    /// defined in the graph may take such a name.
    reserved: HashMap<String, Value>,
    /// Names of the outer values the graph (or a subgraph in it) uses.
    free: HashSet<String>,
    /// Output names given to unnamed values computed in the graph.
    preferred: HashMap<Value, String>,
}

/// Walks a model and builds its `ModelProto`; owns the names it gives
/// values and the opset imports it adds.
struct Exporter<'m> {
    model: &'m Model,
    ir: &'m Ir,
    options: &'m ExportOptions,
    /// The model's opset imports, plus those of the domains of ops (or
    /// `Identity` nodes) it does not import.
    opset_imports: Vec<OpsetImport>,
    /// The exported name of each value (by index), once defined.
    names: Vec<Option<String>>,
    /// Every name of a value or output in the model and every name made:
    /// fresh names avoid them all, so they clash with nothing anywhere.
    taken: HashSet<String>,
    fresh_count: usize,
    /// The graphs being exported, outermost first.
    scopes: Vec<Scope>,
}

/// A graph being exported and the names defined in it so far.
struct Scope {
    region: RegionId,
    names: HashSet<String>,
}

impl<'m> Exporter<'m> {
    fn new(model: &'m Model, options: &'m ExportOptions) -> Exporter<'m> {
        let ir = &model.ir;
        let mut taken: HashSet<String> = (0..ir.num_values())
            .filter_map(|i| ir.value(Value::from_index(i)).name.clone())
            .collect();
        for r in 0..ir.num_regions() {
            let outputs = &ir.region(RegionId::from_index(r)).outputs;
            taken.extend(outputs.iter().map(|o| o.name.clone()));
        }
        Exporter {
            model,
            ir,
            options,
            opset_imports: model.opset_imports.clone(),
            names: vec![None; ir.num_values()],
            taken,
            fresh_count: 0,
            scopes: vec![],
        }
    }

    /// The opset version the model imports for `domain` (ai.onnx 1 is
    /// implied before IR version 3).
    fn opset(&self, domain: Domain) -> Option<i64> {
        let implied = self.model.ir_version < 3 && self.opset_imports.is_empty();
        self.opset_imports
            .iter()
            .find(|o| Domain::from_name(&o.domain) == Some(domain))
            .map(|o| o.version)
            .or((implied && domain == Domain::Onnx).then_some(1))
    }

    /// A node's `domain`: as the model's opset import spells it.
    fn domain_name(&self, domain: Domain) -> String {
        self.opset_imports
            .iter()
            .find(|o| Domain::from_name(&o.domain) == Some(domain))
            .map_or_else(|| domain.name().to_string(), |o| o.domain.clone())
    }

    fn name(&self, v: Value) -> Option<&str> {
        self.names[v.index()].as_deref()
    }

    /// A name no value or output of the model has, derived from `base`.
    fn fresh(&mut self, base: &str) -> String {
        loop {
            let name = format!("{base}_{}", self.fresh_count);
            self.fresh_count += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }

    fn scope(&mut self) -> &mut HashSet<String> {
        &mut self.scopes.last_mut().expect("inside a graph").names
    }

    /// Whether `name` is defined in the graphs being exported.
    fn visible(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.names.contains(name))
    }

    /// The name of `v` where the innermost graph refers to it: `None` when
    /// `v` is not (yet) defined there or in a graph around it.
    fn reference(&self, v: Value) -> Option<&str> {
        let region = self.def_region(v);
        self.scopes
            .iter()
            .any(|s| s.region == region)
            .then_some(())?;
        self.name(v)
    }

    /// Names value `v`, defined in the innermost graph, under `rule`.
    fn claim(&mut self, v: Value, rule: Claim, graph: &GraphNames) -> Result<String, String> {
        let wanted = self.ir.value(v).name.as_ref().or(graph.preferred.get(&v));
        let (here, outer) = self.scopes.split_last().expect("inside a graph");
        let clash = wanted.and_then(|name| {
            if here.names.contains(name) {
                Some("is already defined in this graph")
            } else if graph.reserved.get(name).is_some_and(|&w| w != v) {
                Some("is an output of this graph computed by another value")
            } else if rule == Claim::NodeOutput && outer.iter().any(|s| s.names.contains(name)) {
                Some("is defined in an enclosing graph")
            } else if rule != Claim::NodeOutput && graph.free.contains(name) {
                Some("names an outer value this graph uses")
            } else {
                None
            }
        });
        let name = match (wanted, clash) {
            (Some(name), None) => name.clone(),
            (Some(name), Some(clash)) if rule == Claim::Interface => {
                return Err(format!("input {name:?} {clash}"))
            }
            (Some(name), Some(_)) => {
                let name = name.clone();
                self.fresh(&name)
            }
            (None, _) => self.fresh(""),
        };
        self.scope().insert(name.clone());
        self.names[v.index()] = Some(name.clone());
        Ok(name)
    }

    /// The region a value is defined in.
    fn def_region(&self, v: Value) -> RegionId {
        match self.ir.value(v).def {
            ValueDef::Arg(r, _) => r,
            ValueDef::Result(op, _) => self.ir.op(op).parent,
        }
    }

    /// The names of the values defined outside `region` that it or a
    /// subgraph in it uses (the outer values are named by now: they are
    /// defined before the op that holds the subgraph).
    fn free_names(&self, region: RegionId) -> HashSet<String> {
        let within = self.ir.regions_within(region);
        let inside: HashSet<RegionId> = within.iter().copied().collect();
        let mut out = HashSet::new();
        for &r in &within {
            let data = self.ir.region(r);
            let inputs = data
                .ops
                .iter()
                .flat_map(|&op| self.ir.op(op).inputs.iter().flatten().copied());
            for v in inputs.chain(data.outputs.iter().map(|o| o.value)) {
                if !inside.contains(&self.def_region(v)) {
                    out.extend(self.name(v).map(str::to_string));
                }
            }
        }
        out
    }

    /// The attribute that makes `op` an initializer, when importing that
    /// initializer gives `op` back (see the module documentation).
    fn initializer_attr(&self, op: OpId) -> Option<(&'m str, &'m Attr)> {
        let ir = self.ir;
        let d = ir.op(op);
        if self.model.ir_version < 4
            || d.kind != OpKind::Constant
            || !d.name.is_empty()
            || d.meta.is_some()
            || !d.inputs.is_empty()
        {
            return None;
        }
        let [Some(v)] = d.results[..] else {
            return None;
        };
        ir.value(v).name.as_ref()?;
        let [(name, attr)] = &d.attrs.0[..] else {
            return None;
        };
        let ty = match (name.as_str(), attr) {
            ("value", Attr::Tensor(t)) => t.ty(),
            ("sparse_value", Attr::SparseTensor(s)) => TensorType::new(s.values.elem, &s.dims),
            _ => return None,
        };
        let schema = constant_schema(self.opset(Domain::Onnx), name)?;
        (*ir.ty(v) == Type::Tensor(ty) && schema.since_version == d.version)
            .then_some((name.as_str(), attr))
    }

    /// Exports `region` as a graph, inside the graphs of `self.scopes`;
    /// returns it with the names it defines.
    fn graph(&mut self, region: RegionId) -> Result<(GraphProto, HashSet<String>)> {
        let r = self.ir.region(region);
        let names = self.graph_names(region)?;
        self.scopes.push(Scope {
            region,
            names: HashSet::new(),
        });
        let mut g = GraphProto {
            name: r.name.clone(),
            ..GraphProto::default()
        };
        (g.doc_string, g.metadata_props) = doc(r.meta.as_deref());
        self.inputs(region, &names, &mut g)?;
        let leading = self.initializers(region, &names, &mut g)?;
        for &op in &r.ops[leading..] {
            let node = self.node(op, &names)?;
            g.node.push(node);
        }
        let direct = self.outputs(region, &mut g)?;
        if self.options.value_info {
            self.value_infos(&r.ops[leading..], &direct, &mut g);
        }
        let scope = self.scopes.pop().expect("pushed above");
        Ok((g, scope.names))
    }

    /// What naming the values of `region` must respect: its output names,
    /// the names of the outer values it uses, and the names unnamed output
    /// values take.
    fn graph_names(&self, region: RegionId) -> Result<GraphNames> {
        let ir = self.ir;
        let mut names = GraphNames {
            free: self.free_names(region),
            ..GraphNames::default()
        };
        for o in &ir.region(region).outputs {
            if names.reserved.insert(o.name.clone(), o.value).is_some() {
                return Err(graph_error(
                    ir,
                    region,
                    format!("output {:?} is listed twice", o.name),
                ));
            }
            let unnamed = ir.value(o.value).name.is_none();
            let result = matches!(ir.value(o.value).def, ValueDef::Result(..));
            if unnamed && result && self.def_region(o.value) == region {
                names.preferred.entry(o.value).or_insert(o.name.clone());
            }
        }
        Ok(names)
    }

    /// The graph inputs of `region`'s arguments, with an initializer of the
    /// same name for each default.
    fn inputs(&mut self, region: RegionId, names: &GraphNames, g: &mut GraphProto) -> Result<()> {
        let ir = self.ir;
        let rule = match ir.region(region).parent {
            RegionParent::Top => Claim::Interface,
            RegionParent::Op(_) => Claim::Shadowing,
        };
        for arg in &ir.region(region).args {
            let name = self
                .claim(arg.value, rule, names)
                .map_err(|message| graph_error(ir, region, message))?;
            if region == self.model.graph && *ir.ty(arg.value) == Type::Unknown {
                let message = format!(
                    "input {name:?} has no type, which ONNX requires of the main graph's inputs"
                );
                return Err(graph_error(ir, region, message));
            }
            g.input.push(value_info_proto(ir, arg.value, &name, true));
            if let Some(default) = &arg.default {
                let tensor =
                    tensor_proto(default, &name).map_err(|message| ExportError::Tensor {
                        tensor: name.clone(),
                        message,
                    })?;
                g.initializer.push(tensor);
            }
        }
        Ok(())
    }

    /// The (sparse) initializers made of the `Constant`s at the top of
    /// `region` (see [`Exporter::initializer_attr`]); returns how many ops
    /// they are.
    fn initializers(
        &mut self,
        region: RegionId,
        names: &GraphNames,
        g: &mut GraphProto,
    ) -> Result<usize> {
        let ir = self.ir;
        let ops = &ir.region(region).ops;
        let leading = ops
            .iter()
            .take_while(|&&op| self.initializer_attr(op).is_some())
            .count();
        for &op in &ops[..leading] {
            let (_, attr) = self.initializer_attr(op).expect("checked above");
            let v = ir.op(op).results[0].expect("an initializer Constant has its result");
            let name = self
                .claim(v, Claim::Shadowing, names)
                .expect("only interface names fail");
            let (doc_string, metadata_props) = doc(ir.value(v).meta.as_deref());
            let terr = |message| ExportError::Tensor {
                tensor: name.clone(),
                message,
            };
            match attr {
                Attr::Tensor(t) => g.initializer.push(TensorProto {
                    doc_string,
                    metadata_props,
                    ..tensor_proto(t, &name).map_err(terr)?
                }),
                Attr::SparseTensor(s) => {
                    let mut sparse = sparse_proto(s, &name).map_err(terr)?;
                    let values = sparse.values.as_mut().expect("made above");
                    (values.doc_string, values.metadata_props) = (doc_string, metadata_props);
                    g.sparse_initializer.push(sparse);
                }
                _ => unreachable!("initializer_attr gives tensors"),
            }
        }
        Ok(leading)
    }

    /// The graph outputs of `region`: the value itself when it is defined
    /// in the graph under the output's name, else an `Identity` node.
    /// Returns the values that are outputs themselves.
    fn outputs(&mut self, region: RegionId, g: &mut GraphProto) -> Result<HashSet<Value>> {
        let ir = self.ir;
        let top = ir.region(region).parent == RegionParent::Top;
        let mut direct = HashSet::new();
        for o in &ir.region(region).outputs {
            let v = o.value;
            let Some(source) = self.reference(v).map(str::to_string) else {
                let message = format!(
                    "output {:?} is a value not defined in the graph or a graph around it",
                    o.name
                );
                return Err(graph_error(ir, region, message));
            };
            if source == o.name && self.def_region(v) == region && direct.insert(v) {
                let is_result = matches!(ir.value(v).def, ValueDef::Result(..));
                g.output.push(value_info_proto(ir, v, &o.name, is_result));
                continue;
            }
            let name = match (self.visible(&o.name), top) {
                (false, _) => o.name.clone(),
                (true, false) => self.fresh(&o.name),
                (true, true) => {
                    let message = format!(
                        "output {:?} is value {source:?}, but another value has its name",
                        o.name
                    );
                    return Err(graph_error(ir, region, message));
                }
            };
            self.scope().insert(name.clone());
            g.node.push(self.identity(&source, &name));
            g.output.push(value_info_proto(ir, v, &name, false));
        }
        Ok(direct)
    }

    /// The `value_info` of the results of `ops` that have a type or a doc
    /// string, except the values that are outputs themselves.
    fn value_infos(&self, ops: &[OpId], direct: &HashSet<Value>, g: &mut GraphProto) {
        for &op in ops {
            for &v in self.ir.op(op).results.iter().flatten() {
                let data = self.ir.value(v);
                let known = data.ty != Type::Unknown || data.meta.is_some();
                if known && !direct.contains(&v) {
                    let name = self.name(v).expect("named when its op was exported");
                    g.value_info.push(value_info_proto(self.ir, v, name, true));
                }
            }
        }
    }

    /// The opset the model imports for `domain`; a domain it does not
    /// import is imported at its newest version (ONNX models import every
    /// domain their nodes use).
    fn import(&mut self, domain: Domain) -> i64 {
        self.opset(domain).unwrap_or_else(|| {
            let version = i64::from(domain.max_version());
            self.opset_imports.push(OpsetImport {
                domain: domain.name().to_string(),
                version,
            });
            version
        })
    }

    /// An `Identity` node from `input` to `output`.
    fn identity(&mut self, input: &str, output: &str) -> NodeProto {
        self.import(Domain::Onnx);
        NodeProto {
            input: vec![input.to_string()],
            output: vec![output.to_string()],
            op_type: OpKind::Identity.name().to_string(),
            domain: self.domain_name(Domain::Onnx),
            ..NodeProto::default()
        }
    }

    /// Exports an op as a node: its subgraphs first (they see the names
    /// defined before the op), then its outputs are named.
    fn node(&mut self, op: OpId, names: &GraphNames) -> Result<NodeProto> {
        let ir = self.ir;
        let d = ir.op(op);
        let fail = |message: String| ExportError::Op {
            op: ir.describe_op(op),
            message,
        };
        let domain = d.kind.domain();
        let opset = self.import(domain);
        match d.kind.schema(opset) {
            Some(s) if s.since_version == d.version => {}
            Some(s) => {
                return Err(fail(format!(
                    "the model's opset {opset} of its domain makes it version {}: ONNX nodes have no version of their own",
                    s.since_version
                )))
            }
            None => {
                return Err(fail(format!(
                    "the operator does not exist in the model's opset {opset} of its domain"
                )))
            }
        }
        let mut input = Vec::with_capacity(d.inputs.len());
        for (k, slot) in d.inputs.iter().enumerate() {
            input.push(match slot {
                None => String::new(),
                Some(v) => self
                    .reference(*v)
                    .ok_or_else(|| {
                        fail(format!(
                            "input {k} is not defined before the op in its graph or a graph around it"
                        ))
                    })?
                    .to_string(),
            });
        }
        let mut attribute = Vec::with_capacity(d.attrs.len());
        for (name, attr) in d.attrs.iter() {
            attribute.push(self.attr(name, attr).map_err(|e| match e {
                AttrError::Tensor(message) => fail(format!("attribute {name:?}: {message}")),
                AttrError::Export(e) => e,
            })?);
        }
        let mut output = Vec::with_capacity(d.results.len());
        for slot in &d.results {
            output.push(match slot {
                None => String::new(),
                Some(v) => self
                    .claim(*v, Claim::NodeOutput, names)
                    .expect("only interface names fail"),
            });
        }
        let (doc_string, metadata_props) = doc(d.meta.as_deref());
        Ok(NodeProto {
            input,
            output,
            name: d.name.clone(),
            op_type: d.kind.name().to_string(),
            domain: self.domain_name(domain),
            attribute,
            doc_string,
            metadata_props,
            ..NodeProto::default()
        })
    }

    /// Exports one attribute; subgraphs are exported recursively.
    fn attr(&mut self, name: &str, attr: &Attr) -> Result<AttributeProto, AttrError> {
        use AttributeType as T;
        let tensor = |t: &TensorData| tensor_proto(t, "").map_err(AttrError::Tensor);
        let sparse = |s: &SparseTensorData| sparse_proto(s, "").map_err(AttrError::Tensor);
        let mut a = AttributeProto {
            name: name.to_string(),
            ..AttributeProto::default()
        };
        let kind = match attr {
            Attr::Float(f) => {
                a.f = *f;
                T::Float
            }
            Attr::Int(i) => {
                a.i = *i;
                T::Int
            }
            Attr::String(s) => {
                a.s = Bytes::from(s.clone());
                T::String
            }
            Attr::Tensor(t) => {
                a.t = Some(tensor(t)?);
                T::Tensor
            }
            Attr::Graph(r) => {
                a.g = Some(self.graph(*r)?.0);
                T::Graph
            }
            Attr::SparseTensor(s) => {
                a.sparse_tensor = Some(sparse(s)?);
                T::SparseTensor
            }
            Attr::Type(t) => {
                a.tp = Some(type_proto(t).unwrap_or_default());
                T::TypeProto
            }
            Attr::Floats(v) => {
                a.floats = v.clone();
                T::Floats
            }
            Attr::Ints(v) => {
                a.ints = v.clone();
                T::Ints
            }
            Attr::Strings(v) => {
                a.strings = v.iter().map(|s| Bytes::from(s.clone())).collect();
                T::Strings
            }
            Attr::Tensors(v) => {
                a.tensors = v.iter().map(tensor).collect::<Result<_, _>>()?;
                T::Tensors
            }
            Attr::Graphs(v) => {
                for r in v {
                    a.graphs.push(self.graph(*r)?.0);
                }
                T::Graphs
            }
            Attr::SparseTensors(v) => {
                a.sparse_tensors = v.iter().map(sparse).collect::<Result<_, _>>()?;
                T::SparseTensors
            }
            Attr::Types(v) => {
                a.type_protos = v
                    .iter()
                    .map(|t| type_proto(t).unwrap_or_default())
                    .collect();
                T::TypeProtos
            }
        };
        a.r#type = kind as i32;
        Ok(a)
    }
}

/// Why an attribute could not be exported: a tensor in it (the message),
/// or an error inside a subgraph (which names its own node).
enum AttrError {
    Tensor(String),
    Export(ExportError),
}

impl From<ExportError> for AttrError {
    fn from(e: ExportError) -> AttrError {
        AttrError::Export(e)
    }
}
