//! The SIMD layer: which instruction sets this processor executes, and the one place where a
//! kernel is compiled for each of them.
//!
//! Every searched kernel (the join's block loop, table fill, sieve indices, squeezes and
//! half-board pairing, the batched d4 search, and the recursive searches of `kernel.rs` and
//! `d4/search.rs`) is written once, generic over `Simd`, and compiled once per [`Isa`] by
//! `multiversion!`: each copy runs with that instruction set enabled, and a recursive kernel
//! recurses through its entry point, so that each copy calls itself. No `#[target_feature]`
//! stands outside this module. Which copy runs is chosen by a [`Level`], and a `Level` names
//! only an instruction set this processor executes: safe code gets one from [`Level::best`],
//! [`Level::new`] (which checks) or [`Level::portable`]; only the crate's own `unsafe` code
//! (a kernel's copy asking for the level it already runs at) makes one unchecked. So no safe
//! function runs an instruction the processor lacks. Detection
//! also decides, once, whether the level's `pext` is fast ([`Level::fast_pext`]), so no kernel
//! probes the processor.
//!
//! ```compile_fail
//! // The level's fields are private: safe code cannot make an AVX-512 level by hand.
//! let level = nqueens::arch::Level { isa: nqueens::arch::Isa::Avx512 };
//! ```
//!
//! One file per instruction set, in the manner of memchr's `arch/`: `portable.rs` (any
//! processor), `x86_64/avx2.rs` and `x86_64/avx512.rs`, `aarch64/neon.rs`. Each implements the
//! three small traits the kernels are written against: `Lanes` (`u64` lanes with compress),
//! `Row` (a 512-bit row of the join's tables) and `Tally` (population counts of rows, summed),
//! and `Simd`, which names them and holds the level's scalar instructions (`pext`, the 64×64
//! transpose, `prefetch`).

use std::fmt;
use std::str::FromStr;

use crate::Error;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

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
            Isa::Avx2 => x86_64::has_avx2(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => x86_64::has_avx512(),
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

/// One instruction-set level's implementation of the traits the kernels are written against.
///
/// # Safety
/// An implementation's methods (and those of its associated types) may execute the instructions
/// of [`Simd::ISA`]: they must be called only from code compiled with that level's features,
/// which is what `multiversion!` compiles, for a [`Level`] of that `Isa`.
pub(crate) unsafe trait Simd: Copy + 'static {
    /// The level this implements.
    const ISA: Isa;
    /// Whether `pext` is an instruction here (BMI2): see [`Simd::pext`].
    const PEXT: bool;
    /// `u64` lanes: the batched d4 search's boards and the join's list transforms.
    type Lanes: Lanes;
    /// A 512-bit row of the join's chunk tables, in registers.
    type Row: Row;
    /// Population counts of rows, summed per 64-bit word.
    type Tally: Tally<Self::Row>;

    /// Returns the bits of `x` selected by `mask` packed into the low bits (BMI2 `pext`); only
    /// called where [`Simd::PEXT`] is true.
    ///
    /// # Safety
    /// As the trait.
    #[inline(always)]
    unsafe fn pext(x: u64, mask: u64) -> u64 {
        portable::pext(x, mask)
    }

    /// Transposes a 64×64 bit matrix in place: afterwards bit i of `a[j]` is what bit j of `a[i]`
    /// was ([`portable::transpose64`] unless the level has a faster copy).
    ///
    /// # Safety
    /// As the trait.
    #[inline(always)]
    unsafe fn transpose64(a: &mut [u64; 64]) {
        portable::transpose64(a)
    }

    /// Hints the processor to bring the cache line at `line` into every cache level (x86-64:
    /// SSE's `prefetcht0`, part of the baseline, so every x86-64 level has it; elsewhere
    /// nothing). A hint only: it never faults, whatever the address, and changes no memory.
    ///
    /// # Safety
    /// As the trait.
    #[inline(always)]
    unsafe fn prefetch(line: *const u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of every x86-64 target; a prefetch neither faults nor writes.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.cast())
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = line;
    }

    /// Returns the level (for kernels that recurse through their `multiversion!` entry point).
    ///
    /// # Safety
    /// As the trait: only code running at this level may ask.
    #[inline(always)]
    unsafe fn level() -> Level {
        // SAFETY: the caller runs with this level's features, so the processor has them.
        unsafe { Level::new_unchecked(Self::ISA) }
    }
}

/// `u64` lanes in one or more vector registers. Lane masks are the low [`Lanes::WIDTH`] bits of
/// a `u32`.
///
/// # Safety
/// Every method may execute the instructions of its level: call them only from code compiled
/// for that level (`Simd`).
pub(crate) unsafe trait Lanes: Copy {
    /// Lanes per vector.
    const WIDTH: usize;
    /// Loads `v[i..]`, at most `WIDTH` values, zero in the lanes past the end.
    ///
    /// # Safety
    /// Besides the trait's: `i <= v.len()`. The copies read `v[i..i + min(WIDTH, v.len() - i)]`
    /// and nothing else, so a larger `i` would read before or past the slice.
    unsafe fn load(v: &[u64], i: usize) -> Self;
    /// Every lane `x`.
    unsafe fn splat(x: u64) -> Self;
    /// Lane-wise `&`.
    unsafe fn and(self, o: Self) -> Self;
    /// Lane-wise `|`.
    unsafe fn or(self, o: Self) -> Self;
    /// Lane-wise `^`.
    unsafe fn xor(self, o: Self) -> Self;
    /// Lane-wise `!self & o`.
    unsafe fn andnot(self, o: Self) -> Self;
    /// Lane-wise wrapping subtraction.
    unsafe fn sub(self, o: Self) -> Self;
    /// Lane-wise wrapping addition.
    unsafe fn add(self, o: Self) -> Self;
    /// Each lane shifted left by the matching lane of `s` (0..64).
    unsafe fn shlv(self, s: Self) -> Self;
    /// Each lane shifted right by the matching lane of `s` (0..64).
    unsafe fn shrv(self, s: Self) -> Self;
    /// Each lane shifted left by `k` (0..64).
    unsafe fn shl(self, k: u32) -> Self;
    /// Each lane shifted right by `k` (0..64).
    unsafe fn shr(self, k: u32) -> Self;
    /// The lanes that are not zero.
    unsafe fn nonzero(self) -> u32;
    /// The lanes equal to those of `o`.
    unsafe fn eq(self, o: Self) -> u32;
    /// Writes the lanes `keep` of `x` to `dst`, in lane order, and returns how many: it stores
    /// `WIDTH` values at `dst`, the kept ones first.
    ///
    /// # Safety
    /// Besides the trait's: `dst` must be valid for writes of `WIDTH` values.
    unsafe fn compress_store(dst: *mut u64, keep: u32, x: Self) -> usize;

    /// Appends the lanes `keep` of `x` to `v`, in lane order.
    ///
    /// # Safety
    /// As the trait.
    #[inline(always)]
    unsafe fn append(v: &mut Vec<u64>, keep: u32, x: Self) {
        v.reserve(Self::WIDTH);
        let len = v.len();
        // SAFETY: `reserve` leaves room for WIDTH values after `len`; `set_len` exposes only
        // the ones written first.
        unsafe {
            let kept = Self::compress_store(v.as_mut_ptr().add(len), keep, x);
            v.set_len(len + kept);
        }
    }

    /// The mask of the first `n` lanes (all of them when `n` ≥ WIDTH).
    #[inline(always)]
    fn first(n: usize) -> u32 {
        if n >= Self::WIDTH { (1u32 << Self::WIDTH) - 1 } else { (1u32 << n) - 1 }
    }
}

/// A 512-bit row of the join's tables ([`Bits512`]) held in registers.
///
/// # Safety
/// As `Lanes`.
pub(crate) unsafe trait Row: Copy {
    /// Loads a row.
    unsafe fn load(row: &Bits512) -> Self;
    /// Bitwise `&`.
    unsafe fn and(self, o: Self) -> Self;
}

/// Population counts of `Row`s, summed per 64-bit word of the row: what the join's block
/// loop adds up over a run of queries.
///
/// # Safety
/// As `Lanes`.
pub(crate) unsafe trait Tally<R: Row>: Copy {
    /// The rows one tally may add before [`Tally::sum`] (so that narrow counters cannot
    /// overflow); `usize::MAX` if there is no limit.
    const BATCH: usize;
    /// An empty tally.
    unsafe fn new() -> Self;
    /// Adds the ones of `r`, word by word.
    unsafe fn add(&mut self, r: R);
    /// Returns the ones added in the words `words` (bit w: word w of the row).
    unsafe fn sum(self, words: u8) -> u64;
}

/// 512 bits as eight `u64` words, aligned to a cache line (an unaligned row would split each
/// load of the join's block loop across two lines: measured 1.9× slower per load).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Bits512(pub(crate) [u64; 8]);

/// Defines a function that takes a [`Level`] first and runs a generic kernel compiled for it.
///
/// `multiversion! { vis fn name[GENERICS](args) -> R => kernel[ARGS]; }` defines
/// `vis fn name<GENERICS>(level: Level, args) -> R`, which calls `kernel::<S, ARGS>(args)` with
/// `S` the `Simd` type of `level` inside a function compiled with that level's target
/// features. `kernel` is an `unsafe fn` whose safety condition is exactly "runs with `S`'s
/// features" (mark it `#[inline(always)]` so that it is compiled there). The feature lists below
/// (the `@avx512` and `@avx2` arms) are the only ones in the crate.
///
/// A recursive kernel names a trait as well: `… => kernel[ARGS] through vis trait Copies;`
/// also defines `vis trait Copies: Simd` with `unsafe fn call<GENERICS>(args) -> R`,
/// implemented for every level's `Simd` type by the copy compiled with its features, and the
/// entry calls those. The kernel (bound `S: Copies`) recurses with
/// `<S as Copies>::call::<ARGS>(…)`: a direct call of its own copy. (Recursing through the entry
/// instead costs a call and a `match` a step, which the compiler does not inline into a copy
/// of other features: 8% of the recursive search.)
macro_rules! multiversion {
    (@avx512 $($item:tt)*) => {
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt")]
        $($item)*
    };
    (@avx2 $($item:tt)*) => {
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        $($item)*
    };
    ($(#[$meta:meta])* $vis:vis fn $name:ident $([$($gp:tt)*])? ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?
        => $($kernel:ident)::+ $([$($ga:tt)*])? through $tvis:vis trait $copies:ident;) => {
        $(#[$meta])*
        #[allow(clippy::too_many_arguments)]
        $vis fn $name $(<$($gp)*>)? (level: $crate::arch::Level, $($arg: $ty),*) $(-> $ret)? {
            match level.isa() {
                // SAFETY: a `Level` of this `Isa` exists only where the processor has every
                // feature its copy is compiled with (see `Level`).
                #[cfg(target_arch = "x86_64")]
                $crate::arch::Isa::Avx512 => unsafe { <$crate::arch::x86_64::Avx512 as $copies>::call $(::<$($ga)*>)? ($($arg),*) },
                // SAFETY: as above.
                #[cfg(target_arch = "x86_64")]
                $crate::arch::Isa::Avx2 => unsafe { <$crate::arch::x86_64::Avx2 as $copies>::call $(::<$($ga)*>)? ($($arg),*) },
                // SAFETY: NEON is part of the aarch64 targets' baseline, compiled in everywhere.
                #[cfg(target_arch = "aarch64")]
                $crate::arch::Isa::Neon => unsafe { <$crate::arch::aarch64::Neon as $copies>::call $(::<$($ga)*>)? ($($arg),*) },
                // SAFETY: the portable level executes nothing beyond the target's baseline.
                _ => unsafe { <$crate::arch::portable::Portable as $copies>::call $(::<$($ga)*>)? ($($arg),*) },
            }
        }

        /// The copies of a recursive kernel, one per level (see `multiversion!`).
        ///
        /// # Safety
        /// `call` runs the level's instructions: only at that level.
        $tvis unsafe trait $copies: $crate::arch::Simd {
            /// Runs the kernel's copy compiled with this level's features.
            ///
            /// # Safety
            /// As the trait.
            #[allow(clippy::too_many_arguments)]
            unsafe fn call $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)?;
        }

        #[cfg(target_arch = "x86_64")]
        // SAFETY: `call` is compiled with the AVX-512 level's features.
        unsafe impl $copies for $crate::arch::x86_64::Avx512 {
            $crate::arch::multiversion! { @avx512
                #[allow(clippy::too_many_arguments)]
                unsafe fn call $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: this function runs with the AVX-512 level's features.
                    unsafe { $($kernel)::+::<Self $(, $($ga)*)?>($($arg),*) }
                }
            }
        }

        #[cfg(target_arch = "x86_64")]
        // SAFETY: `call` is compiled with the AVX2 level's features.
        unsafe impl $copies for $crate::arch::x86_64::Avx2 {
            $crate::arch::multiversion! { @avx2
                #[allow(clippy::too_many_arguments)]
                unsafe fn call $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: this function runs with the AVX2 level's features.
                    unsafe { $($kernel)::+::<Self $(, $($ga)*)?>($($arg),*) }
                }
            }
        }

        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON is part of the target's baseline.
        unsafe impl $copies for $crate::arch::aarch64::Neon {
            #[allow(clippy::too_many_arguments)]
            unsafe fn call $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)? {
                // SAFETY: NEON is compiled in everywhere on aarch64.
                unsafe { $($kernel)::+::<Self $(, $($ga)*)?>($($arg),*) }
            }
        }

        // SAFETY: the portable level executes nothing beyond the target's baseline.
        unsafe impl $copies for $crate::arch::portable::Portable {
            #[allow(clippy::too_many_arguments)]
            unsafe fn call $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)? {
                // SAFETY: the baseline is always there.
                unsafe { $($kernel)::+::<Self $(, $($ga)*)?>($($arg),*) }
            }
        }
    };
    ($(#[$meta:meta])* $vis:vis fn $name:ident $([$($gp:tt)*])? ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?
        => $($kernel:ident)::+ $([$($ga:tt)*])?;) => {
        $(#[$meta])*
        #[allow(clippy::too_many_arguments)]
        $vis fn $name $(<$($gp)*>)? (level: $crate::arch::Level, $($arg: $ty),*) $(-> $ret)? {
            match level.isa() {
                #[cfg(target_arch = "x86_64")]
                $crate::arch::Isa::Avx512 => {
                    $crate::arch::multiversion! { @avx512
                        #[allow(clippy::too_many_arguments)]
                        unsafe fn run $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)? {
                            // SAFETY: this function runs with the AVX-512 level's features.
                            unsafe { $($kernel)::+::<$crate::arch::x86_64::Avx512 $(, $($ga)*)?>($($arg),*) }
                        }
                    }
                    // SAFETY: a `Level` of this `Isa` exists only where the processor has every
                    // one of these features (see `Level`).
                    unsafe { run $(::<$($ga)*>)? ($($arg),*) }
                }
                #[cfg(target_arch = "x86_64")]
                $crate::arch::Isa::Avx2 => {
                    $crate::arch::multiversion! { @avx2
                        #[allow(clippy::too_many_arguments)]
                        unsafe fn run $(<$($gp)*>)? ($($arg: $ty),*) $(-> $ret)? {
                            // SAFETY: this function runs with the AVX2 level's features.
                            unsafe { $($kernel)::+::<$crate::arch::x86_64::Avx2 $(, $($ga)*)?>($($arg),*) }
                        }
                    }
                    // SAFETY: as above.
                    unsafe { run $(::<$($ga)*>)? ($($arg),*) }
                }
                #[cfg(target_arch = "aarch64")]
                // SAFETY: NEON is part of the aarch64 targets' baseline, compiled in everywhere.
                $crate::arch::Isa::Neon => unsafe { $($kernel)::+::<$crate::arch::aarch64::Neon $(, $($ga)*)?>($($arg),*) },
                // SAFETY: the portable level executes nothing beyond the target's baseline.
                _ => unsafe { $($kernel)::+::<$crate::arch::portable::Portable $(, $($ga)*)?>($($arg),*) },
            }
        }
    };
}
pub(crate) use multiversion;

/// Returns true if and only if the level `isa` has BMI2's `pext` instruction (the x86-64 levels
/// above portable: [`Simd::PEXT`] of their implementations).
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
        x86_64::pext_is_fast()
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
