//! The search: iterative deepening over a principal-variation alpha-beta search with a
//! transposition table, quiescence search at the horizon, and the usual pruning and move
//! ordering (see `pvs.rs` for the numbered steps).
//!
//! Every caller searches through a `Session` (`session.rs`), which owns the table and the
//! threads' data and runs `search` on a thread with the stack it needs. The caller may stop
//! a search through the shared flags and hears its reports through a callback, so the
//! search knows nothing of protocols.

mod correction;
mod deepening;
mod history;
mod limits;
mod multipv;
mod params;
mod picker;
mod pv;
mod pvs;
mod quiescence;
mod searcher;
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

use crate::evaluator::Evaluator;
use crate::types::{Move, Score};
use searcher::{Searcher, search, stored_eval};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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

#[cfg(test)]
impl SearchInfo {
    /// A line with nothing counted (no nodes, time or bound), for tests.
    pub(crate) fn bare(depth: i32, multipv: usize, score: Score, pv: Vec<Move>) -> Self {
        SearchInfo {
            depth,
            seldepth: depth as usize,
            multipv,
            score,
            bound: None,
            nodes: 0,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: 0,
            pv,
            wdl: None,
        }
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
    /// The evaluation: the built-in network unless the caller chooses another.
    pub evaluator: Evaluator,
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
            evaluator: Evaluator::default(),
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
