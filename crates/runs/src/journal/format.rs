//! The journal's lines (see [`super`]): the header and the entries, their text and its parsing,
//! and the checksum that seals each line.

use crate::shard::ShardId;
use nqueens::boards::escape_controls;
use nqueens::{Classes, plan::Tally};

/// The journal format version this program reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The first word of every journal.
pub const MAGIC: &str = "nqueens-journal";

/// What a journal is about: a run resumes from a journal only if and only if its header is
/// equal to the one the command would write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The board side.
    pub n: u32,
    /// The algorithm's name.
    pub algorithm: String,
    /// The plan's split depth.
    pub split_depth: u32,
    /// The plan's number of subproblems (ids are `0..subproblems`).
    pub subproblems: usize,
    /// The shard the run counts, or `None` for the whole board.
    pub shard: Option<ShardId>,
    /// The program version that wrote the journal (`CARGO_PKG_VERSION`).
    pub version: String,
}

impl Header {
    /// Returns the header line, without its checksum and newline.
    pub(super) fn body(&self) -> String {
        let shard = self.shard.map_or_else(|| "all".to_string(), |s| s.to_string());
        format!(
            "{MAGIC} {FORMAT_VERSION} n={} algorithm={} split_depth={} subproblems={} shard={shard} version={}",
            self.n, self.algorithm, self.split_depth, self.subproblems, self.version
        )
    }

    pub(super) fn parse(body: &str) -> Result<Header, String> {
        let mut words = body.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(format!("it does not start with '{MAGIC}' (not a checkpoint journal)"));
        }
        match words.next() {
            Some(v) if v == FORMAT_VERSION.to_string() => {}
            v => {
                return Err(format!(
                    "journal format version {} is not supported: this program reads version {FORMAT_VERSION}",
                    v.unwrap_or("(none)")
                ));
            }
        }
        let fields =
            Fields::new(words, &["n", "algorithm", "split_depth", "subproblems", "shard", "version"])?;
        let shard = match fields.get("shard") {
            "all" => None,
            s => Some(s.parse::<ShardId>()?),
        };
        Ok(Header {
            n: fields.num("n")?,
            algorithm: fields.get("algorithm").to_string(),
            split_depth: fields.num("split_depth")?,
            subproblems: fields.num("subproblems")?,
            shard,
            version: fields.get("version").to_string(),
        })
    }

    /// Returns, for each field that differs from `want`, "field: journal X, command Y".
    pub(super) fn differences(&self, want: &Header) -> Vec<String> {
        let mut out = Vec::new();
        let mut cmp = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name} {} in the journal, {b} in this command", escape_controls(&a)));
            }
        };
        let shard = |s: Option<ShardId>| s.map_or_else(|| "all".to_string(), |s| s.to_string());
        cmp("n =", self.n.to_string(), want.n.to_string());
        cmp("algorithm", self.algorithm.clone(), want.algorithm.clone());
        cmp("split depth", self.split_depth.to_string(), want.split_depth.to_string());
        cmp("subproblems", self.subproblems.to_string(), want.subproblems.to_string());
        cmp("shard", shard(self.shard), shard(want.shard));
        cmp("program version", self.version.clone(), want.version.clone());
        out
    }
}

/// One solved subproblem as the journal records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The subproblem's index in the plan.
    pub id: usize,
    /// Its counts; `tally.nodes` is 0 when nodes were not counted.
    pub tally: Tally,
    /// Whether `tally.nodes` was counted.
    pub nodes_counted: bool,
    /// The run's wall-clock time when the line was written, in microseconds, the earlier
    /// sessions of a resumed run included (see the module docs); `None` for a line of a
    /// journal written before the field existed.
    pub micros: Option<u64>,
}

impl Entry {
    pub(super) fn body(&self) -> String {
        let c = &self.tally.classes;
        let nodes = if self.nodes_counted { self.tally.nodes.to_string() } else { "-".to_string() };
        let seconds = self
            .micros
            .map_or_else(String::new, |m| format!(" seconds={}.{:06}", m / 1_000_000, m % 1_000_000));
        format!(
            "id={} solutions={} classes={},{},{},{} nodes={nodes}{seconds}",
            self.id, self.tally.solutions, c.orbit8, c.orbit4, c.orbit2, c.orbit1
        )
    }

    pub(super) fn parse(body: &str) -> Result<Entry, String> {
        const KEYS: [&str; 5] = ["id", "solutions", "classes", "nodes", "seconds"];
        // A line written before `seconds` existed has the first four keys only.
        let fields = Fields::new(body.split(' '), &KEYS)
            .or_else(|e| Fields::new(body.split(' '), &KEYS[..4]).map_err(|_| e))?;
        let classes: Vec<&str> = fields.get("classes").split(',').collect();
        if classes.len() != 4 {
            return Err(format!("classes '{}' is not four numbers", fields.get("classes")));
        }
        let class = |k: usize| {
            classes[3 - k]
                .parse::<u128>()
                .map_err(|_| format!("class count '{}' is not a number", classes[3 - k]))
        };
        let (nodes, nodes_counted) = match fields.get("nodes") {
            "-" => (0, false),
            _ => (fields.num("nodes")?, true),
        };
        Ok(Entry {
            id: fields.num("id")?,
            tally: Tally {
                solutions: fields.num("solutions")?,
                classes: {
                    let (orbit1, orbit2, orbit4, orbit8) = (class(0)?, class(1)?, class(2)?, class(3)?);
                    Classes { orbit8, orbit4, orbit2, orbit1 }
                },
                nodes,
            },
            nodes_counted,
            micros: fields.has("seconds").then(|| seconds_micros(fields.get("seconds"))).transpose()?,
        })
    }
}

/// Parses the `seconds` of an entry, `S.FFFFFF` (whole seconds and six decimals), into
/// microseconds.
fn seconds_micros(v: &str) -> Result<u64, String> {
    let bad = || format!("seconds '{v}' is not a number of seconds with six decimals");
    let (whole, micros) = v.split_once('.').ok_or_else(bad)?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || micros.len() != 6 || !digits(micros) {
        return Err(bad());
    }
    let (whole, micros): (u64, u64) = (whole.parse().map_err(|_| bad())?, micros.parse().map_err(|_| bad())?);
    whole.checked_mul(1_000_000).and_then(|w| w.checked_add(micros)).ok_or_else(bad)
}

/// Returns the largest `seconds` of `entries` in microseconds (0 if none records it): the time
/// the run they come from had taken by its last line, its earlier sessions included.
pub fn spent_micros<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> u64 {
    entries.into_iter().filter_map(|e| e.micros).max().unwrap_or(0)
}

/// `key=value` words, each of the expected keys exactly once and nothing else.
struct Fields<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Fields<'a> {
    fn new(words: impl Iterator<Item = &'a str>, keys: &[&str]) -> Result<Fields<'a>, String> {
        let mut pairs = Vec::new();
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| format!("'{w}' is not key=value"))?;
            pairs.push((k, v));
        }
        let got: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        if got != keys {
            return Err(format!("fields {} are not the expected {}", got.join(","), keys.join(",")));
        }
        Ok(Fields(pairs))
    }

    fn has(&self, key: &str) -> bool {
        self.0.iter().any(|p| p.0 == key)
    }

    fn get(&self, key: &str) -> &'a str {
        self.0.iter().find(|p| p.0 == key).map(|p| p.1).expect("keys were checked")
    }

    fn num<T: std::str::FromStr>(&self, key: &str) -> Result<T, String> {
        let v = self.get(key);
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{key} '{v}' is not a non-negative integer"));
        }
        v.parse().map_err(|_| format!("{key} '{v}' is out of range"))
    }
}

/// Returns `body` with its checksum appended: `body crc32=xxxxxxxx\n`.
pub(super) fn seal(body: &str) -> String {
    format!("{body} crc32={:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// Returns the body of a sealed line (without its `\n`) if and only if its checksum matches.
pub(super) fn unseal(line: &str) -> Result<&str, String> {
    if line.ends_with('\r') {
        return Err("it ends in a carriage return (\\r): the journal was converted to CRLF line ends (by an editor or a file transfer), which this program never writes".into());
    }
    let (body, crc) = line.rsplit_once(" crc32=").ok_or("it has no crc32 checksum")?;
    let want = format!("{:08x}", crc32fast::hash(body.as_bytes()));
    if crc != want {
        return Err(format!(
            "checksum mismatch (crc32 {crc} written, {want} computed): the line was changed or damaged"
        ));
    }
    Ok(body)
}
