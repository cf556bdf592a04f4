//! Quiescence search: at the horizon, play out captures (and every evasion when in check)
//! until the position is quiet, so that the evaluation is not taken in the middle of an
//! exchange. The side to move may stand pat on its static evaluation.

use super::Searcher;
use super::picker::{MovePicker, victim_value};
use super::pvs::Node;
use super::searcher::NodeEval;
use super::tt::Bound;
use crate::rules::GameEnd;
use crate::types::{DRAW, MATE, MAX_PLY, Move, Score};

impl Searcher<'_> {
    pub(super) fn quiescence<N: Node>(
        &mut self,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.pv.clear(ply);
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.board.is_draw(ply) {
            return DRAW;
        }
        let in_check = self.board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.static_eval(ply)
            };
        }

        // Stand pat: out of check, the side to move need not capture at all. Tested before
        // the table is probed, as most quiescence nodes end here and a probe usually costs
        // a trip to main memory.
        let NodeEval {
            raw: raw_eval,
            corrected: stand_pat,
            ..
        } = self.node_eval(ply, in_check);
        if stand_pat >= beta {
            return stand_pat;
        }

        // The captures before the table: without one that could raise alpha (delta pruning
        // below) there is nothing to search, and no need to wait for the table entry.
        let mut picker = MovePicker::quiescence(self.tt);
        picker.generate_noisy_now(&self.board, &self.node_history(ply));
        if !in_check
            && !picker.any_noisy_above(
                &self.board,
                alpha.max(stand_pat) - stand_pat - self.params.delta_margin(),
            )
        {
            return stand_pat;
        }
        let key = self.board.key();
        let entry = self.tt.probe(key, ply);
        if !N::PV
            && let Some(e) = entry
            && e.bound.cuts(e.score, alpha, beta)
        {
            return e.score;
        }
        alpha = alpha.max(stand_pat);
        let mut best_score = stand_pat;
        let mut best_move = Move::NONE;

        picker.set_tt_move(entry.map_or(Move::NONE, |e| e.mv));
        let mut moves_tried = 0;
        loop {
            let next = if in_check {
                picker.next(&self.board, &self.node_history(ply))
            } else {
                picker.next_noisy_only(&self.board)
            };
            let Some(m) = next else {
                break;
            };
            moves_tried += 1;
            // Delta pruning: even winning the piece outright would leave us below alpha.
            if !in_check && m.promotion().is_none() {
                let victim = victim_value(&self.board, m);
                if stand_pat + victim + self.params.delta_margin() <= alpha {
                    continue;
                }
            }
            self.tt.prefetch(self.board.key_after(m));
            self.set_moved(ply, m);
            self.board.make_move(m);
            let score = -self.quiescence::<N>(-beta, -alpha, ply + 1);
            self.board.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    // The captures that settle a line belong to its PV: a mate found here
                    // is shown to the end.
                    if N::PV {
                        self.pv.update(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves_tried == 0 {
            return -MATE + ply as Score;
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, best_score, raw_eval, 0, bound, ply);
        best_score
    }
}
