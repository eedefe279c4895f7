//! The quarter table: every non-attacking placement of queens on an h×h square, keyed by the
//! (row set, column set) it occupies, each stored as its local diagonal masks.
//!
//! A placement of k queens (0 ≤ k ≤ h) uses k rows and k columns of the square, one queen in
//! each; a queen at local row r and column c' occupies the local diagonal u = r + c' and the
//! local difference diagonal v = c' − r + h − 1, both in
//! 0..2h−1. One table serves all four quadrants of the board because they are translates of one
//! another (see [`super::half`]). Layout: a dense index of 4^h + 1 `u32` offsets, one per key
//! `cols | rows << h`, into one array of entries `u | v << 32` (8 bytes each); the key puts
//! the row set high so that every list one unit reads for a row set lies in one contiguous
//! stretch (about 14 KB at h = 9), which stays in cache. Built in two
//! passes (count per key, then fill in place), so the peak memory is the table itself.
//!
//! Sizes (entries): 16,870 / 118,969 / 915,442 / 7,535,369 / 66,807,234 for h = 7..11, about
//! 8–9× per step (E. Kluev's N-Queens-Count-Sol measures the same counts; see
//! shared/design/join-algorithm.md §1).

/// The largest quarter side the table supports: 4^h offsets must stay modest (4^12 · 4 B =
/// 64 MiB) and entry counts must fit a `u32` (about 600 million at h = 12).
pub const MAX_H: u32 = 12;

/// Every non-attacking placement on an h×h square, by (row set, column set).
#[derive(Clone, Debug)]
pub struct QuarterTable {
    h: u32,
    offsets: Vec<u32>,
    entries: Vec<u64>,
}

impl QuarterTable {
    /// Builds the table for an `h`×`h` square (0 ≤ `h` ≤ [`MAX_H`]) by backtracking row by row
    /// (each row empty or holding one queen), twice: once to count the entries per key, once
    /// to fill them.
    ///
    /// # Panics
    /// If `h` > [`MAX_H`] (callers check with [`estimated_bytes`] first).
    pub fn build(h: u32) -> QuarterTable {
        assert!(h <= MAX_H, "quarter side {h} is beyond {MAX_H}");
        let keys = 1usize << (2 * h);
        let mut counts = vec![0u32; keys + 1];
        walk(h, 0, 0, 0, 0, 0, &mut |key, _| counts[key] += 1);
        // Exclusive prefix sums: offsets[key] is where the key's entries start.
        let mut total = 0u32;
        for c in counts.iter_mut() {
            let here = *c;
            *c = total;
            total += here;
        }
        let offsets = counts;
        let mut cursor: Vec<u32> = offsets[..keys].to_vec();
        let mut entries = vec![0u64; total as usize];
        walk(h, 0, 0, 0, 0, 0, &mut |key, entry| {
            entries[cursor[key] as usize] = entry;
            cursor[key] += 1;
        });
        QuarterTable { h, offsets, entries }
    }

    /// Returns the quarter side h.
    pub fn h(&self) -> u32 {
        self.h
    }

    /// Returns the number of stored placements.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Returns true if and only if the table holds no placement (never: the empty placement is
    /// always there).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Returns the bytes the table occupies (offsets and entries).
    pub fn bytes(&self) -> usize {
        self.offsets.len() * 4 + self.entries.len() * 8
    }

    /// Returns the placements on the local rows `rows` for every column set: one contiguous
    /// stretch of the table.
    #[inline]
    pub fn region(&self, rows: u32) -> &[u64] {
        let lo = self.offsets[(rows << self.h) as usize] as usize;
        let hi = self.offsets[((rows + 1) << self.h) as usize] as usize;
        &self.entries[lo..hi]
    }

    /// Returns the placements on exactly the local rows `rows` and columns `cols` (h-bit masks
    /// of equal popcount), each as `u | v << 32`.
    #[inline]
    pub fn cells(&self, rows: u32, cols: u32) -> &[u64] {
        let key = (cols | (rows << self.h)) as usize;
        let lo = self.offsets[key] as usize;
        let hi = self.offsets[key + 1] as usize;
        &self.entries[lo..hi]
    }
}

/// Visits every placement of rows `row..h` given those above: `rows`, `cols` the masks used so
/// far, `u`, `v` the local diagonals occupied.
fn walk(h: u32, row: u32, rows: u32, cols: u32, u: u64, v: u64, emit: &mut impl FnMut(usize, u64)) {
    if row == h {
        emit((cols | (rows << h)) as usize, u | (v << 32));
        return;
    }
    walk(h, row + 1, rows, cols, u, v, emit);
    for c in 0..h {
        let du = 1u64 << (row + c);
        let dv = 1u64 << (c + h - 1 - row);
        if cols & (1 << c) == 0 && u & du == 0 && v & dv == 0 {
            walk(h, row + 1, rows | (1 << row), cols | (1 << c), u | du, v | dv, emit);
        }
    }
}

/// Entry counts of the table for h = 0..=11 (h ≤ 9 checked by the test
/// `entry_counts_match_the_documented_sizes`; h = 10, 11 as measured by the design note).
const ENTRIES: [u64; 12] = [1, 2, 5, 18, 87, 462, 2635, 16_870, 118_969, 915_442, 7_535_369, 66_807_234];

/// Returns the bytes a table for side `h` occupies, from measured entry counts (h ≤ 11) or,
/// beyond, an extrapolation of 10× per step.
pub fn estimated_bytes(h: u32) -> u64 {
    let entries = match ENTRIES.get(h as usize) {
        Some(&e) => e,
        None => ENTRIES[11].saturating_mul(10u64.saturating_pow(h - 11)),
    };
    entries.saturating_mul(8).saturating_add(4u64.saturating_mul(1u64 << (2 * h.min(31))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_counts_match_the_documented_sizes() {
        for h in 0..=9 {
            let t = QuarterTable::build(h);
            assert_eq!(t.len() as u64, ENTRIES[h as usize], "h = {h}");
            assert_eq!(t.bytes() as u64, estimated_bytes(h) + 4, "h = {h}");
        }
    }

    #[test]
    fn cells_hold_placements_on_their_rows_and_columns() {
        let h = 5;
        let t = QuarterTable::build(h);
        for rows in 0..1u32 << h {
            for cols in 0..1u32 << h {
                let cells = t.cells(rows, cols);
                if rows.count_ones() != cols.count_ones() {
                    assert!(cells.is_empty());
                }
                for &e in cells {
                    let (u, v) = (e & 0xffff_ffff, e >> 32);
                    assert_eq!(u.count_ones(), rows.count_ones());
                    assert_eq!(v.count_ones(), rows.count_ones());
                }
            }
        }
        assert_eq!(t.cells(0b11111, 0b11111).len(), 10, "Q(5) full placements");
    }
}
