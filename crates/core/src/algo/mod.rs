//! The three algorithms, each in the same shape: a *plan* (a list of independent subproblems,
//! [`Plan`], built from the algorithm's symmetry reduction and the split depth), a sequential
//! *search* that counts one subproblem (no rayon, no I/O, no allocation), and where it has them
//! the search's SIMD copies, one file per instruction set behind one trait.
//!
//! | algorithm | plan | search | SIMD copies |
//! | --- | --- | --- | --- |
//! | [`mirror`] | `mirror.rs` (mirror halving) | [`crate::kernel`] | the kernel's copy per level |
//! | [`d4`] | `d4/mod.rs`, `d4/constellation.rs` | `d4/search.rs` | `d4/batched/lanes.rs` (batched search), `d4/search.rs` (recursive) |
//! | [`join`] | `join/mod.rs`, `join/quarter.rs`, `join/half.rs` | `join/matcher/` | block loop, table fill, pairing |
//!
//! Mirror has no folder: its search is the plain kernel every algorithm shares (d4 finishes its
//! boards in it, listing walks it), so it lives at the crate root. The SIMD copies are generic
//! code over the traits of [`crate::arch`], compiled once per instruction-set level; a plan
//! holds the [`Level`] its searches run at. The runner ([`crate::parallel`]) sees only
//! [`Plan`].

pub mod d4;
pub mod join;
pub mod mirror;
pub mod weight;

use crate::Error;
use crate::arch::Level;
use crate::limits::available_threads;
use crate::vocabulary::{Algorithm, Plan};
use crate::vocabulary::Classes;
pub use d4::{D4Plan, D4Search};
pub use mirror::MirrorPlan;

impl Algorithm {
    /// Returns `Ok(())` if the `n`×`n` board counted with this algorithm on `threads` worker
    /// threads fits in the memory available to the process, as far as can be told before its
    /// plan is built: the join's quarter table and every thread's buffers
    /// (`join::check_memory_for`) are checked here, from n = `join::MIN_N`; mirror and d4
    /// check their lists as they build them. A caller counting several boards refuses a join
    /// that does not fit before counting any.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`], as [`PlanSpec::build`] refuses it,
    /// and [`Error::ZeroThreads`] if `threads` is 0, as a [`crate::Counter`] refuses it (unchecked,
    /// `Algorithm::D4.check_memory(99, 0)` said yes); [`Error::JoinTooLarge`] for a join board
    /// that does not fit.
    pub fn check_memory(self, n: u32, threads: usize) -> Result<(), Error> {
        crate::check_n(n)?;
        if threads == 0 {
            return Err(Error::ZeroThreads);
        }
        match self {
            Algorithm::Join if n >= join::MIN_N => join::check_memory_for(n, threads),
            _ => Ok(()),
        }
    }

    /// Returns the concrete algorithm that counts an `n`×`n` board: `self`, or for
    /// [`Algorithm::Auto`] the join from [`Algorithm::JOIN_FROM`] when its table fits in memory
    /// (`join::check_memory`), else d4.
    pub fn resolve(self, n: u32) -> Algorithm {
        self.resolve_for(n, 1)
    }

    /// [`Algorithm::resolve`] for a count on `threads` worker threads: `auto` takes the join
    /// only if its table and every thread's buffers fit (`join::check_memory_for`), so that
    /// `-j 64` on a board whose join fits one thread falls back to d4 instead of being refused.
    pub fn resolve_for(self, n: u32, threads: usize) -> Algorithm {
        match self {
            Algorithm::Auto if n >= Algorithm::JOIN_FROM && join::check_memory_for(n, threads).is_ok() => {
                Algorithm::Join
            }
            Algorithm::Auto => Algorithm::D4,
            concrete => concrete,
        }
    }
}

/// What plan to build: the algorithm, the board, the split depth (or the thread count it is
/// chosen for), and how the plan's searches run. [`PlanSpec::build`] builds it; it is the one
/// way to build a plan (a shard plan is a spec whose `threads` come from the shard count K, see
/// `nqueens_runs::shard::shard_spec`).
///
/// For a concrete algorithm the plan is a pure function of (algorithm, n, split depth):
/// building it again, on any machine, gives the same subproblems under the same indices, which
/// is what a checkpoint journal and a shard plan rely on. [`Algorithm::Auto`] is resolved when
/// the plan is built, by the memory available there ([`Algorithm::resolve`]): a caller whose
/// plan must be the same on every machine (a journal, shards on several nodes) resolves it once
/// and passes the concrete algorithm, as the command line does for a journal and the Slurm
/// recipe for its shards. `threads` matters only when `split_depth` is `None`, and
/// `d4_search` and `level` change how fast a subproblem is counted, never its counts.
///
/// A plain struct with public fields, as [`crate::CountOptions`] is, rather than a builder with
/// private fields (rayon's `ThreadPoolBuilder`): every field is a value with no invariant to
/// keep between setting it and building, [`PlanSpec::build`] checks them all at once, and the
/// struct update syntax names exactly the fields that differ from [`PlanSpec::new`]'s.
///
/// # Examples
/// ```
/// use nqueens::{Algorithm, plan::PlanSpec};
/// let spec = PlanSpec { split_depth: Some(2), ..PlanSpec::new(Algorithm::Mirror, 8) };
/// let plan = spec.build().unwrap();
/// let total: u128 = (0..plan.len()).map(|i| plan.solve(i, false).solutions).sum(); // weighted
/// assert_eq!(total, 92);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanSpec {
    /// The algorithm; [`Algorithm::Auto`] is resolved for the board ([`Algorithm::resolve`]).
    pub algorithm: Algorithm,
    /// The board side, at most [`crate::MAX_N`].
    pub n: u32,
    /// Rows fixed per subproblem, 1 to 16 ([`MAX_SPLIT_DEPTH`](crate::plan::MAX_SPLIT_DEPTH)); `None` lets the
    /// algorithm choose the depth for `threads` worker threads (`split::auto_split_depth`).
    /// The join's units are not row prefixes: it ignores the depth (its plans report 0).
    /// Default: `None`.
    pub split_depth: Option<u32>,
    /// The worker threads the automatic split depth is chosen for: the smallest depth with at
    /// least 32 subproblems per thread and 2,048 in all (`split::SUBPROBLEMS_PER_THREAD`,
    /// `split::MIN_SUBPROBLEMS`; d4 aims higher on boards past its batched search). Unused
    /// when `split_depth` is set; 0 is taken as 1 (a count on devices alone has no CPU
    /// threads). Default:
    /// [`available_threads`](crate::plan::available_threads), the machine's logical CPUs.
    pub threads: usize,
    /// The search that counts d4 subproblems (other algorithms ignore it). Default:
    /// [`D4Search::Auto`].
    pub d4_search: D4Search,
    /// The instruction-set level every search runs at (the counts are the same at every
    /// level; the speed is not). Default: [`Level::best`].
    pub level: Level,
}

impl PlanSpec {
    /// Returns the spec of `algorithm`'s plan for the `n`×`n` board with the defaults: the
    /// split depth chosen for every logical CPU, [`D4Search::Auto`], [`Level::best`].
    pub fn new(algorithm: Algorithm, n: u32) -> PlanSpec {
        PlanSpec {
            algorithm,
            n,
            split_depth: None,
            threads: available_threads(),
            d4_search: D4Search::Auto,
            level: Level::best(),
        }
    }

    /// Returns the plan this spec describes: its subproblems, each solved by
    /// [`Plan::solve`] at `level`.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::BadSplitDepth`] if the
    /// depth of a mirror or d4 plan is 0 or more than 16 (the join ignores it);
    /// [`Error::TooManySubproblems`] if the depth makes 2^22 (4,194,304) subproblems or more
    /// (`split::MAX_SUBPROBLEMS`);
    /// [`Error::OutOfMemory`] if the list does not fit in the memory available;
    /// [`Error::JoinTooLarge`] if the join's quarter table does not fit (or n is past the
    /// join's largest board).
    pub fn build(&self) -> Result<Box<dyn Plan>, Error> {
        let PlanSpec { algorithm, n, split_depth, threads, d4_search, level } = *self;
        // Refused for every algorithm, as a Counter refuses it: the join past n = 63 named its
        // memory, not the board. (The depth is the prefix plans' to check: the join ignores it,
        // and its plans record 0, which a shard merge passes back when it rebuilds one.)
        crate::check_n(n)?;
        let mirror = |depth: Option<u32>| -> Result<MirrorPlan, Error> {
            Ok(match depth {
                Some(depth) => MirrorPlan::new(n, depth)?,
                None => MirrorPlan::auto(n, threads)?,
            }
            .with_level(level))
        };
        Ok(match algorithm.resolve(n) {
            Algorithm::Mirror => Box::new(mirror(split_depth)?),
            Algorithm::D4 => Box::new(
                match split_depth {
                    Some(depth) => D4Plan::new(n, depth)?,
                    None => D4Plan::auto(n, threads)?,
                }
                .with_search(d4_search)
                .with_level(level),
            ),
            // The join's units are not row prefixes: the split depth does not apply.
            Algorithm::Join if n >= join::MIN_N => {
                let mut plan = join::JoinPlan::new(n)?;
                plan.set_level(level);
                Box::new(plan)
            }
            // Boards below the join's smallest (n = 0 to 3, one board at most) are counted by
            // mirror halving and classified by the d4 plan, which counts them by orbit.
            Algorithm::Join => Box::new(mirror(None)?.with_classes(d4_classes(n)?)),
            Algorithm::Auto => unreachable!("resolve() returns a concrete algorithm"),
        })
    }

    /// Returns the plan that a sample of this spec's subproblems needs (`nqueens plan`), and
    /// the bytes of quarter-table entries that a count writes and building this plan did not:
    /// [`PlanSpec::build`]'s plan and 0, but for the join at n = 26–27 (the largest quarter
    /// table, side 13: 6.9 GB), whose sample needs only a few units: there a plan whose units
    /// load their own row sets, untimed, and whose list lengths (268 MB at n = 27) weigh the
    /// units as the table would, and the table's bytes less those lengths.
    ///
    /// # Errors
    /// As [`PlanSpec::build`]; [`Error::OutOfMemory`] if the join's list lengths do not fit.
    pub fn build_for_sample(&self) -> Result<(Box<dyn Plan>, u64), Error> {
        let n = self.n;
        if self.algorithm == Algorithm::Join && n / 2 == join::quarter::MAX_TABLE_H {
            let mut plan = join::JoinPlan::for_sampling(n)?;
            plan.set_level(self.level);
            let h = n / 2;
            let lengths = 4 * ((1u64 << (2 * h)) + 1);
            return Ok((Box::new(plan), join::quarter::estimated_bytes(h).saturating_sub(lengths)));
        }
        Ok((self.build()?, 0))
    }
}

/// Returns the fundamental solutions of the `n`×`n` board by orbit size as the d4 plan counts
/// them, each start constellation's boards by orbit (for the boards of n < `join::MIN_N`, which
/// the join leaves to mirror halving: the choice sits here, above both, so that the join never
/// calls d4).
///
/// # Errors
/// As [`D4Plan::auto`].
fn d4_classes(n: u32) -> Result<Classes, Error> {
    let plan = D4Plan::auto(n, 1)?;
    let mut classes = Classes::default();
    for i in 0..plan.len() {
        classes += plan.solve(i, false).classes;
    }
    Ok(classes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::Tally;

    /// The one way to the fundamental solutions, `Plan::fundamental` of the sum of every
    /// subproblem's tally, gives the known classes for every board from n = 1 by d4 and by the
    /// join (Burnside over its quarter table from n = 4, the d4 plan's classes below), none by
    /// mirror, none for n = 0, and none for a join total that is not the board's.
    #[test]
    fn fundamental_solutions_match_the_known_table() {
        for n in 0..=12 {
            for algorithm in Algorithm::ALL {
                let plan = PlanSpec { threads: 1, ..PlanSpec::new(algorithm, n) }.build().unwrap();
                let total = (0..plan.len()).fold(Tally::default(), |t, i| t + plan.solve(i, false));
                let want = if algorithm == Algorithm::Mirror { None } else { crate::oeis::known_classes(n) };
                assert_eq!(plan.fundamental(&total), want, "{algorithm} n = {n}");
                if algorithm == Algorithm::Join && n >= 1 {
                    let wrong = Tally { solutions: total.solutions + 2, ..total };
                    assert_eq!(plan.fundamental(&wrong), None, "{algorithm} n = {n}");
                }
            }
        }
    }

    /// Break-it round of 2026-12-03, findings 3 and 5: `PlanSpec::build` refuses a board past
    /// `MAX_N` for every algorithm (the join named its memory for n = 64) and a split depth out
    /// of 1..=16 for the prefix plans; the join ignores the depth, as documented, and a shard
    /// merge rebuilds a join plan with the depth 0 it reports.
    #[test]
    fn plan_specs_refuse_bad_boards_and_the_prefix_plans_bad_depths() {
        for algorithm in Algorithm::ALL {
            for n in [64, 65, u32::MAX] {
                let spec = PlanSpec { threads: 1, ..PlanSpec::new(algorithm, n) };
                assert_eq!(spec.build().err(), Some(Error::BoardTooLarge { n }), "{algorithm} n = {n}");
            }
        }
        for algorithm in [Algorithm::Mirror, Algorithm::D4] {
            for depth in [0, 17, u32::MAX] {
                let spec = PlanSpec { split_depth: Some(depth), threads: 1, ..PlanSpec::new(algorithm, 12) };
                assert_eq!(spec.build().err(), Some(Error::BadSplitDepth { depth }), "{algorithm} depth {depth}");
            }
        }
        let join = PlanSpec { split_depth: Some(0), threads: 1, ..PlanSpec::new(Algorithm::Join, 12) }.build().unwrap();
        assert_eq!((join.algorithm(), join.split_depth()), (Algorithm::Join, 0));
    }

    #[test]
    fn real_counts_are_possible_and_changed_ones_are_not() {
        for n in 0..=13u32 {
            for algorithm in Algorithm::ALL {
                for depth in [None, Some(3)] {
                    let plan = PlanSpec { split_depth: depth, threads: 2, ..PlanSpec::new(algorithm, n) }.build().unwrap();
                    let mut total = 0u128;
                    for i in 0..plan.len() {
                        let t = plan.solve(i, false);
                        total += t.solutions;
                        let m = plan.multiple_of(i);
                        assert_eq!(plan.impossible(i, &t), None, "{algorithm} n = {n} subproblem {i}: {t:?}");
                        assert!(n < 2 || m >= 2, "{algorithm} n = {n} subproblem {i}: weight {m}");
                        let more = Tally { solutions: t.solutions + 1, ..t };
                        assert!(n < 2 || plan.impossible(i, &more).is_some(), "{algorithm} n = {n} {i}");
                        let mut odd = t;
                        odd.classes.orbit1 += 1;
                        assert!(plan.impossible(i, &odd).is_some(), "{algorithm} n = {n} {i}");
                    }
                    assert_eq!(Some(total), crate::oeis::A000170.get(n), "{algorithm} n = {n}");
                }
            }
        }
        // d4 at n = 10 (≡ 2 mod 4): an orbit-2 class is impossible in any subproblem; a class of
        // 8 more than the completions, too.
        let plan = PlanSpec { threads: 2, ..PlanSpec::new(Algorithm::D4, 10) }.build().unwrap();
        let t = plan.solve(0, false);
        let mut c2 = t;
        c2.classes.orbit2 += 1;
        c2.solutions += 8;
        let why = plan.impossible(0, &c2).unwrap();
        assert!(why.contains("no board of n ≡ 2 or 3 (mod 4) is symmetric under the 90° rotation"), "{why}");
        let mut c8 = t;
        c8.classes.orbit8 += 1;
        assert!(plan.impossible(0, &c8).is_some());
    }

    /// `PlanSpec::new`'s defaults are those `make_plan` passed (automatic depth, `D4Search::Auto`,
    /// the best level) with every logical CPU, and its plan is the algorithm's own plan for
    /// them: the same length, depth and subproblems under the same indices.
    #[test]
    fn plan_spec_defaults_give_the_plans_make_plan_gave() {
        let spec = PlanSpec::new(Algorithm::D4, 12);
        assert_eq!(
            spec,
            PlanSpec {
                algorithm: Algorithm::D4,
                n: 12,
                split_depth: None,
                threads: available_threads(),
                d4_search: D4Search::Auto,
                level: Level::best(),
            }
        );
        assert!(available_threads() >= 1);
        let threads = available_threads();
        let d4 = spec.build().unwrap();
        let old_d4 = D4Plan::auto(12, threads).unwrap();
        let mirror = PlanSpec::new(Algorithm::Mirror, 12).build().unwrap();
        let old_mirror = MirrorPlan::auto(12, threads).unwrap();
        let pairs: [(&dyn Plan, &dyn Plan); 2] = [(d4.as_ref(), &old_d4), (mirror.as_ref(), &old_mirror)];
        for (new, old) in pairs {
            assert_eq!((new.len(), new.split_depth()), (old.len(), old.split_depth()));
            for i in [0, new.len() / 2, new.len() - 1] {
                assert_eq!(new.solve(i, true), old.solve(i, true), "subproblem {i}");
                assert_eq!(new.multiple_of(i), old.multiple_of(i), "subproblem {i}");
            }
        }
        // Auto resolves per board; a set depth wins over the threads.
        assert_eq!(PlanSpec::new(Algorithm::Auto, 6).build().unwrap().algorithm(), Algorithm::D4);
        let fixed = PlanSpec { split_depth: Some(2), threads: 1000, ..PlanSpec::new(Algorithm::Mirror, 10) };
        assert_eq!(fixed.build().unwrap().split_depth(), 2);
    }

    /// Issue 32, finding 2: `Algorithm::D4.check_memory(99, 0)` said yes to what `count` and
    /// `make_plan` (now [`PlanSpec::build`]) refuse.
    #[test]
    fn memory_checks_refuse_what_a_plan_refuses() {
        for algorithm in Algorithm::ALL {
            assert_eq!(algorithm.check_memory(99, 0), Err(Error::BoardTooLarge { n: 99 }), "{algorithm}");
            assert_eq!(algorithm.check_memory(64, 1), Err(Error::BoardTooLarge { n: 64 }), "{algorithm}");
            assert_eq!(algorithm.check_memory(8, 0), Err(Error::ZeroThreads), "{algorithm}");
            assert_eq!(algorithm.check_memory(12, 2), Ok(()), "{algorithm}");
            assert!(PlanSpec { threads: 1, ..PlanSpec::new(algorithm, 99) }.build().is_err(), "{algorithm}");
        }
    }

    /// Issue 32, finding 3: `Plan::solve` with an index past the plan panics, as documented (a
    /// slice's convention), for every plan; the last index solves.
    #[test]
    fn solving_past_the_plan_panics_as_documented() {
        for algorithm in [Algorithm::Mirror, Algorithm::D4, Algorithm::Join] {
            let plan = PlanSpec { threads: 1, ..PlanSpec::new(algorithm, 12) }.build().unwrap();
            let last = plan.solve(plan.len() - 1, false);
            assert!(last.solutions <= 14_200, "{algorithm}");
            let past =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| plan.solve(plan.len(), false)));
            let message = past.expect_err("a panic").downcast::<String>().map(|m| *m).unwrap_or_default();
            assert!(message.contains("out of bounds") || message.contains("index"), "{algorithm}: {message}");
        }
    }
}
