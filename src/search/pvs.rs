//! Principal variation search, as a numbered checklist. PV nodes search with an open window;
//! the others with a null window, re-searched only when a move proves better than expected.
//! Node kinds are types, so the PV and non-PV code paths are compiled separately.

use super::history::{self, MAX_HISTORY, MoveScore};
use super::picker::MovePicker;
use super::searcher::NodeEval;
use super::tt::Bound;
use super::{Report, Searcher};
use crate::rules::GameEnd;
use crate::types::{DRAW, INFINITY, MATE, MAX_PLY, Move, PieceType, Score, TB_BOUND, is_decisive};
use std::time::Duration;

pub(super) trait Node {
    const PV: bool;
    const ROOT: bool;
}

pub(super) struct Root;
pub(super) struct Pv;
pub(super) struct NonPv;

impl Node for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}

impl Node for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}

impl Node for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// Quiet moves, and noisy ones, remembered per node for the history penalty.
const MAX_QUIETS: usize = 64;
const MAX_NOISY: usize = 32;

impl Searcher<'_> {
    /// The score of the position at `ply` searched `depth` plies deep, within the window
    /// `alpha` to `beta`. `cut_node`: a null-window node expected to fail high (one whose
    /// parent is expected not to), where reductions may be bolder.
    pub(super) fn search<N: Node>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        let in_check = self.board.in_check();
        // A search of this node without one move, to see whether that move is singular.
        let excluded = self.stack[ply].excluded;
        let singular_search = excluded != Move::NONE;

        // Step 1. Horizon: resolve captures with quiescence search. In check, keep searching
        // (the check extension below ensures there is depth for it).
        if depth <= 0 && !in_check {
            return self.quiescence::<N>(alpha, beta, ply);
        }
        depth = depth.max(1);
        self.pv.clear(ply);
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if !N::ROOT {
            // Step 2. Draws by rule, and the ply limit.
            if self.board.is_draw(ply) {
                return self.draw_score(ply);
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.static_eval(ply)
                };
            }
            // Step 3. Mate distance pruning: no line from here can beat a mate already found
            // closer to the root.
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Static evaluation, and whether it improved on our previous move's.
        // Corrected by what searches learned of this pawn structure; the table keeps the
        // evaluation itself.
        let NodeEval {
            raw: raw_eval,
            scaled: scaled_eval,
            corrected: eval,
        } = self.node_eval(ply, in_check);
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        self.stack[ply + 1].killers = [Move::NONE; 2];
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;

        // Step 5. Reverse futility pruning: far enough above beta at low depth, the
        // opponent is not going to catch up. Not where enemy pieces gather around the king,
        // whose quiet mating threats the static evaluation does not see. Before the table
        // probe, which usually costs a trip to main memory that this cut does not need.
        if !N::PV && !in_check && !singular_search {
            let p = &self.params;
            if depth <= p.rfp_depth()
                && eval.abs() < TB_BOUND
                && eval - p.rfp_margin() * (depth - i32::from(improving)) >= beta
                && (p.rfp_king_attackers() == 0
                    || (self.board.king_zone_attackers(self.board.side_to_move()) as i32)
                        < p.rfp_king_attackers())
            {
                return eval;
            }
        }

        // Step 6. Transposition table: a deep enough bound ends non-PV nodes at once. Near
        // the fifty-move limit stored scores may no longer hold. A position learned in an
        // earlier game (`Learning`) ends PV nodes too: the trap it records lies on the line
        // the search believes best, which a PV node would otherwise search as shallowly as
        // it did when it fell into the trap.
        let key = self.board.key();
        // The entry is the full node's: of no use to the search without its move.
        let entry = if singular_search {
            None
        } else {
            self.tt.probe(key, ply)
        };
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = entry
            && (!N::PV || (!N::ROOT && e.learned))
            && e.depth >= depth
            && self.board.halfmove_clock() < 90
            && e.bound.cuts(e.score, alpha, beta)
        {
            return e.score;
        }

        // Step 6b. Tablebases, for a position right after a capture or pawn move (the
        // tables cannot know how long the fifty-move count has run): their result ends the
        // node when it is exact or beyond the window, and bounds a PV node's score.
        let (mut best_score, mut max_score) = (-INFINITY, INFINITY);
        if !N::ROOT
            && !singular_search
            && let Some((score, bound)) = self.probe_tablebase(depth, ply)
        {
            if bound.cuts(score, alpha, beta) {
                self.tt.store(
                    key,
                    Move::NONE,
                    score,
                    raw_eval,
                    (depth + 6).min(MAX_PLY as i32 - 1),
                    bound,
                    ply,
                );
                return score;
            }
            if N::PV {
                if bound == Bound::Lower {
                    best_score = score;
                    alpha = alpha.max(score);
                } else {
                    max_score = score;
                }
            }
        }

        if !N::PV && !in_check && !singular_search {
            let p = &self.params;
            // Step 7. Null-move pruning: if passing still keeps us above beta, a real move
            // would too. Not with pawns alone (zugzwang) or right after another null move.
            let us = self.board.side_to_move();
            let pieces = self.board.color(us)
                & !(self.board.kind(PieceType::Pawn) | self.board.kind(PieceType::King));
            if depth >= p.nmp_depth()
                && eval >= beta
                && beta > -TB_BOUND
                && pieces.any()
                && self.board.last_move() != Some(Move::NONE)
            {
                let r = p.nmp_base() + depth / p.nmp_divisor() + ((eval - beta) / 200).min(3);
                self.stack[ply].moved = history::MOVES;
                self.data.eval.record_null(ply + 1);
                self.board.make_null_move();
                let score = -self.search::<NonPv>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.board.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= TB_BOUND { beta } else { score };
                }
            }
        }

        // Step 7b. ProbCut: a good capture whose search, reduced by four plies, beats beta
        // by a margin would very likely beat beta at full depth. Not where the table says
        // a search this deep already stayed below that margin.
        let probcut_beta = beta + self.params.probcut_margin();
        if !N::PV
            && !in_check
            && !singular_search
            && self.params.probcut_depth() > 0
            && depth >= self.params.probcut_depth()
            && beta.abs() < TB_BOUND
            && !entry.is_some_and(|e| e.depth >= depth - 3 && e.score < probcut_beta)
        {
            let mut picker = MovePicker::quiescence(self.tt);
            picker.generate_noisy_now(&self.board, &self.node_history(ply));
            picker.set_tt_move(tt_move);
            while let Some(m) = picker.next_noisy_only(&self.board) {
                if !self.board.see_ge(m, probcut_beta - eval) {
                    continue;
                }
                self.set_moved(ply, m);
                self.board.make_move(m);
                // Quiescence first: it costs little and rules out most moves.
                let mut score =
                    -self.quiescence::<NonPv>(-probcut_beta, -probcut_beta + 1, ply + 1);
                if score >= probcut_beta {
                    score = -self.search::<NonPv>(
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - 4,
                        ply + 1,
                        !cut_node,
                    );
                }
                self.board.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= probcut_beta {
                    self.tt
                        .store(key, m, score, raw_eval, depth - 3, Bound::Lower, ply);
                    return score;
                }
            }
        }

        // Step 8. Internal iterative reduction: without a stored move the node was not
        // searched before, so it is likely less important; search it shallower.
        if depth >= 4 && tt_move == Move::NONE && !singular_search {
            depth -= 1;
        }

        // Step 8b. Singular extension: when the stored move is better by a margin than
        // every other move (searched at half depth without it), it is the only move and
        // gets a ply more. If the others reach beta as well, several moves refute this
        // node and it is cut at once (multi-cut); if only the stored score does, the
        // stored move gets a ply less. Not beyond twice the iteration's depth, so that
        // chains of extensions stay bounded.
        let mut tt_extension = 0;
        if !N::ROOT
            && let Some(e) = entry
            && e.mv != Move::NONE
            && depth >= self.params.se_depth()
            && e.depth >= depth - 3
            && e.bound != Bound::Upper
            && e.score.abs() < TB_BOUND
            && (ply as i32) < 2 * self.current_depth
        {
            let singular_beta = e.score - self.params.se_margin() * depth;
            self.stack[ply].excluded = e.mv;
            let score = self.search::<NonPv>(
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                cut_node,
            );
            self.stack[ply].excluded = Move::NONE;
            if self.stopped {
                return 0;
            }
            if score < singular_beta {
                // Far below: two plies, a bounded number of times on one line.
                let double = !N::PV
                    && score < singular_beta - self.params.se_double_margin()
                    && i32::from(self.stack[ply].double_extensions) < self.params.se_double_limit();
                tt_extension = 1 + i32::from(double);
            } else if !N::PV && singular_beta >= beta {
                return singular_beta;
            } else if e.score >= beta {
                tt_extension = -1;
            }
        }

        // Step 9. The move loop.
        let mut picker = MovePicker::new(tt_move, self.stack[ply].killers, self.tt);
        // Late move pruning leaves only a few quiet moves below depth 3.
        if depth >= 3 {
            picker = picker.prefetch_quiets();
        }
        let mut best_move = Move::NONE;
        let mut moves_tried: usize = 0;
        let mut quiets = [Move::NONE; MAX_QUIETS];
        let mut quiet_count = 0;
        let mut noisy = [Move::NONE; MAX_NOISY];
        let mut noisy_count = 0;
        let mut check_info = None;
        let p = &self.params;
        // Step 10's limits for quiet moves: late move pruning leaves this many moves tried;
        // futility pruning drops them all once alpha reaches the futility value.
        let lmp_limit = ((p.lmp_base() + depth * depth) / if improving { 1 } else { 2 }) as usize;
        let futility_value = if !in_check && depth <= p.fp_depth() {
            eval + p.fp_base() + p.fp_margin() * depth
        } else {
            INFINITY
        };
        loop {
            // Whether step 10 now prunes every quiet move that does not give check. Late
            // move pruning: after enough moves, the rest rarely matter. Futility pruning:
            // too far below alpha for a quiet move to make up. The picker then generates
            // only the checks, if it has not reached the quiet moves yet.
            let quiets_pruned = !N::ROOT
                && best_score > -TB_BOUND
                && ((depth <= 8 && moves_tried >= lmp_limit) || futility_value <= alpha);
            let Some(m) = picker.next_pruned(
                &self.board,
                &self.node_history(ply),
                quiets_pruned,
                &mut check_info,
            ) else {
                break;
            };
            let root_index = if N::ROOT {
                match self.root_moves.iter().position(|&r| r == m) {
                    Some(i) if !self.excluded.contains(&m) => i,
                    _ => continue,
                }
            } else {
                0
            };
            if m == excluded {
                continue;
            }
            let quiet = !m.is_noisy();
            let history = self
                .board
                .piece_at(m.from())
                .map_or(0, |p| self.node_history(ply).quiet(p, m.to()));

            // Step 10. Shallow-depth pruning, once one move has escaped being mated. Checks
            // are kept: the short mates and sacrifices a shallow search must not miss.
            if !N::ROOT && best_score > -TB_BOUND {
                let p = &self.params;
                if quiet && quiets_pruned && !picker.last_was_quiet_check() {
                    let info = *check_info.get_or_insert_with(|| self.board.check_info());
                    if !self.board.gives_check_with(m, &info) {
                        // The same holds for every quiet move still to come.
                        picker.keep_only_quiet_checks(&self.board, info);
                        continue;
                    }
                }
                // SEE pruning: moves that lose too much material at low depth.
                let margin = if quiet {
                    p.see_quiet_margin()
                } else {
                    p.see_noisy_margin()
                };
                // Good captures passed SEE >= 0 in the picker, so also this lower bar.
                if depth <= p.see_depth()
                    && !picker.last_was_good_noisy()
                    && !self.board.see_ge(m, -margin * depth)
                {
                    let info = check_info.get_or_insert_with(|| self.board.check_info());
                    if !self.board.gives_check_with(m, info) {
                        continue;
                    }
                }
            }

            if N::ROOT && self.started.elapsed() > Duration::from_secs(1) {
                let (depth, number) = (self.current_depth, moves_tried + 1);
                (self.report)(Report::CurrentMove {
                    depth,
                    mv: m,
                    number,
                });
            }
            self.tt.prefetch(self.board.key_after(m));
            let nodes_before = self.nodes;
            self.set_moved(ply, m);
            self.board.make_move(m);
            moves_tried += 1;
            let gives_check = self.board.in_check();
            // Check extension: look one ply further after a check; and the singular
            // extension's verdict on the stored move.
            let extension = if m == tt_move { tt_extension } else { 0 };
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + u8::from(extension == 2);
            let new_depth = depth - 1 + extension.max(i32::from(gives_check));

            // Step 11. Late move reductions and the principal variation search: later moves
            // are searched shallower with a null window, then again at full depth and with
            // the full window only if they beat alpha.
            let mut score = -INFINITY;
            // Losing captures and promotions, tried last, are reduced as quiet moves are
            // where the option asks for it.
            let bad_noisy = self.params.lmr_noisy() > 0 && picker.last_was_bad_noisy();
            if depth >= 3 && moves_tried > 1 + usize::from(N::PV) && (quiet || bad_noisy) {
                let mut r = self.data.reductions.get(depth, moves_tried);
                r += i32::from(!improving) - i32::from(N::PV) - i32::from(gives_check);
                // At an expected cut node, the first move was to refute it: the later ones
                // matter less.
                if cut_node {
                    r += self.params.lmr_cut_node();
                }
                if quiet {
                    r -= i32::from(self.stack[ply].killers.contains(&m));
                    // The histories together reach 3 * MAX_HISTORY (4 with the fourth ply's).
                    r -= history * 2 / ((3 + self.params.cont_ply4()) * MAX_HISTORY);
                }
                let r = r.clamp(0, (new_depth - 1).max(0));
                score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !N::PV || moves_tried > 1 {
                score = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if N::PV && (moves_tried == 1 || score > alpha) {
                score = -self.search::<Pv>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.board.unmake_move();
            if N::ROOT {
                self.root_nodes[root_index] += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if N::PV {
                        self.pv.update(ply, m);
                    }
                    if N::ROOT {
                        self.root_pv_changed = true;
                        self.root_score = score;
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && quiet_count < MAX_QUIETS {
                quiets[quiet_count] = m;
                quiet_count += 1;
            } else if !quiet && noisy_count < MAX_NOISY {
                noisy[noisy_count] = m;
                noisy_count += 1;
            }
        }

        // Step 12. No legal move: checkmate or stalemate.
        if moves_tried == 0 {
            // Without the excluded move: that move is the only one.
            if singular_search {
                return alpha;
            }
            return if in_check {
                -MATE + ply as Score
            } else {
                self.draw_score(ply)
            };
        }

        // Step 13. The move that refuted this node gains history, and the moves of its kind
        // tried before it lose some, as do the captures tried before a quiet move; a quiet
        // one becomes a killer too.
        if best_score >= beta {
            let bonus = history::bonus(depth);
            if best_move.is_noisy() {
                self.update_capture_history(best_move, bonus);
            } else {
                let killers = &mut self.stack[ply].killers;
                if killers[0] != best_move {
                    killers[1] = killers[0];
                    killers[0] = best_move;
                }
                let earlier = self.earlier_moves(ply);
                if let Some(piece) = self.board.piece_at(best_move.from()) {
                    self.data.counters.set(earlier[0], piece, best_move.to());
                }
                for (m, delta) in quiets[..quiet_count]
                    .iter()
                    .map(|&q| (q, -bonus))
                    .chain([(best_move, bonus)])
                {
                    if let Some(piece) = self.board.piece_at(m.from()) {
                        self.data.history.update(piece, m.to(), delta);
                        for e in earlier.into_iter().filter(|&e| e != history::UNUSED) {
                            self.data.continuation.update(e, piece, m.to(), delta);
                        }
                    }
                }
            }
            for &m in &noisy[..noisy_count] {
                self.update_capture_history(m, -bonus);
            }
        }

        // A search without one move says nothing of the node: neither learned nor stored.
        if singular_search {
            return best_score;
        }
        // No better than the tables allow.
        best_score = best_score.min(max_score);
        let bound = if best_score >= beta {
            Bound::Lower
        } else if N::PV && best_move != Move::NONE {
            Bound::Exact
        } else {
            Bound::Upper
        };

        // Step 14. Learn how far the result was from the static evaluation, where the
        // bound says which way it lies, and the best move was quiet (a capture's gain is
        // the search's, not a misjudged position's).
        if !in_check
            && !best_move.is_noisy()
            && !is_decisive(best_score)
            && match bound {
                Bound::Lower => best_score > eval,
                Bound::Upper => best_score < eval,
                Bound::Exact => true,
            }
        {
            self.learn_correction(ply, depth, best_score - scaled_eval);
        }

        // Step 15. Remember the result.
        self.tt
            .store(key, best_move, best_score, raw_eval, depth, bound, ply);
        best_score
    }
}

impl Searcher<'_> {
    /// A draw by rule or stalemate `ply` plies from the root, for the side to move there:
    /// the root side pays the contempt, its opponent gains it.
    fn draw_score(&self, ply: usize) -> Score {
        if ply.is_multiple_of(2) {
            DRAW - self.contempt
        } else {
            DRAW + self.contempt
        }
    }

    /// The tables' score for this position and the bound it is, when it is right after a
    /// capture or pawn move, has few enough pieces and is deep enough from the horizon
    /// (any depth with fewer pieces than the limit).
    fn probe_tablebase(&mut self, depth: i32, ply: usize) -> Option<(Score, Bound)> {
        let tb = self.syzygy.as_ref()?;
        let pieces = self.board.occupied().count();
        let limit = tb.max_pieces();
        if self.board.halfmove_clock() != 0
            || pieces > limit
            || (depth < tb.probe_depth && pieces == limit)
        {
            return None;
        }
        let wdl = tb.tables.probe_wdl(&self.board)?;
        self.tbhits += 1;
        let score = tb.score(wdl, ply);
        let bound = match score.cmp(&DRAW) {
            std::cmp::Ordering::Greater => Bound::Lower,
            std::cmp::Ordering::Less => Bound::Upper,
            std::cmp::Ordering::Equal => Bound::Exact,
        };
        Some((score, bound))
    }
}
