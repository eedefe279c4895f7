//! The estimator of the sample (step 3 of [`super`]'s docs): the stratified ratio estimator of
//! two-phase sampling, its variance, the spread between the sample's time-ordered parts, and
//! Student's t.

/// One counted group as the estimator sees it: its predictor x and a measured value y (CPU
/// seconds, or solutions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Obs {
    pub x: f64,
    pub y: f64,
}

/// A stratum of the weighed sample: how many groups it holds and their mean predictor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Weighed {
    pub count: usize,
    pub mean_x: f64,
}

/// The fewest observations a stratum keeps apart from its neighbours: with 2, the variance of
/// each stratum rested on one degree of freedom, and at n = 24, where a 5 s sample counts about
/// 15 units in up to 8 strata, 3 of 20 intervals of Q(24) missed it, each of the three narrower
/// than the others (±12% against ±19–44%); merged strata give a variance that counts the
/// differences between them too (collapsed strata, Cochran, *Sampling Techniques*, ch. 5A), wider and
/// steadier.
pub(super) const MIN_PER_STRATUM: usize = 4;

/// An estimate of a population total.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Total {
    /// The estimated total.
    pub value: f64,
    /// Its estimated variance.
    pub variance: f64,
    /// The strata used (after those counted fewer than [`MIN_PER_STRATUM`] times were merged
    /// into a neighbour).
    pub strata: usize,
    /// The residual degrees of freedom: the observations less the strata used.
    pub df: usize,
    /// The ratio R_h = Σy/Σx of each stratum as given (a merged stratum's for each of its
    /// parts), for the fitted values R_h·x.
    pub ratios: Vec<f64>,
    /// The part of `variance` from the first phase (the weighed sample's own error, the second
    /// term of [`total`]'s formula): the same in every part of the sample, so the spread
    /// between parts ([`chunk_variance`]) does not hold it.
    pub first_variance: f64,
    /// The rest of `variance`, from the second phase (the draws within their strata, the first
    /// term of [`total`]'s formula): what the spread between parts estimates too.
    pub second_variance: f64,
    /// The weight of each stratum as given in the estimate (a merged stratum's for each of its
    /// parts): W_h·x̄_h / Σx over its counted, so that Σ_h weight_h·Σy over its counted is the
    /// estimate over the population. A part of the sample weighed so is an estimate of the
    /// estimator's own form ([`chunk_variance`]).
    pub weights: Vec<f64>,
}

/// Returns the estimate of Σy over the `population` groups of a plan, from the strata of its
/// weighed sample (`weighed`, m groups in all, drawn uniformly without replacement) and the
/// observations counted in each (`counted[h]`): ȳ_h = (Σy/Σx)_h · x̄_h, total = population ·
/// Σ_h W_h·ȳ_h with W_h = m_h/m. Its variance (Cochran, *Sampling Techniques*, 3rd ed., §12.2
/// with the ratio residuals of §6.10):
///
/// population² · [Σ_h W_h²·s_dh²·(1/k_h − c/m_h) + (1/m − 1/population)·Σ_h W_h·(S_yh² + (ȳ_h − ȳ)²)],
///
/// with s_dh² the variance of the residuals y − R_h·x and S_yh² that of y among the k_h counted,
/// and c = 1 when the counted are drawn without replacement from the weighed (each once: the
/// solutions, exact when every group was counted), c = 0 as with replacement (the CPU times,
/// where a group timed twice is two draws and the draws' spread is to carry the timing noise
/// too: no finite-population correction takes it away).
/// Strata counted fewer than [`MIN_PER_STRATUM`] times are merged into a neighbour first.
pub(super) fn total(
    weighed: &[Weighed],
    counted: &[Vec<Obs>],
    population: usize,
    without_replacement: bool,
) -> Total {
    let m: usize = weighed.iter().map(|w| w.count).sum();
    // Merge each stratum counted fewer than MIN_PER_STRATUM times into the next, the last into
    // the one before:
    // (first original stratum, weighed count, Σ weighed x, observations) per group of strata.
    let mut groups: Vec<(usize, usize, f64, Vec<Obs>)> = Vec::new();
    for (h, (w, c)) in weighed.iter().zip(counted).enumerate() {
        match groups.last_mut() {
            Some(last) if last.3.len() < MIN_PER_STRATUM => {
                last.1 += w.count;
                last.2 += w.mean_x * w.count as f64;
                last.3.extend_from_slice(c);
            }
            _ => groups.push((h, w.count, w.mean_x * w.count as f64, c.clone())),
        }
    }
    if groups.len() > 1 && groups.last().is_some_and(|g| g.3.len() < MIN_PER_STRATUM) {
        let last = groups.pop().expect("two groups");
        let before = groups.last_mut().expect("one group");
        before.1 += last.1;
        before.2 += last.2;
        before.3.extend(last.3);
    }
    let sampled: usize = groups.iter().map(|g| g.3.len()).sum();
    if sampled == 0 || m == 0 {
        return Total {
            value: 0.0,
            variance: 0.0,
            strata: 0,
            df: 0,
            ratios: vec![0.0; weighed.len()],
            first_variance: 0.0,
            second_variance: 0.0,
            weights: vec![0.0; weighed.len()],
        };
    }
    let mut ratios = vec![0.0; weighed.len()];
    let mut weights = vec![0.0; weighed.len()];
    // Per group: (W_h, ȳ_h, s_dh², S_yh², k_h, m_h).
    let mut parts = Vec::with_capacity(groups.len());
    for (g, &(first, mh, sum_x, ref obs)) in groups.iter().enumerate() {
        let end = groups.get(g + 1).map_or(weighed.len(), |next| next.0);
        let k = obs.len();
        let (sx, sy) = obs.iter().fold((0.0, 0.0), |(a, b), o| (a + o.x, b + o.y));
        let ratio = if sx > 0.0 { sy / sx } else { 0.0 };
        ratios[first..end].fill(ratio);
        let mean_x = sum_x / mh.max(1) as f64;
        weights[first..end].fill(if sx > 0.0 { mh as f64 / m as f64 * mean_x / sx } else { 0.0 });
        let mean_y = sy / k as f64;
        let spread = |f: &dyn Fn(&Obs) -> f64| {
            if k < 2 { 0.0 } else { obs.iter().map(|o| f(o).powi(2)).sum::<f64>() / (k - 1) as f64 }
        };
        let s2 = spread(&|o| o.y - ratio * o.x);
        let sy2 = spread(&|o| o.y - mean_y);
        parts.push((mh as f64 / m as f64, ratio * mean_x, s2, sy2, k as f64, mh as f64));
    }
    let mean: f64 = parts.iter().map(|p| p.0 * p.1).sum();
    let c = if without_replacement { 1.0 } else { 0.0 };
    let second: f64 =
        parts.iter().map(|&(w, _, s2, _, k, mh)| w * w * s2 * (1.0 / k - c / mh).max(0.0)).sum();
    let between: f64 = parts.iter().map(|&(w, y, _, sy2, ..)| w * (sy2 + (y - mean).powi(2))).sum();
    let first = (1.0 / m as f64 - 1.0 / population as f64).max(0.0) * between;
    let big_n = population as f64;
    Total {
        value: mean * big_n,
        variance: big_n * big_n * (second + first),
        strata: groups.len(),
        df: sampled.saturating_sub(groups.len()),
        ratios,
        first_variance: big_n * big_n * first,
        second_variance: big_n * big_n * second,
        weights,
    }
}

/// Returns the variance of the speed factors of a sample's `chunks` consecutive parts in the
/// order counted (the random groups method, Wolter, *Introduction to Variance Estimation*, 2nd
/// ed., ch. 2): each draw is (measured y, fitted value R_h·x), both times its stratum's weight
/// in the estimate ([`Total::weights`]), so that each part is an estimate of the estimator's
/// own form, as the method asks; each part's factor is Σy/Σfitted over its draws; the result
/// has `chunks` − 1 degrees of freedom, and over `chunks` it is the relative variance of the
/// second phase of the whole sample's estimate. It holds the draws' sampling error and timing
/// noise like the analytic variance, and besides them the machine's speed changing during the
/// sample. (Unweighted, a part gave each stratum a weight in proportion to its draws' time, not
/// its share of the estimate: the 101 draws of `plan 28 --seed 3` in
/// results/2026-12-05-plan-predictor/ spread over random parts 0.76 times as much as the
/// estimator's variance says, weighted 0.94 times; results/2026-12-05-plan-parts/.) `None` with
/// fewer than 2 draws a part.
pub(super) fn chunk_variance(draws: &[(f64, f64)], chunks: usize) -> Option<f64> {
    if chunks < 2 || draws.len() < 2 * chunks {
        return None;
    }
    let factors: Vec<f64> = (0..chunks)
        .map(|c| {
            let part = &draws[c * draws.len() / chunks..(c + 1) * draws.len() / chunks];
            let (y, f) = part.iter().fold((0.0, 0.0), |(a, b), d| (a + d.0, b + d.1));
            if f > 0.0 { y / f } else { 1.0 }
        })
        .collect();
    let k = chunks as f64;
    let mean = factors.iter().sum::<f64>() / k;
    Some(factors.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (k - 1.0))
}

/// Returns the 0.975 quantile of Student's t with `df` degrees of freedom (the half-width of a
/// 95% interval in standard errors): the table of any statistics text to 30, then
/// 1.96 + 2.4/df (within 0.002 of the exact value); 1.96 for no degrees of freedom known
/// (df = 0 is taken as many: an estimate with no spread to measure is exact).
pub(super) fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => 1.96,
        1..=30 => TABLE[df - 1],
        _ => 1.96 + 2.4 / df as f64,
    }
}

/// Returns the 0.95 quantile of Snedecor's F with `d1` and `d2` degrees of freedom, the bar of a
/// one-sided test at 5% that a variance on `d1` degrees of freedom exceeds one on `d2`: Paulson's
/// approximation (*Annals of Mathematical Statistics* 13, 1942; the Wilson–Hilferty cube root
/// of each variance), within 2% of the tables' values for `d1` ≥ 3 and `d2` ≥ 5. Infinite for
/// `d1` or `d2` of 0 (no test).
pub(super) fn f95(d1: usize, d2: usize) -> f64 {
    if d1 == 0 || d2 == 0 {
        return f64::INFINITY;
    }
    const Z: f64 = 1.644_853_6;
    let (a, b) = (2.0 / (9.0 * d1 as f64), 2.0 / (9.0 * d2 as f64));
    // ((1 − b)·u − (1 − a)) = z·√(b·u² + a) for u = F^(1/3): the larger root of the square.
    let qa = (1.0 - b).powi(2) - Z * Z * b;
    let qb = -2.0 * (1.0 - a) * (1.0 - b);
    let qc = (1.0 - a).powi(2) - Z * Z * a;
    let disc = qb * qb - 4.0 * qa * qc;
    if qa <= 0.0 || disc < 0.0 {
        return f64::INFINITY;
    }
    ((-qb + disc.sqrt()) / (2.0 * qa)).powi(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(count: usize, mean_x: f64) -> Weighed {
        Weighed { count, mean_x }
    }

    /// Σ_h weight_h · Σy over stratum h's counted: the estimate over the population.
    fn weighted_sum(counted: &[Vec<Obs>], t: &Total) -> f64 {
        counted.iter().zip(&t.weights).map(|(c, w)| w * c.iter().map(|o| o.y).sum::<f64>()).sum()
    }

    /// y = 3x exactly: the estimate is 3·Σx scaled to the population, with no within-stratum
    /// error; counting every weighed group of a fully weighed plan without replacement is exact.
    #[test]
    fn a_ratio_estimate_on_known_values() {
        let weighed = [w(40, 2.0), w(40, 10.0)];
        let counted = vec![
            (0..10).map(|i| Obs { x: 1.0 + (i % 3) as f64, y: 3.0 * (1.0 + (i % 3) as f64) }).collect(),
            (0..5).map(|i| Obs { x: 9.0 + i as f64, y: 3.0 * (9.0 + i as f64) }).collect(),
        ];
        let t = total(&weighed, &counted, 8000, false);
        assert!((t.value - 8000.0 * 3.0 * 6.0).abs() < 1e-6 * t.value, "{t:?}");
        assert_eq!((t.strata, t.df, t.ratios.clone()), (2, 13, vec![3.0, 3.0]));
        // Each stratum's weight times its counted Σy, over the population, is the estimate.
        let weighted = weighted_sum(&counted, &t);
        assert!((weighted * 8000.0 - t.value).abs() < 1e-9 * t.value, "{t:?}");
        // y = 3x exactly: the second phase has no error, the first phase all of it.
        assert!(
            t.first_variance > 0.0 && t.first_variance == t.variance && t.second_variance == 0.0,
            "{t:?}"
        );
        // The between-strata term of the weighed sample's own error remains.
        assert!(t.variance > 0.0);
        // Everything weighed and counted once: exact.
        let all = [w(3, 2.0)];
        let obs = vec![vec![Obs { x: 1.0, y: 5.0 }, Obs { x: 2.0, y: 7.0 }, Obs { x: 3.0, y: 1.0 }]];
        let t = total(&all, &obs, 3, true);
        assert!((t.value - 13.0).abs() < 1e-9 && t.variance == 0.0, "{t:?}");
        // The same draws taken as with replacement keep their spread (the timing noise).
        assert!(total(&all, &obs, 3, false).variance > 0.0);
    }

    /// A stratum counted fewer than MIN_PER_STRATUM times is merged with its neighbour, and the
    /// ratios say so.
    #[test]
    fn strata_counted_too_few_times_are_merged() {
        let weighed = [w(10, 1.0), w(10, 2.0), w(10, 3.0)];
        let o = |x: f64, y: f64| Obs { x, y };
        let counted = vec![vec![o(1.0, 1.0)], vec![o(2.0, 4.0); 2], vec![o(3.0, 3.0)]];
        let t = total(&weighed, &counted, 30, true);
        assert_eq!(t.strata, 1, "{t:?}");
        let counted = vec![vec![o(1.0, 1.0); 4], vec![o(2.0, 4.0); 3], vec![o(3.0, 3.0)]];
        let t = total(&weighed, &counted, 30, true);
        assert_eq!((t.strata, t.ratios.clone()), (2, vec![1.0, 15.0 / 9.0, 15.0 / 9.0]), "{t:?}");
        // A merged stratum's weight stands for each of its parts: Σ weight·Σy is the estimate.
        let weighted = weighted_sum(&counted, &t);
        assert!((weighted * 30.0 - t.value).abs() < 1e-9 * t.value && t.weights[1] == t.weights[2], "{t:?}");
        // The last stratum too few: merged into the one before.
        let counted = vec![vec![o(1.0, 1.0); 4], vec![o(2.0, 4.0); 4], vec![o(3.0, 3.0); 2]];
        let t = total(&weighed, &counted, 30, true);
        let weighted = weighted_sum(&counted, &t);
        assert_eq!((t.strata, t.ratios[1] == t.ratios[2]), (2, true), "{t:?}");
        assert!((weighted * 30.0 - t.value).abs() < 1e-9 * t.value && t.weights[1] == t.weights[2], "{t:?}");
    }

    /// Parts at one speed have no spread; a machine twice as slow in the second half does.
    #[test]
    fn chunks_see_the_speed_drift() {
        let steady: Vec<(f64, f64)> = (0..40).map(|i| (1.0 + i as f64, 1.0 + i as f64)).collect();
        assert_eq!(chunk_variance(&steady, 4), Some(0.0));
        let drift: Vec<(f64, f64)> = (0..40).map(|i| (if i < 20 { 1.0 } else { 2.0 }, 1.0)).collect();
        let v = chunk_variance(&drift, 4).unwrap();
        // Factors 1, 1, 2, 2: variance 1/3.
        assert!((v - 1.0 / 3.0).abs() < 1e-12, "{v}");
        assert_eq!(chunk_variance(&drift[..7], 4), None);
    }

    /// Paulson's F against the tables (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.3).
    #[test]
    fn snedecor_f_quantiles() {
        for (d1, d2, table) in [
            (9, 5, 4.772),
            (9, 10, 3.020),
            (9, 20, 2.393),
            (9, 30, 2.211),
            (9, 60, 2.040),
            (9, 120, 1.959),
            (3, 10, 3.708),
            (5, 40, 2.449),
        ] {
            let f = f95(d1, d2);
            assert!((f / table - 1.0).abs() < 0.02, "F({d1}, {d2}) = {f}, the tables say {table}");
        }
        assert!(f95(9, 1000) > 1.87 && f95(9, 1000) < 1.90);
        assert_eq!(f95(0, 10), f64::INFINITY);
        assert_eq!(f95(9, 0), f64::INFINITY);
    }

    #[test]
    fn student_t_quantiles() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(9), 2.262);
        assert!((t975(60) - 2.000).abs() < 0.002 && (t975(120) - 1.980).abs() < 0.002);
        assert_eq!(t975(0), 1.96);
    }
}
