//! Static evaluation: a tapered (midgame, endgame) sum of weighted terms, with the endgame
//! part scaled down in drawish endings and exact values where the material decides.
//!
//! Each term (material and placement, pawn structure, passed pawns, mobility, pieces, king
//! safety, threats) is computed here from the board, in its own module. Every term is
//! written once, generic over an accumulator (`Acc`): the engine's sums the weights
//! (`Sum`), the tuner's records how often each weight applies (`trace`), and the `eval`
//! command's splits the sum by term. The three cannot drift apart.

mod attacks;
mod cache;
mod endgame;
mod king;
pub mod masks;
mod params;
mod pawns;
mod pieces;
mod psqt;
mod threats;
pub mod weights;

pub use crate::types::{MAX_PHASE, PHASE_WEIGHT, Phased};
pub use cache::EvalCache;
pub use endgame::KNOWN_WIN;
pub use params::PARAMS;
pub use pawns::PawnTable;

use crate::board::Board;
use crate::calibration::{Calibration, WdlModel};
use crate::types::{Color, PieceType, Score};
use std::fmt::Write;
use weights::{Family, MATERIAL, PSQT, TEMPO};

/// Takes each weight that applies, with how often it applies, for one side.
pub trait Acc {
    fn add(&mut self, color: Color, weight: usize, count: i32);
}

/// The engine's accumulator: the weighted sum, White minus Black.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sum(pub Phased);

impl Acc for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, weight: usize, count: i32) {
        self.0 += PARAMS[weight] * (count * color.sign());
    }
}

/// The hand-crafted evaluation's calibration. Its WDL model was fitted to 43,292 scored
/// moves of Ferrum's self-play at 3+0.03; its UCI_Elo budgets (1,000 nodes at the bottom,
/// 8,000 at 1500, 320,000 at 2000, 4 million at 2500) to matches against Stockfish 15.1
/// at the same UCI_Elo, whose scale stretches between 1500 and 2000, hence the steeper
/// middle (docs/strength-limit.md).
pub const CALIBRATION: Calibration = Calibration {
    wdl: WdlModel {
        a: [-89.797, 641.370, -1025.994, 566.745],
        b: [86.620, -82.634, -63.997, 123.537],
    },
    log2_nodes: [10.0, 13.0, 18.3, 22.0, 24.0],
};

/// The position's value in centipawns for the side to move.
#[inline]
pub fn evaluate(board: &Board, pawns: &mut PawnTable) -> Score {
    if let Some(score) = endgame::exact(board) {
        return score * board.side_to_move().sign();
    }
    let entry = pawns.probe(board);
    let mut sum = Sum(psqt::pieces(board) + entry.score);
    terms(board, entry.passed, &mut sum);
    blend(board, sum.0) * board.side_to_move().sign()
}

/// The value of a position the evaluation knows outright, for the side to move: too
/// little material to mate, or a bare king against pieces that mate by force.
pub fn exact(board: &Board) -> Option<Score> {
    endgame::exact(board).map(|score| score * board.side_to_move().sign())
}

/// `evaluate` without a pawn table, for tools and tests that look at single positions.
pub fn evaluate_once(board: &Board) -> Score {
    evaluate(board, &mut PawnTable::new())
}

/// The terms computed at every evaluation: all but material, placement and pawn structure.
#[inline(always)]
fn terms<A: Acc>(board: &Board, passed: crate::types::Bitboard, acc: &mut A) {
    let attacks = pieces::mobility(board, acc);
    pieces::placement(board, acc);
    pawns::passers(board, passed, &attacks, acc);
    king::safety(board, &attacks, acc);
    threats::threats(board, &attacks, acc);
    acc.add(board.side_to_move(), TEMPO.single(), 1);
}

/// The midgame and endgame sums blended by the phase, the endgame part scaled (White's view).
#[inline(always)]
fn blend(board: &Board, sum: Phased) -> Score {
    let phase = board.phase().min(MAX_PHASE);
    let scale = endgame::scale(board, sum.eg);
    (sum.mg * phase + sum.eg * (MAX_PHASE - phase) * scale / endgame::SCALE_NORMAL) / MAX_PHASE
}

/// Material and placement for `acc`, weight by weight (the engine adds up `psqt`'s tables,
/// which fold the two together).
fn base<A: Acc>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        for kind in PieceType::ALL {
            for sq in board.pieces(color, kind) {
                acc.add(color, MATERIAL.at(kind.index()), 1);
                acc.add(
                    color,
                    PSQT.at(64 * kind.index() + sq.relative(color).index()),
                    1,
                );
            }
        }
    }
}

/// Every term for `acc`, computed afresh.
fn all_terms<A: Acc>(board: &Board, acc: &mut A) {
    base(board, acc);
    let passed = pawns::structure(board, acc);
    terms(board, passed, acc);
}

/// How a position's evaluation is made of the weights, for the tuner: each weight's count,
/// White's minus Black's, the phase and the endgame scale. The evaluation is
/// `(mg * phase + eg * (24 - phase) * scale / 128) / 24` of the counted weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub counts: Vec<(u16, i16)>,
    pub phase: i32,
    pub scale: i32,
}

struct Counts(Vec<i32>);

impl Acc for Counts {
    fn add(&mut self, color: Color, weight: usize, count: i32) {
        self.0[weight] += count * color.sign();
    }
}

/// The trace of `board`'s evaluation; `None` where the value is known outright (exact
/// endings), which no weight affects.
pub fn trace(board: &Board) -> Option<Trace> {
    if endgame::exact(board).is_some() {
        return None;
    }
    let mut counts = Counts(vec![0; weights::COUNT]);
    all_terms(board, &mut counts);
    let mut sum = Sum::default();
    all_terms(board, &mut sum);
    Some(Trace {
        counts: counts
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
            .collect(),
        phase: board.phase().min(MAX_PHASE),
        scale: endgame::scale(board, sum.0.eg),
    })
}

/// The sum of each family of terms for each side, for the `eval` breakdown.
#[derive(Default)]
struct ByFamily([[Phased; 2]; Family::ALL.len()]);

impl Acc for ByFamily {
    fn add(&mut self, color: Color, weight: usize, count: i32) {
        let family = weights::group_of(weight).family as usize;
        self.0[family][color.index()] += PARAMS[weight] * count;
    }
}

/// Each family of terms for each side, midgame and endgame: White's, Black's and the
/// difference. The families' differences add up to the evaluation before blending.
pub fn families(board: &Board) -> Vec<(Family, [Phased; 2])> {
    let mut by = ByFamily::default();
    all_terms(board, &mut by);
    Family::ALL.iter().map(|&f| (f, by.0[f as usize])).collect()
}

/// The evaluation with its parts, as the `eval` command prints it.
pub fn breakdown(board: &Board) -> String {
    let phase = board.phase().min(MAX_PHASE);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<16} | {:>13} | {:>13} | {:>20}",
        "term", "White", "Black", "White - Black"
    );
    let _ = writeln!(
        text,
        "{:<16} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6} {:>6}",
        "", "mg", "eg", "mg", "eg", "mg", "eg", "blend"
    );
    let rule = format!("{:-<16}-+-{:-<13}-+-{:-<13}-+-{:-<20}", "", "", "", "");
    let _ = writeln!(text, "{rule}");
    let mut total = Phased::ZERO;
    for (family, [white, black]) in families(board) {
        let diff = white - black;
        total += diff;
        let _ = writeln!(
            text,
            "{:<16} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6} {:>6}",
            family.name(),
            white.mg,
            white.eg,
            black.mg,
            black.eg,
            diff.mg,
            diff.eg,
            diff.taper(phase)
        );
    }
    let _ = writeln!(text, "{rule}");
    let _ = writeln!(
        text,
        "{:<16} | {:>13} | {:>13} | {:>6} {:>6} {:>6}",
        "total",
        "",
        "",
        total.mg,
        total.eg,
        total.taper(phase)
    );
    let scale = endgame::scale(board, total.eg);
    let _ = writeln!(
        text,
        "phase {phase} of {MAX_PHASE} (midgame weight {}%), endgame scale {scale}/{}",
        100 * phase / MAX_PHASE,
        endgame::SCALE_NORMAL
    );
    let score = evaluate_once(board);
    let white = score * board.side_to_move().sign();
    if endgame::exact(board).is_some() {
        let _ = writeln!(text, "known result: the terms above do not apply");
    }
    let _ = write!(
        text,
        "evaluation {score} cp for the side to move ({white} cp for White)"
    );
    text
}
