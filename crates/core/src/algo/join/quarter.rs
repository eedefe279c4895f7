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
//! stretch (about 14 KB at h = 9), which stays in cache. Built one row set at a time (one walk
//! into a small buffer, sorted by column set onto the end of the table), so the peak memory is
//! the table itself ([`QuarterTable::try_build_with`]).
//!
//! Compaction ([`Symmetry`]): mirroring the square top to bottom (local row r → h−1−r) maps a
//! placement on rows R, columns C with diagonals (u, v) to one on rows rev(R), columns C with
//! diagonals (v, u); mirroring it left to right maps it to rows R, columns rev(C) with
//! diagonals (rev(v), rev(u)), rev over the 2h−1 diagonal bits; the transpose maps it to rows
//! C, columns R with diagonals (u, rev(v)). So a table may keep one key of each orbit and hand
//! out the others as a mapped view: [`QuarterTable::cells`] returns the stored list and the
//! [`Mirror`] to apply. At h = 11 (n = 22–23) only R ≤ rev(R) is stored (52% of the entries;
//! E. Kluev's row-symmetric table); from h = 12 one key per D4 orbit (13%), so n = 24–25 need
//! 0.73 GB instead of 5.1 GB and n = 26–27 6.9 GB instead of 51 GB.
//!
//! Sizes (entries, counted): 16,870 / 118,969 / 915,442 / 7,535,369 / 66,807,234 /
//! 633,443,407 / 6,354,135,838 for h = 7..13, 7–10× per step (E. Kluev's N-Queens-Count-Sol
//! measures the same counts up to h = 11; see doc/join-algorithm.md §1); stored,
//! with the compaction the join uses: 34,543,071 at h = 11 (293 MB with the offsets),
//! 82,448,724 at h = 12 (727 MB), 827,087,253 at h = 13 (6.9 GB) ([`estimated_entries`]).
//! Build cost on the development VM (one thread, CPU seconds): 0.4 at h = 11, 1.8 at h = 12,
//! 18 at h = 13 (plus about 8 s of page faults there), against 4.5, 40 and 460 for a walk over
//! every placement (results/2026-12-01-join-table/).

mod compaction;
pub mod sample;

pub use compaction::{Mirror, Symmetry};
use compaction::{canonical, rev_h};

/// The largest quarter side whose whole table is built ([`QuarterTable::try_build_with`]):
/// 4^h offsets must stay modest (4^13 · 4 B = 256 MiB) and the stored entries must fit a `u32`
/// index (827 million at h = 13 with one key per D4 orbit). The h = 14 table would hold about
/// 8 × 10^9 entries with compaction (65 GB): beyond it the join reads row sets
/// ([`QuarterTable::rows_only`]).
pub const MAX_TABLE_H: u32 = 13;

/// The largest quarter side at all (n = 28–29): the lists of one row set, built on demand
/// ([`QuarterTable::load_rows`]), hold at most a few million placements each.
pub const MAX_H: u32 = 14;

/// Every non-attacking placement on an h×h square, by (row set, column set): the whole table
/// ([`QuarterTable::build`]), or the lists of a few row sets only ([`QuarterTable::rows_only`],
/// [`QuarterTable::load_rows`]), which is all one join unit reads.
#[derive(Clone, Debug)]
pub struct QuarterTable {
    h: u32,
    symmetry: Symmetry,
    /// The whole table: 4^h + 1 offsets by key `cols | rows << h` (empty for a row-set table).
    offsets: Vec<u32>,
    entries: Vec<u64>,
    /// A row-set table: the row sets loaded, each with all its lists (`None` for a whole table).
    rows: Option<Vec<RowLists>>,
    /// A row-set table's lengths of the whole table's lists ([`QuarterTable::try_build_lengths`]).
    lengths: Option<Box<Lengths>>,
}

/// The offsets of a whole table without its entries: the lengths of its lists.
#[derive(Clone, Debug)]
struct Lengths {
    symmetry: Symmetry,
    offsets: Vec<u32>,
}

/// Walks every row set whose keys `symmetry` stores, in increasing order (the walk of
/// [`QuarterTable::try_build_with`]), hands each walk to `append`, which stores (or only sorts)
/// its placements and returns where they start among the table's entries, and returns the
/// 4^h + 1 offsets.
fn walk_offsets(
    h: u32,
    symmetry: Symmetry,
    mut append: impl FnMut(&mut RowWalk) -> Result<usize, std::collections::TryReserveError>,
) -> Result<Vec<u32>, std::collections::TryReserveError> {
    let side = 1usize << h;
    let keys = side << h;
    let mut offsets = Vec::new();
    offsets.try_reserve_exact(keys + 1)?;
    offsets.resize(keys + 1, 0u32);
    // Row sets stored under no compaction, or the lesser of each mirror pair.
    let walked: Vec<u32> =
        (0..side as u32).filter(|&rows| symmetry == Symmetry::None || rows <= rev_h(rows, h)).collect();
    // The offsets are set up to `done` (every key before it).
    let mut done = 0;
    let mut total = 0usize;
    let mut walk = RowWalk::new(h);
    for &rows in &walked {
        if walk.run(h, symmetry, rows) {
            let base = append(&mut walk)?;
            let from = rows as usize * side;
            let base32 = u32::try_from(base).expect("at most u32::MAX stored entries (compact the table)");
            offsets[done..from].fill(base32);
            // The counts of the lists (sort_into turned them into their starts, from 0).
            let starts: &[u32] = &walk.counts;
            for (o, &s) in offsets[from..from + side].iter_mut().zip(starts) {
                *o = base32 + s;
            }
            done = from + side;
            total = base + walk.entries.len();
        }
    }
    let total = u32::try_from(total).expect("at most u32::MAX stored entries (compact the table)");
    offsets[done..].fill(total);
    Ok(offsets)
}

/// Every placement on one row set, by column set, uncompacted: `entries[starts[cols] ..
/// starts[cols + 1]]` are the placements on (`rows`, `cols`), `u | v << 32` each.
#[derive(Clone, Debug)]
struct RowLists {
    rows: u32,
    starts: Vec<u32>,
    entries: Vec<u64>,
}

impl Default for QuarterTable {
    /// An empty row-set table of side 0 ([`QuarterTable::rows_only`]).
    fn default() -> QuarterTable {
        QuarterTable::rows_only(0)
    }
}

impl QuarterTable {
    /// Builds the table for an `h`×`h` square (0 ≤ `h` ≤ [`MAX_TABLE_H`]) with the compaction the
    /// join uses for that side ([`Symmetry::for_side`]); see [`QuarterTable::try_build_with`].
    ///
    /// # Panics
    /// If `h` > [`MAX_TABLE_H`] or the table does not fit in memory (callers check with
    /// [`estimated_bytes`] first).
    #[cfg(any(test, feature = "internals"))]
    pub fn build(h: u32) -> QuarterTable {
        QuarterTable::build_with(h, Symmetry::for_side(h))
    }

    /// Builds the table for side `h` storing the keys `symmetry` keeps (see
    /// [`QuarterTable::try_build_with`]).
    ///
    /// # Panics
    /// As [`QuarterTable::try_build_with`], and if the table does not fit in memory.
    #[cfg(any(test, feature = "internals"))]
    pub fn build_with(h: u32, symmetry: Symmetry) -> QuarterTable {
        QuarterTable::try_build_with(h, symmetry)
            .unwrap_or_else(|e| panic!("the quarter table of side {h} does not fit in memory: {e}"))
    }

    /// Builds the table for side `h` storing the keys `symmetry` keeps, reserving its two big
    /// arrays (the 4^h + 1 offsets and the entries) fallibly.
    ///
    /// One row set at a time, in increasing order: for each row set R whose keys are stored (R ≤
    /// rev(R) under compaction), a backtracker places one queen on each row of R, taking its
    /// column from the free columns off the two diagonals already occupied (one mask per row, so
    /// no attacked square is tried), into a buffer of that row set's placements (at most 0.2
    /// million at h = 12, 1.2 million at h = 13), which a stable counting sort by column set
    /// appends to the table. The counts of one R (2^h of them, 32 KB at h = 13) stay in cache,
    /// where a walk over every placement scatters them over the 4^h offsets; a row set whose keys
    /// are all mirror images of others is never walked (half the placements under either
    /// compaction), and under [`Symmetry::D4`] the walk adds only columns that lead to a stored
    /// key. Each list holds its placements in the order of their columns on the rows top to
    /// bottom, as a walk over all placements row by row finds them. The entries are reserved at
    /// once from the counted sizes ([`estimated_entries`]), so the peak memory is the table and
    /// one row set's buffer (12 MB at h = 13).
    ///
    /// Sequential, on the calling thread: 0.4 CPU s at h = 11 (n = 22–23), 1.8 s at h = 12,
    /// 18 s at h = 13 on the development VM (results/2026-12-01-join-table/), against hours per
    /// shard of the boards that need them.
    ///
    /// # Errors
    /// The allocator's refusal when either array cannot be reserved (instead of an abort).
    ///
    /// # Panics
    /// If `h` > [`MAX_TABLE_H`], or if more than `u32::MAX` entries would be stored (the uncompacted
    /// table at h = 13).
    pub fn try_build_with(
        h: u32,
        symmetry: Symmetry,
    ) -> Result<QuarterTable, std::collections::TryReserveError> {
        assert!(h <= MAX_TABLE_H, "quarter side {h} is beyond {MAX_TABLE_H} for a whole table");
        let stored = estimated_entries(h, symmetry);
        assert!(
            stored <= u32::MAX as u64,
            "{stored} entries at side {h} do not fit a u32 index (compact the table)"
        );
        let mut entries = Vec::new();
        entries.try_reserve_exact(stored as usize)?;
        let offsets = walk_offsets(h, symmetry, |walk| {
            let base = entries.len();
            entries.try_reserve(walk.entries.len())?;
            entries.resize(base + walk.entries.len(), 0);
            walk.sort_into(&mut entries[base..]);
            Ok(base)
        })?;
        // A no-op when the measured size was reserved (a shrink in place otherwise).
        entries.shrink_to_fit();
        Ok(QuarterTable { h, symmetry, offsets, entries, rows: None, lengths: None })
    }

    /// Returns an empty row-set table of side `h` ([`QuarterTable::rows_only`]) that also knows
    /// the length of every list of the whole table with `symmetry`'s compaction
    /// ([`QuarterTable::list_len`]): the 4^h + 1 offsets of [`QuarterTable::try_build_with`]
    /// without its entries (268 MB at h = 13 instead of 6.9 GB), from the same walk over every
    /// row set, each row set's placements sorted as the build sorts them (into a buffer reused
    /// for the next), so that the walk takes about the build's time. What a sample of a join
    /// plan's units needs of the table: their weights ([`super::cost::sample_weight`]) come
    /// from the lengths, their lists from the row sets each unit loads.
    ///
    /// # Errors
    /// The allocator's refusal when the offsets cannot be reserved.
    ///
    /// # Panics
    /// If `h` > [`MAX_TABLE_H`].
    pub fn try_build_lengths(
        h: u32,
        symmetry: Symmetry,
    ) -> Result<QuarterTable, std::collections::TryReserveError> {
        assert!(h <= MAX_TABLE_H, "quarter side {h} is beyond {MAX_TABLE_H} for a whole table");
        let (mut total, mut sorted) = (0usize, Vec::new());
        let offsets = walk_offsets(h, symmetry, |walk| {
            sorted.resize(walk.entries.len(), 0);
            walk.sort_into(&mut sorted);
            std::hint::black_box(&sorted);
            let base = total;
            total += walk.entries.len();
            Ok(base)
        })?;
        let mut table = QuarterTable::rows_only(h);
        table.lengths = Some(Box::new(Lengths { symmetry, offsets }));
        Ok(table)
    }

    /// Returns the number of placements on the local rows `rows` and columns `cols`: the length
    /// of [`QuarterTable::cells`]'s list, read from the offsets alone, in a whole table, in a
    /// row-set table with lengths ([`QuarterTable::try_build_lengths`]), or in a row-set table
    /// that holds `rows`.
    ///
    /// # Panics
    /// For a row-set table without lengths that does not hold `rows`.
    #[inline]
    pub fn list_len(&self, rows: u32, cols: u32) -> usize {
        let (symmetry, offsets) = match (&self.rows, &self.lengths) {
            (None, _) => (self.symmetry, &self.offsets),
            (Some(_), Some(l)) => (l.symmetry, &l.offsets),
            (Some(_), None) => return self.cells(rows, cols).0.len(),
        };
        let h = self.h;
        let (rows, cols, _) = canonical(symmetry, rows, cols, h);
        let key = (cols | (rows << h)) as usize;
        (offsets[key + 1] - offsets[key]) as usize
    }

    /// Returns true if and only if [`QuarterTable::list_len`] knows every list's length: a
    /// whole table, or a row-set table with lengths.
    pub fn has_lengths(&self) -> bool {
        self.rows.is_none() || self.lengths.is_some()
    }

    /// Returns an empty row-set table of side `h` (0 ≤ `h` ≤ [`MAX_H`]): it holds the lists of
    /// the row sets that [`QuarterTable::load_rows`] loads, uncompacted, and nothing else. A join
    /// unit reads the lists of at most four row sets (the north and south rows of its east and
    /// west halves), so a unit can load just those: at h = 14 (n = 28–29), where the whole
    /// table would take about 65 GB, a row set holds at most a few million placements.
    ///
    /// # Panics
    /// If `h` > [`MAX_H`].
    pub fn rows_only(h: u32) -> QuarterTable {
        assert!(h <= MAX_H, "quarter side {h} is beyond {MAX_H}");
        QuarterTable {
            h,
            symmetry: Symmetry::None,
            offsets: Vec::new(),
            entries: Vec::new(),
            rows: Some(Vec::new()),
            lengths: None,
        }
    }

    /// Returns true if and only if this is a row-set table ([`QuarterTable::rows_only`]).
    pub fn is_row_sets(&self) -> bool {
        self.rows.is_some()
    }

    /// Makes a row-set table hold the lists of exactly the local row sets `wanted` (h-bit masks;
    /// repeats allowed): the lists of a row set already held are kept, the others are dropped,
    /// and each missing row set is walked once (every placement of one queen per row of it,
    /// sorted by column set), as [`QuarterTable::try_build_with`] walks one row set. Returns
    /// the placements walked (0 when all were held).
    ///
    /// # Panics
    /// If this is a whole table, or a row set has bits at or above h.
    pub fn load_rows(&mut self, wanted: &[u32]) -> u64 {
        let h = self.h;
        let held = self.rows.as_mut().expect("load_rows is for row-set tables");
        held.retain(|l| wanted.contains(&l.rows));
        let mut walked = 0;
        for &rows in wanted {
            assert!(rows >> h == 0, "row set {rows:#b} is beyond side {h}");
            if held.iter().any(|l| l.rows == rows) {
                continue;
            }
            let mut walk = RowWalk::new(h);
            walk.run(h, Symmetry::None, rows);
            let mut entries = vec![0; walk.entries.len()];
            walk.sort_into(&mut entries);
            let mut starts = std::mem::take(&mut walk.counts);
            starts.push(entries.len() as u32);
            walked += entries.len() as u64;
            held.push(RowLists { rows, starts, entries });
        }
        walked
    }

    /// Returns the bytes the lists of the row sets loaded take (0 in a whole table, which
    /// the threads share).
    pub(super) fn row_set_bytes(&self) -> usize {
        self.rows.as_ref().map_or(0, |held| {
            held.iter().map(|l| 8 * l.entries.capacity() + 4 * l.starts.capacity()).sum()
        })
    }

    /// Drops the lists of the row sets loaded (a row-set table only; the next
    /// [`QuarterTable::load_rows`] walks them again).
    pub(super) fn drop_row_sets(&mut self) {
        if let Some(held) = self.rows.as_mut() {
            *held = Vec::new();
        }
    }

    /// Returns the number of placements on exactly the local rows `rows` of the h×h square by
    /// column set: entry C (an h-bit mask) is |L(rows, C)|, the length of the list a table
    /// without compaction holds at key (rows, C), 0 where |C| ≠ |rows|; 2^h entries. The walk
    /// of [`QuarterTable::load_rows`] without storing or sorting a placement, for the pair
    /// counts of units whose plan holds no lengths (`JoinPlan::unit_pairs`, which `join_sizes`
    /// lists; the sample's weights from n = 28 walk [`QuarterTable::row_sample`] instead).
    ///
    /// # Panics
    /// If `h` > [`MAX_H`] or `rows` has bits at or above h.
    #[cfg(any(test, feature = "internals"))]
    pub fn row_lengths(h: u32, rows: u32) -> Vec<u32> {
        assert!(h <= MAX_H && rows >> h == 0, "row set {rows:#b} on side {h}");
        let mut counts = vec![0u32; 1 << h];
        let mut order = [0u32; MAX_H as usize];
        let order = row_list(rows, &mut order);
        place(h, order, 0, 0, 0, &|_| u32::MAX, &mut |cols, _| counts[cols as usize] += 1);
        counts
    }

    /// Returns the lists of `rows` in a row-set table.
    ///
    /// # Panics
    /// If the row set is not loaded (a unit asked for a list [`QuarterTable::load_rows`] was not
    /// given: a bug, never a wrong count).
    #[inline]
    fn row_lists(held: &[RowLists], rows: u32) -> &RowLists {
        match held.iter().find(|l| l.rows == rows) {
            Some(l) => l,
            None => panic!("row set {rows:#b} is not loaded in the row-set quarter table"),
        }
    }

    /// Returns which mirror images share storage.
    #[cfg(any(test, feature = "internals"))]
    pub fn symmetry(&self) -> Symmetry {
        self.symmetry
    }

    /// Returns the quarter side h.
    pub fn h(&self) -> u32 {
        self.h
    }

    /// Returns the number of stored placements (with compaction, fewer than the placements; in
    /// a row-set table, those of the row sets loaded).
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        match &self.rows {
            None => self.entries.len(),
            Some(held) => held.iter().map(|l| l.entries.len()).sum(),
        }
    }

    /// Returns true if and only if the table holds no placement (never: the empty placement is
    /// always there).
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Returns the bytes the table occupies (offsets and entries; in a row-set table, the row
    /// sets loaded).
    #[cfg(any(test, feature = "internals"))]
    pub fn bytes(&self) -> usize {
        match &self.rows {
            None => self.offsets.len() * 4 + self.entries.len() * 8,
            Some(held) => held.iter().map(|l| l.starts.len() * 4 + l.entries.len() * 8).sum(),
        }
    }

    /// Returns the table as stored: the 4^h + 1 offsets (key `cols | rows << h` holds the entries
    /// `offsets[key]..offsets[key + 1]`) and the entries `u | v << 32` (for checks and tools;
    /// both empty for a row-set table).
    #[cfg(any(test, feature = "internals"))]
    pub fn raw(&self) -> (&[u32], &[u64]) {
        (&self.offsets, &self.entries)
    }

    /// Returns the stored placements on the local rows `rows` (or on their mirror image, when
    /// the rows are compacted) for every column set: one contiguous stretch of the table
    /// (empty with one key per D4 orbit, where no one stretch holds them).
    #[inline]
    pub fn region(&self, rows: u32) -> &[u64] {
        if let Some(held) = &self.rows {
            return &QuarterTable::row_lists(held, rows).entries;
        }
        let rows = match self.symmetry {
            Symmetry::None => rows,
            Symmetry::Rows => rows.min(rev_h(rows, self.h)),
            // The stored keys of one row set's lists are spread over its orbit.
            Symmetry::D4 => return &[],
        };
        let lo = self.offsets[(rows << self.h) as usize] as usize;
        let hi = self.offsets[((rows + 1) << self.h) as usize] as usize;
        &self.entries[lo..hi]
    }

    /// Returns the placements on exactly the local rows `rows` and columns `cols` (h-bit masks
    /// of equal popcount): a stored list, each entry `u | v << 32`, and the [`Mirror`] that
    /// turns its entries into the requested ones (always [`Mirror::IDENTITY`] without
    /// compaction).
    #[inline]
    pub fn cells(&self, rows: u32, cols: u32) -> (&[u64], Mirror) {
        if let Some(held) = &self.rows {
            let l = QuarterTable::row_lists(held, rows);
            let (lo, hi) = (l.starts[cols as usize] as usize, l.starts[cols as usize + 1] as usize);
            return (&l.entries[lo..hi], Mirror::IDENTITY);
        }
        let h = self.h;
        let (rows, cols, mirror) = canonical(self.symmetry, rows, cols, h);
        let key = (cols | (rows << h)) as usize;
        let lo = self.offsets[key] as usize;
        let hi = self.offsets[key + 1] as usize;
        (&self.entries[lo..hi], mirror)
    }

    /// Writes the placements on `rows` and `cols` (as [`QuarterTable::cells`], mirrored where
    /// needed) into `buf` and returns them: the stored list itself when no mirror applies.
    #[inline]
    pub fn cells_into<'a>(&'a self, rows: u32, cols: u32, buf: &'a mut Vec<u64>) -> &'a [u64] {
        let (list, mirror) = self.cells(rows, cols);
        if mirror == Mirror::IDENTITY {
            return list;
        }
        let len = 2 * self.h - 1;
        buf.clear();
        buf.extend(list.iter().map(|&e| mirror.apply(e, len)));
        buf
    }
}

/// Where one row set's walk may go under [`Symmetry::D4`]: `kids[cols]` holds the columns c
/// such that `cols` ∪ {c} is a subset of the column set of some stored key (`rows`, C), so a
/// walk that adds only those columns visits exactly the placements of the stored keys and no
/// partial placement that leads to none.
struct Children {
    kids: [u16; 1 << MAX_H],
}

impl Children {
    /// Returns the children of row set `rows` (one key per D4 orbit), or `None` when the row set
    /// stores no key.
    fn new(h: u32, rows: u32) -> Option<Children> {
        let k = rows.count_ones();
        let mut t = Children { kids: [0; 1 << MAX_H] };
        let mut any = false;
        // From the complete column sets (stored if and only if the least of their orbit) down:
        // a set of p < k columns leads to a stored key if and only if one of its children does.
        for p in (1..=k).rev() {
            for cols in super::bits::colex(h, p) {
                let cols = cols as u32;
                let reached = if p == k {
                    let (r, c, _) = canonical(Symmetry::D4, rows, cols, h);
                    (r, c) == (rows, cols)
                } else {
                    t.kids[cols as usize] != 0
                };
                if reached {
                    any = true;
                    let mut bits = cols;
                    while bits != 0 {
                        let c = bits.trailing_zeros();
                        bits &= bits - 1;
                        t.kids[(cols & !(1 << c)) as usize] |= 1 << c;
                    }
                }
            }
        }
        // The empty row set stores its one key (the empty placement).
        (any || k == 0).then_some(t)
    }

    /// Returns the columns a walk at column set `cols` may add.
    #[inline]
    fn of(&self, cols: u32) -> u32 {
        self.kids[cols as usize] as u32
    }
}

/// One row set's placements, as its walk finds them: entries, their column sets, and the
/// entries per column set (then, after [`RowWalk::sort_into`], where each column set's list
/// starts).
struct RowWalk {
    entries: Vec<u64>,
    cols: Vec<u16>,
    counts: Vec<u32>,
}

impl RowWalk {
    fn new(h: u32) -> RowWalk {
        RowWalk { entries: Vec::new(), cols: Vec::new(), counts: vec![0; 1 << h] }
    }

    /// Collects the stored placements on exactly the rows `rows`; returns false if and only if
    /// the row set stores no key.
    fn run(&mut self, h: u32, symmetry: Symmetry, rows: u32) -> bool {
        self.entries.clear();
        self.cols.clear();
        self.counts.fill(0);
        let mut order = [0u32; MAX_H as usize];
        let order = row_list(rows, &mut order);
        let RowWalk { entries, cols: set, counts } = self;
        let mut emit = |cols: u32, entry| {
            entries.push(entry);
            set.push(cols as u16);
            counts[cols as usize] += 1;
        };
        if symmetry == Symmetry::D4 {
            let Some(t) = Children::new(h, rows) else {
                return false;
            };
            place(h, order, 0, 0, 0, &|cols| t.of(cols), &mut emit);
        } else {
            place(h, order, 0, 0, 0, &|_| u32::MAX, &mut emit);
        }
        true
    }

    /// Writes the entries into `sorted` (as long as the entries) by column set, each column
    /// set's in the order found (a stable counting sort), and turns the counts into the starts
    /// of the lists.
    fn sort_into(&mut self, sorted: &mut [u64]) {
        let mut at = 0;
        for c in self.counts.iter_mut() {
            (*c, at) = (at, at + *c);
        }
        let mut cursor = self.counts.clone();
        for (&e, &c) in self.entries.iter().zip(&self.cols) {
            sorted[cursor[c as usize] as usize] = e;
            cursor[c as usize] += 1;
        }
    }
}

/// Writes the indices of the set bits of `rows` into `buf`, lowest first, and returns them.
fn row_list(rows: u32, buf: &mut [u32; MAX_H as usize]) -> &[u32] {
    let mut k = 0;
    let mut r = rows;
    while r != 0 {
        buf[k] = r.trailing_zeros();
        k += 1;
        r &= r - 1;
    }
    &buf[..k]
}

/// Returns the columns of local row `r` that are off `cols` and off the occupied diagonals `u`,
/// `v` (column c of row r lies on u-diagonal r + c and v-diagonal c + h − 1 − r).
#[inline]
fn free_columns(h: u32, r: u32, cols: u32, u: u64, v: u64) -> u32 {
    ((1u32 << h) - 1) & !cols & !((u >> r) as u32) & !((v >> (h - 1 - r)) as u32)
}

/// Visits every placement of one queen on each row of `rows` (local row indices, increasing)
/// given the queens above, `cols` the columns used and `u`, `v` the local diagonals occupied,
/// adding at column set D only the columns `kids(D)` allows; calls `emit(column set,
/// u | v << 32)` per placement, the columns taken in increasing order row by row.
#[inline]
fn place(
    h: u32,
    rows: &[u32],
    cols: u32,
    u: u64,
    v: u64,
    kids: &impl Fn(u32) -> u32,
    emit: &mut impl FnMut(u32, u64),
) {
    let Some((&r, below)) = rows.split_first() else {
        emit(cols, u | (v << 32));
        return;
    };
    let mut free = free_columns(h, r, cols, u, v) & kids(cols);
    while free != 0 {
        let c = free.trailing_zeros();
        free &= free - 1;
        let (cols, u, v) = (cols | 1 << c, u | 1 << (r + c), v | 1 << (c + h - 1 - r));
        match below {
            [] => emit(cols, u | (v << 32)),
            // The last row inline: most nodes are its parents.
            &[r] => {
                let mut free = free_columns(h, r, cols, u, v) & kids(cols);
                while free != 0 {
                    let c = free.trailing_zeros();
                    free &= free - 1;
                    emit(cols | 1 << c, (u | 1 << (r + c)) | (v | 1 << (c + h - 1 - r)) << 32);
                }
            }
            _ => place_inner(h, below, cols, u, v, kids, emit),
        }
    }
}

/// [`place`] behind a call boundary (the recursion).
fn place_inner(
    h: u32,
    rows: &[u32],
    cols: u32,
    u: u64,
    v: u64,
    kids: &impl Fn(u32) -> u32,
    emit: &mut impl FnMut(u32, u64),
) {
    place(h, rows, cols, u, v, kids, emit)
}

/// Placements on an h×h square for h = 0..=13 ([`MAX_TABLE_H`]), and the entries stored with the
/// rows compacted and with one key per D4 orbit, all counted by the build's walk (h ≤ 9 checked
/// by the test `entry_counts_match_the_documented_sizes`, h ≥ 10 by the opt-in
/// `documented_sizes_of_the_large_tables`).
const ENTRIES: [[u64; 3]; MAX_TABLE_H as usize + 1] = [
    [1, 1, 1],
    [2, 2, 2],
    [5, 3, 2],
    [18, 13, 6],
    [87, 53, 20],
    [462, 286, 107],
    [2635, 1471, 469],
    [16_870, 9429, 2854],
    [118_969, 63_053, 17_500],
    [915_442, 486_298, 132_524],
    [7_535_369, 3_886_603, 1_018_757],
    [66_807_234, 34_543_071, 9_012_090],
    [633_443_407, 322_269_833, 82_448_724],
    [6_354_135_838, 3_236_749_906, 827_087_253],
];

/// Returns the entries a table for side `h` stores with compaction `symmetry`: exact up to
/// [`MAX_TABLE_H`] (counted), beyond that an extrapolation of 10× per step (the growth is 8.2×,
/// 8.9×, 9.5×, 10.0× for h = 9..13).
pub fn estimated_entries(h: u32, symmetry: Symmetry) -> u64 {
    let column = match symmetry {
        Symmetry::None => 0,
        Symmetry::Rows => 1,
        Symmetry::D4 => 2,
    };
    let last = ENTRIES.len() as u32 - 1;
    ENTRIES[h.min(last) as usize][column].saturating_mul(10u64.saturating_pow(h.saturating_sub(last)))
}

/// Returns the bytes the table for side `h` occupies with the compaction the join uses
/// ([`Symmetry::for_side`]): 8 B per stored entry ([`estimated_entries`]) and 4 B per offset
/// (4^h + 1 of them); exact up to [`MAX_TABLE_H`]: 293,121,788 B at h = 11, 726,698,660 B at h = 12,
/// 6,885,133,484 B at h = 13.
pub fn estimated_bytes(h: u32) -> u64 {
    estimated_entries(h, Symmetry::for_side(h))
        .saturating_mul(8)
        .saturating_add(4u64.saturating_mul((1u64 << (2 * h.min(31))) + 1))
}

#[cfg(test)]
mod tests;
