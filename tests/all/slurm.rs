//! scripts/slurm-shards.sh under a real Slurm: a plain run, the time-limit warning with requeue
//! and resume, `scancel` of the array, a task killed with `kill -9` and its documented recovery
//! (`resume`), each ending in an exact merge or a loud refusal.
//!
//! The cluster is the single-node one `scripts/ci/slurm-up.sh` starts (`.ci/run` does, and
//! exports `SLURM_CONF` and `NQ_TEST_SLURM=1`). Without `NQ_TEST_SLURM=1`, or when `sinfo` does
//! not answer, the cluster tests skip with a note: they submit real jobs, so they never run
//! against a cluster nobody asked them to use. The tests take turns (one lock), so that each
//! has the node's CPUs to itself and its timing is predictable; together they take about
//! 3 minutes, most of it the time-limit test (Slurm's shortest --time is one minute, and it
//! checks limits every 30 s).

use crate::common;
use crate::common::q;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::{Duration, Instant};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm-shards.sh");

/// One cluster test at a time.
pub(crate) static CLUSTER: Mutex<()> = Mutex::new(());

/// Returns true if and only if the tests may submit jobs: NQ_TEST_SLURM=1 and the node idle.
pub(crate) fn cluster() -> bool {
    if std::env::var("NQ_TEST_SLURM").as_deref() != Ok("1") {
        eprintln!(
            "note: NQ_TEST_SLURM is not 1; skipping the Slurm recipe test (scripts/ci/slurm-up.sh starts a test cluster; .ci/run does it)"
        );
        return false;
    }
    match Command::new("sinfo").args(["-h", "-o", "%t"]).output() {
        Ok(out) if out.status.success() && !String::from_utf8_lossy(&out.stdout).trim().is_empty() => true,
        other => {
            eprintln!("note: sinfo does not answer ({other:?}); skipping the Slurm recipe test");
            false
        }
    }
}

/// A fresh, empty folder for one run (under /tmp, which the single node shares).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-slurm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the recipe with `args`.
fn recipe(args: &[&str]) -> Output {
    Command::new("bash").arg(SCRIPT).args(args).output().unwrap()
}

/// Submits a run and returns (array job id, merge job id) from the run's `jobs` file.
fn submit(n: u32, k: usize, dir: &Path, extra: &[&str]) -> (String, String) {
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let (n, k) = (n.to_string(), k.to_string());
    let mut args = vec!["submit", &n, &k, "--dir", s(dir), "--nqueens", s(&bin)];
    args.extend(extra);
    let out = recipe(&args);
    assert!(out.status.success(), "submit: {}", String::from_utf8_lossy(&out.stderr));
    last_jobs(dir)
}

/// The last (array, merge) job pair written to DIR/jobs (the first array of the submission).
fn last_jobs(dir: &Path) -> (String, String) {
    let (arrays, merge) = last_submission(dir);
    (arrays[0].clone(), merge)
}

/// The array jobs and the merge job of the last submission written to DIR/jobs.
fn last_submission(dir: &Path) -> (Vec<String>, String) {
    let jobs = std::fs::read_to_string(dir.join("jobs")).unwrap();
    let mut ids: Vec<String> = jobs.lines().last().unwrap().split_whitespace().map(String::from).collect();
    let merge = ids.pop().unwrap();
    (ids, merge)
}

/// The (start, end) of every task of `job` as `scontrol show job` gives them (ISO 8601 local
/// times, which sort as text; `None` where it says Unknown, or the task has not ended).
fn task_times(job: &str) -> Vec<(Option<String>, Option<String>)> {
    let out = Command::new("scontrol").args(["show", "job", job]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let field = |record: &str, key: &str| {
        let value = record.split_whitespace().find_map(|w| w.strip_prefix(key))?;
        (value != "Unknown").then(|| value.to_string())
    };
    text.split("\n\n")
        .filter(|r| r.contains("JobId="))
        .map(|r| {
            let ended = r.contains("JobState=COMPLETED")
                || r.contains("JobState=FAILED")
                || r.contains("JobState=CANCELLED")
                || r.contains("JobState=TIMEOUT");
            (field(r, "StartTime="), if ended { field(r, "EndTime=") } else { None })
        })
        .collect()
}

/// The cluster's MaxArraySize (`scontrol show config`).
fn max_array_size() -> usize {
    let out = Command::new("scontrol").args(["show", "config"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("MaxArraySize")?.trim().strip_prefix('=')?.trim().parse().ok())
        .expect("scontrol shows MaxArraySize")
}

/// The (job id, state, reason) of every job or array task of `job`, as squeue sees them now.
fn states(job: &str) -> Vec<(String, String, String)> {
    let out = Command::new("squeue").args(["-h", "-t", "all", "-j", job, "-o", "%i %T %r"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut p = l.split_whitespace();
            Some((p.next()?.to_string(), p.next()?.to_string(), p.next().unwrap_or("").to_string()))
        })
        .collect()
}

fn ended(state: &str) -> bool {
    matches!(
        state,
        "COMPLETED" | "FAILED" | "CANCELLED" | "TIMEOUT" | "OUT_OF_MEMORY" | "NODE_FAIL" | "PREEMPTED"
    )
}

/// Waits until every job of `job` has ended; releases requeued tasks held for Slurm's requeue
/// delay (a requeued job becomes eligible again only 2 minutes later) at once. Panics after
/// `limit`, cancelling `job` first.
fn wait_ended(job: &str, limit: Duration) -> Vec<(String, String, String)> {
    let start = Instant::now();
    // When each task was first seen held for Slurm's requeue delay.
    let mut held: std::collections::HashMap<String, Instant> = std::collections::HashMap::new();
    loop {
        let now = states(job);
        if !now.is_empty() && now.iter().all(|(_, st, _)| ended(st)) {
            return now;
        }
        for (id, st, reason) in &now {
            // Not at once: released within a moment of its requeue, a task was once started
            // while Slurm still revoked its last run's credential, and killed ("Job
            // credential revoked", state FAILED).
            if st != "PENDING" || reason != "BeginTime" {
                held.remove(id);
                continue;
            }
            let since = *held.entry(id.clone()).or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(3) {
                let _ = Command::new("scontrol")
                    .args(["update", &format!("JobId={id}"), "StartTime=now"])
                    .status();
            }
        }
        if start.elapsed() > limit {
            let _ = Command::new("scancel").arg(job).status();
            panic!("job {job} has not ended after {limit:?}: {now:?}");
        }
        sleep(Duration::from_millis(500));
    }
}

/// Waits until `path` holds at least `min` journal entries.
fn wait_entries(path: &Path, min: usize, limit: Duration) {
    let start = Instant::now();
    while entries(path) < min {
        assert!(start.elapsed() < limit, "{} has fewer than {min} entries after {limit:?}", path.display());
        sleep(Duration::from_millis(200));
    }
}

fn entries(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().filter(|l| l.starts_with("id=")).count())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The solutions on the merged result's line for n.
fn merged_solutions(dir: &Path, n: u32) -> u128 {
    let text = read(&dir.join("result.txt"));
    let line = text.lines().find(|l| l.split_whitespace().next() == Some(&n.to_string())).unwrap();
    assert!(line.ends_with("yes"), "not verified: {line}");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_plain_run_merges_to_the_exact_count() {
    if !cluster() {
        return;
    }
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("plain");
    let (array, merge) = submit(14, 3, &dir, &["--time", "5", "--throttle", "2", "--merge-time", "2"]);
    let tasks = wait_ended(&array, Duration::from_secs(120));
    assert_eq!(tasks.len(), 3, "{tasks:?}");
    assert!(tasks.iter().all(|(_, st, _)| st == "COMPLETED"), "{tasks:?}");
    let m = wait_ended(&merge, Duration::from_secs(60));
    assert_eq!(m[0].1, "COMPLETED", "{}", read(&dir.join("merge.log")));
    assert_eq!(merged_solutions(&dir, 14), q(14));
    // The algorithm auto chose at submit is pinned for every task; --mem reached the task.
    let env = read(&dir.join("run.env"));
    let algorithm = env.lines().find_map(|l| l.strip_prefix("NQ_ALGORITHM=")).unwrap();
    assert_ne!(algorithm, "auto");
    for i in 0..3 {
        let log = read(&dir.join(format!("task-{i}.log")));
        assert!(log.contains(&format!("task {i}/3: start on ")), "{log}");
        assert!(log.contains(&format!("algorithm {algorithm}, memory limit ")), "{log}");
        assert!(!log.contains("memory limit none"), "{log}");
        assert!(log.contains(&format!("task {i}/3: finished on ")), "{log}");
        let journal = read(&dir.join(format!("shard-{i}.journal")));
        assert!(journal.starts_with(&format!("nqueens-journal 1 n=14 algorithm={algorithm} ")), "{journal}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// K above the cluster's MaxArraySize (scripts/ci/slurm-up.sh sets 4): the shards go into
/// arrays of at most that many tasks, each shard is counted once, the merge job audits and
/// merges all of them; `resume` after two results are lost submits them again, each in the
/// array of its own block of shards; `--max-array` overrides the cluster's value.
#[test]
fn more_shards_than_max_array_size_spread_over_arrays_and_merge_with_an_audit() {
    if !cluster() {
        return;
    }
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let max = max_array_size();
    assert!(max < 10, "slurm-up.sh sets MaxArraySize low (it is {max})");
    let dir = scratch("arrays");
    let k = 10;
    submit(12, k, &dir, &["--time", "5", "--throttle", "2", "--merge-time", "2", "--audit", "0.5"]);
    let (arrays, merge) = last_submission(&dir);
    assert_eq!(arrays.len(), k.div_ceil(max), "{arrays:?}");
    let mut tasks = Vec::new();
    for (j, array) in arrays.iter().enumerate() {
        let show = Command::new("scontrol").args(["show", "job", array]).output().unwrap();
        let show = String::from_utf8_lossy(&show.stdout).to_string();
        assert!(show.contains("ArrayTaskThrottle=2"), "{show}");
        if j > 0 && !show.contains(&format!("afterany:{}", arrays[j - 1])) {
            // Slurm clears a dependency once it is met: then every task of the array before
            // has ended, and none of this one started before the last of them ended.
            let before = task_times(&arrays[j - 1]);
            assert!(before.iter().all(|t| t.1.is_some()), "not chained, the array before still runs: {show}");
            let last_end = before.iter().filter_map(|t| t.1.clone()).max();
            let first_start = task_times(array).into_iter().filter_map(|t| t.0).min();
            assert!(
                first_start.is_none() || first_start >= last_end,
                "not chained: {first_start:?} < {last_end:?}: {show}"
            );
        }
        let ended = wait_ended(array, Duration::from_secs(180));
        assert!(ended.len() <= max, "array {array} has {} tasks: {ended:?}", ended.len());
        tasks.extend(ended);
    }
    assert_eq!(tasks.len(), k, "{tasks:?}");
    assert!(tasks.iter().all(|(_, st, _)| st == "COMPLETED"), "{tasks:?}");
    let m = wait_ended(&merge, Duration::from_secs(120));
    let log = read(&dir.join("merge.log"));
    assert_eq!(m[0].1, "COMPLETED", "{log}");
    assert_eq!(merged_solutions(&dir, 12), q(12));
    assert!(log.contains(&format!("audit of {k} shard result(s) at fraction 0.5")), "{log}");
    assert!(log.contains("all agree"), "{log}");
    for i in 0..k {
        let task = read(&dir.join(format!("task-{i}.log")));
        assert!(task.contains(&format!("task {i}/{k}: finished on ")), "{task}");
        assert!(dir.join(format!("shard-{i}.json")).exists());
    }

    // Two results lost: resume submits shards 5 and 9, each in the array of its block.
    for i in [5, 9] {
        std::fs::remove_file(dir.join(format!("shard-{i}.json"))).unwrap();
    }
    let out = recipe(&["resume", s(&dir)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("(shards 5 .. 9 of K = 10)"), "{stdout}");
    let (arrays, merge) = last_submission(&dir);
    assert_eq!(arrays.len(), 2, "{arrays:?}");
    for array in &arrays {
        let ended = wait_ended(array, Duration::from_secs(120));
        assert!(ended.len() == 1 && ended[0].1 == "COMPLETED", "{ended:?}");
    }
    let m = wait_ended(&merge, Duration::from_secs(120));
    assert_eq!(m[0].1, "COMPLETED", "{}", read(&dir.join("merge.log")));
    for i in [5, 9] {
        let task = read(&dir.join(format!("task-{i}.log")));
        assert_eq!(task.matches(&format!("task {i}/{k}: finished on ")).count(), 2, "{task}");
    }
    std::fs::remove_dir_all(&dir).unwrap();

    // --max-array overrides the cluster's value (here: arrays of 2, without a throttle, all
    // submitted at once).
    let dir = scratch("maxarray");
    submit(10, 5, &dir, &["--time", "5", "--merge-time", "2", "--max-array", "2", "--audit", "0"]);
    let (arrays, merge) = last_submission(&dir);
    assert_eq!(arrays.len(), 3, "{arrays:?}");
    for array in &arrays {
        let ended = wait_ended(array, Duration::from_secs(120));
        assert!(ended.len() <= 2 && ended.iter().all(|(_, st, _)| st == "COMPLETED"), "{ended:?}");
    }
    let m = wait_ended(&merge, Duration::from_secs(120));
    let log = read(&dir.join("merge.log"));
    assert_eq!(m[0].1, "COMPLETED", "{log}");
    assert!(log.contains("at fraction 0,") && log.contains("all agree"), "{log}");
    assert_eq!(merged_solutions(&dir, 10), q(10));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An array that sbatch refuses (here: a partition that does not exist) ends `submit` with one
/// line and exit 2, naming the shards and what was submitted before it; no merge job follows.
#[test]
fn an_array_sbatch_refuses_is_named_in_one_line_with_code_2() {
    if !cluster() {
        return;
    }
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("refused");
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let args = ["submit", "10", "5", "--max-array", "2", "--dir", s(&dir), "--nqueens", s(&bin)];
    let out = recipe(&[&args[..], &["--array-opt=--partition=nosuchpartition"]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("sbatch refused the array of shards 0-1 (sbatch: error: "), "{err}");
    assert!(err.contains("after 0 array(s) were submitted (none)"), "{err}");
    assert!(!dir.join("jobs").exists(), "nothing was submitted");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The least CPU seconds of a shard in the time-limit test. Slurm sends the warning 30 s before
/// the 2-minute limit and up to 60 s earlier than that, so anywhere from 30 to 90 s into a
/// task: a shard of 70–150 s (the bound before) once finished in 79 s, before its warning
/// came, and the test failed on a fast machine.
const SHARD_SECONDS: f64 = 110.0;

/// Returns (n, K) for the time-limit test: d4 boards whose shards each take about 110–220 CPU
/// seconds on this machine (by `nqueens plan`), one shard per CPU of the node.
fn long_board() -> (u32, usize) {
    let out = Command::new("sinfo").args(["-h", "-o", "%c"]).output().unwrap();
    let cpus: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(1);
    for n in 18..=21 {
        let out = common::nqueens(&[
            "plan",
            &n.to_string(),
            "--algorithm",
            "d4",
            "--sample-seconds",
            "2",
            "--seed",
            "1",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let cpu = v["cpu_seconds"].as_f64().unwrap();
        if cpu >= SHARD_SECONDS || n == 21 {
            let k = ((cpu / SHARD_SECONDS).floor() as usize).clamp(1, cpus.max(1));
            eprintln!("time-limit test: n = {n}, K = {k} (about {cpu:.0} CPU seconds in all, {cpus} CPUs)");
            return (n, k);
        }
    }
    unreachable!()
}

#[test]
fn the_time_limit_warning_stops_requeues_and_resumes_to_the_exact_count() {
    if !cluster() {
        return;
    }
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("timelimit");
    let (n, k) = long_board();
    // --time 2 with a 30 s lead: Slurm warns 30–60 s into each start.
    let (array, merge) = submit(n, k, &dir, &["--algorithm", "d4", "--time", "2", "--signal-lead", "30"]);
    let tasks = wait_ended(&array, Duration::from_secs(600));
    assert!(tasks.iter().all(|(_, st, _)| st == "COMPLETED"), "{tasks:?}");
    let m = wait_ended(&merge, Duration::from_secs(120));
    assert_eq!(m[0].1, "COMPLETED", "{}", read(&dir.join("merge.log")));
    assert_eq!(merged_solutions(&dir, n), q(n));
    for i in 0..k {
        let log = read(&dir.join(format!("task-{i}.log")));
        assert!(log.contains("stopped by the time-limit warning"), "task {i} was never warned:\n{log}");
        assert!(log.contains("restart 1, journal holds "), "{log}");
        let resumed = log.lines().find(|l| l.contains("restart 1, journal holds ")).unwrap();
        assert!(!resumed.contains("journal holds 0 "), "task {i} resumed from nothing: {log}");
        assert!(log.contains(&format!("task {i}/{k}: finished on ")), "{log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scancel_cancels_the_array_for_good_and_the_merge_refuses_loudly() {
    if !cluster() {
        return;
    }
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("scancel");
    let (array, merge) = submit(19, 2, &dir, &["--algorithm", "d4", "--time", "10"]);
    for i in 0..2 {
        wait_entries(&dir.join(format!("shard-{i}.journal")), 1, Duration::from_secs(60));
    }
    // While tasks run, neither a second submit into DIR nor resume may start a task again.
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    for args in [
        vec![
            "submit",
            "19",
            "2",
            "--algorithm",
            "d4",
            "--time",
            "10",
            "--dir",
            s(&dir),
            "--nqueens",
            s(&bin),
        ],
        vec!["resume", s(&dir)],
    ] {
        let out = recipe(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("are still queued or running"), "{err}");
    }
    assert!(Command::new("scancel").arg(&array).status().unwrap().success());
    let tasks = wait_ended(&array, Duration::from_secs(60));
    assert!(tasks.iter().all(|(_, st, _)| st == "CANCELLED"), "{tasks:?}");
    let m = wait_ended(&merge, Duration::from_secs(60));
    assert_eq!(m[0].1, "FAILED", "the merge must refuse: {}", read(&dir.join("merge.log")));
    let log = read(&dir.join("merge.log"));
    assert!(log.contains("missing shard(s)") || log.contains("no shard results"), "{log}");
    assert!(log.contains("REFUSED") || log.contains("no shard results"), "{log}");
    assert!(!dir.join("result.txt").exists());
    // Nothing runs again: after Slurm's requeue delay would have passed, still all CANCELLED.
    sleep(Duration::from_secs(5));
    let later = states(&array);
    assert!(later.iter().all(|(_, st, _)| st == "CANCELLED"), "{later:?}");
    for i in 0..2 {
        let log = read(&dir.join(format!("task-{i}.log")));
        assert!(log.contains("cancelled at"), "{log}");
        assert!(!log.contains("requeueing"), "{log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_task_killed_with_kill_9_is_refused_then_resume_completes_it() {
    if !cluster() {
        return;
    }
    let _turn = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("kill9");
    // An sbatch option with a space, which a resume must pass on whole.
    let comment = "--array-opt=--comment=nqueens kill 9";
    let (array, merge) = submit(18, 2, &dir, &["--algorithm", "d4", "--time", "10", comment]);
    let journal = dir.join("shard-1.journal");
    wait_entries(&journal, 20, Duration::from_secs(120));
    // The nqueens process of shard 1 (what an out-of-memory kill looks like).
    let pgrep =
        Command::new("pgrep").args(["-f", "--", &format!("--checkpoint {}", s(&journal))]).output().unwrap();
    let pid = String::from_utf8_lossy(&pgrep.stdout).lines().next().expect("shard 1 runs").trim().to_string();
    assert!(Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    let tasks = wait_ended(&array, Duration::from_secs(120));
    let task1 = tasks.iter().find(|(id, _, _)| id.ends_with("_1")).unwrap();
    assert_eq!(task1.1, "FAILED", "{tasks:?}");
    let m = wait_ended(&merge, Duration::from_secs(60));
    assert_eq!(m[0].1, "FAILED");
    let log = read(&dir.join("merge.log"));
    assert!(log.contains("missing shard(s) 1/2") && log.contains("resume"), "{log}");
    assert!(!dir.join("result.txt").exists());
    assert!(read(&dir.join("task-1.log")).contains("FAILED"));

    // The documented recovery: resume DIR submits shard 1 again, which resumes from its journal.
    let kept = entries(&journal);
    let out = recipe(&["resume", s(&dir)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("shards 1 of K = 2"));
    let (array2, merge2) = last_jobs(&dir);
    assert_ne!(array2, array);
    let show = Command::new("scontrol").args(["show", "job", &array2]).output().unwrap();
    let show = String::from_utf8_lossy(&show.stdout);
    assert!(show.contains("Comment=nqueens kill 9"), "the resumed array lost --array-opt: {show}");
    let tasks = wait_ended(&array2, Duration::from_secs(120));
    assert!(tasks.len() == 1 && tasks[0].1 == "COMPLETED", "{tasks:?}");
    let m = wait_ended(&merge2, Duration::from_secs(60));
    assert_eq!(m[0].1, "COMPLETED", "{}", read(&dir.join("merge.log")));
    assert_eq!(merged_solutions(&dir, 18), q(18));
    let log = read(&dir.join("task-1.log"));
    assert!(log.contains(&format!("journal holds {kept} subproblem(s)")), "resumed from {kept}: {log}");
    // Nothing left to do: resume merges again at once.
    let out = recipe(&["resume", s(&dir)]);
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("every shard"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad submit options are refused before anything is submitted (no Slurm needed).
#[test]
fn submit_refuses_bad_options_with_code_2() {
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let dir = scratch("bad");
    for (args, message) in [
        (vec!["20", "4", "--time", "2"], "--time 2 (120 s) is too short for the 120 s warning"),
        (
            vec!["20", "4", "--time", "1:00:00", "--signal-lead", "3540"],
            "is too short for the 3540 s warning",
        ),
        (vec!["20", "4", "--time", "soon"], "--time 'soon' is not an sbatch time"),
        (vec!["20", "4", "--mem", "lots"], "--mem 'lots' is not an sbatch memory size"),
        (vec!["20", "4", "--algorithm", "join", "--mem", "10M"], "is less than the"),
        (vec!["20", "4", "--algorithm", "fast"], "--algorithm 'fast' is not one of"),
        (vec!["20", "4", "--throttle", "0"], "--throttle '0' must be an integer >= 1"),
        (vec!["20", "4", "--max-array", "0"], "--max-array '0' must be an integer >= 1"),
        (vec!["20", "4", "--max-array", "many"], "--max-array 'many' must be an integer >= 1"),
        (vec!["20", "4", "--audit", "2"], "--audit '2' must be a fraction from 0 to 1"),
        (vec!["20", "4", "--audit", "-0.1"], "--audit '-0.1' must be a fraction from 0 to 1"),
        (vec!["20", "4", "--audit", "most"], "--audit 'most' must be a fraction from 0 to 1"),
        (vec!["20", "0"], "K '0' must be integers, K >= 1"),
        (vec!["20"], "submit needs N and K"),
        (vec!["20", "4", "--frobnicate"], "unknown option '--frobnicate'"),
    ] {
        let mut all = vec!["submit"];
        all.extend(&args);
        all.extend(["--dir", s(&dir), "--nqueens", s(&bin)]);
        let out = recipe(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let out = recipe(&["resume", s(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("run.env not found"));
    std::fs::remove_dir_all(&dir).unwrap();
}
