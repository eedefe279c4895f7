//! `nqueens count`: counts each board size and writes one record per size.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::output::Record;
use nqueens::{Algorithm, CountOptions, Counter, join, oeis};

use super::{EXIT_FAILED, UsageError};
use crate::cli::CountArgs;

/// Counts every size of `args` in order, writing each record as soon as it is counted.
///
/// # Errors
/// A library error (such as a thread pool that cannot start) or a failed write.
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let options = CountOptions {
        threads: args.threads.unwrap_or_else(num_cpus::get),
        algorithm: args.algorithm,
        split_depth: args.split_depth,
        progress: args.progress,
        stats: false,
    };
    let counter = Counter::new(&options).map_err(|e| UsageError(e.to_string()))?;
    // Refuse a join board whose quarter table would not fit before counting anything.
    if options.algorithm == Algorithm::Join {
        for n in args.sizes.iter().flat_map(|s| s.iter()).filter(|&n| n >= join::MIN_N) {
            join::check_memory(n).map_err(|e| UsageError(e.to_string()))?;
        }
    }
    let stdout = BufWriter::new(io::stdout().lock());
    let mut sink = args.format.sink(Box::new(stdout), args.verify);
    let mut mismatches = 0;
    for n in args.sizes.iter().flat_map(|s| s.iter()) {
        let count = counter.count(n).with_context(|| format!("counting n = {n}"))?;
        let record = Record::new(&count);
        sink.record(&record).context("writing the result")?;
        if args.verify && record.verified == Some(false) {
            mismatches += 1;
            let known = oeis::A000170.get(n).expect("a mismatch implies a known value");
            eprintln!(
                "nqueens: verification failed for n = {n}: counted {}, A000170 says {known}",
                count.solutions
            );
        }
    }
    Ok(if mismatches > 0 { ExitCode::from(EXIT_FAILED) } else { ExitCode::SUCCESS })
}
