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
    /// Writes `n a(n)`; a record without the term (n = 0, outside the offset of A002562,
    /// A032522 and A033148) writes nothing (the caller rejects algorithms that do not classify).
    fn record(&mut self, r: &Record) -> io::Result<()> {
        match self.sequence.term(r) {
            Some(a) => writeln!(self.out, "{} {a}", r.n)?,
            None => return Ok(()),
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
        // n = 8: 11 classes of 8 boards and 1 of 4: 4 boards fixed by the 180° rotation, none by 90°.
        assert_eq!(render_sequence(Format::Bfile, false, Sequence::Rot180), "8 4\n");
        assert_eq!(render_sequence(Format::Bfile, false, Sequence::Rot90), "8 0\n");
    }
}
