//! The csv format: a header row, then one row per n (the csv crate does the quoting).

use std::io::{self, Write};

use super::{Record, Sink};

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
        self.out.serialize(r).map_err(|e| match e.into_kind() {
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
n,solutions,seconds,threads,algorithm,subproblems,split_depth,verified
4,2,0.25,2,mirror,10,2,true
5,11,0.25,2,mirror,10,2,false
29,1180591620717411303424,0.25,2,mirror,10,2,
";
        assert_eq!(render(Format::Csv, false), want);
    }
}
