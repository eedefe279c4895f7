//! The D4 plan: one canonical start constellation per symmetry class of border queens, searched
//! inside, weighted by its orbit (see [`constellation`] for the method and its sources).
//!
//! It yields Q(n) (OEIS A000170), the fundamental solutions (OEIS A002562) and their breakdown
//! by orbit size. Each subproblem of a constellation without a symmetry of its own (all but a few
//! per cent) runs in the batched search ([`batched`], compiled for the plan's instruction-set
//! [`Level`]) for n ≤ 22, else in the recursive search ([`search`]); all make the same
//! placements. Symmetric constellations are classified board by board
//! ([`search::classify_with_events`]).
//!
//! Without look-ahead the search made 0.38 times the queen placements of mirror halving at
//! n = 15 (32.2 M against 85.6 M; an eighth of the full tree would be 21.4 M): the shallow rows
//! are searched again for every constellation that shares them. The look-ahead at 4–6 free rows
//! ([`search::LOOKAHEAD`]) cuts n = 16 from 212 M to 141 M placements. See
//! `results/2026-11-29-d4/` and `results/2026-11-29-d4-batched/`.

pub mod batched;
pub mod constellation;
pub mod search;

use crate::kernel::full_mask;
use constellation::{
    Constellation, D4Subproblem, max_constellations, try_canonical_constellations,
    try_d4_subproblems_counting,
};
use batched::BATCHED_MAX_N;
use search::{Classified, apply_events, classify_with_events, count_with_events};
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::algo::weight;
use crate::arch::{Isa, Level};
use crate::vocabulary::Sealed;
use crate::{Classes, Error, Plan, Tally, check_n, split};

/// Which search counts the subproblems of the d4 algorithm. Every choice makes the same queen
/// placements and gives the same counts (tested); they differ only in speed, so this is for
/// studies and benchmarks of one machine's copies. The instruction set of the batched search
/// is the plan's [`Level`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum D4Search {
    /// The fastest measured (the default): at the AVX2 and AVX-512 levels the batched search
    /// up to `BATCHED_MAX_N` and the recursive one beyond; at the portable and NEON levels
    /// the recursive search. (Portable, n = 17 on one thread, Zen 4: batched 13.2 CPU s,
    /// recursive 11.5. The NEON copy of the batched search is tested under emulation but not
    /// yet timed on an ARM processor, so it is not chosen by default.)
    #[default]
    Auto,
    /// The batched search up to `BATCHED_MAX_N` (several boards per step in vector
    /// registers; see `batched`), the recursive one beyond.
    Batched,
    /// The recursive search of `search` for every board.
    Recursive,
}

impl D4Search {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [D4Search; 3] = [D4Search::Auto, D4Search::Batched, D4Search::Recursive];

    /// Returns the `--d4-search` name.
    pub fn name(self) -> &'static str {
        match self {
            D4Search::Auto => "auto",
            D4Search::Batched => "batched",
            D4Search::Recursive => "recursive",
        }
    }

    /// Returns true if and only if this choice counts boards up to `BATCHED_MAX_N` in the
    /// batched search at `level`.
    pub fn batched(self, level: Level) -> bool {
        match self {
            D4Search::Auto => matches!(level.isa(), Isa::Avx2 | Isa::Avx512),
            D4Search::Batched => true,
            D4Search::Recursive => false,
        }
    }
}

impl FromStr for D4Search {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::error::parse_name(s, &D4Search::ALL, D4Search::name, "d4 search")
    }
}

/// The fewest subproblems the automatic split makes for boards beyond the batched search
/// (n > [`BATCHED_MAX_N`]): there one start constellation takes 40–100 s (n = 23,
/// recursive search, this project's 2-core machine), longer than a graceful stop (which
/// finishes the running subproblems) or a progress bar should wait. 131,072 gives depth 2 at
/// n = 23: 281,098 subproblems of about a second each.
pub const LARGE_BOARD_SUBPROBLEMS: usize = 1 << 17;

/// Returns the canonical constellations of the n×n board, their memory checked first against
/// the memory available ([`crate::memory::check`], at [`max_constellations`] × 304 bytes: 600 MB
/// at n = 63) and then reserved fallibly.
///
/// # Errors
/// [`Error::OutOfMemory`] if they do not fit.
fn plan_constellations(n: u32) -> Result<Vec<Constellation>, Error> {
    let what = || format!("the d4 plan of n = {n} (up to {} start constellations)", max_constellations(n));
    let bytes = (max_constellations(n) * std::mem::size_of::<Constellation>()) as u64;
    crate::memory::check(what, bytes)?;
    try_canonical_constellations(n)
        .map_err(|bytes| crate::memory::out_of_memory(what(), bytes, crate::memory::available()))
}

/// Returns the subproblems of `constellations` at `depth` and the placements made, their list
/// grown fallibly.
///
/// # Errors
/// [`Error::OutOfMemory`] if the list does not fit.
fn plan_subproblems(
    constellations: &[Constellation],
    n: u32,
    depth: u32,
) -> Result<(Vec<D4Subproblem>, u64), Error> {
    try_d4_subproblems_counting(constellations, n, depth).map_err(|bytes| {
        let what = format!("the d4 plan of n = {n} at split depth {depth} (its subproblem list)");
        crate::memory::out_of_memory(what, bytes, crate::memory::available())
    })
}

/// The D4 plan of an n×n board: subproblems with `split_depth` rows fixed.
#[derive(Clone, Debug)]
pub struct D4Plan {
    n: u32,
    depth: u32,
    constellations: Vec<Constellation>,
    subproblems: Vec<D4Subproblem>,
    prefix_nodes: u64,
    /// The instruction-set level of the searches.
    level: Level,
    /// Which search counts the boards (see [`D4Search::batched`]).
    search: D4Search,
    /// The free rows of a step of [`Plan::solve_in_steps`] ([`split::STEP_ROWS`]).
    step_rows: u32,
}

/// A board of the d4 search ready to count: a subproblem, or one step of it. Its next free row
/// `row` has the masks `cols`, `ld`, `rd` (its events applied); `event` indexes the first
/// event still ahead; `placed` holds the columns chosen in the free rows above `row`, top first.
#[derive(Clone, Copy, Debug)]
struct Piece<'a> {
    row: u32,
    cols: u64,
    ld: u64,
    rd: u64,
    event: u8,
    placed: &'a [u8],
}

impl D4Subproblem {
    fn piece(&self) -> Piece<'_> {
        Piece {
            row: self.row,
            cols: self.cols,
            ld: self.ld,
            rd: self.rd,
            event: self.event,
            placed: self.placed.cols(),
        }
    }
}

impl D4Plan {
    /// Returns the plan for an `n`×`n` board with the first `depth` rows fixed per subproblem
    /// (depth 1: the start constellations alone).
    ///
    /// n = 0 and n = 1 have no border of four lines: they are one subproblem each, the empty
    /// board (1 solution, no fundamental solution defined) and the single queen (1 solution, 1
    /// fundamental solution with an orbit of 1).
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::BadSplitDepth`] if `depth`
    /// is 0 or more than [`MAX_SPLIT_DEPTH`](crate::plan::MAX_SPLIT_DEPTH); [`Error::OutOfMemory`] if the start
    /// constellations or the subproblem list do not fit in the memory available (573 MiB of
    /// constellations are reserved at n = 63).
    pub fn new(n: u32, depth: u32) -> Result<D4Plan, Error> {
        check_n(n)?;
        split::check_depth(depth)?;
        D4Plan::with_depth(n, depth, plan_constellations(n)?)
    }

    /// Returns the plan with the split depth `split::auto_split_depth` picks for `threads`,
    /// and at least `LARGE_BOARD_SUBPROBLEMS` subproblems beyond the batched search's boards.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::TooManySubproblems`] if the
    /// depth picked would make more than `split::MAX_SUBPROBLEMS` (no board and thread count
    /// up to 4,096 does today: the most is 3.37 M, at n = 35); [`Error::OutOfMemory`] as for
    /// [`D4Plan::new`].
    pub fn auto(n: u32, threads: usize) -> Result<D4Plan, Error> {
        check_n(n)?;
        let constellations = plan_constellations(n)?;
        let target = split::target_subproblems(threads);
        let target = if n > BATCHED_MAX_N { target.max(LARGE_BOARD_SUBPROBLEMS) } else { target };
        // The depths are counted, not built (the lists of those past the target were large).
        let depth = split::split_depth_for(n, target, |d| {
            constellation::count_d4_subproblems(&constellations, n, d, split::MAX_SUBPROBLEMS)
        });
        D4Plan::with_depth(n, depth, constellations)
    }

    /// Returns the plan of `constellations` (those of the `n`×`n` board) at `depth`.
    ///
    /// # Errors
    /// [`Error::TooManySubproblems`], [`Error::OutOfMemory`] as for [`D4Plan::new`].
    fn with_depth(n: u32, depth: u32, constellations: Vec<Constellation>) -> Result<D4Plan, Error> {
        let (subproblems, prefix_nodes) = plan_subproblems(&constellations, n, depth)?;
        if subproblems.len() >= split::MAX_SUBPROBLEMS {
            return Err(Error::TooManySubproblems { n, depth });
        }
        let (level, search, step_rows) = (Level::best(), D4Search::Auto, split::STEP_ROWS);
        Ok(D4Plan { n, depth, constellations, subproblems, prefix_nodes, level, search, step_rows })
    }

    /// Returns this plan with its subproblems counted by `search` (see [`D4Search`]).
    pub fn with_search(self, search: D4Search) -> D4Plan {
        D4Plan { search, ..self }
    }

    /// Returns this plan with its searches run at the instruction-set `level` (the default is
    /// [`Level::best`]).
    pub fn with_level(self, level: Level) -> D4Plan {
        D4Plan { level, ..self }
    }

    /// Returns the canonical start constellations.
    pub fn constellations(&self) -> &[Constellation] {
        &self.constellations
    }

    /// Returns the subproblems, in their fixed order.
    pub fn subproblems(&self) -> &[D4Subproblem] {
        &self.subproblems
    }

    /// Returns `plan` as the d4 plan it is, or `None` if it is another algorithm's: for a
    /// device that counts d4 plans alone (a GPU, whose kernels search start constellations).
    ///
    /// # Examples
    /// ```
    /// use nqueens::{Algorithm, plan::{D4Plan, PlanSpec}};
    /// let d4 = PlanSpec { threads: 1, ..PlanSpec::new(Algorithm::D4, 8) }.build().unwrap();
    /// assert_eq!(D4Plan::of(d4.as_ref()).map(|p| p.subproblems().len()), Some(d4.len()));
    /// let mirror = PlanSpec { threads: 1, ..PlanSpec::new(Algorithm::Mirror, 8) }.build().unwrap();
    /// assert!(D4Plan::of(mirror.as_ref()).is_none());
    /// ```
    pub fn of(plan: &dyn Plan) -> Option<&D4Plan> {
        plan.as_any()?.downcast_ref()
    }

    fn small_board(&self) -> bool {
        self.n < 2
    }

    /// Returns this plan with steps of `rows` free rows instead of [`split::STEP_ROWS`] (for
    /// tests, which cannot wait for boards of 17 free rows; the counts are the same).
    #[cfg(test)]
    pub(crate) fn with_step_rows(self, rows: u32) -> D4Plan {
        D4Plan { step_rows: rows, ..self }
    }
}

impl D4Plan {
    /// Returns the weight of subproblem `index` from `paths` random paths ([`Plan::weight`];
    /// 1 if `paths` is 0).
    fn weight_with(&self, index: usize, paths: u32) -> f64 {
        if self.small_board() || paths == 0 {
            return 1.0;
        }
        let sub = &self.subproblems[index];
        let events = self.constellations[sub.constellation as usize].events();
        let full = full_mask(self.n);
        let free = |&(_, _, c, l, r): &(u8, u32, u64, u64, u64)| full & !(c | l | r);
        let place = |&(e, row, c, l, r): &(u8, u32, u64, u64, u64), b: u64| {
            let (ahead, row, l, r) = apply_events(&events[e as usize..], row + 1, (l | b) << 1, (r | b) >> 1);
            ((events.len() - ahead.len()) as u8, row, c | b, l, r)
        };
        let root = (sub.event, sub.row, sub.cols, sub.ld, sub.rd);
        weight::weight_of_tree(weight::tree_size(root, paths, index as u64, free, place))
    }
}

impl Sealed for D4Plan {
    fn prefix_nodes(&self) -> u128 {
        self.prefix_nodes as u128
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

impl Plan for D4Plan {
    fn level(&self) -> Level {
        self.level
    }

    fn algorithm(&self) -> crate::Algorithm {
        crate::Algorithm::D4
    }

    /// Room for every start constellation (`max_constellations`), reserved whole: 573 MiB at
    /// n = 63.
    fn search_bytes(&self, threads: usize) -> u64 {
        let _ = threads;
        let room = if self.n >= 2 { max_constellations(self.n) } else { 0 };
        (room as u64).saturating_mul(std::mem::size_of::<Constellation>() as u64)
    }

    fn subproblem_bytes(&self) -> usize {
        std::mem::size_of::<D4Subproblem>()
    }

    fn n(&self) -> u32 {
        self.n
    }

    fn len(&self) -> usize {
        if self.small_board() { 1 } else { self.subproblems.len() }
    }

    fn split_depth(&self) -> u32 {
        self.depth
    }

    fn solve(&self, index: usize, stats: bool) -> Tally {
        if self.small_board() {
            // n = 0: the empty board; n = 1: the single queen, an orbit of 1.
            let classes = Classes { orbit1: u128::from(self.n == 1), ..Classes::default() };
            return Tally { solutions: 1, classes, nodes: self.n as u128 };
        }
        let sub = &self.subproblems[index];
        let c = &self.constellations[sub.constellation as usize];
        if stats {
            self.count_piece::<true>(c, sub.piece())
        } else {
            self.count_piece::<false>(c, sub.piece())
        }
    }

    /// The estimated size of the subproblem's search tree below its fixed rows
    /// (`weight::tree_size` over the rows and events of its constellation with
    /// `weight::weight_paths` paths, seeded by the index) to the power
    /// `weight::WEIGHT_POWER`; 1 in plans too large for the paths.
    fn weight(&self, index: usize) -> f64 {
        self.weight_with(index, weight::weight_paths(self.n, self.subproblems.len()))
    }

    /// The same with `weight::WEIGHT_PATHS` paths however large the plan (1 below
    /// `weight::WEIGHTS_FROM`).
    fn sample_weight(&self, index: usize) -> f64 {
        self.weight_with(index, weight::weight_paths(self.n, 1))
    }

    fn stops_midway(&self) -> bool {
        true
    }

    /// The orbit of the subproblem's start constellation (8, 4 or 2); 1 for n < 2.
    fn multiple_of(&self, index: usize) -> u128 {
        if self.small_board() {
            return 1;
        }
        u128::from(self.constellations[self.subproblems[index].constellation as usize].weight)
    }

    fn impossible(&self, index: usize, tally: &Tally) -> Option<String> {
        impossible_tally(self, index, tally)
    }

    /// In steps of at most `split::STEP_ROWS` free rows, walked as the splitter walks
    /// (`constellation::d4_subproblems`: same look-ahead, same node counts); one step for
    /// subproblems with no more free rows.
    fn solve_in_steps(
        &self,
        index: usize,
        stats: bool,
        step: &mut dyn FnMut(f64) -> ControlFlow<()>,
    ) -> Option<Tally> {
        if self.small_board() {
            return Some(self.solve(index, stats));
        }
        let sub = &self.subproblems[index];
        if (full_mask(self.n) & !sub.cols).count_ones() <= self.step_rows {
            return Some(self.solve(index, stats));
        }
        if stats { self.steps::<true>(sub, step) } else { self.steps::<false>(sub, step) }
    }
}

/// The d4 boards of the step walk ([`split::StepWalk`]): a constellation's boards, whose border
/// queens' rows are stepped over on the way down, each step counted into a running sum (with
/// its nodes when `NODES` is true).
struct D4Steps<'p, 's, const NODES: bool> {
    plan: &'p D4Plan,
    c: &'p Constellation,
    /// The columns chosen in the free rows above the current board, top first.
    placed: [u8; 64],
    total: Tally,
    step: &'s mut dyn FnMut(f64) -> ControlFlow<()>,
}

/// A board of the d4 step walk: its next row `row` (its events not yet applied until settled),
/// the masks, the first event still ahead, and how many columns of `placed` are its own.
#[derive(Clone, Copy)]
struct D4StepBoard {
    row: u32,
    cols: u64,
    ld: u64,
    rd: u64,
    event: u8,
    len: usize,
}

impl D4Plan {
    /// Returns the counts of `sub` solved in steps, or `None` if `step` broke.
    fn steps<const NODES: bool>(
        &self,
        sub: &D4Subproblem,
        step: &mut dyn FnMut(f64) -> ControlFlow<()>,
    ) -> Option<Tally> {
        let c = &self.constellations[sub.constellation as usize];
        let mut placed = [0u8; 64];
        let fixed = sub.placed.cols();
        placed[..fixed.len()].copy_from_slice(fixed);
        let tree = D4Steps::<NODES> { plan: self, c, placed, total: Tally::default(), step };
        let mut walk = split::StepWalk::new(tree, self.n, self.step_rows);
        let piece = sub.piece();
        let root = D4StepBoard {
            row: piece.row,
            cols: piece.cols,
            ld: piece.ld,
            rd: piece.rd,
            event: piece.event,
            len: fixed.len(),
        };
        let mut nodes = 0u64;
        let flow = walk.walk::<NODES>(root, 1.0, &mut nodes);
        let mut total = walk.tree.total;
        total.nodes += nodes as u128;
        flow.is_continue().then_some(total)
    }
}

impl<const NODES: bool> split::StepTree for D4Steps<'_, '_, NODES> {
    type Board = D4StepBoard;

    /// Applies the events of the rows ahead that hold border queens, then the searches'
    /// look-ahead, as the splitter applies it, so node counts do not change.
    #[inline(always)]
    fn settle(&self, b: D4StepBoard, rest: u64) -> Option<D4StepBoard> {
        let all = self.c.events();
        let (ahead, row, ld, rd) = apply_events(&all[b.event as usize..], b.row, b.ld, b.rd);
        let event = (all.len() - ahead.len()) as u8;
        (!search::dropped(ahead, row, rest, ld, rd)).then_some(D4StepBoard { row, ld, rd, event, ..b })
    }

    #[inline(always)]
    fn masks(b: &D4StepBoard) -> (u64, u64, u64) {
        (b.cols, b.ld, b.rd)
    }

    #[inline(always)]
    fn child(&mut self, b: &D4StepBoard, bit: u64) -> D4StepBoard {
        self.placed[b.len] = bit.trailing_zeros() as u8;
        D4StepBoard {
            row: b.row + 1,
            cols: b.cols | bit,
            ld: (b.ld | bit) << 1,
            rd: (b.rd | bit) >> 1,
            event: b.event,
            len: b.len + 1,
        }
    }

    /// Counts the board and tells `step` its share of the subproblem.
    fn visit(&mut self, b: D4StepBoard, share: f64) -> ControlFlow<()> {
        let placed = &self.placed[..b.len];
        let piece = Piece { row: b.row, cols: b.cols, ld: b.ld, rd: b.rd, event: b.event, placed };
        self.total += self.plan.count_piece::<NODES>(self.c, piece);
        (self.step)(share)
    }

    fn poll(&mut self) -> ControlFlow<()> {
        (self.step)(0.0)
    }
}

impl D4Plan {
    /// Returns the completions of `sub` (of the constellation `c`, without a symmetry of its
    /// own), adding placements to `nodes` when `NODES` is true: in the batched search
    /// ([`batched`]) if `batched` and n ≤ its maximum, else in the recursive search
    /// ([`count_with_events`]); both at the plan's level. All give the same counts and nodes.
    fn completions<const NODES: bool>(
        &self,
        c: &Constellation,
        sub: Piece<'_>,
        batched: bool,
        nodes: &mut u64,
    ) -> u64 {
        if batched && self.n <= BATCHED_MAX_N {
            let mut placed = [(0u32, 0u32); 64];
            let free_rows = (1..sub.row).filter(|&r| !c.is_preplaced(r, self.n));
            let mut len = 0;
            for (row, &col) in free_rows.zip(sub.placed) {
                placed[len] = (row, u32::from(col));
                len += 1;
            }
            let board = batched::Board::new(c, self.n, &placed[..len], sub.row);
            return batched::count_with::<NODES>(self.level, &board, nodes);
        }
        let events = &c.events()[sub.event as usize..];
        count_with_events::<NODES>(
            self.level,
            full_mask(self.n),
            events,
            sub.row,
            sub.cols,
            sub.ld,
            sub.rd,
            nodes,
        )
    }

    /// Returns the weighted counts of `sub` (a board of the constellation `c`), counting nodes
    /// when `NODES` is true.
    fn count_piece<const NODES: bool>(&self, c: &Constellation, sub: Piece<'_>) -> Tally {
        let events = &c.events()[sub.event as usize..];
        let weight = c.weight as u128;
        if c.stabilizer == 0 {
            // No symmetry of its own: every completion is one class of 8 boards.
            let mut nodes = 0u64;
            let batched = self.search.batched(self.level);
            let completions = self.completions::<NODES>(c, sub, batched, &mut nodes);
            let completions = completions as u128;
            return Tally {
                solutions: weight * completions,
                classes: Classes { orbit8: completions, ..Classes::default() },
                nodes: nodes as u128,
            };
        }
        // A symmetric constellation: rebuild the fixed rows and classify every completion.
        let mut board = [0u8; 64];
        c.write_board(&mut board, self.n);
        let mut placed = sub.placed.iter();
        for row in 1..sub.row {
            if !c.is_preplaced(row, self.n) {
                board[row as usize] = *placed.next().expect("one column per free row");
            }
        }
        let (stab, len) = c.stabilizer_list();
        let mut out = Classified::default();
        let board = &mut board[..self.n as usize];
        classify_with_events::<NODES>(
            board,
            &stab[..len],
            events,
            sub.row,
            sub.cols,
            sub.ld,
            sub.rd,
            &mut out,
        );
        Tally { solutions: weight * out.solutions as u128, classes: out.classes, nodes: out.nodes as u128 }
    }
}

/// Returns why `t` cannot be the counts of subproblem `index` of `plan` (see
/// [`Plan::impossible`]), or `None`. With w the orbit of its start constellation: the solutions
/// are w × its completions; each class it records is one of those completions (the canonical
/// board of its orbit under the constellation's stabiliser), so there are at most that many,
/// and a class's own stabiliser lies in the constellation's, so its orbit is at least w (w = 8:
/// every completion is one class of 8); an orbit of 1 is n = 1 alone, and one of 2 (symmetric
/// under the 90° rotation) needs n ≡ 0 or 1 (mod 4). n = 0 and 1 are one known subproblem.
fn impossible_tally(plan: &D4Plan, index: usize, t: &Tally) -> Option<String> {
    let c = &t.classes;
    let show = |c: &Classes| format!("{}/{}/{}/{}", c.orbit8, c.orbit4, c.orbit2, c.orbit1);
    if plan.small_board() {
        let want = plan.solve(index, false);
        return ((t.solutions, t.classes) != (want.solutions, want.classes)).then(|| {
            format!(
                "it says {} solution(s) and classes 8/4/2/1 {}, but the board of n = {} has {} and {}",
                t.solutions,
                show(c),
                plan.n,
                want.solutions,
                show(&want.classes)
            )
        });
    }
    let w = plan.multiple_of(index);
    if !t.solutions.is_multiple_of(w) {
        return Some(format!(
            "its {} solutions are not a multiple of {w}, the orbit of its start constellation",
            t.solutions
        ));
    }
    let completions = t.solutions / w;
    let why = if c.orbit1 != 0 {
        "only n = 1 has a class of 1 board"
    } else if c.orbit2 != 0 && plan.n % 4 >= 2 {
        "no board of n ≡ 2 or 3 (mod 4) is symmetric under the 90° rotation"
    } else if (c.orbit2 != 0 && w > 2) || (c.orbit4 != 0 && w > 4) {
        "a class's orbit cannot be smaller than the orbit of its start constellation"
    } else if w == 8 && c.orbit8 != completions {
        "a start constellation without symmetry counts each of its completions as one class of 8"
    } else if [c.orbit8, c.orbit4, c.orbit2]
        .iter()
        .try_fold(0u128, |a, &b| a.checked_add(b))
        .is_none_or(|k| k > completions)
    {
        "it records more classes than it has completions"
    } else {
        return None;
    };
    Some(format!(
        "its classes 8/4/2/1 {} cannot be those of {} solutions ({completions} completions of a constellation of orbit {w}): {why}",
        show(c),
        t.solutions
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oeis::{A000170, A002562, CLASSES};
    use crate::reference::backtrack_each;
    use crate::symmetry::{is_canonical, orbit_size};

    fn total(plan: &D4Plan) -> Tally {
        (0..plan.len()).map(|i| plan.solve(i, false)).fold(Tally::default(), |a, b| a + b)
    }

    #[test]
    fn sequential_plan_matches_the_oeis_tables() {
        for n in 0..=12 {
            let t = total(&D4Plan::new(n, 1).unwrap());
            assert_eq!(Some(t.solutions), A000170.get(n), "n = {n}");
            if n >= 1 {
                assert_eq!(Some(t.classes.total()), A002562.get(n), "n = {n}");
                let [c8, c4, c2] = CLASSES[n as usize - 1].1;
                let c1 = (n == 1) as u128;
                assert_eq!(t.classes, Classes { orbit1: c1, orbit2: c2, orbit4: c4, orbit8: c8 }, "n = {n}");
            }
        }
    }

    #[test]
    fn every_split_depth_gives_the_same_counts() {
        for n in 2..=11 {
            let want = total(&D4Plan::new(n, 1).unwrap());
            for depth in 2..=n.min(16) {
                let got = total(&D4Plan::new(n, depth).unwrap());
                assert_eq!(
                    (got.solutions, got.classes),
                    (want.solutions, want.classes),
                    "n = {n} depth = {depth}"
                );
            }
        }
    }

    #[test]
    fn classes_equal_a_brute_force_classification() {
        // Independent of the constellations: every solution of the plain backtracker, its orbit
        // size and canonical form from src/symmetry.rs.
        for n in 1..=10 {
            let mut want = Classes::default();
            backtrack_each(n, |q| {
                let b: Vec<u8> = q.iter().map(|&c| c as u8).collect();
                if is_canonical(&b) {
                    want.add(orbit_size(&b).unwrap() as u32, 1).unwrap();
                }
            });
            let t = total(&D4Plan::new(n, 2).unwrap());
            assert_eq!(t.classes, want, "n = {n}");
        }
    }

    #[test]
    fn batched_and_recursive_searches_agree_on_counts_and_nodes() {
        for n in 4..=14 {
            for depth in [1, 3, 6] {
                let plan = D4Plan::new(n, depth).unwrap();
                // One copy of the plan per level, made once (a copy per subproblem made the test
                // quadratic: minutes without LTO, whose view of the allocator elided the copies).
                let portable = D4Plan { level: Level::portable(), ..plan.clone() };
                let at_levels: Vec<D4Plan> =
                    Level::available().into_iter().map(|level| D4Plan { level, ..plan.clone() }).collect();
                for sub in plan.subproblems() {
                    let c = &plan.constellations()[sub.constellation as usize];
                    if c.stabilizer != 0 {
                        continue;
                    }
                    let mut want_nodes = 0;
                    let want = portable.completions::<true>(c, sub.piece(), false, &mut want_nodes);
                    for plan in &at_levels {
                        let level = plan.level;
                        for batched in [false, true] {
                            let mut nodes = 0;
                            let got = plan.completions::<true>(c, sub.piece(), batched, &mut nodes);
                            assert_eq!(
                                (got, nodes),
                                (want, want_nodes),
                                "{level} batched {batched} n = {n}, depth = {depth}, {sub:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn boards_beyond_the_batched_search_are_split_finer() {
        let plan = D4Plan::auto(BATCHED_MAX_N + 1, 2).unwrap();
        assert!(plan.len() >= LARGE_BOARD_SUBPROBLEMS, "{}", plan.len());
        assert_eq!(plan.split_depth(), 2);
        assert_eq!(D4Plan::auto(BATCHED_MAX_N, 2).unwrap().split_depth(), 1);
    }

    #[test]
    fn steps_give_the_counts_and_nodes_of_one_solve() {
        // n = 13 at depth 1 leaves 9 to 11 free rows: with steps of 6 free rows every
        // subproblem is solved in steps, the symmetric constellations' too, in the batched
        // search where this processor has one and in the recursive search.
        for search in [D4Search::Auto, D4Search::Recursive] {
            let plan = D4Plan::new(13, 1).unwrap().with_search(search).with_step_rows(6);
            let symmetric = plan
                .subproblems()
                .iter()
                .filter(|s| plan.constellations()[s.constellation as usize].stabilizer != 0)
                .count();
            assert!(symmetric > 0);
            for index in 0..plan.len() {
                let mut shares = 0.0;
                let got = plan.solve_in_steps(index, true, &mut |f| {
                    shares += f;
                    ControlFlow::Continue(())
                });
                assert_eq!(got, Some(plan.solve(index, true)), "{search:?} subproblem {index}");
                assert!(shares <= 1.0 + 1e-9, "{shares}");
            }
            assert_eq!(plan.solve_in_steps(0, false, &mut |_| ControlFlow::Break(())), None);
        }
    }

    /// The weights order subproblems as their search trees do: n = 17 at depth 2, every 37th
    /// subproblem, weight against nodes searched.
    #[test]
    fn weights_follow_the_search_trees() {
        let plan = D4Plan::new(17, 2).unwrap();
        let pairs: Vec<(f64, f64)> =
            (0..plan.len()).step_by(37).map(|i| (plan.weight(i), plan.solve(i, true).nodes as f64)).collect();
        let rho = crate::algo::weight::rank_correlation(&pairs);
        assert!(pairs.len() > 100 && rho > 0.7, "{} subproblems, rank correlation {rho}", pairs.len());
        assert_eq!(D4Plan::new(16, 1).unwrap().weight(5), 1.0);
    }

    #[test]
    fn node_statistics_do_not_change_counts() {
        let plan = D4Plan::new(11, 2).unwrap();
        let with: Tally = (0..plan.len()).map(|i| plan.solve(i, true)).fold(Tally::default(), |a, b| a + b);
        let without = total(&plan);
        assert_eq!((with.solutions, with.classes), (without.solutions, without.classes));
        assert!(with.nodes > 0);
        assert_eq!(without.nodes, 0);
    }
}
