//! Result formats for `nqueens count`: one file per format behind the small [`Sink`] trait.
//!
//! Each format writes one record per board size as soon as it is counted, so a long range
//! (`nqueens count 1..20`) shows its rows as they come.

mod bfile;
mod csv;
mod json;
mod plan;
mod text;

use std::io::{self, Write};
use std::str::FromStr;

use serde::Serialize;

use nqueens::{Classes, Count, oeis};

pub use plan::{MAX_TIME_LIMIT, PlanReport, hms, write_plan};

/// One counted board, as every format writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// The board side.
    pub n: u32,
    /// Q(n), the number of solutions (OEIS A000170), exact.
    pub solutions: u128,
    /// The number of fundamental solutions (OEIS A002562), when the algorithm classifies
    /// solutions (`d4`) and n ≥ 1; `None` (JSON `null`, empty in csv, `-` in text) otherwise.
    pub unique: Option<u128>,
    /// The fundamental solutions by orbit size (JSON `{"8":…,"4":…,"2":…,"1":…}`; csv columns
    /// `c8,c4,c2,c1`), when `unique` is known.
    pub classes: Option<Classes>,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// The algorithm's name (`d4` or `mirror`).
    pub algorithm: &'static str,
    /// The instruction-set level the searches ran at ([`nqueens::arch::Isa::name`]); `None`
    /// (JSON `null`, empty in csv, `-` in text) for a count merged from shards.
    pub isa: Option<&'static str>,
    /// What counted ([`Count::device_names`]): `cpu`, device names such as `opencl:0` or
    /// `cuda:0,cuda:1,cpu`, `-` for a count merged from shards. Text shows it only when it is
    /// not `cpu`.
    pub device: String,
    /// Subproblems the board was split into.
    pub subproblems: usize,
    /// Rows fixed per subproblem.
    pub split_depth: u32,
    /// Whether every count equals the OEIS tables (`solutions` A000170; `unique` A002562 and
    /// `classes` the class breakdown, when present): `None` when n is beyond the known values.
    pub verified: Option<bool>,
    /// Search statistics, present with `--stats`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
}

impl Record {
    /// Returns the record's fields in column order as (name, value) pairs, the way the csv format
    /// writes them: `None` values are empty, and the statistics columns appear only with
    /// statistics.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        fn opt<T: ToString>(v: Option<T>) -> String {
            v.map(|x| x.to_string()).unwrap_or_default()
        }
        let class = |f: fn(&Classes) -> u128| opt(self.classes.as_ref().map(f));
        let mut fields = vec![
            ("n", self.n.to_string()),
            ("solutions", self.solutions.to_string()),
            ("unique", opt(self.unique)),
            ("c8", class(|c| c.orbit8)),
            ("c4", class(|c| c.orbit4)),
            ("c2", class(|c| c.orbit2)),
            ("c1", class(|c| c.orbit1)),
            ("seconds", self.seconds.to_string()),
            ("threads", self.threads.to_string()),
            ("algorithm", self.algorithm.to_string()),
            ("isa", opt(self.isa)),
            ("device", self.device.clone()),
            ("subproblems", self.subproblems.to_string()),
            ("split_depth", self.split_depth.to_string()),
            ("verified", opt(self.verified)),
        ];
        if let Some(st) = &self.stats {
            fields.extend([
                ("nodes", st.nodes.to_string()),
                ("nodes_per_second", format!("{:.0}", st.nodes_per_second)),
                ("cpu_seconds", format!("{:.6}", st.cpu_seconds)),
                ("efficiency", st.efficiency.map(|e| format!("{e:.4}")).unwrap_or_default()),
            ]);
        }
        fields
    }
}

/// Search statistics of one count (`nqueens count --stats`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Queen placements the search made (search-tree nodes below the subproblems' prefixes).
    pub nodes: u128,
    /// Nodes per wall-clock second.
    pub nodes_per_second: f64,
    /// CPU seconds of the process during the count (user + system, all threads).
    pub cpu_seconds: f64,
    /// Parallel efficiency: CPU seconds / (wall seconds × threads), 0 to 1; `None` (JSON
    /// `null`, empty in csv, `-` in text) where devices counted, whose drivers' threads spend
    /// CPU time of their own (pocl's CPU device all of it).
    pub efficiency: Option<f64>,
}

impl Stats {
    /// Returns the statistics of `count`, if it was counted with statistics.
    pub fn of(count: &Count) -> Option<Stats> {
        let (nodes, cpu) = (count.nodes?, count.cpu_seconds?);
        let wall = count.seconds.max(1e-9);
        Some(Stats {
            nodes,
            nodes_per_second: nodes as f64 / wall,
            cpu_seconds: (cpu * 1e6).round() / 1e6,
            efficiency: (count.device_names() == "cpu").then(|| cpu / (wall * count.threads as f64)),
        })
    }
}

impl Record {
    /// Returns the record of `count`, checked against the OEIS tables (see [`Count::check_known`]).
    pub fn new(count: &Count) -> Record {
        let (verified, _) = count.check_known();
        Record { verified, ..Record::with_table(count, &oeis::A000170) }
    }

    /// Returns the record of `count`, checked against `table` (a test can pass a wrong table to
    /// reach the failure path).
    pub fn with_table(count: &Count, table: &oeis::KnownValues) -> Record {
        Record {
            n: count.n,
            solutions: count.solutions,
            unique: count.unique,
            classes: count.classes,
            seconds: count.seconds,
            threads: count.threads,
            algorithm: count.algorithm.name(),
            isa: count.isa.map(|i| i.name()),
            device: count.device_names(),
            subproblems: count.subproblems,
            split_depth: count.split_depth,
            verified: table.verify(count.n, count.solutions),
            stats: Stats::of(count),
        }
    }
}

/// The output formats of `nqueens count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// An aligned table, one row per n (n, solutions, seconds, threads).
    #[default]
    Text,
    /// JSON Lines: one object per n; counts are JSON integers.
    Json,
    /// A header row, then one row per n.
    Csv,
    /// OEIS b-file lines `n a(n)`.
    Bfile,
    /// The number alone, one line per n (`count 16 --format plain` → `14772512`): the term of
    /// `--sequence`, as a b-file's, for scripts.
    Plain,
}

/// The output formats of `nqueens plan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanFormat {
    /// Aligned `label: value` lines.
    Text,
    /// One JSON object.
    Json,
}

impl Format {
    /// Every format, as the CLI spells them.
    pub const NAMES: [&'static str; 5] = ["text", "json", "csv", "bfile", "plain"];

    /// Returns a sink that writes records in this format to `out`; `show_verified` adds the
    /// verification column to the text table. A b-file's lines carry `sequence`; the other
    /// formats write every sequence anyway.
    pub fn sink_for<'a>(
        self,
        out: Box<dyn Write + 'a>,
        show_verified: bool,
        sequence: Sequence,
    ) -> Box<dyn Sink + 'a> {
        match self {
            Format::Text => Box::new(text::Text::new(out, show_verified)),
            Format::Json => Box::new(json::Json::new(out)),
            Format::Csv => Box::new(csv::Csv::new(out)),
            Format::Bfile => Box::new(bfile::Bfile::new(out, sequence, true)),
            Format::Plain => Box::new(bfile::Bfile::new(out, sequence, false)),
        }
    }
}

/// The sequence a b-file writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sequence {
    /// Q(n), the solutions: OEIS A000170 (`--sequence solutions`).
    #[default]
    Solutions,
    /// The fundamental solutions: OEIS A002562 (`--sequence unique`). Defined from n = 1 and
    /// only counted by the algorithms that classify solutions (`d4`, `join`); n = 0 writes no
    /// line.
    Unique,
    /// The solutions fixed by the 180° rotation ("point symmetric"): OEIS A032522
    /// (`--sequence rot180`), 4·c4 + 2·c2 + c1 from the symmetry classes. From n = 1, like
    /// `unique`.
    Rot180,
    /// The solutions fixed by the 90° rotation ("rotationally symmetric"): OEIS A033148
    /// (`--sequence rot90`), 2·c2 + c1 from the symmetry classes; zero unless n ≡ 0 or 1
    /// (mod 4). From n = 1, like `unique`.
    Rot90,
}

impl Sequence {
    /// Every sequence, as the CLI spells them.
    pub const NAMES: [&'static str; 4] = ["solutions", "unique", "rot180", "rot90"];

    /// Returns the name the CLI spells.
    pub fn name(self) -> &'static str {
        Sequence::NAMES[self as usize]
    }

    /// Returns true if and only if the sequence follows from the symmetry classes, which the
    /// `mirror` algorithm does not count.
    pub fn needs_classes(self) -> bool {
        self != Sequence::Solutions
    }

    /// Returns a(n) of this sequence for a record, or `None` when the record lacks what it needs
    /// (the classes; n = 0, outside the offset of the sequences other than A000170).
    pub fn term(self, r: &Record) -> Option<u128> {
        let c = r.classes.filter(|_| r.n >= 1);
        match self {
            Sequence::Solutions => Some(r.solutions),
            Sequence::Unique => r.unique.filter(|_| r.n >= 1),
            Sequence::Rot180 => c.map(|c| 4 * c.orbit4 + 2 * c.orbit2 + c.orbit1),
            Sequence::Rot90 => c.map(|c| 2 * c.orbit2 + c.orbit1),
        }
    }
}

impl FromStr for Sequence {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "solutions" => Ok(Sequence::Solutions),
            "unique" => Ok(Sequence::Unique),
            "rot180" => Ok(Sequence::Rot180),
            "rot90" => Ok(Sequence::Rot90),
            _ => Err(format!(
                "unknown sequence '{s}': use solutions (A000170), unique (A002562), rot180 (A032522) or rot90 (A033148)"
            )),
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            "bfile" => Ok(Format::Bfile),
            "plain" => Ok(Format::Plain),
            _ => Err(format!("unknown format '{s}': use one of {}", Format::NAMES.join(", "))),
        }
    }
}

/// A destination for records in one format.
pub trait Sink {
    /// Writes one record (and, before the first, any header) and flushes it.
    ///
    /// # Errors
    /// Any error of the underlying writer, such as a broken pipe.
    fn record(&mut self, record: &Record) -> io::Result<()>;
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn sample() -> Vec<Record> {
        let mk = |n, solutions, verified| Record {
            n,
            solutions,
            unique: None,
            classes: None,
            seconds: 0.25,
            threads: 2,
            algorithm: "mirror",
            isa: Some("avx2"),
            device: "cpu".into(),
            subproblems: 10,
            split_depth: 2,
            verified,
            stats: None,
        };
        let classes = Classes { orbit8: 11, orbit4: 1, orbit2: 0, orbit1: 0 };
        let d4 = Record {
            unique: Some(12),
            classes: Some(classes),
            algorithm: "d4",
            isa: None,
            device: "-".into(),
            ..mk(8, 92, Some(true))
        };
        vec![mk(4, 2, Some(true)), mk(5, 11, Some(false)), mk(29, 1u128 << 70, None), d4]
    }

    #[test]
    fn sequences_parse() {
        assert_eq!("unique".parse::<Sequence>(), Ok(Sequence::Unique));
        assert_eq!("solutions".parse::<Sequence>(), Ok(Sequence::Solutions));
        assert_eq!(
            "a002562".parse::<Sequence>().unwrap_err(),
            "unknown sequence 'a002562': use solutions (A000170), unique (A002562), rot180 (A032522) or rot90 (A033148)"
        );
    }

    pub(super) fn render(format: Format, show_verified: bool) -> String {
        render_sequence(format, show_verified, Sequence::Solutions)
    }

    pub(super) fn render_sequence(format: Format, show_verified: bool, sequence: Sequence) -> String {
        let mut buf = Vec::new();
        {
            let mut sink = format.sink_for(Box::new(&mut buf), show_verified, sequence);
            for r in sample() {
                sink.record(&r).unwrap();
            }
        }
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn formats_parse() {
        for name in Format::NAMES {
            assert!(name.parse::<Format>().is_ok());
        }
        assert_eq!(
            "xml".parse::<Format>().unwrap_err(),
            "unknown format 'xml': use one of text, json, csv, bfile, plain"
        );
    }

    #[test]
    fn records_verify_against_the_table() {
        let mut count = Count::new(8, 92, None, nqueens::Algorithm::Mirror);
        count.isa = Some(nqueens::arch::Isa::Portable);
        count.threads = 1;
        count.subproblems = 1;
        count.split_depth = 1;
        assert_eq!(Record::new(&count).verified, Some(true));
        let wrong = oeis::KnownValues { name: "test", offset: 8, values: &[93] };
        assert_eq!(Record::with_table(&count, &wrong).verified, Some(false));
        let mut beyond = count.clone();
        beyond.n = 28;
        assert_eq!(Record::new(&beyond).verified, None);
        // With fundamental solutions and classes, each is checked too.
        let classes = Classes { orbit8: 11, orbit4: 1, orbit2: 0, orbit1: 0 };
        let mut d4 = count.clone();
        (d4.unique, d4.classes, d4.algorithm) = (Some(12), Some(classes), nqueens::Algorithm::D4);
        assert_eq!(Record::new(&d4).verified, Some(true));
        let mut more = d4.clone();
        more.unique = Some(13);
        assert_eq!(Record::new(&more).verified, Some(false));
        let mut wrong = d4.clone();
        wrong.classes = Some(Classes { orbit8: 10, orbit4: 3, ..classes });
        assert_eq!(Record::new(&wrong).verified, Some(false));
    }
}
