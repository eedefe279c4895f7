//! The one place that asks the processor which instruction sets it executes. Every SIMD or
//! bit-manipulation copy of a search names the [`Features`] it is compiled for, and runs only
//! where [`Features::available`] says so.
//!
//! `std::arch::is_x86_feature_detected!` caches its answer, so asking costs an atomic load.

/// A set of instruction sets one compiled copy of a search needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Features {
    /// BMI1 and POPCNT (every x86-64 processor since about 2013): the recursive searches
    /// (`blsi`/`blsr`/`andn`), [`crate::kernel`] and [`crate::algo::d4::search`].
    Bmi1,
    /// AVX2 and POPCNT: the batched d4 search, four boards per step.
    Avx2,
    /// AVX2, POPCNT and BMI2 (`pext`): the join matcher's AVX2 copy.
    Avx2Bmi2,
    /// AVX-512F and POPCNT: the batched d4 search, eight boards per step; the join's
    /// half-board pairing.
    Avx512,
    /// AVX-512 F, BW, VL and VPOPCNTDQ with AVX2, POPCNT and BMI2: the join matcher's AVX-512 copy.
    Avx512Vpopcnt,
}

impl Features {
    /// Returns true if and only if this processor executes every instruction set of `self`.
    #[inline]
    pub fn available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            has!("popcnt")
                && match self {
                    Features::Bmi1 => has!("bmi1"),
                    Features::Avx2 => has!("avx2"),
                    Features::Avx2Bmi2 => has!("avx2") && has!("bmi2"),
                    Features::Avx512 => has!("avx512f"),
                    Features::Avx512Vpopcnt => {
                        has!("avx2")
                            && has!("bmi2")
                            && has!("avx512f")
                            && has!("avx512bw")
                            && has!("avx512vl")
                            && has!("avx512vpopcntdq")
                    }
                }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = self;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn larger_sets_imply_smaller_ones() {
        if Features::Avx512Vpopcnt.available() {
            assert!(Features::Avx512.available() && Features::Avx2Bmi2.available());
        }
        if Features::Avx2Bmi2.available() {
            assert!(Features::Avx2.available());
        }
    }
}
