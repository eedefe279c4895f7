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

/// Returns every manual page, as (file name, roff): the top page `nqueens.1` first, then one
/// per subcommand (`nqueens-count.1`, …), as `clap_mangen::generate_to` names them; the top
/// page's SUBCOMMANDS section points to them.
pub fn pages() -> io::Result<Vec<(String, Vec<u8>)>> {
    fn add(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut page = Vec::new();
        man.render(&mut page)?;
        out.push((man.get_filename(), page));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            add(sub, out)?;
        }
        Ok(())
    }
    let mut cmd = Opts::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    add(cmd, &mut out)?;
    Ok(out)
}

/// Writes a manual page (roff, section 1) to stdout: the top page, or that of `subcommand`;
/// with `--dir`, writes every page into that folder instead and lists them (issue 40: the top
/// page pointed to nqueens-count(1) and the rest, which did not exist).
///
/// # Errors
/// A subcommand that does not exist (exit 2), a failed write.
pub fn man(args: crate::cli::ManArgs) -> anyhow::Result<ExitCode> {
    let pages = pages().context("rendering the manual pages")?;
    let mut out = io::stdout().lock();
    if let Some(dir) = &args.dir {
        for (name, page) in &pages {
            let path = dir.join(name);
            std::fs::write(&path, page).with_context(|| format!("writing {}", path.display()))?;
            writeln!(out, "{}", path.display()).context("writing the list of pages")?;
        }
        out.flush().context("writing the list of pages")?;
        return Ok(ExitCode::SUCCESS);
    }
    let name = match &args.subcommand {
        None => "nqueens.1".to_string(),
        Some(sub) => format!("nqueens-{sub}.1"),
    };
    let Some((_, page)) = pages.iter().find(|(n, _)| *n == name) else {
        let subs: Vec<String> =
            pages[1..].iter().map(|(n, _)| n["nqueens-".len()..n.len() - 2].to_string()).collect();
        return Err(super::UsageError(format!(
            "no manual page for '{}': use one of {}",
            nqueens::boards::escape_controls(args.subcommand.as_deref().unwrap_or("")),
            subs.join(", ")
        ))
        .into());
    };
    out.write_all(page).context("writing the manual page")?;
    out.flush().context("writing the manual page")?;
    Ok(ExitCode::SUCCESS)
}
