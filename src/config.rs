//! The plain configuration of each command: the parsed flags ([`crate::cli`]) turned into the
//! values the commands run with, and every rule between flags, checked here in one place before
//! any work starts (as fd's `Config` and ripgrep's `HiArgs` do). The commands see no flag.
//!
//! clap itself checks the two rules its definition declares, with its own messages: `--output`
//! needs `--shard`, and `solve --any` takes neither `--limit` nor `--unique`. A rule that needs
//! a result (the board size of merged shards, the classes a count has) is checked here too, by
//! the command once it has the result ([`check_offset`], [`check_classes`]).

use std::path::PathBuf;
use std::time::Duration;

use crate::output::{Format, PlanFormat, Sequence};
use nqueens::arch::Level;
use nqueens::check::CheckOptions;
use nqueens::enumerate::SolveOptions;
use nqueens::plan::available_threads;
use nqueens::{Algorithm, Count, CountOptions, MAX_N, boards::BoardFormat};
use nqueens_runs::run::LongRun;

use crate::cli::{CheckArgs, Command, CountArgs, MergeArgs, Opts, PlanArgs, SolveArgs};

mod paths;
use paths::check_paths;
pub use paths::{output_folder, output_target};

/// A usage error: a rule between flags broken (or a value refused once parsing is done),
/// printed on one line; exit code 2 ([`crate::cmd::exit_code`]).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// What `nqueens plan` describes: a long run of one board in shards, before it starts.
#[derive(Clone, Debug)]
pub struct PlanConfig {
    /// The board side.
    pub n: u32,
    /// The shards K.
    pub shards: usize,
    /// Worker threads per shard.
    pub threads: usize,
    /// The algorithm asked for (`auto` is resolved by the command, on this machine).
    pub algorithm: Algorithm,
    /// The CPU time to spend counting the random sample; `None` skips the estimate.
    pub sample: Option<Duration>,
    /// The half-width of the CPU interval to budget for, a fraction of the estimate (0.15 for
    /// ±15%).
    pub precision: f64,
    /// The sample's seed; `None` takes one from the clock.
    pub seed: Option<u64>,
    /// How to write the plan.
    pub format: PlanFormat,
    /// The instruction-set level the sample is counted at.
    pub level: Level,
    /// The devices the sample is counted on (the estimate is then their wall-clock time);
    /// CPU only by default.
    pub devices: nqueens_gpu::DeviceSpec,
}

/// What to run: one command and its configuration.
pub enum Config {
    /// `count` of one or more board sizes.
    Count(CountConfig),
    /// `count` of one board with `--checkpoint`, `--shard` or `--breakdown`.
    LongCount(LongConfig),
    /// `merge` of shard results.
    Merge(MergeConfig),
    /// `plan`.
    Plan(PlanConfig),
    /// `solve`.
    Solve(SolveConfig),
    /// `check`.
    Check(CheckConfig),
    /// `devices`, in this format.
    Devices(crate::output::PlanFormat),
    /// `completions SHELL`.
    Completions(clap_complete::Shell),
    /// `man [SUBCOMMAND] [--dir DIR]`.
    Man(crate::cli::ManArgs),
}

/// How a count is written: format, OEIS check, the sequence of a b-file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// The output format.
    pub format: Format,
    /// Whether to check the count against the OEIS tables (exit 1 on a mismatch).
    pub verify: bool,
    /// The sequence a b-file writes.
    pub sequence: Sequence,
}

/// `count` of board sizes, each counted whole.
pub struct CountConfig {
    /// The board sides, in the order given.
    pub sizes: Vec<u32>,
    /// The devices to open beside the CPU threads (`options.devices` is filled from it when
    /// the count starts: opening a device is no part of reading the command line).
    pub devices: nqueens_gpu::DeviceSpec,
    /// How to count (threads resolved, progress observer made).
    pub options: CountOptions,
    /// How to write each count.
    pub report: Report,
}

/// `count` of one board that is journaled, sharded or broken down.
pub struct LongConfig {
    /// The run (board, shard, journal, breakdown).
    pub run: LongRun,
    /// How to count: threads resolved, the algorithm resolved for the board (the journal and
    /// the shard result record the concrete one).
    pub options: CountOptions,
    /// The devices to open beside the CPU threads, as for [`CountConfig::devices`].
    pub devices: nqueens_gpu::DeviceSpec,
    /// How to write the whole count (a shard writes its JSON result instead).
    pub report: Report,
    /// Where a shard writes its result; `None` for stdout.
    pub output: Option<PathBuf>,
    /// Where to write the breakdown CSV.
    pub breakdown: Option<PathBuf>,
    /// The run's observer (`options.progress` reports to it): the bar, and what a stop waits
    /// for, also with `--progress never`.
    pub tracker: std::sync::Arc<crate::progress::Tracker>,
    /// `--repair`: write a cleaned copy of the journal instead of counting.
    pub repair: bool,
    /// Whether `--algorithm` was given (else `auto` chose, or the journal fixed it).
    pub algorithm_given: bool,
    /// Whether the algorithm is the one an existing journal records (`auto` resuming).
    pub algorithm_from_journal: bool,
}

/// `merge` of shard result files.
pub struct MergeConfig {
    /// The shard result files, and folders whose `*.json` files are shard results.
    pub files: Vec<PathBuf>,
    /// A file listing more of them, one path a line (`-`: standard input).
    pub files_from: Option<PathBuf>,
    /// How to write the total.
    pub report: Report,
    /// The audit to make before merging, if asked for (`--audit`).
    pub audit: Option<AuditConfig>,
}

/// `merge --audit`: what to recount (see [`nqueens_runs::audit`]).
pub struct AuditConfig {
    /// The fraction of every shard's subproblems to recount, 0 to 1.
    pub fraction: f64,
    /// The sample's seed; `None` takes one from the clock (printed).
    pub seed: Option<u64>,
    /// Audit only, without merging (a part of a set).
    pub partial: bool,
    /// Worker threads of the recount.
    pub threads: usize,
}

/// `solve`.
pub enum SolveConfig {
    /// One constructed solution of a board of any size.
    Any {
        /// The board side.
        n: u64,
        /// How to write it.
        format: BoardFormat,
    },
    /// The solutions of one board, in order.
    List {
        /// The board side, at most [`MAX_N`].
        n: u32,
        /// Threads, format, limit, symmetry classes.
        options: SolveOptions,
    },
}

/// `check`.
pub struct CheckConfig {
    /// The list's file; `None` for standard input.
    pub file: Option<PathBuf>,
    /// What to check.
    pub options: CheckOptions,
    /// Whether a valid, distinct but incomplete list passes.
    pub partial: bool,
    /// How the report is written (`--report`).
    pub report: crate::output::PlanFormat,
}

impl Config {
    /// Returns the configuration of the parsed command line `opts`.
    ///
    /// # Errors
    /// [`UsageError`] naming the first rule between flags that `opts` breaks.
    pub fn new(opts: Opts) -> Result<Config, UsageError> {
        Ok(match opts.command {
            Command::Count(args)
                if args.checkpoint.is_some() || args.shard.is_some() || args.breakdown.is_some() =>
            {
                Config::LongCount(long_count(args)?)
            }
            Command::Count(args) => Config::Count(count(args)?),
            Command::Merge(args) => Config::Merge(merge(args)),
            Command::Plan(args) => Config::Plan(plan(args)?),
            Command::Solve(args) => Config::Solve(solve(args)?),
            Command::Check(args) => Config::Check(check(args)),
            Command::Devices(args) => Config::Devices(args.format),
            Command::Completions(args) => Config::Completions(args.shell),
            Command::Man(args) => Config::Man(args),
        })
    }
}

/// The counting options of `args` (CPU threads resolved: none where `--device` names devices
/// without `cpu`) with `algorithm`.
fn count_options(args: &CountArgs, algorithm: Algorithm) -> CountOptions {
    let cpu = args.device.cpu_only() || args.device.cpu;
    CountOptions {
        threads: if cpu { args.threads.unwrap_or_else(available_threads) } else { 0 },
        devices: Vec::new(),
        algorithm,
        split_depth: args.split_depth,
        progress: args.progress.progress(),
        stats: args.stats,
        d4_search: args.d4_search,
        level: args.isa.unwrap_or_else(nqueens::arch::Level::best),
    }
}

/// Returns the algorithm a count on `args.device` runs (`auto` resolved to d4 where there are
/// devices), refusing an algorithm, board or thread count that the devices cannot take.
fn device_algorithm(args: &CountArgs, sizes: &[u32]) -> Result<Algorithm, UsageError> {
    let spec = &args.device;
    if spec.cpu_only() {
        return Ok(args.algorithm);
    }
    let list = device_list(spec);
    if !matches!(args.algorithm, Algorithm::Auto | Algorithm::D4) {
        return Err(UsageError(format!(
            "--device {list} counts d4 subproblems, not --algorithm {}: use --algorithm d4 (or auto), or --device cpu",
            args.algorithm
        )));
    }
    if let Some(&n) = sizes.iter().find(|&&n| n > nqueens_gpu::MAX_N) {
        return Err(UsageError(format!(
            "board size {n} is too large for --device {list}: the GPU kernels take n <= {}; use --device cpu",
            nqueens_gpu::MAX_N
        )));
    }
    if let (Some(t), false) = (args.threads, spec.cpu) {
        return Err(UsageError(format!(
            "-j {t} sets CPU worker threads, but --device {list} runs none: add cpu (--device {list},cpu) or leave -j out"
        )));
    }
    Ok(Algorithm::D4)
}

/// Returns the device list as `--device` spells it.
fn device_list(spec: &nqueens_gpu::DeviceSpec) -> String {
    let mut parts: Vec<String> = spec
        .devices
        .iter()
        .map(|(api, indices)| match indices {
            None => api.name().to_string(),
            Some(v) => {
                format!("{}:{}", api.name(), v.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","))
            }
        })
        .collect();
    if spec.cpu {
        parts.push("cpu".into());
    }
    parts.join(",")
}

fn count(args: CountArgs) -> Result<CountConfig, UsageError> {
    let sizes: Vec<u32> = args.sizes.iter().flat_map(|s| s.iter()).collect();
    let algorithm = device_algorithm(&args, &sizes)?;
    let report =
        Report { format: args.format.unwrap_or_default(), verify: args.verify, sequence: args.sequence };
    if args.sequence.needs_classes() && args.algorithm == Algorithm::Mirror {
        return Err(sequence_needs_classes(args.sequence, Algorithm::Mirror));
    }
    check_offset(report.format, report.sequence, sizes.iter().copied())?;
    if report.format == Format::Bfile {
        // A b-file lists each n once, in increasing order (OEIS b-file format).
        if let Some(w) = sizes.windows(2).find(|w| w[1] <= w[0]) {
            return Err(UsageError(format!(
                "--format bfile needs board sizes in increasing order, each once: {} comes after {}",
                w[1], w[0]
            )));
        }
    }
    Ok(CountConfig { options: count_options(&args, algorithm), sizes, devices: args.device.clone(), report })
}

fn long_count(args: CountArgs) -> Result<LongConfig, UsageError> {
    let n = single_size(&args)?;
    let device_algorithm = device_algorithm(&args, &[n])?;
    check_paths(&args)?;
    if args.stats {
        // A resumed or sharded run has no whole-run timing or node count to report.
        return Err(UsageError(
            "--stats describes one whole run, not --checkpoint, --shard or --breakdown: the breakdown CSV has nodes per subproblem"
                .into(),
        ));
    }
    if args.verify && args.shard.is_some() {
        return Err(UsageError(
            "--verify checks a whole count, not one shard: use it with `nqueens merge`".into(),
        ));
    }
    if let (Some(_), Some(format)) = (args.shard, args.format)
        && format != Format::Json
    {
        return Err(UsageError(format!(
            "--format {} does not apply to --shard: a shard writes its JSON result for `nqueens merge`; give --format to `nqueens merge`",
            Format::NAMES[format as usize]
        )));
    }
    let report =
        Report { format: args.format.unwrap_or_default(), verify: args.verify, sequence: args.sequence };
    check_offset(report.format, report.sequence, std::iter::once(n))?;
    // The journal and the shard result record the concrete algorithm (`auto` resolves per n,
    // counting the join buffers of every thread that will run, as a plain count does). An
    // existing journal fixes it: its subproblems are those of its algorithm, and what `auto`
    // picks depends on the memory free at the time.
    let from_journal = match (&args.checkpoint, args.algorithm) {
        (Some(path), Algorithm::Auto) => nqueens_runs::run::journal_algorithm(path, n, args.shard),
        _ => None,
    };
    let algorithm = from_journal
        .unwrap_or_else(|| device_algorithm.resolve_for(n, args.threads.unwrap_or_else(available_threads)));
    if !args.device.cpu_only() && algorithm != Algorithm::D4 {
        return Err(UsageError(format!(
            "--device {} counts d4 subproblems, but the journal {} is of --algorithm {algorithm}: resume it with --device cpu",
            device_list(&args.device),
            args.checkpoint.as_deref().unwrap_or(std::path::Path::new("")).display()
        )));
    }
    if args.sequence.needs_classes() && algorithm == Algorithm::Mirror {
        return Err(sequence_needs_classes(args.sequence, Algorithm::Mirror));
    }
    let run = LongRun {
        n,
        shard: args.shard,
        checkpoint: args.checkpoint.clone(),
        breakdown: args.breakdown.is_some(),
    };
    let tracker = args.progress.tracker();
    let options =
        CountOptions { progress: nqueens::Progress::To(tracker.clone()), ..count_options(&args, algorithm) };
    Ok(LongConfig {
        run,
        options,
        devices: args.device.clone(),
        report,
        output: args.output,
        breakdown: args.breakdown,
        tracker,
        repair: args.repair,
        algorithm_given: args.algorithm != Algorithm::Auto,
        algorithm_from_journal: from_journal.is_some(),
    })
}

/// The configuration of `plan`; with `--device`, the algorithm and board the devices take, as
/// for `count`.
fn plan(args: PlanArgs) -> Result<PlanConfig, UsageError> {
    let spec = &args.device;
    let mut algorithm = args.algorithm;
    if !spec.cpu_only() {
        let list = device_list(spec);
        if !matches!(algorithm, Algorithm::Auto | Algorithm::D4) {
            return Err(UsageError(format!(
                "--device {list} counts d4 subproblems, not --algorithm {algorithm}: use --algorithm d4 (or auto), or --device cpu"
            )));
        }
        if args.n > nqueens_gpu::MAX_N {
            return Err(UsageError(format!(
                "board size {} is too large for --device {list}: the GPU kernels take n <= {}; use --device cpu",
                args.n,
                nqueens_gpu::MAX_N
            )));
        }
        algorithm = Algorithm::D4;
    }
    Ok(PlanConfig {
        n: args.n,
        shards: args.shards,
        threads: args.threads,
        algorithm,
        sample: (args.sample_seconds > 0.0).then(|| Duration::from_secs_f64(args.sample_seconds)),
        precision: args.precision,
        seed: args.seed,
        format: args.format,
        level: args.isa.unwrap_or_else(Level::best),
        devices: args.device,
    })
}

fn merge(args: MergeArgs) -> MergeConfig {
    let report = Report { format: args.format, verify: args.verify, sequence: args.sequence };
    let audit = args.audit.map(|fraction| AuditConfig {
        fraction,
        seed: args.seed,
        partial: args.partial,
        threads: args.threads.unwrap_or_else(available_threads),
    });
    MergeConfig { files: args.files, files_from: args.files_from, report, audit }
}

fn solve(args: SolveArgs) -> Result<SolveConfig, UsageError> {
    if args.any {
        return Ok(SolveConfig::Any { n: args.n, format: args.format });
    }
    let n = u32::try_from(args.n).ok().filter(|&n| n <= MAX_N).ok_or_else(|| {
        UsageError(format!(
            "board size {} is too large: the u64 masks allow n <= {MAX_N} (--any writes one solution of any size)",
            args.n
        ))
    })?;
    let options = SolveOptions {
        threads: args.threads.unwrap_or_else(available_threads),
        format: args.format,
        limit: args.limit,
        unique: args.unique,
        split_depth: None,
    };
    Ok(SolveConfig::List { n, options })
}

fn check(args: CheckArgs) -> CheckConfig {
    let options = CheckOptions { format: args.format, size: args.size, unique: args.unique };
    let file = (args.file.as_os_str() != "-").then_some(args.file);
    CheckConfig { file, options, partial: args.partial, report: args.report }
}

/// Returns the one board size of `args`.
///
/// # Errors
/// [`UsageError`] if `args` names more than one size.
fn single_size(args: &CountArgs) -> Result<u32, UsageError> {
    match args.sizes.as_slice() {
        [s] if s.first == s.last => Ok(s.first),
        _ => {
            let given: Vec<String> =
                args.sizes
                    .iter()
                    .map(|s| {
                        if s.first == s.last {
                            s.first.to_string()
                        } else {
                            format!("{}..{}", s.first, s.last)
                        }
                    })
                    .collect();
            Err(UsageError(format!(
                "--checkpoint, --shard and --breakdown count one board size, not '{}': run one command per n",
                given.join(" ")
            )))
        }
    }
}

/// Returns the refusal of a `--sequence` that follows from the symmetry classes (`unique`,
/// `rot180`, `rot90`) for `algorithm`, which does not count them.
fn sequence_needs_classes(sequence: Sequence, algorithm: Algorithm) -> UsageError {
    let what = match sequence {
        Sequence::Unique => "fundamental solutions",
        _ => "the symmetry classes",
    };
    UsageError(format!(
        "--sequence {} needs {what}, which --algorithm {algorithm} does not count: use auto, d4 or join",
        sequence.name()
    ))
}

/// Refuses to write `count` as `report` says when its sequence needs symmetry classes that the
/// count lacks (a count of n ≥ 1 by an algorithm that does not classify: merged mirror shards).
///
/// # Errors
/// [`UsageError`] naming the sequence and the algorithm.
pub fn check_classes(report: &Report, count: &Count) -> Result<(), UsageError> {
    if report.sequence.needs_classes() && count.classes.is_none() && count.n >= 1 {
        return Err(sequence_needs_classes(report.sequence, count.algorithm));
    }
    Ok(())
}

/// Refuses a b-file of a sequence with offset 1 (A002562, A032522, A033148) when every size
/// asked for is n = 0, which has no term: the b-file would be empty. A range such as 0..12 just
/// skips n = 0.
///
/// # Errors
/// [`UsageError`] naming the sequence and its offset.
pub fn check_offset(
    format: Format,
    sequence: Sequence,
    mut sizes: impl Iterator<Item = u32>,
) -> Result<(), UsageError> {
    if !matches!(format, Format::Bfile | Format::Plain)
        || sequence == Sequence::Solutions
        || sizes.any(|n| n >= 1)
    {
        return Ok(());
    }
    let oeis = match sequence {
        Sequence::Unique => "A002562",
        Sequence::Rot180 => "A032522",
        _ => "A033148",
    };
    Err(UsageError(format!(
        "--sequence {} starts at n = 1 (OEIS {oeis}'s offset): n = 0 has no term",
        sequence.name()
    )))
}
