//! The study scripts of scripts/, end to end on tiny sizes. The plots drawn from their CSVs are
//! tested in the plot tool's crate (crates/plot/tests/), from CSVs these scripts wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name)
}

fn run(name: &str, args: &[&str], out: &Path) -> Output {
    Command::new("bash")
        .arg(script(name))
        .args(args)
        .env("OUT", out)
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .env("MAX_THREADS", "3")
        .output()
        .unwrap()
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let width = r.headers().unwrap().len();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            assert_eq!(rec.len(), width, "ragged row in {}", path.display());
            rec.iter().map(str::to_string).collect()
        })
        .collect()
}

#[test]
fn scaling_threads_writes_long_format_csv_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = run("scaling-threads.sh", &["9", "2"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = dir.path().join("scaling-threads.csv");
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 3 * 2, "threads 1..=3, 2 repeats");
    let cpus = std::thread::available_parallelism().unwrap().get().to_string();
    assert!(rows.iter().all(|r| r[11] == cpus), "the cores column is the machine's logical CPUs");
    for row in &rows {
        // date,host,cpu_model,n,threads,algorithm,repeat,seconds,nodes,solutions,efficiency
        assert_eq!(row[3], "9");
        assert_eq!(row[9], "352", "A000170(9)");
        assert!(row[7].parse::<f64>().unwrap() >= 0.0);
        assert!(row[8].parse::<u64>().unwrap() > 0);
    }
    // Nodes do not depend on the thread count.
    assert!(rows.iter().all(|r| r[8] == rows[0][8]));
    // Issue 40: rounds of every thread count, one thread first; the speedup is over the one-thread
    // run of the same round (1 at one thread by construction, where the binary's CPU/wall
    // efficiency said 1.02–1.05), and a run of a few milliseconds is said to measure noise.
    let order: Vec<(&str, &str)> = rows.iter().map(|r| (r[6].as_str(), r[4].as_str())).collect();
    assert_eq!(order, [("1", "1"), ("1", "2"), ("1", "3"), ("2", "1"), ("2", "2"), ("2", "3")]);
    for row in &rows {
        let (threads, seconds): (f64, f64) = (row[4].parse().unwrap(), row[7].parse().unwrap());
        let base: f64 = rows.iter().find(|r| r[6] == row[6] && r[4] == "1").unwrap()[7].parse().unwrap();
        let (speedup, efficiency): (f64, f64) = (row[12].parse().unwrap(), row[13].parse().unwrap());
        assert!((speedup - base / seconds).abs() < 1e-3 * speedup.max(1.0), "{row:?}");
        assert!((efficiency - speedup / threads).abs() < 1e-3, "{row:?}");
        if threads == 1.0 {
            assert_eq!((row[12].as_str(), row[13].as_str()), ("1.0000", "1.0000"));
        }
    }
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("under 2 s the study measures noise more than scaling")
    );
}

#[test]
fn scaling_n_writes_growth_factors_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = run("scaling-n.sh", &["4", "9", "2"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = dir.path().join("scaling-n.csv");
    let rows = csv_rows(&csv);
    // Two repeats of each n (column `repeat`), the growth against the same repeat of n - 1.
    let solutions: Vec<&str> = rows.iter().map(|r| r[8].as_str()).collect();
    assert_eq!(solutions, ["2", "2", "10", "10", "4", "4", "40", "40", "92", "92", "352", "352"]);
    let repeats: Vec<&str> = rows.iter().map(|r| r[11].as_str()).collect();
    assert_eq!(repeats, ["1", "2"].repeat(6));
    assert_eq!((rows[0][10].as_str(), rows[1][10].as_str()), ("", ""), "no growth for the first n");
    let g: f64 = rows[11][10].parse().unwrap();
    assert!(g > 1.0, "nodes grow with n: {g}");
}

#[test]
fn studies_refuse_to_append_to_a_csv_of_another_layout() {
    let dir = tempfile::tempdir().unwrap();
    let old = "date,host,cpu_model,n,threads,algorithm,seconds,nodes,solutions,seconds_growth,nodes_growth\n";
    std::fs::write(dir.path().join("scaling-n.csv"), old).unwrap();
    let out = run("scaling-n.sh", &["4", "5"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has another header (an older layout): use a new OUT folder"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("scaling-n.csv")).unwrap(), old, "file untouched");
}

#[test]
fn compare_reference_builds_the_c_counter_and_prints_ratios() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(script("compare-reference.sh"))
        .args(["10", "1"])
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // One block for 1 thread and one for all CPUs, each ending in a ratio.
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("ratio nqueens/C (median of pairs): ").count(), 2, "{text}");
    assert!(text.contains("== threads=1:"), "{text}");
}

#[test]
fn scripts_reject_bad_arguments_with_code_2() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args, message) in [
        ("scaling-threads.sh", vec!["x"], "N 'x' is not an integer"),
        ("scaling-threads.sh", vec!["8", "0"], "REPEATS '0' is not a positive integer"),
        ("scaling-n.sh", vec!["9", "4"], "range 9..4 is reversed"),
        ("scaling-n.sh", vec!["a", "4"], "must be integers"),
        ("scaling-n.sh", vec!["4", "5", "0"], "REPEATS '0' is not a positive integer"),
        ("compare-reference.sh", vec!["x"], "N 'x' is not a board size in 1..31"),
        ("compare-reference.sh", vec!["32"], "N '32' is not a board size in 1..31"),
        ("public-items.sh", vec!["no-such-commit"], "public-items.sh: 'no-such-commit' is not a commit"),
        ("public-items.sh", vec!["a", "b"], "usage: scripts/public-items.sh [--internals] COMMIT"),
        ("join-frontier.sh", vec!["a", "b"], "usage: scripts/join-frontier.sh [--sample S]"),
        ("join-frontier.sh", vec!["--sample", "0", "a", "b", "22"], "--sample takes whole seconds, got '0'"),
        ("join-frontier.sh", vec!["/no/such", "/bin/true", "22"], "'/no/such' is not an executable"),
        ("join-frontier.sh", vec!["/bin/true", "/bin/true", "30"], "N must be 8..29, got '30'"),
        ("gpu-tune.sh", vec!["/no/such"], "gpu-tune.sh: no binary at /no/such"),
        ("gpu-bench.sh", vec!["/no/such"], "gpu-bench.sh: no binary at /no/such"),
    ] {
        let out = run(name, &args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(message), "{name} {args:?}");
    }
    for name in ["scaling-threads.sh", "scaling-n.sh", "compare-reference.sh", "eta-error.sh"] {
        let out = run(name, &["--help"], dir.path());
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("Usage:"));
    }
}

/// scripts/join-vs-kluev.sh end to end on tiny boards: the CSV (one row per run, ours and the
/// yardstick alternating) and its two plots. The yardstick here is a stand-in script that
/// prints Kluev's output format with the known counts (his real counter needs the anchors of
/// shared/, outside a clone); the figures in results/ come from his real build.
#[test]
fn join_vs_kluev_writes_long_format_csv_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let stand_in = dir.path().join("kluev.sh");
    std::fs::write(
        &stand_in,
        "#!/bin/sh\n[ \"${KLUEV_BUILD_ONLY:-0}\" = 1 ] && exit 0\ncase $1 in 8) q=92;; 9) q=352;; esac\n\
         [ $# -ge 4 ] && q=1\necho \"Result: $q\"\necho \"Elapsed time: 0.01 s\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&stand_in, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = Command::new("bash")
        .arg(script("join-vs-kluev.sh"))
        .args(["--runs", "2", "--isa", "portable", "8:1", "9:1:2:0"])
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .env("KLUEV", &stand_in)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = dir.path().join("vs.csv");
    std::fs::write(&csv, &out.stdout).unwrap();
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 8, "2 specs × 2 runs × 2 programs");
    let programs: Vec<(&str, &str)> = rows.iter().map(|r| (r[8].as_str(), r[9].as_str())).collect();
    assert_eq!(programs, [("nqueens", "portable"), ("kluev", "native")].repeat(4));
    // Our whole count of n = 8 is Q(8); part 0 of 2 of n = 9 is part of Q(9).
    assert_eq!((rows[0][13].as_str(), rows[1][13].as_str()), ("92", "92"));
    let part: u64 = rows[4][13].parse().unwrap();
    assert!(part > 0 && part < 352, "a part: {part}");
    // --kluev-avx2 adds his build without AVX-512 to every round.
    let out = Command::new("bash")
        .arg(script("join-vs-kluev.sh"))
        .args(["--isa", "portable", "--kluev-avx2", "8:1"])
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .env("KLUEV", &stand_in)
        .env("TMPDIR", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let programs: Vec<&str> = text.lines().skip(1).map(|l| l.split(',').nth(8).unwrap()).collect();
    assert_eq!(programs, ["nqueens", "kluev", "kluev-noavx512"], "{text}");
    assert!(text.lines().last().unwrap().contains(",kluev-noavx512,no-avx512,"), "{text}");
    // A level this processor lacks stops the study before any timing, with our message.
    let out = Command::new("bash")
        .arg(script("join-vs-kluev.sh"))
        .args(["--isa", "neon", "8:1"])
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .env("KLUEV", &stand_in)
        .output()
        .unwrap();
    if !nqueens::arch::Isa::Neon.is_available() {
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("instruction-set level neon needs"), "{out:?}");
    }
}

/// The ETA study on a count of a few seconds: one row per bar line, the ETA shown against the
/// time left, and a summary row per run (a run too short for a bar line says so).
#[test]
fn eta_error_compares_the_bars_eta_with_the_time_left() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(script("eta-error.sh"))
        .args(["mirror:16", "join:9"])
        .env("OUT", dir.path())
        .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
        .env("THREADS", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("join:9: no bar line with an ETA"), "{err}");
    let lines = csv_rows(&dir.path().join("eta-error.csv"));
    assert!(lines.len() >= 2, "{lines:?}");
    for row in &lines {
        // command, algorithm, n, threads; then elapsed, percent, ETA, time left, errors.
        assert_eq!(
            row[4..8],
            ["nqueens count 16 --algorithm mirror -j 1 --progress always", "mirror", "16", "1"]
        );
        let left: f64 = row[12].parse().unwrap();
        let error: f64 = row[13].parse().unwrap();
        assert!(left > 0.0 && error >= -1.0, "{row:?}");
    }
    let summary = csv_rows(&dir.path().join("eta-error-summary.csv"));
    assert_eq!(summary.len(), 2, "{summary:?}");
    assert_eq!(
        (summary[0][5].as_str(), summary[1][5].as_str(), summary[1][9].as_str()),
        ("mirror", "join", "0")
    );
    let bad = run("eta-error.sh", &["mirror16"], dir.path());
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'mirror16' is not ALGORITHM:N"));
}

#[test]
fn reproduce_oeis_writes_both_b_files_equal_to_the_known_values() {
    let dir = tempfile::tempdir().unwrap();
    let out = run("reproduce-oeis.sh", &["9"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let a = std::fs::read_to_string(dir.path().join("b000170.txt")).unwrap();
    assert_eq!(a, "0 1\n1 1\n2 0\n3 0\n4 2\n5 10\n6 4\n7 40\n8 92\n9 352\n");
    let u = std::fs::read_to_string(dir.path().join("b002562.txt")).unwrap();
    assert_eq!(u, "1 1\n2 0\n3 0\n4 1\n5 2\n6 1\n7 6\n8 12\n9 46\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("A000170: 10 values equal") && text.contains("A002562: 9 values equal"), "{text}");

    // A wrong binary (here: one that prints a wrong b-file) makes the script fail with 1.
    let fake = dir.path().join("fake-nqueens");
    std::fs::write(&fake, "#!/bin/sh\nprintf '0 1\\n1 1\\n2 1\\n'\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let bad = Command::new("bash")
        .arg(script("reproduce-oeis.sh"))
        .arg("2")
        .env("OUT", dir.path())
        .env("NQUEENS", &fake)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("DIFFERS"));
    assert_eq!(run("reproduce-oeis.sh", &["x"], dir.path()).status.code(), Some(2));
}

/// scripts/plan-coverage.sh on tiny boards: one row per plan with its intervals, the median of
/// the counts as the CPU truth, A000170 as the solutions' truth (n = 10 is counted whole by
/// each plan: its solutions interval holds every time), and the summary per n; bad arguments
/// are refused with code 2 and a message naming them.
#[test]
fn plan_coverage_checks_the_intervals_against_counts_and_a000170() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(script("plan-coverage.sh"))
        .args(["--sample", "0.2", "--seeds", "2", "--counts", "1", "--cpu-max", "10", "--out"])
        .arg(dir.path())
        .args(["--bin", env!("CARGO_BIN_EXE_nqueens"), "10", "11"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = csv_rows(&dir.path().join("coverage.csv"));
    assert_eq!(rows.len(), 4, "2 boards × 2 seeds");
    for (row, (n, seed)) in rows.iter().zip([("10", "1"), ("10", "2"), ("11", "1"), ("11", "2")]) {
        // date,host,cpu,bin,n,seed,sample_s,threads,sampled,cpu_s,cpu_low,cpu_high,count_cpu_s,
        // cpu_held,solutions,solutions_low,solutions_high,known,solutions_held,plan_wall_s,other_load
        assert_eq!((row[4].as_str(), row[5].as_str()), (n, seed));
        let (low, est, high): (f64, f64, f64) =
            (row[10].parse().unwrap(), row[9].parse().unwrap(), row[11].parse().unwrap());
        assert!(low <= est && est <= high, "{row:?}");
        assert_eq!(row[17], if n == "10" { "724" } else { "2680" });
    }
    // n = 10 is timed (--cpu-max 10), 11 is not; n = 10's solutions are exact in each plan.
    assert!(rows[0][12].parse::<f64>().unwrap() > 0.0 && ["0", "1"].contains(&rows[0][13].as_str()));
    assert_eq!((rows[2][12].as_str(), rows[2][13].as_str()), ("", ""));
    assert_eq!((rows[0][14].as_str(), rows[0][18].as_str(), rows[1][18].as_str()), ("724", "1", "1"));
    assert_eq!(csv_rows(&dir.path().join("counts.csv")).len(), 1);
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(summary.contains("| 10 | 2 | ") && summary.contains(" | 2/2 |"), "{summary}");
    for (args, message) in [
        (vec!["--seeds", "0", "10"], "--seeds takes a positive integer, got '0'"),
        (vec!["--sample", "soon", "10"], "--sample takes seconds (a number), got 'soon'"),
        (vec!["--cpu-max", "x", "10"], "--cpu-max takes a board size, got 'x'"),
        (vec!["--fast", "10"], "unknown option '--fast'"),
        (vec!["ten"], "board size 'ten' is not an integer"),
        (vec![], "usage: scripts/plan-coverage.sh"),
    ] {
        let out = Command::new("bash").arg(script("plan-coverage.sh")).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(message), "{args:?}: {out:?}");
    }
    let help = Command::new("bash").arg(script("plan-coverage.sh")).arg("--help").output().unwrap();
    assert!(help.status.success() && String::from_utf8_lossy(&help.stdout).contains("95% intervals"));
}

/// Issue 41: run with defaults, a study wrote results/<date>-<host>/ into the checkout (and
/// then the results index test failed). The default is target/studies/<date>-<host>/ now: the
/// scripts run from a copy of scripts/ (and the b-files they diff against) in a folder of their
/// own, as from a checkout, leave its results/ untouched.
#[test]
fn studies_write_under_target_by_default_not_into_results() {
    let root = tempfile::tempdir().unwrap();
    let copy = |from: &str| {
        let to = root.path().join(from);
        std::fs::create_dir_all(&to).unwrap();
        for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(from)).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    };
    copy("scripts");
    copy("tests/data");
    std::fs::create_dir(root.path().join("results")).unwrap();
    for (name, args, file) in [
        ("reproduce-oeis.sh", vec!["6"], "b000170.txt"),
        ("scaling-n.sh", vec!["4", "6"], "scaling-n.csv"),
        ("scaling-threads.sh", vec!["6", "1"], "scaling-threads.csv"),
    ] {
        let out = Command::new("bash")
            .arg(root.path().join("scripts").join(name))
            .args(&args)
            .env_remove("OUT")
            .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
            .env("MAX_THREADS", "1")
            .env("THREADS", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let studies = root.path().join("target/studies");
        let folders: Vec<_> = std::fs::read_dir(&studies).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(folders.len(), 1, "{name}: {folders:?}");
        assert!(folders[0].join(file).is_file(), "{name}: no {file} in {}", folders[0].display());
        assert_eq!(
            std::fs::read_dir(root.path().join("results")).unwrap().count(),
            0,
            "{name} wrote into results/"
        );
    }
}
