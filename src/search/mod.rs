//! The search: iterative deepening over a principal-variation alpha-beta search with a
//! transposition table, quiescence search at the horizon, and the usual pruning and move
//! ordering (see `pvs.rs` for the numbered steps).
//!
//! Every caller searches through a `Session` (`session.rs`), which owns the table and the
//! threads' data and runs `search` on a thread with the stack it needs. The caller may stop
//! a search through the shared flags and hears its reports through a callback, so the
//! search knows nothing of protocols.

mod correction;
mod history;
mod limits;
mod multipv;
mod params;
mod picker;
mod pv;
mod pvs;
mod quiescence;
mod session;
pub mod strength;
mod syzygy;
mod table_memory;
mod thread;
mod time;
pub mod tt;

pub use limits::{Clock, Limits};
pub use params::SearchParams;
pub use session::{SearchHandle, Session, spawn_scoped};
pub use strength::Strength;
pub use syzygy::Syzygy;
pub use thread::ThreadData;
pub use time::TimeManager;
pub use tt::{Bound, TranspositionTable};

use crate::board::Board;
use crate::eval::{PawnTable, evaluate, exact};
use crate::movegen::legal_moves;
use crate::nnue::{Changes, Network};
use crate::types::{INFINITY, MATE, MAX_PLY, Move, PieceType, Score, TB_BOUND, is_mate};
use history::NodeHistory;
use multipv::MultiPv;
use pv::PvTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One line of the principal variation, as the search reports it; front ends turn the
/// moves into text (`SearchInfo<String>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M = Move> {
    pub depth: i32,
    pub seldepth: usize,
    /// 1 for the best line, 2 for the second best, ... (MultiPV).
    pub multipv: usize,
    pub score: Score,
    /// `None` for an exact score; `Lower`/`Upper` when an aspiration window failed.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: usize,
    /// Tablebase probes that gave a result.
    pub tbhits: u64,
    pub pv: Vec<M>,
    /// Win, draw and loss chances in per mille, when asked for (UCI_ShowWDL).
    pub wdl: Option<[u32; 3]>,
}

impl<M> SearchInfo<M> {
    /// The same line with its moves replaced (by their text, say).
    pub fn with_pv<N>(&self, pv: Vec<N>) -> SearchInfo<N> {
        SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            bound: self.bound,
            nodes: self.nodes,
            time: self.time,
            hashfull: self.hashfull,
            tbhits: self.tbhits,
            pv,
            wdl: self.wdl,
        }
    }

    /// Nodes per second over the whole search.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.time.as_millis().max(1)) as u64
    }
}

/// What the search tells its caller while it runs.
#[derive(Debug)]
pub enum Report<'a> {
    /// A finished line, or a bound on it after an aspiration failure.
    Line(&'a SearchInfo),
    /// The root move being searched, sent after the first second.
    CurrentMove { depth: i32, mv: Move, number: usize },
    /// A search started by `Session::start` has ended: its result waits on the handle.
    Done,
}

/// Flags another thread uses to steer a running search.
#[derive(Debug, Default)]
pub struct Signals {
    /// Stop as soon as possible (the result so far is returned).
    pub stop: AtomicBool,
    /// Pondering: ignore the clock and never stop on one's own. Clearing it (ponderhit)
    /// turns the search into a normal timed one, with the clock starting then.
    pub ponder: AtomicBool,
    /// Limits for the search from the ponderhit on, set before it when they differ from
    /// those the ponder search began with (XBoard: the clock as it stands at the hit).
    pub ponderhit_limits: Mutex<Option<Limits>>,
}

impl Signals {
    /// Signals for a search that starts pondering or not.
    pub fn new(ponder: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(ponder),
            ponderhit_limits: Mutex::new(None),
        }
    }
}

/// Settings that are not limits: they come from engine options.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    pub multipv: usize,
    /// Search threads: this one plus helpers (Lazy SMP).
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub params: SearchParams,
    /// Tablebases to probe, if any.
    pub syzygy: Option<Syzygy>,
    /// The network to evaluate with; the hand-crafted evaluation without one.
    pub network: Option<Arc<Network>>,
    /// What a draw costs the side to move at the root, in centipawns: positive when a
    /// draw is worse for it than the evaluation's 0 (the stronger side avoids draws).
    pub contempt: Score,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multipv: 1,
            threads: 1,
            move_overhead_ms: 10,
            params: SearchParams::default(),
            syzygy: None,
            network: None,
            contempt: 0,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The expected reply, when known.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
    pub tbhits: u64,
    pub time: Duration,
    /// The final lines, best first (one per MultiPV line).
    pub lines: Vec<SearchInfo>,
}

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    eval: Score,
    killers: [Move; 2],
    /// The move made from this ply, for the continuation history (`history::MOVES` for a
    /// null move).
    moved: usize,
    /// The move a singular-extension search at this ply leaves out (`Move::NONE` if none).
    excluded: Move,
    /// Double extensions on the line from the root to this ply.
    double_extensions: u8,
}

/// One search thread's working state.
struct Searcher<'a> {
    board: Board,
    tt: &'a TranspositionTable,
    signals: &'a Signals,
    /// Pondering and not yet told of a ponderhit.
    pondering: bool,
    params: SearchParams,
    /// When the search began, for reports (the time manager's clock restarts at ponderhit).
    started: Instant,
    time: TimeManager,
    move_overhead_ms: u64,
    node_limit: u64,
    nodes: u64,
    /// Nodes searched by helper threads, published every 1024 nodes.
    helper_nodes: &'a AtomicU64,
    tbhits: u64,
    helper_tbhits: &'a AtomicU64,
    /// A Lazy SMP helper: it only fills the table, and reports nothing.
    helper: bool,
    /// Of this helper's nodes and table hits, those already added to the shared counts.
    published: u64,
    published_tbhits: u64,
    seldepth: usize,
    /// Set once a limit or the stop flag ends the search; every node then returns at once.
    stopped: bool,
    /// False during the first iteration, which always completes so there is a move to play.
    may_stop: bool,
    stack: [Frame; MAX_PLY + 2],
    /// History and caches, kept between searches.
    data: &'a mut ThreadData,
    pv: PvTable,
    syzygy: Option<Syzygy>,
    /// When the root is in the tables: the moves that keep its result, with their scores.
    root_tablebase: Vec<(Move, Score)>,
    /// Root moves allowed (`searchmoves`, and the tables), and those already taken by
    /// better MultiPV lines.
    root_moves: Vec<Move>,
    /// Nodes searched below each root move (same order as `root_moves`), this search.
    root_nodes: Vec<u64>,
    excluded: Vec<Move>,
    /// The root's principal variation changed during the current root search, to a move
    /// scoring `root_score`.
    root_pv_changed: bool,
    root_score: Score,
    current_depth: i32,
    report: &'a mut dyn FnMut(Report),
    /// The network to evaluate with, else the hand-crafted evaluation.
    network: Option<Arc<Network>>,
    /// `SearchOptions::contempt`.
    contempt: Score,
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
        if let Some(network) = &options.network {
            data.accumulators.reset(network, board);
        }
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
            network: options.network.clone(),
            contempt: options.contempt,
        })
    }
}

impl Searcher<'_> {
    /// Iterative deepening: searches depth 1, 2, ... and keeps the last results, each line
    /// inside an aspiration window around its previous score.
    fn iterate(&mut self, limits: &Limits, multipv: usize) -> SearchResult {
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

    /// After a ponderhit the search runs on its own clock, from now.
    fn poll_ponderhit(&mut self) {
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
    fn should_stop(&mut self) -> bool {
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
    fn node_history(&self, ply: usize) -> NodeHistory<'_> {
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
    fn earlier_moves(&self, ply: usize) -> [usize; 3] {
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
    fn update_capture_history(&mut self, m: Move, delta: i32) {
        if let Some(piece) = self.board.piece_at(m.from()) {
            let victim = self
                .board
                .piece_at(m.to())
                .map_or(PieceType::Pawn, |p| p.kind());
            self.data.captures.update(piece, m.to(), victim, delta);
        }
    }

    /// Records the move made from `ply`, for the continuation history below it.
    #[inline(always)]
    /// Records the move made from `ply`, for the continuation history below it, and its
    /// changes for the network's accumulators.
    fn set_moved(&mut self, ply: usize, m: Move) {
        let moved = self
            .board
            .piece_at(m.from())
            .map_or(history::MOVES, |p| history::move_index(p, m.to()));
        self.stack[ply].moved = moved;
        // The plies below read and write this move's continuation row: aged first.
        self.data.continuation.refresh(moved);
        if self.network.is_some() {
            self.data
                .accumulators
                .record(ply + 1, Changes::of(&self.board, m));
        }
    }

    /// The static evaluation of the position, which is not in check: from this thread's
    /// cache, else from the table's entry, else computed (and kept). Every source holds
    /// the same value, so where it comes from never changes the search.
    #[inline]
    fn static_eval(&mut self, ply: usize) -> Score {
        let key = self.board.key();
        if let Some(score) = self.data.evals.get(key) {
            return score;
        }
        let score = match (self.tt.probe(key, 0), &self.network) {
            (Some(entry), _) => entry.eval,
            // Positions the hand-crafted evaluation knows outright (a bare king against
            // mating material, too little to mate) are too rare in the network's data.
            (None, Some(_)) if let Some(score) = exact(&self.board) => score,
            (None, Some(network)) => {
                let score = self.data.accumulators.evaluate(network, &self.board, ply);
                // The accumulators kept along the line are those of the position.
                debug_assert_eq!(
                    score,
                    network.evaluate(&self.board),
                    "{}",
                    self.board.to_fen()
                );
                score.clamp(-TB_BOUND + 1, TB_BOUND - 1)
            }
            (None, None) => evaluate(&self.board, &mut self.data.pawns),
        };
        self.data.evals.put(key, score);
        score
    }
}

/// The evaluation a table entry for `board` carries: the value `Searcher::static_eval`
/// computes (with `network`, or the hand-crafted evaluation), and `-INFINITY` in check,
/// where the search has none. For entries made outside a search (learned positions).
fn stored_eval(board: &Board, network: Option<&Network>, pawns: &mut PawnTable) -> Score {
    match network {
        _ if board.in_check() => -INFINITY,
        Some(network) => network.evaluate(board).clamp(-TB_BOUND + 1, TB_BOUND - 1),
        None => evaluate(board, pawns),
    }
}
