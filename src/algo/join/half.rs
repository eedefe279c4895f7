//! Half-board enumeration: every half-solution on given rows and columns, joined from two
//! quarters of the table, reduced to the mask of window diagonals it occupies.
//!
//! Geometry (n the board side, h = ⌊n/2⌋, c = ⌈n/2⌉): the east half is columns 0..h−1, the
//! west half columns c..n−1; north rows are 0..h−1, south rows c..n−1 (for odd n the middle
//! row and column belong to no quadrant). A cell has the diagonal u = R + C and the
//! difference diagonal v = C − R + n − 1, both in 0..2n−1. A quadrant with row offset ro and
//! column offset co (each 0 or c) maps the quarter table's local diagonals by
//! u = u_loc + ro + co and v = v_loc + co − ro + c, so the half's *local form*
//!
//!   U = a.u | b.u << c,   V = a.v << c | b.v   (a the north quarter, b the south quarter)
//!
//! is the global mask for the east half and the global mask shifted down by c for the west
//! half. North and south clash if and only if `a.u & b.u << c` or `a.v << c & b.v` is non-zero.
//! Only the *window* diagonals c..=c+2h−2 can be shared by the two halves; the window mask
//! of a half is its (U, V) bits there, L = 2h−1 bits per family, u-part low, v-part high.

use super::bits::low_mask;
use super::quarter::QuarterTable;

/// The two halves of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Columns 0..h−1.
    East,
    /// Columns c..n−1.
    West,
}

/// The board geometry the join needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// The board side.
    pub n: u32,
    /// ⌊n/2⌋, the quarter side.
    pub h: u32,
    /// ⌈n/2⌉, the offset of the south rows and of the west columns.
    pub c: u32,
}

impl Geometry {
    /// Returns the geometry of the `n`×`n` board (n ≥ 2).
    pub fn new(n: u32) -> Geometry {
        Geometry { n, h: n / 2, c: n.div_ceil(2) }
    }

    /// Returns L = 2h − 1, the window diagonals per family.
    pub fn window_len(&self) -> u32 {
        2 * self.h - 1
    }

    /// Returns the window mask of a half in local form (U, V) on `side`.
    #[inline]
    pub fn window(&self, side: Side, u: u64, v: u64) -> u64 {
        let l = self.window_len();
        let m = low_mask(l);
        match side {
            Side::East => ((u >> self.c) & m) | (((v >> self.c) & m) << l),
            Side::West => (u & m) | ((v & m) << l),
        }
    }

    /// Returns a global diagonal mask in the local form of `side`.
    #[inline]
    pub fn local(&self, side: Side, global: u64) -> u64 {
        match side {
            Side::East => global,
            Side::West => global >> self.c,
        }
    }

    /// Returns the global rows of a row mask's north part and south part as local h-bit masks.
    #[inline]
    pub fn split_rows(&self, rows: u64) -> (u32, u32) {
        let m = low_mask(self.h);
        ((rows & m) as u32, ((rows >> self.c) & m) as u32)
    }
}

/// Scratch buffers of the enumerator (reused between calls; no allocation once warm).
#[derive(Default, Debug)]
pub struct HalfScratch {
    north: Vec<u64>,
    south: Vec<u64>,
    /// Clash words and window parts of the filtered north and south lists (entries past the
    /// current count are scratch).
    north_t: Vec<u64>,
    north_c: Vec<u64>,
    south_t: Vec<u64>,
    south_c: Vec<u64>,
    /// Mirrored quarter lists (when the table is compacted).
    north_raw: Vec<u64>,
    south_raw: Vec<u64>,
    /// Whether the pair loop may use AVX-512: set by the caller for `matcher::Level::Avx512`,
    /// which [`crate::cpu::Features::Avx512Vpopcnt`] detects (it includes AVX-512F).
    pub avx512: bool,
}

/// Bit of a window code (from [`window_codes`] with `flags`) set if and only if the half has a
/// queen on local diagonal u = h − 1 of its north quarter (for even n and the west half: the
/// anti-diagonal u = n − 1).
pub const FLAG_NORTH_U: u64 = 1 << 62;
/// Bit set if and only if the half has a queen on local difference diagonal v = h − 1 of its
/// south quarter (for even n and the west half: the main diagonal v = n − 1).
pub const FLAG_SOUTH_V: u64 = 1 << 63;

/// Popcounts of 12-bit masks (h ≤ 12): the enumerator is built for the baseline CPU, where
/// `count_ones` is a slow bit trick, and it tests every submask of the half's columns.
static POPCOUNT: [u8; 1 << 12] = {
    let mut t = [0u8; 1 << 12];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
};

/// Writes the window mask of every half-solution that [`for_each_half`] would visit into
/// `out[start..]` (growing `out` as needed; entries past the returned end are scratch) and
/// returns the end. With `flags`, each mask also carries [`FLAG_NORTH_U`] and [`FLAG_SOUTH_V`].
///
/// The window mask of a join is the OR of one part from each quarter, and the clash test is
/// one AND of two packed words, so each quarter entry is transformed once per column split and
/// the pair loop is branch-free: it writes every candidate and advances the end only when the
/// pair does not clash.
#[allow(clippy::too_many_arguments)]
pub fn window_codes(
    table: &QuarterTable,
    g: &Geometry,
    side: Side,
    rows: u64,
    cols: u32,
    forbid_u: u64,
    forbid_v: u64,
    flags: bool,
    scratch: &mut HalfScratch,
    out: &mut Vec<u64>,
    start: usize,
) -> usize {
    let (rows_n, rows_s) = g.split_rows(rows);
    let c = g.c;
    let l = g.window_len();
    let m = low_mask(l);
    let hm = g.h - 1;
    let fu = g.local(side, forbid_u);
    let fv = g.local(side, forbid_v);
    let flag = flags as u64;
    // Clash words: north u | (v << c) << 32, south u << c | v << 32. Only bits the other
    // quarter can occupy matter, and those lie below 2h − 1 ≤ 32 in each half of the word;
    // bits shifted out or crossing bit 32 meet only zeros.
    let north_part = |au: u64, av: u64| -> (u64, u64) {
        let code = match side {
            Side::East => ((au >> c) & m) | ((av & m) << l),
            Side::West => (au & m) | (((av << c) & m) << l),
        };
        (au | ((av << c) << 32), code | (((au >> hm) & flag) << 62))
    };
    let south_part = |bu: u64, bv: u64| -> (u64, u64) {
        let code = match side {
            Side::East => (bu & m) | (((bv >> c) & m) << l),
            Side::West => ((bu << c) & m) | ((bv & m) << l),
        };
        ((bu << c) | (bv << 32), code | (((bv >> hm) & flag) << 63))
    };
    // Ask for both row sets' stretches of the table up front (about 14 KB each at h = 9): the
    // lists below are read out of order, and their first lines would otherwise miss one by one.
    prefetch(table.region(rows_n));
    prefetch(table.region(rows_s));
    let mut end = start;
    let k = POPCOUNT[rows_n as usize];
    let (mut north_raw, mut south_raw) =
        (std::mem::take(&mut scratch.north_raw), std::mem::take(&mut scratch.south_raw));
    let mut sub = cols;
    loop {
        if POPCOUNT[sub as usize] == k {
            let a_list = table.cells_into(rows_n, sub, &mut north_raw);
            let b_list = table.cells_into(rows_s, cols ^ sub, &mut south_raw);
            if !a_list.is_empty() && !b_list.is_empty() {
                let sc = &mut *scratch;
                for v in [&mut sc.north_t, &mut sc.north_c] {
                    if v.len() < a_list.len() {
                        v.resize(a_list.len(), 0);
                    }
                }
                for v in [&mut sc.south_t, &mut sc.south_c] {
                    if v.len() < b_list.len() {
                        v.resize(b_list.len(), 0);
                    }
                }
                // Branch-free filters: write every entry, keep it if it misses the forbidden
                // diagonals.
                let mut kn = 0;
                for &a in a_list {
                    let (au, av) = (a & 0xffff_ffff, a >> 32);
                    let (t, code) = north_part(au, av);
                    sc.north_t[kn] = t;
                    sc.north_c[kn] = code;
                    kn += ((au & fu) | ((av << c) & fv) == 0) as usize;
                }
                let mut ks = 0;
                for &b in b_list {
                    let (bu, bv) = (b & 0xffff_ffff, b >> 32);
                    let (t, code) = south_part(bu, bv);
                    sc.south_t[ks] = t;
                    sc.south_c[ks] = code;
                    ks += (((bu << c) & fu) | (bv & fv) == 0) as usize;
                }
                let (st, scode) = (&sc.south_t[..ks], &sc.south_c[..ks]);
                for i in 0..kn {
                    if out.len() < end + ks {
                        out.resize((end + ks).max(2 * out.len()), 0);
                    }
                    let dst = &mut out[end..end + ks];
                    end += pairs(sc.avx512, sc.north_t[i], sc.north_c[i], st, scode, dst);
                }
            }
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & cols;
    }
    (scratch.north_raw, scratch.south_raw) = (north_raw, south_raw);
    end
}

/// Calls `emit(U, V)` (the half's local form) for every half-solution on the global rows
/// `rows` (a mask over the board's rows outside the middle row) and the local columns `cols`
/// (an h-bit mask; popcount equal to that of `rows`) that avoids the global diagonals
/// `forbid_u` and `forbid_v`.
///
/// For each north column set C_N of the right size, the south column set is `cols` minus C_N;
/// the two quarter lists are filtered against the forbidden diagonals, then every pair is
/// tested for a north–south clash.
#[allow(clippy::too_many_arguments)]
pub fn for_each_half(
    table: &QuarterTable,
    g: &Geometry,
    side: Side,
    rows: u64,
    cols: u32,
    forbid_u: u64,
    forbid_v: u64,
    scratch: &mut HalfScratch,
    mut emit: impl FnMut(u64, u64),
) {
    let (rows_n, rows_s) = g.split_rows(rows);
    debug_assert_eq!(rows_n.count_ones() + rows_s.count_ones(), cols.count_ones());
    let c = g.c;
    let fu = g.local(side, forbid_u);
    let fv = g.local(side, forbid_v);
    let k = rows_n.count_ones();
    let (mut north_raw, mut south_raw) =
        (std::mem::take(&mut scratch.north_raw), std::mem::take(&mut scratch.south_raw));
    // Every submask of `cols` with k bits, by the standard submask walk.
    let mut sub = cols;
    loop {
        if sub.count_ones() == k {
            let a_list = table.cells_into(rows_n, sub, &mut north_raw);
            let b_list = table.cells_into(rows_s, cols ^ sub, &mut south_raw);
            if !a_list.is_empty() && !b_list.is_empty() {
                let north = &mut scratch.north;
                north.clear();
                north.extend(a_list.iter().copied().filter(|&a| {
                    let (au, av) = (a & 0xffff_ffff, a >> 32);
                    (au & fu) | ((av << c) & fv) == 0
                }));
                let south = &mut scratch.south;
                south.clear();
                south.extend(b_list.iter().copied().filter(|&b| {
                    let (bu, bv) = (b & 0xffff_ffff, b >> 32);
                    ((bu << c) & fu) | (bv & fv) == 0
                }));
                for &a in north.iter() {
                    let au = a & 0xffff_ffff;
                    let avc = (a >> 32) << c;
                    for &b in south.iter() {
                        let buc = (b & 0xffff_ffff) << c;
                        let bv = b >> 32;
                        if (au & buc) | (avc & bv) == 0 {
                            emit(au | buc, avc | bv);
                        }
                    }
                }
            }
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & cols;
    }
    (scratch.north_raw, scratch.south_raw) = (north_raw, south_raw);
}

/// Hints the CPU to bring every cache line of `entries` into cache.
#[inline]
fn prefetch(entries: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    for line in entries.chunks(8) {
        // SAFETY: a prefetch is only a hint: it never faults and changes no memory; the address
        // is the start of a live slice.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.as_ptr().cast())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entries;
}

/// Writes `ac | sc[i]` for every i with `at & st[i] == 0` to the front of `dst` (at least as
/// long as `st`) and returns how many it wrote.
#[inline]
fn pairs(avx512: bool, at: u64, ac: u64, st: &[u64], sc: &[u64], dst: &mut [u64]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx512 {
        // SAFETY: `avx512` is set only for `Level::Avx512`, which `Level::detect` returns only
        // where `cpu::Features::Avx512Vpopcnt` (AVX-512F included) is available.
        return unsafe { pairs_avx512(at, ac, st, sc, dst) };
    }
    let _ = avx512;
    pairs_scalar(at, ac, st, sc, dst, 0)
}

#[inline(always)]
fn pairs_scalar(at: u64, ac: u64, st: &[u64], sc: &[u64], dst: &mut [u64], mut j: usize) -> usize {
    for (&bt, &bc) in st.iter().zip(sc) {
        dst[j] = ac | bc;
        j += (at & bt == 0) as usize;
    }
    j
}

/// The pair loop eight south entries at a time: test, then compress the kept window masks into
/// a register and store all eight lanes (the register form of VPCOMPRESSQ; the memory form is
/// slow on AMD Zen 4).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn pairs_avx512(at: u64, ac: u64, st: &[u64], sc: &[u64], dst: &mut [u64]) -> usize {
    use std::arch::x86_64::*;
    assert!(sc.len() == st.len() && dst.len() >= st.len());
    let vat = _mm512_set1_epi64(at as i64);
    let vac = _mm512_set1_epi64(ac as i64);
    let full = st.len() / 8 * 8;
    let mut j = 0usize;
    let mut i = 0;
    while i < full {
        // SAFETY: i + 8 <= full <= st.len() = sc.len(), so both loads read initialised u64s;
        // j <= i (at most one write per entry), so j + 8 <= full <= dst.len() and the 8-lane
        // store stays inside `dst`.
        unsafe {
            let t = _mm512_loadu_si512(st.as_ptr().add(i).cast());
            let c = _mm512_loadu_si512(sc.as_ptr().add(i).cast());
            let keep = _mm512_testn_epi64_mask(vat, t);
            let packed = _mm512_maskz_compress_epi64(keep, _mm512_or_si512(vac, c));
            _mm512_storeu_si512(dst.as_mut_ptr().add(j).cast(), packed);
            j += keep.count_ones() as usize;
        }
        i += 8;
    }
    pairs_scalar(at, ac, &st[full..], &sc[full..], dst, j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::bits::colex;

    /// Every half-solution on `rows` and the columns `cols_global` (global column indices),
    /// by a direct column-by-column backtracker, as global (u, v) masks, sorted.
    fn direct(n: u32, rows: u64, cols_global: &[u32], forbid_u: u64, forbid_v: u64) -> Vec<(u64, u64)> {
        fn go(n: u32, rows: u64, cols: &[u32], u: u64, v: u64, out: &mut Vec<(u64, u64)>) {
            let Some((&col, rest)) = cols.split_first() else {
                out.push((u, v));
                return;
            };
            for r in 0..n {
                if rows & (1 << r) == 0 {
                    continue;
                }
                let du = 1u64 << (r + col);
                let dv = 1u64 << (col + n - 1 - r);
                if u & du == 0 && v & dv == 0 {
                    go(n, rows & !(1 << r), rest, u | du, v | dv, out);
                }
            }
        }
        let mut out = Vec::new();
        go(n, rows, cols_global, forbid_u, forbid_v, &mut out);
        let mut out: Vec<(u64, u64)> = out.into_iter().map(|(u, v)| (u & !forbid_u, v & !forbid_v)).collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn window_codes_equal_the_windows_of_every_half() {
        use crate::join::quarter::Symmetry;
        for (n, symmetry) in
            [(6, Symmetry::None), (9, Symmetry::Rows), (12, Symmetry::D4), (13, Symmetry::None)]
        {
            let g = Geometry::new(n);
            let table = QuarterTable::build_with(g.h, symmetry);
            let mut scratch = HalfScratch::default();
            let mut out = vec![7u64; 3];
            let free = low_mask(n) & !(if n % 2 == 1 { 1 << g.h } else { 0 });
            let (fu, fv) = if n % 2 == 1 { (1u64 << (n - 2), 1u64 << n) } else { (1u64 << (n - 1), 0) };
            for positions in colex(free.count_ones(), g.h).step_by(3) {
                let rows = super::super::bits::pdep_soft(positions, free);
                for side in [Side::East, Side::West] {
                    for cols in [low_mask(g.h) as u32, low_mask(g.h) as u32 & !2] {
                        let rows =
                            if cols.count_ones() < g.h { rows & !(rows & rows.wrapping_neg()) } else { rows };
                        let hm = g.h - 1;
                        let mut want = Vec::new();
                        for_each_half(&table, &g, side, rows, cols, fu, fv, &mut scratch, |u, v| {
                            let f = (((u >> hm) & 1) << 62) | (((v >> hm) & 1) << 63);
                            want.push(g.window(side, u, v) | f)
                        });
                        let end = window_codes(
                            &table,
                            &g,
                            side,
                            rows,
                            cols,
                            fu,
                            fv,
                            true,
                            &mut scratch,
                            &mut out,
                            3,
                        );
                        let mut got = out[3..end].to_vec();
                        got.sort_unstable();
                        want.sort_unstable();
                        assert_eq!(got, want, "n = {n} rows = {rows:b} cols = {cols:b} {side:?}");
                        assert_eq!(out[..3], [7, 7, 7]);
                    }
                }
            }
        }
    }

    #[test]
    fn halves_equal_a_direct_backtracker_up_to_12() {
        use crate::join::quarter::Symmetry;
        let symmetries = [Symmetry::None, Symmetry::Rows, Symmetry::D4];
        for (n, symmetry) in (4..=12).flat_map(|n| symmetries.map(|s| (n, s))) {
            let g = Geometry::new(n);
            let table = QuarterTable::build_with(g.h, symmetry);
            let mut scratch = HalfScratch::default();
            let middle = if n % 2 == 1 { 1u64 << g.h } else { 0 };
            let free = low_mask(n) & !middle;
            // Odd n: forbid the centre queen's diagonals, as the centre start does.
            let (fu, fv) = if n % 2 == 1 { (1u64 << (n - 1), 1u64 << (n - 1)) } else { (0, 0) };
            let mut checked = 0;
            for positions in colex(free.count_ones(), g.h) {
                let rows = super::super::bits::pdep_soft(positions, free);
                for side in [Side::East, Side::West] {
                    let offset = if side == Side::East { 0 } else { g.c };
                    let cols: Vec<u32> = (0..g.h).map(|i| i + offset).collect();
                    let mut got = Vec::new();
                    for_each_half(
                        &table,
                        &g,
                        side,
                        rows,
                        low_mask(g.h) as u32,
                        fu,
                        fv,
                        &mut scratch,
                        |u, v| {
                            got.push(match side {
                                Side::East => (u, v),
                                Side::West => (u << g.c, v << g.c),
                            })
                        },
                    );
                    got.sort_unstable();
                    assert_eq!(
                        got,
                        direct(n, rows, &cols, fu, fv),
                        "n = {n} rows = {rows:b} {side:?} {symmetry:?}"
                    );
                    checked += got.len();
                }
            }
            assert!(checked > 0, "n = {n}");
        }
    }
}
