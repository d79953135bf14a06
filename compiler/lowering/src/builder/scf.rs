//! `scf`: counted loops, and the parallel loop over chunks.

use melior::ir::attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute};
use melior::ir::operation::OperationBuilder;
use melior::ir::{Identifier, Type, Value, ValueLike};

use super::{region, Emitter, Size};

impl<'c, 'a> Emitter<'c, 'a> {
    /// `scf.for %t = lb to ub step 1 iter_args(%acc = init)`: `body`
    /// receives the induction variable and the carried values and returns
    /// the values carried to the next iteration; the results are the
    /// values after the last one.
    pub fn for_loop(
        &self,
        lb: Value<'c, '_>,
        ub: Value<'c, '_>,
        init: &[Value<'c, '_>],
        body: impl for<'r> FnOnce(
            Emitter<'c, 'r>,
            Value<'c, 'r>,
            Vec<Value<'c, 'r>>,
        ) -> Vec<Value<'c, 'r>>,
    ) -> Vec<Value<'c, 'a>> {
        let index = Type::index(self.cx);
        let types: Vec<Type> = init.iter().map(|v| v.r#type()).collect();
        let mut args = vec![index];
        args.extend(&types);
        let region = region(self.cx, self.loc, &args, |be, a| {
            let yields = body(be, a[0], a[1..].to_vec());
            be.append(
                OperationBuilder::new("scf.yield", be.loc)
                    .add_operands(&yields)
                    .build()
                    .expect("a well-formed scf.yield"),
            );
        });
        let mut operands = vec![lb, ub, self.index(1)];
        operands.extend(init);
        let op = self.append(
            OperationBuilder::new("scf.for", self.loc)
                .add_operands(&operands)
                .add_results(&types)
                .add_regions([region])
                .build()
                .expect("a well-formed scf.for"),
        );
        (0..init.len())
            .map(|i| op.result(i).expect("one result per carried value").into())
            .collect()
    }

    /// `scf.for %i = lb to ub` whose body `body` builds from the index,
    /// carrying nothing.
    pub fn for_each(
        &self,
        lb: Value<'c, '_>,
        ub: Value<'c, '_>,
        body: impl for<'r> FnOnce(Emitter<'c, 'r>, Value<'c, 'r>),
    ) {
        self.for_loop(lb, ub, &[] as &[Value], |be, i, _| {
            body(be, i);
            vec![]
        });
    }

    /// `scf.forall (%t) in (count) shared_outs(%out = shared)`: `body`
    /// receives `%t` and `%out` and returns the tile it computed with
    /// its offsets and sizes in `%out`, inserted in parallel. Returns the
    /// shared tensor after the loop.
    pub fn forall(
        &self,
        count: i64,
        shared: Value<'c, '_>,
        body: impl for<'r> FnOnce(
            Emitter<'c, 'r>,
            Value<'c, 'r>,
            Value<'c, 'r>,
        ) -> (Value<'c, 'r>, Vec<Size<'c, 'r>>, Vec<Size<'c, 'r>>),
    ) -> Value<'c, 'a> {
        let ty = shared.r#type();
        let index = Type::index(self.cx);
        let region = region(self.cx, self.loc, &[index, ty], |be, a| {
            let (tile, offsets, sizes) = body(be, a[0], a[1]);
            let terminator = region(self.cx, self.loc, &[], |te, _| {
                te.parallel_insert_slice(tile, a[1], &offsets, &sizes);
            });
            be.append(
                OperationBuilder::new("scf.forall.in_parallel", be.loc)
                    .add_regions([terminator])
                    .build()
                    .expect("a well-formed scf.forall.in_parallel"),
            );
        });
        let id = |name| Identifier::new(self.cx, name);
        let ints = |v: &[i64]| DenseI64ArrayAttribute::new(self.cx, v).into();
        self.value(
            OperationBuilder::new("scf.forall", self.loc)
                .add_operands(&[shared])
                .add_results(&[ty])
                .add_attributes(&[
                    (id("staticLowerBound"), ints(&[0])),
                    (id("staticUpperBound"), ints(&[count])),
                    (id("staticStep"), ints(&[1])),
                    (
                        id("operandSegmentSizes"),
                        DenseI32ArrayAttribute::new(self.cx, &[0, 0, 0, 1]).into(),
                    ),
                ])
                .add_regions([region])
                .build()
                .expect("a well-formed scf.forall"),
        )
    }
}
