//! The instruction-set levels: an [`Isa`] names one, and a [`Level`] is an `Isa` checked
//! against this processor (detection, which also decides whether its `pext` is fast).

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// An instruction-set level: a family of compiled copies of the kernels.
///
/// The levels of one architecture are ordered (a later one runs wherever the features it needs
/// are present and is faster): on x86-64 `Portable` < `Avx2` < `Avx512`, on aarch64 `Portable` <
/// `Neon`. The names are what `--isa` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Isa {
    /// Plain Rust for the target's baseline (x86-64: SSE2, no POPCNT; aarch64: NEON), vectorised
    /// only as far as the compiler does so by itself.
    Portable,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (Intel Haswell and later, AMD Zen and
    /// later): 256-bit registers.
    Avx2,
    /// x86-64 with AVX-512 F, BW, VL and VPOPCNTDQ besides what [`Isa::Avx2`] needs (Intel Ice
    /// Lake and later server parts, AMD Zen 4 and later): 512-bit registers.
    Avx512,
    /// aarch64 with Advanced SIMD (NEON), which every aarch64 processor has: 128-bit registers.
    Neon,
}

impl Isa {
    /// Every level, in the order `--help` lists them.
    pub const ALL: [Isa; 4] = [Isa::Portable, Isa::Avx2, Isa::Avx512, Isa::Neon];

    /// Returns the level's name (`portable`, `avx2`, `avx512`, `neon`).
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
            Isa::Neon => "neon",
        }
    }

    /// Returns the instruction sets the level needs, as a processor manual names them.
    pub fn needs(self) -> &'static str {
        match self {
            Isa::Portable => "nothing beyond the target's baseline",
            Isa::Avx2 => "x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT",
            Isa::Avx512 => "x86-64 with AVX-512 F, BW, VL and VPOPCNTDQ, AVX2, BMI1, BMI2, LZCNT and POPCNT",
            Isa::Neon => "aarch64 (Advanced SIMD)",
        }
    }

    /// Returns true if and only if this processor executes every instruction the level needs
    /// (checked at run time once, then cached by the standard library).
    pub fn is_available(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => super::x86_64::has_avx2(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => super::x86_64::has_avx512(),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Isa {
    type Err = String;

    /// Parses a level's [`Isa::name`]; the error is the one-line refusal "unknown instruction-set
    /// level '…': use one of portable, avx2, avx512, neon".
    fn from_str(s: &str) -> Result<Isa, String> {
        crate::error::parse_name(s, &Isa::ALL, Isa::name, "instruction-set level")
    }
}

/// A level of compiled kernels that this processor runs: an [`Isa`] checked against the
/// processor. Only detection makes one (or the crate's `unsafe` code that vouches for the
/// processor), so a function that takes a `Level` may run its instructions without asking again.
///
/// Detection also decides, once, whether the level's `pext` is fast ([`Level::fast_pext`]), so
/// that no kernel probes the processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level {
    isa: Isa,
    /// The level has `pext` (BMI2) and it is fast on this processor (see [`pext_is_fast`]).
    fast_pext: bool,
}

impl Level {
    /// Returns the fastest level this processor runs: AVX-512, else AVX2, else portable on
    /// x86-64; NEON on aarch64; portable elsewhere.
    pub fn best() -> Level {
        let isa = [Isa::Avx512, Isa::Avx2, Isa::Neon].into_iter().find(|i| i.is_available());
        Level::detected(isa.unwrap_or(Isa::Portable))
    }

    /// Returns the portable level, which every processor runs.
    pub const fn portable() -> Level {
        Level { isa: Isa::Portable, fast_pext: false }
    }

    /// Returns the level `isa`, which this processor runs, with the processor's `pext` speed:
    /// the one place where detection makes a `Level`.
    fn detected(isa: Isa) -> Level {
        debug_assert!(isa.is_available());
        Level { isa, fast_pext: has_pext(isa) && pext_is_fast() }
    }

    /// Returns the level `isa` if this processor runs it.
    ///
    /// # Errors
    /// [`Error::UnsupportedIsa`] if it lacks an instruction the level needs (or the level is
    /// of another architecture).
    pub fn new(isa: Isa) -> Result<Level, Error> {
        if isa.is_available() {
            Ok(Level::detected(isa))
        } else {
            Err(Error::UnsupportedIsa { isa: isa.name(), needs: isa.needs(), best: Level::best().isa.name() })
        }
    }

    /// Returns the level `isa` without checking the processor. Its `pext`, where it has one,
    /// is taken as fast ([`Level::fast_pext`]): a speed, not a safety, matter.
    ///
    /// # Safety
    /// The processor must execute every instruction `isa` needs ([`Isa::is_available`]):
    /// kernels run at this level execute them unchecked.
    pub(crate) const unsafe fn new_unchecked(isa: Isa) -> Level {
        Level { isa, fast_pext: has_pext(isa) }
    }

    /// Returns the level's instruction set.
    pub const fn isa(self) -> Isa {
        self.isa
    }

    /// Returns true if and only if the level has BMI2's `pext` and it is fast on this processor
    /// (decided once, when the level was detected: AMD processors before Zen 3 microcode it, at
    /// up to about 300 cycles). Where it is false, the kernels that squeeze bits use a portable
    /// compress instead.
    pub const fn fast_pext(self) -> bool {
        self.fast_pext
    }

    /// Returns every level this processor runs, portable first, the best last (for tests and
    /// benches that compare the copies).
    pub fn available() -> Vec<Level> {
        Isa::ALL.into_iter().filter(|i| i.is_available()).map(Level::detected).collect()
    }
}

impl Default for Level {
    /// [`Level::best`].
    fn default() -> Level {
        Level::best()
    }
}

impl FromStr for Level {
    type Err = String;

    /// Parses a level's [`Isa::name`] and checks it against this processor ([`Level::new`]);
    /// the error is one line: an unknown name with the names accepted, or what the level
    /// needs that this processor lacks.
    fn from_str(s: &str) -> Result<Level, String> {
        Level::new(s.parse()?).map_err(|e| e.to_string())
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.isa.name())
    }
}

/// Returns true if and only if the level `isa` has BMI2's `pext` instruction (the x86-64 levels
/// above portable: [`Simd::PEXT`](super::Simd::PEXT) of their implementations).
const fn has_pext(isa: Isa) -> bool {
    matches!(isa, Isa::Avx2 | Isa::Avx512)
}

/// Returns true if and only if `pext` is fast on this processor: BMI2 is present and its `pext`
/// is not microcoded (AMD before Zen 3 takes about 18 cycles per set mask bit, up to about 300
/// per instruction, against 3 elsewhere). Probed once, by the detection of a [`Level`]
/// ([`Level::fast_pext`]); the kernels ask the level, not the processor.
fn pext_is_fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        super::x86_64::pext_is_fast()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_what_the_processor_runs() {
        let all = Level::available();
        assert_eq!(all[0], Level::portable());
        assert_eq!(*all.last().unwrap(), Level::best());
        for isa in Isa::ALL {
            match Level::new(isa) {
                Ok(level) => assert!(isa.is_available() && all.contains(&level) && level.isa() == isa),
                Err(e) => {
                    assert!(!isa.is_available() && !all.iter().any(|l| l.isa() == isa));
                    let text = e.to_string();
                    assert!(text.contains(isa.name()) && text.contains(isa.needs()), "{text}");
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        assert!(Level::new(Isa::Neon).is_err(), "no NEON level on x86-64");
        #[cfg(target_arch = "aarch64")]
        assert_eq!(Level::best().isa(), Isa::Neon);
    }

    #[test]
    fn names_parse_back() {
        for isa in Isa::ALL {
            assert_eq!(isa.name().parse::<Isa>(), Ok(isa));
        }
        let e = "sse9".parse::<Isa>().unwrap_err();
        assert_eq!(e, "unknown instruction-set level 'sse9': use one of portable, avx2, avx512, neon");
    }
}
