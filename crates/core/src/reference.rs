//! A plain, independent backtracker for cross-checks: row by row, with boolean arrays for
//! columns, diagonals and anti-diagonals, as in textbooks (N. Wirth, "Algorithms + Data
//! Structures = Programs", 1976, §3.5). It shares no code with the bitmask kernel, so agreement
//! between the two is evidence, not tautology. It is slow; use it for n ≤ 12.
//!
//! Compiled for the tests, and with `internals` for the integration tests, the benches and the
//! examples: never in a user's build.
#![cfg(any(test, feature = "internals"))]

/// Returns Q(n), the number of solutions of the n-queens problem on an `n`×`n` board, by plain
/// backtracking. Q(0) = 1 (the empty board), as in OEIS A000170.
pub fn backtrack_count(n: u32) -> u64 {
    let mut count = 0;
    backtrack_each(n, |_| count += 1);
    count
}

/// Calls `visit` with every solution of the `n`×`n` board, as the 0-based column of the queen in
/// each row, in lexicographic order (row 0 first, columns left to right).
pub fn backtrack_each(n: u32, mut visit: impl FnMut(&[usize])) {
    let mut state = State::new(n as usize);
    state.place_row(0, &mut visit);
}

/// Returns the number of queen placements a row-by-row search of the `n`×`n` board makes when
/// row 0 may only take the columns in `first_row`, and a board with k empty rows, bit k of
/// `lookahead` set, is abandoned when one of its empty rows has no free square or one of its
/// free columns has no free square on any empty row (the look-ahead of [`crate::kernel`],
/// checked here square by square on boolean arrays, independently of its bit masks).
///
/// With `lookahead` = 0 and every column allowed this is the node count of the C reference
/// in `shared/anchors` (built with `-DCOUNT_NODES`), less its root. Slow: for n ≤ 14.
///
/// # Panics
/// If a column of `first_row` is not below `n`, as an index past a slice's end does (a
/// reference for tests, whose callers give the columns of their own board).
pub fn tree_nodes(n: u32, first_row: &[usize], lookahead: u64) -> u64 {
    if let Some(&c) = first_row.iter().find(|&&c| c >= n as usize) {
        panic!("column {c} of the first row is off the {n}×{n} board: use 0..{n}");
    }
    let mut state = State::new(n as usize);
    if checks(lookahead, n as usize) && !state.may_complete() {
        return 0;
    }
    let mut nodes = 0;
    for &c in first_row {
        nodes += 1;
        state.set(0, c, true);
        nodes += state.nodes_below(1, lookahead);
        state.set(0, c, false);
    }
    nodes
}

fn checks(lookahead: u64, rows: usize) -> bool {
    rows < 64 && (lookahead >> rows) & 1 != 0
}

struct State {
    n: usize,
    queens: Vec<usize>,
    col: Vec<bool>,
    diag: Vec<bool>,
    anti: Vec<bool>,
}

impl State {
    /// The empty `n`×`n` board.
    fn new(n: usize) -> State {
        State {
            n,
            queens: Vec::with_capacity(n),
            col: vec![false; n],
            diag: vec![false; 2 * n],
            anti: vec![false; 2 * n],
        }
    }

    fn free(&self, row: usize, c: usize) -> bool {
        !(self.col[c] || self.diag[row + self.n - c] || self.anti[row + c])
    }

    fn set(&mut self, row: usize, c: usize, on: bool) {
        self.col[c] = on;
        self.diag[row + self.n - c] = on;
        self.anti[row + c] = on;
    }

    /// Every empty row has a free square, and every free column a free square on some empty row.
    fn may_complete(&self) -> bool {
        let rows = self.n - self.col.iter().filter(|&&c| c).count();
        let empty_rows = self.n - rows..self.n;
        let rows_ok = empty_rows.clone().all(|r| (0..self.n).any(|c| self.free(r, c)));
        let cols_ok =
            (0..self.n).filter(|&c| !self.col[c]).all(|c| empty_rows.clone().any(|r| self.free(r, c)));
        rows_ok && cols_ok
    }

    fn nodes_below(&mut self, row: usize, lookahead: u64) -> u64 {
        if checks(lookahead, self.n - row) && !self.may_complete() {
            return 0;
        }
        let mut nodes = 0;
        for c in 0..self.n {
            if self.free(row, c) {
                nodes += 1;
                self.set(row, c, true);
                nodes += self.nodes_below(row + 1, lookahead);
                self.set(row, c, false);
            }
        }
        nodes
    }

    fn place_row(&mut self, row: usize, visit: &mut impl FnMut(&[usize])) {
        if row == self.n {
            visit(&self.queens);
            return;
        }
        for c in 0..self.n {
            let d = row + self.n - c;
            let a = row + c;
            if self.col[c] || self.diag[d] || self.anti[a] {
                continue;
            }
            self.col[c] = true;
            self.diag[d] = true;
            self.anti[a] = true;
            self.queens.push(c);
            self.place_row(row + 1, visit);
            self.queens.pop();
            self.col[c] = false;
            self.diag[d] = false;
            self.anti[a] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_match_a000170() {
        let known = [1u64, 1, 0, 0, 2, 10, 4, 40, 92];
        for (n, &q) in known.iter().enumerate() {
            assert_eq!(backtrack_count(n as u32), q, "n = {n}");
        }
    }

    #[test]
    fn four_queens_in_order() {
        let mut seen = Vec::new();
        backtrack_each(4, |q| seen.push(q.to_vec()));
        assert_eq!(seen, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }

    /// Issue 32, finding 3: `tree_nodes(4, &[9], 0)` panicked on an index; the panic is
    /// documented and names the column.
    #[test]
    #[should_panic(expected = "column 9 of the first row is off the 4×4 board: use 0..4")]
    fn a_first_row_off_the_board_panics_as_documented() {
        tree_nodes(4, &[9], 0);
    }

    #[test]
    fn tree_nodes_of_four_queens() {
        // Row 0 in column 1 alone: 1 + the placements below it (1 3 0 2 is its one solution).
        assert_eq!(tree_nodes(4, &[0, 1, 2, 3], 0), tree_nodes(4, &[0, 1], 0) + tree_nodes(4, &[2, 3], 0));
        assert_eq!(tree_nodes(4, &[], 0), 0);
    }
}
