//! `nqueens plan N [--shards K]`: what a long run will be before it starts: the algorithm `auto`
//! picks here, the subproblems, the memory per process, the CPU time estimated from a random
//! sample counted on this machine, and the command lines for K shards.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use nqueens::plan::available_threads;
use nqueens_runs::estimate;

use crate::config::PlanConfig;
use crate::output::{PlanReport, hms, write_plan};

/// Slurm's default `MaxArraySize` (slurm.conf): an array's task indices are below it.
const DEFAULT_MAX_ARRAY_SIZE: usize = 1001;

/// The least `--sample-seconds` for a plan of [`nqueens::plan::Plan::long_subproblems`] (the join from
/// n = 28): a unit there spends 5 s (40 s while the thread's buffers grow) before its first
/// step (results/2026-12-02-plan/), so the 8 a sample counts at least take about this long.
const LONG_SAMPLE: f64 = 300.0;

/// Seconds of warning before a Slurm task's time limit in `scripts/slurm-shards.sh` (its
/// default `--signal-lead`), added to the suggested `--time`.
const SIGNAL_LEAD: f64 = 120.0;

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
    let level = config.level;
    // The plan of `count --shard I/K`, but for the join at n = 26–27 one that samples without
    // its quarter table, whose setup adds the writing of the table's entries.
    let sampled = estimate::sample_plan(algorithm, n, k, level).map_err(super::from_library)?;
    let plan = sampled.plan;
    let setup_seconds = sampled.setup_seconds + open_seconds;
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
            let names =
                nqueens::plan::device_list(&devices, if config.devices.cpu { config.threads } else { 0 });
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
            let threads = config.threads.min(available_threads());
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
    let report = PlanReport {
        n,
        shards: k,
        threads,
        algorithm,
        chosen_by_auto: config.algorithm == nqueens::Algorithm::Auto,
        level,
        subproblems: plan.len(),
        split_depth: plan.split_depth(),
        memory_mib,
        mem_request,
        setup_seconds,
        open_seconds,
        cpu,
        seed,
        sample_threads,
        unsampled,
        device,
        device_shard_seconds,
        time_limit,
        sbatch,
        parallel,
        arrays,
        arrays_note,
        empty,
    };
    let mut out = io::stdout().lock();
    write_plan(&mut out, config.format, &report).context("writing the plan")?;
    out.flush().context("writing the plan")?;
    Ok(ExitCode::SUCCESS)
}
