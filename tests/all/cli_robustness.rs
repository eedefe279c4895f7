//! Bad and extreme inputs found by trying to break the CLI: each gets a one-line message and exit
//! code 2, and no file that is not ours is replaced.

use crate::common;
use crate::common::SmallDisk;

use crate::common::{nqueens, under_address_limit, usage_error};
use predicates::prelude::*;
use std::os::unix::fs::FileTypeExt;

#[test]
fn thread_counts_are_bounded() {
    usage_error(&["count", "8", "-j", "100000"], "thread count 100000 is too large: use 1..=4096");
    usage_error(&["count", "8", "-j", "18446744073709551616"], "is too large: use 1..=4096");
    usage_error(&["solve", "8", "-j", "5000"], "thread count 5000 is too large: use 1..=4096");
}

#[test]
fn shard_counts_are_bounded() {
    usage_error(&["count", "10", "--shard", "0/1000001"], "has too many shards: use I/K with K <= 1000000");
    usage_error(&["count", "10", "--shard", "1000000/1000000"], "is out of range: use I/K with 0 <= I < K");
    usage_error(&["count", "10", "--shard", "5/0"], "has K = 0 shards");
    usage_error(&["count", "10", "--shard", "5"], "is not of the form I/K");
    usage_error(&["count", "10", "--shard", "0/18446744073709551615"], "has too many shards");
}

#[test]
fn a_checkpoint_or_shard_result_must_be_a_regular_file() {
    usage_error(&["count", "10", "--checkpoint", "/dev/zero"], "checkpoint /dev/zero is not a regular file");
    usage_error(&["merge", "/dev/zero"], "/dev/zero is not a shard result of `nqueens count --shard`");
    let dir = tempfile::tempdir().unwrap();
    usage_error(&["merge", dir.path().to_str().unwrap()], "holds no shard result (no *.json file)");
    // A list of shard results that cannot be read, names nothing, or names a folder without any.
    let missing = dir.path().join("nolist");
    usage_error(
        &["merge", "--files-from", missing.to_str().unwrap()],
        "cannot read the list of shard results",
    );
    let empty = dir.path().join("empty.list");
    std::fs::write(&empty, "\n\n").unwrap();
    usage_error(&["merge", "--files-from", empty.to_str().unwrap()], "names no file");
    let list = dir.path().join("dirs.list");
    std::fs::write(&list, format!("{}\n", dir.path().display())).unwrap();
    // The folder holds the lists, but no *.json file.
    usage_error(&["merge", "--files-from", list.to_str().unwrap()], "holds no shard result (no *.json file)");
    usage_error(&["merge"], "the following required arguments were not provided");
}

/// Found by a newcomer: `count 19 --shard 0/4 --output /nonexist/x.json` ran the whole shard and
/// lost it when writing; a result's folder is checked before any work (the count would take
/// minutes here: a refusal in under a second shows no work was done).
#[test]
fn an_output_folder_that_cannot_be_written_is_refused_before_any_work() {
    for flag in ["--output", "--breakdown"] {
        let start = std::time::Instant::now();
        usage_error(
            &["count", "19", "--shard", "0/4", flag, "/nonexist/x.json"],
            &format!(
                "{flag} /nonexist/x.json: the folder /nonexist does not exist: give a path in an existing folder"
            ),
        );
        // Not even root may create a file in /proc.
        usage_error(
            &["count", "19", "--shard", "0/4", flag, "/proc/x.json"],
            &format!("{flag} /proc/x.json: cannot create a file in /proc ("),
        );
        // A folder (a second tester: the count ran, then "Is a directory").
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        usage_error(
            &["count", "19", "--shard", "0/4", flag, d],
            &format!("{flag} {d} is a folder: give the path of a file (new or to replace)"),
        );
        // A symbolic link is written through to its target: the target's folder is checked.
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("missing/x.json", &link).unwrap();
        usage_error(
            &["count", "19", "--shard", "0/4", flag, link.to_str().unwrap()],
            &format!("the folder {d}/missing does not exist: give a path in an existing folder"),
        );
        std::fs::remove_file(&link).unwrap();
        assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
    }
    // A device or a pipe is refused since issue 32 (`--output /dev/null` lost the result):
    // `--output /dev/stdout` on a pipe, here; on a file, tests/all/break_it_3.rs.
    usage_error(
        &["count", "8", "--shard", "0/2", "--output", "/dev/stdout"],
        "--output /dev/stdout is not a regular file (a device, a pipe or a socket): give the path of a file",
    );
}

/// Found by a tester: with a long-run flag, `auto` settled for one thread, so a Slurm job whose
/// memory fits the join's table and one thread's buffers but not `-j 4` threads' was refused
/// ("too large for --algorithm join here") instead of counting with d4 as a plain count does.
#[test]
fn auto_with_a_long_run_flag_counts_every_threads_memory() {
    // 16 MB: 3/4 of it holds the n = 16 table and one thread's buffers (5.2 MiB), not four's.
    let out = nqueens(&["count", "16", "-j", "4", "--shard", "0/4"])
        .env("SLURM_MEM_PER_NODE", "16")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#""algorithm":"d4""#), "{text}");
    let out = nqueens(&["count", "16", "-j", "1", "--shard", "0/4"])
        .env("SLURM_MEM_PER_NODE", "16")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out).unwrap().contains(r#""algorithm":"join""#));
}

/// Found by a newcomer: a negative shard was "unexpected argument '-1' found", a bad seed
/// "invalid digit found in string", neither saying what is accepted.
#[test]
fn a_negative_shard_or_a_bad_seed_says_what_is_accepted() {
    usage_error(
        &["count", "12", "--shard", "-1/3"],
        "shard '-1/3' is not of the form I/K: use e.g. 0/16 (0 <= I < K)",
    );
    let accepted = "is not a whole number 0..=18446744073709551615";
    usage_error(&["plan", "12", "--seed", "-5"], &format!("seed '-5' {accepted}"));
    usage_error(
        &["plan", "12", "--seed", "18446744073709551616"],
        &format!("seed '18446744073709551616' {accepted}"),
    );
    usage_error(&["merge", "x.json", "--audit", "0.1", "--seed", "abc"], &format!("seed 'abc' {accepted}"));
}

#[test]
fn one_path_for_two_outputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x");
    let p = p.to_str().unwrap();
    usage_error(
        &["count", "10", "--shard", "0/2", "--checkpoint", p, "--output", p],
        "--checkpoint and --output name the same file",
    );
    usage_error(
        &["count", "10", "--checkpoint", p, "--breakdown", p],
        "--checkpoint and --breakdown name the same file",
    );
    assert!(!dir.path().join("x").exists(), "nothing was written");
}

#[test]
fn outputs_write_through_links_and_refuse_devices() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.json");
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    nqueens(&["count", "10", "--shard", "0/2", "--output", link.to_str().unwrap()]).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(std::fs::read_to_string(&target).unwrap().contains("\"shard\""));
    // A device is refused before any work, and stays a device (as root, a rename would have
    // replaced /dev/null by a file; written in place, the result was lost: issue 32).
    usage_error(
        &["count", "10", "--shard", "1/2", "--output", "/dev/null"],
        "--output /dev/null is not a regular file (a device, a pipe or a socket)",
    );
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

#[test]
fn no_arguments_prints_the_help_and_exits_2() {
    let out = nqueens(&[]).assert().code(2).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Usage: nqueens <COMMAND>") && err.contains("count"), "{err}");
}

#[test]
fn large_boards_start_counting_without_a_panic() {
    // n = 36..=63 once overflowed d4's per-row event table; merge of such a shard must not panic
    // either. Counting n = 40 cannot finish in a test: check that the plan builds (the library).
    for n in [36u32, 40, 63] {
        let spec = nqueens::plan::PlanSpec::new(nqueens::Algorithm::D4, n);
        let plan = nqueens::plan::PlanSpec { split_depth: Some(1), threads: 2, ..spec }.build().unwrap();
        assert!(!plan.is_empty(), "n = {n}");
    }
}

#[test]
fn a_split_depth_that_makes_too_many_subproblems_is_refused() {
    usage_error(
        &["count", "20", "--algorithm", "mirror", "--split-depth", "8"],
        "split depth 8 makes more than 4194304 subproblems at n = 20: use a smaller depth (or none)",
    );
    usage_error(
        &["count", "40", "--algorithm", "d4", "--split-depth", "16"],
        "split depth 16 makes more than 4194304 subproblems at n = 40",
    );
    usage_error(
        &[
            "count",
            "20",
            "--algorithm",
            "mirror",
            "--split-depth",
            "8",
            "--checkpoint",
            "/tmp/nqueens-never-written.journal",
        ],
        "makes more than 4194304 subproblems",
    );
}

#[test]
fn check_stops_reading_an_endless_line() {
    usage_error(&["check", "/dev/zero"], "line 1: cannot tell the format from '\\u{0}\\u{0}");
}

#[test]
fn join_shards_and_checkpoints_keep_the_fundamental_solutions() {
    // The join's subproblems do not classify; the whole count gets its classes by Burnside.
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..3 {
        let f = dir.path().join(format!("s{i}.json"));
        nqueens(&[
            "count",
            "13",
            "--algorithm",
            "join",
            "--shard",
            &format!("{i}/3"),
            "--output",
            f.to_str().unwrap(),
        ])
        .assert()
        .success();
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--verify", "--format", "bfile", "--sequence", "unique"];
    args.extend(files.iter().map(String::as_str));
    nqueens(&args).assert().success().stdout("13 9233\n");
    let journal = dir.path().join("q.journal");
    nqueens(&["count", "14", "--checkpoint", journal.to_str().unwrap(), "--verify", "--format", "json"])
        .assert()
        .success()
        .stdout(
            predicates::str::contains(r#""unique":45752"#)
                .and(predicates::str::contains(r#""algorithm":"join""#)),
        );
}

#[test]
fn merge_of_mirror_shards_refuses_the_unique_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m0.json");
    nqueens(&["count", "10", "--algorithm", "mirror", "--shard", "0/1", "--output", f.to_str().unwrap()])
        .assert()
        .success();
    usage_error(
        &["merge", f.to_str().unwrap(), "--format", "bfile", "--sequence", "unique"],
        "--sequence unique needs fundamental solutions, which --algorithm mirror does not count: use auto, d4 or join",
    );
    nqueens(&["merge", f.to_str().unwrap(), "--format", "bfile"]).assert().success().stdout("10 724\n");
}

#[test]
fn conventions_of_fd_and_ripgrep() {
    // A board size where a subcommand belongs: the count command it probably meant.
    usage_error(
        &["8"],
        "unrecognized subcommand '8': to count the solutions of board size 8, use 'nqueens count 8'",
    );
    usage_error(&["1..5"], "use 'nqueens count 1..5'");
    usage_error(&["completions", "tcsh"], "invalid value 'tcsh' for '<SHELL>'");
    // Completions name every subcommand and option.
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        nqueens(&["completions", shell]).assert().success().stdout(
            predicate::str::contains("count")
                .and(predicate::str::contains("checkpoint"))
                .and(predicate::str::contains("completions")),
        );
    }
    // -V is the short version; --version adds the commit and the instruction-set levels this
    // processor runs, best first.
    nqueens(&["-V"]).assert().success().stdout("nqueens 0.1.0\n");
    let best = nqueens::arch::Level::best().isa().name();
    nqueens(&["--version"]).assert().success().stdout(
        predicate::str::starts_with("nqueens 0.1.0 (commit ")
            .and(predicate::str::contains(format!(
                "Instruction-set levels this processor runs, best first (--isa):\n  {best} "
            )))
            .and(predicate::str::contains("\n  portable  nothing beyond the target's baseline")),
    );
    // Help is wrapped to the terminal (100 columns when it is no terminal).
    let help = nqueens(&["--help"]).assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(help).unwrap().lines().all(|l| l.chars().count() <= 100), "help lines wrap");
}

/// Counts `n` in `k` shards with `extra` arguments and returns the result files.
fn shard_files(dir: &std::path::Path, n: u32, k: usize, extra: &[&str]) -> Vec<std::path::PathBuf> {
    (0..k)
        .map(|i| {
            let f = dir.join(format!("s{i}.json"));
            let mut args = vec!["count".to_string(), n.to_string(), "--shard".into(), format!("{i}/{k}")];
            args.extend(["--output".to_string(), f.to_str().unwrap().to_string()]);
            args.extend(extra.iter().map(|a| a.to_string()));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            nqueens(&args).assert().success();
            f
        })
        .collect()
}

/// Rewrites the shard result at `path` with `edit` and a recomputed checksum, as a forger would
/// who also drops the subtotals that would give the edit away (format 2; tests/all/audit.rs forges
/// subtotals too).
fn forge(path: &std::path::Path, edit: impl FnOnce(&mut nqueens_runs::merge::ShardResult)) {
    let mut r: nqueens_runs::merge::ShardResult =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    r.subtotals = None;
    r.format_version = 2;
    edit(&mut r);
    r.checksum = r.compute_checksum();
    std::fs::write(path, serde_json::to_string(&r).unwrap()).unwrap();
}

/// Runs `merge files`, expecting exit 1 and one line on stderr containing `message`, and no
/// file changed.
fn merge_refused(files: &[std::path::PathBuf], message: &str) {
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = nqueens(&args).assert().code(1).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(message), "{err:?} lacks {message:?}");
    let after: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(before == after, "a shard result was changed");
}

#[test]
fn forged_shard_sums_and_fields_are_refused() {
    // Issue 15: a shard with a recomputed checksum and solutions = 2^128 - 1000 merged to
    // 11,844,946 (exit 0).
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 15, 3, &[]);
    let pristine: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let restore = || {
        for (f, b) in files.iter().zip(&pristine) {
            std::fs::write(f, b).unwrap();
        }
    };
    forge(&files[1], |r| r.solutions = u128::MAX - 999);
    merge_refused(&files, "s1.json: adding its solutions to the other shards' overflows 128 bits");
    restore();
    // Issue 15: threads = 2^64 - 1 in two shards wrapped to 1; seconds 1e308 or -5 passed.
    forge(&files[0], |r| r.threads = usize::MAX);
    forge(&files[2], |r| r.threads = usize::MAX);
    merge_refused(&files, &format!("s2.json: threads = {} is out of range 1..=4096", usize::MAX));
    restore();
    forge(&files[0], |r| r.seconds = -5.0);
    merge_refused(&files, "s0.json: seconds = -5 is not a finite number >= 0");
    restore();
    forge(&files[0], |r| r.seconds = 1e308);
    forge(&files[1], |r| r.seconds = 1e308);
    merge_refused(&files, "the shards' seconds add up to inf, not a finite number");
    restore();
    // The honest merge: threads the most any shard used (each ran with -j 2... or the CPUs),
    // seconds rounded to microseconds.
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = nqueens(&args).assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["solutions"], 2279184);
    let max_threads = pristine
        .iter()
        .map(|b| serde_json::from_slice::<serde_json::Value>(b).unwrap()["threads"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(v["threads"].as_u64(), Some(max_threads));
    let seconds = v["seconds"].to_string();
    assert!(seconds.split('.').nth(1).is_none_or(|d| d.len() <= 6), "seconds {seconds}");

    // Issue 15: a d4 shard with orbit8 + 1 or 2^128 - 1 merged (unique wrapped to 1,481,059).
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 15, 3, &["--algorithm", "d4"]);
    forge(&files[0], |r| r.classes.orbit8 += 1);
    merge_refused(&files, "the shards' sum is inconsistent: 8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 = 8·");
    forge(&files[0], |r| r.classes.orbit8 = u128::MAX);
    merge_refused(&files, "overflows 128 bits");

    // Issue 15: a join shard's solutions + 1 silently turned unique and classes into null.
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 13, 2, &["--algorithm", "join"]);
    forge(&files[1], |r| r.solutions += 1);
    merge_refused(&files, " solutions are not a multiple of 2, as every subproblem's it covers is");
    // Issue 23: + 2 keeps it even, but not a whole number of classes (F180 = 136 at n = 13).
    forge(&files[1], |r| r.solutions += 1);
    merge_refused(
        &files,
        "73714 solutions of n = 13 are not a whole number of symmetry classes by Burnside's lemma",
    );
}

/// Rewrites line `line` (1-based) of the journal at `path` with `edit`, resealing its checksum.
fn forge_journal_line(path: &std::path::Path, line: usize, edit: impl FnOnce(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let body = lines[line - 1].rsplit_once(" crc32=").unwrap().0.to_string();
    let body = edit(&body);
    lines[line - 1] = format!("{body} crc32={:08x}", crc32fast::hash(body.as_bytes()));
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
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

/// Returns the names in `dir` that look like temporary files.
fn temp_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn six_concurrent_writers_to_one_output_leave_one_whole_result() {
    // Issue 15: six concurrent `count 15 --shard i/3 --output same.json` shared same.json.tmp;
    // in 2 of ~410 rounds the file ended as invalid JSON while all exited 0.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("same.json");
    let o = out.to_str().unwrap();
    for round in 0..20 {
        let children: Vec<std::process::Child> = (0..6)
            .map(|i| {
                std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
                    .args(["count", "11", "--shard", &format!("{}/3", i % 3), "-j", "1", "--output", o])
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success(), "round {round}");
        }
        let text = std::fs::read_to_string(&out).unwrap();
        let r: nqueens_runs::merge::ShardResult =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("round {round}: {e}: {text}"));
        assert_eq!(r.checksum, r.compute_checksum(), "round {round}");
        assert_eq!(temp_files(dir.path()), Vec::<String>::new(), "round {round}");
    }
}

#[test]
fn output_and_checkpoint_through_a_link_to_one_file_are_refused() {
    // Issue 15: `--checkpoint a.j --output link.j` with link.j -> a.j (not yet existing) let the
    // shard JSON overwrite the journal.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.j");
    let link = dir.path().join("link.j");
    std::os::unix::fs::symlink("a.j", &link).unwrap();
    usage_error(
        &[
            "count",
            "10",
            "--shard",
            "0/2",
            "--checkpoint",
            a.to_str().unwrap(),
            "--output",
            link.to_str().unwrap(),
        ],
        "--checkpoint and --output name the same file",
    );
    assert!(!a.exists(), "nothing was written");
    // The same with the journal there already: refused, the journal untouched.
    nqueens(&["count", "10", "--shard", "0/2", "--checkpoint", a.to_str().unwrap()]).assert().success();
    let before = std::fs::read(&a).unwrap();
    usage_error(
        &[
            "count",
            "10",
            "--shard",
            "0/2",
            "--output",
            link.to_str().unwrap(),
            "--checkpoint",
            a.to_str().unwrap(),
        ],
        "--checkpoint and --output name the same file",
    );
    // A hard link too.
    let hard = dir.path().join("hard.j");
    std::fs::hard_link(&a, &hard).unwrap();
    usage_error(
        &[
            "count",
            "10",
            "--shard",
            "0/2",
            "--checkpoint",
            a.to_str().unwrap(),
            "--output",
            hard.to_str().unwrap(),
        ],
        "--checkpoint and --output name the same file",
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);
}

#[test]
fn a_full_disk_leaves_no_temporary_file_and_no_torn_line() {
    let Some(disk) = SmallDisk::mount(64) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let d = disk.dir.path();
    // A shard result that does not fit: exit 1, one line, the old result and no temporary file.
    let out = d.join("out.json");
    std::fs::write(&out, "old\n").unwrap();
    let filler = d.join("filler");
    let mut fill = std::fs::File::create(&filler).unwrap();
    let _ = std::io::Write::write_all(&mut fill, &vec![0u8; 80 << 10]);
    drop(fill);
    let run = nqueens(&["count", "10", "--shard", "0/2", "--output", out.to_str().unwrap()])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(err.contains("writing shard result") && err.contains("No space left on device"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(temp_files(d), Vec::<String>::new());
    std::fs::remove_file(&filler).unwrap();

    // A journal that fills the disk: exit 1, the journal ends with a whole line; with room
    // again, the run resumes without a torn-line warning and gives the exact count.
    let journal = d.join("q.journal");
    let j = journal.to_str().unwrap();
    let run = nqueens(&["count", "12", "--algorithm", "d4", "--split-depth", "3", "--checkpoint", j])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(err.contains("No space left on device"), "{err}");
    let text = std::fs::read(&journal).unwrap();
    assert!(text.len() > 1000 && text.ends_with(b"\n"), "{} bytes", text.len());
    disk.resize(2048);
    nqueens(&[
        "count",
        "12",
        "--algorithm",
        "d4",
        "--split-depth",
        "3",
        "--checkpoint",
        j,
        "--format",
        "bfile",
    ])
    .assert()
    .success()
    .stdout("12 14200\n")
    .stderr(
        // One line: "nqueens: resumed N of M subproblems from …q.journal".
        predicate::function(|s: &str| {
            let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == ',');
            let Some(rest) = s.strip_prefix("nqueens: resumed ") else { return false };
            let words: Vec<&str> = rest.splitn(5, ' ').collect();
            matches!(words.as_slice(), [a, "of", b, "subproblems", from]
                if number(a) && number(b) && from.starts_with("from ") && from.ends_with("q.journal\n")
                    && from.matches('\n').count() == 1)
        }),
    );

    // Issue 15: a torn line left on a full disk was blamed on "a crash".
    std::fs::remove_file(&journal).unwrap();
    disk.resize(64);
    let run = nqueens(&["count", "12", "--algorithm", "d4", "--split-depth", "3", "--checkpoint", j])
        .assert()
        .code(1);
    drop(run);
    let mut f = std::fs::OpenOptions::new().append(true).open(&journal).unwrap();
    let _ = std::io::Write::write_all(&mut f, b"id=7 solut");
    drop(f);
    let mut fill = std::fs::File::create(&filler).unwrap();
    let _ = std::io::Write::write_all(&mut fill, &vec![0u8; 64 << 10]);
    drop(fill);
    let run = nqueens(&["count", "12", "--algorithm", "d4", "--split-depth", "3", "--checkpoint", j])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(
        err.contains("dropped a torn last line (")
            && err.contains(" bytes, a write cut short by a full disk: "),
        "{err}"
    );
    assert!(std::fs::read(&journal).unwrap().ends_with(b"\n"));
}

/// Runs `script` under bash with `$0` the nqueens binary; returns (exit code, stdout, stderr).
fn bash(script: &str) -> (i32, String, String) {
    let out = std::process::Command::new("bash")
        .args(["-c", script, env!("CARGO_BIN_EXE_nqueens")])
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[test]
fn a_closed_or_full_stream_is_an_error_not_a_panic() {
    // Issue 15: `count 99 2>/dev/full` panicked (exit 101): the usage error still exits 2.
    let (code, out, _) = bash(r#""$0" count 99 2>/dev/full"#);
    assert_eq!((code, out.as_str()), (2, ""));
    let (code, _, _) = bash(r#""$0" count 8 --checkpoint /dev/zero 2>/dev/full"#);
    assert_eq!(code, 2);
    // Issue 15: `--help >/dev/full` and `count 8 >&-` exited 0 with the output lost.
    let (code, _, err) = bash(r#""$0" --help >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the help: No space left on device (os error 28)\n")
    );
    let (code, _, err) = bash(r#""$0" --version >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the version: No space left on device (os error 28)\n")
    );
    let (code, _, err) = bash(r#""$0" count 8 >&-"#);
    assert_eq!((code, err.as_str()), (1, "nqueens: error: writing the result: standard output is closed\n"));
    let (code, _, err) = bash(r#""$0" --help >&-"#);
    assert_eq!((code, err.as_str()), (1, "nqueens: error: writing the help: standard output is closed\n"));
    let (code, _, err) = bash(r#""$0" count 8 >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the result: No space left on device (os error 28)\n")
    );
    let (code, _, err) = bash(r#""$0" plan 12 --sample-seconds 0 >/dev/full"#);
    assert_eq!(
        (code, err.as_str()),
        (1, "nqueens: error: writing the plan: No space left on device (os error 28)\n")
    );
    // The completions and the manual page too (clap_complete's generate panicked, exit 101).
    for (args, what) in [("completions bash", "the completions"), ("man", "the manual page")] {
        let (code, _, err) = bash(&format!(r#""$0" {args} >/dev/full"#));
        assert_eq!(
            (code, err.as_str()),
            (1, format!("nqueens: error: writing {what}: No space left on device (os error 28)\n").as_str())
        );
        let (code, out, err) = bash(&format!(r#"set -o pipefail; "$0" {args} | head -c 1"#));
        assert_eq!((code, out.len(), err.as_str()), (0, 1, ""), "{args}");
    }
    // A command that writes only files does not need stdout.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s.json");
    let (code, _, err) = bash(&format!(r#""$0" count 10 --shard 0/2 --output {} >&-"#, f.display()));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(std::fs::read_to_string(&f).unwrap().contains("nqueens-shard"));
    // A broken pipe still ends quietly with 0 (ripgrep).
    let (code, out, err) = bash(r#"set -o pipefail; "$0" --help | head -c 1; "$0" count 1..30 | head -c 1"#);
    assert_eq!((code, out.len(), err.as_str()), (0, 2, ""));
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

/// Issue 15: under `prlimit --as=...` the join at n = 24 and 25 aborted on a failed allocation
/// (SIGABRT, exit 134); it must refuse at once with one line and exit 2, before building anything.
#[test]
fn join_under_an_address_space_limit_refuses_with_exit_2_before_building() {
    // The per-thread buffers the message names (n = 24-25: quarter side 12).
    let per_thread = format!("× {} MiB", nqueens::algo::join::per_thread_bytes(12) >> 20);
    for n in ["24", "25"] {
        for j in ["1", "2"] {
            let (code, stdout, stderr, seconds) = under_address_limit(
                1_000_000_000,
                &["count", n, "--algorithm", "join", "--shard", "0/4096", "-j", j],
            );
            assert_eq!(code, Some(2), "n = {n} -j {j}: {stderr}");
            assert_eq!(stdout, "");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains(&format!("board size {n} is too large for --algorithm join here")),
                "{stderr}"
            );
            assert!(stderr.contains("under an address-space limit (ulimit -v) of 953 MiB"), "{stderr}");
            assert!(stderr.contains(&format!("{j} thread(s) {per_thread}")), "{stderr}");
            assert!(stderr.contains("use --algorithm d4, fewer threads (-j)"), "{stderr}");
            assert!(!stderr.contains("panicked") && !stderr.contains("memory allocation"), "{stderr}");
            assert!(seconds < 5.0, "refused after {seconds} s");
        }
        // Without --shard too.
        let (code, _, stderr, _) =
            under_address_limit(1_000_000_000, &["count", n, "--algorithm", "join", "-j", "1"]);
        assert_eq!(code, Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // Too many threads for the machine's memory: the per-thread buffers are counted.
    let (code, _, stderr, _) =
        under_address_limit(4_000_000_000, &["count", "24", "--algorithm", "join", "-j", "64"]);
    assert_eq!(code, Some(2), "{stderr}");
    // (At most 4 threads per logical CPU start since issue 40.)
    let threads = 64.min(4 * nqueens::plan::available_threads());
    assert!(stderr.contains(&format!("{threads} thread(s) {per_thread}")), "{stderr}");
}

/// A board that fits under the same limit still counts (Q(12) = 14,200, A000170).
#[test]
fn join_that_fits_under_an_address_space_limit_still_counts() {
    let (code, stdout, stderr, _) =
        under_address_limit(1_000_000_000, &["count", "12", "--algorithm", "join", "-j", "2"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("14200"), "{stdout}");
    let (code, stdout, stderr, _) = under_address_limit(
        1_000_000_000,
        &["count", "16", "--algorithm", "join", "--shard", "0/4", "-j", "2"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("\"solutions\""), "{stdout}");
}
