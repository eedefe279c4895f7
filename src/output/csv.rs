//! The csv format: a header row, then one row per n (the csv crate does the quoting).

use std::io::{self, Write};

use super::{Record, Sink};

pub(super) struct Csv<'a> {
    out: csv::Writer<Box<dyn Write + 'a>>,
    header_done: bool,
}

impl<'a> Csv<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>) -> Self {
        Csv { out: csv::Writer::from_writer(out), header_done: false }
    }
}

impl Sink for Csv<'_> {
    fn record(&mut self, r: &Record) -> io::Result<()> {
        let fields = r.fields();
        if !self.header_done {
            self.header_done = true;
            self.out.write_record(fields.iter().map(|f| f.0)).map_err(into_io)?;
        }
        self.out.write_record(fields.iter().map(|f| &f.1)).map_err(into_io)?;
        self.out.flush()
    }
}

fn into_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        other => io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, tests::render};

    #[test]
    fn exact_rows() {
        let want = "\
n,solutions,unique,c8,c4,c2,c1,seconds,threads,algorithm,isa,device,subproblems,split_depth,verified
4,2,,,,,,0.25,2,mirror,avx2,cpu,10,2,true
5,11,,,,,,0.25,2,mirror,avx2,cpu,10,2,false
29,1180591620717411303424,,,,,,0.25,2,mirror,avx2,cpu,10,2,
8,92,12,11,1,0,0,0.25,2,d4,,-,10,2,true
";
        assert_eq!(render(Format::Csv, false), want);
    }
}
