//! Shards for clusters: a deterministic partition of a plan's subproblems into K shards of about
//! equal estimated cost, so that K machines can each count one shard and `nqueens merge` can add
//! them up.
//!
//! # Cost estimate
//! Subproblem costs differ by 10× or more (a queen near the edge leaves more freedom than one in
//! the middle), so shards of equal *count* can differ widely in time. Each subproblem's cost is
//! estimated by a shallow probe: the number of ways to extend its prefix by [`PROBE_ROWS`] more
//! rows (the search-tree nodes that many rows below it), which takes microseconds. All
//! subproblems of a plan fix the same number of rows, so this count tracks the size of the tree
//! below each of them (see results/2026-11-29-long-runs/ for how well).
//!
//! # Assignment
//! Greedy longest-processing-time first (Graham, 1969): subproblems in order of decreasing
//! estimate (ties: lower index first) each go to the shard with the least estimated cost so far
//! (ties: lower shard first). The estimates are exact integers and every tie is broken by index,
//! so the partition is the same on every machine for the same (algorithm, n, split depth, K).
//!
//! # Split depth
//! A shard plan needs more subproblems than a one-machine plan: [`shard_spec`] picks the split
//! depth as a [`PlanSpec`] does for [`THREADS_PER_SHARD`] × K threads, that is at least
//! 256 subproblems per shard, from K alone, never from the machine's thread count.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::str::FromStr;

use nqueens::{
    Algorithm, Error,
    plan::{MAX_SPLIT_DEPTH, Plan, PlanSpec},
};

/// Rows below a subproblem's prefix that the cost probe extends it by. Two rows cost about
/// (n - 2·depth)² steps per subproblem; three rows were not markedly better at n = 16 and 17.
pub const PROBE_ROWS: u32 = 2;

/// The thread count a shard plan's split depth is chosen for, per shard: 8 × 32 = 256
/// subproblems per shard (see [`PlanSpec::threads`]).
pub const THREADS_PER_SHARD: usize = 8;

/// One shard of a partition: `index` in `0..count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShardId {
    /// The shard's number, `0..count`.
    pub index: usize,
    /// The number of shards K, at least 1.
    pub count: usize,
}

impl fmt::Display for ShardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The most shards K a plan is split into: 10^6. The shard plan aims at 256 subproblems per
/// shard but never builds more than 2^22 (4,194,304) of them ([`PlanSpec::build`]), so
/// from K ≈ 16,000 shards hold fewer (about 4 each at K = 10^6), and where K exceeds the
/// plan's subproblems (the join's units: 472 at n = 12, 1.2 million at n = 27) the shards past
/// them are empty: each still writes a result (no subproblems, zero counts), and `merge` needs
/// every one of them like any other. What a shard's process pays for K = 10^6 (measured
/// 2026-12-02, `count … -j 1 --shard 999999/1000000`): 1.7 s and 156 MiB for mirror at n = 16
/// (2 million subproblems, each probed for its cost and dealt greedily), 0.34 s and 145 MiB for
/// d4 at n = 16 and 0.20 s and 63 MiB for d4 at n = 27 (dealt round robin), 0.006 s for the
/// join at n = 12.
pub const MAX_SHARDS: usize = 1_000_000;

impl FromStr for ShardId {
    type Err = String;

    /// Parses `I/K` with 0 ≤ I < K.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let form = || format!("shard '{s}' is not of the form I/K: use e.g. 0/16 (0 <= I < K)");
        let (i, k) = s.trim().split_once('/').ok_or_else(form)?;
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(i.trim()) || !digits(k.trim()) {
            return Err(form());
        }
        let (Ok(index), Ok(count)) = (i.trim().parse::<usize>(), k.trim().parse::<usize>()) else {
            return Err(format!("shard '{s}' is too large: use I/K with K < 2^64"));
        };
        if count == 0 {
            return Err(format!("shard '{s}' has K = 0 shards: use I/K with K >= 1"));
        }
        if count > MAX_SHARDS {
            return Err(format!("shard '{s}' has too many shards: use I/K with K <= {MAX_SHARDS}"));
        }
        if index >= count {
            return Err(format!(
                "shard '{s}' is out of range: use I/K with 0 <= I < K (here I <= {})",
                count - 1
            ));
        }
        Ok(ShardId { index, count })
    }
}

/// Returns the spec of the plan that `K = shards` shards of `algorithm` on the `n`×`n` board
/// share: [`PlanSpec::new`]'s, with the split depth (when `split_depth` is left `None`) chosen
/// for [`THREADS_PER_SHARD`] × K threads, at least 256 subproblems per shard and at least 2048
/// in all, from K alone, never from the machine's thread count. Set `split_depth` to fix the
/// rows, and `d4_search` and `level` to say how the searches run (the same subproblems and
/// counts whatever they are), then [`PlanSpec::build`] it:
///
/// ```
/// use nqueens::Algorithm;
/// use nqueens::plan::PlanSpec;
/// use nqueens_runs::shard::shard_spec;
///
/// let plan = PlanSpec { split_depth: Some(2), ..shard_spec(Algorithm::Mirror, 12, 4) }.build().unwrap();
/// assert_eq!(plan.split_depth(), 2);
/// ```
pub fn shard_spec(algorithm: Algorithm, n: u32, shards: usize) -> PlanSpec {
    PlanSpec { threads: THREADS_PER_SHARD.saturating_mul(shards.max(1)), ..PlanSpec::new(algorithm, n) }
}

/// Returns the estimated cost of subproblem `index` of `plan`: the number of ways to place
/// [`PROBE_ROWS`] more queens below its prefix, at least 1. A plan without prefixes gives 1.
pub fn estimate(plan: &dyn Plan, index: usize) -> u64 {
    estimate_rows(plan, index, PROBE_ROWS)
}

/// Returns the number of ways to place `rows` more queens below the prefix of subproblem `index`
/// of `plan` (fewer rows where the board ends, or where the prefix would pass
/// [`MAX_SPLIT_DEPTH`] rows), at least 1; 1 for a plan without prefixes.
/// [`estimate`] uses [`PROBE_ROWS`]; the shard balance benchmark compares other depths.
pub fn estimate_rows(plan: &dyn Plan, index: usize, rows: u32) -> u64 {
    let Some(prefix) = plan.prefix(index) else { return 1 };
    let n = plan.n();
    // A plan's prefixes are of its own board (n <= MAX_N, at most MAX_SPLIT_DEPTH rows): the
    // count below cannot be refused; a cost of 1 if it were.
    let rows_left = n.min(MAX_SPLIT_DEPTH).saturating_sub(prefix.len() as u32);
    prefix.extensions(n, rows.min(rows_left)).map_or(1, |e| e.max(1))
}

/// Returns the shard of every subproblem `0..costs.len()` when they are dealt into `k` shards
/// by greedy longest-processing-time first on `costs` (see the module docs): `owners[i]` is
/// subproblem i's shard, `0..k`. Equal costs (every d4 and join plan: they have no prefixes to
/// probe) deal the subproblems round robin, subproblem i to shard i mod k, which is what the
/// greedy rule does with them (ties go to the lower index and the lower shard), without the
/// sort and the heap: at K = 10^6 those took most of a shard's start.
///
/// # Panics
/// If `k` is 0 or above `u32::MAX`.
pub fn owners(costs: &[u64], k: usize) -> Vec<u32> {
    assert!(k > 0, "a partition needs at least one shard");
    assert!(u32::try_from(k).is_ok(), "at most 2^32 - 1 shards");
    if costs.windows(2).all(|w| w[0] == w[1]) {
        return (0..costs.len()).map(|i| (i % k) as u32).collect();
    }
    // u32 indices: a plan holds at most crate::split::MAX_SUBPROBLEMS (2^22) subproblems.
    let mut order: Vec<u32> = (0..costs.len() as u32).collect();
    order.sort_by_key(|&i| (Reverse(costs[i as usize]), i));
    // Min-heap of (load, shard): the least loaded shard, lowest number first on ties.
    let mut heap: BinaryHeap<Reverse<(u128, u32)>> = (0..k as u32).map(|s| Reverse((0, s))).collect();
    let mut owners = vec![0u32; costs.len()];
    for i in order {
        let Reverse((load, s)) = heap.pop().expect("the heap holds k shards");
        owners[i as usize] = s;
        heap.push(Reverse((load + costs[i as usize] as u128, s)));
    }
    owners
}

/// Returns the partition of subproblems `0..costs.len()` into `k` shards by greedy
/// longest-processing-time first on `costs` ([`owners`]): `shards[i]` lists shard i's
/// subproblem indices in increasing order. Every index is in exactly one shard; a shard is
/// empty when there are fewer subproblems than shards (K above the plan's subproblems).
///
/// # Panics
/// If `k` is 0 or above `u32::MAX`.
pub fn partition(costs: &[u64], k: usize) -> Vec<Vec<usize>> {
    let mut shards = vec![Vec::new(); k];
    for (i, s) in owners(costs, k).into_iter().enumerate() {
        shards[s as usize].push(i);
    }
    shards
}

/// Returns the partition of `plan`'s subproblems into `k` shards balanced by [`estimate`]d cost
/// (see [`partition`]).
///
/// # Panics
/// If `k` is 0.
pub fn assign(plan: &dyn Plan, k: usize) -> Vec<Vec<usize>> {
    let costs: Vec<u64> = (0..plan.len()).map(|i| estimate(plan, i)).collect();
    partition(&costs, k)
}

/// The bytes [`assign`] takes per subproblem while it runs: the cost, the order, the shard's
/// list (8 bytes each) and room for the lists' growth.
pub const ASSIGN_BYTES_PER_SUBPROBLEM: u64 = 40;

/// [`assign`], its memory ([`ASSIGN_BYTES_PER_SUBPROBLEM`] per subproblem: 63 MB for the 1.57
/// million subproblems of d4 at n = 63) checked first against the memory available
/// ([`nqueens::plan::reserve`]).
///
/// # Errors
/// [`Error::OutOfMemory`] if it does not fit.
///
/// # Panics
/// If `k` is 0.
pub fn try_assign(plan: &dyn Plan, k: usize) -> Result<Vec<Vec<usize>>, Error> {
    let owners = try_owners(plan, k)?;
    let mut shards = vec![Vec::new(); k];
    for (i, s) in owners.into_iter().enumerate() {
        shards[s as usize].push(i);
    }
    Ok(shards)
}

/// The subproblems of shard `index` of `k` of `plan` ([`try_assign`]`(plan, k)[index]`),
/// increasing, without the lists of the other shards (what one shard's process needs: at
/// K = 10^6 the lists of every shard took 24 MB more and a second).
///
/// # Errors
/// [`Error::OutOfMemory`] if the dealing does not fit.
///
/// # Panics
/// If `k` is 0 or `index` is not below `k`.
pub fn try_assign_one(plan: &dyn Plan, k: usize, index: usize) -> Result<Vec<usize>, Error> {
    assert!(index < k, "shard {index} of {k}");
    // A plan without prefixes costs 1 a subproblem ([`estimate`]): dealt round robin, as
    // [`owners`] deals equal costs, without a cost or an owner per subproblem (20 million of
    // each at n = 28 for a shard of 20). An empty plan (mirror at n = 2 and 3) deals nothing.
    if plan.is_empty() || plan.prefix(0).is_none() {
        return Ok((index..plan.len()).step_by(k).collect());
    }
    let owners = try_owners(plan, k)?;
    Ok(owners.into_iter().enumerate().filter(|&(_, s)| s as usize == index).map(|(i, _)| i).collect())
}

/// [`owners`] of `plan`'s [`estimate`]d costs, the memory checked first (see [`try_assign`]).
fn try_owners(plan: &dyn Plan, k: usize) -> Result<Vec<u32>, Error> {
    let bytes = ASSIGN_BYTES_PER_SUBPROBLEM.saturating_mul(plan.len() as u64);
    let what = || format!("dealing the {} subproblems of n = {} into {k} shards", plan.len(), plan.n());
    let mut costs: Vec<u64> = nqueens::plan::reserve(what, plan.len(), bytes)?;
    costs.extend((0..plan.len()).map(|i| estimate(plan, i)));
    Ok(owners(&costs, k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::algo::MirrorPlan;

    /// A plan without prefixes is dealt round robin without costs: the same shards the greedy
    /// rule deals its equal costs into.
    #[test]
    fn plans_without_prefixes_are_dealt_round_robin_as_owners_deals_them() {
        let d4 = nqueens::plan::D4Plan::new(14, 1).unwrap();
        let join = nqueens::algo::join::JoinPlan::new(12).unwrap();
        for plan in [&d4 as &dyn Plan, &join] {
            assert!(plan.prefix(0).is_none());
            let costs: Vec<u64> = (0..plan.len()).map(|i| estimate(plan, i)).collect();
            for k in [1, 2, 7, plan.len() + 3] {
                let owners = owners(&costs, k);
                for index in 0..k.min(9) {
                    let want: Vec<usize> = (0..plan.len()).filter(|&i| owners[i] as usize == index).collect();
                    assert_eq!(
                        try_assign_one(plan, k, index).unwrap(),
                        want,
                        "n = {} K = {k} shard {index}",
                        plan.n()
                    );
                }
            }
        }
    }

    #[test]
    fn shard_ids_parse() {
        assert_eq!("0/1".parse(), Ok(ShardId { index: 0, count: 1 }));
        assert_eq!("15/16".parse(), Ok(ShardId { index: 15, count: 16 }));
        assert_eq!("999999/1000000".parse(), Ok(ShardId { index: 999_999, count: 1_000_000 }));
        assert!("0/1000001".parse::<ShardId>().unwrap_err().contains("K <= 1000000"));
        assert!("3/3".parse::<ShardId>().unwrap_err().contains("out of range"));
        assert!("0/0".parse::<ShardId>().unwrap_err().contains("K = 0"));
        assert!("x".parse::<ShardId>().unwrap_err().contains("not of the form I/K"));
        assert!("1/".parse::<ShardId>().unwrap_err().contains("not of the form I/K"));
        assert!("-1/4".parse::<ShardId>().unwrap_err().contains("not of the form I/K"));
        assert_eq!(ShardId { index: 2, count: 7 }.to_string(), "2/7");
    }

    #[test]
    fn partition_covers_every_index_once_and_balances() {
        let costs: Vec<u64> = (0..1000u64).map(|i| 1 + (i * 7919) % 97).collect();
        for k in [1, 2, 3, 7, 16] {
            let shards = partition(&costs, k);
            let mut all: Vec<usize> = shards.concat();
            all.sort_unstable();
            assert_eq!(all, (0..1000).collect::<Vec<_>>(), "k = {k}");
            let loads: Vec<u64> = shards.iter().map(|s| s.iter().map(|&i| costs[i]).sum()).collect();
            let (max, min) = (*loads.iter().max().unwrap(), *loads.iter().min().unwrap());
            // LPT: no shard exceeds another by more than the largest single cost (97).
            assert!(max - min <= 97, "k = {k}: {loads:?}");
        }
        // More shards than subproblems: some shards are empty, none holds two.
        let shards = partition(&[5, 3], 3);
        assert_eq!(shards, vec![vec![0], vec![1], vec![]]);
    }

    #[test]
    fn the_partition_is_deterministic_and_ties_go_by_index() {
        let plan = MirrorPlan::new(12, 3).unwrap();
        assert_eq!(assign(&plan, 5), assign(&plan, 5));
        assert_eq!(partition(&[1, 1, 1, 1], 2), vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(try_assign_one(&plan, 5, 3).unwrap(), assign(&plan, 5)[3]);
    }

    /// The round-robin shortcut for equal costs deals exactly as the greedy rule does.
    #[test]
    fn equal_costs_go_round_robin_as_the_greedy_rule_deals_them() {
        let greedy = |costs: &[u64], k: usize| {
            let mut heap: BinaryHeap<Reverse<(u128, usize)>> = (0..k).map(|s| Reverse((0, s))).collect();
            let mut out = vec![0u32; costs.len()];
            for (i, &c) in costs.iter().enumerate() {
                let Reverse((load, s)) = heap.pop().unwrap();
                out[i] = s as u32;
                heap.push(Reverse((load + c as u128, s)));
            }
            out
        };
        for (m, k) in [(10, 3), (7, 7), (5, 9), (1000, 64), (0, 4)] {
            let costs = vec![3u64; m];
            assert_eq!(owners(&costs, k), greedy(&costs, k), "m = {m}, k = {k}");
        }
        // K = 10^6 over fewer subproblems: the first ones hold one each, the rest are empty.
        let shards = partition(&[1; 5], 1_000_000);
        assert_eq!((shards[4].clone(), shards[5].clone(), shards.len()), (vec![4], vec![], 1_000_000));
    }

    #[test]
    fn estimates_count_the_placements_two_rows_down() {
        // n = 6, depth 1: the row-0 queen in column 0 leaves row 1 columns 2..5 (4 squares);
        // below those, row 2 offers 2 ({4, 5}), 2 ({1, 5}), 1 ({1}) and 2 ({1, 3}) squares: 7
        // two-row extensions.
        let plan = MirrorPlan::new(6, 1).unwrap();
        assert_eq!(plan.prefix(0).unwrap().cols(), &[0]);
        assert_eq!(estimate(&plan, 0), 7);
        // Estimates match a brute-force count of two-row extensions on every subproblem.
        let plan = MirrorPlan::new(10, 2).unwrap();
        for i in 0..plan.len() {
            let p = plan.prefix(i).unwrap();
            let placed: Vec<u32> = p.cols().iter().map(|&c| c as u32).collect();
            let ok = |rows: &[u32]| {
                rows.iter().enumerate().all(|(r, &c)| {
                    rows[..r].iter().enumerate().all(|(r2, &c2)| {
                        c != c2 && (r as i64 - r2 as i64).abs() != (c as i64 - c2 as i64).abs()
                    })
                })
            };
            let mut brute = 0;
            for a in 0..10 {
                for b in 0..10 {
                    let mut rows = placed.clone();
                    rows.extend([a, b]);
                    brute += ok(&rows) as u64;
                }
            }
            assert_eq!(estimate(&plan, i), brute.max(1), "prefix {:?}", p.cols());
        }
    }

    #[test]
    fn shard_plans_depend_on_k_not_on_the_machine() {
        let a = shard_spec(Algorithm::Mirror, 16, 16).build().unwrap();
        let b = shard_spec(Algorithm::Mirror, 16, 16).build().unwrap();
        assert_eq!((a.len(), a.split_depth()), (b.len(), b.split_depth()));
        assert!(a.len() >= 256 * 16);
        let fixed =
            PlanSpec { split_depth: Some(2), ..shard_spec(Algorithm::Mirror, 16, 16) }.build().unwrap();
        assert_eq!(fixed.split_depth(), 2);
    }

    /// `shard_spec` builds the plan `shard_plan(algorithm, n, depth, K)` built: the algorithm's
    /// own plan for 8 × K threads (or at the given depth), the same length, depth and
    /// subproblems (their tallies) under the same indices.
    #[test]
    fn shard_specs_build_the_plans_shard_plan_built() {
        use nqueens::algo::D4Plan;
        for (n, k, depth) in [(14, 4, None), (13, 16, None), (12, 3, Some(3))] {
            let mirror =
                PlanSpec { split_depth: depth, ..shard_spec(Algorithm::Mirror, n, k) }.build().unwrap();
            let old_mirror = match depth {
                Some(d) => MirrorPlan::new(n, d),
                None => MirrorPlan::auto(n, THREADS_PER_SHARD * k),
            }
            .unwrap();
            let d4 = PlanSpec { split_depth: depth, ..shard_spec(Algorithm::D4, n, k) }.build().unwrap();
            let old_d4 = match depth {
                Some(d) => D4Plan::new(n, d),
                None => D4Plan::auto(n, THREADS_PER_SHARD * k),
            }
            .unwrap();
            let pairs: [(&dyn Plan, &dyn Plan); 2] = [(mirror.as_ref(), &old_mirror), (d4.as_ref(), &old_d4)];
            for (new, old) in pairs {
                assert_eq!(
                    (new.len(), new.split_depth()),
                    (old.len(), old.split_depth()),
                    "n = {n}, K = {k}"
                );
                for i in [0, new.len() / 3, new.len() / 2, new.len() - 1] {
                    assert_eq!(new.solve(i, true), old.solve(i, true), "n = {n}, K = {k}, subproblem {i}");
                    assert_eq!(new.multiple_of(i), old.multiple_of(i), "n = {n}, K = {k}, subproblem {i}");
                }
            }
        }
    }
}
