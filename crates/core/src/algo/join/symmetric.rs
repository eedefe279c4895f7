//! Fundamental solutions without building solutions: Burnside's lemma over D4.
//!
//! No solution with n > 1 is its own mirror image, so the number of symmetry classes is
//! U(n) = (Q + F180 + 2·F90) / 8, where F180 and F90 count the solutions fixed by the 180° and
//! the 90° rotation, and the classes by orbit size are N₂ = F90/2, N₄ = (F180 − F90)/4,
//! N₈ = (Q − F180)/8 (doc/join-algorithm.md §3; checked against A002562 and the
//! class table for n ≤ 16 in the tests).
//!
//! - F180: a solution fixed by the 180° rotation (R, C) → (n−1−R, n−1−C) is an east half on
//!   rows S plus its rotated image on the rows rev(S), which must be the complement of S (and,
//!   for odd n, the centre queen). So F180 = Σ over the 2^h row sets S with rev(S) = Sᶜ of the
//!   east halves whose diagonals are disjoint from their own point reflection d → 2n−2−d.
//! - F90: a small dedicated backtracker that places the queens in orbits of four cells.
//!
//! The join plan's `Plan::fundamental` classifies a whole count from its total alone (shards
//! added up, a resumed journal): F180 over the plan's own quarter table, F90 afresh.

use super::bits::{low_mask, pdep_soft, reverse};
use super::half::{Geometry, HalfScratch, Side, for_each_half};
use super::quarter::QuarterTable;
use crate::Classes;

/// Returns F180(n), the solutions of the `n`×`n` board (n ≥ 4, `table` of side ⌊n/2⌋, whole or
/// row sets, whose row sets are then loaded here one S at a time) fixed by the 180° rotation.
pub fn fixed_by_half_turn(table: &QuarterTable, n: u32) -> u128 {
    let g = Geometry::new(n);
    let width = 2 * n - 1;
    let (fu, fv) = if n % 2 == 1 { (1u64 << (n - 1), 1u64 << (n - 1)) } else { (0, 0) };
    let mut scratch = HalfScratch::default();
    // A row-set table (n ≥ 28): each S loads its own two row sets.
    let mut own = table.is_row_sets().then(|| QuarterTable::rows_only(g.h));
    let mut total = 0u128;
    for choice in 0..1u64 << g.h {
        // Row i or row n−1−i for each i < h: exactly the S with rev(S) = complement.
        let rows = (0..g.h).map(|i| if choice >> i & 1 == 1 { 1u64 << i } else { 1u64 << (n - 1 - i) }).sum();
        let table = match &mut own {
            Some(t) => {
                let (rows_n, rows_s) = g.split_rows(rows);
                t.load_rows(&[rows_n, rows_s]);
                &*t
            }
            None => table,
        };
        for_each_half(table, &g, Side::East, rows, low_mask(g.h) as u32, fu, fv, &mut scratch, |u, v| {
            if u & reverse(u, width) == 0 && v & reverse(v, width) == 0 {
                total += 1;
            }
        });
    }
    total
}

/// Returns F90(n), the solutions of the `n`×`n` board fixed by the 90° rotation (n ≤ 32), by
/// backtracking over orbits of four cells: the lowest empty row R gets a queen at (R, C) with
/// its three images (C, n−1−R), (n−1−R, n−1−C), (n−1−C, R). Zero unless n ≡ 0 or 1 (mod 4)
/// (the queens off the centre come in orbits of four); for odd n the centre is occupied.
pub fn fixed_by_quarter_turn(n: u32) -> u128 {
    if n == 0 || n % 4 >= 2 {
        return (n == 0) as u128;
    }
    let mut s = Board { n, rows: 0, cols: 0, u: 0, v: 0 };
    if n % 2 == 1 {
        let m = n / 2;
        if !s.place(m, m) {
            return 0;
        }
    }
    s.count()
}

#[derive(Clone, Copy)]
struct Board {
    n: u32,
    rows: u64,
    cols: u64,
    u: u64,
    v: u64,
}

impl Board {
    fn place(&mut self, r: u32, c: u32) -> bool {
        let (du, dv) = (1u64 << (r + c), 1u64 << (c + self.n - 1 - r));
        if self.rows >> r & 1 == 1 || self.cols >> c & 1 == 1 || self.u & du != 0 || self.v & dv != 0 {
            return false;
        }
        self.rows |= 1 << r;
        self.cols |= 1 << c;
        self.u |= du;
        self.v |= dv;
        true
    }

    fn count(&self) -> u128 {
        let all = low_mask(self.n);
        if self.rows == all {
            return 1;
        }
        let r = (!self.rows & all).trailing_zeros();
        let m = self.n - 1;
        let mut total = 0;
        for c in 0..self.n {
            let mut next = *self;
            if next.place(r, c) && next.place(c, m - r) && next.place(m - r, m - c) && next.place(m - c, r) {
                total += next.count();
            }
        }
        total
    }
}

/// Returns the symmetry classes by orbit size from Q(n), F180(n) and F90(n) (n ≥ 2), by
/// Burnside's lemma, or `None` if the counts are inconsistent (not divisible as they must be).
pub fn classes(q: u128, f180: u128, f90: u128) -> Option<Classes> {
    let ok = f90.is_multiple_of(2)
        && f180 >= f90
        && (f180 - f90).is_multiple_of(4)
        && q >= f180
        && (q - f180).is_multiple_of(8);
    ok.then(|| Classes { orbit8: (q - f180) / 8, orbit4: (f180 - f90) / 4, orbit2: f90 / 2, orbit1: 0 })
}

/// Returns the row masks of every `k`-subset of the rows in `free`, in colex order.
pub fn subsets_of(free: u64, k: u32) -> impl Iterator<Item = u64> {
    super::bits::colex(free.count_ones(), k).map(move |p| pdep_soft(p, free))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::backtrack_each;
    use crate::symmetry::Symmetry;

    #[test]
    fn fixed_counts_equal_brute_force() {
        for n in 4..=10u32 {
            let (mut f180, mut f90) = (0u128, 0u128);
            backtrack_each(n, |q| {
                let board: Vec<u8> = q.iter().map(|&c| c as u8).collect();
                f180 += (Symmetry::Rot180.apply(&board).unwrap() == board) as u128;
                f90 += (Symmetry::Rot90.apply(&board).unwrap() == board) as u128;
            });
            let table = QuarterTable::build(n / 2);
            assert_eq!(fixed_by_half_turn(&table, n), f180, "F180 n = {n}");
            assert_eq!(fixed_by_quarter_turn(n), f90, "F90 n = {n}");
        }
    }
}
