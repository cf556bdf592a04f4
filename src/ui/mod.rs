//! The front ends for people, beside the protocols for programs (`comm`): the console
//! (commands typed at a prompt: positions, searches, perft, tools) and the terminal game
//! (`ferrum play`).

pub mod console;
pub mod game;

use crate::board::Board;
use crate::evaluator::Evaluator;
use crate::nnue;
use crate::types::Color;

/// What `eval` shows a person: the network's score (`evaluator`'s, the built-in one when
/// that is the hand-crafted evaluation), then the hand-crafted evaluation by term (both
/// from White's view, as the breakdown is).
pub fn eval_text(board: &Board, evaluator: &Evaluator) -> String {
    let network = evaluator.network().cloned().unwrap_or_else(nnue::embedded);
    let score = network.evaluate(board) * board.side_to_move().sign();
    let side = if board.side_to_move() == Color::White {
        "White"
    } else {
        "Black"
    };
    format!(
        "network {}: {:+.2} for White ({side} to move)\n\nhand-crafted evaluation:\n{}",
        network.shape(),
        f64::from(score) / 100.0,
        crate::eval::breakdown(board)
    )
}
