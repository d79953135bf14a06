//! `vector`: 1-D transfers between tensors and vectors, the casts between
//! vector shapes, splats and broadcasts, and calls of target intrinsics on
//! vectors, for kernels that are written vector by vector rather than
//! vectorized by a schedule.

use std::collections::HashSet;

use melior::dialect::func;
use melior::ir::attribute::{
    ArrayAttribute, BoolAttribute, DenseElementsAttribute, DenseI32ArrayAttribute,
    DenseI64ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute,
    TypeAttribute,
};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::{FunctionType, MemRefType, ShapedTypeLike, TypeLike};
use melior::ir::{
    Attribute, BlockLike, Identifier, Location, Module, Region, Type, Value, ValueLike,
};
use melior::Context;

use super::affine::{d, map};
use super::attr::affine_map_attr;
use super::linalg::elem_of;
use super::{walk, Emitter};

/// The vector type of `shape` × `elem`.
pub fn vector_type<'c>(shape: &[i64], elem: Type<'c>) -> Type<'c> {
    // SAFETY: `elem` is a live type of its context, and the call reads
    // `shape.len()` dims from `shape` during the call only.
    unsafe {
        Type::from_raw(mlir_sys::mlirVectorTypeGet(
            shape.len() as isize,
            shape.as_ptr(),
            elem.to_raw(),
        ))
    }
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// `vector.transfer_read` of `lanes` elements of `t` along its last dim
    /// from `at`; lanes past the end read `pad` unless `in_bounds`.
    pub fn read_vector(
        &self,
        t: Value<'c, '_>,
        at: &[Value<'c, '_>],
        lanes: i64,
        pad: Value<'c, '_>,
        in_bounds: bool,
    ) -> Value<'c, 'a> {
        let mut operands = vec![t];
        operands.extend(at);
        operands.push(pad);
        let segments = [1, at.len() as i32, 1, 0];
        self.value(
            OperationBuilder::new("vector.transfer_read", self.loc)
                .add_operands(&operands)
                .add_results(&[vector_type(&[lanes], elem_of(t))])
                .add_attributes(&self.transfer_attrs(at.len(), in_bounds, &segments))
                .build()
                .expect("a well-formed vector.transfer_read"),
        )
    }

    /// `vector.transfer_write` of the 1-D vector `v` into `t` along its last
    /// dim at `at`; lanes past the end are not written unless `in_bounds`.
    /// Returns the updated tensor.
    pub fn write_vector(
        &self,
        v: Value<'c, '_>,
        t: Value<'c, '_>,
        at: &[Value<'c, '_>],
        in_bounds: bool,
    ) -> Value<'c, 'a> {
        let mut operands = vec![v, t];
        operands.extend(at);
        let segments = [1, 1, at.len() as i32, 0];
        self.value(
            OperationBuilder::new("vector.transfer_write", self.loc)
                .add_operands(&operands)
                .add_results(&[t.r#type()])
                .add_attributes(&self.transfer_attrs(at.len(), in_bounds, &segments))
                .build()
                .expect("a well-formed vector.transfer_write"),
        )
    }

    /// The attributes of a 1-D transfer over a tensor of rank `rank`.
    fn transfer_attrs(
        &self,
        rank: usize,
        in_bounds: bool,
        segments: &[i32],
    ) -> Vec<(Identifier<'c>, Attribute<'c>)> {
        let id = |name| Identifier::new(self.cx, name);
        let minor = map(self.cx, rank, &[d(self.cx, rank - 1)]);
        vec![
            (
                id("in_bounds"),
                ArrayAttribute::new(self.cx, &[BoolAttribute::new(self.cx, in_bounds).into()])
                    .into(),
            ),
            (id("permutation_map"), affine_map_attr(minor)),
            (
                id("operandSegmentSizes"),
                DenseI32ArrayAttribute::new(self.cx, segments).into(),
            ),
        ]
    }

    /// `vector.bitcast` of `v` to the 1-D vector of `elem` of the same bits.
    pub fn bitcast_vector(&self, v: Value<'c, '_>, lanes: i64, elem: Type<'c>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("vector.bitcast", self.loc)
                .add_operands(&[v])
                .add_results(&[vector_type(&[lanes], elem)])
                .build()
                .expect("a well-formed vector.bitcast"),
        )
    }

    /// `vector.shape_cast` of `v` to `ty`.
    pub fn shape_cast(&self, v: Value<'c, '_>, ty: Type<'c>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("vector.shape_cast", self.loc)
                .add_operands(&[v])
                .add_results(&[ty])
                .build()
                .expect("a well-formed vector.shape_cast"),
        )
    }

    /// Element `i` of the vector `v`.
    pub fn extract_lane(&self, v: Value<'c, '_>, i: i64, elem: Type<'c>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("vector.extract", self.loc)
                .add_operands(&[v])
                .add_results(&[elem])
                .add_attributes(&[(
                    Identifier::new(self.cx, "static_position"),
                    DenseI64ArrayAttribute::new(self.cx, &[i]).into(),
                )])
                .build()
                .expect("a well-formed vector.extract"),
        )
    }

    /// `vector.broadcast` of the scalar `x` to `lanes` lanes.
    pub fn broadcast(&self, x: Value<'c, '_>, lanes: i64) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("vector.broadcast", self.loc)
                .add_operands(&[x])
                .add_results(&[vector_type(&[lanes], x.r#type())])
                .build()
                .expect("a well-formed vector.broadcast"),
        )
    }

    /// The constant vector of `values` (one per lane) of integer type
    /// `elem`.
    pub fn int_vector(&self, elem: Type<'c>, values: &[i64]) -> Value<'c, 'a> {
        let ty = vector_type(&[values.len() as i64], elem);
        let lanes: Vec<Attribute> = values
            .iter()
            .map(|&v| IntegerAttribute::new(elem, v).into())
            .collect();
        let value = DenseElementsAttribute::new(ty, &lanes).expect("lanes of the vector's type");
        self.value(
            OperationBuilder::new("arith.constant", self.loc)
                .add_results(&[ty])
                .add_attributes(&[(Identifier::new(self.cx, "value"), value.into())])
                .build()
                .expect("a well-formed arith.constant"),
        )
    }

    /// `vector.multi_reduction <add>` of the 2-D vector `v` over its last
    /// dim, added to the 1-D `acc`.
    pub fn add_rows(&self, v: Value<'c, '_>, acc: Value<'c, '_>) -> Value<'c, 'a> {
        let kind =
            Attribute::parse(self.cx, "#vector.kind<add>").expect("the vector dialect is loaded");
        self.value(
            OperationBuilder::new("vector.multi_reduction", self.loc)
                .add_operands(&[v, acc])
                .add_results(&[acc.r#type()])
                .add_attributes(&[
                    (Identifier::new(self.cx, "kind"), kind),
                    (
                        Identifier::new(self.cx, "reduction_dims"),
                        DenseI64ArrayAttribute::new(self.cx, &[1]).into(),
                    ),
                ])
                .build()
                .expect("a well-formed vector.multi_reduction"),
        )
    }

    /// `vector.reduction` of the 1-D vector `v` to a scalar with `kind`
    /// (`"maximumf"`, `"minimumf"`, `"add"`, …).
    pub fn reduce_vector(&self, kind: &str, v: Value<'c, '_>, elem: Type<'c>) -> Value<'c, 'a> {
        let kind = Attribute::parse(self.cx, &format!("#vector.kind<{kind}>"))
            .expect("a vector combining kind");
        self.value(
            OperationBuilder::new("vector.reduction", self.loc)
                .add_operands(&[v])
                .add_results(&[elem])
                .add_attributes(&[(Identifier::new(self.cx, "kind"), kind)])
                .build()
                .expect("a well-formed vector.reduction"),
        )
    }

    /// A call of the LLVM intrinsic `name` on `args`, of result type `ty`:
    /// a `func.call` of the function of that name, which
    /// [`declare_intrinsics`] declares and LLVM knows by its name. (Not
    /// `llvm.call_intrinsic`: buffer deallocation refuses ops of unknown
    /// memory effects, and the declared intrinsic has none.)
    pub fn intrinsic(&self, name: &str, args: &[Value<'c, '_>], ty: Type<'c>) -> Value<'c, 'a> {
        self.value(func::call(
            self.cx,
            FlatSymbolRefAttribute::new(self.cx, name),
            args,
            &[ty],
            self.loc,
        ))
    }

    /// A call of the LLVM intrinsic `name` that returns nothing (declared
    /// like [`Emitter::intrinsic`]'s).
    pub fn call_intrinsic(&self, name: &str, args: &[Value<'c, '_>]) {
        self.append(func::call(
            self.cx,
            FlatSymbolRefAttribute::new(self.cx, name),
            args,
            &[],
            self.loc,
        ));
    }

    /// `vector.load` of `lanes` elements of the memref `m` along its last
    /// dim from `at`.
    pub fn load_vector(&self, m: Value<'c, '_>, at: &[Value<'c, '_>], lanes: i64) -> Value<'c, 'a> {
        let elem = MemRefType::try_from(m.r#type())
            .expect("a memref")
            .element();
        let mut operands = vec![m];
        operands.extend(at);
        self.value(
            OperationBuilder::new("vector.load", self.loc)
                .add_operands(&operands)
                .add_results(&[vector_type(&[lanes], elem)])
                .build()
                .expect("a well-formed vector.load"),
        )
    }

    /// `vector.store` of the 1-D vector `v` into the memref `m` at `at`.
    pub fn store_vector(&self, v: Value<'c, '_>, m: Value<'c, '_>, at: &[Value<'c, '_>]) {
        let mut operands = vec![v, m];
        operands.extend(at);
        self.append(
            OperationBuilder::new("vector.store", self.loc)
                .add_operands(&operands)
                .build()
                .expect("a well-formed vector.store"),
        );
    }
}

/// Declares in `module` each LLVM intrinsic its functions call
/// ([`Emitter::intrinsic`]) that it does not declare yet, with the type
/// of its first call.
pub fn declare_intrinsics<'c>(cx: &'c Context, module: &Module<'c>) {
    let mut declared = HashSet::new();
    let mut wanted: Vec<(String, FunctionType)> = vec![];
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if let Ok(name) = op.attribute("sym_name") {
            if let Ok(name) = StringAttribute::try_from(name) {
                declared.insert(name.value().to_string());
            }
        }
        walk(op, &mut |inner| {
            let Ok(callee) = inner.attribute("callee") else {
                return;
            };
            let Ok(callee) = FlatSymbolRefAttribute::try_from(callee) else {
                return;
            };
            let name = callee.value().to_string();
            if inner.name().as_string_ref().as_str() == Ok("func.call")
                && name.starts_with("llvm.")
                && !wanted.iter().any(|(n, _)| *n == name)
            {
                let args: Vec<Type> = (0..inner.operand_count())
                    .map(|i| inner.operand(i).expect("in range").r#type())
                    .collect();
                let results: Vec<Type> = (0..inner.result_count())
                    .map(|i| inner.result(i).expect("in range").r#type())
                    .collect();
                wanted.push((name, FunctionType::new(cx, &args, &results)));
            }
        });
        next = op.next_in_block();
    }
    let loc = Location::unknown(cx);
    for (name, ty) in wanted {
        if declared.contains(&name) {
            continue;
        }
        module.body().append_operation(func::func(
            cx,
            StringAttribute::new(cx, &name),
            TypeAttribute::new(ty.into()),
            Region::new(),
            &[(
                Identifier::new(cx, "sym_visibility"),
                StringAttribute::new(cx, "private").into(),
            )],
            loc,
        ));
    }
}
