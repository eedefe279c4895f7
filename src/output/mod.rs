//! Result formats for `nqueens count`: one file per format behind the small [`Sink`] trait.
//!
//! Each format writes one record per board size as soon as it is counted, so a long range
//! (`nqueens count 1..20`) shows its rows as they come.

mod bfile;
mod csv;
mod json;
mod text;

use std::io::{self, Write};
use std::str::FromStr;

use serde::Serialize;

use crate::{Count, oeis};

/// One counted board, as every format writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// The board side.
    pub n: u32,
    /// Q(n), the number of solutions (OEIS A000170), exact.
    pub solutions: u128,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// The algorithm's name (`mirror`).
    pub algorithm: &'static str,
    /// Subproblems the board was split into.
    pub subproblems: usize,
    /// Rows fixed per subproblem.
    pub split_depth: u32,
    /// Whether `solutions` equals OEIS A000170: `None` when n is beyond the known values.
    pub verified: Option<bool>,
    /// Search statistics, present with `--stats`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
}

impl Record {
    /// Returns the record's fields in column order as (name, value) pairs, the way the csv format
    /// writes them: `None` values are empty, and the statistics columns appear only with
    /// statistics.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |v: Option<bool>| v.map(|b| b.to_string()).unwrap_or_default();
        let mut fields = vec![
            ("n", self.n.to_string()),
            ("solutions", self.solutions.to_string()),
            ("seconds", self.seconds.to_string()),
            ("threads", self.threads.to_string()),
            ("algorithm", self.algorithm.to_string()),
            ("subproblems", self.subproblems.to_string()),
            ("split_depth", self.split_depth.to_string()),
            ("verified", opt(self.verified)),
        ];
        if let Some(st) = &self.stats {
            fields.extend([
                ("nodes", st.nodes.to_string()),
                ("nodes_per_second", format!("{:.0}", st.nodes_per_second)),
                ("cpu_seconds", format!("{:.6}", st.cpu_seconds)),
                ("efficiency", format!("{:.4}", st.efficiency)),
            ]);
        }
        fields
    }
}

/// Search statistics of one count (`nqueens count --stats`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Queen placements the search made (search-tree nodes below the subproblems' prefixes).
    pub nodes: u128,
    /// Nodes per wall-clock second.
    pub nodes_per_second: f64,
    /// CPU seconds of the process during the count (user + system, all threads).
    pub cpu_seconds: f64,
    /// Parallel efficiency: CPU seconds / (wall seconds × threads), 0 to 1.
    pub efficiency: f64,
}

impl Stats {
    /// Returns the statistics of `count`, if it was counted with statistics.
    pub fn of(count: &Count) -> Option<Stats> {
        let (nodes, cpu) = (count.nodes?, count.cpu_seconds?);
        let wall = count.seconds.max(1e-9);
        Some(Stats {
            nodes,
            nodes_per_second: nodes as f64 / wall,
            cpu_seconds: cpu,
            efficiency: cpu / (wall * count.threads as f64),
        })
    }
}

impl Record {
    /// Returns the record of `count`, checked against the OEIS A000170 table.
    pub fn new(count: &Count) -> Record {
        Record::with_table(count, &oeis::A000170)
    }

    /// Returns the record of `count`, checked against `table` (a test can pass a wrong table to
    /// reach the failure path).
    pub fn with_table(count: &Count, table: &oeis::KnownValues) -> Record {
        Record {
            n: count.n,
            solutions: count.solutions,
            seconds: count.seconds,
            threads: count.threads,
            algorithm: count.algorithm.name(),
            subproblems: count.subproblems,
            split_depth: count.split_depth,
            verified: table.verify(count.n, count.solutions),
            stats: Stats::of(count),
        }
    }
}

/// The output formats of `nqueens count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// An aligned table, one row per n (n, solutions, seconds, threads).
    #[default]
    Text,
    /// JSON Lines: one object per n; counts are JSON integers.
    Json,
    /// A header row, then one row per n.
    Csv,
    /// OEIS b-file lines `n a(n)`.
    Bfile,
}

impl Format {
    /// Every format, as the CLI spells them.
    pub const NAMES: [&'static str; 4] = ["text", "json", "csv", "bfile"];

    /// Returns a sink that writes records in this format to `out`; `show_verified` adds the
    /// verification column to the text table.
    pub fn sink<'a>(self, out: Box<dyn Write + 'a>, show_verified: bool) -> Box<dyn Sink + 'a> {
        match self {
            Format::Text => Box::new(text::Text::new(out, show_verified)),
            Format::Json => Box::new(json::Json::new(out)),
            Format::Csv => Box::new(csv::Csv::new(out)),
            Format::Bfile => Box::new(bfile::Bfile::new(out)),
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            "bfile" => Ok(Format::Bfile),
            _ => Err(format!("unknown format '{s}': use one of {}", Format::NAMES.join(", "))),
        }
    }
}

/// A destination for records in one format.
pub trait Sink {
    /// Writes one record (and, before the first, any header) and flushes it.
    ///
    /// # Errors
    /// Any error of the underlying writer, such as a broken pipe.
    fn record(&mut self, record: &Record) -> io::Result<()>;
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn sample() -> Vec<Record> {
        let mk = |n, solutions, verified| Record {
            n,
            solutions,
            seconds: 0.25,
            threads: 2,
            algorithm: "mirror",
            subproblems: 10,
            split_depth: 2,
            verified,
            stats: None,
        };
        vec![mk(4, 2, Some(true)), mk(5, 11, Some(false)), mk(29, 1u128 << 70, None)]
    }

    pub(super) fn render(format: Format, show_verified: bool) -> String {
        let mut buf = Vec::new();
        {
            let mut sink = format.sink(Box::new(&mut buf), show_verified);
            for r in sample() {
                sink.record(&r).unwrap();
            }
        }
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn formats_parse() {
        for name in Format::NAMES {
            assert!(name.parse::<Format>().is_ok());
        }
        assert_eq!(
            "xml".parse::<Format>().unwrap_err(),
            "unknown format 'xml': use one of text, json, csv, bfile"
        );
    }

    #[test]
    fn records_verify_against_the_table() {
        let count = Count {
            n: 8,
            solutions: 92,
            unique: None,
            classes: None,
            algorithm: crate::Algorithm::Mirror,
            seconds: 0.0,
            threads: 1,
            subproblems: 1,
            split_depth: 1,
            nodes: None,
            cpu_seconds: None,
        };
        assert_eq!(Record::new(&count).verified, Some(true));
        let wrong = oeis::KnownValues { name: "test", offset: 8, values: &[93] };
        assert_eq!(Record::with_table(&count, &wrong).verified, Some(false));
        let beyond = Count { n: 28, ..count };
        assert_eq!(Record::new(&beyond).verified, None);
    }
}
