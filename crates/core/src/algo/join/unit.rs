//! The units of a join plan and how one is counted: [`JoinPlan`]'s data (its geometry, quarter
//! table and units, each a start kind and an east row set), the boards it takes ([`MIN_N`] to
//! [`JOIN_MAX_N`]) and where it reads its quarter lists ([`Quarters`]); the rounds that count one
//! unit in per-thread scratch, and the number every count of a unit is a multiple of. The plan's
//! constructors and its [`Plan`](crate::Plan) implementation are in `mod.rs`.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::Instant;

use super::bits::{low_mask, pdep_soft, reverse, unrank_colex};
use super::half::{FLAG_NORTH_U, FLAG_SOUTH_V, Geometry, HalfScratch, Side, window_codes};
use super::matcher::{Matcher, Parts, Sides};
use super::quarter::{self, QuarterTable};
use super::start::Start;
use crate::Tally;
use crate::arch::Level;

/// The smallest board the join counts itself; smaller boards fall back to the mirror
/// backtracker (the output then names `mirror` as the algorithm).
pub const MIN_N: u32 = 4;

/// The largest board the join supports, n ≤ 29: quarter side h ≤ [`quarter::MAX_H`] (the
/// whole quarter table up to n = 27, row sets beyond, see [`Quarters`]). Not the library's
/// largest board, [`crate::MAX_N`] (63), which d4 and mirror count to.
pub const JOIN_MAX_N: u32 = 2 * quarter::MAX_H + 1;

/// The kind of a unit: which start configurations it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Even n.
    Even,
    /// Odd n, the centre queen.
    Centre,
    /// Odd n, the middle-column queen at (h+b, h) with every middle-row queen (h, h+a),
    /// 0 < a < b: the east halves do not depend on a, so one stored set serves all a.
    Axis { b: u32 },
}

/// One group of units: a kind and the row sets it runs on.
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub(super) kind: Kind,
    pub(super) rows: RowSets,
    pub(super) first: usize,
}

/// The east row sets of a group of units, in their fixed order.
#[derive(Clone, Debug)]
pub(super) enum RowSets {
    /// Every `k`-subset of the rows `free`, in colex order of their positions: not stored, the
    /// i-th is unranked ([`unrank_colex`]); the axis starts of odd n, about 2.6 · 10^8 units at
    /// n = 29 (2 GB as a list).
    All { free: u64, k: u32, count: usize },
    /// The row sets a reduction keeps, in colex order (at most 29 rows: `u32`).
    Kept(Vec<u32>),
}

impl RowSets {
    /// Returns how many row sets.
    pub(super) fn len(&self) -> usize {
        match self {
            RowSets::All { count, .. } => *count,
            RowSets::Kept(list) => list.len(),
        }
    }

    /// Returns the `i`-th row set.
    pub(super) fn get(&self, i: usize) -> u64 {
        match self {
            RowSets::All { free, k, .. } => pdep_soft(unrank_colex(free.count_ones(), *k, i as u64), *free),
            RowSets::Kept(list) => u64::from(list[i]),
        }
    }
}

/// The join plan of one board: the quarter table and the units (start configuration × east
/// row set S), in a fixed order.
#[derive(Debug)]
pub struct JoinPlan {
    pub(super) g: Geometry,
    pub(super) table: QuarterTable,
    pub(super) level: Level,
    pub(super) reduce: bool,
    pub(super) sieve_from: Option<usize>,
    pub(super) chunk_bits: Option<u32>,
    pub(super) cuts: Option<u32>,
    pub(super) max_stored: Option<usize>,
    pub(super) code_batch: Option<usize>,
    pub(super) piece_visits: Option<u64>,
    /// The most bytes each thread's buffers keep ([`keep_bytes`](super::memory::keep_bytes)).
    pub(super) keep: usize,
    pub(super) groups: Vec<Group>,
    pub(super) len: usize,
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

/// Per-thread scratch: the half enumerator's buffers, one buffer of both sides' window masks
/// and the matcher (reused by every unit the thread runs).
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) half: HalfScratch,
    /// The unit's window masks: the east halves, then the west halves with their flags
    /// ([`Halves::east`] says where the west begin; entries past the end are scratch). One
    /// buffer for both sides holds what the largest unit so far needed, where a buffer a side
    /// held the largest east side of one unit beside the largest west side of another (4.8 GB
    /// where the largest unit needed 3.4 GB, results/2026-12-04-plan-coverage/), and a unit whose
    /// larger side was the other one than the unit before's wrote it into fresh pages.
    pub(super) halves: Vec<u64>,
    pub(super) matcher: Matcher,
    /// The row sets of the current unit, when the plan reads [`Quarters::RowSets`].
    pub(super) quarters: QuarterTable,
    /// What the last unit's setup took: (seconds enumerating its half-boards, loading its row
    /// sets included; east half-boards; west half-boards).
    pub(super) setup: (f64, u64, u64),
    /// The most bytes the buffers keep from one unit to the next and beside a side that grows
    /// (the plan's, [`keep_bytes`](super::memory::keep_bytes); 0 until a unit sets it).
    pub(super) keep: usize,
}

impl Scratch {
    /// Before the halves' buffer grows to `needed` bytes: frees the matcher's buffers (the count
    /// allocates them again) where `needed` and what they hold together pass `keep`.
    pub(super) fn make_room(matcher: &mut Matcher, needed: usize, keep: usize) {
        if needed + matcher.held_bytes() > keep {
            matcher.release();
        }
    }

    /// Returns the bytes the large buffers hold: the halves (the entries written: the pages
    /// past them are reserved, never touched), the matcher's and the enumerator's.
    pub(super) fn held_bytes(&self) -> usize {
        8 * self.halves.len() + self.matcher.held_bytes() + self.half.held_bytes()
    }

    /// Once a unit's sides are enumerated: where what the buffers hold and the unit's row sets'
    /// lists pass `keep`, frees the enumerator's lists and the row sets (this unit reads
    /// neither again), so that they are not held beside the matcher's buffers as these grow:
    /// at n = 28 they held up to about 0.9 GB beside the half-boards of a unit of 3 GB
    /// (results/2026-12-05-plan-memory/). Smaller units keep them for the next unit.
    pub(super) fn before_matching(&mut self) {
        if self.held_bytes() + self.quarters.row_set_bytes() > self.keep {
            self.half.release();
            self.quarters.drop_row_sets();
        }
    }

    /// Frees large buffers while they hold more than `keep`
    /// ([`keep_bytes`](super::memory::keep_bytes)): the enumerator's, then the matcher's, then
    /// the halves' (the largest, whose pages cost the most to find again), so that a thread's
    /// peak is about its largest unit's need, not the sum of the largest needs of each buffer.
    /// Units below that (every unit up to n = 27, most of n = 28) keep their buffers warm.
    pub(super) fn trim(&mut self) {
        if self.held_bytes() > self.keep {
            self.half.release();
        }
        if self.held_bytes() > self.keep {
            self.matcher.release();
        }
        if self.held_bytes() > self.keep {
            self.halves = Vec::new();
        }
    }
}

thread_local! {
    pub(super) static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl JoinPlan {
    /// Returns the quarter lists of the unit on east rows `rows` of kind `kind`: the plan's table,
    /// or the scratch's row-set table loaded with the unit's four row sets (its east and west
    /// halves' north and south rows).
    pub(super) fn quarters_for<'a>(
        &'a self,
        kind: Kind,
        rows: u64,
        quarters: &'a mut QuarterTable,
    ) -> &'a QuarterTable {
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

    /// Counts one even or centre unit: enumerates its sides ([`JoinPlan::sides`]) and matches
    /// them; returns (weighted solutions, halves enumerated), or `None` if `steps` stopped it
    /// (the matcher runs in parts when `steps` is given, see [`Steps`]).
    pub(super) fn round(
        &self,
        kind: Kind,
        rows: u64,
        s: &mut Scratch,
        steps: Steps<'_>,
    ) -> Option<(u128, u64)> {
        let sides = self.sides(kind, rows, s);
        self.count_sides(&sides, s, steps)
    }

    /// Counts one axis unit: the middle-column queen at (h+b, h), east rows `rows`, and the
    /// middle-row queen at (h, h+a) for every a in `a_range` ([`JoinPlan::axis_sides`]).
    /// Returns (solutions × 8, halves enumerated), or `None` if `steps` stopped it.
    pub(super) fn round_axis(
        &self,
        b: u32,
        rows: u64,
        a_range: std::ops::Range<u32>,
        s: &mut Scratch,
        steps: Steps<'_>,
    ) -> Option<(u128, u64)> {
        let sides = self.axis_sides(b, rows, a_range, s);
        self.count_sides(&sides, s, steps)
    }

    /// Matches the `sides` prepared in `s`: the weighted count times the unit's outer weight,
    /// and the halves enumerated; `None` if `steps` stopped it.
    fn count_sides(&self, halves: &Halves, s: &mut Scratch, steps: Steps<'_>) -> Option<(u128, u64)> {
        if halves.codes == 0 {
            return Some((0, halves.halves));
        }
        s.before_matching();
        let Scratch { halves: buffer, matcher, .. } = s;
        let (east, west) = buffer.split_at_mut(halves.east);
        let (stored, codes) = if halves.west_stored { (west, east) } else { (east, west) };
        let classes = &halves.classes[..halves.class_count];
        let len = classes.iter().map(|c| c.0).sum::<usize>();
        let sides =
            Sides { stored: &mut stored[..len], classes, codes: &mut codes[..halves.codes], weights: halves.weights };
        let matched = count(matcher, self.level, sides, steps)?;
        Some((u128::from(halves.outer) * u128::from(matched), halves.halves))
    }

    /// Enumerates the sides of one even or centre unit into `s`: the east halves and the west
    /// halves (by weight class); the smaller side is the stored one.
    pub(super) fn sides(&self, kind: Kind, rows: u64, s: &mut Scratch) -> Halves {
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
        let t0 = Instant::now();
        let Scratch { half, halves: buffer, quarters, setup, matcher, keep, .. } = s;
        let keep = *keep;
        let table = self.quarters_for(kind, rows, quarters);
        let cols = low_mask(g.h) as u32;
        let mut room = |e: usize| Scratch::make_room(matcher, 8 * e, keep);
        let e_end = window_codes(table, g, Side::East, rows, cols, east_u, east_v, false, half, buffer, 0, &mut room);
        if e_end == 0 {
            *setup = (t0.elapsed().as_secs_f64(), 0, 0);
            return Halves::empty();
        }
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
            buffer,
            e_end,
            &mut room,
        ) - e_end;
        let halves = (e_end + w_end) as u64;
        *setup = (t0.elapsed().as_secs_f64(), e_end as u64, w_end as u64);
        // Weight of a west half by its flags (bits 62 and 63, its weight class): 2 per
        // long-diagonal queen, else `plain`. Without flags every code is of class 0, and one
        // weight for all classes spares the matcher a partition by class.
        let weights = if even_reduced { [plain, 2, 2, 4] } else { [plain; 4] };
        // Store the smaller side: building costs about as much per stored mask as 20–40
        // queries; matching is symmetric.
        if e_end <= w_end {
            // The matcher drops the west halves of weight 0 (plain = 0: no long-diagonal queen).
            let classes = [(e_end, 1), (0, 0), (0, 0)];
            Halves { east: e_end, west_stored: false, classes, class_count: 1, codes: w_end, weights, outer, halves }
        } else {
            // The west halves grouped by weight in place (1, 2, 4; weight 0 dropped), flags
            // cleared: no second copy of the stored side (up to 10^8 halves at n = 28).
            let ends = group_by_weight(&mut buffer[e_end..e_end + w_end], weights);
            let classes = [(ends[0], 1), (ends[1] - ends[0], 2), (ends[2] - ends[1], 4)];
            Halves { east: e_end, west_stored: true, classes, class_count: 3, codes: e_end, weights: [1; 4], outer, halves }
        }
    }

    /// Enumerates the sides of one axis unit into `s`: the middle-column queen at (h+b, h),
    /// east rows `rows`, and the middle-row queen at (h, h+a) for every a in `a_range`. The east
    /// halves avoid the column queen and are enumerated once; the row queen's two diagonals are
    /// window diagonals (a < h), so each west half carries them and the matcher drops the east
    /// halves that meet them. The smaller side is the stored one, of weight 8.
    pub(super) fn axis_sides(&self, b: u32, rows: u64, a_range: std::ops::Range<u32>, s: &mut Scratch) -> Halves {
        let g = &self.g;
        let (n, h) = (g.n, g.h);
        let free = Start::Axis { a: 1, b }.free_rows(g);
        let west_rows = free & !rows;
        let (col_u, col_v) = (1u64 << (2 * h + b), 1u64 << (n - 1 - b));
        let t0 = Instant::now();
        let Scratch { half, halves: buffer, quarters, setup, matcher, keep, .. } = s;
        let keep = *keep;
        let table = self.quarters_for(Kind::Axis { b }, rows, quarters);
        let mut room = |e: usize| Scratch::make_room(matcher, 8 * e, keep);
        let e_end =
            window_codes(table, g, Side::East, rows, low_mask(h) as u32, col_u, col_v, false, half, buffer, 0, &mut room);
        if e_end == 0 {
            *setup = (t0.elapsed().as_secs_f64(), 0, 0);
            return Halves::empty();
        }
        // Every middle-row queen's west halves go into one set, each carrying the queen's two
        // window diagonals; the count is symmetric, so the smaller of the two sets is stored.
        let mut w_end = e_end;
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
                buffer,
                from,
                &mut room,
            );
            for w in &mut buffer[from..w_end] {
                *w |= row_queen;
            }
        }
        let w_end = w_end - e_end;
        let halves = (e_end + w_end) as u64;
        *setup = (t0.elapsed().as_secs_f64(), e_end as u64, w_end as u64);
        let west_stored = e_end > w_end;
        let (stored, codes) = if west_stored { (w_end, e_end) } else { (e_end, w_end) };
        let classes = [(stored, 8), (0, 0), (0, 0)];
        Halves { east: e_end, west_stored, classes, class_count: 1, codes, weights: [1; 4], outer: 1, halves }
    }
}

/// A unit's two sides as [`JoinPlan::sides`] leaves them in the scratch's buffer (the east
/// halves, then the west): the stored side's classes (masks and weight, one after the other
/// from the start of its side) and the codes (the start of the other side), their weights, and
/// what multiplies the count.
#[derive(Clone, Copy, Debug)]
pub(super) struct Halves {
    /// The east halves: the first this many of the buffer, the west halves after them.
    pub(super) east: usize,
    /// The west halves are the stored side (else the east halves).
    pub(super) west_stored: bool,
    /// The stored classes, the first `class_count` of them.
    pub(super) classes: [(usize, u32); 3],
    pub(super) class_count: usize,
    /// The codes: the first this many of the other side's buffer (0: nothing to count).
    pub(super) codes: usize,
    /// The weights of the codes' classes.
    pub(super) weights: [u32; 4],
    /// The unit's outer weight (the row sets' orbit).
    pub(super) outer: u32,
    /// The halves enumerated.
    pub(super) halves: u64,
}

impl Halves {
    /// No halves on the east side: nothing to count.
    fn empty() -> Halves {
        Halves {
            east: 0,
            west_stored: false,
            classes: [(0, 0); 3],
            class_count: 0,
            codes: 0,
            weights: [0; 4],
            outer: 0,
            halves: 0,
        }
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
pub(super) fn kind_start(kind: Kind) -> Start {
    match kind {
        Kind::Even => Start::Even,
        Kind::Centre => Start::Centre,
        Kind::Axis { b } => Start::Axis { a: 1, b },
    }
}

/// Returns (the least of S, rev(S), Sᶜ, rev(Sᶜ), the number of distinct sets among them,
/// whether S = rev(S)), where Sᶜ is the complement within `free` and rev mirrors rows top to
/// bottom.
pub(super) fn orbit(s: u64, free: u64, n: u32) -> (u64, u32, bool) {
    let mut sets = [s, reverse(s, n), free & !s, reverse(free & !s, n)];
    let palindrome = sets[0] == sets[1];
    sets.sort_unstable();
    let distinct = 1 + sets.windows(2).filter(|w| w[0] != w[1]).count() as u32;
    (sets[0], distinct, palindrome)
}

/// The matcher's progress callback of a unit solved in steps ([`Plan::solve_in_steps`]), or
/// `None` to match in one part without one.
type Steps<'a> = Option<&'a mut dyn FnMut(Parts) -> ControlFlow<()>>;

/// The most parts a unit's matcher runs in when solved in steps.
pub const MAX_PARTS: usize = 64;

/// Returns what [`Matcher::count_in_place`] returns for `sides`, in parts through `steps` when
/// given (`None` if it stopped the count).
fn count(matcher: &mut Matcher, level: Level, sides: Sides<'_>, steps: Steps<'_>) -> Option<u64> {
    match steps {
        None => matcher.count_in_place(level, sides, 1, &mut |_| ControlFlow::Continue(())),
        Some(after) => matcher.count_in_place(level, sides, MAX_PARTS, after),
    }
}

impl JoinPlan {
    /// Returns unit `index`'s kind and east row set.
    ///
    /// # Panics
    /// If `index` is not below the plan's number of units.
    pub(super) fn unit(&self, index: usize) -> (Kind, u64) {
        assert!(index < self.len, "unit index {index} out of bounds: the plan has {} units", self.len);
        let group = &self.groups[self.groups.partition_point(|gr| gr.first <= index) - 1];
        (group.kind, group.rows.get(index - group.first))
    }

    /// Counts unit `index` as [`Plan::solve`] does, in parts through `steps` when given; `None`
    /// if `steps` stopped it.
    pub(super) fn solve_with(&self, index: usize, stats: bool, steps: Steps<'_>) -> Option<Tally> {
        let (kind, rows) = self.unit(index);
        let (solutions, halves) = SCRATCH.with(|s| {
            let s = &mut s.borrow_mut();
            s.half.level = self.level;
            s.matcher.sieve_from = self.sieve_from;
            s.matcher.chunk_bits = self.chunk_bits;
            s.matcher.cuts = self.cuts;
            s.matcher.max_stored = self.max_stored;
            s.matcher.code_batch = self.code_batch;
            s.matcher.piece_visits = self.piece_visits;
            s.keep = self.keep;
            let counted = match kind {
                Kind::Axis { b } => self.round_axis(b, rows, 1..b, s, steps),
                kind => self.round(kind, rows, s, steps),
            };
            s.trim();
            counted
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
pub(super) fn unit_multiple(g: &Geometry, kind: Kind, rows: u64, reduce: bool) -> u128 {
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
