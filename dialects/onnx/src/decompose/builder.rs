//! The [`Builder`] an expansion builds its ops with: each new op is
//! inserted before the op being replaced and inferred at once, so that an
//! expansion reads the shapes and element types of what it built.

use crate::attr::{Attr, Attrs};
use crate::dim::Dim;
use crate::infer::infer_op;
use crate::ir::{Ir, NewOp, OpData, OpId, RegionId, RegionParent, Value, ValueDef};
use crate::ops::knowledge::Knowledge;
use crate::schema::OpKind;
use crate::tensor::TensorData;
use crate::types::{merge_types, ElemType, TensorType, Type};

/// Builds the ops that replace one op, inserted just before it in its
/// region, each inferred as soon as it is built.
///
/// The fields are open to the expansions (`control.rs` and `gradient.rs`
/// move whole subgraphs into place).
pub(crate) struct Builder<'a> {
    pub(super) ir: &'a mut Ir,
    knowledge: &'a mut Knowledge,
    /// The model's ai.onnx opset: new ops resolve to their schema there.
    pub(super) opset: i64,
    /// The op being replaced.
    pub(super) op: OpId,
    /// The ops built so far, in order.
    pub(super) built: Vec<OpId>,
    /// The body of the loop being built ([`Builder::run_time_loop`]):
    /// new ops go to its end instead of before the op being replaced.
    body: Option<RegionId>,
}

impl<'a> Builder<'a> {
    /// A builder of the replacement of `op`, whose new ops resolve to
    /// their schema at the ai.onnx `opset`.
    pub(super) fn new(
        ir: &'a mut Ir,
        knowledge: &'a mut Knowledge,
        opset: i64,
        op: OpId,
    ) -> Builder<'a> {
        Builder {
            ir,
            knowledge,
            opset,
            op,
            built: vec![],
            body: None,
        }
    }

    /// The op being replaced.
    pub fn target(&self) -> &OpData {
        self.ir.op(self.op)
    }

    /// Input `i` of the op being replaced, when present.
    pub fn input(&self, i: usize) -> Option<Value> {
        self.target().inputs.get(i).copied().flatten()
    }

    /// Whether result `i` of the op being replaced is produced.
    pub fn wants_result(&self, i: usize) -> bool {
        self.target().results.get(i).copied().flatten().is_some()
    }

    /// An attribute of the op being replaced, or its spec default.
    pub fn attr(&self, name: &str) -> Option<Attr> {
        let op = self.target();
        op.attrs
            .get(name)
            .cloned()
            .or_else(|| op.schema().attr(name)?.default.map(|d| d.to_attr()))
    }

    /// The attributes among `names` the op being replaced was given (no
    /// defaults), to hand on to the op replacing it.
    pub fn given_attrs(&self, names: &[&'static str]) -> Vec<(&'static str, Attr)> {
        names
            .iter()
            .filter_map(|&n| Some((n, self.target().attrs.get(n)?.clone())))
            .collect()
    }

    /// An `INT` attribute (or its default).
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        match self.attr(name)? {
            Attr::Int(v) => Some(v),
            _ => None,
        }
    }

    /// A `FLOAT` attribute (or its default).
    pub fn float_attr(&self, name: &str) -> Option<f32> {
        match self.attr(name)? {
            Attr::Float(v) => Some(v),
            _ => None,
        }
    }

    /// An `INTS` attribute (or its default).
    pub fn int_list(&self, name: &str) -> Option<Vec<i64>> {
        match self.attr(name)? {
            Attr::Ints(v) => Some(v),
            _ => None,
        }
    }

    /// The values of a `TENSOR` attribute as `f64`s.
    pub fn tensor_values(&self, name: &str) -> Option<Vec<f64>> {
        match self.attr(name)? {
            Attr::Tensor(t) => t.to_f64s(),
            _ => None,
        }
    }

    /// A `STRING` attribute (or its default).
    pub fn string_attr(&self, name: &str) -> Option<String> {
        match self.attr(name)? {
            Attr::String(v) => String::from_utf8(v).ok(),
            _ => None,
        }
    }

    /// The data of a value a `Constant` produces.
    pub fn constant_data(&self, v: Value) -> Option<&TensorData> {
        let ValueDef::Result(op, 0) = self.ir.value(v).def else {
            return None;
        };
        let op = self.ir.op(op);
        match (op.kind, op.attrs.get("value")) {
            (OpKind::Constant, Some(Attr::Tensor(t))) => Some(t),
            _ => None,
        }
    }

    /// The tensor type of a value, when it is a tensor.
    pub fn tensor(&self, v: Value) -> Option<&TensorType> {
        self.ir.ty(v).as_tensor()
    }

    /// A value's element type.
    pub fn elem(&self, v: Value) -> Option<ElemType> {
        Some(self.tensor(v)?.elem)
    }

    /// A value's shape, when it is fully static.
    pub fn dims(&self, v: Value) -> Option<Vec<i64>> {
        self.tensor(v)?.static_dims()
    }

    /// A value's dims, static or symbolic; `None` when its rank or one of
    /// its sizes is unknown.
    pub fn sym_dims(&self, v: Value) -> Option<Vec<Dim>> {
        let dims = self.tensor(v)?.dims()?;
        (!dims.contains(&Dim::Unknown)).then(|| dims.to_vec())
    }

    /// Dim `axis` of `v` as a [`Size`]: fixed when it is static.
    pub fn size(&self, v: Value, axis: usize) -> Option<Size> {
        Some(match self.sym_dims(v)?.get(axis)? {
            Dim::Known(n) => Size::Fixed(*n),
            _ => Size::Of(v, axis),
        })
    }

    /// A 1-D int64 vector of `sizes`: a constant when all are fixed, else
    /// the `Shape` slices (a `Gather` of the shape before opset 15) and
    /// constants concatenated, whose inferred value keeps each symbolic
    /// size (so that a Reshape or Expand to it has symbolic dims). `None`
    /// before opset 9 (no int64 constants).
    pub fn size_vector(&mut self, sizes: &[Size]) -> Option<Value> {
        let mut parts = vec![];
        let mut fixed = vec![];
        for size in sizes {
            match *size {
                Size::Fixed(n) => fixed.push(n),
                Size::Of(v, axis) => {
                    if !fixed.is_empty() {
                        parts.push(self.ints(&std::mem::take(&mut fixed))?);
                    }
                    let (start, end) = (axis as i64, axis as i64 + 1);
                    if self.opset < 15 {
                        let shape = self.op(OpKind::Shape, &[v], &[])?;
                        let index = self.ints(&[start])?;
                        parts.push(self.op(OpKind::Gather, &[shape, index], &[])?);
                    } else {
                        let attrs = [("start", Attr::Int(start)), ("end", Attr::Int(end))];
                        parts.push(self.op(OpKind::Shape, &[v], &attrs)?);
                    }
                }
            }
        }
        if !fixed.is_empty() || parts.is_empty() {
            parts.push(self.ints(&fixed)?);
        }
        match parts[..] {
            [one] => Some(one),
            _ => self.op(OpKind::Concat, &parts, &[("axis", Attr::Int(0))]),
        }
    }

    /// Size `s` as an int64 scalar: a constant when it is fixed, else
    /// its `Shape` slice reshaped to a scalar.
    pub fn size_scalar(&mut self, s: Size) -> Option<Value> {
        match s {
            Size::Fixed(n) => self.constant(TensorData::scalar(n)),
            Size::Of(..) => {
                let vector = self.size_vector(&[s])?;
                self.reshape(vector, &[])
            }
        }
    }

    /// Zeros of a floating-point `elem` and `sizes`: a constant when all
    /// are fixed, else a `ConstantOfShape` of their [`Builder::size_vector`].
    pub fn zeros(&mut self, elem: ElemType, sizes: &[Size]) -> Option<Value> {
        let fixed: Option<Vec<i64>> = sizes
            .iter()
            .map(|s| match s {
                Size::Fixed(n) => Some(*n),
                Size::Of(..) => None,
            })
            .collect();
        if let Some(dims) = fixed {
            let n = dims.iter().product::<i64>() as usize;
            return self.floats(elem, dims, &vec![0.0; n]);
        }
        let shape = self.size_vector(sizes)?;
        let zero = Attr::Tensor(float_data(elem, vec![1], &[0.0])?);
        self.op(OpKind::ConstantOfShape, &[shape], &[("value", zero)])
    }

    /// `x[start..end]` along `axis` (bounds clamped as the spec says; a
    /// negative one counts from the end): `Slice` with inputs from opset
    /// 10, with attributes before.
    pub fn slice(&mut self, x: Value, axis: i64, start: i64, end: i64) -> Option<Value> {
        if self.opset < 10 {
            let bounds = [
                ("starts", Attr::Ints(vec![start])),
                ("ends", Attr::Ints(vec![end])),
                ("axes", Attr::Ints(vec![axis])),
            ];
            return self.op(OpKind::Slice, &[x], &bounds);
        }
        let starts = self.ints(&[start])?;
        let ends = self.ints(&[end])?;
        let axes = self.ints(&[axis])?;
        self.op(OpKind::Slice, &[x, starts, ends, axes], &[])
    }

    /// `x` reversed along `axis` (a `Slice` of step -1 over the whole axis).
    pub fn reverse(&mut self, x: Value, axis: i64) -> Option<Value> {
        let (start, end) = (self.ints(&[-1])?, self.ints(&[i64::MIN])?);
        let (axes, steps) = (self.ints(&[axis])?, self.ints(&[-1])?);
        self.op(OpKind::Slice, &[x, start, end, axes, steps], &[])
    }

    /// A 1-D int64 vector with one entry per group of `groups`, the
    /// product of its sizes: a constant when all are fixed, else built
    /// from `Shape` slices ([`Builder::size_vector`]) and `Mul`s, whose
    /// inferred value keeps the symbolic products (`("M"*"N")`).
    pub fn product_vector(&mut self, groups: &[Vec<Size>]) -> Option<Value> {
        // Per group: its fixed sizes multiplied into one, then the others.
        let folded: Vec<Vec<Size>> = groups
            .iter()
            .map(|g| {
                let fixed: i64 = g
                    .iter()
                    .filter_map(|s| match s {
                        Size::Fixed(n) => Some(*n),
                        Size::Of(..) => None,
                    })
                    .product();
                let of = g.iter().filter(|s| matches!(s, Size::Of(..))).copied();
                let mut out: Vec<Size> = of.collect();
                if fixed != 1 || out.is_empty() {
                    out.insert(0, Size::Fixed(fixed));
                }
                out
            })
            .collect();
        if folded.iter().all(|g| g.len() == 1) {
            return self.size_vector(&folded.concat());
        }
        let mut parts = vec![];
        for group in &folded {
            let mut product = self.size_vector(&group[..1])?;
            for &size in &group[1..] {
                let factor = self.size_vector(&[size])?;
                product = self.binary(OpKind::Mul, product, factor)?;
            }
            parts.push(product);
        }
        self.op(OpKind::Concat, &parts, &[("axis", Attr::Int(0))])
    }

    /// The int64 vector `0, 1, …, n-1`: a constant when `n` is fixed, else
    /// the exclusive running sum of `n` ones.
    pub fn iota(&mut self, n: Size) -> Option<Value> {
        match n {
            Size::Fixed(n) => self.ints(&(0..n).collect::<Vec<_>>()),
            Size::Of(..) => {
                let one = self.constant(TensorData::scalar(1i64))?;
                let shape = self.size_vector(&[n])?;
                let ones = self.op(OpKind::Expand, &[one, shape], &[])?;
                let axis = self.constant(TensorData::scalar(0i64))?;
                self.op(
                    OpKind::CumSum,
                    &[ones, axis],
                    &[("exclusive", Attr::Int(1))],
                )
            }
        }
    }

    /// The contents of a small integer or bool value, when inference
    /// knows them all (bools as 0/1).
    pub fn known(&self, v: Value) -> Option<Vec<i64>> {
        self.knowledge.values.get(&v)?.as_known()
    }

    /// The declared element type of result `i` of the op being replaced.
    pub fn result_elem(&self, i: usize) -> Option<ElemType> {
        let r = self.target().results.get(i).copied().flatten()?;
        self.ir.ty(r).elem()
    }

    /// A value's rank, when known.
    pub fn rank(&self, v: Value) -> Option<usize> {
        self.tensor(v)?.rank()
    }

    /// Builds an op with `n` results, resolved at the model's opset, and
    /// infers it; `None` when the op does not exist at that opset or its
    /// inference rejects it.
    pub fn node(
        &mut self,
        kind: OpKind,
        inputs: &[Option<Value>],
        attrs: &[(&str, Attr)],
        n: usize,
    ) -> Option<Vec<Value>> {
        let version = kind.schema(self.opset)?.since_version;
        let new = self.new_op(kind, version, inputs, attrs, &vec![true; n]);
        let id = self.insert(new)?;
        Some(self.all_results(id))
    }

    /// An op of `kind` at `version` named after the op being replaced,
    /// with the results `want` says, of types still unknown.
    fn new_op(
        &self,
        kind: OpKind,
        version: u32,
        inputs: &[Option<Value>],
        attrs: &[(&str, Attr)],
        want: &[bool],
    ) -> NewOp {
        NewOp {
            kind,
            version,
            inputs: inputs.to_vec(),
            results: want
                .iter()
                .map(|&w| w.then_some((None, Type::Unknown)))
                .collect(),
            attrs: Attrs(
                attrs
                    .iter()
                    .map(|(k, a)| (k.to_string(), a.clone()))
                    .collect(),
            ),
            name: self.target().name.clone(),
        }
    }

    /// Builds a composite op of `kind` at `version` (whatever the model
    /// imports of its domain) and expands it at once with `expand` (its
    /// expansion), so that an expansion can reuse another (a contrib
    /// attention as ai.onnx Attention-23): the values of the op's
    /// expansion, one per result (`want` says which results are needed).
    /// `None` when the expansion does not handle the op; the op never
    /// outlives the expansion.
    pub fn expanded(
        &mut self,
        expand: fn(&mut Builder) -> Option<Vec<Option<Value>>>,
        (kind, version): (OpKind, u32),
        inputs: &[Option<Value>],
        attrs: &[(&str, Attr)],
        want: &[bool],
    ) -> Option<Vec<Option<Value>>> {
        kind.schema_exact(version)?;
        let new = self.new_op(kind, version, inputs, attrs, want);
        let id = self.insert(new)?;
        let mut inner = Builder::new(self.ir, self.knowledge, self.opset, id);
        let results = expand(&mut inner);
        let built = inner.built.clone();
        let Some(results) = results else {
            inner.discard();
            return None;
        };
        if !inner.commit(&results) {
            return None;
        }
        self.built.extend(built);
        Some(results)
    }

    /// Inserts `new` just before the op being replaced (or at the end of
    /// the loop body being built) and infers it; `None` when its inference
    /// rejects it.
    pub(super) fn insert(&mut self, new: NewOp) -> Option<OpId> {
        let id = self.place(new);
        infer_op(self.ir, id, self.knowledge).ok()?;
        Some(id)
    }

    /// Inserts `new` where [`Builder::insert`] does, without inferring it.
    fn place(&mut self, new: NewOp) -> OpId {
        let id = match self.body {
            Some(body) => self.ir.append_op(body, new),
            None => {
                let region = self.target().parent;
                let position = self
                    .ir
                    .region(region)
                    .ops
                    .iter()
                    .position(|&o| o == self.op)
                    .expect("op is in its region");
                self.ir.insert_op(region, position, new)
            }
        };
        self.built.push(id);
        id
    }

    /// A `Loop` of `trips` iterations (an int64 scalar known at run time;
    /// no condition) carrying `initial`: run-time control flow, which the
    /// host program runs (`compiler/program`). `step` builds one iteration
    /// inside the loop's body from the iteration number (an int64 scalar)
    /// and the carried values, and returns the next carried values and the
    /// iteration's outputs, which the Loop stacks along a new leading axis.
    /// Returns the final carried values, then the stacked outputs. Ops that
    /// `step` builds read the enclosing graphs' values directly.
    pub fn run_time_loop(
        &mut self,
        trips: Value,
        initial: &[Value],
        step: impl FnOnce(&mut Builder, Value, &[Value]) -> Option<(Vec<Value>, Vec<Value>)>,
    ) -> Option<Vec<Value>> {
        let body = self.ir.new_region("loop_body", RegionParent::Top);
        // Names of the body's inputs and outputs, unique by the region.
        let name = |what: &str| format!("loop{}_{what}", body.index());
        let scalar = |elem| Type::Tensor(TensorType::with_dims(elem, vec![]));
        let iteration = self
            .ir
            .add_arg(body, Some(name("iteration")), scalar(ElemType::I64));
        let cond = self
            .ir
            .add_arg(body, Some(name("cond")), scalar(ElemType::Bool));
        let carried: Vec<Value> = initial
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                let ty = self.ir.ty(v).clone();
                self.ir
                    .add_arg(body, Some(name(&format!("carried{k}"))), ty)
            })
            .collect();
        let outer = self.body.replace(body);
        let built = step(self, iteration, &carried);
        self.body = outer;
        let (next, outputs) = built?;
        if next.len() != initial.len() {
            return None;
        }
        for (k, &v) in std::iter::once(&cond)
            .chain(&next)
            .chain(&outputs)
            .enumerate()
        {
            self.ir.add_output(body, name(&format!("out{k}")), v);
        }
        let mut inputs = vec![Some(trips), None];
        inputs.extend(initial.iter().map(|&v| Some(v)));
        let n = initial.len() + outputs.len();
        let new = NewOp {
            kind: OpKind::Loop,
            version: OpKind::Loop.schema(self.opset)?.since_version,
            inputs,
            results: vec![Some((None, Type::Unknown)); n],
            attrs: Attrs(vec![("body".to_string(), Attr::Graph(body))]),
            name: self.target().name.clone(),
        };
        let id = self.place(new);
        self.ir.region_mut(body).parent = RegionParent::Op(id);
        infer_op(self.ir, id, self.knowledge).ok()?;
        Some(self.all_results(id))
    }

    /// The results of op `id`, built with all of them requested.
    fn all_results(&self, id: OpId) -> Vec<Value> {
        self.ir
            .op(id)
            .results
            .iter()
            .map(|r| r.expect("all results requested"))
            .collect()
    }

    /// Builds a one-result op on present inputs.
    pub fn op(&mut self, kind: OpKind, inputs: &[Value], attrs: &[(&str, Attr)]) -> Option<Value> {
        let inputs: Vec<Option<Value>> = inputs.iter().copied().map(Some).collect();
        Some(self.node(kind, &inputs, attrs, 1)?[0])
    }

    /// A `Constant` holding `data`.
    pub fn constant(&mut self, data: TensorData) -> Option<Value> {
        self.op(OpKind::Constant, &[], &[("value", Attr::Tensor(data))])
    }

    /// A 1-D int64 constant.
    pub fn ints(&mut self, values: &[i64]) -> Option<Value> {
        self.constant(TensorData::i64s(values))
    }

    /// A floating-point constant of element type `elem` and shape `dims`.
    pub fn floats(&mut self, elem: ElemType, dims: Vec<i64>, values: &[f64]) -> Option<Value> {
        self.constant(float_data(elem, dims, values)?)
    }

    /// A floating-point scalar of element type `elem`.
    pub fn scalar(&mut self, elem: ElemType, value: f64) -> Option<Value> {
        self.floats(elem, vec![], &[value])
    }

    /// `x` converted to `elem` (no op when it already is).
    pub fn cast(&mut self, x: Value, elem: ElemType) -> Option<Value> {
        if self.elem(x)? == elem {
            return Some(x);
        }
        self.op(
            OpKind::Cast,
            &[x],
            &[("to", Attr::Int(i64::from(elem.onnx_code())))],
        )
    }

    /// A binary op.
    pub fn binary(&mut self, kind: OpKind, a: Value, b: Value) -> Option<Value> {
        self.op(kind, &[a, b], &[])
    }

    /// A unary op.
    pub fn unary(&mut self, kind: OpKind, x: Value) -> Option<Value> {
        self.op(kind, &[x], &[])
    }

    /// `Where(cond, a, b)`.
    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Option<Value> {
        self.op(OpKind::Where, &[cond, a, b], &[])
    }

    /// A reduction over `axes` (`keepdims` as given), whichever way the
    /// opset takes the axes (attribute before ReduceSum-13 and the other
    /// reductions' 18, an input since).
    pub fn reduce(
        &mut self,
        kind: OpKind,
        x: Value,
        axes: &[i64],
        keepdims: bool,
    ) -> Option<Value> {
        let keep = ("keepdims", Attr::Int(i64::from(keepdims)));
        if axes_are_input(kind, self.opset)? {
            let axes = self.ints(axes)?;
            self.op(kind, &[x, axes], &[keep])
        } else {
            self.op(kind, &[x], &[keep, ("axes", Attr::Ints(axes.to_vec()))])
        }
    }

    /// `Unsqueeze` (or `Squeeze`) over `axes`, with the axes as the opset
    /// takes them (an input since opset 13).
    pub fn squeeze_like(&mut self, kind: OpKind, x: Value, axes: &[i64]) -> Option<Value> {
        if axes_are_input(kind, self.opset)? {
            let axes = self.ints(axes)?;
            self.op(kind, &[x, axes], &[])
        } else {
            self.op(kind, &[x], &[("axes", Attr::Ints(axes.to_vec()))])
        }
    }

    /// `Reshape(x, shape)` (0 copies the input dim, -1 is inferred).
    pub fn reshape(&mut self, x: Value, shape: &[i64]) -> Option<Value> {
        let shape = self.ints(shape)?;
        self.op(OpKind::Reshape, &[x, shape], &[])
    }

    /// `Transpose(x, perm)`.
    pub fn transpose(&mut self, x: Value, perm: &[i64]) -> Option<Value> {
        self.op(
            OpKind::Transpose,
            &[x],
            &[("perm", Attr::Ints(perm.to_vec()))],
        )
    }

    /// Replaces the op by `results` (one per result of the op, absent
    /// results may be left out at the end): each takes over the name, metadata,
    /// declared type and uses of the op's result at its position, and the
    /// op leaves its region. A replacement whose inferred type contradicts
    /// the declared one discards the expansion instead. Returns whether
    /// the op was replaced.
    pub(super) fn commit(self, results: &[Option<Value>]) -> bool {
        let old: Vec<Option<Value>> = self.target().results.clone();
        let mut merged = vec![];
        for (i, o) in old.iter().enumerate() {
            match (o, results.get(i).copied().flatten()) {
                (Some(o), Some(n)) => match merge_types(self.ir.ty(*o), self.ir.ty(n)) {
                    Some(ty) => merged.push((*o, n, ty)),
                    None => {
                        self.discard();
                        return false;
                    }
                },
                (Some(_), None) => {
                    self.discard();
                    return false;
                }
                (None, _) => {}
            }
        }
        let region = self.target().parent;
        for (old, new, ty) in merged {
            let name = self.ir.value_mut(old).name.take();
            let meta = self.ir.value_mut(old).meta.take();
            let value = self.ir.value_mut(new);
            value.ty = ty;
            // A result that is a graph output twice over, or a value used
            // as another result: the first keeps the name.
            if value.name.is_none() {
                value.name = name;
                value.meta = meta;
            }
            self.ir.replace_uses(region, old, new);
        }
        self.ir.detach_op(self.op);
        true
    }

    /// Removes what was built: the op stays as it was.
    pub(super) fn discard(self) {
        for op in self.built {
            self.ir.detach_op(op);
        }
    }
}

/// A size an expansion builds with when shapes may be symbolic: static,
/// or dim `axis` of a value (read with `Shape` at run time).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Size {
    /// A static size.
    Fixed(i64),
    /// Dim `axis` of the value.
    Of(Value, usize),
}

/// Whether `kind` takes its axes as an input (rather than an attribute)
/// at `opset`; `None` when the op does not exist there.
fn axes_are_input(kind: OpKind, opset: i64) -> Option<bool> {
    Some(kind.schema(opset)?.inputs.iter().any(|p| p.name == "axes"))
}

/// A tensor of a floating-point element type from `f64` values (rounded
/// to the type); `None` for other element types.
pub(super) fn float_data(elem: ElemType, dims: Vec<i64>, values: &[f64]) -> Option<TensorData> {
    let data = match elem {
        ElemType::F64 => TensorData::from_vec(dims, values),
        ElemType::F32 => {
            TensorData::from_vec(dims, &values.iter().map(|&v| v as f32).collect::<Vec<_>>())
        }
        ElemType::F16 => TensorData::from_vec(
            dims,
            &values
                .iter()
                .map(|&v| half::f16::from_f64(v))
                .collect::<Vec<_>>(),
        ),
        ElemType::BF16 => TensorData::from_vec(
            dims,
            &values
                .iter()
                .map(|&v| half::bf16::from_f64(v))
                .collect::<Vec<_>>(),
        ),
        _ => return None,
    };
    data.ok()
}
