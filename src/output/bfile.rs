//! The bfile format: OEIS b-file lines `n a(n)`, the layout of the OEIS's own b-files.

use std::io::{self, Write};

use super::{Record, Sequence, Sink};

pub(super) struct Bfile<'a> {
    out: Box<dyn Write + 'a>,
    sequence: Sequence,
}

impl<'a> Bfile<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>, sequence: Sequence) -> Self {
        Bfile { out, sequence }
    }
}

impl Sink for Bfile<'_> {
    /// Writes `n a(n)`; for [`Sequence::Unique`] a record without fundamental solutions (n = 0,
    /// outside A002562's offset) writes nothing (the caller rejects algorithms that do not
    /// classify).
    fn record(&mut self, r: &Record) -> io::Result<()> {
        match self.sequence {
            Sequence::Solutions => writeln!(self.out, "{} {}", r.n, r.solutions)?,
            Sequence::Unique => match r.unique {
                Some(u) => writeln!(self.out, "{} {u}", r.n)?,
                None => return Ok(()),
            },
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, Sequence, tests::render, tests::render_sequence};

    #[test]
    fn exact_lines() {
        assert_eq!(render(Format::Bfile, false), "4 2\n5 11\n29 1180591620717411303424\n8 92\n");
        // A002562: only the record that carries fundamental solutions.
        assert_eq!(render_sequence(Format::Bfile, false, Sequence::Unique), "8 12\n");
    }
}
