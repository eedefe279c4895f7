//! Audits of shard results (`nqueens merge --audit FRACTION`): recount a random sample of every
//! shard's subproblems here and compare them with the subtotals the shard recorded
//! ([`crate::subtotals`]), so that shards counted on machines one does not control, or
//! published by others, can be trusted without counting everything again.
//!
//! # What is checked
//! For each shard result on its own: its format and checksum ([`crate::merge::check_file`]),
//! that it covers the subproblems the shard plan gives it ([`crate::merge::check_covers`]),
//! that its subtotals decode, are one per subproblem and add up to its counts, and that each
//! sampled subproblem, counted again, gives exactly its subtotal (solutions, and for d4 the
//! classes). A shard without subtotals (formats 1 and 2, or too many subproblems to carry them)
//! can be checked only whole: at fraction 1 its subproblems are recounted and their sum compared
//! with its counts; at a smaller fraction the audit says it cannot check it.
//!
//! The results are read one at a time ([`Auditor`]): of each file the audit keeps its name and
//! the sampled subtotals, and one shard plan per distinct plan the files name.
//!
//! # Sample
//! Each shard's sample is ⌈F·m⌉ of its m subproblems (none at F = 0, all at F = 1), drawn
//! uniformly without replacement by selection sampling (Knuth, TAOCP vol. 2, §3.4.2,
//! Algorithm S) from SplitMix64 (Steele, Lea and Flood, OOPSLA 2014) seeded by the audit's seed
//! and the shard's number ([`shard_seed`]): the same seed draws the same subproblems of a shard
//! on every machine and in any order of files, so an audit is repeated exactly by its seed.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use std::rc::Rc;

use crate::merge::{Dealt, ShardResult, check_covers, check_file, subtotals_differ};
use crate::shard::{shard_spec, try_assign};
use nqueens::{
    Algorithm, Classes, Counter,
    plan::{Job, Plan, PlanSpec, Tally},
};

/// Parses an audit fraction: a number from 0 to 1 (0.01 recounts 1% of every shard).
///
/// # Errors
/// A one-line message naming the value and what is accepted, for text, NaN, infinities,
/// negative numbers and numbers above 1.
pub fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f.max(0.0)),
        _ => Err(format!(
            "audit fraction '{s}' is not a number from 0 to 1: use e.g. 0.01 to recount 1% of each shard's subproblems, 1 for all"
        )),
    }
}

/// One step of SplitMix64 (Steele, Lea and Flood, 2014): advances `state` and returns the next
/// 64 random bits.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Returns the seed of shard `shard`'s sample in an audit seeded by `seed`.
pub fn shard_seed(seed: u64, shard: usize) -> u64 {
    let mut s = seed ^ (shard as u64).wrapping_mul(0xd1b5_4a32_d192_ed03);
    splitmix64(&mut s)
}

/// Returns how many of `m` subproblems a sample of `fraction` recounts: ⌈fraction·m⌉, at most m.
pub fn sample_size(m: usize, fraction: f64) -> usize {
    ((fraction * m as f64).ceil() as usize).min(m)
}

/// Returns [`sample_size`]`(m, fraction)` distinct positions of `0..m`, increasing, drawn with
/// the generator seeded by `seed` (see the module docs).
pub fn sample(m: usize, fraction: f64, seed: u64) -> Vec<usize> {
    let want = sample_size(m, fraction);
    let mut state = seed;
    let mut out = Vec::with_capacity(want);
    for i in 0..m {
        let (left, need) = ((m - i) as u64, (want - out.len()) as u64);
        if need == 0 {
            break;
        }
        // Take position i with probability need / left (uniform over all samples of `want`).
        // 128-bit multiply-shift gives an unbiased enough draw in 0..left.
        let draw = ((u128::from(splitmix64(&mut state)) * u128::from(left)) >> 64) as u64;
        if draw < need {
            out.push(i);
        }
    }
    out
}

/// What an audit found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Shard results audited (those that passed the checks on their own).
    pub shards: usize,
    /// The subproblems they cover.
    pub subproblems: usize,
    /// The subproblems counted again.
    pub recounted: usize,
    /// One line per disagreement, each naming the file (and the host recorded in it).
    pub disagreements: Vec<String>,
}

/// A sampled subproblem of one file: where it is recorded and what was recorded.
struct Recorded {
    file: usize,
    tally: Tally,
}

/// The plan a result names: (algorithm, n, split depth, K).
type Key = (Algorithm, u32, u32, usize);

/// Audits `results` (each with the name of its file) at `fraction`, seeded by `seed`, counting
/// on `counter`'s threads (see the module docs): an [`Auditor`] fed every result in order.
pub fn audit(results: &[(String, ShardResult)], fraction: f64, seed: u64, counter: &Counter) -> Report {
    let mut auditor = Auditor::new(fraction, seed);
    for (name, r) in results {
        auditor.add(name, r);
    }
    auditor.finish(counter)
}

/// Returns the shard plan `key` names (algorithm, n, split depth, K) from `plans`, built and
/// dealt here the first time a result names it.
///
/// # Errors
/// Why it cannot be built or dealt here, as a file's refusal goes on after its name.
fn shard_plan(plans: &mut HashMap<Key, Rc<Dealt>>, key: Key) -> Result<&Dealt, String> {
    let (algorithm, n, split_depth, shards) = key;
    if let std::collections::hash_map::Entry::Vacant(v) = plans.entry(key) {
        let spec = PlanSpec { split_depth: Some(split_depth), ..shard_spec(algorithm, n, shards) };
        let plan = spec.build().map_err(|e| format!("its shard plan cannot be built here: {e}"))?;
        let ids = try_assign(plan.as_ref(), shards)
            .map_err(|e| format!("its shard plan cannot be dealt here: {e}"))?;
        v.insert(Rc::new(Dealt { plan, ids }));
    }
    Ok(&plans[&key])
}

/// Streams the decoded subtotals of a shard whose subproblems are `want` (of `plan`), in order:
/// returns their sum and the subtotals at the positions `picks` (increasing), each with its
/// subproblem, checking each against the plan as it goes.
///
/// # Errors
/// Why they cannot be the shard's (one undecodable or impossible, a sum beyond 128 bits, more
/// or fewer than `want`), as a file's refusal goes on after its name.
fn read_subtotals(
    plan: &dyn Plan,
    want: &[usize],
    decoded: impl IntoIterator<Item = Result<Tally, String>>,
    picks: &[usize],
) -> Result<(Tally, Vec<(usize, Tally)>), String> {
    let (mut sum, mut count, mut next) = (Tally::default(), 0usize, 0usize);
    let mut kept = Vec::with_capacity(picks.len());
    for t in decoded {
        let t = t?;
        if let Some(why) = want.get(count).and_then(|&id| plan.impossible(id, &t)) {
            return Err(format!("the subtotal of subproblem {} is impossible: {why}", want[count]));
        }
        if next < picks.len() && picks[next] == count {
            kept.push((want.get(count).copied(), t));
            next += 1;
        }
        sum = sum.checked_add(&t).ok_or("the subtotals add up beyond 128 bits")?;
        count += 1;
    }
    if count != want.len() {
        return Err(format!("it has {count} subtotals for {} subproblems", want.len()));
    }
    let kept = kept.into_iter().map(|(id, t)| (id.expect("the count of subtotals was checked"), t)).collect();
    Ok((sum, kept))
}

/// An audit that reads the shard results one at a time ([`Auditor::add`]): it keeps of each
/// file its name as messages give it and the sampled subtotals (at fraction F, about F of the
/// shard's subproblems), so that 10^5 files are audited in memory that grows with the sample,
/// not with the files; [`Auditor::finish`] recounts the samples.
pub struct Auditor {
    fraction: f64,
    seed: u64,
    report: Report,
    /// One plan per distinct (algorithm, n, split depth, K): normally one for all the files.
    plans: HashMap<Key, Rc<Dealt>>,
    /// Per plan: sampled id → the files that recorded it.
    sampled: HashMap<Key, BTreeMap<usize, Vec<Recorded>>>,
    /// Shards without subtotals, recounted whole at fraction 1: (file, plan, shard, counts).
    whole: Vec<(usize, Key, usize, Tally)>,
    /// Each file as messages name it ([`ShardResult::named`]).
    who: Vec<String>,
    /// (file, order within the file, line): sorted by file at the end.
    lines: Vec<(usize, usize, String)>,
}

impl Auditor {
    /// Returns an audit at `fraction` (0 to 1) seeded by `seed`, of no results yet.
    pub fn new(fraction: f64, seed: u64) -> Auditor {
        Auditor {
            fraction,
            seed,
            report: Report::default(),
            plans: HashMap::new(),
            sampled: HashMap::new(),
            whole: Vec::new(),
            who: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Takes `dealt`, the shard plan that `first`'s fields name, as the plan of every result
    /// that names the same (a [`crate::merge::Merger`]'s, [`crate::merge::Merger::plan`]), so
    /// that the audit builds no copy of it. A plan it already has is kept.
    pub fn adopt(&mut self, first: &ShardResult, dealt: Rc<Dealt>) {
        let Ok(algorithm) = first.algorithm.parse::<Algorithm>() else { return };
        let key = (algorithm, first.n, first.split_depth, first.shards);
        if dealt.ids.len() == first.shards {
            self.plans.entry(key).or_insert(dealt);
        }
    }

    /// Checks the result `r` of the file `name` on its own and keeps its sampled subtotals for
    /// [`Auditor::finish`].
    pub fn add(&mut self, name: &str, r: &ShardResult) {
        let (fraction, seed) = (self.fraction, self.seed);
        let f = self.who.len();
        let who = r.named(name);
        self.who.push(who.clone());
        let Auditor { report, plans, sampled, whole, lines, .. } = self;
        let mut refuse = |line: String| lines.push((f, 0, line));
        if let Some(problem) = check_file(name, r) {
            refuse(format!("{problem}; not audited"));
            return;
        }
        let algorithm = match r.algorithm.parse::<Algorithm>() {
            Ok(a) if a != Algorithm::Auto => a,
            _ => {
                refuse(format!(
                    "{who}: algorithm '{}' is not one a shard counts; not audited",
                    nqueens::boards::escape_controls(&r.algorithm)
                ));
                return;
            }
        };
        if r.shards == 0 || r.shards > crate::shard::MAX_SHARDS || r.shard >= r.shards {
            refuse(format!("{who}: shard {}/{} is out of range; not audited", r.shard, r.shards));
            return;
        }
        let key = (algorithm, r.n, r.split_depth, r.shards);
        let (plan, expected) = match shard_plan(plans, key) {
            Ok(dealt) => (&dealt.plan, &dealt.ids),
            Err(e) => {
                refuse(format!("{who}: {e}; not audited"));
                return;
            }
        };
        if plan.len() != r.subproblems {
            refuse(format!(
                "{who}: the shard plan has {} subproblems here but {} in the result; not audited",
                plan.len(),
                r.subproblems
            ));
            return;
        }
        let want = &expected[r.shard];
        if let Some(problem) = check_covers(name, r, want) {
            refuse(format!("{problem}; not audited"));
            return;
        }
        report.shards += 1;
        report.subproblems += want.len();
        if let Some(e) = r.missing_subtotals(algorithm.classifies(), want.len()) {
            refuse(format!("{who}: {e}: the file was forged or damaged"));
            return;
        }
        let Some(text) = &r.subtotals else {
            if fraction >= 1.0 {
                whole.push((f, key, r.shard, r.tally()));
            } else {
                refuse(format!(
                    "{who}: it records no subtotals (format {}), so only an audit at fraction 1 can check it, by recounting the whole shard",
                    r.format_version
                ));
            }
            return;
        };
        let picks = sample(want.len(), fraction, shard_seed(seed, r.shard));
        let decoded = match crate::subtotals::decode(text, algorithm.classifies()) {
            Ok(d) => d,
            Err(e) => {
                refuse(format!("{who}: {e}: the file was forged or damaged"));
                return;
            }
        };
        let (sum, kept) = match read_subtotals(plan.as_ref(), want, decoded, &picks) {
            Ok(read) => read,
            Err(e) => {
                refuse(format!("{who}: {e}: the file was forged or damaged"));
                return;
            }
        };
        if (sum.solutions, sum.classes) != (r.solutions, r.classes) {
            refuse(format!("{who}: {}", subtotals_differ(&sum, r)));
        }
        let ids = sampled.entry(key).or_default();
        for (id, tally) in kept {
            ids.entry(id).or_default().push(Recorded { file: f, tally });
        }
    }

    /// Recounts the sampled subproblems (each once, whichever files recorded it) and the
    /// shards to recount whole on `counter`'s threads, and returns what the audit found.
    pub fn finish(self, counter: &Counter) -> Report {
        let Auditor { mut report, plans, sampled, whole, who, mut lines, .. } = self;
        // Count the samples: one run per plan over every sampled id (each once).
        for (key, ids) in &sampled {
            let plan = plans[key].plan.as_ref();
            let only: Vec<usize> = ids.keys().copied().collect();
            let got = recount(counter, plan, &only);
            report.recounted += only.len();
            for (id, tally) in got {
                for rec in &ids[&id] {
                    if (rec.tally.solutions, rec.tally.classes) != (tally.solutions, tally.classes) {
                        let classified = key.0.classifies();
                        lines.push((
                            rec.file,
                            id + 1,
                            format!(
                                "{}: subproblem {id} recounts to {} but its subtotal says {}",
                                who[rec.file],
                                counts(&tally, classified),
                                counts(&rec.tally, classified)
                            ),
                        ));
                    }
                }
            }
        }
        // Shards without subtotals at fraction 1: recount each whole.
        for (f, key, shard, said) in whole {
            let (plan, expected) = (&plans[&key].plan, &plans[&key].ids);
            let want = &expected[shard];
            let sum = recount(counter, plan.as_ref(), want)
                .into_iter()
                .fold(Tally::default(), |s, (_, t)| s.checked_add(&t).unwrap_or(s));
            report.recounted += want.len();
            if (sum.solutions, sum.classes) != (said.solutions, said.classes) {
                let classified = key.0.classifies();
                lines.push((
                    f,
                    usize::MAX,
                    format!(
                        "{}: its {} subproblems recount to {} but it says {}",
                        who[f],
                        want.len(),
                        counts(&sum, classified),
                        counts(&said, classified)
                    ),
                ));
            }
        }
        lines.sort_by_key(|l| (l.0, l.1));
        report.disagreements = lines.into_iter().map(|l| l.2).collect();
        report
    }
}

/// Returns the counts of the subproblems `only` of `plan`, counted on `counter`'s threads, in
/// increasing id order.
pub(crate) fn recount(counter: &Counter, plan: &dyn Plan, only: &[usize]) -> Vec<(usize, Tally)> {
    let got: Mutex<Vec<(usize, Tally)>> = Mutex::new(Vec::with_capacity(only.len()));
    let on_solved = |id: usize, t: &Tally| {
        let t = Tally { nodes: 0, ..*t };
        got.lock().unwrap_or_else(|e| e.into_inner()).push((id, t));
    };
    counter.run(plan, Job { only: Some(only), on_solved: Some(&on_solved), stop: None });
    let mut got = got.into_inner().unwrap_or_else(|e| e.into_inner());
    got.sort_unstable_by_key(|g| g.0);
    got
}

/// Returns `t` as a message gives it: "41984 solutions", with the classes for an algorithm that
/// classifies ("…, classes 5,0,0,0" by orbit 8, 4, 2, 1).
pub(crate) fn counts(t: &Tally, classified: bool) -> String {
    let Classes { orbit8, orbit4, orbit2, orbit1 } = t.classes;
    if classified {
        format!("{} solutions (classes {orbit8},{orbit4},{orbit2},{orbit1})", t.solutions)
    } else {
        format!("{} solutions", t.solutions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_from_0_to_1_are_accepted_and_nothing_else() {
        assert_eq!(parse_fraction("0"), Ok(0.0));
        assert_eq!(parse_fraction("-0"), Ok(0.0));
        assert_eq!(parse_fraction("0.25"), Ok(0.25));
        assert_eq!(parse_fraction("1"), Ok(1.0));
        for bad in ["-0.1", "1.5", "NaN", "nan", "inf", "lots", "", "1e400"] {
            let err = parse_fraction(bad).unwrap_err();
            assert!(err.starts_with(&format!("audit fraction '{bad}' is not a number from 0 to 1")), "{err}");
        }
    }

    #[test]
    fn samples_have_the_asked_size_and_repeat_with_the_seed() {
        for (m, f, want) in
            [(0, 0.5, 0), (10, 0.0, 0), (10, 1.0, 10), (10, 0.01, 1), (1000, 0.25, 250), (7, 0.5, 4)]
        {
            let s = sample(m, f, 42);
            assert_eq!(s.len(), want, "m = {m}, f = {f}");
            assert!(s.windows(2).all(|w| w[0] < w[1]) && s.iter().all(|&i| i < m));
            assert_eq!(sample(m, f, 42), s);
        }
        assert_ne!(sample(1000, 0.1, 1), sample(1000, 0.1, 2));
        assert_ne!(shard_seed(7, 0), shard_seed(7, 1));
        // Every position is drawn about equally often.
        let mut hits = [0u32; 10];
        for seed in 0..10_000 {
            for i in sample(10, 0.3, seed) {
                hits[i] += 1;
            }
        }
        assert!(hits.iter().all(|&h| (2700..3300).contains(&h)), "{hits:?}");
    }
}
