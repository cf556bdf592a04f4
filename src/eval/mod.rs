//! Static evaluation: a tapered sum of material and piece-square values, blended between
//! midgame and endgame by the material left, kept up to date by the board as pieces move.

mod phased;
pub mod psqt;
pub mod wdl;

pub use phased::{MAX_PHASE, PHASE_WEIGHT, Phased};

use crate::board::Board;
use crate::types::{Color, PieceType, Score};
use std::fmt::Write;

/// Bonus for having the move: the side to move can usually improve its position.
pub const TEMPO: Score = 10;

/// The position's value in centipawns for the side to move.
#[inline]
pub fn evaluate(board: &Board) -> Score {
    board.psqt().taper(board.phase()) * board.side_to_move().sign() + TEMPO
}

/// The evaluation with its parts, as the `eval` command prints it.
pub fn breakdown(board: &Board) -> String {
    let material = |color: Color| {
        PieceType::ALL.iter().fold(Phased::ZERO, |sum, &kind| {
            let n = board.pieces(color, kind).count() as i32;
            sum + Phased::new(
                psqt::MATERIAL[kind.index()].mg * n,
                psqt::MATERIAL[kind.index()].eg * n,
            )
        })
    };
    let material = material(Color::White) - material(Color::Black);
    let placement = board.psqt() - material;
    let phase = board.phase();
    let mut text = String::new();
    let row = |text: &mut String, name: &str, s: Phased| {
        let _ = writeln!(
            text,
            "{name:<20} {:>7} {:>7} {:>7}",
            s.mg,
            s.eg,
            s.taper(phase)
        );
    };
    let _ = writeln!(
        text,
        "{:<20} {:>7} {:>7} {:>7}",
        "term (White's view)", "mg", "eg", "blend"
    );
    row(&mut text, "material", material);
    row(&mut text, "piece-square", placement);
    row(&mut text, "total", board.psqt());
    let _ = writeln!(
        text,
        "phase {phase} of {MAX_PHASE} (midgame weight {}%)",
        100 * phase.min(MAX_PHASE) / MAX_PHASE
    );
    let _ = writeln!(text, "tempo {TEMPO} for the side to move");
    let score = evaluate(board);
    let white = score * board.side_to_move().sign();
    let _ = write!(
        text,
        "evaluation {score} cp for the side to move ({white} cp for White)"
    );
    text
}
