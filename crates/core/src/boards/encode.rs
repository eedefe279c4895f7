//! Encoding boards: for the ordered listing, each format's rows precomputed once per board size
//! ([`Encoder`]), so that writing a solution copies a few slices and formats nothing; for one
//! board of any size ([`write_rows`], the construction of [`crate::construct`]), one row at a
//! time.

use std::io::{self, Write};

use super::BoardFormat;

/// Formats solutions of one board size from precomputed rows (no per-solution formatting logic
/// beyond copying a few slices).
#[derive(Clone, Debug)]
pub(crate) struct Encoder {
    format: BoardFormat,
    n: usize,
    /// Board: row strings `..Q.\n`, n + 1 bytes each. Leetcode: `,"..Q."`, n + 3 bytes each.
    /// Cols: `c ` (the 1-based column and a space), padded to 4 bytes, with `lens`.
    table: Vec<u8>,
    width: usize,
    lens: Vec<u8>,
}

impl Encoder {
    pub(crate) fn new(format: BoardFormat, n: usize) -> Encoder {
        let mut table = Vec::new();
        let mut lens = Vec::new();
        let width = match format {
            BoardFormat::Board => n + 1,
            BoardFormat::Leetcode => n + 3,
            BoardFormat::Cols => 4,
            BoardFormat::Raw => 0,
        };
        for c in 0..n {
            let row = || (0..n).map(move |k| if k == c { b'Q' } else { b'.' });
            match format {
                BoardFormat::Board => {
                    table.extend(row());
                    table.push(b'\n');
                }
                BoardFormat::Leetcode => {
                    table.extend_from_slice(b",\"");
                    table.extend(row());
                    table.push(b'"');
                }
                BoardFormat::Cols => {
                    let text = format!("{} ", c + 1);
                    lens.push(text.len() as u8);
                    table.extend_from_slice(text.as_bytes());
                    table.resize(4 * (c + 1), b' ');
                }
                BoardFormat::Raw => {}
            }
        }
        Encoder { format, n, table, width, lens }
    }

    /// Appends solution `q` (0-based columns, row 0 first), preceded by the format's separator.
    #[inline]
    pub(crate) fn encode(&self, q: &[u8], out: &mut Vec<u8>) {
        debug_assert_eq!(q.len(), self.n);
        let w = self.width;
        match self.format {
            BoardFormat::Board => {
                out.push(b'\n');
                for &c in q {
                    let c = c as usize;
                    out.extend_from_slice(&self.table[c * w..c * w + w]);
                }
            }
            BoardFormat::Leetcode => {
                out.extend_from_slice(b",[");
                for (r, &c) in q.iter().enumerate() {
                    let c = c as usize;
                    // The first row's string goes without its leading comma.
                    let skip = usize::from(r == 0);
                    out.extend_from_slice(&self.table[c * w + skip..c * w + w]);
                }
                out.push(b']');
            }
            BoardFormat::Cols => {
                for &c in q {
                    let c = c as usize;
                    out.extend_from_slice(&self.table[c * 4..c * 4 + self.lens[c] as usize]);
                }
                // The trailing space becomes the line's end (n = 0: an empty line).
                match out.last_mut() {
                    Some(last) if !q.is_empty() => *last = b'\n',
                    _ => out.push(b'\n'),
                }
            }
            BoardFormat::Raw => out.extend_from_slice(q),
        }
    }

    /// Returns about how many bytes one solution takes.
    pub(crate) fn bytes_per_solution(&self) -> usize {
        self.format.bytes_per_board(self.n)
    }
}

/// Writes one board of side `n` in `format`, the queen of row `r` in the 0-based column
/// `column(r)`, one row at a time (memory: a fixed 4 KiB of dots, whatever n), without the format's
/// header, footer and separator: n rows of `Q` and `.` and a newline each (board), one array of
/// n quoted rows (leetcode), one line of 1-based columns (cols), n bytes (raw; columns below
/// 256).
///
/// # Errors
/// The first write error.
pub(crate) fn write_rows(
    format: BoardFormat,
    n: u64,
    column: impl Fn(u64) -> u64,
    out: &mut dyn Write,
) -> io::Result<()> {
    // A row is written as dots, the queen, dots, from one fixed run of dots: a row of n bytes
    // held whole took 4 GB at n = 2^32 - 1 and aborted under a memory limit.
    const DOTS: [u8; 4096] = [b'.'; 4096];
    let dots = |count: u64, out: &mut dyn Write| -> io::Result<()> {
        let mut left = count;
        while left > 0 {
            let k = left.min(DOTS.len() as u64) as usize;
            out.write_all(&DOTS[..k])?;
            left -= k as u64;
        }
        Ok(())
    };
    let row = |c: u64, out: &mut dyn Write| -> io::Result<()> {
        dots(c, out)?;
        out.write_all(b"Q")?;
        dots(n - c - 1, out)
    };
    if format == BoardFormat::Leetcode {
        out.write_all(b"[")?;
    }
    for r in 0..n {
        let c = column(r);
        match format {
            BoardFormat::Board => {
                row(c, out)?;
                out.write_all(b"\n")?;
            }
            BoardFormat::Leetcode => {
                out.write_all(if r == 0 { b"\"" } else { b",\"" })?;
                row(c, out)?;
                out.write_all(b"\"")?;
            }
            BoardFormat::Cols => write!(out, "{}{}", c + 1, if r + 1 == n { "" } else { " " })?,
            BoardFormat::Raw => out.write_all(&[c as u8])?,
        }
    }
    match format {
        BoardFormat::Leetcode => out.write_all(b"]"),
        BoardFormat::Cols => out.write_all(b"\n"),
        BoardFormat::Board | BoardFormat::Raw => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_encoders_write_the_same_bytes() {
        // The precomputed encoder of the listing and the row writer of the construction agree on
        // every format (n = 6, 1, 0), separators aside.
        for format in [BoardFormat::Board, BoardFormat::Leetcode, BoardFormat::Cols, BoardFormat::Raw] {
            for q in [&[1u8, 3, 5, 0, 2, 4][..], &[0], &[]] {
                let mut listed = Vec::new();
                Encoder::new(format, q.len()).encode(q, &mut listed);
                let mut written = Vec::new();
                write_rows(format, q.len() as u64, |r| u64::from(q[r as usize]), &mut written).unwrap();
                assert_eq!(listed[format.separator().len()..], written[..], "{format}, {q:?}");
            }
        }
    }
}
