//! Shards and their merge (`count --shard`, `nqueens merge`): shards that add up to the direct
//! count, the lists of shard results (`--files-from`, folders), and every set the merge refuses:
//! missing, duplicated or mismatched shards, forged sums, fields and subtotals, impossible
//! totals, text from files escaped. `merge --audit` has its own file, `audit.rs`.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::{
    self, forge_journal_line, known, nqueens, q, run, s, scratch, under_address_limit, usage_error,
};
use crate::common::{read_shard as read, shard_subtotals as subtotals, write_shard as write};
use nqueens::plan::Tally;
use nqueens_runs::merge::ShardResult;
use predicates::prelude::*;

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

/// Boards whose plan has no subproblems at all (mirror, and the join below n = 4, at n = 2 and
/// 3 with the default split depth) shard into empty results that merge to Q(n) = 0, as `plan`
/// says they will; the shard's dealing once indexed the empty plan and panicked.
#[test]
fn shards_of_boards_with_no_subproblems_are_empty_results() {
    let dir = scratch("empty-plans");
    for (n, algorithm, k) in [(2u32, "mirror", 1usize), (2, "join", 2), (3, "mirror", 3), (3, "join", 2)] {
        let files: Vec<PathBuf> = (0..k)
            .map(|i| {
                let out = dir.join(format!("n{n}-{algorithm}-k{k}-s{i}.json"));
                let shard = format!("{i}/{k}");
                let args = [
                    "count",
                    &n.to_string(),
                    "--algorithm",
                    algorithm,
                    "--shard",
                    &shard,
                    "--output",
                    s(&out),
                ];
                nqueens(&args).assert().success().stdout("");
                out
            })
            .collect();
        nqueens(&merge_args(&files, &["--format", "bfile"])).assert().success().stdout(format!("{n} 0\n"));
    }
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
    let files = common::shard_files(dir.path(), "s", 15, 3, &[]);
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
    // One shard claiming 10^308 s merged, printed as `inf` (two were refused as their sum).
    forge(&files[1], |r| r.seconds = 1e308);
    merge_refused(
        &files,
        "s1.json: seconds = 1e308 is more than any shard runs (at most 1e12, about 31,700 years)",
    );
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
    let files = common::shard_files(dir.path(), "s", 15, 3, &["--algorithm", "d4"]);
    forge(&files[0], |r| r.classes.orbit8 += 1);
    merge_refused(&files, "the shards' sum is inconsistent: 8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 = 8·");
    forge(&files[0], |r| r.classes.orbit8 = u128::MAX);
    merge_refused(&files, "overflows 128 bits");

    // Issue 15: a join shard's solutions + 1 silently turned unique and classes into null.
    let dir = tempfile::tempdir().unwrap();
    let files = common::shard_files(dir.path(), "s", 13, 2, &["--algorithm", "join"]);
    forge(&files[1], |r| r.solutions += 1);
    merge_refused(&files, " solutions are not a multiple of 2, as every subproblem's it covers is");
    // Issue 23: + 2 keeps it even, but not a whole number of classes (F180 = 136 at n = 13).
    forge(&files[1], |r| r.solutions += 1);
    merge_refused(
        &files,
        "73714 solutions of n = 13 are not a whole number of symmetry classes by Burnside's lemma",
    );
}

/// Changes the first subtotal of the result at `path` by `edit`, and its total the same way,
/// with the checksum recomputed: the issue's forgeries.
fn forge_first_subtotal(path: &Path, classifies: bool, edit: impl Fn(&mut Tally)) {
    let mut r = read(path);
    let mut subs = subtotals(&r, classifies);
    edit(&mut subs[0]);
    let sum = subs.iter().fold(Tally::default(), |a, t| a + *t);
    (r.solutions, r.classes) = (sum.solutions, sum.classes);
    r.subtotals = nqueens_runs::subtotals::encode(classifies, &subs);
    r.checksum = r.compute_checksum();
    write(path, &r);
}

/// Runs `merge` on `files` expecting exit 1, nothing on stdout, one line on stderr containing
/// every one of `messages`, and no file changed; returns the line.
fn merge_refused_naming(files: &[PathBuf], messages: &[&str]) -> String {
    let before = common::bytes(files);
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| s(f)));
    let (code, stdout, stderr) = run(&args);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for m in messages {
        assert!(stderr.contains(m), "{stderr:?} lacks {m:?}");
    }
    assert!(common::bytes(files) == before, "a shard result was changed");
    stderr
}

#[test]
fn impossible_totals_are_refused_at_merge() {
    let dir = tempfile::tempdir().unwrap();
    let host = nqueens_runs::merge::host_name().unwrap();
    // A mirror shard at n = 12, one subtotal + 1 (merged to 14,201, exit 0): every mirror
    // subproblem is a multiple of 2.
    let m = common::shard_files(dir.path(), "m", 12, 2, &["--algorithm", "mirror"]);
    forge_first_subtotal(&m[0], false, |t| t.solutions += 1);
    merge_refused_naming(
        &m,
        &[
            &format!("cannot merge: {} (shard 0/2, host {host}): the subtotal of subproblem ", s(&m[0])),
            " is impossible: its ",
            " solutions are not a multiple of 2, the weight of every solution it counts: the file was forged or damaged",
        ],
    );
    // d4 at n = 10, orbit1 + 1 (725 / 93) and orbit2 + 1 (726), subtotal and total.
    let d = common::shard_files(dir.path(), "d", 10, 2, &["--algorithm", "d4"]);
    let pristine = common::bytes(&d);
    for (orbit, solutions) in [(1, 1), (2, 2)] {
        forge_first_subtotal(&d[0], true, |t| {
            t.solutions += solutions;
            if orbit == 1 { t.classes.orbit1 += 1 } else { t.classes.orbit2 += 1 }
        });
        merge_refused_naming(
            &d,
            &[
                &format!("{} (shard 0/2, host {host}): the subtotal of subproblem ", s(&d[0])),
                " is impossible: ",
            ],
        );
        std::fs::write(&d[0], &pristine[0]).unwrap();
    }
    // Without subtotals to give it away (format 2), the totals alone: orbit1 + 1 is odd; a
    // class of 8 more is consistent, but not Q(10) = 724 (issue 23: "verified": false, exit 0).
    let old = |edit: &dyn Fn(&mut ShardResult)| {
        let mut r: ShardResult = serde_json::from_slice(&pristine[0]).unwrap();
        (r.format_version, r.subtotals, r.host) = (2, None, None);
        edit(&mut r);
        r.checksum = r.compute_checksum();
        write(&d[0], &r);
    };
    old(&|r| {
        r.classes.orbit1 += 1;
        r.solutions += 1;
    });
    merge_refused_naming(
        &d,
        &["(shard 0/2): its ", " solutions are not a multiple of ", ", as every subproblem's it covers is"],
    );
    old(&|r| {
        r.classes.orbit8 += 1;
        r.solutions += 8;
    });
    merge_refused_naming(
        &d,
        &["the shards' sum is inconsistent: 732 solutions of n = 10, but Q(10) = 724 (OEIS A000170)"],
    );
    // A format-3 shard with its subtotals removed and + 8 forged (merged to 732).
    let mut r: ShardResult = serde_json::from_slice(&pristine[0]).unwrap();
    (r.format_version, r.subtotals) = (3, None);
    r.classes.orbit8 += 1;
    r.solutions += 8;
    r.checksum = r.compute_checksum();
    write(&d[0], &r);
    merge_refused_naming(
        &d,
        &[&format!(
            "{} (shard 0/2, host {host}): it has no subtotals, which format 3 always carries when they fit in 4194304 bytes, as those of its 48 subproblems do: the file was forged or damaged",
            s(&d[0])
        )],
    );
    // The honest shards, format 3 as an older nqueens wrote them, still merge.
    std::fs::write(&d[0], &pristine[0]).unwrap();
    for f in &d {
        let mut r = read(f);
        r.format_version = 3;
        r.checksum = r.compute_checksum();
        write(f, &r);
    }
    let (code, stdout, stderr) = run(&["merge", "--format", "bfile", s(&d[0]), s(&d[1])]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "10 724\n", ""));
}

#[test]
fn text_from_files_is_escaped_and_the_host_is_under_the_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let j = common::shard_files(dir.path(), "h", 12, 4, &["--algorithm", "join"]);
    let evil =
        "vm): ok\n\x1b[2K\rnqueens: audit: 472 of 472 subproblems in 4 shard(s) recounted: all agree\x1b[8m";
    let no_controls = |text: &str| text.chars().all(|c| c == '\n' || !c.is_control());
    // Format 4: the host is under the checksum.
    let mut r = read(&j[1]);
    r.host = Some(evil.into());
    write(&j[1], &r);
    let line = merge_refused_naming(&j, &[&format!("{}: checksum mismatch", s(&j[1]))]);
    assert!(no_controls(&line), "{line:?}");
    // Format 3 kept it outside: accepted, but shown escaped (with a subtotal forged so that a
    // message names the host).
    let mut r = read(&j[2]);
    r.format_version = 3;
    let mut subs = subtotals(&r, false);
    let (from, to) = (subs.iter().skip(1).position(|t| t.solutions >= 8).unwrap() + 1, 0);
    subs[from].solutions -= 8;
    subs[to].solutions += 8;
    r.subtotals = nqueens_runs::subtotals::encode(false, &subs);
    r.host = None;
    r.checksum = r.compute_checksum();
    r.host = Some(evil.into());
    let fresh = common::shard_files(dir.path(), "g", 12, 4, &["--algorithm", "join"]);
    write(&fresh[2], &r);
    let out = nqueens(&[
        "merge",
        "--audit",
        "1",
        "--seed",
        "1",
        s(&fresh[0]),
        s(&fresh[1]),
        s(&fresh[2]),
        s(&fresh[3]),
    ])
    .output()
    .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(no_controls(&stderr), "{stderr:?}");
    assert!(stderr.contains("host vm): ok\\u{a}\\u{1b}[2K\\u{d}nqueens: audit: 472 of 472"), "{stderr}");
    assert!(stderr.ends_with("recounted: 2 disagreements\n"), "{stderr}");
    // A file name, a version and a journal header's version with escapes.
    let name = dir.path().join("s\x1b[31mred.json");
    std::fs::write(&name, "{}").unwrap();
    let (code, _, stderr) = run(&["merge", s(&name)]);
    assert_eq!(code, 2);
    assert!(
        no_controls(&stderr) && stderr.contains("s\\u{1b}[31mred.json is not a shard result"),
        "{stderr:?}"
    );
    let (code, _, stderr) = run(&["check", s(&dir.path().join("x\x1b[31m"))]);
    assert_eq!(code, 2);
    assert!(
        no_controls(&stderr) && stderr.contains("cannot open ") && stderr.contains("x\\u{1b}[31m"),
        "{stderr:?}"
    );
    let mut v = read(&fresh[3]);
    v.version = "0.1.0\x1b[8m".into();
    v.checksum = v.compute_checksum();
    write(&fresh[3], &v);
    let line =
        merge_refused_naming(&[fresh[0].clone(), fresh[3].clone()], &["has version 0.1.0\\u{1b}[8m but "]);
    assert!(no_controls(&line));
    let journal = dir.path().join("v.j");
    nqueens(&["count", "10", "--algorithm", "join", "--checkpoint", s(&journal)]).assert().success();
    forge_journal_line(&journal, 1, |b| b.replace("version=0.1.0", "version=0.1.0\x1b[8m"));
    let (code, _, stderr) = run(&["count", "10", "--algorithm", "join", "--checkpoint", s(&journal)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        no_controls(&stderr) && stderr.contains("program version 0.1.0\\u{1b}[8m in the journal"),
        "{stderr:?}"
    );
}

#[test]
fn cheap_checks_come_before_the_audit_and_missing_shards_are_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let g = common::shard_files(dir.path(), "g", 12, 4, &["--algorithm", "join"]);
    let (code, stdout, stderr) = run(&["merge", "--audit", "1", s(&g[0]), s(&g[1]), s(&g[2])]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(stderr, "nqueens: error: cannot merge: missing shard(s) 3/4\n", "no audit ran first");
    let k0 = dir.path().join("k0.json");
    nqueens(&["count", "12", "--shard", "0/4096", "--output", s(&k0)]).assert().success();
    let (code, _, stderr) = run(&["merge", s(&k0)]);
    assert_eq!(code, 1);
    assert_eq!(stderr, "nqueens: error: cannot merge: missing shard(s) 1-4095/4096 (4095 of 4096)\n");
}

/// Issue 23, finding 12: a merge under a Slurm limit of 1 MiB talked about --algorithm; a shard
/// with a UTF-8 byte order mark was "expected value at line 1 column 1".
#[test]
fn a_merge_under_a_slurm_limit_names_the_merge_and_a_bom_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let g = common::shard_files(dir.path(), "g", 12, 2, &["--algorithm", "join"]);
    let out = nqueens(&["merge", s(&g[0]), s(&g[1])]).env("SLURM_MEM_PER_NODE", "1").output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: the shard plan of its n = 12, join with K = 2 cannot be rebuilt here to check the shards: the join's quarter table and one thread's buffers need about ", s(&g[0])))
            && stderr.contains(" MiB, and the join takes at most 3/4 of the 1 MiB available to this process: merge where more memory is free"),
        "{stderr}"
    );
    // A shard with a UTF-8 byte order mark ("expected value at line 1 column 1") merges.
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend(std::fs::read(&g[0]).unwrap());
    std::fs::write(&g[0], bom).unwrap();
    let (code, stdout, stderr) = run(&["merge", "--format", "bfile", s(&g[0]), s(&g[1])]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "12 14200\n", ""));
}

/// Makes a FIFO at `path` and feeds it `line` `times` times from a thread, as
/// `yes LINE | head -n TIMES > path` would a file, without the file on disk; the writer stops
/// quietly when the reader goes (EPIPE). Returns the thread, which yields the lines written.
fn feed_fifo(path: &Path, line: &'static [u8], times: u64) -> std::thread::JoinHandle<u64> {
    let c = std::ffi::CString::new(s(path)).unwrap();
    // SAFETY: mkfifo with a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "{}", std::io::Error::last_os_error());
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut fifo = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        // About 64 KiB a write: this process stays small (its peak would count in a child's
        // ru_maxrss, see common::measure).
        let per = (65_536 / line.len()).max(1) as u64;
        let chunk: Vec<u8> = line.iter().copied().cycle().take(line.len() * per as usize).collect();
        let mut written = 0;
        while written < times {
            let k = (times - written).min(per);
            if fifo.write_all(&chunk[..line.len() * k as usize]).is_err() {
                break;
            }
            written += k;
        }
        written
    })
}

/// Finding 1: `yes d0.json | head -c 800000000 > list` (100 M names), then `prlimit
/// --as=4000000000 nqueens merge --files-from list` grew to 3.49 GB and aborted ("memory
/// allocation of 7 bytes failed", SIGABRT). Now refused after 10^6 names, in tens of MB.
#[test]
fn a_list_of_100_million_names_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    let writer = feed_fifo(&list, b"d0.json\n", 100_000_000);
    let (code, stdout, stderr, _) = under_address_limit(4_000_000_000, &["merge", "--files-from", s(&list)]);
    let written = writer.join().unwrap();
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert_eq!(
        stderr,
        "nqueens: error: more than 1000000 shard result files are named: a merge takes at most one per shard, and K <= 1000000\n"
    );
    // The merge stopped reading soon after the millionth name (the pipe holds a few chunks).
    assert!(written < 2_000_000, "{written} names written before the merge stopped");

    // Its memory: the same list again, its peak resident memory measured.
    let list = dir.path().join("list2");
    let writer = feed_fifo(&list, b"d0.json\n", 100_000_000);
    let (code, stderr, peak) = crate::common::peak_rss(&["merge", "--files-from", s(&list)]);
    writer.join().unwrap();
    assert_eq!(code, 2, "{stderr}");
    assert!(peak < 200 << 20, "peak {} MiB", peak >> 20);
}

/// Finding 1: `--files-from /dev/zero` ended with exit 2, but only after 1.05 GB; a line is
/// now read to PATH_MAX at most.
#[test]
fn a_list_line_longer_than_path_max_is_refused() {
    let (code, stderr, peak) = crate::common::peak_rss(&["merge", "--files-from", "/dev/zero"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "nqueens: error: line 1 of the list of shard results /dev/zero is longer than 4095 bytes: give one path a line, \
         each at most PATH_MAX (4096 bytes with its newline)\n"
    );
    assert!(peak < 50 << 20, "peak {} MiB", peak >> 20);
    // The longest path that fits is read as a name (and is then no file); one byte more is not.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    std::fs::write(&list, format!("{}\n", "a".repeat(4095))).unwrap();
    let out = nqueens(&["merge", "--files-from", s(&list)]).assert().code(2).get_output().clone();
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("nqueens: error: cannot read shard result aaaa")
    );
    std::fs::write(&list, format!("x.json\n{}\n", "a".repeat(4096))).unwrap();
    crate::common::usage_error(
        &["merge", "--files-from", s(&list)],
        &format!("line 2 of the list of shard results {} is longer than 4095 bytes", s(&list)),
    );
}

/// Finding 1: a list may hold at most 256 MiB of names (a million of 268 bytes each), what bounds
/// the merge's memory with the caps above: 70,000 names of 4,000 bytes are refused at the 67,109th.
#[test]
fn a_list_of_more_than_256_mib_of_names_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    let line: &'static [u8] = Box::leak(format!("{}\n", "b".repeat(4000)).into_bytes().into_boxed_slice());
    let writer = feed_fifo(&list, line, 70_000);
    let (code, stdout, stderr, _) = under_address_limit(4_000_000_000, &["merge", "--files-from", s(&list)]);
    writer.join().unwrap();
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        format!(
            "nqueens: error: the list of shard results {} holds more than 268435456 bytes of names (at line 67109): a merge \
             takes at most 1000000 files\n",
            s(&list)
        )
    );
}

/// Finding 1: a list that names a file twice (or names a file and its folder) cannot merge,
/// and is refused before any file is read.
#[test]
fn a_file_named_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("r");
    std::fs::create_dir(&folder).unwrap();
    for i in 0..2 {
        let out = folder.join(format!("d{i}.json"));
        nqueens(&["count", "8", "-j", "1", "--shard", &format!("{i}/2"), "--output", s(&out)])
            .assert()
            .success();
    }
    let (d0, d1) = (folder.join("d0.json"), folder.join("d1.json"));
    let before = (std::fs::read(&d0).unwrap(), std::fs::read(&d1).unwrap());
    let list = dir.path().join("list");
    std::fs::write(&list, format!("{}\n{}\n{}\n", s(&d0), s(&d1), s(&d0))).unwrap();
    let twice = format!(
        "nqueens: error: the shard result {} is named twice: give each shard's result once\n",
        s(&d0)
    );
    let out = nqueens(&["merge", "--files-from", s(&list)]).assert().code(2).stdout("").get_output().clone();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), twice);
    let out = nqueens(&["merge", s(&folder), s(&d0)]).assert().code(2).stdout("").get_output().clone();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), twice);
    assert_eq!((std::fs::read(&d0).unwrap(), std::fs::read(&d1).unwrap()), before);
    // Once each, they merge.
    std::fs::write(&list, format!("{}\n{}\n", s(&d1), s(&d0))).unwrap();
    nqueens(&["merge", "--files-from", s(&list), "--format", "bfile"]).assert().success().stdout("8 92\n");
}

/// The sum of `K` shards of the join at board `n` (each `count N --shard I/K`, JSON output),
/// counted on `threads` threads.
fn shard_sum(n: u32, shards: u32, threads: u32) -> u128 {
    (0..shards)
        .map(|i| {
            let (n, shard, threads) = (n.to_string(), format!("{i}/{shards}"), threads.to_string());
            let args = [
                "count",
                &n,
                "--algorithm",
                "join",
                "--shard",
                &shard,
                "-j",
                &threads,
                "--progress",
                "never",
            ];
            let out = nqueens(&args).assert().success().get_output().stdout.clone();
            let out = String::from_utf8(out).unwrap();
            let field = out.split(r#""solutions":"#).nth(1).unwrap_or_else(|| panic!("no count in {out}"));
            field.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse::<u128>().unwrap()
        })
        .sum()
}

#[test]
fn join_shards_add_up_to_a000170_at_17() {
    assert_eq!(shard_sum(17, 5, 2), known("b000170.txt", 17));
}

/// Slow (about 10 CPU-minutes on the 2-core development VM; the sieve and the row-compacted quarter
/// table are in play from n = 21): `cargo test --release --test all join:: -- --ignored`.
#[test]
#[ignore = "slow: the whole of n = 21 (and n = 22 with NQUEENS_SLOW_22=1, about 1.5 CPU-hours)"]
fn join_shards_add_up_to_a000170_at_21_and_beyond() {
    assert_eq!(shard_sum(21, 16, 2), known("b000170.txt", 21));
    if std::env::var_os("NQUEENS_SLOW_22").is_some() {
        assert_eq!(shard_sum(22, 64, 2), known("b000170.txt", 22));
    }
}
