use super::*;
use crate::shard::assign;

/// Counts every shard of n = 10 in K shards directly, as `count --shard` would.
fn shards(n: u32, k: usize) -> Vec<(String, ShardResult)> {
    shards_of(Algorithm::Mirror, n, k)
}

/// Counts every shard of `algorithm` on the `n`×`n` board in K shards directly.
fn shards_of(algorithm: Algorithm, n: u32, k: usize) -> Vec<(String, ShardResult)> {
    let plan = shard_spec(algorithm, n, k).build().unwrap();
    assign(plan.as_ref(), k)
        .into_iter()
        .enumerate()
        .map(|(i, ids)| {
            let tally = ids.iter().fold(Tally::default(), |t, &id| t + plan.solve(id, false));
            let mut r = ShardResult {
                format: SHARD_FORMAT.into(),
                format_version: SHARD_FORMAT_VERSION,
                n,
                algorithm: algorithm.name().into(),
                split_depth: plan.split_depth(),
                subproblems: plan.len(),
                shard: i,
                shards: k,
                covers: Some(Covers::of(&ids)),
                ids: None,
                solutions: tally.solutions,
                classes: tally.classes,
                nodes: None,
                seconds: 0.5,
                threads: 2,
                devices: None,
                version: "0.1.0".into(),
                subtotals: crate::subtotals::encode(
                    algorithm.classifies(),
                    &ids.iter().map(|&id| plan.solve(id, false)).collect::<Vec<_>>(),
                ),
                host: Some(format!("node{i}")),
                checksum: String::new(),
            };
            r.checksum = r.compute_checksum();
            (format!("s{i}.json"), r)
        })
        .collect()
}

#[test]
fn complete_sets_sum_to_the_count() {
    for k in [1, 2, 3, 7] {
        let m = merge(&shards(10, k)).unwrap();
        assert_eq!(m.tally.solutions, 724, "k = {k}");
        assert_eq!((m.shards, m.threads), (k, 2), "threads: the most any shard used");
        assert_eq!(m.seconds, round_micros(0.5 * k as f64));
    }
}

/// Sets a field of `s[i]` with `edit` and recomputes its checksum, as a forger would who
/// also drops the subtotals that would give the edit away (format 2).
fn forge(s: &mut [(String, ShardResult)], i: usize, edit: impl FnOnce(&mut ShardResult)) {
    s[i].1.subtotals = None;
    s[i].1.format_version = 2;
    edit(&mut s[i].1);
    s[i].1.checksum = s[i].1.compute_checksum();
}

#[test]
fn sums_never_wrap_and_the_invariants_hold() {
    // Issue 15: solutions = 2^128 - 1000 with a recomputed checksum merged to 11,844,946.
    let mut s = shards(10, 3);
    forge(&mut s, 1, |r| r.solutions = u128::MAX - 999);
    let err = merge(&s).unwrap_err().to_string();
    assert!(
        err.starts_with("cannot merge: the shards' sum is inconsistent: 3402823669209384634633746074317682"),
        "{err}"
    );
    assert!(
        err.ends_with(" solutions of n = 10 are more than the 3628800 permutations of its columns; one of them was forged or damaged"),
        "{err}"
    );
    let mut s = shards(10, 3);
    forge(&mut s, 1, |r| r.solutions = u128::MAX - 11);
    assert_eq!(
        merge(&s).unwrap_err().problems,
        [
            "s1.json: adding its solutions to the other shards' overflows 128 bits: the file was forged or damaged"
        ]
    );
    // Issue 15: a d4 shard with orbit8 + 1 or 2^128 - 1 merged (unique wrapped to 1,481,059).
    let good = shards_of(Algorithm::D4, 10, 3);
    let m = merge(&good).unwrap();
    assert_eq!((m.tally.solutions, m.classes.map(|c| c.total())), (724, Some(92)));
    let mut s = good.clone();
    forge(&mut s, 0, |r| r.classes.orbit8 += 1);
    let err = merge(&s).unwrap_err().to_string();
    assert!(
        err.contains(
            "8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 = 8·90 + 4·3 + 2·0 + 0 = 732 but the solutions are 724"
        ),
        "{err}"
    );
    let mut s = good.clone();
    forge(&mut s, 2, |r| r.classes.orbit8 = u128::MAX);
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("overflows 128 bits") || err.contains("= more than 2^128"), "{err}");
    let mut s = good.clone();
    forge(&mut s, 0, |r| r.classes.orbit8 = u128::MAX / 8);
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("= more than 2^128 but the solutions are 724"), "{err}");
    // Issue 15: a join shard's solutions + 1 turned unique and classes into null.
    let good = shards_of(Algorithm::Join, 12, 2);
    let m = merge(&good).unwrap();
    assert_eq!((m.tally.solutions, m.classes.map(|c| c.total())), (14200, Some(1787)));
    let mut s = good.clone();
    forge(&mut s, 1, |r| r.solutions += 1);
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s1.json (shard 1/2, host node1): its 6941 solutions"), "{err}");
    assert!(err.contains(" solutions are not a multiple of 2, as every subproblem's it covers is"), "{err}");
    // Issue 23: + 2 is even, but not a whole number of classes (F180 = 80 at n = 12), + 8 is,
    // and only the known value refuses it.
    let mut s = good.clone();
    forge(&mut s, 1, |r| r.solutions += 2);
    let err = merge(&s).unwrap_err().to_string();
    assert!(
        err.contains(
            "14202 solutions of n = 12 are not a whole number of symmetry classes by Burnside's lemma"
        ),
        "{err}"
    );
    let mut s = good.clone();
    forge(&mut s, 1, |r| r.solutions += 8);
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("14208 solutions of n = 12, but Q(12) = 14200 (OEIS A000170)"), "{err}");
    // Classes in an algorithm that does not classify.
    let mut s = shards(10, 2);
    forge(&mut s, 0, |r| r.classes.orbit1 = 1);
    assert!(merge(&s).unwrap_err().to_string().contains(
        "s0.json: the mirror algorithm does not classify solutions, yet the result records symmetry classes"
    ));
    // Issue 15: threads = 2^64 - 1 in two shards wrapped to 1; seconds of 1e308 or -5 passed.
    let mut s = shards(10, 2);
    s[0].1.threads = usize::MAX;
    s[1].1.threads = usize::MAX;
    assert_eq!(
        merge(&s).unwrap_err().problems,
        [
            format!("s0.json: threads = {} is out of range 1..=4096", usize::MAX),
            format!("s1.json: threads = {} is out of range 1..=4096", usize::MAX)
        ]
    );
    let mut s = shards(10, 2);
    s[0].1.seconds = -5.0;
    s[1].1.seconds = f64::NAN;
    assert_eq!(
        merge(&s).unwrap_err().problems,
        [
            "s0.json: seconds = -5 is not a finite number >= 0",
            "s1.json: seconds = NaN is not a finite number >= 0"
        ]
    );
    let mut s = shards(10, 2);
    s[0].1.seconds = 1e308;
    assert_eq!(
        merge(&s).unwrap_err().problems,
        ["s0.json: seconds = 1e308 is more than any shard runs (at most 1e12, about 31,700 years)"]
    );
    let mut s = shards(10, 2);
    s[0].1.seconds = MAX_SHARD_SECONDS;
    s[1].1.seconds = MAX_SHARD_SECONDS;
    assert_eq!(merge(&s).unwrap().seconds, 2e12);
    // Seconds are summed and rounded to microseconds.
    let mut s = shards(10, 2);
    s[0].1.seconds = 0.1;
    s[1].1.seconds = 0.2;
    assert_eq!(merge(&s).unwrap().seconds.to_string(), "0.3");
}

#[test]
fn subtotals_must_add_up_to_the_shard() {
    // Format 3 results carry their subtotals and host; they add up.
    let good = shards_of(Algorithm::D4, 10, 3);
    assert!(good.iter().all(|(_, r)| r.format_version == 4 && r.subtotals.is_some()));
    assert_eq!(merge(&good).unwrap().tally.solutions, 724);
    // The total changed but not the subtotals (checksum recomputed): named with its host.
    let mut s = good.clone();
    s[1].1.solutions += 8;
    s[1].1.classes.orbit8 += 1;
    s[1].1.checksum = s[1].1.compute_checksum();
    let sum = s[1].1.solutions - 8;
    assert_eq!(
        merge(&s).unwrap_err().problems,
        [format!(
            "s1.json (shard 1/3, host node1): its subtotals add up to {sum} solutions but it says {}: the file was forged or damaged",
            sum + 8
        )]
    );
    // Only the classes differ.
    let mut s = good.clone();
    s[2].1.classes.orbit8 -= 1;
    s[2].1.classes.orbit4 += 2;
    s[2].1.checksum = s[2].1.compute_checksum();
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s2.json (shard 2/3, host node2): its subtotals add up to classes"), "{err}");
    // Subtotals that are not one per subproblem, or not decodable.
    let mut s = good.clone();
    s[0].1.subtotals = crate::subtotals::encode(true, &[Tally::default()]);
    s[0].1.checksum = s[0].1.compute_checksum();
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s0.json (shard 0/3, host node0): it has 1 subtotals for "), "{err}");
    let mut s = good;
    s[0].1.subtotals = Some("leb128:!!".into());
    s[0].1.checksum = s[0].1.compute_checksum();
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s0.json (shard 0/3, host node0): the subtotals are not base64"), "{err}");
}

#[test]
fn every_problem_is_listed() {
    let mut s = shards(10, 3);
    s.remove(1);
    assert_eq!(merge(&s).unwrap_err().problems, vec!["missing shard(s) 1/3"]);
    assert_eq!(
        missing_shards(&[0, 2, 3, 4, 7, 8, 4095], 4096),
        "missing shard(s) 0/4096, 2-4/4096, 7-8/4096, 4095/4096 (7 of 4096)"
    );
    let mut s = shards(10, 3);
    s.push(s[0].clone());
    assert_eq!(merge(&s).unwrap_err().problems, vec!["shard 0/3 is given 2 times (s0.json, s0.json)"]);
    let mut s = shards(10, 3);
    s[2].1.solutions += 1;
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s2.json: checksum mismatch"), "{err}");
    let mut s = shards(10, 3);
    s[1] = shards(11, 3).remove(1);
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s1.json has n = 11 but s0.json has 10"), "{err}");
    let mut s = shards(10, 3);
    s[1] = shards(10, 2).remove(1);
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("s1.json has K = 2 but s0.json has 3"), "{err}");
    // Ids moved between shards, checksums recomputed: the plan check catches it.
    let plan = shard_spec(Algorithm::Mirror, 10, 2).build().unwrap();
    let mut ids = assign(plan.as_ref(), 2);
    let moved = ids[0].pop().unwrap();
    ids[1].push(moved);
    ids[1].sort_unstable();
    let mut s = shards(10, 2);
    for (i, (_, r)) in s.iter_mut().enumerate() {
        r.covers = Some(Covers::of(&ids[i]));
        r.checksum = r.compute_checksum();
    }
    let err = merge(&s).unwrap_err().to_string();
    assert!(err.contains("not the") && err.contains("the shard plan gives it"), "{err}");
    // The same number of ids, other ones (one swapped for another): the CRC catches it.
    let mut ids = assign(plan.as_ref(), 2);
    let (a, b) = (ids[0][0], ids[1][0]);
    ids[0][0] = b;
    ids[1][0] = a;
    ids[0].sort_unstable();
    ids[1].sort_unstable();
    let mut s = shards(10, 2);
    s[0].1.covers = Some(Covers::of(&ids[0]));
    s[0].1.checksum = s[0].1.compute_checksum();
    let err = merge(&s).unwrap_err().to_string();
    assert!(
        err.contains("s0.json (shard 0/2) covers other subproblems than the shard plan gives it"),
        "{err}"
    );
    // Format 1 (a list of ids) is still read, and checked the same way.
    let mut s = shards(10, 2);
    for (i, (_, r)) in s.iter_mut().enumerate() {
        r.format_version = 1;
        r.ids = Some(assign(plan.as_ref(), 2)[i].clone());
        r.covers = None;
        r.subtotals = None;
        r.checksum = r.compute_checksum();
    }
    assert_eq!(merge(&s).unwrap().tally.solutions, 724);
    s[1].1.ids.as_mut().unwrap()[0] = ids[0][0];
    s[1].1.checksum = s[1].1.compute_checksum();
    assert!(merge(&s).unwrap_err().to_string().contains("s1.json (shard 1/2) covers other subproblems"));
    // A newer format, or a result that names no subproblems, is refused.
    let mut s = shards(10, 2);
    s[0].1.format_version = 5;
    assert!(
        merge(&s).unwrap_err().to_string().contains(
            "s0.json is not a shard result of format nqueens-shard 1 to 4 (it says nqueens-shard 5)"
        )
    );
    // Subtotals in a format that has none.
    let mut s = shards(10, 2);
    s[0].1.format_version = 2;
    s[0].1.checksum = s[0].1.compute_checksum();
    assert!(
        merge(&s)
            .unwrap_err()
            .to_string()
            .contains("s0.json has subtotals, which format 2 does not have: it was changed or damaged")
    );
    let mut s = shards(10, 2);
    s[1].1.covers = None;
    assert!(merge(&s).unwrap_err().to_string().contains("s1.json does not say which subproblems it covers"));
    assert_eq!(merge(&[]).unwrap_err().problems, vec!["no shard results were given"]);
}

/// Issue 40: only the device names `count` writes are merged.
#[test]
fn device_names_are_those_count_writes() {
    for good in ["cpu", "cuda:0", "opencl:12", "cuda:65535"] {
        assert!(is_device_name(good), "{good}");
    }
    for bad in ["", "gpu", "cuda:", "cuda:x", "opencl:123456", "CPU", "cpu ", "opencl:0 (pocl)"] {
        assert!(!is_device_name(bad), "{bad}");
    }
}
