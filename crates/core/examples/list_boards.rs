//! Listing boards: every solution of one board in lexicographic order, as a vector of columns
//! (an iterator, searched in parallel ahead of the reader), or written in one of the formats of
//! `nqueens solve`.
//!
//! `cargo run --release --example list_boards -- 6` prints the 4 solutions of n = 6 as columns,
//! the canonical board of each symmetry class, and the first board drawn with Q and `.`.

use std::io::{self, Write};

use nqueens::boards::BoardFormat;
use nqueens::enumerate::{SolveOptions, solutions, write_solutions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = std::env::args().nth(1).map_or(6, |a| a.parse().expect("a board size, 0..=63"));
    // Each board is the 0-based column of the queen in row 0, 1, …; `nqueens::check::is_solution`
    // checks one.
    let mut count = 0;
    for board in solutions(n)? {
        assert!(nqueens::check::is_solution(&board));
        count += 1;
        if count <= 10 {
            println!("{board:?}");
        }
    }
    println!("{count} solutions of n = {n}");

    // One board per symmetry class, in the cols format (1-based columns), as `nqueens solve N
    // --unique --format cols` writes them.
    let unique =
        SolveOptions { unique: true, format: BoardFormat::Cols, limit: Some(5), ..SolveOptions::default() };
    let mut out = io::stdout().lock();
    writeln!(out, "fundamental solutions (at most 5):")?;
    write_solutions(n, &unique, &mut out)?;

    // The first solution drawn as rows of Q and '.'.
    let first = SolveOptions { limit: Some(1), ..SolveOptions::default() };
    write_solutions(n, &first, &mut out)?;
    Ok(())
}
