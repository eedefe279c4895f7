//! The checkpoint journal: an append-only text file that records every solved subproblem of a
//! long count, so that a run stopped at any moment (kill -9, power loss, a scheduler's time
//! limit) resumes where it was and still gives the exact count.
//!
//! # Format (version 1)
//! The first line is the header, each further line one solved subproblem:
//! ```text
//! nqueens-journal 1 n=17 algorithm=mirror split_depth=3 subproblems=2296 shard=all version=0.1.0 crc32=1c2d3e4f
//! id=812 solutions=41984 classes=0,0,0,0 nodes=- crc32=5a6b7c8d
//! ```
//! `shard` is `all` or `I/K`; `classes` are the fundamental solutions by orbit size 8, 4, 2, 1
//! (zero for algorithms that do not classify); `nodes` is `-` when the run did not count nodes.
//! Since 2026-12-02 an entry ends in `seconds=S` (before its checksum, six decimals): the
//! wall-clock seconds the run had taken when the line was written, its earlier sessions
//! included (the largest `seconds` of the journal it resumed from, plus this session's time),
//! so that a resumed run reports the time of all its sessions, up to the last line each wrote.
//! Lines without it (older journals) are read as 0 seconds.
//! `crc32` is the CRC-32 (IEEE 802.3, the checksum of zip and PNG; crate `crc32fast`) of the
//! line's text before ` crc32=`, in 8 lowercase hex digits. Every line ends with `\n`.
//!
//! # Durability
//! Each line is written with one `write` call as soon as its subproblem is solved (no user-space
//! buffer, so a killed process loses no written line), and the file is fsync'd every
//! [`SYNC_EVERY`] while lines are pending and once more at the end ([`Journal::run_syncing`]),
//! so a power loss costs at most the last few seconds of work. An open journal holds an advisory
//! `flock`, so a second process on the same file is refused instead of recording subproblems
//! twice.
//!
//! # Reading
//! A last line without its `\n` is a write torn by a crash: it is dropped with a warning (and cut
//! off before new lines are appended). Any other damage — a bad checksum, an unparsable line, an
//! id out of range, outside the shard or given twice, counts that its subproblem cannot have
//! (the plan's cheap invariants, [`nqueens::plan::Plan::impossible`]) — and a header that does not match
//! the command are errors naming the line, found before anything is appended, and the file is
//! left untouched. [`repair`] reads such a journal leniently instead and returns the lines that
//! pass every check, for a cleaned copy. A line that ends in `\r` (a journal converted to CRLF
//! line ends) is damage with a message of its own; [`repair`] keeps it without the `\r`.
//! Whatever the messages quote of a line has its control characters escaped.

mod format;
mod read;
mod repair;

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

pub use format::{Entry, FORMAT_VERSION, Header, MAGIC, spent_micros};
pub use read::{Contents, MAX_LINE, parse, read, read_header};
pub use repair::{Repaired, repair};

use format::{seal, unseal};
use nqueens::boards::escape_controls;
use read::{Line, Lines};

/// How often pending lines are fsync'd during a run.
pub const SYNC_EVERY: Duration = Duration::from_secs(2);

/// The errors of opening or reading a journal. Each leaves the file as it was.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file cannot be read, created or written.
    #[error("checkpoint {}: {source}", shown(.path))]
    Io {
        /// The journal's path.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// A line other than a torn last line is damaged or inconsistent.
    #[error("checkpoint {} line {line} is corrupt: {reason}; the file was left untouched", shown(.path))]
    Corrupt {
        /// The journal's path.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Another process holds the journal (an advisory `flock`, released when that process ends).
    #[error("checkpoint {} is in use by another running nqueens: wait for it to end or stop it first", shown(.path))]
    Busy {
        /// The journal's path.
        path: PathBuf,
    },
    /// The header is valid but describes another run.
    #[error("checkpoint {} belongs to another run ({}); the file was left untouched: use another file or the same command", shown(.path), .differences.join("; "))]
    Mismatch {
        /// The journal's path.
        path: PathBuf,
        /// Each differing field, "field X in the journal, Y in this command".
        differences: Vec<String>,
    },
}

/// Returns `path` as messages show it: its control characters escaped.
pub fn shown(path: &Path) -> String {
    escape_controls(&path.display().to_string())
}

/// Below this many free bytes, a torn last line is taken for a write cut short by a full disk
/// rather than by a crash (a journal line is under 200 bytes).
pub const FULL_BELOW: u64 = 64 << 10;

/// Returns the bytes an unprivileged process may still write on the file system holding `path`
/// (`statvfs`), if the system tells.
pub fn free_bytes(path: &Path) -> Option<u64> {
    crate::sys::free_bytes(path)
}

/// An open journal that solved subproblems are appended to, from any thread.
pub struct Journal {
    path: PathBuf,
    file: File,
    /// The handle that holds the lock, for as long as the journal is open.
    _lock: File,
    /// Held while a line is written: the length of the journal's complete lines.
    write_lock: Mutex<u64>,
    pending: AtomicBool,
}

/// What [`Journal::open`] found in an existing file.
#[derive(Debug)]
pub struct Resumed {
    /// The solved subproblems already recorded.
    pub entries: Vec<Entry>,
    /// The torn last line that was dropped, if any (the caller warns).
    pub torn: Option<String>,
}

impl Journal {
    /// The journal at `path` of `len` bytes of complete lines, appending through `file`, held
    /// by the advisory `lock`.
    fn new(path: &Path, file: File, lock: File, len: u64) -> Journal {
        Journal {
            path: path.to_path_buf(),
            file,
            _lock: lock,
            write_lock: Mutex::new(len),
            pending: AtomicBool::new(false),
        }
    }

    /// Opens the journal at `path` for a run described by `header`: creates it (with the header,
    /// fsync'd) if it does not exist or is empty, or reads it and returns its entries to skip.
    /// A torn last line is cut off so new lines start on a line of their own; nothing else is
    /// ever changed.
    ///
    /// `impossible(entry)` says why an entry's counts cannot be its subproblem's (the plan's
    /// cheap invariants): every line is checked before anything is appended.
    ///
    /// # Errors
    /// [`JournalError::Io`] if the file cannot be read or written; [`JournalError::Corrupt`] or
    /// [`JournalError::Mismatch`] as [`parse`] finds, with the file untouched.
    pub fn open(
        path: &Path,
        header: &Header,
        allowed: impl Fn(usize) -> bool,
        impossible: impl Fn(&Entry) -> Option<String>,
    ) -> Result<(Journal, Resumed), JournalError> {
        let io_err = |source| JournalError::Io { path: path.to_path_buf(), source };
        // One process per journal: two appending to one file would record subproblems twice.
        let lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_err)?;
        if !crate::sys::try_lock(&lock).map_err(io_err)? {
            return Err(JournalError::Busy { path: path.to_path_buf() });
        }
        // Read line by line: memory does not grow with the file, and damage is refused early.
        let mut lines = Lines::new(path, io::BufReader::new(File::open(path).map_err(io_err)?));
        let first = lines.next_line();
        let torn_header = match &first {
            Ok(Line::End) => Some(None),
            Ok(Line::Torn) => {
                let b = &lines.buf;
                (b.starts_with(MAGIC.as_bytes()) || MAGIC.as_bytes().starts_with(b))
                    .then(|| Some(String::from_utf8_lossy(b).into_owned()))
            }
            _ => None,
        };
        if let Some(torn) = torn_header {
            // New, empty, or only a torn header (a crash while creating it): start afresh. Any
            // other file (not a journal) is refused below and left alone.
            let mut file =
                OpenOptions::new().create(true).write(true).truncate(true).open(path).map_err(io_err)?;
            let line = seal(&header.body());
            if let Err(e) = file.write_all(line.as_bytes()).and_then(|()| file.sync_all()) {
                // A full disk: leave an empty file (a fresh start next time), not a torn header.
                let _ = file.set_len(0);
                return Err(io_err(e));
            }
            sync_parent(path);
            let len = line.len() as u64;
            return Ok((Journal::new(path, file, lock, len), Resumed { entries: Vec::new(), torn }));
        }
        // The header first: the entries' ids only mean something in the same plan.
        let found = match first? {
            Line::Whole => unseal(lines.text()?)
                .and_then(Header::parse)
                .map_err(|r| lines.corrupt(1, format!("bad header: {r}")))?,
            _ => return Err(lines.corrupt(1, "the header line is missing".into())),
        };
        let differences = found.differences(header);
        if !differences.is_empty() {
            return Err(JournalError::Mismatch { path: path.to_path_buf(), differences });
        }
        let contents = lines.entries(found, allowed, impossible)?;
        let file = OpenOptions::new().write(true).open(path).map_err(io_err)?;
        if contents.torn.is_some() {
            file.set_len(contents.valid_len).map_err(io_err)?;
            file.sync_all().map_err(io_err)?;
        }
        let file = OpenOptions::new().append(true).open(path).map_err(io_err)?;
        let len = contents.valid_len;
        Ok((Journal::new(path, file, lock, len), Resumed { entries: contents.entries, torn: contents.torn }))
    }

    /// Returns the journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends the line of one solved subproblem with a single write (not yet fsync'd). A write
    /// that fails partway (a full disk) is cut off again, so the journal still ends with a
    /// complete line and a torn one on resuming means a crash.
    ///
    /// # Errors
    /// The write's error (a full disk, say).
    pub fn append(&self, entry: &Entry) -> io::Result<()> {
        let line = seal(&entry.body());
        let mut len = self.write_lock.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = (&self.file).write_all(line.as_bytes()) {
            let _ = self.file.set_len(*len);
            return Err(e);
        }
        *len += line.len() as u64;
        self.pending.store(true, Ordering::Release);
        Ok(())
    }

    /// Fsyncs the lines appended since the last sync, if any.
    ///
    /// # Errors
    /// The fsync's error.
    pub fn sync(&self) -> io::Result<()> {
        if self.pending.swap(false, Ordering::AcqRel) {
            self.file.sync_data()?;
        }
        Ok(())
    }

    /// Runs `work` while a helper thread fsyncs pending lines every [`SYNC_EVERY`], then syncs
    /// once more; returns what `work` returns and the first sync error, if any.
    pub fn run_syncing<R>(&self, work: impl FnOnce() -> R) -> (R, io::Result<()>) {
        let (done, wait) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let syncer = scope.spawn(move || -> io::Result<()> {
                let mut first_err = Ok(());
                while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(SYNC_EVERY) {
                    if let Err(e) = self.sync() {
                        first_err = first_err.and(Err(e));
                    }
                }
                first_err
            });
            let result = work();
            drop(done);
            let periodic = syncer.join().unwrap_or(Ok(()));
            let last = self.sync();
            (result, periodic.and(last))
        })
    }
}

/// Fsyncs the directory holding `path` so that a new file's name survives a power loss; best
/// effort (not every file system allows it).
fn sync_parent(path: &Path) {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests;
