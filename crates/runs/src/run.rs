//! Long runs of one board: counted so that nothing is lost (a checkpoint journal to resume
//! from, a stop between subproblems), so that the pieces can be audited (a breakdown of every
//! subproblem's counts) or spread over machines (one shard of a partition, for
//! [`crate::merge`]). What `nqueens count N --checkpoint/--shard/--breakdown` runs.
//!
//! A [`LongRun`] describes the run; [`LongRun::open`] builds its plan (a journal's own split
//! depth wins over the thread-dependent default, so that resuming on another machine keeps the
//! plan), selects the shard's subproblems and opens the journal, reading what it already holds
//! ([`Session`]); [`Session::run`] counts the rest on one [`Counter`]'s pool, appending each
//! solved subproblem to the journal, and returns the whole count, the shard result, and the
//! breakdown ([`Finished`]). Nothing is printed and no flag is named: the caller words the
//! notices ([`Session::torn`], [`Session::recorded`]) and writes the results.
//!
//! The formats are those of [`crate::journal`] (the journal) and [`crate::merge`] (the shard
//! result); a journal or shard result records [`VERSION`].

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use crate::breakdown::{Breakdown, Row};
use crate::journal::{self, Entry, Header, Journal, JournalError, Repaired};
use crate::merge::{Covers, SHARD_FORMAT, SHARD_FORMAT_VERSION, ShardResult, check_total, round_micros};
use crate::shard::{ShardId, shard_spec, try_assign_one};
use nqueens::{
    Algorithm, Count, CountOptions, Counter, Error,
    plan::{Job, Plan, PlanSpec, Tally},
};

/// The program version every journal and shard result records (`CARGO_PKG_VERSION`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A long run of one board: which part to count, the journal to keep, whether to keep each
/// subproblem's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LongRun {
    /// The board side.
    pub n: u32,
    /// The shard to count (its subproblems of the shard plan, [`crate::shard::assign`]), or
    /// `None` for the whole board.
    pub shard: Option<ShardId>,
    /// The checkpoint journal to resume from (if it exists) and to append every solved
    /// subproblem to.
    pub checkpoint: Option<PathBuf>,
    /// Whether to keep each subproblem's counts, nodes included, for a [`Breakdown`].
    pub breakdown: bool,
}

/// Why a long run could not start or finish.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The plan or the counter could not be made (a board too large, a join table that does
    /// not fit, threads that cannot start).
    #[error("{0}")]
    Library(Error),
    /// The journal cannot be used: unreadable, corrupt, in use, or of another run. The file was
    /// left untouched.
    #[error("{0}")]
    Journal(JournalError),
    /// A journal line could not be written (a full disk): the run stopped; the journal keeps
    /// every line written before.
    #[error("writing checkpoint {}; the journal keeps what was written", .path.display())]
    Append {
        /// The journal's path.
        path: PathBuf,
        /// The write's error.
        #[source]
        source: io::Error,
    },
    /// The journal could not be fsync'd.
    #[error("syncing checkpoint {}", .path.display())]
    Sync {
        /// The journal's path.
        path: PathBuf,
        /// The fsync's error.
        #[source]
        source: io::Error,
    },
    /// The journal's counts and this session's add up beyond 128 bits.
    #[error(
        "checkpoint {}: its counts and this session's add up beyond 128 bits: the journal was forged or damaged; the file was left untouched",
        .path.display()
    )]
    Overflow {
        /// The journal's path.
        path: PathBuf,
    },
    /// The whole count breaks an invariant ([`check_total`]): a forged or damaged journal.
    #[error("{}", inconsistent(.journal.as_deref(), .reason, *.recorded, *.appended))]
    Inconsistent {
        /// The journal the count was resumed from, if any.
        journal: Option<PathBuf>,
        /// The broken invariant, with its numbers.
        reason: String,
        /// The lines the journal held before this run.
        recorded: usize,
        /// The lines this run appended (counted here).
        appended: usize,
    },
}

/// The message of [`RunError::Inconsistent`]: which lines are to blame, and whether the journal
/// changed (every line passed the checks one line allows, so it is one of those the journal
/// held before this run; this run's were counted here).
fn inconsistent(journal: Option<&Path>, reason: &str, recorded: usize, appended: usize) -> String {
    match journal {
        Some(path) if appended == 0 => format!(
            "checkpoint {}: the count is inconsistent: {reason}; a line of the journal was forged or damaged (each passes every check one line allows); the file was left untouched",
            journal::shown(path)
        ),
        Some(path) => format!(
            "checkpoint {}: the count is inconsistent: {reason}; one of the {recorded} lines it held before this run (lines 2 to {}) was forged or damaged (each passes every check one line allows); this run appended {appended} lines, counted here",
            journal::shown(path),
            recorded + 1
        ),
        None => format!("the count is inconsistent: {reason}"),
    }
}

impl From<Error> for RunError {
    fn from(e: Error) -> RunError {
        RunError::Library(e)
    }
}

/// A torn last line found in the journal (a write cut short), dropped: its subproblem is
/// counted again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torn {
    /// The torn line's length in bytes.
    pub bytes: usize,
    /// The bytes an unprivileged process may still write where the journal is
    /// ([`journal::free_bytes`]), if the system tells.
    pub free_bytes: Option<u64>,
}

impl Torn {
    /// Returns true if and only if the line looks cut short by a full disk (fewer than
    /// [`journal::FULL_BELOW`] bytes free) rather than by a crash.
    pub fn full_disk(&self) -> bool {
        self.free_bytes.is_some_and(|free| free < journal::FULL_BELOW)
    }
}

impl fmt::Display for Torn {
    /// "dropped a torn last line (N bytes, CAUSE); its subproblem will be counted again".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cause = match self.free_bytes {
            Some(free) if self.full_disk() => {
                format!("a write cut short by a full disk: {free} bytes are free there")
            }
            _ => "a write cut short by a crash, a kill or a power loss".to_string(),
        };
        write!(
            f,
            "dropped a torn last line ({} bytes, {cause}); its subproblem will be counted again",
            self.bytes
        )
    }
}

impl LongRun {
    /// Opens the run with `options` (threads, algorithm, split depth, d4 search, progress;
    /// `stats` is ignored: nodes are counted if and only if `self.breakdown`): resolves the
    /// algorithm for n, refuses a join board whose table and buffers do not fit, builds the plan
    /// (the shard plan for a shard; else the journal's split depth, when an existing journal of
    /// this run records one, unless `options.split_depth` is given), selects the subproblems and
    /// opens the journal (created with its header if new), reading the subproblems it holds.
    ///
    /// The wall-clock time of the run starts here.
    ///
    /// # Errors
    /// [`RunError::Library`] for a plan that cannot be built; [`RunError::Journal`] for a
    /// journal that cannot be used (its file left untouched).
    pub fn open(&self, options: &CountOptions) -> Result<Session, RunError> {
        let start = Instant::now();
        let Prepared { algorithm, plan, ids, member } = self.prepare(options)?;
        // Only the journal's entries, keyed by id: a shard of a huge plan holds few of its ids.
        let mut solved: HashMap<usize, Entry> = HashMap::new();
        let mut torn = None;
        let mut spent = 0;
        let journal = match &self.checkpoint {
            None => None,
            Some(path) => {
                let header = self.header(algorithm, plan.as_ref());
                // Every line is checked against its subproblem before anything is appended.
                let impossible = |e: &Entry| plan.impossible(e.id, &e.tally);
                let (journal, resumed) =
                    Journal::open(path, &header, |id| member.get(id).copied().unwrap_or(false), impossible)
                        .map_err(RunError::Journal)?;
                torn = resumed.torn.map(|t| Torn { bytes: t.len(), free_bytes: journal::free_bytes(path) });
                spent = journal::spent_micros(&resumed.entries);
                for e in resumed.entries {
                    solved.insert(e.id, e);
                }
                Some(journal)
            }
        };
        let to_run: Vec<usize> = ids.iter().copied().filter(|i| !solved.contains_key(i)).collect();
        let options = CountOptions { algorithm, stats: self.breakdown, ..options.clone() };
        Ok(Session { run: self.clone(), options, start, spent, plan, ids, journal, solved, to_run, torn })
    }

    /// Resolves the algorithm, refuses a join that does not fit, builds the plan and selects
    /// the run's subproblems (see [`LongRun::open`]).
    fn prepare(&self, options: &CountOptions) -> Result<Prepared, RunError> {
        let n = self.n;
        // The journal and the shard result record the concrete algorithm (`auto` resolves per n).
        let threads = options.threads;
        let algorithm = options.algorithm.resolve_for(n, threads);
        // Refuse a join board whose table and per-thread buffers would not fit before building it.
        // (`Algorithm::check_memory`, not the join's internals; a device run's 0 CPU threads
        // still has the thread that drives the join's plan.)
        if algorithm == Algorithm::Join {
            algorithm.check_memory(n, threads.max(1))?;
        }
        let observer = options.progress.observer();
        if let Some(o) = observer {
            o.planning(n);
        }
        let (d4_search, level) = (options.d4_search, options.level);
        let plan: Box<dyn Plan> = match self.shard {
            Some(shard) => {
                let base = shard_spec(algorithm, n, shard.count);
                PlanSpec { split_depth: options.split_depth, d4_search, level, ..base }.build()?
            }
            None => {
                // Resuming on another machine must not change the plan: an existing journal's
                // split depth wins over the thread-dependent default.
                let depth = options
                    .split_depth
                    .or_else(|| self.checkpoint.as_deref().and_then(|p| journal_depth(p, n, algorithm)));
                PlanSpec { algorithm, n, split_depth: depth, threads, d4_search, level }.build()?
            }
        };
        if let Some(o) = observer {
            o.planned();
        }
        let ids: Vec<usize> = match self.shard {
            Some(shard) => try_assign_one(plan.as_ref(), shard.count, shard.index)?,
            None => (0..plan.len()).collect(),
        };
        let mut member = vec![self.shard.is_none(); plan.len()];
        for &i in &ids {
            member[i] = true;
        }
        Ok(Prepared { algorithm, plan, ids, member })
    }

    /// Returns the journal header of this run with `algorithm` and `plan`.
    fn header(&self, algorithm: Algorithm, plan: &dyn Plan) -> Header {
        Header {
            n: self.n,
            algorithm: algorithm.name().to_string(),
            split_depth: plan.split_depth(),
            subproblems: plan.len(),
            shard: self.shard,
            version: VERSION.to_string(),
        }
    }

    /// Reads this run's journal leniently ([`journal::repair`]) and returns the lines to keep:
    /// those that pass every check one line allows. When they cover every subproblem of a
    /// whole run but their sum still breaks an invariant ([`check_total`]: a line that passes
    /// every cheap check is wrong), every kept subproblem is counted again here with
    /// `options` (as long as the run itself took) and the lines that disagree are dropped too.
    /// Nothing is written: [`journal::Repaired::text`] is the cleaned journal.
    ///
    /// # Errors
    /// [`RunError::Library`] for a plan that cannot be built; [`RunError::Journal`] for a
    /// journal without a readable header or of another run.
    pub fn repair(&self, options: &CountOptions) -> Result<Repair, RunError> {
        let Some(path) = self.checkpoint.as_deref() else {
            return Err(RunError::Journal(JournalError::Io {
                path: PathBuf::new(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "no journal to repair"),
            }));
        };
        let Prepared { algorithm, plan, ids, member } = self.prepare(options)?;
        let header = self.header(algorithm, plan.as_ref());
        let impossible = |e: &Entry| plan.impossible(e.id, &e.tally);
        let mut repaired =
            journal::repair(path, &header, |id| member.get(id).copied().unwrap_or(false), impossible)
                .map_err(RunError::Journal)?;
        let (mut recounted, mut inconsistency) = (None, None);
        if self.shard.is_none() && repaired.kept.len() == ids.len() {
            // repair() keeps no line that would take the sum beyond 128 bits.
            let total = repaired.kept.iter().fold(Tally::default(), |t, (_, e)| t + e.tally);
            if let Err(reason) = check_total(algorithm, self.n, &total, plan.fundamental(&total)) {
                let counter = Counter::new(&CountOptions { algorithm, stats: false, ..options.clone() })?;
                let mut only: Vec<usize> = repaired.kept.iter().map(|(_, e)| e.id).collect();
                only.sort_unstable();
                let again: HashMap<usize, Tally> =
                    crate::audit::recount(&counter, plan.as_ref(), &only).into_iter().collect();
                let classified = algorithm.classifies();
                let (kept, wrong): (Vec<_>, Vec<_>) =
                    std::mem::take(&mut repaired.kept).into_iter().partition(|(_, e)| {
                        again
                            .get(&e.id)
                            .is_some_and(|t| (t.solutions, t.classes) == (e.tally.solutions, e.tally.classes))
                    });
                repaired.kept = kept;
                for (line, e) in wrong {
                    let got = again.get(&e.id).copied().unwrap_or_default();
                    repaired.dropped.push((
                        line,
                        format!(
                            "subproblem {} recounts to {} but the line says {}",
                            e.id,
                            crate::audit::counts(&got, classified),
                            crate::audit::counts(&e.tally, classified)
                        ),
                    ));
                }
                repaired.dropped.sort_unstable_by_key(|d| d.0);
                recounted = Some(only.len());
                inconsistency = Some(reason);
            }
        }
        let lines = repaired.kept.len() + repaired.dropped.len();
        Ok(Repair { lines, repaired, recounted, inconsistency })
    }
}

/// What [`LongRun::prepare`] gives: the concrete algorithm, the plan, the run's subproblems
/// (increasing) and which of the plan's ids are among them.
struct Prepared {
    algorithm: Algorithm,
    plan: Box<dyn Plan>,
    ids: Vec<usize>,
    member: Vec<bool>,
}

/// What [`LongRun::repair`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The journal's entry lines read (kept and dropped).
    pub lines: usize,
    /// The header, the lines kept and the lines dropped with why.
    pub repaired: Repaired,
    /// The subproblems counted again, when the kept lines were complete but inconsistent.
    pub recounted: Option<usize>,
    /// The invariant the kept lines broke before the recount, if they did.
    pub inconsistency: Option<String>,
}

/// Returns the algorithm recorded in the journal at `path` for the run of the `n`×`n` board
/// (`shard`, or the whole board), if the file exists and has a valid header of that run: a
/// journal's subproblems are those of its algorithm, so resuming with `auto` takes it rather
/// than what `auto` would pick here (free memory decides that, and changes between runs).
pub fn journal_algorithm(path: &Path, n: u32, shard: Option<ShardId>) -> Option<Algorithm> {
    let header = journal::read_header(path).ok()?;
    if header.n != n || header.shard != shard {
        return None;
    }
    header.algorithm.parse().ok().filter(|&a| a != Algorithm::Auto)
}

/// Returns the split depth recorded in the journal at `path`, if it exists, has a valid header
/// and is of the same run otherwise (the `n`×`n` board, `algorithm`, the whole board). A journal
/// of another run is reported when it is opened, naming the real difference (another
/// algorithm's depth could not even build this run's plan: the join's depth 0 is no d4
/// depth).
fn journal_depth(path: &Path, n: u32, algorithm: Algorithm) -> Option<u32> {
    let header = journal::read_header(path).ok()?;
    (header.n == n && header.algorithm == algorithm.name() && header.shard.is_none())
        .then_some(header.split_depth)
}

/// An opened long run: its plan, its subproblems, the journal and what it holds.
pub struct Session {
    run: LongRun,
    /// The options with the algorithm resolved and `stats` as the breakdown needs.
    options: CountOptions,
    start: Instant,
    /// The microseconds the journal's earlier sessions took, up to the last line each wrote
    /// ([`journal::spent_micros`]; 0 for a fresh run).
    spent: u64,
    plan: Box<dyn Plan>,
    /// The subproblems of this run (the shard's, or every one), increasing.
    ids: Vec<usize>,
    journal: Option<Journal>,
    /// The journal's entries by id.
    solved: HashMap<usize, Entry>,
    /// The subproblems of `ids` the journal lacks, increasing.
    to_run: Vec<usize>,
    torn: Option<Torn>,
}

impl Session {
    /// Returns the run's plan (the shard plan for a shard).
    pub fn plan(&self) -> &dyn Plan {
        self.plan.as_ref()
    }

    /// Returns the concrete algorithm that counts.
    pub fn algorithm(&self) -> Algorithm {
        self.options.algorithm
    }

    /// Returns the number of subproblems this run counts (the shard's, or the whole plan's).
    pub fn subproblems(&self) -> usize {
        self.ids.len()
    }

    /// Returns the number of them the journal already records.
    pub fn recorded(&self) -> usize {
        self.ids.len() - self.to_run.len()
    }

    /// Returns the torn last line dropped from the journal, if there was one.
    pub fn torn(&self) -> Option<&Torn> {
        self.torn.as_ref()
    }

    /// Counts the subproblems the journal lacks on a [`Counter`] of this run's options,
    /// appending each to the journal as soon as it is solved (fsync'd every
    /// [`journal::SYNC_EVERY`] and at the end). No new subproblem starts once `stop` is set
    /// (by the caller, say on a signal; by the run itself when a journal line cannot be
    /// written); those already running finish and are recorded.
    ///
    /// # Errors
    /// [`RunError::Library`] if the counter cannot start; [`RunError::Sync`] or
    /// [`RunError::Append`] if the journal cannot be written; [`RunError::Overflow`] if the
    /// journal's counts and this session's add up beyond 128 bits.
    pub fn run(self, stop: &AtomicBool) -> Result<Finished, RunError> {
        let stats = self.run.breakdown;
        let keep = stats || self.run.shard.is_some();
        let counter = Counter::new(&self.options)?;
        let fresh: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
        let write_error: Mutex<Option<io::Error>> = Mutex::new(None);
        let journal = self.journal.as_ref();
        let on_solved = |id: usize, tally: &Tally| {
            let micros = self.spent.saturating_add(self.start.elapsed().as_micros() as u64);
            let entry = Entry { id, tally: *tally, nodes_counted: stats, micros: Some(micros) };
            if let Some(j) = journal
                && let Err(e) = j.append(&entry)
            {
                write_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                stop.store(true, Ordering::Relaxed);
            }
            // A shard records every subproblem's counts too (its subtotals, for `merge --audit`).
            if keep {
                fresh.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
            }
        };
        let job = Job { only: Some(&self.to_run), on_solved: Some(&on_solved), stop: Some(stop) };
        let work = || counter.run(self.plan.as_ref(), job);
        let outcome = match journal {
            Some(j) => {
                let (outcome, synced) = j.run_syncing(work);
                synced.map_err(|source| RunError::Sync { path: j.path().to_path_buf(), source })?;
                outcome
            }
            None => work(),
        };
        let journal_path = || journal.map(|j| j.path().to_path_buf()).unwrap_or_default();
        if let Some(source) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(RunError::Append { path: journal_path(), source });
        }
        // A device that failed stopped the run: what was solved is journaled, the error told.
        if let Some(e) = outcome.failure {
            return Err(RunError::Library(e));
        }
        if outcome.stopped {
            return Ok(Finished::Stopped {
                recorded: self.recorded() + outcome.solved,
                subproblems: self.ids.len(),
            });
        }

        // Complete: the journal's entries plus this session's.
        let mut total = outcome.tally;
        let mut nodes_counted = stats;
        for e in self.solved.values() {
            total = total.checked_add(&e.tally).ok_or_else(|| RunError::Overflow { path: journal_path() })?;
            nodes_counted &= e.nodes_counted;
        }
        if !nodes_counted {
            total.nodes = 0;
        }
        // Every session's time: the earlier ones' (as the journal records it) and this one's.
        let seconds = round_micros(self.spent as f64 / 1e6 + self.start.elapsed().as_secs_f64());
        let recorded = self.solved.len();
        let appended = if self.journal.is_some() { outcome.solved } else { 0 };
        let mut solved = self.solved;
        for e in fresh.into_inner().unwrap_or_else(|e| e.into_inner()) {
            solved.insert(e.id, e);
        }
        // Every subproblem of the run is solved: in the journal or in this session.
        let subtotals = self.run.shard.and_then(|_| {
            let classifies = self.options.algorithm.classifies();
            crate::subtotals::encode(
                classifies,
                self.ids.iter().filter_map(|id| solved.get(id).map(|e| &e.tally)),
            )
        });
        let breakdown = stats.then(|| {
            // Every subproblem of the run is solved: in the journal or in this session.
            let rows: Vec<Row> = self
                .ids
                .iter()
                .filter_map(|id| solved.get(id))
                .map(|e| Row {
                    id: e.id,
                    prefix: self.plan.prefix(e.id).map(|p| p.cols().to_vec()),
                    tally: e.tally,
                    nodes_counted: e.nodes_counted,
                })
                .collect();
            debug_assert_eq!(rows.len(), self.ids.len());
            Breakdown { classifies: self.options.algorithm.classifies(), rows }
        });
        Ok(Finished::Complete(Box::new(Done {
            recorded,
            appended,
            breakdown,
            n: self.run.n,
            shard: self.run.shard,
            journal: self.run.checkpoint,
            algorithm: self.options.algorithm,
            plan: self.plan,
            ids: self.ids,
            total,
            nodes_counted,
            seconds,
            threads: self.options.threads,
            devices: nqueens::plan::device_list(&self.options.devices, self.options.threads),
            subtotals,
        })))
    }
}

/// How a long run ended.
#[derive(Debug)]
pub enum Finished {
    /// Stopped before every subproblem was solved: what is solved is in the journal.
    Stopped {
        /// The subproblems of the run the journal records now.
        recorded: usize,
        /// The subproblems of the run.
        subproblems: usize,
    },
    /// Every subproblem solved (boxed: a [`Done`] holds the plan and the breakdown).
    Complete(Box<Done>),
}

/// A long run with every subproblem solved: its breakdown, and its result
/// ([`Done::result`]).
pub struct Done {
    /// Each subproblem's counts, when the run kept them ([`LongRun::breakdown`]). Built before
    /// the result is checked, so that a count that does not add up can still be audited row by
    /// row.
    pub breakdown: Option<Breakdown>,
    n: u32,
    shard: Option<ShardId>,
    journal: Option<PathBuf>,
    algorithm: Algorithm,
    plan: Box<dyn Plan>,
    ids: Vec<usize>,
    total: Tally,
    nodes_counted: bool,
    seconds: f64,
    threads: usize,
    /// What counted: device names and `cpu` ([`nqueens::Count::devices`]).
    devices: Vec<String>,
    /// The shard's subtotals ([`crate::subtotals::encode`]); `None` for a whole run or a shard
    /// too large to carry them.
    subtotals: Option<String>,
    /// The journal's lines from before this session.
    recorded: usize,
    /// The lines this session appended to the journal.
    appended: usize,
}

impl fmt::Debug for Done {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Done")
            .field("n", &self.n)
            .field("shard", &self.shard)
            .field("algorithm", &self.algorithm)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

/// What a complete long run counted.
#[derive(Clone, Debug, PartialEq)]
pub enum Counted {
    /// The count of the whole board, checked ([`check_total`]).
    Whole(Count),
    /// One shard's result, with its checksum, for [`crate::merge::merge`].
    Shard(ShardResult),
}

impl Done {
    /// Returns the result: the count of the whole board (its invariants checked, its
    /// fundamental solutions those of the plan), or the shard result with its checksum. The
    /// seconds are the wall-clock time of every session of the run (this one's, and those the
    /// journal records up to their last line), rounded to microseconds; nodes are given if
    /// and only if every subproblem's were counted.
    ///
    /// # Errors
    /// [`RunError::Inconsistent`] if the whole count breaks an invariant (only a forged or
    /// damaged journal can make it so).
    pub fn result(&self) -> Result<Counted, RunError> {
        let (n, total, algorithm) = (self.n, &self.total, self.algorithm);
        let nodes = self.nodes_counted.then_some(total.nodes);
        Ok(match self.shard {
            Some(shard) => {
                let mut result = ShardResult {
                    format: SHARD_FORMAT.into(),
                    format_version: SHARD_FORMAT_VERSION,
                    n,
                    algorithm: algorithm.name().into(),
                    split_depth: self.plan.split_depth(),
                    subproblems: self.plan.len(),
                    shard: shard.index,
                    shards: shard.count,
                    covers: Some(Covers::of(&self.ids)),
                    ids: None,
                    solutions: total.solutions,
                    classes: total.classes,
                    nodes,
                    seconds: self.seconds,
                    threads: self.threads,
                    devices: Some(self.devices.clone()),
                    version: VERSION.into(),
                    subtotals: self.subtotals.clone(),
                    host: crate::merge::host_name(),
                    checksum: String::new(),
                };
                result.checksum = result.compute_checksum();
                Counted::Shard(result)
            }
            None => {
                // The invariants of a whole count: a resumed journal's lines must add up.
                let plan = self.plan.as_ref();
                let classes =
                    check_total(algorithm, n, total, plan.fundamental(total)).map_err(|reason| {
                        RunError::Inconsistent {
                            journal: self.journal.clone(),
                            reason,
                            recorded: self.recorded,
                            appended: self.appended,
                        }
                    })?;
                let mut count = Count::of_plan(plan, total, algorithm, self.seconds, self.threads, nodes);
                count.devices = self.devices.clone();
                count.unique = classes.map(|c| c.total());
                count.classes = classes;
                Counted::Whole(count)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::oeis;

    fn options(algorithm: Algorithm, threads: usize) -> CountOptions {
        CountOptions { threads, algorithm, ..CountOptions::default() }
    }

    /// Runs `run` to its end and returns its result and breakdown.
    fn finish(run: &LongRun, options: &CountOptions) -> (Counted, Option<Breakdown>) {
        match run.open(options).unwrap().run(&AtomicBool::new(false)).unwrap() {
            Finished::Complete(done) => (done.result().unwrap(), done.breakdown.clone()),
            Finished::Stopped { .. } => panic!("nothing stopped the run"),
        }
    }

    #[test]
    fn a_whole_run_is_the_count_and_its_breakdown_adds_up() {
        for (algorithm, threads) in [(Algorithm::Mirror, 1), (Algorithm::D4, 3), (Algorithm::Join, 2)] {
            let run = LongRun { n: 10, breakdown: true, ..LongRun::default() };
            let (counted, breakdown) = finish(&run, &options(algorithm, threads));
            let Counted::Whole(count) = counted else { panic!("a whole run gives a count") };
            assert_eq!(count.solutions, oeis::A000170.get(10).unwrap(), "{algorithm}");
            let unique = (algorithm != Algorithm::Mirror).then(|| oeis::A002562.get(10).unwrap());
            assert_eq!(count.unique, unique, "{algorithm}");
            let rows = breakdown.unwrap().rows;
            assert_eq!(rows.len(), count.subproblems, "{algorithm}");
            assert!(rows.windows(2).all(|w| w[0].id < w[1].id), "{algorithm}: rows in id order");
            assert_eq!(rows.iter().map(|r| r.tally.solutions).sum::<u128>(), count.solutions, "{algorithm}");
            assert!(rows.iter().all(|r| r.nodes_counted), "{algorithm}");
            assert_eq!(
                rows.iter().all(|r| r.prefix.is_some()),
                algorithm == Algorithm::Mirror,
                "{algorithm}"
            );
        }
    }

    #[test]
    fn shards_merge_to_the_count() {
        for algorithm in [Algorithm::Mirror, Algorithm::D4, Algorithm::Join] {
            let k = 3;
            let results: Vec<(String, ShardResult)> = (0..k)
                .map(|index| {
                    let run =
                        LongRun { n: 11, shard: Some(ShardId { index, count: k }), ..LongRun::default() };
                    match finish(&run, &options(algorithm, 2)).0 {
                        Counted::Shard(r) => (format!("s{index}"), r),
                        Counted::Whole(_) => panic!("a shard gives a shard result"),
                    }
                })
                .collect();
            let merged = crate::merge::merge(&results).unwrap().count();
            assert_eq!(merged.solutions, oeis::A000170.get(11).unwrap(), "{algorithm}");
        }
    }

    #[test]
    fn a_stopped_or_cut_journal_resumes_to_the_exact_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let run = LongRun { n: 11, checkpoint: Some(path.clone()), ..LongRun::default() };
        let opts = options(Algorithm::D4, 2);
        // Stopped before the first subproblem: nothing recorded, the journal holds its header.
        match run.open(&opts).unwrap().run(&AtomicBool::new(true)).unwrap() {
            Finished::Stopped { recorded, subproblems } => assert_eq!((recorded, subproblems > 3), (0, true)),
            Finished::Complete(_) => panic!("a stop flag set before the start stops the run"),
        }
        let (Counted::Whole(first), _) = finish(&run, &opts) else { panic!("a whole count") };
        assert_eq!(first.solutions, 2680);
        // The header and three lines kept: the run resumes with the three and counts the rest,
        // on another thread count.
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: String = text.split_inclusive('\n').take(4).collect();
        std::fs::write(&path, kept).unwrap();
        let session = run.open(&options(Algorithm::D4, 3)).unwrap();
        assert_eq!(session.recorded(), 3);
        assert_eq!(session.torn(), None);
        let Finished::Complete(done) = session.run(&AtomicBool::new(false)).unwrap() else {
            panic!("nothing stopped the run")
        };
        let Counted::Whole(resumed) = done.result().unwrap() else { panic!("a whole count") };
        assert_eq!(
            (resumed.solutions, resumed.unique, resumed.classes),
            (first.solutions, first.unique, first.classes)
        );
        // Another run's journal is refused, untouched.
        let other = LongRun { n: 12, ..run.clone() };
        assert!(matches!(other.open(&opts), Err(RunError::Journal(JournalError::Mismatch { .. }))));
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1 + resumed.subproblems);
    }

    #[test]
    fn a_torn_line_says_what_cut_it() {
        let crash = Torn { bytes: 10, free_bytes: Some(1 << 30) };
        assert_eq!(
            crash.to_string(),
            "dropped a torn last line (10 bytes, a write cut short by a crash, a kill or a power loss); its subproblem will be counted again"
        );
        let full = Torn { bytes: 7, free_bytes: Some(4096) };
        assert!(full.full_disk());
        assert!(full.to_string().contains("a write cut short by a full disk: 4096 bytes are free there"));
        assert!(!Torn { bytes: 7, free_bytes: None }.full_disk());
    }
}
