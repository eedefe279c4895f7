//! The traits the kernels are written against: [`Simd`], implemented once per level, names the
//! level's [`Lanes`], [`Row`] and [`Tally`] and holds its scalar instructions; [`Bits512`] is a
//! row of the join's tables in memory.

use super::level::{Isa, Level};
use super::scalar;

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
        scalar::pext(x, mask)
    }

    /// Transposes a 64×64 bit matrix in place: afterwards bit i of `a[j]` is what bit j of `a[i]`
    /// was ([`scalar::transpose64`] unless the level has a faster copy).
    ///
    /// # Safety
    /// As the trait.
    #[inline(always)]
    unsafe fn transpose64(a: &mut [u64; 64]) {
        scalar::transpose64(a)
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
