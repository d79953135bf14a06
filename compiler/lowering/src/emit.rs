//! Small helpers that append ops to a block and return their results, so
//! that code building MLIR reads like the IR it builds.

use melior::ir::attribute::{
    ArrayAttribute, DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::OperationBuilder;
use melior::ir::r#type::{IntegerType, TypeLike};
use melior::ir::{
    Attribute, Block, BlockLike, Identifier, Location, Operation, OperationRef, Region, RegionLike,
    Type, Value, ValueLike,
};
use melior::Context;

/// Appends ops to one block.
#[derive(Copy, Clone)]
pub struct Emitter<'c, 'a> {
    pub cx: &'c Context,
    pub loc: Location<'c>,
    pub block: &'a Block<'c>,
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// An emitter appending to `block`.
    pub fn new(cx: &'c Context, loc: Location<'c>, block: &'a Block<'c>) -> Self {
        Emitter { cx, loc, block }
    }

    /// Appends an op.
    pub fn append(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        self.block.append_operation(op)
    }

    /// Appends an op and returns its only result.
    pub fn value(&self, op: Operation<'c>) -> Value<'c, 'a> {
        self.append(op)
            .result(0)
            .expect("the op has a result")
            .into()
    }

    /// An identifier.
    pub fn id(&self, name: &str) -> Identifier<'c> {
        Identifier::new(self.cx, name)
    }

    /// Parses an attribute (affine maps and the like read best as text).
    pub fn attr(&self, text: &str) -> Attribute<'c> {
        Attribute::parse(self.cx, text).unwrap_or_else(|| panic!("invalid attribute {text}"))
    }

    /// A generic op: `name(operands) {attrs} : results`.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attrs: &[(&str, Attribute<'c>)],
    ) -> Operation<'c> {
        let attrs: Vec<_> = attrs.iter().map(|(n, a)| (self.id(n), *a)).collect();
        OperationBuilder::new(name, self.loc)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(&attrs)
            .build()
            .unwrap_or_else(|e| panic!("building {name}: {e}"))
    }

    /// `arith.constant` of a float type.
    pub fn f(&self, ty: Type<'c>, value: f64) -> Value<'c, 'a> {
        let attr = FloatAttribute::new(self.cx, ty, value).into();
        self.value(self.op("arith.constant", &[], &[ty], &[("value", attr)]))
    }

    /// `arith.constant` of an integer type.
    pub fn i(&self, ty: Type<'c>, value: i64) -> Value<'c, 'a> {
        let attr = IntegerAttribute::new(ty, value).into();
        self.value(self.op("arith.constant", &[], &[ty], &[("value", attr)]))
    }

    /// `arith.constant … : index`.
    pub fn index(&self, value: i64) -> Value<'c, 'a> {
        self.i(Type::index(self.cx), value)
    }

    /// The `iN` type.
    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.cx, bits).into()
    }

    /// A one-result op of `name` on `operands`, typed like the first one.
    pub fn same(&self, name: &str, operands: &[Value<'c, '_>]) -> Value<'c, 'a> {
        self.value(self.op(name, operands, &[operands[0].r#type()], &[]))
    }

    /// `acc + a · b`, the step of a product's reduction. Float steps carry
    /// the `contract` fast-math flag, so that LLVM fuses them into one FMA
    /// wherever they stay scalar (the remainder of a register tile): the
    /// vectorized tiles compute `vector.fma`, and every element of a
    /// product then rounds the same way whichever code computes it.
    pub fn multiply_add(
        &self,
        acc: Value<'c, '_>,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        if acc.r#type().is_integer() {
            let prod = self.same("arith.muli", &[a, b]);
            return self.same("arith.addi", &[acc, prod]);
        }
        let contract = [("fastmath", self.attr("#arith.fastmath<contract>"))];
        let prod = self.value(self.op("arith.mulf", &[a, b], &[a.r#type()], &contract));
        self.value(self.op("arith.addf", &[acc, prod], &[acc.r#type()], &contract))
    }

    /// `arith.cmpf`/`arith.cmpi` with a predicate number.
    pub fn cmp(
        &self,
        name: &str,
        predicate: i64,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        let i1 = self.int_type(1);
        let pred = IntegerAttribute::new(self.int_type(64), predicate).into();
        self.value(self.op(name, &[a, b], &[i1], &[("predicate", pred)]))
    }

    /// `arith.select`.
    pub fn select(&self, c: Value<'c, '_>, a: Value<'c, '_>, b: Value<'c, '_>) -> Value<'c, 'a> {
        self.value(self.op("arith.select", &[c, a, b], &[a.r#type()], &[]))
    }

    /// A conversion op (`arith.sitofp`, `arith.extf`, …) to `ty`.
    pub fn convert(&self, name: &str, a: Value<'c, '_>, ty: Type<'c>) -> Value<'c, 'a> {
        self.value(self.op(name, &[a], &[ty], &[]))
    }

    /// An array of strings attribute (`["parallel", "reduction"]`).
    pub fn str_array(&self, items: &[&str]) -> Attribute<'c> {
        let items: Vec<Attribute> = items
            .iter()
            .map(|s| StringAttribute::new(self.cx, s).into())
            .collect();
        ArrayAttribute::new(self.cx, &items).into()
    }

    /// `operandSegmentSizes = array<i32: …>`.
    pub fn segments(&self, sizes: &[i32]) -> Attribute<'c> {
        DenseI32ArrayAttribute::new(self.cx, sizes).into()
    }
}

/// A region with one block, built by `body` (which receives an emitter for
/// the block and the block's arguments).
pub fn region<'c>(
    cx: &'c Context,
    loc: Location<'c>,
    args: &[Type<'c>],
    body: impl for<'b> FnOnce(Emitter<'c, 'b>, Vec<Value<'c, 'b>>),
) -> Region<'c> {
    let arg_locs: Vec<_> = args.iter().map(|t| (*t, loc)).collect();
    let block = Block::new(&arg_locs);
    {
        let values = (0..args.len())
            .map(|i| block.argument(i).expect("declared").into())
            .collect();
        body(Emitter::new(cx, loc, &block), values);
    }
    let region = Region::new();
    region.append_block(block);
    region
}
