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
//! function runs an instruction the processor lacks. Detection also decides, once, whether the
//! level's `pext` is fast ([`Level::fast_pext`]), so no kernel probes the processor.
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
//!
//! One concern a file: `level.rs` the levels and their detection, `simd.rs` the traits (and
//! `Bits512`, a row in memory), `scalar.rs` the scalar helpers every level shares (`pext` as a
//! loop, `Squeeze`, the portable transpose); this file declares them, re-exports `Isa` and
//! `Level`, and holds `multiversion!`, which calls each level's copy.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
mod level;
pub(crate) mod portable;
pub(crate) mod scalar;
mod simd;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

pub use level::{Isa, Level};
pub(crate) use simd::{Bits512, Lanes, Row, Simd, Tally};

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
/// of other features: 8% of the recursive search.) A kernel that only other kernels' copies call
/// needs no entry: `multiversion! { vis trait Copies[GENERICS](args) -> R => kernel[ARGS]; }`
/// defines the trait and its copies alone. The trait arm is the one place copies are made: an
/// entry without `through` keeps its copies behind a trait private to its body.
macro_rules! multiversion {
    (@avx512 $($item:tt)*) => {
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt")]
        $($item)*
    };
    (@avx2 $($item:tt)*) => {
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        $($item)*
    };
    ($tvis:vis trait $copies:ident $([$($gp:tt)*])? ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?
        => $($kernel:ident)::+ $([$($ga:tt)*])?;) => {
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
    // The entry's body: the copy of `$level` called through the trait `$copies`.
    (@call $level:ident $copies:ident ($($arg:ident),*) $([$($ga:tt)*])?) => {
        match $level.isa() {
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
    };
    ($(#[$meta:meta])* $vis:vis fn $name:ident $([$($gp:tt)*])? ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?
        => $($kernel:ident)::+ $([$($ga:tt)*])? through $tvis:vis trait $copies:ident;) => {
        $(#[$meta])*
        #[allow(clippy::too_many_arguments)]
        $vis fn $name $(<$($gp)*>)? (level: $crate::arch::Level, $($arg: $ty),*) $(-> $ret)? {
            $crate::arch::multiversion!(@call level $copies ($($arg),*) $([$($ga)*])?)
        }

        $crate::arch::multiversion! {
            $tvis trait $copies $([$($gp)*])? ($($arg: $ty),*) $(-> $ret)? => $($kernel)::+ $([$($ga)*])?;
        }
    };
    // A kernel without recursion: the same copies, behind a trait private to its entry (one
    // way of making copies, the trait arm's).
    ($(#[$meta:meta])* $vis:vis fn $name:ident $([$($gp:tt)*])? ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?
        => $($kernel:ident)::+ $([$($ga:tt)*])?;) => {
        $(#[$meta])*
        #[allow(clippy::too_many_arguments)]
        $vis fn $name $(<$($gp)*>)? (level: $crate::arch::Level, $($arg: $ty),*) $(-> $ret)? {
            $crate::arch::multiversion! {
                trait Copies $([$($gp)*])? ($($arg: $ty),*) $(-> $ret)? => $($kernel)::+ $([$($ga)*])?;
            }
            $crate::arch::multiversion!(@call level Copies ($($arg),*) $([$($ga)*])?)
        }
    };
}
pub(crate) use multiversion;
