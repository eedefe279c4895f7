//! The shard result (see [`crate::merge`]): what `nqueens count N --shard I/K` writes, its
//! checksum, and the checks of its subtotals on their own.

use serde::{Deserialize, Serialize};

use nqueens::boards::escape_controls;
use nqueens::{
    Classes,
    plan::{Plan, Tally},
};

/// The `format` field of every shard result.
pub const SHARD_FORMAT: &str = "nqueens-shard";

/// The shard result format version this program writes (4: [`Covers`], subtotals, and the host
/// under the checksum); it reads 1 (a list of ids), 2 ([`Covers`] alone) and 3 (the host
/// outside the checksum) too.
pub const SHARD_FORMAT_VERSION: u32 = 4;

/// Which subproblems a shard counted, compactly: their number and the CRC-32 of their ids
/// ([`Covers::of`]). With the plan (n, algorithm, split depth, subproblems, K, I) that the result
/// names, [`merge`] rebuilds the ids and checks both.
///
/// [`merge`]: fn@crate::merge::merge
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
    ///
    /// [`check_file`]: crate::merge::check_file
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
