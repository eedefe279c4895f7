//! The scheduler, the launcher-independent half of a GPU device: what it takes from the run's
//! queue, how it splits subproblems into tasks (those of constellations with a symmetry of
//! their own for the classifying kernel), orders and sizes each launch, and adds the tasks'
//! counts up to their subproblems ([`GpuDevice`], an [`nqueens::plan::Device`]). The two
//! launchers (`crate::opencl`, `crate::cuda`) only move buffers and start the kernel
//! ([`Launcher`]).

use std::sync::Mutex;
use std::time::Instant;

use nqueens::plan::D4Plan;
use nqueens::{
    Classes, Error,
    plan::{Device, Plan, Queue, Tally},
};

use crate::GpuError;
use crate::launcher::{Kernel, Launcher};
use crate::tasks::{self, MAX_N, MAX_ROWS, Tables, Task};

/// The wall-clock time one launch aims at: short enough that a stop, a checkpoint line and
/// the progress bar come at least about once a second, long enough that the launch overhead
/// (tens of microseconds) and the host's work between launches stay small.
pub const LAUNCH_SECONDS: f64 = 0.5;

/// The fewest and the most tasks of one launch (16 bytes each on the way in, 16 on the way
/// back: 2^23 tasks are 256 MiB).
pub const MIN_TASKS: usize = 1 << 12;
/// See [`MIN_TASKS`].
pub const MAX_TASKS: usize = 1 << 23;

/// The host memory one task of a launch takes at most, in bytes: waiting to launch (16), taken
/// for the next launch (16) and launched (16), its place in the launch's order (4), its numbers back (5 × 8), the column
/// being written (4), and a classified task's board waiting and launched (2 × [`MAX_ROWS`]).
pub(crate) const HOST_BYTES_PER_TASK: u64 = 16 + 16 + 16 + 4 + 40 + 4 + 2 * MAX_ROWS as u64;

/// The device memory one task of a launch takes at most, in bytes: the launch's buffers (4 × 4
/// in, a board of [`MAX_ROWS`], 5 × 8 out), made for a power of two of tasks, so twice that.
/// On a CPU device (pocl) it is host memory too.
pub(crate) const DEVICE_BYTES_PER_TASK: u64 = 2 * (16 + MAX_ROWS as u64 + 40);

/// Returns the most tasks one launch may hold: [`MAX_TASKS`], or fewer where the launches'
/// memory ([`HOST_BYTES_PER_TASK`], and [`DEVICE_BYTES_PER_TASK`] where the device's memory is
/// the host's) would take more than half the memory `available` to the process (a power of
/// two, so that the buffers made for it fit too). Small tasks (`NQUEENS_GPU_TASK_ROWS` of 1 to
/// 6) grow the launches to [`MAX_TASKS`], whose unchecked buffers made pocl abort under
/// `prlimit --as` (issue 40).
///
/// # Errors
/// [`GpuError::LaunchMemory`] if not even [`MIN_TASKS`] fit: the memory a launch needs and
/// the memory available.
pub(crate) fn launch_cap(available: Option<u64>, host_buffers: bool) -> Result<usize, GpuError> {
    let per_task = HOST_BYTES_PER_TASK + if host_buffers { DEVICE_BYTES_PER_TASK } else { 0 };
    let Some(available) = available else { return Ok(MAX_TASKS) };
    let fit = (available / 2 / per_task).min(MAX_TASKS as u64) as usize;
    if fit < MIN_TASKS {
        return Err(GpuError::LaunchMemory {
            needed_mib: (2 * MIN_TASKS as u64 * per_task).div_ceil(1 << 20),
            tasks: MIN_TASKS,
            task_bytes: per_task,
            available_mib: available >> 20,
        });
    }
    // The largest power of two at most `fit`.
    Ok(1 << fit.ilog2())
}

/// Returns the free rows each task keeps below its first at board side n: n - 6 below n = 18
/// (at least 2), 12 from n = 18, 13 from n = 21 ([`DEEP_TASK_ROWS`]). Below a board with R
/// free rows the kernel makes about the same number of placements at any n (R = 10: 6,418 a
/// task at n = 16, 2,944 at n = 18; R = 12: 66,236 at n = 16; `examples/task_sizes.rs`,
/// results/2026-12-03-gpu/), so R = 12 gives tasks of about 10^5 placements, a fraction of a
/// second of one GPU thread, and 11 M tasks at n = 20, which the one host thread splits at 80
/// to 130 ns a task while the device counts. From n = 21 the host would set the pace at 12 rows
/// (133 M tasks and 13 to 16 s of host work in a 26 s count at n = 21, about 1.6 × 10^9 tasks at
/// n = 22), so R = 13 there: 18 M tasks at n = 21 (22.1 s on an H200), 235 M at n = 22 (20 s of
/// host work in a 155 s count; results/2026-12-04-gpu-loop/). `NQUEENS_GPU_TASK_ROWS` overrides
/// it, for tuning on a new device. [`crate::open`] refuses a value that is not a whole number
/// 0..=[`crate::MAX_TASK_ROWS`] (the kernel's stack).
pub fn task_rows(n: u32) -> u32 {
    match task_rows_override() {
        Some(Ok(rows)) => rows,
        _ if n >= 21 => DEEP_TASK_ROWS,
        _ => n.saturating_sub(6).clamp(2, 12),
    }
}

/// The free rows a task keeps below its first from n = 21 on ([`task_rows`]): the most the
/// default gives, so the kernels' stack is compiled for it (`MAX_DEPTH` in `kernel.cl`, one
/// level more).
pub const DEEP_TASK_ROWS: u32 = 13;

/// Returns the levels of the kernels' stack the launchers compile them with (`MAX_DEPTH` in
/// `kernel.cl`): one more than the most free rows a task keeps, [`DEEP_TASK_ROWS`] by default
/// ([`task_rows`]) or `NQUEENS_GPU_TASK_ROWS` if more. Each level is 20 bytes of shared memory
/// a thread (a frame and a table entry), so 14 levels hold 6 blocks of 128 threads on an H200
/// multiprocessor (228 KiB), as 13 do.
pub(crate) fn stack_levels() -> u32 {
    let rows = match task_rows_override() {
        Some(Ok(rows)) => rows.max(DEEP_TASK_ROWS),
        _ => DEEP_TASK_ROWS,
    };
    rows.min(tasks::MAX_TASK_ROWS) + 1
}

/// Returns `NQUEENS_GPU_TASK_ROWS` if it is set: its value, or why it is not one.
pub(crate) fn task_rows_override() -> Option<Result<u32, GpuError>> {
    let value = std::env::var_os("NQUEENS_GPU_TASK_ROWS")?;
    let text = value.to_string_lossy();
    Some(match text.trim().parse::<u32>() {
        Ok(rows) if rows <= tasks::MAX_TASK_ROWS => Ok(rows),
        _ => Err(GpuError::TaskRows { value: text.into_owned() }),
    })
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
    /// The most tasks of one launch ([`launch_cap`]).
    max_tasks: usize,
}

impl std::fmt::Debug for GpuDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuDevice").field("name", &self.name).field("describe", &self.describe).finish()
    }
}

impl GpuDevice {
    /// Returns the device `name` (`opencl:0`), described by `describe`, driven by `launcher`,
    /// with `lanes` threads resident at once and launches of at most `max_tasks` tasks
    /// ([`launch_cap`]).
    pub(crate) fn new(
        name: String,
        describe: String,
        launcher: Box<dyn Launcher>,
        lanes: usize,
        max_tasks: usize,
    ) -> GpuDevice {
        GpuDevice { name, describe, launcher: Mutex::new(launcher), lanes, max_tasks }
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
    /// Completions found so far.
    completions: u64,
    /// Representatives by orbit 8, 4, 2 so far (classified subproblems only).
    classes: [u64; 3],
    nodes: u64,
    /// The orbit of its constellation: solutions per completion.
    weight: u128,
    /// Whether its constellation has a symmetry of its own (its tasks are classified).
    symmetric: bool,
    /// The split into tasks while it goes on (a subproblem can hold more tasks than a launch).
    splitter: Option<tasks::Splitter>,
}

impl Device for GpuDevice {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn refuses(&self, plan: &dyn Plan) -> Option<String> {
        if D4Plan::of(plan).is_none() {
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
        let fail = |e: GpuError| Error::DeviceFailed { device: self.name.clone(), reason: e.to_string() };
        if let Some(why) = self.refuses(plan) {
            return Err(Error::Device { device: self.name.clone(), reason: why });
        }
        let d4 = D4Plan::of(plan).expect("checked by refuses");
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
        Schedule::new(d4, &tables, stats, self.lanes, self.max_tasks)
            .drive(&mut **launcher, queue)
            .map_err(fail)
    }
}

/// Tasks split and not yet launched, of one kernel, from `cursor` on.
#[derive(Default)]
struct Pending {
    tasks: Vec<Task>,
    /// [`tasks::MAX_ROWS`] bytes a task, for the classifying kernel.
    boards: Vec<u8>,
    cursor: usize,
}

impl Pending {
    fn ready(&self) -> usize {
        self.tasks.len() - self.cursor
    }
}

/// One launch's tasks, in the order the device takes them, and their boards (classified
/// tasks only).
struct Batch {
    kernel: Kernel,
    tasks: Vec<Task>,
    boards: Vec<u8>,
}

/// What a run's launches took, printed to standard error at its end when the environment
/// variable `NQUEENS_GPU_LOG` is set (for tuning on a new device: whether the host or the
/// device sets the pace).
#[derive(Default)]
struct LaunchLog {
    launches: u64,
    tasks: u64,
    /// Wall-clock seconds the host waited for launches to end (the device busy, the host idle).
    wait_seconds: f64,
    /// Wall-clock seconds of host work: splitting, ordering, adding up.
    host_seconds: f64,
}

impl LaunchLog {
    fn print(&self, label: &str, started: Instant, target: usize) {
        if std::env::var_os("NQUEENS_GPU_LOG").is_none() {
            return;
        }
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "nqueens-gpu: {label}: {} launches, {} tasks in {seconds:.3} s ({:.3e} tasks/s); host work {:.3} s, \
             waiting on the device {:.3} s; last launch target {target} tasks",
            self.launches,
            self.tasks,
            self.tasks as f64 / seconds.max(1e-9),
            self.host_seconds,
            self.wait_seconds,
        );
    }
}

/// The schedule of one device's run over a plan: its queues of tasks and the subproblems they
/// stand for, and the size of the next launch. (Named apart from `nqueens::Run`, what a run is
/// about to do as an observer hears it.)
struct Schedule<'p> {
    plan: &'p D4Plan,
    tables: &'p Tables,
    stats: bool,
    rows: u32,
    /// Tasks of constellations without a symmetry of their own, and of those with one.
    count: Pending,
    classify: Pending,
    /// Subproblems by slot; free slots in `free`.
    parents: Vec<Option<Parent>>,
    free: Vec<u32>,
    /// The tasks of the next launch.
    target: usize,
    lanes: usize,
    /// The most tasks of one launch.
    max_tasks: usize,
    /// True once the queue has nothing more to give.
    drained: bool,
    /// The slot of the subproblem whose split goes on, if any.
    splitting: Option<u32>,
}

impl<'p> Schedule<'p> {
    fn new(
        plan: &'p D4Plan,
        tables: &'p Tables,
        stats: bool,
        lanes: usize,
        max_tasks: usize,
    ) -> Schedule<'p> {
        let max_tasks = max_tasks.clamp(MIN_TASKS, MAX_TASKS);
        let target = (lanes * 4).clamp(MIN_TASKS, max_tasks);
        Schedule {
            plan,
            tables,
            stats,
            rows: task_rows(plan.n()),
            count: Pending::default(),
            classify: Pending::default(),
            parents: Vec::new(),
            free: Vec::new(),
            target,
            lanes,
            max_tasks,
            drained: false,
            splitting: None,
        }
    }

    /// Launches until the queue is empty (or says stop) and every task is counted. The host
    /// keeps one launch ahead: while the device counts one launch, it splits and orders the
    /// tasks of the next, which starts as soon as the first is read back; the first launch's
    /// counts are added up while the second runs.
    fn drive(&mut self, launcher: &mut dyn Launcher, queue: &mut dyn Queue) -> Result<(), GpuError> {
        let started = Instant::now();
        let mut log = LaunchLog::default();
        let mut out = Vec::new();
        let mut in_flight: Option<(Batch, Instant)> = None;
        loop {
            let t_host = Instant::now();
            self.fill(queue);
            let next = self.next_batch();
            log.host_seconds += t_host.elapsed().as_secs_f64();
            let Some((batch, t0)) = in_flight.take() else {
                let Some(next) = next else {
                    log.print(&self.plan_label(), started, self.target);
                    return Ok(());
                };
                launcher.start(next.kernel, &next.tasks, &next.boards, self.stats)?;
                in_flight = Some((next, Instant::now()));
                continue;
            };
            let t_wait = Instant::now();
            launcher.finish(&mut out)?;
            log.wait_seconds += t_wait.elapsed().as_secs_f64();
            let seconds = t0.elapsed().as_secs_f64();
            let stopping = queue.stopping();
            if let Some(next) = next {
                if stopping {
                    // Tasks not launched are dropped with their subproblems: solved again on
                    // resume.
                } else {
                    launcher.start(next.kernel, &next.tasks, &next.boards, self.stats)?;
                    in_flight = Some((next, Instant::now()));
                }
            }
            let t_host = Instant::now();
            self.absorb(&batch, &out);
            self.report(queue);
            log.host_seconds += t_host.elapsed().as_secs_f64();
            log.launches += 1;
            log.tasks += batch.tasks.len() as u64;
            // The next launch sized to take about LAUNCH_SECONDS at this launch's rate, from
            // a launch of at least half the target (the classifying kernel's tasks waiting
            // beside make the counting launches a little short of it).
            let take = batch.tasks.len();
            if 2 * take >= self.target && batch.kernel == Kernel::Count {
                let per_task = seconds.max(1e-6) / take as f64;
                let wanted = (LAUNCH_SECONDS / per_task) as usize;
                let floor = (self.lanes * 4).clamp(MIN_TASKS, self.max_tasks);
                self.target =
                    wanted.clamp(self.target / 4, self.target.saturating_mul(4)).clamp(floor, self.max_tasks);
            }
            if stopping {
                if let Some((batch, _)) = in_flight.take() {
                    launcher.finish(&mut out)?;
                    self.absorb(&batch, &out);
                    self.report(queue);
                }
                return Ok(());
            }
        }
    }

    /// Returns the board side, for the launch log.
    fn plan_label(&self) -> String {
        format!("n = {}, {} free rows a task", self.plan.n(), self.rows)
    }

    /// Takes the next launch from the tasks waiting: those of the kernel with more of them (the
    /// classifying one is the rarer), at most the target, most work first (so that the last
    /// tasks of a launch are short: the warp tail), a classified task's board moving with it.
    /// Returns `None` when no task waits.
    fn next_batch(&mut self) -> Option<Batch> {
        let kernel =
            if self.count.ready() >= self.classify.ready() { Kernel::Count } else { Kernel::Classify };
        let pending = if kernel == Kernel::Count { &mut self.count } else { &mut self.classify };
        let ready = pending.ready();
        if ready == 0 {
            return None;
        }
        let take = ready.min(self.target);
        let range = pending.cursor..pending.cursor + take;
        let mut order: Vec<u32> = (0..take as u32).collect();
        order.sort_unstable_by_key(|&j| std::cmp::Reverse(pending.tasks[range.start + j as usize].weight));
        let tasks: Vec<Task> = order.iter().map(|&j| pending.tasks[range.start + j as usize]).collect();
        let boards: Vec<u8> = if kernel == Kernel::Classify {
            let all = &pending.boards[range.start * MAX_ROWS..range.end * MAX_ROWS];
            order
                .iter()
                .flat_map(|&j| &all[j as usize * MAX_ROWS..(j as usize + 1) * MAX_ROWS])
                .copied()
                .collect()
        } else {
            Vec::new()
        };
        pending.cursor += take;
        if pending.cursor == pending.tasks.len() {
            pending.tasks.clear();
            pending.boards.clear();
            pending.cursor = 0;
        }
        Some(Batch { kernel, tasks, boards })
    }

    /// Adds a launch's numbers (`out`, [`Kernel::width`] a task in the batch's order) to the
    /// tasks' subproblems.
    fn absorb(&mut self, batch: &Batch, out: &[u64]) {
        let width = batch.kernel.width();
        for (j, task) in batch.tasks.iter().enumerate() {
            let p = self.parents[task.parent as usize].as_mut().expect("a task's parent is live");
            let r = &out[j * width..(j + 1) * width];
            p.completions += r[0];
            p.nodes += r[width - 1];
            if batch.kernel == Kernel::Classify {
                p.classes.iter_mut().zip(&r[1..4]).for_each(|(a, b)| *a += b);
            }
            p.remaining -= 1;
        }
    }

    /// Splits subproblems, the one whose split goes on first, then new ones from the queue,
    /// until the tasks waiting make a launch.
    fn fill(&mut self, queue: &mut dyn Queue) {
        loop {
            let room = self.target.saturating_sub(self.count.ready() + self.classify.ready());
            if room == 0 {
                break;
            }
            if let Some(slot) = self.splitting {
                let p = self.parents[slot as usize].as_mut().expect("a splitting parent is live");
                let (pending, boards) = match p.symmetric {
                    false => (&mut self.count.tasks, None),
                    true => (&mut self.classify.tasks, Some(&mut self.classify.boards)),
                };
                let before = pending.len();
                let splitter = p.splitter.as_mut().expect("a splitting parent has its splitter");
                let done = splitter.next_tasks(self.tables, pending, boards, room);
                p.remaining += pending.len() - before;
                if done {
                    p.splitter = None;
                    self.splitting = None;
                }
                continue;
            }
            if self.drained {
                break;
            }
            let Some(index) = queue.next() else {
                self.drained = true;
                break;
            };
            let sub = &self.plan.subproblems()[index];
            let c = &self.plan.constellations()[sub.constellation as usize];
            let slot = self.free.pop().unwrap_or_else(|| {
                self.parents.push(None);
                (self.parents.len() - 1) as u32
            });
            let Some(splitter) = tasks::Splitter::new(self.tables, sub.constellation, sub, self.rows, slot)
            else {
                // Its board is complete already: one board, counted (and classified) here.
                self.free.push(slot);
                queue.solved(index, &self.plan.solve(index, self.stats));
                continue;
            };
            let (weight, symmetric) = (u128::from(c.weight()), c.stabilizer() != 0);
            self.parents[slot as usize] = Some(Parent {
                index,
                remaining: 0,
                completions: 0,
                classes: [0; 3],
                nodes: 0,
                weight,
                symmetric,
                splitter: Some(splitter),
            });
            self.splitting = Some(slot);
        }
        self.report(queue);
    }

    /// Reports every subproblem whose tasks are all counted, and frees its slot.
    fn report(&mut self, queue: &mut dyn Queue) {
        for slot in 0..self.parents.len() {
            if self.parents[slot].as_ref().is_some_and(|p| p.remaining == 0 && p.splitter.is_none()) {
                let p = self.parents[slot].take().expect("checked");
                let completions = u128::from(p.completions);
                let classes = match p.symmetric {
                    false => Classes { orbit8: completions, ..Classes::default() },
                    true => {
                        let [c8, c4, c2] = p.classes.map(u128::from);
                        Classes { orbit8: c8, orbit4: c4, orbit2: c2, orbit1: 0 }
                    }
                };
                // Without a symmetry of its own, every completion is one class of 8 boards (as
                // the CPU's d4 search counts it); with one, the kernel's representatives.
                let tally = Tally {
                    solutions: p.weight * completions,
                    classes,
                    nodes: if self.stats { u128::from(p.nodes) } else { 0 },
                };
                queue.solved(p.index, &tally);
                self.free.push(slot as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A launcher that runs the kernels' searches on the host ([`tasks::search`],
    /// [`tasks::classify`]): the driver tested without a device.
    #[derive(Default)]
    struct HostLauncher {
        tables: Option<Tables>,
        out: Vec<u64>,
        launches: usize,
    }

    impl Launcher for HostLauncher {
        fn upload(&mut self, tables: &Tables) -> Result<(), GpuError> {
            self.tables = Some(tables.clone());
            Ok(())
        }
        fn start(
            &mut self,
            kernel: Kernel,
            tasks: &[Task],
            boards: &[u8],
            nodes: bool,
        ) -> Result<(), GpuError> {
            let t = self.tables.as_ref().ok_or_else(|| GpuError::Driver("no tables".into()))?;
            self.out.clear();
            self.launches += 1;
            for (j, task) in tasks.iter().enumerate() {
                match kernel {
                    Kernel::Count => {
                        let (count, placed) = tasks::search(t, task);
                        self.out.extend([count, if nodes { placed } else { 0 }]);
                    }
                    Kernel::Classify => {
                        let r = tasks::classify(t, task, &boards[j * MAX_ROWS..(j + 1) * MAX_ROWS]);
                        self.out.extend(r);
                    }
                }
            }
            Ok(())
        }
        fn finish(&mut self, out: &mut Vec<u64>) -> Result<(), GpuError> {
            out.clone_from(&self.out);
            Ok(())
        }
    }

    /// Hands out every subproblem in order, records what is solved, says stop after `stop_after`.
    struct ListQueue {
        next: usize,
        len: usize,
        solved: Vec<(usize, Tally)>,
        stop_after: Option<usize>,
    }

    impl Queue for ListQueue {
        fn next(&mut self) -> Option<usize> {
            (!self.stopping() && self.next < self.len).then(|| {
                self.next += 1;
                self.next - 1
            })
        }
        fn solved(&mut self, index: usize, tally: &Tally) {
            self.solved.push((index, *tally));
        }
        fn stopping(&self) -> bool {
            self.stop_after.is_some_and(|k| self.solved.len() >= k)
        }
    }

    /// Subproblems split over several launches (launches of 5 tasks, tasks of 1 free row and
    /// more) are reported once, with the CPU's counts: n = 8..=12, split depths 1 and 3.
    #[test]
    fn subproblems_split_over_many_launches_count_as_on_the_cpu() {
        for n in 8..=12 {
            for depth in [1, 3] {
                let plan = D4Plan::new(n, depth).unwrap();
                let tables = Tables::new(n, plan.constellations());
                let mut launcher = HostLauncher::default();
                launcher.upload(&tables).unwrap();
                let mut schedule = Schedule::new(&plan, &tables, false, 1, MAX_TASKS);
                (schedule.target, schedule.rows) = (5, 1);
                let mut queue = ListQueue { next: 0, len: plan.len(), solved: Vec::new(), stop_after: None };
                schedule.drive(&mut launcher, &mut queue).unwrap();
                let mut solved = queue.solved;
                solved.sort_by_key(|s| s.0);
                assert_eq!(solved.len(), plan.len(), "n = {n}, depth {depth}: each once");
                for (i, t) in solved {
                    let want = plan.solve(i, false);
                    assert_eq!(
                        (t.solutions, t.classes),
                        (want.solutions, want.classes),
                        "n = {n}, depth {depth}, {i}"
                    );
                }
                // (Launches grow 4-fold while they take microseconds, as they do here.)
                assert!(launcher.launches >= 3, "n = {n}: {} launches", launcher.launches);
            }
        }
    }

    /// A stop ends the run after the launch in flight; what was reported is right, and the
    /// subproblems split only in part are not reported.
    #[test]
    fn a_stop_reports_only_whole_subproblems() {
        let plan = D4Plan::new(12, 1).unwrap();
        let tables = Tables::new(12, plan.constellations());
        let mut launcher = HostLauncher::default();
        launcher.upload(&tables).unwrap();
        let mut schedule = Schedule::new(&plan, &tables, false, 1, MAX_TASKS);
        (schedule.target, schedule.rows) = (7, 2);
        let mut queue = ListQueue { next: 0, len: plan.len(), solved: Vec::new(), stop_after: Some(10) };
        schedule.drive(&mut launcher, &mut queue).unwrap();
        assert!(queue.solved.len() >= 10 && queue.solved.len() < plan.len(), "{}", queue.solved.len());
        for (i, t) in &queue.solved {
            assert_eq!(t.solutions, plan.solve(*i, false).solutions, "{i}");
        }
    }

    /// Issue 40: the launches are capped by the memory available (half of it, a power of two of
    /// tasks), and a process that cannot hold the smallest launch is refused with the figures.
    #[test]
    fn launches_fit_in_half_the_memory_available() {
        assert_eq!(launch_cap(None, true), Ok(MAX_TASKS));
        assert_eq!(launch_cap(Some(1 << 40), true), Ok(MAX_TASKS));
        let per_task = HOST_BYTES_PER_TASK + DEVICE_BYTES_PER_TASK;
        assert_eq!(per_task, 336);
        // 600 MiB: 300 MiB for launches, 936,228 tasks of 336 bytes: 2^19.
        assert_eq!(launch_cap(Some(600 << 20), true), Ok(1 << 19));
        assert_eq!(launch_cap(Some(600 << 20), false), Ok(1 << 20));
        assert_eq!(launch_cap(Some(2 * MIN_TASKS as u64 * per_task), true), Ok(MIN_TASKS));
        let refused = launch_cap(Some(2 << 20), true).unwrap_err();
        assert_eq!(
            refused,
            GpuError::LaunchMemory { needed_mib: 3, tasks: MIN_TASKS, task_bytes: 336, available_mib: 2 }
        );
        assert_eq!(
            refused.to_string(),
            "its launches need at least 3 MiB (4096 tasks of 336 bytes, twice over) but 2 MiB are \
             available to this process: raise the limit or give the job more memory"
        );
    }

    #[test]
    fn the_stack_holds_every_default_task() {
        // Without NQUEENS_GPU_TASK_ROWS (the test harness sets none).
        assert_eq!(task_rows_override(), None);
        assert_eq!(
            (task_rows(8), task_rows(18), task_rows(20), task_rows(21), task_rows(30)),
            (2, 12, 12, 13, 13)
        );
        for n in 0..=32 {
            assert!(
                task_rows(n) < stack_levels(),
                "n = {n}: {} rows, {} levels",
                task_rows(n),
                stack_levels()
            );
        }
    }
}
