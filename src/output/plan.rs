//! `nqueens plan N [--shards K]`: what a long run will be before it starts: the algorithm `auto`
//! picks here, the subproblems, the memory per process, the CPU time estimated from a random
//! sample counted on this machine, and the command lines for K shards.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use nqueens_runs::estimate::{self, CpuEstimate};
use nqueens_runs::shard::shard_plan_with;

use crate::config::PlanConfig;
use crate::output::PlanFormat;

/// Slurm's default `MaxArraySize` (slurm.conf): an array's task indices are below it.
const DEFAULT_MAX_ARRAY_SIZE: usize = 1001;

/// The least `--sample-seconds` for a plan of [`nqueens::Plan::long_subproblems`] (the join from
/// n = 28): a unit there spends 5 s (40 s while the thread's buffers grow) before its first
/// step (results/2026-12-02-plan/), so the 8 a sample counts at least take about this long.
const LONG_SAMPLE: f64 = 300.0;

/// Seconds of warning before a Slurm task's time limit in `scripts/slurm-shards.sh` (its
/// default `--signal-lead`), added to the suggested `--time`.
const SIGNAL_LEAD: f64 = 120.0;

/// Returns the plan to describe and sample: the one `count --shard I/K` builds
/// ([`shard_plan_with`]), but for the join at n = 26–27, whose quarter table (6.9 GB) a sample
/// of a few units does not need: there [`nqueens::JoinPlan::for_sampling`], whose units load
/// their own row sets, untimed, and whose list lengths (268 MB) weigh them as the table would
/// (`plan 27` peaked at 9.8 GB; issue 32). Its setup, the walk that finds the lengths, takes
/// the table's build but the writing of its entries, and its memory figure is still that of a
/// count with the table. Returns the plan and the bytes of table entries a count writes that
/// building it did not (0 but for the sample plan).
///
/// # Errors
/// As [`shard_plan_with`].
fn sample_plan(
    algorithm: nqueens::Algorithm,
    n: u32,
    k: usize,
    level: nqueens::arch::Level,
) -> Result<(Box<dyn nqueens::Plan>, u64), nqueens::Error> {
    use nqueens::algo::join::quarter::{self, MAX_TABLE_H};
    if algorithm == nqueens::Algorithm::Join && n / 2 == MAX_TABLE_H {
        let mut plan = nqueens::JoinPlan::for_sampling(n)?;
        plan.set_level(level);
        let h = n / 2;
        let offsets = 4 * ((1u64 << (2 * h)) + 1);
        return Ok((Box::new(plan), quarter::estimated_bytes(h).saturating_sub(offsets)));
    }
    Ok((shard_plan_with(algorithm, n, None, k, nqueens::D4Search::Auto, level)?, 0))
}

/// Returns the seconds this process takes to write `bytes` of memory it has not touched yet
/// (the page faults and the zeroing of a table's entries): a 64 MiB buffer written, timed and
/// scaled. 0 for 0 bytes.
fn fault_in_seconds(bytes: u64) -> f64 {
    const SAMPLE: usize = 64 << 20;
    if bytes == 0 {
        return 0.0;
    }
    let t0 = Instant::now();
    let mut buffer = vec![0u8; SAMPLE];
    buffer.fill(1);
    std::hint::black_box(&buffer);
    let seconds = t0.elapsed().as_secs_f64();
    drop(buffer);
    seconds * bytes as f64 / SAMPLE as f64
}

/// Prints the plan `config` describes.
///
/// # Errors
/// [`super::UsageError`] for a board or algorithm whose plan cannot be built (such as a join table
/// that does not fit in memory); a failed write.
pub fn run(config: PlanConfig) -> anyhow::Result<ExitCode> {
    // The devices the sample counts on first: a driver that starts may install handlers of
    // its own, which would replace ours. Each shard process opens them too (contexts made,
    // the kernels compiled): its setup counts that time.
    let opening = Instant::now();
    let mut opened = match config.sample.filter(|_| !config.devices.cpu_only()) {
        Some(_) => Some(super::open_devices(&config.devices)?),
        None => None,
    };
    let open_seconds = opening.elapsed().as_secs_f64();
    // Nothing to save: a signal ends the command at once, with one line (exit 130 or 143).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    let n = config.n;
    let algorithm = config.algorithm.resolve_for(n, config.threads);
    let k = config.shards;
    let built = Instant::now();
    let level = config.level;
    let (plan, unwritten) = sample_plan(algorithm, n, k, level).map_err(super::from_library)?;
    // The sample plan of n = 26–27 walked the quarter table without writing its entries: a
    // count also writes them, 6.6 GB faulted in (15 of the 28 s of the h = 13 build on the
    // 2-core VM, as system time), which is timed on a smaller buffer and added.
    let setup_seconds = built.elapsed().as_secs_f64() + fault_in_seconds(unwritten) + open_seconds;
    let algorithm = plan.algorithm();
    let memory_mib = estimate::memory_bytes(plan.as_ref(), config.threads).div_ceil(1 << 20);
    // Subproblems whose setup alone takes seconds to a minute (the join's from n = 28: a unit's
    // half-boards, before its first step): the fewest a sample counts would overrun a budget
    // under LONG_SAMPLE, so none is taken and the reason is printed instead.
    let unsampled = (plan.long_subproblems() && config.sample.is_some_and(|b| b.as_secs_f64() < LONG_SAMPLE))
    .then(|| {
        format!(
            "not estimated: a {} unit of n = {n} takes minutes, and 5-40 s before it can stop, so the sample needs --sample-seconds {LONG_SAMPLE} or more (results/2026-12-02-plan/ has the estimate of Q(28))",
            algorithm.name()
        )
    });
    // On devices: the sample counted on them, in groups timed by the wall clock (the CPU
    // estimate is for CPU threads, which a device run may not have).
    let on_devices = !config.devices.cpu_only();
    let seed_of = |seed: Option<u64>| {
        seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
    };
    let device = match config.sample.filter(|_| on_devices) {
        None => None,
        Some(budget) => {
            let devices = opened.take().unwrap_or_default();
            let names = nqueens::device_list(&devices, if config.devices.cpu { config.threads } else { 0 });
            let threads = if config.devices.cpu { config.threads } else { 0 };
            let options = nqueens::CountOptions { threads, devices, algorithm, level, ..Default::default() };
            let counter = nqueens::Counter::new(&options).map_err(super::from_library)?;
            let seed = seed_of(config.seed);
            let e =
                estimate::device_time(plan.as_ref(), &counter, budget, seed).map_err(super::from_library)?;
            Some((e, names, seed))
        }
    };
    let cpu = config
        .sample
        .filter(|_| unsampled.is_none() && !on_devices)
        .map(|budget| {
            let seed = config.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
            // On the cores there are: more threads than CPUs would only share them (and the
            // sample's clocks would count the waiting).
            let threads = config.threads.min(num_cpus::get().max(1));
            estimate::cpu_time_on(plan.as_ref(), budget, seed, threads).map(|c| (c, seed, threads))
        })
        .transpose()
        .map_err(super::from_library)?;
    let (cpu, seed, sample_threads) = match cpu {
        Some((c, seed, threads)) => (Some(c), Some(seed), Some(threads)),
        None => (None, None, None),
    };
    let threads = config.threads;
    // Per shard, wall-clock on T threads, with 50% slack for slower nodes and the estimate's
    // uncertainty, plus the warning lead; at least 5 minutes.
    let time_limit = cpu.as_ref().map(|c| {
        let per_shard = (c.cpu_seconds + 2.0 * c.std_error) / k as f64 / threads as f64 + setup_seconds;
        (per_shard * 1.5 + SIGNAL_LEAD).max(300.0)
    });
    // On devices: each shard on devices like these (their wall-clock time, split K ways); not
    // a time limit for the recipes below, which count on the CPU.
    let device_shard_seconds = device.as_ref().map(|(e, _, _)| e.seconds / k as f64 + setup_seconds);
    let mem_request = format!("{}M", memory_mib + memory_mib / 4);
    let resolved = algorithm.name();
    let mut sbatch = format!(
        "scripts/slurm-shards.sh submit {n} {k} --algorithm {resolved} --threads {threads} --mem {mem_request}"
    );
    if let Some(t) = time_limit {
        sbatch.push_str(&format!(" --time {}", hms(t)));
    }
    let parallel = format!("scripts/parallel-shards.sh {n} {k} --algorithm {resolved} -t {threads}");
    // Slurm refuses an array of MaxArraySize tasks or more (1001 by default, often left so):
    // the recipe splits K into arrays of at most that many, which the plan says.
    let arrays = k.div_ceil(DEFAULT_MAX_ARRAY_SIZE);
    let arrays_note = format!(
        "{k} task(s) in job arrays of at most the cluster's MaxArraySize tasks (`scontrol show config`; --max-array overrides): {arrays} array(s) at Slurm's default {DEFAULT_MAX_ARRAY_SIZE}; --throttle P runs at most P at once"
    );
    let empty = k.saturating_sub(plan.len());
    let mut out = io::stdout().lock();
    match config.format {
        PlanFormat::Json => {
            let value = serde_json::json!({
                "n": n,
                "shards": k,
                "algorithm": resolved,
                "isa": level.isa().name(),
                "split_depth": plan.split_depth(),
                "subproblems": plan.len(),
                "memory_mib": memory_mib,
                "setup_seconds": setup_seconds,
                "cpu_seconds": cpu.as_ref().map(|c| c.cpu_seconds),
                "cpu_seconds_std_error": cpu.as_ref().map(|c| c.std_error),
                "cpu_not_estimated": unsampled,
                "cpu_core_years": cpu.as_ref().map(|c| c.cpu_seconds / YEAR),
                "sampled": cpu.as_ref().map(|c| c.sampled),
                "seed": seed,
                "sample_threads": sample_threads,
                "weighed": cpu.as_ref().map(|c| c.weighed),
                "strata": cpu.as_ref().map(|c| c.strata),
                "sampled_share_counted": cpu.as_ref().map(|c| c.counted_share),
                "time_limit_seconds": time_limit,
                "sbatch": sbatch,
                "slurm_arrays_at_default_max_array_size": arrays,
                "empty_shards": empty,
                "parallel": parallel,
                "devices": device.as_ref().map(|d| &d.1),
                "device_seconds": device.as_ref().map(|d| d.0.seconds),
                "device_seconds_std_error": device.as_ref().map(|d| d.0.std_error),
                "device_sampled": device.as_ref().map(|d| d.0.sampled),
                "device_group_size": device.as_ref().map(|d| d.0.group_size),
                "device_seed": device.as_ref().map(|d| d.2),
                "device_seconds_per_shard": device_shard_seconds,
            });
            writeln!(out, "{value}").context("writing the plan")?;
        }
        PlanFormat::Text => {
            let mut write_text = || -> io::Result<()> {
                let how = if config.algorithm == nqueens::Algorithm::Auto {
                    " (chosen by auto on this machine)"
                } else {
                    ""
                };
                match &device {
                    Some((_, names, _)) => {
                        writeln!(out, "board:        n = {n}, K = {k} shard(s) on {}", names.join(","))?
                    }
                    None => writeln!(out, "board:        n = {n}, K = {k} shard(s) of {threads} thread(s)")?,
                }
                writeln!(out, "algorithm:    {resolved}{how}")?;
                if device.is_none() {
                    writeln!(
                        out,
                        "isa:          {level} (the CPU time below is for this level on this machine)"
                    )?;
                }
                writeln!(
                    out,
                    "subproblems:  {} (about {} per shard), split depth {}",
                    plan.len(),
                    plan.len().div_ceil(k),
                    plan.split_depth()
                )?;
                writeln!(
                    out,
                    "memory:       about {memory_mib} MiB per process (request --mem {mem_request})"
                )?;
                if device.is_some() {
                    writeln!(
                        out,
                        "setup:        {setup_seconds:.2} s per process (opening the devices: {open_seconds:.2} s; building the plan)"
                    )?;
                } else {
                    writeln!(out, "setup:        {setup_seconds:.2} s per process (building the plan)")?;
                }
                if let Some((e, names, seed)) = &device {
                    write_device(&mut out, e, &names.join(","), k, setup_seconds, *seed)?;
                }
                match &cpu {
                    _ if device.is_some() => {}
                    Some(c) => {
                        write_cpu(&mut out, c, k, threads, algorithm)?;
                        if let (Some(seed), Some(t)) = (seed, sample_threads) {
                            writeln!(
                                out,
                                "sample:       seed {seed}, on {t} thread(s) (--seed {seed} draws the same subproblems in the same order; how many fit the budget varies with the machine)"
                            )?;
                        }
                    }
                    None => match &unsampled {
                        Some(why) => writeln!(out, "CPU time:     {why}")?,
                        None => writeln!(out, "CPU time:     not estimated (--sample-seconds 0)")?,
                    },
                }
                if empty > 0 {
                    writeln!(
                        out,
                        "empty:        {empty} shard(s): K exceeds the {} subproblems, so shards {}..{} count nothing (each still writes a result, which merge needs)",
                        plan.len(),
                        plan.len(),
                        k - 1
                    )?;
                }
                writeln!(out, "slurm:        {sbatch}")?;
                writeln!(out, "arrays:       {arrays_note}")?;
                writeln!(out, "parallel:     {parallel}")?;
                Ok(())
            };
            write_text().context("writing the plan")?;
        }
    }
    out.flush().context("writing the plan")?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the CPU time lines of the text format (`algorithm`: the plan's, which says what a
/// subproblem counted in part stands for).
fn write_cpu(
    out: &mut impl Write,
    c: &CpuEstimate,
    k: usize,
    threads: usize,
    algorithm: nqueens::Algorithm,
) -> io::Result<()> {
    let exact = c.sampled == c.subproblems && c.counted_share >= 1.0;
    let spread = if exact {
        "every subproblem counted".to_string()
    } else {
        let strata = if c.strata > 1 {
            format!(" in {} strata by cost estimate ({} weighed)", c.strata, c.weighed)
        } else {
            String::new()
        };
        format!(
            "{}, from {} of {} subproblems sampled{strata}",
            interval(c.cpu_seconds, c.std_error),
            c.sampled,
            c.subproblems
        )
    };
    // Subproblems too long for the budget were counted in part and extrapolated: say how little,
    // and whether the part stands for the whole (the join's parts of its matcher's blocks, dealt
    // evenly) or is only the first steps (mirror's and d4's prefixes in lexicographic order).
    let spread = match (c.counted_share < 1.0, algorithm) {
        (false, _) => spread,
        (true, nqueens::Algorithm::Join) => format!(
            "{spread}, each counted for its share of --sample-seconds only: {} of their work on average (the setup and parts of the matcher's blocks, dealt evenly; the rest extrapolated by the matcher's cost model)",
            percent(c.counted_share)
        ),
        (true, _) => format!(
            "{spread}, each counted for its share of --sample-seconds only: {} of their work on average (their first steps), so a rough estimate",
            percent(c.counted_share)
        ),
    };
    writeln!(out, "CPU time:     {} on one core of this machine, {spread}", human(c.cpu_seconds))?;
    if let Some(line) = core_years(c) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "per shard:    about {} wall-clock on {threads} thread(s), if threads scale",
        human(c.cpu_seconds / k as f64 / threads as f64)
    )
}

/// Returns the interval of an estimate of `seconds` with standard error `std_error` as the text
/// format words it: "± 3.1 s (one standard error; 95%: ± 6.2 s = 12%)".
fn interval(seconds: f64, std_error: f64) -> String {
    format!(
        "± {} (one standard error; 95%: ± {} = {:.0}%)",
        human(std_error),
        human(2.0 * std_error),
        200.0 * std_error / seconds.max(f64::MIN_POSITIVE)
    )
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
            interval(e.seconds, e.std_error),
            e.sampled,
            e.subproblems,
            estimate::DEVICE_GROUPS,
            e.group_size
        )
    };
    writeln!(out, "device time:  {} wall-clock on {names}, {spread}", human(e.seconds))?;
    if e.seconds >= 86400.0 {
        let (lo, hi) = (e.seconds - 2.0 * e.std_error, e.seconds + 2.0 * e.std_error);
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

/// Returns, for a run of 30 CPU-days or more, its line in core-years (with the 95% interval,
/// ± 2 standard errors) and its wall-clock time on 1,000 and 10,000 cores like this one.
fn core_years(c: &CpuEstimate) -> Option<String> {
    (c.cpu_seconds >= 30.0 * 86400.0).then(|| {
        let (lo, hi) = (c.cpu_seconds - 2.0 * c.std_error, c.cpu_seconds + 2.0 * c.std_error);
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

/// Returns `seconds` as a short human-readable duration: 0.42 s, 37 s, 12.5 min, 3.2 h, 4.1 d.
fn human(seconds: f64) -> String {
    match seconds {
        s if s < 10.0 => format!("{s:.2} s"),
        s if s < 600.0 => format!("{s:.0} s"),
        s if s < 3.0 * 3600.0 => format!("{:.1} min", s / 60.0),
        s if s < 3.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} d", s / 86400.0),
    }
}

/// Returns `seconds`, rounded up to the minute, as sbatch's `D-HH:MM:SS` or `HH:MM:SS`.
fn hms(seconds: f64) -> String {
    let minutes = (seconds / 60.0).ceil() as u64;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if d > 0 { format!("{d}-{h:02}:{m:02}:00") } else { format!("{h}:{m:02}:00") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well_and_time_limits_round_up() {
        assert_eq!(human(0.421), "0.42 s");
        assert_eq!(human(37.2), "37 s");
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

    #[test]
    fn big_runs_read_in_core_years_and_cluster_time() {
        let c = |cpu_seconds: f64, std_error: f64| CpuEstimate {
            subproblems: 100,
            sampled: 10,
            weighed: 100,
            strata: 4,
            cpu_seconds,
            std_error,
            sample_seconds: 60.0,
            counted_share: 1.0,
        };
        assert_eq!(core_years(&c(29.0 * 86400.0, 0.0)), None);
        // 20 core-years ± 1 (one standard error): 18 to 22; 7.3 days on 1,000 cores.
        let line = core_years(&c(20.0 * YEAR, YEAR)).unwrap();
        assert_eq!(
            line,
            "core-years:   20.00 (95%: 18.00 to 22.00); wall-clock on 1,000 cores: 7.3 d, on 10,000 cores: 17.5 h (cores like this one, if the shards keep them busy)"
        );
    }
}
