//! `ModelProto` to [`Model`]: graphs become regions, nodes become ops.
//!
//! Names are resolved through a chain of lexical scopes ([`Frame`]): a
//! subgraph sees its own names first, then those of the graphs around it,
//! as the IR spec allows. Following the ONNX checker, a node output may not
//! redefine any visible name, while graph inputs and initializers of a
//! subgraph may shadow outer names. A function body is a scope of its own
//! with only the formal inputs visible.
//!
//! Each graph is imported in three steps: inputs and initializers (which
//! become `Constant` ops at the start of the region, or an input's default
//! value), then the nodes in topological order, then the outputs.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use onnx_mlc_dialect::ir::{Meta, NewOp, OpsetImport, RegionParent, TrainingInfo, ValueDef};
use onnx_mlc_dialect::types::merge_types;
use onnx_mlc_dialect::{
    Attr, Attrs, Domain, Ir, Model, OpId, OpKind, OpSchema, RegionId, TensorData, TensorType, Type,
    Value,
};
use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, SparseTensorProto,
    StringStringEntryProto, TensorProto, TrainingInfoProto, ValueInfoProto,
};

use crate::error::{ImportError, NodeRef, Result};
use crate::external::ExternalFiles;
use crate::function::{bind_attrs, resolve_refs, Function, Functions, Inline};
use crate::opset::{canonical_domain, Opsets};
use crate::order::{subgraph_free_names, topo_order};
use crate::tensor::{sparse_tensor_data, tensor_data};
use crate::{types, ImportOptions, Imported, Warning};

/// A lexical scope: the names a graph (or function body) defines, and the
/// scope around it. A name bound to `None` is an absent optional input of
/// a function.
struct Frame<'a> {
    names: HashMap<String, Option<Value>>,
    parent: Option<&'a Frame<'a>>,
    /// `graph` or `function body`, for messages.
    kind: &'static str,
}

impl<'a> Frame<'a> {
    fn new(parent: Option<&'a Frame<'a>>, kind: &'static str) -> Frame<'a> {
        Frame {
            names: HashMap::new(),
            parent,
            kind,
        }
    }

    /// The value a name denotes here or in an enclosing scope.
    fn lookup(&self, name: &str) -> Option<Option<Value>> {
        match self.names.get(name) {
            Some(v) => Some(*v),
            None => self.parent?.lookup(name),
        }
    }

    /// Whether an enclosing scope defines `name`.
    fn outer_defines(&self, name: &str) -> bool {
        self.parent.is_some_and(|p| p.lookup(name).is_some())
    }
}

/// The types and metadata of a graph's values, by name.
type ValueInfos<'g> = HashMap<&'g str, &'g ValueInfoProto>;

/// What the nodes being imported resolve against.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    opsets: &'a Opsets,
    /// Set inside an inlined function body.
    inline: Option<&'a Inline>,
    /// The `value_info` of the graph or function body.
    value_info: &'a ValueInfos<'a>,
    /// How many subgraphs and function calls enclose the nodes.
    depth: usize,
}

/// A node being imported, with its index and how messages name it.
struct Site<'n> {
    node: &'n NodeProto,
    index: usize,
    at: NodeRef,
}

impl Ctx<'_> {
    fn value_name(&self, name: &str) -> String {
        match self.inline {
            Some(i) => i.value_name(name),
            None => name.to_string(),
        }
    }

    fn node_name(&self, node: &NodeProto, index: usize) -> String {
        match self.inline {
            Some(i) if node.name.is_empty() => format!("{}/{}_{index}", i.prefix, node.op_type),
            Some(i) => format!("{}/{}", i.prefix, node.name),
            None => node.name.clone(),
        }
    }

    fn node_ref(&self, node: &NodeProto, index: usize) -> NodeRef {
        NodeRef {
            name: node.name.clone(),
            index,
            op_type: node.op_type.clone(),
            domain: node.domain.clone(),
            opset: self.opsets.get(&node.domain),
        }
    }
}

/// Imports a decoded model.
pub(crate) fn import(
    proto: &ModelProto,
    base_dir: Option<&Path>,
    options: &ImportOptions,
) -> Result<Imported> {
    let graph = proto
        .graph
        .as_ref()
        .ok_or_else(|| ImportError::Model("the model has no graph".into()))?;
    let supported = onnx_mlc_dialect::IR_VERSION;
    if !(1..=supported).contains(&proto.ir_version) {
        return Err(ImportError::Model(format!(
            "IR version {} is not supported (1 to {supported})",
            proto.ir_version
        )));
    }
    // Nothing could ever tell the type of an untyped model input.
    if let Some(vi) = graph.input.iter().find(|vi| vi.r#type.is_none()) {
        return Err(ImportError::graph(
            &graph.name,
            format!("input {:?} has no type", vi.name),
        ));
    }
    let (imports, implied) = opset_imports(proto);
    let opsets = Opsets::new(&imports, "the model")?;
    let functions = Functions::new(&proto.functions, &opsets)?;
    let mut imp = Importer {
        options,
        ir: Ir::new(),
        external: ExternalFiles::new(base_dir)?,
        functions: &functions,
        model_opsets: &opsets,
        call_stack: vec![],
        prefixes: Default::default(),
        warnings: vec![],
        warned_devices: false,
        constants_need_onnx: false,
        inputs_with_initializers_are_constants: proto.ir_version < 4,
    };

    if !proto.configuration.is_empty() {
        imp.warn("device configurations are not imported".into());
    }
    let top_level = ValueInfos::new();
    let ctx = Ctx {
        opsets: &opsets,
        inline: None,
        value_info: &top_level,
        depth: 0,
    };
    let main = imp.ir.new_region(graph.name.clone(), RegionParent::Top);
    let main_names = imp.import_graph(main, graph, None, ctx)?;
    let main_scope = Frame {
        names: main_names,
        parent: None,
        kind: "graph",
    };

    let training_info = proto
        .training_info
        .iter()
        .map(|t| imp.import_training(t, &main_scope, ctx))
        .collect::<Result<_>>()?;

    // A repeated import of a domain at the same version (skl2onnx writes
    // `""` twice) says nothing more: it is kept once. (`Opsets::new` has
    // refused different versions.)
    let mut opset_imports: Vec<OpsetImport> = vec![];
    for o in imports.iter().skip(usize::from(implied)) {
        let same = |i: &OpsetImport| {
            canonical_domain(&i.domain) == canonical_domain(&o.domain) && i.version == o.version
        };
        if !opset_imports.iter().any(same) {
            opset_imports.push(OpsetImport {
                domain: o.domain.clone(),
                version: o.version,
            });
        }
    }
    if imp.constants_need_onnx {
        // The Constant ops that hold initializers are ai.onnx ops.
        imp.warn(format!(
            "initializers are ai.onnx Constant ops, but the model does not import ai.onnx: importing opset {}",
            Domain::Onnx.max_version()
        ));
        opset_imports.push(OpsetImport {
            domain: String::new(),
            version: i64::from(Domain::Onnx.max_version()),
        });
    }
    let model = Model {
        ir_version: proto.ir_version,
        opset_imports,
        producer_name: proto.producer_name.clone(),
        producer_version: proto.producer_version.clone(),
        domain: proto.domain.clone(),
        model_version: proto.model_version,
        doc_string: proto.doc_string.clone(),
        metadata_props: pairs(&proto.metadata_props),
        training_info,
        graph: main,
        ir: imp.ir,
    };
    Ok(Imported {
        model,
        warnings: imp.warnings,
    })
}

/// The opset imports the model resolves its nodes with, and whether the
/// first is implied rather than in the file. Before IR version 3 there were
/// no imports: ai.onnx opset 1 is implied. Domains only functions import
/// count as imported by the model (as in `onnx.checker`): their ops end up
/// in the model's graphs once inlined.
fn opset_imports(proto: &ModelProto) -> (Vec<OperatorSetIdProto>, bool) {
    let mut imports = proto.opset_import.clone();
    let implied = imports.is_empty() && proto.ir_version < 3;
    if implied {
        imports.push(OperatorSetIdProto {
            domain: String::new(),
            version: 1,
        });
    }
    for o in proto.functions.iter().flat_map(|f| &f.opset_import) {
        let domain = canonical_domain(&o.domain);
        if !imports
            .iter()
            .any(|i| canonical_domain(&i.domain) == domain)
        {
            imports.push(o.clone());
        }
    }
    (imports, implied)
}

fn pairs(entries: &[StringStringEntryProto]) -> Vec<(String, String)> {
    entries
        .iter()
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect()
}

fn meta(doc_string: &str, props: &[StringStringEntryProto]) -> Option<Box<Meta>> {
    Meta::boxed(doc_string.to_string(), pairs(props))
}

fn value_meta(vi: Option<&ValueInfoProto>) -> Option<Box<Meta>> {
    vi.and_then(|vi| meta(&vi.doc_string, &vi.metadata_props))
}

/// The name of a sparse initializer (its `values` tensor's name).
fn sparse_name(s: &SparseTensorProto) -> &str {
    s.values.as_ref().map_or("", |v| v.name.as_str())
}

/// True for names of the C90 identifier form `[A-Za-z_][A-Za-z0-9_]*`.
fn is_c90_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The Constant schema for an initializer carried in attribute `attr`,
/// given the ai.onnx opset `onnx` of its region: the version that opset
/// resolves to, or the first version that has the attribute when that one
/// lacks it (sparse initializers in a model of opset below 11). `None` when
/// ai.onnx is not imported. The exporter turns exactly such Constants back
/// into initializers.
pub(crate) fn constant_schema(onnx: Option<i64>, attr: &str) -> Option<&'static OpSchema> {
    let versions = OpKind::Constant.versions();
    let v = onnx?;
    OpKind::Constant
        .schema(v)
        .filter(|s| s.attr(attr).is_some())
        .or_else(|| versions.iter().find(|s| s.attr(attr).is_some()))
}

/// Replaces `value_float(s)`, `value_int(s)` and `value_string(s)` of a
/// `Constant` by the equivalent dense `value`.
fn normalize_constant(attrs: &mut Attrs) -> Result<(), String> {
    for name in [
        "value_float",
        "value_floats",
        "value_int",
        "value_ints",
        "value_string",
        "value_strings",
    ] {
        let Some(attr) = attrs.remove(name) else {
            continue;
        };
        let tensor = match attr {
            Attr::Float(v) => Ok(TensorData::scalar(v)),
            Attr::Floats(v) => TensorData::from_vec(vec![v.len() as i64], &v),
            Attr::Int(v) => Ok(TensorData::scalar(v)),
            Attr::Ints(v) => Ok(TensorData::i64s(&v)),
            Attr::String(s) => TensorData::from_strings(vec![], vec![s]),
            Attr::Strings(s) => TensorData::from_strings(vec![s.len() as i64], s),
            other => {
                return Err(format!(
                    "attribute {name:?} has type {}",
                    other.kind().name()
                ))
            }
        }
        .expect("lengths match the shapes built here");
        if attrs.get("value").is_some() {
            return Err(format!("both \"value\" and {name:?} are given"));
        }
        attrs.set("value", Attr::Tensor(tensor));
    }
    Ok(())
}

/// The kind of an attribute: its `type`, or for producers that leave it
/// UNDEFINED (IR version 1), the kind of the one field that is set. A
/// value field of another kind being set too is an error (the attribute
/// is a union; which value was meant is unclear).
fn attr_type(a: &AttributeProto) -> Result<AttributeType, String> {
    use AttributeType as T;
    let set = [
        (a.f != 0.0, T::Float, "f"),
        (a.i != 0, T::Int, "i"),
        (!a.s.is_empty(), T::String, "s"),
        (a.t.is_some(), T::Tensor, "t"),
        (a.g.is_some(), T::Graph, "g"),
        (a.sparse_tensor.is_some(), T::SparseTensor, "sparse_tensor"),
        (a.tp.is_some(), T::TypeProto, "tp"),
        (!a.floats.is_empty(), T::Floats, "floats"),
        (!a.ints.is_empty(), T::Ints, "ints"),
        (!a.strings.is_empty(), T::Strings, "strings"),
        (!a.tensors.is_empty(), T::Tensors, "tensors"),
        (!a.graphs.is_empty(), T::Graphs, "graphs"),
        (
            !a.sparse_tensors.is_empty(),
            T::SparseTensors,
            "sparse_tensors",
        ),
        (!a.type_protos.is_empty(), T::TypeProtos, "type_protos"),
    ];
    let kind = match T::try_from(a.r#type) {
        Ok(T::Undefined) => set
            .iter()
            .find_map(|&(is_set, t, _)| is_set.then_some(t))
            .ok_or_else(|| "neither a type nor a value".to_string())?,
        Ok(t) => t,
        Err(_) => return Err(format!("unknown attribute type {}", a.r#type)),
    };
    match set.iter().find(|&&(is_set, t, _)| is_set && t != kind) {
        Some((_, t, field)) => Err(format!(
            "type {} but field {field} ({}) holds a value",
            kind.as_str_name(),
            t.as_str_name()
        )),
        None => Ok(kind),
    }
}

struct Importer<'a, 'p> {
    options: &'a ImportOptions,
    ir: Ir,
    external: ExternalFiles,
    functions: &'a Functions<'p>,
    /// The model's opset imports (function bodies resolve in their own).
    model_opsets: &'a Opsets,
    /// Keys of the functions being inlined, outermost first.
    call_stack: Vec<String>,
    /// Name prefixes given to inlined call sites so far.
    prefixes: HashSet<String>,
    warnings: Vec<Warning>,
    warned_devices: bool,
    /// Initializers became `Constant`s of ai.onnx, which the model does
    /// not import.
    constants_need_onnx: bool,
    /// Whether a graph input with an initializer is an input with a default
    /// value (IR version 4 on) or a constant (before; see `import_inputs`).
    inputs_with_initializers_are_constants: bool,
}

impl Importer<'_, '_> {
    fn warn(&mut self, message: String) {
        self.warnings.push(Warning { message });
    }

    /// With `strict_names`, warns about a name that is not a C90 identifier.
    fn check_name(&mut self, name: &str, what: &str) {
        if self.options.strict_names && !name.is_empty() && !is_c90_identifier(name) {
            self.warn(format!("{what} name {name:?} is not a C90 identifier"));
        }
    }

    fn value_type(&mut self, vi: Option<&ValueInfoProto>, what: &str) -> Result<Type> {
        let warnings = &mut self.warnings;
        types::value_type(vi.and_then(|v| v.r#type.as_ref()), what, &mut |message| {
            warnings.push(Warning { message })
        })
    }

    /// Imports a training information: its graphs as top-level regions.
    fn import_training(
        &mut self,
        t: &TrainingInfoProto,
        main: &Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<TrainingInfo> {
        let initialization = match &t.initialization {
            Some(g) => {
                let r = self.ir.new_region(g.name.clone(), RegionParent::Top);
                self.import_graph(r, g, None, ctx)?;
                Some(r)
            }
            None => None,
        };
        // The algorithm runs as if appended to the main graph: it sees
        // every name of the main graph (initializers included).
        let default = GraphProto::default();
        let g = t.algorithm.as_ref().unwrap_or(&default);
        let algorithm = self.ir.new_region(g.name.clone(), RegionParent::Top);
        self.import_graph(algorithm, g, Some(main), ctx)?;
        Ok(TrainingInfo {
            initialization,
            algorithm,
            initialization_binding: pairs(&t.initialization_binding),
            update_binding: pairs(&t.update_binding),
        })
    }

    /// Imports graph `g` into the empty `region`; returns the names it defines.
    fn import_graph(
        &mut self,
        region: RegionId,
        g: &GraphProto,
        parent: Option<&Frame<'_>>,
        ctx: Ctx<'_>,
    ) -> Result<HashMap<String, Option<Value>>> {
        self.ir.region_mut(region).meta = meta(&g.doc_string, &g.metadata_props);
        self.check_name(&g.name, "graph");
        if !g.quantization_annotation.is_empty() {
            self.warn(format!(
                "graph {:?}: quantization annotations are not imported",
                g.name
            ));
        }
        let mut frame = Frame::new(parent, "graph");
        self.import_inputs(region, g, &mut frame, ctx)?;
        let value_info: ValueInfos = g.value_info.iter().map(|v| (v.name.as_str(), v)).collect();
        let ctx = Ctx {
            value_info: &value_info,
            ..ctx
        };
        self.import_nodes(region, &g.node, &mut frame, ctx, &g.name)?;
        self.import_outputs(region, g, &frame, ctx)?;
        Ok(frame.names)
    }

    /// Imports a graph's inputs and initializers: an initializer named like
    /// an input is its default, the others become `Constant` ops.
    ///
    /// Before IR version 4 every initializer had to be listed as a graph
    /// input too (`onnx.checker`: "Initializers are a subset of graph inputs
    /// for IR_VERSION <= 3"; IR version 4 "relax[ed the] constraint that
    /// initializers should be a subset of graph inputs"), so such a model
    /// cannot say which of them a caller may override. The IR spec: "Names
    /// of constants that are not meant to be overridden by the caller should
    /// appear only in the initializer list and not in the graph input list",
    /// which only became possible with IR version 4; and for subgraphs, "In
    /// models with IR version <= 3, users MAY use the same name as both a
    /// subgraph initializer and subgraph input, but this is restricted to
    /// support constants via initializers that are not intended to
    /// correspond to any actual inputs passed from the node into the
    /// subgraph." In those models an input with an initializer is therefore
    /// imported as the `Constant` it stands for, not as an input — unless
    /// the model's `Constant` cannot hold it (before opset 9 it holds
    /// floating-point tensors only), in which case it stays an input with a
    /// default.
    fn import_inputs(
        &mut self,
        region: RegionId,
        g: &GraphProto,
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<()> {
        let gerr = |message: String| ImportError::graph(&g.name, message);
        let mut names = HashSet::new();
        for name in g
            .initializer
            .iter()
            .map(|t| t.name.as_str())
            .chain(g.sparse_initializer.iter().map(sparse_name))
        {
            if name.is_empty() {
                return Err(gerr("an initializer has no name".into()));
            }
            if !names.insert(name) {
                return Err(gerr(format!("initializer {name:?} is defined twice")));
            }
            self.check_name(name, "initializer");
        }
        let mut defaults: HashMap<&str, &TensorProto> =
            g.initializer.iter().map(|t| (t.name.as_str(), t)).collect();
        // Inputs that stand for their initializers (IR version < 4), with
        // their declared types and the initializers' data.
        let mut constant_inputs: HashMap<&str, (Type, &ValueInfoProto, TensorData)> =
            HashMap::new();
        // Whether the model's `Constant` can hold the data (before opset 9,
        // floating-point tensors only).
        let holds = |data: &TensorData| {
            constant_schema(ctx.opsets.get(""), "value")
                .is_some_and(|c| c.output_allows(0, &Type::Tensor(data.ty())))
        };

        for vi in &g.input {
            if vi.name.is_empty() {
                return Err(gerr("a graph input has no name".into()));
            }
            if frame.names.contains_key(&vi.name) || constant_inputs.contains_key(vi.name.as_str())
            {
                return Err(gerr(format!("input {:?} is declared twice", vi.name)));
            }
            if g.sparse_initializer
                .iter()
                .any(|s| sparse_name(s) == vi.name)
            {
                return Err(gerr(format!(
                    "sparse initializer {:?} is also a graph input: sparse input defaults are not supported",
                    vi.name
                )));
            }
            self.check_name(&vi.name, "graph input");
            let ty = self.value_type(Some(vi), &format!("graph input {:?}", vi.name))?;
            let default = match defaults.get(vi.name.as_str()) {
                Some(t) => Some(tensor_data(t, &mut self.external)?),
                None => None,
            };
            let default = match default {
                Some(data) if self.inputs_with_initializers_are_constants && holds(&data) => {
                    constant_inputs.insert(&vi.name, (ty, vi, data));
                    continue;
                }
                other => other,
            };
            let value = self.ir.add_arg(region, Some(ctx.value_name(&vi.name)), ty);
            self.ir.value_mut(value).meta = value_meta(Some(vi));
            if let Some(default) = default {
                defaults.remove(vi.name.as_str());
                self.ir
                    .region_mut(region)
                    .args
                    .last_mut()
                    .expect("the arg just added")
                    .default = Some(default);
            }
            frame.names.insert(vi.name.clone(), Some(value));
        }

        // What is left in `defaults` are initializers that are constants.
        for t in g
            .initializer
            .iter()
            .filter(|t| defaults.contains_key(t.name.as_str()))
        {
            let (data, input) = match constant_inputs.remove(t.name.as_str()) {
                Some((declared, vi, data)) => (data, Some((declared, vi))),
                None => (tensor_data(t, &mut self.external)?, None),
            };
            let ty = Type::Tensor(data.ty());
            if let Some((declared, _)) = input
                .as_ref()
                .filter(|(d, _)| merge_types(d, &ty).is_none())
            {
                return Err(gerr(format!(
                    "input {:?} is declared as {declared}, but its initializer is {ty}",
                    t.name
                )));
            }
            let value = self.constant(region, ctx, &t.name, "value", Attr::Tensor(data), ty);
            self.ir.value_mut(value).meta = meta(&t.doc_string, &t.metadata_props)
                .or_else(|| value_meta(input.map(|(_, vi)| vi)));
            frame.names.insert(t.name.clone(), Some(value));
        }
        for s in &g.sparse_initializer {
            let data = sparse_tensor_data(s, &mut self.external)?;
            let values = s.values.as_ref().expect("checked by sparse_tensor_data");
            // A Constant's `sparse_value` makes a dense tensor (ONNX's
            // Constant); the sparse form is only how it is stored.
            let ty = Type::Tensor(TensorType::new(data.values.elem, &data.dims));
            let value = self.constant(
                region,
                ctx,
                &values.name,
                "sparse_value",
                Attr::SparseTensor(data),
                ty,
            );
            self.ir.value_mut(value).meta = meta(&values.doc_string, &values.metadata_props);
            frame.names.insert(values.name.clone(), Some(value));
        }
        Ok(())
    }

    /// Imports a graph's outputs. An output's declared type becomes the
    /// type of its value when the value is computed in this graph and
    /// nothing else typed it (inputs and outer values keep theirs).
    fn import_outputs(
        &mut self,
        region: RegionId,
        g: &GraphProto,
        frame: &Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<()> {
        let gerr = |message: String| ImportError::graph(&g.name, message);
        let mut names = HashSet::new();
        for vi in &g.output {
            if vi.name.is_empty() {
                return Err(gerr("a graph output has no name".into()));
            }
            if !names.insert(vi.name.as_str()) {
                return Err(gerr(format!("output {:?} is listed twice", vi.name)));
            }
            self.check_name(&vi.name, "graph output");
            let value = match frame.lookup(&vi.name) {
                Some(Some(v)) => v,
                Some(None) => {
                    return Err(gerr(format!(
                        "output {:?} is an absent optional input",
                        vi.name
                    )))
                }
                None => return Err(gerr(format!("output {:?} is not defined", vi.name))),
            };
            let ty = self.value_type(Some(vi), &format!("graph output {:?}", vi.name))?;
            let local = matches!(self.ir.value(value).def, ValueDef::Result(op, _) if self.ir.op(op).parent == region);
            let data = self.ir.value_mut(value);
            if local && data.ty == Type::Unknown {
                data.ty = ty;
            }
            if local && data.meta.is_none() {
                data.meta = value_meta(Some(vi));
            }
            self.ir.add_output(region, ctx.value_name(&vi.name), value);
        }
        Ok(())
    }

    /// Appends a `Constant` op holding an initializer.
    fn constant(
        &mut self,
        region: RegionId,
        ctx: Ctx<'_>,
        name: &str,
        attr: &str,
        value: Attr,
        ty: Type,
    ) -> Value {
        let schema = constant_schema(ctx.opsets.get(""), attr).unwrap_or_else(|| {
            self.constants_need_onnx = true;
            OpKind::Constant
                .schema(i64::from(Domain::Onnx.max_version()))
                .expect("Constant exists in the newest opset")
        });
        let op = self.ir.append_op(
            region,
            NewOp {
                kind: OpKind::Constant,
                version: schema.since_version,
                inputs: vec![],
                results: vec![Some((Some(ctx.value_name(name)), ty))],
                attrs: Attrs(vec![(attr.to_string(), value)]),
                name: String::new(),
            },
        );
        self.ir.op(op).results[0].expect("a Constant has its result")
    }

    /// Imports the nodes of a graph or function body (`scope` in messages)
    /// in topological order.
    fn import_nodes(
        &mut self,
        region: RegionId,
        nodes: &[NodeProto],
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
        scope: &str,
    ) -> Result<()> {
        let mut producers: HashMap<&str, usize> = HashMap::new();
        for (i, n) in nodes.iter().enumerate() {
            for o in n.output.iter().filter(|o| !o.is_empty()) {
                let clash = if let Some(&j) = producers.get(o.as_str()) {
                    Some(format!(
                        "is already an output of {}",
                        ctx.node_ref(&nodes[j], j)
                    ))
                } else if frame.names.contains_key(o) {
                    Some(format!(
                        "is already defined in this {} (input or initializer)",
                        frame.kind
                    ))
                } else if frame.outer_defines(o) {
                    Some("is already defined in an enclosing graph".to_string())
                } else {
                    None
                };
                if let Some(clash) = clash {
                    return Err(ImportError::node(
                        &ctx.node_ref(n, i),
                        format!("output {o:?} {clash}"),
                    ));
                }
                producers.insert(o, i);
                self.check_name(o, "value");
            }
            self.check_name(&n.name, "node");
        }

        let limit = self.options.max_subgraph_depth;
        let mut deps = Vec::with_capacity(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            let mut d: Vec<&str> = n
                .input
                .iter()
                .map(String::as_str)
                .filter(|s| !s.is_empty())
                .collect();
            d.extend(
                subgraph_free_names(n, ctx.depth, limit)
                    .map_err(|_| too_deep(&ctx.node_ref(n, i), limit))?,
            );
            deps.push(d);
        }
        let order = topo_order(&deps, &producers).map_err(|cycle| {
            let chain: Vec<String> = cycle
                .iter()
                .map(|&i| ctx.node_ref(&nodes[i], i).to_string())
                .collect();
            ImportError::graph(
                scope,
                format!(
                    "nodes form a cycle: {} -> back to the first",
                    chain.join(" -> ")
                ),
            )
        })?;

        for index in order {
            let node = &nodes[index];
            let site = Site {
                node,
                index,
                at: ctx.node_ref(node, index),
            };
            self.import_node(region, &site, frame, ctx)?;
        }
        Ok(())
    }

    /// Imports one node: an op, or the inlined body of a function.
    fn import_node(
        &mut self,
        region: RegionId,
        site: &Site<'_>,
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<()> {
        let (node, index) = (site.node, site.index);
        let fail = |message: String| ImportError::node(&site.at, message);
        let attrs = resolve_refs(&node.attribute, ctx.inline).map_err(fail)?;
        if let Some(f) = self
            .functions
            .get(&node.domain, &node.op_type, &node.overload)
        {
            return self.inline_call(region, site, f, attrs, frame, ctx);
        }
        if !node.overload.is_empty() {
            return Err(fail(format!(
                "no model-local function has overload {:?}",
                node.overload
            )));
        }
        let schema = ctx
            .opsets
            .resolve(&node.domain, &node.op_type)
            .map_err(fail)?;
        if ctx.inline.is_some() {
            self.check_model_agrees(node, schema, ctx).map_err(fail)?;
        }
        if !node.device_configurations.is_empty() && !self.warned_devices {
            self.warned_devices = true;
            self.warn("device configurations of nodes are not imported".into());
        }

        let inputs = node
            .input
            .iter()
            .map(|name| match name.as_str() {
                "" => Ok(None),
                _ => frame
                    .lookup(name)
                    .ok_or_else(|| fail(format!("input {name:?} is not defined"))),
            })
            .collect::<Result<Vec<_>>>()?;
        let mut results = Vec::with_capacity(node.output.len());
        for o in &node.output {
            results.push(match o.as_str() {
                "" => None,
                _ => Some((
                    Some(ctx.value_name(o)),
                    self.value_type(
                        ctx.value_info.get(o.as_str()).copied(),
                        &format!("value {o:?}"),
                    )?,
                )),
            });
        }
        let op = self.ir.append_op(
            region,
            NewOp {
                kind: schema.kind,
                version: schema.since_version,
                inputs,
                results,
                attrs: Attrs::default(),
                name: ctx.node_name(node, index),
            },
        );

        let mut converted = Attrs::default();
        for a in &attrs {
            if converted.get(&a.name).is_some() {
                return Err(fail(format!("attribute {:?} is given twice", a.name)));
            }
            let value = self
                .attr(a, op, frame, ctx)
                .map_err(|e| e.in_attr(&a.name).in_node(&site.at))?;
            converted.0.push((a.name.clone(), value));
        }
        if schema.kind == OpKind::Constant {
            normalize_constant(&mut converted).map_err(fail)?;
        }
        let data = self.ir.op_mut(op);
        data.attrs = converted;
        data.meta = meta(&node.doc_string, &node.metadata_props);

        let results = self.ir.op(op).results.clone();
        for (name, value) in node.output.iter().zip(results) {
            if let Some(value) = value {
                self.ir.value_mut(value).meta =
                    value_meta(ctx.value_info.get(name.as_str()).copied());
                frame.names.insert(name.clone(), Some(value));
            }
        }
        Ok(())
    }

    /// Converts one attribute; subgraphs become regions owned by `op`.
    fn attr(
        &mut self,
        a: &AttributeProto,
        op: OpId,
        frame: &Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<Attr> {
        use AttributeType as T;
        let kind = attr_type(a).map_err(ImportError::Model)?;
        let missing = || ImportError::Model(format!("type {} but no value", kind.as_str_name()));
        let what = format!("attribute {:?}", a.name);
        Ok(match kind {
            T::Float => Attr::Float(a.f),
            T::Int => Attr::Int(a.i),
            T::String => Attr::String(a.s.to_vec()),
            T::Tensor => Attr::Tensor(tensor_data(
                a.t.as_ref().ok_or_else(missing)?,
                &mut self.external,
            )?),
            T::Graph => {
                Attr::Graph(self.subgraph(a.g.as_ref().ok_or_else(missing)?, op, frame, ctx)?)
            }
            T::SparseTensor => Attr::SparseTensor(sparse_tensor_data(
                a.sparse_tensor.as_ref().ok_or_else(missing)?,
                &mut self.external,
            )?),
            T::TypeProto => {
                let tp = a.tp.as_ref().ok_or_else(missing)?;
                let warnings = &mut self.warnings;
                Attr::Type(types::value_type(Some(tp), &what, &mut |message| {
                    warnings.push(Warning { message })
                })?)
            }
            T::Floats => Attr::Floats(a.floats.clone()),
            T::Ints => Attr::Ints(a.ints.clone()),
            T::Strings => Attr::Strings(a.strings.iter().map(|s| s.to_vec()).collect()),
            T::Tensors => Attr::Tensors(
                a.tensors
                    .iter()
                    .map(|t| tensor_data(t, &mut self.external))
                    .collect::<Result<_>>()?,
            ),
            T::Graphs => Attr::Graphs(
                a.graphs
                    .iter()
                    .map(|g| self.subgraph(g, op, frame, ctx))
                    .collect::<Result<_>>()?,
            ),
            T::SparseTensors => Attr::SparseTensors(
                a.sparse_tensors
                    .iter()
                    .map(|s| sparse_tensor_data(s, &mut self.external))
                    .collect::<Result<_>>()?,
            ),
            T::TypeProtos => {
                let warnings = &mut self.warnings;
                let mut warn = |message| warnings.push(Warning { message });
                Attr::Types(
                    a.type_protos
                        .iter()
                        .map(|tp| types::value_type(Some(tp), &what, &mut warn))
                        .collect::<Result<_>>()?,
                )
            }
            T::Undefined => unreachable!("attr_type infers a defined type"),
        })
    }

    /// Imports a subgraph attribute of `op` as a new region.
    fn subgraph(
        &mut self,
        g: &GraphProto,
        op: OpId,
        frame: &Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<RegionId> {
        let limit = self.options.max_subgraph_depth;
        if ctx.depth + 1 > limit {
            return Err(ImportError::Model(format!(
                "subgraphs nested deeper than {limit}"
            )));
        }
        let region = self.ir.new_region(g.name.clone(), RegionParent::Op(op));
        self.import_graph(
            region,
            g,
            Some(frame),
            Ctx {
                depth: ctx.depth + 1,
                ..ctx
            },
        )?;
        Ok(region)
    }

    /// Inlines the body of function `f` for the call at `site`, whose
    /// attributes are `attrs`.
    fn inline_call(
        &mut self,
        region: RegionId,
        site: &Site<'_>,
        f: &Function<'_>,
        attrs: Vec<std::borrow::Cow<'_, AttributeProto>>,
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
    ) -> Result<()> {
        let node = site.node;
        let fail = |message: String| ImportError::node(&site.at, message);
        let body = f.proto;
        if let Some(at) = self.call_stack.iter().position(|k| *k == f.key) {
            let mut chain = self.call_stack[at..].to_vec();
            chain.push(f.key.clone());
            return Err(fail(format!(
                "recursive function call: {}",
                chain.join(" -> ")
            )));
        }
        let limit = self.options.max_subgraph_depth;
        if ctx.depth + 1 > limit {
            return Err(fail(format!("function calls nested deeper than {limit}")));
        }
        if node.input.len() > body.input.len() || node.output.len() > body.output.len() {
            return Err(fail(format!(
                "function {:?} takes {} inputs and {} outputs, the node has {} and {}",
                f.key,
                body.input.len(),
                body.output.len(),
                node.input.len(),
                node.output.len()
            )));
        }
        let (formals, attrs) = bind_attrs(body, attrs).map_err(fail)?;

        let mut scope = Frame::new(None, "function body");
        for (i, formal) in body.input.iter().enumerate() {
            let value = match node.input.get(i).map(String::as_str) {
                None | Some("") => None,
                Some(name) => frame
                    .lookup(name)
                    .ok_or_else(|| fail(format!("input {name:?} is not defined")))?,
            };
            if scope.names.insert(formal.clone(), value).is_some() {
                return Err(fail(format!(
                    "function {:?} declares input {formal:?} twice",
                    f.key
                )));
            }
        }
        let outputs = body
            .output
            .iter()
            .zip(&node.output)
            .filter(|(_, caller)| !caller.is_empty())
            .map(|(formal, caller)| (formal.clone(), ctx.value_name(caller)))
            .collect();
        let inline = Inline {
            prefix: self.unique_prefix(ctx.node_name(node, site.index)),
            formals,
            attrs,
            outputs,
        };
        let value_info: ValueInfos = body
            .value_info
            .iter()
            .map(|v| (v.name.as_str(), v))
            .collect();
        let body_ctx = Ctx {
            opsets: &f.opsets,
            inline: Some(&inline),
            value_info: &value_info,
            depth: ctx.depth + 1,
        };

        self.call_stack.push(f.key.clone());
        let result = self.import_nodes(region, &body.node, &mut scope, body_ctx, &body.name);
        self.call_stack.pop();
        let in_function = |e: ImportError| ImportError::InFunction {
            function: f.key.clone(),
            call: Box::new(site.at.clone()),
            source: Box::new(e),
        };
        result.map_err(in_function)?;

        for (formal, caller) in body.output.iter().zip(&node.output) {
            if caller.is_empty() {
                continue;
            }
            let value = scope.names.get(formal).copied().ok_or_else(|| {
                in_function(ImportError::Model(format!(
                    "function output {formal:?} is not computed by the body"
                )))
            })?;
            frame.names.insert(caller.clone(), value);
        }
        Ok(())
    }

    /// A function body's op must be the same version the model's own
    /// opset import would give it (`onnx.checker`'s opset compatibility):
    /// after inlining, the op is part of the model.
    fn check_model_agrees(
        &self,
        node: &NodeProto,
        schema: &OpSchema,
        ctx: Ctx<'_>,
    ) -> Result<(), String> {
        let domain = &node.domain;
        let (Some(fv), Some(mv)) = (ctx.opsets.get(domain), self.model_opsets.get(domain)) else {
            return Ok(());
        };
        if fv == mv {
            return Ok(());
        }
        let model = match self.model_opsets.resolve(domain, &node.op_type) {
            Ok(m) if m.since_version == schema.since_version => return Ok(()),
            Ok(m) => format!("version {}", m.since_version),
            Err(_) => "not defined".to_string(),
        };
        Err(format!(
            "the function imports opset {fv} of domain {domain:?}, where {} is version {}, but the model imports opset {mv}, where it is {model}",
            node.op_type, schema.since_version
        ))
    }

    /// A name prefix for a call site that no other call site has.
    fn unique_prefix(&mut self, base: String) -> String {
        let mut prefix = base.clone();
        let mut n = 1;
        while !self.prefixes.insert(prefix.clone()) {
            n += 1;
            prefix = format!("{base}#{n}");
        }
        prefix
    }
}

fn too_deep(node: &NodeRef, limit: usize) -> ImportError {
    ImportError::node(node, format!("subgraphs nested deeper than {limit}"))
}
