//! The cluster recipes without a cluster: `scripts/parallel-shards.sh` under GNU parallel for
//! real (progress, Ctrl-C, resume), and the tasks and merge of `scripts/slurm-shards.sh` run by
//! hand (`slurm.rs` runs them under a real Slurm).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{self, entries, s, scratch};

/// True if GNU parallel is here (else says so on stderr: the test is skipped).
fn parallel_here() -> bool {
    let here =
        Command::new("parallel").arg("--version").stdout(Stdio::null()).status().is_ok_and(|s| s.success());
    if !here {
        eprintln!("note: GNU parallel is not installed; skipping the recipe test (apt-get install parallel)");
    }
    here
}

#[test]
fn the_parallel_recipe_runs_for_real() {
    if !parallel_here() {
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
    if !parallel_here() {
        return;
    }
    let dir = scratch("parallel-stop");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/parallel-shards.sh");
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    // n = 17 by the mirror search: about 9 s on 2 cores, so the SIGINT at 1.5 s meets both
    // shards running (at n = 16 a quiet machine finished them first).
    let args = [
        "17",
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
    // SAFETY: setsid(2), signal(2), sigemptyset(3) and sigprocmask(2) are async-signal-safe; the
    // child leads a process group of its own with SIGINT and SIGTERM at their defaults and no
    // signal blocked, as a terminal's foreground job does (inherited from a test process whose
    // other threads spawn children of their own, a SIGINT ignored or blocked at the shell's start
    // cannot be trapped: in two runs of the whole suite the script never saw the Ctrl-C and
    // reported parallel's exit 255 as failed shards).
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
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
    // The command it names resumes from the journals: Q(17) = 95,815,104 (A000170).
    let again = Command::new("bash").arg(script).args(args).output().unwrap();
    let again_err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{again_err}");
    assert_eq!(String::from_utf8_lossy(&again.stdout), "17 95815104\n");
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
