//! The quadrant-join counter (`--algorithm join`): counts solutions without backtracking over
//! whole boards, by joining half-boards built from quarter-board placements.
//!
//! Method (E. Kluev's N-Queens-Count-Sol, re-derived in shared/design/join-algorithm.md): every
//! solution puts h = ⌊n/2⌋ queens in the east columns 0..h−1, on some row set S, and the
//! west queens on the free rows outside S. For fixed S, rows and columns take care of
//! themselves, so Q(n) = Σ_S Σ_w #{e : diag(e) ∩ diag(w) = ∅} over east half-solutions e on S
//! and west half-solutions w on the rest. Half-solutions are joined from two entries of one
//! [`quarter::QuarterTable`] (every placement on an h×h square), reduced to the diagonals both
//! halves can reach (the window, 2(2h−1) bits), and the disjoint pairs are counted by the
//! bit-sliced [`matcher`]. Odd n pre-places the middle row and column ([`start`]).
//!
//! Symmetry: the top–bottom mirror pairs S with rev(S) (only S ≤ rev(S) runs, weight 2); for
//! even n the transpose and anti-transpose let the east half skip queens on the two long
//! diagonals, a west half weighing ×2 per long-diagonal queen, and solutions with no
//! long-diagonal queen at all are counted once per orbit of S under the top–bottom and
//! left–right mirrors; for odd n the centre start uses those mirrors and the axis starts count
//! one pair (a, b) per D4 orbit. Fundamental solutions come from Burnside ([`symmetric`]).
//!
//! Units of work are (start configuration, S), in a fixed order (starts as [`Start::all`]
//! lists them, then S in colex order): [`JoinPlan`] runs them through [`crate::parallel::run`]
//! like any other plan. Each unit builds its own matcher in per-thread scratch, so no unit
//! waits for another (no barriers), and the quarter table is shared read-only.
//!
//! Memory: the quarter table, 8 B per stored entry plus 4^h · 4 B of offsets: 0.2 MB at
//! n = 14–15, 1.2 MB at n = 16–17, 8.4 MB at n = 18–19, 65 MB at n = 20–21; from n = 22 the
//! table stores one of each mirror pair of row sets (293 MB at n = 22–23 instead of 551 MB)
//! and from n = 24 one key per D4 orbit of the quarter square (see [`quarter::Symmetry`]),
//! so n = 24–25 need 0.73 GB instead of 5.1 GB and n = 26–27 6.9 GB instead of 51 GB
//! ([`quarter::estimated_bytes`], exact); per-thread buffers are under 2 MB at n = 20, about
//! 60 MB at n = 22, 0.3 GB at n = 24 and 2.1 GB at n = 26 ([`per_thread_bytes`]).
//! [`JoinPlan::new`] refuses boards whose table would not fit in the memory available, and
//! [`check_memory_for`] (which the command line runs first) counts every thread's buffers too.
//!
//! From n = 28 ([`Quarters::RowSets`]) no table is built: the h = 14 table would hold about
//! 8 × 10^9 placements with compaction (65 GB), but one unit reads the lists of only four row
//! sets (the north and south rows of its east and west halves), at most 1.75 million
//! placements (14 MB) each at h = 14, which the thread walks when it starts the unit (about
//! 0.1 s, against minutes of matching). So memory is per thread, not per table, and n = 28–29
//! run on a node of modest memory; the same path runs at every n for the tests.

pub mod bits;
pub mod cost;
pub mod half;
pub mod matcher;
pub mod quarter;
pub mod start;
pub mod symmetric;

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::Instant;

use crate::arch::Level;
use bits::{low_mask, reverse};
use half::{FLAG_NORTH_U, FLAG_SOUTH_V, Geometry, HalfScratch, Side, window_codes};
use matcher::{Matcher, Parts};
use quarter::QuarterTable;
pub use start::Start;
use symmetric::subsets_of;

use crate::{Algorithm, Error, Plan, Tally};

/// The smallest board the join counts itself; smaller boards fall back to the mirror
/// backtracker (the output then names `mirror` as the algorithm).
pub const MIN_N: u32 = 4;

/// The largest board the join supports: quarter side h ≤ [`quarter::MAX_H`] (29; the whole
/// quarter table up to n = 27, row sets beyond, see [`Quarters`]).
pub const MAX_N: u32 = 2 * quarter::MAX_H + 1;

/// The kind of a unit: which start configurations it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Even n.
    Even,
    /// Odd n, the centre queen.
    Centre,
    /// Odd n, the middle-column queen at (h+b, h) with every middle-row queen (h, h+a),
    /// 0 < a < b: the east halves do not depend on a, so one stored set serves all a.
    Axis { b: u32 },
}

/// One group of units: a kind and the list of row sets it runs on.
#[derive(Clone, Debug)]
struct Group {
    kind: Kind,
    list: usize,
    first: usize,
}

/// The join plan of one board: the quarter table and the units (start configuration × east
/// row set S), in a fixed order.
#[derive(Debug)]
pub struct JoinPlan {
    g: Geometry,
    table: QuarterTable,
    level: Level,
    reduce: bool,
    sieve_from: Option<usize>,
    chunk_bits: Option<u32>,
    cuts: Option<u32>,
    max_stored: Option<usize>,
    max_queries: Option<usize>,
    groups: Vec<Group>,
    lists: Vec<Vec<u64>>,
    len: usize,
}

/// Where a plan's units read the quarter lists from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quarters {
    /// The whole quarter table, built once by the plan and shared by every thread (n ≤ 27).
    Table,
    /// Each thread loads the lists of the at most four row sets a unit reads, when it starts the
    /// unit ([`QuarterTable::load_rows`]): a few tens of MB a thread instead of the whole table
    /// (which at n = 28–29 would take about 65 GB), at the cost of walking those row sets again
    /// per unit (about 0.1 s at n = 28, against minutes of matching).
    RowSets,
}

impl Quarters {
    /// Returns what the join uses for the `n`×`n` board: the whole table while its side is at
    /// most [`quarter::MAX_TABLE_H`] (n ≤ 27), row sets beyond.
    pub fn for_board(n: u32) -> Quarters {
        if n / 2 <= quarter::MAX_TABLE_H { Quarters::Table } else { Quarters::RowSets }
    }
}

/// Per-thread scratch: the half enumerator's buffers, the east masks, the west masks by weight
/// class and the matcher (reused by every unit the thread runs).
#[derive(Default)]
struct Scratch {
    half: HalfScratch,
    /// East window masks (entries past the current end are scratch).
    east: Vec<u64>,
    /// West window masks with flags (entries past the current end are scratch).
    west_raw: Vec<u64>,
    matcher: Matcher,
    /// The row sets of the current unit, when the plan reads [`Quarters::RowSets`].
    quarters: QuarterTable,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl JoinPlan {
    /// Returns the plan for the `n`×`n` board ([`MIN_N`] ≤ n ≤ [`MAX_N`]) with every symmetry
    /// reduction, building the quarter table (side ⌊n/2⌋).
    ///
    /// # Errors
    /// [`Error::JoinTooLarge`] if n > [`MAX_N`] or the table's estimated size exceeds 3/4 of
    /// the memory available ([`available_memory`]).
    ///
    /// # Panics
    /// If n < [`MIN_N`].
    pub fn new(n: u32) -> Result<JoinPlan, Error> {
        JoinPlan::with_reduction(n, true)
    }

    /// Returns the plan with (`reduce` = true) or without the row-set and long-diagonal
    /// reductions (every S, every east half, weight 1; for cross-checks). Odd n always counts
    /// one axis pair (a, b) per D4 orbit.
    ///
    /// # Errors
    /// As [`JoinPlan::new`].
    ///
    /// # Panics
    /// If n < [`MIN_N`].
    pub fn with_reduction(n: u32, reduce: bool) -> Result<JoinPlan, Error> {
        JoinPlan::with_options(n, reduce, Quarters::for_board(n))
    }

    /// Returns the plan reading its quarter lists from `quarters` ([`Quarters::for_board`] is
    /// the choice of [`JoinPlan::new`]; [`Quarters::RowSets`] at small n checks that path against
    /// the whole table).
    ///
    /// # Errors
    /// As [`JoinPlan::new`]; [`Error::JoinTooLarge`] also for [`Quarters::Table`] beyond n = 27.
    ///
    /// # Panics
    /// If n < [`MIN_N`].
    pub fn with_options(n: u32, reduce: bool, quarters: Quarters) -> Result<JoinPlan, Error> {
        assert!(n >= MIN_N, "the join needs n >= {MIN_N}");
        check_memory_with(n, 1, quarters)?;
        let g = Geometry::new(n);
        let table = match quarters {
            Quarters::RowSets => Ok(QuarterTable::rows_only(g.h)),
            Quarters::Table => QuarterTable::try_build_with(g.h, quarter::Symmetry::for_side(g.h)),
        };
        let table = table.map_err(|_| {
            // The estimate let it through but the allocator refused: the same refusal.
            let needed = quarter::estimated_bytes(g.h);
            Error::JoinTooLarge {
                n,
                needed_mib: needed.div_ceil(1 << 20),
                table_mib: needed.div_ceil(1 << 20),
                threads: 1,
                per_thread_mib: per_thread_bytes(g.h).div_ceil(1 << 20),
                address_space_limit_mib: crate::memory::address_space_limit().map(|b| b >> 20),
                available_mib: available_memory().map_or(0, |a| a >> 20),
                max: MAX_N,
            }
        })?;
        let kinds: Vec<Kind> = if n.is_multiple_of(2) {
            vec![Kind::Even]
        } else {
            std::iter::once(Kind::Centre).chain((2..=g.h).map(|b| Kind::Axis { b })).collect()
        };
        let mut groups = Vec::new();
        let mut lists: Vec<Vec<u64>> = Vec::new();
        let mut len = 0;
        for kind in kinds {
            let free = kind_start(kind).free_rows(&g);
            // Even: S ≤ rev(S) (the mirror pairs); centre: S least of its orbit; axis: all S.
            let keep = |s: u64| match kind {
                _ if !reduce => true,
                Kind::Even => s <= reverse(s, n),
                Kind::Centre => orbit(s, free, n).0 == s,
                Kind::Axis { .. } => true,
            };
            lists.push(subsets_of(free, g.h).filter(|&s| keep(s)).collect());
            groups.push(Group { kind, list: lists.len() - 1, first: len });
            len += lists[lists.len() - 1].len();
        }
        Ok(JoinPlan {
            g,
            table,
            level: Level::best(),
            reduce,
            sieve_from: None,
            chunk_bits: None,
            cuts: None,
            max_stored: max_stored(g.h),
            max_queries: max_stored(g.h).map(|stored| 2 * stored),
            groups,
            lists,
            len,
        })
    }

    /// Returns the plan of the `n`×`n` board ([`MIN_N`] ≤ n ≤ 27) for a sample of its units
    /// (`nqueens plan`): the units and counts of [`JoinPlan::new`]'s, but each unit loads its own
    /// row sets ([`Quarters::RowSets`], prepared before it is timed: [`Plan::prepare`]) while the
    /// plan holds only the lengths of the whole table's lists
    /// ([`QuarterTable::try_build_lengths`]), for the same weights ([`cost::sample_weight`]).
    /// At n = 27 that is 268 MB instead of the table's 6.9 GB (`plan 27` peaked at 9.8 GB), and
    /// the walk that finds the lengths takes about the table's build time. Its
    /// [`Plan::search_bytes`] is still that of a count, with the table.
    ///
    /// # Errors
    /// As [`JoinPlan::new`]; [`Error::OutOfMemory`] if the lengths do not fit.
    ///
    /// # Panics
    /// If n < [`MIN_N`].
    pub fn for_sampling(n: u32) -> Result<JoinPlan, Error> {
        if n / 2 > quarter::MAX_TABLE_H {
            return JoinPlan::new(n);
        }
        let mut plan = JoinPlan::with_options(n, true, Quarters::RowSets)?;
        let h = plan.g.h;
        let bytes = 4 * ((1u64 << (2 * h)) + 1);
        let what = || format!("the quarter table's list lengths of n = {n}");
        crate::memory::check(what, bytes)?;
        plan.table = QuarterTable::try_build_lengths(h, quarter::Symmetry::for_side(h))
            .map_err(|_| crate::memory::out_of_memory(what(), bytes, crate::memory::available()))?;
        Ok(plan)
    }

    /// Returns the quarter table (side ⌊n/2⌋; an empty row-set table when the units load their
    /// own, [`Quarters::RowSets`]).
    pub fn table(&self) -> &QuarterTable {
        &self.table
    }

    /// Returns where the units read their quarter lists from.
    pub fn quarters(&self) -> Quarters {
        if self.table.is_row_sets() { Quarters::RowSets } else { Quarters::Table }
    }

    /// Returns the quarter lists of the unit on east rows `rows` of kind `kind`: the plan's table,
    /// or the scratch's row-set table loaded with the unit's four row sets (its east and west
    /// halves' north and south rows).
    fn quarters_for<'a>(&'a self, kind: Kind, rows: u64, quarters: &'a mut QuarterTable) -> &'a QuarterTable {
        if !self.table.is_row_sets() {
            return &self.table;
        }
        let g = &self.g;
        if quarters.h() != g.h {
            *quarters = QuarterTable::rows_only(g.h);
        }
        let west = kind_start(kind).free_rows(g) & !rows;
        let (en, es) = g.split_rows(rows);
        let (wn, ws) = g.split_rows(west);
        quarters.load_rows(&[en, es, wn, ws]);
        quarters
    }

    /// Returns the instruction-set level the matcher runs at.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Sets the instruction-set level of the half-boards and the matcher (the default is
    /// [`Level::best`]).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Sets the mask bits per chunk of the matcher's tables (for benches and tuning; the
    /// default is the matcher's choice, see [`matcher::CHUNK`]).
    pub fn set_chunk_bits(&mut self, bits: u32) {
        self.chunk_bits = Some(bits);
    }

    /// Forces the matcher's number of cut bits (for benches and tuning; the default lets its
    /// cost model choose).
    pub fn set_cuts(&mut self, cuts: u32) {
        self.cuts = Some(cuts);
    }

    /// Sets the most half-boards the matcher stores at once (see [`matcher::Matcher::max_stored`];
    /// the default is [`max_stored`] for the board; `None`: all at once).
    pub fn set_max_stored(&mut self, masks: Option<usize>) {
        self.max_stored = masks;
    }

    /// Sets the most codes the matcher matches at once (see [`matcher::Matcher::max_queries`];
    /// the default is twice [`max_stored`] for the board; `None`: all at once).
    pub fn set_max_queries(&mut self, codes: Option<usize>) {
        self.max_queries = codes;
    }

    /// Sets the stored-set size from which the matcher uses its sieve (for benches; the
    /// default is [`matcher::SIEVE_FROM`]).
    pub fn set_sieve_from(&mut self, masks: usize) {
        self.sieve_from = Some(masks);
    }

    /// Returns the solutions that contain the pre-placed queens of `start` (for the centre and
    /// even starts: all solutions of that start, with the reductions undone), counted
    /// sequentially; for an axis start the weight 8 is not applied.
    pub fn count_start(&self, start: Start) -> u128 {
        let (kind, a) = match start {
            Start::Even => (Kind::Even, 0),
            Start::Centre => (Kind::Centre, 0),
            Start::Axis { a, b } => (Kind::Axis { b }, a),
        };
        let mut s = Scratch::default();
        s.half.level = self.level;
        let mut total = 0;
        for group in self.groups.iter().filter(|gr| gr.kind == kind) {
            for &rows in &self.lists[group.list] {
                let counted = match kind {
                    Kind::Axis { b } => self.round_axis(b, rows, a..a + 1, &mut s, None).map(|c| c.0 / 8),
                    _ => self.round(kind, rows, &mut s, None).map(|c| c.0),
                };
                total += counted.expect("nothing stops the count");
            }
        }
        total
    }

    /// Counts one even or centre unit: enumerates the east halves and the west halves (by
    /// weight class), stores the smaller side in the matcher and queries it with the other;
    /// returns (weighted solutions, halves enumerated), or `None` if `steps` stopped it (the
    /// matcher runs in parts when `steps` is given, see [`Steps`]).
    fn round(&self, kind: Kind, rows: u64, s: &mut Scratch, steps: Steps<'_>) -> Option<(u128, u64)> {
        let g = &self.g;
        let n = g.n;
        let start = kind_start(kind);
        let free = start.free_rows(g);
        let west_rows = free & !rows;
        let (mut east_u, mut east_v) = start.taken(g);
        let (west_u, west_v) = (east_u, east_v);
        let long = 1u64 << (n - 1);
        // Row-set weights: `outer` multiplies the whole unit, `plain` weighs west halves with no
        // long-diagonal queen (even n); see the module docs.
        let (outer, plain, even_reduced) = match kind {
            Kind::Even if self.reduce => {
                let (min, size, palindrome) = orbit(rows, free, n);
                let mirror = if palindrome { 1 } else { 2 };
                east_u |= long;
                east_v |= long;
                (mirror, if min == rows { size / mirror } else { 0 }, true)
            }
            Kind::Centre if self.reduce => (orbit(rows, free, n).1, 1, false),
            _ => (1, 1, false),
        };
        let Scratch { half, east, west_raw, matcher, quarters } = s;
        let table = self.quarters_for(kind, rows, quarters);
        let cols = low_mask(g.h) as u32;
        let e_end = window_codes(table, g, Side::East, rows, cols, east_u, east_v, false, half, east, 0);
        if e_end == 0 {
            return Some((0, 0));
        }
        let east = &east[..e_end];
        let w_end = window_codes(
            table,
            g,
            Side::West,
            west_rows,
            start.west_cols(g),
            west_u,
            west_v,
            even_reduced,
            half,
            west_raw,
            0,
        );
        let halves = (e_end + w_end) as u64;
        // Weight of a west half by its flags (bits 62 and 63, its weight class): 2 per
        // long-diagonal queen, else `plain`. Without flags every code is of class 0, and one
        // weight for all classes spares the matcher a partition by class.
        let weights = if even_reduced { [plain, 2, 2, 4] } else { [plain; 4] };
        // Store the smaller side: building costs about as much per stored mask as 20–40
        // queries; matching is symmetric.
        let matched = if e_end <= w_end {
            // The matcher drops the west halves of weight 0 (plain = 0: no long-diagonal queen).
            count(matcher, self.level, &[(east, 1)], &west_raw[..w_end], weights, steps)?
        } else {
            // The west halves grouped by weight in place (1, 2, 4; weight 0 dropped), flags
            // cleared: no second copy of the stored side (up to 10^8 halves at n = 28).
            let ends = group_by_weight(&mut west_raw[..w_end], weights);
            let classes = [
                (&west_raw[..ends[0]], 1),
                (&west_raw[ends[0]..ends[1]], 2),
                (&west_raw[ends[1]..ends[2]], 4),
            ];
            count(matcher, self.level, &classes, east, [1; 4], steps)?
        };
        Some((outer as u128 * matched as u128, halves))
    }

    /// Counts one axis unit: the middle-column queen at (h+b, h), east rows `rows`, and the
    /// middle-row queen at (h, h+a) for every a in `a_range`. The east halves avoid the column
    /// queen and are stored once; the row queen's two diagonals are window diagonals (a < h),
    /// so each west query carries them and the matcher drops the east halves that meet them.
    /// Returns (solutions × 8, halves enumerated), or `None` if `steps` stopped it.
    fn round_axis(
        &self,
        b: u32,
        rows: u64,
        a_range: std::ops::Range<u32>,
        s: &mut Scratch,
        steps: Steps<'_>,
    ) -> Option<(u128, u64)> {
        let g = &self.g;
        let (n, h) = (g.n, g.h);
        let free = Start::Axis { a: 1, b }.free_rows(g);
        let west_rows = free & !rows;
        let (col_u, col_v) = (1u64 << (2 * h + b), 1u64 << (n - 1 - b));
        let Scratch { half, east, west_raw, matcher, quarters, .. } = s;
        let table = self.quarters_for(Kind::Axis { b }, rows, quarters);
        let e_end =
            window_codes(table, g, Side::East, rows, low_mask(h) as u32, col_u, col_v, false, half, east, 0);
        if e_end == 0 {
            return Some((0, 0));
        }
        // Every middle-row queen's west halves go into one set, each carrying the queen's two
        // window diagonals; the count is symmetric, so the smaller of the two sets is stored.
        let mut w_end = 0;
        for a in a_range {
            let start = Start::Axis { a, b };
            let (fu, fv) = start.taken(g);
            let row_queen = g.window(Side::East, 1 << (2 * h + a), 1 << (n - 1 + a));
            let from = w_end;
            w_end = window_codes(
                table,
                g,
                Side::West,
                west_rows,
                start.west_cols(g),
                fu,
                fv,
                false,
                half,
                west_raw,
                from,
            );
            for w in &mut west_raw[from..w_end] {
                *w |= row_queen;
            }
        }
        let halves = (e_end + w_end) as u64;
        let (stored, other) = if e_end <= w_end {
            (&east[..e_end], &west_raw[..w_end])
        } else {
            (&west_raw[..w_end], &east[..e_end])
        };
        let total = count(matcher, self.level, &[(stored, 8)], other, [1; 4], steps)? as u128;
        Some((total, halves))
    }
}

/// Groups the west window codes `codes` in place by their weight `weights[code >> 62]`: those of
/// weight 1 first, then 2, then 4, each with its flag bits cleared, those of weight 0 last;
/// returns the ends of the first three groups. (Weights are 0, 1, 2 or 4.)
fn group_by_weight(codes: &mut [u64], weights: [u32; 4]) -> [usize; 3] {
    let flag_bits = FLAG_NORTH_U | FLAG_SOUTH_V;
    // Rank of a weight's group: 1 → 0, 2 → 1, 4 → 2, 0 → 3.
    let rank = |c: u64| match weights[(c >> 62) as usize] {
        0 => 3,
        w => w.trailing_zeros() as usize,
    };
    // One pass per group: move every code of rank r to the front of the rest.
    let mut front = 0;
    std::array::from_fn(|r| {
        let start = front;
        for k in start..codes.len() {
            if rank(codes[k]) == r {
                codes.swap(front, k);
                codes[front] &= !flag_bits;
                front += 1;
            }
        }
        front
    })
}

/// Returns the start configuration whose rows and columns a unit kind uses (for an axis kind,
/// the free rows do not depend on a).
fn kind_start(kind: Kind) -> Start {
    match kind {
        Kind::Even => Start::Even,
        Kind::Centre => Start::Centre,
        Kind::Axis { b } => Start::Axis { a: 1, b },
    }
}

/// Returns (the least of S, rev(S), Sᶜ, rev(Sᶜ), the number of distinct sets among them,
/// whether S = rev(S)), where Sᶜ is the complement within `free` and rev mirrors rows top to
/// bottom.
fn orbit(s: u64, free: u64, n: u32) -> (u64, u32, bool) {
    let mut sets = [s, reverse(s, n), free & !s, reverse(free & !s, n)];
    let palindrome = sets[0] == sets[1];
    sets.sort_unstable();
    let distinct = 1 + sets.windows(2).filter(|w| w[0] != w[1]).count() as u32;
    (sets[0], distinct, palindrome)
}

impl Plan for JoinPlan {
    fn n(&self) -> u32 {
        self.g.n
    }

    /// The quarter table and every thread's working buffers ([`memory_bytes`]; from n = 28 the
    /// row sets' lists each thread reads instead of the table).
    fn search_bytes(&self, threads: usize) -> u64 {
        memory_bytes(self.g.n, threads)
    }

    /// A unit is one `u64`.
    fn subproblem_bytes(&self) -> usize {
        std::mem::size_of::<u64>()
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Join
    }

    fn level(&self) -> Level {
        self.level
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    /// By Burnside over this plan's own quarter table (no second table is built).
    fn classes(&self, total: &crate::Tally) -> Option<crate::Classes> {
        let n = self.g.n;
        let f180 = symmetric::fixed_by_half_turn(&self.table, n);
        symmetric::classes(total.solutions, f180, symmetric::fixed_by_quarter_turn(n))
    }

    fn len(&self) -> usize {
        self.len
    }

    /// From n = 28, where the whole quarter table is no longer built: units of minutes.
    fn long_subproblems(&self) -> bool {
        self.g.h > quarter::MAX_TABLE_H
    }

    /// The join fixes no prefix of rows: 0.
    fn split_depth(&self) -> u32 {
        0
    }

    /// The weights `JoinPlan::round` and `JoinPlan::round_axis` apply to the unit
    /// (`unit_multiple`).
    fn multiple_of(&self, index: usize) -> u128 {
        let gi = self.groups.partition_point(|gr| gr.first <= index) - 1;
        let group = &self.groups[gi];
        unit_multiple(&self.g, group.kind, self.lists[group.list][index - group.first], self.reduce)
    }

    /// From the quarter-table list lengths of the unit's row sets ([`cost::weight`]).
    fn weight(&self, index: usize) -> f64 {
        cost::weight(self, index)
    }

    /// [`cost::sample_weight`]: the same at any n below 28.
    fn sample_weight(&self, index: usize) -> f64 {
        cost::sample_weight(self, index)
    }

    /// Loads the unit's row sets into this thread's scratch when the units load their own
    /// ([`Quarters::RowSets`]), so that the unit's solve finds them there; nothing otherwise.
    fn prepare(&self, index: usize) {
        if !self.table.is_row_sets() {
            return;
        }
        let gi = self.groups.partition_point(|gr| gr.first <= index) - 1;
        let group = &self.groups[gi];
        let rows = self.lists[group.list][index - group.first];
        SCRATCH.with(|s| {
            let _ = self.quarters_for(group.kind, rows, &mut s.borrow_mut().quarters);
        });
    }

    /// Counts unit `index`; `nodes` is the number of half-boards enumerated when `stats` is true.
    fn solve(&self, index: usize, stats: bool) -> Tally {
        self.solve_with(index, stats, None).expect("nothing stops the count")
    }

    /// Once the unit's half-boards are enumerated and the first stored piece is built (the
    /// setup: a fifth to a half of a unit at n = 24), the matcher runs in up to [`MAX_PARTS`]
    /// parts of its blocks ([`Matcher::count_coded_in_parts`]), so a unit stops within a part:
    /// under a second up to n = 27, a few seconds at n = 28. The shares are timed against the
    /// matcher's cost model: after the first part, which the model says is w of the matching,
    /// the unit's whole time is estimated as setup + (first part's time) / w, the first share is
    /// the time so far over that, and each later part gets the rest in proportion to its
    /// modelled work. The setup itself reports 0 ("may I go on?").
    fn stops_midway(&self) -> bool {
        true
    }

    fn solve_in_steps(
        &self,
        index: usize,
        stats: bool,
        step: &mut dyn FnMut(f64) -> ControlFlow<()>,
    ) -> Option<Tally> {
        let t0 = Instant::now();
        // (setup seconds, first share, the model's share of the first part, the model's share so far)
        let (mut setup, mut first, mut w1, mut before) = (0.0, 1.0, 1.0, 0.0);
        let mut on_part = |p: Parts| {
            let now = t0.elapsed().as_secs_f64();
            let share = match p.done {
                0 => {
                    setup = now;
                    0.0
                }
                1 => {
                    w1 = if p.share > 0.0 { p.share } else { 1.0 / p.total as f64 };
                    let whole = setup + (now - setup) / w1;
                    first = if whole > 0.0 { (now / whole).min(1.0) } else { w1 };
                    first
                }
                _ if w1 < 1.0 => (p.share - before).max(0.0) * (1.0 - first) / (1.0 - w1),
                _ => 0.0,
            };
            before = p.share;
            step(share)
        };
        self.solve_with(index, stats, Some(&mut on_part))
    }
}

/// The matcher's progress callback of a unit solved in steps ([`Plan::solve_in_steps`]), or
/// `None` to match in one part without one.
type Steps<'a> = Option<&'a mut dyn FnMut(Parts) -> ControlFlow<()>>;

/// The most parts a unit's matcher runs in when solved in steps.
pub const MAX_PARTS: usize = 64;

/// Returns what [`Matcher::count_coded`] returns, in parts through `steps` when given (`None`
/// if it stopped the count).
fn count(
    matcher: &mut Matcher,
    level: Level,
    classes: &[(&[u64], u32)],
    codes: &[u64],
    weights: [u32; 4],
    steps: Steps<'_>,
) -> Option<u64> {
    match steps {
        None => Some(matcher.count_coded(level, classes, codes, weights)),
        Some(after) => matcher.count_coded_in_parts(level, classes, codes, weights, MAX_PARTS, after),
    }
}

impl JoinPlan {
    /// Counts unit `index` as [`Plan::solve`] does, in parts through `steps` when given; `None`
    /// if `steps` stopped it.
    fn solve_with(&self, index: usize, stats: bool, steps: Steps<'_>) -> Option<Tally> {
        let gi = self.groups.partition_point(|gr| gr.first <= index) - 1;
        let group = &self.groups[gi];
        let rows = self.lists[group.list][index - group.first];
        let (solutions, halves) = SCRATCH.with(|s| {
            let s = &mut s.borrow_mut();
            s.half.level = self.level;
            s.matcher.sieve_from = self.sieve_from;
            s.matcher.chunk_bits = self.chunk_bits;
            s.matcher.cuts = self.cuts;
            s.matcher.max_stored = self.max_stored;
            s.matcher.max_queries = self.max_queries;
            match group.kind {
                Kind::Axis { b } => self.round_axis(b, rows, 1..b, s, steps),
                kind => self.round(kind, rows, s, steps),
            }
        })?;
        Some(Tally { solutions, nodes: if stats { halves as u128 } else { 0 }, ..Tally::default() })
    }
}

/// Returns a number every count of the unit (`kind`, east rows `rows`) is a multiple of, from
/// the weights the rounds apply: an axis unit counts each pair 8 times (one pair (a, b) per D4
/// orbit); a centre unit (reduced) multiplies its matches by the size of the orbit of its row
/// set, at least 2 (S and its complement differ); an even unit (reduced) multiplies by 2 unless
/// S is a palindrome, and weighs west halves `plain` (0, 1 or 2), 2, 2 or 4, where a palindrome
/// has `plain` 0 or 2. So every unit of n ≥ 4 is a multiple of 2 (Q(n) is even), some of 4 or
/// 8. Without the reductions every weight is 1 but the axis units'.
fn unit_multiple(g: &Geometry, kind: Kind, rows: u64, reduce: bool) -> u128 {
    let free = kind_start(kind).free_rows(g);
    match kind {
        Kind::Axis { .. } => 8,
        _ if !reduce => 1,
        Kind::Centre => u128::from(orbit(rows, free, g.n).1),
        Kind::Even => {
            let (min, size, palindrome) = orbit(rows, free, g.n);
            let mirror = if palindrome { 1 } else { 2 };
            let plain = if min == rows { size / mirror } else { 0 };
            // The gcd of the west weights [plain, 2, 2, 4] that can occur.
            let inner = if plain % 2 == 0 { 2 } else { 1 };
            u128::from(mirror * inner)
        }
    }
}

/// Returns the bytes of memory available to this process, if known: the least of the node's
/// `MemAvailable`, the cgroup's room and the Slurm job's limit ([`crate::memory::available`]).
pub fn available_memory() -> Option<u64> {
    crate::memory::available()
}

/// Returns `Ok(())` if the join's quarter table for the `n`×`n` board fits with one thread's
/// working buffers ([`check_memory_for`] with one thread).
///
/// # Errors
/// [`Error::JoinTooLarge`] otherwise.
pub fn check_memory(n: u32) -> Result<(), Error> {
    check_memory_for(n, 1)
}

/// Returns the most half-boards one unit's matcher stores at once on quarter side `h`
/// ([`matcher::Matcher::max_stored`]): all of them up to h = 13 (n ≤ 27, where a unit's buffers
/// stay under 3 GB), 2^23 from h = 14, so that a thread of n = 28–29 fits a node of modest memory.
pub fn max_stored(h: u32) -> Option<usize> {
    (h > quarter::MAX_TABLE_H).then_some(1 << 23)
}

/// Returns the estimated bytes of one thread's working buffers (half-board lists, window
/// masks, queries, matcher) for quarter side `h`, from the peak resident set a sample of units
/// added beside the plan (`examples/join_units`, one thread, results/2026-12-01-join-table/):
/// 58 MiB at h = 11 (n = 22), 285 MiB at h = 12 (n = 24; 357 MiB in a whole `--shard 0/4096`
/// part, 367 MiB with the south lists kept since results/2026-12-02-join/), 2,141 MiB at
/// h = 13 (n = 26, 53 units). Taken with a margin for the units no sample met: 72 MiB,
/// 400 MiB and 2.75 GiB; 4 MiB up to h = 10 (under 2 MB measured at n = 20). At h = 14
/// (n = 28–29) the matcher stores at most [`max_stored`] half-boards at once, which bounds its
/// tables but not the half-boards themselves: units of n = 28 peaked at 6.5 and 8.6 GiB
/// (results/2026-12-02-q28/; one stored whole passed 12 GiB), and the largest of 90 random
/// units' setups took a one-thread `plan 28` to 15.1 GiB (results/2026-12-02-plan/): taken as
/// 16 GiB.
pub fn per_thread_bytes(h: u32) -> u64 {
    const MIB: u64 = 1 << 20;
    match h {
        0..=10 => 4 * MIB,
        11 => 72 * MIB,
        12 => 400 * MIB,
        13 => 2816 * MIB,
        _ => 16 * 1024 * MIB,
    }
}

/// Returns `Ok(())` if the join fits for the `n`×`n` board on `threads` worker threads: n ≤
/// [`MAX_N`] and the quarter table ([`quarter::estimated_bytes`]) plus `threads` ×
/// [`per_thread_bytes`] is at most 3/4 of the memory available ([`available_memory`], which
/// honours the address-space limit), when that is known. Checked before anything is built.
///
/// # Errors
/// [`Error::JoinTooLarge`] otherwise.
pub fn check_memory_for(n: u32, threads: usize) -> Result<(), Error> {
    check_memory_with(n, threads, Quarters::for_board(n))
}

/// Returns the estimated bytes the join of the `n`×`n` board takes on `threads` worker threads
/// with the quarter lists the join reads there ([`Quarters::for_board`]): the whole quarter
/// table ([`quarter::estimated_bytes`]) plus `threads` × [`per_thread_bytes`], or from n = 28
/// `threads` × ([`per_thread_bytes`] + 4 × [`ROW_SET_BYTES`]). What [`check_memory_for`]
/// checks and `nqueens plan` reports (plus its bookkeeping).
pub fn memory_bytes(n: u32, threads: usize) -> u64 {
    let (table, per_thread) = memory_parts(n, Quarters::for_board(n));
    table.saturating_add(per_thread.saturating_mul(threads.max(1) as u64))
}

/// Returns (bytes shared by the threads, bytes per thread) of the join of the `n`×`n` board
/// reading `quarters` (the whole table beyond n = 27: `u64::MAX`, it is never built).
fn memory_parts(n: u32, quarters: Quarters) -> (u64, u64) {
    match quarters {
        Quarters::Table if n / 2 > quarter::MAX_TABLE_H => (u64::MAX, per_thread_bytes(n / 2)),
        Quarters::Table => (quarter::estimated_bytes(n / 2), per_thread_bytes(n / 2)),
        Quarters::RowSets => (0, per_thread_bytes(n / 2).saturating_add(4 * ROW_SET_BYTES)),
    }
}

/// The most bytes the lists of one row set take at the largest side ([`quarter::MAX_H`] = 14):
/// 14.1 MB measured for the row set of alternate rows, 1.75 million placements (the test
/// `row_sets_of_side_14`), taken with a margin.
pub const ROW_SET_BYTES: u64 = 32 << 20;

/// As [`check_memory_for`], with the quarter lists read from `quarters`: the whole table once,
/// or four row sets ([`ROW_SET_BYTES`] each) per thread.
///
/// # Errors
/// [`Error::JoinTooLarge`] if it does not fit, or for [`Quarters::Table`] beyond n = 27.
pub fn check_memory_with(n: u32, threads: usize, quarters: Quarters) -> Result<(), Error> {
    let (table, per_thread) = memory_parts(n, quarters);
    let needed = table.saturating_add(per_thread.saturating_mul(threads.max(1) as u64));
    let available = available_memory();
    let fits = n <= MAX_N && available.is_none_or(|a| needed <= a / 4 * 3);
    if fits {
        Ok(())
    } else {
        let mib = |b: u64| b.div_ceil(1 << 20);
        Err(Error::JoinTooLarge {
            n,
            needed_mib: mib(needed),
            table_mib: mib(table),
            threads: threads.max(1),
            per_thread_mib: mib(per_thread),
            address_space_limit_mib: crate::memory::address_space_limit().map(|b| b >> 20),
            available_mib: available.map_or(0, |a| a >> 20),
            max: MAX_N,
        })
    }
}

/// Returns the fundamental solutions of the `n`×`n` board by orbit size, given its total `q`
/// of solutions (from a join count added up over shards or a resumed journal), by Burnside's
/// lemma: the solutions fixed by the 180° and 90° rotations are counted afresh (the 180° count
/// rebuilds the quarter table, a fraction of a second up to n = 21). `None` for n = 0 (A002562
/// starts at n = 1) or when `q` is inconsistent with those counts (not the whole count).
///
/// # Errors
/// [`Error::JoinTooLarge`] if the quarter table does not fit, as for a count.
pub fn burnside_classes(n: u32, q: u128) -> Result<Option<crate::Classes>, Error> {
    if n == 0 {
        return Ok(None);
    }
    if n < MIN_N {
        let classes = small_classes(n);
        return Ok((classes.solutions() == q).then_some(classes));
    }
    let plan = JoinPlan::new(n)?;
    let f180 = symmetric::fixed_by_half_turn(&plan.table, n);
    let f90 = symmetric::fixed_by_quarter_turn(n);
    Ok(symmetric::classes(q, f180, f90))
}

/// Classifies the solutions of a small board (n < [`MIN_N`]) by the d4 plan, which counts
/// them by orbit per start constellation (a few hundred boards at most).
fn small_classes(n: u32) -> crate::Classes {
    let plan = super::d4::D4Plan::auto(n, 1).expect("a d4 plan of a board below the join's smallest");
    (0..plan.len()).map(|i| plan.solve(i, false).classes).fold(crate::Classes::default(), |mut a, c| {
        a += c;
        a
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Burnside's classes of every board from n = 1, below the join's smallest (classified by
    /// d4) and above, agree with the known table; a wrong total gives none.
    #[test]
    fn burnside_classes_match_the_known_table() {
        for n in 1..=12 {
            let q = crate::oeis::A000170.get(n).unwrap();
            assert_eq!(burnside_classes(n, q).unwrap(), crate::oeis::known_classes(n), "n = {n}");
        }
        assert_eq!(burnside_classes(0, 1).unwrap(), None);
        assert_eq!(burnside_classes(2, 1).unwrap(), None);
    }
    use crate::parallel;
    use crate::reference::backtrack_count;

    fn run(plan: &JoinPlan, threads: usize) -> u128 {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        parallel::run(plan, &pool, parallel::Progress::Never, false).tally.solutions
    }

    /// Solutions containing the given queens (row, column), by the plain backtracker.
    fn with_queens(n: u32, queens: &[(usize, usize)]) -> u128 {
        let mut count = 0;
        crate::reference::backtrack_each(n, |q| count += queens.iter().all(|&(r, c)| q[r] == c) as u128);
        count
    }

    #[test]
    fn each_odd_start_equals_a_backtracker_with_its_queens_placed() {
        for n in [5, 7, 9, 11] {
            let plan = JoinPlan::new(n).unwrap();
            let h = (n / 2) as usize;
            let mut total = 0;
            for start in Start::all(n) {
                let (queens, weight) = match start {
                    Start::Centre => (vec![(h, h)], 1),
                    Start::Axis { a, b } => (vec![(h, h + a as usize), (h + b as usize, h)], 8),
                    Start::Even => unreachable!(),
                };
                let got = plan.count_start(start);
                assert_eq!(got, with_queens(n, &queens), "n = {n} {start:?}");
                total += weight * got;
            }
            assert_eq!(total, backtrack_count(n) as u128, "n = {n}");
        }
    }

    #[test]
    fn every_instruction_set_level_gives_the_same_counts() {
        // Every board the join counts itself up to 16, against the independent backtracker up
        // to 12 and OEIS A000170 above, at every level this processor runs; the fundamental
        // solutions (Burnside, over the level's own counts) against A002562.
        for n in MIN_N..=16 {
            let want =
                if n <= 12 { backtrack_count(n) as u128 } else { crate::oeis::A000170.get(n).unwrap() };
            for level in Level::available() {
                let mut plan = JoinPlan::new(n).unwrap();
                plan.set_level(level);
                assert_eq!(plan.level(), level);
                assert_eq!(run(&plan, 2), want, "n = {n} {level}");
                let total = Tally { solutions: want, ..Tally::default() };
                let unique = plan.classes(&total).map(|c| c.total());
                assert_eq!(unique, crate::oeis::A002562.get(n), "n = {n} {level}");
                if n <= 12 {
                    plan.set_sieve_from(0);
                    assert_eq!(run(&plan, 2), want, "n = {n} {level} always sieving");
                }
            }
        }
    }

    /// The compacted quarter tables (rows; rows and columns) give the same counts and the same
    /// solutions fixed by the half turn as the full table.
    #[test]
    fn compacted_quarter_tables_give_the_same_counts() {
        use quarter::Symmetry;
        for n in [8, 9, 12, 13] {
            let want = backtrack_count(n) as u128;
            let full = symmetric::fixed_by_half_turn(&QuarterTable::build_with(n / 2, Symmetry::None), n);
            for symmetry in [Symmetry::Rows, Symmetry::D4] {
                let mut plan = JoinPlan::new(n).unwrap();
                plan.table = QuarterTable::build_with(n / 2, symmetry);
                assert_eq!(run(&plan, 2), want, "n = {n} {symmetry:?}");
                assert_eq!(symmetric::fixed_by_half_turn(&plan.table, n), full, "n = {n} {symmetry:?}");
            }
        }
    }

    /// Row-set plans (each unit loads its own four row sets, the path of n = 28–29) give the
    /// counts of the whole table, OEIS A000170 and, by Burnside over row sets, A002562, on
    /// several thread counts; reduced or not.
    #[test]
    fn row_set_plans_equal_the_whole_table() {
        for n in MIN_N..=15 {
            let want = crate::oeis::A000170.get(n).unwrap();
            let plan = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
            assert_eq!(plan.quarters(), Quarters::RowSets);
            for threads in [1, 2, 3] {
                assert_eq!(run(&plan, threads), want, "n = {n} threads = {threads}");
            }
            let whole = JoinPlan::new(n).unwrap();
            assert_eq!(whole.quarters(), Quarters::Table);
            assert_eq!(
                symmetric::fixed_by_half_turn(plan.table(), n),
                symmetric::fixed_by_half_turn(whole.table(), n),
                "n = {n}"
            );
            let total = Tally { solutions: want, ..Tally::default() };
            assert_eq!(plan.classes(&total).map(|c| c.total()), crate::oeis::A002562.get(n), "n = {n}");
            if n <= 11 {
                let plain = JoinPlan::with_options(n, false, Quarters::RowSets).unwrap();
                assert_eq!(run(&plain, 2), want, "n = {n} unreduced");
            }
        }
        // Unit by unit at n = 18: the same subtotals from either source.
        let (rows, table) =
            (JoinPlan::with_options(18, true, Quarters::RowSets).unwrap(), JoinPlan::new(18).unwrap());
        for index in (0..rows.len()).step_by(101) {
            assert_eq!(rows.solve(index, true), table.solve(index, true), "n = 18 unit {index}");
        }
    }

    /// The n = 28–29 path against the whole table on real units of large boards: 24 units each
    /// of n = 22, 23, 24 and 25, spread over each plan, give the same subtotals and half-board
    /// counts from row sets as from the table (about a minute and 1.5 GB:
    /// `cargo test --release -- --ignored row_sets_equal_the_table_on_large_boards`).
    #[test]
    #[ignore]
    fn row_sets_equal_the_table_on_large_boards() {
        for n in 22..=25 {
            let table = JoinPlan::new(n).unwrap();
            let rows = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
            assert_eq!(rows.len(), table.len());
            let step = table.len() / 24 + 1;
            for index in (step / 2..table.len()).step_by(step) {
                let (a, b) = (rows.solve(index, true), table.solve(index, true));
                assert_eq!(a, b, "n = {n} unit {index}");
                eprintln!("n = {n} unit {index}: {} solutions, {} halves", a.solutions, a.nodes);
            }
        }
    }

    /// A stored side matched in pieces and codes matched in batches (the bounds of n = 28–29)
    /// give the same counts.
    #[test]
    fn stored_pieces_and_code_batches_give_the_same_counts() {
        for n in [8, 11, 14, 15] {
            let want = crate::oeis::A000170.get(n).unwrap();
            for (cap, batch) in
                [(1, None), (7, Some(3)), (100, None), (5000, Some(1000)), (usize::MAX, Some(77))]
            {
                let mut plan = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
                plan.set_max_stored(Some(cap));
                plan.set_max_queries(batch);
                assert_eq!(run(&plan, 2), want, "n = {n} pieces of {cap}, batches of {batch:?}");
            }
        }
        assert_eq!(max_stored(13), None);
        assert_eq!(max_stored(14), Some(1 << 23));
    }

    /// Units solved in steps (the matcher in parts, stored pieces too) count as in one pass; the
    /// shares are positive after the setup and add up to 1; a break ends a unit without counts.
    #[test]
    fn units_in_steps_count_like_one_pass() {
        for (n, cap) in [(16, None), (16, Some(100)), (17, Some(1000))] {
            let mut plan = JoinPlan::new(n).unwrap();
            plan.set_max_stored(cap);
            plan.set_max_queries(cap.map(|c| 3 * c));
            let (mut total, mut parted, mut big) = (0u128, 0, (0, 0));
            for index in 0..plan.len() {
                let (mut shares, mut calls) = (0.0, 0);
                let tally = plan
                    .solve_in_steps(index, true, &mut |share| {
                        assert!((0.0..=1.0).contains(&share), "n = {n} unit {index}: share {share}");
                        (shares, calls) = (shares + share, calls + 1);
                        ControlFlow::Continue(())
                    })
                    .unwrap();
                assert_eq!(tally, plan.solve(index, true), "n = {n} unit {index}");
                big = big.max((tally.nodes, index));
                assert!(calls == 0 || (shares - 1.0).abs() < 1e-9, "n = {n} unit {index}: {shares}");
                parted += usize::from(calls > 2);
                total += tally.solutions;
            }
            assert_eq!(total, crate::oeis::A000170.get(n).unwrap(), "n = {n}");
            // Units of n < 20 store under 16 blocks: one part each, unless stored in pieces.
            assert_eq!(parted > 0, cap.is_some(), "n = {n}: {parted} units ran in parts");
            // A break at the first part's share: no counts.
            let big = big.1;
            if cap.is_none() {
                continue;
            }
            let stopped = plan.solve_in_steps(big, false, &mut |share| {
                if share > 0.0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            assert_eq!(stopped, None, "n = {n} unit {big}");
        }
    }

    /// The join covers n = 28–29 with row sets: the plan is made without a table, and the whole
    /// table is refused there.
    #[test]
    fn boards_past_27_read_row_sets() {
        assert_eq!(MAX_N, 29);
        assert_eq!(Quarters::for_board(27), Quarters::Table);
        assert_eq!(Quarters::for_board(28), Quarters::RowSets);
        assert_eq!(Quarters::for_board(29), Quarters::RowSets);
        // Row sets at a small board are not what makes units long: the board is.
        assert!(!JoinPlan::with_options(12, true, Quarters::RowSets).unwrap().long_subproblems());
        assert!(!JoinPlan::new(12).unwrap().long_subproblems());
        assert!(matches!(check_memory_with(28, 1, Quarters::Table), Err(Error::JoinTooLarge { n: 28, .. })));
        assert!(matches!(check_memory_for(30, 1), Err(Error::JoinTooLarge { n: 30, max: 29, .. })));
    }

    #[test]
    fn thread_counts_agree() {
        for n in [12, 13] {
            let plan = JoinPlan::new(n).unwrap();
            let want = backtrack_count(n) as u128;
            for threads in [1, 2, 3, 8] {
                assert_eq!(run(&plan, threads), want, "n = {n} threads = {threads}");
            }
        }
    }

    #[test]
    fn reduced_and_unreduced_plans_equal_the_backtracker() {
        for n in MIN_N..=11 {
            let want = backtrack_count(n) as u128;
            for reduce in [true, false] {
                let plan = JoinPlan::with_reduction(n, reduce).unwrap();
                assert_eq!(run(&plan, 1), want, "n = {n} reduce = {reduce}");
            }
        }
    }

    /// Issue 32, finding 6: the sampling plan (row sets loaded per unit, the table's lengths
    /// only) has the units, counts and sample weights of the plan with the whole table.
    #[test]
    fn the_sampling_plan_counts_and_weighs_as_the_whole_table() {
        for n in [12u32, 13, 17] {
            let whole = JoinPlan::new(n).unwrap();
            let sample = JoinPlan::for_sampling(n).unwrap();
            assert_eq!(
                (sample.len(), sample.quarters(), whole.quarters()),
                (whole.len(), Quarters::RowSets, Quarters::Table)
            );
            assert_eq!(sample.search_bytes(2), whole.search_bytes(2), "the memory of a count");
            let step = (whole.len() / 60).max(1);
            for i in (0..whole.len()).step_by(step) {
                assert_eq!(sample.sample_weight(i), whole.sample_weight(i), "n = {n} unit {i}");
                sample.prepare(i);
                assert_eq!(sample.solve(i, true), whole.solve(i, true), "n = {n} unit {i}");
            }
            // Unprepared, a unit loads its own lists.
            assert_eq!(sample.solve(0, false), whole.solve(0, false));
        }
    }
}
