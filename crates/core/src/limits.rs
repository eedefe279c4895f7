//! The limits every layer checks against, in a leaf module that imports nothing of the crate:
//! the largest board, the deepest split, the most subproblems of a plan, and the machine's
//! logical CPUs (the default thread count). [`crate::error::Error`] names them in its messages;
//! [`crate::kernel`] and [`crate::split`] re-export them.

/// The largest board side the masks can hold, n ≤ 63: one bit per column of a `u64`, and bit
/// 63 is the last one a left shift can still carry out of the board. The library's largest
/// board, which mirror and d4 count to; three narrower limits have names of their own: the
/// join's largest board (`algo::join::JOIN_MAX_N`, 29), where d4's batched search gives way to
/// its recursive one (`BATCHED_MAX_N`, 22), and the GPU kernel's largest board
/// (`nqueens_gpu::MAX_N`, 30: 32-bit masks).
pub const MAX_N: u32 = 63;

/// The most rows a prefix can fix. 16 rows at n = 16 is a whole board; deep prefixes of large
/// boards are many (mirror at n = 30: about 0.2 million at depth 4, past the 2^22 a plan may hold
/// at depth 5), so a depth this large suits small boards only.
pub const MAX_SPLIT_DEPTH: u32 = 16;

/// The most subproblems a plan holds (about 200 MB of prefixes): expansion stops there, and a
/// plan that reaches it is refused. The automatic depth aims far lower (at most 32 × 4,096).
pub const MAX_SUBPROBLEMS: usize = 1 << 22;

/// Returns the number of logical CPUs of this machine (as `num_cpus::get` counts them: the CPUs
/// this process may run on, within a cgroup's CPU quota), at least 1: the default thread count
/// of a [`crate::CountOptions`], a [`crate::enumerate::SolveOptions`] and a
/// [`crate::plan::PlanSpec`]. The workspace's one call to `num_cpus`.
pub fn available_threads() -> usize {
    num_cpus::get().max(1)
}
