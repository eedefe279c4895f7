//! `nqueens plan N [--shards K]`: what a long run will be before it starts: the algorithm `auto`
//! picks here, the subproblems, the memory per process, the CPU time and the solutions
//! estimated from a random sample counted on this machine, and the command lines for K shards.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use nqueens::plan::{Device, Plan, PlanSpec, available_threads};
use nqueens_runs::estimate::{self, CpuEstimate, DeviceEstimate, PlanEstimate, Sample};
use nqueens_runs::shard::shard_spec;

use crate::config::PlanConfig;
use crate::output::{MAX_TIME_LIMIT, PlanReport, hms, write_plan};

/// Slurm's default `MaxArraySize` (slurm.conf): an array's task indices are below it.
const DEFAULT_MAX_ARRAY_SIZE: usize = 1001;

/// Seconds of warning before a Slurm task's time limit in `scripts/slurm-shards.sh` (its
/// default `--signal-lead`), added to the suggested `--time`.
const SIGNAL_LEAD: f64 = 120.0;

/// Prints the plan `config` describes.
///
/// # Errors
/// [`super::UsageError`] for a board or algorithm whose plan cannot be built (such as a join table
/// that does not fit in memory); a failed write.
pub fn run(config: PlanConfig) -> anyhow::Result<ExitCode> {
    // What this process has spent so far (loading, reading the command line): a count's
    // process spends as much before it builds its plan.
    let startup = estimate::process_cpu_seconds();
    // The devices the sample counts on first: a driver that starts may install handlers of
    // its own, which would replace ours. Each shard process opens them too (contexts made,
    // the kernels compiled): its setup counts that time.
    let (devices, open_seconds) = open_sample_devices(&config)?;
    // Nothing to save: a signal ends the command at once, with one line (exit 130 or 143).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    let algorithm = config.algorithm.resolve_for(config.n, config.threads);
    let seed = config.seed.unwrap_or_else(clock_seed);
    // The plan of `count --shard I/K` (for the join at n = 26–27 one that samples without its
    // quarter table), its memory, its setup and, on the CPU, the sample: one call.
    let spec = PlanSpec { level: config.level, ..shard_spec(algorithm, config.n, config.shards) };
    // On the cores there are: more threads than CPUs would only share them (and the sample's
    // clocks would count the waiting).
    let threads = config.threads.min(available_threads());
    let cpu_sample =
        config.sample.filter(|_| config.devices.cpu_only()).map(|budget| Sample { budget, seed, threads });
    let planned = estimate::plan_estimate(&spec, config.threads, cpu_sample).map_err(super::from_library)?;
    let device = match (config.sample, devices) {
        (Some(budget), Some(devices)) => {
            Some(device_sample(&config, planned.plan.as_ref(), devices, budget, seed)?)
        }
        _ => None,
    };
    let report = report(&config, planned, startup + open_seconds, open_seconds, device, seed);
    let mut out = io::stdout().lock();
    write_plan(&mut out, config.format, &report).context("writing the plan")?;
    out.flush().context("writing the plan")?;
    Ok(ExitCode::SUCCESS)
}

/// Returns a seed from the clock (the nanoseconds since 1970), for a sample without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
}

/// The devices the sample counts on, opened, and the seconds that took: `None` (and 0) where
/// the sample is on the CPU or there is none.
type Opened = (Option<Vec<Arc<dyn Device>>>, f64);

/// Opens the devices of `--device` if a sample is to be counted on them.
///
/// # Errors
/// As [`super::open_devices`].
fn open_sample_devices(config: &PlanConfig) -> anyhow::Result<Opened> {
    if config.sample.is_none() || config.devices.cpu_only() {
        return Ok((None, 0.0));
    }
    let opening = Instant::now();
    let devices = super::open_devices(&config.devices)?;
    Ok((Some(devices), opening.elapsed().as_secs_f64()))
}

/// Counts the sample on the devices (and `-j` CPU threads beside them with `--device cpu,...`),
/// in groups timed by the wall clock (the CPU estimate is for CPU threads, which a device run
/// may not have); returns the estimate and the devices' names.
///
/// # Errors
/// A counter that cannot be made, the devices' errors.
fn device_sample(
    config: &PlanConfig,
    plan: &dyn Plan,
    devices: Vec<Arc<dyn Device>>,
    budget: Duration,
    seed: u64,
) -> anyhow::Result<(DeviceEstimate, Vec<String>)> {
    let threads = if config.devices.cpu { config.threads } else { 0 };
    let names = nqueens::plan::device_list(&devices, threads);
    let (algorithm, level) = (plan.algorithm(), config.level);
    let options = nqueens::CountOptions { threads, devices, algorithm, level, ..Default::default() };
    let counter = nqueens::Counter::new(&options).map_err(super::from_library)?;
    let e = estimate::device_time(plan, &counter, budget, seed).map_err(super::from_library)?;
    Ok((e, names))
}

/// Returns the suggested `--time` of each of `k` shards on `threads` threads: its share of the
/// high end of the CPU time's interval, with its setup, 50% more for slower nodes, plus the
/// warning lead; at least 5 minutes.
fn time_limit(c: &CpuEstimate, k: usize, threads: usize) -> f64 {
    let per_shard = (c.high - c.setup_seconds) / k as f64 / threads as f64 + c.setup_seconds;
    (per_shard * 1.5 + SIGNAL_LEAD).max(300.0)
}

/// Returns the report of `planned` for `config`: `setup` is the CPU seconds of the process's
/// start and the opening of devices, added to the plan's own setup.
fn report(
    config: &PlanConfig,
    planned: PlanEstimate,
    setup: f64,
    open_seconds: f64,
    device: Option<(DeviceEstimate, Vec<String>)>,
    seed: u64,
) -> PlanReport {
    let (n, k, threads) = (config.n, config.shards, config.threads);
    // The threads the CPU sample counted on (`run` caps them the same way).
    let sample_threads = threads.min(available_threads());
    let plan = planned.plan.as_ref();
    let algorithm = plan.algorithm();
    let cpu = planned.cpu.as_ref().map(|c| c.with_setup(setup));
    let setup_seconds = planned.setup_seconds + setup;
    let memory_mib = planned.memory_bytes.div_ceil(1 << 20);
    // Subproblems whose setup alone takes seconds to a minute (the join's from n = 28: a unit's
    // half-boards, before its first step): the fewest a sample counts would overrun a shorter
    // budget, so none is taken and the reason is printed instead.
    let unsampled = planned.unsampled.map(|_| {
        format!(
            "not estimated: a {} unit of n = {n} takes up to minutes, and seconds before it can stop, so the sample needs --sample-seconds {} or more (doc/q28.md has the estimate of Q(28))",
            algorithm.name(),
            estimate::LONG_SAMPLE_SECONDS
        )
    });
    let time_limit = cpu.as_ref().map(|c| time_limit(c, k, threads));
    // On devices: each shard on devices like these (their wall-clock time, split K ways); not
    // a time limit for the recipes below, which count on the CPU.
    let device_shard_seconds = device.as_ref().map(|(e, _)| e.seconds / k as f64 + setup_seconds);
    let mem_request = format!("{}M", memory_mib + memory_mib / 4);
    let resolved = algorithm.name();
    let mut sbatch = format!(
        "scripts/slurm-shards.sh submit {n} {k} --algorithm {resolved} --threads {threads} --mem {mem_request}"
    );
    // A limit past a year is no limit a cluster grants (`plan 63` asked for 10^16 days): the
    // command leaves --time out, and the text says why.
    if let Some(t) = time_limit.filter(|&t| t <= MAX_TIME_LIMIT) {
        sbatch.push_str(&format!(" --time {}", hms(t)));
    }
    // Slurm refuses an array of MaxArraySize tasks or more (1001 by default, often left so):
    // the recipe splits K into arrays of at most that many, which the plan says.
    let arrays = k.div_ceil(DEFAULT_MAX_ARRAY_SIZE);
    PlanReport {
        n,
        shards: k,
        threads,
        algorithm,
        chosen_by_auto: config.algorithm == nqueens::Algorithm::Auto,
        level: config.level,
        subproblems: plan.len(),
        split_depth: plan.split_depth(),
        memory_mib,
        mem_request,
        setup_seconds,
        open_seconds,
        precision: config.precision,
        // The budget the projection scales: the one given, or what the sample's fewest groups
        // took a thread if more (a budget of 1 ns still counts 8 groups).
        narrowing: cpu.as_ref().zip(config.sample).map(|(c, budget)| {
            let spent = c.sample_seconds / sample_threads.max(1) as f64;
            (c.narrowing(config.precision), budget.as_secs_f64().max(spent))
        }),
        seed: cpu.as_ref().map(|_| seed),
        sample_threads: cpu.as_ref().map(|_| sample_threads),
        cpu,
        known: nqueens::oeis::A000170.get(n),
        unsampled,
        device: device.map(|(e, names)| (e, names, seed)),
        device_shard_seconds,
        time_limit,
        sbatch,
        parallel: format!("scripts/parallel-shards.sh {n} {k} --algorithm {resolved} -t {threads}"),
        arrays,
        arrays_note: format!(
            "{k} task(s) in job arrays of at most the cluster's MaxArraySize tasks (`scontrol show config`; --max-array overrides): {arrays} array(s) at Slurm's default {DEFAULT_MAX_ARRAY_SIZE}; --throttle P runs at most P at once"
        ),
        empty: k.saturating_sub(plan.len()),
    }
}
