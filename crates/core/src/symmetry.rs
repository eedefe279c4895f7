//! The dihedral group D4 of the square acting on n-queens boards.
//!
//! A board is a permutation `q` of `0..n`: `q[r]` is the column of the queen in row `r` (every
//! solution has one queen per row and per column). The eight symmetries of the square map
//! solutions to solutions:
//!
//! | symmetry | square (r, c) goes to | board |
//! |---|---|---|
//! | identity | (r, c) | `q` |
//! | rotation by 90° (clockwise) | (c, n-1-r) | `p[q[r]] = n-1-r` |
//! | rotation by 180° | (n-1-r, n-1-c) | `p[n-1-r] = n-1-q[r]` |
//! | rotation by 270° | (n-1-c, r) | `p[n-1-q[r]] = r` |
//! | left-right mirror | (r, n-1-c) | `p[r] = n-1-q[r]` |
//! | top-bottom mirror | (n-1-r, c) | `p[n-1-r] = q[r]` |
//! | transpose (main diagonal) | (c, r) | `p[q[r]] = r` (the inverse permutation) |
//! | anti-transpose | (n-1-c, n-1-r) | `p[n-1-q[r]] = n-1-r` |
//!
//! The *orbit* of a board is the set of distinct boards its eight images form; its size is 1, 2,
//! 4 or 8 (it divides 8). A *symmetry class* (fundamental solution, OEIS A002562) is one orbit;
//! its *canonical form* here is the lexicographically smallest board of the orbit (compared row 0
//! first). No solution with n > 1 is its own mirror image, so orbits of solutions have 8 boards
//! (no symmetry), 4 (symmetric under the 180° rotation only) or 2 (symmetric under the 90°
//! rotation); n = 1 is the single board with an orbit of 1.

/// One of the eight symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// The identity.
    Identity,
    /// Rotation by 90° clockwise.
    Rot90,
    /// Rotation by 180°.
    Rot180,
    /// Rotation by 270° clockwise (90° counter-clockwise).
    Rot270,
    /// Left-right mirror (columns reversed).
    MirrorColumns,
    /// Top-bottom mirror (rows reversed).
    MirrorRows,
    /// Reflection in the main diagonal (rows and columns swapped).
    Transpose,
    /// Reflection in the anti-diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Returns where the square at row `r`, column `c` of an `n`×`n` board goes.
    pub fn map_square(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        let (m, k) = (n - 1 - r, n - 1 - c);
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rot90 => (c, m),
            Symmetry::Rot180 => (m, k),
            Symmetry::Rot270 => (k, r),
            Symmetry::MirrorColumns => (r, k),
            Symmetry::MirrorRows => (m, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (k, m),
        }
    }

    /// Writes the image of `board` (a permutation of `0..n`, `n = board.len()`) into `out`.
    ///
    /// # Panics
    /// If `out` is shorter than `board`, or `board` is not a permutation (a column ≥ n).
    pub fn apply_into(self, board: &[u8], out: &mut [u8]) {
        let n = board.len();
        for (r, &c) in board.iter().enumerate() {
            let (r2, c2) = self.map_square(n, r, c as usize);
            out[r2] = c2 as u8;
        }
    }

    /// Returns the image of `board` (a permutation of `0..n`).
    pub fn apply(self, board: &[u8]) -> Vec<u8> {
        let mut out = vec![0; board.len()];
        self.apply_into(board, &mut out);
        out
    }
}

/// Returns the number of distinct boards among the eight images of `board`: 1, 2, 4 or 8.
pub fn orbit_size(board: &[u8]) -> usize {
    let mut images: Vec<Vec<u8>> = Symmetry::ALL.iter().map(|s| s.apply(board)).collect();
    images.sort();
    images.dedup();
    images.len()
}

/// Returns true if and only if `board` is the lexicographically smallest board of its orbit (the
/// canonical representative of its symmetry class). Boards of up to 64 rows (every board the
/// masks allow) are checked without allocating: the images are written into a stack array.
pub fn is_canonical(board: &[u8]) -> bool {
    let mut stack = [0u8; 64];
    let mut heap = Vec::new();
    let image: &mut [u8] = if board.len() <= stack.len() {
        &mut stack[..board.len()]
    } else {
        heap.resize(board.len(), 0);
        &mut heap
    };
    Symmetry::ALL[1..].iter().all(|s| {
        s.apply_into(board, image);
        board <= &*image
    })
}

/// Returns the canonical form of `board`: the lexicographically smallest board of its orbit.
pub fn canonical(board: &[u8]) -> Vec<u8> {
    Symmetry::ALL.iter().map(|s| s.apply(board)).min().expect("eight images")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::backtrack_each;

    fn all_perms(n: usize) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = vec![vec![]];
        for _ in 0..n {
            let mut next = Vec::new();
            for p in &out {
                for c in (0..n as u8).filter(|c| !p.contains(c)) {
                    let mut q = p.clone();
                    q.push(c);
                    next.push(q);
                }
            }
            out = next;
        }
        out
    }

    #[test]
    fn fast_canonical_check_matches_the_canonical_form() {
        backtrack_each(8, |q| {
            let b: Vec<u8> = q.iter().map(|&c| c as u8).collect();
            assert_eq!(is_canonical(&b), canonical(&b) == b);
        });
    }

    #[test]
    fn each_map_is_a_bijection_on_boards() {
        let perms = all_perms(5);
        for s in Symmetry::ALL {
            let mut images: Vec<Vec<u8>> = perms.iter().map(|p| s.apply(p)).collect();
            images.sort();
            images.dedup();
            assert_eq!(images.len(), perms.len(), "{s:?}");
            let mut sorted = perms.clone();
            sorted.sort();
            assert_eq!(images, sorted, "{s:?} maps permutations to permutations");
        }
    }

    #[test]
    fn the_group_closes_under_composition() {
        let board: Vec<u8> = vec![1, 3, 0, 2, 4, 6, 5];
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let ab = b.apply(&a.apply(&board));
                assert!(
                    Symmetry::ALL.iter().any(|c| c.apply(&board) == ab),
                    "{a:?} then {b:?} is not one of the eight"
                );
            }
        }
        // Four quarter turns are the identity; a mirror twice is the identity.
        let mut x = board.clone();
        for _ in 0..4 {
            x = Symmetry::Rot90.apply(&x);
        }
        assert_eq!(x, board);
        assert_eq!(Symmetry::MirrorColumns.apply(&Symmetry::MirrorColumns.apply(&board)), board);
    }

    #[test]
    fn known_orbits() {
        // The 4-queens solution is symmetric under the 90° rotation: an orbit of 2.
        assert_eq!(orbit_size(&[1, 3, 0, 2]), 2);
        // 6 queens: the single fundamental solution has an orbit of 4.
        assert_eq!(orbit_size(&[1, 3, 5, 0, 2, 4]), 4);
        // The single queen.
        assert_eq!(orbit_size(&[0]), 1);
        // 8 queens: 11 classes of 8 and 1 of 4 (shared/oeis/symmetry-classes.txt).
        let (mut c8, mut c4, mut c2, mut canon) = (0, 0, 0, 0);
        backtrack_each(8, |q| {
            let b: Vec<u8> = q.iter().map(|&c| c as u8).collect();
            if is_canonical(&b) {
                canon += 1;
                assert_eq!(canonical(&b), b);
                match orbit_size(&b) {
                    8 => c8 += 1,
                    4 => c4 += 1,
                    2 => c2 += 1,
                    k => panic!("orbit of {k}"),
                }
            }
        });
        assert_eq!((c8, c4, c2, canon), (11, 1, 0, 12));
    }

    #[test]
    fn rotation_matches_the_square_map() {
        // The queen at row 0, column 1 of a 4×4 board goes to row 1, column 3 under Rot90.
        assert_eq!(Symmetry::Rot90.map_square(4, 0, 1), (1, 3));
        assert_eq!(Symmetry::Rot90.apply(&[1, 3, 0, 2]), vec![1, 3, 0, 2]);
    }
}
