//! The weights of subproblems: estimated sizes of their search trees, which the mirror and d4
//! plans give the runner ([`crate::Plan::weight`]) so that its progress and ETA hold when
//! subproblems differ 100-fold. The join weighs its units by its own cost model
//! (`join/cost.rs`), from the same board size [`WEIGHTS_FROM`].

/// Random root-to-leaf paths per subproblem that the mirror and d4 plans' weights
/// ([`crate::Plan::weight`]) average: with 128 paths the estimate's logarithm correlated 0.92–0.95
/// with the subproblem's CPU time (mirror n = 16–17 at depth 4, d4 n = 16–18 at depth 1, every
/// subproblem timed); 64 halve the cost (about 5 µs a subproblem at n = 18).
pub const WEIGHT_PATHS: u32 = 64;

/// The power of the estimated tree size that the mirror and d4 weights take: a subproblem's CPU
/// time grew as the 0.85–0.86th power of its [`tree_size`] (log–log least squares over every
/// subproblem of mirror n = 16–17 and d4 n = 16–18); bigger trees are pruned more by the
/// look-ahead. In a replay of those runs' measured times it cut the ETA's worst error from 50%
/// to 95% of the run from 9.3% to 7.2% (d4 n = 18) and from 1.4% to 0.8% (mirror n = 17).
pub const WEIGHT_POWER: f64 = 0.86;

/// Returns the weight of a subproblem whose search tree is estimated at `tree_size` nodes:
/// its [`WEIGHT_POWER`]th power.
pub fn weight_of_tree(tree_size: f64) -> f64 {
    tree_size.powf(WEIGHT_POWER)
}

/// Random paths a plan's weights may take in all (about 0.6 s of one core at ~30 rows a path):
/// a plan of more than 65,536 subproblems takes fewer per subproblem ([`weight_paths`]).
pub const WEIGHT_BUDGET: usize = 1 << 22;

/// The smallest board whose plans weigh their subproblems ([`crate::Plan::weight`]): below it
/// a count takes seconds at most, and weighing cost more than it gave (1.5% of the CPU time of
/// mirror n = 16, 6% of d4's, 3% of the join's, one thread; about 7 times less per step of n),
/// while every weight 1 in the runner's shuffled order keeps the ETA within 10% anyway.
pub const WEIGHTS_FROM: u32 = 17;

/// Returns the random paths per subproblem of the weights of a plan of `subproblems`
/// subproblems of the `n`×`n` board: [`WEIGHT_PATHS`], fewer where [`WEIGHT_BUDGET`] would be
/// exceeded, and 0 (every weight 1) below [`WEIGHTS_FROM`] or where the budget would leave
/// fewer than 16: the estimate's heavy tail would then add more noise than it takes away, and
/// plans that large (d4 from n = 23: 281,098 subproblems) are sampled evenly enough by the
/// runner's shuffled order alone.
pub fn weight_paths(n: u32, subproblems: usize) -> u32 {
    let paths = (WEIGHT_BUDGET / subproblems.max(1)).min(WEIGHT_PATHS as usize) as u32;
    if paths < 16 || n < WEIGHTS_FROM { 0 } else { paths }
}

/// Returns an unbiased estimate of the number of nodes of the search tree below `root` (the
/// root included), by D. E. Knuth's random probing ("Estimating the efficiency of backtrack
/// programs", Math. Comp. 29, 1975): along a path that takes a uniformly random child at each
/// node, the products d₀, d₀d₁, d₀d₁d₂, … of the numbers of children add up to an unbiased
/// estimate of the tree's size; `paths` such paths are averaged. The random choices come from
/// xorshift64 seeded by `seed`, so the estimate is a pure function of its arguments.
///
/// `children(node)` returns the node's children as the set bits of a mask (0 for a leaf);
/// `child(node, bit)` returns the child of that bit.
pub fn tree_size<S>(
    root: S,
    paths: u32,
    seed: u64,
    mut children: impl FnMut(&S) -> u64,
    mut child: impl FnMut(&S, u64) -> S,
) -> f64
where
    S: Copy,
{
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut total = 0.0;
    for _ in 0..paths {
        let (mut node, mut product, mut sum) = (root, 1.0f64, 1.0f64);
        loop {
            let mut free = children(&node);
            if free == 0 {
                break;
            }
            let degree = free.count_ones();
            product *= f64::from(degree);
            sum += product;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            for _ in 0..rng % u64::from(degree) {
                free &= free - 1;
            }
            node = child(&node, free & free.wrapping_neg());
        }
        total += sum;
    }
    total / f64::from(paths.max(1))
}

/// Returns Spearman's rank correlation of `pairs` (x, y), ties broken by position: for tests
/// of how well an estimate orders what it estimates.
#[cfg(test)]
pub(crate) fn rank_correlation(pairs: &[(f64, f64)]) -> f64 {
    let ranks = |key: &dyn Fn(&(f64, f64)) -> f64| {
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by(|&a, &b| key(&pairs[a]).total_cmp(&key(&pairs[b])));
        let mut rank = vec![0.0; pairs.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r as f64;
        }
        rank
    };
    let (rx, ry) = (ranks(&|p| p.0), ranks(&|p| p.1));
    let m = pairs.len() as f64;
    let d2: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - b).powi(2)).sum();
    1.0 - 6.0 * d2 / (m * (m * m - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_sizes_are_exact_on_uniform_trees_and_close_on_queens() {
        // A tree where every node at depth d < 3 has 4 children: 1 + 4 + 16 + 64 = 85 nodes,
        // whatever path is taken.
        let uniform = tree_size(0u32, 5, 1, |&d| if d < 3 { 0b1111 } else { 0 }, |&d, _| d + 1);
        assert_eq!(uniform, 85.0);
        // The unpruned 8-queens tree has 2,057 nodes (the empty board and every partial
        // placement); 20,000 paths land within 5%, and the same seed gives the same estimate.
        let full = crate::kernel::full_mask(8);
        let free = |&(c, l, r): &(u64, u64, u64)| full & !(c | l | r);
        let place = |&(c, l, r): &(u64, u64, u64), b: u64| (c | b, (l | b) << 1, (r | b) >> 1);
        let mut exact = 0u64;
        fn nodes(full: u64, c: u64, l: u64, r: u64, count: &mut u64) {
            *count += 1;
            let mut f = full & !(c | l | r);
            while f != 0 {
                let b = f & f.wrapping_neg();
                f ^= b;
                nodes(full, c | b, (l | b) << 1, (r | b) >> 1, count);
            }
        }
        nodes(full, 0, 0, 0, &mut exact);
        assert_eq!(exact, 2057);
        let estimate = tree_size((0, 0, 0), 20_000, 7, free, place);
        assert!((estimate / exact as f64 - 1.0).abs() < 0.05, "{estimate}");
        assert_eq!(estimate, tree_size((0, 0, 0), 20_000, 7, free, place));
    }
}
