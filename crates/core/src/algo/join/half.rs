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
use crate::arch::{Lanes, Level, Simd, multiversion};

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
    /// The factored lists [`window_codes`] pairs up.
    factors: Factors,
    /// Each side's south lists, kept from one call to the next: consecutive units (row sets
    /// in colex order) mostly share their south rows.
    south_lists: [SouthLists; 2],
    /// Mirrored quarter lists (when the table is compacted).
    north_raw: Vec<u64>,
    south_raw: Vec<u64>,
    /// The instruction-set level of the transforms and the pair loop ([`Level::best`] unless
    /// the caller sets another).
    pub level: Level,
}

impl HalfScratch {
    /// Returns the bytes the enumerator's buffers hold: what the factored north lists and the
    /// south lists of both sides have written (the pages past them are reserved, never
    /// touched), and the capacities of the others (emptied and refilled list by list). They
    /// keep them from one unit to the next: up to about 480 MiB after units of n = 28 whose
    /// sides pair many splits (results/2026-12-05-plan-memory/).
    pub(super) fn held_bytes(&self) -> usize {
        let f = &self.factors;
        let lists: usize = self.south_lists.iter().map(|l| l.south_t.len() + l.south_c.len()).sum();
        8 * (f.north_t.len()
            + f.north_c.len()
            + lists
            + self.north.capacity()
            + self.south.capacity()
            + self.north_raw.capacity()
            + self.south_raw.capacity())
    }

    /// Frees the buffers [`HalfScratch::held_bytes`] counts (and the south lists kept for the
    /// next unit, which are built again); keeps the level.
    pub(super) fn release(&mut self) {
        *self = HalfScratch { level: self.level, ..HalfScratch::default() };
    }
}

/// Bit of a window code (from [`window_codes`] with `flags`) set if and only if the half has a
/// queen on local diagonal u = h − 1 of its north quarter (for even n and the west half: the
/// anti-diagonal u = n − 1).
pub const FLAG_NORTH_U: u64 = 1 << 62;
/// Bit set if and only if the half has a queen on local difference diagonal v = h − 1 of its
/// south quarter (for even n and the west half: the main diagonal v = n − 1).
pub const FLAG_SOUTH_V: u64 = 1 << 63;

/// Popcounts of h-bit masks (h ≤ [`MAX_H`](super::quarter::MAX_H) = 13, n ≤ 27): the
/// enumerator is built for the baseline CPU, where `count_ones` is a slow bit trick, and it
/// tests every submask of the half's columns.
static POPCOUNT: [u8; 1 << super::quarter::MAX_H] = {
    let mut t = [0u8; 1 << super::quarter::MAX_H];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
};

/// One side's half-boards on a row set in factored form: for every column split (north
/// columns C_N, south columns the rest), the north and the south quarter lists, each entry
/// transformed into a *clash word* and a *window part*. A half-board is a pair (north i, south
/// j) of one split whose clash words are disjoint; its window mask is the OR of the two parts
/// ([`materialize`] writes them). The lists take (kn + ks) words per split against the
/// kn·ks·p half-boards (p about 0.3–0.4). The north lists are here; the south lists are in
/// the [`SouthLists`] of the side.
#[derive(Default, Debug, Clone)]
pub struct Factors {
    /// Each split's north entries (start, end) and south entries (start, end in the side's
    /// [`SouthLists`]).
    pub splits: Vec<[u32; 4]>,
    /// Clash words of the north entries (entries past the last split's end are scratch).
    pub north_t: Vec<u64>,
    /// Window parts of the north entries, with [`FLAG_NORTH_U`] when flagged.
    pub north_c: Vec<u64>,
}

impl Factors {
    /// Empties the lists (keeping their buffers).
    pub fn clear(&mut self) {
        self.splits.clear();
    }

    /// Returns the number of north entries.
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.splits.last().map_or(0, |s| s[1] as usize)
    }

    /// Returns true if and only if no split holds an entry.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.splits.is_empty()
    }

    /// Returns split `k`'s candidate half-boards: its north entries times its south entries (a
    /// third or so of them pass the clash test).
    #[cfg(any(test, feature = "internals"))]
    #[inline]
    pub fn candidates(&self, k: usize) -> u64 {
        let [n0, n1, s0, s1] = self.splits[k];
        u64::from(n1 - n0) * u64::from(s1 - s0)
    }

    /// Returns the number of splits.
    #[cfg(any(test, feature = "internals"))]
    pub fn splits(&self) -> usize {
        self.splits.len()
    }

    /// Returns the ranges of split `k`'s north entries and of its south entries (in the
    /// side's [`SouthLists`]).
    #[inline]
    pub fn split(&self, k: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let [n0, n1, s0, s1] = self.splits[k];
        (n0 as usize..n1 as usize, s0 as usize..s1 as usize)
    }
}

/// One side's south quarter lists for one south row set, column set, pair of forbidden
/// diagonal masks and flag choice (the key), transformed as in [`Factors`], one list per north
/// column set C_N (the south list of columns `cols` minus C_N). [`factor`] keeps them while
/// the key stays the same.
#[derive(Default, Debug, Clone)]
pub struct SouthLists {
    /// (n, south rows, columns, forbidden u and v in local form, flags).
    key: Option<(u32, u32, u32, u64, u64, bool)>,
    /// (start, end) of the list of each north column set (indexed by the set, up to `cols`).
    ranges: Vec<(u32, u32)>,
    /// Clash words of the south entries.
    pub south_t: Vec<u64>,
    /// Window parts of the south entries, with [`FLAG_SOUTH_V`] when flagged.
    pub south_c: Vec<u64>,
}

/// How one quarter's entries `u | v << 32` become clash words, window parts and the filter
/// against forbidden diagonals (see [`factor`]): every step is a shift by a count the same
/// for all entries, so eight entries go through one AVX-512 register.
#[derive(Clone, Copy, Debug)]
struct Part {
    /// Clash word: u << tu | v << tv.
    tu: u32,
    tv: u32,
    /// Window part: ((u << ul) >> ur) & m | (((v << vl) >> vr) & m) << l.
    ul: u32,
    ur: u32,
    vl: u32,
    vr: u32,
    m: u64,
    l: u32,
    /// Flag: bit hm of u (north) or of v (south) moved to bit `fbit`, if `flag` is 1.
    flag_from_v: bool,
    hm: u32,
    flag: u64,
    fbit: u32,
    /// Kept if and only if ((u << ku) & fu) | ((v << kv) & fv) is zero.
    ku: u32,
    kv: u32,
    fu: u64,
    fv: u64,
}

impl Part {
    /// One entry through the part, as [`transform`] does it `WIDTH` at a time (the reference of
    /// the tests).
    #[cfg(test)]
    fn apply(&self, x: u64) -> (u64, u64, bool) {
        let (u, v) = (x & 0xffff_ffff, x >> 32);
        let t = (u << self.tu) | (v << self.tv);
        let src = if self.flag_from_v { v } else { u };
        let code = (((u << self.ul) >> self.ur) & self.m)
            | (((((v << self.vl) >> self.vr) & self.m) << self.l)
                | (((src >> self.hm) & self.flag) << self.fbit));
        let keep = ((u << self.ku) & self.fu) | ((v << self.kv) & self.fv) == 0;
        (t, code, keep)
    }
}

/// Transforms `list` by `part` into `t[..]` and `c[..]` (each at least `list.len()` + 8 long),
/// keeping the entries that pass the filter; returns how many it kept. [`Part::apply`] on
/// `WIDTH` entries at a time: every shift is by a count the same for all entries.
///
/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled.
#[inline(always)]
unsafe fn transform<S: Simd>(part: &Part, list: &[u64], t: &mut [u64], c: &mut [u64]) -> usize {
    type V<S> = <S as Simd>::Lanes;
    assert!(t.len() >= list.len() + 8 && c.len() >= list.len() + 8 && V::<S>::WIDTH <= 8);
    let mut k = 0usize;
    let mut i = 0;
    // SAFETY: (the loop) this runs with `S`'s features; k ≤ i, so the WIDTH-lane stores at k
    // end at most at list.len() + 8 ≤ t.len(), c.len() (asserted above).
    unsafe {
        let (low, m, flag) = (V::<S>::splat(0xffff_ffff), V::<S>::splat(part.m), V::<S>::splat(part.flag));
        let (fu, fv) = (V::<S>::splat(part.fu), V::<S>::splat(part.fv));
        while i < list.len() {
            let x = V::<S>::load(list, i);
            let (u, v) = (x.and(low), x.shr(32));
            let tw = u.shl(part.tu).or(v.shl(part.tv));
            let cu = u.shl(part.ul).shr(part.ur).and(m);
            let cv = v.shl(part.vl).shr(part.vr).and(m);
            let src = if part.flag_from_v { v } else { u };
            let fl = src.shr(part.hm).and(flag).shl(part.fbit);
            let code = cu.or(cv.shl(part.l)).or(fl);
            let hit = u.shl(part.ku).and(fu).or(v.shl(part.kv).and(fv));
            // Lanes past the end of the list are not kept.
            let keep = !hit.nonzero() & V::<S>::first(list.len() - i);
            V::<S>::compress_store(t.as_mut_ptr().add(k), keep, tw);
            k += V::<S>::compress_store(c.as_mut_ptr().add(k), keep, code);
            i += V::<S>::WIDTH;
        }
    }
    k
}

multiversion! {
    /// Writes the factored form of every half-solution that [`for_each_half`] would visit on
    /// `side`, `rows`, `cols` into `out` (replacing what it held) and the side's south lists in
    /// `scratch` (kept as they are when the south rows, columns, forbidden diagonals and flags are
    /// those of the side's last call): per column split with non-empty lists, the north and
    /// south entries that miss the forbidden
    /// diagonals, as clash words (north u | (v << c) << 32, south u << c | v << 32: a pair
    /// clashes if and only if they intersect) and window parts (the OR of a pair's parts is its
    /// window mask). With `flags`, north parts carry [`FLAG_NORTH_U`] and south parts
    /// [`FLAG_SOUTH_V`]. The transforms run in the copy of `level`.
    pub fn factor(
        table: &QuarterTable,
        g: &Geometry,
        side: Side,
        rows: u64,
        cols: u32,
        forbid_u: u64,
        forbid_v: u64,
        flags: bool,
        scratch: &mut HalfScratch,
        out: &mut Factors,
    ) => factor_body;
}

/// [`factor`] at the level `S`.
///
/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn factor_body<S: Simd>(
    table: &QuarterTable,
    g: &Geometry,
    side: Side,
    rows: u64,
    cols: u32,
    forbid_u: u64,
    forbid_v: u64,
    flags: bool,
    scratch: &mut HalfScratch,
    out: &mut Factors,
) {
    let (rows_n, rows_s) = g.split_rows(rows);
    let c = g.c;
    let l = g.window_len();
    let m = low_mask(l);
    let flag = flags as u64;
    let base = Part {
        tu: 0,
        tv: 0,
        ul: 0,
        ur: 0,
        vl: 0,
        vr: 0,
        m,
        l,
        flag_from_v: false,
        hm: g.h - 1,
        flag,
        fbit: 62,
        ku: 0,
        kv: 0,
        fu: g.local(side, forbid_u),
        fv: g.local(side, forbid_v),
    };
    // Clash words: only bits the other quarter can occupy matter, and those lie below
    // 2h − 1 ≤ 32 in each half of the word; bits shifted out or crossing bit 32 meet only zeros.
    let north = match side {
        Side::East => Part { tv: c + 32, ur: c, kv: c, ..base },
        Side::West => Part { tv: c + 32, vl: c, kv: c, ..base },
    };
    let south = match side {
        Side::East => Part { tu: c, tv: 32, vr: c, ku: c, flag_from_v: true, fbit: 63, ..base },
        Side::West => Part { tu: c, tv: 32, ul: c, ku: c, flag_from_v: true, fbit: 63, ..base },
    };
    let k = POPCOUNT[rows_n as usize];
    let (mut north_raw, mut south_raw) =
        (std::mem::take(&mut scratch.north_raw), std::mem::take(&mut scratch.south_raw));
    // The south lists: kept from the last call on this side if its key is the same.
    let mut lists = std::mem::take(&mut scratch.south_lists[side as usize]);
    let key = (g.n, rows_s, cols, base.fu, base.fv, flags);
    if lists.key != Some(key) {
        lists.key = None;
        // Ask for the row set's stretch of the table up front (about 14 KB at h = 9): the
        // lists below are read out of order, and their first lines would otherwise miss one
        // by one.
        // SAFETY: this runs with `S`'s features.
        unsafe { prefetch::<S>(table.region(rows_s)) };
        lists.ranges.clear();
        lists.ranges.resize(cols as usize + 1, (0, 0));
        let mut end = 0;
        let mut sub = cols;
        loop {
            if POPCOUNT[sub as usize] == k {
                let b_list = table.cells_into(rows_s, cols ^ sub, &mut south_raw);
                if !b_list.is_empty() {
                    for v in [&mut lists.south_t, &mut lists.south_c] {
                        if v.len() < end + b_list.len() + 8 {
                            v.resize(end + b_list.len() + 8, 0);
                        }
                    }
                    // SAFETY: this runs with `S`'s features.
                    let ks = unsafe {
                        transform::<S>(&south, b_list, &mut lists.south_t[end..], &mut lists.south_c[end..])
                    };
                    lists.ranges[sub as usize] = (end as u32, (end + ks) as u32);
                    end += ks;
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & cols;
        }
        lists.key = Some(key);
    }
    // SAFETY: as above.
    unsafe { prefetch::<S>(table.region(rows_n)) };
    out.splits.clear();
    let mut n_end = 0;
    let mut sub = cols;
    loop {
        let (s0, s1) = lists.ranges[sub as usize];
        if POPCOUNT[sub as usize] == k && s1 > s0 {
            let a_list = table.cells_into(rows_n, sub, &mut north_raw);
            if !a_list.is_empty() {
                for v in [&mut out.north_t, &mut out.north_c] {
                    if v.len() < n_end + a_list.len() + 8 {
                        v.resize(n_end + a_list.len() + 8, 0);
                    }
                }
                let kn =
                    // SAFETY: this runs with `S`'s features.
                    unsafe { transform::<S>(&north, a_list, &mut out.north_t[n_end..], &mut out.north_c[n_end..]) };
                if kn > 0 {
                    out.splits.push([n_end as u32, (n_end + kn) as u32, s0, s1]);
                    n_end += kn;
                }
            }
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & cols;
    }
    scratch.south_lists[side as usize] = lists;
    (scratch.north_raw, scratch.south_raw) = (north_raw, south_raw);
}

multiversion! {
    /// Writes the window mask (with its flags) of every half-board of the `splits` of `factors`
    /// into `out[start..]` (growing `out` as needed; entries past the returned end are scratch)
    /// and returns the end. The pair loop is branch-free: it tests a register of south entries at a
    /// time against a north entry and stores the kept window masks compressed. A split's south
    /// list of up to four registers (16 entries with four lanes, 32 with eight; most lists are
    /// that short) stays in registers for all its north entries.
    pub fn materialize(factors: &Factors, lists: &SouthLists, splits: std::ops::Range<usize>, out: &mut Vec<u64>, start: usize) -> usize
        => materialize_body;
}

/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled.
#[inline(always)]
unsafe fn materialize_body<S: Simd>(
    factors: &Factors,
    lists: &SouthLists,
    splits: std::ops::Range<usize>,
    out: &mut Vec<u64>,
    start: usize,
) -> usize {
    type V<S> = <S as Simd>::Lanes;
    let width = V::<S>::WIDTH;
    let mut end = start;
    for k in splits {
        let (north, south) = factors.split(k);
        let (kn, ks) = (north.len(), south.len());
        // Room for every candidate of the split and one register of slack. Only that much is
        // written (the capacity grows geometrically underneath, untouched): zeroing twice the
        // length ahead kept a third of a side of n = 28 (10^8 halves) resident for nothing.
        if out.len() < end + kn * ks + width {
            out.resize(end + kn * ks + width, 0);
        }
        let (st, sc) = (&lists.south_t[south.clone()], &lists.south_c[south]);
        let dst = out.as_mut_ptr();
        // SAFETY: (both loops) this runs with `S`'s features; every store writes `width`
        // lanes at `end`, and at most kn · ks entries are kept per split, whose room plus
        // `width` was reserved above.
        unsafe {
            match ks.div_ceil(width) {
                1 => end = pairs_held::<S, 1>(factors, north, st, sc, dst, end),
                2 => end = pairs_held::<S, 2>(factors, north, st, sc, dst, end),
                3 => end = pairs_held::<S, 3>(factors, north, st, sc, dst, end),
                4 => end = pairs_held::<S, 4>(factors, north, st, sc, dst, end),
                _ => {
                    for i in north {
                        let at = V::<S>::splat(factors.north_t[i]);
                        let ac = V::<S>::splat(factors.north_c[i]);
                        let mut j = 0;
                        while j < ks {
                            let (t, c) = (V::<S>::load(st, j), V::<S>::load(sc, j));
                            let keep = !at.and(t).nonzero() & V::<S>::first(ks - j);
                            end += V::<S>::compress_store(dst.add(end), keep, ac.or(c));
                            j += width;
                        }
                    }
                }
            }
        }
    }
    end
}

/// The pair loop of [`materialize`] for a south list of `R` registers (up to `R` · WIDTH
/// entries, `st` and `sc`), held in registers for all the north entries `north`: writes the
/// kept window masks at `dst.add(end)` and returns the new end.
///
/// # Safety
/// Runs `S`'s instructions; `st` and `sc` have one length, above (`R` − 1) · WIDTH; `dst` has
/// room for `north.len()` · `st.len()` + WIDTH values from `end`.
#[inline(always)]
unsafe fn pairs_held<S: Simd, const R: usize>(
    factors: &Factors,
    north: std::ops::Range<usize>,
    st: &[u64],
    sc: &[u64],
    dst: *mut u64,
    mut end: usize,
) -> usize {
    type V<S> = <S as Simd>::Lanes;
    let width = V::<S>::WIDTH;
    // SAFETY: this runs with `S`'s features; every store writes WIDTH lanes at `end`, inside
    // the room the caller gives; each load starts at r · WIDTH < `st.len()` = `sc.len()` (R is
    // the registers the list fills), as `Lanes::load` needs.
    unsafe {
        let held: [(V<S>, V<S>, u32); R] = std::array::from_fn(|r| {
            (V::<S>::load(st, r * width), V::<S>::load(sc, r * width), V::<S>::first(st.len() - r * width))
        });
        for i in north {
            let at = V::<S>::splat(factors.north_t[i]);
            let ac = V::<S>::splat(factors.north_c[i]);
            for &(t, c, live) in &held {
                let keep = !at.and(t).nonzero() & live;
                end += V::<S>::compress_store(dst.add(end), keep, ac.or(c));
            }
        }
    }
    end
}

/// The entries [`window_codes`] adds to a split's candidates (kept pairs at most) when it tells
/// its `room` callback what `out` must hold: the most lanes a register of [`materialize`]
/// writes past the last kept entry.
const ROOM_SLACK: usize = 8;

/// Writes the window mask of every half-solution that [`for_each_half`] would visit into
/// `out[start..]` (growing `out` as needed; entries past the returned end are scratch) and
/// returns the end. With `flags`, each mask also carries [`FLAG_NORTH_U`] and [`FLAG_SOUTH_V`].
/// ([`factor`], then [`materialize`].) Before `out` grows past its length, `room` is called
/// with the entries it is about to need (at most a split's candidates more than the halves
/// written so far), so that the caller can free other memory first: pages `out` has touched
/// are reused, new ones are the kernel's to find and zero.
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
    room: &mut dyn FnMut(usize),
) -> usize {
    let mut factors = std::mem::take(&mut scratch.factors);
    factors.clear();
    factor(scratch.level, table, g, side, rows, cols, forbid_u, forbid_v, flags, scratch, &mut factors);
    let lists = &scratch.south_lists[side as usize];
    // The splits go to `materialize` in runs whose candidates fit `out` as it is; a split that
    // may not is preceded by the run before it and a call of `room`.
    let (mut end, mut from, mut bound) = (start, 0, start);
    for k in 0..factors.splits.len() {
        let (north, south) = factors.split(k);
        let candidates = north.len() * south.len();
        if bound + candidates + ROOM_SLACK > out.len() {
            end = materialize(scratch.level, &factors, lists, from..k, out, end);
            (from, bound) = (k, end);
            if end + candidates + ROOM_SLACK > out.len() {
                room(end + candidates + ROOM_SLACK);
            }
        }
        bound += candidates;
    }
    let end = materialize(scratch.level, &factors, lists, from..factors.splits.len(), out, end);
    scratch.factors = factors;
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
                north.extend(a_list.iter().copied().filter(|&a| north_misses(a, fu, fv, c)));
                let south = &mut scratch.south;
                south.clear();
                south.extend(b_list.iter().copied().filter(|&b| south_misses(b, fu, fv, c)));
                for &a in north.iter() {
                    for &b in south.iter() {
                        if let Some((u, v)) = half_of(a, b, c) {
                            emit(u, v);
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

/// Returns true if and only if the north quarter entry `a` (u | v << 32, local to its quarter)
/// misses the forbidden diagonals `fu`, `fv` (local to the side; `c` = ⌈n/2⌉).
#[inline(always)]
pub(super) fn north_misses(a: u64, fu: u64, fv: u64, c: u32) -> bool {
    ((a & 0xffff_ffff) & fu) | (((a >> 32) << c) & fv) == 0
}

/// Returns true if and only if the south quarter entry `b` misses the forbidden diagonals `fu`,
/// `fv` (as [`north_misses`]).
#[inline(always)]
pub(super) fn south_misses(b: u64, fu: u64, fv: u64, c: u32) -> bool {
    (((b & 0xffff_ffff) << c) & fu) | ((b >> 32) & fv) == 0
}

/// Returns the half's local form (U, V) of north entry `a` and south entry `b`, or `None` where
/// they clash on a diagonal or an anti-diagonal.
#[inline(always)]
pub(super) fn half_of(a: u64, b: u64, c: u32) -> Option<(u64, u64)> {
    let (au, avc) = (a & 0xffff_ffff, (a >> 32) << c);
    let (buc, bv) = ((b & 0xffff_ffff) << c, b >> 32);
    ((au & buc) | (avc & bv) == 0).then_some((au | buc, avc | bv))
}

/// Hints the CPU to bring every cache line of `entries` into cache ([`Simd::prefetch`]).
///
/// # Safety
/// Runs `S`'s instructions: only with `S`'s features enabled.
#[inline(always)]
unsafe fn prefetch<S: Simd>(entries: &[u64]) {
    for line in entries.chunks(8) {
        // SAFETY: this runs with `S`'s features; a prefetch is only a hint, and the address is
        // the start of a live slice.
        unsafe { S::prefetch(line.as_ptr()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_transforms_like_the_scalar_part() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in [0usize, 1, 3, 4, 7, 8, 9, 31, 64] {
            let list: Vec<u64> = (0..len).map(|_| next() & 0x0fff_0fff_0fff_0fff).collect();
            for flag_from_v in [false, true] {
                let part = Part {
                    tu: 3,
                    tv: 40,
                    ul: 2,
                    ur: 5,
                    vl: 1,
                    vr: 4,
                    m: 0x1fff,
                    l: 13,
                    flag_from_v,
                    hm: 8,
                    flag: 1,
                    fbit: 62,
                    ku: 1,
                    kv: 2,
                    fu: next() & next() & next(),
                    fv: next() & next() & next(),
                };
                let want: Vec<(u64, u64)> =
                    list.iter().map(|&e| part.apply(e)).filter(|r| r.2).map(|(t, c, _)| (t, c)).collect();
                for level in Level::available() {
                    let (mut t, mut c) = (vec![0; len + 8], vec![0; len + 8]);
                    let kept = transform_at(level, &part, &list, &mut t, &mut c);
                    let got: Vec<(u64, u64)> =
                        t[..kept].iter().copied().zip(c[..kept].iter().copied()).collect();
                    assert_eq!(got, want, "{level} {len} {flag_from_v}");
                }
            }
        }
    }

    multiversion! {
        fn transform_at(part: &Part, list: &[u64], t: &mut [u64], c: &mut [u64]) -> usize => transform;
    }
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
            let levels = Level::available();
            let mut out = vec![7u64; 3];
            let free = low_mask(n) & !(if n % 2 == 1 { 1 << g.h } else { 0 });
            let (fu, fv) = if n % 2 == 1 { (1u64 << (n - 2), 1u64 << n) } else { (1u64 << (n - 1), 0) };
            for positions in colex(free.count_ones(), g.h).step_by(3) {
                let rows = super::super::bits::pdep_soft(positions, free);
                for side in [Side::East, Side::West] {
                    // Four keys (forbidden diagonals and flags), each with two column sets,
                    // so the south lists kept in `scratch` are reused and replaced as the
                    // rows, sides, columns, forbidden diagonals, flags and n change.
                    for (fu, fv, flags) in
                        [(fu, fv, true), (fu, fv, false), (0, fv, false), (0, 1u64 << (n / 2), false)]
                    {
                        for cols in [low_mask(g.h) as u32, low_mask(g.h) as u32 & !2] {
                            let rows = if cols.count_ones() < g.h {
                                rows & !(rows & rows.wrapping_neg())
                            } else {
                                rows
                            };
                            let hm = g.h - 1;
                            let mut want = Vec::new();
                            for_each_half(&table, &g, side, rows, cols, fu, fv, &mut scratch, |u, v| {
                                let f = (((u >> hm) & 1) << 62) | (((v >> hm) & 1) << 63);
                                want.push(g.window(side, u, v) | if flags { f } else { 0 })
                            });
                            // Each level in turn (they share the kept south lists).
                            scratch.level = levels[want.len() % levels.len()];
                            let end = window_codes(
                                &table,
                                &g,
                                side,
                                rows,
                                cols,
                                fu,
                                fv,
                                flags,
                                &mut scratch,
                                &mut out,
                                3,
                                &mut |_| {},
                            );
                            let mut got = out[3..end].to_vec();
                            got.sort_unstable();
                            want.sort_unstable();
                            let level = scratch.level;
                            assert_eq!(
                                got, want,
                                "n = {n} rows = {rows:b} cols = {cols:b} {side:?} {flags} {level}"
                            );
                        }
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
