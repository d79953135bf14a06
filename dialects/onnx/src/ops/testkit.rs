//! Hand-built models for the op families' unit tests: a few lines build a
//! graph (and its subgraphs), run inference, and read back result types in
//! their text form.

use crate::attr::Attr;
use crate::dim::Dim;
use crate::error::Error;
use crate::infer::{infer_region, Knowledge, SymTensor};
use crate::ir::{Model, NewOp, OpsetImport, RegionId, RegionParent, Value};
use crate::schema::OpKind;
use crate::tensor::TensorData;
use crate::types::{ElemType, TensorType, Type};

/// A tensor type from a compact shape: dims separated by commas, `?` for
/// an unknown dim, a name for a dim_param, `*` for unknown rank, and the
/// empty string for a scalar (`t(F32, "2,?,N")`).
pub fn t(elem: ElemType, shape: &str) -> Type {
    if shape == "*" {
        return Type::Tensor(TensorType::unranked(elem));
    }
    let dims = shape
        .split(',')
        .filter(|d| !d.is_empty())
        .map(|d| match d {
            "?" => Dim::Unknown,
            _ => d.parse().map(Dim::Known).unwrap_or_else(|_| Dim::param(d)),
        })
        .collect();
    Type::Tensor(TensorType::with_dims(elem, dims))
}

/// A sequence of `elem`.
pub fn seq(elem: Type) -> Type {
    Type::Sequence(Box::new(elem))
}

/// An optional `elem`.
pub fn opt(elem: Type) -> Type {
    Type::Optional(Box::new(elem))
}

/// A model under construction.
pub struct Graph {
    pub model: Model,
    constants: Vec<(Value, TensorData)>,
}

impl Graph {
    /// An empty model importing the newest version of every domain.
    pub fn new() -> Graph {
        let imports = [("", 28), ("ai.onnx.ml", 5), ("ai.onnx.preview.training", 1)]
            .into_iter()
            .map(|(domain, version)| OpsetImport {
                domain: domain.into(),
                version,
            })
            .collect();
        Graph {
            model: Model::new("test", imports),
            constants: vec![],
        }
    }

    /// The main graph.
    pub fn main(&self) -> RegionId {
        self.model.graph
    }

    /// A main-graph input.
    pub fn input(&mut self, name: &str, ty: Type) -> Value {
        self.arg(self.main(), name, ty)
    }

    /// An input of any region.
    pub fn arg(&mut self, region: RegionId, name: &str, ty: Type) -> Value {
        self.model.ir.add_arg(region, Some(name.into()), ty)
    }

    /// A new, empty subgraph, to be given to an op as a GRAPH attribute.
    pub fn region(&mut self, name: &str) -> RegionId {
        self.model.ir.new_region(name, RegionParent::Top)
    }

    /// A `Constant` op in `region`.
    pub fn constant(&mut self, region: RegionId, data: TensorData) -> Value {
        let ty = Type::Tensor(data.ty());
        let outs = self.node(
            region,
            OpKind::Constant,
            28,
            &[],
            &[true],
            vec![("value", Attr::Tensor(data.clone()))],
        );
        let v = outs[0].expect("constant result");
        self.model.ir.value_mut(v).ty = ty;
        self.constants.push((v, data));
        v
    }

    /// An op of the main graph with every input present and `outputs`
    /// results.
    pub fn op(
        &mut self,
        kind: OpKind,
        opset: i64,
        inputs: &[Value],
        outputs: usize,
        attrs: Vec<(&str, Attr)>,
    ) -> Vec<Value> {
        let inputs: Vec<_> = inputs.iter().copied().map(Some).collect();
        let results = vec![true; outputs];
        self.node(self.main(), kind, opset, &inputs, &results, attrs)
            .into_iter()
            .flatten()
            .collect()
    }

    /// An op in `region` resolved at `opset`, with absent inputs (`None`)
    /// and absent results (`false`); regions in the attributes become its
    /// subgraphs.
    pub fn node(
        &mut self,
        region: RegionId,
        kind: OpKind,
        opset: i64,
        inputs: &[Option<Value>],
        results: &[bool],
        attrs: Vec<(&str, Attr)>,
    ) -> Vec<Option<Value>> {
        let version = kind
            .schema(opset)
            .unwrap_or_else(|| panic!("{} has no version at opset {opset}", kind.name()))
            .since_version;
        let attrs =
            crate::attr::Attrs(attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect());
        let subgraphs: Vec<RegionId> = attrs.regions().collect();
        let op = self.model.ir.append_op(
            region,
            NewOp {
                kind,
                version,
                inputs: inputs.to_vec(),
                results: results
                    .iter()
                    .enumerate()
                    .map(|(i, &r)| r.then(|| (Some(format!("r{i}")), Type::Unknown)))
                    .collect(),
                attrs,
                name: format!("{}_{}", kind.name(), self.model.ir.num_ops()),
            },
        );
        for r in subgraphs {
            self.model.ir.region_mut(r).parent = RegionParent::Op(op);
        }
        self.model.ir.op(op).results.clone()
    }

    /// Adds an output to a region.
    pub fn output(&mut self, region: RegionId, value: Value) {
        let name = format!("out{}", self.model.ir.region(region).outputs.len());
        self.model.ir.add_output(region, name, value);
    }

    /// Runs shape inference on the main graph. The values of constants are
    /// known from the start, so that the tests of a family do not depend on
    /// the inference of `Constant` itself.
    pub fn infer(&mut self) -> Result<Knowledge, Error> {
        let mut knowledge = Knowledge::default();
        for (v, data) in &self.constants {
            if let Some(value) = SymTensor::from_data(data) {
                knowledge.values.insert(*v, value);
            }
        }
        infer_region(&mut self.model.ir, self.model.graph, &mut knowledge)?;
        Ok(knowledge)
    }

    /// Runs shape inference, which must fail; returns the message.
    pub fn infer_err(&mut self) -> String {
        match self.infer() {
            Ok(_) => panic!("inference was expected to fail"),
            Err(e) => e.to_string(),
        }
    }

    /// The text form of a value's type.
    pub fn ty(&self, v: Value) -> String {
        self.model.ir.ty(v).to_string()
    }
}
