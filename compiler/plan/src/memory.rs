//! Memory planning: which workspace values share a block (in-place
//! reuse), and where each block lives in the arena (greedy by size).

use std::collections::{HashMap, HashSet};

use onnx_mlc_dialect::Value;

use crate::graph::Graph;
use crate::plan::{Kernel, Lifetime};

/// The alignment of every workspace offset, and of the workspace size (the
/// ABI's 64 bytes: a cache line, and the widest vector register).
pub const ALIGN: u64 = 64;

/// `n` rounded up to a multiple of [`ALIGN`].
pub(crate) fn align_up(n: u64) -> u64 {
    n.div_ceil(ALIGN) * ALIGN
}

/// A block of workspace: the values that use it one after another.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub bytes: u64,
    pub live: Lifetime,
}

/// Where the workspace values go.
pub(crate) struct Layout {
    /// Each workspace value's offset.
    pub offsets: HashMap<Value, u64>,
    /// Outputs written over a dying input: output → the value overwritten.
    pub in_place: HashMap<Value, Value>,
    /// The end of the highest block.
    pub peak: u64,
}

/// Lays out the workspace values (`values`: value, bytes, lifetime, in
/// definition order): merges in-place pairs into shared blocks when
/// `in_place` is set, then places the blocks with [`greedy_by_size`].
pub(crate) fn layout(
    g: &Graph,
    kernels: &[Kernel],
    values: &[(Value, u64, Lifetime)],
    in_place: bool,
) -> Layout {
    let mut blocks: Vec<Block> = values
        .iter()
        .map(|&(_, bytes, live)| Block { bytes, live })
        .collect();
    let mut block_of: HashMap<Value, usize> = values
        .iter()
        .enumerate()
        .map(|(i, &(v, ..))| (v, i))
        .collect();
    let mut merged = vec![false; blocks.len()];
    let mut pairs = HashMap::new();
    if in_place {
        for (k, kernel) in kernels.iter().enumerate().filter(|(_, k)| k.root.is_none()) {
            let mut taken = HashSet::new();
            for &out in &kernel.outputs {
                let Some(&own) = block_of.get(&out) else {
                    continue;
                };
                let target = kernel.inputs.iter().map(|&x| g.resolve(x)).find(|&r| {
                    block_of.get(&r).is_some_and(|&b| {
                        !taken.contains(&b)
                            && blocks[b].live.last == k
                            && blocks[b].bytes == blocks[own].bytes
                            && read_in_place(g, kernel, r, out)
                    })
                });
                if let Some(r) = target {
                    let b = block_of[&r];
                    blocks[b].live.last = blocks[own].live.last;
                    merged[own] = true;
                    block_of.insert(out, b);
                    taken.insert(b);
                    pairs.insert(out, r);
                }
            }
        }
    }
    let live: Vec<usize> = (0..blocks.len()).filter(|&b| !merged[b]).collect();
    let placed = greedy_by_size(&live.iter().map(|&b| blocks[b]).collect::<Vec<_>>());
    let mut block_offset = vec![0; blocks.len()];
    for (&b, &offset) in live.iter().zip(&placed) {
        block_offset[b] = offset;
    }
    let peak = live
        .iter()
        .map(|&b| block_offset[b] + blocks[b].bytes)
        .max()
        .unwrap_or(0);
    let offsets = values
        .iter()
        .map(|&(v, ..)| (v, block_offset[block_of[&v]]))
        .collect();
    Layout {
        offsets,
        in_place: pairs,
        peak,
    }
}

/// **In-place rule.** An elementwise kernel (a loop nest that loads its
/// operands at a point, then stores its results at that point) may store
/// `out` over `input`'s buffer when every operand showing that buffer has
/// `out`'s exact shape — so it is read only at the point being written —
/// and the buffer dies in this kernel with the same size as `out`
/// (checked by the caller).
fn read_in_place(g: &Graph, kernel: &Kernel, input: Value, out: Value) -> bool {
    kernel
        .inputs
        .iter()
        .filter(|&&x| g.resolve(x) == input)
        .all(|&x| g.dims(x) == g.dims(out))
}

/// TFLite's "greedy by size" placement (Pisarchyk & Lee, *Efficient Memory
/// Management for Deep Neural Net Inference*, 2020): blocks in decreasing
/// size (ties: earlier first), each put in the smallest gap between the
/// already-placed blocks whose lifetimes intersect its own where it fits,
/// or above the highest of them. Offsets are multiples of [`ALIGN`];
/// empty blocks sit at 0. Returns each block's offset.
pub(crate) fn greedy_by_size(blocks: &[Block]) -> Vec<u64> {
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(blocks[i].bytes), blocks[i].live.first, i));
    let mut offsets = vec![0; blocks.len()];
    // Placed blocks as (offset, block), sorted by offset.
    let mut placed: Vec<(u64, usize)> = vec![];
    for i in order {
        let block = blocks[i];
        if block.bytes == 0 {
            continue;
        }
        let mut best: Option<(u64, u64)> = None; // (gap, offset)
        let mut cursor = 0;
        for &(offset, j) in &placed {
            if !blocks[j].live.overlaps(&block.live) {
                continue;
            }
            let candidate = align_up(cursor);
            if candidate + block.bytes <= offset {
                let gap = offset - candidate;
                if best.is_none_or(|(g, _)| gap < g) {
                    best = Some((gap, candidate));
                }
            }
            cursor = cursor.max(offset + blocks[j].bytes);
        }
        let offset = best.map_or_else(|| align_up(cursor), |(_, o)| o);
        offsets[i] = offset;
        let at = placed.partition_point(|&(o, _)| o <= offset);
        placed.insert(at, (offset, i));
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(bytes: u64, first: usize, last: usize) -> Block {
        Block {
            bytes,
            live: Lifetime { first, last },
        }
    }

    #[test]
    fn reuses_memory_of_dead_blocks() {
        // A chain a -> b -> c: c can reuse a's memory, b cannot.
        let offsets = greedy_by_size(&[block(100, 0, 1), block(100, 1, 2), block(100, 2, 3)]);
        assert_eq!(offsets, [0, 128, 0]);
    }

    #[test]
    fn takes_the_smallest_gap_that_fits() {
        // Over [1, 1] the last block sees blocks 2 (192..320) and 3
        // (448..512): the gaps 0..192 and 320..448 both fit 64 bytes, and
        // the smaller one wins (first fit would take 0).
        let blocks = [
            block(128, 2, 2),
            block(192, 2, 2),
            block(128, 0, 2),
            block(64, 1, 2),
            block(64, 1, 1),
        ];
        assert_eq!(greedy_by_size(&blocks), [320, 0, 192, 448, 320]);
    }

    #[test]
    fn aligns_offsets() {
        let offsets = greedy_by_size(&[block(10, 0, 1), block(10, 0, 1), block(0, 0, 1)]);
        assert_eq!(offsets, [0, 64, 0]);
        assert_eq!(align_up(0), 0);
        assert_eq!(align_up(65), 128);
    }
}
