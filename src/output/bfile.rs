//! The bfile format: OEIS b-file lines `n a(n)`, the layout of the OEIS's own b-files.

use std::io::{self, Write};

use super::{Record, Sink};

pub(super) struct Bfile<'a> {
    out: Box<dyn Write + 'a>,
}

impl<'a> Bfile<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>) -> Self {
        Bfile { out }
    }
}

impl Sink for Bfile<'_> {
    fn record(&mut self, r: &Record) -> io::Result<()> {
        writeln!(self.out, "{} {}", r.n, r.solutions)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, tests::render};

    #[test]
    fn exact_lines() {
        assert_eq!(render(Format::Bfile, false), "4 2\n5 11\n29 1180591620717411303424\n");
    }
}
