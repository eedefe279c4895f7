//! Helpers of the library's integration tests.
#![allow(dead_code)]

/// Reads an OEIS b-file from the repository's `tests/data/` as (n, a(n)) pairs.
pub fn bfile(name: &str) -> Vec<(u32, u128)> {
    let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter_map(|l| l.split('#').next())
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace().map(|x| x.parse::<u128>().unwrap());
            (w.next().unwrap() as u32, w.next().unwrap())
        })
        .collect()
}

/// Reads a whitespace-separated table from the repository's `tests/data/` (comments after `#`)
/// as rows of integers.
pub fn bfile_columns(name: &str) -> Vec<Vec<u128>> {
    let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter_map(|l| l.split('#').next())
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect()
}
