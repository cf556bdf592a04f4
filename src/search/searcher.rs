//! One search thread's state (`Searcher`) and what it does at every node beside the
//! search proper (`pvs.rs`, `quiescence.rs`): polling its limits and signals, the move
//! histories' view of a node, the static evaluation. `search` starts the Lazy SMP helpers
//! and runs the main thread's iterative deepening (`deepening.rs`).

use super::correction::Moves;
use super::history::{self, NodeHistory};
use super::pv::PvTable;
use super::{
    Limits, Report, SearchOptions, SearchParams, SearchResult, Signals, Syzygy, ThreadData,
    TimeManager, TranspositionTable, spawn_scoped,
};
use crate::board::Board;
use crate::eval::{KNOWN_WIN, PawnTable};
use crate::evaluator::Evaluator;
use crate::types::{INFINITY, MAX_PLY, Move, PieceType, Score};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Per-ply search state.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) eval: Score,
    pub(super) killers: [Move; 2],
    /// The move made from this ply, for the continuation history (`history::MOVES` for a
    /// null move).
    pub(super) moved: usize,
    /// The move a singular-extension search at this ply leaves out (`Move::NONE` if none).
    pub(super) excluded: Move,
    /// Double extensions on the line from the root to this ply.
    pub(super) double_extensions: u8,
}

/// One search thread's working state.
pub(super) struct Searcher<'a> {
    pub(super) board: Board,
    pub(super) tt: &'a TranspositionTable,
    pub(super) signals: &'a Signals,
    /// Pondering and not yet told of a ponderhit.
    pub(super) pondering: bool,
    pub(super) params: SearchParams,
    /// When the search began, for reports (the time manager's clock restarts at ponderhit).
    pub(super) started: Instant,
    pub(super) time: TimeManager,
    pub(super) move_overhead_ms: u64,
    pub(super) node_limit: u64,
    pub(super) nodes: u64,
    /// Nodes searched by helper threads, published every 1024 nodes.
    pub(super) helper_nodes: &'a AtomicU64,
    pub(super) tbhits: u64,
    pub(super) helper_tbhits: &'a AtomicU64,
    /// A Lazy SMP helper: it only fills the table, and reports nothing.
    pub(super) helper: bool,
    /// Of this helper's nodes and table hits, those already added to the shared counts.
    pub(super) published: u64,
    pub(super) published_tbhits: u64,
    pub(super) seldepth: usize,
    /// Set once a limit or the stop flag ends the search; every node then returns at once.
    pub(super) stopped: bool,
    /// False during the first iteration, which always completes so there is a move to play.
    pub(super) may_stop: bool,
    pub(super) stack: [Frame; MAX_PLY + 2],
    /// History and caches, kept between searches.
    pub(super) data: &'a mut ThreadData,
    pub(super) pv: PvTable,
    pub(super) syzygy: Option<Syzygy>,
    /// When the root is in the tables: the moves that keep its result, with their scores.
    pub(super) root_tablebase: Vec<(Move, Score)>,
    /// Root moves allowed (`searchmoves`, and the tables), and those already taken by
    /// better MultiPV lines.
    pub(super) root_moves: Vec<Move>,
    /// Nodes searched below each root move (same order as `root_moves`), this search.
    pub(super) root_nodes: Vec<u64>,
    pub(super) excluded: Vec<Move>,
    /// The root's principal variation changed during the current root search, to a move
    /// scoring `root_score`.
    pub(super) root_pv_changed: bool,
    pub(super) root_score: Score,
    pub(super) current_depth: i32,
    pub(super) report: &'a mut dyn FnMut(Report),
    pub(super) evaluator: Evaluator,
    /// `SearchOptions::contempt`.
    pub(super) contempt: Score,
}

/// Searches `board` within `limits`, reporting through `report`, until a limit is reached or
/// `signals.stop` is set. Always returns a legal best move when there is one.
///
/// With `options.threads` above one, helper threads search the same position through the
/// shared table (Lazy SMP); the calling thread decides, reports, and stops them when done.
/// Node counts, and the node limit, cover all threads.
///
/// `data` holds each thread's history and caches from the searches before in the same game
/// (the calling thread's first); it grows to the number of threads.
pub(crate) fn search(
    board: &Board,
    limits: &Limits,
    tt: &TranspositionTable,
    signals: &Signals,
    options: &SearchOptions,
    data: &mut Vec<ThreadData>,
    report: &mut dyn FnMut(Report),
) -> SearchResult {
    tt.new_search();
    let threads = options.threads.max(1);
    if data.len() < threads {
        data.resize_with(threads, ThreadData::new);
    }
    data.iter_mut().for_each(ThreadData::age);
    let (main_data, helper_data) = data.split_first_mut().expect("one thread at least");
    let helper_nodes = AtomicU64::new(0);
    let helper_tbhits = AtomicU64::new(0);
    // Before the helpers start: the root probe must not run alongside other probes.
    let root_tablebase = options
        .syzygy
        .as_ref()
        .and_then(|tb| tb.root_moves(board, options.multipv <= 1))
        .unwrap_or_default();
    let helper_signals = Signals::new(false);
    let helper_limits = Limits {
        infinite: true,
        depth: limits.depth,
        searchmoves: limits.searchmoves.clone(),
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = helper_data[..threads - 1]
            .iter_mut()
            .filter_map(|data| {
                let (helper_nodes, helper_tbhits, helper_signals, helper_limits) = (
                    &helper_nodes,
                    &helper_tbhits,
                    &helper_signals,
                    &helper_limits,
                );
                let root_tablebase = root_tablebase.clone();
                spawn_scoped(scope, "search helper", move || {
                    let mut quiet = |_: Report| {};
                    let shared = Shared {
                        tt,
                        signals: helper_signals,
                        helper_nodes,
                        helper_tbhits,
                    };
                    let mut helper =
                        Searcher::new(board, shared, options, helper_limits, data, &mut quiet);
                    helper.helper = true;
                    helper.root_tablebase = root_tablebase;
                    helper.iterate(helper_limits, 1);
                    helper.publish_nodes();
                })
                .ok()
            })
            .collect();
        let shared = Shared {
            tt,
            signals,
            helper_nodes: &helper_nodes,
            helper_tbhits: &helper_tbhits,
        };
        let mut main = Searcher::new(board, shared, options, limits, main_data, report);
        main.root_tablebase = root_tablebase;
        let mut result = main.iterate(limits, options.multipv);
        helper_signals.stop.store(true, Ordering::Relaxed);
        for helper in helpers {
            let _ = helper.join();
        }
        result.nodes += helper_nodes.load(Ordering::Relaxed);
        result.tbhits += helper_tbhits.load(Ordering::Relaxed);
        result
    })
}

/// What a search thread shares with the others.
#[derive(Clone, Copy)]
struct Shared<'a> {
    tt: &'a TranspositionTable,
    signals: &'a Signals,
    helper_nodes: &'a AtomicU64,
    helper_tbhits: &'a AtomicU64,
}

impl<'a> Searcher<'a> {
    fn new(
        board: &Board,
        Shared {
            tt,
            signals,
            helper_nodes,
            helper_tbhits,
        }: Shared<'a>,
        options: &SearchOptions,
        limits: &Limits,
        data: &'a mut ThreadData,
        report: &'a mut dyn FnMut(Report),
    ) -> Box<Searcher<'a>> {
        let params = options.params.clone();
        data.reductions.prepare(&params);
        data.eval.reset(&options.evaluator, board);
        Box::new(Searcher {
            board: board.clone(),
            tt,
            signals,
            pondering: signals.ponder.load(Ordering::Relaxed),
            params,
            started: Instant::now(),
            time: TimeManager::new(limits, options.move_overhead_ms),
            move_overhead_ms: options.move_overhead_ms,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            helper_nodes,
            tbhits: 0,
            helper_tbhits,
            helper: false,
            published: 0,
            published_tbhits: 0,
            seldepth: 0,
            stopped: false,
            may_stop: false,
            stack: [Frame {
                eval: 0,
                killers: [Move::NONE; 2],
                moved: history::MOVES,
                excluded: Move::NONE,
                double_extensions: 0,
            }; MAX_PLY + 2],
            data,
            pv: PvTable::default(),
            syzygy: options.syzygy.clone(),
            root_tablebase: Vec::new(),
            root_moves: Vec::new(),
            root_nodes: Vec::new(),
            excluded: Vec::new(),
            root_pv_changed: false,
            root_score: 0,
            current_depth: 0,
            report,
            evaluator: options.evaluator.clone(),
            contempt: options.contempt,
        })
    }
}

impl Searcher<'_> {
    /// After a ponderhit the search runs on its own clock, from now.
    pub(super) fn poll_ponderhit(&mut self) {
        if self.pondering && !self.signals.ponder.load(Ordering::Relaxed) {
            self.pondering = false;
            let limits = self
                .signals
                .ponderhit_limits
                .lock()
                .ok()
                .and_then(|l| l.clone());
            match limits {
                Some(limits) => self.time = TimeManager::new(&limits, self.move_overhead_ms),
                None => self.time.restart(),
            }
        }
    }

    /// Adds a helper's new nodes and table hits to the shared counts.
    fn publish_nodes(&mut self) {
        if self.helper && self.nodes > self.published {
            self.helper_nodes
                .fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
            self.helper_tbhits
                .fetch_add(self.tbhits - self.published_tbhits, Ordering::Relaxed);
            self.published_tbhits = self.tbhits;
        }
    }

    /// Polls the limits: the node limit at every node, the clock and the signals every
    /// 1024 nodes. The first iteration is never interrupted; pondering ignores the clock.
    #[inline(always)]
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.may_stop {
                self.poll_ponderhit();
                let out_of_time = !self.pondering && self.time.hard_exceeded();
                self.stopped = out_of_time || self.signals.stop.load(Ordering::Relaxed);
            }
        }
        // The node limit counts every thread's nodes (the helpers' as last published).
        if self.may_stop
            && self.nodes + self.helper_nodes.load(Ordering::Relaxed) >= self.node_limit
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The move scores at `ply`: the butterfly history, the continuation histories after
    /// the moves made one, two (and four) plies before, the counter move to the last move,
    /// and the capture history.
    #[inline(always)]
    pub(super) fn node_history(&self, ply: usize) -> NodeHistory<'_> {
        let earlier = self.earlier_moves(ply);
        let bonus = self.params.counter_bonus();
        NodeHistory {
            butterfly: &self.data.history,
            after: earlier.map(|e| self.data.continuation.after(e)),
            captures: &self.data.captures,
            counter: if bonus > 0 && ply > 0 {
                (self.data.counters.of(earlier[0]), bonus)
            } else {
                (usize::MAX, 0)
            },
        }
    }

    /// The moves made one, two and four plies before `ply` (`history::MOVES` for none).
    #[inline(always)]
    pub(super) fn earlier_moves(&self, ply: usize) -> [usize; 3] {
        let cont_ply4 = self.params.cont_ply4() != 0;
        [1, 2, 4].map(|back| {
            if back == 4 && !cont_ply4 {
                return history::UNUSED;
            }
            ply.checked_sub(back)
                .map_or(history::MOVES, |p| self.stack[p].moved)
        })
    }

    /// Moves the capture history of noisy move `m`, not yet made, by `delta`.
    pub(super) fn update_capture_history(&mut self, m: Move, delta: i32) {
        if let Some(piece) = self.board.piece_at(m.from()) {
            let victim = self
                .board
                .piece_at(m.to())
                .map_or(PieceType::Pawn, |p| p.kind());
            self.data.captures.update(piece, m.to(), victim, delta);
        }
    }

    /// Records the move made from `ply`, for the continuation history below it, and for
    /// the evaluator (a network's accumulators).
    #[inline(always)]
    pub(super) fn set_moved(&mut self, ply: usize, m: Move) {
        let moved = self
            .board
            .piece_at(m.from())
            .map_or(history::MOVES, |p| history::move_index(p, m.to()));
        self.stack[ply].moved = moved;
        // The plies below read and write this move's continuation row: aged first.
        self.data.continuation.refresh(moved);
        self.data
            .eval
            .record(&self.evaluator, ply + 1, &self.board, m);
    }

    /// The static evaluation of the position, which is not in check: from this thread's
    /// cache, else from the table's entry, else computed (and kept). Every source holds
    /// the same value, so where it comes from never changes the search.
    #[inline]
    pub(super) fn static_eval(&mut self, ply: usize) -> Score {
        let key = self.board.key();
        if let Some(score) = self.data.evals.get(key) {
            return score;
        }
        let score = match self.tt.probe(key, 0) {
            Some(entry) => entry.eval,
            None => self.data.eval.evaluate(&self.evaluator, &self.board, ply),
        };
        self.data.evals.put(key, score);
        score
    }
}

/// A node's static evaluation in the three forms the search uses, each `-INFINITY` when
/// the side to move is in check.
pub(super) struct NodeEval {
    /// As the evaluator gave it: what the table keeps, as it depends on the board alone.
    pub raw: Score,
    /// Scaled by this search's constants: what the correction history learns against.
    pub scaled: Score,
    /// Scaled and corrected: what the node prunes and stands pat on.
    pub corrected: Score,
}

impl Searcher<'_> {
    /// The static evaluation at `ply` in its three forms.
    #[inline(always)]
    pub(super) fn node_eval(&mut self, ply: usize, in_check: bool) -> NodeEval {
        if in_check {
            return NodeEval {
                raw: -INFINITY,
                scaled: -INFINITY,
                corrected: -INFINITY,
            };
        }
        let raw = self.static_eval(ply);
        let scaled = self.scaled_eval(raw);
        NodeEval {
            raw,
            scaled,
            corrected: self.corrected_eval(ply, scaled),
        }
    }

    /// The moves two plies and one before `ply`, for the correction history.
    #[inline(always)]
    fn last_moves(&self, ply: usize) -> Moves {
        let back = |n: usize| {
            ply.checked_sub(n)
                .map_or(history::MOVES, |p| self.stack[p].moved)
        };
        Moves(back(2), back(1))
    }

    /// `scaled`, the static evaluation at `ply` as the search uses it, corrected by what
    /// searches learned of such positions.
    #[inline(always)]
    fn corrected_eval(&self, ply: usize, scaled: Score) -> Score {
        let weights = self.params.correction_weights();
        let moves = self.last_moves(ply);
        self.data
            .correction
            .correct(&self.board, moves, scaled, weights)
    }

    /// Learns that a search of `depth` found the position at `ply` worth `difference`
    /// more than its scaled static evaluation.
    pub(super) fn learn_correction(&mut self, ply: usize, depth: i32, difference: Score) {
        let weights = self.params.correction_weights();
        let moves = self.last_moves(ply);
        self.data
            .correction
            .update(&self.board, moves, depth, difference, weights);
    }

    /// The static evaluation as the search uses it, before correction (`scale_eval` with
    /// this search's constants, a network's only: `SearchParams::eval_material_scale`).
    /// The table keeps `raw`, which depends on the board alone.
    #[inline(always)]
    fn scaled_eval(&self, raw: Score) -> Score {
        if !self.evaluator.is_network() {
            return raw;
        }
        scale_eval(
            raw,
            &self.board,
            self.params.eval_material_scale(),
            self.params.eval_fifty_plies(),
        )
    }
}

/// `eval` of `board` scaled down by the material gone (`material_scale` percent with the
/// board bare of everything but kings, in proportion between) and toward zero as the
/// fifty-move count reaches `fifty_plies`; 0 leaves either scale off. A known win (a
/// bare king against mating material) stays whole: scaled by the fifty-move count, every
/// ply deeper would cost more than the driving to the edge gains, and the mate is lost.
#[inline(always)]
pub(super) fn scale_eval(
    mut eval: Score,
    board: &Board,
    material_scale: i32,
    fifty_plies: i32,
) -> Score {
    if eval.abs() >= KNOWN_WIN {
        return eval;
    }
    if material_scale != 0 {
        let material = board.material().min(FULL_MATERIAL);
        let full = 100 * FULL_MATERIAL;
        eval = eval * (full - material_scale * (FULL_MATERIAL - material)) / full;
    }
    if fifty_plies != 0 {
        let left = (fifty_plies - i32::from(board.halfmove_clock())).max(0);
        eval = eval * left / fifty_plies;
    }
    eval
}

/// The material of the start position, in pawns.
const FULL_MATERIAL: i32 = 78;

/// The evaluation a table entry for `board` carries: the value `Searcher::static_eval`
/// computes, and `-INFINITY` in check, where the search has none. For entries made
/// outside a search (learned positions).
pub(super) fn stored_eval(board: &Board, evaluator: &Evaluator, pawns: &mut PawnTable) -> Score {
    if board.in_check() {
        -INFINITY
    } else {
        evaluator.evaluate(board, pawns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn scales_by_material_and_the_fifty_move_count() {
        let start = Board::startpos();
        // Off, and all material on the board: unchanged.
        assert_eq!(scale_eval(300, &start, 0, 0), 300);
        assert_eq!(scale_eval(300, &start, 30, 0), 300);
        // A rook and a pawn against a pawn (7 of 78): 300 * (1 - 0.3 * 71 / 78).
        let rook = board("8/5k2/3p4/4R3/8/6P1/2K5/8 w - - 0 60");
        assert_eq!(scale_eval(300, &rook, 30, 0), 300 * (7800 - 30 * 71) / 7800);
        assert_eq!(
            scale_eval(-300, &rook, 30, 0),
            -(300 * (7800 - 30 * 71) / 7800)
        );
        // Half of 200 plies gone: half the value; past them, none.
        let shuffled = board("8/5k2/3p4/4R3/8/6P1/2K5/8 w - - 100 110");
        assert_eq!(scale_eval(300, &shuffled, 0, 200), 150);
        assert_eq!(scale_eval(300, &shuffled, 0, 80), 0);
        // A known win stays whole.
        let won = board("8/8/8/4k3/8/8/8/KR6 w - - 100 110");
        assert_eq!(scale_eval(KNOWN_WIN + 520, &won, 30, 200), KNOWN_WIN + 520);
        assert_eq!(scale_eval(-KNOWN_WIN, &won, 30, 200), -KNOWN_WIN);
    }
}
