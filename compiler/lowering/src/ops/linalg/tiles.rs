//! PackedMatMulInteger's rows 16 at a time on AMX tiles (x86 `amx-int8`).
//!
//! A tile register holds 16 rows of 64 bytes, and `tdpbusd` adds the
//! products of a tile of `A` (16 rows × 64 unsigned bytes of the
//! reduction) and a tile of `B` in the dot-product layout (16 groups of 4
//! rows × 16 columns: 64 bytes per group) into a tile of 16 × 16 `i32`
//! sums — 16 384 multiply-adds, sixteen times a 512-bit `vpdpbusd`'s. The
//! packed weights are already in that layout: 16 consecutive groups of a
//! block of 16 columns, 64 bytes apart, are one `B` tile.
//!
//! The kernel keeps one sum tile per column block of the chunk (at most
//! 4, tiles 0–3), loads `A`'s 16 rows into tile 4 and each block's
//! weights into tile 5 at each step of 64 bytes of the reduction, stores
//! the sums to a stack buffer and reads them back row by row into
//! PackedMatMulInteger's epilogue (zero points, scale, bias,
//! requantization). The tiles are addressed by number through LLVM's
//! `llvm.x86.tile*` intrinsics on raw pointers; each chunk loads the tile
//! configuration (every tile 16 × 64 bytes) and releases it at its end,
//! since that state is per thread.
//!
//! Used when the target has AMX ([`crate::schedule::Target::amx_int8`]),
//! `A` is unsigned, `K` a multiple of 64, `B` has no zero point (the row
//! sums it needs come from the vector kernel's loop) and the rows of the
//! chunk are consecutive in memory (no batch dims); the rows past the last
//! multiple of 16 take the vector kernel.

use melior::ir::operation::OperationBuilder;
use melior::ir::r#type::MemRefType;
use melior::ir::{Attribute, Type, Value as MValue};

use crate::builder::Emitter;

/// Rows of a tile, and of the sum tiles' columns: 16.
pub(super) const TILE_ROWS: i64 = 16;
/// Bytes of a tile row: one step of the reduction.
pub(super) const TILE_BYTES: i64 = 64;
/// The tile registers: sums from 0, then `A` and `B`.
const A_TILE: i64 = 4;
const B_TILE: i64 = 5;
/// Sum tiles at most (blocks of columns per chunk).
pub(super) const MAX_BLOCKS: i64 = 4;

/// The raw addresses an AMX chunk reads and writes (`index` values: the
/// tile instructions take `!llvm.ptr`, made at each use by [`at`]).
pub(super) struct TileOperands<'c, 'a> {
    /// `A`'s first byte and its row length `K`.
    pub a: MValue<'c, 'a>,
    pub k: i64,
    /// The packed weights' first byte and groups (of 4 rows) per block.
    pub b: MValue<'c, 'a>,
    pub groups: i64,
    /// The stack buffer the sums are stored to: `[MAX_BLOCKS, 16, 16]`
    /// `i32`, as a memref and as an address.
    pub sums: MValue<'c, 'a>,
    pub sums_at: MValue<'c, 'a>,
}

/// `base + bytes` (`index` values; `base` an identity-layout memref's
/// aligned pointer, so its first element) as `!llvm.ptr`.
fn at<'c, 'a>(e: Emitter<'c, 'a>, base: MValue<'c, '_>, bytes: MValue<'c, '_>) -> MValue<'c, 'a> {
    let ptr = Type::parse(e.cx, "!llvm.ptr").expect("the LLVM pointer type");
    let address = e.index_cast(e.addi(base, bytes), e.int_type(64));
    e.value(
        OperationBuilder::new("llvm.inttoptr", e.loc)
            .add_operands(&[address])
            .add_results(&[ptr])
            .build()
            .expect("a well-formed llvm.inttoptr"),
    )
}

/// The buffer of a tensor that the kernel only reads.
fn buffer<'c, 'a>(e: Emitter<'c, 'a>, t: MValue<'c, '_>, ty: Type<'c>) -> MValue<'c, 'a> {
    e.value(
        OperationBuilder::new("bufferization.to_buffer", e.loc)
            .add_operands(&[t])
            .add_attributes(&[(
                melior::ir::Identifier::new(e.cx, "read_only"),
                Attribute::unit(e.cx),
            )])
            .add_results(&[ty])
            .build()
            .expect("a well-formed bufferization.to_buffer"),
    )
}

impl<'c, 'a> TileOperands<'c, 'a> {
    /// The addresses of `a` (a tensor of type `a_ty` as a memref) and of
    /// the packed `b` (likewise), and a fresh sum buffer; loads the tile
    /// configuration. Called at the start of a chunk.
    pub(super) fn start(
        e: Emitter<'c, 'a>,
        (a, a_ty): (MValue<'c, '_>, Type<'c>),
        (b, b_ty): (MValue<'c, '_>, Type<'c>),
        k: i64,
        groups: i64,
    ) -> TileOperands<'c, 'a> {
        let i32t = e.int_type(32);
        let sums_ty = MemRefType::new(i32t, &[MAX_BLOCKS, TILE_ROWS, TILE_ROWS], None, None);
        let sums = alloca(e, sums_ty.into());
        let config = configuration(e);
        e.call_intrinsic(
            "llvm.x86.ldtilecfg",
            &[at(e, e.aligned_pointer(config), e.index(0))],
        );
        TileOperands {
            a: e.aligned_pointer(buffer(e, a, a_ty)),
            k,
            b: e.aligned_pointer(buffer(e, b, b_ty)),
            groups,
            sums,
            sums_at: e.aligned_pointer(sums),
        }
    }

    /// Releases the tiles: the end of a chunk.
    pub(super) fn finish(&self, e: Emitter<'c, 'a>) {
        e.call_intrinsic("llvm.x86.tilerelease", &[]);
    }

    /// The sums of rows `row..row + 16` of `A` (row-major, `K` bytes
    /// apart) by the `count` blocks of columns from block `first`,
    /// stored to the sum buffer: block `j`'s at `[j, 0..16, 0..16]`.
    pub(super) fn products(
        &self,
        e: Emitter<'c, 'a>,
        row: MValue<'c, '_>,
        (first, count): (MValue<'c, '_>, i64),
    ) {
        let i8t = e.int_type(8);
        let tile = |n: i64| e.i(i8t, n);
        let i64t = e.int_type(64);
        for j in 0..count {
            e.call_intrinsic("llvm.x86.tilezero", &[tile(j)]);
        }
        let row_bytes = e.muli(row, e.index(self.k));
        let steps = self.k / TILE_BYTES;
        e.for_loop(e.index(0), e.index(steps), &[], |be, q, _| {
            let a_at = be.addi(row_bytes, be.muli(q, be.index(TILE_BYTES)));
            let a = at(be, self.a, a_at);
            let stride = |bytes: i64| be.i(i64t, bytes);
            be.call_intrinsic(
                "llvm.x86.tileloadd64",
                &[be.i(i8t, A_TILE), a, stride(self.k)],
            );
            for j in 0..count {
                // Block `first + j`, groups `16·q ..`: 64 bytes each.
                let block = be.addi(first, be.index(j));
                let group = be.addi(
                    be.muli(block, be.index(self.groups)),
                    be.muli(q, be.index(TILE_ROWS)),
                );
                let b = at(be, self.b, be.muli(group, be.index(TILE_BYTES)));
                be.call_intrinsic(
                    "llvm.x86.tileloadd64",
                    &[be.i(i8t, B_TILE), b, stride(TILE_BYTES)],
                );
                be.call_intrinsic(
                    "llvm.x86.tdpbusd",
                    &[be.i(i8t, j), be.i(i8t, A_TILE), be.i(i8t, B_TILE)],
                );
            }
            vec![]
        });
        let sum_tile = TILE_ROWS * TILE_ROWS * 4;
        for j in 0..count {
            let to = at(e, self.sums_at, e.index(j * sum_tile));
            e.call_intrinsic(
                "llvm.x86.tilestored64",
                &[tile(j), to, e.i(i64t, TILE_ROWS * 4)],
            );
        }
    }
}

/// A stack buffer of type `ty`, 64-byte aligned.
fn alloca<'c, 'a>(e: Emitter<'c, 'a>, ty: Type<'c>) -> MValue<'c, 'a> {
    e.value(
        OperationBuilder::new("memref.alloca", e.loc)
            .add_attributes(&[
                (
                    melior::ir::Identifier::new(e.cx, "alignment"),
                    melior::ir::attribute::IntegerAttribute::new(e.int_type(64), 64).into(),
                ),
                (
                    melior::ir::Identifier::new(e.cx, "operandSegmentSizes"),
                    melior::ir::attribute::DenseI32ArrayAttribute::new(e.cx, &[0, 0]).into(),
                ),
            ])
            .add_results(&[ty])
            .build()
            .expect("a well-formed memref.alloca"),
    )
}

/// The 64-byte tile configuration on the stack: palette 1, each of the 8
/// tiles 16 rows of 64 bytes (`colsb` as 16-bit values from byte 16,
/// `rows` from byte 48).
fn configuration<'c, 'a>(e: Emitter<'c, 'a>) -> MValue<'c, 'a> {
    let i8t = e.int_type(8);
    let mut bytes = [0i64; 64];
    bytes[0] = 1;
    for t in 0..8 {
        bytes[16 + 2 * t] = TILE_BYTES;
        bytes[48 + t] = TILE_ROWS;
    }
    let config = alloca(e, MemRefType::new(i8t, &[64], None, None).into());
    let v = e.int_vector(i8t, &bytes);
    e.store_vector(v, config, &[e.index(0)]);
    config
}
