//! Where a board's count is ([`Phase`]), and what a graceful stop requested now would wait for
//! ([`StopState`]): the tracker's phase, read by the signal handlers.

use std::sync::atomic::Ordering;

use super::text::human;
use super::{Tracker, lock};

/// Where a board's count is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Phase {
    /// No board yet.
    Idle,
    /// Building the plan.
    Planning,
    /// The plan is built; the run has not begun ([`Observer::planned`]).
    Built,
    /// Subproblems are running.
    Running,
    /// The run has ended (complete or stopped): what is left is writing it down.
    Done,
    /// A stop came while the plan was being built: the process is ending.
    Exiting,
}

/// What a graceful stop requested now would wait for ([`Tracker::stop_state_at`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopState {
    /// The plan is not built yet: nothing to save, the command may end at once.
    Planning,
    /// The run goes on until this happens (in words: "the 2 running subproblems to reach
    /// their next step (within about a second)").
    Waiting(String),
    /// The run has ended; its results are being written.
    Finishing,
}

impl Tracker {
    pub(super) fn phase(&self) -> Phase {
        Tracker::phase_of(self.phase_now())
    }

    /// Returns the phase as a number: one atomic load, so a signal handler may call it
    /// (async-signal-safe); [`Tracker::stop_state_at`] reads it.
    pub fn phase_now(&self) -> u8 {
        self.phase.load(Ordering::SeqCst)
    }

    pub(super) fn phase_of(phase: u8) -> Phase {
        match phase {
            1 => Phase::Planning,
            2 => Phase::Built,
            3 => Phase::Running,
            4 => Phase::Done,
            5 => Phase::Exiting,
            _ => Phase::Idle,
        }
    }

    /// Marks the plan as built: from now on a stop has something to wait for (the journal is
    /// opened next), and [`Tracker::stop_state_at`] says what.
    ///
    /// If a stop has already ended the planning ([`Tracker::end_planning`]), this never
    /// returns: the process is exiting.
    pub(super) fn plan_built(&self) {
        let built = self.phase.compare_exchange(
            Phase::Planning as u8,
            Phase::Built as u8,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        while built == Err(Phase::Exiting as u8) {
            std::thread::park();
        }
    }

    /// Returns true if and only if the plan was still being built (or not begun), and marks
    /// the process as ending: from then on [`Observer::planned`] never returns, so nothing is
    /// opened or written after a stop that ends the command at once.
    pub fn end_planning(&self) -> bool {
        [Phase::Idle, Phase::Planning].into_iter().any(|from| {
            self.phase
                .compare_exchange(from as u8, Phase::Exiting as u8, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    /// Returns what a graceful stop requested now waits for (see [`StopState`]).
    #[cfg(test)]
    pub(super) fn stop_state(&self) -> StopState {
        self.stop_state_at(self.phase_now())
    }

    /// Returns what a graceful stop requested in `phase` (of [`Tracker::phase_now`], such as
    /// a signal handler saw it) waits for, with the run's numbers as they are now.
    pub fn stop_state_at(&self, phase: u8) -> StopState {
        let running = match Tracker::phase_of(phase) {
            Phase::Idle | Phase::Planning => return StopState::Planning,
            Phase::Done | Phase::Exiting => return StopState::Finishing,
            Phase::Built => return StopState::Waiting("the set-up to end (no subproblem will start)".into()),
            Phase::Running => *lock(&self.run),
        };
        let Some(run) = running else { return StopState::Finishing };
        let solved = self.solved.load(Ordering::Relaxed);
        let running = (run.subproblems.saturating_sub(solved)).min(run.threads as u64);
        let which = if running == 1 {
            "the running subproblem".to_string()
        } else {
            format!("the {running} running subproblems")
        };
        if run.devices > 0 {
            // A device's launch ends within about a second; what it had not finished is
            // counted again on resume, as a CPU thread's unfinished subproblem is.
            let cpu = if run.threads > run.devices {
                " and the CPU threads' subproblems to reach their next step"
            } else {
                ""
            };
            return StopState::Waiting(format!("the devices' launches to end{cpu} (within about a second)"));
        }
        if run.stops_midway {
            let their = if running == 1 { "its" } else { "their" };
            // A join unit of n = 28–29 (the join's largest boards) spends 5–40 s on its setup
            // before its first step.
            let within = if (28..=29).contains(&run.n) {
                "within about a second; a join unit spends up to a minute on its setup first"
            } else {
                "within about a second"
            };
            return StopState::Waiting(format!("{which} to reach {their} next step ({within})"));
        }
        let elapsed = lock(&self.since).elapsed().as_secs_f64();
        StopState::Waiting(match solved {
            0 => format!("{which} to finish (none has finished in the {} so far)", human(elapsed)),
            _ => {
                let each = elapsed * run.threads as f64 / solved as f64;
                if each < 1.0 {
                    format!("{which} to finish (under a second each, on average so far)")
                } else {
                    format!("{which} to finish (about {} each, on average so far)", human(each))
                }
            }
        })
    }
}
