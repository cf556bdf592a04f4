//! The end of the game by rule: mate and stalemate, which need the legal moves, on top of
//! the board's own draw tests (fifty moves, repetition, insufficient material).

use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::Color;

/// Whether the game is over or drawn, with the legal moves to tell mate from a draw.
pub trait GameEnd {
    /// The result (`1-0`, `0-1`, `1/2-1/2`) and its reason when the game is over by rule:
    /// mate, stalemate, the fifty-move rule, threefold repetition or insufficient material.
    fn game_over(&self) -> Option<(&'static str, &'static str)>;

    /// A draw the search can score without looking further, `ply` plies below its root: the
    /// fifty-move rule (unless the side to move is checkmated), insufficient material, or a
    /// repetition as `Board::is_search_repetition` counts it.
    fn is_draw(&self, ply: usize) -> bool;
}

impl GameEnd for Board {
    fn game_over(&self) -> Option<(&'static str, &'static str)> {
        if legal_moves(self).is_empty() {
            return Some(match (self.in_check(), self.side_to_move()) {
                (false, _) => ("1/2-1/2", "Stalemate"),
                (true, Color::White) => ("0-1", "Black mates"),
                (true, Color::Black) => ("1-0", "White mates"),
            });
        }
        if self.is_fifty_move_draw() {
            Some(("1/2-1/2", "Draw by fifty move rule"))
        } else if self.repetitions() >= 2 {
            Some(("1/2-1/2", "Draw by repetition"))
        } else if self.is_insufficient_material() {
            Some(("1/2-1/2", "Draw by insufficient material"))
        } else {
            None
        }
    }

    fn is_draw(&self, ply: usize) -> bool {
        (self.is_fifty_move_draw() && (!self.in_check() || !legal_moves(self).is_empty()))
            || self.is_insufficient_material()
            || self.is_search_repetition(ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;

    #[test]
    fn fifty_moves() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
        assert!(board.is_fifty_move_draw() && board.is_draw(0));
        // In check on the hundredth half-move: a draw if there is a way out of it...
        let board = Board::from_fen("4k3/8/8/8/8/8/8/r3K3 w - - 100 80").unwrap();
        assert!(board.is_draw(0));
        // ...but checkmate stands.
        let board = Board::from_fen("4k3/8/8/8/8/8/1q6/r3K3 w - - 100 80").unwrap();
        assert!(!board.is_draw(0));
    }

    #[test]
    fn repetitions_before_and_inside_the_search() {
        let mut board = Board::startpos();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            board.make_move(board.parse_move(m).unwrap());
        }
        // Once before the root: not yet a draw for the search at the root...
        assert!(!board.is_draw(0));
        // ...but the same shuffle played inside the search is.
        assert!(board.is_draw(4));
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            board.make_move(board.parse_move(m).unwrap());
        }
        // Twice before the root: a draw anywhere.
        assert!(board.is_draw(0));
    }
}
