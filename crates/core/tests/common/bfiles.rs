//! The OEIS b-files and tables of the repository's `tests/data/`, read for the tests of the
//! library (`crates/core/tests/`) and of the command line (`tests/all/`, `tests/memory/`), which
//! include this one file.

/// Returns the repository's `tests/data/` folder, from the crate being tested: the workspace's
/// root package or `crates/core`.
pub fn data_dir() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if here.join("tests/data").is_dir() { here.join("tests/data") } else { here.join("../../tests/data") }
}

/// Reads an OEIS b-file from `tests/data/` as (n, a(n)) pairs.
pub fn bfile(name: &str) -> Vec<(u32, u128)> {
    bfile_columns(name).into_iter().map(|row| (row[0] as u32, row[1])).collect()
}

/// Reads a whitespace-separated table from `tests/data/` (comments after `#`) as rows of
/// integers.
pub fn bfile_columns(name: &str) -> Vec<Vec<u128>> {
    let path = data_dir().join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter_map(|l| l.split('#').next())
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect()
}
