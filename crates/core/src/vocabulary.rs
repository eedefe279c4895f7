//! The vocabulary every layer of the library shares, below the algorithms and the runner: the
//! exact counts of a subproblem or a board ([`Tally`], [`Classes`]), the [`Algorithm`] names, and
//! the [`Plan`] trait, the list of independent subproblems that every algorithm builds
//! ([`crate::algo`]) and the runner ([`crate::parallel`]) solves. It imports only the
//! instruction-set [`Level`] a plan runs at, the row [`Prefix`] of a subproblem and the name
//! parser of [`crate::error`].

use std::fmt;
use std::ops::{Add, AddAssign, ControlFlow};
use std::str::FromStr;

use crate::Error;
use crate::arch::Level;
use crate::split::{Prefix, Subproblem};

/// The search algorithm behind a count. Serialized as its [`Algorithm::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Algorithm {
    /// Mirror halving: the row-0 queen in the left half, counted twice (see `mirror`). Visits
    /// half of the search tree. Gives solutions (A000170) only.
    Mirror,
    /// Full D4 symmetry by start constellations (see `d4::constellation`): one border
    /// configuration per symmetry class, weighted by its orbit. Gives solutions (A000170),
    /// fundamental solutions (A002562) and their orbit sizes.
    D4,
    /// Quadrant join (see `join`): joins half-boards built from quarter-board placements and
    /// counts disjoint pairs bit-sliced; no backtracking over whole boards. Gives solutions,
    /// fundamental solutions and classes (by Burnside). Boards below `join::MIN_N` fall back
    /// to `mirror`.
    Join,
    /// The fastest for each n (the default): [`Algorithm::Join`] from
    /// [`Algorithm::JOIN_FROM`] while its quarter table fits in memory, [`Algorithm::D4`]
    /// otherwise. See [`Algorithm::resolve`].
    #[default]
    Auto,
}

impl Algorithm {
    /// Every algorithm, in the order `--help` lists them.
    pub const ALL: [Algorithm; 3] = [Algorithm::D4, Algorithm::Mirror, Algorithm::Join];

    /// The smallest n for which [`Algorithm::Auto`] picks the join: measured side by side with
    /// d4 on one thread (results/2026-11-29-vm/README.md).
    pub const JOIN_FROM: u32 = 8;

    /// Returns true if and only if the algorithm's subproblem tallies carry the fundamental
    /// solutions ([`Tally::classes`]): d4 does; the join gets them for a whole count by
    /// Burnside ([`Plan::fundamental`]), so its tallies do not.
    pub fn classifies(self) -> bool {
        matches!(self, Algorithm::D4)
    }

    /// Returns the algorithm's name as the CLI and the output formats spell it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Mirror => "mirror",
            Algorithm::D4 => "d4",
            Algorithm::Join => "join",
            Algorithm::Auto => "auto",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let every = [Algorithm::Auto, Algorithm::D4, Algorithm::Mirror, Algorithm::Join];
        crate::error::parse_name(s, &every, Algorithm::name, "algorithm")
    }
}

/// A list of independent subproblems that together count one board: what the parallel runner
/// (`crate::parallel::run`) consumes, whatever the algorithm.
///
/// # Panics
/// Every method that takes a subproblem `index` ([`Plan::solve`], [`Plan::solve_in_steps`],
/// [`Plan::prepare`], [`Plan::weight`], [`Plan::sample_weight`], [`Plan::multiple_of`],
/// [`Plan::impossible`], [`Plan::prefix`]) panics if it is not below [`Plan::len`], as a slice's
/// index does (the defaults that ignore `index` do not): the runner and the shard planner hand
/// out only indices of the plan, and [`crate::Counter::run`] refuses a list that names another.
///
/// Sealed: the crate's three plans (mirror, d4, join), which
/// [`PlanSpec::build`](crate::plan::PlanSpec::build) builds, are the only ones; a caller uses
/// plans, it does not write them, so that a method can be added without breaking anyone. The
/// sealed part holds what other crates have no use for, out of these docs: a plan's prefix
/// nodes, and the downcast behind [`D4Plan::of`](crate::plan::D4Plan::of), which a device that
/// counts d4 plans alone uses.
pub trait Plan: Sync + Sealed {
    /// Returns the board side n.
    fn n(&self) -> u32;
    /// Returns the number of subproblems.
    fn len(&self) -> usize;
    /// Returns true if and only if the plan has no subproblem.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Returns the number of rows each subproblem fixes (at least; symmetry seeds may fix more).
    fn split_depth(&self) -> u32;
    /// Returns the weighted counts of subproblem `index` (`0..len()`); counts nodes too when
    /// `stats` is true.
    ///
    /// # Panics
    /// If `index` is not below [`Plan::len`], as a slice's index does (every plan of the crate
    /// panics so; the runner and the shard planner hand out only indices of the plan).
    fn solve(&self, index: usize, stats: bool) -> Tally;
    /// Returns the algorithm that really counts this plan (a join plan of a board below
    /// `join::MIN_N` is a mirror plan).
    fn algorithm(&self) -> Algorithm;
    /// Returns the instruction-set level the plan's searches run at.
    fn level(&self) -> Level;
    /// Returns the fundamental solutions of the whole board by orbit size (OEIS A002562 is
    /// their total), given `total`, the sum of every subproblem's tally: the one way to them,
    /// for a count, a resumed journal and a merge of shards alike. By default the tallies' own
    /// classes where the algorithm classifies ([`Algorithm::classifies`]: d4) and n ≥ 1
    /// (A002562 starts at n = 1), else `None` (mirror); the join's plan gives them by
    /// Burnside's lemma over its own quarter table. `None` also where `total` cannot be the
    /// board's whole count (not a whole number of classes by Burnside).
    fn fundamental(&self, total: &Tally) -> Option<Classes> {
        (self.algorithm().classifies() && self.n() >= 1).then_some(total.classes)
    }
    /// Returns a number that the solutions of subproblem `index` are always a multiple of: the
    /// weight every completion of it stands for (2 for mirror halving from n = 2; 8, 4 or 2, the
    /// orbit of its start constellation, for d4; for the join, the unit's row-set and
    /// long-diagonal weights). 1 by default. A shard result or journal line whose count is not
    /// a multiple was forged or damaged.
    fn multiple_of(&self, index: usize) -> u128 {
        let _ = index;
        1
    }
    /// Returns why `tally` cannot be the counts of subproblem `index` of this plan, or `None`:
    /// the cheap invariants of one subproblem, checked on every shard subtotal and journal line
    /// before it is added ([`Plan::multiple_of`]; no symmetry classes for an algorithm that
    /// does not classify; for d4 the orbit sizes its start constellation allows). `None` does
    /// not mean the count is right: only counting it again tells.
    fn impossible(&self, index: usize, tally: &Tally) -> Option<String> {
        let m = self.multiple_of(index);
        if !tally.solutions.is_multiple_of(m) {
            return Some(format!(
                "its {} solutions are not a multiple of {m}, the weight of every solution it counts",
                tally.solutions
            ));
        }
        (!self.algorithm().classifies() && tally.classes != Classes::default()).then(|| {
            format!("it records symmetry classes, which the {} algorithm does not count", self.algorithm())
        })
    }
    /// Returns the queens subproblem `index` fixes, as the columns of rows 0, 1, …, for plans
    /// whose subproblems are row prefixes; `None` for plans whose subproblems are not (the
    /// breakdown then leaves the prefix empty and the shard planner counts such a subproblem's
    /// cost as 1).
    fn prefix(&self, index: usize) -> Option<Prefix> {
        let _ = index;
        None
    }
    /// Returns the estimated cost of subproblem `index` (`0..len()`) in units of the plan's own
    /// choosing (the same for every subproblem of one plan), positive and finite; 1 by default.
    /// The runner weighs progress by it (so that the ETA of a run whose subproblems differ
    /// 100-fold holds), never the plan itself: which subproblems exist and their indices do not
    /// depend on it. A pure function of the plan and `index`, cheap next to [`Plan::solve`].
    fn weight(&self, index: usize) -> f64 {
        let _ = index;
        1.0
    }
    /// Returns [`Plan::weight`]'s estimate for subproblem `index` computed whatever the plan's
    /// size, for a sample of its subproblems: where weighing every subproblem would cost too much
    /// (the join from n = 21, mirror and d4 plans past a few hundred thousand subproblems),
    /// [`Plan::weight`] is 1 throughout, while a few thousand subproblems can still be weighed
    /// (the plan command's stratified sample). Costs tens of microseconds (the join from n = 28,
    /// whose plan holds no list lengths: about 0.1 s, the unit's row sets walked); the default
    /// is [`Plan::weight`].
    fn sample_weight(&self, index: usize) -> f64 {
        self.weight(index)
    }
    /// Returns the bytes this plan's searches need on `threads` worker threads beyond its own
    /// subproblem list: the join's quarter table and every thread's working buffers, d4's room
    /// for every start constellation (reserved whole); 0 by default (mirror needs none). An
    /// estimate for a batch system's memory request, rounded up.
    fn search_bytes(&self, threads: usize) -> u64 {
        let _ = threads;
        0
    }
    /// Returns the bytes of one entry of the plan's subproblem list (a row prefix by default).
    fn subproblem_bytes(&self) -> usize {
        std::mem::size_of::<Subproblem>()
    }
    /// Returns true if and only if [`Plan::solve_in_steps`] can stop a subproblem midway, that
    /// is, within about a second (mirror and d4 at any n; the join's matcher parts, after a
    /// unit's setup: under a second to n = 27, 5–40 s at n = 28); false where a running
    /// subproblem always runs to its end (the default).
    fn stops_midway(&self) -> bool {
        false
    }
    /// Returns true if and only if one subproblem may take minutes or more (the join's from
    /// n = 28: 0.3 to 1,572 CPU s measured, results/2026-12-02-q28/), so that, unless it
    /// [`Plan::stops_midway`], a sample of seconds cannot count even one. False by default.
    fn long_subproblems(&self) -> bool {
        false
    }
    /// Readies this thread to solve subproblem `index` (`0..len()`), so that a solve timed
    /// next measures the subproblem alone: a join plan whose units load their own quarter lists
    /// (`crate::algo::join::Quarters::RowSets`) loads them, which a count with the whole
    /// table never does (the sample of `nqueens plan` at n = 26–27). Nothing by default.
    ///
    /// # Panics
    /// If `index` is not below [`Plan::len`], as [`Plan::solve`].
    fn prepare(&self, index: usize) {
        let _ = index;
    }
    /// Returns what [`Plan::solve`] returns, solving in steps: calls `step` with the fraction of
    /// the subproblem's work each finished step stands for (an estimate; the fractions add up
    /// to at most 1, and 0 means "no new step, may I go on?"), at least once a second or so
    /// where [`Plan::stops_midway`] is true, and returns `None` as soon as `step` returns
    /// [`ControlFlow::Break`] (the subproblem's counts are then lost: it must be solved again).
    /// The default solves in one step, without calling `step`.
    fn solve_in_steps(
        &self,
        index: usize,
        stats: bool,
        step: &mut dyn FnMut(f64) -> ControlFlow<()>,
    ) -> Option<Tally> {
        let _ = step;
        Some(self.solve(index, stats))
    }
    /// Returns true if and only if [`Plan::solve_share`] counts a random share of a subproblem
    /// (false by default: no plan of the crate does yet). A sample that cannot count a long
    /// subproblem whole then counts a random share of it, which is unbiased for its time and its
    /// solutions both, instead of stopping it midway ([`Plan::solve_in_steps`]: its first
    /// steps, no solutions).
    fn counts_shares(&self) -> bool {
        false
    }
    /// Returns the counts of a random share of subproblem `index` (`0..len()`), for a sample
    /// that cannot count it whole: each independent piece of its work (pieces whose costs and
    /// solutions add up to the subproblem's, besides work that every count of it does whole)
    /// is counted with probability `share` (in (0, 1]) overall, drawn independently by a hash
    /// of (`seed`, piece) and not by position (the join draws its codes, then windows of its
    /// tasks among them). `weight(w)` is called where the weight of the CPU time from then on
    /// changes to `w`: what a count of the whole subproblem spends in the work from there to
    /// the next change over what this one spends, in expectation (1 / `share` as a counted
    /// piece begins, 1 for work every count does whole; the time before the first call weighs
    /// 1). So the pieces' solutions over `share` are unbiased for the subproblem's, and the
    /// sum of each stretch of time times its weight for its time. The tally is that of the
    /// pieces counted, weights applied, not scaled. `None` where the plan cannot
    /// ([`Plan::counts_shares`] is false: the default).
    ///
    /// # Panics
    /// If `index` is not below [`Plan::len`], as [`Plan::solve`].
    fn solve_share(&self, index: usize, share: f64, seed: u64, weight: &mut dyn FnMut(f64)) -> Option<Tally> {
        let _ = (index, share, seed, weight);
        None
    }
}

/// The part of [`Plan`] that other crates have no use for, which also seals it: a public trait
/// of a private module, which no other crate can name, so no other crate implements [`Plan`].
/// (With the `internals` feature it is `nqueens::plan::Sealed`, for the test doubles of the
/// runs crate.)
pub trait Sealed {
    /// Returns the queen placements made while building the subproblems (the prefix tree), so
    /// that with the nodes of every subproblem they add up to the nodes of the whole search,
    /// whatever the split depth. 0 by default.
    fn prefix_nodes(&self) -> u128 {
        0
    }
    /// Returns the plan itself where a device may count it as its concrete type
    /// ([`crate::plan::D4Plan::of`]); `None` by default.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// The exact counts of one subproblem or of a sum of them.
///
/// `classes` holds the fundamental solutions (symmetry classes under D4) by orbit size, for
/// algorithms that classify solutions per subproblem; zero otherwise.
/// `nodes` is the number of queen placements the search made, when statistics were asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Solutions of the whole board that the counted subproblems stand for (weights applied).
    pub solutions: u128,
    /// Fundamental solutions by orbit size 1, 2, 4, 8.
    pub classes: Classes,
    /// Queen placements made by the search (search-tree nodes below the subproblems' prefixes).
    pub nodes: u128,
}

impl Tally {
    /// Returns the sum of `self` and `rhs`, or `None` if any count overflows 128 bits (a forged
    /// or damaged shard result or journal line; no real count comes near).
    pub fn checked_add(&self, rhs: &Tally) -> Option<Tally> {
        Some(Tally {
            solutions: self.solutions.checked_add(rhs.solutions)?,
            classes: self.classes.checked_add(&rhs.classes)?,
            nodes: self.nodes.checked_add(rhs.nodes)?,
        })
    }
}

/// The sum of two tallies, count by count.
///
/// # Panics
/// If a count overflows 128 bits, in every build (an unchecked sum wrapped to zero in release
/// builds); [`Tally::checked_add`] returns `None` instead, for counts read from files.
impl Add for Tally {
    type Output = Tally;

    fn add(mut self, rhs: Tally) -> Tally {
        self += rhs;
        self
    }
}

/// Adds a tally, count by count.
///
/// # Panics
/// As [`Tally`]'s `+`: if a count overflows 128 bits.
impl AddAssign for Tally {
    fn add_assign(&mut self, rhs: Tally) {
        *self = self.checked_add(&rhs).expect("a tally overflowed 128 bits: use Tally::checked_add");
    }
}

/// The fundamental solutions of a board by the number of boards in their D4 orbit (the 8
/// rotations and reflections of the square): solutions = 8·orbit8 + 4·orbit4 + 2·orbit2 +
/// orbit1 and fundamental solutions = orbit8 + orbit4 + orbit2 + orbit1. Only n = 1 has an orbit
/// of 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Classes {
    /// Symmetry classes of 8 boards (no symmetry).
    #[cfg_attr(feature = "serde", serde(rename = "8"))]
    pub orbit8: u128,
    /// Symmetry classes of 4 boards (symmetric under the 180° rotation only).
    #[cfg_attr(feature = "serde", serde(rename = "4"))]
    pub orbit4: u128,
    /// Symmetry classes of 2 boards (symmetric under the 90° rotation).
    #[cfg_attr(feature = "serde", serde(rename = "2"))]
    pub orbit2: u128,
    /// Symmetry classes of 1 board (n = 1 alone).
    #[cfg_attr(feature = "serde", serde(rename = "1"))]
    pub orbit1: u128,
}

impl Classes {
    /// Returns the number of fundamental solutions (symmetry classes), OEIS A002562.
    ///
    /// # Panics
    /// If the sum overflows 128 bits (never for real counts: see [`Classes::checked_total`]).
    pub fn total(&self) -> u128 {
        self.checked_total().expect("the symmetry classes overflow 128 bits: use Classes::checked_total")
    }

    /// Returns orbit8 + orbit4 + orbit2 + orbit1 as [`Classes::total`] does, or `None` if it
    /// overflows 128 bits.
    pub fn checked_total(&self) -> Option<u128> {
        self.orbit8.checked_add(self.orbit4)?.checked_add(self.orbit2)?.checked_add(self.orbit1)
    }

    /// Returns the number of solutions the classes stand for: 8·orbit8 + 4·orbit4 + 2·orbit2 +
    /// orbit1 (OEIS A000170).
    ///
    /// # Panics
    /// If the sum overflows 128 bits, in every build (unchecked, it wrapped in release builds);
    /// [`Classes::checked_solutions`] returns `None` instead, for counts read from files.
    pub fn solutions(&self) -> u128 {
        self.checked_solutions()
            .expect("the symmetry classes overflow 128 bits: use Classes::checked_solutions")
    }

    /// Returns 8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 as [`Classes::solutions`] does, or `None`
    /// if it overflows 128 bits.
    pub fn checked_solutions(&self) -> Option<u128> {
        self.orbit8
            .checked_mul(8)?
            .checked_add(self.orbit4.checked_mul(4)?)?
            .checked_add(self.orbit2.checked_mul(2)?)?
            .checked_add(self.orbit1)
    }

    /// Returns the sum of `self` and `rhs` orbit by orbit, or `None` if one overflows 128 bits.
    pub fn checked_add(&self, rhs: &Classes) -> Option<Classes> {
        Some(Classes {
            orbit8: self.orbit8.checked_add(rhs.orbit8)?,
            orbit4: self.orbit4.checked_add(rhs.orbit4)?,
            orbit2: self.orbit2.checked_add(rhs.orbit2)?,
            orbit1: self.orbit1.checked_add(rhs.orbit1)?,
        })
    }

    /// Adds `count` symmetry classes whose orbit has `boards` boards; on an error `self` is
    /// unchanged.
    ///
    /// # Errors
    /// [`Error::BadOrbit`] if `boards` is not 1, 2, 4 or 8 (the orbit sizes under D4);
    /// [`Error::Overflow`] if the orbit's count would overflow 128 bits (unchecked,
    /// `add(8, u128::MAX)` then `add(8, 1)` wrapped to zero).
    pub fn add(&mut self, boards: u32, count: u128) -> Result<(), Error> {
        let (orbit, what) = match boards {
            8 => (&mut self.orbit8, "the symmetry classes of orbit 8"),
            4 => (&mut self.orbit4, "the symmetry classes of orbit 4"),
            2 => (&mut self.orbit2, "the symmetry classes of orbit 2"),
            1 => (&mut self.orbit1, "the symmetry classes of orbit 1"),
            _ => return Err(Error::BadOrbit { boards }),
        };
        *orbit = orbit.checked_add(count).ok_or(Error::Overflow { what })?;
        Ok(())
    }

    /// Adds one class of an orbit of `boards` boards, 1, 2, 4 or 8 (any other adds nothing and
    /// fails a debug assertion): the d4 search's count of one canonical board, which cannot
    /// come near 2^128. Unchecked, so that the search pays no more than before.
    #[inline]
    pub(crate) fn add_one(&mut self, boards: u32) {
        match boards {
            8 => self.orbit8 += 1,
            4 => self.orbit4 += 1,
            2 => self.orbit2 += 1,
            1 => self.orbit1 += 1,
            _ => debug_assert!(false, "an orbit under D4 has 1, 2, 4 or 8 boards, not {boards}"),
        }
    }
}

/// Adds symmetry classes orbit by orbit.
///
/// # Panics
/// If an orbit's count overflows 128 bits, in every build; [`Classes::checked_add`] returns
/// `None` instead.
impl AddAssign for Classes {
    fn add_assign(&mut self, rhs: Classes) {
        *self =
            self.checked_add(&rhs).expect("the symmetry classes overflow 128 bits: use Classes::checked_add");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32, finding 2: `Classes::add(8, u128::MAX)` then `add(8, 1)` wrapped to zeros, and
    /// `solutions()` wrapped too; every sum is checked.
    #[test]
    fn class_sums_are_checked() {
        let mut c = Classes::default();
        assert_eq!(c.add(8, u128::MAX), Ok(()));
        assert_eq!(c.add(8, 1), Err(Error::Overflow { what: "the symmetry classes of orbit 8" }));
        assert_eq!(c.orbit8, u128::MAX, "unchanged by the refused add");
        assert_eq!(c.add(3, 1), Err(Error::BadOrbit { boards: 3 }));
        assert_eq!(
            Error::BadOrbit { boards: 3 }.to_string(),
            "an orbit of 3 boards is impossible: an orbit under D4 has 1, 2, 4 or 8 boards"
        );
        assert_eq!((c.checked_solutions(), c.checked_total()), (None, Some(u128::MAX)));
        let mut d = Classes::default();
        d.add(8, 11).unwrap();
        d.add(4, 1).unwrap();
        assert_eq!((d.solutions(), d.total()), (92, 12));
        let big = Classes { orbit1: u128::MAX, orbit2: 1, ..Classes::default() };
        assert_eq!((big.checked_total(), big.checked_add(&Classes::default())), (None, Some(big)));
        assert!(std::panic::catch_unwind(|| c.solutions()).is_err());
        assert!(std::panic::catch_unwind(|| big.total()).is_err());
        assert!(
            std::panic::catch_unwind(|| {
                let mut x = big;
                x += Classes { orbit1: 1, ..Classes::default() };
            })
            .is_err()
        );
    }

    /// Issue 32, finding 2: the sum of tallies is checked in every build (it wrapped in release).
    #[test]
    #[should_panic(expected = "a tally overflowed 128 bits: use Tally::checked_add")]
    fn a_tally_sum_past_128_bits_panics_as_documented() {
        let t = Tally { solutions: u128::MAX, ..Tally::default() };
        assert_eq!(t.checked_add(&Tally { solutions: 1, ..Tally::default() }), None);
        let _ = t + Tally { solutions: 1, ..Tally::default() };
    }
}
