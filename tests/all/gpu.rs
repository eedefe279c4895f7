//! The GPU path end to end through the command line, on a real OpenCL device: pocl's CPU
//! device in CI (`.ci/run` installs `pocl-opencl-icd`), which runs the same kernel source
//! through the same launcher as a GPU. Each test that needs a device skips with a message
//! where OpenCL has none; the error paths run everywhere.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{self, nqueens, s, scratch, spawn, usage_error};

/// The journal's complete lines after the header.
fn entries(journal: &std::path::Path) -> usize {
    crate::common::entries(journal).len()
}

/// True if an OpenCL device is here (else says so on stderr: the test is skipped).
fn opencl_here() -> bool {
    let out = nqueens(&["devices", "--format", "json"]).assert().success().get_output().clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let here = v["opencl"]["devices"].as_array().is_some_and(|d| !d.is_empty());
    if !here {
        eprintln!("skipped: no OpenCL device here ({}); install pocl-opencl-icd", v["opencl"]["error"]);
    }
    here
}

/// The JSON lines `args` print.
fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = nqueens(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn opencl_counts_n_0_to_14_equal_oeis_with_their_classes() {
    if !opencl_here() {
        return;
    }
    // --verify checks the solutions (A000170), the fundamental solutions (A002562) and the
    // class breakdown by orbit size of every n.
    let lines = json_lines(&["count", "0..14", "--device", "opencl", "--verify", "--format", "json"]);
    assert_eq!(lines.len(), 15);
    let want = common::bfile("b000170.txt");
    for (n, v) in lines.iter().enumerate() {
        assert_eq!(v["verified"], true, "n = {n}: {v}");
        assert_eq!(v["device"], "opencl:0", "n = {n}");
        assert_eq!(v["algorithm"], "d4");
        assert_eq!(v["threads"], 0);
        assert_eq!(v["solutions"].as_u64().unwrap() as u128, want[n].1, "n = {n}");
    }
    // The classes of n = 13 by orbit size, from the GPU alone and from the CPU's d4 search.
    let cpu = json_lines(&["count", "13", "--algorithm", "d4", "--format", "json"]);
    assert_eq!(lines[13]["classes"], cpu[0]["classes"]);
    assert_eq!(lines[13]["unique"], 9233);
    assert_eq!(cpu[0]["device"], "cpu");
}

#[test]
fn the_cpu_threads_and_the_device_share_one_queue() {
    if !opencl_here() {
        return;
    }
    for depth in ["1", "3"] {
        let lines = json_lines(&[
            "count",
            "14",
            "--device",
            "opencl,cpu",
            "-j",
            "1",
            "--split-depth",
            depth,
            "--verify",
            "--format",
            "json",
            "--stats",
        ]);
        assert_eq!(lines[0]["solutions"], 365_596);
        assert_eq!(lines[0]["device"], "opencl:0,cpu");
        assert_eq!(lines[0]["threads"], 1);
        assert!(lines[0]["nodes"].as_u64().unwrap() > 0);
        // No parallel efficiency where a device's driver spends CPU time of its own.
        assert!(lines[0]["efficiency"].is_null(), "{}", lines[0]);
    }
    // The text table shows the device.
    let out = nqueens(&["count", "10", "--device", "opencl"]).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().next().unwrap().ends_with("device"), "{text}");
    assert!(text.lines().nth(1).unwrap().ends_with("opencl:0"), "{text}");
}

/// `NQUEENS_GPU_LOG` (issue 42, for tuning on a lent GPU): one line a run on standard error with
/// the launches, the tasks and the host's time, and nothing without it; the count is the same.
#[test]
fn the_launch_log_says_what_each_run_launched() {
    if !opencl_here() {
        return;
    }
    let out = nqueens(&["count", "13", "--device", "opencl", "--format", "plain"])
        .env("NQUEENS_GPU_LOG", "1")
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "73712");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line =
        stderr.lines().find(|l| l.starts_with("nqueens-gpu: n = 13, 7 free rows a task: ")).expect(&stderr);
    assert!(
        line.contains(" launches, ") && line.contains(" tasks in ") && line.contains("waiting on the device"),
        "{line}"
    );
    let quiet = nqueens(&["count", "13", "--device", "opencl", "--format", "plain"])
        .env_remove("NQUEENS_GPU_LOG")
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("nqueens-gpu:"));
}

#[test]
fn gpu_and_cpu_shards_merge_under_a_full_audit() {
    if !opencl_here() {
        return;
    }
    let dir = scratch("shards");
    let devices = ["opencl", "cpu", "opencl,cpu"];
    let files: Vec<PathBuf> = (0..3)
        .map(|i| {
            let out = dir.join(format!("s{i}.json"));
            let shard = format!("{i}/3");
            let mut args = vec!["count", "13", "--algorithm", "d4", "--shard", &shard, "--output", s(&out)];
            args.extend(["--device", devices[i]]);
            if devices[i] != "opencl" {
                args.extend(["-j", "1"]);
            }
            nqueens(&args).assert().success().stdout("");
            out
        })
        .collect();
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(v["devices"], serde_json::json!(["opencl:0"]));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[2]).unwrap()).unwrap();
    assert_eq!(v["devices"], serde_json::json!(["opencl:0", "cpu"]));
    let mut args = vec!["merge", "--audit", "1", "--seed", "7", "--verify", "--format", "json"];
    args.extend(files.iter().map(|f| s(f)));
    let lines = json_lines(&args);
    assert_eq!((lines[0]["solutions"].as_u64(), lines[0]["unique"].as_u64()), (Some(73_712), Some(9_233)));
    assert_eq!(lines[0]["verified"], true);
    // The merged count names every device the shards name.
    assert_eq!(lines[0]["device"], "cpu,opencl:0");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts `args` (a checkpointed device run whose journal is `journal`), sends `signal` (a
/// `kill -s` name) once the journal holds a subproblem, and returns the exit code and stderr.
fn stopped_once_journaling(args: &[&str], journal: &std::path::Path, signal: &str) -> (Option<i32>, String) {
    let child = spawn(args);
    let start = Instant::now();
    while entries(journal) == 0 {
        assert!(start.elapsed() < Duration::from_secs(30), "the run did not start journaling");
        std::thread::sleep(Duration::from_millis(10));
    }
    let ok = Command::new("kill").args(["-s", signal, &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_gpu_run_stopped_by_sigint_keeps_its_journal_and_resumes_exactly() {
    if !opencl_here() {
        return;
    }
    let dir = scratch("stop");
    let journal = dir.join("q16.journal");
    let args = [
        "count",
        "16",
        "--device",
        "opencl",
        "--split-depth",
        "3",
        "--checkpoint",
        s(&journal),
        "--progress",
        "never",
        "--format",
        "json",
    ];
    let (code, err) = stopped_once_journaling(&args, &journal, "INT");
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("stopped by SIGINT"), "{err}");
    assert!(err.contains("; to resume, run "), "{err}");
    let done = entries(&journal);
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(text.ends_with('\n'), "every line whole");
    let header = text.lines().next().unwrap();
    let total: usize =
        header.split(' ').find_map(|w| w.strip_prefix("subproblems=")).unwrap().parse().unwrap();
    assert!(done > 0 && done < total, "{done} of {total} recorded");
    // The same command resumes, on the device, to the exact count; then on the CPU, at once.
    let lines = json_lines(&args);
    assert_eq!(lines[0]["solutions"], 14_772_512);
    assert_eq!(lines[0]["unique"], 1_846_955);
    assert_eq!(entries(&journal), total);
    let mut cpu = args.to_vec();
    cpu[3] = "cpu";
    assert_eq!(json_lines(&cpu)[0]["solutions"], 14_772_512);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn devices_lists_what_is_here_and_says_why_an_api_has_none() {
    let out = nqueens(&["devices"]).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l.starts_with("cuda")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("opencl")), "{text}");
    let out = nqueens(&["devices", "--format", "json"]).assert().success().get_output().clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for api in ["cuda", "opencl"] {
        let devices = v[api]["devices"].as_array().unwrap();
        // Either devices, or the reason there are none.
        assert!(!devices.is_empty() || v[api]["error"].is_string(), "{v}");
        for d in devices {
            assert_eq!(d["id"], format!("{api}:{}", d["index"]));
        }
    }
}

#[test]
fn asking_for_a_device_that_is_not_there_is_one_line_and_exit_2() {
    // No CUDA driver on this machine (CI has none): the line names libcuda and how to get it.
    let cuda_here = nqueens(&["devices", "--format", "json"]).assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&cuda_here).unwrap();
    if v["cuda"]["devices"].as_array().unwrap().is_empty() {
        usage_error(&["count", "12", "--device", "cuda"], "--device: device cuda: ");
        usage_error(&["count", "12", "--device", "cuda:1"], "install the NVIDIA driver (libcuda.so)");
        usage_error(&["count", "12", "--device", "cuda", "--shard", "0/2"], "libcuda.so");
    } else {
        eprintln!("skipped the no-CUDA cases: CUDA has a device here");
    }
    usage_error(&["count", "12", "--device", "opencl:99"], "device opencl:99: ");
    usage_error(
        &["count", "12", "--device", "tpu"],
        "unknown device 'tpu' in 'tpu': use cpu, gpu, cuda or opencl",
    );
    usage_error(
        &["count", "12", "--device", "opencl:x"],
        "device index 'x' in 'opencl:x' is not a whole number",
    );
    usage_error(&["count", "12", "--device", "cpu:0"], "device 'cpu' in 'cpu:0' takes no index");
    usage_error(
        &["count", "31", "--device", "opencl"],
        "board size 31 is too large for --device opencl: the GPU kernels take n <= 30",
    );
    usage_error(
        &["count", "12", "--device", "opencl", "--algorithm", "join"],
        "--device opencl counts d4 subproblems, not --algorithm join",
    );
    usage_error(
        &["count", "12", "--device", "gpu", "-j", "2"],
        "-j 2 sets CPU worker threads, but --device gpu runs none",
    );
    // No journal is left by a refused device.
    let dir = scratch("refused");
    let journal = dir.join("j");
    usage_error(&["count", "12", "--device", "opencl:99", "--checkpoint", s(&journal)], "device opencl:99");
    assert!(!journal.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigusr1_stops_a_device_run_as_it_stops_a_cpu_run() {
    if !opencl_here() {
        return;
    }
    // pocl installs handlers of its own when it starts: the devices are opened before ours.
    let dir = scratch("gpu-usr1");
    let journal = dir.join("q16.journal");
    let args = [
        "count",
        "16",
        "--device",
        "opencl",
        "--split-depth",
        "3",
        "--checkpoint",
        s(&journal),
        "--progress",
        "never",
    ];
    let (code, err) = stopped_once_journaling(&args, &journal, "USR1");
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("stopped by SIGUSR1"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_driver_or_setting_is_one_line_and_exit_2() {
    // A libcuda that lacks the driver's functions (an old driver, a stub): cudarc panics on a
    // missing symbol, which must not reach the user.
    let dir = scratch("gpu-stub");
    let stub = dir.join("stub.c");
    std::fs::write(
        &stub,
        "int cuInit(unsigned f) { return 0; }\nint cuDeviceGetCount(int *c) { *c = 1; return 0; }\n",
    )
    .unwrap();
    let built = Command::new("cc")
        .args(["-shared", "-fPIC", "-o", s(&dir.join("libcuda.so.1")), s(&stub)])
        .status()
        .is_ok_and(|st| st.success());
    if built {
        std::fs::copy(dir.join("libcuda.so.1"), dir.join("libcuda.so")).unwrap();
        let mut cmd = nqueens(&["count", "10", "--device", "cuda"]);
        cmd.env("LD_LIBRARY_PATH", &dir);
        common::assert_usage_error(
            &mut cmd,
            "device cuda: the CUDA libraries here lack what this build needs",
        );
        let mut cmd = nqueens(&["devices"]);
        cmd.env("LD_LIBRARY_PATH", &dir);
        let out = cmd.assert().success().get_output().clone();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with("cuda: none (the CUDA libraries here lack"), "{text}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    } else {
        eprintln!("skipped the stub libcuda: no C compiler (cc)");
    }
    // A platform without devices (pocl told to have none), with nothing written.
    if opencl_here() {
        let journal = dir.join("j");
        for device in ["opencl", "opencl,cpu"] {
            let mut cmd = nqueens(&["count", "10", "--device", device, "--checkpoint", s(&journal)]);
            cmd.env("POCL_DEVICES", "none");
            common::assert_usage_error(&mut cmd, "device opencl: OpenCL has a platform but no device");
            assert!(!journal.exists());
        }
    }
    // The task size override, when it is no number of rows the kernel takes.
    for bad in ["x", "16", "-1", ""] {
        let mut cmd = nqueens(&["count", "10", "--device", "opencl"]);
        cmd.env("NQUEENS_GPU_TASK_ROWS", bad);
        common::assert_usage_error(
            &mut cmd,
            &format!("NQUEENS_GPU_TASK_ROWS '{bad}' is not a whole number 0..=15"),
        );
    }
    usage_error(
        &["count", "10", "--device", "gpu:1"],
        "device 'gpu' in 'gpu:1' takes no index (it is every GPU)",
    );
    usage_error(&["count", "10", "--device", "cpu,cpu"], "device 'cpu' is named twice in 'cpu,cpu'");
    usage_error(&["count", "10", "--device", "gpu,opencl"], "'gpu,opencl' names gpu, which is every GPU");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plan_on_devices_refuses_what_the_devices_cannot_count_and_merge_refuses_forged_device_lists() {
    usage_error(
        &["plan", "31", "--device", "opencl"],
        "board size 31 is too large for --device opencl: the GPU kernels take n <= 30",
    );
    usage_error(
        &["plan", "16", "--device", "gpu", "--algorithm", "join"],
        "--device gpu counts d4 subproblems, not --algorithm join",
    );
    usage_error(&["plan", "16", "--device", "tpu"], "unknown device 'tpu' in 'tpu'");
    // A shard result whose device list is no list of device names (it is outside the checksum):
    // refused by the merge, naming the file, exit 1.
    let dir = scratch("gpu-forged");
    let files: Vec<PathBuf> = (0..2)
        .map(|i| {
            let out = dir.join(format!("s{i}.json"));
            let shard = format!("{i}/2");
            nqueens(&["count", "11", "--algorithm", "d4", "--shard", &shard, "-j", "1", "--output", s(&out)])
                .assert()
                .success();
            out
        })
        .collect();
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["devices"] = serde_json::json!(["x".repeat(100)]);
    std::fs::write(&files[1], v.to_string()).unwrap();
    let out =
        nqueens(&["merge", s(&files[0]), s(&files[1])]).assert().code(1).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("s1.json: devices is not a list of at most 64 names of 1 to 64 characters"),
        "{err}"
    );
    // Issue 40: a name count never writes was merged as it stood.
    v["devices"] = serde_json::json!(["opencl:0", "my GPU"]);
    std::fs::write(&files[1], v.to_string()).unwrap();
    nqueens(&["merge", s(&files[0]), s(&files[1])]).assert().code(1).stdout("").stderr(format!(
        "nqueens: error: cannot merge: {}: devices names 'my GPU', which is no device count writes (cpu, cuda:N or opencl:N)\n",
        s(&files[1])
    ));
    v["devices"] = serde_json::json!(["opencl:0", "cpu"]);
    std::fs::write(&files[1], v.to_string()).unwrap();
    let out = nqueens(&["merge", s(&files[0]), s(&files[1]), "--format", "json"]).assert().success();
    let merged: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(merged["device"], "cpu,opencl:0");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 40: `plan 22 --device opencl --sample-seconds 2` took 170 s: after calibration it
/// counted 8 groups whatever they took. It stops after the second group once the budget is
/// spent; a subproblem of n = 20 takes about 0.6 s on pocl, so a budget of 0.05 s gives 2 groups
/// of 1 (the last calibration group is the first of them): 6.0 s before, 1.2 s after.
#[test]
fn plan_on_a_device_stops_sampling_when_its_budget_is_spent() {
    if !opencl_here() {
        return;
    }
    let args = ["plan", "20", "--device", "opencl", "--sample-seconds", "0.05", "--format", "json"];
    let v = &json_lines(&args)[0];
    assert_eq!((v["device_groups"].as_u64(), v["device_group_size"].as_u64()), (Some(2), Some(1)), "{v}");
    let out = nqueens(&args[..6]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("from 2 of 9522 subproblems, 2 groups of 1 each timed as one run"), "{text}");
}

/// Starts the binary with `args`, SIGINT ignored when `ignored` (as a shell starts a background
/// job), and sends it SIGINT while the devices open: once /proc shows the stop signals blocked,
/// which the binary does only then. Returns the exit code and stderr.
fn sigint_while_opening(args: &[&str], ignored: bool) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("nqueens"));
    // No kernel cache: the compile takes about a second, a window no poll misses.
    cmd.args(args).env("POCL_KERNEL_CACHE", "0").stdout(std::process::Stdio::piped());
    cmd.stderr(std::process::Stdio::piped());
    if ignored {
        // SAFETY: signal(2) is async-signal-safe and changes the child's disposition only.
        unsafe {
            cmd.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_IGN);
                Ok(())
            });
        }
    }
    let child = cmd.spawn().unwrap();
    let status = format!("/proc/{}/status", child.id());
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let blocked = text.lines().find_map(|l| l.strip_prefix("SigBlk:")).map(str::trim);
        if blocked.is_some_and(|m| u64::from_str_radix(m, 16).is_ok_and(|m| m & 2 != 0)) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the devices never opened: {text}");
        std::thread::sleep(Duration::from_millis(1));
    }
    let ok = Command::new("kill").args(["-s", "INT", &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.stdout, b"", "no count is written");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Issue 40: a SIGINT in the first ~0.1 s of a device run, while the devices open, was lost (the
/// run went on to exit 0 where the shell had SIGINT ignored, a background job) or broke the
/// kernel's compile (exit 2, "the kernel does not compile"). Held until our handlers are in,
/// it stops the run as at any moment before the first subproblem: exit 130, one line, and the
/// same command goes on (here to Q(16)).
#[test]
fn sigint_while_the_devices_open_stops_the_run() {
    if !opencl_here() {
        return;
    }
    let dir = scratch("gpu-early");
    let journal = dir.join("q16.journal");
    let args = ["count", "16", "--device", "opencl", "--checkpoint", s(&journal), "--progress", "never"];
    for ignored in [false, true] {
        let (code, err) = sigint_while_opening(&args, ignored);
        assert_eq!(code, Some(130), "ignored: {ignored}: {err}");
        // The held signal reaches the handlers once they are in: while the plan is built, or,
        // if the plan is built first, before the first subproblem; nothing is recorded either way.
        let last = err.lines().last().unwrap_or("");
        assert!(
            last.starts_with("nqueens: stopped by SIGINT while building the plan: nothing new to record; run the same command again to go on: ")
                || (last.starts_with("nqueens: stopped by SIGINT: 0 of ") && last.contains("; to resume, run ")),
            "{err}"
        );
        let (code, err) = sigint_while_opening(&["count", "16", "--device", "opencl"], ignored);
        assert_eq!((code, err.as_str()), (Some(130), "nqueens: stopped by SIGINT\n"), "ignored: {ignored}");
    }
    let mut json = args.to_vec();
    json.extend(["--format", "json"]);
    assert_eq!(json_lines(&json)[0]["solutions"], 14_772_512);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 40: `NQUEENS_GPU_TASK_ROWS=1..6` under `prlimit --as` made pocl abort (134): small
/// tasks grow the launches to 2^23 tasks, whose buffers were never checked against the memory.
/// The launches are capped at half the memory available now: the same counts finish, and a
/// limit too small for the devices or the threads is one line and exit 2, never an abort.
#[test]
fn small_gpu_tasks_under_an_address_space_limit_count_or_are_refused_in_one_line() {
    if !opencl_here() {
        return;
    }
    let args = ["count", "16", "--device", "opencl", "--format", "json"];
    for rows in ["1", "3", "6"] {
        let mut cmd = common::limited(1_000_000_000);
        let out = cmd.args(args).env("NQUEENS_GPU_TASK_ROWS", rows).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "rows {rows}: {stderr}");
        assert!(stdout.contains("\"solutions\":14772512,"), "rows {rows}: {stdout}");
    }
    for limit in [300_000_000u64, 450_000_000] {
        let mut cmd = common::limited(limit);
        let out = cmd.args(args).env("NQUEENS_GPU_TASK_ROWS", "1").output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(matches!(out.status.code(), Some(0 | 2)), "--as {limit}: {:?} {stderr}", out.status);
        if out.status.code() == Some(2) {
            assert!(stderr.starts_with("nqueens: error: ") && stderr.lines().count() == 1, "{stderr}");
        }
    }
}

/// Tasks as deep as a board of 16 allows (its subproblems whole, 11 free rows below their first)
/// under the default's deepest setting (13 rows, n >= 21) and the most the stack is compiled for
/// (15), against A000170 and A002562. The bound itself (a task's rows below the kernels' stack
/// levels) is `scheduler::the_stack_holds_every_default_task`; tasks of 13 rows ran at n = 21
/// and 22 on an H200 (results/2026-12-04-gpu-loop/), 54 s at n = 18 on pocl being too long here.
#[test]
fn deep_gpu_tasks_count_as_oeis_says() {
    if !opencl_here() {
        return;
    }
    for rows in ["13", "15"] {
        let out = nqueens(&["count", "16", "--device", "opencl", "--verify", "--format", "json"])
            .env("NQUEENS_GPU_TASK_ROWS", rows)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "rows {rows}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("\"solutions\":14772512,\"unique\":1846955,"), "rows {rows}: {stdout}");
        assert!(stdout.contains("\"verified\":true"), "rows {rows}: {stdout}");
    }
}
