//! `linalg`: the one `linalg.generic` builder, the named ops the lowering
//! uses (`linalg.fill`, `linalg.matmul`), and `linalg.index`.

use melior::ir::attribute::{ArrayAttribute, DenseI32ArrayAttribute};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::{RankedTensorType, ShapedTypeLike};
use melior::ir::{AffineMap, Attribute, Identifier, Operation, Region, Type, Value, ValueLike};

use super::attr::{affine_maps, i64_attr, IteratorType};
use super::{region, Emitter};

/// The element type of a tensor value.
pub fn elem_of<'c>(t: Value<'c, '_>) -> Type<'c> {
    RankedTensorType::try_from(t.r#type())
        .expect("a ranked tensor")
        .element()
}

/// A `linalg.generic` over `reduction.len()` loops (`reduction[i]`: loop
/// `i` reduces) reading `ins` and writing `outs`, each with its indexing
/// map; `body` receives the block's scalars (inputs then outputs) and
/// returns the values to yield, one per output. The op is returned, not
/// appended: the kernel builder appends it with its role.
pub fn generic<'c, 'a>(
    e: Emitter<'c, 'a>,
    ins: &[(Value<'c, 'a>, AffineMap<'c>)],
    outs: &[(Value<'c, 'a>, AffineMap<'c>)],
    reduction: &[bool],
    body: impl for<'b> FnOnce(Emitter<'c, 'b>, Vec<Value<'c, 'b>>) -> Vec<Value<'c, 'b>>,
) -> Operation<'c> {
    try_generic(e, ins, outs, reduction, |be, args| {
        Ok::<_, std::convert::Infallible>(body(be, args))
    })
    .unwrap_or_else(|never| match never {})
}

/// [`generic`] with a body that may fail: its error is returned (and the
/// op dropped).
pub fn try_generic<'c, 'a, E>(
    e: Emitter<'c, 'a>,
    ins: &[(Value<'c, 'a>, AffineMap<'c>)],
    outs: &[(Value<'c, 'a>, AffineMap<'c>)],
    reduction: &[bool],
    body: impl for<'b> FnOnce(Emitter<'c, 'b>, Vec<Value<'c, 'b>>) -> Result<Vec<Value<'c, 'b>>, E>,
) -> Result<Operation<'c>, E> {
    let types: Vec<Type> = ins.iter().chain(outs).map(|(t, _)| elem_of(*t)).collect();
    let mut failure = None;
    let body: Region = region(e.cx, e.loc, &types, |be, args| match body(be, args) {
        Ok(yields) => be.linalg_yield(&yields),
        Err(err) => failure = Some(err),
    });
    if let Some(err) = failure {
        return Err(err);
    }
    let maps: Vec<AffineMap> = ins.iter().chain(outs).map(|(_, m)| *m).collect();
    let iterators: Vec<Attribute> = reduction
        .iter()
        .map(|&r| IteratorType::of(r).attr(e.cx))
        .collect();
    let operands: Vec<Value> = ins.iter().chain(outs).map(|(t, _)| *t).collect();
    let results: Vec<Type> = outs.iter().map(|(t, _)| t.r#type()).collect();
    Ok(OperationBuilder::new("linalg.generic", e.loc)
        .add_operands(&operands)
        .add_results(&results)
        .add_attributes(&[
            (
                Identifier::new(e.cx, "indexing_maps"),
                affine_maps(e.cx, &maps),
            ),
            (
                Identifier::new(e.cx, "iterator_types"),
                ArrayAttribute::new(e.cx, &iterators).into(),
            ),
            (
                Identifier::new(e.cx, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(e.cx, &[ins.len() as i32, outs.len() as i32]).into(),
            ),
        ])
        .add_regions([body])
        .build()
        .expect("a well-formed linalg.generic"))
}

/// A named linalg op (`linalg.fill`, `linalg.matmul`) of `ins` into `out`,
/// with its body filled in by MLIR.
fn named<'c>(
    e: Emitter<'c, '_>,
    name: &str,
    ins: &[Value<'c, '_>],
    out: Value<'c, '_>,
) -> Operation<'c> {
    let mut operands = ins.to_vec();
    operands.push(out);
    let op = OperationBuilder::new(name, e.loc)
        .add_operands(&operands)
        .add_results(&[out.r#type()])
        .add_attributes(&[(
            Identifier::new(e.cx, "operandSegmentSizes"),
            DenseI32ArrayAttribute::new(e.cx, &[ins.len() as i32, 1]).into(),
        )])
        .add_regions([Region::new()])
        .build()
        .expect("a well-formed named linalg op");
    // SAFETY: `op` is a freshly built, valid linalg named op that owns its
    // (empty) region; the call only fills that region.
    unsafe { mlir_sys::mlirLinalgFillBuiltinNamedOpRegion(op.to_raw()) };
    op
}

/// `linalg.fill ins(value) outs(out)`, not appended.
pub fn fill<'c>(e: Emitter<'c, '_>, value: Value<'c, '_>, out: Value<'c, '_>) -> Operation<'c> {
    named(e, "linalg.fill", &[value], out)
}

/// `linalg.matmul ins(a, b) outs(out)`, not appended.
pub fn matmul<'c>(
    e: Emitter<'c, '_>,
    a: Value<'c, '_>,
    b: Value<'c, '_>,
    out: Value<'c, '_>,
) -> Operation<'c> {
    named(e, "linalg.matmul", &[a, b], out)
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// `linalg.index` of loop `dim`, inside a generic's body.
    pub fn loop_index(&self, dim: usize) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("linalg.index", self.loc)
                .add_results(&[Type::index(self.cx)])
                .add_attributes(&[(
                    Identifier::new(self.cx, "dim"),
                    i64_attr(self.cx, dim as i64),
                )])
                .build()
                .expect("a well-formed linalg.index"),
        )
    }

    /// `linalg.yield`, ending a generic's body.
    fn linalg_yield(&self, values: &[Value<'c, '_>]) {
        self.append(
            OperationBuilder::new("linalg.yield", self.loc)
                .add_operands(values)
                .build()
                .expect("a well-formed linalg.yield"),
        );
    }
}
