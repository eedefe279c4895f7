//! Long runs end to end: checkpoint journals survive kill -9 and signals and resume to the exact
//! count; damaged or foreign journals are refused untouched; shards merge to the direct count and
//! incomplete or mixed shard sets are refused; the recipes in scripts/ run for real.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::common::{nqueens, usage_error};

/// Q(n) from OEIS A000170 (tests/data/b000170.txt).
fn q(n: u32) -> u128 {
    common::bfile("b000170.txt").into_iter().find(|&(m, _)| m == n).expect("n is in the b-file").1
}

/// A fresh, empty folder for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-long-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args` to completion and returns the solutions of its one JSON line.
fn json_count(args: &[&str]) -> u128 {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = nqueens(&all).assert().success().get_output().clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["solutions"].as_u64().unwrap() as u128
}

/// Starts the binary with `args` in the background.
pub(crate) fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
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

/// The journal's complete lines after the header (a torn last line is not counted).
pub(crate) fn entries(journal: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    text.split_inclusive('\n').filter(|l| l.ends_with('\n')).skip(1).map(str::to_string).collect()
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

/// Runs every shard of `n` in `k` shards into `dir` and returns the result files.
fn run_shards(dir: &Path, n: u32, k: usize, checkpoint: bool) -> Vec<PathBuf> {
    (0..k)
        .map(|i| {
            let out = dir.join(format!("n{n}-k{k}-s{i}.json"));
            let journal = dir.join(format!("n{n}-k{k}-s{i}.journal"));
            let shard = format!("{i}/{k}");
            let mut args =
                vec!["count".to_string(), n.to_string(), "--shard".into(), shard, "-j".into(), "2".into()];
            args.extend(["--output".into(), s(&out).to_string()]);
            if checkpoint {
                args.extend(["--checkpoint".into(), s(&journal).to_string()]);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            nqueens(&args).assert().success().stdout("");
            out
        })
        .collect()
}

fn merge_args<'a>(files: &'a [PathBuf], extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| s(f)));
    args.extend(extra);
    args
}

#[test]
fn shards_merge_to_the_direct_count() {
    let dir = scratch("shards");
    for n in [8, 11, 13] {
        for k in [1, 2, 3, 7] {
            let files = run_shards(&dir, n, k, k == 3);
            let out = nqueens(&merge_args(&files, &["--format", "bfile", "--verify"])).assert().success();
            out.stdout(format!("{n} {}\n", q(n)));
        }
    }
    // Each shard result holds what the issue asks for.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("n13-k7-s3.json")).unwrap()).unwrap();
    for key in [
        "n",
        "algorithm",
        "shard",
        "shards",
        "covers",
        "solutions",
        "checksum",
        "seconds",
        "threads",
        "version",
    ] {
        assert!(!v[key].is_null(), "{key} is missing: {v}");
    }
    assert_eq!((v["n"].as_u64(), v["shard"].as_u64(), v["shards"].as_u64()), (Some(13), Some(3), Some(7)));
    assert!(v["checksum"].as_str().unwrap().starts_with("crc32:"));
    // The shard's JSON goes to stdout without --output.
    let out = nqueens(&["count", "9", "--algorithm", "d4", "--shard", "0/1"])
        .assert()
        .success()
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solutions"], 352);
    // A resumed shard gives the same result.
    let again = run_shards(&dir, 13, 3, true);
    let out = nqueens(&merge_args(&again, &["--format", "json"])).assert().success().get_output().clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solutions"].as_u64().unwrap() as u128, q(13));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// K up to 10^6: a shard of K = 10^6 runs; K above the plan's subproblems (the join has 38
/// units at n = 8) leaves the shards past them empty, each writing a result that merges; a
/// folder of results, or a list of them (a file or standard input), merges as the files do.
#[test]
fn a_million_shards_parse_empty_shards_merge_and_merge_reads_folders_and_lists() {
    let dir = scratch("manyshards");
    for (shard, covered) in [("3/1000000", 1), ("999999/1000000", 0)] {
        let out = nqueens(&["count", "12", "--shard", shard]).assert().success().get_output().stdout.clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            (v["shards"].as_u64(), v["covers"]["count"].as_u64()),
            (Some(1_000_000), Some(covered)),
            "{v}"
        );
    }
    let k = 50;
    let folder = dir.join("results");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..k {
        let out = folder.join(format!("shard-{i}.json"));
        nqueens(&["count", "8", "-j", "1", "--shard", &format!("{i}/{k}"), "--output", s(&out)])
            .assert()
            .success();
    }
    let empty = std::fs::read_to_string(folder.join("shard-45.json")).unwrap();
    assert!(empty.contains(r#""covers":{"count":0,"#) && empty.contains(r#""solutions":0,"#), "{empty}");
    let total = |args: &[&str], stdin: Option<String>| {
        let mut cmd = nqueens(args);
        if let Some(text) = stdin {
            cmd.write_stdin(text);
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(total(&["merge", s(&folder), "--format", "bfile"], None), "8 92\n");
    let names: String =
        (0..k).map(|i| format!("{}\n", folder.join(format!("shard-{i}.json")).display())).collect();
    let list = dir.join("list");
    std::fs::write(&list, &names).unwrap();
    assert_eq!(total(&["merge", "--files-from", s(&list), "--format", "bfile", "--verify"], None), "8 92\n");
    assert_eq!(
        total(&["merge", "--files-from", "-", "--format", "bfile", "--audit", "1"], Some(names)),
        "8 92\n"
    );
    // A shard missing from the folder is named, as with files.
    std::fs::remove_file(folder.join("shard-45.json")).unwrap();
    let out = nqueens(&["merge", s(&folder)]).assert().code(1).get_output().stderr.clone();
    assert!(String::from_utf8_lossy(&out).contains("missing shard(s) 45/50"));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn merge_fails(args: &[&str], messages: &[&str]) {
    let out = nqueens(args).assert().code(1).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for m in messages {
        assert!(err.contains(m), "{err:?} lacks {m:?}");
    }
}

#[test]
fn merge_refuses_missing_duplicate_and_mismatched_shards() {
    let dir = scratch("merge");
    let k3 = run_shards(&dir, 10, 3, false);
    let k2 = run_shards(&dir, 10, 2, false);
    let n11 = run_shards(&dir, 11, 3, false);
    merge_fails(&merge_args(&k3[..2], &[]), &["cannot merge: missing shard(s) 2/3"]);
    // One file named twice is refused as it is read (issue 32); a copy of it under another
    // name is the merger's to find.
    crate::common::usage_error(
        &merge_args(&[k3[0].clone(), k3[0].clone()], &[]),
        &format!("the shard result {} is named twice: give each shard's result once", s(&k3[0])),
    );
    let copy = |f: &std::path::PathBuf| {
        let c = f.with_extension("copy.json");
        std::fs::copy(f, &c).unwrap();
        c
    };
    merge_fails(
        &merge_args(&[k3[0].clone(), copy(&k3[0])], &[]),
        &["missing shard(s) 1-2/3 (2 of 3)", "shard 0/3 is given 2 times"],
    );
    let dup = [k3.clone(), vec![copy(&k3[1])]].concat();
    merge_fails(&merge_args(&dup, &[]), &["shard 1/3 is given 2 times"]);
    let mixed_n = vec![k3[0].clone(), k3[1].clone(), n11[2].clone()];
    merge_fails(
        &merge_args(&mixed_n, &[]),
        &[&format!("{} has n = 11 but {} has 10", s(&n11[2]), s(&k3[0]))],
    );
    let mixed_k = vec![k3[0].clone(), k2[1].clone(), k3[2].clone()];
    merge_fails(&merge_args(&mixed_k, &[]), &["has K = 2 but", "has 3"]);
    // A changed count breaks the checksum.
    let text = std::fs::read_to_string(&k3[1]).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sol = v["solutions"].as_u64().unwrap();
    let tampered = dir.join("tampered.json");
    std::fs::write(
        &tampered,
        text.replace(&format!("\"solutions\":{sol}"), &format!("\"solutions\":{}", sol + 1)),
    )
    .unwrap();
    merge_fails(&merge_args(&[k3[0].clone(), tampered, k3[2].clone()], &[]), &["checksum mismatch"]);
    // A result whose subproblems are other ones than the plan gives its shard (same number, a
    // recomputed checksum: another partition), a newer format, and the old format 1 (a list of
    // ids), which is still read.
    use nqueens_runs::merge::{Covers, ShardResult};
    let read =
        |p: &PathBuf| -> ShardResult { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let write = |name: &str, r: &ShardResult| {
        let path = dir.join(name);
        std::fs::write(&path, serde_json::to_string(r).unwrap()).unwrap();
        path
    };
    let mut other = read(&k3[1]);
    let count = other.covers.as_ref().unwrap().count;
    other.covers = Some(Covers::of(&(0..count).collect::<Vec<_>>()));
    other.checksum = other.compute_checksum();
    let other = write("other.json", &other);
    merge_fails(
        &merge_args(&[k3[0].clone(), other.clone(), k3[2].clone()], &[]),
        &[&format!("{} (shard 1/3) covers other subproblems than the shard plan gives it", s(&other))],
    );
    let mut newer = read(&k3[2]);
    newer.format_version = 5;
    let newer = write("newer.json", &newer);
    merge_fails(
        &merge_args(&[k3[0].clone(), k3[1].clone(), newer], &[]),
        &["is not a shard result of format nqueens-shard 1 to 4 (it says nqueens-shard 5)"],
    );
    let plan = nqueens_runs::shard::shard_spec(nqueens::Algorithm::Join, 10, 3).build().unwrap();
    let old: Vec<PathBuf> = nqueens_runs::shard::assign(plan.as_ref(), 3)
        .into_iter()
        .enumerate()
        .map(|(i, ids)| {
            let mut r = read(&k3[i]);
            assert_eq!(r.algorithm, "join");
            r.format_version = 1;
            r.covers = None;
            r.subtotals = None;
            r.host = None;
            r.ids = Some(ids);
            r.checksum = r.compute_checksum();
            write(&format!("v1-{i}.json"), &r)
        })
        .collect();
    nqueens(&merge_args(&old, &["--format", "bfile"])).assert().success().stdout(format!("10 {}\n", q(10)));
    // Unreadable or foreign files are usage errors.
    let out = nqueens(&["merge", s(&dir.join("absent.json"))]).assert().code(2).get_output().clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read shard result"));
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}").unwrap();
    let out = nqueens(&["merge", s(&junk)]).assert().code(2).get_output().clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a shard result"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn breakdown_lists_every_subproblem_with_its_prefix_and_counts() {
    let dir = scratch("breakdown");
    let csv = dir.join("q8.csv");
    nqueens(&[
        "count",
        "8",
        "--algorithm",
        "mirror",
        "--split-depth",
        "1",
        "--breakdown",
        s(&csv),
        "--format",
        "bfile",
    ])
    .assert()
    .success()
    .stdout("8 92\n");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["id", "prefix", "solutions", "orbit8", "orbit4", "orbit2", "orbit1", "nodes"]);
    // Solutions of n = 8 with the row-0 queen in columns 0..3: 4, 8, 16, 18, doubled by the mirror.
    let counted: Vec<(&str, &str, &str)> = rows[1..].iter().map(|r| (r[0], r[1], r[2])).collect();
    assert_eq!(counted, [("0", "0", "8"), ("1", "1", "16"), ("2", "2", "32"), ("3", "3", "36")]);
    assert!(rows[1..].iter().all(|r| r[7].parse::<u64>().unwrap() > 0), "nodes are counted");
    // Issue 14: the mirror computes no symmetry classes: its orbit cells are empty, not 0.
    assert!(rows[1..].iter().all(|r| r[3..7] == ["", "", "", ""]), "{text}");
    // Nor does the join per subproblem (its classes come from Burnside for a whole count).
    let join_csv = dir.join("q10-join.csv");
    nqueens(&["count", "10", "--algorithm", "join", "--breakdown", s(&join_csv), "--format", "bfile"])
        .assert()
        .success()
        .stdout("10 724\n");
    let text = std::fs::read_to_string(&join_csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert!(!rows.is_empty() && rows.iter().all(|r| r.len() == 8 && r[3..7] == ["", "", "", ""]), "{text}");
    let total: u64 = rows.iter().map(|r| r[2].parse::<u64>().unwrap()).sum();
    assert_eq!(total, 724);
    // A shard's breakdown covers the shard's subproblems; the journal's too after a resume.
    let journal = dir.join("q11.journal");
    let shard_csv = dir.join("q11-s1.csv");
    for _ in 0..2 {
        nqueens(&[
            "count",
            "11",
            "--algorithm",
            "d4",
            "--shard",
            "1/2",
            "--checkpoint",
            s(&journal),
            "--breakdown",
            s(&shard_csv),
        ])
        .assert()
        .success();
    }
    let shard: serde_json::Value = serde_json::from_slice(
        &nqueens(&["count", "11", "--algorithm", "d4", "--shard", "1/2"])
            .assert()
            .success()
            .get_output()
            .stdout,
    )
    .unwrap();
    let text = std::fs::read_to_string(&shard_csv).unwrap();
    let ids: Vec<u64> = text.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
    // The shard result names its subproblems by count and CRC; the plan gives the ids.
    let plan = nqueens_runs::shard::shard_spec(nqueens::Algorithm::D4, 11, 2).build().unwrap();
    let want = nqueens_runs::shard::assign(plan.as_ref(), 2).swap_remove(1);
    let covers = nqueens_runs::merge::Covers::of(&want);
    assert_eq!(shard["covers"]["count"].as_u64(), Some(covers.count as u64));
    assert_eq!(shard["covers"]["ids_crc32"].as_str(), Some(covers.ids_crc32.as_str()));
    assert_eq!(ids, want.iter().map(|&i| i as u64).collect::<Vec<_>>());
    let total: u64 = text.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, shard["solutions"].as_u64().unwrap());
    // d4 classifies each subproblem's solutions: its orbit cells are numbers.
    let orbits: u64 = text
        .lines()
        .skip(1)
        .flat_map(|l| l.split(',').skip(3).take(4).map(|c| c.parse::<u64>().unwrap()).collect::<Vec<_>>())
        .sum();
    assert!(orbits > 0, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_long_run_options() {
    usage_error(
        &["count", "12", "--algorithm", "d4", "--shard", "3/3"],
        "shard '3/3' is out of range: use I/K with 0 <= I < K",
    );
    usage_error(
        &["count", "12", "--algorithm", "d4", "--shard", "x"],
        "shard 'x' is not of the form I/K: use e.g. 0/16",
    );
    usage_error(
        &["count", "12", "--algorithm", "d4", "--shard", "1/0"],
        "shard '1/0' has K = 0 shards: use I/K with K >= 1",
    );
    usage_error(&["count", "12", "--algorithm", "d4", "--shard=-1/4"], "shard '-1/4' is not of the form I/K");
    usage_error(
        &["count", "10..12", "--algorithm", "d4", "--checkpoint", "j"],
        "--checkpoint, --shard and --breakdown count one board size, not '10..12': run one command per n",
    );
    usage_error(
        &["count", "10", "--algorithm", "d4", "11", "--shard", "0/2"],
        "count one board size, not '10 11'",
    );
    usage_error(
        &["count", "10", "--algorithm", "d4", "--output", "o.json"],
        "the following required arguments were not provided: --shard",
    );
    for long in
        [["--shard", "0/2"], ["--checkpoint", "never-made.journal"], ["--breakdown", "never-made.csv"]]
    {
        let args = ["count", "10", "--algorithm", "d4", "--stats", long[0], long[1]];
        usage_error(&args, "--stats describes one whole run, not --checkpoint, --shard or --breakdown");
        assert!(!Path::new(long[1]).exists(), "{} was written", long[1]);
    }
    usage_error(
        &["count", "10", "--algorithm", "d4", "--shard", "0/2", "--verify"],
        "--verify checks a whole count, not one shard",
    );
    usage_error(&["merge"], "the following required arguments were not provided: <FILES>...");
    usage_error(&["merge", "x.json", "--format", "xml"], "unknown format 'xml'");
}

#[test]
fn the_parallel_recipe_runs_for_real() {
    if Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .map(|s| !s.success())
        .unwrap_or(true)
    {
        eprintln!("note: GNU parallel is not installed; skipping the recipe test (apt-get install parallel)");
        return;
    }
    let dir = scratch("parallel");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/parallel-shards.sh");
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let run = |extra: &[&str]| {
        let out = Command::new("bash")
            .arg(script)
            .args([
                "12",
                "5",
                "-j",
                "2",
                "-d",
                s(&dir),
                "--nqueens",
                s(&bin),
                "--format",
                "bfile",
                "--verify",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(&[]), "12 14200\n");
    assert_eq!(std::fs::read_to_string(dir.join("joblog")).unwrap().lines().count(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
    // Issue 40: it printed nothing while it ran; it says the shards done of K and the time
    // left (every NQ_PROGRESS_EVERY seconds, 10 by default, when that changed), then this.
    let out = Command::new("bash")
        .arg(script)
        .args(["12", "5", "-j", "2", "-d", s(&dir), "--nqueens", s(&bin), "--format", "bfile"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).ends_with("parallel-shards.sh: 5 of 5 shards done; merging\n")
    );
    // A lost shard result is counted again from its journal, the others are skipped.
    std::fs::remove_file(dir.join("shard-2.json")).unwrap();
    let log = std::fs::read_to_string(dir.join("joblog")).unwrap();
    let kept: Vec<&str> = log.lines().filter(|l| !l.contains("--shard 2/5")).collect();
    std::fs::write(dir.join("joblog"), kept.join("\n") + "\n").unwrap();
    assert_eq!(run(&[]), "12 14200\n");
    assert!(dir.join("shard-2.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // On an OpenCL device (pocl's, where it is installed), each shard's result names it.
    let devices = common::nqueens(&["devices", "--format", "json"]).output().unwrap().stdout;
    let devices: serde_json::Value = serde_json::from_slice(&devices).unwrap();
    if devices["opencl"]["devices"].as_array().is_some_and(|d| !d.is_empty()) {
        assert_eq!(run(&["--device", "opencl"]), "12 14200\n");
        let shard: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("shard-0.json")).unwrap()).unwrap();
        assert_eq!(
            (&shard["devices"], &shard["algorithm"]),
            (&serde_json::json!(["opencl:0"]), &serde_json::json!("d4"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    } else {
        eprintln!(
            "note: no OpenCL device; the recipe's --device run is skipped (apt-get install pocl-opencl-icd)"
        );
    }
}

/// Issue 40: Ctrl-C on `scripts/parallel-shards.sh` exited 255 with no hint. SIGINT to its
/// process group (what a terminal's Ctrl-C sends) stops every shard at its journal, exits 130
/// and prints the command that resumes; that command finishes the count.
#[test]
fn the_parallel_recipe_stops_on_ctrl_c_with_130_and_says_how_to_resume() {
    use std::os::unix::process::CommandExt;
    if Command::new("parallel").arg("--version").stdout(Stdio::null()).status().map_or(true, |s| !s.success())
    {
        eprintln!("note: GNU parallel is not installed; skipping the recipe test (apt-get install parallel)");
        return;
    }
    let dir = scratch("parallel-stop");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/parallel-shards.sh");
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let args = [
        "16",
        "2",
        "-j",
        "2",
        "--algorithm",
        "mirror",
        "-d",
        s(&dir),
        "--nqueens",
        s(&bin),
        "--format",
        "bfile",
    ];
    let mut cmd = Command::new("bash");
    cmd.arg(script).args(args).env("NQ_PROGRESS_EVERY", "1").stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: setsid(2) is async-signal-safe; the child leads a process group of its own, as a
    // terminal's foreground job does.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    let start = Instant::now();
    while entries(&dir.join("shard-0.journal")).is_empty() || start.elapsed() < Duration::from_millis(1500) {
        assert!(start.elapsed() < Duration::from_secs(30), "no shard started journaling");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to the process group this test started.
    assert_eq!(unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.starts_with("parallel-shards.sh: 0 of 2 shards done (0 in this run, 0:00:0"), "{stderr}");
    let resume = format!(
        "parallel-shards.sh: stopped by SIGINT: 0 of 2 shards are done, the others keep their journals in {}; run \
         the same command again to resume: {script} {}\n",
        s(&dir),
        args.join(" ")
    );
    assert!(stderr.ends_with(&resume), "{stderr}");
    assert_eq!(out.stdout, b"");
    // The command it names resumes from the journals: Q(16) = 14,772,512 (A000170).
    let again = Command::new("bash").arg(script).args(args).output().unwrap();
    let again_err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{again_err}");
    assert_eq!(String::from_utf8_lossy(&again.stdout), "16 14772512\n");
    assert!(again_err.contains("nqueens: resumed "), "{again_err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_slurm_recipe_tasks_and_merge_run_without_slurm() {
    let dir = scratch("slurm");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm-shards.sh");
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    // Shards 0 and 1 as tasks 0 and 1 of a first array, shard 2 as task 0 of a second array
    // (NQ_OFFSET 2: arrays of at most 2 tasks).
    for (offset, task) in [(0, 0), (0, 1), (2, 0)] {
        let status = Command::new("bash")
            .args([script, "task"])
            .env("NQ_N", "11")
            .env("NQ_K", "3")
            .env("NQ_DIR", s(&dir))
            .env("NQ_BIN", s(&bin))
            .env("NQ_OFFSET", offset.to_string())
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env_remove("SLURM_ARRAY_JOB_ID")
            .status()
            .unwrap();
        assert!(status.success());
    }
    for i in 0..3 {
        let log = std::fs::read_to_string(dir.join(format!("task-{i}.log"))).unwrap();
        assert!(log.contains(&format!("task {i}/3: finished on ")), "{log}");
    }
    let out = Command::new("bash")
        .args([script, "merge"])
        .env("NQ_N", "11")
        .env("NQ_K", "3")
        .env("NQ_DIR", s(&dir))
        .env("NQ_BIN", s(&bin))
        .env("NQ_AUDIT", "0.5")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("2680"));
    assert!(
        stderr.contains("audit of 3 shard result(s) at fraction 0.5") && stderr.contains("all agree"),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(dir.join("result.txt")).unwrap().contains("yes"));
    for help in ["scripts/slurm-shards.sh", "scripts/parallel-shards.sh"] {
        let out = Command::new("bash")
            .arg(format!("{}/{help}", env!("CARGO_MANIFEST_DIR")))
            .arg("--help")
            .output()
            .unwrap();
        assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).starts_with("Usage:"), "{help}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Board sizes 36..=63 with the default algorithm (d4) once panicked while building the plan
/// (more row events than a constellation had room for): a shard result for n = 40, checksummed
/// but covering no subproblem, must be refused with exit 1 after the plan is built, not panic.
#[test]
fn merge_builds_the_d4_plan_of_large_boards() {
    use nqueens::Classes;
    use nqueens_runs::merge::{SHARD_FORMAT, SHARD_FORMAT_VERSION, ShardResult};
    let dir = scratch("large-n");
    let mut r = ShardResult {
        format: SHARD_FORMAT.into(),
        format_version: SHARD_FORMAT_VERSION,
        n: 40,
        algorithm: "d4".into(),
        split_depth: 1,
        subproblems: 0,
        shard: 0,
        shards: 1,
        covers: Some(nqueens_runs::merge::Covers::of(&[])),
        ids: None,
        solutions: 0,
        classes: Classes::default(),
        nodes: None,
        seconds: 0.0,
        threads: 1,
        devices: None,
        version: env!("CARGO_PKG_VERSION").into(),
        subtotals: None,
        host: None,
        checksum: String::new(),
    };
    r.checksum = r.compute_checksum();
    let path = dir.join("s0.json");
    std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
    let out = nqueens(&["merge", s(&path)]).assert().code(1).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("subproblems"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
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

/// Reads the child's stderr line by line on a thread and returns what came within `limit`
/// (then kills the child).
fn stderr_for(args: &[&str], limit: Duration) -> Vec<(Duration, String)> {
    use std::io::BufRead;
    let mut child = spawn(args);
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send((start.elapsed(), line)).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Some(left) = limit.checked_sub(start.elapsed()) {
        match rx.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    lines
}

/// Issue 15: `count 26/30/63` printed nothing for minutes even with `--progress always` (the
/// bar moved only when a subproblem ended). Now the bar is there within a second (while the
/// plan is built, too), moves, and a run estimated over a minute says its estimate.
#[test]
fn large_boards_show_progress_and_an_estimate_within_seconds() {
    let lines = stderr_for(
        &["count", "30", "--algorithm", "d4", "-j", "1", "--progress", "always"],
        Duration::from_secs(6),
    );
    let text: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    assert!(
        lines.first().is_some_and(|(t, l)| *t < Duration::from_secs(2) && l.starts_with("n=30 ")),
        "{text:?}"
    );
    // Plain lines (stderr is a pipe): the fraction done moves from line to line.
    let running: Vec<&str> =
        text.iter().copied().filter(|l| l.starts_with("n=30 ") && l.contains(" ETA ")).collect();
    assert!(running.len() >= 3, "{text:?}");
    let fraction = |l: &str| l.split(' ').nth(1).unwrap().trim_end_matches('%').parse::<f64>().unwrap();
    assert!(fraction(running[running.len() - 1]) > fraction(running[0]), "{running:?}");
    assert!(running.iter().all(|l| l.contains("/1382395 ")), "{running:?}");
    let estimate: Vec<&str> = text.iter().copied().filter(|l| l.starts_with("nqueens: ")).collect();
    assert_eq!(estimate.len(), 1, "{text:?}");
    assert!(
        estimate[0].starts_with("nqueens: n = 30 will take about ")
            && estimate[0].ends_with(" years on 1 thread (estimated from its first 2 s)"),
        "{text:?}"
    );
    // While the plan of n = 63 is built (seconds): a spinner line at once.
    let lines = stderr_for(
        &["count", "63", "--algorithm", "d4", "-j", "1", "--progress", "always"],
        Duration::from_millis(1500),
    );
    assert!(
        lines.first().is_some_and(
            |(t, l)| *t < Duration::from_secs(1) && l.starts_with("n=63 building the plan 00:00:0")
        ),
        "{lines:?}"
    );
    // Without a bar (auto, stderr not a terminal) the estimate is still said, alone.
    let lines = stderr_for(&["count", "30", "--algorithm", "d4", "-j", "1"], Duration::from_secs(4));
    let text: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    assert!(text.len() == 1 && text[0].starts_with("nqueens: n = 30 will take about "), "{text:?}");
}
