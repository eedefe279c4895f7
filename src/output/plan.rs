//! The output of `nqueens plan` ([`crate::cmd::plan`]): a [`PlanReport`] written as aligned
//! `label: value` lines or as one JSON object ([`PlanFormat`]).

use std::io::{self, Write};

use nqueens_runs::estimate::{self, CpuEstimate, DeviceEstimate};

use super::PlanFormat;

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
    /// The CPU time estimated from a sample, if one was counted on the CPU.
    pub cpu: Option<CpuEstimate>,
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

/// Writes `r` as one JSON object on one line.
fn write_json(out: &mut impl Write, r: &PlanReport) -> io::Result<()> {
    let value = serde_json::json!({
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
        "cpu_not_estimated": r.unsampled,
        "cpu_core_years": r.cpu.as_ref().map(|c| c.cpu_seconds / YEAR),
        "sampled": r.cpu.as_ref().map(|c| c.sampled),
        "seed": r.seed,
        "sample_threads": r.sample_threads,
        "weighed": r.cpu.as_ref().map(|c| c.weighed),
        "strata": r.cpu.as_ref().map(|c| c.strata),
        "sampled_share_counted": r.cpu.as_ref().map(|c| c.counted_share),
        "time_limit_seconds": r.time_limit,
        "sbatch": r.sbatch,
        "slurm_arrays_at_default_max_array_size": r.arrays,
        "empty_shards": r.empty,
        "parallel": r.parallel,
        "devices": r.device.as_ref().map(|d| &d.1),
        "device_seconds": r.device.as_ref().map(|d| d.0.seconds),
        "device_seconds_std_error": r.device.as_ref().map(|d| d.0.std_error),
        "device_sampled": r.device.as_ref().map(|d| d.0.sampled),
        "device_group_size": r.device.as_ref().map(|d| d.0.group_size),
        "device_groups": r.device.as_ref().map(|d| d.0.groups),
        "device_seed": r.device.as_ref().map(|d| d.2),
        "device_seconds_per_shard": r.device_shard_seconds,
    });
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
            write_cpu(out, c, *k, *threads, *algorithm)?;
            if let (Some(seed), Some(t)) = (seed, sample_threads) {
                writeln!(
                    out,
                    "sample:       seed {seed}, on {t} thread(s) (--seed {seed} draws the same subproblems in the same order; how many fit the budget varies with the machine)"
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
    writeln!(out, "arrays:       {arrays_note}")?;
    writeln!(out, "parallel:     {parallel}")?;
    Ok(())
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
            e.groups,
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
pub fn hms(seconds: f64) -> String {
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
