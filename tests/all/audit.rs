//! `nqueens merge --audit FRACTION`: shard results carry per-subproblem subtotals (format 3, and
//! 4 with the host under the checksum) and the audit recounts a seeded sample of them, naming
//! the shard file and host that disagree (issue 15). Since issue 23 every cheap check (the
//! known value of n ≤ 27 among them) runs first, so the forgeries here that only an audit can
//! see move solutions between subproblems, keeping every total.

use std::path::{Path, PathBuf};

use crate::common::{nqueens, usage_error};
use crate::common::{read_shard as read, shard_subtotals as subtotals, write_shard as write};
use nqueens::{Classes, oeis, plan::Tally};
use nqueens_runs::merge::ShardResult;

/// Counts `n` in `k` shards with `extra` arguments and returns the result files.
fn shard_files(dir: &Path, n: u32, k: usize, extra: &[&str]) -> Vec<PathBuf> {
    (0..k)
        .map(|i| {
            let f = dir.join(format!("s{i}.json"));
            let (n, shard) = (n.to_string(), format!("{i}/{k}"));
            let mut args = vec!["count", &n, "--shard", &shard, "--output", f.to_str().unwrap(), "-j", "2"];
            args.extend(extra);
            nqueens(&args).assert().success();
            f
        })
        .collect()
}

/// Moves `delta` solutions (with `delta / 8` classes of 8 for d4) from the subtotal at position
/// `from` to the one at `to` in the shard result at `path`, checksum recomputed: every total
/// and every cheap invariant still holds, only a recount tells. Returns the two subproblem ids.
fn forge_pair(path: &Path, to: usize, from: usize, classifies: bool, delta: u128) -> (usize, usize) {
    let mut r = read(path);
    let mut subs = subtotals(&r, classifies);
    subs[to].solutions += delta;
    subs[from].solutions -= delta;
    if classifies {
        subs[to].classes.orbit8 += delta / 8;
        subs[from].classes.orbit8 -= delta / 8;
    }
    r.subtotals = nqueens_runs::subtotals::encode(classifies, &subs);
    r.checksum = r.compute_checksum();
    write(path, &r);
    let algorithm: nqueens::Algorithm = r.algorithm.parse().unwrap();
    let spec = nqueens_runs::shard::shard_spec(algorithm, r.n, r.shards);
    let plan = nqueens::plan::PlanSpec { split_depth: Some(r.split_depth), ..spec }.build().unwrap();
    let ids = &nqueens_runs::shard::assign(plan.as_ref(), r.shards)[r.shard];
    (ids[to], ids[from])
}

/// Returns the first position other than `not` whose subtotal has at least `delta` solutions
/// (and, for d4, a class of 8 with no other classes: a start constellation without symmetry).
fn donor(r: &ShardResult, classifies: bool, delta: u128, not: usize) -> usize {
    subtotals(r, classifies)
        .iter()
        .enumerate()
        .position(|(i, t)| {
            i != not
                && t.solutions >= delta
                && (!classifies || (t.classes.orbit8 * 8 == t.solutions && t.classes.orbit4 == 0))
        })
        .unwrap()
}

/// Runs `merge` with `args` and the files; returns (exit code, stdout, stderr).
fn merge(args: &[&str], files: &[PathBuf]) -> (i32, String, String) {
    let mut all = vec!["merge"];
    all.extend(args);
    all.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = nqueens(&all).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn bytes(files: &[PathBuf]) -> Vec<Vec<u8>> {
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

#[test]
fn a_clean_audit_passes_at_every_fraction_and_prints_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    for (algorithm, n, k) in [("join", 14, 3), ("d4", 13, 4), ("mirror", 12, 2)] {
        let sub = dir.path().join(algorithm);
        std::fs::create_dir(&sub).unwrap();
        let files = shard_files(&sub, n, k, &["--algorithm", algorithm]);
        let before = bytes(&files);
        let host = nqueens_runs::merge::host_name();
        for r in files.iter().map(|f| read(f)) {
            assert_eq!(r.format_version, 4);
            assert_eq!(r.host, host);
            let subs = subtotals(&r, algorithm == "d4");
            assert_eq!(subs.len(), r.covers.as_ref().unwrap().count);
            assert_eq!(subs.iter().map(|t| t.solutions).sum::<u128>(), r.solutions);
        }
        let plan = nqueens_runs::shard::shard_spec(algorithm.parse().unwrap(), n, k).build().unwrap();
        for (fraction, recounted) in [("0", 0), ("1", plan.len()), ("0.3", usize::MAX)] {
            let (code, stdout, stderr) =
                merge(&["--audit", fraction, "--seed", "7", "--format", "bfile"], &files);
            assert_eq!(code, 0, "{algorithm} {fraction}: {stderr}");
            assert_eq!(stdout, format!("{n} {}\n", oeis::A000170.get(n).unwrap()));
            let lines: Vec<&str> = stderr.lines().collect();
            assert_eq!(lines.len(), 2, "{stderr}");
            assert_eq!(
                lines[0],
                format!(
                    "nqueens: audit of {k} shard result(s) at fraction {fraction}, seed 7 (--seed 7 repeats it)"
                )
            );
            let shown = if recounted == usize::MAX {
                // ⌈0.3·m⌉ of each shard's m subproblems.
                let ids = nqueens_runs::shard::assign(plan.as_ref(), k);
                ids.iter().map(|s| nqueens_runs::audit::sample_size(s.len(), 0.3)).sum()
            } else {
                recounted
            };
            assert_eq!(
                lines[1],
                format!(
                    "nqueens: audit: {shown} of {} subproblems in {k} shard(s) recounted: all agree",
                    plan.len()
                )
            );
        }
        // Issue 40: a tiny fraction is shown as given, not as 300 digits; it recounts one
        // subproblem of each shard.
        let (code, _, stderr) = merge(&["--audit", "1e-300", "--seed", "7"], &files);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "nqueens: audit of {k} shard result(s) at fraction 1e-300, seed 7 (--seed 7 repeats it)\n\
                 nqueens: audit: {k} of {} subproblems in {k} shard(s) recounted: all agree\n",
                plan.len()
            )),
            "{stderr}"
        );
        // Without --seed the seed comes from the clock and is printed.
        let (code, _, stderr) = merge(&["--audit", "0.01"], &files);
        assert_eq!(code, 0, "{stderr}");
        let seed: u64 = stderr.split("seed ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(stderr.contains(&format!("(--seed {seed} repeats it)")), "{stderr}");
        assert!(before == bytes(&files), "a shard result was changed");
    }
}

#[test]
fn a_forged_subtotal_with_a_consistent_total_is_caught_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 15, 3, &["--algorithm", "d4"]);
    let host = read(&files[1]).host.unwrap();
    let pristine = bytes(&files);
    // One subproblem of shard 1 claims one more class of 8 (8 more solutions) and another one
    // fewer: the checksum, the subtotals' sum, every total and every subproblem's invariants
    // hold.
    let r = read(&files[1]);
    let m = r.covers.as_ref().unwrap().count;
    // A position the audit at fraction 0.05 with seed 11 samples (the draw is reproducible), and
    // a donor it does not.
    let picks = nqueens_runs::audit::sample(m, 0.05, nqueens_runs::audit::shard_seed(11, 1));
    let position = picks[picks.len() / 2];
    let subs = subtotals(&r, true);
    let from = (0..m)
        .find(|&i| {
            let t = subs[i];
            !picks.contains(&i) && t.solutions >= 8 && t.classes.orbit8 * 8 == t.solutions
        })
        .unwrap();
    let (real, real_from) = (subs[position], subs[from]);
    let (id, id_from) = forge_pair(&files[1], position, from, true, 8);
    let forged = bytes(&files);
    // A plain merge cannot tell: every total is right.
    let (code, stdout, stderr) = merge(&["--format", "bfile"], &files);
    assert_eq!((code, stdout, stderr), (0, "15 2279184\n".to_string(), String::new()));
    // The audit recounts the sampled subproblem and names the file, the shard and the host.
    let show = |t: Tally| {
        let c = t.classes;
        format!("{} solutions (classes {},{},{},{})", t.solutions, c.orbit8, c.orbit4, c.orbit2, c.orbit1)
    };
    let moved = |t: Tally, up: bool| {
        let mut c = t.classes;
        let s = if up {
            c.orbit8 += 1;
            t.solutions + 8
        } else {
            c.orbit8 -= 1;
            t.solutions - 8
        };
        Tally { solutions: s, classes: c, nodes: 0 }
    };
    let file = files[1].display();
    let raised = format!(
        "nqueens: audit: {file} (shard 1/3, host {host}): subproblem {id} recounts to {} but its subtotal says {}",
        show(real),
        show(moved(real, true))
    );
    let lowered = format!(
        "nqueens: audit: {file} (shard 1/3, host {host}): subproblem {id_from} recounts to {} but its subtotal says {}",
        show(real_from),
        show(moved(real_from, false))
    );
    let both = if id < id_from { vec![raised.clone(), lowered] } else { vec![lowered, raised.clone()] };
    for (fraction, found) in [("0.05", vec![raised]), ("1", both)] {
        let (code, stdout, stderr) = merge(&["--audit", fraction, "--seed", "11"], &files);
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(stdout, "", "no total from an audit that disagrees");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 2 + found.len(), "{stderr}");
        assert_eq!(
            lines[1..=found.len()],
            found.iter().map(String::as_str).collect::<Vec<_>>()[..],
            "{stderr}"
        );
        let verdict = if found.len() == 1 {
            ": 1 disagreement".to_string()
        } else {
            format!(": {} disagreements", found.len())
        };
        assert!(lines[lines.len() - 1].ends_with(&verdict), "{stderr}");
    }
    // At fraction 0 only the sums are checked, and they hold.
    let (code, _, stderr) = merge(&["--audit", "0", "--seed", "11"], &files);
    assert_eq!(code, 0, "{stderr}");
    assert!(bytes(&files) == forged, "the audit changed a file");

    // A total changed without its subtotals is caught by any audit, and by the plain merge.
    for (f, b) in files.iter().zip(&pristine) {
        std::fs::write(f, b).unwrap();
    }
    let mut r = read(&files[2]);
    r.solutions += 8;
    r.classes.orbit8 += 1;
    r.checksum = r.compute_checksum();
    write(&files[2], &r);
    let message = format!(
        "{} (shard 2/3, host {host}): its subtotals add up to {} solutions but it says {}: the file was forged or damaged",
        files[2].display(),
        r.solutions - 8,
        r.solutions
    );
    // The cheap checks come first: refused before any audit starts (issue 23).
    for args in [&["--audit", "0", "--seed", "3"][..], &["--audit", "1", "--seed", "3"], &[]] {
        let (code, stdout, stderr) = merge(args, &files);
        assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
        assert_eq!(stderr, format!("nqueens: error: cannot merge: {message}\n"), "{args:?}");
    }
}

#[test]
fn join_and_mirror_forgeries_are_caught_too() {
    let dir = tempfile::tempdir().unwrap();
    for (algorithm, n) in [("join", 14), ("mirror", 13)] {
        let sub = dir.path().join(algorithm);
        std::fs::create_dir(&sub).unwrap();
        let files = shard_files(&sub, n, 2, &["--algorithm", algorithm]);
        // 8 solutions moved between two subproblems (a multiple of every unit's weight) keep
        // every total and invariant, so only the audit sees it.
        let from = donor(&read(&files[0]), false, 8, 0);
        let (id, id_from) = forge_pair(&files[0], 0, from, false, 8);
        let (code, stdout, stderr) = merge(&["--format", "bfile"], &files);
        assert_eq!((code, stdout), (0, format!("{n} {}\n", oeis::A000170.get(n).unwrap())), "{stderr}");
        let (code, _, stderr) = merge(&["--audit", "1", "--seed", "1"], &files);
        assert_eq!(code, 1, "{algorithm}: {stderr}");
        for id in [id, id_from] {
            assert!(
                stderr.contains("s0.json (shard 0/2, host ")
                    && stderr.contains(&format!("): subproblem {id} recounts to ")),
                "{stderr}"
            );
        }
        assert_eq!(stderr.lines().count(), 4, "{stderr}");
    }
}

#[test]
fn bad_fractions_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 10, 2, &[]);
    let f0 = files[0].to_str().unwrap();
    for bad in ["-0.5", "1.5", "NaN", "inf", "abc", ""] {
        usage_error(
            &["merge", "--audit", bad, f0],
            &format!(
                "audit fraction '{bad}' is not a number from 0 to 1: use e.g. 0.01 to recount 1% of each shard's subproblems, 1 for all"
            ),
        );
    }
    usage_error(&["merge", "--seed", "5", f0], "--audit");
    usage_error(&["merge", "--partial", f0], "--audit");
    usage_error(&["merge", "--audit", "0.5", "--seed", "x", f0], "'x'");
}

#[test]
fn old_results_without_subtotals_are_audited_whole_or_named() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 12, 2, &["--algorithm", "d4"]);
    // As nqueens of format 2 wrote them: no subtotals, no host.
    for f in &files {
        let mut r = read(f);
        r.format_version = 2;
        r.subtotals = None;
        r.host = None;
        r.checksum = r.compute_checksum();
        write(f, &r);
    }
    let (code, stdout, stderr) = merge(&["--audit", "1", "--seed", "2", "--format", "bfile"], &files);
    assert_eq!((code, stdout.as_str()), (0, "12 14200\n"), "{stderr}");
    let (code, stdout, stderr) = merge(&["--audit", "0.5", "--seed", "2"], &files);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert_eq!(
        stderr.lines().nth(1),
        Some(
            format!(
                "nqueens: audit: {} (shard 0/2): it records no subtotals (format 2), so only an audit at fraction 1 can check it, by recounting the whole shard",
                files[0].display()
            )
            .as_str()
        ),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 4, "{stderr}");
    // Forged old results, recounted whole: a class of 8 moved from shard 0 to shard 1 keeps
    // the total right (a plain merge cannot tell).
    let c = |c: Classes| format!("{},{},{},{}", c.orbit8, c.orbit4, c.orbit2, c.orbit1);
    let mut wrong = Vec::new();
    for (i, d) in [(1usize, 1i128), (0, -1)] {
        let mut r = read(&files[i]);
        let real = r.clone();
        r.solutions = (r.solutions as i128 + 8 * d) as u128;
        r.classes.orbit8 = (r.classes.orbit8 as i128 + d) as u128;
        r.checksum = r.compute_checksum();
        write(&files[i], &r);
        wrong.push((i, real, r));
    }
    let (code, stdout, stderr) = merge(&["--format", "bfile"], &files);
    assert_eq!((code, stdout.as_str()), (0, "12 14200\n"), "{stderr}");
    let (code, _, stderr) = merge(&["--audit", "1", "--seed", "2"], &files);
    assert_eq!(code, 1, "{stderr}");
    for (i, real, r) in wrong {
        let m = r.covers.as_ref().unwrap().count;
        assert!(
            stderr.contains(&format!(
                "(shard {i}/2): its {m} subproblems recount to {} solutions (classes {}) but it says {} solutions (classes {})",
                real.solutions,
                c(real.classes),
                r.solutions,
                c(r.classes)
            )),
            "{stderr}"
        );
    }
}

#[test]
fn a_part_of_a_published_set_is_audited_with_partial() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 13, 4, &[]);
    let part = &files[1..3];
    let (code, stdout, stderr) = merge(&["--audit", "0.5", "--seed", "9", "--partial"], part);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    assert!(stderr.contains("in 2 shard(s) recounted: all agree"), "{stderr}");
    // Without --partial the missing shards are refused, before the audit (issue 23).
    let (code, _, stderr) = merge(&["--audit", "0.5", "--seed", "9"], part);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr, "nqueens: error: cannot merge: missing shard(s) 0/4, 3/4\n");
    // A damaged file in the part is named, not audited.
    let mut r = read(&part[0]);
    r.solutions += 1;
    write(&part[0], &r);
    let (code, _, stderr) = merge(&["--audit", "0.5", "--seed", "9", "--partial"], part);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("s1.json: checksum mismatch") && stderr.contains("; not audited"), "{stderr}");
    assert!(stderr.contains("in 1 shard(s) recounted: 1 disagreement"), "{stderr}");
}
