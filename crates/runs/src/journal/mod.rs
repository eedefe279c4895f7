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
//! (the plan's cheap invariants, [`nqueens::Plan::impossible`]) — and a header that does not match
//! the command are errors naming the line, found before anything is appended, and the file is
//! left untouched. [`repair`] reads such a journal leniently instead and returns the lines that
//! pass every check, for a cleaned copy. A line that ends in `\r` (a journal converted to CRLF
//! line ends) is damage with a message of its own; [`repair`] keeps it without the `\r`.
//! Whatever the messages quote of a line has its control characters escaped.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::shard::ShardId;
use nqueens::boards::escape_controls;
use nqueens::{Classes, Tally};

/// The journal format version this program reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The first word of every journal.
pub const MAGIC: &str = "nqueens-journal";

/// How often pending lines are fsync'd during a run.
pub const SYNC_EVERY: Duration = Duration::from_secs(2);

/// What a journal is about: a run resumes from a journal only if and only if its header is
/// equal to the one the command would write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The board side.
    pub n: u32,
    /// The algorithm's name.
    pub algorithm: String,
    /// The plan's split depth.
    pub split_depth: u32,
    /// The plan's number of subproblems (ids are `0..subproblems`).
    pub subproblems: usize,
    /// The shard the run counts, or `None` for the whole board.
    pub shard: Option<ShardId>,
    /// The program version that wrote the journal (`CARGO_PKG_VERSION`).
    pub version: String,
}

impl Header {
    /// Returns the header line, without its checksum and newline.
    fn body(&self) -> String {
        let shard = self.shard.map_or_else(|| "all".to_string(), |s| s.to_string());
        format!(
            "{MAGIC} {FORMAT_VERSION} n={} algorithm={} split_depth={} subproblems={} shard={shard} version={}",
            self.n, self.algorithm, self.split_depth, self.subproblems, self.version
        )
    }

    fn parse(body: &str) -> Result<Header, String> {
        let mut words = body.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(format!("it does not start with '{MAGIC}' (not a checkpoint journal)"));
        }
        match words.next() {
            Some(v) if v == FORMAT_VERSION.to_string() => {}
            v => {
                return Err(format!(
                    "journal format version {} is not supported: this program reads version {FORMAT_VERSION}",
                    v.unwrap_or("(none)")
                ));
            }
        }
        let fields =
            Fields::new(words, &["n", "algorithm", "split_depth", "subproblems", "shard", "version"])?;
        let shard = match fields.get("shard") {
            "all" => None,
            s => Some(s.parse::<ShardId>()?),
        };
        Ok(Header {
            n: fields.num("n")?,
            algorithm: fields.get("algorithm").to_string(),
            split_depth: fields.num("split_depth")?,
            subproblems: fields.num("subproblems")?,
            shard,
            version: fields.get("version").to_string(),
        })
    }

    /// Returns, for each field that differs from `want`, "field: journal X, command Y".
    fn differences(&self, want: &Header) -> Vec<String> {
        let mut out = Vec::new();
        let mut cmp = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name} {} in the journal, {b} in this command", escape_controls(&a)));
            }
        };
        let shard = |s: Option<ShardId>| s.map_or_else(|| "all".to_string(), |s| s.to_string());
        cmp("n =", self.n.to_string(), want.n.to_string());
        cmp("algorithm", self.algorithm.clone(), want.algorithm.clone());
        cmp("split depth", self.split_depth.to_string(), want.split_depth.to_string());
        cmp("subproblems", self.subproblems.to_string(), want.subproblems.to_string());
        cmp("shard", shard(self.shard), shard(want.shard));
        cmp("program version", self.version.clone(), want.version.clone());
        out
    }
}

/// One solved subproblem as the journal records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The subproblem's index in the plan.
    pub id: usize,
    /// Its counts; `tally.nodes` is 0 when nodes were not counted.
    pub tally: Tally,
    /// Whether `tally.nodes` was counted.
    pub nodes_counted: bool,
    /// The run's wall-clock time when the line was written, in microseconds, the earlier
    /// sessions of a resumed run included (see the module docs); `None` for a line of a
    /// journal written before the field existed.
    pub micros: Option<u64>,
}

impl Entry {
    fn body(&self) -> String {
        let c = &self.tally.classes;
        let nodes = if self.nodes_counted { self.tally.nodes.to_string() } else { "-".to_string() };
        let seconds = self
            .micros
            .map_or_else(String::new, |m| format!(" seconds={}.{:06}", m / 1_000_000, m % 1_000_000));
        format!(
            "id={} solutions={} classes={},{},{},{} nodes={nodes}{seconds}",
            self.id, self.tally.solutions, c.orbit8, c.orbit4, c.orbit2, c.orbit1
        )
    }

    fn parse(body: &str) -> Result<Entry, String> {
        const KEYS: [&str; 5] = ["id", "solutions", "classes", "nodes", "seconds"];
        // A line written before `seconds` existed has the first four keys only.
        let fields = Fields::new(body.split(' '), &KEYS)
            .or_else(|e| Fields::new(body.split(' '), &KEYS[..4]).map_err(|_| e))?;
        let classes: Vec<&str> = fields.get("classes").split(',').collect();
        if classes.len() != 4 {
            return Err(format!("classes '{}' is not four numbers", fields.get("classes")));
        }
        let class = |k: usize| {
            classes[3 - k]
                .parse::<u128>()
                .map_err(|_| format!("class count '{}' is not a number", classes[3 - k]))
        };
        let (nodes, nodes_counted) = match fields.get("nodes") {
            "-" => (0, false),
            _ => (fields.num("nodes")?, true),
        };
        Ok(Entry {
            id: fields.num("id")?,
            tally: Tally {
                solutions: fields.num("solutions")?,
                classes: {
                    let (orbit1, orbit2, orbit4, orbit8) = (class(0)?, class(1)?, class(2)?, class(3)?);
                    Classes { orbit8, orbit4, orbit2, orbit1 }
                },
                nodes,
            },
            nodes_counted,
            micros: fields.has("seconds").then(|| seconds_micros(fields.get("seconds"))).transpose()?,
        })
    }
}

/// Parses the `seconds` of an entry, `S.FFFFFF` (whole seconds and six decimals), into
/// microseconds.
fn seconds_micros(v: &str) -> Result<u64, String> {
    let bad = || format!("seconds '{v}' is not a number of seconds with six decimals");
    let (whole, micros) = v.split_once('.').ok_or_else(bad)?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || micros.len() != 6 || !digits(micros) {
        return Err(bad());
    }
    let (whole, micros): (u64, u64) = (whole.parse().map_err(|_| bad())?, micros.parse().map_err(|_| bad())?);
    whole.checked_mul(1_000_000).and_then(|w| w.checked_add(micros)).ok_or_else(bad)
}

/// Returns the largest `seconds` of `entries` in microseconds (0 if none records it): the time
/// the run they come from had taken by its last line, its earlier sessions included.
pub fn spent_micros<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> u64 {
    entries.into_iter().filter_map(|e| e.micros).max().unwrap_or(0)
}

/// `key=value` words, each of the expected keys exactly once and nothing else.
struct Fields<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Fields<'a> {
    fn new(words: impl Iterator<Item = &'a str>, keys: &[&str]) -> Result<Fields<'a>, String> {
        let mut pairs = Vec::new();
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| format!("'{w}' is not key=value"))?;
            pairs.push((k, v));
        }
        let got: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        if got != keys {
            return Err(format!("fields {} are not the expected {}", got.join(","), keys.join(",")));
        }
        Ok(Fields(pairs))
    }

    fn has(&self, key: &str) -> bool {
        self.0.iter().any(|p| p.0 == key)
    }

    fn get(&self, key: &str) -> &'a str {
        self.0.iter().find(|p| p.0 == key).map(|p| p.1).expect("keys were checked")
    }

    fn num<T: std::str::FromStr>(&self, key: &str) -> Result<T, String> {
        let v = self.get(key);
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{key} '{v}' is not a non-negative integer"));
        }
        v.parse().map_err(|_| format!("{key} '{v}' is out of range"))
    }
}

/// Returns `body` with its checksum appended: `body crc32=xxxxxxxx\n`.
fn seal(body: &str) -> String {
    format!("{body} crc32={:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// Returns the body of a sealed line (without its `\n`) if and only if its checksum matches.
fn unseal(line: &str) -> Result<&str, String> {
    if line.ends_with('\r') {
        return Err("it ends in a carriage return (\\r): the journal was converted to CRLF line ends (by an editor or a file transfer), which this program never writes".into());
    }
    let (body, crc) = line.rsplit_once(" crc32=").ok_or("it has no crc32 checksum")?;
    let want = format!("{:08x}", crc32fast::hash(body.as_bytes()));
    if crc != want {
        return Err(format!(
            "checksum mismatch (crc32 {crc} written, {want} computed): the line was changed or damaged"
        ));
    }
    Ok(body)
}

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
enum Line {
    /// A line ending in `\n` (the buffer holds it without the `\n`).
    Whole,
    /// The last bytes of the file, without a `\n`: a write torn by a crash.
    Torn,
    /// The end of the file.
    End,
}

/// A journal read line by line with at most [`MAX_LINE`] bytes held, counting lines and the
/// bytes of complete lines.
struct Lines<'p, R> {
    path: &'p Path,
    reader: R,
    buf: Vec<u8>,
    /// The 1-based number of the line in `buf`.
    number: usize,
    /// The bytes of the complete lines read so far.
    complete: u64,
}

impl<'p, R: BufRead> Lines<'p, R> {
    fn new(path: &'p Path, reader: R) -> Lines<'p, R> {
        Lines { path, reader, buf: Vec::with_capacity(MAX_LINE), number: 0, complete: 0 }
    }

    fn corrupt(&self, line: usize, reason: String) -> JournalError {
        JournalError::Corrupt { path: self.path.to_path_buf(), line, reason: escape_controls(&reason) }
    }

    /// Reads the next line into `buf`.
    ///
    /// # Errors
    /// [`JournalError::Io`] for a failed read; [`JournalError::Corrupt`] for a line longer than
    /// [`MAX_LINE`] (torn or not: no write of this program makes one).
    fn next_line(&mut self) -> Result<Line, JournalError> {
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
    fn skip_line(&mut self) -> io::Result<()> {
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
    fn text(&self) -> Result<&str, JournalError> {
        std::str::from_utf8(&self.buf).map_err(|_| self.corrupt(self.number, "it is not UTF-8 text".into()))
    }

    /// Reads and checks the header line.
    fn header(&mut self) -> Result<Header, JournalError> {
        match self.next_line()? {
            Line::Whole => {}
            Line::Torn | Line::End => return Err(self.corrupt(1, "the header line is missing".into())),
        }
        unseal(self.text()?).and_then(Header::parse).map_err(|r| self.corrupt(1, format!("bad header: {r}")))
    }

    /// Reads the entry lines after `header` to the end (see [`parse`]); `impossible(entry)`
    /// says why an entry's counts cannot be its subproblem's, if they cannot.
    fn entries(
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
fn entry_problem(
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

/// Returns the header of the journal at `path`, reading its first line only.
///
/// # Errors
/// As [`read`], for the first line.
pub fn read_header(path: &Path) -> Result<Header, JournalError> {
    let file = File::open(path).map_err(|source| JournalError::Io { path: path.to_path_buf(), source })?;
    Lines::new(path, io::BufReader::new(file)).header()
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
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            n: 9,
            algorithm: "mirror".into(),
            split_depth: 2,
            subproblems: 30,
            shard: None,
            version: "0.1.0".into(),
        }
    }

    fn entry(id: usize, solutions: u128) -> Entry {
        Entry { id, tally: Tally { solutions, ..Tally::default() }, nodes_counted: false, micros: None }
    }

    fn text(entries: &[Entry]) -> String {
        let mut s = seal(&header().body());
        for e in entries {
            s.push_str(&seal(&e.body()));
        }
        s
    }

    #[test]
    fn lines_round_trip() {
        let h = Header { shard: Some(ShardId { index: 2, count: 7 }), ..header() };
        let line = seal(&h.body());
        assert!(line.starts_with("nqueens-journal 1 n=9 algorithm=mirror split_depth=2 subproblems=30 shard=2/7 version=0.1.0 crc32="));
        assert_eq!(Header::parse(unseal(line.trim_end()).unwrap()), Ok(h));
        let e = Entry {
            id: 17,
            tally: Tally {
                solutions: u128::MAX,
                classes: Classes { orbit1: 1, orbit2: 2, orbit4: 3, orbit8: 4 },
                nodes: 99,
            },
            nodes_counted: true,
            micros: Some(12_000_345),
        };
        let line = seal(&e.body());
        let start =
            format!("id=17 solutions={} classes=4,3,2,1 nodes=99 seconds=12.000345 crc32=", u128::MAX);
        assert!(line.starts_with(&start), "{line}");
        assert_eq!(Entry::parse(unseal(line.trim_end()).unwrap()), Ok(e));
        // A line of a journal from before `seconds`: read, as no time.
        let old = seal("id=3 solutions=40 classes=0,0,0,0 nodes=-");
        assert_eq!(Entry::parse(unseal(old.trim_end()).unwrap()), Ok(entry(3, 40)));
        for bad in ["1", "1.5", "-1.000000", "1.00000x", ".000001", "18446744073709551615.000000"] {
            let line = seal(&format!("id=3 solutions=40 classes=0,0,0,0 nodes=- seconds={bad}"));
            let err = Entry::parse(unseal(line.trim_end()).unwrap()).unwrap_err();
            assert!(err.contains("is not a number of seconds"), "{bad}: {err}");
        }
        assert_eq!(spent_micros(&[e, entry(3, 40), Entry { micros: Some(5), ..e }]), 12_000_345);
        let plain = entry(3, 40);
        assert!(seal(&plain.body()).contains("nodes=-"));
        assert_eq!(Entry::parse(unseal(seal(&plain.body()).trim_end()).unwrap()), Ok(plain));
    }

    #[test]
    fn a_torn_last_line_is_reported_not_fatal() {
        let mut s = text(&[entry(0, 4), entry(5, 6)]);
        let valid = s.len() as u64;
        s.push_str("id=7 solut");
        let c = parse(Path::new("j"), s.as_bytes(), |_| true).unwrap();
        assert_eq!(c.entries, vec![entry(0, 4), entry(5, 6)]);
        assert_eq!(c.torn.as_deref(), Some("id=7 solut"));
        assert_eq!(c.valid_len, valid);
    }

    #[test]
    fn damage_is_an_error_naming_the_line() {
        let s = text(&[entry(0, 4), entry(5, 64)]);
        let flipped = s.replace("solutions=64", "solutions=65");
        let err = parse(Path::new("j"), flipped.as_bytes(), |_| true).unwrap_err().to_string();
        assert!(err.contains("line 3 is corrupt: checksum mismatch"), "{err}");
        let twice = text(&[entry(5, 4), entry(5, 4)]);
        let err = parse(Path::new("j"), twice.as_bytes(), |_| true).unwrap_err().to_string();
        assert!(err.contains("line 3") && err.contains("recorded twice"), "{err}");
        let outside = text(&[entry(30, 4)]);
        let err = parse(Path::new("j"), outside.as_bytes(), |_| true).unwrap_err().to_string();
        assert!(err.contains("out of range 0..30"), "{err}");
        let err =
            parse(Path::new("j"), text(&[entry(4, 1)]).as_bytes(), |id| id != 4).unwrap_err().to_string();
        assert!(err.contains("does not belong to this run's shard"), "{err}");
        let err = parse(Path::new("j"), b"hello\n", |_| true).unwrap_err().to_string();
        assert!(err.contains("line 1 is corrupt"), "{err}");
    }

    #[test]
    fn long_or_binary_lines_are_refused_where_they_start() {
        // A line longer than any journal line, torn or not, is refused at its first KiB.
        let mut s = text(&[entry(0, 4)]);
        s.push_str(&"9".repeat(5000));
        let err = parse(Path::new("j"), s.as_bytes(), |_| true).unwrap_err().to_string();
        assert!(
            err.contains("line 3 is corrupt: it is longer than 1024 bytes, which no journal line is"),
            "{err}"
        );
        s.push('\n');
        let err = parse(Path::new("j"), s.as_bytes(), |_| true).unwrap_err().to_string();
        assert!(err.contains("line 3 is corrupt: it is longer than 1024 bytes"), "{err}");
        let err = parse(Path::new("j"), "x".repeat(2000).as_bytes(), |_| true).unwrap_err().to_string();
        assert!(err.contains("line 1 is corrupt: it is longer than 1024 bytes"), "{err}");
        // Bytes that are not UTF-8 name their line; a torn tail of them is only dropped.
        let mut b = text(&[entry(0, 4)]).into_bytes();
        b.extend_from_slice(b"\xff\xfe\n");
        let err = parse(Path::new("j"), &b, |_| true).unwrap_err().to_string();
        assert!(err.contains("line 3 is corrupt: it is not UTF-8 text"), "{err}");
        b.truncate(b.len() - 1);
        assert_eq!(parse(Path::new("j"), &b, |_| true).unwrap().torn.as_deref(), Some("\u{fffd}\u{fffd}"));
        // The header alone, or nothing.
        let err = parse(Path::new("j"), b"", |_| true).unwrap_err().to_string();
        assert!(err.contains("line 1 is corrupt: the header line is missing"), "{err}");
        assert!(parse(Path::new("j"), text(&[]).as_bytes(), |_| true).unwrap().entries.is_empty());
    }

    #[test]
    fn header_differences_name_the_fields() {
        let other = Header { n: 10, version: "9.9.9".into(), ..header() };
        let d = header().differences(&other);
        assert_eq!(
            d,
            vec![
                "n = 9 in the journal, 10 in this command",
                "program version 0.1.0 in the journal, 9.9.9 in this command"
            ]
        );
        assert!(header().differences(&header()).is_empty());
    }

    #[test]
    fn open_append_resume() {
        let dir = std::env::temp_dir().join(format!("nqueens-journal-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j.txt");
        let _ = std::fs::remove_file(&path);
        let (j, resumed) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
        assert!(resumed.entries.is_empty());
        let ((), synced) = j.run_syncing(|| {
            j.append(&entry(3, 8)).unwrap();
            j.append(&entry(1, 2)).unwrap();
        });
        synced.unwrap();
        drop(j);
        // A torn tail is cut off on reopening, and the next line starts cleanly.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"id=9 sol").unwrap();
        let (j, resumed) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
        assert_eq!(resumed.entries, vec![entry(3, 8), entry(1, 2)]);
        assert_eq!(resumed.torn.as_deref(), Some("id=9 sol"));
        j.append(&entry(9, 1)).unwrap();
        drop(j);
        let (_, resumed) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
        assert_eq!(resumed.entries.len(), 3);
        // A second open while the first is alive is refused; after it ends, the lock is free.
        let (first, _) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
        let err = Journal::open(&path, &header(), |_| true, |_| None).err().unwrap();
        assert!(err.to_string().contains("is in use by another running nqueens"), "{err}");
        drop(first);
        // Another n: an error, and the bytes stay as they were.
        let before = std::fs::read(&path).unwrap();
        let err = Journal::open(&path, &Header { n: 10, ..header() }, |_| true, |_| None).err().unwrap();
        assert!(err.to_string().contains("n = 9 in the journal, 10 in this command"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
