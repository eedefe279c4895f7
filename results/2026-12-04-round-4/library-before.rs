// Issue 40's library findings at 85b91d6: Border/Constellation unchecked, Job.only repeated,
// any_solution(u64::MAX) (last: it aborts).
use nqueens::plan::{Border, Constellation, Job, Plan};
fn main() {
    let c = Constellation::new(Border { top: 2, bottom: 5, left: 3, right: 70 }, 8);
    println!("Constellation::new(Border {{ top: 2, bottom: 5, left: 3, right: 70 }}, 8): weight {} stabilizer {} cols {:#x} ld {:#x} rd {:#x}", c.weight, c.stabilizer, c.cols, c.ld, c.rd);
    let counter = nqueens::Counter::new(&nqueens::CountOptions { threads: 2, ..Default::default() }).unwrap();
    let plan = nqueens::algo::MirrorPlan::new(10, 3).unwrap();
    let mut all: Vec<usize> = (0..plan.len()).collect();
    all.extend(0..plan.len());
    let out = counter.run(&plan, Job { only: Some(&all), ..Job::default() });
    println!("Job.only with every index twice, n = 10: {} solutions, failure {:?}", out.tally.solutions, out.failure);
    println!("any_solution(u64::MAX):");
    let b = nqueens::construct::any_solution(u64::MAX);
    println!("{:?}", b.map(|v| v.len()));
}
