//! The detection of the x86-64 levels: which features this processor has, and whether its
//! `pext` is fast.

use std::arch::is_x86_feature_detected as has;

/// Returns true if and only if this processor has every feature of [`crate::arch::Isa::Avx2`].
pub(crate) fn has_avx2() -> bool {
    has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt")
}

/// Returns true if and only if this processor has every feature of [`crate::arch::Isa::Avx512`].
pub(crate) fn has_avx512() -> bool {
    has_avx2() && has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx512vpopcntdq")
}

/// Returns true if and only if this processor has BMI2 and its `pext` is not microcoded: AMD
/// (and Hygon) processors before Zen 3 (family 0x19) run it in about 18 cycles per set bit of
/// the mask (A. Fog, "Instruction tables", Zen 1 and 2: PEXT latency 18–300).
pub(crate) fn pext_is_fast() -> bool {
    use std::sync::OnceLock;
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        if !has!("bmi2") {
            return false;
        }
        // CPUID is available on every x86-64 processor.
        let (vendor, signature) = (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1));
        let id: Vec<u8> = [vendor.ebx, vendor.edx, vendor.ecx].iter().flat_map(|r| r.to_le_bytes()).collect();
        let (base, extended) = ((signature.eax >> 8) & 0xf, (signature.eax >> 20) & 0xff);
        let family = if base == 0xf { base + extended } else { base };
        let amd = id == b"AuthenticAMD" || id == b"HygonGenuine";
        !(amd && family < 0x19)
    })
}
