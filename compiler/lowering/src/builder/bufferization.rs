//! `bufferization`: the tensor views of a kernel's memref arguments and
//! the writes of its results into them.

use melior::ir::operation::OperationBuilder;
use melior::ir::{Identifier, Type, Value};

use super::attr::unit;
use super::Emitter;

impl<'c, 'a> Emitter<'c, 'a> {
    /// `bufferization.to_tensor m restrict [writable]` of type `ty`: the
    /// tensor of a memref nothing else aliases, which the kernel writes
    /// into when `writable`.
    pub fn to_tensor(&self, m: Value<'c, '_>, ty: Type<'c>, writable: bool) -> Value<'c, 'a> {
        let mut attrs = vec![(Identifier::new(self.cx, "restrict"), unit(self.cx))];
        if writable {
            attrs.push((Identifier::new(self.cx, "writable"), unit(self.cx)));
        }
        self.value(
            OperationBuilder::new("bufferization.to_tensor", self.loc)
                .add_operands(&[m])
                .add_results(&[ty])
                .add_attributes(&attrs)
                .build()
                .expect("a well-formed bufferization.to_tensor"),
        )
    }

    /// `bufferization.materialize_in_destination t in restrict writable m`:
    /// writes tensor `t` into memref `m`.
    pub fn materialize_in_destination(&self, t: Value<'c, '_>, m: Value<'c, '_>) {
        let unit = unit(self.cx);
        self.append(
            OperationBuilder::new("bufferization.materialize_in_destination", self.loc)
                .add_operands(&[t, m])
                .add_attributes(&[
                    (Identifier::new(self.cx, "restrict"), unit),
                    (Identifier::new(self.cx, "writable"), unit),
                ])
                .build()
                .expect("a well-formed bufferization.materialize_in_destination"),
        );
    }
}
