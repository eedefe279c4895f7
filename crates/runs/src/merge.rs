//! Shard results and their verified merge: what `nqueens count N --shard I/K` writes, and the
//! checks `nqueens merge` makes before it adds shards up.
//!
//! A shard result is one JSON object (see [`ShardResult`]) with a CRC-32 checksum over its
//! counting fields. [`merge`] accepts a set of results if and only if every checksum holds, all
//! agree on n, algorithm, split depth, number of subproblems, K and program version, every shard
//! `0..K` is there exactly once, and each shard covers exactly the subproblems the shard plan
//! ([`crate::shard::assign`], rebuilt here) gives it — so the sum is over every subproblem once.
//!
//! The subproblems a shard covers follow from (plan, I, K), so a result names them compactly
//! ([`Covers`]: their number and a CRC-32 of their ids, format 2) rather than listing them (format
//! 1 listed every id: 55,000 numbers per file at n = 21, K = 16; still read).
//!
//! Format 3 adds the counts of every subproblem the shard ran ([`ShardResult::subtotals`],
//! encoded by [`crate::subtotals`]; about 1.8 KB for a shard of n = 24 in K = 4,096) and the host
//! that ran it ([`ShardResult::host`]); format 4 puts the host under the checksum. [`merge`]
//! checks that the subtotals add up to the shard's counts and that each is possible for its
//! subproblem ([`nqueens::plan::Plan::impossible`]), and that the total satisfies every invariant that
//! costs nothing and, for n ≤ 27, equals the known value ([`check_total`]); `nqueens merge
//! --audit` ([`crate::audit`]) recounts a random sample of the subtotals. Formats 1 to 3 are
//! still read.
//!
//! [`Merger`] makes these checks one result at a time, so that `nqueens merge` reads 10^5 shard
//! files in memory that grows with their number (a name each, 4 bytes a shard) and with the
//! shard plan, never with what the files hold (results/2026-12-02-shards/: 1.2–2.9 s and
//! 20–167 MiB for 10^5 files); [`merge`] is a merger fed a slice.
//!
//! Every string a result carries (format, algorithm, version, host) is written into messages
//! with its control characters escaped ([`nqueens::boards::escape_controls`]), so a file cannot
//! draw on the terminal.

use std::rc::Rc;

use crate::shard::{shard_spec, try_assign};
pub use crate::shard_result::{Covers, SHARD_FORMAT, SHARD_FORMAT_VERSION, ShardResult, host_name};
pub use crate::verify::{check_covers, check_file, check_total, subtotals_differ};
use nqueens::boards::escape_controls;
use nqueens::{
    Algorithm, Classes, Count,
    plan::{Plan, PlanSpec, Tally},
};

/// The sum of a complete, consistent set of shards.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The board side.
    pub n: u32,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The shard plan's split depth.
    pub split_depth: u32,
    /// The shard plan's number of subproblems.
    pub subproblems: usize,
    /// The number of shards K.
    pub shards: usize,
    /// The exact sum of every shard's counts (nodes 0 unless every shard counted them).
    pub tally: Tally,
    /// Whether every shard counted nodes.
    pub nodes_counted: bool,
    /// The fundamental solutions of the whole count by orbit size (OEIS A002562), checked
    /// against the solutions ([`check_total`]); `None` for an algorithm that does not classify
    /// (mirror), for n = 0, or for a join whose Burnside count does not fit in memory here.
    pub classes: Option<Classes>,
    /// The shards' wall-clock seconds, summed (the machine time the count took, however the
    /// shards ran), rounded to microseconds ([`round_micros`]).
    pub seconds: f64,
    /// The most worker threads any shard used. Not the sum: shards that ran one after another
    /// on one machine would count its threads twice, and a sum of K shards' threads is no
    /// thread count any process had; the largest tells the widest machine the count ran on.
    pub threads: usize,
    /// What counted the shards, every name any shard recorded ([`ShardResult::devices`]), in
    /// order, `cpu` for shards written before devices existed: at most [`MAX_DEVICE_NAMES`].
    pub devices: std::collections::BTreeSet<String>,
}

/// The most device names a shard result may record, and a merge report, and the longest one.
pub const MAX_DEVICE_NAMES: usize = 64;
/// See [`MAX_DEVICE_NAMES`].
pub const MAX_DEVICE_NAME: usize = 64;

/// Returns true if and only if `name` is a device name a shard result records: `cpu`, or
/// `cuda:N` or `opencl:N` with N a device index (1 to 5 digits).
pub fn is_device_name(name: &str) -> bool {
    let index = name.strip_prefix("cuda:").or_else(|| name.strip_prefix("opencl:"));
    name == "cpu"
        || index.is_some_and(|i| (1..=5).contains(&i.len()) && i.bytes().all(|b| b.is_ascii_digit()))
}

impl Merged {
    /// Returns the count the merged shards add up to, as a whole run would report it (no CPU
    /// time: the shards ran elsewhere), with the fundamental solutions [`merge`] checked.
    pub fn count(&self) -> Count {
        let mut count = Count::new(self.n, self.tally.solutions, self.classes, self.algorithm);
        count.seconds = self.seconds;
        count.threads = self.threads;
        count.subproblems = self.subproblems;
        count.split_depth = self.split_depth;
        count.nodes = self.nodes_counted.then_some(self.tally.nodes);
        count.devices = self.devices.iter().cloned().collect();
        count
    }
}

/// The most worker threads a shard result may say it used (as the command line allows).
pub const MAX_THREADS: usize = 4096;

/// The most wall-clock seconds a shard result may say it ran (10^12, about 31,700 years): the
/// field lies outside the checksum, and a larger value (10^308 was merged) overflowed the
/// merged time once rounded to microseconds ([`round_micros`]) and printed as `inf`.
pub const MAX_SHARD_SECONDS: f64 = 1e12;

/// Returns `seconds` rounded to microseconds, so that a sum of shards' seconds is written as
/// `0.149238`, not `0.14923841100000002` (the clocks measure no finer anyway).
pub fn round_micros(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// Why a set of shard results cannot be merged: every problem found, one per entry.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("cannot merge: {}", .problems.join("; "))]
pub struct MergeError {
    /// The problems, each naming the file(s) or shard(s) concerned.
    pub problems: Vec<String>,
}

/// Checks `results` (each with the name of the file it came from) and returns their sum: a
/// [`Merger`] fed every result in order.
///
/// # Errors
/// As [`Merger::finish`].
pub fn merge(results: &[(String, ShardResult)]) -> Result<Merged, MergeError> {
    let mut merger = Merger::new();
    for (name, r) in results {
        merger.add(name, r);
    }
    merger.finish()
}

/// No shard: a slot of [`Merger`]'s table of which file holds each shard.
const NO_FILE: u32 = u32::MAX;

/// A shard plan rebuilt to check shard results against: the plan and every shard's subproblems
/// ([`crate::shard::try_assign`]). Shared ([`Rc`]) by a [`Merger`] and an
/// [`crate::audit::Auditor`] of the same files, so that `merge --audit` holds one copy (the
/// join's quarter table is 6.9 GB at n = 26–27).
pub struct Dealt {
    /// The shard plan.
    pub plan: Box<dyn Plan>,
    /// The ids of shard i, increasing, at `ids[i]`.
    pub ids: Vec<Vec<usize>>,
}

/// A merge of shard results that reads them one at a time, so that 10^5 files merge in memory
/// that grows with the number of files and shards (a name per file, 4 bytes per shard, the
/// shard plan) and never with what the files hold: each result's subtotals are checked and
/// added up as it comes, then dropped ([`Merger::add`]). [`merge`] is a merger fed a slice.
///
/// The problems are reported as [`merge`] always did, in stages, each only if the ones before
/// found none: the files on their own and against the first (format, checksum, n, algorithm,
/// K, split depth, subproblems, version); K in range; the shards each there once; the shard
/// plan rebuilt here; each file against its shard of the plan (the subproblems it covers, its
/// fields in range, its subtotals, a sum that stays within 128 bits); the invariants of the
/// total ([`check_total`]).
pub struct Merger {
    /// Every file's name, in the order given (4 bytes more per file in `holder`).
    names: Vec<String>,
    /// The first result, without its subtotals: what every other must agree with.
    first: Option<ShardResult>,
    /// Problems of the files on their own and against the first.
    files: Vec<String>,
    /// K out of range (from the first file), if it is.
    k_range: Option<String>,
    /// The file holding each shard `0..K` ([`NO_FILE`] if none yet).
    holder: Vec<u32>,
    /// A shard given again: (shard, file), in the order the files came.
    again: Vec<(usize, u32)>,
    /// Files naming a shard outside `0..K`.
    outside: Vec<String>,
    /// The shard plan, once a file passed the first stage; or why it cannot be rebuilt.
    dealt: Option<Result<Rc<Dealt>, String>>,
    /// Problems of the files against their shard of the plan.
    checks: Vec<String>,
    /// Whether the sum overflowed (no later file is added).
    overflowed: bool,
    /// The file with the most solutions so far, and them: blamed for an overflow of solutions.
    most: Option<(u128, u32)>,
    /// The sum so far.
    merged: Merged,
}

impl Default for Merger {
    fn default() -> Self {
        Merger::new()
    }
}

impl Merger {
    /// Returns a merger of no results yet.
    pub fn new() -> Merger {
        Merger {
            names: Vec::new(),
            first: None,
            files: Vec::new(),
            k_range: None,
            holder: Vec::new(),
            again: Vec::new(),
            outside: Vec::new(),
            dealt: None,
            checks: Vec::new(),
            overflowed: false,
            most: None,
            merged: Merged {
                n: 0,
                algorithm: Algorithm::Auto,
                split_depth: 0,
                subproblems: 0,
                shards: 0,
                tally: Tally::default(),
                nodes_counted: true,
                classes: None,
                seconds: 0.0,
                threads: 0,
                devices: std::collections::BTreeSet::new(),
            },
        }
    }

    /// Returns the first result added (without its subtotals) and the shard plan rebuilt from
    /// it, once a result has passed the checks of the files on their own (see [`Merger`]).
    pub fn plan(&self) -> Option<(&ShardResult, Rc<Dealt>)> {
        match (&self.first, &self.dealt) {
            (Some(first), Some(Ok(dealt))) => Some((first, Rc::clone(dealt))),
            _ => None,
        }
    }

    /// Returns the number of results added.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Returns true if and only if no result was added.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Checks the result `r` from the file `name` and adds it up (see [`Merger`]); what is
    /// wrong is reported by [`Merger::finish`]. Keeps the name and nothing of `r` but its
    /// place in the table of shards (the first result's fields, less its subtotals).
    pub fn add(&mut self, name: &str, r: &ShardResult) {
        let f = self.names.len() as u32;
        self.names.push(name.to_string());
        self.files.extend(check_file(name, r));
        let Some(first) = &self.first else {
            let first = ShardResult { subtotals: None, ..r.clone() };
            let k = first.shards;
            if k == 0 || k > crate::shard::MAX_SHARDS {
                self.k_range = Some(format!(
                    "{name} has K = {k} shards: a shard result has 1..={} shards",
                    crate::shard::MAX_SHARDS
                ));
            } else {
                self.holder = vec![NO_FILE; k];
            }
            self.first = Some(first);
            return self.place_and_check(f, name, r);
        };
        let first_name = &self.names[0];
        let mut differ = |field: &str, a: String, b: String| {
            if a != b {
                self.files.push(format!("{name} has {field} {a} but {first_name} has {b}"));
            }
        };
        differ("n =", r.n.to_string(), first.n.to_string());
        differ("algorithm", escape_controls(&r.algorithm), escape_controls(&first.algorithm));
        differ("K =", r.shards.to_string(), first.shards.to_string());
        differ("split depth", r.split_depth.to_string(), first.split_depth.to_string());
        differ("subproblems", r.subproblems.to_string(), first.subproblems.to_string());
        differ("version", escape_controls(&r.version), escape_controls(&first.version));
        self.place_and_check(f, name, r);
    }

    /// Records which shard file `f` holds, then checks it against its shard of the plan and
    /// adds it up, while no earlier stage has found a problem (a later one makes these checks
    /// moot, and [`Merger::finish`] reports the earliest stage's problems only).
    fn place_and_check(&mut self, f: u32, name: &str, r: &ShardResult) {
        if !self.files.is_empty() || self.k_range.is_some() {
            return;
        }
        let k = self.holder.len();
        match self.holder.get_mut(r.shard) {
            Some(h) if *h == NO_FILE => *h = f,
            Some(_) => self.again.push((r.shard, f)),
            None => self.outside.push(format!("{name} has shard {} but K = {k}", r.shard)),
        }
        if self.overflowed || r.shard >= k {
            return;
        }
        if self.dealt.is_none() {
            self.dealt = Some(self.deal());
        }
        let Some(Ok(dealt)) = &self.dealt else { return };
        let (plan, want) = (dealt.plan.as_ref(), &dealt.ids[r.shard]);
        let (algorithm, merged, problems) = (self.merged.algorithm, &mut self.merged, &mut self.checks);
        let covers = r.covers_of(want);
        problems.extend(check_covers(name, r, want));
        check_fields(name, r, algorithm, problems);
        check_counts(name, r, plan, want, covers.count, algorithm.classifies(), problems);
        if self.most.is_none_or(|(s, _)| r.solutions > s) {
            self.most = Some((r.solutions, f));
        }
        match merged.tally.checked_add(&r.tally()) {
            Some(t) => merged.tally = t,
            None => {
                let field = if merged.tally.solutions.checked_add(r.solutions).is_none() {
                    "solutions"
                } else if merged.tally.classes.checked_add(&r.classes).is_none() {
                    "classes"
                } else {
                    "nodes"
                };
                // Blame the file with the most solutions so far (the forged one, when one is).
                let most = self.most.map_or(name, |(_, m)| &self.names[m as usize]);
                let blame = if field == "solutions" { most } else { name };
                problems.push(format!(
                    "{blame}: adding its {field} to the other shards' overflows 128 bits: the file was forged or damaged"
                ));
                self.overflowed = true;
                return;
            }
        }
        merged.nodes_counted &= r.nodes.is_some();
        merged.seconds += r.seconds;
        merged.threads = merged.threads.max(r.threads);
        match &r.devices {
            // Shards from before devices existed counted on the CPU.
            None => {
                merged.devices.insert("cpu".to_string());
            }
            Some(names) => {
                for d in names.iter().take(MAX_DEVICE_NAMES) {
                    if merged.devices.len() < MAX_DEVICE_NAMES || merged.devices.contains(d) {
                        merged.devices.insert(d.clone());
                    }
                }
            }
        }
    }

    /// Rebuilds the shard plan of the first result and deals it (or says why it cannot).
    fn deal(&mut self) -> Result<Rc<Dealt>, String> {
        let first = self.first.as_ref().expect("a result was added");
        let first_name = &self.names[0];
        let k = first.shards;
        let algorithm: Algorithm = match first.algorithm.parse() {
            Ok(a) if a != Algorithm::Auto => a,
            _ => {
                return Err(format!(
                    "{first_name}: algorithm '{}' is not one a shard counts (d4, mirror or join)",
                    escape_controls(&first.algorithm)
                ));
            }
        };
        let plan = PlanSpec { split_depth: Some(first.split_depth), ..shard_spec(algorithm, first.n, k) }
            .build()
            .map_err(|e| plan_refused(first_name, first, &e))?;
        if plan.len() != first.subproblems {
            return Err(format!(
                "the shard plan has {} subproblems here but {} in the results: they come from another plan",
                plan.len(),
                first.subproblems
            ));
        }
        let ids = try_assign(plan.as_ref(), k).map_err(|e| format!("{first_name}: {e}"))?;
        self.merged.n = first.n;
        self.merged.algorithm = algorithm;
        self.merged.split_depth = first.split_depth;
        self.merged.subproblems = first.subproblems;
        self.merged.shards = k;
        Ok(Rc::new(Dealt { plan, ids }))
    }

    /// Returns the sum of the results added, if they are a complete, consistent set.
    ///
    /// # Errors
    /// [`MergeError`] listing every bad checksum or format, every file that disagrees with the
    /// first on n, algorithm, split depth, subproblems, K or version, every missing and every
    /// duplicated shard, every shard whose ids are not the ones the shard plan gives it, every
    /// field out of range (threads, seconds, classes of an algorithm that does not classify), a
    /// sum that overflows 128 bits (naming the file and field), and a sum that breaks
    /// [`check_total`]: the problems of the earliest stage that has any (see [`Merger`]).
    pub fn finish(self) -> Result<Merged, MergeError> {
        let fail = |problems: Vec<String>| Err(MergeError { problems });
        if self.names.is_empty() {
            return fail(vec!["no shard results were given".into()]);
        }
        if !self.files.is_empty() {
            return fail(self.files);
        }
        if let Some(k) = self.k_range {
            return fail(vec![k]);
        }
        let k = self.holder.len();
        let mut problems = self.outside;
        let missing: Vec<usize> =
            self.holder.iter().enumerate().filter(|(_, h)| **h == NO_FILE).map(|(i, _)| i).collect();
        if !missing.is_empty() {
            problems.push(missing_shards(&missing, k));
        }
        let mut again = self.again;
        again.sort_by_key(|&(shard, _)| shard);
        for run in again.chunk_by(|a, b| a.0 == b.0) {
            let shard = run[0].0;
            let names: Vec<&str> = std::iter::once(self.holder[shard])
                .chain(run.iter().map(|&(_, f)| f))
                .map(|f| self.names[f as usize].as_str())
                .collect();
            problems.push(format!("shard {shard}/{k} is given {} times ({})", names.len(), names.join(", ")));
        }
        if !problems.is_empty() {
            return fail(problems);
        }
        match self.dealt {
            Some(Ok(_)) => {}
            Some(Err(e)) => return fail(vec![e]),
            None => unreachable!("a complete set of shards was dealt"),
        }
        let mut problems = self.checks;
        let mut merged = self.merged;
        if problems.is_empty() && !merged.seconds.is_finite() {
            problems.push(format!("the shards' seconds add up to {}, not a finite number", merged.seconds));
        }
        if !problems.is_empty() {
            return fail(problems);
        }
        if !merged.nodes_counted {
            merged.tally.nodes = 0;
        }
        merged.seconds = round_micros(merged.seconds);
        merged.classes =
            check_total(merged.algorithm, merged.n, &merged.tally, None).map_err(|e| MergeError {
                problems: vec![format!(
                    "the shards' sum is inconsistent: {e}; one of them was forged or damaged"
                )],
            })?;
        Ok(merged)
    }
}

/// Pushes onto `problems` what is wrong with the fields of result `r` (from the file `name`,
/// counted with `algorithm`) that its checksum does not cover: threads, devices and seconds in
/// range, and no symmetry classes from an algorithm that does not classify.
fn check_fields(name: &str, r: &ShardResult, algorithm: Algorithm, problems: &mut Vec<String>) {
    // 0 CPU threads: a shard counted on devices alone, which it names.
    let on_devices = r.devices.as_ref().is_some_and(|d| !d.is_empty() && !d.iter().any(|d| d == "cpu"));
    let least = usize::from(!on_devices);
    if !(least..=MAX_THREADS).contains(&r.threads) {
        problems.push(format!("{name}: threads = {} is out of range {least}..={MAX_THREADS}", r.threads));
    }
    let devices = r.devices.as_deref().unwrap_or(&[]);
    if devices.len() > MAX_DEVICE_NAMES
        || devices
            .iter()
            .any(|d| d.is_empty() || d.len() > MAX_DEVICE_NAME || d.chars().any(char::is_control))
    {
        problems.push(format!(
            "{name}: devices is not a list of at most {MAX_DEVICE_NAMES} names of 1 to {MAX_DEVICE_NAME} characters"
        ));
    } else if let Some(d) = devices.iter().find(|d| !is_device_name(d)) {
        // Outside the checksum: a name is merged only if it is one `count` writes (any
        // string was merged as it stood: issue 40).
        problems.push(format!(
            "{name}: devices names '{}', which is no device count writes (cpu, cuda:N or opencl:N)",
            escape_controls(d)
        ));
    }
    if !r.seconds.is_finite() || r.seconds < 0.0 {
        problems.push(format!("{name}: seconds = {} is not a finite number >= 0", r.seconds));
    } else if r.seconds > MAX_SHARD_SECONDS {
        problems.push(format!(
            "{name}: seconds = {:e} is more than any shard runs (at most 1e12, about 31,700 years)",
            r.seconds
        ));
    }
    if !algorithm.classifies() && r.classes != Classes::default() {
        problems.push(format!(
            "{name}: the {algorithm} algorithm does not classify solutions, yet the result records symmetry classes"
        ));
    }
}

/// Pushes onto `problems` what is wrong with the counts of result `r` (from the file `name`)
/// of the subproblems `want` of `plan`, of which it covers `covered`, counted with an
/// algorithm that `classifies` or not: its subtotals, where
/// there are any, are each possible and add up to its counts; a result that can carry them
/// does; its total is a multiple of what every subproblem's is.
fn check_counts(
    name: &str,
    r: &ShardResult,
    plan: &dyn Plan,
    want: &[usize],
    covered: usize,
    classifies: bool,
    problems: &mut Vec<String>,
) {
    match r.subtotals_sum(plan, want) {
        Ok(Some(sum)) if (sum.solutions, sum.classes) != (r.solutions, r.classes) => {
            problems.push(format!("{}: {}", r.named(name), subtotals_differ(&sum, r)));
        }
        Ok(_) => {}
        Err(e) => problems.push(format!("{}: {e}: the file was forged or damaged", r.named(name))),
    }
    if let Some(e) = r.missing_subtotals(classifies, covered) {
        problems.push(format!("{}: {e}: the file was forged or damaged", r.named(name)));
    }
    let m = want.iter().fold(0u128, |g, &id| gcd(g, plan.multiple_of(id)));
    if m > 1 && !r.solutions.is_multiple_of(m) {
        problems.push(format!(
            "{}: its {} solutions are not a multiple of {m}, as every subproblem's it covers is: the file was forged or damaged",
            r.named(name),
            r.solutions
        ));
    }
}

/// Returns the greatest common divisor of `a` and `b` (`gcd(0, b) = b`).
fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Returns the message naming the missing shards `missing` (increasing) of K = `k`, runs of
/// consecutive shards as ranges: "missing shard(s) 0/4, 3/4", "missing shard(s) 1-4095/4096
/// (4095 of 4096)".
pub fn missing_shards(missing: &[usize], k: usize) -> String {
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < missing.len() {
        let mut j = i;
        while j + 1 < missing.len() && missing[j + 1] == missing[j] + 1 {
            j += 1;
        }
        runs.push(if i == j {
            format!("{}/{k}", missing[i])
        } else {
            format!("{}-{}/{k}", missing[i], missing[j])
        });
        i = j + 1;
    }
    let all = if runs.len() < missing.len() { format!(" ({} of {k})", missing.len()) } else { String::new() };
    format!("missing shard(s) {}{all}", runs.join(", "))
}

/// Returns why the shard plan of `r` (from the file `name`) cannot be rebuilt here to check it,
/// worded for merging rather than counting: the join's quarter table that does not fit, the
/// memory a d4 or mirror plan needs, a board or depth out of range.
fn plan_refused(name: &str, r: &ShardResult, e: &nqueens::Error) -> String {
    let what = format!(
        "{name}: the shard plan of its n = {}, {} with K = {} cannot be rebuilt here to check the shards",
        r.n,
        escape_controls(&r.algorithm),
        r.shards
    );
    match e {
        nqueens::Error::JoinTooLarge {
            needed_mib, available_mib, address_space_limit_mib, max, n, ..
        } => {
            if n > max {
                format!("{what}: the join supports n <= {max}: the file was forged or damaged")
            } else {
                let limit = address_space_limit_mib
                    .map_or(String::new(), |l| format!(", under an address-space limit of {l} MiB"));
                format!(
                    "{what}: the join's quarter table and one thread's buffers need about {needed_mib} MiB, and the join takes at most 3/4 of the {available_mib} MiB available to this process{limit}: merge where more memory is free"
                )
            }
        }
        e => format!("{what}: {e}"),
    }
}

#[cfg(test)]
mod tests;
