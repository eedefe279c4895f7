//! Start constellations: the queens of the board's border, one representative per symmetry
//! class, and the subproblems of the D4 search made from them.
//!
//! # Method
//! Every solution of an n×n board (n ≥ 2) has exactly one queen in each of the four border
//! lines: row 0, row n-1, column 0 and column n-1 (a corner queen serves two lines). These
//! border queens, its *start constellation*, are mapped by each of the eight symmetries of the
//! square ([`crate::symmetry`]) to the start constellation of the image solution. So the
//! solutions split by start constellation, and the constellations split into D4 orbits:
//! it is enough to search the *canonical* constellation of each orbit and weight its completions
//! by the orbit size (8, 4 or 2; 8 / the size of its stabiliser). Symmetry classes of solutions
//! come out exactly: a constellation B with a trivial stabiliser sees each class of its
//! completions once (each class has 8 boards); one with stabiliser H counts a completion if and
//! only if it is the smallest board of its H-orbit, and reads the orbit size off the symmetries
//! of H that fix it (see [`crate::algo::d4::search::classify_with_events`]). Only a few per cent of
//! the constellations have a non-trivial stabiliser, so the slower classifying search is rare.
//!
//! This is the method of the Q27 project (T. B. Preußer et al., TU Dresden, 2016, which places
//! the two outer rows and columns of each side) and of NQueensFAF (O. Schaffer and
//! M. Schwarz, which places one queen on each side as here, and adds inner rows); the code here
//! is written from that description, not copied.
//!
//! # Which representative
//! Any image of an orbit gives the same counts; they differ in the size of the search tree,
//! since the search fills rows top down and prunes on the diagonals of the border queens. The
//! representative searched is the image whose bottom queen is nearest a corner, then whose top
//! queen is nearest the middle column, ties broken by the smallest `(top, bottom, left, right)`.
//! Measured by node counts (every image of every orbit searched): at n = 13 this choice visits
//! 0.89 M nodes, the best image per orbit 0.82 M, the lexicographically smallest 1.46 M, and the
//! image whose last row event comes first 1.32 M; at n = 14, 5.17 M against 4.83 M for the best.

//! # Split depth
//! A subproblem fixes the first `depth` rows (row 0 by the constellation, rows taken by a
//! pre-placed queen, and free rows filled by the splitter), like mirror halving's prefixes;
//! depth 1 is the constellations alone. At n = 17 there are 4,319 canonical constellations (49
//! with a symmetry of their own), enough for 2 threads at depth 1.

use super::search::{self, RowEvent, apply_events};
use crate::Error;
use crate::kernel::{self, full_mask};
use crate::split::Prefix;
use crate::symmetry::Symmetry;

/// The most row events a constellation can have: one per inner pre-placed queen (2), the two
/// side-entering diagonals of the bottom queen and, for n >= 34, the anti-diagonals that enter
/// at column 63 (right and bottom queens); 8 bounds every case (skips 2, ld 3, rd 3).
pub const MAX_EVENTS: usize = 8;

/// The queens of the border of an n×n board: the columns of the queens in rows 0 and n-1 and the
/// rows of the queens in columns 0 and n-1 (0-based). Made only valid ([`Border::new`]), since
/// the searches trust it: an unchecked border gave garbage counts in release builds (issue 40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Border {
    /// Column of the row-0 queen.
    pub(crate) top: u32,
    /// Column of the row n-1 queen.
    pub(crate) bottom: u32,
    /// Row of the column-0 queen.
    pub(crate) left: u32,
    /// Row of the column n-1 queen.
    pub(crate) right: u32,
}

impl Border {
    /// Returns the border of the n×n board with its queens at column `top` of row 0, column
    /// `bottom` of row n − 1, row `left` of column 0 and row `right` of column n − 1 (0-based).
    ///
    /// # Errors
    /// [`Error::BadBorder`] unless 2 ≤ n ≤ [`crate::MAX_N`] and it is a start constellation of
    /// the board ([`Border::is_valid`]).
    ///
    /// # Examples
    /// ```
    /// use nqueens::plan::Border;
    /// let b = Border::new(2, 5, 3, 6, 8).unwrap();
    /// assert_eq!((b.top(), b.bottom(), b.left(), b.right()), (2, 5, 3, 6));
    /// assert!(Border::new(0, 5, 3, 6, 8).is_err()); // the corner queen must be the left one too
    /// assert!(Border::new(2, 5, 3, 9, 8).is_err()); // row 9 is off the board
    /// ```
    pub fn new(top: u32, bottom: u32, left: u32, right: u32, n: u32) -> Result<Border, Error> {
        let b = Border { top, bottom, left, right };
        if n > kernel::MAX_N || !b.is_valid(n) {
            return Err(Error::BadBorder { n, border: [top, bottom, left, right] });
        }
        Ok(b)
    }

    /// Returns the column of the row-0 queen.
    pub fn top(&self) -> u32 {
        self.top
    }

    /// Returns the column of the row n − 1 queen.
    pub fn bottom(&self) -> u32 {
        self.bottom
    }

    /// Returns the row of the column-0 queen.
    pub fn left(&self) -> u32 {
        self.left
    }

    /// Returns the row of the column n − 1 queen.
    pub fn right(&self) -> u32 {
        self.right
    }

    /// Returns the distinct queen squares `(row, column)` (2 to 4; corners serve two lines);
    /// `n` is the side the border is valid for.
    pub(crate) fn queens(&self, n: u32) -> ([(u32, u32); 4], usize) {
        let all = [(0, self.top), (n - 1, self.bottom), (self.left, 0), (self.right, n - 1)];
        let mut out = [(0, 0); 4];
        let mut len = 0;
        for q in all {
            if !out[..len].contains(&q) {
                out[len] = q;
                len += 1;
            }
        }
        (out, len)
    }

    /// Returns true if and only if this is a valid start constellation of an n×n board: n ≥ 2,
    /// every queen on the board, the corner rules agree (a queen at (0, 0) is both the top and
    /// the left queen, …), and no two queens share a row, column, diagonal or anti-diagonal.
    pub fn is_valid(&self, n: u32) -> bool {
        if n < 2 || [self.top, self.bottom, self.left, self.right].iter().any(|&x| x >= n) {
            return false;
        }
        let last = n - 1;
        let corners_agree = (self.top == 0) == (self.left == 0)
            && (self.top == last) == (self.right == 0)
            && (self.bottom == 0) == (self.left == last)
            && (self.bottom == last) == (self.right == last);
        if !corners_agree {
            return false;
        }
        let (q, len) = self.queens(n);
        let q = &q[..len];
        q.iter().enumerate().all(|(i, &(r1, c1))| {
            q[i + 1..]
                .iter()
                .all(|&(r2, c2)| r1 != r2 && c1 != c2 && r1 + c2 != r2 + c1 && r1 + c1 != r2 + c2)
        })
    }

    /// Returns the image of this constellation under `s`; `n` is the side it is valid for.
    pub(crate) fn apply(&self, s: Symmetry, n: u32) -> Border {
        let (q, len) = self.queens(n);
        let last = n - 1;
        let mut b = *self;
        for &(r, c) in &q[..len] {
            let (r, c) = s.map(n as usize, r as usize, c as usize);
            let (r, c) = (r as u32, c as u32);
            if r == 0 {
                b.top = c;
            }
            if r == last {
                b.bottom = c;
            }
            if c == 0 {
                b.left = r;
            }
            if c == last {
                b.right = r;
            }
        }
        b
    }
}

/// A start constellation, ready to search: its weight, stabiliser, the masks of row 1 and its
/// row events, all derived from a valid border ([`Constellation::new`]) and read through
/// methods, so that none can disagree with the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constellation {
    /// The border queens.
    pub(crate) border: Border,
    /// The number of constellations in its D4 orbit (8, 4, 2 or 1): every completion stands for
    /// this many solutions.
    pub(crate) weight: u32,
    /// The symmetries other than the identity that map the constellation to itself, as bits
    /// `1 << i` for `Symmetry::ALL[i]`.
    pub(crate) stabilizer: u8,
    /// The board side (2..=63; in what was padding).
    n: u8,
    /// Columns taken by the border queens.
    pub(crate) cols: u64,
    /// The diagonal mask of row 1 (before its events).
    pub(crate) ld: u64,
    /// The anti-diagonal mask of row 1 (before its events).
    pub(crate) rd: u64,
    /// Row events in row order, one per row, rows 1..=n-2; `events[..len]`.
    events: [RowEvent; MAX_EVENTS],
    len: u8,
}

impl Constellation {
    /// Returns the constellation of `border` on the n×n board, with its masks and events, its
    /// weight and stabiliser from its D4 orbit.
    ///
    /// # Errors
    /// [`Error::BadBorder`] unless 2 ≤ n ≤ [`crate::MAX_N`] and `border` is valid for n
    /// ([`Border::is_valid`]; a border made for another side may not be).
    ///
    /// # Examples
    /// ```
    /// use nqueens::plan::{Border, Constellation};
    /// let c = Constellation::new(Border::new(2, 5, 3, 6, 8).unwrap(), 8).unwrap();
    /// assert_eq!((c.weight(), c.stabilizer(), c.n()), (8, 0, 8));
    /// assert_eq!(c.queens(), vec![(0, 2), (7, 5), (3, 0), (6, 7)]);
    /// assert!(Constellation::new(c.border(), 5).is_err());
    /// ```
    pub fn new(border: Border, n: u32) -> Result<Constellation, Error> {
        let Border { top, bottom, left, right } = border;
        Border::new(top, bottom, left, right, n)?;
        Ok(Constellation::of(border, n))
    }

    /// Returns the border queens.
    pub fn border(&self) -> Border {
        self.border
    }

    /// Returns the board side.
    pub fn n(&self) -> u32 {
        u32::from(self.n)
    }

    /// Returns the number of constellations in its D4 orbit (8, 4, 2 or 1): every completion
    /// stands for this many solutions.
    pub fn weight(&self) -> u32 {
        self.weight
    }

    /// Returns the symmetries other than the identity that map the constellation to itself, as
    /// bits `1 << i` for `nqueens::symmetry::Symmetry::ALL[i]` (0 for most).
    pub fn stabilizer(&self) -> u8 {
        self.stabilizer
    }

    /// Returns the columns taken by the border queens, bit c for column c.
    pub fn cols(&self) -> u64 {
        self.cols
    }

    /// Returns the diagonal mask of row 1 before its events (bit c: column c is attacked).
    pub fn ld(&self) -> u64 {
        self.ld
    }

    /// Returns the anti-diagonal mask of row 1 before its events (bits past the board are
    /// anti-diagonals that shift in further down).
    pub fn rd(&self) -> u64 {
        self.rd
    }

    /// Returns the distinct border queens `(row, column)`, 0-based: 2 to 4 (a corner queen
    /// serves two lines).
    pub fn queens(&self) -> Vec<(u32, u32)> {
        let (q, len) = self.border.queens(self.n());
        q[..len].to_vec()
    }

    /// Returns the constellation of `border`, valid for the n×n board (2 ≤ n ≤ 63: the
    /// caller's promise).
    pub(crate) fn of(border: Border, n: u32) -> Constellation {
        let (q, len) = border.queens(n);
        let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
        let mut events = [RowEvent::default(); MAX_EVENTS];
        let mut n_events = 0usize;
        let mut add = |row: u32, f: &dyn Fn(&mut RowEvent)| {
            let i = match events[..n_events].iter().position(|e| e.row == row) {
                Some(i) => i,
                None => {
                    events[n_events] = RowEvent { row, ..RowEvent::default() };
                    n_events += 1;
                    n_events - 1
                }
            };
            f(&mut events[i]);
        };
        for &(r, c) in &q[..len] {
            let bit = 1u64 << c;
            cols |= bit;
            if r == 0 {
                ld |= bit << 1;
                rd |= bit >> 1;
                continue;
            }
            if r <= n - 2 {
                add(r, &|e| e.skip |= bit);
            }
            // Its diagonal going up and left: column c - (r - 1) in row 1, or it enters the
            // board at column 0 in row r - c.
            if c + 1 >= r {
                ld |= 1 << (c + 1 - r);
            } else if r - c <= n - 2 {
                add(r - c, &|e| e.ld |= 1);
            }
            // Its anti-diagonal going up and right: column c + r - 1 in row 1, kept beyond the
            // board (it shifts in) while it fits the u64, else entering at column 63.
            if c + r - 1 <= 63 {
                rd |= 1 << (c + r - 1);
            } else {
                add(c + r - 63, &|e| e.rd |= 1 << 63);
            }
        }
        events[..n_events].sort_by_key(|e| e.row);
        let mut stabilizer = 0u8;
        for (i, &s) in Symmetry::ALL.iter().enumerate().skip(1) {
            if border.apply(s, n) == border {
                stabilizer |= 1 << i;
            }
        }
        Constellation {
            border,
            weight: 8 / (1 + stabilizer.count_ones()),
            stabilizer,
            n: n as u8,
            cols,
            ld,
            rd,
            events,
            len: n_events as u8,
        }
    }

    /// Returns the row events, in row order.
    pub fn events(&self) -> &[RowEvent] {
        &self.events[..self.len as usize]
    }

    /// Returns the symmetries (identity excluded) that fix this constellation; empty for most.
    pub fn stabilizer_list(&self) -> ([Symmetry; 7], usize) {
        let mut out = [Symmetry::Identity; 7];
        let mut len = 0;
        for (i, &s) in Symmetry::ALL.iter().enumerate() {
            if self.stabilizer & (1 << i) != 0 {
                out[len] = s;
                len += 1;
            }
        }
        (out, len)
    }

    /// Returns the row of the last event (0 if none): below it the plain kernel runs.
    pub fn last_event_row(&self) -> u32 {
        self.events().last().map_or(0, |e| e.row)
    }

    /// Returns true if and only if `row` holds a pre-placed queen.
    pub fn is_preplaced(&self, row: u32, n: u32) -> bool {
        row == 0 || row == n - 1 || self.events().iter().any(|e| e.row == row && e.skip != 0)
    }

    /// Writes the pre-placed queens into `board` (`board[r]` = column of the row-r queen); other
    /// rows are left as they are.
    pub fn write_board(&self, board: &mut [u8], n: u32) {
        let (q, len) = self.border.queens(n);
        for &(r, c) in &q[..len] {
            board[r as usize] = c as u8;
        }
    }
}

/// Returns the canonical start constellations of an n×n board (n ≥ 2; none for n < 2), one per
/// D4 orbit of valid borders, in the order of their borders.
///
/// Σ weight = the number of valid borders; of each orbit the image [`search_key`] ranks first
/// is kept (see the module docs).
#[cfg(any(test, feature = "internals"))]
pub fn canonical_constellations(n: u32) -> Vec<Constellation> {
    try_canonical_constellations(n).unwrap_or_else(|bytes| panic!("cannot allocate {bytes} bytes"))
}

/// Returns an upper bound on the number of canonical start constellations of the n×n board:
/// n⁴/8 + n² + 8 (every border is one of n⁴ choices of four queens, one in eight is canonical
/// but for the few symmetric ones; measured: 0.39·n⁴/8 at n = 16, 0.80·n⁴/8 at n = 63).
pub fn max_constellations(n: u32) -> usize {
    let n = n as usize;
    n.pow(4) / 8 + n * n + 8
}

/// [`canonical_constellations`] with its memory reserved fallibly: room for
/// [`max_constellations`] at once (one allocation, no doubling: 600 MB at n = 63).
///
/// # Errors
/// The bytes asked for, if an allocation fails.
pub fn try_canonical_constellations(n: u32) -> Result<Vec<Constellation>, u64> {
    assert!(n <= kernel::MAX_N, "board side {n} is beyond the masks");
    if n < 2 {
        return Ok(Vec::new());
    }
    let key = |b: &Border| search_key(b, n);
    // Every side's queen is the bottom queen of some image, at the same distance from the
    // middle (a symmetry maps a side onto the bottom, its coordinate x to x or n-1-x), and the
    // canonical image's bottom queen is the one nearest a corner: a border whose bottom queen
    // is nearer the middle than another side's is not canonical. This skips most borders
    // before their eight images are made (n = 63: 3.4 s to 1.0 s).
    let off = |x: u32| (2 * x as i64 - (n as i64 - 1)).abs();
    let mut out = Vec::new();
    let room = max_constellations(n);
    out.try_reserve_exact(room).map_err(|_| (room * std::mem::size_of::<Constellation>()) as u64)?;
    for top in 0..n {
        for bottom in (0..n).filter(|&b| off(b) >= off(top)) {
            for left in (0..n).filter(|&l| off(l) <= off(bottom)) {
                for right in (0..n).filter(|&r| off(r) <= off(bottom)) {
                    let b = Border { top, bottom, left, right };
                    if !b.is_valid(n) {
                        continue;
                    }
                    let best =
                        Symmetry::ALL.iter().map(|&s| b.apply(s, n)).min_by_key(key).expect("eight images");
                    if best == b {
                        crate::memory::try_push(&mut out, Constellation::of(b, n))?;
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Returns the rank of a border among the images of its orbit: the smallest is searched.
/// Bottom queen nearest a corner first, then top queen nearest the middle (see the module docs).
pub fn search_key(b: &Border, n: u32) -> (i64, i64, bool, Border) {
    let off_middle = |x: u32| (2 * x as i64 - (n as i64 - 1)).abs();
    (-off_middle(b.bottom), off_middle(b.top), 2 * b.bottom < n - 1, *b)
}

/// One subproblem of the D4 search: a canonical constellation with its first rows fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct D4Subproblem {
    /// Index of its constellation in the plan's list.
    pub constellation: u32,
    /// The columns the splitter chose in the free rows (pre-placed rows not included), top first.
    pub placed: Prefix,
    /// The next row to fill (its events already applied).
    pub row: u32,
    /// Columns taken.
    pub cols: u64,
    /// Diagonal mask of `row`.
    pub ld: u64,
    /// Anti-diagonal mask of `row`.
    pub rd: u64,
    /// Index of the first event still ahead in the constellation's events.
    pub event: u8,
}

/// Returns the subproblems of `constellations` (of an n×n board) with the first `depth` rows
/// fixed (at most [`crate::split::MAX_SPLIT_DEPTH`] and n), in order: by constellation, then
/// lexicographic by the free rows' columns. Prefixes that cannot continue are dropped.
#[cfg(any(test, feature = "internals"))]
pub fn d4_subproblems(constellations: &[Constellation], n: u32, depth: u32) -> Vec<D4Subproblem> {
    d4_subproblems_counting(constellations, n, depth).0
}

/// [`d4_subproblems_counting`] with its list grown fallibly.
///
/// # Errors
/// The bytes asked for, if an allocation fails.
pub fn try_d4_subproblems_counting(
    constellations: &[Constellation],
    n: u32,
    depth: u32,
) -> Result<(Vec<D4Subproblem>, u64), u64> {
    let mut nodes = 0u64;
    let depth = depth.min(n).min(crate::split::MAX_SPLIT_DEPTH);
    let full = full_mask(n);
    let mut out = Vec::new();
    let room = constellations.len();
    out.try_reserve_exact(room).map_err(|_| (room * std::mem::size_of::<D4Subproblem>()) as u64)?;
    let mut leaf = |sub: D4Subproblem| {
        if out.len() >= crate::split::MAX_SUBPROBLEMS {
            return Ok(false);
        }
        crate::memory::try_push(&mut out, sub).map(|()| true)
    };
    for (i, c) in constellations.iter().enumerate() {
        if !expand(c, start(i, c), full, depth, &mut leaf, &mut nodes)? {
            break;
        }
    }
    Ok((out, nodes))
}

/// Returns how many subproblems [`d4_subproblems`] makes at `depth`, counting at most `cap` of
/// them, without storing any: what the automatic split depth compares with its target (the
/// lists of the depths it tried were built whole: 429 MiB at n = 50 for K = 4,096 shards).
pub fn count_d4_subproblems(constellations: &[Constellation], n: u32, depth: u32, cap: usize) -> usize {
    let depth = depth.min(n).min(crate::split::MAX_SPLIT_DEPTH);
    let full = full_mask(n);
    let mut count = 0usize;
    let mut leaf = |_: D4Subproblem| {
        count += 1;
        Ok(count < cap)
    };
    for (i, c) in constellations.iter().enumerate() {
        if !matches!(expand(c, start(i, c), full, depth, &mut leaf, &mut 0), Ok(true)) {
            break;
        }
    }
    count
}

/// Returns the subproblem of constellation `c` (number `i`) with no row fixed below it.
fn start(i: usize, c: &Constellation) -> D4Subproblem {
    D4Subproblem {
        constellation: i as u32,
        placed: Prefix::default(),
        row: 1,
        cols: c.cols,
        ld: c.ld,
        rd: c.rd,
        event: 0,
    }
}

/// Returns [`d4_subproblems`] and the number of queen placements made to build them (the rows
/// fixed below each start constellation, dead ends included; the border queens themselves are
/// not counted). With the search's nodes below the subproblems this gives the nodes of the whole
/// D4 search, whatever the split depth.
#[cfg(any(test, feature = "internals"))]
pub fn d4_subproblems_counting(
    constellations: &[Constellation],
    n: u32,
    depth: u32,
) -> (Vec<D4Subproblem>, u64) {
    try_d4_subproblems_counting(constellations, n, depth)
        .unwrap_or_else(|bytes| panic!("cannot allocate {bytes} bytes"))
}

/// Walks the subproblems below `sub` (of `c`) down to `depth` in order and hands each to
/// `leaf`, adding the placements to `nodes`; returns `Ok(false)` as soon as `leaf` does (no
/// more wanted), the bytes of a failed allocation as `Err`.
fn expand(
    c: &Constellation,
    sub: D4Subproblem,
    full: u64,
    depth: u32,
    leaf: &mut impl FnMut(D4Subproblem) -> Result<bool, u64>,
    nodes: &mut u64,
) -> Result<bool, u64> {
    let all = c.events();
    let ahead = &all[sub.event as usize..];
    let (ahead, row, ld, rd) = apply_events(ahead, sub.row, sub.ld, sub.rd);
    let sub = D4Subproblem { row, ld, rd, event: (all.len() - ahead.len()) as u8, ..sub };
    // The searches' look-ahead, applied here too so that node counts do not depend on the split.
    if search::dropped(ahead, row, full & !sub.cols, ld, rd) {
        return Ok(true);
    }
    if row >= depth || sub.cols == full {
        return leaf(sub);
    }
    let mut free = full & !(sub.cols | ld | rd);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let next = D4Subproblem {
            placed: sub.placed.push(bit.trailing_zeros()),
            row: row + 1,
            cols: sub.cols | bit,
            ld: (ld | bit) << 1,
            rd: (rd | bit) >> 1,
            ..sub
        };
        *nodes += 1;
        if !expand(c, next, full, depth, leaf, nodes)? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::backtrack_each;

    fn border_of(q: &[u32]) -> Border {
        let n = q.len() as u32;
        Border {
            top: q[0],
            bottom: q[n as usize - 1],
            left: q.iter().position(|&c| c == 0).unwrap() as u32,
            right: q.iter().position(|&c| c == n - 1).unwrap() as u32,
        }
    }

    #[test]
    fn every_solution_has_a_valid_border_and_images_agree() {
        for n in 4..=9 {
            backtrack_each(n, |q| {
                let q: Vec<u32> = q.iter().map(|&c| c as u32).collect();
                let b = border_of(&q);
                assert!(b.is_valid(n), "n = {n} {q:?}");
                let board: Vec<u8> = q.iter().map(|&c| c as u8).collect();
                for s in Symmetry::ALL {
                    let img: Vec<u32> = s.apply(&board).unwrap().iter().map(|&c| c as u32).collect();
                    assert_eq!(b.apply(s, n), border_of(&img), "n = {n} {s:?}");
                }
            });
        }
    }

    /// Issue 40: a border or constellation made through the public API is checked (an
    /// unchecked one gave garbage in release), every border `new` accepts is `is_valid`, and the
    /// board side fits in what was padding (304 bytes, what the d4 plan's memory figures use).
    #[test]
    fn borders_and_constellations_are_made_valid_or_refused() {
        assert_eq!(std::mem::size_of::<Constellation>(), 304);
        for n in 0..=9 {
            for x in 0..(n + 2) * (n + 2) * (n + 2) * (n + 2) {
                let side = n + 2;
                let [t, b, l, r] = [x % side, x / side % side, x / side / side % side, x / side / side / side];
                let raw = Border { top: t, bottom: b, left: l, right: r };
                match Border::new(t, b, l, r, n) {
                    Ok(made) => {
                        assert!(made.is_valid(n) && n >= 2 && made == raw);
                        let c = Constellation::new(made, n).unwrap();
                        assert_eq!((c.n(), c.border()), (n, made));
                    }
                    Err(e) => {
                        assert!(!raw.is_valid(n), "n = {n} {raw:?}");
                        assert_eq!(e, Error::BadBorder { n, border: [t, b, l, r] });
                        assert!(Constellation::new(raw, n).is_err());
                    }
                }
            }
        }
        assert!(Border::new(0, 0, 0, 0, 64).is_err());
        assert_eq!(
            Border::new(2, 5, 3, 9, 8).unwrap_err().to_string(),
            "border (top 2, bottom 5, left 3, right 9) is not a start constellation of the 8×8 board: it takes \
             2 <= n <= 63, every queen within 0..n, a corner queen on both its lines and no two queens attacking"
        );
        // The canonical list's constellations are those `new` makes from their borders.
        for c in canonical_constellations(12) {
            assert_eq!(Constellation::new(c.border(), 12).unwrap(), c);
        }
    }

    #[test]
    fn weights_cover_every_valid_border_once() {
        for n in 2..=12 {
            let mut valid = 0u32;
            for t in 0..n {
                for b in 0..n {
                    for l in 0..n {
                        for r in 0..n {
                            valid += Border { top: t, bottom: b, left: l, right: r }.is_valid(n) as u32;
                        }
                    }
                }
            }
            let cons = canonical_constellations(n);
            assert_eq!(cons.iter().map(|c| c.weight).sum::<u32>(), valid, "n = {n}");
            assert!(cons.iter().all(|c| [8, 4, 2, 1].contains(&c.weight)));
        }
    }

    /// Every free row's masks, after its events, attack exactly the squares the border queens
    /// attack, at every board size up to 63 (n >= 36 once overflowed MAX_EVENTS).
    #[test]
    fn events_reproduce_the_border_attacks_up_to_63() {
        for n in (4..=63).filter(|n| *n <= 14 || n % 3 == 0 || *n >= 60) {
            let full = full_mask(n);
            for c in canonical_constellations(n) {
                let (q, len) = c.border.queens(n);
                let q = &q[..len];
                let naive = |row: u32| {
                    q.iter().fold(0u64, |m, &(rq, cq)| {
                        let (r, cq) = (row as i64, cq as i64);
                        let d = r - rq as i64;
                        [cq, cq + d, cq - d]
                            .into_iter()
                            .filter(|&x| (0..n as i64).contains(&x))
                            .fold(m, |m, x| m | 1 << x)
                    })
                };
                let (mut events, mut row, mut ld, mut rd) = apply_events(c.events(), 1, c.ld, c.rd);
                while row <= n - 2 {
                    assert_eq!((c.cols | ld | rd) & full, naive(row), "n = {n}, {:?}, row {row}", c.border);
                    (events, row, ld, rd) = apply_events(events, row + 1, ld << 1, rd >> 1);
                }
            }
        }
    }

    #[test]
    fn events_are_sorted_inner_rows() {
        for n in 4..=13 {
            for c in canonical_constellations(n) {
                let rows: Vec<u32> = c.events().iter().map(|e| e.row).collect();
                assert!(rows.windows(2).all(|w| w[0] < w[1]), "{rows:?}");
                assert!(rows.iter().all(|&r| (1..=n - 2).contains(&r)), "{rows:?}");
            }
        }
    }

    #[test]
    fn subproblems_fix_their_rows() {
        let cons = canonical_constellations(12);
        for depth in 1..=5 {
            for s in d4_subproblems(&cons, 12, depth) {
                assert!(s.row >= depth || s.cols == full_mask(12));
                let c = &cons[s.constellation as usize];
                let free_rows = (1..s.row).filter(|&r| !c.is_preplaced(r, 12)).count();
                assert_eq!(s.placed.len(), free_rows);
            }
        }
    }
}
