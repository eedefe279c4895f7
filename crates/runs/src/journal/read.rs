//! Reading a journal (see [`super`]) line by line, checking every line before anything is
//! appended.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

use super::JournalError;
use super::format::{Entry, Header, unseal};
use nqueens::boards::escape_controls;
use nqueens::{Classes, plan::Tally};

/// What a journal holds: its header, its complete lines and whether a torn last line was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents {
    /// The header.
    pub header: Header,
    /// The solved subproblems, in file order.
    pub entries: Vec<Entry>,
    /// The byte length of the header and the complete lines (where new lines go).
    pub valid_len: u64,
    /// The bytes of a torn last line (without `\n`), if there was one.
    pub torn: Option<String>,
}

/// The longest line a journal holds, its `\n` included: 1,024 bytes. A header is under 200
/// bytes and an entry line at most about 300 (seven numbers of at most 39 digits), so a longer
/// line is damage, refused after reading at most this much of it (a file of one endless line
/// is not read to its end).
pub const MAX_LINE: usize = 1024;

/// One line as [`Lines::next_line`] reads it.
pub(super) enum Line {
    /// A line ending in `\n` (the buffer holds it without the `\n`).
    Whole,
    /// The last bytes of the file, without a `\n`: a write torn by a crash.
    Torn,
    /// The end of the file.
    End,
}

/// A journal read line by line with at most [`MAX_LINE`] bytes held, counting lines and the
/// bytes of complete lines.
pub(super) struct Lines<'p, R> {
    path: &'p Path,
    reader: R,
    pub(super) buf: Vec<u8>,
    /// The 1-based number of the line in `buf`.
    pub(super) number: usize,
    /// The bytes of the complete lines read so far.
    complete: u64,
}

impl<'p, R: BufRead> Lines<'p, R> {
    pub(super) fn new(path: &'p Path, reader: R) -> Lines<'p, R> {
        Lines { path, reader, buf: Vec::with_capacity(MAX_LINE), number: 0, complete: 0 }
    }

    pub(super) fn corrupt(&self, line: usize, reason: String) -> JournalError {
        JournalError::Corrupt { path: self.path.to_path_buf(), line, reason: escape_controls(&reason) }
    }

    /// Reads the next line into `buf`.
    ///
    /// # Errors
    /// [`JournalError::Io`] for a failed read; [`JournalError::Corrupt`] for a line longer than
    /// [`MAX_LINE`] (torn or not: no write of this program makes one).
    pub(super) fn next_line(&mut self) -> Result<Line, JournalError> {
        self.buf.clear();
        self.number += 1;
        let read = (&mut self.reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|source| JournalError::Io { path: self.path.to_path_buf(), source })?;
        if read == 0 {
            return Ok(Line::End);
        }
        if self.buf.last() == Some(&b'\n') {
            self.complete += self.buf.len() as u64;
            self.buf.pop();
            return Ok(Line::Whole);
        }
        if self.buf.len() > MAX_LINE {
            return Err(self.corrupt(
                self.number,
                format!("it is longer than {MAX_LINE} bytes, which no journal line is"),
            ));
        }
        Ok(Line::Torn)
    }

    /// Reads and drops the rest of the current line, through its `\n` (or the end of the file),
    /// holding at most [`MAX_LINE`] bytes at a time; counts it as complete.
    pub(super) fn skip_line(&mut self) -> io::Result<()> {
        loop {
            self.buf.clear();
            let read = (&mut self.reader).take(MAX_LINE as u64).read_until(b'\n', &mut self.buf)?;
            self.complete += read as u64;
            if read == 0 || self.buf.last() == Some(&b'\n') {
                return Ok(());
            }
        }
    }

    /// Returns the text of the whole line in `buf`.
    pub(super) fn text(&self) -> Result<&str, JournalError> {
        std::str::from_utf8(&self.buf).map_err(|_| self.corrupt(self.number, "it is not UTF-8 text".into()))
    }

    /// Reads and checks the header line.
    pub(super) fn header(&mut self) -> Result<Header, JournalError> {
        match self.next_line()? {
            Line::Whole => {}
            Line::Torn | Line::End => return Err(self.corrupt(1, "the header line is missing".into())),
        }
        unseal(self.text()?).and_then(Header::parse).map_err(|r| self.corrupt(1, format!("bad header: {r}")))
    }

    /// Reads the entry lines after `header` to the end (see [`parse`]); `impossible(entry)`
    /// says why an entry's counts cannot be its subproblem's, if they cannot.
    pub(super) fn entries(
        mut self,
        header: Header,
        allowed: impl Fn(usize) -> bool,
        impossible: impl Fn(&Entry) -> Option<String>,
    ) -> Result<Contents, JournalError> {
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        // The lines' sum so far, so that a forged line cannot wrap a resumed count.
        let mut total = Tally::default();
        let mut largest = (0u128, 0usize);
        let torn = loop {
            match self.next_line()? {
                Line::Whole => {}
                Line::Torn => break Some(String::from_utf8_lossy(&self.buf).into_owned()),
                Line::End => break None,
            }
            let no = self.number;
            let corrupt = |reason: String| JournalError::Corrupt {
                path: self.path.to_path_buf(),
                line: no,
                reason: escape_controls(&reason),
            };
            let entry = unseal(self.text()?).and_then(Entry::parse).map_err(corrupt)?;
            entry_problem(&header, &entry, &allowed, &impossible, &mut seen).map_err(corrupt)?;
            if entry.tally.solutions >= largest.0 {
                largest = (entry.tally.solutions, no);
            }
            total = total.checked_add(&entry.tally).ok_or_else(|| {
                // Blame the line with the most solutions (the forged one, when one is).
                let (most, at) = largest;
                if total.solutions.checked_add(entry.tally.solutions).is_none() {
                    self.corrupt(
                        at,
                        format!(
                            "its {most} solutions and the other lines' up to line {no} add up beyond 128 bits"
                        ),
                    )
                } else {
                    corrupt("adding its counts to the lines before it overflows 128 bits".to_string())
                }
            })?;
            entries.push(entry);
        };
        Ok(Contents { header, entries, valid_len: self.complete, torn })
    }
}

/// Returns why `entry` cannot be a line of the journal of `header`, if it cannot: an id out of
/// range, not `allowed` (outside the shard) or already in `seen` (recorded twice), or counts
/// its subproblem cannot have (`impossible`). Adds the id to `seen` when it is fine.
pub(super) fn entry_problem(
    header: &Header,
    entry: &Entry,
    allowed: &impl Fn(usize) -> bool,
    impossible: &impl Fn(&Entry) -> Option<String>,
    seen: &mut HashSet<usize>,
) -> Result<(), String> {
    if entry.id >= header.subproblems {
        return Err(format!("subproblem id {} is out of range 0..{}", entry.id, header.subproblems));
    }
    if !allowed(entry.id) {
        return Err(format!("subproblem id {} does not belong to this run's shard", entry.id));
    }
    if seen.contains(&entry.id) {
        return Err(format!("subproblem id {} is recorded twice", entry.id));
    }
    let classifies = header.algorithm.parse::<nqueens::Algorithm>().map(|a| a.classifies());
    if classifies == Ok(false) && entry.tally.classes != Classes::default() {
        return Err(format!(
            "it records symmetry classes, which the {} algorithm does not count",
            header.algorithm
        ));
    }
    if let Some(why) = impossible(entry) {
        return Err(format!("subproblem {}: {why}", entry.id));
    }
    seen.insert(entry.id);
    Ok(())
}

/// Parses journal text (see the module docs). `allowed(id)` says whether an id belongs to the
/// run (within the plan and, for a shard, in the shard).
///
/// # Errors
/// As [`read`].
pub fn parse(path: &Path, bytes: &[u8], allowed: impl Fn(usize) -> bool) -> Result<Contents, JournalError> {
    read(path, bytes, allowed)
}

/// Reads a journal from `reader` line by line (see the module docs), holding at most
/// [`MAX_LINE`] bytes of it at a time besides the entries: memory grows with the distinct
/// subproblems recorded, never with the size of the file, and damage is refused at the first
/// line that shows it. `allowed(id)` says whether an id belongs to the run (within the plan
/// and, for a shard, in the shard).
///
/// # Errors
/// [`JournalError::Corrupt`] for a damaged line (a bad checksum, not UTF-8, longer than
/// [`MAX_LINE`]), an id that is not allowed or given twice, symmetry classes recorded by an
/// algorithm that does not classify, lines whose counts add up beyond 128 bits, or a missing
/// header; [`JournalError::Io`] for a failed read.
pub fn read(
    path: &Path,
    reader: impl BufRead,
    allowed: impl Fn(usize) -> bool,
) -> Result<Contents, JournalError> {
    let mut lines = Lines::new(path, reader);
    let header = lines.header()?;
    lines.entries(header, allowed, |_| None)
}

/// Returns the header of the journal at `path`, reading its first line only.
///
/// # Errors
/// As [`read`], for the first line.
pub fn read_header(path: &Path) -> Result<Header, JournalError> {
    let file = File::open(path).map_err(|source| JournalError::Io { path: path.to_path_buf(), source })?;
    Lines::new(path, io::BufReader::new(file)).header()
}
