//! doc/q28.md, the campaign recipe for Q(28), run as written at small n: its shell blocks, in
//! order, with the settings line replaced, at n = 14 under the real Slurm of the Slurm tests
//! (`slurm::cluster`; they skip without one) and at n = 12 with GNU parallel (skips without
//! it). Each ends in a merge that checks A000170 and audits every shard.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The recipe, as the page says it.
const DOC: &str = include_str!("../../doc/q28.md");

/// Returns the shell script of the recipe's blocks tagged `both` or `which` (`# recipe: TAG` on
/// their first line), in the page's order, with its settings line (`N=28 ...`) replaced by
/// `settings`.
fn script(which: &str, settings: &str) -> String {
    let mut script = String::from("set -euo pipefail\n");
    let (mut blocks, mut replaced) = (0, 0);
    let mut lines = DOC.lines();
    while let Some(line) = lines.next() {
        if line.trim_end() != "```sh" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim_end() != "```").collect();
        let tag = block.first().and_then(|l| l.strip_prefix("# recipe: "));
        let tag = tag.unwrap_or_else(|| panic!("a sh block of doc/q28.md has no `# recipe:` tag: {block:?}"));
        assert!(["both", "slurm", "parallel"].contains(&tag), "unknown tag {tag}");
        if tag != "both" && tag != which {
            continue;
        }
        blocks += 1;
        for l in &block[1..] {
            if l.starts_with("N=28 ") {
                script.push_str(settings);
                replaced += 1;
            } else {
                script.push_str(l);
            }
            script.push('\n');
        }
    }
    assert_eq!(replaced, 1, "doc/q28.md has one settings line (N=28 ...)");
    assert!(blocks >= 3, "doc/q28.md has lost its {which} recipe: {script}");
    script
}

/// Runs `script` with bash at the repository's root, this build's `nqueens` first on the PATH.
fn run(script: &str) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    Command::new("bash")
        .args(["-c", script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nqueens-recipe-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The lines of the merged result for n that say it was verified against A000170.
fn verified(out: &str, n: u32, q: &str) -> usize {
    out.lines()
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.first() == Some(&n.to_string().as_str()) && f.get(1) == Some(&q) && f.last() == Some(&"yes")
        })
        .count()
}

fn check(out: &Output, dir: &Path) -> String {
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the recipe failed in {}:\n{stdout}\n{stderr}", dir.display());
    // The plan's lines, and the audit of the merge by hand.
    assert!(
        stdout.contains("CPU time:") && stdout.contains("solutions:") && stdout.contains("slurm:"),
        "{stdout}"
    );
    assert!(stderr.contains("all agree"), "{stderr}");
    stdout.into_owned()
}

#[test]
fn the_q28_recipe_runs_under_slurm_at_n_14() {
    if !crate::slurm::cluster() {
        return;
    }
    let _turn = crate::slurm::CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("slurm");
    let settings = format!("N=14 K=4 T=1 SAMPLE=0.5 DIR={} P=2 HOSTS='-S 2/:' POLL=1", dir.display());
    let out = run(&script("slurm", &settings));
    let stdout = check(&out, &dir);
    // The merge job's result (step 3), resume's merge of a finished run (step 4) and the merge
    // by hand (step 5): each verified.
    assert_eq!(verified(&stdout, 14, "365596"), 3, "{stdout}");
    assert!(stdout.contains("every shard of"), "resume found the run finished: {stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_q28_recipe_runs_with_gnu_parallel_at_n_12() {
    if Command::new("parallel").arg("--version").stdout(Stdio::null()).status().map_or(true, |s| !s.success())
    {
        eprintln!("note: GNU parallel is not installed; skipping the recipe test (apt-get install parallel)");
        return;
    }
    let dir = scratch("parallel");
    let settings = format!("N=12 K=3 T=1 SAMPLE=0.5 DIR={} P=2 HOSTS='-S 2/:' POLL=1", dir.display());
    let out = run(&script("parallel", &settings));
    let stdout = check(&out, &dir);
    // parallel-shards.sh's merge and the merge by hand: each verified.
    assert_eq!(verified(&stdout, 12, "14200"), 2, "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
