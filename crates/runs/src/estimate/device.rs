//! The estimate of a plan's wall-clock time on a [`nqueens::Counter`]'s devices (GPUs), from
//! groups of subproblems each timed as one run ([`device_time`]).

use std::time::Duration;

use nqueens::plan::Plan;

use super::sample::{draw, xorshift};

/// The most groups of equal size a device sample counts once its size is found
/// ([`device_time`]); it stops after the second once the budget is spent.
pub const DEVICE_GROUPS: usize = 8;

/// An estimate of the wall-clock time of counting every subproblem of a plan on a
/// [`nqueens::Counter`]'s devices (and CPU threads, if it has any), from [`device_time`].
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceEstimate {
    /// The plan's number of subproblems N.
    pub subproblems: usize,
    /// How many were counted, calibration included.
    pub sampled: usize,
    /// The subproblems of each group (0 when every subproblem was counted in the calibration).
    pub group_size: usize,
    /// The groups counted at that size: 2 to [`DEVICE_GROUPS`] (0 when every subproblem was
    /// counted in the calibration).
    pub groups: usize,
    /// The estimated wall-clock seconds of all N subproblems on the counter.
    pub seconds: f64,
    /// Its standard error (0 when every subproblem was counted).
    pub std_error: f64,
    /// The low end of its 95% interval (Student's t for the groups less one degrees of
    /// freedom): the sampling error and the device's own variation between groups, not other
    /// devices.
    pub low: f64,
    /// The high end of its 95% interval.
    pub high: f64,
    /// The wall-clock seconds the sample took.
    pub sample_seconds: f64,
}

/// Returns the estimated wall-clock time of counting all of `plan` on `counter` (its devices,
/// such as GPUs, and its CPU threads), from random subproblems (drawn with the xorshift
/// generator seeded by `seed`, without replacement) counted on it for about `budget`.
///
/// A device counts many subproblems at once and times none of them alone, so the sample is
/// counted in groups, each one run of the counter timed by the wall clock: first groups of 1,
/// 4, 16, … subproblems until one takes 1/16 of the budget (a group too small to fill the
/// device would say a subproblem costs more than it does in a whole count; these groups are
/// not used, but the last, which is the first group of its size), then up to
/// [`DEVICE_GROUPS`] groups of that size, each of which estimates the whole as its time × N /
/// its size, stopping after the second once `budget` is spent (issue 40: where one subproblem
/// takes longer than the budget, 8 of them at n = 22 on pocl took 170 s for 2). The estimate is
/// their mean, its standard error their spread over √g (sampling error and the device's own
/// variation between groups; ramp-up of each launch series is in every group). A plan that the
/// calibration counts whole is timed as counted.
///
/// # Errors
/// The counter's device errors ([`nqueens::plan::Outcome::failure`]).
pub fn device_time(
    plan: &dyn Plan,
    counter: &nqueens::Counter,
    budget: Duration,
    seed: u64,
) -> Result<DeviceEstimate, nqueens::Error> {
    let n = plan.len();
    let budget = budget.as_secs_f64();
    let mut next = xorshift(seed);
    // A random order of up to 2^22 subproblems (more than any sample counts at n <= 30).
    let order = draw(n, n.min(1 << 22), &mut next);
    let start = std::time::Instant::now();
    let run = |ids: &[usize]| -> Result<f64, nqueens::Error> {
        let t0 = std::time::Instant::now();
        let out = counter.run(plan, nqueens::plan::Job { only: Some(ids), ..nqueens::plan::Job::default() });
        match out.failure {
            Some(e) => Err(e),
            None => Ok(t0.elapsed().as_secs_f64()),
        }
    };
    let (mut pos, mut size, mut spent) = (0usize, 1usize, 0.0);
    // The last calibration group, when it is of the groups' size: (its seconds, its size).
    let mut calibrated = None;
    loop {
        if pos + size * (DEVICE_GROUPS + 1) > order.len() {
            if order.len() < n {
                break; // the groups at this size still fit N, drawn or not: go on at `size`
            }
            // Every subproblem fits the sample: counted (in pieces), and timed as counted.
            spent += run(&order[pos..])?;
            let sample_seconds = start.elapsed().as_secs_f64();
            return Ok(DeviceEstimate {
                subproblems: n,
                sampled: n,
                group_size: 0,
                groups: 0,
                seconds: spent,
                std_error: 0.0,
                low: spent,
                high: spent,
                sample_seconds,
            });
        }
        let t = run(&order[pos..pos + size])?;
        (pos, spent) = (pos + size, spent + t);
        if t >= budget / (2.0 * DEVICE_GROUPS as f64) {
            calibrated = Some((t, size));
            break;
        }
        size *= 4;
    }
    let size = size.min((order.len() - pos) / DEVICE_GROUPS).max(1);
    let mut estimates = Vec::with_capacity(DEVICE_GROUPS);
    if let Some((t, _)) = calibrated.filter(|&(_, s)| s == size) {
        estimates.push(t * n as f64 / size as f64);
    }
    while estimates.len() < DEVICE_GROUPS && pos < order.len() {
        if estimates.len() >= 2 && start.elapsed().as_secs_f64() >= budget {
            break;
        }
        let ids = &order[pos..(pos + size).min(order.len())];
        let t = run(ids)?;
        estimates.push(t * n as f64 / ids.len() as f64);
        pos += ids.len();
    }
    let g = estimates.len() as f64;
    let mean = estimates.iter().sum::<f64>() / g;
    let var = estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (g - 1.0).max(1.0);
    let std_error = (var / g).sqrt();
    let half = super::stats::t975(estimates.len() - 1) * std_error;
    Ok(DeviceEstimate {
        subproblems: n,
        sampled: pos,
        group_size: size,
        groups: estimates.len(),
        seconds: mean,
        std_error,
        low: (mean - half).max(0.0),
        high: mean + half,
        sample_seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::algo::MirrorPlan;

    /// On a counter without devices (the runner's CPU threads stand in for one): a plan the
    /// calibration covers is counted whole and timed as counted; a larger one gives 8 groups of
    /// one size, each a random part of the plan, and an estimate with a spread. (How close the
    /// estimate comes is for the plan command's figures, results/2026-12-03-gpu/: a timed test
    /// on a shared machine said 16 s for 0.11 s once, from groups of 4 subproblems.)
    #[test]
    fn a_device_sample_counts_groups_or_everything() {
        let counter =
            nqueens::Counter::new(&nqueens::CountOptions { threads: 1, ..Default::default() }).unwrap();
        let small = MirrorPlan::new(8, 2).unwrap();
        let e = device_time(&small, &counter, Duration::from_secs(60), 3).unwrap();
        assert_eq!((e.sampled, e.group_size, e.std_error), (small.len(), 0, 0.0), "{e:?}");
        assert!(e.seconds > 0.0 && e.seconds <= e.sample_seconds, "{e:?}");
        let plan = nqueens::algo::D4Plan::new(15, 3).unwrap();
        let e = device_time(&plan, &counter, Duration::from_millis(20), 3).unwrap();
        assert!(e.group_size > 0 && e.sampled < plan.len(), "{e:?}");
        assert!(e.sampled >= e.groups * e.group_size && (2..=DEVICE_GROUPS).contains(&e.groups), "{e:?}");
        assert!(e.seconds.is_finite() && e.seconds > 0.0 && e.std_error.is_finite(), "{e:?}");
    }
}
