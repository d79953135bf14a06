//! `tensor`: fresh tensors, elements, sizes, slices and reshapes.

use melior::ir::attribute::{ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute};
use melior::ir::operation::OperationBuilder;
use melior::ir::r#type::RankedTensorType;
use melior::ir::{Attribute, Identifier, Type, Value, ValueLike};

use super::attr::i64_attr;
use super::linalg::elem_of;
use super::{dynamic_sizes, Emitter, Size, DYNAMIC};

/// `tensor<dims x elem>` ([`DYNAMIC`] dims are `?`).
pub fn ranked_tensor<'c>(dims: &[i64], elem: Type<'c>) -> Type<'c> {
    let dims: Vec<u64> = dims.iter().map(|&d| d as u64).collect();
    RankedTensorType::new(&dims, elem, None).into()
}

/// The dims of a shaped type for run-time `sizes`.
fn type_dims(sizes: &[Size]) -> Vec<i64> {
    sizes.iter().map(Size::type_dim).collect()
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// `tensor.empty` of run-time `sizes` × `elem` (static where they are).
    pub fn empty(&self, sizes: &[Size<'c, 'a>], elem: Type<'c>) -> Value<'c, 'a> {
        let ty = ranked_tensor(&type_dims(sizes), elem);
        self.value(
            OperationBuilder::new("tensor.empty", self.loc)
                .add_operands(&dynamic_sizes(sizes))
                .add_results(&[ty])
                .build()
                .expect("a well-formed tensor.empty"),
        )
    }

    /// `tensor.extract t[at…]`.
    pub fn extract(&self, t: Value<'c, '_>, at: &[Value<'c, '_>]) -> Value<'c, 'a> {
        let mut operands = vec![t];
        operands.extend(at.iter().copied());
        self.value(
            OperationBuilder::new("tensor.extract", self.loc)
                .add_operands(&operands)
                .add_results(&[elem_of(t)])
                .build()
                .expect("a well-formed tensor.extract"),
        )
    }

    /// `tensor.insert v into t[at…]`: `t` with one element replaced.
    pub fn insert(
        &self,
        v: Value<'c, '_>,
        t: Value<'c, '_>,
        at: &[Value<'c, '_>],
    ) -> Value<'c, 'a> {
        let mut operands = vec![v, t];
        operands.extend(at.iter().copied());
        self.value(
            OperationBuilder::new("tensor.insert", self.loc)
                .add_operands(&operands)
                .add_results(&[t.r#type()])
                .build()
                .expect("a well-formed tensor.insert"),
        )
    }

    /// `tensor.dim t, i`.
    fn dim(&self, t: Value<'c, '_>, i: Value<'c, '_>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("tensor.dim", self.loc)
                .add_operands(&[t, i])
                .add_results(&[Type::index(self.cx)])
                .build()
                .expect("a well-formed tensor.dim"),
        )
    }

    /// The run-time sizes of tensor `t` of `dims`: the static ones as they
    /// are, `tensor.dim` for the dynamic ones.
    pub fn sizes_of(&self, t: Value<'c, '_>, dims: &[i64]) -> Vec<Size<'c, 'a>> {
        dims.iter()
            .enumerate()
            .map(|(i, &d)| {
                if d == DYNAMIC {
                    Size::Dynamic(self.dim(t, self.index(i as i64)))
                } else {
                    Size::Static(d)
                }
            })
            .collect()
    }

    /// `tensor.from_elements` of `elems` into a tensor of type `ty`.
    pub fn from_elements(&self, elems: &[Value<'c, '_>], ty: Type<'c>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("tensor.from_elements", self.loc)
                .add_operands(elems)
                .add_results(&[ty])
                .build()
                .expect("a well-formed tensor.from_elements"),
        )
    }

    /// `tensor.extract_slice` of `t` at `offsets` with `sizes` (static or
    /// run-time) and static `strides`.
    pub fn extract_slice(
        &self,
        t: Value<'c, 'a>,
        offsets: &[Size<'c, 'a>],
        sizes: &[Size<'c, 'a>],
        strides: &[i64],
    ) -> Value<'c, 'a> {
        let ty = ranked_tensor(&type_dims(sizes), elem_of(t));
        self.value(self.slice(
            "tensor.extract_slice",
            &[t],
            Some(ty),
            offsets,
            sizes,
            strides,
        ))
    }

    /// `tensor.insert_slice` of `t` into `dest` at `offsets` (static or
    /// run-time), `t`'s `sizes`, unit strides.
    pub fn insert_slice(
        &self,
        t: Value<'c, 'a>,
        dest: Value<'c, 'a>,
        offsets: &[Size<'c, 'a>],
        sizes: &[Size<'c, 'a>],
    ) -> Value<'c, 'a> {
        let op = self.insertion("tensor.insert_slice", (t, dest), offsets, sizes);
        self.value(op)
    }

    /// `tensor.parallel_insert_slice` of `t` into `dest` (a shared output
    /// of the enclosing `scf.forall`), as [`Emitter::insert_slice`]: the
    /// terminator's one op.
    pub fn parallel_insert_slice(
        &self,
        t: Value<'c, 'a>,
        dest: Value<'c, 'a>,
        offsets: &[Size<'c, 'a>],
        sizes: &[Size<'c, 'a>],
    ) {
        let op = self.insertion("tensor.parallel_insert_slice", (t, dest), offsets, sizes);
        self.append(op);
    }

    /// An insertion op of `name` of `t` into `dest`, with unit strides
    /// (a result of `dest`'s type unless it is the parallel insertion).
    fn insertion(
        &self,
        name: &str,
        (t, dest): (Value<'c, 'a>, Value<'c, 'a>),
        offsets: &[Size<'c, 'a>],
        sizes: &[Size<'c, 'a>],
    ) -> melior::ir::Operation<'c> {
        let strides = vec![1; sizes.len()];
        let ty = (name != "tensor.parallel_insert_slice").then(|| dest.r#type());
        self.slice(name, &[t, dest], ty, offsets, sizes, &strides)
    }

    /// A slice op of `name` over `tensors` (the source, and the
    /// destination of an insert) of result type `ty` (none for a parallel
    /// insert).
    fn slice(
        &self,
        name: &str,
        tensors: &[Value<'c, 'a>],
        ty: Option<Type<'c>>,
        offsets: &[Size<'c, 'a>],
        sizes: &[Size<'c, 'a>],
        strides: &[i64],
    ) -> melior::ir::Operation<'c> {
        let (off, siz) = (dynamic_sizes(offsets), dynamic_sizes(sizes));
        let mut segments = vec![1; tensors.len()];
        segments.extend([off.len() as i32, siz.len() as i32, 0]);
        let mut operands = tensors.to_vec();
        operands.extend(off.into_iter().chain(siz));
        let id = |name| Identifier::new(self.cx, name);
        OperationBuilder::new(name, self.loc)
            .add_operands(&operands)
            .add_results(ty.as_slice())
            .add_attributes(&[
                (
                    id("static_offsets"),
                    DenseI64ArrayAttribute::new(self.cx, &type_dims(offsets)).into(),
                ),
                (
                    id("static_sizes"),
                    DenseI64ArrayAttribute::new(self.cx, &type_dims(sizes)).into(),
                ),
                (
                    id("static_strides"),
                    DenseI64ArrayAttribute::new(self.cx, strides).into(),
                ),
                (
                    id("operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(self.cx, &segments).into(),
                ),
            ])
            .build()
            .unwrap_or_else(|e| panic!("building {name}: {e}"))
    }

    /// `tensor.collapse_shape` of `t` into type `ty`, merging the dims of
    /// each group of `reassociation`.
    pub fn collapse_shape(
        &self,
        t: Value<'c, '_>,
        reassociation: &[Vec<i64>],
        ty: Type<'c>,
    ) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("tensor.collapse_shape", self.loc)
                .add_operands(&[t])
                .add_results(&[ty])
                .add_attributes(&[(
                    Identifier::new(self.cx, "reassociation"),
                    self.reassociation(reassociation),
                )])
                .build()
                .expect("a well-formed tensor.collapse_shape"),
        )
    }

    /// `tensor.expand_shape` of `t` into run-time `sizes` × `elem`,
    /// splitting each dim of `t` into a group of `reassociation`.
    pub fn expand_shape(
        &self,
        t: Value<'c, '_>,
        reassociation: &[Vec<i64>],
        sizes: &[Size<'c, 'a>],
        elem: Type<'c>,
    ) -> Value<'c, 'a> {
        let dims = type_dims(sizes);
        let mut operands = vec![t];
        operands.extend(dynamic_sizes(sizes));
        self.value(
            OperationBuilder::new("tensor.expand_shape", self.loc)
                .add_operands(&operands)
                .add_results(&[ranked_tensor(&dims, elem)])
                .add_attributes(&[
                    (
                        Identifier::new(self.cx, "reassociation"),
                        self.reassociation(reassociation),
                    ),
                    (
                        Identifier::new(self.cx, "static_output_shape"),
                        DenseI64ArrayAttribute::new(self.cx, &dims).into(),
                    ),
                ])
                .build()
                .expect("a well-formed tensor.expand_shape"),
        )
    }

    /// `[[0], [1, 2], …]`: the groups of dims a reshape merges or splits.
    fn reassociation(&self, groups: &[Vec<i64>]) -> Attribute<'c> {
        let groups: Vec<Attribute> = groups
            .iter()
            .map(|g| {
                let dims: Vec<Attribute> = g.iter().map(|&i| i64_attr(self.cx, i)).collect();
                ArrayAttribute::new(self.cx, &dims).into()
            })
            .collect();
        ArrayAttribute::new(self.cx, &groups).into()
    }
}
