//! The bfile format: OEIS b-file lines `n a(n)`, the layout of the OEIS's own b-files; and the
//! plain format, `a(n)` alone, for scripts.

use std::io::{self, Write};

use super::{Record, Sequence, Sink};

pub(super) struct Bfile<'a> {
    out: Box<dyn Write + 'a>,
    sequence: Sequence,
    /// Whether each line starts with n (bfile) or holds the term alone (plain).
    with_n: bool,
}

impl<'a> Bfile<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>, sequence: Sequence, with_n: bool) -> Self {
        Bfile { out, sequence, with_n }
    }
}

impl Sink for Bfile<'_> {
    /// Writes `n a(n)`; a record without the term (n = 0, outside the offset of A002562,
    /// A032522 and A033148) writes nothing (the caller rejects algorithms that do not classify).
    fn record(&mut self, r: &Record) -> io::Result<()> {
        match self.sequence.term(r) {
            Some(a) if self.with_n => writeln!(self.out, "{} {a}", r.n)?,
            Some(a) => writeln!(self.out, "{a}")?,
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
        // Plain: the terms alone (issue 40: `count 16 --format plain` gives 14772512).
        assert_eq!(render(Format::Plain, false), "2\n11\n1180591620717411303424\n92\n");
        assert_eq!(render_sequence(Format::Plain, false, Sequence::Unique), "12\n");
    }
}
