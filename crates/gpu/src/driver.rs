//! The launcher-independent half of a GPU device: what it takes from the run's queue, how it
//! splits subproblems into tasks, orders and sizes each launch, and adds the tasks' counts up
//! to their subproblems ([`GpuDevice`], an [`nqueens::Device`]). The two launchers
//! ([`crate::opencl`], [`crate::cuda`]) only move buffers and start the kernel ([`Launcher`]).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use nqueens::algo::d4::D4Plan;
use nqueens::{Classes, Device, Error, Plan, Queue, Tally};

use crate::tasks::{self, MAX_N, Tables, Task};

/// What a launcher does: upload a plan's tables, run the kernel over tasks, hand back counts.
pub(crate) trait Launcher: Send {
    /// Uploads the constellation tables of the plan about to be counted.
    fn upload(&mut self, tables: &Tables) -> Result<(), String>;
    /// Starts the kernel over `tasks` (uploaded first), counting placements if `nodes`;
    /// returns once the launch is queued, before it ends.
    fn start(&mut self, tasks: &[Task], nodes: bool) -> Result<(), String>;
    /// Waits for the launch [`Launcher::start`] queued and writes each task's completions and
    /// placements (0 without `nodes`) into `solutions` and `placements`, in task order.
    fn finish(&mut self, solutions: &mut Vec<u64>, placements: &mut Vec<u64>) -> Result<(), String>;
}

/// The wall-clock time one launch aims at: short enough that a stop, a checkpoint line and
/// the progress bar come at least about once a second, long enough that the launch overhead
/// (tens of microseconds) and the host's work between launches stay small.
pub const LAUNCH_SECONDS: f64 = 0.5;

/// The fewest and the most tasks of one launch (16 bytes each on the way in, 16 on the way
/// back: 2^23 tasks are 256 MiB).
pub const MIN_TASKS: usize = 1 << 12;
/// See [`MIN_TASKS`].
pub const MAX_TASKS: usize = 1 << 23;

/// Returns the free rows each task keeps below its first at board side n: chosen so that a task
/// is thousands to millions of placements (n = 16: 6 rows, n = 22: 12, from n = 26 on: 16);
/// `NQUEENS_GPU_TASK_ROWS` overrides it, for tuning on a new device.
pub fn task_rows(n: u32) -> u32 {
    if let Some(rows) = std::env::var("NQUEENS_GPU_TASK_ROWS").ok().and_then(|s| s.trim().parse().ok()) {
        return rows;
    }
    n.saturating_sub(10).clamp(2, 16)
}

/// A GPU (or pocl's CPU device) as the runner sees it: a name and a launcher behind a lock
/// (the runner drives one device from one thread; the lock only makes the device `Sync`).
pub struct GpuDevice {
    name: String,
    describe: String,
    launcher: Mutex<Box<dyn Launcher>>,
    /// The device's parallel slots (compute units × resident threads), for the smallest launch
    /// worth making.
    lanes: usize,
}

impl std::fmt::Debug for GpuDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuDevice").field("name", &self.name).field("describe", &self.describe).finish()
    }
}

impl GpuDevice {
    /// Returns the device `name` (`opencl:0`), described by `describe`, driven by `launcher`,
    /// with `lanes` threads resident at once.
    pub(crate) fn new(
        name: String,
        describe: String,
        launcher: Box<dyn Launcher>,
        lanes: usize,
    ) -> GpuDevice {
        GpuDevice { name, describe, launcher: Mutex::new(launcher), lanes }
    }

    /// Returns the device's model and size in words, e.g. `NVIDIA H200, 139 GiB, 132 compute
    /// units`.
    pub fn describe(&self) -> &str {
        &self.describe
    }
}

/// A subproblem taken from the queue and not yet reported.
struct Parent {
    index: usize,
    /// Its tasks not yet counted.
    remaining: usize,
    /// Completions found so far (tasks counted and boards completed on the host).
    completions: u64,
    nodes: u64,
    /// The orbit of its constellation: solutions per completion.
    weight: u128,
}

impl Device for GpuDevice {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn refuses(&self, plan: &dyn Plan) -> Option<String> {
        if plan.as_any().downcast_ref::<D4Plan>().is_none() {
            return Some(format!(
                "the GPU path counts d4 plans (start constellations), not {} plans: count with the d4 algorithm",
                plan.algorithm()
            ));
        }
        (plan.n() > MAX_N).then(|| {
            format!("board size {} is too large for the GPU kernel's 32-bit masks: n <= {MAX_N}", plan.n())
        })
    }

    fn solve(&self, plan: &dyn Plan, stats: bool, queue: &mut dyn Queue) -> Result<(), Error> {
        let fail = |reason: String| Error::DeviceFailed { device: self.name.clone(), reason };
        if let Some(why) = self.refuses(plan) {
            return Err(Error::Device { device: self.name.clone(), reason: why });
        }
        let d4 = plan.as_any().downcast_ref::<D4Plan>().expect("checked by refuses");
        let n = d4.n();
        if n < 4 {
            // No board below 4 has a free row left for a kernel: the host counts them.
            while let Some(i) = queue.next() {
                queue.solved(i, &plan.solve(i, stats));
            }
            return Ok(());
        }
        let mut launcher = self.launcher.lock().unwrap_or_else(|e| e.into_inner());
        let tables = Tables::new(n, d4.constellations());
        launcher.upload(&tables).map_err(fail)?;
        Run::new(d4, &tables, stats, self.lanes).drive(&mut **launcher, queue).map_err(fail)
    }
}

/// One run of one device over a plan: its queue of tasks and the subproblems they stand for.
struct Run<'p> {
    plan: &'p D4Plan,
    tables: &'p Tables,
    stats: bool,
    rows: u32,
    /// Tasks split and not yet launched, from `cursor` on.
    pending: Vec<Task>,
    cursor: usize,
    /// Subproblems by slot; free slots in `free`.
    parents: Vec<Option<Parent>>,
    free: Vec<u32>,
    /// Subproblems the host solves itself (those of constellations with a symmetry of their
    /// own, which the kernel does not classify).
    host: Vec<usize>,
    /// The tasks of the next launch.
    target: usize,
    lanes: usize,
    /// True once the queue has nothing more to give.
    drained: bool,
}

impl<'p> Run<'p> {
    fn new(plan: &'p D4Plan, tables: &'p Tables, stats: bool, lanes: usize) -> Run<'p> {
        let target = (lanes * 4).clamp(MIN_TASKS, MAX_TASKS);
        Run {
            plan,
            tables,
            stats,
            rows: task_rows(plan.n()),
            pending: Vec::new(),
            cursor: 0,
            parents: Vec::new(),
            free: Vec::new(),
            host: Vec::new(),
            target,
            lanes,
            drained: false,
        }
    }

    /// Launches until the queue is empty (or says stop) and every task is counted.
    fn drive(&mut self, launcher: &mut dyn Launcher, queue: &mut dyn Queue) -> Result<(), String> {
        let (mut solutions, mut placements) = (Vec::new(), Vec::new());
        loop {
            self.fill(queue);
            let ready = self.pending.len() - self.cursor;
            if ready == 0 {
                self.solve_on_host(queue, None);
                if self.drained || queue.stopping() {
                    return Ok(());
                }
                continue;
            }
            let take = ready.min(self.target);
            let batch = &mut self.pending[self.cursor..self.cursor + take];
            // Most work first, so that the last tasks of a launch are short (the warp tail).
            batch.sort_unstable_by_key(|t| std::cmp::Reverse(t.weight));
            let t0 = Instant::now();
            launcher.start(batch, self.stats)?;
            // While the device counts: the subproblems the host solves, until about the
            // launch's expected end.
            let expected = Duration::from_secs_f64(LAUNCH_SECONDS * take as f64 / self.target.max(1) as f64);
            self.solve_on_host(queue, Some(t0 + expected));
            launcher.finish(&mut solutions, &mut placements)?;
            let seconds = t0.elapsed().as_secs_f64();
            let start = self.cursor;
            self.cursor += take;
            for (j, task) in self.pending[start..start + take].iter().enumerate() {
                let slot = task.parent as usize;
                let p = self.parents[slot].as_mut().expect("a task's parent is live");
                p.completions += solutions[j];
                p.nodes += placements[j];
                p.remaining -= 1;
            }
            self.report(queue);
            if self.cursor == self.pending.len() {
                self.pending.clear();
                self.cursor = 0;
            }
            // The next launch sized to take about LAUNCH_SECONDS at this launch's rate.
            if take == self.target {
                let scale = (LAUNCH_SECONDS / seconds.max(1e-6)).clamp(0.25, 4.0);
                let floor = (self.lanes * 4).clamp(MIN_TASKS, MAX_TASKS);
                self.target = ((self.target as f64 * scale) as usize).clamp(floor, MAX_TASKS);
            }
            if queue.stopping() {
                // Tasks not launched are dropped with their subproblems: solved again on resume.
                return Ok(());
            }
        }
    }

    /// Takes subproblems from the queue until the tasks waiting make a launch.
    fn fill(&mut self, queue: &mut dyn Queue) {
        while !self.drained && self.pending.len() - self.cursor < self.target {
            let Some(index) = queue.next() else {
                self.drained = true;
                break;
            };
            let sub = &self.plan.subproblems()[index];
            let c = &self.plan.constellations()[sub.constellation as usize];
            if c.stabilizer != 0 {
                self.host.push(index);
                continue;
            }
            let slot = self.free.pop().unwrap_or_else(|| {
                self.parents.push(None);
                (self.parents.len() - 1) as u32
            });
            let before = self.pending.len();
            let completions =
                tasks::split(self.tables, sub.constellation, sub, self.rows, slot, &mut self.pending);
            let remaining = self.pending.len() - before;
            let weight = u128::from(c.weight);
            self.parents[slot as usize] = Some(Parent { index, remaining, completions, nodes: 0, weight });
        }
        self.report(queue);
    }

    /// Reports every subproblem whose tasks are all counted, and frees its slot.
    fn report(&mut self, queue: &mut dyn Queue) {
        for slot in 0..self.parents.len() {
            if self.parents[slot].as_ref().is_some_and(|p| p.remaining == 0) {
                let p = self.parents[slot].take().expect("checked");
                let completions = u128::from(p.completions);
                let tally = Tally {
                    solutions: p.weight * completions,
                    // A constellation without a symmetry of its own: every completion is one
                    // class of 8 boards (as the CPU's d4 search counts it).
                    classes: Classes { orbit8: completions, ..Classes::default() },
                    nodes: if self.stats { u128::from(p.nodes) } else { 0 },
                };
                queue.solved(p.index, &tally);
                self.free.push(slot as u32);
            }
        }
    }

    /// Solves the subproblems set aside for the host, until `until` (all of them if `None`).
    fn solve_on_host(&mut self, queue: &mut dyn Queue, until: Option<Instant>) {
        while until.is_none_or(|t| Instant::now() < t) && !queue.stopping() {
            let Some(index) = self.host.pop() else { break };
            let tally = self.plan.solve(index, self.stats);
            queue.solved(index, &tally);
        }
    }
}
