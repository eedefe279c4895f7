//! The quadrant-join counter (`--algorithm join`): counts solutions without backtracking over
//! whole boards, by joining half-boards built from quarter-board placements.
//!
//! Method (E. Kluev's N-Queens-Count-Sol, re-derived in doc/join-algorithm.md): every
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
//! 40 MB at n = 22, 0.2 GB at n = 24, 0.7 GB at n = 26 and up to 3.3 GiB at n = 28
//! ([`per_thread_bytes`]; results/2026-12-04-frontier/), kept from unit to unit within 1 GiB
//! (2.6 GiB at n = 28–29) and freed beyond.
//! [`JoinPlan::new`] refuses boards whose table would not fit in the memory available, and
//! [`check_memory_for`] (which the command line runs first) counts every thread's buffers too.
//!
//! From n = 28 ([`Quarters::RowSets`]) no table is built: the h = 14 table would hold about
//! 8 × 10^9 placements with compaction (65 GB), but one unit reads the lists of only four row
//! sets (the north and south rows of its east and west halves), at most 1.75 million
//! placements (14 MB) each at h = 14, which the thread walks when it starts the unit (about
//! 0.1 s, against minutes of matching). So memory is per thread, not per table, and n = 28–29
//! run on a node of modest memory; the same path runs at every n for the tests.

//!
//! Files: this one builds the plan ([`JoinPlan::new`]) and runs it as a [`Plan`]; `unit.rs`
//! holds the plan's data and counts one unit; `memory.rs` what the join takes of memory;
//! [`symmetric`] the fundamental solutions by Burnside (the plan's `Plan::fundamental`).

pub mod bits;
pub mod cost;
pub mod half;
pub mod matcher;
mod memory;
// The units' profiles, for the examples that time the join's parts (with `internals`).
#[cfg(any(test, feature = "internals"))]
mod profile;
pub mod quarter;
pub mod start;
pub mod symmetric;
mod unit;

use std::ops::ControlFlow;
use std::time::Instant;

use crate::arch::Level;
use bits::reverse;
use half::Geometry;
use matcher::Parts;
#[cfg(any(test, feature = "internals"))]
pub use memory::{ROW_SET_BYTES, check_memory};
pub use memory::{
    available_memory, check_memory_for, check_memory_with, max_stored, memory_bytes, per_thread_bytes,
};
use quarter::QuarterTable;
#[cfg(any(test, feature = "internals"))]
pub use profile::{UnitProfile, UnitSides};
#[cfg(any(test, feature = "internals"))]
pub use start::Start;
use symmetric::subsets_of;
#[cfg(any(test, feature = "internals"))]
use unit::Scratch;
use unit::{Group, Kind, RowSets, SCRATCH, kind_start, orbit, unit_multiple};
#[cfg(any(test, feature = "internals"))]
pub use unit::MAX_PARTS;
pub use unit::{JoinPlan, JOIN_MAX_N, MIN_N, Quarters};

use crate::{Algorithm, Error, Plan, Tally};

impl JoinPlan {
    /// Returns the plan for the `n`×`n` board ([`MIN_N`] ≤ n ≤ [`JOIN_MAX_N`]) with every symmetry
    /// reduction, building the quarter table (side ⌊n/2⌋).
    ///
    /// # Errors
    /// [`Error::JoinTooLarge`] if n > [`JOIN_MAX_N`] or the table's estimated size exceeds 3/4 of
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
                max: JOIN_MAX_N,
            }
        })?;
        let kinds: Vec<Kind> = if n.is_multiple_of(2) {
            vec![Kind::Even]
        } else {
            std::iter::once(Kind::Centre).chain((2..=g.h).map(|b| Kind::Axis { b })).collect()
        };
        let mut groups = Vec::new();
        let mut len = 0;
        for kind in kinds {
            let free = kind_start(kind).free_rows(&g);
            // Even: S ≤ rev(S) (the mirror pairs); centre: S least of its orbit; axis: all S.
            let keep = |s: u64| match kind {
                Kind::Even => s <= reverse(s, n),
                Kind::Centre => orbit(s, free, n).0 == s,
                Kind::Axis { .. } => true,
            };
            let rows = match kind {
                Kind::Axis { .. } => RowSets::All { free, k: g.h, count: bits::binomial(free.count_ones(), g.h) as usize },
                _ if !reduce => RowSets::All { free, k: g.h, count: bits::binomial(free.count_ones(), g.h) as usize },
                _ => RowSets::Kept(subsets_of(free, g.h).filter(|&s| keep(s)).map(|s| s as u32).collect()),
            };
            let count = rows.len();
            groups.push(Group { kind, rows, first: len });
            len += count;
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
            code_batch: None,
            piece_visits: None,
            keep: memory::keep_bytes(n / 2),
            groups,
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
    #[cfg(any(test, feature = "internals"))]
    pub fn table(&self) -> &QuarterTable {
        &self.table
    }

    /// Returns where the units read their quarter lists from.
    #[cfg(any(test, feature = "internals"))]
    pub fn quarters(&self) -> Quarters {
        if self.table.is_row_sets() { Quarters::RowSets } else { Quarters::Table }
    }

    /// Returns the instruction-set level the matcher runs at.
    #[cfg(any(test, feature = "internals"))]
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
    #[cfg(any(test, feature = "internals"))]
    pub fn set_chunk_bits(&mut self, bits: u32) {
        self.chunk_bits = Some(bits);
    }

    /// Forces the matcher's number of cut bits (for benches and tuning; the default grows with
    /// the sides' sizes, see [`matcher::Matcher::cuts`]).
    #[cfg(any(test, feature = "internals"))]
    pub fn set_cuts(&mut self, cuts: u32) {
        self.cuts = Some(cuts);
    }

    /// Sets the most half-boards the matcher stores at once (see [`matcher::Matcher::max_stored`];
    /// the default is [`max_stored`] for the board; `None`: all at once).
    #[cfg(any(test, feature = "internals"))]
    pub fn set_max_stored(&mut self, masks: Option<usize>) {
        self.max_stored = masks;
    }

    /// Sets the most codes the matcher sorts and matches at once (see
    /// [`matcher::Matcher::code_batch`]; the default is [`matcher::CODE_BATCH`]).
    #[cfg(any(test, feature = "internals"))]
    pub fn set_code_batch(&mut self, codes: Option<usize>) {
        self.code_batch = codes;
    }

    /// Sets the (block, mask) visits a window of tasks of a sampled unit holds at least (see
    /// [`matcher::Sampling`]; the default is [`matcher::PIECE_VISITS`]), for tests of small
    /// boards, whose units hold fewer visits than one window.
    #[cfg(any(test, feature = "internals"))]
    pub fn set_piece_visits(&mut self, visits: Option<u64>) {
        self.piece_visits = visits;
    }

    /// Sets the most bytes each thread's buffers keep from one unit to the next and as its
    /// halves grow (the default is `memory::keep_bytes` for the board: 1 GiB, 2.6 GiB at
    /// n = 28–29), for tests that free them at every step (`Some(0)`) and profiles.
    #[cfg(any(test, feature = "internals"))]
    pub fn set_keep_bytes(&mut self, bytes: Option<usize>) {
        self.keep = bytes.unwrap_or_else(|| memory::keep_bytes(self.g.h));
    }

    /// Sets the stored-set size from which the matcher uses its sieve (for benches; the
    /// default is [`matcher::SIEVE_FROM`]).
    #[cfg(any(test, feature = "internals"))]
    pub fn set_sieve_from(&mut self, masks: usize) {
        self.sieve_from = Some(masks);
    }

    /// Returns the solutions that contain the pre-placed queens of `start` (for the centre and
    /// even starts: all solutions of that start, with the reductions undone), counted
    /// sequentially; for an axis start the weight 8 is not applied.
    #[cfg(any(test, feature = "internals"))]
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
            for rows in (0..group.rows.len()).map(|i| group.rows.get(i)) {
                let counted = match kind {
                    Kind::Axis { b } => self.round_axis(b, rows, a..a + 1, &mut s, None).map(|c| c.0 / 8),
                    _ => self.round(kind, rows, &mut s, None).map(|c| c.0),
                };
                total += counted.expect("nothing stops the count");
            }
        }
        total
    }
}

impl crate::vocabulary::Sealed for JoinPlan {}

impl Plan for JoinPlan {
    fn n(&self) -> u32 {
        self.g.n
    }

    /// The quarter table and every thread's working buffers ([`memory_bytes`]; from n = 28 the
    /// row sets' lists each thread reads instead of the table).
    fn search_bytes(&self, threads: usize) -> u64 {
        memory_bytes(self.g.n, threads)
    }

    /// A unit is at most one `u32` (the row sets a reduction keeps; the axis starts' are
    /// unranked, not stored).
    fn subproblem_bytes(&self) -> usize {
        std::mem::size_of::<u32>()
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Join
    }

    fn level(&self) -> Level {
        self.level
    }

    /// By Burnside over this plan's own quarter table (no second table is built).
    fn fundamental(&self, total: &crate::Tally) -> Option<crate::Classes> {
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
        let (kind, rows) = self.unit(index);
        unit_multiple(&self.g, kind, rows, self.reduce)
    }

    /// From the quarter-table list lengths of the unit's row sets ([`cost::weight`]).
    fn weight(&self, index: usize) -> f64 {
        cost::weight(self, index)
    }

    /// [`cost::sample_weight`]: from the list lengths, or, from n = 28, from the half-boards
    /// estimated from the unit's row sets.
    fn sample_weight(&self, index: usize) -> f64 {
        cost::sample_weight(self, index)
    }

    /// Loads the unit's row sets into this thread's scratch when the units load their own
    /// ([`Quarters::RowSets`]), so that the unit's solve finds them there; nothing otherwise.
    fn prepare(&self, index: usize) {
        if !self.table.is_row_sets() {
            return;
        }
        let (kind, rows) = self.unit(index);
        SCRATCH.with(|s| {
            let _ = self.quarters_for(kind, rows, &mut s.borrow_mut().quarters);
        });
    }

    /// Counts unit `index`; `nodes` is the number of half-boards enumerated when `stats` is true.
    fn solve(&self, index: usize, stats: bool) -> Tally {
        self.solve_with(index, stats, None).expect("nothing stops the count")
    }

    /// Once the unit's half-boards are enumerated and both sides sorted (the setup), the
    /// matcher runs in up to [`MAX_PARTS`] parts of its (block, mask) visits
    /// ([`Matcher::count_in_place`](matcher::Matcher::count_in_place)), so a unit stops within a
    /// part: under a second up to n = 27, about a second at n = 28. The shares are timed against
    /// the visits: after the first part, which is w of them, the unit's whole time is estimated as
    /// setup + (first part's time) / w, the first share is the time so far over that, and each
    /// later part gets the rest in proportion to its visits. The setup itself reports 0 ("may I
    /// go on?").
    fn stops_midway(&self) -> bool {
        true
    }

    /// A random share of the unit's blocks (see [`matcher::Sampling`]).
    fn counts_shares(&self) -> bool {
        true
    }

    /// The unit's row sets and factored sides whole; where one side has many more candidate
    /// half-boards than the other (an even or centre unit), a random share of them, drawn by
    /// north quarter entry, written and sorted as the codes (its time weighed by one over that
    /// share; the stored side whole); then a random share of the windows of tasks
    /// ([`matcher::Sampling`]) matched, drawn by a hash of (`seed`, its number): `share` in
    /// all. Each stretch of the work is reported to `weight` with what it stands for
    /// ([`matcher::Parts::piece`]).
    fn solve_share(&self, index: usize, share: f64, seed: u64, weight: &mut dyn FnMut(f64)) -> Option<Tally> {
        let mut on_part = |p: Parts| {
            if let Some(w) = p.piece {
                weight(w);
            }
            ControlFlow::Continue(())
        };
        let sampling = Some(matcher::Sampling { share: share.clamp(f64::MIN_POSITIVE, 1.0), seed, codes: 1.0 });
        SCRATCH.with(|s| s.borrow_mut().matcher.sampling = sampling);
        let tally = self.solve_with(index, false, Some(&mut on_part));
        SCRATCH.with(|s| s.borrow_mut().matcher.sampling = None);
        tally
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

#[cfg(test)]
mod tests;
