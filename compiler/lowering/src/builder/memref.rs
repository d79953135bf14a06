//! `memref`: buffers, their elements and views of them.
//!
//! Every buffer the lowering allocates is freed by hand (`omlc_model`
//! frees it after its last reader, or hands it to the caller), so
//! [`Emitter::alloc`] and [`Emitter::dealloc`] mark their ops
//! `bufferization.manual_deallocation`: the kernels' ownership-based
//! deallocation leaves them alone.

use melior::ir::attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute};
use melior::ir::operation::OperationBuilder;
use melior::ir::r#type::{MemRefType, ShapedTypeLike};
use melior::ir::{Attribute, Identifier, Operation, Type, Value, ValueLike};

use super::attr::unit;
use super::{dynamic_sizes, Emitter, Size};

impl<'c, 'a> Emitter<'c, 'a> {
    /// `memref.load m[at…]`.
    pub fn load(&self, m: Value<'c, '_>, at: &[Value<'c, '_>]) -> Value<'c, 'a> {
        let elem = MemRefType::try_from(m.r#type())
            .expect("a memref")
            .element();
        let mut operands = vec![m];
        operands.extend(at.iter().copied());
        self.value(
            OperationBuilder::new("memref.load", self.loc)
                .add_operands(&operands)
                .add_results(&[elem])
                .build()
                .expect("a well-formed memref.load"),
        )
    }

    /// `memref.store v, m[at…]`.
    pub fn store(&self, v: Value<'c, '_>, m: Value<'c, '_>, at: &[Value<'c, '_>]) {
        let mut operands = vec![v, m];
        operands.extend(at.iter().copied());
        self.append(
            OperationBuilder::new("memref.store", self.loc)
                .add_operands(&operands)
                .build()
                .expect("a well-formed memref.store"),
        );
    }

    /// `memref.copy from, to`.
    pub fn copy(&self, from: Value<'c, '_>, to: Value<'c, '_>) {
        self.append(
            OperationBuilder::new("memref.copy", self.loc)
                .add_operands(&[from, to])
                .build()
                .expect("a well-formed memref.copy"),
        );
    }

    /// `memref.alloc` of `ty` with run-time `sizes` (static where `ty`
    /// spells them), freed by hand (see the module docs).
    pub fn alloc(&self, ty: MemRefType<'c>, sizes: &[Size<'c, 'a>]) -> Value<'c, 'a> {
        let dynamic = dynamic_sizes(sizes);
        self.value(
            self.manual(
                OperationBuilder::new("memref.alloc", self.loc)
                    .add_operands(&dynamic)
                    .add_results(&[ty.into()])
                    .add_attributes(&[(
                        Identifier::new(self.cx, "operandSegmentSizes"),
                        DenseI32ArrayAttribute::new(self.cx, &[dynamic.len() as i32, 0]).into(),
                    )]),
            ),
        )
    }

    /// `memref.dealloc` of a buffer of [`Self::alloc`].
    pub fn dealloc(&self, m: Value<'c, '_>) {
        self.append(
            self.manual(OperationBuilder::new("memref.dealloc", self.loc).add_operands(&[m])),
        );
    }

    /// `op` marked `bufferization.manual_deallocation`.
    fn manual(&self, op: OperationBuilder<'c>) -> Operation<'c> {
        op.add_attributes(&[(
            Identifier::new(self.cx, "bufferization.manual_deallocation"),
            unit(self.cx),
        )])
        .build()
        .expect("a well-formed memref op")
    }

    /// `memref.view` of `ty` into the byte buffer `bytes` at `offset`, with
    /// run-time `sizes` (static where `ty` spells them).
    pub fn view(
        &self,
        ty: MemRefType<'c>,
        bytes: Value<'c, 'a>,
        offset: Value<'c, 'a>,
        sizes: &[Size<'c, 'a>],
    ) -> Value<'c, 'a> {
        let mut operands = vec![bytes, offset];
        operands.extend(dynamic_sizes(sizes));
        let n = operands.len() as i32 - 2;
        self.value(
            OperationBuilder::new("memref.view", self.loc)
                .add_operands(&operands)
                .add_results(&[ty.into()])
                .add_attributes(&[(
                    Identifier::new(self.cx, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(self.cx, &[1, 1, n]).into(),
                )])
                .build()
                .expect("a well-formed memref.view"),
        )
    }

    /// `buffer` seen as the contiguous memref `ty` of `sizes` (static or
    /// computed at run time, as `ty` spells them): row-major strides,
    /// offset 0; `buffer` itself when the types agree.
    pub fn reinterpret(
        &self,
        buffer: Value<'c, 'a>,
        ty: MemRefType<'c>,
        sizes: &[Size<'c, 'a>],
    ) -> Value<'c, 'a> {
        if buffer.r#type() == ty.into() {
            return buffer;
        }
        self.reinterpret_cast(buffer, ty, Size::Static(0), sizes)
    }

    /// A view of `dims` × `elem`, row-major, at element `offset` of the
    /// buffer behind `buffer` (a `memref.reinterpret_cast` with that
    /// offset): one image of a batch whose sizes are only known at run
    /// time, with static sizes and strides.
    pub fn image_view(
        &self,
        buffer: Value<'c, 'a>,
        dims: &[i64],
        elem: Type<'c>,
        offset: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let sizes = Size::statics(dims);
        let strides: Vec<String> = self
            .row_major_strides(&sizes)
            .iter()
            .map(|s| s.type_dim().to_string())
            .collect();
        let layout = Attribute::parse(
            self.cx,
            &format!("strided<[{}], offset: ?>", strides.join(", ")),
        )
        .expect("a strided layout");
        let ty = MemRefType::new(elem, dims, Some(layout), None);
        self.reinterpret_cast(buffer, ty, Size::Dynamic(offset), &sizes)
    }

    /// Row-major strides of `sizes`: static while every size to the right
    /// is.
    fn row_major_strides(&self, sizes: &[Size<'c, 'a>]) -> Vec<Size<'c, 'a>> {
        let mut strides = vec![Size::Static(1); sizes.len()];
        for i in (0..sizes.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1].times(sizes[i + 1], self);
        }
        strides
    }

    /// `memref.reinterpret_cast buffer` to `ty`, at `offset` with `sizes`
    /// and their row-major strides.
    fn reinterpret_cast(
        &self,
        buffer: Value<'c, 'a>,
        ty: MemRefType<'c>,
        offset: Size<'c, 'a>,
        sizes: &[Size<'c, 'a>],
    ) -> Value<'c, 'a> {
        let strides = self.row_major_strides(sizes);
        let type_dims = |list: &[Size]| -> Vec<i64> { list.iter().map(Size::type_dim).collect() };
        let offsets = [offset];
        let (dyn_offset, dyn_sizes, dyn_strides) = (
            dynamic_sizes(&offsets),
            dynamic_sizes(sizes),
            dynamic_sizes(&strides),
        );
        let mut operands = vec![buffer];
        operands.extend(&dyn_offset);
        operands.extend(&dyn_sizes);
        operands.extend(&dyn_strides);
        let id = |name| Identifier::new(self.cx, name);
        let segments = [
            1,
            dyn_offset.len() as i32,
            dyn_sizes.len() as i32,
            dyn_strides.len() as i32,
        ];
        self.value(
            OperationBuilder::new("memref.reinterpret_cast", self.loc)
                .add_operands(&operands)
                .add_results(&[ty.into()])
                .add_attributes(&[
                    (
                        id("static_offsets"),
                        DenseI64ArrayAttribute::new(self.cx, &type_dims(&offsets)).into(),
                    ),
                    (
                        id("static_sizes"),
                        DenseI64ArrayAttribute::new(self.cx, &type_dims(sizes)).into(),
                    ),
                    (
                        id("static_strides"),
                        DenseI64ArrayAttribute::new(self.cx, &type_dims(&strides)).into(),
                    ),
                    (
                        id("operandSegmentSizes"),
                        DenseI32ArrayAttribute::new(self.cx, &segments).into(),
                    ),
                ])
                .build()
                .expect("a well-formed memref.reinterpret_cast"),
        )
    }

    /// `memref.extract_aligned_pointer_as_index m`.
    pub fn aligned_pointer(&self, m: Value<'c, '_>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("memref.extract_aligned_pointer_as_index", self.loc)
                .add_operands(&[m])
                .add_results(&[Type::index(self.cx)])
                .build()
                .expect("a well-formed memref.extract_aligned_pointer_as_index"),
        )
    }
}
