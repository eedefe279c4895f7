//! The output of `nqueens plan` ([`crate::cmd::plan`]): a [`PlanReport`] written as aligned
//! `label: value` lines or as one JSON object ([`PlanFormat`]).

use std::io::{self, Write};

use nqueens_runs::estimate::{self, CpuEstimate, DeviceEstimate, Narrowing};

use super::PlanFormat;
use crate::cli::MAX_SAMPLE_SECONDS;

/// What `nqueens plan` found and suggests, as its formats write it.
pub struct PlanReport {
    /// The board side.
    pub n: u32,
    /// The number of shards K.
    pub shards: usize,
    /// The worker threads of each shard process.
    pub threads: usize,
    /// The plan's algorithm (what `auto` resolved to).
    pub algorithm: nqueens::Algorithm,
    /// Whether `auto` chose the algorithm on this machine.
    pub chosen_by_auto: bool,
    /// The instruction-set level the sample counted at.
    pub level: nqueens::arch::Level,
    /// The plan's number of subproblems.
    pub subproblems: usize,
    /// The plan's split depth.
    pub split_depth: u32,
    /// The memory per process, in MiB.
    pub memory_mib: u64,
    /// The `--mem` request suggested for it (the memory and a quarter more).
    pub mem_request: String,
    /// The setup seconds per process: building the plan (and opening the devices).
    pub setup_seconds: f64,
    /// Of those, the seconds opening the devices took.
    pub open_seconds: f64,
    /// The CPU time (the setup included) and the solutions estimated from a sample, if one was
    /// counted on the CPU.
    pub cpu: Option<CpuEstimate>,
    /// The board's solutions as the OEIS knows them (A000170, n <= 27), for a check of the
    /// estimate.
    pub known: Option<u128>,
    /// The half-width of the CPU interval budgeted for, a fraction of the estimate
    /// (`--precision`).
    pub precision: f64,
    /// What a larger budget would do for the CPU interval asked to narrow to ± `precision`
    /// ([`CpuEstimate::narrowing`]) and the budget it scales (the `--sample-seconds` given, or
    /// what the sample's fewest groups took a thread if more), where there is a CPU estimate.
    pub narrowing: Option<(Narrowing, f64)>,
    /// The CPU sample's seed.
    pub seed: Option<u64>,
    /// The threads the CPU sample counted on.
    pub sample_threads: Option<usize>,
    /// Why the CPU time was not estimated, where a budget was given but too short.
    pub unsampled: Option<String>,
    /// The device time estimated from a sample counted on devices, their names and its seed.
    pub device: Option<(DeviceEstimate, Vec<String>, u64)>,
    /// The wall-clock seconds of each shard on such devices, with its setup.
    pub device_shard_seconds: Option<f64>,
    /// The suggested `--time` of each shard, in seconds.
    pub time_limit: Option<f64>,
    /// The `scripts/slurm-shards.sh` command line.
    pub sbatch: String,
    /// The `scripts/parallel-shards.sh` command line.
    pub parallel: String,
    /// The job arrays K tasks take at Slurm's default `MaxArraySize`.
    pub arrays: usize,
    /// What the plan says of them.
    pub arrays_note: String,
    /// The shards that count nothing (K beyond the subproblems).
    pub empty: usize,
}

/// Writes `r` to `out` in `format`.
///
/// # Errors
/// The first write error.
pub fn write_plan(out: &mut impl Write, format: PlanFormat, r: &PlanReport) -> io::Result<()> {
    match format {
        PlanFormat::Json => write_json(out, r),
        PlanFormat::Text => write_text(out, r),
    }
}

/// Returns an estimated count as JSON: a whole number while it fits a u64, else the nearest
/// double (Q(29) is about 2.5 · 10^19, past u64's 1.8 · 10^19, where `serde_json::Value` holds
/// no integer and `plan 29 --format json` panicked).
fn json_count(x: f64) -> serde_json::Value {
    let r = x.round();
    if (0.0..u64::MAX as f64).contains(&r) { serde_json::json!(r as u64) } else { serde_json::json!(r) }
}

/// Writes `r` as one JSON object on one line.
fn write_json(out: &mut impl Write, r: &PlanReport) -> io::Result<()> {
    let solutions = r.cpu.as_ref().and_then(|c| c.solutions.as_ref());
    // In parts, each under the `json!` macro's recursion limit.
    let mut value = serde_json::json!({
        "n": r.n,
        "shards": r.shards,
        "algorithm": r.algorithm.name(),
        "isa": r.level.isa().name(),
        "split_depth": r.split_depth,
        "subproblems": r.subproblems,
        "memory_mib": r.memory_mib,
        "setup_seconds": r.setup_seconds,
        "cpu_seconds": r.cpu.as_ref().map(|c| c.cpu_seconds),
        "cpu_seconds_std_error": r.cpu.as_ref().map(|c| c.std_error),
        "cpu_seconds_low": r.cpu.as_ref().map(|c| c.low),
        "cpu_seconds_high": r.cpu.as_ref().map(|c| c.high),
        "speed_spread": r.cpu.as_ref().map(|c| c.speed_spread),
        "cpu_not_estimated": r.unsampled,
        "cpu_core_years": r.cpu.as_ref().map(|c| c.cpu_seconds / YEAR),
    });
    // (seconds for the precision, floor, why unreachable), each where it applies.
    let (seconds, floor, unreachable) = match r.narrowing {
        Some((Narrowing::Budget(f), budget)) => (Some(f * budget), None, None),
        Some((Narrowing::Floor(f), _)) => (None, Some(f), Some("speed_allowance")),
        Some((Narrowing::Exhausted, _)) => (None, None, Some("whole_plan_counted")),
        Some((Narrowing::FirstSteps, _)) => (None, None, Some("first_steps")),
        Some((Narrowing::Within, _)) | None => (None, None, None),
    };
    let precision = serde_json::json!({
        "precision": r.precision,
        "sample_seconds_for_precision": seconds,
        "precision_reachable": r.narrowing.map(|_| unreachable.is_none()),
        "precision_floor": floor,
        "precision_unreachable": unreachable,
    });
    let sample = serde_json::json!({
        "solutions": solutions.map(|q| json_count(q.solutions)),
        "solutions_std_error": solutions.map(|q| q.std_error),
        "solutions_low": solutions.map(|q| json_count(q.low)),
        "solutions_high": solutions.map(|q| json_count(q.high)),
        "solutions_exact": solutions.and_then(|q| q.exact).map(|e| u64::try_from(e).map_or_else(|_| json_count(e as f64), serde_json::Value::from)),
        "solutions_known": r.known,
        "solutions_not_estimated": r.cpu.as_ref().filter(|c| c.solutions.is_none()).map(|_| UNESTIMATED),
        "ns_per_solution": r.cpu.as_ref().and_then(ns_per_solution),
        "sampled": r.cpu.as_ref().map(|c| c.sampled),
        "timed": r.cpu.as_ref().map(|c| c.timed),
        "group_size": r.cpu.as_ref().map(|c| c.group_size),
        "seed": r.seed,
        "sample_threads": r.sample_threads,
        "weighed": r.cpu.as_ref().map(|c| c.weighed),
        "strata": r.cpu.as_ref().map(|c| c.strata),
        "sampled_share_counted": r.cpu.as_ref().map(|c| c.counted_share),
        "other_load_cpus": r.cpu.as_ref().and_then(|c| c.other_load),
    });
    let recipes = serde_json::json!({
        "time_limit_seconds": r.time_limit,
        "sbatch": r.sbatch,
        "slurm_arrays_at_default_max_array_size": r.arrays,
        "empty_shards": r.empty,
        "parallel": r.parallel,
        "devices": r.device.as_ref().map(|d| &d.1),
        "device_seconds": r.device.as_ref().map(|d| d.0.seconds),
        "device_seconds_std_error": r.device.as_ref().map(|d| d.0.std_error),
        "device_seconds_low": r.device.as_ref().map(|d| d.0.low),
        "device_seconds_high": r.device.as_ref().map(|d| d.0.high),
        "device_sampled": r.device.as_ref().map(|d| d.0.sampled),
        "device_group_size": r.device.as_ref().map(|d| d.0.group_size),
        "device_groups": r.device.as_ref().map(|d| d.0.groups),
        "device_seed": r.device.as_ref().map(|d| d.2),
        "device_seconds_per_shard": r.device_shard_seconds,
    });
    if let (Some(all), Some(precision), Some(sample), Some(recipes)) =
        (value.as_object_mut(), precision.as_object(), sample.as_object(), recipes.as_object())
    {
        all.extend(precision.iter().chain(sample).chain(recipes).map(|(k, v)| (k.clone(), v.clone())));
    }
    writeln!(out, "{value}")
}

/// Writes `r` as aligned `label: value` lines.
fn write_text(out: &mut impl Write, r: &PlanReport) -> io::Result<()> {
    let PlanReport {
        n,
        shards: k,
        threads,
        algorithm,
        level,
        subproblems,
        split_depth,
        memory_mib,
        setup_seconds,
        open_seconds,
        cpu,
        seed,
        sample_threads,
        unsampled,
        device,
        sbatch,
        parallel,
        empty,
        ..
    } = r;
    let (resolved, mem_request, arrays_note) = (algorithm.name(), &r.mem_request, &r.arrays_note);
    let how = if r.chosen_by_auto { " (chosen by auto on this machine)" } else { "" };
    match device {
        Some((_, names, _)) => {
            writeln!(out, "board:        n = {n}, K = {k} shard(s) on {}", names.join(","))?
        }
        None => writeln!(out, "board:        n = {n}, K = {k} shard(s) of {threads} thread(s)")?,
    }
    writeln!(out, "algorithm:    {resolved}{how}")?;
    if device.is_none() {
        writeln!(out, "isa:          {level} (the CPU time below is for this level on this machine)")?;
    }
    writeln!(
        out,
        "subproblems:  {} (about {} per shard), split depth {}",
        subproblems,
        subproblems.div_ceil(*k),
        split_depth
    )?;
    writeln!(out, "memory:       about {memory_mib} MiB per process (request --mem {mem_request})")?;
    if device.is_some() {
        writeln!(
            out,
            "setup:        {setup_seconds:.2} s per process (opening the devices: {open_seconds:.2} s; building the plan)"
        )?;
    } else {
        writeln!(out, "setup:        {setup_seconds:.2} s per process (building the plan)")?;
    }
    if let Some((e, names, seed)) = &device {
        write_device(out, e, &names.join(","), *k, *setup_seconds, *seed)?;
    }
    match cpu {
        _ if device.is_some() => {}
        Some(c) => {
            write_cpu(out, r, c)?;
            write_precision(out, r, c)?;
            if let (Some(seed), Some(t)) = (seed, sample_threads) {
                let load = c
                    .other_load
                    .map_or(String::new(), |l| format!(", other processes kept {l:.1} CPUs busy"));
                let speed = if !c.sees_speed() {
                    "too few groups were timed to see this machine's speed vary".to_string()
                } else if c.speed_spread > 0.0 {
                    format!(
                        "this machine's speed varied by {} between the sample's parts",
                        percent(c.speed_spread)
                    )
                } else {
                    "this machine's speed varied no more than the sampling error between the sample's parts"
                        .to_string()
                };
                let load = format!(
                    "; meanwhile {speed}{load}: the CPU interval allows for that (at least {}), not for other load later",
                    percent(estimate::MACHINE_SPREAD)
                );
                writeln!(
                    out,
                    "sample:       seed {seed}, on {t} thread(s) (--seed {seed} draws the same subproblems in the same order; how many fit the budget varies with the machine){load}"
                )?;
            }
        }
        None => match unsampled {
            Some(why) => writeln!(out, "CPU time:     {why}")?,
            None => writeln!(out, "CPU time:     not estimated (--sample-seconds 0)")?,
        },
    }
    if *empty > 0 {
        writeln!(
            out,
            "empty:        {empty} shard(s): K exceeds the {} subproblems, so shards {}..{} count nothing (each still writes a result, which merge needs)",
            subproblems,
            subproblems,
            k - 1
        )?;
    }
    writeln!(out, "slurm:        {sbatch}")?;
    if let Some(t) = r.time_limit.filter(|&t| t > MAX_TIME_LIMIT) {
        writeln!(
            out,
            "time limit:   none suggested: each shard would need about {} years; more shards make them shorter",
            {
                let years = t / YEAR;
                if years < 1e6 { format!("{years:.0}") } else { format!("{years:.1e}") }
            }
        )?;
    }
    writeln!(out, "arrays:       {arrays_note}")?;
    writeln!(out, "parallel:     {parallel}")?;
    Ok(())
}

/// Writes the precision line of the text format for `r`'s estimate `c`, where its CPU interval
/// is wider than `--precision`: about how many `--sample-seconds` would narrow it to that, or
/// why none would.
fn write_precision(out: &mut impl Write, r: &PlanReport, c: &CpuEstimate) -> io::Result<()> {
    let Some((narrowing, budget)) = r.narrowing else { return Ok(()) };
    // The CPU line's ±, and the target as asked (10.5 → "10.5%").
    let now = format!("{:.1}%", 50.0 * (c.high - c.low) / c.cpu_seconds.max(f64::MIN_POSITIVE));
    let want =
        format!("{}%", format!("{:.2}", 100.0 * r.precision).trim_end_matches('0').trim_end_matches('.'));
    let head = format!("precision:    the CPU interval is ±{now}");
    match narrowing {
        Narrowing::Within => Ok(()),
        Narrowing::Budget(f) => {
            let seconds = f * budget;
            let beyond = if seconds > MAX_SAMPLE_SECONDS {
                format!(", beyond the {MAX_SAMPLE_SECONDS} that --sample-seconds takes")
            } else {
                String::new()
            };
            writeln!(
                out,
                "{head}; about --sample-seconds {} would narrow it to ±{want}{beyond} (the sampling error falls as the square root of the budget)",
                two_figures(seconds)
            )
        }
        Narrowing::Floor(floor) => writeln!(
            out,
            "{head}; no budget narrows it to ±{want}: about ±{} is as narrow as it gets here, for the machine's speed does not average out with more seconds (an allowance of {} a standard deviation, times Student's t at 95%, and what the sample's ten parts varied beyond their sampling error)",
            percent(floor),
            percent(c.speed_spread.max(estimate::MACHINE_SPREAD))
        ),
        Narrowing::Exhausted => writeln!(
            out,
            "{head}; no budget narrows it to ±{want}: the sample counted the whole plan {} times within its budget, and more seconds count nothing more",
            estimate::PASSES
        ),
        Narrowing::FirstSteps => writeln!(
            out,
            "{head}; no budget is known to narrow it to ±{want}: its subproblems were counted by their first steps, an error that more seconds do not shrink as the square root of the budget"
        ),
    }
}

/// Returns `seconds` rounded up to two significant figures (0.399 as "0.40", 1363 as "1400").
fn two_figures(seconds: f64) -> String {
    let e = seconds.max(1e-9).log10().floor() as i32;
    let unit = 10f64.powi(e - 1);
    let rounded = (seconds / unit).ceil() * unit;
    let decimals = (1 - e).max(0) as usize;
    format!("{rounded:.decimals$}")
}

/// Writes the CPU time and solutions lines of the text format for `r`'s estimate `c`: the
/// plan's algorithm says what a subproblem counted in part stands for.
fn write_cpu(out: &mut impl Write, r: &PlanReport, c: &CpuEstimate) -> io::Result<()> {
    let PlanReport { n, shards: k, threads, algorithm, known, .. } = *r;
    let strata = if c.strata > 1 {
        format!(" in {} strata by cost estimate ({} weighed)", c.strata, c.weighed)
    } else {
        String::new()
    };
    let groups = if c.group_size > 1 {
        format!("{} groups of up to {} neighbours timed{strata}", c.timed, c.group_size)
    } else {
        format!("{} timed{strata}", c.timed)
    };
    let sampled = if c.every_subproblem_counted() {
        format!("every subproblem counted, {groups}")
    } else {
        format!("from {} of {} subproblems, {groups}", c.sampled, c.subproblems)
    };
    // Subproblems too long for the budget were counted in part and extrapolated: say how little,
    // and whether the part stands for the whole (the join's random share of its matcher's
    // blocks, unbiased for time and solutions) or is only the first steps (mirror's and d4's
    // prefixes in lexicographic order).
    let sampled = match (c.counted_share < 1.0, algorithm) {
        (false, _) => sampled,
        (true, nqueens::Algorithm::Join) => format!(
            "{sampled}, each counted for its share of --sample-seconds only: {} of their work on average (the setup whole, then a random share of the matcher's blocks, unbiased for time and solutions)",
            percent(c.counted_share)
        ),
        (true, _) => format!(
            "{sampled}, each counted for its share of --sample-seconds only: {} of their work on average (their first steps), so a rough estimate",
            percent(c.counted_share)
        ),
    };
    writeln!(
        out,
        "CPU time:     {} on one core of this machine (setup {} included), {}, {sampled}",
        human(c.cpu_seconds),
        human(c.setup_seconds),
        interval(c.cpu_seconds, c.low, c.high, human)
    )?;
    if let Some(line) = core_years(c) {
        writeln!(out, "{line}")?;
    }
    write_solutions(out, n, c, known)?;
    writeln!(
        out,
        "per shard:    about {} wall-clock on {threads} thread(s), if threads scale",
        human((c.cpu_seconds - c.setup_seconds) / k as f64 / threads as f64 + c.setup_seconds)
    )
}

/// Why the solutions were not estimated (where the CPU time was).
const UNESTIMATED: &str = "some subproblems were too long for their share of --sample-seconds and stopped midway, and one stopped midway gives no solutions";

/// Returns the CPU nanoseconds a solution of the estimate `c` costs, where it has solutions.
fn ns_per_solution(c: &CpuEstimate) -> Option<f64> {
    c.solutions.as_ref().filter(|q| q.solutions > 0.0).map(|q| c.cpu_seconds * 1e9 / q.solutions)
}

/// Writes the solutions line of the text format: the estimate of Q(n) from the sample with its
/// interval (or the exact count), the known value beside it, and the CPU time of a solution.
fn write_solutions(out: &mut impl Write, n: u32, c: &CpuEstimate, known: Option<u128>) -> io::Result<()> {
    let Some(q) = &c.solutions else {
        return writeln!(out, "solutions:    not estimated: {UNESTIMATED}");
    };
    let per = ns_per_solution(c).map_or(String::new(), |ns| format!("; {ns:.3} CPU ns a solution"));
    if let Some(exact) = q.exact {
        let check = match known {
            Some(k) if k == exact => "the same as A000170".to_string(),
            Some(k) => format!("A000170 says {k}"),
            None => format!("A000170 is known to n = {}", nqueens::oeis::A000170.max_n()),
        };
        return writeln!(out, "solutions:    Q({n}) = {exact}, every subproblem counted ({check}){per}");
    }
    let check = match known {
        Some(k) => {
            let inside = (q.low..=q.high).contains(&(k as f64));
            format!("A000170: {k}, {} the interval", if inside { "inside" } else { "OUTSIDE" })
        }
        None => format!(
            "no known value: A000170 stops at n = {}, so this predicts it",
            nqueens::oeis::A000170.max_n()
        ),
    };
    writeln!(
        out,
        "solutions:    Q({n}) ≈ {}, {} ({check}){per}",
        significant(q.solutions),
        interval(q.solutions, q.low, q.high, significant)
    )
}

/// Returns `x` with 4 significant digits: 2.275e14, or as an integer below 10^6.
fn significant(x: f64) -> String {
    if x.abs() < 1e6 { format!("{x:.0}") } else { format!("{x:.3e}") }
}

/// Returns the 95% interval `low`..`high` of an estimate `value` as the text format words it,
/// each end written by `show`: "95%: 2.31 s to 2.43 s (±2.6%)".
fn interval(value: f64, low: f64, high: f64, show: fn(f64) -> String) -> String {
    let half = 50.0 * (high - low) / value.max(f64::MIN_POSITIVE);
    let half = if half >= 10.0 { format!("{half:.0}") } else { format!("{half:.1}") };
    format!("95%: {} to {} (±{half}%)", show(low), show(high))
}

/// Writes the device time lines of the text format.
fn write_device(
    out: &mut impl Write,
    e: &estimate::DeviceEstimate,
    names: &str,
    k: usize,
    setup_seconds: f64,
    seed: u64,
) -> io::Result<()> {
    let spread = if e.group_size == 0 {
        "every subproblem counted".to_string()
    } else {
        format!(
            "{}, from {} of {} subproblems, {} groups of {} each timed as one run",
            interval(e.seconds, e.low, e.high, human),
            e.sampled,
            e.subproblems,
            e.groups,
            e.group_size
        )
    };
    writeln!(out, "device time:  {} wall-clock on {names}, {spread}", human(e.seconds))?;
    if e.seconds >= 86400.0 {
        let (lo, hi) = (e.low, e.high);
        writeln!(
            out,
            "device-days:  {:.2} (95%: {:.2} to {:.2}) on {names}",
            e.seconds / 86400.0,
            lo.max(0.0) / 86400.0,
            hi / 86400.0
        )?;
    }
    writeln!(
        out,
        "per shard:    about {} wall-clock on {names}, with its setup",
        human(e.seconds / k as f64 + setup_seconds)
    )?;
    writeln!(
        out,
        "sample:       seed {seed} (--seed {seed} draws the same subproblems); the recipes below count on the CPU as written (no --time from this estimate): give parallel-shards.sh --device LIST, or run `count N --shard I/K --device LIST` on each machine with such devices"
    )
}

/// Returns, for a run of 30 CPU-days or more, its line in core-years (with the 95% interval) and its wall-clock time on 1,000 and 10,000 cores like this one.
fn core_years(c: &CpuEstimate) -> Option<String> {
    (c.cpu_seconds >= 30.0 * 86400.0).then(|| {
        let (lo, hi) = (c.low, c.high);
        format!(
            "core-years:   {:.2} (95%: {:.2} to {:.2}); wall-clock on 1,000 cores: {}, on 10,000 cores: {} (cores like this one, if the shards keep them busy)",
            c.cpu_seconds / YEAR,
            lo.max(0.0) / YEAR,
            hi / YEAR,
            human(c.cpu_seconds / 1000.0),
            human(c.cpu_seconds / 10000.0)
        )
    })
}

/// The longest `--time` the plan suggests for a Slurm task, in seconds: a year, past which the
/// `slurm:` command has none and a `time limit:` line says why.
pub const MAX_TIME_LIMIT: f64 = 365.0 * 86400.0;

/// Seconds in a (Julian) year, for core-years.
const YEAR: f64 = 365.25 * 86400.0;

/// Returns the fraction `f` as a percentage with two significant digits (0.0031 as "0.31%").
fn percent(f: f64) -> String {
    let p = 100.0 * f;
    if (99.5..100.0).contains(&p) {
        // Not rounded up to a whole 100%.
        return format!("{:.1}%", (p * 10.0).floor() / 10.0);
    }
    let decimals = if p >= 10.0 { 0 } else { (1.0 - p.max(1e-12).log10().floor()).clamp(1.0, 12.0) as usize };
    format!("{p:.decimals$}%")
}

/// Returns `seconds` as a short human-readable duration, to 3 significant digits under 10
/// minutes: 0.421 s, 4.21 s, 37.2 s, 421 s, 12.5 min, 3.2 h, 4.1 d.
fn human(seconds: f64) -> String {
    match seconds {
        s if s < 1.0 => format!("{s:.3} s"),
        s if s < 10.0 => format!("{s:.2} s"),
        s if s < 100.0 => format!("{s:.1} s"),
        s if s < 600.0 => format!("{s:.0} s"),
        s if s < 3.0 * 3600.0 => format!("{:.1} min", s / 60.0),
        s if s < 3.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} d", s / 86400.0),
    }
}

/// Returns `seconds`, rounded up to the minute, as sbatch's `D-HH:MM:SS` or `HH:MM:SS`.
pub fn hms(seconds: f64) -> String {
    let minutes = (seconds / 60.0).ceil() as u64;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if d > 0 { format!("{d}-{h:02}:{m:02}:00") } else { format!("{h}:{m:02}:00") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_runs::estimate::SolutionsEstimate;

    /// The precision line's budgets: two significant figures, rounded up.
    #[test]
    fn budgets_are_rounded_up_to_two_figures() {
        let all: Vec<String> = [0.399, 1363.0, 5.77, 59.0, 120_000.0, 1.0].map(two_figures).into();
        assert_eq!(all, ["0.40", "1400", "5.8", "59", "120000", "1.0"]);
    }

    /// Issue 38's n = 29: estimates past u64 (Q(29) is about 2.5 · 10^19) are written as
    /// doubles, not a panic; smaller ones stay whole numbers.
    #[test]
    fn counts_past_u64_are_written_as_doubles() {
        assert_eq!(json_count(2.501e19).to_string(), "2.501e+19");
        assert_eq!(json_count(2.25e18).to_string(), "2250000000000000000");
        assert_eq!(json_count(14772512.4).to_string(), "14772512");
        assert!(json_count(2.501e19).is_f64() && json_count(1e18).is_u64());
    }

    /// An estimate of `cpu_seconds` ± 2 standard errors from 10 of 100 subproblems, without
    /// solutions.
    fn estimate(cpu_seconds: f64, std_error: f64) -> CpuEstimate {
        CpuEstimate {
            subproblems: 100,
            sampled: 10,
            timed: 10,
            group_size: 1,
            weighed: 100,
            strata: 4,
            cpu_seconds,
            std_error,
            df: 0,
            sampling_std_error: std_error,
            low: cpu_seconds - 2.0 * std_error,
            high: cpu_seconds + 2.0 * std_error,
            speed_spread: 0.0,
            setup_seconds: 0.0,
            sample_seconds: 1.0,
            counted_share: 1.0,
            solutions: None,
            other_load: None,
        }
    }

    #[test]
    fn durations_read_well_and_time_limits_round_up() {
        assert_eq!(human(0.421), "0.421 s");
        assert_eq!(human(4.213), "4.21 s");
        assert_eq!(human(37.2), "37.2 s");
        assert_eq!(human(421.3), "421 s");
        assert_eq!(human(750.0), "12.5 min");
        assert_eq!(human(4.0 * 3600.0), "4.0 h");
        assert_eq!(human(5.0 * 86400.0), "5.0 d");
        assert_eq!(hms(300.0), "0:05:00");
        assert_eq!(hms(301.0), "0:06:00");
        assert_eq!(hms(26.0 * 3600.0), "1-02:00:00");
        assert_eq!(percent(0.0031), "0.31%");
        assert_eq!(percent(0.5), "50%");
        assert_eq!(percent(0.012), "1.2%");
        assert_eq!(percent(0.998), "99.8%");
        assert_eq!(percent(0.99999), "99.9%");
        assert_eq!(percent(1.0), "100%");
    }

    /// The solutions line: exact where every subproblem was counted, else the estimate with its
    /// interval and the known value beside it (inside or OUTSIDE), or the word that none is
    /// known; CPU ns a solution; why none was estimated.
    #[test]
    fn the_solutions_line_says_the_estimate_and_the_known_value() {
        let q = |solutions: f64, low: f64, high: f64, exact: Option<u128>| SolutionsEstimate {
            solutions,
            std_error: (high - low) / 4.0,
            low,
            high,
            exact,
        };
        let c = |solutions| CpuEstimate { solutions, ..estimate(2.0, 0.1) };
        let line = |n, est: &CpuEstimate, known| {
            let mut out = Vec::new();
            write_solutions(&mut out, n, est, known).unwrap();
            String::from_utf8(out).unwrap()
        };
        let exact = c(Some(q(92.0, 92.0, 92.0, Some(92))));
        assert_eq!(
            line(8, &exact, Some(92)),
            "solutions:    Q(8) = 92, every subproblem counted (the same as A000170); 21739130.435 CPU ns a solution\n"
        );
        let known = 666_090_624;
        let inside = c(Some(q(6.63e8, 6.57e8, 6.69e8, None)));
        assert_eq!(
            line(18, &inside, Some(known)),
            "solutions:    Q(18) ≈ 6.630e8, 95%: 6.570e8 to 6.690e8 (±0.9%) (A000170: 666090624, inside the interval); 3.017 CPU ns a solution\n"
        );
        let outside = c(Some(q(6.0e8, 5.9e8, 6.1e8, None)));
        assert!(line(18, &outside, Some(known)).contains("(A000170: 666090624, OUTSIDE the interval)"));
        let q28 = c(Some(q(3.0e18, 2.5e18, 3.5e18, None)));
        assert!(
            line(28, &q28, None).contains("(no known value: A000170 stops at n = 27, so this predicts it)")
        );
        assert_eq!(line(28, &c(None), None), format!("solutions:    not estimated: {UNESTIMATED}\n"));
    }

    #[test]
    fn big_runs_read_in_core_years_and_cluster_time() {
        let c = estimate;
        assert_eq!(core_years(&c(29.0 * 86400.0, 0.0)), None);
        // 20 core-years ± 1 (one standard error): 18 to 22; 7.3 days on 1,000 cores.
        let line = core_years(&c(20.0 * YEAR, YEAR)).unwrap();
        assert_eq!(
            line,
            "core-years:   20.00 (95%: 18.00 to 22.00); wall-clock on 1,000 cores: 7.3 d, on 10,000 cores: 17.5 h (cores like this one, if the shards keep them busy)"
        );
    }
}
