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

use crate::Error;

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

    /// Returns where the square at row `r`, column `c` of an `n`×`n` board goes, or `None` if
    /// the square is off the board (`r` or `c` not below `n`; unchecked, `map_square(0, 0, 0)`
    /// returned `usize::MAX`).
    ///
    /// # Examples
    /// ```
    /// use nqueens::symmetry::Symmetry;
    /// assert_eq!(Symmetry::Rot90.map_square(4, 0, 1), Some((1, 3)));
    /// assert_eq!(Symmetry::Rot90.map_square(0, 0, 0), None);
    /// ```
    pub fn map_square(self, n: usize, r: usize, c: usize) -> Option<(usize, usize)> {
        (r < n && c < n).then(|| self.map(n, r, c))
    }

    /// [`Symmetry::map_square`] unchecked, for the crate's own boards: `r` and `c` below `n`.
    #[inline]
    pub(crate) fn map(self, n: usize, r: usize, c: usize) -> (usize, usize) {
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

    /// Writes the image of `board` (a permutation of `0..n`, `n = board.len()`) into
    /// `out[..n]`; on an error `out` is unchanged.
    ///
    /// # Errors
    /// [`Error::NotAPermutation`] if `board` is not a permutation of `0..n` (a column off the
    /// board or taken twice); [`Error::BufferTooShort`] if `out` is shorter than `board`.
    pub fn apply_into(self, board: &[u8], out: &mut [u8]) -> Result<(), Error> {
        check_permutation(board)?;
        if out.len() < board.len() {
            return Err(Error::BufferTooShort { len: out.len(), needed: board.len() });
        }
        self.map_into(board, out);
        Ok(())
    }

    /// [`Symmetry::apply_into`] unchecked, for the crate's own solutions (the d4 search's and
    /// the listing's): `board` a permutation, `out` at least as long.
    #[inline]
    pub(crate) fn map_into(self, board: &[u8], out: &mut [u8]) {
        let n = board.len();
        for (r, &c) in board.iter().enumerate() {
            let (r2, c2) = self.map(n, r, c as usize);
            out[r2] = c2 as u8;
        }
    }

    /// Returns the image of `board` (a permutation of `0..n`).
    ///
    /// # Errors
    /// [`Error::NotAPermutation`] if `board` is not a permutation of `0..n` (unchecked,
    /// `apply(&[7])` panicked).
    pub fn apply(self, board: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0; board.len()];
        self.apply_into(board, &mut out)?;
        Ok(out)
    }
}

/// Returns `Ok(())` if and only if `board` is a permutation of `0..n`, `n = board.len()`: what
/// the symmetries map to boards.
///
/// # Errors
/// [`Error::NotAPermutation`] naming the first row whose column is off the board or taken.
pub fn check_permutation(board: &[u8]) -> Result<(), Error> {
    let n = board.len();
    let mut seen = [0u64; 4];
    for (row, &col) in board.iter().enumerate() {
        let (word, bit) = (usize::from(col) / 64, 1u64 << (col % 64));
        if usize::from(col) >= n || seen[word] & bit != 0 {
            return Err(Error::NotAPermutation { n, row, col });
        }
        seen[word] |= bit;
    }
    Ok(())
}

/// Returns the number of distinct boards among the eight images of `board`: 1, 2, 4 or 8.
///
/// # Errors
/// [`Error::NotAPermutation`] if `board` is not a permutation of `0..n` (unchecked,
/// `orbit_size(&[5])` panicked).
pub fn orbit_size(board: &[u8]) -> Result<usize, Error> {
    check_permutation(board)?;
    let mut images: Vec<Vec<u8>> = Symmetry::ALL
        .iter()
        .map(|s| {
            let mut out = vec![0; board.len()];
            s.map_into(board, &mut out);
            out
        })
        .collect();
    images.sort();
    images.dedup();
    Ok(images.len())
}

/// Returns true if and only if `board` is a permutation of `0..n` and the lexicographically
/// smallest board of its orbit (the canonical representative of its symmetry class); false for
/// any other slice, as [`crate::check::is_solution`] is for a non-board (unchecked,
/// `is_canonical(&[200, 1, 2])` panicked). Boards of up to 64 rows (every board the masks allow)
/// are checked without allocating: the images are written into a stack array.
pub fn is_canonical(board: &[u8]) -> bool {
    check_permutation(board).is_ok() && is_canonical_permutation(board)
}

/// [`is_canonical`] unchecked, for the crate's own solutions (the listing's, the checker's):
/// `board` a permutation of `0..n`.
pub(crate) fn is_canonical_permutation(board: &[u8]) -> bool {
    let mut stack = [0u8; 64];
    let mut heap = Vec::new();
    let image: &mut [u8] = if board.len() <= stack.len() {
        &mut stack[..board.len()]
    } else {
        heap.resize(board.len(), 0);
        &mut heap
    };
    Symmetry::ALL[1..].iter().all(|s| {
        s.map_into(board, image);
        board <= &*image
    })
}

/// Returns the canonical form of `board`: the lexicographically smallest board of its orbit.
///
/// # Errors
/// [`Error::NotAPermutation`] if `board` is not a permutation of `0..n` (unchecked,
/// `canonical(&[9, 9])` panicked).
pub fn canonical(board: &[u8]) -> Result<Vec<u8>, Error> {
    check_permutation(board)?;
    let images = Symmetry::ALL.iter().map(|s| {
        let mut out = vec![0; board.len()];
        s.map_into(board, &mut out);
        out
    });
    Ok(images.min().expect("eight images"))
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
            assert_eq!(is_canonical(&b), canonical(&b).unwrap() == b);
        });
    }

    #[test]
    fn each_map_is_a_bijection_on_boards() {
        let perms = all_perms(5);
        for s in Symmetry::ALL {
            let mut images: Vec<Vec<u8>> = perms.iter().map(|p| s.apply(p).unwrap()).collect();
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
                let ab = b.apply(&a.apply(&board).unwrap()).unwrap();
                assert!(
                    Symmetry::ALL.iter().any(|c| c.apply(&board).unwrap() == ab),
                    "{a:?} then {b:?} is not one of the eight"
                );
            }
        }
        // Four quarter turns are the identity; a mirror twice is the identity.
        let mut x = board.clone();
        for _ in 0..4 {
            x = Symmetry::Rot90.apply(&x).unwrap();
        }
        assert_eq!(x, board);
        assert_eq!(Symmetry::MirrorColumns.apply(&Symmetry::MirrorColumns.apply(&board).unwrap()), Ok(board));
    }

    #[test]
    fn known_orbits() {
        // The 4-queens solution is symmetric under the 90° rotation: an orbit of 2.
        assert_eq!(orbit_size(&[1, 3, 0, 2]), Ok(2));
        // 6 queens: the single fundamental solution has an orbit of 4.
        assert_eq!(orbit_size(&[1, 3, 5, 0, 2, 4]), Ok(4));
        // The single queen.
        assert_eq!(orbit_size(&[0]), Ok(1));
        // 8 queens: 11 classes of 8 and 1 of 4 (shared/oeis/symmetry-classes.txt).
        let (mut c8, mut c4, mut c2, mut canon) = (0, 0, 0, 0);
        backtrack_each(8, |q| {
            let b: Vec<u8> = q.iter().map(|&c| c as u8).collect();
            if is_canonical(&b) {
                canon += 1;
                assert_eq!(canonical(&b), Ok(b.clone()));
                match orbit_size(&b).unwrap() {
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
        assert_eq!(Symmetry::Rot90.map_square(4, 0, 1), Some((1, 3)));
        assert_eq!(Symmetry::Rot90.apply(&[1, 3, 0, 2]), Ok(vec![1, 3, 0, 2]));
    }

    /// Issue 32, finding 3: `orbit_size(&[5])`, `canonical(&[9, 9])`, `is_canonical(&[200, 1, 2])`
    /// and `Symmetry::apply(&[7])` panicked where `is_solution` returns false; finding 2:
    /// `map_square(0, 0, 0)` returned `usize::MAX`.
    #[test]
    fn non_boards_are_errors_not_panics() {
        let bad = |n, row, col| Error::NotAPermutation { n, row, col };
        assert_eq!(orbit_size(&[5]).err(), Some(bad(1, 0, 5)));
        assert_eq!(canonical(&[9, 9]).err(), Some(bad(2, 0, 9)));
        assert_eq!(canonical(&[1, 1]).err(), Some(bad(2, 1, 1)));
        assert!(!is_canonical(&[200, 1, 2]));
        assert!(!is_canonical(&[0, 0]));
        assert!(is_canonical(&[1, 3, 0, 2]) && is_canonical(&[]));
        assert_eq!(Symmetry::Rot90.apply(&[7]).err(), Some(bad(1, 0, 7)));
        assert_eq!(
            Symmetry::Rot90.apply(&[7]).unwrap_err().to_string(),
            "row 0 of a board of side 1 has column 7, which is off the board or taken by an earlier row: a board \
             is a permutation of 0..1"
        );
        let mut short = [9u8; 3];
        assert_eq!(
            Symmetry::Rot90.apply_into(&[1, 3, 0, 2], &mut short),
            Err(Error::BufferTooShort { len: 3, needed: 4 })
        );
        assert_eq!(short, [9; 3], "unchanged");
        let mut out = [9u8; 5];
        assert_eq!(Symmetry::MirrorColumns.apply_into(&[1, 3, 0, 2], &mut out), Ok(()));
        assert_eq!(out, [2, 0, 3, 1, 9]);
        assert_eq!(Symmetry::Rot90.map_square(0, 0, 0), None);
        assert_eq!(Symmetry::Identity.map_square(4, 4, 0), None);
        assert_eq!(Symmetry::Rot180.map_square(4, 3, 0), Some((0, 3)));
        // 256 rows of u8 columns cannot be a permutation of 0..256: refused, not wrapped.
        let long: Vec<u8> = (0..=255).chain([0]).collect();
        assert_eq!(orbit_size(&long).err(), Some(bad(257, 256, 0)));
    }
}
