//! Where one unit's time goes: its setup (the row sets' walks and the half-board
//! enumeration), the matcher's builds, the sorts of its codes and the block loop, with the sizes
//! and pair counts behind them ([`JoinPlan::profile_unit`]), for `examples/join_profile` and the
//! frontier study (results/2026-12-04-frontier/).

use std::ops::ControlFlow;
use std::time::Instant;

use super::matcher::{MatchStats, Parts};
use super::unit::{JoinPlan, Kind, SCRATCH};

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
    /// The share of the unit's (block, mask) visits that ran (1 when whole).
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

/// One unit's two sides as the matcher meets them ([`JoinPlan::unit_sides`]), for experiments
/// with the matcher: the stored masks (classes one after the other, each (masks, weight)), the
/// codes (window masks with their weight class in bits 62 and 63) and the classes' weights;
/// the unit's count is `outer` × [`Matcher::count_coded`](super::matcher::Matcher::count_coded) of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnitSides {
    /// The stored window masks.
    pub stored: Vec<u64>,
    /// The stored classes: (masks, weight), in order.
    pub classes: Vec<(usize, u32)>,
    /// The codes.
    pub codes: Vec<u64>,
    /// The weight of each class of code.
    pub weights: [u32; 4],
    /// What multiplies the matched count (the row set's orbit).
    pub outer: u32,
}

impl UnitSides {
    /// Returns the stored classes as [`Matcher::count_coded`](super::matcher::Matcher::count_coded)
    /// takes them: (each class's masks, its weight), in order.
    pub fn stored_classes(&self) -> Vec<(&[u64], u32)> {
        let mut at = 0;
        self.classes
            .iter()
            .map(|&(len, weight)| {
                at += len;
                (&self.stored[at - len..at], weight)
            })
            .collect()
    }
}

impl JoinPlan {
    /// Returns unit `index`'s two sides as the matcher meets them (enumerated on this thread).
    ///
    /// # Panics
    /// If `index` is not below the plan's number of units.
    pub fn unit_sides(&self, index: usize) -> UnitSides {
        let (kind, rows) = self.unit(index);
        SCRATCH.with(|s| {
            let s = &mut s.borrow_mut();
            s.half.level = self.level;
            s.keep = self.keep;
            let sides = match kind {
                Kind::Axis { b } => self.axis_sides(b, rows, 1..b, s),
                kind => self.sides(kind, rows, s),
            };
            let (east, west) = s.halves.split_at(sides.east);
            let (stored, codes) = if sides.west_stored { (west, east) } else { (east, west) };
            let classes = sides.classes[..sides.class_count].to_vec();
            let len = classes.iter().map(|c| c.0).sum::<usize>();
            UnitSides {
                stored: stored[..len].to_vec(),
                classes,
                codes: codes[..sides.codes].to_vec(),
                weights: sides.weights,
                outer: sides.outer,
            }
        })
    }
}

