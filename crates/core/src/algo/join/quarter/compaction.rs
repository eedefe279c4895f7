//! The quarter table's compaction: which images of the square under its symmetries the table
//! stores once ([`Symmetry`]), and how a stored list is turned into the requested one
//! ([`Mirror`]); see the module docs of [`super`].

/// Which images of the square under its symmetries the table stores once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Every key stored.
    None,
    /// Only row sets R ≤ rev(R) (the top–bottom mirror).
    Rows,
    /// One key per orbit of the square's dihedral group D4 (mirrors and the transpose).
    D4,
}

impl Symmetry {
    /// Returns the compaction used for side `h`: none up to h = 10 (65 MB at most, and the
    /// enumerator reads the lists as they are), rows at h = 11 (n = 22–23: 293 MB instead of
    /// 551 MB), one key per D4 orbit from h = 12 (n = 24–25: 0.73 GB instead of 5.1 GB;
    /// n = 26–27: 6.9 GB instead of 51 GB).
    pub fn for_side(h: u32) -> Symmetry {
        match h {
            0..=10 => Symmetry::None,
            11 => Symmetry::Rows,
            _ => Symmetry::D4,
        }
    }
}

/// How to turn a stored entry into the requested one: the transpose (if `transpose`), then
/// the top–bottom mirror (if `rows`), then the left–right mirror (if `cols`); see the module
/// docs for what each does to (u, v).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mirror {
    /// (r, c) → (c, r): (u, v) → (u, rev(v)).
    pub transpose: bool,
    /// r → h−1−r: (u, v) → (v, u).
    pub rows: bool,
    /// c → h−1−c: (u, v) → (rev(v), rev(u)).
    pub cols: bool,
}

impl Mirror {
    /// No change.
    pub const IDENTITY: Mirror = Mirror { transpose: false, rows: false, cols: false };

    /// Returns `entry` (`u | v << 32`) mapped, with rev over `len` = 2h − 1 bits.
    #[inline]
    pub fn apply(self, entry: u64, len: u32) -> u64 {
        let (mut u, mut v) = (entry & 0xffff_ffff, entry >> 32);
        let rev = |x: u64| x.reverse_bits() >> (64 - len);
        if self.transpose {
            v = rev(v);
        }
        if self.rows {
            (u, v) = (v, u);
        }
        if self.cols {
            (u, v) = (rev(v), rev(u));
        }
        u | (v << 32)
    }

    /// Returns the key this mirror's inverse maps (`rows`, `cols`) to: the stored key whose
    /// list, mapped by `self`, is the list of (`rows`, `cols`).
    #[inline]
    fn source(self, rows: u32, cols: u32, h: u32) -> (u32, u32) {
        let (mut r, mut c) = (rows, cols);
        if self.cols {
            c = rev_h(c, h);
        }
        if self.rows {
            r = rev_h(r, h);
        }
        if self.transpose {
            (r, c) = (c, r);
        }
        (r, c)
    }
}

/// Returns `x` with its low `h` bits mirrored (bit i → bit h − 1 − i).
#[inline]
pub(super) fn rev_h(x: u32, h: u32) -> u32 {
    if h == 0 { 0 } else { x.reverse_bits() >> (32 - h) }
}

/// Returns the stored key for (`rows`, `cols`) under `symmetry` (the least key of its orbit)
/// and the mirror that maps the stored list to the requested one.
#[inline]
pub(super) fn canonical(symmetry: Symmetry, rows: u32, cols: u32, h: u32) -> (u32, u32, Mirror) {
    let key = |(r, c): (u32, u32)| (r << h) | c;
    let mut best = (rows, cols, Mirror::IDENTITY);
    let mut candidates = |m: Mirror| {
        let (r, c) = m.source(rows, cols, h);
        if key((r, c)) < key((best.0, best.1)) {
            best = (r, c, m);
        }
    };
    match symmetry {
        Symmetry::None => {}
        Symmetry::Rows => candidates(Mirror { rows: true, ..Mirror::IDENTITY }),
        Symmetry::D4 => {
            for i in 1..8u8 {
                candidates(Mirror { transpose: i & 1 != 0, rows: i & 2 != 0, cols: i & 4 != 0 });
            }
        }
    }
    best
}
