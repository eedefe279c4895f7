//! `nqueens solve`: lists the solutions of one board size, in order, as the search runs; or, with
//! `--any`, writes one constructed solution of any size at once.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;
use nqueens::enumerate::Stream;
use nqueens::{boards::BoardFormat, construct, oeis};

use crate::config::SolveConfig;

/// From this board size on, the first solutions in lexicographic order can take hours: the
/// search must exhaust ever larger subtrees of dead ends before the first board (a plain C
/// backtracker finds none of n = 40's first in 60 s).
const SLOW_FIRST_FROM: u64 = 40;

/// A listing estimated above this many bytes warns when stdout is a terminal (100 MB of boards
/// is no longer readable there). Into a pipe or a file it does not: `solve 20 | head` is a fine
/// way to read the first boards, and the reader decides when to stop.
const TERMINAL_BYTES: f64 = 1e8;

/// Writes the solutions `config` asks for to stdout.
///
/// # Errors
/// Worker threads that cannot start as a failed run; a failed write (a broken pipe is treated as
/// the normal end by `main`).
pub fn run(config: SolveConfig) -> anyhow::Result<ExitCode> {
    // Nothing to save: a signal ends the command at once, with one line (exit 130 or 143).
    crate::signals::exit_at_once().context("installing signal handlers")?;
    let (n, options) = match config {
        SolveConfig::Any { n, format } => {
            if let Some(warning) = any_warning(n, format, io::stdout().is_terminal()) {
                super::warn(format_args!("nqueens: warning: {warning}"));
            }
            let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
            let written = construct::write_any(n, format, &mut out).context("writing the solution")?;
            out.flush().context("writing the solution")?;
            if written == 0 {
                // --any promises one board: none is a failed search, as grep's exit 1.
                super::warn(format_args!(
                    "nqueens: n = {n} has no solution (OEIS A000170: Q(2) = Q(3) = 0): --any writes one board for n = 0, 1 and every n >= 4"
                ));
                return Ok(ExitCode::from(super::EXIT_FAILED));
            }
            return Ok(ExitCode::SUCCESS);
        }
        SolveConfig::List { n, options } => (n, options),
    };
    if let Some(warning) =
        warning(n, options.format, options.limit, options.unique, io::stdout().is_terminal())
    {
        super::warn(format_args!("nqueens: warning: {warning}"));
    }
    let stream = Stream::new(n, &options).map_err(super::from_library)?;
    // The stream hands over chunks of 64 KiB; the buffer gathers the small header and footer.
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    stream.write_to(&mut out).context("writing the solutions")?;
    out.flush().context("writing the solutions")?;
    Ok(ExitCode::SUCCESS)
}

/// Returns a warning for a request that cannot finish in reasonable time, pointing to what
/// will: a board of n ≥ 40 (the first solutions can take hours), or a listing estimated above
/// 100 MB to a terminal. The estimate is Q(n) (OEIS A000170; past its last
/// known term, Q(27) × 10 per further n, an underestimate: Q grows more than 10× per n there)
/// times the bytes of one board in `format`, capped by `limit`.
fn warning(n: u32, format: BoardFormat, limit: Option<u64>, unique: bool, terminal: bool) -> Option<String> {
    if u64::from(n) >= SLOW_FIRST_FROM && limit != Some(0) {
        return Some(format!(
            "the first solutions of n = {n} in lexicographic order can take hours to find; \
             --any writes one solution at once"
        ));
    }
    let last = oeis::A000170.max_n();
    let solutions = match oeis::A000170.get(n) {
        Some(q) => q as f64,
        None => oeis::A000170.get(last)? as f64 * 10f64.powi((n - last) as i32),
    } / if unique { 8.0 } else { 1.0 };
    let per_board = format.bytes_per_board(n as usize) as f64;
    let boards = limit.map_or(solutions, |k| solutions.min(k as f64));
    let bytes = boards * per_board;
    if terminal && bytes > TERMINAL_BYTES {
        Some(format!(
            "this lists about {boards:.1e} boards, {bytes:.1e} bytes, to the terminal; use --limit K \
             for the first K, or --any for one solution at once"
        ))
    } else {
        None
    }
}

/// Returns a warning for `solve N --any` to a terminal when the one board is larger than a
/// listing that warns (`TERMINAL_BYTES`): n = 100,000 in the board format is 10 GB.
fn any_warning(n: u64, format: BoardFormat, terminal: bool) -> Option<String> {
    let bytes = format.bytes_per_board(usize::try_from(n).unwrap_or(usize::MAX)) as f64;
    (terminal && bytes > TERMINAL_BYTES).then(|| {
        format!(
            "the board of n = {n} in the {format} format is about {bytes:.1e} bytes, to the terminal; --format cols writes it in about {:.1e}, or send it to a file",
            BoardFormat::Cols.bytes_per_board(usize::try_from(n).unwrap_or(usize::MAX)) as f64
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_board_to_a_terminal_warns() {
        let w = any_warning(100_000, BoardFormat::Board, true).unwrap();
        assert!(w.starts_with("the board of n = 100000 in the board format is about 1.0e10 bytes"), "{w}");
        assert_eq!(any_warning(100_000, BoardFormat::Board, false), None);
        assert_eq!(any_warning(1000, BoardFormat::Board, true), None);
        assert!(any_warning(u64::from(u32::MAX), BoardFormat::Cols, true).is_some());
    }

    #[test]
    fn warns_where_a_listing_cannot_finish() {
        // Q(30) boards to a terminal (Q(27) × 1,000, an underestimate).
        let w = warning(30, BoardFormat::Cols, None, false, true).unwrap();
        assert!(w.starts_with("this lists about 2.3e20 boards"), "{w}");
        // Q(16) to a terminal floods it; into a pipe or a file the reader decides.
        assert!(warning(16, BoardFormat::Cols, None, false, true).unwrap().contains("to the terminal"));
        assert_eq!(warning(16, BoardFormat::Cols, None, false, false), None);
        assert_eq!(warning(30, BoardFormat::Cols, None, false, false), None);
        // A limit keeps it small; n >= 40 warns about the search itself.
        assert_eq!(warning(30, BoardFormat::Board, Some(3), false, true), None);
        assert!(warning(40, BoardFormat::Cols, Some(1), false, false).unwrap().contains("--any"));
        assert_eq!(warning(8, BoardFormat::Board, None, false, true), None);
    }
}
