//! Checkpoint journals (`count --checkpoint`): stops by signal and kill -9 resumed to the exact
//! count, the seconds of every session, a journal refused untouched when it is damaged, forged,
//! another run's or converted (each difference named), `--repair`, and what `auto` becomes when a
//! journal fixes the algorithm.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::common::{self, entries, forge_journal_line, nqueens, q, run, s, scratch, spawn};
use nqueens::oeis;

/// Runs `args` to completion and returns the solutions of its one JSON line.
fn json_count(args: &[&str]) -> u128 {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = nqueens(&all).assert().success().get_output().clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["solutions"].as_u64().unwrap() as u128
}

/// Sends `signal` (a `kill -s` name) to `child`.
fn signal(child: &Child, signal: &str) {
    let ok = Command::new("kill").args(["-s", signal, &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
}

/// A pseudo-random number from the clock, printed so a failure can be understood.
fn random_below(bound: u64) -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().subsec_nanos() as u64;
    (nanos.wrapping_mul(6364136223846793005) >> 17) % bound
}

/// Waits (up to 20 s) until the journal records at least `min` subproblems, so a signal is sent
/// only once the run has started for sure, however loaded the machine.
fn wait_for_entries(journal: &Path, min: usize) {
    let start = Instant::now();
    while entries(journal).len() < min {
        assert!(start.elapsed() < Duration::from_secs(20), "the run did not start journaling");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Returns the number of subproblems the journal's header announces.
fn announced(journal: &Path) -> usize {
    let text = std::fs::read_to_string(journal).unwrap();
    let header = text.lines().next().unwrap();
    let field = header.split(' ').find_map(|w| w.strip_prefix("subproblems=")).unwrap();
    field.parse().unwrap()
}

#[test]
fn kill_9_at_random_moments_then_resume_gives_the_exact_count() {
    // n = 16 takes about 3-4 s on 2 threads here; four kills at random moments up to 1.5 s into
    // each session, then a resume to the end: about one run's work in all.
    let dir = scratch("kill9");
    let journal = dir.join("q16.journal");
    let args =
        ["count", "16", "--algorithm", "d4", "-j", "2", "--checkpoint", s(&journal), "--progress", "never"];
    let mut recorded = 0;
    for round in 0..4 {
        let delay = 100 + random_below(1400);
        let mut child = spawn(&args);
        std::thread::sleep(Duration::from_millis(delay));
        child.kill().unwrap(); // SIGKILL
        let status = child.wait().unwrap();
        let now = entries(&journal).len();
        eprintln!("round {round}: killed after {delay} ms ({status:?}), {now} subproblems recorded");
        assert!(now >= recorded, "a journal never shrinks");
        recorded = now;
    }
    assert_eq!(json_count(&args), q(16));
    assert_eq!(entries(&journal).len(), announced(&journal), "every subproblem is recorded once");
    // A finished journal gives the count again at once.
    assert_eq!(json_count(&args), q(16));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn signals_stop_gracefully_then_resume_gives_the_exact_count() {
    let dir = scratch("signals");
    for (sig, code) in [("TERM", 143), ("INT", 130), ("USR1", 143)] {
        let journal = dir.join(format!("q15-{sig}.journal"));
        let args = [
            "count",
            "15",
            "--algorithm",
            "d4",
            "-j",
            "1",
            "--checkpoint",
            s(&journal),
            "--progress",
            "never",
        ];
        let child = spawn(&args);
        wait_for_entries(&journal, 1);
        signal(&child, sig);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "SIG{sig}: {err}");
        assert!(err.contains(&format!("stopped by SIG{sig}")), "{err}");
        assert!(err.contains("; to resume, run "), "{err}");
        assert!(err.contains(&format!("--checkpoint {}", s(&journal))), "{err}");
        assert_eq!(out.stdout, b"", "no count is printed for a stopped run");
        // The journal is valid: every line complete, and the count resumes exactly.
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(text.ends_with('\n'));
        let done = entries(&journal).len();
        assert!(done > 0 && done < announced(&journal), "SIG{sig}: {done} recorded");
        let resumed = nqueens(&args).assert().success().get_output().clone();
        // A clean journal resumes without warnings, saying only how much came from it.
        let grouped = |n: usize| {
            let d = n.to_string();
            d.chars().enumerate().fold(String::new(), |mut o, (i, c)| {
                if i > 0 && (d.len() - i).is_multiple_of(3) {
                    o.push(',');
                }
                o.push(c);
                o
            })
        };
        let said = format!(
            "nqueens: resumed {} of {} subproblems from {}\n",
            grouped(done),
            grouped(announced(&journal)),
            s(&journal)
        );
        assert_eq!(String::from_utf8_lossy(&resumed.stderr), said);
        assert_eq!(json_count(&args), q(15));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The largest `seconds=` of the journal's lines (0 if none has one).
fn journal_seconds(journal: &Path) -> f64 {
    entries(journal)
        .iter()
        .filter_map(|l| l.split(' ').find_map(|w| w.strip_prefix("seconds="))?.parse::<f64>().ok())
        .fold(0.0, f64::max)
}

/// A resumed shard's `seconds` (and a resumed whole count's) are those of all its sessions:
/// the journal carries the time of the earlier ones (each line the run's seconds so far).
#[test]
fn a_resumed_run_counts_the_seconds_of_every_session() {
    let dir = scratch("seconds");
    for shard in [true, false] {
        // n = 18 by d4 on one thread: about 13 s here (a shard of 2 half that), long enough to
        // stop it after a second on an idle machine (n = 16 once finished before the signal).
        let journal = dir.join(format!("q18-{shard}.journal"));
        let result = dir.join(format!("q18-{shard}.json"));
        let mut args = vec![
            "count",
            "18",
            "--algorithm",
            "d4",
            "-j",
            "1",
            "--checkpoint",
            s(&journal),
            "--progress",
            "never",
        ];
        if shard {
            args.extend(["--shard", "0/2", "--output", s(&result)]);
        } else {
            args.extend(["--format", "json"]);
        }
        let child = spawn(&args);
        wait_for_entries(&journal, 3);
        let start = Instant::now();
        while journal_seconds(&journal) < 0.6 {
            assert!(start.elapsed() < Duration::from_secs(20), "no line after 0.6 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        signal(&child, "TERM");
        assert_eq!(child.wait_with_output().unwrap().status.code(), Some(143));
        let first = journal_seconds(&journal);
        assert!(first > 0.5, "the first session's lines say {first} s");
        assert!(entries(&journal).iter().all(|l| l.contains(" seconds=")), "every line carries its seconds");
        // The resume on 2 threads, as another machine might (the plan does not depend on them).
        let resume: Vec<&str> = args.iter().map(|&a| if a == "1" { "2" } else { a }).collect();
        let start = Instant::now();
        let out = nqueens(&resume).assert().success().get_output().clone();
        let second = start.elapsed().as_secs_f64();
        let text = if shard {
            std::fs::read_to_string(&result).unwrap()
        } else {
            String::from_utf8(out.stdout).unwrap()
        };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let seconds = v["seconds"].as_f64().unwrap();
        // Both sessions: the first up to its last line, and the whole of the second.
        assert!(seconds > first, "{seconds} s reported, {first} s in the journal before the resume");
        assert!(seconds <= first + second + 0.01, "{seconds} s reported, {first} + {second} s measured");
        assert!(journal_seconds(&journal) >= first);
        if shard {
            let merged = nqueens(&["count", "18", "--algorithm", "d4", "-j", "2", "--shard", "1/2"])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            let other = dir.join("q18-1.json");
            std::fs::write(&other, merged).unwrap();
            let out = nqueens(&["merge", s(&result), s(&other), "--format", "json"]).assert().success();
            let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
            assert!(v["seconds"].as_f64().unwrap() >= seconds, "{v}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_journal_in_use_by_another_run_is_refused() {
    let dir = scratch("busy");
    let journal = dir.join("q17.journal");
    let mut first = spawn(&["count", "17", "--algorithm", "d4", "-j", "1", "--checkpoint", s(&journal)]);
    wait_for_entries(&journal, 1);
    let out = nqueens(&["count", "17", "--algorithm", "d4", "--checkpoint", s(&journal)])
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("is in use by another running nqueens"), "{err}");
    first.kill().unwrap();
    first.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_without_checkpoint_just_stops_with_130() {
    // 800 ms: well after the handlers are installed at start-up, long before n = 18 ends.
    let child = spawn(&["count", "18", "--algorithm", "d4", "-j", "1"]);
    std::thread::sleep(Duration::from_millis(800));
    let start = Instant::now();
    signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(start.elapsed() < Duration::from_secs(5), "it stops at once");
    let child = spawn(&["count", "18", "--algorithm", "d4", "-j", "1", "--shard", "0/2"]);
    std::thread::sleep(Duration::from_millis(800));
    signal(&child, "TERM");
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(143));
}

/// Makes a partial journal of n = 12: a full run, then its last `drop` lines removed.
fn partial_journal(dir: &Path, drop: usize) -> PathBuf {
    let journal = dir.join("q12.journal");
    nqueens(&["count", "12", "--algorithm", "d4", "--checkpoint", s(&journal)]).assert().success();
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines[..lines.len() - drop].join("\n") + "\n";
    std::fs::write(&journal, kept).unwrap();
    journal
}

#[test]
fn a_torn_last_line_is_dropped_with_a_warning() {
    let dir = scratch("torn");
    let journal = partial_journal(&dir, 40);
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("id=8000 solutions=1"); // a write cut short
    std::fs::write(&journal, &text).unwrap();
    let out =
        nqueens(&["count", "12", "--algorithm", "d4", "--checkpoint", s(&journal), "--format", "bfile"])
            .assert()
            .success()
            .stdout("12 14200\n")
            .get_output()
            .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("warning: checkpoint") && err.contains("dropped a torn last line"), "{err}");
    assert_eq!(entries(&journal).len(), announced(&journal));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn refused(args: &[&str], message: &str, journal: &Path) {
    let before = std::fs::read(journal).unwrap();
    let out = nqueens(args).assert().code(2).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(message), "{err:?} lacks {message:?}");
    assert_eq!(std::fs::read(journal).unwrap(), before, "the file is left untouched");
}

#[test]
fn a_flipped_digit_or_another_runs_header_is_refused_untouched() {
    let dir = scratch("corrupt");
    let journal = partial_journal(&dir, 10);
    let text = std::fs::read_to_string(&journal).unwrap();
    // Flip one digit of a nonzero count.
    let (no, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("solutions=") && !l.contains("solutions=0 "))
        .unwrap();
    let at = line.find("solutions=").unwrap() + "solutions=".len();
    let digit = line.as_bytes()[at];
    let flipped = if digit == b'9' { '8' } else { (digit + 1) as char };
    let bad_line = format!("{}{flipped}{}", &line[..at], &line[at + 1..]);
    std::fs::write(&journal, text.replacen(line, &bad_line, 1)).unwrap();
    refused(
        &["count", "12", "--algorithm", "d4", "--checkpoint", s(&journal)],
        &format!("line {} is corrupt: checksum mismatch", no + 1),
        &journal,
    );
    std::fs::write(&journal, &text).unwrap();
    refused(
        &["count", "13", "--algorithm", "d4", "--checkpoint", s(&journal)],
        "belongs to another run (n = 12 in the journal, 13 in this command",
        &journal,
    );
    refused(
        &["count", "12", "--algorithm", "d4", "--checkpoint", s(&journal), "--split-depth", "7"],
        "in the journal, 7 in this command",
        &journal,
    );
    refused(
        &["count", "12", "--algorithm", "d4", "--checkpoint", s(&journal), "--shard", "0/2"],
        "shard all in the journal, 0/2 in this command",
        &journal,
    );
    // Not a journal at all, and a folder: refused, nothing written.
    let other = dir.join("notes.txt");
    std::fs::write(&other, "my notes\nkeep them\n").unwrap();
    refused(
        &["count", "12", "--algorithm", "d4", "--checkpoint", s(&other)],
        "line 1 is corrupt: bad header",
        &other,
    );
    let out = nqueens(&["count", "12", "--algorithm", "d4", "--checkpoint", s(&dir)])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("checkpoint {}", s(&dir))) && err.lines().count() == 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_journal_resumes_with_its_own_plan_on_another_thread_count() {
    let dir = scratch("threads");
    let journal = partial_journal(&dir, 300); // written with the default (2-thread) plan
    assert_eq!(
        json_count(&["count", "12", "--algorithm", "d4", "-j", "150", "--checkpoint", s(&journal)]),
        q(12)
    );
    assert_eq!(
        json_count(&["count", "12", "--algorithm", "d4", "-j", "1", "--checkpoint", s(&journal)]),
        q(12)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 15: `count 30 --checkpoint J` went on for hours after SIGINT, its subproblems being
/// hours long. Mirror and d4 subproblems now stop at their next step: the stop takes about a
/// second at any n (the bound is 30 s), says what it waits for, and keeps the journal valid.
#[test]
fn a_stop_at_a_large_n_ends_within_seconds_and_says_what_it_waits_for() {
    use std::io::BufRead;
    let dir = scratch("large-stop");
    for (n, algorithm) in [("30", "d4"), ("30", "mirror"), ("63", "d4")] {
        let journal = dir.join(format!("q{n}-{algorithm}.journal"));
        let args = [
            "count",
            n,
            "--algorithm",
            algorithm,
            "-j",
            "2",
            "--checkpoint",
            s(&journal),
            "--progress",
            "always",
        ];
        let mut child = spawn(&args);
        // The bar's plain lines say when the subproblems run (the plan of n = 63 takes seconds).
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap()).lines().map_while(Result::ok);
        assert!(stderr.any(|l| l.contains(" ETA ")), "n = {n} {algorithm}: the run did not begin");
        let start = Instant::now();
        signal(&child, "INT");
        let said: Vec<String> =
            stderr.filter(|l| l.starts_with("nqueens: ") && !l.contains(" will take about ")).collect();
        let status = child.wait().unwrap();
        let took = start.elapsed();
        eprintln!("n = {n} {algorithm}: stopped {took:?} after SIGINT");
        assert!(took < Duration::from_secs(30), "n = {n} {algorithm}: {took:?}: {said:?}");
        assert_eq!(status.code(), Some(130), "{said:?}");
        assert_eq!(said.len(), 2, "{said:?}");
        assert_eq!(
            said[0],
            "nqueens: SIGINT: stopping: waiting for the 2 running subproblems to reach their next step (within about a second); a second signal ends at once (what is recorded stays)"
        );
        let total = announced(&journal);
        let stopped = format!(
            "nqueens: stopped by SIGINT: 0 of {total} subproblems are recorded in {}; to resume, run the same command: ",
            s(&journal)
        );
        assert!(said[1].starts_with(&stopped), "{said:?}");
        assert!(entries(&journal).is_empty(), "no subproblem of n = {n} ends in a second");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A signal while the plan is still being built (3 s for d4 at n = 63 here, minutes for the
/// join's table from n = 26) has nothing to save: the command ends at once and says so.
#[test]
fn a_stop_while_the_plan_is_built_ends_at_once() {
    let dir = scratch("plan-stop");
    let journal = dir.join("q63.journal");
    let child = spawn(&[
        "count",
        "63",
        "--algorithm",
        "d4",
        "-j",
        "1",
        "--checkpoint",
        s(&journal),
        "--progress",
        "never",
    ]);
    std::thread::sleep(Duration::from_millis(150));
    let start = Instant::now();
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}: {err}", start.elapsed());
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(
        err.starts_with("nqueens: stopped by SIGTERM while building the plan: nothing new to record; run the same command again to go on: ")
            && err.ends_with(&format!("count 63 --algorithm d4 -j 1 --checkpoint {} --progress never\n", s(&journal)))
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(!journal.exists(), "nothing was written");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `args`, expecting exit 2 with one line containing `message`, and `journal` unchanged.
fn resume_refused(args: &[&str], journal: &std::path::Path, message: &str) {
    let before = std::fs::read(journal).unwrap();
    common::usage_error(args, message);
    assert_eq!(std::fs::read(journal).unwrap(), before, "the journal was changed");
}

#[test]
fn forged_journal_lines_cannot_wrap_a_resumed_count() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("q.journal");
    let j = journal.to_str().unwrap();
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", j]).assert().success();
    // Issue 15: a forged line (checksum recomputed) wrapped a resumed count to Q - 1000.
    forge_journal_line(&journal, 5, |b| {
        let (head, rest) = b.split_once(" solutions=").unwrap();
        let tail = rest.split_once(' ').unwrap().1;
        format!("{head} solutions={} {tail}", u128::MAX - 999)
    });
    resume_refused(
        &["count", "12", "--algorithm", "mirror", "--checkpoint", j],
        &journal,
        &format!("line 5 is corrupt: its {} solutions and the other lines' up to line ", u128::MAX - 999),
    );
    // Symmetry classes in a mirror journal.
    std::fs::remove_file(&journal).unwrap();
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", j]).assert().success();
    forge_journal_line(&journal, 3, |b| b.replace("classes=0,0,0,0", "classes=1,0,0,0"));
    resume_refused(
        &["count", "12", "--algorithm", "mirror", "--checkpoint", j],
        &journal,
        "line 3 is corrupt: it records symmetry classes, which the mirror algorithm does not count",
    );
    // A d4 journal whose classes were raised on one line: that line's counts are impossible
    // (issue 23; before, the whole count did not add up, after the run).
    std::fs::remove_file(&journal).unwrap();
    nqueens(&["count", "12", "--algorithm", "d4", "--checkpoint", j]).assert().success();
    let text = std::fs::read_to_string(&journal).unwrap();
    let line = text.lines().position(|l| !l.contains("classes=0,0,0,0") && l.starts_with("id=")).unwrap() + 1;
    forge_journal_line(&journal, line, |b| {
        let (head, rest) = b.split_once(" classes=").unwrap();
        let (classes, tail) = rest.split_once(' ').unwrap();
        let mut c: Vec<u128> = classes.split(',').map(|x| x.parse().unwrap()).collect();
        c[0] += 1;
        format!("{head} classes={},{},{},{} {tail}", c[0], c[1], c[2], c[3])
    });
    resume_refused(
        &["count", "12", "--algorithm", "d4", "--checkpoint", j],
        &journal,
        &format!("line {line} is corrupt: subproblem "),
    );
    let err = nqueens(&["count", "12", "--algorithm", "d4", "--checkpoint", j]).output().unwrap().stderr;
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains(" cannot be those of ") && err.contains("; the file was left untouched"), "{err}");
}

#[test]
fn a_journal_of_another_algorithm_is_named_as_such() {
    // Issue 15: a d4 run pointed at a join journal said "split depth 0 is out of range".
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("q.journal");
    let j = journal.to_str().unwrap();
    nqueens(&["count", "13", "--algorithm", "join", "--checkpoint", j]).assert().success();
    resume_refused(
        &["count", "13", "--algorithm", "d4", "--checkpoint", j],
        &journal,
        "belongs to another run (algorithm join in the journal, d4 in this command",
    );
}

#[test]
fn a_resumed_run_says_how_much_came_from_the_journal() {
    // Issue 14: a resumed run did not say how much came from the journal.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("q14.journal");
    let j = journal.to_str().unwrap();
    let args = [
        "count",
        "14",
        "--algorithm",
        "mirror",
        "--split-depth",
        "4",
        "--checkpoint",
        j,
        "--format",
        "bfile",
    ];
    nqueens(&args).assert().success().stdout("14 365596\n").stderr("");
    // Keep the header and the first 1,685 subproblems, as a stopped run leaves them.
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(
        text.starts_with("nqueens-journal 1 n=14 algorithm=mirror split_depth=4 subproblems=4816 "),
        "{text:.120}"
    );
    let kept: String = text.split_inclusive('\n').take(1 + 1_685).collect();
    std::fs::write(&journal, kept).unwrap();
    nqueens(&args)
        .assert()
        .success()
        .stdout("14 365596\n")
        .stderr(format!("nqueens: resumed 1,685 of 4,816 subproblems from {j}\n"));
    // Everything recorded: nothing is resumed, the journal is only added up.
    nqueens(&args).assert().success().stdout("14 365596\n").stderr("");
}

/// Returns the 1-based number of the first journal line whose solutions are not 0.
fn first_nonzero_line(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().position(|l| l.starts_with("id=") && !l.contains(" solutions=0 ")).unwrap() + 1
}

/// Adds `d` to the solutions of a journal line's body.
fn more_solutions(body: &str, d: u128) -> String {
    let (head, rest) = body.split_once(" solutions=").unwrap();
    let (v, tail) = rest.split_once(' ').unwrap();
    format!("{head} solutions={} {tail}", v.parse::<u128>().unwrap() + d)
}

#[test]
fn impossible_journal_lines_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("t.j");
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]).assert().success();
    // A CRC-valid line with + 1 (14,201 printed, exit 0).
    let line = first_nonzero_line(&j);
    forge_journal_line(&j, line, |b| more_solutions(b, 1));
    let before = std::fs::read(&j).unwrap();
    let (code, stdout, stderr) = run(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "nqueens: error: checkpoint {} line {line} is corrupt: subproblem ",
            s(&j)
        )),
        "{stderr}"
    );
    assert!(stderr.contains(" solutions are not a multiple of 2, the weight of every solution it counts; the file was left untouched: `--repair` writes the lines that pass every check"), "{stderr}");
    assert_eq!(std::fs::read(&j).unwrap(), before);
    // + 2 passes the line's checks; the whole count is then not Q(12): refused, untouched.
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j), "--repair"]).assert().success();
    std::fs::rename(dir.path().join("t.j.repaired"), &j).unwrap();
    nqueens(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]).assert().success();
    let line = first_nonzero_line(&j);
    forge_journal_line(&j, line, |b| more_solutions(b, 2));
    let before = std::fs::read(&j).unwrap();
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "mirror", "--checkpoint", s(&j)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the count is inconsistent: 14202 solutions of n = 12, but Q(12) = 14200 (OEIS A000170); a line of the journal was forged or damaged (each passes every check one line allows); the file was left untouched"), "{stderr}");
    assert_eq!(std::fs::read(&j).unwrap(), before);
}

#[test]
fn a_forged_line_is_named_before_anything_is_appended_and_repair_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.j");
    nqueens(&["count", "12", "--algorithm", "join", "--checkpoint", s(&full)]).assert().success();
    let header = std::fs::read_to_string(&full).unwrap().lines().next().unwrap().to_string();
    // The journal: the header and one CRC-valid forged line (471 lines appended, then
    // "left untouched", exit 2, every rerun the same).
    let f = dir.path().join("f.j");
    let body = "id=5 solutions=1 classes=0,0,0,0 nodes=-";
    let text = format!("{header}\n{body} crc32={:08x}\n", crc32fast::hash(body.as_bytes()));
    std::fs::write(&f, &text).unwrap();
    for _ in 0..2 {
        let (code, stdout, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&f)]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "nqueens: error: checkpoint {0} line 2 is corrupt: subproblem 5: its 1 solutions are not a multiple of 4, the weight of every solution it counts; the file was left untouched: `--repair` writes the lines that pass every check (recounting them if need be) to {0}.repaired\n",
                s(&f)
            )
        );
        assert_eq!(std::fs::read_to_string(&f).unwrap(), text, "nothing appended");
    }
    // --repair writes the good lines (none here) next to it, and names the bad one.
    let (code, stdout, stderr) =
        run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&f), "--repair"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let repaired = dir.path().join("f.j.repaired");
    assert_eq!(
        stderr,
        format!(
            "nqueens: checkpoint {0} line 2 dropped: subproblem 5: its 1 solutions are not a multiple of 4, the weight of every solution it counts\n\
             nqueens: checkpoint {0}: kept 0 of 1 lines in {1}, dropped 1; {0} itself is unchanged: move {1} over it to resume from the kept lines\n",
            s(&f),
            s(&repaired)
        )
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
    assert_eq!(std::fs::read_to_string(&repaired).unwrap(), format!("{header}\n"));
    // A line that passes its own checks (+ 8) in a journal of 100 lines:
    // the run appends the rest, then says which lines are to blame; --repair recounts and
    // drops that one; the resume gives Q(12).
    let partial = dir.path().join("p.j");
    let full_text = std::fs::read_to_string(&full).unwrap();
    let kept: Vec<&str> = full_text.lines().take(101).collect();
    std::fs::write(&partial, kept.join("\n") + "\n").unwrap();
    let line = first_nonzero_line(&partial);
    // + 8: a multiple of every unit's weight, and a whole number of classes by Burnside.
    forge_journal_line(&partial, line, |b| more_solutions(b, 8));
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&partial)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("; one of the 100 lines it held before this run (lines 2 to 101) was forged or damaged (each passes every check one line allows); this run appended 372 lines, counted here: `--repair`"),
        "{stderr}"
    );
    let (code, _, stderr) =
        run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&partial), "--repair"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("its lines cover every subproblem but add up to an impossible count (14208 solutions of n = 12, but Q(12) = 14200 (OEIS A000170)): recounted its 472 subproblems"), "{stderr}");
    assert!(
        stderr.contains(&format!("line {line} dropped: subproblem ")) && stderr.contains(" recounts to "),
        "{stderr}"
    );
    assert!(stderr.contains("kept 471 of 472 lines"), "{stderr}");
    std::fs::rename(dir.path().join("p.j.repaired"), &partial).unwrap();
    let (code, stdout, stderr) =
        run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&partial), "--format", "bfile"]);
    assert_eq!((code, stdout.as_str()), (0, "12 14200\n"), "{stderr}");
}

#[test]
fn the_journal_fixes_the_algorithm() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("au.j");
    // `auto` took the join; stopped, the hint names it.
    let child = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["count", "18", "--checkpoint", s(&j), "-j", "1", "--progress", "never"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&j).map_or(0, |t| t.lines().count()) < 3 {
        assert!(start.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: a plain system call on this test's own child or process, with pointers to live locals.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr
            .trim_end()
            .ends_with(&format!("--checkpoint {} -j 1 --progress never --algorithm join", s(&j))),
        "{stderr}"
    );
    // Issue 40: it said "run the same command again", then showed one with a flag added.
    assert!(
        stderr.contains("; to resume, run this (the journal fixes the algorithm auto chose): ")
            && !stderr.contains("the same command"),
        "{stderr}"
    );
    // Under a Slurm limit where `auto` would take d4, the journal's join is kept: refused (it
    // does not fit), naming the journal, the file untouched.
    let before = std::fs::read(&j).unwrap();
    let out = nqueens(&["count", "18", "--checkpoint", s(&j), "-j", "1"])
        .env("SLURM_MEM_PER_NODE", "12")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.starts_with(&format!("nqueens: error: checkpoint {} was written by the join algorithm (its lines are join units), which does not fit here: it needs about ", s(&j))), "{stderr}");
    assert_eq!(std::fs::read(&j).unwrap(), before);
    // Where it fits, the same command resumes to Q(18).
    let (code, stdout, stderr) = run(&["count", "18", "--checkpoint", s(&j), "-j", "2", "--format", "bfile"]);
    assert_eq!((code, stdout), (0, format!("18 {}\n", oeis::A000170.get(18).unwrap())), "{stderr}");
    // A d4 journal resumed with `auto` (which would take the join) keeps d4.
    let d4 = dir.path().join("d4.j");
    std::fs::write(&d4, "").unwrap();
    nqueens(&["count", "13", "--algorithm", "d4", "--checkpoint", s(&d4)]).assert().success();
    let (code, stdout, stderr) = run(&["count", "13", "--checkpoint", s(&d4), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"solutions\":73712") && stdout.contains("\"algorithm\":\"d4\""), "{stdout}");
}

/// Issue 23, finding 12: a CRLF journal was refused with two equal CRCs shown; the \r is named
/// now, and --repair converts it.
#[test]
fn a_crlf_journal_is_named_and_repair_converts_it() {
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("crlf.j");
    nqueens(&["count", "12", "--algorithm", "join", "--checkpoint", s(&j)]).assert().success();
    let lf = std::fs::read_to_string(&j).unwrap();
    std::fs::write(&j, lf.replace('\n', "\r\n")).unwrap();
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&j)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("line 1 is corrupt: bad header: it ends in a carriage return (\\r): the journal was converted to CRLF line ends"),
        "{stderr}"
    );
    assert!(!stderr.contains('\r'));
    let (code, _, stderr) = run(&["count", "12", "--algorithm", "join", "--checkpoint", s(&j), "--repair"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("kept 472 of 472 lines in ")
            && stderr
                .contains("(473 lines, the header included, without the \\r of CRLF line ends), dropped 0"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("crlf.j.repaired")).unwrap(), lf);
}
