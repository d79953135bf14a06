//! The packed weight layouts of the internal ops: what the optimizer
//! builds at compile time and the kernels read as it lies.

/// Columns of one block of [`pack_int8_columns`]' layout: one 512-bit
/// vector of 32-bit lanes.
pub const INT8_BLOCK_COLUMNS: i64 = 16;
/// Rows of a column in one 32-bit lane: the four bytes an 8-bit
/// dot-product instruction sums.
pub const INT8_LANE_ROWS: i64 = 4;

/// An `int8` matrix in `PackedMatMulInteger`'s layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedInt8 {
    /// `[⌈N/16⌉, ⌈K/4⌉, 16, 4]`, row-major.
    pub dims: Vec<i64>,
    /// The bytes: `packed[p, q, j, r] = B[4q + r, 16p + j]`, 0 past `K`
    /// and `N`.
    pub packed: Vec<i8>,
    /// The column sums `Σₖ B[k, n]`.
    pub colsum: Vec<i32>,
}

/// Packs the row-major `[k, n]` matrix `b` for the 8-bit dot-product
/// kernels: each 64-byte line holds four consecutive rows of 16
/// consecutive columns, column by column, so that one vector of 32-bit
/// lanes multiplies a broadcast group of four of `A`'s bytes by sixteen
/// columns. `None` when `b` does not have `k·n` elements.
pub fn pack_int8_columns(b: &[i8], k: i64, n: i64) -> Option<PackedInt8> {
    let (ku, nu) = (usize::try_from(k).ok()?, usize::try_from(n).ok()?);
    if b.len() != ku.checked_mul(nu)? {
        return None;
    }
    let (cols, rows) = (INT8_BLOCK_COLUMNS as usize, INT8_LANE_ROWS as usize);
    let blocks = nu.div_ceil(cols);
    let groups = ku.div_ceil(rows);
    let mut packed = vec![0i8; blocks * groups * cols * rows];
    for kk in 0..ku {
        for nn in 0..nu {
            let (p, j) = (nn / cols, nn % cols);
            let (q, r) = (kk / rows, kk % rows);
            packed[((p * groups + q) * cols + j) * rows + r] = b[kk * nu + nn];
        }
    }
    let mut colsum = vec![0i32; nu];
    for (i, &v) in b.iter().enumerate() {
        colsum[i % nu] += i32::from(v);
    }
    Some(PackedInt8 {
        dims: vec![
            blocks as i64,
            groups as i64,
            INT8_BLOCK_COLUMNS,
            INT8_LANE_ROWS,
        ],
        packed,
        colsum,
    })
}

/// Packs the weights `w` of a convolution, `[M, C, KH, KW]` row-major,
/// as [`pack_int8_columns`] packs the `[KH·KW·C4, M]` matrix
/// `B[(h·KW + x)·C4 + c, m] = W[m, c, h, x]` whose channels are padded to
/// `c4` (a multiple of 4) with rows of `pad(m)` (the column's zero point,
/// so that they add nothing): the reduction of a channels-last window,
/// position by position, four channels per 32-bit lane. Reads `w` once in
/// its own order. `None` when `w` does not have `M·C·KH·KW` elements.
pub fn pack_int8_conv(
    w: &[i8],
    [m, c, kh, kw]: [i64; 4],
    c4: i64,
    pad: impl Fn(usize) -> i8,
) -> Option<PackedInt8> {
    let dims = [m, c, kh, kw, c4].map(usize::try_from);
    let [Ok(m), Ok(c), Ok(kh), Ok(kw), Ok(c4)] = dims else {
        return None;
    };
    let (cols, rows) = (INT8_BLOCK_COLUMNS as usize, INT8_LANE_ROWS as usize);
    if c4 % rows != 0 || c4 < c || w.len() != m.checked_mul(c)?.checked_mul(kh * kw)? {
        return None;
    }
    let groups = kh * kw * c4 / rows;
    let line = cols * rows;
    let mut packed = vec![0i8; m.div_ceil(cols) * groups * line];
    let mut colsum = vec![0i32; m];
    let mut source = w.iter();
    for (col, sum) in colsum.iter_mut().enumerate() {
        let block = (col / cols) * groups * line + (col % cols) * rows;
        for ch in 0..c4 {
            for position in 0..kh * kw {
                let v = if ch < c { *source.next()? } else { pad(col) };
                let row = position * c4 + ch;
                packed[block + (row / rows) * line + row % rows] = v;
                *sum += i32::from(v);
            }
        }
    }
    Some(PackedInt8 {
        dims: vec![
            m.div_ceil(cols) as i64,
            groups as i64,
            INT8_BLOCK_COLUMNS,
            INT8_LANE_ROWS,
        ],
        packed,
        colsum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_four_rows_of_sixteen_columns_per_line() {
        // 5 × 18: two column blocks, two groups of rows, zeros past both.
        let (k, n) = (5usize, 18usize);
        let b: Vec<i8> = (0..k * n).map(|i| (i % 251) as i8).collect();
        let p = pack_int8_columns(&b, 5, 18).unwrap();
        assert_eq!(p.dims, vec![2, 2, 16, 4]);
        let at =
            |p_: usize, q: usize, j: usize, r: usize| p.packed[((p_ * 2 + q) * 16 + j) * 4 + r];
        assert_eq!(at(0, 0, 3, 2), b[2 * n + 3]);
        assert_eq!(at(1, 1, 1, 0), b[4 * n + 17]);
        assert_eq!(at(1, 1, 1, 1), 0, "past K");
        assert_eq!(at(1, 0, 2, 0), 0, "past N");
        let sum17: i32 = (0..k).map(|kk| i32::from(b[kk * n + 17])).sum();
        assert_eq!(p.colsum[17], sum17);
        assert!(pack_int8_columns(&b, 4, 18).is_none());
    }

    #[test]
    fn packs_a_convolution_as_its_window_matrix() {
        // M = 18 output channels, C = 3 padded to 4, a 2×3 window.
        let (m, c, kh, kw, c4) = (18usize, 3usize, 2usize, 3usize, 4usize);
        let w: Vec<i8> = (0..m * c * kh * kw).map(|i| (i % 127) as i8 - 60).collect();
        let pad = |col: usize| col as i8;
        let p = pack_int8_conv(&w, [18, 3, 2, 3], 4, pad).unwrap();
        // The same as packing the window matrix.
        let k = kh * kw * c4;
        let mut matrix = vec![0i8; k * m];
        for col in 0..m {
            for ch in 0..c4 {
                for h in 0..kh {
                    for x in 0..kw {
                        let row = (h * kw + x) * c4 + ch;
                        matrix[row * m + col] = if ch < c {
                            w[((col * c + ch) * kh + h) * kw + x]
                        } else {
                            pad(col)
                        };
                    }
                }
            }
        }
        assert_eq!(p, pack_int8_columns(&matrix, k as i64, m as i64).unwrap());
        assert!(
            pack_int8_conv(&w, [18, 3, 2, 3], 3, pad).is_none(),
            "C4 not a multiple of 4"
        );
        assert!(
            pack_int8_conv(&w[1..], [18, 3, 2, 3], 4, pad).is_none(),
            "too few weights"
        );
    }
}
