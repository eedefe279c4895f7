//! `nqueens completions SHELL` and `nqueens man`: the shell completions (clap_complete) and the
//! manual page (clap_mangen), both generated from the one clap definition in [`crate::cli`], so
//! they cannot fall behind the options.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::CommandFactory;

use crate::cli::Opts;

/// Writes the completion script for `shell` to stdout. The script is generated into memory
/// first: `clap_complete::generate` panics on a failed write (a full disk, a closed stream).
///
/// # Errors
/// A failed write.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Opts::command(), "nqueens", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script).context("writing the completions")?;
    out.flush().context("writing the completions")?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the manual page (roff, section 1) to stdout.
///
/// # Errors
/// A failed write.
pub fn man() -> anyhow::Result<ExitCode> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Opts::command()).render(&mut page).context("rendering the manual page")?;
    let mut out = io::stdout().lock();
    out.write_all(&page).context("writing the manual page")?;
    out.flush().context("writing the manual page")?;
    Ok(ExitCode::SUCCESS)
}
