// Issue 40's library findings after the fixes.
use nqueens::plan::{Border, Constellation, Job, Plan};
fn main() {
    println!("Border::new(2, 5, 3, 70, 8): {:?}", Border::new(2, 5, 3, 70, 8).map_err(|e| e.to_string()));
    let b = Border::new(2, 5, 3, 6, 8).unwrap();
    println!("Constellation::new(that border, 5): {:?}", Constellation::new(b, 5).map_err(|e| e.to_string()));
    let counter = nqueens::Counter::new(&nqueens::CountOptions { threads: 2, ..Default::default() }).unwrap();
    let plan = nqueens::algo::MirrorPlan::new(10, 3).unwrap();
    let mut all: Vec<usize> = (0..plan.len()).collect();
    all.extend(0..plan.len());
    let out = counter.run(&plan, Job { only: Some(&all), ..Job::default() });
    println!("Job.only with every index twice, n = 10: {} solutions, failure {:?}", out.tally.solutions, out.failure.map(|e| e.to_string()));
    println!("any_solution(u64::MAX): {:?}", nqueens::construct::any_solution(u64::MAX).map(|v| v.map(|v| v.len())).map_err(|e| e.to_string()));
    println!("any_solution(4294967295) here: {:?}", nqueens::construct::any_solution(4294967295).map(|v| v.map(|v| v.len())).map_err(|e| e.to_string()));
}
