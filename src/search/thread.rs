//! What each search thread keeps from one search to the next within a game: its move
//! history, which goes on ordering moves well from the first iteration of the next search
//! (aged, so that the new position's experience soon outweighs it), its caches of
//! evaluations, which stay valid as long as the weights do, and what its evaluator keeps
//! (pawn structures, a network's accumulators). A new game starts them afresh.

use super::SearchParams;
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
    /// Late move reductions, made once rather than at every search.
    pub(super) reductions: Reductions,
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

/// Late move reductions by [depth][moves tried], `base + ln(depth) ln(moves) / divisor`
/// for the constants they were made for (the `tune` build can change them between
/// searches).
#[derive(Default)]
pub(super) struct Reductions {
    table: Vec<[i32; 64]>,
    /// The bits of the base and divisor the table was made with.
    made_for: Option<(u64, u64)>,
}

impl Reductions {
    /// Makes the table for `params` unless it is already theirs.
    pub(super) fn prepare(&mut self, params: &SearchParams) {
        let (base, divisor) = (params.lmr_base(), params.lmr_divisor());
        let key = (base.to_bits(), divisor.to_bits());
        if self.made_for == Some(key) {
            return;
        }
        self.made_for = Some(key);
        self.table = vec![[0; 64]; 64];
        for (depth, row) in self.table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                let ln = (depth as f64).ln() * (moves as f64).ln();
                *r = (base + ln / divisor) as i32;
            }
        }
    }

    /// The reduction of the `moves`-th move at `depth` (both capped at 63).
    #[inline(always)]
    pub(super) fn get(&self, depth: i32, moves: usize) -> i32 {
        self.table[depth.clamp(0, 63) as usize][moves.min(63)]
    }
}
