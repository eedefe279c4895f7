use super::*;

/// The table as a plain walk over every placement builds it: rows top to bottom, each row
/// empty or holding a queen in some column (lowest first), keeping the keys
/// [`canonical`] maps to themselves; returns the offsets and the entries.
fn reference(h: u32, symmetry: Symmetry) -> (Vec<u32>, Vec<u64>) {
    fn walk(h: u32, row: u32, rows: u32, cols: u32, u: u64, v: u64, emit: &mut impl FnMut(u32, u32, u64)) {
        if row == h {
            emit(rows, cols, u | (v << 32));
            return;
        }
        walk(h, row + 1, rows, cols, u, v, emit);
        for c in 0..h {
            let (du, dv) = (1u64 << (row + c), 1u64 << (c + h - 1 - row));
            if cols & (1 << c) == 0 && u & du == 0 && v & dv == 0 {
                walk(h, row + 1, rows | (1 << row), cols | (1 << c), u | du, v | dv, emit);
            }
        }
    }
    let mut lists = vec![Vec::new(); 1 << (2 * h)];
    walk(h, 0, 0, 0, 0, 0, &mut |rows, cols, entry| {
        if canonical(symmetry, rows, cols, h) == (rows, cols, Mirror::IDENTITY) {
            lists[(cols | rows << h) as usize].push(entry);
        }
    });
    let mut offsets = vec![0];
    offsets.extend(lists.iter().scan(0, |end, list| {
        *end += list.len() as u32;
        Some(*end)
    }));
    (offsets, lists.concat())
}

/// Returns the entries the table of side `h` stores under `symmetry`, by the build's walk
/// without storing them.
fn count_entries(h: u32, symmetry: Symmetry) -> u64 {
    let mut total = 0u64;
    for rows in (0..1u32 << h).filter(|&r| symmetry == Symmetry::None || r <= rev_h(r, h)) {
        let mut order = [0u32; MAX_H as usize];
        let order = row_list(rows, &mut order);
        let mut emit = |_, _| total += 1;
        if symmetry == Symmetry::D4 {
            if let Some(t) = Children::new(h, rows) {
                place(h, order, 0, 0, 0, &|cols| t.of(cols), &mut emit);
            }
        } else {
            place(h, order, 0, 0, 0, &|_| u32::MAX, &mut emit);
        }
    }
    total
}

/// A row-set table hands out the same lists as the whole table (uncompacted, and mapped
/// back from every compaction), for every row set and column set, whatever was loaded
/// before; loading keeps what is held and walks only what is missing.
#[test]
fn row_set_tables_give_the_whole_tables_lists() {
    for h in 0..=8 {
        let whole = QuarterTable::build_with(h, Symmetry::None);
        let d4 = QuarterTable::build_with(h, Symmetry::D4);
        let mut rows_only = QuarterTable::rows_only(h);
        assert!(rows_only.is_row_sets() && !whole.is_row_sets());
        let side = 1u32 << h;
        let mut buf = Vec::new();
        for rows in 0..side {
            // Load with a neighbour, then the row set again: the second load walks nothing.
            let other = (rows * 7 + 3) % side;
            let walked = rows_only.load_rows(&[other, rows]);
            assert_eq!(rows_only.load_rows(&[rows, other]), 0, "h = {h} rows = {rows:#b}");
            let placements: usize = (0..side).map(|c| whole.cells(rows, c).0.len()).sum();
            assert!(walked as usize <= placements + rows_only.len(), "h = {h}");
            for cols in (0..side).filter(|c| c.count_ones() == rows.count_ones()) {
                let want = whole.cells(rows, cols).0;
                assert_eq!(rows_only.cells(rows, cols).0, want, "h = {h} {rows:#b} {cols:#b}");
                let mut got = d4.cells_into(rows, cols, &mut buf).to_vec();
                let mut want = want.to_vec();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "h = {h} {rows:#b} {cols:#b} D4");
            }
            assert_eq!(rows_only.region(rows).len(), placements, "h = {h} {rows:#b}");
        }
    }
}

/// At h = 14 (n = 28–29) one row set's lists take a few million placements: the largest
/// row sets of 7 rows are walked here (`cargo test --release -- --ignored row_sets_of_side_14`).
#[test]
#[ignore]
fn row_sets_of_side_14() {
    let mut t = QuarterTable::rows_only(14);
    for rows in [0b1010101010101u32, 0b11111110000000, 0b10000001111110] {
        t.load_rows(&[rows]);
        eprintln!("h = 14 rows {rows:#016b}: {} placements, {} B", t.len(), t.bytes());
        assert!(t.bytes() < 1 << 30);
    }
}

/// The sizes documented for the large sides (h = 10 to 13), counted afresh: about 5 CPU
/// minutes (`cargo test --release -- --ignored documented_sizes_of_the_large_tables`).
#[test]
#[ignore]
fn documented_sizes_of_the_large_tables() {
    for h in 10..=MAX_TABLE_H {
        for symmetry in [Symmetry::None, Symmetry::Rows, Symmetry::D4] {
            assert_eq!(count_entries(h, symmetry), estimated_entries(h, symmetry), "h = {h} {symmetry:?}");
        }
    }
}

/// The build (one row set at a time) stores exactly what the plain walk stores, in the
/// same order.
#[test]
fn the_build_equals_a_plain_walk_under_every_compaction() {
    for h in 0..=9 {
        for symmetry in [Symmetry::None, Symmetry::Rows, Symmetry::D4] {
            let (offsets, entries) = reference(h, symmetry);
            let t = QuarterTable::build_with(h, symmetry);
            assert!(t.raw() == (&offsets[..], &entries[..]), "h = {h} {symmetry:?}");
        }
    }
}

#[test]
fn entry_counts_match_the_documented_sizes() {
    for h in 0..=9 {
        for symmetry in [Symmetry::None, Symmetry::Rows, Symmetry::D4] {
            let t = QuarterTable::build_with(h, symmetry);
            assert_eq!(t.len() as u64, estimated_entries(h, symmetry), "h = {h} {symmetry:?}");
            assert_eq!(count_entries(h, symmetry), estimated_entries(h, symmetry), "h = {h} {symmetry:?}");
        }
        assert_eq!(QuarterTable::build(h).bytes() as u64, estimated_bytes(h), "h = {h}");
    }
    // As `examples/quarter_build` measured them (results/2026-12-01-join-table/).
    assert_eq!(estimated_bytes(11), 293_121_788, "n = 22-23: rows compacted");
    assert_eq!(estimated_bytes(12), 726_698_660, "n = 24-25: one key per D4 orbit");
    assert_eq!(estimated_bytes(13), 6_885_133_484, "n = 26-27 within 12 GB");
}

/// Every compaction hands out the same lists as the full table, mirrored as needed.
#[test]
fn compacted_tables_list_what_the_full_table_lists() {
    for h in 1..=7 {
        let full = QuarterTable::build_with(h, Symmetry::None);
        for symmetry in [Symmetry::Rows, Symmetry::D4] {
            let t = QuarterTable::build_with(h, symmetry);
            let mut buf = Vec::new();
            for rows in 0..1u32 << h {
                for cols in 0..1u32 << h {
                    let (want, mirror) = full.cells(rows, cols);
                    assert_eq!(mirror, Mirror::IDENTITY);
                    let mut want = want.to_vec();
                    let mut got = t.cells_into(rows, cols, &mut buf).to_vec();
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "h = {h} {symmetry:?} rows = {rows:b} cols = {cols:b}");
                }
            }
        }
    }
}

#[test]
fn cells_hold_placements_on_their_rows_and_columns() {
    let h = 5;
    let t = QuarterTable::build(h);
    for rows in 0..1u32 << h {
        for cols in 0..1u32 << h {
            let (cells, _) = t.cells(rows, cols);
            if rows.count_ones() != cols.count_ones() {
                assert!(cells.is_empty());
            }
            for &e in cells {
                let (u, v) = (e & 0xffff_ffff, e >> 32);
                assert_eq!(u.count_ones(), rows.count_ones());
                assert_eq!(v.count_ones(), rows.count_ones());
            }
        }
    }
    assert_eq!(t.cells(0b11111, 0b11111).0.len(), 10, "Q(5) full placements");
}

/// Issue 32, finding 6: the lengths-only walk gives every list's length the whole table has,
/// under each compaction, in a row-set table that still loads its own lists.
#[test]
fn lengths_match_the_whole_table() {
    for (h, symmetry) in [(5, Symmetry::None), (6, Symmetry::Rows), (6, Symmetry::D4), (7, Symmetry::D4)] {
        let whole = QuarterTable::build_with(h, symmetry);
        let mut lengths = QuarterTable::try_build_lengths(h, symmetry).unwrap();
        assert!(lengths.is_row_sets() && lengths.has_lengths() && whole.has_lengths());
        assert!(!QuarterTable::rows_only(h).has_lengths());
        assert_eq!(lengths.len(), 0, "no entry stored");
        for rows in 0..1u32 << h {
            for cols in 0..1u32 << h {
                let want = whole.cells(rows, cols).0.len();
                assert_eq!(lengths.list_len(rows, cols), want, "h = {h} {symmetry:?} ({rows:#b}, {cols:#b})");
                assert_eq!(whole.list_len(rows, cols), want);
            }
        }
        // Its lists are still the row sets it loads, uncompacted.
        lengths.load_rows(&[0b101]);
        let mut buf = Vec::new();
        assert_eq!(lengths.cells(0b101, 0b11).0, whole.cells_into(0b101, 0b11, &mut buf));
    }
}
