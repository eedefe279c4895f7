//! The units an example of the join looks at (included by `#[path]`: examples share no crate).

/// Returns the unit indices named by ONLY=i,j,... (in that order), or else `units` uniform random
/// indices below `len` drawn by xorshift64* from `seed` (repeats possible).
///
/// # Panics
/// If ONLY holds something other than comma-separated indices, or `len` is 0 with no ONLY.
pub fn picks(len: usize, units: usize, mut seed: u64) -> Vec<usize> {
    if let Ok(only) = std::env::var("ONLY") {
        return only.split(',').map(|i| i.trim().parse().expect("ONLY: unit indices")).collect();
    }
    (0..units)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) % len as u64) as usize
        })
        .collect()
}
