//! The evaluation a search runs, as one object: the hand-crafted evaluation or a network,
//! with what goes with it (its name and shape for people, its calibration for win/draw/loss
//! chances and UCI_Elo). The search, the engine and the tools call this interface alone,
//! so a new network shape touches `nnue/` and nothing above it.
//!
//! `Evaluator::default()` is the engine's default, the built-in network: every caller that
//! does not choose evaluates as a GUI's first search does.

use crate::board::Board;
use crate::calibration::Calibration;
use crate::eval::{self, PawnTable, exact};
use crate::nnue::{self, AccumulatorStack, Changes, Network};
use crate::types::{MAX_PLY, Move, Score, TB_BOUND};
use std::path::Path;
use std::sync::Arc;

/// An evaluation and its name.
#[derive(Clone)]
pub struct Evaluator {
    kind: Kind,
    /// `hand-crafted evaluation`, `built-in network`, or `network ` and the file's path.
    name: Arc<str>,
}

#[derive(Clone)]
enum Kind {
    HandCrafted,
    Network(Arc<Network>),
}

impl Evaluator {
    pub fn hand_crafted() -> Evaluator {
        Evaluator {
            kind: Kind::HandCrafted,
            name: "hand-crafted evaluation".into(),
        }
    }

    /// The network built into the binary.
    pub fn built_in() -> Evaluator {
        Evaluator::with_network(nnue::embedded(), "built-in network")
    }

    /// A network under a name of the caller's.
    pub fn with_network(network: Arc<Network>, name: &str) -> Evaluator {
        Evaluator {
            kind: Kind::Network(network),
            name: name.into(),
        }
    }

    /// The network in the file at `path`, named by the path; or why it cannot be used.
    pub fn from_file(path: &Path) -> Result<Evaluator, String> {
        let network = nnue::load(path)?;
        let name = format!("network {}", path.display());
        Ok(Evaluator::with_network(Arc::new(network), &name))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The network, unless this is the hand-crafted evaluation.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match &self.kind {
            Kind::HandCrafted => None,
            Kind::Network(network) => Some(network),
        }
    }

    pub fn is_network(&self) -> bool {
        matches!(self.kind, Kind::Network(_))
    }

    /// What turns its scores into chances and strength.
    pub fn calibration(&self) -> &Calibration {
        match &self.kind {
            Kind::HandCrafted => &eval::CALIBRATION,
            Kind::Network(network) => network.calibration(),
        }
    }

    /// One line for people: the name, a network's shape, and where its calibration comes
    /// from (`network g8.nnue: (768 -> 256) x 2 -> 1, ...; WDL model and UCI_Elo scale:
    /// the file's own`).
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::HandCrafted => self.name.to_string(),
            Kind::Network(network) => {
                let calibration = if network.own_calibration.is_some() {
                    "the file's own"
                } else {
                    "none in the file, the default (fitted to g7's games)"
                };
                format!(
                    "{}: {}; WDL model and UCI_Elo scale: {calibration}",
                    self.name,
                    network.shape()
                )
            }
        }
    }

    /// The value of `board` (not in check) for the side to move, from scratch: what
    /// `EvalState::evaluate` gives at any ply.
    pub fn evaluate(&self, board: &Board, pawns: &mut PawnTable) -> Score {
        match &self.kind {
            Kind::HandCrafted => eval::evaluate(board, pawns),
            Kind::Network(network) => network_score(board, || network.evaluate(board)),
        }
    }
}

/// A network's value of `board`: the hand-crafted evaluation's exact one where it knows
/// the position outright (a bare king against mating material, too little to mate: too
/// rare in the network's data), else the network's `output`, kept below the tablebase
/// scores.
#[inline(always)]
fn network_score(board: &Board, output: impl FnOnce() -> Score) -> Score {
    exact(board).unwrap_or_else(|| output().clamp(-TB_BOUND + 1, TB_BOUND - 1))
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::built_in()
    }
}

/// The same evaluation: the same network (the same weights) or both hand-crafted.
impl PartialEq for Evaluator {
    fn eq(&self, other: &Evaluator) -> bool {
        match (&self.kind, &other.kind) {
            (Kind::HandCrafted, Kind::HandCrafted) => true,
            (Kind::Network(a), Kind::Network(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Evaluator({})", self.name)
    }
}

/// What a search thread keeps to evaluate fast: the pawn structures the hand-crafted
/// evaluation has seen, and a network's accumulators along the line being searched.
pub struct EvalState {
    /// Pawn structures this thread has evaluated.
    pub pawns: PawnTable,
    accumulators: AccumulatorStack,
}

impl Default for EvalState {
    fn default() -> EvalState {
        EvalState {
            pawns: PawnTable::default(),
            accumulators: AccumulatorStack::new(MAX_PLY + 4),
        }
    }
}

impl EvalState {
    /// Starts a line at `board` (ply 0).
    pub fn reset(&mut self, evaluator: &Evaluator, board: &Board) {
        if let Kind::Network(network) = &evaluator.kind {
            self.accumulators.reset(network, board);
        }
    }

    /// The position at `ply` is reached by `m` from `board`, the one before.
    #[inline(always)]
    pub fn record(&mut self, evaluator: &Evaluator, ply: usize, board: &Board, m: Move) {
        if evaluator.is_network() {
            self.accumulators.record(ply, Changes::of(board, m));
        }
    }

    /// The position at `ply` is reached by a null move.
    #[inline(always)]
    pub fn record_null(&mut self, ply: usize) {
        self.accumulators.record(ply, Changes::NONE);
    }

    /// The value of `board`, the position at `ply` (not in check), for the side to move.
    #[inline]
    pub fn evaluate(&mut self, evaluator: &Evaluator, board: &Board, ply: usize) -> Score {
        match &evaluator.kind {
            Kind::HandCrafted => eval::evaluate(board, &mut self.pawns),
            Kind::Network(network) => network_score(board, || {
                let score = self.accumulators.evaluate(network, board, ply);
                // The accumulators kept along the line are those of the position.
                debug_assert_eq!(score, network.evaluate(board), "{}", board.to_fen());
                score
            }),
        }
    }
}
