//! Solution boards, listed in lexicographic order and streamed with flat memory.
//!
//! # Order
//! Solutions come in the order of a row-by-row search that tries columns left to right: by the
//! column of the queen in row 0, then row 1, and so on (for n = 4: `1 3 0 2`, then `2 0 3 1`,
//! 0-based). The bytes written are the same for every thread count.
//!
//! # How the parallel listing stays in order
//! The board is split into subproblems with the first rows fixed ([`split::expand`] from the
//! empty board, *without* mirror halving: the mirror images of a prefix's solutions come in the
//! opposite order and much later, so they cannot be written without keeping them). Their
//! prefixes are in lexicographic order, so writing each subproblem's solutions in turn gives the
//! global order. Worker threads of a rayon pool take subproblems in index order (one shared
//! counter) and search them with [`kernel::for_each_completion`]; each formats its solutions into
//! chunks of about [`CHUNK_BYTES`] and queues them under its subproblem's index. One consumer (the
//! writer, or the [`Solutions`] iterator) takes the chunks of the lowest unfinished subproblem,
//! the *head*, in order.
//!
//! Memory stays flat through back-pressure: after queueing a chunk, a worker on the head
//! subproblem waits while more than [`HEAD_LIMIT`] bytes of its own are queued, and a worker
//! ahead of the head waits while more than [`QUEUE_LIMIT`] bytes are queued in all. Queued output
//! is therefore at most `QUEUE_LIMIT + HEAD_LIMIT + threads × CHUNK_BYTES` (about 21 MiB on 2
//! threads), however many solutions there are. This cannot deadlock: subproblems are taken in
//! index order, so the head is either being searched by a worker that only waits for the
//! consumer to drain the head, or it is not yet taken and then nothing is queued and nobody
//! waits.
//!
//! The kernel itself stays free of locks and atomics: the callback formats a solution into a
//! thread-local buffer and touches the shared queue once per chunk (about 1,600 solutions of
//! n = 16 in the `cols` format).
//!
//! # Fundamental solutions
//! With `unique`, only the canonical board of each symmetry class is listed: the
//! lexicographically smallest of its D4 orbit ([`crate::symmetry`]); their number is OEIS
//! A002562. A board whose row-0 queen lies right of the middle is never canonical (its left-right
//! mirror is smaller), so those prefixes are not searched; every other solution is compared with
//! its seven images, without allocating.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::kernel::{self, full_mask};
use crate::split::{self, Subproblem};
use crate::symmetry::is_canonical;
use crate::{Error, check_n, oeis};

/// Bytes a worker formats before it hands a chunk to the consumer (64 KiB: large enough that the
/// shared queue is locked once per ~1,600 solutions of n = 16, small enough to keep memory flat).
pub const CHUNK_BYTES: usize = 64 * 1024;

/// The most bytes queued in all before workers ahead of the head subproblem wait (16 MiB).
pub const QUEUE_LIMIT: usize = 16 * 1024 * 1024;

/// The most bytes of the head subproblem queued before its worker waits for the consumer (4 MiB).
pub const HEAD_LIMIT: usize = 4 * 1024 * 1024;

/// The most subproblems an automatic split depth makes (2^18, about 12 MiB of prefixes).
pub const MAX_STREAM_SUBPROBLEMS: usize = 1 << 18;

/// How each solution is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BoardFormat {
    /// Each solution as n lines of `Q` and `.` (row 0 first), solutions separated by a blank line.
    #[default]
    Board,
    /// One JSON array of solutions, each an array of n strings of `Q` and `.`: the expected
    /// output of the LeetCode "N-Queens" exercise (`[["Q"]]` for n = 1, `[]` for n = 2), then a
    /// newline.
    Leetcode,
    /// One solution per line: the 1-based column of the queen in each row, space separated.
    Cols,
    /// n bytes per solution, the 0-based column of each row's queen, nothing between solutions
    /// (what [`Solutions`] reads; not offered on the command line).
    Raw,
}

impl BoardFormat {
    /// The formats offered on the command line, in the order `--help` lists them.
    pub const ALL: [BoardFormat; 3] = [BoardFormat::Board, BoardFormat::Leetcode, BoardFormat::Cols];

    /// Returns the format's name as the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            BoardFormat::Board => "board",
            BoardFormat::Leetcode => "leetcode",
            BoardFormat::Cols => "cols",
            BoardFormat::Raw => "raw",
        }
    }

    /// Returns what is written before the first solution.
    fn header(self) -> &'static [u8] {
        if self == BoardFormat::Leetcode { b"[" } else { b"" }
    }

    /// Returns what is written after the last solution.
    fn footer(self) -> &'static [u8] {
        if self == BoardFormat::Leetcode { b"]\n" } else { b"" }
    }

    /// Returns what is written between two solutions (each encoded solution starts with it; the
    /// writer drops it from the first).
    fn separator(self) -> &'static [u8] {
        match self {
            BoardFormat::Board => b"\n",
            BoardFormat::Leetcode => b",",
            BoardFormat::Cols | BoardFormat::Raw => b"",
        }
    }
}

impl fmt::Display for BoardFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::error::parse_name(s, &BoardFormat::ALL, BoardFormat::name, "format")
    }
}

/// Formats solutions of one board size from precomputed rows (no per-solution formatting logic
/// beyond copying a few slices).
#[derive(Clone, Debug)]
struct Encoder {
    format: BoardFormat,
    n: usize,
    /// Board: row strings `..Q.\n`, n + 1 bytes each. Leetcode: `,"..Q."`, n + 3 bytes each.
    /// Cols: `c ` (the 1-based column and a space), padded to 4 bytes, with `lens`.
    table: Vec<u8>,
    width: usize,
    lens: Vec<u8>,
}

impl Encoder {
    fn new(format: BoardFormat, n: usize) -> Encoder {
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
    fn encode(&self, q: &[u8], out: &mut Vec<u8>) {
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
    fn bytes_per_solution(&self) -> usize {
        self.format.bytes_per_board(self.n)
    }
}

impl BoardFormat {
    /// Returns about how many bytes one board of side `n` takes in this format (exact for board
    /// and leetcode, an upper bound of 3 bytes a row for cols).
    pub fn bytes_per_board(self, n: usize) -> usize {
        match self {
            BoardFormat::Board => n * (n + 1) + 1,
            BoardFormat::Leetcode => n * (n + 3) + 3,
            BoardFormat::Cols => 3 * n.max(1),
            BoardFormat::Raw => n.max(1),
        }
    }
}

/// Calls `visit` with every solution of the `n`×`n` board in lexicographic order (see the
/// module docs), on the calling thread, until `visit` returns [`ControlFlow::Break`]. Each
/// solution is the 0-based column of the queen in each row, row 0 first. n = 0 has one solution,
/// the empty board (OEIS A000170 convention).
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`].
///
/// # Examples
/// ```
/// use std::ops::ControlFlow;
/// let mut first = Vec::new();
/// nqueens::enumerate::for_each_solution(8, |q| {
///     first = q.to_vec();
///     ControlFlow::Break(())
/// })
/// .unwrap();
/// assert_eq!(first, vec![0, 4, 7, 5, 2, 6, 1, 3]);
/// ```
pub fn for_each_solution(n: u32, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> Result<(), Error> {
    check_n(n)?;
    let mut path = [0u8; 64];
    let _ = kernel::for_each_completion(full_mask(n), 0, 0, 0, &mut path, 0, &mut visit);
    Ok(())
}

/// How to list solutions: threads, format, limit, symmetry classes only, split depth.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Worker threads (at least 1). Default: every logical CPU (`num_cpus::get()`).
    pub threads: usize,
    /// How each solution is written. Default: [`BoardFormat::Board`].
    pub format: BoardFormat,
    /// Stop after this many solutions (and stop searching). Default: no limit.
    pub limit: Option<u64>,
    /// List only the canonical board of each symmetry class (OEIS A002562). Default: false.
    pub unique: bool,
    /// Rows fixed per subproblem (1..=16); `None` picks one (see [`stream_split_depth`]).
    pub split_depth: Option<u32>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: num_cpus::get(),
            format: BoardFormat::Board,
            limit: None,
            unique: false,
            split_depth: None,
        }
    }
}

/// Returns the subproblems of the ordered listing of an `n`×`n` board: every prefix with
/// `depth` rows fixed (no mirror halving), lexicographic; only the left half of row 0 (columns
/// `0..=(n-1)/2`) when `unique`.
pub fn ordered_subproblems(n: u32, depth: u32, unique: bool) -> Vec<Subproblem> {
    let mut subs = split::expand(vec![Subproblem::ROOT], n, depth);
    if unique && n >= 1 {
        subs.retain(|s| s.prefix.cols().first().is_none_or(|&c| u32::from(c) <= (n - 1) / 2));
    }
    subs
}

/// Returns the split depth of an ordered listing of an `n`×`n` board on `threads` workers with
/// about `bytes_per_solution` bytes each.
///
/// The smallest depth with at least 32 subproblems per thread and 2,048 in all (as for
/// counting, [`split::auto_split_depth`]) whose average output also fits four times per thread
/// into [`QUEUE_LIMIT`], so workers ahead of the head rarely wait; never more than
/// [`MAX_STREAM_SUBPROBLEMS`] subproblems. Q(n) comes from OEIS A000170 (n ≤ 27); beyond the
/// table the output is taken as unbounded and the depth grows to the subproblem cap.
pub fn stream_split_depth(n: u32, threads: usize, bytes_per_solution: usize) -> u32 {
    let target = split::target_subproblems(threads);
    let want = (QUEUE_LIMIT / (4 * threads.max(1))) as u128;
    let total = oeis::A000170.get(n).map(|q| q * bytes_per_solution as u128);
    let deepest = n.min(split::MAX_SPLIT_DEPTH);
    let mut level = vec![Subproblem::ROOT];
    let mut depth = 0;
    while depth < deepest {
        let small = total.is_some_and(|t| t / level.len() as u128 <= want);
        if depth >= 1 && level.len() >= target && small {
            break;
        }
        let next: usize = level.iter().map(|s| s.free(n).count_ones() as usize).sum();
        if next > MAX_STREAM_SUBPROBLEMS {
            break;
        }
        depth += 1;
        level = split::expand(level, n, depth);
    }
    depth.max(1)
}

/// A piece of formatted output: whole solutions, and where each ends.
#[derive(Debug, Default)]
struct Chunk {
    bytes: Vec<u8>,
    /// `ends[k]` is the end offset in `bytes` of solution k of the chunk.
    ends: Vec<u32>,
}

#[derive(Debug, Default)]
struct Slot {
    chunks: VecDeque<Chunk>,
    bytes: usize,
    done: bool,
}

#[derive(Debug, Default)]
struct Queue {
    /// The lowest subproblem whose output has not been handed out completely.
    head: usize,
    /// `slots[k]` holds the queued output of subproblem `head + k`.
    slots: VecDeque<Slot>,
    /// Bytes queued in all slots.
    bytes: usize,
}

/// The queue's sizes in bytes: [`CHUNK_BYTES`], [`QUEUE_LIMIT`], [`HEAD_LIMIT`] (the tests
/// shrink them to a few hundred bytes so that every wait and hand-over path runs).
#[derive(Clone, Copy, Debug)]
struct Limits {
    chunk: usize,
    queue: usize,
    head: usize,
}

impl Limits {
    const DEFAULT: Limits = Limits { chunk: CHUNK_BYTES, queue: QUEUE_LIMIT, head: HEAD_LIMIT };
}

/// What the workers and the consumer share.
struct Shared {
    limits: Limits,
    n: u32,
    unique: bool,
    encoder: Encoder,
    subproblems: Vec<Subproblem>,
    /// Solutions a worker formats before it hands over a chunk, whatever its size (the limit, so
    /// that `--limit 1` on a large board does not wait for a whole chunk).
    flush_every: usize,
    next: AtomicUsize,
    stop: AtomicBool,
    queue: Mutex<Queue>,
    /// Signalled when a chunk is queued or a subproblem finishes (the consumer waits on it).
    produced: Condvar,
    /// Signalled when the consumer takes a chunk or moves the head (workers wait on it).
    drained: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A worker never panics while holding the lock (nothing in it can panic short of a
        // bug), so a poisoned lock still holds a consistent queue.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `chunk` under subproblem `index` (and marks it finished if `done`), then waits
    /// while the queue is over its limits; returns `Break` when the listing was stopped.
    fn push(&self, index: usize, chunk: Chunk, done: bool) -> ControlFlow<()> {
        let mut q = self.lock();
        if self.stop.load(Ordering::Relaxed) {
            return ControlFlow::Break(());
        }
        // The subproblem is not finished, so the head has not passed it.
        let k = index - q.head;
        if q.slots.len() <= k {
            q.slots.resize_with(k + 1, Slot::default);
        }
        let len = chunk.bytes.len();
        if !chunk.ends.is_empty() {
            q.bytes += len;
            let slot = &mut q.slots[k];
            slot.bytes += len;
            slot.chunks.push_back(chunk);
        }
        if done {
            q.slots[k].done = true;
        }
        self.produced.notify_one();
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            let over = if index == q.head {
                q.slots[0].bytes > self.limits.head
            } else {
                q.bytes > self.limits.queue
            };
            if !over {
                return ControlFlow::Continue(());
            }
            q = self.drained.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Searches subproblems in index order until none is left or the listing is stopped.
    fn work(&self) {
        let full = full_mask(self.n);
        let capacity = self.limits.chunk + self.encoder.bytes_per_solution() + 16;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(sub) = self.subproblems.get(index) else { return };
            let mut path = [0u8; 64];
            let depth = sub.prefix.len();
            path[..depth].copy_from_slice(sub.prefix.cols());
            let mut chunk = Chunk { bytes: Vec::with_capacity(capacity), ends: Vec::new() };
            let flow =
                kernel::for_each_completion(full, sub.cols, sub.ld, sub.rd, &mut path, depth, &mut |q| {
                    if self.unique && !is_canonical(q) {
                        return ControlFlow::Continue(());
                    }
                    self.encoder.encode(q, &mut chunk.bytes);
                    chunk.ends.push(chunk.bytes.len() as u32);
                    if chunk.bytes.len() >= self.limits.chunk || chunk.ends.len() >= self.flush_every {
                        let full_chunk = std::mem::replace(
                            &mut chunk,
                            Chunk { bytes: Vec::with_capacity(capacity), ends: Vec::new() },
                        );
                        self.push(index, full_chunk, false)?;
                    }
                    ControlFlow::Continue(())
                });
            if flow.is_break() || self.push(index, chunk, true).is_break() {
                return;
            }
        }
    }

    /// Stops the listing: workers return at their next chunk, waiting ones wake up.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _q = self.lock();
        self.drained.notify_all();
        self.produced.notify_all();
    }
}

/// An ordered, parallel listing of the solutions of one board, already formatted: the engine
/// behind `nqueens solve` and [`Solutions`] (see the module docs for how it keeps order and
/// memory). Dropping it stops the search.
pub struct Stream {
    shared: Arc<Shared>,
    /// The workers' pool, kept alive as long as the stream.
    _pool: rayon::ThreadPool,
    format: BoardFormat,
    limit: u64,
    written: u64,
    finished: bool,
}

impl Stream {
    /// Starts listing the solutions of the `n`×`n` board as `options` say; the workers start
    /// at once and run ahead of the consumer only as far as the queue limits allow.
    ///
    /// # Errors
    /// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::ZeroThreads`] if
    /// `options.threads` is 0; [`Error::BadSplitDepth`] if `options.split_depth` is `Some(0)` or
    /// deeper than [`split::MAX_SPLIT_DEPTH`]; [`Error::ThreadPool`] if the threads cannot start;
    /// [`Error::OutOfMemory`] if the threads or the output queue do not fit in the memory
    /// available ([`crate::memory::check_threads`], [`crate::memory::check`]).
    pub fn new(n: u32, options: &SolveOptions) -> Result<Stream, Error> {
        Stream::with_limits(n, options, Limits::DEFAULT)
    }

    fn with_limits(n: u32, options: &SolveOptions, limits: Limits) -> Result<Stream, Error> {
        check_n(n)?;
        if options.threads == 0 {
            return Err(Error::ZeroThreads);
        }
        let encoder = Encoder::new(options.format, n as usize);
        let depth = match options.split_depth {
            Some(d) => split::check_depth(d)?,
            None => stream_split_depth(n, options.threads, encoder.bytes_per_solution()),
        };
        let pool = crate::parallel::pool(options.threads, "nqueens-solve")?;
        // The queued output at most, twice over for the copies a growing chunk makes, and the
        // subproblem list (after the pool: its threads' address space is already taken).
        let queued = (limits.queue + limits.head + options.threads * limits.chunk) as u64 * 2;
        let list = (MAX_STREAM_SUBPROBLEMS * std::mem::size_of::<Subproblem>()) as u64;
        crate::memory::check(
            || format!("listing n = {n} on {} thread(s) (output queue and subproblems)", options.threads),
            queued + list,
        )?;
        let limit = options.limit.unwrap_or(u64::MAX);
        let shared = Arc::new(Shared {
            limits,
            n,
            unique: options.unique,
            encoder,
            subproblems: ordered_subproblems(n, depth, options.unique),
            flush_every: usize::try_from(limit).unwrap_or(usize::MAX).max(1),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            queue: Mutex::new(Queue::default()),
            produced: Condvar::new(),
            drained: Condvar::new(),
        });
        if limit > 0 {
            for _ in 0..options.threads {
                let shared = Arc::clone(&shared);
                pool.spawn(move || shared.work());
            }
        }
        Ok(Stream { shared, _pool: pool, format: options.format, limit, written: 0, finished: limit == 0 })
    }

    /// Returns the number of subproblems the board was split into.
    pub fn subproblems(&self) -> usize {
        self.shared.subproblems.len()
    }

    /// Returns the number of solutions handed out so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Returns the next chunk in order, cut at the limit; `None` at the end.
    fn next_chunk(&mut self) -> Option<Chunk> {
        if self.finished {
            return None;
        }
        let shared = &*self.shared;
        let mut chunk = {
            let mut q = shared.lock();
            loop {
                if let Some(front) = q.slots.front_mut() {
                    if let Some(chunk) = front.chunks.pop_front() {
                        front.bytes -= chunk.bytes.len();
                        q.bytes -= chunk.bytes.len();
                        shared.drained.notify_all();
                        break chunk;
                    }
                    if front.done {
                        q.slots.pop_front();
                        q.head += 1;
                        shared.drained.notify_all();
                        continue;
                    }
                }
                if q.head >= shared.subproblems.len() {
                    drop(q);
                    self.finished = true;
                    return None;
                }
                q = shared.produced.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let left = self.limit - self.written;
        if chunk.ends.len() as u64 >= left {
            // `left` < ends.len() ≤ u32::MAX here, so the casts are exact.
            let keep = left as usize;
            chunk.bytes.truncate(chunk.ends[keep - 1] as usize);
            chunk.ends.truncate(keep);
            self.finished = true;
            shared.stop();
        }
        self.written += chunk.ends.len() as u64;
        Some(chunk)
    }

    /// Writes the whole listing to `out` in the stream's format (header, solutions in order,
    /// footer) and returns the number of solutions written.
    ///
    /// # Errors
    /// The first write error; the search stops (a broken pipe is the caller's to treat as the
    /// normal end).
    pub fn write_to(mut self, out: &mut dyn Write) -> io::Result<u64> {
        out.write_all(self.format.header())?;
        let separator = self.format.separator().len();
        let mut first = true;
        while let Some(chunk) = self.next_chunk() {
            let mut bytes = &chunk.bytes[..];
            if first && !chunk.ends.is_empty() {
                bytes = &bytes[separator..];
                first = false;
            }
            out.write_all(bytes)?;
        }
        out.write_all(self.format.footer())?;
        Ok(self.written)
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.shared.stop();
    }
}

/// Writes the solutions of the `n`×`n` board to `out` as `options` say and returns how many
/// were written (see [`Stream`]).
///
/// # Errors
/// A library error from [`Stream::new`] (as an [`io::Error`] of kind `InvalidInput`) or the
/// first write error.
///
/// # Examples
/// ```
/// use nqueens::enumerate::{BoardFormat, SolveOptions, write_solutions};
/// let mut out = Vec::new();
/// let options = SolveOptions { format: BoardFormat::Cols, threads: 2, ..SolveOptions::default() };
/// assert_eq!(write_solutions(4, &options, &mut out).unwrap(), 2);
/// assert_eq!(out, b"2 4 1 3\n3 1 4 2\n");
/// ```
pub fn write_solutions(n: u32, options: &SolveOptions, out: &mut dyn Write) -> io::Result<u64> {
    let stream = Stream::new(n, options).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    stream.write_to(out)
}

/// An iterator over the solutions of one board in lexicographic order, each the 0-based column
/// of the queen in every row (row 0 first), searched in parallel ahead of the reader with
/// bounded memory (see [`Stream`]). Dropping it stops the search.
pub struct Solutions {
    stream: Stream,
    chunk: Chunk,
    /// The next solution of `chunk` to hand out.
    at: usize,
}

impl Solutions {
    /// Returns the iterator over the solutions of the `n`×`n` board with `options` (its
    /// `format` is ignored: the iterator reads raw columns).
    ///
    /// # Errors
    /// As [`Stream::new`].
    pub fn new(n: u32, options: &SolveOptions) -> Result<Solutions, Error> {
        let options = SolveOptions { format: BoardFormat::Raw, ..options.clone() };
        Ok(Solutions { stream: Stream::new(n, &options)?, chunk: Chunk::default(), at: 0 })
    }
}

impl Iterator for Solutions {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        while self.at >= self.chunk.ends.len() {
            self.chunk = self.stream.next_chunk()?;
            self.at = 0;
        }
        let start = if self.at == 0 { 0 } else { self.chunk.ends[self.at - 1] as usize };
        let end = self.chunk.ends[self.at] as usize;
        self.at += 1;
        Some(self.chunk.bytes[start..end].to_vec())
    }
}

/// Returns an iterator over the solutions of the `n`×`n` board in lexicographic order, each
/// the 0-based column of the queen in every row, searched on every logical CPU.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`]; [`Error::ThreadPool`] if the threads
/// cannot be started.
///
/// # Examples
/// ```
/// let boards: Vec<Vec<u8>> = nqueens::enumerate::solutions(4).unwrap().collect();
/// assert_eq!(boards, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
/// assert_eq!(nqueens::enumerate::solutions(8).unwrap().count(), 92);
/// ```
pub fn solutions(n: u32) -> Result<Solutions, Error> {
    Solutions::new(n, &SolveOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::backtrack_each;

    fn reference(n: u32) -> Vec<Vec<u8>> {
        let mut all = Vec::new();
        backtrack_each(n, |q| all.push(q.iter().map(|&c| c as u8).collect()));
        all
    }

    fn listing(n: u32, options: &SolveOptions) -> Vec<u8> {
        let mut out = Vec::new();
        write_solutions(n, options, &mut out).unwrap();
        out
    }

    #[test]
    fn iterator_matches_the_reference_for_every_thread_count_and_depth() {
        for n in 0..=9 {
            let want = reference(n);
            for threads in [1, 2, 3] {
                for depth in [None, Some(1), Some(2), Some(n.max(1))] {
                    let options = SolveOptions { threads, split_depth: depth, ..SolveOptions::default() };
                    let got: Vec<Vec<u8>> = Solutions::new(n, &options).unwrap().collect();
                    assert_eq!(got, want, "n = {n}, threads = {threads}, depth = {depth:?}");
                }
            }
        }
    }

    #[test]
    fn sequential_listing_matches_the_reference() {
        for n in 0..=9 {
            let mut got = Vec::new();
            for_each_solution(n, |q| {
                got.push(q.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(got, reference(n), "n = {n}");
        }
        assert_eq!(for_each_solution(64, |_| ControlFlow::Continue(())), Err(Error::BoardTooLarge { n: 64 }));
    }

    #[test]
    fn unique_lists_the_canonical_boards_in_order() {
        for n in 1..=10 {
            let want: Vec<Vec<u8>> =
                reference(n).into_iter().filter(|q| crate::symmetry::is_canonical(q)).collect();
            assert_eq!(want.len() as u128, oeis::A002562.get(n).unwrap(), "n = {n}");
            let options = SolveOptions { threads: 2, unique: true, ..SolveOptions::default() };
            let got: Vec<Vec<u8>> = Solutions::new(n, &options).unwrap().collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn limit_cuts_at_any_point_and_across_chunks() {
        let all = reference(9);
        for limit in [0, 1, 2, 37, 351, 352, 353, 10_000] {
            for threads in [1, 3] {
                let options = SolveOptions { threads, limit: Some(limit), ..SolveOptions::default() };
                let got: Vec<Vec<u8>> = Solutions::new(9, &options).unwrap().collect();
                assert_eq!(got, all[..all.len().min(limit as usize)], "limit = {limit}, threads = {threads}");
            }
        }
        // The leetcode array stays well-formed when cut.
        let options =
            SolveOptions { threads: 2, limit: Some(1), format: BoardFormat::Leetcode, ..Default::default() };
        assert_eq!(listing(4, &options), b"[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]\n");
        let options = SolveOptions { limit: Some(0), format: BoardFormat::Leetcode, ..Default::default() };
        assert_eq!(listing(8, &options), b"[]\n");
    }

    #[test]
    fn bytes_do_not_depend_on_threads_or_depth_and_memory_stays_bounded() {
        // n = 11 in the board format is 2,680 × 133 bytes = 356 KB, several chunks per
        // subproblem at depth 1, so the back-pressure and head hand-over paths run.
        for format in BoardFormat::ALL {
            let one = listing(11, &SolveOptions { threads: 1, format, ..Default::default() });
            for (threads, depth) in [(2, Some(1)), (3, None), (4, Some(3))] {
                let options = SolveOptions { threads, format, split_depth: depth, ..Default::default() };
                assert!(listing(11, &options) == one, "{format}, threads = {threads}");
            }
        }
    }

    #[test]
    fn tiny_queue_limits_keep_order_without_deadlock() {
        // Chunks of ~256 bytes and limits of a few chunks: workers ahead of the head wait at
        // almost every chunk, and the head changes hands thousands of times.
        let limits = Limits { chunk: 256, queue: 1024, head: 512 };
        for (n, format) in [(10, BoardFormat::Cols), (11, BoardFormat::Board), (9, BoardFormat::Leetcode)] {
            let want = listing(n, &SolveOptions { threads: 1, format, ..Default::default() });
            for threads in [1, 2, 3, 5] {
                for depth in [Some(1), Some(2), None] {
                    let options = SolveOptions { threads, format, split_depth: depth, ..Default::default() };
                    let mut got = Vec::new();
                    let written =
                        Stream::with_limits(n, &options, limits).unwrap().write_to(&mut got).unwrap();
                    assert_eq!(written as u128, oeis::A000170.get(n).unwrap());
                    assert!(got == want, "n = {n}, {format}, threads = {threads}, depth = {depth:?}");
                }
            }
            // Stopping part-way (a limit, then dropping the stream) wakes every waiting worker.
            let options = SolveOptions { threads: 3, format, limit: Some(7), ..Default::default() };
            let mut got = Vec::new();
            assert_eq!(Stream::with_limits(n, &options, limits).unwrap().write_to(&mut got).unwrap(), 7);
            let mut stream =
                Stream::with_limits(n, &SolveOptions { threads: 3, ..Default::default() }, limits).unwrap();
            assert!(stream.next_chunk().is_some());
            let shared = Arc::clone(&stream.shared);
            drop(stream);
            // Every worker returns and lets go of the shared state.
            let start = std::time::Instant::now();
            while Arc::strong_count(&shared) > 1 {
                assert!(start.elapsed().as_secs() < 20, "workers still hold the queue after the drop");
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }

    #[test]
    fn formats_of_four_queens() {
        let list = |format| listing(4, &SolveOptions { threads: 2, format, ..Default::default() });
        assert_eq!(list(BoardFormat::Board), b".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n");
        assert_eq!(
            list(BoardFormat::Leetcode),
            b"[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
        );
        assert_eq!(list(BoardFormat::Cols), b"2 4 1 3\n3 1 4 2\n");
        let cols10 = listing(
            10,
            &SolveOptions { threads: 1, format: BoardFormat::Cols, limit: Some(1), ..Default::default() },
        );
        assert_eq!(cols10, b"1 3 6 8 10 5 9 2 4 7\n");
    }

    #[test]
    fn edge_sizes() {
        let list = |n, format| listing(n, &SolveOptions { threads: 2, format, ..Default::default() });
        for n in [2, 3] {
            assert_eq!(list(n, BoardFormat::Board), b"");
            assert_eq!(list(n, BoardFormat::Cols), b"");
            assert_eq!(list(n, BoardFormat::Leetcode), b"[]\n");
        }
        assert_eq!(list(1, BoardFormat::Board), b"Q\n");
        assert_eq!(list(1, BoardFormat::Cols), b"1\n");
        assert_eq!(list(1, BoardFormat::Leetcode), b"[[\"Q\"]]\n");
        // n = 0: one solution, the empty board.
        assert_eq!(list(0, BoardFormat::Cols), b"\n");
        assert_eq!(list(0, BoardFormat::Leetcode), b"[[]]\n");
        assert_eq!(solutions(0).unwrap().collect::<Vec<_>>(), vec![Vec::<u8>::new()]);
    }

    #[test]
    fn bad_options_are_errors() {
        let err = |o: SolveOptions| Stream::new(8, &o).err();
        assert_eq!(err(SolveOptions { threads: 0, ..Default::default() }), Some(Error::ZeroThreads));
        assert_eq!(
            err(SolveOptions { split_depth: Some(0), ..Default::default() }),
            Some(Error::BadSplitDepth { depth: 0 })
        );
        assert_eq!(Stream::new(64, &SolveOptions::default()).err(), Some(Error::BoardTooLarge { n: 64 }));
    }

    #[test]
    fn auto_depth_bounds_the_work_per_subproblem() {
        // n = 16 in cols: 14,772,512 × ~40 bytes over ≥ 2,048 subproblems of ≤ 2 MiB each.
        let d = stream_split_depth(16, 2, 48);
        let subs = ordered_subproblems(16, d, false).len();
        assert!((2048..=MAX_STREAM_SUBPROBLEMS).contains(&subs), "depth {d}: {subs}");
        // Beyond the table the depth stops at the subproblem cap.
        let d = stream_split_depth(40, 2, 120);
        assert!(ordered_subproblems(40, d, false).len() <= MAX_STREAM_SUBPROBLEMS);
        assert!(d >= 3);
        assert_eq!(stream_split_depth(1, 8, 1), 1);
    }

    #[test]
    fn format_names_parse() {
        assert_eq!("leetcode".parse(), Ok(BoardFormat::Leetcode));
        assert_eq!(
            "raw".parse::<BoardFormat>().unwrap_err(),
            "unknown format 'raw': use one of board, leetcode, cols"
        );
    }
}
