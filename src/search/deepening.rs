//! Iterative deepening: each depth's root search inside an aspiration window, MultiPV
//! lines one after another, the time manager asked after each depth; the lines reported
//! while the search runs, and the result it ends with.

use super::multipv::MultiPv;
use super::searcher::Searcher;
use super::{Bound, Limits, Report, SearchInfo, SearchResult, pvs, time};
use crate::movegen::legal_moves;
use crate::types::{INFINITY, MATE, MAX_PLY, Move, Score, is_mate};
use std::sync::atomic::Ordering;
use std::time::Duration;

impl Searcher<'_> {
    /// Iterative deepening: searches depth 1, 2, ... and keeps the last results, each line
    /// inside an aspiration window around its previous score.
    pub(super) fn iterate(&mut self, limits: &Limits, multipv: usize) -> SearchResult {
        let legal = legal_moves(&self.board);
        self.root_moves = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if self.root_moves.is_empty() {
            self.root_moves = legal.to_vec();
        }
        let kept: Vec<Move> = self
            .root_moves
            .iter()
            .copied()
            .filter(|m| self.root_tablebase.iter().any(|(k, _)| k == m))
            .collect();
        if !kept.is_empty() {
            self.root_moves = kept;
        }
        if self.root_moves.is_empty() {
            let score = if self.board.in_check() { -MATE } else { 0 };
            return self.result(Vec::new(), score, 0);
        }
        self.root_nodes = vec![0; self.root_moves.len()];
        let multipv = multipv.clamp(1, self.root_moves.len());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut lines = MultiPv::new(multipv);
        let mut completed = 0;
        let (mut best_move, mut stable_iterations) = (None, 0);

        for depth in 1..=max_depth {
            self.current_depth = depth;
            self.excluded.clear();
            for index in 0..multipv {
                let previous = lines.score_at(index);
                let Some(line) = self.aspiration(depth, index, previous, &lines) else {
                    break;
                };
                self.excluded.push(line.pv[0]);
                lines.insert(index, line);
                let last = index + 1 == multipv;
                if last || self.stopped || self.started.elapsed() > Duration::from_secs(1) {
                    self.report_lines(&lines.ordered());
                    lines.reported();
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            lines.sort();
            completed = depth;
            self.may_stop = true;
            self.poll_ponderhit();
            let mate_found = limits
                .mate
                .is_some_and(|n| lines.best_score() >= MATE - (2 * n as Score - 1));
            let best = lines.best_move();
            stable_iterations = if best == best_move {
                stable_iterations + 1
            } else {
                0
            };
            best_move = best;
            let scale = if depth >= 6 {
                time::soft_scale(self.best_move_nodes(best_move), stable_iterations)
            } else {
                1.0
            };
            if !self.pondering && (mate_found || self.time.soft_exceeded(scale)) {
                break;
            }
        }
        // Lines of an unfinished iteration that were not reported yet.
        if lines.unreported() {
            self.report_lines(&lines.ordered());
        }
        let lines = self.with_table_scores(lines.ordered());
        let score = lines.first().map_or(0, |l| l.score);
        self.result(lines, score, completed)
    }

    /// The share of this search's nodes that went below `best` at the root.
    fn best_move_nodes(&self, best: Option<Move>) -> f64 {
        let index = best.and_then(|b| self.root_moves.iter().position(|&m| m == b));
        index.map_or(1.0, |i| {
            self.root_nodes[i] as f64 / self.nodes.max(1) as f64
        })
    }

    /// Searches one MultiPV line at `depth`, widening the window until the score falls
    /// inside it. `None` when stopped before this iteration gave a usable move.
    fn aspiration(
        &mut self,
        depth: i32,
        index: usize,
        previous: Option<Score>,
        lines: &MultiPv,
    ) -> Option<SearchInfo> {
        let mut delta = self.params.aspiration_window();
        let (mut alpha, mut beta) = match previous {
            Some(s) if depth >= 4 && !is_mate(s) => {
                ((s - delta).max(-INFINITY), (s + delta).min(INFINITY))
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            self.seldepth = 0;
            self.root_pv_changed = false;
            let score = self.search::<pvs::Root>(alpha, beta, depth, 0, false);
            if self.stopped {
                // A move that raised alpha in this search before the stop was searched fully:
                // it is at least as good as the last iteration's choice.
                let usable = self.root_pv_changed && index == 0 && !self.pv.root().is_empty();
                let score = self.root_score;
                return usable.then(|| self.info(depth, index, score, Some(Bound::Lower)));
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                Bound::Lower
            } else {
                return Some(self.info(depth, index, score, None));
            };
            if self.started.elapsed() > Duration::from_secs(1) && !self.pv.root().is_empty() {
                let info = self.info(depth, index, score, Some(bound));
                self.report_lines(&lines.ordered_with(index, info));
            }
            delta += delta / 2;
        }
    }

    /// Reports a whole set of lines, so that a client is never left with a stale one.
    fn report_lines(&mut self, lines: &[SearchInfo]) {
        for line in self.with_table_scores(lines.to_vec()) {
            (self.report)(Report::Line(&line));
        }
    }

    /// Lines as they are shown: when the root is in the tables, a line whose search found
    /// no mate shows the tables' score for its first move, and the set is ordered by it.
    fn with_table_scores(&self, mut lines: Vec<SearchInfo>) -> Vec<SearchInfo> {
        if self.root_tablebase.is_empty() {
            return lines;
        }
        for line in &mut lines {
            let table = line
                .pv
                .first()
                .and_then(|m| self.root_tablebase.iter().find(|(k, _)| k == m));
            if let Some(&(_, score)) = table
                && !is_mate(line.score)
            {
                line.score = score;
                line.bound = None;
            }
        }
        MultiPv::numbered(lines)
    }

    fn info(&self, depth: i32, index: usize, score: Score, bound: Option<Bound>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: self.seldepth,
            multipv: index + 1,
            score,
            bound,
            nodes: self.nodes + self.helper_nodes.load(Ordering::Relaxed),
            time: self.started.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits + self.helper_tbhits.load(Ordering::Relaxed),
            pv: self.pv.root().to_vec(),
            wdl: None,
        }
    }

    fn result(&mut self, lines: Vec<SearchInfo>, score: Score, depth: i32) -> SearchResult {
        let best = lines.first().and_then(|l| l.pv.first().copied());
        let mut ponder = lines.first().and_then(|l| l.pv.get(1).copied());
        // Without a second PV move, the table may still know the expected reply.
        if let (Some(best), None) = (best, ponder) {
            self.board.make_move(best);
            ponder = self
                .tt
                .probe(self.board.key(), 0)
                .map(|e| e.mv)
                .filter(|&m| self.board.is_legal(m));
            self.board.unmake_move();
        }
        SearchResult {
            best,
            ponder,
            score,
            depth,
            nodes: self.nodes,
            tbhits: self.tbhits,
            time: self.started.elapsed(),
            lines,
        }
    }
}
