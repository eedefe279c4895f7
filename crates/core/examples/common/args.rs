//! The arguments the join's sampling examples share (included by `#[path]`: examples share no
//! crate): `N UNITS SEED SHARE...`.

/// Returns (N, UNITS, SEED, the SHAREs) from the command line, at least `min` arguments; exits
/// with `usage` and code 2 on fewer.
///
/// # Panics
/// If an argument does not parse (N, UNITS and SEED integers, each SHARE a number).
pub fn board_units_seed_shares(usage: &str, min: usize) -> (u32, usize, u64, Vec<f64>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < min {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    }
    let n = args[0].parse().expect("N");
    let units = args[1].parse().expect("UNITS");
    let seed = args[2].parse().expect("SEED");
    let shares = args[3..].iter().map(|s| s.parse().expect("SHARE")).collect();
    (n, units, seed, shares)
}
