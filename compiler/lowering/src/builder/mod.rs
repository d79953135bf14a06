//! The builder layer: typed helpers for the MLIR ops the lowering builds,
//! so that the code building MLIR reads like the IR it builds
//! (`e.addi(a, b)`, `e.cmpi(CmpiPredicate::Slt, i, n)`,
//! `d(0) * 2 + d(1)` for an indexing map).
//!
//! This is the bottom layer of the lowering: it knows MLIR, not ONNX.
//! Each file covers one dialect and adds its ops to [`Emitter`] (which
//! appends to one block and returns the results): `arith` and `math`
//! (`arith.rs`), `linalg` (the one `linalg.generic` builder, [`generic`]),
//! `tensor`, `memref`, `scf`, `vector` and `bufferization`. Attributes are built
//! with melior's constructors (`attr.rs`), and affine maps from
//! expressions ([`Expr`]), never parsed from formatted text. Ops whose
//! operands pick the op (a float or an integer add) name it with an enum
//! ([`BinaryOp`], [`CastOp`], [`Predicate`]).

mod affine;
mod arith;
mod attr;
mod bufferization;
mod linalg;
mod memref;
mod scf;
mod tensor;
mod vector;

pub use affine::{d, identity_map, map, projection, Expr};
pub use arith::{BinaryOp, CastOp, CmpfPredicate, CmpiPredicate, Predicate};
pub use attr::unit;
pub use linalg::{elem_of, fill, generic, matmul, try_generic};
pub use tensor::ranked_tensor;
pub use vector::{declare_intrinsics, vector_type};

use melior::ir::operation::OperationLike;
use melior::ir::{
    Block, BlockLike, Location, Operation, OperationRef, Region, RegionLike, Type, Value,
};
use melior::Context;

/// Appends ops to one block.
#[derive(Copy, Clone)]
pub struct Emitter<'c, 'a> {
    /// The context the ops are built in.
    pub cx: &'c Context,
    /// The location every op gets.
    pub loc: Location<'c>,
    /// The block ops are appended to.
    pub block: &'a Block<'c>,
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// `f` of `size` as an `index` operand here, inside a body: a constant
    /// emitted here, or the run-time value computed outside it.
    pub fn sized(
        &self,
        size: Size<'c, '_>,
        f: impl FnOnce(Value<'c, '_>) -> Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        match size {
            Size::Static(n) => f(self.index(n)),
            Size::Dynamic(v) => f(v),
        }
    }

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
}

/// A size at run time: static, or an `index` value.
#[derive(Copy, Clone, Debug)]
pub enum Size<'c, 'a> {
    Static(i64),
    Dynamic(Value<'c, 'a>),
}

/// MLIR's marker of a dynamic size in a shaped type (`?`,
/// `ShapedType::kDynamic`).
pub const DYNAMIC: i64 = i64::MIN;

impl<'c, 'a> Size<'c, 'a> {
    /// Static `dims` as sizes.
    pub fn statics(dims: &[i64]) -> Vec<Size<'c, 'a>> {
        dims.iter().map(|&n| Size::Static(n)).collect()
    }

    /// The size as it appears in a shaped type ([`DYNAMIC`] when it is
    /// known at run time only).
    pub fn type_dim(&self) -> i64 {
        match self {
            Size::Static(n) => *n,
            Size::Dynamic(_) => DYNAMIC,
        }
    }

    /// The size as an `index` value.
    pub fn value(&self, e: &Emitter<'c, 'a>) -> Value<'c, 'a> {
        match self {
            Size::Static(n) => e.index(*n),
            Size::Dynamic(v) => *v,
        }
    }

    /// The product of two sizes: static when both are.
    pub fn times(self, other: Size<'c, 'a>, e: &Emitter<'c, 'a>) -> Size<'c, 'a> {
        match (self, other) {
            (Size::Static(a), Size::Static(b)) => Size::Static(a * b),
            (a, b) => Size::Dynamic(e.muli(a.value(e), b.value(e))),
        }
    }
}

/// The run-time values among `sizes`, in order: the size operands of an op
/// whose result type spells the static ones.
pub fn dynamic_sizes<'c, 'a>(sizes: &[Size<'c, 'a>]) -> Vec<Value<'c, 'a>> {
    sizes
        .iter()
        .filter_map(|s| match s {
            Size::Dynamic(d) => Some(*d),
            Size::Static(_) => None,
        })
        .collect()
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

/// Calls `f` on every op nested in `op`, pre-order.
pub fn walk<'c, 'a>(op: OperationRef<'c, 'a>, f: &mut dyn FnMut(OperationRef<'c, 'a>)) {
    for i in 0..op.region_count() {
        let region = op.region(i).expect("in range");
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(o) = next {
                f(o);
                walk(o, f);
                next = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}
