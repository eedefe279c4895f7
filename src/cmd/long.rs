//! `nqueens count N` with `--checkpoint`, `--shard` or `--breakdown`: one board size, counted
//! so that nothing is lost (a journal to resume from, a graceful stop on signals) and so that
//! the pieces can be audited (per-subproblem breakdown) or spread over machines (shards).

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, anyhow};
use nqueens::Job;
use nqueens::journal::{self, Entry, Header, Journal};
use nqueens::merge::{Covers, SHARD_FORMAT, SHARD_FORMAT_VERSION, ShardResult};
use nqueens::output::Format;
use nqueens::shard::{assign, shard_plan_with};
use nqueens::{Algorithm, Count, CountOptions, Counter, Plan, Tally, make_plan_with};

use super::UsageError;
use crate::cli::CountArgs;
use crate::signals::{self, Stop};

/// The program version every journal and shard result records.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Counts one board size as `args` asks: resumes from and appends to the checkpoint journal,
/// counts one shard, writes the breakdown; stops on a signal.
///
/// # Errors
/// [`UsageError`] for a range of sizes, `--verify` with `--shard`, `--stats`, or a checkpoint
/// that cannot be used (unreadable, corrupt, another run's); a failed write or count otherwise.
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let n = single_size(&args)?;
    check_paths(&args)?;
    if args.stats {
        // A resumed or sharded run has no whole-run timing or node count to report.
        return Err(UsageError(
            "--stats describes one whole run, not --checkpoint, --shard or --breakdown: the breakdown CSV has nodes per subproblem"
                .into(),
        )
        .into());
    }
    if args.verify && args.shard.is_some() {
        return Err(UsageError(
            "--verify checks a whole count, not one shard: use it with `nqueens merge`".into(),
        )
        .into());
    }
    if let (Some(_), Some(format)) = (args.shard, args.format)
        && format != Format::Json
    {
        return Err(UsageError(format!(
            "--format {} does not apply to --shard: a shard writes its JSON result for `nqueens merge`; give --format to `nqueens merge`",
            Format::NAMES[format as usize]
        ))
        .into());
    }
    super::check_offset(args.format.unwrap_or_default(), args.sequence, std::iter::once(n))?;
    // The journal and the shard results record the concrete algorithm (`auto` resolves per n).
    let algorithm = args.algorithm.resolve(n);
    if args.sequence.needs_classes() && algorithm == Algorithm::Mirror {
        return Err(super::sequence_needs_classes(args.sequence, Algorithm::Mirror).into());
    }
    let threads = args.threads.unwrap_or_else(num_cpus::get);
    let start = Instant::now();
    // Signals, before any work: a graceful stop when there is a journal to keep (a signal that
    // comes while the plan is built stops the run before its first subproblem), else an
    // immediate exit.
    let stop = if args.checkpoint.is_some() {
        Some(Stop::install().context("installing signal handlers")?)
    } else {
        signals::exit_at_once().context("installing signal handlers")?;
        None
    };
    // What the bar draws from, and what a stop says it waits for.
    let tracker = args.progress.tracker();
    if let Some(stop) = &stop {
        stop.watch(std::sync::Arc::clone(&tracker), shell_command());
    }
    nqueens::Observer::planning(tracker.as_ref(), n);
    // Refuse a join board whose table and per-thread buffers would not fit before building it.
    if algorithm == Algorithm::Join && n >= nqueens::algo::join::MIN_N {
        nqueens::algo::join::check_memory_for(n, threads).map_err(super::from_library)?;
    }
    let plan: Box<dyn Plan> = match args.shard {
        Some(shard) => shard_plan_with(algorithm, n, args.split_depth, shard.count, args.d4_search),
        None => {
            // Resuming on another machine must not change the plan: an existing journal's split
            // depth wins over the thread-dependent default.
            let depth = args
                .split_depth
                .or_else(|| args.checkpoint.as_deref().and_then(|p| journal_depth(p, n, algorithm)));
            make_plan_with(algorithm, n, depth, threads, args.d4_search)
        }
    }
    .map_err(super::from_library)?;
    tracker.plan_built();
    let ids: Vec<usize> = match args.shard {
        Some(shard) => assign(plan.as_ref(), shard.count).swap_remove(shard.index),
        None => (0..plan.len()).collect(),
    };
    let mut member = vec![args.shard.is_none(); plan.len()];
    for &i in &ids {
        member[i] = true;
    }

    // The journal, and what it already holds.
    let journal = match &args.checkpoint {
        None => None,
        Some(path) => {
            let header = Header {
                n,
                algorithm: algorithm.name().to_string(),
                split_depth: plan.split_depth(),
                subproblems: plan.len(),
                shard: args.shard,
                version: VERSION.to_string(),
            };
            let (journal, resumed) =
                Journal::open(path, &header, |id| member.get(id).copied().unwrap_or(false))
                    .map_err(|e| UsageError(e.to_string()))?;
            if let Some(torn) = &resumed.torn {
                // A full disk cuts a line short too: say which it looks like.
                let cause = match journal::free_bytes(path) {
                    Some(free) if free < journal::FULL_BELOW => {
                        format!("a write cut short by a full disk: {free} bytes are free there")
                    }
                    _ => "a write cut short by a crash, a kill or a power loss".to_string(),
                };
                super::warn(format_args!(
                    "nqueens: warning: checkpoint {}: dropped a torn last line ({} bytes, {cause}); its subproblem will be counted again",
                    path.display(),
                    torn.len()
                ));
            }
            Some((journal, resumed.entries))
        }
    };
    // Only the journal's entries, keyed by id: a shard of a huge plan holds few of its ids.
    let mut solved: HashMap<usize, Entry> = HashMap::new();
    if let Some((_, entries)) = &journal {
        for e in entries {
            solved.insert(e.id, *e);
        }
    }
    let to_run: Vec<usize> = ids.iter().copied().filter(|i| !solved.contains_key(i)).collect();
    let recorded = ids.len() - to_run.len();
    // Said when the run goes on from the journal; a journal that holds every subproblem is only
    // checked and added up (an error then stays the one line it is).
    if let Some(path) = &args.checkpoint
        && recorded > 0
        && !to_run.is_empty()
    {
        super::warn(format_args!(
            "nqueens: resumed {} of {} subproblems from {}",
            grouped(recorded),
            grouped(ids.len()),
            path.display()
        ));
    }

    let never = AtomicBool::new(false);
    let stop_flag: &AtomicBool = stop.as_ref().map_or(&never, |s| &s.flag);

    let stats = args.breakdown.is_some();
    // The counter owns the run's thread pool; its options are those the plan was made with.
    let options = CountOptions {
        threads,
        algorithm,
        split_depth: args.split_depth,
        progress: nqueens::Progress::To(tracker),
        stats,
        d4_search: args.d4_search,
    };
    let counter = Counter::new(&options).map_err(super::from_library)?;
    let fresh: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
    let write_error: Mutex<Option<io::Error>> = Mutex::new(None);
    let on_solved = |id: usize, tally: &Tally| {
        let entry = Entry { id, tally: *tally, nodes_counted: stats };
        if let Some((j, _)) = &journal
            && let Err(e) = j.append(&entry)
        {
            write_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
            stop_flag.store(true, Ordering::Relaxed);
        }
        if stats {
            fresh.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
        }
    };
    let job = Job { only: Some(&to_run), on_solved: Some(&on_solved), stop: Some(stop_flag) };
    let work = || counter.run(plan.as_ref(), job);
    let outcome = match &journal {
        Some((j, _)) => {
            let (outcome, synced) = j.run_syncing(work);
            synced.with_context(|| format!("syncing checkpoint {}", j.path().display()))?;
            outcome
        }
        None => work(),
    };
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        let path = journal.as_ref().map(|(j, _)| j.path().display().to_string()).unwrap_or_default();
        return Err(
            anyhow!(e).context(format!("writing checkpoint {path}; the journal keeps what was written"))
        );
    }
    if outcome.stopped {
        stop.as_ref().inspect(|s| s.settle());
        let signal = stop.as_ref().and_then(Stop::signal).unwrap_or(signal_hook::consts::SIGTERM);
        let path = journal.as_ref().map(|(j, _)| j.path().display().to_string()).unwrap_or_default();
        super::warn(format_args!(
            "nqueens: stopped by {}: {} of {} subproblems are recorded in {path}; run the same command again to resume: {}",
            signals::name(signal),
            recorded + outcome.solved,
            ids.len(),
            shell_command()
        ));
        return Ok(ExitCode::from(signals::exit_code(signal)));
    }

    // Complete: the journal's entries plus this session's.
    let mut total = outcome.tally;
    let mut nodes_counted = stats;
    let journal_path = || journal.as_ref().map(|(j, _)| j.path().display().to_string()).unwrap_or_default();
    for e in solved.values() {
        total = total.checked_add(&e.tally).ok_or_else(|| {
            UsageError(format!(
                "checkpoint {}: its counts and this session's add up beyond 128 bits: the journal was forged or damaged; the file was left untouched",
                journal_path()
            ))
        })?;
        nodes_counted &= e.nodes_counted;
    }
    if !nodes_counted {
        total.nodes = 0;
    }
    let seconds = nqueens::merge::round_micros(start.elapsed().as_secs_f64());
    if let Some(path) = &args.breakdown {
        for e in fresh.into_inner().unwrap_or_else(|e| e.into_inner()) {
            solved.insert(e.id, e);
        }
        write_breakdown(path, plan.as_ref(), algorithm, &ids, &solved)
            .with_context(|| format!("writing breakdown {}", path.display()))?;
    }
    match args.shard {
        Some(shard) => {
            let mut result = ShardResult {
                format: SHARD_FORMAT.into(),
                format_version: SHARD_FORMAT_VERSION,
                n,
                algorithm: algorithm.name().into(),
                split_depth: plan.split_depth(),
                subproblems: plan.len(),
                shard: shard.index,
                shards: shard.count,
                covers: Some(Covers::of(&ids)),
                ids: None,
                solutions: total.solutions,
                classes: total.classes,
                nodes: nodes_counted.then_some(total.nodes),
                seconds,
                threads,
                version: VERSION.into(),
                checksum: String::new(),
            };
            result.checksum = result.compute_checksum();
            let mut text = serde_json::to_string(&result).context("encoding the shard result")?;
            text.push('\n');
            match &args.output {
                Some(path) => write_atomically(path, text.as_bytes())
                    .with_context(|| format!("writing shard result {}", path.display()))?,
                None => io::stdout().lock().write_all(text.as_bytes()).context("writing the shard result")?,
            }
            Ok(ExitCode::SUCCESS)
        }
        None => {
            // The invariants of a whole count: a resumed journal's lines must add up.
            let classes = nqueens::merge::check_total(algorithm, n, &total, plan.fundamental(&total, algorithm))
                .map_err(|e| match &journal {
                    Some((j, _)) => UsageError(format!(
                        "checkpoint {}: the count is inconsistent: {e}; the journal was forged or damaged and was left untouched",
                        j.path().display()
                    )),
                    None => UsageError(format!("the count is inconsistent: {e}")),
                })?;
            let nodes = nodes_counted.then_some(total.nodes);
            let mut count = Count::of_plan(plan.as_ref(), &total, algorithm, seconds, threads, nodes);
            count.unique = classes.map(|c| c.total());
            count.classes = classes;
            super::merge::report(&count, args.format.unwrap_or_default(), args.verify, args.sequence)
        }
    }
}

/// Returns the one board size of `args`.
///
/// # Errors
/// [`UsageError`] if `args` names more than one size.
fn single_size(args: &CountArgs) -> Result<u32, UsageError> {
    match args.sizes.as_slice() {
        [s] if s.first == s.last => Ok(s.first),
        _ => {
            let given: Vec<String> =
                args.sizes
                    .iter()
                    .map(|s| {
                        if s.first == s.last {
                            s.first.to_string()
                        } else {
                            format!("{}..{}", s.first, s.last)
                        }
                    })
                    .collect();
            Err(UsageError(format!(
                "--checkpoint, --shard and --breakdown count one board size, not '{}': run one command per n",
                given.join(" ")
            )))
        }
    }
}

/// Refuses a checkpoint that is not a regular file (a device, a pipe or a folder would be read
/// without end or replaced), and one path given for two outputs (the journal would be lost).
fn check_paths(args: &CountArgs) -> Result<(), UsageError> {
    if let Some(path) = &args.checkpoint
        && fs::metadata(path).is_ok_and(|m| !m.is_file())
    {
        return Err(UsageError(format!(
            "checkpoint {} is not a regular file: give the path of a journal file (new or to resume)",
            path.display()
        )));
    }
    let named =
        [("--checkpoint", &args.checkpoint), ("--output", &args.output), ("--breakdown", &args.breakdown)];
    for (i, (a, pa)) in named.iter().enumerate() {
        for (b, pb) in &named[i + 1..] {
            if let (Some(x), Some(y)) = (pa, pb)
                && same_file(x, y)
            {
                return Err(UsageError(format!(
                    "{a} and {b} name the same file {}: give each its own path",
                    x.display()
                )));
            }
        }
    }
    Ok(())
}

/// Returns true if and only if `x` and `y` name one file: the same path, the same folder and
/// name once symbolic links are followed (also a link whose target does not exist yet, which
/// writing would create), or one file under two hard links.
fn same_file(x: &Path, y: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if x == y || resolve(x) == resolve(y) {
        return true;
    }
    matches!((fs::metadata(x), fs::metadata(y)), (Ok(a), Ok(b)) if (a.dev(), a.ino()) == (b.dev(), b.ino()))
}

/// Returns `path` with its symbolic links followed (up to 40, as the kernel does) and its folder
/// made canonical; the last target need not exist. Falls back to the path as followed where
/// the folder cannot be resolved.
fn resolve(path: &Path) -> std::path::PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::read_link(&p) {
            // A relative target is relative to the link's folder.
            Ok(target) => p = p.parent().unwrap_or(Path::new("")).join(target),
            Err(_) => break,
        }
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match (fs::canonicalize(dir), p.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => p,
    }
}

/// Returns `n` with a comma between groups of three digits: 4922 as "4,922".
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Returns the split depth recorded in the journal at `path`, if it exists, has a valid header
/// and is of the same run otherwise (the `n`×`n` board, `algorithm`, the whole board). A journal
/// of another run is reported when it is opened, naming the real difference (another
/// algorithm's depth could not even build this command's plan: the join's depth 0 is no d4
/// depth).
fn journal_depth(path: &Path, n: u32, algorithm: Algorithm) -> Option<u32> {
    let bytes = fs::read(path).ok()?;
    let header = journal::parse(path, &bytes, |_| true).ok()?.header;
    (header.n == n && header.algorithm == algorithm.name() && header.shard.is_none())
        .then_some(header.split_depth)
}

/// Writes the breakdown CSV: one row per subproblem of `ids`, in id order. The orbit columns are
/// empty where `algorithm` does not classify a subproblem's solutions (mirror, join).
fn write_breakdown(
    path: &Path,
    plan: &dyn Plan,
    algorithm: Algorithm,
    ids: &[usize],
    solved: &HashMap<usize, Entry>,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    {
        let mut w = csv::Writer::from_writer(&mut buf);
        w.write_record(["id", "prefix", "solutions", "orbit8", "orbit4", "orbit2", "orbit1", "nodes"])?;
        for &id in ids {
            let e = solved.get(&id).ok_or_else(|| anyhow!("subproblem {id} has no counts"))?;
            let prefix = plan.prefix(id).map_or_else(String::new, |p| {
                p.cols().iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
            });
            let c = e.tally.classes;
            let orbit = |k: u128| if algorithm.classifies() { k.to_string() } else { String::new() };
            let nodes = if e.nodes_counted { e.tally.nodes.to_string() } else { String::new() };
            w.write_record([
                id.to_string(),
                prefix,
                e.tally.solutions.to_string(),
                orbit(c.orbit8),
                orbit(c.orbit4),
                orbit(c.orbit2),
                orbit(c.orbit1),
                nodes,
            ])?;
        }
        w.flush()?;
    }
    write_atomically(path, &buf)?;
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so that
/// `path` never holds a half-written result.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // Write through a symbolic link to its target, and into a device or a pipe in place
    // (`--output /dev/stdout`): renaming over those would replace them with a plain file.
    let path = &match fs::read_link(path) {
        Ok(target) => path.parent().unwrap_or(Path::new(".")).join(target),
        Err(_) => path.to_path_buf(),
    };
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let mut f = fs::OpenOptions::new().write(true).open(path)?;
        f.write_all(bytes)?;
        return f.flush();
    }
    // A temporary file of this process alone (a unique name beside the target: six processes
    // writing one --output never share one), renamed over the target, so the target is always
    // one whole result; dropped (removed) on every error path, a full disk included.
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Returns this process's command line, quoted for a POSIX shell.
fn shell_command() -> String {
    let quote = |a: String| {
        if !a.is_empty() && a.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b)) {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    std::env::args().map(quote).collect::<Vec<_>>().join(" ")
}
