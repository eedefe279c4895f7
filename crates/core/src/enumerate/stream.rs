//! The ordered stream: subproblems searched in parallel, their output handed over in index order
//! with bounded memory.
//!
//! # How the parallel listing stays in order
//! The subproblems ([`ordered_subproblems`], at the depth [`stream_split_depth`] picks for a
//! listing's [`SolveOptions`]) fix the first rows of the board, *without*
//! mirror halving: the mirror images of a prefix's solutions come in the opposite order and much
//! later, so they cannot be written without keeping them. Their prefixes are in lexicographic
//! order, so writing each subproblem's solutions in turn gives the global order. Worker threads
//! of a rayon pool take subproblems in index order (one shared counter) and search them with
//! `kernel::for_each_completion`; each formats its solutions into chunks of about
//! [`CHUNK_BYTES`] and queues them under its subproblem's index. One consumer (the writer, or the
//! [`super::Solutions`] iterator) takes the chunks of the lowest unfinished subproblem, the
//! *head*, in order.
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
//! thread-local buffer (`boards::encode`) and touches the shared queue once per chunk
//! (about 1,600 solutions of n = 16 in the `cols` format).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::boards::BoardFormat;
use crate::boards::encode::Encoder;
use crate::kernel::{self, full_mask};
use crate::limits::available_threads;
use crate::split::{self, Subproblem};
use crate::symmetry::is_canonical_permutation;
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

/// How to list solutions: threads, format, limit, symmetry classes only, split depth.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Worker threads (at least 1). Default: every logical CPU ([`crate::plan::available_threads`]).
    pub threads: usize,
    /// How each solution is written. Default: [`BoardFormat::Board`].
    pub format: BoardFormat,
    /// Stop after this many solutions (and stop searching). Default: no limit.
    pub limit: Option<u64>,
    /// List only the canonical board of each symmetry class (OEIS A002562). Default: false.
    pub unique: bool,
    /// Rows fixed per subproblem (1..=16); `None` picks one for the threads and the output's size.
    pub split_depth: Option<u32>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: available_threads(),
            format: BoardFormat::Board,
            limit: None,
            unique: false,
            split_depth: None,
        }
    }
}

/// Returns the subproblems of the ordered listing of an `n`×`n` board: every prefix with
/// `depth` rows fixed (no mirror halving), lexicographic; only the left half of row 0 (columns
/// `0..=(n-1)/2`) when `unique`. A `depth` past n or [`split::MAX_SPLIT_DEPTH`] fixes that many
/// rows; at most `split::MAX_SUBPROBLEMS` subproblems are made.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`] (unchecked, n = 64 made prefixes of a
/// board whose masks wrapped).
pub fn ordered_subproblems(n: u32, depth: u32, unique: bool) -> Result<Vec<Subproblem>, Error> {
    check_n(n)?;
    let mut subs = split::expand(vec![Subproblem::ROOT], n, depth);
    if unique && n >= 1 {
        subs.retain(|s| s.prefix.cols().first().is_none_or(|&c| u32::from(c) <= (n - 1) / 2));
    }
    Ok(subs)
}

/// Returns the split depth of an ordered listing of an `n`×`n` board on `threads` workers with
/// about `bytes_per_solution` bytes each.
///
/// The smallest depth with at least 32 subproblems per thread and 2,048 in all (as for
/// counting, `split::auto_split_depth`) whose average output also fits four times per thread
/// into [`QUEUE_LIMIT`], so workers ahead of the head rarely wait; never more than
/// [`MAX_STREAM_SUBPROBLEMS`] subproblems. Q(n) comes from OEIS A000170 (n ≤ 27); beyond the
/// table the output is taken as unbounded and the depth grows to the subproblem cap.
///
/// # Errors
/// [`Error::BoardTooLarge`] if `n` > [`crate::MAX_N`].
pub fn stream_split_depth(n: u32, threads: usize, bytes_per_solution: usize) -> Result<u32, Error> {
    check_n(n)?;
    let target = split::target_subproblems(threads);
    // Saturating: a thread count past usize::MAX / 4 wants one byte-less share, not a division by 0.
    let want = (QUEUE_LIMIT / threads.max(1).saturating_mul(4)) as u128;
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
    Ok(depth.max(1))
}

/// A piece of formatted output: whole solutions, and where each ends.
#[derive(Debug, Default)]
pub(super) struct Chunk {
    pub(super) bytes: Vec<u8>,
    /// `ends[k]` is the end offset in `bytes` of solution k of the chunk.
    pub(super) ends: Vec<u32>,
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
            let flow = kernel::each_completion(full, sub.cols, sub.ld, sub.rd, &mut path, depth, &mut |q| {
                if self.unique && !is_canonical_permutation(q) {
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
/// behind `nqueens solve` and [`super::Solutions`] (see the module docs for how it keeps order and
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
    /// deeper than [`MAX_SPLIT_DEPTH`](crate::plan::MAX_SPLIT_DEPTH); [`Error::ThreadPool`] if the threads cannot start;
    /// [`Error::OutOfMemory`] if the threads or the output queue do not fit in the memory
    /// available (`crate::memory::check_threads`, `crate::memory::check`).
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
            None => stream_split_depth(n, options.threads, encoder.bytes_per_solution())?,
        };
        // At most MAX_STREAM_SUBPROBLEMS of them (6 MiB). No more workers than subproblems: the
        // others would only start and stop (`solve 1 -j 4096` took 75 s starting 4,095 idle
        // threads, the break-it round of 2026-12-03).
        let subproblems = ordered_subproblems(n, depth, options.unique)?;
        let workers = options.threads.min(subproblems.len()).max(1);
        let pool = crate::parallel::pool(workers, "nqueens-solve")?;
        // The queued output at most, twice over for the copies a growing chunk makes, and the
        // subproblem list (after the pool: its threads' address space is already taken).
        let queued =
            (limits.queue + limits.head).saturating_add(workers.saturating_mul(limits.chunk)) as u64 * 2;
        let list = (MAX_STREAM_SUBPROBLEMS * std::mem::size_of::<Subproblem>()) as u64;
        let what = || format!("listing n = {n} on {workers} thread(s) (output queue and subproblems)");
        crate::memory::check(what, queued.saturating_add(list))?;
        let limit = options.limit.unwrap_or(u64::MAX);
        let shared = Arc::new(Shared {
            limits,
            n,
            unique: options.unique,
            encoder,
            subproblems,
            flush_every: usize::try_from(limit).unwrap_or(usize::MAX).max(1),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            queue: Mutex::new(Queue::default()),
            produced: Condvar::new(),
            drained: Condvar::new(),
        });
        if limit > 0 {
            for _ in 0..workers {
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
    pub(super) fn next_chunk(&mut self) -> Option<Chunk> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oeis;

    fn listing(n: u32, options: &SolveOptions) -> Vec<u8> {
        let mut out = Vec::new();
        Stream::new(n, options).unwrap().write_to(&mut out).unwrap();
        out
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
}
