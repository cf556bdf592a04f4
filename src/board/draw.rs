//! Draws by rule that the position shows by itself: the fifty-move rule, repetition and
//! material that cannot mate. Telling a draw from mate needs the legal moves, so the
//! verdicts that combine these (`game_over`, `is_draw`) are in `crate::rules`.

use super::Board;
use crate::types::{Bitboard, PieceType};

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

    /// A repetition the search can score as a draw, `ply` plies below its root. Within the
    /// search one repetition is enough (the side that allowed it could repeat again); a
    /// position from before the root must have occurred twice already, or a losing side would
    /// count on a draw it cannot claim.
    pub fn is_search_repetition(&self, ply: usize) -> bool {
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
}
