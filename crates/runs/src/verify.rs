//! The checks [`crate::merge`] makes of shard results before it adds them up: a file on its own
//! (format, checksum), the subproblems it covers, its subtotals, and the invariants of the total.

use crate::merge::{Covers, SHARD_FORMAT, SHARD_FORMAT_VERSION, ShardResult};
use nqueens::boards::escape_controls;
use nqueens::plan::{PlanSpec, Tally};
use nqueens::{Algorithm, Classes};

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
/// join, the fundamental solutions come from Burnside's lemma (the join plan's
/// [`Plan::fundamental`](nqueens::plan::Plan::fundamental)), which must give a whole number;
/// `classes` is what the caller already computed for it, or `None` to compute it here. For
/// mirror, classes must be zero.
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
        // The join plan's own (Burnside over its quarter table); a table that does not fit
        // here leaves the classes unknown, not wrong.
        None => match (PlanSpec { threads: 1, ..PlanSpec::new(Algorithm::Join, n) }).build() {
            Ok(plan) => plan.fundamental(tally),
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
