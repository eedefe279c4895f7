//! `nqueens count`: counts each board size and writes one record per size.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use crate::output::Record;
use anyhow::Context;
use nqueens::{Algorithm, Counter};

use super::EXIT_FAILED;
use crate::config::CountConfig;

/// Counts every size of `config` in order, writing each record as soon as it is counted.
///
/// # Errors
/// A library error (such as a thread pool that cannot start) or a failed write.
pub fn run(config: CountConfig) -> anyhow::Result<ExitCode> {
    let CountConfig { sizes, mut options, devices, report } = config;
    // The devices before the signal handlers, which a driver that starts would replace; the
    // stop signals held meanwhile, and delivered to ours.
    let held = crate::signals::hold();
    match super::open_devices(&devices) {
        Ok(opened) => options.devices = opened,
        Err(e) => return held.pending().map(crate::signals::stopped_before_work).ok_or(e),
    }
    // Nothing to save: a signal ends the run at once (exit 130 for SIGINT, 143 for SIGTERM).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    drop(held);
    let counter = Counter::new(&options).map_err(super::from_library)?;
    // Refuse a join board whose quarter table would not fit before counting anything.
    if options.algorithm == Algorithm::Join {
        for &n in &sizes {
            options.algorithm.check_memory(n, options.threads).map_err(super::from_library)?;
        }
    }
    let stdout = BufWriter::new(io::stdout().lock());
    let mut sink = report.format.sink_for(Box::new(stdout), report.verify, report.sequence);
    let mut mismatches = 0;
    for n in sizes {
        let count = counter.count(n).map_err(super::from_library)?;
        let record = Record::new(&count);
        sink.record(&record).context("writing the result")?;
        if report.verify && record.verified == Some(false) {
            mismatches += 1;
            for line in count.check_known().1 {
                super::warn(format_args!("nqueens: verification failed for n = {n}: {line}"));
            }
        }
    }
    Ok(if mismatches > 0 { ExitCode::from(EXIT_FAILED) } else { ExitCode::SUCCESS })
}
