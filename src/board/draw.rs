//! Draws by rule that the search must see: the fifty-move rule, repetition and material
//! that cannot mate.

use super::Board;
use crate::movegen::legal_moves;
use crate::types::{Bitboard, Color, PieceType};

/// Light squares (b1, d1, ..., a2, ...), for telling bishops apart by square colour.
const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);

impl Board {
    /// Fifty moves by each side without a capture or pawn move. A checkmate on the hundredth
    /// half-move still wins, so the caller checks for mate when the side to move is in check.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove >= 100
    }

    /// Neither side can mate by any sequence of legal moves: kings alone, king and one minor
    /// piece against a king, or only bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy =
            self.kind(PieceType::Pawn) | self.kind(PieceType::Rook) | self.kind(PieceType::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.kind(PieceType::Knight);
        let bishops = self.kind(PieceType::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & LIGHT_SQUARES).is_empty() || (bishops & !LIGHT_SQUARES).is_empty())
    }

    /// The result (`1-0`, `0-1`, `1/2-1/2`) and its reason when the game is over by rule:
    /// mate, stalemate, the fifty-move rule, threefold repetition or insufficient material.
    pub fn game_over(&self) -> Option<(&'static str, &'static str)> {
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

    /// A draw the search can score without looking further, `ply` plies below its root: the
    /// fifty-move rule (unless the side to move is checkmated), insufficient material, or a
    /// repetition. Within the search one repetition is enough
    /// (the side that allowed it could repeat again); a position from before the root must
    /// have occurred twice already, or a losing side would count on a draw it cannot claim.
    pub fn is_draw(&self, ply: usize) -> bool {
        (self.is_fifty_move_draw() && (!self.in_check() || !legal_moves(self).is_empty()))
            || self.is_insufficient_material()
            || self.is_search_repetition(ply)
    }

    fn is_search_repetition(&self, ply: usize) -> bool {
        // Only positions since the last capture or pawn move can recur, and only those with
        // the same side to move: every second one, from two plies back.
        let reach = (self.halfmove as usize).min(self.history.len());
        let mut before_root = 0;
        let mut distance = 1;
        while distance < reach {
            // The saved key of the move `distance + 1` plies back is the position before it.
            if self.history[self.history.len() - 1 - distance].key == self.key {
                // Inside the search unless that is beyond the root.
                if distance < ply {
                    return true;
                }
                before_root += 1;
                if before_root >= 2 {
                    return true;
                }
            }
            distance += 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insufficient(fen: &str) -> bool {
        Board::from_fen(fen).unwrap().is_insufficient_material()
    }

    #[test]
    fn material_that_cannot_mate() {
        assert!(insufficient("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(insufficient("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
        assert!(insufficient("4kb2/8/8/8/8/8/8/4K3 w - - 0 1"));
        // Bishops on f1 and c8 both stand on light squares.
        assert!(insufficient("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
        assert!(!insufficient("1b2k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
        assert!(!insufficient("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));
        assert!(!insufficient("4k3/8/8/8/8/8/8/4KB1n w - - 0 1"));
        assert!(!insufficient("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
        assert!(!insufficient("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
    }

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
