//! The command line: clap-derive options (their doc comments are the `--help` text), parsed into
//! plain values before any work starts. The library never sees clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::output::{Format, PlanFormat, Sequence};
use nqueens::arch::Level;
use nqueens::{Algorithm, boards::BoardFormat, plan::D4Search};
use nqueens_runs::shard::ShardId;

use crate::term::When;

mod values;
pub use values::*;

const COUNT_EXAMPLES: &str = "\
Examples:
  nqueens count 16                     Q(16) on every core
  nqueens count 1..18 -j 2             n = 1 to 18 inclusive, on 2 threads
  nqueens count 0..14 --verify --format json
                                       JSON Lines, each count checked against OEIS A000170
  nqueens count 8 10 12 --format bfile OEIS b-file lines `n a(n)`
  nqueens count 16 --format plain      14772512: the number alone, for scripts
  nqueens count 1..14 --format bfile --sequence unique
                                       the fundamental solutions, OEIS A002562
  nqueens count 16 --algorithm mirror  mirror halving (solutions only), for cross-checks
  nqueens count 20 --checkpoint q20.journal
                                       stop at any time (Ctrl-C, kill); the same command resumes
  nqueens count 20 --shard 3/16 --output s3.json
                                       shard 3 of 16 for a cluster; then nqueens merge s*.json";

const MERGE_EXAMPLES: &str = "\
Examples:
  nqueens merge shards/*.json          Q(n) from the K shard results of `count N --shard I/K`
  nqueens merge s*.json --verify --format json";

const SOLVE_EXAMPLES: &str = "\
Examples:
  nqueens solve 4                      the 2 solutions of 4 queens as boards of Q and .
  nqueens solve 8 --format cols        92 lines of 1-based columns, row 0 first
  nqueens solve 8 --unique             the 12 fundamental solutions (OEIS A002562)
  nqueens solve 6 --format leetcode    the LeetCode \"N-Queens\" answer, one JSON array
  nqueens solve 28 --limit 3           the first 3 solutions of a board too large to list
  nqueens solve 1000 --any --format cols   one solution of any size, at once

Solutions are written in lexicographic order (row 0's column first, left to right), the same
bytes for any thread count, while the search runs (memory stays flat). Q(n) grows about
sevenfold per step of n: n = 16 lists 14,772,512 boards (576 MB as cols), n = 20 lists
39,029,188,884 (about 2 TB), and beyond that a full listing is astronomically long: use --limit.
`nqueens solve 12 | head` stops the search when head exits.";

const CHECK_EXAMPLES: &str = "\
Examples:
  nqueens solve 8 | nqueens check      a complete list: exit 0
  nqueens check answers.txt --size 6   someone's answer to the 6-queens exercise
  nqueens solve 10 --unique --format cols | nqueens check --unique

Reports each invalid board (the two queens that attack each other, a row without exactly one
queen, a board of another size), each duplicate, and whether the list is complete (Q(n) boards,
OEIS A000170; A002562 with --unique; known for n <= 27). Exit 0 when every board is valid and
distinct and the list is complete, 1 otherwise, 2 when the input cannot be read.

Memory: a list in solve's order is checked without remembering boards; any other is checked
with about 90 bytes of memory a board, whatever its size (a board of more than 34 rows is
remembered by a digest, its columns written to an unnamed file in TMPDIR, 4 bytes a row).";

/// Counts the solutions (OEIS A000170) and fundamental solutions (A002562) of the n-queens
/// problem on every core, and lists and checks the boards.
#[derive(Debug, Parser)]
#[command(name = "nqueens", version, about, propagate_version = true)]
pub struct Opts {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the solutions of the n-queens problem for each board size n.
    #[command(after_help = COUNT_EXAMPLES)]
    Count(CountArgs),
    /// Add up the shard results of `count N --shard I/K`, after checking that every shard 0..K-1
    /// is there exactly once and all agree (exit 1 listing what is missing or wrong).
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// List the solutions of one board size, in lexicographic order, as boards, a LeetCode answer
    /// or column lists (astronomically many for large n: use --limit).
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve(SolveArgs),
    /// Check a list of boards (as `solve` writes them): valid, distinct and complete.
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Before a long run: the algorithm auto picks here, the subproblems, the memory per
    /// process, the CPU time and the solutions estimated from a random sample counted on this
    /// machine (with 95% intervals), and the Slurm and GNU parallel command lines for K shards.
    #[command(after_help = PLAN_EXAMPLES)]
    Plan(PlanArgs),
    /// List the GPUs and other devices CUDA and OpenCL find here (API:INDEX, model, memory,
    /// compute units), as `count --device` names them; for each API without one, why.
    #[command(after_help = DEVICES_EXAMPLES)]
    Devices(DevicesArgs),
    /// Print a shell completion script to stdout (bash, elvish, fish, powershell or zsh).
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print a manual page (roff) to stdout, or write every page into a folder (`--dir`): the
    /// top page nqueens(1) and one per subcommand, nqueens-count(1) and the rest.
    #[command(after_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

const MAN_EXAMPLES: &str = "\
Examples:
  nqueens man | man -l -                        the top page, read at once
  nqueens man count | man -l -                  the page of nqueens count
  nqueens man --dir ~/.local/share/man/man1     install every page for man(1): then man nqueens-count";

/// The arguments of `nqueens man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// The subcommand whose page to print (count, merge, solve, check, plan, devices,
    /// completions, man); without it the top page.
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
    /// Write every page into this folder (nqueens.1, nqueens-count.1, …) and list them, instead
    /// of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub dir: Option<std::path::PathBuf>,
}

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  nqueens completions bash > ~/.local/share/bash-completion/completions/nqueens
  nqueens completions zsh > ~/.zfunc/_nqueens      (with fpath+=~/.zfunc before compinit)
  nqueens completions fish > ~/.config/fish/completions/nqueens.fish";

const DEVICES_EXAMPLES: &str = "\
Examples:
  nqueens devices                      what count --device gpu|cuda|opencl would use
  nqueens devices --format json        one JSON object, for scripts
  nqueens count 16 --device opencl:0   count on the first OpenCL device

CUDA needs the NVIDIA driver (libcuda.so) and NVRTC (libnvrtc.so, CUDA toolkit) on the library
path; OpenCL needs the ICD loader (Debian: ocl-icd-libopencl1) and a driver (pocl-opencl-icd for
the CPU, which tests use; a GPU vendor's ICD for GPUs). Both are loaded when asked for.";

/// Options of `nqueens devices`.
#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Output format: text, or json (one object).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_plan_format)]
    pub format: PlanFormat,
}

/// Parses a `--device` list: cpu, gpu, cuda, opencl, with optional `:INDEX[,INDEX…]`, joined
/// by commas.
pub fn parse_device(s: &str) -> Result<nqueens_gpu::DeviceSpec, String> {
    s.parse()
}

/// Options of `nqueens completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Returns the long version (`nqueens --version`): the version, the commit it was built from
/// (`unknown` outside a git checkout), the target, and the instruction-set levels this
/// processor runs (the best is what the searches use unless `--isa` says otherwise).
pub fn long_version() -> String {
    let levels: Vec<String> = Level::available()
        .into_iter()
        .rev()
        .map(|l| format!("\n  {:<9} {}", l.isa().name(), l.isa().needs()))
        .collect();
    format!(
        "{} (commit {}, {} {})\nInstruction-set levels this processor runs, best first (--isa):{}",
        env!("CARGO_PKG_VERSION"),
        env!("NQUEENS_COMMIT"),
        std::env::consts::ARCH,
        std::env::consts::OS,
        levels.concat()
    )
}

/// Returns the message for a first argument that is no subcommand but a board size or range
/// (`nqueens 8`), with the `count` command it probably meant.
pub fn subcommand_hint(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if err.kind() != clap::error::ErrorKind::InvalidSubcommand {
        return None;
    }
    match err.get(ContextKind::InvalidSubcommand)? {
        ContextValue::String(arg) if parse_sizes(arg).is_ok() => Some(format!(
            "error: unrecognized subcommand '{arg}': to count the solutions of board size {arg}, use 'nqueens count {arg}'"
        )),
        _ => None,
    }
}

const PLAN_EXAMPLES: &str = "\
Examples:
  nqueens plan 22 --shards 64          a cluster run of Q(22) in 64 shards
  nqueens plan 24 --shards 256 --threads 8 --sample-seconds 60
  nqueens plan 20 --format json        one JSON object, for scripts

The sample: random groups of neighbouring subproblems, each timed by its thread's CPU clock (on
-j threads, --sample-seconds each), give the CPU time of the whole count (setup included) and
the board's solutions, Q(n), each with a 95% interval; for n <= 27 the known value (OEIS
A000170) is printed beside it, a check anyone can run. Count more (--sample-seconds) for a
tighter figure: where the CPU interval is wider than --precision (15% by default), a
`precision:` line says about what budget would narrow it to that, or why none would. The
sampling error falls as the square root of the budget, so four times the seconds halve it; the
machine's speed allowance (below: 5% a standard deviation, about ±10% at 95%) does not fall, so
no budget takes the interval below about ±10%; a small board counted 100 times over gains
nothing from more seconds; nor does a count
estimated from its subproblems' first steps. A Q(28) plan on a 2-core VM said ±14.4–14.7% at
300 s over six seeds (about 90–100 units counted; earlier builds said ±18–49% and asked for 510
to 3,400 s).

What the CPU interval covers: the sampling error, the timing noise of each group (a group drawn
twice is timed twice; a small board is counted again and again for the whole --sample-seconds),
and this machine's speed varying as much as it did between the sample's ten time-ordered parts
(the `sample:` line says by how much, and how busy other processes kept the machine), or by 5%
if that is more: it is for a count's CPU time here under about the load of the sample. What it
does not cover: another machine or instruction-set level, other load later than the sample (a
2-core VM ran counts of 0.1 s at n = 16 in a fast and a slow state, 40% apart, for minutes at a
time: a sample sees one), and how well the first steps of a subproblem too long to count whole
stand for it (mirror and d4 from n = 28). Q(n) is estimated where every sampled subproblem was
counted whole or in a random share of its work (the join's long units), not from first steps.

auto's choice depends on the memory this process may use: to plan for a Slurm job of M MiB, run
it with SLURM_MEM_PER_NODE=M.";

/// Options of `nqueens plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Board size: an integer 0..=63.
    #[arg(value_name = "N", allow_negative_numbers = true, value_parser = parse_size)]
    pub n: u32,

    /// Number of shards K, 1..=1000000 (one process each, `count N --shard I/K`).
    #[arg(short = 'k', long, value_name = "K", default_value = "1", value_parser = parse_shard_count)]
    pub shards: usize,

    /// Worker threads per shard, for the time per shard and the command lines; the sample is
    /// counted on as many threads.
    #[arg(short = 'j', long, value_name = "T", default_value = "1", value_parser = parse_threads)]
    pub threads: usize,

    /// Search algorithm, as for count: auto, d4, mirror, join.
    #[arg(long, value_name = "NAME", default_value = "auto", value_parser = parse_algorithm)]
    pub algorithm: Algorithm,

    /// CPU seconds each thread spends counting the random sample (at least 8 groups of
    /// subproblems; a small board is counted again and again for the whole time, at most 100
    /// times, so that the machine's speed changing is seen; long subproblems in part): 0 skips
    /// the estimate, else from a nanosecond (1e-9) to a day (86400).
    #[arg(long, value_name = "S", default_value = "5", allow_negative_numbers = true, value_parser = parse_sample_seconds)]
    pub sample_seconds: f64,

    /// The half-width of the CPU time's 95% interval to budget for, in percent of the estimate
    /// (0.1 to 99.9): where the sample's interval is wider, the plan says about how many
    /// --sample-seconds would narrow it to this, or why none would (the sampling error falls as
    /// the square root of the budget; the machine's speed allowance, at least 5%, does not). The
    /// CPU interval only: not a --device estimate's.
    #[arg(long, value_name = "PERCENT", default_value = "15", allow_negative_numbers = true, value_parser = parse_precision)]
    pub precision: f64,

    /// Seed of the random sample [default: from the clock].
    #[arg(long, value_name = "SEED", allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,

    /// Output format: text, or json (one object).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_plan_format)]
    pub format: PlanFormat,

    /// Instruction-set level the sample is counted at, as for count [default: the best this
    /// processor runs; also from NQUEENS_ISA, where empty is the default]. The estimate is for
    /// this machine at that level.
    #[arg(long, value_name = "LEVEL", env = "NQUEENS_ISA", value_parser = parse_isa)]
    pub isa: Option<Level>,

    /// Count the sample on these devices, as for count (gpu, cuda, opencl[:INDEX,...], with
    /// cpu for -j CPU threads beside them): the estimate is then the wall-clock time of the
    /// whole count on them, from groups of subproblems each timed as one run.
    #[arg(long, value_name = "LIST", default_value = "cpu", value_parser = parse_device)]
    pub device: nqueens_gpu::DeviceSpec,
}

/// Options of `nqueens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard result files (JSON), one per shard; a folder stands for every `*.json` file in it
    /// (not below), so that 10^5 shards need no argument list longer than the system allows.
    #[arg(value_name = "FILES", required_unless_present = "files_from", num_args = 1..)]
    pub files: Vec<PathBuf>,

    /// Read more shard result files (or folders) from LIST, one path a line (`-`: standard
    /// input), e.g. from `find DIR -name 'shard-*.json'`.
    #[arg(long, value_name = "LIST")]
    pub files_from: Option<PathBuf>,

    /// Output format: text (aligned table), json (JSON Lines), csv, bfile (OEIS `n a(n)` lines),
    /// plain (the number alone, for scripts).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_format)]
    pub format: Format,

    /// Check the total against OEIS A000170, and the fundamental solutions against A002562
    /// (known for n <= 27); exit 1 on a mismatch.
    #[arg(long)]
    pub verify: bool,

    /// The sequence a bfile or plain output writes: solutions (A000170), unique (fundamental solutions,
    /// A002562), rot180 (solutions fixed by the 180° rotation, A032522) or rot90 (fixed by the
    /// 90° rotation, A033148).
    #[arg(long, value_name = "SEQ", default_value = "solutions", value_parser = parse_sequence)]
    pub sequence: Sequence,

    /// Before merging, recount a random FRACTION (0 to 1) of every shard's subproblems here and
    /// compare them with the subtotals the shard recorded; exit 1 naming each shard file (and
    /// host) that disagrees. 0 checks only that the subtotals add up; 1 recounts everything.
    #[arg(long, value_name = "FRACTION", allow_negative_numbers = true, value_parser = nqueens_runs::audit::parse_fraction)]
    pub audit: Option<f64>,

    /// The audit's random seed (printed by every audit) [default: from the clock].
    #[arg(long, value_name = "SEED", requires = "audit", allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,

    /// Audit the files given without merging them (a part of a published set): no total, exit 0
    /// if and only if every sampled subtotal agrees.
    #[arg(long, requires = "audit")]
    pub partial: bool,

    /// Worker threads of the audit [default: every logical CPU].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// Options of `nqueens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Board size: an integer 0..=63 (n = 0 has one solution, the empty board); with --any up to
    /// 4294967295.
    #[arg(value_name = "N", allow_negative_numbers = true, value_parser = parse_solve_size)]
    pub n: u64,

    /// One solution at once, for any n (a construction, not a search: E. J. Hoffman, J. C.
    /// Loessi, R. C. Moore, 1969); the first solutions in lexicographic order can take hours to
    /// find from about n = 40. n = 2 and 3 have none.
    #[arg(long, conflicts_with_all = ["limit", "unique"])]
    pub any: bool,

    /// Output format: board (n lines of Q and . per solution, a blank line between), leetcode
    /// (one JSON array, the LeetCode "N-Queens" answer), cols (one line per solution: the
    /// 1-based column of each row's queen).
    #[arg(long, value_name = "FORMAT", default_value = "board", value_parser = parse_board_format)]
    pub format: BoardFormat,

    /// Stop after K solutions (the search stops too).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = parse_limit)]
    pub limit: Option<u64>,

    /// Only the lexicographically smallest board of each symmetry class (the fundamental
    /// solutions, OEIS A002562).
    #[arg(long)]
    pub unique: bool,

    /// Worker threads [default: every logical CPU]. The output is the same for any count.
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// Options of `nqueens check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The list to check: a file, or - (the default) for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: std::path::PathBuf,

    /// Input format: board, leetcode or cols [default: detected from the first non-blank
    /// character].
    #[arg(long, value_name = "FORMAT", value_parser = parse_board_format)]
    pub format: Option<BoardFormat>,

    /// The board size the list must have, 0 to 4294967295 (what solve --any writes) [default:
    /// the first board's]; needed to call an empty list (n = 2 or 3) complete.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_check_size)]
    pub size: Option<u32>,

    /// The list should hold the fundamental solutions: one board per symmetry class, the
    /// lexicographically smallest, OEIS A002562 of them.
    #[arg(long)]
    pub unique: bool,

    /// Check validity and duplicates only: exit 0 when every board is a distinct solution,
    /// however few (the summary still says how complete the list is).
    #[arg(long)]
    pub partial: bool,

    /// How the report is written: text (one line per problem, then the summary) or json (one
    /// object: read, valid, distinct, problems, complete, … for scripts; --format names the
    /// list's format).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_plan_format)]
    pub report: PlanFormat,
}

/// Options of `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Board sizes: integers 0..=63 or inclusive ranges A..B (also written A..=B).
    #[arg(value_name = "N", required = true, num_args = 1.., allow_negative_numbers = true, value_parser = parse_sizes)]
    pub sizes: Vec<Sizes>,

    /// Worker threads [default: every logical CPU].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// What counts: cpu, gpu (every GPU: CUDA on NVIDIA, OpenCL on others), cuda or opencl
    /// (every device of that API, pocl's CPU device included), the last two optionally with
    /// :INDEX[,INDEX...]; several joined by commas (gpu,cpu: -j CPU threads count beside the
    /// GPUs, all from one queue). Devices count d4 subproblems (auto picks d4), n <= 30.
    /// `nqueens devices` lists what is here.
    #[arg(long, value_name = "LIST", default_value = "cpu", value_parser = parse_device)]
    pub device: nqueens_gpu::DeviceSpec,

    /// Output format: text (aligned table), json (JSON Lines), csv, bfile (OEIS `n a(n)` lines),
    /// plain (the number alone, one line per n, for scripts) [default: text]. A shard writes its
    /// JSON result for `merge`, which takes --format.
    // No default_value: a --format given with --shard is refused, the default is not.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub format: Option<Format>,

    /// The sequence a bfile or plain output writes: solutions (A000170), unique (fundamental solutions,
    /// A002562), rot180 (solutions fixed by the 180° rotation, A032522) or rot90 (fixed by the
    /// 90° rotation, A033148); all but solutions start at n = 1 and need the symmetry classes,
    /// which --algorithm mirror does not count. The other formats show solutions and classes.
    #[arg(long, value_name = "SEQ", default_value = "solutions", value_parser = parse_sequence)]
    pub sequence: Sequence,

    /// Check each count against OEIS A000170, and the fundamental solutions and their orbit sizes
    /// against A002562 and its class breakdown (known for n <= 27); exit 1 on a mismatch.
    /// Counts beyond the table are reported as unverified, not as errors.
    #[arg(long)]
    pub verify: bool,

    /// Progress bar on stderr: auto (on a terminal once a run lasts about a second; in a log a
    /// plain line a minute once it lasts a minute), always (in a log a line a second), never.
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = parse_progress)]
    pub progress: When,

    /// Search algorithm: auto (join from n = 8 while its table fits in memory, else d4), d4
    /// (start constellations, one per symmetry class: solutions, fundamental solutions and
    /// orbit sizes), mirror (mirror halving: solutions only), join (quadrant join for
    /// 4 <= n <= 29, its quarter table whole to 27 and row sets beyond, with fundamental
    /// solutions by Burnside; smaller boards use mirror).
    #[arg(long, value_name = "NAME", default_value = "auto", value_parser = parse_algorithm)]
    pub algorithm: Algorithm,

    /// How d4 counts its subproblems: auto, batched (several boards per step in vector
    /// registers, at the --isa level) or recursive. Same counts and nodes; for comparing the
    /// searches on one machine. Boards above 22 always use recursive.
    #[arg(long, value_name = "SEARCH", default_value = "auto", value_parser = parse_d4_search)]
    pub d4_search: D4Search,

    /// Instruction-set level of the searches: avx512, avx2 or portable on x86-64, neon or
    /// portable on aarch64 [default: the best this processor runs; also from NQUEENS_ISA, where
    /// empty is the default, as in a script's `NQUEENS_ISA=$LEVEL` with LEVEL unset].
    /// Same counts at every level; for timing the lower levels on one machine. A level this
    /// processor lacks is refused.
    #[arg(long, value_name = "LEVEL", env = "NQUEENS_ISA", value_parser = parse_isa)]
    pub isa: Option<Level>,

    /// Add search statistics per n: nodes visited (queen placements), nodes per second,
    /// subproblems, split depth and parallel efficiency (CPU time / (wall time × threads)).
    #[arg(long)]
    pub stats: bool,

    /// Rows fixed per subproblem, 1..=16 (mirror and d4; the join's units are row sets and
    /// ignore it) [default: the smallest depth with at least 32 subproblems per thread and 2048
    /// in all].
    #[arg(long, value_name = "D", value_parser = parse_split_depth)]
    pub split_depth: Option<u32>,

    /// Journal every solved subproblem to FILE (append-only, fsync'd every 2 s) and resume from
    /// it: the same command again skips what FILE records. SIGINT, SIGTERM and SIGUSR1 stop
    /// cleanly (exit 130, 143, 143). One board size only.
    #[arg(long, value_name = "FILE", help_heading = "Long runs")]
    pub checkpoint: Option<PathBuf>,

    /// Instead of counting, read the --checkpoint journal leniently and write the lines that
    /// pass every check to FILE.repaired (each dropped line named on stderr); when they cover
    /// every subproblem but still add up to an impossible count, recount them first (as long
    /// as the count took) and drop those that disagree. Move FILE.repaired over FILE to resume.
    #[arg(long, requires = "checkpoint", help_heading = "Long runs")]
    pub repair: bool,

    /// Count only shard I of K (0 <= I < K), a partition of the subproblems balanced by
    /// estimated cost and the same on every machine; writes a JSON result for `nqueens merge`.
    /// One board size only.
    #[arg(long, value_name = "I/K", allow_hyphen_values = true, value_parser = parse_shard, help_heading = "Long runs")]
    pub shard: Option<ShardId>,

    /// Where --shard writes its JSON result [default: stdout].
    #[arg(long, value_name = "FILE", requires = "shard", help_heading = "Long runs")]
    pub output: Option<PathBuf>,

    /// Write each subproblem's id, prefix (the fixed queens' columns, row 0 first; mirror only,
    /// empty for d4 and join), counts (orbit sizes for d4 only) and nodes to FILE as CSV. One
    /// board size only.
    #[arg(long, value_name = "FILE", help_heading = "Long runs")]
    pub breakdown: Option<PathBuf>,
}

/// Renders a clap error as one line (clap's own message spans several): its lines joined, the
/// "For more information" hint dropped.
pub fn one_line(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_definition_is_consistent() {
        Opts::command().debug_assert();
    }

    #[test]
    fn sizes_and_ranges() {
        assert_eq!(parse_sizes("7"), Ok(Sizes { first: 7, last: 7 }));
        assert_eq!(parse_sizes("1..18"), Ok(Sizes { first: 1, last: 18 }));
        assert_eq!(parse_sizes("1..=18"), Ok(Sizes { first: 1, last: 18 }));
        assert_eq!(parse_sizes("0..0"), Ok(Sizes { first: 0, last: 0 }));
        assert_eq!(parse_sizes("63"), Ok(Sizes { first: 63, last: 63 }));
        assert!(parse_sizes("64").unwrap_err().contains("n <= 63"));
        assert!(parse_sizes("99999999999999999999").unwrap_err().contains("too large"));
        assert!(parse_sizes("-3").unwrap_err().contains("negative"));
        assert!(parse_sizes("x").unwrap_err().contains("'x' is not an integer"));
        assert!(parse_sizes("5..3").unwrap_err().contains("reversed"));
        assert!(parse_sizes("5..").unwrap_err().contains("incomplete"));
        assert!(parse_sizes("").unwrap_err().contains("empty"));
        assert!(parse_sizes("1..x").unwrap_err().contains("'x'"));
    }

    #[test]
    fn single_sizes_and_limits() {
        assert_eq!(parse_size("8"), Ok(8));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("1..3"), Err("'1..3' is a range: use a single board size 0..=63".to_string()));
        assert_eq!(parse_size("-1"), Err("board size -1 is negative: use an integer 0..=63".to_string()));
        assert!(parse_size("64").unwrap_err().contains("n <= 63"));
        assert_eq!(parse_limit("10"), Ok(10));
        // Issue 40: a negative limit is out of range, not "not an integer".
        assert_eq!(
            parse_limit("-1"),
            Err("limit '-1' is out of range: use 0..=18446744073709551615".to_string())
        );
        assert_eq!(parse_limit("x"), Err("limit 'x' is not an integer: use 0 or more".to_string()));
        // Issue 40: `solve -1 --any` named 0..=63 only.
        let both = "use an integer 0..=63, or 0..=4294967295 with --any";
        assert_eq!(parse_solve_size("-1"), Err(format!("board size -1 is negative: {both}")));
        assert_eq!(parse_solve_size("x"), Err(format!("board size 'x' is not an integer: {both}")));
        assert_eq!(
            parse_solve_size("4294967296"),
            Err(format!("board size 4294967296 is too large: {both}"))
        );
        assert_eq!(parse_solve_size("4294967295"), Ok(4294967295));
    }

    #[test]
    fn threads_and_depths() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("0").unwrap_err().contains("0 is not allowed"));
        assert!(parse_threads("two").unwrap_err().contains("'two'"));
        assert_eq!(parse_split_depth("16"), Ok(16));
        assert!(parse_split_depth("17").is_err());
        assert!(parse_split_depth("0").is_err());
    }
}
