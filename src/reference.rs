//! A plain, independent backtracker for cross-checks: row by row, with boolean arrays for
//! columns, diagonals and anti-diagonals, as in textbooks (N. Wirth, "Algorithms + Data
//! Structures = Programs", 1976, §3.5). It shares no code with the bitmask kernel, so agreement
//! between the two is evidence, not tautology. It is slow; use it for n ≤ 12.

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
    let n = n as usize;
    let mut state = State {
        n,
        queens: Vec::with_capacity(n),
        col: vec![false; n],
        diag: vec![false; 2 * n],
        anti: vec![false; 2 * n],
    };
    state.place_row(0, &mut visit);
}

struct State {
    n: usize,
    queens: Vec<usize>,
    col: Vec<bool>,
    diag: Vec<bool>,
    anti: Vec<bool>,
}

impl State {
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
}
