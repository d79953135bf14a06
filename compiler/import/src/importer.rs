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

use std::collections::HashMap;
use std::path::Path;

use onnx_mlc_dialect::ir::{Meta, NewOp, OpsetImport, RegionParent, TrainingInfo, ValueDef};
use onnx_mlc_dialect::{
    Attr, Attrs, Ir, Model, OpId, OpKind, OpSchema, RegionId, TensorData, Type, Value,
};
use onnx_mlc_proto::attribute_proto::AttributeType;
use onnx_mlc_proto::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto,
    TensorProto, ValueInfoProto,
};

use crate::error::{ImportError, NodeRef, Result};
use crate::external::ExternalFiles;
use crate::function::{bind_attrs, resolve_refs, Function, Functions, Inline};
use crate::opset::Opsets;
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

/// What the nodes being imported resolve against.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    opsets: &'a Opsets,
    /// Set inside an inlined function body.
    inline: Option<&'a Inline>,
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

/// The types and metadata of a graph's values, by name.
type ValueInfos<'g> = HashMap<&'g str, &'g ValueInfoProto>;

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
    let mut imports = proto.opset_import.clone();
    if imports.is_empty() && proto.ir_version < 3 {
        // Before IR version 3 there were no opset imports: ai.onnx opset 1.
        imports.push(OperatorSetIdProto {
            domain: String::new(),
            version: 1,
        });
    }
    let opsets = Opsets::new(&imports, "the model")?;
    let functions = Functions::new(&proto.functions, &opsets)?;
    let mut imp = Importer {
        options,
        ir: Ir::new(),
        external: ExternalFiles::new(base_dir)?,
        functions: &functions,
        call_stack: vec![],
        prefixes: Default::default(),
        warnings: vec![],
        warned_devices: false,
    };
    if proto.ir_version > onnx_mlc_dialect::IR_VERSION {
        imp.warn(format!(
            "IR version {} is newer than the supported {}",
            proto.ir_version,
            onnx_mlc_dialect::IR_VERSION
        ));
    }
    if !proto.configuration.is_empty() {
        imp.warn("device configurations are not imported".into());
    }
    let ctx = Ctx {
        opsets: &opsets,
        inline: None,
    };
    let main = imp.ir.new_region(graph.name.clone(), RegionParent::Top);
    let main_names = imp.import_graph(main, graph, None, ctx, 0)?;
    let main_scope = Frame {
        names: main_names,
        parent: None,
        kind: "graph",
    };

    let mut training_info = vec![];
    for t in &proto.training_info {
        let initialization = match &t.initialization {
            Some(g) => {
                let r = imp.ir.new_region(g.name.clone(), RegionParent::Top);
                imp.import_graph(r, g, None, ctx, 0)?;
                Some(r)
            }
            None => None,
        };
        // The algorithm runs as if appended to the main graph: it sees
        // every name of the main graph (initializers included).
        let default = GraphProto::default();
        let g = t.algorithm.as_ref().unwrap_or(&default);
        let algorithm = imp.ir.new_region(g.name.clone(), RegionParent::Top);
        imp.import_graph(algorithm, g, Some(&main_scope), ctx, 0)?;
        training_info.push(TrainingInfo {
            initialization,
            algorithm,
            initialization_binding: pairs(&t.initialization_binding),
            update_binding: pairs(&t.update_binding),
        });
    }

    let model = Model {
        ir_version: proto.ir_version,
        opset_imports: imports
            .iter()
            .map(|o| OpsetImport {
                domain: o.domain.clone(),
                version: o.version,
            })
            .collect(),
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

/// True for names of the C90 identifier form `[A-Za-z_][A-Za-z0-9_]*`.
fn is_c90_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The Constant schema for an initializer carried in attribute `attr`:
/// the version the region's ai.onnx opset resolves to, or the first
/// version that has the attribute when that one lacks it (sparse
/// initializers in a model of opset below 11), or the newest version when
/// ai.onnx is not imported.
fn constant_schema(opsets: &Opsets, attr: &str) -> &'static OpSchema {
    let versions = OpKind::Constant.versions();
    let newest = versions.last().expect("Constant has versions");
    match opsets.get("") {
        Some(v) => OpKind::Constant
            .schema(v)
            .filter(|s| s.attr(attr).is_some())
            .or_else(|| versions.iter().find(|s| s.attr(attr).is_some()))
            .unwrap_or(newest),
        None => newest,
    }
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
/// UNDEFINED (IR version 1), the kind of the one field that is set.
fn attr_type(a: &AttributeProto) -> Result<AttributeType, String> {
    use AttributeType as T;
    match T::try_from(a.r#type) {
        Ok(T::Undefined) => [
            (a.f != 0.0, T::Float),
            (a.i != 0, T::Int),
            (!a.s.is_empty(), T::String),
            (a.t.is_some(), T::Tensor),
            (a.g.is_some(), T::Graph),
            (a.sparse_tensor.is_some(), T::SparseTensor),
            (a.tp.is_some(), T::TypeProto),
            (!a.floats.is_empty(), T::Floats),
            (!a.ints.is_empty(), T::Ints),
            (!a.strings.is_empty(), T::Strings),
            (!a.tensors.is_empty(), T::Tensors),
            (!a.graphs.is_empty(), T::Graphs),
            (!a.sparse_tensors.is_empty(), T::SparseTensors),
            (!a.type_protos.is_empty(), T::TypeProtos),
        ]
        .into_iter()
        .find_map(|(set, t)| set.then_some(t))
        .ok_or_else(|| format!("attribute {:?} has neither a type nor a value", a.name)),
        Ok(t) => Ok(t),
        Err(_) => Err(format!(
            "attribute {:?} has unknown type {}",
            a.name, a.r#type
        )),
    }
}

struct Importer<'a, 'p> {
    options: &'a ImportOptions,
    ir: Ir,
    external: ExternalFiles,
    functions: &'a Functions<'p>,
    /// Keys of the functions being inlined, outermost first.
    call_stack: Vec<String>,
    /// Name prefixes given to inlined call sites so far.
    prefixes: std::collections::HashSet<String>,
    warnings: Vec<Warning>,
    warned_devices: bool,
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

    /// Imports graph `g` into the empty `region`; returns the names it defines.
    fn import_graph(
        &mut self,
        region: RegionId,
        g: &GraphProto,
        parent: Option<&Frame<'_>>,
        ctx: Ctx<'_>,
        depth: usize,
    ) -> Result<HashMap<String, Option<Value>>> {
        let gerr = |message: String| ImportError::graph(&g.name, message);
        self.ir.region_mut(region).meta = meta(&g.doc_string, &g.metadata_props);
        self.check_name(&g.name, "graph");
        if !g.quantization_annotation.is_empty() {
            self.warn(format!(
                "graph {:?}: quantization annotations are not imported",
                g.name
            ));
        }
        let value_info: ValueInfos = g.value_info.iter().map(|v| (v.name.as_str(), v)).collect();
        let mut frame = Frame::new(parent, "graph");

        // Initializers: an input's default, or a Constant.
        let mut initializers: HashMap<&str, &TensorProto> = HashMap::new();
        let sparse_names = g
            .sparse_initializer
            .iter()
            .map(|s| s.values.as_ref().map_or("", |v| v.name.as_str()));
        for name in g
            .initializer
            .iter()
            .map(|t| t.name.as_str())
            .chain(sparse_names.clone())
        {
            if name.is_empty() {
                return Err(gerr("an initializer has no name".into()));
            }
            self.check_name(name, "initializer");
        }
        for t in &g.initializer {
            if initializers.insert(&t.name, t).is_some() {
                return Err(gerr(format!("initializer {:?} is defined twice", t.name)));
            }
        }
        for name in sparse_names {
            if initializers.contains_key(name) {
                return Err(gerr(format!("initializer {name:?} is defined twice")));
            }
        }

        for vi in &g.input {
            if vi.name.is_empty() {
                return Err(gerr("a graph input has no name".into()));
            }
            if frame.names.contains_key(&vi.name) {
                return Err(gerr(format!("input {:?} is declared twice", vi.name)));
            }
            self.check_name(&vi.name, "graph input");
            let ty = self.value_type(Some(vi), &format!("graph input {:?}", vi.name))?;
            let value = self.ir.add_arg(region, Some(ctx.value_name(&vi.name)), ty);
            self.ir.value_mut(value).meta = value_meta(Some(vi));
            if let Some(t) = initializers.remove(vi.name.as_str()) {
                let default = tensor_data(t, &mut self.external)?;
                let arg = self
                    .ir
                    .region_mut(region)
                    .args
                    .last_mut()
                    .expect("the arg just added");
                arg.default = Some(default);
            }
            if g.sparse_initializer
                .iter()
                .any(|s| s.values.as_ref().is_some_and(|v| v.name == vi.name))
            {
                return Err(gerr(format!(
                    "sparse initializer {:?} is also a graph input: sparse input defaults are not supported",
                    vi.name
                )));
            }
            frame.names.insert(vi.name.clone(), Some(value));
        }
        for t in g
            .initializer
            .iter()
            .filter(|t| initializers.contains_key(t.name.as_str()))
        {
            let data = tensor_data(t, &mut self.external)?;
            let ty = Type::Tensor(data.ty());
            let value = self.constant(region, ctx, &t.name, "value", Attr::Tensor(data), ty);
            self.ir.value_mut(value).meta = meta(&t.doc_string, &t.metadata_props);
            frame.names.insert(t.name.clone(), Some(value));
        }
        for s in &g.sparse_initializer {
            let data = sparse_tensor_data(s, &mut self.external)?;
            let values = s.values.as_ref().expect("checked by sparse_tensor_data");
            let ty = Type::SparseTensor(onnx_mlc_dialect::TensorType::new(
                data.values.elem,
                &data.dims,
            ));
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

        self.import_nodes(
            region,
            &g.node,
            &mut frame,
            ctx,
            &value_info,
            depth,
            &g.name,
        )?;

        for vi in &g.output {
            if vi.name.is_empty() {
                return Err(gerr("a graph output has no name".into()));
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
            // The declaration types the value when it is computed here and
            // nothing else typed it; inputs and outer values keep theirs.
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
        Ok(frame.names)
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
        let schema = constant_schema(ctx.opsets, attr);
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

    /// Imports the nodes of a graph or function body in topological order.
    #[allow(clippy::too_many_arguments)]
    fn import_nodes(
        &mut self,
        region: RegionId,
        nodes: &[NodeProto],
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
        value_info: &ValueInfos<'_>,
        depth: usize,
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
                    return Err(ImportError::Node {
                        node: ctx.node_ref(n, i),
                        message: format!("output {o:?} {clash}"),
                    });
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
                subgraph_free_names(n, depth, limit)
                    .map_err(|_| too_deep(ctx.node_ref(n, i), limit))?,
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

        for i in order {
            self.import_node(region, &nodes[i], i, frame, ctx, value_info, depth)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn import_node(
        &mut self,
        region: RegionId,
        node: &NodeProto,
        index: usize,
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
        value_info: &ValueInfos<'_>,
        depth: usize,
    ) -> Result<()> {
        let nref = ctx.node_ref(node, index);
        let fail = |message: String| ImportError::Node {
            node: nref.clone(),
            message,
        };
        let attrs = resolve_refs(&node.attribute, ctx.inline).map_err(fail)?;
        if let Some(f) = self
            .functions
            .get(&node.domain, &node.op_type, &node.overload)
        {
            return self.inline_call(region, node, index, &nref, f, attrs, frame, ctx, depth);
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
                    self.value_type(value_info.get(o.as_str()).copied(), o)?,
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
                .attr(a, op, frame, ctx, depth)
                .map_err(|e| e.in_attr(&a.name).in_node(&nref))?;
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
                self.ir.value_mut(value).meta = value_meta(value_info.get(name.as_str()).copied());
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
        depth: usize,
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
            T::Graph => Attr::Graph(self.subgraph(
                a.g.as_ref().ok_or_else(missing)?,
                op,
                frame,
                ctx,
                depth,
            )?),
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
                    .map(|g| self.subgraph(g, op, frame, ctx, depth))
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
        depth: usize,
    ) -> Result<RegionId> {
        let limit = self.options.max_subgraph_depth;
        if depth + 1 > limit {
            return Err(ImportError::Model(format!(
                "subgraphs nested deeper than {limit}"
            )));
        }
        let region = self.ir.new_region(g.name.clone(), RegionParent::Op(op));
        self.import_graph(region, g, Some(frame), ctx, depth + 1)?;
        Ok(region)
    }

    /// Inlines the body of function `f` for the call `node`.
    #[allow(clippy::too_many_arguments)]
    fn inline_call(
        &mut self,
        region: RegionId,
        node: &NodeProto,
        index: usize,
        nref: &NodeRef,
        f: &Function<'_>,
        attrs: Vec<std::borrow::Cow<'_, AttributeProto>>,
        frame: &mut Frame<'_>,
        ctx: Ctx<'_>,
        depth: usize,
    ) -> Result<()> {
        let fail = |message: String| ImportError::Node {
            node: nref.clone(),
            message,
        };
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
        if depth + 1 > limit {
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
            .map(|(formal, caller)| (formal.clone(), caller.clone()))
            .collect();
        let inline = Inline {
            prefix: self.unique_prefix(ctx.node_name(node, index)),
            formals,
            attrs,
            outputs,
        };
        let body_ctx = Ctx {
            opsets: &f.opsets,
            inline: Some(&inline),
        };
        let value_info: ValueInfos = body
            .value_info
            .iter()
            .map(|v| (v.name.as_str(), v))
            .collect();

        self.call_stack.push(f.key.clone());
        let result = self.import_nodes(
            region,
            &body.node,
            &mut scope,
            body_ctx,
            &value_info,
            depth + 1,
            &body.name,
        );
        self.call_stack.pop();
        let in_function = |e: ImportError| ImportError::InFunction {
            function: f.key.clone(),
            call: nref.clone(),
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

fn too_deep(node: NodeRef, limit: usize) -> ImportError {
    ImportError::Node {
        node,
        message: format!("subgraphs nested deeper than {limit}"),
    }
}
