//! aarch64: the NEON level ([`neon`]), which every aarch64 processor runs (Advanced SIMD is part
//! of the architecture's baseline, and of every Rust aarch64 target).

pub mod neon;

pub use neon::Neon;
