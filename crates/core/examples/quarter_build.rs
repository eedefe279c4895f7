//! Builds the join's quarter table for one side and prints how long it took, its size and a
//! digest of its contents (offsets and entries, in order), so that two builds can be compared
//! byte for byte: `cargo run --release --example quarter_build -- H [none|rows|d4] [REPS]
//! [lengths]` (default: the compaction the join uses for side H, one build; `lengths`: the walk
//! of `QuarterTable::try_build_lengths` instead, which keeps only the offsets, and their digest).

use std::time::Instant;

use nqueens::algo::join::quarter::{QuarterTable, Symmetry};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let h: u32 =
        args.first().and_then(|a| a.parse().ok()).expect("usage: quarter_build H [none|rows|d4] [REPS]");
    let symmetry = match args.get(1).map(String::as_str) {
        None | Some("-") => Symmetry::for_side(h),
        Some("none") => Symmetry::None,
        Some("rows") => Symmetry::Rows,
        Some("d4") => Symmetry::D4,
        Some(other) => panic!("compaction {other:?}: none, rows or d4"),
    };
    let reps: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    if args.get(3).map(String::as_str) == Some("lengths") {
        for _ in 0..reps {
            let t0 = Instant::now();
            let table = QuarterTable::try_build_lengths(h, symmetry).expect("the offsets fit in memory");
            let seconds = t0.elapsed().as_secs_f64();
            // FNV-1a over every list's length, key by key.
            let mut digest = 0xcbf2_9ce4_8422_2325u64;
            for key in 0..1u32 << (2 * h) {
                let len = table.list_len(key >> h, key & ((1 << h) - 1)) as u64;
                digest = (digest ^ len).wrapping_mul(0x0100_0000_01b3);
            }
            println!("h={h} symmetry={symmetry:?} lengths digest={digest:016x} seconds={seconds:.3}");
        }
        return;
    }
    for _ in 0..reps {
        let t0 = Instant::now();
        let table = QuarterTable::build_with(h, symmetry);
        let seconds = t0.elapsed().as_secs_f64();
        let (offsets, entries) = table.raw();
        // FNV-1a over the offsets then the entries.
        let mut digest = 0xcbf2_9ce4_8422_2325u64;
        for x in offsets.iter().map(|&o| o as u64).chain(entries.iter().copied()) {
            digest = (digest ^ x).wrapping_mul(0x0100_0000_01b3);
        }
        println!(
            "h={h} symmetry={symmetry:?} entries={} bytes={} digest={digest:016x} seconds={seconds:.3}",
            table.len(),
            table.bytes()
        );
    }
}
