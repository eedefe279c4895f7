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
//! subproblem ([`nqueens::Plan::impossible`]), and that the total satisfies every invariant that
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

use serde::{Deserialize, Serialize};

#[cfg(test)]
use crate::shard::assign;
use crate::shard::{shard_plan, try_assign};
use nqueens::boards::escape_controls;
use nqueens::{Algorithm, Classes, Count, Plan, Tally};

/// The `format` field of every shard result.
pub const SHARD_FORMAT: &str = "nqueens-shard";

/// The shard result format version this program writes (4: [`Covers`], subtotals, and the host
/// under the checksum); it reads 1 (a list of ids), 2 ([`Covers`] alone) and 3 (the host
/// outside the checksum) too.
pub const SHARD_FORMAT_VERSION: u32 = 4;

/// Which subproblems a shard counted, compactly: their number and the CRC-32 of their ids
/// ([`Covers::of`]). With the plan (n, algorithm, split depth, subproblems, K, I) that the result
/// names, [`merge`] rebuilds the ids and checks both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Covers {
    /// The number of subproblems.
    pub count: usize,
    /// `crc32:` and the CRC-32 (IEEE) of the ids in increasing order, written in decimal and
    /// joined by commas, 8 lowercase hex digits.
    pub ids_crc32: String,
}

impl Covers {
    /// Returns the [`Covers`] of `ids` (increasing).
    pub fn of(ids: &[usize]) -> Covers {
        Covers {
            count: ids.len(),
            ids_crc32: format!("crc32:{:08x}", crc32fast::hash(id_text(ids).as_bytes())),
        }
    }
}

/// Returns `ids` in decimal, joined by commas.
fn id_text(ids: &[usize]) -> String {
    ids.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

/// The result of counting one shard, as `count --shard I/K` writes it (JSON; counts are exact
/// JSON integers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always [`SHARD_FORMAT`].
    pub format: String,
    /// [`SHARD_FORMAT_VERSION`].
    pub format_version: u32,
    /// The board side.
    pub n: u32,
    /// The algorithm's name.
    pub algorithm: String,
    /// The shard plan's split depth.
    pub split_depth: u32,
    /// The shard plan's number of subproblems (ids `0..subproblems`).
    pub subproblems: usize,
    /// This shard's number I, `0..shards`.
    pub shard: usize,
    /// The number of shards K.
    pub shards: usize,
    /// The subproblems this shard counted (format 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covers: Option<Covers>,
    /// The subproblem ids this shard counted, increasing (format 1 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<usize>>,
    /// The solutions of the whole board these subproblems stand for (weights applied).
    pub solutions: u128,
    /// Their fundamental solutions by orbit size (zero for algorithms that do not classify).
    pub classes: Classes,
    /// Search-tree nodes, when counted for every subproblem of the shard.
    pub nodes: Option<u128>,
    /// Wall-clock seconds the shard took: of a resumed shard, every session's (each up to the
    /// last journal line it wrote; the journal carries them) plus the one that finished it.
    pub seconds: f64,
    /// Worker threads of that session.
    pub threads: usize,
    /// What counted in that session: device names (`opencl:0`, `cuda:1`) and `cpu` for CPU
    /// threads; absent in shards written before devices existed. Outside the checksum, as
    /// `seconds` and `threads` are: where a subproblem was solved does not change its counts,
    /// and the audit recounts on the CPU whatever counted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<Vec<String>>,
    /// The program version (`CARGO_PKG_VERSION`).
    pub version: String,
    /// The counts of each subproblem the shard covers, in increasing id order, as
    /// [`crate::subtotals::encode`] writes them (format 3; `None` in older formats and for a
    /// shard too large to carry them, see [`crate::subtotals::MAX_TEXT`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtotals: Option<String>,
    /// The host name of the machine that finished the shard (formats 3 and 4): under the
    /// checksum from format 4 (format 3 left it outside, with `seconds` and `threads`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// `crc32:` and the CRC-32 (IEEE) of [`ShardResult::checksum_text`], 8 lowercase hex digits.
    pub checksum: String,
}

impl ShardResult {
    /// Returns the text the checksum covers: every field but `seconds`, `threads`, `checksum`
    /// itself and, before format 4, `host`, in a fixed order (the subtotals, then from format 4
    /// ` host=` and the host (empty if none), last, so that the text of the older formats is
    /// unchanged).
    pub fn checksum_text(&self) -> String {
        // Format 1 lists the ids; format 2 names them by count and CRC.
        let ids = match (&self.ids, &self.covers) {
            (Some(ids), _) => format!("ids={}", id_text(ids)),
            (None, Some(c)) => format!("covers={}:{}", c.count, c.ids_crc32),
            (None, None) => "ids=".to_string(),
        };
        let c = &self.classes;
        let nodes = self.nodes.map_or_else(|| "-".to_string(), |v| v.to_string());
        let subtotals = self.subtotals.as_ref().map_or_else(String::new, |t| format!(" subtotals={t}"));
        let host = if self.format_version >= 4 {
            format!(" host={}", self.host.as_deref().unwrap_or(""))
        } else {
            String::new()
        };
        format!(
            "{} {} n={} algorithm={} split_depth={} subproblems={} shard={}/{} version={} {ids} solutions={} classes={},{},{},{} nodes={nodes}{subtotals}{host}",
            self.format,
            self.format_version,
            self.n,
            self.algorithm,
            self.split_depth,
            self.subproblems,
            self.shard,
            self.shards,
            self.version,
            self.solutions,
            c.orbit8,
            c.orbit4,
            c.orbit2,
            c.orbit1
        )
    }

    /// Returns the checksum field's value for the current fields.
    pub fn compute_checksum(&self) -> String {
        format!("crc32:{:08x}", crc32fast::hash(self.checksum_text().as_bytes()))
    }

    /// Returns the counts as a [`Tally`] (nodes 0 when not counted).
    pub fn tally(&self) -> Tally {
        let c = &self.classes;
        Tally { solutions: self.solutions, classes: *c, nodes: self.nodes.unwrap_or(0) }
    }

    /// Returns the [`Covers`] the result says it has (format 1: of its ids; `want`, the shard
    /// plan's ids, saves hashing them again when they are the same).
    ///
    /// # Panics
    /// If the result names no subproblems (see [`check_file`]).
    pub fn covers_of(&self, want: &[usize]) -> Covers {
        match &self.ids {
            Some(ids) if ids != want => Covers::of(ids),
            Some(_) => Covers::of(want),
            None => self.covers.clone().expect("check_file found the covers"),
        }
    }

    /// Returns how a message names the result from the file `name`: `s3.json (shard 3/16, host
    /// node7)`, without the host where the result records none (formats 1 and 2); the host's
    /// control characters escaped.
    pub fn named(&self, name: &str) -> String {
        match &self.host {
            Some(h) => format!("{name} (shard {}/{}, host {})", self.shard, self.shards, escape_controls(h)),
            None => format!("{name} (shard {}/{})", self.shard, self.shards),
        }
    }

    /// Returns the sum of the subtotals (nodes 0), or `None` where the result carries none,
    /// checking each against its subproblem of `plan` (`ids`, the shard's subproblems in
    /// increasing order: [`Plan::impossible`]).
    ///
    /// # Errors
    /// A message if the subtotals cannot be decoded, are not one per covered subproblem,
    /// add up beyond 128 bits, or one of them is impossible (naming the subproblem).
    pub fn subtotals_sum(&self, plan: &dyn Plan, ids: &[usize]) -> Result<Option<Tally>, String> {
        let Some(text) = &self.subtotals else { return Ok(None) };
        let mut sum = Tally::default();
        let mut count = 0usize;
        for t in crate::subtotals::decode(text, plan.algorithm().classifies())? {
            let t = t?;
            if let Some(&id) = ids.get(count)
                && let Some(why) = plan.impossible(id, &t)
            {
                return Err(format!("the subtotal of subproblem {id} is impossible: {why}"));
            }
            sum = sum.checked_add(&t).ok_or("the subtotals add up beyond 128 bits")?;
            count += 1;
        }
        if count != ids.len() {
            return Err(format!("it has {count} subtotals for {} subproblems", ids.len()));
        }
        Ok(Some(sum))
    }

    /// Returns the problem, if any, with a result of format 3 or later that carries no
    /// subtotals although they fit. A shard omits them only when their text would exceed
    /// [`crate::subtotals::MAX_TEXT`]; no subtotal exceeds the shard's own solutions (for d4:
    /// its orbit counts, and a difference under 8× its solutions), so with `covered`
    /// subproblems the text is at most `covered` times the varints of that size: when even
    /// that fits, the subtotals were dropped (by a forger hiding a changed count, say).
    pub fn missing_subtotals(&self, classifies: bool, covered: usize) -> Option<String> {
        let varint = |v: u128| (128 - v.leading_zeros()).div_ceil(7).max(1) as usize;
        let c = &self.classes;
        // A d4 subtotal's difference from its weighted classes is under 4× its solutions.
        let most = if classifies {
            [self.solutions.saturating_mul(8), c.orbit8, c.orbit4, c.orbit2, c.orbit1]
                .into_iter()
                .max()
                .unwrap_or(0)
        } else {
            self.solutions
        };
        let per_subproblem = if classifies { 5 * varint(most) } else { varint(most) };
        let most_bytes = covered.saturating_mul(per_subproblem);
        let most_text =
            crate::subtotals::PREFIX.len().saturating_add(most_bytes.div_ceil(3).saturating_mul(4));
        (self.format_version >= 3 && self.subtotals.is_none() && most_text <= crate::subtotals::MAX_TEXT).then(
            || {
                format!(
                    "it has no subtotals, which format {} always carries when they fit in {} bytes, as those of its {covered} subproblems do",
                    self.format_version,
                    crate::subtotals::MAX_TEXT
                )
            },
        )
    }
}

/// Returns this machine's host name (`gethostname` on Unix, `COMPUTERNAME` elsewhere), if the
/// system tells, as a shard result records it.
pub fn host_name() -> Option<String> {
    crate::sys::host_name()
}

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

/// Returns `seconds` rounded to microseconds, so that a sum of shards' seconds is written as
/// `0.149238`, not `0.14923841100000002` (the clocks measure no finer anyway).
pub fn round_micros(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// Checks the invariants a whole count (every subproblem of a plan, summed) satisfies and
/// returns its fundamental solutions by orbit size, if the algorithm gives them.
///
/// Every count: the solutions are at most n! (each is a permutation of the columns); from
/// n = 2 they are even (no board is its own mirror image, so solutions come in pairs), and for
/// n ≡ 2 or 3 (mod 4) a multiple of 4 (no board is symmetric under the 90° rotation there, so
/// every orbit has 4 or 8 boards); where OEIS A000170 knows Q(n) (n ≤ 27), they equal it, and
/// the classes equal the known ones. For the classes: no orbit of 1 from n = 2, no orbit of 2
/// unless n ≡ 0 or 1 (mod 4). For an algorithm that
/// classifies (d4), 8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 must equal the
/// solutions (the orbits partition the solutions; subproblems alone need not satisfy it). For the
/// join, the fundamental solutions come from Burnside's lemma ([`nqueens::algo::join::burnside_classes`]),
/// which must give a whole number; `classes` is what the caller already computed for it
/// (`Plan::fundamental`), or `None` to compute it here. For mirror, classes must be zero.
///
/// # Errors
/// A message naming the broken invariant and the numbers.
pub fn check_total(
    algorithm: Algorithm,
    n: u32,
    tally: &Tally,
    classes: Option<Classes>,
) -> Result<Option<Classes>, String> {
    let s = tally.solutions;
    if n >= 2 && !s.is_multiple_of(2) {
        return Err(format!(
            "{s} solutions of n = {n} are odd, but from n = 2 solutions come in mirror pairs (no board is its own mirror image)"
        ));
    }
    if n % 4 >= 2 && !s.is_multiple_of(4) {
        return Err(format!(
            "{s} solutions of n = {n} are not a multiple of 4, but for n ≡ 2 or 3 (mod 4) no board is symmetric under the 90° rotation, so every symmetry class has 4 or 8 boards"
        ));
    }
    let classes = total_classes(algorithm, n, tally, classes)?;
    if let Some(c) = classes {
        if n >= 2 && c.orbit1 != 0 {
            return Err(format!("{} classes of 1 board at n = {n}: only n = 1 has one", c.orbit1));
        }
        if n % 4 >= 2 && c.orbit2 != 0 {
            return Err(format!(
                "{} classes of 2 boards at n = {n}: for n ≡ 2 or 3 (mod 4) no board is symmetric under the 90° rotation",
                c.orbit2
            ));
        }
    }
    if let Some(known) = nqueens::oeis::A000170.get(n)
        && known != s
    {
        return Err(format!("{s} solutions of n = {n}, but Q({n}) = {known} (OEIS A000170)"));
    }
    if let (Some(c), Some(known)) = (classes, nqueens::oeis::known_classes(n))
        && c != known
    {
        let show = |c: Classes| format!("{}/{}/{}/{}", c.orbit8, c.orbit4, c.orbit2, c.orbit1);
        return Err(format!(
            "the symmetry classes 8/4/2/1 of n = {n} are {}, but the known ones are {} (OEIS A002562)",
            show(c),
            show(known)
        ));
    }
    Ok(classes)
}

/// The invariants of [`check_total`] that depend on the algorithm: n!, the classes adding up
/// (d4), none recorded (mirror), Burnside giving whole classes (join); returns the classes.
fn total_classes(
    algorithm: Algorithm,
    n: u32,
    tally: &Tally,
    classes: Option<Classes>,
) -> Result<Option<Classes>, String> {
    let algorithm = algorithm.resolve(n);
    // Every solution is a permutation of the columns: Q(n) <= n! (which fits 128 bits to n = 34).
    let factorial = (1..=n as u128).try_fold(1u128, |f, k| f.checked_mul(k));
    if let Some(f) = factorial
        && tally.solutions > f
    {
        return Err(format!(
            "{} solutions of n = {n} are more than the {f} permutations of its columns",
            tally.solutions
        ));
    }
    if n == 0 {
        return Ok(None);
    }
    if algorithm.classifies() {
        let c = tally.classes;
        return match c.checked_solutions() {
            Some(s) if s == tally.solutions => Ok(Some(c)),
            s => Err(format!(
                "8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 = 8·{} + 4·{} + 2·{} + {} = {} but the solutions are {}: the symmetry classes do not add up",
                c.orbit8,
                c.orbit4,
                c.orbit2,
                c.orbit1,
                s.map_or_else(|| "more than 2^128".to_string(), |s| s.to_string()),
                tally.solutions
            )),
        };
    }
    if tally.classes != Classes::default() {
        return Err(format!(
            "the {algorithm} algorithm does not classify solutions, yet symmetry classes are recorded"
        ));
    }
    if algorithm != Algorithm::Join {
        return Ok(None);
    }
    let classes = match classes {
        Some(c) => Some(c),
        // A table that does not fit here leaves the classes unknown, not wrong.
        None => match nqueens::algo::join::burnside_classes(n, tally.solutions) {
            Ok(c) => c,
            Err(_) => return Ok(None),
        },
    };
    match classes {
        Some(c) if c.checked_solutions() == Some(tally.solutions) => Ok(Some(c)),
        _ => Err(format!(
            "{} solutions of n = {n} are not a whole number of symmetry classes by Burnside's lemma: the count is wrong",
            tally.solutions
        )),
    }
}

/// Returns the message for subtotals that add up to `sum` in a result `r` that says otherwise.
pub fn subtotals_differ(sum: &Tally, r: &ShardResult) -> String {
    let c = |c: &Classes| format!("{},{},{},{}", c.orbit8, c.orbit4, c.orbit2, c.orbit1);
    if sum.solutions != r.solutions {
        format!(
            "its subtotals add up to {} solutions but it says {}: the file was forged or damaged",
            sum.solutions, r.solutions
        )
    } else {
        format!(
            "its subtotals add up to classes {} but it says {}: the file was forged or damaged",
            c(&sum.classes),
            c(&r.classes)
        )
    }
}

/// Returns the problem with the file `name` holding `r` on its own, if any: a format this
/// program does not read, subtotals in a format without them, no word of which subproblems it
/// covers, or a checksum that does not match.
pub fn check_file(name: &str, r: &ShardResult) -> Option<String> {
    let named = match r.format_version {
        1 => r.ids.is_some(),
        2..=SHARD_FORMAT_VERSION => r.covers.is_some(),
        _ => false,
    };
    if r.format != SHARD_FORMAT || !(1..=SHARD_FORMAT_VERSION).contains(&r.format_version) {
        Some(format!(
            "{name} is not a shard result of format {SHARD_FORMAT} 1 to {SHARD_FORMAT_VERSION} (it says {} {}): a newer nqueens wrote it, or another program",
            escape_controls(&r.format),
            r.format_version
        ))
    } else if r.format_version < 3 && r.subtotals.is_some() {
        Some(format!(
            "{name} has subtotals, which format {} does not have: it was changed or damaged",
            r.format_version
        ))
    } else if !named {
        let field = if r.format_version == 1 { "ids" } else { "covers" };
        Some(format!(
            "{name} does not say which subproblems it covers (format {} needs \"{field}\")",
            r.format_version
        ))
    } else if r.checksum != r.compute_checksum() {
        Some(format!(
            "{name}: checksum mismatch ({} written, {} computed): the file was changed or damaged",
            escape_controls(&r.checksum),
            r.compute_checksum()
        ))
    } else {
        None
    }
}

/// Returns the problem, if any, with the subproblems the result `r` (from the file `name`, which
/// passed [`check_file`]) covers when the shard plan gives its shard the ids `want`.
pub fn check_covers(name: &str, r: &ShardResult, want: &[usize]) -> Option<String> {
    let k = r.shards;
    let covers = r.covers_of(want);
    let right = Covers::of(want);
    if covers.count != right.count {
        Some(format!(
            "{name} (shard {}/{k}) covers {} subproblems, not the {} the shard plan gives it",
            r.shard, covers.count, right.count
        ))
    } else if covers.ids_crc32 != right.ids_crc32 || r.ids.as_ref().is_some_and(|ids| ids != want) {
        Some(format!(
            "{name} (shard {}/{k}) covers other subproblems than the shard plan gives it (ids {}, the plan's {}): it comes from another partition",
            r.shard, covers.ids_crc32, right.ids_crc32
        ))
    } else {
        None
    }
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
        // The fields outside the checksum, in range; counts added without wrapping.
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
        }
        if !r.seconds.is_finite() || r.seconds < 0.0 {
            problems.push(format!("{name}: seconds = {} is not a finite number >= 0", r.seconds));
        }
        if !algorithm.classifies() && r.classes != Classes::default() {
            problems.push(format!(
                "{name}: the {algorithm} algorithm does not classify solutions, yet the result records symmetry classes"
            ));
        }
        // The subtotals, where there are any, are each possible and add up to the shard's
        // counts; a result that can carry them does; its total is a multiple of what every
        // subproblem's is.
        match r.subtotals_sum(plan, want) {
            Ok(Some(sum)) if (sum.solutions, sum.classes) != (r.solutions, r.classes) => {
                problems.push(format!("{}: {}", r.named(name), subtotals_differ(&sum, r)));
            }
            Ok(_) => {}
            Err(e) => problems.push(format!("{}: {e}: the file was forged or damaged", r.named(name))),
        }
        if let Some(e) = r.missing_subtotals(algorithm.classifies(), covers.count) {
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
        let plan = shard_plan(algorithm, first.n, Some(first.split_depth), k)
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
mod tests {
    use super::*;

    /// Counts every shard of n = 10 in K shards directly, as `count --shard` would.
    fn shards(n: u32, k: usize) -> Vec<(String, ShardResult)> {
        shards_of(Algorithm::Mirror, n, k)
    }

    /// Counts every shard of `algorithm` on the `n`×`n` board in K shards directly.
    fn shards_of(algorithm: Algorithm, n: u32, k: usize) -> Vec<(String, ShardResult)> {
        let plan = shard_plan(algorithm, n, None, k).unwrap();
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
            err.starts_with(
                "cannot merge: the shards' sum is inconsistent: 3402823669209384634633746074317682"
            ),
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
            err.contains("8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1 = 8·90 + 4·3 + 2·0 + 0 = 732 but the solutions are 724"),
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
        assert!(
            err.contains(" solutions are not a multiple of 2, as every subproblem's it covers is"),
            "{err}"
        );
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
        s[1].1.seconds = 1e308;
        assert_eq!(
            merge(&s).unwrap_err().problems,
            ["the shards' seconds add up to inf, not a finite number"]
        );
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
        let plan = shard_plan(Algorithm::Mirror, 10, None, 2).unwrap();
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
        assert!(merge(&s).unwrap_err().to_string().contains(
            "s0.json is not a shard result of format nqueens-shard 1 to 4 (it says nqueens-shard 5)"
        ));
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
        assert!(
            merge(&s).unwrap_err().to_string().contains("s1.json does not say which subproblems it covers")
        );
        assert_eq!(merge(&[]).unwrap_err().problems, vec!["no shard results were given"]);
    }
}
