//! The duplicate check of [`check`](fn@super::check): nothing stored while the list is every
//! solution in lexicographic order ([`next_solution`]), then a table of the other boards by
//! their rank among the permutations, or by a 128-bit digest with the columns spilled to disk
//! ([`Digests`]); and [`canonical`], which a list of `unique` boards is judged by.

use std::collections::HashMap;

use crate::symmetry::is_canonical_permutation;

/// Where a board was first seen: its 1-based number and first line (0 when unknown).
pub(super) type First = (u64, u64);

/// The largest board a list is compared with the solutions in order for (every n with a known
/// count: the first solutions come in milliseconds; from n ≈ 40 they take hours).
const ORDERED_MAX_N: usize = 27;

/// The distinct boards so far, for the duplicate check. While the list's valid boards are
/// exactly the solutions (canonical ones with `unique`) in lexicographic order from the first,
/// nothing is stored: each board is compared with the next solution after the last
/// ([`next_solution`]). From the first board out of that order, the boards not among those
/// first `ordered` solutions go into a table keyed by their rank among the permutations (n ≤ 34,
/// 16 bytes) or by a 128-bit digest of their columns ([`Digests`]: the columns themselves go to
/// a spill file, read back only when two digests agree), grown fallibly.
#[derive(Default)]
pub(super) struct Seen {
    unique: bool,
    /// Whether every valid board so far was the next solution in order.
    in_order: bool,
    /// How many valid boards came in that order: the first `ordered` solutions.
    ordered: u64,
    /// The last of them, if any, and where it was.
    last: Option<Vec<u32>>,
    last_at: First,
    /// Where the first of them was, and whether they came one after another at one line step
    /// (`step`), so that the place of a repeated one follows from its rank.
    first_at: First,
    step: u64,
    contiguous: bool,
    ranks: HashMap<u128, First>,
    pub(super) digests: Digests,
}

/// The bytes of columns the duplicate check keeps whole in memory before it spills boards of
/// more than 34 rows to a file in the temporary folder: 4 MiB, 1,000 boards of n = 1009 or
/// 20,000 of n = 50, so that a short list never touches `TMPDIR`.
pub const SPILL_AFTER_BYTES: u64 = 4 << 20;

/// Why the duplicate check's spill file failed: the temporary folder it was in and the error.
#[derive(Debug)]
pub(super) struct SpillError {
    pub(super) dir: std::path::PathBuf,
    pub(super) error: std::io::Error,
}

/// What [`Seen::insert`] cannot do: grow a table (the bytes asked for), or use its spill file.
#[derive(Debug)]
pub(super) enum SeenError {
    Memory(u64),
    Spill(SpillError),
}

/// The boards of more than 34 rows the duplicate check remembers. The first ones, up to
/// [`SPILL_AFTER_BYTES`] of columns, are kept whole in memory (`whole`); past that, a board is
/// kept by a 128-bit digest (two SipHash-1-3 with keys drawn per process, so that no list can be
/// forged to make them agree) and on disk whole, in an unnamed spill file in the temporary
/// folder: a board's memory is then that of a rank's, about 90 bytes with the table's growth,
/// whatever its side (its columns kept in memory took 4·n bytes: 84 MB for 20,000 boards of
/// n = 1009, issue 32). Two boards whose digests agree are compared column by column against the
/// spill file; a board that differs from its digest's first one (a collision, about 2^-128 a
/// pair) is kept whole too.
///
/// A spill file that cannot be made, written or read back is an error ([`SpillError`]), never a
/// verdict: a board whose columns were lost could not be told from a later one (issue 40, a full
/// `TMPDIR` made repeats distinct).
#[derive(Default)]
pub(super) struct Digests {
    /// Digest → where the board was first seen and where its columns are in the spill file.
    pub(super) table: HashMap<u128, (First, u64)>,
    /// The boards kept whole: the first ones, up to [`SPILL_AFTER_BYTES`], and those that collided.
    pub(super) whole: HashMap<Box<[u32]>, First>,
    /// The bytes of columns in `whole`.
    whole_bytes: u64,
    keys: (std::hash::RandomState, std::hash::RandomState),
    pub(super) spill: Option<Spill>,
    /// Tests: the bytes kept whole before spilling, instead of [`SPILL_AFTER_BYTES`].
    #[cfg(test)]
    pub(super) spill_after: Option<u64>,
    /// Tests: every digest the same, so that each board collides.
    #[cfg(test)]
    pub(super) collide_all: bool,
}

/// The spill file of [`Digests`]: each board's columns as 4-byte little-endian numbers, one
/// board after another; removed from its folder as soon as it is made (Unix), else when dropped.
pub(super) struct Spill {
    out: std::io::BufWriter<std::fs::File>,
    /// The bytes written so far: where the next board goes.
    pub(super) end: u64,
    #[cfg(not(unix))]
    path: std::path::PathBuf,
}

impl Spill {
    /// Makes the spill file in the temporary folder.
    ///
    /// # Errors
    /// The folder and the I/O error, if the file cannot be made (a missing or read-only folder).
    pub(super) fn new() -> Result<Spill, SpillError> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(".nqueens-check-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir();
        let path = dir.join(name);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|error| SpillError { dir: dir.clone(), error })?;
        #[cfg(unix)]
        let _ = std::fs::remove_file(&path);
        Ok(Spill {
            out: std::io::BufWriter::with_capacity(1 << 16, file),
            end: 0,
            #[cfg(not(unix))]
            path,
        })
    }

    /// Appends `q`'s columns; returns where they start. A write may wait in the buffer: its
    /// failure shows at a later `push` or at [`Spill::holds`].
    fn push(&mut self, q: &[u32]) -> std::io::Result<u64> {
        use std::io::Write;
        let at = self.end;
        for &c in q {
            self.out.write_all(&c.to_le_bytes())?;
        }
        self.end += 4 * q.len() as u64;
        Ok(at)
    }

    /// Returns true if and only if the board written at `at` is `q`.
    ///
    /// # Errors
    /// The I/O error of writing what waits in the buffer (a full disk) or of reading it back.
    pub(super) fn holds(&mut self, at: u64, q: &[u32]) -> std::io::Result<bool> {
        use std::io::{Read, Seek, SeekFrom, Write};
        // A board of another side (the library's tests mix them) cannot be the one at `at`.
        if at + 4 * q.len() as u64 > self.end {
            return Ok(false);
        }
        self.out.flush()?;
        let mut file = self.out.get_ref();
        file.seek(SeekFrom::Start(at))?;
        let mut reader = std::io::BufReader::with_capacity(1 << 16, file).take(4 * q.len() as u64);
        let mut same = true;
        let mut word = [0u8; 4];
        for &c in q {
            reader.read_exact(&mut word)?;
            same &= u32::from_le_bytes(word) == c;
        }
        drop(reader);
        file.seek(SeekFrom::End(0))?;
        Ok(same)
    }
}

#[cfg(not(unix))]
impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Digests {
    /// Returns the digest of `q`.
    fn digest(&self, q: &[u32]) -> u128 {
        use std::hash::BuildHasher;
        #[cfg(test)]
        if self.collide_all {
            return 7;
        }
        (u128::from(self.keys.0.hash_one(q)) << 64) | u128::from(self.keys.1.hash_one(q))
    }

    /// The bytes of columns kept whole before spilling.
    fn spill_after(&self) -> u64 {
        #[cfg(test)]
        if let Some(bytes) = self.spill_after {
            return bytes;
        }
        SPILL_AFTER_BYTES
    }

    /// Records `q` first seen as `first`, or returns where it was seen before.
    ///
    /// # Errors
    /// The bytes asked for, if a table cannot grow; the spill file's folder and error, if it
    /// cannot be made, written or read back.
    fn insert(
        &mut self,
        q: &[u32],
        first: First,
        bytes: impl Fn(usize) -> u64,
    ) -> Result<Option<First>, SeenError> {
        if let Some(&at) = self.whole.get(q) {
            return Ok(Some(at));
        }
        let columns = 4 * q.len() as u64;
        if self.table.is_empty() && self.whole_bytes + columns <= self.spill_after() {
            return self.keep_whole(q, first, &bytes).map(|()| None);
        }
        let digest = self.digest(q);
        let spill_error = |error| SeenError::Spill(SpillError { dir: std::env::temp_dir(), error });
        if let Some(&(at, offset)) = self.table.get(&digest) {
            // Agreeing digests: the columns decide (the spill file holds the first board).
            let spill = self.spill.as_mut().expect("a digest in the table has its board in the spill file");
            if spill.holds(offset, q).map_err(spill_error)? {
                return Ok(Some(at));
            }
            return self.keep_whole(q, first, &bytes).map(|()| None);
        }
        if self.spill.is_none() {
            self.spill = Some(Spill::new().map_err(SeenError::Spill)?);
        }
        let spill = self.spill.as_mut().expect("made above");
        let offset = spill.push(q).map_err(spill_error)?;
        self.table.try_reserve(1).map_err(|_| SeenError::Memory(bytes(self.table.len())))?;
        self.table.insert(digest, (first, offset));
        Ok(None)
    }

    /// Keeps `q` whole in memory.
    fn keep_whole(
        &mut self,
        q: &[u32],
        first: First,
        bytes: &impl Fn(usize) -> u64,
    ) -> Result<(), SeenError> {
        let columns = 4 * q.len() as u64;
        self.whole
            .try_reserve(1)
            .map_err(|_| SeenError::Memory(bytes(self.whole.len()) + self.whole_bytes + columns))?;
        self.whole.insert(q.into(), first);
        self.whole_bytes += columns;
        Ok(())
    }

    fn len(&self) -> usize {
        self.table.len() + self.whole.len()
    }
}

/// Where a repeated board was seen first.
pub(super) enum Earlier {
    /// At this board number and line.
    At(First),
    /// Among the first `ordered` boards, which came as the solutions in order, the last of them
    /// at the place given (where, exactly, is not kept).
    Ordered(u64, First),
}

impl Seen {
    pub(super) fn new(unique: bool) -> Seen {
        Seen { unique, in_order: true, ..Seen::default() }
    }

    /// Records `q` (a valid board, canonical with `unique`) first seen as `first`, or returns
    /// where it was seen before.
    ///
    /// # Errors
    /// The bytes asked for, if a table cannot grow; the spill file's failure ([`Digests`]).
    pub(super) fn insert(&mut self, q: &[u32], first: First) -> Result<Option<Earlier>, SeenError> {
        if self.in_order && q.len() <= ORDERED_MAX_N {
            let mut expected = next_solution(q.len(), self.last.as_deref());
            while self.unique && expected.as_ref().is_some_and(|e| !canonical(e)) {
                expected = next_solution(q.len(), expected.as_deref());
            }
            if expected.as_deref() == Some(q) {
                match self.ordered {
                    0 => (self.first_at, self.contiguous) = (first, true),
                    1 => {
                        self.step = first.1.wrapping_sub(self.last_at.1);
                        self.contiguous = first.0 == self.last_at.0 + 1;
                    }
                    _ => {
                        self.contiguous &= first.0 == self.last_at.0 + 1
                            && first.1.wrapping_sub(self.last_at.1) == self.step;
                    }
                }
                self.ordered += 1;
                self.last = expected;
                self.last_at = first;
                return Ok(None);
            }
        }
        self.in_order = false;
        // Every solution up to the last one in order was listed. Where exactly follows from its
        // rank among them, counted when that is cheap (a million boards or fewer).
        if self.last.as_deref().is_some_and(|last| q <= last) {
            if self.contiguous && !self.unique && self.ordered <= ORDERED_RANKED {
                let rank = solutions_below(q) as u64;
                let line = if self.first_at.1 > 0 { self.first_at.1 + rank * self.step } else { 0 };
                return Ok(Some(Earlier::At((self.first_at.0 + rank, line))));
            }
            return Ok(Some(Earlier::Ordered(self.ordered, self.last_at)));
        }
        // A table that grows doubles: the buckets of twice the boards, 33 bytes each.
        let bytes = |len: usize| 33 * (2 * len as u64 + 2).next_power_of_two();
        if let Some(rank) = lehmer_rank(q) {
            if let Some(&at) = self.ranks.get(&rank) {
                return Ok(Some(Earlier::At(at)));
            }
            self.ranks.try_reserve(1).map_err(|_| SeenError::Memory(bytes(self.ranks.len())))?;
            self.ranks.insert(rank, first);
        } else if let Some(at) = self.digests.insert(q, first, bytes)? {
            return Ok(Some(Earlier::At(at)));
        }
        Ok(None)
    }

    pub(super) fn len(&self) -> usize {
        self.ordered as usize + self.ranks.len() + self.digests.len()
    }
}

/// The most boards in order a repeated one is placed among by its rank ([`solutions_below`]:
/// a count of up to this many solutions, milliseconds).
const ORDERED_RANKED: u64 = 1 << 20;

/// Returns the number of solutions of the `q.len()`×`q.len()` board (n ≤ 63) that come before
/// the solution `q` in lexicographic order: the completions of every prefix of `q` with a
/// smaller column in its last row, counted by the kernel.
pub(super) fn solutions_below(q: &[u32]) -> u128 {
    let n = q.len() as u32;
    let full = crate::kernel::full_mask(n);
    let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
    let mut below = 0u128;
    for &c in q {
        let mut free = full & !(cols | ld | rd) & ((1u64 << c) - 1);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            below += u128::from(crate::kernel::count_completions::<false>(
                crate::arch::Level::best(),
                full,
                cols | bit,
                (ld | bit) << 1,
                (rd | bit) >> 1,
                &mut 0,
            ));
        }
        let bit = 1u64 << c;
        (cols, ld, rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    below
}

/// Returns the rank of the permutation `q` among the permutations of its length in
/// lexicographic order (its Lehmer code read as a factorial-base number), if it fits 128 bits
/// (n ≤ 34) and `q` is a permutation of `0..n`.
pub(super) fn lehmer_rank(q: &[u32]) -> Option<u128> {
    let n = q.len();
    if n > 34 {
        return None;
    }
    let mut unused = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut rank = 0u128;
    for (i, &c) in q.iter().enumerate() {
        let below = (unused & ((1u64 << c) - 1)).count_ones() as u128;
        rank = rank * (n - i) as u128 + below;
        unused &= !(1u64 << c);
    }
    Some(rank)
}

/// Returns the smallest solution of the `n`×`n` board (n ≤ 64) greater than `after` in
/// lexicographic order, or the smallest of all when `after` is `None`; `None` when there is
/// none. A backtracking search from `after`'s rows: over a whole list, as much work as listing
/// the solutions on one thread.
pub(super) fn next_solution(n: usize, after: Option<&[u32]>) -> Option<Vec<u32>> {
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut out = vec![0u32; n];
    /// Fills rows `r..` with the smallest completion of the masks, if any.
    fn complete(r: usize, full: u64, cols: u64, ld: u64, rd: u64, out: &mut [u32]) -> bool {
        if r == out.len() {
            return true;
        }
        let mut free = full & !(cols | ld | rd);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out[r] = bit.trailing_zeros();
            if complete(r + 1, full, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, out) {
                return true;
            }
        }
        false
    }
    let Some(after) = after else {
        return complete(0, full, 0, 0, 0, &mut out).then_some(out);
    };
    // The masks before each row of `after`.
    let mut masks = Vec::with_capacity(n);
    let (mut cols, mut ld, mut rd) = (0u64, 0u64, 0u64);
    for &c in after {
        masks.push((cols, ld, rd));
        let bit = 1u64 << c;
        (cols, ld, rd) = (cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    out.copy_from_slice(after);
    for r in (0..n).rev() {
        let (cols, ld, rd) = masks[r];
        let above = !((2u64 << after[r]).wrapping_sub(1)) & if after[r] >= 63 { 0 } else { u64::MAX };
        let mut free = full & !(cols | ld | rd) & above;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out[r] = bit.trailing_zeros();
            if complete(r + 1, full, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, &mut out) {
                return Some(out);
            }
        }
    }
    None
}

/// Returns true if and only if `q` is the lexicographically smallest board of its symmetry
/// class ([`crate::symmetry`]), for a board of any side.
pub(super) fn canonical(q: &[u32]) -> bool {
    let n = q.len();
    if n <= 255 {
        let board: Vec<u8> = q.iter().map(|&c| c as u8).collect();
        return is_canonical_permutation(&board);
    }
    let mut image = vec![0u32; n];
    crate::symmetry::Symmetry::ALL[1..].iter().all(|s| {
        for (r, &c) in q.iter().enumerate() {
            let (r2, c2) = s.map(n, r, c as usize);
            image[r2] = c2 as u32;
        }
        q <= &image[..]
    })
}
