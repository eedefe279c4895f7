//! `nqueens count`: counts each board size and writes one record per size.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::algo::join;
use nqueens::output::Record;
use nqueens::{Algorithm, CountOptions, Counter, oeis};

use super::{EXIT_FAILED, UsageError};
use crate::cli::CountArgs;

/// Counts every size of `args` in order, writing each record as soon as it is counted.
///
/// # Errors
/// A library error (such as a thread pool that cannot start) or a failed write.
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    if args.checkpoint.is_some() || args.shard.is_some() || args.breakdown.is_some() {
        return super::long::run(args);
    }
    // Nothing to save: a signal ends the run at once (exit 130 for SIGINT, 143 for SIGTERM).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    let options = CountOptions {
        threads: args.threads.unwrap_or_else(num_cpus::get),
        algorithm: args.algorithm,
        split_depth: args.split_depth,
        progress: args.progress.progress(),
        stats: args.stats,
        d4_search: args.d4_search,
    };
    if args.sequence.needs_classes() && args.algorithm == Algorithm::Mirror {
        return Err(super::sequence_needs_classes(args.sequence, Algorithm::Mirror).into());
    }
    super::check_offset(
        args.format.unwrap_or_default(),
        args.sequence,
        args.sizes.iter().flat_map(|s| s.iter()),
    )?;
    if args.format == Some(nqueens::output::Format::Bfile) {
        // A b-file lists each n once, in increasing order (OEIS b-file format).
        let all: Vec<u32> = args.sizes.iter().flat_map(|s| s.iter()).collect();
        if let Some(w) = all.windows(2).find(|w| w[1] <= w[0]) {
            return Err(UsageError(format!(
                "--format bfile needs board sizes in increasing order, each once: {} comes after {}",
                w[1], w[0]
            ))
            .into());
        }
    }
    let counter = Counter::new(&options).map_err(super::from_library)?;
    // Refuse a join board whose quarter table would not fit before counting anything.
    if options.algorithm == Algorithm::Join {
        for n in args.sizes.iter().flat_map(|s| s.iter()).filter(|&n| n >= join::MIN_N) {
            join::check_memory_for(n, options.threads).map_err(super::from_library)?;
        }
    }
    let stdout = BufWriter::new(io::stdout().lock());
    let mut sink = args.format.unwrap_or_default().sink_for(Box::new(stdout), args.verify, args.sequence);
    let mut mismatches = 0;
    for n in args.sizes.iter().flat_map(|s| s.iter()) {
        let count = counter.count(n).map_err(|e| match e {
            // Only a thread pool that cannot start is a failed run; the rest is bad usage.
            nqueens::Error::ThreadPool { .. } => anyhow::Error::new(e).context(format!("counting n = {n}")),
            _ => super::from_library(e),
        })?;
        let record = Record::new(&count);
        sink.record(&record).context("writing the result")?;
        if args.verify && record.verified == Some(false) {
            mismatches += 1;
            for line in oeis::check(&count).1 {
                super::warn(format_args!("nqueens: verification failed for n = {n}: {line}"));
            }
        }
    }
    Ok(if mismatches > 0 { ExitCode::from(EXIT_FAILED) } else { ExitCode::SUCCESS })
}
