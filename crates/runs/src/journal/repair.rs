//! Reading a damaged journal leniently (see [`super`]): the lines that pass every check, for a
//! cleaned copy.

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::Path;

use super::JournalError;
use super::format::{Entry, Header, seal, unseal};
use super::read::{Line, Lines, entry_problem};
use nqueens::boards::escape_controls;
use nqueens::plan::Tally;

/// A journal read leniently by [`repair`]: its header, the lines that pass every check, and
/// each line that does not, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repaired {
    /// The header (valid, and the run's).
    pub header: Header,
    /// The entries that pass every check, in file order, each with its 1-based line number.
    pub kept: Vec<(usize, Entry)>,
    /// The lines dropped: 1-based line number and why (control characters escaped).
    pub dropped: Vec<(usize, String)>,
    /// The lines (the header included) that ended in `\r` (CRLF line ends), kept without it.
    pub carriage_returns: usize,
}

impl Repaired {
    /// Returns the text of the cleaned journal: the header and the kept lines, sealed, in the
    /// order they were (what a resume of the same run reads).
    pub fn text(&self) -> String {
        let mut out = seal(&self.header.body());
        for (_, e) in &self.kept {
            out.push_str(&seal(&e.body()));
        }
        out
    }
}

/// Reads the journal at `path` of the run `header` leniently, line by line as [`read`] does,
/// and returns the lines that pass every check [`Journal::open`] makes (`allowed` and
/// `impossible` as there) and the others with why: a bad checksum, an unparsable or non-UTF-8
/// line, a line longer than [`MAX_LINE`], an id out of range, outside the shard or recorded
/// again, counts its subproblem cannot have, counts that would take the sum beyond 128 bits, a
/// torn last line. A line that ends in `\r` (a journal converted to CRLF line ends) is kept
/// without it when the rest passes. Nothing is written.
///
/// # Errors
/// [`JournalError::Io`] for a failed read; [`JournalError::Corrupt`] for a header that cannot be
/// read (the lines mean nothing without it); [`JournalError::Mismatch`] for another run's
/// journal.
///
/// [`read`]: fn@super::read
/// [`Journal::open`]: super::Journal::open
/// [`MAX_LINE`]: super::MAX_LINE
pub fn repair(
    path: &Path,
    header: &Header,
    allowed: impl Fn(usize) -> bool,
    impossible: impl Fn(&Entry) -> Option<String>,
) -> Result<Repaired, JournalError> {
    let file = File::open(path).map_err(|source| JournalError::Io { path: path.to_path_buf(), source })?;
    let mut lines = Lines::new(path, io::BufReader::new(file));
    let found = match lines.next_line()? {
        Line::Whole => {
            let text = lines.text()?;
            let crlf = text.strip_suffix('\r');
            let header = unseal(crlf.unwrap_or(text))
                .and_then(Header::parse)
                .map_err(|r| lines.corrupt(1, format!("bad header: {r}")))?;
            (header, usize::from(crlf.is_some()))
        }
        _ => return Err(lines.corrupt(1, "the header line is missing".into())),
    };
    let (found, carriage_returns) = found;
    let differences = found.differences(header);
    if !differences.is_empty() {
        return Err(JournalError::Mismatch { path: path.to_path_buf(), differences });
    }
    let mut out = Repaired { header: found, kept: Vec::new(), dropped: Vec::new(), carriage_returns };
    let mut seen = HashSet::new();
    let mut total = Tally::default();
    loop {
        let line = match lines.next_line() {
            Ok(line) => line,
            Err(JournalError::Corrupt { line, reason, .. }) => {
                // A line longer than MAX_LINE: skipped to its end.
                out.dropped.push((line, reason));
                lines.skip_line().map_err(|source| JournalError::Io { path: path.to_path_buf(), source })?;
                continue;
            }
            Err(e) => return Err(e),
        };
        let no = lines.number;
        match line {
            Line::End => break,
            Line::Torn => {
                out.dropped.push((no, "a torn last line (a write cut short)".into()));
                break;
            }
            Line::Whole => {}
        }
        let mut crlf = false;
        let checked = std::str::from_utf8(&lines.buf)
            .map_err(|_| "it is not UTF-8 text".to_string())
            .and_then(|text| {
                let body = text.strip_suffix('\r');
                crlf = body.is_some();
                unseal(body.unwrap_or(text)).and_then(Entry::parse)
            })
            .and_then(|entry| {
                entry_problem(&out.header, &entry, &allowed, &impossible, &mut seen)?;
                match total.checked_add(&entry.tally) {
                    Some(t) => {
                        total = t;
                        Ok(entry)
                    }
                    None => {
                        seen.remove(&entry.id);
                        Err("adding its counts to the lines kept before it overflows 128 bits".into())
                    }
                }
            });
        match checked {
            Ok(entry) => {
                out.carriage_returns += usize::from(crlf);
                out.kept.push((no, entry));
            }
            Err(reason) => out.dropped.push((no, escape_controls(&reason))),
        }
    }
    Ok(out)
}
