//! The csv format: a header row, then one row per n (the csv crate does the quoting).

use std::io::{self, Write};

use serde::Serialize;

use super::{Record, Sink};

/// A csv row: the record with its classes flattened into columns `c8,c4,c2,c1` (the csv crate
/// cannot write a nested map).
#[derive(Serialize)]
struct Row<'r> {
    n: u32,
    solutions: u128,
    unique: Option<u128>,
    c8: Option<u128>,
    c4: Option<u128>,
    c2: Option<u128>,
    c1: Option<u128>,
    seconds: f64,
    threads: usize,
    algorithm: &'r str,
    subproblems: usize,
    split_depth: u32,
    verified: Option<bool>,
}

impl<'r> From<&'r Record> for Row<'r> {
    fn from(r: &'r Record) -> Self {
        Row {
            n: r.n,
            solutions: r.solutions,
            unique: r.unique,
            c8: r.classes.map(|c| c.orbit8),
            c4: r.classes.map(|c| c.orbit4),
            c2: r.classes.map(|c| c.orbit2),
            c1: r.classes.map(|c| c.orbit1),
            seconds: r.seconds,
            threads: r.threads,
            algorithm: r.algorithm,
            subproblems: r.subproblems,
            split_depth: r.split_depth,
            verified: r.verified,
        }
    }
}

pub(super) struct Csv<'a> {
    out: csv::Writer<Box<dyn Write + 'a>>,
}

impl<'a> Csv<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>) -> Self {
        Csv { out: csv::Writer::from_writer(out) }
    }
}

impl Sink for Csv<'_> {
    fn record(&mut self, r: &Record) -> io::Result<()> {
        self.out.serialize(Row::from(r)).map_err(|e| match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            other => io::Error::other(format!("{other:?}")),
        })?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, tests::render};

    #[test]
    fn exact_rows() {
        let want = "\
n,solutions,unique,c8,c4,c2,c1,seconds,threads,algorithm,subproblems,split_depth,verified
4,2,,,,,,0.25,2,mirror,10,2,true
5,11,,,,,,0.25,2,mirror,10,2,false
29,1180591620717411303424,,,,,,0.25,2,mirror,10,2,
8,92,12,11,1,0,0,0.25,2,d4,10,2,true
";
        assert_eq!(render(Format::Csv, false), want);
    }
}
