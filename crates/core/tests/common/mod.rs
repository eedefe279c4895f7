//! Helpers of the library's integration tests.
#![allow(dead_code, unused_imports)] // each test file uses a part

mod bfiles;
pub use bfiles::{bfile, bfile_columns, data_dir};
