//! The library inputs of issue 32 (findings 2 and 3) on this branch's API: copy to
//! crates/core/examples/ and `cargo run --release -p nqueens --example break32`. (The copy for
//! 2097d46's API, which calls the same functions without the checks, printed before.txt.)
use nqueens::arch::Level;
use nqueens::kernel::{board_mask, count_completions};
use nqueens::split::{self, Prefix, Subproblem};
use nqueens::symmetry::{self, Symmetry};
use nqueens::{Algorithm, Classes};
fn show<T: std::fmt::Debug>(what: &str, f: impl FnOnce() -> T + std::panic::UnwindSafe) {
    match std::panic::catch_unwind(f) {
        Ok(v) => println!("{what} = {v:?}"),
        Err(e) => println!(
            "{what} panicked: {}",
            e.downcast_ref::<String>().cloned().or(e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
        ),
    }
}
fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    println!("Subproblem::ROOT.count(best, 72): no longer public (crate-private; a compile_fail doctest)");
    show("split::extensions(ROOT, 72, 1)", || split::extensions(&Subproblem::ROOT, 72, 1));
    show("count_completions(board_mask(72)?)", || board_mask(72).map(|f| count_completions::<false>(Level::best(), f, 0, 0, 0, &mut 0)));
    show("board_mask(65), board_mask(200)", || (board_mask(65), board_mask(200)));
    show("Subproblem::ROOT.try_place(64)", || Subproblem::ROOT.try_place(64).map(|s| s.cols));
    show("split::try_expand_counting(ROOT, 64, 1)", || split::try_expand_counting(vec![Subproblem::ROOT], 64, 1, &mut 0, String::new).map(|v| v.len()));
    show("enumerate::ordered_subproblems(64, 1, false)", || nqueens::enumerate::ordered_subproblems(64, 1, false).map(|v| v.len()));
    show("Algorithm::D4.check_memory(99, 0)", || Algorithm::D4.check_memory(99, 0));
    show("Classes::add(8, MAX); add(8, 1)", || { let mut c = Classes::default(); let a = c.add(8, u128::MAX); (a, c.add(8, 1), c) });
    show("Classes{orbit8: MAX}.checked_solutions()", || Classes { orbit8: u128::MAX, ..Classes::default() }.checked_solutions());
    show("Classes{orbit8: MAX}.solutions()", || Classes { orbit8: u128::MAX, ..Classes::default() }.solutions());
    show("Symmetry::Rot90.map_square(0, 0, 0)", || Symmetry::Rot90.map_square(0, 0, 0));
    show("orbit_size(&[5])", || symmetry::orbit_size(&[5]).map_err(|e| e.to_string()));
    show("canonical(&[9, 9])", || symmetry::canonical(&[9, 9]));
    show("is_canonical(&[200, 1, 2])", || symmetry::is_canonical(&[200, 1, 2]));
    show("Symmetry::Rot90.apply(&[7])", || Symmetry::Rot90.apply(&[7]));
    show("apply_into(&[1,3,0,2], &mut [0; 3])", || { let mut o = [0u8; 3]; Symmetry::Rot90.apply_into(&[1, 3, 0, 2], &mut o) });
    show("for_each_completion(board_mask(8)?, depth 61)", || { let mut p = [0u8; 64]; nqueens::kernel::for_each_completion(board_mask(8).unwrap(), 0, 0, 0, &mut p, 61, &mut |_| std::ops::ControlFlow::Continue(())) });
    show("Prefix::with x17", || (0..17).try_fold(Prefix::default(), |p, c| p.with(c % 8)).map(|p| p.len()));
    show("reference::tree_nodes(4, &[9], 0)", || nqueens::reference::tree_nodes(4, &[9], 0));
    show("make_plan(mirror, 10).solve(len)", || { let p = nqueens::plan::make_plan(Algorithm::Mirror, 10, None, 1).unwrap(); p.solve(p.len(), false) });
}
