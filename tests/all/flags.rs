//! The flags themselves: what each accepts, the one-line message and exit code 2 of each
//! refusal, and the notes a flag draws.

use crate::common::nqueens;

/// Issue 40: `count 1 -j 4096` took 41–48 s (78 s on a busy machine): 4,096 threads on 2 CPUs
/// spend their time stealing work. `-j` starts at most 4 threads per logical CPU now, and a note
/// says so; the count and its output are the same, with the threads really started.
#[test]
fn threads_past_4_per_logical_cpu_are_capped_with_a_note() {
    let cpus = nqueens::plan::available_threads();
    let most = 4 * cpus;
    let note = format!(
        "nqueens: note: -j 4096 is more than 4 threads per logical CPU ({cpus} here): starting {most} (threads \
         beyond the CPUs only wait and steal work; the counts are the same)\n"
    );
    let out =
        nqueens(&["count", "1", "-j", "4096", "--format", "json"]).assert().success().stderr(note.clone());
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((v["solutions"].as_u64(), v["threads"].as_u64()), (Some(1), Some(most as u64)));
    nqueens(&["solve", "6", "-j", "4096", "--format", "cols"])
        .assert()
        .success()
        .stderr(note)
        .stdout("2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n5 3 1 6 4 2\n");
    // Up to the cap, no note and the threads asked for.
    let out =
        nqueens(&["count", "8", "-j", &most.to_string(), "--format", "json"]).assert().success().stderr("");
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((v["solutions"].as_u64(), v["threads"].as_u64()), (Some(92), Some(most as u64)));
}
