//! Known values from the OEIS, for `--verify` and the tests.
//!
//! - A000170: the number of solutions of the n-queens problem, n = 0..=27 (Q(0) = 1 by
//!   convention; Q(27) by the Q27 project, TU Dresden, 2016).
//! - A002562: the number of fundamental solutions (symmetry classes under the dihedral group D4
//!   of the square), n = 1..=27.
//! - The class breakdown: how many fundamental solutions have a D4 orbit of 8, 4 or 2 boards,
//!   n = 2..=27; A000170 = 8·c8 + 4·c4 + 2·c2 and A002562 = c8 + c4 + c2 (n = 1 is the one board
//!   with an orbit of 1).
//!
//! The tables are copied from the b-files in the workspace's `tests/data/` (themselves copies of the OEIS
//! b-files); a test checks each entry against those files.

/// A table of known values of a sequence: `values[i]` is a(`offset` + i).
#[derive(Clone, Copy, Debug)]
pub struct KnownValues {
    /// The OEIS number, e.g. `"A000170"`.
    pub name: &'static str,
    /// The first n the table holds.
    pub offset: u32,
    /// a(offset), a(offset + 1), …
    pub values: &'static [u128],
}

impl KnownValues {
    /// Returns a(n) if the table holds it.
    pub fn get(&self, n: u32) -> Option<u128> {
        n.checked_sub(self.offset).and_then(|i| self.values.get(i as usize).copied())
    }

    /// Returns the largest n the table holds.
    pub fn max_n(&self) -> u32 {
        self.offset + self.values.len() as u32 - 1
    }

    /// Returns `Some(true)` if the table holds a(n) and it equals `value`, `Some(false)` if it
    /// holds a different a(n), and `None` (unverified) if n is outside the table.
    pub fn verify(&self, n: u32, value: u128) -> Option<bool> {
        self.get(n).map(|known| known == value)
    }
}

/// OEIS A000170: the number of solutions of the n-queens problem, n = 0..=27.
pub const A000170: KnownValues = KnownValues {
    name: "A000170",
    offset: 0,
    values: &[
        1,
        1,
        0,
        0,
        2,
        10,
        4,
        40,
        92,
        352,
        724,
        2_680,
        14_200,
        73_712,
        365_596,
        2_279_184,
        14_772_512,
        95_815_104,
        666_090_624,
        4_968_057_848,
        39_029_188_884,
        314_666_222_712,
        2_691_008_701_644,
        24_233_937_684_440,
        227_514_171_973_736,
        2_207_893_435_808_352,
        22_317_699_616_364_044,
        234_907_967_154_122_528,
    ],
};

/// OEIS A002562: the number of fundamental solutions (unique up to the 8 symmetries of the
/// square), n = 1..=27.
pub const A002562: KnownValues = KnownValues {
    name: "A002562",
    offset: 1,
    values: &[
        1,
        0,
        0,
        1,
        2,
        1,
        6,
        12,
        46,
        92,
        341,
        1_787,
        9_233,
        45_752,
        285_053,
        1_846_955,
        11_977_939,
        83_263_591,
        621_012_754,
        4_878_666_808,
        39_333_324_973,
        336_376_244_042,
        3_029_242_658_210,
        28_439_272_956_934,
        275_986_683_743_434,
        2_789_712_466_510_289,
        29_363_495_934_315_694,
    ],
};

/// The orbit-size breakdown of the fundamental solutions, n = 1..=27: `[c8, c4, c2]` per n,
/// the number of symmetry classes whose D4 orbit has 8, 4 or 2 boards (n = 1 has a single class
/// of orbit 1, not listed here).
pub const CLASSES: [(u32, [u128; 3]); 27] = [
    (1, [0, 0, 0]),
    (2, [0, 0, 0]),
    (3, [0, 0, 0]),
    (4, [0, 0, 1]),
    (5, [1, 0, 1]),
    (6, [0, 1, 0]),
    (7, [4, 2, 0]),
    (8, [11, 1, 0]),
    (9, [42, 4, 0]),
    (10, [89, 3, 0]),
    (11, [329, 12, 0]),
    (12, [1_765, 18, 4]),
    (13, [9_197, 32, 4]),
    (14, [45_647, 105, 0]),
    (15, [284_743, 310, 0]),
    (16, [1_846_189, 734, 32]),
    (17, [11_975_869, 2_006, 64]),
    (18, [83_259_065, 4_526, 0]),
    (19, [621_001_708, 11_046, 0]),
    (20, [4_878_630_533, 36_035, 240]),
    (21, [39_333_230_881, 93_740, 352]),
    (22, [336_375_931_369, 312_673, 0]),
    (23, [3_029_241_762_900, 895_310, 0]),
    (24, [28_439_270_037_332, 2_917_938, 1_664]),
    (25, [275_986_675_209_470, 8_532_332, 1_632]),
    (26, [2_789_712_437_580_722, 28_929_567, 0]),
    (27, [29_363_495_854_214_938, 80_100_756, 0]),
];

/// Returns the known class breakdown of the n×n board (n = 1..=27), orbit 1 included (only
/// n = 1 has one).
pub fn known_classes(n: u32) -> Option<crate::Classes> {
    let &(_, [orbit8, orbit4, orbit2]) = CLASSES.iter().find(|(m, _)| *m == n)?;
    Some(crate::Classes { orbit8, orbit4, orbit2, orbit1: (n == 1) as u128 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bfile(name: &str) -> Vec<(u32, u128)> {
        // The b-files live in the workspace's tests/data/, beside the CLI's tests that read them too.
        let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .lines()
            .filter_map(|l| l.split('#').next())
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let mut it = l.split_whitespace();
                (it.next().unwrap().parse().unwrap(), it.next().unwrap().parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn tables_equal_the_b_files() {
        for (table, file) in [(A000170, "b000170.txt"), (A002562, "b002562.txt")] {
            let rows = bfile(file);
            assert_eq!(rows.len(), table.values.len());
            for (n, v) in rows {
                assert_eq!(table.get(n), Some(v), "{} at n = {n}", table.name);
            }
        }
    }

    #[test]
    fn classes_add_up_to_both_sequences() {
        for &(n, [c8, c4, c2]) in &CLASSES[1..] {
            assert_eq!(A000170.get(n), Some(8 * c8 + 4 * c4 + 2 * c2), "n = {n}");
            assert_eq!(A002562.get(n), Some(c8 + c4 + c2), "n = {n}");
        }
    }

    #[test]
    fn known_classes_of_small_boards() {
        let c = known_classes(1).unwrap();
        assert_eq!((c.orbit8, c.orbit4, c.orbit2, c.orbit1), (0, 0, 0, 1));
        let c = known_classes(8).unwrap();
        assert_eq!((c.orbit8, c.orbit4, c.orbit2, c.orbit1), (11, 1, 0, 0));
        assert_eq!(known_classes(0), None);
        assert_eq!(known_classes(28), None);
        for n in 1..=27 {
            let c = known_classes(n).unwrap();
            assert_eq!((Some(c.solutions()), Some(c.total())), (A000170.get(n), A002562.get(n)), "n = {n}");
        }
    }

    #[test]
    fn verify_says_unknown_outside_the_table() {
        assert_eq!(A000170.verify(8, 92), Some(true));
        assert_eq!(A000170.verify(8, 91), Some(false));
        assert_eq!(A000170.verify(28, 1), None);
        assert_eq!(A002562.verify(0, 1), None);
        assert_eq!(A000170.max_n(), 27);
    }
}
