use super::*;

use crate::parallel;
use crate::reference::backtrack_count;

fn run(plan: &JoinPlan, threads: usize) -> u128 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    parallel::run(plan, &pool, parallel::Progress::Never, false).tally.solutions
}

/// Solutions containing the given queens (row, column), by the plain backtracker.
fn with_queens(n: u32, queens: &[(usize, usize)]) -> u128 {
    let mut count = 0;
    crate::reference::backtrack_each(n, |q| count += queens.iter().all(|&(r, c)| q[r] == c) as u128);
    count
}

#[test]
fn each_odd_start_equals_a_backtracker_with_its_queens_placed() {
    for n in [5, 7, 9, 11] {
        let plan = JoinPlan::new(n).unwrap();
        let h = (n / 2) as usize;
        let mut total = 0;
        for start in Start::all(n) {
            let (queens, weight) = match start {
                Start::Centre => (vec![(h, h)], 1),
                Start::Axis { a, b } => (vec![(h, h + a as usize), (h + b as usize, h)], 8),
                Start::Even => unreachable!(),
            };
            let got = plan.count_start(start);
            assert_eq!(got, with_queens(n, &queens), "n = {n} {start:?}");
            total += weight * got;
        }
        assert_eq!(total, backtrack_count(n) as u128, "n = {n}");
    }
}

#[test]
fn every_instruction_set_level_gives_the_same_counts() {
    // Every board the join counts itself up to 16, against the independent backtracker up
    // to 12 and OEIS A000170 above, at every level this processor runs; the fundamental
    // solutions (Burnside, over the level's own counts) against A002562.
    for n in MIN_N..=16 {
        let want = if n <= 12 { backtrack_count(n) as u128 } else { crate::oeis::A000170.get(n).unwrap() };
        for level in Level::available() {
            let mut plan = JoinPlan::new(n).unwrap();
            plan.set_level(level);
            assert_eq!(plan.level(), level);
            assert_eq!(run(&plan, 2), want, "n = {n} {level}");
            let total = Tally { solutions: want, ..Tally::default() };
            let unique = plan.fundamental(&total).map(|c| c.total());
            assert_eq!(unique, crate::oeis::A002562.get(n), "n = {n} {level}");
            if n <= 12 {
                plan.set_sieve_from(0);
                assert_eq!(run(&plan, 2), want, "n = {n} {level} always sieving");
            }
        }
    }
}

/// The compacted quarter tables (rows; rows and columns) give the same counts and the same
/// solutions fixed by the half turn as the full table.
#[test]
fn compacted_quarter_tables_give_the_same_counts() {
    use quarter::Symmetry;
    for n in [8, 9, 12, 13] {
        let want = backtrack_count(n) as u128;
        let full = symmetric::fixed_by_half_turn(&QuarterTable::build_with(n / 2, Symmetry::None), n);
        for symmetry in [Symmetry::Rows, Symmetry::D4] {
            let mut plan = JoinPlan::new(n).unwrap();
            plan.table = QuarterTable::build_with(n / 2, symmetry);
            assert_eq!(run(&plan, 2), want, "n = {n} {symmetry:?}");
            assert_eq!(symmetric::fixed_by_half_turn(&plan.table, n), full, "n = {n} {symmetry:?}");
        }
    }
}

/// Row-set plans (each unit loads its own four row sets, the path of n = 28–29) give the
/// counts of the whole table, OEIS A000170 and, by Burnside over row sets, A002562, on
/// several thread counts; reduced or not.
#[test]
fn row_set_plans_equal_the_whole_table() {
    for n in MIN_N..=15 {
        let want = crate::oeis::A000170.get(n).unwrap();
        let plan = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
        assert_eq!(plan.quarters(), Quarters::RowSets);
        for threads in [1, 2, 3] {
            assert_eq!(run(&plan, threads), want, "n = {n} threads = {threads}");
        }
        let whole = JoinPlan::new(n).unwrap();
        assert_eq!(whole.quarters(), Quarters::Table);
        assert_eq!(
            symmetric::fixed_by_half_turn(plan.table(), n),
            symmetric::fixed_by_half_turn(whole.table(), n),
            "n = {n}"
        );
        let total = Tally { solutions: want, ..Tally::default() };
        assert_eq!(plan.fundamental(&total).map(|c| c.total()), crate::oeis::A002562.get(n), "n = {n}");
        if n <= 11 {
            let plain = JoinPlan::with_options(n, false, Quarters::RowSets).unwrap();
            assert_eq!(run(&plain, 2), want, "n = {n} unreduced");
        }
    }
    // Unit by unit at n = 18: the same subtotals from either source.
    let (rows, table) =
        (JoinPlan::with_options(18, true, Quarters::RowSets).unwrap(), JoinPlan::new(18).unwrap());
    for index in (0..rows.len()).step_by(101) {
        assert_eq!(rows.solve(index, true), table.solve(index, true), "n = 18 unit {index}");
    }
}

/// The n = 28–29 path against the whole table on real units of large boards: 24 units each
/// of n = 22, 23, 24 and 25, spread over each plan, give the same subtotals and half-board
/// counts from row sets as from the table (about a minute and 1.5 GB:
/// `cargo test --release -- --ignored row_sets_equal_the_table_on_large_boards`).
#[test]
#[ignore]
fn row_sets_equal_the_table_on_large_boards() {
    for n in 22..=25 {
        let table = JoinPlan::new(n).unwrap();
        let rows = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
        assert_eq!(rows.len(), table.len());
        let step = table.len() / 24 + 1;
        for index in (step / 2..table.len()).step_by(step) {
            let (a, b) = (rows.solve(index, true), table.solve(index, true));
            assert_eq!(a, b, "n = {n} unit {index}");
            eprintln!("n = {n} unit {index}: {} solutions, {} halves", a.solutions, a.nodes);
        }
    }
}

/// Buckets sliced in pieces and codes matched in batches (the bounds of n = 28–29) give the
/// same counts.
#[test]
fn pieces_and_code_batches_give_the_same_counts() {
    for n in [8, 11, 14, 15] {
        let want = crate::oeis::A000170.get(n).unwrap();
        for (cap, batch) in [(1, None), (7, Some(3)), (100, None), (5000, Some(1000)), (usize::MAX, Some(77))] {
            let mut plan = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
            plan.set_max_stored(Some(cap));
            plan.set_code_batch(batch);
            assert_eq!(run(&plan, 2), want, "n = {n} pieces of {cap}, batches of {batch:?}");
        }
    }
    assert_eq!(max_stored(13), Some(1 << 21));
    assert_eq!(max_stored(14), Some(1 << 21));
}

/// Units solved in steps (the matcher in parts, huge buckets in pieces too) count as in one
/// pass; the shares are positive after the setup and add up to 1; a break ends a unit without
/// counts. Every unit of n = 16–17, and a sample of n = 20, whose larger units match in parts.
#[test]
fn units_in_steps_count_like_one_pass() {
    for (n, cap, step) in [(16, None, 1), (17, Some(1000), 1), (20, None, 997), (20, Some(3000), 997)] {
        let mut plan = JoinPlan::new(n).unwrap();
        plan.set_max_stored(cap);
        plan.set_code_batch(cap);
        let (mut total, mut parted, mut big) = (0u128, 0, (0, 0));
        for index in (0..plan.len()).step_by(step) {
            let (mut shares, mut calls) = (0.0, 0);
            let tally = plan
                .solve_in_steps(index, true, &mut |share| {
                    assert!((0.0..=1.0).contains(&share), "n = {n} unit {index}: share {share}");
                    (shares, calls) = (shares + share, calls + 1);
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(tally, plan.solve(index, true), "n = {n} unit {index}");
            big = big.max((tally.nodes, index));
            assert!(calls == 0 || (shares - 1.0).abs() < 1e-9, "n = {n} unit {index}: {shares}");
            parted += usize::from(calls > 2);
            total += tally.solutions;
        }
        if step == 1 {
            assert_eq!(total, crate::oeis::A000170.get(n).unwrap(), "n = {n}");
        }
        // Units of n < 20 match under 16 blocks: one part each; the larger of n = 20 in parts.
        assert_eq!(parted > 0, n == 20, "n = {n}: {parted} units ran in parts");
        if n < 20 {
            continue;
        }
        // A break at the first part's share: no counts.
        let big = big.1;
        let stopped = plan.solve_in_steps(big, false, &mut |share| {
            if share > 0.0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        assert_eq!(stopped, None, "n = {n} unit {big}");
    }
}

/// The join covers n = 28–29 with row sets: the plan is made without a table, and the whole
/// table is refused there.
#[test]
fn boards_past_27_read_row_sets() {
    assert_eq!(JOIN_MAX_N, 29);
    assert_eq!(Quarters::for_board(27), Quarters::Table);
    assert_eq!(Quarters::for_board(28), Quarters::RowSets);
    assert_eq!(Quarters::for_board(29), Quarters::RowSets);
    // Row sets at a small board are not what makes units long: the board is.
    assert!(!JoinPlan::with_options(12, true, Quarters::RowSets).unwrap().long_subproblems());
    assert!(!JoinPlan::new(12).unwrap().long_subproblems());
    assert!(matches!(check_memory_with(28, 1, Quarters::Table), Err(Error::JoinTooLarge { n: 28, .. })));
    assert!(matches!(check_memory_for(30, 1), Err(Error::JoinTooLarge { n: 30, max: 29, .. })));
}

#[test]
fn thread_counts_agree() {
    for n in [12, 13] {
        let plan = JoinPlan::new(n).unwrap();
        let want = backtrack_count(n) as u128;
        for threads in [1, 2, 3, 8] {
            assert_eq!(run(&plan, threads), want, "n = {n} threads = {threads}");
        }
    }
}

#[test]
fn reduced_and_unreduced_plans_equal_the_backtracker() {
    for n in MIN_N..=11 {
        let want = backtrack_count(n) as u128;
        for reduce in [true, false] {
            let plan = JoinPlan::with_reduction(n, reduce).unwrap();
            assert_eq!(run(&plan, 1), want, "n = {n} reduce = {reduce}");
        }
    }
}

/// Issue 32, finding 6: the sampling plan (row sets loaded per unit, the table's lengths
/// only) has the units, counts and sample weights of the plan with the whole table.
#[test]
fn the_sampling_plan_counts_and_weighs_as_the_whole_table() {
    for n in [12u32, 13, 17] {
        let whole = JoinPlan::new(n).unwrap();
        let sample = JoinPlan::for_sampling(n).unwrap();
        assert_eq!(
            (sample.len(), sample.quarters(), whole.quarters()),
            (whole.len(), Quarters::RowSets, Quarters::Table)
        );
        assert_eq!(sample.search_bytes(2), whole.search_bytes(2), "the memory of a count");
        let step = (whole.len() / 60).max(1);
        for i in (0..whole.len()).step_by(step) {
            assert_eq!(sample.sample_weight(i), whole.sample_weight(i), "n = {n} unit {i}");
            sample.prepare(i);
            assert_eq!(sample.solve(i, true), whole.solve(i, true), "n = {n} unit {i}");
        }
        // Unprepared, a unit loads its own lists.
        assert_eq!(sample.solve(0, false), whole.solve(0, false));
    }
}

/// A row-set plan without lengths (as at n = 28) counts its units' pairs from row-set lengths
/// counted by a walk that stores nothing, per unit: the same pair counts as the whole table's,
/// for units met the first time and again; it weighs them by a power of the product of their estimated
/// east and west half-boards (1 where a unit enumerates none); and each row set's lengths are
/// its lists' lengths in a loaded row-set table.
#[test]
fn row_set_plans_weigh_as_the_whole_table() {
    for n in [12u32, 13, 17] {
        let whole = JoinPlan::new(n).unwrap();
        let rows = JoinPlan::with_options(n, true, Quarters::RowSets).unwrap();
        assert!(!rows.table().has_lengths());
        let step = (whole.len() / 40).max(1);
        for _ in 0..2 {
            for i in (0..whole.len()).step_by(step) {
                assert_eq!(rows.unit_pairs(i), whole.unit_pairs(i), "n = {n} unit {i}");
                let (east, west) = rows.unit_halves(i, cost::HALF_DRAWS, cost::HALF_KEEP);
                assert_eq!(rows.sample_weight(i), 1.0 + (east * west).powf(cost::PRODUCT_POWER), "n = {n} unit {i}");
                if whole.solve(i, true).nodes == 0 {
                    assert_eq!(rows.sample_weight(i), 1.0, "n = {n} unit {i}");
                }
            }
        }
    }
    for h in [5u32, 7] {
        for set in (0..1u32 << h).step_by(3) {
            let mut table = QuarterTable::rows_only(h);
            table.load_rows(&[set]);
            let lengths = QuarterTable::row_lengths(h, set);
            for cols in 0..1u32 << h {
                assert_eq!(lengths[cols as usize] as usize, table.list_len(set, cols), "h = {h} rows {set:#b} cols {cols:#b}");
            }
        }
    }
}

/// A random share of a unit's work (the plan's sample of n = 28): share 1 counts the unit whole;
/// smaller shares count unbiasedly (the mean of count / share over seeds lies within four
/// standard errors of the count); the weight of the time is reported where it changes, between
/// 1 and 1 / share, ending at 1, and each piece counted (a run of windows of tasks drawn one
/// after the other) begins with weight 1 / share: several for a share of many windows, none for
/// a unit with nothing to match; in one batch of codes and in many (each batch's tasks drawn in
/// turn, the codes themselves a random share where batches are small:
/// `a_sample_writes_a_share_of_the_larger_side`).
#[test]
fn random_shares_of_units_are_unbiased() {
    for batch in [None, Some(300)] {
        random_shares_are_unbiased_in_batches(batch);
    }
}

fn random_shares_are_unbiased_in_batches(batch: Option<usize>) {
    let mut plan = JoinPlan::new(18).unwrap();
    assert!(plan.counts_shares());
    // Many blocks in a unit of n = 18: sieved into many buckets, a window a task.
    plan.set_cuts(6);
    plan.set_piece_visits(Some(1));
    plan.set_code_batch(batch);
    // The unit with the most half-boards of a sample, and an empty one.
    let big = (0..plan.len()).step_by(7).max_by_key(|&i| plan.solve(i, true).nodes).unwrap();
    let want = plan.solve(big, false).solutions as f64;
    if let Some(batch) = batch {
        // Codes are the larger side: at least half the halves, so several batches.
        assert!(plan.solve(big, true).nodes as usize > 6 * batch, "unit {big}: {} halves", plan.solve(big, true).nodes);
    }
    // Returns the unit's count in `share` and how many pieces it reported, checking that they
    // open and close in turn.
    let count = |i: usize, share: f64, seed: u64| {
        let (mut last, mut pieces) = (1.0, 0);
        let tally = plan.solve_share(i, share, seed, &mut |w| {
            assert!(w == 0.0 || (1.0..=1.0 / share * (1.0 + 1e-9)).contains(&w), "unit {i}, share {share}: weight {w}");
            pieces += usize::from(w != last && (w * share - 1.0).abs() < 1e-9);
            last = w;
        });
        assert_eq!(last, 1.0, "unit {i}: the time after the count weighs {last}");
        (tally.unwrap().solutions as f64, pieces)
    };
    assert_eq!(count(big, 1.0, 7).0, want);
    let empty = (0..plan.len()).take(2000).find(|&i| plan.solve(i, true).nodes == 0);
    if let Some(i) = empty {
        assert_eq!(count(i, 0.1, 3), (0.0, 0), "unit {i}");
    }
    // At 0.05, one batch of the several of 300 codes is drawn.
    for share in [0.5, 0.2, 0.05] {
        let draws: Vec<(f64, usize)> = (0..100u64).map(|seed| count(big, share, seed)).collect();
        let counts: Vec<f64> = draws.iter().map(|d| d.0 / share).collect();
        let mean = counts.iter().sum::<f64>() / counts.len() as f64;
        let var = counts.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (counts.len() - 1) as f64;
        let se = (var / counts.len() as f64).sqrt();
        assert!(se > 0.0, "share {share}: the draws differ");
        assert!((mean - want).abs() < 4.0 * se, "share {share}: mean {mean} against {want} (se {se})");
        // In one batch every code is written and windows drawn; in batches of 300 the codes
        // are drawn, at about the share, and then every window of them counted.
        let pieces = draws.iter().map(|d| d.1).sum::<usize>() as f64 / draws.len() as f64;
        assert!(pieces > if batch.is_none() { 2.0 } else { 0.5 }, "share {share}: {pieces} pieces a draw");
    }
}

/// A thread's scratch keeps its buffers from unit to unit while the entries they have written
/// hold at most its `keep`, and frees them once they hold more (so that its peak is about its
/// largest unit's need): the enumerator's first, then the matcher's, then the halves'; before
/// the halves' buffer grows, the matcher's buffers are freed only where the growth would pass
/// `keep`.
#[test]
fn scratch_keeps_buffers_within_its_bound() {
    use super::memory::{KEEP_BYTES, keep_bytes};
    use super::unit::Scratch;
    assert_eq!(keep_bytes(10), KEEP_BYTES);
    assert_eq!(keep_bytes(13), 1152 << 20, "three quarters of a thread's 1.5 GiB at n = 26-27");
    assert_eq!(keep_bytes(14), 2688 << 20, "three quarters of a thread's 3.5 GiB at n = 28");
    let mut s = Scratch { keep: 8 << 20, ..Scratch::default() };
    s.halves = Vec::with_capacity(1 << 30);
    // Reserved, never written: no memory is taken, none counted.
    assert_eq!(s.held_bytes(), 0);
    s.halves.resize(1 << 20, 0);
    s.trim();
    assert_eq!((s.halves.len(), s.held_bytes()), (1 << 20, 8 << 20), "8 MiB kept");
    s.halves.resize((1 << 20) + 1, 0);
    s.trim();
    assert_eq!((s.halves.capacity(), s.held_bytes()), (0, 0), "8 MiB + 8 B freed");
    // The matcher's buffers go where a growth would pass the bound with them, not before.
    let mut matcher = super::matcher::Matcher::default();
    let codes: Vec<u64> = (0..4096u64).map(|i| (i * 0x9e37_79b9) & ((1 << 40) - 1)).collect();
    let stored: Vec<u64> = (0..4096u64).map(|i| (i * 0x85eb_ca6b) & ((1 << 40) - 1)).collect();
    matcher.count_coded(crate::arch::Level::portable(), &[(&stored, 1)], &codes, [1; 4]);
    let held = matcher.held_bytes();
    assert!(held > 0);
    Scratch::make_room(&mut matcher, 1000, held + 1000);
    assert_eq!(matcher.held_bytes(), held, "within the bound: kept");
    Scratch::make_room(&mut matcher, 1001, held + 1000);
    assert_eq!(matcher.held_bytes(), 0, "past the bound: freed");
    // The enumerator's buffers count too. Past the bound they go first, then the matcher's,
    // and the halves only where they alone pass it.
    let plan = JoinPlan::with_options(16, true, Quarters::RowSets).unwrap();
    let mut s = Scratch::default();
    let (kind, rows) = plan.unit(plan.len() / 2);
    let sides = plan.sides(kind, rows, &mut s);
    let (halves, half) = (8 * s.halves.len(), s.half.held_bytes());
    assert!(sides.halves > 0 && half > 0 && s.matcher.held_bytes() == 0);
    assert_eq!(s.held_bytes(), halves + half);
    s.keep = halves + half - 1;
    s.trim();
    assert_eq!((s.half.held_bytes(), s.held_bytes()), (0, halves), "the enumerator's freed, the halves kept");
    s.keep = halves - 1;
    s.trim();
    assert_eq!((s.halves.capacity(), s.held_bytes()), (0, 0), "the halves freed past the bound alone");
    // Before matching, the enumerator's lists and the row sets go where they pass the bound
    // with the rest, and stay where they do not.
    let sides = plan.sides(kind, rows, &mut s);
    let rows_bytes = s.quarters.row_set_bytes();
    assert!(sides.halves > 0 && rows_bytes > 0);
    s.keep = s.held_bytes() + rows_bytes;
    s.before_matching();
    assert_eq!((s.half.held_bytes(), s.quarters.row_set_bytes()), (half, rows_bytes), "within the bound: kept");
    s.keep -= 1;
    s.before_matching();
    assert_eq!((s.half.held_bytes(), s.quarters.row_set_bytes()), (0, 0), "past the bound: freed");
}

/// Buffers freed at every step (a bound of 0 bytes), kept within the default or kept whatever
/// they hold give the same counts, on a row-set plan (each unit loads its own quarter lists)
/// and a table plan.
#[test]
fn buffers_kept_or_freed_give_the_same_counts() {
    for n in [9, 12, 14, 16] {
        let want = crate::oeis::A000170.get(n).unwrap();
        for quarters in [Quarters::RowSets, Quarters::Table] {
            for keep in [Some(0), None, Some(usize::MAX)] {
                let mut plan = JoinPlan::with_options(n, true, quarters).unwrap();
                plan.set_keep_bytes(keep);
                assert_eq!(run(&plan, 2), want, "n = {n} {quarters:?} keeping {keep:?} bytes");
            }
        }
    }
}
