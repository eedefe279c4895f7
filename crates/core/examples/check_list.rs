//! Checking a list of boards as `nqueens solve` writes it (any of its formats, detected): each
//! invalid board, each duplicate, and whether the list is complete.
//!
//! `cargo run --release --example check_list -- 8` lists the 92 solutions of n = 8 in the cols
//! format, checks that list (complete), then checks it again with one board dropped and one
//! queen moved, and prints each report.

use nqueens::boards::BoardFormat;
use nqueens::check::{CheckOptions, check};
use nqueens::enumerate::{SolveOptions, write_solutions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = std::env::args().nth(1).map_or(8, |a| a.parse().expect("a board size, 4..=12"));
    let mut list = Vec::new();
    let options = SolveOptions { format: BoardFormat::Cols, ..SolveOptions::default() };
    write_solutions(n, &options, &mut list)?;

    let report = check(list.as_slice(), &CheckOptions::default())?;
    println!("{}", report.summary());
    assert!(report.ok());

    // Drop the last board and move a queen of the first: two problems, and incomplete.
    let text = String::from_utf8(list)?;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.pop();
    let mut first: Vec<u32> = lines[0].split(' ').map(|c| c.parse().unwrap()).collect();
    first[1] = first[0];
    lines[0] = first.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let damaged = lines.join("\n");
    let report = check(damaged.as_bytes(), &CheckOptions::default())?;
    for problem in &report.problems {
        println!("{problem}");
    }
    println!("{}", report.summary());
    assert!(!report.ok());
    Ok(())
}
