//! The criterion benches of the nqueens workspace are in `benches/` (`cargo bench -p
//! nqueens-bench`); cargo needs a library or a binary in every package, and this one is empty.
