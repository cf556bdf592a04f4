//! What each search thread keeps from one search to the next within a game: its move
//! history, which goes on ordering moves well from the first iteration of the next search
//! (aged, so that the new position's experience soon outweighs it), and its caches of pawn
//! structures and evaluations, which stay valid as long as the weights do. A new game
//! starts them afresh.

use super::correction::CorrectionHistory;
use super::history::{CaptureHistory, ContinuationHistory, CounterMoves, History};
use crate::eval::{EvalCache, PawnTable};
use crate::nnue::AccumulatorStack;
use crate::types::MAX_PLY;

pub struct ThreadData {
    pub(super) history: History,
    pub(super) continuation: ContinuationHistory,
    pub(super) captures: CaptureHistory,
    pub(super) counters: CounterMoves,
    pub(super) correction: CorrectionHistory,
    /// Pawn structures this thread has evaluated.
    pub pawns: PawnTable,
    /// Evaluations this thread has made, by position.
    pub(super) evals: EvalCache,
    /// The network's accumulators along the line being searched.
    pub(super) accumulators: AccumulatorStack,
}

impl Default for ThreadData {
    fn default() -> ThreadData {
        ThreadData {
            history: History::default(),
            continuation: ContinuationHistory::default(),
            captures: CaptureHistory::default(),
            counters: CounterMoves::default(),
            correction: CorrectionHistory::default(),
            pawns: PawnTable::default(),
            evals: EvalCache::default(),
            accumulators: AccumulatorStack::new(MAX_PLY + 4),
        }
    }
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
