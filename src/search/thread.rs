//! What each search thread keeps from one search to the next within a game: its move
//! history, which goes on ordering moves well from the first iteration of the next search
//! (aged, so that the new position's experience soon outweighs it), its caches of
//! evaluations, which stay valid as long as the weights do, and what its evaluator keeps
//! (pawn structures, a network's accumulators). A new game starts them afresh.

use super::correction::CorrectionHistory;
use super::history::{CaptureHistory, ContinuationHistory, CounterMoves, History};
use crate::eval::EvalCache;
use crate::evaluator::EvalState;

#[derive(Default)]
pub struct ThreadData {
    pub(super) history: History,
    pub(super) continuation: ContinuationHistory,
    pub(super) captures: CaptureHistory,
    pub(super) counters: CounterMoves,
    pub(super) correction: CorrectionHistory,
    /// Evaluations this thread has made, by position.
    pub(super) evals: EvalCache,
    /// The evaluator's pawn structures and accumulators.
    pub eval: EvalState,
}

impl ThreadData {
    pub fn new() -> ThreadData {
        ThreadData::default()
    }

    /// At the start of a search: what the last search learned counts for less.
    pub(super) fn age(&mut self) {
        self.history.age();
        self.continuation.age();
        self.captures.age();
    }
}
