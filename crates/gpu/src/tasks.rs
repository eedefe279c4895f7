//! The host's half of the GPU search: the tables of a d4 plan's start constellations that the
//! kernel reads (`kernel.cl` describes them), and the tasks a subproblem is split into.
//!
//! A d4 subproblem (a canonical start constellation with its first free rows filled,
//! [`nqueens::plan::D4Subproblem`]) is split deeper here, on the host, until
//! `rows` free rows are left below each task (or the board's last free row), so that one launch
//! holds 10^5 to 10^7 tasks of similar size. Each task remembers its subproblem (its parent),
//! whose solutions are the sum of its tasks' times the constellation's orbit.
//!
//! The border queens' attacks are computed again here from the border itself, row by row,
//! rather than taken from the CPU search's row events (a second, independent description of the
//! same board: the tests compare the two on every subproblem up to n = 12).

use nqueens::plan::{Constellation, D4Plan, D4Subproblem, Plan};

/// The largest board the GPU path counts, n ≤ 30: its kernels' masks are 32 bits wide, and the
/// tables keep a row's gap in the two bits above the board. (The library's own largest board is
/// [`nqueens::MAX_N`], 63: a `u64` mask.)
pub const MAX_N: u32 = 30;

/// The most free rows a task keeps below its first: the kernel's stack holds
/// `MAX_TASK_ROWS + 1` levels (`MAX_DEPTH` in `kernel.cl`).
pub const MAX_TASK_ROWS: u32 = 15;

/// The most free rows of one constellation, the stride of the kernel's tables.
pub const MAX_ROWS: usize = 32;

/// The kernels' tables of one plan's constellations: for constellation `c` and free row `k`,
/// `table[c * MAX_ROWS + k]` (the border queens' attacks, and the gap to the next free row in
/// bits 30..31) and `rows[c * MAX_ROWS + k]` (see `kernel.cl`); `free[c]` is the number of free rows m, `stab[c]` the constellation's
/// stabiliser, and `borders[c * MAX_ROWS + r]` the column of the border queen of row r (0 for
/// a free row).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// The board side n.
    pub n: u32,
    /// The columns of the board: bits 0..n.
    pub full: u32,
    /// Squares of each free row attacked by the border queens' diagonals and anti-diagonals,
    /// with the rows from it to the next free row (1 to 3; 0 at the last) in bits 30..31.
    pub table: Vec<u32>,
    /// The board row of each free row.
    pub rows: Vec<u8>,
    /// The number of free rows of each constellation.
    pub free: Vec<u8>,
    /// The symmetries (but the identity) that fix each constellation's border, as bits `1 << i`
    /// for `Symmetry::ALL[i]` ([`Constellation::stabilizer`]).
    pub stab: Vec<u8>,
    /// The columns of each constellation's border queens by row.
    pub borders: Vec<u8>,
}

impl Tables {
    /// Returns the tables of `constellations`, those of the `n`×`n` board, 4 ≤ n ≤ [`MAX_N`].
    pub fn new(n: u32, constellations: &[Constellation]) -> Tables {
        debug_assert!((4..=MAX_N).contains(&n));
        let len = constellations.len() * MAX_ROWS;
        let mut t = Tables {
            n,
            full: (1u32 << n) - 1,
            table: vec![0; len],
            rows: vec![0; len],
            free: vec![0; constellations.len()],
            stab: constellations.iter().map(|c| c.stabilizer()).collect(),
            borders: vec![0; len],
        };
        for (ci, c) in constellations.iter().enumerate() {
            let queens = &c.queens()[..];
            let free_rows: Vec<u32> = (0..n).filter(|&r| !queens.iter().any(|q| q.0 == r)).collect();
            let base = ci * MAX_ROWS;
            for &(qr, qc) in queens {
                t.borders[base + qr as usize] = qc as u8;
            }
            for (k, &row) in free_rows.iter().enumerate() {
                let mut attacked = 0u32;
                for &(qr, qc) in queens {
                    let d = row.abs_diff(qr);
                    if qc + d < n {
                        attacked |= 1 << (qc + d);
                    }
                    if qc >= d {
                        attacked |= 1 << (qc - d);
                    }
                }
                let gap = free_rows.get(k + 1).map_or(0, |&next| next - row);
                debug_assert!(gap <= 3, "at most two border rows lie between free rows");
                t.table[base + k] = (attacked & t.full) | gap << 30;
                t.rows[base + k] = row as u8;
            }
            t.free[ci] = free_rows.len() as u8;
        }
        t
    }

    /// Returns the attacked squares and the gap of free row `k` of constellation `c`.
    fn row(&self, c: usize, k: usize) -> (u32, u32) {
        let entry = self.table[c * MAX_ROWS + k];
        (entry & self.full, entry >> 30)
    }
}

/// One task for the kernel: a board of constellation `c` at its free row `k` (see `kernel.cl`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Task {
    /// Columns taken.
    pub cols: u32,
    /// Diagonals of the queens placed in free rows, at free row `k`.
    pub ld: u32,
    /// Anti-diagonals of the queens placed in free rows, at free row `k`.
    pub rd: u32,
    /// `(c << 5) | k`: the constellation and the first free row to fill.
    pub at: u32,
    /// The estimated work below the task (the free squares of its next two rows), for the
    /// order of a launch: most work first.
    pub weight: u32,
    /// The slot of the task's subproblem in the launcher's list of parents.
    pub parent: u32,
}

/// Returns the board of subproblem `sub` (of constellation number `c`) at its first unfilled
/// free row: the columns taken, the diagonals and anti-diagonals of its queens in free rows
/// there, and that free row's index k (m, the constellation's free rows, if every one is
/// filled).
pub fn start(tables: &Tables, c: u32, sub: &D4Subproblem) -> (u32, u32, u32, usize) {
    let base = c as usize * MAX_ROWS;
    let placed = sub.placed.cols();
    let k = placed.len();
    let m = tables.free[c as usize] as usize;
    // The board row of free row k; past the last free row, the row below the board.
    let here = if k < m { u32::from(tables.rows[base + k]) } else { tables.n };
    let (mut ld, mut rd) = (0u64, 0u64);
    for (j, &col) in placed.iter().enumerate() {
        let bit = 1u64 << col;
        let d = here - u32::from(tables.rows[base + j]);
        ld |= bit << d;
        rd |= bit >> d;
    }
    let full = u64::from(tables.full);
    ((sub.cols & full) as u32, (ld & full) as u32, (rd & full) as u32, k)
}

/// Splits subproblem `sub` (of constellation number `c`) into tasks with at most `rows` free
/// rows below their first (or at the last free row), pushing each with `parent`; with `boards`,
/// also pushes each task's board ([`MAX_ROWS`] bytes: the column of every row filled before its
/// first free row, border queens included), for `nq_classify`. Returns `None` if every free row
/// of the subproblem is filled already (it is one board, which the host counts), else the
/// number of tasks pushed. [`Splitter`] does the same a part at a time.
pub fn split(
    tables: &Tables,
    c: u32,
    sub: &D4Subproblem,
    rows: u32,
    parent: u32,
    out: &mut Vec<Task>,
    mut boards: Option<&mut Vec<u8>>,
) -> Option<usize> {
    let mut splitter = Splitter::new(tables, c, sub, rows, parent)?;
    let before = out.len();
    while !splitter.next_tasks(tables, out, boards.as_deref_mut(), usize::MAX) {}
    Some(out.len() - before)
}

/// The split of one subproblem into tasks ([`split`]), made a part at a time so that a
/// subproblem of 10^8 tasks (n = 27 at a shallow split) never holds them all: an iterative
/// depth-first search from the subproblem's first free row down to the tasks' first free row,
/// which stops after a number of tasks and goes on where it stopped.
#[derive(Clone, Debug)]
pub struct Splitter {
    c: usize,
    parent: u32,
    /// The free row of the tasks.
    target: u32,
    /// The free row of the search's deepest level (`levels.last()`).
    k: u32,
    /// The levels of the search from the subproblem's first free row: the squares of that row
    /// still to try, and the row's masks (columns, diagonals, anti-diagonals).
    levels: Vec<(u32, u32, u32, u32)>,
    /// The columns of the rows filled so far, by row.
    board: [u8; MAX_ROWS],
}

impl Splitter {
    /// Returns the splitter of subproblem `sub` of constellation number `c` into tasks with at
    /// most `rows` free rows below their first, whose tasks name `parent`; `None` if every free
    /// row of the subproblem is filled already.
    pub fn new(tables: &Tables, c: u32, sub: &D4Subproblem, rows: u32, parent: u32) -> Option<Splitter> {
        let m = u32::from(tables.free[c as usize]);
        let (cols, ld, rd, k) = start(tables, c, sub);
        let k = k as u32;
        if k >= m {
            return None;
        }
        let base = c as usize * MAX_ROWS;
        let mut board = [0u8; MAX_ROWS];
        board.copy_from_slice(&tables.borders[base..base + MAX_ROWS]);
        for (j, &col) in sub.placed.cols().iter().enumerate() {
            board[tables.rows[base + j] as usize] = col;
        }
        let (attack, _) = tables.row(c as usize, k as usize);
        let avail = tables.full & !(cols | ld | rd | attack);
        let target = m.saturating_sub(1 + rows).max(k);
        let levels = if avail == 0 { Vec::new() } else { vec![(avail, cols, ld, rd)] };
        Some(Splitter { c: c as usize, parent, target, k, levels, board })
    }

    /// Pushes up to `limit` more tasks (and, with `boards`, their boards); returns true once
    /// every task of the subproblem has been pushed.
    pub fn next_tasks(
        &mut self,
        t: &Tables,
        out: &mut Vec<Task>,
        mut boards: Option<&mut Vec<u8>>,
        limit: usize,
    ) -> bool {
        let c = self.c;
        let mut pushed = 0;
        let mut push = |board: &[u8; MAX_ROWS], (cols, ld, rd): (u32, u32, u32), k: u32, avail: u32| {
            let weight = weigh(t, c, k, (cols, ld, rd), avail);
            out.push(Task { cols, ld, rd, at: ((c as u32) << 5) | k, weight, parent: self.parent });
            if let Some(b) = boards.as_deref_mut() {
                b.extend_from_slice(board);
            }
        };
        if self.k == self.target {
            // The subproblem is one task.
            if let Some((avail, cols, ld, rd)) = self.levels.pop() {
                push(&self.board, (cols, ld, rd), self.k, avail);
            }
            return true;
        }
        while pushed < limit {
            let Some(top) = self.levels.last_mut() else { return true };
            if top.0 == 0 {
                self.levels.pop();
                self.k -= 1;
                continue;
            }
            let (avail, cols, ld, rd) = *top;
            let bit = avail & avail.wrapping_neg();
            top.0 = avail ^ bit;
            let k = self.k;
            let (_, gap) = t.row(c, k as usize);
            self.board[t.rows[c * MAX_ROWS + k as usize] as usize] = bit.trailing_zeros() as u8;
            let next = (cols | bit, (ld | bit) << gap, (rd | bit) >> gap);
            let (attack, _) = t.row(c, k as usize + 1);
            let nav = t.full & !(next.0 | next.1 | next.2 | attack);
            if nav == 0 {
                continue;
            }
            if k + 1 == self.target {
                push(&self.board, next, k + 1, nav);
                pushed += 1;
            } else {
                self.levels.push((nav, next.0, next.1, next.2));
                self.k += 1;
            }
        }
        // Done if nothing is left to try at any level.
        self.levels.iter().all(|l| l.0 == 0) && {
            self.levels.clear();
            true
        }
    }
}

/// The free squares of the task's row and of the row after it below each of them: a cheap
/// estimate of its search tree, for the order of a launch.
fn weigh(t: &Tables, c: usize, k: u32, (cols, ld, rd): (u32, u32, u32), avail: u32) -> u32 {
    let (_, gap) = t.row(c, k as usize);
    if gap == 0 {
        return avail.count_ones();
    }
    let (attack, _) = t.row(c, k as usize + 1);
    let mut sum = 0;
    let mut a = avail;
    while a != 0 {
        let bit = a & a.wrapping_neg();
        a ^= bit;
        sum += (t.full & !((cols | bit) | (ld | bit) << gap | (rd | bit) >> gap | attack)).count_ones();
    }
    sum.max(1)
}

/// The kernel's search on the host, task by task: what `kernel.cl` computes, for the tests
/// (the tables and tasks checked against the CPU search without a GPU), as its reference and
/// for [`task_census`]'s placements. Returns the completions and the queen placements (as the
/// kernel counts them with NQ_NODES).
pub fn search(t: &Tables, task: &Task) -> (u64, u64) {
    let c = (task.at >> 5) as usize;
    let k = task.at & 31;
    fn go(t: &Tables, c: usize, k: u32, cols: u32, ld: u32, rd: u32, nodes: &mut u64) -> u64 {
        let (attack, gap) = t.row(c, k as usize);
        let mut avail = t.full & !(cols | ld | rd | attack);
        if gap == 0 {
            *nodes += u64::from(avail.count_ones());
            return u64::from(avail.count_ones());
        }
        let mut sum = 0;
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            *nodes += 1;
            sum += go(t, c, k + 1, cols | bit, (ld | bit) << gap, (rd | bit) >> gap, nodes);
        }
        sum
    }
    let mut nodes = 0;
    let count = go(t, c, k, task.cols, task.ld, task.rd, &mut nodes);
    (count, nodes)
}

/// The classifying kernel's search on the host, the tests' oracle for `nq_classify`: the completions of `task`
/// (whose filled rows are `board`, [`MAX_ROWS`] bytes), its representatives by orbit 8, 4, 2
/// and its placements, classified by [`nqueens::symmetry::Symmetry`] as the CPU's d4 search
/// classifies (`nq_classify` in `kernel.cl` does the same with its own symmetry map).
#[cfg(test)]
pub fn classify(t: &Tables, task: &Task, board: &[u8]) -> [u64; 5] {
    use nqueens::symmetry::Symmetry;
    let c = (task.at >> 5) as usize;
    let n = t.n as usize;
    let stab: Vec<Symmetry> =
        Symmetry::ALL.iter().enumerate().filter(|(i, _)| t.stab[c] >> i & 1 == 1).map(|(_, &s)| s).collect();
    let mut board: Vec<u8> = board[..n].to_vec();
    let mut found = [0u64; 5];
    #[allow(clippy::too_many_arguments)]
    fn go(
        t: &Tables,
        c: usize,
        k: u32,
        m: (u32, u32, u32),
        board: &mut [u8],
        stab: &[Symmetry],
        found: &mut [u64; 5],
    ) {
        let (cols, ld, rd) = m;
        let (attack, gap) = t.row(c, k as usize);
        let mut avail = t.full & !(cols | ld | rd | attack);
        let row = t.rows[c * MAX_ROWS + k as usize] as usize;
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            board[row] = bit.trailing_zeros() as u8;
            found[4] += 1;
            if gap == 0 {
                found[0] += 1;
                let mut fixed = 0;
                let least = stab.iter().all(|s| {
                    let image = s.apply(board).expect("a completed board is a permutation");
                    fixed += usize::from(*board == *image);
                    *board <= *image
                });
                if least {
                    found[match fixed {
                        0 => 1,
                        1 => 2,
                        _ => 3,
                    }] += 1;
                }
                continue;
            }
            go(t, c, k + 1, (cols | bit, (ld | bit) << gap, (rd | bit) >> gap), board, stab, found);
        }
    }
    go(t, c, task.at & 31, (task.cols, task.ld, task.rd), &mut board, &stab, &mut found);
    found
}

/// What splitting the subproblems of a d4 plan into GPU tasks gives ([`task_census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskCensus {
    /// The tasks of every subproblem, both kernels'.
    pub tasks: u64,
    /// The subproblems whose every free row is filled already: one board each, which the host
    /// counts (every subproblem of a board below n = 4).
    pub host_boards: u64,
    /// The queen placements the kernel's search makes below the tasks, searched on the host
    /// (0 unless asked for: slow past n = 17).
    pub placements: u64,
}

/// Returns how many tasks of `rows` free rows below their first (the GPU's
/// [`task_rows`](crate::task_rows)) the subproblems of `plan` split into, and with
/// `placements` the queen placements below them, as the device would split and search them:
/// the numbers behind the default task rows (`examples/task_sizes.rs`,
/// results/2026-12-03-gpu/).
///
/// # Panics
/// If the plan's board is past [`MAX_N`].
pub fn task_census(plan: &D4Plan, rows: u32, placements: bool) -> TaskCensus {
    let n = plan.n();
    assert!(n <= MAX_N, "board side {n} is past the GPU's largest, {MAX_N}");
    if n < 4 {
        return TaskCensus { host_boards: plan.subproblems().len() as u64, ..TaskCensus::default() };
    }
    let tables = Tables::new(n, plan.constellations());
    let mut census = TaskCensus::default();
    let (mut out, mut boards) = (Vec::new(), Vec::new());
    for sub in plan.subproblems() {
        out.clear();
        boards.clear();
        let symmetric = plan.constellations()[sub.constellation as usize].stabilizer() != 0;
        match split(&tables, sub.constellation, sub, rows, 0, &mut out, symmetric.then_some(&mut boards)) {
            None => census.host_boards += 1,
            Some(len) => census.tasks += len as u64,
        }
        if placements {
            census.placements += out.iter().map(|t| search(&tables, t).1).sum::<u64>();
        }
    }
    census
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::plan::D4Plan;
    use nqueens::{
        Classes,
        plan::{Plan, Tally},
    };

    /// Every subproblem without a symmetry of its own, split into tasks at several depths and
    /// searched as the kernel searches, has the completions the CPU's d4 search finds:
    /// n = 4..=12, split depths 1 and 3.
    #[test]
    fn tasks_add_up_to_the_cpu_counts_of_every_subproblem() {
        for n in 4..=12u32 {
            for depth in [1, 3] {
                let plan = D4Plan::new(n, depth).unwrap();
                let tables = Tables::new(n, plan.constellations());
                for (i, sub) in plan.subproblems().iter().enumerate() {
                    let c = &plan.constellations()[sub.constellation as usize];
                    if c.stabilizer() != 0 {
                        continue;
                    }
                    let want: Tally = plan.solve(i, false);
                    for rows in [0, 2, 5, 40] {
                        let mut tasks = Vec::new();
                        let got = match split(&tables, sub.constellation, sub, rows, 7, &mut tasks, None) {
                            None => 1,
                            Some(_) => tasks.iter().map(|t| search(&tables, t).0).sum::<u64>(),
                        };
                        assert!(tasks.iter().all(|t| t.parent == 7 && t.weight > 0));
                        let solutions = u128::from(got) * u128::from(c.weight());
                        assert_eq!(
                            solutions, want.solutions,
                            "n = {n}, depth {depth}, subproblem {i}, rows {rows}"
                        );
                    }
                }
            }
        }
    }

    /// Every subproblem of a constellation with a symmetry of its own, split into tasks with
    /// their boards and classified as the classifying kernel classifies, has the solutions and
    /// classes of the CPU's classifying search: n = 4..=12, split depths 1 and 3.
    #[test]
    fn symmetric_tasks_classify_as_the_cpu_does() {
        let mut seen = 0;
        for n in 4..=12u32 {
            for depth in [1, 3] {
                let plan = D4Plan::new(n, depth).unwrap();
                let tables = Tables::new(n, plan.constellations());
                for (i, sub) in plan.subproblems().iter().enumerate() {
                    let c = &plan.constellations()[sub.constellation as usize];
                    if c.stabilizer() == 0 {
                        continue;
                    }
                    let want = plan.solve(i, false);
                    for rows in [0, 3, 40] {
                        let (mut tasks, mut boards) = (Vec::new(), Vec::new());
                        let Some(len) =
                            split(&tables, sub.constellation, sub, rows, 1, &mut tasks, Some(&mut boards))
                        else {
                            continue;
                        };
                        assert_eq!((len, boards.len()), (tasks.len(), tasks.len() * MAX_ROWS));
                        let mut sum = [0u64; 5];
                        for (t, b) in tasks.iter().zip(boards.chunks(MAX_ROWS)) {
                            sum.iter_mut().zip(classify(&tables, t, b)).for_each(|(a, b)| *a += b);
                        }
                        let got = Classes {
                            orbit8: sum[1].into(),
                            orbit4: sum[2].into(),
                            orbit2: sum[3].into(),
                            orbit1: 0,
                        };
                        let solutions = u128::from(sum[0]) * u128::from(c.weight());
                        assert_eq!(
                            (solutions, got),
                            (want.solutions, want.classes),
                            "n = {n}, depth {depth}, {i}, rows {rows}"
                        );
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen > 100, "{seen}");
    }

    /// A split made a few tasks at a time pushes the tasks and boards of a split made at once,
    /// in the same order.
    #[test]
    fn a_split_in_parts_is_the_split_at_once() {
        for (n, depth, rows) in [(11, 1, 3), (12, 2, 4), (13, 1, 6), (10, 4, 0)] {
            let plan = D4Plan::new(n, depth).unwrap();
            let tables = Tables::new(n, plan.constellations());
            for sub in plan.subproblems().iter().step_by(3) {
                let c = sub.constellation;
                let (mut whole, mut whole_boards) = (Vec::new(), Vec::new());
                let Some(_) = split(&tables, c, sub, rows, 2, &mut whole, Some(&mut whole_boards)) else {
                    continue;
                };
                for limit in [1, 7] {
                    let mut s = Splitter::new(&tables, c, sub, rows, 2).unwrap();
                    let (mut parts, mut boards, mut calls) = (Vec::new(), Vec::new(), 0);
                    while !s.next_tasks(&tables, &mut parts, Some(&mut boards), limit) {
                        calls += 1;
                        assert!(calls <= whole.len() + 1, "n = {n}: no progress");
                    }
                    assert_eq!(
                        (parts.len(), &parts, &boards),
                        (whole.len(), &whole, &whole_boards),
                        "n = {n}, limit {limit}"
                    );
                }
            }
        }
    }

    /// A census counts every subproblem once, as tasks or as a host board, and deeper tasks
    /// (fewer free rows) are more, with fewer placements below them; boards below n = 4 are
    /// the host's.
    #[test]
    fn a_census_counts_every_subproblem_once() {
        for n in [8, 11, 12] {
            let plan = D4Plan::new(n, 1).unwrap();
            let whole = task_census(&plan, 40, true);
            assert_eq!(whole.tasks + whole.host_boards, plan.len() as u64, "n = {n}");
            let deep = task_census(&plan, 2, true);
            assert!(
                deep.tasks >= whole.tasks && deep.placements <= whole.placements,
                "n = {n}: {deep:?} {whole:?}"
            );
            assert_eq!(task_census(&plan, 2, false), TaskCensus { placements: 0, ..deep });
        }
        let plan = D4Plan::new(3, 1).unwrap();
        assert_eq!(task_census(&plan, 2, true).host_boards, plan.len() as u64);
    }

    #[test]
    fn border_attacks_match_the_constellation_masks_at_row_one() {
        // Row 1's diagonal masks of the CPU search hold the top queen's and the side queens'
        // diagonals (beyond-board bits aside): the tables' attack of row 1, where it is free.
        for n in 5..=14u32 {
            let plan = D4Plan::new(n, 1).unwrap();
            let tables = Tables::new(n, plan.constellations());
            for (ci, c) in plan.constellations().iter().enumerate() {
                let base = ci * MAX_ROWS;
                if tables.rows[base] != 1 {
                    continue;
                }
                let full = tables.full as u64;
                let cpu = (c.ld() | c.rd()) & full;
                // The CPU masks leave out side queens whose diagonals enter later (events).
                assert_eq!(u64::from(tables.row(ci, 0).0) & cpu, cpu, "n = {n}, {c:?}");
            }
        }
    }
}
