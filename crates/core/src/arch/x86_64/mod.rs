//! x86-64: the levels' copies, [`avx2`] and [`avx512`], and their detection (`detect.rs`).

pub mod avx2;
pub mod avx512;
mod detect;

pub use avx2::Avx2;
pub use avx512::Avx512;
pub(super) use detect::{has_avx2, has_avx512, pext_is_fast};
