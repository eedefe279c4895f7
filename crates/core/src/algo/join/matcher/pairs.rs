//! The passes over pairs of buckets. Both sides are sorted into the 2^k buckets of the cut
//! bits; a stored bucket s meets the code buckets t disjoint from it (t ⊆ ¬s). Each such pair is
//! matched with one of its sides bit-sliced into blocks of 512 and the other streamed against
//! them, whichever visits fewer (block, mask) pairs: |blocks of s| · |t| or |blocks of t| · |s|
//! ([`stored_sliced`]). So a small bucket never pays a mostly empty block against a large one:
//! it is streamed instead. Pass A slices each stored bucket once and streams every code run it
//! meets that way; pass B slices each code bucket and streams the stored runs. Only one
//! bucket's tables are held at a time (in pieces of [`Matcher::max_stored`] masks for a huge
//! one). The work of every block is known before it runs (the lengths of its runs), which is
//! what the progress reports count ([`Parts`]).

use std::ops::ControlFlow;
use std::time::Instant;

use super::blocks::count_runs;
use super::build::blocks_of;
use super::types::{BLOCK, CLASSES, MIN_PART_BLOCKS, Matcher, PIECE_VISITS, Parts, Run, Sampling, WORDS, Work};
use crate::algo::join::bits::uniform;
use crate::arch::Level;

/// The most codes sorted and matched at once (2^24: 128 MiB of codes, and as much of the sorts'
/// buffers): a larger side of codes goes in batches, each against the whole stored side, which
/// keeps the sorts in their buffers (a side of n = 28, up to 2 · 10^8 codes, sorted in place
/// took 20 s) and adds little work (each stored block is built again per batch).
pub const CODE_BATCH: usize = 1 << 24;

/// Per bucket: stored masks of weight other than 0, their blocks; codes of weight other than 0,
/// their blocks (`Matcher::sizes`).
const STORED: usize = 0;
const STORED_BLOCKS: usize = 1;
const CODES: usize = 2;
const CODE_BLOCKS: usize = 3;

/// The cost of building one block's tables (eight 64×64 transposes and its table rows), in
/// masks matched against a block: 1.3 µs against 1.1 ns a mask met (n = 18, AVX-512, the
/// profile of 300 units: results/2026-12-04-frontier/).
const BUILD_VISITS: u64 = 1024;

/// Returns true if and only if the pair of a stored bucket of sizes `ss` and a code bucket of
/// sizes `ts` (as in `Matcher::sizes`, of `buckets`) is matched with the stored bucket sliced:
/// its blocks times the codes is at most the code blocks times the stored masks. With one
/// bucket a side each block is built for this pair alone and counts [`BUILD_VISITS`] masks
/// more: the visits are about equal either way (blocks are about a side's masks over 512), so
/// the build decides and the smaller side is sliced (at n = 18, where most units are one
/// bucket, slicing the larger side made the join 35% slower). With more buckets a bucket's
/// blocks serve every bucket it meets, and counting the build (even shared among them) made
/// n = 22 9% slower: it is left out there.
#[inline(always)]
fn stored_sliced(ss: &[u64; 4], ts: &[u64; 4], buckets: usize) -> bool {
    let build = if buckets == 1 { BUILD_VISITS } else { 0 };
    ss[STORED_BLOCKS] * (ts[CODES] + build) <= ts[CODE_BLOCKS] * (ss[STORED] + build)
}

/// Calls `f(sub)` for every subset of `set` (from `set` down to 0).
#[inline(always)]
fn for_subsets(set: usize, mut f: impl FnMut(usize)) {
    let mut sub = set;
    loop {
        f(sub);
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & set;
    }
}

/// Returns how `len` codes go in batches of at most `most`: (the batches B, the codes a batch),
/// the fewest batches, all of one size but the last, at most B − 1 codes shorter. A sampled
/// count draws one batch at random and weighs it B times ([`Matcher::count_pairs`]), so a small
/// last batch (1/B of the draws) stood for a unit's codes as B times itself and each other
/// batch for B/(B − 1 + the last one's share) times its own: batches cut at `most` made a draw
/// of a unit of n = 28 spread by up to 100% (relative variance 0.50 against 0.074 with equal
/// batches over four draws each of 11 units, results/2026-12-05-plan-allocation/).
pub(super) fn batching(len: usize, most: usize) -> (usize, usize) {
    let batches = len.div_ceil(most.max(1)).max(1);
    let batch = len.div_ceil(batches).max(1);
    (len.div_ceil(batch), batch)
}

/// Mixed into the sample's seed for the draw of the batch of codes a sampled count matches
/// ([`Matcher::count_pairs`]), apart from the draws of its windows of tasks.
const BATCH_SEED: u64 = 0x5851_f42d_4c95_7f2d;

impl Matcher {
    /// Returns the most codes sorted and matched at once: [`Matcher::code_batch`], by default
    /// [`CODE_BATCH`].
    fn batch(&self) -> usize {
        self.code_batch.unwrap_or(CODE_BATCH).max(1)
    }

    /// Returns the weighted count of the prepared stored side (see [`Matcher::prepare`])
    /// against the `codes` of weights `weights`, in the fewest batches of at most
    /// [`Matcher::code_batch`] codes, of one size ([`batching`]), each sorted and then matched
    /// by pass A and pass B at the chunk width its own work calls for ([`Matcher::set_width`]);
    /// reports progress to `after` in `max_parts` parts at most (see [`Matcher::count_in_place`]), the work of every batch known from its histogram
    /// before the first; `None` if `after` stopped it. When sampling ([`Matcher::sampling`])
    /// with a share of at most one over the batches, one batch drawn at random (by a hash of the
    /// seed) is sorted and matched, and its time weighs as many times as there are batches
    /// ([`Sampling::codes`]): each batch is sorted and matched alone, so the one drawn costs
    /// what it costs in a count, and the time of the whole unit's batches is estimated without
    /// bias (a random share of the codes themselves cost 0.7 to 1.6 times its share of a
    /// count's time: a batch's size and which codes share it shape its buckets,
    /// results/2026-12-05-plan-batches/).
    pub(super) fn count_pairs(
        &mut self,
        level: Level,
        stored: &[u64],
        codes: &mut [u64],
        weights: [u32; 4],
        max_parts: usize,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        let (batches, batch) = batching(codes.len(), self.batch());
        // The batches matched: all, or one drawn when sampling.
        let drawn = match self.sampling.as_mut() {
            Some(sampling) if batches > 1 && sampling.share * batches as f64 <= 1.0 => {
                sampling.codes = 1.0 / batches as f64;
                Some(((uniform(sampling.seed ^ BATCH_SEED, 0) * batches as f64) as usize).min(batches - 1))
            }
            Some(sampling) => {
                sampling.codes = 1.0;
                None
            }
            None => None,
        };
        // The batches matched, as a range of the count's batches.
        let (first, matched) = drawn.map_or((0, batches), |d| (d, 1));
        // Every batch sorted first, its runs' starts kept: the work after the first report is all
        // matching (what a sampled unit's time over its share stands for).
        let t0 = Instant::now();
        let mut starts = std::mem::take(&mut self.batch_starts);
        starts.clear();
        // When sampling, each batch's tasks' visits (pass A's by stored bucket, then pass B's by
        // code bucket), so that deciding a task's window adds no pass over its bucket pairs.
        let mut tasks = std::mem::take(&mut self.task_visits);
        tasks.clear();
        let mut works = std::mem::take(&mut self.batch_work);
        works.clear();
        // The codes' sorts and the passes' bookkeeping stand for every batch's.
        if let Some(sampling) = self.sampling {
            mark(after, 1.0 / sampling.codes);
        }
        for chunk in codes.chunks_mut(batch).skip(first).take(matched) {
            self.code_starts(level, chunk, weights);
            self.sort_codes(level, chunk);
            self.bucket_sizes();
            works.push(self.work(self.sampling.is_some().then_some(&mut tasks)));
            starts.push(self.query_starts.clone());
        }
        self.stats.sort_s += t0.elapsed().as_secs_f64();
        let work = works.iter().fold(Work::default(), |a, w| Work {
            visits: a.visits + w.visits,
            blocks: a.blocks + w.blocks,
            pairs: a.pairs + w.pairs,
        });
        self.stats.bucket_pairs += work.pairs;
        let parts = (work.blocks as usize / MIN_PART_BLOCKS).clamp(1, max_parts.max(1));
        let mut progress = Progress { parts, total: work.visits, done: 0, reported: 0, window: Window::default() };
        let mut total = 0;
        let stopped = after(progress.report()).is_break();
        let buckets = self.sizes.len();
        for (k, chunk) in codes.chunks(batch).skip(first).take(matched).enumerate() {
            if stopped {
                break;
            }
            self.set_width(level, works[k].visits as f64 / works[k].blocks.max(1) as f64);
            self.query_starts.clone_from(&starts[k]);
            self.bucket_sizes();
            let visits = tasks.get(2 * buckets * k..2 * buckets * (k + 1));
            match self.passes(level, stored, chunk, visits, &mut progress, after) {
                Some(count) => total += count,
                None => {
                    (self.batch_starts, self.task_visits, self.batch_work) = (starts, tasks, works);
                    progress.window.close(self.sampling, after);
                    return None;
                }
            }
        }
        (self.batch_starts, self.task_visits, self.batch_work) = (starts, tasks, works);
        progress.window.close(self.sampling, after);
        if stopped {
            return None;
        }
        // Every part reported, even where the last blocks' visits round below the last boundary.
        while progress.reported < progress.parts {
            progress.reported += 1;
            if after(progress.parts_done()).is_break() {
                return None;
            }
        }
        Some(total)
    }

    /// Pass A, then pass B, over the prepared stored side and the sorted batch `codes`; when
    /// sampling, `visits` holds each task's visits ([`Matcher::work`]).
    fn passes(
        &mut self,
        level: Level,
        stored: &[u64],
        codes: &[u64],
        visits: Option<&[u64]>,
        progress: &mut Progress,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        let buckets = self.sizes.len();
        let full = buckets - 1;
        let mut total = 0;
        let mut runs = std::mem::take(&mut self.runs);
        let mut segments = std::mem::take(&mut self.segments);
        // Pass A: each stored bucket sliced, against the code runs it meets that way.
        for s in 0..buckets {
            let ss = self.sizes[s];
            if ss[STORED] == 0 {
                continue;
            }
            if let Some(visits) = visits
                && !self.in_window(&mut progress.window, visits[s], after)
            {
                continue;
            }
            runs.clear();
            for_subsets(!s & full, |t| {
                let ts = &self.sizes[t];
                if ts[CODES] > 0 && stored_sliced(&ss, ts, buckets) {
                    self.code_runs(t, &mut runs);
                }
            });
            if runs.is_empty() {
                continue;
            }
            segments.clear();
            self.stored_runs(s, &mut segments);
            total += self.slice_and_match(level, stored, &segments, &runs, codes, progress, after)?;
        }
        // Pass B: each code bucket sliced, against the stored runs it meets that way.
        for t in 0..buckets {
            let ts = self.sizes[t];
            if ts[CODES] == 0 {
                continue;
            }
            if let Some(visits) = visits
                && !self.in_window(&mut progress.window, visits[buckets + t], after)
            {
                continue;
            }
            runs.clear();
            for_subsets(!t & full, |s| {
                let ss = &self.sizes[s];
                if ss[STORED] > 0 && !stored_sliced(ss, &ts, buckets) {
                    self.stored_runs(s, &mut runs);
                }
            });
            if runs.is_empty() {
                continue;
            }
            segments.clear();
            self.code_runs(t, &mut segments);
            total += self.slice_and_match(level, codes, &segments, &runs, stored, progress, after)?;
        }
        self.runs = runs;
        self.segments = segments;
        Some(total)
    }

    /// Slices the `segments` of `sliced` (the masks of one bucket) into blocks, word by word, and
    /// matches each against the `runs` of `streamed`, holding the tables of at most
    /// [`Matcher::max_stored`] masks at a time. Returns the count weighed by both sides' weights.
    #[allow(clippy::too_many_arguments)]
    fn slice_and_match(
        &mut self,
        level: Level,
        sliced: &[u64],
        segments: &[Run],
        runs: &[Run],
        streamed: &[u64],
        progress: &mut Progress,
        after: &mut dyn FnMut(Parts) -> ControlFlow<()>,
    ) -> Option<u64> {
        let per_block: u64 = runs.iter().map(|r| (r.end - r.start) as u64).sum();
        let mut words = std::mem::take(&mut self.words);
        words.clear();
        for seg in segments {
            let split = (seg.start..seg.end).step_by(64);
            words.extend(split.map(|w| Run { start: w, end: (w + 64).min(seg.end), weight: seg.weight }));
        }
        let blocks = words.len().div_ceil(WORDS);
        let cap = (self.max_stored.unwrap_or(usize::MAX) / BLOCK).max(1);
        let mut total = 0;
        for start in (0..blocks).step_by(cap) {
            let piece = start..(start + cap).min(blocks);
            let t0 = Instant::now();
            self.fill(level, sliced, &words, piece.clone());
            self.stats.build_s += t0.elapsed().as_secs_f64();
            self.stats.blocks += piece.len() as u64;
            self.stats.table_bytes = self.stats.table_bytes.max(std::mem::size_of_val(&self.tables[..]) as u64);
            for block in 0..piece.len() {
                let t0 = Instant::now();
                let (sum, ones) = count_runs(level, self, block, runs, streamed);
                self.stats.match_s += t0.elapsed().as_secs_f64();
                self.stats.block_codes += u128::from(per_block);
                self.stats.disjoint += u128::from(ones);
                total += sum;
                progress.done += per_block;
                while progress.reported < progress.parts && progress.crossed() {
                    progress.reported += 1;
                    if after(progress.report()).is_break() {
                        self.words = words;
                        return None;
                    }
                }
            }
        }
        self.words = words;
        Some(total)
    }

    /// Returns true if and only if the next task of `visits` (block, mask) visits is matched
    /// when sampling ([`Matcher::sampling`]): it belongs to the open window of consecutive tasks
    /// (in the order a count takes them) until that holds [`PIECE_VISITS`] or more
    /// ([`Matcher::piece_visits`]), then to a
    /// new one, which is matched with the sample's probability, drawn by a hash of (seed,
    /// window number) (splitmix64), independently of the others. A window matched is reported
    /// to `after` as a piece ([`Parts::piece`]) as it begins and as it ends.
    fn in_window(&self, window: &mut Window, visits: u64, after: &mut dyn FnMut(Parts) -> ControlFlow<()>) -> bool {
        let Some(sampling) = self.sampling else { return true };
        if window.left == 0 {
            let on = uniform(sampling.seed, window.number) < sampling.windows();
            if on != window.on {
                mark(after, if on { 1.0 / (sampling.windows() * sampling.codes) } else { 1.0 / sampling.codes });
            }
            (window.on, window.left, window.number) = (on, self.piece_visits.unwrap_or(PIECE_VISITS), window.number + 1);
        }
        window.left = window.left.saturating_sub(visits.max(1));
        window.on
    }

    /// Appends the code runs of bucket `t` (one per weight slot of weight other than 0).
    fn code_runs(&self, t: usize, runs: &mut Vec<Run>) {
        for slot in 0..CLASSES {
            let (start, end) = (self.query_starts[t * CLASSES + slot], self.query_starts[t * CLASSES + slot + 1]);
            let weight = self.run_weights[slot];
            if weight != 0 && end > start {
                runs.push(Run { start, end, weight });
            }
        }
    }

    /// Appends the stored runs of bucket `s` (one per class of weight other than 0).
    fn stored_runs(&self, s: usize, runs: &mut Vec<Run>) {
        for class in 0..self.class_weights.len() {
            let range = self.class_range(class, s);
            let weight = self.class_weights[class];
            if weight != 0 && !range.is_empty() {
                runs.push(Run { start: range.start, end: range.end, weight });
            }
        }
    }

    /// Returns where stored class `class`'s masks of bucket `b` lie in the stored side.
    fn class_range(&self, class: usize, b: usize) -> std::ops::Range<usize> {
        let first = class * (self.sizes.len() + 1);
        self.class_starts[first + b]..self.class_starts[first + b + 1]
    }

    /// Fills `sizes` from the sorted sides: per bucket the stored masks and blocks, the codes and
    /// code blocks, of weight other than 0 (a class's or slot's masks make their own blocks).
    fn bucket_sizes(&mut self) {
        let buckets = 1usize << self.cut.count_ones();
        let mut sizes = std::mem::take(&mut self.sizes);
        sizes.clear();
        sizes.resize(buckets, [0; 4]);
        for (b, size) in sizes.iter_mut().enumerate() {
            let stored = (0..self.class_weights.len()).filter(|&c| self.class_weights[c] != 0).map(|c| {
                let first = c * (buckets + 1);
                self.class_starts[first + b + 1] - self.class_starts[first + b]
            });
            let codes = (0..CLASSES).filter(|&slot| self.run_weights[slot] != 0).map(|slot| {
                self.query_starts[b * CLASSES + slot + 1] - self.query_starts[b * CLASSES + slot]
            });
            size[STORED] = stored.clone().sum::<usize>() as u64;
            size[STORED_BLOCKS] = blocks_of(stored);
            size[CODES] = codes.clone().sum::<usize>() as u64;
            size[CODE_BLOCKS] = blocks_of(codes);
        }
        self.sizes = sizes;
    }

    /// Returns the work of both passes from the buckets' sizes; appends each task's visits to
    /// `tasks` when given (pass A's by stored bucket, then pass B's by code bucket: 2 · 2^k).
    fn work(&self, mut tasks: Option<&mut Vec<u64>>) -> Work {
        let buckets = self.sizes.len();
        let full = buckets - 1;
        let mut work = Work::default();
        let first = tasks.as_ref().map_or(0, |t| t.len());
        if let Some(tasks) = tasks.as_mut() {
            tasks.resize(first + 2 * buckets, 0);
        }
        // Which buckets are sliced in each pass.
        let mut sliced = vec![[false; 2]; buckets];
        for s in 0..buckets {
            let ss = &self.sizes[s];
            if ss[STORED] == 0 {
                continue;
            }
            for_subsets(!s & full, |t| {
                let ts = &self.sizes[t];
                if ts[CODES] == 0 {
                    return;
                }
                work.pairs += 1;
                let (task, visits) = if stored_sliced(ss, ts, buckets) {
                    sliced[s][0] = true;
                    (s, ss[STORED_BLOCKS] * ts[CODES])
                } else {
                    sliced[t][1] = true;
                    (buckets + t, ts[CODE_BLOCKS] * ss[STORED])
                };
                work.visits += visits;
                if let Some(tasks) = tasks.as_mut() {
                    tasks[first + task] += visits;
                }
            });
        }
        work.blocks = (0..buckets)
            .map(|b| {
                let s = &self.sizes[b];
                u64::from(sliced[b][0]) * s[STORED_BLOCKS] + u64::from(sliced[b][1]) * s[CODE_BLOCKS]
            })
            .sum();
        work
    }
}

/// Reports to `after` that the time from now on weighs `weight` ([`Parts::piece`]).
fn mark(after: &mut dyn FnMut(Parts) -> ControlFlow<()>, weight: f64) {
    let _ = after(Parts { done: 0, total: 0, share: 0.0, piece: Some(weight) });
}

/// The window of consecutive tasks a sampled count is in ([`Matcher::in_window`]).
#[derive(Clone, Copy, Debug, Default)]
struct Window {
    /// The windows begun so far.
    number: u64,
    /// The visits the open window still takes (0: the next task opens a new one).
    left: u64,
    /// Whether the open window is matched.
    on: bool,
}

impl Window {
    /// Ends the open window (at the end of a count, or where a count stops) and reports to
    /// `after` that the time from now on weighs 1, when `sampling`.
    fn close(&mut self, sampling: Option<Sampling>, after: &mut dyn FnMut(Parts) -> ControlFlow<()>) {
        self.on = false;
        if sampling.is_some() {
            mark(after, 1.0);
        }
    }
}

/// The progress of the passes: `done` of `total` visits, reported in `parts` parts.
#[derive(Clone, Copy, Debug)]
struct Progress {
    parts: usize,
    total: u64,
    done: u64,
    /// Parts reported so far.
    reported: usize,
    /// The window of tasks when sampling.
    window: Window,
}

impl Progress {
    /// True if and only if the visits done have reached the end of the next part.
    fn crossed(&self) -> bool {
        let next = self.reported as u128 + 1;
        u128::from(self.done) * self.parts as u128 >= next * u128::from(self.total)
    }

    /// The report of the parts so far.
    fn report(&self) -> Parts {
        let share = if self.total == 0 { 0.0 } else { (self.done as f64 / self.total as f64).min(1.0) };
        Parts { done: self.reported, total: self.parts, share, piece: None }
    }

    /// The report of every part done.
    fn parts_done(&self) -> Parts {
        let share = if self.reported == self.parts { 1.0 } else { self.report().share };
        Parts { done: self.reported, total: self.parts, share, piece: None }
    }
}
