//! A cheap estimate of what one join unit costs, for the progress bar's ETA and for the order
//! in which the runner takes units (it never changes which units exist or their indices).
//!
//! A unit (start configuration, east row set S) enumerates its east halves and its west halves
//! ([`super::half::window_codes`]): for every split of the half's columns into a north part and
//! a south part it pairs the quarter table's list of the north rows and columns with the list
//! of the south ones, so the pair loop runs Σ |north list| · |south list| times. These pair
//! counts, P_E for the east side and P_W for the west side (for an axis unit, summed over the
//! middle-row queens it serves), are read off the table's list lengths without touching an
//! entry; the matcher's work grows with the halves that survive the clash test, which are
//! about a fixed fraction of the pairs. So the estimate is a function of (P_E, P_W) alone:
//! [`weight`] = 1 + (P_E + P_W)^0.83, the power that fitted the CPU time of every unit at
//! n = 17 and 18 best (log–log least squares, exponent 0.82 and 0.83, R² 0.78 and 0.72; at n = 16
//! units of 20 µs are too short to time well). Reading the lengths costs C(h, ⌊h/2⌋)-odd table
//! lookups per side, about 2 µs a unit at n = 20 (h = 10).
//!
//! From n = 28 the plan holds no lengths, and `nqueens plan` weighs a unit by walking its row
//! sets, thinned ([`sample_weight`]); the same walk draws a few placements of each list, which
//! estimates how many pairs survive the clash test on each side (0.3% to 70% at n = 28): the
//! product of the east and west half-boards, which tracks the matcher's work far better than
//! the pairs.

/// The power of the pair count in [`weight`] (see the module docs).
pub const PAIR_POWER: f64 = 0.83;

/// The table lookups the weights of one plan may take in all (about a second of one core):
/// up to n = 20 (92,378 units of 2 × 252 lookups) every unit is weighed; larger plans have
/// units enough for the runner's shuffled order to sample them evenly with every weight 1.
pub const LOOKUP_BUDGET: u64 = 1 << 26;

/// Returns true if and only if [`weight`] weighs the units of `plan`: from n =
/// [`crate::algo::weight::WEIGHTS_FROM`], within [`LOOKUP_BUDGET`].
pub fn weighs(plan: &JoinPlan) -> bool {
    // Row-set plans (n ≥ 28) hold no lists to read the lengths from.
    if plan.g.n < crate::algo::weight::WEIGHTS_FROM || !plan.table.has_lengths() {
        return false;
    }
    let h = u64::from(plan.g.h);
    // C(h, ⌊h/2⌋), the most column sets one side's pair sum visits.
    let sets = (1..=h / 2).fold(1u64, |c, i| c * (h + 1 - i) / i);
    (plan.len as u64).saturating_mul(2 * sets) <= LOOKUP_BUDGET
}

/// Returns the estimated cost of unit `index` of `plan`: 1 + (P_E + P_W)^[`PAIR_POWER`] (see
/// the module docs), in arbitrary units; 1 for every unit of a plan that [`weighs`] not.
///
/// # Panics
/// If `index` is not below the plan's number of units.
pub fn weight(plan: &JoinPlan, index: usize) -> f64 {
    if !weighs(plan) {
        return 1.0;
    }
    pair_weight(pair_counts(plan, index), PAIR_POWER)
}

/// Returns 1 + (P_E + P_W)^`power`: [`weight`]'s and [`sample_weight`]'s function of a unit's
/// pair counts.
fn pair_weight((east, west): (u64, u64), power: f64) -> f64 {
    1.0 + ((east + west) as f64).powf(power)
}

/// Returns the predictor of unit `index`'s time that `nqueens plan`'s sample stratifies by.
/// Where the plan holds the list lengths (n ≤ 27): 1 + (P_E + P_W)^[`sample_power`]\(n), at about
/// 2 µs a unit. In a row-set plan that holds none (n ≥ 28): 1 + (H_E · H_W)^[`PRODUCT_POWER`],
/// a power of the product of the unit's estimated east and west half-boards
/// ([`JoinPlan::unit_halves`] with [`HALF_DRAWS`] drawn a list, from one walk of each row set
/// the unit reads, thinned to [`HALF_KEEP`]: 0.018 s a unit at n = 28 on the Intel VM, against
/// 0.067 s with whole walks), since the matcher tests every west half-board against the east
/// ones that share its bucket. Over the 101 units a plan of n = 28 drew (seed 3,
/// results/2026-12-05-plan-predictor/), the log of their time fit the log of this product with
/// R² 0.65 (0.635 with the walks thinned, results/2026-12-05-plan-allocation/), against 0.49
/// for the pairs' sum, and 8 strata by it left 0.54 of the pairs' within-strata variance.
///
/// # Panics
/// If `index` is not below the plan's number of units.
pub fn sample_weight(plan: &JoinPlan, index: usize) -> f64 {
    if plan.table.has_lengths() {
        return pair_weight(pair_counts(plan, index), sample_power(plan.g.n));
    }
    let (east, west) = plan.unit_halves(index, HALF_DRAWS, HALF_KEEP);
    1.0 + (east * west).powf(PRODUCT_POWER)
}

/// The power of the product of a unit's half-boards in [`sample_weight`] (n ≥ 28): the slope of
/// the log of a unit's time against the log of H_E · H_W over the 101 units `plan 28 --seed 3`
/// drew (1.83, results/2026-12-05-plan-predictor/), so that a unit's time is about proportional
/// to its weight, as the ratio estimator within a stratum and its share of the draws assume:
/// the relative variance of a draw (the draws in proportion to each stratum's mean weight)
/// went from 0.343 at the power 1 to 0.306 (results/2026-12-05-plan-allocation/).
pub const PRODUCT_POWER: f64 = 1.8;

/// The placements of each quarter list drawn for [`sample_weight`]'s estimate of a unit's
/// half-boards in a row-set plan: with 8, the estimate came within 1.5% of the half-boards of 30
/// units of n = 28 (`join_sizes` with PER=8, results/2026-12-05-plan-memory/).
pub const HALF_DRAWS: usize = 8;

/// The share of each row-set walk kept for [`sample_weight`]'s estimate of a unit's
/// half-boards ([`QuarterTable::row_sample`]'s `keep`): an eighth made the estimate 3.7 times
/// cheaper (0.018 s a unit of n = 28 against 0.067 s) and its product 8.6% off the whole
/// walks' (root mean square over the 101 units of seed 3; the log–log fit to their time R²
/// 0.635 against 0.648), so the sample weighs about three times the units in less time; a
/// sixteenth cost 0.012 s but fit with R² 0.54 (results/2026-12-05-plan-allocation/).
pub const HALF_KEEP: f64 = 0.125;

/// Returns the power of the pair count in [`sample_weight`] for the `n`×`n` board: the slope of
/// log unit time against log (P_E + P_W) grows with n, as the matcher's work (pairs of halves
/// that share a bucket) outgrows the halves: 0.83 to n = 18 ([`PAIR_POWER`]), then 1.48, 2.22
/// and 1.97 at n = 24, 26 and 27 (log–log least squares over 200, 120 and 80 random units, each
/// counted whole: `join_sizes` with TIME=1, results/2026-12-04-plan-spells/), whose line, 0.19
/// more a board, this follows from n = 24 (n = 28: 2.24; its five profiled units, two of them
/// picked for their size, fit 4.95). Only the strata's allocation and the ratios within them
/// depend on it: the strata themselves are by rank.
pub fn sample_power(n: u32) -> f64 {
    match n {
        0..=18 => PAIR_POWER,
        19..=24 => PAIR_POWER + (1.48 - PAIR_POWER) * f64::from(n - 18) / 6.0,
        _ => 1.48 + 0.19 * f64::from(n - 24),
    }
}

#[cfg(any(test, feature = "internals"))]
impl JoinPlan {
    /// Returns unit `index`'s quarter-list pair counts (P_E, P_W) as [`pair_counts`] defines
    /// them, at any n: from the plan's list lengths, or, where the units read row sets and the
    /// plan holds no lengths, from the lengths of the unit's four row sets, each counted by a
    /// walk that stores no placement ([`QuarterTable::row_lengths`]: 0.05 s a unit at n = 28,
    /// against 0.24 s for loading the row sets' lists; `join_sizes 28 500 1`). The half-boards a unit enumerates are a
    /// part of its pairs (1.5% to 40% at n = 28), so this ranks the units of a board without
    /// enumerating them.
    ///
    /// # Panics
    /// If `index` is not below the plan's number of units.
    pub fn unit_pairs(&self, index: usize) -> (u64, u64) {
        if self.table.has_lengths() {
            return pair_counts(self, index);
        }
        // The lengths of each row set the unit reads (at most four), counted once.
        let mut held: Vec<(u32, Vec<u32>)> = Vec::with_capacity(4);
        pair_counts_by(self, index, &mut |rows, cols| {
            let at = match held.iter().position(|(r, _)| *r == rows) {
                Some(at) => at,
                None => {
                    held.push((rows, QuarterTable::row_lengths(self.g.h, rows)));
                    held.len() - 1
                }
            };
            u64::from(held[at].1[cols as usize])
        })
    }
}

impl JoinPlan {
    /// Returns an estimate of the half-boards unit `index` enumerates on its east and west sides
    /// (what the unit's quarter-list pairs bound; 0.3% to 70% of a side's pairs at n = 28, by how
    /// many of them clash): one walk of each row set the unit reads
    /// ([`QuarterTable::row_sample`], as long as the walk that counts its lists' lengths, thinned
    /// to `keep`), with up to `per` placements of each list drawn at random; each column split's
    /// pairs are weighed by the share of the drawn pairs that miss the unit's forbidden
    /// diagonals and each other, as [`super::half::for_each_half`] tests them. A unit with no
    /// east half-board enumerates nothing ((0, 0)). Exact where `per` is at least the longest
    /// list and `keep` is 1. The draws are the same for the same unit. With 8 drawn a list and
    /// whole walks it came within 1.5% of the half-boards of 30 units of n = 28, in 0.04 s a
    /// unit on the AMD VM (0.07 s on the Intel one; `join_sizes` with PER=8): it finds the units
    /// whose half-boards take the most memory (8 B each), and a power of its product H_E · H_W
    /// is the sample's predictor from n = 28 ([`sample_weight`]).
    ///
    /// # Panics
    /// If `index` is not below the plan's number of units, `per` is 0, or `keep` is not in
    /// (0, 1].
    pub fn unit_halves(&self, index: usize, per: usize, keep: f64) -> (f64, f64) {
        let (kind, rows) = self.unit(index);
        let g = &self.g;
        let seed = (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut held: Vec<(u32, RowSample)> = Vec::with_capacity(4);
        let mut side = |side: Side, rows: u64, cols: u32, forbid_u: u64, forbid_v: u64| {
            let (rows_n, rows_s) = g.split_rows(rows);
            for r in [rows_n, rows_s] {
                if !held.iter().any(|(h, _)| *h == r) {
                    held.push((r, QuarterTable::row_sample(g.h, r, per, keep, seed ^ u64::from(r))));
                }
            }
            let sample = |r: u32| &held.iter().find(|(h, _)| *h == r).expect("walked above").1;
            side_halves(g, side, (sample(rows_n), sample(rows_s)), rows_n.count_ones(), cols, forbid_u, forbid_v)
        };
        match kind {
            Kind::Axis { b } => {
                let (n, h) = (g.n, g.h);
                let west_rows = Start::Axis { a: 1, b }.free_rows(g) & !rows;
                let east = side(Side::East, rows, low_mask(h) as u32, 1 << (2 * h + b), 1 << (n - 1 - b));
                if east == 0.0 {
                    return (0.0, 0.0);
                }
                let west: f64 = (1..b)
                    .map(|a| {
                        let start = Start::Axis { a, b };
                        let (fu, fv) = start.taken(g);
                        side(Side::West, west_rows, start.west_cols(g), fu, fv)
                    })
                    .sum();
                (east, west)
            }
            kind => {
                let start = kind_start(kind);
                let west_rows = start.free_rows(g) & !rows;
                let (west_u, west_v) = start.taken(g);
                // As `JoinPlan::sides`: the long diagonals closed on the east side of a reduced
                // even unit.
                let long = if kind == Kind::Even && self.reduce { 1u64 << (g.n - 1) } else { 0 };
                let east = side(Side::East, rows, low_mask(g.h) as u32, west_u | long, west_v | long);
                if east == 0.0 {
                    return (0.0, 0.0);
                }
                (east, side(Side::West, west_rows, start.west_cols(g), west_u, west_v))
            }
        }
    }
}

/// Returns the estimated half-boards of one side (see [`JoinPlan::unit_halves`]): its north
/// and south row sets' samples, the north rows' count `k`, its local columns `cols` and the
/// global forbidden diagonals.
fn side_halves(
    g: &Geometry,
    side: Side,
    (north, south): (&RowSample, &RowSample),
    k: u32,
    cols: u32,
    forbid_u: u64,
    forbid_v: u64,
) -> f64 {
    let (fu, fv, c) = (g.local(side, forbid_u), g.local(side, forbid_v), g.c);
    let mut total = 0.0;
    let mut sub = cols;
    loop {
        if sub.count_ones() == k {
            let ((len_n, drawn_n), (len_s, drawn_s)) = (north.at(sub), south.at(cols ^ sub));
            if len_n > 0.0 && len_s > 0.0 {
                let mut kept = 0u64;
                for &a in drawn_n.iter().filter(|&&a| north_misses(a, fu, fv, c)) {
                    let south = drawn_s.iter().filter(|&&b| south_misses(b, fu, fv, c));
                    kept += south.filter(|&&b| half_of(a, b, c).is_some()).count() as u64;
                }
                let pairs = (drawn_n.len() * drawn_s.len()) as f64;
                total += len_n * len_s * kept as f64 / pairs;
            }
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & cols;
    }
    total
}

use super::bits::low_mask;
use super::start::Start;
use super::half::{Geometry, Side, half_of, north_misses, south_misses};
use super::quarter::QuarterTable;
use super::quarter::sample::RowSample;
use super::unit::{JoinPlan, Kind, kind_start};

/// Returns the pair counts (P_E, P_W) of unit `index` of `plan` (see the module docs): the
/// quarter-list pairs its east and its west half-board enumerations visit.
///
/// # Panics
/// If `index` is not below the plan's number of units.
pub fn pair_counts(plan: &JoinPlan, index: usize) -> (u64, u64) {
    pair_counts_by(plan, index, &mut |rows, cols| plan.table.list_len(rows, cols) as u64)
}

/// Returns [`pair_counts`] with the list lengths `len(rows, cols)` (local masks of one quarter).
///
/// # Panics
/// If `index` is not below the plan's number of units.
fn pair_counts_by(plan: &JoinPlan, index: usize, len: &mut dyn FnMut(u32, u32) -> u64) -> (u64, u64) {
    let (kind, rows) = plan.unit(index);
    let g = &plan.g;
    let start = kind_start(kind);
    let west_rows = start.free_rows(g) & !rows;
    let east = pairs(len, g, rows, low_mask(g.h) as u32);
    let west = match kind {
        Kind::Axis { b } => (1..b).map(|a| pairs(len, g, west_rows, Start::Axis { a, b }.west_cols(g))).sum(),
        _ => pairs(len, g, west_rows, start.west_cols(g)),
    };
    (east, west)
}

/// Returns Σ over the north column sets C of |L(north rows, C)| · |L(south rows, cols ∖ C)|
/// for the half on the global rows `rows` and the local columns `cols`, the lengths from `len`.
fn pairs(len: &mut dyn FnMut(u32, u32) -> u64, g: &super::half::Geometry, rows: u64, cols: u32) -> u64 {
    let (rows_n, rows_s) = g.split_rows(rows);
    let k = rows_n.count_ones();
    let mut total = 0u64;
    let mut sub = cols;
    loop {
        if sub.count_ones() == k {
            let a = len(rows_n, sub);
            if a > 0 {
                total += a * len(rows_s, cols ^ sub);
            }
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & cols;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Plan;

    /// With every placement of every list drawn, the estimate of a unit's half-boards is the
    /// number its sides enumerate, for every kind of unit (even, centre, axis); with a few drawn
    /// it stays near it.
    #[test]
    fn half_estimates_are_exact_when_every_placement_is_drawn() {
        for n in [11, 12, 13, 14] {
            let plan = JoinPlan::new(n).unwrap();
            let (mut exact, mut drawn) = (0.0, 0.0);
            for index in 0..plan.len() {
                let halves = plan.solve(index, true).nodes as f64;
                let (east, west) = plan.unit_halves(index, 1 << 10, 1.0);
                assert_eq!(east + west, halves, "n = {n} unit {index}");
                exact += halves;
                let (east, west) = plan.unit_halves(index, 4, 1.0);
                drawn += east + west;
            }
            assert!((drawn / exact - 1.0).abs() < 0.05, "n = {n}: {drawn} against {exact}");
        }
    }

    /// The pair counts bound the halves the sides enumerate (the pairs that survive the clash
    /// test), and the plan's weight is the documented function of them.
    #[test]
    fn pair_counts_bound_the_halves_and_weights_follow_them() {
        for n in [10, 11, 12] {
            let plan = JoinPlan::new(n).unwrap();
            for index in 0..plan.len() {
                let (east, west) = pair_counts(&plan, index);
                let halves = plan.solve(index, true).nodes as u64;
                assert!(halves <= east + west, "n = {n} unit {index}: {halves} > {east} + {west}");
                // No pair on the east side: the unit enumerates nothing.
                assert!(east > 0 || halves == 0, "n = {n} unit {index}");
            }
            // Too small a board to be worth weighing.
            assert!(!weighs(&plan) && plan.weight(0) == 1.0);
        }
        // n = 17 is weighed.
        let plan = JoinPlan::new(17).unwrap();
        assert!(weighs(&plan));
        for index in (0..plan.len()).step_by(97) {
            let (east, west) = pair_counts(&plan, index);
            assert_eq!(plan.weight(index), 1.0 + ((east + west) as f64).powf(PAIR_POWER));
        }
    }
}
