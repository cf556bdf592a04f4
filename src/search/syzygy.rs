//! The search's use of Syzygy tablebases: which root moves keep the tables' result, and
//! what a probe inside the tree is worth as a score.

use crate::board::Board;
use crate::tablebase::{Tablebases, Wdl};
use crate::types::{DRAW, MAX_PLY, Move, Score, TB_WIN};
use std::sync::Arc;

/// Open tables and the options that govern probing them.
#[derive(Clone, Debug)]
pub struct Syzygy {
    pub tables: Arc<Tablebases>,
    /// Probe inside the tree only this many plies or more from the horizon, unless the
    /// position has fewer pieces than the limit.
    pub probe_depth: i32,
    /// Probe positions of at most this many pieces (kings included).
    pub probe_limit: u32,
    /// Cursed wins and blessed losses are draws, as the fifty-move rule makes them.
    pub fifty_move_rule: bool,
}

/// Two settings are the same when they use the same open tables.
impl PartialEq for Syzygy {
    fn eq(&self, other: &Syzygy) -> bool {
        Arc::ptr_eq(&self.tables, &other.tables)
            && (self.probe_depth, self.probe_limit, self.fifty_move_rule)
                == (other.probe_depth, other.probe_limit, other.fifty_move_rule)
    }
}

impl Syzygy {
    /// The tables with the default options: probe everything they hold, at any depth,
    /// under the fifty-move rule.
    pub fn new(tables: Arc<Tablebases>) -> Syzygy {
        Syzygy {
            tables,
            probe_depth: 1,
            probe_limit: 7,
            fifty_move_rule: true,
        }
    }

    /// The most pieces a probe may see.
    pub fn max_pieces(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces())
    }

    /// A result's rank for the side it belongs to: 1 a win, 0 a draw, -1 a loss. The
    /// fifty-move rule makes cursed wins and blessed losses draws; without it they are
    /// wins and losses.
    fn rank(&self, wdl: Wdl) -> i32 {
        match wdl {
            Wdl::Win => 1,
            Wdl::CursedWin => i32::from(!self.fifty_move_rule),
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -i32::from(!self.fifty_move_rule),
            Wdl::Loss => -1,
        }
    }

    /// The score of a table result `ply` plies from the root: wins and losses beyond every
    /// evaluation and below every mate, nearer ones stronger.
    pub fn score(&self, wdl: Wdl, ply: usize) -> Score {
        let distance = ply.min(MAX_PLY) as Score;
        match self.rank(wdl) {
            1 => TB_WIN - distance,
            -1 => -TB_WIN + distance,
            _ => DRAW,
        }
    }

    /// When the root is in the tables: the root moves that keep its best result, each with
    /// the score the tables give it. With `progress`, only the winning moves that bring the
    /// next capture or pawn move nearest (so that play converts within the fifty-move
    /// rule), or in a lost position those that put it off longest; otherwise every move
    /// with the best result (MultiPV analysis). `None` when the tables do not hold the root.
    pub fn root_moves(&self, board: &Board, progress: bool) -> Option<Vec<(Move, Score)>> {
        if board.occupied().count() > self.max_pieces() {
            return None;
        }
        let probe = self.tables.probe_root(board)?;
        let best = probe
            .moves
            .iter()
            .map(|&(_, wdl, _)| self.rank(wdl))
            .max()?;
        let mut kept: Vec<(Move, Wdl, i32)> = probe
            .moves
            .into_iter()
            .filter(|&(_, wdl, _)| self.rank(wdl) == best)
            .collect();
        if progress && best != 0 {
            // A winner wants the smallest distance, a loser the largest.
            let key = |dtz: i32| if best > 0 { dtz.abs() } else { -dtz.abs() };
            let nearest = kept.iter().map(|&(_, _, dtz)| key(dtz)).min()?;
            kept.retain(|&(_, _, dtz)| key(dtz) == nearest);
        }
        Some(
            kept.into_iter()
                .map(|(m, wdl, dtz)| (m, self.score(wdl, dtz.unsigned_abs() as usize)))
                .collect(),
        )
    }
}
