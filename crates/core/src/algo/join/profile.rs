//! Where one unit's time goes: its setup (the row sets' walks and the half-board
//! enumeration), the matcher's builds, the sorts of its codes and the block loop, with the sizes
//! and pair counts behind them ([`JoinPlan::profile_unit`]), for `examples/join_profile` and the
//! frontier study (results/2026-12-04-frontier/).

use std::ops::ControlFlow;
use std::time::Instant;

use super::matcher::{MatchStats, Parts};
use super::unit::{JoinPlan, SCRATCH};

/// One unit's profile ([`JoinPlan::profile_unit`]). Seconds are wall-clock of the calling
/// thread; counts are exact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UnitProfile {
    /// The unit's index in the plan.
    pub index: usize,
    /// Seconds loading its row sets (when the plan reads them per unit) and enumerating its
    /// half-boards.
    pub setup_s: f64,
    /// East half-boards enumerated.
    pub east: u64,
    /// West half-boards enumerated (for an axis unit, over every middle-row queen).
    pub west: u64,
    /// What the matcher did (the part of its work that ran).
    pub matcher: MatchStats,
    /// The share of the unit's matching that ran, by the matcher's cost model (1 when whole).
    pub share: f64,
    /// The unit's weighted count, if it ran whole.
    pub solutions: Option<u128>,
    /// Seconds in all.
    pub seconds: f64,
}

impl JoinPlan {
    /// Counts unit `index` (below [`Plan::len`](crate::Plan::len)) on this thread and returns
    /// where its time went, stopping once the matcher's parts done stand for at least
    /// `max_share` of its work (1 or more: the whole unit, with its count).
    ///
    /// # Panics
    /// If `index` is not below the plan's number of units.
    pub fn profile_unit(&self, index: usize, max_share: f64) -> UnitProfile {
        SCRATCH.with(|s| s.borrow_mut().matcher.stats = MatchStats::default());
        let t0 = Instant::now();
        let mut share = 0.0;
        let mut on_part = |p: Parts| {
            share = p.share;
            if p.done > 0 && p.done < p.total && p.share >= max_share { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        };
        let tally = self.solve_with(index, false, Some(&mut on_part));
        let seconds = t0.elapsed().as_secs_f64();
        let (setup, matcher) = SCRATCH.with(|s| {
            let s = s.borrow();
            (s.setup, s.matcher.stats)
        });
        let solutions = tally.map(|t| t.solutions);
        UnitProfile {
            index,
            setup_s: setup.0,
            east: setup.1,
            west: setup.2,
            matcher,
            share: if solutions.is_some() { 1.0 } else { share },
            solutions,
            seconds,
        }
    }
}
